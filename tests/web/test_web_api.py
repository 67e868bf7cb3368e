"""Every endpoint of the app, with good and bad inputs, through the in-process client."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from zerosum.games import registry
from zerosum.web.app import create_app


def sse_events(response: httpx.Response) -> list[tuple[str, Any]]:
    """Read a server-sent event stream to its end as (event, data) pairs."""
    events = []
    kind = "message"
    for line in response.iter_lines():
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            events.append((kind, json.loads(line[5:])))
    return events


def new_game(client: TestClient, game: str = "tictactoe", side: int = 0, think: float = 0.2) -> Any:
    response = client.post("/api/sessions", json={"game": game, "side": side, "think": think})
    assert response.status_code == 200, response.text
    return response.json()


def search(client: TestClient, session: str, purpose: str = "move") -> list[tuple[str, Any]]:
    with client.stream("POST", f"/api/sessions/{session}/search", json={"purpose": purpose}) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["content-type"].startswith("text/event-stream")
        return sse_events(r)


def error_of(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    message: str = response.json()["error"]
    assert message
    return message


# --------------------------------------------------------------------------- games


def test_games_lists_every_registered_game(client: TestClient) -> None:
    data = client.get("/api/games").json()
    assert [g["name"] for g in data["games"]] == registry.names()
    mnk = next(g for g in data["games"] if g["name"] == "mnk")
    assert {o["name"]: o["default"] for o in mnk["options"]} == {"m": 3, "n": 3, "k": 3}
    assert data["max_think"] == 10.0


@pytest.mark.parametrize("name", registry.names())
def test_every_registered_game_plays_an_engine_move(client: TestClient, name: str) -> None:
    view = new_game(client, name, side=1, think=0.2)
    assert view["turn"] == "engine"
    assert view["board"] is not None or view["legal"]  # something to click on
    events = search(client, view["id"])
    kind, done = events[-1]
    assert kind == "done", events
    assert done["applied"] is True
    after = done["state"]
    assert [m["text"] for m in after["moves"]] == [done["move"]]
    # the legal list may be cut (gomoku has 225 moves); the board's clicks never are
    board = view["board"]
    clicks = view["legal"]
    if board:
        clicks = list(board["targets"].values())
        for destinations in board["moves"].values():
            clicks += [move for choices in destinations.values() for move in choices]
    assert done["move"] in clicks
    assert after["moves"][0]["by"] == "engine"


# --------------------------------------------------------------------------- sessions


def test_a_new_game_describes_the_position(client: TestClient) -> None:
    view = new_game(client)
    assert view["game"]["title"] == "Tic-tac-toe"
    assert view["game"]["players"] == ["X", "O"]
    assert (view["human"], view["to_move"], view["turn"]) == (0, 0, "human")
    assert len(view["legal"]) == 9
    board = view["board"]
    assert (board["width"], board["height"]) == (3, 3)
    assert board["cells"] == [None] * 9
    assert sorted(board["targets"].values()) == sorted(view["legal"])
    assert view["result"] is None
    assert client.get(f"/api/sessions/{view['id']}").json() == view


def test_think_time_is_capped_by_the_server() -> None:
    with TestClient(create_app(workers=1, pool="thread", max_think=0.5)) as capped:
        view = new_game(capped, think=30)
        assert view["think"] == 0.5


def test_engine_streams_reports_then_moves(client: TestClient) -> None:
    view = new_game(client, side=1)
    events = search(client, view["id"])
    kinds = [kind for kind, _ in events]
    assert kinds[0] == "start" and kinds[-1] == "done"
    assert set(kinds[1:-1]) == {"report"}
    reports = [data for kind, data in events if kind == "report"]
    depths = [data["depth"] for data in reports]
    assert depths == sorted(depths) and depths
    last = events[-2][1]
    assert last["solved"] is True  # tic-tac-toe is solved in a blink
    assert last["score_text"] == "draw"  # a draw with best play, proved
    assert all(data["depth_text"].endswith(("ply", "plies", "to the end")) for data in reports)
    assert events[-1][1]["move"] == last["pv"][0]
    after = client.get(f"/api/sessions/{view['id']}").json()
    assert after["turn"] == "human"
    assert after["analysis"] == last


def test_hint_suggests_without_playing(client: TestClient) -> None:
    view = new_game(client)
    events = search(client, view["id"], "hint")
    done = events[-1][1]
    assert done["purpose"] == "hint"
    assert done["state"]["moves"] == []
    assert done["state"]["hint"] == done["move"] in view["legal"]


def test_moves_and_the_engines_reply(client: TestClient) -> None:
    view = new_game(client)
    played = client.post(f"/api/sessions/{view['id']}/move", json={"move": "b2"}).json()
    assert played["moves"] == [{"text": "b2", "player": 0, "by": "you"}]
    assert played["board"]["cells"][4] == 0
    assert played["turn"] == "engine"
    message = error_of(client.post(f"/api/sessions/{view['id']}/move", json={"move": "a1"}), 409)
    assert "engine's turn" in message
    assert search(client, view["id"])[-1][1]["state"]["turn"] == "human"


def test_the_engine_never_loses_at_tictactoe(client: TestClient) -> None:
    chooser = random.Random(8)
    outcomes = []
    for game in range(4):
        view = new_game(client, side=game % 2, think=0.1)
        while view["result"] is None:
            if view["turn"] == "engine":
                view = search(client, view["id"])[-1][1]["state"]
            else:
                move = chooser.choice(view["legal"])
                view = client.post(f"/api/sessions/{view['id']}/move", json={"move": move}).json()
        outcomes.append(view["result"]["for_you"])
    assert "win" not in outcomes


def test_undo_takes_back_the_persons_move_and_the_reply(client: TestClient) -> None:
    view = new_game(client)
    session = view["id"]
    error_of(client.post(f"/api/sessions/{session}/undo"), 409)
    client.post(f"/api/sessions/{session}/move", json={"move": "a1"})
    search(client, session)
    client.post(f"/api/sessions/{session}/move", json={"move": "c3"})
    undone = client.post(f"/api/sessions/{session}/undo").json()
    assert len(undone["moves"]) == 2 and undone["turn"] == "human"
    undone = client.post(f"/api/sessions/{session}/undo").json()
    assert undone["moves"] == [] and undone["board"]["cells"] == [None] * 9


def test_undo_when_the_engine_moved_first(client: TestClient) -> None:
    view = new_game(client, side=1)
    search(client, view["id"])
    error_of(client.post(f"/api/sessions/{view['id']}/undo"), 409)


def test_ended_game_is_gone(client: TestClient) -> None:
    view = new_game(client)
    assert client.delete(f"/api/sessions/{view['id']}").json() == {"ended": view["id"]}
    error_of(client.get(f"/api/sessions/{view['id']}"), 404)


def test_games_of_one_browser_are_invisible_to_another(client: TestClient) -> None:
    view = new_game(client)
    mine = dict(client.cookies)
    client.cookies.clear()  # now the client is another browser, with a cookie of its own
    try:
        stranger = new_game(client)
        assert client.cookies["zerosum_owner"] != mine["zerosum_owner"]
        for response in (
            client.get(f"/api/sessions/{view['id']}"),
            client.post(f"/api/sessions/{view['id']}/move", json={"move": "b2"}),
            client.post(f"/api/sessions/{view['id']}/undo"),
            client.post(f"/api/sessions/{view['id']}/search", json={}),
            client.delete(f"/api/sessions/{view['id']}"),
        ):
            assert "no game" in error_of(response, 404)
    finally:
        client.cookies.clear()
        client.cookies.update(mine)
    assert client.get(f"/api/sessions/{view['id']}").json()["moves"] == []
    error_of(client.get(f"/api/sessions/{stranger['id']}"), 404)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess960"}, 404, "unknown game 'chess960'"),
        ({"game": "mnk:q=3"}, 400, "unknown option 'q'"),
        ({"game": "mnk:m"}, 400, "use key=value"),
        ({"game": "tictactoe", "side": 2}, 422, "side"),
        ({"game": "tictactoe", "think": -1}, 422, "think"),
        ({"game": "tictactoe", "colour": "red"}, 422, "colour"),
        ({}, 422, "game"),
    ],
)
def test_bad_new_games(client: TestClient, body: Any, status: int, words: str) -> None:
    assert words in error_of(client.post("/api/sessions", json=body), status)


def test_invalid_json_is_refused_with_a_message(client: TestClient) -> None:
    for path in ("/api/sessions", "/api/lab"):
        response = client.post(
            path, content=b'{"game": "tictactoe",', headers={"content-type": "application/json"}
        )
        assert "invalid JSON" in error_of(response, 400)


def test_bad_and_illegal_moves_carry_the_games_message(client: TestClient) -> None:
    view = new_game(client)
    session = view["id"]
    message = error_of(client.post(f"/api/sessions/{session}/move", json={"move": "zz"}), 400)
    assert "cannot read move 'zz'" in message
    message = error_of(client.post(f"/api/sessions/{session}/move", json={"move": "d1"}), 409)
    assert "illegal move 'd1'" in message
    client.post(f"/api/sessions/{session}/move", json={"move": "b2"})
    search(client, session)
    message = error_of(client.post(f"/api/sessions/{session}/move", json={"move": "b2"}), 409)
    assert "b2 is taken" in message
    error_of(client.post(f"/api/sessions/{session}/move", json={"move": ""}), 422)


def test_searches_out_of_turn_are_refused(client: TestClient) -> None:
    view = new_game(client)
    assert "your turn" in error_of(
        client.post(f"/api/sessions/{view['id']}/search", json={"purpose": "move"}), 409
    )
    client.post(f"/api/sessions/{view['id']}/move", json={"move": "a1"})
    error_of(client.post(f"/api/sessions/{view['id']}/search", json={"purpose": "hint"}), 409)
    error_of(client.post(f"/api/sessions/{view['id']}/search", json={"purpose": "ponder"}), 422)


def test_unknown_sessions_and_routes(client: TestClient) -> None:
    error_of(client.get("/api/sessions/nope"), 404)
    error_of(client.post("/api/sessions/nope/move", json={"move": "a1"}), 404)
    error_of(client.get("/api/nothing-here"), 404)
    error_of(client.put("/api/games"), 405)


def test_oversized_bodies_are_refused(client: TestClient) -> None:
    big = b'{"tree": "' + b"1" * 70_000 + b'"}'
    response = client.post("/api/lab", content=big, headers={"content-type": "application/json"})
    assert "too large" in error_of(response, 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: the body is counted as it comes
        yield b'{"tree": "'
        for _ in range(10):
            yield b"1" * 10_000
        yield b'"}'

    response = client.post(
        "/api/lab", content=chunks(), headers={"content-type": "application/json"}
    )
    assert "too large" in error_of(response, 413)


# --------------------------------------------------------------------------- static files


def test_the_page_and_its_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<title>zerosum" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    for name in ("app.js", "style.css", "favicon.svg"):
        assert client.get(f"/static/{name}").status_code == 200


@pytest.mark.parametrize(
    "path",
    ["/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py", "/static/missing.js"],
)
def test_static_files_come_only_from_the_static_folder(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "create_app" not in response.text


# --------------------------------------------------------------------------- lab


def lab(client: TestClient, **body: Any) -> Any:
    response = client.post("/api/lab", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def test_lab_choices(client: TestClient) -> None:
    data = client.get("/api/lab").json()
    assert data["examples"] == ["night-market", "night-market-2", "aima-5.2"]
    assert data["algorithms"] == ["minimax", "negamax", "alphabeta", "negamax-ab"]


def test_lab_night_market(client: TestClient) -> None:
    data = lab(client, example="night-market", algorithm="alphabeta")
    trace = data["trace"]
    assert trace["root_value"] == 100
    assert trace["stats"] == {"nodes": 11, "leaves": 5, "cutoffs": 2, "pruned": 4}
    assert data["minimax_nodes"] == 15
    assert len(data["events"]) == 24
    cut_at = {
        trace["nodes"][int(node)]["move"]: branches for node, branches in data["pruned"].items()
    }
    assert cut_at == {
        "乙": [{"label": "15000", "children": [], "hidden": 0}],
        "B": [
            {
                "label": "丁",
                "children": [
                    {"label": "20000", "children": [], "hidden": 0},
                    {"label": "0", "children": [], "hidden": 0},
                ],
                "hidden": 0,
            }
        ],
    }


@pytest.mark.parametrize("algorithm", ["minimax", "negamax", "alphabeta", "negamax-ab"])
@pytest.mark.parametrize("example", ["night-market", "night-market-2", "aima-5.2"])
def test_lab_algorithms_agree(client: TestClient, example: str, algorithm: str) -> None:
    data = lab(client, example=example, algorithm=algorithm)
    plain = lab(client, example=example, algorithm="minimax")
    assert data["trace"]["root_value"] == plain["trace"]["root_value"]
    assert data["minimax_nodes"] == plain["trace"]["stats"]["nodes"]
    if algorithm in ("minimax", "negamax"):
        assert data["pruned"] == {}


def test_lab_pasted_tree(client: TestClient) -> None:
    data = lab(client, tree="[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    assert data["trace"]["root_value"] == 3
    assert data["title"] == "Pasted tree"
    assert data["minimax_nodes"] == 13
    assert data["trace"]["stats"]["pruned"] == 2


def test_lab_game_position(client: TestClient) -> None:
    data = lab(client, game="tictactoe", position="xo./.x./..o", moves=["c3"], depth=2)
    assert data["trace"]["depth"] == 2
    assert data["position"] is not None
    assert data["trace"]["nodes"][0]["player"] == 1  # O to move after c3
    assert data["trace"]["stats"]["nodes"] <= data["minimax_nodes"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"tree": "[[1, 2], [3"}, 400, "not valid JSON"),
        ({"tree": '{"children": []}'}, 400, "pasted tree"),
        ({"example": "night-bazaar"}, 400, "no example tree 'night-bazaar'"),
        ({"example": "night-market", "tree": "[1, 2]"}, 400, "exactly one"),
        ({}, 400, "exactly one"),
        ({"example": "night-market", "algorithm": "sss*"}, 422, "algorithm"),
        ({"game": "tictactoe", "depth": 0}, 422, "depth"),
        ({"game": "chess960"}, 404, "unknown game"),
        ({"game": "tictactoe", "position": "xxx/ooo/..."}, 400, "impossible position"),
        ({"game": "tictactoe", "moves": ["b2", "b2"]}, 409, "taken"),
        ({"game": "tictactoe"}, 422, "more than 5000 nodes"),
        ({"game": "tictactoe", "position": "xxx/oo./..."}, 400, "the game is over"),
        ({"tree": "[[1, 2], [3, 4]]", "depth": 1}, 400, "has no estimate"),
    ],
)
def test_lab_bad_requests(client: TestClient, body: Any, status: int, words: str) -> None:
    assert words in error_of(client.post("/api/lab", json=body), status)
