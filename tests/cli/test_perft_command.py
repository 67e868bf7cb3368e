"""``zerosum perft``: counts, the divide table, and one-line errors."""

from __future__ import annotations

import re

import pytest

from zerosum.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse's own errors
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_perft_prints_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "chess", "3")
    assert code == 0 and out.startswith("perft 3: 8,902  (")
    position = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"  # the wiki's position 3
    code, out, _ = run(capsys, "perft", "chess", "4", "--position", position)
    assert code == 0 and out.startswith("perft 4: 43,238  (")


def test_divide_lists_each_first_move_and_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "tictactoe", "2", "--divide")
    assert code == 0
    rows = [line.split() for line in out.splitlines()[2:-1]]
    assert len(rows) == 9 and all(paths == "8" for _, paths in rows)
    assert re.match(r"perft 2: 72  \(", out.splitlines()[-1])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["perft", "chess", "-1"], "is negative"),
        (["perft", "chess", "2", "--position", "no such fen"], "not a valid FEN"),
        (["perft", "chess", "0", "--divide"], "--divide needs a depth of 1 or more"),
        (["perft", "chequers", "2"], "unknown game 'chequers'"),
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1
