"""Connect four's solver compiled with numba: the pure solver's search on machine words.

:mod:`zerosum.kernels` imports this module when a kernel is first used (never
:mod:`zerosum.games.connect4` itself, which stays free of numba). It holds the engine's
search to the end of every line (:func:`zerosum.search.solve.solve`'s probes) for boards
that fit in 63 bits (7x6 takes 49), step for step as the pure path takes it: the engine's
null-window node with connect four's hooks
(:meth:`~zerosum.games.connect4.Connect4.non_losing_actions_and_bounds`): a win on the spot
at the root, mate-distance pruning (no win sooner than three plies), the table probed
before the moves are made, the moves that leave the opponent no win at once sorted by
Pons' order (more winning cells made, then the centre), the table's move first, the
score bounds, and a fail-soft result stored with its bound. Windows wider than one are
searched the same way, raising alpha as moves improve on it.

The search keeps its own stack (numba cannot load a self-recursive function from its
cache) and stops after a given number of nodes with the stack kept, so that a caller can
poll its limits, report progress and resume: :class:`KernelEngine` runs it under the
limits of :func:`~zerosum.search.solve.solve`. Its table is its own array, two words a
slot (the full key; the score, bound, best move and generation), always replaced, found
by multiplicative hashing: node counts differ a little from the pure path's (whose table
has another size and grows as it fills), while the scores and best moves do not.

* :class:`Connect4Kernel` -- the search on one board's arrays: :meth:`~Connect4Kernel.window`
  (one fail-soft window search) and :meth:`~Connect4Kernel.value` (the exact score alone,
  the whole MTD-bi bisection of :func:`~zerosum.search.solve.solve` inside the kernel, as
  Pascal Pons' solver computes it);
* :class:`KernelEngine` -- an :class:`~zerosum.search.engine.Engine` whose searches to the
  end run in the kernel (depth-limited ones stay with the pure engine): pass it to
  :func:`~zerosum.search.solve.solve`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from zerosum.game import INFINITY, MAX_PLY, WIN, WIN_THRESHOLD, IllegalMoveError, describe_state
from zerosum.kernels import CompiledEngine, jit
from zerosum.search.engine import (
    EngineOptions,
    EngineResult,
    EngineStats,
    Limits,
    SearchStopped,
    WindowResult,
)
from zerosum.search.solve import solve
from zerosum.search.table import DEPTH_END, EXACT, LOWER, UPPER

if TYPE_CHECKING:
    from zerosum.games.connect4 import Connect4, State

__all__ = ["CHUNK_NODES", "MAX_BITS", "Connect4Kernel", "KernelEngine", "fits"]

MAX_BITS = 63
"""The most bits a board may take, ``width * (height + 1)``: the kernel's words are
signed 64-bit integers."""

CHUNK_NODES = 1 << 15
"""The nodes a limited or watched search runs between two looks at its limits."""

_Array = npt.NDArray[np.int64]

# the board's constants, in one array: scalars, then the columns in Pons' order, then
# the mask of each column
_WIDTH, _H1, _FULL, _BOTTOM, _SHIFT, _GENERATION = 0, 1, 2, 3, 4, 5
_ORDER = 8
_COLUMN = _ORDER + 16
_GEOMETRY = _COLUMN + 16

# a stack frame's fields
_CUR, _MASK, _ALPHA, _BETA, _ALPHA0, _BEST, _BEST_MOVE, _COUNT, _NEXT, _KEY = range(10)
_FIELDS = 10

# the registers that carry a search from one call to the next
_SP, _MODE, _RET, _NODES, _PLY, _EMPTY = range(6)
_ENTER, _RETURN = 0, 1

_MIX = 0x9E3779B97F4A7C15 - (1 << 64)
"""The table's hashing multiplier (as the pure table's), as a signed 64-bit word."""

_NO_LIMIT = 1 << 62
"""A node budget no search reaches."""

SOLVE_SHARE = 0.5
"""The part of a timed move's budget :meth:`KernelEngine.search` spends trying to solve
the position before it searches with the evaluation: a proof found plays perfectly, and
by the middle game most positions are proven in a few milliseconds."""

_LEAST_TRIAL = 0.001
"""Seconds: the shortest time limit either part of a timed move is given."""

_GENERATIONS = 1 << 20
"""An entry holds the generation it was stored in: emptying the table moves to the next
generation, and only after this many writes the whole table (tens of megabytes, every
cache flushed with it)."""


def fits(width: int, height: int) -> bool:
    """Tell whether a ``width`` x ``height`` board fits the kernel's 63-bit words."""
    return width * (height + 1) <= MAX_BITS


@jit
def _line_threats(s: int, d: int) -> int:
    """The cells completing a four of ``s`` along the direction of shift ``d``."""
    left = s << d
    pair = s & left
    return ((pair << d) & ((s << 3 * d) | (s >> d))) | ((pair >> 2 * d) & (left | (s >> 3 * d)))


@jit
def _threats(s: int, h1: int) -> int:
    """Every cell completing a four of ``s`` (unmasked), as the pure threat finder."""
    pair = s & (s << 1)
    found = (pair << 1) & (s << 3)
    return found | _line_threats(s, h1) | _line_threats(s, h1 - 1) | _line_threats(s, h1 + 1)


@jit
def _aligned(s: int, h1: int) -> bool:
    """Whether ``s`` holds four in a line."""
    for d in (1, h1, h1 - 1, h1 + 1):
        m = s & (s >> d)
        if m & (m >> 2 * d):
            return True
    return False


@jit
def _popcount(x: int) -> int:
    """The set bits of a non-negative word."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@jit
def _run(  # noqa: PLR0917 - numba takes its arguments by position
    geometry: _Array,
    table: _Array,
    stack: _Array,
    lists: _Array,
    registers: _Array,
    budget: int,
) -> bool:
    """Run the search set up in ``stack[0]`` and ``registers`` for up to ``budget`` more
    nodes; ``True`` once it is over (its score in ``registers[_RET]``), ``False`` when the
    budget ran out first (the stack kept, so that a second call carries on)."""
    width = geometry[_WIDTH]
    h1 = geometry[_H1]
    full = geometry[_FULL]
    bottom = geometry[_BOTTOM]
    shift = geometry[_SHIFT]
    generation = geometry[_GENERATION]
    tag = generation << 40
    slot_mask = (table.size >> 1) - 1
    sp = registers[_SP]
    mode = registers[_MODE]
    ret = registers[_RET]
    nodes = registers[_NODES]
    root_ply = registers[_PLY]
    root_empty = registers[_EMPTY]
    limit = nodes + budget
    wt = WIN_THRESHOLD
    done = False
    while True:
        if mode == _ENTER:
            if nodes >= limit:
                break
            nodes += 1
            cur = stack[sp, _CUR]
            mask = stack[sp, _MASK]
            alpha = stack[sp, _ALPHA]
            beta = stack[sp, _BETA]
            ply = root_ply + sp
            empty = root_empty - sp
            opponent = cur ^ mask
            mode = _RETURN
            if sp == 0 and _aligned(opponent, h1):  # only a probe's root can be won
                ret = ply - WIN
                continue
            if empty == 0:
                ret = 0
                continue
            possible = (mask + bottom) & full
            # below the root every move leaves the opponent no win at once
            if sp == 0 and _threats(cur, h1) & possible:
                ret = WIN - ply - 1
                continue
            high = WIN - ply - 3
            if alpha >= high:
                ret = high
                continue
            key = cur + mask
            slot = (((key * _MIX) >> shift) & slot_mask) << 1
            table_move = -1
            data = table[slot + 1]
            if table[slot] == key + 1 and data >> 40 == generation:
                table_move = (data >> 36) & 15
                stored = (data << 32) >> 32
                if stored >= wt:
                    stored -= ply
                elif stored <= -wt:
                    stored += ply
                flag = (data >> 32) & 15
                if (
                    flag == EXACT
                    or (flag == LOWER and stored >= beta)
                    or (flag == UPPER and stored <= alpha)
                ):
                    ret = stored
                    continue
            free = full ^ mask
            theirs = _threats(opponent, h1) & free
            forced = possible & theirs
            if forced:
                possible = 0 if forced & (forced - 1) else forced
            possible &= ~(theirs >> 1)  # never under the opponent's winning cell
            if possible == 0:
                ret = ply + 2 - WIN
                continue
            low = 4 - WIN + ply if empty >= 4 else 0
            if low >= beta:
                ret = low
                continue
            high = WIN - 3 - ply if empty >= 3 else 0
            if high <= alpha:
                ret = high
                continue
            # Pons' order: (winning cells made << 4) | rank, the rank higher nearer the
            # centre, sorted by insertion (seven keys at most on 7x6)
            count = 0
            for index in range(width):
                column = geometry[_ORDER + index]
                move = possible & geometry[_COLUMN + column]
                if move:
                    sort_key = (_popcount(_threats(cur | move, h1) & free) << 4) | (width - index)
                    at = count
                    while at > 0 and lists[sp, at - 1] < sort_key:
                        lists[sp, at] = lists[sp, at - 1]
                        at -= 1
                    lists[sp, at] = sort_key
                    count += 1
            first = 0
            for at in range(count):
                column = geometry[_ORDER + width - (lists[sp, at] & 15)]
                lists[sp, at] = column
                if column == table_move:
                    first = at
            if first:
                for at in range(first, 0, -1):
                    lists[sp, at] = lists[sp, at - 1]
                lists[sp, 0] = table_move
            stack[sp, _ALPHA0] = alpha
            stack[sp, _BEST] = -INFINITY
            stack[sp, _BEST_MOVE] = -1
            stack[sp, _COUNT] = count
            stack[sp, _NEXT] = 0
            stack[sp, _KEY] = key
        else:
            if sp == 0:
                done = True
                break
            sp -= 1
            score = -ret
            alpha = stack[sp, _ALPHA]
            beta = stack[sp, _BETA]
            if score > stack[sp, _BEST]:
                stack[sp, _BEST] = score
                stack[sp, _BEST_MOVE] = lists[sp, stack[sp, _NEXT] - 1]
                if score > alpha:
                    alpha = score
                    stack[sp, _ALPHA] = score
            if alpha >= beta or stack[sp, _NEXT] == stack[sp, _COUNT]:
                best = stack[sp, _BEST]
                ply = root_ply + sp
                key = stack[sp, _KEY]
                slot = (((key * _MIX) >> shift) & slot_mask) << 1
                # one slot is two words, in one cache line: the key plus one (0 marks an
                # empty slot, and the empty board's key is 0), then the score relative
                # to this node (32 bits), the bound, the best move and the generation
                stored = best
                if best >= wt:
                    stored = best + ply
                elif best <= -wt:
                    stored = best - ply
                flag = EXACT
                if best <= stack[sp, _ALPHA0]:
                    flag = UPPER
                elif best >= beta:
                    flag = LOWER
                table[slot] = key + 1
                table[slot + 1] = (
                    (stored & 0xFFFFFFFF) | (flag << 32) | (stack[sp, _BEST_MOVE] << 36) | tag
                )
                ret = best
                continue
        # on to the next child of the frame at sp
        column = lists[sp, stack[sp, _NEXT]]
        stack[sp, _NEXT] += 1
        cur = stack[sp, _CUR]
        mask = stack[sp, _MASK]
        stack[sp + 1, _CUR] = cur ^ mask
        stack[sp + 1, _MASK] = mask | (mask + (np.int64(1) << (column * h1)))
        stack[sp + 1, _ALPHA] = -stack[sp, _BETA]
        stack[sp + 1, _BETA] = -stack[sp, _ALPHA]
        sp += 1
        mode = _ENTER
    registers[_SP] = sp
    registers[_MODE] = mode
    registers[_RET] = ret
    registers[_NODES] = nodes
    return done


@jit
def _start(  # noqa: PLR0917 - numba takes its arguments by position
    geometry: _Array,
    stack: _Array,
    registers: _Array,
    current: int,
    mask: int,
    alpha: int,
    beta: int,
    ply: int,
) -> None:
    """Set up a search of ``(current, mask)`` with the window ``(alpha, beta)``, ``ply``
    plies from the caller's root; the node count runs on."""
    stack[0, _CUR] = current
    stack[0, _MASK] = mask
    stack[0, _ALPHA] = alpha
    stack[0, _BETA] = beta
    registers[_SP] = 0
    registers[_MODE] = _ENTER
    registers[_PLY] = ply
    registers[_EMPTY] = _popcount(geometry[_FULL]) - _popcount(mask)


@jit
def _rank_value(base: int, rank: int) -> int:
    """The score of a rank (see ``zerosum.search.solve``): 0 a draw, ``r > 0`` the win
    ``base + r``, ``-r`` the matching loss."""
    if rank > 0:
        return base + rank
    if rank < 0:
        return -(base - rank)
    return 0


@jit
def _at_most(base: int, plies: int, score: int) -> int:
    """The highest rank whose score is at most ``score``."""
    if score > 0:
        return min(plies, max(0, score - base))
    if score < 0:
        return -max(1, -score - base)
    return 0


@jit
def _at_least(base: int, plies: int, score: int) -> int:
    """The lowest rank whose score is at least ``score``."""
    if score > 0:
        return max(1, score - base)
    if score < 0:
        return -min(plies, max(0, -score - base))
    return 0


@jit
def _value(  # noqa: PLR0917 - numba takes its arguments by position
    geometry: _Array,
    table: _Array,
    stack: _Array,
    lists: _Array,
    registers: _Array,
    current: int,
    mask: int,
) -> int:
    """The exact score of a position where the game goes on, by MTD-bi over the scores
    that can occur, leaning 9/16 of the way out from the draw: the bisection of
    ``zerosum.search.solve`` with the game's score bounds, every probe in the kernel."""
    h1 = geometry[_H1]
    full = geometry[_FULL]
    free = full ^ mask
    plies = max(1, min(MAX_PLY, _popcount(free)))
    base = WIN - plies - 1
    possible = (mask + geometry[_BOTTOM]) & full
    opponent = current ^ mask
    if _threats(current, h1) & possible:
        return WIN - 1
    theirs = _threats(opponent, h1) & free
    forced = possible & theirs
    if forced:
        possible = 0 if forced & (forced - 1) else forced
    if (possible & ~(theirs >> 1)) == 0:
        return 2 - WIN
    empty = _popcount(free)
    low = _at_least(base, plies, 4 - WIN if empty >= 4 else 0)
    high = _at_most(base, plies, WIN - 3 if empty >= 3 else 0)
    while low < high:
        middle = low + (high - low) // 2
        if middle <= 0 and low * 9 // 16 < middle:
            middle = low * 9 // 16
        elif middle >= 0 and high * 9 // 16 > middle:
            middle = high * 9 // 16
        threshold = _rank_value(base, middle)
        _start(geometry, stack, registers, current, mask, threshold, threshold + 1, 0)
        _run(geometry, table, stack, lists, registers, _NO_LIMIT)
        found = registers[_RET]
        if found > threshold:
            low = max(middle + 1, _at_least(base, plies, found))
        else:
            high = min(middle, _at_most(base, plies, found))
    return _rank_value(base, high if high < 0 else low)


class Connect4Kernel:
    """The compiled search for one connect-four board, with its table and stack.

    ``table_bits`` sizes the table (``2 ** table_bits`` entries of 16 bytes: 64 MB by
    default). The first kernel made in a process loads the compiled code from the cache
    folder, or compiles it (a few seconds) if the cache holds none for this CPU. Raises
    ``ValueError`` for a board that does not fit (:func:`fits`)."""

    __slots__ = ("_geometry", "_registers", "_stack", "_table", "game")

    game: Connect4
    """The board searched."""

    def __init__(self, game: Connect4, table_bits: int = 22) -> None:
        if not fits(game.width, game.height):
            raise ValueError(
                f"a {game.width}x{game.height} board takes {game.width * (game.height + 1)} "
                f"bits; the compiled kernel holds at most {MAX_BITS}"
            )
        if not 10 <= table_bits <= 30:
            raise ValueError(f"table_bits must be from 10 to 30, not {table_bits}")
        self.game = game
        width, height = game.width, game.height
        h1 = height + 1
        geometry = np.zeros(_GEOMETRY, dtype=np.int64)
        geometry[_WIDTH], geometry[_H1] = width, h1
        column_masks = [((1 << height) - 1) << (c * h1) for c in range(width)]
        geometry[_FULL] = sum(column_masks)
        geometry[_BOTTOM] = sum(1 << (c * h1) for c in range(width))
        geometry[_SHIFT] = 64 - table_bits
        geometry[_GENERATION] = 1
        order = [width // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(width)]
        geometry[_ORDER : _ORDER + width] = order
        geometry[_COLUMN : _COLUMN + width] = column_masks
        self._geometry = geometry
        size = 1 << table_bits
        # written once now (np.empty, then filled): a search should not pay a page fault
        # for each slot it touches first, which costs more than a node (Test_L3_R1 took
        # 44 us a position on a fresh table, 6 us on one in memory)
        self._table = np.empty(2 * size, dtype=np.int64)
        self._table.fill(0)
        depth = width * height + 2
        self._stack = (
            np.zeros((depth, _FIELDS), dtype=np.int64),
            np.zeros((depth, 16), dtype=np.int64),
        )
        self._registers = np.zeros(8, dtype=np.int64)
        # load (or, the first time, compile) the entry points now rather than inside the
        # first search, whose time and limits should count only searching: a budget of
        # no nodes, and a position won at once
        self.start(game.initial_state(), 0, 1)
        self.resume(0)
        self.value(game.parse_state("121212"))
        self._registers[_NODES] = 0

    @property
    def nodes(self) -> int:
        """The nodes searched since this kernel was made (or :meth:`clear` ed)."""
        return int(self._registers[_NODES])

    def clear(self) -> None:
        """Empty the table and the node count."""
        geometry = self._geometry
        if geometry[_GENERATION] == _GENERATIONS:
            self._table.fill(0)
            geometry[_GENERATION] = 0
        geometry[_GENERATION] += 1
        self._registers[_NODES] = 0

    def start(self, state: State, alpha: int, beta: int, ply: int = 0) -> None:
        """Set up a fail-soft search of ``state`` with the window ``(alpha, beta)``,
        ``ply`` plies from the caller's root (win scores in the caller's units), to be run
        by :meth:`resume`."""
        current, mask = state
        _start(self._geometry, self._stack[0], self._registers, current, mask, alpha, beta, ply)

    def resume(self, budget: int = _NO_LIMIT) -> int | None:
        """Run the search set up by :meth:`start` for up to ``budget`` more nodes: its
        score once it is over, ``None`` if the budget ran out first (call again)."""
        stack, lists = self._stack
        if _run(self._geometry, self._table, stack, lists, self._registers, budget):
            return int(self._registers[_RET])
        return None

    def window(self, state: State, alpha: int, beta: int, ply: int = 0) -> int:
        """Search ``state`` with the window ``(alpha, beta)`` to the end, fail-soft: the
        exact score inside the window, a bound on the same side outside it."""
        self.start(state, alpha, beta, ply)
        score = self.resume()
        assert score is not None  # no budget: the search always ends
        return score

    def value(self, state: State) -> int:
        """Return the exact engine score of ``state``, found with every probe and the
        bisection inside the kernel. Raises :class:`~zerosum.game.IllegalMoveError`
        naming the position when the game is already over there."""
        if self.game.is_terminal(state):
            raise IllegalMoveError(
                f"nothing to solve: the game is over in {describe_state(self.game, state)}"
            )
        stack, lists = self._stack
        current, mask = state
        return int(
            _value(self._geometry, self._table, stack, lists, self._registers, current, mask)
        )

    def entry(self, state: State) -> tuple[int, int, int] | None:
        """The table's ``(flag, score, move)`` for ``state`` as a root, or ``None``."""
        current, mask = state
        key = current + mask
        shift = int(self._geometry[_SHIFT])
        table = self._table
        slot = ((((key * _MIX) % (1 << 64)) >> shift) & ((table.size >> 1) - 1)) << 1
        data = int(table[slot + 1])
        if int(table[slot]) != key + 1 or data >> 40 != self._geometry[_GENERATION]:
            return None
        value = (data & 0xFFFFFFFF) - ((data & 0x80000000) << 1)
        return (data >> 32) & 15, value, (data >> 36) & 15


class KernelEngine(CompiledEngine[Connect4Kernel]):
    """An :class:`~zerosum.search.engine.Engine` for connect four whose searches to the
    end of every line run in the compiled kernel (:class:`Connect4Kernel`).

    Pass it to :func:`~zerosum.search.solve.solve` (``engine=``): the solver's probes,
    their limits and progress, its tests of the root moves and its principal variation
    all go through :meth:`search_window`. Depth-limited searches (playing with an
    evaluation) stay with the pure engine; a timed :meth:`search` (a move in a game)
    tries to solve the position in the kernel first. ``table_bits`` sizes the kernel's
    table, made on first use: an engine that only ever searches to a depth never pays
    for it (0.15 s and 64 MB by default)."""

    __slots__ = ("_table_bits",)

    def __init__(
        self, game: Connect4, options: EngineOptions | None = None, *, table_bits: int = 22
    ) -> None:
        super().__init__(game, options)
        self._table_bits = table_bits

    def make_kernel(self) -> Connect4Kernel:
        """Return the compiled solver with a table of ``2 ** table_bits`` entries."""
        return Connect4Kernel(cast("Connect4", self.game), self._table_bits)

    def search(
        self, state: Any, limits: Limits | None = None, multipv: bool = False
    ) -> EngineResult:
        """Play a move: with a time limit, first try to solve ``state`` in the kernel for
        :data:`SOLVE_SHARE` of the time (of the soft budget on a clock), and play a best
        move at once if it is proven (the score exact, the depth the plies to the end);
        otherwise, or without a time limit, deepen with the evaluation as
        :meth:`Engine.search <zerosum.search.engine.Engine.search>` does, in the time
        left. The statistics count both parts."""
        game = self.game
        if multipv or limits is None or limits.time is None or game.is_terminal(state):
            return super().search(state, limits, multipv)
        kernel = self.kernel  # made (its code loaded) before the move's share is timed
        start = time.perf_counter()
        planned = limits.time if limits.soft_time is None else limits.soft_time
        trial = Limits(time=max(planned * SOLVE_SHARE, _LEAST_TRIAL), stop=limits.stop)
        solution = solve(game, state, engine=self, best_moves=False, limits=trial)
        if solution.proven and solution.best_moves:
            plies = kernel.game.remaining_plies(state)
            stats = EngineStats(
                nodes=solution.nodes,
                cutoffs=0,
                table_hits=0,
                table_probes=0,
                depth=plies,
                seldepth=plies,
                time=solution.time,
                hashfull=0,
                solved=True,
                stopped=False,
            )
            return EngineResult(solution.best_moves[0], solution.score, solution.pv, None, stats)
        spent = time.perf_counter() - start
        rest = Limits(
            depth=limits.depth,
            nodes=limits.nodes,
            time=max(limits.time - spent, _LEAST_TRIAL),
            stop=limits.stop,
            soft_time=None if limits.soft_time is None else max(0.0, limits.soft_time - spent),
        )
        found = super().search(state, rest)
        stats = replace(
            found.stats, nodes=found.stats.nodes + solution.nodes, time=found.stats.time + spent
        )
        return replace(found, stats=stats)

    def root_moves(self, state: Any, *, every: bool = False) -> list[Any]:
        """Return the moves the search tries at ``state``, the kernel table's move first
        (see :meth:`Engine.root_moves <zerosum.search.engine.Engine.root_moves>`)."""
        moves = super().root_moves(state, every=every)
        kernel = self._kernel  # a search that never reached the kernel has nothing to add
        entry = kernel.entry(state) if kernel is not None and len(moves) > 1 else None
        if entry is not None and entry[2] in moves:
            moves.remove(entry[2])
            moves.insert(0, entry[2])
        return moves

    def proven_move(self, state: Any, score: int) -> Any:
        """Return a move the kernel's table proves worth at least ``score`` at ``state``,
        or ``None`` (see :meth:`Engine.proven_move
        <zerosum.search.engine.Engine.proven_move>`)."""
        entry = self._kernel.entry(state) if self._kernel is not None else None
        if entry is None or self.game.is_terminal(state):
            return None
        # a win is stored counted from the entry's own node, here the root
        flag, value, move = entry
        if flag == UPPER or value < score or move not in self.game.actions(state):
            return None
        return move

    def search_window(
        self,
        state: Any,
        alpha: int,
        beta: int,
        *,
        depth: int | None = None,
        ply: int = 0,
        limits: Limits | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> WindowResult:
        """Search ``state`` once with the window ``(alpha, beta)``, fail-soft, in the kernel
        when the search goes to the end of every line (``depth`` ``None``); see
        :meth:`Engine.search_window <zerosum.search.engine.Engine.search_window>`.

        Limits are looked at, and ``progress`` told, every :data:`CHUNK_NODES` nodes.
        A window wider than one gets its principal variation from null-window tests of
        the moves along it, the table's move first."""
        if depth is not None and depth < DEPTH_END:
            return super().search_window(
                state, alpha, beta, depth=depth, ply=ply, limits=limits, progress=progress
            )
        if alpha >= beta:
            raise ValueError(f"empty window ({alpha}, {beta}): alpha must be below beta")
        if limits is not None and limits.depth is not None:
            raise ValueError(
                f"search_window takes its depth as depth=, not as a limit ({limits.depth})"
            )
        kernel = self.kernel
        first = kernel.nodes
        poll = _Poll(limits, progress, first) if limits is not None or progress else None
        score = self._search(state, alpha, beta, ply, poll)
        pv: tuple[Any, ...] = ()
        if beta - alpha > 1 and alpha < score < beta:
            pv = self._principal_variation(state, score, ply, poll)
        return WindowResult(score, pv, kernel.nodes - first)

    def _search(self, state: State, alpha: int, beta: int, ply: int, poll: _Poll | None) -> int:
        """One window search in the kernel, under ``poll``'s limits."""
        kernel = self.kernel
        kernel.start(state, alpha, beta, ply)
        if poll is None:
            score = kernel.resume()
        else:
            while (score := kernel.resume(poll.budget(kernel.nodes))) is None:
                poll.check(kernel.nodes)
        assert score is not None  # the loop ends with a score
        return score

    def _principal_variation(
        self, state: State, score: int, ply: int, poll: _Poll | None
    ) -> tuple[Any, ...]:
        """One line keeping ``score`` (exact, in the caller's units) from ``state``: at
        each step the first move whose child is proven worth no more than ``-score``."""
        game = self.game
        line: list[int] = []
        position, value = state, score
        while not game.is_terminal(position):
            for move in self.root_moves(position, every=True):
                child = game.result(position, move)
                if self._search(child, -value, -value + 1, ply + len(line) + 1, poll) <= -value:
                    line.append(move)
                    position, value = child, -value
                    break
            else:
                break  # unreachable for an exact score: some move keeps it
        return tuple(line)


class _Poll:
    """A kernel search's limits and progress, looked at between chunks of nodes."""

    __slots__ = ("deadline", "first", "node_limit", "progress", "stop")

    def __init__(
        self, limits: Limits | None, progress: Callable[[int], None] | None, first: int
    ) -> None:
        self.first = first
        self.progress = progress
        self.stop = limits.stop if limits is not None else None
        seconds = limits.time if limits is not None else None
        self.deadline = time.perf_counter() + seconds if seconds is not None else None
        self.node_limit = limits.nodes if limits is not None else None

    def budget(self, nodes: int) -> int:
        """The nodes the next chunk may search, ``nodes`` counted so far by the kernel."""
        if self.node_limit is None:
            return CHUNK_NODES
        return max(1, min(CHUNK_NODES, self.node_limit - (nodes - self.first)))

    def check(self, nodes: int) -> None:
        """Tell the progress and raise :class:`SearchStopped` if a limit struck."""
        done = nodes - self.first
        if self.progress is not None:
            self.progress(done)
        if self.stop is not None and self.stop.is_set():
            raise SearchStopped("stop", done)
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SearchStopped("time", done)
        if self.node_limit is not None and done >= self.node_limit:
            raise SearchStopped("nodes", done)
