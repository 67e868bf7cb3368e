"""``zerosum play xiangqi``: moves typed and shown in Chinese notation (WXF and ICCS read
too), the board drawn with Chinese characters whose columns line up on a terminal, and
one-line errors. The engine's moves, written in Chinese, are checked against pyffish
(Fairy-Stockfish as a module, the oracle) through their WXF spelling."""

from __future__ import annotations

import re
import unicodedata

import pyffish
import pytest
from play_session import ANSI, Terminal, play

START = pyffish.start_fen("xiangqi")
_PIECES = str.maketrans("车車俥马馬傌相象仕士帅帥将將炮砲兵卒", "RRRHHHEEAAKKKKCCPP")
_NUMBERS = str.maketrans("一二三四五六七八九１２３４５６７８９进進退平", "123456789123456789+--=")


def wxf(chinese: str) -> str:
    """A move in Chinese notation spelt in WXF as Fairy-Stockfish writes it (front and
    rear pieces, 前 and 后, become ``+`` and ``-`` after the piece's letter)."""
    if chinese[0] in "前后":
        chinese = chinese[1] + "+-"["前后".index(chinese[0])] + chinese[2:]
    return chinese.translate(_PIECES).translate(_NUMBERS)


def wxf_moves(moves: list[str]) -> dict[str, str]:
    """pyffish's legal moves after ``moves``, by their WXF spelling."""
    fen = pyffish.get_fen("xiangqi", START, moves)
    return {
        pyffish.get_san("xiangqi", fen, move, False, pyffish.NOTATION_XIANGQI_WXF): move
        for move in pyffish.legal_moves("xiangqi", fen, [])
    }


def width(text: str) -> int:
    """How many terminal columns ``text`` takes: wide and full-width characters two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def columns(line: str) -> list[int]:
    """The terminal column where each mark of a board line starts, after its rank label."""
    found, at = [], 0
    for index, char in enumerate(line):
        if not char.isspace() and index >= 3:
            found.append(at)
        at += width(char)
    return found


def boards(out: str) -> list[list[str]]:
    """The board pictures in ``out``: from black's file numbers to red's."""
    pictures, current = [], None
    for shown in out.splitlines():
        line = ANSI.sub("", shown).split("> ")[-1]
        if line.startswith("   １"):
            current = []
        if current is not None:
            current.append(line)
            if line.startswith("   九"):
                pictures.append(current)
                current = None
    return pictures


def test_a_game_in_chinese_notation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = play(
        monkeypatch,
        capsys,
        "xiangqi",
        "--second",
        "engine:depth=1",
        "--time",
        "0.05",
        lines="炮二平五\nhint\n车一进五\nhello\nH8+7\nundo\nmoves\nquit\n",
    )
    assert (code, err) == (0, "")
    assert "Xiangqi (Chinese chess): red (you), black (engine:depth=1)." in out
    assert "2  ＋ 炮 ＋ ＋ 炮 ＋ ＋ ＋ ＋" in out  # the cannon moved to the fifth file
    replies = re.findall(r"black \(engine:depth=1\) plays (\S+)", out)
    assert len(replies) == 2
    # the engine's first reply, written in Chinese, is a legal move by pyffish
    assert wxf(replies[0]) in wxf_moves(["h3e3"])
    hint = re.search(r"hint: (\S+) \(eval [+-]\d+ centipawns, searched \d+ pl", out)
    assert hint is not None
    assert wxf(hint[1]) in wxf_moves(["h3e3", wxf_moves(["h3e3"])[wxf(replies[0])]])
    errors = [line for line in out.splitlines() if "try again" in line]
    assert len(errors) == 2
    assert "'车一进五'" in errors[0] and "legal" in errors[0]  # the soldier blocks it
    assert "'hello' is not a move in ICCS, WXF or Chinese notation" in errors[1]
    assert "taken back" in out
    # after undo (the board, then the prompt), red's legal moves, each in Chinese
    after = out.split("taken back\n")[1].splitlines()
    listed = next(line for line in after if line.startswith("red to move> ")).split()[3:]
    assert sorted(wxf(move) for move in listed) == sorted(
        wxf_moves(["h3e3", wxf_moves(["h3e3"])[wxf(replies[0])]])
    )


def test_the_board_lines_up_in_terminal_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = play(
        monkeypatch,
        capsys,
        "xiangqi",
        "--second",
        "engine:depth=1",
        lines="h2e2\nC5+4\nboard\nquit\n",
    )
    assert code == 0
    pictures = boards(out)
    assert len(pictures) >= 3
    for picture in pictures:
        assert len(picture) == 13  # the file numbers twice, ten ranks, the river
        expected = columns(picture[0])
        assert len(expected) == 9
        for line in picture:
            assert columns(line) == expected, picture


def test_checkmate_ends_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    mate_in_one = "3k5/9/9/9/9/9/9/9/9/2R1K4 w - - 0 1"
    code, out, _ = play(
        monkeypatch,
        capsys,
        "xiangqi",
        "--position",
        mate_in_one,
        "--second",
        "engine:depth=1",
        lines="车七平六\n",
    )
    assert code == 0
    assert pyffish.legal_moves("xiangqi", mate_in_one, ["c1d1"]) == []  # the move mates
    assert out.rstrip().endswith("black to move, in check\nred (you) wins (1-0).")


def test_chinese_through_a_pseudo_terminal() -> None:
    """A real terminal: colours on, the characters sent and shown as UTF-8, aligned."""
    terminal = Terminal("play", "xiangqi", "--second", "engine:depth=1")
    try:
        terminal.expect("red to move> ", timeout=60)
        terminal.send("炮二平五")
        terminal.expect("black (engine:depth=1) plays ", timeout=60)
        terminal.expect("red to move> ", timeout=60, times=2)
        terminal.send("quit")
    finally:
        code = terminal.close()
    text = terminal.seen
    assert code == 0 and "\x1b[" in text  # a terminal gets colours
    pictures = boards(text.replace("\r\n", "\n"))
    assert len(pictures) == 2
    for picture in pictures:
        expected = columns(picture[0])
        assert all(columns(line) == expected for line in picture), picture
