"""The server's defences checked against a real ``zerosum serve`` over HTTP: a request
that once took it down, files it once read, a client that once evicted everyone, and
searches that once queued without bound and outlived their clients.

Every request goes to 127.0.0.1, with a timeout; loops are bounded."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from zerosum import cli


def read_until(lines: Iterator[str], wanted: str) -> Any:
    """Read server-sent events from ``lines`` up to the first ``wanted`` one; its data.

    Keep ``lines`` referenced while the stream should stay open: httpx closes the
    connection when the iterator is thrown away."""
    kind = ""
    for line in lines:
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:") and kind == wanted:
            return json.loads(line[5:])
    raise AssertionError(f"the stream ended without a {wanted!r} event")


def wait_for_health(base: str, seconds: float, **expected: int) -> dict[str, Any]:
    """Poll the health endpoint until it shows ``expected``; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        health: dict[str, Any] = httpx.get(f"{base}/api/health", timeout=10).json()
        if all(health[key] == value for key, value in expected.items()):
            return health
        if time.monotonic() > deadline:
            raise AssertionError(f"health still {health} after {seconds} s, not {expected}")
        time.sleep(0.1)


def test_the_nim_memory_bomb_is_refused_and_the_server_stays_up(busy_server: str) -> None:
    body = {"game": "nim:heaps=1000000000,999999999"}
    began = time.monotonic()
    response = httpx.post(f"{busy_server}/api/sessions", json=body, timeout=20)
    elapsed = time.monotonic() - began
    assert response.status_code == 400, response.text
    assert "at most 1,000 here" in response.json()["error"]
    assert elapsed < 3  # well within a second when the machine is idle
    assert httpx.get(f"{busy_server}/api/health", timeout=5).status_code == 200


@pytest.mark.parametrize("spec", ["maze:file=/etc/passwd", "graph:file=/dev/zero"])
@pytest.mark.parametrize("path", ["/api/sessions", "/api/lab"])
def test_files_are_never_opened(busy_server: str, path: str, spec: str) -> None:
    began = time.monotonic()
    response = httpx.post(f"{busy_server}{path}", json={"game": spec}, timeout=20)
    assert time.monotonic() - began < 3
    assert response.status_code == 400, response.text
    assert "names a file on this machine" in response.json()["error"]
    assert "root:" not in response.text


def test_one_cookie_cannot_evict_another_clients_game(busy_server: str) -> None:
    game = {"game": "tictactoe", "think": 0.2}
    with (
        httpx.Client(base_url=busy_server, timeout=20) as other,
        httpx.Client(base_url=busy_server, timeout=20) as flood,
    ):
        theirs = other.post("/api/sessions", json=game).json()["id"]
        made = []
        statuses: dict[int, int] = {}
        for _ in range(1100):  # more than the old store of 1,000 held
            response = flood.post("/api/sessions", json=game)
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            if response.status_code == 200:
                made.append(response.json()["id"])
        try:
            assert statuses == {200: 16, 429: 1084}
            assert "retry-after" in response.headers
            assert other.get(f"/api/sessions/{theirs}").status_code == 200
        finally:
            for session in [*made]:
                flood.delete(f"/api/sessions/{session}")
            other.delete(f"/api/sessions/{theirs}")


def test_a_full_line_is_refused_and_leavers_stop_their_searches(busy_server: str) -> None:
    # one worker and a line of one: a third search at once is one too many
    game = {"game": "gomoku", "side": 1, "think": 60}
    with httpx.Client(base_url=busy_server, timeout=30) as client:
        sessions = [client.post("/api/sessions", json=game).json()["id"] for _ in range(3)]
        try:
            url = "/api/sessions/{}/search"
            with client.stream("POST", url.format(sessions[0]), json={}) as running:
                assert running.status_code == 200
                running_lines = running.iter_lines()
                read_until(running_lines, "start")
                with client.stream("POST", url.format(sessions[1]), json={}) as waiting:
                    waiting_lines = waiting.iter_lines()
                    assert read_until(waiting_lines, "queued") == {"position": 1}
                    refused = client.post(url.format(sessions[2]), json={})
                    assert refused.status_code == 503, refused.text
                    assert int(refused.headers["retry-after"]) >= 1
                    assert "the engine is busy" in refused.json()["error"]
                    wait_for_health(busy_server, 10, searches=1, queued=1)
                # the waiting search's client left: it leaves the line
                wait_for_health(busy_server, 20, searches=1, queued=0)
            # and the running one's: it stops, long before its minute is up
            wait_for_health(busy_server, 20, searches=0, queued=0)
            assert client.get(f"/api/sessions/{sessions[0]}").json()["thinking"] is False
        finally:
            for session in sessions:
                client.delete(f"/api/sessions/{session}")


def test_serve_without_the_web_extra_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if uvicorn were not installed
    assert cli.main(["serve", "--port", "0"]) == 2
    error = capsys.readouterr().err
    assert "uvicorn is missing" in error
    assert "pip install -e '.[web]'" in error
    assert "pip install 'zerosum[web]'" in error


def test_serve_offers_your_own_game_and_its_engine_plays_it(own_game_server: str) -> None:
    # the game is registered in the server and again in its worker process, which
    # starts afresh: the engine's move proves the worker can make the game
    with httpx.Client(base_url=own_game_server, timeout=30) as client:
        names = [game["name"] for game in client.get("/api/games").json()["games"]]
        assert "hexapawn" in names
        view = client.post("/api/sessions", json={"game": "hexapawn", "side": 1}).json()
        assert view["game"]["title"] == "Hexapawn"
        url = f"/api/sessions/{view['id']}/search"
        with client.stream("POST", url, json={"purpose": "move"}) as answer:
            done = read_until(answer.iter_lines(), "done")
        assert done["applied"] is True
        assert done["state"]["moves"][0]["text"] == done["move"]
        # a stranger still cannot name a module to import
        refused = client.post("/api/sessions", json={"game": "os:getcwd"})
        assert refused.status_code in (400, 404), refused.text


def test_serve_refuses_a_game_that_is_not_there() -> None:
    with pytest.raises(SystemExit) as exit_status:
        sys.exit(cli.main(["serve", "--game", "no_such_module_here:Game", "--port", "0"]))
    assert exit_status.value.code == 2
