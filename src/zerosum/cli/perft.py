"""``zerosum perft``: count the move paths of a given length, to check move generation
against published counts; ``--divide`` splits the count by the first move."""

from __future__ import annotations

import argparse
import time
from typing import Any

from zerosum.cli.common import count, make_game, table


def register(commands: Any) -> None:
    """Add the ``perft`` subcommand."""
    parser = commands.add_parser(
        "perft",
        help="count the move paths of a given length (checks move generation)",
        description="Examples: zerosum perft chess 4 | zerosum perft chess 3 --divide "
        "--position '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1' | zerosum perft tictactoe 9",
    )
    parser.add_argument("game", help="a game spec, e.g. chess or connect4:width=5")
    parser.add_argument("depth", type=count, help="the number of plies")
    parser.add_argument("--position", help="start from a position in the game's notation")
    parser.add_argument(
        "--divide", action="store_true", help="also count the paths after each first move"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Print the count (and each first move's share), the time and the paths a second."""
    from zerosum.cli.common import UsageError
    from zerosum.notation import move_formatter, parse_state
    from zerosum.search.perft import divide, perft

    game = make_game(args.game)
    state = parse_state(game, args.position) if args.position else game.initial_state()
    started = time.perf_counter()
    if args.divide:
        if args.depth < 1:
            raise UsageError("--divide needs a depth of 1 or more plies")
        shares = divide(game, state, args.depth)
        label = move_formatter(game)
        print(table([(label(state, move), f"{n:,}") for move, n in shares], ("move", "paths")))
        total = sum(n for _, n in shares)
    else:
        total = perft(game, state, args.depth)
    elapsed = time.perf_counter() - started
    rate = f", {total / elapsed:,.0f} paths/s" if elapsed > 0 else ""
    print(f"perft {args.depth}: {total:,}  ({elapsed:.3f} s{rate})")
