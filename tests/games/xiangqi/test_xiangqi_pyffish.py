"""Differential tests against pyffish (Fairy-Stockfish as a Python module; the oracle,
never imported by zerosum).

Seeded random games from the start position and from the published perft positions give
thousands of positions; in each, zerosum and Fairy-Stockfish must agree on the legal
moves, the FEN (Fairy-Stockfish writes the next position's FEN, zerosum reads it and
writes it back), check, mate, and every move's WXF notation, and zerosum must read its
own WXF and Chinese notation of the move played back as that move. Fairy-Stockfish's
UCI moves count ranks 1-10 (``h3e3``): zerosum's coordinates with ``base=1``.
"""

from __future__ import annotations

import random

import pytest

from conftest import shared_data
from zerosum.games.bitboards import bit_indices
from zerosum.games.xiangqi.notation import (
    format_chinese,
    format_coordinates,
    format_fen,
    format_wxf,
    parse_fen,
    parse_move,
)
from zerosum.games.xiangqi.rules import (
    RED,
    START_FEN,
    State,
    is_check,
    legal_moves,
    result,
    verdict,
)

sf = pytest.importorskip(
    "pyffish", reason="pyffish (Fairy-Stockfish) is the oracle: pip install pyffish"
)

VARIANT = "xiangqi"
FEN_EVERY = 4  # Fairy-Stockfish's FEN in every fourth position: each call costs 1.5 ms
WXF_EVERY = 50  # every move's WXF in every 50th position ...
WXF_SHARED = 0.1  # ... and in this share of those where like pieces share a file
CAPTURES = 0.6  # how often a random game takes when it can: games shrink and end in mate


def _perft_positions() -> list[str]:
    lines = shared_data("xiangqi", "perft_xiangqi.txt").read_text().splitlines()
    return [line.split(";")[0].strip() for line in lines if line and not line.startswith("#")]


def _captures(state: State, moves: dict[str, int]) -> list[str]:
    them = state[1] if state[9] == RED else state[0]
    return [text for text, move in moves.items() if them >> (move >> 7) & 1]


def _shares_a_file(state: State) -> bool:
    """Whether the side to move has two like pieces (not generals) on one file: the
    positions where WXF names pieces by front and rear or by place."""
    ours = state[state[9]]
    for piece in range(6):
        files = [sq % 9 for sq in bit_indices(state[2 + piece] & ours)]
        if len(set(files)) < len(files):
            return True
    return False


def _play(start: str, seed: int, plies: int) -> tuple[int, bool]:
    """One random game checked ply by ply; returns the positions checked and whether the
    game ended in mate (the side to move has no legal move).

    Fairy-Stockfish is asked about the game so far (the start and the moves played), and
    names the moves of the whole game, with its check marks, in one call at the end."""
    rng = random.Random(seed)
    state = parse_fen(start)
    states = [state]
    line: list[str] = []
    played_moves: list[int] = []
    mated = False
    while len(line) < plies:
        moves = legal_moves(state)
        ours = {format_coordinates(move, base=1): move for move in moves}
        assert len(ours) == len(moves), format_fen(state)
        assert set(ours) == set(sf.legal_moves(VARIANT, start, line)), format_fen(state)
        fen = format_fen(state)
        if len(line) % FEN_EVERY == 0:
            assert fen == sf.get_fen(VARIANT, start, line)
            assert parse_fen(fen)[:14] == state[:14], fen  # a FEN holds no history
        if not moves:
            # no legal move loses, checkmated or stalemated alike
            assert sf.game_result(VARIANT, start, line) == -sf.VALUE_MATE, fen
            assert verdict(state, moves) == (-1 if state[9] == RED else 1), fen
            mated = True
            break
        if len(line) % WXF_EVERY == 0 or (_shares_a_file(state) and rng.random() < WXF_SHARED):
            for text, move in ours.items():
                wxf = sf.get_san(VARIANT, fen, text, False, sf.NOTATION_XIANGQI_WXF)
                assert format_wxf(state, move) == wxf, (fen, text)
        choices = sorted(ours)
        takes = _captures(state, ours)
        if takes and rng.random() < CAPTURES:
            choices = sorted(takes)
        played = rng.choice(choices)
        line.append(played)
        played_moves.append(ours[played])
        state = result(state, ours[played])
        states.append(state)
    assert is_check(states[0]) == sf.gives_check(VARIANT, start, [])
    sans = sf.get_san_moves(VARIANT, start, line)
    wxfs = sf.get_san_moves(VARIANT, start, line, False, sf.NOTATION_XIANGQI_WXF)
    for before, after, text, move, san, wxf in zip(
        states, states[1:], line, played_moves, sans, wxfs, strict=False
    ):
        fen = format_fen(before)
        assert is_check(after) == san.endswith(("+", "#")), (fen, text, san)
        assert format_wxf(before, move) == wxf, (fen, text)
        assert parse_move(before, wxf) == move, (fen, wxf)
        assert parse_move(before, format_chinese(before, move)) == move, (fen, text)
        assert parse_move(before, text, base=1) == move, (fen, text)
    return len(states), mated


def test_random_games_from_the_start_agree_with_fairy_stockfish() -> None:
    positions = mates = 0
    for seed in range(8):
        checked, mated = _play(START_FEN, seed, 200)
        positions += checked
        mates += mated
    assert positions > 1000
    assert mates >= 2  # the seeds reach mates, so the verdict was compared where it happens


def test_random_games_from_the_perft_positions_agree_with_fairy_stockfish() -> None:
    positions = mates = 0
    starts = _perft_positions()
    assert len(starts) == 13
    for start in starts:
        assert format_fen(parse_fen(start)) == sf.get_fen(VARIANT, start, [])
        for seed in range(2):
            checked, mated = _play(start, seed, 50)
            positions += checked
            mates += mated
    assert positions > 1000
    assert mates >= 2


def test_start_fen_and_examples_match_fairy_stockfish() -> None:
    assert sf.start_fen(VARIANT) == START_FEN
    assert sf.get_san(VARIANT, START_FEN, "h3e3", False, sf.NOTATION_XIANGQI_WXF) == "C2=5"
    after = sf.get_fen(VARIANT, START_FEN, ["h3e3"])
    assert sf.get_san(VARIANT, after, "h10g8", False, sf.NOTATION_XIANGQI_WXF) == "H8+7"
    assert parse_move(parse_fen(after), "H8+7") == parse_move(parse_fen(after), "马8进7")
