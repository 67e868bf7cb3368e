"""The checked layer for any game: the game's own notation where it has one, ``str``
where it has not, and :class:`MissingCapabilityError` (never ``AttributeError``) for
what cannot be done without it."""

from __future__ import annotations

import pytest

from bare_games import BareNim, make_alike
from zerosum import notation
from zerosum.game import IllegalMoveError, InvalidMoveError, MissingCapabilityError
from zerosum.games.mnk import tictactoe

BARE = BareNim("1,2")
START = BARE.initial_state()


def test_a_bare_game_writes_and_reads_moves_as_str() -> None:
    label = notation.move_formatter(BARE)
    assert [label(START, m) for m in BARE.actions(START)] == ["(0, 1)", "(1, 1)", "(1, 2)"]
    for move in BARE.actions(START):
        written = notation.format_move(BARE, START, move)
        assert notation.parse_move(BARE, START, written) == move
    assert notation.parse_move(BARE, START, "  (1, 2) ") == (1, 2)  # spaces around
    assert notation.play(BARE, START, "(1, 2)") == ((1, 0), 1)


def test_a_bare_game_refuses_text_that_is_no_legal_move() -> None:
    with pytest.raises(IllegalMoveError) as error:
        notation.parse_move(BARE, START, "(1, 3)")
    message = str(error.value)
    assert "illegal move '(1, 3)' in ((1, 2), 0)" in message
    assert "the legal moves are (0, 1), (1, 1), (1, 2)" in message
    with pytest.raises(IllegalMoveError, match="the game is over in"):
        notation.parse_move(BARE, ((0, 0), 1), "(0, 1)")


def test_a_long_list_of_legal_moves_is_cut_short() -> None:
    wide = BareNim("30")
    with pytest.raises(IllegalMoveError, match=r"\(0, 20\) and 10 more$"):
        notation.parse_move(wide, wide.initial_state(), "x")


def test_moves_written_alike_need_the_game_s_own_notation() -> None:
    game = make_alike()
    with pytest.raises(MissingCapabilityError, match="writes 2 legal moves as 'take'"):
        notation.parse_move(game, game.initial_state(), "take")


def test_a_bare_game_is_drawn_with_str_and_cannot_read_positions() -> None:
    assert notation.render(BARE, START) == "((1, 2), 0)"
    assert notation.format_state(BARE, START) == "((1, 2), 0)"
    with pytest.raises(MissingCapabilityError, match="'bare-nim' cannot read a position"):
        notation.parse_state(BARE, "((1, 2), 0)")


def test_a_game_with_notation_uses_its_own() -> None:
    game = tictactoe()
    state = game.parse_state("x../.o./...")
    assert notation.format_move(game, state, 2) == game.format_move(state, 2)
    assert notation.parse_move(game, state, "c3") == game.parse_move(state, "c3")
    with pytest.raises(InvalidMoveError, match="'zz'"):
        notation.parse_move(game, state, "zz")
    assert notation.render(game, state) == game.render(state)
    assert notation.format_state(game, state) == "x../.o./..."
    assert notation.parse_state(game, "x../.o./...") == state


def test_a_lenient_parser_cannot_let_an_illegal_move_through() -> None:
    class Lenient(BareNim):
        def parse_move(self, state: object, text: str) -> tuple[int, int]:
            return (0, 5)  # reads anything, even what the rules forbid

    game = Lenient("1,2")
    with pytest.raises(IllegalMoveError, match="illegal move 'a' in"):
        notation.parse_move(game, game.initial_state(), "a")


def test_a_position_is_written_with_format_state_when_there_is_no_render() -> None:
    class Written(BareNim):
        def format_state(self, state: tuple[tuple[int, ...], int]) -> str:
            return ",".join(map(str, state[0]))

    assert notation.render(Written("1,2"), START) == "1,2"
