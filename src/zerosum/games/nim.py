"""Nim in normal and misère play, subtraction games and the divisor game.

Every game here is played on heaps of stones. One heap is a :class:`Pile`: its position
is the number of stones and a move the number taken. Several heaps are a sum of piles
(:class:`Heaps`, a :class:`~zerosum.games.impartial.Sum` whose heaps all follow one
rule), so their Grundy value is the XOR of the heaps' values, found heap by heap.

* :class:`Nim`: take any positive number of stones from one heap. Under normal play the
  last mover wins and a heap of ``n`` is worth ``n``; under misère play the last mover
  loses and :meth:`Nim.is_losing` gives the known rule (play as in normal Nim unless
  every heap has at most one stone).
* :class:`Subtraction`: the number taken must belong to a fixed subtraction set.
* :class:`DivisorHeap`: one heap of ``n``; take ``x`` stones where ``x < n`` divides
  ``n`` (LeetCode 1025 "Divisor Game"; the handbook's divisor stick game).

Notation: a state lists the heaps, separated by commas, as ``10,12,5`` (with ``;2``
appended when the second player is to move). A move is ``H:K``, take ``K`` stones from
heap ``H`` (heaps numbered from 1), or in words ``take K from heap H``; on a single heap
``K`` or ``take K`` is enough.
"""

from __future__ import annotations

import re
from typing import Any

from zerosum.game import (
    BoardView,
    GameInfo,
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    Player,
    quoted,
)
from zerosum.games.impartial import Impartial, Sum

__all__ = [
    "DivisorHeap",
    "Heaps",
    "Nim",
    "NimHeap",
    "Pile",
    "Subtraction",
    "SubtractionHeap",
    "divisor",
    "nim",
    "parse_counts",
    "subtraction",
]

_MAX_DIGITS = 18
"""The longest number of stones read from text, so huge numbers fail clearly."""

_BARS = 40
"""How many stones a picture of a heap shows before it abbreviates."""

_TAKE = re.compile(r"(?:take\s+)?([0-9]+)", re.ASCII)
_TAKE_FROM = re.compile(r"take\s+([0-9]+)\s+from\s+heap\s+([0-9]+)", re.ASCII)


def _count(text: str, what: str) -> int:
    word = text.strip()
    if not word.isascii() or not word.isdecimal() or len(word) > _MAX_DIGITS:
        raise InvalidStateError(f"{what} {quoted(word)} is not a number of stones (0 or more)")
    return int(word)


def parse_counts(text: str | int, what: str, *, positive: bool = False) -> tuple[int, ...]:
    """Read a list of whole numbers separated by commas or spaces, like ``"10,12,5"``.

    ``what`` names the list in messages. Raises :class:`~zerosum.game.InvalidGameError`
    naming the text for an empty list, a negative number (or, when ``positive``, zero)
    or anything else that is not a number."""
    written = str(text)
    words = re.split(r"[\s,]+", written.strip())
    if words == [""]:
        raise InvalidGameError(f"{what} {quoted(written)} is empty: list numbers like '3,4,5'")
    numbers = []
    for word in words:
        body = word[1:] if word.startswith("-") else word
        if not body.isascii() or not body.isdecimal() or len(body) > _MAX_DIGITS:
            raise InvalidGameError(
                f"cannot read {what} {quoted(written)}: {quoted(word)} is not a number"
            )
        number = int(word)
        if number < 0 or (positive and number == 0):
            least = "1 or more" if positive else "0 or more"
            raise InvalidGameError(f"bad {what} {quoted(written)}: {number} is not {least}")
        numbers.append(number)
    return tuple(numbers)


class Pile(Impartial[int, int]):
    """One heap of stones; subclasses say how many stones a move may take.

    A position is the number of stones, a move the number taken. Raises
    :class:`~zerosum.game.InvalidGameError` for a negative heap."""

    def __init__(self, info: GameInfo, start: int = 0) -> None:
        if start < 0:
            raise InvalidGameError(f"a heap of {start} stones: heaps are 0 or more")
        super().__init__(info, start)

    def after(self, position: int, move: int) -> int:
        """Return the heap with ``move`` stones taken."""
        return position - move

    def result(self, state: tuple[int, Player], action: int) -> tuple[int, Player]:
        """Return the heap with ``action`` stones taken, the other player to move."""
        return (state[0] - action, 1 - state[1])

    def read_position(self, text: str) -> int:
        """Read the number of stones."""
        return _count(text, "heap")

    def write_position(self, position: int) -> str:
        """Write the number of stones."""
        return str(position)

    def read_move(self, position: int, text: str) -> int:
        """Read ``K`` or ``take K``: the number of stones taken."""
        match = _TAKE.fullmatch(" ".join(text.lower().split()))
        if match is None or len(match[1]) > _MAX_DIGITS:
            raise InvalidMoveError("write the number of stones to take, like '3' or 'take 3'")
        count = int(match[1])
        if count == 0:
            raise IllegalMoveError("a move takes at least one stone")
        if count > position:
            raise IllegalMoveError(f"the heap has only {position} stones")
        return count

    def write_move(self, position: int, move: int) -> str:
        """Write the number of stones taken."""
        return str(move)

    def draw(self, position: int) -> str:
        """Draw the heap as a row of bars after its size."""
        bars = "|" * min(position, _BARS)
        return f"{position:>3} {bars}{'...' if position > _BARS else ''}".rstrip()


class NimHeap(Pile):
    """A heap of Nim: a move takes any positive number of stones.

    Its Grundy value is known in closed form: a heap of ``n`` is worth ``n``."""

    def __init__(self, start: int = 0) -> None:
        super().__init__(GameInfo(name="nim-heap", title="a heap of Nim", impartial=True), start)

    def moves(self, position: int) -> range:
        """Return 1 to ``position`` stones."""
        return range(1, position + 1)

    def grundy_value(self, state: tuple[int, Player]) -> int:
        """Return the heap's Grundy value: its size."""
        return state[0]

    def grundy_moves(self, state: tuple[int, Player], target: int) -> tuple[int, ...]:
        """Return the move that leaves ``target`` stones, if there are more now."""
        size = state[0]
        return (size - target,) if 0 <= target < size else ()


class SubtractionHeap(Pile):
    """A heap of a subtraction game: a move takes a number of stones in ``allowed``.

    Raises :class:`~zerosum.game.InvalidGameError` for an empty set or a number that is
    not positive."""

    def __init__(self, allowed: tuple[int, ...], start: int = 0) -> None:
        if not allowed or min(allowed) <= 0:
            raise InvalidGameError(
                f"subtraction set {set(allowed) or '{}'} must hold positive numbers only, "
                "at least one"
            )
        self.allowed = tuple(sorted(set(allowed)))
        self._all = self.allowed
        self._largest = self.allowed[-1]
        members = ",".join(map(str, self.allowed))
        info = GameInfo(
            name="subtraction-heap", title=f"a heap taking {{{members}}}", impartial=True
        )
        super().__init__(info, start)

    def moves(self, position: int) -> tuple[int, ...]:
        """Return the allowed numbers up to ``position``, smallest first."""
        if position >= self._largest:
            return self._all
        return tuple(k for k in self._all if k <= position)


class DivisorHeap(Pile):
    """The divisor game on one heap of ``n``: take ``x`` stones where ``x < n`` and
    ``x`` divides ``n``; a heap of 1 has no move.

    It is LeetCode 1025 ("Divisor Game", Alice wins exactly when ``n`` is even) and the
    divisor stick game of Laaksonen's handbook."""

    def __init__(self, start: int = 1) -> None:
        info = GameInfo(
            name="divisor",
            title="divisor game",
            impartial=True,
            description="take a proper divisor of the heap; the player who cannot move loses",
        )
        super().__init__(info, start)

    def moves(self, position: int) -> tuple[int, ...]:
        """Return the proper divisors of ``position``, smallest first."""
        small, large = [], []
        x = 1
        while x * x <= position:
            if position % x == 0:
                small.append(x)
                if x * x != position:
                    large.append(position // x)
            x += 1
        small.extend(reversed(large))
        return tuple(k for k in small if k < position)


class Heaps(Sum):
    """Any number of heaps played by one rule: a sum whose components share ``rules``.

    A position is the tuple of heap sizes and may have any number of heaps, so a state
    read from text need not match the start's count. Sharing one rules object lets
    Grundy tables share one memo across the heaps."""

    component = "heap"
    separator = ","

    def __init__(
        self, rules: Pile, heaps: tuple[int, ...], info: GameInfo, *, misere: bool = False
    ) -> None:
        if not heaps:
            raise InvalidGameError("a game of heaps needs at least one heap")
        if min(heaps) < 0:
            raise InvalidGameError(f"heaps {heaps}: a heap holds 0 or more stones")
        super().__init__((rules,) * len(heaps), info, start=tuple(heaps), misere=misere)
        self.rules = rules

    def _parts_for(self, position: tuple[Any, ...]) -> tuple[Pile, ...]:
        return (self.rules,) * len(position)

    def _count_ok(self, count: int) -> bool:
        return count >= 1

    def read_move(self, position: tuple[Any, ...], text: str) -> tuple[int, Any]:
        """Read ``H:K`` or ``take K from heap H`` (or ``K`` on a single heap)."""
        words = " ".join(text.lower().split())
        spelled = _TAKE_FROM.fullmatch(words)
        if spelled is not None:
            words = f"{spelled[2]}:{spelled[1]}"
        elif ":" not in words and len(position) != 1:
            raise InvalidMoveError("write 'H:K' or 'take K from heap H', like '1:3'")
        return super().read_move(position, words)

    def board(self, state: tuple[tuple[int, ...], Player]) -> BoardView[tuple[int, Any]]:
        """Return the picture of ``state`` for graphical interfaces: each heap a row of
        stones, the first on the left; a click on a stone takes it and every stone to
        its right, when the rules allow taking that many. Stones are numbered from the
        left, so a heap's last number is its size; the rows are as wide as the largest
        heap at the start, so a stone keeps its cell from move to move."""
        heaps = state[0]
        width = max(1, *heaps, *self.start)
        cells: tuple[Player | None, ...] = (None,) * (width * len(heaps))
        targets = {
            row * width + heaps[row] - taken: (row, taken) for row, taken in self.actions(state)
        }
        return BoardView(
            width,
            len(heaps),
            cells,
            targets,
            kind="heaps",
            pieces=tuple(
                str(column + 1) if column < size else ""
                for size in heaps
                for column in range(width)
            ),
            ranks=tuple(f"heap {number}" for number in range(1, len(heaps) + 1)),
        )

    def draw(self, position: tuple[Any, ...]) -> str:
        """Draw each heap as a numbered row of bars."""
        rules = self.rules
        return "\n".join(
            f"heap {number}: {rules.draw(size)}" for number, size in enumerate(position, 1)
        )


class Nim(Heaps):
    """Nim on ``heaps``: take any positive number of stones from one heap.

    Under normal play (the default) the player who takes the last stone wins; with
    ``misere`` that player loses. Raises :class:`~zerosum.game.InvalidGameError` for no
    heaps or a negative heap."""

    def __init__(self, heaps: tuple[int, ...] = (3, 4, 5), *, misere: bool = False) -> None:
        info = GameInfo(
            name="nim",
            title="misère Nim" if misere else "Nim",
            impartial=True,
            description=(
                "take any number of stones from one heap; the player who takes the last "
                + ("stone loses" if misere else "stone wins")
            ),
        )
        super().__init__(NimHeap(), tuple(heaps), info, misere=misere)

    def is_losing(self, state: tuple[tuple[int, ...], Player]) -> bool:
        """Tell whether the player to move loses ``state`` with best play on both sides.

        Normal play: exactly when the XOR of the heaps is 0 (Bouton). Misère play: the
        same while some heap has two stones or more; once every heap has at most one,
        the player to move loses exactly when an odd number of heaps have one."""
        heaps = state[0]
        total = 0
        for heap in heaps:
            total ^= heap
        if self.misere and max(heaps) <= 1:
            return sum(heaps) % 2 == 1
        return total == 0


class Subtraction(Heaps):
    """A subtraction game: each move takes from one heap a number in ``allowed``.

    Raises :class:`~zerosum.game.InvalidGameError` for no heaps, a negative heap, an
    empty subtraction set or one with a number that is not positive."""

    def __init__(
        self, heaps: tuple[int, ...] = (21,), allowed: tuple[int, ...] = (1, 2, 3)
    ) -> None:
        rules = SubtractionHeap(tuple(allowed))
        members = ",".join(map(str, rules.allowed))
        info = GameInfo(
            name="subtraction",
            title=f"subtraction game {{{members}}}",
            impartial=True,
            description=f"take {members.replace(',', ', ')} stones from one heap; "
            "the player who cannot move loses",
        )
        super().__init__(rules, tuple(heaps), info)


def nim(heaps: str | int = "3,4,5", misere: int = 0) -> Nim:
    """Make Nim from ``heaps`` like ``"3,4,5"``; ``misere=1`` for misère play."""
    if misere not in (0, 1):
        raise InvalidGameError(f"misere={quoted(misere)}: write 0 (normal play) or 1 (misère)")
    return Nim(parse_counts(heaps, "heaps"), misere=bool(misere))


def subtraction(heaps: str | int = "21", moves: str | int = "1,2,3") -> Subtraction:
    """Make a subtraction game from ``heaps`` like ``"21"`` or ``"7,9"`` and the
    subtraction set ``moves`` like ``"1,3,4"``."""
    return Subtraction(
        parse_counts(heaps, "heaps"), parse_counts(moves, "subtraction set", positive=True)
    )


def divisor(n: int | str = 12) -> DivisorHeap:
    """Make the divisor game on one heap of ``n`` (1 or more)."""
    sizes = parse_counts(n, "heap", positive=True)
    if len(sizes) != 1:
        raise InvalidGameError(f"the divisor game has one heap, not {quoted(str(n))}")
    return DivisorHeap(sizes[0])
