"""Chess perft: zerosum's move generator against python-chess's, on the same positions.

Run from the project root (python-chess is the test oracle: ``.venv/bin/pip install chess``)::

    .venv/bin/python bench/chess_perft.py                 # every position, counts up to 1M
    .venv/bin/python bench/chess_perft.py --max-nodes 200000000   # every published count
    .venv/bin/python bench/chess_perft.py --profile cpw-2-kiwipete --depth 3
    .venv/bin/python bench/chess_perft.py --no-peer       # zerosum alone (checks counts)

For each position of ``../shared/data/chess/perft_cpw.epd`` and ``tricky.perft`` it runs
the deepest published depth whose count is at most ``--max-nodes`` (or ``--depth``), with
the same method on both sides: legal moves made and unmade down to the last ply, where
they are only counted ("bulk counting": ``len(legal_moves(s))`` for zerosum,
``board.legal_moves.count()`` for python-chess). It checks both counts against the
published one and prints nodes per second (leaves per CPU second) and the ratio
zerosum / python-chess (above 1: zerosum is faster). Times are CPU seconds of the
process, the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zerosum.games.chess import Chess
from zerosum.games.chess.rules import perft

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "chess"


def read_cases() -> list[tuple[str, str, dict[int, int]]]:
    """(name, FEN, {depth: count}) of every published perft position."""
    cases = []
    for line in (DATA / "perft_cpw.epd").read_text().splitlines():
        if not line.strip():
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
    current: tuple[str, str, dict[int, int]] | None = None
    for line in (DATA / "tricky.perft").read_text().splitlines():
        words = line.split(None, 1)
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "id":
            current = (words[1].strip(), "", {})
            cases.append(current)
        elif words[0] == "epd" and current is not None:
            cases[-1] = current = (current[0], words[1].strip(), current[2])
        elif words[0] == "perft" and current is not None:
            depth, count = words[1].split()
            current[2][int(depth)] = int(count)
    return cases


def peer_perft(board: Any, depth: int) -> int:
    """python-chess perft with bulk counting at the last ply."""
    if depth == 1:
        return int(board.legal_moves.count())
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += peer_perft(board, depth - 1)
        board.pop()
    return nodes


def best_time(work: Callable[[], int], repeat: int) -> tuple[int, float]:
    """The result of ``work`` and its best CPU time over ``repeat`` runs."""
    best = float("inf")
    value = 0
    for _ in range(repeat):
        start = time.process_time()
        value = work()
        best = min(best, time.process_time() - start)
    return value, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--max-nodes", type=int, default=1_000_000)
    parser.add_argument("--depth", type=int, help="this depth where published")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--profile", metavar="NAME", help="profile zerosum on one position")
    args = parser.parse_args()
    if not DATA.exists():
        sys.exit(f"{DATA} is absent (see ../shared/data/README.md)")
    peer: Any = None
    if not args.no_peer:
        try:
            import chess as peer
        except ImportError:
            sys.exit("python-chess is not installed: .venv/bin/pip install chess, or --no-peer")
    total = {"nodes": 0, "ours": 0.0, "theirs": 0.0}
    print(f"{'position':28} {'d':>2} {'nodes':>10} {'zerosum n/s':>12} {'peer n/s':>10} ratio")
    for name, fen, counts in read_cases():
        # Chess960 rules read every position: they agree with standard chess on standard
        # castling rights, and "asymmetrical-and-king-on-h" is counted with its q right
        # (king h8, rook a8), which only Chess960 allows.
        chess960 = True
        game = Chess(chess960=chess960)
        state = game.parse_state(fen)
        if args.depth is not None:
            depths = [args.depth] if args.depth in counts else []
        else:
            depths = [d for d, n in counts.items() if n <= args.max_nodes][-1:]
        if args.profile:
            if name == args.profile and depths:
                profiler = cProfile.Profile()
                profiler.runcall(perft, state, depths[0])
                pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
            continue
        for depth in depths:
            expected = counts[depth]
            nodes, ours = best_time(lambda: perft(state, depth), args.repeat)  # noqa: B023
            if nodes != expected:
                sys.exit(f"{name} depth {depth}: zerosum counts {nodes}, published {expected}")
            line = f"{name:28} {depth:>2} {nodes:>10,} {nodes / ours:>12,.0f}"
            if peer is not None:
                board = peer.Board(fen, chess960=chess960)
                theirs_nodes, theirs = best_time(
                    lambda: peer_perft(board, depth),  # noqa: B023
                    args.repeat,
                )
                if theirs_nodes != expected:
                    sys.exit(f"{name} depth {depth}: python-chess counts {theirs_nodes}")
                line += f" {nodes / theirs:>10,.0f} {theirs / ours:5.2f}x"
                total["theirs"] += theirs
            total["nodes"] += nodes
            total["ours"] += ours
            print(line, flush=True)
    if args.profile:
        return
    summary = f"{'all':28}    {total['nodes']:>10,} {total['nodes'] / total['ours']:>12,.0f}"
    if peer is not None:
        ratio = total["theirs"] / total["ours"]
        summary += f" {total['nodes'] / total['theirs']:>10,.0f} {ratio:5.2f}x"
    print(summary)


if __name__ == "__main__":
    main()
