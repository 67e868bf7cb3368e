"""Chess evaluation in centipawns: a tapered one for the engine, and the simple one it
replaced (kept as the baseline the tapered one is measured against).

:func:`evaluate` blends a middlegame and an endgame score by the phase, the non-pawn
material left on the board (knight and bishop 1, rook 2, queen 4, 24 at the start), as
PeSTO and most engines do. Its terms, white's minus black's:

* **material**, with PeSTO's middlegame and endgame piece values (published on the Chess
  Programming Wiki);
* **piece-square tables**: Tomasz Michniewski's "simplified evaluation function" tables
  (published on the Chess Programming Wiki), its middlegame and endgame king tables, and
  in the endgame a pawn table that grows with the rank instead of the middlegame one;
* **mobility**: the squares each knight, bishop, rook and queen attacks that hold none
  of its own pieces;
* **king safety** (middlegame only): the own pawns shielding the king on the three files
  around it, and a penalty when its own file has no own pawn;
* **pawn structure**: doubled and isolated pawns, and passed pawns by their rank (worth
  most in the endgame); cached by the pawn sets, which change seldom in a search;
* **the bishop pair**.

:func:`evaluate_simple` is the earlier evaluation: material plus piece-square values
written as formulas of the square.
"""

from __future__ import annotations

from zerosum.games.bitboards import bit_indices
from zerosum.games.chess.rules import (
    BISHOP_ATTACKS,
    BISHOP_MASKS,
    FILE_A,
    KNIGHT_ATTACKS,
    ROOK_ATTACKS,
    ROOK_MASKS,
    State,
)

__all__ = [
    "ENDGAME_VALUES",
    "MIDDLEGAME_VALUES",
    "PIECE_VALUES",
    "TABLES",
    "evaluate",
    "evaluate_simple",
    "pawn_structure",
    "phase",
]

# --------------------------------------------------------------------------- tapered

MIDDLEGAME_VALUES = (82, 337, 365, 477, 1025, 0)
"""PeSTO's middlegame centipawns of a pawn, knight, bishop, rook, queen and king."""
ENDGAME_VALUES = (94, 281, 297, 512, 936, 0)
"""PeSTO's endgame centipawns of a pawn, knight, bishop, rook, queen and king."""

PHASE_WEIGHTS = (0, 1, 1, 2, 4, 0)
"""Each piece's share of the phase; the start position's pieces add up to 24."""
FULL_PHASE = 24

# The simplified evaluation function's tables, as published: rank 8 first, a-file left.
_PAWN = (
    0, 0, 0, 0, 0, 0, 0, 0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
    5, 5, 10, 25, 25, 10, 5, 5,
    0, 0, 0, 20, 20, 0, 0, 0,
    5, -5, -10, 0, 0, -10, -5, 5,
    5, 10, 10, -20, -20, 10, 10, 5,
    0, 0, 0, 0, 0, 0, 0, 0,
)  # fmt: skip
_KNIGHT = (
    -50, -40, -30, -30, -30, -30, -40, -50,
    -40, -20, 0, 0, 0, 0, -20, -40,
    -30, 0, 10, 15, 15, 10, 0, -30,
    -30, 5, 15, 20, 20, 15, 5, -30,
    -30, 0, 15, 20, 20, 15, 0, -30,
    -30, 5, 10, 15, 15, 10, 5, -30,
    -40, -20, 0, 5, 5, 0, -20, -40,
    -50, -40, -30, -30, -30, -30, -40, -50,
)  # fmt: skip
_BISHOP = (
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10, 0, 0, 0, 0, 0, 0, -10,
    -10, 0, 5, 10, 10, 5, 0, -10,
    -10, 5, 5, 10, 10, 5, 5, -10,
    -10, 0, 10, 10, 10, 10, 0, -10,
    -10, 10, 10, 10, 10, 10, 10, -10,
    -10, 5, 0, 0, 0, 0, 5, -10,
    -20, -10, -10, -10, -10, -10, -10, -20,
)  # fmt: skip
_ROOK = (
    0, 0, 0, 0, 0, 0, 0, 0,
    5, 10, 10, 10, 10, 10, 10, 5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    0, 0, 0, 5, 5, 0, 0, 0,
)  # fmt: skip
_QUEEN = (
    -20, -10, -10, -5, -5, -10, -10, -20,
    -10, 0, 0, 0, 0, 0, 0, -10,
    -10, 0, 5, 5, 5, 5, 0, -10,
    -5, 0, 5, 5, 5, 5, 0, -5,
    0, 0, 5, 5, 5, 5, 0, -5,
    -10, 5, 5, 5, 5, 5, 0, -10,
    -10, 0, 5, 0, 0, 0, 0, -10,
    -20, -10, -10, -5, -5, -10, -10, -20,
)  # fmt: skip
_KING_MIDDLEGAME = (
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20,
    -10, -20, -20, -20, -20, -20, -20, -10,
    20, 20, 0, 0, 0, 0, 20, 20,
    20, 30, 10, 0, 0, 10, 30, 20,
)  # fmt: skip
_KING_ENDGAME = (
    -50, -40, -30, -20, -20, -30, -40, -50,
    -30, -20, -10, 0, 0, -10, -20, -30,
    -30, -10, 20, 30, 30, 20, -10, -30,
    -30, -10, 30, 40, 40, 30, -10, -30,
    -30, -10, 30, 40, 40, 30, -10, -30,
    -30, -10, 20, 30, 30, 20, -10, -30,
    -30, -30, 0, 0, 0, 0, -30, -30,
    -50, -30, -30, -30, -30, -30, -30, -50,
)  # fmt: skip
_PAWN_ENDGAME = tuple(
    0 if index < 8 or index >= 56 else 10 * (6 - (index >> 3)) for index in range(64)
)
"""An endgame pawn gains as it advances (the passed-pawn term adds more when it is free)."""


def _tables(
    values: tuple[int, ...], published: tuple[tuple[int, ...], ...]
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``[colour][piece][square]``: the piece's value plus its table entry, black's read
    on the mirrored square (the published tables list rank 8 first)."""
    return tuple(
        tuple(
            tuple(values[piece] + table[(sq ^ 56) if colour == 0 else sq] for sq in range(64))
            for piece, table in enumerate(published)
        )
        for colour in range(2)
    )


MIDDLEGAME_TABLES = _tables(
    MIDDLEGAME_VALUES, (_PAWN, _KNIGHT, _BISHOP, _ROOK, _QUEEN, _KING_MIDDLEGAME)
)
"""``MIDDLEGAME_TABLES[colour][piece][square]``: middlegame value plus table entry."""
ENDGAME_TABLES = _tables(
    ENDGAME_VALUES, (_PAWN_ENDGAME, _KNIGHT, _BISHOP, _ROOK, _QUEEN, _KING_ENDGAME)
)
"""``ENDGAME_TABLES[colour][piece][square]``: endgame value plus table entry."""

MOBILITY = ((4, 4), (5, 5), (2, 4), (1, 2))
"""Centipawns per square attacked (middlegame, endgame) by a knight, bishop, rook, queen."""
SHIELD_PAWN = 10
"""Middlegame centipawns per own pawn on the three files around the king, one or two
ranks ahead of it."""
OPEN_KING_FILE = 20
"""Middlegame penalty when the king's file holds no own pawn."""
DOUBLED = (10, 20)
"""Penalty (middlegame, endgame) per pawn beyond the first on a file."""
ISOLATED = (10, 15)
"""Penalty (middlegame, endgame) per pawn with no own pawn on a neighbouring file."""
PASSED = ((0, 5, 10, 15, 25, 40, 60, 0), (0, 10, 20, 35, 60, 100, 150, 0))
"""Bonus (middlegame, endgame) of a passed pawn by its rank from its own side (0 to 7)."""
BISHOP_PAIR = (30, 50)
"""Bonus (middlegame, endgame) for two bishops or more."""

FILES = tuple(FILE_A << file for file in range(8))
"""The squares of each file."""
_NEIGHBOURS = tuple(
    (FILES[file - 1] if file else 0) | (FILES[file + 1] if file < 7 else 0) for file in range(8)
)


def _ahead(colour: int, sq: int, files: int) -> int:
    """The squares of ``files`` on the ranks ahead of ``sq`` for ``colour``."""
    rank = sq >> 3
    rows = range(rank + 1, 8) if colour == 0 else range(rank)
    span = 0
    for row in rows:
        span |= 0xFF << (8 * row)
    return span & files


_PASSED_MASKS = tuple(
    tuple(_ahead(colour, sq, FILES[sq & 7] | _NEIGHBOURS[sq & 7]) for sq in range(64))
    for colour in range(2)
)
"""``[colour][sq]``: the squares an enemy pawn must avoid for a pawn on ``sq`` to be
passed: its file and both neighbours, ahead of it."""
_SHIELDS = tuple(
    tuple(
        _ahead(colour, sq, FILES[sq & 7] | _NEIGHBOURS[sq & 7])
        & (0xFFFF << (8 * (sq >> 3) + 8) if colour == 0 else 0xFFFF << max(8 * (sq >> 3) - 16, 0))
        for sq in range(64)
    )
    for colour in range(2)
)
"""``[colour][sq]``: the squares of a king's pawn shield, the two ranks ahead of it on
its file and the neighbouring ones."""

_pawn_cache: dict[tuple[int, int], tuple[int, int]] = {}
_PAWN_CACHE_SIZE = 1 << 16


def pawn_structure(white_pawns: int, black_pawns: int) -> tuple[int, int]:
    """Return the (middlegame, endgame) pawn-structure score for white: doubled,
    isolated and passed pawns of both sides."""
    found = _pawn_cache.get((white_pawns, black_pawns))
    if found is not None:
        return found
    mg = eg = 0
    for colour, own, theirs, sign in (
        (0, white_pawns, black_pawns, 1),
        (1, black_pawns, white_pawns, -1),
    ):
        for file in range(8):
            count = (own & FILES[file]).bit_count()
            if count > 1:
                mg -= sign * DOUBLED[0] * (count - 1)
                eg -= sign * DOUBLED[1] * (count - 1)
            if count and not own & _NEIGHBOURS[file]:
                mg -= sign * ISOLATED[0] * count
                eg -= sign * ISOLATED[1] * count
        masks = _PASSED_MASKS[colour]
        for sq in bit_indices(own):
            if not theirs & masks[sq]:
                rank = sq >> 3 if colour == 0 else 7 - (sq >> 3)
                mg += sign * PASSED[0][rank]
                eg += sign * PASSED[1][rank]
    if len(_pawn_cache) >= _PAWN_CACHE_SIZE:
        _pawn_cache.clear()
    _pawn_cache[white_pawns, black_pawns] = (mg, eg)
    return mg, eg


def phase(state: State) -> int:
    """Return the game's phase: 24 with every piece on the board down to 0 with none
    but kings and pawns (more pieces than at the start count as 24)."""
    weight = (state[3] | state[4]).bit_count() + 2 * state[5].bit_count() + 4 * state[6].bit_count()
    return min(weight, FULL_PHASE)


def evaluate(state: State) -> int:
    """Return the tapered evaluation for the side to move, in centipawns (see the
    module notes for its terms)."""
    white, black, pawns, knights, bishops, rooks, queens, kings = state[:8]
    occupied = white | black
    (knight_mg, knight_eg), (bishop_mg, bishop_eg), (rook_mg, rook_eg), (queen_mg, queen_eg) = (
        MOBILITY
    )
    mg = eg = 0
    for colour, own, sign in ((0, white, 1), (1, black, -1)):
        mg_tables = MIDDLEGAME_TABLES[colour]
        eg_tables = ENDGAME_TABLES[colour]
        side_mg = side_eg = 0
        for piece, pieces in enumerate((pawns, knights, bishops, rooks, queens, kings)):
            mg_table, eg_table = mg_tables[piece], eg_tables[piece]
            for sq in bit_indices(pieces & own):
                side_mg += mg_table[sq]
                side_eg += eg_table[sq]
        free = ~own
        for sq in bit_indices(knights & own):
            count = (KNIGHT_ATTACKS[sq] & free).bit_count()
            side_mg += knight_mg * count
            side_eg += knight_eg * count
        for sq in bit_indices((bishops | queens) & own):
            count = (BISHOP_ATTACKS[sq][occupied & BISHOP_MASKS[sq]] & free).bit_count()
            if bishops >> sq & 1:
                side_mg += bishop_mg * count
                side_eg += bishop_eg * count
            else:
                side_mg += queen_mg * count
                side_eg += queen_eg * count
        for sq in bit_indices((rooks | queens) & own):
            count = (ROOK_ATTACKS[sq][occupied & ROOK_MASKS[sq]] & free).bit_count()
            if rooks >> sq & 1:
                side_mg += rook_mg * count
                side_eg += rook_eg * count
            else:
                side_mg += queen_mg * count
                side_eg += queen_eg * count
        if (bishops & own).bit_count() >= 2:
            side_mg += BISHOP_PAIR[0]
            side_eg += BISHOP_PAIR[1]
        king = (kings & own).bit_length() - 1
        own_pawns = pawns & own
        side_mg += SHIELD_PAWN * min((own_pawns & _SHIELDS[colour][king]).bit_count(), 3)
        if not own_pawns & FILES[king & 7]:
            side_mg -= OPEN_KING_FILE
        mg += sign * side_mg
        eg += sign * side_eg
    structure_mg, structure_eg = pawn_structure(pawns & white, pawns & black)
    mg += structure_mg
    eg += structure_eg
    weight = phase(state)
    blend = mg * weight + eg * (FULL_PHASE - weight)
    # rounded towards zero, so that a position and its colour-flipped mirror score alike
    score = blend // FULL_PHASE if blend >= 0 else -(-blend // FULL_PHASE)
    return -score if state[8] else score


# --------------------------------------------------------------------------- simple

PIECE_VALUES = (100, 320, 330, 500, 900, 0)
"""Centipawns of a pawn, knight, bishop, rook, queen and king (the simple evaluation)."""


def _centrality(sq: int) -> int:
    """0 on the edge up to 3 in the four centre squares."""
    file, rank = sq & 7, sq >> 3
    return min(file, 7 - file, rank, 7 - rank)


def _bonus(piece: int, sq: int) -> int:
    """The simple evaluation's piece-square bonus of ``piece`` on ``sq``, from white's side."""
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
"""``TABLES[colour][piece][sq]``: the simple evaluation's value plus bonus, black's read
on the mirrored square, so that it is one lookup per piece."""


def evaluate_simple(state: State) -> int:
    """Return the material and piece-square balance for the side to move, in centipawns:
    the evaluation :func:`evaluate` replaced, kept as its measured baseline."""
    score = 0
    white, black = state[0], state[1]
    for piece, pieces in enumerate(state[2:8]):
        white_table, black_table = TABLES[0][piece], TABLES[1][piece]
        score += sum(white_table[sq] for sq in bit_indices(pieces & white))
        score -= sum(black_table[sq] for sq in bit_indices(pieces & black))
    return -score if state[8] else score
