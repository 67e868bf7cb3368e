"""Compiled kernels: a game's hot work compiled with numba, when the ``fast`` extra is in.

A game may keep its hot work (connect four's solver first) in a kernel module written
for numba. The pure-Python path stays the reference and the default fallback:

* the kernels run only where :func:`enabled` says so: numba is installed (``pip install
  zerosum[fast]``), the environment variable ``ZEROSUM_KERNELS`` is not ``0``, and no
  program switched them off with :func:`use_kernels` (the API flag, which wins over the
  environment). Off, everything runs as without numba;
* numba is imported only when a kernel is first used: :func:`load` imports the kernel
  module then, never when the game is imported, so a program that never solves starts
  as fast as before;
* :func:`jit` compiles with ``cache=True`` into a user cache folder
  (:func:`cache_folder`), so the second run of a program loads machine code instead of
  compiling it again. numba keys its cache by CPU as well as by source, so a folder
  shared by machines of different CPUs holds one entry per CPU. When no folder is
  writable the kernels still run, compiled afresh by each process;
* kernels keep their own stack rather than calling themselves: numba cannot load a
  self-recursive function back from its cache (numba issue 6061);
* a game's compiled engine (``Game.compiled_engine()``) derives from
  :class:`CompiledEngine`, which makes the kernel object on first use and empties its
  tables with the engine's.

A kernel module that fails to import (a numba too old, a platform numba does not
support) is reported once as a :class:`RuntimeWarning`, and the game falls back to its
pure path.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, Generic, Protocol, TypeVar

from zerosum.search.engine import Engine, EngineOptions

__all__ = [
    "ENVIRONMENT_VARIABLE",
    "CompiledEngine",
    "available",
    "cache_folder",
    "enabled",
    "jit",
    "load",
    "use_kernels",
]

ENVIRONMENT_VARIABLE = "ZEROSUM_KERNELS"
"""Set to ``0`` to force the pure-Python path everywhere."""

_Function = TypeVar("_Function", bound=Callable[..., Any])


class _Kernel(Protocol):
    """What an engine needs of its kernel object: a way to forget what it learnt."""

    def clear(self) -> None:
        """Empty the kernel's tables."""


_KernelT = TypeVar("_KernelT", bound=_Kernel)

_switch: bool | None = None
"""The API flag: ``None`` defers to the environment."""

_failed: set[str] = set()
"""Kernel modules that failed to import; they are not tried again."""

_cache: list[Path | None] = []
"""The cache folder, once decided (a list so that ``None`` can be remembered)."""


def available() -> bool:
    """Tell whether numba is installed, without importing it."""
    return importlib.util.find_spec("numba") is not None


def use_kernels(on: bool | None) -> None:
    """Switch the compiled kernels on or off for this process; ``None`` returns the
    choice to the ``ZEROSUM_KERNELS`` environment variable.

    Engines and games made afterwards follow it; one already holding a kernel keeps it."""
    global _switch  # noqa: PLW0603 - one process-wide switch is the point
    _switch = on


def enabled() -> bool:
    """Tell whether kernels may run: numba installed and neither the API flag nor the
    environment variable switched them off."""
    if _switch is not None:
        wanted = _switch
    else:
        wanted = os.environ.get(ENVIRONMENT_VARIABLE, "1").strip() != "0"
    return wanted and available()


def load(name: str) -> ModuleType | None:
    """Import the kernel module ``name`` when kernels are enabled; ``None`` otherwise.

    This is the one place numba gets imported. A module that fails to import is reported
    once as a :class:`RuntimeWarning` and not tried again in this process."""
    if not enabled() or name in _failed:
        return None
    try:
        return importlib.import_module(name)
    except Exception as error:  # any failure means the pure path
        _failed.add(name)
        warnings.warn(
            f"compiled kernel {name} unavailable ({error}); using the pure-Python path",
            RuntimeWarning,
            stacklevel=2,
        )
        return None


def cache_folder() -> Path | None:
    """Return the folder numba caches compiled kernels in, or ``None`` if none is writable.

    ``NUMBA_CACHE_DIR`` when the user set it, else ``zerosum/numba`` in the user cache
    folder (``XDG_CACHE_HOME``, by default ``~/.cache``). Decided once per process; the
    folder is made if missing and tried with a scratch file, and ``NUMBA_CACHE_DIR`` is
    set to it for the process (numba keeps one cache folder per process)."""
    if _cache:
        return _cache[0]
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        folder = Path(given)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
        folder = Path(base) / "zerosum" / "numba"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError:
        _cache.append(None)
        return None
    os.environ["NUMBA_CACHE_DIR"] = str(folder)  # read by numba when it is imported
    _cache.append(folder)
    return folder


def jit(function: _Function) -> _Function:
    """Compile ``function`` with numba in nopython mode, cached on disk when a cache folder
    is writable (:func:`cache_folder`). Compilation happens at the first call.

    Only kernel modules call this, when :func:`load` imports them."""
    folder = cache_folder()
    import numba  # noqa: PLC0415 - numba is imported only when a kernel is first used

    if folder is not None:
        # numba read its configuration when first imported, perhaps before the folder
        # was decided; its cache locators read this value at compile time
        numba.config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]
    compiled: _Function = numba.njit(cache=folder is not None, nogil=True)(function)  # type: ignore[assignment]
    return compiled


class CompiledEngine(Engine, Generic[_KernelT]):
    """The shared part of a game's compiled engine (connect four's, othello's and
    gomoku's ``KernelEngine``): an :class:`~zerosum.search.engine.Engine` whose searches
    run in a kernel object (its compiled code and its tables), made the first time
    :attr:`kernel` is asked for, so that an engine that never searches in it (a
    depth-limited search left to the pure engine, a program that only plays from a
    book) never pays for its tables. :meth:`reset` empties the kernel's tables with the
    engine's. A game's engine makes its kernel in :meth:`make_kernel` and overrides the
    searches."""

    __slots__ = ("_kernel",)

    def __init__(self, game: Any, options: EngineOptions | None = None) -> None:
        super().__init__(game, options)
        self._kernel: _KernelT | None = None

    def make_kernel(self) -> _KernelT:
        """Return a new kernel object for this engine's game and settings."""
        raise NotImplementedError

    @property
    def kernel(self) -> _KernelT:
        """The compiled search and its tables, made the first time it is asked for."""
        if self._kernel is None:
            self._kernel = self.make_kernel()
        return self._kernel

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game.info.name!r}, {self.options!r})"

    def reset(self) -> None:
        """Forget everything learnt: empty the engine's tables and the kernel's."""
        super().reset()
        if self._kernel is not None:
            self._kernel.clear()
