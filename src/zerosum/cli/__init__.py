"""The ``zerosum`` command line: thin commands that parse, call the library and print.

Each command group lives in its own module here and adds its subcommands through a
``register(commands)`` function listed in :data:`COMMAND_MODULES`; a module is imported
only to build the parser, and its machinery only when its command runs, so
``zerosum --help`` starts fast. Every bad argument or input prints one line
(``zerosum: error: ...``) on standard error and exits with status 2, never a traceback.
``zerosum --version`` prints the installed version. Wherever a command takes a game or
an agent spec it may name code in the current directory (``mygame:MyGame``), which
:func:`main` makes importable.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Any

from zerosum.cli.common import EXIT_USAGE, Parser, import_from_here
from zerosum.game import ZerosumError

__all__ = ["COMMAND_MODULES", "build_parser", "main"]

COMMAND_MODULES = (
    "zerosum.cli.games",
    "zerosum.cli.play",
    "zerosum.cli.tree",
    "zerosum.cli.solve",
    "zerosum.cli.book",
    "zerosum.cli.dd",
    "zerosum.cli.analyse",
    "zerosum.cli.perft",
    "zerosum.cli.grundy",
    "zerosum.cli.match",
    "zerosum.cli.chart",
    "zerosum.cli.pgn",
    "zerosum.cli.bench",
    "zerosum.cli.serve",
    "zerosum.cli.gomocup",
    "zerosum.cli.uci",
    "zerosum.cli.gtp",
    "zerosum.cli.nboard",
)
"""The modules whose ``register`` adds the subcommands, in the order ``--help`` lists them."""


class _Version(argparse.Action):
    """``--version``: print ``zerosum X.Y.Z`` and exit. The version is looked up only
    when asked for, so that building the parser stays cheap."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from importlib.metadata import version

        print(f"zerosum {version('zerosum')}")  # on standard output, as argparse's own
        parser.exit()


def build_parser() -> Parser:
    """Return the parser of the ``zerosum`` command with every subcommand registered."""
    parser = Parser(prog="zerosum", description="Adversarial search for two-player zero-sum games.")
    parser.add_argument("--version", action=_Version)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``zerosum`` command with ``argv`` (default: the process arguments)."""
    args = build_parser().parse_args(argv)
    import_from_here()
    run: Callable[[argparse.Namespace], Any] = args.run
    try:
        run(args)
    except ZerosumError as error:
        print(f"zerosum: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        print(f"zerosum: error: {error.strerror or error}{where}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    return 0
