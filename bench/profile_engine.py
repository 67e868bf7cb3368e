"""Nodes per second of the engine, and where the time goes (cProfile of the hot path).

``python bench/profile_engine.py [rows]``

Speed is measured on tic-tac-toe (every reachable position searched to the end, one
engine and its table kept: the engine's own cost dominates) and on the 4x4 board, three
in a row, to depth 7 (iterative deepening with the game's evaluation). The profile then
shows the functions with the most time of their own: the engine's ``node`` against the
game's methods.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from collections.abc import Callable

from zerosum.games.mnk import MNKGame, tictactoe
from zerosum.search.engine import Engine, Limits
from zerosum.search.solve import solve_all


def tictactoe_everywhere() -> int:
    game = tictactoe()
    engine = Engine(game)
    return sum(engine.search(state).stats.nodes for state in solve_all(game))


def four_by_four() -> int:
    return Engine(MNKGame(4, 4, 3)).search(0, Limits(depth=7)).stats.nodes


def rate(name: str, work: Callable[[], int]) -> None:
    best = float("inf")
    nodes = 0
    for _ in range(3):
        start = time.perf_counter()
        nodes = work()
        best = min(best, time.perf_counter() - start)
    print(f"{name:48} {nodes:9d} nodes {best * 1000:9.1f} ms {nodes / best:10.0f} nodes/s")


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    rate("tic-tac-toe, every position to the end", tictactoe_everywhere)
    rate("4x4 k=3, depth 7 (iterative deepening)", four_by_four)
    profiler = cProfile.Profile()
    profiler.enable()
    tictactoe_everywhere()
    four_by_four()
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(rows)


if __name__ == "__main__":
    main()
