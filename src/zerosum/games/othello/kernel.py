"""Othello's search compiled with numba: move generation, an exact endgame solver and a
midgame alpha-beta with a pattern evaluation, on 64-bit words.

:mod:`zerosum.kernels` imports this module when a kernel is first used (never
:mod:`zerosum.games.othello` itself, which stays free of numba).

**Words.** A board is two unsigned 64-bit words, the discs of the side to move and of the
other side, square ``a1`` bit 0 to ``h8`` bit 63 as in :mod:`~zerosum.games.othello.rules`.
Every operation on them stays unsigned: numba turns a mix of a signed and an unsigned
word into a float, so the constants are unsigned words too. Counting bits, finding the
lowest and the highest and swapping bytes are one machine instruction each (LLVM's,
through numba intrinsics).

**One search for both phases.** :func:`_run` is a negamax alpha-beta, fail-soft, over an
explicit stack (numba cannot load a self-recursive function from its cache), with a
depth: where the depth reaches the end of the game (at least the empty squares) the node
is exact and searched as an endgame solver does; above the horizon it is a midgame node.

* exact nodes: the last two empties in dedicated code (:func:`_solve_two`,
  :func:`_last`), up to :data:`SMALL_EMPTIES` a plain alpha-beta over the empty squares
  in parity order (odd quadrants first, C- and X-squares last), without table or
  sorting; above, the table, an enhanced transposition cut-off from
  :data:`ETC_EMPTIES`, and the moves sorted fastest first (the opponent's fewest
  replies, corners counted twice, then its potential mobility, parity, corners and
  X-squares; from :data:`LOOK_AHEAD_EMPTIES` the opponent's best reply by the
  evaluation too), the table's move first;
* midgame nodes: the evaluation at the horizon (:func:`_evaluate`), one ply above it
  every move's evaluation at once without a frame each, above that the table, the moves
  sorted by their evaluation (the table's move first) and, in null-window nodes of a
  selective search, probability cut (:data:`PROBCUT_CONFIDENCE`);
* everywhere above the small solver: principal-variation search (the moves after the
  first searched with a null window, again with the full one if they beat alpha), and a
  table of bounds keyed on both words, two slots a bucket (the deeper search kept).

**The evaluation** is the pattern evaluation of
:func:`zerosum.games.othello.evaluation.pattern_evaluate`, computed the same way with the
shipped weights (:func:`shipped_weights`): each place of a pattern read from one of the
board's eight symmetries by a few shifts, its ternary index from a table. An empty
weights array (:data:`HAND`) gives the pure path's hand-tuned evaluation instead, so
that the two paths can be compared search for search.

The search stops after a given number of nodes with its stack kept, so that the Python
side (:class:`OthelloKernel`, :class:`KernelEngine`) can poll its limits and resume.

Passes: a side with no move passes, as a move of its own. In the midgame a pass takes a
ply of the depth, as the engine counts it (so that a fixed-depth search gives the value
of the reference alpha-beta); in an exact node the depth does not matter.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt
from numba import types
from numba.extending import intrinsic

from zerosum.games.othello.evaluation import (
    PATTERNS,
    SCALARS,
    STAGE_SIZE,
    STAGES,
    WEIGHT_UNIT,
    load_weights,
    pattern_instances,
)
from zerosum.kernel_bits import highest as _highest
from zerosum.kernel_bits import lowest as _lowest
from zerosum.kernel_bits import popcount as _popcount
from zerosum.kernels import CompiledEngine, jit
from zerosum.search.engine import (
    EngineOptions,
    EngineResult,
    EngineStats,
    Limits,
    Report,
    SearchStopped,
    WindowResult,
)
from zerosum.search.table import DEPTH_END

if TYPE_CHECKING:
    from zerosum.games.othello import Othello, State

__all__ = [
    "CHUNK_NODES",
    "ETC_EMPTIES",
    "EXACT",
    "HAND",
    "LOOK_AHEAD_EMPTIES",
    "PROBCUT_CONFIDENCE",
    "SMALL_EMPTIES",
    "SOLVE_AFTER",
    "SOLVE_EMPTIES",
    "SOLVE_MARGIN",
    "SOLVE_MOST",
    "KernelEngine",
    "OthelloKernel",
    "evaluate",
    "flips",
    "moves",
    "perft",
    "shipped_weights",
    "solve_nodes",
]

_Words = npt.NDArray[np.uint64]
_Ints = npt.NDArray[np.int64]
_Shorts = npt.NDArray[np.int16]

SMALL_EMPTIES = 6
"""Up to this many empty squares an exact node is searched without table or sorting."""

ETC_EMPTIES = 10
"""From this many empty squares an exact node looks its children up in the table before
searching any (the enhanced transposition cut-off). FFO #20-37 solved by null windows
stepping from 0, with the look ahead from 14: 105.3M nodes, against 115.0M without (from
8 empties 102.8M in more time, from 12 107.4M)."""

LOOK_AHEAD_EMPTIES = 14
"""From this many empty squares an exact node also sorts its moves by the opponent's
best reply by the evaluation (a disc weighing half a reply). FFO #20-37 as for
:data:`ETC_EMPTIES`, without the cut-off: 144.4M nodes without, 115.0M from 14 empties,
120.8M from 16, 127.1M from 18; a disc a quarter of a reply 122.7M, a whole one 123.9M
(from 16)."""

_U = np.uint64
_ZERO = _U(0)
_ONE = _U(1)
_ALL = _U(0xFFFFFFFFFFFFFFFF)
_INNER = _U(0x7E7E7E7E7E7E7E7E)
_NOT_A = _U(0xFEFEFEFEFEFEFEFE)
_NOT_H = _U(0x7F7F7F7F7F7F7F7F)
_FILE_A = _U(0x0101010101010101)
_RANK_1 = _U(0xFF)
_CENTRAL = _U(0x007E7E7E7E7E7E00)
_CORNERS = _U(1 << 0 | 1 << 7 | 1 << 56 | 1 << 63)
_C_AND_X = _U(
    1 << 1
    | 1 << 6
    | 1 << 8
    | 1 << 15
    | 1 << 48
    | 1 << 55
    | 1 << 57
    | 1 << 62
    | 1 << 9
    | 1 << 14
    | 1 << 49
    | 1 << 54
)
_DANGER_SQUARES = _U(1 << 9 | 1 << 14 | 1 << 49 | 1 << 54)  # the X-squares
_HASH_P = _U(0x9E3779B97F4A7C15)
_HASH_O = _U(0xC2B2AE3D27D4EB4F)


def _rays() -> _Words:
    """``RAYS[square, d]``: the squares from ``square`` (excluded) to the edge along
    direction ``d``; directions 0-3 run towards higher squares, 4-7 towards lower."""
    steps = ((1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1))
    rays = np.zeros((64, 8), dtype=np.uint64)
    for square in range(64):
        for d, (df, dr) in enumerate(steps):
            f, r, ray = (square & 7) + df, (square >> 3) + dr, 0
            while 0 <= f < 8 and 0 <= r < 8:
                ray |= 1 << (8 * r + f)
                f, r = f + df, r + dr
            rays[square, d] = ray
    return rays


def _quadrants() -> _Words:
    """The four 4x4 quadrants, as words."""
    return np.array([0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F << 32, 0xF0F0F0F0 << 32], dtype=np.uint64)


def _x_squares() -> _Words:
    """Each X-square (diagonally next to a corner) beside its corner."""
    pairs = ((9, 0), (14, 7), (49, 56), (54, 63))
    return np.array([[1 << x, 1 << c] for x, c in pairs], dtype=np.uint64)


def _c_squares() -> _Words:
    """Each corner's two C-squares (next to it along an edge) beside the corner."""
    pairs = [(1 << 1 | 1 << 8, 0), (1 << 6 | 1 << 15, 7), (1 << 48 | 1 << 57, 56)]
    pairs.append((1 << 55 | 1 << 62, 63))
    return np.array([[c, 1 << corner] for c, corner in pairs], dtype=np.uint64)


def _edges() -> _Words:
    """Each edge: its squares, its two corners, and the shift from one square to the next."""
    file_a = 0x0101010101010101
    edges = [(0xFF, 0, 7, 1), (0xFF << 56, 56, 63, 1), (file_a, 0, 56, 8)]
    edges.append((file_a << 7, 7, 63, 8))
    return np.array([[line, 1 << a, 1 << b, step] for line, a, b, step in edges], dtype=np.uint64)


def _neighbour_table() -> _Words:
    """``NEIGHBOUR[square]``: the squares next to ``square``."""
    table = np.zeros(64, dtype=np.uint64)
    for square in range(64):
        f, r = square & 7, square >> 3
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if (df or dr) and 0 <= f + df < 8 and 0 <= r + dr < 8:
                    table[square] |= np.uint64(1 << (8 * (r + dr) + f + df))
    return table


_RAYS = _rays()
_NEIGHBOUR = _neighbour_table()
_QUADRANTS = _quadrants()
_X_SQUARES = _x_squares()
_C_SQUARES = _c_squares()
_EDGES = _edges()
_DANGER = np.zeros(64, dtype=np.uint64)  # the corner next to each X-square
for _x, _corner in _X_SQUARES:
    _DANGER[int(_x).bit_length() - 1] = _corner


_signed = cast("Callable[[np.uint64], int]", np.int64)  # a word as a signed number
_wide = cast("Callable[[np.int16], int]", np.int64)  # a weight, widened for sums


# ---------------------------------------------------------------- rules


@jit
def _shifted_runs(p: np.uint64, mask: np.uint64, d: int) -> np.uint64:
    """The squares one step beyond a run of ``mask`` discs that starts next to a disc of
    ``p``, along the shift ``d`` both ways: each run grows by one disc twice, then by two
    twice where two discs of ``mask`` adjoin (six discs in four steps)."""
    pairs = mask & (mask << d)
    t = mask & (p << d)
    t |= mask & (t << d)
    t |= pairs & (t << (2 * d))
    t |= pairs & (t << (2 * d))
    found = t << d
    pairs >>= d
    t = mask & (p >> d)
    t |= mask & (t >> d)
    t |= pairs & (t >> (2 * d))
    t |= pairs & (t >> (2 * d))
    return found | (t >> d)


@jit
def _moves(p: np.uint64, o: np.uint64) -> np.uint64:
    """The squares where ``p`` may play against ``o``."""
    inner = o & _INNER  # sideways runs never wrap from the h-file to the a-file
    found = _shifted_runs(p, inner, 1) | _shifted_runs(p, o, 8)
    found |= _shifted_runs(p, inner, 7) | _shifted_runs(p, inner, 9)
    return found & ~(p | o)


@jit
def _flips(p: np.uint64, o: np.uint64, square: int) -> np.uint64:
    """The discs of ``o`` that ``p`` flips by playing on ``square`` (0: not legal there).

    Along each ray the first square that is not ``o``'s closes the run if it is ``p``'s:
    the lowest such bit on a ray towards higher squares, the highest towards lower."""
    flipped = _ZERO
    for d in range(4):
        ray = _RAYS[square, d]
        outflank = ray & ~o
        bit = outflank & -outflank
        if bit & p:
            flipped |= ray & (bit - _ONE)
    for d in range(4, 8):
        ray = _RAYS[square, d]
        outflank = ray & ~o
        if outflank:
            bit = _ONE << _U(_highest(outflank))
            if bit & p:
                flipped |= ray & -(bit << _ONE)
    return flipped


@jit
def _final(p: np.uint64, o: np.uint64) -> int:
    """The final disc difference for ``p``, the empty squares going to the winner."""
    mine = _popcount(p)
    theirs = _popcount(o)
    if mine > theirs:
        return 64 - 2 * theirs
    if mine < theirs:
        return 2 * mine - 64
    return 0


@jit
def _last(p: np.uint64, o: np.uint64, square: int) -> int:
    """The final score for ``p`` of a board whose one empty square is ``square``: ``p``
    plays it if it can, else ``o``, else it goes to the winner. Counted from the 63
    discs, without making the move."""
    count = _popcount(p)
    flipped = _flips(p, o, square)
    if flipped:
        return 2 * (count + _popcount(flipped)) - 62
    flipped = _flips(o, p, square)
    if flipped:
        return 2 * (count - _popcount(flipped)) - 64
    return 2 * count - 62 if 2 * count > 63 else 2 * count - 64


@jit
def _solve_two(
    p: np.uint64, o: np.uint64, alpha: int, beta: int, empty: np.uint64
) -> tuple[int, int]:
    """The score for ``p`` of a board with two empty squares, ``empty``, fail-soft in
    ``(alpha, beta)``, and the nodes it took (each position met counted once)."""
    first = _lowest(empty)
    second = _lowest(empty & (empty - _ONE))
    nodes = 1
    best = -65
    for square, other in ((first, second), (second, first)):
        flipped = _flips(p, o, square)
        if flipped:
            nodes += 1
            score = -_last(o ^ flipped, p | flipped | (_ONE << _U(square)), other)
            if score > best:
                if score >= beta:
                    return score, nodes
                best = score
    if best > -65:
        return best, nodes
    worst = 65  # p passes: o plays on the same board, or the game is over
    for square, other in ((first, second), (second, first)):
        flipped = _flips(o, p, square)
        if flipped:
            nodes += 1
            score = _last(p ^ flipped, o | flipped | (_ONE << _U(square)), other)
            if score < worst:
                if score <= alpha:
                    return score, nodes
                worst = score
    if worst < 65:
        return worst, nodes
    return _final(p, o), nodes


# ---------------------------------------------------------------- evaluation


@jit
def _neighbours(discs: np.uint64) -> np.uint64:
    """The squares next to ``discs`` in any of the eight directions."""
    sideways = ((discs << _ONE) & _NOT_A) | ((discs >> _ONE) & _NOT_H)
    row = discs | sideways
    return sideways | (row << _U(8)) | (row >> _U(8))


@jit
def _full_lines(occupied: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """The squares whose row is full, whose column is, whose diagonal along ``b1-a2`` is,
    and whose diagonal along ``a1-b2`` is (as
    :func:`zerosum.games.othello.evaluation.stable_discs` finds them)."""
    row = occupied & (occupied >> _U(1))
    row &= row >> _U(2)
    row &= row >> _U(4)
    rows = (row & _FILE_A) * _RANK_1
    column = occupied & (occupied >> _U(8))
    column &= column >> _U(16)
    column &= column >> _U(32)
    columns = (column & _RANK_1) * _FILE_A
    sevens = ~occupied
    nines = sevens
    for _ in range(7):  # a diagonal is full where no empty square spreads along it
        sevens |= ((sevens << _U(7)) & _NOT_H) | ((sevens >> _U(7)) & _NOT_A)
        nines |= ((nines << _U(9)) & _NOT_A) | ((nines >> _U(9)) & _NOT_H)
    return rows, columns, ~sevens, ~nines


@jit
def _stable(discs: np.uint64, occupied: np.uint64) -> np.uint64:
    """Those of ``discs`` that can never be flipped: the subset
    :func:`zerosum.games.othello.evaluation.stable_discs` finds, the same way."""
    stable = _ZERO
    for e in range(4):
        line = _EDGES[e, 0]
        if occupied & line == line:
            stable |= discs & line
            continue
        step = _EDGES[e, 3]
        bit = _EDGES[e, 1]
        while bit & discs:
            stable |= bit
            bit <<= step
        bit = _EDGES[e, 2]
        while bit & discs:
            stable |= bit
            bit >>= step
    rows, columns, sevens, nines = _full_lines(occupied)
    central = discs & _CENTRAL
    stable |= rows & columns & sevens & nines & central
    while True:
        # the shifts may wrap around the board, but only to edge squares, never central
        grown = stable | (
            ((stable >> _U(1)) | (stable << _U(1)) | rows)
            & ((stable >> _U(8)) | (stable << _U(8)) | columns)
            & ((stable >> _U(7)) | (stable << _U(7)) | sevens)
            & ((stable >> _U(9)) | (stable << _U(9)) | nines)
            & central
        )
        if grown == stable:
            return stable
        stable = grown


@jit
def _hand_evaluate(p: np.uint64, o: np.uint64) -> int:
    """The estimate of the final disc difference for ``p`` to move of
    :func:`zerosum.games.othello.evaluation.evaluate`, feature for feature and weight for
    weight; the final score when neither side can move."""
    mine = _moves(p, o)
    theirs = _moves(o, p)
    if not mine and not theirs:
        return _final(p, o)
    occupied = p | o
    empty = ~occupied
    value = 120 * (_popcount(mine) - _popcount(theirs))
    value += 40 * (_popcount(_neighbours(o) & empty) - _popcount(_neighbours(p) & empty))
    value += 800 * (_popcount(p & _CORNERS) - _popcount(o & _CORNERS))
    for i in range(4):
        if empty & _X_SQUARES[i, 1]:
            if p & _X_SQUARES[i, 0]:
                value -= 400
            elif o & _X_SQUARES[i, 0]:
                value += 400
        if empty & _C_SQUARES[i, 1]:
            value += 150 * (_popcount(o & _C_SQUARES[i, 0]) - _popcount(p & _C_SQUARES[i, 0]))
    if occupied & _CORNERS:  # before a corner is taken stable discs are rare: save the cost
        value += 100 * (_popcount(_stable(p, occupied)) - _popcount(_stable(o, occupied)))
    if _popcount(empty) & 1:
        value += 100  # an odd number of empties: the side to move plays last
    score = value // 100
    return max(-63, min(63, score))


@intrinsic
def _byteswap_instruction(typing_context: object, word: object) -> tuple[object, object]:
    """The bytes of an unsigned word in reverse order: one machine instruction."""

    def generate(context: object, builder: Any, signature: object, args: Any) -> object:
        return builder.bswap(args[0])

    return types.uint64(types.uint64), generate


_flip_ranks = cast("Callable[[np.uint64], np.uint64]", _byteswap_instruction)
"""The board with its ranks in reverse order (rank 1 to rank 8)."""


@jit
def _mirror_files(x: np.uint64) -> np.uint64:
    """The board with its files in reverse order (file a to file h)."""
    x = ((x >> _U(1)) & _U(0x5555555555555555)) | ((x & _U(0x5555555555555555)) << _U(1))
    x = ((x >> _U(2)) & _U(0x3333333333333333)) | ((x & _U(0x3333333333333333)) << _U(2))
    return ((x >> _U(4)) & _U(0x0F0F0F0F0F0F0F0F)) | ((x & _U(0x0F0F0F0F0F0F0F0F)) << _U(4))


@jit
def _transpose(x: np.uint64) -> np.uint64:
    """The board with files and ranks swapped, by three exchanges of bit blocks."""
    t = _U(0x0F0F0F0F00000000) & (x ^ (x << _U(28)))
    x ^= t ^ (t >> _U(28))
    t = _U(0x3333000033330000) & (x ^ (x << _U(14)))
    x ^= t ^ (t >> _U(14))
    t = _U(0x5500550055005500) & (x ^ (x << _U(7)))
    return x ^ t ^ (t >> _U(7))


def _pattern_tables() -> tuple[npt.NDArray[np.bool_], _Ints, npt.NDArray[np.int32]]:
    """Which patterns have a place at each symmetry (``PLACED[pattern, symmetry]``, the
    patterns in the order of :data:`PATTERNS`), where each pattern's table starts in a
    stage's weights (the scalar features' weights follow them), and the ternary value of
    each 10-bit number (bit j the digit 3 ** j)."""
    names = list(PATTERNS)
    placed = np.zeros((len(names), 8), dtype=np.bool_)
    for name, symmetry, _ in pattern_instances():
        placed[names.index(name), symmetry] = True
    starts = np.zeros(len(names), dtype=np.int64)
    size = 0
    for i, squares in enumerate(PATTERNS.values()):
        starts[i] = size
        size += 3 ** len(squares)
    ternary = np.array(
        [sum(3**j for j in range(10) if bits >> j & 1) for bits in range(1024)], dtype=np.int32
    )
    return placed, starts, ternary


_PLACED, _STARTS, _TERNARY = _pattern_tables()
_SWAPPED: npt.NDArray[np.bool_] = np.any(_PLACED[:, 4:], axis=0)  # symmetries 4-7 in use
_SCALAR = STAGE_SIZE - len(SCALARS)  # the scalar features' first weight


@jit
def _shape(x: np.uint64, pattern: int) -> int:
    """The discs of ``x`` on the squares of ``pattern`` as :data:`PATTERNS` lists them
    (from the corner ``a1``), gathered into the low bits in that order by shifts and
    masks: pattern 0 the corner's 3x3 squares (three rows of three), 1 the edge (the
    first row) with its two X-squares."""
    if pattern == 0:
        bits = (x & _U(0x7)) | ((x >> _U(5)) & _U(0x38)) | ((x >> _U(10)) & _U(0x1C0))
    else:
        bits = (x & _U(0xFF)) | ((x >> _U(1)) & _U(0x100)) | ((x >> _U(5)) & _U(0x200))
    return _signed(bits)


@jit
def _placed_score(p: np.uint64, o: np.uint64, symmetry: int, row: _Shorts) -> int:
    """The weights of the places the symmetry takes the patterns to, ``p`` and ``o``
    the sides' discs seen through that symmetry (the place's squares where the pattern's
    are)."""
    total = 0
    for pattern in range(_PATTERN_COUNT):
        if _PLACED[pattern, symmetry]:
            index = _TERNARY[_shape(p, pattern)] + 2 * _TERNARY[_shape(o, pattern)]
            total += row[_STARTS[pattern] + index]
    return total


_PATTERN_COUNT = len(PATTERNS)


@jit
def _pattern_evaluate(p: np.uint64, o: np.uint64, weights: _Shorts) -> int:
    """The pattern evaluation of ``p`` to move: the weights of its stage summed over
    every place of every pattern, a constant and the mobility difference, in discs; the
    final score when neither side can move.

    The board is seen through its eight symmetries (symmetry ``s`` of
    :func:`~zerosum.games.othello.evaluation.symmetric` puts each place's squares
    where the pattern's own are), so that every place is read by its pattern's shifts."""
    mine = _moves(p, o)
    theirs = _moves(o, p)
    if not mine and not theirs:
        return _final(p, o)
    occupied = p | o
    empty = ~occupied
    empties = 64 - _popcount(occupied)
    stage = min(STAGES - 1, max(0, (empties - 1) >> 2))
    row = weights[stage]
    x = 0
    c = 0
    for i in range(4):
        if empty & _X_SQUARES[i, 1]:
            x += _popcount(p & _X_SQUARES[i, 0]) - _popcount(o & _X_SQUARES[i, 0])
            c += _popcount(p & _C_SQUARES[i, 0]) - _popcount(o & _C_SQUARES[i, 0])
    stable = 0
    if occupied & _CORNERS:
        stable = _popcount(_stable(p, occupied)) - _popcount(_stable(o, occupied))
    total = _wide(row[_SCALAR])
    total += row[_SCALAR + 1] * (_popcount(mine) - _popcount(theirs))
    total += row[_SCALAR + 2] * (
        _popcount(_neighbours(o) & empty) - _popcount(_neighbours(p) & empty)
    )
    total += row[_SCALAR + 3] * (_popcount(p & _CORNERS) - _popcount(o & _CORNERS))
    total += row[_SCALAR + 4] * x + row[_SCALAR + 5] * c + row[_SCALAR + 6] * stable
    total += row[_SCALAR + 7] * (empties & 1)
    p1, o1 = _mirror_files(p), _mirror_files(o)
    p2, o2 = _flip_ranks(p), _flip_ranks(o)
    p3, o3 = _mirror_files(p2), _mirror_files(o2)
    total += _placed_score(p, o, 0, row) + _placed_score(p1, o1, 1, row)
    total += _placed_score(p2, o2, 2, row) + _placed_score(p3, o3, 3, row)
    # the symmetries that swap files and ranks, where some pattern has a place there
    if _SWAPPED[0]:
        total += _placed_score(_transpose(p), _transpose(o), 4, row)
    if _SWAPPED[1]:
        total += _placed_score(_transpose(p1), _transpose(o1), 5, row)
    if _SWAPPED[2]:
        total += _placed_score(_transpose(p2), _transpose(o2), 6, row)
    if _SWAPPED[3]:
        total += _placed_score(_transpose(p3), _transpose(o3), 7, row)
    score: int = (total + WEIGHT_UNIT // 2) // WEIGHT_UNIT
    return max(-63, min(63, score))


@jit
def _evaluate(p: np.uint64, o: np.uint64, weights: _Shorts) -> int:
    """The evaluation: by patterns when ``weights`` holds any, else by hand."""
    if weights.shape[0] == 0:
        return _hand_evaluate(p, o)
    return _pattern_evaluate(p, o, weights)


@jit
def _depth_one(  # noqa: PLR0917 - numba takes its arguments by position
    p: np.uint64, o: np.uint64, moves: np.uint64, alpha: int, beta: int, weights: _Shorts
) -> tuple[int, int]:
    """The value for ``p`` one ply above the horizon, fail-soft in ``(alpha, beta)``: every
    move's position evaluated in turn, without a frame each; and the nodes (the moves
    evaluated)."""
    best = -65
    nodes = 0
    rest = moves
    while rest:
        bit = rest & -rest
        rest ^= bit
        flipped = _flips(p, o, _lowest(bit))
        nodes += 1
        score = -_evaluate(o ^ flipped, p | flipped | bit, weights)
        if score > best:
            best = score
            if score >= beta:
                break
    return best, nodes


# ---------------------------------------------------------------- the table


@jit
def _bucket(p: np.uint64, o: np.uint64, shift: np.uint64) -> int:
    """The first of the two slots of ``(p, o)``'s bucket: the high bits of a product,
    which depend on every bit of both words."""
    h = (p ^ (o * _HASH_O)) * _HASH_P
    return _signed(h >> shift) << 1


@jit
def _find(keys: _Words, i: int, p: np.uint64, o: np.uint64) -> int:
    """The slot of bucket ``i`` holding ``(p, o)``, or -1."""
    if keys[2 * i] == p and keys[2 * i + 1] == o:
        return i
    if keys[2 * i + 2] == p and keys[2 * i + 3] == o:
        return i + 1
    return -1


@jit
def _store(  # noqa: PLR0917 - numba takes its arguments by position
    keys: _Words,
    data: _Ints,
    i: int,
    p: np.uint64,
    o: np.uint64,
    draft: int,
    low: int,
    high: int,
    move: int,
    generation: int,
) -> None:
    """Store the bounds ``low .. high`` of ``(p, o)`` searched ``draft`` plies deep with
    best move ``move`` (-1 for none) in bucket ``i``: over the same position's entry
    (tightening its bounds when of the same draft; a deeper one is kept), else over the
    slot of an older search, else over the shallower slot."""
    slot = _find(keys, i, p, o)
    if slot >= 0:
        old = data[slot]
        old_draft = (old >> 24) & 255
        if old_draft > draft:
            return
        if old_draft == draft:
            old_low = (old & 255) - 64
            old_high = ((old >> 8) & 255) - 64
            if max(low, old_low) <= min(high, old_high):
                low = max(low, old_low)
                high = min(high, old_high)
            if move < 0:
                move = (old >> 16) & 127
    else:
        slot = i
        first = data[i]
        second = data[i + 1]
        first_old = (first >> 32) != generation
        second_old = (second >> 32) != generation
        if first_old != second_old:
            slot = i + 1 if second_old else i
        elif ((second >> 24) & 255) < ((first >> 24) & 255):
            slot = i + 1
        keys[2 * slot] = p
        keys[2 * slot + 1] = o
    data[slot] = (
        (generation << 32) | (draft << 24) | ((move & 127) << 16) | ((high + 64) << 8) | (low + 64)
    )


# ---------------------------------------------------------------- the search

# a frame's fields: the window (narrowed as the node goes), the depth, the best score
# and move so far, the moves sorted (count, next), the kind of node, the move being
# searched, and whether it is searched with a null window before a full one
_ALPHA, _BETA, _DEPTH, _BEST, _BEST_MOVE, _COUNT, _NEXT, _KIND, _MOVE, _NULL = range(10)
# and for probability cut: how far the node is (0 not yet probed, 1 and 2 waiting for
# its shallow searches, 3 searching), whether it lies inside a shallow search (which
# never probes again), and the two bounds the shallow searches test
_PHASE, _INSIDE, _HIGH, _LOW = range(10, 14)
_FIELDS = 14
# a frame's words: the two sides' discs, then a shallow node's empty squares still to
# try, in four parts in the order they are tried
_P, _O = 0, 1
_WORDS = 6
# the kinds of node that have frames
_DEEP, _SHALLOW, _PASSING, _PROBING = 0, 1, 2, 3
# the registers that carry a search from one call to the next
_SP, _MODE, _RET, _NODES, _GENERATION, _ROOT_MOVE, _SHIFT, _ROOT_ALPHA, _SELECTIVE = range(9)
_REGISTERS = 9
_ENTER, _NEXT_MOVE, _RETURN = 0, 1, 2

PROBCUT_CONFIDENCE = 1.5
"""How many standard deviations of the regression's error a shallow search's value must
clear for probability cut to trust it."""

_PROBCUT_DEPTHS = 32  # deeper searches use the last row


def _probcut_tables() -> tuple[_Ints, npt.NDArray[np.float64]]:
    """For each depth its shallow search's depth (``[0, 0]``: the least depth that
    probes), and the regression of the deep value on the shallow one: slope, offset and
    the error's standard deviation, in discs.

    The shallow depth is Edax's, ``2 * (depth // 4) + depth % 2``: an even number of
    plies shallower, since the evaluation leans towards the side to move and an odd
    difference shifts the values by 4 discs. Measured with the shipped evaluation on 200
    positions of self-play with 20 to 54 empties (``bench/othello_train.py probcut``,
    depths 1 to 8): slopes 0.97 to 1.02 and offsets within half a disc, so the regression
    is taken as the identity, with the error of 5.21, 4.79, 4.32, 5.87, 5.60 and 4.70
    discs at depths 3 to 8; deeper, the fit to those of every pair of depths, ``4.7 +
    0.5 (depth - shallow) - 0.45 shallow``, no less than 4."""
    depths = np.zeros((_PROBCUT_DEPTHS, 2), dtype=np.int64)
    fit = np.zeros((_PROBCUT_DEPTHS, 3), dtype=np.float64)
    depths[0, 0] = 3
    measured = {3: 5.21, 4: 4.79, 5: 4.32, 6: 5.87, 7: 5.60, 8: 4.70}
    for depth in range(1, _PROBCUT_DEPTHS):
        shallow = 2 * (depth // 4) + depth % 2
        error = 4.7 + 0.5 * (depth - shallow) - 0.45 * shallow
        depths[depth, 1] = shallow
        fit[depth] = (1.0, 0.0, measured.get(depth, max(4.0, error)))
    return depths, fit


_PROBCUT, _PROBCUT_FIT = _probcut_tables()

_MAX_PLY = 128
"""Frames: 60 moves and the passes between them, with room to spare."""
_TABLE_MOVE = -(1 << 40)
"""The sort key of the table's move: before every other."""
PASS = 64
"""The pass, as :mod:`zerosum.games.othello.rules` numbers it."""


@jit
def _odd_quadrants(empty: np.uint64) -> np.uint64:
    """The quadrants holding an odd number of ``empty``."""
    odd = _ZERO
    for q in range(4):
        if _popcount(empty & _QUADRANTS[q]) & 1:
            odd |= _QUADRANTS[q]
    return odd


@jit
def _exact_key(
    bit: np.uint64, child_p: np.uint64, child_o: np.uint64, empty: np.uint64, odd: np.uint64
) -> int:
    """The sort key of a move in an exact node, lower first: fastest first (the
    opponent's replies, corners counted twice), then its potential mobility (empty
    squares next to the mover's discs), a move outside the odd quadrants later, a corner
    earlier and an X-square next to an empty corner later."""
    replies = _moves(child_p, child_o)
    key = 8 * (_popcount(replies) + _popcount(replies & _CORNERS))
    key += _popcount(_neighbours(child_o) & empty)
    if not bit & odd:
        key += 4
    if bit & _CORNERS:
        key -= 4
    elif bit & _DANGER_SQUARES and empty & _DANGER[_lowest(bit)]:
        key += 4
    return key


@jit
def _run(  # noqa: PLR0917 - numba takes its arguments by position
    words: _Words,
    frames: _Ints,
    lists: _Ints,
    children: _Words,
    keys: _Words,
    data: _Ints,
    weights: _Shorts,
    registers: _Ints,
    budget: int,
) -> bool:
    """Run the search set up in frame 0 and ``registers`` for up to ``budget`` more
    nodes; ``True`` once it is over (its score in ``registers[_RET]``, the root's best
    move in ``registers[_ROOT_MOVE]``), ``False`` when the budget ran out first (the
    stack kept, so that a second call carries on)."""
    sp = registers[_SP]
    mode = registers[_MODE]
    ret = registers[_RET]
    nodes = registers[_NODES]
    generation = registers[_GENERATION]
    shift = _U(registers[_SHIFT])
    limit = nodes + budget
    done = False
    while True:
        if mode == _ENTER:
            phase = frames[sp, _PHASE]
            if phase == 0:  # a node entered again after its shallow searches counts once
                if nodes >= limit:
                    break
                nodes += 1
            p = words[sp, _P]
            o = words[sp, _O]
            alpha = frames[sp, _ALPHA]
            beta = frames[sp, _BETA]
            depth = frames[sp, _DEPTH]
            occupied = p | o
            empties = 64 - _popcount(occupied)
            exact = depth >= empties
            mode = _RETURN
            if sp > 0:
                if exact:
                    if empties == 2:
                        ret, more = _solve_two(p, o, alpha, beta, ~occupied)
                        nodes += more - 1
                        continue
                    if empties == 1:
                        ret = _last(p, o, _lowest(~occupied))
                        continue
                    if empties == 0:
                        ret = _final(p, o)
                        continue
                elif depth == 0:
                    ret = _evaluate(p, o, weights)
                    continue
            moves = _moves(p, o)
            if not moves:
                if not _moves(o, p):
                    ret = _final(p, o)
                    continue
                frames[sp, _KIND] = _PASSING
                frames[sp, _BEST_MOVE] = PASS
                sp += 1
                words[sp, _P] = o
                words[sp, _O] = p
                frames[sp, _ALPHA] = -beta
                frames[sp, _BETA] = -alpha
                frames[sp, _DEPTH] = depth if exact else depth - 1
                frames[sp, _PHASE] = 0
                frames[sp, _INSIDE] = frames[sp - 1, _INSIDE]
                mode = _ENTER
                continue
            if sp > 0:
                if not exact and depth == 1:
                    ret, more = _depth_one(p, o, moves, alpha, beta, weights)
                    nodes += more
                    continue
                if exact and empties <= SMALL_EMPTIES:
                    # parity: the empties of odd quadrants first, where the mover can
                    # hope to play last, and in each half the C- and X-squares last
                    empty = ~occupied
                    first = empty & _odd_quadrants(empty)
                    second = empty ^ first
                    words[sp, 2] = first & ~_C_AND_X
                    words[sp, 3] = first & _C_AND_X
                    words[sp, 4] = second & ~_C_AND_X
                    words[sp, 5] = second & _C_AND_X
                    frames[sp, _KIND] = _SHALLOW
                    frames[sp, _BEST] = -65
                    mode = _NEXT_MOVE
                    continue
            draft = empties if exact else depth
            bucket = _bucket(p, o, shift)
            slot = _find(keys, bucket, p, o)
            table_move = -1
            if slot >= 0:
                entry = data[slot]
                table_move = (entry >> 16) & 127
                if ((entry >> 24) & 255) >= draft and sp > 0:
                    low = (entry & 255) - 64
                    high = ((entry >> 8) & 255) - 64
                    if low >= beta or low == high:
                        ret = low
                        continue
                    if high <= alpha:
                        ret = high
                        continue
                    alpha = max(alpha, low)
                    beta = min(beta, high)
            if (
                phase == 0
                and not exact
                and sp > 0
                and depth >= _PROBCUT[0, 0]
                and beta - alpha == 1
                and registers[_SELECTIVE]
                and not frames[sp, _INSIDE]
            ):
                # probability cut (Buro's): a shallow search whose value, through the
                # regression of deep values on shallow ones, makes a fail high (or low)
                # almost certain answers for the deep one
                fitted = min(depth, _PROBCUT_DEPTHS - 1)  # deeper: as deep as fitted
                shallow = depth - fitted + _PROBCUT[fitted, 1]
                slope = _PROBCUT_FIT[fitted, 0]
                offset = _PROBCUT_FIT[fitted, 1]
                margin = PROBCUT_CONFIDENCE * _PROBCUT_FIT[fitted, 2]
                high = int(np.ceil((beta + margin - offset) / slope))
                low = int(np.floor((alpha - margin - offset) / slope))
                frames[sp, _HIGH] = high
                frames[sp, _LOW] = low
                frames[sp, _KIND] = _PROBING
                if high < 64:
                    frames[sp, _PHASE] = 1
                    bound = high
                elif low > -64:
                    frames[sp, _PHASE] = 2
                    bound = low + 1
                else:
                    bound = 65
                if bound <= 64:
                    sp += 1
                    words[sp, _P] = p
                    words[sp, _O] = o
                    frames[sp, _ALPHA] = bound - 1
                    frames[sp, _BETA] = bound
                    frames[sp, _DEPTH] = shallow
                    frames[sp, _PHASE] = 0
                    frames[sp, _INSIDE] = 1
                    mode = _ENTER
                    continue
            empty = ~occupied
            odd = _odd_quadrants(empty) if exact else _ZERO
            count = 0
            rest = moves
            cut = -65
            etc = sp > 0 and exact and empties >= ETC_EMPTIES
            while rest:
                bit = rest & -rest
                rest ^= bit
                square = _lowest(bit)
                flipped = _flips(p, o, square)
                child_p = o ^ flipped
                child_o = p | flipped | bit
                children[sp, 2 * square] = child_p
                children[sp, 2 * square + 1] = child_o
                if etc:
                    # enhanced transposition cut-off: a child the table already proves
                    # bad enough for the opponent cuts before any move is searched
                    known = _find(keys, _bucket(child_p, child_o, shift), child_p, child_o)
                    if known >= 0:
                        entry = data[known]
                        if ((entry >> 24) & 255) == empties - 1 and 64 - (
                            (entry >> 8) & 255
                        ) >= beta:
                            cut = 64 - ((entry >> 8) & 255)
                            frames[sp, _BEST_MOVE] = square
                            break
                if square == table_move:
                    key = _TABLE_MOVE
                elif exact:
                    key = _exact_key(bit, child_p, child_o, empty, odd)
                    if empties >= LOOK_AHEAD_EMPTIES:
                        # far from the leaves, the opponent's best reply by the
                        # evaluation too: half a reply a disc
                        reply = _depth_one(
                            child_p, child_o, _moves(child_p, child_o), -65, 65, weights
                        )
                        key += 4 * reply[0]
                else:
                    key = _evaluate(child_p, child_o, weights)
                # insertion sort as the moves come (at most 33 of them)
                value = (key << 6) | square
                k = count
                while k > 0 and lists[sp, k - 1] > value:
                    lists[sp, k] = lists[sp, k - 1]
                    k -= 1
                lists[sp, k] = value
                count += 1
            if cut > -65:
                _store(keys, data, bucket, p, o, draft, cut, 64, frames[sp, _BEST_MOVE], generation)
                ret = cut
                continue
            frames[sp, _ALPHA] = alpha
            frames[sp, _BETA] = beta
            frames[sp, _BEST] = -65
            frames[sp, _BEST_MOVE] = -1
            frames[sp, _COUNT] = count
            frames[sp, _NEXT] = 0
            frames[sp, _KIND] = _DEEP
            mode = _NEXT_MOVE
            continue
        if mode == _NEXT_MOVE:
            alpha = frames[sp, _ALPHA]
            beta = frames[sp, _BETA]
            if frames[sp, _KIND] == _SHALLOW:
                p = words[sp, _P]
                o = words[sp, _O]
                flipped = _ZERO
                bit = _ZERO
                for part in range(2, 6):
                    candidates = words[sp, part]
                    while candidates:
                        bit = candidates & -candidates
                        candidates ^= bit
                        square = _lowest(bit)
                        if o & _NEIGHBOUR[square]:
                            flipped = _flips(p, o, square)
                            if flipped:
                                break
                    words[sp, part] = candidates
                    if flipped:
                        break
                if not flipped:
                    ret = frames[sp, _BEST]
                    mode = _RETURN
                    continue
                frames[sp, _MOVE] = _lowest(bit)
                frames[sp, _NULL] = 0
                depth = frames[sp, _DEPTH]
                sp += 1
                words[sp, _P] = o ^ flipped
                words[sp, _O] = p | flipped | bit
                frames[sp, _ALPHA] = -beta
                frames[sp, _BETA] = -alpha
                frames[sp, _DEPTH] = depth - 1
                frames[sp, _PHASE] = 0
                frames[sp, _INSIDE] = frames[sp - 1, _INSIDE]
                mode = _ENTER
                continue
            index = frames[sp, _NEXT]
            if index < frames[sp, _COUNT]:
                square = lists[sp, index] & 63
                frames[sp, _NEXT] = index + 1
                frames[sp, _MOVE] = square
                depth = frames[sp, _DEPTH]
                sp += 1
                words[sp, _P] = children[sp - 1, 2 * square]
                words[sp, _O] = children[sp - 1, 2 * square + 1]
                frames[sp, _DEPTH] = depth - 1
                frames[sp, _PHASE] = 0
                frames[sp, _INSIDE] = frames[sp - 1, _INSIDE]
                if index == 0 or beta - alpha == 1:
                    frames[sp - 1, _NULL] = 0
                    frames[sp, _ALPHA] = -beta
                    frames[sp, _BETA] = -alpha
                else:
                    # principal-variation search: a move after the first need only
                    # prove itself no better than alpha, with a null window
                    frames[sp - 1, _NULL] = 1
                    frames[sp, _ALPHA] = -alpha - 1
                    frames[sp, _BETA] = -alpha
                mode = _ENTER
                continue
            # every move searched: store what was found
            best = frames[sp, _BEST]
            p = words[sp, _P]
            o = words[sp, _O]
            empties = 64 - _popcount(p | o)
            depth = frames[sp, _DEPTH]
            draft = empties if depth >= empties else depth
            low, high = -64, 64
            if best <= alpha:
                high = best
            else:
                low = best
                if best < beta:
                    high = best
            _store(
                keys,
                data,
                _bucket(p, o, shift),
                p,
                o,
                draft,
                low,
                high,
                frames[sp, _BEST_MOVE],
                generation,
            )
            ret = best
            mode = _RETURN
            continue
        # _RETURN: the frame at sp is over, its score in ret
        if sp == 0:
            done = True
            break
        sp -= 1
        score = -ret
        kind = frames[sp, _KIND]
        if kind == _PASSING:
            ret = score
            continue
        if kind == _PROBING:
            # a shallow search of the same position, from the same side, is over
            phase = frames[sp, _PHASE]
            if phase == 1 and ret >= frames[sp, _HIGH]:
                ret = frames[sp, _BETA]
                continue
            if phase == 2 and ret <= frames[sp, _LOW]:
                ret = frames[sp, _ALPHA]
                continue
            if phase == 1 and frames[sp, _LOW] > -64:
                frames[sp, _PHASE] = 2
                sp += 1
                frames[sp, _ALPHA] = frames[sp - 1, _LOW]
                frames[sp, _BETA] = frames[sp - 1, _LOW] + 1
            else:
                frames[sp, _PHASE] = 3  # neither cut: the node is searched in full
                mode = _ENTER
                continue
            words[sp, _P] = words[sp - 1, _P]
            words[sp, _O] = words[sp - 1, _O]
            fitted = min(frames[sp - 1, _DEPTH], _PROBCUT_DEPTHS - 1)
            frames[sp, _DEPTH] = frames[sp - 1, _DEPTH] - fitted + _PROBCUT[fitted, 1]
            frames[sp, _PHASE] = 0
            frames[sp, _INSIDE] = 1
            mode = _ENTER
            continue
        alpha = frames[sp, _ALPHA]
        beta = frames[sp, _BETA]
        if frames[sp, _NULL] and alpha < score < beta:
            # the null window failed high inside the window: search again with it
            frames[sp, _NULL] = 0
            square = frames[sp, _MOVE]
            depth = frames[sp, _DEPTH]
            sp += 1
            words[sp, _P] = children[sp - 1, 2 * square]
            words[sp, _O] = children[sp - 1, 2 * square + 1]
            frames[sp, _ALPHA] = -beta
            frames[sp, _BETA] = -alpha
            frames[sp, _DEPTH] = depth - 1
            frames[sp, _PHASE] = 0
            frames[sp, _INSIDE] = frames[sp - 1, _INSIDE]
            mode = _ENTER
            continue
        mode = _NEXT_MOVE
        if score > frames[sp, _BEST]:
            frames[sp, _BEST] = score
            frames[sp, _BEST_MOVE] = frames[sp, _MOVE]
            if score > alpha:
                if score >= beta:
                    if kind == _DEEP:
                        p = words[sp, _P]
                        o = words[sp, _O]
                        empties = 64 - _popcount(p | o)
                        depth = frames[sp, _DEPTH]
                        draft = empties if depth >= empties else depth
                        _store(
                            keys,
                            data,
                            _bucket(p, o, shift),
                            p,
                            o,
                            draft,
                            score,
                            64,
                            frames[sp, _MOVE],
                            generation,
                        )
                    ret = score
                    mode = _RETURN
                    continue
                frames[sp, _ALPHA] = score
    registers[_SP] = sp
    registers[_MODE] = mode
    registers[_RET] = ret
    registers[_NODES] = nodes
    if done:
        registers[_ROOT_MOVE] = frames[0, _BEST_MOVE]
    return done


@jit
def _perft(p: np.uint64, o: np.uint64, depth: int) -> int:
    """The move paths of ``depth`` plies from ``p`` to move, a pass counted as a move and
    a line ending with the game, the last ply's moves counted without being made."""
    if depth == 0:
        return 1
    mover = np.zeros(depth, dtype=np.uint64)
    other = np.zeros(depth, dtype=np.uint64)
    left = np.zeros(depth, dtype=np.uint64)
    passing = np.zeros(depth, dtype=np.int64)
    total = 0
    sp = 0
    mover[0] = p
    other[0] = o
    entering = True
    while sp >= 0:
        if entering:
            moves = _moves(mover[sp], other[sp])
            left[sp] = moves
            passing[sp] = 1 if not moves and _moves(other[sp], mover[sp]) else 0
            if sp == depth - 1:
                total += _popcount(moves) + passing[sp]
                sp -= 1
                entering = False
                continue
        if passing[sp]:
            passing[sp] = 0
            mover[sp + 1] = other[sp]
            other[sp + 1] = mover[sp]
        elif left[sp]:
            bit = left[sp] & -left[sp]
            left[sp] ^= bit
            flipped = _flips(mover[sp], other[sp], _lowest(bit))
            mover[sp + 1] = other[sp] ^ flipped
            other[sp + 1] = mover[sp] | flipped | bit
        else:
            sp -= 1
            entering = False
            continue
        sp += 1
        entering = True
    return total


@jit
def _moves_of(p: np.uint64, o: np.uint64) -> np.uint64:
    """:func:`_moves`, as an entry point."""
    return _moves(p, o)


@jit
def _flips_of(p: np.uint64, o: np.uint64, square: int) -> np.uint64:
    """:func:`_flips`, as an entry point."""
    return _flips(p, o, square)


@jit
def _evaluate_of(p: np.uint64, o: np.uint64, weights: _Shorts) -> int:
    """:func:`_evaluate`, as an entry point."""
    return _evaluate(p, o, weights)


# ---------------------------------------------------------------- the Python side

EXACT = 127
"""The depth of a search to the end of every line."""

_NO_LIMIT = 1 << 62
"""A node budget no search reaches."""

_MASK = (1 << 64) - 1


def moves(mover: int, opponent: int) -> int:
    """The squares where ``mover`` may play, by the kernel."""
    return int(_moves_of(_U(mover), _U(opponent)))


def flips(mover: int, opponent: int, square: int) -> int:
    """The discs ``mover`` flips by playing on ``square``, by the kernel."""
    return int(_flips_of(_U(mover), _U(opponent), square))


HAND = np.zeros((0, STAGE_SIZE), dtype=np.int16)
"""No pattern weights: the kernel evaluates as the pure path's hand-tuned
:func:`~zerosum.games.othello.evaluation.evaluate` does."""


@functools.cache
def shipped_weights() -> _Shorts:
    """The pattern evaluation's weights shipped with the game
    (:data:`~zerosum.games.othello.evaluation.WEIGHTS`), read once."""
    flat = np.array(load_weights(), dtype=np.int16)
    return flat.reshape(STAGES, STAGE_SIZE)


def evaluate(mover: int, opponent: int, weights: _Shorts = HAND) -> int:
    """The kernel's evaluation of the position, ``mover`` to move."""
    return int(_evaluate_of(_U(mover), _U(opponent), weights))


def perft(mover: int, opponent: int, depth: int) -> int:
    """The move paths of ``depth`` plies from the position, by the kernel."""
    return int(_perft(_U(mover), _U(opponent), depth))


class OthelloKernel:
    """The compiled search with its table and stack.

    ``table_bits`` sizes the table: ``2 ** table_bits`` entries of 24 bytes (24 MB at 20).
    The first kernel made in a process loads the compiled code from the cache folder,
    or compiles it (some seconds) if the cache holds none for this CPU."""

    __slots__ = (
        "_children",
        "_data",
        "_frames",
        "_keys",
        "_lists",
        "_registers",
        "_weights",
        "_words",
    )

    def __init__(self, table_bits: int = 20, weights: _Shorts = HAND) -> None:
        if not 10 <= table_bits <= 30:
            raise ValueError(f"table_bits must be from 10 to 30, not {table_bits}")
        size = 1 << table_bits
        # written once now (np.empty, then filled): a search should not pay a page
        # fault for each slot it touches first
        self._keys = np.empty(2 * size, dtype=np.uint64)
        self._data = np.empty(size, dtype=np.int64)
        self._words = np.zeros((_MAX_PLY, _WORDS), dtype=np.uint64)
        self._frames = np.zeros((_MAX_PLY, _FIELDS), dtype=np.int64)
        self._lists = np.zeros((_MAX_PLY, 40), dtype=np.int64)
        self._children = np.zeros((_MAX_PLY, 128), dtype=np.uint64)
        self._registers = np.zeros(_REGISTERS, dtype=np.int64)
        self._registers[_SHIFT] = 64 - (table_bits - 1)
        self._weights = weights
        self.clear()
        # load (or compile) the search now rather than inside the first timed one
        self.window(0x0000000810000000, 0x0000001008000000, -64, 64, 2)
        self.clear()

    @property
    def nodes(self) -> int:
        """The nodes searched since this kernel was made (or :meth:`clear` ed)."""
        return int(self._registers[_NODES])

    def clear(self) -> None:
        """Empty the table and the node count."""
        self._keys.fill(0)
        self._data.fill(0)
        self._registers[_GENERATION] = 1
        self._registers[_NODES] = 0

    def new_search(self) -> None:
        """Mark what the table holds as older: a new search's entries replace them first."""
        self._registers[_GENERATION] += 1

    def start(
        self,
        mover: int,
        opponent: int,
        alpha: int,
        beta: int,
        depth: int = EXACT,
        *,
        selective: bool = False,
    ) -> None:
        """Set up a fail-soft search of the position, ``mover`` to move, with the window
        ``(alpha, beta)``, ``depth`` plies deep (:data:`EXACT`: to the end), to be run by
        :meth:`resume`; ``selective`` lets its midgame nodes cut by probability (their
        values are then likely, not certain: exact nodes are never cut so). Raises
        ``ValueError`` for a depth below 1 (the evaluation is depth 0)."""
        if depth < 1:
            raise ValueError(f"a search is at least 1 ply deep, not {depth}")
        self._words[0, _P] = mover
        self._words[0, _O] = opponent
        frame = self._frames[0]
        frame[_ALPHA] = alpha
        frame[_BETA] = beta
        frame[_DEPTH] = depth
        frame[_BEST_MOVE] = -1
        frame[_PHASE] = 0
        frame[_INSIDE] = 0
        registers = self._registers
        registers[_SP] = 0
        registers[_MODE] = _ENTER
        registers[_ROOT_MOVE] = -1
        registers[_ROOT_ALPHA] = alpha
        registers[_SELECTIVE] = selective

    def resume(self, budget: int = _NO_LIMIT) -> int | None:
        """Run the search set up by :meth:`start` for up to ``budget`` more nodes: its
        score once it is over, ``None`` if the budget ran out first (call again)."""
        if _run(
            self._words,
            self._frames,
            self._lists,
            self._children,
            self._keys,
            self._data,
            self._weights,
            self._registers,
            budget,
        ):
            return int(self._registers[_RET])
        return None

    def window(self, mover: int, opponent: int, alpha: int, beta: int, depth: int = EXACT) -> int:
        """Search the position with the window ``(alpha, beta)``, fail-soft: the value
        inside the window, a bound on the same side outside it."""
        self.start(mover, opponent, alpha, beta, depth)
        score = self.resume()
        assert score is not None  # no budget: the search always ends
        return score

    def partial(self) -> tuple[int, int] | None:
        """The score and move of the best root move of a search :meth:`resume` left
        unfinished, when the root's first move was searched to the end and another one
        proved better than it since; ``None`` otherwise. The score is exact if it lies
        inside the search's window, a lower bound if not."""
        frame = self._frames[0]
        if int(frame[_KIND]) != _DEEP or int(frame[_NEXT]) < 2:
            return None
        first = int(self._lists[0, 0]) & 63
        move = int(frame[_BEST_MOVE])
        # above the window's floor a move is proven better than the first; below it,
        # every score is only a bound
        if move < 0 or move == first or int(frame[_BEST]) <= int(self._registers[_ROOT_ALPHA]):
            return None
        return int(frame[_BEST]), move

    @property
    def best_move(self) -> int | None:
        """The root's best move in the last finished search (:data:`PASS` for a pass),
        ``None`` when the game was over there (or the root was only evaluated)."""
        move = int(self._registers[_ROOT_MOVE])
        return None if move < 0 else move

    def entry(self, mover: int, opponent: int) -> tuple[int, int, int | None, int] | None:
        """The table's ``(low, high, move, draft)`` for the position, or ``None``."""
        shift = int(self._registers[_SHIFT])
        h = (((mover ^ (opponent * int(_HASH_O))) & _MASK) * int(_HASH_P)) & _MASK
        bucket = (h >> shift) << 1
        keys = self._keys
        for slot in (bucket, bucket + 1):
            if int(keys[2 * slot]) == mover and int(keys[2 * slot + 1]) == opponent:
                data = int(self._data[slot])
                move = (data >> 16) & 127
                return (
                    (data & 255) - 64,
                    ((data >> 8) & 255) - 64,
                    None if move == 127 else move,
                    (data >> 24) & 255,
                )
        return None


# ---------------------------------------------------------------- the engine

CHUNK_NODES = 1 << 14
"""The nodes the kernel searches between two looks at the limits (about 2 ms)."""

SOLVE_EMPTIES = 20
"""From this many empty squares down a search without a time limit deepens to the end
of the game (an exact solve) once its midgame iterations reach :data:`SOLVE_AFTER`
plies. A timed search solves when it expects to finish in the time left
(:func:`solve_nodes`), from as many as :data:`SOLVE_MOST` empties."""

SOLVE_AFTER = 6
"""The midgame depth after which a search may try the exact solve: the midgame
iterations order its moves and are the answer if it cannot finish."""

SOLVE_MOST = 28
"""The most empty squares a timed search tries to solve at."""

SOLVE_MARGIN = 3.0
"""A timed search tries the exact solve when the nodes it can still search in the time
left are this many times :func:`solve_nodes` (a solve takes up to five or six times the
median)."""


def solve_nodes(empties: int) -> float:
    """The nodes a solve of a position of self-play with ``empties`` empty squares takes
    in the median, midgame iterations to depth 6 included: 1.7 million at 18 empties, 3.0
    million at 20, 29 million at 22 (8 positions each), about three times as many for
    each empty square more."""
    return 3.0e6 * 3.0 ** (empties - 20)


_ASPIRATION = 3
"""The first half-width of the window around the previous iteration's score, in discs."""

_FIRST_MOVE_SHARE = 1.0
"""A timed search starts another iteration only if the last one took no more than this
share of the time left: the next one's first move (the best so far) takes about as long
as the whole last iteration, and once it is searched a better move found before the
time runs out is played (:meth:`OthelloKernel.partial`)."""


class _Watch:
    """A search's limits, read between chunks of the kernel's nodes: a node count for the
    whole search, a deadline (its time counted from ``began``, by default now), a stop
    signal, and a progress callback told the nodes."""

    __slots__ = ("deadline", "first", "kernel", "node_limit", "progress", "stop")

    def __init__(
        self,
        kernel: OthelloKernel,
        limits: Limits | None,
        progress: Callable[[int], None] | None = None,
        *,
        began: float | None = None,
    ) -> None:
        self.kernel = kernel
        self.first = kernel.nodes
        self.progress = progress
        self.stop = limits.stop if limits is not None else None
        seconds = limits.time if limits is not None else None
        start = time.perf_counter() if began is None else began
        self.deadline = start + seconds if seconds is not None else None
        self.node_limit = limits.nodes if limits is not None else None

    @property
    def nodes(self) -> int:
        """The nodes searched since the watch began."""
        return self.kernel.nodes - self.first

    def run(self) -> int:
        """Run the kernel's search to its end under the limits: its score, or
        :class:`~zerosum.search.engine.SearchStopped` when a limit strikes first."""
        kernel = self.kernel
        watched = (
            self.deadline is not None
            or self.stop is not None
            or self.node_limit is not None
            or self.progress is not None
        )
        if not watched:
            score = kernel.resume()
            assert score is not None  # no budget: the search always ends
            return score
        while True:
            budget = CHUNK_NODES
            if self.node_limit is not None:
                budget = max(1, min(budget, self.node_limit - self.nodes))
            score = kernel.resume(budget)
            if score is not None:
                return score
            self.check()

    def check(self) -> None:
        """Tell the progress, and raise :class:`SearchStopped` if a limit struck."""
        done = self.nodes
        if self.progress is not None:
            self.progress(done)
        if self.stop is not None and self.stop.is_set():
            raise SearchStopped("stop", done)
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SearchStopped("time", done)
        if self.node_limit is not None and done >= self.node_limit:
            raise SearchStopped("nodes", done)


class KernelEngine(CompiledEngine[OthelloKernel]):
    """An :class:`~zerosum.search.engine.Engine` for othello whose searches run in the
    compiled kernel (:class:`OthelloKernel`).

    :meth:`search` and :meth:`iterate` deepen in the kernel one ply at a time, each
    midgame iteration inside an aspiration window around the last score and, with
    ``selective`` (the default), cutting by probability. Once the midgame iterations
    reach :data:`SOLVE_AFTER` plies the next iteration may solve the position exactly
    (windows of two around even scores stepping from the last score): without a time
    limit from :data:`SOLVE_EMPTIES` empties, with one when the nodes the time left
    allows at the search's speed are :data:`SOLVE_MARGIN` times the solve's median
    (:func:`solve_nodes`; at most :data:`SOLVE_MOST` empties). A solve a limit cuts short
    leaves the midgame answer. A timed search starts an iteration only if its first move
    can be searched in the time left, and plays a move the cut-short iteration proved
    better than that first one.

    :meth:`search_window` (the probes of :func:`~zerosum.search.solve.solve`) searches
    to the end in the kernel, or to ``depth`` with the evaluation, never selectively.
    Scores every root move (``multipv``) with the pure engine. ``weights`` are the
    evaluation's (:func:`shipped_weights` by default, :data:`HAND` for the pure path's
    evaluation); ``table_bits`` sizes the kernel's table, made on first use (48 MB by
    default)."""

    __slots__ = ("_interrupted", "_table_bits", "_weights", "selective")

    def __init__(
        self,
        game: Othello,
        options: EngineOptions | None = None,
        *,
        table_bits: int = 21,
        weights: _Shorts | None = None,
        selective: bool = True,
    ) -> None:
        super().__init__(game, options)
        self._table_bits = table_bits
        self._weights = shipped_weights() if weights is None else weights
        self.selective = selective
        """Whether the midgame iterations of :meth:`search` and :meth:`iterate` cut by
        probability (:data:`PROBCUT_CONFIDENCE`); :meth:`search_window` never does."""
        # the depth, score and move of a midgame iteration a limit cut short after its
        # first move, when it found a better one
        self._interrupted: tuple[int, int, int] | None = None

    def make_kernel(self) -> OthelloKernel:
        """Return the compiled search with its table and the engine's weights."""
        return OthelloKernel(self._table_bits, self._weights)

    # ------------------------------------------------------------------ deepening

    def iterate(
        self, state: Any, limits: Limits | None = None, multipv: bool = False
    ) -> Generator[Report, None, EngineStats]:
        """Deepen from ``state`` in the kernel, yielding a
        :class:`~zerosum.search.engine.Report` per completed depth (see
        :meth:`Engine.iterate <zerosum.search.engine.Engine.iterate>`); with ``multipv``
        the pure engine scores every root move."""
        if multipv:
            return super().iterate(state, limits, multipv)
        return self._deepen_kernel(state, limits if limits is not None else Limits())

    def search(
        self, state: Any, limits: Limits | None = None, multipv: bool = False
    ) -> EngineResult:
        """Deepen under ``limits`` in the kernel and return the last completed iteration
        (see :meth:`Engine.search <zerosum.search.engine.Engine.search>`); without any
        limit the position is solved."""
        if multipv:
            return super().search(state, limits, multipv)
        iterations = self._deepen_kernel(state, limits if limits is not None else Limits())
        last: Report | None = None
        while True:
            try:
                last = next(iterations)
            except StopIteration as finished:
                stats: EngineStats = finished.value
                break
        if last is not None and self._interrupted is not None:
            # the iteration the limit cut short had searched the best move so far and
            # found a better one: it knows more than the last completed iteration
            _, score, move = self._interrupted
            if move != last.best_move:
                return EngineResult(move, score, self._line(state, move), None, stats)
        if last is not None:
            return EngineResult(last.best_move, last.score, last.pv, None, stats)
        if self.game.is_terminal(state):
            return EngineResult(None, self.game.utility(state, state[2]), (), None, stats)
        return EngineResult(self.root_moves(state)[0], None, (), None, stats)

    def _deepen_kernel(self, state: State, limits: Limits) -> Generator[Report, None, EngineStats]:
        """The deepening loop of :meth:`iterate` and :meth:`search`."""
        game = self.game
        if game.is_terminal(state):
            return EngineStats(0, 0, 0, 0, 0, 0, 0.0, 0, True, False)
        # the time limit covers the whole call, making the kernel (loading its code, the
        # first time) included: a match counts it against the move
        start = time.perf_counter()
        kernel = self.kernel
        kernel.new_search()
        watch = _Watch(kernel, limits, began=start)
        mover, opponent = state[0], state[1]
        empties = 64 - (mover | opponent).bit_count()
        unlimited = limits == Limits()
        last_depth = limits.depth if limits.depth is not None else DEPTH_END
        # one move to play: no need to think about it when the time counts
        forced = len(game.actions(state)) == 1 and (limits.time is not None or limits.soft_time)
        depth = empties if unlimited else 1
        previous: int | None = None
        completed = 0
        solved = stopped = False
        took = 0.0
        self._interrupted = None
        while True:
            exact = depth >= empties
            began = time.perf_counter()
            try:
                if exact:
                    score, move = self._solve(mover, opponent, previous, watch)
                else:
                    score, move = self._midgame(mover, opponent, depth, previous, watch)
            except SearchStopped:
                stopped = True
                if not exact and depth > 1:
                    found = kernel.partial()
                    if found is not None:
                        self._interrupted = (depth, *found)
                break
            now = time.perf_counter()
            took = now - began
            previous, completed, solved = score, min(depth, empties), exact
            if move is None:
                move = self.root_moves(state)[0]
            pv = self._line(state, move)
            nodes = watch.nodes
            elapsed = now - start
            yield Report(
                depth=completed,
                score=score,
                pv=pv,
                best_move=move,
                nodes=nodes,
                nps=int(nodes / elapsed) if elapsed > 0 else 0,
                elapsed=elapsed,
                hashfull=0,
                seldepth=max(completed, len(pv)),
                solved=solved,
            )
            if solved or depth >= last_depth or forced:
                break
            if limits.soft_time is not None and elapsed >= limits.soft_time:
                break
            if limits.time is not None and took > _FIRST_MOVE_SHARE * (limits.time - elapsed):
                break  # the next iteration would not get past its first move
            depth += 1
            if depth > SOLVE_AFTER and last_depth >= empties and depth < empties:
                if limits.time is None:
                    solving = empties <= SOLVE_EMPTIES
                else:
                    # the nodes the time left allows at this search's speed so far
                    reach = nodes / max(elapsed, 1e-6) * (limits.time - elapsed)
                    solving = empties <= SOLVE_MOST and reach >= SOLVE_MARGIN * solve_nodes(empties)
                if solving:
                    depth = empties
        return EngineStats(
            nodes=watch.nodes,
            cutoffs=0,
            table_hits=0,
            table_probes=0,
            depth=completed,
            seldepth=completed,
            time=time.perf_counter() - start,
            hashfull=0,
            solved=solved,
            stopped=stopped,
        )

    def _midgame(
        self, mover: int, opponent: int, depth: int, previous: int | None, watch: _Watch
    ) -> tuple[int, int | None]:
        """One midgame iteration: the score and best move at ``depth``, inside an
        aspiration window around ``previous`` widened as it fails."""
        kernel = self.kernel
        delta = _ASPIRATION
        if previous is None:
            alpha, beta = -64, 64
        else:
            alpha, beta = max(-64, previous - delta), min(64, previous + delta)
        while True:
            kernel.start(mover, opponent, alpha, beta, depth, selective=self.selective)
            score = watch.run()
            if score <= alpha and alpha > -64:
                alpha = max(-64, score - delta)
            elif score >= beta and beta < 64:
                beta = min(64, score + delta)
            else:
                return score, kernel.best_move
            delta *= 2

    def _solve(
        self, mover: int, opponent: int, guess: int | None, watch: _Watch
    ) -> tuple[int, int | None]:
        """The exact score and a best move, by windows of width two around even
        scores (every final score is even) stepping from ``guess`` to the bound each
        proved (MTD(f)); the table carries what one probe learnt to the next."""
        kernel = self.kernel
        low, high = -64, 64
        probe = 0 if guess is None else max(-64, min(64, guess + (guess & 1)))
        best: int | None = None
        while True:
            kernel.start(mover, opponent, probe - 1, probe + 1)
            score = watch.run()
            if score == probe:
                return score, kernel.best_move
            if score > probe:
                low, best = score, kernel.best_move
            else:
                high = score
            if low >= high:
                return low, best if best is not None else kernel.best_move
            probe = score

    def _line(self, state: State, move: int) -> tuple[Any, ...]:
        """The principal variation from ``state`` starting with ``move``: the table's
        moves after it while they are legal."""
        game = self.game
        kernel = self.kernel
        line = [move]
        position = game.result(state, move)
        seen = {(state[0], state[1])}
        while not game.is_terminal(position) and len(line) < 64:
            key = (position[0], position[1])
            if key in seen:
                break
            seen.add(key)
            legal = game.actions(position)
            if legal == [PASS]:
                step: int | None = PASS
            else:
                entry = kernel.entry(position[0], position[1])
                step = entry[2] if entry is not None else None
            if step is None or step not in legal:
                break
            line.append(step)
            position = game.result(position, step)
        return tuple(line)

    # ------------------------------------------------------------------ solving

    def search_window(
        self,
        state: Any,
        alpha: int,
        beta: int,
        *,
        depth: int | None = None,
        ply: int = 0,
        limits: Limits | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> WindowResult:
        """Search ``state`` once with the window ``(alpha, beta)``, fail-soft, in the
        kernel: to the end of every line (``depth`` ``None``), or ``depth`` plies with
        the evaluation; see :meth:`Engine.search_window
        <zerosum.search.engine.Engine.search_window>`. Scores are final disc
        differences, which do not depend on ``ply``.

        Limits are looked at, and ``progress`` told, every :data:`CHUNK_NODES` nodes. A
        window wider than one gets its principal variation: searched to the end, from
        null-window tests of the moves along it, the table's move first; else the
        table's moves."""
        if alpha >= beta:
            raise ValueError(f"empty window ({alpha}, {beta}): alpha must be below beta")
        if limits is not None and limits.depth is not None:
            raise ValueError(
                f"search_window takes its depth as depth=, not as a limit ({limits.depth})"
            )
        kernel = self.kernel
        watch = _Watch(kernel, limits, progress)
        mover, opponent = state[0], state[1]
        empties = 64 - (mover | opponent).bit_count()
        exact = depth is None or depth >= empties
        kernel.start(mover, opponent, alpha, beta, EXACT if exact else cast("int", depth))
        score = watch.run()
        move = kernel.best_move
        pv: tuple[Any, ...] = ()
        if beta - alpha > 1 and alpha < score < beta and move is not None:
            pv = self._exact_line(state, score, watch) if exact else self._line(state, move)
        return WindowResult(score, pv, watch.nodes)

    def _exact_line(self, state: State, score: int, watch: _Watch) -> tuple[Any, ...]:
        """One line keeping the exact ``score`` from ``state``: at each step the first
        move whose position is proven worth no more than ``-score`` to the opponent."""
        game = self.game
        kernel = self.kernel
        line: list[int] = []
        position, value = state, score
        while not game.is_terminal(position):
            for move in self.root_moves(position, every=True):
                child = game.result(position, move)
                kernel.start(child[0], child[1], -value, -value + 1)
                if watch.run() <= -value:
                    line.append(move)
                    position, value = child, -value
                    break
            else:
                break  # unreachable for an exact score: some move keeps it
        return tuple(line)

    def root_moves(self, state: Any, *, every: bool = False) -> list[Any]:
        """Return the moves the search tries at ``state``, the kernel table's move first
        (see :meth:`Engine.root_moves <zerosum.search.engine.Engine.root_moves>`)."""
        moves = super().root_moves(state, every=every)
        kernel = self._kernel  # a search that never reached the kernel has nothing to add
        entry = kernel.entry(state[0], state[1]) if kernel is not None and len(moves) > 1 else None
        if entry is not None and entry[2] in moves:
            moves.remove(entry[2])
            moves.insert(0, entry[2])
        return moves

    def proven_move(self, state: Any, score: int) -> Any:
        """Return a move the kernel's table proves worth at least ``score`` at ``state``
        searched to the end, or ``None`` (see :meth:`Engine.proven_move
        <zerosum.search.engine.Engine.proven_move>`)."""
        kernel = self._kernel
        if kernel is None or self.game.is_terminal(state):
            return None
        entry = kernel.entry(state[0], state[1])
        empties = 64 - (state[0] | state[1]).bit_count()
        if entry is None or entry[3] < empties or entry[0] < score:
            return None
        move = entry[2]
        return move if move is not None and move in self.game.actions(state) else None
