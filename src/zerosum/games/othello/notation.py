"""The checked layer of othello: moves and positions in and out, a board picture.

Everything here is for people and protocols, not for the search: it checks, and bad
input raises :class:`~zerosum.game.InvalidMoveError` (text that is no move),
:class:`~zerosum.game.IllegalMoveError` (a move the rules forbid here) or
:class:`~zerosum.game.InvalidStateError` (a position that cannot be read or cannot
exist), each naming the input and the position.

**Moves** are squares, a file letter and a rank digit (``d3``), read in either case
(``D3``, as GTP and the FFO files write them) and written in lower case; the pass is
written ``pass`` and read as ``pass``, ``ps`` or ``pa`` (NBoard's form), in any case.

**Positions** are written as in the FFO/obf files: 64 characters for the squares
``a1..h1, a2..h2, ..., h8`` (``X`` black, ``O`` white, ``-`` empty), a space and the side
to move (``X`` or ``O``). They are read in that form, followed or not by the obf file's
``;`` and move scores, and also as the 65-character form without the space; ``x``/``o``,
``*`` for black, ``.`` for empty and ``B``/``W`` for the side are read too. A position
whose four centre squares are not all occupied cannot arise (no disc is ever removed).
"""

from __future__ import annotations

from zerosum.game import IllegalMoveError, InvalidMoveError, InvalidStateError, quoted
from zerosum.games.othello.rules import BLACK, PASS, WHITE, State, make

__all__ = [
    "colours",
    "format_move",
    "format_state",
    "parse_move",
    "parse_square",
    "parse_state",
    "render",
    "square_name",
]

_FILES = "abcdefgh"
_PASSES = frozenset({"pass", "ps", "pa"})
_CENTRE = 1 << 27 | 1 << 28 | 1 << 35 | 1 << 36
_BLACK_CHARS = frozenset("Xx*Bb")
_WHITE_CHARS = frozenset("OoWw")
_EMPTY_CHARS = frozenset("-._")
_SIDES = {"X": BLACK, "B": BLACK, "O": WHITE, "W": WHITE}
_MAX_STATE = 4096  # an obf line with every move scored is well under this


def square_name(square: int) -> str:
    """Return the name of ``square``: ``a1`` for 0, ``h8`` for 63."""
    return _FILES[square & 7] + str((square >> 3) + 1)


def colours(state: State) -> tuple[int, int]:
    """Return the black and the white discs of ``state``."""
    mover, opponent, side, _ = state
    return (mover, opponent) if side == BLACK else (opponent, mover)


def format_move(state: State, move: int) -> str:
    """Write ``move``: its square (``d3``), or ``pass``."""
    return "pass" if move == PASS else square_name(move)


def parse_square(text: str) -> int | None:
    """Read a square's name in either case (``d3``, ``D3``); ``None`` if it is not one."""
    word = text.strip().lower()
    if len(word) == 2 and word[0] in _FILES and word[1] in "12345678":
        return _FILES.index(word[0]) + 8 * (int(word[1]) - 1)
    return None


def parse_move(state: State, text: str) -> int:
    """Read ``text`` as a legal move in ``state``: a square or a pass.

    Raises :class:`InvalidMoveError` for text that names no square or pass and
    :class:`IllegalMoveError` for a move the rules forbid here."""
    word = text.strip().lower()
    move = PASS if word in _PASSES else parse_square(word)
    if move is None:
        raise InvalidMoveError(
            f"{quoted(text)} is not an othello move (a square such as d3, or pass) in "
            f"{format_state(state)}"
        )
    moves = state[3]
    if not moves >> move & 1:
        if not moves:
            why = "the game is over"
        elif move == PASS:
            why = "a side may pass only when it has no other move"
        elif moves >> PASS & 1:
            why = "the side to move has no move and must pass"
        elif (state[0] | state[1]) >> move & 1:
            why = "the square is taken"
        else:
            why = "it flips no disc"
        raise IllegalMoveError(f"{quoted(text)} is not legal in {format_state(state)}: {why}")
    return move


def format_state(state: State) -> str:
    """Write ``state`` in the FFO/obf form: 64 squares ``a1..h8`` and the side to move."""
    black, white = colours(state)
    squares = "".join(
        "X" if black >> square & 1 else "O" if white >> square & 1 else "-" for square in range(64)
    )
    return f"{squares} {'X' if state[2] == BLACK else 'O'}"


def parse_state(text: str) -> State:
    """Read a position in the FFO/obf form (``<64 squares> X``), with or without the obf
    file's move scores after a ``;``, or as 65 characters without the space.

    Raises :class:`InvalidStateError` naming the text for anything else, and for a
    position whose centre squares are not all occupied."""

    def bad(why: str) -> InvalidStateError:
        return InvalidStateError(f"{quoted(text)} is not an othello position: {why}")

    if len(text) > _MAX_STATE:
        raise bad(f"longer than {_MAX_STATE:,} characters")
    board = text.partition(";")[0].strip()
    parts = board.split()
    if len(parts) == 1 and len(parts[0]) == 65:
        parts = [parts[0][:64], parts[0][64]]
    if len(parts) != 2:
        raise bad("write 64 squares (X, O, -), a space and the side to move (X or O)")
    squares, side_text = parts
    if len(squares) != 64:
        raise bad(f"it has {len(squares)} squares, not 64")
    side = _SIDES.get(side_text.upper())
    if side is None:
        raise bad(f"the side to move is {quoted(side_text)}, not X or O")
    black = white = 0
    for square, char in enumerate(squares):
        if char in _BLACK_CHARS:
            black |= 1 << square
        elif char in _WHITE_CHARS:
            white |= 1 << square
        elif char not in _EMPTY_CHARS:
            raise bad(f"square {square_name(square)} holds {quoted(char)}, not X, O or -")
    if (black | white) & _CENTRE != _CENTRE:
        raise bad("the four centre squares start occupied and discs are never removed")
    return make(black, white, side) if side == BLACK else make(white, black, side)


def render(state: State) -> str:
    """Draw the board (``a1`` top left, ``X`` black, ``O`` white, ``.`` a legal move),
    with the disc count and the side to move, or the final score."""
    black, white = colours(state)
    moves = state[3]
    rows = ["  a b c d e f g h"]
    for rank in range(8):
        cells = []
        for file in range(8):
            square = 8 * rank + file
            if black >> square & 1:
                cells.append("X")
            elif white >> square & 1:
                cells.append("O")
            else:
                cells.append("." if moves >> square & 1 else "-")
        rows.append(f"{rank + 1} {' '.join(cells)} {rank + 1}")
    rows.append("  a b c d e f g h")
    count = f"X {black.bit_count()}, O {white.bit_count()}"
    if not moves:
        rows.append(f"{count}: game over")
    else:
        who = "X (black)" if state[2] == BLACK else "O (white)"
        rows.append(f"{count}: {who} to move" + (", must pass" if moves == 1 << PASS else ""))
    return "\n".join(rows)
