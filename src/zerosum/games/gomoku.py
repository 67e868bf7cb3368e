"""Gomoku: five in a row on a board from 7x7 to 25x25, with the knowledge of a strong engine.

Black (player 0) moves first; the players alternately put a stone on an empty cell, and
the first to line up five across, down or diagonally wins. Under the ``freestyle`` rule
five *or more* win; under ``exact5`` only exactly five do (an overline is no win). A
full board without a win is a draw.

Cells are numbered ``y * width + x``: ``x`` is the column from the left and ``y`` the
row from the **top**, both from 0, exactly as the Gomocup protocol numbers them. In the
notation a cell is its column letter and its row counted from the bottom, from 1
(``h8`` is the centre of 15x15, ``x = 7, y = 7``), or Gomocup's ``x,y`` (``7,7``).

**Lines.** Every row, column and diagonal at least five cells long is a *line*. A line's
content (its black and white stones as two small ints) is analysed once and the
:class:`LineInfo` memoised: the cells where each side makes five, makes a four (a move
after which it threatens five), makes an *open four* (two cells to make five: no single
block stops it) and which cells defend an open three; a pattern score; and a value of
each empty cell for move ordering. A state keeps the info of every line; playing a stone
replaces only the (at most four) lines through it, and updates the totals the engine
needs at every node (both sides' pattern scores, one flag byte per line in one int, the
Zobrist key), so :meth:`Gomoku.evaluate`, :meth:`Gomoku.winning_action` and the threat
tests are a few integer operations.

**Engine knowledge.** :meth:`Gomoku.non_losing_actions` is the move list the engine
searches: the move that makes five when there is one; else the block of the opponent's
four (nothing when two fours cannot both be blocked: lost); else, facing an open three,
the cells that stop it and the mover's own fours; else the empty cells within two of a
stone, best first by the pattern value of each cell for both sides, the best
:data:`BREADTH` of them (remembered by position: iterative deepening asks again).
:meth:`Gomoku.forced_win` looks for a victory by continuous
fours (VCF) and, at the root, by threes and fours (VCT): see
:mod:`zerosum.games.gomoku_threats`.

**Renju.** Under ``rule="renju"`` black wins by exactly five (its lines are analysed as
under ``exact5``, white's as under ``freestyle``) and may not play a forbidden move:
:meth:`Gomoku.forbidden` applies RIF's definitions (overline, two fours, two real threes,
a three being real when a stone that makes it a straight four is itself allowed, asked
recursively), to the cells :meth:`Gomoku.forbidden_cells` picks from the line analyses
(those where black makes a four, an overline, or a three on two lines); the legal moves,
the engine's move lists and black's threat search leave them out.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar

from zerosum.game import (
    BoardView,
    GameInfo,
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    Player,
    winning_line,
)
from zerosum.games import gomoku_threats
from zerosum.games.bitboards import bit_indices

if TYPE_CHECKING:
    from zerosum.search.engine import Engine, EngineOptions

__all__ = [
    "BREADTH",
    "FORBIDDEN_REASONS",
    "MAX_SIDE",
    "MIN_SIDE",
    "RULES",
    "Gomoku",
    "GomokuState",
    "LineInfo",
]

MIN_SIDE = 7
"""The narrowest and lowest board."""

MAX_SIDE = 25
"""The widest and highest board: one column letter per column, ``a`` to ``y``."""

RULES = ("freestyle", "exact5", "renju")
"""The rules: five or more in a row win; exactly five; renju (black wins by exactly
five and may not play a forbidden move, white wins by five or more)."""

FORBIDDEN_REASONS = ("overline", "double four", "double three")
"""Why a black move is forbidden under renju: it makes six or more in a row, two fours,
or two real threes (and no five)."""

BREADTH = 20
"""How many quiet candidate moves the engine searches at an interior node, best first."""

_FIVE = 5
_NEIGHBOURHOOD = 2
"""Candidates lie within this many cells (in each direction) of some stone."""

# flag bits of a line, per player p: WIN (a cell makes five), FOUR (a cell makes a four),
# OPEN (a cell makes an open four: an open three), FIVE (five on the line)
_WIN, _FOUR, _OPEN, _FIVE_FLAG = 1, 4, 16, 64
_FLAG_BITS = 8
_LINE_SHIFT = 32  # white's stones sit this many bits above black's in a line code
_LENGTH_SHIFT = 64  # and the line's length above both, so lines of any length share a cache
_RANKED_LIMIT = 1 << 14
"""Move lists kept by Zobrist key before that memo is emptied: iterative deepening asks
again at about a quarter of the interior nodes, and ranking is about 15% of the time.
Tuples of ints (about 250 bytes each, 4 MB in all), which the garbage collector stops
walking."""
_SPREAD_SHIFT = 10  # a line's index fits below this bit: 25x25 has 132 lines
_SPREAD_LIMIT = 1 << 16
"""Board masks of a line's cells kept by (line, positions) before that memo is emptied:
the threat masks of lines are few bits each, so a game meets a few thousand."""
_CACHE_LIMIT = 1 << 15
"""Line analyses kept before the cache is emptied (states keep the ones they hold): about
900 bytes each, so at most ~30 MB, which a Gomocup memory limit must leave room for; a
whole game meets a few thousand."""

# pattern values, for the evaluation (per line) and for ordering (per empty cell)
_WINDOW_SCORE = (0, 1, 8, 40, 120, 0)
"""A line's worth from each five-cell window holding only one side's stones, by count."""
_WINDOW_MOVE = (1, 4, 20, 90, 0, 0)
"""An empty cell's worth from each such window through it, by the stones already there."""
_FOUR_SCORE = 600
_OPEN_FOUR_SCORE = 8_000
_THREE_SCORE = 500
_CLOSED_THREE_SCORE = 60
_MOVE_FIVE = 1_000_000
_MOVE_OPEN_FOUR = 20_000
_MOVE_FOUR = 1_500
_ATTACK, _DEFENCE = 5, 4
"""Weights of a cell's value for the mover and for the opponent when ordering moves."""

# evaluation of the threats that decide the next few plies
_EVAL_FIVE_NEXT = 40_000
_EVAL_DOUBLE_FOUR = 30_000
_EVAL_OPEN_FOUR_NEXT = 12_000
_EVAL_DOUBLE_THREE = 5_000

_LETTERS = "abcdefghijklmnopqrstuvwxy"
_LETTER_FORM = re.compile(r"([a-y])([0-9]{1,2})", re.ASCII)
_NUMBER_FORM = re.compile(r"([0-9]{1,3})\s*,\s*([0-9]{1,3})", re.ASCII)
_RENDER = "·XO"
_COLOURS = ("black", "white")
_ZOBRIST_SEED = 0x60_6D_0C_05


class LineInfo:
    """The memoised analysis of one line's content, for both players.

    Per player ``p`` (indexed 0 black, 1 white), as bit masks over the line's positions:
    ``wins[p]`` the empty cells where ``p`` makes five; ``fours[p]`` where ``p`` makes a
    four or better (afterwards a cell that did not already make five does);
    ``opens[p]`` where ``p`` makes an open four (two cells make five); ``defences[p]``
    the cells where the *opponent's* stone leaves ``p`` no open four to make (computed
    only when ``opens[p]`` is set); ``scores[p]`` the pattern value of the line for
    ``p``; ``moves[p]`` per position the ordering value of the cell for ``p`` to move
    there (its worth to ``p`` and to the opponent), 0 on stones. ``flags`` packs the
    ``_WIN``/``_FOUR``/``_OPEN``/``_FIVE`` bits of both players. The cells where ``p``
    makes an open three are computed on demand by :meth:`threes` (only the threat
    search and renju's forbidden moves need them).

    ``exact`` says per player whether only exactly five win (``exact5`` both, ``renju``
    black alone); a player's five cells, fours and open fours are then exact fives."""

    __slots__ = (
        "_exact",
        "_threes",
        "code",
        "defences",
        "flags",
        "fours",
        "moves",
        "opens",
        "score0",
        "score1",
        "wins",
    )

    code: int
    flags: int
    score0: int
    score1: int
    wins: tuple[int, int]
    fours: tuple[int, int]
    opens: tuple[int, int]
    defences: tuple[int, int]
    moves: tuple[tuple[int, ...], tuple[int, ...]]
    _threes: tuple[int, int] | None
    _exact: tuple[bool, bool]

    def __init__(self, code: int, exact: tuple[bool, bool]) -> None:
        self.code = code
        length = code >> _LENGTH_SHIFT
        stones = (code & 0xFFFFFFFF, (code >> _LINE_SHIFT) & 0xFFFFFFFF)
        flags = 0
        wins = [0, 0]
        fours = [0, 0]
        opens = [0, 0]
        defences = [0, 0]
        scores = [0, 0]
        values: list[list[int]] = [[0] * length, [0] * length]
        full = (1 << length) - 1
        empty = full & ~(stones[0] | stones[1])
        for p in (0, 1):
            own, their = stones[p], stones[1 - p]
            windows = _windows(length, exact[p])
            value = values[p]
            score = 0
            near_four = 0
            for mask, _, cells in windows:
                if their & mask:
                    continue
                count = (own & mask).bit_count()
                score += _WINDOW_SCORE[count]
                gain = _WINDOW_MOVE[count]
                for cell in cells:
                    value[cell] += gain
                if count >= _FIVE - 2:
                    near_four |= mask
            near_four &= empty
            if _has_five(own, windows):
                flags |= _FIVE_FLAG << p
            win = _five_cells(own, their, windows)
            four = opened = 0
            for cell in bit_indices(near_four & ~win):
                made = _five_cells(own | 1 << cell, their, windows)
                if made & ~win:
                    four |= 1 << cell
                    if made & (made - 1):
                        opened |= 1 << cell
            if win:
                flags |= _WIN << p
                score += _OPEN_FOUR_SCORE if win & (win - 1) else _FOUR_SCORE
            if four:
                flags |= _FOUR << p
                score += _CLOSED_THREE_SCORE
            if opened:
                flags |= _OPEN << p
                score += _THREE_SCORE
                defence = 0
                for cell in bit_indices(near_four):
                    if not _open_cells(own, their | 1 << cell, windows, empty & ~(1 << cell)):
                        defence |= 1 << cell
                defences[p] = defence
            for cell in bit_indices(win):
                value[cell] += _MOVE_FIVE
            for cell in bit_indices(opened):
                value[cell] += _MOVE_OPEN_FOUR
            for cell in bit_indices(four & ~opened):
                value[cell] += _MOVE_FOUR
            wins[p], fours[p], opens[p], scores[p] = win, four, opened, score
        first, second = values
        self.moves = (
            tuple(
                _ATTACK * first[i] + _DEFENCE * second[i] if empty >> i & 1 else 0
                for i in range(length)
            ),
            tuple(
                _ATTACK * second[i] + _DEFENCE * first[i] if empty >> i & 1 else 0
                for i in range(length)
            ),
        )
        self.flags = flags
        self.score0, self.score1 = scores
        self.wins = (wins[0], wins[1])
        self.fours = (fours[0], fours[1])
        self.opens = (opens[0], opens[1])
        self.defences = (defences[0], defences[1])
        self._threes = None
        self._exact = exact

    def threes(self, player: Player) -> int:
        """Return the empty cells where ``player`` makes an open three (not a four)."""
        if self._threes is None:
            code = self.code
            length = code >> _LENGTH_SHIFT
            stones = (code & 0xFFFFFFFF, (code >> _LINE_SHIFT) & 0xFFFFFFFF)
            empty = ((1 << length) - 1) & ~(stones[0] | stones[1])
            found = [0, 0]
            for p in (0, 1):
                own, their = stones[p], stones[1 - p]
                windows = _windows(length, self._exact[p])
                near = 0
                for mask, _, _ in windows:
                    if not their & mask and (own & mask).bit_count() >= _FIVE - 3:
                        near |= mask
                for cell in bit_indices(near & empty & ~self.fours[p]):
                    bit = 1 << cell
                    if _open_cells(own | bit, their, windows, empty & ~bit):
                        found[p] |= bit
            self._threes = (found[0], found[1])
        return self._threes[player]


_WINDOW_CACHE: dict[tuple[int, bool], tuple[tuple[int, int, tuple[int, ...]], ...]] = {}


def _windows(length: int, exact: bool) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """The five-cell windows of a line of ``length``: mask, the cells just outside it
    (which must not hold the owner's stones under the exact-five rule, else 0), cells."""
    key = (length, exact)
    found = _WINDOW_CACHE.get(key)
    if found is None:
        rows = []
        for start in range(length - _FIVE + 1):
            outside = 0
            if exact:
                if start > 0:
                    outside |= 1 << (start - 1)
                if start + _FIVE < length:
                    outside |= 1 << (start + _FIVE)
            rows.append(
                (
                    ((1 << _FIVE) - 1) << start,
                    outside,
                    tuple(range(start, start + _FIVE)),
                )
            )
        found = _WINDOW_CACHE[key] = tuple(rows)
    return found


def _has_five(own: int, windows: tuple[tuple[int, int, tuple[int, ...]], ...]) -> bool:
    """Tell whether ``own`` holds a winning five on the line."""
    return any(own & mask == mask and not own & outside for mask, outside, _ in windows)


def _five_cells(own: int, their: int, windows: tuple[tuple[int, int, tuple[int, ...]], ...]) -> int:
    """The empty cells where a stone of ``own`` makes a winning five."""
    found = 0
    for mask, outside, _ in windows:
        if their & mask or own & outside:
            continue
        inside = own & mask
        if inside.bit_count() == _FIVE - 1:
            found |= mask ^ inside
    return found


def _open_cells(
    own: int, their: int, windows: tuple[tuple[int, int, tuple[int, ...]], ...], empty: int
) -> int:
    """The cells of ``empty`` where a stone of ``own`` makes an open four (two fives)."""
    near = 0
    for mask, _, _ in windows:
        if not their & mask and (own & mask).bit_count() >= _FIVE - 2:
            near |= mask
    found = 0
    for cell in bit_indices(near & empty):
        made = _five_cells(own | 1 << cell, their, windows)
        if made & (made - 1):
            found |= 1 << cell
    return found


def _run_through(own: int, position: int) -> tuple[int, int]:
    """The first and last positions of the run of ``own``'s stones through ``position``."""
    low = high = position
    while low > 0 and own >> (low - 1) & 1:
        low -= 1
    while own >> (high + 1) & 1:
        high += 1
    return low, high


_MADE_FIVE, _MADE_OVERLINE = 1, 2


def _renju_shape(own: int, their: int, position: int, length: int) -> tuple[int, int, int]:
    """What black's stone on ``position`` of a line makes there, by renju's definitions:
    (five or overline, else 0; how many fours; where a stone would then make a straight
    four through ``position``, the points of a three, empty when it made a four).

    A four is a set of four stones, the new one among them, that one more stone turns
    into exactly five: a straight four (``.XXXX.``) is one four with two such points,
    ``X.XXX.X`` with the stone in the middle two. A three's points are only candidates:
    the three is real when one of them is not itself forbidden, which takes the board."""
    own |= 1 << position
    low, high = _run_through(own, position)
    if high - low + 1 == _FIVE:
        return _MADE_FIVE, 0, 0
    if high - low + 1 > _FIVE:
        return _MADE_OVERLINE, 0, 0
    windows = _windows(length, True)
    bit = 1 << position
    fours = {
        own & mask
        for mask, outside, _ in windows
        if mask & bit
        and not their & mask
        and not own & outside
        and (own & mask).bit_count() == _FIVE - 1
    }
    if fours:
        return 0, len(fours), 0
    points = 0
    empty = ((1 << length) - 1) & ~(own | their)
    near = empty & (((1 << 9) - 1) << position >> 4)
    for g in bit_indices(near):
        after = own | 1 << g
        start, end = _run_through(after, g)
        if end - start + 1 != _FIVE - 1 or not start <= position <= end:
            continue
        if start == 0 or end == length - 1:
            continue
        ends = 1 << (start - 1) | 1 << (end + 1)
        if _five_cells(after, their, windows) & ends == ends:
            points |= 1 << g
    return 0, 0, points


class GomokuState(tuple):  # type: ignore[type-arg]
    """A gomoku position: immutable and hashable, equal when the stones and the side to
    move are equal.

    It is a tuple for speed; the properties name what the engine reads by index:
    the stones of each side as bit masks over the cells, the side to move, the line
    analyses, the flag bytes of every line packed in one int, both sides' pattern
    scores, the Zobrist key (side to move included), the cells near a stone, the winner
    (``-1`` while nobody has five), the number of stones and the moves played from the
    empty board (``None`` for a position set up from its stones)."""

    __slots__ = ()

    @property
    def black(self) -> int:
        """The cells of black's stones, as a bit mask."""
        return int(self[0])

    @property
    def white(self) -> int:
        """The cells of white's stones, as a bit mask."""
        return int(self[1])

    @property
    def mover(self) -> Player:
        """The player to move."""
        return int(self[2])

    @property
    def winner(self) -> Player | None:
        """The player with five in a row, if any."""
        return None if self[9] < 0 else int(self[9])

    @property
    def stones(self) -> int:
        """The number of stones on the board."""
        return int(self[10])

    @property
    def history(self) -> tuple[int, ...] | None:
        """The moves from the empty board, or ``None`` for a position set up from stones."""
        moves: tuple[int, ...] | None = self[11]
        return moves

    @property
    def last(self) -> int | None:
        """The cell of the latest move, if the position knows it."""
        moves = self.history
        return moves[-1] if moves else None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GomokuState):
            return NotImplemented
        return bool(self[0] == other[0] and self[1] == other[1] and self[2] == other[2])

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self[7])

    def __repr__(self) -> str:
        black, white = bit_indices(self[0]), bit_indices(self[1])
        return f"GomokuState(black={black}, white={white}, to_move={self[2]})"


# the state's fields, by index (the hot path reads them so)
_BLACK, _WHITE, _MOVER, _INFOS, _MARKS, _SCORE0, _SCORE1 = 0, 1, 2, 3, 4, 5, 6
_KEY, _NEAR, _WINNER, _COUNT, _HISTORY = 7, 8, 9, 10, 11
_new_state = tuple.__new__


class Gomoku:
    """Gomoku on a board ``width`` columns wide and ``height`` rows high (7 to 25).

    ``height`` defaults to ``width``; ``rule`` is ``"freestyle"`` (five or more win),
    ``"exact5"`` (exactly five) or ``"renju"`` (black wins by exactly five and may not
    play a forbidden move, :meth:`forbidden`; white by five or more). Raises
    :class:`~zerosum.game.InvalidGameError` naming the bad value. Actions are cells
    ``y * width + x`` (``x`` from the left, ``y`` from the top); states are
    :class:`GomokuState`."""

    __slots__ = (
        "_cache",
        "_cell_lines",
        "_centre",
        "_clear",
        "_exact",
        "_flag_masks",
        "_forbidden_memo",
        "_full",
        "_line_cells",
        "_neighbours",
        "_ranked_memo",
        "_renju",
        "_side_key",
        "_spread_memo",
        "_start",
        "_vcf_failed",
        "_zobrist",
        "cells",
        "height",
        "info",
        "rule",
        "threat_budgets",
        "width",
    )

    width: int
    """The number of columns."""
    height: int
    """The number of rows."""
    rule: str
    """``"freestyle"``, ``"exact5"`` or ``"renju"``."""
    cells: int
    """``width * height``."""
    threat_budgets: tuple[int, int, int]
    """Node budgets of the threat search: VCF at the horizon, VCF and VCT at the root."""

    DEFAULT_BUDGETS: ClassVar[tuple[int, int, int]] = (20, 3_000, 3_000)
    """The default :attr:`threat_budgets`."""

    def __init__(self, width: int = 15, height: int | None = None, rule: str = "freestyle") -> None:
        if height is None:
            height = width
        for name, value in (("width", width), ("height", height)):
            if type(value) is not int or not MIN_SIDE <= value <= MAX_SIDE:
                raise InvalidGameError(
                    f"gomoku {name} must be an integer from {MIN_SIDE} to {MAX_SIDE}, not {value!r}"
                )
        if rule not in RULES:
            raise InvalidGameError(
                f"unknown gomoku rule {rule!r}: use {' or '.join(map(repr, RULES))}"
            )
        self.width, self.height, self.rule = width, height, rule
        self._exact = (rule != "freestyle", rule == "exact5")
        self._renju = rule == "renju"
        self.cells = cells = width * height
        self._full = (1 << cells) - 1
        self._centre = (height // 2) * width + width // 2
        self.threat_budgets = self.DEFAULT_BUDGETS
        lines: list[list[int]] = []
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            for y in range(height):
                for x in range(width):
                    # a line starts where the step back leaves the board
                    if 0 <= x - dx < width and 0 <= y - dy < height:
                        continue
                    line = []
                    cx, cy = x, y
                    while 0 <= cx < width and 0 <= cy < height:
                        line.append(cy * width + cx)
                        cx, cy = cx + dx, cy + dy
                    if len(line) >= _FIVE:
                        lines.append(line)
        self._line_cells = tuple(tuple(line) for line in lines)
        through: list[list[tuple[int, int]]] = [[] for _ in range(cells)]
        for index, line in enumerate(lines):
            for position, cell in enumerate(line):
                through[cell].append((index, position))
        self._cell_lines = tuple(tuple(t) for t in through)
        self._clear = tuple(
            ~(((1 << _FLAG_BITS) - 1) << (_FLAG_BITS * i)) for i in range(len(lines))
        )
        every = sum(1 << (_FLAG_BITS * i) for i in range(len(lines)))
        self._flag_masks = {
            flag << p: every * (flag << p)
            for flag in (_WIN, _FOUR, _OPEN, _FIVE_FLAG)
            for p in (0, 1)
        }
        neighbours = []
        for cell in range(cells):
            y, x = divmod(cell, width)
            mask = 0
            for ny in range(max(0, y - _NEIGHBOURHOOD), min(height, y + _NEIGHBOURHOOD + 1)):
                for nx in range(max(0, x - _NEIGHBOURHOOD), min(width, x + _NEIGHBOURHOOD + 1)):
                    mask |= 1 << (ny * width + nx)
            neighbours.append(mask)
        self._neighbours = tuple(neighbours)
        rng = random.Random(_ZOBRIST_SEED ^ (width << 8) ^ height)
        self._zobrist = (
            tuple(rng.getrandbits(64) for _ in range(cells)),
            tuple(rng.getrandbits(64) for _ in range(cells)),
        )
        self._side_key = rng.getrandbits(64)
        self._cache: dict[int, LineInfo] = {}
        self._vcf_failed: dict[int, int] = {}
        self._ranked_memo: dict[int, tuple[int, ...]] = {}
        self._spread_memo: dict[int, int] = {}
        self._forbidden_memo: dict[int, int] = {}
        infos = tuple(self._analyse(len(line) << _LENGTH_SHIFT) for line in lines)
        self._start = _new_state(
            GomokuState,
            (
                0,
                0,
                0,
                infos,
                0,
                sum(i.score0 for i in infos),
                sum(i.score1 for i in infos),
                0,
                0,
                -1,
                0,
                (),
            ),
        )
        size = "" if (width, height) == (15, 15) else f" {width}x{height}"
        title, wins = {
            "freestyle": ("", "five or more"),
            "exact5": (", exact five", "exactly five (an overline does not win)"),
            "renju": (
                ", renju",
                "renju rules (black: exactly five, no overline, double four or double "
                "three; white: five or more)",
            ),
        }[rule]
        self.info = GameInfo(
            name="gomoku",
            title=f"Gomoku{size}{title}",
            players=_COLOURS,
            win_loss=True,
            board_size=(width, height),
            description=(
                f"Five in a row on a {width}x{height} board, {wins}; black moves first. "
                "Moves are cells like h8 or Gomocup's x,y."
            ),
        )

    def __repr__(self) -> str:
        return f"Gomoku(width={self.width}, height={self.height}, rule={self.rule!r})"

    def _analyse(self, code: int) -> LineInfo:
        """Analyse a line content and memoise it."""
        cache = self._cache
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        info = cache[code] = LineInfo(code, self._exact)
        return info

    # ------------------------------------------------------------------ coordinates

    def action(self, x: int, y: int) -> int:
        """Return the action of the cell in column ``x`` and row ``y`` (from the top).

        Raises :class:`~zerosum.game.InvalidMoveError` for coordinates that are not
        integers and :class:`~zerosum.game.IllegalMoveError` for a cell off the board."""
        if type(x) is not int or type(y) is not int:
            raise InvalidMoveError(f"cell coordinates must be integers, not ({x!r}, {y!r})")
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IllegalMoveError(
                f"cell ({x}, {y}) is off the {self.width}x{self.height} board: x is 0 to "
                f"{self.width - 1} and y 0 to {self.height - 1}"
            )
        return y * self.width + x

    def coordinates(self, action: int) -> tuple[int, int]:
        """Return the column ``x`` and the row ``y`` (from the top) of cell ``action``."""
        y, x = divmod(action, self.width)
        return x, y

    # ------------------------------------------------------------------ protocol

    def initial_state(self) -> GomokuState:
        """Return the empty board, black to move."""
        return self._start

    def to_move(self, state: GomokuState) -> Player:
        """Return the player to move."""
        return int(state[2])

    def actions(self, state: GomokuState) -> list[int]:
        """Return every empty cell in reading order (under renju, black's forbidden cells
        left out); none once the game is over."""
        if state[9] >= 0:
            return []
        return bit_indices(self._full & ~(state[0] | state[1] | self._banned(state)))

    def result(self, state: GomokuState, action: int) -> GomokuState:
        """Return the state after the side to move plays on cell ``action``; unchecked."""
        p = state[2]
        infos = list(state[3])
        marks = state[4]
        score0 = state[5]
        score1 = state[6]
        cache = self._cache
        clear = self._clear
        shift = _LINE_SHIFT if p else 0
        five = _FIVE_FLAG << p
        winner = -1
        for line, position in self._cell_lines[action]:
            old = infos[line]
            code = old.code | 1 << (position + shift)
            new = cache.get(code)
            if new is None:
                new = self._analyse(code)
            infos[line] = new
            score0 += new.score0 - old.score0
            score1 += new.score1 - old.score1
            flags = new.flags
            marks = (marks & clear[line]) | flags << (_FLAG_BITS * line)
            if flags & five:
                winner = p
        bit = 1 << action
        history = state[11]
        return _new_state(
            GomokuState,
            (
                state[0] | bit if p == 0 else state[0],
                state[1] | bit if p else state[1],
                1 - p,
                tuple(infos),
                marks,
                score0,
                score1,
                state[7] ^ self._zobrist[p][action] ^ self._side_key,
                state[8] | self._neighbours[action],
                winner,
                state[10] + 1,
                None if history is None else (*history, action),
            ),
        )

    def is_terminal(self, state: GomokuState) -> bool:
        """Tell whether someone has five in a row or the board is full."""
        return bool(state[9] >= 0 or state[10] == self.cells)

    def utility(self, state: GomokuState, player: Player) -> int:
        """Return +1 if ``player`` has five in a row, -1 if the opponent has, else 0."""
        winner = state[9]
        if winner < 0:
            return 0
        return 1 if winner == player else -1

    # ------------------------------------------------------------------ setting up

    def state_from_stones(
        self, stones0: Iterable[int], stones1: Iterable[int], to_move: Player
    ) -> GomokuState:
        """Return the position with black's stones on ``stones0``, white's on
        ``stones1`` and ``to_move`` to move, whatever order the stones came in.

        For set-up positions such as the Gomocup ``BOARD`` command; the stone counts
        need not match. Raises :class:`~zerosum.game.InvalidStateError` for a cell off
        the board, a cell listed twice, ``to_move`` not 0 or 1, fives for both sides, or
        a five for the side to move (the player who made five moved last)."""
        if to_move not in (0, 1):
            raise InvalidStateError(f"the player to move must be 0 or 1, not {to_move!r}")
        cells = self.cells
        seen: set[int] = set()
        lists = (list(stones0), list(stones1))
        for colour, stones in zip(_COLOURS, lists, strict=True):
            for cell in stones:
                if type(cell) is not int or not 0 <= cell < cells:
                    raise InvalidStateError(
                        f"invalid {colour} stone {cell!r}: cells are 0 to {cells - 1} on the "
                        f"{self.width}x{self.height} board"
                    )
                if cell in seen:
                    raise InvalidStateError(
                        f"invalid position: cell {self._name(cell)} ({cell}) is listed twice"
                    )
                seen.add(cell)
        infos = list(self._start[3])
        masks = [0, 0]
        key = self._side_key if to_move else 0
        near = 0
        for p, stones in enumerate(lists):
            shift = _LINE_SHIFT if p else 0
            for cell in stones:
                masks[p] |= 1 << cell
                key ^= self._zobrist[p][cell]
                near |= self._neighbours[cell]
                for line, position in self._cell_lines[cell]:
                    code = infos[line].code | 1 << (position + shift)
                    infos[line] = self._cache.get(code) or self._analyse(code)
        marks = 0
        for line, info in enumerate(infos):
            marks |= info.flags << (_FLAG_BITS * line)
        fives = [bool(marks & self._flag_masks[_FIVE_FLAG << p]) for p in (0, 1)]
        if fives[0] and fives[1]:
            raise InvalidStateError("invalid position: both black and white have five in a row")
        if fives[to_move]:
            raise InvalidStateError(
                f"invalid position: {_COLOURS[to_move]} has five in a row but is to move"
            )
        winner = 1 - to_move if fives[1 - to_move] else -1
        return _new_state(
            GomokuState,
            (
                masks[0],
                masks[1],
                to_move,
                tuple(infos),
                marks,
                sum(i.score0 for i in infos),
                sum(i.score1 for i in infos),
                key,
                near,
                winner,
                len(seen),
                None,
            ),
        )

    # ------------------------------------------------------------------ search hooks

    def key(self, state: GomokuState) -> int:
        """Return the Zobrist key of ``state`` (64 bits, side to move included)."""
        return int(state[7])

    def five_cells(self, state: GomokuState, player: Player) -> int:
        """Return, as a bit mask of cells, where ``player`` would make five now."""
        return self._line_union(state, _WIN, player, 0)

    def four_cells(self, state: GomokuState, player: Player) -> int:
        """Return the cells where ``player`` would make a four or better (not five)."""
        return self._line_union(state, _FOUR, player, 1)

    def open_four_cells(self, state: GomokuState, player: Player) -> int:
        """Return the cells where ``player`` would make an open four (two fives in a line).

        Non-zero exactly when ``player`` has an open three (or a broken three)."""
        return self._line_union(state, _OPEN, player, 2)

    def three_cells(self, state: GomokuState, player: Player) -> int:
        """Return the cells where ``player`` would make an open three (and not a four)."""
        found = 0
        for line, info in enumerate(state[3]):
            threes = info.threes(player)
            if threes:
                cells = self._line_cells[line]
                for position in bit_indices(threes):
                    found |= 1 << cells[position]
        return found

    def forbidden(self, state: GomokuState, cell: int) -> str | None:
        """Return why a black stone on empty ``cell`` is forbidden under renju (one of
        :data:`FORBIDDEN_REASONS`), or ``None`` when it is allowed (always, under the
        other rules).

        Renju's definitions (RIF): a move that makes exactly five is allowed whatever
        else it makes; otherwise six or more in a row, two fours (two in one line count,
        ``X.XXX.X``) or two threes are forbidden. A three is a line where one more stone
        makes a straight four (``.XXXX.``, five at either end), and only a real one
        counts: one of those stones must itself be allowed, asked again with the new
        stone on the board, as deep as it goes. Raises
        :class:`~zerosum.game.IllegalMoveError` for a cell off the board or taken."""
        if type(cell) is not int or not 0 <= cell < self.cells:
            raise IllegalMoveError(f"cell {cell!r} is off the {self.width}x{self.height} board")
        if (state[0] | state[1]) >> cell & 1:
            raise IllegalMoveError(
                f"cell {self._name(cell)} is taken in {self._describe(state)}: only an empty "
                "cell can be forbidden"
            )
        if not self._renju:
            return None
        return self._forbidden_reason(state[0], state[1], cell)

    def _forbidden_reason(self, black: int, white: int, cell: int) -> str | None:
        """:meth:`forbidden` on stones given as bit masks (the threat search's, and the
        recursion's, which adds a stone at each level)."""
        line_cells = self._line_cells
        shapes = []
        for line, position in self._cell_lines[cell]:
            cells = line_cells[line]
            own = their = 0
            for i, c in enumerate(cells):
                if black >> c & 1:
                    own |= 1 << i
                elif white >> c & 1:
                    their |= 1 << i
            shapes.append((cells, _renju_shape(own, their, position, len(cells))))
        if any(made == _MADE_FIVE for _, (made, _, _) in shapes):
            return None
        if any(made == _MADE_OVERLINE for _, (made, _, _) in shapes):
            return FORBIDDEN_REASONS[0]
        if sum(fours for _, (_, fours, _) in shapes) >= 2:
            return FORBIDDEN_REASONS[1]
        candidates = [(cells, points) for cells, (_, _, points) in shapes if points]
        if len(candidates) < 2:
            return None
        after = black | 1 << cell
        real = 0
        for cells, points in candidates:
            if any(
                self._forbidden_reason(after, white, cells[g]) is None for g in bit_indices(points)
            ):
                real += 1
                if real == 2:
                    return FORBIDDEN_REASONS[2]
        return None

    def forbidden_cells(self, state: GomokuState) -> int:
        """Return the empty cells where a black stone is forbidden under renju, as a bit
        mask (0 under the other rules), whoever is to move; kept by position."""
        if not self._renju:
            return 0
        key = state[7] ^ (self._side_key if state[2] else 0)
        memo = self._forbidden_memo
        found = memo.get(key)
        if found is not None:
            return found
        black, white = state[0], state[1]
        infos = state[3]
        spread = self._spread
        marked = 0
        for line, info in enumerate(infos):
            cells = info.fours[0] | info.threes(0)
            own = info.code & 0xFFFFFFFF
            if own.bit_count() >= _FIVE:  # an overline may be made anywhere on the line
                cells |= ((1 << len(self._line_cells[line])) - 1) & ~own
            if cells:
                marked |= spread(line, cells)
        found = 0
        for cell in bit_indices(marked & ~(black | white)):
            if self._suspect(infos, cell) and self._forbidden_reason(black, white, cell):
                found |= 1 << cell
        if len(memo) >= _SPREAD_LIMIT:
            memo.clear()
        memo[key] = found
        return found

    def _banned(self, state: GomokuState) -> int:
        """The empty cells the rules deny the side to move: black's forbidden ones when
        black is to move under renju and the game goes on, else none."""
        if not self._renju or state[2] or self.is_terminal(state):
            return 0
        return self.forbidden_cells(state)

    def _suspect(self, infos: Sequence[LineInfo], cell: int) -> bool:
        """Whether a black stone on empty ``cell`` may be forbidden, by the analyses of
        the lines through it: only when it makes fours on two lines, threes on two
        lines, two five cells on one (a straight four, or ``X.XXX.X``), or stands on a
        line that holds five black stones already (an overline); :meth:`forbidden`
        then says."""
        fours = threes = 0
        for line, position in self._cell_lines[cell]:
            info = infos[line]
            bit = 1 << position
            if info.opens[0] & bit or (info.code & 0xFFFFFFFF).bit_count() >= _FIVE:
                return True
            if info.fours[0] & bit:
                fours += 1
            elif info.threes(0) & bit:
                threes += 1
        return fours >= 2 or threes >= 2

    def three_defences(self, state: GomokuState, player: Player) -> int | None:
        """Return the cells where the opponent's stone leaves ``player`` no open four to
        make on any line (a bit mask; 0 when no single stone does), or ``None`` when
        ``player`` has no open three."""
        m = state[4] & self._flag_masks[_OPEN << player]
        if not m:
            return None
        infos = state[3]
        line_cells = self._line_cells
        common = -1
        while m:
            low = m & -m
            m ^= low
            line = (low.bit_length() - 1) // _FLAG_BITS
            cells = line_cells[line]
            found = 0
            for position in bit_indices(infos[line].defences[player]):
                found |= 1 << cells[position]
            common &= found
        return common

    def _line_union(self, state: GomokuState, flag: int, player: Player, field: int) -> int:
        """The cells named by one field of the infos of the lines with ``flag``."""
        m = state[4] & self._flag_masks[flag << player]
        if not m:
            return 0
        infos = state[3]
        spread = self._spread
        found = 0
        while m:
            low = m & -m
            m ^= low
            line = (low.bit_length() - 1) // _FLAG_BITS
            info = infos[line]
            found |= spread(line, (info.wins, info.fours, info.opens, info.defences)[field][player])
        return found

    def _spread(self, line: int, positions: int) -> int:
        """The cells, as a board mask, at ``positions`` (a mask over the line) of ``line``."""
        key = positions << _SPREAD_SHIFT | line
        memo = self._spread_memo
        found = memo.get(key)
        if found is None:
            cells = self._line_cells[line]
            found = 0
            while positions:
                bit = positions & -positions
                positions ^= bit
                found |= 1 << cells[bit.bit_length() - 1]
            if len(memo) >= _SPREAD_LIMIT:
                memo.clear()
            memo[key] = found
        return found

    def evaluate(self, state: GomokuState) -> int:
        """Estimate ``state`` for the side to move from the line patterns of both sides.

        The pattern scores (windows of five holding one side's stones, fours, open
        threes, closed threes) count for each side, the mover's a fifth more (it moves
        first); the threats that decide the next plies add a large term: a five to make
        now, the opponent's two fours, an open four the mover can make, the opponent's
        double three. Always far inside the win band."""
        p = state[2]
        marks = state[4]
        masks = self._flag_masks
        if p:
            mine, theirs = state[6], state[5]
        else:
            mine, theirs = state[5], state[6]
        value: int = mine + mine // 5 - theirs
        o = 1 - p
        if marks & masks[_WIN << p]:
            return value + _EVAL_FIVE_NEXT
        if marks & masks[_WIN << o]:
            blocks = self.five_cells(state, o)
            if blocks & (blocks - 1):
                return value - _EVAL_DOUBLE_FOUR
            return value
        if marks & masks[_OPEN << p]:
            return value + _EVAL_OPEN_FOUR_NEXT
        their_threes = marks & masks[_OPEN << o]
        if their_threes & (their_threes - 1) and not marks & masks[_FOUR << p]:
            return value - _EVAL_DOUBLE_THREE
        return value

    def winning_action(self, state: GomokuState) -> int | None:
        """Return a cell where the side to move makes five now, or ``None``."""
        p = state[2]
        if not state[4] & self._flag_masks[_WIN << p]:
            return None
        cells = self.five_cells(state, p)
        return (cells & -cells).bit_length() - 1

    def non_losing_actions(self, state: GomokuState) -> list[int]:
        """Return the moves the engine searches, best first.

        The move that makes five, alone, when there is one. Else, when the opponent can
        make five, its block (an empty list when there are two to block: the game is
        lost). Else, facing open threes, the cells that stop them all (or, when no
        single cell does, the cells that stop one) and the mover's own fours; else the
        empty cells within two of a stone, ranked by their pattern value for both sides,
        the best :data:`BREADTH`; the centre on an empty board. Every move returned
        leaves the opponent no five at once. Under renju black's forbidden cells are
        left out (a four it may only block there is lost), and white facing black's
        threes answers on every cell of their lines (a three of black's may be false)."""
        if state[9] >= 0 or state[10] == self.cells:
            return []
        p = state[2]
        o = 1 - p
        marks = state[4]
        masks = self._flag_masks
        if marks & masks[_WIN << p]:
            cells = self.five_cells(state, p)
            return [(cells & -cells).bit_length() - 1]
        banned = self._banned(state)
        if marks & masks[_WIN << o]:
            cells = self.five_cells(state, o)
            return [] if cells & (cells - 1) or cells & banned else [cells.bit_length() - 1]
        if not state[10]:
            return [self._centre]
        memo = self._ranked_memo
        known = memo.get(state[7])
        if known is not None:
            return list(known)
        empty = self._full & ~(state[0] | state[1] | banned)
        limit = BREADTH
        answers = 0
        if marks & masks[_OPEN << o]:
            if self._renju and not o:
                # black's three may be false (its open fours forbidden), and a stone may
                # stop it by leaving it only forbidden open fours: every cell of its
                # lines answers
                m = marks & masks[_OPEN]
                while m:
                    low = m & -m
                    m ^= low
                    line = (low.bit_length() - 1) // _FLAG_BITS
                    answers |= self._spread(line, (1 << len(self._line_cells[line])) - 1)
            else:
                answers = self.three_defences(state, o) or self._line_union(state, _OPEN, o, 3)
            answers |= self.four_cells(state, p)
            answers &= empty
            limit = self.cells
        candidates = answers or state[8] & empty
        ranked = self._ranked(state, candidates, limit)
        if len(memo) >= _RANKED_LIMIT:
            memo.clear()
        memo[state[7]] = tuple(ranked)
        return ranked

    def _ranked(self, state: GomokuState, candidates: int, limit: int) -> list[int]:
        """The cells of ``candidates``, best first by their ordering value, at most ``limit``."""
        p = state[2]
        infos = state[3]
        cell_lines = self._cell_lines
        keyed = []
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            cell = low.bit_length() - 1
            value = 0
            for line, position in cell_lines[cell]:
                value += infos[line].moves[p][position]
            keyed.append(value << 10 | cell)
        keyed.sort(reverse=True)
        return [k & 1023 for k in keyed[:limit]]

    def ordered_actions(self, state: GomokuState) -> list[int]:
        """Return every legal move, the engine's candidates first (see
        :meth:`non_losing_actions`), then the other empty cells by their value."""
        if state[9] >= 0 or state[10] == self.cells:
            return []
        first = self.non_losing_actions(state)
        rest = self._full & ~(state[0] | state[1] | self._banned(state))
        for cell in first:
            rest &= ~(1 << cell)
        return first + self._ranked(state, rest, self.cells)

    def compiled_engine(self, options: EngineOptions | None = None) -> Engine | None:
        """Return an engine whose searches run in the compiled kernel, or ``None`` for the
        pure path.

        ``None`` when kernels are off (:func:`zerosum.kernels.enabled`: numba missing,
        ``ZEROSUM_KERNELS=0`` or :func:`zerosum.kernels.use_kernels`). The engine
        (:class:`zerosum.games.gomoku_kernel.KernelEngine`) plays by the same rules with
        its own evaluation and search, about ten times as many nodes a second; the first
        one made in a process loads the compiled kernel from the cache folder (or, once
        per CPU, compiles it: a minute or so). Renju is played on the pure path: the
        kernel does not know the forbidden moves."""
        from zerosum import kernels  # noqa: PLC0415 - numba only when a kernel is used

        if self._renju:
            return None
        module = kernels.load("zerosum.games.gomoku_kernel")
        if module is None:
            return None
        engine: Engine = module.KernelEngine(self, options)
        return engine

    def forced_win(
        self, state: GomokuState, deep: bool, expired: Callable[[], bool] | None = None
    ) -> list[int] | None:
        """Return a forced win for the side to move, the moves of both sides in order
        (the last makes five), or ``None`` when none is found within the budgets.

        ``deep=False`` (the engine's horizon) tries a small victory by continuous fours;
        ``deep=True`` (the root) a larger one, the one with the fewest fours first, then a
        victory by threes and fours.
        Every defence is considered, so a line returned is a real win; see
        :mod:`zerosum.games.gomoku_threats`. ``expired`` is the engine's poll of its
        time limit and stop signal: the search gives up as soon as it answers ``True``."""
        if state[9] >= 0:
            return None
        horizon, vcf_budget, vct_budget = self.threat_budgets
        if not deep:
            return gomoku_threats.vcf(self, state, horizon, expired)
        line = gomoku_threats.vcf(self, state, vcf_budget, expired, shortest=True)
        if line is None:
            # deepening may spend the budget on the shallow trees before a long win: a
            # position it proved has none is remembered and costs nothing here
            line = gomoku_threats.vcf(self, state, vcf_budget, expired)
        if line is None:
            line = gomoku_threats.vct(self, state, vct_budget, expired)
        return line

    # ------------------------------------------------------------------ notation

    def _name(self, cell: int) -> str:
        y, x = divmod(cell, self.width)
        return f"{_LETTERS[x]}{self.height - y}"

    def _describe(self, state: GomokuState) -> str:
        text = self.format_state(state)
        return repr(text) if text else "the empty board"

    def parse_move(self, state: GomokuState, text: str) -> int:
        """Read ``text`` as a legal move: ``h8`` (column letter, row from the bottom) or
        Gomocup's zero-based ``x,y`` (row from the top).

        Raises :class:`~zerosum.game.InvalidMoveError` for text that names no cell and
        :class:`~zerosum.game.IllegalMoveError` for a cell off the board or taken, a
        forbidden move of black under renju, or a move after the game ended."""
        word = text.strip().lower()
        letter = _LETTER_FORM.fullmatch(word)
        number = None if letter else _NUMBER_FORM.fullmatch(word)
        if letter is None and number is None:
            raise InvalidMoveError(
                f"cannot read move {text!r} in {self._describe(state)}: write a column "
                f"letter and a row number like 'h8', or Gomocup's x,y like '7,7'"
            )
        if self.is_terminal(state):
            raise IllegalMoveError(
                f"illegal move {text!r}: the game is over in {self._describe(state)}"
            )
        if letter is not None:
            x = _LETTERS.index(letter[1])
            y = self.height - int(letter[2])
        else:
            assert number is not None
            x, y = int(number[1]), int(number[2])
        if not (0 <= x < self.width and 0 <= y < self.height):
            last = _LETTERS[self.width - 1]
            raise IllegalMoveError(
                f"illegal move {text!r} in {self._describe(state)}: the board has columns "
                f"a-{last} and rows 1-{self.height} (x 0-{self.width - 1}, "
                f"y 0-{self.height - 1})"
            )
        cell = y * self.width + x
        if (state[0] | state[1]) >> cell & 1:
            raise IllegalMoveError(
                f"illegal move {text!r} in {self._describe(state)}: {self._name(cell)} is taken"
            )
        if self._renju and not state[2]:
            reason = self._forbidden_reason(state[0], state[1], cell)
            if reason is not None:
                raise IllegalMoveError(
                    f"illegal move {text!r} in {self._describe(state)}: {self._name(cell)} "
                    f"is forbidden for black under renju ({reason})"
                )
        return cell

    def format_move(self, state: GomokuState, action: int) -> str:
        """Write cell ``action`` as its column letter and row from the bottom, ``h8``."""
        return self._name(action)

    def parse_state(self, text: str) -> GomokuState:
        """Read a position: the moves from the empty board (``h8 i9 h9``; blank, comma
        or semicolon separated), or a set-up position as :meth:`format_state` writes it,
        ``black: h8 i9; white: j10; to move: white``.

        Raises :class:`~zerosum.game.InvalidStateError` naming the text for a move that
        cannot be read, a taken cell, a move after the game ended, or a bad set-up."""
        stripped = text.strip()
        if stripped.lower().startswith("black:"):
            return self._parse_setup(text)
        state = self._start
        for index, word in enumerate(re.split(r"[\s;]+", stripped), 1):
            if not word:
                continue
            try:
                cell = self.parse_move(state, word)
            except (InvalidMoveError, IllegalMoveError) as error:
                raise InvalidStateError(
                    f"invalid position {text!r}: move {index} ({word!r}): {error}"
                ) from None
            state = self.result(state, cell)
        return state

    def _parse_setup(self, text: str) -> GomokuState:
        parts = [part.strip() for part in text.strip().split(";")]
        if len(parts) != 3 or not (
            parts[0].lower().startswith("black:")
            and parts[1].lower().startswith("white:")
            and parts[2].lower().startswith("to move:")
        ):
            raise InvalidStateError(
                f"cannot read position {text!r}: write 'black: h8 i9; white: j10; to move: white'"
            )
        groups = []
        for part in parts[:2]:
            cells = []
            for word in part.partition(":")[2].split():
                match = _LETTER_FORM.fullmatch(word.lower())
                if match is None:
                    raise InvalidStateError(f"cannot read position {text!r}: {word!r} is no cell")
                x, y = _LETTERS.index(match[1]), self.height - int(match[2])
                if not (0 <= x < self.width and 0 <= y < self.height):
                    raise InvalidStateError(
                        f"invalid position {text!r}: {word} is off the "
                        f"{self.width}x{self.height} board"
                    )
                cells.append(y * self.width + x)
            groups.append(cells)
        mover = parts[2].partition(":")[2].strip().lower()
        if mover not in _COLOURS:
            raise InvalidStateError(
                f"cannot read position {text!r}: the side to move is black or white"
            )
        try:
            return self.state_from_stones(groups[0], groups[1], _COLOURS.index(mover))
        except InvalidStateError as error:
            raise InvalidStateError(f"invalid position {text!r}: {error}") from None

    def format_state(self, state: GomokuState) -> str:
        """Write ``state`` as its moves from the empty board (``h8 i9 h9``, ``""`` for the
        empty board), or, for a position set up from stones, as ``black: ...; white:
        ...; to move: ...``."""
        history = state[11]
        if history is not None:
            return " ".join(self._name(cell) for cell in history)
        black = " ".join(self._name(c) for c in bit_indices(state[0]))
        white = " ".join(self._name(c) for c in bit_indices(state[1]))
        return f"black: {black}; white: {white}; to move: {_COLOURS[state[2]]}"

    def render(self, state: GomokuState) -> str:
        """Draw the board for a person: ``X`` black, ``O`` white, ``·`` empty (``×`` a
        cell forbidden to black when black is to move under renju), with row numbers (from
        the bottom) and column letters."""
        width, height = self.width, self.height
        black, white = state[0], state[1]
        banned = self._banned(state)
        lines = []
        for y in range(height):
            marks = []
            for x in range(width):
                cell = y * width + x
                mark = _RENDER[(black >> cell & 1) | (white >> cell & 1) << 1]
                marks.append("×" if banned >> cell & 1 else mark)
            lines.append(f"{height - y:>2} {' '.join(marks)}")
        lines.append("   " + " ".join(_LETTERS[:width]))
        return "\n".join(lines)

    def board(self, state: GomokuState) -> BoardView[int]:
        """Return the picture of ``state`` for graphical interfaces; a click on an empty
        cell plays it (under renju, black's forbidden cells are marked instead)."""
        black, white = state[0], state[1]
        cells = tuple(
            0 if black >> cell & 1 else 1 if white >> cell & 1 else None
            for cell in range(self.cells)
        )
        return BoardView(
            self.width,
            self.height,
            cells,
            {cell: cell for cell in self.actions(state)},
            state.last,
            kind="intersections",
            files=tuple(_LETTERS[: self.width]),
            ranks=tuple(str(self.height - row) for row in range(self.height)),
            line=(
                winning_line(cells, self.width, self.height, 5, exact=self._exact[state[9]])
                if state[9] >= 0
                else ()
            ),
            forbidden=tuple(bit_indices(self._banned(state))),
        )

    def line_cells(self) -> Sequence[tuple[int, ...]]:
        """Return every line (row, column or diagonal of five cells or more) as its cells."""
        return self._line_cells
