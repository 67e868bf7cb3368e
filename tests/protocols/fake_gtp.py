"""A scripted GTP engine for the client's tests: ``python fake_gtp.py MODE [N] [LOG]``.

It plays tic-tac-toe: the first legal move (zerosum's order) of the side it is asked
for, and writes every line it receives to the file ``LOG`` (when given, one line each),
after its process id as the first line. ``list_commands`` is answered on several lines
(``level`` among them in ``level`` mode). ``MODE`` says how it misbehaves once it has
made ``N`` moves (default 0):

``good``     never: a correct engine
``ids``      never, but it answers every command with an id of its own (``=7``)
``level``    never, and it lists and takes ``level``
``hang``     it stops answering ``genmove`` (still reading its input, so the end of it
             ends it)
``crash``    it writes a line to standard error and exits with status 3
``garbage``  it answers ``genmove`` with ``hello there``, not a response at all
``banana``   it answers ``= banana``, neither a vertex nor pass
``taken``    it answers the opponent's latest move (a taken square)
``pass``     it answers ``= pass``, which tic-tac-toe has not
``resign``   it answers ``= resign``
``refuse``   it answers ``? illegal move`` to ``play``
"""

from __future__ import annotations

import os
import sys

from zerosum.games.mnk import tictactoe

mode = sys.argv[1]
after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
log = open(sys.argv[3], "a", encoding="utf-8", buffering=1) if len(sys.argv) > 3 else None  # noqa: SIM115
if log is not None:
    log.write(f"{os.getpid()}\n")

game = tictactoe()
COMMANDS = [
    "protocol_version",
    "name",
    "version",
    "list_commands",
    "boardsize",
    "clear_board",
    "play",
    "genmove",
    "time_settings",
    "time_left",
    "quit",
]
if mode == "level":
    COMMANDS.append("level")


class Board:
    """The engine's position, the opponent's latest move, and how many moves it made."""

    state = game.initial_state()
    last = "a1"
    played = 0


def answer(text: str = "", ok: bool = True) -> None:
    head = ("=" if ok else "?") + ("7" if mode == "ids" else "")
    sys.stdout.write(f"{head} {text}\n\n" if text else f"{head}\n\n")
    sys.stdout.flush()


def genmove() -> None:
    misbehave = Board.played >= after and mode not in ("good", "ids", "level", "refuse")
    Board.played += 1
    if misbehave and mode == "hang":
        return
    if misbehave and mode == "crash":
        sys.stderr.write("fake gtp: bus error\n")
        sys.stderr.flush()
        sys.exit(3)
    if misbehave and mode == "garbage":
        sys.stdout.write("hello there\n")
        sys.stdout.flush()
        return
    if misbehave:
        answer({"banana": "banana", "taken": Board.last.upper()}.get(mode, mode))
        return
    move = game.actions(Board.state)[0]
    text = game.format_move(Board.state, move)
    Board.state = game.result(Board.state, move)
    answer(text.upper())


for raw in iter(sys.stdin.readline, ""):
    line = raw.strip()
    if log is not None:
        log.write(line + "\n")
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command == "protocol_version":
        answer("2")
    elif command == "name":
        answer("Fake GTP")
    elif command == "version":
        answer(mode)
    elif command == "list_commands":
        answer("\n".join(COMMANDS))
    elif command == "boardsize":
        answer() if words[1:] == ["3"] else answer("unacceptable size", ok=False)
    elif command == "clear_board":
        Board.state = game.initial_state()
        answer()
    elif command == "play":
        if mode == "refuse" and Board.played >= after:
            answer("illegal move", ok=False)
            continue
        Board.last = words[2]
        Board.state = game.result(Board.state, game.parse_move(Board.state, words[2]))
        answer()
    elif command == "genmove":
        genmove()
    elif command in ("time_settings", "time_left", "level") and command in COMMANDS:
        answer()
    elif command == "quit":
        answer()
        break
    else:
        answer("unknown command", ok=False)
