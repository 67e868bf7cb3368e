"""``zerosum bench`` writes scores and depths in the one explained form every interface
shows, never the engine's raw numbers."""

from __future__ import annotations

import re

import pytest

from zerosum.cli import main


def test_bench_explains_its_scores_and_depths(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.split(r"\s{2,}", lines[0]) == [
        "game", "position", "depth", "move", "score", "nodes", "ms"
    ]  # fmt: skip
    rows = {tuple(cells[:2]): cells[2:5] for cells in (re.split(r"\s{2,}", x) for x in lines)}
    assert rows["tictactoe", "start"] == ["to the end", "b2", "draw"]  # proved to the end
    assert rows["tictactoe", "x../.o./..."] == ["4 plies", "c3", "eval -2 points"]
    assert rows["mnk 4x4 k=3", "start"] == ["6 plies", "b3", "win in 5 plies"]
    assert rows["tree night-market", "start"] == ["to the end", "A", "+100 points"]
