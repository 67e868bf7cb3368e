"""``zerosum play``: through a real pseudo-terminal once, then with piped input: moves, bad
input, hints, undo, the engine first, agents on both sides, a bare setup argument, a game
of one's own named ``module:attribute`` (one with only the six protocol methods, too),
and one-line errors."""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pytest
from play_session import Terminal, play

from zerosum.cli import main

PLUGIN_SITE = Path(__file__).resolve().parents[1] / "fixtures" / "plugin_site"


def test_tictactoe_through_a_pseudo_terminal() -> None:
    terminal = Terminal("play", "tictactoe", "--time", "0.2")
    try:
        terminal.expect("X to move> ")
        assert "\x1b[" in terminal.seen  # a terminal gets the coloured board
        terminal.send("b2")
        terminal.expect("O (engine) plays ")
        terminal.expect("X to move> ", timeout=30)
        terminal.send("b2")
        terminal.expect("illegal move 'b2'")
        terminal.expect("b2 is taken; try again")
        terminal.send("hint")
        terminal.expect("hint: ")
        terminal.send("quit")
    finally:
        code = terminal.close()
    assert code == 0


def test_engine_first_through_a_pseudo_terminal_and_ctrl_d() -> None:
    terminal = Terminal("play", "tictactoe", "--engine-first", "--time", "0.2")
    try:
        terminal.expect("X (engine) plays ")
        terminal.expect("O to move> ")
        os.write(terminal.master, b"\x04")  # Ctrl-D: end of input
    finally:
        code = terminal.close()
    assert code == 0


def test_piped_session_with_bad_input_hint_and_undo(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = play(
        monkeypatch,
        capsys,
        "tictactoe",
        "--second",
        "engine:depth=9",
        lines="b2\nzz\nhint\nundo\nmoves\nquit\n",
    )
    assert (code, err) == (0, "")
    assert "Tic-tac-toe: X (you), O (engine:depth=9)." in out
    assert "O (engine:depth=9) plays " in out
    assert "cannot read move 'zz'" in out and "try again" in out
    assert re.search(r"hint: [abc][123] \(draw, searched \d+ plies, \d+ nodes", out)
    assert "taken back" in out
    assert "a3 b3 c3 a2 b2 c2 a1 b1 c1" in out  # every cell is free again
    assert "\x1b[" not in out  # no colours in a pipe


def test_piped_game_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the engine plays first and perfectly, the second player too: a draw
    code, out, _ = play(
        monkeypatch,
        capsys,
        "tictactoe",
        "--first",
        "engine:depth=9",
        "--second",
        "engine:depth=9,name=other",
    )
    assert code == 0
    assert out.rstrip().endswith("Draw (1/2-1/2).")
    assert out.count(" plays ") == 9


def test_the_engine_first_and_the_starting_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = play(
        monkeypatch, capsys, "tictactoe", "--human-second", "--time", "0.05", lines="quit\n"
    )
    assert code == 0 and "X (engine) plays " in out and "X to move> " not in out
    code, out, _ = play(
        monkeypatch, capsys, "tictactoe", "--moves", "b2,a1", "--second", "human", lines="quit\n"
    )
    assert code == 0 and "3 · · ·\n2 · X ·\n1 O · ·" in out
    code, out, _ = play(
        monkeypatch,
        capsys,
        "tictactoe",
        "--position",
        "xo./.x./...",
        "--second",
        "engine:depth=9",
        lines="",
    )
    assert code == 0 and "O (engine:depth=9) plays c1" in out  # the only defence


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nosuchgame"], "unknown game 'nosuchgame'"),
        (["tictactoe", "--second", "engine:depth=x"], "depth must be a whole number"),
        (["tictactoe", "--engine-first", "--first", "human"], "cannot be combined"),
        (["tictactoe", "--moves", "b2,b2"], "b2 is taken"),
        (["tictactoe", "--position", "xxx/ooo/..."], "impossible position"),
        (["tictactoe", "--time", "0"], "positive number of seconds"),
        (["tictactoe", "7"], "game 'tictactoe' takes no bare argument '7'"),
        (["bare_games:BareNim", "--position", "x"], "'bare-nim' cannot read a position"),
        (["bare_games:Missing"], "game 'bare_games:Missing': 'bare_games' has no attribute"),
        (["no_such_module_here:Game"], "cannot import 'no_such_module_here'"),
        (["bare_games:SIX"], "bare_games.SIX is a int, not a class or a function"),
        (["bare_games:NotAGame"], "which is not a game: it has no to_move, result"),
    ],
)
def test_bad_arguments_are_one_line_errors(
    argv: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    try:
        code = main(["play", *argv])
    except SystemExit as exit_:  # argparse's own errors
        code = int(exit_.code or 0)
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "board", "moves"),
    [
        (["nim", "3,4,5"], "heap 3:   5 |||||", "1:1 1:2 1:3 2:1 2:2 2:3 2:4 3:1 3:2 3:3 3:4 3:5"),
        (["stones-vii", "5,3,1,4,2"], "stones: 5 3 1 4 2", "left 5 right 2"),
    ],
)
def test_a_bare_setup_argument_sets_the_game_s_main_option(
    argv: list[str],
    board: str,
    moves: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = play(monkeypatch, capsys, *argv, lines="moves\nquit\n")
    assert (code, err) == (0, "")
    assert board in out
    assert moves in out


def test_a_game_of_one_s_own_with_only_the_protocol_plays_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # bare_games:BareNim has no notation, render or evaluate: moves and states are str
    code, out, err = play(
        monkeypatch,
        capsys,
        "bare_games:BareNim",
        "1,2",
        "--time",
        "0.2",
        lines="(0, 9)\n(0, 1)\n",
    )
    assert (code, err) == (0, "")
    assert out.startswith("Bare Nim: first (you), second (engine).")
    assert "illegal move '(0, 9)' in ((1, 2), 0): the legal moves are (0, 1), (1, 1), (1, 2)" in out
    assert "second (engine) plays (1, 2) (win in 1 ply, searched to the end" in out
    assert out.rstrip().endswith("((0, 0), 0)\nsecond (engine) wins (0-1).")


def test_the_import_form_finds_a_module_in_the_current_directory(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "my_pile_here.py").write_text(
        "from tinygames import Pile as MyPile\n", encoding="utf-8"
    )
    monkeypatch.setattr(sys, "path", [*sys.path, str(PLUGIN_SITE)])
    monkeypatch.chdir(tmp_path)
    code, out, err = play(
        monkeypatch, capsys, "my_pile_here:MyPile:size=2", "--engine-first", lines=""
    )
    assert (code, err) == (0, "")
    assert "first (engine) plays 2 (win in 1 ply" in out


def test_chess_in_san_and_uci_with_hint_undo_and_errors(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = play(
        monkeypatch,
        capsys,
        "chess",
        "--second",
        "engine:depth=1",
        "--time",
        "0.05",
        lines="e2e4\nNf3\nhint\nKe3\nhello\nundo\nquit\n",
    )
    assert (code, err) == (0, "")
    assert "Chess: white (you), black (engine:depth=1)." in out
    assert "8 r n b q k b n r\n7 p p p p p p p p" in out  # the board picture
    assert "4 . . . . P . . ." in out  # e2e4 read as UCI
    assert ". . . . . N . ." in out  # Nf3 read as SAN
    assert out.count("black (engine:depth=1) plays ") == 2
    assert re.search(r"hint: \S+ \(eval [+-]\d+ centipawns, searched \d+ pl", out)
    errors = [line for line in out.splitlines() if "try again" in line]
    assert len(errors) == 2
    assert errors[0].startswith("white to move> 'Ke3' is not a legal move in r")
    assert "'hello' is not a move in SAN or UCI" in errors[1]
    assert "taken back" in out


def test_chess_mate_ends_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = play(
        monkeypatch,
        capsys,
        "chess",
        "--position",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "--second",
        "engine:depth=1",
        lines="Ra8\n",
    )
    assert code == 0
    assert out.rstrip().endswith("black to move, in check\nwhite (you) wins (1-0).")
