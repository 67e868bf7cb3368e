"""Connect four opening books: build time per ply on 1 and 2 workers, positions, file size.

Run from the project root (numba installed for the compiled kernel, else the pure path)::

    .venv/bin/python bench/connect4_book.py                      # two small boards, ~1 min
    .venv/bin/python bench/connect4_book.py --book connect4:width=6,height=4:8
    .venv/bin/python bench/connect4_book.py --sample 7 --sample-size 6   # 7x6 at ply 7

For each ``SPEC:PLIES`` it builds the book (:func:`zerosum.book.build`) from scratch
into a temporary file, once on one worker (this process) and once on a pool of two, and
prints per ply the positions (one per mirror pair, the game not over), the wall seconds
of each build and the speed-up, then the file size and whether both files hold the same
rows. Only the deepest ply is searched; the shallower ones are read back from the book,
so they cost milliseconds. The two-worker figure includes starting the pool and each
worker loading the kernel (about half a second).

``--sample PLY`` estimates what a 7x6 book of ``PLY`` plies costs without building it:
it counts the positions at that ply and times the kernel's exact solve of
``--sample-size`` of them drawn at random (a fresh kernel, so no table carried over),
then multiplies. The machine is shared: wall times vary with the load.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from zerosum import kernels
from zerosum.book import PlyReport, build
from zerosum.games.connect4 import Connect4
from zerosum.games.registry import make

DEFAULT_BOOKS = ("connect4:width=5,height=4:8", "connect4:width=6,height=4:6")


def rows(path: Path) -> list[tuple[int, int, int]]:
    with sqlite3.connect(path) as connection:
        return sorted(connection.execute("SELECT key, ply, score FROM positions"))


def timed(spec: str, plies: int, workers: int, folder: Path) -> tuple[list[PlyReport], Path]:
    path = folder / f"book-{workers}.sqlite"
    reports = build(spec, path, plies, workers=workers)
    return sorted(reports, key=lambda r: r.ply), path


def bench_book(text: str) -> None:
    spec, _, plies_text = text.rpartition(":")
    plies = int(plies_text)
    with tempfile.TemporaryDirectory() as folder:
        one, one_path = timed(spec, plies, 1, Path(folder))
        two, two_path = timed(spec, plies, 2, Path(folder))
        same = rows(one_path) == rows(two_path)
        size = one_path.stat().st_size
    print(f"\n{spec}, {plies} plies")
    print(f"{'ply':>4} {'positions':>10} {'1 worker s':>11} {'2 workers s':>12} {'speed-up':>9}")
    for a, b in zip(one, two, strict=True):
        ratio = a.seconds / b.seconds if b.seconds > 0 else float("nan")
        print(f"{a.ply:>4} {a.positions:>10,} {a.seconds:>11.2f} {b.seconds:>12.2f} {ratio:>8.2f}x")
    total_one = sum(r.seconds for r in one)
    total_two = sum(r.seconds for r in two)
    print(
        f"{'all':>4} {sum(r.positions for r in one):>10,} {total_one:>11.2f} {total_two:>12.2f} "
        f"{total_one / total_two:>8.2f}x"
    )
    print(f"file: {size:,} bytes; same rows on 1 and 2 workers: {same}")


def sample(ply: int, size: int, seed: int) -> None:
    from zerosum.games.connect4_kernel import Connect4Kernel

    game = Connect4()
    level = {game.canonical_key(game.initial_state()): game.initial_state()}
    for _ in range(ply):
        following = {}
        for state in level.values():
            for move in game.actions(state):
                child = game.result(state, move)
                if not game.is_terminal(child):
                    following.setdefault(game.canonical_key(child), child)
        level = following
    states = random.Random(seed).sample(sorted(level.values()), size)
    times = []
    for state in states:
        kernel = Connect4Kernel(game)
        start = time.process_time()
        kernel.value(state)
        times.append(time.process_time() - start)
    mean = statistics.fmean(times)
    print(f"\n7x6 ply {ply}: {len(level):,} positions (one per mirror pair, the game not over)")
    print(
        f"kernel solve of {size} random ones: mean {mean:.3f} s, median "
        f"{statistics.median(times):.3f} s, max {max(times):.3f} s"
    )
    print(f"projected: {len(level) * mean / 3600:.1f} CPU hours for the deepest ply")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--book", action="append", help="SPEC:PLIES to build (repeatable)")
    parser.add_argument("--sample", type=int, help="estimate a 7x6 book of this many plies")
    parser.add_argument("--sample-size", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"kernels: {'on' if kernels.enabled() else 'off (pure Python)'}; load average {load}")
    if args.sample is None or args.book:
        for text in args.book or DEFAULT_BOOKS:
            make(text.rpartition(":")[0])  # a bad spec fails before any build
            bench_book(text)
    if args.sample is not None:
        sample(args.sample, args.sample_size, args.seed)


if __name__ == "__main__":
    main()
