"""Othello's checked layer: moves and positions read back what is written, bad input
raises the project's errors naming it, and the registry, board view and pictures."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import shared_data
from zerosum.game import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
    ZerosumError,
)
from zerosum.games import registry
from zerosum.games.othello import START, Othello, State
from zerosum.games.othello.rules import PASS

GAME = Othello()


def _line(seed: int) -> list[State]:
    """Every state of one random game."""
    rng = random.Random(seed)
    state, line = START, [START]
    while not GAME.is_terminal(state):
        state = GAME.result(state, rng.choice(GAME.actions(state)))
        line.append(state)
    return line


def test_the_registry_makes_othello() -> None:
    game = registry.make("othello")
    assert isinstance(game, Othello)
    assert game.info.utility_range == (-64, 64) and not game.info.win_loss


def test_the_start_position() -> None:
    assert GAME.format_state(START) == "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"
    assert [GAME.format_move(START, m) for m in GAME.actions(START)] == ["d3", "c4", "f5", "e6"]


@pytest.mark.parametrize("text", ["d3", "D3", " d3 ", "D3\n"])
def test_squares_read_in_either_case(text: str) -> None:
    assert GAME.parse_move(START, text) == 19


@pytest.mark.parametrize("text", ["pass", "PASS", "ps", "PA", "Pass"])
def test_a_pass_reads_in_the_usual_forms(text: str) -> None:
    state = next(s for seed in range(50) for s in _line(seed) if s[3] == 1 << PASS)
    assert GAME.parse_move(state, text) == PASS
    assert GAME.format_move(state, PASS) == "pass"


@pytest.mark.parametrize("text", ["", "d", "d9", "i3", "3d", "d33", "hello", "@@"])
def test_text_that_is_no_move_is_an_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="not an othello move") as error:
        GAME.parse_move(START, text)
    assert repr(text) in str(error.value) and GAME.format_state(START) in str(error.value)


@pytest.mark.parametrize(
    ("text", "why"),
    [("a1", "flips no disc"), ("d4", "square is taken"), ("pass", "only when it has no")],
)
def test_moves_the_rules_forbid_are_illegal(text: str, why: str) -> None:
    with pytest.raises(IllegalMoveError, match=why) as error:
        GAME.parse_move(START, text)
    assert repr(text) in str(error.value)


def test_a_side_that_must_pass_may_only_pass() -> None:
    state = next(s for seed in range(50) for s in _line(seed) if s[3] == 1 << PASS)
    empty = next(sq for sq in range(64) if not (state[0] | state[1]) >> sq & 1)
    with pytest.raises(IllegalMoveError, match="must pass"):
        GAME.parse_move(state, "abcdefgh"[empty & 7] + str((empty >> 3) + 1))


def test_no_move_is_legal_once_the_game_is_over() -> None:
    end = _line(1)[-1]
    with pytest.raises(IllegalMoveError, match="game is over"):
        GAME.parse_move(end, "pass")


def test_every_position_and_move_of_random_games_reads_back() -> None:
    for seed in range(6):
        for state in _line(seed):
            text = GAME.format_state(state)
            assert GAME.parse_state(text) == state
            assert GAME.parse_state(text.replace(" ", "")) == state
            for move in GAME.actions(state):
                assert GAME.parse_move(state, GAME.format_move(state, move)) == move
                assert GAME.parse_move(state, GAME.format_move(state, move).upper()) == move


def test_the_ffo_files_read_as_positions() -> None:
    for name in ("fforum-1-19.obf", "fforum-20-39.obf"):
        for line in shared_data("othello", name).read_text().splitlines():
            state = GAME.parse_state(line)
            assert GAME.format_state(state) == line.split(";")[0].strip()
            scored = {field.split(":")[0].strip().lower() for field in line.split(";")[1:-1]}
            assert scored == {GAME.format_move(state, m) for m in GAME.actions(state)}


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "64 squares"),
        ("X" * 64, "64 squares"),
        ("X" * 63 + " X", "63 squares"),
        ("-" * 64 + " X", "centre squares"),
        ("X" * 64 + " Z", "not X or O"),
        ("Q" + "X" * 63 + " X", "square a1 holds 'Q'"),
        ("X" * 10_000 + " X", "longer than"),
    ],
)
def test_bad_positions_are_invalid_states(text: str, why: str) -> None:
    with pytest.raises(InvalidStateError, match=why):
        GAME.parse_state(text)


@given(st.text(max_size=80))
def test_any_text_reads_as_a_position_or_fails_with_our_error(text: str) -> None:
    try:
        state = GAME.parse_state(text)
    except InvalidStateError:
        return
    assert GAME.parse_state(GAME.format_state(state)) == state


@given(st.text(max_size=8))
def test_any_text_reads_as_a_move_or_fails_with_our_error(text: str) -> None:
    try:
        move = GAME.parse_move(START, text)
    except ZerosumError:
        return
    assert move in GAME.actions(START)


@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.sampled_from("XO"))
def test_random_boards_round_trip(black: int, white: int, side: str) -> None:
    white &= ~black
    squares = "".join("X" if black >> s & 1 else "O" if white >> s & 1 else "-" for s in range(64))
    text = f"{squares} {side}"
    try:
        state = GAME.parse_state(text)
    except InvalidStateError:
        assert (black | white) & 0x1818000000 != 0x1818000000
        return
    assert GAME.format_state(state) == text


def test_the_picture_shows_discs_moves_and_the_side_to_move() -> None:
    picture = GAME.render(START)
    assert picture.splitlines()[3] == "3 - - - . - - - - 3"
    assert picture.splitlines()[4] == "4 - - . O X - - - 4"
    assert picture.splitlines()[-1] == "X 2, O 2: X (black) to move"


def test_the_board_view_plays_the_legal_squares_and_the_pass() -> None:
    view = GAME.board(START)
    assert (view.width, view.height, view.kind) == (8, 8, "squares")
    assert view.cells[27] == 1 and view.cells[28] == 0 and view.cells[0] is None
    assert view.targets == {19: 19, 26: 26, 37: 37, 44: 44}
    state = next(s for seed in range(50) for s in _line(seed) if s[3] == 1 << PASS)
    targets = GAME.board(state).targets
    assert set(targets.values()) == {PASS}
    assert set(targets) == {sq for sq in range(64) if not (state[0] | state[1]) >> sq & 1}
