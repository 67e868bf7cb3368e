"""Exact solving: the game-theoretic value of a position with every best move.

Two ways, for two sizes of game:

* :func:`solve` proves the value of one position with the engine searching every line
  to its end, its transposition table kept across the searches. The default driver is
  MTD-bi (Pascal Pons' connect-four solver uses it): a binary search on the score in
  which each probe is a null-window search ``(m, m + 1)`` answering "is the value above
  ``m``?"; fail-soft answers move the bounds by more than half when they can, and the
  game's ``score_bounds`` narrows the first interval. A null-window search cuts far more
  than a full-window one, and the table carries what one probe learnt to the next. For
  ``win_loss`` games the search runs over the scores that can occur (a draw and the wins
  and losses in ``1 .. n`` plies, ``n`` from the optional game hook
  ``remaining_plies(state)``, else the whole win band), not over raw integers, leaning
  towards fast wins and losses, where probes are cheap: a few probes instead of the ~27
  that halving ``±WIN`` takes to reach the band of win scores. Each root move is then
  tested against the value with one more null-window search, which gives *every* best
  move, not just one (``best_moves=False`` stops at the first, with no principal
  variation searched). ``weak=True`` asks only for win, draw or loss: at most two
  null-window searches, ``(0, 1)`` ("a win?") then ``(-1, 0)`` ("a loss?"), after (for
  ``win_loss`` games) the first two probes of the exact solve, which settle fast wins
  and losses cheaply, and one per root move for the best moves.
* :func:`solve_all` values every state reachable from a position, memoised, with an
  explicit stack (no recursion limit): for small games, tests and tables of values.

A solve can be bounded (:class:`~zerosum.search.engine.Limits`: time, nodes, a stop
signal) and watched (a ``progress`` callable given a :class:`SolveProgress` after every
probe and every tenth of a second within a long one). A limit that strikes does not
raise: the :class:`Solution` says it is not ``finished`` and holds what was proven, the
``bounds`` the value lies in and a move known to reach the lower one. Whether solving
is within reach at all, :func:`estimate_tree` says from a few random lines of play.

Scores are engine units (:mod:`zerosum.search.engine`): for the side to move, a win in
``n`` plies is ``WIN - n``, a loss ``-(WIN - n)``, a draw 0, and games that are not
``win_loss`` score their utility in points.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from zerosum.game import (
    INFINITY,
    MAX_PLY,
    WIN,
    WIN_THRESHOLD,
    Game,
    InvalidGameError,
    ZerosumError,
    describe_state,
    is_win_score,
    plies_to_end,
)
from zerosum.search.engine import (
    Engine,
    EngineOptions,
    Limits,
    SearchStopped,
    StopReason,
    WindowResult,
)

__all__ = [
    "Solution",
    "SolveLimitError",
    "SolveProgress",
    "TreeEstimate",
    "estimate_tree",
    "solve",
    "solve_all",
]

_PROGRESS_SECONDS = 0.1
"""How often a long probe reports progress, in seconds."""


class SolveLimitError(ZerosumError):
    """The game has more states than :func:`solve_all` was allowed to visit."""


@dataclass(frozen=True, slots=True)
class Solution:
    """The solved value of a position.

    ``score`` is in engine units for the side to move; ``value`` in the game's utility
    units (for ``win_loss`` games +1, 0 or -1, else the points). ``distance`` is the
    number of plies to the end of a proven win or loss with best play (``None`` for a
    draw, a points game or a weak solve). ``best_moves`` holds every move that keeps the
    value, in the game's move order; ``root_scores`` (when asked) maps every legal move
    to its exact score, best first; ``pv`` is one best line.

    With ``weak`` only the sign is proven: ``score`` and ``root_scores`` are then bounds
    whose sign (win, draw or loss) is exact, ``best_moves`` moves of the same sign (see
    :func:`solve`).

    ``bounds`` is the interval ``(lo, hi)`` of engine scores the value is proven to lie
    in (``(score, score)`` once an exact solve has proven it). ``finished`` is ``False``
    when a limit ended the solve, ``stopped`` then saying which (``"stop"``, ``"time"``
    or ``"nodes"``). Such a solution holds what was proven before: if the value was,
    ``score`` and ``value`` are as above and ``best_moves`` (and ``root_scores``) hold
    the moves proven so far; if not, ``score`` is ``bounds[0]`` (what the side to move
    is proven to get at least), ``value`` its sign, ``distance`` ``None``, and
    ``best_moves`` and ``pv`` hold the move that reaches ``bounds[0]`` when one is known.
    """

    score: int
    value: int
    distance: int | None
    best_moves: tuple[Any, ...]
    root_scores: dict[Any, int] | None
    pv: tuple[Any, ...]
    nodes: int
    time: float
    weak: bool
    bounds: tuple[int, int]
    finished: bool = True
    stopped: StopReason | None = None

    @property
    def proven(self) -> bool:
        """Whether the value is proven (with ``weak``, its sign), finished or not."""
        lo, hi = self.bounds
        if self.weak:
            return lo > 0 or hi < 0 or lo >= 0 >= hi
        return lo == hi


@dataclass(frozen=True, slots=True)
class SolveProgress:
    """Where a solve stands, as :func:`solve` tells its ``progress`` callable.

    ``bounds`` is the interval of engine scores the value is proven to lie in so far,
    ``best_move`` a move proven to reach ``bounds[0]`` (``None`` while none is known);
    ``nodes`` and ``elapsed`` count from the start of the solve, ``probes`` the
    null-window searches finished. ``phase`` is ``"value"`` while the value is sought,
    ``"moves"`` once it is proven and the root moves are being tested."""

    bounds: tuple[int, int]
    best_move: Any
    nodes: int
    elapsed: float
    probes: int
    phase: Literal["value", "moves"]


@dataclass(frozen=True, slots=True)
class TreeEstimate:
    """How large the search for the exact value of a position is, roughly.

    ``log10_tree`` is Knuth's estimate of the number of nodes of the whole game tree
    below the position, as a power of ten; ``log10_minimal`` is half of it, the order of
    the minimal tree alpha-beta visits with perfect move ordering (Knuth and Moore:
    about ``b ** (d / 2)`` of the ``b ** d`` nodes), before transpositions save more;
    ``longest`` is the longest line sampled, in plies. Infinite when a sampled line
    reached :data:`~zerosum.game.MAX_PLY` without ending."""

    log10_tree: float
    log10_minimal: float
    longest: int


def estimate_tree(
    game: Game[Any, Any], state: Any = None, *, samples: int = 16, seed: int = 0
) -> TreeEstimate:
    """Estimate the size of the game tree below ``state`` (the start by default).

    Knuth's estimator (1975): along a random line of play the products of the numbers
    of moves ``1 + b0 + b0 b1 + b0 b1 b2 + ...`` are an unbiased estimate of the number
    of nodes; the mean over ``samples`` lines drawn from ``seed`` is returned as powers
    of ten. Cheap (a few random games), and enough to tell a game an exact solve can
    finish from one far beyond it: tic-tac-toe's start is about 10^6 nodes, gomoku's
    beyond 10^300."""
    if samples < 1:
        raise ValueError(f"an estimate needs at least one sample, not {samples}")
    if state is None:
        state = game.initial_state()
    rng = random.Random(seed)
    total = 0
    longest = 0
    for _ in range(samples):
        position, width, nodes, plies = state, 1, 1, 0
        while not game.is_terminal(position):
            if plies == MAX_PLY:
                return TreeEstimate(math.inf, math.inf, plies)
            moves = game.actions(position)
            width *= len(moves)
            nodes += width
            position = game.result(position, moves[rng.randrange(len(moves))])
            plies += 1
        total += nodes
        longest = max(longest, plies)
    log10_tree = max(0.0, math.log10(total) - math.log10(samples))
    return TreeEstimate(log10_tree, log10_tree / 2, longest)


def _score_range(game: Any, engine: Engine, state: Any) -> tuple[int, int]:
    """The interval the value of ``state`` must lie in, before any search."""
    if game.info.win_loss:
        low, high = -WIN, WIN
    else:
        first, last = game.info.utility_range
        reach = max(abs(first), abs(last))
        low, high = -reach, reach
    bounds = getattr(game, "score_bounds", None)
    if bounds is not None and engine.options.solver_hooks:
        hook_low, hook_high = bounds(state)
        low, high = max(low, hook_low), min(high, hook_high)
    return low, high


def _bisect(probe: Callable[[int], int], low: int, high: int) -> int:
    """MTD-bi: the value in ``[low, high]``, found with null-window probes.

    ``probe(m)`` is a fail-soft search with the window ``(m, m + 1)``: a result above
    ``m`` is a lower bound on the value, any other an upper bound."""
    while low < high:
        middle = low + (high - low) // 2
        if low < 0 < high:
            middle = 0  # the sign first: a draw, a win or a loss settles most of it
        found = probe(middle)
        if found > middle:
            low = max(low, found)
        else:
            high = min(high, found)
    return low


class _WinRanks:
    """The scores a ``win_loss`` game can take from a position, numbered in order.

    Rank 0 is a draw, rank ``r`` in ``1 .. plies`` a win in ``plies + 1 - r`` plies (the
    higher, the faster) and ``-r`` the matching loss: bisecting on ranks never probes a
    score that cannot occur."""

    __slots__ = ("base", "plies")

    def __init__(self, plies: int) -> None:
        self.plies = plies
        self.base = WIN - plies - 1  # rank r > 0 scores base + r

    def value(self, rank: int) -> int:
        """The score of ``rank``."""
        if rank > 0:
            return self.base + rank
        return rank and -(self.base - rank)

    def at_most(self, score: int) -> int:
        """The highest rank whose score is at most ``score``."""
        if score > 0:
            return min(self.plies, max(0, score - self.base))
        return score and -self.at_least(-score)

    def at_least(self, score: int) -> int:
        """The lowest rank whose score is at least ``score``."""
        if score > 0:
            return max(1, score - self.base)
        return score and -self.at_most(-score)


def _bisect_ranks(
    probe: Callable[[int], int],
    ranks: _WinRanks,
    low: int,
    high: int,
    *,
    sign_after: int | None = None,
) -> int:
    """MTD-bi over the ranks ``[low, high]`` of ``ranks``: the value, as a score.

    The middle leans towards the end of the interval on its side of the draw, 9/16 of
    the way out from the draw where Pons' solver halves: a probe near a fast win or loss
    is cheap (mate-distance pruning bounds its depth) and one near the draw searches the
    whole game. On Pons' sets against halving (``bench/connect4.py``, score mode): 46%
    fewer nodes on Test_L1_R1 (mostly fast wins), 4% fewer on Test_L2_R1, 2-4% more on
    the draw-heavy Test_L2_R2 and Test_L3_R1. Leaning further (5/8, 3/4) saves more on
    Test_L1_R1 and costs more on the other three.

    With ``sign_after=n`` only the sign is sought: after ``n`` probes the next ones ask
    for the sign itself (a win? then a loss?), and the search stops as soon as the sign
    is proven, returning a bound of that sign (a win's lower bound, a loss's upper bound,
    or 0 for a draw)."""
    value = ranks.value
    probes = 0
    while low < high and (sign_after is None or low <= 0 <= high):
        middle = low + (high - low) // 2
        if sign_after is not None and probes >= sign_after:
            middle = 0 if high > 0 else -1  # "above a draw?", then "above a loss?"
        elif middle <= 0 and low * 9 // 16 < middle:
            middle = low * 9 // 16
        elif middle >= 0 and high * 9 // 16 > middle:
            middle = high * 9 // 16
        probes += 1
        threshold = value(middle)
        found = probe(threshold)
        if found > threshold:
            low = max(middle + 1, ranks.at_least(found))
        else:
            high = min(middle, ranks.at_most(found))
    return value(high if high < 0 else low)


def _win_ranks(game: Any, engine: Engine, state: Any) -> tuple[_WinRanks, int, int]:
    """The ranks of a ``win_loss`` position and the interval of ranks its value lies in."""
    remaining = getattr(game, "remaining_plies", None)
    plies = MAX_PLY if remaining is None else max(1, min(MAX_PLY, remaining(state)))
    ranks = _WinRanks(plies)
    low, high = _score_range(game, engine, state)
    return ranks, ranks.at_least(low), ranks.at_most(high)


def _null_window(
    probe: Callable[[Any, int, int, int], int], position: Any, ply: int, middle: int
) -> int:
    """Probe ``position``, ``ply`` plies from the root, with the window ``(m, m + 1)``."""
    return probe(position, middle, middle + 1, ply)


def solve(
    game: Game[Any, Any],
    state: Any = None,
    *,
    weak: bool = False,
    root_scores: bool = False,
    best_moves: bool = True,
    method: Literal["mtd", "window"] = "mtd",
    engine: Engine | None = None,
    options: EngineOptions | None = None,
    limits: Limits | None = None,
    progress: Callable[[SolveProgress], None] | None = None,
) -> Solution:
    """Solve ``state`` (the start by default) exactly, with every best move.

    ``method="mtd"`` drives null-window searches (MTD-bi); ``"window"`` runs one
    full-window search instead (the two agree; MTD is faster on large games).
    ``root_scores`` also scores every legal move exactly. ``best_moves=False`` skips
    testing every root move: ``best_moves`` then holds one best move, and so does ``pv``
    (found with null windows, as cheap as the score alone allows). Pass an ``engine``
    to reuse its table across solves, else one is made with ``options``. Only games whose
    lines all end can be solved; the search is as deep as the longest line.

    With ``weak`` the value takes at most two null-window searches, ``(0, 1)`` then
    ``(-1, 0)``, after (for ``win_loss`` games) the exact solver's first two probes, and
    ``pv`` is one best move. The best moves cost one null window each: every drawing move
    of a draw, every move of a loss, and for a win the moves proven to win at least as
    fast as the bound found (not every slower win).

    ``limits`` bounds the whole solve by its time, its nodes and a stop signal (a depth
    does not apply: a solve searches to the end); when one strikes, the solution
    returned is not ``finished`` and holds what was proven (see :class:`Solution`).
    ``progress`` is called with a :class:`SolveProgress` after every probe and about
    every tenth of a second within a long one."""
    start = time.perf_counter()
    if method not in ("mtd", "window"):
        raise ValueError(f"unknown solving method {method!r}: use 'mtd' or 'window'")
    if limits is not None and limits.depth is not None:
        raise ValueError(f"a solve searches to the end: a depth limit ({limits.depth}) is void")
    if state is None:
        state = game.initial_state()
    if engine is None:
        engine = Engine(game, options)
    elif engine.game is not game:
        raise InvalidGameError(
            f"the engine given searches {engine.game.info.name!r}, not {game.info.name!r}"
        )
    win_loss = game.info.win_loss

    if game.is_terminal(state):
        value = game.utility(state, game.to_move(state))
        score = (WIN if value > 0 else -WIN if value < 0 else 0) if win_loss else value
        return Solution(
            score=score,
            value=value,
            distance=0 if win_loss and value else None,
            best_moves=(),
            root_scores={} if root_scores else None,
            pv=(),
            nodes=0,
            time=time.perf_counter() - start,
            weak=weak,
            bounds=(score, score),
        )

    watch = _Watch(game, engine, state, start=start, limits=limits, progress=progress)
    probe = watch.probe
    moves = list(game.actions(state))
    mover = game.to_move(state)

    def keeps(child: Any, value: int) -> bool:
        """Whether the move to ``child`` is worth at least ``value`` to the side to move
        here: one null window on the child, from the side of whoever moves there."""
        if game.to_move(child) == mover:
            return probe(child, value - 1, value, 1) >= value
        return probe(child, -value, -value + 1, 1) <= -value

    scores: dict[Any, int] = {}
    best: list[Any] = watch.best  # the moves proven to keep the value, in move order
    pv: tuple[Any, ...] = ()

    def weak_bound(position: Any, ply: int) -> int:
        # a bound whose sign is exact: above 0 a win, below 0 a loss, 0 a draw
        found = probe(position, 0, 1, ply)
        if found:
            return found
        found = probe(position, -1, 0, ply)
        return found if found < 0 else 0

    try:
        if weak:
            if win_loss:
                # the exact solver's first two probes settle a fast win or loss for little
                # (a probe at the sign can cost a hundred times more there: Pons'
                # Test_L1_R1)
                ranks, low_rank, high_rank = _win_ranks(game, engine, state)
                score = _bisect_ranks(
                    partial(_null_window, probe, state, 0),
                    ranks,
                    low_rank,
                    high_rank,
                    sign_after=2,
                )
            else:
                score = weak_bound(state, 0)
            watch.settle(score)
            sign = (score > 0) - (score < 0)
            if root_scores:
                for move in moves:
                    after = game.result(state, move)
                    child = weak_bound(after, 1)
                    if game.to_move(after) != mover:
                        child = -child
                    scores[move] = child
                    if (child > 0) - (child < 0) == sign:
                        best.append(move)
            elif sign < 0:
                best.extend(moves if best_moves else moves[:1])  # every move loses
            else:
                # one null window per move: is the opponent held to at most zero (a draw),
                # or for a win to the loss the bound found gives? Proving every slower win
                # too can cost far more than the exact solve (4455 in connect four: 30M
                # nodes)
                bar = score if sign > 0 else 0
                for move in moves:
                    if keeps(game.result(state, move), bar):
                        best.append(move)
                        if not best_moves:
                            break
            pv = tuple(best[:1])
        else:
            if method == "window":
                score = probe(state, -INFINITY, INFINITY, 0)
            elif win_loss:
                ranks, low_rank, high_rank = _win_ranks(game, engine, state)
                score = _bisect_ranks(
                    partial(_null_window, probe, state, 0), ranks, low_rank, high_rank
                )
            else:
                low, high = _score_range(game, engine, state)
                score = _bisect(partial(_null_window, probe, state, 0), low, high)
            watch.settle(score)
            if not best_moves and not root_scores:
                # one best move: the first whose child fails low at -score (the move is
                # then worth at least the value, so exactly it), the table's move tried
                # first. The probes mostly end in the table: far cheaper than a principal
                # variation searched with the window (score - 1, score + 1)
                for move in engine.root_moves(state, every=True):
                    if keeps(game.result(state, move), score):
                        best.append(move)
                        break
                pv = tuple(best)
            else:
                pv = watch.search(state, score - 1, score + 1, 0).pv
                for move in moves:
                    child = game.result(state, move)
                    if root_scores and game.to_move(child) == mover:
                        # the same side again: the child is worth what the move is, at
                        # most the value and at least what its range allows
                        floor = -WIN if win_loss else _score_range(game, engine, child)[0]
                        scores[move] = _bisect(partial(_null_window, probe, child, 1), floor, score)
                    elif root_scores:
                        # no move beats the value, so the child is worth at least -score,
                        # and at most what its own range allows (seen from its side)
                        ceiling = WIN if win_loss else _score_range(game, engine, child)[1]
                        scores[move] = -_bisect(
                            partial(_null_window, probe, child, 1), -score, ceiling
                        )
                    elif pv and move == pv[0]:
                        scores[move] = score  # the principal variation starts with a best move
                    else:
                        # fail-low at -score: the child is worth at most -score, the move
                        # at least the value, so exactly the value
                        scores[move] = score if keeps(child, score) else -INFINITY
                    if scores[move] == score:
                        best.append(move)
    except SearchStopped as stopped:
        return watch.unfinished(stopped.reason, scores if root_scores else None, pv, weak)
    if win_loss:
        value = (score > 0) - (score < 0)
        distance = plies_to_end(score) if is_win_score(score) and not weak else None
    else:
        value = score if not weak else (score > 0) - (score < 0)
        distance = None
    return Solution(
        score=score,
        value=value,
        distance=distance,
        best_moves=tuple(best),
        root_scores=_ranked(scores) if root_scores else None,
        pv=pv,
        nodes=watch.nodes,
        time=time.perf_counter() - start,
        weak=weak,
        bounds=watch.weak_bounds(score) if weak else (score, score),
    )


def _ranked(scores: dict[Any, int]) -> dict[Any, int]:
    """``scores`` best first."""
    return dict(sorted(scores.items(), key=lambda item: -item[1]))


class _Watch:
    """A solve's probes under its limits: the nodes, the bounds proven at the root, the
    best moves found, and the progress told.

    :attr:`probe` and :meth:`search` run one window search each; without limits or a
    progress callable they add nothing to it but a node count (the solver's speed is
    measured against Pons' C++ solver)."""

    __slots__ = (
        "best",
        "bounds",
        "deadline",
        "engine",
        "game",
        "limits",
        "node_limit",
        "nodes",
        "probe",
        "probes",
        "progress",
        "proven",
        "ranks",
        "settled",
        "start",
        "state",
        "stop",
        "told",
        "watched",
    )

    def __init__(
        self,
        game: Any,
        engine: Engine,
        state: Any,
        *,
        start: float,
        limits: Limits | None,
        progress: Callable[[SolveProgress], None] | None,
    ) -> None:
        self.game, self.engine, self.state, self.start = game, engine, state, start
        self.limits = limits
        self.progress = progress
        self.nodes = 0
        self.probes = 0
        self.best: list[Any] = []
        self.settled: int | None = None
        self.proven: Any = None
        self.told = start
        self.deadline = (
            start + limits.time if limits is not None and limits.time is not None else None
        )
        self.node_limit = limits.nodes if limits is not None else None
        self.stop = limits.stop if limits is not None else None
        self.watched = limits is not None or progress is not None
        self.ranks: _WinRanks | None = None
        self.bounds = (-INFINITY, INFINITY)  # tracked only when watched
        self.probe: Callable[[Any, int, int, int], int] = self._plain_probe
        if self.watched:
            self.bounds = self.initial_bounds()
            self.probe = self._watched_probe
            if game.info.win_loss:
                self.ranks = _win_ranks(game, engine, state)[0]

    def initial_bounds(self) -> tuple[int, int]:
        """The interval the value lies in before any search, in scores that can occur."""
        if self.game.info.win_loss:
            ranks, low_rank, high_rank = _win_ranks(self.game, self.engine, self.state)
            return ranks.value(low_rank), ranks.value(high_rank)
        return _score_range(self.game, self.engine, self.state)

    def weak_bounds(self, score: int) -> tuple[int, int]:
        """The bounds a finished weak solve proved: its ``score`` bounds a win from below,
        a loss from above, and 0 is a draw."""
        if score == 0:
            return 0, 0
        lo, hi = self.initial_bounds()
        return (score, hi) if score > 0 else (lo, score)

    def _plain_probe(self, position: Any, alpha: int, beta: int, ply: int) -> int:
        """The fail-soft score of ``position``, ``ply`` plies from the root, in the
        window ``(alpha, beta)``: the probe of a solve without limits or progress."""
        found = self.engine.search_window(position, alpha, beta, ply=ply)
        self.nodes += found.nodes
        return found.score

    def _watched_probe(self, position: Any, alpha: int, beta: int, ply: int) -> int:
        """:meth:`_plain_probe` under the limits, telling the progress."""
        return self.search(position, alpha, beta, ply).score

    def search(self, position: Any, alpha: int, beta: int, ply: int) -> WindowResult:
        """One window search as :attr:`probe` makes it, returning the whole
        :class:`WindowResult`."""
        if not self.watched:
            found = self.engine.search_window(position, alpha, beta, ply=ply)
            self.nodes += found.nodes
            return found
        try:
            found = self.engine.search_window(
                position,
                alpha,
                beta,
                ply=ply,
                limits=self._left(),
                progress=self._tick if self.progress is not None else None,
            )
        except SearchStopped as stopped:
            self.nodes += stopped.nodes
            raise
        self.nodes += found.nodes
        self.probes += 1
        if ply == 0:
            self._narrow(found.score, alpha, beta)
        self._tell(0)
        return found

    def settle(self, score: int) -> None:
        """Record that the value (or, weak, its sign) is proven: ``score``."""
        self.settled = score

    def unfinished(
        self,
        reason: StopReason,
        scores: dict[Any, int] | None,
        pv: tuple[Any, ...],
        weak: bool,
    ) -> Solution:
        """The solution after a limit struck: what was proven until then."""
        lo, hi = self.bounds
        score = self.settled
        if score is None:
            score, distance = lo, None
            best = pv = (self.proven,) if self.proven is not None else ()
        else:
            # the value is proven: only some best moves (or root scores) are missing
            distance = plies_to_end(score) if is_win_score(score) and not weak else None
            # the principal variation starts with a best move, tested or not
            known = {*self.best, *pv[:1]}
            best = tuple(move for move in self.game.actions(self.state) if move in known)
            lo, hi = self.weak_bounds(score) if weak else (score, score)
        win_loss = self.game.info.win_loss
        value = (score > 0) - (score < 0) if win_loss or weak else score
        return Solution(
            score=score,
            value=value,
            distance=distance,
            best_moves=best,
            root_scores=_ranked(scores) if scores is not None else None,
            pv=pv,
            nodes=self.nodes,
            time=time.perf_counter() - self.start,
            weak=weak,
            bounds=(lo, hi),
            finished=False,
            stopped=reason,
        )

    def _left(self) -> Limits | None:
        """The limits left for the next probe; raises :class:`SearchStopped` when one is
        already spent (a probe too short to poll would never see it)."""
        stop = self.stop
        if stop is not None and stop.is_set():
            raise SearchStopped("stop", 0)
        seconds = None
        if self.deadline is not None:
            seconds = self.deadline - time.perf_counter()
            if seconds <= 0:
                raise SearchStopped("time", 0)
        nodes = None
        if self.node_limit is not None:
            nodes = self.node_limit - self.nodes
            if nodes <= 0:
                raise SearchStopped("nodes", 0)
        if self.limits is None:
            return None
        return Limits(nodes=nodes, time=seconds, stop=stop)

    def _narrow(self, found: int, alpha: int, beta: int) -> None:
        """Narrow the proven bounds by a fail-soft result at the root."""
        lo, hi = self.bounds
        if found > alpha and found > lo:
            lo = found
            if self.watched:  # only a limited solve can end without its best moves
                move = self.engine.proven_move(self.state, found)
                if move is not None:
                    self.proven = move
        if found < beta:
            hi = min(hi, found)
        ranks = self.ranks
        if ranks is not None:  # only scores that can occur: a win or loss distance or a draw
            lo, hi = ranks.value(ranks.at_least(lo)), ranks.value(ranks.at_most(hi))
        self.bounds = (lo, hi)

    def _tick(self, nodes: int) -> None:
        """Within a probe: tell the progress every :data:`_PROGRESS_SECONDS`."""
        if time.perf_counter() - self.told >= _PROGRESS_SECONDS:
            self._tell(nodes)

    def _tell(self, pending: int) -> None:
        """Tell the progress callable, ``pending`` nodes of a probe under way counted."""
        if self.progress is None:
            return
        now = self.told = time.perf_counter()
        best = self.best[0] if self.settled is not None and self.best else self.proven
        self.progress(
            SolveProgress(
                bounds=self.bounds,
                best_move=best,
                nodes=self.nodes + pending,
                elapsed=now - self.start,
                probes=self.probes,
                phase="value" if self.settled is None else "moves",
            )
        )


def solve_all(
    game: Game[Any, Any],
    state: Any = None,
    *,
    distance: bool = False,
    max_states: int = 5_000_000,
) -> dict[Hashable, int]:
    """Value every state reachable from ``state`` (the start by default), by key.

    The values are for the side to move in each state. By default they are in the
    game's utility units (for ``win_loss`` games +1 win, 0 draw, -1 loss). With
    ``distance`` they are engine scores instead: a win in ``n`` plies from that state is
    ``WIN - n`` and a loss ``-(WIN - n)`` (points games are unchanged), so the fastest
    win shows. Keys are the game's ``key`` (the state itself without one).

    The walk is iterative, so deep games need no recursion. Raises
    :class:`SolveLimitError` past ``max_states`` states and
    :class:`~zerosum.game.InvalidGameError` if a line of play comes back to a state it
    passed (a cycle has no game-theoretic value in this sense)."""
    if state is None:
        state = game.initial_state()
    keyf: Callable[[Any], Hashable] = getattr(game, "key", None) or (lambda s: s)
    is_terminal = game.is_terminal
    utility = game.utility
    to_move = game.to_move
    result = game.result
    actions = game.actions
    scaled = distance and game.info.win_loss

    def end_value(position: Any) -> int:
        value: int = utility(position, to_move(position))
        if scaled:
            return WIN if value > 0 else -WIN if value < 0 else 0
        return value

    def backed_up(child: int, again: bool) -> int:
        """A child's value seen from its parent: negated where the side changes, and a
        win or loss one ply further away."""
        if scaled:
            if child >= WIN_THRESHOLD:
                return child - 1 if again else 1 - child
            if child <= -WIN_THRESHOLD:
                return child + 1 if again else -child - 1
        return child if again else -child

    values: dict[Hashable, int] = {}
    root_key = keyf(state)
    if is_terminal(state):
        values[root_key] = end_value(state)
        return values
    on_path = {root_key}
    # a frame: state, key, its moves still to try, best so far, the child awaited and
    # whether the same side moves there again
    stack: list[list[Any]] = [[state, root_key, iter(actions(state)), -INFINITY, None, False]]
    while stack:
        frame = stack[-1]
        position, key, moves, best, awaited, awaited_again = frame
        if awaited is not None:
            best = max(best, backed_up(values[awaited], awaited_again))
        mover = to_move(position)
        pushed = False
        for move in moves:
            child = result(position, move)
            child_key = keyf(child)
            child_value = values.get(child_key)
            again = to_move(child) == mover
            if child_value is None:
                if child_key in on_path:
                    raise InvalidGameError(
                        f"game {game.info.name!r} returns to {describe_state(game, child)} "
                        f"along a line of play; solve_all needs every line to end"
                    )
                if not is_terminal(child):
                    frame[3], frame[4], frame[5] = best, child_key, again
                    on_path.add(child_key)
                    stack.append([child, child_key, iter(actions(child)), -INFINITY, None, False])
                    pushed = True
                    break
                child_value = values[child_key] = end_value(child)
            best = max(best, backed_up(child_value, again))
        if pushed:
            if len(values) + len(stack) > max_states:
                raise SolveLimitError(
                    f"game {game.info.name!r} has more than {max_states} states reachable "
                    f"from {describe_state(game, state)}; solve it with solve() instead"
                )
            continue
        values[key] = best
        on_path.discard(key)
        stack.pop()
    return values
