"""Running ``zerosum play`` in a test: in this process with piped input
(:func:`play`), or as a child on a real pseudo-terminal (:class:`Terminal`)."""

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
"""A colour escape, removed before text is looked for."""


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
        env = {**os.environ, "COLUMNS": "100", "TERM": "xterm", "LANG": "C.UTF-8"}
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

    def expect(self, text: str, timeout: float = 30.0, times: int = 1) -> str:
        """Read until ``text`` has appeared ``times`` times (colours removed); return what
        was read."""
        deadline = time.monotonic() + timeout
        while ANSI.sub("", self.seen).count(text) < times:
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
