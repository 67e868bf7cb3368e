"""``zerosum match`` and ``zerosum tournament``: the printed tables agree with the saved
records, runs resume, and bad specs, openings and files are one-line errors."""

from __future__ import annotations

import importlib
import os
import pty
import re
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from zerosum.arena import (
    balance_score,
    epd_to_fen,
    match_pairs,
    match_sprt,
    read_header,
    read_records,
    tally,
)
from zerosum.cli import main
from zerosum.cli.match import DEFAULT_BALANCE_DEPTH
from zerosum.games import registry
from zerosum.ratings import SprtSettings, elo_estimate

pytestmark = pytest.mark.usefixtures("compiled_kernels")  # zerosum runs as a subprocess


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse's own errors
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


TESTS = Path(__file__).resolve().parents[1]


@pytest.fixture
def helpers(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The arena's test helpers (agents that end their process), importable by agent
    specs here and in worker processes; the test must leave no child process behind."""
    monkeypatch.syspath_prepend(str(TESTS))
    module = importlib.import_module("arena_helpers")
    before = module.child_processes()
    yield module
    assert module.child_processes() <= before


def row(out: str, label: str) -> list[str]:
    """The cells of the table row that starts with ``label``."""
    line = next(line for line in out.splitlines() if line.startswith(label + " "))
    return line.split()


def test_match_prints_what_it_saved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.jsonl"
    code, out, err = run(
        capsys,
        "match",
        "tictactoe",
        "engine:depth=3",
        "random",
        "--games",
        "8",
        "--seed",
        "1",
        "--workers",
        "1",
        "--output",
        str(path),
    )
    assert (code, err) == (0, "")
    header, records = read_records(path)
    assert header["seed"] == 1 and len(records) == 8
    wins, draws, losses = tally(records, 0)
    assert losses == 0
    assert row(out, "engine:depth=3")[1:5] == ["8", str(wins), str(draws), "0"]
    assert row(out, "random")[1:5] == ["8", "0", str(draws), str(wins)]
    estimate = elo_estimate(wins, draws, losses)
    assert f"Elo difference (engine:depth=3 - random): {estimate.describe()}" in out
    assert f"likelihood of superiority: {estimate.los:.1%}" in out
    assert f"games saved to {path}" in out
    assert "adjudicated" not in out


def test_match_resumes_and_extends(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "m.jsonl")
    base = ("match", "tictactoe", "engine:depth=2", "random", "--workers", "1", "--output", path)
    assert run(capsys, *base, "--games", "4", "--seed", "7", "--random-openings", "2")[0] == 0
    code, out, _ = run(capsys, *base, "--games", "6", "--random-openings", "2", "--resume")
    assert code == 0 and ", 6 games, seed 7," in out  # the seed is read back from the file
    header, records = read_records(path)
    assert sorted(r.index for r in records) == list(range(6))
    assert header["openings"] and all(len(o) == 2 for o in header["openings"])
    code, _, err = run(capsys, *base, "--games", "6", "--seed", "8", "--resume")
    assert code == 2 and "records another event" in err and err.count("\n") == 1
    code, _, err = run(capsys, *base, "--games", "2")
    assert code == 2 and "exists" in err


def test_match_writes_a_new_file_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(
        capsys, "match", "tictactoe", "random", "engine:depth=1", "--games", "2", "--workers", "1"
    )
    assert code == 0
    (saved,) = tmp_path.glob("match-tictactoe-*.jsonl")
    assert f"games saved to {saved.name}" in out
    assert len(read_records(saved)[1]) == 2


def test_adjudicated_games_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "match",
        "tictactoe",
        "engine:depth=2",
        "tests_cli_agents_missing.Agent",
        "--games",
        "2",
        "--workers",
        "1",
        "--output",
        str(tmp_path / "x.jsonl"),
    )
    assert code == 2  # a custom agent that cannot be imported is refused before the run
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    try:
        code, out, _ = run(
            capsys,
            "match",
            "tictactoe",
            "random",
            "test_arena.Cheater",
            "--games",
            "4",
            "--workers",
            "1",
            "--seed",
            "3",
            "--output",
            str(tmp_path / "a.jsonl"),
        )
    finally:
        sys.path.pop(0)
    assert code == 0
    assert "adjudicated: 4 of 4 games (illegal 4)" in out
    assert row(out, "random")[1:5] == ["4", "4", "0", "0"]


def test_tournament_crosstable_and_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.jsonl"
    code, out, err = run(
        capsys,
        "tournament",
        "tictactoe",
        "random",
        "engine:depth=1",
        "engine:depth=9",
        "--games",
        "4",
        "--seed",
        "2",
        "--workers",
        "2",
        "--output",
        str(path),
    )
    assert (code, err) == (0, "")
    assert "round robin of 3 agents, 4 games per pairing, 12 games, seed 2" in out
    _, records = read_records(path)
    assert len(records) == 12
    agents = ("random", "engine:depth=1", "engine:depth=9")
    lines = out.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("#  agent"))
    rows = [line.split() for line in lines[top + 2 : top + 5]]
    # rank, agent, Elo, interval low, "to", interval high, score, then the crosstable
    assert [r[0] for r in rows] == ["1", "2", "3"] and rows[-1][1] == "random"
    for cells in rows:
        wins, draws, _ = tally(records, agents.index(cells[1]))
        assert cells[6] == f"{wins + draws / 2:g}/8"
        assert float(cells[3]) < float(cells[2]) < float(cells[5])
    ratings = [float(r[2]) for r in rows]
    assert ratings == sorted(ratings, reverse=True) and abs(sum(ratings)) < 0.5
    assert "ratings: Bradley-Terry maximum likelihood, mean 0, 1 virtual draw(s) per pairing" in out


def test_tournament_without_prior_reports_unbounded_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys,
        "tournament",
        "tictactoe",
        "random",
        "engine:depth=9",
        "--games",
        "2",
        "--seed",
        "2",
        "--workers",
        "1",
        "--prior",
        "0",
        "--output",
        str(tmp_path / "t.jsonl"),
    )
    assert code == 0
    assert "ratings: none (some players won (or lost) every game" in out


def test_openings_file_errors_name_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openings = tmp_path / "open.txt"
    openings.write_text("b2\nb2 q7\n", encoding="utf-8")
    code, out, err = run(
        capsys,
        "match",
        "tictactoe",
        "random",
        "engine:depth=1",
        "--openings",
        str(openings),
        "--output",
        str(tmp_path / "o.jsonl"),
    )
    assert (code, out) == (2, "")
    assert re.fullmatch(r"zerosum: error: .*open\.txt, line 2: .*'q7'.*\n", err)
    assert not (tmp_path / "o.jsonl").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["match", "tictactoe", "engine:depth=x", "random"], "depth must be a whole number"),
        (["match", "tictactoe", "human", "random"], "a person cannot play a match"),
        (["match", "tictactoe", "random", "random"], "same name"),
        (["match", "nosuchgame", "random", "engine"], "unknown game"),
        (["match", "tictactoe", "random", "engine", "--resume"], "--resume needs --output"),
        (["match", "tictactoe", "random", "engine", "--games", "0"], "must be at least 1"),
        (["tournament", "tictactoe", "random"], "at least 2 agents"),
        (
            ["match", "tictactoe", "random", "engine", "--sprt", "elo0=0"],
            "--sprt: the SPRT needs elo1",
        ),
        (
            ["match", "tictactoe", "random", "engine", "--sprt", "elo0=0", "elo1=5", "beta=1"],
            "--sprt: beta is an error rate",
        ),
        (["match", "tictactoe", "random", "engine", "--sprt", "elo0=x", "elo1=5"], "not a number"),
        (["match", "tictactoe", "random", "engine", "--sprt"], "expected at least one argument"),
        (
            ["match", "tictactoe", "random", "engine", "--openings", "f", "--random-openings", "2"],
            "not allowed with argument",
        ),
    ],
)
def test_bad_arguments_are_one_line_errors(
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []  # nothing was recorded


SPRT_MATCH = ("match", "tictactoe", "engine:depth=2", "random", "--seed", "3", "--workers", "1")


def test_an_sprt_stops_the_match_when_it_decides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.jsonl"
    sprt = ("--sprt", "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05")
    code, out, err = run(capsys, *SPRT_MATCH, "--games", "200", "--output", str(path), *sprt)
    assert (code, err) == (0, "")
    _, records = read_records(path)
    settings = SprtSettings(0, 5)
    result = match_sprt(records, settings)
    # it stopped at the first pair after which the test decided, far short of 200 games
    assert result.decision == "H1 accepted" and len(records) < 200 and len(records) % 2 == 0
    assert match_sprt(records[:-2], settings).decision is None
    pairs = match_pairs(records)
    assert pairs.pairs == len(records) // 2
    assert f", {len(records)} games, seed 3," in out
    assert f"pairs by engine:depth=2's points: {pairs.describe()}\n" in out
    _, draws, _ = tally(records, 0)
    assert f"draw ratio: {draws / len(records):.1%}\n" in out
    assert (
        "SPRT elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic: "
        f"LLR {result.llr:.2f} (-2.94, 2.94) after {pairs.pairs} pairs: H1 accepted\n"
    ) in out
    # resuming recomputes the test from the records: decided already, nothing is played
    code, again, _ = run(
        capsys, *SPRT_MATCH, "--games", "200", "--output", str(path), *sprt, "--resume"
    )
    assert code == 0 and again == out
    assert read_records(path)[1] == records


def test_an_undecided_sprt_goes_on_when_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "m.jsonl")
    sprt = ("--sprt", "elo0=0", "elo1=5", "model=normalized")
    code, out, _ = run(capsys, *SPRT_MATCH, "--games", "6", "--output", path, *sprt)
    assert code == 0 and "after 3 pairs: no decision within 6 games\n" in out
    code, out, _ = run(capsys, *SPRT_MATCH, "--games", "400", "--output", path, *sprt, "--resume")
    _, records = read_records(path)
    assert 6 < len(records) < 400
    assert match_sprt(records, SprtSettings(0, 5, model="normalized")).decision == "H1 accepted"
    assert code == 0 and "model=normalized: LLR" in out and ": H1 accepted\n" in out


def test_the_installed_command_runs_a_match(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "zerosum.cli",
            "match",
            "tictactoe",
            "engine:depth=2",
            "random",
            "--games",
            "4",
            "--seed",
            "5",
            "--output",
            str(tmp_path / "m.jsonl"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert "Elo difference (engine:depth=2 - random): +" in done.stdout


@pytest.mark.parametrize(
    ("extra", "live"),
    [
        ((), r"engine:depth=2 \d+(\.5)? - \d+(\.5)? random  [\d.]+ games/min"),
        (
            ("--sprt", "elo0=0", "elo1=5"),
            r"engine:depth=2 \d+(\.5)? - \d+(\.5)? random  Elo [+-][\d.inf]+ ± [\d.inf]+  "
            r"LLR -?\d+\.\d\d \(-2\.94, 2\.94\)  [\d.]+ games/min",
        ),
    ],
)
def test_a_terminal_shows_the_running_score(
    tmp_path: Path, extra: tuple[str, ...], live: str
) -> None:
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "zerosum.cli",
            "match",
            "tictactoe",
            "engine:depth=2",
            "random",
            "--games",
            "6",
            "--seed",
            "5",
            "--workers",
            "1",
            "--output",
            str(tmp_path / "m.jsonl"),
            *extra,
        ],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        close_fds=True,
        env={**os.environ, "COLUMNS": "120", "TERM": "xterm"},
    )
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        assert ready, seen
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    assert process.wait(timeout=60) == 0
    os.close(master)
    text = seen.decode("utf-8", "replace")
    assert re.search(live, text)  # the progress bar
    assert "Elo difference (engine:depth=2 - random)" in text


def test_match_survives_a_killed_worker(
    tmp_path: Path, helpers: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.jsonl"
    killer = f"arena_helpers.Killer:marker={tmp_path / 'killed'},name=killer"
    code, out, err = run(
        capsys, "match", "tictactoe", killer, "random", "--games", "4", "--seed", "1",
        "--workers", "2", "--output", str(path),
    )  # fmt: skip
    assert code == 0 and (tmp_path / "killed").exists()
    assert re.fullmatch(r"zerosum: warning: a worker process died during game\(s\) .*\n", err)
    _, records = read_records(path)
    assert sorted(r.index for r in records) == [0, 1, 2, 3]
    assert {r.reason for r in records} == {"end"}
    assert row(out, "killer")[1] == "4" and "adjudicated" not in out


def test_a_match_of_void_games_reports_them(
    tmp_path: Path, helpers: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.jsonl"
    killer = f"arena_helpers.Killer:marker={tmp_path / 'unused'},always=1,name=killer"
    code, out, err = run(
        capsys, "match", "tictactoe", killer, "random", "--games", "2", "--seed", "1",
        "--workers", "2", "--output", str(path),
    )  # fmt: skip
    assert code == 0
    notices = err.splitlines()
    assert all(line.startswith("zerosum: warning: ") for line in notices)
    assert sum(line.endswith("died again as it played alone") for line in notices) == 2
    _, records = read_records(path)
    assert [r.result for r in records] == ["*", "*"]
    assert row(out, "killer")[1:5] == ["0", "0", "0", "0"]
    assert "Tic-tac-toe: killer vs random, 2 games, seed 1" in out
    assert "Elo difference (killer - random): none (" in out
    assert "adjudicated: 2 of 2 games (error 2); error games are void" in out


def test_an_agent_calling_sys_exit_in_a_worker_loses(
    tmp_path: Path, helpers: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.jsonl"
    code, out, err = run(
        capsys, "match", "tictactoe", "random", "arena_helpers.Quitter:code=3", "--games",
        "4", "--seed", "1", "--workers", "2", "--output", str(path),
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert "adjudicated: 4 of 4 games (crash 4)" in out
    assert row(out, "random")[1:5] == ["4", "4", "0", "0"]
    _, records = read_records(path)
    assert len(records) == 4 and all("SystemExit: 3" in r.detail for r in records)


def test_resume_skips_damaged_lines_with_one_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.jsonl"
    base = ("match", "tictactoe", "engine:depth=2", "random", "--workers", "1")
    assert run(capsys, *base, "--games", "4", "--seed", "7", "--output", str(path))[0] == 0
    header, *games = path.read_bytes().splitlines(keepends=True)
    # a line of bytes that are not UTF-8 in place of game 1, game 3 cut short by a crash
    path.write_bytes(b"".join([header, games[0], b"\x80\xff\n", games[2], games[3][:30]]))
    code, out, err = run(capsys, *base, "--games", "6", "--resume", "--output", str(path))
    assert code == 0 and ", 6 games, seed 7," in out
    assert re.fullmatch(
        r"zerosum: warning: .*m\.jsonl: skipped 2 damaged line\(s\): line 3 \(not UTF-8\), "
        r"line 5 \(cut short\)\n",
        err,
    )
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + 6
    assert sorted(r.index for r in read_records(path)[1]) == list(range(6))
    code, out, err = run(capsys, *base, "--games", "6", "--resume", "--output", str(path))
    assert (code, err) == (0, "") and path.read_text(encoding="utf-8").splitlines() == lines


def test_a_game_with_only_the_six_methods_plays_a_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # no parse_move, format_move or format_state: openings and records use str, in this
    # process and in the worker processes (which import the game by its spec again)
    monkeypatch.syspath_prepend(str(TESTS))
    path = tmp_path / "bare.jsonl"
    code, out, err = run(
        capsys,
        "match",
        "bare_games:BareNim:heaps=3,4",
        "engine:time=0.2",
        "random",
        "--games",
        "4",
        "--random-openings",
        "1",
        "--seed",
        "3",
        "--workers",
        "2",
        "--output",
        str(path),
    )
    assert code == 0, err
    assert row(out, "engine:time=0.2")[1:3] == ["4", "4"]  # it solves Nim: 4 wins
    _, records = read_records(path)
    assert len(records) == 4 and all(r.reason == "end" for r in records)
    # moves are written as str writes them, the opening's too
    assert all(re.fullmatch(r"\(\d, \d\)", move) for r in records for move in r.moves)


def test_a_match_against_zerosum_gomocup_brain_as_an_external_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], helpers: ModuleType
) -> None:
    # the brain runs as a child of each worker process, one per game, and is reaped
    path = tmp_path / "gomocup.jsonl"
    brain = f"gomocup:cmd={sys.executable} -m zerosum.cli gomocup --quiet,time=0.2,name=brain"
    code, out, err = run(
        capsys,
        "match",
        "gomoku:width=9",
        brain,
        "random",
        "--games",
        "2",
        "--seed",
        "1",
        "--workers",
        "2",
        "--time-margin",
        "5",
        "--output",
        str(path),
    )
    assert (code, err) == (0, "")
    _, records = read_records(path)
    assert sorted(r.seats for r in records) == [(0, 1), (1, 0)]
    assert all(r.reason == "end" for r in records)
    assert row(out, "brain")[1:5] == ["2", "2", "0", "0"]


def test_a_gomocup_spec_naming_no_program_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys, "match", "gomoku:width=9", "gomocup:no-such-pbrain-zerosum", "random"
    )
    assert code == 2 and out == ""
    assert err == (
        "zerosum: error: bad agent spec 'gomocup:no-such-pbrain-zerosum': cannot start engine "
        "'no-such-pbrain-zerosum': no executable program 'no-such-pbrain-zerosum' on the PATH\n"
    )


def test_a_match_on_a_clock_records_it_and_a_bad_clock_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.jsonl"
    base = ("match", "tictactoe", "engine", "random", "--workers", "1", "--seed", "2")
    code, _, err = run(capsys, *base, "--games", "2", "--tc", "10+0.1", "--output", str(path))
    assert (code, err) == (0, "")
    header, records = read_records(path)
    assert header["time_control"] == "10+0.1" and "adjudication" not in header
    assert all(r.clocks is not None and r.reason == "end" for r in records)
    code, _, err = run(capsys, *base, "--tc", "10+x", "--output", str(tmp_path / "bad.jsonl"))
    assert code == 2 and err.count("\n") == 1
    assert "--tc: time control '10+x': expected [MOVES/]BASE[+INCREMENT]" in err


def test_agreeing_engines_adjudicate_a_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.jsonl"
    code, out, err = run(
        capsys,
        "tournament",
        "tictactoe",
        "engine:depth=9",
        "engine:depth=9,name=twin",
        "--games",
        "2",
        "--workers",
        "1",
        "--draw-score",
        "0",
        "--draw-moves",
        "1",
        "--draw-after",
        "3",
        "--output",
        str(path),
    )
    assert (code, err) == (0, "")
    header, records = read_records(path)
    assert header["adjudication"] == {
        "resign_score": None,
        "resign_moves": 3,
        "draw_score": 0,
        "draw_moves": 1,
        "draw_after": 3,
    }
    assert [(r.reason, r.winner, len(r.moves)) for r in records] == [("adjudicated", None, 3)] * 2
    assert "adjudicated: 2 of 2 games (adjudicated 2)" in out


def test_a_move_limit_draws_long_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.jsonl"
    code, out, err = run(
        capsys,
        *("match", "connect4", "random", "random:seed=5", "--games", "2", "--workers", "1"),
        *("--max-moves", "6", "--output", str(path)),
    )
    assert (code, err) == (0, "")
    header, records = read_records(path)
    assert header["adjudication"]["max_moves"] == 6
    assert [(r.reason, r.winner, len(r.moves)) for r in records] == [("adjudicated", None, 6)] * 2
    assert "adjudicated: 2 of 2 games (adjudicated 2)" in out


# the results from each opening, from the saved records: {opening as written: w, d, l}
def opening_rows(out: str) -> dict[str, list[str]]:
    """The per-opening table's rows by opening: games, points, score, wins, draws,
    losses (the opening is the text between the row number and the six numbers)."""
    lines = out.split("per opening (", 1)[1].splitlines()[3:]
    rows = {}
    for line in lines:
        cells = line.split()
        if not cells or not cells[0].isdigit():
            break
        rows[" ".join(cells[1:-6])] = cells[-6:]
    return rows


def expected_rows(records: list[Any], openings: list[Any]) -> dict[str, list[str]]:
    """The same rows counted from the records."""
    rows = {}
    for which, opening in enumerate(openings):
        games = [r for r in records if r.opening == which]
        wins, draws, losses = tally(games, 0)
        points = wins + draws / 2
        text = opening["position"] if isinstance(opening, dict) else " ".join(opening)
        share = f"{points / len(games):.1%}"
        rows[text or "(start)"] = [
            str(len(games)),
            f"{points:g}",
            share,
            *map(str, (wins, draws, losses)),
        ]
    return rows


CHESS = registry.make("chess")

# chess positions whose halfmove clocks end random games within a few plies
EPD = (
    '4k3/8/8/8/8/8/8/R3K3 w - - bm Ra8+; hmvc 98; fmvn 60; id "rook";\n'
    '7k/8/8/3q4/8/8/8/K7 b - - id "queen"; hmvc 99;\n'
    "4k3/8/8/8/8/8/8/3QK3 w - - hmvc 99;\n"
)


def test_match_samples_an_epd_suite_and_shows_each_opening(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "suite.epd"
    suite.write_text(EPD, encoding="utf-8")
    path = tmp_path / "m.jsonl"
    base: tuple[str, ...] = ("match", "chess", "random", "random:name=b", "--openings", str(suite))
    base += ("--sample", "2", "--workers", "1", "--output", str(path))
    code, out, err = run(capsys, *base, "--games", "4", "--seed", "5")
    assert (code, err) == (0, "")
    header, records = read_records(path)
    fens = [o["position"] for o in header["openings"]]
    assert len(set(fens)) == 2 and ", 2 opening(s)" in out
    assert set(fens) <= {
        CHESS.format_state(CHESS.parse_state(epd_to_fen(line))) for line in EPD.splitlines()
    }
    assert [r.start for r in records] == [fens[0], fens[0], fens[1], fens[1]]
    assert opening_rows(out) == expected_rows(records, header["openings"])
    # resumed and extended: the same sample (the seed is read back), the table from all
    code, out, err = run(capsys, *base, "--games", "6", "--resume")
    assert (code, err) == (0, "")
    header, records = read_records(path)
    assert [o["position"] for o in header["openings"]] == fens and len(records) == 6
    assert opening_rows(out) == expected_rows(records, header["openings"])
    # another seed draws another order from the same suite
    code, out, _ = run(capsys, *base[:-1], str(tmp_path / "n.jsonl"), "--games", "4", "--seed", "6")
    assert code == 0
    assert [o["position"] for o in read_header(tmp_path / "n.jsonl")["openings"]] != fens


def test_the_per_opening_table_shows_for_one_opening_only_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base: tuple[str, ...] = ("match", "tictactoe", "random", "engine:depth=1", "--games", "4")
    base += ("--seed", "2", "--workers", "1")
    code, out, _ = run(capsys, *base, "--output", str(tmp_path / "a.jsonl"))
    assert code == 0 and "per opening" not in out
    path = tmp_path / "b.jsonl"
    code, out, _ = run(capsys, *base, "--output", str(path), "--per-opening")
    header, records = read_records(path)
    assert code == 0 and opening_rows(out) == expected_rows(records, header["openings"])
    assert list(opening_rows(out)) == ["(start)"]


def test_match_with_balanced_openings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.jsonl"
    code, out, err = run(
        capsys,
        "match",
        "connect4",
        "random",
        "engine:depth=1",
        "--balanced-openings",
        "3",
        "--balance-window",
        "25",
        "--games",
        "4",
        "--seed",
        "9",
        "--workers",
        "1",
        "--output",
        str(path),
    )
    assert (code, err) == (0, "")
    header, records = read_records(path)
    game = registry.make("connect4")
    assert len(header["openings"]) == 2 and all(len(o) == 3 for o in header["openings"])
    for moves in header["openings"]:
        assert abs(balance_score(game, moves, DEFAULT_BALANCE_DEPTH)) <= 25
    assert opening_rows(out) == expected_rows(records, header["openings"])


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--sample", "2"], "--sample and --openings-format need --openings FILE"),
        (["--openings", "{suite}", "--sample", "4"], "cannot sample 4 opening"),
        (["--openings", "{suite}", "--openings-format", "fen"], "opening format 'fen'"),
        (["--openings", "{suite}", "--openings-format", "moves"], "suite.epd, line 1: opening"),
        (
            ["--balanced-openings", "2", "--balance-window", "-1"],
            "--balance-window: '-1' is negative",
        ),
    ],
)
def test_bad_opening_options_are_one_line_errors(
    extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "suite.epd"
    suite.write_text(EPD, encoding="utf-8")
    argv = ["match", "chess", "random", "random:name=b", "--output", str(tmp_path / "o.jsonl")]
    code, out, err = run(capsys, *argv, *(word.format(suite=suite) for word in extra))
    assert (code, out) == (2, "")
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "o.jsonl").exists()
