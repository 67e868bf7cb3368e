"""Chess rules: bitboards in Python ints, legal move generation, the transition and verdicts.

**Board.** Squares are numbered ``a1 = 0, b1 = 1, ..., h8 = 63``; a set of squares is an
int with bit ``s`` for square ``s``. A state is a plain tuple (see :data:`State`): the
white and black pieces, one set per piece type, the side to move, the castling rights,
the en passant square, the two clocks, the Zobrist key and the keys of earlier positions.
Tuples because the search makes one per node: a tuple display is the cheapest immutable
value CPython builds, and one unpacking reads every field at once.

**Why bitboards and not a mailbox.** In CPython the cost is the number of bytecodes per
move, not memory traffic. A mailbox walks a slider's rays square by square (a loop
iteration per square) and must make each move to test it for check; with bitboards a
slider's targets are one dictionary lookup (see :data:`ROOK_ATTACKS`), pins and checks
are found once per node from the king's square (so no move is made to test it), and
pawns move in bulk by shifting the whole set. Only the bitboard generator was built;
what it measures against python-chess (also bitboards) is in ``bench/chess_perft.py``:
about 2.8 times its perft speed with the same bulk counting. The dictionaries are keyed
by the occupied squares on the piece's lines (edges left out, as magic bitboards do),
with no multiplication: CPython hashes a small int to itself.

**Moves** are ints ``from | to << 6 | promotion << 12`` (promotion a piece type, 0 for
none). Castling is written as the king moving onto its own rook, whatever the variant:
that names Chess960 castling without ambiguity (the king may not move at all) and needs
no flag. En passant is a pawn moving diagonally onto :data:`State`'s en passant square.

**Castling rights** are the set of rook squares that may still castle (X-FEN's view), so
Chess960 costs nothing more than standard chess: the king goes to the g- or c-file and
the rook to the f- or d-file; every square either crosses must be empty but for the two
of them, and no square the king stands on or crosses may be attacked.

**En passant.** The state records the en passant square only when a capture there is
legal (not merely that a pawn stands beside the pawn that moved two squares). FIDE's
"same position" for repetition turns on that right, so the key can include it directly,
and FEN writes it the way python-chess and most engines do.

**The end of the game**, as :meth:`ChessRules.is_terminal` decides it: checkmate (the
side to move loses) and stalemate; and three draws applied at once rather than on a
claim: the fifty-move rule (the halfmove clock has reached 100 plies without a capture
or a pawn move, unless the side to move is mated), threefold repetition (the position,
with the same side to move, castling rights and en passant right, has now stood on the
board three times since the last capture, pawn move or the position the game was
read from) and insufficient material (no pawn, rook or queen, and either at most one
minor piece, or only bishops, all on squares of one colour: positions where no
sequence of moves can mate). A game made with ``draws=False`` ends only in mate or
stalemate: for matches that test how engines handle those draws themselves, with the
arena's move limit to end a game that never does.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from zerosum.game import GameInfo, Player
from zerosum.games.bitboards import bit_indices
from zerosum.games.judged import JudgedRules

__all__ = [
    "BISHOP",
    "BLACK",
    "KING",
    "KNIGHT",
    "PAWN",
    "QUEEN",
    "ROOK",
    "START",
    "WHITE",
    "ChessRules",
    "State",
    "attackers",
    "colour_set",
    "insufficient_material",
    "is_check",
    "legal_moves",
    "make",
    "perft",
    "piece_at",
    "piece_set",
    "result",
    "verdict",
]

WHITE = 0
"""White, the first player."""
BLACK = 1
"""Black, the second player."""
PAWN = 0
"""The pawn's piece number (the index of its set in a state)."""
KNIGHT = 1
"""The knight's piece number."""
BISHOP = 2
"""The bishop's piece number."""
ROOK = 3
"""The rook's piece number."""
QUEEN = 4
"""The queen's piece number."""
KING = 5
"""The king's piece number."""

State = tuple[int, int, int, int, int, int, int, int, int, int, int, int, int, int, tuple[int, ...]]
"""A position: ``(white, black, pawns, knights, bishops, rooks, queens, kings, turn,
castling, ep, halfmove, fullmove, key, history)``.

``white``/``black`` and the six piece sets are bitboards; ``turn`` is 0 (white) or 1;
``castling`` the rook squares that keep a castling right; ``ep`` the en passant square
when an en passant capture is legal, else 0 (no en passant square is a1); ``halfmove``
the plies since the last capture or pawn move; ``fullmove`` the move number; ``key`` the
Zobrist key (:func:`make` computes it, :func:`result` updates it); ``history`` the keys
of the positions since the last capture or pawn move, oldest first, not counting this
one."""

Add = Callable[[int], None]

FULL = (1 << 64) - 1
FILE_A = 0x0101010101010101
FILE_H = FILE_A << 7
RANK_1 = 0xFF
RANK_3 = RANK_1 << 16
RANK_6 = RANK_1 << 40
RANK_8 = RANK_1 << 56
LIGHT_SQUARES = 0x55AA55AA55AA55AA
DARK_SQUARES = FULL ^ LIGHT_SQUARES
HOME_RANKS = (RANK_1, RANK_8)

# --------------------------------------------------------------------------- tables


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def _leaper(sq: int, steps: Iterable[tuple[int, int]]) -> int:
    """The squares one of ``steps`` away from ``sq``."""
    file, rank = sq & 7, sq >> 3
    found = 0
    for df, dr in steps:
        if _on_board(file + df, rank + dr):
            found |= 1 << (file + df + 8 * (rank + dr))
    return found


_KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_KING_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))

KNIGHT_ATTACKS = tuple(_leaper(sq, _KNIGHT_STEPS) for sq in range(64))
"""The squares a knight on each square attacks."""
KING_ATTACKS = tuple(_leaper(sq, _KING_STEPS) for sq in range(64))
"""The squares a king on each square attacks."""
PAWN_ATTACKS = (
    tuple(_leaper(sq, ((-1, 1), (1, 1))) for sq in range(64)),
    tuple(_leaper(sq, ((-1, -1), (1, -1))) for sq in range(64)),
)
"""``PAWN_ATTACKS[colour][sq]``: the squares a pawn of ``colour`` on ``sq`` attacks."""


def _ray(sq: int, df: int, dr: int) -> list[int]:
    """The squares from ``sq`` (excluded) to the edge in direction ``(df, dr)``."""
    file, rank = (sq & 7) + df, (sq >> 3) + dr
    squares = []
    while _on_board(file, rank):
        squares.append(file + 8 * rank)
        file, rank = file + df, rank + dr
    return squares


def _subsets(mask: int) -> list[int]:
    """Every subset of the set ``mask`` (the carry-rippler trick)."""
    found = [0]
    subset = (-mask) & mask
    while subset:
        found.append(subset)
        subset = (subset - mask) & mask
    return found


def _line_table(sq: int, df: int, dr: int) -> tuple[int, dict[int, int]]:
    """The attacks along one line (two opposite rays) through ``sq``, for every way of
    filling the line's inner squares: ``(mask, {occupied & mask: attacks})``."""
    rays = (_ray(sq, df, dr), _ray(sq, -df, -dr))
    mask = 0
    for ray in rays:
        for square in ray[:-1]:  # a piece on the last square blocks nothing beyond it
            mask |= 1 << square
    table = {}
    for occupied in _subsets(mask):
        attacks = 0
        for ray in rays:
            for square in ray:
                attacks |= 1 << square
                if occupied >> square & 1:
                    break
        table[occupied] = attacks
    return mask, table


def _slider_tables(
    lines: tuple[tuple[int, int], tuple[int, int]],
) -> tuple[tuple[int, ...], tuple[dict[int, int], ...]]:
    """For each square, the inner mask of two lines and the attacks for every filling.

    One table per square for both lines (a rook's rank and file) costs a bigger table
    (up to 4096 entries) but one lookup per slider instead of two; it is built from the
    two lines' tables, so import stays fast (the package imports in about 50 ms)."""
    masks = []
    tables = []
    for sq in range(64):
        (mask_a, table_a), (mask_b, table_b) = (_line_table(sq, *line) for line in lines)
        masks.append(mask_a | mask_b)
        tables.append(
            {
                occ_a | occ_b: att_a | att_b
                for occ_a, att_a in table_a.items()
                for occ_b, att_b in table_b.items()
            }
        )
    return tuple(masks), tuple(tables)


ROOK_MASKS, ROOK_ATTACKS = _slider_tables(((1, 0), (0, 1)))
"""``ROOK_ATTACKS[sq][occupied & ROOK_MASKS[sq]]``: a rook's targets from ``sq``."""
BISHOP_MASKS, BISHOP_ATTACKS = _slider_tables(((1, 1), (1, -1)))
"""``BISHOP_ATTACKS[sq][occupied & BISHOP_MASKS[sq]]``: a bishop's targets from ``sq``."""


def _line_tables() -> tuple[list[int], list[int]]:
    """``BETWEEN[a * 64 + b]`` (the squares strictly between two squares on a line) and
    ``LINE[a * 64 + b]`` (the whole line through both), each 0 when not on a line."""
    between = [0] * 4096
    line = [0] * 4096
    for sq in range(64):
        for df, dr in _KING_STEPS:
            whole = 1 << sq
            for square in _ray(sq, df, dr) + _ray(sq, -df, -dr):
                whole |= 1 << square
            passed = 0
            for square in _ray(sq, df, dr):
                between[sq * 64 + square] = passed
                line[sq * 64 + square] = whole
                passed |= 1 << square
    return between, line


BETWEEN, LINE = _line_tables()

# Zobrist keys from a fixed seed: keys must not change between runs (saved tables, tests).
_rng = random.Random(0x2E4E_C4E5_5)
PIECE_KEYS = tuple(_rng.getrandbits(64) for _ in range(12 * 64))
"""``PIECE_KEYS[(colour * 6 + piece) * 64 + square]``."""
CASTLING_KEYS = tuple(_rng.getrandbits(64) for _ in range(64))
"""The key of a castling right, by the rook's square."""
EP_KEYS = tuple(_rng.getrandbits(64) for _ in range(8))
"""The key of an en passant right, by file."""
SIDE_KEY = _rng.getrandbits(64)
"""Added to the key when black is to move."""
del _rng

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
"""The standard start position in FEN."""

# --------------------------------------------------------------------------- positions


def colour_set(state: State, colour: Player) -> int:
    """Return the squares of the pieces of ``colour``."""
    return state[1] if colour else state[0]


def piece_set(state: State, piece: int) -> int:
    """Return the squares of the pieces of type ``piece`` (both colours)."""
    return state[2:8][piece]


def piece_at(state: State, sq: int) -> tuple[Player, int] | None:
    """Return ``(colour, piece type)`` of the piece on ``sq``, or ``None``."""
    bit = 1 << sq
    if not (state[0] | state[1]) & bit:
        return None
    colour = WHITE if state[0] & bit else BLACK
    for piece, pieces in enumerate(state[2:8]):
        if pieces & bit:
            return colour, piece
    raise AssertionError("a square in a colour set holds no piece")  # pragma: no cover


def attackers(state: State, sq: int, colour: Player, occupied: int | None = None) -> int:
    """Return the pieces of ``colour`` that attack ``sq`` (with ``occupied`` as the
    blockers, by default every piece)."""
    white, black, pawns, knights, bishops, rooks, queens, kings = state[:8]
    theirs = black if colour else white
    occ = white | black if occupied is None else occupied
    return theirs & (
        KNIGHT_ATTACKS[sq] & knights
        | KING_ATTACKS[sq] & kings
        | PAWN_ATTACKS[colour ^ 1][sq] & pawns
        | ROOK_ATTACKS[sq][occ & ROOK_MASKS[sq]] & (rooks | queens)
        | BISHOP_ATTACKS[sq][occ & BISHOP_MASKS[sq]] & (bishops | queens)
    )


def is_check(state: State) -> bool:
    """Tell whether the side to move is in check."""
    turn = state[8]
    king = state[7] & colour_set(state, turn)
    return bool(attackers(state, king.bit_length() - 1, turn ^ 1))


def _ep_legal(
    ep: int, turn: int, *, us: int, them: int, pawns: int, pieces: tuple[int, int, int, int]
) -> bool:
    """Tell whether ``turn`` (owning ``us``) has a legal capture en passant onto ``ep``.

    ``pieces`` are the knights, bishops, rooks and queens of the position (both
    colours). The capture is tried in full, since it can uncover the king along the
    rank (both pawns leave it) as well as along a pin."""
    knights, bishops, rooks, queens = pieces
    captured = 1 << (ep - 8 if turn == WHITE else ep + 8)
    candidates = PAWN_ATTACKS[turn ^ 1][ep] & pawns & us
    if not candidates or not captured & pawns & them or (us | them) & (1 << ep):
        return False  # no capturer, or no pawn that just moved two squares past ep
    king = (us & ~(pawns | knights | bishops | rooks | queens)).bit_length() - 1
    their_rq = (rooks | queens) & them
    their_bq = (bishops | queens) & them
    if KNIGHT_ATTACKS[king] & knights & them or PAWN_ATTACKS[turn][king] & pawns & them & ~captured:
        return False  # a check no en passant capture answers
    occ = us | them
    for sq in bit_indices(candidates):
        after = occ ^ (1 << sq) ^ (1 << ep) ^ captured
        if not (
            ROOK_ATTACKS[king][after & ROOK_MASKS[king]] & their_rq
            or BISHOP_ATTACKS[king][after & BISHOP_MASKS[king]] & their_bq
        ):
            return True
    return False


def make(
    board: dict[int, tuple[Player, int]],
    turn: Player,
    *,
    castling: int = 0,
    ep: int = 0,
    halfmove: int = 0,
    fullmove: int = 1,
) -> State:
    """Build a state from a map square -> ``(colour, piece type)`` and the other fields.

    ``ep`` is the square behind a pawn that has just moved two squares, or 0; it is kept
    only when a capture there is legal. ``castling`` (rook squares) is taken as given:
    the checked layer cleans it. The history starts empty."""
    sets = [0] * 8
    key = SIDE_KEY if turn else 0
    for sq, (colour, piece) in board.items():
        sets[colour] |= 1 << sq
        sets[2 + piece] |= 1 << sq
        key ^= PIECE_KEYS[(colour * 6 + piece) * 64 + sq]
    for sq in bit_indices(castling):
        key ^= CASTLING_KEYS[sq]
    us, them = sets[turn], sets[turn ^ 1]
    pieces = (sets[3], sets[4], sets[5], sets[6])
    if ep and not _ep_legal(ep, turn, us=us, them=them, pawns=sets[2], pieces=pieces):
        ep = 0
    if ep:
        key ^= EP_KEYS[ep & 7]
    w, b, p, n, bi, r, q, k = sets
    return (w, b, p, n, bi, r, q, k, turn, castling, ep, halfmove, fullmove, key, ())


# --------------------------------------------------------------------------- moves


def legal_moves(state: State) -> list[int]:
    """Return every legal move of ``state`` (no draw adjudication: perft's rules).

    Checks and pins are found once from the king's square: a piece standing alone
    between the king and an enemy slider moves only along that line; in check, pieces
    may only capture the checker or block; in double check only the king moves."""
    white, black, pawns, knights, bishops, rooks, queens, kings, turn, castling, ep = state[:11]
    if turn:
        us, them = black, white
    else:
        us, them = white, black
    occ = us | them
    king_bit = kings & us
    ksq = king_bit.bit_length() - 1
    their_rq = (rooks | queens) & them
    their_bq = (bishops | queens) & them
    their_knights = knights & them
    their_pawns = pawns & them
    their_kings = kings & them
    # Locals for the tables read in the loops: LOAD_FAST beats LOAD_GLOBAL in a loop body.
    rook_attacks, rook_masks = ROOK_ATTACKS, ROOK_MASKS
    bishop_attacks, bishop_masks = BISHOP_ATTACKS, BISHOP_MASKS
    knight_attacks, king_attacks = KNIGHT_ATTACKS, KING_ATTACKS
    pawn_attacks = PAWN_ATTACKS[turn]
    king_rook = rook_attacks[ksq]
    king_bishop = bishop_attacks[ksq]
    rmask, bmask = rook_masks[ksq], bishop_masks[ksq]
    checkers = (
        (knight_attacks[ksq] & their_knights)
        | (pawn_attacks[ksq] & their_pawns)
        | (king_rook[occ & rmask] & their_rq)
        | (king_bishop[occ & bmask] & their_bq)
    )
    moves: list[int] = []
    append = moves.append

    # The king: each target is tested with the king lifted off the board, so that it
    # cannot hide behind itself from a slider checking along the line it leaves by.
    without_king = occ ^ king_bit
    targets = king_attacks[ksq] & ~us
    while targets:
        bit = targets & -targets
        targets ^= bit
        sq = bit.bit_length() - 1
        if (
            knight_attacks[sq] & their_knights
            or pawn_attacks[sq] & their_pawns
            or king_attacks[sq] & their_kings
            or rook_attacks[sq][without_king & rook_masks[sq]] & their_rq
            or bishop_attacks[sq][without_king & bishop_masks[sq]] & their_bq
        ):
            continue
        append(ksq | sq << 6)

    if checkers:
        if checkers & (checkers - 1):
            return moves  # double check: only the king moves
        allowed = checkers | BETWEEN[ksq * 64 + checkers.bit_length() - 1]
    else:
        allowed = FULL ^ us
        if castling & us:
            _castles(state, turn, us=us, ksq=ksq, occ=occ, add=append)

    # Pins: an enemy slider that would see the king if only enemy pieces blocked, with
    # exactly one piece between them, and that one ours.
    pinned = 0
    snipers = (king_rook[them & rmask] & their_rq) | (king_bishop[them & bmask] & their_bq)
    while snipers:
        bit = snipers & -snipers
        snipers ^= bit
        between = BETWEEN[ksq * 64 + bit.bit_length() - 1] & occ
        if between & us and not between & (between - 1):
            pinned |= between
    line_base = ksq * 64

    pieces = knights & us & ~pinned  # a pinned knight never stays on its line
    while pieces:
        bit = pieces & -pieces
        pieces ^= bit
        sq = bit.bit_length() - 1
        targets = knight_attacks[sq] & allowed
        while targets:
            low = targets & -targets
            targets ^= low
            append(sq | (low.bit_length() - 1) << 6)
    pieces = (bishops | queens) & us
    while pieces:
        bit = pieces & -pieces
        pieces ^= bit
        sq = bit.bit_length() - 1
        targets = bishop_attacks[sq][occ & bishop_masks[sq]] & allowed
        if bit & pinned:
            targets &= LINE[line_base + sq]
        while targets:
            low = targets & -targets
            targets ^= low
            append(sq | (low.bit_length() - 1) << 6)
    pieces = (rooks | queens) & us
    while pieces:
        bit = pieces & -pieces
        pieces ^= bit
        sq = bit.bit_length() - 1
        targets = rook_attacks[sq][occ & rook_masks[sq]] & allowed
        if bit & pinned:
            targets &= LINE[line_base + sq]
        while targets:
            low = targets & -targets
            targets ^= low
            append(sq | (low.bit_length() - 1) << 6)

    # Pawns that are not pinned move in bulk: shift the whole set, then read each
    # target's origin back from the shift (``to - step``).
    own_pawns = pawns & us
    free = own_pawns & ~pinned
    empty = FULL ^ occ
    if turn == WHITE:
        single = (free << 8) & empty
        double = ((single & RANK_3) << 8) & empty & allowed
        groups = (
            (single & allowed, 8),
            (double, 16),
            (((free & ~FILE_A) << 7) & them & allowed, 7),
            (((free & ~FILE_H) << 9) & them & allowed, 9),
        )
        last_rank = RANK_8
    else:
        single = (free >> 8) & empty
        double = ((single & RANK_6) >> 8) & empty & allowed
        groups = (
            (single & allowed, -8),
            (double, -16),
            (((free & ~FILE_A) >> 9) & them & allowed, -9),
            (((free & ~FILE_H) >> 7) & them & allowed, -7),
        )
        last_rank = RANK_1
    for group, step in groups:
        promoting = group & last_rank
        targets = group ^ promoting
        while targets:
            bit = targets & -targets
            targets ^= bit
            to = bit.bit_length() - 1
            append((to - step) | to << 6)
        while promoting:
            bit = promoting & -promoting
            promoting ^= bit
            to = bit.bit_length() - 1
            base = (to - step) | to << 6
            append(base | QUEEN << 12)
            append(base | ROOK << 12)
            append(base | BISHOP << 12)
            append(base | KNIGHT << 12)
    if own_pawns & pinned:
        _pinned_pawn_moves(
            own_pawns & pinned, turn, ksq, them=them, empty=empty, allowed=allowed, add=append
        )
    if ep:
        # _ep_legal already vouched for some capture; try each pawn in full again.
        captured = 1 << (ep - 8 if turn == WHITE else ep + 8)
        for sq in bit_indices(PAWN_ATTACKS[turn ^ 1][ep] & own_pawns):
            after = occ ^ (1 << sq) ^ (1 << ep) ^ captured
            if (
                king_rook[after & rmask] & their_rq
                or king_bishop[after & bmask] & their_bq
                or knight_attacks[ksq] & their_knights
                or pawn_attacks[ksq] & their_pawns & ~captured
            ):
                continue
            append(sq | ep << 6)
    return moves


def _pinned_pawn_moves(
    pinned: int, turn: int, ksq: int, *, them: int, empty: int, allowed: int, add: Add
) -> None:
    """Add the moves of pinned pawns: along the pin's line only (rare, so one by one)."""
    step = 8 if turn == WHITE else -8
    start_rank = RANK_1 << 8 if turn == WHITE else RANK_8 >> 8
    last_rank = RANK_8 if turn == WHITE else RANK_1
    for sq in bit_indices(pinned):
        targets = PAWN_ATTACKS[turn][sq] & them
        one = 1 << (sq + step)
        if one & empty:
            targets |= one
            two = 1 << (sq + 2 * step) if (1 << sq) & start_rank else 0
            targets |= two & empty
        targets &= allowed & LINE[ksq * 64 + sq]
        for to in bit_indices(targets):
            if (1 << to) & last_rank:
                for piece in (QUEEN, ROOK, BISHOP, KNIGHT):
                    add(sq | to << 6 | piece << 12)
            else:
                add(sq | to << 6)


def _castles(state: State, turn: int, *, us: int, ksq: int, occ: int, add: Add) -> None:
    """Add the legal castling moves (king onto its rook) of a side not in check."""
    home = 56 if turn else 0
    for rook in bit_indices(state[9] & us):
        if rook > ksq:
            king_to, rook_to = home + 6, home + 5
        else:
            king_to, rook_to = home + 2, home + 3
        king_bit, rook_bit = 1 << ksq, 1 << rook
        crossed = (
            BETWEEN[ksq * 64 + king_to]
            | (1 << king_to)
            | BETWEEN[rook * 64 + rook_to]
            | (1 << rook_to)
        ) & ~(king_bit | rook_bit)
        if occ & crossed:
            continue
        lifted = occ ^ king_bit ^ rook_bit
        walk = BETWEEN[ksq * 64 + king_to] | (1 << king_to)
        if any(attackers(state, sq, turn ^ 1, lifted) for sq in bit_indices(walk)):
            continue
        add(ksq | rook << 6)


# --------------------------------------------------------------------------- result


def result(state: State, move: int) -> State:
    """Return the position after ``move`` (legal in ``state``; unchecked)."""
    white, black, pawns, knights, bishops, rooks, queens, kings = state[:8]
    turn, castling, ep, half, full, key, history = state[8:]
    frm = move & 63
    to = move >> 6 & 63
    from_bit = 1 << frm
    to_bit = 1 << to
    if turn:
        us, them = black, white
    else:
        us, them = white, black
    old_key = key
    key ^= SIDE_KEY
    if ep:
        key ^= EP_KEYS[ep & 7]
    mine = turn * 384  # the offset of our pieces in PIECE_KEYS: 6 types x 64 squares
    theirs = 384 - mine
    new_ep = 0
    reset = False
    if to_bit & us:
        # Castling: the king moves onto its own rook.
        home = 56 if turn else 0
        king_to, rook_to = (home + 6, home + 5) if to > frm else (home + 2, home + 3)
        # XOR, not OR: in Chess960 the king or the rook may end where it started.
        king_move = from_bit ^ 1 << king_to
        rook_move = to_bit ^ 1 << rook_to
        kings ^= king_move
        rooks ^= rook_move
        us ^= king_move ^ rook_move
        key ^= (
            PIECE_KEYS[mine + KING * 64 + frm]
            ^ PIECE_KEYS[mine + KING * 64 + king_to]
            ^ PIECE_KEYS[mine + ROOK * 64 + to]
            ^ PIECE_KEYS[mine + ROOK * 64 + rook_to]
        )
        new_castling = castling & ~HOME_RANKS[turn]
    else:
        if to_bit & them:
            reset = True
            them ^= to_bit
            if to_bit & pawns:
                pawns ^= to_bit
                key ^= PIECE_KEYS[theirs + to]
            elif to_bit & knights:
                knights ^= to_bit
                key ^= PIECE_KEYS[theirs + KNIGHT * 64 + to]
            elif to_bit & bishops:
                bishops ^= to_bit
                key ^= PIECE_KEYS[theirs + BISHOP * 64 + to]
            elif to_bit & rooks:
                rooks ^= to_bit
                key ^= PIECE_KEYS[theirs + ROOK * 64 + to]
            else:
                queens ^= to_bit
                key ^= PIECE_KEYS[theirs + QUEEN * 64 + to]
        us ^= from_bit | to_bit
        new_castling = castling & ~(from_bit | to_bit) if castling else 0
        if from_bit & pawns:
            reset = True
            pawns ^= from_bit
            key ^= PIECE_KEYS[mine + frm]
            promotion = move >> 12
            if promotion:
                key ^= PIECE_KEYS[mine + promotion * 64 + to]
                if promotion == QUEEN:
                    queens |= to_bit
                elif promotion == KNIGHT:
                    knights |= to_bit
                elif promotion == ROOK:
                    rooks |= to_bit
                else:
                    bishops |= to_bit
            else:
                pawns |= to_bit
                key ^= PIECE_KEYS[mine + to]
                if to == ep:
                    gone = to - 8 if turn == WHITE else to + 8
                    pawns ^= 1 << gone
                    them ^= 1 << gone
                    key ^= PIECE_KEYS[theirs + gone]
                elif to - frm == 16 or frm - to == 16:
                    new_ep = (frm + to) >> 1
        elif from_bit & knights:
            knights ^= from_bit | to_bit
            key ^= PIECE_KEYS[mine + KNIGHT * 64 + frm] ^ PIECE_KEYS[mine + KNIGHT * 64 + to]
        elif from_bit & bishops:
            bishops ^= from_bit | to_bit
            key ^= PIECE_KEYS[mine + BISHOP * 64 + frm] ^ PIECE_KEYS[mine + BISHOP * 64 + to]
        elif from_bit & rooks:
            rooks ^= from_bit | to_bit
            key ^= PIECE_KEYS[mine + ROOK * 64 + frm] ^ PIECE_KEYS[mine + ROOK * 64 + to]
        elif from_bit & queens:
            queens ^= from_bit | to_bit
            key ^= PIECE_KEYS[mine + QUEEN * 64 + frm] ^ PIECE_KEYS[mine + QUEEN * 64 + to]
        else:
            kings ^= from_bit | to_bit
            key ^= PIECE_KEYS[mine + KING * 64 + frm] ^ PIECE_KEYS[mine + KING * 64 + to]
            new_castling &= ~HOME_RANKS[turn]
    if new_castling != castling:
        for sq in bit_indices(castling ^ new_castling):
            key ^= CASTLING_KEYS[sq]
    # The en passant right exists only if a capture there is legal (see the module notes);
    # the full test runs only when an enemy pawn stands beside the pawn that moved.
    if (
        new_ep
        and PAWN_ATTACKS[turn][new_ep] & pawns & them
        and _ep_legal(
            new_ep,
            turn ^ 1,
            us=them,
            them=us,
            pawns=pawns,
            pieces=(knights, bishops, rooks, queens),
        )
    ):
        key ^= EP_KEYS[new_ep & 7]
    else:
        new_ep = 0
    if turn:
        white, black = them, us
        full += 1
    else:
        white, black = us, them
    if reset:
        return (white, black, pawns, knights, bishops, rooks, queens, kings, turn ^ 1,
                new_castling, new_ep, 0, full, key, ())  # fmt: skip
    return (white, black, pawns, knights, bishops, rooks, queens, kings, turn ^ 1,
            new_castling, new_ep, half + 1, full, key, (*history, old_key))  # fmt: skip


# --------------------------------------------------------------------------- verdicts


def insufficient_material(state: State) -> bool:
    """Tell whether neither side can ever mate: no pawn, rook or queen, and at most one
    knight or bishop, or else only bishops, all on squares of one colour."""
    if state[2] | state[5] | state[6]:
        return False
    minors = state[3] | state[4]
    if not minors & (minors - 1):
        return True
    if state[3]:
        return False
    return not state[4] & LIGHT_SQUARES or not state[4] & DARK_SQUARES


def verdict(state: State, moves: list[int], draws: bool = True) -> int | None:
    """Return the result for white of ``state`` whose legal moves are ``moves``: +1, -1,
    0, or ``None`` while the game goes on (see the module notes for the draws, which
    ``draws=False`` leaves out)."""
    if not moves:
        if is_check(state):
            return -1 if state[8] == WHITE else 1
        return 0
    if draws and (
        state[11] >= 100 or state[14].count(state[13]) >= 2 or insufficient_material(state)
    ):
        return 0
    return None


def perft(state: State, depth: int) -> int:
    """Count the move paths of ``depth`` plies from ``state`` (perft's rules: no draws).

    At the last ply the moves are counted, not made ("bulk counting")."""
    moves = legal_moves(state)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    return sum(perft(result(state, move), depth - 1) for move in moves)


# --------------------------------------------------------------------------- the game


class ChessRules(JudgedRules[State]):
    """Chess as a :class:`zerosum.game.Game`: the rules and the search hooks.

    Player 0 is white. States are :data:`State` tuples, moves ints (see the module
    notes). :class:`zerosum.games.chess.Chess` adds the checked layer (FEN, UCI, SAN);
    the end of the game is :func:`verdict`'s (:class:`~zerosum.games.judged.JudgedRules`)."""

    def __init__(self, draws: bool = True) -> None:
        info = GameInfo(
            name="chess",
            title="Chess",
            players=("white", "black"),
            win_loss=True,
            board_size=(8, 8),
            description=(
                "Chess by FIDE's rules; the fifty-move rule, threefold repetition and "
                "insufficient material end the game as draws. Moves in SAN or UCI "
                "(Nf3, e2e4, e7e8q); positions in FEN."
            ),
            score_unit="centipawns",
        )
        super().__init__(info, draws)

    def legal(self, state: State) -> list[int]:
        """Return every legal move (:func:`legal_moves`)."""
        return legal_moves(state)

    def judge(self, state: State, moves: list[int]) -> int | None:
        """Return :func:`verdict` under the game's ``draws``."""
        return verdict(state, moves, self.draws)

    def initial_state(self) -> State:
        """Return the standard start position."""
        return _START_STATE

    def to_move(self, state: State) -> Player:
        """Return 0 when white is to move, 1 when black is."""
        return state[8]

    def result(self, state: State, action: int) -> State:
        """Return the position after ``action`` (unchecked)."""
        return result(state, action)

    def key(self, state: State) -> int:
        """Return the Zobrist key: pieces, side to move, castling and en passant rights."""
        return state[13]

    def noisy_actions(self, state: State) -> list[int]:
        """Return the legal captures (en passant included) and promotions."""
        moves = self.moves(state)
        if verdict(state, moves, self.draws) is not None:
            return []
        them = state[0] if state[8] else state[1]
        ep, pawns = state[10], state[2]
        return [
            move
            for move in moves
            if move >> 12
            or them >> (move >> 6) & 1
            or (move >> 6 == ep and pawns >> (move & 63) & 1)
        ]


def _start() -> State:
    placement = {}
    for file, piece in enumerate((ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK)):
        placement[file] = (WHITE, piece)
        placement[8 + file] = (WHITE, PAWN)
        placement[48 + file] = (BLACK, PAWN)
        placement[56 + file] = (BLACK, piece)
    return make(placement, WHITE, castling=1 | 1 << 7 | 1 << 56 | 1 << 63)


_START_STATE = _start()
