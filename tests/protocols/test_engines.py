"""The external-engine process layer: lines both ways with deadlines, errors that name
the command and its last lines, restarts, and no process left behind, even when the
parent is interrupted or killed outright."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from engine_processes import alive

from zerosum.game import ZerosumError
from zerosum.protocols.engines import (
    MAX_LINE,
    EngineDiedError,
    EngineError,
    EngineProcess,
    EngineStartError,
    EngineTimeoutError,
    split_command,
)

FAKE_BRAIN = Path(__file__).with_name("fake_brain.py")
PATIENCE = 30.0
"""Seconds a test waits for something that should take far less, on a loaded machine."""

ECHO = textwrap.dedent(
    """
    import os, sys
    print("ready in", os.getcwd(), os.environ.get("ZEROSUM_TEST", "-"), flush=True)
    print("a warning", file=sys.stderr, flush=True)
    for line in sys.stdin:
        line = line.strip()
        if line == "quit":
            break
        if line == "die":
            print("dying", file=sys.stderr, flush=True)
            sys.exit(5)
        if line == "long":
            print("x" * 200000, flush=True)
        elif line != "silence":
            print("echo", line, flush=True)
    """
)


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def wait_gone(pid: int) -> None:
    deadline = time.monotonic() + PATIENCE
    while alive(pid):
        assert time.monotonic() < deadline, f"process {pid} is still running"
        time.sleep(0.05)


@pytest.fixture
def echo() -> Iterator[EngineProcess]:
    engine = EngineProcess(python(ECHO), quit_line="quit")
    engine.start()
    yield engine
    engine.close()
    assert not engine.running


def soon() -> float:
    return time.monotonic() + PATIENCE


def test_lines_go_both_ways_and_stderr_is_kept(echo: EngineProcess) -> None:
    assert echo.read_line(soon(), "greeting").startswith("ready in ")
    echo.send("hello")
    assert echo.expect(lambda line: line if line.startswith("echo") else None, PATIENCE, "x") == (
        "echo hello"
    )
    # standard error has a reader of its own: its line arrives in its own time
    deadline = soon()
    while "stderr: a warning" not in echo.last_lines:
        assert time.monotonic() < deadline, echo.last_lines
        time.sleep(0.01)
    assert echo.pid is not None and alive(echo.pid)


def test_a_silent_engine_times_out_naming_itself_and_its_last_lines(echo: EngineProcess) -> None:
    echo.read_line(soon(), "greeting")
    echo.send("silence")
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError) as raised:
        echo.read_line(time.monotonic() + 0.3, "answer to silence")
    assert time.monotonic() - started >= 0.3
    error = raised.value
    assert isinstance(error, ZerosumError) and error.reason == "time"
    assert error.command == echo.command
    assert "gave no answer to silence in time" in str(error)
    assert "'ready in " in str(error)  # the last lines are quoted
    assert echo.running  # a timeout alone does not stop the engine


def test_a_dead_engine_says_how_it_died_and_restarts_clean(echo: EngineProcess) -> None:
    echo.read_line(soon(), "greeting")
    first = echo.pid
    echo.send("die")
    with pytest.raises(EngineDiedError) as raised:
        echo.read_line(soon(), "answer to die")
    assert raised.value.reason == "crash"
    assert "exited with status 5: it stopped before its answer to die" in str(raised.value)
    assert "'stderr: dying'" in str(raised.value)
    with pytest.raises(EngineDiedError, match="cannot take 'hello'"):
        echo.send("hello")
    assert first is not None and not alive(first)
    echo.start()  # a new process, and only its lines
    assert echo.pid != first
    assert echo.read_line(soon(), "greeting").startswith("ready in ")
    assert "stderr: dying" not in echo.last_lines


def test_a_long_line_comes_in_pieces(echo: EngineProcess) -> None:
    echo.read_line(soon(), "greeting")
    echo.send("long")
    pieces = [echo.read_line(soon(), "a piece") for _ in range(-(-200000 // MAX_LINE))]
    assert "".join(pieces) == "x" * 200000
    assert all(len(piece) <= MAX_LINE for piece in pieces)


def test_working_directory_and_environment(tmp_path: Path) -> None:
    with EngineProcess(
        python(ECHO), cwd=str(tmp_path), env={"ZEROSUM_TEST": "yes"}, quit_line="quit"
    ) as engine:
        assert engine.read_line(soon(), "greeting") == f"ready in {tmp_path} yes"
    assert not engine.running


@pytest.mark.parametrize(
    ("command", "cwd", "message"),
    [
        ("", None, "empty engine command ''"),
        ("   ", None, "empty engine command '   '"),
        ("pbrain 'unclosed", None, 'cannot read engine command "pbrain \'unclosed"'),
        ("no-such-pbrain-zerosum --x", None, "no executable program 'no-such-pbrain-zerosum'"),
        ("./not-here", None, "no executable program './not-here'"),
        (sys.executable, "/no/such/dir", "working directory '/no/such/dir' is not a directory"),
    ],
)
def test_commands_that_cannot_run(command: str, cwd: str | None, message: str) -> None:
    with pytest.raises(EngineStartError) as raised:
        EngineProcess(command, cwd=cwd)
    assert message in str(raised.value)
    assert isinstance(raised.value, EngineError)


def test_a_program_is_found_relative_to_the_working_directory(tmp_path: Path) -> None:
    script = tmp_path / "pbrain-echo"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} -c 'print(\"hi\")'\n")
    script.chmod(0o755)
    with EngineProcess("./pbrain-echo", cwd=str(tmp_path)) as engine:
        assert engine.read_line(soon(), "greeting") == "hi"


def test_split_command() -> None:
    assert split_command("zerosum gomocup --quiet") == ("zerosum", "gomocup", "--quiet")
    assert split_command("'/opt/my brains/pbrain' -x") == ("/opt/my brains/pbrain", "-x")
    assert split_command(["a b", "c"]) == ("a b", "c")


def test_close_escalates_to_kill_for_an_engine_that_ignores_everything(tmp_path: Path) -> None:
    log = tmp_path / "log"
    engine = EngineProcess([sys.executable, str(FAKE_BRAIN), "stubborn", "0", str(log)])
    engine.start()
    engine.send("ABOUT")
    engine.read_line(soon(), "answer to ABOUT")  # its signal handlers are in place
    pid = engine.pid
    assert pid is not None
    started = time.monotonic()
    engine.close(grace=0.5)
    assert time.monotonic() - started >= 1.0  # END + end of input, then SIGTERM, waited
    assert not engine.running and not alive(pid)
    engine.close()  # closing again does nothing


def child_with_agent(tmp_path: Path, mode: str) -> tuple[subprocess.Popen[str], int]:
    """A Python process that makes a Gomocup agent on the fake brain and sleeps; return
    it and the brain's process id."""
    log = tmp_path / f"{mode}.log"
    spec = f"gomocup:cmd={sys.executable} {FAKE_BRAIN} {mode} 0 {log}"
    code = textwrap.dedent(
        f"""
        import time
        from zerosum.specs import make_agent
        agent = make_agent({spec!r})
        print(agent.engine.pid, flush=True)
        time.sleep(600)
        """
    )
    child = subprocess.Popen(python(code), stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    pid = int(child.stdout.readline())
    assert int(log.read_text().split()[0]) == pid and alive(pid)
    return child, pid


def test_a_killed_parent_leaves_no_engine_that_reads_its_input(tmp_path: Path) -> None:
    child, pid = child_with_agent(tmp_path, "good")
    try:
        os.kill(child.pid, signal.SIGKILL)  # no handler runs: only the closed pipe tells
        assert child.wait(PATIENCE) == -signal.SIGKILL
        wait_gone(pid)
    finally:
        child.kill()
        child.wait()
        assert child.stdout is not None
        child.stdout.close()


def test_an_interrupted_parent_kills_even_a_stubborn_engine_on_exit(tmp_path: Path) -> None:
    child, pid = child_with_agent(tmp_path, "stubborn")
    try:
        os.kill(child.pid, signal.SIGINT)  # Ctrl-C: KeyboardInterrupt, then atexit
        assert child.wait(PATIENCE) != 0
        assert not alive(pid)  # reaped by the exit handler before the parent ended
    finally:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
        child.kill()
        child.wait()
        assert child.stdout is not None
        child.stdout.close()
