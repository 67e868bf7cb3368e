"""A scripted Gomocup brain for the client's tests: ``python fake_brain.py MODE [N] [LOG]``.

It plays the first empty square in reading order, and writes every line it receives to
the file ``LOG`` (when given, one line each), after its process id as the first line.
``MODE`` says how it misbehaves once it has made ``N`` moves (default 0):

``good``     never: a correct brain
``hang``     it stops answering (still reading its input, so the end of it ends it)
``crash``    it writes a line to standard error and exits with status 3
``garbage``  it answers ``hello there``
``taken``    it answers the square of the opponent's latest stone, or ``0,0`` taken
``offboard`` it answers ``99,99``
``refuse``   it answers ``UNKNOWN`` to ``RESTART`` (from the start, whatever ``N``)
``stubborn`` it ignores ``END``, the end of its input, SIGINT and SIGTERM: only SIGKILL
             stops it
"""

from __future__ import annotations

import os
import signal
import sys
import time

mode = sys.argv[1]
after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
log = open(sys.argv[3], "a", encoding="utf-8", buffering=1) if len(sys.argv) > 3 else None  # noqa: SIM115
if log is not None:
    log.write(f"{os.getpid()}\n")
if mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)

width = height = 0
taken: set[tuple[int, int]] = set()
played: list[tuple[int, int]] = []  # the brain's own moves
last: tuple[int, int] | None = None
board_lines: list[str] | None = None


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def move() -> None:
    if len(played) >= after and mode != "good":
        if mode == "hang":
            return
        if mode == "crash":
            sys.stderr.write("fake brain: out of luck\n")
            sys.stderr.flush()
            sys.exit(3)
        if mode == "garbage":
            say("hello there")
            return
        if mode == "taken":
            x, y = last if last is not None else (0, 0)
            say(f"{x},{y}")
            return
        if mode == "offboard":
            say("99,99")
            return
    square = next((x, y) for y in range(height) for x in range(width) if (x, y) not in taken)
    taken.add(square)
    played.append(square)
    say("MESSAGE thinking hard")
    say("{},{}".format(*square))


def stop() -> None:
    if mode == "stubborn":
        while True:
            time.sleep(1)
    sys.exit(0)


for raw in iter(sys.stdin.readline, ""):
    line = raw.strip()
    if log is not None:
        log.write(line + "\n")
    word, _, rest = line.partition(" ")
    if board_lines is not None:
        if line == "DONE":
            for entry in board_lines:
                x, y, _field = map(int, entry.split(","))
                taken.add((x, y))
            board_lines = None
            move()
        else:
            board_lines.append(line)
    elif word == "ABOUT":
        say(f'name="fake", mode="{mode}"')
    elif word == "START":
        width = height = int(rest)
        taken.clear()
        say("OK")
    elif word == "RECTSTART":
        width, height = map(int, rest.split(","))
        taken.clear()
        say("OK")
    elif word == "RESTART":
        if mode == "refuse":
            say("UNKNOWN RESTART")
        else:
            taken.clear()
            say("OK")
    elif word == "BEGIN":
        move()
    elif word == "TURN":
        x, y = map(int, rest.split(","))
        last = (x, y)
        taken.add(last)
        move()
    elif word == "BOARD":
        board_lines = []
    elif word == "END":
        stop()
stop()
