"""The UCI protocol: zerosum's chess and xiangqi engines as UCI engines for GUIs
(:class:`UciEngine`, ``zerosum uci [--game xiangqi]``), and any UCI engine as an agent
(:class:`UciAgent`, the client side, at the end of the module).

What is the game's own is its :class:`UciDialect`: chess (:class:`ChessDialect`) reads
moves in UCI (or SAN) and offers ``UCI_Chess960``; xiangqi (:class:`XiangqiDialect`)
speaks UCI as Pikafish does: FEN with ``w``/``b`` to move, moves in ICCS coordinates with
ranks 0-9 (``h2e2``). Its option ``Coordinates`` set to ``fairy-stockfish`` reads and
writes Fairy-Stockfish's ranks 1-10 instead (``h3e3``, ``a10a9``), for GUIs that drive
Fairy-Stockfish; ``UCI_Variant`` is offered, with ``xiangqi`` its only value, for the
same GUIs, and changes nothing. The rest of this page holds for every game.

UCI (the Universal Chess Interface of Rudolf Huber and Stefan Meyer-Kahlen) is spoken
over standard input and output: the GUI sends one command a line, the engine answers
some of them. :class:`UciEngine` reads lines from any iterable and writes to any text
stream, so it runs on ``stdin``/``stdout`` (``zerosum uci``) and in a test on
:class:`io.StringIO`. The search runs on a thread of its own while the caller keeps
feeding lines, so that ``stop``, ``isready`` and ``quit`` are answered within
milliseconds of their arrival (the engine polls its ``Limits.stop`` signal about every
millisecond).

Commands and answers:

``uci``
    ``id name zerosum X``, ``id author``, the options, ``uciok``.
``isready``
    ``readyok``, at once, even while searching.
``setoption name N [value V]``
    ``Hash`` (MB, sizes the transposition table at :data:`BYTES_PER_ENTRY` bytes an
    entry), ``Threads`` (1 only), ``MultiPV`` (1 to :data:`MAX_MULTIPV`: the best
    ``k`` moves, each with its exact score), ``Skill Level`` (0 to :data:`MAX_SKILL`,
    see *Strength* below), ``Move Overhead`` (milliseconds kept back on every move,
    :mod:`zerosum.search.clock`), ``Ponder`` (``bestmove`` then names the expected
    reply, ``ponder M``) and the game's own: chess's ``UCI_Chess960`` (castling written
    king-takes-rook, and Chess960 castling rights read from FEN), xiangqi's
    ``UCI_Variant`` and ``Coordinates`` (``iccs`` or ``fairy-stockfish``).
``ucinewgame``
    forgets the table and sets the start position.
``position startpos|fen FEN [moves m1 m2 ...]``
    the position to search; chess moves in UCI (``e2e4``, ``e7e8q``, castling as ``e1g1``
    or king-takes-rook), xiangqi moves in coordinates (``h2e2``).
``go [wtime btime winc binc movestogo depth nodes mate movetime infinite ponder]``
    searches, writes ``info depth D seldepth S multipv K score cp X|mate N nodes N nps
    N hashfull H time MS pv ...`` after each completed iteration (one line for each of
    the ``MultiPV`` best moves, ``multipv 1`` first), then ``bestmove M``.
``stop``, ``ponderhit``, ``quit``
    as UCI says; ``debug`` is accepted and ignored.

Decisions where the protocol leaves room:

* **Bad lines never stop the engine.** An unknown command, an unknown option or a bad
  value, a bad FEN, an illegal move in ``moves``, a bad ``go`` argument: one line
  ``info string`` saying what is wrong, echoing at most a short prefix of the input
  (:func:`~zerosum.game.quoted`). A bad ``position`` leaves the position as it was; a
  bad ``go`` argument is skipped and the search goes on with the rest, because a GUI
  waits for its ``bestmove``. Every line written is one line of ASCII.
* **Time.** With ``movetime`` the search stops that many milliseconds (less the move
  overhead) after the command arrived. With a clock (``wtime``/``btime``, ``winc``/
  ``binc``, ``movestogo``) :func:`zerosum.search.clock.budget` gives a soft budget
  (no iteration starts after it) and a hard one (the search stops there); both count
  from the command's arrival; with an increment, :data:`RESERVE_INCREMENTS` of it are
  kept back too (measured: at 10+0.1 on a loaded machine the clock otherwise sank to
  0.25 s, and a scheduling delay lost on time). On a clock no iteration starts either
  when the last two predict it would end past the hard budget (:data:`GROWTH_RANGE`):
  it would be cut off and thrown away. ``depth`` and ``nodes`` limit the search as
  well; ``go`` with no limit at all searches as ``go infinite``.
* **Several principal variations.** With ``MultiPV`` ``k`` above 1 every root move
  is searched with a full window (:meth:`~zerosum.search.engine.Engine.iterate` with
  ``multipv``), so each of the ``k`` scores is exact at the depth shown, not a bound;
  this costs time (every move is searched as the best one is). The first line's moves
  are the search's principal variation; the others are the root move followed by the
  transposition table's best moves, as far as the table still holds them.
* **mate.** ``go mate N`` searches at most ``2N - 1`` plies (with any other limits)
  and stops as soon as an iteration of at least the mate's length finds a mate in
  ``N`` moves or fewer. It is the playing engine's search, pruning included:
  ``zerosum solve --mate`` proves a mate's length exactly.
* **Strength.** ``Skill Level`` ``s`` below :data:`MAX_SKILL` caps every search at
  :func:`skill_nodes` ``(s)`` nodes, :data:`SKILL_BASE_NODES` times ``2 ** (s / 2)``
  (64 nodes at 0, about 46,000 at 19), on top of the ``go`` limits; the budget doubles
  every two levels, so a higher level never searches less. :data:`MAX_SKILL`, the
  default, is the full engine. The levels are node budgets, not measured ratings:
  the engine offers no ``UCI_Elo``.
* **infinite and ponder.** The ``bestmove`` of ``go infinite`` waits for ``stop``, even
  when the search ends by itself (a proven mate, the deepest depth). ``go ponder``
  searches with no time limit until ``ponderhit``, which starts the move's clock
  (counting from the ``ponderhit``) and turns it into a normal search, or ``stop``.
* **The end of the input** lets a running search finish (an infinite or pondering one is
  stopped), writes its ``bestmove`` and ends the loop, like ``quit`` after it.
* **Commands that change the position or the options while a search runs**
  (``position``, ``go``, ``ucinewgame``, ``setoption``) stop that search first; its
  ``bestmove`` comes before anything else.
* **No move to search.** A mated or stalemated position (in xiangqi, any position
  without a legal move, which loses) answers ``info depth 0 score mate 0`` (or ``cp
  0``) and ``bestmove (none)``; a position the game counts as over by rule (threefold
  repetition, fifty moves; xiangqi's perpetual check and sixty moves) still has legal
  moves, and the engine plays the first of them, as it does when a search is stopped
  before its first iteration completes (then the engine's own first move choice).
"""

from __future__ import annotations

import re
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from zerosum import __version__
from zerosum.agents import ClockReading, refuse_finished
from zerosum.game import MAX_PLY, WIN, WIN_THRESHOLD, MissingCapabilityError, ZerosumError, quoted
from zerosum.games.chess import Chess
from zerosum.games.chess.rules import legal_moves as chess_moves
from zerosum.games.xiangqi import Xiangqi
from zerosum.games.xiangqi.notation import format_coordinates, parse_coordinates
from zerosum.games.xiangqi.rules import legal_moves as xiangqi_moves
from zerosum.protocols.engines import (
    EngineError,
    EngineIllegalMoveError,
    EngineProcess,
    EngineProtocolError,
)
from zerosum.protocols.serving import Lines, Searching, SearchSlot
from zerosum.search.clock import DEFAULT_OVERHEAD, budget
from zerosum.search.engine import Engine, EngineOptions, Limits, Report
from zerosum.search.table import BYTES_PER_ENTRY

__all__ = [
    "AUTHOR",
    "DEFAULT_HASH",
    "DEFAULT_WAIT",
    "GROWTH_RANGE",
    "MAX_HASH",
    "MAX_MULTIPV",
    "MAX_OVERHEAD",
    "MAX_RESERVE",
    "MAX_SKILL",
    "NAME",
    "RESERVE_INCREMENTS",
    "SKILL_BASE_NODES",
    "START_TIMEOUT",
    "UCI_GAMES",
    "XIANGQI_COORDINATES",
    "ChessDialect",
    "RunningSearch",
    "SearchPlan",
    "UciAgent",
    "UciDialect",
    "UciEngine",
    "UciOptionError",
    "UciScore",
    "XiangqiDialect",
    "dialect",
    "format_score",
    "skill_nodes",
    "table_entries",
]

NAME = f"zerosum {__version__}"
"""The engine's ``id name``."""

AUTHOR = "the zerosum authors"
"""The engine's ``id author``."""

DEFAULT_HASH = 16
"""The default ``Hash`` option, in MB."""

MAX_HASH = 4096
"""The largest ``Hash`` (MB) accepted."""

MAX_OVERHEAD = 5000
"""The largest ``Move Overhead`` (milliseconds) accepted."""

RESERVE_INCREMENTS = 5
"""On a clock with an increment, this many increments (at most :data:`MAX_RESERVE`
seconds) are kept back from every move's budget, like the move overhead."""

MAX_RESERVE = 1.0
"""The most seconds of clock reserve kept back (see :data:`RESERVE_INCREMENTS`)."""

GROWTH_RANGE = (1.5, 8.0)
"""The bounds on how many times longer one iteration is expected to take than the one
before (chess's effective branching factor lies between them): the ratio of the last
two, clamped, so that a noisy timing of tiny iterations predicts nothing absurd."""

MAX_MULTIPV = 256
"""The largest ``MultiPV`` accepted: more than any chess position has legal moves (218)."""

MAX_SKILL = 20
"""The highest ``Skill Level``, the default: the full engine, with no node cap."""

SKILL_BASE_NODES = 64
"""The node budget of ``Skill Level`` 0; every two levels double it."""

UCI_GAMES = ("chess", "xiangqi")
"""The games :class:`UciEngine` plays (:func:`dialect`)."""

_GO_NUMBERS = frozenset(
    ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime", "mate")
)
_GO_WORDS = _GO_NUMBERS | {"infinite", "ponder", "searchmoves"}


def table_entries(hash_mb: int) -> int:
    """Return the transposition-table bound (entries) for ``hash_mb`` megabytes."""
    return max(1, (hash_mb << 20) // BYTES_PER_ENTRY)


def skill_nodes(level: int) -> int | None:
    """Return the node cap of one search at ``Skill Level`` ``level``: ``None`` (no cap)
    at :data:`MAX_SKILL`, else :data:`SKILL_BASE_NODES` times ``2 ** (level / 2)``."""
    if level >= MAX_SKILL:
        return None
    return round(SKILL_BASE_NODES * 2 ** (max(level, 0) / 2))


def format_score(score: int) -> str:
    """Write an engine score as UCI does: ``cp X``, or ``mate N`` in moves.

    A win in ``n`` plies (``WIN - n``) is ``mate (n + 1) // 2`` (the mating move is the
    side to move's own); a loss in ``n`` plies is ``mate -(n // 2)``, ``mate 0`` when the
    side to move is mated already."""
    if score >= WIN_THRESHOLD:
        return f"mate {(WIN - score + 1) // 2}"
    if score <= -WIN_THRESHOLD:
        return f"mate {-((WIN + score) // 2)}"
    return f"cp {score}"


class _RejectedError(ZerosumError):
    """A line the engine cannot use; its message follows ``info string``."""


class UciDialect(ABC):
    """What :class:`UciEngine` needs of the game it plays: the game (``game``, made anew
    when an option changes its rules), moves read and written as the GUI writes them,
    every legal move of a position (where the game is over by rule too), and the game's
    own options. A subclass stands for one game; this base has no game of its own."""

    game: Any

    def option_lines(self) -> list[str]:
        """The ``option`` lines of the game's own options, for the ``uci`` answer."""
        return []

    def set_option(self, key: str, value: str) -> bool:
        """Set the game's own option named ``key`` (in lower case) to ``value``; return
        ``False`` when the game has no such option. A bad value raises
        :class:`~zerosum.game.ZerosumError`."""
        return False

    @abstractmethod
    def parse_move(self, state: Any, text: str) -> Any:
        """Read the move ``text`` legal in ``state``; raises
        :class:`~zerosum.game.ZerosumError` for anything else."""

    @abstractmethod
    def format_move(self, state: Any, move: Any) -> str:
        """Write ``move`` (legal in ``state``) as the GUI reads it."""

    @abstractmethod
    def legal_moves(self, state: Any) -> list[Any]:
        """Every legal move of ``state``, also when the game is over there by rule."""


class ChessDialect(UciDialect):
    """Chess over UCI: moves in UCI (``e2e4``, ``e7e8q``; SAN is read too) and the
    ``UCI_Chess960`` option (castling written king-takes-rook, Chess960 castling rights
    read from FEN)."""

    game: Chess

    def __init__(self) -> None:
        self.game = Chess()

    def option_lines(self) -> list[str]:
        """``UCI_Chess960``."""
        return ["option name UCI_Chess960 type check default false"]

    def set_option(self, key: str, value: str) -> bool:
        """Set ``UCI_Chess960``."""
        if key != "uci_chess960":
            return False
        self.game = Chess(_check("UCI_Chess960", value))
        return True

    def parse_move(self, state: Any, text: str) -> Any:
        """Read a move in UCI or SAN."""
        return self.game.parse_move(state, text)

    def format_move(self, state: Any, move: Any) -> str:
        """Write ``move`` in UCI."""
        return self.game.format_uci(state, move)

    def legal_moves(self, state: Any) -> list[Any]:
        """Every legal move."""
        return chess_moves(state)


XIANGQI_COORDINATES = ("iccs", "fairy-stockfish")
"""The values of xiangqi's ``Coordinates`` option: ranks 0-9 (ICCS, Pikafish) or 1-10
(Fairy-Stockfish); the first is the default."""


class XiangqiDialect(UciDialect):
    """Xiangqi over UCI as Pikafish speaks it: moves in ICCS coordinates with ranks 0-9
    (``h2e2``), or with ranks 1-10 as Fairy-Stockfish writes them (``h3e3``) once the
    ``Coordinates`` option is ``fairy-stockfish``. ``UCI_Variant`` is offered for the
    GUIs that set it on Fairy-Stockfish; ``xiangqi`` is its only value."""

    game: Xiangqi
    base: int
    """The number of the first rank: 0 (ICCS) or 1 (Fairy-Stockfish)."""

    def __init__(self) -> None:
        self.game = Xiangqi(notation="iccs")
        self.base = 0

    def option_lines(self) -> list[str]:
        """``UCI_Variant`` and ``Coordinates``."""
        choices = " ".join(f"var {name}" for name in XIANGQI_COORDINATES)
        return [
            "option name UCI_Variant type combo default xiangqi var xiangqi",
            f"option name Coordinates type combo default {XIANGQI_COORDINATES[0]} {choices}",
        ]

    def set_option(self, key: str, value: str) -> bool:
        """Set ``UCI_Variant`` (to ``xiangqi`` only) or ``Coordinates``."""
        if key == "uci_variant":
            if value.lower() != "xiangqi":
                raise _RejectedError(
                    f"setoption UCI_Variant: this engine plays xiangqi only, not {quoted(value)}"
                )
            return True
        if key == "coordinates":
            if value.lower() not in XIANGQI_COORDINATES:
                raise _RejectedError(
                    f"setoption Coordinates: value must be {' or '.join(XIANGQI_COORDINATES)}, "
                    f"not {quoted(value)}"
                )
            self.base = XIANGQI_COORDINATES.index(value.lower())
            return True
        return False

    def parse_move(self, state: Any, text: str) -> Any:
        """Read a move in coordinates with ranks from :attr:`base`."""
        return parse_coordinates(state, text, self.base)

    def format_move(self, state: Any, move: Any) -> str:
        """Write ``move`` in coordinates with ranks from :attr:`base`."""
        return format_coordinates(move, self.base)

    def legal_moves(self, state: Any) -> list[Any]:
        """Every legal move."""
        return xiangqi_moves(state)


def dialect(game: str) -> UciDialect:
    """Return a new dialect of ``game``, one of :data:`UCI_GAMES`."""
    if game == "chess":
        return ChessDialect()
    if game == "xiangqi":
        return XiangqiDialect()
    raise ZerosumError(
        f"{quoted(game)} is not a game the UCI engine plays: choose chess or xiangqi"
    )


@dataclass(slots=True)
class _Options:
    hash_mb: int = DEFAULT_HASH
    overhead_ms: int = round(DEFAULT_OVERHEAD * 1000)
    ponder: bool = False
    multipv: int = 1
    skill: int = MAX_SKILL


@dataclass(slots=True)
class SearchPlan:
    """What one ``go`` asks for: limits in plies and nodes, budgets in seconds, and
    ``draw`` when the GUI offers a draw with it (UCCI's ``go draw``)."""

    depth: int | None = None
    nodes: int | None = None
    soft: float | None = None
    hard: float | None = None
    infinite: bool = False
    ponder: bool = False
    mate: int | None = None
    multipv: int = 1
    clocked: bool = False
    draw: bool = False


class RunningSearch(Searching):
    """One running search: its thread, and the stop signal the engine polls.

    ``is_set`` answers the engine: a ``stop`` (or ``quit``) came, or the hard deadline
    has passed. ``released`` tells the thread it may write ``bestmove`` (at once, but
    for an infinite or pondering search)."""

    def __init__(self, plan: SearchPlan, clock: Callable[[], float], started: float) -> None:
        super().__init__()
        self.plan = plan
        self.clock = clock
        self.released = threading.Event()
        self.soft_deadline: float | None = None
        self.deadline: float | None = None
        if not plan.ponder:
            self.start_clock(started)
        if not (plan.infinite or plan.ponder):
            self.released.set()

    def start_clock(self, started: float) -> None:
        """Count the move's budgets from ``started``."""
        plan = self.plan
        if plan.soft is not None:
            self.soft_deadline = started + plan.soft
        if plan.hard is not None:
            self.deadline = started + plan.hard

    def is_set(self) -> bool:
        """Tell whether the search should stop now."""
        deadline = self.deadline
        return self.stopped.is_set() or (deadline is not None and self.clock() >= deadline)

    def stop(self) -> None:
        """Stop the search and let it answer."""
        self.stopped.set()
        self.released.set()

    def ponderhit(self, now: float) -> None:
        """Turn a pondering search into a normal one whose clock starts ``now``."""
        if not self.plan.ponder:
            return
        self.plan.ponder = False
        self.start_clock(now)
        if not self.plan.infinite:
            self.released.set()


class UciEngine:
    """A UCI engine: feed it the GUI's lines, it writes its answers to ``output``.

    :meth:`handle` takes one line and returns ``False`` after ``quit``; :meth:`run`
    feeds it lines until then or the end of the input, and waits for the last search.
    ``game`` is the game played, one of :data:`UCI_GAMES` or a :class:`UciDialect`;
    ``hash_mb`` is the initial ``Hash`` option; ``clock`` (seconds) measures time.
    ``last`` is the final report of the latest search (``None`` if no iteration
    completed)."""

    NOTE = "info string"
    """What starts a line that tells the GUI's user something: a refused line, a note."""

    def __init__(
        self,
        output: TextIO,
        *,
        game: str | UciDialect = "chess",
        hash_mb: int = DEFAULT_HASH,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if not 1 <= hash_mb <= MAX_HASH:
            raise ZerosumError(f"hash must be 1 to {MAX_HASH} MB, not {hash_mb}")
        self.options = _Options(hash_mb=hash_mb)
        self.last: Report | None = None
        self._say = Lines(output, ascii_only=True).say
        self._clock = clock
        self._dialect = dialect(game) if isinstance(game, str) else game
        self._state: Any = self._game.initial_state()
        self._engine: Engine | None = None
        self._search: SearchSlot[RunningSearch] = SearchSlot()
        self._commands: dict[str, Callable[[str, float], None]] = {
            "uci": self._uci,
            "debug": lambda rest, started: None,
            "isready": lambda rest, started: self._say("readyok"),
            "setoption": self._setoption,
            "ucinewgame": self._ucinewgame,
            "position": self._position,
            "go": self._go,
            "stop": lambda rest, started: self._search.stop(wait=False),
            "ponderhit": self._ponderhit,
        }

    def __repr__(self) -> str:
        return f"UciEngine({self._game.format_state(self._state)!r})"

    @property
    def _game(self) -> Any:
        """The game played, as the options have it now."""
        return self._dialect.game

    # ------------------------------------------------------------------ the loop

    def run(self, lines: Iterable[str]) -> None:
        """Handle ``lines`` until ``quit`` or their end, then wait for the last search
        (stopping it if it is infinite or pondering)."""
        for line in lines:
            if not self.handle(line):
                return
        self.finish()

    def handle(self, line: str) -> bool:
        """Handle one line from the GUI; return ``False`` when it was ``quit``."""
        started = self._clock()
        word, rest = (*line.split(None, 1), "", "")[:2]
        if word == "quit":
            self._search.stop(wait=True)
            return False
        if not word:
            return True
        command = self._commands.get(word)
        if command is None:
            self._say(f"{self.NOTE} unknown command {quoted(word)}")
            return True
        try:
            command(rest.strip(), started)
        except ZerosumError as error:
            self._say(f"{self.NOTE} {error}")
        return True

    def finish(self) -> None:
        """Wait for the running search to answer; an infinite or pondering one is
        stopped first, since nothing is left to stop it."""
        search = self._search.current
        if search is not None and (search.plan.infinite or search.plan.ponder):
            search.stop()
        self._search.finish()

    # ------------------------------------------------------------------ commands

    def _uci(self, rest: str, started: float) -> None:
        self._say(f"id name {NAME}")
        self._say(f"id author {AUTHOR}")
        self._say(f"option name Hash type spin default {DEFAULT_HASH} min 1 max {MAX_HASH}")
        self._say("option name Threads type spin default 1 min 1 max 1")
        self._say(f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}")
        self._say(f"option name Skill Level type spin default {MAX_SKILL} min 0 max {MAX_SKILL}")
        self._say(
            f"option name Move Overhead type spin default {round(DEFAULT_OVERHEAD * 1000)} "
            f"min 0 max {MAX_OVERHEAD}"
        )
        self._say("option name Ponder type check default false")
        for line in self._dialect.option_lines():
            self._say(line)
        self._say("uciok")

    def _setoption(self, rest: str, started: float) -> None:
        self._search.stop(wait=True)
        words = rest.split()
        if not words or words[0] != "name":
            raise _RejectedError(f"setoption {quoted(rest)}: expected setoption name N [value V]")
        if "value" in words:
            at = words.index("value")
            name, value = " ".join(words[1:at]), " ".join(words[at + 1 :])
        else:
            name, value = " ".join(words[1:]), ""
        key = name.lower()
        options = self.options
        if key == "hash":
            options.hash_mb = _spin(name, value, 1, MAX_HASH)
        elif key == "threads":
            _spin(name, value, 1, 1)
        elif key == "multipv":
            options.multipv = _spin(name, value, 1, MAX_MULTIPV)
        elif key == "skill level":
            options.skill = _spin(name, value, 0, MAX_SKILL)
        elif key == "move overhead":
            options.overhead_ms = _spin(name, value, 0, MAX_OVERHEAD)
        elif key == "ponder":
            options.ponder = _check(name, value)
        elif not self._dialect.set_option(key, value):
            raise _RejectedError(f"setoption: unknown option {quoted(name)}")

    def _ucinewgame(self, rest: str, started: float) -> None:
        self._search.stop(wait=True)
        if self._engine is not None:
            self._engine.reset()
        self._state = self._game.initial_state()

    def _position(self, rest: str, started: float) -> None:
        self._search.stop(wait=True)
        words = rest.split()
        game = self._game
        if words[:1] == ["startpos"]:
            state, at = game.initial_state(), 1
        elif words[:1] == ["fen"]:
            at = words.index("moves") if "moves" in words else len(words)
            fen = " ".join(words[1:at])
            try:
                state = game.parse_state(fen)
            except ZerosumError as error:
                raise _RejectedError(f"position: {error}") from None
        else:
            raise _RejectedError(
                f"position {quoted(rest)}: expected startpos or fen FEN, then moves"
            )
        if at < len(words) and words[at] != "moves":
            raise _RejectedError(
                f"position: expected moves after the position, not {quoted(words[at])}"
            )
        for number, text in enumerate(words[at + 1 :], 1):
            try:
                state = game.result(state, self._dialect.parse_move(state, text))
            except ZerosumError as error:
                raise _RejectedError(
                    f"position: move {number} {quoted(text)} refused: {error}; position unchanged"
                ) from None
        self._state = state

    def _ponderhit(self, rest: str, started: float) -> None:
        if self._search.current is not None:
            self._search.current.ponderhit(started)

    # ------------------------------------------------------------------ go

    def _go(self, rest: str, started: float) -> None:
        self._search.stop(wait=True)
        plan, problems = self._plan(rest.split())
        for problem in problems:
            self._say(f"{self.NOTE} go: {problem}")
        self._search.start(
            RunningSearch(plan, self._clock, started), self._think, self._state, name="uci-search"
        )

    def _plan(self, words: list[str]) -> tuple[SearchPlan, list[str]]:
        """Read ``go``'s arguments; return the plan and what was skipped."""
        plan = SearchPlan()
        numbers: dict[str, int] = {}
        problems: list[str] = []
        index = 0
        while index < len(words):
            word = words[index]
            index += 1
            if word == "infinite":
                plan.infinite = True
            elif word == "ponder":
                plan.ponder = True
            elif word == "searchmoves":
                while index < len(words) and words[index] not in _GO_WORDS:
                    index += 1
                problems.append("searchmoves is not supported; searching every move")
            elif word in _GO_NUMBERS:
                value = words[index] if index < len(words) else ""
                index += 1 if value else 0
                if value.lstrip("-").isdigit() and value.isascii() and len(value) <= 18:
                    numbers[word] = int(value)
                else:
                    problems.append(f"{word} needs a whole number, not {quoted(value)}")
            else:
                problems.append(f"unknown argument {quoted(word)} skipped")
        self._limit(plan, numbers)
        return plan, problems

    def _limit(self, plan: SearchPlan, numbers: Mapping[str, int]) -> None:
        """Complete ``plan`` from ``go``'s numbers, named as UCI names them (``wtime``,
        ``depth``...): its limits, its time budgets and the ``Skill Level`` cap."""
        if "depth" in numbers:
            plan.depth = min(max(numbers["depth"], 1), MAX_PLY)
        if "mate" in numbers:
            plan.mate = min(max(numbers["mate"], 1), MAX_PLY // 2)
            plan.depth = min(plan.depth or MAX_PLY, 2 * plan.mate - 1)
        if "nodes" in numbers:
            plan.nodes = max(numbers["nodes"], 1)
        plan.multipv = self.options.multipv
        overhead = self.options.overhead_ms / 1000
        hards: list[float] = []
        softs: list[float] = []
        if "movetime" in numbers:
            hards.append(max(numbers["movetime"] / 1000 - overhead, 0.0))
            softs.append(hards[-1])
        white = self._game.to_move(self._state) == 0
        left = numbers.get("wtime" if white else "btime")
        if left is not None:
            increment = numbers.get("winc" if white else "binc", 0)
            moves_to_go = numbers.get("movestogo")
            # an increment game keeps a reserve off the budget as well: the clock then
            # settles above it instead of a whisker above the overhead, where one
            # scheduling delay on a loaded machine loses on time
            reserve = min(RESERVE_INCREMENTS * increment / 1000, MAX_RESERVE)
            given = budget(left / 1000, increment / 1000, moves_to_go, overhead + reserve)
            hards.append(given.hard)
            softs.append(given.soft)
            plan.clocked = True
        if hards and not plan.infinite:
            plan.hard, plan.soft = min(hards), min(softs)
        if plan.depth is None and plan.nodes is None and plan.hard is None:
            plan.infinite = True  # a bare go searches until stop
        cap = skill_nodes(self.options.skill)
        if cap is not None:
            plan.nodes = min(plan.nodes or cap, cap)

    def _engine_for(self) -> Engine:
        size = table_entries(self.options.hash_mb)
        engine = self._engine
        if engine is None or engine.options.table_size != size or engine.game is not self._game:
            engine = self._engine = Engine(self._game, EngineOptions(table_size=size))
        return engine

    def _think(self, search: RunningSearch, state: Any) -> None:
        """The search thread: search, report each iteration, answer ``bestmove``."""
        try:
            move = self._best_move(search, state)
        except Exception as error:  # a GUI waits for bestmove whatever happens
            self._say(f"{self.NOTE} internal error: {type(error).__name__}: {error}")
            moves = self._dialect.legal_moves(state)
            move = moves[0] if moves else None
        search.released.wait()
        self._answer(search, state, move)

    def _answer(self, search: RunningSearch, state: Any, move: Any) -> None:
        """Write the search's answer, ``bestmove`` (with ``ponder`` when asked for)."""
        if move is None:
            self._say("bestmove (none)")
            return
        dialect = self._dialect
        answer = f"bestmove {dialect.format_move(state, move)}"
        last = self.last
        if self.options.ponder and last is not None and last.pv[:1] == (move,) and len(last.pv) > 1:
            after = self._game.result(state, move)
            answer += f" ponder {dialect.format_move(after, last.pv[1])}"
        self._say(answer)

    def _best_move(self, search: RunningSearch, state: Any) -> Any:
        game = self._game
        if game.is_terminal(state):
            moves = self._dialect.legal_moves(state)
            value = game.utility(state, game.to_move(state))
            if not moves:
                self._say(f"info depth 0 score {self._score(-WIN if value < 0 else 0)}")
                return None
            verdict = "drawn" if value == 0 else ("lost" if value < 0 else "won")
            self._say(f"{self.NOTE} the position is {verdict} by rule; playing a legal move")
            return moves[0]
        engine = self._engine_for()
        plan = search.plan
        limits = Limits(depth=plan.depth, nodes=plan.nodes, stop=search)
        self.last = None
        several = plan.multipv > 1
        took = (0.0, 0.0)  # the seconds of the last two iterations
        for report in engine.iterate(state, limits, multipv=several):
            took = (took[1], report.elapsed - (self.last.elapsed if self.last else 0.0))
            self.last = report
            for line in self._infos(engine, state, report, plan.multipv):
                self._say(line)
            if plan.mate is not None and report.score >= WIN - report.depth:
                break  # a mate within the depth searched: no shorter one was missed
            if not self._worth_deepening(search, took):
                break
        if self.last is not None:
            return int(self.last.best_move)
        return int(engine.root_moves(state)[0])  # stopped before depth 1 completed

    def _worth_deepening(self, search: RunningSearch, took: tuple[float, float]) -> bool:
        """Whether another iteration should start: not past the soft budget, and on a
        clock, once two iterations have been timed, not when it would most likely be
        cut off by the hard one (the next iteration takes about as many times longer
        than the last as the last took than the one before, :data:`GROWTH_RANGE`
        bounding the ratio), since an interrupted iteration is thrown away."""
        if search.soft_deadline is None:
            return True
        now = self._clock()
        if now >= search.soft_deadline:
            return False
        before, last = took
        if not search.plan.clocked or search.deadline is None or before <= 0:
            return True
        low, high = GROWTH_RANGE
        growth = min(max(last / before, low), high)
        return now + last * growth < search.deadline

    def _score(self, score: int) -> str:
        """An engine score as the protocol writes it (:func:`format_score`)."""
        return format_score(score)

    def _infos(self, engine: Engine, state: Any, report: Report, count: int) -> list[str]:
        """The ``info`` lines of one iteration: the best ``count`` moves, best first."""
        head = f"info depth {report.depth} seldepth {max(report.seldepth, report.depth)} multipv"
        tail = (
            f"nodes {report.nodes} nps {report.nps} hashfull {report.hashfull} "
            f"time {round(report.elapsed * 1000)} pv"
        )
        lines = [(report.score, report.pv)]
        scores = report.root_scores or {}
        for move, score in scores.items():
            if len(lines) >= count:
                break
            if move != report.best_move:
                lines.append((score, (move, *self._table_line(engine, state, move, report))))
        return [
            f"{head} {rank} score {self._score(score)} {tail} {self._moves(state, pv)}"
            for rank, (score, pv) in enumerate(lines, 1)
        ]

    def _table_line(self, engine: Engine, state: Any, move: Any, report: Report) -> tuple[Any, ...]:
        """The table's best moves after ``move``, at most the iteration's depth in all:
        legal moves only, ending at a finished game, a missing entry or a repetition."""
        game = self._game
        table = engine.table
        line: list[int] = []
        state = game.result(state, move)
        seen: set[int] = set()
        while table is not None and len(line) < report.depth - 1 and not game.is_terminal(state):
            key = game.key(state)
            entry = table.probe(key)
            if key in seen or entry is None or entry.move not in game.actions(state):
                break
            seen.add(key)
            line.append(entry.move)
            state = game.result(state, entry.move)
        return tuple(line)

    def _moves(self, state: Any, moves: Sequence[Any]) -> str:
        """``moves`` from ``state`` as the GUI writes them, separated by spaces."""
        game = self._game
        words = []
        for move in moves:
            words.append(self._dialect.format_move(state, move))
            state = game.result(state, move)
        return " ".join(words)


def _spin(name: str, value: str, low: int, high: int) -> int:
    """Read a spin option's value, ``low`` to ``high``."""
    if not (value.isascii() and value.isdigit() and len(value) <= 18 and low <= int(value) <= high):
        raise _RejectedError(
            f"setoption {name}: value must be {low} to {high}, not {quoted(value)}"
        )
    return int(value)


def _check(name: str, value: str) -> bool:
    """Read a check option's value, ``true`` or ``false``."""
    if value.lower() not in ("true", "false"):
        raise _RejectedError(f"setoption {name}: value must be true or false, not {quoted(value)}")
    return value.lower() == "true"


# =========================================================================== the client

START_TIMEOUT = 30.0
"""Seconds a newly started engine has to finish its handshake (``uciok``): its program
loading (and a large net or table allocating), which a loaded machine can make slow."""

DEFAULT_WAIT = 10.0
"""Seconds past its time per move (and for every other answer) that :class:`UciAgent`
waits before it gives the engine up as hung."""

_UCI_MOVE = re.compile(r"[a-z][0-9]{1,2}[a-z][0-9]{1,2}[a-z]?")
"""The shape of a move in UCI text, for chess and for larger boards (xiangqi's ranks
0-9): anything else in ``bestmove`` is not a move at all, rather than an illegal one."""

_BOUNDS = frozenset(("lowerbound", "upperbound"))


class UciOptionError(EngineError):
    """The agent's spec sets an option the engine does not offer (or the game needs one,
    ``UCI_Chess960``, that it lacks); the message names the options it does offer."""


@dataclass(frozen=True, slots=True)
class UciScore:
    """The engine's latest exact score, from the side to move's point of view:
    ``centipawns``, or ``mate`` in moves (negative: the side to move is mated), one of
    them set; ``depth`` the depth of the ``info`` line that gave it, if it said."""

    centipawns: int | None = None
    mate: int | None = None
    depth: int | None = None


@dataclass(frozen=True, slots=True)
class _Adapter:
    """What the client needs of a game, resolved once per game: positions as FEN, moves
    written and read as UCI text with ranks counted from a base (the last argument: 0
    or 1, which only a game with ``parse_uci`` reads), whether castling is written as
    Chess960's, and the game's ``UCI_Variant`` (``None`` for chess, which needs none)."""

    format_state: Callable[[Any], str]
    format_uci: Callable[[Any, Any, int], str]
    parse_move: Callable[[Any, str, int], Any]
    chess960: bool
    variant: str | None


def _adapter(game: Any) -> _Adapter:
    """The UCI adapter of ``game``; :class:`~zerosum.game.MissingCapabilityError` when it
    cannot write FEN and UCI moves."""
    methods: list[Any] = [
        getattr(game, name, None) for name in ("format_state", "format_uci", "parse_move")
    ]
    if not all(callable(method) for method in methods):
        raise MissingCapabilityError(
            f"a UCI engine plays games written as FEN with UCI moves (format_state, "
            f"format_uci, parse_move), which {game.info.name} is not"
        )
    format_state, format_uci, parse_move = methods
    parse_uci = getattr(game, "parse_uci", None)
    if callable(parse_uci):
        # engines number this game's ranks from 0 or from 1 (xiangqi's Pikafish and
        # Fairy-Stockfish): its format_uci and parse_uci take the base
        return _Adapter(format_state, format_uci, parse_uci, False, game.info.name)
    return _Adapter(
        format_state,
        lambda state, move, _base: format_uci(state, move),
        lambda state, text, _base: parse_move(state, text),
        bool(getattr(game, "chess960", False)),
        None,
    )


def _integer(words: Sequence[str], at: int) -> int | None:
    """The whole number at ``words[at]``, or ``None`` when there is none."""
    if at < len(words):
        text = words[at]
        digits = text[1:] if text[:1] == "-" else text
        if digits.isascii() and digits.isdigit() and len(digits) <= 18:
            return int(text)
    return None


def _read_score(words: Sequence[str]) -> UciScore | None:
    """The exact score of one ``info`` line's words, ``None`` when it gives none (no
    score, a bound, a line other than the first of a multi-PV search, a string)."""
    if words[1:2] == ["string"]:
        return None
    depth: int | None = None
    score: tuple[str, int] | None = None
    for at, word in enumerate(words):
        if word == "pv":
            break  # the moves that follow are not keywords
        if word == "depth":
            depth = _integer(words, at + 1)
        elif word == "multipv" and _integer(words, at + 1) not in (None, 1):
            return None
        elif word == "score" and at + 1 < len(words) and words[at + 1] in ("cp", "mate"):
            if at + 3 < len(words) and words[at + 3] in _BOUNDS:
                return None
            value = _integer(words, at + 2)
            if value is not None:
                score = (words[at + 1], value)
    if score is None:
        return None
    kind, value = score
    return UciScore(value if kind == "cp" else None, value if kind == "mate" else None, depth)


class UciAgent:
    """A UCI engine as an agent: an external program (Stockfish, Fairy-Stockfish,
    Pikafish, or ``zerosum uci``) plays chess or xiangqi for us, spoken to as a GUI
    speaks to it.

    ``command`` is the program and its arguments (a string is split as a POSIX shell
    would); ``cwd`` its working directory; ``options`` the engine options to set, as
    names and values (``{"Skill Level": "3"}``); ``time`` the seconds per move (``go
    movetime``), ``depth`` and ``nodes`` further limits of each search, at least one of
    the three given; ``wait`` the seconds past the move's time (the clock's time left,
    else ``time``, else none) that the agent waits for ``bestmove``, and for any other
    answer, before it gives the engine up; ``coordinates`` how xiangqi's moves are
    written (see below).

    The engine starts when the agent is made: the ``uci`` handshake (``id name`` is kept
    in :attr:`engine_name`, the options offered in :attr:`offered`), a ``setoption`` for
    each of ``options``, ``isready``. Should that fail, the first move starts it again
    and raises what went wrong. One process then plays every game, until :meth:`close`
    sends ``quit`` and reaps it:

    * a position that does not continue the agent's game (the first, a new one after
      :meth:`reset`, an opening or a position set up from FEN) starts a new game:
      ``ucinewgame``, ``isready``, and from then on ``position startpos`` (or ``position
      fen FEN`` of the first position seen) ``moves ...`` with every move since, so the
      engine sees repetitions;
    * ``UCI_Chess960`` is set to whether the game is Chess960, when the engine offers it
      (a Chess960 game on an engine without it raises :class:`UciOptionError`);
    * xiangqi: ``UCI_Variant`` is set to ``xiangqi`` when the engine offers it
      (Fairy-Stockfish; an engine that does not, Pikafish, plays xiangqi alone) and
      ``options`` do not set it. Its moves are coordinates whose ranks count 0-9
      (``coordinates="iccs"``: ``h2e2``, as Pikafish writes them) or 1-10
      (``"fairy-stockfish"``: ``h3e3``). By default (``None``) the agent follows the
      engine's option ``Coordinates`` when it offers one (``zerosum uci --game
      xiangqi``: the agent sets it to ``iccs`` unless ``options`` set it), else counts
      from 1 when the engine offers ``UCI_Variant`` and from 0 otherwise;
    * ``go`` has ``wtime btime winc binc [movestogo]`` when the game is on a clock
      (:meth:`set_clock`), ``movetime`` from ``time`` otherwise, and ``depth`` and
      ``nodes`` when given;
    * ``info`` lines are read until ``bestmove``: the last exact score is kept in
      :attr:`last_score`.

    The game's adapter, resolved once per game, is its ``format_state`` (FEN),
    ``format_uci`` and ``parse_move``, or ``parse_uci`` for a game whose ranks the
    engines count from 0 or 1 (xiangqi): any game written the same way. A
    ``bestmove`` that is no UCI move raises
    :class:`~zerosum.protocols.engines.EngineProtocolError`, an illegal one (or
    ``(none)``) :class:`~zerosum.protocols.engines.EngineIllegalMoveError`, no answer in
    time :class:`~zerosum.protocols.engines.EngineTimeoutError`, an engine that exits
    :class:`~zerosum.protocols.engines.EngineDiedError`, an option it does not offer
    :class:`UciOptionError`; each names the engine's last lines. After any of them the
    process is killed and the next move starts a new one."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        time: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        wait: float = DEFAULT_WAIT,
        options: Mapping[str, str] | Sequence[tuple[str, str]] = (),
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        name: str = "uci",
        coordinates: str | None = None,
    ) -> None:
        if time is None and depth is None and nodes is None:
            raise ZerosumError("a UCI agent needs a time, depth or nodes limit per move")
        if coordinates not in (None, *XIANGQI_COORDINATES):
            raise ZerosumError(
                f"coordinates must be {' or '.join(XIANGQI_COORDINATES)}, "
                f"not {quoted(str(coordinates))}"
            )
        self.coordinates = coordinates
        self.name = name
        self.time = time
        self.depth = depth
        self.nodes = nodes
        self.wait = wait
        self.options = tuple(options.items() if isinstance(options, Mapping) else options)
        self.engine_name: str | None = None
        self.offered: dict[str, str] = {}
        """The options the engine offers: their names, keyed by the lower-case name
        (UCI option names are not case-sensitive)."""
        self.last_score: UciScore | None = None
        self.engine = EngineProcess(
            command, cwd=cwd, env=env, label=f"UCI engine {quoted(name)}", quit_line="quit"
        )
        self._adapted: tuple[Any, _Adapter] | None = None  # the game (kept alive) and adapter
        self._clock: ClockReading | None = None
        self._chess960: bool | None = None  # the engine's UCI_Chess960, None: not sent yet
        self._variant: str | None = None  # the variant the options below were settled for
        self._base = 0  # the first rank's number in the engine's moves (xiangqi: 0 or 1)
        # the engine's game: its start ("startpos" or "fen FEN"), the moves since, and
        # the position after them (None: no game yet)
        self._start = ""
        self._moves: list[str] = []
        self._after: Any = None
        try:
            self._launch()
        except EngineError:
            self.engine.kill()  # the first move tries again, and reports the failure

    def __repr__(self) -> str:
        return f"UciAgent({self.engine.command!r}, name={self.name!r})"

    def close(self) -> None:
        """Send ``quit`` and reap the engine (terminated, then killed, if it lingers)."""
        self.engine.close()
        self._after = None

    def reset(self) -> None:
        """A new game starts: the next move begins with ``ucinewgame``."""
        self._after = None

    def set_clock(self, reading: ClockReading) -> None:
        """Take the clocks for the next move: its ``go`` sends them instead of ``movetime``."""
        self._clock = reading

    def choose(self, game: Any, state: Any) -> Any:
        """Ask the engine for its move in ``state`` of ``game``."""
        refuse_finished(game, state)
        adapter = self._adapter_for(game)
        clock, self._clock = self._clock, None  # a reading is for one move only
        try:
            return self._choose(game, adapter, state, clock)
        except EngineError:
            # the engine's state is now unknown (or it hangs): a new process next time
            self.engine.kill()
            self._after = None
            raise

    # ------------------------------------------------------------------ the session

    def _adapter_for(self, game: Any) -> _Adapter:
        held = self._adapted
        if held is None or held[0] is not game:
            held = self._adapted = (game, _adapter(game))
        return held[1]

    def _launch(self) -> None:
        """Start the engine: the handshake, the spec's options, ``isready``."""
        self.engine.start()
        self._after = None
        self._chess960 = None
        self._variant = None
        self.offered = {}
        self.engine.send("uci")
        self.engine.expect(self._handshake_line, START_TIMEOUT, "uciok")
        for name, value in self.options:
            self._set_option(name, value)
        self._ready()

    def _handshake_line(self, line: str) -> bool | None:
        """Note an ``id name`` or ``option`` line; ``True`` at ``uciok``."""
        words = line.split()
        if words[:1] == ["uciok"]:
            return True
        if words[:2] == ["id", "name"]:
            self.engine_name = " ".join(words[2:])
        elif words[:2] == ["option", "name"]:
            end = words.index("type") if "type" in words else len(words)
            name = " ".join(words[2:end])
            self.offered[name.lower()] = name
        return None

    def _set_option(self, name: str, value: str) -> None:
        offered = self.offered.get(name.lower())
        if offered is None:
            names = ", ".join(sorted(self.offered.values(), key=str.lower)) or "none"
            raise self.engine.error(
                UciOptionError, f"offers no option {quoted(name)}; it offers: {names}"
            )
        self.engine.send(f"setoption name {offered} value {value}")

    def _ready(self) -> None:
        self.engine.send("isready")
        self.engine.expect(lambda line: line.strip() == "readyok" or None, self.wait, "readyok")

    def _choose(self, game: Any, adapter: _Adapter, state: Any, clock: ClockReading | None) -> Any:
        if not self.engine.running:
            self._launch()
        if self._chess960 != adapter.chess960:
            if "uci_chess960" in self.offered or adapter.chess960:
                self._set_option("UCI_Chess960", "true" if adapter.chess960 else "false")
                self._ready()
            self._chess960 = adapter.chess960
        if adapter.variant is not None and self._variant != adapter.variant:
            self._settle_variant(adapter.variant)
        self._follow(game, adapter, state)
        position = self._start + (f" moves {' '.join(self._moves)}" if self._moves else "")
        self.engine.send(f"position {position}")
        self.engine.send(self._go(game, state, clock))
        self.last_score = None
        answer = self.engine.expect(self._search_line, self._deadline(clock), "bestmove")
        move = self._read_move(adapter, state, answer)
        self._moves.append(adapter.format_uci(state, move, self._base))
        self._after = game.result(state, move)
        return move

    def _settle_variant(self, variant: str) -> None:
        """Set ``UCI_Variant`` and ``Coordinates`` for ``variant`` where the engine offers
        them (and ``options`` leave them), and the rank base its moves are read with."""
        given = {name.lower(): value for name, value in self.options}
        settings = []
        if "uci_variant" in self.offered and "uci_variant" not in given:
            settings.append(("UCI_Variant", variant))
        chosen = self.coordinates or given.get("coordinates", "").lower() or None
        if chosen is None:
            # Fairy-Stockfish counts from 1, engines that play xiangqi alone from 0
            offers_variant = "uci_variant" in self.offered
            chosen = (
                "fairy-stockfish"
                if offers_variant and "coordinates" not in self.offered
                else "iccs"
            )
        if "coordinates" in self.offered and "coordinates" not in given:
            settings.append(("Coordinates", chosen))
        for name, value in settings:
            self._set_option(name, value)
        if settings:
            self._ready()
        self._base = 1 if chosen == "fairy-stockfish" else 0
        self._variant = variant

    def _follow(self, game: Any, adapter: _Adapter, state: Any) -> None:
        """Bring the agent's record of the engine's game to ``state``: one more move
        (the opponent's), none (the agent plays both sides), or a new game."""
        after = self._after
        if after is not None and after != state:
            for move in game.actions(after):
                if game.result(after, move) == state:
                    self._moves.append(adapter.format_uci(after, move, self._base))
                    self._after = state
                    return
        elif after is not None:
            return
        self.engine.send("ucinewgame")
        self._ready()
        initial = state == game.initial_state()
        self._start = "startpos" if initial else f"fen {adapter.format_state(state)}"
        self._moves = []
        self._after = state

    def _go(self, game: Any, state: Any, clock: ClockReading | None) -> str:
        words = ["go"]
        if clock is not None:
            white = game.to_move(state) == 0
            mine = (clock.own, clock.increment)
            theirs = (clock.opponent, clock.opponent_increment)
            (wtime, winc), (btime, binc) = (mine, theirs) if white else (theirs, mine)
            times = {"wtime": wtime, "btime": btime, "winc": winc, "binc": binc}
            words += [f"{key} {max(round(seconds * 1000), 0)}" for key, seconds in times.items()]
            if clock.moves_to_go is not None:
                words.append(f"movestogo {clock.moves_to_go}")
        elif self.time is not None:
            words.append(f"movetime {max(round(self.time * 1000), 1)}")
        if self.depth is not None:
            words.append(f"depth {self.depth}")
        if self.nodes is not None:
            words.append(f"nodes {self.nodes}")
        return " ".join(words)

    def _deadline(self, clock: ClockReading | None) -> float:
        """Seconds to wait for ``bestmove``: the move's time, if it has one, and ``wait``."""
        if clock is not None:
            return max(clock.own, 0.0) + self.wait
        return (self.time or 0.0) + self.wait

    def _search_line(self, line: str) -> str | None:
        """Keep an ``info`` line's score; return the ``bestmove`` line's move. Other
        lines are skipped, as UCI asks of both sides."""
        words = line.split()
        if words[:1] == ["info"]:
            score = _read_score(words)
            if score is not None:
                self.last_score = score
        elif words[:1] == ["bestmove"]:
            return words[1] if len(words) > 1 else ""
        return None

    def _read_move(self, adapter: _Adapter, state: Any, text: str) -> Any:
        if text in ("(none)", "0000"):
            raise self.engine.error(
                EngineIllegalMoveError, f"played no move ({text}) in {adapter.format_state(state)}"
            )
        if _UCI_MOVE.fullmatch(text) is None:
            raise self.engine.error(
                EngineProtocolError, f"answered bestmove {quoted(text)}, not a UCI move"
            )
        try:
            return adapter.parse_move(state, text, self._base)
        except ZerosumError as error:
            raise self.engine.error(EngineIllegalMoveError, f"played {text}: {error}") from None
