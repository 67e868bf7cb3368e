"""Playing from the keyboard in a real Chromium: the board's cursor moved with the arrow
keys and Enter, and moves typed in the game's notation (read by its parse_move, its
errors shown, the game left as it was)."""

from __future__ import annotations

from typing import Any

import chess
import pytest

from zerosum.game import IllegalMoveError, InvalidMoveError, ZerosumError
from zerosum.games import registry
from zerosum.notation import parse_move

IDLE = (
    "() => !document.querySelector('#result').hidden || !document.querySelector('#hint').disabled"
)
"""The page waits for the person: the game is over, or it is their move."""


def start(page: Any, game: str, *, side: int = 0) -> None:
    page.select_option("#game-select", game)
    page.fill("#think-input", "0.05")
    page.select_option("#side-select", str(side))
    page.click("#new-game")
    page.wait_for_function(
        "() => document.querySelector('#game-title').textContent.includes('you are')"
    )
    page.wait_for_function(IDLE)


def played(page: Any) -> list[str]:
    return [str(text) for text in page.locator("#move-list li .text").all_text_contents()]


def wait_for_moves(page: Any, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#move-list li').length >= {count}")
    page.wait_for_function(IDLE)


def press(page: Any, *keys: str) -> None:
    for key in keys:
        page.keyboard.press(key)


def test_tictactoe_by_arrows_and_enter(page: Any) -> None:
    game = registry.make("tictactoe")
    state = game.initial_state()
    view = game.board(state)
    start(page, "tictactoe")
    page.focus("#board")
    # the cursor starts on the centre; Enter plays what a click there plays
    assert page.locator("#board .cursor").count() == 1
    centre = game.format_move(state, view.targets[4])
    assert page.text_content("#board-cursor") == f"Cursor: {centre}: Enter plays {centre}"
    press(page, "Enter")
    wait_for_moves(page, 2)
    assert played(page)[0] == centre
    # up and left from the centre is the top left corner, cell 0, if still free
    state = game.result(state, view.targets[4])
    state = game.result(state, parse_move(game, state, played(page)[1]))
    press(page, "ArrowUp", "ArrowLeft")
    corner = game.board(state).targets.get(0)
    if corner is None:  # the engine took the corner: the cell to its right then
        press(page, "ArrowRight")
        corner = game.board(state).targets[1]
    press(page, "Enter")
    wait_for_moves(page, 3)
    assert played(page)[2] == game.format_move(state, corner)
    assert page.errors == []


def test_chess_by_arrows_with_a_flipped_board(page: Any) -> None:
    start(page, "chess", side=1)  # black: the board is turned round, the engine opens
    wait_for_moves(page, 1)
    page.focus("#board")
    # the cursor starts on the centre cell, e4; the arrows go as the board is drawn,
    # black's side at the bottom: down three rows is e7
    assert (page.text_content("#board-cursor") or "").startswith("Cursor: e4")
    press(page, "ArrowDown", "ArrowDown", "ArrowDown")
    assert (page.text_content("#board-cursor") or "").startswith("Cursor: e7: Enter picks")
    press(page, "Enter", "ArrowUp", "ArrowUp")
    assert page.text_content("#board-cursor") == "Cursor: e5: Enter moves e7 here"
    press(page, "Enter")
    wait_for_moves(page, 3)
    board = chess.Board()
    board.push_san(played(page)[0])
    assert played(page)[1] == board.san(chess.Move.from_uci("e7e5"))
    assert page.errors == []


def refusal(error: BaseException) -> str:
    """What Chromium logs for the server's answer to a refused move, its only error."""
    status = "409 (Conflict)" if isinstance(error, IllegalMoveError) else "400 (Bad Request)"
    return f"Failed to load resource: the server responded with a status of {status}"


def typed(page: Any, text: str) -> None:
    page.fill("#move-input", text)
    page.press("#move-input", "Enter")


@pytest.mark.parametrize("text", ["e5", "hello", "Ke2"])
def test_a_wrong_typed_move_shows_the_games_error(page: Any, text: str) -> None:
    game = registry.make("chess")
    state = game.initial_state()
    with pytest.raises(ZerosumError) as refused:
        parse_move(game, state, text)
    start(page, "chess")
    typed(page, text)
    page.wait_for_selector("#error:not([hidden])")
    assert page.text_content("#error-text") == str(refused.value)
    # nothing moved, the board is whole and still plays; the text waits to be corrected
    assert played(page) == []
    assert page.locator("#board .cell").count() == 64
    assert page.input_value("#move-input") == text
    page.click("#board .cell[data-index='52']")  # e2
    page.click("#board .cell[data-index='36']")  # e4
    wait_for_moves(page, 2)
    assert played(page)[0] == "e4"
    assert page.errors == [refusal(refused.value)]


def test_a_typed_move_is_played(page: Any) -> None:
    start(page, "chess")
    typed(page, "g1f3")  # UCI is read as well as SAN, and played as SAN
    wait_for_moves(page, 2)
    assert played(page)[0] == chess.Board().san(chess.Move.from_uci("g1f3"))
    assert page.input_value("#move-input") == ""
    assert page.is_hidden("#error")
    assert page.errors == []


def test_a_typed_move_in_a_game_of_heaps(page: Any) -> None:
    game = registry.make("nim")
    state = game.initial_state()
    first = game.format_move(state, game.actions(state)[0])
    with pytest.raises(InvalidMoveError) as refused:
        parse_move(game, state, "take all")
    start(page, "nim")
    typed(page, "take all")
    page.wait_for_selector("#error:not([hidden])")
    assert page.text_content("#error-text") == str(refused.value)
    typed(page, first)
    wait_for_moves(page, 1)
    assert played(page)[0] == first
    assert page.errors == [refusal(refused.value)]
