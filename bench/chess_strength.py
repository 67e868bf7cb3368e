"""Chess strength: zerosum's UCI engine against sunfish and Stockfish's UCI_Elo ladder.

Run ``bash bench/setup.sh`` once (sunfish from PyPI into bench/.venv, Debian's Stockfish),
then from the project root::

    .venv/bin/python bench/chess_strength.py                      # sunfish, then the ladder
    .venv/bin/python bench/chess_strength.py --opponents sunfish --games 200 --sprt elo0=0 elo1=100
    .venv/bin/python bench/chess_strength.py --opponents stockfish --elo 1350,1500,1650 --games 20
    .venv/bin/python bench/chess_strength.py \\
        --zerosum-command "env PYTHONPATH=/tmp/zs-frozen/src .venv/bin/python -m zerosum.cli uci"

Every match is ``zerosum match`` between two UCI agents (``uci:COMMAND,...``): zerosum's
``zerosum uci`` (``--zerosum-command``: a frozen copy of the code, for instance, while
the working tree changes) against ``sunfish-uci`` and against Stockfish 15.1 with
``UCI_LimitStrength=true`` at each ``UCI_Elo`` of ``--elo``, one thread and a 16 MB hash.
Both sides get the same clock (``--tc``, 10+0.1 s) and the openings of
``bench/data/chess-openings.epd`` in file order, each played twice with colours swapped.
One game at a time by default (``--workers 1``), so that the side not to move is idle
and each side's searching is all that runs, on this 2-core machine beside whatever
else it runs (the two sides alternate on the same machine, so both see the same load).

For each match it prints the arena's table and Elo difference with its 95% interval (or
the SPRT's verdict with ``--sprt``), writes the games to ``DIR/<opponent>.jsonl``
(``--out``, default ``bench/results/chess-strength``) and their PGN beside them
(``zerosum pgn``). After a ladder it prints zerosum's rating on Stockfish's UCI_Elo
scale: the maximum-likelihood rating R against all the rungs at once (each game's
expected score 1 / (1 + 10 ** ((E - R) / 400)), draws as half points) with a 95%
interval from the likelihood's curvature.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from common import counts, describe, endings, ladder_rating

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "bench" / "data" / "chess-openings.epd"
SUNFISH = ROOT / "bench" / ".venv" / "bin" / "sunfish-uci"
STOCKFISH = "/usr/games/stockfish"  # Debian's path, not on PATH
LADDER = (1350, 1500, 1650, 1800, 1950, 2100)
"""UCI_Elo steps: Stockfish 15.1 accepts 1350 to 2850."""


def stockfish_command(given: str | None) -> str:
    """The Stockfish to run: ``given``, Debian's, or one on PATH."""
    if given:
        return given
    if Path(STOCKFISH).exists():
        return STOCKFISH
    found = shutil.which("stockfish")
    if found is None:
        sys.exit("no Stockfish: run bash bench/setup.sh (as root), or give --stockfish-command")
    return found


def play(args: argparse.Namespace, name: str, opponent: str) -> tuple[int, int, int]:
    """Play one match against ``opponent`` (a spec); return zerosum's wins, draws and
    losses, those of the games recorded before too with ``--resume``."""
    output = args.out / f"{name}.jsonl"
    command = [
        sys.executable,
        "-m",
        "zerosum.cli",
        "match",
        "chess",
        f"uci:{args.zerosum_command},name=zerosum",
        opponent,
        "--games",
        str(args.games),
        "--workers",
        str(args.workers),
        "--tc",
        args.tc,
        "--openings",
        str(args.openings),
        "--seed",
        str(args.seed),
        "--output",
        str(output),
    ]
    if args.resume and output.exists():
        command.append("--resume")
    elif output.exists():
        output.unlink()
    if args.sprt:
        command += ["--sprt", *args.sprt]
    print(f"\n$ {' '.join(command)}", flush=True)
    subprocess.run(command, check=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "zerosum.cli",
            "pgn",
            str(output),
            "--out",
            str(output.with_suffix(".pgn")),
        ],
        check=True,
    )
    print(f"{name}: ends {endings(output)}; games in {output} and its .pgn")
    return counts(output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--opponents", default="sunfish,stockfish", help="sunfish,stockfish")
    parser.add_argument("--games", type=int, default=40, help="games a match (default 40)")
    parser.add_argument("--tc", default="10+0.1", help="each side's clock (default 10+0.1)")
    parser.add_argument("--workers", type=int, default=1, help="games at once (default 1)")
    parser.add_argument(
        "--elo",
        default=",".join(map(str, LADDER)),
        help="Stockfish's UCI_Elo steps (default %(default)s)",
    )
    parser.add_argument("--zerosum-command", default=f"{sys.executable} -m zerosum.cli uci")
    parser.add_argument("--sunfish-command", default=str(SUNFISH))
    parser.add_argument("--stockfish-command")
    parser.add_argument("--openings", type=Path, default=BOOK)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE", help="e.g. elo0=0 elo1=100")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "chess-strength")
    parser.add_argument("--resume", action="store_true", help="continue the record files")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    chosen = [name.strip() for name in args.opponents.split(",") if name.strip()]
    unknown = set(chosen) - {"sunfish", "stockfish"}
    if unknown:
        sys.exit(f"unknown opponents {sorted(unknown)}: choose among sunfish, stockfish")
    summary = []
    if "sunfish" in chosen:
        if not Path(args.sunfish_command.split()[0]).exists():
            sys.exit(f"no {args.sunfish_command}: run bash bench/setup.sh")
        counts = play(args, "sunfish", f"uci:{args.sunfish_command},name=sunfish")
        summary.append(f"zerosum - sunfish: {describe(*counts)}")
    if "stockfish" in chosen:
        stockfish = stockfish_command(args.stockfish_command)
        rungs = []
        for elo in (int(step) for step in args.elo.split(",")):
            spec = (
                f"uci:{stockfish},Threads=1,Hash=16,UCI_LimitStrength=true,UCI_Elo={elo},"
                f"name=stockfish-{elo}"
            )
            wins, draws, losses = play(args, f"stockfish-{elo}", spec)
            rungs.append((float(elo), wins + draws / 2, wins + draws + losses))
            summary.append(f"zerosum - stockfish UCI_Elo {elo}: {describe(wins, draws, losses)}")
        rating, low, high = ladder_rating(rungs)
        summary.append(
            f"zerosum on Stockfish's UCI_Elo scale: {rating:.0f} (95% interval {low:.0f} to "
            f"{high:.0f}), {sum(r[2] for r in rungs)} games"
        )
    print("\n" + "\n".join(summary))


if __name__ == "__main__":
    main()
