"""The brain's own settings: node and depth caps on top of the manager's time, and the
engine's options, so that a match can play it against its other settings."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from zerosum.protocols.gomocup import GomocupBrain
from zerosum.search.engine import EngineOptions, Limits

pytestmark = pytest.mark.usefixtures("compiled_kernels")  # zerosum runs as a subprocess

OPENING = ("START 15", "INFO timeout_turn 5000", "BOARD", "7,7,2", "8,8,1", "7,8,2", "DONE")


def first_move(caps: Limits, options: EngineOptions | None = None) -> tuple[GomocupBrain, str]:
    """A brain with these settings, and its answer to the opening."""
    out = io.StringIO()
    brain = GomocupBrain(out, messages=False, caps=caps, options=options)
    for line in OPENING:
        brain.handle(line)
    return brain, out.getvalue().splitlines()[-1]


def test_a_node_cap_bounds_every_search_and_plays_the_same_move_each_time() -> None:
    moves = set()
    for _ in range(2):
        brain, move = first_move(Limits(nodes=400))
        moves.add(move)
        assert brain.last is not None and brain.last.nodes <= 400
    assert len(moves) == 1


def test_a_depth_cap_stops_the_deepening() -> None:
    brain, _ = first_move(Limits(depth=2))
    assert brain.last is not None and brain.last.depth == 2


def test_options_reach_the_engine_within_the_memory_limit() -> None:
    chosen = EngineOptions(threats=False, killers=True, table_size=1 << 30)
    brain, _ = first_move(Limits(depth=1), chosen)
    assert brain.engine is not None
    options = brain.engine.options
    assert (options.threats, options.killers) == (False, True)
    assert options.table_size < 1 << 30  # the manager's memory still rules


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--depth", "0"], "depth limit must be 1 to"),
        (["--set", "killers=maybe"], "killers is on or off"),
        (["--set", "time=3"], "the manager gives the time"),
        (["--set", "threats=off,pvs=off"], "one NAME=VALUE each time"),
        (["--set", "colour=red"], "unknown option 'colour'"),
    ],
)
def test_bad_settings_print_one_line_and_exit_2(arguments: list[str], said: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "zerosum.cli", "gomocup", *arguments],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and said in done.stderr
