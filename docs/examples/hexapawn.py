"""Hexapawn, Martin Gardner's game of six pawns: a complete zerosum game in one file.

Three white pawns stand on the bottom row of a 3x3 board and three black pawns on the
top row. White moves first. A pawn moves one square straight forward to an empty square,
or one square diagonally forward to capture an enemy pawn. A player wins by reaching the
far row, by capturing every enemy pawn, or when the opponent, to move, has no move.
Black, the second player, wins with best play (Gardner, 1962).

A state is ``(white, black, mover)``: two 9-bit masks of the pawns (bit ``row * 3 +
column``, row 0 at the top) and the player to move. A move is ``(from, to)``, two cell
numbers. In the notation a cell is its column letter and its row counted from the bottom
(``a1`` is White's left corner), a move is ``b1-b2`` or, capturing, ``b2xc3``, and a
position is its rows from the top and the side to move: ``bbb/.../www w``.
"""

from __future__ import annotations

from zerosum.game import (
    GameInfo,
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
    Player,
    describe_state,
)

__all__ = ["Hexapawn", "Move", "State"]

State = tuple[int, int, Player]
"""White's pawns, Black's pawns (9-bit masks) and the player to move."""

Move = tuple[int, int]
"""The cell a pawn leaves and the cell it reaches."""

_CELLS = 9
_GOAL = (0b000_000_111, 0b111_000_000)  # the row each player wins on: the top, the bottom


def _steps(forward: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For each cell, the cell straight ahead and the cells a capture reaches."""
    table: list[tuple[int, tuple[int, ...]]] = []
    for cell in range(_CELLS):
        row, column = divmod(cell, 3)
        ahead = row + forward
        if not 0 <= ahead < 3:
            table.append((-1, ()))
            continue
        captures = tuple(ahead * 3 + c for c in (column - 1, column + 1) if 0 <= c < 3)
        table.append((ahead * 3 + column, captures))
    return tuple(table)


_STEPS = (_steps(-1), _steps(+1))  # White moves up the board, Black down
_NAMES = tuple(f"{'abc'[cell % 3]}{3 - cell // 3}" for cell in range(_CELLS))
_CELL_OF = {name: cell for cell, name in enumerate(_NAMES)}
_PIECES = {"w": 0, "b": 1, ".": None}


class Hexapawn:
    """Hexapawn on the 3x3 board: the Game protocol, a key, and the checked notation."""

    info = GameInfo(
        name="hexapawn",
        title="Hexapawn",
        players=("white", "black"),
        solved_value=-1,
        board_size=(3, 3),
        description="Three pawns each on a 3x3 board; reach the far row to win.",
    )

    # ----------------------------------------------------------------- the protocol

    def initial_state(self) -> State:
        """Return the start: White's pawns on the bottom row, Black's on the top."""
        return (_GOAL[1], _GOAL[0], 0)

    def to_move(self, state: State) -> Player:
        """Return the player to move: 0 for White, 1 for Black."""
        return state[2]

    def actions(self, state: State) -> tuple[Move, ...]:
        """Return the legal moves, pawn by pawn in cell order; none once the game is over."""
        white, black, mover = state
        if white & _GOAL[0] or black & _GOAL[1]:
            return ()
        own, enemy = (white, black) if mover == 0 else (black, white)
        occupied = white | black
        moves = []
        for cell, (ahead, captures) in enumerate(_STEPS[mover]):
            if own >> cell & 1:
                if ahead >= 0 and not occupied >> ahead & 1:
                    moves.append((cell, ahead))
                moves.extend((cell, target) for target in captures if enemy >> target & 1)
        return tuple(moves)

    def result(self, state: State, action: Move) -> State:
        """Return the state after ``action``; unchecked."""
        white, black, mover = state
        source, target = action
        moved = (1 << source) | (1 << target)
        if mover == 0:
            return (white ^ moved, black & ~(1 << target), 1)
        return (white & ~(1 << target), black ^ moved, 0)

    def is_terminal(self, state: State) -> bool:
        """Tell whether a pawn reached the far row or the player to move is stuck."""
        return not self.actions(state)

    def utility(self, state: State, player: Player) -> int:
        """Return +1 if ``player`` won: the game always ends with the last mover winning."""
        return 1 if player != state[2] else -1

    def key(self, state: State) -> int:
        """Return the position and the side to move packed in one int."""
        white, black, mover = state
        return white | black << _CELLS | mover << 2 * _CELLS

    # ----------------------------------------------------------------- notation

    def format_move(self, state: State, action: Move) -> str:
        """Write ``action`` as ``b1-b2``, or ``b2xc3`` for a capture."""
        source, target = action
        capture = (state[0] | state[1]) >> target & 1
        return f"{_NAMES[source]}{'x' if capture else '-'}{_NAMES[target]}"

    def parse_move(self, state: State, text: str) -> Move:
        """Read ``b1-b2``, ``b2xc3`` or ``b1b2`` as a legal move in ``state``.

        Raises :class:`~zerosum.game.InvalidMoveError` for text that names no two cells
        and :class:`~zerosum.game.IllegalMoveError` for a move the rules forbid."""
        word = text.strip().lower().replace("-", "").replace("x", "")
        source, target = _CELL_OF.get(word[:2]), _CELL_OF.get(word[2:])
        if len(word) != 4 or source is None or target is None:
            raise InvalidMoveError(
                f"cannot read move {text!r} in {describe_state(self, state)}: "
                "write two cells like 'b1-b2' or 'b2xc3'"
            )
        if (source, target) not in self.actions(state):
            raise IllegalMoveError(
                f"illegal move {text!r} in {describe_state(self, state)}: "
                f"the legal moves are {self._listing(state)}"
            )
        return (source, target)

    def _listing(self, state: State) -> str:
        moves = [self.format_move(state, move) for move in self.actions(state)]
        return ", ".join(moves) if moves else "none (the game is over)"

    def format_state(self, state: State) -> str:
        """Write ``state`` as its rows from the top and the side to move: ``bbb/.../www w``."""
        white, black, mover = state
        cells = "".join(
            "w" if white >> cell & 1 else "b" if black >> cell & 1 else "."
            for cell in range(_CELLS)
        )
        return f"{cells[0:3]}/{cells[3:6]}/{cells[6:9]} {'wb'[mover]}"

    def parse_state(self, text: str) -> State:
        """Read a position written as :meth:`format_state` writes it.

        Raises :class:`~zerosum.game.InvalidStateError` for text that is not a 3x3
        board with a side to move, or for more than three pawns of a colour."""
        board, _, side = text.strip().lower().partition(" ")
        rows = board.split("/")
        if len(rows) != 3 or any(len(row) != 3 for row in rows) or side not in ("w", "b"):
            raise InvalidStateError(
                f"cannot read position {text!r}: write three rows of w, b or . and the "
                "side to move, like 'bbb/.../www w'"
            )
        masks = [0, 0]
        for cell, char in enumerate("".join(rows)):
            if char not in _PIECES:
                raise InvalidStateError(f"cannot read position {text!r}: {char!r} is not w, b or .")
            piece = _PIECES[char]
            if piece is not None:
                masks[piece] |= 1 << cell
        if max(masks[0].bit_count(), masks[1].bit_count()) > 3:
            raise InvalidStateError(
                f"impossible position {text!r}: a player has more than three pawns"
            )
        return (masks[0], masks[1], 0 if side == "w" else 1)

    def render(self, state: State) -> str:
        """Draw the board with W, B and · and the side to move."""
        white, black, mover = state
        lines = []
        for row in range(3):
            marks = (
                "W" if white >> cell & 1 else "B" if black >> cell & 1 else "·"
                for cell in range(row * 3, row * 3 + 3)
            )
            lines.append(f"{3 - row} {' '.join(marks)}")
        lines.append("  a b c")
        lines.append(f"{self.info.players[mover]} to move")
        return "\n".join(lines)
