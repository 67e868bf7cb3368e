"""``zerosum play``: through a real pseudo-terminal once, then with piped input: moves, bad
input, hints, undo, the engine first, agents on both sides and one-line errors."""

from __future__ import annotations

import io
import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

from zerosum.cli import main

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str, lines: str = ""
) -> tuple[int, str, str]:
    """Run ``zerosum play`` in this process with ``lines`` as its standard input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    code = main(["play", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


class Terminal:
    """A child process on a pseudo-terminal, read until expected text shows."""

    def __init__(self, *argv: str) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "COLUMNS": "100", "TERM": "xterm"}
        env.pop("NO_COLOR", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "zerosum.cli", *argv],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.seen = ""

    def expect(self, text: str, timeout: float = 30.0) -> str:
        """Read until ``text`` appears (colours removed); return what was read."""
        deadline = time.monotonic() + timeout
        while text not in ANSI.sub("", self.seen):
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never showed; the terminal shows:\n{self.seen}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the child closed the terminal
                    chunk = b""
                assert chunk, f"the program ended before {text!r}:\n{self.seen}"
                self.seen += chunk.decode("utf-8", "replace")
        return self.seen

    def send(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")

    def close(self) -> int:
        code = self.process.wait(timeout=30)
        os.close(self.master)
        return code


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
    assert re.search(r"hint: [abc][123] \(score \+0, depth \d+", out)
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
