"""Games in play: a bounded, per-owner store of sessions and their JSON pictures.

Nothing here knows about HTTP. A :class:`Session` is one game between a person and the
engine: the game, the states from the start (so undo is a pop: states are values), who
plays which side and how long the engine may think. :class:`SessionStore` keeps at most
``capacity`` of them and drops the least recently used, so memory stays bounded whatever
clients do. Every session belongs to the owner token that created it; another owner
asking for it is told it does not exist, exactly as for an id never issued.

The page learns everything from :func:`session_view`: the board (when the game offers
``board(state)``), the text picture, the legal moves as text, the move list and the
result. The app has no code for any particular game: a game appears in it by being in
:mod:`zerosum.games.registry`.
"""

from __future__ import annotations

import inspect
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from zerosum.game import (
    IllegalMoveError,
    InvalidGameError,
    ZerosumError,
    describe_state,
    is_win_score,
    outcome,
    plies_to_end,
)
from zerosum.games import registry

__all__ = [
    "BusyError",
    "Session",
    "SessionStore",
    "UnknownGameError",
    "UnknownSessionError",
    "game_catalogue",
    "make_game",
    "move_label",
    "resolve_move",
    "score_text",
    "session_view",
]

_MAX_SPEC = 200
"""The longest game spec accepted; real ones are a few dozen characters."""


class UnknownGameError(InvalidGameError):
    """A game spec names no registered game (the app answers 404)."""


class UnknownSessionError(ZerosumError):
    """No session with this id belongs to the asker (the app answers 404)."""


class BusyError(ZerosumError):
    """The request conflicts with the session's state: the engine is thinking, it is not
    the person's turn, or there is nothing to undo (the app answers 409)."""


@lru_cache(maxsize=64)
def make_game(spec: str) -> Any:
    """Make the game named by ``spec`` (``name[:key=value,...]``), shared between sessions.

    Games hold no per-game mutable state (the engine keeps its own), so one object per
    spec serves every session. Raises :class:`UnknownGameError` for an unregistered name
    and :class:`~zerosum.game.InvalidGameError` for bad options."""
    if len(spec) > _MAX_SPEC:
        raise InvalidGameError(f"game spec is {len(spec)} characters long; at most {_MAX_SPEC}")
    name, _ = registry.parse_spec(spec)
    if name not in registry.names():
        known = ", ".join(registry.names())
        raise UnknownGameError(f"unknown game {name!r}; known games: {known}")
    return registry.make(spec)


@lru_cache(maxsize=1)
def game_catalogue() -> tuple[dict[str, Any], ...]:
    """Describe every registered game for the page: name, summary and options.

    Options come from the factory's signature, so a new registry entry shows up with its
    options and nothing else to write. An entry whose module fails to import is listed
    with its error instead of hiding the others."""
    games = []
    for item in registry.ENTRIES:
        described: dict[str, Any] = {"name": item.name, "summary": item.summary}
        try:
            parameters = inspect.signature(item.factory()).parameters.values()
        except Exception as error:  # one broken game must not take the list down
            described["error"] = f"{type(error).__name__}: {error}"
            described["options"] = []
        else:
            described["options"] = [
                {
                    "name": p.name,
                    "default": None if p.default is inspect.Parameter.empty else p.default,
                }
                for p in parameters
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
            ]
        games.append(described)
    return tuple(games)


def move_label(game: Any) -> Callable[[Any, Any], str]:
    """Return how ``game`` writes a move: its ``format_move``, else ``str`` of the move."""
    formatter: Callable[[Any, Any], str] | None = getattr(game, "format_move", None)
    return formatter if formatter is not None else (lambda _state, move: str(move))


def resolve_move(game: Any, state: Any, text: str) -> Any:
    """Read ``text`` as a legal move of ``game`` in ``state``, checked.

    Games with ``parse_move`` read it themselves and raise their own errors; otherwise the
    text must equal the label of a legal move. Either way the move is checked against
    ``actions(state)``, so a lenient parser cannot smuggle in an illegal move."""
    where = describe_state(game, state)
    if game.is_terminal(state):
        raise IllegalMoveError(f"illegal move {text!r}: the game is over in {where}")
    legal = game.actions(state)
    parse = getattr(game, "parse_move", None)
    if parse is not None:
        move = parse(state, text)
        if move in legal:
            return move
    else:
        label = move_label(game)
        for move in legal:
            if label(state, move) == text:
                return move
    raise IllegalMoveError(f"illegal move {text!r} in {where}")


def score_text(score: int | None, win_loss: bool) -> str:
    """Write an engine score for a person: ``win in 3``, ``loss in 4``, ``+12``, ``0``.

    Scores are for the side to move; a game scored in points shows the points."""
    if score is None:
        return "?"
    if win_loss and is_win_score(score):
        plies = plies_to_end(score)
        unit = "ply" if plies == 1 else "plies"
        return f"{'win' if score > 0 else 'loss'} in {plies} {unit}"
    return f"{score:+d}" if score else "0"


@dataclass(slots=True)
class Session:
    """One game between a person and the engine.

    ``states`` runs from the start to the current position and ``moves`` holds the text
    of each move made; ``human`` is the side the person plays; ``think`` is the engine's
    time per move in seconds. ``version`` grows with every change, so a search started
    before an undo knows its answer is stale. ``search`` is the running search, if any
    (the app's object; this module only tests it for ``None``); ``analysis`` is the last
    engine report shown to the person."""

    id: str
    owner: str
    spec: str
    game: Any
    human: int
    think: float
    states: list[Any]
    moves: list[str] = field(default_factory=list)
    version: int = 0
    search: Any = None
    analysis: dict[str, Any] | None = None
    hint: str | None = None

    @property
    def state(self) -> Any:
        """The current position."""
        return self.states[-1]

    def turn(self) -> str:
        """Say whose turn it is: ``"human"``, ``"engine"`` or ``"over"``."""
        game, state = self.game, self.state
        if game.is_terminal(state):
            return "over"
        return "human" if game.to_move(state) == self.human else "engine"

    def play(self, text: str) -> str:
        """Play the person's move written as ``text``; return its label.

        Raises :class:`BusyError` while the engine thinks or when it is not the person's
        turn, and the game's own move errors for a bad or illegal move."""
        if self.search is not None:
            raise BusyError("the engine is thinking; wait for its move")
        turn = self.turn()
        if turn == "engine":
            raise BusyError(f"it is the engine's turn, not yours, in {self.where()}")
        move = resolve_move(self.game, self.state, text)
        return self.push(move)

    def push(self, move: Any) -> str:
        """Apply the legal ``move`` (already checked); return its label."""
        state = self.state
        text = move_label(self.game)(state, move)
        self.states.append(self.game.result(state, move))
        self.moves.append(text)
        self.version += 1
        self.hint = None
        return text

    def undo(self) -> None:
        """Take back the person's last move and the engine's replies after it.

        Raises :class:`BusyError` when the person has made no move yet."""
        game = self.game
        movers = [game.to_move(s) for s in self.states[:-1]]
        if self.human not in movers:
            raise BusyError("nothing to undo: you have not moved yet")
        last = len(movers) - 1 - movers[::-1].index(self.human)
        del self.states[last + 1 :]
        del self.moves[last:]
        self.version += 1
        self.analysis = None
        self.hint = None

    def where(self) -> str:
        """Name the current position for error messages."""
        return describe_state(self.game, self.state)


def session_view(session: Session) -> dict[str, Any]:
    """Return everything the page shows about ``session`` as JSON-ready data."""
    game, state = session.game, session.state
    info = game.info
    label = move_label(game)
    over = game.is_terminal(state)
    legal = [] if over else [label(state, move) for move in game.actions(state)]
    movers = [game.to_move(s) for s in session.states[:-1]]
    render = getattr(game, "render", None)
    view: dict[str, Any] = {
        "id": session.id,
        "spec": session.spec,
        "game": {
            "name": info.name,
            "title": info.title,
            "description": info.description,
            "players": list(info.players),
        },
        "human": session.human,
        "think": session.think,
        "to_move": game.to_move(state),
        "turn": session.turn(),
        "thinking": session.search is not None,
        "legal": legal,
        "moves": [
            {"text": text, "player": player, "by": "you" if player == session.human else "engine"}
            for text, player in zip(session.moves, movers, strict=True)
        ],
        "board": _board_view(game, state),
        "text": render(state) if render is not None else describe_state(game, state),
        "result": None,
        "analysis": session.analysis,
        "hint": session.hint,
    }
    ended = outcome(game, state) if over else None
    if ended is not None:
        winner = ended.winner
        view["result"] = {
            "winner": winner,
            "score": ended.result(),
            "text": "draw" if winner is None else f"{info.players[winner]} wins",
            "for_you": "draw" if winner is None else ("win" if winner == session.human else "loss"),
        }
    return view


def _board_view(game: Any, state: Any) -> dict[str, Any] | None:
    board = getattr(game, "board", None)
    if board is None:
        return None
    picture = board(state)
    label = move_label(game)
    return {
        "width": picture.width,
        "height": picture.height,
        "cells": list(picture.cells),
        "targets": {str(cell): label(state, move) for cell, move in picture.targets.items()},
        "last": picture.last,
    }


class SessionStore:
    """At most ``capacity`` sessions, the least recently used dropped first.

    ``on_evict`` is told of every session dropped, so that its search can be stopped."""

    def __init__(
        self, capacity: int = 1000, on_evict: Callable[[Session], None] | None = None
    ) -> None:
        if capacity < 1:
            raise ValueError(f"a session store needs room for 1 session or more, not {capacity}")
        self.capacity = capacity
        self.on_evict = on_evict
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self.created = 0
        self.evicted = 0

    def __len__(self) -> int:
        return len(self._sessions)

    def create(self, owner: str, spec: str, game: Any, human: int, think: float) -> Session:
        """Start a new game of ``game`` (made from ``spec``) for ``owner``."""
        if human not in (0, 1):
            raise ZerosumError(f"side must be 0 (first) or 1 (second), not {human!r}")
        session = Session(
            id=secrets.token_urlsafe(18),
            owner=owner,
            spec=spec,
            game=game,
            human=human,
            think=think,
            states=[game.initial_state()],
        )
        self._sessions[session.id] = session
        self.created += 1
        while len(self._sessions) > self.capacity:
            _, dropped = self._sessions.popitem(last=False)
            self.evicted += 1
            if self.on_evict is not None:
                self.on_evict(dropped)
        return session

    def get(self, owner: str, session_id: str) -> Session:
        """Return ``owner``'s session ``session_id`` and mark it recently used.

        Raises :class:`UnknownSessionError` when there is none (or it is someone else's)."""
        session = self._sessions.get(session_id)
        # compare_digest: the answer's timing says nothing about whose session it is
        if session is None or not secrets.compare_digest(session.owner, owner):
            raise UnknownSessionError(
                f"no game {session_id[:40]!r} in this browser session; it may have ended "
                f"or been dropped to make room (start a new game)"
            )
        self._sessions.move_to_end(session_id)
        return session

    def remove(self, owner: str, session_id: str) -> Session:
        """Drop ``owner``'s session ``session_id`` and return it."""
        session = self.get(owner, session_id)
        del self._sessions[session_id]
        return session
