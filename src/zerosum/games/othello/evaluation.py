"""A cheap othello evaluation and move ordering, in the units of the final score (discs).

The evaluation is a weighted sum of the textbook features, all from the side to move:
mobility (moves now), potential mobility (empty squares next to the opponent's discs,
where moves will come from), corners held, X- and C-squares (the squares next to a
corner) held while that corner is empty, which tend to give the corner away, stable
discs (:func:`stable_discs`: discs no move can flip any more) and parity (whoever plays
last in an even endgame gains). The sum is scaled to an estimate of the
final disc difference, so that the engine can compare it with the exact scores of
finished lines; it stays strictly inside ``-64 .. 64``.

The move ordering serves both the midgame search and the exact endgame solver: corners
first, then the moves that leave the opponent the fewest replies ("fastest first",
Edax's main endgame ordering) and the least potential mobility, X-squares next to an
empty corner last.
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Sequence
from pathlib import Path

from zerosum.games.bitboards import bit_indices
from zerosum.games.othello.rules import (
    FULL,
    PASS,
    PASS_BIT,
    State,
    final_score,
    flips,
    mobility,
)

__all__ = [
    "CORNERS",
    "C_SQUARES",
    "PATTERNS",
    "SCALARS",
    "STAGES",
    "STAGE_SIZE",
    "WEIGHTS",
    "WEIGHT_UNIT",
    "X_SQUARES",
    "evaluate",
    "load_weights",
    "neighbours",
    "ordered_children",
    "pattern_evaluate",
    "pattern_indices",
    "pattern_instances",
    "scalar_features",
    "stable_discs",
    "stage_of",
    "symmetric",
]

CORNERS = 1 << 0 | 1 << 7 | 1 << 56 | 1 << 63
"""a1, h1, a8, h8."""

X_SQUARES = ((1 << 9, 1 << 0), (1 << 14, 1 << 7), (1 << 49, 1 << 56), (1 << 54, 1 << 63))
"""Each X-square (diagonally next to a corner) with its corner."""

C_SQUARES = (
    (1 << 1 | 1 << 8, 1 << 0),
    (1 << 6 | 1 << 15, 1 << 7),
    (1 << 48 | 1 << 57, 1 << 56),
    (1 << 55 | 1 << 62, 1 << 63),
)
"""Each corner's two C-squares (next to it along an edge) with the corner."""

_NOT_A = 0xFEFEFEFEFEFEFEFE
_NOT_H = 0x7F7F7F7F7F7F7F7F
_CENTRAL = 0x007E7E7E7E7E7E00  # every square off the edges
_FILE_A = 0x0101010101010101
_EDGES = (
    (0xFF, 1 << 0, 1 << 7, 1),
    (0xFF << 56, 1 << 56, 1 << 63, 1),
    (_FILE_A, 1 << 0, 1 << 56, 8),
    (_FILE_A << 7, 1 << 7, 1 << 63, 8),
)  # each edge: its squares, its two corners and the step from one square to the next

# weights in hundredths of a disc, tuned by hand to the usual order of importance
_MOBILITY = 120
_POTENTIAL = 40
_CORNER = 800
_X_SQUARE = 400
_C_SQUARE = 150
_STABLE = 100
_PARITY = 100

# move ordering, in eighths of a reply: a reply, a corner's bonus, an X-square's penalty
_ORDER_REPLY = 8
_ORDER_CORNER = 16
_ORDER_X = 8
_DANGER = {
    1 << 9: 1 << 0,
    1 << 14: 1 << 7,
    1 << 49: 1 << 56,
    1 << 54: 1 << 63,
}


def neighbours(discs: int) -> int:
    """Return the squares next to ``discs`` in any of the eight directions."""
    sideways = (discs << 1) & _NOT_A | (discs >> 1) & _NOT_H
    row = discs | sideways
    return (sideways | row << 8 | row >> 8) & FULL


def _full_lines(occupied: int) -> tuple[int, int, int, int]:
    """The squares whose row is full, whose column is, whose diagonal along ``b1-a2``
    (a step of 7) is, and whose diagonal along ``a1-b2`` (a step of 9) is."""
    row = occupied & occupied >> 1
    row &= row >> 2
    row &= row >> 4
    rows = (row & _FILE_A) * 0xFF
    column = occupied & occupied >> 8
    column &= column >> 16
    column &= column >> 32
    columns = (column & 0xFF) * _FILE_A
    # a diagonal is full where no empty square spreads along it
    empty = FULL ^ occupied
    sevens = nines = empty
    for _ in range(7):
        sevens |= (sevens << 7) & _NOT_H | (sevens >> 7) & _NOT_A
        nines |= (nines << 9) & _NOT_A | (nines >> 9) & _NOT_H
    return rows, columns, FULL ^ sevens, FULL ^ nines


def stable_discs(discs: int, occupied: int) -> int:
    """Return those of ``discs`` that can never be flipped, ``occupied`` being every
    disc on the board: a subset, found the usual way (not every stable disc).

    On an edge only the edge's own line can flip a disc: stable are the discs of a full
    edge and those joined to a corner by a run of ``discs``. Off the edges a disc is
    stable when along each of its four lines the line is full or a neighbour on it is
    stable, grown from the discs whose four lines are all full until nothing changes."""
    stable = 0
    for line, first, last, step in _EDGES:
        if occupied & line == line:
            stable |= discs & line
            continue
        bit = first
        while bit & discs:
            stable |= bit
            bit <<= step
        bit = last
        while bit & discs:
            stable |= bit
            bit >>= step
    rows, columns, sevens, nines = _full_lines(occupied)
    central = discs & _CENTRAL
    stable |= rows & columns & sevens & nines & central
    while True:
        # the shifts may wrap around the board, but only to edge squares, never central
        grown = stable | (
            (stable >> 1 | stable << 1 | rows)
            & (stable >> 8 | stable << 8 | columns)
            & (stable >> 7 | stable << 7 | sevens)
            & (stable >> 9 | stable << 9 | nines)
            & central
        )
        if grown == stable:
            return stable
        stable = grown


def evaluate(state: State) -> int:
    """Return an estimate of the final disc difference for the side to move."""
    mover, opponent, _, moves = state
    empty = FULL ^ (mover | opponent)
    mine = (moves & ~PASS_BIT).bit_count()
    theirs = mobility(opponent, mover).bit_count()
    value = _MOBILITY * (mine - theirs)
    value += _POTENTIAL * (
        (neighbours(opponent) & empty).bit_count() - (neighbours(mover) & empty).bit_count()
    )
    value += _CORNER * ((mover & CORNERS).bit_count() - (opponent & CORNERS).bit_count())
    for square, corner in X_SQUARES:
        if empty & corner:
            if mover & square:
                value -= _X_SQUARE
            elif opponent & square:
                value += _X_SQUARE
    for squares, corner in C_SQUARES:
        if empty & corner:
            value -= _C_SQUARE * (mover & squares).bit_count()
            value += _C_SQUARE * (opponent & squares).bit_count()
    occupied = mover | opponent
    if occupied & CORNERS:  # before a corner is taken stable discs are rare: save the cost
        value += _STABLE * (
            stable_discs(mover, occupied).bit_count() - stable_discs(opponent, occupied).bit_count()
        )
    if empty.bit_count() & 1:
        value += _PARITY  # an odd number of empties: the side to move plays last
    score = value // 100
    return max(-63, min(63, score))


def ordered_children(state: State) -> list[tuple[int, State]]:
    """Return the legal moves of ``state`` with the state each leads to, most promising
    first: by the opponent's replies after the move (fewer first), then its potential
    mobility, corners earlier and X-squares next to an empty corner later. Finding the
    replies makes each child, so the children come too, for the transition to reuse."""
    mover, opponent, side, moves = state
    if moves & PASS_BIT:
        return [(PASS, (opponent, mover, 1 - side, mobility(opponent, mover)))]
    empty = FULL ^ (mover | opponent)
    ranked = []
    children = {}
    for square in bit_indices(moves):
        bit = 1 << square
        flipped = flips(mover, opponent, square)
        new_mover = opponent ^ flipped
        new_opponent = mover | flipped | bit
        replies = mobility(new_mover, new_opponent)
        if not replies and mobility(new_opponent, new_mover):
            children[square] = (new_mover, new_opponent, 1 - side, PASS_BIT)
        else:
            children[square] = (new_mover, new_opponent, 1 - side, replies)
        # the opponent's replies weigh most; its potential mobility (empties next to our
        # discs) breaks ties: on FFO #21-23 a fifth fewer nodes than replies alone
        rank = _ORDER_REPLY * replies.bit_count() + (neighbours(new_opponent) & empty).bit_count()
        if bit & CORNERS:
            rank -= _ORDER_CORNER
        else:
            corner = _DANGER.get(bit)
            if corner is not None and empty & corner:
                rank += _ORDER_X
        ranked.append(rank << 6 | square)
    ranked.sort()
    return [(rank & 63, children[rank & 63]) for rank in ranked]


# ---------------------------------------------------------------- patterns

PATTERNS: dict[str, tuple[int, ...]] = {
    "corner3x3": (0, 1, 2, 8, 9, 10, 16, 17, 18),
    "edge2x": (0, 1, 2, 3, 4, 5, 6, 7, 9, 14),
}
"""The pattern evaluation's shapes, each as its squares from one corner (``a1`` is 0):
the corner's 3x3 squares, and an edge with its two X-squares (two of Logistello's and
Edax's). Each is applied wherever a symmetry of the board takes it
(:func:`pattern_instances`), with one table of weights for all its places. Fitted to
63,000 positions of self-play (``bench/othello_train.py``), the corner's 2x5 squares
besides lost 23 Elo at depth 6 (-85 to +37, 120 games), and every pattern of Edax's set
(the rows and diagonals too) fitted worse on positions held out (15.25 discs against
16.84 of error on 35,000 positions)."""

STAGES = 15
"""The pattern evaluation's weights come in one set per stage of the game, by the empty
squares (:func:`stage_of`): four empties a stage."""


def stage_of(empties: int) -> int:
    """The stage of a position with ``empties`` empty squares, ``0 .. STAGES - 1``."""
    return min(STAGES - 1, max(0, (empties - 1) // 4))


def symmetric(square: int, symmetry: int) -> int:
    """The image of ``square`` under one of the board's eight symmetries (0 is the
    identity): bit 0 mirrors the files, bit 1 the ranks, bit 2 swaps files and ranks."""
    file, rank = square & 7, square >> 3
    if symmetry & 4:
        file, rank = rank, file
    if symmetry & 1:
        file = 7 - file
    if symmetry & 2:
        rank = 7 - rank
    return 8 * rank + file


def pattern_instances() -> list[tuple[str, int, tuple[int, ...]]]:
    """Every place of every pattern: its name, the symmetry (:func:`symmetric`) that takes
    the pattern there, and its squares in the order of the index's digits (the first
    square the least significant). A pattern that a symmetry takes onto itself (the 3x3
    corner, say) is counted once at each place, by the first symmetry that gets there."""
    found: list[tuple[str, int, tuple[int, ...]]] = []
    for name, squares in PATTERNS.items():
        places: set[frozenset[int]] = set()
        for symmetry in range(8):
            image = tuple(symmetric(square, symmetry) for square in squares)
            if frozenset(image) not in places:
                places.add(frozenset(image))
                found.append((name, symmetry, image))
    return found


def pattern_indices(mover: int, opponent: int) -> list[int]:
    """The index of each place of :func:`pattern_instances` in its pattern's table: the
    squares as ternary digits, 0 empty, 1 the mover's, 2 the opponent's."""
    indices = []
    for _, _, squares in pattern_instances():
        index = 0
        for square in reversed(squares):
            index = 3 * index + (mover >> square & 1) + 2 * (opponent >> square & 1)
        indices.append(index)
    return indices


SCALARS = ("constant", "mobility", "potential", "corners", "x", "c", "stable", "parity")
"""The scalar features whose weights follow the patterns' tables in a stage's weights,
each a difference between the side to move and the other: a constant, the moves, the
empty squares next to the other side's discs (potential mobility), the corners, the
X-squares and the C-squares next to an empty corner, the stable discs (counted once a
corner is taken), and whether the number of empty squares is odd."""

STAGE_SIZE = sum(3 ** len(squares) for squares in PATTERNS.values()) + len(SCALARS)
"""The weights of one stage: each pattern's table (its places' indices), then the
scalar features'."""

WEIGHT_UNIT = 32
"""The weights are in 32nds of a disc."""

WEIGHTS = Path(__file__).with_name("weights.bin")
"""The pattern evaluation's weights: ``STAGES`` stages of ``STAGE_SIZE`` little-endian
16-bit integers, compressed with zlib (made by ``bench/othello_train.py fit``)."""


def load_weights(path: Path = WEIGHTS) -> array[int]:
    """Read the pattern evaluation's weights, stage after stage. Raises ``ValueError``
    for a file of the wrong size (made for other patterns)."""
    weights = array("h")
    weights.frombytes(zlib.decompress(path.read_bytes()))
    if len(weights) != STAGES * STAGE_SIZE:
        raise ValueError(
            f"{path} holds {len(weights)} weights; the patterns need {STAGES} x {STAGE_SIZE}"
        )
    if array("h", [1]).tobytes() != b"\x01\x00":  # stored little-endian
        weights.byteswap()
    return weights


def scalar_features(mover: int, opponent: int) -> tuple[int, ...]:
    """The scalar features of the position, ``mover`` to move (:data:`SCALARS`)."""
    occupied = mover | opponent
    empty = FULL ^ occupied
    x = c = 0
    for (square, corner), (squares, _) in zip(X_SQUARES, C_SQUARES, strict=True):
        if empty & corner:
            x += (mover & square).bit_count() - (opponent & square).bit_count()
            c += (mover & squares).bit_count() - (opponent & squares).bit_count()
    stable = 0
    if occupied & CORNERS:  # as evaluate(): rare before a corner is taken, and costly
        stable = stable_discs(mover, occupied).bit_count()
        stable -= stable_discs(opponent, occupied).bit_count()
    return (
        1,
        mobility(mover, opponent).bit_count() - mobility(opponent, mover).bit_count(),
        (neighbours(opponent) & empty).bit_count() - (neighbours(mover) & empty).bit_count(),
        (mover & CORNERS).bit_count() - (opponent & CORNERS).bit_count(),
        x,
        c,
        stable,
        empty.bit_count() & 1,
    )


def pattern_evaluate(mover: int, opponent: int, weights: Sequence[int]) -> int:
    """The pattern evaluation of the position, ``mover`` to move, in discs (rounded,
    within -63 .. 63): its stage's weights summed over every place of every pattern and
    the scalar features; the final score when neither side can move. The compiled
    kernel computes the same value, faster; this one is its reference."""
    if not mobility(mover, opponent) and not mobility(opponent, mover):
        return final_score(mover, opponent)
    empties = 64 - (mover | opponent).bit_count()
    base = stage_of(empties) * STAGE_SIZE
    starts: dict[str, int] = {}
    size = 0
    for name, squares in PATTERNS.items():
        starts[name] = size
        size += 3 ** len(squares)
    total = 0
    for (name, _, _), index in zip(
        pattern_instances(), pattern_indices(mover, opponent), strict=True
    ):
        total += weights[base + starts[name] + index]
    for k, feature in enumerate(scalar_features(mover, opponent)):
        total += weights[base + size + k] * feature
    score = (total + WEIGHT_UNIT // 2) // WEIGHT_UNIT
    return max(-63, min(63, score))
