"""``zerosum solve`` and ``zerosum bench``: values, best moves, counts, one-line errors."""

from __future__ import annotations

import pytest

from zerosum.cli import main


def solve(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, str]:
    """Run ``zerosum solve`` and return its ``label: text`` lines as a dict."""
    assert main(["solve", *argv]) == 0
    lines = capsys.readouterr().out.splitlines()
    return dict(line.split(": ", 1) for line in lines if ": " in line)


def test_tictactoe_is_a_draw_with_every_first_move(capsys: pytest.CaptureFixture[str]) -> None:
    shown = solve(capsys, "tictactoe")
    assert shown["value"] == "draw"
    assert sorted(shown["best moves"].split()) == sorted(f"{c}{r}" for c in "abc" for r in "123")


def test_tictactoe_after_a_corner_reply_and_a_blunder(capsys: pytest.CaptureFixture[str]) -> None:
    # X b2, O b1 (an edge): X wins with best play
    shown = solve(capsys, "tictactoe", "--moves", "b2,b1")
    assert shown["value"].startswith("win in ")
    # O's only non-losing replies to a centre opening are the corners
    shown = solve(capsys, "tictactoe", "--moves", "b2", "--all")
    assert shown["value"] == "draw"
    assert sorted(shown["best moves"].split()) == ["a1", "a3", "c1", "c3"]


def test_connect4_published_scores(capsys: pytest.CaptureFixture[str]) -> None:
    # the examples of ../shared/data/connect4/README.md
    assert solve(capsys, "connect4", "--moves", "4455")["score"].startswith("+18 ")
    assert solve(capsys, "connect4", "--moves", "44455554221")["score"].startswith("-15 ")


def test_connect4_small_board_from_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    shown = solve(capsys, "connect4:width=4,height=4")
    assert shown["score"] == "+0 (draw)"  # John Tromp: 4x4 is a draw


def test_stone_game_vii_by_dynamic_programming(capsys: pytest.CaptureFixture[str]) -> None:
    shown = solve(capsys, "stones-vii", "5,3,1,4,2")
    assert shown["value"].split()[0] == "6"
    assert shown["line"] == "right 2, left 5, left 3, left 1, left 4"


def test_stone_game_by_the_engine_matches(capsys: pytest.CaptureFixture[str]) -> None:
    # after the first player's best move the second player can only hold the margin to 6
    shown = solve(capsys, "stones-vii", "5,3,1,4,2", "--moves", "right")
    assert shown["value"] == "-6 points"


def test_bench_prints_the_pinned_signature(capsys: pytest.CaptureFixture[str]) -> None:
    from zerosum.signature import run_signature

    assert main(["bench"]) == 0
    out = capsys.readouterr().out
    assert f"Nodes searched: {run_signature()[1]}" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tictactoe", "--moves", "b2,b2"], "b2 is taken"),
        (["tictactoe", "--moves", "zz"], "cannot read move 'zz'"),
        (["connect4", "--moves", "4444444"], "column 4 is full"),
        (["tictactoe", "--moves", "a1,b1,a2,b2,a3"], "the game is over"),
        (["tictactoe", "--position", "xxx/ooo/..."], "xxx/ooo/..."),
        (["tictactoe", "7"], "takes no bare argument"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err, captured.err
    assert len(captured.err.strip().splitlines()) == 1
