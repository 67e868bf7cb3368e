"""Othello: zerosum's exact endgame solver on the FFO endgame suite (#20-39 by default).

Run from the project root::

    .venv/bin/python bench/othello_ffo.py                      # FFO #20-39, 15M nodes cap each
    .venv/bin/python bench/othello_ffo.py --first 20 --last 25 --nodes 100000000
    .venv/bin/python bench/othello_ffo.py --first 37 --last 38 --score-only --perfect-guess \
        --nodes 80000000                                       # no probe wasted
    .venv/bin/python bench/othello_ffo.py --set 1-19           # the easier #1-19
    .venv/bin/python bench/othello_ffo.py --score-only         # one best move, not all
    .venv/bin/python bench/othello_ffo.py --driver engine --cap 60 --handover 14
    .venv/bin/python bench/othello_ffo.py --driver kernel       # the compiled kernel (numba)

Each position is solved cold (a new game: empty table, empty memos) and checked against
the file: the exact final disc difference, and every best move (with ``--score-only``,
the one found) among those the file scores best. Two drivers:

* ``endgame`` (the default): the game's endgame solver alone,
  :meth:`zerosum.games.othello.rules.Endgame.solve_root` (null-window probes stepping
  from 0, then one null window per move), given at most ``--nodes`` nodes (counted in
  its table part, as its budget counts them; the default, 15 million, is about 60 CPU
  seconds at this solver's speed).
* ``engine``: :func:`zerosum.search.solve.solve` (MTD-bi through the engine with
  othello's hooks, the endgame solver taking over from ``--handover`` empties), under
  a wall-clock ``--cap``.
* ``kernel``: :func:`zerosum.search.solve.solve` through the game's compiled engine
  (:mod:`zerosum.games.othello.kernel`, numba), every probe a search in the kernel,
  under the same ``--cap``; the nodes are the kernel's. Edax 4.4 solves #20-39 (value
  and one best move) in 111,349,635 nodes, 5.7 s on a 1.4-2.7 GHz Haswell core
  (:data:`EDAX_NODES`, published in the README of its AVX fork).

Per position it prints the empties, the expected and found scores, the engine's nodes
(0 for the endgame driver), all nodes, the CPU seconds of the process
(``time.process_time``: on a shared machine wall time also counts the waits for a core)
and the nodes per second. A solve stopped by its cap is reported as ``capped`` with the
bounds proven by then.

Goal (issue 19): every position of #20-39 exact, each under 60 s in pure Python.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import NamedTuple

from zerosum.games import othello
from zerosum.games.othello import Othello
from zerosum.games.othello.rules import Endgame
from zerosum.search.engine import Engine, Limits
from zerosum.search.solve import solve

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "othello"
SETS = {"1-19": ("fforum-1-19.obf", 1), "20-39": ("fforum-20-39.obf", 20)}
GOAL_SECONDS = 60.0
NODE_CAP = 15_000_000
EDAX_NODES = 111_349_635
"""Edax 4.4's nodes for FFO #20-39, value and best move (its AVX fork's README)."""


class Outcome(NamedTuple):
    """One solve: finished or not, the bounds proven (equal when finished), the best
    moves found, the engine's nodes and all nodes."""

    finished: bool
    bounds: tuple[int, int]
    moves: set[str]
    engine_nodes: int
    nodes: int


def by_endgame(
    game: Othello, state: othello.State, every: bool, nodes: int, guess: int = 0
) -> Outcome:
    """Solve ``state`` with the game's endgame solver alone, in at most about ``nodes``,
    its first null window at ``guess``."""
    endgame = Endgame()
    found = endgame.solve_root(state[0], state[1], every=every, guess=guess, budget=nodes)
    moves = {game.format_move(state, move) for move in found.best_moves}
    return Outcome(found.finished, (found.low, found.high), moves, 0, endgame.nodes())


def by_engine(game: Othello, state: othello.State, every: bool, cap: float) -> Outcome:
    """Solve ``state`` with :func:`solve` through the engine, under ``cap`` seconds."""
    solution = solve(game, state, engine=Engine(game), best_moves=every, limits=Limits(time=cap))
    moves = {game.format_move(state, move) for move in solution.best_moves}
    nodes = solution.nodes + game.endgame.nodes()
    return Outcome(solution.finished, solution.bounds, moves, solution.nodes, nodes)


def by_kernel(engine: Engine, state: othello.State, every: bool, cap: float) -> Outcome:
    """Solve ``state`` with :func:`solve` through the compiled engine, under ``cap``
    seconds, its table emptied first."""
    game = engine.game
    engine.reset()
    solution = solve(game, state, engine=engine, best_moves=every, limits=Limits(time=cap))
    moves = {game.format_move(state, move) for move in solution.best_moves}
    return Outcome(solution.finished, solution.bounds, moves, solution.nodes, solution.nodes)


def load(name: str, first_number: int) -> list[tuple[int, str, int, set[str]]]:
    """(number, line, best score, best moves) of every position of an obf file."""
    path = DATA / name
    if not path.is_file():
        sys.exit(f"FFO file {name} not found at {path}: the shared data folder is missing")
    cases = []
    for offset, line in enumerate(path.read_text().splitlines()):
        scored = [field.strip().split(":") for field in line.split(";")[1:] if field.strip()]
        best = max(int(score) for _, score in scored)
        moves = {move.lower() for move, score in scored if int(score) == best}
        cases.append((first_number + offset, line, best, moves))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), default="20-39")
    parser.add_argument("--first", type=int, help="first position number to solve")
    parser.add_argument("--last", type=int, help="last position number to solve")
    parser.add_argument(
        "--driver",
        choices=("endgame", "engine", "kernel"),
        default="endgame",
        help="the endgame solver alone, solve() through the engine, or through the kernel",
    )
    parser.add_argument(
        "--nodes", type=int, default=NODE_CAP, help="nodes per position (endgame driver)"
    )
    parser.add_argument(
        "--cap", type=float, default=GOAL_SECONDS, help="wall seconds per position (engine driver)"
    )
    parser.add_argument("--score-only", action="store_true", help="one best move, not all")
    parser.add_argument(
        "--perfect-guess",
        action="store_true",
        help="endgame driver: the first null window at the position's published value, "
        "to measure the nodes a solve takes when no probe is wasted",
    )
    parser.add_argument(
        "--handover",
        type=int,
        default=othello.EXACT_EMPTIES,
        help="empties from which the game's endgame solver takes over from the engine",
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=othello.WINDOW_BUDGET,
        help="nodes the endgame solver may spend on one call of the engine's hook",
    )
    args = parser.parse_args()
    othello.EXACT_EMPTIES = args.handover
    othello.WINDOW_BUDGET = args.budget
    name, first_number = SETS[args.set]
    cases = [
        case
        for case in load(name, first_number)
        if (args.first is None or case[0] >= args.first)
        and (args.last is None or case[0] <= args.last)
    ]
    if args.driver == "endgame":
        driver = f"the endgame solver alone, {args.nodes:,} nodes cap"
    elif args.driver == "kernel":
        driver = f"solve() through the compiled kernel, cap {args.cap:g} s"
    else:
        driver = (
            f"solve() through the engine, cap {args.cap:g} s, endgame solver from "
            f"{args.handover} empties, {args.budget} nodes a call"
        )
    every = not args.score_only
    print(f"FFO {args.set} ({name}), best moves: {'every' if every else 'one'}, {driver}")
    print(
        f"{'#':>3} {'empt':>4} {'want':>5} {'found':>9} {'ok':>6} {'engine':>9} {'nodes':>11} "
        f"{'cpu s':>8} {'nodes/s':>8}  moves"
    )
    compiled = Othello().compiled_engine() if args.driver == "kernel" else None
    if args.driver == "kernel":
        if compiled is None:
            sys.exit("the compiled kernel is off: install numba (pip install -e '.[fast]')")
        compiled.search(compiled.game.initial_state(), Limits(depth=1))  # loaded, not timed
    total_nodes = 0
    total_time = 0.0
    right = within_goal = 0
    for number, line, best, best_moves in cases:
        game = Othello() if compiled is None else compiled.game
        state = game.parse_state(line)
        empties = line.split()[0].count("-")
        start = time.process_time()
        if args.driver == "endgame":
            guess = best if args.perfect_guess else 0
            outcome = by_endgame(game, state, every, args.nodes, guess)
        elif compiled is not None:
            outcome = by_kernel(compiled, state, every, args.cap)
        else:
            outcome = by_engine(game, state, every, args.cap)
        spent = time.process_time() - start
        low, high = outcome.bounds
        if outcome.finished:
            ok = low == best and (
                outcome.moves == best_moves if every else outcome.moves <= best_moves
            )
            shown = f"{low:+d}"
        else:
            ok = False
            shown = f"{low:+d}..{high:+d}"
        right += ok
        within_goal += ok and spent < GOAL_SECONDS
        total_nodes += outcome.nodes
        total_time += spent
        verdict = "ok" if ok else ("capped" if not outcome.finished else "WRONG")
        rate = int(outcome.nodes / spent) if spent > 0 else 0
        print(
            f"{number:>3} {empties:>4} {best:>+5d} {shown:>9} {verdict:>6} "
            f"{outcome.engine_nodes:>9,} {outcome.nodes:>11,} {spent:>8.2f} {rate:>8,}  "
            f"{' '.join(sorted(outcome.moves))}",
            flush=True,
        )
    print(
        f"{right}/{len(cases)} exact, {within_goal} under {GOAL_SECONDS:g} s; "
        f"{total_nodes:,} nodes in {total_time:.1f} CPU s"
    )
    if args.driver == "kernel" and args.set == "20-39" and len(cases) == 20:
        print(f"nodes against Edax 4.4's {EDAX_NODES:,}: {total_nodes / EDAX_NODES:.2f}x")


if __name__ == "__main__":
    main()
