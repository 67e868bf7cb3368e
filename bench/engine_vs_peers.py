"""zerosum's engine beside other game-search systems, on the same work, in one run.

Run ``bash bench/setup.sh`` once, then ``bench/.venv/bin/python bench/engine_vs_peers.py``.

Work:

1. tic-tac-toe solved from the empty board (value and a best move);
2. the 4x4 board, three in a row, solved from the empty board (a first-player win);
3. connect-four end games from Pascal Pons' set Test_L3_R1 (``../shared/data``).

Peers: easyAI's Negamax (with and without its transposition table), OpenSpiel's
``alpha_beta_search`` (Python search over C++ game states) and aima-python's
``alphabeta_search`` (PyPI ``aima3``). Each time is the best of a few runs, each run from
scratch (a fresh engine and table for zerosum). Nodes are counted in a separate run with
a counting hook for the peers, so that counting costs them nothing in the timed run.
The ratio is the peer's time over zerosum's fastest time (above 1: zerosum is faster).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zerosum.games.connect4 import Connect4
from zerosum.games.mnk import MNKGame
from zerosum.search.engine import Engine
from zerosum.search.solve import solve

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"

Row = tuple[str, float, int | None, str]  # system, seconds, nodes, answer


def best_time(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best = float("inf")
    answer = None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = run()
        best = min(best, time.perf_counter() - start)
    return best, answer


# ------------------------------------------------------------------ zerosum


def zerosum_rows(game: Any, states: list[Any], repeat: int) -> list[Row]:
    def engine_search() -> tuple[int, list[Any]]:
        nodes, answers = 0, []
        for state in states:
            result = Engine(game).search(state)
            nodes += result.stats.nodes
            answers.append(result.score)
        return nodes, answers

    def solved(**kwargs: Any) -> Callable[[], tuple[int, list[Any]]]:
        def run() -> tuple[int, list[Any]]:
            engine = Engine(game)
            nodes, answers = 0, []
            for state in states:
                solution = solve(game, state, engine=engine, **kwargs)
                nodes += solution.nodes
                answers.append(solution.value)
            return nodes, answers

        return run

    rows = []
    for name, run in (
        ("zerosum Engine.search", engine_search),
        ("zerosum solve (MTD-bi, every best move)", solved()),
        ("zerosum solve weak", solved(weak=True)),
    ):
        seconds, (nodes, answers) = best_time(run, repeat)
        rows.append((name, seconds, nodes, _summary(answers)))
    return rows


def _summary(answers: list[Any]) -> str:
    return str(answers[0]) if len(answers) == 1 else f"{len(answers)} positions"


# ------------------------------------------------------------------ OpenSpiel


def openspiel_rows(
    name: str, params: dict[str, int], starts: list[list[int]], repeat: int
) -> list[Row]:
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError:
        return [("OpenSpiel", float("nan"), None, "not installed (bash bench/setup.sh)")]
    game = pyspiel.load_game(name, params)

    def states() -> list[Any]:
        made = []
        for moves in starts:
            state = game.new_initial_state()
            for move in moves:
                state.apply_action(move)
            made.append(state)
        return made

    def run() -> list[Any]:
        return [minimax.alpha_beta_search(game, state)[0] for state in states()]

    seconds, answers = best_time(run, repeat)
    count = [0]
    original = minimax._alpha_beta

    def counting(*args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return original(*args, **kwargs)

    minimax._alpha_beta = counting
    try:
        run()
    finally:
        minimax._alpha_beta = original
    return [("OpenSpiel alpha_beta_search", seconds, count[0], _summary([int(a) for a in answers]))]


# ------------------------------------------------------------------ easyAI


def easyai_tictactoe_rows(repeat: int) -> list[Row]:
    try:
        from easyAI import AI_Player, Negamax
        from easyAI.AI import TranspositionTable
        from easyAI.games import TicTacToe
    except ImportError:
        return [("easyAI", float("nan"), None, "not installed (bash bench/setup.sh)")]
    count = [0]

    class Counted(TicTacToe):  # type: ignore[misc, valid-type]
        def make_move(self, move: int) -> None:
            count[0] += 1
            super().make_move(move)

        def ttentry(self) -> tuple[Any, ...]:
            return (*self.board, self.current_player)

    def run(table: bool) -> Callable[[], float]:
        def go() -> float:
            algorithm = Negamax(9, tt=TranspositionTable() if table else None)
            game = Counted([AI_Player(algorithm), AI_Player(algorithm)])
            algorithm(game)
            return float(algorithm.alpha)

        return go

    rows = []
    for label, table in (("easyAI Negamax", False), ("easyAI Negamax + table", True)):
        seconds, value = best_time(run(table), repeat)
        count[0] = 0
        run(table)()
        rows.append((label, seconds, count[0], f"{value:g}"))
    return rows


# ------------------------------------------------------------------ aima-python


def aima_rows(h: int, v: int, k: int, repeat: int) -> list[Row]:
    try:
        from aima3 import games
    except ImportError:
        return [("aima-python", float("nan"), None, "not installed (bash bench/setup.sh)")]
    count = [0]

    class Counted(games.TicTacToe):  # type: ignore[misc, name-defined]
        def result(self, state: Any, move: Any) -> Any:
            count[0] += 1
            return super().result(state, move)

    def run(game: Any) -> Callable[[], Any]:
        return lambda: games.alphabeta_search(game.initial, game)

    seconds, move = best_time(run(games.TicTacToe(h, v, k)), repeat)
    run(Counted(h, v, k))()
    return [("aima-python alphabeta_search", seconds, count[0], f"move {move}")]


# ------------------------------------------------------------------ report


def report(title: str, rows: list[Row]) -> None:
    ours = min(seconds for name, seconds, _, _ in rows if name.startswith("zerosum"))
    peers = [seconds for name, seconds, _, _ in rows if not name.startswith("zerosum")]
    print(f"\n{title}")
    print(f"{'system':42} {'time':>11} {'nodes':>10} {'nodes/s':>10} {'ratio':>7}  answer")
    for name, seconds, nodes, answer in rows:
        rate = f"{nodes / seconds:10.0f}" if nodes and not math.isnan(seconds) else f"{'-':>10}"
        ratio = f"{seconds / ours:7.1f}" if not math.isnan(seconds) else f"{'-':>7}"
        node_text = f"{nodes:10d}" if nodes is not None else f"{'-':>10}"
        print(f"{name:42} {seconds * 1000:8.2f} ms {node_text} {rate} {ratio}  {answer}")
    fastest_peer = min((s for s in peers if not math.isnan(s)), default=float("nan"))
    print(f"fastest peer / fastest zerosum: {fastest_peer / ours:.1f}x")


def main() -> None:
    repeat = 5
    tictactoe = MNKGame(3, 3, 3)
    rows = zerosum_rows(tictactoe, [0], repeat)
    rows += easyai_tictactoe_rows(repeat)
    rows += openspiel_rows("tic_tac_toe", {}, [[]], repeat)
    rows += aima_rows(3, 3, 3, repeat)
    report("1. tic-tac-toe, solved from the empty board", rows)

    four = MNKGame(4, 4, 3)
    rows = zerosum_rows(four, [0], repeat)
    rows += openspiel_rows("mnk", {"m": 4, "n": 4, "k": 3}, [[]], 1)
    rows += aima_rows(4, 4, 3, 1)
    report("2. 4x4 board, three in a row, solved from the empty board", rows)

    path = DATA / "connect4" / "Test_L3_R1"
    if not path.is_file():
        print(f"\n3. connect four: skipped, no data at {path}")
        return
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    cases = [line.split()[0] for line in path.read_text().split("\n")[:count] if line]
    game = Connect4()
    states = [game.parse_state(moves) for moves in cases]
    rows = zerosum_rows(game, states, 3)
    rows += openspiel_rows("connect_four", {}, [[int(c) - 1 for c in m] for m in cases], 3)
    report(f"3. connect four, {len(cases)} end games of Test_L3_R1, each solved", rows)


if __name__ == "__main__":
    main()
