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

from zerosum.games.bitboards import bit_indices
from zerosum.games.othello.rules import FULL, PASS, PASS_BIT, State, flips, mobility

__all__ = [
    "CORNERS",
    "C_SQUARES",
    "X_SQUARES",
    "evaluate",
    "neighbours",
    "ordered_children",
    "stable_discs",
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
