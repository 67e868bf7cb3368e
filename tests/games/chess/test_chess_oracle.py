"""Differential tests against python-chess (the oracle; GPL, never imported by zerosum).

Seeded random games from the start and from Chess960 positions give thousands of
positions; in each, zerosum and python-chess must agree on the legal moves, SAN both
ways, FEN, check, and the end of the game (mate, stalemate, fifty moves, threefold
repetition, insufficient material), and zerosum's keys must be equal exactly when the
positions are (python-chess's EPD, which writes the en passant square only when a
capture there is legal, names a position).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from zerosum.games.chess import Chess
from zerosum.games.chess.notation import format_fen, format_san, format_uci, parse_fen, parse_move
from zerosum.games.chess.rules import State, is_check, legal_moves, result, verdict

chess = pytest.importorskip("chess", reason="python-chess is the oracle: pip install chess")

GAMES = 24
MAX_PLIES = 250
QUIET_AFTER = 40
SAN_EVERY = 7  # every move's SAN in every 7th position; the move played in all of them


def _expected_verdict(board: Any) -> int | None:
    """python-chess's verdict under zerosum's rules (draws applied, not claimed)."""
    if board.is_checkmate():
        return -1 if board.turn == chess.WHITE else 1
    if (
        board.is_stalemate()
        or board.is_insufficient_material()
        or board.halfmove_clock >= 100
        or board.is_repetition(3)
    ):
        return 0
    return None


def _quiet(state: State, move: int) -> bool:
    return not (
        state[2] >> (move & 63) & 1 or (state[0] if state[8] else state[1]) >> (move >> 6 & 63) & 1
    )


def _play(start: str, seed: int, chess960: bool) -> list[tuple[State, str, str]]:
    """One random game checked ply by ply; returns (state, EPD, FEN) of each position."""
    rng = random.Random(seed)
    board = chess.Board(start, chess960=chess960)
    state = parse_fen(start, chess960)
    seen = []
    for ply in range(MAX_PLIES):
        fen = board.fen()
        assert format_fen(state) == fen
        moves = legal_moves(state)
        ours = {format_uci(state, move, chess960): move for move in moves}
        assert len(ours) == len(moves)
        assert set(ours) == {move.uci() for move in board.legal_moves}, fen
        assert is_check(state) == board.is_check(), fen
        assert verdict(state, moves) == _expected_verdict(board), fen
        seen.append((state, board.epd(), fen))
        if verdict(state, moves) is not None:
            break
        # Past the opening, lean towards quiet moves (no capture, no pawn), so that
        # games reach the fifty-move rule and repetitions as well as mates.
        choices = sorted(ours)
        quiet = [text for text in choices if _quiet(state, ours[text])]
        if ply > QUIET_AFTER and quiet and rng.random() < 0.8:
            choices = quiet
        played = rng.choice(choices)
        move = board.parse_uci(played)
        checked = sorted(ours) if ply % SAN_EVERY == 0 else [played]
        for text in checked:
            san = board.san(board.parse_uci(text))
            assert format_san(state, ours[text]) == san, fen
            assert parse_move(state, san) == ours[text], (fen, san)
            assert parse_move(state, text) == ours[text], (fen, text)
        board.push(move)
        state = result(state, ours[played])
        assert parse_fen(board.fen(), chess960)[13] == state[13], "incremental key"
    return seen


def _check_keys(positions: list[tuple[State, str, str]]) -> None:
    by_key: dict[int, str] = {}
    by_epd: dict[str, int] = {}
    for state, epd, fen in positions:
        assert by_key.setdefault(state[13], epd) == epd, fen
        assert by_epd.setdefault(epd, state[13]) == state[13], fen


ENDINGS = [
    "8/8/4k3/8/2R5/8/4K3/3r4 w - - 0 1",
    "8/5k2/8/3n4/8/2B5/4K3/8 w - - 90 70",
    "4k3/8/8/3q4/8/8/1Q6/4K3 b - - 0 1",
    "8/2p5/8/K6k/8/8/5P2/8 w - - 0 1",
    "k7/p7/P7/8/8/8/8/7K w - - 0 1",
    "kb6/p7/P7/8/8/8/8/7K w - - 0 1",
]
"""Endings, where random play soon repeats, runs into the fifty-move rule or trades
into insufficient material."""


def test_random_games_agree_with_python_chess() -> None:
    positions = []
    ends: dict[str, int] = {}
    starts = [(chess.STARTING_FEN, seed) for seed in range(GAMES)]
    starts += [(fen, seed) for fen in ENDINGS for seed in range(4)]
    for start, seed in starts:
        line = _play(start, seed, chess960=False)
        positions.extend(line)
        board = chess.Board(line[-1][2])
        reason = "unfinished"
        if board.is_checkmate():
            reason = "mate"
        elif board.is_stalemate():
            reason = "stalemate"
        elif board.is_insufficient_material():
            reason = "material"
        elif board.halfmove_clock >= 100:
            reason = "fifty"
        elif len(line) < MAX_PLIES:
            reason = "repetition"
        ends[reason] = ends.get(reason, 0) + 1
    _check_keys(positions)
    assert len(positions) > 4000
    # the seeds reach every kind of end, so each verdict was checked where it happens
    assert {"mate", "material", "fifty", "repetition"} <= set(ends), ends


CHESS960_STARTS = [
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
    "r1k2r1q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K2R1Q w KQkq - 0 1",
    "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1",
]


@pytest.mark.parametrize("start", CHESS960_STARTS)
def test_chess960_games_agree_with_python_chess(start: str) -> None:
    positions = []
    for seed in range(6):
        positions.extend(_play(start, seed, chess960=True))
    _check_keys(positions)


def test_threefold_repetition_ends_the_game() -> None:
    game = Chess()
    state = game.initial_state()
    board = chess.Board()
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    for ply, san in enumerate(shuffle * 2):
        assert not game.is_terminal(state), ply
        state = game.result(state, game.parse_move(state, san))
        board.push_san(san)
    assert board.is_repetition(3) and game.is_terminal(state)
    assert game.utility(state, 0) == game.utility(state, 1) == 0
    assert game.actions(state) == []
