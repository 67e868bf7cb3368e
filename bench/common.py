"""What the match benches share: running ``zerosum match`` between two agent specs and
reading its record file (the score with Elo and its interval, how the games ended, each
side's time a move), and the rating fitted to a ladder of rated opponents.

Imported by the match benches (``bench/chess_strength.py``, ``bench/xiangqi_features.py``,
``bench/xiangqi_strength.py``), which run with ``bench/`` on the path.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from zerosum.arena import read_records
from zerosum.ratings import elo_estimate

ROOT = Path(__file__).resolve().parents[1]
Z95 = 1.959964


def match_command(game: str, first: str, second: str, *options: str) -> list[str]:
    """The ``zerosum match`` command line playing ``first`` against ``second``."""
    return [sys.executable, "-m", "zerosum.cli", "match", game, first, second, *options]


def show(command: Sequence[str]) -> str:
    """``command`` as one shell line, quoting the words a shell would split or expand."""
    return " ".join(f"'{word}'" if any(c in word for c in " ,=;()*") else word for word in command)


def run_match(command: Sequence[str], output: Path, resume: bool = False) -> None:
    """Run one match (``command`` without ``--output``), recording to ``output``; an old
    record is continued with ``resume``, else replaced."""
    line = [*command, "--output", str(output)]
    if resume and output.exists():
        line.append("--resume")
    elif output.exists():
        output.unlink()
    print(f"\n$ {show(line)}", flush=True)
    subprocess.run(line, check=True)


def counts(path: Path) -> tuple[int, int, int]:
    """The first agent's wins, draws and losses over the games recorded in ``path``."""
    records = [record for record in read_records(path)[1] if not record.void]
    wins = sum(record.points(0) == 1.0 for record in records)
    losses = sum(record.points(0) == 0.0 for record in records)
    return wins, len(records) - wins - losses, losses


def describe(wins: int, draws: int, losses: int) -> str:
    """``+W =D -L (score), Elo E (95% interval)`` for the first agent."""
    estimate = elo_estimate(wins, draws, losses)
    return f"+{wins} ={draws} -{losses} ({estimate.score:.1%}), Elo {estimate.describe()}"


def endings(path: Path) -> str:
    """How the recorded games ended, by reason: ``adjudicated 18, end 2``."""
    reasons = Counter(record.reason for record in read_records(path)[1] if not record.void)
    return ", ".join(f"{reason} {count}" for reason, count in sorted(reasons.items()))


def mean_move_times(path: Path) -> tuple[float, float]:
    """Each agent's mean seconds a move over a record file (agent 0 first)."""
    spent = [0.0, 0.0]
    made = [0, 0]
    for record in read_records(path)[1]:
        first = len(record.moves) - len(record.move_times)  # the opening's moves
        for ply, seconds in enumerate(record.move_times, start=first):
            agent = record.seats[ply % 2]
            spent[agent] += seconds
            made[agent] += 1
    return spent[0] / max(made[0], 1), spent[1] / max(made[1], 1)


def ladder_rating(rungs: Sequence[tuple[float, float, int]]) -> tuple[float, float, float]:
    """The maximum-likelihood rating and its 95% interval from ``(opponent rating,
    points, games)`` rungs (each game's expected score ``1 / (1 + 10 ** ((E - R) /
    400))``, draws as half points); ``-inf``/``+inf`` when every game was lost or won."""
    points = sum(rung[1] for rung in rungs)
    games = sum(rung[2] for rung in rungs)
    if games == 0:
        raise ValueError("no games: the rating is undefined")
    if points == 0:
        return -math.inf, -math.inf, -math.inf
    if points == games:
        return math.inf, math.inf, math.inf

    def expected(rating: float) -> list[float]:
        return [1 / (1 + 10 ** ((elo - rating) / 400)) for elo, _, _ in rungs]

    # the expected points grow with the rating: bisect for the rating that expects the
    # points actually taken
    low = min(rung[0] for rung in rungs) - 2000
    high = max(rung[0] for rung in rungs) + 2000
    for _ in range(100):
        middle = (low + high) / 2
        if sum(p * n for p, (_, _, n) in zip(expected(middle), rungs, strict=True)) < points:
            low = middle
        else:
            high = middle
    rating = (low + high) / 2
    slope = math.log(10) / 400
    information = sum(
        n * p * (1 - p) * slope**2 for p, (_, _, n) in zip(expected(rating), rungs, strict=True)
    )
    margin = Z95 / math.sqrt(information)
    return rating, rating - margin, rating + margin


def feature_record(game: str, feature: str, nodes: int) -> Path:
    """The record file of one feature's match at ``nodes`` nodes a move."""
    return ROOT / "bench" / "results" / f"{game}-{feature}-{nodes}.jsonl"


def run_features(
    game: str,
    features: Sequence[str],
    agents: Callable[[str, int], tuple[str, str]],
    *,
    max_moves: int,
    description: str,
) -> None:
    """The command line of a feature bench: for each feature asked for (all by default),
    a match at fixed nodes between ``agents(feature, nodes)`` (the side with it first),
    from balanced random openings of 8 plies played with both colours, a game drawn at
    ``max_moves`` plies and lost when both sides score it 700 centipawns lost for 3
    moves; then each feature's score and Elo. ``--summary`` only reads the records."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("features", nargs="*", help=f"any of {', '.join(features)} (default: all)")
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--summary", action="store_true", help="only read the record files and print Elo"
    )
    args = parser.parse_args()
    unknown = set(args.features) - set(features)
    if unknown:
        parser.error(f"unknown features {sorted(unknown)}: choose from {', '.join(features)}")
    chosen = args.features or list(features)
    if not args.summary:
        (ROOT / "bench" / "results").mkdir(exist_ok=True)
        # the arena imports agent factories by their path from bench/
        os.environ["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(ROOT / "bench"), os.environ.get("PYTHONPATH")])
        )
        for feature in chosen:
            first, second = agents(feature, args.nodes)
            command = match_command(
                game,
                first,
                second,
                *("--games", str(args.games), "--balanced-openings", "8"),
                *("--seed", str(args.seed), "--workers", str(args.workers)),
                *("--max-moves", str(max_moves), "--resign-score", "700"),
                *("--resign-moves", "3"),
            )
            run_match(command, feature_record(game, feature, args.nodes))
        print()
    for feature in chosen:
        # a match still running, or stopped early, counts the games it finished
        path = feature_record(game, feature, args.nodes)
        if not path.exists():
            print(f"{feature:17} no record file")
            continue
        wins, draws, losses = counts(path)
        if wins + draws + losses == 0:
            print(f"{feature:17} no game finished")
            continue
        print(f"{feature:17} {describe(wins, draws, losses)}; {endings(path)}")
