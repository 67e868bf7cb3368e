"""The stone games of LeetCode: a row of numbered stones, two players, the larger score wins.

Each game is a Game on the protocol whose utility is the score margin (``win_loss`` is
false), so the generic minimax family runs on it, and each has an exact solver by
dynamic programming over the positions that repeat (:meth:`StoneGame.solve`):

* :class:`PredictTheWinner` (LeetCode 486) and :class:`StoneGame` (877): take the stone
  at either end of the row and score its value. 877 has an even number of stones with
  an odd total, so there is no tie.
* :class:`StoneGameII` (1140): with ``M`` starting at 1, take all the stones of the first
  ``X`` piles, ``1 <= X <= 2M``; then ``M = max(M, X)``.
* :class:`StoneGameIII` (1406): take the first 1, 2 or 3 stones; values may be negative.
* :class:`StoneGameVII` (1690): remove the stone at either end and score the sum of the
  stones left in the row.

A value here, as everywhere in zerosum, is for the player to move: the first player's
score minus the second's at the start. Each game's :attr:`~StoneSolution.answer` turns
it into the problem's own return value (a bool, a number of stones or a name).

Notation. A move in 486, 877 and 1690 is ``left`` or ``right``, written with the stone's
value, ``left 5``; in 1140 and 1406 it is ``take N`` (or ``N``), the number of piles
taken. A state is written as ``key=value`` words: ``left=1 right=0 score=5:0`` (stones
taken from each end, then the first and second player's scores) for the end games, and
``taken=3 score=7:3 turn=2`` for 1406, with ``m=2`` added for 1140 (``turn`` is the
player to move, 1 or 2, and may be left out when it is 1).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, ClassVar, TypeVar

from zerosum.game import (
    WIN_THRESHOLD,
    BoardView,
    GameInfo,
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    Player,
    describe_state,
    quoted,
)

__all__ = [
    "LEFT",
    "RIGHT",
    "PredictTheWinner",
    "StoneGame",
    "StoneGameBase",
    "StoneGameII",
    "StoneGameIII",
    "StoneGameVII",
    "StoneSolution",
    "parse_values",
    "predict_the_winner",
    "predict_the_winner_game",
    "solve",
    "stone_game",
    "stone_game_ii",
    "stone_game_iii",
    "stone_game_vii",
    "stones",
    "stones_ii",
    "stones_iii",
    "stones_vii",
]

T = TypeVar("T")

LEFT = 0
"""The move that takes the leftmost stone."""

RIGHT = 1
"""The move that takes the rightmost stone."""

_MAX_DIGITS = 12
_NUMBER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_TAKE = re.compile(r"(?:take\s+)?([0-9]+)", re.ASCII)
_SIDE = re.compile(r"(left|right|l|r)(?:\s+([+-]?[0-9]+))?", re.ASCII)


def parse_values(text: str | int | Sequence[int], what: str = "values") -> tuple[int, ...]:
    """Read the stones' values, separated by commas or spaces, like ``"5,3,1,4,2"``.

    A sequence of integers is taken as it is. Raises
    :class:`~zerosum.game.InvalidGameError` naming the text for an empty list or a word
    that is not an integer."""
    if isinstance(text, Sequence) and not isinstance(text, str):
        values = tuple(text)
        if not values or not all(type(v) is int for v in values):
            raise InvalidGameError(f"{what} {quoted(values)} must be a non-empty list of integers")
        return values
    written = str(text)
    words = re.split(r"[\s,]+", written.strip())
    if words == [""]:
        raise InvalidGameError(f"{what} {quoted(written)} is empty: list numbers like '5,3,1,4,2'")
    for word in words:
        if _NUMBER.fullmatch(word) is None or len(word.lstrip("+-")) > _MAX_DIGITS:
            raise InvalidGameError(
                f"cannot read {what} {quoted(written)}: {quoted(word)} is not an integer"
            )
    return tuple(int(word) for word in words)


@dataclass(frozen=True, slots=True)
class StoneSolution:
    """A stone game solved exactly.

    ``value`` is the first player's score minus the second's with best play by both;
    ``answer`` is what the LeetCode problem returns for it; ``moves`` is an optimal line
    of play to the end and ``line`` the same moves in the game's notation; ``states``
    counts the positions the dynamic programme valued."""

    value: int
    answer: bool | int | str
    moves: tuple[int, ...]
    line: tuple[str, ...]
    states: int


def _fields(text: str, keys: Sequence[str], required: Sequence[str]) -> dict[str, str]:
    """Split ``key=value`` words; raises :class:`InvalidStateError` with the reason."""
    found: dict[str, str] = {}
    for word in text.split():
        key, equals, value = word.partition("=")
        if not equals or key not in keys or key in found or not value:
            raise InvalidStateError(
                f"{quoted(word)} is not one of {', '.join(k + '=...' for k in keys)} (each once)"
            )
        found[key] = value
    missing = [key for key in required if key not in found]
    if missing:
        raise InvalidStateError(f"missing {missing[0]}=...")
    return found


def _natural(text: str, key: str) -> int:
    if not text.isascii() or not text.isdecimal() or len(text) > _MAX_DIGITS:
        raise InvalidStateError(f"{quoted(key + '=' + text)} is not a number 0 or more")
    return int(text)


def _scores(text: str) -> tuple[int, int]:
    first, colon, second = text.partition(":")
    if not colon or _NUMBER.fullmatch(first) is None or _NUMBER.fullmatch(second) is None:
        raise InvalidStateError(f"{quoted('score=' + text)} is not two integers like 5:3")
    if max(len(first), len(second)) > 2 * _MAX_DIGITS:
        raise InvalidStateError(f"{quoted('score=' + text)} is too large")
    return int(first), int(second)


def _turn(text: str | None) -> Player:
    if text is None or text == "1":
        return 0
    if text == "2":
        return 1
    raise InvalidStateError(f"{quoted('turn=' + text)} must be 1 or 2")


class StoneGameBase(ABC):
    """What the stone games share: the values, the margin as utility, the checked layer.

    Subclasses give the rules, the notation and the solver. Raises
    :class:`~zerosum.game.InvalidGameError` for an empty row or values so large that a
    score could reach the band of win scores."""

    info: GameInfo
    name: ClassVar[str]
    title: ClassVar[str]
    rules: ClassVar[str]

    def __init__(self, values: Sequence[int]) -> None:
        values = parse_values(values)
        bound = sum(map(abs, values))
        if bound >= WIN_THRESHOLD:
            raise InvalidGameError(
                f"{self.name} values {list(values)[:8]}...: scores could reach {bound}, "
                f"which must stay below {WIN_THRESHOLD}"
            )
        self.values = values
        self.prefix = tuple(accumulate(values, initial=0))
        # Every game here scores a margin of at most the sum of |values|: in 1690 the
        # margin is the sum of the stones the second player removes.
        self.info = GameInfo(
            name=self.name,
            title=self.title,
            utility_range=(-bound, bound),
            win_loss=False,
            description=self.rules,
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self.values)!r})"

    def utility(self, state: tuple[int, ...], player: Player) -> int:
        """Return ``player``'s score minus the opponent's."""
        margin = state[-2] - state[-1]
        return margin if player == 0 else -margin

    @abstractmethod
    def solve(self) -> StoneSolution:
        """Solve the game from the start by dynamic programming."""

    def _read(self, text: str, state: tuple[int, ...], read: Callable[[str], T]) -> T:
        """Run ``read`` on ``text``, adding the input and the state to its error."""
        if self.is_terminal(state):
            raise IllegalMoveError(
                f"illegal move {quoted(text)}: the game is over in {describe_state(self, state)}"
            )
        try:
            return read(" ".join(text.lower().split()))
        except InvalidMoveError as error:
            raise InvalidMoveError(
                f"cannot read move {quoted(text)} in {describe_state(self, state)}: {error}"
            ) from None
        except IllegalMoveError as error:
            raise IllegalMoveError(
                f"illegal move {quoted(text)} in {describe_state(self, state)}: {error}"
            ) from None

    @abstractmethod
    def is_terminal(self, state: Any) -> bool:
        """Tell whether no stone is left."""

    def _row(self, lo: int, hi: int, targets: dict[int, int]) -> BoardView[int]:
        """The picture of the row with ``values[lo:hi]`` left for graphical interfaces:
        one counter per stone, named by its value; ``targets`` map a stone to the move
        a click on it plays."""
        values = self.values
        return BoardView(
            len(values),
            1,
            (None,) * len(values),
            targets,
            kind="heaps",
            pieces=tuple(str(v) if lo <= i < hi else "" for i, v in enumerate(values)),
        )

    def _parse_state(self, text: str, read: Callable[[str], T]) -> T:
        try:
            return read(text)
        except InvalidStateError as error:
            raise InvalidStateError(
                f"cannot read state {quoted(text)} for game {self.name!r}: {error}"
            ) from None


# ----------------------------------------------------------------------------- either end


class _EndsGame(StoneGameBase):
    """A row from which each move takes the stone at the left or the right end.

    A state is ``(lo, hi, first's score, second's score)`` with the stones
    ``values[lo:hi]`` left; the player to move follows from the number taken. With one
    stone left its only move is :data:`LEFT`."""

    def initial_state(self) -> tuple[int, int, int, int]:
        """Return the full row, no score."""
        return (0, len(self.values), 0, 0)

    def to_move(self, state: tuple[int, int, int, int]) -> Player:
        """Return the player to move: the parity of the stones taken."""
        return (state[0] + len(self.values) - state[1]) & 1

    def actions(self, state: tuple[int, int, int, int]) -> tuple[int, ...]:
        """Return left and right, or left alone for the last stone."""
        left = state[1] - state[0]
        return (LEFT, RIGHT) if left >= 2 else (LEFT,) if left == 1 else ()

    @abstractmethod
    def _gain(self, lo: int, hi: int, side: int) -> int:
        """The points for taking ``side`` from the row ``values[lo:hi]``."""

    def result(self, state: tuple[int, int, int, int], action: int) -> tuple[int, int, int, int]:
        """Return the row after taking from ``action``'s end; unchecked."""
        lo, hi, first, second = state
        gain = self._gain(lo, hi, action)
        mover = (lo + len(self.values) - hi) & 1
        if action == LEFT:
            lo += 1
        else:
            hi -= 1
        return (lo, hi, first + gain, second) if mover == 0 else (lo, hi, first, second + gain)

    def is_terminal(self, state: Any) -> bool:
        """Tell whether the row is empty."""
        return bool(state[0] >= state[1])

    def parse_move(self, state: tuple[int, int, int, int], text: str) -> int:
        """Read ``left``, ``right`` (or ``l``, ``r``), optionally with the stone's value."""

        def read(words: str) -> int:
            match = _SIDE.fullmatch(words)
            if match is None:
                raise InvalidMoveError("write 'left' or 'right', optionally with the stone")
            side = LEFT if match[1][0] == "l" else RIGHT
            lo, hi = state[0], state[1]
            stone = self.values[lo if side == LEFT else hi - 1]
            named, end = match[2], "left" if side == LEFT else "right"
            if named is not None:
                # a value longer than any stone's is wrong unread: int() would refuse it
                # past 4,300 digits with a plain ValueError
                digits = len(named.lstrip("+-"))
                if digits > _MAX_DIGITS:
                    raise IllegalMoveError(
                        f"the {end} stone is {stone}, not a number of {digits:,} digits"
                    )
                if int(named) != stone:
                    raise IllegalMoveError(f"the {end} stone is {stone}, not {named}")
            return LEFT if hi - lo == 1 else side

        return self._read(text, state, read)

    def format_move(self, state: tuple[int, int, int, int], action: int) -> str:
        """Write ``left 5`` or ``right 2``: the end and the stone taken."""
        if action == LEFT:
            return f"left {self.values[state[0]]}"
        return f"right {self.values[state[1] - 1]}"

    def parse_state(self, text: str) -> tuple[int, int, int, int]:
        """Read ``left=L right=R score=A:B``; raises :class:`InvalidStateError`."""

        def read(text: str) -> tuple[int, int, int, int]:
            found = _fields(text, ("left", "right", "score"), ("left", "right"))
            left, right = _natural(found["left"], "left"), _natural(found["right"], "right")
            if left + right > len(self.values):
                raise InvalidStateError(f"only {len(self.values)} stones can be taken")
            first, second = _scores(found.get("score", "0:0"))
            return (left, len(self.values) - right, first, second)

        return self._parse_state(text, read)

    def format_state(self, state: tuple[int, int, int, int]) -> str:
        """Write ``left=L right=R score=A:B``."""
        lo, hi, first, second = state
        return f"left={lo} right={len(self.values) - hi} score={first}:{second}"

    def render(self, state: tuple[int, int, int, int]) -> str:
        """Draw the stones left and the scores."""
        lo, hi, first, second = state
        row = " ".join(map(str, self.values[lo:hi])) or "(none)"
        players = self.info.players
        turn = "" if lo >= hi else f"\n{players[self.to_move(state)]} to move"
        return f"stones: {row}\nscore: {players[0]} {first}, {players[1]} {second}{turn}"

    def board(self, state: tuple[int, int, int, int]) -> BoardView[int]:
        """Return the picture of ``state``: a click on an end stone takes it."""
        lo, hi = state[0], state[1]
        targets = {lo: LEFT} if hi > lo else {}
        if hi - lo >= 2:
            targets[hi - 1] = RIGHT
        return self._row(lo, hi, targets)

    def _interval_table(self) -> tuple[int, list[bytearray]]:
        """The value of the full row for the player to move and, for every row
        ``values[lo:lo + length]``, whether taking the right end is strictly better.

        One list ``best`` holds the values of all rows of the current length, indexed by
        ``lo``; rows grow one stone at a time, so ``best[lo]`` (the row without its right
        stone) and ``best[lo + 1]`` (without its left stone) are still those of the
        previous length when ``best[lo]`` is replaced."""
        n = len(self.values)
        best = [0] * (n + 1)
        rights: list[bytearray] = []
        for length in range(1, n + 1):
            choice = bytearray(n - length + 1)
            left_gain, right_gain = self._gains(length)
            for lo in range(n - length + 1):
                take_left = left_gain[lo] - best[lo + 1]
                take_right = right_gain[lo] - best[lo]
                if take_right > take_left:
                    best[lo] = take_right
                    choice[lo] = 1
                else:
                    best[lo] = take_left
            rights.append(choice)
        return best[0], rights

    @abstractmethod
    def _gains(self, length: int) -> tuple[Sequence[int], Sequence[int]]:
        """The points for the left and the right stone of every row of ``length``."""

    def solve(self) -> StoneSolution:
        """Solve by dynamic programming over the n(n+1)/2 rows ``values[lo:hi]``."""
        value, rights = self._interval_table()
        state = self.initial_state()
        moves, line = [], []
        while not self.is_terminal(state):
            lo, hi = state[0], state[1]
            move = RIGHT if rights[hi - lo - 1][lo] else LEFT
            moves.append(move)
            line.append(self.format_move(state, move))
            state = self.result(state, move)
        n = len(self.values)
        return StoneSolution(
            value, self._answer(value), tuple(moves), tuple(line), n * (n + 1) // 2
        )

    @abstractmethod
    def _answer(self, value: int) -> bool | int | str:
        """The problem's return value for the first player's margin ``value``."""


class PredictTheWinner(_EndsGame):
    """LeetCode 486, Predict the Winner: take a number from either end of the row.

    The answer is true when the first player scores at least as much as the second
    (a tie goes to the first player)."""

    name = "predict-the-winner"
    title = "Predict the Winner (LeetCode 486)"
    rules = "take the number at either end; the larger sum wins, a tie goes to player 1"

    def _gain(self, lo: int, hi: int, side: int) -> int:
        return self.values[lo] if side == LEFT else self.values[hi - 1]

    def _gains(self, length: int) -> tuple[Sequence[int], Sequence[int]]:
        return self.values, self.values[length - 1 :]

    def _answer(self, value: int) -> bool:
        return value >= 0


class StoneGame(_EndsGame):
    """LeetCode 877, Stone Game: take a pile from either end of the row.

    The row has an even number of piles and an odd total, so there is no tie; the answer
    is whether the first player (Alice) wins. Raises
    :class:`~zerosum.game.InvalidGameError` for any other row."""

    name = "stones"
    title = "Stone Game (LeetCode 877)"
    rules = "take the pile at either end; even number of piles, odd total, more stones win"

    def __init__(self, values: Sequence[int]) -> None:
        super().__init__(values)
        if len(self.values) % 2 or sum(self.values) % 2 == 0:
            raise InvalidGameError(
                f"stone game piles {quoted(list(self.values))}: the rules need an even "
                "number of piles and an odd total"
            )

    def _gain(self, lo: int, hi: int, side: int) -> int:
        return self.values[lo] if side == LEFT else self.values[hi - 1]

    def _gains(self, length: int) -> tuple[Sequence[int], Sequence[int]]:
        return self.values, self.values[length - 1 :]

    def _answer(self, value: int) -> bool:
        return value > 0


class StoneGameVII(_EndsGame):
    """LeetCode 1690, Stone Game VII: remove the stone at either end and score the sum
    of the stones left; the answer is the first player's score minus the second's."""

    name = "stones-vii"
    title = "Stone Game VII (LeetCode 1690)"
    rules = "remove an end stone and score the sum of the stones left; the margin counts"

    def _gain(self, lo: int, hi: int, side: int) -> int:
        prefix = self.prefix
        return prefix[hi] - prefix[lo + 1] if side == LEFT else prefix[hi - 1] - prefix[lo]

    def _gains(self, length: int) -> tuple[Sequence[int], Sequence[int]]:
        prefix = self.prefix
        count = len(self.values) - length + 1
        # Row lo..lo+length-1: the left move keeps lo+1..lo+length-1, the right lo..lo+length-2.
        lefts = [prefix[lo + length] - prefix[lo + 1] for lo in range(count)]
        rights = [prefix[lo + length - 1] - prefix[lo] for lo in range(count)]
        return lefts, rights

    def _answer(self, value: int) -> int:
        return value


# ----------------------------------------------------------------------------- from the front


class StoneGameII(StoneGameBase):
    """LeetCode 1140, Stone Game II: take the first ``X`` piles, ``1 <= X <= 2M``, then
    ``M = max(M, X)``; ``M`` starts at 1. The answer is the most stones the first player
    (Alice) can get.

    A state is ``(taken, M, player to move, first's score, second's score)``."""

    name = "stones-ii"
    title = "Stone Game II (LeetCode 1140)"
    rules = "take the first X piles, 1 <= X <= 2M, then M = max(M, X); more stones win"

    def initial_state(self) -> tuple[int, int, int, int, int]:
        """Return no pile taken, ``M = 1``, the first player to move."""
        return (0, 1, 0, 0, 0)

    def to_move(self, state: tuple[int, int, int, int, int]) -> Player:
        """Return the player to move."""
        return state[2]

    def actions(self, state: tuple[int, int, int, int, int]) -> range:
        """Return ``X`` from 1 to ``min(2M, piles left)``."""
        return range(1, min(2 * state[1], len(self.values) - state[0]) + 1)

    def result(
        self, state: tuple[int, int, int, int, int], action: int
    ) -> tuple[int, int, int, int, int]:
        """Return the state after taking ``action`` piles; unchecked."""
        taken, m, mover, first, second = state
        gain = self.prefix[taken + action] - self.prefix[taken]
        if mover == 0:
            first += gain
        else:
            second += gain
        return (taken + action, max(m, action), 1 - mover, first, second)

    def is_terminal(self, state: Any) -> bool:
        """Tell whether every pile is taken."""
        return bool(state[0] >= len(self.values))

    def parse_move(self, state: tuple[int, int, int, int, int], text: str) -> int:
        """Read ``take X`` or ``X``: the number of piles taken."""

        def read(words: str) -> int:
            match = _TAKE.fullmatch(words)
            if match is None or len(match[1]) > _MAX_DIGITS:
                raise InvalidMoveError("write the number of piles to take, like 'take 2'")
            count = int(match[1])
            if count not in self.actions(state):
                top = self.actions(state)[-1]
                raise IllegalMoveError(f"take 1 to {top} piles here (M = {state[1]})")
            return count

        return self._read(text, state, read)

    def format_move(self, state: tuple[int, int, int, int, int], action: int) -> str:
        """Write ``take X``."""
        return f"take {action}"

    def parse_state(self, text: str) -> tuple[int, int, int, int, int]:
        """Read ``taken=T m=M score=A:B turn=P``; raises :class:`InvalidStateError`."""

        def read(text: str) -> tuple[int, int, int, int, int]:
            found = _fields(text, ("taken", "m", "score", "turn"), ("taken", "m"))
            taken, m = _natural(found["taken"], "taken"), _natural(found["m"], "m")
            if taken > len(self.values):
                raise InvalidStateError(f"there are only {len(self.values)} piles")
            if not 1 <= m <= max(1, taken):
                raise InvalidStateError(f"m={m} cannot be reached after taking {taken} piles")
            first, second = _scores(found.get("score", "0:0"))
            return (taken, m, _turn(found.get("turn")), first, second)

        return self._parse_state(text, read)

    def format_state(self, state: tuple[int, int, int, int, int]) -> str:
        """Write ``taken=T m=M score=A:B``, with ``turn=2`` when the second is to move."""
        taken, m, mover, first, second = state
        turn = " turn=2" if mover else ""
        return f"taken={taken} m={m} score={first}:{second}{turn}"

    def board(self, state: tuple[int, int, int, int, int]) -> BoardView[int]:
        """Return the picture of ``state``: a click on a stone takes every pile up to it."""
        taken = state[0]
        return self._row(taken, len(self.values), {taken + x - 1: x for x in self.actions(state)})

    def render(self, state: tuple[int, int, int, int, int]) -> str:
        """Draw the piles left, ``M`` and the scores."""
        taken, m, mover, first, second = state
        row = " ".join(map(str, self.values[taken:])) or "(none)"
        players = self.info.players
        turn = "" if self.is_terminal(state) else f"\n{players[mover]} to move, M = {m}"
        return f"piles: {row}\nscore: {players[0]} {first}, {players[1]} {second}{turn}"

    def solve(self) -> StoneSolution:
        """Solve by dynamic programming over ``(piles taken, M)``.

        ``best[i][m]`` is the most the player to move can lead by from pile ``i`` with
        ``M = m``; ``M`` never needs to exceed the piles left, so it is capped there."""
        n, prefix = len(self.values), self.prefix
        best = [[0] * (n + 1) for _ in range(n + 1)]
        pick = [[0] * (n + 1) for _ in range(n + 1)]
        for i in range(n - 1, -1, -1):
            left = n - i
            row, picks = best[i], pick[i]
            for m in range(1, left + 1):
                top_value, top_x = prefix[i + 1] - prefix[i] - best[i + 1][min(m, left - 1)], 1
                for x in range(2, min(2 * m, left) + 1):
                    after = i + x
                    value = prefix[after] - prefix[i] - best[after][min(max(m, x), n - after)]
                    if value > top_value:
                        top_value, top_x = value, x
                row[m], picks[m] = top_value, top_x
        state = self.initial_state()
        moves, line = [], []
        while not self.is_terminal(state):
            taken, m = state[0], state[1]
            move = pick[taken][min(m, n - taken)]
            moves.append(move)
            line.append(self.format_move(state, move))
            state = self.result(state, move)
        value = best[0][1]
        states = n * (n + 1) // 2
        return StoneSolution(value, (prefix[n] + value) // 2, tuple(moves), tuple(line), states)


class StoneGameIII(StoneGameBase):
    """LeetCode 1406, Stone Game III: take the first 1, 2 or 3 stones of the row.

    Values may be negative. The answer names the winner: ``"Alice"`` (the first
    player), ``"Bob"`` or ``"Tie"``. A state is ``(taken, player to move, first's score,
    second's score)``."""

    name = "stones-iii"
    title = "Stone Game III (LeetCode 1406)"
    rules = "take the first 1, 2 or 3 stones; the larger sum wins"

    def initial_state(self) -> tuple[int, int, int, int]:
        """Return no stone taken, the first player to move."""
        return (0, 0, 0, 0)

    def to_move(self, state: tuple[int, int, int, int]) -> Player:
        """Return the player to move."""
        return state[1]

    def actions(self, state: tuple[int, int, int, int]) -> range:
        """Return 1 to 3 stones, as many as are left."""
        return range(1, min(3, len(self.values) - state[0]) + 1)

    def result(self, state: tuple[int, int, int, int], action: int) -> tuple[int, int, int, int]:
        """Return the state after taking ``action`` stones; unchecked."""
        taken, mover, first, second = state
        gain = self.prefix[taken + action] - self.prefix[taken]
        if mover == 0:
            return (taken + action, 1, first + gain, second)
        return (taken + action, 0, first, second + gain)

    def is_terminal(self, state: Any) -> bool:
        """Tell whether every stone is taken."""
        return bool(state[0] >= len(self.values))

    def parse_move(self, state: tuple[int, int, int, int], text: str) -> int:
        """Read ``take N`` or ``N`` for 1 to 3 stones."""

        def read(words: str) -> int:
            match = _TAKE.fullmatch(words)
            if match is None or len(match[1]) > _MAX_DIGITS:
                raise InvalidMoveError("write the number of stones to take, like 'take 2'")
            count = int(match[1])
            if count not in self.actions(state):
                top = self.actions(state)[-1]
                raise IllegalMoveError(f"take 1 to {top} stones here")
            return count

        return self._read(text, state, read)

    def format_move(self, state: tuple[int, int, int, int], action: int) -> str:
        """Write ``take N``."""
        return f"take {action}"

    def parse_state(self, text: str) -> tuple[int, int, int, int]:
        """Read ``taken=T score=A:B turn=P``; raises :class:`InvalidStateError`."""

        def read(text: str) -> tuple[int, int, int, int]:
            found = _fields(text, ("taken", "score", "turn"), ("taken",))
            taken = _natural(found["taken"], "taken")
            if taken > len(self.values):
                raise InvalidStateError(f"there are only {len(self.values)} stones")
            first, second = _scores(found.get("score", "0:0"))
            return (taken, _turn(found.get("turn")), first, second)

        return self._parse_state(text, read)

    def format_state(self, state: tuple[int, int, int, int]) -> str:
        """Write ``taken=T score=A:B``, with ``turn=2`` when the second is to move."""
        taken, mover, first, second = state
        return f"taken={taken} score={first}:{second}{' turn=2' if mover else ''}"

    def board(self, state: tuple[int, int, int, int]) -> BoardView[int]:
        """Return the picture of ``state``: a click on a stone takes every stone up to it."""
        taken = state[0]
        return self._row(taken, len(self.values), {taken + x - 1: x for x in self.actions(state)})

    def render(self, state: tuple[int, int, int, int]) -> str:
        """Draw the stones left and the scores."""
        taken, mover, first, second = state
        row = " ".join(map(str, self.values[taken:])) or "(none)"
        players = self.info.players
        turn = "" if self.is_terminal(state) else f"\n{players[mover]} to move"
        return f"stones: {row}\nscore: {players[0]} {first}, {players[1]} {second}{turn}"

    def solve(self) -> StoneSolution:
        """Solve by dynamic programming over the stones taken, from the end backwards."""
        n, prefix = len(self.values), self.prefix
        best = [0] * (n + 1)
        pick = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            options = [
                (prefix[i + k] - prefix[i] - best[i + k], k) for k in range(1, 4) if i + k <= n
            ]
            best[i], pick[i] = max(options, key=lambda option: option[0])
        state = self.initial_state()
        moves, line = [], []
        while not self.is_terminal(state):
            move = pick[state[0]]
            moves.append(move)
            line.append(self.format_move(state, move))
            state = self.result(state, move)
        value = best[0]
        answer = "Alice" if value > 0 else "Bob" if value < 0 else "Tie"
        return StoneSolution(value, answer, tuple(moves), tuple(line), n + 1)


# ----------------------------------------------------------------------------- entry points


def solve(game: StoneGameBase) -> StoneSolution:
    """Solve a stone game exactly: the value for the first player and an optimal line."""
    return game.solve()


def predict_the_winner(nums: Sequence[int]) -> bool:
    """LeetCode 486: can player 1 score at least as much as player 2?"""
    return bool(PredictTheWinner(nums).solve().answer)


def stone_game(piles: Sequence[int]) -> bool:
    """LeetCode 877: does Alice, moving first, win?"""
    return bool(StoneGame(piles).solve().answer)


def stone_game_ii(piles: Sequence[int]) -> int:
    """LeetCode 1140: the most stones Alice, moving first, can get."""
    return int(StoneGameII(piles).solve().answer)


def stone_game_iii(values: Sequence[int]) -> str:
    """LeetCode 1406: ``"Alice"``, ``"Bob"`` or ``"Tie"``."""
    return str(StoneGameIII(values).solve().answer)


def stone_game_vii(stones: Sequence[int]) -> int:
    """LeetCode 1690: Alice's score minus Bob's with best play."""
    return StoneGameVII(stones).solve().value


_DEFAULT = "4,1,7,3,6,2"


def predict_the_winner_game(values: str | int = _DEFAULT) -> PredictTheWinner:
    """Make Predict the Winner (LeetCode 486) on ``values`` like ``"1,5,2"``."""
    return PredictTheWinner(parse_values(values))


def stones(values: str | int = _DEFAULT) -> StoneGame:
    """Make the Stone Game (LeetCode 877) on ``values`` (even count, odd total)."""
    return StoneGame(parse_values(values))


def stones_ii(values: str | int = _DEFAULT) -> StoneGameII:
    """Make Stone Game II (LeetCode 1140) on ``values``."""
    return StoneGameII(parse_values(values))


def stones_iii(values: str | int = _DEFAULT) -> StoneGameIII:
    """Make Stone Game III (LeetCode 1406) on ``values`` (negative values allowed)."""
    return StoneGameIII(parse_values(values))


def stones_vii(values: str | int = _DEFAULT) -> StoneGameVII:
    """Make Stone Game VII (LeetCode 1690) on ``values``."""
    return StoneGameVII(parse_values(values))
