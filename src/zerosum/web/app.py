"""The browser app's server: a FastAPI application, made by :func:`create_app`.

Endpoints (JSON in and out; every error is ``{"error": message}`` with a 4xx or 5xx
status, and a ``Retry-After`` header when waiting helps):

``GET /api/games``
    every registered game with its summary and options: which option names a file (an
    upload stands in for it) and each option's cap; the upload size limit.
``POST /api/sessions`` ``{"game", "side", "think", "depth", "position", "upload"}``
    start a game against the engine (searching at most ``depth`` plies, if given),
    from ``position`` (in the game's notation, FEN for chess) if given; ``upload``
    (``{"name", "text"}``, at most :data:`~zerosum.web.sessions.UPLOAD_LIMIT` bytes) is
    the content of the file a game such as ``maze`` reads. The answer is the session's view (see
    :func:`~zerosum.web.sessions.session_view`).
``GET /api/sessions/{id}``, ``GET /api/sessions/{id}?ply=n``, ``DELETE /api/sessions/{id}``
    the view of a game (with ``ply``, its board after the first ``n`` moves, for
    review); forget a game.
``POST /api/sessions/{id}/move`` ``{"move": text}``, ``POST /api/sessions/{id}/undo``
    the person's move; take back the person's last move and the engine's replies (or
    a resignation).
``POST /api/sessions/{id}/resign``, ``POST /api/sessions/{id}/swap``
    the person resigns; the person and the engine change sides.
``POST /api/sessions/{id}/search`` ``{"purpose": "move"|"hint"}``
    the engine thinks, in the worker pool, for the session's time per move (capped by
    the server); the answer is a server-sent event stream: ``start``, ``queued`` with
    the search's place in line while it waits for a worker (again each time it moves
    up) and ``started`` when it gets one, one ``report`` per completed depth, then
    ``done`` with the new view (the
    engine's move is played for ``move``; the best move is offered as the hint for
    ``hint``), or ``error``. When the stream is closed before its end the search is
    stopped (or leaves the line) and its answer is not used.
``GET /api/lab``, ``POST /api/lab``
    the lab's choices; a recorded search (see :func:`~zerosum.web.lab.run_lab`).
``POST /api/lab/compare``
    the lab's experiments on the same problem: minimax and alpha-beta side by side,
    alpha-beta's node counts in three move orders and the minimal tree (see
    :func:`~zerosum.web.lab.compare_lab`).
``GET /api/health``
    counts: sessions, searches running and waiting, the pool.

Nothing a visitor sends can make the server read a file or work without bound:

* games are made as a stranger may (:func:`~zerosum.web.sessions.make_game`): options
  naming files are refused (400) and every option is held to its documented cap;
* making a game, building a view, reading a move and the lab run in a few threads off
  the event loop, each given ``work_timeout`` seconds (10): past it the answer is 503
  (the thread finishes in the background and keeps its place, so runaway work cannot
  pile up); when every thread is taken for that long, 503 with ``Retry-After``;
* games are bounded per browser (``per_owner``, 16), per client address
  (``per_address``, 64) and in all (``capacity``, 1,000), and forgotten after
  ``idle_timeout`` seconds (1,800) untouched: over a limit a new game is refused (429
  per client, 503 in all, with ``Retry-After``), no one else's game is dropped;
* at most ``queue`` searches (twice the workers) wait for a worker; one more is refused
  with 503 and ``Retry-After``.

Games belong to a browser session, named by an HTTP-only cookie: another browser asking
for a game id it did not create is told there is no such game. Bodies are limited in
size (413), static files come only from the package's ``static`` folder, and every
response carries headers that keep the page to its own scripts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, TypeVar

from fastapi import Depends, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from zerosum.game import IllegalMoveError, InvalidStateError, ZerosumError, quoted
from zerosum.games.files import GameText
from zerosum.games.tree import EXAMPLES
from zerosum.notation import parse_move
from zerosum.search.reference import ALGORITHMS
from zerosum.web.lab import (
    MAX_DEPTH,
    MAX_TRACE_NODES,
    ORDERS,
    TraceTooLargeError,
    compare_lab,
    run_lab,
)
from zerosum.web.pool import QueueFullError, Search, SearchPool
from zerosum.web.sessions import (
    UPLOAD_LIMIT,
    BusyError,
    Recipe,
    RetryLaterError,
    Session,
    SessionStore,
    StoreFullError,
    TooManyGamesError,
    UnknownGameError,
    UnknownSessionError,
    game_catalogue,
    make_game,
    session_view,
)

__all__ = ["BODY_LIMIT", "MAX_LEVEL_DEPTH", "MAX_THINK", "STATIC", "WORK_TIMEOUT", "create_app"]

T = TypeVar("T")

STATIC: Final = Path(__file__).resolve().parent / "static"
"""The folder of the page's files; nothing outside it is ever served."""

MAX_THINK: Final = 10.0
"""The default server-side cap on the engine's time per search, in seconds."""

BODY_LIMIT: Final = 64 * 1024
"""The default largest request body accepted, in bytes."""

WORK_TIMEOUT: Final = 10.0
"""The default time, in seconds, given to one piece of work off the event loop."""

_WORK_THREADS: Final = 4
"""Threads making games, building views and reading moves."""

_LAB_THREADS: Final = 2
"""Threads recording lab searches (apart, so the lab cannot hold up the games)."""

OWNER_COOKIE: Final = "zerosum_owner"

MAX_LEVEL_DEPTH: Final = 64
"""The largest depth limit a new game may set for the engine, in plies."""


class ServerBusyError(RetryLaterError):
    """Every thread for work off the event loop stayed taken too long (503)."""


class WorkTimeoutError(ZerosumError):
    """One piece of work took longer than the server gives it (503)."""


_STATUS: Final[tuple[tuple[type[Exception], int], ...]] = (
    (UnknownSessionError, 404),
    (UnknownGameError, 404),
    (BusyError, 409),
    (IllegalMoveError, 409),
    (TraceTooLargeError, 422),
    (TooManyGamesError, 429),
    (StoreFullError, 503),
    (QueueFullError, 503),
    (ServerBusyError, 503),
    (WorkTimeoutError, 503),
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


class Upload(BaseModel):
    """The content of a game file, sent instead of its path: a browser's upload."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=100)
    text: str = Field(max_length=UPLOAD_LIMIT)

    def game_text(self) -> GameText:
        """The upload as the registry takes it in place of a file."""
        return GameText(self.name, self.text)


class NewGame(BaseModel):
    """Start a game: the game spec, the person's side, the engine's seconds per move and
    its depth limit in plies (none: as deep as the time allows), the position to start
    from (the game's start if none) and, for a game read from a file, the file's
    content."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=200)
    side: Literal[0, 1] = 0
    think: float = Field(default=1.0, gt=0, le=60)
    depth: int | None = Field(default=None, ge=1, le=MAX_LEVEL_DEPTH)
    position: str | None = Field(default=None, max_length=2000)
    upload: Upload | None = None


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
    with an optional ``position`` and ``moves`` from it, and an ``upload`` for a game
    read from a file), an algorithm, a depth limit, and the order to search the
    children in (see :data:`~zerosum.web.lab.ORDERS`)."""

    model_config = ConfigDict(extra="forbid")
    example: str | None = Field(default=None, max_length=100)
    tree: str | None = None
    game: str | None = Field(default=None, max_length=200)
    upload: Upload | None = None
    position: str | None = Field(default=None, max_length=2000)
    moves: list[str] = Field(default_factory=list, max_length=200)
    algorithm: Literal["minimax", "negamax", "alphabeta", "negamax-ab"] = "alphabeta"
    depth: int | None = Field(default=None, ge=1, le=MAX_DEPTH)
    order: Literal["original", "best-first", "worst-first"] = "original"


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


def _read_position(game: Any, text: str) -> Any:
    """Read ``text`` as a position of ``game``; raises
    :class:`~zerosum.game.InvalidStateError` (400) when it is none, or when the game
    reads no positions."""
    parse = getattr(game, "parse_state", None)
    if parse is None:
        raise InvalidStateError(
            f"{game.info.title} reads no positions, so {quoted(text)} cannot be one"
        )
    return parse(text)


def _lab_problem(body: LabRequest) -> dict[str, Any]:
    """The lab request as :func:`~zerosum.web.lab.run_lab` takes it, once it names
    exactly one problem."""
    given = [body.example, body.tree, body.game]
    if sum(part is not None for part in given) != 1:
        raise ZerosumError("give exactly one of: example (a name), tree (JSON), game (a spec)")
    if body.upload is not None and body.game is None:
        raise ZerosumError("an upload is the file of a game: give the game's name with it")
    return body.model_dump()


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _validation_message(error: RequestValidationError) -> tuple[int, str]:
    problems = []
    for item in error.errors():
        if item.get("type") == "json_invalid":
            return 400, f"invalid JSON in the request body: {item.get('ctx', {}).get('error', '')}"
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        problems.append(f"{where or 'body'}: {item.get('msg', 'invalid')}")
    return 422, "invalid request: " + "; ".join(problems)


# --------------------------------------------------------------------------- work


class Offload:
    """CPU work off the event loop: at most ``threads`` calls at once, each waiting at
    most ``timeout`` seconds for a thread and given ``timeout`` seconds to run.

    A call past its time cannot be interrupted (Python threads cannot be killed): its
    caller is answered at once and the call keeps its thread until it ends, so calls
    that run away can take at most ``threads`` threads, never more."""

    def __init__(self, threads: int, timeout: float, name: str) -> None:
        self.timeout = timeout
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix=name)
        self._slots = asyncio.Semaphore(threads)

    async def run(self, what: str, function: Callable[..., T], *arguments: Any) -> T:
        """Return ``function(*arguments)``, computed in a thread; ``what`` names the work
        in error messages (``"making the game"``).

        Raises :class:`ServerBusyError` when no thread frees up in time and
        :class:`WorkTimeoutError` when the call takes too long."""
        try:
            await asyncio.wait_for(self._slots.acquire(), self.timeout)
        except TimeoutError:
            raise ServerBusyError(
                f"the server is busy: {what} could not start within {self.timeout:g} s; "
                f"try again shortly",
                self.timeout,
            ) from None
        loop = asyncio.get_running_loop()
        try:
            future = self._executor.submit(function, *arguments)
        except BaseException:
            self._slots.release()
            raise

        def release(_done: Any) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed: the server stopped
                loop.call_soon_threadsafe(self._slots.release)

        future.add_done_callback(release)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), self.timeout)
        except TimeoutError:
            raise WorkTimeoutError(
                f"{what} took longer than {self.timeout:g} s, the most this server gives "
                f"it; choose a smaller game or position"
            ) from None

    def close(self) -> None:
        """Stop taking work; calls still running end on their own."""
        self._executor.shutdown(wait=False, cancel_futures=True)


# --------------------------------------------------------------------------- searches


@dataclass(slots=True)
class Thinking:
    """A session's search: what it is for, the session version it started at, the
    pool's search and the streams following it."""

    purpose: str
    version: int
    seconds: float
    search: Search
    cancelled: bool = False
    listeners: list[asyncio.Queue[tuple[str, Any]]] = field(default_factory=list)

    def stop(self) -> None:
        """Abandon the search: its answer will not be used."""
        self.cancelled = True
        self.search.stop()

    def tell(self, kind: str, payload: Any) -> None:
        """Pass one event to every stream following the search."""
        for listener in self.listeners:
            listener.put_nowait((kind, payload))


_PASSING: Final = frozenset({"queued", "started", "report"})
"""The events of a search that more follow; any other one is its last."""


def _sse(kind: str, payload: Any) -> str:
    return f"event: {kind}\ndata: {json.dumps(payload, separators=(',', ':'))}\n\n"


# --------------------------------------------------------------------------- the app


def create_app(
    *,
    workers: int | None = None,
    pool: str = "process",
    max_think: float = MAX_THINK,
    capacity: int = 1000,
    per_owner: int = 16,
    per_address: int | None = 64,
    idle_timeout: float = 1800.0,
    queue: int | None = None,
    work_timeout: float = WORK_TIMEOUT,
    body_limit: int = BODY_LIMIT,
) -> FastAPI:
    """Make the app.

    ``workers`` engine workers (default: one per core but one, at least one) of kind
    ``pool`` (``"process"`` or ``"thread"``), with at most ``queue`` searches waiting for
    one (default: twice the workers); ``max_think`` caps every search in seconds.
    ``capacity`` bounds the games kept in all, ``per_owner`` those of one browser and
    ``per_address`` those of one client address (``None``: no bound, for a server
    behind a proxy); a game untouched for ``idle_timeout`` seconds is forgotten.
    ``work_timeout`` bounds each piece of work off the event loop in seconds, and
    ``body_limit`` request bodies in bytes."""
    count = workers if workers is not None else max(1, (os.cpu_count() or 2) - 1)
    engines = SearchPool(count, pool, queue)
    tasks: set[asyncio.Task[None]] = set()
    work = Offload(_WORK_THREADS, work_timeout, "zerosum-work")
    lab_work = Offload(_LAB_THREADS, work_timeout, "zerosum-lab")

    def dropped(session: Session) -> None:
        if session.search is not None:
            session.search.stop()

    store = SessionStore(
        capacity,
        per_owner=per_owner,
        per_address=per_address,
        idle_timeout=idle_timeout,
        on_drop=dropped,
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await engines.start()
        try:
            yield
        finally:
            work.close()
            lab_work.close()
            await engines.close()

    app = FastAPI(title="zerosum", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_middleware(Guard, limit=body_limit)

    @app.exception_handler(ZerosumError)
    async def zerosum_error(_request: Request, error: Exception) -> JSONResponse:
        status = next((code for kind, code in _STATUS if isinstance(error, kind)), 400)
        headers = None
        if isinstance(error, RetryLaterError):
            headers = {"retry-after": str(error.retry_after)}
        return _error(status, str(error), headers)

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

    def address(request: Request) -> str:
        """The client's address, as the server sees it."""
        return request.client.host if request.client is not None else ""

    async def view_of(session: Session) -> dict[str, Any]:
        # a snapshot: a move or undo on the loop meanwhile cannot tear the picture
        return await work.run("showing the game", session_view, session.snapshot())

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
            "expired": store.expired,
            "refused": store.refused,
            "searches": engines.busy,
            "queued": engines.queued,
            "queue": engines.queue_limit,
            "pool": engines.kind,
            "workers": engines.workers,
        }

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        catalogue = await work.run("listing the games", game_catalogue)
        return {"games": list(catalogue), "max_think": max_think, "upload_limit": UPLOAD_LIMIT}

    @app.post("/api/sessions")
    async def new_session(
        body: NewGame, request: Request, who: str = Depends(owner)
    ) -> dict[str, Any]:
        where = address(request)
        store.admit(who, where)  # refuse before any work when the client is at its limit
        upload = None if body.upload is None else body.upload.game_text()
        recipe = Recipe(body.game.strip(), upload)
        game = await work.run("making the game", make_game, recipe)
        start = None
        if body.position is not None and body.position.strip():
            start = await work.run("reading the position", _read_position, game, body.position)
        think = min(body.think, max_think)
        session = store.create(
            who, recipe, game, body.side, think, address=where, start=start, depth=body.depth
        )
        return await view_of(session)

    @app.get("/api/sessions/{session_id}")
    async def get_session(
        session_id: str, ply: int | None = None, who: str = Depends(owner)
    ) -> dict[str, Any]:
        session = store.get(who, session_id)
        if ply is None:
            return await view_of(session)
        return await work.run("showing the game", session_view, session.snapshot(), ply)

    @app.delete("/api/sessions/{session_id}")
    async def end_session(session_id: str, who: str = Depends(owner)) -> dict[str, Any]:
        stop_thinking(store.remove(who, session_id))
        return {"ended": session_id}

    @app.post("/api/sessions/{session_id}/move")
    async def move(session_id: str, body: MoveRequest, who: str = Depends(owner)) -> dict[str, Any]:
        session = store.get(who, session_id)
        session.check_human_turn()
        version = session.version
        chosen = await work.run(
            "reading your move", parse_move, session.game, session.state, body.move
        )
        # the move was read off the loop: play it only on the position it was read in
        if session.version != version or session.search is not None:
            raise BusyError("the game changed while your move was read; look again and replay it")
        session.push(chosen)
        return await view_of(session)

    @app.post("/api/sessions/{session_id}/undo")
    async def undo(session_id: str, who: str = Depends(owner)) -> dict[str, Any]:
        session = store.get(who, session_id)
        stop_thinking(session)
        session.undo()
        return await view_of(session)

    @app.post("/api/sessions/{session_id}/resign")
    async def resign(session_id: str, who: str = Depends(owner)) -> dict[str, Any]:
        session = store.get(who, session_id)
        stop_thinking(session)
        session.resign()
        return await view_of(session)

    @app.post("/api/sessions/{session_id}/swap")
    async def swap(session_id: str, who: str = Depends(owner)) -> dict[str, Any]:
        session = store.get(who, session_id)
        stop_thinking(session)
        session.swap()
        return await view_of(session)

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
        seconds = min(session.think, max_think)
        # or 503: the line is full
        found = engines.submit(session.recipe, session.state, seconds, session.depth)
        thinking = Thinking(body.purpose, session.version, seconds, found)
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
        """Pass one search's messages on and apply its answer if it still stands."""
        async for kind, payload in thinking.search.messages():
            current = session.search is thinking and session.version == thinking.version
            if kind in _PASSING:
                if kind == "report" and current:
                    session.analysis = payload
                thinking.tell(kind, payload)
                continue
            if session.search is thinking:
                session.search = None
            if kind == "error":
                thinking.tell(kind, payload)
                return
            played = current and not thinking.cancelled and payload["move"] is not None
            if played and payload["report"] is not None:
                session.analysis = payload["report"]
            if played and thinking.purpose == "move":
                # legal: the worker searched this very position (the version is
                # unchanged) of the game made from the same recipe
                session.push(payload["move"])
            elif played:
                session.hint = payload["text"]
            if not thinking.listeners:
                return  # the page went away: nobody to show the position to
            try:
                view = await view_of(session)
            except Exception as error:  # the stream waits for an end: always send one
                thinking.tell("error", f"the position could not be shown: {error}")
                return
            thinking.tell(
                "done",
                {
                    "purpose": thinking.purpose,
                    "move": payload["text"],
                    "applied": played,
                    "state": view,
                },
            )

    async def stream(
        thinking: Thinking, listener: asyncio.Queue[tuple[str, Any]]
    ) -> AsyncIterator[str]:
        ended = False
        try:
            yield _sse("start", {"purpose": thinking.purpose, "seconds": thinking.seconds})
            while not ended:
                kind, payload = await listener.get()
                yield _sse(kind, payload)
                ended = kind not in _PASSING
        finally:
            thinking.listeners.remove(listener)
            if not ended and not thinking.listeners:
                # the stream closed early (the page went away): stop the search, or take
                # it out of the line, rather than work for nobody
                thinking.stop()

    @app.get("/api/lab")
    async def lab_choices() -> dict[str, Any]:
        return {
            "examples": list(EXAMPLES),
            "algorithms": list(ALGORITHMS),
            "max_nodes": MAX_TRACE_NODES,
            "max_depth": MAX_DEPTH,
            "orders": list(ORDERS),
            "upload_limit": UPLOAD_LIMIT,
        }

    @app.post("/api/lab")
    async def lab(body: LabRequest) -> dict[str, Any]:
        return await lab_work.run("recording the search", run_lab, _lab_problem(body))

    @app.post("/api/lab/compare")
    async def lab_compare(body: LabRequest) -> dict[str, Any]:
        return await lab_work.run("comparing the searches", compare_lab, _lab_problem(body))

    return app
