"""The engine's worker pool: a bounded line of searches, places told, leavers dropped."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from zerosum.games.files import GameText
from zerosum.web.pool import QueueFullError, Search, SearchPool
from zerosum.web.sessions import Recipe, make_game

GOMOKU = Recipe("gomoku")
"""A game whose searches go on until stopped (their time limit is a minute)."""


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``scenario`` on an event loop of its own thread (the browser tests' Playwright
    keeps a loop running in this one)."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, scenario()).result()


async def next_message(search: Search) -> tuple[str, Any]:
    return await asyncio.wait_for(search.queue.get(), 30)


async def until(search: Search, kind: str) -> Any:
    """Read ``search``'s messages up to the first of ``kind``; return its data."""
    while True:
        seen, payload = await next_message(search)
        if seen == kind:
            return payload


def test_the_line_is_bounded_and_a_leaver_is_dropped_at_once() -> None:
    async def scenario() -> None:
        pool = SearchPool(1, "thread", queue=1)
        await pool.start()
        state = make_game(GOMOKU).initial_state()
        try:
            running = pool.submit(GOMOKU, state, 60)
            waiting = pool.submit(GOMOKU, state, 60)
            assert await next_message(waiting) == ("queued", {"position": 1})
            with pytest.raises(QueueFullError, match="the engine is busy") as full:
                pool.submit(GOMOKU, state, 60)
            assert 1 <= full.value.retry_after <= 60
            assert (pool.busy, pool.queued) == (1, 1)
            waiting.stop()  # its client went away before its turn
            assert await next_message(waiting) == (
                "done",
                {"move": None, "text": None, "report": None},
            )
            assert (pool.busy, pool.queued) == (1, 0)
            running.stop()
            done = await until(running, "done")
            assert done["move"] is not None  # a stopped search still answers
            assert (pool.busy, pool.queued) == (0, 0)
        finally:
            await pool.close()

    run(scenario)


def test_places_in_line_move_up_and_the_next_search_starts() -> None:
    async def scenario() -> None:
        pool = SearchPool(1, "thread")  # a line of twice the workers
        await pool.start()
        state = make_game(GOMOKU).initial_state()
        try:
            first = pool.submit(GOMOKU, state, 60)
            second = pool.submit(GOMOKU, state, 60)
            third = pool.submit(GOMOKU, state, 60)
            with pytest.raises(QueueFullError):
                pool.submit(GOMOKU, state, 60)
            assert await until(third, "queued") == {"position": 2}
            first.stop()
            await until(first, "done")
            assert await until(second, "started") == {}
            assert await until(third, "queued") == {"position": 1}
            assert (pool.busy, pool.queued) == (1, 1)
            for search in (third, second):
                search.stop()
                await until(search, "done")
            assert (pool.busy, pool.queued) == (0, 0)
        finally:
            await pool.close()

    run(scenario)


def test_a_worker_process_searches_an_uploaded_game() -> None:
    async def scenario() -> None:
        pool = SearchPool(1, "process")
        await pool.start()
        recipe = Recipe("maze", GameText("m.txt", "..#\n@..\n..."))
        game = make_game(recipe)
        state = game.initial_state()
        (only,) = game.actions(state)
        try:
            search = pool.submit(recipe, state, 5)
            done = await until(search, "done")
            assert done["text"] == game.format_move(state, only)
            assert done["report"]["score_text"] == "win in 1 ply"
            assert done["report"]["depth_text"] == "to the end"
        finally:
            await pool.close()

    run(scenario)
