"""How well the engine keeps its limits, and what its table costs in memory.

``python bench/limits.py [searches] [table_size]``

1. Time limits: ``searches`` (default 1000) searches of 50 ms each on varied connect-four
   positions; prints the worst and typical overrun (target: worst under 20 ms).
2. Stop event: another thread sets the event; prints the worst delay until the search
   returns.
3. Memory: one engine with a ``table_size`` (default 2**20) entry table searched until
   the table is full; prints the resident memory (ru_maxrss) before and after and the
   cost per entry.
"""

from __future__ import annotations

import random
import resource
import statistics
import sys
import threading
import time

from zerosum.games.connect4 import Connect4
from zerosum.search.engine import Engine, EngineOptions, Limits


def positions(game: Connect4, count: int, seed: int = 1) -> list[tuple[int, int]]:
    """Random positions 0 to 12 plies deep, none finished."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(13)):
            state = game.result(state, rng.choice(game.actions(state)))
            if game.is_terminal(state):
                break
        if not game.is_terminal(state):
            found.append(state)
    return found


def time_limits(searches: int) -> None:
    game = Connect4()
    engine = Engine(game)
    limit = 0.05
    overruns = []
    for state in positions(game, searches):
        start = time.perf_counter()
        result = engine.search(state, Limits(time=limit))
        overruns.append(time.perf_counter() - start - limit)
        assert result.best_move in game.actions(state)
    overruns.sort()
    print(f"1. {searches} searches with a {limit * 1000:.0f} ms limit (connect four)")
    print(
        f"   overrun: worst {overruns[-1] * 1000:.2f} ms, 99th percentile "
        f"{overruns[int(0.99 * len(overruns))] * 1000:.2f} ms, median "
        f"{statistics.median(overruns) * 1000:.2f} ms  (target: worst < 20 ms)"
    )


def stop_event(trials: int = 50) -> None:
    game = Connect4()
    delays = []
    for index, state in enumerate(positions(game, trials, seed=2)):
        stop = threading.Event()
        engine = Engine(game)
        thread = threading.Thread(target=engine.search, args=(state, Limits(stop=stop)))
        thread.start()
        time.sleep(0.02 + 0.002 * (index % 10))
        stop.set()
        set_at = time.perf_counter()
        thread.join()
        delays.append(time.perf_counter() - set_at)
    print(f"2. stop event set from another thread, {trials} searches")
    print(
        f"   delay until the search returned: worst {max(delays) * 1000:.2f} ms, "
        f"median {statistics.median(delays) * 1000:.2f} ms"
    )


def memory(table_size: int) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    game = Connect4()
    engine = Engine(game, EngineOptions(table_size=table_size))
    table = engine.table
    assert table is not None
    allocated = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for state in positions(game, 200, seed=3):
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
    searches = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    table_size = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 20
    time_limits(searches)
    stop_event()
    memory(table_size)


if __name__ == "__main__":
    main()
