"""The chess benches' data and helpers: the openings book of ``bench/data`` and the
code of ``bench/chess_strength.py`` and ``bench/bratko_kopec.py`` that computes results.

The book is checked with zerosum's own chess (the arena reads it) and against
python-chess, the oracle: every line is a legal position, its recorded moves lead to it,
and its recorded score is within the balance the header promises.
"""

from __future__ import annotations

import importlib
import math
import re
import sys
from pathlib import Path
from types import ModuleType

import chess
import pytest

from conftest import shared_data
from zerosum.arena import Position, epd_to_fen, load_openings
from zerosum.games.chess import Chess
from zerosum.ratings import elo_from_score

BENCH = Path(__file__).resolve().parents[3] / "bench"
BOOK = BENCH / "data" / "chess-openings.epd"
BALANCE = 60  # the header's bound on White's score, in centipawns


def _bench(name: str) -> ModuleType:
    """Import a script of bench/ (they import each other by their own names)."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module(name)


def _book_lines() -> list[str]:
    return [
        line
        for line in BOOK.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]


def test_the_arena_reads_every_opening_of_the_book() -> None:
    openings = load_openings(Chess(), BOOK)
    assert 50 <= len(openings) <= 100
    assert all(isinstance(opening, Position) for opening in openings)
    assert len({opening.text for opening in openings if isinstance(opening, Position)}) == len(
        openings
    )


def _operand(line: str, pattern: str) -> str:
    found = re.search(pattern, line)
    assert found is not None, line
    return found.group(1)


@pytest.mark.parametrize("line", _book_lines(), ids=lambda line: line.split('"')[1])
def test_each_opening_is_the_position_its_moves_reach(line: str) -> None:
    fen = epd_to_fen(line)
    moves = re.sub(r"\d+\.", " ", _operand(line, r'c0 "([^"]*)"')).split()
    game = Chess()
    state = game.initial_state()
    board = chess.Board()
    for san in moves:
        move = game.parse_move(state, san)
        assert game.format_move(state, move) == board.san(board.parse_san(san))
        board.push_san(san)
        state = game.result(state, move)
    assert game.format_state(state) == board.fen() == fen
    assert not game.is_terminal(state)
    assert 8 <= len(moves) <= 16
    score = int(_operand(line, r"\bce (-?\d+);"))
    white = score if board.turn == chess.WHITE else -score
    assert abs(white) <= BALANCE


def test_the_ladder_rating_of_one_rung_is_the_elo_of_its_score() -> None:
    ladder_rating = _bench("chess_strength").ladder_rating
    rating, low, high = ladder_rating([(1500.0, 7.5, 10)])
    assert rating == pytest.approx(1500 + elo_from_score(0.75), abs=1e-6)
    assert low < rating < high
    even, _, _ = ladder_rating([(1400.0, 5, 10), (1600.0, 5, 10)])
    assert even == pytest.approx(1500, abs=1e-6)  # symmetric rungs, symmetric scores


def test_the_ladder_rating_expects_the_points_taken() -> None:
    ladder_rating = _bench("chess_strength").ladder_rating
    rungs = [(1350.0, 8.0, 10), (1500.0, 5.5, 10), (1650.0, 2.0, 10)]
    rating, low, high = ladder_rating(rungs)
    expected = sum(n / (1 + 10 ** ((elo - rating) / 400)) for elo, _, n in rungs)
    assert expected == pytest.approx(15.5, abs=1e-6)
    # the interval narrows as the games grow fourfold (by about half)
    _, wider_low, wider_high = ladder_rating([(e, 4 * p, 4 * n) for e, p, n in rungs])
    assert (wider_high - wider_low) == pytest.approx((high - low) / 2, rel=1e-3)


def test_the_ladder_rating_is_unbounded_when_every_game_goes_one_way() -> None:
    ladder_rating = _bench("chess_strength").ladder_rating
    assert ladder_rating([(1350.0, 10, 10), (1500.0, 4, 4)])[0] == math.inf
    assert ladder_rating([(1350.0, 0, 10)])[0] == -math.inf
    with pytest.raises(ValueError, match="no games"):
        ladder_rating([])


def test_a_bratko_kopec_position_is_solved_by_its_best_moves_only() -> None:
    bratko_kopec = _bench("bratko_kopec")
    cases = bratko_kopec.read_epd(shared_data("chess", "bratko-kopec.epd"))
    assert len(cases) == 24
    game = Chess()
    for case in cases:
        board = chess.Board(case.fen)
        best = {board.parse_san(san) for san in case.best}
        for move in board.legal_moves:
            assert bratko_kopec.solved(game, case, move.uci()) == (move in best), case.name
