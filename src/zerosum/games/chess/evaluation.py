"""A simple chess evaluation: material plus piece-square values, in centipawns.

The piece-square values are written as formulas of the square, not copied tables:
pawns gain as they advance and in the centre files, knights and bishops in the centre,
rooks on the seventh rank, the king on its home rank away from the centre files. It is
a starting point for the engine work, not a strong evaluation.
"""

from __future__ import annotations

from zerosum.games.bitboards import bit_indices
from zerosum.games.chess.rules import State

__all__ = ["PIECE_VALUES", "TABLES", "evaluate"]

PIECE_VALUES = (100, 320, 330, 500, 900, 0)
"""Centipawns of a pawn, knight, bishop, rook, queen and king."""


def _centrality(sq: int) -> int:
    """0 on the edge up to 3 in the four centre squares."""
    file, rank = sq & 7, sq >> 3
    return min(file, 7 - file, rank, 7 - rank)


def _bonus(piece: int, sq: int) -> int:
    """The piece-square bonus of ``piece`` on ``sq``, seen from white's side."""
    file, rank = sq & 7, sq >> 3
    if piece == 0:
        return 6 * rank + (10 if file in (3, 4) and rank in (3, 4) else 0)
    if piece in (1, 2):
        return (12 if piece == 1 else 6) * _centrality(sq) - (10 if piece == 1 else 0)
    if piece == 3:
        return 20 if rank == 6 else 0
    if piece == 4:
        return 3 * _centrality(sq)
    return (15 if file in (1, 2, 6) else 0) - 20 * rank


TABLES = tuple(
    tuple(
        tuple(PIECE_VALUES[piece] + _bonus(piece, sq ^ (56 * colour)) for sq in range(64))
        for piece in range(6)
    )
    for colour in range(2)
)
"""``TABLES[colour][piece][sq]``: value plus bonus, black's read on the mirrored square,
so the evaluation is one lookup per piece."""


def evaluate(state: State) -> int:
    """Return the material and piece-square balance for the side to move, in centipawns."""
    score = 0
    white, black = state[0], state[1]
    for piece, pieces in enumerate(state[2:8]):
        white_table, black_table = TABLES[0][piece], TABLES[1][piece]
        score += sum(white_table[sq] for sq in bit_indices(pieces & white))
        score -= sum(black_table[sq] for sq in bit_indices(pieces & black))
    return -score if state[8] else score
