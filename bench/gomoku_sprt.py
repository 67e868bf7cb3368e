"""The gomoku brain against its own weaker settings, under SPRT, as an engine author
tests a change: ``zerosum gomocup`` processes on both sides (the arena's Gomocup agent),
fixed nodes a move (so the result does not depend on the machine's load), balanced
random openings played with colours swapped, and a sequential test that stops the match
once it decides.

    .venv/bin/python bench/gomoku_sprt.py [--games N] [--workers N] [--seed S] [--only NAME]

Each pairing prints the arena's summary: Elo with its interval, the pentanomial pair
counts and the SPRT's verdict. The pairings:

``budget``   4000 nodes a move against 1000: a real difference, SPRT(0, 50) should
             accept H1 within a few dozen game pairs.
``threats``  4000 nodes with the threat search (VCF) against 4000 without.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BRAIN = "zerosum gomocup --quiet"
PAIRINGS = {
    "budget": (f"{BRAIN} --nodes 4000,name=n4000", f"{BRAIN} --nodes 1000,name=n1000"),
    "threats": (
        f"{BRAIN} --nodes 4000,name=full",
        f"{BRAIN} --nodes 4000 --set threats=off,name=no-threats",
    ),
}
# A move's nodes are capped; the time is only the arena's safety net for a hung brain.
TIME = "time=60"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="the most games a match plays")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--only", choices=sorted(PAIRINGS))
    args = parser.parse_args()
    # the brains are started as `zerosum`, which must be the one beside this Python
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for name, (a, b) in PAIRINGS.items():
        if args.only and name != args.only:
            continue
        with tempfile.TemporaryDirectory() as folder:
            command = [
                *(sys.executable, "-m", "zerosum.cli", "match", "gomoku"),
                *(f"gomocup:{a},{TIME}", f"gomocup:{b},{TIME}"),
                *("--games", str(args.games), "--balanced-openings", "4"),
                *("--workers", str(args.workers), "--seed", str(args.seed)),
                *("--sprt", "elo0=0", "elo1=50", "--output", str(Path(folder) / "games.jsonl")),
            ]
            print(f"== {name}: {' '.join(command[3:])}", flush=True)
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
            summary = done.stdout.split("per opening")[0]
            print(summary.rstrip() or done.stderr.rstrip(), flush=True)


if __name__ == "__main__":
    main()
