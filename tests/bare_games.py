"""Games with nothing but the protocol: the six methods and an ``info``.

They have no ``parse_move``, ``format_move``, ``render``, ``parse_state``,
``format_state``, ``evaluate`` or ``key``, so every interface must fall back to ``str``
for them (and say clearly what it cannot do) rather than fail with ``AttributeError``.
Tests name them by the import form, ``bare_games:BareNim``.
"""

from __future__ import annotations

from zerosum.game import GameInfo

Heaps = tuple[int, ...]
State = tuple[Heaps, int]
Move = tuple[int, int]


class BareNim:
    """Nim with the heaps given (default 1,2): take any number from one heap; who takes
    the last stone wins. A move is ``(heap, taken)``, a state ``(heaps, mover)``."""

    info = GameInfo(name="bare-nim", title="Bare Nim")

    def __init__(self, heaps: str | int = "1,2") -> None:
        self.heaps: Heaps = tuple(int(h) for h in str(heaps).split(","))

    def initial_state(self) -> State:
        return (self.heaps, 0)

    def to_move(self, state: State) -> int:
        return state[1]

    def actions(self, state: State) -> list[Move]:
        return [(i, n) for i, heap in enumerate(state[0]) for n in range(1, heap + 1)]

    def result(self, state: State, action: Move) -> State:
        heaps = list(state[0])
        heaps[action[0]] -= action[1]
        return (tuple(heaps), 1 - state[1])

    def is_terminal(self, state: State) -> bool:
        return not any(state[0])

    def utility(self, state: State, player: int) -> int:
        return -1 if player == state[1] else 1  # the player to move took nothing last


def make_alike() -> BareNim:
    """A bare Nim whose two moves are written alike by ``str``."""

    class Alike(BareNim):
        def actions(self, state: State) -> list[Move]:
            return [AlikeMove(*move) for move in super().actions(state)]

    return Alike("2")


class AlikeMove(tuple[int, int]):
    """A move whose ``str`` hides which move it is."""

    __slots__ = ()

    def __new__(cls, heap: int, taken: int) -> AlikeMove:
        return super().__new__(cls, (heap, taken))

    def __str__(self) -> str:
        return "take"


class NotAGame:
    """Something a factory might return by mistake: it has only two of the methods."""

    def initial_state(self) -> int:
        return 0

    def actions(self, state: int) -> list[int]:
        return []


def no_info() -> object:
    """A factory whose object has the six methods but no ``info``."""

    class Infoless(BareNim):
        info = None  # type: ignore[assignment]

    return Infoless()


def returns_a_class() -> type:
    """A factory that returns the game's class instead of a game."""
    return BareNim


def any_options(**options: object) -> BareNim:
    """A factory that takes any option and uses only ``heaps``."""
    return BareNim(str(options.get("heaps", "1,2")))


SIX = 6
"""Not a game factory: a number, for the "not callable" error."""
