"""``zerosum gomocup`` as a manager runs it: a child process on pipes, one command a
line, every reply read back and checked, END (or the end of the input) exiting 0."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

pytestmark = pytest.mark.usefixtures("compiled_kernels")  # zerosum runs as a subprocess

MOVE = re.compile(r"(\d+),(\d+)")
TIMEOUT = 20.0
"""Seconds to wait for one reply before the test gives up on the brain."""


class Brain:
    """The brain in a child process; a reader thread queues its output lines."""

    def __init__(self, *arguments: str, encoding: str | None = None) -> None:
        """Start the brain; ``encoding`` forces its standard streams' encoding."""
        env = {**os.environ, "PYTHONIOENCODING": encoding} if encoding else None
        self.process = subprocess.Popen(
            [sys.executable, "-m", "zerosum.cli", "gomocup", *arguments],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, data: bytes | str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data.encode() if isinstance(data, str) else data)
        self.process.stdin.flush()

    def reply(self, line: bytes | str) -> str:
        """Send one line (CR LF ended, as managers do); return the answer, MESSAGE lines
        skipped."""
        self.send((line.encode() if isinstance(line, str) else line) + b"\r\n")
        while True:
            answer = self.lines.get(timeout=TIMEOUT)
            assert answer is not None, "the brain exited"
            if not answer.startswith("MESSAGE "):
                return answer

    def silent(self, line: str) -> None:
        """Send a line that has no answer (INFO) and check that none came."""
        self.send(line + "\r\n")
        time.sleep(0.05)
        assert self.lines.empty(), self.lines.get()

    def finish(self) -> tuple[int, str]:
        assert self.process.stdin is not None
        self.process.stdin.close()
        code = self.process.wait(timeout=TIMEOUT)
        assert self.process.stderr is not None
        return code, self.process.stderr.read().decode()


@pytest.fixture(params=[None, "ascii"], ids=["locale", "ascii streams"])
def brain(request: pytest.FixtureRequest) -> Iterator[Brain]:
    """The brain, on streams of the locale's encoding, and on ASCII ones (a manager's
    non-ASCII bytes must not end it where the locale is plain C)."""
    running = Brain(encoding=request.param)
    yield running
    if running.process.poll() is None:
        running.process.kill()
        running.process.wait()


def test_a_short_game_bad_lines_and_end(brain: Brain) -> None:
    assert brain.reply("START 15") == "OK"
    brain.silent("INFO timeout_turn 200")
    brain.silent("INFO timeout_match 60000")
    brain.silent("INFO time_left 60000")
    board: set[tuple[int, int]] = set()
    first = MOVE.fullmatch(brain.reply("BEGIN"))
    assert first is not None
    board.add((int(first[1]), int(first[2])))
    for x, y in ((0, 0), (14, 0), (0, 14), (14, 14)):
        if (x, y) in board:
            continue
        board.add((x, y))
        started = time.perf_counter()
        found = MOVE.fullmatch(brain.reply(f"TURN {x},{y}"))
        assert time.perf_counter() - started < 0.2 + 0.4
        assert found is not None
        move = (int(found[1]), int(found[2]))
        assert move not in board and 0 <= move[0] < 15 and 0 <= move[1] < 15
        board.add(move)
    assert brain.reply("NONSENSE here").startswith("UNKNOWN ")
    assert brain.reply(b"\xff\xfe garbage").startswith("UNKNOWN ")
    reply = brain.reply("TURN 15,15")
    assert reply.startswith("ERROR ") and "15,15" in reply
    x, y = next(iter(board))
    reply = brain.reply(f"TURN {x},{y}")
    assert reply.startswith("ERROR ") and f"{x},{y}" in reply
    assert brain.reply("START 99").startswith("ERROR ")
    assert 'name="zerosum"' in brain.reply("ABOUT")
    brain.send("END\r\n")
    assert brain.process.wait(timeout=TIMEOUT) == 0
    assert brain.lines.get(timeout=TIMEOUT) is None  # nothing written after END


def test_the_end_of_the_input_ends_the_brain(brain: Brain) -> None:
    assert brain.reply("START 20") == "OK"
    assert brain.finish() == (0, "")


def test_board_block_over_the_pipe(brain: Brain) -> None:
    assert brain.reply("START 20") == "OK"
    brain.silent("INFO timeout_turn 200")
    # the brain's four on row 3 with 4,3 open: the only win in one
    stones = ["0,3,1", "1,3,1", "2,3,1", "3,3,1", "9,9,2", "10,10,2", "11,9,2", "12,12,2"]
    brain.send("BOARD\r\n" + "".join(f"{line}\r\n" for line in stones))
    assert brain.reply("DONE") == "4,3"
    assert brain.reply("RESTART") == "OK"
    assert brain.finish() == (0, "")


def test_unicode_digits_and_a_huge_line_over_the_pipe(brain: Brain) -> None:
    assert brain.reply("START 15") == "OK"
    brain.silent("INFO timeout_turn 200")
    reply = brain.reply("TURN ７,７".encode())  # full-width digits, in UTF-8
    assert reply.startswith("ERROR TURN ") and reply.isascii(), reply
    assert brain.reply("TURN \u0667,7".encode()).startswith("ERROR TURN ")  # Arabic-Indic
    for line in ("TURN 7," + "7" * 1_000_000, "Z" * 1_000_000):
        reply = brain.reply(line)
        assert reply.split()[0] in ("ERROR", "UNKNOWN") and len(reply) < 300, reply[:300]
        assert "... (" in reply and " characters)" in reply
    found = MOVE.fullmatch(brain.reply("TURN 7,7"))  # the board is still empty but for 7,7
    assert found is not None and (int(found[1]), int(found[2])) != (7, 7)
    assert brain.finish() == (0, "")
