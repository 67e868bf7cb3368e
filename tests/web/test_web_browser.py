"""The page in a real Chromium against a real server: play, step, fail, and look."""

from __future__ import annotations

from pathlib import Path
from typing import Any


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
    assert page.text_content("#an-depth") != "–"  # the engine's reports reached the page
    assert page.errors == []


def test_night_market_stepped_to_the_end(page: Any, artifacts: Path) -> None:
    page.click("#tab-lab")
    page.select_option("#lab-example", "night-market")
    page.select_option("#lab-algorithm", "alphabeta")
    page.click("#lab-run")
    page.wait_for_selector("#lab-view:not([hidden])")
    assert page.text_content("#lab-value") == "?"
    steps = 0
    while page.is_enabled("#step-next"):
        page.click("#step-next")
        steps += 1
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
    assert page.errors == []


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
