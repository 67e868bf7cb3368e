"""External engines in a match spread over Ray: each Ray worker starts its own engine
processes, a crash loses only its game, and no engine process outlives the match."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest
from engine_processes import alive

from zerosum.arena import Event, run_event, tally

FAKE_UCI = Path(__file__).with_name("fake_uci.py")
ENGINE = f"{sys.executable} -m zerosum.cli uci"


def processes_in(folder: Path) -> list[int]:
    """The live processes whose working directory is ``folder``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if cwd == str(folder) and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def test_uci_engines_play_a_ray_match_and_none_outlives_it(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    log = tmp_path / "log"
    # The fake engine crashes on its third move of every game; ours searches to depth 1.
    crasher = shlex.join([sys.executable, str(FAKE_UCI), "crash", "2", str(log)])
    event = Event(
        "match",
        "chess",
        (
            f"uci:cmd={crasher},cwd={tmp_path},name=crasher",
            f"uci:cmd={ENGINE},depth=1,Hash=1,cwd={tmp_path}",
        ),
        games=4,
        seed=11,
        time_margin=5,
    )
    records = run_event(event, workers=2, ray=True)
    assert sorted(record.index for record in records) == [0, 1, 2, 3]
    assert {record.reason for record in records} == {"crash"}
    assert tally(records, 1) == (4, 0, 0)
    assert all("segmentation fault" in record.detail for record in records)
    started = [int(line) for line in log.read_text().splitlines() if line.isdigit()]
    # The event's check starts the engine once before the match, then each game its own.
    assert len(set(started)) == 5
    assert not any(alive(pid) for pid in started)
    assert processes_in(tmp_path) == []
