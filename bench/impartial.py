"""Polynomial solutions where minimax is exponential: Stone Game VII and Grundy values.

* Stone Game VII (LeetCode 1690) on 1000 stones, the problem's maximum, with values
  1..1000 drawn with a fixed seed, solved by the dynamic programme over the 500,500 rows
  ``values[lo:hi]`` (target: under 2 s).
* The Grundy value of one heap of 100,000 in a subtraction game, by the memoised
  iterative walk of :mod:`zerosum.search.grundy` through the Game protocol, which values
  every smaller heap on the way (target: under 1 s).

Run: ``.venv/bin/python bench/impartial.py [--stones N] [--heap N] [--moves 1,3,4]``.
"""

from __future__ import annotations

import argparse
import random
import time

from zerosum.games.nim import Subtraction, parse_counts
from zerosum.games.stones import StoneGameVII
from zerosum.search.grundy import GrundyTable

STONES_TARGET = 2.0
GRUNDY_TARGET = 1.0


def _verdict(seconds: float, target: float) -> str:
    return f"{'meets' if seconds < target else 'MISSES'} the target of {target:g} s"


def bench_stones(count: int, seed: int) -> None:
    rng = random.Random(seed)
    values = [rng.randint(1, 1000) for _ in range(count)]
    game = StoneGameVII(values)
    start = time.perf_counter()
    solution = game.solve()
    seconds = time.perf_counter() - start
    print(
        f"stone game VII, {count} stones (seed {seed}): value {solution.value}, "
        f"{solution.states:,} states, {seconds:.3f} s; {_verdict(seconds, STONES_TARGET)}"
    )


def bench_grundy(heap: int, moves: tuple[int, ...]) -> None:
    game = Subtraction((heap,), moves)
    table: GrundyTable[tuple[tuple[int, ...], int], tuple[int, int]] = GrundyTable(game)
    start = time.perf_counter()
    value = table.value(game.initial_state())
    seconds = time.perf_counter() - start
    members = ",".join(map(str, moves))
    print(
        f"subtraction game {{{members}}}, heap {heap:,}: Grundy value {value}, "
        f"{table.size:,} states, {seconds:.3f} s; {_verdict(seconds, GRUNDY_TARGET)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stones", type=int, default=1000, help="stones in Stone Game VII")
    parser.add_argument("--seed", type=int, default=1690, help="seed of the stones' values")
    parser.add_argument("--heap", type=int, default=100_000, help="heap of the subtraction game")
    parser.add_argument("--moves", default="1,3,4", help="the subtraction set")
    args = parser.parse_args()
    bench_stones(args.stones, args.seed)
    bench_grundy(args.heap, parse_counts(args.moves, "subtraction set", positive=True))


if __name__ == "__main__":
    main()
