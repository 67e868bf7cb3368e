"""Connect four: the compiled kernel against the pure-Python solver and Pons' C++ solver.

Run from the project root, with numba installed (``pip install -e '.[fast]'``)::

    .venv/bin/python bench/connect4_kernel.py                 # a sample of each set, ~20 s
    .venv/bin/python bench/connect4_kernel.py --lines 1000 --hard-lines 1000 --pure-lines 0
    .venv/bin/python bench/connect4_kernel.py --openings 4    # also 4 generated openings
    PONS=/tmp/pons/c4solver .venv/bin/python bench/connect4_kernel.py --openings 20 \
        --opening-plies 8    # Pons' solver beside the kernel on every position

For each of Pons' four sets it prints, per position (each solved cold: the tables
emptied first, outside the timing, as Pons resets his solver), the mean CPU time and
nodes of

* ``kernel value`` -- ``Connect4Kernel.value`` (:mod:`zerosum.games.connect4_kernel`):
  the exact score alone, the MTD-bi bisection and every probe inside the kernel. This
  is what Pons' figures measure, so its ratios carry the targets (time within 2x,
  nodes within 1.2x: on the sets, of his reference figures below, as the issue sets
  them; on the generated openings, of his solver run here);
* ``kernel score`` -- :func:`zerosum.search.solve.solve` with ``best_moves=False`` on a
  :class:`~zerosum.games.connect4_kernel.KernelEngine`: the same score, the bisection
  driven from Python (what ``zerosum solve`` pays per probe);
* ``kernel solve`` -- ``solve`` with every best move, as ``zerosum solve`` runs it;
* ``pure score`` -- ``solve(best_moves=False)`` on the pure engine, on the first
  ``--pure-lines`` of the sample, and whether the kernel agreed with it there.

Every kernel score is checked against the set's published score. Reference: Pons' C++
solver on a machine like ours (``../shared/data/README.md``): 6.5 us, 43 us, 4.3 ms and
0.30 ms per position; ASSUMPTION, as in ``bench/connect4.py``: his nodes are that time x
8.5 million nodes/s.

With ``PONS`` (or ``--pons``) naming a build of Pons' solver, his solver also runs here,
in the same run, on the very positions of each sample and on the generated openings, and
the ratios are to his measured time and nodes. His solver is AGPL and in no registry: check
out ``github.com/PascalPons/connect4`` into a scratch folder at the commit of "Part13:
Opening Book" (``68a1da6``, whose ``main`` resets the solver before each position and prints
``moves score nodes microseconds``, the reset outside the timing) and ``make c4solver``. It
runs in an empty folder, so it finds no opening book and searches every position. On the
sets his times are his own wall-clock figures (microseconds a position: too short to
time his process); on the openings, each solved by a process of its own, they are that
process's CPU time less a run that solves nothing (its start and table), the same
measure as ours, which a loaded machine does not inflate. Then the
start-up: a fresh process solving ``4455`` with an empty
numba cache folder (the first-call compile) and again with the folder filled (the cached
start), each timed from before ``import zerosum`` to the answer.

Times are CPU seconds of this process (``time.process_time``), so that waits for a core
on a shared machine do not count; on a loaded machine they still run slower than on an
idle one (caches and frequency are shared).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from zerosum import kernels
from zerosum.games.connect4 import Connect4, State
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
TIME_TARGET = 2.0
NODE_TARGET = 1.2

STARTUP = """
import time
start = time.perf_counter()
from zerosum.games.connect4 import Connect4, solve_position
game = Connect4()
solution = solve_position(game, game.parse_state("4455"))
assert solution.score == 18
print(time.perf_counter() - start)
"""


def load(name: str, count: int) -> list[tuple[str, int]]:
    """Every ``len // count``-th line of a set: a spread of it, not its first lines."""
    path = DATA / name
    if not path.is_file():
        sys.exit(f"test set {name} not found at {path}: the shared data folder is missing")
    lines = [(m, int(s)) for m, s in (line.split() for line in path.read_text().splitlines())]
    return lines[:: max(1, len(lines) // count)][:count]


def kernel_values(
    game: Connect4, engine: Engine, states: list[State]
) -> tuple[float, float, list[int]]:
    """Mean CPU seconds and nodes of the kernel's own bisection; the scores."""
    kernel = engine.kernel  # type: ignore[attr-defined]
    seconds = 0.0
    nodes = 0
    scores = []
    for state in states:
        kernel.clear()
        start = time.process_time()
        scores.append(kernel.value(state))
        seconds += time.process_time() - start
        nodes += kernel.nodes
    return seconds / len(states), nodes / len(states), scores


def solves(
    game: Connect4, engine: Engine, states: list[State], *, best_moves: bool
) -> tuple[float, float, list[int]]:
    """Mean CPU seconds and nodes of ``solve`` on ``engine``; the scores."""
    seconds = 0.0
    nodes = 0
    scores = []
    for state in states:
        engine.reset()
        game.clear_memo()
        start = time.process_time()
        solution = solve(game, state, engine=engine, best_moves=best_moves)
        seconds += time.process_time() - start
        nodes += solution.nodes
        scores.append(solution.score)
    return seconds / len(states), nodes / len(states), scores


@dataclass(frozen=True, slots=True)
class PonsRun:
    """Pons' solver on a list of positions: each one's score, nodes and seconds (his own
    wall-clock timing), and the CPU seconds of the whole process."""

    scores: list[int]
    nodes: list[int]
    seconds: list[float]
    cpu: float


def run_pons(binary: Path, moves: list[str]) -> PonsRun:
    """Solve ``moves`` (one position each) with Pons' solver, in an empty folder so that
    it finds no opening book; his solver resets its table before each position."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as folder:
        found = subprocess.run(
            [str(binary)],
            input="".join(line + "\n" for line in moves),
            capture_output=True,
            text=True,
            check=True,
            cwd=folder,
        )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    scores, nodes, seconds = [], [], []
    rows = found.stdout.splitlines()
    if len(rows) != len(moves):
        sys.exit(f"Pons' solver answered {len(rows)} lines for {len(moves)} positions")
    for line, text in zip(moves, rows, strict=True):
        fields = text.split()
        if len(fields) != 4 or fields[0] != line:
            sys.exit(f"Pons' solver printed {text!r} for {line}: not 'moves score nodes us'")
        scores.append(int(fields[1]))
        nodes.append(int(fields[2]))
        seconds.append(int(fields[3]) / 1e6)
    return PonsRun(scores, nodes, seconds, cpu)


def pons_overhead(binary: Path) -> float:
    """The CPU seconds of a run of Pons' solver that solves nothing to speak of (a position
    won at once): its start, its table's allocation and resets. Subtracted from a run's
    CPU to give the search's own CPU time, which on a loaded machine his wall-clock
    figures overstate. The least of three runs."""
    return min(run_pons(binary, ["4455"]).cpu for _ in range(3))


def row(
    label: str,
    seconds: float,
    nodes: float,
    reference: float | None,
    pons: tuple[float, float] | None = None,
) -> str:
    """One line of the table: mean time and nodes, and the ratios to Pons' reference
    figures (``reference`` seconds) or to his measured mean ``(seconds, nodes)``."""
    rate = nodes / seconds / 1e6
    text = f"  {label:13} {seconds * 1e6:12.1f} us {nodes:13.0f} nodes {rate:6.2f} Mn/s"
    if reference is not None:
        pons_nodes = reference * REFERENCE_NPS
        text += f"   time {seconds / reference:6.2f}x  nodes {nodes / pons_nodes:5.2f}x Pons"
    if pons is not None:
        text += f"   time {seconds / pons[0]:6.2f}x  nodes {nodes / pons[1]:5.2f}x Pons (here)"
    return text


def bench_set(
    name: str, count: int, pure_count: int, game: Connect4, engine: Engine, *, pons: Path | None
) -> bool:
    lines = load(name, count)
    states = [game.parse_state(moves) for moves, _ in lines]
    reference = REFERENCE_SECONDS[name]
    print(f"{name}: {len(lines)} positions (Pons {reference * 1e6:.1f} us)", flush=True)
    seconds, nodes, values = kernel_values(game, engine, states)
    wrong = sum(
        game.published_score(state, value) != expected
        for state, value, (_, expected) in zip(states, values, lines, strict=True)
    )
    ok = seconds <= TIME_TARGET * reference and nodes <= NODE_TARGET * reference * REFERENCE_NPS
    measured = None
    if pons is not None:
        run = run_pons(pons, [moves for moves, _ in lines])
        wrong += sum(a != b for a, (_, b) in zip(run.scores, lines, strict=True))
        measured = (statistics.fmean(run.seconds), statistics.fmean(run.nodes))
        print(row("Pons (here)", *measured, None))
    print(
        row("kernel value", seconds, nodes, reference, measured) + ("" if ok else "  MISSES TARGET")
    )
    seconds, nodes, scores = solves(game, engine, states, best_moves=False)
    wrong += scores != values
    print(row("kernel score", seconds, nodes, reference))
    seconds, nodes, scores = solves(game, engine, states, best_moves=True)
    wrong += scores != values
    print(row("kernel solve", seconds, nodes, reference))
    if pure_count:
        # the pure engine is slow: the first positions only, the kernel beside it on them
        first = states[:pure_count]
        pure = Engine(game, EngineOptions(table_size=1 << 20))
        seconds, nodes, scores = solves(game, pure, first, best_moves=False)
        differ = sum(a != b for a, b in zip(scores, values, strict=False))
        print(row(f"pure score/{pure_count}", seconds, nodes, reference) + f"   {differ} differ")
        seconds, nodes, _ = kernel_values(game, engine, first)
        print(row(f"kernel val/{pure_count}", seconds, nodes, reference))
        wrong += differ
    if wrong:
        print(f"  WRONG: {wrong} scores disagree with the set or the pure solver")
    return ok and not wrong


def opening(game: Connect4, plies: int, rng: random.Random) -> tuple[str, State]:
    """A random opening ``plies`` moves in: every move leaves the opponent no win at once
    and none is a win, so the game goes on and the position is a real fight."""
    while True:
        state = game.initial_state()
        moves = ""
        while len(moves) < plies:
            if game.winning_action(state) is not None or not game.non_losing_actions(state):
                break
            move = rng.choice(game.non_losing_actions(state))
            state, moves = game.result(state, move), moves + str(move + 1)
        if len(moves) == plies and game.winning_action(state) is None:
            return moves, state


def openings(
    game: Connect4, engine: Engine, count: int, plies: int, seed: int, *, pons: Path | None
) -> bool:
    """Random openings ``plies`` moves in, solved by the kernel (score alone, cold), and by
    Pons' solver when given: each position's ratios, then their means and the ratio of
    the total time and nodes. True when the totals meet the targets (or with no Pons)."""
    rng = random.Random(seed)
    ours: list[tuple[float, float]] = []
    theirs: list[tuple[float, float]] = []
    wrong = 0
    overhead = pons_overhead(pons) if pons is not None else 0.0
    for _ in range(count):
        moves, state = opening(game, plies, rng)
        seconds, nodes, values = kernel_values(game, engine, [state])
        score = game.published_score(state, values[0])
        text = (
            f"  opening {moves} score {score:+3d} {seconds:9.3f} s {nodes:15,.0f} nodes "
            f"{nodes / max(seconds, 1e-9) / 1e6:6.2f} Mn/s"
        )
        ours.append((seconds, nodes))
        if pons is not None:
            run = run_pons(pons, [moves])
            # CPU time, as ours is: his own clock is wall time, which waits for a core
            spent = max(run.cpu - overhead, 1e-6)
            theirs.append((spent, run.nodes[0]))
            wrong += run.scores[0] != score
            text += (
                f" | Pons {spent:8.3f} s CPU ({run.seconds[0]:.3f} s wall) "
                f"{run.nodes[0]:15,} nodes: "
                f"time {seconds / spent:5.2f}x nodes {nodes / run.nodes[0]:5.2f}x"
                + ("" if run.scores[0] == score else f"  SCORES DIFFER (Pons {run.scores[0]})")
            )
        print(text, flush=True)
    if not theirs:
        return True
    time_ratio = sum(s for s, _ in ours) / sum(s for s, _ in theirs)
    node_ratio = sum(n for _, n in ours) / sum(n for _, n in theirs)
    ok = time_ratio <= TIME_TARGET and node_ratio <= NODE_TARGET and not wrong
    print(
        f"  all {len(ours)} openings: time {time_ratio:.2f}x and nodes {node_ratio:.2f}x Pons "
        "(their totals)" + ("" if ok else "  MISSES TARGET")
    )
    return ok


def startup() -> None:
    """The first-call compile and the cached start, each in a fresh process."""
    with tempfile.TemporaryDirectory() as folder:
        environment = {**os.environ, "NUMBA_CACHE_DIR": folder, "ZEROSUM_KERNELS": "1"}
        for label in ("first call (compiles)", "cached start"):
            found = subprocess.run(
                [sys.executable, "-c", STARTUP],
                env=environment,
                capture_output=True,
                text=True,
                check=True,
            )
            print(f"start-up, {label}: {float(found.stdout):.2f} s from import to the answer")
    pure = subprocess.run(
        [sys.executable, "-c", STARTUP],
        env={**os.environ, "ZEROSUM_KERNELS": "0"},
        capture_output=True,
        text=True,
        check=True,
    )
    print(f"start-up, pure path: {float(pure.stdout):.2f} s from import to the answer")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=40, help="positions per set (L2_R2 apart)")
    parser.add_argument("--hard-lines", type=int, default=8, help="positions of Test_L2_R2")
    parser.add_argument("--pure-lines", type=int, default=4, help="of them, solved pure too")
    parser.add_argument("--openings", type=int, default=0, help="generated openings to solve")
    parser.add_argument("--opening-plies", type=int, default=12, help="their moves played")
    parser.add_argument("--no-startup", action="store_true", help="skip the start-up runs")
    parser.add_argument(
        "--pons",
        type=Path,
        default=os.environ.get("PONS"),
        help="Pons' c4solver, run on the same positions (default: $PONS)",
    )
    args = parser.parse_args()
    if args.pons is not None and not args.pons.is_file():
        sys.exit(f"Pons' solver not found at {args.pons}")
    if not kernels.enabled():
        sys.exit("kernels are off: install numba (pip install -e '.[fast]'), unset ZEROSUM_KERNELS")
    if not args.no_startup:
        startup()
    game = Connect4()
    engine = game.compiled_engine(EngineOptions(table_size=1 << 10))
    assert engine is not None
    # load (or compile) every kernel entry point before timing
    engine.kernel.value(game.parse_state("4455"))  # type: ignore[attr-defined]
    solve(game, game.parse_state("4455"), engine=engine)
    ok = True
    for name in REFERENCE_SECONDS:
        hard = name == "Test_L2_R2"
        count = args.hard_lines if hard else args.lines
        ok &= bench_set(name, count, min(args.pure_lines, count), game, engine, pons=args.pons)
    if args.openings:
        print(
            f"generated openings, {args.opening_plies} moves in (kernel value, cold):", flush=True
        )
        ok &= openings(game, engine, args.openings, args.opening_plies, 2026, pons=args.pons)
    print("all targets met" if ok else "some targets missed (see above)")


if __name__ == "__main__":
    main()
