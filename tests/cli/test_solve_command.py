"""``zerosum solve`` and ``zerosum bench``: values, best moves, counts, one-line errors,
and solves bounded by ``--time`` and ``--nodes`` or stopped by Ctrl-C."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time

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


# ---------------------------------------------------------------- limits and Ctrl-C


def test_a_node_limit_prints_the_proven_bounds_and_exits_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    shown = solve(capsys, "connect4", "--nodes", "20000")
    assert shown["bounds"].startswith("[") and " .. " in shown["bounds"]
    assert shown["not finished"].startswith("node limit of 20,000 reached after ")
    assert shown["not finished"].endswith("(the value is not proven)")
    assert shown["nodes"].startswith("20,000 ")


def test_a_time_limit_on_the_slow_solves_of_the_issue(capsys: pytest.CaptureFixture[str]) -> None:
    # each of these printed nothing for minutes and could not be limited
    for argv in (["--moves", "44444"], ["--moves", "4455", "--all"], ["--moves", "4453", "--weak"]):
        start = time.perf_counter()
        shown = solve(capsys, "connect4", *argv, "--time", "0.3")
        assert time.perf_counter() - start < 5
        assert shown["not finished"].startswith("time limit of 0.3 s reached after 0.3 s"), argv
    # 4455's value takes 3 nodes: the limit strikes while its moves are scored, and the
    # principal variation gives one best move
    shown = solve(capsys, "connect4", "--moves", "4455", "--all", "--nodes", "200000")
    assert shown["not finished"].endswith("(not every move was tested)")
    assert (shown["score"], shown["best moves so far"]) == ("+18 (win in 3 plies)", "3")


def test_a_limit_that_is_not_reached_changes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "tictactoe", "--moves", "b2", "--all"]) == 0
    plain = capsys.readouterr().out
    assert main(["solve", "tictactoe", "--moves", "b2", "--all", "--time", "600"]) == 0
    limited = capsys.readouterr().out
    assert "not finished" not in limited
    drop_time = re.compile(r"time: [0-9.]+ s")
    assert drop_time.sub("", plain) == drop_time.sub("", limited)


def test_gomoku_is_refused_without_a_limit_and_warned_with_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", "gomoku"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "far beyond exact solving" in captured.err and "--time or --nodes" in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    shown = solve(capsys, "gomoku:width=9", "--nodes", "300")
    assert shown["not finished"].startswith("node limit of 300 reached")
    # connect four's start is within reach (if slowly): no warning
    assert main(["solve", "connect4", "--nodes", "100"]) == 0
    assert "warning" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--time", "0"], "'0' is not a positive number of seconds"),
        (["--time", "soon"], "'soon' is not a number of seconds"),
        (["--time", "nan"], "'nan' is not a positive number of seconds"),
        (["--nodes", "0"], "'0' is below 1"),
        (["--nodes", "many"], "'many' is not a whole number"),
    ],
)
def test_bad_limits_exit_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["solve", "connect4", *argv])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_ctrl_c_prints_the_proven_bounds_and_exits_0() -> None:
    command = [sys.executable, "-c", "import sys; from zerosum.cli import main; sys.exit(main())"]
    process = subprocess.Popen(
        [*command, "solve", "connect4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        # off a terminal, a solve running for a second prints a plain progress line
        progress = process.stderr.readline()
        assert progress.startswith("solving: value in ["), progress
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 0, err
    lines = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
    assert lines["bounds"].startswith("[")
    assert lines["not finished"].startswith("stopped by Ctrl-C after ")
