"""Fit the gomoku kernel's evaluation weights to Rapfi's values of the same positions.

The kernel's evaluation is linear in what :meth:`GomokuKernel.pattern_counts` returns
(per colour, the empty cells' line patterns and cell patterns, weighed as the mover or
as the other side, the mean of this ply's and the previous ply's, plus a tempo bonus),
so its weights can be fitted to a stronger engine's judgement of many positions, as
Texel tuning fits them to game results. Rapfi (the ``RAPFI`` executable, one thread)
plays games against itself from random central openings, a share of its moves replaced
by a random nearby cell so that the positions are not all of its own choosing (a search
sees many poor moves); each position's value is Rapfi's search of it at ``--nodes``
(its ``MESSAGE ... Eval``, the side to move's view, win rate ``sigmoid(value / 200)``
after its own scaling factor). The fit keeps the evaluation's scale: ``K`` is first
chosen so that ``sigmoid(ours / K)`` of the current weights best matches Rapfi's win
rates, then the weights are fitted (squared error of the win rates, full-batch Adam, a
ridge pull towards the current weights so that rare patterns keep theirs), on four
fifths of the positions, the last fifth (whole games) held out to report the error
before and after.

    RAPFI=/tmp/rapfi/Rapfi/build/pbrain-rapfi .venv/bin/python bench/gomoku_fit.py \\
        --games 500 --nodes 5000 --data /tmp/fit/positions.jsonl --out /tmp/fit/weights.json

``--data`` keeps the positions (JSON lines: the game's number, the moves, Rapfi's value
and move); a second run with the same file and no ``RAPFI`` fits again without playing.
``--order`` also fits the move-ordering weights, so that Rapfi's move is the likeliest
under a softmax of the cells' ordering worths. The weights file is what
``bench/gomoku.py --player kernel --set weights=FILE`` plays with. What the fitted
weights did against Rapfi: bench/README.md, sixth round (the evaluation's error fell by
a third, its play did not change; the fitted order played worse).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import subprocess
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from gomoku import near_stones  # bench/gomoku.py, beside this file
from zerosum.games.gomoku import Gomoku, GomokuState
from zerosum.games.gomoku_kernel import (
    CELL_PATTERNS,
    FIVE,
    LINE_PATTERNS,
    GomokuKernel,
    Weights,
)

RAPFI_SCALE = 200.0
"""Rapfi's scaling factor: its win rate is ``sigmoid(value / 200)`` (``Config::ScalingFactor``)."""

LISTS = ("mover_line", "mover_cell", "other_line", "other_cell")
"""The weight lists the fit changes, in the order of the parameter vector (tempo last)."""


class Rapfi:
    """One Rapfi process asked for its move and value in one position after another."""

    def __init__(self, command: str, nodes: int) -> None:
        self.process = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send(["START 15", "INFO thread_num 1", f"INFO max_node {nodes}"])
        self.send(["INFO timeout_turn 600000", "INFO timeout_match 0"])
        self.send(["INFO time_left 2147483647"])
        self.wait_for("OK")

    def send(self, lines: list[str]) -> None:
        """Write ``lines`` to Rapfi."""
        assert self.process.stdin is not None
        self.process.stdin.write("\n".join(lines) + "\n")
        self.process.stdin.flush()

    def wait_for(self, answer: str) -> None:
        """Read Rapfi's lines up to ``answer``."""
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.strip() == answer:
                return
        raise RuntimeError(f"Rapfi ended before answering {answer!r}")

    def search(self, game: Gomoku, moves: list[int]) -> tuple[int, int | None]:
        """Rapfi's move in the position after ``moves`` and its value for the side to
        move (``None`` when it reports a proven result rather than a number)."""
        mover = len(moves) % 2
        lines = ["BOARD"]
        for number, cell in enumerate(moves):
            x, y = game.coordinates(cell)
            lines.append(f"{x},{y},{1 if number % 2 == mover else 2}")
        lines.append("DONE")
        assert self.process.stdout is not None
        # Rapfi drops a command that arrives while it still marks itself as thinking
        # (bench/gomoku.py, RAPFI_PAUSE): the position is sent again after a pause
        for attempt in range(20):
            time.sleep(0.002 * attempt * attempt)
            self.send(lines)
            value: int | None = None
            for raw in self.process.stdout:
                line = raw.strip()
                if line.startswith("ERROR"):
                    break
                found = re.search(r"\| Eval (-?\d+) \|", line)
                if line.startswith("MESSAGE Speed"):
                    value = int(found[1]) if found else None
                elif re.fullmatch(r"\d+,\d+", line):
                    x, y = (int(part) for part in line.split(","))
                    return game.action(x, y), value
            else:
                raise RuntimeError("Rapfi ended while searching")
            self.drain()
        raise RuntimeError("Rapfi refused the position twenty times")

    def drain(self) -> None:
        """Read and drop what Rapfi printed after a refused command."""
        assert self.process.stdout is not None
        os.set_blocking(self.process.stdout.fileno(), False)
        time.sleep(0.05)
        try:
            while self.process.stdout.readline():
                pass
        finally:
            os.set_blocking(self.process.stdout.fileno(), True)

    def close(self) -> None:
        """End the process."""
        self.send(["END"])
        self.process.wait(timeout=10)


def collect(command: str, games: int, nodes: int, seed: int, noise: float) -> list[dict]:
    """Positions of Rapfi's games against itself and its value of each (see the module)."""
    game = Gomoku(15)
    board = GomokuKernel(game, table_bits=10)
    rng = random.Random(seed)
    centre = [game.action(x, y) for x in range(5, 10) for y in range(5, 10)]
    rapfi = Rapfi(command, nodes)
    samples: list[dict] = []
    try:
        for number in range(games):
            moves = rng.sample(centre, 3)
            state = game.initial_state()
            for cell in moves:
                state = game.result(state, cell)
            board.setup(state)
            while len(moves) < 150:
                move, value = rapfi.search(game, moves)
                if value is None:
                    break  # a proven result: the rest of the game is forced
                samples.append({"game": number, "moves": list(moves), "value": value, "best": move})
                if rng.random() < noise:
                    move = rng.choice(near_stones(game, state))
                moves.append(move)
                state = game.result(state, move)
                board.play(move)
                if board.made_five():
                    break
            if (number + 1) % 50 == 0:
                print(f"   {number + 1} games, {len(samples)} positions", flush=True)
    finally:
        rapfi.close()
    return samples


def replay(board: GomokuKernel, game: Gomoku, moves: list[int]) -> GomokuState:
    """The position after ``moves``, set up on ``board`` too."""
    state = game.initial_state()
    for cell in moves:
        state = game.result(state, cell)
    board.setup(state)
    return state


def evaluated(board: GomokuKernel) -> bool:
    """Whether the search evaluates the board's position: not where a five is to make or
    to block, nor where the pattern counts prove a win."""
    return not (board.count(0, FIVE) or board.count(1, FIVE) or board.static_win())


def features(board: GomokuKernel, game: Gomoku, moves: list[int]) -> npt.NDArray[np.float64] | None:
    """The evaluation's inputs in the position after ``moves`` (the parameter vector's
    order: the mover's line and cell counts, the other side's negated, 1 for tempo), the
    mean of this position's and the previous one's for the same mover; ``None`` where
    the search would not evaluate."""
    replay(board, game, moves[:-1])
    side = len(moves) % 2
    before = counts(board, side)
    board.play(moves[-1])
    if not evaluated(board):
        return None
    return np.concatenate(((before + counts(board, side)) / 2, [1.0]))


def counts(board: GomokuKernel, side: int) -> npt.NDArray[np.float64]:
    """``side``'s counts as the mover, then the other side's negated."""
    mover_lines, mover_cells = board.pattern_counts(side)
    other_lines, other_cells = board.pattern_counts(1 - side)
    return np.array(
        mover_lines + mover_cells + [-n for n in other_lines] + [-n for n in other_cells],
        np.float64,
    )


def parameters(weights: Weights) -> npt.NDArray[np.float64]:
    """The weights as the parameter vector (tempo last)."""
    values: list[float] = []
    for name in LISTS:
        values += [float(w) for w in getattr(weights, name)]
    return np.array([*values, float(weights.search["tempo"])])


def sigmoid(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The logistic function."""
    return 1.0 / (1.0 + np.exp(-np.clip(x, -40, 40)))


def best_scale(
    x: npt.NDArray[np.float64], p: npt.NDArray[np.float64], theta: npt.NDArray[np.float64]
) -> float:
    """The ``K`` whose ``sigmoid(x @ theta / K)`` best matches ``p`` (on a geometric
    grid 5% apart)."""
    values = x @ theta
    grid = [10 * 1.05**i for i in range(120)]
    errors = [float(np.mean((sigmoid(values / k) - p) ** 2)) for k in grid]
    return grid[int(np.argmin(errors))]


class Adam:
    """Adam's steps (Kingma and Ba): each parameter's step scaled by running means of its
    gradient and of its square, so that weights of rare and of common patterns move alike."""

    def __init__(self, size: int, rate: float) -> None:
        self.rate = rate
        self.first = np.zeros(size)
        self.second = np.zeros(size)
        self.steps = 0

    def step(self, grad: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The change to subtract from the parameters, given their gradient."""
        self.steps += 1
        self.first = 0.9 * self.first + 0.1 * grad
        self.second = 0.999 * self.second + 0.001 * grad * grad
        first = self.first / (1 - 0.9**self.steps)
        second = self.second / (1 - 0.999**self.steps)
        change: npt.NDArray[np.float64] = self.rate * first / (np.sqrt(second) + 1e-12)
        return change


def fit(
    x: npt.NDArray[np.float64],
    p: npt.NDArray[np.float64],
    theta0: npt.NDArray[np.float64],
    *,
    scale: float,
    ridge: float,
    steps: int,
) -> npt.NDArray[np.float64]:
    """Weights minimising the squared error of the win rates plus ``ridge`` times the
    squared distance from ``theta0`` (full-batch Adam)."""
    theta = theta0.copy()
    adam = Adam(len(theta), 0.05)
    for _ in range(steps):
        q = sigmoid(x @ theta / scale)
        grad = x.T @ (2 * (q - p) * q * (1 - q) / scale) / len(p)
        theta -= adam.step(grad + 2 * ridge * (theta - theta0))
    return theta


def cell_inputs(board: GomokuKernel, cell: int, side: int) -> npt.NDArray[np.float64]:
    """What a cell's ordering worth to ``side`` weighs: twice ``side``'s line and cell
    patterns there (one-hot counts), once the opponent's (what the cell takes from it)."""
    row = np.zeros(len(LINE_PATTERNS) + len(CELL_PATTERNS))
    for colour, share in ((side, 2.0), (1 - side, 1.0)):
        for d in range(4):
            row[board.line_pattern(cell, colour, d)] += share
        row[len(LINE_PATTERNS) + board.cell_pattern(cell, colour)] += share
    return row


def order_parameters(weights: Weights) -> npt.NDArray[np.float64]:
    """The ordering weights as one vector (line patterns, then cell patterns)."""
    return np.array([*weights.order_line, *weights.order_cell], np.float64)


def fit_order(
    samples: list[dict], held: list[bool], board: GomokuKernel, game: Gomoku, steps: int
) -> dict[str, list[int]]:
    """Ordering weights under which Rapfi's move is likeliest (a softmax of the cells'
    worths over the cells within two of a stone, the temperature first fitted to the
    current weights so that their scale stays), the samples ``held`` held out."""
    train: list[npt.NDArray[np.float64]] = []
    test: list[npt.NDArray[np.float64]] = []
    for sample, held_out in zip(samples, held, strict=True):
        moves, best = sample["moves"], sample.get("best")
        state = replay(board, game, moves)
        if best is None or not evaluated(board):
            continue
        side = len(moves) % 2
        cells = near_stones(game, state)
        if best not in cells:
            continue
        cells.remove(best)
        rows = np.array([cell_inputs(board, c, side) for c in [best, *cells]])
        (test if held_out else train).append(rows)
    if len(train) < 10 or not test:
        raise SystemExit(f"--order: {len(train)} positions hold Rapfi's move, too few to fit")
    theta0 = order_parameters(Weights())

    def loss(
        theta: npt.NDArray[np.float64], temperature: float, groups: list[npt.NDArray[np.float64]]
    ) -> float:
        total = 0.0
        for rows in groups:
            s = rows @ theta / temperature
            total += float(np.log(np.sum(np.exp(s - s.max()))) + s.max() - s[0])
        return total / len(groups)

    temperature = min((10 * 1.1**i for i in range(60)), key=lambda t: loss(theta0, t, train))
    stacked = np.concatenate(train)
    owners = np.concatenate([np.full(len(rows), i) for i, rows in enumerate(train)])
    firsts = np.cumsum([0] + [len(rows) for rows in train])[:-1]
    theta = theta0.copy()
    adam = Adam(len(theta), 0.2)
    for _ in range(steps):
        s = stacked @ theta / temperature
        e = np.exp(s - np.max(s))
        q = e / np.bincount(owners, weights=e)[owners]
        grad = (stacked.T @ q - stacked[firsts].sum(axis=0)) / temperature / len(firsts)
        # ordering worths stay at 0 or more (the kernel packs them unsigned)
        theta = np.maximum(theta - adam.step(grad), 0.0)
    print(f"ordering: {len(train)} positions fitted, {len(test)} held out")
    print(f"T = {temperature:.1f}; log loss of Rapfi's move (fitted, held out):")
    for label, t in (("now", theta0), ("fitted", theta)):
        print(f"   {label}: {loss(t, temperature, train):.4f}, {loss(t, temperature, test):.4f}")
    line = [round(float(w)) for w in theta[: len(LINE_PATTERNS)]]
    cell = [round(float(w)) for w in theta[len(LINE_PATTERNS) :]]
    print(f"order_line: {line}\norder_cell: {cell}")
    return {"order_line": line, "order_cell": cell}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="Rapfi's games (default 500)")
    parser.add_argument("--nodes", type=int, default=5000, help="Rapfi's nodes a position")
    parser.add_argument("--noise", type=float, default=0.15, help="share of random moves")
    parser.add_argument("--seed", type=int, default=101, help="the openings' seed")
    parser.add_argument("--data", type=Path, help="the positions (read if there, else written)")
    parser.add_argument("--out", type=Path, required=True, help="the fitted weights (JSON)")
    parser.add_argument("--ridge", type=float, default=1e-6, help="the pull to the current weights")
    parser.add_argument("--steps", type=int, default=4000, help="Adam's steps")
    parser.add_argument(
        "--order",
        action="store_true",
        help="fit the move-ordering weights too, to Rapfi's moves (see fit_order)",
    )
    args = parser.parse_args()
    if args.data is not None and args.data.exists():
        samples = [json.loads(line) for line in args.data.read_text().splitlines()]
        print(f"{len(samples)} positions read from {args.data}")
    else:
        command = os.environ.get("RAPFI")
        if not command:
            raise SystemExit("set RAPFI to a Rapfi executable (or --data to a positions file)")
        start = time.perf_counter()
        samples = collect(command, args.games, args.nodes, args.seed, args.noise)
        print(f"{len(samples)} positions in {time.perf_counter() - start:.0f} s")
        if args.data is not None:
            args.data.parent.mkdir(parents=True, exist_ok=True)
            args.data.write_text("".join(json.dumps(s) + "\n" for s in samples))
    game = Gomoku(15)
    board = GomokuKernel(game, table_bits=10)
    # the last fifth of the games held out: positions of one game are alike
    last = max(sample["game"] for sample in samples)
    held = [sample["game"] >= 0.8 * (last + 1) for sample in samples]
    rows, targets, held_rows = [], [], []
    for sample, held_out in zip(samples, held, strict=True):
        row = features(board, game, sample["moves"])
        if row is None:
            continue
        rows.append(row)
        targets.append(1.0 / (1.0 + math.exp(-sample["value"] / RAPFI_SCALE)))
        held_rows.append(held_out)
    x = np.array(rows)
    p = np.array(targets)
    test = np.array(held_rows)
    train = ~test
    theta0 = parameters(Weights())
    scale = best_scale(x[train], p[train], theta0)
    theta = fit(x[train], p[train], theta0, scale=scale, ridge=args.ridge, steps=args.steps)

    def error(t: npt.NDArray[np.float64], rows: npt.NDArray[np.bool_]) -> float:
        return float(np.mean((sigmoid(x[rows] @ t / scale) - p[rows]) ** 2))

    print(f"{int(train.sum())} positions fitted, {int(test.sum())} held out; K = {scale:.1f}")
    print("squared error of the win rates (fitted, held out):")
    for label, t in (("now", theta0), ("fitted", theta)):
        print(f"   {label}: {error(t, train):.5f}, {error(t, test):.5f}")
    result: dict[str, object] = {}
    at = 0
    for name, size in zip(LISTS, (len(LINE_PATTERNS), len(CELL_PATTERNS)) * 2, strict=True):
        values = [round(float(w) * 16) / 16 for w in theta[at : at + size]]
        result[name] = values
        print(f"{name}: {values}")
        at += size
    result["tempo"] = round(float(theta[at]))
    print(f"tempo: {result['tempo']}")
    if args.order:
        result.update(fit_order(samples, held, board, game, args.steps))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
