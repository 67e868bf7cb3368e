"""Exact othello endgames: the small solver against plain minimax, the engine's solver
with othello's hooks against the FFO endgame suite (``../shared/data/othello``), and the
hooks' promises.

Every FFO position #1-19 is solved, with #20 and #21: those that take half a second or
less in the default run, the others (one to three seconds) marked slow; #22-39 are for
``bench/othello_ffo.py``.
"""

from __future__ import annotations

import random

import pytest

from conftest import shared_data
from zerosum.game import WIN_THRESHOLD
from zerosum.games.othello import EXACT_EMPTIES, START, Othello, State
from zerosum.games.othello import rules as othello_rules
from zerosum.games.othello.rules import solve_exact
from zerosum.search.solve import solve

FAST = (1, 2, 3, 4, 5, 6, 7, 9, 11, 17, 20)
"""FFO positions (#1-19 and #20-39) that solve in half a second or less each."""
SLOW = (8, 10, 12, 13, 14, 15, 16, 18, 19, 21)
"""Those that take one to three seconds; #22-39 are for ``bench/othello_ffo.py``."""


def _minimax(game: Othello, state: State) -> int:
    """The exact final score for the side to move by plain negamax over every line."""
    if game.is_terminal(state):
        return game.utility(state, game.to_move(state))
    return max(-_minimax(game, othello_rules.result(state, m)) for m in game.actions(state))


def _endgames(count: int, most_empties: int, seed: int, least_empties: int = 1) -> list[State]:
    """``count`` positions of random games with ``least_empties`` to ``most_empties``
    empty squares."""
    game = Othello()
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = START
        while not game.is_terminal(state):
            empties = 64 - (state[0] | state[1]).bit_count()
            if empties < least_empties:
                break
            if empties <= most_empties and rng.random() < 0.4:
                found.append(state)
                break
            state = othello_rules.result(state, rng.choice(game.actions(state)))
    return found


def test_the_small_solver_agrees_with_minimax() -> None:
    game = Othello()
    for state in _endgames(120, 6, seed=1):
        assert solve_exact(state[0], state[1]) == _minimax(game, state), game.format_state(state)


def test_the_small_solver_bounds_outside_its_window() -> None:
    game = Othello()
    for state in _endgames(60, 6, seed=2):
        exact = _minimax(game, state)
        assert solve_exact(state[0], state[1], exact, exact + 1) <= exact
        assert solve_exact(state[0], state[1], exact - 1, exact) >= exact


def test_score_bounds_are_exact_in_the_last_empties_and_open_before() -> None:
    game = Othello()
    for state in _endgames(40, EXACT_EMPTIES + 2, seed=3):
        low, high = game.score_bounds(state)
        if 64 - (state[0] | state[1]).bit_count() <= EXACT_EMPTIES:
            assert low == high == _minimax(game, state)
        else:
            assert (low, high) == (-64, 64)


def test_the_engine_solves_small_endgames_as_minimax_does() -> None:
    game = Othello()
    # more empties than the exact hook covers at the root: solve() takes the root's
    # score_bounds as the ceiling of every child's score (see the hand-back note)
    # solve_exact stands for minimax here: the test above checks it against minimax
    for state in _endgames(10, 9, seed=4, least_empties=EXACT_EMPTIES + 1):
        solution = solve(game, state, root_scores=True)
        assert solution.score == solve_exact(state[0], state[1])
        assert solution.root_scores is not None
        for move, score in solution.root_scores.items():
            child = othello_rules.result(state, move)
            assert score == -solve_exact(child[0], child[1])


def test_the_children_the_ordering_makes_are_the_transition_s() -> None:
    game = Othello()
    rng = random.Random(6)
    for state in _endgames(40, 40, seed=5):
        moves = game.ordered_actions(state)
        rng.shuffle(moves)
        for move in moves:
            assert game.result(state, move) == othello_rules.result(state, move)


def test_the_evaluation_is_an_estimate_in_discs() -> None:
    game = Othello()
    assert game.evaluate(START) == 0
    for state in _endgames(100, 50, seed=7):
        assert -64 < game.evaluate(state) < 64 < WIN_THRESHOLD


def _ffo(number: int) -> tuple[str, int, set[str]]:
    """FFO position ``number``: the position, its value and its best moves."""
    name, first = ("fforum-1-19.obf", 1) if number < 20 else ("fforum-20-39.obf", 20)
    line = shared_data("othello", name).read_text().splitlines()[number - first]
    scored = [field.strip().split(":") for field in line.split(";")[1:] if field.strip()]
    best = max(int(score) for _, score in scored)
    return line, best, {move.lower() for move, score in scored if int(score) == best}


def _check_ffo(number: int) -> None:
    game = Othello()
    text, value, best_moves = _ffo(number)
    state = game.parse_state(text)
    solution = solve(game, state)
    assert solution.score == value
    assert {game.format_move(state, move) for move in solution.best_moves} == best_moves


@pytest.mark.parametrize("number", FAST)
def test_ffo_endgames(number: int) -> None:
    _check_ffo(number)


@pytest.mark.slow
@pytest.mark.parametrize("number", SLOW)
def test_slower_ffo_endgames(number: int) -> None:
    _check_ffo(number)
