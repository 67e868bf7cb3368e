"""Recording a search: the night-market trace node by node, agreement with the reference
algorithms' counts on random trees, the dict round trip, and the text picture."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import Bare, chain, trees
from zerosum.game import INFINITY, MissingCapabilityError, ZerosumError
from zerosum.games.tree import TreeGame, example
from zerosum.search.reference import ALGORITHMS, SearchDepthError
from zerosum.search.trace import (
    ROOT,
    SIDE_TO_MOVE,
    Cutoff,
    InvalidTraceError,
    PrunedMove,
    Trace,
    record,
    render,
)

INF = INFINITY
DEPTHS = st.one_of(st.none(), st.integers(0, 7))


def _paths(trace: Trace) -> list[str]:
    """Each node of the trace written as its path of move labels."""
    paths: list[str] = []
    for node in trace.nodes:
        paths.append("root" if node.parent is None else f"{paths[node.parent]} > {node.move}")
    return paths


# --------------------------------------------------------------------------- night market


def test_night_market_alphabeta_trace_node_by_node() -> None:
    trace = record(example("night-market"), 0, "alphabeta")
    rows = [
        (path, node.depth, node.player, node.window, node.value, node.leaf)
        for path, node in zip(_paths(trace), trace.nodes, strict=True)
    ]
    assert rows == [
        ("root", 0, 0, (-INF, INF), 100, False),
        ("root > A", 1, 1, (-INF, INF), 100, False),
        ("root > A > 甲", 2, 0, (-INF, INF), 100, False),
        ("root > A > 甲 > 100", 3, 1, (-INF, INF), 100, True),
        ("root > A > 甲 > 80", 3, 1, (100, INF), 80, True),
        ("root > A > 乙", 2, 0, (-INF, 100), 10000, False),
        ("root > A > 乙 > 10000", 3, 1, (-INF, 100), 10000, True),
        ("root > B", 1, 1, (100, INF), 70, False),
        ("root > B > 丙", 2, 0, (100, INF), 70, False),
        ("root > B > 丙 > 50", 3, 1, (100, INF), 50, True),
        ("root > B > 丙 > 70", 3, 1, (100, INF), 70, True),
    ]
    cuts = {path: node.cutoff for path, node in zip(_paths(trace), trace.nodes, strict=True)}
    assert cuts.pop("root > A > 乙") == Cutoff(10000, -INF, 100, "beta", (PrunedMove("15000", 1),))
    assert cuts.pop("root > B") == Cutoff(70, 100, INF, "alpha", (PrunedMove("丁", 3),))
    assert set(cuts.values()) == {None}
    assert [node.parent for node in trace.nodes] == [None, 0, 1, 2, 2, 1, 5, 0, 7, 8, 8]
    assert trace.algorithm == "alphabeta" and trace.orientation == ROOT
    assert trace.game == "night-market" and trace.depth is None
    assert trace.root_value == 100
    assert trace.best_line == ("A", "甲", "100")
    assert (trace.stats.nodes, trace.stats.leaves, trace.stats.cutoffs) == (11, 5, 2)
    assert trace.stats.pruned == 4


def test_night_market_negamax_trace_is_for_the_side_to_move() -> None:
    game = example("night-market")
    pair = record(game, 0, "alphabeta")
    single = record(game, 0, "negamax-ab")
    assert single.orientation == SIDE_TO_MOVE
    assert single.root_value == pair.root_value == 100
    for a, b in zip(pair.nodes, single.nodes, strict=True):
        assert (a.move, a.depth, a.player, a.leaf) == (b.move, b.depth, b.player, b.leaf)
        assert a.window is not None
        alpha, beta = a.window
        sign = -1 if a.depth % 2 else 1
        assert b.value == sign * a.value
        assert b.window == ((alpha, beta) if sign == 1 else (-beta, -alpha))
    cut = single.nodes[7].cutoff  # box B: in its own view, -70 reached beta = -100
    assert cut == Cutoff(-70, -INF, -100, "beta", (PrunedMove("丁", 3),))


def test_night_market_render_shows_windows_values_and_cuts() -> None:
    text = render(record(example("night-market"), 0))
    lines = text.splitlines()
    assert lines[0] == "alphabeta on night-market: value 100, best line A 甲 100"
    assert lines[1].startswith("11 nodes, 5 leaves, 2 cut-offs, 4 nodes pruned;")
    assert lines[2:] == [
        "root  MAX  α=-∞ β=+∞  → 100",
        "  A  MIN  α=-∞ β=+∞  → 100",
        "    甲  MAX  α=-∞ β=+∞  → 100",
        "      100  α=-∞ β=+∞  = 100",
        "      80  α=100 β=+∞  = 80",
        "    乙  MAX  α=-∞ β=100  → 10000",
        "      10000  α=-∞ β=100  = 10000",
        "      ✂ 15000  pruned: 10000 ≥ β=100  (1 node)",
        "  B  MIN  α=100 β=+∞  → 70",
        "    丙  MAX  α=100 β=+∞  → 70",
        "      50  α=100 β=+∞  = 50",
        "      70  α=100 β=+∞  = 70",
        "    ✂ 丁  pruned: 70 ≤ α=100  (3 nodes)",
    ]


def test_minimax_render_has_no_windows_and_no_cuts() -> None:
    text = render(record(example("aima-5.2"), 0, "minimax"))
    assert "α=" not in text and "✂" not in text
    assert "  C  MIN  → 2" in text.splitlines()
    assert "    c3  = 6" in text.splitlines()


def test_aima_trace_skips_c2_and_c3() -> None:
    trace = record(example("aima-5.2"), 0)
    leaves = [node.move for node in trace.nodes if node.leaf]
    assert leaves == ["b1", "b2", "b3", "c1", "d1", "d2", "d3"]
    cut = [node for node in trace.nodes if node.cutoff is not None]
    assert [node.move for node in cut] == ["C"]
    assert cut[0].cutoff == Cutoff(2, 3, INF, "alpha", (PrunedMove("c2", 1), PrunedMove("c3", 1)))
    assert "    ✂ c3  pruned: 2 ≤ α=3  (1 node)" in render(trace).splitlines()


# --------------------------------------------------------------------------- random trees


@given(trees(estimates=True), st.sampled_from(list(ALGORITHMS)), DEPTHS)
def test_trace_counts_match_the_reference_search(
    tree: Any, algorithm: str, depth: int | None
) -> None:
    game = TreeGame(tree)
    result = ALGORITHMS[algorithm](game, 0, depth)
    trace = record(game, 0, algorithm, depth)
    stats = trace.stats
    assert (stats.nodes, stats.leaves, stats.cutoffs) == (
        result.stats.nodes,
        result.stats.leaves,
        result.stats.cutoffs,
    )
    assert len(trace.nodes) == stats.nodes
    assert [node.id for node in trace.nodes] == list(range(stats.nodes))
    assert sum(node.leaf for node in trace.nodes) == stats.leaves
    assert trace.root_value == result.score == trace.nodes[0].value
    state, labels = 0, []
    for move in result.pv:
        labels.append(game.format_move(state, move))
        state = game.result(state, move)
    assert trace.best_line == tuple(labels)
    for node in trace.nodes[1:]:
        parent = trace.nodes[node.parent or 0]
        assert node.parent is not None and node.parent < node.id
        assert node.depth == parent.depth + 1 and node.player == 1 - parent.player


@given(trees(estimates=True), st.sampled_from(list(ALGORITHMS)), DEPTHS)
def test_every_node_is_either_visited_or_inside_one_pruned_branch(
    tree: Any, algorithm: str, depth: int | None
) -> None:
    game = TreeGame(tree)
    trace = record(game, 0, algorithm, depth)
    within = sum(
        1 for n in range(game.subtree_size(0)) if depth is None or _depth(game, n) <= depth
    )
    assert trace.stats.pruned is not None
    assert trace.stats.nodes + trace.stats.pruned == within
    if algorithm in ("minimax", "negamax"):
        assert trace.stats.pruned == 0 and trace.stats.cutoffs == 0


def _depth(game: TreeGame, node: int) -> int:
    return game.format_state(node).count(" > ")


@given(trees(estimates=True), st.sampled_from(list(ALGORITHMS)), DEPTHS)
def test_to_dict_is_json_and_round_trips(tree: Any, algorithm: str, depth: int | None) -> None:
    trace = record(TreeGame(tree), 0, algorithm, depth)
    data = trace.to_dict()
    text = json.dumps(data, allow_nan=False)
    assert Trace.from_dict(json.loads(text)) == trace


def test_to_dict_writes_open_window_ends_as_strings() -> None:
    data = record(example("night-market"), 0).to_dict()
    assert data["nodes"][0]["window"] == ["-inf", "+inf"]
    assert data["nodes"][4]["window"] == [100, "+inf"]
    assert data["nodes"][5]["cutoff"] == {
        "value": 10000,
        "alpha": "-inf",
        "beta": 100,
        "bound": "beta",
        "moves": [{"label": "15000", "size": 1}],
    }
    assert data["stats"] == {"nodes": 11, "leaves": 5, "cutoffs": 2, "pruned": 4}
    assert data["best_line"] == ["A", "甲", "100"]
    assert record(example("aima-5.2"), 0, "minimax").to_dict()["nodes"][0]["window"] is None


# --------------------------------------------------------------------------- games without helpers


def test_pruned_sizes_are_counted_by_walking_when_the_game_cannot_say() -> None:
    tree = example("night-market")
    bare = record(Bare(tree), 0)
    assert bare.nodes[7].cutoff == Cutoff(70, 100, INF, "alpha", (PrunedMove("1", 3),))
    assert bare.best_line == ("0", "0", "0")  # without notation, moves are shown as they are
    assert bare.stats.pruned == 4


def test_pruned_sizes_past_the_count_limit_are_unknown() -> None:
    trace = record(Bare(example("night-market")), 0, count_limit=2)
    assert trace.nodes[7].cutoff == Cutoff(70, 100, INF, "alpha", (PrunedMove("1", None),))
    assert trace.nodes[5].cutoff == Cutoff(10000, -INF, 100, "beta", (PrunedMove("1", 1),))
    assert trace.stats.pruned is None
    text = render(trace)
    assert "(too many nodes to count)" in text and "an unknown number of nodes pruned" in text
    assert Trace.from_dict(json.loads(json.dumps(trace.to_dict()))) == trace


def test_pruned_sizes_under_a_depth_limit_stop_at_the_limit() -> None:
    # The root's second child is cut after its first reply; under a depth limit of 3 the
    # skipped reply (at depth 2) counts itself and its two children, not the grandchildren.
    tree = {
        "estimate": 0,
        "children": [
            {"estimate": 5, "children": [{"estimate": 5, "children": [5, 5]}]},
            {
                "estimate": 0,
                "children": [
                    {"estimate": 1, "children": [1, 1]},
                    {"estimate": 9, "children": [{"estimate": 9, "children": [9, 9]}, 9]},
                ],
            },
        ],
    }
    game = TreeGame(tree)
    limited = record(game, 0, "alphabeta", depth=3)
    assert limited.root_value == 5
    assert [n.cutoff for n in limited.nodes if n.cutoff] == [
        Cutoff(1, 5, INF, "alpha", (PrunedMove("2.2", 3),))
    ]
    full = record(game, 0, "alphabeta")
    assert [n.cutoff for n in full.nodes if n.cutoff] == [
        Cutoff(1, 5, INF, "alpha", (PrunedMove("2.2", 5),))
    ]


# --------------------------------------------------------------------------- errors


def test_unknown_algorithm_names_the_known_ones() -> None:
    with pytest.raises(ZerosumError, match=r"'alpha'.*minimax, negamax, alphabeta, negamax-ab"):
        record(example(), 0, "alpha")


def test_count_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="count limit"):
        record(example(), 0, count_limit=0)


def test_search_errors_pass_through() -> None:
    with pytest.raises(MissingCapabilityError):
        record(example(), 0, depth=1)
    with pytest.raises(ValueError, match="depth limit"):
        record(example(), 0, depth=-1)
    with pytest.raises(SearchDepthError):
        record(TreeGame(chain(sys.getrecursionlimit() + 50)), 0)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("stats"), r"trace: 'stats' is missing"),
        (lambda d: d.update(extra=1), r"trace: unknown key 'extra'"),
        (lambda d: d.update(algorithm="best"), r"'algorithm' must be one of"),
        (lambda d: d.update(orientation="up"), r"'orientation' must be one of"),
        (lambda d: d.update(root_value="inf"), r"'root_value' must be an integer, '-inf' or"),
        (lambda d: d.update(root_value=True), r"'root_value' must be an integer"),
        (lambda d: d.update(depth=-1), r"'depth' must be a whole number"),
        (lambda d: d.update(best_line=[1]), r"'best_line' must be a list of strings"),
        (lambda d: d.update(nodes={}), r"'nodes' must be a list"),
        (lambda d: d["nodes"][3].update(id=4), r"node 3: 'id' must be 3"),
        (lambda d: d["nodes"][3].update(parent=3), r"node 3: 'parent' must name a node"),
        (lambda d: d["nodes"][0].update(parent=0), r"node 0: 'parent' must name a node"),
        (lambda d: d["nodes"][3].update(window=[1]), r"node 3: 'window' must be null or"),
        (lambda d: d["nodes"][3].update(window=[1, "x"]), r"node 3: 'window' must be an"),
        (lambda d: d["nodes"][3].update(player=2), r"node 3: 'player' must be 0 or 1"),
        (lambda d: d["nodes"][3].update(leaf=1), r"node 3: 'leaf' must be true or false"),
        (lambda d: d["nodes"][3].update(move=None, x=1), r"node 3: unknown key 'x'"),
        (lambda d: d["nodes"][5].update(cutoff=[]), r"node 5 cutoff must be an object"),
        (lambda d: d["nodes"][5]["cutoff"].update(bound="gamma"), r"'bound' must be one of"),
        (
            lambda d: d["nodes"][5]["cutoff"]["moves"][0].update(size="1"),
            r"node 5 cutoff move 0: 'size' must be a whole number",
        ),
        (lambda d: d["stats"].pop("pruned"), r"stats: 'pruned' is missing"),
    ],
)
def test_from_dict_refuses_malformed_data(change: Any, message: str) -> None:
    data = json.loads(json.dumps(record(example("night-market"), 0).to_dict()))
    change(data)
    with pytest.raises(InvalidTraceError, match=message):
        Trace.from_dict(data)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@given(JSON_VALUES)
def test_from_dict_on_arbitrary_data_raises_only_invalid_trace_error(data: Any) -> None:
    with pytest.raises(InvalidTraceError):
        Trace.from_dict(data)
