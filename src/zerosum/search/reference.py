"""The textbook algorithms: minimax, negamax and alpha-beta, exactly as textbooks write them.

Read this module beside Russell and Norvig (AIMA, chapter 5) or Knuth and Moore (1975).
Every function here is the oracle the production engine is tested against, so clarity
wins over speed.

* :func:`minimax` and :func:`alphabeta` use the max/min pair of mutually recursive
  functions. MAX is the player to move at the root; every value is from MAX's side.
* :func:`negamax` and :func:`negamax_alphabeta` use one function and the identity
  ``max(a, b) = -min(-a, -b)``: every value is for the side to move at that node.

So all four return the root's value for the player to move at the root, and agree.

Players need not alternate: in a trick-taking game the winner of a trick leads again,
in Kalah a sowing that ends in one's own store earns another turn. So the max/min pair
chooses each child's function by whose turn it is there (``max_value`` where MAX is to
move, whoever moved last), and the negamax pair negates a child's value, and swaps its
window, only where the side to move changes.

Each takes an optional ``depth`` limit; at the cut-off it asks the game's ``evaluate``
(for the side to move there), and raises :class:`~zerosum.game.MissingCapabilityError`
if the game has none. Scores are the game's own utilities: the textbook form has no
win distances (the engine adds them).

An optional ``observer`` watches the walk (see :mod:`zerosum.search.trace`): it is told
when a node is entered with its window, when its value is known, and which moves a
cut-off skipped. It never changes the search.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from zerosum.game import INFINITY, Game, MissingCapabilityError, ZerosumError, describe_state

__all__ = [
    "Observer",
    "SearchDepthError",
    "SearchResult",
    "SearchStats",
    "alphabeta",
    "minimax",
    "negamax",
    "negamax_alphabeta",
]

S = TypeVar("S")
A = TypeVar("A")


class SearchDepthError(ZerosumError):
    """A line of play is deeper than Python's recursion limit lets these functions go."""


@dataclass(frozen=True, slots=True)
class SearchStats:
    """Counts of one search.

    ``nodes`` is every state visited, the root included; ``leaves`` the states valued
    without expanding them (finished games, and cut-offs of a depth limit); ``cutoffs``
    the nodes that stopped early because alpha >= beta, leaving moves unvisited."""

    nodes: int
    leaves: int
    cutoffs: int


@dataclass(frozen=True, slots=True)
class SearchResult(Generic[A]):
    """What a search found: the root's value for its side to move, the first best move
    (``None`` at a leaf), the principal variation (the best line for both sides), and
    the counts."""

    score: int
    best_move: A | None
    pv: tuple[A, ...]
    stats: SearchStats


class Observer(Protocol):
    """Watches a search as it walks; :class:`zerosum.search.trace.Recorder` is one."""

    def enter(self, move: Any, window: tuple[int, int] | None) -> None:
        """A node is entered by ``move`` (``None`` at the root) with window (alpha, beta)."""
        ...

    def leave(self, value: int, leaf: bool) -> None:
        """The node entered last and not yet left has ``value``; ``leaf`` if not expanded."""
        ...

    def prune(self, skipped: Sequence[Any], alpha: int, beta: int) -> None:
        """The current node stops early: ``alpha >= beta`` and ``skipped`` are not visited."""
        ...


class _Walk(Generic[S, A]):
    """The bookkeeping the four algorithms share: counters, the leaf test, the observer."""

    def __init__(self, game: Game[S, A], depth: int | None, observer: Observer | None) -> None:
        self.game = game
        self.depth = depth
        self.observer = observer
        self.evaluate = getattr(game, "evaluate", None)  # a capability, resolved once
        self.nodes = 0
        self.leaves = 0
        self.cutoffs = 0

    def enter(self, move: A | None, window: tuple[int, int] | None) -> None:
        self.nodes += 1
        if self.observer is not None:
            self.observer.enter(move, window)

    def leave(self, value: int, leaf: bool = False) -> int:
        if self.observer is not None:
            self.observer.leave(value, leaf)
        return value

    def prune(self, skipped: Sequence[A], alpha: int, beta: int) -> None:
        if skipped:  # a test that succeeds on the last move prunes nothing
            self.cutoffs += 1
            if self.observer is not None:
                self.observer.prune(skipped, alpha, beta)

    def is_leaf(self, state: S, depth: int) -> bool:
        return self.game.is_terminal(state) or depth == 0

    def leaf_value(self, state: S) -> int:
        """The value of a leaf for the side to move there."""
        self.leaves += 1
        game = self.game
        if game.is_terminal(state):
            return game.utility(state, game.to_move(state))
        if self.evaluate is None:
            raise MissingCapabilityError(
                f"depth limit {self.depth} reached at {describe_state(game, state)}, "
                f"but game {game.info.name!r} has no evaluate(); search without a depth limit"
            )
        value: int = self.evaluate(state)
        return value

    def result(self, score: int, line: tuple[A, ...]) -> SearchResult[A]:
        stats = SearchStats(self.nodes, self.leaves, self.cutoffs)
        return SearchResult(score, line[0] if line else None, line, stats)


Line = tuple[Any, ...]


def _start_depth(depth: int | None) -> int:
    if depth is not None and depth < 0:
        raise ValueError(f"depth limit must be 0 or more, not {depth}")
    return -1 if depth is None else depth  # -1 never reaches 0: no limit


def _guarded(search: Any, game: Game[Any, Any]) -> Any:
    try:
        return search()
    except RecursionError:
        raise SearchDepthError(
            f"game {game.info.name!r} has a line deeper than Python's recursion limit "
            f"({sys.getrecursionlimit()}); these recursive textbook functions cannot search it"
        ) from None


def minimax(
    game: Game[S, A], state: S, depth: int | None = None, observer: Observer | None = None
) -> SearchResult[A]:
    """Minimax as two mutually recursive functions, MAX to move at the root.

    ``max_value`` returns the best value MAX can force; ``min_value`` the least MIN can
    hold MAX to. Both return the value and the line that achieves it."""
    walk = _Walk(game, depth, observer)
    root_player = game.to_move(state)

    def value_for_max(s: S) -> int:
        value = walk.leaf_value(s)
        return value if game.to_move(s) == root_player else -value

    def child_value(child: S, move: A, depth: int) -> tuple[int, Line]:
        """The child's value from MAX's side, by whoever is to move there."""
        if game.to_move(child) == root_player:
            return max_value(child, move, depth)
        return min_value(child, move, depth)

    def max_value(s: S, move: A | None, depth: int) -> tuple[int, Line]:
        walk.enter(move, None)
        if walk.is_leaf(s, depth):
            return walk.leave(value_for_max(s), leaf=True), ()
        best, best_line = -INFINITY, ()
        for a in game.actions(s):
            value, line = child_value(game.result(s, a), a, depth - 1)
            if value > best:
                best, best_line = value, (a, *line)
        return walk.leave(best), best_line

    def min_value(s: S, move: A | None, depth: int) -> tuple[int, Line]:
        walk.enter(move, None)
        if walk.is_leaf(s, depth):
            return walk.leave(value_for_max(s), leaf=True), ()
        best, best_line = INFINITY, ()
        for a in game.actions(s):
            value, line = child_value(game.result(s, a), a, depth - 1)
            if value < best:
                best, best_line = value, (a, *line)
        return walk.leave(best), best_line

    score, line = _guarded(lambda: max_value(state, None, _start_depth(depth)), game)
    return walk.result(score, line)


def negamax(
    game: Game[S, A], state: S, depth: int | None = None, observer: Observer | None = None
) -> SearchResult[A]:
    """Minimax as one function: a node's value is the best of its children's, negated.

    Every value is for the side to move at its node, so MAX and MIN need no separate
    code: ``max(a, b) = -min(-a, -b)``. A child where the same side moves again is
    worth to us what it is worth to its mover, so only a change of side negates."""
    walk = _Walk(game, depth, observer)

    def value(s: S, move: A | None, depth: int) -> tuple[int, Line]:
        walk.enter(move, None)
        if walk.is_leaf(s, depth):
            return walk.leave(walk.leaf_value(s), leaf=True), ()
        mover = game.to_move(s)
        best, best_line = -INFINITY, ()
        for a in game.actions(s):
            child = game.result(s, a)
            child_value, line = value(child, a, depth - 1)
            if game.to_move(child) != mover:
                child_value = -child_value
            if child_value > best:
                best, best_line = child_value, (a, *line)
        return walk.leave(best), best_line

    score, line = _guarded(lambda: value(state, None, _start_depth(depth)), game)
    return walk.result(score, line)


def alphabeta(
    game: Game[S, A], state: S, depth: int | None = None, observer: Observer | None = None
) -> SearchResult[A]:
    """Alpha-beta as the max/min pair, with the (alpha, beta) window passed down.

    ``alpha`` is the value MAX is already sure of on the path to the root, ``beta`` the
    value MIN is sure of. A MAX node whose value reaches ``beta`` stops: MIN above it
    will never let play come here. A MIN node stops when its value falls to ``alpha``.
    The root's value is exact; the rest of the tree may hold bounds."""
    walk = _Walk(game, depth, observer)
    root_player = game.to_move(state)

    def value_for_max(s: S) -> int:
        value = walk.leaf_value(s)
        return value if game.to_move(s) == root_player else -value

    def child_value(child: S, move: A, alpha: int, beta: int, depth: int) -> tuple[int, Line]:
        """The child's value from MAX's side, by whoever is to move there."""
        if game.to_move(child) == root_player:
            return max_value(child, move, alpha, beta, depth)
        return min_value(child, move, alpha, beta, depth)

    def max_value(s: S, move: A | None, alpha: int, beta: int, depth: int) -> tuple[int, Line]:
        walk.enter(move, (alpha, beta))
        if walk.is_leaf(s, depth):
            return walk.leave(value_for_max(s), leaf=True), ()
        best, best_line = -INFINITY, ()
        moves = game.actions(s)
        for i, a in enumerate(moves):
            value, line = child_value(game.result(s, a), a, alpha, beta, depth - 1)
            if value > best:
                best, best_line = value, (a, *line)
            if best >= beta:
                walk.prune(moves[i + 1 :], alpha, beta)
                break
            alpha = max(alpha, best)
        return walk.leave(best), best_line

    def min_value(s: S, move: A | None, alpha: int, beta: int, depth: int) -> tuple[int, Line]:
        walk.enter(move, (alpha, beta))
        if walk.is_leaf(s, depth):
            return walk.leave(value_for_max(s), leaf=True), ()
        best, best_line = INFINITY, ()
        moves = game.actions(s)
        for i, a in enumerate(moves):
            value, line = child_value(game.result(s, a), a, alpha, beta, depth - 1)
            if value < best:
                best, best_line = value, (a, *line)
            if best <= alpha:
                walk.prune(moves[i + 1 :], alpha, beta)
                break
            beta = min(beta, best)
        return walk.leave(best), best_line

    start = _start_depth(depth)
    score, line = _guarded(lambda: max_value(state, None, -INFINITY, INFINITY, start), game)
    return walk.result(score, line)


def negamax_alphabeta(
    game: Game[S, A], state: S, depth: int | None = None, observer: Observer | None = None
) -> SearchResult[A]:
    """Alpha-beta in negamax form: the child's window is the parent's, negated and swapped.

    What the parent calls (alpha, beta) the child sees as (-beta, -alpha), because a
    value good for one side is bad for the other by the same amount; a child where the
    same side moves again sees the window as it is."""
    walk = _Walk(game, depth, observer)

    def value(s: S, move: A | None, alpha: int, beta: int, depth: int) -> tuple[int, Line]:
        walk.enter(move, (alpha, beta))
        if walk.is_leaf(s, depth):
            return walk.leave(walk.leaf_value(s), leaf=True), ()
        mover = game.to_move(s)
        best, best_line = -INFINITY, ()
        moves = game.actions(s)
        for i, a in enumerate(moves):
            child = game.result(s, a)
            if game.to_move(child) == mover:
                child_value, line = value(child, a, alpha, beta, depth - 1)
            else:
                child_value, line = value(child, a, -beta, -alpha, depth - 1)
                child_value = -child_value
            if child_value > best:
                best, best_line = child_value, (a, *line)
            if best >= beta:
                walk.prune(moves[i + 1 :], alpha, beta)
                break
            alpha = max(alpha, best)
        return walk.leave(best), best_line

    start = _start_depth(depth)
    score, line = _guarded(lambda: value(state, None, -INFINITY, INFINITY, start), game)
    return walk.result(score, line)


ALGORITHMS = {
    "minimax": minimax,
    "negamax": negamax,
    "alphabeta": alphabeta,
    "negamax-ab": negamax_alphabeta,
}
"""The textbook algorithms by the names the CLI and the web app use."""
