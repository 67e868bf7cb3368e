"""Sprague-Grundy theory: the Grundy values of impartial games, sums and winning moves.

In an impartial game both players have the same moves from every position; under
normal play the player who cannot move loses. Sprague and Grundy showed that every such
game (with no infinite line of play) is worth a nim heap: its *Grundy value* is the
mex (minimum excluded value) of its successors' values, a position with no move is
worth 0, and the player to move loses exactly when the value is 0. The value of a sum
of independent games (a move is made in one component of the player's choice) is the
XOR of the components' values, so a sum is solved component by component instead of by
searching the product of their positions. That is what makes Nim easy while minimax on
it is exponential.

:func:`grundy` computes a value by a memoised depth-first walk with an explicit stack,
so a line of play 100,000 moves long needs no recursion. It works on the Game protocol
alone (``actions``, ``result``, ``is_terminal``, ``utility``, ``to_move``) and uses these
optional capabilities, discovered once per table, never per position:

* ``position(state)``: a hashable value of the state *without* the side to move. Equal
  positions have equal values whoever moves, so the memo is keyed on it; otherwise on
  ``key(state)`` if the game has one, else on the state itself.
* ``grundy_value(state)`` with ``grundy_moves(state, target)``: the value by a rule known
  in closed form (a nim heap of ``n`` is worth ``n``), and the moves to positions worth
  ``target``, so a heap of a million stones is not searched.
* ``components(state)`` with ``lift(state, index, move)``: the game is a sum; the first
  returns each component as ``(game, state)`` and the second turns the move ``move`` of
  component ``index`` into a move of the sum (see :class:`Composite`).
* ``misere``: a true attribute declares misère play (the last mover loses), where
  Grundy values do not tell who wins; the table refuses such a game.

The table also checks, at every position without a move it reaches, that the player to
move there has lost, so a game that is misère without saying so is refused as well.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from zerosum.game import Game, InvalidGameError, describe_state

__all__ = [
    "Composite",
    "GrundyTable",
    "NotImpartialError",
    "NotNormalPlayError",
    "grundy",
    "mex",
    "winning_moves",
]

S = TypeVar("S")
A = TypeVar("A")
S_contra = TypeVar("S_contra", contravariant=True)
A_co = TypeVar("A_co", covariant=True)


class NotImpartialError(InvalidGameError):
    """Grundy values were asked of a game whose :class:`~zerosum.game.GameInfo` does not
    say it is impartial."""


class NotNormalPlayError(InvalidGameError):
    """Grundy values were asked of a game under misère play (the last mover loses)."""


class Composite(Protocol[S_contra, A_co]):
    """A game that is a sum of independent impartial games under normal play.

    A move of the sum is a move in exactly one component; the sum ends when no component
    has a move. Its Grundy value is the XOR of the components' values."""

    def components(self, state: S_contra) -> Sequence[tuple[Game[Any, Any], Any]]:
        """Return each component of ``state`` as ``(component game, component state)``."""
        ...

    def lift(self, state: S_contra, index: int, move: Any) -> A_co:
        """Return the move of the sum that plays ``move`` in component ``index``."""
        ...


def mex(values: Iterable[int]) -> int:
    """Return the minimum excluded value: the least integer >= 0 not in ``values``."""
    seen = set(values)
    value = 0
    while value in seen:
        value += 1
    return value


def _same(state: Any) -> Any:
    return state


class GrundyTable(Generic[S, A]):
    """The Grundy values of one impartial game's positions, computed on demand and kept.

    Raises :class:`NotImpartialError` unless ``game.info.impartial``, and
    :class:`NotNormalPlayError` for a game that declares ``misere``. A table answers
    many questions about one game cheaply: every position it has valued stays valued.
    """

    __slots__ = (
        "_components",
        "_game",
        "_key",
        "_known",
        "_known_moves",
        "_lift",
        "_memo",
        "_parts",
    )

    def __init__(self, game: Game[S, A]) -> None:
        info = game.info
        if not info.impartial:
            raise NotImpartialError(
                f"game {info.name!r} is not impartial: Grundy values need both players to "
                "have the same moves from every position"
            )
        if getattr(game, "misere", False):
            raise NotNormalPlayError(
                f"game {info.name!r} is played misère (the last mover loses): Grundy values "
                "describe normal play only"
            )
        self._game = game
        self._memo: dict[Hashable, int] = {}
        self._parts: dict[int, tuple[Game[Any, Any], GrundyTable[Any, Any]]] = {}
        key: Callable[[S], Hashable] | None = getattr(game, "position", None)
        if key is None:
            key = getattr(game, "key", None)
        self._key: Callable[[S], Hashable] = _same if key is None else key
        self._known: Callable[[S], int] | None = getattr(game, "grundy_value", None)
        self._known_moves: Callable[[S, int], Sequence[A]] | None = getattr(
            game, "grundy_moves", None
        )
        self._components: Callable[[S], Sequence[tuple[Game[Any, Any], Any]]] | None = getattr(
            game, "components", None
        )
        self._lift: Callable[[S, int, Any], A] | None = getattr(game, "lift", None)

    @property
    def game(self) -> Game[S, A]:
        """The game whose positions this table values."""
        return self._game

    @property
    def size(self) -> int:
        """How many positions have been valued by search, components' tables included."""
        return len(self._memo) + sum(table.size for _, table in self._parts.values())

    def value(self, state: S) -> int:
        """Return the Grundy value of ``state``: 0 exactly when the player to move loses.

        Raises :class:`~zerosum.game.InvalidGameError` if a line of play from ``state``
        runs in a cycle, and :class:`NotNormalPlayError` if a position without a move is
        not lost for the player to move there."""
        if self._components is not None:
            total = 0
            for game, part in self._components(state):
                total ^= self._part_table(game).value(part)
            return total
        if self._known is not None:
            return self._known(state)
        found = self._memo.get(self._key(state))
        return self._search(state) if found is None else found

    def winning_moves(self, state: S) -> list[A]:
        """Return every move from ``state`` to a position of value 0, in action order.

        The list is empty when the player to move loses. A sum is searched component by
        component: with total value ``t``, a move in a component of value ``g`` wins
        exactly when it leads to a position of that component worth ``t ^ g``."""
        if self._components is None or self._lift is None:
            return self.moves_to(state, 0)
        parts = list(self._components(state))
        values = [self._part_table(game).value(part) for game, part in parts]
        total = 0
        for value in values:
            total ^= value
        if total == 0:
            return []
        lift = self._lift
        return [
            lift(state, index, move)
            for index, ((game, part), value) in enumerate(zip(parts, values, strict=True))
            for move in self._part_table(game).moves_to(part, total ^ value)
        ]

    def moves_to(self, state: S, target: int) -> list[A]:
        """Return every move from ``state`` to a position of value ``target``.

        A sum is not split here: this is the question asked of each component."""
        if self._known_moves is not None:
            return list(self._known_moves(state, target))
        game, value = self._game, self.value
        return [move for move in game.actions(state) if value(game.result(state, move)) == target]

    def _part_table(self, game: Game[Any, Any]) -> GrundyTable[Any, Any]:
        # Keyed by identity: components sharing one rules object share one memo.
        entry = self._parts.get(id(game))
        if entry is None:
            entry = (game, GrundyTable(game))  # the game is kept so its id stays unique
            self._parts[id(game)] = entry
        return entry[1]

    def _search(self, root: S) -> int:
        """Value ``root`` and every position below it not yet valued, depth first.

        The explicit stack is four parallel lists, one entry per position on the current
        line: its key, its children's states, their keys, and the next child to look
        at. A position is valued once all its children are. Parallel lists of plain
        values keep the walk from allocating a container per edge, which would leave
        the garbage collector most of the work on long lines."""
        game = self._game
        memo = self._memo
        key_of = self._key
        actions, result = game.actions, game.result

        def expand(state: S) -> list[S]:
            moves = actions(state)
            if not moves:
                self._check_normal_play(state)
                return []
            return [result(state, move) for move in moves]

        root_key = key_of(root)
        on_path = {root_key}
        children = expand(root)
        line_keys: list[Hashable] = [root_key]
        line_children: list[list[S]] = [children]
        line_child_keys: list[list[Hashable]] = [[key_of(child) for child in children]]
        line_next = [0]
        while line_keys:
            child_keys = line_child_keys[-1]
            index = line_next[-1]
            count = len(child_keys)
            while index < count and child_keys[index] in memo:
                index += 1
            if index < count:
                child_key = child_keys[index]
                child = line_children[-1][index]
                if child_key in on_path:
                    raise InvalidGameError(
                        f"game {game.info.name!r} has a cycle through "
                        f"{describe_state(game, child)}: Grundy values need every line of "
                        "play to end"
                    )
                line_next[-1] = index + 1
                on_path.add(child_key)
                children = expand(child)
                line_keys.append(child_key)
                line_children.append(children)
                line_child_keys.append([key_of(grandchild) for grandchild in children])
                line_next.append(0)
                continue
            key = line_keys.pop()
            memo[key] = mex(map(memo.__getitem__, child_keys))
            on_path.discard(key)
            line_children.pop()
            line_child_keys.pop()
            line_next.pop()
        return memo[root_key]

    def _check_normal_play(self, state: S) -> None:
        """A state without a move must be over and lost for the player to move."""
        game = self._game
        if not game.is_terminal(state):
            raise InvalidGameError(
                f"game {game.info.name!r} offers no move in {describe_state(game, state)} "
                "but does not say the game is over"
            )
        if game.utility(state, game.to_move(state)) >= 0:
            raise NotNormalPlayError(
                f"game {game.info.name!r} is not under normal play: the player to move in "
                f"{describe_state(game, state)} has no move but has not lost"
            )


def grundy(game: Game[S, A], state: S) -> int:
    """Return the Grundy value of ``state`` in the impartial game ``game``.

    A one-off question; keep a :class:`GrundyTable` to ask many about one game."""
    return GrundyTable(game).value(state)


def winning_moves(game: Game[S, A], state: S) -> list[A]:
    """Return every move from ``state`` to a position of Grundy value 0.

    A sum (a :class:`Composite` game) is solved component by component, never by
    searching the whole sum."""
    return GrundyTable(game).winning_moves(state)
