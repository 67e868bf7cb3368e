"""``zerosum tree``: search an explicit game tree with a textbook algorithm and show it."""

from __future__ import annotations

import argparse
from typing import Any

from zerosum.cli.common import UsageError, count, table
from zerosum.search.reference import ALGORITHMS


def register(commands: Any) -> None:
    """Add the ``tree`` subcommand."""
    parser = commands.add_parser(
        "tree", help="search an explicit game tree with a textbook algorithm"
    )
    parser.add_argument("file", nargs="?", help="a JSON tree file")
    parser.add_argument("--example", help="a named example tree, e.g. night-market")
    parser.add_argument("--algorithm", choices=tuple(ALGORITHMS), default="alphabeta")
    parser.add_argument("--depth", type=count, help="depth limit (inner nodes need estimates)")
    parser.add_argument("--trace", action="store_true", help="print the recorded search")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Search the tree, print its value, best line and counts, and the trace if asked."""
    from zerosum.games import tree
    from zerosum.search import reference, trace

    if (args.file is None) == (args.example is None):
        raise UsageError("give a tree FILE or --example NAME (one of them)")
    game = tree.example(args.example) if args.example else tree.load_tree(args.file)
    start = game.initial_state()
    record = trace.record(game, start, args.algorithm, args.depth)
    plain = reference.minimax(game, start, args.depth).stats
    stats = record.stats
    pruned = "?" if stats.pruned is None else stats.pruned
    print(f"{game.info.title}: value {record.root_value} for {game.info.players[0]} (the root)")
    print(f"best line: {' > '.join(record.best_line) or '(the root is a leaf)'}")
    print(
        table(
            [
                (args.algorithm, stats.nodes, stats.leaves, stats.cutoffs, pruned),
                ("minimax", plain.nodes, plain.leaves, plain.cutoffs, 0),
            ],
            ("algorithm", "nodes", "leaves", "cut-offs", "pruned nodes"),
        )
    )
    if args.trace:
        print()
        print(trace.render(record))
