"""Othello's compiled kernel against the pure-Python path, position by position: move
generation, flips and perft against the rules, the evaluation against the pure one,
exact values against the pure endgame solver and the FFO suite, the midgame search
against the reference alpha-beta, and the engine's limits and switch.

Skipped when numba is absent (``pip install zerosum[fast]``), except the tests of the
pure path."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import shared_data
from zerosum import kernels
from zerosum.agents import SearchAgent
from zerosum.games.othello import START, Othello, State
from zerosum.games.othello import rules as othello_rules
from zerosum.games.othello.evaluation import (
    PATTERNS,
    load_weights,
    pattern_evaluate,
    pattern_instances,
    symmetric,
)
from zerosum.games.othello.evaluation import evaluate as pure_evaluate
from zerosum.search.engine import Engine, Limits
from zerosum.search.reference import alphabeta
from zerosum.search.solve import solve

needs_numba = pytest.mark.skipif(not kernels.available(), reason="numba is not installed")

TABLE_BITS = 18  # 6 MB: the test positions need no more

PERFT = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092, 8: 390216, 9: 3005288}
"""The published counts of move paths from the start (passes count as moves)."""


@pytest.fixture(autouse=True)
def _default_switch() -> Iterator[None]:
    """Every test starts and ends with the switch deferring to the environment."""
    kernels.use_kernels(None)
    yield
    kernels.use_kernels(None)


@pytest.fixture(scope="module")
def kernel() -> Any:
    """One kernel for the module: its table is emptied where a test needs it so."""
    if not kernels.available():
        pytest.skip("numba is not installed")
    from zerosum.games.othello.kernel import OthelloKernel

    return OthelloKernel(TABLE_BITS)


def kernel_engine(game: Othello) -> Engine:
    from zerosum.games.othello.kernel import KernelEngine

    return KernelEngine(game, table_bits=TABLE_BITS)


def random_positions(count: int, low: int, high: int, seed: int) -> list[State]:
    """``count`` positions of random games with ``low`` to ``high`` empty squares, the
    game going on there."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        wanted = rng.randint(low, high)
        state = START
        while state[3] and 64 - (state[0] | state[1]).bit_count() > wanted:
            state = othello_rules.result(state, rng.choice(othello_rules.bit_indices(state[3])))
        if state[3]:
            found.append(state)
    return found


def ffo(first: int, last: int) -> list[tuple[int, str, int, set[str]]]:
    """(number, line, best score, best moves) of FFO positions ``first`` to ``last``."""
    lines = shared_data("othello", "fforum-20-39.obf").read_text().splitlines()
    cases = []
    for number, line in enumerate(lines, 20):
        if first <= number <= last:
            scored = [field.strip().split(":") for field in line.split(";")[1:] if field.strip()]
            best = max(int(score) for _, score in scored)
            moves = {move.lower() for move, score in scored if int(score) == best}
            cases.append((number, line, best, moves))
    return cases


# ---------------------------------------------------------------- the rules


@needs_numba
@pytest.mark.parametrize(("depth", "count"), PERFT.items())
def test_perft_from_the_start(depth: int, count: int) -> None:
    from zerosum.games.othello.kernel import perft

    assert perft(START[0], START[1], depth) == count


@needs_numba
def test_moves_flips_and_perft_match_the_rules_on_random_positions() -> None:
    from zerosum.games.othello.kernel import flips, moves, perft

    for state in random_positions(300, 1, 59, seed=1):
        mover, opponent = state[0], state[1]
        assert moves(mover, opponent) == othello_rules.mobility(mover, opponent)
        assert moves(opponent, mover) == othello_rules.mobility(opponent, mover)
        for square in range(64):
            if not (mover | opponent) >> square & 1:
                assert flips(mover, opponent, square) == othello_rules.flips(
                    mover, opponent, square
                )
    for state in random_positions(20, 4, 50, seed=2):
        assert perft(state[0], state[1], 3) == othello_rules.perft(state, 3)


@needs_numba
def test_the_hand_evaluation_is_the_pure_one() -> None:
    from zerosum.games.othello.kernel import HAND, evaluate

    for state in random_positions(2000, 1, 59, seed=3):
        assert evaluate(state[0], state[1], HAND) == pure_evaluate(state)


@needs_numba
def test_the_pattern_evaluation_is_the_pure_one() -> None:
    from zerosum.games.othello.kernel import evaluate, shipped_weights

    weights = load_weights()
    compiled = shipped_weights()
    for state in random_positions(2000, 1, 59, seed=14):
        mover, opponent = state[0], state[1]
        assert evaluate(mover, opponent, compiled) == pattern_evaluate(mover, opponent, weights)


def test_every_place_of_a_pattern_is_a_symmetry_of_its_squares() -> None:
    places = pattern_instances()
    assert len(places) == sum(
        len({frozenset(symmetric(s, k) for s in squares) for k in range(8)})
        for squares in PATTERNS.values()
    )
    for name, symmetry, squares in places:
        assert squares == tuple(symmetric(s, symmetry) for s in PATTERNS[name])


# ---------------------------------------------------------------- exact values


@needs_numba
def test_exact_values_match_the_pure_endgame_solver(kernel: Any) -> None:
    rng = random.Random(4)
    for state in random_positions(30, 8, 13, seed=4):
        mover, opponent = state[0], state[1]
        value = othello_rules.Endgame().solve(mover, opponent)
        kernel.clear()
        assert kernel.window(mover, opponent, -64, 64) == value
        # a table shared by windows keeps each one's promise: exact inside, bounds outside
        for _ in range(3):
            low = rng.randrange(-65, 64)
            high = rng.choice((low + 1, low + 2, rng.randrange(low + 1, 66)))
            found = kernel.window(mover, opponent, low, high)
            if found <= low:
                assert value <= found
            elif found >= high:
                assert value >= found
            else:
                assert value == found


@needs_numba
def test_the_last_empties_and_passes_match_plain_minimax(kernel: Any) -> None:
    game = Othello()

    def minimax(state: State) -> int:
        if game.is_terminal(state):
            return game.utility(state, state[2])
        return max(-minimax(othello_rules.result(state, m)) for m in game.actions(state))

    for state in random_positions(200, 1, 7, seed=5):
        kernel.clear()
        assert kernel.window(state[0], state[1], -64, 64) == minimax(state)
    # a position where the side to move must pass, and a finished one
    passing = game.parse_state("O" * 62 + "X-" + " X")
    assert passing[3] == othello_rules.PASS_BIT
    assert kernel.window(passing[0], passing[1], -64, 64) == minimax(passing)
    over = game.parse_state("X" * 40 + "-" * 24 + " O")
    assert kernel.window(over[0], over[1], -64, 64) == -64


@needs_numba
@pytest.mark.slow
def test_ffo_20_to_29_solve_exactly_with_every_best_move() -> None:
    game = Othello()
    engine = kernel_engine(game)
    for number, line, best, moves in ffo(20, 29):
        engine.reset()
        state = game.parse_state(line)
        solution = solve(game, state, engine=engine)
        assert solution.score == best, number
        assert {game.format_move(state, move) for move in solution.best_moves} == moves, number


@needs_numba
@pytest.mark.slow
def test_ffo_30_to_39_solve_exactly_with_a_best_move() -> None:
    # the hardest of the suite, 20 to 26 empties: the value and one best move, about 30
    # CPU seconds in all on the default 48 MB table (bench/README.md, "Othello kernel")
    from zerosum.games.othello.kernel import KernelEngine

    game = Othello()
    engine = KernelEngine(game)
    for number, line, best, moves in ffo(30, 39):
        engine.reset()
        state = game.parse_state(line)
        solution = solve(game, state, engine=engine, best_moves=False)
        assert solution.score == best, number
        assert game.format_move(state, solution.best_moves[0]) in moves, number


@needs_numba
def test_solve_through_the_kernel_matches_the_pure_path() -> None:
    game = Othello()
    engine = kernel_engine(game)
    for state in random_positions(6, 9, 12, seed=6):
        pure = solve(game, state, root_scores=True)
        engine.reset()
        fast = solve(game, state, engine=engine, root_scores=True)
        assert (fast.score, fast.best_moves, fast.root_scores) == (
            pure.score,
            pure.best_moves,
            pure.root_scores,
        )
        # the principal variation keeps the value to the end of the game
        position = state
        for move in fast.pv:
            position = game.result(position, move)
        assert game.is_terminal(position)
        assert game.utility(position, state[2]) == fast.score


# ---------------------------------------------------------------- the midgame


class PatternOthello(Othello):
    """Othello evaluated by the shipped pattern weights in pure Python."""

    def __init__(self) -> None:
        super().__init__()
        self.weights = load_weights()

    def evaluate(self, state: State) -> int:
        return pattern_evaluate(state[0], state[1], self.weights)


@needs_numba
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_the_midgame_search_gives_the_reference_alpha_beta_value(depth: int) -> None:
    from zerosum.games.othello.kernel import HAND, KernelEngine

    # the hand-tuned evaluation, then the patterns, against the same in pure Python
    for game, weights in ((Othello(), HAND), (PatternOthello(), None)):
        engine = KernelEngine(
            game, table_bits=TABLE_BITS, **({} if weights is None else {"weights": weights})
        )
        for state in random_positions(6, 20, 56, seed=10 + depth):
            engine.reset()
            found = engine.search_window(state, -64, 64, depth=depth)
            assert found.score == alphabeta(game, state, depth).score, game.format_state(state)
            assert found.pv and found.pv[0] in game.actions(state)


@needs_numba
def test_deepening_reports_each_depth_and_solves_near_the_end() -> None:
    game = Othello()
    engine = kernel_engine(game)
    reports = list(engine.iterate(START, Limits(depth=5)))
    assert [report.depth for report in reports] == [1, 2, 3, 4, 5]
    assert all(report.best_move in game.actions(START) for report in reports)
    state = random_positions(1, 14, 14, seed=12)[0]
    played = engine.search(state, Limits(time=30.0))
    assert played.stats.solved
    assert played.score == othello_rules.Endgame().solve(state[0], state[1])
    assert played.best_move in game.actions(state)
    after = game.result(state, played.best_move)
    assert -othello_rules.Endgame().solve(after[0], after[1]) == played.score


@needs_numba
def test_time_node_and_stop_limits_are_honoured() -> None:
    game = Othello()
    engine = kernel_engine(game)
    engine.search(START, Limits(depth=1))  # the kernel made, out of the timing
    state = random_positions(1, 40, 40, seed=13)[0]
    began = time.perf_counter()
    timed = engine.search(state, Limits(time=0.2))
    assert time.perf_counter() - began < 0.4
    assert timed.best_move in game.actions(state)
    assert not timed.stats.solved
    counted = engine.search(state, Limits(nodes=50_000))
    # a node one ply above the horizon evaluates its moves at once, counted with it
    assert 50_000 <= counted.stats.nodes < 50_000 + 64
    assert counted.stats.stopped
    stop = threading.Event()
    stop.set()
    stopped = engine.search(state, Limits(stop=stop))
    assert stopped.stats.stopped
    assert stopped.best_move in game.actions(state)


@needs_numba
def test_a_search_cut_short_knows_only_moves_proven_better_than_its_first(kernel: Any) -> None:
    game = Othello()
    seen = 0
    for state in random_positions(8, 30, 44, seed=15):
        kernel.clear()
        kernel.start(state[0], state[1], -64, 64, 6)
        found: list[tuple[int, int]] = []
        while (score := kernel.resume(500)) is None:
            partial = kernel.partial()
            if partial is not None:
                found.append(partial)
        for value, move in found:
            # proven better than the first move, so no better than the best
            assert move in game.actions(state)
            assert value <= score
        seen += len(found)
    assert seen  # some search did find a better move on the way


@needs_numba
def test_a_forced_move_is_played_at_once() -> None:
    game = Othello()
    passing = game.parse_state("O" * 62 + "X-" + " X")
    engine = kernel_engine(game)
    assert engine.search(passing, Limits(time=5.0)).best_move == othello_rules.PASS


# ---------------------------------------------------------------- the switch


@needs_numba
def test_the_switch_chooses_the_path(monkeypatch: pytest.MonkeyPatch) -> None:
    from zerosum.games.othello.kernel import KernelEngine

    game = Othello()
    monkeypatch.delenv(kernels.ENVIRONMENT_VARIABLE, raising=False)
    assert isinstance(game.compiled_engine(), KernelEngine)
    agent = SearchAgent(Limits(depth=2))
    assert isinstance(agent.engine(game), KernelEngine)
    kernels.use_kernels(False)
    assert game.compiled_engine() is None
    pure_agent = SearchAgent(Limits(depth=2))
    assert type(pure_agent.engine(game)) is Engine
    assert pure_agent.choose(game, START) in game.actions(START)


def test_without_numba_the_player_takes_the_pure_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernels, "available", lambda: False)
    kernels.use_kernels(True)
    game = Othello()
    assert game.compiled_engine() is None
    agent = SearchAgent(Limits(depth=2))
    assert type(agent.engine(game)) is Engine
    assert agent.choose(game, START) in game.actions(START)


def test_importing_the_game_does_not_import_numba() -> None:
    code = (
        "import sys, zerosum.games.othello as o; "
        "from zerosum import kernels; kernels.use_kernels(False); "
        "assert o.Othello().compiled_engine() is None; "
        "assert 'numba' not in sys.modules, 'numba imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
