"""A scripted UCI engine for the client's tests: ``python fake_uci.py MODE [N] [LOG]``.

It plays the first legal move (zerosum's chess move order), after two ``info`` lines (a
score at depth 1, then a bound at depth 2 that a client must not take as the score), and
writes every line it receives to the file ``LOG`` (when given, one line each), after its
process id as the first line. It offers the options ``Hash``, ``Skill Level`` and
``UCI_Chess960`` (but in ``plain`` mode). ``MODE`` says how it misbehaves once it has
made ``N`` moves (default 0):

``good``     never: a correct engine
``hang``     it stops answering ``go`` (still reading its input, so the end of it ends it)
``crash``    it writes a line to standard error and exits with status 3
``garbage``  it answers ``bestmove banana``
``illegal``  it answers ``bestmove e2e5``
``none``     it answers ``bestmove (none)``
``plain``    never, but it offers no options at all
"""

from __future__ import annotations

import os
import sys

from zerosum.games.chess import Chess

mode = sys.argv[1]
after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
log = open(sys.argv[3], "a", encoding="utf-8", buffering=1) if len(sys.argv) > 3 else None  # noqa: SIM115
if log is not None:
    log.write(f"{os.getpid()}\n")

game = Chess()


class Board:
    """The position the engine was last given, and how many moves it has made."""

    state = game.initial_state()
    played = 0


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def position(words: list[str]) -> None:
    at = words.index("moves") if "moves" in words else len(words)
    fen = " ".join(words[2:at])
    state = game.initial_state() if words[1] == "startpos" else game.parse_state(fen)
    for text in words[at + 1 :]:
        state = game.result(state, game.parse_move(state, text))
    Board.state = state


def go() -> None:
    misbehave = Board.played >= after and mode not in ("good", "plain")
    Board.played += 1
    if misbehave and mode == "hang":
        return
    if misbehave and mode == "crash":
        sys.stderr.write("fake engine: segmentation fault\n")
        sys.stderr.flush()
        sys.exit(3)
    say("info depth 1 score cp 12 nodes 20 pv e2e4")
    say("info depth 2 score mate 3 lowerbound nodes 400")
    if misbehave:
        say({"garbage": "bestmove banana", "illegal": "bestmove e2e5"}.get(mode, "bestmove (none)"))
        return
    say(f"bestmove {game.format_uci(Board.state, game.actions(Board.state)[0])} ponder a7a6")


for raw in sys.stdin:
    line = raw.strip()
    if log is not None:
        log.write(line + "\n")
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        say("id name Fake UCI")
        say("id author the zerosum tests")
        if mode != "plain":
            say("option name Hash type spin default 16 min 1 max 64")
            say("option name Skill Level type spin default 20 min 0 max 20")
            say("option name UCI_Chess960 type check default false")
        say("uciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "position":
        position(words)
    elif words[0] == "go":
        go()
    elif words[0] == "quit":
        break
