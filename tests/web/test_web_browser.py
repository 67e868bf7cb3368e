"""The page in a real Chromium against a real server: play, step, fail, and look."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx

WORDS = re.compile(r"^((win|loss) in \d+ pl(y|ies)|draw|(eval )?[+-]\d+ \w+)$")
"""How the page writes an engine score: never the engine's raw number."""


def test_tictactoe_played_to_the_end_with_hints_is_a_draw(page: Any, artifacts: Path) -> None:
    page.fill("#think-input", "0.2")
    page.select_option("#game-select", "tictactoe")
    page.click("#new-game")
    page.wait_for_selector("#board svg")
    for _ in range(5):  # X makes at most five moves
        page.wait_for_function(
            "() => !document.querySelector('#result').hidden"
            " || !document.querySelector('#hint').disabled"
        )
        if page.is_visible("#result"):
            break
        page.click("#hint")
        hinted = page.wait_for_selector("#board .cell.hinted")
        hinted.click()
    page.wait_for_selector("#result:not([hidden])")
    page.screenshot(path=str(artifacts / "play-tictactoe.png"), full_page=True)
    # the hints play perfectly and so does the engine: it does not lose, nor does the person
    assert page.get_attribute("#result", "data-outcome") == "draw"
    assert page.locator("#move-list li").count() == 9
    # the engine's reports reached the page, written in words
    assert re.fullmatch(r"\d+ pl(y|ies)|to the end", page.text_content("#an-depth") or "")
    assert WORDS.match(page.text_content("#an-score") or "")
    for row in page.locator("#depth-rows tr").all():
        cells = row.locator("td").all_text_contents()
        assert WORDS.match(cells[1]) and not cells[0].isdigit()
    assert page.errors == []


def test_night_market_stepped_to_the_end(page: Any, artifacts: Path) -> None:
    page.click("#tab-lab")
    page.select_option("#lab-example", "night-market")
    page.select_option("#lab-algorithm", "alphabeta")
    page.click("#lab-run")
    page.wait_for_selector("#lab-view:not([hidden])")
    assert page.text_content("#lab-value") == "?"
    steps = 0
    narration = []
    while page.is_enabled("#step-next"):
        page.click("#step-next")
        steps += 1
        narration.append(page.text_content("#step-text") or "")
        if steps == 12:
            page.screenshot(path=str(artifacts / "lab-night-market-step-12.png"), full_page=True)
    page.screenshot(path=str(artifacts / "lab-night-market-end.png"), full_page=True)
    assert steps == 24  # 11 nodes entered and left, 2 cut-offs
    assert page.text_content("#lab-value") == "100"
    assert page.locator("#lab-tree .node.pruned:not(.hidden)").count() == 4
    assert page.text_content("#lab-pruned") == "4"
    assert page.text_content("#lab-minimax") == "15"
    assert page.text_content("#lab-count").startswith("11 of 11")
    reasons = page.locator("#lab-tree .cut-reason:not(.hidden)").all_text_contents()
    assert sorted(reasons) == ["✂ 10000 ≥ β=100", "✂ 70 ≤ α=100"]
    # a cut-off node's value is the bound it proved, never the node's value
    cut = page.locator("#lab-tree .node:has(.cut-reason:not(.hidden)) .value")
    assert sorted(cut.all_text_contents()) == ["≤ 70", "≥ 10000"]
    # the window moves as the search learns: α rises at MAX nodes, β falls at MIN nodes
    assert "Α rises" not in " ".join(narration)
    assert any("α rises to 100 at the root" in line for line in narration)
    assert any("β falls to 100 at A" in line for line in narration)
    assert page.text_content("#lab-tree .node[data-key='0'] .window") == "[100, +∞]"
    assert page.errors == []


def test_a_link_opens_the_search_at_its_step(
    open_page: Callable[[str], AbstractContextManager[Any]], server: str
) -> None:
    with open_page(server) as page:
        page.click("#tab-lab")
        page.check("input[name=source][value=tree]")
        assert "estimate" in (page.text_content("#lab-formats") or "")  # the formats shown
        page.fill("#lab-json", "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
        page.click("#lab-run")
        page.wait_for_selector("#lab-view:not([hidden])")
        for _ in range(7):
            page.click("#step-next")
        link = page.get_attribute("#lab-link", "href") or ""
        narration = page.text_content("#step-text")
    assert link.startswith("#lab=")
    with open_page(server + "/" + link) as shared:
        assert shared.is_visible("#panel-lab")
        assert shared.text_content("#step-count") == "7 / " + str(
            shared.get_attribute("#step-range", "max")
        )
        assert shared.text_content("#step-text") == narration
        assert shared.errors == []


def test_an_invalid_pasted_tree_shows_the_error(page: Any, artifacts: Path) -> None:
    page.click("#tab-lab")
    page.check("input[name=source][value=tree]")
    page.fill("#lab-json", '[[3, 12], [2, "x"')
    page.click("#lab-run")
    page.wait_for_selector("#error:not([hidden])")
    page.screenshot(path=str(artifacts / "lab-invalid-tree.png"), full_page=True)
    assert "not valid JSON" in page.text_content("#error-text")
    assert page.is_hidden("#lab-view")


def test_gomoku_is_played_by_clicking_the_board(page: Any, artifacts: Path) -> None:
    page.fill("#think-input", "0.2")
    page.select_option("#game-select", "gomoku")
    page.click("#new-game")
    page.wait_for_selector("#board svg")
    assert page.locator("#board .cell").count() == 15 * 15
    page.click("#board .cell[data-move='h8']")
    page.wait_for_function("() => document.querySelectorAll('#move-list li').length === 2")
    page.wait_for_function("() => document.querySelectorAll('#board .stone').length === 2")
    page.screenshot(path=str(artifacts / "play-gomoku.png"), full_page=True)
    moves = page.locator("#move-list li .text").all_text_contents()
    assert moves[0] == "h8"
    assert moves[1] != "h8"
    # the engine's stone took its cell: no longer a place to click
    assert page.locator(f"#board .cell[data-move='{moves[1]}']").count() == 0
    assert page.errors == []


def test_a_maze_file_is_uploaded_and_played(page: Any, artifacts: Path) -> None:
    page.select_option("#game-select", "maze")
    assert page.is_visible("#game-file")
    assert "file" not in (page.get_attribute("#game-options", "placeholder") or "")
    maze = {"name": "tiny.txt", "mimeType": "text/plain", "buffer": b"..#\n@..\n...\n"}
    page.set_input_files("#game-file", files=[maze])
    page.click("#new-game")
    page.wait_for_selector("#legal button[data-move]")
    assert "3x3" in (page.text_content("#game-title") or "")
    assert "@" in (page.text_content("#board-text") or "")
    page.click("#legal button[data-move='a3']")  # the figure's only move: then it is stuck
    page.wait_for_selector("#result:not([hidden])")
    page.screenshot(path=str(artifacts / "play-maze-upload.png"), full_page=True)
    assert page.get_attribute("#result", "data-outcome") == "win"
    assert page.errors == []


def test_a_file_named_in_the_options_is_refused(page: Any) -> None:
    page.select_option("#game-select", "maze")
    page.fill("#game-options", "file=/etc/passwd")
    page.click("#new-game")
    page.wait_for_selector("#error:not([hidden])")
    message = page.text_content("#error-text") or ""
    assert "names a file on this machine" in message and "root:" not in message


def test_the_page_shows_its_place_in_line(
    open_page: Callable[[str], AbstractContextManager[Any]], busy_server: str, artifacts: Path
) -> None:
    # another visitor's search takes the only engine worker for up to a minute
    game = {"game": "gomoku", "side": 1, "think": 60}
    with httpx.Client(base_url=busy_server, timeout=30) as other:
        theirs = other.post("/api/sessions", json=game).json()["id"]
        try:
            with other.stream("POST", f"/api/sessions/{theirs}/search", json={}) as busy:
                lines = busy.iter_lines()  # held: dropping it closes the stream
                assert next(lines).startswith("event: start")
                with open_page(busy_server) as page:
                    page.fill("#think-input", "0.3")
                    page.select_option("#game-select", "gomoku")
                    page.select_option("#side-select", "1")
                    page.click("#new-game")
                    page.wait_for_function(
                        "() => document.querySelector('#status').textContent"
                        ".includes('Waiting for the engine: 1st in line')"
                    )
                    page.screenshot(path=str(artifacts / "play-queued.png"), full_page=True)
                    busy.close()  # the other visitor leaves: the page's search runs
                    page.wait_for_function(
                        "() => document.querySelectorAll('#move-list li').length === 1"
                    )
                    assert "in line" not in (page.text_content("#status") or "")
                    assert page.errors == []
        finally:
            other.delete(f"/api/sessions/{theirs}")
