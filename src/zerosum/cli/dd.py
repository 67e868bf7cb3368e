"""``zerosum dd``: the double-dummy table of a bridge deal, the tricks each declarer
takes in each strain with best play, as Bo Haglund's DDS prints it (its ``TABLE`` line
too), solved by :func:`zerosum.games.bridge.solver.dd_table`.

The deal is PBN (``N:QJ6.K652.J85.T98 873.J97.AT764.Q4 ...``), four hands of the same
size: a whole deal of 13 cards a hand takes the pure-Python solver many minutes a strain,
an ending of a few cards a hand a moment (``--strain`` solves one strain only)."""

from __future__ import annotations

import argparse
import time
from typing import Any

from zerosum.cli.common import table


def register(commands: Any) -> None:
    """Add the ``dd`` subcommand."""
    parser = commands.add_parser(
        "dd",
        help="double-dummy table of a bridge deal: each declarer's tricks in each strain",
        description="Examples: zerosum dd 'N:AK.Q.. Q2.A.. J3.K.. T9.J..' | "
        "zerosum dd 'N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 "
        "AT942.AQ4.32.KJ3' --strain N",
    )
    parser.add_argument("deal", help="a PBN deal: N: then the four hands clockwise")
    parser.add_argument("--strain", help="solve this strain only: S, H, D, C or N")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Solve the deal's table and print it, with DDS's TABLE line and the time."""
    from zerosum.cli.common import UsageError
    from zerosum.games.bridge.notation import STRAIN_NAMES, format_deal, parse_deal, parse_strain
    from zerosum.games.bridge.solver import dd_table

    hands = parse_deal(args.deal)
    strains = range(5)
    if args.strain is not None:
        strain = parse_strain(args.strain)
        if strain is None:
            raise UsageError(f"--strain {args.strain!r} is not a strain: use S, H, D, C or N")
        strains = range(strain, strain + 1)
    if not hands[0]:
        raise UsageError(f"nothing to solve: the deal {args.deal!r} holds no card")
    started = time.perf_counter()
    found = dd_table(hands, strains=strains)
    elapsed = time.perf_counter() - started
    size = hands[0].bit_count()
    print(f"{format_deal(hands)}: {size} cards a hand, tricks for each declarer")
    rows = [(STRAIN_NAMES[s], *row) for s, row in zip(strains, found, strict=True)]
    print(table(rows, ("strain", "north", "east", "south", "west")))
    if len(strains) == 5:
        print("TABLE " + " ".join(str(tricks) for row in found for tricks in row))
    print(f"time: {elapsed:.3f} s")
