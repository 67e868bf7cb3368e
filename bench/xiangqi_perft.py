"""Xiangqi perft: zerosum's move generator against pyffish's (Fairy-Stockfish as a Python
module), on the same positions, side by side in one run.

Run from the project root (pyffish is a test dependency of the project's venv)::

    .venv/bin/python bench/xiangqi_perft.py                  # zerosum to depth 5, both at 3
    .venv/bin/python bench/xiangqi_perft.py --depth 4 --peer-depth 2
    .venv/bin/python bench/xiangqi_perft.py --no-peer        # zerosum alone (checks counts)

The positions are those of ``../shared/data/xiangqi/perft_xiangqi.txt``.

1. **Side by side**: every position at ``--peer-depth`` (default 3), zerosum and
   pyffish one after the other, both counts checked against the published one (or, where
   the file gives none at that depth, against each other), leaves per CPU second and the
   ratio zerosum / pyffish (above 1: zerosum is faster).
2. **Depth 5**: zerosum alone at the deepest published depth up to ``--depth`` (default
   5), every count checked, leaves per CPU second.

How pyffish is driven: it has no perft and no position object, only calls that take a
FEN and a list of moves from it. Its perft here makes one ``legal_moves("xiangqi", FEN,
moves)`` call per interior node, the moves being the path from the position (replayed
in C++), and counts the last ply's moves without making them (bulk counting), as
zerosum's :func:`~zerosum.games.xiangqi.rules.perft` does. That is the cheapest way
its interface allows: one call a node, where going through each child's FEN
(``get_fen``) would cost two. Every pyffish call costs about the same fixed time
whatever it asks (measured: ``legal_moves``, ``get_fen`` and ``gives_check`` alike),
so its rate is the leaves per interior node over that time. Times are CPU seconds of
the process, the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from zerosum.games.xiangqi.notation import parse_fen
from zerosum.games.xiangqi.rules import perft

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "xiangqi"


def read_cases() -> list[tuple[str, str, dict[int, int]]]:
    """(name, FEN, {depth: count}) of every published perft position."""
    cases = []
    for line in (DATA / "perft_xiangqi.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, *fields = (part.strip() for part in line.split(";"))
        counts = {}
        name = fen
        for field in fields:
            if field.startswith("D"):
                depth, count = field[1:].split()
                counts[int(depth)] = int(count)
            elif field.startswith("id"):
                name = field.split(None, 1)[1].strip('"')
        cases.append((name, fen, counts))
    return cases


def pyffish_perft(fen: str, depth: int) -> int:
    """Perft through pyffish: one ``legal_moves`` call per interior node (see the notes)."""
    import pyffish

    legal = pyffish.legal_moves

    def count(path: list[str], depth: int) -> int:
        moves = legal("xiangqi", fen, path)
        if depth == 1:
            return len(moves)
        return sum(count([*path, move], depth - 1) for move in moves)

    return count([], depth) if depth > 0 else 1


def timed(run: Callable[[], int], repeat: int) -> tuple[int, float]:
    """The count ``run`` returns and its best CPU time over ``repeat`` runs."""
    best = float("inf")
    found = 0
    for _ in range(repeat):
        start = time.process_time()
        found = run()
        best = min(best, time.process_time() - start)
    return found, best


def check(name: str, depth: int, found: int, expected: int | None, who: str) -> None:
    """Stop the bench when ``found`` is not the published count."""
    if expected is not None and found != expected:
        raise SystemExit(f"{who}: {name} depth {depth}: {found}, published {expected}")


def side_by_side(cases: list[tuple[str, str, dict[int, int]]], depth: int, repeat: int) -> None:
    """Both generators on every position at ``depth``: counts, rates and ratios."""
    print(f"side by side, depth {depth} (leaves per CPU second; ratio zerosum / pyffish)")
    print(f"{'position':20} {'leaves':>10} {'zerosum':>12} {'pyffish':>10} {'ratio':>7}")
    total = [0, 0.0, 0.0]
    for name, fen, counts in cases:
        state = parse_fen(fen)
        ours, our_time = timed(lambda state=state: perft(state, depth), repeat)
        theirs, their_time = timed(lambda fen=fen: pyffish_perft(fen, depth), repeat)
        check(name, depth, ours, counts.get(depth), "zerosum")
        check(name, depth, theirs, counts.get(depth, ours), "pyffish")
        total[0] += ours
        total[1] += our_time
        total[2] += their_time
        print(
            f"{name:20} {ours:10d} {ours / our_time:12,.0f} {theirs / their_time:10,.0f} "
            f"{their_time / our_time:6.1f}x"
        )
    leaves, our_time, their_time = total
    print(
        f"{'all':20} {int(leaves):10d} {leaves / our_time:12,.0f} {leaves / their_time:10,.0f} "
        f"{their_time / our_time:6.1f}x"
    )


def deep(cases: list[tuple[str, str, dict[int, int]]], depth: int, repeat: int) -> None:
    """zerosum alone at the deepest published depth up to ``depth``, counts checked."""
    print(f"\nzerosum alone, the deepest published depth up to {depth}")
    print(f"{'position':20} {'depth':>5} {'leaves':>11} {'seconds':>8} {'leaves/s':>11}")
    leaves = 0
    spent = 0.0
    for name, fen, counts in cases:
        reached = max((d for d in counts if d <= depth), default=None)
        if reached is None:
            continue
        state = parse_fen(fen)
        found, seconds = timed(lambda state=state, d=reached: perft(state, d), repeat)
        check(name, reached, found, counts[reached], "zerosum")
        leaves += found
        spent += seconds
        print(f"{name:20} {reached:5d} {found:11d} {seconds:8.2f} {found / seconds:11,.0f}")
    print(f"{'all':20} {'':5} {leaves:11d} {spent:8.2f} {leaves / spent:11,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=5, help="zerosum's depth (default 5)")
    parser.add_argument("--peer-depth", type=int, default=3, help="the side-by-side depth")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each, the best kept")
    parser.add_argument("--no-peer", action="store_true", help="zerosum alone")
    args = parser.parse_args()
    cases = read_cases()
    if not args.no_peer:
        side_by_side(cases, args.peer_depth, args.repeat)
    deep(cases, args.depth, args.repeat)


if __name__ == "__main__":
    main()
