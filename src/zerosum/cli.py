"""The ``zerosum`` command line: thin commands that parse, call the library and print.

Every bad argument or input prints one line (``zerosum: error: ...``) on standard error
and exits with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from zerosum.game import ZerosumError

__all__ = ["main"]

EXIT_USAGE = 2


class UsageError(ZerosumError):
    """A command-line argument is wrong in a way argparse cannot see."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like every other error here."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see --help)\n")


def _table(rows: Sequence[Sequence[object]], header: Sequence[str]) -> str:
    """Format ``rows`` as a plain, aligned text table under ``header``."""
    cells = [[str(c) for c in header], *([str(c) for c in row] for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


# --------------------------------------------------------------------------- games


def _cmd_games(args: argparse.Namespace) -> None:
    from zerosum.games import registry

    rows = [(e.name, e.summary) for e in registry.ENTRIES]
    print(_table(rows, ("game", "what it is")))


# --------------------------------------------------------------------------- tree


def _cmd_tree(args: argparse.Namespace) -> None:
    from zerosum.games import tree
    from zerosum.search import reference, trace

    if (args.file is None) == (args.example is None):
        raise UsageError("give a tree FILE or --example NAME (one of them)")
    game = tree.example(args.example) if args.example else tree.load_tree(args.file)
    start = game.initial_state()
    record = trace.record(game, start, args.algorithm, args.depth)
    plain = reference.minimax(game, start, args.depth).stats
    stats = record.stats
    print(f"{game.info.title}: value {record.root_value} for {game.info.players[0]} (the root)")
    print(f"best line: {' > '.join(record.best_line) or '(the root is a leaf)'}")
    print(
        _table(
            [
                (args.algorithm, stats.nodes, stats.leaves, stats.cutoffs, stats.pruned),
                ("minimax", plain.nodes, plain.leaves, plain.cutoffs, 0),
            ],
            ("algorithm", "nodes", "leaves", "cut-offs", "pruned nodes"),
        )
    )
    if args.trace:
        print()
        print(trace.render(record))


# --------------------------------------------------------------------------- parser


def _build_parser() -> _Parser:
    from zerosum.search.reference import ALGORITHMS

    parser = _Parser(
        prog="zerosum",
        description="Adversarial search for two-player zero-sum games.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    games = commands.add_parser("games", help="list the built-in games")
    games.set_defaults(run=_cmd_games)

    tree = commands.add_parser(
        "tree", help="search an explicit game tree with a textbook algorithm"
    )
    tree.add_argument("file", nargs="?", help="a JSON tree file")
    tree.add_argument("--example", help="a named example tree, e.g. night-market")
    tree.add_argument("--algorithm", choices=sorted(ALGORITHMS), default="alphabeta")
    tree.add_argument("--depth", type=int, help="depth limit (needs node estimates)")
    tree.add_argument("--trace", action="store_true", help="print the recorded search")
    tree.set_defaults(run=_cmd_tree)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``zerosum`` command with ``argv`` (default: the process arguments)."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], Any] = args.run
    try:
        run(args)
    except (ZerosumError, OSError) as error:
        message = str(error) if not isinstance(error, OSError) else _os_error(error)
        print(f"zerosum: error: {message}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    return 0


def _os_error(error: OSError) -> str:
    where = f": {error.filename}" if error.filename else ""
    return f"{error.strerror or error}{where}"
