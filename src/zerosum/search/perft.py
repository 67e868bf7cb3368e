"""Perft: the number of move paths of a given length, the standard check of move
generation against published counts.

:func:`perft` walks the game tree through the protocol's ``actions`` and ``result``, and
so counts the lines the rules allow, ending where the game ends. A game may offer the
hook ``perft(state, depth)`` with its own count, by the convention its published counts
follow (chess's ignore the draw rules, which end no line in perft) and usually faster
(counting the last ply's moves without making them); :func:`perft` then calls it,
resolved once per call, never per node. :func:`divide` splits the count by the first
move, which is how a wrong count is narrowed down to the move that differs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["divide", "perft"]


def _counter(game: Any) -> Callable[[Any, int], int]:
    """The game's own ``perft`` hook, else the walk through the protocol."""
    hook: Callable[[Any, int], int] | None = getattr(game, "perft", None)
    if hook is not None:
        return hook
    actions, result, is_terminal = game.actions, game.result, game.is_terminal

    def walk(state: Any, depth: int) -> int:
        if depth == 0:
            return 1
        if is_terminal(state):
            return 0
        moves = actions(state)
        if depth == 1:
            return len(moves)  # the last ply is counted, not made
        return sum(walk(result(state, move), depth - 1) for move in moves)

    return walk


def _check_depth(depth: int) -> None:
    if depth < 0:
        raise ValueError(f"a perft depth is 0 or more plies, not {depth}")


def perft(game: Any, state: Any, depth: int) -> int:
    """Count the move paths of ``depth`` plies from ``state`` (1 for depth 0)."""
    _check_depth(depth)
    return _counter(game)(state, depth)


def divide(game: Any, state: Any, depth: int) -> list[tuple[Any, int]]:
    """Split :func:`perft` by the first move: each legal move of ``state`` (its
    ``actions``) with the count of the paths of ``depth`` plies that begin with it, in
    the game's move order.

    ``depth`` is 1 or more (a path of no plies has no first move). At a position the
    game has ended by a rule that perft's counts ignore (chess's fifty-move rule),
    there is no move to split by, though :func:`perft` counts on."""
    if depth < 1:
        raise ValueError(f"a perft divide needs a depth of 1 or more plies, not {depth}")
    count = _counter(game)
    return [(move, count(game.result(state, move), depth - 1)) for move in game.actions(state)]
