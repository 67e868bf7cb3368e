"""``zerosum ucci``: the UCCI engine, text in and text out, on the sessions of the UCCI
3.0 specification (xqbase.com) and the rest of its commands. Every ``bestmove`` is checked
legal by pyffish (Fairy-Stockfish as a module, the oracle, whose ranks count from 1)."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys

import pyffish
import pytest

from zerosum.game import WIN
from zerosum.protocols.ucci import MATE_SCORE, UcciEngine, format_ucci_score
from zerosum.protocols.uci import UciEngine

START = pyffish.start_fen("xiangqi")
MATED = "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1"
"""Black's general on d9 faces the chariot on d0; e9 and e8 face red's general."""
MATE_IN_ONE = "3k5/9/9/9/9/9/9/9/9/2R1K4 w - - 0 1"
"""The same, a move before: the chariot is on c0."""
CHARIOT_UP = "3k5/9/9/9/9/9/9/9/9/R3K4 {} - - 0 1"
"""Red has a chariot more; ``{}`` is the side to move."""
_SQUARES = re.compile(r"([a-i])(\d)([a-i])(\d)")


def session(*lines: str) -> list[str]:
    """Run the engine on ``lines`` to the end of the input; return what it wrote."""
    out = io.StringIO()
    UcciEngine(out).run(line + "\n" for line in lines)
    return out.getvalue().splitlines()


def fsf(move: str) -> str:
    """``move`` in Fairy-Stockfish's coordinates (ranks 1-10)."""
    found = _SQUARES.fullmatch(move)
    assert found is not None, move
    return f"{found[1]}{int(found[2]) + 1}{found[3]}{int(found[4]) + 1}"


def iccs(move: str) -> str:
    """A move of pyffish in ICCS coordinates (ranks 0-9)."""
    found = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    assert found is not None, move
    return f"{found[1]}{int(found[2]) - 1}{found[3]}{int(found[4]) - 1}"


def legal(fen: str, moves: list[str]) -> list[str]:
    """pyffish's legal moves after ``moves`` (Fairy-Stockfish's coordinates)."""
    return list(pyffish.legal_moves("xiangqi", fen, moves))


def best(lines: list[str]) -> list[str]:
    """The words of the last ``bestmove`` line."""
    answers = [line.split() for line in lines if line.startswith("bestmove ")]
    assert answers, lines
    return answers[-1]


def test_the_handshake_is_uccis() -> None:
    lines = session("ucci")
    assert lines[0].startswith("id name zerosum ") and lines[-1] == "ucciok"
    options = [line for line in lines if line.startswith("option ")]
    assert "option usemillisec type check default true" in options
    assert "option hashsize type spin min 0 max 4096 default 16" in options
    assert not any(" name " in line for line in options)  # UCCI has no name keyword


def test_the_specifications_session() -> None:
    """The session of the specification's section 6, with a shorter clock."""
    lines = session(
        "ucci",
        "setoption usemillisec true",
        "setoption usebook false",  # another engine's option: ignored, silently
        "setoption ponder true",
        f"position fen {START}",
        "go time 3000 increment 0",
    )
    assert not any(line.startswith("info message") for line in lines)
    infos = [line for line in lines if line.startswith("info depth")]
    assert infos and all(
        re.fullmatch(r"info depth \d+ score -?\d+ pv( [a-i]\d[a-i]\d)+", i) for i in infos
    )
    assert any(re.fullmatch(r"info time \d+ nodes \d+", line) for line in lines)
    move = best(lines)
    assert fsf(move[1]) in legal(START, [])
    if len(move) > 2:
        assert move[2] == "ponder" and fsf(move[3]) in legal(START, [fsf(move[1])])
    # the engine's guess came true: ponder on it, then the hit
    lines = session(
        f"position fen {START} moves b0c2 b9c7", "go ponder time 2950 increment 0", "ponderhit"
    )
    assert fsf(best(lines)[1]) in legal(START, ["b1c3", "b10c8"])


@pytest.mark.parametrize("red", [True, False])
@pytest.mark.parametrize("millisecond", [True, False])
def test_times_are_the_same_clock_as_ucis(red: bool, millisecond: bool) -> None:
    """``go time T increment I opptime O oppincrement J`` budgets as UCI's ``go`` with
    the side to move's clock ``T`` and increment ``I``, in milliseconds or seconds."""
    fen = START if red else f"{START.split()[0]} b - - 0 1"
    ucci = UcciEngine(io.StringIO())
    ucci.handle(f"setoption usemillisec {'true' if millisecond else 'false'}")
    ucci.handle(f"position fen {fen}")
    uci = UciEngine(io.StringIO(), game="xiangqi")
    uci.handle(f"position fen {fen}")
    scale = 1 if millisecond else 1000
    for own, inc, other, other_inc, togo in [(60, 2, 30, 1, None), (9, 0, 99, 0, 20)]:
        words = f"time {own} increment {inc} opptime {other} oppincrement {other_inc}"
        if togo is not None:
            words = f"time {own} movestogo {togo} opptime {other}"
        mine, theirs = ("w", "b") if red else ("b", "w")
        same = (
            f"{mine}time {own * scale} {mine}inc {inc * scale} "
            f"{theirs}time {other * scale} {theirs}inc {other_inc * scale}"
        )
        if togo is not None:
            same = f"{mine}time {own * scale} {theirs}time {other * scale} movestogo {togo}"
        assert ucci._plan(words.split()) == uci._plan(same.split())


def test_depth_nodes_and_infinite() -> None:
    engine = UcciEngine(io.StringIO())
    plan, problems = engine._plan(["draw", "depth", "7"])
    assert (plan.depth, plan.draw, plan.infinite, problems) == (7, True, False, [])
    plan, problems = engine._plan(["nodes", "5000", "whatever"])
    assert (plan.nodes, problems) == (5000, ["unknown argument 'whatever' skipped"])
    for words in ("depth infinite", "infinite", ""):
        assert engine._plan(words.split())[0].infinite


def test_depth_zero_is_the_evaluation_and_no_move() -> None:
    lines = session("position startpos", "go depth 0")
    assert re.fullmatch(r"info depth 0 score -?\d+", lines[0]) and lines[1:] == ["nobestmove"]
    assert session(f"position fen {MATED}", "go depth 0") == ["nobestmove"]


def test_mates_are_scored_as_elephanteye_scores_them() -> None:
    assert (format_ucci_score(WIN - 3), format_ucci_score(3 - WIN)) == ("9997", "-9997")
    assert format_ucci_score(-WIN) == str(-MATE_SCORE) and format_ucci_score(-250) == "-250"
    assert legal(MATED, []) == []
    assert session(f"position fen {MATED}", "go depth 3") == [
        f"info depth 0 score {-MATE_SCORE}",
        "nobestmove",
    ]
    lines = session(f"position fen {MATE_IN_ONE}", "go depth 3")
    assert legal(MATE_IN_ONE, [fsf(best(lines)[1])]) == []  # no reply: mate
    assert [line for line in lines if line.startswith("info depth")][-1].split()[4] == "9999"


def test_banned_moves_are_never_played() -> None:
    rng = random.Random(3)
    moves: list[str] = []
    for _ in range(6):
        moves.append(rng.choice(legal(START, moves)))
    position = f"position startpos moves {' '.join(iccs(move) for move in moves)}"
    replies = [iccs(move) for move in legal(START, moves)]
    for kept in rng.sample(replies, 3):
        banned = " ".join(move for move in replies if move != kept)
        assert best(session(position, f"banmoves {banned}", "go depth 2"))[1] == kept
    every = " ".join(replies)
    lines = session(position, f"banmoves {every}", "go depth 2")
    assert lines == ["info message every legal move is banned", "nobestmove"]
    # the next position lifts the bans
    lines = session(position, f"banmoves {every}", position, "go depth 1")
    assert best(lines)[1] in replies


def test_bad_lines_answer_one_info_message() -> None:
    lines = session(
        "position startpos",
        "banmoves h2e2 zz",
        "setoption hashsize lots",
        "setoption usemillisec maybe",
        "position fen nonsense",
        "frobnicate",
        "go depth 1",
    )
    notes = [line for line in lines if line.startswith("info message")]
    assert len(notes) == 5, lines
    assert "'zz'" in notes[0] and "'lots'" in notes[1] and "'maybe'" in notes[2]
    assert "'frobnicate'" in notes[4]
    assert fsf(best(lines)[1]) in legal(START, [])


def test_stop_without_a_search_and_quit_during_one() -> None:
    assert session("stop") == ["nobestmove"]
    lines = session("position startpos", "go infinite", "quit", "isready")
    assert lines[-1] == "bye" and lines[-2].startswith("bestmove ")
    assert fsf(best(lines)[1]) in legal(START, [])


@pytest.mark.parametrize(("side", "draw"), [("b", True), ("w", False)])
def test_a_draw_offer_is_taken_only_when_behind(side: str, draw: bool) -> None:
    fen = CHARIOT_UP.format(side)
    move = best(session(f"position fen {fen}", "go draw depth 2"))
    assert fsf(move[1]) in legal(fen, [])
    assert (move[-1] == "draw") == draw
    move = best(session(f"position fen {fen}", "go ponder depth 2", "ponderhit draw"))
    assert (move[-1] == "draw") == draw


def test_the_command_in_batch_mode() -> None:
    """The specification's batch file: each search ends before the next line is read."""
    second = "rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2"
    script = [
        "ucci",
        "setoption batch true",
        f"position fen {START}",
        "go depth 3",
        f"position fen {second}",
        "go depth 3",
        "quit",
    ]
    done = subprocess.run(
        [sys.executable, "-m", "zerosum.cli", "ucci"],
        input="\n".join(script) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[-1] == "bye"
    answers = [line.split()[1] for line in lines if line.startswith("bestmove ")]
    assert len(answers) == 2
    assert fsf(answers[0]) in legal(START, []) and fsf(answers[1]) in legal(second, [])
    depths = [line.split()[2] for line in lines if line.startswith("info depth")]
    assert depths.count("3") == 2  # neither search was cut short by the next line
