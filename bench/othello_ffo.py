"""Othello: zerosum's exact endgame solver on the FFO endgame suite (#20-39 by default).

Run from the project root::

    .venv/bin/python bench/othello_ffo.py                      # FFO #20-39, 60 s cap each
    .venv/bin/python bench/othello_ffo.py --first 20 --last 25 --cap 600
    .venv/bin/python bench/othello_ffo.py --set 1-19           # the easier #1-19
    .venv/bin/python bench/othello_ffo.py --score-only         # one best move, not all

Each position is solved cold (a new game and engine: empty table, empty memos) by
:func:`zerosum.search.solve.solve` through the engine with othello's hooks, and checked
against the file: the exact final disc difference, and every best move (with
``--score-only``, the one found) among those the file scores best. Per position it
prints the empties, the expected and found scores, the nodes, the CPU seconds of the
process (``time.process_time``: on a shared machine wall time also counts the waits for
a core) and the nodes per second. A solve still running at ``--cap`` seconds stops and
is reported as ``capped`` with the bounds proven by then.

Goal (issue 19): every position of #20-39 exact, each under 60 s in pure Python.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from zerosum.games import othello
from zerosum.games.othello import Othello
from zerosum.search.engine import Engine, Limits
from zerosum.search.solve import solve

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "othello"
SETS = {"1-19": ("fforum-1-19.obf", 1), "20-39": ("fforum-20-39.obf", 20)}
GOAL_SECONDS = 60.0


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
    parser.add_argument("--cap", type=float, default=GOAL_SECONDS, help="seconds per position")
    parser.add_argument("--score-only", action="store_true", help="one best move, not all")
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
    print(
        f"FFO {args.set} ({name}), cap {args.cap:g} s, best moves: "
        f"{'one' if args.score_only else 'every'}, endgame solver from {args.handover} empties, "
        f"{args.budget} nodes a call"
    )
    print(
        f"{'#':>3} {'empt':>4} {'want':>5} {'found':>9} {'ok':>6} {'engine':>9} {'nodes':>11} "
        f"{'cpu s':>8} {'nodes/s':>8}  moves"
    )
    total_nodes = 0
    total_time = 0.0
    right = within_goal = 0
    for number, line, best, best_moves in cases:
        game = Othello()
        state = game.parse_state(line)
        empties = line.split()[0].count("-")
        engine = Engine(game)
        start = time.process_time()
        solution = solve(
            game,
            state,
            engine=engine,
            best_moves=not args.score_only,
            limits=Limits(time=args.cap),
        )
        spent = time.process_time() - start
        nodes = solution.nodes + game.endgame.nodes()
        found = {game.format_move(state, move) for move in solution.best_moves}
        if solution.finished:
            ok = solution.score == best and (
                found <= best_moves if args.score_only else found == best_moves
            )
            shown = f"{solution.score:+d}"
        else:
            ok = False
            shown = f"{solution.bounds[0]:+d}..{solution.bounds[1]:+d}"
        right += ok
        within_goal += ok and spent < GOAL_SECONDS
        total_nodes += nodes
        total_time += spent
        verdict = "ok" if ok else ("capped" if not solution.finished else "WRONG")
        rate = int(nodes / spent) if spent > 0 else 0
        print(
            f"{number:>3} {empties:>4} {best:>+5d} {shown:>9} {verdict:>6} "
            f"{solution.nodes:>9,} {nodes:>11,} {spent:>8.2f} {rate:>8,}  "
            f"{' '.join(sorted(found))}",
            flush=True,
        )
    print(
        f"{right}/{len(cases)} exact, {within_goal} under {GOAL_SECONDS:g} s; "
        f"{total_nodes:,} nodes in {total_time:.1f} CPU s"
    )


if __name__ == "__main__":
    main()
