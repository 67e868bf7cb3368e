"""The player's controls through the API: a start position, two-click moves, review,
resign, swap sides, and the board fields of the view."""

from __future__ import annotations

import json
from typing import Any

import chess
from fastapi.testclient import TestClient

PROMOTE = "8/1P4k1/8/8/8/8/6K1/8 w - - 0 1"


def start(client: TestClient, game: str, **body: Any) -> Any:
    response = client.post("/api/sessions", json={"game": game, **body})
    assert response.status_code == 200, response.text
    return response.json()


def post(client: TestClient, view: Any, action: str, **body: Any) -> Any:
    response = client.post(f"/api/sessions/{view['id']}/{action}", json=body or None)
    assert response.status_code == 200, response.text
    return response.json()


def test_chess_board_in_the_view_matches_python_chess(client: TestClient) -> None:
    view = start(client, "chess", position=PROMOTE)
    board = view["board"]
    assert (board["kind"], board["width"], board["height"]) == ("squares", 8, 8)
    assert board["piece_set"] == "chess"
    assert board["files"] == list("abcdefgh") and board["ranks"] == list("87654321")
    assert board["pieces"][9] == "P" and board["cells"][9] == 0  # b7
    assert board["pieces"][14] == "k" and board["cells"][14] == 1  # g7
    assert board["targets"] == {}
    oracle = chess.Board(PROMOTE)
    clicked = sorted(m for to in board["moves"].values() for ms in to.values() for m in ms)
    assert clicked == sorted(oracle.san(move) for move in oracle.legal_moves)
    assert sorted(board["moves"]["9"]["1"]) == ["b8=B", "b8=N", "b8=Q", "b8=R"]
    assert view["position"] == PROMOTE


def test_the_last_move_and_review(client: TestClient) -> None:
    view = start(client, "chess")
    view = post(client, view, "move", move="e4")
    assert view["board"]["last"] == [36, 52]  # e4 and e2, in cell order
    assert view["ply"] == 1 and view["review"] is False
    start_view = client.get(f"/api/sessions/{view['id']}?ply=0").json()
    assert start_view["review"] is True and start_view["ply"] == 0
    assert start_view["position"] == chess.STARTING_FEN
    assert start_view["board"]["moves"] == {} and start_view["board"]["last"] == []
    assert start_view["move_count"] == 1  # the game itself is unchanged
    for ply in (-1, 2):
        response = client.get(f"/api/sessions/{view['id']}?ply={ply}")
        assert response.status_code == 400
        assert "no position after" in response.json()["error"]


def test_a_bad_start_position_is_refused(client: TestClient) -> None:
    response = client.post("/api/sessions", json={"game": "chess", "position": "8/8/8 w"})
    assert response.status_code == 400
    assert "8/8/8 w" in response.json()["error"]
    response = client.post("/api/sessions", json={"game": "tree", "position": "x"})
    assert response.status_code == 400


def test_resign_and_take_it_back(client: TestClient) -> None:
    view = start(client, "tictactoe")
    view = post(client, view, "resign")
    assert view["turn"] == "over" and view["legal"] == []
    assert view["result"]["for_you"] == "loss" and view["result"]["winner"] == 1
    assert view["result"]["text"] == "X resigns; O wins"
    assert view["resigned"] == 0
    again = client.post(f"/api/sessions/{view['id']}/resign")
    assert again.status_code == 409
    view = post(client, view, "undo")
    assert view["result"] is None and view["turn"] == "human"


def test_a_depth_limit_bounds_the_engine(client: TestClient) -> None:
    view = start(client, "connect4", side=1, think=5, depth=2)
    assert view["depth"] == 2
    with client.stream("POST", f"/api/sessions/{view['id']}/search", json={}) as response:
        lines = [line for line in response.iter_lines() if line.startswith("data:")]
    reports = [json.loads(line[5:]) for line in lines[1:-1]]
    assert [report["depth"] for report in reports] == [1, 2]  # and not one ply deeper
    refused = client.post("/api/sessions", json={"game": "connect4", "depth": 0})
    assert refused.status_code == 422


def test_swap_sides_hands_the_move_to_the_engine(client: TestClient) -> None:
    view = start(client, "connect4")
    assert view["human"] == 0 and view["turn"] == "human"
    view = post(client, view, "swap")
    assert view["human"] == 1 and view["turn"] == "engine"


def test_heaps_in_the_view(client: TestClient) -> None:
    view = start(client, "nim", side=0)
    board = view["board"]
    assert board["kind"] == "heaps" and board["ranks"] == ["heap 1", "heap 2", "heap 3"]
    assert board["cells"] == [None] * 15
    view = post(client, view, "move", move=board["targets"]["12"])  # heap 3's third stone
    assert view["moves"][0]["text"] == "3:3"
    assert view["board"]["last"] == [12, 13, 14]  # the three stones taken
