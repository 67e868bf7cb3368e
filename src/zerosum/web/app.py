"""The browser app's server: a FastAPI application, made by :func:`create_app`.

Endpoints (JSON in and out; every error is ``{"error": message}`` with a 4xx status):

``GET /api/games``
    every registered game with its summary and options.
``POST /api/sessions`` ``{"game": spec, "side": 0|1, "think": seconds}``
    start a game against the engine; the answer is the session's view (see
    :func:`~zerosum.web.sessions.session_view`).
``GET /api/sessions/{id}``, ``DELETE /api/sessions/{id}``
    the view of a game; forget a game.
``POST /api/sessions/{id}/move`` ``{"move": text}``, ``POST /api/sessions/{id}/undo``
    the person's move; take back the person's last move and the engine's replies.
``POST /api/sessions/{id}/search`` ``{"purpose": "move"|"hint"}``
    the engine thinks, in the worker pool, for the session's time per move (capped by
    the server); the answer is a server-sent event stream: ``start``, one ``report`` per
    completed depth, then ``done`` with the new view (the engine's move is played for
    ``move``; the best move is offered as the hint for ``hint``), or ``error``. The
    search goes on to its end if the page goes away.
``GET /api/lab``, ``POST /api/lab``
    the lab's choices; a recorded search (see :func:`~zerosum.web.lab.run_lab`).
``GET /api/health``
    counts: sessions, searches running, the pool.

Games belong to a browser session, named by an HTTP-only cookie: another browser asking
for a game id it did not create is told there is no such game. Bodies are limited in
size (413), static files come only from the package's ``static`` folder, and every
response carries headers that keep the page to its own scripts.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from fastapi import Depends, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from zerosum.game import IllegalMoveError, ZerosumError
from zerosum.games.tree import EXAMPLES
from zerosum.search.reference import ALGORITHMS
from zerosum.web.lab import MAX_DEPTH, MAX_TRACE_NODES, TraceTooLargeError, run_lab
from zerosum.web.pool import Search, SearchPool
from zerosum.web.sessions import (
    BusyError,
    Session,
    SessionStore,
    UnknownGameError,
    UnknownSessionError,
    game_catalogue,
    make_game,
    session_view,
)

__all__ = ["BODY_LIMIT", "MAX_THINK", "STATIC", "create_app"]

STATIC: Final = Path(__file__).resolve().parent / "static"
"""The folder of the page's files; nothing outside it is ever served."""

MAX_THINK: Final = 10.0
"""The default server-side cap on the engine's time per search, in seconds."""

BODY_LIMIT: Final = 64 * 1024
"""The default largest request body accepted, in bytes."""

OWNER_COOKIE: Final = "zerosum_owner"

_STATUS: Final[tuple[tuple[type[Exception], int], ...]] = (
    (UnknownSessionError, 404),
    (UnknownGameError, 404),
    (BusyError, 409),
    (IllegalMoveError, 409),
    (TraceTooLargeError, 422),
)

_HEADERS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:"),
)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# --------------------------------------------------------------------------- bodies


class NewGame(BaseModel):
    """Start a game: the game spec, the person's side and the engine's seconds per move."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=200)
    side: Literal[0, 1] = 0
    think: float = Field(default=1.0, gt=0, le=60)


class MoveRequest(BaseModel):
    """A move, written in the game's notation (or as the label of a legal move)."""

    model_config = ConfigDict(extra="forbid")
    move: str = Field(min_length=1, max_length=200)


class SearchRequest(BaseModel):
    """Ask the engine to move (``move``) or to suggest the person's move (``hint``)."""

    model_config = ConfigDict(extra="forbid")
    purpose: Literal["move", "hint"] = "move"


class LabRequest(BaseModel):
    """A search to record: one of ``example``, ``tree`` (JSON text) or ``game`` (a spec,
    with an optional ``position`` and ``moves`` from it), an algorithm, a depth limit."""

    model_config = ConfigDict(extra="forbid")
    example: str | None = Field(default=None, max_length=100)
    tree: str | None = None
    game: str | None = Field(default=None, max_length=200)
    position: str | None = Field(default=None, max_length=2000)
    moves: list[str] = Field(default_factory=list, max_length=200)
    algorithm: Literal["minimax", "negamax", "alphabeta", "negamax-ab"] = "alphabeta"
    depth: int | None = Field(default=None, ge=1, le=MAX_DEPTH)


# --------------------------------------------------------------------------- middleware


class Guard:
    """Refuse bodies over ``limit`` bytes (413) and add the security headers.

    A declared ``Content-Length`` over the limit is refused before the body is read; a
    body sent in chunks is counted as it arrives."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit
        message = f"request body too large: the limit is {limit} bytes"

        async def guarded_send(event: Message) -> None:
            if event["type"] == "http.response.start":
                event["headers"] = [*event.get("headers", ()), *_HEADERS]
            await send(event)

        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            response = JSONResponse({"error": message}, status_code=413)
            await response(scope, receive, guarded_send)
            return
        received = 0

        async def counted_receive() -> Message:
            nonlocal received
            event = await receive()
            if event["type"] == "http.request":
                received += len(event.get("body", b""))
                if received > limit:
                    raise HTTPException(413, message)
            return event

        await self.app(scope, counted_receive, guarded_send)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _validation_message(error: RequestValidationError) -> tuple[int, str]:
    problems = []
    for item in error.errors():
        if item.get("type") == "json_invalid":
            return 400, f"invalid JSON in the request body: {item.get('ctx', {}).get('error', '')}"
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        problems.append(f"{where or 'body'}: {item.get('msg', 'invalid')}")
    return 422, "invalid request: " + "; ".join(problems)


# --------------------------------------------------------------------------- searches


@dataclass(slots=True)
class Thinking:
    """A session's running search: what it is for, the session version it started at,
    the pool's search once it has a slot, and the streams following it."""

    purpose: str
    version: int
    seconds: float
    search: Search | None = None
    cancelled: bool = False
    listeners: list[asyncio.Queue[tuple[str, Any]]] = field(default_factory=list)

    def stop(self) -> None:
        """Abandon the search: its answer will not be used."""
        self.cancelled = True
        if self.search is not None:
            self.search.stop()

    def tell(self, kind: str, payload: Any) -> None:
        """Pass one event to every stream following the search."""
        for listener in self.listeners:
            listener.put_nowait((kind, payload))


def _sse(kind: str, payload: Any) -> str:
    return f"event: {kind}\ndata: {json.dumps(payload, separators=(',', ':'))}\n\n"


# --------------------------------------------------------------------------- the app


def create_app(
    *,
    workers: int | None = None,
    pool: str = "process",
    max_think: float = MAX_THINK,
    capacity: int = 1000,
    body_limit: int = BODY_LIMIT,
) -> FastAPI:
    """Make the app.

    ``workers`` engine workers (default: one per core but one, at least one) of kind
    ``pool`` (``"process"`` or ``"thread"``); ``max_think`` caps every search in
    seconds; ``capacity`` bounds the games kept (the least recently used go first);
    ``body_limit`` bounds request bodies in bytes."""
    count = workers if workers is not None else max(1, (os.cpu_count() or 2) - 1)
    engines = SearchPool(count, pool)
    tasks: set[asyncio.Task[None]] = set()
    lab_gate = asyncio.Semaphore(2)

    def evicted(session: Session) -> None:
        if session.search is not None:
            session.search.stop()
            session.search = None

    store = SessionStore(capacity, on_evict=evicted)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await engines.start()
        try:
            yield
        finally:
            await engines.close()

    app = FastAPI(title="zerosum", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_middleware(Guard, limit=body_limit)

    @app.exception_handler(ZerosumError)
    async def zerosum_error(_request: Request, error: Exception) -> JSONResponse:
        status = next((code for kind, code in _STATUS if isinstance(error, kind)), 400)
        return _error(status, str(error))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)  # registered for this type only
        return _error(*_validation_message(error))

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, HTTPException)  # registered for this type only
        return _error(error.status_code, str(error.detail))

    def owner(request: Request, response: Response) -> str:
        """The browser session's token, issued on its first request."""
        token = request.cookies.get(OWNER_COOKIE, "")
        if len(token) < 20 or len(token) > 64:
            token = secrets.token_urlsafe(24)
            response.set_cookie(OWNER_COOKIE, token, httponly=True, samesite="strict")
        return token

    def stop_thinking(session: Session) -> None:
        if session.search is not None:
            session.search.stop()
            session.search = None

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {
            "sessions": len(store),
            "created": store.created,
            "evicted": store.evicted,
            "searches": engines.busy,
            "pool": engines.kind,
            "workers": engines.workers,
        }

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        catalogue = await asyncio.to_thread(game_catalogue)
        return {"games": list(catalogue), "max_think": max_think}

    @app.post("/api/sessions")
    async def new_session(body: NewGame, who: str = Depends(owner)) -> dict[str, Any]:
        # making a game may build tables: keep the loop free while it does
        game = await asyncio.to_thread(make_game, body.game.strip())
        think = min(body.think, max_think)
        session = store.create(who, body.game.strip(), game, body.side, think)
        return session_view(session)

    @app.get("/api/sessions/{session_id}")
    async def get_session(session_id: str, who: str = Depends(owner)) -> dict[str, Any]:
        return session_view(store.get(who, session_id))

    @app.delete("/api/sessions/{session_id}")
    async def end_session(session_id: str, who: str = Depends(owner)) -> dict[str, Any]:
        stop_thinking(store.remove(who, session_id))
        return {"ended": session_id}

    @app.post("/api/sessions/{session_id}/move")
    async def move(session_id: str, body: MoveRequest, who: str = Depends(owner)) -> dict[str, Any]:
        session = store.get(who, session_id)
        session.play(body.move)
        return session_view(session)

    @app.post("/api/sessions/{session_id}/undo")
    async def undo(session_id: str, who: str = Depends(owner)) -> dict[str, Any]:
        session = store.get(who, session_id)
        stop_thinking(session)
        session.undo()
        return session_view(session)

    @app.post("/api/sessions/{session_id}/search")
    async def search(
        session_id: str, body: SearchRequest, who: str = Depends(owner)
    ) -> StreamingResponse:
        session = store.get(who, session_id)
        if session.search is not None:
            raise BusyError("the engine is already thinking in this game")
        turn = session.turn()
        if turn == "over":
            raise BusyError(f"the game is over in {session.where()}")
        wanted = "engine" if body.purpose == "move" else "human"
        if turn != wanted:
            whose = "your" if turn == "human" else "the engine's"
            raise BusyError(f"it is {whose} turn: no {body.purpose} search now")
        thinking = Thinking(body.purpose, session.version, min(session.think, max_think))
        session.search = thinking
        listener: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        thinking.listeners.append(listener)
        task = asyncio.create_task(follow(session, thinking))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        return StreamingResponse(
            stream(thinking, listener),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    async def follow(session: Session, thinking: Thinking) -> None:
        """Run one search to its end and apply its answer if it still stands."""
        try:
            found = await engines.begin(session.spec, session.state, thinking.seconds)
        except Exception as error:  # the pool could not start it: tell the page
            if session.search is thinking:
                session.search = None
            thinking.tell("error", f"the engine could not start: {error}")
            return
        thinking.search = found
        if thinking.cancelled:
            found.stop()
        async for kind, payload in found.messages():
            current = session.search is thinking and session.version == thinking.version
            if kind == "report":
                if current:
                    session.analysis = payload
                thinking.tell(kind, payload)
            elif kind == "error":
                if session.search is thinking:
                    session.search = None
                thinking.tell(kind, payload)
            else:
                if session.search is thinking:
                    session.search = None
                played = current and not thinking.cancelled and payload["move"] is not None
                if played and payload["report"] is not None:
                    session.analysis = payload["report"]
                if played and thinking.purpose == "move":
                    if payload["move"] in session.game.actions(session.state):
                        session.push(payload["move"])
                elif played:
                    session.hint = payload["text"]
                thinking.tell(
                    "done",
                    {
                        "purpose": thinking.purpose,
                        "move": payload["text"],
                        "applied": played,
                        "state": session_view(session),
                    },
                )

    async def stream(
        thinking: Thinking, listener: asyncio.Queue[tuple[str, Any]]
    ) -> AsyncIterator[str]:
        try:
            yield _sse("start", {"purpose": thinking.purpose, "seconds": thinking.seconds})
            while True:
                kind, payload = await listener.get()
                yield _sse(kind, payload)
                if kind != "report":
                    return
        finally:
            thinking.listeners.remove(listener)

    @app.get("/api/lab")
    async def lab_choices() -> dict[str, Any]:
        return {
            "examples": list(EXAMPLES),
            "algorithms": list(ALGORITHMS),
            "max_nodes": MAX_TRACE_NODES,
            "max_depth": MAX_DEPTH,
        }

    @app.post("/api/lab")
    async def lab(body: LabRequest) -> dict[str, Any]:
        given = [body.example, body.tree, body.game]
        if sum(part is not None for part in given) != 1:
            raise ZerosumError("give exactly one of: example (a name), tree (JSON), game (a spec)")
        async with lab_gate:
            return await asyncio.to_thread(run_lab, body.model_dump())

    return app
