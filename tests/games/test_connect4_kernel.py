"""Connect four's compiled kernel against the pure-Python solver, position by position,
and the switch, the lazy import and the cache folder of :mod:`zerosum.kernels`.

The kernel tests skip when numba is absent (``pip install zerosum[fast]``); the tests
of the mechanism run either way."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import shared_data
from zerosum import kernels
from zerosum.game import WIN, IllegalMoveError, plies_to_end
from zerosum.games.connect4 import Connect4, State, solve_position
from zerosum.search.engine import Engine, EngineOptions, Limits
from zerosum.search.solve import solve

needs_numba = pytest.mark.skipif(not kernels.available(), reason="numba is not installed")

TABLE_BITS = 20  # 14 MB: the test positions need no more


@pytest.fixture(autouse=True)
def _default_switch() -> Iterator[None]:
    """Every test starts and ends with the switch deferring to the environment."""
    kernels.use_kernels(None)
    yield
    kernels.use_kernels(None)


def kernel_engine(game: Connect4) -> Engine:
    from zerosum.games.connect4_kernel import KernelEngine

    return KernelEngine(game, table_bits=TABLE_BITS)


def sample(name: str, count: int) -> list[tuple[str, int]]:
    """Every ``len(lines) // count``-th line of a shared set: a spread, not its start."""
    lines = shared_data("connect4", name).read_text().split("\n")
    pairs = [(moves, int(score)) for moves, score in (line.split() for line in lines if line)]
    return pairs[:: len(pairs) // count][:count]


def random_positions(game: Connect4, count: int, low: int, high: int, seed: int) -> list[State]:
    """``count`` positions where the game goes on, ``low`` to ``high`` random moves in."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randint(low, high)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        if not game.is_terminal(state):
            found.append(state)
    return found


def assert_same_solution(game: Connect4, state: State, compiled: Engine, **kwargs: Any) -> None:
    """The kernel and the pure engine give the same score, best moves and root scores."""
    pure = solve(game, state, engine=Engine(game, EngineOptions(table_size=1 << 16)), **kwargs)
    fast = solve(game, state, engine=compiled, **kwargs)
    where = game.format_state(state)
    assert fast.score == pure.score, where
    assert fast.best_moves == pure.best_moves, where
    assert fast.root_scores == pure.root_scores, where
    assert fast.finished


# ---------------------------------------------------------------- kernel vs pure


@needs_numba
@pytest.mark.parametrize(
    ("name", "count"),
    [("Test_L3_R1", 40), ("Test_L2_R1", 30), ("Test_L1_R1", 12), ("Test_L2_R2", 2)],
)
def test_shared_sets_match_the_pure_solver_and_the_published_scores(name: str, count: int) -> None:
    game = Connect4()
    compiled = kernel_engine(game)
    for moves, published in sample(name, count):
        state = game.parse_state(moves)
        compiled.reset()
        assert_same_solution(game, state, compiled)
        assert solve_position(game, state, engine=compiled).score == published, moves


@needs_numba
@pytest.mark.parametrize(
    ("width", "height"), [(4, 4), (5, 4), (6, 5), (7, 6), (9, 5), (9, 6), (7, 8)]
)
def test_random_positions_match_the_pure_solver_with_every_root_score(
    width: int, height: int
) -> None:
    game = Connect4(width, height)
    compiled = kernel_engine(game)
    cells = width * height
    for state in random_positions(game, 6, max(0, cells - 20), cells - 2, seed=width * height):
        assert_same_solution(game, state, compiled, root_scores=True)


@needs_numba
def test_weak_solves_match_the_pure_solver() -> None:
    game = Connect4()
    compiled = kernel_engine(game)
    for state in random_positions(game, 8, 20, 30, seed=7):
        assert_same_solution(game, state, compiled, weak=True)


@needs_numba
def test_the_score_alone_in_the_kernel_is_the_exact_score() -> None:
    from zerosum.games.connect4_kernel import Connect4Kernel

    game = Connect4()
    kernel = Connect4Kernel(game, TABLE_BITS)
    for moves, published in sample("Test_L2_R1", 30) + sample("Test_L1_R1", 10):
        state = game.parse_state(moves)
        kernel.clear()
        assert game.published_score(state, kernel.value(state)) == published, moves
        assert kernel.nodes > 0


@needs_numba
def test_full_windows_and_principal_variations() -> None:
    game = Connect4(6, 5)
    compiled = kernel_engine(game)
    for state in random_positions(game, 5, 10, 18, seed=3):
        exact = solve(game, state, engine=compiled)
        wide = solve(game, state, engine=compiled, method="window")
        assert wide.score == exact.score
        # the line keeps the value to the end of the game
        line = exact.pv
        position = state
        for move in line:
            position = game.result(position, move)
        assert game.is_terminal(position)
        if exact.score:
            assert len(line) == plies_to_end(exact.score)
        else:
            assert game.utility(position, 0) == 0


@needs_numba
def test_positions_already_won_or_winning_at_once() -> None:
    from zerosum.games.connect4_kernel import Connect4Kernel

    game = Connect4()
    kernel = Connect4Kernel(game, TABLE_BITS)
    won = game.parse_state("4455667")  # X made four; O to move has lost
    assert kernel.window(won, -WIN, WIN) == -WIN
    assert kernel.window(won, -WIN, WIN, ply=3) == 3 - WIN
    winning = game.parse_state("445566")
    assert kernel.window(winning, -WIN, WIN) == WIN - 1
    assert kernel.value(winning) == WIN - 1
    with pytest.raises(IllegalMoveError, match="4455667"):
        kernel.value(won)


@needs_numba
def test_limits_stop_a_kernel_solve_with_what_was_proven() -> None:
    game = Connect4()
    state = game.parse_state("4444")
    told: list[int] = []
    stop = threading.Event()
    cut = solve(
        game,
        state,
        engine=kernel_engine(game),
        limits=Limits(nodes=300_000, stop=stop),
        progress=lambda report: told.append(report.nodes),
    )
    assert not cut.finished
    assert cut.stopped == "nodes"
    assert cut.nodes == 300_000  # the kernel stops on the very node
    assert told
    stop.set()
    stopped = solve(game, state, engine=kernel_engine(game), limits=Limits(stop=stop))
    assert stopped.stopped == "stop"


@needs_numba
def test_depth_limited_searches_stay_with_the_pure_engine() -> None:
    game = Connect4()
    state = game.parse_state("4453")
    limits = Limits(depth=5)
    pure = Engine(game).search(state, limits)
    engine = kernel_engine(game)
    fast = engine.search(state, limits)
    assert (fast.best_move, fast.score) == (pure.best_move, pure.score)
    assert engine._kernel is None  # type: ignore[attr-defined]  # never made: never needed


@needs_numba
def test_a_timed_move_plays_a_proven_best_move_when_the_kernel_solves_it() -> None:
    game = Connect4()
    for moves, published in sample("Test_L2_R1", 4):
        state = game.parse_state(moves)
        played = kernel_engine(game).search(state, Limits(time=5.0))
        assert played.stats.solved
        assert played.stats.depth == game.remaining_plies(state)
        assert played.score is not None
        assert game.published_score(state, played.score) == published
        exact = solve(game, state, engine=kernel_engine(game), root_scores=True)
        assert exact.root_scores is not None
        assert exact.root_scores[played.best_move] == exact.score


@needs_numba
def test_a_timed_move_the_kernel_cannot_solve_searches_with_the_evaluation() -> None:
    game = Connect4()
    state = game.parse_state("4")
    played = kernel_engine(game).search(state, Limits(time=0.2))
    assert not played.stats.solved
    assert played.stats.depth >= 1
    assert played.best_move in game.actions(state)


@needs_numba
def test_boards_wider_than_a_word_keep_the_pure_path() -> None:
    from zerosum.games.connect4_kernel import Connect4Kernel, fits

    assert fits(7, 6) and fits(9, 6) and not fits(8, 7) and not fits(9, 9)
    kernels.use_kernels(True)
    assert Connect4(8, 7).compiled_engine() is None
    with pytest.raises(ValueError, match="64 bits"):
        Connect4Kernel(Connect4(8, 7))


# ---------------------------------------------------------------- the mechanism


@needs_numba
def test_the_switch_chooses_the_path(monkeypatch: pytest.MonkeyPatch) -> None:
    from zerosum.games.connect4_kernel import KernelEngine

    game = Connect4()
    monkeypatch.delenv(kernels.ENVIRONMENT_VARIABLE, raising=False)
    assert isinstance(game.compiled_engine(), KernelEngine)
    monkeypatch.setenv(kernels.ENVIRONMENT_VARIABLE, "0")
    assert not kernels.enabled()
    assert game.compiled_engine() is None
    kernels.use_kernels(True)  # the API flag wins over the environment
    assert isinstance(game.compiled_engine(), KernelEngine)
    monkeypatch.delenv(kernels.ENVIRONMENT_VARIABLE)
    kernels.use_kernels(False)
    assert game.compiled_engine() is None
    solution = solve_position(game, game.parse_state("4455"))
    assert solution.score == 18


def test_without_numba_everything_takes_the_pure_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernels, "available", lambda: False)
    kernels.use_kernels(True)
    assert not kernels.enabled()
    assert kernels.load("zerosum.games.connect4_kernel") is None
    game = Connect4(5, 4)
    assert game.compiled_engine() is None
    state = game.parse_state("3333")
    pure = solve(game, state)
    solution = solve_position(game, state)
    assert solution.engine_score == pure.score
    assert solution.best == tuple(str(move + 1) for move in pure.best_moves)


def test_a_kernel_module_that_fails_warns_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernels, "available", lambda: True)
    monkeypatch.setattr(kernels, "_failed", set())
    kernels.use_kernels(True)
    with pytest.warns(RuntimeWarning, match="zerosum.no_such_kernel"):
        assert kernels.load("zerosum.no_such_kernel") is None
    assert kernels.load("zerosum.no_such_kernel") is None  # not tried again, no warning


def test_importing_the_game_does_not_import_numba() -> None:
    code = (
        "import sys, zerosum.games.connect4 as c; "
        "from zerosum import kernels; kernels.use_kernels(False); "
        "assert c.Connect4().compiled_engine() is None; "
        "assert 'numba' not in sys.modules, 'numba imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_cache_folder_is_the_users_and_falls_back_when_not_writable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(kernels, "_cache", [])
    assert kernels.cache_folder() == tmp_path / "zerosum" / "numba"
    assert (tmp_path / "zerosum" / "numba").is_dir()
    blocked = tmp_path / "a file"
    blocked.write_text("")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocked / "numba"))
    monkeypatch.setattr(kernels, "_cache", [])
    assert kernels.cache_folder() is None


@needs_numba
def test_the_command_line_answers_alike_on_both_paths(capsys: pytest.CaptureFixture[str]) -> None:
    from zerosum.cli import main

    moves = sample("Test_L2_R1", 1)[0][0]  # a middle game: quick on the pure path too
    shown = []
    for on in (True, False):
        kernels.use_kernels(on)
        assert main(["solve", "connect4", "--moves", moves, "--all"]) == 0
        out = capsys.readouterr().out
        # the counts and the line may differ; the value, best moves and scores may not
        shown.append([line for line in out.splitlines() if not line.startswith(("nodes", "line"))])
    assert shown[0] == shown[1]
    assert "best moves: " in "\n".join(shown[0])


@needs_numba
@pytest.mark.slow
def test_a_second_process_loads_the_kernel_from_the_cache(tmp_path: Path) -> None:
    code = (
        "from zerosum.games.connect4 import Connect4, solve_position; "
        "game = Connect4(); "
        "print(solve_position(game, game.parse_state('4455')).score)"
    )
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "ZEROSUM_KERNELS": "1"}

    def run() -> dict[Path, int]:
        done = subprocess.run(
            [sys.executable, "-c", code],
            env=environment,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "18"
        return {path: path.stat().st_mtime_ns for path in tmp_path.rglob("*") if path.is_file()}

    compiled = run()
    assert any(path.suffix == ".nbi" for path in compiled)  # numba's cache index
    assert run() == compiled  # loaded, not compiled and written again
