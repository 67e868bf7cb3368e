"""The textbook algorithms on explicit trees: the worked examples node by node, agreement
with an independent minimax on random trees, the minimal tree of Knuth and Moore, and
the errors they raise."""

from __future__ import annotations

import math
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import (
    UNIFORM_BRANCHING,
    Bare,
    NodeLog,
    chain,
    minimax_value,
    trees,
    uniform_trees,
)
from zerosum.game import INFINITY, MissingCapabilityError
from zerosum.games.tree import TreeGame, example
from zerosum.search.reference import (
    ALGORITHMS,
    SearchDepthError,
    alphabeta,
    minimax,
    negamax,
    negamax_alphabeta,
)

INF = INFINITY
ALPHA_BETA = {"alphabeta": alphabeta, "negamax-ab": negamax_alphabeta}
FULL_WIDTH = {"minimax": minimax, "negamax": negamax}

# The worked examples: the value, and the best line as labels.
EXPECTED = {
    "night-market": (100, ("A", "甲", "100")),
    "night-market-2": (80, ("甲", "80")),
    "aima-5.2": (3, ("B", "b1")),
}

# The leaves alpha-beta values, and the tops of the branches it skips, left to right.
ALPHA_BETA_LEAVES = {
    "night-market": [
        "root > A > 甲 > 100",
        "root > A > 甲 > 80",
        "root > A > 乙 > 10000",
        "root > B > 丙 > 50",
        "root > B > 丙 > 70",
    ],
    "night-market-2": ["root > 甲 > 80", "root > 甲 > 100", "root > 乙 > 50"],
    "aima-5.2": [
        "A > B > b1",
        "A > B > b2",
        "A > B > b3",
        "A > C > c1",
        "A > D > d1",
        "A > D > d2",
        "A > D > d3",
    ],
}
ALPHA_BETA_PRUNED = {
    "night-market": ["root > A > 乙 > 15000", "root > B > 丁"],
    "night-market-2": ["root > 乙 > 10000"],
    "aima-5.2": ["A > C > c2", "A > C > c3"],
}

ALPHA_BETA_CUTOFFS = {"night-market": 2, "night-market-2": 1, "aima-5.2": 1}

# The tutorial's windows on entry (max/min form), for every node alpha-beta visits.
NIGHT_MARKET_WINDOWS = {
    "root": (-INF, INF),
    "root > A": (-INF, INF),
    "root > A > 甲": (-INF, INF),
    "root > A > 甲 > 100": (-INF, INF),
    "root > A > 甲 > 80": (100, INF),
    "root > A > 乙": (-INF, 100),
    "root > A > 乙 > 10000": (-INF, 100),
    "root > B": (100, INF),
    "root > B > 丙": (100, INF),
    "root > B > 丙 > 50": (100, INF),
    "root > B > 丙 > 70": (100, INF),
}


def _logged(name: str, game: TreeGame, depth: int | None = None) -> tuple[Any, NodeLog]:
    log = NodeLog(game)
    return ALGORITHMS[name](game, game.initial_state(), depth, log), log


def _pv_labels(game: TreeGame, pv: tuple[int, ...]) -> tuple[str, ...]:
    labels, state = [], game.initial_state()
    for move in pv:
        labels.append(game.format_move(state, move))
        state = game.result(state, move)
    return tuple(labels)


def _leaf_count(game: TreeGame) -> int:
    return sum(game.is_terminal(node) for node in range(game.subtree_size(0)))


# --------------------------------------------------------------------------- worked examples


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
@pytest.mark.parametrize("name", list(EXPECTED))
def test_worked_examples_value_and_best_line(name: str, algorithm: str) -> None:
    game = example(name)
    value, line = EXPECTED[name]
    result = ALGORITHMS[algorithm](game, game.initial_state())
    assert result.score == value == game.info.solved_value
    assert _pv_labels(game, result.pv) == line
    assert result.best_move == result.pv[0]


@pytest.mark.parametrize("algorithm", list(FULL_WIDTH))
@pytest.mark.parametrize("name", list(EXPECTED))
def test_minimax_and_negamax_visit_every_node(name: str, algorithm: str) -> None:
    game = example(name)
    result, log = _logged(algorithm, game)
    size = game.subtree_size(0)
    assert log.visited == list(range(size))  # node numbers are preorder: left to right
    assert result.stats.nodes == size
    assert result.stats.leaves == len(log.leaves) == _leaf_count(game)
    assert result.stats.cutoffs == 0 and log.pruned == []


@pytest.mark.parametrize("algorithm", list(ALPHA_BETA))
@pytest.mark.parametrize("name", list(EXPECTED))
def test_alpha_beta_evaluates_and_prunes_exactly_the_textbook_nodes(
    name: str, algorithm: str
) -> None:
    game = example(name)
    result, log = _logged(algorithm, game)
    assert log.paths(log.leaves) == ALPHA_BETA_LEAVES[name]
    assert log.paths(log.pruned) == ALPHA_BETA_PRUNED[name]
    skipped = sum(game.subtree_size(node) for node in log.pruned)
    assert result.stats.nodes == len(log.visited) == game.subtree_size(0) - skipped
    assert result.stats.leaves == len(ALPHA_BETA_LEAVES[name])
    assert result.stats.cutoffs == ALPHA_BETA_CUTOFFS[name]


def test_night_market_prunes_four_nodes_and_never_sees_15000_or_box_ding() -> None:
    game = example("night-market")
    _, log = _logged("alphabeta", game)
    unseen = sorted(set(range(game.subtree_size(0))) - set(log.visited))
    assert log.paths(unseen) == [
        "root > A > 乙 > 15000",
        "root > B > 丁",
        "root > B > 丁 > 20000",
        "root > B > 丁 > 0",
    ]


def test_aima_never_evaluates_c2_and_c3() -> None:
    game = example("aima-5.2")
    _, log = _logged("alphabeta", game)
    values = [game.utility(node, 0) for node in log.leaves]
    assert values == [3, 12, 8, 2, 14, 5, 2]
    assert 4 not in values and 6 not in values


def test_night_market_windows_on_entry() -> None:
    game = example("night-market")
    _, log = _logged("alphabeta", game)
    assert {game.format_state(n): w for n, w in log.windows.items()} == NIGHT_MARKET_WINDOWS


def test_night_market_negamax_windows_are_the_mirror_at_min_nodes() -> None:
    game = example("night-market")
    _, log = _logged("negamax-ab", game)
    expected = {}
    for path, (alpha, beta) in NIGHT_MARKET_WINDOWS.items():
        at_min = path.count(" > ") % 2 == 1
        expected[path] = (-beta, -alpha) if at_min else (alpha, beta)
    assert {game.format_state(n): w for n, w in log.windows.items()} == expected


# --------------------------------------------------------------------------- random trees


@given(trees())
def test_every_algorithm_agrees_with_minimax(tree: Any) -> None:
    game = TreeGame(tree)
    expected = minimax_value(tree)
    for name, search in ALGORITHMS.items():
        result = search(game, 0)
        assert result.score == expected, name
        state = 0
        for move in result.pv:  # the best line leads to a leaf worth the value
            state = game.result(state, move)
        assert game.is_terminal(state)
        assert game.utility(state, 0) == expected, name


@given(trees(estimates=True), st.integers(0, 7))
def test_every_algorithm_agrees_with_minimax_under_a_depth_limit(tree: Any, depth: int) -> None:
    game = TreeGame(tree)
    expected = minimax_value(tree, depth)
    scores = {name: search(game, 0, depth).score for name, search in ALGORITHMS.items()}
    assert scores == dict.fromkeys(ALGORITHMS, expected)


@given(trees(estimates=True), st.one_of(st.none(), st.integers(0, 7)))
def test_alpha_beta_never_evaluates_more_leaves_than_minimax(tree: Any, depth: int | None) -> None:
    game = TreeGame(tree)
    full = minimax(game, 0, depth).stats
    for name, search in ALPHA_BETA.items():
        stats = search(game, 0, depth).stats
        assert stats.leaves <= full.leaves, name
        assert stats.nodes <= full.nodes, name


@given(trees(estimates=True), st.one_of(st.none(), st.integers(0, 7)))
def test_both_forms_of_alpha_beta_walk_the_same_tree(tree: Any, depth: int | None) -> None:
    """Same nodes in the same order; the negamax window and value at a MIN node are the
    max/min ones seen from the other side."""
    game = TreeGame(tree)
    first, pair = _logged("alphabeta", game, depth)
    second, single = _logged("negamax-ab", game, depth)
    assert single.visited == pair.visited
    assert single.leaves == pair.leaves
    assert single.pruned == pair.pruned
    assert second.stats == first.stats
    for node in pair.visited:
        window = pair.windows[node]
        assert window is not None
        alpha, beta = window
        if game.to_move(node) == 0:
            assert single.windows[node] == (alpha, beta)
            assert single.values[node] == pair.values[node]
        else:
            assert single.windows[node] == (-beta, -alpha)
            assert single.values[node] == -pair.values[node]


@given(trees())
def test_minimax_and_negamax_agree_at_every_node(tree: Any) -> None:
    game = TreeGame(tree)
    _, pair = _logged("minimax", game)
    _, single = _logged("negamax", game)
    assert pair.visited == single.visited == list(range(game.subtree_size(0)))
    for node in pair.visited:
        sign = -1 if game.to_move(node) else 1
        assert single.values[node] == sign * pair.values[node]


def _best_first(tree: Any, maximise: bool = True) -> Any:
    """The same tree with every node's children sorted best first for the side to move."""
    if not isinstance(tree, list):
        return tree
    kids = [_best_first(kid, not maximise) for kid in tree]
    kids.sort(key=lambda kid: minimax_value(kid, maximise=not maximise), reverse=maximise)
    return kids


def _minimal_leaves(branching: int, depth: int) -> int:
    return branching ** math.ceil(depth / 2) + branching ** (depth // 2) - 1


@given(uniform_trees())
def test_knuth_moore_minimal_tree_on_best_first_uniform_trees(case: tuple[int, int, Any]) -> None:
    """On a uniform tree (branching b, every leaf at depth d) whose every node has a best
    move first, alpha-beta values exactly b^ceil(d/2) + b^floor(d/2) - 1 leaves.

    Ties are allowed anywhere, and the values need not be distinct: a tie with the best
    move still cuts, because the test is ``value >= beta`` (``<= alpha`` at MIN nodes),
    not a strict inequality. With a strict test, a second child tying the first would be
    searched in full and the count could exceed the bound. Which of several tied best
    moves comes first does not matter."""
    branching, depth, tree = case
    assert depth in UNIFORM_BRANCHING
    game = TreeGame(_best_first(tree))
    for name, search in ALPHA_BETA.items():
        result = search(game, 0)
        assert result.stats.leaves == _minimal_leaves(branching, depth), name
        assert result.score == minimax_value(tree)


@given(uniform_trees())
def test_no_order_lets_alpha_beta_value_fewer_leaves_than_the_minimal_tree(
    case: tuple[int, int, Any],
) -> None:
    """Whatever the order, the value is proved only by a MAX strategy and a MIN strategy
    that share one leaf: at least b^ceil(d/2) + b^floor(d/2) - 1 leaves."""
    branching, depth, tree = case
    game = TreeGame(tree)
    for name, search in ALPHA_BETA.items():
        assert search(game, 0).stats.leaves >= _minimal_leaves(branching, depth), name


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_depth_limit_on_a_game_without_evaluate(algorithm: str) -> None:
    game = Bare(example("aima-5.2"))
    with pytest.raises(MissingCapabilityError, match="evaluate"):
        ALGORITHMS[algorithm](game, 0, 1)
    assert ALGORITHMS[algorithm](game, 0).score == 3  # without a limit it needs none


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_depth_limit_at_a_node_without_estimate_names_the_node(algorithm: str) -> None:
    game = TreeGame({"children": [{"label": "A", "children": [1, 2]}, [3]], "estimate": 0})
    assert ALGORITHMS[algorithm](game, 0, 0).score == 0
    with pytest.raises(MissingCapabilityError, match="'root > A'"):
        ALGORITHMS[algorithm](game, 0, 1)


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_negative_depth_is_refused(algorithm: str) -> None:
    with pytest.raises(ValueError, match="-1"):
        ALGORITHMS[algorithm](example(), 0, -1)


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_a_line_deeper_than_the_recursion_limit_raises_search_depth_error(
    algorithm: str,
) -> None:
    game = TreeGame(chain(sys.getrecursionlimit() + 50, estimate=0))
    with pytest.raises(SearchDepthError, match="recursion limit"):
        ALGORITHMS[algorithm](game, 0)
    assert ALGORITHMS[algorithm](game, 0, 10).stats.nodes == 11  # shallow searches work
