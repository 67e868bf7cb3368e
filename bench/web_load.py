"""Load check of the browser app: concurrent sessions each playing a game over HTTP.

The script starts ``zerosum serve`` itself on a free loopback port, then runs N sessions
at once (100 by default), each with its own client and cookie: start a game, then play
random legal moves against the engine until the game ends, asking the engine to move
through the streaming search endpoint. It reports errors (the target is 0) and the
latency of the non-search requests (new game, move, state), whose 95th percentile is
what a person feels while others' searches run.

It is also the overload case: with more sessions than the engine's line holds (twice
the workers by default, ``--queue``), searches are refused with 503 and a Retry-After
header; the script waits as told and asks again, and reports how many were refused
(every refusal must carry Retry-After; one without counts as an error). The server runs
with ``--per-address 0``, since every session comes from 127.0.0.1.

    .venv/bin/python bench/web_load.py [--sessions 100] [--pool process|thread] [--queue N]

Traffic goes only to 127.0.0.1; every request has a timeout and the whole run a deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.searches: list[float] = []
        self.errors: list[str] = []
        self.refused = 0
        self.games = 0
        self.outcomes: dict[str, int] = {}


async def timed(tally: Tally, call: Any) -> httpx.Response:
    start = time.perf_counter()
    response: httpx.Response = await call
    tally.latencies.append(time.perf_counter() - start)
    return response


async def engine_move(client: httpx.AsyncClient, session: str, tally: Tally) -> Any:
    start = time.perf_counter()
    state = None
    while state is None:
        async with client.stream(
            "POST", f"/api/sessions/{session}/search", json={"purpose": "move"}
        ) as response:
            if response.status_code == 503:  # the engine's line is full: wait as told
                await response.aread()
                wait = response.headers.get("retry-after")
                if wait is None:
                    raise RuntimeError("search: 503 without Retry-After")
                tally.refused += 1
                await asyncio.sleep(int(wait))
                continue
            if response.status_code != 200:
                raise RuntimeError(f"search: {response.status_code} {await response.aread()!r}")
            kind = ""
            async for line in response.aiter_lines():
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:") and kind in ("done", "error"):
                    data = json.loads(line[5:])
                    if kind == "error":
                        raise RuntimeError(f"search error: {data}")
                    state = data["state"]
            if state is None:
                raise RuntimeError("search stream ended without a done event")
    tally.searches.append(time.perf_counter() - start)
    return state


async def play_one(base: str, index: int, args: argparse.Namespace, tally: Tally) -> None:
    chooser = random.Random(index)
    async with httpx.AsyncClient(base_url=base, timeout=args.timeout) as client:
        try:
            body = {"game": args.game, "side": index % 2, "think": args.think}
            response = await timed(tally, client.post("/api/sessions", json=body))
            response.raise_for_status()
            view = response.json()
            while view["result"] is None:
                if view["turn"] == "engine":
                    view = await engine_move(client, view["id"], tally)
                    response = await timed(tally, client.get(f"/api/sessions/{view['id']}"))
                    response.raise_for_status()
                    view = response.json()
                else:
                    move = chooser.choice(view["legal"])
                    response = await timed(
                        tally,
                        client.post(f"/api/sessions/{view['id']}/move", json={"move": move}),
                    )
                    response.raise_for_status()
                    view = response.json()
            tally.games += 1
            verdict = view["result"]["for_you"]
            tally.outcomes[verdict] = tally.outcomes.get(verdict, 0) + 1
        except Exception as error:
            tally.errors.append(f"session {index}: {type(error).__name__}: {error}")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run(base: str, args: argparse.Namespace) -> Tally:
    tally = Tally()
    await asyncio.wait_for(
        asyncio.gather(*(play_one(base, i, args, tally) for i in range(args.sessions))),
        timeout=args.deadline,
    )
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--game", default="tictactoe")
    parser.add_argument("--think", type=float, default=0.05, help="engine seconds per move")
    parser.add_argument("--pool", choices=("process", "thread"), default="process")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--queue", type=int, help="searches waiting (default: the server's)")
    parser.add_argument("--timeout", type=float, default=60.0, help="per request, seconds")
    parser.add_argument("--deadline", type=float, default=600.0, help="whole run, seconds")
    args = parser.parse_args()

    port = free_port()
    command = [sys.executable, "-m", "zerosum.cli", "serve", "--port", str(port)]
    command += ["--pool", args.pool, "--workers", str(args.workers), "--per-address", "0"]
    if args.queue is not None:
        command += ["--queue", str(args.queue)]
    server = subprocess.Popen(command, cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                print("web_load: the server did not start", file=sys.stderr)
                return 1
            time.sleep(0.1)
        start = time.perf_counter()
        tally = asyncio.run(run(base, args))
        wall = time.perf_counter() - start
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()

    lat = tally.latencies
    print(
        f"{args.sessions} sessions of {args.game}, {args.pool} pool x{args.workers}, "
        f"engine {args.think} s/move: {tally.games} games in {wall:.1f} s"
    )
    print(f"outcomes for the random players: {tally.outcomes}")
    print(f"errors: {len(tally.errors)}")
    print(f"searches refused while the engine's line was full (503, Retry-After): {tally.refused}")
    for line in tally.errors[:10]:
        print(f"  {line}")
    if lat:
        print(
            f"non-search requests: {len(lat)}, median {statistics.median(lat) * 1000:.1f} ms, "
            f"p95 {percentile(lat, 0.95) * 1000:.1f} ms, max {max(lat) * 1000:.1f} ms"
        )
    if tally.searches:
        print(
            f"searches: {len(tally.searches)}, median "
            f"{statistics.median(tally.searches) * 1000:.1f} ms, "
            f"p95 {percentile(tally.searches, 0.95) * 1000:.1f} ms (queueing included)"
        )
    return 1 if tally.errors else 0


if __name__ == "__main__":
    sys.exit(main())
