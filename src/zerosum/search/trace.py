"""Recording a textbook search as data a page can draw, and drawing it as text.

:func:`record` runs one of the algorithms of :mod:`zerosum.search.reference` with a
:class:`Recorder` watching, and returns a :class:`Trace`: every node in the order the
search entered it, with its window, its value and the branches a cut-off skipped (with
the comparison that cut them and how many nodes they hold). :meth:`Trace.to_dict` turns it
into plain JSON data for the web app; :func:`render` draws it for a terminal::

    root  MAX  α=-∞ β=+∞  → 100
      A  MIN  α=-∞ β=+∞  → 100
        ...
        乙  MAX  α=-∞ β=100  → 10000
          10000  α=-∞ β=100  = 10000
          ✂ 15000  pruned: 10000 ≥ β=100  (1 node)

Values follow the algorithm: the max/min forms (``minimax``, ``alphabeta``) give every
value and window from the side of MAX, the player to move at the root; the negamax forms
give them for the side to move at each node. :attr:`Trace.orientation` says which.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Generic, TypeVar

from zerosum.game import INFINITY, Game, ZerosumError
from zerosum.search.reference import ALGORITHMS, SearchResult

__all__ = [
    "ROOT",
    "SIDE_TO_MOVE",
    "Cutoff",
    "InvalidTraceError",
    "PrunedMove",
    "Recorder",
    "Trace",
    "TraceNode",
    "TraceStats",
    "record",
    "render",
]

S = TypeVar("S")
A = TypeVar("A")

ROOT: Final = "root"
"""Orientation of the max/min forms: values and windows are for MAX, the root player."""

SIDE_TO_MOVE: Final = "side-to-move"
"""Orientation of the negamax forms: values and windows are for the side to move."""

_MAX_MIN_FORMS: Final = frozenset({"minimax", "alphabeta"})
_WINDOWED: Final = frozenset({"alphabeta", "negamax-ab"})
_BOUNDS: Final = ("alpha", "beta")


class InvalidTraceError(ZerosumError):
    """A dictionary given to :meth:`Trace.from_dict` does not describe a trace."""


@dataclass(frozen=True, slots=True)
class PrunedMove:
    """A move a cut-off skipped: its label and the number of nodes below it, itself
    included (``None`` when there were more than the recorder was willing to count)."""

    label: str
    size: int | None


@dataclass(frozen=True, slots=True)
class Cutoff:
    """Why a node stopped early, and what it skipped.

    ``bound`` says which end of the window ``value`` reached: ``"beta"`` for
    ``value ≥ β`` (a MAX node, or any node in negamax form), ``"alpha"`` for
    ``value ≤ α`` (a MIN node in max/min form)."""

    value: int
    alpha: int
    beta: int
    bound: str
    moves: tuple[PrunedMove, ...]

    def reason(self) -> str:
        """Write the comparison that made the cut, e.g. ``10000 ≥ β=100``."""
        if self.bound == "beta":
            return f"{_show(self.value)} ≥ β={_show(self.beta)}"
        return f"{_show(self.value)} ≤ α={_show(self.alpha)}"


@dataclass(frozen=True, slots=True)
class TraceNode:
    """One node the search entered.

    ``id`` is its place in visit order (the root is 0), ``parent`` its parent's id,
    ``move`` the label of the move that led here (``None`` at the root), ``player`` the
    player to move, ``window`` the (alpha, beta) it was entered with (``None`` for the
    algorithms without one), ``value`` what it returned (see :attr:`Trace.orientation`),
    ``leaf`` whether it was valued without expanding it, and ``cutoff`` the branches it
    skipped, if any."""

    id: int
    parent: int | None
    move: str | None
    depth: int
    player: int
    window: tuple[int, int] | None
    value: int
    leaf: bool
    cutoff: Cutoff | None = None


@dataclass(frozen=True, slots=True)
class TraceStats:
    """Counts of a recorded search: nodes entered, leaves valued, cut-offs made, and the
    nodes inside the skipped branches (``None`` when some branch was too big to count)."""

    nodes: int
    leaves: int
    cutoffs: int
    pruned: int | None


@dataclass(frozen=True, slots=True)
class Trace:
    """A recorded search: the algorithm, how its values are oriented (:data:`ROOT` or
    :data:`SIDE_TO_MOVE`), the depth limit, the root's value for the player to move at the
    root, the best line as move labels, every node in visit order and the counts."""

    game: str
    algorithm: str
    orientation: str
    depth: int | None
    root_value: int
    best_line: tuple[str, ...]
    nodes: tuple[TraceNode, ...]
    stats: TraceStats

    def to_dict(self) -> dict[str, Any]:
        """Return the trace as JSON-ready data: dicts, lists, strings, ints and None.

        The ends of an open window (``±INFINITY``) become the strings ``"-inf"`` and
        ``"+inf"``, the way a reader of the page thinks of them."""
        return {
            "game": self.game,
            "algorithm": self.algorithm,
            "orientation": self.orientation,
            "depth": self.depth,
            "root_value": _encode(self.root_value),
            "best_line": list(self.best_line),
            "stats": {
                "nodes": self.stats.nodes,
                "leaves": self.stats.leaves,
                "cutoffs": self.stats.cutoffs,
                "pruned": self.stats.pruned,
            },
            "nodes": [_node_dict(node) for node in self.nodes],
        }

    @classmethod
    def from_dict(cls, data: object) -> Trace:
        """Read back what :meth:`to_dict` wrote; raises :class:`InvalidTraceError`."""
        top = _Fields(data, "trace")
        trace = cls(
            game=top.text("game"),
            algorithm=top.choice("algorithm", tuple(ALGORITHMS)),
            orientation=top.choice("orientation", (ROOT, SIDE_TO_MOVE)),
            depth=top.optional_count("depth"),
            root_value=top.score("root_value"),
            best_line=tuple(top.texts("best_line")),
            nodes=tuple(_read_node(item, i) for i, item in enumerate(top.items("nodes"))),
            stats=_read_stats(top.get("stats")),
        )
        top.done()
        return trace


# --------------------------------------------------------------------------- recording


class Recorder(Generic[S, A]):
    """An :class:`~zerosum.search.reference.Observer` that writes down a search.

    It follows the walk with its own stack of states (the observer is told moves, not
    states). A skipped branch is measured with the game's ``subtree_size`` when the
    search has no depth limit and the game offers it; otherwise by walking it within
    the depth limit, giving up (size ``None``) past ``count_limit`` nodes."""

    def __init__(
        self,
        game: Game[S, A],
        state: S,
        algorithm: str = "alphabeta",
        depth: int | None = None,
        count_limit: int = 10_000,
    ) -> None:
        if algorithm not in ALGORITHMS:
            known = ", ".join(ALGORITHMS)
            raise ZerosumError(f"unknown algorithm {algorithm!r}; known algorithms: {known}")
        if count_limit < 1:
            raise ValueError(f"count limit must be 1 or more, not {count_limit}")
        self.game = game
        self.root = state
        self.algorithm = algorithm
        self.depth = depth
        self.count_limit = count_limit
        self.max_min = algorithm in _MAX_MIN_FORMS
        format_move = getattr(game, "format_move", None)
        self.label: Callable[[S, A], str] = format_move or (lambda _state, move: str(move))
        self.size: Callable[[S], int] | None = (
            getattr(game, "subtree_size", None) if depth is None else None
        )
        self.done: list[TraceNode] = []
        # The nodes entered and not yet left, root first, with their states and the cut
        # each has made so far; a node's value and cut-off are filled in when it is left.
        self.path: list[TraceNode] = []
        self.states: list[S] = []
        self.cuts: list[tuple[int, int, tuple[PrunedMove, ...]] | None] = []
        self.root_player = game.to_move(state)

    def enter(self, move: Any, window: tuple[int, int] | None) -> None:
        """Open a node: the root when ``move`` is None, else the child by ``move``."""
        depth = len(self.path)
        if depth:
            above = self.states[-1]
            state = self.game.result(above, move)
            parent: int | None = self.path[-1].id
            label: str | None = self.label(above, move)
        else:
            state, parent, label = self.root, None, None
        player = self.game.to_move(state)
        node_id = len(self.done) + depth
        self.path.append(TraceNode(node_id, parent, label, depth, player, window, 0, False))
        self.states.append(state)
        self.cuts.append(None)

    def prune(self, skipped: Sequence[Any], alpha: int, beta: int) -> None:
        """Note the moves the current node skips and the window that made it stop."""
        state = self.states[-1]
        remaining = None if self.depth is None else self.depth - self.path[-1].depth - 1
        result = self.game.result
        moves = tuple(
            PrunedMove(self.label(state, move), self._measure(result(state, move), remaining))
            for move in skipped
        )
        self.cuts[-1] = (alpha, beta, moves)

    def leave(self, value: int, leaf: bool) -> None:
        """Close the current node with its value."""
        node = self.path.pop()
        self.states.pop()
        cut = self.cuts.pop()
        cutoff = None
        if cut is not None:
            alpha, beta, moves = cut
            # MIN is whoever is not to move at the root, however the turns went
            at_min = self.max_min and node.player != self.root_player
            cutoff = Cutoff(value, alpha, beta, _BOUNDS[0] if at_min else _BOUNDS[1], moves)
        self.done.append(replace(node, value=value, leaf=leaf, cutoff=cutoff))

    def _measure(self, state: S, remaining: int | None) -> int | None:
        if self.size is not None:
            return self.size(state)
        game = self.game
        limit = self.count_limit
        count = 0
        stack = [(state, remaining)]
        while stack:
            state, left = stack.pop()
            count += 1
            if count > limit:
                return None
            if left == 0 or game.is_terminal(state):
                continue
            below = None if left is None else left - 1
            stack.extend((game.result(state, a), below) for a in game.actions(state))
        return count

    def trace(self, result: SearchResult[A]) -> Trace:
        """Return the :class:`Trace` of the finished search that produced ``result``."""
        nodes = tuple(sorted(self.done, key=lambda node: node.id))
        line = []
        state = self.root
        for move in result.pv:
            line.append(self.label(state, move))
            state = self.game.result(state, move)
        cut = [node.cutoff for node in nodes if node.cutoff is not None]
        sizes = [pruned.size for c in cut for pruned in c.moves]
        stats = TraceStats(
            nodes=len(nodes),
            leaves=sum(node.leaf for node in nodes),
            cutoffs=len(cut),
            pruned=None if None in sizes else sum(s for s in sizes if s is not None),
        )
        return Trace(
            game=self.game.info.name,
            algorithm=self.algorithm,
            orientation=ROOT if self.max_min else SIDE_TO_MOVE,
            depth=self.depth,
            root_value=result.score,
            best_line=tuple(line),
            nodes=nodes,
            stats=stats,
        )


def record(
    game: Game[S, A],
    state: S,
    algorithm: str = "alphabeta",
    depth: int | None = None,
    *,
    count_limit: int = 10_000,
) -> Trace:
    """Search ``state`` with the reference ``algorithm`` (a name of
    :data:`~zerosum.search.reference.ALGORITHMS`) and return what it did as a
    :class:`Trace`. The search's own errors (a depth limit without ``evaluate``, a line
    too deep to recurse) pass through."""
    recorder = Recorder(game, state, algorithm, depth, count_limit)
    result = ALGORITHMS[algorithm](game, state, depth, recorder)
    return recorder.trace(result)


# --------------------------------------------------------------------------- rendering


def _show(score: int) -> str:
    if score >= INFINITY:
        return "+∞"
    if score <= -INFINITY:
        return "-∞"
    return str(score)


def _count(number: int, noun: str) -> str:
    if number == 1:
        return f"1 {noun}"
    return f"{number} {'leaves' if noun == 'leaf' else noun + 's'}"


def render(trace: Trace) -> str:
    """Draw ``trace`` as an indented tree, one node a line, children under parents.

    A line shows the move, MAX or MIN (max/min forms), the window on entry (alpha-beta),
    and the value (``=`` for a leaf, ``→`` for a value backed up from children). After a
    node's children come the branches it cut, marked ``✂`` with the comparison that cut
    them and the number of nodes skipped."""
    stats = trace.stats
    limit = "" if trace.depth is None else f" to depth {trace.depth}"
    side = (
        "values for MAX, the player to move at the root"
        if trace.orientation == ROOT
        else "values for the side to move at each node"
    )
    pruned = "an unknown number of nodes" if stats.pruned is None else _count(stats.pruned, "node")
    lines = [
        f"{trace.algorithm}{limit} on {trace.game}: value {_show(trace.root_value)}, "
        f"best line {' '.join(trace.best_line) or '(none)'}",
        f"{_count(stats.nodes, 'node')}, {_count(stats.leaves, 'leaf')}, "
        f"{_count(stats.cutoffs, 'cut-off')}, {pruned} pruned; {side}",
    ]
    waiting: list[TraceNode] = []  # nodes whose cut branches follow their subtree
    for node in trace.nodes:
        while waiting and waiting[-1].depth >= node.depth:
            lines.extend(_cut_lines(waiting.pop()))
        lines.append(_node_line(trace, node))
        if node.cutoff is not None:
            waiting.append(node)
    while waiting:
        lines.extend(_cut_lines(waiting.pop()))
    return "\n".join(lines)


def _node_line(trace: Trace, node: TraceNode) -> str:
    parts = ["  " * node.depth + ("root" if node.move is None else node.move)]
    if trace.orientation == ROOT and not node.leaf:
        parts.append("MAX" if node.player == trace.nodes[0].player else "MIN")
    if node.window is not None:
        alpha, beta = node.window
        parts.append(f"α={_show(alpha)} β={_show(beta)}")
    parts.append(("= " if node.leaf else "→ ") + _show(node.value))
    return "  ".join(parts)


def _cut_lines(node: TraceNode) -> list[str]:
    assert node.cutoff is not None  # only nodes with a cut-off wait for these lines
    indent = "  " * (node.depth + 1)
    reason = node.cutoff.reason()
    lines = []
    for move in node.cutoff.moves:
        size = "too many nodes to count" if move.size is None else _count(move.size, "node")
        lines.append(f"{indent}✂ {move.label}  pruned: {reason}  ({size})")
    return lines


# --------------------------------------------------------------------------- to and from dicts


def _encode(score: int) -> int | str:
    if score >= INFINITY:
        return "+inf"
    if score <= -INFINITY:
        return "-inf"
    return score


def _node_dict(node: TraceNode) -> dict[str, Any]:
    cut = node.cutoff
    return {
        "id": node.id,
        "parent": node.parent,
        "move": node.move,
        "depth": node.depth,
        "player": node.player,
        "window": None if node.window is None else [_encode(end) for end in node.window],
        "value": _encode(node.value),
        "leaf": node.leaf,
        "cutoff": None
        if cut is None
        else {
            "value": _encode(cut.value),
            "alpha": _encode(cut.alpha),
            "beta": _encode(cut.beta),
            "bound": cut.bound,
            "moves": [{"label": m.label, "size": m.size} for m in cut.moves],
        },
    }


class _Fields:
    """Checked reading of one JSON object; every complaint names where it is."""

    def __init__(self, data: object, where: str) -> None:
        if not isinstance(data, dict):
            raise InvalidTraceError(f"{where} must be an object, not {type(data).__name__}")
        self.data: dict[Any, Any] = data
        self.where = where
        self.seen: set[str] = set()

    def fail(self, key: str, problem: str) -> InvalidTraceError:
        return InvalidTraceError(f"{self.where}: {key!r} {problem}")

    def get(self, key: str) -> object:
        if key not in self.data:
            raise InvalidTraceError(f"{self.where}: {key!r} is missing")
        self.seen.add(key)
        return self.data[key]

    def done(self) -> None:
        extra = sorted(map(repr, self.data.keys() - self.seen))
        if extra:
            raise InvalidTraceError(f"{self.where}: unknown key {extra[0]}")

    def text(self, key: str) -> str:
        value = self.get(key)
        if not isinstance(value, str):
            raise self.fail(key, f"must be a string, not {value!r}")
        return value

    def optional_text(self, key: str) -> str | None:
        return None if self.get(key) is None else self.text(key)

    def choice(self, key: str, allowed: tuple[str, ...]) -> str:
        value = self.text(key)
        if value not in allowed:
            raise self.fail(key, f"must be one of {', '.join(allowed)}, not {value!r}")
        return value

    def count(self, key: str) -> int:
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self.fail(key, f"must be a whole number, not {value!r}")
        return value

    def optional_count(self, key: str) -> int | None:
        return None if self.get(key) is None else self.count(key)

    def flag(self, key: str) -> bool:
        value = self.get(key)
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {value!r}")
        return value

    def score(self, key: str) -> int:
        return _decode(self.get(key), lambda problem: self.fail(key, problem))

    def items(self, key: str) -> list[Any]:
        value = self.get(key)
        if not isinstance(value, list):
            raise self.fail(key, f"must be a list, not {type(value).__name__}")
        return value

    def texts(self, key: str) -> list[str]:
        values = self.items(key)
        if not all(isinstance(v, str) for v in values):
            raise self.fail(key, "must be a list of strings")
        return values


def _decode(value: object, fail: Callable[[str], InvalidTraceError]) -> int:
    if value == "+inf":
        return INFINITY
    if value == "-inf":
        return -INFINITY
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(f"must be an integer, '-inf' or '+inf', not {value!r}")
    return value


def _read_node(data: object, index: int) -> TraceNode:
    fields = _Fields(data, f"node {index}")
    node_id = fields.count("id")
    if node_id != index:
        raise fields.fail("id", f"must be {index}, the node's place in the list, not {node_id}")
    parent = fields.optional_count("parent")
    if (parent is None) != (index == 0) or (parent is not None and parent >= index):
        raise fields.fail("parent", f"must name a node visited earlier, not {parent!r}")
    window = fields.get("window")
    if window is not None:
        if not isinstance(window, list) or len(window) != 2:
            raise fields.fail("window", f"must be null or [alpha, beta], not {window!r}")
        alpha, beta = (_decode(end, lambda p: fields.fail("window", p)) for end in window)
        window = (alpha, beta)
    cut = fields.get("cutoff")
    node = TraceNode(
        id=node_id,
        parent=parent,
        move=fields.optional_text("move"),
        depth=fields.count("depth"),
        player=_player(fields),
        window=window,
        value=fields.score("value"),
        leaf=fields.flag("leaf"),
        cutoff=None if cut is None else _read_cutoff(cut, index),
    )
    fields.done()
    return node


def _player(fields: _Fields) -> int:
    player = fields.count("player")
    if player > 1:
        raise fields.fail("player", f"must be 0 or 1, not {player}")
    return player


def _read_cutoff(data: object, index: int) -> Cutoff:
    fields = _Fields(data, f"node {index} cutoff")
    moves = []
    for i, item in enumerate(fields.items("moves")):
        move = _Fields(item, f"node {index} cutoff move {i}")
        moves.append(PrunedMove(move.text("label"), move.optional_count("size")))
        move.done()
    cutoff = Cutoff(
        value=fields.score("value"),
        alpha=fields.score("alpha"),
        beta=fields.score("beta"),
        bound=fields.choice("bound", _BOUNDS),
        moves=tuple(moves),
    )
    fields.done()
    return cutoff


def _read_stats(data: object) -> TraceStats:
    fields = _Fields(data, "stats")
    stats = TraceStats(
        nodes=fields.count("nodes"),
        leaves=fields.count("leaves"),
        cutoffs=fields.count("cutoffs"),
        pruned=fields.optional_count("pruned"),
    )
    fields.done()
    return stats
