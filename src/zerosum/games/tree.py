"""Explicit game trees: a game whose states are the nodes of a tree given as data.

The textbook pictures of minimax and alpha-beta are small trees with numbers at the
leaves. :class:`TreeGame` makes such a tree a real game, so that every algorithm in
:mod:`zerosum.search` can run on it and every step can be checked by hand.

A tree is written as nested lists or as JSON. An inner node is a list of children, or an
object ``{"label": str, "children": [...], "estimate": int}`` (label and estimate
optional); a leaf is an integer, or ``{"label": str, "value": int}``. The root player
(player 0) maximises: a leaf's value is player 0's payoff and player 1 gets its negative.
An ``estimate`` is a heuristic value of an inner node from player 0's side, used when a
depth-limited search stops there. The root object may also carry a ``"title"`` and a
``"description"`` for the interfaces.

The tree is stored as flat tuples indexed by node number, in preorder (the root is 0 and
a node's subtree is the range ``node .. node + subtree_size(node) - 1``); a state is a
node number. Parsing walks the input with an explicit stack, so a tree nested deeper than
Python's recursion limit loads; the recursive textbook searches then refuse it with
:class:`~zerosum.search.reference.SearchDepthError`.

The root is labelled ``"root"`` unless the input names it. Other nodes without a label
get one from their path: children are numbered from 1, so the root's second child is
``"2"`` and that node's first child ``"2.1"``; under a labelled node ``A`` they are
``"A.1"``, ``"A.2"``... Labels must be unique among siblings (given and generated ones
alike), non-empty, without surrounding spaces or control characters, and without ``>``.
A move is written as the child's label (or its position among its siblings) and a state
as the path of labels from the root, e.g. ``"root > A > 甲"``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any, Final

from zerosum.game import (
    WIN_THRESHOLD,
    GameInfo,
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    MissingCapabilityError,
    Player,
    quoted,
)
from zerosum.games.files import read_game_file

__all__ = ["EXAMPLES", "TreeGame", "example", "load_tree"]

EXAMPLES: Final = ("night-market", "night-market-2", "aima-5.2")
"""The names of the example trees shipped in ``zerosum/games/trees/``."""

_NODE_KEYS: Final = frozenset({"label", "children", "estimate"})
_LEAF_KEYS: Final = frozenset({"label", "value"})
_ROOT_KEYS: Final = frozenset({"title", "description"})
_SEPARATOR: Final = " > "
_MAX_POSITION_DIGITS: Final = 9  # no node has a billion children; longer numbers are junk
_SHOWN_PATH: Final = 80
"""How much of a path or a list of moves an error message shows: labels are input."""
_LISTED_MOVES: Final = 12
_BIG_BITS: Final = 128  # an out-of-range number this wide is shown by its size, not digits


def _clipped(text: str) -> str:
    """Return ``text`` for an error message as it is, or quoted and cut if it is long."""
    return text if len(text) <= _SHOWN_PATH else quoted(text, _SHOWN_PATH)


def _integer(raw: object) -> int | None:
    """Return ``raw`` as an int if it is an integer (or an integral float), else None."""
    if isinstance(raw, bool):  # bool is an int subclass, but True is not a score
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    return None


def _label_problem(label: object) -> str | None:
    """Say what is wrong with a label, or return None when it is usable."""
    if not isinstance(label, str):
        return f"label must be a string, not {type(label).__name__} {quoted(label)}"
    if not label:
        return "label is empty"
    if label != label.strip() or not label.isprintable():
        return f"label {quoted(label)} has surrounding spaces or control characters"
    if ">" in label:
        return f"label {quoted(label)} contains '>', which separates the steps of a path"
    return None


def _is_position(text: str) -> bool:
    """Tell whether ``text`` is a 1-based position small enough to convert safely."""
    return text.isascii() and text.isdigit() and len(text) <= _MAX_POSITION_DIGITS and int(text) > 0


def _reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Build a JSON object, refusing a key given twice (json would keep the last)."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise InvalidGameError(f"key {quoted(key)} appears twice in one JSON object")
        result[key] = value
    return result


def _path_label(
    given: Sequence[str | None], parents: Sequence[int], positions: Sequence[int], node: int
) -> str:
    """Return the label of ``node``: its own, or one generated from its path.

    Generated labels are made on demand because a chain of unlabelled nodes has labels
    that grow with depth: storing them all would take space quadratic in the depth."""
    tail = []
    own = given[node]
    while own is None:
        tail.append(str(positions[node]))
        node = parents[node]
        own = given[node]
    if not tail:
        return own
    numbers = ".".join(reversed(tail))
    return numbers if node == 0 else f"{own}.{numbers}"  # the root's name is no prefix


class _Builder:
    """Turns the nested input into flat per-node lists, with an explicit stack."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.children: list[list[int]] = []
        self.given: list[str | None] = []  # the labels written in the input
        self.positions: list[int] = []  # 1-based place among siblings (0 for the root)
        self.values: list[int] = []
        self.estimates: list[int | None] = []
        self.depths: list[int] = []
        self.parents: list[int] = []
        self.index: dict[int, dict[str, int]] = {}  # given label -> child position, by node
        self.suspects: set[int] = set()  # nodes whose given labels may clash with generated ones
        self.title: str | None = None
        self.description: str | None = None

    def fail(self, node: int, problem: str) -> InvalidGameError:
        steps = []  # a node is named by its label if it has one, else by its position
        while node > 0:
            own = self.given[node]
            steps.append(str(self.positions[node]) if own is None else own)
            node = self.parents[node]
        steps.append(self.given[0] or "root")
        path = _clipped(_SEPARATOR.join(reversed(steps)))
        return InvalidGameError(f"{self.source}: at {path}: {problem}")

    def number(self, node: int, raw: object, what: str) -> int:
        value = _integer(raw)
        if value is None:
            kind = type(raw).__name__
            raise self.fail(node, f"{what} must be an integer, not {kind} {quoted(raw)}")
        if abs(value) >= WIN_THRESHOLD:
            bits = value.bit_length()
            shown = str(value) if bits <= _BIG_BITS else f"of {bits:,} bits"
            raise self.fail(node, f"{what} {shown} is out of range (|{what}| < {WIN_THRESHOLD})")
        return value

    def build(self, tree: object) -> None:
        # An entry is (input, parent, position), or (container, -2, 0) marking the end
        # of a container's subtree: the containers still open are the current path, and
        # meeting one of them again means a Python list that contains itself.
        stack: list[tuple[object, int, int]] = [(tree, -1, 0)]
        open_containers: set[int] = set()
        while stack:
            raw, parent, position = stack.pop()
            if parent == -2:
                open_containers.discard(id(raw))
                continue
            node = len(self.parents)
            self.parents.append(parent)
            self.positions.append(position)
            self.depths.append(0 if parent < 0 else self.depths[parent] + 1)
            self.children.append([])
            self.values.append(0)
            self.estimates.append(None)
            self.given.append(None)
            kids = self.read_node(node, raw, parent)
            if parent >= 0:
                self.attach(node, parent, position)
            if kids is not None:
                if id(raw) in open_containers:
                    raise self.fail(node, "the tree contains itself (a cycle)")
                open_containers.add(id(raw))
                stack.append((raw, -2, 0))
                stack.extend((kid, node, i) for i, kid in reversed(list(enumerate(kids, 1))))
        if self.given[0] is None:
            self.given[0] = "root"
        self.check_generated_labels()

    def read_node(self, node: int, raw: object, parent: int) -> Sequence[object] | None:
        """Fill in ``node`` from ``raw``; return its children, or None for a leaf."""
        if isinstance(raw, dict):
            return self.read_object(node, raw, parent)
        if isinstance(raw, (list, tuple)):
            return self.checked_children(node, raw)
        self.values[node] = self.number(node, raw, "leaf value")
        return None

    def read_object(self, node: int, raw: dict[Any, Any], parent: int) -> Sequence[object] | None:
        if "label" in raw:
            label = raw["label"]
            problem = _label_problem(label)
            if problem is not None:
                raise self.fail(node, problem)
            self.given[node] = label
        if parent < 0:
            for key in _ROOT_KEYS & raw.keys():
                if not isinstance(raw[key], str):
                    raise self.fail(node, f"{key!r} must be a string, not {quoted(raw[key])}")
            self.title = raw.get("title")
            self.description = raw.get("description")
        allowed = _ROOT_KEYS if parent < 0 else frozenset()
        if "children" in raw:
            allowed |= _NODE_KEYS
            kind = "an inner node"
        elif "value" in raw:
            allowed |= _LEAF_KEYS
            kind = "a leaf"
        else:
            raise self.fail(node, "a node object needs 'children' (inner node) or 'value' (leaf)")
        unknown = sorted(map(quoted, raw.keys() - allowed))
        if unknown:
            raise self.fail(node, f"unknown key {unknown[0]} in {kind}")
        if "value" in raw:
            self.values[node] = self.number(node, raw["value"], "leaf value")
            return None
        if "estimate" in raw:
            self.estimates[node] = self.number(node, raw["estimate"], "estimate")
        kids = raw["children"]
        if not isinstance(kids, (list, tuple)):
            raise self.fail(node, f"'children' must be a list, not {type(kids).__name__}")
        return self.checked_children(node, kids)

    def checked_children(self, node: int, kids: Sequence[object]) -> Sequence[object]:
        if not kids:
            raise self.fail(node, "empty child list")
        return kids

    def attach(self, node: int, parent: int, position: int) -> None:
        self.children[parent].append(node)
        label = self.given[node]
        if label is None:
            return
        siblings = self.index.setdefault(parent, {})
        if label in siblings:
            raise self.fail(
                node, f"duplicate label {quoted(label)} among the children of its parent"
            )
        siblings[label] = position - 1
        last = label.rpartition(".")[2]
        if last.isascii() and last.isdigit():
            self.suspects.add(parent)

    def check_generated_labels(self) -> None:
        """Refuse a given label equal to the generated label of an unlabelled sibling."""
        for parent in sorted(self.suspects):
            siblings = self.index[parent]
            kids = self.children[parent]
            if len(siblings) == len(kids):
                continue
            for kid in kids:
                if self.given[kid] is not None:
                    continue
                label = _path_label(self.given, self.parents, self.positions, kid)
                other = siblings.get(label)
                if other is not None:
                    later = max(kid, kids[other])
                    raise self.fail(
                        later, f"duplicate label {quoted(label)} among the children of its parent"
                    )


class TreeGame:
    """A game played on an explicit tree; a state is a node number (the root is 0).

    ``tree`` is nested lists or the JSON-like value described in the module docstring;
    ``name`` goes into :attr:`info`, and ``source`` names the input in error messages.
    Malformed input raises :class:`~zerosum.game.InvalidGameError` naming the source and
    the path of the bad node."""

    __slots__ = (
        "_actions",
        "_children",
        "_depths",
        "_estimates",
        "_given",
        "_given_set",
        "_index",
        "_label_lengths",
        "_parents",
        "_positions",
        "_sizes",
        "_values",
        "info",
    )

    info: GameInfo

    def __init__(self, tree: object, name: str = "tree", source: str = "tree") -> None:
        builder = _Builder(source)
        builder.build(tree)
        children = tuple(map(tuple, builder.children))
        by_count: dict[int, tuple[int, ...]] = {}  # one actions tuple per branching factor
        self._actions = tuple(by_count.setdefault(len(c), tuple(range(len(c)))) for c in children)
        self._children = children
        self._given = tuple(builder.given)
        self._given_set = frozenset(label for label in self._given if label is not None)
        self._label_lengths = frozenset(map(len, self._given_set))
        self._positions = tuple(builder.positions)
        self._values = tuple(builder.values)
        self._estimates = tuple(builder.estimates)
        self._depths = tuple(builder.depths)
        self._parents = tuple(builder.parents)
        self._index = builder.index
        self._sizes, solved = self._summarise()
        leaf_values = [v for v, c in zip(self._values, children, strict=True) if not c]
        self.info = GameInfo(
            name=name,
            title=builder.title or name,
            players=("max", "min"),
            utility_range=(min(leaf_values), max(leaf_values)),
            win_loss=False,
            solved_value=solved,
            description=builder.description or "",
        )

    def _summarise(self) -> tuple[tuple[int, ...], int]:
        """Return every subtree's size and the root's minimax value, bottom-up.

        Children come after their parent in preorder, so one backward pass sees every
        child before its parent and needs no recursion."""
        count = len(self._children)
        sizes = [1] * count
        value = list(self._values)
        for node in range(count - 1, -1, -1):
            kids = self._children[node]
            if kids:
                sizes[node] += sum(sizes[k] for k in kids)
                pick = max if self._depths[node] % 2 == 0 else min
                value[node] = pick(value[k] for k in kids)
        return tuple(sizes), value[0]

    @classmethod
    def from_json(cls, text: str, source: str = "tree", name: str = "tree") -> TreeGame:
        """Read a tree from JSON ``text``; ``source`` names it in error messages."""
        try:
            tree = json.loads(text, object_pairs_hook=_reject_duplicate_keys)
        except InvalidGameError as error:
            raise InvalidGameError(f"{source}: {error}") from None
        except RecursionError:
            raise InvalidGameError(f"{source}: the JSON is nested too deeply to read") from None
        except ValueError as error:  # JSONDecodeError, or an integer too long to convert
            raise InvalidGameError(f"{source}: not valid JSON: {error}") from None
        return cls(tree, name=name, source=source)

    # ------------------------------------------------------------------ the protocol

    def initial_state(self) -> int:
        """Return the root, node 0."""
        return 0

    def to_move(self, state: int) -> Player:
        """Return the player to move: 0 at even depths (maximising), 1 at odd depths."""
        return self._depths[state] & 1

    def actions(self, state: int) -> tuple[int, ...]:
        """Return the child positions ``0 .. k-1`` of ``state`` (empty at a leaf)."""
        return self._actions[state]

    def result(self, state: int, action: int) -> int:
        """Return the node reached by taking child position ``action``; unchecked."""
        return self._children[state][action]

    def is_terminal(self, state: int) -> bool:
        """Tell whether ``state`` is a leaf."""
        return not self._children[state]

    def utility(self, state: int, player: Player) -> int:
        """Return the leaf's value for ``player``: as written for 0, negated for 1."""
        value = self._values[state]
        return -value if player else value

    def evaluate(self, state: int) -> int:
        """Return the node's estimate (a leaf's value) for the side to move.

        Raises :class:`~zerosum.game.MissingCapabilityError` naming the node when an
        inner node has no ``estimate``."""
        if self._children[state]:
            estimate = self._estimates[state]
            if estimate is None:
                raise MissingCapabilityError(
                    f"node {self.format_state(state)!r} of tree {self.info.name!r} has no "
                    f"estimate; give it one or search without a depth limit"
                )
        else:
            estimate = self._values[state]
        return -estimate if self._depths[state] & 1 else estimate

    def key(self, state: int) -> int:
        """Return the node number, which identifies the position and the side to move."""
        return state

    def subtree_size(self, state: int) -> int:
        """Return the number of nodes in the subtree under ``state``, itself included."""
        return self._sizes[state]

    def label(self, state: int) -> str:
        """Return the label of node ``state``, given or generated from its path."""
        return _path_label(self._given, self._parents, self._positions, state)

    def _child_label(self, parent: int, parent_label: str, child: int) -> str:
        own = self._given[child]
        if own is not None:
            return own
        position = str(self._positions[child])
        return position if parent == 0 else f"{parent_label}.{position}"

    # ------------------------------------------------------------------ notation

    def format_move(self, state: int, action: int) -> str:
        """Write the move to child position ``action`` as the child's label."""
        child = self._children[state][action]
        if self._given[child] is not None or state == 0:
            return self._child_label(state, "", child)
        return self._child_label(state, self.label(state), child)

    def parse_move(self, state: int, text: str) -> int:
        """Read a child's label, or its 1-based position among its siblings, as a move.

        A label wins over a position when a child is labelled with a number. Raises
        :class:`~zerosum.game.InvalidMoveError` for text that cannot name a node here or
        anywhere in the tree, and :class:`~zerosum.game.IllegalMoveError` at a leaf or
        for a label or position that is not a child here."""
        return self._parse_move(state, text, None)

    def _parse_move(self, state: int, text: str, here: str | None) -> int:
        """Do :meth:`parse_move`, given the label of ``state`` when the caller knows it."""
        word = text.strip()
        if not word or not word.isprintable() or ">" in word:
            raise InvalidMoveError(
                f"{quoted(text)} is not a move (a child's label or position) at "
                f"{self._shown_state(state)}"
            )
        children = self._children[state]
        if not children:
            raise IllegalMoveError(
                f"no move {quoted(text)}: {self._shown_state(state)} is a leaf, the game is over"
            )
        found = self._index.get(state, {}).get(word)
        if found is not None:
            return found
        head, dot, tail = word.rpartition(".")
        if _is_position(tail):
            position = int(tail)
            generated = position <= len(children) and self._given[children[position - 1]] is None
            if generated and (
                (state == 0 and not dot)
                or (dot and head == (self.label(state) if here is None else here))
            ):
                return position - 1
        if _is_position(word) and 1 <= int(word) <= len(children):
            return int(word) - 1
        if self._label_shaped(word):
            moves = self._actions[state]
            choices = ", ".join(self.format_move(state, a) for a in moves[:_LISTED_MOVES])
            more = ", ..." if len(moves) > _LISTED_MOVES else ""
            raise IllegalMoveError(
                f"no move {quoted(text)} at {self._shown_state(state)}: "
                f"its {len(children)} children are {_clipped(choices + more)}"
            )
        raise InvalidMoveError(
            f"{quoted(text)} is not a move at {self._shown_state(state)}: "
            f"no node of this tree has that label"
        )

    def _shown_state(self, state: int) -> str:
        """The path of ``state`` quoted for an error message, cut if it is long."""
        return quoted(self.format_state(state), _SHOWN_PATH)

    def _label_shaped(self, word: str) -> bool:
        """Tell whether ``word`` is a position or could be a label somewhere in the tree:
        a given label, or numbers joined by dots after a given label or a number.

        It walks the dots from the right and looks a head up only when a given label
        has its length, so a long word costs linear time, not a slice per dot."""
        given = self._given_set
        if word in given:
            return True
        lengths = self._label_lengths
        end = len(word)
        while True:
            dot = word.rfind(".", 0, end)
            tail = word[dot + 1 : end]
            if not (tail.isascii() and tail.isdigit()):
                return False
            if dot < 0 or (dot in lengths and word[:dot] in given):
                return True
            end = dot

    def format_state(self, state: int) -> str:
        """Write ``state`` as the path of labels from the root, e.g. ``root > A > 甲``."""
        parents = self._parents
        path = []
        while state >= 0:
            path.append(state)
            state = parents[state]
        path.reverse()
        labels = [self.label(0)]
        for parent, node in pairwise(path):
            labels.append(self._child_label(parent, labels[-1], node))
        return _SEPARATOR.join(labels)

    def parse_state(self, text: str) -> int:
        """Read a path of labels (or positions) from the root, as :meth:`format_state` writes.

        Raises :class:`~zerosum.game.InvalidStateError` naming the text and the step that
        does not lead anywhere."""
        steps = [step.strip() for step in text.split(">")]
        here = self.label(0)
        if steps[0] != here:
            raise InvalidStateError(
                f"{quoted(text)} is not a node: a path starts at the root {quoted(here)}"
            )
        node = 0
        for step in steps[1:]:
            try:
                child = self._children[node][self._parse_move(node, step, here)]
            except (InvalidMoveError, IllegalMoveError) as error:
                raise InvalidStateError(f"{quoted(text)} is not a node: {error}") from None
            here = self._child_label(node, here, child)
            node = child
        return node

    def render(self, state: int) -> str:
        """Draw the subtree under ``state`` as indented text, one node a line.

        Inner nodes show who moves there (max or min) and any estimate; leaves show their
        value (after the label when the label is not the value itself)."""
        base = self._depths[state]
        lines = []
        labels: list[str] = []  # the labels on the path to the current node, by depth
        for node in range(state, state + self._sizes[state]):  # a subtree is a preorder range
            depth = self._depths[node] - base
            if depth:
                label = self._child_label(self._parents[node], labels[depth - 1], node)
            else:
                label = self.label(node)
            del labels[depth:]
            labels.append(label)
            indent = "  " * depth
            if self._children[node]:
                side = "min" if self._depths[node] & 1 else "max"
                estimate = self._estimates[node]
                note = "" if estimate is None else f", estimate {estimate}"
                lines.append(f"{indent}{label}  [{side}{note}]")
            else:
                value = str(self._values[node])
                lines.append(f"{indent}{value}" if label == value else f"{indent}{label} = {value}")
        return "\n".join(lines)


def load_tree(path: str | os.PathLike[str], name: str | None = None) -> TreeGame:
    """Read a tree from a JSON file; errors name the file. ``name`` defaults to its stem."""
    source = os.fspath(path)
    text = read_game_file(path, "tree")
    return TreeGame.from_json(text, source=source, name=name or Path(path).stem)


def example(name: str = "night-market") -> TreeGame:
    """Return the example tree called ``name`` (one of :data:`EXAMPLES`)."""
    if name not in EXAMPLES:
        known = ", ".join(EXAMPLES)
        raise InvalidGameError(f"no example tree {quoted(str(name))}; the examples are {known}")
    file = resources.files("zerosum.games").joinpath("trees").joinpath(f"{name}.json")
    return TreeGame.from_json(file.read_text(encoding="utf-8"), source=f"{name}.json", name=name)
