"""The engine keeps its time limit and its stop signal on every registered game.

Each game of the registry is searched from a few positions after random openings (fixed
seeds) under a short time limit, and under a stop signal set from another thread; the
search must return soon after either. The bound is generous, for a loaded two-core
machine, and a late search is tried again (``conftest.on_time``): the measured overruns
are in ``bench/limits.py`` (target: under 20 ms). Gomoku is also searched with its
threat search given budgets that take it seconds, which must give up at the limit as
the rest of the search does."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from conftest import on_time, stop_delay, timed
from zerosum.arena import OpeningError, random_openings
from zerosum.games import registry
from zerosum.games.gomoku import Gomoku
from zerosum.notation import play
from zerosum.search.engine import Engine, Limits

LIMIT = 0.04
"""The time limit of each search, in seconds."""

SLACK = 0.25
"""How late a search may return, in seconds: generous, for a loaded machine."""


def positions(game: Any, count: int = 3, plies: int = 10) -> list[Any]:
    """``count`` positions after random openings of ``plies`` plies (fewer where the game
    keeps ending sooner), from fixed seeds."""
    while True:
        try:
            openings = random_openings(game, plies, count, seed=15)
            break
        except OpeningError:
            plies //= 2
    found = []
    for opening in openings:
        state = game.initial_state()
        for move in opening:
            state = play(game, state, move)
        found.append(state)
    return found


def stoppable(engine: Engine, state: Any) -> Callable[[threading.Event], Any]:
    """A search of ``state`` by ``engine`` with only a stop signal."""
    return lambda stop: engine.search(state, Limits(stop=stop))


@pytest.mark.parametrize("name", registry.names())
def test_every_game_returns_soon_after_a_short_time_limit(name: str) -> None:
    game = registry.make(name)
    engine = Engine(game)
    for state in positions(game):
        elapsed, result = on_time(
            partial(timed, engine.search, state, Limits(time=LIMIT)), LIMIT + SLACK
        )
        assert elapsed < LIMIT + SLACK, (name, game.format_state(state), elapsed)
        assert result.best_move in game.actions(state)


@pytest.mark.parametrize("name", registry.names())
def test_every_game_returns_soon_after_the_stop_signal(name: str) -> None:
    game = registry.make(name)
    for state in positions(game):
        delay, result = on_time(partial(stop_delay, stoppable(Engine(game), state), LIMIT), SLACK)
        assert delay < SLACK, (name, game.format_state(state), delay)
        assert result.best_move in game.actions(state)


# after these 20 random moves no side has a forced win, and a root threat search with
# unbounded budgets takes about 7 s to be sure of it
UNDECIDED = "m6 c14 c3 i3 f10 l13 b11 e5 b9 i5 c2 a9 a3 c12 n14 c10 d7 k12 f12 h4"


def long_threat_search() -> tuple[Gomoku, Any]:
    """Gomoku whose root threat search takes seconds, and the position where it does."""
    game = Gomoku()
    game.threat_budgets = (20, 10**7, 10**7)
    state = game.initial_state()
    for move in UNDECIDED.split():
        state = play(game, state, move)
    return game, state


def test_the_gomoku_threat_search_gives_up_at_the_time_limit() -> None:
    game, state = long_threat_search()
    elapsed, result = on_time(
        lambda: timed(Engine(game).search, state, Limits(time=LIMIT)), LIMIT + SLACK
    )
    assert elapsed < LIMIT + SLACK, elapsed
    assert result.stats.stopped
    assert result.best_move in game.actions(state)


def test_the_gomoku_threat_search_gives_up_at_the_stop_signal() -> None:
    game, state = long_threat_search()
    delay, result = on_time(lambda: stop_delay(stoppable(Engine(game), state), LIMIT), SLACK)
    assert delay < SLACK, delay
    assert result.stats.stopped
    assert result.best_move in game.actions(state)
