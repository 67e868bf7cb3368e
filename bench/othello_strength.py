"""zerosum's othello engine against Debian's GRhino (``gtp-rhino``, GTP), level by level.

    .venv/bin/python bench/othello_strength.py [--levels 1,2,3,4,5] [--games N] [--time S]
                                                [--nodes N] [--seed S] [--workers N]
                                                [--records DIR] [--wait S] [--time-margin S]

Each level is a match through the arena's GTP agent: ``engine:time=S`` against
``gtp:/usr/games/gtp-rhino --level L``, balanced random openings of four plies played
with colours swapped, one game at a time by default, so the side not moving is idle
(the machine has two cores). GRhino searches to its level's fixed depths, whatever the
time, so "equal time" is read off the records: the table shows each side's mean time a
move beside the score and Elo with its interval; give ``--time`` the time GRhino takes
to make it equal. ``--nodes N`` gives zerosum a node count a move instead of a time:
GRhino's fixed depths and a node count make a match whose result does not depend on
the load of the machine. ``--records DIR`` keeps each level's games in
``DIR/level-L.jsonl`` (the arena writes each game as it ends), so that a match stopped
before its end can still be read (the arena refuses to write over earlier records).
The first move of a process imports numba and loads the compiled kernel (a second or
two, more on a loaded machine), which the arena counts against that move: the bench
compiles the kernel into numba's cache before each match (so that the match only loads
it), and ``--time-margin`` (30 s by default) keeps the first move from forfeiting.
``--wait`` is how long GRhino may think on one move before it is given up as hung (one
hour by default: level 5 has been seen taking more than ten minutes on an endgame move
at a load average of 11 on two cores).
Install GRhino with ``apt-get install grhino``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import endings, mean_move_times

GRHINO = shutil.which("gtp-rhino") or "/usr/games/gtp-rhino"
WARM_UP = (
    "from zerosum.games.othello import Othello; from zerosum.search.engine import Limits; "
    "game = Othello(); engine = game.compiled_engine(); "
    "engine is None or engine.search(game.initial_state(), Limits(depth=1))"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="1,2,3,4,5")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=1.0, help="zerosum's seconds a move")
    parser.add_argument("--nodes", type=int, help="zerosum's nodes a move, instead of a time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--records", type=Path, help="keep the games in this folder")
    parser.add_argument("--wait", type=float, default=3600.0, help="seconds GRhino may take")
    parser.add_argument(
        "--time-margin", type=float, default=30.0, help="seconds zerosum may overrun a move"
    )
    args = parser.parse_args()
    if not Path(GRHINO).exists():
        sys.exit("gtp-rhino is not installed: apt-get install grhino")
    limit = f"nodes={args.nodes}" if args.nodes is not None else f"time={args.time}"
    if args.records is not None:
        args.records.mkdir(parents=True, exist_ok=True)
    for level in args.levels.split(","):
        # compiled into the cache now, if the code changed since: the match loads it
        warm = [sys.executable, "-c", WARM_UP]
        subprocess.run(warm, check=True)
        with tempfile.TemporaryDirectory() as folder:
            kept = args.records if args.records is not None else Path(folder)
            records = kept / f"level-{level}.jsonl"
            command = [
                *(sys.executable, "-m", "zerosum.cli", "match", "othello"),
                f"engine:{limit},name=zerosum",
                # GRhino searches to fixed depths whatever the time, and a loaded machine
                # slows it: the wait only gives up a hung engine
                f"gtp:{GRHINO} --level {level},name=grhino-{level},wait={args.wait:g}",
                *("--games", str(args.games), "--balanced-openings", "4"),
                *("--time-margin", str(args.time_margin)),
                *("--seed", str(args.seed), "--workers", str(args.workers)),
                *("--output", str(records)),
            ]
            print(f"== level {level}: {' '.join(command[3:])}", flush=True)
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            print(done.stdout.split("per opening")[0].rstrip() or done.stderr.rstrip())
            if records.exists():
                ours, theirs = mean_move_times(records)
                print(f"mean time a move: zerosum {ours:.3f} s, grhino {theirs:.3f} s", flush=True)
                print(f"how games ended: {endings(records)}", flush=True)


if __name__ == "__main__":
    main()
