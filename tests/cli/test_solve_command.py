"""``zerosum solve`` and ``zerosum bench``: values, best moves, counts, one-line errors,
and solves bounded by ``--time`` and ``--nodes`` or stopped by Ctrl-C."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.engine
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


# ---------------------------------------------------------------- mate-in-n puzzles

STOCKFISH = Path("/usr/games/stockfish")

MATE_PUZZLES = [
    # (FEN, the shortest mate in moves): published puzzles, each length checked below by
    # Stockfish or, failing it, by brute force with python-chess
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1),
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2),
    ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2),
    ("k7/8/2K5/8/8/8/8/1R6 w - - 0 1", 2),  # a quiet king move, then mate: zugzwang
    ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3),
]


def mates_within(board: chess.Board, moves: int) -> bool:
    """Whether the side to move mates within ``moves`` moves: python-chess, brute force."""
    for move in list(board.legal_moves):
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            if (
                moves > 1
                and not board.is_game_over()
                and all(_after(board, reply, moves - 1) for reply in list(board.legal_moves))
            ):
                return True
        finally:
            board.pop()
    return False


def _after(board: chess.Board, reply: chess.Move, moves: int) -> bool:
    board.push(reply)
    try:
        return mates_within(board, moves)
    finally:
        board.pop()


def shortest_mate(board: chess.Board, at_most: int) -> int | None:
    """The oracle: the shortest mate (moves) of the side to move, ``None`` if none
    within ``at_most``; by Stockfish when installed, else by brute force up to two."""
    if STOCKFISH.exists():
        with chess.engine.SimpleEngine.popen_uci(str(STOCKFISH)) as stockfish:
            score = stockfish.analyse(board, chess.engine.Limit(depth=20))["score"].relative
        mate = score.mate()
        return mate if mate is not None and 0 < mate <= at_most else None
    if at_most > 2:
        pytest.skip(f"{STOCKFISH} is absent: no oracle for mates in {at_most}")
    return next((n for n in range(1, at_most + 1) if mates_within(board, n)), None)


@pytest.mark.parametrize(("fen", "moves"), MATE_PUZZLES)
def test_mate_in_n_puzzles(capsys: pytest.CaptureFixture[str], fen: str, moves: int) -> None:
    board = chess.Board(fen)
    assert shortest_mate(board, moves) == moves  # the published length is right
    shown = solve(capsys, "chess", "--position", fen, "--mate", str(moves + 1))
    title = shown[f"mate in {moves}"].split(" (")[0]
    first = board.parse_san(title)
    line = shown["line"].split()
    assert line[0] == title and len(line) == 2 * moves - 1 and line[-1].endswith("#")
    for san in line:
        board.push_san(san)
    assert board.is_checkmate()
    # the first move is a right one: after it the opponent is mated in one move less
    board = chess.Board(fen)
    board.push(first)
    assert board.is_checkmate() if moves == 1 else shortest_mate_against(board) == moves - 1


def shortest_mate_against(board: chess.Board) -> int | None:
    """In how many moves the side to move is mated at best (the oracle, Stockfish, or
    brute force over its replies), ``None`` when not."""
    if STOCKFISH.exists():
        with chess.engine.SimpleEngine.popen_uci(str(STOCKFISH)) as stockfish:
            score = stockfish.analyse(board, chess.engine.Limit(depth=20))["score"].relative
        mate = score.mate()
        return -mate if mate is not None and mate < 0 else None
    replies = list(board.legal_moves)
    for n in (1, 2):
        if all(_after(board, reply, n) for reply in replies):
            return n
    return None


@pytest.mark.parametrize(("fen", "moves"), [p for p in MATE_PUZZLES if p[1] > 1])
def test_no_mate_shorter_than_the_shortest(
    capsys: pytest.CaptureFixture[str], fen: str, moves: int
) -> None:
    shown = solve(capsys, "chess", "--position", fen, "--mate", str(moves - 1))
    plies = 2 * moves - 3
    side = "white" if " w " in fen else "black"
    within = "1 ply" if plies == 1 else f"{plies} plies"
    assert shown[f"no mate in {moves - 1}"] == f"{side} cannot force a win within {within}"


def test_mate_search_limits_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    fen = MATE_PUZZLES[-2][0]
    shown = solve(capsys, "chess", "--position", fen, "--mate", "3", "--nodes", "2000")
    assert shown["not finished"].startswith("no mate in 1 or fewer moves; the search to 5 ")
    assert main(["solve", "nim", "3,4,5", "--mate", "2"]) == 2
    assert "--mate needs a won/lost game with an evaluate()" in capsys.readouterr().err
    assert main(["solve", "chess", "--mate", "2", "--all"]) == 2
    assert "cannot be combined" in capsys.readouterr().err
