"""Each xiangqi-specific part of the engine against the engine without it, at fixed nodes.

``.venv/bin/python bench/xiangqi_features.py [FEATURE ...] [--nodes N] [--games G]
[--seed S] [--workers W] [--summary]``

For every feature (default: all of them) this runs, through the arena's command line::

    zerosum match xiangqi WITH WITHOUT --games G --balanced-openings 8 --seed S \\
        --workers W --max-moves 200 --resign-score 700 --resign-moves 3 \\
        --output bench/results/xiangqi-FEATURE-N.jsonl

and prints the arena's table, with the Elo difference and its 95% interval (positive:
the feature pays). The features:

* the evaluation's terms (:func:`zerosum.games.xiangqi.evaluation.make_evaluate`):
  ``squares`` (piece-square values), ``king_safety``, ``mobility``, ``cannons``: the
  evaluation with all four terms against it without that term; ``evaluation``: all four
  against material alone (:func:`~zerosum.games.xiangqi.evaluation.evaluate_material`).
  Both sides are :func:`without`, an agent factory the arena loads by its path;
* the engine's switches on xiangqi (:class:`~zerosum.search.engine.EngineOptions`), each
  of which only works through a xiangqi hook: ``capture_order`` (MVV-LVA,
  ``capture_value``), ``check_extensions``, ``null_move`` (``null_move``), ``lmr`` and
  ``futility`` (``in_check``): ``engine:nodes=N`` against ``engine:nodes=N,F=off``, and
  for ``lmr``, off by default, ``lmr=on`` against the default.

A fixed node budget makes the result independent of the machine's load; the openings
are balanced random openings (8 plies a short search scores near even), each played
with both colours; a game reaching 200 plies is a draw, and one both sides score 700
centipawns lost for 3 moves is lost.
"""

from __future__ import annotations

from typing import Any

from common import run_features

TERMS = ("squares", "king_safety", "mobility", "cannons")
"""The evaluation's terms, each a switch of ``make_evaluate``."""
SWITCHES = ("capture_order", "check_extensions", "null_move", "lmr", "futility")
"""The engine options measured on xiangqi."""
FEATURES = (*TERMS, "evaluation", *SWITCHES)


def without(nodes: int, term: str, name: str = "without") -> Any:
    """A search agent for xiangqi under a node limit whose evaluation has every term of
    :data:`TERMS` but ``term`` (``none``: all four; ``all``: material alone), loaded by
    the arena as ``xiangqi_features.without:nodes=N,term=T``."""
    from zerosum.agents import SearchAgent
    from zerosum.games.xiangqi import Xiangqi
    from zerosum.games.xiangqi.evaluation import evaluate_material, make_evaluate
    from zerosum.search.engine import Engine, Limits

    if term == "all":
        evaluation = evaluate_material
    elif term in (*TERMS, "none"):
        evaluation = make_evaluate(**{switch: switch != term for switch in TERMS})
    else:
        raise ValueError(f"term must be one of {', '.join(TERMS)}, none or all, not {term!r}")

    class Weaker(Xiangqi):
        """Xiangqi evaluated without the term."""

        def evaluate(self, state: Any) -> int:
            return evaluation(state)

    class WeakerAgent(SearchAgent):
        """The search agent whose engine searches the game's states as Weaker."""

        def engine(self, game: Any) -> Engine:
            held = self._engines.get(id(game))
            if held is None:
                held = self._engines[id(game)] = (game, Engine(Weaker(game.notation, game.draws)))
            return held[1]

    return WeakerAgent(Limits(nodes=nodes), name=name)


def agents(feature: str, nodes: int) -> tuple[str, str]:
    """The specs of the side with ``feature`` and the side without it."""
    base = f"engine:nodes={nodes}"
    factory = f"xiangqi_features.without:nodes={nodes}"
    if feature in TERMS:
        return f"{factory},term=none,name=all-terms", f"{factory},term={feature},name=no-{feature}"
    if feature == "evaluation":
        return f"{factory},term=none,name=all-terms", f"{factory},term=all,name=material"
    if feature == "lmr":
        return f"{base},lmr=on", base
    return base, f"{base},{feature}=off"


def main() -> None:
    run_features("xiangqi", FEATURES, agents, max_moves=200, description=__doc__.splitlines()[0])


if __name__ == "__main__":
    main()
