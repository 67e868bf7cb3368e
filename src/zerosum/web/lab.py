"""The alpha-beta lab: a recorded textbook search, ready to be stepped through on a page.

:func:`run_lab` takes what the page sends (a named tree, a pasted JSON tree, or a game
spec with a position and a depth limit; and an algorithm) and returns plain data: the
:class:`~zerosum.search.trace.Trace` as a dict, the search as a list of events (enter a
node, cut at a node, leave a node) for stepping one at a time, the branches each cut-off
skipped as small trees (so the page can draw them greyed), and the number of nodes plain
minimax visits on the same problem, for the counters side by side. The search may run on
the problem's tree with its children reordered (see :data:`ORDERS`).

:func:`compare_lab` answers the lab's experiments on one problem: minimax and alpha-beta
recorded side by side with the nodes alpha-beta pruned matched on the minimax tree, and
alpha-beta's node counts with the children in their own order, best first and worst
first, next to the size of the minimal tree of Knuth and Moore (1975).

Everything is bounded, since the input comes from a browser: a search that enters more
than :data:`MAX_TRACE_NODES` nodes is refused with :class:`TraceTooLargeError`, skipped
branches are drawn node by node only up to :data:`MAX_PRUNED_DRAWN` nodes in all (bigger
ones become one node carrying their size), and the minimax count gives up past
:data:`MAX_MINIMAX_COUNT`. The function takes and returns plain data, so that it could run in a
worker process as well as in a thread.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from importlib import resources
from typing import Any, Final

from zerosum.game import InvalidStateError, ZerosumError, describe_state
from zerosum.games.files import GameText
from zerosum.games.tree import EXAMPLES, TreeGame, example
from zerosum.notation import parse_move
from zerosum.search.reference import ALGORITHMS, alphabeta, minimax
from zerosum.search.trace import Recorder, Trace, TraceNode, record
from zerosum.web.sessions import Recipe, make_game

__all__ = [
    "MAX_DEPTH",
    "MAX_MINIMAX_COUNT",
    "MAX_PRUNED_DRAWN",
    "MAX_TRACE_NODES",
    "ORDERS",
    "TraceTooLargeError",
    "compare_lab",
    "events",
    "run_lab",
]

MAX_TRACE_NODES: Final = 5000
"""The most nodes a recorded search may enter; a page cannot show more usefully."""

MAX_PRUNED_DRAWN: Final = 400
"""The most nodes of skipped branches drawn one by one in a trace."""

MAX_MINIMAX_COUNT: Final = 200_000
"""Plain minimax is counted up to this many nodes, then reported as more."""

MAX_DEPTH: Final = 12
"""The deepest depth limit the lab accepts for a game position."""

ORDERS: Final = ("original", "best-first", "worst-first")
"""The orders the lab searches a tree's children in: as the game lists them, or sorted by
each child's minimax value for the player to move at its parent, best or worst first."""

_COUNT_LIMIT: Final = 2000
"""How far the recorder counts inside one skipped branch before saying "too many"."""


class TraceTooLargeError(ZerosumError):
    """The search would enter more nodes than the lab draws."""


class _BudgetExceededError(Exception):
    """Raised inside plain minimax when it passes the counting limit."""


class _LabRecorder(Recorder[Any, Any]):
    """A recorder that refuses to grow past a size and keeps the skipped branches whole."""

    def __init__(self, game: Any, state: Any, algorithm: str, depth: int | None) -> None:
        super().__init__(game, state, algorithm, depth, count_limit=_COUNT_LIMIT)
        self.pruned: dict[int, list[dict[str, Any]]] = {}
        self.drawable = MAX_PRUNED_DRAWN

    def enter(self, move: Any, window: tuple[int, int] | None) -> None:
        """Open a node, or refuse once the search has entered too many."""
        if len(self.done) + len(self.path) >= MAX_TRACE_NODES:
            raise TraceTooLargeError(
                f"the {self.algorithm} search enters more than {MAX_TRACE_NODES} nodes, too "
                f"many to draw; choose a smaller tree, a later position or a lower depth"
            )
        super().enter(move, window)

    def prune(self, skipped: Sequence[Any], alpha: int, beta: int) -> None:
        """Note the cut as the recorder does, and the shape of each skipped branch."""
        super().prune(skipped, alpha, beta)
        state = self.states[-1]
        node = self.path[-1]
        remaining = None if self.depth is None else self.depth - node.depth - 1
        label = self.label
        self.pruned[node.id] = [
            self._branch(self.game.result(state, move), label(state, move), remaining)
            for move in skipped
        ]

    def _branch(self, state: Any, label: str, remaining: int | None) -> dict[str, Any]:
        """The skipped subtree at ``state`` as nested dicts, within the drawing budget.

        A branch that does not fit is one node whose ``hidden`` says how many nodes it
        stands for (``None``: too many to count)."""
        size = self._measure(state, remaining)
        if size is None or size > self.drawable:
            return {"label": label, "children": [], "hidden": size}
        self.drawable -= size
        game = self.game
        moves = self.label

        def grow(state: Any, label: str, left: int | None) -> dict[str, Any]:
            kids: list[dict[str, Any]] = []
            if left != 0 and not game.is_terminal(state):
                below = None if left is None else left - 1
                kids = [
                    grow(game.result(state, move), moves(state, move), below)
                    for move in game.actions(state)
                ]
            return {"label": label, "children": kids, "hidden": 0}

        return grow(state, label, remaining)


class _Counter:
    """An observer counting nodes entered, giving up past a limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.nodes = 0

    def enter(self, move: Any, window: tuple[int, int] | None) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise _BudgetExceededError

    def leave(self, value: int, leaf: bool) -> None:
        """Nothing to note."""

    def prune(self, skipped: Sequence[Any], alpha: int, beta: int) -> None:
        """Nothing to note: minimax never prunes."""


def events(nodes: Sequence[TraceNode]) -> list[dict[str, Any]]:
    """Return the search as steps: ``enter`` each node, ``cut`` where a node stopped
    early (just before it is left) and ``leave`` each node once its value is known.

    The nodes come in visit order (preorder), so a node is left when the next node to
    enter is no deeper than it, and every open node is left at the end."""
    steps: list[dict[str, Any]] = []
    open_nodes: list[TraceNode] = []

    def close(node: TraceNode) -> None:
        if node.cutoff is not None:
            steps.append({"kind": "cut", "node": node.id})
        steps.append({"kind": "leave", "node": node.id})

    for node in nodes:
        while open_nodes and open_nodes[-1].depth >= node.depth:
            close(open_nodes.pop())
        steps.append({"kind": "enter", "node": node.id})
        open_nodes.append(node)
    while open_nodes:
        close(open_nodes.pop())
    return steps


def _problem(request: dict[str, Any]) -> tuple[Any, Any, int | None, str, str]:
    """Make the game, the root state, the depth limit, a title and a description."""
    depth: int | None = request.get("depth")
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        raise ZerosumError(f"depth limit must be 1 to {MAX_DEPTH}, not {depth}")
    if request.get("example") is not None:
        name = request["example"]
        if name not in EXAMPLES:
            raise ZerosumError(f"no example tree {name!r}; the examples are {', '.join(EXAMPLES)}")
        tree = example(name)
        return tree, tree.initial_state(), depth, tree.info.title, tree.info.description
    if request.get("tree") is not None:
        pasted = TreeGame.from_json(request["tree"], source="the pasted tree", name="pasted")
        title = pasted.info.title if pasted.info.title != "pasted" else "Pasted tree"
        return pasted, pasted.initial_state(), depth, title, pasted.info.description
    spec: str = request["game"]
    upload = request.get("upload")
    game = make_game(Recipe(spec, None if upload is None else GameText(**upload)))
    position = request.get("position")
    if position:
        parse_state = getattr(game, "parse_state", None)
        if parse_state is None:
            raise InvalidStateError(
                f"game {spec!r} cannot read positions; give the moves from the start instead"
            )
        state = parse_state(position)
    else:
        state = game.initial_state()
    for text in request.get("moves") or ():
        state = game.result(state, parse_move(game, state, text))
    where = describe_state(game, state)
    return game, state, depth, game.info.title, f"Position: {where}"


def _checked_problem(request: dict[str, Any]) -> tuple[Any, Any, int | None, str, str]:
    """Do :func:`_problem`, refusing a finished game: it has nothing to search."""
    game, state, depth, title, description = _problem(request)
    if game.is_terminal(state):
        raise InvalidStateError(
            f"the game is over in {describe_state(game, state)}: there is nothing to search"
        )
    return game, state, depth, title, description


def _minimax_trace(game: Any, state: Any, depth: int | None) -> Trace:
    """Record plain minimax on the problem: the whole tree, every node's exact value."""
    recorder = _LabRecorder(game, state, "minimax", depth)
    return recorder.trace(minimax(game, state, depth, recorder))


_NO_REORDERING = (
    "{game} lets a player move twice running, which a tree of alternating levels cannot "
    "show: its searches keep the game's own order"
)


def _alternates(trace: Trace) -> bool:
    """Whether the players of ``trace`` alternate level by level, as a tree's do."""
    nodes = trace.nodes
    return all(node.parent is None or nodes[node.parent].player != node.player for node in nodes)


def _ordered(trace: Trace, order: str) -> dict[str, Any]:
    """The tree a minimax ``trace`` walked, as a tree for :class:`TreeGame` (leaves valued
    for MAX, every node labelled with its move), children in ``order`` (one of
    :data:`ORDERS`).

    Each node's children are sorted by their minimax values as the player to move at
    the node sees them: high first at MAX nodes for best first, low first at MIN nodes.
    The sort is stable, so equal children keep the order the game gave them."""
    items: list[dict[str, Any]] = []
    values: dict[int, int] = {}
    if not _alternates(trace):
        raise ZerosumError(_NO_REORDERING.format(game=trace.game))
    for node in trace.nodes:
        item: dict[str, Any] = {} if node.move is None else {"label": node.move}
        if node.leaf:
            item["value"] = node.value
        else:
            item["children"] = []
        items.append(item)
        values[id(item)] = node.value
        if node.parent is not None:
            items[node.parent]["children"].append(item)
    if order != ORDERS[0]:
        best_first = order == ORDERS[1]
        for node, item in zip(trace.nodes, items, strict=True):
            if not node.leaf:
                maximising = node.player == trace.nodes[0].player
                item["children"].sort(
                    key=lambda kid: values[id(kid)], reverse=maximising == best_first
                )
    return items[0]


def _minimal_tree(tree: dict[str, Any]) -> tuple[int, int]:
    """Count the nodes and leaves of the minimal tree of ``tree`` (Knuth and Moore 1975):
    the critical nodes, which alpha-beta visits exactly when every node's best child
    comes first. In a uniform tree with no two leaves equal no order visits fewer; in
    a ragged one, an order that puts a small but good enough child first can.

    The root is of type 1; a type-1 node's first child is of type 1 and its others of
    type 2; a type-2 node needs only its first child, of type 3; all the children of a
    type-3 node are needed, each of type 2."""
    nodes = leaves = 0
    stack = [(tree, 1)]
    while stack:
        item, kind = stack.pop()
        nodes += 1
        kids = item.get("children")
        if not kids:
            leaves += 1
        elif kind == 1:
            stack.append((kids[0], 1))
            stack.extend((kid, 2) for kid in kids[1:])
        elif kind == 2:
            stack.append((kids[0], 3))
        else:
            stack.extend((kid, 2) for kid in kids)
    return nodes, leaves


def _uniform(trace: Trace) -> dict[str, int] | None:
    """The branching factor b and depth d of a uniform tree (every inner node with b
    children, every leaf at depth d) with the leaf count of its minimal tree,
    ``b**ceil(d/2) + b**floor(d/2) - 1``; None when the tree is not uniform."""
    counts: dict[int, int] = {}
    for node in trace.nodes:
        if node.parent is not None:
            counts[node.parent] = counts.get(node.parent, 0) + 1
    branching = set(counts.values())
    depths = {node.depth for node in trace.nodes if node.leaf}
    if len(branching) != 1 or len(depths) != 1:
        return None
    (b,), (d,) = branching, depths
    return {"branching": b, "depth": d, "leaves": b ** math.ceil(d / 2) + b ** (d // 2) - 1}


def _paths(trace: Trace) -> list[tuple[str | None, ...]]:
    """Each node's line of moves from the root, by node id."""
    paths: list[tuple[str | None, ...]] = []
    for node in trace.nodes:
        paths.append(() if node.parent is None else (*paths[node.parent], node.move))
    return paths


def _tree_text(request: dict[str, Any]) -> str | None:
    """The JSON text of the tree searched, for the page's editor; None for a game."""
    if request.get("example") is not None:
        folder = resources.files("zerosum.games").joinpath("trees")
        return folder.joinpath(f"{request['example']}.json").read_text(encoding="utf-8")
    tree: str | None = request.get("tree")
    return tree


def run_lab(request: dict[str, Any]) -> dict[str, Any]:
    """Record the search ``request`` asks for and return it as data for the page.

    ``request`` holds exactly one of ``example`` (an example tree's name), ``tree`` (a
    tree as JSON text) or ``game`` (a spec, with an optional ``position`` and ``moves``,
    and an ``upload`` ``{"name", "text"}`` for a game read from a file; the game is made
    as a stranger may, see :func:`~zerosum.web.sessions.make_game`), plus
    ``algorithm``, an optional ``depth`` limit and an ``order`` of :data:`ORDERS`: other
    than ``"original"``, the search runs on the tree plain minimax walks (to the depth
    limit) with its children sorted that way. The answer's ``tree`` is the JSON text of
    the tree searched, for the page's editor (None for a game in its own order). Raises
    the game's errors for bad input, :class:`TraceTooLargeError` for a search too big to
    draw, and :class:`~zerosum.game.MissingCapabilityError` when a depth limit is
    reached in a game that cannot evaluate positions."""
    algorithm = request.get("algorithm", "alphabeta")
    if algorithm not in ALGORITHMS:
        raise ZerosumError(
            f"unknown algorithm {algorithm!r}; known algorithms: {', '.join(ALGORITHMS)}"
        )
    order = request.get("order") or ORDERS[0]
    if order not in ORDERS:
        raise ZerosumError(f"unknown order {order!r}; the orders are {', '.join(ORDERS)}")
    game, state, depth, title, description = _checked_problem(request)
    players = list(game.info.players)
    render = getattr(game, "render", None)
    position = render(state) if render is not None and request.get("game") else None
    tree_text = _tree_text(request)
    if order != ORDERS[0]:
        tree = _ordered(_minimax_trace(game, state, depth), order)
        tree_text = json.dumps(tree, ensure_ascii=False, separators=(",", ":"))
        # the tree's MAX is player 0: name the players as the game's root player sees them
        mover = game.to_move(state)
        players = [players[mover], players[1 - mover]]
        game, state, depth = (
            TreeGame(tree, name=game.info.name, source=f"the {order} tree"),
            0,
            None,
        )
        title = f"{title} ({order.replace('-', ' ')})"
        description = (
            f"{description} Children reordered {order.replace('-', ' ')} by their "
            f"minimax values for the player to move."
        ).strip()
    recorder = _LabRecorder(game, state, algorithm, depth)
    result = ALGORITHMS[algorithm](game, state, depth, recorder)
    trace: Trace = recorder.trace(result)
    counter = _Counter(MAX_MINIMAX_COUNT)
    try:
        minimax_nodes: int | None = minimax(game, state, depth, counter).stats.nodes
    except _BudgetExceededError:
        minimax_nodes = None
    return {
        "title": title,
        "description": description,
        "position": position,
        "players": players,
        "order": order,
        "tree": tree_text,
        "trace": trace.to_dict(),
        "events": events(trace.nodes),
        "pruned": {str(node): branches for node, branches in recorder.pruned.items()},
        "minimax_nodes": minimax_nodes,
        "minimax_limit": MAX_MINIMAX_COUNT,
    }


def compare_lab(request: dict[str, Any]) -> dict[str, Any]:
    """Run the lab's experiments on the problem ``request`` names (as for
    :func:`run_lab`; its ``algorithm`` and ``order`` play no part) and return them as
    data for the page.

    ``minimax`` and ``alphabeta`` are the two recorded searches (traces as dicts);
    ``twins`` gives, for each minimax node in order, the id of the alpha-beta node at
    the same line of moves, or None where alpha-beta pruned it. ``orders`` holds
    alpha-beta's counts (``nodes``, ``leaves``, ``cutoffs``) for each of :data:`ORDERS`,
    ``minimal`` the counts of the minimal tree, which best first meets, and
    ``uniform`` the branching factor, depth and minimal leaf count
    ``b**ceil(d/2) + b**floor(d/2) - 1`` of a uniform tree (None for others). A game
    where a player may move twice running has no reordered trees: ``orders`` holds its
    own order alone, ``minimal`` is None and ``note`` says why. Raises
    as :func:`run_lab` does; the minimax search must fit in :data:`MAX_TRACE_NODES`."""
    game, state, depth, title, description = _checked_problem(request)
    plain = _minimax_trace(game, state, depth)
    pruning = record(game, state, "alphabeta", depth, count_limit=_COUNT_LIMIT)
    found = {path: node for node, path in enumerate(_paths(pruning))}
    twins = [found.get(path) for path in _paths(plain)]
    stats = pruning.stats
    orders = [
        {"order": ORDERS[0], "nodes": stats.nodes, "leaves": stats.leaves, "cutoffs": stats.cutoffs}
    ]
    if not _alternates(plain):
        return {
            "title": title,
            "description": description,
            "players": list(game.info.players),
            "minimax": plain.to_dict(),
            "alphabeta": pruning.to_dict(),
            "twins": twins,
            "orders": orders,
            "minimal": None,
            "note": _NO_REORDERING.format(game=game.info.title),
            "uniform": None,
        }
    best = _ordered(plain, ORDERS[1])
    reordered = {ORDERS[1]: best, ORDERS[2]: _ordered(plain, ORDERS[2])}
    for order, tree in reordered.items():
        counts = alphabeta(TreeGame(tree, source=f"the {order} tree"), 0).stats
        orders.append(
            {
                "order": order,
                "nodes": counts.nodes,
                "leaves": counts.leaves,
                "cutoffs": counts.cutoffs,
            }
        )
    nodes, leaves = _minimal_tree(best)
    return {
        "title": title,
        "description": description,
        "players": list(game.info.players),
        "minimax": plain.to_dict(),
        "alphabeta": pruning.to_dict(),
        "twins": twins,
        "orders": orders,
        "minimal": {"nodes": nodes, "leaves": leaves},
        "uniform": _uniform(plain),
    }
