"""Connect four on any board from 4x4 to 9x9, with bitboards and the hooks of an exact solver.

The board is held the way John Tromp and Pascal Pons hold it: each column takes
``height + 1`` bits of a Python int (bit ``column * (height + 1) + row``), the extra bit a
sentinel that keeps the columns apart so that a four can be found by shifting. A state is
the tuple ``(current, mask)``: the stones of the player to move and every stone. Playing
in a column adds the column's bottom bit to ``mask``: the carry runs up the stones already
there and lands on the first empty cell. The player to move changes by swapping
``current`` for ``current ^ mask``.

Moves are columns, ``0 .. width - 1`` inside and the digits ``1 .. width`` in notation
(1 is the leftmost column). A position is written as the sequence of moves that reaches
it from the empty board, as in Pascal Pons' published test sets (``"4453"``).

Besides the rules, the game gives the search what it needs to solve positions the way
Pons' solver does: ``non_losing_actions`` (the moves that leave the opponent no win on
the spot, best first by Pons' ordering: more winning cells created, then the centre),
``winning_action``, ``score_bounds`` (no win sooner than three plies once no move wins at
once, no loss sooner than four once a safe move exists), and
``non_losing_actions_and_bounds``, the first and the third found together in the one
call the engine makes at every node. The game memoises, per instance, the cells that
complete a four for each set of stones it has met: a node's two sets of stones are
nearly always known from its parent. The memo is bounded and
:meth:`Connect4.clear_memo` empties it. :meth:`Connect4.published_score`
converts an engine score to the published convention (22 minus the winner's stones on
7x6) and :meth:`Connect4.engine_score` back; :func:`solve_position` is what
``zerosum solve connect4`` calls.

With the ``fast`` extra (numba), :meth:`Connect4.compiled_engine` gives an engine whose
searches to the end run in a compiled kernel (:mod:`zerosum.games.connect4_kernel`, the
same search step for step); :func:`solve_position` and ``zerosum solve`` use it when
:func:`zerosum.kernels.enabled` says so, and numba is imported only then.

:meth:`Connect4.mirror` reflects a position left to right and
:meth:`Connect4.canonical_key` keys a position and its mirror image alike: an opening
book (:mod:`zerosum.book`) stores each pair once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from zerosum.game import (
    WIN,
    BoardView,
    GameInfo,
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    Player,
    is_win_score,
    quoted,
    winning_line,
)
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solve import solve

__all__ = ["SOLVED_VALUES", "Connect4", "PositionSolution", "State", "solve_position"]

State = tuple[int, int]
"""A position: ``(current, mask)``, the stones of the player to move and all stones."""

MIN_SIDE = 4
MAX_SIDE = 9

SOLVED_VALUES: dict[tuple[int, int], int] = {
    (4, 4): 0,
    (5, 4): 0,
    (6, 4): -1,
    (4, 5): 0,
    (5, 5): 0,
    (6, 5): 0,
    (4, 6): 0,
    (5, 6): 0,
    (7, 6): 1,
}
"""John Tromp's values of the empty board for the first player, by (width, height)."""

_PIECES = (".", "X", "O")

_WON = (WIN - 1, WIN - 1)
_LOST = (2 - WIN, 2 - WIN)

_MEMO_LIMIT = 1 << 18
"""The most threat sets :class:`Connect4` keeps before it empties its memo (~30 MB)."""


def _threat_finder(height: int) -> Callable[[int], int]:
    """Build the function that finds every cell completing a four of some stones.

    The shifts of the three sideways directions (across, and both diagonals) are bound
    as constants of the closure: the function runs for every node of a solve.

    For a direction ``d``, ``pair = s & (s << d)`` marks the upper stone of two in line.
    A cell wins if two stones lie before it in line and a third before them or after the
    cell, or two after it and a third after them or before the cell. The result is not
    masked: callers keep the empty cells they care about."""
    a1, b1 = height + 1, height
    c1 = height + 2
    a2, b2, c2 = 2 * a1, 2 * b1, 2 * c1
    a3, b3, c3 = 3 * a1, 3 * b1, 3 * c1

    def threats(s: int) -> int:
        pair = s & (s << 1)
        found = (pair << 1) & (s << 3)
        left = s << a1
        pair = s & left
        found |= ((pair << a1) & ((s << a3) | (s >> a1))) | ((pair >> a2) & (left | (s >> a3)))
        left = s << b1
        pair = s & left
        found |= ((pair << b1) & ((s << b3) | (s >> b1))) | ((pair >> b2) & (left | (s >> b3)))
        left = s << c1
        pair = s & left
        return (
            found | ((pair << c1) & ((s << c3) | (s >> c1))) | ((pair >> c2) & (left | (s >> c3)))
        )

    return threats


def _safe_moves_finder(
    game: Connect4,
) -> Callable[[State], tuple[tuple[int, ...], tuple[int, int]]]:
    """Build :attr:`Connect4.non_losing_actions_and_bounds` for ``game``'s board.

    Every mask and table it reads is bound into the closure, since it runs at every node
    of a solve and an attribute lookup costs as much as a line of its work. It memoises
    the threats of every set of stones it meets (a child's two sets are its parent's
    opponent's stones and the stones the sort just scored, so nearly every node finds
    both without computing them), not the answers: the table cuts most repeat visits
    first, and a memo of the answers measured 4% slower on Test_L2_R2 than computing
    them again (``bench/connect4.py``)."""
    memo = game._memo
    threats = game._threats
    full = game._full
    bottom = game._bottom
    open_bounds = game._open_bounds
    order_masks = game._order_masks
    rank_masks = game._rank_masks
    h1 = game._h1
    column_of = game._key_to_column.__getitem__

    def non_losing_actions_and_bounds(state: State) -> tuple[tuple[int, ...], tuple[int, int]]:
        current, mask = state
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        mine = memo.get(current)
        if mine is None:
            mine = memo[current] = threats(current)
        opponent = current ^ mask
        theirs = memo.get(opponent)
        if theirs is None:
            theirs = memo[opponent] = threats(opponent)
        free = full ^ mask
        possible = (mask + bottom) & full
        wins = mine & possible
        theirs &= free
        forced = possible & theirs
        if forced:
            possible = 0 if forced & (forced - 1) else forced
        possible &= ~(theirs >> 1)  # never play under the opponent's winning cell
        if wins:
            # the winning columns first, then the rest sorted as usual
            possible &= ~wins
            first = tuple(column for column, column_mask in order_masks if wins & column_mask)
            bounds = _WON
        elif not possible & (possible - 1):  # no move or one: nothing to sort
            if possible:
                return ((possible.bit_length() - 1) // h1,), open_bounds[free.bit_count()]
            return (), _LOST
        else:
            first = ()
            bounds = open_bounds[free.bit_count()]
        keyed = []
        for column_mask, rank in rank_masks:
            move = possible & column_mask
            if move:
                after = current | move
                made = memo.get(after)
                if made is None:
                    made = memo[after] = threats(after)
                keyed.append(((made & free).bit_count() << 4) | rank)
        keyed.sort(reverse=True)
        return first + tuple(map(column_of, keyed)), bounds

    return non_losing_actions_and_bounds


class Connect4:
    """Connect four on a board ``width`` columns wide and ``height`` rows high (4 to 9).

    Player 0 (``X``) moves first. States are ``(current, mask)`` tuples of ints; actions
    are column indices from 0. Every mask the hot path needs is computed here, once."""

    __slots__ = (
        "_bottom",
        "_bottoms",
        "_cells",
        "_centre_mask",
        "_column_masks",
        "_full",
        "_h1",
        "_key_to_column",
        "_memo",
        "_odd_rows",
        "_open_bounds",
        "_order",
        "_order_masks",
        "_rank_masks",
        "_steps",
        "_threats",
        "_tops",
        "height",
        "info",
        "non_losing_actions_and_bounds",
        "width",
    )

    width: int
    """The number of columns."""
    height: int
    """The number of rows."""

    def __init__(self, width: int = 7, height: int = 6) -> None:
        for name, value in (("width", width), ("height", height)):
            if type(value) is not int or not MIN_SIDE <= value <= MAX_SIDE:
                raise InvalidGameError(
                    f"connect four {name} must be an integer from {MIN_SIDE} to {MAX_SIDE}, "
                    f"not {quoted(value)}"
                )
        self.width = width
        self.height = height
        h1 = height + 1
        self._cells = width * height
        self._h1 = h1
        # score_bounds of a state with a safe move and no win at once, by empty cells
        self._open_bounds = tuple(
            (4 - WIN if empty >= 4 else 0, WIN - 3 if empty >= 3 else 0)
            for empty in range(width * height + 1)
        )
        self._steps = (1, h1, height, h1 + 1)  # up, across, both diagonals
        self._threats = _threat_finder(height)
        self._memo: dict[int, int] = {}
        self._bottoms = tuple(1 << (c * h1) for c in range(width))
        self._tops = tuple(1 << (c * h1 + height - 1) for c in range(width))
        self._column_masks = tuple(((1 << height) - 1) << (c * h1) for c in range(width))
        self._bottom = sum(self._bottoms)
        self._full = sum(self._column_masks)
        self._odd_rows = sum(self._bottom << row for row in range(0, height, 2))
        self._centre_mask = self._column_masks[width // 2]
        # Centre first, then outwards, left before right: 4 3 5 2 6 1 7 on 7 columns.
        order = tuple(width // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(width))
        self._order = order
        self._order_masks = tuple((c, self._column_masks[c]) for c in order)
        # A candidate move is sorted by (winning cells << 4) | rank, the rank higher nearer
        # the centre: one integer sort gives Pons' order, ties going to the centre, and
        # the sorted keys index the columns directly.
        self._key_to_column = tuple(
            order[width - (key & 15)] if 0 < key & 15 <= width else -1
            for key in range((width * height + 1) << 4)
        )
        self._rank_masks = tuple(
            (self._column_masks[column], width - index) for index, column in enumerate(order)
        )
        self.non_losing_actions_and_bounds = _safe_moves_finder(self)
        """:meth:`non_losing_actions` and :meth:`score_bounds` of a state where the game
        goes on, in one call ``(moves, (low, high))``: the threats that decide which
        moves are safe also bound the score, and the engine asks for both at every
        node."""
        self.info = GameInfo(
            name="connect4",
            title="Connect four" + ("" if (width, height) == (7, 6) else f" {width}x{height}"),
            players=("X", "O"),
            win_loss=True,
            solved_value=SOLVED_VALUES.get((width, height)),
            board_size=(width, height),
            description=(
                f"Drop stones into {width} columns of {height}; four in a row, column or "
                f"diagonal wins. Moves are column digits 1-{width}; a position is its "
                "move sequence."
            ),
        )

    # ------------------------------------------------------------------ protocol

    def initial_state(self) -> State:
        """Return the empty board, first player to move."""
        return (0, 0)

    def to_move(self, state: State) -> Player:
        """Return 0 when an even number of stones is on the board, else 1."""
        return state[1].bit_count() & 1

    def actions(self, state: State) -> list[int]:
        """Return the columns that are not full, left to right; none once the game is over."""
        if self.is_terminal(state):
            return []
        mask = state[1]
        return [c for c, top in enumerate(self._tops) if not mask & top]

    def result(self, state: State, action: int) -> State:
        """Drop a stone of the player to move into column ``action`` (unchecked)."""
        current, mask = state
        return (current ^ mask, mask | (mask + self._bottoms[action]))

    def is_terminal(self, state: State) -> bool:
        """Tell whether the last move made four in a line or filled the board."""
        current, mask = state
        if mask == self._full:
            return True
        done = current ^ mask
        # stones hold a four exactly when one of them completes a four of the others;
        # the threats of the last mover's stones are usually known from the parent
        known = self._memo.get(done)
        if known is not None:
            return known & done != 0  # not bool(): a call costs more than the compare
        up, across, diagonal, anti = self._steps
        m = done & (done >> across)
        if m & (m >> 2 * across):
            return True
        m = done & (done >> diagonal)
        if m & (m >> 2 * diagonal):
            return True
        m = done & (done >> anti)
        if m & (m >> 2 * anti):
            return True
        m = done & (done >> up)
        return bool(m & (m >> 2))

    def utility(self, state: State, player: Player) -> int:
        """Return +1 if ``player`` made four in a line, -1 if the opponent did, else 0."""
        current, mask = state
        if not self._aligned(current ^ mask):
            return 0
        winner = 1 - (mask.bit_count() & 1)
        return 1 if player == winner else -1

    # ------------------------------------------------------------------ search hooks

    def key(self, state: State) -> int:
        """Return one int per position, side to move included: ``current + mask``.

        Within a column the sum is ``2**h - 1 + stones``, which tells apart every height
        ``h`` and every colouring and never carries into the next column; the heights give
        the side to move. The table spreads keys over its slots itself (it multiplies by
        an odd constant and takes the top bits), so no mixing is needed here: the call
        runs at every node of a search."""
        return state[0] + state[1]

    def mirror(self, state: State) -> State:
        """Return ``state`` reflected left to right: column ``c`` becomes ``width - 1 - c``.

        The rules are symmetric, so a position and its mirror image have the same value
        and mirrored best moves."""
        current, mask = state
        h1, last = self._h1, self.width - 1
        column = (1 << h1) - 1
        flipped_current = flipped_mask = 0
        for c in range(self.width):
            shift = c * h1
            to = (last - c) * h1
            flipped_current |= ((current >> shift) & column) << to
            flipped_mask |= ((mask >> shift) & column) << to
        return (flipped_current, flipped_mask)

    def canonical_key(self, state: State) -> int:
        """Return one key for ``state`` and its mirror image: the smaller of their
        :meth:`key`. An opening book (:mod:`zerosum.book`) stores each position once
        under it, halving the book."""
        return min(state[0] + state[1], sum(self.mirror(state)))

    def evaluate(self, state: State) -> int:
        """Estimate the position for the player to move by counting threats.

        A threat is an empty cell that completes a four. Threats count double on the rows
        where they tend to fall to their owner at the end (odd rows from the bottom for
        the first player, even rows for the second) and an opponent's threat that can be
        played now counts against; open lines (four cells free of the opponent's stones)
        and stones in the centre column add a little. A win on the spot scores 1000."""
        current, mask = state
        opponent = current ^ mask
        full = self._full
        free = full ^ mask
        mine = self._threats(current) & free
        playable = (mask + self._bottom) & full
        if mine & playable:
            return 1000
        theirs = self._threats(opponent) & free
        odd = self._odd_rows
        if mask.bit_count() & 1:  # the player to move is the second player
            my_rows, their_rows = full ^ odd, odd
        else:
            my_rows, their_rows = odd, full ^ odd
        value = 8 * (mine.bit_count() - theirs.bit_count())
        value += 8 * ((mine & my_rows).bit_count() - (theirs & their_rows).bit_count())
        value -= 16 * (theirs & playable).bit_count()
        value += self._open_lines(current | free) - self._open_lines(opponent | free)
        centre = self._centre_mask
        return value + 3 * ((current & centre).bit_count() - (opponent & centre).bit_count())

    def ordered_actions(self, state: State) -> list[int]:
        """Return every legal move, most promising first (Pons' ordering).

        Moves that win at once come first, then the moves that leave the opponent no win
        on the spot, sorted by the number of winning cells they create, ties to the
        centre; the moves that lose at once follow, centre first."""
        if self.is_terminal(state):
            return []
        good = self.non_losing_actions(state)
        mask = state[1]
        tops = self._tops
        return [*good, *(c for c in self._order if not mask & tops[c] and c not in good)]

    def non_losing_actions(self, state: State) -> tuple[int, ...]:
        """Return the moves after which the opponent cannot win at once, best first.

        A move that wins at once comes first. When the opponent threatens to win in one
        column, the block is the only other candidate; two such threats, or every move
        opening a win just above itself, leave only the winning moves, and an empty tuple
        means every move loses next ply. The rest are sorted as Pascal Pons does: more
        winning cells made, then nearer the centre. Like the other solver hooks it expects
        a state where the game goes on: the search asks ``is_terminal`` first."""
        return self.non_losing_actions_and_bounds(state)[0]

    def clear_memo(self) -> None:
        """Forget the memoised threats (a benchmark timing a cold solve).

        They are pure functions of the stones, so keeping them is always correct; this
        only frees their memory or measures a search without them."""
        self._memo.clear()

    def winning_action(self, state: State) -> int | None:
        """Return a column that makes four at once (the most central), or ``None``.

        It expects a state where the game goes on."""
        current, mask = state
        wins = self._threats_of(current) & (mask + self._bottom) & self._full
        if not wins:
            return None
        for column, column_mask in self._order_masks:
            if wins & column_mask:
                return column
        return None  # unreachable: a winning cell lies in some column

    def score_bounds(self, state: State) -> tuple[int, int]:
        """Return ``(low, high)`` bounds on the engine score of ``state`` for its mover.

        Engine units as if ``state`` were the root: a win in ``n`` plies is ``WIN - n``.
        Exact when the game is over, when a move wins at once (``WIN - 1``) and when every
        move loses next ply (``-(WIN - 2)``); otherwise a win takes three plies at least
        and a loss four, and neither can happen without the empty cells to play it out."""
        if self.is_terminal(state):
            current, mask = state
            value = 0 if mask == self._full and not self._aligned(current ^ mask) else -WIN
            return (value, value)
        return self.non_losing_actions_and_bounds(state)[1]

    def compiled_engine(self, options: EngineOptions | None = None) -> Engine | None:
        """Return an engine whose searches to the end run in the compiled kernel, or
        ``None`` for the pure path.

        ``None`` when kernels are off (:func:`zerosum.kernels.enabled`: numba missing,
        ``ZEROSUM_KERNELS=0`` or :func:`zerosum.kernels.use_kernels`) or the board takes
        more than 63 bits, ``width * (height + 1)`` (8x7, 7x9 and larger; 7x6 takes 49).
        The engine (:class:`zerosum.games.connect4_kernel.KernelEngine`) solves with
        :func:`~zerosum.search.solve.solve` as the pure one does, to the same scores and
        best moves; the first one made in a process loads the compiled kernel from the
        cache folder (or, once per CPU, compiles it: a few seconds)."""
        from zerosum import kernels  # noqa: PLC0415 - numba only when a kernel is used

        module = kernels.load("zerosum.games.connect4_kernel")
        if module is None or not module.fits(self.width, self.height):
            return None
        engine: Engine = module.KernelEngine(self, options)
        return engine

    def remaining_plies(self, state: State) -> int:
        """Return the most plies any game from ``state`` can still last: its empty cells.

        A solver that bisects on win distances needs this to know where the band of
        reachable scores ends (a win in ``n`` plies needs ``n`` empty cells)."""
        return self._cells - state[1].bit_count()

    # ------------------------------------------------------------------ published scores

    def moves_played(self, state: State) -> int:
        """Return the number of stones on the board."""
        return state[1].bit_count()

    def published_score(self, state: State, engine_score: int) -> int:
        """Convert an exact engine score of ``state`` to the published convention.

        A win for the player to move scores ``(cells + 3) // 2`` (22 on 7x6) minus the
        stones the winner has played when it makes four; a loss the negative of the
        opponent's win; a draw 0. ``engine_score`` must be exact: a draw, or a win or loss
        with its distance counted from ``state``. Raises ``ValueError`` otherwise."""
        if engine_score == 0:
            return 0
        if not is_win_score(engine_score):
            raise ValueError(f"engine score {engine_score} is neither a draw nor a win or loss")
        plies = WIN - abs(engine_score)
        played = state[1].bit_count()
        if plies == 0 or (plies % 2 == 1) != (engine_score > 0) or played + plies > self._cells:
            raise ValueError(
                f"engine score {engine_score} cannot end a game {played} moves in "
                f"on a {self.width}x{self.height} board"
            )
        stones = (played + plies + 1) // 2  # the winner's, counting its winning stone
        value = (self._cells + 3) // 2 - stones
        return value if engine_score > 0 else -value

    def engine_score(self, state: State, published: int) -> int:
        """Convert a published score of ``state`` to engine units.

        The reverse of :meth:`published_score`; raises ``ValueError`` for a score that no
        game from ``state`` can have."""
        if published == 0:
            return 0
        played = state[1].bit_count()
        stones = (self._cells + 3) // 2 - abs(published)
        # The winner's k-th stone is move 2k - 1 for the first player and 2k for the
        # second; the winner is the player to move when the score is positive.
        winner_is_second = (played & 1) == (published > 0)
        last = 2 * stones - 1 + winner_is_second
        plies = last - played
        if plies <= 0 or last > self._cells:
            raise ValueError(
                f"published score {published} is impossible {played} moves into a game "
                f"on a {self.width}x{self.height} board"
            )
        return WIN - plies if published > 0 else plies - WIN

    # ------------------------------------------------------------------ notation

    def parse_move(self, state: State, text: str) -> int:
        """Read a column digit ``1 .. width`` as a legal move in ``state``.

        Raises :class:`InvalidMoveError` for text that is not a column and
        :class:`IllegalMoveError` for a full column or a move after the game ended."""
        stripped = text.strip()
        if len(stripped) != 1 or stripped not in self._digits():
            raise InvalidMoveError(
                f"invalid move {quoted(text)}: columns are 1-{self.width}, "
                f"in position {self._describe(state)}"
            )
        column = int(stripped) - 1
        if self.is_terminal(state):
            raise IllegalMoveError(
                f"illegal move {quoted(text)}: the game is over in position {self._describe(state)}"
            )
        if state[1] & self._tops[column]:
            raise IllegalMoveError(
                f"illegal move {quoted(text)}: column {column + 1} is full "
                f"in position {self._describe(state)}"
            )
        return column

    def format_move(self, state: State, action: int) -> str:
        """Write column ``action`` as its digit, ``1`` for the leftmost."""
        return str(action + 1)

    def parse_state(self, text: str) -> State:
        """Read a position written as its move sequence from the empty board (``"4453"``).

        Surrounding blanks are ignored; ``""`` is the empty board. Raises
        :class:`InvalidStateError` naming the sequence for a character that is not a
        column, a move into a full column, or a move after the game ended."""
        digits = self._digits()
        state = self.initial_state()
        for index, char in enumerate(text.strip(), start=1):
            if char not in digits:
                raise InvalidStateError(
                    f"invalid position {quoted(text)}: move {index} ({char!r}) is not a column "
                    f"1-{self.width}"
                )
            if self.is_terminal(state):
                raise InvalidStateError(
                    f"invalid position {quoted(text)}: move {index} ({char}) is played after "
                    "the game ended"
                )
            column = int(char) - 1
            if state[1] & self._tops[column]:
                raise InvalidStateError(
                    f"invalid position {quoted(text)}: move {index} ({char}) is played in a "
                    "full column"
                )
            state = self.result(state, column)
        return state

    def format_state(self, state: State) -> str:
        """Write ``state`` as a move sequence that reaches it (``""`` for the empty board).

        Positions do not remember their history, so the sequence is rebuilt by taking
        stones back, the last mover's first, never through a position where the game was
        already over. Raises :class:`InvalidStateError` if no sequence reaches it."""
        moves: list[int] = []
        if not self._unplay(state, moves, set()):
            raise InvalidStateError(f"no sequence of moves reaches the position {state!r}")
        return "".join(str(c + 1) for c in reversed(moves))

    def render(self, state: State) -> str:
        """Draw the board, top row first, ``X`` for the first player, with column numbers."""
        current, mask = state
        first = current if mask.bit_count() % 2 == 0 else current ^ mask
        h1 = self.height + 1
        rows = []
        for row in range(self.height - 1, -1, -1):
            cells = []
            for column in range(self.width):
                bit = 1 << (column * h1 + row)
                cells.append(_PIECES[0 if not mask & bit else 1 if first & bit else 2])
            rows.append(" ".join(cells))
        rows.append(" ".join(self._digits()))
        return "\n".join(rows)

    def board(self, state: State) -> BoardView[int]:
        """Return the picture of ``state`` for graphical interfaces: top row first, a
        click anywhere in a column that is not full drops a stone there, and the four in
        a line is marked once the game is won."""
        current, mask = state
        first = current if mask.bit_count() % 2 == 0 else current ^ mask
        h1, width = self._h1, self.width
        cells = tuple(
            None if not mask >> bit & 1 else 0 if first >> bit & 1 else 1
            for row in range(self.height - 1, -1, -1)
            for bit in (column * h1 + row for column in range(width))
        )
        targets = {
            cell: column
            for column in self.actions(state)
            for cell in range(column, len(cells), width)
        }
        return BoardView(
            width,
            self.height,
            cells,
            targets,
            kind="columns",
            line=winning_line(cells, width, self.height, 4) if self.is_terminal(state) else (),
            files=tuple(self._digits()),
        )

    # ------------------------------------------------------------------ internals

    def _digits(self) -> str:
        return "123456789"[: self.width]

    def _describe(self, state: State) -> str:
        try:
            text = self.format_state(state)
        except InvalidStateError:
            return repr(state)
        return repr(text) if text else "'' (the empty board)"

    def _threats_of(self, stones: int) -> int:
        """Return every cell that completes a four of ``stones`` (unmasked), memoised.

        The memo is emptied once it holds :data:`_MEMO_LIMIT` sets, which bounds its
        memory; the hooks of one node need only its parent's entries."""
        memo = self._memo
        found = memo.get(stones)
        if found is None:
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            found = memo[stones] = self._threats(stones)
        return found

    def _open_lines(self, allowed: int) -> int:
        """Count the four-cell lines whose every cell is in ``allowed``."""
        total = 0
        for step in self._steps:
            m = allowed & (allowed >> step)
            total += (m & (m >> 2 * step)).bit_count()
        return total

    def _aligned(self, stones: int) -> bool:
        """Tell whether ``stones`` hold four in a line."""
        for step in self._steps:
            m = stones & (stones >> step)
            if m & (m >> 2 * step):
                return True
        return False

    def _unplay(self, state: State, moves: list[int], dead_ends: set[State]) -> bool:
        """Take stones back from ``state`` to the empty board, recording the columns.

        Depth first, remembering the positions from which no way back exists; the first
        column tried nearly always works, so this is linear in practice."""
        current, mask = state
        if not mask:
            return True
        if state in dead_ends:
            return False
        last = current ^ mask  # the stones of the player who moved last
        for column in range(self.width - 1, -1, -1):
            column_stones = mask & self._column_masks[column]
            top = 1 << (column_stones.bit_length() - 1) if column_stones else 0
            if not last & top:
                continue
            before_mask = mask ^ top
            before_mover = last ^ top  # to move before, the opponent of today's mover
            if self._aligned(before_mover) or self._aligned(before_mover ^ before_mask):
                continue
            moves.append(column)
            if self._unplay((before_mover, before_mask), moves, dead_ends):
                return True
            moves.pop()
        dead_ends.add(state)
        return False


@dataclass(frozen=True, slots=True)
class PositionSolution:
    """A connect-four position solved, as ``zerosum solve connect4`` shows it.

    ``score`` is for the player to move in the published convention (22 minus the
    winner's stones on 7x6, negative for a loss, 0 for a draw); with ``weak`` it is only
    the sign: +1 win, 0 draw, -1 loss. ``best`` holds every best column as its digit,
    left to right; ``columns`` (when asked for) maps every legal column's digit to its
    score in the same units, best first. ``engine_score`` is the value in engine units,
    ``nodes`` and ``seconds`` the work done."""

    moves: str
    score: int
    best: tuple[str, ...]
    columns: dict[str, int] | None
    engine_score: int
    nodes: int
    seconds: float
    weak: bool


def solve_position(
    game: Connect4,
    state: State,
    *,
    all_columns: bool = False,
    weak: bool = False,
    engine: Engine | None = None,
) -> PositionSolution:
    """Solve ``state`` exactly with the engine and report it in the published convention.

    ``all_columns`` also scores every legal column; ``weak`` proves only win, draw or
    loss (faster). Pass an ``engine`` to reuse its table from one position to the next;
    without one the compiled kernel's engine is used when kernels are on
    (:meth:`Connect4.compiled_engine`), else a pure one. Raises :class:`IllegalMoveError`
    naming the position when the game is already over."""
    if game.is_terminal(state):
        raise IllegalMoveError(
            f"nothing to solve: the game is over in position {game._describe(state)}"
        )
    if engine is None:
        engine = game.compiled_engine()
    start = time.perf_counter()
    solution = solve(game, state, weak=weak, root_scores=all_columns, engine=engine)
    seconds = time.perf_counter() - start

    def published(value: int) -> int:
        return (value > 0) - (value < 0) if weak else game.published_score(state, value)

    columns = None
    if solution.root_scores is not None:
        columns = {
            game.format_move(state, move): published(value)
            for move, value in solution.root_scores.items()
        }
    return PositionSolution(
        moves=game.format_state(state),
        score=published(solution.score),
        best=tuple(game.format_move(state, move) for move in sorted(solution.best_moves)),
        columns=columns,
        engine_score=solution.score,
        nodes=solution.nodes,
        seconds=seconds,
        weak=weak,
    )
