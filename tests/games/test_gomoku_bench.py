"""``bench/gomoku.py --sprt``: a match stopped once the sequential test decides, and a
bad setting refused with one line. The bench runs as users run it, in its own process.

The match needs the compiled kernel and skips when numba is absent."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum import kernels

BENCH = Path(__file__).resolve().parents[2] / "bench" / "gomoku.py"


def _bench(*arguments: str) -> subprocess.CompletedProcess[str]:
    """Run the gomoku bench with ``arguments`` from the project root."""
    return subprocess.run(
        [sys.executable, str(BENCH), *arguments],
        cwd=BENCH.parents[1],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_bad_sprt_setting_is_one_error_line_and_exit_2() -> None:
    result = _bench("--only", "versions", "--sprt", "elo0=0", "elo1=fast")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines()[-1].startswith("gomoku.py: error: --sprt: ")
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(not kernels.available(), reason="numba is not installed")
def test_a_versions_match_stops_once_the_sprt_decides() -> None:
    # 4,000 nodes against 500 is a gap of hundreds of Elo: H1 of SPRT(0, 50) is accepted
    # within a few pairs, long before the 200 games allowed
    result = _bench(
        "--only", "versions", "--versus", "4000:500", "--games", "200",
        "--sprt", "elo0=0", "elo1=50", "--workers", "1",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    score = re.search(r"(\d+) games: \+(\d+) =(\d+) -(\d+)", result.stdout)
    verdict = re.search(r"SPRT elo0=0 elo1=50 .*after (\d+) pairs: H1 accepted", result.stdout)
    assert score is not None and verdict is not None, result.stdout
    games, wins, draws, losses = (int(group) for group in score.groups())
    assert games == wins + draws + losses < 200
    assert int(verdict.group(1)) == games // 2
    assert wins > losses


@pytest.mark.skipif(not kernels.available(), reason="numba is not installed")
def test_random_even_openings_are_those_the_engine_scores_near_even() -> None:
    """``--openings random-even``: three or four stones of the central 7x7, alternately
    black and white, each scored within the margin by a fresh search; the same seed gives
    the same openings, another seed others."""
    import importlib.util

    from zerosum.games.gomoku import Gomoku
    from zerosum.games.gomoku_kernel import KernelEngine
    from zerosum.search.engine import Limits

    spec = importlib.util.spec_from_file_location("gomoku_bench", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    chosen = bench.even_openings(6, 3)
    assert chosen == bench.even_openings(6, 3)
    assert chosen != bench.even_openings(6, 4)
    game = Gomoku(15)
    engine = KernelEngine(game)
    for moves in chosen:
        assert len(moves) in (3, 4)
        state = game.initial_state()
        for text in moves:
            cell = game.parse_move(state, text)
            x, y = game.coordinates(cell)
            assert 4 <= x <= 10 and 4 <= y <= 10
            state = game.result(state, cell)
        engine.reset()
        score = engine.search(state, Limits(nodes=bench.EVEN_NODES)).score
        assert score is not None and abs(score) <= bench.EVEN_MARGIN
