"""The checked layer of xiangqi: FEN in and out, moves in ICCS, WXF and Chinese notation,
and a board picture.

Everything here is for people and protocols, not for the search: it may be slow, and it
checks. Bad input raises :class:`~zerosum.game.InvalidStateError` (a FEN that cannot be
read, or a position that cannot exist), :class:`~zerosum.game.InvalidMoveError` (text
that is no move) or :class:`~zerosum.game.IllegalMoveError` (a move the rules forbid, or
text that names more than one), each naming the input and the position.

FEN is written as Fairy-Stockfish and Pikafish write it (``rnbakabnr/9/1c5c1/...`` with
``w`` or ``b`` to move and ``- -`` in the fields chess uses for castling and en passant).
The older letters ``h`` (horse) and ``e`` (elephant) and ``r`` for red to move are read
too, and every field after the side to move may be left out.

Moves are written in four notations:

* ICCS coordinates, ``h2e2``: files ``a``-``i`` from red's left, ranks 0-9 from red's
  side, as Pikafish's UCI has them (``base=0``); Fairy-Stockfish's UCI counts ranks 1-10
  (``h3e3``, ``a10a9``: ``base=1``). ICCS's own upper-case form ``H2-E2`` is read too.
* WXF, ``C2=5``, ``H8+7``: the piece's letter (``KAEHRCP``; ``B`` and ``N`` are read as
  well), its file counted 1-9 from the mover's right, ``+`` forward, ``-`` back, ``=``
  (or ``.``) sideways, then the distance of a move along a file or the file it lands
  on. Written exactly as Fairy-Stockfish writes it: two like pieces on a file are
  told apart by ``+`` (front) and ``-`` (rear) in place of the file (``C+=5``) where the
  other piece could make the same step, and soldiers three to a file, or two to a file on
  two files, by their place from the front and their file (``15+1``, ``23=4``). The
  form ``+C=5`` is read as ``C+=5``.
* Chinese, ``炮二平五``, ``马８进７``: the piece's name, its file (red's in Chinese numerals
  一 to 九, black's in digits), 进 forward, 退 back or 平 sideways, and a distance or a
  file. Black's digits are written full width (``马８进７``), as xqbase.com's game
  records and ElephantEye write them; ASCII digits are read too. Two like pieces on a
  file are 前 (front) and 后 (rear) in place of the file (``前炮平五``), except advisors
  and elephants, whose direction already tells them apart; soldiers three to a file are
  前, 中 and 后, four or five are 一 to 五 from the front, and soldiers doubled on two
  files keep their file after the name (``前兵三平四``). Traditional characters (車馬
  砲帥將進後, and 俥傌 for red) and either side's names are read for any piece.
* :func:`parse_move` reads all of these.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Literal

from zerosum.game import IllegalMoveError, InvalidMoveError, InvalidStateError, quoted
from zerosum.games.bitboards import bit_indices, fen_placement
from zerosum.games.xiangqi.rules import (
    ADVISOR,
    BLACK,
    ELEPHANT,
    GENERAL,
    HORSE,
    RED,
    SOLDIER,
    State,
    colour_set,
    general_attacked,
    is_check,
    legal_moves,
    make,
    piece_at,
    piece_set,
)

__all__ = [
    "NOTATIONS",
    "Notation",
    "format_chinese",
    "format_coordinates",
    "format_fen",
    "format_move",
    "format_wxf",
    "parse_chinese",
    "parse_coordinates",
    "parse_fen",
    "parse_move",
    "parse_wxf",
    "render",
    "square_name",
]

NOTATIONS = ("chinese", "wxf", "iccs")
"""The notations :func:`format_move` writes: Chinese, WXF and ICCS coordinates."""

_LETTERS = "pabncrk"  # FEN letters by piece number, as Fairy-Stockfish and Pikafish write
_OLD_LETTERS = {"h": HORSE, "e": ELEPHANT}
_FILES = "abcdefghi"
_MAX_FEN = 200  # a FEN is at most 99 characters plus clocks: longer input is rejected unread
_NAMES = ("soldier", "advisor", "elephant", "horse", "cannon", "chariot", "general")
_MOST = (5, 2, 2, 2, 2, 2, 1)  # the most of each piece a side can have

_WXF_LETTERS = "PAEHCRK"
_RED_NAMES = "兵仕相马炮车帅"
_BLACK_NAMES = "卒士象马炮车将"
_RED_NUMERALS = "一二三四五六七八九"
_BLACK_DIGITS = "１２３４５６７８９"
_DIRECTIONS = "平进退"  # by direction: 0 sideways, +1 forward, -1 back
_ORDINALS = {2: "前后", 3: "前中后", 4: "一二三四", 5: "一二三四五"}

# Chinese input is compared after folding every spelling of a piece, a direction or a
# number onto one character: traditional and simplified, either side's names, Chinese
# numerals and full-width and ASCII digits.
_FOLD = str.maketrans(
    {
        **dict.fromkeys("卒", "兵"),
        **dict.fromkeys("士", "仕"),
        **dict.fromkeys("象", "相"),
        **dict.fromkeys("馬傌", "马"),
        **dict.fromkeys("砲包", "炮"),
        **dict.fromkeys("車俥", "车"),
        **dict.fromkeys("帥將将", "帅"),
        "進": "进",
        "後": "后",
        **{char: str(n + 1) for n, char in enumerate(_RED_NUMERALS)},
        **{char: str(n + 1) for n, char in enumerate(_BLACK_DIGITS)},
    }
)
_CHINESE = re.compile(
    r"(?:([前中后1-5])([兵仕相马炮车帅])([1-9])?|([兵仕相马炮车帅])([1-9]))[进退平][1-9]"
)
_WXF = re.compile(r"([+-])?([KAEBHNRCP1-5])([1-9+-])?([-+=.])([1-9])")
_COORDINATES = re.compile(r"([a-i])(10|[0-9])-?([a-i])(10|[0-9])")


def square_name(sq: int, base: int = 0) -> str:
    """Return the name of square ``sq`` (0 is ``a0``, 89 is ``i9``) with ranks counted from
    ``base``: 0 for ICCS and Pikafish, 1 for Fairy-Stockfish (``a1`` to ``i10``)."""
    return _FILES[sq % 9] + str(sq // 9 + base)


# --------------------------------------------------------------------------- FEN


def _own_rank(colour: int, sq: int) -> int:
    """The rank of ``sq`` counted from ``colour``'s side (0 its back rank)."""
    return sq // 9 if colour == RED else 9 - sq // 9


def _may_stand(colour: int, piece: int, sq: int) -> bool:
    """Tell whether ``colour``'s ``piece`` can ever stand on ``sq``: generals and advisors
    keep to the palace, advisors and elephants to their points, elephants to their own
    half, and soldiers, which never retreat, only ahead of where they start."""
    rank, file = _own_rank(colour, sq), sq % 9
    if piece == GENERAL:
        return rank <= 2 and 3 <= file <= 5
    if piece == ADVISOR:
        return (rank, file) in ((0, 3), (0, 5), (1, 4), (2, 3), (2, 5))
    if piece == ELEPHANT:
        return (rank, file) in ((0, 2), (0, 6), (2, 0), (2, 4), (2, 8), (4, 2), (4, 6))
    if piece == SOLDIER:
        return rank >= 5 or (rank >= 3 and file % 2 == 0)
    return True


def parse_fen(text: str) -> State:
    """Read a FEN (placement, side to move, and optionally ``- -`` and the two clocks)
    as a state.

    Raises :class:`InvalidStateError` naming the text when it is not a FEN, or describes
    a position that cannot exist: not one general a side in its palace, an advisor,
    elephant or soldier where it can never stand, more of a piece than a side has, the
    side that just moved in check."""

    def bad(why: str) -> InvalidStateError:
        return InvalidStateError(f"{quoted(text)} is not a valid xiangqi FEN: {why}")

    if len(text) > _MAX_FEN:
        raise bad(f"longer than {_MAX_FEN} characters")
    fields = text.split()
    if not 2 <= len(fields) <= 6:
        raise bad("a FEN has the placement, the side to move, '- -' and two clocks")
    placement, side = fields[:2]
    for extra in fields[2:4]:
        if extra != "-":
            raise bad(f"{extra!r} stands where xiangqi has '-' (no castling, no en passant)")
    ranks = placement.split("/")
    if len(ranks) != 10:
        raise bad(f"the placement has {len(ranks)} ranks, not 10")
    board: dict[int, tuple[int, int]] = {}
    for row, rank_text in enumerate(ranks):
        rank = 9 - row
        file = 0
        for char in rank_text:
            if char in "123456789":
                file += int(char)
                continue
            letter = char.lower()
            if letter in _OLD_LETTERS:
                piece = _OLD_LETTERS[letter]
            elif letter in _LETTERS:
                piece = _LETTERS.index(letter)
            else:
                raise bad(f"{char!r} is no piece")
            if file > 8:
                raise bad(f"rank {rank} ({rank_text!r}) holds more than 9 points")
            board[rank * 9 + file] = (RED if char.isupper() else BLACK, piece)
            file += 1
        if file != 9:
            raise bad(f"rank {rank} ({rank_text!r}) does not hold 9 points")
    for colour, name in ((RED, "red"), (BLACK, "black")):
        mine = [(sq, piece) for sq, (owner, piece) in board.items() if owner == colour]
        generals = [sq for sq, piece in mine if piece == GENERAL]
        if len(generals) != 1:
            raise bad(f"{name} has {len(generals)} generals")
        for piece in range(GENERAL):
            count = sum(1 for _, kind in mine if kind == piece)
            if count > _MOST[piece]:
                raise bad(f"{name} has {count} {_NAMES[piece]}s, more than {_MOST[piece]}")
        for sq, piece in mine:
            if not _may_stand(colour, piece, sq):
                raise bad(f"a {name} {_NAMES[piece]} stands on {square_name(sq)}, where it cannot")
    if side not in ("w", "r", "b"):
        raise bad(f"the side to move is {side!r}, not 'w' (or 'r') or 'b'")
    turn = BLACK if side == "b" else RED
    clocks = []
    for field in fields[4:]:
        if not field.isdigit() or len(field) > 6:
            raise bad(f"the clock {field!r} is not a number of moves")
        clocks.append(int(field))
    halfmove = clocks[0] if clocks else 0
    fullmove = max(clocks[1], 1) if len(clocks) > 1 else 1
    state = make(board, turn, halfmove, fullmove)
    if general_attacked(state, turn ^ 1):
        raise bad(f"{('red', 'black')[turn ^ 1]} is in check with {side!r} to move")
    return state


def format_fen(state: State) -> str:
    """Write ``state`` as FEN, as Fairy-Stockfish and Pikafish write it."""
    placement = fen_placement(9, 10, partial(_fen_letter, state))
    return f"{placement} {'wb'[state[9]]} - - {state[10]} {state[11]}"


def _fen_letter(state: State, sq: int) -> str | None:
    """The FEN letter of the piece on ``sq``: upper case for red."""
    found = piece_at(state, sq)
    if found is None:
        return None
    letter = _LETTERS[found[1]]
    return letter.upper() if found[0] == RED else letter


# --------------------------------------------------------------------------- coordinates


def format_coordinates(move: int, base: int = 0) -> str:
    """Write ``move`` as coordinates: ICCS and Pikafish's UCI with ``base=0`` (``h2e2``),
    Fairy-Stockfish's UCI with ``base=1`` (``h3e3``)."""
    return square_name(move & 127, base) + square_name(move >> 7, base)


def parse_coordinates(state: State, text: str, base: int = 0) -> int:
    """Read a move in coordinates (``h2e2``, or ``h3e3`` with ``base=1``; ICCS's ``H2-E2``
    as well) legal in ``state``.

    Raises :class:`InvalidMoveError` for text that is no pair of points and
    :class:`IllegalMoveError` for a move the rules forbid."""
    found = _COORDINATES.fullmatch(text.strip().lower())
    ranks = [int(found[2]) - base, int(found[4]) - base] if found else []
    if found is None or not all(0 <= rank <= 9 for rank in ranks):
        example = "h2e2" if base == 0 else "h3e3"
        raise InvalidMoveError(
            f"{quoted(text)} is not a move in coordinates with ranks from {base} (like {example})"
        )
    frm = _FILES.index(found[1]) + 9 * ranks[0]
    to = _FILES.index(found[3]) + 9 * ranks[1]
    move = frm | to << 7
    if move in legal_moves(state):
        return move
    raise IllegalMoveError(f"{quoted(text)} is not a legal move in {format_fen(state)}")


# --------------------------------------------------------------------------- file notations


def _forward(colour: int, frm: int, to: int) -> int:
    """+1 when the move from ``frm`` to ``to`` goes towards the opponent, -1 back, 0 along
    a rank."""
    step = _own_rank(colour, to) - _own_rank(colour, frm)
    return (step > 0) - (step < 0)


def _file_number(colour: int, sq: int) -> int:
    """The file of ``sq`` counted 1-9 from ``colour``'s right."""
    return 9 - sq % 9 if colour == RED else sq % 9 + 1


def _file_mates(state: State, move: int) -> tuple[int, int, int, list[int], bool]:
    """What naming a move needs: the mover's colour and piece, its origin, the like pieces
    on its file (itself included) front first, and whether soldiers are doubled on two or
    more files (then every doubled soldier is named by its place and file)."""
    frm = move & 127
    found = piece_at(state, frm)
    assert found is not None, "a legal move starts on a piece"
    colour, piece = found
    ours = bit_indices(piece_set(state, piece) & colour_set(state, colour))
    mates = sorted((sq for sq in ours if sq % 9 == frm % 9), key=lambda sq: -_own_rank(colour, sq))
    files = [sum(1 for sq in ours if sq % 9 == file) for file in range(9)]
    doubled = sum(1 for count in files if count >= 2) >= 2
    return colour, piece, frm, mates, doubled


def _tail(colour: int, frm: int, to: int) -> tuple[int, int]:
    """The direction (+1, -1 or 0) and the number a move ends with: the distance of a
    move along a file, else the file it lands on."""
    direction = _forward(colour, frm, to)
    if frm % 9 == to % 9:
        return direction, abs(to // 9 - frm // 9)
    return direction, _file_number(colour, to)


def _same_step_fits(colour: int, piece: int, other: int, frm: int, to: int) -> bool:
    """Tell whether the like piece on ``other`` could take the step ``frm`` -> ``to``
    without leaving the board or its region (the palace, the own half of the board):
    Fairy-Stockfish's test for naming two pieces on a file by front and rear."""
    rank = other // 9 + (to // 9 - frm // 9)
    if not 0 <= rank <= 9:
        return False
    landing = rank * 9 + to % 9
    if piece in (GENERAL, ADVISOR):
        return _own_rank(colour, landing) <= 2 and 3 <= to % 9 <= 5
    if piece == ELEPHANT:
        return _own_rank(colour, landing) <= 4
    return True


def format_wxf(state: State, move: int) -> str:
    """Write ``move`` (legal in ``state``) in WXF notation as Fairy-Stockfish writes it
    (``C2=5``, ``H8+7``, ``R++1``, ``15+1``)."""
    colour, piece, frm, mates, doubled = _file_mates(state, move)
    to = move >> 7
    place = mates.index(frm)
    if len(mates) >= 3 - doubled:
        head = f"{place + 1}{_file_number(colour, frm)}"
    elif len(mates) == 2 and _same_step_fits(colour, piece, mates[1 - place], frm, to):
        head = _WXF_LETTERS[piece] + "+-"[place]
    else:
        head = _WXF_LETTERS[piece] + str(_file_number(colour, frm))
    direction, number = _tail(colour, frm, to)
    return f"{head}{'=+-'[direction]}{number}"


def _wxf_spellings(state: State, move: int) -> list[str]:
    """The ways :func:`parse_wxf` reads ``move``: as written, with the file in place of
    front and rear (or the reverse) where that names it too, and a soldier that shares
    its file as the WXF's rules have it (``P+`` the front one, ``P-`` the rear one)."""
    written = format_wxf(state, move)
    colour, piece, frm, mates, _ = _file_mates(state, move)
    letter = _WXF_LETTERS[piece]
    tail = written[2:]
    spellings = [written, f"{letter}{_file_number(colour, frm)}{tail}"]
    if len(mates) >= 2 and frm in (mates[0], mates[-1]):
        spellings.append(letter + ("+" if frm == mates[0] else "-") + tail)
    return spellings


def parse_wxf(state: State, text: str) -> int:
    """Read a move in WXF notation (``C2=5``, ``H8+7``, ``C+=5`` or ``+C=5``, ``15+1``;
    ``.`` for ``=``, ``B`` and ``N`` for ``E`` and ``H``) legal in ``state``.

    Raises :class:`InvalidMoveError` for text that is no WXF and
    :class:`IllegalMoveError` for a move that is illegal or ambiguous here."""
    found = _WXF.fullmatch(text.strip())
    if found is None or (found[1] and (found[3] or found[2].isdigit())):
        raise InvalidMoveError(f"{quoted(text)} is not a move in WXF notation (like C2=5)")
    prefix, head, middle, sign, number = found.groups()
    head = {"B": "E", "N": "H"}.get(head, head)
    if prefix:
        middle = prefix
    if middle is None:
        raise InvalidMoveError(f"{quoted(text)} names no file (like C2=5 or C+=5)")
    wanted = f"{head}{middle}{'=' if sign == '.' else sign}{number}"
    piece = SOLDIER if head.isdigit() else _WXF_LETTERS.index(head)
    return _pick(state, text, wanted, piece, written=format_wxf, spellings=_wxf_spellings)


def format_chinese(state: State, move: int) -> str:
    """Write ``move`` (legal in ``state``) in Chinese notation (``炮二平五``, ``马８进７``,
    ``前炮平五``, ``中兵进一``, ``前兵三平四``)."""
    colour, piece, frm, mates, doubled = _file_mates(state, move)
    names = _RED_NAMES if colour == RED else _BLACK_NAMES
    numerals = _RED_NUMERALS if colour == RED else _BLACK_DIGITS
    name = names[piece]
    file = numerals[_file_number(colour, frm) - 1]
    place = mates.index(frm)
    if len(mates) >= 2 and piece == SOLDIER and doubled:
        head = _ORDINALS[len(mates)][place] + name + file
    elif len(mates) >= 2 and piece not in (ADVISOR, ELEPHANT):
        head = _ORDINALS[len(mates)][place] + name
    else:
        head = name + file
    direction, number = _tail(colour, frm, (move >> 7))
    return head + _DIRECTIONS[direction] + numerals[number - 1]


def _chinese_spellings(state: State, move: int) -> list[str]:
    """The ways :func:`parse_chinese` reads ``move`` once folded: as written, with the file
    in place of front and rear (or the reverse), and a soldier's place without its file."""
    written = format_chinese(state, move).translate(_FOLD)
    colour, piece, frm, mates, _ = _file_mates(state, move)
    name = _RED_NAMES[piece].translate(_FOLD)
    tail = written[-2:]
    file = str(_file_number(colour, frm))
    spellings = [written, name + file + tail]
    if len(mates) >= 2:
        ordinal = _ORDINALS[len(mates)][mates.index(frm)].translate(_FOLD)
        spellings += [ordinal + name + tail, ordinal + name + file + tail]
    return spellings


def parse_chinese(state: State, text: str) -> int:
    """Read a move in Chinese notation (``炮二平五``, ``马8进7`` or ``马８进７``,
    ``前炮平五``, ``中兵进一``; traditional characters too) legal in ``state``.

    Raises :class:`InvalidMoveError` for text that is no Chinese notation and
    :class:`IllegalMoveError` for a move that is illegal or ambiguous here."""
    folded = text.strip().translate(_FOLD)
    found = _CHINESE.fullmatch(folded)
    if found is None:
        raise InvalidMoveError(f"{quoted(text)} is not a move in Chinese notation (like 炮二平五)")
    piece = _RED_NAMES.index(found[2] or found[4])
    return _pick(state, text, folded, piece, written=_folded_chinese, spellings=_chinese_spellings)


def _folded_chinese(state: State, move: int) -> str:
    return format_chinese(state, move).translate(_FOLD)


def _pick(
    state: State,
    text: str,
    wanted: str,
    piece: int,
    *,
    written: Callable[[State, int], str],
    spellings: Callable[[State, int], list[str]],
) -> int:
    """The one legal move of a ``piece`` written as ``wanted``, else the one spelled
    so; raises :class:`IllegalMoveError` when no move or several are. Only the moves of
    the piece named are written out: a tenth of them, and writing is what costs."""
    pieces = piece_set(state, piece)
    moves = [move for move in legal_moves(state) if pieces >> (move & 127) & 1]
    exact = [move for move in moves if written(state, move) == wanted]
    if len(exact) == 1:
        return exact[0]
    matches = [move for move in moves if wanted in spellings(state, move)]
    if len(matches) == 1:
        return matches[0]
    why = "ambiguous" if matches else "not a legal move"
    raise IllegalMoveError(f"{quoted(text)} is {why} in {format_fen(state)}")


# --------------------------------------------------------------------------- any notation


Notation = Literal["chinese", "wxf", "iccs"]
"""A notation :func:`format_move` writes."""


def format_move(state: State, move: int, notation: Notation = "chinese") -> str:
    """Write ``move`` (legal in ``state``) in ``notation``: ``"chinese"`` (``炮二平五``),
    ``"wxf"`` (``C2=5``) or ``"iccs"`` (``h2e2``, Pikafish's UCI)."""
    if notation == "chinese":
        return format_chinese(state, move)
    if notation == "wxf":
        return format_wxf(state, move)
    if notation == "iccs":
        return format_coordinates(move)
    raise ValueError(f"{quoted(notation)} is no notation; choose one of {', '.join(NOTATIONS)}")


def parse_move(state: State, text: str, base: int = 0) -> int:
    """Read a move in coordinates (``h2e2``, ranks from ``base``), WXF (``C2=5``) or
    Chinese notation (``炮二平五``) legal in ``state``.

    Raises :class:`InvalidMoveError` for text that is no move in any of them and
    :class:`IllegalMoveError` for a move that is illegal or ambiguous here."""
    stripped = text.strip()
    if _COORDINATES.fullmatch(stripped.lower()):
        return parse_coordinates(state, stripped, base)
    if stripped.isascii() and _WXF.fullmatch(stripped):
        return parse_wxf(state, stripped)
    if _CHINESE.fullmatch(stripped.translate(_FOLD)):
        return parse_chinese(state, stripped)
    raise InvalidMoveError(
        f"{quoted(text)} is not a move in ICCS, WXF or Chinese notation"
        " (like h2e2, C2=5 or 炮二平五)"
    )


# --------------------------------------------------------------------------- picture

_PICTURE_RED = "兵仕相傌炮俥帅"
_PICTURE_BLACK = "卒士象馬砲車将"


def render(state: State, chinese: bool = True) -> str:
    """Draw the board, red at the bottom, and say who is to move.

    With ``chinese`` the pieces are Chinese characters, each side's its own (red
    帅仕相俥傌炮兵, black 将士象車馬砲卒), empty points ``＋``, black's file numbers
    above and red's below, and the ranks 0-9 on the left. Otherwise the pieces are FEN
    letters (upper case red, ``.`` empty) with files ``a``-``i`` below."""
    lines = []
    if chinese:
        lines.append("   " + " ".join(_BLACK_DIGITS))
    for rank in range(9, -1, -1):
        cells = []
        for file in range(9):
            found = piece_at(state, rank * 9 + file)
            if found is None:
                cells.append("＋" if chinese else ".")
            elif chinese:
                cells.append((_PICTURE_RED if found[0] == RED else _PICTURE_BLACK)[found[1]])
            else:
                letter = _LETTERS[found[1]]
                cells.append(letter.upper() if found[0] == RED else letter)
        lines.append(f"{rank}  {' '.join(cells)}" if chinese else f"{rank} {' '.join(cells)}")
        if chinese and rank == 5:
            lines.append("   " + " ".join("～" * 9))  # the river
    lines.append("   " + " ".join(reversed(_RED_NUMERALS)) if chinese else "  " + " ".join(_FILES))
    mover = ("red", "black")[state[9]]
    lines.append(f"{mover} to move" + (", in check" if is_check(state) else ""))
    return "\n".join(lines)
