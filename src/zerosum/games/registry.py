"""The registry of built-in games: a name, a summary and where the game's factory lives.

A game is added to zerosum by writing its module and one :class:`Entry` below; the CLI,
the conformance test and the interfaces find it here. Modules are imported only when a
game is made, so listing the games stays cheap.

A game is named by a *spec*: its registry name, optionally followed by options, e.g.
``tictactoe``, ``mnk:m=4,n=4,k=3`` or ``connect4:width=5,height=4``.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zerosum.game import InvalidGameError

__all__ = ["ENTRIES", "Entry", "entry", "make", "names", "parse_spec"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One registered game: its name, a one-line summary and its factory's location.

    ``target`` is ``"module:attribute"``; the attribute is a callable that takes the
    game's options as keyword arguments and returns the game. ``argument`` names the
    option a bare command-line argument sets (``zerosum solve stones-vii 5,3,1,4,2``
    sets ``values``), for games whose setup is their position."""

    name: str
    target: str
    summary: str
    argument: str | None = None

    def factory(self) -> Callable[..., Any]:
        """Import and return the callable that makes this game."""
        module_name, _, attribute = self.target.partition(":")
        factory: Callable[..., Any] = getattr(importlib.import_module(module_name), attribute)
        return factory


ENTRIES: tuple[Entry, ...] = (
    Entry(
        "tree",
        "zerosum.games.tree:example",
        "an explicit game tree (name=night-market, night-market-2 or aima-5.2)",
        argument="name",
    ),
    Entry("tictactoe", "zerosum.games.mnk:tictactoe", "tic-tac-toe, the 3x3 m,n,k-game"),
    Entry("mnk", "zerosum.games.mnk:MNKGame", "m,n,k-game: k in a row on m x n (m, n, k)"),
    Entry(
        "connect4",
        "zerosum.games.connect4:Connect4",
        "connect four on any board from 4x4 to 9x9 (width=7, height=6)",
    ),
    Entry(
        "gomoku",
        "zerosum.games.gomoku:Gomoku",
        "five in a row on 7x7 to 25x25 (width=15, height=15, rule=freestyle|exact5)",
        argument="width",
    ),
    Entry(
        "nim",
        "zerosum.games.nim:nim",
        "Nim, normal or misere play (heaps=3,4,5, misere=0|1)",
        argument="heaps",
    ),
    Entry(
        "subtraction",
        "zerosum.games.nim:subtraction",
        "subtraction game: take an allowed number (heaps=21, moves=1,2,3)",
        argument="heaps",
    ),
    Entry(
        "divisor",
        "zerosum.games.nim:divisor",
        "divisor game: take a proper divisor (n=12)",
        argument="n",
    ),
    Entry(
        "graph",
        "zerosum.games.impartial:graph",
        "impartial game on a directed acyclic graph (file=PATH or edges, start)",
        argument="file",
    ),
    Entry(
        "maze",
        "zerosum.games.impartial:maze",
        "slide a figure left or up through a walled grid (file=PATH or grid, start)",
        argument="file",
    ),
    Entry(
        "predict-the-winner",
        "zerosum.games.stones:predict_the_winner_game",
        "LeetCode 486: take from either end of a row (values=1,5,2)",
        argument="values",
    ),
    Entry(
        "stones",
        "zerosum.games.stones:stones",
        "LeetCode 877 Stone Game (values=5,3,4,5)",
        argument="values",
    ),
    Entry(
        "stones-ii",
        "zerosum.games.stones:stones_ii",
        "LeetCode 1140 Stone Game II (values=...)",
        argument="values",
    ),
    Entry(
        "stones-iii",
        "zerosum.games.stones:stones_iii",
        "LeetCode 1406 Stone Game III (values=...)",
        argument="values",
    ),
    Entry(
        "stones-vii",
        "zerosum.games.stones:stones_vii",
        "LeetCode 1690 Stone Game VII (values=5,3,1,4,2)",
        argument="values",
    ),
)
"""Every built-in game, in the order ``zerosum games`` lists them."""

_BY_NAME = {e.name: e for e in ENTRIES}


def names() -> list[str]:
    """Return the registered game names in registry order."""
    return [e.name for e in ENTRIES]


def entry(name: str) -> Entry:
    """Return the registry entry called ``name``; raises :class:`InvalidGameError`."""
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(names())
        raise InvalidGameError(f"unknown game {name!r}; known games: {known}") from None


def _option_value(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def parse_spec(spec: str) -> tuple[str, dict[str, int | str]]:
    """Split a spec ``name[:key=value,...]`` into the name and its options.

    A value may itself be a list: an item without ``=`` continues the value before it,
    so ``nim:heaps=3,4,5,misere=1`` gives ``heaps="3,4,5"``. Integer-looking values
    become ``int``. Raises :class:`InvalidGameError` naming the spec when an option is
    not ``key=value``."""
    name, _, rest = spec.strip().partition(":")
    raw: dict[str, str] = {}
    last: str | None = None
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq and last is not None:
            raw[last] += "," + item
            continue
        if not eq or not key.strip() or not value.strip():
            raise InvalidGameError(f"bad option {item!r} in game spec {spec!r}: use key=value")
        last = key.strip()
        raw[last] = value.strip()
    return name, {key: _option_value(value) for key, value in raw.items()}


def make(spec: str, **options: Any) -> Any:
    """Make the game named by ``spec`` (``name[:key=value,...]``), with extra ``options``.

    Raises :class:`InvalidGameError` for an unknown name or option, or an option value
    the game rejects."""
    name, parsed = parse_spec(spec)
    parsed.update(options)
    factory = entry(name).factory()
    parameters = inspect.signature(factory).parameters
    unknown = sorted(set(parsed) - set(parameters))
    if unknown:
        accepted = ", ".join(p for p in parameters if p != "self") or "none"
        raise InvalidGameError(
            f"unknown option {unknown[0]!r} for game {name!r}; accepted options: {accepted}"
        )
    try:
        return factory(**parsed)
    except TypeError as error:  # a value of the wrong kind, e.g. m=three
        raise InvalidGameError(f"bad options for game {name!r}: {error}") from None
