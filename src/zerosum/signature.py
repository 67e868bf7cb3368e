"""The bench signature: fixed positions searched with fixed limits, and their node total.

As in Stockfish's ``bench``, the total node count is a fingerprint of the engine's
behaviour: any change to the search, the move ordering or a built-in game's evaluation
changes it, and a change that should not (a pure speed-up, a refactoring) must leave it
alone. A test pins the total, so that a change of behaviour is always a conscious one.
Each position is searched by a fresh :class:`~zerosum.search.engine.Engine` with the
default options, so the rows do not depend on each other or on their order.

``zerosum bench`` prints the rows, the total and the speed (total nodes over total
seconds); only the node counts are deterministic.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zerosum.games.chess import Chess
from zerosum.games.connect4 import Connect4
from zerosum.games.mnk import MNKGame, tictactoe
from zerosum.games.tree import example
from zerosum.search.engine import Engine, Limits

__all__ = ["POSITIONS", "SignaturePosition", "SignatureRow", "run_signature"]


@dataclass(frozen=True, slots=True)
class SignaturePosition:
    """One benchmark position: a game, a position in its notation, a depth limit.

    ``position`` is the text the game's ``parse_state`` reads (empty for the start);
    ``depth`` ``None`` searches until the game is solved."""

    label: str
    make: Callable[[], Any]
    position: str
    depth: int | None


@dataclass(frozen=True, slots=True)
class SignatureRow:
    """The outcome of one position: the move in the game's notation, score, nodes, time."""

    label: str
    position: str
    depth: int | None
    move: str
    score: int
    nodes: int
    seconds: float


POSITIONS: tuple[SignaturePosition, ...] = (
    SignaturePosition("tictactoe", tictactoe, "", None),
    SignaturePosition("tictactoe", tictactoe, "x../.o./...", 4),
    SignaturePosition("tictactoe", tictactoe, "x.o/.x./..o", None),
    SignaturePosition("mnk 4x4 k=3", lambda: MNKGame(4, 4, 3), "", 6),
    SignaturePosition("mnk 5x5 k=4", lambda: MNKGame(5, 5, 4), "", 4),
    SignaturePosition("connect4", Connect4, "", 6),
    SignaturePosition("connect4", Connect4, "4453", 8),
    SignaturePosition("connect4 4x4", lambda: Connect4(4, 4), "", None),
    SignaturePosition("tree night-market", lambda: example("night-market"), "", None),
    SignaturePosition("tree night-market-2", lambda: example("night-market-2"), "", None),
    SignaturePosition("tree aima-5.2", lambda: example("aima-5.2"), "", None),
    SignaturePosition("chess", Chess, "", 4),
    SignaturePosition(
        "chess", Chess, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", 3
    ),
)
"""The signature's positions, from the built-in games."""


def run_signature(
    positions: tuple[SignaturePosition, ...] = POSITIONS,
) -> tuple[list[SignatureRow], int]:
    """Search every position; return one row per position and the total node count."""
    rows = []
    for item in positions:
        game = item.make()
        state = game.parse_state(item.position) if item.position else game.initial_state()
        start = time.perf_counter()
        result = Engine(game).search(state, Limits(depth=item.depth))
        seconds = time.perf_counter() - start
        move = game.format_move(state, result.best_move) if result.best_move is not None else "-"
        score = result.score if result.score is not None else 0
        rows.append(
            SignatureRow(
                item.label, item.position, item.depth, move, score, result.stats.nodes, seconds
            )
        )
    return rows, sum(row.nodes for row in rows)
