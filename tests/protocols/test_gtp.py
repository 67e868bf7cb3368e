"""zerosum's GTP engine as text in, text out: the administrative commands, a game played
through play and genmove (the engine's moves checked against plain minimax), undo,
showboard, final_score, the clocks, bad lines of every kind (each a ``?`` answer with
the board unchanged, and the loop going on), and the ``zerosum gtp`` command itself."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum import __version__
from zerosum.game import MissingCapabilityError
from zerosum.games import registry
from zerosum.games.gomoku import Gomoku
from zerosum.games.mnk import MNKGame, tictactoe
from zerosum.protocols.gtp import GtpEngine
from zerosum.search.engine import Limits
from zerosum.search.reference import minimax

pytestmark = pytest.mark.usefixtures("compiled_kernels")  # zerosum runs as a subprocess

GAME = tictactoe()
RESPONSE = re.compile(r"([=?])([0-9]*)(?: (.*))?")


def engine_for(game: object = GAME, limits: Limits | None = None) -> tuple[GtpEngine, io.StringIO]:
    out = io.StringIO()
    return GtpEngine(game, out, limits=limits or Limits(depth=9)), out


def responses(out: io.StringIO) -> list[tuple[bool, str, str]]:
    """Each response written: success, id, and its text (lines joined by newlines)."""
    found = []
    for block in out.getvalue().split("\n\n"):
        if not block:
            continue
        head, *rest = block.split("\n")
        match = RESPONSE.fullmatch(head)
        assert match is not None, head
        text = "\n".join([match[3] or "", *rest]).strip("\n")
        found.append((match[1] == "=", match[2], text))
    assert out.getvalue().endswith("\n\n")
    return found


def talk(engine: GtpEngine, out: io.StringIO, *lines: str) -> list[tuple[bool, str, str]]:
    """Send ``lines``; return the responses they produced."""
    before = len(responses(out)) if out.getvalue() else 0
    for line in lines:
        engine.handle(line)
    return responses(out)[before:]


def test_the_administrative_commands() -> None:
    engine, out = engine_for()
    answers = talk(
        engine,
        out,
        "protocol_version",
        "1 name",
        "version",
        "known_command genmove",
        "known_command fly",
        "list_commands",
        "komi 6.5",
    )
    listed = answers[5][2].split("\n")
    assert answers[:5] == [
        (True, "", "2"),
        (True, "1", "zerosum"),
        (True, "", __version__),
        (True, "", "true"),
        (True, "", "false"),
    ]
    assert listed == [
        "protocol_version", "name", "version", "known_command", "list_commands",
        "boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard",
        "final_score", "time_settings", "time_left", "quit",
    ]  # fmt: skip
    assert answers[6] == (True, "", "")
    assert all(talk(engine, out, f"known_command {name}")[0][2] == "true" for name in listed)


def test_lines_are_cleaned_as_the_specification_says() -> None:
    engine, out = engine_for()
    assert talk(engine, out, "", "   ", "# a comment", "\x01pro\x7ftocol_version # v", "\tname")
    assert responses(out) == [(True, "", "2"), (True, "", "zerosum")]


def test_a_game_through_play_and_genmove_with_undo() -> None:
    engine, out = engine_for()
    assert (
        talk(engine, out, "boardsize 3", "clear_board", "play b b2", "play white A1")
        == [(True, "", "")] * 4
    )
    # X: b2; O: a1; X to move, and its best move wins: check the engine's against minimax
    (ok, _, vertex), *_ = talk(engine, out, "5 genmove b")
    assert ok
    before = GAME.parse_state(".../.x./o..")
    move = GAME.parse_move(before, vertex)
    assert minimax(GAME, GAME.result(before, move)).score == -minimax(GAME, before).score
    assert engine.state == GAME.result(before, move)
    assert talk(engine, out, "undo") == [(True, "", "")]
    assert engine.state == before
    assert talk(engine, out, "undo", "undo", "undo") == [
        (True, "", ""),
        (True, "", ""),
        (False, "", "cannot undo: no move has been played"),
    ]
    assert engine.state == GAME.initial_state()


def test_the_engine_finishes_a_won_game_and_scores_it() -> None:
    engine, out = engine_for()
    talk(engine, out, "play b a3", "play w a2", "play b b3", "play w b2")
    ((ok, _, vertex),) = talk(engine, out, "genmove b")
    assert (ok, vertex) == (True, "c3")  # the only win at once, and the engine is quickest
    assert talk(engine, out, "final_score", "genmove w") == [
        (True, "", "B+1"),
        (False, "", "genmove: the game is over in xxx/oo./..."),
    ]


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("fly", "unknown command 'fly'"),
        ("12", "syntax error: an id and no command"),
        ("play b", "syntax error: expected play COLOUR VERTEX"),
        ("play red a1", "syntax error: 'red' is no colour (b, w, black, white)"),
        ("play w z9", "illegal move: "),
        ("play w a1a", "syntax error: cannot read move 'a1a'"),
        ("play w b2", "illegal move: "),  # taken
        ("play b c1", "illegal move: black is not to move in .../.x./..."),
        ("genmove b", "genmove: black is not to move in .../.x./..."),
        ("boardsize 9", "unacceptable size: tictactoe plays on 3x3"),
        ("boardsize 3 4", "unacceptable size: tictactoe plays on 3x3"),
        ("boardsize x", "syntax error: boardsize: 'x' is not a whole number"),
        ("komi lots", "syntax error: komi 'lots' is not a number"),
        ("time_settings 1 2", "syntax error: expected time_settings MAIN"),
        ("time_left b -1 0", "syntax error: time_left: '-1' is not a number of seconds"),
        ("final_score", "cannot score: the game is not over in .../.x./..."),
        ("known_command", "syntax error: expected known_command COMMAND"),
        ("play w " + "a" * 1000, "syntax error: cannot read move 'aaaa"),
    ],
)
def test_bad_lines_get_a_failure_and_change_nothing(line: str, answer: str) -> None:
    engine, out = engine_for()
    talk(engine, out, "play b b2")
    before = engine.state
    ((ok, ident, text),) = talk(engine, out, line)
    assert not ok and ident == ("12" if line == "12" else "")
    assert text.startswith(answer)
    assert len(text) < 300 and "\n" not in text
    assert engine.state == before
    assert talk(engine, out, "name") == [(True, "", "zerosum")]  # the loop goes on


def test_showboard_draws_the_board_below_the_sign() -> None:
    engine, out = engine_for()
    talk(engine, out, "play b b2")
    engine.handle("showboard")
    assert out.getvalue().endswith("= \n" + GAME.render(engine.state).rstrip("\n") + "\n\n")


def test_quit_answers_and_ends_the_loop() -> None:
    engine, out = engine_for()
    assert engine.handle("3 quit") is False
    assert out.getvalue() == "=3\n\n"
    engine2, out2 = engine_for()
    engine2.run(["name", "quit", "version"])
    assert responses(out2) == [(True, "", "zerosum"), (True, "", "")]


def test_a_rectangular_board_takes_its_own_width_and_height() -> None:
    game = MNKGame(4, 3, 3)
    engine, out = engine_for(game)
    assert talk(engine, out, "boardsize 4 3", "boardsize 4") == [
        (True, "", ""),
        (False, "", "unacceptable size: mnk plays on 4x3"),
    ]


def test_a_clock_plans_the_move_from_the_time_left() -> None:
    # thirty seconds a move by default; one second on the clock plays at once
    engine, out = engine_for(Gomoku(9), Limits(time=30))
    talk(engine, out, "time_settings 300 0 0", "time_left b 1 0")
    started = time.perf_counter()
    ((ok, _, vertex),) = talk(engine, out, "genmove b")
    assert ok and Gomoku(9).parse_move(Gomoku(9).initial_state(), vertex) is not None
    assert time.perf_counter() - started < 1.0
    # byo-yomi: two seconds for two stones, then "no limits" gives back the default
    assert talk(engine, out, "time_settings 0 2 2", "time_left w 2 2") == [(True, "", "")] * 2
    started = time.perf_counter()
    assert talk(engine, out, "genmove w")[0][0]
    assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize("name", ["connect4", "chess", "nim"])
def test_games_whose_moves_are_not_board_points(name: str) -> None:
    with pytest.raises(MissingCapabilityError, match="GTP"):
        engine_for(registry.make(name))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=8))
def test_any_lines_get_well_formed_answers(lines: list[str]) -> None:
    engine, out = engine_for(GAME, Limits(depth=1))
    for line in lines:
        for piece in line.split("\n"):
            if not engine.handle(piece):
                break
    if out.getvalue():
        responses(out)  # every response is = or ?, an id, text, and a blank line


def test_the_command_line_engine() -> None:
    commands = "protocol_version\nplay b b2\ngenmove w\nshowboard\nfly\nquit\n"
    done = subprocess.run(
        [sys.executable, "-m", "zerosum.cli", "gtp", "--game", "tictactoe", "--depth", "9"],
        input=commands, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    blocks = done.stdout.split("\n\n")
    assert blocks[:2] == ["= 2", "="]
    assert blocks[2] in ("= a1", "= a3", "= c1", "= c3")  # O must take a corner
    assert blocks[4:] == ["? unknown command 'fly'", "=", ""]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--game", "connect4"], "GTP speaks of board points"),
        (["--game", "tictactoe", "--time", "0"], "time"),
        (["--game", "tictactoe", "--time", "1,depth=3"], "--time must be a number"),
        (["--game", "nosuchgame"], "unknown game 'nosuchgame'"),
    ],
)
def test_the_command_line_refuses_bad_arguments(arguments: list[str], message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "zerosum.cli", "gtp", *arguments],
        input="", capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("zerosum: error: ") and message in done.stderr
    assert done.stdout == ""
