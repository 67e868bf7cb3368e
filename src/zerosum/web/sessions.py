"""Games in play: a bounded, per-owner store of sessions and their JSON pictures.

Nothing here knows about HTTP. A :class:`Session` is one game between a person and the
engine: the game, the states from the start (so undo is a pop: states are values), who
plays which side and how long the engine may think. Every session belongs to the owner
token that created it; another owner asking for it is told it does not exist, exactly
as for an id never issued.

Games come from strangers, so everything is bounded (the app takes each number as a
:func:`~zerosum.web.app.create_app` parameter):

* games are made with ``registry.make(spec, untrusted=True)``: no option may name a
  file on the server, and every option is held to its entry's documented cap. A game
  read from a file is made from an upload (:class:`~zerosum.games.files.GameText`) of
  at most :data:`UPLOAD_LIMIT` bytes instead;
* :class:`SessionStore` keeps at most ``capacity`` games (1,000), ``per_owner`` (16) for
  one browser and ``per_address`` (64) for one client address (cookies cost nothing to
  mint, addresses do). A game untouched for ``idle_timeout`` seconds (1,800) is
  forgotten. When a limit is reached the store refuses the new game
  (:class:`TooManyGamesError`, :class:`StoreFullError`) with the seconds until the
  oldest game in the way expires: it never drops a live game to make room;
* :func:`session_view` lists at most :data:`MAX_LEGAL_LISTED` legal moves (with their
  count), the last :data:`MAX_MOVES_LISTED` moves played, a board of at most
  :data:`MAX_BOARD_CELLS` cells and :data:`MAX_TEXT` characters of the text picture.

The page learns everything from :func:`session_view`. The app has no code for any
particular game: a game appears in it by being in :mod:`zerosum.games.registry`.
"""

from __future__ import annotations

import hashlib
import inspect
import math
import secrets
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Final

from zerosum.game import (
    BoardView,
    InvalidGameError,
    ZerosumError,
    describe_state,
    outcome,
    quoted,
)
from zerosum.games import registry
from zerosum.games.files import GameText
from zerosum.notation import move_formatter

__all__ = [
    "MAX_BOARD_CELLS",
    "MAX_LEGAL_LISTED",
    "MAX_MOVES_LISTED",
    "MAX_TEXT",
    "UPLOAD_LIMIT",
    "BusyError",
    "Recipe",
    "RetryLaterError",
    "Session",
    "SessionStore",
    "StoreFullError",
    "TooManyGamesError",
    "UnknownGameError",
    "UnknownSessionError",
    "game_catalogue",
    "make_game",
    "session_view",
]

_MAX_SPEC: Final = 200
"""The longest game spec accepted; real ones are a few dozen characters."""

UPLOAD_LIMIT: Final = 32 * 1024
"""The largest upload of a game file, in bytes of UTF-8 (well under the body limit)."""

MAX_LEGAL_LISTED: Final = 200
"""The most legal moves a view lists; the view also gives their count."""

MAX_MOVES_LISTED: Final = 500
"""The most moves played a view lists (the latest ones)."""

MAX_BOARD_CELLS: Final = 4096
"""The largest board a view draws (64 x 64); a bigger game is shown as text only."""

MAX_TEXT: Final = 20_000
"""The most characters of a position's text picture a view carries."""

_MAX_PIECE_NAME: Final = 12
"""The most characters of a piece's name or a coordinate a view carries."""

_GAMES_CACHED: Final = 64
"""Games made from a spec alone, kept for reuse (one object serves every session)."""

_UPLOADS_CACHED: Final = 8
"""Games made from uploads, kept by their content's hash."""


class UnknownGameError(InvalidGameError):
    """A game spec names no registered game (the app answers 404)."""


class UnknownSessionError(ZerosumError):
    """No session with this id belongs to the asker (the app answers 404)."""


class BusyError(ZerosumError):
    """The request conflicts with the session's state: the engine is thinking, it is not
    the person's turn, or there is nothing to undo (the app answers 409)."""


class RetryLaterError(ZerosumError):
    """A limit is reached for now; ``retry_after`` seconds from now it may not be."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = max(1, math.ceil(retry_after))


class TooManyGamesError(RetryLaterError):
    """The browser (or its address) has as many games as one client may (the app answers
    429)."""


class StoreFullError(RetryLaterError):
    """The server holds as many games as it may, none idle long enough to forget (the app
    answers 503)."""


# --------------------------------------------------------------------------- games


@dataclass(frozen=True, slots=True)
class Recipe:
    """What makes a session's game: its ``spec`` and, for a game read from a file, the
    ``upload`` standing in for the file. Plain data, so it travels to worker processes."""

    spec: str
    upload: GameText | None = None

    @property
    def key(self) -> str:
        """A short name for this game: the spec, plus the upload's hash if there is one."""
        if self.upload is None:
            return self.spec
        digest = hashlib.sha256(f"{self.upload.name}\0{self.upload.text}".encode()).hexdigest()
        return f"{self.spec}#{digest}"


class _GameCache:
    """A small, thread-safe cache of games, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._games: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str, make: Callable[[], Any]) -> Any:
        with self._lock:
            game = self._games.get(key)
            if game is not None:
                self._games.move_to_end(key)
                return game
        game = make()  # outside the lock: another request must not wait for this one
        with self._lock:
            self._games[key] = game
            while len(self._games) > self.size:
                self._games.popitem(last=False)
        return game


_SPEC_GAMES = _GameCache(_GAMES_CACHED)
_UPLOAD_GAMES = _GameCache(_UPLOADS_CACHED)


def make_game(recipe: Recipe) -> Any:
    """Make the game of ``recipe``, shared between sessions, as a stranger may.

    The spec is made with ``untrusted=True`` (no option naming a file, every option
    within its cap) and the upload, if any, stands in for the entry's file option.
    Games hold no per-game mutable state (the engine keeps its own), so one object per
    recipe serves every session; uploads are cached by their hash, a few at a time.
    Raises :class:`UnknownGameError` for an unregistered name and
    :class:`~zerosum.game.InvalidGameError` for bad options or a bad upload."""
    spec = recipe.spec
    if len(spec) > _MAX_SPEC:
        raise InvalidGameError(f"game spec is {len(spec)} characters long; at most {_MAX_SPEC}")
    name, _ = registry.parse_spec(spec)
    if name not in registry.names():
        known = ", ".join(registry.names())
        raise UnknownGameError(f"unknown game {quoted(name)}; known games: {known}")
    upload = recipe.upload
    if upload is None:
        return _SPEC_GAMES.get(spec, lambda: registry.make(spec, untrusted=True))
    option = _file_option(name)
    if option is None:
        takers = ", ".join(e.name for e in registry.entries() if e.file_options) or "none"
        raise InvalidGameError(
            f"game {quoted(name)} reads no file, so it takes no upload; games that do: {takers}"
        )
    size = len(upload.text.encode())
    if size > UPLOAD_LIMIT:
        raise InvalidGameError(f"the upload is {size:,} bytes; at most {UPLOAD_LIMIT:,}")
    return _UPLOAD_GAMES.get(
        recipe.key, lambda: registry.make(spec, untrusted=True, **{option: upload})
    )


def _file_option(name: str) -> str | None:
    """The option of game ``name`` that names a file (an upload stands in for it)."""
    options = registry.entry(name).file_options
    return options[0] if options else None


@lru_cache(maxsize=1)
def game_catalogue() -> tuple[dict[str, Any], ...]:
    """Describe every registered game for the page: name, summary and options.

    Options come from the factory's signature, so a new registry entry shows up with its
    options and nothing else to write. Each option says whether it names a file (such an
    option is never accepted in a spec here: ``upload`` names the option an upload
    stands in for) and its cap (the most each number may be, and how many items a list
    may hold). An entry whose module fails to import is listed with its error instead of
    hiding the others."""
    games = []
    for item in registry.entries():
        caps = {cap.option: {"most": cap.most, "items": cap.items} for cap in item.caps}
        described: dict[str, Any] = {
            "name": item.name,
            "summary": item.summary,
            "upload": item.file_options[0] if item.file_options else None,
        }
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
                    "file": p.name in item.file_options,
                    "cap": caps.get(p.name),
                }
                for p in parameters
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
            ]
        games.append(described)
    return tuple(games)


# --------------------------------------------------------------------------- sessions


@dataclass(slots=True)
class Session:
    """One game between a person and the engine.

    ``states`` runs from the start to the current position and ``moves`` holds the text
    of each move made; ``human`` is the side the person plays; ``think`` is the engine's
    time per move in seconds. ``version`` grows with every change, so work started on an
    older position knows its answer is stale. ``search`` is the running search, if any
    (the app's object; this module only tests it for ``None``); ``analysis`` is the last
    engine report shown to the person. ``address`` is the client address that created
    the game and ``used`` when it was last asked for (the store's clock). ``resigned``
    is the side that resigned, if one did: the game is over. ``depth`` caps the
    engine's search in plies (a weaker level), if set."""

    id: str
    owner: str
    recipe: Recipe
    game: Any
    human: int
    think: float
    states: list[Any]
    address: str = ""
    used: float = 0.0
    moves: list[str] = field(default_factory=list)
    version: int = 0
    search: Any = None
    analysis: dict[str, Any] | None = None
    hint: str | None = None
    resigned: int | None = None
    depth: int | None = None

    @property
    def spec(self) -> str:
        """The game's spec, as the person wrote it."""
        return self.recipe.spec

    @property
    def state(self) -> Any:
        """The current position."""
        return self.states[-1]

    def snapshot(self) -> Session:
        """A copy that later moves and undos leave alone, for reading in another thread
        (states are values, so copying the lists is enough)."""
        return replace(self, states=list(self.states), moves=list(self.moves))

    def turn(self) -> str:
        """Say whose turn it is: ``"human"``, ``"engine"`` or ``"over"``."""
        game, state = self.game, self.state
        if self.resigned is not None or game.is_terminal(state):
            return "over"
        return "human" if game.to_move(state) == self.human else "engine"

    def check_human_turn(self) -> None:
        """Raise :class:`BusyError` unless the person may move now."""
        if self.search is not None:
            raise BusyError("the engine is thinking; wait for its move")
        if self.turn() == "engine":
            raise BusyError(f"it is the engine's turn, not yours, in {self.where()}")

    def push(self, move: Any) -> str:
        """Apply the legal ``move`` (already checked); return its label."""
        state = self.state
        text = move_formatter(self.game)(state, move)
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
        if self.resigned is not None:
            self.resigned = None  # taking the resignation back is the undo
            self.version += 1
            return
        if self.human not in movers:
            raise BusyError("nothing to undo: you have not moved yet")
        last = len(movers) - 1 - movers[::-1].index(self.human)
        del self.states[last + 1 :]
        del self.moves[last:]
        self.version += 1
        self.analysis = None
        self.hint = None

    def resign(self) -> None:
        """The person resigns: the engine wins. Raises :class:`BusyError` once the game
        is over."""
        if self.turn() == "over":
            raise BusyError(f"the game is already over in {self.where()}")
        self.resigned = self.human
        self.version += 1
        self.hint = None

    def swap(self) -> None:
        """The person takes the other side; the engine plays the one they left."""
        if self.resigned is not None:
            raise BusyError("the game is over: you resigned (undo takes it back)")
        self.human = 1 - self.human
        self.version += 1
        self.hint = None

    def where(self) -> str:
        """Name the current position for error messages."""
        return describe_state(self.game, self.state)


def session_view(session: Session, ply: int | None = None) -> dict[str, Any]:
    """Return everything the page shows about ``session`` as JSON-ready data; with
    ``ply``, the board and position are those after the first ``ply`` moves, for review
    (nothing on that board can be clicked). Raises :class:`~zerosum.game.ZerosumError`
    for a ply the game has not reached.

    Every list is bounded whatever the game: ``legal`` holds at most
    :data:`MAX_LEGAL_LISTED` moves (``legal_count`` says how many there are and
    ``legal_cut`` whether some were left out), ``moves`` the last
    :data:`MAX_MOVES_LISTED` moves (``move_count`` counts them all), ``board`` is
    ``None`` for a board of more than :data:`MAX_BOARD_CELLS` cells and ``text`` holds
    at most :data:`MAX_TEXT` characters. Call it on a :meth:`Session.snapshot` when
    another thread may change the session meanwhile.

    The board is the game's :class:`~zerosum.game.BoardView` with every move written as
    its label: ``targets`` (cell to move), ``moves`` (from-cell to to-cell to the
    moves between them), and ``last`` the cells the last move changed (from and to,
    what it captured or removed) when the game does not name them itself. ``position``
    is the position in the game's notation (FEN for chess), ``ply`` the moves the
    board is after and ``resigned`` the side that resigned, if one did."""
    game, state = session.game, session.state
    info = game.info
    reviewed = len(session.states) - 1 if ply is None else ply
    if not 0 <= reviewed < len(session.states):
        raise ZerosumError(
            f"no position after {ply} moves: the game has {len(session.moves)} moves so far"
        )
    shown = session.states[reviewed]
    board = _board_view(game, shown, session.states[reviewed - 1] if reviewed else None)
    if board is not None and ply is not None:
        board["targets"], board["moves"] = {}, {}
    label = move_formatter(game)
    over = session.resigned is not None or game.is_terminal(state)
    actions = [] if over else game.actions(state)
    listed = [label(state, move) for move in actions[:MAX_LEGAL_LISTED]]
    first = max(0, len(session.moves) - MAX_MOVES_LISTED)
    movers = [game.to_move(s) for s in session.states[first:-1]]
    view: dict[str, Any] = {
        "id": session.id,
        "spec": session.spec,
        "upload": None if session.recipe.upload is None else session.recipe.upload.name,
        "game": {
            "name": info.name,
            "title": info.title,
            "description": info.description,
            "players": list(info.players),
        },
        "human": session.human,
        "think": session.think,
        "depth": session.depth,
        "to_move": game.to_move(state),
        "turn": session.turn(),
        "thinking": session.search is not None,
        "legal": listed,
        "legal_count": len(actions),
        "legal_cut": len(actions) > len(listed),
        "moves": [
            {"text": text, "player": player, "by": "you" if player == session.human else "engine"}
            for text, player in zip(session.moves[first:], movers, strict=True)
        ],
        "move_count": len(session.moves),
        "board": board,
        "text": _bounded_text(_picture(game, shown)),
        "position": _position(game, shown),
        "ply": reviewed,
        "review": ply is not None,
        "result": None,
        "analysis": session.analysis,
        "hint": session.hint,
        "resigned": session.resigned,
    }
    ended = outcome(game, state) if over else None
    if session.resigned is not None:
        victor = 1 - session.resigned
        view["result"] = {
            "winner": victor,
            "score": "1-0" if victor == 0 else "0-1",
            "text": f"{info.players[session.resigned]} resigns; {info.players[victor]} wins",
            "for_you": "loss",
        }
    elif ended is not None:
        winner = ended.winner
        view["result"] = {
            "winner": winner,
            "score": ended.result(),
            "text": "draw" if winner is None else f"{info.players[winner]} wins",
            "for_you": "draw" if winner is None else ("win" if winner == session.human else "loss"),
        }
    return view


def _picture(game: Any, state: Any) -> str:
    render = getattr(game, "render", None)
    return render(state) if render is not None else describe_state(game, state)


def _position(game: Any, state: Any) -> str | None:
    """The position in the game's own notation (FEN for chess), to copy; ``None`` when
    the game writes none."""
    formatter = getattr(game, "format_state", None)
    if formatter is None:
        return None
    try:
        text: str = formatter(state)
    except ZerosumError:  # a state it cannot write (connect four's unreachable ones)
        return None
    return text if len(text) <= MAX_TEXT else None


def _bounded_text(text: str) -> str:
    if len(text) <= MAX_TEXT:
        return text
    return f"{text[:MAX_TEXT]}\n… ({len(text):,} characters in all; the rest is not shown)"


def _board_view(game: Any, state: Any, before: Any = None) -> dict[str, Any] | None:
    """The board of ``state`` as JSON-ready data, or ``None`` when the game draws none
    (or a board too big to draw); ``before`` is the position before the last move,
    whose picture marks the cells that move changed when the game cannot say itself."""
    picture = _picture_of(game, state)
    if picture is None:
        return None
    cells = picture.width * picture.height
    label = move_formatter(game)

    def inside(cell: Any) -> bool:
        return isinstance(cell, int) and 0 <= cell < cells

    # two-click moves: at most one entry per pair of cells and the moves of one pair
    # are the choices of one move (promotions), so this too is bounded by the board
    moves: dict[str, dict[str, list[str]]] = {}
    listed = 0
    for start, destinations in picture.moves.items():
        if not inside(start):
            continue
        for end, choices in destinations.items():
            if inside(end) and listed < MAX_BOARD_CELLS:
                moves.setdefault(str(start), {})[str(end)] = [label(state, m) for m in choices]
                listed += len(choices)
    last: list[int] = [] if picture.last is None else [picture.last]
    if picture.last_from is not None:
        last.insert(0, picture.last_from)
    if not last and before is not None:
        previous = _picture_of(game, before)
        if previous is not None and len(previous.cells) == cells:
            last = _changed(previous, picture)
    return {
        "kind": picture.kind,
        "width": picture.width,
        "height": picture.height,
        "cells": list(picture.cells),
        "pieces": [name[:_MAX_PIECE_NAME] for name in _names(picture)],
        "piece_set": picture.piece_set[:_MAX_PIECE_NAME],
        # one target per cell at most: the view is bounded by the board
        "targets": {
            str(cell): label(state, move) for cell, move in picture.targets.items() if inside(cell)
        },
        "moves": moves,
        "last": [cell for cell in last if inside(cell)],
        "line": [cell for cell in picture.line if inside(cell)][:cells],
        "files": [text[:_MAX_PIECE_NAME] for text in picture.files[: picture.width]],
        "ranks": [text[:_MAX_PIECE_NAME] for text in picture.ranks[: picture.height]],
        "segments": [[a, b] for a, b in picture.segments[:cells] if inside(a) and inside(b)],
        "breaks": [row for row in picture.breaks[: picture.height] if 0 <= row < picture.height],
        "forbidden": [cell for cell in picture.forbidden if inside(cell)][:cells],
    }


def _picture_of(game: Any, state: Any) -> BoardView[Any] | None:
    """The game's picture of ``state``, or ``None`` when it has none small enough."""
    board = getattr(game, "board", None)
    if board is None:
        return None
    picture: BoardView[Any] = board(state)
    cells = picture.width * picture.height
    if cells > MAX_BOARD_CELLS or len(picture.cells) != cells:
        return None  # too big to draw (or malformed): the page shows the text picture
    return picture


def _changed(before: BoardView[Any], after: BoardView[Any]) -> list[int]:
    """The cells whose piece differs between two pictures of one board: where the last
    move went from and to (and what it captured or removed)."""
    old = zip(before.cells, _names(before), strict=True)
    new = zip(after.cells, _names(after), strict=True)
    return [cell for cell, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]


def _names(picture: BoardView[Any]) -> tuple[str, ...]:
    """The pieces' names of ``picture``, one per cell (``""`` for plain stones)."""
    cells = len(picture.cells)
    return picture.pieces if len(picture.pieces) == cells else ("",) * cells


class SessionStore:
    """The games in play, bounded in all, per browser and per client address.

    At most ``capacity`` sessions, ``per_owner`` for one owner token and
    ``per_address`` for one client address (``None``: no bound per address, for a
    server behind a proxy where every visitor shares one address). A session not asked
    for in ``idle_timeout`` seconds is forgotten; no other session is ever dropped to
    make room: a new one over a limit is refused. ``on_drop`` is told of every session
    forgotten, so that its search can be stopped; ``clock`` gives the time in seconds."""

    def __init__(
        self,
        capacity: int = 1000,
        *,
        per_owner: int = 16,
        per_address: int | None = 64,
        idle_timeout: float = 1800.0,
        on_drop: Callable[[Session], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        limits = [capacity, per_owner] + ([] if per_address is None else [per_address])
        if min(limits) < 1 or idle_timeout <= 0:
            raise ValueError(
                f"a session store needs room for 1 session or more in all, per owner and per "
                f"address, and an idle timeout above 0, not {capacity}, {per_owner}, "
                f"{per_address}, {idle_timeout}"
            )
        self.capacity = capacity
        self.per_owner = per_owner
        self.per_address = per_address
        self.idle_timeout = idle_timeout
        self.on_drop = on_drop
        self.clock = clock
        self._sessions: OrderedDict[str, Session] = OrderedDict()  # least recently used first
        self._owners: Counter[str] = Counter()
        self._addresses: Counter[str] = Counter()
        self.created = 0
        self.expired = 0
        self.refused = 0

    def __len__(self) -> int:
        return len(self._sessions)

    def admit(self, owner: str, address: str = "") -> float:
        """Check that ``owner`` at ``address`` may start one more game; return the time.

        Forgets the games idle too long first. Raises :class:`TooManyGamesError` when the
        owner or the address has as many games as allowed, :class:`StoreFullError` when
        the store is full."""
        now = self.clock()
        self._expire(now)
        if self._owners[owner] >= self.per_owner:
            self._refuse(
                TooManyGamesError,
                f"this browser already has {self.per_owner} games in play, the most one "
                f"browser may have here: end one (New game ends the one shown)",
                now,
                lambda s: s.owner == owner,
            )
        if self.per_address is not None and self._addresses[address] >= self.per_address:
            self._refuse(
                TooManyGamesError,
                f"{self.per_address} games are in play from your address, the most one "
                f"address may have here: end one",
                now,
                lambda s: s.address == address,
            )
        if len(self._sessions) >= self.capacity:
            self._refuse(
                StoreFullError,
                f"the server is full: {self.capacity} games are in play",
                now,
                lambda _s: True,
            )
        return now

    def create(
        self,
        owner: str,
        recipe: Recipe,
        game: Any,
        human: int,
        think: float,
        *,
        address: str = "",
        start: Any = None,
        depth: int | None = None,
    ) -> Session:
        """Start a new game of ``game`` (made from ``recipe``) for ``owner`` at ``address``,
        from ``start`` (a state of the game) or else the game's start; the engine
        searches at most ``depth`` plies when given.

        Raises :class:`TooManyGamesError` when the owner or the address has as many
        games as allowed, :class:`StoreFullError` when the store is full."""
        if human not in (0, 1):
            raise ZerosumError(f"side must be 0 (first) or 1 (second), not {human!r}")
        now = self.admit(owner, address)
        session = Session(
            id=secrets.token_urlsafe(18),
            owner=owner,
            recipe=recipe,
            game=game,
            human=human,
            think=think,
            states=[game.initial_state() if start is None else start],
            address=address,
            used=now,
            depth=depth,
        )
        self._sessions[session.id] = session
        self._owners[owner] += 1
        self._addresses[address] += 1
        self.created += 1
        return session

    def _refuse(
        self,
        error: type[RetryLaterError],
        message: str,
        now: float,
        blocking: Callable[[Session], bool],
    ) -> None:
        """Raise ``error``, saying when the least recently used ``blocking`` game expires."""
        oldest = next(s for s in self._sessions.values() if blocking(s))
        wait = oldest.used + self.idle_timeout - now
        self.refused += 1
        minutes = max(1, math.ceil(wait / 60))
        raise error(
            f"{message}, or wait for a game left idle to expire (the next in {minutes} min)",
            wait,
        )

    def _expire(self, now: float) -> None:
        """Forget every session idle for ``idle_timeout`` seconds or more."""
        while self._sessions:
            session = next(iter(self._sessions.values()))
            if now - session.used < self.idle_timeout:
                return
            self._drop(session)
            self.expired += 1

    def _drop(self, session: Session) -> None:
        self._forget(session)
        if self.on_drop is not None:
            self.on_drop(session)

    def get(self, owner: str, session_id: str) -> Session:
        """Return ``owner``'s session ``session_id`` and mark it used now.

        Raises :class:`UnknownSessionError` when there is none (or it is someone else's,
        or it expired)."""
        now = self.clock()
        self._expire(now)
        session = self._sessions.get(session_id)
        # compare_digest: the answer's timing says nothing about whose session it is
        if session is None or not secrets.compare_digest(session.owner, owner):
            raise UnknownSessionError(
                f"no game {quoted(session_id)} in this browser session; it may have ended or "
                f"been left idle too long (start a new game)"
            )
        session.used = now
        self._sessions.move_to_end(session_id)
        return session

    def remove(self, owner: str, session_id: str) -> Session:
        """Forget ``owner``'s session ``session_id`` and return it."""
        session = self.get(owner, session_id)
        self._forget(session)
        return session

    def _forget(self, session: Session) -> None:
        del self._sessions[session.id]
        for counts, key in ((self._owners, session.owner), (self._addresses, session.address)):
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]
