"""Xiangqi search speed: zerosum's engine against Fairy-Stockfish's, nodes per second of
one thread, through UCI.

Run from the project root (Debian's ``fairy-stockfish``: ``apt-get install
fairy-stockfish``)::

    .venv/bin/python bench/xiangqi_speed.py                   # 1 s a position, ~30 s
    .venv/bin/python bench/xiangqi_speed.py --movetime 3
    .venv/bin/python bench/xiangqi_speed.py --depth 4         # fixed depth instead of time

Both engines run as UCI processes, driven the same way (``chess_speed.UciProcess`` and
``compare_speeds``), on the same positions, the thirteen of
``../shared/data/xiangqi/perft_xiangqi.txt``, in the
same run: each position is searched by one engine and then the other, the order
alternating, so that both see the same load (only one searches at a time). Each search
starts a new game (``ucinewgame``) and runs ``go movetime`` (``--movetime``, 1 s) or
``go depth``. Fairy-Stockfish 11.1 runs with ``UCI_Variant=xiangqi``, ``Threads=1`` and
its default 16 MB hash; zerosum is ``zerosum uci --game xiangqi``.

Nodes per second are each engine's own count over its own clock, from its last
``info`` line giving both ``nodes`` and ``time``; the ratio is zerosum's over
Fairy-Stockfish's, per position and over all of them (total nodes over total time).
Both count every node they visit, quiescence included; a node is not the same work in
the two searches (Fairy-Stockfish prunes far more), so the ratio says how fast each
walks its own tree, not which plays better (``bench/xiangqi_strength.py`` does).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from chess_speed import UciProcess, compare_speeds
from xiangqi_perft import read_cases

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"  # Debian's path, not on PATH
ZEROSUM = f"{sys.executable} -m zerosum.cli uci --game xiangqi"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--movetime", type=float, default=1.0, help="seconds a search (1)")
    limit.add_argument("--depth", type=int, help="a fixed depth instead of a time")
    parser.add_argument("--zerosum-command", default=ZEROSUM, help="default: %(default)s")
    parser.add_argument("--fairy-command", default=FAIRY_STOCKFISH, help="default: %(default)s")
    args = parser.parse_args()
    if not Path(args.fairy_command.split()[0]).exists():
        sys.exit(f"no {args.fairy_command}: apt-get install fairy-stockfish")
    movetime = None if args.depth is not None else args.movetime
    fairy = UciProcess(args.fairy_command, "fairy-stockfish")
    for line in ("setoption name UCI_Variant value xiangqi", "setoption name Threads value 1"):
        fairy.send(line)
    players = [UciProcess(args.zerosum_command, "zerosum"), fairy]
    compare_speeds(players, [(name, fen) for name, fen, _ in read_cases()], movetime, args.depth)


if __name__ == "__main__":
    main()
