"""Fairy-Stockfish's ``flipello`` (through pyffish) as the othello oracle of the tests.

Flipello is othello with the board written as a chess FEN: the first player is FEN's
white (``P``), the discs still to place are in hand, a move is a drop (``P@e3``) and a
pass is a null move written from a square to itself (``f1f1``). Positions are given to
it square for square (our ``a1`` is its ``a1``) with our black as its white, so no
mapping of moves is needed. Its game ends on a full board or after two passes in a row;
its result is the sign of the outcome for the side to move (a mate score), not the disc
count.
"""

from __future__ import annotations

import pyffish

from zerosum.games.othello.notation import colours
from zerosum.games.othello.rules import State

VARIANT = "flipello"


def fen(state: State) -> str:
    """Return ``state`` as a flipello FEN, each side with a disc in hand per empty square."""
    black, white = colours(state)
    rows = []
    for rank in range(7, -1, -1):
        row, gap = "", 0
        for file in range(8):
            square = 8 * rank + file
            piece = "P" if black >> square & 1 else "p" if white >> square & 1 else ""
            if not piece:
                gap += 1
                continue
            row += (str(gap) if gap else "") + piece
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    empty = 64 - (black | white).bit_count()
    hand = "P" * empty + "p" * empty
    return f"{'/'.join(rows)}[{hand}] {'w' if state[2] == 0 else 'b'} - - 0 1"


def is_pass(move: str) -> bool:
    """Tell whether a flipello move is the pass (a square to itself)."""
    return "@" not in move and move[:2] == move[2:4]


def legal(position: str, moves: list[str] | None = None) -> list[str]:
    """The legal moves after ``moves`` from ``position``: squares (``e3``) or ``pass``."""
    found = pyffish.legal_moves(VARIANT, position, moves or [])
    return sorted("pass" if is_pass(move) else move.split("@")[1] for move in found)


def pass_move(position: str, moves: list[str] | None = None) -> str:
    """The pass as flipello writes it after ``moves`` (the only legal move there)."""
    (found,) = pyffish.legal_moves(VARIANT, position, moves or [])
    return str(found)


def is_over(position: str) -> bool:
    """Tell whether neither side can move: a full board, or a pass answered only by a
    pass."""
    found = legal(position)
    if found != ["pass"]:
        return not found
    return legal(position, [pass_move(position)]) == ["pass"]


def result_sign(position: str) -> int:
    """The sign of the outcome of a finished ``position`` for the side to move."""
    value = pyffish.game_result(VARIANT, position, [])
    return (value > 0) - (value < 0)


def board_after(position: str, square: str) -> str:
    """The board part of the FEN after the drop on ``square``."""
    return str(pyffish.get_fen(VARIANT, position, [f"P@{square}"])).split("[")[0]


def perft(position: str, depth: int, moves: tuple[str, ...] = ()) -> int:
    """Count the move paths of ``depth`` plies after ``moves`` from ``position``, passes
    counted, ending with the game. Each call replays ``moves``, which pyffish does faster
    than it reads a new FEN."""
    if depth == 0:
        return 1
    found = pyffish.legal_moves(VARIANT, position, list(moves))
    if not found:
        return 0
    if len(found) == 1 and is_pass(found[0]):
        after = pyffish.legal_moves(VARIANT, position, [*moves, found[0]])
        if len(after) == 1 and is_pass(after[0]):
            return 0  # neither side can move: the game is over
    if depth == 1:
        return len(found)
    return sum(perft(position, depth - 1, (*moves, move)) for move in found)
