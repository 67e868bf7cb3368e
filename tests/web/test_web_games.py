"""Every registered game played in a real Chromium by clicks on its board (or its list of
moves when it draws none), to its end or 20 moves; the page looked at on a desktop and
on a phone: nothing wider than the screen, no console errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from zerosum.games import registry
from zerosum.web.sessions import Recipe, Session, make_game, session_view

PLIES = 20
"""The moves (both sides) a game is played for when it does not end sooner."""

SCREENS = ((1280, 800), (390, 844))
"""A desktop and a phone."""

IDLE = (
    "() => !document.querySelector('#result').hidden || !document.querySelector('#hint').disabled"
)
"""The page waits for the person: the game is over, or it is their move and nothing is
on its way (the hint button is enabled only then)."""


def start(page: Any, game: str, *, side: int = 0, position: str = "") -> None:
    page.select_option("#game-select", game)
    page.fill("#think-input", "0.05")
    page.select_option("#side-select", str(side))
    page.fill("#position-input", position)
    page.click("#new-game")
    page.wait_for_function(
        "() => document.querySelector('#game-title').textContent.includes('you are')"
    )
    page.wait_for_function(IDLE)


def moves_played(page: Any) -> int:
    return int(page.locator("#move-list li").count())


def click_a_move(page: Any, turn: int) -> None:
    """Make one move by clicks, as a person would: a target on the board, a piece and
    one of its destinations, or a button of the list for a game without a board."""
    if page.locator("#board svg").count() == 0:
        buttons = page.locator("#legal button[data-move]")
        buttons.nth(turn % buttons.count()).click()
        return
    targets = page.locator("#board .cell.target")
    if targets.count():
        targets.nth(turn * 7 % targets.count()).click()
        return
    pieces = page.locator("#board .cell.from")
    pieces.nth(turn * 3 % pieces.count()).click()
    destinations = page.locator("#board .cell.destination")
    destinations.nth(turn % destinations.count()).click()
    if page.is_visible("#promotion"):
        page.locator("#promotion button[data-move]").first.click()


def fits(page: Any, width: int) -> None:
    """Nothing on the page is wider than the screen (no sideways scrolling)."""
    widest = page.evaluate("() => document.documentElement.scrollWidth")
    assert widest <= width, f"the page is {widest} px wide on a {width} px screen"


@pytest.mark.parametrize("name", registry.names())
def test_a_game_is_played_by_clicks(page: Any, artifacts: Path, name: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    start(page, name)
    turn = 0
    while moves_played(page) < PLIES and not page.is_visible("#result"):
        before = moves_played(page)
        click_a_move(page, turn)
        turn += 1
        page.wait_for_function(
            f"() => document.querySelectorAll('#move-list li').length > {before}"
        )
        page.wait_for_function(IDLE)
    assert page.is_visible("#result") or moves_played(page) >= PLIES
    assert page.locator("#error").is_hidden(), page.text_content("#error-text")
    if page.is_visible("#result") and page.locator("#board svg").count():
        line = page.locator("#board .win-line").count()
        won = page.get_attribute("#result", "data-outcome") != "draw"
        if name in ("tictactoe", "mnk", "connect4", "gomoku"):
            assert line == (1 if won else 0)  # a won game shows its line, a draw none
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(artifacts / f"game-{name}-{width}.png"), full_page=True)
        fits(page, width)
    assert page.errors == []


CASTLE_AND_CAPTURE = "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3"
"""Black to move after 1. e4 e5 2. Nf3 Nc6 3. d4: exd4 is a capture."""


def test_chess_by_click_click_drag_and_promotion(page: Any, artifacts: Path) -> None:
    start(page, "chess", side=1, position=CASTLE_AND_CAPTURE)
    # black sees its side at the bottom: h1 is drawn at the top, a8 at the bottom
    h1 = float(page.get_attribute("#board .cell[data-index='63']", "y") or 0)
    a8 = float(page.get_attribute("#board .cell[data-index='0']", "y") or 0)
    assert h1 < a8
    files = page.locator("#board .coord:not(.rank)").evaluate_all(
        "labels => Object.fromEntries("
        "labels.map(l => [l.textContent, Number(l.getAttribute('x'))]))"
    )
    assert files["h"] < files["a"]
    # a capture by two clicks: the e5 pawn, then d4 (offered as a capture)
    page.click("#board .cell[data-index='28']")  # e5
    assert page.locator("#board .cell.selected").count() == 1
    destinations = page.locator("#board .cell.destination")
    assert sorted(destinations.evaluate_all("cells => cells.map(c => c.dataset.moves)")) == ["exd4"]
    assert page.locator("#board .dot.capture").count() == 1
    page.click("#board .cell[data-index='35']")  # d4
    page.wait_for_function("() => document.querySelectorAll('#move-list li').length >= 2")
    page.wait_for_function(IDLE)
    assert page.locator("#move-list li .text").first.text_content() == "exd4"
    # the last move is marked: the engine's from- and to-squares at least
    assert page.locator("#board .cell.last").count() >= 2
    # a second click on the selected piece puts it down again
    page.locator("#board .cell.from").first.click()
    assert page.locator("#board .cell.selected").count() == 1
    page.locator("#board .cell.selected").click()
    assert page.locator("#board .cell.selected").count() == 0
    # a move by drag and drop: g8's knight to f6 (white has no check to stop it)
    before = page.locator("#move-list li").count()
    page.drag_and_drop("#board .cell[data-index='6']", "#board .cell[data-index='21']")
    page.wait_for_function(f"() => document.querySelectorAll('#move-list li').length > {before}")
    page.wait_for_function(IDLE)
    assert page.locator("#move-list li .text").nth(before).text_content() == "Nf6"
    page.screenshot(path=str(artifacts / "chess-clicks.png"), full_page=True)
    # review: step back to the start and forward again
    page.click("#review-first")
    page.wait_for_function("() => document.querySelector('#review-text').textContent !== ''")
    assert page.input_value("#position-text") == CASTLE_AND_CAPTURE
    assert page.locator("#board .cell.from").count() == 0  # nothing to click in review
    page.click("#review-last")
    assert page.text_content("#review-text") == ""
    assert page.errors == []


def test_chess_promotion_is_chosen(page: Any, artifacts: Path) -> None:
    start(page, "chess", position="8/1P4k1/8/8/8/8/6K1/8 w - - 0 1")
    page.click("#board .cell[data-index='9']")  # b7
    page.click("#board .cell[data-index='1']")  # b8
    page.wait_for_selector("#promotion:not([hidden])")
    choices = page.locator("#promotion button[data-move]").all_text_contents()
    assert sorted(choices) == ["b8=B", "b8=N", "b8=Q", "b8=R"]
    page.screenshot(path=str(artifacts / "chess-promotion.png"), full_page=True)
    page.click("#promotion button[data-move='b8=N']")
    page.wait_for_function("() => document.querySelectorAll('#move-list li').length >= 1")
    assert page.locator("#move-list li .text").first.text_content() == "b8=N"
    assert page.get_attribute("#board .piece[data-index='1']", "data-piece") == "N"
    assert page.errors == []


def test_double_clicks_never_reach_the_server_twice(page: Any) -> None:
    start(page, "connect4")
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if r.url.endswith("/move") else None)
    page.dblclick("#board .cell[data-move='4']")
    page.wait_for_function("() => document.querySelectorAll('#move-list li').length >= 2")
    page.wait_for_function(IDLE)
    assert len(requests) == 1
    assert page.locator("#error").is_hidden()
    assert page.errors == []


def test_resign_swap_and_levels(page: Any) -> None:
    page.on("dialog", lambda dialog: dialog.accept())
    page.select_option("#game-select", "tictactoe")
    page.select_option("#level-select", "casual")
    assert page.input_value("#think-input") == "0.25"
    page.click("#new-game")
    page.wait_for_function(IDLE)
    shown = page.text_content("#level-shown") or ""
    assert shown == "Engine level: casual (3 plies ahead, 0.25 s per move)"
    page.click("#swap")  # the engine takes X and moves
    page.wait_for_function("() => document.querySelectorAll('#move-list li').length === 1")
    page.wait_for_function(IDLE)
    assert "you are O" in (page.text_content("#game-title") or "")
    page.click("#resign")
    page.wait_for_selector("#result:not([hidden])")
    assert page.get_attribute("#result", "data-outcome") == "loss"
    assert "resigns" in (page.text_content("#result") or "")
    page.click("#undo")  # takes the resignation back
    page.wait_for_selector("#result", state="hidden")
    page.wait_for_function(IDLE)
    assert page.locator("#move-list li").count() == 1  # the engine's move stands
    assert page.errors == []


def test_renju_forbidden_cells_are_drawn_crossed_out(page: Any, artifacts: Path) -> None:
    # the view of a renju position, black to move, as the server writes it
    game = make_game(Recipe("gomoku:rule=renju"))
    cross = game.parse_state("black: g8 i8 h7 h9; white: a1 a15 o1 o15; to move: black")
    session = Session("id", "owner", Recipe("gomoku:rule=renju"), game, 0, 1.0, [cross])
    view = session_view(session)
    page.evaluate("view => drawBoard({...view, text: ''})", view)
    assert page.locator("#board .forbidden-mark").count() == 1
    forbidden = page.locator("#board .cell.forbidden")
    assert forbidden.count() == 1 and forbidden.get_attribute("data-index") == str(7 * 15 + 7)
    assert forbidden.get_attribute("data-move") is None  # nothing to play there
    page.screenshot(path=str(artifacts / "renju-forbidden.png"), full_page=True)
    assert page.errors == []


def test_a_xiangqi_board_is_drawn_from_its_view_alone(page: Any, artifacts: Path) -> None:
    # no xiangqi game yet: its view as its board() would write it, drawn by the page
    palace = [[3, 23], [5, 21], [66, 86], [68, 84]]
    cells = [None] * 90
    pieces = [""] * 90
    for cell, player, name in ((4, 1, "将"), (85, 0, "帥"), (0, 1, "車"), (89, 0, "俥")):
        cells[cell], pieces[cell] = player, name
    board = {
        "kind": "intersections",
        "width": 9,
        "height": 10,
        "cells": cells,
        "pieces": pieces,
        "piece_set": "",
        "targets": {},
        "moves": {"85": {"76": ["K5+1"]}},
        "last": [],
        "line": [],
        "files": list("abcdefghi"),
        "ranks": [str(n) for n in range(10, 0, -1)],
        "segments": palace,
        "breaks": [4],
    }
    view = {"game": {"title": "Xiangqi", "players": ["red", "black"]}, "board": board}
    page.evaluate("view => drawBoard({...view, text: ''})", view)
    # 10 ranks across; the two edge files whole and the 7 inner files broken at the
    # river; the 4 palace diagonals
    assert page.locator("#board .lines line").count() == 10 + 2 + 7 * 2 + 4
    assert page.locator("#board .stone-label").all_text_contents() == ["車", "将", "帥", "俥"]
    assert page.locator("#board .coord").count() == 9 + 10
    page.screenshot(path=str(artifacts / "xiangqi-view.png"), full_page=True)
    assert page.errors == []
