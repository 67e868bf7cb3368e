"""The UCI protocol: zerosum's chess engine as a UCI engine for chess GUIs
(:class:`UciEngine`, ``zerosum uci``).

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
    entry), ``Threads`` and ``MultiPV`` (1 only), ``Move Overhead`` (milliseconds kept
    back on every move, :mod:`zerosum.search.clock`), ``Ponder`` and ``UCI_Chess960``
    (castling written king-takes-rook, and Chess960 castling rights read from FEN).
``ucinewgame``
    forgets the table and sets the start position.
``position startpos|fen FEN [moves m1 m2 ...]``
    the position to search; moves in UCI (``e2e4``, ``e7e8q``, castling as ``e1g1`` or
    king-takes-rook).
``go [wtime btime winc binc movestogo depth nodes movetime infinite ponder]``
    searches, writes ``info depth D seldepth S multipv 1 score cp X|mate N nodes N nps N
    hashfull H time MS pv ...`` after each completed iteration, then ``bestmove M``.
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
  from the command's arrival. ``depth`` and ``nodes`` limit the search as well; ``go``
  with no limit at all searches as ``go infinite``.
* **infinite and ponder.** The ``bestmove`` of ``go infinite`` waits for ``stop``, even
  when the search ends by itself (a proven mate, the deepest depth). ``go ponder``
  searches with no time limit until ``ponderhit``, which starts the move's clock
  (counting from the ``ponderhit``) and turns it into a normal search, or ``stop``.
* **The end of the input** lets a running search finish (an infinite or pondering one is
  stopped), writes its ``bestmove`` and ends the loop, like ``quit`` after it.
* **Commands that change the position or the options while a search runs**
  (``position``, ``go``, ``ucinewgame``, ``setoption``) stop that search first; its
  ``bestmove`` comes before anything else.
* **No move to search.** A mated or stalemated position answers ``info depth 0 score
  mate 0`` (or ``cp 0``) and ``bestmove (none)``; a position drawn by rule (threefold
  repetition, fifty moves), which the game counts as over, still has legal moves, and
  the engine plays the first of them, as it does when a search is stopped before its
  first iteration completes (then the engine's own first move choice).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TextIO

from zerosum import __version__
from zerosum.game import MAX_PLY, WIN, WIN_THRESHOLD, ZerosumError, quoted
from zerosum.games.chess import Chess, State
from zerosum.games.chess.rules import legal_moves
from zerosum.search.clock import DEFAULT_OVERHEAD, budget
from zerosum.search.engine import Engine, EngineOptions, Limits, Report
from zerosum.search.table import BYTES_PER_ENTRY

__all__ = [
    "AUTHOR",
    "DEFAULT_HASH",
    "MAX_HASH",
    "MAX_OVERHEAD",
    "NAME",
    "UciEngine",
    "format_score",
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

_GO_NUMBERS = frozenset(
    ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime", "mate")
)
_GO_WORDS = _GO_NUMBERS | {"infinite", "ponder", "searchmoves"}


def table_entries(hash_mb: int) -> int:
    """Return the transposition-table bound (entries) for ``hash_mb`` megabytes."""
    return max(1, (hash_mb << 20) // BYTES_PER_ENTRY)


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


@dataclass(slots=True)
class _Options:
    hash_mb: int = DEFAULT_HASH
    overhead_ms: int = round(DEFAULT_OVERHEAD * 1000)
    chess960: bool = False
    ponder: bool = False


@dataclass(slots=True)
class _Plan:
    """What one ``go`` asks for: limits in plies and nodes, budgets in seconds."""

    depth: int | None = None
    nodes: int | None = None
    soft: float | None = None
    hard: float | None = None
    infinite: bool = False
    ponder: bool = False


class _Search:
    """One running search: its thread, and the stop signal the engine polls.

    ``is_set`` answers the engine: a ``stop`` (or ``quit``) came, or the hard deadline
    has passed. ``released`` tells the thread it may write ``bestmove`` (at once, but
    for an infinite or pondering search)."""

    def __init__(self, plan: _Plan, clock: Callable[[], float], started: float) -> None:
        self.plan = plan
        self.clock = clock
        self.stopped = threading.Event()
        self.released = threading.Event()
        self.soft_deadline: float | None = None
        self.deadline: float | None = None
        self.thread: threading.Thread | None = None
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
    """A UCI chess engine: feed it the GUI's lines, it writes its answers to ``output``.

    :meth:`handle` takes one line and returns ``False`` after ``quit``; :meth:`run`
    feeds it lines until then or the end of the input, and waits for the last search.
    ``hash_mb`` is the initial ``Hash`` option; ``clock`` (seconds) measures time.
    ``last`` is the final report of the latest search (``None`` if no iteration
    completed)."""

    def __init__(
        self,
        output: TextIO,
        *,
        hash_mb: int = DEFAULT_HASH,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if not 1 <= hash_mb <= MAX_HASH:
            raise ZerosumError(f"hash must be 1 to {MAX_HASH} MB, not {hash_mb}")
        self.options = _Options(hash_mb=hash_mb)
        self.last: Report | None = None
        self._out = output
        self._clock = clock
        self._lock = threading.Lock()
        self._game = Chess()
        self._state: State = self._game.initial_state()
        self._engine: Engine | None = None
        self._search: _Search | None = None
        self._commands: dict[str, Callable[[str, float], None]] = {
            "uci": self._uci,
            "debug": lambda rest, started: None,
            "isready": lambda rest, started: self._say("readyok"),
            "setoption": self._setoption,
            "ucinewgame": self._ucinewgame,
            "position": self._position,
            "go": self._go,
            "stop": lambda rest, started: self._stop_search(wait=False),
            "ponderhit": self._ponderhit,
        }

    def __repr__(self) -> str:
        return f"UciEngine({self._game.format_state(self._state)!r})"

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
            self._stop_search(wait=True)
            return False
        if not word:
            return True
        command = self._commands.get(word)
        if command is None:
            self._say(f"info string unknown command {quoted(word)}")
            return True
        try:
            command(rest.strip(), started)
        except ZerosumError as error:
            self._say(f"info string {error}")
        return True

    def finish(self) -> None:
        """Wait for the running search to answer; an infinite or pondering one is
        stopped first, since nothing is left to stop it."""
        search = self._search
        if search is None:
            return
        if search.plan.infinite or search.plan.ponder:
            search.stop()
        self._join()

    def _say(self, line: str) -> None:
        # one line, ASCII, written whole: the search thread and the loop both write
        flat = " ".join(line.splitlines()).encode("ascii", "backslashreplace").decode("ascii")
        with self._lock:
            self._out.write(flat + "\n")
            self._out.flush()

    def _stop_search(self, *, wait: bool) -> None:
        if self._search is not None:
            self._search.stop()
            if wait:
                self._join()

    def _join(self) -> None:
        search = self._search
        if search is not None and search.thread is not None:
            search.thread.join()
        self._search = None

    # ------------------------------------------------------------------ commands

    def _uci(self, rest: str, started: float) -> None:
        self._say(f"id name {NAME}")
        self._say(f"id author {AUTHOR}")
        self._say(f"option name Hash type spin default {DEFAULT_HASH} min 1 max {MAX_HASH}")
        self._say("option name Threads type spin default 1 min 1 max 1")
        self._say("option name MultiPV type spin default 1 min 1 max 1")
        self._say(
            f"option name Move Overhead type spin default {round(DEFAULT_OVERHEAD * 1000)} "
            f"min 0 max {MAX_OVERHEAD}"
        )
        self._say("option name Ponder type check default false")
        self._say("option name UCI_Chess960 type check default false")
        self._say("uciok")

    def _setoption(self, rest: str, started: float) -> None:
        self._stop_search(wait=True)
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
        elif key in {"threads", "multipv"}:
            _spin(name, value, 1, 1)
        elif key == "move overhead":
            options.overhead_ms = _spin(name, value, 0, MAX_OVERHEAD)
        elif key == "ponder":
            options.ponder = _check(name, value)
        elif key == "uci_chess960":
            options.chess960 = _check(name, value)
            self._game = Chess(options.chess960)
            self._engine = None
        else:
            raise _RejectedError(f"setoption: unknown option {quoted(name)}")

    def _ucinewgame(self, rest: str, started: float) -> None:
        self._stop_search(wait=True)
        if self._engine is not None:
            self._engine.reset()
        self._state = self._game.initial_state()

    def _position(self, rest: str, started: float) -> None:
        self._stop_search(wait=True)
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
                state = game.result(state, game.parse_move(state, text))
            except ZerosumError as error:
                raise _RejectedError(
                    f"position: move {number} {quoted(text)} refused: {error}; position unchanged"
                ) from None
        self._state = state

    def _ponderhit(self, rest: str, started: float) -> None:
        if self._search is not None:
            self._search.ponderhit(started)

    # ------------------------------------------------------------------ go

    def _go(self, rest: str, started: float) -> None:
        self._stop_search(wait=True)
        plan, problems = self._plan(rest.split())
        for problem in problems:
            self._say(f"info string go: {problem}")
        search = _Search(plan, self._clock, started)
        thread = threading.Thread(
            target=self._think, args=(search, self._state), name="uci-search", daemon=True
        )
        search.thread = thread
        self._search = search
        thread.start()

    def _plan(self, words: list[str]) -> tuple[_Plan, list[str]]:
        """Read ``go``'s arguments; return the plan and what was skipped."""
        plan = _Plan()
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
        if "mate" in numbers:
            problems.append("mate is not supported; searching as without it")
        if "depth" in numbers:
            plan.depth = min(max(numbers["depth"], 1), MAX_PLY)
        if "nodes" in numbers:
            plan.nodes = max(numbers["nodes"], 1)
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
            given = budget(left / 1000, increment / 1000, moves_to_go, overhead)
            hards.append(given.hard)
            softs.append(given.soft)
        if hards and not plan.infinite:
            plan.hard, plan.soft = min(hards), min(softs)
        if plan.depth is None and plan.nodes is None and plan.hard is None:
            plan.infinite = True  # a bare go searches until stop
        return plan, problems

    def _engine_for(self) -> Engine:
        size = table_entries(self.options.hash_mb)
        engine = self._engine
        if engine is None or engine.options.table_size != size:
            engine = self._engine = Engine(self._game, EngineOptions(table_size=size))
        return engine

    def _think(self, search: _Search, state: State) -> None:
        """The search thread: search, report each iteration, answer ``bestmove``."""
        try:
            move = self._best_move(search, state)
        except Exception as error:  # a GUI waits for bestmove whatever happens
            self._say(f"info string internal error: {type(error).__name__}: {error}")
            moves = legal_moves(state)
            move = moves[0] if moves else None
        search.released.wait()
        game = self._game
        self._say(f"bestmove {'(none)' if move is None else game.format_uci(state, move)}")

    def _best_move(self, search: _Search, state: State) -> int | None:
        game = self._game
        if game.is_terminal(state):
            moves = legal_moves(state)
            if not moves:
                score = "mate 0" if game.utility(state, game.to_move(state)) < 0 else "cp 0"
                self._say(f"info depth 0 score {score}")
                return None
            self._say("info string the position is drawn by rule; playing a legal move")
            return moves[0]
        engine = self._engine_for()
        plan = search.plan
        limits = Limits(depth=plan.depth, nodes=plan.nodes, stop=search)
        self.last = None
        for report in engine.iterate(state, limits):
            self.last = report
            self._say(self._info(state, report))
            soft = search.soft_deadline
            if soft is not None and self._clock() >= soft:
                break
        if self.last is not None:
            return int(self.last.best_move)
        return int(engine.root_moves(state)[0])  # stopped before depth 1 completed

    def _info(self, state: State, report: Report) -> str:
        game = self._game
        line = []
        for move in report.pv:
            line.append(game.format_uci(state, move))
            state = game.result(state, move)
        return (
            f"info depth {report.depth} seldepth {max(report.seldepth, report.depth)} "
            f"multipv 1 score {format_score(report.score)} nodes {report.nodes} "
            f"nps {report.nps} hashfull {report.hashfull} "
            f"time {round(report.elapsed * 1000)} pv {' '.join(line)}"
        )


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
