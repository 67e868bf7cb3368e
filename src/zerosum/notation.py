"""The checked, user-facing layer for any game, with or without its own notation.

A game needs only the six protocol methods and an ``info``; its notation
(``parse_move``, ``format_move``, ``parse_state``, ``format_state``, ``render``) is
optional. The interfaces that show moves and positions to people (the terminal, the
arena's records, the browser app) read and write them through this module, which uses
the game's own methods where it has them and falls back where a fallback is sound:

* a move is written with ``format_move``, else with ``str``;
* a typed move is read with ``parse_move``, else matched to the legal move written the
  same way, so that every move a person is shown can be typed back;
* a position is written with ``format_state``, else ``str``; it is drawn with
  ``render``, else written.

Reading a position has no fallback (``str`` of a state cannot be read back):
:func:`parse_state` raises :class:`~zerosum.game.MissingCapabilityError` for a game
without ``parse_state``, as every other missing capability does, never ``AttributeError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zerosum.game import (
    IllegalMoveError,
    MissingCapabilityError,
    describe_state,
    quoted,
)

__all__ = [
    "format_move",
    "format_state",
    "move_formatter",
    "parse_move",
    "parse_state",
    "play",
    "render",
]

_LISTED_MOVES = 20
"""How many legal moves an error message lists before it only counts the rest."""


def move_formatter(game: Any) -> Callable[[Any, Any], str]:
    """Return how ``game`` writes a move: its ``format_move``, else ``str`` of the move.

    Look it up once and call it per move, as the search does with its hooks."""
    formatter: Callable[[Any, Any], str] | None = getattr(game, "format_move", None)
    return formatter if formatter is not None else _plain


def _plain(_state: Any, move: Any) -> str:
    return str(move)


def format_move(game: Any, state: Any, move: Any) -> str:
    """Write ``move`` (legal in ``state``) in the game's notation, else with ``str``."""
    return move_formatter(game)(state, move)


def _listing(labels: list[str]) -> str:
    shown = ", ".join(labels[:_LISTED_MOVES])
    rest = len(labels) - _LISTED_MOVES
    return f"{shown} and {rest} more" if rest > 0 else shown


def parse_move(game: Any, state: Any, text: str) -> Any:
    """Read ``text`` as a legal move of ``game`` in ``state``, checked.

    A game with ``parse_move`` reads the text itself and raises its own
    :class:`~zerosum.game.InvalidMoveError` or :class:`~zerosum.game.IllegalMoveError`;
    otherwise the text (spaces around it ignored) must be how a legal move is written
    (:func:`format_move`). Either way the move is checked against ``actions(state)``, so
    a lenient parser cannot let an illegal move through. Raises
    :class:`~zerosum.game.IllegalMoveError` naming the text and the state, also when
    the game is over, and :class:`~zerosum.game.MissingCapabilityError` when two legal
    moves are written alike (the game needs its own notation then)."""
    if game.is_terminal(state):
        raise IllegalMoveError(
            f"illegal move {quoted(text)}: the game is over in {describe_state(game, state)}"
        )
    legal = list(game.actions(state))
    reader = getattr(game, "parse_move", None)
    if reader is not None:
        move = reader(state, text)
        if move in legal:
            return move
        raise IllegalMoveError(f"illegal move {quoted(text)} in {describe_state(game, state)}")
    label = move_formatter(game)
    labels = [label(state, move) for move in legal]
    wanted = text.strip()
    matches = [move for move, written in zip(legal, labels, strict=True) if written == wanted]
    if len(matches) > 1:
        raise MissingCapabilityError(
            f"game {game.info.name!r} writes {len(matches)} legal moves as {quoted(wanted)} "
            f"in {describe_state(game, state)}: it needs format_move and parse_move"
        )
    if not matches:
        raise IllegalMoveError(
            f"illegal move {quoted(text)} in {describe_state(game, state)}: the legal moves "
            f"are {_listing(labels)}"
        )
    return matches[0]


def play(game: Any, state: Any, text: str) -> Any:
    """Apply the move written as ``text`` to ``state``, checked (see :func:`parse_move`)."""
    return game.result(state, parse_move(game, state, text))


def parse_state(game: Any, text: str) -> Any:
    """Read a position with the game's ``parse_state``.

    Raises :class:`~zerosum.game.MissingCapabilityError` for a game that cannot read
    positions, and whatever the game raises (:class:`~zerosum.game.InvalidStateError`)
    for text that is not one."""
    reader = getattr(game, "parse_state", None)
    if reader is None:
        raise MissingCapabilityError(
            f"game {game.info.name!r} cannot read a position (it has no parse_state): "
            f"start from its first position, or after moves"
        )
    return reader(text)


def format_state(game: Any, state: Any) -> str:
    """Write ``state`` in the game's notation (``format_state``), else with ``str``."""
    writer = getattr(game, "format_state", None)
    return str(writer(state)) if writer is not None else str(state)


def render(game: Any, state: Any) -> str:
    """Draw ``state`` for a person: the game's ``render``, else :func:`format_state`."""
    drawer = getattr(game, "render", None)
    return str(drawer(state)) if drawer is not None else format_state(game, state)
