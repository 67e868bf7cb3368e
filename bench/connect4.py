"""Connect four: zerosum's solver on Pascal Pons' four test sets, against his C++ solver,
easyAI and OpenSpiel.

Run from the project root (peers come from bench/.venv, made by bench/setup.sh)::

    bench/.venv/bin/python bench/connect4.py                # everything, ~25 min
    bench/.venv/bin/python bench/connect4.py --quick        # a sample of each set
    bench/.venv/bin/python bench/connect4.py --profile Test_L2_R1
    bench/.venv/bin/python bench/connect4.py --small        # 6x5 and 5x6 from empty

For each set it prints, per position, the mean time and nodes of the following, each
position solved cold (the table and the game's memos emptied first, as Pons resets his
solver). Times are CPU seconds of the process (``time.process_time``): on a machine shared
with other work, wall time also counts the waits for a core, which CPU time does not; on
an idle machine the two agree for a single-threaded solver like Pons'.

* ``solve`` -- :func:`zerosum.search.solve.solve`: the exact score and every best move
  (the engine's MTD-bi driver, then one null-window test per root move);
* ``score`` -- the exact score and one best move, ``solve(best_moves=False)``: the same
  bisection on win distances, bounded by the game's ``remaining_plies``, without the
  search for every best move. This is what Pons' figures measure (his solver gives the
  score alone), so its ratios are the like-for-like comparison and carry the targets;
* ``weak`` -- only for the peers' lines: win/draw/loss (what the peers compute), by
  ``solve(weak=True, best_moves=False)``: four null-window searches at most (the exact
  solve's first two probes, then the sign).

Reference: Pons' C++ solver on a machine like ours (from the shared data README): mean
6.5 us (Test_L3_R1), 43 us (Test_L2_R1), 4.3 ms (Test_L2_R2), 0.30 ms (Test_L1_R1) per
position at 7-11 million nodes per second. ASSUMPTION: its mean nodes per position are
that time x 8.5 million nodes/s (the middle of the range). Targets: nodes within 1.5x,
time within 40x. The peers solve the first lines of each set (weak: the sign) with a
per-position time cap; a capped position counts at the cap, so their ratios are lower
bounds on how much slower they are. ``--quick`` takes 10 lines of Test_L2_R2, whose node
counts spread over two orders of magnitude: its mean is dominated by one or two lines, so
judge that set on the default sample (100 lines) or ``--hard-step 1``.
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zerosum.games.connect4 import SOLVED_VALUES, Connect4, State
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solve import solve

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "connect4"

REFERENCE_SECONDS = {
    "Test_L3_R1": 6.5e-6,
    "Test_L2_R1": 43e-6,
    "Test_L2_R2": 4.3e-3,
    "Test_L1_R1": 0.30e-3,
}
REFERENCE_NPS = 8.5e6
NODE_TARGET = 1.5
TIME_TARGET = 40.0
PEER_TARGET = 10.0


def load(name: str) -> list[tuple[str, int]]:
    path = DATA / name
    if not path.is_file():
        sys.exit(f"test set {name} not found at {path}: the shared data folder is missing")
    return [(m, int(s)) for m, s in (line.split() for line in path.read_text().splitlines())]


def score_only(
    engine: Engine, game: Connect4, state: State, *, weak: bool = False
) -> tuple[int, int]:
    """The engine score of ``state`` alone, as Pons' solver computes it: the library's
    solver without the search for every best move (``weak`` stops at the sign).
    Returns (score, nodes)."""
    solution = solve(game, state, engine=engine, weak=weak, best_moves=False)
    return solution.score, solution.nodes


# ---------------------------------------------------------------- zerosum runs


def run_set(
    name: str, lines: list[tuple[str, int]], mode: str, engine: Engine
) -> tuple[float, float, int]:
    """Solve every line cold (table and the game's memos emptied, as Pons resets his
    solver); return mean CPU seconds, mean nodes, errors."""
    game = engine.game
    assert isinstance(game, Connect4)
    total_time = 0.0
    total_nodes = 0
    errors = 0
    for moves, expected in lines:
        state = game.parse_state(moves)
        engine.reset()
        game.clear_memo()
        start = time.process_time()
        if mode == "solve":
            solution = solve(game, state, engine=engine)
            score, nodes = solution.score, solution.nodes
        elif mode == "score":
            score, nodes = score_only(engine, game, state)
        else:
            score, nodes = score_only(engine, game, state, weak=True)
        total_time += time.process_time() - start
        total_nodes += nodes
        if mode == "weak":
            ok = (score > 0) - (score < 0) == (expected > 0) - (expected < 0)
        else:
            ok = game.published_score(state, score) == expected
        errors += not ok
    return total_time / len(lines), total_nodes / len(lines), errors


# ---------------------------------------------------------------- peers


def _easyai_sign(moves: str) -> int:
    from easyAI import AI_Player, Negamax
    from easyAI.games.ConnectFour import ConnectFour

    game = ConnectFour([AI_Player(Negamax(1)), AI_Player(Negamax(1))])
    for char in moves:
        game.play_move(int(char) - 1)
    search = Negamax(42 - len(moves), win_score=100)
    search(game)
    return (search.alpha > 0) - (search.alpha < 0)


def _openspiel_sign(moves: str) -> int:
    import pyspiel
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    game = pyspiel.load_game("connect_four")
    state = game.new_initial_state()
    for char in moves:
        state.apply_action(int(char) - 1)
    value, _ = alpha_beta_search(game, state=state, maximum_depth=42 - len(moves))
    return (value > 0) - (value < 0)


def _child(solver: Callable[[str], int], moves: str, pipe: Any) -> None:
    start = time.process_time()
    sign = solver(moves)
    pipe.send((time.process_time() - start, sign))


def peer_times(
    solver: Callable[[str], int], lines: list[tuple[str, int]], cap: float
) -> tuple[float, int, int]:
    """Mean seconds per position (capped ones counted at the cap), capped count, errors."""
    context = multiprocessing.get_context("fork")
    total, capped, errors = 0.0, 0, 0
    for moves, expected in lines:
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=_child, args=(solver, moves, sender))
        process.start()
        if receiver.poll(cap):
            seconds, sign = receiver.recv()
            total += seconds
            errors += sign != (expected > 0) - (expected < 0)
        else:
            total += cap
            capped += 1
        process.kill()
        process.join()
    return total / len(lines), capped, errors


# ---------------------------------------------------------------- report


def ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:7.2f}x" if theirs else "      -"


def small_boards() -> None:
    """John Tromp's values of the boards the unit tests leave out, from the empty board."""
    for width, height in ((6, 5), (5, 6)):
        game = Connect4(width, height)
        engine = Engine(game, EngineOptions(table_size=1 << 20))
        start = time.process_time()
        score, nodes = score_only(engine, game, game.initial_state(), weak=True)
        seconds = time.process_time() - start
        sign = (score > 0) - (score < 0)
        expected = SOLVED_VALUES[(width, height)]
        print(
            f"{width}x{height}: first player {'+=-'[1 - sign]} (Tromp {'+=-'[1 - expected]}), "
            f"{nodes} nodes, {seconds:.1f} s{'' if sign == expected else '  WRONG'}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every 10th line of each set")
    parser.add_argument("--hard-step", type=int, default=10, help="sample of Test_L2_R2")
    parser.add_argument("--peer-lines", type=int, default=20)
    parser.add_argument("--peer-cap", type=float, default=10.0, help="seconds per position")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--profile", metavar="SET", help="profile the score driver on SET")
    parser.add_argument(
        "--small", action="store_true", help="only solve 6x5 and 5x6 (too slow for tests)"
    )
    args = parser.parse_args()
    if args.small:
        small_boards()
        return

    game = Connect4()
    engine = Engine(game)
    if args.profile:
        lines = load(args.profile)[:: 10 if args.quick else 1]
        profiler = cProfile.Profile()
        profiler.enable()
        run_set(args.profile, lines, "score", engine)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(14)
        return

    print("zerosum connect four solver vs Pons' C++ solver (reference nodes = time x 8.5M/s)")
    header = (
        f"{'set':<11} {'mode':<6} {'lines':>5} {'mean time':>11} {'mean nodes':>11} "
        f"{'nodes/s':>8} {'ref nodes':>9} {'nodes':>8} {'time':>9}  wrong"
    )
    print(header)
    summary = []
    for name, reference in REFERENCE_SECONDS.items():
        lines = load(name)
        step = args.hard_step if name == "Test_L2_R2" else 1
        if args.quick:
            step *= 10
        lines = lines[::step]
        ref_nodes = reference * REFERENCE_NPS
        for mode in ("score", "solve"):
            seconds, nodes, errors = run_set(name, lines, mode, engine)
            node_ratio, time_ratio = nodes / ref_nodes, seconds / reference
            summary.append((name, mode, node_ratio, time_ratio))
            print(
                f"{name:<11} {mode:<6} {len(lines):>5} {seconds * 1e3:>9.3f}ms "
                f"{nodes:>11.1f} {nodes / seconds:>8.0f} {ref_nodes:>9.0f} "
                f"{ratio(nodes, ref_nodes)} {ratio(seconds, reference)}  {errors}",
                flush=True,
            )
    print(
        f"targets, on the score mode (Pons' work): nodes within {NODE_TARGET}x, time within "
        f"{TIME_TARGET}x of the reference; the solve rows (every best move too) are for reading"
    )
    for name, mode, node_ratio, time_ratio in summary:
        if mode != "score":
            continue
        verdict = (
            "met" if node_ratio <= NODE_TARGET else "MISSED",
            "met" if time_ratio <= TIME_TARGET else "MISSED",
        )
        print(f"  {name:<11} {mode:<6} nodes {verdict[0]:<6} time {verdict[1]}")
    if args.no_peers:
        return

    print(
        f"\npeers on the first {args.peer_lines} lines of each set, weak solve (the sign), "
        f"cap {args.peer_cap:g} s per position (capped positions count at the cap)"
    )
    print(
        f"{'set':<11} {'system':<10} {'mean time':>11} {'capped':>6} {'wrong':>5} "
        f"{'vs zerosum':>10}"
    )
    for name in REFERENCE_SECONDS:
        lines = load(name)[: args.peer_lines]
        ours, _, wrong = run_set(name, lines, "weak", engine)
        print(f"{name:<11} {'zerosum':<10} {ours * 1e3:>9.3f}ms {0:>6} {wrong:>5} {'1.00x':>10}")
        for system, solver in (("easyAI", _easyai_sign), ("OpenSpiel", _openspiel_sign)):
            seconds, capped, errors = peer_times(solver, lines, args.peer_cap)
            print(
                f"{name:<11} {system:<10} {seconds * 1e3:>9.3f}ms {capped:>6} {errors:>5} "
                f"{('>=' if capped else '') + ratio(seconds, ours).strip():>10}",
                flush=True,
            )
    print(f"target: zerosum at least {PEER_TARGET:g}x faster than every peer")


if __name__ == "__main__":
    main()
