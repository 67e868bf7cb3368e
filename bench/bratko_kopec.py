"""Bratko-Kopec: positions solved by zerosum's engine and by sunfish, side by side.

Run ``bash bench/setup.sh`` once (sunfish from PyPI into bench/.venv), then from the
project root::

    .venv/bin/python bench/bratko_kopec.py                  # 1 s a position, ~1 min
    .venv/bin/python bench/bratko_kopec.py --seconds 1,5,15 # ~17 min
    .venv/bin/python bench/bratko_kopec.py \\
        --zerosum-command "env PYTHONPATH=/tmp/zs-frozen/src .venv/bin/python -m zerosum.cli uci"

The 24 positions of ``../shared/data/chess/bratko-kopec.epd`` are searched through UCI
by both engines, one after the other (the order alternating from position to position,
so that both see the same load on the machine), each search in a new game
(``ucinewgame``) with ``go movetime`` of each ``--seconds``. **A position is solved when
the engine's best move at the end of the search (its ``bestmove``) is one of the
position's ``bm`` moves**; both are read with zerosum's chess notation (UCI and SAN), so
that a move is compared as a move, not as text. The table marks each position solved
(``x``) or not (the move played), and the last line gives the solved counts out of 24.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from chess_speed import BRATKO_KOPEC, EpdCase, add_engine_options, engines, read_epd
from zerosum.games.chess import Chess


def solved(game: Chess, case: EpdCase, played: str) -> bool:
    """Whether the UCI move ``played`` in the case's position is one of its ``bm``."""
    state = game.parse_state(case.fen)
    return game.parse_move(state, played) in {game.parse_move(state, san) for san in case.best}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--seconds", default="1", help="seconds a position, comma-separated (default 1)"
    )
    parser.add_argument("--positions", type=Path, default=BRATKO_KOPEC)
    add_engine_options(parser)
    args = parser.parse_args()
    if not args.positions.exists():
        sys.exit(f"{args.positions} is absent (see ../shared/data/README.md)")
    game = Chess()
    cases = read_epd(args.positions)
    players = engines(args)
    summary = []
    try:
        for seconds in (float(word) for word in args.seconds.split(",")):
            print(f"\n{seconds:g} s a position")
            print(f"{'position':9} {'bm':10} {'zerosum':>8} {'sunfish':>8}")
            count = {player.label: 0 for player in players}
            for number, case in enumerate(cases):
                order = players if number % 2 == 0 else players[::-1]
                moves = {p.label: p.search(case.fen, seconds, None).move for p in order}
                line = f"{case.name:9} {' '.join(case.best):10}"
                for player in players:
                    move = moves[player.label]
                    right = solved(game, case, move)
                    count[player.label] += right
                    line += f" {'x' if right else move:>8}"
                print(line, flush=True)
            summary.append(
                f"{seconds:g} s: zerosum {count['zerosum']}/{len(cases)}, "
                f"sunfish {count['sunfish']}/{len(cases)}"
            )
            print(summary[-1])
    finally:
        for player in players:
            player.close()
    print("\n" + "\n".join(summary))


if __name__ == "__main__":
    main()
