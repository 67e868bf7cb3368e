"""``zerosum uci`` as a GUI runs it: driven by python-chess's engine client (the test
oracle, never imported by zerosum itself), every move checked legal by python-chess."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import chess
import chess.engine
import pytest

COMMAND = [sys.executable, "-m", "zerosum.cli", "uci"]
TIMEOUT = 60.0
"""Seconds python-chess waits for the engine's start and each answer."""


@pytest.fixture
def engine() -> Iterator[chess.engine.SimpleEngine]:
    client = chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=TIMEOUT)
    try:
        yield client
    finally:
        client.quit()  # sends quit and reaps the process


def test_the_engine_introduces_itself(engine: chess.engine.SimpleEngine) -> None:
    assert engine.id["name"].startswith("zerosum ")
    assert engine.options["Hash"].default == 16
    engine.configure({"Hash": 8, "Threads": 1})


def test_a_gui_plays_moves_with_it(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    for _ in range(6):
        played = engine.play(board, chess.engine.Limit(time=0.1))
        assert played.move is not None and played.move in board.legal_moves
        board.push(played.move)


def test_a_gui_analyses_with_it(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["score"].white() == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("a1a8")
    board = chess.Board()
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["depth"] == 3 and info["pv"][0] in board.legal_moves


def test_a_chess960_game(engine: chess.engine.SimpleEngine) -> None:
    """python-chess sets UCI_Chess960 for a Chess960 board and reads moves so."""
    board = chess.Board.from_chess960_pos(518 + 1)
    for _ in range(4):
        played = engine.play(board, chess.engine.Limit(depth=2))
        assert played.move is not None and played.move in board.legal_moves
        board.push(played.move)


@pytest.mark.parametrize(("hash_mb", "ok"), [("1", True), ("0", False), ("lots", False)])
def test_the_hash_argument(hash_mb: str, ok: bool) -> None:
    done = subprocess.run(
        [*COMMAND, "--hash", hash_mb],
        input="isready\nquit\n",
        check=False,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    if ok:
        assert (done.returncode, done.stdout) == (0, "readyok\n")
    else:
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and "error" in done.stderr
