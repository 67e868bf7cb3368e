"""UCI engines playing xiangqi as agents: the ranks of their moves counted from 1
(Fairy-Stockfish, which also needs ``UCI_Variant``) or from 0 (Pikafish, and zerosum's
own engine, whose ``Coordinates`` option the agent sets).

Run as a script, this file is a scripted xiangqi engine, ``python
test_uci_agent_xiangqi.py STYLE LOG``: it plays the first legal move of the rules' move
order and logs every line it receives (after its pid, as ``engine_processes`` reads
it). ``STYLE`` is ``fairy`` (offers ``UCI_Variant``, default ``chess``, and counts
ranks from 1; until told ``xiangqi`` it answers with a chess move), ``pikafish`` (no
options; ranks from 0) or ``zerosum`` (offers ``UCI_Variant`` and ``Coordinates``,
``iccs`` or ``fairy-stockfish``, as ``zerosum uci --game xiangqi`` does). Its reading
and writing of moves is its own (a few lines here), not zerosum's notation.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from zerosum.game import ZerosumError
from zerosum.games.xiangqi import Xiangqi
from zerosum.games.xiangqi.rules import START, State, legal_moves, result, verdict

GAME = Xiangqi()
FILES = "abcdefghi"
FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"  # Debian's path, not on PATH


def written(move: int, base: int) -> str:
    """``move`` as coordinates with ranks from ``base``, spelt out point by point."""
    frm, to = move & 127, move >> 7
    return f"{FILES[frm % 9]}{frm // 9 + base}{FILES[to % 9]}{to // 9 + base}"


def read(state: State, text: str, base: int) -> State:
    """The position after the move ``text`` (ranks from ``base``)."""
    found = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", text)
    if found is None:
        raise ValueError(text)
    frm = FILES.index(found[1]) + 9 * (int(found[2]) - base)
    to = FILES.index(found[3]) + 9 * (int(found[4]) - base)
    move = frm | to << 7
    if move not in legal_moves(state):
        raise ValueError(text)
    return result(state, move)


# --------------------------------------------------------------------------- the fake engine


def serve(style: str, log_path: str) -> None:
    """The scripted engine's loop (see the module notes)."""
    log = open(log_path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115
    log.write(f"{os.getpid()}\n")
    variant = "chess"
    base = 1 if style == "fairy" else 0
    state = START

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        line = raw.strip()
        log.write(line + "\n")
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            say(f"id name Fake {style}")
            if style != "pikafish":
                say("option name UCI_Variant type combo default chess var chess var xiangqi")
            if style == "zerosum":
                say("option name Coordinates type combo default iccs var iccs var fairy-stockfish")
            say("uciok")
        elif words[0] == "setoption":
            name, _, value = line.partition(" value ")
            if name.endswith("UCI_Variant"):
                variant = value
            elif name.endswith("Coordinates"):
                base = 1 if value == "fairy-stockfish" else 0
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "position":
            at = words.index("moves") if "moves" in words else len(words)
            state = START if words[1] == "startpos" else GAME.parse_state(" ".join(words[2:at]))
            for text in words[at + 1 :]:
                state = read(state, text, base)
        elif words[0] == "go":
            say("info depth 1 score cp 7 nodes 30")
            if style != "pikafish" and variant != "xiangqi":
                say("bestmove e2e4")
            else:
                say(f"bestmove {written(legal_moves(state)[0], base)}")
        elif words[0] == "quit":
            break


# --------------------------------------------------------------------------- the tests


def fake(style: str, log: Path) -> list[str]:
    return [sys.executable, __file__, style, str(log)]


def sent(log: Path) -> list[str]:
    """The lines the (single) fake engine process received, its pid left out."""
    from engine_processes import sessions

    (session,) = sessions(log)
    return session[1:]


def two_moves(agent: object, log: Path) -> tuple[State, list[str]]:
    """Let the agent play red's first move, answer with black's first legal move, let it
    play again; return the position and what the engine was sent."""
    from zerosum.protocols.uci import UciAgent

    assert isinstance(agent, UciAgent)
    try:
        first = agent.choose(GAME, START)
        assert first == legal_moves(START)[0]
        after = result(START, first)
        reply = legal_moves(after)[0]
        state = result(after, reply)
        second = agent.choose(GAME, state)
        assert second == legal_moves(state)[0]
    finally:
        agent.close()
    return state, sent(log)


@pytest.mark.parametrize(
    ("style", "coordinates", "settings", "base"),
    [
        ("fairy", None, ["setoption name UCI_Variant value xiangqi"], 1),
        ("pikafish", None, [], 0),
        (
            "zerosum",
            None,
            ["setoption name UCI_Variant value xiangqi", "setoption name Coordinates value iccs"],
            0,
        ),
        (
            "zerosum",
            "fairy-stockfish",
            [
                "setoption name UCI_Variant value xiangqi",
                "setoption name Coordinates value fairy-stockfish",
            ],
            1,
        ),
    ],
)
def test_the_ranks_follow_the_engine(
    tmp_path: Path, style: str, coordinates: str | None, settings: list[str], base: int
) -> None:
    from zerosum.protocols.uci import UciAgent

    log = tmp_path / "log"
    agent = UciAgent(fake(style, log), depth=1, coordinates=coordinates, name=style)
    _, lines = two_moves(agent, log)
    first = legal_moves(START)[0]
    reply = legal_moves(result(START, first))[0]
    moves = f"{written(first, base)} {written(reply, base)}"
    assert lines == [
        "uci",
        "isready",
        *settings,
        *(["isready"] if settings else []),
        "ucinewgame",
        "isready",
        "position startpos",
        "go depth 1",
        f"position startpos moves {moves}",
        "go depth 1",
        "quit",
    ]


def test_a_game_from_a_fen_position(tmp_path: Path) -> None:
    from zerosum.protocols.uci import UciAgent

    log = tmp_path / "log"
    fen = "3k5/9/9/9/9/9/9/4C4/9/4K4 w - - 0 1"
    state = GAME.parse_state(fen)
    agent = UciAgent(fake("fairy", log), depth=1, name="fairy")
    try:
        move = agent.choose(GAME, state)
    finally:
        agent.close()
    assert move == legal_moves(state)[0]
    assert f"position fen {GAME.format_state(state)}" in sent(log)


def test_options_given_in_the_spec_are_not_overridden(tmp_path: Path) -> None:
    from zerosum.protocols.uci import UciAgent

    log = tmp_path / "log"
    options = {"UCI_Variant": "xiangqi", "Coordinates": "fairy-stockfish"}
    agent = UciAgent(fake("zerosum", log), depth=1, options=options, name="zerosum")
    _, lines = two_moves(agent, log)
    first = legal_moves(START)[0]
    reply = legal_moves(result(START, first))[0]
    assert lines == [
        "uci",
        "setoption name UCI_Variant value xiangqi",
        "setoption name Coordinates value fairy-stockfish",
        "isready",
        "ucinewgame",
        "isready",
        "position startpos",
        "go depth 1",
        f"position startpos moves {written(first, 1)} {written(reply, 1)}",
        "go depth 1",
        "quit",
    ]


def test_unknown_coordinates_are_refused() -> None:
    from zerosum.protocols.uci import UciAgent

    with pytest.raises(ZerosumError, match="coordinates must be iccs or fairy-stockfish"):
        UciAgent(["true"], depth=1, coordinates="wxf")


def play_out(agents: list[Any], plies: int) -> tuple[State, list[int]]:
    """Play up to ``plies`` plies between two agents from the start (each move checked
    legal by the rules); return the last position and the moves. Closes the agents that
    can be closed."""
    state, moves = START, []
    try:
        for ply in range(plies):
            if verdict(state, legal_moves(state)) is not None:
                break
            move = agents[ply % 2].choose(GAME, state)
            assert move in legal_moves(state)
            moves.append(move)
            state = result(state, move)
    finally:
        for agent in agents:
            if hasattr(agent, "close"):
                agent.close()
    return state, moves


@pytest.mark.skipif(not Path(FAIRY_STOCKFISH).exists(), reason="Debian's fairy-stockfish is absent")
def test_fairy_stockfish_plays_a_short_game() -> None:
    from zerosum.agents import SearchAgent
    from zerosum.protocols.uci import UciAgent
    from zerosum.search.engine import Limits

    fairy = UciAgent(FAIRY_STOCKFISH, depth=4, name="fairy-stockfish")
    assert fairy.engine_name is not None and fairy.engine_name.startswith("Fairy-Stockfish")
    state, moves = play_out([SearchAgent(Limits(nodes=300)), fairy], 30)
    assert len(moves) == 30 or verdict(state, legal_moves(state)) is not None
    assert fairy.last_score is not None and fairy.last_score.depth == 4


def test_zerosum_engine_in_either_coordinates() -> None:
    from zerosum.protocols.uci import UciAgent

    engine = f"{sys.executable} -m zerosum.cli uci --game xiangqi"
    ours = UciAgent(engine, depth=1, name="iccs")
    other = UciAgent(engine, depth=1, coordinates="fairy-stockfish", name="fairy")
    _, moves = play_out([ours, other], 8)
    assert len(moves) == 8


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2])
