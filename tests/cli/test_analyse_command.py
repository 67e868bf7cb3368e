"""``zerosum analyse``: one line per completed depth, scores in words, lines in the game's
notation (SAN for chess, every line replayed by python-chess, the oracle), several best
moves, limits, one-line errors and Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import chess
import pytest

from zerosum.cli import main

MATE_IN_THREE = "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1"
"""A published mate-in-three puzzle: 1... Bc5+ 2. Kxc5 Qb6+ 3. Kd5 Qd6#."""


def analyse(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    """Run ``zerosum analyse`` in this process; return the status, the lines and stderr."""
    code = main(["analyse", *argv])
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


def variation(line: str) -> list[str]:
    """The moves after ``pv`` in one depth line."""
    return line.split("  pv ")[1].split()


def replay(fen: str, moves: list[str]) -> chess.Board:
    """Play ``moves`` (SAN) from ``fen`` with python-chess, which refuses illegal ones."""
    board = chess.Board(fen)
    for move in moves:
        board.push_san(move)
    return board


def test_one_line_per_depth_in_san(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = analyse(capsys, "chess", "--depth", "3")
    assert code == 0
    assert lines[0] == f"Chess: {chess.STARTING_FEN}, white to move"
    depths = lines[1:-1]
    assert [line.split("  ")[0] for line in depths] == ["1 ply", "2 plies", "3 plies"]
    for number, line in enumerate(depths, 1):
        assert " eval " in line and " centipawns " in line and " nodes " in line
        moves = variation(line)
        assert len(moves) == number  # nothing ends a line within three plies
        replay(chess.STARTING_FEN, moves)
    assert lines[-1].startswith(f"best move: {variation(depths[-1])[0]} (eval ")
    assert lines[-1].endswith(", 3 plies)")


def test_a_mate_reads_as_a_win_with_its_distance(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = analyse(capsys, "chess", "--position", MATE_IN_THREE, "--depth", "5")
    assert code == 0
    assert lines[0].endswith(", black to move")
    assert "win in 5 plies" in lines[-2]
    board = replay(MATE_IN_THREE, variation(lines[-2]))
    assert board.is_checkmate() and board.ply() - chess.Board(MATE_IN_THREE).ply() == 5
    assert lines[-1] == "best move: Bc5+ (win in 5 plies, 5 plies)"


def test_several_best_moves(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
    code, lines, _ = analyse(capsys, "chess", "--position", fen, "--depth", "2", "--multipv", "3")
    assert code == 0
    depth_two = [line for line in lines if line.startswith("2 plies")]
    assert [line.split("  ")[1] for line in depth_two] == ["#1", "#2", "#3"]
    assert "win in 1 ply" in depth_two[0] and variation(depth_two[0]) == ["Ra8#"]
    assert all(" eval " in line for line in depth_two[1:])
    firsts = [variation(line)[0] for line in depth_two]
    assert len(set(firsts)) == 3
    for line in depth_two:
        replay(fen, variation(line))


def test_a_node_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = analyse(capsys, "chess", "--nodes", "3000")
    assert code == 0
    counts = [int(line.split("nodes ")[1].split()[0].replace(",", "")) for line in lines[1:-1]]
    assert counts and max(counts) <= 3000


def test_a_game_solved_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    """Tic-tac-toe is a draw (every first move keeps it one): the last depth proves it."""
    code, lines, _ = analyse(capsys, "tictactoe")
    assert code == 0
    assert lines[-1].startswith("best move: ") and lines[-1].endswith(" (draw, 9 plies)")
    assert lines[-2].startswith("9 plies  draw  ")
    assert len(variation(lines[-2])) == 9


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["chess", "--position", "not a fen"], "'not a fen' is not a valid FEN"),
        (["chess", "--position", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1"], "nothing to analyse"),
        (["chess", "--depth", "3", "--time", "1"], "not allowed with argument"),
        (["chess", "--multipv", "0"], "below 1"),
        (["chess", "--time", "-1"], "not a positive number"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as leaving:
        code = main(["analyse", *argv])
        raise SystemExit(code)
    captured = capsys.readouterr()
    assert leaving.value.code == 2
    assert captured.err.count("\n") == 1 and message in captured.err
    assert "Traceback" not in captured.err


def test_ctrl_c_keeps_the_last_full_depth() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum.cli", "analyse", "chess"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    seen = [process.stdout.readline() for _ in range(4)]  # the title and three depths
    assert seen[-1].startswith("3 plies")
    time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    lines = out.splitlines()
    assert process.returncode == 0, err
    assert lines[-2] == "stopped by Ctrl-C: the depth in progress is dropped"
    last_depth = ([*seen, *lines[:-2]])[-1]
    assert lines[-1].startswith(f"best move: {variation(last_depth)[0]} (")
