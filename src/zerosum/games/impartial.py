"""Impartial games: a base class, sums of games, explicit graphs and the maze game.

In an impartial game both players have the same moves; under normal play the player who
cannot move loses (:mod:`zerosum.search.grundy` solves such games by Sprague-Grundy
theory). A game here is written as rules on *positions* (:class:`Impartial`), and a
state is the pair ``(position, player to move)``: the player is needed by the protocol,
the position alone decides the moves and the Grundy value.

Text forms shared by every game in this module and in :mod:`zerosum.games.nim`:

* A state is its position's text, optionally followed by ``;2`` when the second player
  is to move (``;1``, the first player, may be left out): ``9,12,5;2``.
* In a :class:`Sum` the positions of the components are joined by ``+`` and a move is
  the component's number (from 1), a colon and the component's move: ``2:c1``. A sum
  of one component also takes the component's move alone.
* In a :class:`GraphGame` a position and a move are node names: the move names the node
  moved to. Node names are the JSON values of the edge list written as text.
* In a :class:`Maze` a square is its column letter and its row number counted from the
  bottom, as in chess (``a1`` is the bottom-left corner); a move names the square the
  figure goes to, or says ``left 2`` / ``up 1``.

:func:`report` gathers what the ``zerosum grundy`` command prints: the Grundy value,
who wins and every winning move with the position it leaves.
"""

from __future__ import annotations

import json
import os
import re
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from zerosum.game import (
    GameInfo,
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    Player,
    ZerosumError,
    quoted,
)
from zerosum.games.files import GameText, read_game_file
from zerosum.search.grundy import GrundyTable, NotNormalPlayError

__all__ = [
    "GraphGame",
    "GrundyReport",
    "Impartial",
    "Maze",
    "Sum",
    "WinningMove",
    "graph",
    "graph_from_json",
    "load_graph",
    "maze",
    "report",
]

P = TypeVar("P", bound=Hashable)
M = TypeVar("M")

_LISTED_MOVES = 12
"""How many legal moves an error message lists before it stops."""

_LISTED_CHARS = 160
"""How long a list in an error message grows before it is cut: node names are input."""

_INDEX_DIGITS = 9
"""The longest component number read: longer ones are past every component (and
``int`` refuses text past 4,300 digits with a plain ``ValueError``)."""


def _listing(items: Sequence[str], joiner: str = ", ") -> str:
    shown = joiner.join(items[:_LISTED_MOVES])
    if len(shown) > _LISTED_CHARS:
        return shown[:_LISTED_CHARS] + "..."
    return shown + (joiner + "..." if len(items) > _LISTED_MOVES else "")


class Impartial(ABC, Generic[P, M]):
    """An impartial game under normal play, or misère play when ``misere`` is true.

    Subclasses give the rules on positions (:meth:`moves`, :meth:`after`) and their
    notation (:meth:`read_position`, :meth:`write_position`, :meth:`read_move`,
    :meth:`write_move`, :meth:`draw`); this class turns them into the Game protocol and
    its checked layer. A state is ``(position, player to move)``. The reading methods
    raise the specific :class:`~zerosum.game.ZerosumError` with the reason alone; the
    checked layer adds the input and the state to the message.
    """

    info: GameInfo

    def __init__(self, info: GameInfo, start: P, *, misere: bool = False) -> None:
        self.info = info
        self.start = start
        self.misere = misere

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.info.name} from {self.write_position(self.start)}>"

    # ------------------------------------------------------------------ the rules

    @abstractmethod
    def moves(self, position: P) -> Sequence[M]:
        """Return the moves from ``position`` in a stable order; empty at the end."""

    @abstractmethod
    def after(self, position: P, move: M) -> P:
        """Return the position ``move`` leads to from ``position``; unchecked."""

    # ------------------------------------------------------------------ notation

    @abstractmethod
    def read_position(self, text: str) -> P:
        """Read a position; raises :class:`~zerosum.game.InvalidStateError`."""

    @abstractmethod
    def write_position(self, position: P) -> str:
        """Write ``position`` so that :meth:`read_position` reads it back."""

    @abstractmethod
    def read_move(self, position: P, text: str) -> M:
        """Read ``text`` as a move from ``position``.

        Raises :class:`~zerosum.game.InvalidMoveError` for text that is not a move, and
        may raise :class:`~zerosum.game.IllegalMoveError`; the checked layer checks the
        move against :meth:`moves` afterwards."""

    @abstractmethod
    def write_move(self, position: P, move: M) -> str:
        """Write ``move`` (legal in ``position``) so that :meth:`read_move` reads it back."""

    @abstractmethod
    def draw(self, position: P) -> str:
        """Draw ``position`` as text for a person."""

    # ------------------------------------------------------------------ the protocol

    def initial_state(self) -> tuple[P, Player]:
        """Return the start position with the first player to move."""
        return (self.start, 0)

    def to_move(self, state: tuple[P, Player]) -> Player:
        """Return the player to move in ``state``."""
        return state[1]

    def actions(self, state: tuple[P, Player]) -> Sequence[M]:
        """Return the moves from ``state``'s position."""
        return self.moves(state[0])

    def result(self, state: tuple[P, Player], action: M) -> tuple[P, Player]:
        """Return the state after ``action``; unchecked."""
        return (self.after(state[0], action), 1 - state[1])

    def is_terminal(self, state: tuple[P, Player]) -> bool:
        """Tell whether the player to move has no move."""
        return not self.moves(state[0])

    def utility(self, state: tuple[P, Player], player: Player) -> int:
        """Return +1 if ``player`` has won the finished game ``state``, else -1.

        Under normal play the player to move at the end has lost; under misère play
        that player has won, because the other made the last move."""
        lost = (player == state[1]) != self.misere
        return -1 if lost else 1

    def position(self, state: tuple[P, Player]) -> P:
        """Return ``state`` without the side to move: the key of Grundy tables."""
        return state[0]

    # ------------------------------------------------------------------ checked layer

    def parse_state(self, text: str) -> tuple[P, Player]:
        """Read a state: a position, optionally followed by ``;2`` (second to move).

        Raises :class:`~zerosum.game.InvalidStateError` naming the text."""
        body, semicolon, who = text.partition(";")
        if semicolon and who.strip() not in ("1", "2"):
            raise InvalidStateError(
                f"cannot read state {quoted(text)} for game {self.info.name!r}: after ';' write "
                "the player to move, 1 or 2"
            )
        try:
            position = self.read_position(body.strip())
        except InvalidStateError as error:
            raise InvalidStateError(
                f"cannot read state {quoted(text)} for game {self.info.name!r}: {error}"
            ) from None
        return (position, 1 if who.strip() == "2" else 0)

    def format_state(self, state: tuple[P, Player]) -> str:
        """Write ``state``: its position, and ``;2`` when the second player is to move."""
        text = self.write_position(state[0])
        return text + ";2" if state[1] else text

    def parse_move(self, state: tuple[P, Player], text: str) -> M:
        """Read ``text`` as a legal move in ``state``.

        Raises :class:`~zerosum.game.InvalidMoveError` for text that is not a move and
        :class:`~zerosum.game.IllegalMoveError` for a move not allowed here."""
        position = state[0]
        where = self.format_state(state)
        try:
            move = self.read_move(position, text.strip())
        except InvalidMoveError as error:
            raise InvalidMoveError(f"cannot read move {quoted(text)} in {where}: {error}") from None
        except IllegalMoveError as error:
            raise IllegalMoveError(f"illegal move {quoted(text)} in {where}: {error}") from None
        legal = self.moves(position)
        if move not in legal:
            if not legal:
                reason = "the game is over"
            else:
                reason = "the legal moves are " + _listing(
                    [self.write_move(position, m) for m in legal]
                )
            raise IllegalMoveError(f"illegal move {quoted(text)} in {where}: {reason}")
        return move

    def format_move(self, state: tuple[P, Player], action: M) -> str:
        """Write ``action`` in the game's notation."""
        return self.write_move(state[0], action)

    def render(self, state: tuple[P, Player]) -> str:
        """Draw ``state``, then say who is to move."""
        return f"{self.draw(state[0])}\n{self.info.players[state[1]]} to move"


# ----------------------------------------------------------------------------- sums

Parts = Sequence[Impartial[Any, Any]]


class Sum(Impartial[tuple[Any, ...], tuple[int, Any]]):
    """The sum of impartial games: each move is a move in one component of the player's
    choice, and the game ends when no component has a move.

    A position is the tuple of the components' positions (``start`` defaults to the
    parts' own starts), a move ``(index, move)``.
    Under normal play its Grundy value is the XOR of the components' values, which
    :mod:`zerosum.search.grundy` uses through :meth:`components` and :meth:`lift`.
    Raises :class:`~zerosum.game.InvalidGameError` for an empty list of parts.
    """

    component = "component"
    """What a component is called in messages."""

    separator = " + "
    """What joins the components' positions in the text of a position."""

    def __init__(
        self,
        parts: Parts,
        info: GameInfo | None = None,
        *,
        start: tuple[Any, ...] | None = None,
        misere: bool = False,
    ) -> None:
        if not parts:
            raise InvalidGameError("a sum of games needs at least one component")
        if info is None:
            names = " + ".join(part.info.name for part in parts)
            info = GameInfo(
                name="sum",
                title=f"sum of {names}",
                impartial=all(part.info.impartial for part in parts),
                description="independent games played side by side, one move in one of them",
            )
        if start is None:
            start = tuple(part.start for part in parts)
        super().__init__(info, start, misere=misere)
        self.parts: tuple[Impartial[Any, Any], ...] = tuple(parts)

    def _parts_for(self, position: tuple[Any, ...]) -> Parts:
        """The rules of each component of ``position``, in order."""
        return self.parts

    def moves(self, position: tuple[Any, ...]) -> list[tuple[int, Any]]:
        """Return every move of every component, component by component."""
        return [
            (index, move)
            for index, (part, place) in enumerate(
                zip(self._parts_for(position), position, strict=True)
            )
            for move in part.moves(place)
        ]

    def after(self, position: tuple[Any, ...], move: tuple[int, Any]) -> tuple[Any, ...]:
        """Return ``position`` with the move played in its component."""
        index, inner = move
        places = list(position)
        places[index] = self._parts_for(position)[index].after(places[index], inner)
        return tuple(places)

    def is_terminal(self, state: tuple[tuple[Any, ...], Player]) -> bool:
        """Tell whether no component has a move."""
        return not any(
            part.moves(place)
            for part, place in zip(self._parts_for(state[0]), state[0], strict=True)
        )

    def components(
        self, state: tuple[tuple[Any, ...], Player]
    ) -> list[tuple[Impartial[Any, Any], tuple[Any, Player]]]:
        """Return each component as ``(its rules, its state)`` for Grundy tables."""
        mover = state[1]
        return [
            (part, (place, mover))
            for part, place in zip(self._parts_for(state[0]), state[0], strict=True)
        ]

    def lift(self, state: tuple[tuple[Any, ...], Player], index: int, move: Any) -> tuple[int, Any]:
        """Return the move of the sum that plays ``move`` in component ``index``."""
        return (index, move)

    def _count_ok(self, count: int) -> bool:
        return count == len(self.parts)

    def read_position(self, text: str) -> tuple[Any, ...]:
        """Read the components' positions joined by :attr:`separator`."""
        pieces = [piece.strip() for piece in text.split(self.separator.strip())]
        if not self._count_ok(len(pieces)):
            raise InvalidStateError(
                f"expected {len(self.parts)} {self.component}s joined by "
                f"{self.separator.strip()!r}, found {len(pieces)}"
            )
        rules = self._parts_for(tuple(pieces))
        try:
            return tuple(
                part.read_position(piece) for part, piece in zip(rules, pieces, strict=True)
            )
        except InvalidStateError as error:
            raise InvalidStateError(f"{self.component} {error}") from None

    def write_position(self, position: tuple[Any, ...]) -> str:
        """Write the components' positions joined by :attr:`separator`."""
        rules = self._parts_for(position)
        return self.separator.join(
            part.write_position(place) for part, place in zip(rules, position, strict=True)
        )

    def read_move(self, position: tuple[Any, ...], text: str) -> tuple[int, Any]:
        """Read ``N:MOVE``: the move ``MOVE`` in component ``N`` (from 1)."""
        number, colon, inner = text.partition(":")
        if not colon:
            if len(position) != 1:
                raise InvalidMoveError(
                    f"write the {self.component} number, ':' and the move, like "
                    f"{quoted('1:' + text)}"
                )
            number, inner = "1", text
        digits = number.strip()
        if not (digits.isascii() and digits.isdecimal()):  # int() also reads '٣' and '1_0'
            raise InvalidMoveError(f"{quoted(digits)} is not a {self.component} number")
        short = len(digits) <= _INDEX_DIGITS
        index = int(digits) - 1 if short else len(position)
        if not 0 <= index < len(position):
            raise IllegalMoveError(
                f"there is no {self.component} {index + 1 if short else quoted(digits)}: "
                f"the {self.component}s are numbered 1 to {len(position)}"
            )
        part = self._parts_for(position)[index]
        return (index, part.read_move(position[index], inner.strip()))

    def write_move(self, position: tuple[Any, ...], move: tuple[int, Any]) -> str:
        """Write ``N:MOVE``, or the component's move alone in a sum of one component."""
        index, inner = move
        written = self._parts_for(position)[index].write_move(position[index], inner)
        return written if len(position) == 1 else f"{index + 1}:{written}"

    def draw(self, position: tuple[Any, ...]) -> str:
        """Draw each component under its number."""
        lines = []
        for number, (part, place) in enumerate(
            zip(self._parts_for(position), position, strict=True), 1
        ):
            picture = part.draw(place)
            joiner = "\n" if "\n" in picture else " "
            lines.append(f"{self.component} {number}:{joiner}{picture}")
        return "\n".join(lines)


# ----------------------------------------------------------------------------- graphs

_NODE_LIMIT = 1_000_000


def _node_name(value: Any, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise InvalidGameError(f"{where}: a node is a string or an integer, not {quoted(value)}")
    name = str(value).strip()
    if not name or any(c in name for c in ";+:") or name != str(value):
        raise InvalidGameError(
            f"{where}: node name {quoted(value)} must be non-empty, without "
            "surrounding spaces, ';', '+' or ':'"
        )
    return name


class GraphGame(Impartial[int, int]):
    """An impartial game given as a directed acyclic graph: a move follows an edge.

    ``edges`` are ``(u, v)`` pairs meaning a move from ``u`` to ``v``; nodes are strings
    or integers and are named by their text. ``nodes`` (optional) lists every node, for
    nodes without edges, and then every edge must join listed nodes. ``start`` defaults
    to the first node listed, or the first edge's source.

    Raises :class:`~zerosum.game.InvalidGameError` for a malformed edge, a repeated edge,
    an unknown node, or a cycle (the message names a node on it and the cycle itself).
    """

    def __init__(
        self,
        edges: Iterable[Any],
        *,
        start: str | int | None = None,
        nodes: Iterable[Any] | None = None,
        name: str = "graph",
        source: str = "graph",
    ) -> None:
        names: list[str] = []
        index_of: dict[str, int] = {}

        def add(name: str) -> int:
            if name not in index_of:
                index_of[name] = len(names)
                names.append(name)
            return index_of[name]

        if nodes is not None:
            for node in nodes:
                node_name = _node_name(node, source)
                if node_name in index_of:
                    raise InvalidGameError(f"{source}: node {quoted(node)} is listed twice")
                add(node_name)
        closed = nodes is not None
        pairs: list[tuple[int, int]] = []
        seen: set[tuple[int, int]] = set()
        for edge in edges:
            if isinstance(edge, str) or not isinstance(edge, Sequence) or len(edge) != 2:
                raise InvalidGameError(f"{source}: an edge is a pair [u, v], not {quoted(edge)}")
            ends = [_node_name(end, source) for end in edge]
            for end in ends:
                if closed and end not in index_of:
                    raise InvalidGameError(
                        f"{source}: edge {quoted(list(edge))} names unknown node {quoted(end)}"
                    )
            pair = (add(ends[0]), add(ends[1]))
            if pair in seen:
                raise InvalidGameError(f"{source}: edge {_listing(ends, ' -> ')} is listed twice")
            seen.add(pair)
            pairs.append(pair)
        if not names:
            raise InvalidGameError(f"{source}: the graph has no nodes")
        if len(names) > _NODE_LIMIT:
            raise InvalidGameError(f"{source}: more than {_NODE_LIMIT} nodes")
        successors: list[list[int]] = [[] for _ in names]
        for u, v in pairs:
            successors[u].append(v)
        self.names: tuple[str, ...] = tuple(names)
        self.successors: tuple[tuple[int, ...], ...] = tuple(map(tuple, successors))
        self._index = index_of
        _reject_cycles(self.names, self.successors, source)
        if start is None:
            first = 0
        else:
            start_name = str(start).strip()
            if start_name not in index_of:
                raise InvalidGameError(
                    f"{source}: start node {quoted(start)} is not in the graph; "
                    f"nodes: {_listing(names)}"
                )
            first = index_of[start_name]
        info = GameInfo(
            name=name,
            title=f"graph game ({len(names)} nodes, {len(pairs)} edges)",
            impartial=True,
            description="a token moves along an edge; the player who cannot move loses",
        )
        super().__init__(info, first)

    def moves(self, position: int) -> tuple[int, ...]:
        """Return the nodes one edge away from ``position``, in the order listed."""
        return self.successors[position]

    def after(self, position: int, move: int) -> int:
        """Return the node moved to."""
        return move

    def read_position(self, text: str) -> int:
        """Read a node name."""
        node = self._index.get(text)
        if node is None:
            raise InvalidStateError(f"unknown node {quoted(text)}; nodes: {_listing(self.names)}")
        return node

    def write_position(self, position: int) -> str:
        """Write a node name."""
        return self.names[position]

    def read_move(self, position: int, text: str) -> int:
        """Read the name of the node to move to."""
        node = self._index.get(text)
        if node is None:
            raise InvalidMoveError(f"unknown node {quoted(text)}; nodes: {_listing(self.names)}")
        return node

    def write_move(self, position: int, move: int) -> str:
        """Write the name of the node moved to."""
        return self.names[move]

    def draw(self, position: int) -> str:
        """Say where the token is and where it can go."""
        targets = ", ".join(self.names[v] for v in self.successors[position]) or "nowhere"
        return f"at node {self.names[position]}; moves to {targets}"


def _reject_cycles(names: Sequence[str], successors: Sequence[Sequence[int]], source: str) -> None:
    """Raise :class:`InvalidGameError` naming a cycle if the graph has one.

    An iterative depth-first search colours nodes: 1 while on the path, 2 when done; an
    edge to a node on the path closes a cycle."""
    colour = bytearray(len(names))
    for root in range(len(names)):
        if colour[root]:
            continue
        colour[root] = 1
        path = [root]
        cursors = [0]
        while path:
            node = path[-1]
            nexts = successors[node]
            if cursors[-1] == len(nexts):
                colour[node] = 2
                path.pop()
                cursors.pop()
                continue
            child = nexts[cursors[-1]]
            cursors[-1] += 1
            if colour[child] == 1:
                loop = [*path[path.index(child) :], child]
                raise InvalidGameError(
                    f"{source}: the graph has a cycle through node {quoted(names[child])} "
                    f"({_listing([names[v] for v in loop], ' -> ')}); lines of play must end"
                )
            if colour[child] == 0:
                colour[child] = 1
                path.append(child)
                cursors.append(0)


def load_graph(
    path: str | os.PathLike[str] | GameText, *, start: str | int | None = None
) -> GraphGame:
    """Read a graph game from a JSON file (or an upload's :class:`GameText`).

    The file holds a list of edges ``[[u, v], ...]``, or an object with ``edges`` and
    optionally ``nodes`` and ``start`` (the ``start`` argument wins over the file's).
    Raises :class:`~zerosum.game.InvalidGameError` naming the file."""
    source = str(path) if isinstance(path, GameText) else os.fspath(path)
    text = read_game_file(path, "graph")
    return graph_from_json(text, start=start, source=source, name=Path(source).stem or "graph")


def graph_from_json(
    text: str, *, start: str | int | None = None, source: str = "graph", name: str = "graph"
) -> GraphGame:
    """Read a graph game from JSON ``text`` (the forms :func:`load_graph` reads)."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise InvalidGameError(f"{source}: the JSON is nested too deeply to read") from None
    except ValueError as error:
        raise InvalidGameError(f"{source}: not valid JSON: {error}") from None
    nodes = None
    if isinstance(data, dict):
        unknown = sorted(set(data) - {"edges", "nodes", "start", "_note", "_desc"})
        if unknown or "edges" not in data:
            raise InvalidGameError(
                f"{source}: a graph object has 'edges' and optionally 'nodes' and 'start'"
                + (f"; unknown key {unknown[0]!r}" if unknown else "")
            )
        nodes, edges = data.get("nodes"), data["edges"]
        if start is None and data.get("start") is not None:
            start = _node_name(data["start"], source)
        if nodes is not None and not isinstance(nodes, list):
            raise InvalidGameError(f"{source}: 'nodes' must be a list")
    else:
        edges = data
    if not isinstance(edges, list):
        raise InvalidGameError(f"{source}: the edges must be a list of [u, v] pairs")
    return GraphGame(edges, start=start, nodes=nodes, name=name, source=source)


_EDGE_TEXT = re.compile(r"([^\s,;>]+)>([^\s,;>]+)")

_EXAMPLE_EDGES = "a>b a>c b>c b>d c>e d>e d>f e>f"
"""The default graph: eight edges on six nodes, small enough to draw by hand."""


def graph(
    file: str | GameText | None = None, edges: str | None = None, start: str | int | None = None
) -> GraphGame:
    """Make a graph game from a JSON ``file``, or from ``edges`` written ``u>v`` and
    separated by spaces, commas or semicolons (``"a>b b>c"``); with neither, a small
    example graph. ``start`` names the start node."""
    if file is not None and edges is not None:
        raise InvalidGameError("give the graph as a file or as edges, not both")
    if file is not None:
        return load_graph(file, start=start)
    text = _EXAMPLE_EDGES if edges is None else str(edges)
    pairs = []
    for item in filter(None, re.split(r"[\s,;]+", re.sub(r"\s*>\s*", ">", text.strip()))):
        match = _EDGE_TEXT.fullmatch(item)
        if match is None:
            raise InvalidGameError(f"cannot read edge {quoted(item)} in {quoted(text)}: write u>v")
        pairs.append((match[1], match[2]))
    return GraphGame(pairs, start=start, source=f"edges {quoted(text)}")


# ----------------------------------------------------------------------------- maze

_MAZE_MAX_SIDE = 26
_SQUARE = re.compile(r"([a-z])([0-9]+)", re.ASCII)
_SLIDE = re.compile(r"(left|up)\s+([0-9]+)", re.ASCII)

_EXAMPLE_MAZE = ("..#...", "#....#", "...#..", ".#....", "......")
"""The default maze: rows from top to bottom, ``#`` a wall."""


class Maze(Impartial[int, int]):
    """The maze game: a figure slides any number of free squares left or up.

    ``rows`` are the maze's rows from top to bottom: ``.`` a floor square, ``#`` a wall,
    ``@`` the start square (a floor square). The figure cannot enter or cross a wall and
    the player who cannot move loses. Without ``@`` or ``start`` the figure starts in
    the bottom-right corner. Squares are numbered ``row * width + column``, row 0 at the
    top; moves are the squares moved to.

    Raises :class:`~zerosum.game.InvalidGameError` for a maze that is empty, not
    rectangular, wider or higher than 26, with characters other than ``.#@``, with
    several ``@`` or a start on a wall.
    """

    def __init__(
        self, rows: Sequence[str], *, start: str | None = None, source: str = "maze"
    ) -> None:
        rows = [row.strip() for row in rows if row.strip()]
        if not rows:
            raise InvalidGameError(f"{source}: the maze has no rows")
        width, height = len(rows[0]), len(rows)
        if any(len(row) != width for row in rows):
            raise InvalidGameError(f"{source}: every row of the maze must be {width} wide")
        if width > _MAZE_MAX_SIDE or height > _MAZE_MAX_SIDE:
            raise InvalidGameError(f"{source}: the maze is at most 26 by 26 squares")
        text = "".join(rows)
        strange = sorted(set(text) - set(".#@"))
        if strange:
            raise InvalidGameError(
                f"{source}: unknown square {strange[0]!r} in the maze: use '.', '#' and '@'"
            )
        if text.count("@") > 1:
            raise InvalidGameError(f"{source}: the maze marks more than one start '@'")
        self.width, self.height = width, height
        self.walls = frozenset(i for i, c in enumerate(text) if c == "#")
        self.successors: tuple[tuple[int, ...], ...] = tuple(
            self._slides(square) for square in range(width * height)
        )
        info = GameInfo(
            name="maze",
            title=f"maze game ({width}x{height})",
            impartial=True,
            board_size=(width, height),
            description="slide the figure left or up; the player who cannot move loses",
        )
        if start is not None:
            first = self.read_square(str(start).strip().lower(), source)
        elif "@" in text:
            first = text.index("@")
        else:
            first = width * height - 1
        if first in self.walls:
            raise InvalidGameError(
                f"{source}: the start square {self.square_name(first)} is a wall; give start"
            )
        super().__init__(info, first)

    def _slides(self, square: int) -> tuple[int, ...]:
        """The squares reachable from ``square``: left first, nearest first, then up."""
        if square in self.walls:
            return ()
        width = self.width
        row, column = divmod(square, width)
        reachable = []
        for step, count in ((-1, column), (-width, row)):
            target = square
            for _ in range(count):
                target += step
                if target in self.walls:
                    break
                reachable.append(target)
        return tuple(reachable)

    def square_name(self, square: int) -> str:
        """Name ``square`` by column letter and row counted from the bottom, like ``a1``."""
        row, column = divmod(square, self.width)
        return f"{chr(ord('a') + column)}{self.height - row}"

    def read_square(self, text: str, source: str) -> int:
        """Read a square name; raises :class:`~zerosum.game.InvalidGameError`."""
        try:
            return self._square(text)
        except ZerosumError as error:
            raise InvalidGameError(f"{source}: {error}") from None

    def _square(self, text: str) -> int:
        match = _SQUARE.fullmatch(text)
        if match is None:
            raise InvalidStateError(f"{quoted(text)} is not a square like 'a1'")
        column = ord(match[1]) - ord("a")
        row = self.height - int(match[2]) if len(match[2]) <= 3 else -1
        if not (0 <= column < self.width and 0 <= row < self.height):
            last = chr(ord("a") + self.width - 1)
            raise InvalidStateError(
                f"square {quoted(text)} is off the maze: columns a-{last}, rows 1-{self.height}"
            )
        return row * self.width + column

    def moves(self, position: int) -> tuple[int, ...]:
        """Return the squares the figure can slide to."""
        return self.successors[position]

    def after(self, position: int, move: int) -> int:
        """Return the square moved to."""
        return move

    def read_position(self, text: str) -> int:
        """Read the figure's square; it must be a floor square."""
        square = self._square(text.lower())
        if square in self.walls:
            raise InvalidStateError(f"square {quoted(text)} is a wall")
        return square

    def write_position(self, position: int) -> str:
        """Write the figure's square."""
        return self.square_name(position)

    def read_move(self, position: int, text: str) -> int:
        """Read the square moved to, or ``left N`` / ``up N``."""
        word = " ".join(text.lower().split())
        slide = _SLIDE.fullmatch(word)
        if slide is not None:
            distance = int(slide[2]) if len(slide[2]) <= 3 else self.width + self.height
            row, column = divmod(position, self.width)
            if slide[1] == "left":
                if not 0 < distance <= column:
                    raise IllegalMoveError(f"the figure cannot slide {distance} left")
                return position - distance
            if not 0 < distance <= row:
                raise IllegalMoveError(f"the figure cannot slide {distance} up")
            return position - distance * self.width
        try:
            return self._square(word)
        except InvalidStateError as error:
            raise InvalidMoveError(f"{error}, 'left N' or 'up N'") from None

    def write_move(self, position: int, move: int) -> str:
        """Write the square moved to."""
        return self.square_name(move)

    def draw(self, position: int) -> str:
        """Draw the maze with ``@`` for the figure and the rows numbered on the left."""
        width, walls = self.width, self.walls
        lines = []
        for row in range(self.height):
            cells = [
                "@" if square == position else "#" if square in walls else "."
                for square in range(row * width, row * width + width)
            ]
            lines.append(f"{self.height - row:>2} {' '.join(cells)}")
        lines.append("   " + " ".join(chr(ord("a") + c) for c in range(width)))
        return "\n".join(lines)


def maze(
    file: str | GameText | None = None, grid: str | None = None, start: str | None = None
) -> Maze:
    """Make a maze game from a text ``file`` or a ``grid`` of rows separated by ``/``
    (rows top to bottom; ``.`` floor, ``#`` wall, ``@`` start); with neither, a small
    example maze. ``start`` names the start square, like ``e1``."""
    if file is not None and grid is not None:
        raise InvalidGameError("give the maze as a file or as a grid, not both")
    if file is not None:
        text = read_game_file(file, "maze")
        return Maze(text.splitlines(), start=start, source=str(file))
    if grid is None:
        return Maze(_EXAMPLE_MAZE, start=start)
    return Maze(str(grid).split("/"), start=start, source=f"grid {quoted(str(grid))}")


# ----------------------------------------------------------------------------- report


@dataclass(frozen=True, slots=True)
class WinningMove:
    """A move that leaves the opponent lost: the move, its text and the position left."""

    move: Any
    text: str
    after: str


@dataclass(frozen=True, slots=True)
class GrundyReport:
    """What ``zerosum grundy`` prints about one position of an impartial game.

    ``value`` is the Grundy value (``None`` under misère play, where it does not decide
    the winner); ``to_move_wins`` says whether the player to move wins with best play;
    ``winning_moves`` lists every move that keeps the win, empty when the player to
    move loses."""

    game: str
    position: str
    value: int | None
    to_move_wins: bool
    winning_moves: tuple[WinningMove, ...]
    misere: bool = False

    @property
    def winner(self) -> str:
        """Who wins with best play: ``"the player to move"`` or ``"the other player"``."""
        return "the player to move" if self.to_move_wins else "the other player"


def report(game: Impartial[Any, Any], state: tuple[Any, Player]) -> GrundyReport:
    """Solve ``state`` of the impartial ``game`` and gather the answer as data.

    Under normal play the answer comes from Grundy values (a sum component by
    component). Under misère play it needs the game's own rule, ``is_losing(state)``;
    a misère game without one raises :class:`~zerosum.search.grundy.NotNormalPlayError`.
    """
    if game.misere:
        is_losing = getattr(game, "is_losing", None)
        if is_losing is None:
            raise NotNormalPlayError(
                f"game {game.info.name!r} is played misère and has no rule for its losing positions"
            )
        value = None
        to_move_wins = not is_losing(state)
        moves = [m for m in game.actions(state) if is_losing(game.result(state, m))]
    else:
        table: GrundyTable[tuple[Any, Player], Any] = GrundyTable(game)
        value = table.value(state)
        to_move_wins = value != 0
        moves = table.winning_moves(state)
    winning = tuple(
        WinningMove(m, game.format_move(state, m), game.write_position(game.result(state, m)[0]))
        for m in moves
    )
    return GrundyReport(
        game.info.name, game.write_position(state[0]), value, to_move_wins, winning, game.misere
    )
