"""Importing the callable a piece of text names: a game factory, an agent factory.

Game specs (``module.path:attribute``), game plugins (entry points) and agent specs
(``package.module.attribute``) all name user code by text. They share this one loader so
that every failure, whatever it is, becomes the caller's own
:class:`~zerosum.game.ZerosumError` naming what was asked for: a module that is not
there, a module that fails while it is imported, an attribute that is missing or not
callable. The command line then prints one line instead of a traceback.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from zerosum.game import ZerosumError

__all__ = ["import_callable"]


def import_callable(
    module_name: str, attribute: str, *, context: str, error: type[ZerosumError]
) -> Callable[..., Any]:
    """Import ``module_name`` and return its callable ``attribute``.

    Raises ``error`` with a message starting with ``context`` (which names the spec)
    when the module cannot be found or fails to import, or the attribute is missing or
    not callable. A failure inside the imported module is chained, so its traceback
    stays available to a debugger."""
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as problem:
        missing = problem.name
        if missing is not None and (module_name + ".").startswith(missing + "."):
            # the module itself, or a package on its path, is not there
            raise error(f"{context}: cannot import {module_name!r} ({problem})") from None
        raise error(
            f"{context}: importing {module_name!r} failed: {type(problem).__name__}: {problem}"
        ) from problem
    except Exception as problem:  # the user's module is broken: say so in one line
        raise error(
            f"{context}: importing {module_name!r} failed: {type(problem).__name__}: {problem}"
        ) from problem
    found = getattr(module, attribute, None)
    if found is None:
        raise error(f"{context}: {module_name!r} has no attribute {attribute!r}")
    if not callable(found):
        raise error(
            f"{context}: {module_name}.{attribute} is a {type(found).__name__}, not a class "
            f"or a function"
        )
    return found  # type: ignore[no-any-return]
