"""Time management: how long one move may think, given a game clock.

A clock gives the seconds left, the increment added after each move and, in a
"moves in time" control, how many moves must be made before the clock is topped up.
:func:`budget` turns that into two numbers:

``soft``
    once an iteration of iterative deepening ends past this many seconds, no new one
    starts (the next would take several times as long and most likely not finish);
``hard``
    the search's time limit: it is stopped there, whatever it is doing.

The formula, with ``usable = left - overhead`` (never below zero):

* ``moves`` is ``moves_to_go`` when given, else :data:`MOVES_TO_PLAN` (a sudden-death
  game is planned as if that many moves remained, so the time shrinks geometrically and
  never runs out);
* ``soft = usable / moves + INCREMENT_SHARE * increment``: an even share of the time
  left, plus most of the increment, which comes back after the move;
* ``hard = min(HARD_FACTOR * soft, usable * MAX_SHARE)``, where ``MAX_SHARE`` is 1 on
  the last move before the time control (``moves_to_go`` 1) and :data:`MAX_SHARE`
  otherwise, so that one long search can never spend the whole clock;
* ``soft`` is then cut to ``hard``.

``overhead`` (seconds) covers what the clock sees but the search does not: reading the
command, writing the move, the GUI's and the operating system's latency, a garbage
collection. Both budgets are therefore at most ``left - overhead``, and zero when less
than the overhead is left: the caller then plays the quickest move it has.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "DEFAULT_OVERHEAD",
    "HARD_FACTOR",
    "INCREMENT_SHARE",
    "MAX_SHARE",
    "MOVES_TO_PLAN",
    "Budget",
    "budget",
]

DEFAULT_OVERHEAD = 0.05
"""Seconds kept back on every move for latency (see the module notes)."""

MOVES_TO_PLAN = 25
"""The moves a sudden-death clock is shared between."""

INCREMENT_SHARE = 0.75
"""The part of the increment a move spends on top of its share of the clock."""

HARD_FACTOR = 3.0
"""How many times the soft budget the search may run before it is stopped."""

MAX_SHARE = 0.5
"""The most of the usable clock one move may take, but for the last move of a control."""


@dataclass(frozen=True, slots=True)
class Budget:
    """Seconds one move may think: ``soft`` (start no iteration after it) and ``hard``
    (stop the search there); ``0 <= soft <= hard``."""

    soft: float
    hard: float


def budget(
    left: float,
    increment: float = 0.0,
    moves_to_go: int | None = None,
    overhead: float = DEFAULT_OVERHEAD,
) -> Budget:
    """Return the :class:`Budget` of one move with ``left`` seconds on the clock.

    ``increment`` is the seconds added after the move, ``moves_to_go`` the moves to
    make before the next time control (``None`` for sudden death), ``overhead`` the
    seconds kept back for latency. Negative inputs count as zero; ``moves_to_go`` below
    1 counts as 1. The formula is in the module notes."""
    usable = max(left - max(overhead, 0.0), 0.0)
    moves = MOVES_TO_PLAN if moves_to_go is None else max(moves_to_go, 1)
    soft = usable / moves + INCREMENT_SHARE * max(increment, 0.0)
    share = 1.0 if moves == 1 else MAX_SHARE
    hard = min(HARD_FACTOR * soft, usable * share)
    return Budget(soft=min(soft, hard), hard=hard)
