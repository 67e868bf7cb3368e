"""The Gomocup protocol, both sides: zerosum's gomoku engine as a brain behind the
Piskvork manager protocol (:class:`GomocupBrain`, ``zerosum gomocup``), and any brain as
an agent, spoken to as a manager would (:class:`GomocupAgent`, the agent spec
``gomocup:COMMAND``).

The protocol is Petr Lastovicka's "Gomoku AI protocol", spoken over standard input and
output by every Gomocup brain: the manager sends one command a line, the brain answers
each command that expects an answer with one line (``OK``, ``x,y``, ``ERROR ...`` or
``UNKNOWN ...``), optionally preceded by ``MESSAGE`` lines. Coordinates are ``x,y``,
zero-based, ``x`` the column from the left and ``y`` the row from the top: exactly the
game's own ``action(x, y)``. :class:`GomocupBrain` reads lines from any text stream and
writes to any other, so it runs on ``stdin``/``stdout`` (``zerosum gomocup``) and in a
test on :class:`io.StringIO`.

Commands and answers:

``START n`` / ``RECTSTART w,h`` / ``RESTART``
    a new empty board (``RESTART`` keeps the size): ``OK``, or ``ERROR`` for a size the
    game does not play (7 to 25 a side).
``BEGIN``, ``TURN x,y``, ``BOARD`` ... ``DONE``
    the brain moves and answers ``x,y``: first on an empty board, after the opponent's
    ``x,y``, or on the position the ``x,y,field`` lines impose (field 1 the brain's
    stone, 2 the opponent's), in any order.
``PLAY x,y``
    the brain's move is imposed; it plays it and echoes ``x,y``.
``TAKEBACK x,y``
    the stone on ``x,y`` is removed and its owner is to move again: ``OK``.
``INFO key value``
    no answer. ``timeout_turn``, ``timeout_match``, ``time_left`` (milliseconds),
    ``max_memory`` (bytes), ``rule``, ``game_type`` and ``folder`` are kept; other keys
    are ignored, as the protocol asks.
``ABOUT``
    ``name="zerosum", version="...", author="..."``.
``END``
    the brain stops at once, without answering; so does the end of the input.

Decisions where the protocol leaves room:

* **Bad lines never stop the brain.** A malformed command or coordinate, a square off
  the board or already taken, a move command before ``START``: ``ERROR`` naming the
  line and what is wrong, with the position unchanged. An unknown command:
  ``UNKNOWN``. A bad line inside ``BOARD`` is answered ``ERROR`` at once and skipped;
  ``DONE`` then moves on the position the other lines build. ``SWAP2BOARD`` (the
  swap2 opening) is not supported: its lines are read up to ``DONE``, which is
  answered ``UNKNOWN``. An answer echoes at most :data:`ECHO_LIMIT` characters of a
  bad line (then ``...`` and its length), so a megabyte of garbage gets a short answer.
  Every answer is one line of ASCII: other characters are written as Python escapes
  (``\\uff17``), so that no stream encoding can fail on them.
* **ASCII only.** Numbers are ASCII digits with an optional sign, at most
  :data:`MAX_DIGITS` of them, and commands are ASCII words: the digit class of
  :mod:`re`, ``int`` and ``str.upper`` would also take ``７,７`` (full-width digits),
  ``٧`` (Arabic-Indic) or ``ſtart`` (``"ſ".upper()`` is ``"S"``), which no manager
  sends; they are refused like any other bad line.
* **INFO problems are reported late.** The manager does not read answers to ``INFO``,
  so, as the protocol recommends, a value the brain cannot use (not a number, a
  negative time, a memory limit too small to play well) is reported as a ``MESSAGE``
  line just before the answer to the next other command.
* **Rules.** ``rule`` is a bit mask: 1 exactly five (an overline does not win),
  2 continuous game, 4 renju, 8 caro. The brain plays freestyle, exactly-five and
  renju (black's forbidden moves never played, on the pure engine: the compiled kernel
  does not know them); caro and the continuous game are played as the single game of
  five the other bits describe, and a ``MESSAGE`` says so before the next answer. A
  ``BOARD`` line with field 3 (a stone of an earlier winning line, in a continuous
  game) is refused like any other bad line.
* **Time.** A move's budget is the smaller of ``timeout_turn`` and 1/20 of the match
  time left (``time_left``; before the manager sends one, ``timeout_match`` less the
  time this brain has used since), less a safety margin of 50 ms and 10%; the clock
  starts when the command arrives. ``timeout_turn 0`` means "as fast as possible": a
  one-ply search. The game's root threat search, which the engine cannot interrupt,
  gets node budgets scaled to the move's budget (:data:`THREAT_SECONDS`), and the
  engine looks at the clock every :data:`POLL_INTERVAL` nodes. Iterative deepening
  stops when the budget is used, when an iteration ends past :data:`EARLY_STOP` of it
  (the next would not finish), or when it proves a win; each completed iteration is
  reported as a ``MESSAGE`` line (depth, score, nodes, speed and the principal
  variation in ``x,y``). Without any ``INFO`` the brain thinks
  :data:`DEFAULT_TIMEOUT_TURN` milliseconds a move.
* **Memory.** ``max_memory`` sizes the engine's transposition table
  (:func:`table_entries`); without a limit the table holds up to
  :data:`DEFAULT_TABLE_ENTRIES` entries.

**The client.** :class:`GomocupAgent` runs a brain as a child process
(:class:`~zerosum.protocols.engines.EngineProcess`) and plays it through the same line
syntax the brain reads: ``x,y`` is the game's own ``action(x, y)`` and
``coordinates(move)``, so the gomoku adapter is the game's, and this module holds only
the protocol's words. What it sends, and how it treats a brain that misbehaves, is in
the class's notes.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TextIO

from zerosum import __version__
from zerosum.agents import engine_for, refuse_finished
from zerosum.game import (
    WIN_THRESHOLD,
    MissingCapabilityError,
    ZerosumError,
    describe_depth,
    describe_score,
    other,
    outcome,
    quoted,
)
from zerosum.games.gomoku import Gomoku, GomokuState
from zerosum.protocols.engines import (
    EngineError,
    EngineIllegalMoveError,
    EngineProcess,
    EngineProtocolError,
)
from zerosum.search.engine import Engine, EngineOptions, Limits, Report
from zerosum.search.table import BYTES_PER_ENTRY

__all__ = [
    "ABOUT",
    "BASE_MEMORY",
    "DEFAULT_TABLE_ENTRIES",
    "DEFAULT_TIMEOUT_TURN",
    "DEFAULT_WAIT",
    "EARLY_STOP",
    "ECHO_LIMIT",
    "GOMOCUP_RULES",
    "MAX_DIGITS",
    "MOVES_TO_PLAN",
    "POLL_INTERVAL",
    "START_TIMEOUT",
    "THREAT_SECONDS",
    "GomocupAgent",
    "GomocupBrain",
    "TimeControl",
    "table_entries",
]

ABOUT = f'name="zerosum", version="{__version__}", author="the zerosum authors"'
"""The brain's answer to ``ABOUT``."""

DEFAULT_TIMEOUT_TURN = 5000
"""Milliseconds a move may take when the manager sends no ``INFO timeout_turn``."""

MOVES_TO_PLAN = 20
"""A move may use at most this fraction (one over it) of the match time left."""

UNLIMITED_TIME_LEFT = 2147483647
"""The ``time_left`` a manager sends when the match time is unlimited."""

SAFETY_SECONDS = 0.05
SAFETY_FRACTION = 0.10
FAST_SECONDS = 0.01
"""Below this budget (seconds, after the margin) the brain plays a one-ply search."""

EARLY_STOP = 0.6
"""Deepening stops once an iteration ends past this fraction of the budget."""

THREAT_SECONDS = 2.0
"""The move budget (seconds) at which the root threat search keeps the game's default
node budgets, which take up to about 0.4 s on 15x15 here and cannot be interrupted;
shorter budgets scale them down, longer ones up (at most :data:`THREAT_SCALE` times)."""

THREAT_SCALE = (0.05, 4.0)
"""The least and the most the root threat budgets are scaled by."""

POLL_INTERVAL = 64
"""Nodes between two checks of the clock: a few milliseconds of gomoku search."""

BASE_MEMORY = 64 << 20
"""Bytes the brain uses besides its table: the interpreter, zerosum, the game's tables and
its cache of line analyses (at most ~30 MB)."""

TABLE_SHARE = 0.5
"""The part of the memory above :data:`BASE_MEMORY` the table may take; the rest is for
the search's own objects."""

MIN_TABLE_ENTRIES = 1 << 12
MAX_TABLE_ENTRIES = 1 << 22

DEFAULT_TABLE_ENTRIES = 1 << 20
"""The table bound (entries) when the manager sets no memory limit: about 90 MB full."""

_RULE_EXACT_FIVE = 1
_RULE_CONTINUOUS = 2
_RULE_RENJU = 4
_RULE_CARO = 8

ECHO_LIMIT = 40
"""The most characters of a bad line that an answer echoes."""

MAX_DIGITS = 18
"""The most digits a number may have: more than any size, time or memory needs, and few
enough that no answer echoes a huge number."""

# [0-9], not \d, which takes every Unicode digit; re.ASCII keeps \s to ASCII spaces too
_INTEGER = rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}"
_PAIR = re.compile(rf"({_INTEGER})\s*,\s*({_INTEGER})", re.ASCII)
_STONE = re.compile(rf"({_INTEGER})\s*,\s*({_INTEGER})\s*,\s*({_INTEGER})", re.ASCII)
_NUMBER = re.compile(_INTEGER, re.ASCII)
_NUMERIC_INFO = frozenset(
    ("timeout_turn", "timeout_match", "time_left", "max_memory", "rule", "game_type")
)


def table_entries(max_memory: int) -> int:
    """Return the transposition-table bound (entries) for a ``max_memory`` in bytes.

    Half of the memory above :data:`BASE_MEMORY`, at :data:`BYTES_PER_ENTRY` bytes an
    entry, kept between 4096 and 4194304 entries; 0 (no limit) gives
    :data:`DEFAULT_TABLE_ENTRIES`."""
    if max_memory <= 0:
        return DEFAULT_TABLE_ENTRIES
    entries = int((max_memory - BASE_MEMORY) * TABLE_SHARE / BYTES_PER_ENTRY)
    return max(MIN_TABLE_ENTRIES, min(entries, MAX_TABLE_ENTRIES))


@dataclass(slots=True)
class TimeControl:
    """The manager's time limits, in milliseconds as ``INFO`` sends them, and the
    seconds the brain has spent since the last ``time_left``.

    ``timeout_turn`` 0 asks for moves as fast as possible; ``timeout_match`` 0 means no
    match limit; ``time_left`` is ``None`` until the manager sends it (it may be
    negative, and :data:`UNLIMITED_TIME_LEFT` means unlimited)."""

    timeout_turn: int = DEFAULT_TIMEOUT_TURN
    timeout_match: int = 0
    time_left: int | None = None
    spent: float = 0.0

    def match_left(self) -> float | None:
        """Seconds left for the whole match, or ``None`` when it is unlimited."""
        if self.time_left is not None:
            if self.time_left >= UNLIMITED_TIME_LEFT:
                return None
            return max(self.time_left / 1000, 0.0)
        if self.timeout_match > 0:
            return max(self.timeout_match / 1000 - self.spent, 0.0)
        return None

    def budget(self) -> float | None:
        """Seconds the next move may search, the safety margin taken off; ``None`` asks
        for a one-ply search (no time to think, or ``timeout_turn`` 0)."""
        if self.timeout_turn <= 0:
            return None
        seconds = self.timeout_turn / 1000
        left = self.match_left()
        if left is not None:
            seconds = min(seconds, left / MOVES_TO_PLAN)
        seconds -= SAFETY_SECONDS + SAFETY_FRACTION * seconds
        return seconds if seconds >= FAST_SECONDS else None


class _CommandError(ZerosumError):
    """A command the brain cannot carry out; its message follows ``ERROR``."""


def _echo(text: str, *, quote: bool = False) -> str:
    """``text`` as an answer may show it: at most :data:`ECHO_LIMIT` characters (in
    quotes if ``quote``), then ``...`` and the whole length when it is longer."""
    shown = text[:ECHO_LIMIT]
    if quote:
        shown = repr(shown)
    return shown if len(text) <= ECHO_LIMIT else f"{shown}... ({len(text)} characters)"


_COORDINATES = (
    f"coordinates are x,y (two whole numbers, ASCII digits, at most {MAX_DIGITS}), as 7,7"
)


def _coordinates(text: str) -> tuple[int, int] | None:
    found = _PAIR.fullmatch(text.strip())
    return (int(found[1]), int(found[2])) if found else None


class GomocupBrain:
    """A Gomocup brain: feed it the manager's lines, it writes its answers to ``output``.

    :meth:`handle` takes one line and returns ``False`` once ``END`` has come;
    :meth:`run` feeds it lines until then (or until the lines run out). Every answer is
    one line, flushed at once. ``messages`` turns the ``MESSAGE`` report of each search
    iteration on or off; ``clock`` (seconds) measures the time of a move.

    ``last`` is the final search report of the latest move (``None`` when the move did
    not come from a search).

    ``caps`` limits every search's depth and nodes on top of the manager's time (its
    ``time`` is ignored), so that a match can pit the brain against itself at fixed nodes;
    ``options`` replaces the engine's defaults (to compare settings), its table kept
    within the manager's memory limit."""

    def __init__(
        self,
        output: TextIO,
        *,
        messages: bool = True,
        clock: Callable[[], float] = time.perf_counter,
        caps: Limits | None = None,
        options: EngineOptions | None = None,
    ) -> None:
        self.messages = messages
        self.caps = caps
        self.options = options
        self.time = TimeControl()
        self.max_memory = 0
        self.rule = 0
        self.game_type: int | None = None
        self.folder: str | None = None
        self.last: Report | None = None
        self._out = output
        self._clock = clock
        self._notes: list[str] = []
        self._size: tuple[int, int] | None = None
        self._game: Any = None
        self._engine: Engine | None = None
        self._table_size = 0
        # the position as the manager sees it: square -> True for the brain's own stones
        self._stones: dict[int, bool] = {}
        self._me = 0
        self._state: Any = None
        # a multi-line command being read (BOARD, SWAP2BOARD): its name, lines, start
        self._block: tuple[str, list[tuple[int, bool]], float] | None = None
        self._commands: dict[str, Callable[[str, float], None]] = {
            "START": self._start,
            "RECTSTART": self._rectstart,
            "RESTART": self._restart,
            "BEGIN": self._begin,
            "TURN": self._turn,
            "BOARD": self._board,
            "SWAP2BOARD": self._swap2board,
            "PLAY": self._play_imposed,
            "TAKEBACK": self._takeback,
            "INFO": self._info,
            "ABOUT": self._about,
        }

    @property
    def engine(self) -> Engine | None:
        """The engine of the current game (``None`` before the first search of a board)."""
        return self._engine

    def __repr__(self) -> str:
        size = "no board" if self._size is None else f"{self._size[0]}x{self._size[1]}"
        return f"GomocupBrain({size}, {len(self._stones)} stones)"

    # ------------------------------------------------------------------ the loop

    def run(self, lines: Iterable[str]) -> None:
        """Handle ``lines`` one by one until ``END`` or the end of the input."""
        for line in lines:
            if not self.handle(line):
                return

    def handle(self, line: str) -> bool:
        """Handle one line from the manager; return ``False`` when it was ``END``."""
        started = self._clock()
        text = line.strip()
        word, rest = (*text.split(None, 1), "", "")[:2]
        command = word.upper() if word.isascii() else ""  # "ſtart".upper() is "START"
        if command == "END":
            return False
        if self._block is not None:
            self._block_line(text, command, started)
            return True
        if not text:
            return True
        handler = self._commands.get(command)
        if command != "INFO":
            self._say_notes()
        if handler is None:
            self._say(
                f"UNKNOWN command {_echo(word, quote=True)}: the brain knows "
                f"{', '.join(self._commands)}, END"
            )
            return True
        self._guarded(lambda: handler(rest.strip(), started), text)
        return True

    def _guarded(self, action: Callable[[], None], text: str) -> None:
        """Run ``action``; answer ``ERROR`` for whatever it cannot do."""
        try:
            action()
        except ZerosumError as error:
            self._say(f"ERROR {error}")
        except Exception as error:  # a brain that dies forfeits every game left
            self._say(
                f"ERROR internal error on {_echo(text, quote=True)}: {type(error).__name__}: "
                f"{error}"
            )

    def _say(self, line: str) -> None:
        # one line, and ASCII: an echo of a manager's stray bytes must neither split the
        # answer nor fail to encode on a stream that is not UTF-8
        flat = " ".join(line.splitlines())
        self._out.write(flat.encode("ascii", "backslashreplace").decode("ascii") + "\n")
        self._out.flush()

    def _say_notes(self) -> None:
        for note in self._notes:
            self._say(f"MESSAGE {note}")
        self._notes.clear()

    # ------------------------------------------------------------------ boards

    def _new_board(self, width: int, height: int, command: str) -> None:
        try:
            game = Gomoku(width, height, rule=self._game_rule())
        except ZerosumError as error:
            raise _CommandError(f"{command}: unsupported board: {error}") from None
        self._size = (width, height)
        self._game = game
        self._engine = None
        self._stones = {}
        self._me = 0
        self._state = game.initial_state()
        # a search of one node now loads (or, once per CPU, compiles) a compiled
        # kernel, so that it is paid before the first move's clock starts
        engine = self._engine_for_game()
        engine.search(self._state, Limits(nodes=1))
        engine.reset()
        self._say("OK")

    def _game_rule(self) -> str:
        if self.rule & _RULE_RENJU:
            return "renju"
        return "exact5" if self.rule & _RULE_EXACT_FIVE else "freestyle"

    def _start(self, rest: str, started: float) -> None:
        what = f"START {_echo(rest)}".rstrip()
        if not _NUMBER.fullmatch(rest):
            raise _CommandError(f"{what}: the board size must be a whole number, as START 15")
        size = int(rest)
        self._new_board(size, size, what)

    def _rectstart(self, rest: str, started: float) -> None:
        what = f"RECTSTART {_echo(rest)}".rstrip()
        pair = _coordinates(rest)
        if pair is None:
            raise _CommandError(f"{what}: give width,height, as RECTSTART 20,15")
        self._new_board(pair[0], pair[1], what)

    def _restart(self, rest: str, started: float) -> None:
        if self._size is None:
            raise _CommandError("RESTART: no board to restart; send START first")
        self._new_board(*self._size, "RESTART")

    def _require_board(self, what: str) -> Any:
        if self._game is None:
            raise _CommandError(f"{what}: no board yet; send START first")
        return self._game

    def _square(self, what: str, text: str) -> int:
        """Read ``x,y`` as an empty square of the board, naming ``what`` if it is not."""
        game = self._require_board(what)
        pair = _coordinates(text)
        if pair is None:
            raise _CommandError(f"{what}: {_COORDINATES}")
        x, y = pair
        width, height = game.width, game.height
        if not (0 <= x < width and 0 <= y < height):
            raise _CommandError(
                f"{what}: square {x},{y} is off the {width}x{height} board "
                f"(x 0 to {width - 1}, y 0 to {height - 1})"
            )
        square: int = game.action(x, y)
        owner = self._stones.get(square)
        if owner is not None:
            whose = "the brain's" if owner else "the opponent's"
            raise _CommandError(
                f"{what}: square {x},{y} already holds {whose} stone "
                f"({len(self._stones)} stones on the board)"
            )
        return square

    def _rebuild(self, stones: dict[int, bool], me: int, to_move: int, game: Any = None) -> Any:
        """The state of ``game`` (default: the brain's) holding ``stones``, the brain
        playing as player ``me``."""
        own = [square for square, mine in stones.items() if mine]
        theirs = [square for square, mine in stones.items() if not mine]
        first, second = (own, theirs) if me == 0 else (theirs, own)
        return (game or self._game).state_from_stones(first, second, to_move)

    def _refuse_finished(self, what: str) -> None:
        game, state = self._game, self._state
        if not game.is_terminal(state):
            return
        ended = outcome(game, state)
        assert ended is not None
        if ended.winner is None:
            why = "the board is full"
        elif ended.winner == self._me:
            why = "the brain has five in a row"
        else:
            why = "the opponent has five in a row"
        raise _CommandError(f"{what}: the game is over: {why}")

    # ------------------------------------------------------------------ moves

    def _begin(self, rest: str, started: float) -> None:
        self._require_board("BEGIN")
        if self._stones:
            raise _CommandError(
                f"BEGIN: the board already holds {len(self._stones)} stones; BEGIN opens "
                f"an empty board (send RESTART, or BOARD to continue a game)"
            )
        self._me = 0
        self._state = self._game.initial_state()
        self._move(started)

    def _turn(self, rest: str, started: float) -> None:
        what = f"TURN {_echo(rest)}".rstrip()
        square = self._square(what, rest)
        self._refuse_finished(what)
        game = self._game
        if not self._stones:
            self._me = 1
            self._state = game.initial_state()
        if game.to_move(self._state) != self._me:
            self._state = game.result(self._state, square)
            self._stones[square] = False
        else:
            stones = {**self._stones, square: False}
            self._state = self._rebuild(stones, self._me, self._me)
            self._stones = stones
        self._move(started)

    def _play_imposed(self, rest: str, started: float) -> None:
        what = f"PLAY {_echo(rest)}".rstrip()
        square = self._square(what, rest)
        self._refuse_finished(what)
        self._place_own(square)
        x, y = self._game.coordinates(square)
        self._say(f"{x},{y}")

    def _takeback(self, rest: str, started: float) -> None:
        what = f"TAKEBACK {_echo(rest)}".rstrip()
        game = self._require_board(what)
        pair = _coordinates(rest)
        if pair is None:
            raise _CommandError(f"{what}: {_COORDINATES}")
        x, y = pair
        square = game.action(x, y) if 0 <= x < game.width and 0 <= y < game.height else None
        if square is None or square not in self._stones:
            raise _CommandError(
                f"{what}: no stone on {x},{y} to take back "
                f"({len(self._stones)} stones on the board)"
            )
        owner = self._me if self._stones[square] else other(self._me)
        stones = {s: mine for s, mine in self._stones.items() if s != square}
        self._state = self._rebuild(stones, self._me, owner)
        self._stones = stones
        self._say("OK")

    def _place_own(self, square: int) -> None:
        game = self._game
        if game.to_move(self._state) == self._me:
            self._state = game.result(self._state, square)
            self._stones[square] = True
        else:
            stones = {**self._stones, square: True}
            self._state = self._rebuild(stones, self._me, other(self._me))
            self._stones = stones

    def _move(self, started: float) -> None:
        """Search the position (the brain to move), play the move and answer ``x,y``."""
        self._refuse_finished("no move to make")
        square = self._think(started)
        self._place_own(square)
        x, y = self._game.coordinates(square)
        self._say(f"{x},{y}")
        self.time.spent += self._clock() - started

    def _engine_for_game(self) -> Engine:
        size = table_entries(self.max_memory)
        if self._engine is None or self._table_size != size or self._engine.game is not self._game:
            chosen = self.options
            options = (
                EngineOptions(table_size=size, poll_interval=POLL_INTERVAL)
                if chosen is None
                else replace(
                    chosen,
                    table_size=min(chosen.table_size, size),
                    poll_interval=min(chosen.poll_interval, POLL_INTERVAL),
                )
            )
            self._engine = engine_for(self._game, options)
            self._table_size = size
        return self._engine

    def _think(self, started: float) -> int:
        game, state = self._game, self._state
        engine = self._engine_for_game()
        budget = self.time.budget()
        clock = self._clock
        horizon, vcf, vct = Gomoku.DEFAULT_BUDGETS
        low, high = THREAT_SCALE
        scale = min(max((budget or 0.0) / THREAT_SECONDS, low), high)
        game.threat_budgets = (horizon, int(vcf * scale), int(vct * scale))
        caps = self.caps
        if budget is None:
            limits = caps if caps is not None else Limits(depth=1)
        else:
            seconds = max(budget - (clock() - started), FAST_SECONDS)
            limits = Limits(time=seconds) if caps is None else replace(caps, time=seconds)
        self.last = None
        for report in engine.iterate(state, limits):
            self.last = report
            if self.messages:
                self._say(f"MESSAGE {self._describe(report)}")
            if report.score >= WIN_THRESHOLD:
                break
            if budget is not None and clock() - started > EARLY_STOP * budget:
                break
        if self.last is not None:
            return int(self.last.best_move)
        # not even one iteration finished: a win at once, else the game's best guess
        move = game.winning_action(state)
        return int(move if move is not None else engine.root_moves(state)[0])

    def _describe(self, report: Report) -> str:
        coordinates = self._game.coordinates
        line = " ".join("{},{}".format(*coordinates(move)) for move in report.pv)
        score = describe_score(self._game.info, report.score, exact=report.solved)
        return (
            f"depth {describe_depth(report.depth)} score {score} "
            f"nodes {report.nodes} nps {report.nps} time {report.elapsed:.2f}s pv {line}"
        )

    # ------------------------------------------------------------------ BOARD

    def _board(self, rest: str, started: float) -> None:
        self._block = ("BOARD", [], started)

    def _swap2board(self, rest: str, started: float) -> None:
        self._block = ("SWAP2BOARD", [], started)

    def _block_line(self, text: str, command: str, started: float) -> None:
        assert self._block is not None
        name, lines, block_started = self._block
        if command == "DONE":
            self._block = None
            self._say_notes()
            if name == "SWAP2BOARD":
                self._say("UNKNOWN SWAP2BOARD: the swap2 opening is not supported")
                return
            self._guarded(lambda: self._board_done(lines, block_started), "BOARD")
            return
        if not text or name == "SWAP2BOARD" or self._game is None:
            return  # without a board, DONE answers one ERROR for the whole command
        try:
            lines.append(self._board_stone(text, lines))
        except ZerosumError as error:
            self._say(f"ERROR {error}")

    def _board_stone(self, text: str, earlier: list[tuple[int, bool]]) -> tuple[int, bool]:
        """Read one ``x,y,field`` line of a BOARD: the square and whether it is own."""
        found = _STONE.fullmatch(text)
        what = f"BOARD line {_echo(text, quote=True)}"
        if found is None:
            raise _CommandError(f"{what}: expected x,y,field (field 1 own, 2 opponent's) or DONE")
        field = int(found[3])
        if field == 3:
            raise _CommandError(f"{what}: continuous-game stones (field 3) are not supported")
        if field not in (1, 2):
            raise _CommandError(f"{what}: field {field} is neither 1 (own) nor 2 (opponent's)")
        x, y = int(found[1]), int(found[2])
        game = self._game
        if not (0 <= x < game.width and 0 <= y < game.height):
            raise _CommandError(
                f"{what}: square {x},{y} is off the {game.width}x{game.height} board"
            )
        square: int = game.action(x, y)
        if any(square == placed for placed, _ in earlier):
            raise _CommandError(f"{what}: square {x},{y} is given twice")
        return square, field == 1

    def _board_done(self, lines: list[tuple[int, bool]], started: float) -> None:
        self._require_board("BOARD")
        stones = dict(lines)
        own = sum(stones.values())
        me = 1 if len(stones) - own > own else 0
        self._state = self._rebuild(stones, me, me)
        self._stones = stones
        self._me = me
        self._move(started)

    # ------------------------------------------------------------------ INFO and ABOUT

    def _info(self, rest: str, started: float) -> None:
        key, value = (*rest.split(None, 1), "", "")[:2]
        key, value = key.lower(), value.strip()
        if key == "folder":
            self.folder = value
            return
        if key not in _NUMERIC_INFO:
            return  # the protocol: ignore what is not understood (evaluate, new keys)
        if not _NUMBER.fullmatch(value):
            self._notes.append(
                f"INFO {key} {_echo(value, quote=True)} ignored: not a whole number "
                f"(ASCII digits, at most {MAX_DIGITS})"
            )
            return
        number = int(value)
        if number < 0 and key != "time_left":
            self._notes.append(f"INFO {key} {number} ignored: it cannot be negative")
            return
        if key == "timeout_turn":
            self.time.timeout_turn = number
        elif key == "timeout_match":
            self.time.timeout_match = number
        elif key == "time_left":
            self.time.time_left = number
            self.time.spent = 0.0
        elif key == "max_memory":
            self._set_memory(number)
        elif key == "rule":
            self._set_rule(number)
        else:
            self.game_type = number

    def _set_memory(self, number: int) -> None:
        self.max_memory = number
        if 0 < number < BASE_MEMORY + MIN_TABLE_ENTRIES * BYTES_PER_ENTRY / TABLE_SHARE:
            self._notes.append(
                f"INFO max_memory {number}: below the {BASE_MEMORY >> 20} MB the brain "
                f"needs; playing with the smallest table ({MIN_TABLE_ENTRIES} entries)"
            )

    def _set_rule(self, number: int) -> None:
        before = self._game_rule()
        self.rule = number
        played = {
            "freestyle": "single games won by five or more in a row",
            "exact5": "single games won by exactly five in a row",
            "renju": "single games under renju rules",
        }[self._game_rule()]
        unsupported = [
            name
            for bit, name in ((_RULE_CONTINUOUS, "continuous game"), (_RULE_CARO, "caro"))
            if number & bit
        ]
        if number >= 16:
            unsupported.append(f"unknown bits {number & ~15}")
        if unsupported:
            self._notes.append(
                f"INFO rule {number}: {', '.join(unsupported)} not supported; playing {played}"
            )
        if self._game_rule() != before and self._size is not None:
            try:
                self._switch_rule()
            except ZerosumError as error:
                self._notes.append(f"INFO rule {number}: {error}")

    def _switch_rule(self) -> None:
        """Rebuild the game under the new rule, keeping the stones and the side to move."""
        assert self._size is not None
        game = Gomoku(*self._size, rule=self._game_rule())
        to_move = self._game.to_move(self._state)
        self._state = self._rebuild(self._stones, self._me, to_move, game)
        self._game = game
        self._engine = None

    def _about(self, rest: str, started: float) -> None:
        self._say(ABOUT)


# =========================================================================== the client

START_TIMEOUT = 30.0
"""Seconds a newly started engine has to answer its first command (``ABOUT``): its
program loading, which a loaded machine can make slow."""

DEFAULT_WAIT = 10.0
"""Seconds past its time per move (and for every other answer) that
:class:`GomocupAgent` waits before it gives the engine up as hung."""

GOMOCUP_RULES = {"freestyle": 0, "exact5": _RULE_EXACT_FIVE, "renju": _RULE_RENJU}
"""The ``INFO rule`` value of each rule of :class:`~zerosum.games.gomoku.Gomoku`."""

_UNSOLICITED = ("MESSAGE", "DEBUG")  # lines a brain may write before any answer


class GomocupAgent:
    """A Gomocup brain as an agent: an external program (a ``pbrain-*`` engine, or
    ``zerosum gomocup``) plays gomoku for us, spoken to as a manager speaks to it.

    ``command`` is the program and its arguments (a string is split as a POSIX shell
    would); ``cwd`` its working directory; ``time`` the seconds per move it is told
    (``INFO timeout_turn``; no match limit); ``wait`` the seconds past ``time`` the agent
    waits for a move, and for any other answer, before it gives the engine up; ``info``
    more ``INFO key value`` lines sent with those, such as ``("max_node", 2000)`` for a
    brain that takes a node limit (Yixin-Board's extension, which Rapfi reads).

    The engine starts when the agent is made and answers ``ABOUT`` (kept in
    :attr:`about`), so its start-up never counts against a move; should that fail, the
    first move starts it again and raises what went wrong. One process then plays every
    game the agent is asked about, until :meth:`close` sends ``END`` and reaps it:

    * a board of a new size or rule is opened with ``START n`` (``RECTSTART w,h`` when
      not square) and the ``INFO`` lines ``timeout_turn``, ``timeout_match 0``,
      ``time_left`` (unlimited), ``rule`` (1 for ``exact5``) and ``info``;
    * each move is asked the shortest way the engine's board allows: ``BEGIN`` on an
      empty board, ``TURN x,y`` when the position is the engine's board plus one
      opponent stone, and otherwise (an opening, a new game, a position set up from
      stones) ``RESTART`` if the board holds stones, then ``BOARD`` with every stone in
      the order played when the position knows it. A brain that refuses ``RESTART`` is
      started afresh instead.

    An answer that is not a move raises :class:`~zerosum.protocols.engines.EngineProtocolError`
    (``ERROR``, ``UNKNOWN`` or garbage; ``MESSAGE`` and ``DEBUG`` lines are skipped), a
    move off the board or on a stone :class:`~zerosum.protocols.engines.EngineIllegalMoveError`,
    no answer in time :class:`~zerosum.protocols.engines.EngineTimeoutError` and an engine
    that exits :class:`~zerosum.protocols.engines.EngineDiedError`, each naming the
    engine's last lines. After any of them the process is killed, and the next move
    starts a new one. A game other than gomoku raises
    :class:`~zerosum.game.MissingCapabilityError`."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        time: float = DEFAULT_TIMEOUT_TURN / 1000,
        wait: float = DEFAULT_WAIT,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        name: str = "gomocup",
        info: Sequence[tuple[str, int]] = (),
    ) -> None:
        self.name = name
        self.time = time
        self.wait = wait
        self.info = tuple(info)
        self.about: str | None = None
        self.engine = EngineProcess(
            command, cwd=cwd, env=env, label=f"Gomocup engine {quoted(name)}", quit_line="END"
        )
        # the engine's board: (width, height, rule), and its stones as bit masks of
        # cells, its own and its opponent's
        self._board: tuple[int, int, str] | None = None
        self._own = self._theirs = 0
        try:
            self._launch()
        except EngineError:
            self.engine.kill()  # the first move tries again, and reports the failure

    def __repr__(self) -> str:
        return f"GomocupAgent({self.engine.command!r}, time={self.time:g}, name={self.name!r})"

    def close(self) -> None:
        """Send ``END`` and reap the engine (terminated, then killed, if it lingers)."""
        self.engine.close()
        self._board = None

    def choose(self, game: Any, state: Any) -> int:
        """Ask the engine for its move in ``state`` of the gomoku ``game``."""
        refuse_finished(game, state)
        if not isinstance(game, Gomoku):
            raise MissingCapabilityError(
                f"{self.name} is a Gomocup engine: it plays gomoku, not {game.info.name}"
            )
        try:
            return self._choose(game, state)
        except EngineError:
            # the engine's board is now unknown (or it hangs): a new process next time
            self.engine.kill()
            self._board = None
            raise

    # ------------------------------------------------------------------ the session

    def _launch(self) -> None:
        """Start the engine and wait for its ``ABOUT`` answer."""
        self.engine.start()
        self._board = None
        self.engine.send("ABOUT")
        answer = self.engine.expect(self._answer, START_TIMEOUT, "answer to ABOUT")
        self.about = None if answer.startswith(("ERROR", "UNKNOWN")) else answer

    def _answer(self, line: str) -> str | None:
        """A brain's answer, or ``None`` for a line to skip (blank, MESSAGE, DEBUG)."""
        text = line.strip()
        word = text.split(None, 1)[0].upper() if text else ""
        return None if not text or word in _UNSOLICITED else text

    def _ask(self, command: str, waiting: float) -> str:
        """Send ``command`` and return its answer."""
        self.engine.send(command)
        return self.engine.expect(self._answer, waiting, f"answer to {command}")

    def _expect_ok(self, command: str) -> None:
        answer = self._ask(command, self.wait)
        if answer.upper() != "OK":
            raise self.engine.error(
                EngineProtocolError, f"answered {quoted(answer)} to {command}, not OK"
            )

    def _open_board(self, game: Gomoku) -> None:
        """Open an empty board of ``game``'s size and rule, restarting the engine if it
        holds another board, and tell it the time and the rule."""
        if self._board is not None or not self.engine.running:
            self.engine.close()
            self._launch()
        width, height = game.width, game.height
        self._expect_ok(f"START {width}" if width == height else f"RECTSTART {width},{height}")
        for key, value in (
            ("timeout_turn", round(self.time * 1000)),
            ("timeout_match", 0),
            ("time_left", UNLIMITED_TIME_LEFT),
            ("rule", GOMOCUP_RULES[game.rule]),
            *self.info,
        ):
            self.engine.send(f"INFO {key} {value}")
        self._board = (width, height, game.rule)
        self._own = self._theirs = 0

    def _clear_board(self, game: Gomoku) -> None:
        """Empty the engine's board: ``RESTART``, or a new process if it refuses."""
        try:
            self._expect_ok("RESTART")
        except EngineProtocolError:
            self.engine.close()  # END: a brain without RESTART is started afresh
            self._open_board(game)
        self._own = self._theirs = 0

    def _choose(self, game: Gomoku, state: GomokuState) -> int:
        if not self.engine.running or self._board != (game.width, game.height, game.rule):
            self._open_board(game)
        me = game.to_move(state)
        own, theirs = (state.black, state.white) if me == 0 else (state.white, state.black)
        new = self._one_more(own, theirs)
        if new is None and (self._own or self._theirs):
            self._clear_board(game)
            new = self._one_more(own, theirs)
        if new is not None:
            command = "TURN {},{}".format(*game.coordinates(new))
        elif not own and not theirs:
            command = "BEGIN"
        else:
            command = self._send_board(game, state, me)
        move = self._move(game, state, command)
        self._own, self._theirs = own | 1 << move, theirs
        return move

    def _one_more(self, own: int, theirs: int) -> int | None:
        """The opponent's stone that turns the engine's board into the position whose
        stones are ``own`` and ``theirs``, or ``None`` when no single stone does."""
        new = theirs & ~self._theirs
        if own != self._own or theirs & self._theirs != self._theirs or new.bit_count() != 1:
            return None
        return new.bit_length() - 1

    def _send_board(self, game: Gomoku, state: GomokuState, me: int) -> str:
        """Send ``BOARD`` and the stones of ``state`` (field 1 the engine's, 2 the
        opponent's), in the order played when known; return the closing ``DONE``."""
        history = state.history
        if history is not None:
            stones = [(cell, number % 2) for number, cell in enumerate(history)]
        else:
            stones = [(cell, 0) for cell in range(game.cells) if state.black >> cell & 1]
            stones += [(cell, 1) for cell in range(game.cells) if state.white >> cell & 1]
        self.engine.send("BOARD")
        for cell, colour in stones:
            x, y = game.coordinates(cell)
            self.engine.send(f"{x},{y},{1 if colour == me else 2}")
        return "DONE"

    def _move(self, game: Gomoku, state: GomokuState, command: str) -> int:
        """Send ``command``, read the engine's move and check it is legal."""
        answer = self._ask(command, self.time + self.wait)
        asked = "BOARD" if command == "DONE" else command
        pair = _coordinates(answer)
        if pair is None:
            raise self.engine.error(
                EngineProtocolError, f"answered {quoted(answer)} to {asked}, not a move x,y"
            )
        x, y = pair
        if not (0 <= x < game.width and 0 <= y < game.height):
            raise self.engine.error(
                EngineIllegalMoveError,
                f"played {x},{y} after {asked}: off the {game.width}x{game.height} board",
            )
        move = game.action(x, y)
        if (state.black | state.white) >> move & 1:
            raise self.engine.error(
                EngineIllegalMoveError, f"played {x},{y} after {asked}: the square is taken"
            )
        return move
