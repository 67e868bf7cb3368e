"""Nim (normal and misère), subtraction games and the divisor game.

Who wins is checked against the textbook negamax (:mod:`zerosum.search.reference`). A
plain negamax of every small position would take minutes (Nim 5,5,5 alone has millions
of lines), so :class:`Oracle` runs the reference negamax one ply deep with an
evaluation that is the oracle's own value of the child, kept once found: by induction
that is exactly the full negamax value. The full negamax is run as well on the
positions small enough, to tie the two together.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import Bare, shared_data
from zerosum.game import (
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    ZerosumError,
)
from zerosum.games.impartial import report
from zerosum.games.nim import DivisorHeap, Nim, Subtraction, divisor, nim, subtraction
from zerosum.notation import play
from zerosum.search.grundy import GrundyTable, NotNormalPlayError
from zerosum.search.reference import negamax


def _cases() -> Any:
    path = shared_data("nim", "cases.json")
    return json.loads(path.read_text(encoding="utf-8"))


class Oracle(Bare):
    """Negamax values (for the side to move) of a game's states, by the reference
    negamax one ply deep over children valued the same way."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.memo: dict[Any, int] = {}

    def value(self, state: Any) -> int:
        found = self.memo.get(state)
        if found is None:
            found = negamax(self, state, depth=1).score
            self.memo[state] = found
        return found

    def evaluate(self, state: Any) -> int:
        return self.value(state)


def _nim_positions() -> list[tuple[int, ...]]:
    return [heaps for count in (1, 2, 3) for heaps in itertools.product(range(6), repeat=count)]


# --------------------------------------------------------------------------- the data


def test_the_subtraction_game_classification() -> None:
    case = _cases()["subtraction_1_2_3"]
    table = GrundyTable(Subtraction((0,), (1, 2, 3)))
    expected = case["classification_0_to_15"]
    found = "".join("W" if table.value(((k,), 0)) else "L" for k in range(len(expected)))
    assert found == expected
    assert all((table.value(((k,), 0)) == 0) == (k % 4 == 0) for k in range(200))
    assert [table.value(((k,), 1)) for k in range(200)] == [k % 4 for k in range(200)]


def test_the_divisor_game_classification() -> None:
    expected = _cases()["divisor_stick_game"]["classification_1_to_9"]
    game = DivisorHeap()
    table = GrundyTable(game)
    found = "".join("W" if table.value((k, 0)) else "L" for k in range(1, len(expected) + 1))
    assert found == expected
    oracle = Oracle(game)
    assert all((oracle.value((k, 0)) < 0) == (k % 2 == 1) for k in range(1, 60))


def test_the_handbook_nim_position() -> None:
    for case in _cases()["nim"]:
        game = nim(",".join(map(str, case["heaps"])))
        state = game.initial_state()
        answer = report(game, state)
        assert answer.value == case["nim_sum"]
        assert answer.to_move_wins is case["winning"]
        assert answer.winner == "the player to move"
        move = case["winning_move"]
        assert [(w.move, w.after) for w in answer.winning_moves] == [
            ((move["heap_index"], move["from"] - move["to"]), ",".join(map(str, case["after"])))
        ]
        after = game.result(state, answer.winning_moves[0].move)
        assert report(game, after).value == case["after_nim_sum"]
        assert report(game, after).winner == "the other player"


# --------------------------------------------------------------------------- cross-checks


def test_the_oracle_is_the_full_negamax_on_small_positions() -> None:
    for game, state in [
        (Nim((2, 3, 2)), ((2, 3, 2), 0)),
        (Nim((1, 2, 3), misere=True), ((1, 2, 3), 1)),
        (Subtraction((11,), (1, 2, 4)), ((11,), 0)),
    ]:
        oracle = Oracle(game)
        for heaps in itertools.product(*(range(h + 1) for h in state[0])):
            small = (heaps, state[1])
            assert oracle.value(small) == negamax(game, small).score


def test_nim_grundy_zero_is_a_loss_for_the_side_to_move() -> None:
    game = Nim((5, 5, 5))
    table, oracle = GrundyTable(game), Oracle(game)
    for heaps in _nim_positions():
        state = (heaps, len(heaps) % 2)
        value = table.value(state)
        assert (value == 0) == (oracle.value(state) < 0), heaps
        assert (value == 0) == game.is_losing(state)
        brute = [m for m in game.actions(state) if oracle.value(game.result(state, m)) < 0]
        assert table.winning_moves(state) == brute, heaps


def test_misere_nim_follows_its_rule() -> None:
    game = Nim((5, 5, 5), misere=True)
    oracle = Oracle(game)
    for heaps in _nim_positions():
        state = (heaps, 0)
        assert game.is_losing(state) == (oracle.value(state) < 0), heaps
        brute = [m for m in game.actions(state) if oracle.value(game.result(state, m)) < 0]
        answer = report(game, state)
        assert answer.value is None and answer.misere
        assert [w.move for w in answer.winning_moves] == brute, heaps
        assert answer.to_move_wins == (oracle.value(state) > 0)


def test_misere_differs_from_normal_play_only_at_small_heaps() -> None:
    normal, misere = Nim((1,)), Nim((1,), misere=True)
    for heaps in _nim_positions():
        same = normal.is_losing((heaps, 0)) == misere.is_losing((heaps, 0))
        assert same == (max(heaps) > 1), heaps


@settings(max_examples=25, deadline=None)
@given(allowed=st.sets(st.integers(1, 6), min_size=1, max_size=4))
def test_subtraction_grundy_zero_is_a_loss(allowed: set[int]) -> None:
    game = Subtraction((30,), tuple(allowed))
    table, oracle = GrundyTable(game), Oracle(game)
    for heap in range(31):
        state = ((heap,), heap % 2)
        assert (table.value(state) == 0) == (oracle.value(state) < 0), heap
        brute = [m for m in game.actions(state) if oracle.value(game.result(state, m)) < 0]
        assert table.winning_moves(state) == brute


def test_two_subtraction_heaps_are_solved_heap_by_heap() -> None:
    game = Subtraction((9, 14), (1, 3, 4))
    table, oracle = GrundyTable(game), Oracle(game)
    for heaps in itertools.product(range(10), range(15)):
        state = (heaps, 0)
        assert (table.value(state) == 0) == (oracle.value(state) < 0)
        brute = [m for m in game.actions(state) if oracle.value(game.result(state, m)) < 0]
        assert table.winning_moves(state) == brute


# --------------------------------------------------------------------------- notation


def test_moves_read_in_both_notations() -> None:
    game = nim("10,12,5")
    state = game.initial_state()
    assert game.parse_move(state, "1:3") == game.parse_move(state, " Take 3 from heap 1 ") == (0, 3)
    assert game.format_move(state, (2, 5)) == "3:5"
    after = play(game, state, "3:5")
    assert game.format_state(after) == "10,12,0;2"
    assert game.parse_state("10,12,0;2") == after
    single = subtraction("7", "1,2")
    assert single.parse_move(single.initial_state(), "take 2") == (0, 2)
    assert single.format_move(single.initial_state(), (0, 2)) == "2"


def test_a_state_may_hold_any_number_of_heaps() -> None:
    game = nim("3,4,5")
    state = game.parse_state("1, 2,3 ,4")
    assert state == ((1, 2, 3, 4), 0)
    assert GrundyTable(game).value(state) == 4
    assert game.render(state).splitlines() == [
        "heap 1:   1 |",
        "heap 2:   2 ||",
        "heap 3:   3 |||",
        "heap 4:   4 ||||",
        "first to move",
    ]


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("1:6", IllegalMoveError, "only 5 stones"),
        ("4:1", IllegalMoveError, "no heap 4"),
        ("1:0", IllegalMoveError, "at least one"),
        ("2", InvalidMoveError, "take K from heap H"),
        ("1:x", InvalidMoveError, "number of stones"),
        ("take -1 from heap 1", InvalidMoveError, "H:K"),
    ],
)
def test_bad_moves_are_named(text: str, error: type[Exception], words: str) -> None:
    game = nim("5,5,5")
    with pytest.raises(error, match=words) as caught:
        game.parse_move(game.initial_state(), text)
    assert repr(text) in str(caught.value) and "5,5,5" in str(caught.value)


def test_a_finished_game_takes_no_move() -> None:
    game = subtraction("2", "3")
    with pytest.raises(IllegalMoveError, match="game is over"):
        play(game, game.initial_state(), "3")


@pytest.mark.parametrize("text", ["", "1,-2", "1,,x", "3;3", "1.5", "9" * 40])
def test_bad_states_are_named(text: str) -> None:
    with pytest.raises(InvalidStateError) as caught:
        nim().parse_state(text)
    assert repr(text) in str(caught.value)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: nim("3,-4"), "-4 is not 0 or more"),
        (lambda: nim(""), "empty"),
        (lambda: nim("3,x"), "'x' is not a number"),
        (lambda: nim("3", misere=2), "misere=2"),
        (lambda: subtraction("5", ""), "empty"),
        (lambda: subtraction("5", "1,0"), "0 is not 1 or more"),
        (lambda: subtraction("5", "-2"), "-2 is not 1 or more"),
        (lambda: divisor("0"), "0 is not 1 or more"),
        (lambda: divisor("4,5"), "one heap"),
        (lambda: Nim(()), "at least one heap"),
        (lambda: Subtraction((4,), ()), "at least one"),
    ],
)
def test_bad_games_are_named(make: Any, words: str) -> None:
    with pytest.raises(InvalidGameError, match=words):
        make()


def test_misere_without_a_rule_is_refused_by_the_report() -> None:
    game = Subtraction((5,), (1, 2))
    game.misere = True
    with pytest.raises(NotNormalPlayError, match="no rule"):
        report(game, game.initial_state())


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=20))
def test_parsers_raise_only_zerosum_errors(text: str) -> None:
    game = nim("3,4,5")
    for parse in (
        game.parse_state,
        lambda t: game.parse_move(game.initial_state(), t),
        nim,
        lambda t: subtraction("4", t),
        divisor,
    ):
        with contextlib.suppress(ZerosumError):
            parse(text)


@settings(max_examples=100, deadline=None)
@given(heaps=st.lists(st.integers(0, 10**6), min_size=1, max_size=6), mover=st.integers(0, 1))
def test_states_round_trip(heaps: list[int], mover: int) -> None:
    game = nim()
    state = (tuple(heaps), mover)
    assert game.parse_state(game.format_state(state)) == state
