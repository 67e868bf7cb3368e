"""Xiangqi evaluation in centipawns, for the side to move.

:func:`evaluate_material` counts material with the usual values (a chariot 900, a cannon
450, a horse 400, an advisor or elephant 200, a soldier 100 before the river and 200
across it, as most xiangqi programs weigh them): the baseline the full evaluation is
measured against (``bench/xiangqi_features.py``).

:func:`make_evaluate` adds any of four terms, red's minus black's:

* **piece-square values**: the piece-position tables of Huang Chen's XQWizard Light
  (象棋小巫师, the teaching engine of the xqbase.com "Chinese chess programming" series),
  less each piece's mean over the points it can stand on (before and across the river
  apart for soldiers, whose crossing the material counts already), times
  :data:`PST_SCALE` to turn its units (a chariot about 200) into ours;
* **king safety** (:data:`KING_SAFETY`): each missing advisor and elephant costs in
  proportion to the enemy's attackers (chariots counting twice, horses, cannons), and a
  general whose file ahead is open while the enemy has a chariot pays
  :data:`OPEN_FILE`;
* **mobility**: a horse's free jumps (its legs unblocked, the target not its own piece,
  :data:`HORSE_MOBILITY`) and a chariot's reachable points (:data:`CHARIOT_MOBILITY`
  each);
* **cannon screens** (:data:`CANNON_SCREENS`): a cannon on the enemy general's file or
  rank, by the number of pieces between them: none (the "empty-head cannon", 空头炮,
  which pins the general's file), one (a check) or two (the central cannon's pressure).

Each term was played against the evaluation without it at 2000 nodes a move
(``bench/xiangqi_features.py``, 40 to 60 games): the piece-square values proved out
(+101 Elo, 95% interval +25 to +189) and are on by default, so :func:`evaluate` is
material and piece-square values. King safety (+0), mobility (+44, -54 to +149) and
cannon screens (-44, -145 to +51) did not, and are off by default; they cost more than
the piece-square values do (a call takes about five times as long with all four).
"""

from __future__ import annotations

from collections.abc import Callable

from zerosum.games.xiangqi.rules import (
    BLACK_HALF,
    FILE_LINES,
    FILE_MASKS,
    HORSE_LEGS,
    HORSE_MOVES,
    RANK_LINES,
    RED_HALF,
    ROW_BASE,
    State,
    lines,
)

__all__ = [
    "CACHE_BOUND",
    "CANNON_SCREENS",
    "CHARIOT_MOBILITY",
    "FULL_ATTACK",
    "HORSE_MOBILITY",
    "KING_SAFETY",
    "OPEN_FILE",
    "PIECE_VALUES",
    "PST_SCALE",
    "SOLDIER_ACROSS",
    "SQUARE_VALUES",
    "evaluate",
    "evaluate_material",
    "make_evaluate",
]

PIECE_VALUES = (100, 200, 200, 400, 450, 900, 0)
"""Centipawns of a soldier (before the river), advisor, elephant, horse, cannon, chariot
and general."""
SOLDIER_ACROSS = 100
"""What a soldier gains once across the river, where it may also step sideways."""


def evaluate_material(state: State) -> int:
    """Return the material balance for the side to move."""
    red, black = state[0], state[1]
    score = 0
    for value, pieces in zip(PIECE_VALUES, state[2:9], strict=True):
        score += value * ((pieces & red).bit_count() - (pieces & black).bit_count())
    soldiers = state[2]
    score += SOLDIER_ACROSS * (
        (soldiers & red & BLACK_HALF).bit_count() - (soldiers & black & RED_HALF).bit_count()
    )
    return -score if state[9] else score


# --------------------------------------------------------------------------- tables

# XQWizard Light's piece-position values as published, red's view: black's back rank
# (rank 9) first, files a to i left to right; points a piece never reaches are 0.
_XQWL = (
    (  # soldier
        9, 9, 9, 11, 13, 11, 9, 9, 9,
        19, 24, 34, 42, 44, 42, 34, 24, 19,
        19, 24, 32, 37, 37, 37, 32, 24, 19,
        19, 23, 27, 29, 30, 29, 27, 23, 19,
        14, 18, 20, 27, 29, 27, 20, 18, 14,
        7, 0, 13, 0, 16, 0, 13, 0, 7,
        7, 0, 7, 0, 15, 0, 7, 0, 7,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
    ),
    (  # advisor
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 20, 0, 20, 0, 0, 0,
        0, 0, 0, 0, 23, 0, 0, 0, 0,
        0, 0, 0, 20, 0, 20, 0, 0, 0,
    ),
    (  # elephant
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 20, 0, 0, 0, 20, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        18, 0, 0, 0, 23, 0, 0, 0, 18,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 20, 0, 0, 0, 20, 0, 0,
    ),
    (  # horse
        90, 90, 90, 96, 90, 96, 90, 90, 90,
        90, 96, 103, 97, 94, 97, 103, 96, 90,
        92, 98, 99, 103, 99, 103, 99, 98, 92,
        93, 108, 100, 107, 100, 107, 100, 108, 93,
        90, 100, 99, 103, 104, 103, 99, 100, 90,
        90, 98, 101, 102, 103, 102, 101, 98, 90,
        92, 94, 98, 95, 98, 95, 98, 94, 92,
        93, 92, 94, 95, 92, 95, 94, 92, 93,
        85, 90, 92, 93, 78, 93, 92, 90, 85,
        88, 85, 90, 88, 90, 88, 90, 85, 88,
    ),
    (  # cannon
        100, 100, 96, 91, 90, 91, 96, 100, 100,
        98, 98, 96, 92, 89, 92, 96, 98, 98,
        97, 97, 96, 91, 92, 91, 96, 97, 97,
        96, 99, 99, 98, 100, 98, 99, 99, 96,
        96, 96, 96, 96, 100, 96, 96, 96, 96,
        95, 96, 99, 96, 100, 96, 99, 96, 95,
        96, 96, 96, 96, 96, 96, 96, 96, 96,
        97, 96, 100, 99, 101, 99, 100, 96, 97,
        96, 97, 98, 98, 98, 98, 98, 97, 96,
        96, 96, 97, 99, 99, 99, 97, 96, 96,
    ),
    (  # chariot
        206, 208, 207, 213, 214, 213, 207, 208, 206,
        206, 212, 209, 216, 233, 216, 209, 212, 206,
        206, 208, 207, 214, 216, 214, 207, 208, 206,
        206, 213, 213, 216, 216, 216, 213, 213, 206,
        208, 211, 211, 214, 215, 214, 211, 211, 208,
        208, 212, 212, 214, 215, 214, 212, 212, 208,
        204, 209, 204, 212, 214, 212, 204, 209, 204,
        198, 208, 204, 212, 212, 212, 204, 208, 198,
        200, 208, 206, 212, 200, 212, 206, 208, 200,
        194, 206, 204, 212, 200, 212, 204, 206, 194,
    ),
    (  # general
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 1, 1, 1, 0, 0, 0,
        0, 0, 0, 2, 2, 2, 0, 0, 0,
        0, 0, 0, 11, 15, 11, 0, 0, 0,
    ),
)  # fmt: skip

_PALACE = {3, 4, 5, 12, 13, 14, 21, 22, 23}
_ADVISOR_POINTS = {3, 5, 13, 21, 23}
_ELEPHANT_POINTS = {2, 6, 18, 22, 26, 38, 42}
_REACHABLE = (
    set(range(90)),  # soldiers: means taken apart by half below
    _ADVISOR_POINTS,
    _ELEPHANT_POINTS,
    set(range(90)),
    set(range(90)),
    set(range(90)),
    _PALACE,
)
"""The points (red's) each piece can stand on, over which its table's mean is taken."""
_SOLDIER_POINTS = (
    {sq for sq in range(27, 45) if sq % 9 in (0, 2, 4, 6, 8)},  # before the river
    set(range(45, 90)),
)

PST_SCALE = 4
"""Centipawns per XQWizard Light unit (its chariot is worth about 206, its horse 90)."""


def _square_values() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Per colour and piece, each point's material plus piece-square centipawns."""
    red = []
    for piece, published in enumerate(_XQWL):
        # red's point sq is at published row 9 - rank, column file
        values = [published[9 * (9 - sq // 9) + sq % 9] for sq in range(90)]
        table = [0] * 90
        if piece == 0:
            for half, points in enumerate(_SOLDIER_POINTS):
                mean = sum(values[sq] for sq in points) / len(points)
                for sq in points:
                    table[sq] = (
                        PIECE_VALUES[0]
                        + SOLDIER_ACROSS * half
                        + round(PST_SCALE * (values[sq] - mean))
                    )
        else:
            points = _REACHABLE[piece]
            mean = sum(values[sq] for sq in points) / len(points)
            for sq in points:
                table[sq] = PIECE_VALUES[piece] + round(PST_SCALE * (values[sq] - mean))
        red.append(tuple(table))
    # black's point sq mirrors red's 89 - sq (the tables are symmetric left to right)
    black = [tuple(table[89 - sq] for sq in range(90)) for table in red]
    return tuple(red), tuple(black)


SQUARE_VALUES = _square_values()
"""``SQUARE_VALUES[colour][piece][sq]``: material plus the piece-square value."""

KING_SAFETY = (60, 40)
"""Centipawns a missing advisor and a missing elephant cost against the full attack
(:data:`FULL_ATTACK`); less in proportion against fewer attackers."""
FULL_ATTACK = 8
"""The attack of two chariots, two horses and two cannons: chariots count twice."""
OPEN_FILE = 30
"""Centipawns a general pays when no piece stands ahead of it on its file and the enemy
has a chariot."""
HORSE_MOBILITY = (-40, -20, -8, 0, 6, 12, 16, 20, 24)
"""Centipawns of a horse by its number of free jumps (0 to 8): a horse whose legs are
all blocked is nearly lost."""
CHARIOT_MOBILITY = 5
"""Centipawns for each point a chariot reaches (empty, or an enemy piece)."""
CACHE_BOUND = 1 << 16
"""The most entries each piece kind's cache of material and piece-square values holds;
a full cache is emptied (the positions of one search share most of their entries)."""
CANNON_SCREENS = (80, 10, 30)
"""Centipawns of a cannon on the enemy general's file or rank with 0, 1 or 2 pieces
between them (none beyond two)."""


def _king_safety_table() -> tuple[int, ...]:
    """Index ``(advisors * 3 + elephants) * (FULL_ATTACK + 1) + attack``: the penalty."""
    values: list[int] = []
    for advisors in range(3):
        for elephants in range(3):
            missing = KING_SAFETY[0] * (2 - advisors) + KING_SAFETY[1] * (2 - elephants)
            values.extend(missing * attack // FULL_ATTACK for attack in range(FULL_ATTACK + 1))
    return tuple(values)


_SAFETY = _king_safety_table()


def _between() -> tuple[dict[int, int], ...]:
    """Per point, for every point on its rank or file: the points strictly between."""
    table: list[dict[int, int]] = []
    for a in range(90):
        row: dict[int, int] = {}
        for b in range(90):
            if a == b or (a // 9 != b // 9 and a % 9 != b % 9):
                continue
            step = (1 if b > a else -1) * (1 if a // 9 == b // 9 else 9)
            row[b] = sum(1 << sq for sq in range(a + step, b, step))
        table.append(row)
    return tuple(table)


_BETWEEN = _between()
"""``_BETWEEN[a][b]``: the points strictly between ``a`` and ``b`` on one rank or file
(``b`` absent when they share neither)."""


def _ahead() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per colour and point: the points of its file towards the enemy."""
    red = tuple(sum(1 << (9 * r + sq % 9) for r in range(sq // 9 + 1, 10)) for sq in range(90))
    black = tuple(sum(1 << (9 * r + sq % 9) for r in range(sq // 9)) for sq in range(90))
    return red, black


_AHEAD = _ahead()
"""``_AHEAD[colour][sq]``: the rest of ``sq``'s file on the enemy's side of it."""


# --------------------------------------------------------------------------- evaluation


def make_evaluate(
    *,
    squares: bool = True,
    king_safety: bool = False,
    mobility: bool = False,
    cannons: bool = False,
) -> Callable[[State], int]:
    """Return an evaluation (centipawns, for the side to move) of material and the terms
    switched on: piece-square values, king safety, mobility, cannon screens (see the
    module notes). The defaults are the terms that proved out, :func:`evaluate`'s."""
    red_values, black_values = SQUARE_VALUES if squares else _flat_values()
    safety_table, horse_mobility, between, ahead = _SAFETY, HORSE_MOBILITY, _BETWEEN, _AHEAD
    horse_moves, horse_legs = HORSE_MOVES, HORSE_LEGS
    rank_lines, file_lines, file_masks, row_base = RANK_LINES, FILE_LINES, FILE_MASKS, ROW_BASE
    screens = CANNON_SCREENS
    chariot_mobility, open_file, full = CHARIOT_MOBILITY, OPEN_FILE, FULL_ATTACK
    # a cache per piece kind, from its points (red's shifted above all of them) to their
    # value: a move changes one kind or two, so most lookups in a search find theirs
    caches: list[dict[int, int]] = [{} for _ in range(7)]

    def placed(pieces: int, table: tuple[int, ...]) -> int:
        total = 0
        while pieces:
            low = pieces & -pieces
            total += table[low.bit_length() - 1]
            pieces ^= low
        return total

    def evaluate(state: State) -> int:
        red, black = state[0], state[1]
        score = 0
        for pieces, cache, reds, blacks in zip(
            state[2:9], caches, red_values, black_values, strict=True
        ):
            own = pieces & red
            key = own << 90 | pieces
            value = cache.get(key)
            if value is None:
                if len(cache) > CACHE_BOUND:
                    cache.clear()
                value = cache[key] = placed(own, reds) - placed(pieces ^ own, blacks)
            score += value
        if not (king_safety or mobility or cannons):
            return -score if state[9] else score
        occupied = red | black
        horses, cannon_set, chariots, generals = state[5], state[6], state[7], state[8]
        red_general = (generals & red).bit_length() - 1
        black_general = (generals & black).bit_length() - 1
        if king_safety:
            red_attack = (
                2 * (chariots & red).bit_count() + ((horses | cannon_set) & red).bit_count()
            )
            black_attack = (
                2 * (chariots & black).bit_count() + ((horses | cannon_set) & black).bit_count()
            )
            advisors, elephants = state[3], state[4]
            score -= safety_table[
                ((advisors & red).bit_count() * 3 + (elephants & red).bit_count()) * (full + 1)
                + min(black_attack, full)
            ]
            score += safety_table[
                ((advisors & black).bit_count() * 3 + (elephants & black).bit_count()) * (full + 1)
                + min(red_attack, full)
            ]
            if red_general >= 0 and chariots & black and not ahead[0][red_general] & occupied:
                score -= open_file
            if black_general >= 0 and chariots & red and not ahead[1][black_general] & occupied:
                score += open_file
        if mobility:
            for own, sign in ((red, 1), (black, -1)):
                free = ~own
                pieces = horses & own
                while pieces:
                    low = pieces & -pieces
                    pieces ^= low
                    sq = low.bit_length() - 1
                    count = (horse_moves[sq][occupied & horse_legs[sq]] & free).bit_count()
                    score += sign * horse_mobility[count]
                pieces = chariots & own
                while pieces:
                    low = pieces & -pieces
                    pieces ^= low
                    sq = low.bit_length() - 1
                    base = row_base[sq]
                    file = file_lines[sq].get(occupied & file_masks[sq]) or lines(sq, occupied)
                    reach = rank_lines[sq - base][occupied >> base & 511][0] << base | file[0]
                    score += sign * chariot_mobility * (reach & free).bit_count()
        if cannons:
            pieces = cannon_set
            while pieces:
                low = pieces & -pieces
                pieces ^= low
                sq = low.bit_length() - 1
                if red & low:
                    line = between[sq].get(black_general)
                    if line is not None:
                        count = (line & occupied).bit_count()
                        if count < 3:
                            score += screens[count]
                else:
                    line = between[sq].get(red_general)
                    if line is not None:
                        count = (line & occupied).bit_count()
                        if count < 3:
                            score -= screens[count]
        return -score if state[9] else score

    return evaluate


def _flat_values() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """:data:`SQUARE_VALUES` without the piece-square part: material by point."""
    red = []
    for piece in range(7):
        value = PIECE_VALUES[piece]
        if piece == 0:
            red.append(tuple(value + (SOLDIER_ACROSS if sq >= 45 else 0) for sq in range(90)))
        else:
            red.append((value,) * 90)
    black = [tuple(table[89 - sq] for sq in range(90)) for table in red]
    return tuple(red), tuple(black)


evaluate = make_evaluate()
"""The engine's evaluation: material and piece-square values, for the side to move (the
terms that proved out in a match, see the module notes)."""
