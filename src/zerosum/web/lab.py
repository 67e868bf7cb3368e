"""The alpha-beta lab: a recorded textbook search, ready to be stepped through on a page.

:func:`run_lab` takes what the page sends (a named tree, a pasted JSON tree, or a game
spec with a position and a depth limit; and an algorithm) and returns plain data: the
:class:`~zerosum.search.trace.Trace` as a dict, the search as a list of events (enter a
node, cut at a node, leave a node) for stepping one at a time, the branches each cut-off
skipped as small trees (so the page can draw them greyed), and the number of nodes plain
minimax visits on the same problem, for the counters side by side.

Everything is bounded, since the input comes from a browser: a search that enters more
than :data:`MAX_TRACE_NODES` nodes is refused with :class:`TraceTooLargeError`, skipped
branches are drawn node by node only up to :data:`MAX_PRUNED_DRAWN` nodes in all (bigger
ones become one node carrying their size), and the minimax count gives up past
:data:`MAX_MINIMAX_COUNT`. The function takes and returns plain data, so that it could run in a
worker process as well as in a thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from zerosum.game import InvalidStateError, ZerosumError, describe_state
from zerosum.games.files import GameText
from zerosum.games.tree import EXAMPLES, TreeGame, example
from zerosum.notation import parse_move
from zerosum.search.reference import ALGORITHMS, minimax
from zerosum.search.trace import Recorder, Trace, TraceNode
from zerosum.web.sessions import Recipe, make_game

__all__ = [
    "MAX_DEPTH",
    "MAX_MINIMAX_COUNT",
    "MAX_PRUNED_DRAWN",
    "MAX_TRACE_NODES",
    "TraceTooLargeError",
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


def run_lab(request: dict[str, Any]) -> dict[str, Any]:
    """Record the search ``request`` asks for and return it as data for the page.

    ``request`` holds exactly one of ``example`` (an example tree's name), ``tree`` (a
    tree as JSON text) or ``game`` (a spec, with an optional ``position`` and ``moves``,
    and an ``upload`` ``{"name", "text"}`` for a game read from a file; the game is made
    as a stranger may, see :func:`~zerosum.web.sessions.make_game`), plus
    ``algorithm`` and an optional ``depth`` limit. Raises the game's errors for bad
    input, :class:`TraceTooLargeError` for a search too big to draw, and
    :class:`~zerosum.game.MissingCapabilityError` when a depth limit is reached in a
    game that cannot evaluate positions."""
    algorithm = request.get("algorithm", "alphabeta")
    if algorithm not in ALGORITHMS:
        raise ZerosumError(
            f"unknown algorithm {algorithm!r}; known algorithms: {', '.join(ALGORITHMS)}"
        )
    game, state, depth, title, description = _problem(request)
    if game.is_terminal(state):
        raise InvalidStateError(
            f"the game is over in {describe_state(game, state)}: there is nothing to search"
        )
    recorder = _LabRecorder(game, state, algorithm, depth)
    result = ALGORITHMS[algorithm](game, state, depth, recorder)
    trace: Trace = recorder.trace(result)
    counter = _Counter(MAX_MINIMAX_COUNT)
    try:
        minimax_nodes: int | None = minimax(game, state, depth, counter).stats.nodes
    except _BudgetExceededError:
        minimax_nodes = None
    render = getattr(game, "render", None)
    return {
        "title": title,
        "description": description,
        "position": render(state) if render is not None and request.get("game") else None,
        "players": list(game.info.players),
        "trace": trace.to_dict(),
        "events": events(trace.nodes),
        "pruned": {str(node): branches for node, branches in recorder.pruned.items()},
        "minimax_nodes": minimax_nodes,
        "minimax_limit": MAX_MINIMAX_COUNT,
    }
