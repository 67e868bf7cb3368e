"""A process pool that outlives its dying workers, for the arena's games and the book's
builds.

A :class:`~concurrent.futures.ProcessPoolExecutor` whose worker dies (killed, out of
memory, a crash in compiled code) is broken for good: every task it holds fails with
:class:`~concurrent.futures.process.BrokenProcessPool` and it takes no more.
:class:`SurvivingPool` keeps the tasks it runs, and when that happens it shuts the broken
pool down, tells its caller which tasks were lost and makes a new pool for the next
submission. What to do with a lost task is the caller's policy: the arena plays its games
again one at a time to find the one that kills workers, the book gives its positions to
another worker and gives up after a few deaths.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Any, Generic, TypeVar

__all__ = ["SurvivingPool"]

Task = TypeVar("Task")
Result = TypeVar("Result")


class SurvivingPool(Generic[Task, Result]):
    """Run ``function`` on tasks in ``size`` worker processes (each set up by
    ``initializer(*initargs)``), starting a new pool whenever a worker has died.

    Use it as a context manager: on leaving, the pool is shut down and tasks not started
    are cancelled. :meth:`submit` a task, then :meth:`wait` for at least one to end."""

    __slots__ = ("_function", "_initargs", "_initializer", "_pool", "_running", "size")

    def __init__(
        self,
        size: int,
        function: Callable[[Task], Result],
        initializer: Callable[..., None] | None = None,
        initargs: tuple[Any, ...] = (),
    ) -> None:
        self.size = size
        self._function = function
        self._initializer = initializer
        self._initargs = initargs
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[Future[Result], Task] = {}

    def __enter__(self) -> SurvivingPool[Task, Result]:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    @property
    def running(self) -> int:
        """The tasks submitted and not yet returned by :meth:`wait`."""
        return len(self._running)

    def submit(self, task: Task) -> bool:
        """Start ``task``; ``False`` when the pool broke since the last :meth:`wait`, in
        which case the task was not taken (give it again after the next wait, which
        reports the tasks the broken pool lost)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.size, initializer=self._initializer, initargs=self._initargs
            )
        try:
            future = self._pool.submit(self._function, task)
        except BrokenProcessPool:  # a worker died since the last wait
            self._restart()
            return False
        self._running[future] = task
        return True

    def wait(self) -> tuple[list[tuple[Task, Result]], list[Task]]:
        """Wait until a task ends; return the tasks that ended with their results (in
        the order they were submitted) and the tasks lost to a dying worker. When a
        worker died, every task the pool held is settled before this returns: each comes
        back finished or lost, and the next :meth:`submit` starts a new pool. A task
        that raised raises here."""
        if not self._running:
            return [], []
        finished, _ = wait(self._running, return_when=FIRST_COMPLETED)
        if any(isinstance(future.exception(), BrokenProcessPool) for future in finished):
            self._restart()
            finished = set(self._running)
        ended: list[tuple[Task, Result]] = []
        lost: list[Task] = []
        for future, task in list(self._running.items()):
            if future not in finished:
                continue
            del self._running[future]
            if isinstance(future.exception(), BrokenProcessPool):
                lost.append(task)
            else:
                ended.append((task, future.result()))
        return ended, lost

    def _restart(self) -> None:
        """Shut the broken pool down, after which every future it held is settled; the
        next submission makes a new one."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
