"""Perft: zerosum's move counts against every published count up to depth 4.

The counts come from ``../shared/data/chess`` (the Chess Programming Wiki positions and
``tricky.perft``: castling, en passant pins, Chess960). Counts of a million nodes or more
are marked slow (about 1.5 s each); deeper counts are for ``bench/chess_perft.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SHARED_DATA, shared_data
from zerosum.games.chess import Chess
from zerosum.games.chess.rules import perft

MAX_DEPTH = 4
SLOW_NODES = 1_000_000


def _cases() -> list[tuple[str, str, int, int]]:
    """(name, FEN, depth, count) for every published count up to depth 4; none when
    the data is absent (the test below then skips, saying why)."""
    folder = SHARED_DATA / "chess"
    cases: list[tuple[str, str, int, int]] = []
    if not folder.exists():
        return cases
    for line in (folder / "perft_cpw.epd").read_text().splitlines():
        if not line.strip():
            continue
        fen, *fields = (part.strip() for part in line.split(";"))
        name = next(f.split(None, 1)[1].strip('"') for f in fields if f.startswith("id"))
        for field in fields:
            if field.startswith("D"):
                depth, count = map(int, field[1:].split())
                cases.append((name, fen, depth, count))
    name = fen = ""
    for line in (folder / "tricky.perft").read_text().splitlines():
        words = line.split(None, 1)
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "id":
            name = words[1].strip()
        elif words[0] == "epd":
            fen = words[1].strip()
        elif words[0] == "perft":
            depth, count = map(int, words[1].split())
            cases.append((name, fen, depth, count))
    return [case for case in cases if case[2] <= MAX_DEPTH]


CASES = _cases()


def _param(case: tuple[str, str, int, int]) -> object:
    name, _, depth, count = case
    marks = [pytest.mark.slow] if count >= SLOW_NODES else []
    return pytest.param(*case, id=f"{name}-d{depth}", marks=marks)


@pytest.mark.parametrize(("name", "fen", "depth", "count"), [_param(c) for c in CASES])
def test_perft_matches_the_published_count(name: str, fen: str, depth: int, count: int) -> None:
    # Chess960 castling reads every position: it agrees with standard chess on standard
    # rights, and "asymmetrical-and-king-on-h" is counted with a q right (king h8) that
    # only Chess960 grants.
    state = Chess(chess960=True).parse_state(fen)
    assert perft(state, depth) == count, name


def test_the_perft_data_is_read() -> None:
    folder: Path = shared_data("chess", "perft_cpw.epd").parent
    assert (folder / "tricky.perft").exists()
    assert len({name for name, *_ in CASES}) == 26  # 7 + 19 positions
    assert sum(1 for *_, depth, _ in CASES if depth == 4) >= 15


def test_standard_rules_drop_a_right_chess960_keeps() -> None:
    fen = "r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq -"
    assert perft(Chess().parse_state(fen), 3) == 3660  # python-chess's count, standard
    assert perft(Chess(chess960=True).parse_state(fen), 3) == 3672  # published, Chess960
