"""Each chess feature of the engine against the engine without it, at fixed nodes.

``.venv/bin/python bench/chess_features.py [FEATURE ...] [--nodes N] [--games G]
[--seed S] [--workers W] [--summary]``

For every feature (default: all of them) this runs, through the arena's command line::

    zerosum match chess 'engine:nodes=N' 'engine:nodes=N,FEATURE=off' --games G \\
        --balanced-openings 8 --seed S --workers W --max-moves 160 \\
        --resign-score 700 --resign-moves 3 --output bench/results/chess-FEATURE-N.jsonl

(:func:`common.run_features`) and prints each feature's score, with the Elo difference
and its 95% interval (positive: the feature pays). ``evaluation`` plays the tapered
evaluation against the material and piece-square one it replaced
(``zerosum.games.chess.evaluation.evaluate_simple``), through :func:`old_evaluation`, an
agent factory the arena loads by its path. A fixed node budget makes the result
independent of the machine's load; the openings are balanced random openings (8 plies a
short search scores near even), both colours each.
"""

from __future__ import annotations

from typing import Any

from common import run_features

FEATURES = ("capture_order", "check_extensions", "null_move", "lmr", "futility", "evaluation")
"""The switches of :class:`~zerosum.search.engine.EngineOptions` measured, and the
evaluation."""


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


def agents(feature: str, nodes: int) -> tuple[str, str]:
    """The specs of the side with ``feature`` and the side without it."""
    base = f"engine:nodes={nodes}"
    if feature == "evaluation":
        return base, f"chess_features.old_evaluation:nodes={nodes}"
    return base, f"{base},{feature}=off"


def main() -> None:
    run_features("chess", FEATURES, agents, max_moves=160, description=__doc__.splitlines()[0])


if __name__ == "__main__":
    main()
