"""``zerosum grundy``: the Grundy value of an impartial game, who wins, and every winning move."""

from __future__ import annotations

import argparse
from typing import Any

from zerosum.cli.common import UsageError, make_game, table


def register(commands: Any) -> None:
    """Add the ``grundy`` subcommand."""
    parser = commands.add_parser(
        "grundy",
        help="Sprague-Grundy value of an impartial game, who wins and every winning move",
        description="Examples: zerosum grundy nim 10,12,5 | zerosum grundy subtraction:moves=1,3,4 "
        "100 | zerosum grundy maze maze.txt | zerosum grundy nim:misere=1 1,1,2",
    )
    parser.add_argument("game", help="an impartial game: nim, subtraction, divisor, graph, maze")
    parser.add_argument("setup", nargs="?", help="its main option, e.g. the heaps 10,12,5")
    parser.add_argument("--position", help="a position in the game's notation instead")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Print the value, the winner and the winning moves as a table."""
    from zerosum.games.impartial import report
    from zerosum.notation import parse_state

    game = make_game(args.game, args.setup)
    if not game.info.impartial:
        raise UsageError(f"game {game.info.name!r} is not impartial; try zerosum solve")
    state = parse_state(game, args.position) if args.position else game.initial_state()
    answer = report(game, state)
    print(f"{game.info.title}: {answer.position}")
    if answer.value is not None:
        print(f"Grundy value: {answer.value}")
    print(f"winner with best play: {answer.winner}")
    if answer.winning_moves:
        rows = [(w.text, w.after) for w in answer.winning_moves]
        print(table(rows, ("winning move", "leaves")))
