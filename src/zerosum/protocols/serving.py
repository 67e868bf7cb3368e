"""What zerosum's engines on standard streams share when they search beside their input
loop (UCI, NBoard): whole lines written by the loop and the search thread alike, and one
search at a time in a thread, stopped by the signal the engine polls."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TextIO, TypeVar

__all__ = ["Lines", "SearchSlot", "Searching"]


class Lines:
    """Writes whole lines to ``output``, each flushed at once and never interleaved with
    another: the protocol loop and the search thread both write. A line's own line breaks
    become spaces; with ``ascii_only`` other characters are escaped (``\\u4e00``), for
    protocols whose GUIs read ASCII."""

    def __init__(self, output: TextIO, *, ascii_only: bool = False) -> None:
        self._out = output
        self._ascii = ascii_only
        self._lock = threading.Lock()

    def say(self, line: str) -> None:
        """Write ``line`` and a newline, then flush."""
        flat = " ".join(line.splitlines())
        if self._ascii:
            flat = flat.encode("ascii", "backslashreplace").decode("ascii")
        with self._lock:
            self._out.write(flat + "\n")
            self._out.flush()


class Searching:
    """One search running in a thread: the stop signal the engine polls
    (:class:`~zerosum.search.engine.StopSignal`) and the thread. Protocols with more to
    stop on (a deadline) extend :meth:`is_set`."""

    def __init__(self) -> None:
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None

    def is_set(self) -> bool:
        """Tell whether the search should stop now."""
        return self.stopped.is_set()

    def stop(self) -> None:
        """Ask the search to stop."""
        self.stopped.set()


_S = TypeVar("_S", bound=Searching)


class SearchSlot(Generic[_S]):
    """The one search that may run beside a protocol loop (``current``)."""

    def __init__(self) -> None:
        self.current: _S | None = None

    def start(self, search: _S, work: Callable[..., None], *args: Any, name: str) -> None:
        """Wait for the running search to end, then run ``work(search, *args)`` in a
        daemon thread named ``name`` as the current search."""
        self.finish()
        search.thread = threading.Thread(target=work, args=(search, *args), name=name, daemon=True)
        self.current = search
        search.thread.start()

    def stop(self, *, wait: bool) -> None:
        """Stop the current search; with ``wait``, wait for it to end."""
        if self.current is not None:
            self.current.stop()
            if wait:
                self.finish()

    def finish(self) -> None:
        """Wait for the current search to end of itself; there is none after."""
        search = self.current
        if search is not None and search.thread is not None:
            search.thread.join()
        self.current = None
