"""Kalah: its rules, its checked layer, and every algorithm against plain minimax on
every state reachable in small sizes, where one side often moves twice running."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerosum.game import IllegalMoveError, InvalidMoveError, InvalidStateError
from zerosum.games.kalah import Kalah, State
from zerosum.search import reference
from zerosum.search.engine import Engine
from zerosum.search.solve import solve, solve_all

SMALL = [(2, 2), (3, 1), (2, 3), (3, 2)]
"""Sizes whose every reachable state is searched by every algorithm."""


def _reachable(game: Kalah) -> list[State]:
    seen = {game.initial_state()}
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        for move in game.actions(state):
            child = game.result(state, move)
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return sorted(seen)


def test_the_last_seed_in_the_store_moves_again() -> None:
    game = Kalah()
    after = game.result(game.initial_state(), game.parse_move(game.initial_state(), "3"))
    assert game.format_state(after) == "4,4,0,5,5,5,1,4,4,4,4,4,4,0 south"
    assert game.to_move(after) == 0
    other = game.result(game.initial_state(), game.parse_move(game.initial_state(), "1"))
    assert game.to_move(other) == 1


def test_the_last_seed_in_an_empty_own_house_captures_the_opposite() -> None:
    game = Kalah()
    state = game.parse_state("1,0,4,4,4,4,4,4,4,4,4,4,3,4 south")
    after = game.result(state, game.parse_move(state, "1"))
    # the seed lands in the empty second house; north's house opposite it held 4
    assert game.format_state(after) == "0,0,4,4,4,4,9,4,4,4,4,0,3,4 north"


def test_no_capture_from_an_empty_opposite_house() -> None:
    game = Kalah()
    state = game.parse_state("1,0,4,4,4,4,4,4,4,4,4,0,7,4 south")
    after = game.result(state, 0)
    assert game.format_state(after) == "0,1,4,4,4,4,4,4,4,4,4,0,7,4 north"


def test_sowing_skips_the_opponents_store() -> None:
    game = Kalah(pits=2, seeds=4)
    state = game.parse_state("0,8,0,4,4,0 south")
    after = game.result(state, 1)
    # 8 seeds from south's second house: its store, north's two houses, past north's
    # store to south's two houses, and round again as far as north's second house
    assert game.format_state(after) == "1,1,2,6,6,0 north"
    assert sum(after[0]) == 16


def test_an_empty_row_ends_the_game_and_sweeps_the_other() -> None:
    game = Kalah(pits=2, seeds=2)
    state = game.parse_state("0,1,3,2,1,1 south")
    after = game.result(state, 1)
    assert game.is_terminal(after)
    assert game.format_state(after) == "0,0,4,0,0,4 south"  # ended on an extra turn
    assert game.utility(after, 0) == 0 and game.actions(after) == []


def test_bad_moves_and_states_raise_the_projects_errors() -> None:
    game = Kalah()
    start = game.initial_state()
    with pytest.raises(InvalidMoveError, match="'x'"):
        game.parse_move(start, "x")
    with pytest.raises(IllegalMoveError, match="out of range"):
        game.parse_move(start, "7")
    again = game.result(start, 2)  # south moves again, its third house now empty
    with pytest.raises(IllegalMoveError, match="empty"):
        game.parse_move(again, "3")
    with pytest.raises(InvalidStateError, match="seeds"):
        game.parse_state("4,4,4,4,4,4,0,4,4,4,4,4,4,1 south")
    with pytest.raises(InvalidStateError, match="14"):
        game.parse_state("4,4 south")
    with pytest.raises(InvalidStateError):
        game.parse_state("4,4,4,4,4,4,0,4,4,4,4,4,4,0 east")


ROUND_TRIP_GAME = Kalah(pits=3, seeds=2)
ROUND_TRIP_STATES = _reachable(ROUND_TRIP_GAME)


@given(st.sampled_from(ROUND_TRIP_STATES))
def test_states_and_moves_round_trip(state: State) -> None:
    game = ROUND_TRIP_GAME
    assert game.parse_state(game.format_state(state)) == state
    for move in game.actions(state):
        assert game.parse_move(state, game.format_move(state, move)) == move


@pytest.mark.parametrize(("pits", "seeds"), SMALL)
def test_every_algorithm_agrees_with_minimax_on_every_state(pits: int, seeds: int) -> None:
    game = Kalah(pits, seeds)
    states = _reachable(game)
    assert any(
        game.to_move(game.result(s, m)) == game.to_move(s) for s in states for m in game.actions(s)
    ), "the sizes tested have extra turns"
    values = solve_all(game)
    engine = Engine(game)  # one engine, its table reused across every state
    checked = 0
    for state in states:
        truth = reference.minimax(game, state).score
        assert values[state] == truth
        for algorithm in (reference.negamax, reference.alphabeta, reference.negamax_alphabeta):
            assert algorithm(game, state).score == truth, (algorithm.__name__, state)
        assert engine.search(state).score == truth, state
        checked += 1
    assert checked == len(states)


@pytest.mark.parametrize(("pits", "seeds"), SMALL)
def test_the_solver_scores_every_root_move_as_minimax_does(pits: int, seeds: int) -> None:
    game = Kalah(pits, seeds)
    for state in _reachable(game)[:: max(1, len(_reachable(game)) // 60)]:
        if game.is_terminal(state):
            continue
        solution = solve(game, state, root_scores=True)
        truth = reference.minimax(game, state).score
        assert solution.score == truth
        for move, score in (solution.root_scores or {}).items():
            child = game.result(state, move)
            value = reference.minimax(game, child).score
            expected = value if game.to_move(child) == game.to_move(state) else -value
            assert score == expected, (state, move)
        best = solve(game, state, best_moves=False)
        assert best.score == truth and best.best_moves
        weak = solve(game, state, weak=True)
        assert weak.value == (truth > 0) - (truth < 0)


def test_depth_limited_search_agrees_with_the_reference() -> None:
    game = Kalah(4, 3)
    state = game.initial_state()
    for depth in range(1, 6):
        truth = reference.negamax(game, state, depth).score
        assert reference.alphabeta(game, state, depth).score == truth
        engine = Engine(game)
        found: Any = None
        for report in engine.iterate(state):
            if report.depth == depth:
                found = report.score
                break
        assert found == truth, depth
