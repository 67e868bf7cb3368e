"""Opening books: the exact score of every position up to some plies, in an SQLite file.

A book holds, for a game, one row per position reached within its first ``plies`` moves
(the game not over), each with its exact score. Solvers and players read it before
searching: a position whose every move leads into the book (or ends the game) is
answered with no search at all (:meth:`Book.move_scores`).

Past its full plies a book may hold *lines* for a player: a strategy rather than every
position. At each position up to some ply where that player is to move and which it
reaches playing the book's own choices against every reply, the book keeps the exact
score and one best move (:meth:`Book.chosen_move`). A player that follows them plays
perfectly for as long as they last, and they cost one solve a position where the player
moves, against one a position at every ply for the full book: about the square root of
the positions to the same depth.

The file (``sqlite3`` from the standard library) has three tables::

    CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE positions (
        key INTEGER PRIMARY KEY,  -- the game's canonical_key (else key) of the position
        ply INTEGER NOT NULL,     -- the moves played from the start to reach it
        score INTEGER NOT NULL    -- its exact engine score for the side to move
    ) WITHOUT ROWID;
    CREATE TABLE lines (
        key INTEGER PRIMARY KEY,  -- a position of a line, also in positions
        child INTEGER NOT NULL    -- the key of the position its chosen move leads to
    ) WITHOUT ROWID;

``meta`` holds ``format`` (``zerosum-book``), ``version`` (:data:`SCHEMA_VERSION`; a
reader refuses any other), ``game`` (the spec the book was built for, such as
``connect4`` or ``connect4:width=5,height=4``), ``name`` (:func:`book_name`, which
readers match against their game), ``key`` (``canonical_key`` when positions are stored
once for their mirror images, else ``key``), ``plies`` (every position up to this many
plies is in the book; ``0`` until a first build completes), ``created`` (UTC, ISO 8601)
and ``solver`` (what solved the deepest ply: zerosum's version, and whether the compiled
kernel or the pure-Python path); ``lines_0`` and ``lines_1``, when there are lines for
the first or the second player, the ply to which they reach. A move is stored as the key
of the position it leads to, so that a line holds for both mirror images. Books written
before lines existed have no ``lines`` table and read as having none. Scores are engine units
(:mod:`zerosum.search.engine`): a win in ``n`` plies from the position is ``WIN - n``,
a loss ``n - WIN``, a draw 0. A game's ``published_score`` converts them (connect
four's: 22 minus the winner's stones on 7x6, as ``zerosum solve`` prints them).

:func:`build` makes a book bottom-up: it enumerates the positions ply by ply (one per
canonical key), solves the deepest ply exactly (the game's compiled kernel when it has
one and kernels are on, else :func:`zerosum.search.solve.solve`), and scores each
shallower ply by negamax over its children read back from the book, a move that ends the
game scored by the rules, so only the deepest ply costs search time. The deepest ply is
solved on a process pool (one game, and one kernel with its table, per worker, kept for
every position it is given) or on Ray actors; workers send scores back and the calling
process alone writes the file, committing every second. A worker that dies costs only
the positions it had not returned, which are given to another. A build interrupted
(Ctrl-C, a kill) and run again skips every position already stored and ends with the
same rows as one never interrupted. :func:`build_lines` adds a player's lines ply by ply
in the same way, on the same workers, each position solved with one best move.

:func:`find_book` looks for a game's book where :func:`default_paths` says: the
``ZEROSUM_BOOK`` environment variable (a book file, a folder of books, or ``0`` for
none), then the user data folder (``$XDG_DATA_HOME/zerosum/books``, by default
``~/.local/share/zerosum/books``), then the books shipped in the package
(``zerosum/books``), each file named ``<book_name>.sqlite`` (``connect4-7x6.sqlite``).
"""

from __future__ import annotations

import functools
import os
import signal
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from zerosum.game import WIN, WIN_THRESHOLD, ZerosumError, describe_state, quoted

__all__ = [
    "ENVIRONMENT_VARIABLE",
    "FORMAT",
    "PACKAGE_FOLDER",
    "SCHEMA_VERSION",
    "Book",
    "BookError",
    "BookInfo",
    "BuildProgress",
    "PlyReport",
    "book_name",
    "build",
    "build_lines",
    "default_paths",
    "find_book",
    "user_folder",
]

FORMAT = "zerosum-book"
"""The ``format`` row of every book's ``meta`` table."""

SCHEMA_VERSION = 1
"""The version of the file layout this module reads and writes."""

ENVIRONMENT_VARIABLE = "ZEROSUM_BOOK"
"""A book file, a folder of books, or ``0`` for no book: where :func:`find_book` looks first."""

PACKAGE_FOLDER = Path(__file__).resolve().parent / "books"
"""The books shipped inside the package."""

_LINES_TABLE = (
    "CREATE TABLE IF NOT EXISTS lines (key INTEGER PRIMARY KEY, child INTEGER NOT NULL) "
    "WITHOUT ROWID"
)

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS positions ("
    "key INTEGER PRIMARY KEY, ply INTEGER NOT NULL, score INTEGER NOT NULL) WITHOUT ROWID",
    _LINES_TABLE,
)

_COMMIT_SECONDS = 1.0
"""How often a build commits the scores it has received."""

_CHUNK_SECONDS = 0.5
"""The work a chunk of positions sent to a worker aims at: short enough that a dying
worker or an interruption loses little, long enough that sending it costs nothing."""

_MAX_CHUNK = 4096
"""The most positions in one chunk."""

_DEATHS = 3
"""How many times the positions of one chunk may kill their worker before a build gives
up on them."""


class BookError(ZerosumError):
    """A book file is missing, unreadable, of another version or of another game."""


@dataclass(frozen=True, slots=True)
class BookInfo:
    """A book's ``meta`` table: see the module's description of each field."""

    path: Path
    version: int
    game: str
    name: str
    key: str
    plies: int
    created: str
    solver: str
    lines: tuple[int | None, ...] = ()
    """Per player (the first mover first), the ply to which the book's lines for that
    player reach, ``None`` for no lines."""


@dataclass(frozen=True, slots=True)
class BuildProgress:
    """Where a build stands in one ply, as :func:`build` tells its ``progress`` callable.

    ``done`` of ``total`` positions of ``ply`` are stored (those found already stored
    included), ``seconds`` since the ply started; ``solving`` is ``True`` for the
    deepest ply (searched), ``False`` for a ply scored from the one below."""

    ply: int
    done: int
    total: int
    seconds: float
    solving: bool


@dataclass(frozen=True, slots=True)
class PlyReport:
    """One ply of a build: its ``positions`` (one per canonical key, the game not over),
    those ``added`` by this run, and the ``seconds`` it took."""

    ply: int
    positions: int
    added: int
    seconds: float


# --------------------------------------------------------------------------- reading


def book_name(game: Any) -> str:
    """Name ``game``'s book: its registry name, and its board size when it has one
    (``connect4-7x6``). Files are ``<name>.sqlite``; a book opened for a game must
    carry the game's name."""
    name: str = game.info.name
    size = game.info.board_size
    return name + (f"-{size[0]}x{size[1]}" if size is not None else "")


def _key_function(game: Any) -> tuple[str, Callable[[Any], int]]:
    """The hook that keys ``game``'s positions in a book, and its name."""
    for name in ("canonical_key", "key"):
        function = getattr(game, name, None)
        if callable(function):
            return name, function
    raise BookError(f"game {game.info.name!r} has no key(); a book cannot store its positions")


def _connect(path: Path, *, write: bool) -> sqlite3.Connection:
    """Open ``path`` (read-only unless ``write``), one line of error if it cannot be."""
    if not write and not path.is_file():
        raise BookError(f"no book file {quoted(str(path))}")
    try:
        if write:
            return sqlite3.connect(path, check_same_thread=False)
        return sqlite3.connect(
            path.resolve().as_uri() + "?mode=ro", uri=True, check_same_thread=False
        )
    except sqlite3.Error as error:
        raise BookError(f"cannot open the book {quoted(str(path))}: {error}") from None


def _read_meta(connection: sqlite3.Connection, path: Path) -> dict[str, str]:
    """The ``meta`` table, checked to be a book of this version."""
    try:
        rows = connection.execute("SELECT name, value FROM meta").fetchall()
    except sqlite3.DatabaseError as error:
        raise BookError(f"{quoted(str(path))} is not a zerosum book ({error})") from None
    meta = {str(name): str(value) for name, value in rows}
    if meta.get("format") != FORMAT:
        raise BookError(f"{quoted(str(path))} is not a zerosum book (no format {FORMAT!r})")
    if meta.get("version") != str(SCHEMA_VERSION):
        raise BookError(
            f"{quoted(str(path))} is a book of version {meta.get('version')}; this zerosum "
            f"reads version {SCHEMA_VERSION} (build it again with zerosum book build)"
        )
    missing = [
        field for field in BookInfo.__slots__ if field not in meta and field not in _NOT_IN_META
    ]
    if missing:
        raise BookError(f"{quoted(str(path))} is a damaged book: no {', '.join(missing)}")
    for name in ("plies", *(f"lines_{player}" for player in range(2))):
        if name in meta and not meta[name].isdigit():
            raise BookError(f"{quoted(str(path))} is a damaged book: {name} {meta[name]!r}")
    return meta


def _info(meta: dict[str, str], path: Path) -> BookInfo:
    """The checked ``meta`` table as a :class:`BookInfo`."""
    return BookInfo(
        path=path,
        version=int(meta["version"]),
        game=meta["game"],
        name=meta["name"],
        key=meta["key"],
        plies=int(meta["plies"]),
        created=meta["created"],
        solver=meta["solver"],
        lines=tuple(
            int(meta[name]) if (name := f"lines_{player}") in meta else None for player in range(2)
        ),
    )


_NOT_IN_META = ("path", "lines")
"""The fields of :class:`BookInfo` not read from a ``meta`` row of the same name."""


def _terminal_value(game: Any, state: Any) -> int:
    """The engine score of a finished game for the player whose turn it would be."""
    value: int = game.utility(state, game.to_move(state))
    if game.info.win_loss:
        return WIN if value > 0 else -WIN if value < 0 else 0
    return value


def _backed_up(score: int, again: bool) -> int:
    """A child's score seen from its parent: negated where the side changes, and a win
    or loss one ply further away."""
    value = score if again else -score
    if value >= WIN_THRESHOLD:
        return value - 1
    if value <= -WIN_THRESHOLD:
        return value + 1
    return value


class Book:
    """An opening book opened for reading, for one game.

    ``Book(path, game)`` opens the file read-only and checks it (:class:`BookError` for a
    missing file, a file that is not a book, another :data:`SCHEMA_VERSION`, or a book of
    another game); ``game`` is made from the book's own spec when not given. Use it as a
    context manager, or call :meth:`close`. Lookups may come from several threads."""

    __slots__ = ("_connection", "_has_lines", "_key", "_lock", "game", "info")

    game: Any
    """The game whose positions the book holds."""
    info: BookInfo
    """The book's ``meta`` table."""

    def __init__(self, path: str | Path, game: Any = None) -> None:
        where = Path(path)
        connection = _connect(where, write=False)
        try:
            meta = _read_meta(connection, where)
            if game is None:
                from zerosum.games import registry  # noqa: PLC0415 - games load when asked

                # the file names the game: never code to import from a file handed over
                game = registry.make(meta["game"], untrusted=True)
            if meta["name"] != book_name(game):
                raise BookError(
                    f"{quoted(str(where))} is a book of {meta['name']}, not of {book_name(game)}"
                )
            name, self._key = _key_function(game)
            if meta["key"] != name:
                raise BookError(
                    f"{quoted(str(where))} keys positions by {meta['key']}, but the game "
                    f"{book_name(game)} by {name}: build the book again"
                )
        except BaseException:
            connection.close()
            raise
        self._connection = connection
        self._has_lines = _has_lines(connection)
        self._lock = threading.Lock()
        self.game = game
        self.info = _info(meta, where)

    def __repr__(self) -> str:
        return f"Book({str(self.info.path)!r}, {self.info.name!r}, plies={self.info.plies})"

    def __enter__(self) -> Book:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the file."""
        self._connection.close()

    def score(self, state: Any) -> int | None:
        """Return the exact engine score of ``state`` for the side to move, or ``None``
        when the book does not hold it (a finished game is scored by the rules)."""
        if self.game.is_terminal(state):
            return _terminal_value(self.game, state)
        return self._scores([self._key(state)]).get(self._key(state))

    def move_scores(self, state: Any) -> dict[Any, int] | None:
        """Return every legal move of ``state`` with its exact engine score for the side
        to move, best first (ties in the game's move order), or ``None`` unless every
        move ends the game or leads to a position in the book. A move that ends the game
        is scored by the rules. ``None`` for a finished game."""
        return _move_scores(self.game, self._key, self._scores, state)

    def chosen_move(self, state: Any) -> tuple[Any, int] | None:
        """Return the move the book's lines choose at ``state`` (a best move) and the
        exact score of ``state`` for the side to move, or ``None`` when no line passes
        through ``state`` (see :func:`build_lines`)."""
        game = self.game
        if not self._has_lines or game.is_terminal(state):
            return None
        key = self._key(state)
        try:
            with self._lock:
                row = self._connection.execute(
                    "SELECT lines.child, positions.score FROM lines JOIN positions "
                    "ON positions.key = lines.key WHERE lines.key = ?",
                    (key,),
                ).fetchone()
        except OverflowError:  # keys past 63 bits: no book holds them
            return None
        except sqlite3.DatabaseError as error:
            raise BookError(
                f"cannot read the book {quoted(str(self.info.path))}: {error}"
            ) from None
        if row is None:
            return None
        move = _move_to(game, self._key, state, int(row[0]))
        return None if move is None else (move, int(row[1]))

    def counts(self) -> dict[int, int]:
        """Return the positions stored at each ply."""
        with self._lock:
            rows = self._connection.execute(
                "SELECT ply, COUNT(*) FROM positions GROUP BY ply ORDER BY ply"
            ).fetchall()
        return {int(ply): int(count) for ply, count in rows}

    def _scores(self, keys: Sequence[int]) -> dict[int, int]:
        """The stored scores of ``keys`` (those it holds)."""
        try:
            with self._lock:
                return _stored_scores(self._connection, keys)
        except OverflowError:  # keys past 63 bits: no book holds them
            return {}
        except sqlite3.DatabaseError as error:
            raise BookError(
                f"cannot read the book {quoted(str(self.info.path))}: {error}"
            ) from None


def _has_lines(connection: sqlite3.Connection) -> bool:
    """Whether the book has a ``lines`` table (books made before lines have none)."""
    row = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'lines'"
    ).fetchone()
    return row is not None


def _move_scores(
    game: Any,
    key: Callable[[Any], int],
    lookup: Callable[[Sequence[int]], dict[int, int]],
    state: Any,
) -> dict[Any, int] | None:
    """Every move of ``state`` with its exact score, best first (ties in the game's move
    order), from the stored scores ``lookup`` gives of the children's keys and the rules
    for children that end the game; ``None`` unless every child is scored."""
    if game.is_terminal(state):
        return None
    mover = game.to_move(state)
    children = [(move, game.result(state, move)) for move in game.actions(state)]
    keys = [None if game.is_terminal(c) else key(c) for _, c in children]
    found = lookup([k for k in keys if k is not None])
    scores: dict[Any, int] = {}
    for (move, child), child_key in zip(children, keys, strict=True):
        if child_key is None:
            child_score = _terminal_value(game, child)
        elif child_key in found:
            child_score = found[child_key]
        else:
            return None
        scores[move] = _backed_up(child_score, game.to_move(child) == mover)
    return dict(sorted(scores.items(), key=lambda item: -item[1]))


def _move_to(game: Any, key: Callable[[Any], int], state: Any, child: int) -> Any:
    """The first move of ``state`` (in the game's order) leading to the position keyed
    ``child``, or ``None``."""
    for move in game.actions(state):
        if key(game.result(state, move)) == child:
            return move
    return None


def user_folder() -> Path:
    """The folder of the user's books: ``zerosum/books`` in ``XDG_DATA_HOME`` (by default
    ``~/.local/share``). ``zerosum book build`` writes there unless told otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "zerosum" / "books"


def default_paths(game: Any) -> list[Path]:
    """The files :func:`find_book` tries for ``game``, in order (none if
    ``ZEROSUM_BOOK`` is ``0``)."""
    file_name = book_name(game) + ".sqlite"
    given = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
    if given == "0":
        return []
    paths = []
    if given:
        path = Path(given).expanduser()
        paths.append(path / file_name if path.is_dir() else path)
    paths.extend((user_folder() / file_name, PACKAGE_FOLDER / file_name))
    return paths


def find_book(game: Any) -> Book | None:
    """Open ``game``'s book from the first of :func:`default_paths` that exists, or return
    ``None``. A ``ZEROSUM_BOOK`` file built for another game is passed over; one that is
    not a readable book of this version raises :class:`BookError`, as do a file in a
    books folder that is not and a ``ZEROSUM_BOOK`` naming nothing."""
    given = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
    if given not in {"", "0"} and not Path(given).expanduser().exists():
        raise BookError(f"{ENVIRONMENT_VARIABLE} names {quoted(given)}, which does not exist")
    paths = default_paths(game)
    name = book_name(game)
    for path in paths:
        if not path.is_file():
            continue
        connection = _connect(path, write=False)
        try:
            meta = _read_meta(connection, path)
        finally:
            connection.close()
        if meta["name"] != name:
            continue
        return Book(path, game)
    return None


# --------------------------------------------------------------------------- building

_Chunk = list[tuple[int, Any]]
"""Positions sent to a worker: ``(key, state)`` pairs."""

_Found = list[tuple[int, int, int | None]]
"""Solved positions: ``(key, score, child)``, ``child`` the key of the position a best move
leads to when the build chooses moves (lines), else ``None``."""

_Scored = tuple[_Found, float, str]
"""A worker's answer: the positions solved, the seconds taken and the solver's name."""

_Results = Iterator[tuple[_Found, str]]
"""The positions of a ply's chunks as they come back, each with the solver's name."""


@dataclass(frozen=True, slots=True)
class _Job:
    """What every worker of a build is set up for: the game ``spec``, whether kernels
    are on (as in the parent), and whether it ``choose``s a best move of each position
    (lines) or only scores it."""

    spec: str
    kernels_on: bool
    choose: bool


class _Scorer:
    """The exact score of positions of one game, with one engine (and its table) kept
    for all of them: the compiled kernel's ``value`` when the game has one and kernels
    are on, else :func:`zerosum.search.solve.solve`, which also finds a best move when
    the job chooses them (through the compiled engine when there is one)."""

    __slots__ = ("_engine", "_key", "_value", "choose", "game", "solver")

    def __init__(self, spec: str, choose: bool) -> None:
        from zerosum.games import registry  # noqa: PLC0415 - the search loads for a build
        from zerosum.search.engine import Engine  # noqa: PLC0415

        self.game = registry.make(spec)
        self.choose = choose
        self._key = _key_function(self.game)[1]
        compiled = getattr(self.game, "compiled_engine", None)
        engine = compiled() if callable(compiled) else None
        # connect four's KernelEngine holds a kernel whose value() runs the whole solve
        self._value: Callable[[Any], int] | None = getattr(
            getattr(engine, "kernel", None), "value", None
        )
        self._engine = engine if engine is not None else Engine(self.game)
        self.solver = _solver_name(self._value is not None)

    def __call__(self, states: _Chunk) -> _Scored:
        """Solve ``(key, state)`` pairs."""
        from zerosum.search.solve import solve  # noqa: PLC0415

        start = time.perf_counter()
        value = self._value
        game, engine = self.game, self._engine
        found: _Found
        if self.choose:
            found = []
            for key, state in states:
                solution = solve(game, state, best_moves=False, engine=engine)
                child = game.result(state, solution.best_moves[0])
                found.append((key, solution.score, self._key(child)))
        elif value is not None:
            found = [(key, value(state), None) for key, state in states]
        else:
            found = [
                (key, solve(game, state, best_moves=False, engine=engine).score, None)
                for key, state in states
            ]
        return found, time.perf_counter() - start, self.solver


def _solver_name(compiled: bool) -> str:
    """The ``solver`` row of a book: zerosum's version and the path that solved."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        release = version("zerosum")
    except PackageNotFoundError:
        release = "(not installed)"
    return f"zerosum {release}, " + ("compiled kernel" if compiled else "pure Python")


_worker: list[_Scorer] = []
"""A pool worker's scorer, made once by :func:`_start_worker`."""


def _start_worker(job: _Job) -> None:
    """Set up a pool worker: kernels as the parent has them, its scorer, and Ctrl-C left
    to the parent, which stops the build after the chunks under way."""
    from zerosum import kernels  # noqa: PLC0415

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    kernels.use_kernels(job.kernels_on)
    _worker.append(_Scorer(job.spec, job.choose))


def _work(states: _Chunk) -> _Scored:
    """A pool worker's task: score a chunk of positions."""
    return _worker[0](states)


class _RayWorker:
    """A Ray actor holding one scorer for every chunk it is given."""

    def __init__(self, job: _Job) -> None:
        from zerosum import kernels  # noqa: PLC0415

        kernels.use_kernels(job.kernels_on)
        self.scorer = _Scorer(job.spec, job.choose)

    def score(self, states: _Chunk) -> _Scored:
        """Score a chunk of positions."""
        return self.scorer(states)


class _Chunks:
    """The positions of the deepest ply still to solve, cut into chunks sized to take
    about :data:`_CHUNK_SECONDS` each (from the time positions have taken so far), and
    the chunks a dying worker left, to give again."""

    __slots__ = ("deaths", "game", "positions", "retry", "seconds", "solved", "warn")

    def __init__(
        self, positions: Sequence[tuple[int, Any]], game: Any, warn: Callable[[str], None]
    ) -> None:
        self.positions = deque(positions)
        self.game = game
        self.warn = warn
        self.retry: deque[_Chunk] = deque()
        self.deaths: dict[int, int] = {}
        self.seconds = 0.0
        self.solved = 0

    def __bool__(self) -> bool:
        return bool(self.positions or self.retry)

    def next(self) -> _Chunk:
        """The next chunk to give a worker."""
        if self.retry:
            return self.retry.popleft()
        # one position until a time per position is known: the first positions of a deep
        # build may take minutes each, and a chunk keeps a worker busy to its end
        size = 1
        if self.solved:
            mean = max(self.seconds / self.solved, 1e-9)
            size = max(1, min(_MAX_CHUNK, int(_CHUNK_SECONDS / mean)))
        return [self.positions.popleft() for _ in range(min(size, len(self.positions)))]

    def done(self, chunk: _Chunk, seconds: float) -> None:
        """Record the time a chunk took."""
        self.seconds += seconds
        self.solved += len(chunk)

    def give_back(self, chunk: _Chunk) -> None:
        """Take back a chunk no worker started, to give it first next time."""
        self.retry.appendleft(chunk)

    def lost(self, chunk: _Chunk) -> None:
        """Give ``chunk`` again after its worker died; :class:`BookError` once its
        positions have killed :data:`_DEATHS` workers."""
        first = chunk[0][0]
        self.deaths[first] = self.deaths.get(first, 0) + 1
        if self.deaths[first] >= _DEATHS:
            raise BookError(
                f"a worker died {_DEATHS} times solving {len(chunk)} position(s) from "
                f"{describe_state(self.game, chunk[0][1])}; giving up"
            )
        self.warn(f"a worker died; its {len(chunk)} position(s) are solved again")
        self.retry.append(chunk)


def _results(chunks: _Chunks, job: _Job, workers: int, ray_address: str | None) -> _Results:
    """Solve the chunks where the build was told: in this process (one worker), on a
    pool of processes, or on Ray."""
    if not chunks:
        return iter(())
    if ray_address is not None:
        return _ray(chunks, job, workers if workers > 1 else None, ray_address)
    if workers > 1:
        return _pool(chunks, job, workers)
    return _here(chunks, job)


def _here(chunks: _Chunks, job: _Job) -> _Results:
    """Solve every chunk in this process."""
    scorer = _Scorer(job.spec, job.choose)
    while chunks:
        chunk = chunks.next()
        found, seconds, solver = scorer(chunk)
        chunks.done(chunk, seconds)
        yield found, solver


def _pool(chunks: _Chunks, job: _Job, workers: int) -> _Results:
    """Solve the chunks on a pool of ``workers`` processes with twice as many chunks in
    flight; the chunks a dying worker took down are given again (:class:`_Chunks`)."""
    # a process pool costs an import only a build needs: readers of books skip it
    from zerosum.pools import SurvivingPool  # noqa: PLC0415

    with SurvivingPool(workers, _work, _start_worker, (job,)) as pool:
        while chunks or pool.running:
            while chunks and pool.running < 2 * workers:
                chunk = chunks.next()
                if not pool.submit(chunk):
                    chunks.give_back(chunk)
                    break
            ended, lost = pool.wait()
            for chunk in lost:
                chunks.lost(chunk)
            for chunk, (found, seconds, solver) in ended:
                chunks.done(chunk, seconds)
                yield found, solver


def _ray(chunks: _Chunks, job: _Job, workers: int | None, address: str) -> _Results:
    """Solve the chunks on Ray actors, one chunk at a time each: ``workers`` of them (by
    default one per CPU of the cluster). ``address`` ``local`` starts a cluster here. An
    actor that dies is replaced and its chunk given again."""
    try:
        import ray  # noqa: PLC0415 - optional: imported only when a build asks for Ray
    except ImportError:
        raise BookError(
            "--ray needs Ray, which is not installed: pip install 'zerosum[ray]'"
        ) from None
    import logging  # noqa: PLC0415

    started = not ray.is_initialized()
    if started:
        if address == "local":
            ray.init(
                num_cpus=workers or os.cpu_count() or 1,
                include_dashboard=False,
                logging_level=logging.WARNING,
                log_to_driver=False,
            )
        else:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
    try:
        if workers is None:
            resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
            workers = max(1, int(resources.get("CPU", 1)))
        actor: Any = ray.remote(num_cpus=1)(_RayWorker)
        idle = [actor.remote(job) for _ in range(workers)]
        running: dict[Any, tuple[Any, _Chunk]] = {}
        while chunks or running:
            while chunks and idle:
                worker: Any = idle.pop()
                chunk = chunks.next()
                running[worker.score.remote(chunk)] = (worker, chunk)
            finished, _ = ray.wait(list(running), num_returns=1)
            for reference in finished:
                worker, chunk = running.pop(reference)
                try:
                    found, seconds, solver = ray.get(reference)
                except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError):
                    chunks.lost(chunk)
                    idle.append(actor.remote(job))
                    continue
                idle.append(worker)
                chunks.done(chunk, seconds)
                yield found, solver
    finally:
        if started:
            ray.shutdown()


def _levels(game: Any, key: Callable[[Any], int], plies: int) -> list[list[tuple[int, Any]]]:
    """The positions at each ply up to ``plies`` where the game goes on, one per key,
    sorted by key."""
    start = game.initial_state()
    if game.is_terminal(start):
        return [[] for _ in range(plies + 1)]
    level = {key(start): start}
    levels = [sorted(level.items())]
    for _ in range(plies):
        following: dict[int, Any] = {}
        for state in level.values():
            for move in game.actions(state):
                child = game.result(state, move)
                if not game.is_terminal(child):
                    following.setdefault(key(child), child)
        level = following
        levels.append(sorted(level.items()))
    return levels


def _check_keys(game: Any, level: list[tuple[int, Any]]) -> None:
    """Refuse positions (``(key, state)`` sorted by key) that SQLite's integers cannot key."""
    if level and not 0 <= level[0][0] <= level[-1][0] < 1 << 63:
        raise BookError(
            f"the positions of {book_name(game)} have keys beyond 63 bits; a book cannot hold them"
        )


def _wins_at_once(game: Any, state: Any) -> bool:
    """Whether the side to move wins with its next move: the rules say so, no search."""
    if not game.info.win_loss:
        return False
    winning = getattr(game, "winning_action", None)
    if callable(winning):
        return winning(state) is not None
    mover = game.to_move(state)
    for move in game.actions(state):
        child = game.result(state, move)
        if game.is_terminal(child) and game.utility(child, mover) > 0:
            return True
    return False


class _Writer:
    """The build's one connection: rows inserted, committed every :data:`_COMMIT_SECONDS`."""

    __slots__ = ("committed", "connection", "pending", "pending_lines")

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.pending: list[tuple[int, int, int]] = []
        self.pending_lines: list[tuple[int, int]] = []
        self.committed = time.perf_counter()

    def add(self, rows: list[tuple[int, int, int]]) -> None:
        """Store rows ``(key, ply, score)``, committing when a second has passed."""
        self.pending.extend(rows)
        if time.perf_counter() - self.committed >= _COMMIT_SECONDS:
            self.commit()

    def add_lines(self, rows: list[tuple[int, int]]) -> None:
        """Store lines' rows ``(key, child)``, written with the next commit; the
        position's own row must be given to :meth:`add` before."""
        self.pending_lines.extend(rows)

    def commit(self) -> None:
        """Write and commit every row received."""
        if self.pending:
            self.connection.executemany(
                "INSERT OR IGNORE INTO positions (key, ply, score) VALUES (?, ?, ?)",
                self.pending,
            )
            self.pending = []
        if self.pending_lines:
            self.connection.executemany(
                "INSERT OR IGNORE INTO lines (key, child) VALUES (?, ?)", self.pending_lines
            )
            self.pending_lines = []
        self.connection.commit()
        self.committed = time.perf_counter()

    def set_meta(self, name: str, value: str) -> None:
        """Set a ``meta`` row (committed with the next rows)."""
        self.connection.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (name, value))


@contextmanager
def _writing(connection: sqlite3.Connection) -> Iterator[_Writer]:
    """A build's writer on ``connection``, closed at the end; interrupted
    (``KeyboardInterrupt``), it commits what it has first, since every row the workers
    sent is exact and the next run skips it."""
    writer = _Writer(connection)
    try:
        yield writer
    except KeyboardInterrupt:
        writer.commit()
        raise
    finally:
        connection.close()


def _reach(writer: _Writer, path: Path, name: str, plies: int) -> None:
    """Record in the ``meta`` row ``name`` that a build reached ``plies`` (a shallower
    build of a deeper book leaves the row as it was), and commit."""
    reached = _read_meta(writer.connection, path).get(name)
    writer.set_meta(name, str(plies if reached is None else max(int(reached), plies)))
    writer.commit()


def _open_for_build(path: Path, spec: str, game: Any, key_name: str) -> sqlite3.Connection:
    """Create the book at ``path``, or open the one there after checking it is a book of
    this game and version: the build resumes or deepens it."""
    existed = path.exists()
    if existed:
        _connect(path, write=False).close()  # one line of error for what is not a file
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
    connection = _connect(path, write=True)
    try:
        if existed:
            meta = _read_meta(connection, path)
            if meta["name"] != book_name(game) or meta["key"] != key_name:
                raise BookError(
                    f"{quoted(str(path))} is a book of {meta['name']}, not of "
                    f"{book_name(game)}; give another file"
                )
            connection.execute(_LINES_TABLE)  # a book from before lines gains the table
        else:
            for statement in _SCHEMA:
                connection.execute(statement)
            meta_rows = {
                "format": FORMAT,
                "version": str(SCHEMA_VERSION),
                "game": spec,
                "name": book_name(game),
                "key": key_name,
                "plies": "0",
                "created": datetime.now(UTC).isoformat(timespec="seconds"),
                "solver": "none yet",
            }
            connection.executemany("INSERT INTO meta VALUES (?, ?)", meta_rows.items())
            connection.commit()
    except sqlite3.DatabaseError as error:
        connection.close()
        raise BookError(f"{quoted(str(path))} is not a zerosum book ({error})") from None
    except BaseException:
        connection.close()
        raise
    return connection


def _stored(connection: sqlite3.Connection, ply: int) -> dict[int, int]:
    """The keys and scores stored at ``ply``."""
    rows = connection.execute("SELECT key, score FROM positions WHERE ply = ?", (ply,))
    return {int(key): int(score) for key, score in rows}


class _Ply:
    """One ply under way: its positions, those stored before, and its progress told."""

    __slots__ = ("level", "number", "progress", "solving", "start", "stored")

    def __init__(
        self,
        number: int,
        level: list[tuple[int, Any]],
        stored: dict[int, int],
        solving: bool,
        progress: Callable[[BuildProgress], None] | None,
    ) -> None:
        self.number, self.level, self.stored = number, level, stored
        self.solving, self.progress = solving, progress
        self.start = time.perf_counter()

    def tell(self, done: int) -> None:
        """Tell the progress callable that ``done`` positions of the ply are stored."""
        if self.progress is not None:
            elapsed = time.perf_counter() - self.start
            self.progress(BuildProgress(self.number, done, len(self.level), elapsed, self.solving))


def build(
    spec: str,
    path: str | Path,
    plies: int,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    progress: Callable[[BuildProgress], None] | None = None,
    warn: Callable[[str], None] | None = None,
) -> list[PlyReport]:
    """Build (or resume, or deepen) the book of the game ``spec`` at ``path``: the exact
    score of every position up to ``plies`` plies, one per canonical key.

    The deepest ply is solved in this process (``workers`` 1), on a pool of ``workers``
    processes, or on the Ray cluster at ``ray_address`` (``local`` for one started here)
    with ``workers`` actors (by default, with 1, one per CPU of the cluster); every
    shallower ply is scored from the ply below. Positions already stored are skipped.
    ``progress`` is told a :class:`BuildProgress` as positions are stored, ``warn`` (by
    default nobody) that a worker died and its positions are given again. Returns a
    :class:`PlyReport` per ply, the deepest first. Raises :class:`BookError` for a file
    that is not a book of this game and version, positions keyed beyond 63 bits (SQLite's
    integers), a negative ``plies`` or ``workers`` below 1. Interrupted
    (``KeyboardInterrupt``), it commits what it has first."""
    from zerosum import kernels  # noqa: PLC0415 - the games load when a book is built
    from zerosum.games import registry  # noqa: PLC0415

    if plies < 0:
        raise BookError(f"a book needs 0 plies or more, not {plies}")
    if workers < 1:
        raise BookError(f"a build needs 1 worker or more, not {workers}")
    game = registry.make(spec)
    key_name, key = _key_function(game)
    where = Path(path)
    if where.exists():  # refused before the positions are counted, which takes a while
        _open_for_build(where, spec, game, key_name).close()
    levels = _levels(game, key, plies)
    for level in levels:
        _check_keys(game, level)
    reports: list[PlyReport] = []
    with _writing(_open_for_build(where, spec, game, key_name)) as writer:
        connection = writer.connection
        below: dict[int, int] = {}
        for number in range(plies, -1, -1):
            ply = _Ply(
                number, levels[number], _stored(connection, number), number == plies, progress
            )
            ply.tell(len(ply.stored))
            if ply.solving:
                added = _solve_deepest(
                    game,
                    ply,
                    writer,
                    job=_Job(spec, kernels.enabled(), choose=False),
                    workers=workers,
                    ray_address=ray_address,
                    warn=warn if warn is not None else _ignore,
                )
            else:
                added = _back_up(game, key, ply, below, writer)
            writer.commit()
            below = _stored(connection, number) if number else {}
            reports.append(
                PlyReport(number, len(ply.level), added, time.perf_counter() - ply.start)
            )
        _reach(writer, where, "plies", plies)
    return reports


def _solve_deepest(
    game: Any,
    ply: _Ply,
    writer: _Writer,
    *,
    job: _Job,
    workers: int,
    ray_address: str | None,
    warn: Callable[[str], None],
) -> int:
    """Solve the positions of the deepest ply not yet stored; the count added."""
    done = len(ply.stored)
    missing: list[tuple[int, Any]] = []
    rules: list[tuple[int, int, int]] = []
    for key, state in ply.level:
        if key in ply.stored:
            continue
        if _wins_at_once(game, state):
            rules.append((key, ply.number, WIN - 1))
        else:
            missing.append((key, state))
    writer.add(rules)
    done += len(rules)
    ply.tell(done)
    for found, solver in _results(_Chunks(missing, game, warn), job, workers, ray_address):
        writer.set_meta("solver", solver)
        writer.add([(key, ply.number, score) for key, score, _ in found])
        done += len(found)
        ply.tell(done)
    return len(rules) + len(missing)


def _ignore(message: str) -> None:
    """The default warning callable: nobody is told."""


def _back_up(
    game: Any, key: Callable[[Any], int], ply: _Ply, below: dict[int, int], writer: _Writer
) -> int:
    """Score the positions of ``ply`` not yet stored by negamax over their children:
    positions of the ply below from ``below`` (else the file), finished games by the
    rules. The count added."""
    rows: list[tuple[int, int, int]] = []
    told = time.perf_counter()
    done = len(ply.stored)
    for parent, state in ply.level:
        if parent in ply.stored:
            continue
        mover = game.to_move(state)
        best = -WIN - 1
        for move in game.actions(state):
            child = game.result(state, move)
            if game.is_terminal(child):
                score = _terminal_value(game, child)
            else:
                found = below.get(key(child))
                score = found if found is not None else _child(game, writer, child, key)
            best = max(best, _backed_up(score, game.to_move(child) == mover))
        rows.append((parent, ply.number, best))
        if time.perf_counter() - told >= 0.2:
            done += len(rows)
            writer.add(rows)
            rows = []
            told = time.perf_counter()
            ply.tell(done)
    writer.add(rows)
    ply.tell(done + len(rows))
    return len(ply.level) - len(ply.stored)


def _child(game: Any, writer: _Writer, child: Any, key: Callable[[Any], int]) -> int:
    """The stored score of ``child``, found at another ply than the one below (a game
    whose positions recur at different depths)."""
    writer.commit()
    row = writer.connection.execute(
        "SELECT score FROM positions WHERE key = ?", (key(child),)
    ).fetchone()
    if row is None:
        raise BookError(
            f"the book lacks {describe_state(game, child)}, which it should hold: "
            "it is damaged; build it anew"
        )
    return int(row[0])


def build_lines(
    spec: str,
    path: str | Path,
    plies: int,
    *,
    player: int,
    workers: int = 1,
    ray_address: str | None = None,
    progress: Callable[[BuildProgress], None] | None = None,
    warn: Callable[[str], None] | None = None,
) -> list[PlyReport]:
    """Add to the book of the game ``spec`` at ``path`` (made if missing) the lines of
    ``player`` (0 moves first) up to ``plies`` plies: the exact score and one best move of
    every position up to that ply where ``player`` is to move and which it reaches
    playing the book's moves against every reply (one per canonical key).

    The build goes ply by ply from the start. A position whose every move the book
    already scores (its full plies, or positions of other lines) takes the best of them,
    the first in the game's move order among equals; every other one is solved with one
    best move, in this process,
    on a pool of ``workers`` processes or on Ray, as :func:`build` solves its deepest
    ply. The next ply holds every reply to the moves chosen and every move at positions
    of the other player. Run again, it skips what is stored, so an interrupted build
    resumes and a larger ``plies`` extends the lines; the ``lines_<player>`` row of the
    ``meta`` table records the ply reached. Returns a :class:`PlyReport` per ply, the
    first ply first, counting the positions where ``player`` moves. Raises
    :class:`BookError` as :func:`build` does, and for a ``player`` other than 0 or 1.
    Interrupted (``KeyboardInterrupt``), it commits what it has first."""
    from zerosum import kernels  # noqa: PLC0415 - the games load when a book is built
    from zerosum.games import registry  # noqa: PLC0415

    if plies < 0:
        raise BookError(f"lines need 0 plies or more, not {plies}")
    if workers < 1:
        raise BookError(f"a build needs 1 worker or more, not {workers}")
    if player not in {0, 1}:
        raise BookError(f"lines are for player 0 (the first to move) or 1, not {player}")
    game = registry.make(spec)
    key_name, key = _key_function(game)
    where = Path(path)
    job = _Job(spec, kernels.enabled(), choose=True)
    reports: list[PlyReport] = []
    with _writing(_open_for_build(where, spec, game, key_name)) as writer:
        connection = writer.connection
        start = game.initial_state()
        level = {} if game.is_terminal(start) else {key(start): start}
        for number in range(plies + 1):
            positions = sorted(level.items(), key=lambda item: item[0])
            _check_keys(game, positions)
            own = [(k, state) for k, state in positions if game.to_move(state) == player]
            ply = _Ply(number, own, _lines_stored(connection, own), True, progress)
            ply.tell(len(ply.stored))
            added = _choose(
                game,
                key,
                ply,
                writer,
                job=job,
                workers=workers,
                ray_address=ray_address,
                warn=warn if warn is not None else _ignore,
            )
            writer.commit()
            reports.append(PlyReport(number, len(own), added, time.perf_counter() - ply.start))
            chosen = _lines_stored(connection, own)
            level = {}
            for parent, state in positions:
                if parent in chosen:
                    move = _move_to(game, key, state, chosen[parent])
                    if move is None:
                        raise BookError(
                            f"the book's line at {describe_state(game, state)} leads nowhere "
                            "the position's moves reach: it is damaged; build it anew"
                        )
                    moves = [move]
                else:
                    moves = list(game.actions(state))
                for move in moves:
                    child = game.result(state, move)
                    if not game.is_terminal(child):
                        level.setdefault(key(child), child)
        _reach(writer, where, f"lines_{player}", plies)
    return reports


def _lines_stored(connection: sqlite3.Connection, level: list[tuple[int, Any]]) -> dict[int, int]:
    """The chosen children stored for the positions of ``level``, by key."""
    keys = [key for key, _ in level]
    found: dict[int, int] = {}
    for first in range(0, len(keys), 900):  # under SQLite's limit on parameters
        part = keys[first : first + 900]
        rows = connection.execute(
            f"SELECT key, child FROM lines WHERE key IN ({','.join('?' * len(part))})", part
        )
        found.update((int(key), int(child)) for key, child in rows)
    return found


def _choose(
    game: Any,
    key: Callable[[Any], int],
    ply: _Ply,
    writer: _Writer,
    *,
    job: _Job,
    workers: int,
    ray_address: str | None,
    warn: Callable[[str], None],
) -> int:
    """Choose a best move at every position of ``ply`` without one stored: the best of
    its moves when the book scores them all (a full book's plies, or children stored by
    other lines), else by solving it. The count added."""
    writer.commit()
    lookup = functools.partial(_stored_scores, writer.connection)
    done = len(ply.stored)
    missing: list[tuple[int, Any]] = []
    for parent, state in ply.level:
        if parent in ply.stored:
            continue
        scores = _move_scores(game, key, lookup, state)
        if scores is None:
            missing.append((parent, state))
            continue
        move, score = next(iter(scores.items()))
        writer.add([(parent, ply.number, score)])
        writer.add_lines([(parent, key(game.result(state, move)))])
        done += 1
    ply.tell(done)
    for found, solver in _results(_Chunks(missing, game, warn), job, workers, ray_address):
        writer.set_meta("solver", solver)
        writer.add([(parent, ply.number, score) for parent, score, _ in found])
        writer.add_lines([(parent, child) for parent, _, child in found if child is not None])
        done += len(found)
        ply.tell(done)
    return len(ply.level) - len(ply.stored)


def _stored_scores(connection: sqlite3.Connection, keys: Sequence[int]) -> dict[int, int]:
    """The scores stored for ``keys`` (those the book holds)."""
    if not keys:
        return {}
    marks = ",".join("?" * len(keys))
    rows = connection.execute(
        f"SELECT key, score FROM positions WHERE key IN ({marks})", keys
    ).fetchall()
    return {int(key): int(score) for key, score in rows}
