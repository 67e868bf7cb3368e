"""The checked layer of chess: FEN in and out, UCI and SAN moves, a board picture.

Everything here is for people and protocols, not for the search: it may be slow, and it
checks. Bad input raises :class:`~zerosum.game.InvalidStateError` (a FEN that cannot be
read, or a position that cannot exist), :class:`~zerosum.game.InvalidMoveError` (text
that is no move) or :class:`~zerosum.game.IllegalMoveError` (a move the rules forbid),
each naming the input and the position.

FEN is read with four to six fields (EPD's four are enough; the clocks default to 0 and
1). Castling rights may be written ``KQkq``, in X-FEN or in Shredder-FEN (the rook's
file, ``HAha``). Rights the position cannot have (no king or rook on its square) are
dropped, as python-chess and most engines do; in standard chess a right also needs the
king on the e-file and the rook in its corner. An en passant square is kept only when a
capture there is legal, so ``format_fen`` writes ``-`` otherwise.

UCI moves are ``e2e4`` and ``e7e8q``; castling is the king's two-square move (``e1g1``)
in standard chess and the king moving onto its rook (``e1h1``) in Chess960, as the UCI
protocol's ``UCI_Chess960`` option has it. Both forms are read in both variants.
"""

from __future__ import annotations

import re
from functools import partial

from zerosum.game import IllegalMoveError, InvalidMoveError, InvalidStateError, quoted
from zerosum.games.bitboards import bit_indices, fen_placement
from zerosum.games.chess.rules import (
    BLACK,
    KING,
    PAWN,
    ROOK,
    WHITE,
    State,
    attackers,
    colour_set,
    is_check,
    legal_moves,
    make,
    piece_at,
    piece_set,
    result,
)

__all__ = [
    "format_fen",
    "format_san",
    "format_uci",
    "parse_fen",
    "parse_move",
    "parse_san",
    "parse_uci",
    "render",
    "square_name",
]

_LETTERS = "pnbrqk"
_FILES = "abcdefgh"
_MAX_FEN = 120  # a FEN is at most 92 characters plus clocks: longer input is rejected unread
_UCI = re.compile(r"([a-h][1-8])([a-h][1-8])([qrbn]?)")
_SAN = re.compile(r"([NBRQK])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=?([NBRQ]))?")
_CASTLES = {"O-O": True, "0-0": True, "O-O-O": False, "0-0-0": False}


def square_name(sq: int) -> str:
    """Return the name of square ``sq`` (0 is ``a1``, 63 is ``h8``)."""
    return _FILES[sq & 7] + str((sq >> 3) + 1)


def _square(name: str) -> int:
    return _FILES.index(name[0]) + 8 * (int(name[1]) - 1)


# --------------------------------------------------------------------------- FEN


def parse_fen(text: str, chess960: bool = False) -> State:
    """Read a FEN (or the first four fields of an EPD) as a state.

    Raises :class:`InvalidStateError` naming the text when it is not a FEN, or describes
    a position that cannot exist: not one king a side, a pawn on its first or last rank,
    the side that just moved in check."""

    def bad(why: str) -> InvalidStateError:
        return InvalidStateError(f"{quoted(text)} is not a valid FEN: {why}")

    if len(text) > _MAX_FEN:
        raise bad(f"longer than {_MAX_FEN} characters")
    fields = text.split()
    if not 4 <= len(fields) <= 6:
        raise bad("a FEN has six fields (placement, side, castling, en passant, clocks)")
    placement, side, rights, passant = fields[:4]
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise bad(f"the placement has {len(ranks)} ranks, not 8")
    board: dict[int, tuple[int, int]] = {}
    for row, rank_text in enumerate(ranks):
        rank = 7 - row
        file = 0
        for char in rank_text:
            if char in "12345678":
                file += int(char)
            elif char.lower() in _LETTERS:
                if file > 7:
                    raise bad(f"rank {rank + 1} ({rank_text!r}) holds more than 8 squares")
                board[rank * 8 + file] = (
                    WHITE if char.isupper() else BLACK,
                    _LETTERS.index(char.lower()),
                )
                file += 1
            else:
                raise bad(f"{char!r} is no piece")
        if file != 8:
            raise bad(f"rank {rank + 1} ({rank_text!r}) does not hold 8 squares")
    for colour, name in ((WHITE, "white"), (BLACK, "black")):
        count = sum(1 for piece in board.values() if piece == (colour, KING))
        if count != 1:
            raise bad(f"{name} has {count} kings")
    if any(piece == PAWN and sq >> 3 in (0, 7) for sq, (_, piece) in board.items()):
        raise bad("a pawn stands on the first or last rank")
    if side not in ("w", "b"):
        raise bad(f"the side to move is {side!r}, not 'w' or 'b'")
    turn = WHITE if side == "w" else BLACK
    castling = _parse_castling(rights, board, chess960)
    if castling < 0:
        raise bad(f"{rights!r} is no castling field")
    ep = 0
    if passant != "-":
        if not re.fullmatch(r"[a-h][36]", passant) or passant[1] != ("6" if turn == WHITE else "3"):
            raise bad(f"{passant!r} is no en passant square for {('white', 'black')[turn]} to move")
        ep = _square(passant)
    clocks = []
    for field, low in zip(fields[4:], (0, 0), strict=False):
        if not field.isdigit() or len(field) > 6 or int(field) < low:
            raise bad(f"the clock {field!r} is not a number of moves")
        clocks.append(int(field))
    halfmove = clocks[0] if clocks else 0
    fullmove = max(clocks[1], 1) if len(clocks) > 1 else 1
    state = make(board, turn, castling=castling, ep=ep, halfmove=halfmove, fullmove=fullmove)
    king = state[7] & colour_set(state, turn ^ 1)
    if attackers(state, king.bit_length() - 1, turn):
        raise bad(f"{('white', 'black')[turn ^ 1]} is in check with {side!r} to move")
    return state


def _parse_castling(rights: str, board: dict[int, tuple[int, int]], chess960: bool) -> int:
    """Read the castling field as a set of rook squares, dropping impossible rights.

    Returns -1 when the field is not a castling field at all."""
    if rights == "-":
        return 0
    if not re.fullmatch(r"[KQA-Hkqa-h]{1,4}", rights) or len(set(rights)) != len(rights):
        return -1
    castling = 0
    for char in rights:
        colour = WHITE if char.isupper() else BLACK
        home = 0 if colour == WHITE else 56
        kings = [sq for sq in range(home, home + 8) if board.get(sq) == (colour, KING)]
        rooks = [sq for sq in range(home, home + 8) if board.get(sq) == (colour, ROOK)]
        if not kings:
            continue
        king = kings[0]
        letter = char.upper()
        if letter == "K":
            found = [sq for sq in rooks if sq > king][-1:]
        elif letter == "Q":
            found = [sq for sq in rooks if sq < king][:1]
        else:
            found = [sq for sq in rooks if sq == home + _FILES.index(letter.lower())]
        if not found:
            continue
        rook = found[0]
        if not chess960 and (king != home + 4 or rook not in (home, home + 7)):
            continue
        castling |= 1 << rook
    return castling


def format_fen(state: State, chess960: bool = False) -> str:
    """Write ``state`` as FEN (X-FEN castling: a file letter only where ``KQkq`` would
    name another rook). ``chess960`` is accepted for symmetry with :func:`parse_fen`."""
    del chess960  # X-FEN writes standard rights as KQkq in both variants
    placement = fen_placement(8, 8, partial(_fen_letter, state))
    rights = ""
    for colour in (WHITE, BLACK):
        home = 0 if colour == WHITE else 56
        king = (state[7] & colour_set(state, colour)).bit_length() - 1
        rooks = bit_indices(state[5] & colour_set(state, colour) & (0xFF << home))
        for rook in reversed(bit_indices(state[9] & (0xFF << home))):
            if rook > king and rook == max(rooks):
                char = "K"
            elif rook < king and rook == min(rooks):
                char = "Q"
            else:
                char = _FILES[rook & 7].upper()
            rights += char if colour == WHITE else char.lower()
    ep = square_name(state[10]) if state[10] else "-"
    side = "wb"[state[8]]
    return f"{placement} {side} {rights or '-'} {ep} {state[11]} {state[12]}"


def _fen_letter(state: State, sq: int) -> str | None:
    """The FEN letter of the piece on ``sq``: upper case for white."""
    found = piece_at(state, sq)
    if found is None:
        return None
    letter = _LETTERS[found[1]]
    return letter.upper() if found[0] == WHITE else letter


# --------------------------------------------------------------------------- moves


def _is_castling(state: State, move: int) -> bool:
    return bool(colour_set(state, state[8]) >> (move >> 6 & 63) & 1)


def _king_target(state: State, move: int) -> int:
    """The square a castling king lands on."""
    home = 56 if state[8] else 0
    return home + (6 if (move >> 6 & 63) > (move & 63) else 2)


def format_uci(state: State, move: int, chess960: bool = False) -> str:
    """Write ``move`` in UCI notation (standard or Chess960 castling)."""
    frm, to, promotion = move & 63, move >> 6 & 63, move >> 12
    if _is_castling(state, move) and not chess960:
        to = _king_target(state, move)
    return square_name(frm) + square_name(to) + (_LETTERS[promotion] if promotion else "")


def parse_uci(state: State, text: str) -> int:
    """Read a UCI move (``e2e4``, ``e7e8q``; castling in either form) legal in ``state``.

    Raises :class:`InvalidMoveError` for text that is no UCI move and
    :class:`IllegalMoveError` for a move the rules forbid."""
    found = _UCI.fullmatch(text)
    if found is None:
        raise InvalidMoveError(f"{quoted(text)} is not a UCI move (like e2e4 or e7e8q)")
    frm, to = _square(found[1]), _square(found[2])
    promotion = _LETTERS.index(found[3]) if found[3] else 0
    move = frm | to << 6 | promotion << 12
    moves = legal_moves(state)
    if move in moves:
        return move
    for candidate in moves:  # e1g1: the king's two-square move names castling
        if (
            candidate & 63 == frm
            and not promotion
            and _is_castling(state, candidate)
            and _king_target(state, candidate) == to != frm
        ):
            return candidate
    raise IllegalMoveError(f"{quoted(text)} is not a legal move in {format_fen(state)}")


def format_san(state: State, move: int) -> str:
    """Write ``move`` (legal in ``state``) in standard algebraic notation, with ``+``
    for check and ``#`` for mate."""
    frm, to, promotion = move & 63, move >> 6 & 63, move >> 12
    found = piece_at(state, frm)
    assert found is not None, "a legal move starts on a piece"
    piece = found[1]
    capture = bool(colour_set(state, state[8] ^ 1) >> to & 1)
    if piece == KING and _is_castling(state, move):
        text = "O-O" if to > frm else "O-O-O"
    elif piece == PAWN:
        capture = capture or (frm & 7) != (to & 7)
        text = (_FILES[frm & 7] + "x" if capture else "") + square_name(to)
        if promotion:
            text += "=" + _LETTERS[promotion].upper()
    else:
        rivals = [
            other & 63
            for other in legal_moves(state)
            if other != move
            and other >> 6 & 63 == to
            and (other & 63) != frm
            and piece_set(state, piece) >> (other & 63) & 1
        ]
        hint = ""
        if rivals:
            if all((sq & 7) != (frm & 7) for sq in rivals):
                hint = _FILES[frm & 7]
            elif all((sq >> 3) != (frm >> 3) for sq in rivals):
                hint = str((frm >> 3) + 1)
            else:
                hint = square_name(frm)
        text = _LETTERS[piece].upper() + hint + ("x" if capture else "") + square_name(to)
    after = result(state, move)
    if is_check(after):
        text += "#" if not legal_moves(after) else "+"
    return text


def parse_san(state: State, text: str) -> int:
    """Read a move in standard algebraic notation (``Nf3``, ``exd5``, ``e8=Q``, ``O-O``;
    check marks and ``!``/``?`` annotations are ignored) legal in ``state``.

    Raises :class:`InvalidMoveError` for text that is no SAN and
    :class:`IllegalMoveError` for a move that is illegal or ambiguous here."""
    core = text.rstrip("+#!?")
    moves = legal_moves(state)
    if core in _CASTLES:
        kingside = _CASTLES[core]
        for move in moves:
            if _is_castling(state, move) and ((move >> 6 & 63) > (move & 63)) == kingside:
                return move
        raise IllegalMoveError(f"{quoted(text)}: castling is not legal in {format_fen(state)}")
    found = _SAN.fullmatch(core)
    if found is None:
        raise InvalidMoveError(f"{quoted(text)} is not a move in SAN or UCI (like Nf3 or e2e4)")
    letter, file, rank, _, target, promo = found.groups()
    piece = "PNBRQK".index(letter) if letter else PAWN
    to = _square(target)
    promotion = "PNBRQK".index(promo) if promo else 0
    matches = [
        move
        for move in moves
        if move >> 6 & 63 == to
        and move >> 12 == promotion
        and piece_set(state, piece) >> (move & 63) & 1
        and not _is_castling(state, move)
        and (file is None or _FILES[move & 7] == file)
        and (rank is None or (move & 63) >> 3 == int(rank) - 1)
    ]
    if len(matches) == 1:
        return matches[0]
    why = "ambiguous" if matches else "not a legal move"
    raise IllegalMoveError(f"{quoted(text)} is {why} in {format_fen(state)}")


def parse_move(state: State, text: str) -> int:
    """Read a move in UCI (``e2e4``) or SAN (``e4``, ``Nf3``, ``O-O``)."""
    text = text.strip()
    if _UCI.fullmatch(text):
        return parse_uci(state, text)
    return parse_san(state, text)


# --------------------------------------------------------------------------- picture


def render(state: State) -> str:
    """Draw the board with rank and file coordinates, white at the bottom (upper case
    white, lower case black, ``.`` empty), and say who is to move."""
    lines = []
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            found = piece_at(state, rank * 8 + file)
            if found is None:
                cells.append(".")
            else:
                letter = _LETTERS[found[1]]
                cells.append(letter.upper() if found[0] == WHITE else letter)
        lines.append(f"{rank + 1} {' '.join(cells)}")
    lines.append("  " + " ".join(_FILES))
    mover = ("white", "black")[state[8]]
    lines.append(f"{mover} to move" + (", in check" if is_check(state) else ""))
    return "\n".join(lines)
