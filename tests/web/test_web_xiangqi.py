"""Xiangqi in a real Chromium: the board drawn from its view (nine files by ten ranks of
points, the river, the palaces' diagonals, the pieces as Chinese characters on red and
black discs, the files' labels), a game played by clicks whose every position is
checked against pyffish (Fairy-Stockfish as a module, the oracle), a mate by clicks, and
black's side drawn at the bottom for a person playing black."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pyffish

START = pyffish.start_fen("xiangqi")
MATE_IN_ONE = "3k5/9/9/9/9/9/9/9/9/2R1K4 w - - 0 1"
"""Red mates with the chariot from c0 to d0: black's general on d9 has nowhere to go."""
NAMES = dict(zip("RNBAKCPrnbakcp", "俥傌相仕帅炮兵車馬象士将砲卒", strict=True))
"""The character the board writes for each FEN letter."""
IDLE = (
    "() => !document.querySelector('#result').hidden || !document.querySelector('#hint').disabled"
)
"""The page waits for the person: the game is over, or nothing is on its way."""


def start(page: Any, *, side: int = 0, position: str = "", options: str = "") -> None:
    page.select_option("#game-select", "xiangqi")
    page.fill("#game-options", options)
    page.fill("#think-input", "0.05")
    page.select_option("#side-select", str(side))
    page.fill("#position-input", position)
    page.click("#new-game")
    page.wait_for_function(
        "() => document.querySelector('#game-title').textContent.includes('you are')"
    )
    page.wait_for_function(IDLE)


def point(square: str) -> int:
    """The board's cell (drawn from the top left, a9) of a square in pyffish's
    coordinates (ranks 1-10)."""
    return (10 - int(square[1:])) * 9 + "abcdefghi".index(square[0])


def labels(fen: str) -> list[str]:
    """The characters on the board of ``fen``, cell by cell from the top left."""
    return [NAMES[char] for char in fen.split(maxsplit=1)[0] if char in NAMES]


def shown(page: Any) -> str:
    """The position the page shows, as its FEN."""
    return str(page.input_value("#position-text"))


def placement(fen: str) -> str:
    """The placement and side to move of ``fen``: what a position is, clocks aside."""
    return " ".join(fen.split()[:2])


def played(page: Any) -> int:
    return int(page.locator("#move-list li").count())


def click(page: Any, move: str) -> None:
    """Play ``move`` (pyffish's coordinates) by two clicks, its from- and to-point."""
    found = re.fullmatch(r"([a-i]\d+)([a-i]\d+)", move)
    assert found is not None
    before = played(page)
    page.click(f"#board .cell[data-index='{point(found[1])}']")
    page.click(f"#board .cell[data-index='{point(found[2])}']")
    page.wait_for_function(f"() => document.querySelectorAll('#move-list li').length > {before}")
    page.wait_for_function(IDLE)


def test_the_board_and_a_game_by_clicks(page: Any, artifacts: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    start(page)
    # ten ranks across; the edge files whole, the seven inner ones broken at the river;
    # the palaces' four diagonals; the river named in its gap
    assert page.locator("#board .lines line").count() == 10 + 2 + 7 * 2 + 4
    assert page.locator("#board .river").all_text_contents() == ["楚 河", "漢 界"]
    assert page.locator("#board .cell").count() == 90
    assert page.locator("#board .stone-label").all_text_contents() == labels(START)
    assert page.locator("#board .stone.red").count() == page.locator("#board .stone.black").count()
    files = page.locator("#board .coord:not(.rank)").all_text_contents()
    assert files == list("九八七六五四三二一")
    # the cannon on h2: its destinations are pyffish's moves of it
    page.click(f"#board .cell[data-index='{point('h3')}']")
    destinations = page.locator("#board .cell.destination").evaluate_all(
        "cells => cells.map(c => Number(c.dataset.index))"
    )
    expected = [m[2:] for m in pyffish.legal_moves("xiangqi", START, []) if m.startswith("h3")]
    assert sorted(destinations) == sorted(point(square) for square in expected)
    page.click(f"#board .cell[data-index='{point('e3')}']")
    page.wait_for_function("() => document.querySelectorAll('#move-list li').length >= 2")
    page.wait_for_function(IDLE)
    assert page.locator("#move-list li .text").first.text_content() == "炮二平五"
    # random moves by clicks; every position shown is one pyffish reaches by our move
    # and a legal reply
    rng = random.Random(7)
    fen = pyffish.get_fen("xiangqi", START, ["h3e3"])
    for turn in range(5):
        replies = {
            placement(pyffish.get_fen("xiangqi", fen, [reply])): reply
            for reply in pyffish.legal_moves("xiangqi", fen, [])
        }
        assert placement(shown(page)) in replies
        fen = pyffish.get_fen("xiangqi", fen, [replies[placement(shown(page))]])
        assert page.locator("#board .stone-label").all_text_contents() == labels(fen)
        assert page.locator("#board .cell.last").count() >= 2  # the engine's move is marked
        if page.is_visible("#result"):
            break
        ours = rng.choice(pyffish.legal_moves("xiangqi", fen, []))
        click(page, ours)
        fen = pyffish.get_fen("xiangqi", fen, [ours])
        assert played(page) >= 2 * turn + 3
    page.screenshot(path=str(artifacts / "xiangqi-clicks.png"), full_page=True)
    assert page.errors == []


def test_a_mate_by_clicks(page: Any) -> None:
    start(page, position=MATE_IN_ONE)
    assert pyffish.legal_moves("xiangqi", MATE_IN_ONE, ["c1d1"]) == []  # it is mate
    click(page, "c1d1")
    assert page.is_visible("#result")
    assert page.get_attribute("#result", "data-outcome") != "draw"
    assert page.locator("#move-list li .text").first.text_content() == "车七平六"
    assert page.errors == []


def test_black_sees_its_side_at_the_bottom(page: Any, artifacts: Path) -> None:
    start(page, side=1, options="notation=iccs")
    # the engine (red) moved first; black's back rank (cell 0 is a9) is drawn lowest
    top = float(page.get_attribute("#board .cell[data-index='0']", "y") or 0)
    bottom = float(page.get_attribute("#board .cell[data-index='89']", "y") or 0)
    assert top > bottom
    files = page.locator("#board .coord:not(.rank)").evaluate_all(
        "labels => Object.fromEntries("
        "labels.map(l => [l.textContent, Number(l.getAttribute('x'))]))"
    )
    assert list(files) == list("abcdefghi") and files["i"] < files["a"]
    ranks = page.locator("#board .coord.rank").all_text_contents()
    assert ranks == list("9876543210")
    first = page.locator("#move-list li .text").first.text_content() or ""
    assert first in {
        re.sub(r"\d+", lambda n: str(int(n[0]) - 1), move)
        for move in pyffish.legal_moves("xiangqi", START, [])
    }
    page.screenshot(path=str(artifacts / "xiangqi-black.png"), full_page=True)
    assert page.errors == []
