"""Every user-facing parser of the built-in games, on any text, either succeeds or raises
one of zerosum's own errors, with a message of bounded length.

Python's ``int`` refuses text past 4,300 digits with a plain ``ValueError`` and reads
full-width and other Unicode digits (``int("７") == 7``) and underscores
(``int("1_0") == 10``), so every reader must check its digits first. An error message
quotes the input (:func:`zerosum.game.quoted`) but never all of a long input: a
megabyte of bad text must not come back as a megabyte of error.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.game import IllegalMoveError, InvalidGameError, InvalidMoveError, ZerosumError
from zerosum.games import stones
from zerosum.games.connect4 import Connect4
from zerosum.games.impartial import GraphGame, Sum, graph, graph_from_json, maze
from zerosum.games.mnk import MNKGame, tictactoe
from zerosum.games.nim import NimHeap, divisor, nim, subtraction
from zerosum.games.registry import make
from zerosum.games.tree import TreeGame, example

MESSAGE_LIMIT = 400
"""The longest error message any input may cause."""

Parser = Callable[[str], Any]


def _games() -> list[Any]:
    """One or two instances of every game defined in the modules under test."""
    return [
        nim(),
        nim("3,4,5", misere=1),
        subtraction(),
        divisor(),
        NimHeap(7),
        graph(),
        maze(),
        Sum([graph(), maze(), NimHeap(4)]),
        stones.predict_the_winner_game(),
        stones.stones(),
        stones.stones_ii(),
        stones.stones_iii(),
        stones.stones_vii(),
        tictactoe(),
        MNKGame(5, 4, 3),
        Connect4(),
        Connect4(5, 4),
        example("night-market"),
        TreeGame.from_json('{"children": [{"label": "A.1", "children": [1, 2]}, [3], 4]}'),
    ]


def _move_parser(game: Any, state: Any) -> Parser:
    return lambda text: game.parse_move(state, text)


def _parsers() -> list[tuple[str, Parser]]:
    """Every parser a person's text reaches: moves (at the start and one move in),
    states, and the factories' options."""
    parsers: list[tuple[str, Parser]] = []
    for game in _games():
        name = repr(game) if game.info.name in ("mnk", "connect4") else game.info.name
        start = game.initial_state()
        parsers.append((f"{name}.parse_state", game.parse_state))
        parsers.append((f"{name}.parse_move", _move_parser(game, start)))
        later = game.result(start, game.actions(start)[0])
        parsers.append((f"{name}.parse_move later", _move_parser(game, later)))
    factories: list[tuple[str, Parser]] = [
        ("nim heaps", nim),
        # a spec hands an option that is not a number to the factory as text, whatever
        # the factory's annotation says
        ("nim misere", lambda text: nim("3", misere=text)),  # type: ignore[arg-type]
        ("subtraction heaps", subtraction),
        ("subtraction moves", lambda text: subtraction("9", text)),
        ("divisor", divisor),
        ("graph edges", lambda text: graph(edges=text)),
        ("graph start", lambda text: graph(start=text)),
        ("graph json", graph_from_json),
        ("maze grid", lambda text: maze(grid=text)),
        ("maze start", lambda text: maze(start=text)),
        ("stones parse_values", stones.parse_values),
        ("predict-the-winner", stones.predict_the_winner_game),
        ("stones", stones.stones),
        ("stones-ii", stones.stones_ii),
        ("stones-iii", stones.stones_iii),
        ("stones-vii", stones.stones_vii),
        ("mnk m", MNKGame),  # type: ignore[list-item]
        ("connect4 width", Connect4),  # type: ignore[list-item]
        ("tree json", TreeGame.from_json),
        ("tree example", example),
    ]
    return parsers + factories


PARSERS = _parsers()

PREFIXES = [
    "", "-", "+", "left ", "right ", "l ", "take ", "1:", "2:", "take 3 from heap ",
    "left=", "left=0 right=", "taken=", "taken=0 m=", "score=", "score=1:", "turn=", "a",
    "z", "up ", "left 1", "root > ", "root > A > ", "A.", "1.", "3;", "3,4,", "[", "[[1, ",
    '{"edges": [[1, ', '{"children": [', '[{"label": "',
]  # fmt: skip
"""Starts that steer long digit strings into each reader's number branch."""

SUFFIXES = ["", ":3", ":1", ";2", " from heap 1", ",5", "]", "]]", "]]}", ">b", " > 1", '"}]']

UNICODE_DIGITS = "٣７１੩߂𝟘⁵½①"
"""Characters Python's ``int`` or ``str.isdigit`` accept that are not ASCII digits."""

LONG_NUMBERS = st.builds(
    lambda prefix, digits, suffix: prefix + digits + suffix,
    st.sampled_from(PREFIXES),
    st.integers(4300, 6000).map(lambda n: "1" * n) | st.integers(13, 40).map(lambda n: "9" * n),
    st.sampled_from(SUFFIXES),
)

NUMBERISH = st.text(
    alphabet=st.sampled_from("0123456789_+-:;,.>/= abcxlrt" + UNICODE_DIGITS), max_size=40
)

HUGE_LISTS = st.builds(
    lambda items, separator: separator.join(items),
    st.lists(st.sampled_from(["1", "0", "12", "a>b", "x", "-3", "1" * 30]), max_size=3000),
    st.sampled_from([",", " ", ", ", ">", " > "]),
)

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | st.sampled_from(["children", "value", "label", "edges", "a", "1", "x" * 500]),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(
            st.sampled_from(["children", "value", "label", "estimate", "title", "edges", "nodes"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=30,
).map(json.dumps)

TEXTS = st.one_of(st.text(max_size=30), NUMBERISH, LONG_NUMBERS, HUGE_LISTS, JSON_VALUES)


def _check(name: str, parse: Parser, text: str) -> None:
    """Run ``parse``: a success, or one of our errors with a short message."""
    try:
        parse(text)
    except ZerosumError as error:
        message = str(error)
    else:
        return
    length = len(message)  # outside the handler, so a failure does not print it all
    assert length < MESSAGE_LIMIT, f"{name}: {length} characters: {message[:200]}"


@settings(max_examples=150, deadline=None)
@given(text=TEXTS)
def test_every_parser_raises_only_zerosum_errors_with_short_messages(text: str) -> None:
    for name, parse in PARSERS:
        _check(name, parse, text)


@pytest.mark.parametrize(
    "text",
    [
        "1" * 1_000_000,
        "x" * 1_000_000,
        "1." * 500_000 + "1",
        "left " + "1" * 1_000_000,
        "1:" + "1" * 1_000_000,
        "root > " + "1 > " * 250_000,
        ",".join(["1"] * 500_000),
    ],
    ids=["digits", "letters", "dotted", "left digits", "colon digits", "path", "list"],
)
def test_a_megabyte_of_input_is_refused_briefly(text: str) -> None:
    for name, parse in PARSERS:
        _check(name, parse, text)


def test_a_stone_value_past_4300_digits_is_an_illegal_move() -> None:
    game = make("stones-vii")
    state = game.initial_state()
    with pytest.raises(IllegalMoveError, match="the left stone is 4, not a number of 5,000") as e:
        game.parse_move(state, "left " + "1" * 5000)
    assert "(5,005 characters)" in str(e.value) and len(str(e.value)) < MESSAGE_LIMIT


def test_a_heap_number_past_4300_digits_is_an_illegal_move() -> None:
    game = nim()
    with pytest.raises(IllegalMoveError, match="there is no heap") as caught:
        game.parse_move(game.initial_state(), "take 3 from heap " + "1" * 5000)
    assert len(str(caught.value)) < MESSAGE_LIMIT


@pytest.mark.parametrize("text", ["１:3", "٣:1", "1_0:1"])
def test_a_heap_number_must_be_ascii_digits(text: str) -> None:
    game = nim("3,4,5")
    with pytest.raises(InvalidMoveError, match="is not a heap number"):
        game.parse_move(game.initial_state(), text)


def test_a_megabyte_label_is_cut_from_a_tree_error() -> None:
    text = json.dumps([{"label": "x" * 1_000_000, "children": [{"value": "v"}]}])
    with pytest.raises(InvalidGameError, match=r"^doc.json: at 'root > xxx") as caught:
        TreeGame.from_json(text, source="doc.json")
    assert "leaf value must be an integer, not str 'v'" in str(caught.value)
    assert len(str(caught.value)) < MESSAGE_LIMIT


def test_an_out_of_range_leaf_is_named_by_its_size() -> None:
    with pytest.raises(InvalidGameError, match="leaf value of 13,288 bits is out of range"):
        TreeGame.from_json("[" + "7" * 4000 + "]")


def test_a_long_cycle_is_shown_in_part() -> None:
    edges = [(i, i + 1) for i in range(50_000)] + [(50_000, 7)]
    with pytest.raises(InvalidGameError, match=r"cycle through node '7' \(7 -> 8 -> ") as caught:
        GraphGame(edges)
    assert len(str(caught.value)) < MESSAGE_LIMIT


def test_a_long_list_of_stone_values_is_shown_in_part() -> None:
    with pytest.raises(InvalidGameError, match=r"values \(1, 1, 1, 1, \.\.\.\) must") as e:
        stones.parse_values([1] * 1_000_000 + ["x"])  # type: ignore[list-item]
    assert len(str(e.value)) < MESSAGE_LIMIT
