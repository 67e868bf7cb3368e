"""Othello's pattern evaluation: the training positions, the least-squares fit, and
the matches and measurements that chose the evaluation and probability cut.

Run from the project root (numba required: ``pip install -e '.[fast]'``)::

    .venv/bin/python bench/othello_train.py generate --games 6000 --seed 1 --out DIR/games-1.npz
    .venv/bin/python bench/othello_train.py fit DIR/games-*.npz --patterns edge2x,corner3x3 \
        --out DIR/weights.npy --write src/zerosum/games/othello/weights.bin
    .venv/bin/python bench/othello_train.py compare DIR/weights.npy hand --depth 6
    .venv/bin/python bench/othello_train.py probcut DIR/games-1.npz --weights DIR/weights.npy

``generate`` plays games against itself with the compiled kernel (``--weights``, by
default the hand-tuned evaluation, without probability cut): a random opening of 2 to
``--random`` plies (drawn per game), then each side's best move at ``--depth`` plies,
and from ``--exact`` empties every position is solved exactly (a tenth of the moves
there, ``--noise``, random, so that the exact positions are not all on a best line).
Each position of the game is kept with its label, the final disc difference for the
side to move: the exact value from ``--exact`` empties down, before that the exact value
of the game's first position with ``--exact`` empties (the outcome of the game as
played to there, with perfect play after). The positions are written as ``mover``,
``opponent``, ``label`` arrays in a ``.npz`` file, every 50 games.

``fit`` fits the weights of the pattern evaluation
(:func:`zerosum.games.othello.evaluation.pattern_evaluate`: the ``--patterns`` named,
the others left at zero, and the scalar features) to the labels by ridge-regularised
least squares (conjugate gradients), one set per stage of the game, every position
seen in its eight symmetries. It prints each stage's error on the games held out (a
tenth), beside the hand-tuned evaluation's and the same scaled to the labels, writes
the weights in discs (``--out``, ``.npy``) and with ``--write`` the package's weights
file.

``compare`` plays two evaluations (weights files of ``fit``, or ``hand``) against each
other at a fixed depth, node count or time a move, each random opening both ways, and
prints the score with its Elo interval; ``--cut-a`` and ``--cut-b`` switch probability
cut on for either side. ``probcut`` searches positions of a data file at every depth
to ``--depth`` and prints the regression of each depth's value on each shallower one,
for the kernel's probability cut.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import zlib
from pathlib import Path

import numpy as np

from zerosum.arena import random_openings
from zerosum.games.othello import START, Othello, State, evaluation, kernel
from zerosum.games.othello import rules as othello_rules
from zerosum.games.othello.kernel import KernelEngine
from zerosum.ratings import elo_estimate
from zerosum.search.engine import Limits

Words = np.ndarray


def play(
    engine: KernelEngine, rng: random.Random, args: argparse.Namespace
) -> list[tuple[int, int, int]]:
    """One game: its positions (mover, opponent, label for the mover)."""
    game = engine.game
    state: State = START
    for _ in range(rng.randint(2, args.random)):
        if not state[3]:
            break
        state = othello_rules.result(state, rng.choice(game.actions(state)))
    seen: list[tuple[int, int, int, int | None]] = []  # mover, opponent, side, exact value
    reference: tuple[int, int] | None = None  # (side, value) at the first exact position
    while state[3]:
        empties = 64 - (state[0] | state[1]).bit_count()
        if empties <= args.exact:
            found = engine.search(state, Limits())
            assert found.score is not None
            seen.append((state[0], state[1], state[2], found.score))
            if reference is None:
                reference = (state[2], found.score)
            move = (
                found.best_move if rng.random() >= args.noise else rng.choice(game.actions(state))
            )
        else:
            seen.append((state[0], state[1], state[2], None))
            move = engine.search(state, Limits(depth=args.depth)).best_move
        state = othello_rules.result(state, move)
    if reference is None:  # the game ended before the exact phase: its end is exact
        score = othello_rules.final_score(state[0], state[1])
        reference = (state[2], score)
    side, value = reference
    return [
        (mover, opponent, exact if exact is not None else (value if who == side else -value))
        for mover, opponent, who, exact in seen
    ]


def generate(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    weights = load_weights(args.weights)
    engine = KernelEngine(Othello(), table_bits=22, weights=weights, selective=False)
    movers: list[int] = []
    opponents: list[int] = []
    labels: list[int] = []
    began = time.process_time()
    for number in range(1, args.games + 1):
        engine.reset()
        for mover, opponent, label in play(engine, rng, args):
            movers.append(mover)
            opponents.append(opponent)
            labels.append(label)
        if number % 50 == 0 or number == args.games:
            np.savez_compressed(
                args.out,
                mover=np.array(movers, dtype=np.uint64),
                opponent=np.array(opponents, dtype=np.uint64),
                label=np.array(labels, dtype=np.int8),
            )
            spent = time.process_time() - began
            print(f"{number} games, {len(labels)} positions, {spent:.0f} CPU s", flush=True)


# ---------------------------------------------------------------- fitting


def transform(boards: Words, symmetry: int) -> Words:
    """``boards`` (an array of words) under one of the board's symmetries."""
    out = np.zeros_like(boards)
    one = np.uint64(1)
    for square in range(64):
        image = evaluation.symmetric(square, symmetry)
        out |= ((boards >> np.uint64(square)) & one) << np.uint64(image)
    return out


def mobility(p: Words, o: Words) -> Words:
    """The number of moves of ``p`` against ``o``, array-wise (the rules' shifts)."""
    empty = ~(p | o)
    found = np.zeros_like(p)
    inner = o & np.uint64(0x7E7E7E7E7E7E7E7E)
    for shift, mask in ((1, inner), (8, o), (7, inner), (9, inner)):
        d = np.uint64(shift)
        for step in (np.left_shift, np.right_shift):
            t = mask & step(p, d)
            for _ in range(5):
                t |= mask & step(t, d)
            found |= step(t, d)
    return count(found & empty)


SCALARS = ("constant", "mobility", "potential", "corners", "x", "c", "stable", "parity")
"""The scalar features after the patterns' tables, in a stage's weights."""


def count(words: Words) -> Words:
    """The set bits of each word."""
    total = np.zeros(len(words), dtype=np.int64)
    for square in range(64):
        total += ((words >> np.uint64(square)) & np.uint64(1)).astype(np.int64)
    return total


def neighbours(discs: Words) -> Words:
    """The squares next to ``discs``, array-wise."""
    one, eight = np.uint64(1), np.uint64(8)
    sideways = ((discs << one) & np.uint64(0xFEFEFEFEFEFEFEFE)) | (
        (discs >> one) & np.uint64(0x7F7F7F7F7F7F7F7F)
    )
    row = discs | sideways
    return sideways | (row << eight) | (row >> eight)


def stable(discs: Words, occupied: Words) -> Words:
    """:func:`zerosum.games.othello.evaluation.stable_discs`, array-wise."""
    found = np.zeros_like(discs)
    for line, first, last, step in (
        (0xFF, 0, 7, 1),
        (0xFF << 56, 56, 63, 1),
        (0x0101010101010101, 0, 56, 8),
        (0x0101010101010101 << 7, 7, 63, 8),
    ):
        line_ = np.uint64(line)
        full = (occupied & line_) == line_
        found |= np.where(full, discs & line_, np.uint64(0))
        for corner, direction in ((first, step), (last, -step)):
            alive = np.ones(len(discs), dtype=bool)
            for k in range(8):
                square = corner + direction * k
                bit = np.uint64(1 << square)
                alive &= (discs & bit) != 0
                found |= np.where(alive, bit, np.uint64(0))
    empty = ~occupied
    row = occupied & (occupied >> np.uint64(1))
    row &= row >> np.uint64(2)
    row &= row >> np.uint64(4)
    rows = (row & np.uint64(0x0101010101010101)) * np.uint64(0xFF)
    column = occupied & (occupied >> np.uint64(8))
    column &= column >> np.uint64(16)
    column &= column >> np.uint64(32)
    columns_ = (column & np.uint64(0xFF)) * np.uint64(0x0101010101010101)
    sevens = nines = empty
    not_a, not_h = np.uint64(0xFEFEFEFEFEFEFEFE), np.uint64(0x7F7F7F7F7F7F7F7F)
    for _ in range(7):
        sevens = sevens | ((sevens << np.uint64(7)) & not_h) | ((sevens >> np.uint64(7)) & not_a)
        nines = nines | ((nines << np.uint64(9)) & not_a) | ((nines >> np.uint64(9)) & not_h)
    sevens, nines = ~sevens, ~nines
    central = discs & np.uint64(0x007E7E7E7E7E7E00)
    found |= rows & columns_ & sevens & nines & central
    for _ in range(64):
        d = [np.uint64(k) for k in (1, 8, 7, 9)]
        grown = found | (
            ((found >> d[0]) | (found << d[0]) | rows)
            & ((found >> d[1]) | (found << d[1]) | columns_)
            & ((found >> d[2]) | (found << d[2]) | sevens)
            & ((found >> d[3]) | (found << d[3]) | nines)
            & central
        )
        if np.array_equal(grown, found):
            break
        found = grown
    return found


def scalars(p: Words, o: Words) -> Words:
    """The scalar features of each position, from the side to move (:data:`SCALARS`)."""
    occupied = p | o
    empty = ~occupied
    corners = np.uint64(0x8100000000000081)
    x_c = {  # each corner with its X-square and C-squares
        0: (9, (1, 8)),
        7: (14, (6, 15)),
        56: (49, (48, 57)),
        63: (54, (55, 62)),
    }
    x = np.zeros(len(p), dtype=np.int64)
    c = np.zeros(len(p), dtype=np.int64)
    one = np.uint64(1)
    for corner, (xs, cs) in x_c.items():
        open_ = ((empty >> np.uint64(corner)) & one).astype(np.int64)
        x += open_ * (
            ((p >> np.uint64(xs)) & one).astype(np.int64)
            - ((o >> np.uint64(xs)) & one).astype(np.int64)
        )
        for square in cs:
            c += open_ * (
                ((p >> np.uint64(square)) & one).astype(np.int64)
                - ((o >> np.uint64(square)) & one).astype(np.int64)
            )
    return np.stack(
        [
            np.ones(len(p)),
            mobility(p, o) - mobility(o, p),
            count(neighbours(o) & empty) - count(neighbours(p) & empty),
            count(p & corners) - count(o & corners),
            x,
            c,
            # stable discs are only counted once a corner is taken (rare before, and
            # costly to look for)
            np.where(
                (occupied & corners) != 0,
                count(stable(p, occupied)) - count(stable(o, occupied)),
                0,
            ),
            count(empty) & 1,
        ],
        axis=1,
    ).astype(np.float64)


def layout() -> tuple[list[int], int]:
    """Where each pattern's table starts in one stage's weights, and the stage's size
    (the tables, then the scalar weights, :data:`SCALARS`)."""
    starts = []
    size = 0
    for squares in evaluation.PATTERNS.values():
        starts.append(size)
        size += 3 ** len(squares)
    return starts, size + len(SCALARS)


def columns(mover: Words, opponent: Words, used: set[str]) -> Words:
    """Each position's weights, one per place of the ``used`` patterns: (positions,
    places)."""
    starts, _ = layout()
    start_of = dict(zip(evaluation.PATTERNS, starts, strict=True))
    places = [place for place in evaluation.pattern_instances() if place[0] in used]
    found = np.zeros((len(mover), len(places)), dtype=np.int64)
    one = np.uint64(1)
    for column, (name, _, squares) in enumerate(places):
        index = np.zeros(len(mover), dtype=np.int64)
        for square in reversed(squares):  # the first square the least significant digit
            s = np.uint64(square)
            cell = ((mover >> s) & one) + 2 * ((opponent >> s) & one)
            index = 3 * index + cell.astype(np.int64)
        found[:, column] = start_of[name] + index
    return found


def conjugate_gradient(  # noqa: PLR0917 - the problem's parts, in the order they are read
    cols: Words, scalars: Words, labels: Words, size: int, ridge: float, steps: int
) -> Words:
    """The weights minimising the squared error plus ``ridge`` times their squares:
    conjugate gradients on the normal equations, the design matrix kept implicit (each
    row a set of weights plus the scalar features in the last columns)."""
    flat = cols.ravel()
    width = cols.shape[1]
    count = np.bincount(flat, minlength=size).astype(np.float64)

    def product(w: Words) -> Words:  # X w
        return w[cols].sum(axis=1) + scalars @ w[size - scalars.shape[1] :]

    def transposed(r: Words) -> Words:  # X^T r
        out = np.bincount(flat, weights=np.repeat(r, width), minlength=size).astype(np.float64)
        out[size - scalars.shape[1] :] += scalars.T @ r
        return out

    def normal(w: Words) -> Words:
        return transposed(product(w)) + ridge * w

    w = np.zeros(size)
    r = transposed(labels.astype(np.float64)) - normal(w)
    direction = r.copy()
    rr = r @ r
    for _ in range(steps):
        q = normal(direction)
        a = rr / (direction @ q)
        w += a * direction
        r -= a * q
        new = r @ r
        if new < 1e-10:
            break
        direction = r + (new / rr) * direction
        rr = new
    w[: size - scalars.shape[1]][count[: size - scalars.shape[1]] == 0] = 0.0
    return w


def fit(args: argparse.Namespace) -> None:
    movers, opponents, labels = [], [], []
    for path in args.data:
        data = np.load(path)
        movers.append(data["mover"])
        opponents.append(data["opponent"])
        labels.append(data["label"].astype(np.float64))
    mover = np.concatenate(movers)
    opponent = np.concatenate(opponents)
    label = np.concatenate(labels)
    empties = 64 - count(mover | opponent)
    stage = np.array([evaluation.stage_of(int(e)) for e in empties])
    # held out by game (a game's positions before the exact phase share one label): a
    # game starts where the empty squares stop falling
    game = np.cumsum(np.concatenate([[1], np.diff(empties) > 0]))
    rng = np.random.default_rng(args.seed)
    held = (rng.random(game.max() + 1) < args.held_out)[game]
    used = set(args.patterns.split(",")) if args.patterns else set()
    unknown = used - set(evaluation.PATTERNS)
    if unknown:
        sys.exit(f"unknown patterns {sorted(unknown)}: choose from {list(evaluation.PATTERNS)}")
    _, size = layout()
    weights = np.zeros((evaluation.STAGES, size))
    hand_all = np.array(
        [
            evaluation.evaluate(othello_rules.make(int(a), int(b), 0))
            for a, b in zip(mover, opponent, strict=True)
        ],
        dtype=np.float64,
    )
    print(f"{len(label)} positions, {held.sum()} held out; ridge {args.ridge}")
    print(f"patterns {sorted(used)}; error (rmse, discs) of the hand-tuned evaluation,")
    print("the same scaled to the labels, the fit")
    print(f"{'stage':>5} {'empties':>8} {'rows':>8} {'hand':>6} {'scaled':>6} {'fit':>6}")
    totals = np.zeros(3)
    for s in range(evaluation.STAGES):
        chosen = stage == s
        train = chosen & ~held
        test = chosen & held
        if not train.any():
            continue
        cols, scal, ys = [], [], []
        for symmetry in range(8):
            m = transform(mover[train], symmetry)
            o = transform(opponent[train], symmetry)
            cols.append(columns(m, o, used))
            scal.append(scalars(m, o))
            ys.append(label[train])
        w = conjugate_gradient(
            np.concatenate(cols),
            np.concatenate(scal),
            np.concatenate(ys),
            size,
            args.ridge,
            args.steps,
        )
        weights[s] = w
        m, o, y = mover[test], opponent[test], label[test]
        predicted = w[columns(m, o, used)].sum(axis=1) + scalars(m, o) @ w[-len(SCALARS) :]
        # the hand evaluation scaled to the labels by least squares on the training rows
        a, b = np.polyfit(hand_all[train], label[train], 1)
        errors = [hand_all[test] - y, a * hand_all[test] + b - y, predicted - y]
        rmse = [np.sqrt(np.mean(e**2)) for e in errors]
        totals += [np.sum(e**2) for e in errors]
        low = 4 * s + 1
        errors_text = " ".join(f"{value:>6.2f}" for value in rmse)
        print(f"{s:>5} {low:>3}-{low + 3:<4} {train.sum():>8} {errors_text}", flush=True)
    overall = np.sqrt(totals / held.sum())
    overall_text = " ".join(f"{value:>6.2f}" for value in overall)
    print(f"{'all':>5} {'':>8} {(~held).sum():>8} {overall_text}")
    np.save(args.out, weights)
    if args.write is not None:
        quantised = quantise(weights)
        args.write.write_bytes(zlib.compress(quantised.astype("<i2").tobytes(), 9))
        print(f"wrote {args.write}: {args.write.stat().st_size:,} bytes")


def quantise(weights: np.ndarray) -> np.ndarray:
    """Weights in discs as the kernel reads them: 16-bit integers in 32nds of a disc."""
    unit = evaluation.WEIGHT_UNIT
    return np.clip(np.round(weights * unit), -32767, 32767).astype(np.int16)


# ---------------------------------------------------------------- comparing


def load_weights(name: str) -> np.ndarray:
    """``hand`` (the hand-tuned evaluation), or a weights file of ``fit`` (in discs)."""
    if name == "hand":
        return np.zeros((0, kernel.STAGE_SIZE), dtype=np.int16)
    return quantise(np.load(name))


def compare(args: argparse.Namespace) -> None:
    game = Othello()
    engines = [
        KernelEngine(game, table_bits=20, weights=load_weights(w), selective=cut == "on")
        for w, cut in ((args.a, args.cut_a), (args.b, args.cut_b))
    ]
    if args.time is not None:
        limits = Limits(time=args.time)
    elif args.nodes is not None:
        limits = Limits(nodes=args.nodes)
    else:
        limits = Limits(depth=args.depth)
    openings = random_openings(game, args.plies, args.openings, args.seed)
    wins = draws = losses = 0
    for number, opening in enumerate(openings):
        for first in (0, 1):  # engine 0 plays black, then white
            for engine in engines:
                engine.reset()
            state = game.initial_state()
            for text in opening:
                state = game.result(state, game.parse_move(state, text))
            while state[3]:
                mover = engines[(state[2] + first) % 2]
                state = game.result(state, mover.search(state, limits).best_move)
            score = othello_rules.final_score(state[0], state[1])
            ours = score if (state[2] + first) % 2 == 0 else -score
            wins += ours > 0
            draws += ours == 0
            losses += ours < 0
        if (number + 1) % 10 == 0 or number + 1 == len(openings):
            estimate = elo_estimate(wins, draws, losses)
            print(
                f"{2 * (number + 1)} games: {args.a} +{wins} ={draws} -{losses} "
                f"({estimate.score:.1%}), Elo {estimate.describe()}",
                flush=True,
            )


# ---------------------------------------------------------------- probability cut


def probcut(args: argparse.Namespace) -> None:
    """Regress deep search values on shallow ones, for the kernel's probability cut."""
    data = np.load(args.data)
    mover, opponent = data["mover"], data["opponent"]
    empties = 64 - count(mover | opponent)
    rng = np.random.default_rng(args.seed)
    chosen = rng.permutation(np.nonzero((empties >= 20) & (empties <= 54))[0])[: args.positions]
    weights = load_weights(args.weights)
    engine = kernel.OthelloKernel(20, weights)
    values = np.zeros((len(chosen), args.depth + 1))
    for row, index in enumerate(chosen):
        engine.clear()
        m, o = int(mover[index]), int(opponent[index])
        values[row, 0] = kernel.evaluate(m, o, weights)
        for depth in range(1, args.depth + 1):
            values[row, depth] = engine.window(m, o, -64, 64, depth)
        if (row + 1) % 50 == 0:
            print(f"{row + 1} positions", flush=True)
    np.save(args.out, values)
    print(f"{'deep':>4} {'shallow':>7} {'slope':>6} {'offset':>6} {'sigma':>6}")
    for deep in range(3, args.depth + 1):
        for shallow in range(max(1, deep - 6), deep - 1):
            slope, offset = np.polyfit(values[:, shallow], values[:, deep], 1)
            sigma = np.std(values[:, deep] - (slope * values[:, shallow] + offset))
            print(f"{deep:>4} {shallow:>7} {slope:>6.3f} {offset:>6.2f} {sigma:>6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate", help="play games and label their positions")
    make.add_argument("--games", type=int, default=1000)
    make.add_argument("--seed", type=int, default=1)
    make.add_argument("--random", type=int, default=16, help="most random opening plies")
    make.add_argument("--depth", type=int, default=4, help="midgame search depth")
    make.add_argument("--exact", type=int, default=20, help="empties solved exactly")
    make.add_argument("--noise", type=float, default=0.1, help="share of random moves once exact")
    make.add_argument("--weights", default="hand", help="the players' evaluation")
    make.add_argument("--out", type=Path, required=True)
    solve = commands.add_parser("fit", help="fit the pattern weights to the labels")
    solve.add_argument("data", type=Path, nargs="+")
    solve.add_argument("--ridge", type=float, default=50.0)
    solve.add_argument("--patterns", default="", help="patterns to fit, by name (none: scalars)")
    solve.add_argument("--steps", type=int, default=300)
    solve.add_argument("--held-out", type=float, default=0.1)
    solve.add_argument("--seed", type=int, default=1)
    solve.add_argument("--out", type=Path, required=True, help="the weights in discs (.npy)")
    solve.add_argument("--write", type=Path, help="also the kernel's weights file (weights.bin)")
    match = commands.add_parser("compare", help="two evaluations against each other")
    match.add_argument("a", help="weights file, or hand")
    match.add_argument("b", help="weights file, or hand")
    match.add_argument("--depth", type=int, default=6)
    match.add_argument("--nodes", type=int, help="nodes a move instead of a depth")
    match.add_argument("--time", type=float, help="seconds a move instead of a depth")
    match.add_argument("--cut-a", choices=("on", "off"), default="off", help="a's probability cut")
    match.add_argument("--cut-b", choices=("on", "off"), default="off", help="b's probability cut")
    match.add_argument("--openings", type=int, default=50, help="each played both ways")
    match.add_argument("--plies", type=int, default=8)
    match.add_argument("--seed", type=int, default=1)
    cut = commands.add_parser("probcut", help="deep values against shallow ones")
    cut.add_argument("data", type=Path)
    cut.add_argument("--weights", default="hand")
    cut.add_argument("--positions", type=int, default=400)
    cut.add_argument("--depth", type=int, default=9)
    cut.add_argument("--seed", type=int, default=1)
    cut.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "probcut":
        probcut(args)
    elif args.command == "compare":
        compare(args)
    elif args.command == "generate":
        generate(args)
    elif args.command == "fit":
        fit(args)
    else:
        sys.exit(f"unknown command {args.command}")


if __name__ == "__main__":
    main()
