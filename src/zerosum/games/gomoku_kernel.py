"""Gomoku's search compiled with numba: a board of incremental pattern codes, a threat-aware
alpha-beta with a victory-by-continuous-fours search at its horizon, and a VCF prover.

:mod:`zerosum.kernels` imports this module when the kernel is first used (never
:mod:`zerosum.games.gomoku` itself, which stays free of numba and numpy). The design is the
one strong gomoku engines share (Rapfi's is the model, read and not copied; the threat
categories are the usual ones of the threat-space literature):

* **Patterns per cell and line.** The board is padded with walls, so that every cell has
  ``half`` neighbours each way on its four lines (4 under the free-style rule, 5 under
  exact five, whose overlines must be seen). Each cell keeps, per direction, a *line key*:
  two bits per neighbour (empty, black, white, wall). A precomputed table maps a key to
  the *line pattern* a stone of each colour would make there (dead, one, two, three,
  four, open four, five, and the blocked and split forms between; an overline under exact
  five), classified by what each empty cell of the line would become with one more
  stone. Four line patterns make a *cell pattern* (a five, an open four or double four,
  a four with a three, a four, a double three, a three, ...) looked up in a second
  table, which also gives the cell's move-ordering score and its share of the
  evaluation. Placing or lifting a stone XORs its two bits into the keys of the 32 (or
  40) cells around it and looks up only the patterns that changed; the counts of each
  cell pattern per colour and the evaluation (the sum of every empty cell's share) are
  kept as running totals. Making and unmaking a move are the same operation.
* **Search.** Negamax alpha-beta with principal-variation search, iterative deepening
  driven from Python (:class:`GomokuKernel` runs a search for a number of nodes and can
  be resumed, so the caller keeps time and stop signals), a transposition table in a
  numpy array (two words a slot, two slots a bucket), static win detection from the
  pattern counts (a five to make, two fives of the opponent to block, an open four, a
  four-three or a double three the opponent cannot answer with a four), candidate
  pruning by threats (the block of a five; facing an open three or a double four only
  the cells that stop it and the mover's own fours; facing a four-three the cells that
  stop it), late-move reductions (in fractions of a ply, adjusted as Rapfi's are by the
  move's history, an attack in progress and a defence far from the threat), move-count
  and futility pruning, razoring, history and killer moves. At the horizon a quiescence
  search plays the side to move's fours (each answered by its one block) and stands pat
  on the evaluation otherwise, so that a victory by continuous fours is found inside the
  main search and kept in its table.
* **VCF prover.** :meth:`GomokuKernel.vcf` proves a victory by continuous fours for the
  side to move, deepening one four at a time so that the line found has the fewest
  fours; positions proven to have none within a number of fours are kept in a table of
  their own from one call to the next.
* **VCT prover.** :meth:`GomokuKernel.vct` proves a victory by continuous threats (threes
  and fours; every answer of the defender to a three searched), deepening one threat at
  a time, with a failure table of its own. The engine can run it at the root after the
  VCF prover (``root_vct``), at the main search's nodes near the root (``search_vct``)
  and on the move the search chose (``root_check``: when the opponent wins by threats
  after it, the root is searched again without it), its positions counted as nodes; all
  three are off by default (at equal node budgets they scored lower against Rapfi,
  bench/README.md).

**Nodes.** A node limit counts every position a search enters: each entry of the main
search, of the quiescence's attacker and defender, and each position the VCF and VCT
provers visit (the root's VCF prover included; at a limit of 20,000 it visits about 150
positions a move). Rapfi (its alpha-beta, ``search/ab/search.cpp``) counts one node per
call of ``search``, ``vcfsearch`` and ``vcfdefend``: a position where ``search`` hands
over to ``vcfsearch`` or ``vcfdefend`` (at the horizon, in razoring) counts twice there,
once here, so the same tree is 1.2 to 1.3 times as many of Rapfi's nodes as of ours.
``rapfi_count`` (off by default) counts as Rapfi does: a position handed from the main
search to the quiescence counts twice (a limit may then be passed by one), for a
comparison at equal node budgets that counts the same work on both sides.

Every search keeps its own stack of frames rather than calling itself: numba cannot load
a self-recursive function from its cache (numba issue 6061).

Values inside the kernel are in its own units: a win in ``n`` plies from the root is
``MATE - n``, heuristic values stay within ``EVAL_LIMIT``. :class:`KernelEngine` turns
them into the engine's (``WIN - n``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from zerosum.game import WIN, WIN_THRESHOLD, InvalidGameError
from zerosum.games.bitboards import bit_indices
from zerosum.kernels import CompiledEngine, jit
from zerosum.search.engine import (
    EngineOptions,
    EngineResult,
    EngineStats,
    Limits,
    Report,
)

if TYPE_CHECKING:
    from zerosum.games.gomoku import Gomoku, GomokuState

__all__ = [
    "CELL_PATTERNS",
    "CHUNK_NODES",
    "LINE_PATTERNS",
    "MATE",
    "GomokuKernel",
    "KernelEngine",
    "Weights",
]

_Array = npt.NDArray[np.int64]

# ---------------------------------------------------------------- line patterns

# a stone's line pattern, weakest first (the classes of a line through the cell, a stone
# of the colour assumed on it): blocked both ways; an overline (exact five only); one,
# two, three: blocked on one side (B) or free (F; F2A/F2B are twos with three and four
# ways to become an open three, F3S a three with two ways to become an open four);
# a four with one cell to make five (B4) or two (F4); five
DEAD, OVERLINE, B1, F1, B2, F2, F2A, F2B, B3, F3, F3S, B4, F4, F5 = range(14)
LINE_PATTERNS = (
    "dead",
    "overline",
    "blocked one",
    "one",
    "blocked two",
    "two",
    "two (3 ways)",
    "two (4 ways)",
    "blocked three",
    "three",
    "three (2 ways)",
    "four",
    "open four",
    "five",
)
"""The names of the line patterns, by code."""

# a cell's pattern for one colour, from its four line patterns, weakest first
(
    NONE,
    TWO,
    BLOCK3,
    TWO_TWO,
    BLOCK3_PLUS,
    THREE,
    THREE_PLUS,
    THREE_THREE,
    FOUR,
    FOUR_PLUS,
    FOUR_THREE,
    OPEN_FOUR,
    FIVE,
) = range(13)
CELL_PATTERNS = (
    "none",
    "two",
    "blocked three",
    "double two",
    "blocked three and more",
    "three",
    "three and more",
    "double three",
    "four",
    "four and more",
    "four-three",
    "open four or double four",
    "five",
)
"""The names of the cell patterns, by code."""

_P4 = 16
"""Room for the cell patterns of one colour in the count array."""

# the digits of a line in the classification: the colour's stone, a blocked cell (the
# other colour or the edge), an empty cell
_SELF, _OPPO, _EMPTY = 0, 1, 2

MATE = 30_000
"""A win in ``n`` plies from the root of a kernel search scores ``MATE - n``."""
_MATE_BOUND = MATE - 1_000
"""Values at or beyond this are proven wins or losses."""
EVAL_LIMIT = 20_000
"""Heuristic values stay strictly inside this."""
_INF = MATE + 1

# ---------------------------------------------------------------- the weights


class Weights:
    """The numbers of the evaluation and the move order, per line pattern and per cell
    pattern, and the search's margins: a set of them makes a kernel (to compare two in a
    match, make two).

    ``order_line[p]`` is a line pattern's worth for move ordering and ``order_cell[c]``
    a cell pattern's: a cell's worth to a colour is the sum of its four line patterns'
    and its cell pattern's, and the mover ranks a cell by twice its own worth plus the
    opponent's (what the cell takes from the opponent). The evaluation sums over the
    empty cells, for each colour, ``mover_line`` of its four line patterns plus
    ``mover_cell`` of its cell pattern when the colour is to move, ``other_line`` and
    ``other_cell`` when it is not: the mover's total less the other side's (an open
    three of the side to move is nearly a win; the other side's must just be answered).
    Values are in the evaluation's units (fractions kept to a sixteenth)."""

    __slots__ = (
        "mover_cell",
        "mover_line",
        "order_cell",
        "order_line",
        "other_cell",
        "other_line",
        "search",
    )

    def __init__(self) -> None:
        self.order_line = [0, 0, 1, 2, 3, 6, 7, 8, 9, 16, 18, 24, 60, 400]
        self.order_cell = [0, 0, 0, 4, 4, 6, 10, 30, 6, 20, 60, 120, 400]
        self.mover_line = [0.0, 0, 1, 2, 2, 5, 6, 7, 8, 14, 16, 20, 40, 80]
        self.mover_cell = [0.0, 0, 0, 6, 6, 10, 20, 60, 10, 40, 100, 150, 200]
        self.other_line = list(self.mover_line)
        self.other_cell = list(self.mover_cell)
        self.search = _default_search()

    def copy(self) -> Weights:
        """Return an independent copy."""
        other = Weights()
        for name in ("order_line", "order_cell", "mover_line", "mover_cell"):
            setattr(other, name, list(getattr(self, name)))
        other.other_line = list(self.other_line)
        other.other_cell = list(self.other_cell)
        other.search = dict(self.search)
        return other


def _default_search() -> dict[str, int]:
    """The search's margins and switches (see :data:`_SEARCH_KEYS`)."""
    return {
        "razor_depth": 2,
        "razor_margin": 40,
        "futility_depth": 4,
        # 40 a ply (60 before): head to head 53.5%, Elo +24 [+1, +48], SPRT(0, 15) accepted
        # after 414 pairs; against Rapfi at 20,000 nodes each 47.2% over 900 games where
        # 60 scored 46.2% (bench/README.md, ninth round)
        "futility_margin": 40,
        "lmr": 1,
        "lmr_scale": 100,
        "move_count_depth": 63,  # every depth the count table holds
        "qvcf_plain_fours": 1,
        "qvcf_limit": 24,
        "forced_extension": 1,
        "killers": 1,
        "history": 1,
        "history_weight": 16,  # the history in the move order, in 256ths of a point per unit
        "tempo": 10,
        "average_eval": 1,
        "quiescence": 1,
        "static_wins": 1,
        "threat_moves": 1,
        "move_count_base": 3,
        "move_count_scale": 100,
        # Rapfi's counts, 3 + d ** 1.32 at every depth, threats too, with the history
        # weighed 16 times what a tie-break had: 49.6% against Rapfi at 20,000 nodes each
        # on 562 games where 3 + d ** 2 to depth 6 for quiet moves and the tie-break scored
        # 40.7%, and neither change alone helped (bench/README.md, seventh round)
        "move_count_power": 132,
        "trivial_depth": 0,
        # the three below together: 46.0% against Rapfi at 20,000 nodes each on 162
        # games (bench/README.md), 29.3% without them, 35.2% with the extension alone
        "lmr_important": 1,  # reduce threats and answers too (one ply less)
        "lmr_lists": 1,  # reduce among the answers to a three, not only in full lists
        "defence_extension": 4,  # up to this many answers to a three cost no depth
        "partial_root": 1,  # a stopped iteration's better first move is played
        "root_vct": 0,  # percent of a node limit the root's VCT prover may spend (0: off)
        "search_vct": 0,  # positions a VCT may visit at a node of the main search (0: off)
        "search_vct_ply": 2,  # ... at nodes at most this many plies from the root
        "search_vct_threats": 4,  # ... for a win within this many threats
        "root_check": 0,  # percent of a node limit kept to test the chosen move (0: off)
        # 1: move-count pruning drops every move past the count, threats and the answers
        # to a three too (Rapfi's rule); 0: only quiet moves of full lists
        "move_count_all": 1,
        # 1: razoring and futility judge a position by its table value where the table
        # bounds the true value beyond the static one (Rapfi's "TT value as a better
        # eval"): 49.6% against Rapfi at 20,000 nodes each over 1,162 games where the
        # static value alone scored 47.8% (bench/README.md, eighth round)
        "tt_eval": 1,
        "rapfi_count": 0,  # count nodes as Rapfi does (1): see the module's docstring
        # Rapfi's adjustments of a late move's reduction, in 256ths of a ply (0: off),
        # its numbers in this kernel's units; the three together, head to head at 20,000
        # nodes each: 52.4% over 1,930 games, Elo +17 [+5, +28] (SPRT(0, 15) accepted on
        # the second run's 365 pairs; bench/README.md, eleventh round).
        # Less for a good history and more for a bad one, ``(history - offset) / divisor``
        # plies (the divisor a third larger past depth 5, where the history says less)
        "lmr_history": 18800,  # the divisor, in history units
        "lmr_history_offset": 5090,  # the history of a move reduced as the table says
        # less for a threat that follows the mover's own threat two plies up (a double
        # two near it counts): an attack in progress
        "lmr_attack": 136,
        # more for a move against an open three that stops nothing (no four blocked)
        # far from the threat (more than 4 cells from the opponent's last stone; half
        # as much again when far from the mover's own last stone)
        "lmr_useless_defence": 494,
    }


_SEARCH_KEYS = tuple(_default_search())
"""The search parameters in the order of the kernel's parameter array (``_P_...``)."""


# ---------------------------------------------------------------- the pattern tables


@jit
def _classify_lines(half: int, exact: bool) -> npt.NDArray[np.uint8]:
    """The line pattern of every line of ``2 * half + 1`` cells whose middle cell holds
    the colour's stone, indexed by the line in base 3 (digit ``i`` the cell ``i - half``
    from the middle: :data:`_SELF`, :data:`_OPPO` or :data:`_EMPTY`); 255 elsewhere.

    A line with a run of five or more through the middle is a five (six or more an
    overline under exact five); one whose free span through the middle is shorter than
    five cells is dead; otherwise its class comes from the classes of the lines made by
    one more stone on each empty cell of the free span (looked at from that cell, the
    cells beyond the window blocked): two fives an open four, one a four, an open four
    to make a three, and so down to a blocked one. Computed depth first with an explicit
    stack, each line once."""
    n = 2 * half + 1
    size = 3**n
    memo = np.full(size, 255, np.uint8)
    powers = np.empty(n, np.int64)
    p = 1
    for i in range(n):
        powers[i] = p
        p *= 3
    stack = np.empty(1 << 16, np.int64)
    digits = np.empty(n, np.int64)
    counts = np.zeros(16, np.int64)
    for root in range(size):
        if (root // powers[half]) % 3 != _SELF or memo[root] != 255:
            continue
        top = 1
        stack[0] = root
        while top:
            code = stack[top - 1]
            if memo[code] != 255:
                top -= 1
                continue
            rest = code
            for i in range(n):
                digits[i] = rest % 3
                rest //= 3
            real = 1
            full = 1
            start = half
            end = half
            running = True
            for i in range(half - 1, -1, -1):
                d = digits[i]
                if d == _OPPO:
                    break
                if d == _SELF:
                    if running:
                        real += 1
                else:
                    running = False
                full += 1
                start = i
            running = True
            for i in range(half + 1, n):
                d = digits[i]
                if d == _OPPO:
                    break
                if d == _SELF:
                    if running:
                        real += 1
                else:
                    running = False
                full += 1
                end = i
            if exact and real >= 6:
                memo[code] = OVERLINE
                top -= 1
                continue
            if real >= 5:
                memo[code] = F5
                top -= 1
                continue
            if full < 5:
                memo[code] = DEAD
                top -= 1
                continue
            pending = False
            counts[:] = 0
            for i in range(start, end + 1):
                if digits[i] != _EMPTY:
                    continue
                child = 0
                for j in range(n):
                    k = j + i - half
                    d = digits[k] if 0 <= k < n else _OPPO
                    if j == half:
                        d = _SELF
                    child += d * powers[j]
                found = memo[child]
                if found == 255:
                    stack[top] = child
                    top += 1
                    pending = True
                else:
                    counts[found] += 1
            if pending:
                continue
            threes = counts[F3] + counts[F3S]
            twos = counts[F2] + counts[F2A] + counts[F2B]
            if counts[F5] >= 2:
                found = F4
            elif counts[F5]:
                found = B4
            elif counts[F4] >= 2:
                found = F3S
            elif counts[F4]:
                found = F3
            elif counts[B4]:
                found = B3
            elif threes >= 4:
                found = F2B
            elif threes >= 3:
                found = F2A
            elif threes:
                found = F2
            elif counts[B3]:
                found = B2
            elif twos:
                found = F1
            elif counts[B2]:
                found = B1
            else:
                found = DEAD
            memo[code] = found
            top -= 1
    return memo


@jit
def _key_patterns(half: int, memo: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The line patterns of both colours for every line key: black's in the low four
    bits, white's in the high four. A key holds two bits per neighbour, the ``half``
    cells before the cell (nearest last) and then the ``half`` after it (nearest
    first): 0 empty, 1 black, 2 white, 3 off the board."""
    slots = 2 * half
    n = slots + 1
    powers = np.empty(n, np.int64)
    p = 1
    for i in range(n):
        powers[i] = p
        p *= 3
    table = np.empty(1 << (2 * slots), np.uint8)
    for key in range(1 << (2 * slots)):
        black = _SELF * powers[half]
        white = _SELF * powers[half]
        for s in range(slots):
            index = s if s < half else s + 1
            v = (key >> (2 * s)) & 3
            if v == 0:
                black += _EMPTY * powers[index]
                white += _EMPTY * powers[index]
            elif v == 1:
                black += _SELF * powers[index]
                white += _OPPO * powers[index]
            elif v == 2:
                black += _OPPO * powers[index]
                white += _SELF * powers[index]
            else:
                black += _OPPO * powers[index]
                white += _OPPO * powers[index]
        table[key] = memo[black] | (memo[white] << 4)
    return table


@jit
def _cell_pattern(a: int, b: int, c: int, d: int) -> int:
    """A cell's pattern for one colour from its four line patterns."""
    n = np.zeros(16, np.int64)
    n[a] += 1
    n[b] += 1
    n[c] += 1
    n[d] += 1
    threes = n[F3] + n[F3S]
    twos = n[F2] + n[F2A] + n[F2B]
    if n[F5]:
        return FIVE
    if n[F4] or n[B4] >= 2:
        return OPEN_FOUR
    if n[B4]:
        if threes:
            return FOUR_THREE
        if n[B3] or twos:
            return FOUR_PLUS
        return FOUR
    if threes:
        if threes >= 2:
            return THREE_THREE
        if n[B3] or twos:
            return THREE_PLUS
        return THREE
    if n[B3] >= 2 or (n[B3] and twos):
        return BLOCK3_PLUS
    if twos >= 2:
        return TWO_TWO
    if n[B3]:
        return BLOCK3
    if twos:
        return TWO
    return NONE


_FIXED = 16
"""The evaluation's totals are kept in sixteenths of its units."""


@jit
def _cell_tables(  # noqa: PLR0917 - numba takes its arguments by position
    order_line: _Array,
    order_cell: _Array,
    mover_line: _Array,
    mover_cell: _Array,
    other_line: _Array,
    other_cell: _Array,
) -> _Array:
    """For every combination of four line patterns (four bits each, direction 0 lowest),
    in one word so that a cell's update reads one entry per colour: the cell pattern
    (bits 0-3), the cell's ordering worth to its colour (bits 4-19), its share of the
    evaluation for that colour as the mover (bits 20-41, signed) and as the other side
    (bits 42-63, signed), both in sixteenths (the weights given so)."""
    size = 1 << 16
    packed = np.zeros(size, np.int64)
    for code in range(size):
        a, b, c, d = code & 15, (code >> 4) & 15, (code >> 8) & 15, code >> 12
        if a > F5 or b > F5 or c > F5 or d > F5:
            continue
        cell = _cell_pattern(a, b, c, d)
        order = order_line[a] + order_line[b] + order_line[c] + order_line[d]
        order += order_cell[cell]
        mover = mover_line[a] + mover_line[b] + mover_line[c] + mover_line[d]
        mover += mover_cell[cell]
        other = other_line[a] + other_line[b] + other_line[c] + other_line[d]
        other += other_cell[cell]
        packed[code] = cell | (order << 4) | ((mover & 0x3FFFFF) << 20) | (other << 42)
    return packed


@jit
def _mover_share(word: int) -> int:
    """A cell table word's share of the evaluation for its colour to move."""
    return (((word >> 20) & 0x3FFFFF) ^ 0x200000) - 0x200000


@jit
def _other_share(word: int) -> int:
    """A cell table word's share of the evaluation for its colour not to move."""
    return word >> 42


# ---------------------------------------------------------------- the board

# the geometry array: sizes, the four direction steps in the padded board, the table of
# cell patterns' offsets, the candidate neighbourhood
_G_WIDTH, _G_HEIGHT, _G_HALF, _G_PADDED, _G_SIZE, _G_CELLS, _G_EXACT = range(7)
_G_DIRECTION = 8  # four steps
_G_NEAR_COUNT = 12
_G_NEAR = 16  # the offsets of the candidate neighbourhood
_G_LENGTH = _G_NEAR + 64

# the position's arrays, in its tuple: the cells (0 empty, 1 black, 2 white, 3 off the
# board), the line keys and line patterns (four per cell), the cell patterns and move
# scores (two per cell), the cell table words (two per cell), the stones near each
# cell, the counts of cell patterns (per colour), the registers, the record of moves
_BOARD, _KEYS, _PATS, _CELL4, _SCORE, _WORDS, _NEAR, _COUNTS, _REGS, _PLAYED = range(10)
# the tables, in theirs: line key to line patterns, four line patterns to a cell word,
# the Zobrist keys
_KEY_PATTERNS, _CELL_TABLE, _ZOBRIST = range(3)

# the position's registers
(
    _R_SIDE,
    _R_KEY,
    _R_STONES,
    _R_PLY,
    _R_X0,
    _R_Y0,
    _R_X1,
    _R_Y1,
) = range(8)
_R_LAST_FIVE = 8  # two: the latest cell seen to become a five cell, per colour
_R_MOVER = 10  # two: per colour, its cells' shares as the mover (sixteenths)
_R_OTHER = 12  # two: the same as the other side
_R_LENGTH = 16

# a played move's record (one row per ply): the cell, the box before it, whether it made
# five, the evaluation before it for black to move and for white (sixteenths)
_M_CELL, _M_X0, _M_Y0, _M_X1, _M_Y1, _M_FIVE, _M_VALUE = range(7)
_M_FIELDS = 8

_SIDE_KEY = 0x5BD1E995_5BD1E995
"""XORed into the key when white is to move."""

_MAX_PLY = 160
"""The most moves one kernel position holds beyond its root (frames of the stack)."""


@jit
def _refresh(  # noqa: PLR0917 - numba takes its arguments by position
    q: int,
    cell_table: _Array,
    pats: npt.NDArray[np.uint8],
    cell4: npt.NDArray[np.uint8],
    score: _Array,
    words: _Array,
    counts: _Array,
    regs: _Array,
) -> None:
    """Recompute the cell patterns, scores and evaluation shares of the empty cell ``q``
    from its four line patterns, keeping the counts and the evaluation totals."""
    base = 4 * q
    a, b, c, d = pats[base], pats[base + 1], pats[base + 2], pats[base + 3]
    black = cell_table[(a & 15) | ((b & 15) << 4) | ((c & 15) << 8) | ((d & 15) << 12)]
    white = cell_table[(a >> 4) | ((b >> 4) << 4) | ((c >> 4) << 8) | ((d >> 4) << 12)]
    old_black = words[2 * q]
    old_white = words[2 * q + 1]
    nb = black & 15
    nw = white & 15
    counts[old_black & 15] -= 1
    counts[_P4 + (old_white & 15)] -= 1
    counts[nb] += 1
    counts[_P4 + nw] += 1
    cell4[2 * q] = nb
    cell4[2 * q + 1] = nw
    if nb == FIVE:
        regs[_R_LAST_FIVE] = q
    if nw == FIVE:
        regs[_R_LAST_FIVE + 1] = q
    ob = (black >> 4) & 0xFFFF
    ow = (white >> 4) & 0xFFFF
    # the mover's worth of a cell: its own patterns twice, the opponent's once (what the
    # cell takes from the opponent), so that attack comes first among equals (three
    # times and once, or once each, scored lower against Rapfi: bench/README.md, sixth
    # round)
    score[2 * q] = 2 * ob + ow
    score[2 * q + 1] = 2 * ow + ob
    regs[_R_MOVER] += _mover_share(black) - _mover_share(old_black)
    regs[_R_OTHER] += _other_share(black) - _other_share(old_black)
    regs[_R_MOVER + 1] += _mover_share(white) - _mover_share(old_white)
    regs[_R_OTHER + 1] += _other_share(white) - _other_share(old_white)
    words[2 * q] = black
    words[2 * q + 1] = white


@jit
def _leave_totals(q: int, words: _Array, counts: _Array, regs: _Array, sign: int) -> None:
    """Take the cell ``q`` out of the counts and totals (``sign`` -1: a stone covers it)
    or put it back (1: the stone is lifted); its patterns stay stored meanwhile, valid
    again when the stone is lifted, every later stone being lifted first."""
    black = words[2 * q]
    white = words[2 * q + 1]
    counts[black & 15] += sign
    counts[_P4 + (white & 15)] += sign
    regs[_R_MOVER] += sign * _mover_share(black)
    regs[_R_OTHER] += sign * _other_share(black)
    regs[_R_MOVER + 1] += sign * _mover_share(white)
    regs[_R_OTHER + 1] += sign * _other_share(white)


@jit
def _toggle(  # noqa: PLR0917 - numba takes its arguments by position
    geo: _Array,
    key_patterns: npt.NDArray[np.uint8],
    cell_table: _Array,
    board: npt.NDArray[np.int8],
    keys: npt.NDArray[np.int32],
    pats: npt.NDArray[np.uint8],
    cell4: npt.NDArray[np.uint8],
    score: _Array,
    words: _Array,
    near: npt.NDArray[np.int16],
    counts: _Array,
    regs: _Array,
    pos: int,
    colour: int,
    place: bool,
) -> None:
    """Put a stone of ``colour`` on the empty cell ``pos`` (``place``), or lift it: the
    same XOR of its two key bits into the line keys of the cells around it, the patterns
    of the empty ones among them looked up again."""
    half = geo[_G_HALF]
    code = colour + 1
    if place:
        board[pos] = code
        _leave_totals(pos, words, counts, regs, -1)
        delta = 1
    else:
        board[pos] = 0
        _leave_totals(pos, words, counts, regs, 1)
        delta = -1
    for d in range(4):
        step = geo[_G_DIRECTION + d]
        for i in range(1, half + 1):
            # the cell i steps after pos sees it i steps before itself (slot half - i);
            # the cell i steps before sees it i steps after (slot half + i - 1)
            q = pos + i * step
            index = 4 * q + d
            keys[index] ^= code << (2 * (half - i))
            if board[q] == 0:
                found = key_patterns[keys[index]]
                if found != pats[index]:
                    pats[index] = found
                    _refresh(q, cell_table, pats, cell4, score, words, counts, regs)
            q = pos - i * step
            index = 4 * q + d
            keys[index] ^= code << (2 * (half + i - 1))
            if board[q] == 0:
                found = key_patterns[keys[index]]
                if found != pats[index]:
                    pats[index] = found
                    _refresh(q, cell_table, pats, cell4, score, words, counts, regs)
    for k in range(geo[_G_NEAR_COUNT]):
        near[pos + geo[_G_NEAR + k]] += delta


@jit
def _make(geo: _Array, tables: Any, position: Any, pos: int) -> None:
    """Play ``pos`` for the side to move: the stone, the key, the candidate box, the
    record of the ply."""
    key_patterns = tables[_KEY_PATTERNS]
    cell_table = tables[_CELL_TABLE]
    zobrist = tables[_ZOBRIST]
    board = position[_BOARD]
    keys = position[_KEYS]
    pats = position[_PATS]
    cell4 = position[_CELL4]
    score = position[_SCORE]
    words = position[_WORDS]
    near = position[_NEAR]
    counts = position[_COUNTS]
    regs = position[_REGS]
    played = position[_PLAYED]
    side = regs[_R_SIDE]
    ply = regs[_R_PLY]
    row = played[ply]
    row[_M_CELL] = pos
    row[_M_X0] = regs[_R_X0]
    row[_M_Y0] = regs[_R_Y0]
    row[_M_X1] = regs[_R_X1]
    row[_M_Y1] = regs[_R_Y1]
    row[_M_VALUE] = regs[_R_MOVER] - regs[_R_OTHER + 1]
    row[_M_VALUE + 1] = regs[_R_MOVER + 1] - regs[_R_OTHER]
    row[_M_FIVE] = 1 if cell4[2 * pos + side] == FIVE else 0
    _toggle(
        geo, key_patterns, cell_table, board, keys, pats, cell4, score, words, near, counts,
        regs, pos, side, True,
    )  # fmt: skip
    padded = geo[_G_PADDED]
    x = pos % padded
    y = pos // padded
    # the box of candidate cells: two cells around every stone, within the board
    half = geo[_G_HALF]
    regs[_R_X0] = max(min(regs[_R_X0], x - 2), half)
    regs[_R_Y0] = max(min(regs[_R_Y0], y - 2), half)
    regs[_R_X1] = min(max(regs[_R_X1], x + 2), half + geo[_G_WIDTH] - 1)
    regs[_R_Y1] = min(max(regs[_R_Y1], y + 2), half + geo[_G_HEIGHT] - 1)
    regs[_R_KEY] ^= zobrist[side * geo[_G_SIZE] + pos] ^ _SIDE_KEY
    regs[_R_SIDE] = 1 - side
    regs[_R_STONES] += 1
    regs[_R_PLY] = ply + 1


@jit
def _unmake(geo: _Array, tables: Any, position: Any) -> None:
    """Take back the latest move."""
    key_patterns = tables[_KEY_PATTERNS]
    cell_table = tables[_CELL_TABLE]
    zobrist = tables[_ZOBRIST]
    board = position[_BOARD]
    keys = position[_KEYS]
    pats = position[_PATS]
    cell4 = position[_CELL4]
    score = position[_SCORE]
    words = position[_WORDS]
    near = position[_NEAR]
    counts = position[_COUNTS]
    regs = position[_REGS]
    played = position[_PLAYED]
    ply = regs[_R_PLY] - 1
    row = played[ply]
    pos = row[_M_CELL]
    side = 1 - regs[_R_SIDE]
    _toggle(
        geo, key_patterns, cell_table, board, keys, pats, cell4, score, words, near, counts,
        regs, pos, side, False,
    )  # fmt: skip
    regs[_R_X0] = row[_M_X0]
    regs[_R_Y0] = row[_M_Y0]
    regs[_R_X1] = row[_M_X1]
    regs[_R_Y1] = row[_M_Y1]
    regs[_R_KEY] ^= zobrist[side * geo[_G_SIZE] + pos] ^ _SIDE_KEY
    regs[_R_SIDE] = side
    regs[_R_STONES] -= 1
    regs[_R_PLY] = ply


@jit
def _five_cell(geo: _Array, position: Any, colour: int) -> int:
    """An empty cell where ``colour`` makes five (the count says there is one): the
    latest seen to become one if it still is, else the first in the box."""
    board = position[_BOARD]
    cell4 = position[_CELL4]
    regs = position[_REGS]
    q = regs[_R_LAST_FIVE + colour]
    if q >= 0 and board[q] == 0 and cell4[2 * q + colour] == FIVE:
        return int(q)
    padded = geo[_G_PADDED]
    for y in range(regs[_R_Y0], regs[_R_Y1] + 1):
        for x in range(regs[_R_X0], regs[_R_X1] + 1):
            q = y * padded + x
            if board[q] == 0 and cell4[2 * q + colour] == FIVE:
                return int(q)
    return -1


@jit
def _clear(geo: _Array, tables: Any, position: Any) -> None:
    """Empty the board: walls around it, every line key, pattern and total recomputed."""
    key_patterns = tables[_KEY_PATTERNS]
    cell_table = tables[_CELL_TABLE]
    board = position[_BOARD]
    keys = position[_KEYS]
    pats = position[_PATS]
    cell4 = position[_CELL4]
    score = position[_SCORE]
    words = position[_WORDS]
    near = position[_NEAR]
    counts = position[_COUNTS]
    regs = position[_REGS]
    half = geo[_G_HALF]
    padded = geo[_G_PADDED]
    width = geo[_G_WIDTH]
    height = geo[_G_HEIGHT]
    size = geo[_G_SIZE]
    for q in range(size):
        x = q % padded
        y = q // padded
        inside = half <= x < half + width and half <= y < half + height
        board[q] = 0 if inside else 3
    near[:] = 0
    counts[:] = 0
    regs[:] = 0
    regs[_R_LAST_FIVE] = -1
    regs[_R_LAST_FIVE + 1] = -1
    for q in range(size):
        if board[q] == 3:
            for d in range(4):
                keys[4 * q + d] = 0
                pats[4 * q + d] = 0
            cell4[2 * q] = NONE
            cell4[2 * q + 1] = NONE
            score[2 * q] = 0
            score[2 * q + 1] = 0
            words[2 * q] = 0
            words[2 * q + 1] = 0
            continue
        for d in range(4):
            step = geo[_G_DIRECTION + d]
            k = 0
            for i in range(1, half + 1):
                if board[q - i * step] == 3:
                    k |= 3 << (2 * (half - i))
                if board[q + i * step] == 3:
                    k |= 3 << (2 * (half + i - 1))
            keys[4 * q + d] = k
            pats[4 * q + d] = key_patterns[k]
        # counted as a pattern-less cell worth nothing first, so that the refresh moves
        # the count to the right pattern and adds the cell's shares
        words[2 * q] = NONE
        words[2 * q + 1] = NONE
        counts[NONE] += 1
        counts[_P4 + NONE] += 1
        _refresh(q, cell_table, pats, cell4, score, words, counts, regs)
    # an empty box (x0 > x1), which the first stone replaces by its own
    regs[_R_X0] = size
    regs[_R_Y0] = size
    regs[_R_X1] = -1
    regs[_R_Y1] = -1


# ---------------------------------------------------------------- search helpers

# the search parameters' places in the parameter array, by name
_PLACE = {name: index for index, name in enumerate(_SEARCH_KEYS)}
_P_RAZOR_DEPTH = _PLACE["razor_depth"]
_P_RAZOR_MARGIN = _PLACE["razor_margin"]
_P_FUTILITY_DEPTH = _PLACE["futility_depth"]
_P_FUTILITY_MARGIN = _PLACE["futility_margin"]
_P_LMR = _PLACE["lmr"]
_P_LMR_SCALE = _PLACE["lmr_scale"]
_P_MOVE_COUNT_DEPTH = _PLACE["move_count_depth"]
_P_QVCF_PLAIN = _PLACE["qvcf_plain_fours"]
_P_QVCF_LIMIT = _PLACE["qvcf_limit"]
_P_FORCED_EXTENSION = _PLACE["forced_extension"]
_P_KILLERS = _PLACE["killers"]
_P_HISTORY = _PLACE["history"]
_P_TEMPO = _PLACE["tempo"]
_P_AVERAGE = _PLACE["average_eval"]
_P_QUIESCENCE = _PLACE["quiescence"]
_P_STATIC_WINS = _PLACE["static_wins"]
_P_THREAT_MOVES = _PLACE["threat_moves"]
_P_MOVE_COUNT_BASE = _PLACE["move_count_base"]
_P_MOVE_COUNT_SCALE = _PLACE["move_count_scale"]
_P_MOVE_COUNT_POWER = _PLACE["move_count_power"]
_P_TRIVIAL_DEPTH = _PLACE["trivial_depth"]
_P_LMR_IMPORTANT = _PLACE["lmr_important"]
_P_LMR_LISTS = _PLACE["lmr_lists"]
_P_DEFENCE_EXTENSION = _PLACE["defence_extension"]
_P_SEARCH_VCT = _PLACE["search_vct"]
_P_SEARCH_VCT_PLY = _PLACE["search_vct_ply"]
_P_SEARCH_VCT_THREATS = _PLACE["search_vct_threats"]
_P_RAPFI_COUNT = _PLACE["rapfi_count"]
_P_MOVE_COUNT_ALL = _PLACE["move_count_all"]
_P_HISTORY_WEIGHT = _PLACE["history_weight"]
_P_TT_EVAL = _PLACE["tt_eval"]
_P_LMR_HISTORY = _PLACE["lmr_history"]
_P_LMR_HISTORY_OFFSET = _PLACE["lmr_history_offset"]
_P_LMR_ATTACK = _PLACE["lmr_attack"]
_P_LMR_USELESS_DEFENCE = _PLACE["lmr_useless_defence"]
_P_MOVE_COUNTS = 48
"""Where the parameter array holds, per depth, how many moves an improving node may
search before move-count pruning (a node not improving: half as many): after the
search parameters."""
assert len(_SEARCH_KEYS) <= _P_MOVE_COUNTS
_P_LENGTH = _P_MOVE_COUNTS + 64

_MAX_MOVES = 640
"""Room for every cell of a 25x25 board in a move list."""

_HISTORY_MAX = 1 << 14
"""History scores stay within this either way (each update pulls them back towards 0)."""


@jit
def _evaluate(position: Any, params: _Array) -> int:
    """The static value for the side to move: its cells' shares as the mover less the
    opponent's as the other side (the mean of this ply's and the previous position's
    for the same side, which damps the swing of whoever moved last), plus a small
    bonus for having the move."""
    regs = position[_REGS]
    played = position[_PLAYED]
    side = regs[_R_SIDE]
    v = regs[_R_MOVER + side] - regs[_R_OTHER + 1 - side]
    ply = regs[_R_PLY]
    if params[_P_AVERAGE] and ply > 0:
        v = (v + played[ply - 1, _M_VALUE + side]) // 2
    v = v // _FIXED + params[_P_TEMPO]
    if v >= EVAL_LIMIT:
        return EVAL_LIMIT - 1
    if v <= -EVAL_LIMIT:
        return 1 - EVAL_LIMIT
    return int(v)


@jit
def _quick_win(counts: _Array, side: int, ply: int) -> int:
    """A win or loss the pattern counts prove for ``side`` to move at ``ply``, or 0.

    A five to make wins at once; two fives of the opponent to block lose; one to block
    proves nothing. An open four (or a double four) to make wins in three plies. A
    four-three or a double three to make wins in five when the opponent has no four to
    make: its four forces the block, which stops neither the three nor makes a four,
    and the open four follows (the three's line and the four's meet only at the stone)."""
    me = side * _P4
    them = (1 - side) * _P4
    if counts[me + FIVE]:
        return MATE - ply - 1
    fives = counts[them + FIVE]
    if fives >= 2:
        return ply + 2 - MATE
    if fives:
        return 0
    if counts[me + OPEN_FOUR]:
        return MATE - ply - 3
    if counts[me + FOUR_THREE] + counts[me + THREE_THREE]:
        fours = counts[them + FOUR] + counts[them + FOUR_PLUS]
        fours += counts[them + FOUR_THREE] + counts[them + OPEN_FOUR]
        if fours == 0:
            return MATE - ply - 5
    return 0


@jit
def _to_table(value: int, ply: int) -> int:
    """A value as the table stores it: wins counted from the entry's own position."""
    if value >= _MATE_BOUND:
        return value + ply
    if value <= -_MATE_BOUND:
        return value - ply
    return value


@jit
def _from_table(value: int, ply: int) -> int:
    """A stored value counted from a node ``ply`` plies from the root."""
    if value >= _MATE_BOUND:
        return value - ply
    if value <= -_MATE_BOUND:
        return value + ply
    return value


# the table's bounds
_UPPER, _LOWER, _EXACT = 1, 2, 3


@jit
def _probe(table: _Array, key: int) -> tuple[bool, int, int, int, int]:
    """Look ``key`` up: (found, stored value, bound, depth, move)."""
    mask = (table.size >> 1) - 1
    slot = (key & mask) & ~1
    for s in range(slot, slot + 2):
        if table[2 * s] == key:
            data = table[2 * s + 1]
            if data == 0:
                break
            value = ((data & 0xFFFF) ^ 0x8000) - 0x8000
            depth = ((data >> 32) & 0xFF) - 64
            bound = (data >> 40) & 3
            move = ((data >> 42) & 0x7FF) - 1
            return True, value, bound, depth, move
    return False, 0, 0, 0, -1


@jit
def _store(  # noqa: PLR0917 - numba takes its arguments by position
    table: _Array,
    key: int,
    generation: int,
    value: int,
    bound: int,
    depth: int,
    move: int,
) -> None:
    """Keep an entry in the key's bucket of two: in its own slot, else in the one worth
    less (an older search's, else the shallower)."""
    mask = (table.size >> 1) - 1
    slot = (key & mask) & ~1
    chosen = slot
    worst = 1 << 30
    for s in range(slot, slot + 2):
        old = table[2 * s]
        data = table[2 * s + 1]
        if old == key or data == 0:
            chosen = s
            if old == key and data != 0:
                # a shallower result for the same position keeps the deeper one's move
                old_depth = ((data >> 32) & 0xFF) - 64
                if move < 0:
                    move = ((data >> 42) & 0x7FF) - 1
                if bound != _EXACT and depth < old_depth - 2:
                    return
            break
        worth = ((data >> 32) & 0xFF) + (256 if (data >> 54) == generation else 0)
        if worth < worst:
            worst = worth
            chosen = s
    table[2 * chosen] = key
    table[2 * chosen + 1] = (
        (value & 0xFFFF)
        | (((depth + 64) & 0xFF) << 32)
        | (bound << 40)
        | ((move + 1) << 42)
        | (generation << 54)
    )


# the kinds of move lists a node may search
_ALL, _FORCED, _DEFENCE = 0, 1, 2


@jit
def _defences(  # noqa: PLR0917 - numba takes its arguments by position
    geo: _Array,
    tables: Any,
    position: Any,
    moves: _Array,
    n: int,
    marks: _Array,
    threat: int,
) -> int:
    """Add to ``moves[:n]`` (the mover's fours) the other cells where the side to move
    leaves the opponent no cell of pattern ``threat`` or better. A stone changes the
    patterns only of the cells within ``half`` of it on its four lines, so a defence lies
    on such a line of every threat cell (or is one): the cells aligned so with all of
    them are counted first, and only those are tried, one by one. Returns the new
    length."""
    board = position[_BOARD]
    cell4 = position[_CELL4]
    counts = position[_COUNTS]
    regs = position[_REGS]
    side = regs[_R_SIDE]
    oppo = 1 - side
    padded = geo[_G_PADDED]
    half = geo[_G_HALF]
    # marks[1 + cell] holds stamp * 1024 + the threat cells the cell is aligned with
    stamp = marks[0] + 1
    marks[0] = stamp
    base = stamp * 1024
    threats = 0
    first_threat = -1
    for y in range(regs[_R_Y0], regs[_R_Y1] + 1):
        for x in range(regs[_R_X0], regs[_R_X1] + 1):
            q = y * padded + x
            if board[q] != 0 or cell4[2 * q + oppo] < threat:
                continue
            threats += 1
            if first_threat < 0:
                first_threat = q
            at = 1 + q
            marks[at] = marks[at] + 1 if marks[at] >= base else base + 1
            for d in range(4):
                step = geo[_G_DIRECTION + d]
                for i in range(1, half + 1):
                    for c in (q + i * step, q - i * step):
                        if board[c] == 0:
                            at = 1 + c
                            marks[at] = marks[at] + 1 if marks[at] >= base else base + 1
    for k in range(n):  # the fours are listed already
        marks[1 + moves[k]] = 0
    first = n
    # every defence is aligned with the first threat cell: its lines hold them all
    if marks[1 + first_threat] == base + threats:
        moves[n] = first_threat
        n += 1
    for d in range(4):
        step = geo[_G_DIRECTION + d]
        for i in range(1, half + 1):
            for c in (first_threat + i * step, first_threat - i * step):
                if marks[1 + c] == base + threats:
                    marks[1 + c] = 0  # listed once, if two lines meet there
                    moves[n] = c
                    n += 1
    kept = first
    them = oppo * _P4
    for k in range(first, n):
        c = moves[k]
        _make(geo, tables, position, c)
        good = True
        for p in range(threat, FIVE + 1):
            if counts[them + p]:
                good = False
                break
        _unmake(geo, tables, position)
        if good:
            moves[kept] = c
            kept += 1
    return kept


@jit
def _generate(  # noqa: PLR0917 - numba takes its arguments by position
    geo: _Array,
    tables: Any,
    position: Any,
    moves: _Array,
    marks: _Array,
    root: bool,
    threats: bool,
) -> tuple[int, int]:
    """Fill ``moves`` with the moves a node searches: (how many, the kind of list).

    The block when the opponent has a five to make (every such cell at the root, where
    even a lost position must name a move); facing an open three or a double four (a
    cell where the opponent makes an open four or two fours), the mover's fours and the
    cells that leave the opponent no such cell (none: the position is lost); facing a
    four-three, the mover's fours and the cells that stop it (all moves when none
    does); else every empty cell within two of a stone. Without ``threats``, always the
    last."""
    board = position[_BOARD]
    cell4 = position[_CELL4]
    near = position[_NEAR]
    counts = position[_COUNTS]
    regs = position[_REGS]
    side = regs[_R_SIDE]
    oppo = 1 - side
    them = oppo * _P4
    padded = geo[_G_PADDED]
    n = 0
    if threats and counts[them + FIVE]:
        if not root:
            moves[0] = _five_cell(geo, position, oppo)
            return 1, _FORCED
        for y in range(regs[_R_Y0], regs[_R_Y1] + 1):
            for x in range(regs[_R_X0], regs[_R_X1] + 1):
                q = y * padded + x
                if board[q] == 0 and cell4[2 * q + oppo] == FIVE:
                    moves[n] = q
                    n += 1
        return n, _FORCED
    threat = 0
    if threats:
        if counts[them + OPEN_FOUR]:
            threat = OPEN_FOUR
        elif counts[them + FOUR_THREE]:
            threat = FOUR_THREE
    if threat:
        for y in range(regs[_R_Y0], regs[_R_Y1] + 1):
            for x in range(regs[_R_X0], regs[_R_X1] + 1):
                q = y * padded + x
                if board[q] == 0 and cell4[2 * q + side] >= FOUR:
                    moves[n] = q
                    n += 1
        fours = n
        n = _defences(geo, tables, position, moves, n, marks, threat)
        if threat == OPEN_FOUR or n > fours:
            return n, _DEFENCE
        n = 0
    for y in range(regs[_R_Y0], regs[_R_Y1] + 1):
        for x in range(regs[_R_X0], regs[_R_X1] + 1):
            q = y * padded + x
            if board[q] == 0 and near[q] > 0:
                moves[n] = q
                n += 1
    if n == 0:  # the empty board: its centre
        moves[0] = (geo[_G_HALF] + geo[_G_HEIGHT] // 2) * padded + geo[_G_HALF] + geo[_G_WIDTH] // 2
        n = 1
    return n, _ALL


@jit
def _fours_near(  # noqa: PLR0917 - numba takes its arguments by position
    geo: _Array,
    position: Any,
    moves: _Array,
    marks: _Array,
    centre: int,
    lowest: int,
) -> int:
    """The mover's cells of pattern ``lowest`` or better (fours) on the lines through
    ``centre`` (its latest stone) and in the square of two around it."""
    board = position[_BOARD]
    cell4 = position[_CELL4]
    regs = position[_REGS]
    side = regs[_R_SIDE]
    padded = geo[_G_PADDED]
    stamp = marks[0] + 1
    marks[0] = stamp
    n = 0
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            q = centre + dy * padded + dx
            if board[q] == 0 and cell4[2 * q + side] >= lowest and cell4[2 * q + side] < FIVE:
                marks[1 + q] = stamp
                moves[n] = q
                n += 1
    for d in range(4):
        step = geo[_G_DIRECTION + d]
        for i in range(3, 5):
            for q in (centre + i * step, centre - i * step):
                if board[q] == 0 and marks[1 + q] != stamp and lowest <= cell4[2 * q + side] < FIVE:
                    marks[1 + q] = stamp
                    moves[n] = q
                    n += 1
    return n


# ---------------------------------------------------------------- the search

# a frame's fields (one frame per ply of the current line)
(
    _F_KIND,
    _F_DEPTH,
    _F_ALPHA,
    _F_BETA,
    _F_ALPHA0,
    _F_PV,
    _F_BEST,
    _F_BEST_MOVE,
    _F_COUNT,
    _F_NEXT,
    _F_TRIED,
    _F_MOVE,
    _F_PHASE,
    _F_NEW_DEPTH,
    _F_EVAL,
    _F_KEY,
    _F_TT_MOVE,
    _F_QDEPTH,
    _F_LIST,
    _F_IMPROVING,
    _F_MOVE_P4,
) = range(21)
_FIELDS = 24

# node kinds: the main search, the quiescence's attacker (who plays fours), its defender
_MAIN, _ATTACK, _DEFEND = 0, 1, 2
# the searches of one child: reduced, at full depth with a null window, with the full window
_REDUCED, _NULL_WINDOW, _FULL = 0, 1, 2
# the loop's modes
_ENTER, _RETURN, _NEXT = 0, 1, 2

# the search's registers, which carry it from one call to the next
_S_SP, _S_MODE, _S_RET, _S_NODES, _S_SELDEPTH, _S_GENERATION, _S_ROOT_MOVE, _S_ROOT_SCORE = range(8)
_S_LENGTH = 8

_NO_LIMIT = 1 << 62


@jit
def _start(stack: _Array, sregs: _Array, depth: int, alpha: int, beta: int) -> None:
    """Set up a search of the position to ``depth`` with the window ``(alpha, beta)``."""
    stack[0, _F_KIND] = _MAIN
    stack[0, _F_DEPTH] = depth
    stack[0, _F_ALPHA] = alpha
    stack[0, _F_BETA] = beta
    stack[0, _F_PV] = 1
    stack[0, _F_QDEPTH] = 0
    sregs[_S_SP] = 0
    sregs[_S_MODE] = _ENTER
    sregs[_S_SELDEPTH] = 0
    sregs[_S_ROOT_MOVE] = -1
    sregs[_S_ROOT_SCORE] = -_INF


@jit
def _run(  # noqa: PLR0917 - numba takes its arguments by position
    geo: _Array,
    tables: Any,
    position: Any,
    params: _Array,
    lmr: _Array,
    stack: _Array,
    lists: _Array,
    keys_out: _Array,
    table: _Array,
    history: _Array,
    killers: _Array,
    marks: _Array,
    sregs: _Array,
    budget: int,
    vct_tables: tuple[_Array, _Array, _Array, _Array],
    excluded: _Array,
) -> bool:
    """Run the search set up by :func:`_start` for up to ``budget`` more nodes: ``True``
    once it is over (the root's value in ``sregs[_S_RET]``), ``False`` when the budget
    ran out first (the stack kept, so that the next call carries on)."""
    cell4 = position[_CELL4]
    score = position[_SCORE]
    counts = position[_COUNTS]
    regs = position[_REGS]
    played = position[_PLAYED]
    size = geo[_G_SIZE]
    cells = geo[_G_CELLS]
    sp = sregs[_S_SP]
    mode = sregs[_S_MODE]
    ret = sregs[_S_RET]
    nodes = sregs[_S_NODES]
    seldepth = sregs[_S_SELDEPTH]
    generation = sregs[_S_GENERATION]
    limit = nodes + budget
    done = False
    while True:
        if mode == _ENTER:
            if nodes >= limit:
                break
            nodes += 1
            seldepth = max(seldepth, sp)
            frame = stack[sp]
            kind = frame[_F_KIND]
            side = regs[_R_SIDE]
            oppo = 1 - side
            me = side * _P4
            them = oppo * _P4
            mode = _RETURN
            ply_index = regs[_R_PLY]
            if sp > 0 and played[ply_index - 1, _M_FIVE]:
                ret = sp - MATE  # the move that led here made five
                continue
            if regs[_R_STONES] == cells:
                ret = 0
                continue
            if sp >= _MAX_PLY - 6:
                ret = _evaluate(position, params)
                continue
            if kind == _MAIN and frame[_F_DEPTH] <= 0:
                if not params[_P_QUIESCENCE]:
                    ret = _evaluate(position, params)
                    continue
                # Rapfi's main search counts the horizon's position, then its VCF
                # search (or defence) counts it again (so a limit may be passed by one)
                nodes += params[_P_RAPFI_COUNT]
                kind = _DEFEND if counts[them + FIVE] else _ATTACK
                frame[_F_KIND] = kind
                frame[_F_QDEPTH] = 0
            alpha = frame[_F_ALPHA]
            beta = frame[_F_BETA]
            if kind == _DEFEND:
                # the quiescence's defender: the attacker's four is blocked, else done
                if counts[them + FIVE] == 0:
                    ret = _evaluate(position, params)
                    continue
                if counts[me + FIVE]:
                    ret = MATE - sp - 1
                    continue
                if counts[them + FIVE] >= 2:
                    ret = sp + 2 - MATE
                    continue
                move = _five_cell(geo, position, oppo)
                frame[_F_MOVE] = move
                frame[_F_MOVE_P4] = cell4[2 * move + side]
                _make(geo, tables, position, move)
                child = stack[sp + 1]
                child[_F_KIND] = _ATTACK
                child[_F_ALPHA] = -beta
                child[_F_BETA] = -alpha
                child[_F_PV] = frame[_F_PV]
                child[_F_QDEPTH] = frame[_F_QDEPTH]
                child[_F_DEPTH] = 0
                sp += 1
                mode = _ENTER
                continue
            if sp > 0:
                found = _quick_win(counts, side, sp) if params[_P_STATIC_WINS] else 0
                if found:
                    ret = found
                    continue
                # no win nearer than this node's next move, no loss sooner than two plies
                alpha = max(alpha, sp - MATE)
                beta = min(beta, MATE - sp - 1)
                if alpha >= beta:
                    ret = alpha
                    continue
            key = regs[_R_KEY]
            frame[_F_KEY] = key
            hit, stored, bound, tt_depth, tt_move = _probe(table, key)
            if hit:
                stored = _from_table(stored, sp)
            depth = frame[_F_DEPTH]
            pv = frame[_F_PV]
            if (
                hit
                and sp > 0
                and not pv
                and tt_depth >= (depth if kind == _MAIN else 0)
                and (
                    (bound == _EXACT)
                    or (bound == _LOWER and stored >= beta)
                    or (bound == _UPPER and stored <= alpha)
                )
            ):
                ret = stored
                continue
            if kind == _ATTACK:
                # the quiescence's attacker: stand pat, or play a four
                n = 0
                best = -_INF
                if counts[them + FIVE]:
                    lists[sp, 0] = _five_cell(geo, position, oppo)
                    n = 1
                else:
                    best = _evaluate(position, params)
                    if best >= beta:
                        ret = best
                        continue
                    alpha = max(alpha, best)
                    qdepth = frame[_F_QDEPTH]
                    if (
                        qdepth < params[_P_QVCF_LIMIT]
                        and counts[me + FOUR] + counts[me + FOUR_PLUS] + counts[me + FOUR_THREE] > 0
                    ):
                        lowest = FOUR
                        # deeper in the quiescence a plain four must follow fours that
                        # made more than a four (the lines that win usually do)
                        if qdepth >= params[_P_QVCF_PLAIN] and (
                            sp < 4
                            or stack[sp - 2, _F_MOVE_P4] < FOUR_PLUS
                            or stack[sp - 4, _F_MOVE_P4] < FOUR_PLUS
                        ):
                            lowest = FOUR_PLUS
                        last = played[ply_index - 2, _M_CELL] if ply_index >= 2 else -1
                        if last >= 0:
                            n = _fours_near(geo, position, lists[sp], marks, last, lowest)
                    if n == 0:
                        ret = best
                        continue
                for k in range(n):
                    q = lists[sp, k]
                    keys_out[sp, k] = (
                        (1 << 40) if q == tt_move else score[2 * q + side]
                    ) * 4096 + q
                frame[_F_ALPHA] = alpha
                frame[_F_BETA] = beta
                frame[_F_ALPHA0] = alpha
                frame[_F_BEST] = best
                frame[_F_BEST_MOVE] = -1
                frame[_F_COUNT] = n
                frame[_F_NEXT] = 0
                frame[_F_TRIED] = 0
                frame[_F_LIST] = _FORCED if best == -_INF else _ALL
                mode = _NEXT
                continue
            # the main search
            if (
                params[_P_SEARCH_VCT]
                and 0 < sp <= params[_P_SEARCH_VCT_PLY]
                and depth >= 2
                and counts[them + FIVE] == 0
                and counts[them + OPEN_FOUR] == 0
            ):
                # a victory by threes and fours near the root, which the search's depth
                # may not reach: its positions count as nodes (within the budget left).
                # Once per position: a win found is kept in the table at any depth, and
                # an attempt that found none is marked in the VCT's failure table (its
                # own tag), so that deeper iterations do not pay for it again
                tried_key = key ^ _TRIED_KEY
                tried_slot = 2 * (tried_key & ((vct_tables[0].size >> 1) - 1))
                spend = min(params[_P_SEARCH_VCT], limit - nodes)
                if vct_tables[0][tried_slot] == tried_key:
                    spend = 0
                else:
                    vct_tables[0][tried_slot] = tried_key
                    vct_tables[0][tried_slot + 1] = 0
                found_vct = 0
                length = 0
                most = 1
                while spend > 0 and most <= params[_P_SEARCH_VCT_THREATS]:
                    found_vct, length, used = _vct(
                        geo,
                        tables,
                        position,
                        vct_tables[0],
                        vct_tables[1],
                        vct_tables[2],
                        marks,
                        vct_tables[3],
                        spend - 1,  # it visits one more: the position that finds it spent
                        most,
                    )
                    nodes += used
                    spend -= used
                    if found_vct != 0:
                        break
                    most += 1
                if found_vct == 1:
                    ret = MATE - sp - length
                    # a proven win holds at every depth: stored as deep as can be
                    _store(table, key, generation, _to_table(ret, sp), _LOWER, MAX_DEPTH - 1, -1)
                    continue
            static = _evaluate(position, params)
            frame[_F_EVAL] = static
            improving = 1 if sp >= 2 and static > stack[sp - 2, _F_EVAL] else 0
            frame[_F_IMPROVING] = improving
            forced = counts[them + FIVE] > 0
            threatened = counts[them + OPEN_FOUR] + counts[them + FOUR_THREE] > 0
            if sp > 0 and not pv and not forced and not threatened and abs(beta) < _MATE_BOUND:
                # a lower bound above the static value, or an upper bound under it, is
                # a searched fact about the position: the better guess of the two
                estimate = static
                if (
                    params[_P_TT_EVAL]
                    and hit
                    and abs(stored) < _MATE_BOUND
                    and bound in (_EXACT, _LOWER if stored > static else _UPPER)
                ):
                    estimate = stored
                if (
                    depth <= params[_P_RAZOR_DEPTH]
                    and estimate + params[_P_RAZOR_MARGIN] * depth < alpha
                ):
                    # hopeless unless a four wins: the quiescence decides
                    frame[_F_KIND] = _ATTACK
                    frame[_F_QDEPTH] = 0
                    frame[_F_ALPHA] = alpha
                    frame[_F_BETA] = alpha + 1
                    # the same node, entered again as the quiescence's (counted again
                    # under Rapfi's count, whose razoring calls its VCF search)
                    nodes -= 1 - params[_P_RAPFI_COUNT]
                    mode = _ENTER
                    continue
                if (
                    depth <= params[_P_FUTILITY_DEPTH]
                    and estimate - params[_P_FUTILITY_MARGIN] * (depth - improving) >= beta
                ):
                    ret = estimate
                    continue
            n, kind_of_list = _generate(
                geo, tables, position, lists[sp], marks, sp == 0, params[_P_THREAT_MOVES] != 0
            )
            if sp == 0 and excluded[0] > 0:
                # root moves refuted by a threat search: left out while others remain
                kept = 0
                for k in range(n):
                    q = lists[0, k]
                    out = False
                    for e in range(1, excluded[0] + 1):
                        if excluded[e] == q:
                            out = True
                    if not out:
                        lists[0, kept] = q
                        kept += 1
                if kept > 0:
                    n = kept
            if n == 0:
                # an open three (or a double four) nothing stops, and no four to play
                ret = sp + 4 - MATE
                continue
            killer0 = killers[sp, 0]
            killer1 = killers[sp, 1]
            history_weight = params[_P_HISTORY_WEIGHT] if params[_P_HISTORY] else 0
            for k in range(n):
                q = lists[sp, k]
                s = score[2 * q + side]
                if q == tt_move:
                    s = 1 << 40
                else:
                    # the history runs to 2 ** 14: at 16/256 of an ordering point a unit,
                    # up to 16 points, enough to reorder the cells of like worth so that
                    # the move count keeps the ones that cut (Rapfi orders so too)
                    s = 64 * s + history[side * size + q] * history_weight // 256
                    if params[_P_KILLERS] and q in (killer0, killer1):
                        s += 64 * 12
                keys_out[sp, k] = s * 4096 + q
            frame[_F_ALPHA] = alpha
            frame[_F_BETA] = beta
            frame[_F_ALPHA0] = alpha
            frame[_F_BEST] = -_INF
            frame[_F_BEST_MOVE] = -1
            frame[_F_COUNT] = n
            frame[_F_NEXT] = 0
            frame[_F_TRIED] = 0
            frame[_F_LIST] = kind_of_list
            frame[_F_TT_MOVE] = tt_move
            mode = _NEXT
            continue

        if mode == _RETURN:
            if sp == 0:
                done = True
                break
            sp -= 1
            frame = stack[sp]
            kind = frame[_F_KIND]
            v = -ret
            alpha = frame[_F_ALPHA]
            beta = frame[_F_BETA]
            if kind == _DEFEND:
                _unmake(geo, tables, position)
                ret = v
                continue
            if kind == _MAIN:
                phase = frame[_F_PHASE]
                new_depth = frame[_F_NEW_DEPTH]
                pv = frame[_F_PV]
                child = stack[sp + 1]
                if phase == _REDUCED and v > alpha:
                    # the reduced search failed high: again at full depth
                    frame[_F_PHASE] = _NULL_WINDOW
                    child[_F_KIND] = _MAIN
                    child[_F_DEPTH] = new_depth
                    child[_F_ALPHA] = -alpha - 1
                    child[_F_BETA] = -alpha
                    child[_F_PV] = 0
                    sp += 1
                    mode = _ENTER
                    continue
                if phase != _FULL and pv and v > alpha and (sp == 0 or v < beta):
                    frame[_F_PHASE] = _FULL
                    child[_F_KIND] = _MAIN
                    child[_F_DEPTH] = new_depth
                    child[_F_ALPHA] = -beta
                    child[_F_BETA] = -alpha
                    child[_F_PV] = 1
                    sp += 1
                    mode = _ENTER
                    continue
            _unmake(geo, tables, position)
            move = frame[_F_MOVE]
            if v > frame[_F_BEST]:
                frame[_F_BEST] = v
                if v > alpha:
                    frame[_F_BEST_MOVE] = move
                    if sp == 0:
                        sregs[_S_ROOT_MOVE] = move
                        sregs[_S_ROOT_SCORE] = v
                    if v >= beta:
                        frame[_F_COUNT] = frame[_F_NEXT]  # a cut: no more moves
                    else:
                        frame[_F_ALPHA] = v
            mode = _NEXT
            continue

        # mode == _NEXT: the next move of the frame at sp, or its end
        frame = stack[sp]
        kind = frame[_F_KIND]
        side = regs[_R_SIDE]
        count = frame[_F_COUNT]
        index = frame[_F_NEXT]
        alpha = frame[_F_ALPHA]
        beta = frame[_F_BETA]
        depth = frame[_F_DEPTH]
        pv = frame[_F_PV]
        list_kind = frame[_F_LIST]
        every = params[_P_MOVE_COUNT_ALL]
        chosen = -1
        while index < count:
            # the best of the rest, by selection: most nodes cut after a few moves
            best_at = index
            best_key = keys_out[sp, index]
            for k in range(index + 1, count):
                if keys_out[sp, k] > best_key:
                    best_key = keys_out[sp, k]
                    best_at = k
            keys_out[sp, best_at] = keys_out[sp, index]
            keys_out[sp, index] = best_key
            q = best_key & 4095
            index += 1
            if kind != _MAIN:
                chosen = q
                break
            tried = frame[_F_TRIED] + 1
            frame[_F_TRIED] = tried
            if (
                sp > 0
                and (list_kind == _ALL or (every and list_kind == _DEFENCE))
                and frame[_F_BEST] > -_MATE_BOUND
                and depth <= params[_P_MOVE_COUNT_DEPTH]
            ):
                # late moves are not searched once the node has one that does not lose
                # (move-count pruning): every one under Rapfi's rule, else the quiet ones
                allowed = params[_P_MOVE_COUNTS + depth] // (2 - frame[_F_IMPROVING])
                quiet = every or (cell4[2 * q + side] < THREE and cell4[2 * q + 1 - side] < THREE)
                if tried > allowed and quiet:
                    # every later move would go the same way: drop them all now rather
                    # than select each (lists of quiet moves run to 90 cells)
                    kept = index
                    if not every:  # the threats among them stay
                        for k in range(index, count):
                            c = keys_out[sp, k] & 4095
                            if cell4[2 * c + side] >= THREE or cell4[2 * c + 1 - side] >= THREE:
                                keys_out[sp, kept] = keys_out[sp, k]
                                kept += 1
                    frame[_F_TRIED] = tried + count - kept
                    count = kept
                    frame[_F_COUNT] = count
                    continue
                if (
                    depth < params[_P_TRIVIAL_DEPTH]
                    and cell4[2 * q + side] == NONE
                    and cell4[2 * q + 1 - side] == NONE
                ):
                    continue
            chosen = q
            break
        frame[_F_NEXT] = index
        if chosen < 0:
            # the node's end
            best = frame[_F_BEST]
            best_move = frame[_F_BEST_MOVE]
            if kind == _MAIN:
                if best >= beta and best_move >= 0:
                    if cell4[2 * best_move + side] < FOUR and killers[sp, 0] != best_move:
                        killers[sp, 1] = killers[sp, 0]
                        killers[sp, 0] = best_move
                    if params[_P_HISTORY]:
                        bonus = min(depth * depth * 16, _HISTORY_MAX // 4)
                        at = side * size + best_move
                        history[at] += bonus - history[at] * bonus // _HISTORY_MAX
                        for k in range(frame[_F_NEXT] - 1):
                            q = keys_out[sp, k] & 4095
                            if q != best_move:
                                at = side * size + q
                                history[at] -= bonus + history[at] * bonus // _HISTORY_MAX
                if best >= beta:
                    bound = _LOWER
                elif pv and best > frame[_F_ALPHA0]:
                    bound = _EXACT
                else:
                    bound = _UPPER
                _store(
                    table, frame[_F_KEY], generation, _to_table(best, sp), bound, depth, best_move
                )
            else:  # the quiescence's attacker
                if best >= beta:
                    bound = _LOWER
                elif pv and best > frame[_F_ALPHA0]:
                    bound = _EXACT
                else:
                    bound = _UPPER
                _store(table, regs[_R_KEY], generation, _to_table(best, sp), bound, 0, best_move)
            ret = best
            mode = _RETURN
            continue
        # make the move and enter the child
        frame[_F_MOVE] = chosen
        frame[_F_MOVE_P4] = cell4[2 * chosen + side]
        child = stack[sp + 1]
        if kind == _ATTACK:
            _make(geo, tables, position, chosen)
            child[_F_KIND] = _DEFEND
            child[_F_ALPHA] = -beta
            child[_F_BETA] = -alpha
            child[_F_PV] = pv
            child[_F_QDEPTH] = frame[_F_QDEPTH] + 1
            child[_F_DEPTH] = 0
            sp += 1
            mode = _ENTER
            continue
        new_depth = depth - 1
        if list_kind == _FORCED and params[_P_FORCED_EXTENSION]:
            new_depth = depth  # the one block costs no depth
        elif list_kind == _DEFENCE and count <= params[_P_DEFENCE_EXTENSION]:
            # a few answers to a three: as good as forced, so that threat sequences
            # (victories by threes and fours) are seen as far as the attacker's moves go
            new_depth = depth
        important = (
            cell4[2 * chosen + side] >= THREE
            or cell4[2 * chosen + 1 - side] >= THREE
            or chosen == frame[_F_TT_MOVE]
        )
        reducible = list_kind == _ALL or (list_kind == _DEFENCE and params[_P_LMR_LISTS])
        tried = frame[_F_TRIED]
        late = (
            params[_P_LMR] != 0
            and depth >= 2
            and tried > 1 + (sp == 0)
            and reducible
            and (params[_P_LMR_IMPORTANT] != 0 or not important)
        )
        fine = 0  # the reduction's adjustments in 256ths of a ply (Rapfi's)
        if late and params[_P_LMR_HISTORY]:
            divisor = params[_P_LMR_HISTORY]
            if depth > 5:
                divisor += divisor // 3
            fine -= (history[side * size + chosen] - params[_P_LMR_HISTORY_OFFSET]) * 256 // divisor
        if late and (params[_P_LMR_ATTACK] or params[_P_LMR_USELESS_DEFENCE]):
            padded = geo[_G_PADDED]
            ply_index = regs[_R_PLY]
            cy, cx = divmod(chosen, padded)
            far_them = far_me = True
            if ply_index >= 1:
                ty, tx = divmod(played[ply_index - 1, _M_CELL], padded)
                far_them = max(abs(cy - ty), abs(cx - tx)) > 4
            if ply_index >= 2:
                my, mx = divmod(played[ply_index - 2, _M_CELL], padded)
                far_me = max(abs(cy - my), abs(cx - mx)) > 4
            oppo4 = counts[(1 - side) * _P4 + OPEN_FOUR] > 0
            mine = cell4[2 * chosen + side]
            if (
                not oppo4
                and sp >= 2
                and stack[sp - 2, _F_MOVE_P4] >= THREE
                and (mine >= THREE or (mine >= TWO_TWO and not far_me))
            ):
                fine -= params[_P_LMR_ATTACK]
            if oppo4 and cell4[2 * chosen + 1 - side] < FOUR:
                if far_them:
                    fine += params[_P_LMR_USELESS_DEFENCE]
                if far_me:
                    fine += params[_P_LMR_USELESS_DEFENCE] // 2
        _make(geo, tables, position, chosen)
        child[_F_KIND] = _MAIN
        child[_F_QDEPTH] = 0
        frame[_F_NEW_DEPTH] = new_depth
        reduced = new_depth
        if late:
            r = (lmr[min(depth, 63), min(tried, 63)] + fine) >> 8
            if not pv and not frame[_F_IMPROVING]:
                r += 1
            if pv and r > 0:
                r -= 1
            if important and r > 0:
                # a threat, or the answer to one: reduced one ply less
                r -= 1
            reduced = max(1, min(new_depth, new_depth - r))
        if reduced < new_depth:
            frame[_F_PHASE] = _REDUCED
            child[_F_DEPTH] = reduced
            child[_F_ALPHA] = -alpha - 1
            child[_F_BETA] = -alpha
            child[_F_PV] = 0
        elif not pv or tried > 1:
            frame[_F_PHASE] = _NULL_WINDOW
            child[_F_DEPTH] = new_depth
            child[_F_ALPHA] = -alpha - 1
            child[_F_BETA] = -alpha
            child[_F_PV] = 0
        else:
            frame[_F_PHASE] = _FULL
            child[_F_DEPTH] = new_depth
            child[_F_ALPHA] = -beta
            child[_F_BETA] = -alpha
            child[_F_PV] = 1
        sp += 1
        mode = _ENTER
    sregs[_S_SP] = sp
    sregs[_S_MODE] = mode
    sregs[_S_RET] = ret
    sregs[_S_NODES] = nodes
    sregs[_S_SELDEPTH] = seldepth
    return done


@jit
def _principal_variation(
    geo: _Array, tables: Any, position: Any, table: _Array, line: _Array
) -> int:
    """Follow the table's moves from the position while they are legal (at most
    ``line.size``), into ``line``; returns how many. The position is left as it was."""
    board = position[_BOARD]
    regs = position[_REGS]
    n = 0
    while n < line.size:
        entry = _probe(table, regs[_R_KEY])
        move = entry[4]
        if not entry[0] or move < 0 or board[move] != 0:
            break
        five = position[_CELL4][2 * move + regs[_R_SIDE]] == FIVE
        line[n] = move
        n += 1
        _make(geo, tables, position, move)
        if five:
            break
    for _ in range(n):
        _unmake(geo, tables, position)
    return n


# ---------------------------------------------------------------- the VCF prover

# a level's fields: the moves, the next, the four played and its block, the key
_V_COUNT, _V_NEXT, _V_MOVE, _V_BLOCK, _V_KEY = range(5)
_V_FIELDS = 8

VCF_FOURS = 16
"""The most fours of the attacker in one line of the VCF prover (as the pure one's)."""


@jit
def _threat_cells(geo: _Array, position: Any, attacker: int, lowest: int, cells: _Array) -> int:
    """Fill ``cells`` with the empty cells where ``attacker`` makes a threat of at least
    ``lowest`` (a :data:`FOUR`, or a :data:`THREE` too), best first by the ordering
    score, and return how many; a cell that makes an open four alone, since it wins in
    three."""
    board = position[_BOARD]
    cell4 = position[_CELL4]
    score = position[_SCORE]
    regs = position[_REGS]
    padded = geo[_G_PADDED]
    n = 0
    open_four = -1
    for y in range(regs[_R_Y0], regs[_R_Y1] + 1):
        for x in range(regs[_R_X0], regs[_R_X1] + 1):
            q = y * padded + x
            if board[q] == 0 and cell4[2 * q + attacker] >= lowest:
                if cell4[2 * q + attacker] == OPEN_FOUR:
                    open_four = q
                # insertion: the lists are short
                at = n
                while at > 0 and score[2 * cells[at - 1] + attacker] < score[2 * q + attacker]:
                    cells[at] = cells[at - 1]
                    at -= 1
                cells[at] = q
                n += 1
    if open_four >= 0:
        cells[0] = open_four
        return 1
    return n


@jit
def _failed_depth(failed: _Array, key: int) -> int:
    """How many fours the table says do not win from ``key`` (0: nothing known)."""
    slot = key & ((failed.size >> 1) - 1)
    if failed[2 * slot] == key:
        return int(failed[2 * slot + 1])
    return 0


@jit
def _vcf(  # noqa: PLR0917 - numba takes its arguments by position
    geo: _Array,
    tables: Any,
    position: Any,
    failed: _Array,
    levels: _Array,
    lists: _Array,
    line: _Array,
    budget: int,
    fours: int,
) -> tuple[int, int, int]:
    """Look for a victory by continuous fours of at most ``fours`` fours for the side to
    move: (1 found, 0 none, -1 the ``budget`` of positions ran out; the line's length in
    ``line``; the positions visited). The defender's every answer is its one block (it
    has no five of its own when the attacker fours, or the attacker's four must block
    it); two fives at once, or a five to make, end the line. Positions proven to have
    no such win within some number of fours go to ``failed`` (by key)."""
    cell4 = position[_CELL4]
    counts = position[_COUNTS]
    regs = position[_REGS]
    attacker = regs[_R_SIDE]
    me = attacker * _P4
    them = (1 - attacker) * _P4
    nodes = 0
    level = 0
    result = 0
    length = 0
    entering = True
    while True:
        row = levels[level]
        if entering:
            entering = False
            nodes += 1
            if nodes > budget:
                result = -1
                break
            if counts[me + FIVE]:
                line[2 * level] = _five_cell(geo, position, attacker)
                length = 2 * level + 1
                result = 1
                break
            remaining = fours - level
            key = regs[_R_KEY]
            row[_V_KEY] = key
            n = 0
            if counts[them + FIVE] < 2 and remaining > 0 and _failed_depth(failed, key) < remaining:
                if counts[them + FIVE]:
                    threat = _five_cell(geo, position, 1 - attacker)
                    if cell4[2 * threat + attacker] >= FOUR:
                        lists[level, 0] = threat
                        n = 1
                else:
                    # an open four wins in three: the fours before it in the order would
                    # only lengthen the line
                    n = _threat_cells(geo, position, attacker, FOUR, lists[level])
            row[_V_COUNT] = n
            row[_V_NEXT] = 0
        if row[_V_NEXT] == row[_V_COUNT]:
            # every four of this level failed: no win within the fours left here
            if fours - level > _failed_depth(failed, row[_V_KEY]):
                slot = row[_V_KEY] & ((failed.size >> 1) - 1)
                failed[2 * slot] = row[_V_KEY]
                failed[2 * slot + 1] = fours - level
            if level == 0:
                result = 0
                break
            level -= 1
            _unmake(geo, tables, position)
            _unmake(geo, tables, position)
            continue
        move = lists[level, row[_V_NEXT]]
        row[_V_NEXT] += 1
        _make(geo, tables, position, move)
        row[_V_MOVE] = move
        line[2 * level] = move
        if counts[me + FIVE] >= 2:
            block = _five_cell(geo, position, attacker)
            line[2 * level + 1] = block
            _make(geo, tables, position, block)
            line[2 * level + 2] = _five_cell(geo, position, attacker)
            _unmake(geo, tables, position)
            _unmake(geo, tables, position)
            length = 2 * level + 3
            result = 1
            break
        block = _five_cell(geo, position, attacker)
        row[_V_BLOCK] = block
        line[2 * level + 1] = block
        _make(geo, tables, position, block)
        level += 1
        entering = True
    for _ in range(level):
        _unmake(geo, tables, position)
        _unmake(geo, tables, position)
    return result, length, nodes


# ---------------------------------------------------------------- the VCT prover

# a level's fields: the moves, the next, the threats left, whether the attacker moves
_T_COUNT, _T_NEXT, _T_DEPTH, _T_ATTACK, _T_KEY = range(5)
_T_FIELDS = 8

VCT_THREATS = 8
"""The most threats (threes and fours) of the attacker in one line of the VCT prover."""

_VCT_LEVELS = 4 * VCT_THREATS + 8
"""The deepest ply of a VCT line (each threat and each forced block is one attacker
move and one answer); a line that would go further is not proven."""

_TRIED_KEY = 0x1B873593_CC9E2D51
"""XORed into a key in the VCT's failure table to mark a position of the main search
where a VCT was tried (its stored depth 0 never refutes an attacker's node)."""

_MAX_EXCLUDED = 6
"""The most root moves a search may be told to leave out."""

_DEFENDER_KEY = 0x2545F491_4F6CDD1D
"""XORed into a key in the VCT's failure table when the defender is to move there (the
same position with the same side to move is an attacker's node in another search)."""


@jit
def _vct(  # noqa: PLR0917 - numba takes its arguments by position
    geo: _Array,
    tables: Any,
    position: Any,
    failed: _Array,
    levels: _Array,
    lists: _Array,
    marks: _Array,
    line: _Array,
    budget: int,
    threats: int,
) -> tuple[int, int, int]:
    """Look for a victory by continuous threats (threes and fours) of at most
    ``threats`` threats for the side to move: (1 found, 0 none, -1 the ``budget`` of
    positions ran out; the line's length in ``line``; the positions visited).

    An AND/OR search. The attacker plays its fours and threes (a cell of pattern three
    or better: after it the attacker has an open four to make), or, facing a five, its
    one block (costing no threat). The defender answers a four by its block; a three by
    every cell after which the attacker has no open four to make and by every four of
    its own (:func:`_defences`): any other reply makes no five for the defender (it had
    none, or the attacker's move blocked it, and the reply made no four), so the open
    four and then five follow; nothing else is a threat, and a position where the
    attacker threatens nothing is not won. A line is claimed only when every answer
    loses; the line returned is the last one searched (a legal line ending in five).
    Positions proven not won within some number of threats go to ``failed``."""
    board = position[_BOARD]
    cell4 = position[_CELL4]
    counts = position[_COUNTS]
    regs = position[_REGS]
    padded = geo[_G_PADDED]
    attacker = regs[_R_SIDE]
    defender = 1 - attacker
    me = attacker * _P4
    them = defender * _P4
    mask = (failed.size >> 1) - 1
    nodes = 0
    level = 0
    length = 0
    levels[0, _T_DEPTH] = threats
    entering = True
    won = False  # the value of the level just left, for the attacker
    while True:
        row = levels[level]
        if entering:
            entering = False
            nodes += 1
            if nodes > budget:
                # unwind and give up
                for _ in range(level):
                    _unmake(geo, tables, position)
                return -1, 0, nodes
            depth = row[_T_DEPTH]
            attacking = regs[_R_SIDE] == attacker
            row[_T_ATTACK] = attacking
            key = regs[_R_KEY] if attacking else regs[_R_KEY] ^ _DEFENDER_KEY
            row[_T_KEY] = key
            n = 0
            decided = 0  # 1: won for the attacker, -1: not won, 0: search the moves
            if attacking:
                if counts[me + FIVE]:
                    line[level] = _five_cell(geo, position, attacker)
                    length = level + 1
                    decided = 1
                elif counts[them + FIVE] >= 2 or level >= _VCT_LEVELS - 2:
                    decided = -1
                elif counts[them + FIVE]:
                    lists[level, 0] = _five_cell(geo, position, defender)
                    n = 1
                elif depth <= 0 or (
                    failed[2 * (key & mask)] == key and failed[2 * (key & mask) + 1] >= depth
                ):
                    decided = -1
                else:
                    # with one threat left only a four can still win (a three needs the
                    # open four after it)
                    lowest = FOUR if depth == 1 else THREE
                    n = _threat_cells(geo, position, attacker, lowest, lists[level])
                    if n == 0:
                        decided = -1
            elif counts[them + FIVE]:
                decided = -1  # the defender makes five
            elif counts[me + FIVE]:
                # the block (of one of two fives: the attacker makes the other)
                lists[level, 0] = _five_cell(geo, position, attacker)
                n = 1
            elif counts[me + OPEN_FOUR] == 0 or level >= _VCT_LEVELS - 2:
                decided = -1  # no threat: the defender has a free move
            elif failed[2 * (key & mask)] == key and failed[2 * (key & mask) + 1] >= depth:
                decided = -1
            else:
                for y in range(regs[_R_Y0], regs[_R_Y1] + 1):
                    for x in range(regs[_R_X0], regs[_R_X1] + 1):
                        q = y * padded + x
                        if board[q] == 0 and cell4[2 * q + defender] >= FOUR:
                            lists[level, n] = q
                            n += 1
                n = _defences(geo, tables, position, lists[level], n, marks, OPEN_FOUR)
                if n == 0:
                    # nothing stops the open four: any reply loses; search one that
                    # takes an open-four cell, so that the line goes on to the five
                    for y in range(regs[_R_Y0], regs[_R_Y1] + 1):
                        for x in range(regs[_R_X0], regs[_R_X1] + 1):
                            q = y * padded + x
                            if n == 0 and board[q] == 0 and cell4[2 * q + attacker] >= OPEN_FOUR:
                                lists[level, 0] = q
                                n = 1
            leaving = decided != 0
            if leaving:
                won = decided > 0
            row[_T_COUNT] = n
            row[_T_NEXT] = 0
            searched = False  # (a level decided before any move is not a failure to keep)
        else:
            # a child returned ``won``: the attacker found a win, or the defender's
            # answer held, and this level is decided the same way whatever its other
            # moves
            leaving = won == (row[_T_ATTACK] != 0)
            searched = True
        if not leaving and row[_T_NEXT] == row[_T_COUNT]:
            # every move failed (the attacker's) or lost (the defender's)
            won = row[_T_ATTACK] == 0
            leaving = searched = True
        if leaving:
            if searched and not won:
                slot = 2 * (row[_T_KEY] & mask)
                failed[slot] = row[_T_KEY]
                failed[slot + 1] = row[_T_DEPTH]
            if level == 0:
                break
            level -= 1
            _unmake(geo, tables, position)
            continue
        move = lists[level, row[_T_NEXT]]
        row[_T_NEXT] += 1
        line[level] = move
        # a threat costs one, a forced block and every answer nothing
        forced = row[_T_ATTACK] != 0 and counts[them + FIVE] > 0
        next_depth = row[_T_DEPTH] - (1 if row[_T_ATTACK] != 0 and not forced else 0)
        _make(geo, tables, position, move)
        level += 1
        levels[level, _T_DEPTH] = next_depth
        entering = True
    return (1 if won else 0), (length if won else 0), nodes


# ---------------------------------------------------------------- the Python side

_LINE_TABLES: dict[tuple[int, bool], npt.NDArray[np.uint8]] = {}
"""The key-to-pattern table of each (half line, exact five), made once per process."""


def _key_table(half: int, exact: bool) -> npt.NDArray[np.uint8]:
    """The line-key table for a rule, made on first use (about a second for exact five)."""
    table = _LINE_TABLES.get((half, exact))
    if table is None:
        table = _LINE_TABLES[half, exact] = _key_patterns(half, _classify_lines(half, exact))
    return table


class GomokuKernel:
    """The compiled board and searches for one :class:`~zerosum.games.gomoku.Gomoku`.

    It holds one position (set with :meth:`setup`), the transposition table, the VCF
    prover's table and the history of the moves that cut. ``table_bits`` sizes the
    transposition table (``2 ** table_bits`` slots of 16 bytes); ``weights`` are the
    evaluation, ordering and search numbers (:class:`Weights`). Renju's forbidden moves
    are not known to it: a renju game raises :class:`~zerosum.game.InvalidGameError`."""

    def __init__(self, game: Gomoku, table_bits: int = 20, weights: Weights | None = None) -> None:
        if not 10 <= table_bits <= 28:
            raise ValueError(f"table_bits must be from 10 to 28, not {table_bits}")
        if game.rule not in ("freestyle", "exact5"):
            raise InvalidGameError(
                f"the compiled gomoku kernel plays freestyle and exact5, not {game.rule}"
            )
        self.game = game
        self.weights = weights = weights if weights is not None else Weights()
        exact = game.rule == "exact5"
        half = 5 if exact else 4
        width, height = game.width, game.height
        padded = width + 2 * half
        size = padded * (height + 2 * half)
        self.half, self.padded, self.size = half, padded, size
        geo = np.zeros(_G_LENGTH, np.int64)
        geo[_G_WIDTH], geo[_G_HEIGHT], geo[_G_HALF] = width, height, half
        geo[_G_PADDED], geo[_G_SIZE], geo[_G_CELLS] = padded, size, width * height
        geo[_G_EXACT] = exact
        for d, step in enumerate((1, padded, padded + 1, padded - 1)):
            geo[_G_DIRECTION + d] = step
        offsets = [dy * padded + dx for dy in range(-2, 3) for dx in range(-2, 3) if dx or dy]
        geo[_G_NEAR_COUNT] = len(offsets)
        geo[_G_NEAR : _G_NEAR + len(offsets)] = offsets
        self._geo = geo
        fixed = [
            np.array([round(_FIXED * w) for w in values], np.int64)
            for values in (
                weights.mover_line,
                weights.mover_cell,
                weights.other_line,
                weights.other_cell,
            )
        ]
        cell_table = _cell_tables(
            np.array(weights.order_line, np.int64),
            np.array(weights.order_cell, np.int64),
            *fixed,
        )
        rng = np.random.default_rng(0x60_6D_0C_05 ^ (width << 8) ^ height)
        zobrist = rng.integers(-(1 << 63), (1 << 63) - 1, size=2 * size, dtype=np.int64)
        self._tables = (_key_table(half, exact), cell_table, zobrist)
        self._position: tuple[npt.NDArray[Any], ...] = (
            np.zeros(size, np.int8),
            np.zeros(4 * size, np.int32),
            np.zeros(4 * size, np.uint8),
            np.zeros(2 * size, np.uint8),
            np.zeros(2 * size, np.int64),
            np.zeros(2 * size, np.int64),
            np.zeros(size, np.int16),
            np.zeros(2 * _P4, np.int64),
            np.zeros(_R_LENGTH, np.int64),
            np.zeros((game.cells + _MAX_PLY + 2, _M_FIELDS), np.int64),
        )
        _clear(geo, self._tables, self._position)
        self._params = np.zeros(_P_LENGTH, np.int64)
        for index, name in enumerate(_SEARCH_KEYS):
            self._params[index] = weights.search[name]
        search = weights.search
        for depth in range(64):
            # moves searched at a node of this depth before the late quiet ones are
            # dropped: base + scale * depth ** power (an improving node's count)
            power = search["move_count_power"] / 100
            self._params[_P_MOVE_COUNTS + depth] = search["move_count_base"] + int(
                search["move_count_scale"] / 100 * depth**power
            )
        # in 256ths of a ply, so that the adjustments in fractions add up before the
        # reduction is rounded down to whole plies (as the table alone was)
        self._lmr = np.zeros((64, 64), np.int64)
        scale = weights.search["lmr_scale"] / 100
        for d in range(1, 64):
            for m in range(1, 64):
                self._lmr[d, m] = int(256 * math.log(d) * math.log(m) * scale)
        frames = _MAX_PLY + 2
        self._stack = np.zeros((frames, _FIELDS), np.int64)
        self._lists = np.zeros((frames, _MAX_MOVES), np.int64)
        self._keys = np.zeros((frames, _MAX_MOVES), np.int64)
        # written once now (np.empty, then filled): a search should not pay a page fault
        # for each slot it touches first
        self._table = np.empty(2 << table_bits, np.int64)
        self._table.fill(0)
        self._history = np.zeros(2 * size, np.int64)
        self._killers = np.full((frames, 2), -1, np.int64)
        self._marks = np.zeros(size + 1, np.int64)
        self._sregs = np.zeros(_S_LENGTH, np.int64)
        self._sregs[_S_GENERATION] = 1
        self._failed = np.zeros(2 << 16, np.int64)
        self._levels = np.zeros((VCF_FOURS + 2, _V_FIELDS), np.int64)
        self._vcf_lists = np.zeros((VCF_FOURS + 2, _MAX_MOVES), np.int64)
        self._line = np.zeros(2 * VCF_FOURS + 4, np.int64)
        self._vct_failed = np.zeros(2 << 16, np.int64)
        self._vct_levels = np.zeros((_VCT_LEVELS + 2, _T_FIELDS), np.int64)
        self._vct_lists = np.zeros((_VCT_LEVELS + 2, _MAX_MOVES), np.int64)
        self._vct_line = np.zeros(_VCT_LEVELS + 2, np.int64)
        self._excluded = np.zeros(_MAX_EXCLUDED + 1, np.int64)

    # ------------------------------------------------------------ cells

    def cell(self, action: int) -> int:
        """The padded-board index of the game's cell ``action``."""
        y, x = divmod(action, self.game.width)
        return (y + self.half) * self.padded + x + self.half

    def action(self, cell: int) -> int:
        """The game's cell of the padded-board index ``cell``."""
        y, x = divmod(cell, self.padded)
        return (y - self.half) * self.game.width + x - self.half

    # ------------------------------------------------------------ the position

    def setup(self, state: GomokuState) -> None:
        """Make ``state`` the kernel's position: its moves in order when it knows them
        (the search reads the latest ones), else its stones."""
        geo, tables, position = self._geo, self._tables, self._position
        _clear(geo, tables, position)
        regs = position[_REGS]
        history = state.history
        if history is not None:
            for action in history:
                _make(geo, tables, position, self.cell(action))
            return
        for colour, stones in ((0, state.black), (1, state.white)):
            for action in bit_indices(stones):
                regs[_R_SIDE] = colour
                _make(geo, tables, position, self.cell(action))
        # stones set up by colour leave the key without the side to move in it
        regs[_R_SIDE] = state.mover
        regs[_R_KEY] = self._stones_key(state)

    def _stones_key(self, state: GomokuState) -> int:
        zobrist = self._tables[_ZOBRIST]
        key = 0
        for colour, stones in ((0, state.black), (1, state.white)):
            for action in bit_indices(stones):
                key ^= int(zobrist[colour * self.size + self.cell(action)])
        if state.mover:
            key ^= _SIDE_KEY
        return key

    def play(self, action: int) -> None:
        """Play the game's cell ``action`` for the side to move."""
        _make(self._geo, self._tables, self._position, self.cell(action))

    def undo(self) -> None:
        """Take back the latest :meth:`play`."""
        _unmake(self._geo, self._tables, self._position)

    @property
    def side(self) -> int:
        """The side to move."""
        return int(self._position[_REGS][_R_SIDE])

    @property
    def key(self) -> int:
        """The position's key (side to move included)."""
        return int(self._position[_REGS][_R_KEY])

    def evaluation(self) -> tuple[int, int, int, int]:
        """The evaluation's totals in sixteenths: black's cells' shares as the mover and
        white's, then as the other side."""
        regs = self._position[_REGS]
        return (
            int(regs[_R_MOVER]),
            int(regs[_R_MOVER + 1]),
            int(regs[_R_OTHER]),
            int(regs[_R_OTHER + 1]),
        )

    def count(self, colour: int, pattern: int) -> int:
        """How many empty cells have the cell pattern ``pattern`` for ``colour``."""
        return int(self._position[_COUNTS][colour * _P4 + pattern])

    def pattern_counts(self, colour: int) -> tuple[list[int], list[int]]:
        """What the evaluation weighs for ``colour``: over the empty cells, how many of
        their line patterns have each code (four a cell, :data:`LINE_PATTERNS`) and how
        many cells have each cell pattern (:data:`CELL_PATTERNS`). The colour's share
        as the mover is the dot product of these with ``Weights.mover_line`` and
        ``Weights.mover_cell`` (each weight rounded to a sixteenth), as the other side
        with ``other_line`` and ``other_cell``: a tuner fits the weights to them."""
        board, pats = self._position[_BOARD], self._position[_PATS]
        empty = np.repeat(board == 0, 4)
        codes = pats[empty] >> 4 if colour else pats[empty] & 15
        lines = np.bincount(codes, minlength=len(LINE_PATTERNS))
        cells = self._position[_COUNTS][colour * _P4 : colour * _P4 + len(CELL_PATTERNS)]
        return [int(n) for n in lines], [int(n) for n in cells]

    def cells_with(self, colour: int, low: int, high: int = FIVE) -> int:
        """The empty cells (a mask of the game's cells) whose cell pattern for ``colour``
        is from ``low`` to ``high``."""
        board, cell4 = self._position[_BOARD], self._position[_CELL4]
        found = 0
        for action in range(self.game.cells):
            q = self.cell(action)
            if board[q] == 0 and low <= cell4[2 * q + colour] <= high:
                found |= 1 << action
        return found

    def empty_cells(self) -> int:
        """The empty cells, as a mask of the game's cells."""
        board = self._position[_BOARD]
        found = 0
        for action in range(self.game.cells):
            if board[self.cell(action)] == 0:
                found |= 1 << action
        return found

    def made_five(self) -> bool:
        """Whether the latest move made five (the game is won)."""
        regs, played = self._position[_REGS], self._position[_PLAYED]
        ply = int(regs[_R_PLY])
        return ply > 0 and bool(played[ply - 1, _M_FIVE])

    def static_win(self) -> int:
        """What the pattern counts prove for the side to move: ``n > 0`` a win in ``n``
        plies, ``-n`` a loss in ``n``, 0 nothing (see the search's static wins)."""
        found = int(_quick_win(self._position[_COUNTS], self.side, 0))
        if found > 0:
            return MATE - found
        if found < 0:
            return -(MATE + found)
        return 0

    def line_pattern(self, action: int, colour: int, direction: int) -> int:
        """The line pattern of the game's cell ``action`` for ``colour`` along
        ``direction`` (0 across, 1 down, 2 and 3 the diagonals)."""
        found = int(self._position[_PATS][4 * self.cell(action) + direction])
        return found >> 4 if colour else found & 15

    def cell_pattern(self, action: int, colour: int) -> int:
        """The cell pattern of the empty cell ``action`` for ``colour`` (what a stone of
        ``colour`` would make there, :data:`CELL_PATTERNS`)."""
        return int(self._position[_CELL4][2 * self.cell(action) + colour])

    # ------------------------------------------------------------ searching

    @property
    def nodes(self) -> int:
        """The nodes of the main search since the last :meth:`new_search`."""
        return int(self._sregs[_S_NODES])

    @property
    def seldepth(self) -> int:
        """The deepest ply the latest search reached."""
        return int(self._sregs[_S_SELDEPTH])

    def new_search(self) -> None:
        """Start counting nodes afresh; the table's older entries become the first to go
        (a new generation) and the history fades."""
        sregs = self._sregs
        sregs[_S_NODES] = 0
        sregs[_S_GENERATION] = sregs[_S_GENERATION] % 500 + 1
        self._history //= 4

    def clear(self) -> None:
        """Forget everything learnt: the tables, the history, the killers."""
        self._table.fill(0)
        self._failed.fill(0)
        self._vct_failed.fill(0)
        self._history.fill(0)
        self._killers.fill(-1)
        self.new_search()

    def static_value(self) -> int:
        """The evaluation of the position for the side to move, in kernel units."""
        return int(_evaluate(self._position, self._params))

    def start(self, depth: int, alpha: int = -_INF, beta: int = _INF) -> None:
        """Set up a search of the position to ``depth`` plies with the window ``(alpha,
        beta)`` (kernel units), to be run by :meth:`resume`."""
        _start(self._stack, self._sregs, depth, alpha, beta)

    def resume(self, budget: int = _NO_LIMIT) -> bool:
        """Run the search set up by :meth:`start` for up to ``budget`` more nodes; ``True``
        once it is over (see :attr:`value` and :attr:`best_move`)."""
        return bool(
            _run(
                self._geo,
                self._tables,
                self._position,
                self._params,
                self._lmr,
                self._stack,
                self._lists,
                self._keys,
                self._table,
                self._history,
                self._killers,
                self._marks,
                self._sregs,
                budget,
                (self._vct_failed, self._vct_levels, self._vct_lists, self._vct_line),
                self._excluded,
            )
        )

    @property
    def value(self) -> int:
        """The finished search's value for the side to move (kernel units, fail-soft)."""
        return int(self._sregs[_S_RET])

    @property
    def root_value(self) -> int:
        """The value with which the root's best move so far raised alpha (kernel units;
        meaningful when :attr:`best_move` is not ``None``)."""
        return int(self._sregs[_S_ROOT_SCORE])

    @property
    def best_move(self) -> int | None:
        """The game's cell of the root move that last raised alpha, or ``None``."""
        move = int(self._sregs[_S_ROOT_MOVE])
        return None if move < 0 else self.action(move)

    def principal_variation(self, limit: int = 64) -> list[int]:
        """The table's line from the position (the game's cells)."""
        line = np.zeros(limit, np.int64)
        n = _principal_variation(self._geo, self._tables, self._position, self._table, line)
        return [self.action(int(cell)) for cell in line[:n]]

    def hashfull(self) -> int:
        """The table's fill in thousandths, from its first thousand slots."""
        sample = self._table[1:2000:2]
        return int(np.count_nonzero(sample) * 1000 // sample.size)

    def vcf(self, budget: int = 20_000, fours: int = VCF_FOURS) -> tuple[list[int] | None, int]:
        """A victory by continuous fours for the side to move with the fewest fours (at
        most ``fours``), deepening one four at a time within ``budget`` positions: (the
        line, both sides' moves, the last making five, or ``None``; the positions
        visited)."""
        return self._deepen(
            lambda left, most: _vcf(
                self._geo,
                self._tables,
                self._position,
                self._failed,
                self._levels,
                self._vcf_lists,
                self._line,
                left,
                most,
            ),
            self._line,
            budget,
            fours,
        )

    def exclude(self, actions: list[int]) -> None:
        """Leave the game's cells ``actions`` (at most :data:`_MAX_EXCLUDED`) out of the
        root's moves in the searches that follow, while any other move remains; an empty
        list puts every move back."""
        chosen = actions[:_MAX_EXCLUDED]
        self._excluded[0] = len(chosen)
        for index, action in enumerate(chosen):
            self._excluded[1 + index] = self.cell(action)

    def vct(self, budget: int = 20_000, threats: int = VCT_THREATS) -> tuple[list[int] | None, int]:
        """A victory by continuous threats (threes and fours) for the side to move with
        the fewest threats (at most ``threats``), deepening one threat at a time within
        ``budget`` positions: (a line, both sides' moves, the last making five, or
        ``None``; the positions visited). The line is one of the proof's: every answer
        of the defender to each threat was searched and loses."""
        return self._deepen(
            lambda left, most: _vct(
                self._geo,
                self._tables,
                self._position,
                self._vct_failed,
                self._vct_levels,
                self._vct_lists,
                self._marks,
                self._vct_line,
                left,
                most,
            ),
            self._vct_line,
            budget,
            min(threats, VCT_THREATS),
        )

    def _deepen(
        self,
        prove: Callable[[int, int], tuple[int, int, int]],
        line: _Array,
        budget: int,
        most: int,
    ) -> tuple[list[int] | None, int]:
        """Run a threat prover (``prove(budget left, most threats)``: found 1, none 0,
        out of budget -1; the line's length; the positions visited) for 1, 2, ... up to
        ``most`` threats, so that the win found is the shortest: (the line it leaves in
        ``line`` as the game's moves, or ``None``; the positions visited in all)."""
        spent = 0
        for threats in range(1, most + 1):
            found, length, nodes = prove(budget - spent, threats)
            spent += nodes
            if found == 1:
                return [self.action(int(cell)) for cell in line[:length]], spent
            if found < 0:
                break
        return None, spent


CHUNK_NODES = 2048
"""The nodes a kernel search runs between two looks at its limits (a few milliseconds)."""

ROOT_VCF_BUDGET = 20_000
"""Positions the VCF prover may visit at the root of a search (about 20 ms); a node
limit caps it at a quarter of the limit, the positions counting as nodes."""

MAX_DEPTH = 64
"""The deepest iteration (the quiescence goes further)."""

ROOT_VCT_CHECK = 3_000
"""Positions the VCT prover may visit to test a chosen root move (``root_check``)."""

_ASPIRATION = 24
"""The first half-width of the window around the previous iteration's value."""


class _LimitError(Exception):
    """A limit struck in the middle of an iteration (caught in the deepening loop)."""


def engine_score(value: int) -> int:
    """A kernel value in the engine's units: a win in ``n`` plies ``WIN - n``."""
    if value >= _MATE_BOUND:
        return WIN - (MATE - value)
    if value <= -_MATE_BOUND:
        return -(WIN - (MATE + value))
    return value


class KernelEngine(CompiledEngine[GomokuKernel]):
    """An :class:`~zerosum.search.engine.Engine` for gomoku whose searches run in the
    compiled kernel (:class:`GomokuKernel`).

    :meth:`iterate` and :meth:`search` deepen in the kernel under the :class:`Limits`,
    looking at them every :data:`CHUNK_NODES` nodes: first the VCF prover at the root
    (a win found ends the search with one report, as the pure engine's threat search
    does; its positions count as nodes), then one iteration per depth, each inside an
    aspiration window around the previous value. ``multipv`` searches (every root move
    scored) and :meth:`search_window` stay with the pure engine. ``options.table_size``
    sizes the kernel's table (four slots of 16 bytes for each entry asked, at least
    ``2 ** 12``), made with the kernel on first use; ``options.threats`` switches the
    root prover off. ``weights`` (:class:`Weights`) replace the kernel's numbers."""

    __slots__ = ("_table_bits", "_weights")

    def __init__(
        self,
        game: Gomoku,
        options: EngineOptions | None = None,
        *,
        weights: Weights | None = None,
        table_bits: int | None = None,
    ) -> None:
        super().__init__(game, options)
        if table_bits is None:
            table_bits = min(max(self.options.table_size.bit_length() + 1, 12), 26)
        self._table_bits = table_bits
        self._weights = weights

    def _weights_value(self, name: str) -> int:
        """A search number of the kernel's weights."""
        return self.kernel.weights.search[name]

    def make_kernel(self) -> GomokuKernel:
        """Return the compiled board, searches and tables for the engine's game."""
        return GomokuKernel(self.game, self._table_bits, self._weights)  # type: ignore[arg-type]

    def search(
        self, state: Any, limits: Limits | None = None, multipv: bool = False
    ) -> EngineResult:
        """Deepen in the kernel under ``limits`` and return the last completed iteration
        (see :meth:`Engine.search <zerosum.search.engine.Engine.search>`)."""
        if multipv:
            return super().search(state, limits, multipv)
        limits = limits if limits is not None else Limits()
        share = self._weights_value("root_check")
        if share > 0 and limits.nodes is not None and limits.time is None:
            return self._checked_search(state, limits, share)
        self.kernel.exclude([])
        return self._search_once(state, limits)

    def _checked_search(self, state: GomokuState, limits: Limits, share: int) -> EngineResult:
        """Search with ``share`` percent of the node limit kept back, then test the move
        found: when the opponent has a victory by threes and fours after it (the VCT
        prover, its positions counted as nodes), search again without it, up to a few
        times while nodes remain (the table kept, so the new search is quick). A move
        that wins or is already scored as a loss is not tested."""
        assert limits.nodes is not None
        total = limits.nodes
        kernel = self.kernel
        excluded: list[int] = []
        kernel.exclude(excluded)
        first = self._search_once(
            state, replace(limits, nodes=max(1, total - total * share // 100))
        )
        used = first.stats.nodes
        result = first
        while (
            result.best_move is not None
            and result.score is not None
            and abs(result.score) < WIN_THRESHOLD
            and len(excluded) < _MAX_EXCLUDED
        ):
            budget = min((total - used) // 2, ROOT_VCT_CHECK)
            if budget <= 0:
                break
            kernel.setup(state)
            kernel.play(result.best_move)
            line, spent = kernel.vct(budget)
            used += spent
            if line is None:
                break
            # the opponent wins after this move: the search again without it
            excluded.append(result.best_move)
            kernel.exclude(excluded)
            left = total - used
            if left <= 0:
                break
            again = self._search_once(state, replace(limits, nodes=left))
            used += again.stats.nodes
            if again.best_move is None or again.best_move in excluded:
                break
            result = again
        kernel.exclude([])
        return replace(result, stats=replace(result.stats, nodes=used))

    def _search_once(self, state: GomokuState, limits: Limits) -> EngineResult:
        """One deepening under ``limits``: the last completed iteration's result."""
        partial: list[tuple[int, int]] = []
        iterations = self._deepen_in_kernel(state, limits, partial)
        last: Report | None = None
        while True:
            try:
                last = next(iterations)
            except StopIteration as finished:
                stats: EngineStats = finished.value
                break
        if last is not None:
            if partial and partial[0][0] != last.best_move:
                # the unfinished iteration found a move better than the last finished
                # one's at its greater depth (it raised the root's alpha, which the
                # finished best move's value had set first)
                move, value = partial[0]
                return EngineResult(move, value, (move,), None, stats)
            return EngineResult(last.best_move, last.score, last.pv, None, stats)
        game = self.game
        if game.is_terminal(state):
            mover = game.to_move(state)
            value = game.utility(state, mover)
            return EngineResult(None, WIN * value, (), None, stats)
        moves = self.root_moves(state)
        return EngineResult(moves[0] if moves else None, None, (), None, stats)

    def iterate(
        self, state: Any, limits: Limits | None = None, multipv: bool = False
    ) -> Generator[Report, None, EngineStats]:
        """Deepen from ``state`` in the kernel, one :class:`Report` per completed depth
        (see :meth:`Engine.iterate <zerosum.search.engine.Engine.iterate>`); with
        ``multipv``, the pure engine's deepening."""
        if multipv:
            return super().iterate(state, limits, multipv)
        return self._deepen_in_kernel(state, limits if limits is not None else Limits(), None)

    def _deepen_in_kernel(
        self, state: GomokuState, limits: Limits, partial: list[tuple[int, int]] | None
    ) -> Generator[Report, None, EngineStats]:
        start = time.perf_counter()
        game = self.game
        if game.is_terminal(state):
            return EngineStats(0, 0, 0, 0, 0, 0, 0.0, 0, True, False)
        kernel = self.kernel
        kernel.setup(state)
        kernel.new_search()
        deadline = start + limits.time if limits.time is not None else None
        node_limit = limits.nodes
        stop = limits.stop
        spent = 0

        def poll(nodes: int) -> int:
            """The next chunk's budget, or raise :class:`_LimitError` when a limit struck."""
            if stop is not None and stop.is_set():
                raise _LimitError
            if deadline is not None and time.perf_counter() >= deadline:
                raise _LimitError
            if node_limit is None:
                return CHUNK_NODES
            left = node_limit - nodes
            if left <= 0:
                raise _LimitError
            return min(CHUNK_NODES, left)

        def window(depth: int, alpha: int, beta: int) -> int:
            kernel.start(depth, alpha, beta)
            while not kernel.resume(poll(spent + kernel.nodes)):
                pass
            return kernel.value

        def stats(depth: int, stopped: bool) -> EngineStats:
            nodes = spent + kernel.nodes
            return EngineStats(
                nodes=nodes,
                cutoffs=0,
                table_hits=0,
                table_probes=0,
                depth=depth,
                seldepth=kernel.seldepth,
                time=time.perf_counter() - start,
                hashfull=kernel.hashfull(),
                solved=False,
                stopped=stopped,
            )

        if self.options.threats:
            budget = ROOT_VCF_BUDGET
            if node_limit is not None:
                budget = max(1, min(budget, node_limit // 4))
            line, spent = kernel.vcf(budget)
            share = self._weights_value("root_vct")
            if line is None and share > 0:
                # a victory by threes and fours, proven against every answer, is played
                # as it is: the main search may not see that far at this budget
                budget = ROOT_VCF_BUDGET
                if node_limit is not None:
                    budget = min(budget, node_limit * share // 100)
                if budget > 0:
                    line, used = kernel.vct(budget)
                    spent += used
            if line is not None:
                elapsed = time.perf_counter() - start
                yield Report(
                    depth=len(line),
                    score=WIN - len(line),
                    pv=tuple(line),
                    best_move=line[0],
                    nodes=spent,
                    nps=int(spent / elapsed) if elapsed > 0 else 0,
                    elapsed=elapsed,
                    hashfull=kernel.hashfull(),
                    seldepth=len(line),
                    solved=False,
                )
                return stats(len(line), False)
        last_depth = min(limits.depth if limits.depth is not None else MAX_DEPTH, MAX_DEPTH)
        previous: int | None = None
        completed = 0
        stopped = False
        for depth in range(1, last_depth + 1):
            try:
                if previous is None or depth < 4 or abs(previous) >= _MATE_BOUND:
                    value = window(depth, -_INF, _INF)
                else:
                    delta = _ASPIRATION
                    alpha, beta = previous - delta, previous + delta
                    while True:
                        value = window(depth, alpha, beta)
                        if value <= alpha:
                            alpha = max(value - delta, -_INF)
                        elif value >= beta:
                            beta = min(value + delta, _INF)
                        else:
                            break
                        delta *= 4
                        if delta > EVAL_LIMIT:
                            alpha, beta = -_INF, _INF
            except _LimitError:
                stopped = True
                found = kernel.best_move
                if (
                    partial is not None
                    and found is not None
                    and previous is not None
                    and self._weights_value("partial_root")
                ):
                    partial.append((found, engine_score(kernel.root_value)))
                break
            best = kernel.best_move
            if best is None:  # every move lost at once: any of them
                best = self.root_moves(state)[0]
            pv = kernel.principal_variation()
            if not pv or pv[0] != best:
                pv = [best]
            previous = value
            completed = depth
            elapsed = time.perf_counter() - start
            nodes = spent + kernel.nodes
            yield Report(
                depth=depth,
                score=engine_score(value),
                pv=tuple(pv),
                best_move=best,
                nodes=nodes,
                nps=int(nodes / elapsed) if elapsed > 0 else 0,
                elapsed=elapsed,
                hashfull=kernel.hashfull(),
                seldepth=kernel.seldepth,
                solved=False,
            )
            if value >= _MATE_BOUND or (value <= -_MATE_BOUND and depth > MATE + value):
                break
            if limits.soft_time is not None and elapsed >= limits.soft_time:
                break
        return stats(completed, stopped)
