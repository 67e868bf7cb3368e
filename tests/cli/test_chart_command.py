"""``zerosum chart``: pictures of real match and tournament records, and one-line
errors for bad files and options."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from zerosum.arena import match_pairs, match_sprt, read_records
from zerosum.cli import main
from zerosum.ratings import SprtSettings

SVG = "{http://www.w3.org/2000/svg}"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse's own errors
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def of_class(path: Path, tag: str, css: str) -> list[ET.Element]:
    root = ET.parse(path).getroot()
    return [e for e in root.iter(f"{SVG}{tag}") if e.attrib.get("class") == css]


@pytest.fixture(scope="module")
def match_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny real match: 6 games, 3 pairs."""
    path = tmp_path_factory.mktemp("match") / "m.jsonl"
    argv = "match tictactoe engine:depth=1 random --games 6 --workers 1 --seed 5 --output"
    code = main([*argv.split(), str(path)])
    assert code == 0
    return path


@pytest.fixture(scope="module")
def tournament_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny real round robin of three agents."""
    path = tmp_path_factory.mktemp("tournament") / "t.jsonl"
    argv = "tournament tictactoe engine:depth=1 engine:depth=2 random --games 2 --workers 1"
    code = main([*argv.split(), "--seed", "5", "--output", str(path)])
    assert code == 0
    return path


def test_a_tournament_chart_has_a_row_per_agent(
    tournament_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    out = tmp_path / "t.svg"
    code, printed, err = run(capsys, "chart", str(tournament_file), "--out", str(out))
    assert (code, err) == (0, "")
    assert printed == f"chart saved to {out}\n"
    labels = [e.text or "" for e in of_class(out, "text", "label")]
    assert sorted(labels) == ["engine:depth=1", "engine:depth=2", "random"]
    assert len(of_class(out, "circle", "point")) == 3


def test_a_match_chart_shows_the_elo_difference(
    match_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m.svg"
    code, _, err = run(capsys, "chart", str(match_file), "--out", str(out))
    assert (code, err) == (0, "")
    assert [e.text for e in of_class(out, "text", "label")] == ["engine:depth=1 - random"]
    assert len(of_class(out, "line", "interval")) == 1


def test_the_llr_chart_follows_the_pairs_to_the_match_s_own_llr(
    match_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "llr.svg"
    code, _, err = run(
        capsys,
        "chart",
        str(match_file),
        "--out",
        str(out),
        "--kind",
        "llr",
        "--sprt",
        "elo0=0",
        "elo1=50",
    )
    assert (code, err) == (0, "")
    _, records = read_records(match_file)
    pairs = match_pairs(records).pairs
    (line,) = of_class(out, "polyline", "llr")
    assert len(line.attrib["points"].split()) == pairs + 1
    bounds = of_class(out, "line", "bound")
    assert len(bounds) == 2
    # the last point is the match's LLR, drawn on the same scale as the bounds
    result = match_sprt(records, SprtSettings(0, 50))
    last_y = float(line.attrib["points"].split()[-1].split(",")[1])
    upper_y, lower_y = (float(b.attrib["y1"]) for b in bounds)
    fraction = (last_y - upper_y) / (lower_y - upper_y)
    assert fraction == pytest.approx(
        (result.upper - result.llr) / (result.upper - result.lower), abs=0.01
    )


def test_the_llr_chart_reads_the_settings_from_the_header(
    match_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = match_file.read_text().splitlines(keepends=True)
    lines[0] = lines[0].replace('"kind": "match"', '"kind": "match", "sprt": "elo0=-10 elo1=10"')
    records = tmp_path / "sprt.jsonl"
    records.write_text("".join(lines))
    out = tmp_path / "llr.svg"
    code, _, err = run(capsys, "chart", str(records), "--out", str(out), "--kind", "llr")
    assert (code, err) == (0, "")
    title = ET.parse(out).getroot().find(f"{SVG}title")
    assert title is not None and title.text is not None and "elo0=-10 elo1=10" in title.text


def test_a_match_run_with_an_sprt_leaves_its_settings_for_the_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "sprt.jsonl"
    argv = "match tictactoe engine:depth=1 random --games 4 --workers 1 --seed 5 --output"
    code, _, err = run(capsys, *argv.split(), str(records), "--sprt", "elo0=0", "elo1=20")
    assert code == 0, err
    assert '"sprt": "elo0=0 elo1=20' in records.read_text().splitlines()[0]
    out = tmp_path / "llr.svg"
    code, _, err = run(capsys, "chart", str(records), "--out", str(out), "--kind", "llr")
    assert (code, err) == (0, "")
    (line,) = of_class(out, "polyline", "llr")
    _, played = read_records(records)
    assert len(line.attrib["points"].split()) == match_pairs(played).pairs + 1
    title = ET.parse(out).getroot().find(f"{SVG}title")
    assert title is not None and title.text is not None and "elo0=0 elo1=20" in title.text


def test_the_elo_chart_has_a_point_per_game(
    match_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "elo.svg"
    code, _, err = run(capsys, "chart", str(match_file), "--out", str(out), "--kind", "elo")
    assert (code, err) == (0, "")
    (line,) = of_class(out, "polyline", "elo")
    assert len(line.attrib["points"].split()) == 6


@pytest.fixture
def files(match_file: Path, tournament_file: Path, tmp_path: Path) -> dict[str, Path]:
    """Record files good and bad, by name, and ``out``: where a chart would go."""
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("hello\n")
    empty = tmp_path / "empty.jsonl"
    empty.write_text(match_file.read_text().splitlines(keepends=True)[0])
    return {
        "match": match_file,
        "tournament": tournament_file,
        "missing": tmp_path / "missing.jsonl",
        "garbage": garbage,
        "empty": empty,
        "out": tmp_path / "x.svg",
    }


@pytest.mark.parametrize(
    ("which", "options", "message"),
    [
        ("match", ["--kind", "llr"], "--kind llr needs the SPRT's settings"),
        ("match", ["--kind", "llr", "--sprt", "elo0=5", "elo1=1"], "--sprt: the SPRT needs"),
        ("match", ["--sprt", "elo0=0", "elo1=5"], "--sprt is for --kind llr only"),
        ("match", ["--prior", "-1"], "--prior must be 0 or more"),
        ("tournament", ["--kind", "elo"], "--kind elo draws a match"),
        ("missing", [], "No such file or directory"),
        ("garbage", [], "not a zerosum record header"),
        ("empty", [], "no games played"),
        ("match", ["--kind", "pie"], "invalid choice"),
    ],
)
def test_bad_inputs_are_one_line_errors(
    which: str,
    options: list[str],
    message: str,
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = files["out"]
    capsys.readouterr()
    code, printed, err = run(capsys, "chart", str(files[which]), "--out", str(out), *options)
    assert code == 2
    assert printed == ""
    assert err.count("\n") == 1 and message in err, err
    assert not out.exists()
