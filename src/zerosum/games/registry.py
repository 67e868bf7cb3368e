"""The registry of built-in games: a name, a summary and where the game's factory lives.

A game is added to zerosum by writing its module and one :class:`Entry` below; the CLI,
the conformance test and the interfaces find it here. Modules are imported only when a
game is made, so listing the games stays cheap.

A game is named by a *spec*: its registry name, optionally followed by options, e.g.
``tictactoe``, ``mnk:m=4,n=4,k=3`` or ``connect4:width=5,height=4``.

Specs that come from strangers (the browser app's visitors) are made with
``make(spec, untrusted=True)``: options that name files on this machine are refused
(the content goes in its own option instead: ``graph:edges=...``, ``maze:grid=...``), and
every option's numbers and list lengths are held to the entry's :class:`OptionCap`, so
that no request can make a game whose moves or positions cannot be listed in a few
milliseconds. The caps are listed in docs/games.md.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zerosum.game import InvalidGameError, quoted

__all__ = ["ENTRIES", "Entry", "OptionCap", "entry", "make", "names", "parse_spec"]

_MAX_OPTION_DIGITS = 30
"""The longest number a spec option may hold; far past any real board, heap or value,
and far below the 4,300 digits past which Python refuses to read an integer at all."""

_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class OptionCap:
    """The most an untrusted spec may ask of one option: ``most`` for every number in
    its value and ``items`` comma-separated items (a heap list, a list of values)."""

    option: str
    most: int
    items: int = 1

    def check(self, game: str, value: int | str) -> None:
        """Raise :class:`InvalidGameError` when ``value`` asks for more than the cap."""
        text = str(value)
        items = text.count(",") + 1
        if items > self.items:
            raise InvalidGameError(
                f"option {self.option!r} of game {game!r} lists {items} items; at most "
                f"{self.items} here"
            )
        for number in _NUMBER.findall(text):
            if len(number) > len(str(self.most)) or int(number) > self.most:
                raise InvalidGameError(
                    f"option {self.option!r} of game {game!r} holds {quoted(number, 12)}; "
                    f"at most {self.most:,} here"
                )


@dataclass(frozen=True, slots=True)
class Entry:
    """One registered game: its name, a one-line summary and its factory's location.

    ``target`` is ``"module:attribute"``; the attribute is a callable that takes the
    game's options as keyword arguments and returns the game. ``argument`` names the
    option a bare command-line argument sets (``zerosum solve stones-vii 5,3,1,4,2``
    sets ``values``), for games whose setup is their position. ``file_options`` are the
    options that name a file to read, and ``caps`` bound the options of an untrusted
    spec (see :func:`make`)."""

    name: str
    target: str
    summary: str
    argument: str | None = None
    file_options: tuple[str, ...] = ()
    caps: tuple[OptionCap, ...] = ()

    def factory(self) -> Callable[..., Any]:
        """Import and return the callable that makes this game."""
        module_name, _, attribute = self.target.partition(":")
        factory: Callable[..., Any] = getattr(importlib.import_module(module_name), attribute)
        return factory


_STONE_CAPS = (OptionCap("values", 1_000_000, items=64),)

ENTRIES: tuple[Entry, ...] = (
    Entry(
        "tree",
        "zerosum.games.tree:example",
        "an explicit game tree (name=night-market, night-market-2 or aima-5.2)",
        argument="name",
    ),
    Entry("tictactoe", "zerosum.games.mnk:tictactoe", "tic-tac-toe, the 3x3 m,n,k-game"),
    Entry(
        "mnk",
        "zerosum.games.mnk:MNKGame",
        "m,n,k-game: k in a row on m x n (m, n, k)",
    ),
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
        caps=(OptionCap("heaps", 1000, items=16),),
    ),
    Entry(
        "subtraction",
        "zerosum.games.nim:subtraction",
        "subtraction game: take an allowed number (heaps=21, moves=1,2,3)",
        argument="heaps",
        caps=(OptionCap("heaps", 10_000, items=16), OptionCap("moves", 1000, items=32)),
    ),
    Entry(
        "divisor",
        "zerosum.games.nim:divisor",
        "divisor game: take a proper divisor (n=12)",
        argument="n",
        caps=(OptionCap("n", 100_000),),
    ),
    Entry(
        "graph",
        "zerosum.games.impartial:graph",
        "impartial game on a directed acyclic graph (file=PATH or edges, start)",
        argument="file",
        file_options=("file",),
    ),
    Entry(
        "maze",
        "zerosum.games.impartial:maze",
        "slide a figure left or up through a walled grid (file=PATH or grid, start)",
        argument="file",
        file_options=("file",),
    ),
    Entry(
        "predict-the-winner",
        "zerosum.games.stones:predict_the_winner_game",
        "LeetCode 486: take from either end of a row (values=1,5,2)",
        argument="values",
        caps=_STONE_CAPS,
    ),
    Entry(
        "stones",
        "zerosum.games.stones:stones",
        "LeetCode 877 Stone Game (values=5,3,4,5)",
        argument="values",
        caps=_STONE_CAPS,
    ),
    Entry(
        "stones-ii",
        "zerosum.games.stones:stones_ii",
        "LeetCode 1140 Stone Game II (values=...)",
        argument="values",
        caps=_STONE_CAPS,
    ),
    Entry(
        "stones-iii",
        "zerosum.games.stones:stones_iii",
        "LeetCode 1406 Stone Game III (values=...)",
        argument="values",
        caps=_STONE_CAPS,
    ),
    Entry(
        "stones-vii",
        "zerosum.games.stones:stones_vii",
        "LeetCode 1690 Stone Game VII (values=5,3,1,4,2)",
        argument="values",
        caps=_STONE_CAPS,
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
    digits = text.removeprefix("-").removeprefix("+")
    if not (digits.isascii() and digits.isdecimal()):
        return text
    if len(digits) > _MAX_OPTION_DIGITS:
        raise InvalidGameError(
            f"option value {quoted(text)} has {len(digits)} digits; at most {_MAX_OPTION_DIGITS}"
        )
    return int(text)


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


def make(spec: str, *, untrusted: bool = False, **options: Any) -> Any:
    """Make the game named by ``spec`` (``name[:key=value,...]``), with extra ``options``.

    With ``untrusted`` (a spec from a stranger, such as a web visitor) the spec's options
    that name files are refused and its options are held to the entry's caps; the
    caller's own ``options`` are trusted (an upload passed as a
    :class:`~zerosum.games.files.GameText` for a file option, say). Raises
    :class:`InvalidGameError` for an unknown name or option, an option over its cap, or
    an option value the game rejects."""
    name, parsed = parse_spec(spec)
    found = entry(name)
    if untrusted:
        _check_untrusted(found, parsed)
    parsed.update(options)
    factory = found.factory()
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


def _check_untrusted(found: Entry, options: dict[str, Any]) -> None:
    """Refuse file options and options over their caps in an untrusted spec."""
    for option in found.file_options:
        if option in options:
            raise InvalidGameError(
                f"option {option!r} of game {found.name!r} names a file on this machine, "
                f"which is not accepted here: send the file's content instead"
            )
    for cap in found.caps:
        if cap.option in options:
            cap.check(found.name, options[cap.option])
