"""``zerosum grundy``: Grundy values, winners and winning moves, as text."""

from __future__ import annotations

import pytest

from zerosum.cli import main


def test_nim_10_12_5(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grundy", "nim", "10,12,5"]) == 0
    out = capsys.readouterr().out
    assert "Grundy value: 3" in out and "the player to move" in out
    rows = [line.split() for line in out.splitlines()[-1:]]
    assert rows == [["1:1", "9,12,5"]]  # take 1 from the first heap, leaving 9,12,5


def test_a_losing_subtraction_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grundy", "subtraction:moves=1,2,3", "12"]) == 0
    out = capsys.readouterr().out
    assert "Grundy value: 0" in out and "the other player" in out
    assert "winning move" not in out


def test_a_position_in_the_game_notation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grundy", "nim", "--position", "1,2,3"]) == 0
    assert "Grundy value: 0" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["grundy", "nim", "3,-1"], "-1"),
        (["grundy", "tictactoe"], "not impartial"),
        (["grundy", "chequers"], "unknown game 'chequers'"),
        (["grundy", "mnk", "3"], "takes no bare argument"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err
    assert len(captured.err.strip().splitlines()) == 1
