"""The registry of games: a name, a summary and where the game's factory lives.

A game is added to zerosum in one of three ways, and the CLI, the conformance test, the
match tools and the interfaces find it through :func:`entries` whichever it is:

* built in: its module under ``zerosum/games/`` and one :class:`Entry` in :data:`ENTRIES`;
* installed by another package, through the entry-point group ``zerosum.games``
  (:data:`ENTRY_POINT_GROUP`): the entry point's name is the game's name and its value
  the ``module:attribute`` of its factory. Installed games are discovered once, on first
  use; one that cannot be loaded is reported (:func:`plugin_problems`), not fatal;
* added at run time with :func:`register`, for this process only.

Modules of built-in games are imported only when a game is made, so listing them stays
cheap; an installed game's module is imported when the plugins are discovered (its
summary is its factory's docstring).

A game is named by a *spec*: its registry name, optionally followed by options, e.g.
``tictactoe``, ``mnk:m=4,n=4,k=3`` or ``connect4:width=5,height=4``. A game that is in
no registry is named by the *import form* ``module.path:attribute``, optionally followed
by ``:key=value,...`` (``docs.examples.hexapawn:Hexapawn``, ``mypkg.games:make:size=5``):
the attribute is a Game class or a factory, called with the options. A spec is in the
import form when its name part is not a registered name and the text after its first
colon is a Python identifier; registered names win. The module must be importable
(``zerosum`` on the command line makes the current directory importable, as
``python -m`` does).

Specs that come from strangers (the browser app's visitors) are made with
``make(spec, untrusted=True)``: the import form is refused (a visitor must never make
this machine import a module), options that name files on this machine are refused
(the content goes in its own option instead: ``graph:edges=...``, ``maze:grid=...``),
every option's numbers and list lengths are held to the entry's :class:`OptionCap`, so
that no request can make a game whose moves or positions cannot be listed in a few
milliseconds, and installed or run-time games, whose bounds nobody published, take no
options at all. The caps are listed in docs/games.md.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.metadata
import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from zerosum.game import GameInfo, InvalidGameError, quoted
from zerosum.importer import import_callable

__all__ = [
    "ENTRIES",
    "ENTRY_POINT_GROUP",
    "PROTOCOL_METHODS",
    "Entry",
    "OptionCap",
    "entries",
    "entry",
    "make",
    "names",
    "option_value",
    "parse_spec",
    "plugin_problems",
    "register",
    "registered",
    "resolve",
]

ENTRY_POINT_GROUP = "zerosum.games"
"""The entry-point group through which installed packages add games."""

PROTOCOL_METHODS = ("initial_state", "to_move", "actions", "result", "is_terminal", "utility")
"""The six methods every game has; :func:`make` refuses an object without them."""

_GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*\Z")
"""What a registered name looks like: nothing a spec reads as a separator (``:``,
``,``, ``=``), no dots (which would read as a module path), no spaces."""

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
    spec (see :func:`make`); ``untrusted_options`` is ``False`` for a game whose options
    an untrusted spec may not set at all (installed and run-time games)."""

    name: str
    target: str
    summary: str
    argument: str | None = None
    file_options: tuple[str, ...] = ()
    caps: tuple[OptionCap, ...] = ()
    untrusted_options: bool = True

    def factory(self) -> Callable[..., Any]:
        """Import and return the callable that makes this game.

        Raises :class:`InvalidGameError` naming the game when its module cannot be
        imported or has no such callable."""
        module_name, _, attribute = self.target.partition(":")
        return import_callable(
            module_name, attribute, context=self._context(), error=InvalidGameError
        )

    def _context(self) -> str:
        """How errors about this entry start: the game, and its target if not its name."""
        return f"game {self.name!r}" + (f" ({self.target})" if self.target != self.name else "")


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
        "five in a row on 7x7 to 25x25 (width=15, height=15, rule=freestyle|exact5|renju)",
        argument="width",
    ),
    Entry(
        "chess",
        "zerosum.games.chess:Chess",
        "chess: FEN positions, SAN or UCI moves (chess960=0|1, draws=1|0)",
    ),
    Entry(
        "xiangqi",
        "zerosum.games.xiangqi:Xiangqi",
        "Chinese chess: FEN, moves 炮二平五, C2=5 or h2e2 (notation=chinese|wxf|iccs, draws)",
    ),
    Entry(
        "othello",
        "zerosum.games.othello:Othello",
        "othello (reversi) on 8x8: moves d3 or pass, FFO/obf positions",
    ),
    Entry(
        "bridge",
        "zerosum.games.bridge:TwoPlayerBridge",
        "bridge card play for two, cards SA (deal, trump=S|H|D|C|N, leader=0|1, seed, cards)",
        argument="deal",
    ),
    Entry(
        "bridge-dd",
        "zerosum.games.bridge:DoubleDummy",
        "double-dummy bridge, NS against EW (deal=N:... PBN, trump, leader=N|E|S|W, seed)",
        argument="deal",
    ),
    Entry(
        "kalah",
        "zerosum.games.kalah:Kalah",
        "Kalah (mancala): the last seed in your store moves again (pits=6, seeds=4)",
        argument="pits",
        caps=(OptionCap("pits", 12), OptionCap("seeds", 24)),
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

_BUILT_IN = {e.name: e for e in ENTRIES}

_added: dict[str, Entry] = {}
"""The games :func:`register` added in this process, by name, in the order added."""


def _import_target(text: str) -> tuple[str, str] | None:
    """Split ``module.path:attribute`` into its two parts; ``None`` for other text."""
    module_name, colon, attribute = text.partition(":")
    if colon and attribute.isidentifier() and all(p.isidentifier() for p in module_name.split(".")):
        return module_name, attribute
    return None


def _parameters(factory: Callable[..., Any]) -> Mapping[str, inspect.Parameter] | None:
    """The factory's parameters; ``None`` when it takes any keyword (or cannot say)."""
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin without a signature
        return None
    if any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return None
    return parameters


def _user_entry(name: str, target: str, context: str | None = None) -> Entry:
    """The entry of a game from outside zerosum (installed, registered at run time, or
    named by the import form): its factory is imported now, the first line of its
    docstring is the summary and its first option is what a bare argument sets.

    Raises :class:`InvalidGameError` starting with ``context`` (by default the entry's
    own, naming the game) for a target that is not ``module:attribute`` or cannot be
    imported."""
    found = Entry(name, target, "", untrusted_options=False)
    context = context or found._context()
    split = _import_target(target)
    if split is None:
        raise InvalidGameError(
            f"{context}: {quoted(target)} is not module.path:attribute, naming a Game class "
            f"or a factory"
        )
    factory = import_callable(*split, context=context, error=InvalidGameError)
    lines = (factory.__doc__ or "").strip().splitlines()
    summary = lines[0].strip() if lines else f"from {target}"
    options = [
        p.name
        for p in (_parameters(factory) or {}).values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    ]
    return dataclasses.replace(found, summary=summary, argument=options[0] if options else None)


@functools.cache
def _installed() -> tuple[tuple[Entry, ...], dict[str, str]]:
    """Discover the games installed through :data:`ENTRY_POINT_GROUP`, once.

    Returns the loadable ones, sorted by name, and for each that is not, what is wrong
    with it: a bad name, a name already taken, a target that cannot be imported."""
    found: list[Entry] = []
    problems: dict[str, str] = {}
    taken = {e.name for e in ENTRIES}
    points = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    for point in sorted(points, key=lambda p: (p.name, p.value)):
        dist = getattr(point, "dist", None)
        origin = f", installed by {dist.name}" if dist is not None else ""
        where = f"game plugin {point.name!r} ({point.value}{origin})"
        if not _GAME_NAME.match(point.name):
            problems[point.name] = f"{where}: its name is not letters, digits, - and _"
        elif point.name in taken:
            problems[point.name] = f"{where}: another game has that name; ignored"
        else:
            try:
                found.append(_user_entry(point.name, point.value, where))
            except InvalidGameError as error:  # its message starts with ``where``
                problems[point.name] = str(error)
            else:
                taken.add(point.name)
    return tuple(found), problems


def entries() -> tuple[Entry, ...]:
    """Return every game: the built-in :data:`ENTRIES`, then the installed games, then
    those :func:`register` added, in the order ``zerosum games`` lists them."""
    return ENTRIES + _installed()[0] + tuple(_added.values())


def registered() -> tuple[Entry, ...]:
    """Return the games :func:`register` added in this process, in the order added: what
    a worker process that starts afresh must register again to make the same games."""
    return tuple(_added.values())


def plugin_problems() -> tuple[str, ...]:
    """Describe each installed game plugin that could not be loaded, one line each."""
    return tuple(_installed()[1].values())


def names() -> list[str]:
    """Return the registered game names in registry order."""
    return [e.name for e in entries()]


def entry(name: str) -> Entry:
    """Return the registered game called ``name``; raises :class:`InvalidGameError`."""
    # a built-in game is found without discovering the installed ones: nothing shadows it
    found = _BUILT_IN.get(name) or next((e for e in entries() if e.name == name), None)
    if found is not None:
        return found
    problem = _installed()[1].get(name)
    if problem is not None:  # say why the game the person installed is not there
        raise InvalidGameError(problem)
    known = ", ".join(names())
    raise InvalidGameError(
        f"unknown game {name!r}; known games: {known} (or name a Game class as "
        f"module.path:attribute)"
    )


def resolve(name: str, *, untrusted: bool = False) -> Entry:
    """Return the entry of a spec's name part: a registered game, else the import form.

    ``name`` is what :func:`parse_spec` returns. The import form
    (``module.path:attribute``) is imported now, unless ``untrusted``, which refuses it.
    Raises :class:`InvalidGameError` naming the game."""
    if _import_target(name) is None:  # no registered name has a colon
        return entry(name)
    if untrusted:
        raise InvalidGameError(
            f"game {quoted(name)} names Python code to import, which is not accepted here; "
            f"known games: {', '.join(names())}"
        )
    return _user_entry(name, name)


def register(target: str, name: str | None = None) -> Entry:
    """Add the game whose factory is ``target`` (``module.path:attribute``) to the
    registry of this process, as ``name`` (default: the attribute's name in lower case,
    ``_`` written ``-``), and return its entry.

    The factory is imported now. Games made in other processes (a match's workers that
    start afresh) do not see it: there, name the game by the import form or install it.
    Raises :class:`InvalidGameError` for a bad target or name, or a name already taken."""
    split = _import_target(target)
    attribute = split[1] if split is not None else target
    chosen = name if name is not None else attribute.lower().replace("_", "-")
    if not _GAME_NAME.match(chosen):
        raise InvalidGameError(
            f"cannot register {quoted(chosen)}: a game name is letters, digits, - and _"
        )
    if chosen in names():
        raise InvalidGameError(f"cannot register {chosen!r}: another game has that name")
    item = _user_entry(chosen, target)
    _added[chosen] = item
    return item


def _check_game(game: Any, name: str) -> None:
    """Refuse an object that is not a game: one without the six protocol methods or an
    ``info``, so that no interface meets an ``AttributeError`` later."""
    what = f"game {name!r} made {quoted(repr(game), 60)}"
    if isinstance(game, type):
        raise InvalidGameError(f"{what}, a class: its factory must return a game")
    missing = [method for method in PROTOCOL_METHODS if not callable(getattr(game, method, None))]
    if missing:
        raise InvalidGameError(
            f"{what}, which is not a game: it has no {', '.join(missing)} (a game has "
            f"{', '.join(PROTOCOL_METHODS)})"
        )
    if not isinstance(getattr(game, "info", None), GameInfo):
        raise InvalidGameError(
            f"{what}, which is not a game: its info is not a zerosum.game.GameInfo"
        )


def option_value(text: str) -> int | str:
    """Read one option's text as a spec does: an integer when it is one, else the text.

    Raises :class:`InvalidGameError` for a number too long to be any real option."""
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

    In the import form, ``module.path:attribute[:key=value,...]``, the name is
    ``module.path:attribute``. A value may itself be a list: an item without ``=``
    continues the value before it, so ``nim:heaps=3,4,5,misere=1`` gives
    ``heaps="3,4,5"``. Integer-looking values become ``int``. Raises
    :class:`InvalidGameError` naming the spec when an option is not ``key=value``."""
    name, _, rest = spec.strip().partition(":")
    attribute, _, options = rest.partition(":")
    if _import_target(f"{name}:{attribute}") is not None and name not in names():
        name, rest = f"{name}:{attribute}", options
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
    return name, {key: option_value(value) for key, value in raw.items()}


def make(spec: str, *, untrusted: bool = False, **options: Any) -> Any:
    """Make the game named by ``spec`` (``name[:key=value,...]`` or the import form
    ``module.path:attribute[:key=value,...]``), with extra ``options``.

    With ``untrusted`` (a spec from a stranger, such as a web visitor) the import form is
    refused, the spec's options that name files are refused and its options are held to
    the entry's caps; the caller's own ``options`` are trusted (an upload passed as a
    :class:`~zerosum.games.files.GameText` for a file option, say). Raises
    :class:`InvalidGameError` for an unknown name or option, an option over its cap, an
    option value the game rejects, a module or attribute that cannot be imported, or an
    object made that is not a game."""
    name, parsed = parse_spec(spec)
    found = resolve(name, untrusted=untrusted)
    if untrusted:
        _check_untrusted(found, parsed)
    parsed.update(options)
    factory = found.factory()
    parameters = _parameters(factory)
    unknown = sorted(set(parsed) - set(parameters)) if parameters is not None else []
    if unknown:
        accepted = ", ".join(p for p in parameters or () if p != "self") or "none"
        raise InvalidGameError(
            f"unknown option {unknown[0]!r} for game {name!r}; accepted options: {accepted}"
        )
    try:
        game = factory(**parsed)
    except TypeError as error:  # a value of the wrong kind, e.g. m=three
        raise InvalidGameError(f"bad options for game {name!r}: {error}") from None
    _check_game(game, name)
    return game


def _check_untrusted(found: Entry, options: dict[str, Any]) -> None:
    """Refuse file options and options over their caps in an untrusted spec, and any
    option of a game whose options have no published caps."""
    if options and not found.untrusted_options:
        raise InvalidGameError(
            f"game {found.name!r} takes no options here (its bounds are not published): "
            f"play it as it comes, without {sorted(options)[0]!r}"
        )
    for option in found.file_options:
        if option in options:
            raise InvalidGameError(
                f"option {option!r} of game {found.name!r} names a file on this machine, "
                f"which is not accepted here: send the file's content instead"
            )
    for cap in found.caps:
        if cap.option in options:
            cap.check(found.name, options[cap.option])
