"""What chess and xiangqi share as games: the legal moves come from one function, the end
of the game from a verdict on them, and the last move list is kept for the next question.

A search asks ``is_terminal`` and then ``actions`` (or ``noisy_actions``) of the same
state, and each needs the legal moves, the costliest thing such a game computes; so
:class:`JudgedRules` keeps the moves of the last state asked about (one entry, matched by
identity) and answers the protocol's end-of-game questions from the game's verdict.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Generic, TypeVar

from zerosum.game import GameInfo, Player

__all__ = ["JudgedRules"]

S = TypeVar("S")


class JudgedRules(ABC, Generic[S]):
    """The end-of-game half of a :class:`zerosum.game.Game` whose moves are ints from a
    legal-move generator (:meth:`legal`) and whose end is a verdict for player 0
    (:meth:`judge`: +1, -1, 0, or ``None`` while play goes on). ``draws=False`` asks the
    verdict to leave out the draws a game applies by rule."""

    info: GameInfo
    draws: bool
    _last: tuple[S | None, list[int]]

    def __init__(self, info: GameInfo, draws: bool = True) -> None:
        self.info = info
        self.draws = bool(draws)
        self._last = (None, [])

    @abstractmethod
    def legal(self, state: S) -> list[int]:
        """Return every legal move of ``state``, whether or not the game is over there."""

    @abstractmethod
    def judge(self, state: S, moves: list[int]) -> int | None:
        """Return the result for player 0 of ``state``, whose legal moves are ``moves``,
        or ``None`` while the game goes on."""

    def moves(self, state: S) -> list[int]:
        """Return :meth:`legal` of ``state``, kept from the last call for the same state
        (the list itself: do not change it)."""
        last_state, moves = self._last
        if last_state is not state:
            moves = self.legal(state)
            self._last = (state, moves)  # one assignment: a reader never sees a mix
        return moves

    def actions(self, state: S) -> list[int]:
        """Return the legal moves (a new list), none once the game is over."""
        moves = self.moves(state)
        if self.judge(state, moves) is not None:
            return []
        return list(moves)

    def is_terminal(self, state: S) -> bool:
        """Tell whether the game is over by the verdict."""
        return self.judge(state, self.moves(state)) is not None

    def utility(self, state: S, player: Player) -> int:
        """Return +1 if ``player`` has won, -1 if lost, 0 for a draw."""
        value = self.judge(state, self.moves(state)) or 0
        return value if player == 0 else -value
