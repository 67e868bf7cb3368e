"""``zerosum pgn``: a real chess match's records as PGN on standard output or in a
file, read back by python-chess; one-line errors for bad files and other games."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pytest

from zerosum.arena import read_records
from zerosum.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse's own errors
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def played(tmp_path: Path, game: str, *agents: str) -> Path:
    path = tmp_path / f"{game}.jsonl"
    argv = ["match", game, *agents, "--games", "2", "--workers", "1", "--seed", "3"]
    assert main([*argv, "--output", str(path)]) == 0
    return path


def test_every_game_goes_to_standard_output_or_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = played(tmp_path, "chess", "random:name=a", "random:name=b")
    capsys.readouterr()
    code, out, err = run(capsys, "pgn", str(path))
    assert (code, err) == (0, "")
    stream = io.StringIO(out)
    games = [chess.pgn.read_game(stream), chess.pgn.read_game(stream)]
    assert chess.pgn.read_game(stream) is None
    _, records = read_records(path)
    for parsed, rec in zip(games, sorted(records, key=lambda r: r.index), strict=True):
        assert parsed is not None and not parsed.errors
        assert parsed.headers["Result"] == rec.result
        assert len(list(parsed.mainline_moves())) == len(rec.moves)
    target = tmp_path / "games.pgn"
    code, out, err = run(capsys, "pgn", str(path), "--out", str(target))
    assert (code, out, err) == (0, f"2 games saved to {target}\n", "")
    assert target.read_text(encoding="utf-8") == run(capsys, "pgn", str(path))[1]


def test_bad_files_and_other_games_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tictactoe = played(tmp_path, "tictactoe", "random:name=a", "random:name=b")
    capsys.readouterr()
    code, out, err = run(capsys, "pgn", str(tictactoe))
    assert (code, out) == (2, "")
    assert err == (
        f"zerosum: error: {tictactoe}: PGN holds chess games in SAN, and this event's game "
        f"is tictactoe\n"
    )
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n", encoding="utf-8")
    missing = tmp_path / "missing.jsonl"
    for path in (junk, missing):
        code, out, err = run(capsys, "pgn", str(path))
        assert (code, out) == (2, "")
        assert err.startswith("zerosum: error: ") and err.count("\n") == 1
