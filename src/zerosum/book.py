"""Opening books: the exact score of every position up to some plies, in an SQLite file.

A book holds, for a game, one row per position reached within its first ``plies`` moves
(the game not over), each with its exact score. Solvers and players read it before
searching: a position whose every move leads into the book (or ends the game) is
answered with no search at all (:meth:`Book.move_scores`).

The file (``sqlite3`` from the standard library) has two tables::

    CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE positions (
        key INTEGER PRIMARY KEY,  -- the game's canonical_key (else key) of the position
        ply INTEGER NOT NULL,     -- the moves played from the start to reach it
        score INTEGER NOT NULL    -- its exact engine score for the side to move
    ) WITHOUT ROWID;

``meta`` holds ``format`` (``zerosum-book``), ``version`` (:data:`SCHEMA_VERSION`; a
reader refuses any other), ``game`` (the spec the book was built for, such as
``connect4`` or ``connect4:width=5,height=4``), ``name`` (:func:`book_name`, which
readers match against their game), ``key`` (``canonical_key`` when positions are stored
once for their mirror images, else ``key``), ``plies`` (every position up to this many
plies is in the book; ``0`` until a first build completes), ``created`` (UTC, ISO 8601)
and ``solver`` (what solved the deepest ply: zerosum's version, and whether the compiled
kernel or the pure-Python path). Scores are engine units
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
same rows as one never interrupted.

:func:`find_book` looks for a game's book where :func:`default_paths` says: the
``ZEROSUM_BOOK`` environment variable (a book file, a folder of books, or ``0`` for
none), then the user data folder (``$XDG_DATA_HOME/zerosum/books``, by default
``~/.local/share/zerosum/books``), then the books shipped in the package
(``zerosum/books``), each file named ``<book_name>.sqlite`` (``connect4-7x6.sqlite``).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from zerosum.game import WIN, WIN_THRESHOLD, ZerosumError, describe_state, quoted

if TYPE_CHECKING:
    from concurrent.futures import Future

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

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS positions ("
    "key INTEGER PRIMARY KEY, ply INTEGER NOT NULL, score INTEGER NOT NULL) WITHOUT ROWID",
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
    missing = [field for field in BookInfo.__slots__ if field not in meta and field != "path"]
    if missing:
        raise BookError(f"{quoted(str(path))} is a damaged book: no {', '.join(missing)}")
    if not meta["plies"].isdigit():
        raise BookError(f"{quoted(str(path))} is a damaged book: plies {meta['plies']!r}")
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
    )


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

    __slots__ = ("_connection", "_key", "_lock", "game", "info")

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
        game = self.game
        if game.is_terminal(state):
            return None
        mover = game.to_move(state)
        children = [(move, game.result(state, move)) for move in game.actions(state)]
        keys = [None if game.is_terminal(c) else self._key(c) for _, c in children]
        found = self._scores([k for k in keys if k is not None])
        scores: dict[Any, int] = {}
        for (move, child), key in zip(children, keys, strict=True):
            if key is None:
                child_score = _terminal_value(game, child)
            elif key in found:
                child_score = found[key]
            else:
                return None
            scores[move] = _backed_up(child_score, game.to_move(child) == mover)
        return dict(sorted(scores.items(), key=lambda item: -item[1]))

    def counts(self) -> dict[int, int]:
        """Return the positions stored at each ply."""
        with self._lock:
            rows = self._connection.execute(
                "SELECT ply, COUNT(*) FROM positions GROUP BY ply ORDER BY ply"
            ).fetchall()
        return {int(ply): int(count) for ply, count in rows}

    def _scores(self, keys: Sequence[int]) -> dict[int, int]:
        """The stored scores of ``keys`` (those it holds)."""
        if not keys:
            return {}
        marks = ",".join("?" * len(keys))
        try:
            with self._lock:
                rows = self._connection.execute(
                    f"SELECT key, score FROM positions WHERE key IN ({marks})",
                    keys,
                ).fetchall()
        except OverflowError:  # keys past 63 bits: no book holds them
            return {}
        except sqlite3.DatabaseError as error:
            raise BookError(
                f"cannot read the book {quoted(str(self.info.path))}: {error}"
            ) from None
        return {int(key): int(score) for key, score in rows}


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

_Scored = tuple[list[tuple[int, int]], float, str]
"""A worker's answer: ``(key, score)`` pairs, the seconds taken and the solver's name."""

_Results = Iterator[tuple[list[tuple[int, int]], str]]
"""The scores of a ply's chunks as they come back, each with the solver's name."""


class _Scorer:
    """The exact score of positions of one game, with one engine (and its table) kept
    for all of them: the compiled kernel's ``value`` when the game has one and kernels
    are on, else :func:`zerosum.search.solve.solve`."""

    __slots__ = ("_engine", "_value", "game", "solver")

    def __init__(self, spec: str) -> None:
        from zerosum.games import registry  # noqa: PLC0415 - the search loads for a build
        from zerosum.search.engine import Engine  # noqa: PLC0415

        self.game = registry.make(spec)
        compiled = getattr(self.game, "compiled_engine", None)
        engine = compiled() if callable(compiled) else None
        # connect four's KernelEngine holds a kernel whose value() runs the whole solve
        self._value: Callable[[Any], int] | None = getattr(
            getattr(engine, "kernel", None), "value", None
        )
        self._engine = engine if engine is not None else Engine(self.game)
        self.solver = _solver_name(self._value is not None)

    def __call__(self, states: _Chunk) -> _Scored:
        """Score ``(key, state)`` pairs."""
        from zerosum.search.solve import solve  # noqa: PLC0415

        start = time.perf_counter()
        value = self._value
        if value is not None:
            found = [(key, value(state)) for key, state in states]
        else:
            engine = self._engine
            found = [
                (key, solve(self.game, state, best_moves=False, engine=engine).score)
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


def _start_worker(spec: str, kernels_on: bool) -> None:
    """Set up a pool worker: kernels as the parent has them, its scorer, and Ctrl-C left
    to the parent, which stops the build after the chunks under way."""
    from zerosum import kernels  # noqa: PLC0415

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    kernels.use_kernels(kernels_on)
    _worker.append(_Scorer(spec))


def _work(states: _Chunk) -> _Scored:
    """A pool worker's task: score a chunk of positions."""
    return _worker[0](states)


class _RayWorker:
    """A Ray actor holding one scorer for every chunk it is given."""

    def __init__(self, spec: str, kernels_on: bool) -> None:
        from zerosum import kernels  # noqa: PLC0415

        kernels.use_kernels(kernels_on)
        self.scorer = _Scorer(spec)

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


def _here(chunks: _Chunks, spec: str) -> _Results:
    """Solve every chunk in this process."""
    scorer = _Scorer(spec)
    while chunks:
        chunk = chunks.next()
        found, seconds, solver = scorer(chunk)
        chunks.done(chunk, seconds)
        yield found, solver


def _pool(chunks: _Chunks, spec: str, kernels_on: bool, workers: int) -> _Results:
    """Solve the chunks on a pool of ``workers`` processes with twice as many chunks in
    flight; when a worker dies, a new pool takes over the chunks the old one left."""
    # a process pool costs an import only a build needs: readers of books skip it
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait  # noqa: PLC0415
    from concurrent.futures.process import BrokenProcessPool  # noqa: PLC0415

    pool: ProcessPoolExecutor | None = None
    running: dict[Future[_Scored], _Chunk] = {}
    try:
        while chunks or running:
            if pool is None:
                pool = ProcessPoolExecutor(
                    max_workers=workers, initializer=_start_worker, initargs=(spec, kernels_on)
                )
            broken = False
            while chunks and len(running) < 2 * workers and not broken:
                chunk = chunks.next()
                try:
                    running[pool.submit(_work, chunk)] = chunk
                except BrokenProcessPool:  # a worker died since the last wait
                    chunks.lost(chunk)
                    broken = True
            finished: set[Future[_Scored]] = set()
            if running and not broken:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                broken = any(isinstance(f.exception(), BrokenProcessPool) for f in finished)
            if broken:
                pool.shutdown(wait=True)  # after which every future it held is settled
                pool = None
                finished = set(running)
            for future in finished:
                chunk = running.pop(future)
                error = future.exception()
                if isinstance(error, BrokenProcessPool):
                    chunks.lost(chunk)
                elif error is not None:
                    raise error
                else:
                    found, seconds, solver = future.result()
                    chunks.done(chunk, seconds)
                    yield found, solver
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _ray(
    chunks: _Chunks, spec: str, kernels_on: bool, workers: int | None, address: str
) -> _Results:
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
        idle = [actor.remote(spec, kernels_on) for _ in range(workers)]
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
                    idle.append(actor.remote(spec, kernels_on))
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

    __slots__ = ("committed", "connection", "pending")

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.pending: list[tuple[int, int, int]] = []
        self.committed = time.perf_counter()

    def add(self, rows: list[tuple[int, int, int]]) -> None:
        """Store rows ``(key, ply, score)``, committing when a second has passed."""
        self.pending.extend(rows)
        if time.perf_counter() - self.committed >= _COMMIT_SECONDS:
            self.commit()

    def commit(self) -> None:
        """Write and commit every row received."""
        if self.pending:
            self.connection.executemany(
                "INSERT OR IGNORE INTO positions (key, ply, score) VALUES (?, ?, ?)",
                self.pending,
            )
            self.pending = []
        self.connection.commit()
        self.committed = time.perf_counter()

    def set_meta(self, name: str, value: str) -> None:
        """Change a ``meta`` row (committed with the next rows)."""
        self.connection.execute("UPDATE meta SET value = ? WHERE name = ?", (value, name))


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
    if any(level and not 0 <= level[-1][0] < 1 << 63 for level in levels):  # sorted by key
        raise BookError(
            f"the positions of {book_name(game)} have keys beyond 63 bits; a book cannot hold them"
        )
    connection = _open_for_build(where, spec, game, key_name)
    writer = _Writer(connection)
    reports: list[PlyReport] = []
    try:
        below: dict[int, int] = {}
        for number in range(plies, -1, -1):
            ply = _Ply(
                number, levels[number], _stored(connection, number), number == plies, progress
            )
            ply.tell(len(ply.stored))
            if ply.solving:
                added = _solve_deepest(
                    game,
                    spec,
                    ply,
                    writer,
                    kernels_on=kernels.enabled(),
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
        previous = int(_read_meta(connection, where)["plies"])
        writer.set_meta("plies", str(max(previous, plies)))
        writer.commit()
    except KeyboardInterrupt:
        writer.commit()  # what the workers sent is exact: keep it for the next run
        raise
    finally:
        connection.close()
    return reports


def _solve_deepest(
    game: Any,
    spec: str,
    ply: _Ply,
    writer: _Writer,
    *,
    kernels_on: bool,
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
    chunks = _Chunks(missing, game, warn)
    if not chunks:
        results: _Results = iter(())
    elif ray_address is not None:
        results = _ray(chunks, spec, kernels_on, workers if workers > 1 else None, ray_address)
    elif workers > 1:
        results = _pool(chunks, spec, kernels_on, workers)
    else:
        results = _here(chunks, spec)
    for found, solver in results:
        writer.set_meta("solver", solver)
        writer.add([(key, ply.number, score) for key, score in found])
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
