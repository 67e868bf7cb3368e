"""Time management from a clock: the budgets stay inside the clock, grow with the
increment and with fewer moves to go, and a 10+0.1 game cannot run out of time."""

from __future__ import annotations

import pytest

from zerosum.search.clock import DEFAULT_OVERHEAD, MOVES_TO_PLAN, Budget, budget

CLOCKS = [0.0, 0.01, 0.05, 0.1, 0.5, 1.0, 10.0, 60.0, 3600.0]
INCREMENTS = [0.0, 0.1, 1.0, 30.0]
MOVES = [None, 1, 2, 10, 40]


@pytest.mark.parametrize("left", CLOCKS)
@pytest.mark.parametrize("increment", INCREMENTS)
@pytest.mark.parametrize("moves_to_go", MOVES)
def test_budgets_never_exceed_the_clock_less_the_overhead(
    left: float, increment: float, moves_to_go: int | None
) -> None:
    given = budget(left, increment, moves_to_go)
    assert 0.0 <= given.soft <= given.hard <= max(left - DEFAULT_OVERHEAD, 0.0)


def test_sudden_death_shares_the_clock() -> None:
    given = budget(10.0)
    assert given.soft == pytest.approx((10.0 - DEFAULT_OVERHEAD) / MOVES_TO_PLAN)
    assert given.hard > given.soft


@pytest.mark.parametrize("left", [1.0, 10.0, 300.0])
def test_an_increment_gives_more_time(left: float) -> None:
    without, with_increment = budget(left, 0.0), budget(left, 2.0)
    assert with_increment.soft > without.soft
    assert with_increment.hard > without.hard


def test_fewer_moves_to_go_give_more_time() -> None:
    budgets = [budget(60.0, 0.0, moves) for moves in (40, 20, 10, 2, 1)]
    assert [b.soft for b in budgets] == sorted(b.soft for b in budgets)
    assert len({b.soft for b in budgets}) == len(budgets)
    # the last move of a control may use the whole usable clock
    assert budgets[-1] == Budget(60.0 - DEFAULT_OVERHEAD, 60.0 - DEFAULT_OVERHEAD)


def test_one_move_takes_at_most_half_the_clock_before_the_last() -> None:
    given = budget(1.0, 30.0, 2)
    assert given.hard == pytest.approx((1.0 - DEFAULT_OVERHEAD) / 2)


def test_nothing_is_left_below_the_overhead() -> None:
    assert budget(0.03, 0.1) == Budget(0.0, 0.0)
    assert budget(-1.0, -1.0, 0, overhead=0.0) == Budget(0.0, 0.0)


def test_a_bullet_game_with_increment_never_flags() -> None:
    """10 s + 0.1 s: spending every hard budget in full (the worst case) for 300 moves
    leaves the clock above the overhead every move."""
    left = 10.0
    for _ in range(300):
        spent = budget(left, 0.1).hard
        left -= spent + DEFAULT_OVERHEAD / 2  # half the overhead is lost to latency
        assert left > 0.0
        left += 0.1
    assert left > 0.1
