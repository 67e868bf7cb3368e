"""Perft: the protocol walk against plain enumeration and published counts, and a game's
own bulk-counting hook against the walk."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import shared_data
from zerosum.games.chess import Chess
from zerosum.games.connect4 import Connect4
from zerosum.games.mnk import tictactoe
from zerosum.search.perft import divide, perft


def enumerate_paths(game: Any, state: Any, depth: int) -> int:
    """Every line of exactly ``depth`` plies, made move by move: the definition."""
    if depth == 0:
        return 1
    if game.is_terminal(state):
        return 0
    return sum(enumerate_paths(game, game.result(state, m), depth - 1) for m in game.actions(state))


def test_the_walk_counts_what_enumeration_counts() -> None:
    for game in (tictactoe(), Connect4(5, 4)):
        start = game.initial_state()
        for depth in range(6):
            assert perft(game, start, depth) == enumerate_paths(game, start, depth)


def test_tictactoe_counts_add_up_to_the_published_number_of_games() -> None:
    facts = json.loads(shared_data("tictactoe", "facts.json").read_text())
    game = tictactoe()
    counts = [perft(game, game.initial_state(), depth) for depth in range(10)]
    assert counts[:6] == [1, 9, 72, 504, 3024, 15120]  # nobody can win before ply 5
    # a line that goes on from ply d has 9 - d moves; the rest ended at ply d
    ended = [counts[d] - counts[d + 1] // (9 - d) for d in range(9)] + [counts[9]]
    assert all(counts[d + 1] % (9 - d) == 0 for d in range(9))
    assert sum(ended) == facts["number_of_games_all_move_sequences_until_win_or_full"]


def test_a_game_s_own_perft_is_used_and_agrees_with_the_walk() -> None:
    chess = Chess()
    kiwipete = chess.parse_state(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    )
    assert perft(chess, kiwipete, 2) == 2039  # the Chess Programming Wiki's count
    assert perft(chess, kiwipete, 2) == enumerate_paths(chess, kiwipete, 2)


def test_divide_splits_the_count_by_the_first_move() -> None:
    chess = Chess()
    start = chess.initial_state()
    shares = divide(chess, start, 3)
    assert len(shares) == 20
    assert sum(n for _, n in shares) == perft(chess, start, 3) == 8902
    assert dict((chess.format_move(start, m), n) for m, n in shares)["e4"] == 600


def test_depths_below_the_definition_are_refused() -> None:
    game = tictactoe()
    with pytest.raises(ValueError, match="0 or more"):
        perft(game, game.initial_state(), -1)
    with pytest.raises(ValueError, match="1 or more"):
        divide(game, game.initial_state(), 0)


def test_the_hook_is_asked_once_not_the_walk() -> None:
    asked: list[int] = []

    class Counted(Connect4):
        def perft(self, state: Any, depth: int) -> int:
            asked.append(depth)
            return 42

    game = Counted(5, 4)
    assert perft(game, game.initial_state(), 3) == 42 and asked == [3]
    assert [n for _, n in divide(game, game.initial_state(), 3)] == [42] * 5
