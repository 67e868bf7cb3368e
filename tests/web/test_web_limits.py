"""What a visitor cannot do to the server, through the in-process client: make a game
without bound, read a file, crowd out other players, or hold the event loop."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from zerosum.game import BoardView, GameInfo
from zerosum.web import app as web_app
from zerosum.web.app import create_app
from zerosum.web.sessions import (
    MAX_LEGAL_LISTED,
    MAX_MOVES_LISTED,
    MAX_TEXT,
    UPLOAD_LIMIT,
    Recipe,
    Session,
    SessionStore,
    StoreFullError,
    TooManyGamesError,
    UnknownSessionError,
    session_view,
)

MAZE = "..#\n@..\n..."
"""A 3x3 maze with its figure in the middle row: one move, left to the edge."""


@pytest.fixture
def small() -> Iterator[TestClient]:
    """An app with tight limits: 3 games per browser, 5 per address, 8 in all."""
    app = create_app(workers=1, pool="thread", capacity=8, per_owner=3, per_address=5)
    with TestClient(app) as test_client:
        yield test_client


def error_of(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    message: str = response.json()["error"]
    assert message
    return message


def start(client: TestClient, game: str = "tictactoe", **extra: Any) -> httpx.Response:
    response: httpx.Response = client.post(
        "/api/sessions", json={"game": game, "think": 0.2, **extra}
    )
    return response


# --------------------------------------------------------------------------- game sizes


def test_the_nim_memory_bomb_is_refused_at_once(client: TestClient) -> None:
    # the 61-byte request: every legal move of two heaps of a billion listed
    began = time.perf_counter()
    response = start(client, "nim:heaps=1000000000,999999999")
    assert "option 'heaps' of game 'nim'" in error_of(response, 400)
    assert "at most 1,000 here" in response.json()["error"]
    assert time.perf_counter() - began < 5
    assert client.get("/api/health").status_code == 200


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "nim:heaps=1001"}, "at most 1,000"),
        ({"game": "divisor:n=1000000"}, "at most 100,000"),
        ({"game": "stones:values=" + ",".join(["1"] * 65)}, "at most 64"),
    ],
)
def test_game_options_are_held_to_their_caps(client: TestClient, body: Any, words: str) -> None:
    assert words in error_of(client.post("/api/sessions", json=body), 400)
    assert words in error_of(client.post("/api/lab", json=body), 400)


def test_the_catalogue_gives_file_options_and_caps(client: TestClient) -> None:
    data = client.get("/api/games").json()
    assert data["upload_limit"] == UPLOAD_LIMIT
    games = {g["name"]: g for g in data["games"]}
    maze = {o["name"]: o for o in games["maze"]["options"]}
    assert games["maze"]["upload"] == "file" and maze["file"]["file"] is True
    assert maze["grid"]["file"] is False
    nim = {o["name"]: o for o in games["nim"]["options"]}
    assert games["nim"]["upload"] is None
    assert nim["heaps"]["cap"] == {"most": 1000, "items": 16}
    assert nim["misere"]["cap"] is None


# --------------------------------------------------------------------------- files


FILE_SPECS = ["maze:file=/etc/passwd", "graph:file=/dev/zero", "maze:file=/dev/zero"]


@pytest.mark.parametrize("spec", FILE_SPECS)
@pytest.mark.parametrize("path", ["/api/sessions", "/api/lab"])
def test_options_naming_files_are_refused_unread(client: TestClient, path: str, spec: str) -> None:
    began = time.perf_counter()
    message = error_of(client.post(path, json={"game": spec}), 400)
    assert time.perf_counter() - began < 5  # /dev/zero was read without end
    assert "names a file on this machine" in message
    for content in ("root:", "daemon", "\x00", "must be"):
        assert content not in message


def test_a_maze_upload_is_played_to_an_engine_move(client: TestClient) -> None:
    upload = {"name": "tiny.txt", "text": MAZE}
    view = start(client, "maze", side=1, upload=upload).json()
    assert view["upload"] == "tiny.txt"
    assert view["legal_count"] == 1
    # the worker makes the same game from the upload to search it
    with client.stream("POST", f"/api/sessions/{view['id']}/search", json={}) as response:
        assert response.status_code == 200
        text = response.read().decode()
    assert "event: done" in text and '"applied":true' in text


def test_a_graph_upload_in_the_lab(client: TestClient) -> None:
    upload = {"name": "g.json", "text": '[["a", "b"], ["b", "c"], ["a", "c"]]'}
    response = client.post("/api/lab", json={"game": "graph", "upload": upload})
    assert response.status_code == 200, response.text
    assert response.json()["trace"]["stats"]["nodes"] >= 3


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "nim", "upload": {"name": "n.txt", "text": "1"}}, 400, "takes no upload"),
        ({"game": "maze", "upload": {"name": "m.txt", "text": "#"}}, 400, "m.txt: "),
        (
            {"game": "maze:grid=...", "upload": {"name": "m.txt", "text": MAZE}},
            400,
            "not both",
        ),
        (
            {"game": "maze", "upload": {"name": "m.txt", "text": "." * (UPLOAD_LIMIT + 1)}},
            422,
            "upload.text",
        ),
        ({"game": "maze", "upload": {"name": "m.txt", "text": "é" * 20_000}}, 400, "bytes"),
        ({"game": "maze", "upload": {"name": "", "text": MAZE}}, 422, "upload.name"),
    ],
)
def test_bad_uploads(client: TestClient, body: Any, status: int, words: str) -> None:
    assert words in error_of(client.post("/api/sessions", json={**body, "think": 0.2}), status)


def test_an_upload_goes_with_a_game_in_the_lab(client: TestClient) -> None:
    body = {"example": "night-market", "upload": {"name": "m.txt", "text": MAZE}}
    assert "give the game's name" in error_of(client.post("/api/lab", json=body), 400)


# --------------------------------------------------------------------------- views


def test_a_long_list_of_moves_is_cut_and_the_rest_can_be_typed(client: TestClient) -> None:
    view = start(client, "nim:heaps=" + ",".join(["1000"] * 16)).json()
    assert len(view["legal"]) == MAX_LEGAL_LISTED
    assert (view["legal_count"], view["legal_cut"]) == (16_000, True)
    played = client.post(f"/api/sessions/{view['id']}/move", json={"move": "16:1000"})
    assert played.status_code == 200, played.text
    assert played.json()["moves"][0]["text"] == "16:1000"


class HugeGame:
    """A game whose every picture is far too big to send: 100,000 moves from a board of
    a million cells, a text picture of a million characters, and no end."""

    info = GameInfo(name="huge", title="Huge")

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return state % 2

    def actions(self, state: int) -> list[int]:
        return list(range(100_000))

    def result(self, state: int, move: int) -> int:
        return state + 1

    def is_terminal(self, state: int) -> bool:
        return False

    def utility(self, state: int, player: int) -> int:
        return 0

    def render(self, state: int) -> str:
        return "#" * 1_000_000

    def board(self, state: int) -> BoardView[int]:
        return BoardView(1000, 1000, (None,) * 1_000_000, {cell: cell for cell in range(100_000)})


def test_every_part_of_a_view_is_bounded() -> None:
    game = HugeGame()
    states = list(range(2 * MAX_MOVES_LISTED + 1))
    moves = [str(state) for state in states[:-1]]
    session = Session("id", "owner", Recipe("huge"), game, 0, 1.0, states, moves=moves)
    view = session_view(session)
    assert len(view["legal"]) == MAX_LEGAL_LISTED
    assert (view["legal_count"], view["legal_cut"]) == (100_000, True)
    assert len(view["moves"]) == MAX_MOVES_LISTED
    assert view["move_count"] == 2 * MAX_MOVES_LISTED
    assert view["moves"][0]["text"] == str(MAX_MOVES_LISTED)  # the latest moves
    assert view["board"] is None  # a million cells, far more than MAX_BOARD_CELLS
    assert MAX_TEXT < len(view["text"]) < MAX_TEXT + 100
    assert "1,000,000 characters" in view["text"]


# --------------------------------------------------------------------------- off the loop


def test_slow_work_is_given_up_with_503(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow_game(*_arguments: Any) -> Any:
        time.sleep(3)
        raise AssertionError("the caller stopped waiting long ago")

    monkeypatch.setattr(web_app, "make_game", slow_game)
    with TestClient(create_app(workers=1, pool="thread", work_timeout=0.3)) as slow:
        began = time.perf_counter()
        message = error_of(start(slow), 503)
        assert time.perf_counter() - began < 2.5
        assert "making the game took longer than 0.3 s" in message
        assert slow.get("/api/health").status_code == 200


# --------------------------------------------------------------------------- crowding


def test_one_browser_cannot_crowd_out_another(small: TestClient) -> None:
    theirs = start(small).json()
    their_cookies = dict(small.cookies)
    small.cookies.clear()
    mine = [start(small).json()["id"] for _ in range(3)]
    for _ in range(5):
        response = start(small)
        assert "this browser already has 3 games" in error_of(response, 429)
        assert int(response.headers["retry-after"]) >= 1
    small.delete(f"/api/sessions/{mine[0]}")  # ending a game makes room for another
    assert start(small).status_code == 200
    small.cookies.clear()
    small.cookies.update(their_cookies)
    assert small.get(f"/api/sessions/{theirs['id']}").json()["id"] == theirs["id"]


def test_fresh_cookies_do_not_escape_the_limit_per_address(small: TestClient) -> None:
    for _ in range(5):
        small.cookies.clear()
        assert start(small).status_code == 200
    small.cookies.clear()
    response = start(small)
    assert "5 games are in play from your address" in error_of(response, 429)
    assert "retry-after" in response.headers
    assert small.get("/api/health").json()["refused"] == 1


def test_a_full_server_refuses_rather_than_drops() -> None:
    app = create_app(workers=1, pool="thread", capacity=3, per_address=None)
    with TestClient(app) as full:
        first = start(full).json()["id"]
        first_cookies = dict(full.cookies)
        for _ in range(2):
            full.cookies.clear()
            start(full)
        full.cookies.clear()
        response = start(full)
        assert "the server is full: 3 games" in error_of(response, 503)
        assert int(response.headers["retry-after"]) > 60
        assert full.get("/api/health").json()["sessions"] == 3
        full.cookies.clear()
        full.cookies.update(first_cookies)
        assert full.get(f"/api/sessions/{first}").status_code == 200


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_idle_games_expire_and_make_room() -> None:
    clock = Clock()
    dropped: list[str] = []
    store = SessionStore(
        10,
        per_owner=2,
        idle_timeout=600,
        on_drop=lambda s: dropped.append(s.id),
        clock=clock,
    )
    game = HugeGame()
    old = store.create("me", Recipe("huge"), game, 0, 1.0)
    clock.now += 300
    recent = store.create("me", Recipe("huge"), game, 0, 1.0)
    clock.now += 200
    with pytest.raises(TooManyGamesError) as refused:
        store.create("me", Recipe("huge"), game, 0, 1.0)
    assert refused.value.retry_after == 100  # when the older game expires
    assert "the next in 2 min" in str(refused.value)
    clock.now += 100
    store.create("me", Recipe("huge"), game, 0, 1.0)
    assert dropped == [old.id] and store.expired == 1
    with pytest.raises(UnknownSessionError, match="idle too long"):
        store.get("me", old.id)
    assert store.get("me", recent.id) is recent


def test_a_full_store_names_the_wait() -> None:
    clock = Clock()
    store = SessionStore(1, per_owner=5, idle_timeout=600, clock=clock)
    store.create("a", Recipe("huge"), HugeGame(), 0, 1.0)
    clock.now += 60
    with pytest.raises(StoreFullError) as full:
        store.create("b", Recipe("huge"), HugeGame(), 0, 1.0)
    assert full.value.retry_after == 540
