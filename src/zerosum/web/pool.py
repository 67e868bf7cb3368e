"""The engine off the event loop: a pool of workers that search and report per depth.

The engine is pure Python, so a search holds the GIL while it runs. In a process pool
(the default) searches run beside the server, which keeps answering at full speed; in
a thread pool the server still answers, only slower while a search runs
(``bench/web_load.py`` measures both). Either way the work is the same function,
:func:`run_search`, and it talks back the same way:

* every completed depth is put on a *sink* queue as ``(slot, "report", data)`` and the
  end as ``(slot, "done", data)`` or ``(slot, "error", message)``. One queue carries both,
  so the end can never overtake the last report;
* a search is stopped through a flag per *slot*, a byte in memory the workers share (the
  engine polls it every few hundred nodes). A slot belongs to one search from submission
  until its end message arrives, so a stale message cannot reach the next search to use
  the slot.

Worker processes get the queue and the flags when they start (multiprocessing shares
them only that way); every worker keeps a few engines, one per game, whose
transposition tables carry over from move to move and from game to game.

A search is handed to a worker only when one is free, so every search submitted runs
at once; the others wait in the pool's own line, at most ``queue`` of them (twice the
workers by default). A search submitted when the line is full is refused with
:class:`QueueFullError`, which says when a place should free up. A waiting search is
told its place in line (a ``queued`` message) when it joins and whenever it moves up,
then ``started`` when its turn comes; a waiting search that is stopped leaves the line
at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import queue as _queue_module
import threading
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from functools import partial
from typing import Any, Final, TypeVar

from zerosum.game import describe_depth, describe_score
from zerosum.games import registry
from zerosum.notation import move_formatter
from zerosum.search.engine import Engine, Limits, Report
from zerosum.web.sessions import Recipe, RetryLaterError, make_game

__all__ = [
    "POOL_KINDS",
    "QueueFullError",
    "Search",
    "SearchPool",
    "report_data",
    "run_search",
]

T = TypeVar("T")

POOL_KINDS: Final = ("process", "thread")
"""The kinds of worker pool: separate processes (the default) or threads."""

_ENGINES_PER_WORKER: Final = 8
"""Engines a worker keeps (one per game spec), the least recently used dropped first."""

_TERMINAL: Final = frozenset({"done", "error"})

_NO_MOVE: Final = {"move": None, "text": None, "report": None}
"""The end of a search that never ran: it left the line before a worker was free."""


class QueueFullError(RetryLaterError):
    """Every worker is busy and the line of waiting searches is full (the app answers
    503 with ``retry_after``)."""


# What each worker needs, by pool: a worker process serves one pool, but threads of
# several pools (several apps in one test process) share these module globals.
_WORKER_CHANNELS: dict[str, tuple[Sequence[Any], Any]] = {}
_local = threading.local()


def _start_worker(
    pool_id: str, stops: Sequence[Any], sink: Any, games: Sequence[tuple[str, str]]
) -> None:
    """Initialise a worker: remember the pool's stop flags and report queue, and register
    the ``(target, name)`` games the server added to the registry (a worker process
    starts afresh; a worker thread shares the server's registry)."""
    _WORKER_CHANNELS[pool_id] = (stops, sink)
    known = set(registry.names())
    for target, name in games:
        if name not in known:
            registry.register(target, name)


class _Flag:
    """One slot's stop flag, offering the ``is_set()`` the engine polls."""

    __slots__ = ("flags", "slot")

    def __init__(self, flags: Any, slot: int) -> None:
        self.flags = flags
        self.slot = slot

    def is_set(self) -> bool:
        """Tell whether the search in this slot should stop."""
        return bool(self.flags[self.slot])


def _warm() -> None:
    """Do nothing: submitted once per worker at start so the first search finds it up."""


def _engine(recipe: Recipe) -> Engine:
    """Return this worker's engine for ``recipe`` (engines are not shared across threads)."""
    engines: OrderedDict[str, Engine] | None = getattr(_local, "engines", None)
    if engines is None:
        engines = _local.engines = OrderedDict()
    key = recipe.key
    engine = engines.get(key)
    if engine is None:
        engine = engines[key] = Engine(make_game(recipe))
        while len(engines) > _ENGINES_PER_WORKER:
            engines.popitem(last=False)
    engines.move_to_end(key)
    return engine


def report_data(game: Any, state: Any, report: Report) -> dict[str, Any]:
    """Turn one engine report into JSON-ready data, the principal variation as text and
    the score and depth in the words every interface uses (``score_text``,
    ``depth_text``): never a raw win score or an unbounded depth."""
    label = move_formatter(game)
    line = []
    for move in report.pv:
        line.append(label(state, move))
        state = game.result(state, move)
    return {
        "depth": report.depth,
        "score": report.score,
        "score_text": describe_score(game.info, report.score, exact=report.solved),
        "depth_text": describe_depth(report.depth),
        "pv": line,
        "nodes": report.nodes,
        "nps": report.nps,
        "elapsed": round(report.elapsed, 4),
        "solved": report.solved,
    }


def run_search(
    pool_id: str, slot: int, recipe: Recipe, state: Any, seconds: float, *, depth: int | None = None
) -> None:
    """Search ``state`` of the game of ``recipe`` for at most ``seconds`` (and at most
    ``depth`` plies, if given), in a worker.

    Reports go to the pool's queue tagged with ``slot``; the last message says ``done``
    with the best move (the move itself, to be applied by the caller, and its text) or
    ``error``. If no depth completed in time the first move in search order stands in."""
    flags, sink = _WORKER_CHANNELS[pool_id]
    stop = _Flag(flags, slot)
    try:
        engine = _engine(recipe)
        game = engine.game
        last: dict[str, Any] | None = None
        best: Any = None
        if not stop.is_set():
            limits = Limits(depth=depth, time=seconds, stop=stop)
            for report in engine.iterate(state, limits):
                last = report_data(game, state, report)
                best = report.best_move
                sink.put((slot, "report", last))
        if last is None:
            moves = engine.root_moves(state)
            best = moves[0] if moves else None
        text = None if best is None else move_formatter(game)(state, best)
        sink.put((slot, "done", {"move": best, "text": text, "report": last}))
    except Exception as error:  # the worker must always send the end of the search
        sink.put((slot, "error", f"the engine failed: {type(error).__name__}: {error}"))


class Search:
    """A search submitted to the pool: iterate over :meth:`messages`, :meth:`stop` it.

    ``slot`` is ``None`` while the search waits in line for a worker."""

    def __init__(
        self,
        pool: SearchPool,
        recipe: Recipe,
        state: Any,
        seconds: float,
        depth: int | None = None,
    ) -> None:
        self._pool = pool
        self.recipe = recipe
        self.state = state
        self.seconds = seconds
        self.depth = depth
        self.slot: int | None = None
        self.started: float | None = None
        self.waited = False
        self.queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.finished = False

    def stop(self) -> None:
        """Ask the search to end now; it still ends with a ``done`` message. A search
        still waiting for a worker leaves the line at once, without a move."""
        if self.finished:
            return
        if self.slot is None:
            self._pool.withdraw(self)
        else:
            self._pool.stops[self.slot] = 1

    async def messages(self) -> AsyncIterator[tuple[str, Any]]:
        """Yield ``("queued", {"position": n})`` while waiting in line (1: next to run)
        and ``("started", {})`` when a search that waited gets its worker,
        ``("report", data)`` per depth, then ``("done", data)`` or ``("error", message)``,
        then stop."""
        while True:
            kind, payload = await self.queue.get()
            yield kind, payload
            if kind in _TERMINAL:
                return


class SearchPool:
    """A pool of ``workers`` processes or threads (``kind``) running engine searches,
    with a line of at most ``queue`` searches waiting for a worker (default: twice the
    workers).

    Use it from one event loop: :meth:`start` there, then :meth:`submit` searches,
    :meth:`call` other CPU-bound functions, and :meth:`close` at the end."""

    _ids = itertools.count()

    def __init__(self, workers: int = 1, kind: str = "process", queue: int | None = None) -> None:
        if kind not in POOL_KINDS:
            raise ValueError(f"pool kind must be one of {', '.join(POOL_KINDS)}, not {kind!r}")
        waiting = 2 * workers if queue is None else queue
        if workers < 1 or waiting < 0:
            raise ValueError(
                f"a pool needs 1 worker or more and a line of 0 or more, not {workers}, {waiting}"
            )
        self.workers = workers
        self.queue_limit = waiting
        self.kind = kind
        self.pool_id = f"pool-{next(self._ids)}"
        self._context = multiprocessing.get_context("spawn")
        self.stops: Any
        self._sink: Any
        # one slot per worker: a search holds its slot from submission to its end message
        if kind == "process":
            self.stops = self._context.RawArray("b", workers)  # shared memory, no locks
            self._sink = self._context.Queue()
        else:
            self.stops = bytearray(workers)
            self._sink = _queue_module.Queue()
        self._executor = self._new_executor()
        self._free: list[int] = list(range(workers))
        self._active: dict[int, Search] = {}
        self._waiting: deque[Search] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._reader: threading.Thread | None = None

    def _new_executor(self) -> Executor:
        games = tuple((item.target, item.name) for item in registry.registered())
        arguments = (self.pool_id, self.stops, self._sink, games)
        if self.kind == "process":
            return ProcessPoolExecutor(
                self.workers,
                mp_context=self._context,
                initializer=_start_worker,
                initargs=arguments,
            )
        return ThreadPoolExecutor(
            self.workers,
            thread_name_prefix="zerosum-search",
            initializer=_start_worker,
            initargs=arguments,
        )

    async def start(self) -> None:
        """Bind to the running loop, start reading reports and bring the workers up."""
        self._loop = asyncio.get_running_loop()
        self._reader = threading.Thread(target=self._read, name="zerosum-reports", daemon=True)
        self._reader.start()
        await asyncio.gather(*(self.call(_warm) for _ in range(self.workers)))

    async def close(self) -> None:
        """Stop every search, shut the workers down and stop reading."""
        while self._waiting:
            self.withdraw(self._waiting[0])
        for slot in range(len(self.stops)):
            self.stops[slot] = 1
        executor = self._executor
        await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
        self._sink.put(None)
        if self._reader is not None:
            await asyncio.to_thread(self._reader.join)

    @property
    def busy(self) -> int:
        """The number of searches running in a worker (a stopped one until it ends)."""
        return len(self._active)

    @property
    def queued(self) -> int:
        """The number of searches waiting in line for a worker."""
        return len(self._waiting)

    def _read(self) -> None:
        loop = self._loop
        assert loop is not None  # start() binds the loop before the reader runs
        while True:
            message = self._sink.get()
            if message is None:
                return
            try:
                loop.call_soon_threadsafe(self._dispatch, message)
            except RuntimeError:  # the loop closed under us: nobody is listening
                return

    def _dispatch(self, message: tuple[int, str, Any]) -> None:
        slot, kind, payload = message
        search = self._active.get(slot)
        if search is None:
            return
        if kind in _TERMINAL:
            del self._active[slot]
            search.finished = True
            self._free.append(slot)
        search.queue.put_nowait((kind, payload))
        if kind in _TERMINAL:
            self._advance()

    def submit(
        self, recipe: Recipe, state: Any, seconds: float, depth: int | None = None
    ) -> Search:
        """Search ``state`` of the game of ``recipe`` for at most ``seconds`` (and
        ``depth`` plies, if given): at once if a worker is free, else after the searches
        waiting before it.

        Raises :class:`QueueFullError` when every worker is busy and the line is full."""
        if not self._free and len(self._waiting) >= self.queue_limit:
            raise QueueFullError(
                f"the engine is busy: {self.workers} searches are running and "
                f"{len(self._waiting)} are waiting, the most this server lets wait; "
                f"try again in a few seconds",
                self._next_free_in(),
            )
        search = Search(self, recipe, state, seconds, depth)
        self._waiting.append(search)
        self._advance()
        return search

    def _next_free_in(self) -> float:
        """Seconds until the first running search reaches its time limit."""
        now = time.monotonic()
        ends = [
            search.started + search.seconds - now
            for search in self._active.values()
            if search.started is not None
        ]
        return min(ends, default=1.0)

    def withdraw(self, search: Search) -> None:
        """Take a waiting ``search`` out of the line; it ends with a ``done`` message
        without a move."""
        self._waiting.remove(search)
        search.finished = True
        search.queue.put_nowait(("done", dict(_NO_MOVE)))
        self._announce()

    def _advance(self) -> None:
        """Hand waiting searches to free workers, then tell the rest their places."""
        while self._free and self._waiting:
            self._launch(self._waiting.popleft(), self._free.pop())
        self._announce()

    def _announce(self) -> None:
        for position, search in enumerate(self._waiting, start=1):
            search.waited = True
            search.queue.put_nowait(("queued", {"position": position}))

    def _launch(self, search: Search, slot: int) -> None:
        self.stops[slot] = 0
        search.slot = slot
        search.started = time.monotonic()
        self._active[slot] = search
        if search.waited:
            search.queue.put_nowait(("started", {}))
        try:
            future = self._submit(
                partial(run_search, depth=search.depth),
                self.pool_id,
                slot,
                search.recipe,
                search.state,
                search.seconds,
            )
        except Exception as error:  # the workers cannot be started: end this search
            self._dispatch((slot, "error", f"the engine could not start: {error}"))
            return
        future.add_done_callback(lambda done: self._crashed(slot, done))

    def _crashed(self, slot: int, future: Future[Any]) -> None:
        """Report a search whose worker died (run_search itself never raises)."""
        if future.cancelled():
            error: BaseException | None = RuntimeError("the search was cancelled")
        else:
            error = future.exception()
        if error is None or self._loop is None:
            return
        message = (slot, "error", f"the engine's worker failed: {type(error).__name__}")
        with contextlib.suppress(RuntimeError):  # the loop is gone: the server is closing
            self._loop.call_soon_threadsafe(self._dispatch, message)

    def _submit(self, function: Callable[..., T], *arguments: Any) -> Future[T]:
        try:
            return self._executor.submit(function, *arguments)
        except BrokenExecutor:
            # a worker process died (killed, out of memory): start afresh once
            self._executor = self._new_executor()
            return self._executor.submit(function, *arguments)

    async def call(self, function: Callable[..., T], *arguments: Any) -> T:
        """Run ``function(*arguments)`` in a worker and return its result.

        In a process pool the function and its arguments must be picklable."""
        return await asyncio.wrap_future(self._submit(function, *arguments))
