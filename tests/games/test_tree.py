"""Explicit game trees: loading, the protocol, the notation, and every way input can be bad."""

from __future__ import annotations

import contextlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import chain, minimax_value, trees
from zerosum.game import (
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    MissingCapabilityError,
    ZerosumError,
)
from zerosum.games import registry
from zerosum.games.tree import EXAMPLES, TreeGame, example, load_tree
from zerosum.notation import play
from zerosum.search.reference import SearchDepthError, alphabeta

TREES = Path(__file__).resolve().parents[2] / "src" / "zerosum" / "games" / "trees"

# --------------------------------------------------------------------------- examples


@pytest.mark.parametrize(
    ("name", "value", "low", "high", "size"),
    [
        ("night-market", 100, 0, 20000, 15),
        ("night-market-2", 80, 50, 10000, 7),
        ("aima-5.2", 3, 2, 14, 13),
    ],
)
def test_examples_load_with_their_metadata(
    name: str, value: int, low: int, high: int, size: int
) -> None:
    game = example(name)
    info = game.info
    assert info.name == name
    assert info.solved_value == value
    assert info.utility_range == (low, high)
    assert info.win_loss is False
    assert info.players == ("max", "min")
    assert game.subtree_size(0) == size
    document = json.loads((TREES / f"{name}.json").read_text(encoding="utf-8"))
    assert info.title == document["title"] and info.description == document["description"]
    assert info.description and info.title != name


def test_examples_are_listed_and_the_default_is_night_market() -> None:
    assert EXAMPLES == ("night-market", "night-market-2", "aima-5.2")
    assert sorted(p.stem for p in TREES.glob("*.json")) == sorted(EXAMPLES)
    assert example().info.name == "night-market"


def test_unknown_example_names_the_known_ones() -> None:
    with pytest.raises(InvalidGameError, match=r"'nope'.*night-market, night-market-2, aima-5\.2"):
        example("nope")


def test_registry_makes_trees() -> None:
    assert registry.make("tree").info.name == "night-market"
    assert registry.make("tree:name=aima-5.2").info.solved_value == 3


def test_night_market_structure() -> None:
    game = example("night-market")
    assert game.render(0) == "\n".join(
        [
            "root  [max]",
            "  A  [min]",
            "    甲  [max]",
            "      100",
            "      80",
            "    乙  [max]",
            "      10000",
            "      15000",
            "  B  [min]",
            "    丙  [max]",
            "      50",
            "      70",
            "    丁  [max]",
            "      20000",
            "      0",
        ]
    )


def test_aima_labels_follow_the_book() -> None:
    game = example("aima-5.2")
    assert game.label(0) == "A"
    assert [game.format_move(0, a) for a in game.actions(0)] == ["B", "C", "D"]
    c = game.parse_state("A > C")
    assert [game.format_move(c, a) for a in game.actions(c)] == ["c1", "c2", "c3"]
    assert [game.utility(game.result(c, a), 0) for a in game.actions(c)] == [2, 4, 6]
    assert game.render(c) == "C  [min]\n  c1 = 2\n  c2 = 4\n  c3 = 6"


# --------------------------------------------------------------------------- the protocol


def test_protocol_on_a_small_tree() -> None:
    game = TreeGame([[3, -4], 5, {"label": "E", "children": [7], "estimate": 2}])
    assert game.initial_state() == 0
    assert game.actions(0) == (0, 1, 2)
    first, leaf, last = (game.result(0, a) for a in game.actions(0))
    assert (game.to_move(0), game.to_move(first), game.to_move(game.result(first, 0))) == (0, 1, 0)
    assert game.is_terminal(leaf) and not game.is_terminal(first)
    assert game.actions(leaf) == ()
    assert (game.utility(leaf, 0), game.utility(leaf, 1)) == (5, -5)
    minus_four = game.result(first, 1)
    assert (game.utility(minus_four, 0), game.utility(minus_four, 1)) == (-4, 4)
    assert game.key(first) == first and len({game.key(n) for n in range(7)}) == 7
    assert [game.subtree_size(n) for n in (0, first, leaf, last)] == [7, 3, 1, 2]
    assert game.info.utility_range == (-4, 7)
    assert game.info.solved_value == 7
    assert game.info.name == "tree" and game.info.title == "tree"


def test_evaluate_is_for_the_side_to_move() -> None:
    game = TreeGame({"children": [{"children": [1], "estimate": 6}, 9], "estimate": -3})
    assert game.evaluate(0) == -3  # player 0 to move: the estimate as written
    assert game.evaluate(1) == -6  # player 1 to move: negated
    assert game.evaluate(2) == 1  # a leaf at depth 2: its value, player 0 to move
    assert game.evaluate(3) == -9  # a leaf at depth 1: player 1's side of 9


def test_evaluate_without_estimate_names_the_node() -> None:
    game = TreeGame([[1, 2], {"label": "X", "children": [3]}])
    with pytest.raises(MissingCapabilityError, match=r"'root > X'.*no estimate"):
        game.evaluate(game.parse_state("root > X"))


def test_integral_floats_are_integers() -> None:
    game = TreeGame([3.0, {"value": -2.0}, {"children": [1], "estimate": 4.0}])
    assert [game.utility(n, 0) for n in (1, 2)] == [3, -2]
    assert game.evaluate(3) == -4
    assert all(type(game.utility(n, 0)) is int for n in (1, 2))


def test_a_single_leaf_is_a_finished_game() -> None:
    game = TreeGame(7)
    assert game.is_terminal(0) and game.actions(0) == ()
    assert game.format_state(0) == "root" and game.render(0) == "root = 7"
    assert alphabeta(game, 0).score == 7


@given(trees())
def test_solved_value_and_sizes_match_a_direct_computation(tree: Any) -> None:
    game = TreeGame(tree)
    assert game.info.solved_value == minimax_value(tree)

    def size(node: Any) -> int:
        return 1 + sum(map(size, node)) if isinstance(node, list) else 1

    assert game.subtree_size(0) == size(tree)
    for node in range(game.subtree_size(0)):
        kids = [game.result(node, a) for a in game.actions(node)]
        assert game.subtree_size(node) == 1 + sum(game.subtree_size(k) for k in kids)


# --------------------------------------------------------------------------- labels and notation


def test_generated_labels_follow_the_path() -> None:
    game = TreeGame([[1, [2, 3]], {"label": "A", "children": [4, [5]]}])
    labels = [game.label(n) for n in range(game.subtree_size(0))]
    assert labels == ["root", "1", "1.1", "1.2", "1.2.1", "1.2.2", "A", "A.1", "A.2", "A.2.1"]
    assert game.format_state(game.parse_state("root > A > A.2 > A.2.1")) == "root > A > A.2 > A.2.1"


def test_given_root_label_is_kept() -> None:
    game = TreeGame({"label": "top", "children": [1, 2]})
    assert [game.label(n) for n in range(3)] == ["top", "1", "2"]
    assert game.format_state(2) == "top > 2"


def test_parse_move_by_label_or_position() -> None:
    game = example("night-market")
    a = game.parse_move(0, "A")
    assert game.format_move(0, a) == "A" and a == 0
    assert game.parse_move(0, " 2 ") == 1
    box = game.result(0, a)
    assert game.parse_move(box, "乙") == game.parse_move(box, "2") == 1


def test_a_numeric_label_wins_over_a_position() -> None:
    game = TreeGame([{"label": "2", "value": 5}, {"label": "1", "value": 6}])
    assert game.parse_move(0, "1") == 1  # the child labelled "1", not the first child
    assert game.parse_move(0, "2") == 0


@pytest.mark.parametrize(
    ("state", "text", "error", "message"),
    [
        ("root", "Z", InvalidMoveError, r"'Z' is not a move at 'root'"),
        ("root", "", InvalidMoveError, r"'' is not a move"),
        ("root", "A > 甲", InvalidMoveError, r"'A > 甲'"),
        ("root", "甲", IllegalMoveError, r"no move '甲' at 'root'.*A, B"),
        ("root", "3", IllegalMoveError, r"no move '3' at 'root'"),
        ("root", "0", IllegalMoveError, r"no move '0' at 'root'"),
        ("root", "9" * 40, IllegalMoveError, r"no move '9+' at 'root'"),
        ("root > A > 甲 > 100", "1", IllegalMoveError, r"'root > A > 甲 > 100' is a leaf"),
        ("root > A", "丙", IllegalMoveError, r"no move '丙' at 'root > A'"),
    ],
)
def test_parse_move_errors_name_the_input_and_the_node(
    state: str, text: str, error: type[Exception], message: str
) -> None:
    game = example("night-market")
    with pytest.raises(error, match=message):
        game.parse_move(game.parse_state(state), text)


def test_play_applies_moves_by_label() -> None:
    game = example("night-market")
    state = play(game, play(game, 0, "B"), "丁")
    assert game.format_state(state) == "root > B > 丁"
    with pytest.raises(IllegalMoveError, match="game is over"):
        play(game, game.parse_state("root > B > 丁 > 0"), "1")


def test_parse_state_accepts_positions_and_loose_spacing() -> None:
    game = example("night-market")
    assert game.format_state(game.parse_state("root>2>丁>2")) == "root > B > 丁 > 0"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"'' is not a node: a path starts at the root 'root'"),
        ("A > 甲", r"'A > 甲' is not a node: a path starts at the root"),
        ("root > C", r"'root > C' is not a node: 'C' is not a move"),
        ("root > A > 丙", r"'root > A > 丙' is not a node: no move '丙' at 'root > A'"),
        ("root > A > 甲 > 100 > 1", r"is not a node: .*is a leaf"),
        ("root > > A", r"'root > > A' is not a node"),
    ],
)
def test_parse_state_errors(text: str, message: str) -> None:
    with pytest.raises(InvalidStateError, match=message):
        example("night-market").parse_state(text)


@given(trees())
def test_notation_round_trips_at_every_node(tree: Any) -> None:
    game = TreeGame(tree)
    for node in range(game.subtree_size(0)):
        assert game.parse_state(game.format_state(node)) == node
        for move in game.actions(node):
            assert game.parse_move(node, game.format_move(node, move)) == move
            assert game.parse_move(node, str(move + 1)) == move  # generated labels aren't digits


LABELS = st.sampled_from(["A", "B", "1", "2", "3", "A.1", "A.2", "1.2", "2.1", "甲"])


@st.composite
def labelled_trees(draw: st.DrawFn) -> Any:
    """Random trees where some nodes carry labels from a small set that often collides
    with the labels generated for their unlabelled siblings."""

    def relabel(node: Any) -> Any:
        label = draw(st.none() | LABELS)
        if isinstance(node, list):
            kids = [relabel(kid) for kid in node]
            return kids if label is None else {"label": label, "children": kids}
        return node if label is None else {"label": label, "value": node}

    return relabel(draw(trees(max_depth=4, max_nodes=40)))


@given(labelled_trees())
def test_labelled_trees_are_refused_for_clashes_or_round_trip(tree: Any) -> None:
    try:
        game = TreeGame(tree)
    except InvalidGameError as error:
        assert "duplicate label" in str(error)
        return
    for node in range(game.subtree_size(0)):
        assert game.parse_state(game.format_state(node)) == node
        written = [game.format_move(node, move) for move in game.actions(node)]
        assert len(set(written)) == len(written)
        assert [game.parse_move(node, label) for label in written] == list(game.actions(node))


@given(st.sampled_from(EXAMPLES), st.text(max_size=20), st.integers(0, 14))
def test_notation_parsers_raise_only_zerosum_errors(name: str, text: str, node: int) -> None:
    game = example(name)
    node %= game.subtree_size(0)
    for parse in (lambda: game.parse_move(node, text), lambda: game.parse_state(text)):
        with contextlib.suppress(ZerosumError):
            parse()


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("tree", "message"),
    [
        ([], r"^tree: at root: empty child list$"),
        ([[1], {"label": "A", "children": [2, []]}], r"^tree: at root > A > 2: empty child list$"),
        ([1, "2"], r"at root > 2: leaf value must be an integer, not str '2'"),
        ([1, None], r"at root > 2: leaf value must be an integer, not NoneType"),
        ([1, True], r"at root > 2: leaf value must be an integer, not bool True"),
        ([1, 2.5], r"at root > 2: leaf value must be an integer, not float 2.5"),
        ([1, float("nan")], r"at root > 2: leaf value must be an integer"),
        ([1, 10**12], r"at root > 2: leaf value 1000000000000 is out of range"),
        ([{"value": "x"}], r"at root > 1: leaf value must be an integer"),
        ({"children": [1], "estimate": "high"}, r"at root: estimate must be an integer"),
        ({"children": [1], "estimate": False}, r"at root: estimate must be an integer"),
        ({"children": {"a": 1}}, r"at root: 'children' must be a list, not dict"),
        ({"children": []}, r"at root: empty child list"),
        ({"label": 3, "children": [1]}, r"at root: label must be a string, not int 3"),
        ({"label": "", "children": [1]}, r"label is empty"),
        ({"label": " A", "children": [1]}, r"surrounding spaces"),
        ({"label": "a\nb", "children": [1]}, r"control characters"),
        ({"label": "a>b", "children": [1]}, r"contains '>'"),
        ({"children": [1], "colour": "red"}, r"at root: unknown key 'colour' in an inner node"),
        ([{"value": 1, "estimate": 2}], r"at root > 1: unknown key 'estimate' in a leaf"),
        ([{"value": 1, "children": [2]}], r"at root > 1: unknown key 'value' in an inner node"),
        ([{"label": "x"}], r"at root > x: a node object needs 'children'.* or 'value'"),
        ([{"title": "t", "value": 1}], r"at root > 1: unknown key 'title' in a leaf"),
        ({"title": 5, "children": [1]}, r"at root: 'title' must be a string"),
        ({"children": [1], 3: 4}, r"unknown key 3"),
        (
            [{"label": "A", "value": 1}, {"label": "A", "value": 2}],
            r"at root > A: duplicate label 'A'",
        ),
        ([{"label": "2", "value": 1}, 5], r"at root > 2: duplicate label '2'"),
        ([5, {"label": "1", "value": 1}], r"at root > 1: duplicate label '1'"),
        (
            [{"label": "A", "children": [{"label": "A.2", "value": 1}, 5]}],
            r"at root > A > 2: duplicate label 'A.2'",
        ),
        ("tree", r"at root: leaf value must be an integer, not str"),
        ({1, 2}, r"at root: leaf value must be an integer, not set"),
    ],
)
def test_malformed_trees_name_the_source_and_the_path(tree: Any, message: str) -> None:
    with pytest.raises(InvalidGameError, match=message):
        TreeGame(tree)


def test_a_list_that_contains_itself_is_refused() -> None:
    inner: list[Any] = [1]
    inner.append(inner)
    with pytest.raises(InvalidGameError, match=r"at root > 2 > 2: the tree contains itself"):
        TreeGame([0, inner])


def test_a_shared_subtree_is_copied_not_refused() -> None:
    shared = [1, 2]
    game = TreeGame([shared, shared])
    assert game.subtree_size(0) == 7


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"^doc.json: not valid JSON"),
        ("[1, 2", r"^doc.json: not valid JSON"),
        ("[1, 2] 3", r"^doc.json: not valid JSON"),
        ('{"children": [1], "children": [2]}', r"^doc.json: key 'children' appears twice"),
        ("[1, NaN]", r"^doc.json: at root > 2: leaf value must be an integer, not float nan"),
        ("[1, 1e400]", r"^doc.json: at root > 2: leaf value must be an integer, not float inf"),
        ("[" + "7" * 5000 + "]", r"^doc.json: not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, r"^doc.json: the JSON is nested too deeply"),
        ('{"children": [[]]}', r"^doc.json: at root > 1: empty child list$"),
    ],
)
def test_bad_json_names_the_source(text: str, message: str) -> None:
    with pytest.raises(InvalidGameError, match=message):
        TreeGame.from_json(text, source="doc.json")


def test_json_numbers_written_as_integral_floats_are_accepted() -> None:
    game = TreeGame.from_json("[1e2, -3.0]")
    assert [game.utility(n, 0) for n in (1, 2)] == [100, -3]


def test_load_tree_names_the_file(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text('{"title": "T", "children": [[1, 2], [3]]}', encoding="utf-8")
    game = load_tree(good)
    assert (game.info.name, game.info.title, game.info.solved_value) == ("good", "T", 3)
    assert load_tree(str(good), name="other").info.name == "other"
    bad = tmp_path / "bad.json"
    bad.write_text('{"children": [[1, 2], []]}', encoding="utf-8")
    with pytest.raises(InvalidGameError, match=rf"^{re.escape(str(bad))}: at root > 2: empty"):
        load_tree(bad)
    with pytest.raises(InvalidGameError, match=r"cannot read tree file .*missing.json"):
        load_tree(tmp_path / "missing.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"[1, \xff]")
    with pytest.raises(InvalidGameError, match=r"binary.json: not UTF-8"):
        load_tree(binary)


def test_a_tree_deeper_than_the_recursion_limit_loads_but_cannot_be_searched() -> None:
    depth = sys.getrecursionlimit() * 3
    game = TreeGame(chain(depth))
    assert game.subtree_size(0) == depth + 1
    assert game.info.solved_value == 1
    deepest = depth
    assert game.is_terminal(deepest) and game.to_move(deepest) == depth % 2
    assert game.parse_state(game.format_state(deepest)) == deepest
    with pytest.raises(SearchDepthError):
        alphabeta(game, 0)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=5)
    | st.sampled_from(["label", "children", "value", "estimate", "title"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["label", "children", "value", "estimate", "title", "description", "x"]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=25,
)


@given(JSON_VALUES)
def test_arbitrary_values_load_or_raise_invalid_game_error(value: Any) -> None:
    try:
        game = TreeGame(value)
    except InvalidGameError:
        return
    assert game.subtree_size(0) >= 1
    assert game.parse_state(game.format_state(0)) == 0


@given(st.text(max_size=60) | JSON_VALUES.map(json.dumps))
def test_arbitrary_text_loads_or_raises_invalid_game_error(text: str) -> None:
    with contextlib.suppress(InvalidGameError):
        TreeGame.from_json(text)
