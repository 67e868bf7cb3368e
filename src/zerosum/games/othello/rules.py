"""Othello rules: bitboards in Python ints, moves by shifts, flips per move, passes as moves.

**Board.** Squares are numbered ``a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63``:
the order of the FFO/obf position strings, with ``a1`` the top-left corner as othello
boards are drawn. A set of squares is an int with bit ``s`` for square ``s``.

**State.** A plain tuple ``(mover, opponent, side, moves)`` (see :data:`State`): the
discs of the side to move and of the other side, the side to move (0 black, who moves
first, 1 white), and the legal moves of the side to move as a set of squares, with
:data:`PASS_BIT` standing for the pass when it is the only move, and 0 once the game is
over. Discs are kept from the mover's point of view because negamax reads every node
from there: the transition swaps the two sets. The moves are computed once, when the
state is made, because every reader of a state needs them (``actions``,
``is_terminal``, the engine's hooks): the transition has the new discs at hand.

**Moves** are square numbers, and :data:`PASS` (64) is the pass: a side with no legal
move has exactly one move, the pass, so the players alternate as the protocol asks. The
game ends when neither side can move (a full board, a wiped-out colour or a blocked
position).

**Move generation** shifts the mover's discs along each of the eight directions through
runs of the opponent's discs (at most six in a row), then onto an empty square; masks
made at import keep the horizontal and diagonal shifts from wrapping around the edge.
The flips of one move are found along the rays from its square, also made at import.

**The score** is the final disc difference with the empty squares going to the winner,
as the FFO endgame suite counts it: 40-20 with four empties is +24 for the winner's
side.
"""

from __future__ import annotations

from dataclasses import dataclass

from zerosum.game import GameInfo, Player
from zerosum.games.bitboards import bit_indices

__all__ = [
    "BLACK",
    "FULL",
    "PASS",
    "PASS_BIT",
    "SMALL_EMPTIES",
    "SORT_EMPTIES",
    "START",
    "WHITE",
    "WIPE_OUT_BUDGET",
    "Endgame",
    "OthelloRules",
    "RootSolution",
    "State",
    "final_score",
    "flips",
    "make",
    "mobility",
    "perft",
    "result",
    "solve_exact",
]

BLACK = 0
"""Black, the first player (``X`` in the FFO positions)."""
WHITE = 1
"""White, the second player (``O``)."""
PASS = 64
"""The pass: the one move of a side that has no other."""
PASS_BIT = 1 << PASS
"""The pass in a state's set of moves."""
FULL = (1 << 64) - 1
"""Every square."""

_INNER = 0x7E7E7E7E7E7E7E7E
_QUADRANTS = (
    0x0F0F0F0F,
    0xF0F0F0F0,
    0x0F0F0F0F << 32,
    0xF0F0F0F0 << 32,
)  # files b to g: a shift sideways from them cannot wrap

State = tuple[int, int, int, int]
"""A position: ``(mover, opponent, side, moves)``, the discs of the side to move and of
the other side, the side to move, and its legal moves (:data:`PASS_BIT` for a forced
pass, 0 when the game is over)."""


def mobility(mover: int, opponent: int) -> int:
    """Return the squares where ``mover`` may play: an empty square from which a run of
    ``opponent``'s discs ends on one of ``mover``'s, along any of the eight directions.

    Each direction grows the runs of opponent's discs from the mover's discs by one disc
    twice, then by two discs twice where two opponent's discs adjoin (Edax's shifts):
    the six discs of the longest run in four steps rather than six, 20% faster.
    Unrolled: in CPython a loop's bookkeeping would cost as much as the steps
    themselves."""
    empty = FULL ^ (mover | opponent)
    inner = opponent & _INNER
    pairs = inner & (inner << 1)  # a run may grow by two where two opponent's discs are
    t = inner & (mover << 1)
    t |= inner & (t << 1)
    t |= pairs & (t << 2)
    t |= pairs & (t << 2)
    found = t << 1
    pairs >>= 1
    t = inner & (mover >> 1)
    t |= inner & (t >> 1)
    t |= pairs & (t >> 2)
    t |= pairs & (t >> 2)
    found |= t >> 1
    pairs = opponent & (opponent << 8)
    t = opponent & (mover << 8)
    t |= opponent & (t << 8)
    t |= pairs & (t << 16)
    t |= pairs & (t << 16)
    found |= t << 8
    pairs >>= 8
    t = opponent & (mover >> 8)
    t |= opponent & (t >> 8)
    t |= pairs & (t >> 16)
    t |= pairs & (t >> 16)
    found |= t >> 8
    pairs = inner & (inner << 7)
    t = inner & (mover << 7)
    t |= inner & (t << 7)
    t |= pairs & (t << 14)
    t |= pairs & (t << 14)
    found |= t << 7
    pairs >>= 7
    t = inner & (mover >> 7)
    t |= inner & (t >> 7)
    t |= pairs & (t >> 14)
    t |= pairs & (t >> 14)
    found |= t >> 7
    pairs = inner & (inner << 9)
    t = inner & (mover << 9)
    t |= inner & (t << 9)
    t |= pairs & (t << 18)
    t |= pairs & (t << 18)
    found |= t << 9
    pairs >>= 9
    t = inner & (mover >> 9)
    t |= inner & (t >> 9)
    t |= pairs & (t >> 18)
    t |= pairs & (t >> 18)
    found |= t >> 9
    return found & empty


def _lines(square: int) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """The rays from ``square`` (excluded) to the edge, each as its nearest square and
    the set of all its squares: first those that run towards higher squares, then those
    towards lower ones. Only rays of two squares or more, since a flip needs a disc to
    flip and one to close the run."""
    file, rank = square & 7, square >> 3
    up: list[tuple[int, int]] = []
    down: list[tuple[int, int]] = []
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
        squares = []
        f, r = file + df, rank + dr
        while 0 <= f < 8 and 0 <= r < 8:
            squares.append(8 * r + f)
            f, r = f + df, r + dr
        if len(squares) >= 2:
            ray = sum(1 << s for s in squares)
            (up if 8 * dr + df > 0 else down).append((1 << squares[0], ray))
    return tuple(up), tuple(down)


LINES = tuple(_lines(square) for square in range(64))
"""``LINES[square]``: the rays from ``square`` along which a move there can flip, as
``(rays towards higher squares, rays towards lower ones)``, each ray ``(nearest, all)``."""


def flips(mover: int, opponent: int, square: int) -> int:
    """Return the discs of ``opponent`` that ``mover`` flips by playing on ``square``
    (0 when the move flips nothing, that is when it is not legal).

    Along a ray that starts with an opponent's disc, the nearest square that is not the
    opponent's closes the run if it is the mover's: the lowest such bit on a ray towards
    higher squares, the highest on one towards lower squares. No square-by-square walk."""
    flipped = 0
    up, down = LINES[square]
    for nearest, ray in up:
        if opponent & nearest:
            outflank = ray & ~opponent
            bit = outflank & -outflank
            if bit & mover:
                flipped |= ray & (bit - 1)
    for nearest, ray in down:
        if opponent & nearest:
            outflank = ray & ~opponent
            if outflank:
                bit = 1 << (outflank.bit_length() - 1)
                if bit & mover:
                    flipped |= ray & -(bit << 1)
    return flipped


NEIGHBOURS = tuple(
    sum(
        1 << (8 * r + f)
        for f in range((square & 7) - 1, (square & 7) + 2)
        for r in range((square >> 3) - 1, (square >> 3) + 2)
        if 0 <= f < 8 and 0 <= r < 8 and 8 * r + f != square
    )
    for square in range(64)
)
"""``NEIGHBOURS[square]``: the squares next to ``square``."""


def final_score(mover: int, opponent: int) -> int:
    """The final disc difference for ``mover``, the empty squares going to the winner."""
    diff = mover.bit_count() - opponent.bit_count()
    if diff > 0:
        return diff + 64 - (mover | opponent).bit_count()
    if diff < 0:
        return diff - 64 + (mover | opponent).bit_count()
    return 0


def make(mover: int, opponent: int, side: Player) -> State:
    """Return the state with these discs and side to move, its moves computed."""
    moves = mobility(mover, opponent)
    if not moves and mobility(opponent, mover):
        moves = PASS_BIT
    return (mover, opponent, side, moves)


START: State = make(1 << 28 | 1 << 35, 1 << 27 | 1 << 36, BLACK)
"""The start: white on d4 and e5, black on e4 and d5, black to move."""


def result(state: State, move: int) -> State:
    """Return the state after ``move`` (a square, or :data:`PASS`); unchecked."""
    mover, opponent, side, _ = state
    if move == PASS:
        # a pass is only ever the move of a side whose opponent can move
        return (opponent, mover, 1 - side, mobility(opponent, mover))
    bit = 1 << move
    flipped = flips(mover, opponent, move)
    new_mover = opponent ^ flipped
    new_opponent = mover | flipped | bit
    moves = mobility(new_mover, new_opponent)
    if not moves and mobility(new_opponent, new_mover):
        moves = PASS_BIT
    return (new_mover, new_opponent, 1 - side, moves)


def perft(state: State, depth: int) -> int:
    """Count the move paths of ``depth`` plies (a pass is a move; a line ends with the
    game), counting the last ply's moves without making them."""
    if depth == 0:
        return 1
    moves = state[3]
    if depth == 1:
        return moves.bit_count()
    return sum(perft(result(state, move), depth - 1) for move in bit_indices(moves))


def solve_exact(mover: int, opponent: int, alpha: int = -65, beta: int = 65) -> int:
    """Return the final disc difference for ``mover`` with perfect play by both sides,
    ``mover`` to move, by a fail-soft alpha-beta search (an :class:`Endgame` of its own).

    Inside the window ``(alpha, beta)`` the value is exact; outside it a bound on the
    same side. Meant for endgames of up to twenty empties or so."""
    return Endgame().solve(mover, opponent, alpha, beta)


SMALL_EMPTIES = 6
"""Up to this many empties :class:`Endgame` searches without its table or move ordering
by mobility, the empty squares in parity order: below it the table and the ordering
cost more than the nodes they save. Measured on FFO #22-25 and #27 (value and one best
move): 5 searched a fifth fewer nodes than 6 but took 16% longer, 7 a fifth more in the
same time."""

SORT_EMPTIES = 16
"""From this many empties :class:`Endgame` also ranks each move by the opponent's best
reply to it by the game's evaluation
(:func:`~zerosum.games.othello.evaluation.evaluate`), a disc weighing half a reply: a
one-ply search in the place of Edax's shallow searches far from the leaves, where a
first move that fails to cut costs a whole subtree. Measured on FFO #22-24 and #27
(value and one best move): 4.41M nodes without, 2.88M with (34% less time); a disc
weighing a quarter of a reply or a whole one 3.08M and 3.20M; from 14, 15 or 18
empties 3.14M, 3.17M and 3.51M; two plies ahead from 17 empties 2.89M in 17% more
time. With every best move: #20-35 61.2M nodes against 63.8M, #36 15.8M against 17.5M,
#37 (one best move) 27.4M against 36.7M, but some positions take more (#31 and #34
11%, #33 19%)."""

WIPE_OUT_BUDGET = 50_000
"""The expansions :meth:`Endgame.solve_root` gives its proof-number search for a
wipe-out question (can the side to move end the game with no disc of the other left?
can the other?) before it falls back on a null window. FFO #39's +64 takes 41,867; the
same questions on #20-38 (which the driver never asks: their values are far from
+-64) settle in at most 36,288 (#38: can white wipe black out?), most in under 3,000.
A move that falls short of a wipe-out by one disc is another matter: on #39, h2 (+62)
took about a million."""

_QUADRANT_OF = tuple(
    next(quadrant for quadrant in _QUADRANTS if quadrant >> square & 1) for square in range(64)
)  # the quadrant of each square
_TABLE_KEPT = 1 << 20  # positions an Endgame's table holds before it starts afresh
_CORNERS = 1 << 0 | 1 << 7 | 1 << 56 | 1 << 63
_NOT_A = 0xFEFEFEFEFEFEFEFE
_NOT_H = 0x7F7F7F7F7F7F7F7F
_X_CORNER = {1 << 9: 1 << 0, 1 << 14: 1 << 7, 1 << 49: 1 << 56, 1 << 54: 1 << 63}
_LATE = 1 << 1 | 1 << 6 | 1 << 8 | 1 << 15 | 1 << 48 | 1 << 55 | 1 << 57 | 1 << 62 | 1 << 9
_LATE |= 1 << 14 | 1 << 49 | 1 << 54  # the C- and X-squares, next to the corners
_EARLY = FULL ^ _LATE

_NO_BUDGET = 1 << 62  # a node count no search reaches
_INFINITE = 1 << 40  # a proof or disproof number that stands for a settled question


class _OverBudgetError(Exception):
    """Unwinds an :class:`Endgame` search that ran out of nodes."""


class Endgame:
    """An exact endgame solver made for the last twenty or so empties, much cheaper per
    node than the general engine: no state tuples, no move lists.

    Above :data:`SMALL_EMPTIES` empties it is an alpha-beta search with a table of
    bounds keyed on both bitboards (kept from search to search, so that the probes of a
    null-window driver share it), an enhanced transposition cut-off (a child whose
    stored bound already refutes the window ends the node before any search) and the
    moves ordered "fastest first": the fewest replies for the opponent (corners counted
    twice), then the fewest empty squares next to the mover's discs, then parity, with
    corners earlier and X-squares next to an empty corner later, the move of the table
    ranked as one that leaves no reply; from :data:`SORT_EMPTIES` empties each move is
    also weighed by the opponent's best reply to it by the game's evaluation. On FFO
    #22-25 and #27 the cut-off saved 6% of the nodes, parity 4%, the corners and
    X-squares 7% to 34% (#22-24), the look ahead 35% (#22-24 and #27; 4% on #20-35
    with every best move). Below, a plain alpha-beta without
    table tries the empty squares, those in quadrants with an odd number of empties
    first (where the mover can hope to play last), the C- and X-squares last within
    each half, with dedicated code for the last two squares. :meth:`nodes` counts every
    node of both kinds, and the expansions of the proof-number search that
    :meth:`solve_root` asks whether a side is wiped out.

    :meth:`solve` and :meth:`try_solve` answer one window (the engine's hook calls
    them); :meth:`solve_root` solves a whole position, best moves included, with its
    own null-window driver."""

    __slots__ = ("_counts", "_search", "_wipe_out", "table")

    def __init__(self) -> None:
        self.table: dict[int, tuple[int, int, int]] = {}
        """Each searched position with more than :data:`SMALL_EMPTIES` empties, keyed on
        ``mover << 64 | opponent``: the bounds ``(low, high)`` on its value and the
        square of its best move (-1 for none)."""
        table = self.table
        nodes = 0
        stop_at = _NO_BUDGET  # the node count at which the search gives up
        # imported here: the evaluation module imports this one
        from zerosum.games.othello.evaluation import evaluate, stable_discs  # noqa: PLC0415

        def best_reply(mover: int, opponent: int, moves: int) -> int:
            """The value for ``mover`` of its best move (of ``moves``) by the game's
            evaluation of the position it leads to, or of this one without a move."""
            if not moves:
                return evaluate((mover, opponent, 0, moves))
            best = -64
            rest = moves
            while rest:
                bit = rest & -rest
                rest ^= bit
                flipped = flips(mover, opponent, bit.bit_length() - 1)
                new_mover = opponent ^ flipped
                new_opponent = mover | flipped | bit
                value = -evaluate((new_mover, new_opponent, 0, mobility(new_mover, new_opponent)))
                best = max(best, value)
            return best

        def deep(mover: int, opponent: int, moves: int, alpha: int, beta: int) -> int:
            """The value for ``mover`` within ``(alpha, beta)``, fail-soft; ``moves`` its
            legal moves (found by the parent when it ranked them)."""
            nonlocal nodes
            nodes += 1
            if nodes >= stop_at:
                raise _OverBudgetError
            if not moves:
                replies = mobility(opponent, mover)
                if not replies:
                    return final_score(mover, opponent)
                return -deep(opponent, mover, replies, -beta, -alpha)
            key = mover << 64 | opponent
            entry = table.get(key)
            if entry is None:
                low, high, first = -64, 64, -1
            else:
                low, high, first = entry
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
                if low > alpha:  # noqa: PLR1730 - a compare is cheaper than calling max
                    alpha = low
                if high < beta:  # noqa: PLR1730 - a compare is cheaper than calling min
                    beta = high
            empty = FULL ^ (mover | opponent)
            odd = _odd_quadrants(empty)
            empties = empty.bit_count()
            left = empties - 1  # after the move
            # far from the leaves a look one reply ahead orders the moves better than
            # their replies alone, and costs little against the subtrees it orders
            ahead = empties >= SORT_EMPTIES and moves & (moves - 1)
            children = []
            rest = moves
            while rest:
                bit = rest & -rest
                rest ^= bit
                square = bit.bit_length() - 1
                flipped = flips(mover, opponent, square)
                new_mover = opponent ^ flipped
                new_opponent = mover | flipped | bit
                replies = mobility(new_mover, new_opponent)
                if left > SMALL_EMPTIES:  # the table holds no smaller position
                    known = table.get(new_mover << 64 | new_opponent)
                    if known is not None and -known[1] >= beta:
                        # enhanced transposition cut-off: a child the table already
                        # proves good enough cuts before any is searched
                        table[key] = (-known[1], high, square)
                        return -known[1]
                if square == first:
                    # the table's move ranks as one that leaves no reply, so that a move
                    # the look ahead finds far stronger still goes before it (FFO #27:
                    # 18% fewer nodes than always first, #22-24 and #36 the same)
                    rank = -1
                else:
                    sideways = (new_opponent << 1) & _NOT_A | (new_opponent >> 1) & _NOT_H
                    row = new_opponent | sideways
                    near = (sideways | row << 8 | row >> 8) & empty
                    rank = 8 * (replies.bit_count() + (replies & _CORNERS).bit_count())
                    rank += near.bit_count()
                    if not bit & odd:
                        rank += 4
                    if bit & _CORNERS:
                        rank -= 4
                    else:
                        corner = _X_CORNER.get(bit)
                        if corner is not None and empty & corner:
                            rank += 4
                    if ahead:
                        # the opponent's best by the evaluation, in discs: half a reply each
                        rank += 4 * best_reply(new_mover, new_opponent, replies)
                children.append((rank << 6 | square, new_mover, new_opponent, replies))
            if len(children) > 1:
                children.sort()
            best = -65
            best_move = -1
            a = alpha
            for rank, new_mover, new_opponent, replies in children:
                if left <= SMALL_EMPTIES:
                    score = -small(
                        new_mover, new_opponent, -beta, -a, False, odd ^ _QUADRANT_OF[rank & 63]
                    )
                elif best == -65 or beta - a == 1:
                    score = -deep(new_mover, new_opponent, replies, -beta, -a)
                else:
                    # principal-variation search: with a wide window the moves after the
                    # first need only prove themselves worse, with a null window
                    score = -deep(new_mover, new_opponent, replies, -a - 1, -a)
                    if a < score < beta:
                        score = -deep(new_mover, new_opponent, replies, -beta, -score)
                if score > best:
                    best = score
                    best_move = rank & 63
                    if score > a:
                        if score >= beta:
                            break
                        a = score
            if len(table) >= _TABLE_KEPT:
                _forget(table)
            if best <= alpha:
                table[key] = (low, best, best_move)
            elif best >= beta:
                table[key] = (best, high, best_move)
            else:
                table[key] = (best, best, best_move)
            return best

        def small(  # noqa: PLR0917 - called once a node: positional is faster
            mover: int, opponent: int, alpha: int, beta: int, passed: bool, odd: int
        ) -> int:
            """The value for ``mover`` within ``(alpha, beta)`` in the last few empties,
            fail-soft; ``passed`` says the other side has just passed, ``odd`` is the
            quadrants with an odd number of empties."""
            nonlocal nodes
            nodes += 1
            empty = FULL ^ (mover | opponent)
            best = -65
            # parity: squares in quadrants with an odd number of empties first, where
            # the mover can hope to play last (the order endgame solvers use here), and
            # in each half the C- and X-squares last (Edax's presorted empties do the
            # same): 3% to 7% fewer nodes on FFO #22-24; a move flips its quadrant's
            # parity, so the caller passes it on instead of counting four quadrants
            first = empty & odd
            second = empty ^ first
            for part in (first & _EARLY, first & _LATE, second & _EARLY, second & _LATE):
                rest = part
                while rest:
                    bit = rest & -rest
                    rest ^= bit
                    square = bit.bit_length() - 1
                    if not opponent & NEIGHBOURS[square]:
                        continue  # nothing to flip next to it: far cheaper to rule out than flips()
                    flipped = flips(mover, opponent, square)
                    if not flipped:
                        continue
                    left = empty ^ bit
                    beyond = left & (left - 1)  # the empties left but the lowest
                    if not left:  # the board is full: 64 discs, the mover's now n + 1 of them
                        score = 2 * (mover.bit_count() + flipped.bit_count()) - 62
                    elif not beyond:
                        nodes += 1
                        score = -_last(opponent ^ flipped, mover | flipped | bit, left)
                    elif not beyond & (beyond - 1):
                        nodes += 1
                        score = -_two(
                            opponent ^ flipped, mover | flipped | bit, left, -beta, -alpha
                        )
                    else:
                        score = -small(
                            opponent ^ flipped,
                            mover | flipped | bit,
                            -beta,
                            -alpha,
                            False,
                            odd ^ _QUADRANT_OF[square],
                        )
                    if score > best:
                        best = score
                        if score > alpha:
                            if score >= beta:
                                return score
                            alpha = score
            if best > -65:
                return best
            if passed:
                return final_score(mover, opponent)
            return -small(opponent, mover, -beta, -alpha, True, odd)

        def search(mover: int, opponent: int, alpha: int, beta: int, budget: int | None) -> int:
            nonlocal stop_at
            empties = 64 - (mover | opponent).bit_count()
            if empties > SMALL_EMPTIES:
                stop_at = _NO_BUDGET if budget is None else nodes + budget
                return deep(mover, opponent, mobility(mover, opponent), alpha, beta)
            if empties == 0:
                return final_score(mover, opponent)
            return small(
                mover, opponent, alpha, beta, False, _odd_quadrants(FULL ^ (mover | opponent))
            )

        def wipe_out(
            attacker: int, defender: int, attacker_moves: bool, budget: int
        ) -> bool | None:
            """Whether ``attacker`` can force the game to end with no disc of ``defender``
            left, ``attacker_moves`` saying whose move it is; ``None`` if ``budget``
            expansions do not settle it. A depth-first proof-number search (df-pn)."""
            nonlocal nodes
            proofs: dict[int, tuple[int, int]] = {}  # (proof, disproof) numbers by position
            limit = nodes + budget

            def numbers(a: int, d: int, turn: int) -> tuple[int, int]:
                """The proof and disproof numbers of the position with the attacker's
                discs ``a`` and the defender's ``d`` (``turn`` 1: the attacker to move):
                as stored, or first estimates for a position never expanded."""
                key = (a << 64 | d) << 1 | turn
                found = proofs.get(key)
                if found is None:
                    if not d:
                        found = (0, _INFINITE)
                    elif stable_discs(d, a | d):
                        found = (_INFINITE, 0)  # a disc no move can flip: no wipe-out
                    elif turn:
                        # one good move proves the attacker's position, each of its moves
                        # must fail to disprove it, and the other way round for the
                        # defender's: the moves counted as the first estimates (df-pn+)
                        found = (1, mobility(a, d).bit_count() or 1)
                    else:
                        found = (mobility(d, a).bit_count() or 1, 1)
                    proofs[key] = found
                return found

            def expand(a: int, d: int, turn: int, most_proof: int, most_disproof: int) -> None:
                """Search the position (as for :func:`numbers`) until its proof number
                reaches ``most_proof`` or its disproof number ``most_disproof``, the
                thresholds beyond which its parent would rather search a sibling."""
                nonlocal nodes
                nodes += 1
                if nodes >= limit:
                    raise _OverBudgetError
                key = (a << 64 | d) << 1 | turn
                kids: list[tuple[int, int, int]] = []
                mover, other = (a, d) if turn else (d, a)
                moves = mobility(mover, other)
                if not moves:
                    if not mobility(other, mover):
                        # the game is over: won if the defender has no disc left
                        proofs[key] = (_INFINITE, 0) if d else (0, _INFINITE)
                        return
                    kids.append((a, d, 1 - turn))  # a pass
                while moves:
                    bit = moves & -moves
                    moves ^= bit
                    flipped = flips(mover, other, bit.bit_length() - 1)
                    if turn:
                        kids.append((a | flipped | bit, d ^ flipped, 0))
                    else:
                        kids.append((a ^ flipped, d | flipped | bit, 1))
                while True:
                    # the attacker's position is proven by one child and disproven by all,
                    # the defender's the other way round
                    best = second = _INFINITE
                    child = kids[0]
                    other_number = total = 0
                    for kid in kids:
                        proof, disproof = numbers(*kid)
                        if turn:
                            total += disproof
                            if proof < best:
                                best, second, child, other_number = proof, best, kid, disproof
                            elif proof < second:
                                second = proof
                        else:
                            total += proof
                            if disproof < best:
                                best, second, child, other_number = disproof, best, kid, proof
                            elif disproof < second:
                                second = disproof
                    total = min(total, _INFINITE)
                    proof, disproof = (best, total) if turn else (total, best)
                    if proof >= most_proof or disproof >= most_disproof:
                        proofs[key] = (proof, disproof)
                        return
                    if turn:
                        expand(
                            *child,
                            min(most_proof, second + 1),
                            most_disproof - disproof + other_number,
                        )
                    else:
                        expand(
                            *child,
                            most_proof - proof + other_number,
                            min(most_disproof, second + 1),
                        )

            turn = 1 if attacker_moves else 0
            try:
                expand(attacker, defender, turn, _INFINITE, _INFINITE)
            except _OverBudgetError:
                return None
            return numbers(attacker, defender, turn)[0] == 0

        def counts() -> int:
            return nodes

        self._search = search
        self._wipe_out = wipe_out
        self._counts = counts

    def solve(self, mover: int, opponent: int, alpha: int = -65, beta: int = 65) -> int:
        """Return the final disc difference for ``mover``, ``mover`` to move, with
        perfect play by both sides: exact inside the window ``(alpha, beta)``, outside
        it a bound on the same side (fail-soft)."""
        return self._search(mover, opponent, alpha, beta, None)

    def try_solve(
        self, mover: int, opponent: int, alpha: int, beta: int, budget: int
    ) -> int | None:
        """:meth:`solve`, or ``None`` if it would take more than about ``budget`` nodes
        (counted in the table's part of the search, at most
        :data:`SMALL_EMPTIES` empties below each of them). What the search proved
        before it gave up stays in the table, so that trying again, or solving the
        positions below, starts from there."""
        try:
            return self._search(mover, opponent, alpha, beta, budget)
        except _OverBudgetError:
            return None

    def solve_root(
        self,
        mover: int,
        opponent: int,
        *,
        every: bool = True,
        guess: int = 0,
        budget: int | None = None,
    ) -> RootSolution:
        """Solve the position ``mover`` to move: its exact final disc difference and
        its best moves (every move that keeps the value, or with ``every=False`` one).

        The whole search stays in this solver, without the engine's far costlier nodes
        above it. The value is found with null-window searches sharing the table: the
        first asks whether the value is above ``guess``, and each next one steps from the
        bound the last one proved (fail-soft), by 2 (scores are even: 64 discs, the
        empties to the winner), from the third step the same way twice as far each
        time (MTD(f) with a galloping step), and halves the gap once the value lies
        between a proven lower and upper bound. Against MTD-bi from ``-64 .. 64``, which
        spends probes far from the value (on FFO #26 a quarter of the nodes), a value
        next to ``guess`` takes two probes.

        The root's moves are searched here, not in the table's part, so that each probe
        can order them by the last one: after a probe that failed high the move that
        proved it first, after one that failed low the move that took the most nodes to
        refute (the likeliest best: a worse move falls to a quick refutation, unless it
        is worth nearly as much). On FFO #36 (value and one best move) the table's
        fastest-first order at the root took 17.4M nodes (with a table eight times
        larger; with this one it was stopped at 15M), this order 7.7M. Each move is
        then tested with one null-window search of its position in the same order.

        Two probes ask whether a side is wiped out: "above 62?" (can the mover end the
        game with no disc of the opponent left?) and "above -64?" (can it escape that?).
        Those go to a depth-first proof-number search instead (df-pn: the proof and
        disproof numbers of the attacker's one move and the defender's every reply, a
        stable disc of the defender's settling a position at once), and so do the best
        moves of a wipe-out: on FFO #39 (+64) the null window "above 62?" did not finish
        in 3M nodes, the proof-number search proves it in 41,867 (one best move: 84,383
        nodes in all). Each question gets at most :data:`WIPE_OUT_BUDGET` nodes, then
        the null window.

        With ``budget`` the search gives up after about that many nodes (counted as in
        :meth:`try_solve`) and returns what was proven: the bounds, and ``finished``
        false."""
        start = self._counts()
        moves = mobility(mover, opponent)
        if not moves:
            # a pass or the end: one search with the widest window (it passes itself)
            try:
                found = self._search(mover, opponent, -65, 65, budget)
            except _OverBudgetError:
                return RootSolution(-64, 64, (), finished=False)
            passes = (PASS,) if mobility(opponent, mover) else ()
            return RootSolution(found, found, passes, finished=True)
        # each move as [nodes its last search took, the opponent's replies, square,
        # its position], fastest first (the fewest replies) to begin with
        children = []
        for square in bit_indices(moves):
            flipped = flips(mover, opponent, square)
            new_mover = opponent ^ flipped
            new_opponent = mover | flipped | 1 << square
            replies = mobility(new_mover, new_opponent).bit_count()
            children.append([0, replies, square, new_mover, new_opponent])
        children.sort(key=lambda child: child[1])
        low, high = -64, 64
        threshold = max(low, min(high - 2, guess - (guess & 1)))
        step, last = 2, 0
        failed_high = failed_low = False
        try:
            while low < high:
                wiped = None
                if threshold in {62, -64}:
                    # "above 62?" asks whether the mover can wipe the opponent out, "above
                    # -64?" whether it escapes that: a proof-number search settles either
                    # in thousands of nodes where the null window takes millions (FFO #39)
                    spare = _wipe_out_budget(budget, self._counts() - start)
                    if threshold == 62:
                        wiped = self._wipe_out(mover, opponent, True, spare)
                        found = 64 if wiped else 62
                    else:
                        wiped = self._wipe_out(opponent, mover, False, spare)
                        found = -64 if wiped else -62
                if wiped is None:
                    found = -65
                    for child in children:
                        before = self._counts()
                        left = _left(budget, before - start)
                        score = -self._search(child[3], child[4], -threshold - 1, -threshold, left)
                        child[0] = self._counts() - before
                        if score > found:
                            found = score
                            if score > threshold:
                                break
                if found > threshold:
                    if wiped is None:
                        # the move that proved it goes first from now on
                        children.remove(child)
                        children.insert(0, child)
                    failed_high = True
                    low = max(low, found)
                    step, last = (2 * step if last > 1 else 2), max(last, 0) + 1
                    threshold = low + step - 2
                else:
                    # every move failed: the one hardest to refute is likeliest the best
                    if wiped is None:
                        children.sort(key=lambda child: -child[0])
                    failed_low = True
                    high = min(high, found)
                    step, last = (2 * step if last < -1 else 2), min(last, 0) - 1
                    threshold = high - step
                if failed_high and failed_low:
                    # the value is caught between two proven bounds: halve the gap
                    threshold = low + 2 * ((high - low) // 4)
                threshold = max(low, min(high - 2, threshold))
            if high == -64:
                # wiped out whatever it plays: every move is a best move
                return RootSolution(low, high, tuple(bit_indices(moves)), finished=True)
            best = []
            for _, _, square, new_mover, new_opponent in children:
                keeps = None
                if low == 64:
                    # a wipe-out: the proof-number search tells the moves that keep it
                    keeps = self._wipe_out(
                        new_opponent,
                        new_mover,
                        False,
                        _wipe_out_budget(budget, self._counts() - start),
                    )
                if keeps is None:
                    # the move is worth the value if its position is worth at most -value
                    # to the opponent: a null window there, failing low
                    left = _left(budget, self._counts() - start)
                    keeps = self._search(new_mover, new_opponent, -low, -low + 1, left) <= -low
                if keeps:
                    best.append(square)
                    if not every:
                        break
        except _OverBudgetError:
            return RootSolution(low, high, (), finished=False)
        return RootSolution(low, high, tuple(sorted(best)), finished=True)

    def nodes(self) -> int:
        """Return the nodes searched so far by every :meth:`solve` of this solver."""
        return self._counts()


def _forget(table: dict[int, tuple[int, int, int]]) -> None:
    """Make room in a full :class:`Endgame` table: drop the positions with the fewest
    empties, the most numerous and the cheapest to search again, or every position if
    those are not half of them."""
    few = 64 - SMALL_EMPTIES - 2  # discs on the board with 7 or 8 empties
    kept = {
        key: entry for key, entry in table.items() if (key >> 64 | key & FULL).bit_count() < few
    }
    table.clear()
    if 2 * len(kept) < _TABLE_KEPT:
        table.update(kept)


def _odd_quadrants(empty: int) -> int:
    """The quadrants (each as its squares) holding an odd number of ``empty``."""
    odd = 0
    for quadrant in _QUADRANTS:
        if (empty & quadrant).bit_count() & 1:
            odd |= quadrant
    return odd


def _wipe_out_budget(budget: int | None, spent: int) -> int:
    """The expansions a wipe-out question may take: :data:`WIPE_OUT_BUDGET`, or what
    is left of ``budget`` once ``spent`` are if that is less (at least one)."""
    if budget is None:
        return WIPE_OUT_BUDGET
    return max(1, min(WIPE_OUT_BUDGET, budget - spent))


def _left(budget: int | None, spent: int) -> int | None:
    """The nodes left of ``budget`` once ``spent`` are (at least one), ``None`` for no
    budget."""
    if budget is None:
        return None
    return max(1, budget - spent)


@dataclass(frozen=True, slots=True)
class RootSolution:
    """What :meth:`Endgame.solve_root` proved about a position.

    ``low`` and ``high`` bound the final disc difference for the side to move (equal
    once it is proven); ``best_moves`` are the squares that keep it, in increasing
    order (``(PASS,)`` when the side to move must pass, ``()`` when the game is over);
    ``finished`` is false when the budget ran out first, the best moves then unknown."""

    low: int
    high: int
    best_moves: tuple[int, ...]
    finished: bool

    @property
    def score(self) -> int:
        """The final disc difference for the side to move, once :attr:`finished`."""
        return self.low


def _two(mover: int, opponent: int, empty: int, alpha: int, beta: int) -> int:
    """:class:`Endgame`'s search for a board with two empty squares, ``empty``: no parity
    to weigh, each move straight to :func:`_last`. Written out square by square rather
    than as a loop over the two: 0.7% fewer instructions in a whole solve (FFO #21)."""
    first = empty & -empty
    second = empty ^ first
    low = first.bit_length() - 1
    high = second.bit_length() - 1
    best = -65
    if opponent & NEIGHBOURS[low]:
        flipped = flips(mover, opponent, low)
        if flipped:
            best = -_last(opponent ^ flipped, mover | flipped | first, second)
            if best >= beta:
                return best
    if opponent & NEIGHBOURS[high]:
        flipped = flips(mover, opponent, high)
        if flipped:
            return max(best, -_last(opponent ^ flipped, mover | flipped | second, first))
    if best > -65:
        return best
    # the mover passes: the opponent moves on the same board, or the game is over
    worst = 65
    if mover & NEIGHBOURS[low]:
        flipped = flips(opponent, mover, low)
        if flipped:
            worst = _last(mover ^ flipped, opponent | flipped | first, second)
            if worst <= alpha:
                return worst
    if mover & NEIGHBOURS[high]:
        flipped = flips(opponent, mover, high)
        if flipped:
            return min(worst, _last(mover ^ flipped, opponent | flipped | second, first))
    if worst < 65:
        return worst
    return final_score(mover, opponent)


def _last(mover: int, opponent: int, bit: int) -> int:
    """The final score for ``mover`` of a board with one empty square, ``bit``: the
    mover plays it if it can, else the opponent, else it goes to the winner. Counted
    from the 63 discs, without making the move."""
    square = bit.bit_length() - 1
    count = mover.bit_count()
    flipped = flips(mover, opponent, square)
    if flipped:
        return 2 * (count + flipped.bit_count()) - 62
    flipped = flips(opponent, mover, square)
    if flipped:
        return 2 * (count - flipped.bit_count()) - 64
    return 2 * count - 62 if 2 * count > 63 else 2 * count - 64


class OthelloRules:
    """The rules of othello as a :class:`~zerosum.game.Game`: fast and unchecked.

    The checked layer (notation, positions, pictures) and the engine's hooks are added
    by :class:`~zerosum.games.othello.Othello`."""

    info: GameInfo

    def __init__(self) -> None:
        self.info = GameInfo(
            name="othello",
            title="Othello",
            players=("black", "white"),
            utility_range=(-64, 64),
            win_loss=False,
            # Takizawa (2023) computed perfect play from the start: a 32-32 draw
            solved_value=0,
            board_size=(8, 8),
            description=(
                "Place a disc so that it brackets a line of the opponent's discs, which "
                "turn to your colour; a side with no such move passes. Most discs at the "
                "end wins; the score is the disc difference, empties to the winner."
            ),
            score_unit="discs",
        )

    def initial_state(self) -> State:
        """Return the start position, black to move."""
        return START

    def to_move(self, state: State) -> Player:
        """Return the side to move: 0 black, 1 white."""
        return state[2]

    def actions(self, state: State) -> list[int]:
        """Return the legal moves, squares in increasing order, or ``[PASS]``."""
        return bit_indices(state[3])

    def result(self, state: State, action: int) -> State:
        """Return the state after ``action``; unchecked."""
        return result(state, action)

    def is_terminal(self, state: State) -> bool:
        """Tell whether neither side can move."""
        return not state[3]

    def utility(self, state: State, player: Player) -> int:
        """Return the final disc difference for ``player``, empties to the winner."""
        score = final_score(state[0], state[1])
        return score if player == state[2] else -score

    def key(self, state: State) -> int:
        """Return both sets of discs and the side to move as one int."""
        return (state[0] << 64 | state[1]) << 1 | state[2]

    def perft(self, state: State, depth: int) -> int:
        """Count the move paths of ``depth`` plies, passes counted as moves, the last
        ply's moves counted without making them: the hook
        :func:`zerosum.search.perft.perft` calls."""
        return perft(state, depth)
