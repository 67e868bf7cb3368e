"""Exact solving: every best move, MTD-bi against a full window, weak solving, solve_all
against the textbook alpha-beta on every tic-tac-toe position, and published connect-four
scores."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import Bare, chain, minimax_value, shared_data, trees
from zerosum.game import WIN, GameInfo, InvalidGameError
from zerosum.games.connect4 import Connect4
from zerosum.games.mnk import MNKGame, tictactoe
from zerosum.games.tree import TreeGame
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.reference import negamax_alphabeta
from zerosum.search.solve import SolveLimitError, solve, solve_all

TICTACTOE = tictactoe()
VALUES = solve_all(TICTACTOE)
DISTANCES = solve_all(TICTACTOE, distance=True)


def further(score: int) -> int:
    """A child's score seen from its parent's root: wins and losses one ply later."""
    if score > WIN // 2:
        return score - 1
    if score < -WIN // 2:
        return score + 1
    return score


def test_tictactoe_is_a_draw_and_every_first_move_keeps_it() -> None:
    for weak in (False, True):
        solution = solve(TICTACTOE, weak=weak)
        assert solution.score == solution.value == 0
        assert solution.best_moves == tuple(range(9))
        assert solution.distance is None
        assert solution.nodes > 0
    solution = solve(TICTACTOE, root_scores=True)
    assert solution.root_scores == dict.fromkeys(range(9), 0)
    assert len(solution.pv) == 9


def test_solve_all_agrees_with_alpha_beta_on_every_position() -> None:
    bare = Bare(TICTACTOE)  # type: ignore[arg-type]
    assert len(VALUES) == 5478  # the published count of reachable positions
    for state, value in VALUES.items():
        assert negamax_alphabeta(bare, state).score == value
        assert (DISTANCES[state] > 0) - (DISTANCES[state] < 0) == value


def test_solve_agrees_with_solve_all_on_every_position() -> None:
    engine = Engine(TICTACTOE)
    for state, score in DISTANCES.items():
        solution = solve(TICTACTOE, state, engine=engine)
        assert solution.score == score
        assert solution.value == VALUES[state]
        if TICTACTOE.is_terminal(state):
            assert solution.best_moves == ()
            continue
        expected = tuple(
            a
            for a in TICTACTOE.actions(state)
            if -further(DISTANCES[TICTACTOE.result(state, a)]) == score
        )
        assert solution.best_moves == expected
        assert solution.distance == (WIN - abs(score) if score else None)
        end = state
        for move in solution.pv:
            end = TICTACTOE.result(end, move)
        assert TICTACTOE.is_terminal(end)
        if score:
            assert len(solution.pv) == solution.distance


def test_mtd_agrees_with_a_full_window_and_weak_with_the_sign() -> None:
    mtd, window, weak = (Engine(TICTACTOE) for _ in range(3))
    for state, score in list(DISTANCES.items())[::3]:
        assert solve(TICTACTOE, state, engine=mtd).score == score
        assert solve(TICTACTOE, state, engine=window, method="window").score == score
        sign = solve(TICTACTOE, state, engine=weak, weak=True)
        assert sign.value == VALUES[state]
        assert (sign.score > 0) - (sign.score < 0) == VALUES[state]


def reply(state: Any, move: Any) -> int:
    """The outcome (+1, 0, -1) for the mover of playing ``move`` in ``state``."""
    after = DISTANCES[TICTACTOE.result(state, move)]
    return (after < 0) - (after > 0)


def test_weak_best_moves_keep_the_outcome_and_one_best_move_is_enough() -> None:
    engine = Engine(TICTACTOE)
    for state, score in list(DISTANCES.items())[::5]:
        if TICTACTOE.is_terminal(state):
            continue
        exact = solve(TICTACTOE, state, engine=engine)
        weak = solve(TICTACTOE, state, engine=engine, weak=True)
        outcome = (score > 0) - (score < 0)
        assert weak.best_moves, "a position that is not over has a best move"
        kept = {a for a in TICTACTOE.actions(state) if reply(state, a) == outcome}
        assert set(weak.best_moves) <= kept  # each keeps the outcome of the position
        if outcome <= 0:  # a draw or a loss: every move keeping it is best
            assert set(weak.best_moves) == kept
        one = solve(TICTACTOE, state, engine=engine, best_moves=False)
        assert one.score == score and len(one.best_moves) == 1
        assert one.best_moves[0] in exact.best_moves


def test_root_scores_are_exact() -> None:
    state = TICTACTOE.parse_state("x../.o./...")
    solution = solve(TICTACTOE, state, root_scores=True)
    assert solution.root_scores is not None
    expected = {
        a: -further(DISTANCES[TICTACTOE.result(state, a)]) for a in TICTACTOE.actions(state)
    }
    assert solution.root_scores == expected
    assert list(solution.root_scores.values()) == sorted(expected.values(), reverse=True)


def test_a_won_position_reports_its_distance() -> None:
    # X threatens two lines; O to move cannot stop both
    state = TICTACTOE.parse_state("x.x/.o./x.o")
    solution = solve(TICTACTOE, state)
    assert solution.value == -1
    assert solution.score == -(WIN - 2)
    assert solution.distance == 2
    assert set(solution.best_moves) == set(TICTACTOE.actions(state))


@settings(max_examples=80, deadline=None)
@given(trees(), st.booleans())
def test_points_games_solve_to_the_minimax_value(tree: Any, hints: bool) -> None:
    game = TreeGame(tree)
    options = EngineOptions(hints=hints)
    mtd = solve(game, options=options, root_scores=True)
    window = solve(game, options=options, method="window")
    assert mtd.score == mtd.value == window.score == minimax_value(tree)
    assert mtd.distance is None
    kids = tree if isinstance(tree, list) else tree["children"]
    child_values = [minimax_value(kid, maximise=False) for kid in kids]
    assert mtd.root_scores == dict(sorted(enumerate(child_values), key=lambda pair: -pair[1]))
    assert mtd.best_moves == tuple(i for i, v in enumerate(child_values) if v == mtd.score)
    one = solve(game, options=options, best_moves=False)
    assert one.score == mtd.score and one.pv == one.best_moves
    assert len(one.best_moves) == 1 and one.best_moves[0] in mtd.best_moves
    weak = solve(game, weak=True)
    assert weak.value == (mtd.score > 0) - (mtd.score < 0)


def test_solve_all_distance_mode_on_a_small_board() -> None:
    game = MNKGame(3, 3, 2)  # the first player wins at once with any adjacent stone
    distances = solve_all(game, distance=True)
    assert distances[0] == WIN - 3
    assert solve(game).score == WIN - 3
    assert solve(game).distance == 3


def test_solve_all_is_iterative() -> None:
    deep = TreeGame(chain(5000))
    values = solve_all(deep)
    assert values[0] == 1
    assert len(values) == 5001


def test_solve_all_stops_past_its_limit() -> None:
    with pytest.raises(SolveLimitError, match="more than 100 states"):
        solve_all(TICTACTOE, max_states=100)


class Cycle:
    """Two states that lead to each other: a line of play that never ends."""

    info = GameInfo(name="cycle", title="cycle")

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return state

    def actions(self, state: int) -> tuple[int, ...]:
        return (0,)

    def result(self, state: int, action: int) -> int:
        return 1 - state

    def is_terminal(self, state: int) -> bool:
        return False

    def utility(self, state: int, player: int) -> int:
        return 0


def test_solve_all_refuses_cycles() -> None:
    with pytest.raises(InvalidGameError, match="returns to"):
        solve_all(Cycle())  # type: ignore[arg-type]


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown solving method"):
        solve(TICTACTOE, method="guess")  # type: ignore[arg-type]
    with pytest.raises(InvalidGameError, match="searches"):
        solve(TICTACTOE, engine=Engine(MNKGame(4, 4, 3)))
    over = TICTACTOE.parse_state("xxx/oo./...")
    finished = solve(TICTACTOE, over)
    assert (finished.score, finished.value, finished.best_moves) == (-WIN, -1, ())


def _published_cases(name: str, count: int) -> list[tuple[str, int]]:
    path = shared_data("connect4", name)
    lines = path.read_text().split("\n")[:count]
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]


def test_connect4_published_scores() -> None:
    game = Connect4()
    engine = Engine(game)
    for moves, published in _published_cases("Test_L3_R1", 40):
        state = game.parse_state(moves)
        solution = solve(game, state, engine=engine)
        assert game.published_score(state, solution.score) == published, moves
        weak = solve(game, state, engine=engine, weak=True)
        assert weak.value == (published > 0) - (published < 0), moves
