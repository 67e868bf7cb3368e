"""Xiangqi strength: zerosum's UCI engine against Fairy-Stockfish's ``Skill Level`` steps.

Run from the project root (Debian's ``fairy-stockfish``: ``apt-get install
fairy-stockfish``)::

    .venv/bin/python bench/xiangqi_strength.py                       # levels 0,3,5,8
    .venv/bin/python bench/xiangqi_strength.py --levels 0,5 --games 20 --tc 10+0.1
    .venv/bin/python bench/xiangqi_strength.py --zerosum-command \\
        "env PYTHONPATH=/tmp/zs-frozen/src .venv/bin/python -m zerosum.cli uci --game xiangqi"

Every match is ``zerosum match xiangqi`` between two UCI agents, the arena's
:class:`~zerosum.protocols.uci.UciAgent`: zerosum's ``zerosum uci --game xiangqi`` (its
moves in ICCS coordinates, ranks 0-9) against Debian's Fairy-Stockfish 11.1 with
``UCI_Variant=xiangqi`` (ranks 1-10, which the agent reads as such), ``Threads=1``,
``Hash=16`` and ``Skill Level`` set to each of ``--levels`` (Fairy-Stockfish accepts -20
to 20; 20 is full strength). Both sides get the same clock (``--tc``, 10+0.1 s) and the
same openings: balanced random openings of ``--plies`` plies (6), the ones a short
search scores near even, each played with both colours. One game at a time, so that the
side not to move is idle. A game both engines score lost by 1000 centipawns or more for
3 moves is adjudicated; the others end by the rules (perpetual check loses, repetitions
and 60 moves without a capture draw).

For each level it prints the arena's table, the score with the Elo difference and its
95% interval, how the games ended and each side's mean time a move, and writes the
games to ``DIR/fairy-L.jsonl`` (``--out``, default ``bench/results/xiangqi-strength``;
``--resume`` grows a match in parts). At the end: every level's line and the highest
level zerosum scored 50% or more against.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common import ROOT, counts, describe, endings, match_command, mean_move_times, run_match

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"  # Debian's path, not on PATH
LEVELS = (0, 3, 5, 8)
"""``Skill Level`` steps: Fairy-Stockfish 11.1 accepts -20 to 20."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--levels", default=",".join(map(str, LEVELS)), help="%(default)s")
    parser.add_argument("--games", type=int, default=20, help="games a level (default 20)")
    parser.add_argument("--tc", default="10+0.1", help="each side's clock (default 10+0.1)")
    parser.add_argument("--plies", type=int, default=6, help="plies of each random opening")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="games at once (default 1)")
    parser.add_argument(
        "--zerosum-command", default=f"{sys.executable} -m zerosum.cli uci --game xiangqi"
    )
    parser.add_argument("--fairy-command", default=FAIRY_STOCKFISH)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "xiangqi-strength")
    parser.add_argument("--resume", action="store_true", help="continue the record files")
    args = parser.parse_args()
    if not Path(args.fairy_command.split()[0]).exists():
        sys.exit(f"no {args.fairy_command}: apt-get install fairy-stockfish")
    args.out.mkdir(parents=True, exist_ok=True)
    summary = []
    best = None
    for level in (int(step) for step in args.levels.split(",")):
        output = args.out / f"fairy{level}.jsonl"
        opponent = (
            f"uci:{args.fairy_command},UCI_Variant=xiangqi,Threads=1,Hash=16,"
            f"Skill Level={level},name=fairy{level}"
        )
        command = match_command(
            "xiangqi",
            f"uci:{args.zerosum_command},name=zerosum",
            opponent,
            *("--games", str(args.games), "--workers", str(args.workers), "--tc", args.tc),
            *("--balanced-openings", str(args.plies), "--seed", str(args.seed)),
            *("--resign-score", "1000", "--resign-moves", "3"),
        )
        run_match(command, output, args.resume)
        wins, draws, losses = counts(output)
        ours, theirs = mean_move_times(output)
        line = f"zerosum - fairy-stockfish Skill Level {level}: {describe(wins, draws, losses)}"
        summary.append(line)
        print(line)
        print(
            f"ends: {endings(output)}; mean time a move: zerosum {ours:.3f} s, fairy {theirs:.3f} s"
        )
        if wins + draws / 2 >= (wins + draws + losses) / 2:
            best = level
    print("\n" + "\n".join(summary))
    if best is None:
        print("zerosum scored under 50% against every level played")
    else:
        print(f"the highest level zerosum scored 50% or more against: Skill Level {best}")


if __name__ == "__main__":
    main()
