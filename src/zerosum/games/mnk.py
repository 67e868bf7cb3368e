"""Tic-tac-toe and the m,n,k-games: the first to get k stones in a row wins.

The board is ``m`` columns wide and ``n`` rows high. X (player 0) moves first, then the
players alternate placing one stone on an empty cell; k stones of one player in a row,
a column or a diagonal win, and a full board without such a line is a draw. Tic-tac-toe
is the 3,3,3-game (:func:`tictactoe`).

A state is one ``int``. Cells are numbered in reading order, ``row * m + column`` with
row 0 at the top, so the actions of the 3x3 board are 0 (top left) to 8 (bottom right).
X's stones are the low ``m * n`` bits, O's stones the next ``m * n`` bits, and one more
bit above them is set when the last move made a line. The side to move follows from the
number of stones, and the line bit makes :meth:`MNKGame.is_terminal` and
:meth:`MNKGame.utility` a comparison or two: :meth:`MNKGame.result` checks only the
lines through the cell just played, from a table made at construction.

In the notation a cell is its column letter and its row number counted from the bottom,
as in chess and gomoku: ``a1`` is the bottom-left corner. On the 3x3 board a digit 1-9
names a cell in reading order too (1 = top left = ``a3``, 9 = bottom right = ``c1``).
A position is written as its rows from top to bottom, separated by ``/``, with ``x``,
``o`` and ``.`` for the cells: ``x.o/.x./..o``.
"""

from __future__ import annotations

import re

from zerosum.game import (
    BoardView,
    GameInfo,
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    Player,
    describe_state,
    quoted,
    winning_line,
)

__all__ = ["MAX_SIDE", "MNKGame", "tictactoe"]

MAX_SIDE = 26
"""The widest and highest board: one column letter per column."""

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # row, column steps: across, down, two diagonals

_SINGLE_TABLE_CELLS = 12
"""Boards up to this many cells list their moves from one table indexed by the empty
cells; larger boards use one table per byte, so the tables stay small."""

_CHUNK = 8
_CHUNK_MASK = (1 << _CHUNK) - 1

_WEIGHT_CAP = 6
"""An open line's weight stops growing at 4**6 (seven stones), so that no board evaluates
beyond about 7.5 million (1840 lines of seven on 26x26), far inside the win band."""

_COORDINATE = re.compile(r"([a-z])([0-9]+)", re.ASCII)
_STATE_CELLS = {".": 0, "x": 1, "o": 2}
_RENDER = "·XO"


def _square_table(cells: int, offset: int) -> tuple[tuple[int, ...], ...]:
    """The cell numbers set in each mask of ``cells`` bits, each shifted by ``offset``."""
    return tuple(
        tuple(offset + i for i in range(cells) if mask >> i & 1) for mask in range(1 << cells)
    )


class MNKGame:
    """The m,n,k-game: k in a row on a board ``m`` columns wide and ``n`` rows high.

    ``MNKGame()`` is tic-tac-toe. Raises :class:`~zerosum.game.InvalidGameError` unless
    ``1 <= m, n <= 26`` and ``1 <= k <= max(m, n)``.

    The attributes ``m``, ``n``, ``k`` and ``size`` (``m * n``) describe the board;
    ``lines`` holds the mask of X's bits of every winning line (shift it left by
    ``size`` for O's).
    """

    __slots__ = (
        "_by_weight",
        "_flag",
        "_full",
        "_move_tables",
        "_ranked",
        "_single",
        "_stones",
        "_symmetry_tables",
        "_through",
        "_weights",
        "info",
        "k",
        "lines",
        "m",
        "n",
        "size",
    )

    def __init__(self, m: int = 3, n: int = 3, k: int = 3) -> None:
        for name, value in (("m", m), ("n", n), ("k", k)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidGameError(
                    f"m,n,k-game sizes must be whole numbers, not {name}={quoted(value)}"
                )
        if not (1 <= m <= MAX_SIDE and 1 <= n <= MAX_SIDE):
            raise InvalidGameError(
                f"m,n,k-game with m={m}, n={n}: the board must be 1 to {MAX_SIDE} "
                f"columns (m) and rows (n)"
            )
        if not 1 <= k <= max(m, n):
            raise InvalidGameError(
                f"m,n,k-game with k={k} on a {m}x{n} board: k must be 1 to {max(m, n)}, "
                f"or no line fits"
            )
        self.m = m
        self.n = n
        self.k = k
        size = self.size = m * n
        self._full = (1 << size) - 1
        self._stones = (1 << 2 * size) - 1
        self._flag = 1 << 2 * size
        self.info = _info(m, n, k)

        lines: dict[int, tuple[int, ...]] = {}  # a dict keeps the order, merges k=1's repeats
        for row in range(n):
            for column in range(m):
                for dr, dc in _DIRECTIONS:
                    end_row, end_column = row + dr * (k - 1), column + dc * (k - 1)
                    if 0 <= end_row < n and 0 <= end_column < m:
                        cells = tuple((row + dr * t) * m + column + dc * t for t in range(k))
                        lines[sum(1 << cell for cell in cells)] = cells
        self.lines = tuple(lines)
        lines_at: list[list[int]] = [[] for _ in range(size)]
        for line, cells in lines.items():
            for cell in cells:
                lines_at[cell].append(line)
        through = tuple(map(tuple, lines_at))
        self._through = through + tuple(tuple(line << size for line in ls) for ls in through)

        if size <= _SINGLE_TABLE_CELLS:
            self._single = True
            self._move_tables: tuple[tuple[tuple[int, ...], ...], ...] = (_square_table(size, 0),)
        else:
            self._single = False
            self._move_tables = tuple(
                _square_table(min(_CHUNK, size - start), start) for start in range(0, size, _CHUNK)
            )

        def rank(cell: int) -> tuple[int, int, int]:
            row, column = divmod(cell, m)
            from_centre = abs(2 * row - (n - 1)) + abs(2 * column - (m - 1))
            return (-len(through[cell]), from_centre, cell)

        order = sorted(range(size), key=rank)
        self._by_weight = tuple((cell, 1 << cell) for cell in order)
        self._ranked: tuple[tuple[int, ...], ...] = ()
        if self._single:
            self._ranked = tuple(
                tuple(cell for cell in order if mask >> cell & 1) for mask in range(1 << size)
            )
        self._weights = tuple(
            4 ** min(count - 1, _WEIGHT_CAP) if count else 0 for count in range(k + 1)
        )
        self._symmetry_tables: tuple[tuple[tuple[int, ...], ...], ...] | None = None

    def __repr__(self) -> str:
        return f"MNKGame(m={self.m}, n={self.n}, k={self.k})"

    # ----------------------------------------------------------------- the protocol

    def initial_state(self) -> int:
        """Return the empty board."""
        return 0

    def to_move(self, state: int) -> Player:
        """Return the player to move: X (0) when both have as many stones, else O (1)."""
        return (state & self._stones).bit_count() & 1

    def actions(self, state: int) -> tuple[int, ...]:
        """Return the empty cells in reading order, or ``()`` when the game is over."""
        if state >= self._flag:
            return ()
        empty = self._full & ~(state | state >> self.size)
        if self._single:
            return self._move_tables[0][empty]
        moves: list[int] = []
        for table in self._move_tables:
            if empty & _CHUNK_MASK:
                moves += table[empty & _CHUNK_MASK]
            empty >>= _CHUNK
        return tuple(moves)

    def result(self, state: int, action: int) -> int:
        """Return the state after the side to move plays on cell ``action``; unchecked."""
        if state.bit_count() & 1:  # a state still in play has no line bit: stones only
            action += self.size
        state |= 1 << action
        for line in self._through[action]:
            if state & line == line:
                return state | self._flag
        return state

    def is_terminal(self, state: int) -> bool:
        """Tell whether a line was made or the board is full."""
        return state >= self._flag or state.bit_count() == self.size

    def utility(self, state: int, player: Player) -> int:
        """Return +1 if ``player`` made a line, -1 if the opponent did, 0 for a draw."""
        if state < self._flag:
            return 0
        # only the player who moved last can have a line; X did if the stones are odd
        winner = ((state.bit_count() - 1) & 1) ^ 1
        return 1 if player == winner else -1

    # ----------------------------------------------------------- optional capabilities

    def key(self, state: int) -> int:
        """Return the state itself: the stone counts in it give the side to move."""
        return state

    def evaluate(self, state: int) -> int:
        """Estimate ``state`` for the side to move by the lines still open to each side.

        Every line holding stones of one side only counts for that side, 4**(s - 1) for
        ``s`` stones (so nearly full lines weigh most, up to 4**6); the value is the mover's
        sum minus the opponent's, far inside the win band on any board."""
        size = self.size
        if (state & self._stones).bit_count() & 1:
            mine, theirs = state >> size & self._full, state & self._full
        else:
            mine, theirs = state & self._full, state >> size & self._full
        weights = self._weights
        score = 0
        for line in self.lines:
            own = mine & line
            other = theirs & line
            if own:
                if not other:
                    score += weights[own.bit_count()]
            elif other:
                score -= weights[other.bit_count()]
        return score

    def ordered_actions(self, state: int) -> tuple[int, ...]:
        """Return the legal moves, most promising first.

        First the moves that make a line, then the moves that stop the opponent making
        one next, then the rest; within each group the cells on more lines (the centre,
        then the corners on 3x3) and nearer the centre come first."""
        if state >= self._flag:
            return ()
        size, full = self.size, self._full
        if state.bit_count() & 1:
            mine, theirs = state >> size, state & full
        else:
            mine, theirs = state & full, state >> size
        empty = full & ~(mine | theirs)
        wins = blocks = 0
        for line in self.lines:
            own = mine & line
            other = theirs & line
            if other:
                if not own:
                    gap = line ^ other
                    if not gap & (gap - 1):
                        blocks |= gap
            elif own:
                gap = line ^ own
                if not gap & (gap - 1):
                    wins |= gap
        if not wins | blocks:
            return self._in_rank_order(empty)
        blocks &= ~wins
        rest = empty & ~(wins | blocks)
        ranked = self._ranked
        if ranked:
            return ranked[wins] + ranked[blocks] + ranked[rest]
        in_order = self._in_rank_order
        return in_order(wins) + in_order(blocks) + in_order(rest)

    def _in_rank_order(self, cells: int) -> tuple[int, ...]:
        """The cells of the mask ``cells``, those on more lines and nearer the centre first."""
        if self._ranked:
            return self._ranked[cells]
        return tuple([cell for cell, bit in self._by_weight if cells & bit])

    # ------------------------------------------------------------------- symmetries

    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """Return the board's symmetries as cell permutations, the identity first.

        Entry ``c`` of a permutation is the cell that cell ``c`` moves to. A square board
        has eight (rotations and reflections), any other board four (the identity, the
        two mirrors and the half turn)."""
        m, n = self.m, self.n
        transposes = (False, True) if m == n else (False,)
        permutations = []
        for transpose in transposes:
            for flip_rows in (False, True):
                for flip_columns in (False, True):
                    permutation = []
                    for cell in range(self.size):
                        row, column = divmod(cell, m)
                        if flip_rows:
                            row = n - 1 - row
                        if flip_columns:
                            column = m - 1 - column
                        if transpose:
                            row, column = column, row
                        permutation.append(row * m + column)
                    permutations.append(tuple(permutation))
        return tuple(permutations)

    def transform(self, state: int, symmetry: int) -> int:
        """Return ``state`` moved by the board symmetry numbered ``symmetry``.

        The number indexes :meth:`symmetries`; the image is a state of the same game."""
        return self._image(state, self._tables()[symmetry])

    def canonical(self, state: int) -> int:
        """Return the smallest of the images of ``state`` under the board's symmetries.

        Positions equal up to symmetry have the same canonical state."""
        image = self._image
        return min(image(state, tables) for tables in self._tables())

    def _image(self, state: int, tables: tuple[tuple[int, ...], ...]) -> int:
        image = state & self._flag  # a line stays a line under every symmetry
        state &= self._stones
        for table in tables:
            if not state:
                break
            image |= table[state & _CHUNK_MASK]
            state >>= _CHUNK
        return image

    def _tables(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Per symmetry, per byte of the stone bits, the image of every byte value.

        They are made on first use: most searches never ask for a symmetry."""
        if self._symmetry_tables is not None:
            return self._symmetry_tables
        size = self.size
        result = []
        for permutation in self.symmetries():
            destination = permutation + tuple(size + cell for cell in permutation)
            tables = []
            for start in range(0, 2 * size, _CHUNK):
                table = [0] * (_CHUNK_MASK + 1)
                for value in range(1, _CHUNK_MASK + 1):
                    low = value & -value
                    bit = start + low.bit_length() - 1
                    moved = 1 << destination[bit] if bit < 2 * size else 0
                    table[value] = table[value ^ low] | moved
                tables.append(tuple(table))
            result.append(tuple(tables))
        self._symmetry_tables = tuple(result)
        return self._symmetry_tables

    # ------------------------------------------------------------------- notation

    def cell_name(self, cell: int) -> str:
        """Return the name of ``cell``: its column letter and row counted from the bottom."""
        row, column = divmod(cell, self.m)
        return f"{chr(ord('a') + column)}{self.n - row}"

    def parse_move(self, state: int, text: str) -> int:
        """Read ``text`` as a cell, e.g. ``b2`` (or a digit 1-9 on the 3x3 board).

        Raises :class:`~zerosum.game.InvalidMoveError` for text that names no cell, and
        :class:`~zerosum.game.IllegalMoveError` after the end of the game, for a cell off
        the board and for a cell already taken."""
        m, n = self.m, self.n
        word = text.strip().lower()
        digit_form = m == n == 3
        match = _COORDINATE.fullmatch(word)
        if match is None and not (digit_form and len(word) == 1 and "1" <= word <= "9"):
            or_digit = " or a digit 1-9" if digit_form else ""
            raise InvalidMoveError(
                f"cannot read move {quoted(text)} in {describe_state(self, state)}: write a column "
                f"letter and a row number like 'b2'{or_digit}"
            )
        if self.is_terminal(state):
            raise IllegalMoveError(
                f"illegal move {quoted(text)}: the game is over in {describe_state(self, state)}"
            )
        if match is None:
            cell = int(word) - 1
        else:
            column = ord(match[1]) - ord("a")
            digits = match[2]
            row = n - int(digits) if len(digits) <= 3 else -1
            if not (0 <= column < m and 0 <= row < n):
                raise IllegalMoveError(
                    f"illegal move {quoted(text)} in {describe_state(self, state)}: the board has "
                    f"columns a-{chr(ord('a') + m - 1)} and rows 1-{n}"
                )
            cell = row * m + column
        if (state | state >> self.size) >> cell & 1:
            raise IllegalMoveError(
                f"illegal move {quoted(text)} in {describe_state(self, state)}: "
                f"{self.cell_name(cell)} is taken"
            )
        return cell

    def format_move(self, state: int, action: int) -> str:
        """Write cell ``action`` as its column letter and row number, e.g. ``b2``."""
        return self.cell_name(action)

    def parse_state(self, text: str) -> int:
        """Read a position written as rows from the top, e.g. ``x.o/.x./..o``.

        Raises :class:`~zerosum.game.InvalidStateError` for text that is not a board of
        this size and for a position no game reaches: O with more stones than X, X more
        than one ahead, lines for both, a line for the player who did not move last, or
        lines the last stone cannot have completed all at once."""
        m, n, size = self.m, self.n, self.size
        rows = text.strip().lower().split("/")
        if len(rows) != n or any(len(row) != m for row in rows):
            raise InvalidStateError(
                f"cannot read position {quoted(text)}: expected {n} rows of {m} cells "
                f"(x, o or .) separated by '/'"
            )
        x = o = 0
        for cell, char in enumerate("".join(rows)):
            kind = _STATE_CELLS.get(char)
            if kind is None:
                raise InvalidStateError(
                    f"cannot read position {quoted(text)}: {char!r} is not a cell; use x, o or ."
                )
            if kind == 1:
                x |= 1 << cell
            elif kind == 2:
                o |= 1 << cell
        xs, os = x.bit_count(), o.bit_count()
        if not os <= xs <= os + 1:
            raise InvalidStateError(
                f"impossible position {quoted(text)}: X has {xs} stones and O {os}, but X moves "
                f"first and the players alternate"
            )
        x_lines = [line for line in self.lines if x & line == line]
        o_lines = [line for line in self.lines if o & line == line]
        if x_lines and o_lines:
            raise InvalidStateError(f"impossible position {quoted(text)}: both X and O have a line")
        if x_lines and xs == os:
            raise InvalidStateError(
                f"impossible position {quoted(text)}: X has a line, but O moved after it"
            )
        if o_lines and xs > os:
            raise InvalidStateError(
                f"impossible position {quoted(text)}: O has a line, but X moved after it"
            )
        winning = x_lines or o_lines
        common = self._full
        for line in winning:
            common &= line
        if not common:
            raise InvalidStateError(
                f"impossible position {quoted(text)}: no single stone completes all the lines, "
                f"so the game would have ended earlier"
            )
        state = x | o << size
        return state | self._flag if winning else state

    def format_state(self, state: int) -> str:
        """Write ``state`` as rows from the top with ``x``, ``o`` and ``.``."""
        m, size = self.m, self.size
        cells = [
            "x" if state >> cell & 1 else "o" if state >> (size + cell) & 1 else "."
            for cell in range(size)
        ]
        return "/".join("".join(cells[start : start + m]) for start in range(0, size, m))

    def render(self, state: int) -> str:
        """Draw the board for a person: X, O and · with row numbers and column letters."""
        m, n, size = self.m, self.n, self.size
        width = len(str(n))
        lines = []
        for row in range(n):
            marks = (
                _RENDER[(state >> cell & 1) | (state >> (size + cell) & 1) << 1]
                for cell in range(row * m, row * m + m)
            )
            lines.append(f"{n - row:>{width}} {' '.join(marks)}")
        letters = " ".join(chr(ord("a") + column) for column in range(m))
        lines.append(f"{'':>{width}} {letters}")
        return "\n".join(lines)

    def board(self, state: int) -> BoardView[int]:
        """Return the picture of ``state`` for graphical interfaces.

        Cells are in reading order, so a click on a cell plays the move of the same
        number; the state does not record which stone came last."""
        size = self.size
        cells = tuple(
            0 if state >> cell & 1 else 1 if state >> (size + cell) & 1 else None
            for cell in range(size)
        )
        return BoardView(
            self.m,
            self.n,
            cells,
            {cell: cell for cell in self.actions(state)},
            files=tuple(chr(ord("a") + column) for column in range(self.m)),
            ranks=tuple(str(self.n - row) for row in range(self.n)),
            line=winning_line(cells, self.m, self.n, self.k) if self.is_terminal(state) else (),
        )


def _info(m: int, n: int, k: int) -> GameInfo:
    """The metadata of the m,n,k-game; the 3,3,3-game is tic-tac-toe, a known draw."""
    if (m, n, k) == (3, 3, 3):
        return GameInfo(
            name="tictactoe",
            title="Tic-tac-toe",
            players=("X", "O"),
            solved_value=0,
            board_size=(3, 3),
            description="Three in a row on a 3x3 board; X moves first; a draw with best play.",
        )
    return GameInfo(
        name="mnk",
        title=f"m,n,k-game {m}x{n}, {k} in a row",
        players=("X", "O"),
        board_size=(m, n),
        description=(
            f"{k} in a row, across, down or diagonally, on a board {m} wide and {n} high; "
            f"X moves first."
        ),
    )


def tictactoe() -> MNKGame:
    """Return tic-tac-toe: the 3,3,3-game."""
    return MNKGame(3, 3, 3)
