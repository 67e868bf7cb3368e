"""``zerosum nboard`` as the NBoard GUI drives it: GGF games in, ``===`` moves and
``search`` hints out, ``ping`` stopping a search, bad lines answered with ``status``."""

from __future__ import annotations

import io
import random
import subprocess
import sys
import time
from typing import Any

import pytest

from zerosum.game import ZerosumError
from zerosum.games.othello import Othello
from zerosum.games.othello.rules import PASS, solve_exact
from zerosum.protocols.nboard import EXACT_EMPTIES, GgfError, NBoardEngine, parse_ggf

pytestmark = pytest.mark.usefixtures("compiled_kernels")  # zerosum runs as a subprocess

GAME = Othello()
START = "---------------------------O*------*O--------------------------- *"
# NBoard's own example session (Edax playing black)
SAMPLE = (
    "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]"
    f"TY[8]BO[8 {START}]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)"
)


class Output(io.StringIO):
    """The engine's output, written from its loop and its search thread."""

    def lines(self) -> list[str]:
        return self.getvalue().splitlines()


def played(*moves: str, state: Any = None) -> Any:
    state = GAME.initial_state() if state is None else state
    for text in moves:
        state = GAME.result(state, GAME.parse_move(state, text))
    return state


def ggf_board(state: Any) -> str:
    """``state`` as GGF's BO[...] board."""
    squares, side = GAME.format_state(state).split()
    flip = {"X": "*", "O": "O", "-": "-"}
    return f"BO[8 {''.join(flip[c] for c in squares)} {flip[side]}]"


def session(*lines: str) -> list[str]:
    out = Output()
    NBoardEngine(out).run(lines)
    return out.lines()


def endgame(empties: int, seed: int) -> Any:
    """A position reached by random play with ``empties`` empty squares, not over."""
    rng = random.Random(seed)
    while True:
        state = GAME.initial_state()
        while GAME.format_state(state).count("-") > empties and not GAME.is_terminal(state):
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        if not GAME.is_terminal(state) and GAME.actions(state) != [PASS]:
            return state


def test_a_ggf_game_is_the_position_after_its_moves() -> None:
    expected = played("f5", "f6", "d3", "c5", "e6", "f7", "e7", "f4")
    assert GAME.format_state(parse_ggf(GAME, SAMPLE)) == GAME.format_state(expected)
    # moves may carry an eval and a time, and be written in either case
    timed = f"(;GM[Othello]{ggf_board(GAME.initial_state())}B[f5/1.50/2.1]W[F6//0];)"
    assert GAME.format_state(parse_ggf(GAME, timed)) == GAME.format_state(played("f5", "f6"))


def test_a_pass_left_out_of_the_record_is_made() -> None:
    rng = random.Random(4)
    while True:  # a position where the side to move must pass
        state = GAME.initial_state()
        while not GAME.is_terminal(state) and GAME.actions(state) != [PASS]:
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        if not GAME.is_terminal(state):
            break
    after_pass = GAME.result(state, PASS)
    reply = GAME.format_move(after_pass, GAME.actions(after_pass)[0])
    colour = "B" if GAME.to_move(after_pass) == 0 else "W"
    written = f"(;GM[Othello]{ggf_board(state)}{colour}[{reply}];)"
    expected = GAME.result(after_pass, GAME.actions(after_pass)[0])
    assert GAME.format_state(parse_ggf(GAME, written)) == GAME.format_state(expected)
    with_pass = (
        f"(;GM[Othello]{ggf_board(state)}{'W' if colour == 'B' else 'B'}[PA]{colour}[{reply}];)"
    )
    assert GAME.format_state(parse_ggf(GAME, with_pass)) == GAME.format_state(expected)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("junk", "a GGF game is written (;...;)"),
        ("(;GM[Chess]BO[8 x *];)", "GM[Chess] is not othello"),
        ("(;GM[Othello]PB[a];)", "no BO[...] board"),
        ("(;GM[Othello]BO[10 --- *];)", "is not 8, 64 squares and the side to move"),
        (f"(;GM[Othello]BO[8 {START[:-1]}X];)", "squares are -, * or O"),
        (f"(;GM[Othello]BO[8 {START}]B[A1];)", "'A1' is not legal"),
        (f"(;GM[Othello]BO[8 {START}]W[F5];)", "is played out of turn"),
        (f"(;GM[Othello]BO[8 {START}]B[Q9];)", "'Q9' is not an othello move"),
        ("(;GM[Othello]BO[8 " + "-" * 64 + " *];)", "centre squares"),
    ],
)
def test_bad_games_raise_naming_the_game(text: str, said: str) -> None:
    with pytest.raises(GgfError, match=None) as caught:
        parse_ggf(GAME, text)
    assert said in str(caught.value) and str(caught.value).startswith("game '")
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, ZerosumError)


def test_go_answers_a_legal_move_without_playing_it() -> None:
    out = Output()
    engine = NBoardEngine(out)
    engine.run(["nboard 2", "set depth 3", f"set game {SAMPLE}", "go"])
    lines = out.lines()
    assert lines[0] == "set myname zerosum"
    answer = lines[-1]
    assert answer.startswith("=== ")
    move, score, seconds = answer[4:].split("/")
    state = played("f5", "f6", "d3", "c5", "e6", "f7", "e7", "f4")
    assert GAME.parse_move(state, move) in GAME.actions(state)
    assert float(score) == engine.last.score and float(seconds) >= 0  # type: ignore[union-attr]
    depths = [line.split()[4] for line in lines if line.startswith("search ")]
    assert depths == ["1", "2", "3"]
    assert GAME.format_state(engine.state) == GAME.format_state(state)  # not played
    assert "status zerosum is thinking" in lines and lines[-2] == "status"


def test_in_the_endgame_the_answer_is_the_exact_score() -> None:
    for seed in range(3):
        state = endgame(10, seed)
        exact = solve_exact(state[0], state[1])
        lines = session(
            "nboard 2", "set depth 2", f"set game (;GM[Othello]{ggf_board(state)};)", "go"
        )
        searches = [line for line in lines if line.startswith("search ")]
        assert searches[-1].endswith(" 100%")
        move, score, _ = lines[-1][4:].split("/")
        assert float(score) == exact
        after = GAME.result(state, GAME.parse_move(state, move))
        assert -solve_exact(after[0], after[1]) == exact or GAME.is_terminal(after)


def test_hints_give_the_best_moves_with_their_exact_scores() -> None:
    state = endgame(9, 11)
    assert EXACT_EMPTIES >= 9
    lines = session("set depth 2", f"set game (;GM[Othello]{ggf_board(state)};)", "hint 3")
    hints: dict[str, float] = {}
    for line in lines:
        if line.startswith("search ") and line.endswith(" 100%"):
            words = line.split()
            hints[words[1].split("-")[0]] = float(words[2])
    assert len(hints) == min(3, len(GAME.actions(state)))
    for move, score in hints.items():
        after = GAME.result(state, GAME.parse_move(state, move))
        value = -solve_exact(after[0], after[1]) if not GAME.is_terminal(after) else None
        if value is not None:
            assert score == value
    assert max(hints.values()) == solve_exact(state[0], state[1])


def test_moves_change_the_position_and_bad_lines_leave_it() -> None:
    out = Output()
    engine = NBoardEngine(out)
    engine.run(
        [
            f"set game (;GM[Othello]{ggf_board(GAME.initial_state())};)",
            "move F5/0.5/1.0",
            "move f6",
            "move A1",
            "set game (;GM[Othello];)",
            "set depth 0",
            "banana split",
            "learn",
        ]
    )
    assert GAME.format_state(engine.state) == GAME.format_state(played("f5", "f6"))
    statuses = [line for line in out.lines() if line.startswith("status ")]
    assert len(statuses) == 3
    assert "'A1' is not legal" in statuses[0]
    assert "no BO[...] board" in statuses[1]
    assert "a depth is 1 to 60" in statuses[2]
    assert out.lines()[-1] == "learned"


def test_ping_stops_a_long_search_at_once() -> None:
    out = Output()
    engine = NBoardEngine(out)
    engine.handle("set depth 60")
    engine.handle("go")
    time.sleep(0.3)
    started = time.perf_counter()
    engine.handle("ping 7")
    assert time.perf_counter() - started < 2.0
    lines = out.lines()
    assert lines[-1] == "pong 7"
    assert any(line.startswith("=== ") for line in lines)  # before the pong
    assert not engine.handle("quit")


def test_the_command_speaks_nboard_on_its_streams() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "zerosum.cli", "nboard"],
        input=f"nboard 2\nset depth 2\nset game {SAMPLE}\nping 1\ngo\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[:2] == ["set myname zerosum", "pong 1"]
    assert lines[-1].startswith("=== ")
