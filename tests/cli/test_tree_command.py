"""``zerosum tree`` and ``zerosum games``: text in, text out, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.cli import main


def run(*argv: str) -> tuple[int, str, str]:
    """Run the installed entry point in a fresh process, as a person would."""
    done = subprocess.run(
        [sys.executable, "-m", "zerosum.cli", *argv], capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout, done.stderr


def test_night_market_value_counts_and_trace() -> None:
    code, out, err = run("tree", "--example", "night-market", "--trace")
    assert (code, err) == (0, "")
    assert "value 100 for max" in out
    assert "best line: A > 甲 > 100" in out
    words = [line.split() for line in out.splitlines()]
    rows = {w[0]: w[1:] for w in words if len(w) == 5 and w[1].isdigit()}
    assert rows["alphabeta"] == ["11", "5", "2", "4"]  # nodes, leaves, cut-offs, pruned
    assert rows["minimax"] == ["15", "8", "0", "0"]
    assert "✂ 15000  pruned: 10000 ≥ β=100  (1 node)" in out
    assert "✂ 丁  pruned: 70 ≤ α=100  (3 nodes)" in out


@pytest.mark.parametrize("algorithm", ["minimax", "negamax", "alphabeta", "negamax-ab"])
def test_every_algorithm_gives_the_same_value(
    algorithm: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tree", "--example", "aima-5.2", "--algorithm", algorithm]) == 0
    assert "value 3 for max" in capsys.readouterr().out


def test_a_tree_file_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"label": "r", "children": [[3, 5], [{"label": "x", "value": 4}]]}))
    assert main(["tree", str(path)]) == 0
    assert "value 4 for max" in capsys.readouterr().out


def test_games_lists_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "tictactoe" in out and "tree" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tree"], "give a tree FILE or --example NAME"),
        (["tree", "--example", "nowhere"], "no example tree 'nowhere'"),
        (["tree", "/no/such/tree.json"], "/no/such/tree.json"),
        (["tree", "--example", "aima-5.2", "--depth", "1"], "has no estimate"),
        (["tree", "--example", "aima-5.2", "--depth", "-1"], "'-1' is negative"),
        (["tree", "--example", "aima-5.2", "--algorithm", "magic"], "invalid choice: 'magic'"),
        (["nonsense"], "invalid choice: 'nonsense'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv: list[str], message: str) -> None:
    code, out, err = run(*argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err
    assert "Traceback" not in err


def test_malformed_tree_file_names_the_file_and_node(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('[[1, "two"], []]')
    code, _, err = run("tree", str(path))
    assert code == 2 and str(path) in err and "root > 1 > 2" in err, err
