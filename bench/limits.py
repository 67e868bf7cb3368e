"""How well the engine keeps its limits on every registered game, and what its table costs.

``python bench/limits.py [searches] [table_size] [--games a,b] [--limit SECONDS]``

1. Time limits: for every game of the registry (or ``--games``), ``searches`` (default
   1000) searches with a 50 ms limit (``--limit``) from varied positions (random
   openings of 30, 12 and 4 plies from :func:`zerosum.arena.random_openings`, shorter
   where the game ends sooner), one engine per game so that
   its table carries over as in a game; one row per game with the worst, 99th percentile
   and median overrun (target: worst under 20 ms above the limit on an idle machine).
   Searches that end before the limit (the game solved from there) are counted apart:
   they have no overrun to measure; every other search counts, stopped or not.
2. Stop event: for every game, another thread sets the event of a search with no other
   limit after 20 to 38 ms; prints the worst and median delay until the search returns.
3. Memory: one connect-four engine with a ``table_size`` (default 2**20) entry table
   searched until the table is full; prints the resident memory (ru_maxrss) before and
   after and the cost per entry.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import threading
import time
from typing import Any

from zerosum.arena import OpeningError, random_openings
from zerosum.games import registry
from zerosum.games.connect4 import Connect4
from zerosum.notation import play
from zerosum.search.engine import Engine, EngineOptions, Limits

OPENING_PLIES = (30, 12, 4)
"""The lengths of the random openings, used in turn: a late, a middle and an early game."""


def midgame_positions(game: Any, count: int, seed: int) -> list[Any]:
    """``count`` positions after random openings of :data:`OPENING_PLIES` plies in turn
    (shorter where the game keeps ending before that)."""
    positions = []
    for index in range(count):
        plies = OPENING_PLIES[index % len(OPENING_PLIES)]
        while True:
            try:
                (opening,) = random_openings(game, plies, 1, seed + index)
                break
            except OpeningError:
                plies //= 2  # the game ends sooner than that: a shorter opening
        state = game.initial_state()
        for move in opening:
            state = play(game, state, move)
        positions.append(state)
    return positions


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted ``values`` lie."""
    return values[min(len(values) - 1, int(share * len(values)))]


def time_limits(names: list[str], searches: int, limit: float) -> None:
    print(f"1. {searches} searches a game with a {limit * 1000:.0f} ms limit (overrun in ms)")
    print(f"   {'game':<20}{'worst':>9}{'p99':>9}{'median':>9}  ended before the limit")
    for name in names:
        game = registry.make(name)
        engine = Engine(game)
        overruns = []
        early = 0
        for state in midgame_positions(game, searches, seed=1):
            start = time.perf_counter()
            result = engine.search(state, Limits(time=limit))
            elapsed = time.perf_counter() - start
            assert result.best_move in game.actions(state)
            # a search that returns after the limit overran it, stopped or not (a threat
            # search at the root that ends late reports no stop)
            if elapsed >= limit or result.stats.stopped:
                overruns.append(elapsed - limit)
            else:
                early += 1
        overruns.sort()
        if overruns:
            print(
                f"   {name:<20}{overruns[-1] * 1000:9.2f}{percentile(overruns, 0.99) * 1000:9.2f}"
                f"{statistics.median(overruns) * 1000:9.2f}  {early}"
            )
        else:
            print(f"   {name:<20}{'-':>9}{'-':>9}{'-':>9}  {early} (every search)")
    print("   (target: worst < 20 ms)")


def search_into(found: list[Any], game: Any, state: Any, stop: threading.Event) -> None:
    """Search ``state`` with a new engine until ``stop`` is set; append the result."""
    found.append(Engine(game).search(state, Limits(stop=stop)))


def stop_event(names: list[str], trials: int) -> None:
    print(f"2. stop event set from another thread, {trials} searches a game (delay in ms)")
    print(f"   {'game':<20}{'worst':>9}{'median':>9}  ended before the event")
    rng = random.Random(2)
    for name in names:
        game = registry.make(name)
        delays = []
        early = 0
        for state in midgame_positions(game, trials, seed=2):
            stop = threading.Event()
            found: list[Any] = []
            thread = threading.Thread(target=search_into, args=(found, game, state, stop))
            thread.start()
            time.sleep(0.02 + 0.002 * rng.randrange(10))
            stop.set()
            set_at = time.perf_counter()
            thread.join()
            if found[0].stats.stopped:
                delays.append(time.perf_counter() - set_at)
            else:
                early += 1
        if delays:
            print(
                f"   {name:<20}{max(delays) * 1000:9.2f}{statistics.median(delays) * 1000:9.2f}"
                f"  {early}"
            )
        else:
            print(f"   {name:<20}{'-':>9}{'-':>9}  {early} (every search)")


def memory(table_size: int) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    game = Connect4()
    engine = Engine(game, EngineOptions(table_size=table_size))
    table = engine.table
    assert table is not None
    allocated = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for state in midgame_positions(game, 200, seed=3):
        engine.search(state, Limits(time=1.0))
        if table.fill_permille() >= 990:
            break
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"3. memory, table bound {table.capacity} entries, {len(table)} filled "
        f"({table.fill_permille()} permille)"
    )
    print(
        f"   ru_maxrss: {before / 1024:.1f} MB at start, {allocated / 1024:.1f} MB with the "
        f"empty table, {after / 1024:.1f} MB full; "
        f"{(after - before) * 1024 / max(len(table), 1):.0f} bytes per entry"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("searches", nargs="?", type=int, default=1000, help="searches a game")
    parser.add_argument("table_size", nargs="?", type=int, default=1 << 20, help="table bound")
    parser.add_argument("--games", help="comma-separated registry names (default: every game)")
    parser.add_argument("--limit", type=float, default=0.05, help="time limit in seconds")
    parser.add_argument("--skip-memory", action="store_true", help="leave out part 3")
    args = parser.parse_args()
    names = args.games.split(",") if args.games else registry.names()
    time_limits(names, args.searches, args.limit)
    stop_event(names, max(10, args.searches // 20))
    if not args.skip_memory:
        memory(args.table_size)


if __name__ == "__main__":
    main()
