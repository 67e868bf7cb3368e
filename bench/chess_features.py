"""Each chess feature of the engine against the engine without it, at fixed nodes.

``.venv/bin/python bench/chess_features.py [FEATURE ...] [--nodes N] [--games G]
[--seed S] [--workers W] [--summary]``

For every feature (default: all of them) this runs, through the arena's command line::

    zerosum match chess 'engine:nodes=N' 'engine:nodes=N,FEATURE=off' --games G \\
        --balanced-openings 8 --seed S --workers W --max-moves 160 \\
        --resign-score 700 --resign-moves 3 --output bench/results/chess-FEATURE-N.jsonl

and prints the arena's table, with the Elo difference and its 95% interval (positive:
the feature pays). ``evaluation`` plays the tapered evaluation against the material and
piece-square one it replaced (``zerosum.games.chess.evaluation.evaluate_simple``),
through :func:`old_evaluation`, an agent factory the arena loads by its path. A fixed
node budget makes the result independent of the machine's load; the openings are
balanced random openings (8 plies a short search scores near even), both colours each.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

FEATURES = ("capture_order", "check_extensions", "null_move", "lmr", "futility", "evaluation")
"""The switches of :class:`~zerosum.search.engine.EngineOptions` measured, and the
evaluation."""

ROOT = Path(__file__).resolve().parents[1]


def old_evaluation(nodes: int, name: str = "old-evaluation") -> Any:
    """A search agent for chess with the simple evaluation, under a node limit: the
    opponent of the ``evaluation`` match, loaded by the arena as
    ``chess_features.old_evaluation:nodes=N``."""
    from zerosum.agents import SearchAgent
    from zerosum.games.chess import Chess
    from zerosum.games.chess.evaluation import evaluate_simple
    from zerosum.search.engine import Engine, Limits

    class SimpleChess(Chess):
        """Chess evaluated by material and piece-square values only."""

        def evaluate(self, state: Any) -> int:
            return evaluate_simple(state)

    class SimpleAgent(SearchAgent):
        """The search agent whose engine searches the game's states as SimpleChess."""

        def engine(self, game: Any) -> Engine:
            held = self._engines.get(id(game))
            if held is None:
                held = self._engines[id(game)] = (game, Engine(SimpleChess(game.chess960)))
            return held[1]

    return SimpleAgent(Limits(nodes=nodes), name=name)


def command(feature: str, nodes: int, games: int, seed: int, workers: int) -> list[str]:
    """The ``zerosum match`` command line of one feature's match."""
    base = f"engine:nodes={nodes}"
    other = (
        f"chess_features.old_evaluation:nodes={nodes}"
        if feature == "evaluation"
        else f"{base},{feature}=off"
    )
    output = record_file(feature, nodes)
    return [
        str(ROOT / ".venv" / "bin" / "zerosum"),
        "match",
        "chess",
        base,
        other,
        "--games",
        str(games),
        "--balanced-openings",
        "8",
        "--seed",
        str(seed),
        "--workers",
        str(workers),
        "--max-moves",
        "160",
        "--resign-score",
        "700",
        "--resign-moves",
        "3",
        "--output",
        str(output),
    ]


def record_file(feature: str, nodes: int) -> Path:
    """The record file of one feature's match at ``nodes`` nodes a move."""
    return ROOT / "bench" / "results" / f"chess-{feature}-{nodes}.jsonl"


def summary(features: list[str], nodes: int) -> None:
    """Print each feature's score and Elo from its record file so far (a match still
    running, or stopped early, counts the games it finished)."""
    from zerosum.arena import match_estimate, read_records

    for feature in features:
        path = record_file(feature, nodes)
        if not path.exists():
            print(f"{feature:17} no record file")
            continue
        _, records = read_records(path)
        if not records:
            print(f"{feature:17} no game finished")
            continue
        e = match_estimate(records)
        print(
            f"{feature:17} {e.games:3d} games  +{e.wins} ={e.draws} -{e.losses}  "
            f"score {100 * e.score:5.1f}%  Elo {e.elo:+6.1f} "
            f"(95% {e.low:+.1f} to {e.high:+.1f})  LOS {100 * e.los:.1f}%"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("features", nargs="*", help=f"any of {', '.join(FEATURES)} (default: all)")
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--summary", action="store_true", help="only read the record files and print Elo"
    )
    args = parser.parse_args()
    unknown = set(args.features) - set(FEATURES)
    if unknown:
        parser.error(f"unknown features {sorted(unknown)}: choose from {', '.join(FEATURES)}")
    if args.summary:
        summary(args.features or list(FEATURES), args.nodes)
        return
    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    # the arena imports old_evaluation by its path from this directory
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "bench")}
    for feature in args.features or FEATURES:
        line = command(feature, args.nodes, args.games, args.seed, args.workers)
        print("$", " ".join(f"'{part}'" if "," in part or "=" in part else part for part in line))
        sys.stdout.flush()
        subprocess.run(line, check=True, env=environment)


if __name__ == "__main__":
    main()
