"""What every command shares: the one-line-error parser and plain text tables."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from zerosum.game import ZerosumError

__all__ = [
    "EXIT_USAGE",
    "Parser",
    "UsageError",
    "count",
    "import_from_here",
    "make_game",
    "table",
]

EXIT_USAGE = 2
"""The exit status of every usage or input error."""


class UsageError(ZerosumError):
    """A command-line argument is wrong in a way argparse cannot see."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like every other error here."""

    def error(self, message: str) -> NoReturn:
        """Print ``message`` on one line and exit with status 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see --help)\n")


def count(text: str) -> int:
    """Read a non-negative integer argument (a depth, a number of games); argparse type."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is negative; give 0 or more")
    return value


def table(rows: Sequence[Sequence[object]], header: Sequence[str]) -> str:
    """Format ``rows`` as a plain, aligned text table under ``header``."""
    cells = [[str(c) for c in header], *([str(c) for c in row] for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


def make_game(spec: str, argument: str | None = None) -> Any:
    """Make the game ``spec`` names; a bare ``argument`` sets the game's main option.

    ``make_game("stones-vii", "5,3,1,4,2")`` is ``make("stones-vii", values="5,3,1,4,2")``;
    the argument is read as a spec's option is (``7`` is a number). For a game from
    outside zerosum (installed, or named ``module.path:attribute``) the main option is
    its factory's first. A game without a main option refuses the argument with a
    one-line error."""
    from zerosum.games import registry

    if argument is None:
        return registry.make(spec)
    name, _ = registry.parse_spec(spec)
    option = registry.resolve(name).argument
    if option is None:
        raise UsageError(
            f"game {name!r} takes no bare argument {argument!r}; give options as {name}:key=value"
        )
    options: dict[str, Any] = {option: registry.option_value(argument)}
    return registry.make(spec, **options)


def import_from_here() -> None:
    """Make modules in the current directory importable, as ``python -m`` does, so that
    ``zerosum play mygame:MyGame`` finds ``./mygame.py``.

    The directory goes at the end of the search path, not the front: a file that
    happens to share a name with an installed module (``random.py``) must not replace
    it inside zerosum."""
    here = os.getcwd()
    if all(os.path.abspath(path or os.curdir) != here for path in sys.path):
        sys.path.append(here)


def progress_bar(*, transient: bool = False) -> Any:
    """A rich progress bar on stderr: each task's description, its bar, done of total,
    the time elapsed and the estimated time left (rich loads only here, when a long
    command draws its bar on a terminal). ``transient`` clears it when it ends."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=transient,
    )
