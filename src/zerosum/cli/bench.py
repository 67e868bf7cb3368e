"""``zerosum bench``: the engine's signature, total nodes over fixed positions and depths.

Like Stockfish's ``bench``: the node total pins the search's behaviour (a test checks
it), and nodes per second is a rough speed figure for this machine."""

from __future__ import annotations

import argparse
from typing import Any

from zerosum.cli.common import table


def register(commands: Any) -> None:
    """Add the ``bench`` subcommand."""
    parser = commands.add_parser("bench", help="search fixed positions; print the node signature")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Search the signature positions and print one row each, then the totals.

    Scores and depths are written in the one explained form every interface shows
    (:func:`~zerosum.game.describe_score`, :func:`~zerosum.game.describe_depth`): a
    position searched without a depth limit is searched to the end, so its score is
    exact."""
    from zerosum.game import describe_depth, describe_score
    from zerosum.search.table import DEPTH_END
    from zerosum.signature import POSITIONS, run_signature

    rows, total = run_signature()
    print(
        table(
            [
                (
                    r.label,
                    r.position or "start",
                    describe_depth(DEPTH_END if r.depth is None else r.depth),
                    r.move,
                    describe_score(item.make().info, r.score, exact=r.depth is None),
                    f"{r.nodes:,}",
                    f"{r.seconds * 1000:.1f}",
                )
                for item, r in zip(POSITIONS, rows, strict=True)
            ],
            ("game", "position", "depth", "move", "score", "nodes", "ms"),
        )
    )
    seconds = sum(r.seconds for r in rows)
    print(f"Nodes searched: {total}")
    print(f"Nodes/second: {int(total / seconds) if seconds else 0}")
