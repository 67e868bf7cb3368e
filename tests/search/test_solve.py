"""Exact solving: every best move, MTD-bi against a full window, weak solving, solve_all
against the textbook alpha-beta on every tic-tac-toe position, published connect-four
scores, and solves cut short by limits, with what they proved."""

from __future__ import annotations

import itertools
import math
import threading
from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import Bare, chain, minimax_value, on_time, shared_data, stop_delay, timed, trees
from zerosum.game import WIN, GameInfo, InvalidGameError
from zerosum.games.connect4 import Connect4
from zerosum.games.mnk import MNKGame, tictactoe
from zerosum.games.othello import Othello
from zerosum.games.tree import TreeGame
from zerosum.search.engine import Engine, EngineOptions, Limits
from zerosum.search.reference import negamax_alphabeta
from zerosum.search.solve import (
    SolveLimitError,
    SolveProgress,
    estimate_tree,
    solve,
    solve_all,
)

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
    with pytest.raises(ValueError, match="depth limit"):
        solve(TICTACTOE, limits=Limits(depth=3))
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


# ---------------------------------------------------------------- limits and progress

MODES: tuple[dict[str, Any], ...] = (
    {},
    {"weak": True},
    {"root_scores": True},
    {"best_moves": False},
    {"weak": True, "root_scores": True},
    {"method": "window"},
)


def test_a_limited_solve_returns_what_it_proved() -> None:
    engine = Engine(TICTACTOE)
    states = [s for s in list(DISTANCES)[::9] if not TICTACTOE.is_terminal(s)]
    for state in states:
        true = DISTANCES[state]
        for mode in MODES:
            whole = solve(TICTACTOE, state, engine=engine, **mode)
            for nodes in (1, 4, 20, 80, 400):
                engine.reset()
                found = solve(TICTACTOE, state, engine=engine, limits=Limits(nodes=nodes), **mode)
                where = (TICTACTOE.format_state(state), mode, nodes)
                lo, hi = found.bounds
                assert found.nodes <= nodes, where
                assert lo <= true <= hi, where
                if found.finished:
                    assert found.stopped is None and found.proven, where
                    assert (found.score, found.best_moves) == (whole.score, whole.best_moves)
                    assert found.root_scores == whole.root_scores, where
                    continue
                assert found.stopped == "nodes", where
                if found.proven:  # only moves were left to test
                    assert found.value == VALUES[state], where
                    assert set(found.best_moves) <= set(whole.best_moves), where
                    if not mode.get("weak"):
                        assert found.score == true and found.bounds == (true, true), where
                else:
                    assert found.score == lo and found.distance is None, where
                    assert found.pv == found.best_moves and len(found.best_moves) <= 1, where
                    for move in found.best_moves:  # it reaches the lower bound
                        assert -further(DISTANCES[TICTACTOE.result(state, move)]) >= lo, where


def test_progress_narrows_the_bounds_to_the_value() -> None:
    game = Connect4(5, 4)
    state = game.parse_state("12")
    told: list[SolveProgress] = []
    found = solve(game, state, progress=told.append)
    assert found.finished and found.bounds == (found.score, found.score)
    assert told, "a probe was made"
    for before, after in itertools.pairwise(told):
        assert after.bounds[0] >= before.bounds[0] and after.bounds[1] <= before.bounds[1]
        assert after.nodes >= before.nodes and after.probes >= before.probes
        assert after.elapsed >= before.elapsed
    for report in told:
        assert report.bounds[0] <= found.score <= report.bounds[1]
    assert [r.phase for r in told] == sorted(r.phase for r in told)[::-1]  # value, then moves
    assert told[-1].phase == "moves" and told[-1].bounds == found.bounds
    assert told[-1].nodes == found.nodes


def _fields(solution: Any) -> dict[str, Any]:
    return {name: getattr(solution, name) for name in solution.__dataclass_fields__}


def test_a_watched_solve_finds_what_an_unwatched_one_does() -> None:
    game = Connect4(5, 4)
    state = game.parse_state("12")
    plain = solve(game, state, root_scores=True)
    watched = solve(game, state, root_scores=True, limits=Limits(time=600), progress=lambda _: None)
    assert {**_fields(plain), "time": 0} == {**_fields(watched), "time": 0}


def test_a_time_limit_ends_a_long_solve_with_proven_bounds() -> None:
    game = Connect4()
    value = WIN - 41  # the first player wins with the last stone (Allis, Tromp)
    elapsed, found = on_time(partial(timed, solve, game, limits=Limits(time=0.3)), 0.3 + 0.25)
    assert elapsed < 0.3 + 0.25
    assert (found.finished, found.stopped, found.proven) == (False, "time", False)
    assert found.bounds[0] <= value <= found.bounds[1]


def test_a_stop_signal_ends_a_long_solve() -> None:
    game = Connect4()
    delay, found = on_time(
        partial(stop_delay, lambda stop: solve(game, limits=Limits(stop=stop)), 0.2), 0.25
    )
    assert delay < 0.25
    assert (found.finished, found.stopped) == (False, "stop")
    # a signal already set stops the solve before its first probe
    already = threading.Event()
    already.set()
    early = solve(TICTACTOE, limits=Limits(stop=already))
    assert (early.finished, early.stopped, early.nodes) == (False, "stop", 0)


def test_weak_solves_prove_the_sign_by_their_bounds() -> None:
    engine = Engine(TICTACTOE)
    for state, value in list(VALUES.items())[::4]:
        found = solve(TICTACTOE, state, engine=engine, weak=True)
        lo, hi = found.bounds
        assert found.proven and lo <= DISTANCES[state] <= hi
        assert value == (1 if lo > 0 else -1 if hi < 0 else 0)


def test_the_tree_estimate_is_knuths() -> None:
    # tic-tac-toe's game tree has 549,946 nodes; Knuth's estimator is unbiased
    estimate = estimate_tree(TICTACTOE, samples=20_000)
    assert abs(estimate.log10_tree - math.log10(549_946)) < 0.05
    assert estimate.log10_minimal == estimate.log10_tree / 2
    assert estimate.longest == 9
    line = estimate_tree(TreeGame(chain(300)))  # one line: the estimate is exact
    assert (line.log10_tree, line.longest) == (math.log10(301), 300)
    assert estimate_tree(Cycle()).log10_tree == math.inf  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one sample"):
        estimate_tree(TICTACTOE, samples=0)


def test_root_scores_bound_each_move_by_its_own_range_not_the_roots() -> None:
    # othello's hooks (its endgame solver) answer near the end, where the root's narrow
    # range is no bound on a worse move's child, whose value is seen from the other side
    game = Othello()
    state = game.parse_state("XXXXXOOOXXXXOXOXXOXXOOX-XXOXXOOXXOOXOXX-XXOXXXXOXXXOOOO-XXXXOX-- O")
    hooked = solve(game, state, root_scores=True)
    plain = solve(game, state, root_scores=True, options=EngineOptions(solver_hooks=False))
    assert hooked.root_scores == plain.root_scores
    assert hooked.root_scores is not None
    assert hooked.root_scores[game.parse_move(state, "h3")] == -22
