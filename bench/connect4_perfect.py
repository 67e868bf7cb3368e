"""Does the engine play connect four perfectly from the first move at 1 s a move?

Run from the project root (numba installed, the shipped book or ``--book FILE``)::

    .venv/bin/python bench/connect4_perfect.py                     # 8 games, ~4 min
    .venv/bin/python bench/connect4_perfect.py --games 20 --opponents random,perfect
    .venv/bin/python bench/connect4_perfect.py --engine first --opponents perfect

The engine (``SearchAgent`` at ``--time`` seconds a move, reading the book as every
player does) plays whole games from the empty board, first and second in turn, against
each opponent: ``random`` (any legal move) and ``perfect`` (a random best move: from the
book where it scores every move, else from the kernel's exact scores). Each of the
engine's moves is counted by where it came from: the book (no search), a proof (the
kernel solved the position within the move's share of the time, so the move is best by
proof) or the evaluation (the solve ran out of time). Every move of the last kind is
then checked offline by solving the position exactly: whether it was a best move (the
exact score) and whether it kept the game's value (win, draw or loss). The engine plays
perfectly in these games when every move is from the book, proven, or checked best.

The machine is shared: a move has ``--time`` seconds of wall clock whatever the load, so
a loaded machine gives the kernel fewer nodes a move and more moves to the evaluation.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections import Counter
from typing import Any

from zerosum import kernels
from zerosum.agents import SearchAgent
from zerosum.book import Book, find_book
from zerosum.games.connect4 import Connect4
from zerosum.search.engine import Limits
from zerosum.search.solve import solve


def exact_scores(game: Connect4, book: Book | None, engine: Any, state: Any) -> dict[Any, int]:
    """Every move of ``state`` with its exact score: the book's, else solved."""
    scores = book.move_scores(state) if book is not None else None
    if scores is not None:
        return scores
    solution = solve(game, state, root_scores=True, engine=engine)
    assert solution.root_scores is not None
    return solution.root_scores


def sign(score: int) -> int:
    return (score > 0) - (score < 0)


def play(
    game: Connect4,
    book: Book | None,
    checker: Any,
    *,
    engine_first: bool,
    opponent: str,
    seconds: float,
    rng: random.Random,
) -> tuple[Counter[str], str]:
    """One game; the engine's moves counted by source and check, and the result."""
    agent = SearchAgent(Limits(time=seconds))
    state = game.initial_state()
    engine_player = 0 if engine_first else 1
    counted: Counter[str] = Counter()
    while not game.is_terminal(state):
        if game.to_move(state) == engine_player:
            move = agent.choose(game, state)
            found = agent.last
            assert found is not None
            if found.stats.nodes == 0:
                counted["book"] += 1
            elif found.stats.solved:
                counted["proven"] += 1
            else:
                counted["evaluation"] += 1
                scores = exact_scores(game, book, checker, state)
                best = max(scores.values())
                if scores[move] == best:
                    counted["evaluation, checked best"] += 1
                elif sign(scores[move]) == sign(best):
                    counted["evaluation, value kept, slower"] += 1
                else:
                    counted["evaluation, value lost"] += 1
        elif opponent == "random":
            move = rng.choice(list(game.actions(state)))
        else:
            scores = exact_scores(game, book, checker, state)
            best = max(scores.values())
            move = rng.choice([m for m, s in scores.items() if s == best])
        state = game.result(state, move)
    outcome = game.utility(state, engine_player)
    return counted, "win" if outcome > 0 else "loss" if outcome < 0 else "draw"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=8, help="games per opponent (both colours)")
    parser.add_argument("--time", type=float, default=1.0, help="the engine's seconds a move")
    parser.add_argument("--opponents", default="random,perfect")
    parser.add_argument("--book", help="the book file (default: the one zerosum finds)")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument(
        "--engine",
        choices=("first", "second", "both"),
        default="both",
        help="the engine's side: first, second, or each in turn",
    )
    args = parser.parse_args()
    if args.book:
        os.environ["ZEROSUM_BOOK"] = args.book
    game = Connect4()
    book = find_book(game)
    print(f"kernels: {'on' if kernels.enabled() else 'off'}; book: {book!r}")
    print(f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    compiled = game.compiled_engine()
    checker = compiled if compiled is not None else None
    rng = random.Random(args.seed)
    for opponent in args.opponents.split(","):
        totals: Counter[str] = Counter()
        results: Counter[str] = Counter()
        start = time.perf_counter()
        for number in range(args.games):
            engine_first = args.engine == "first" or (args.engine == "both" and number % 2 == 0)
            counted, result = play(
                game,
                book,
                checker,
                engine_first=engine_first,
                opponent=opponent,
                seconds=args.time,
                rng=rng,
            )
            totals += counted
            results[("first " if engine_first else "second ") + result] += 1
            print(
                f"  {opponent} game {number + 1}: engine {'first' if engine_first else 'second'}, "
                f"{result}; {dict(counted)}",
                flush=True,
            )
        elapsed = time.perf_counter() - start
        print(f"{opponent}: {args.games} games in {elapsed:.0f} s: {dict(results)}")
        print(f"  engine moves: {dict(totals)}")
    if book is not None:
        book.close()


if __name__ == "__main__":
    main()
