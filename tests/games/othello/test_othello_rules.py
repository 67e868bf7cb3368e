"""Othello's rules: perft counts from the start, confirmed against Fairy-Stockfish's
``flipello`` (pyffish), and random play checked move by move against it.

The published counts (depths 1-9: 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288)
are pinned up to depth 7 here; deeper ones are for ``zerosum perft othello 9``.
"""

from __future__ import annotations

import random

import othello_oracle as oracle
import pytest

from zerosum.games.othello import START, Othello
from zerosum.games.othello.notation import colours, square_name
from zerosum.games.othello.rules import PASS, make, mobility, perft
from zerosum.search.perft import divide

PERFT = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092}
"""The published counts of move paths from the start (passes count as moves)."""

ORACLE_DEPTH = 5
"""pyffish takes about 5 ms a call: depth 5 is a second."""


@pytest.mark.parametrize(("depth", "count"), PERFT.items())
def test_perft_from_the_start(depth: int, count: int) -> None:
    assert perft(START, depth) == count


@pytest.mark.parametrize("depth", range(1, ORACLE_DEPTH + 1))
def test_the_oracle_counts_the_same(depth: int) -> None:
    assert oracle.perft(oracle.fen(START), depth) == PERFT[depth]


def test_the_bulk_hook_agrees_with_the_walk_through_the_protocol() -> None:
    game = Othello()
    rng = random.Random(5)
    for _ in range(20):
        state = START
        for _ in range(rng.randrange(40, 56)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        walked = sum(count for _, count in divide(_Walked(), state, 3))
        assert walked == perft(state, 3)


class _Walked(Othello):
    """Othello without its perft hook, so that perft walks the protocol."""

    perft = None  # type: ignore[assignment]


def _random_states(count: int, seed: int) -> list[object]:
    """``count`` states of random games from the start, ends of games included."""
    game = Othello()
    rng = random.Random(seed)
    states: list[object] = []
    while len(states) < count:
        state = START
        line = [state]
        while not game.is_terminal(state):
            state = game.result(state, rng.choice(game.actions(state)))
            line.append(state)
        # every position of a game would favour openings: one in four, and every end
        states.extend(s for i, s in enumerate(line) if i % 4 == 3 or game.is_terminal(s))
    return states[:count]


STATES = _random_states(240, seed=11)


def test_random_positions_match_the_oracle() -> None:
    game = Othello()
    rng = random.Random(3)
    ends = passes = 0
    for state in STATES:
        position = oracle.fen(state)  # type: ignore[arg-type]
        moves = game.actions(state)
        mine = sorted("pass" if move == PASS else square_name(move) for move in moves)
        if game.is_terminal(state):
            ends += 1
            assert oracle.is_over(position)
            score = game.utility(state, game.to_move(state))
            assert (score > 0) - (score < 0) == oracle.result_sign(position)
            continue
        assert mine == oracle.legal(position), game.format_state(state)
        passes += mine == ["pass"]
        move = rng.choice([m for m in moves if m != PASS] or [PASS])
        if move != PASS:
            after = oracle.fen(game.result(state, move)).split("[")[0]
            assert after == oracle.board_after(position, square_name(move))
    assert ends > 10 and passes > 0  # the sample reaches both kinds of position


def test_a_pass_hands_the_same_board_to_the_side_that_can_move() -> None:
    game = Othello()
    passing = [s for s in STATES if game.actions(s) == [PASS]]  # type: ignore[arg-type]
    assert passing
    for state in passing:
        after = game.result(state, PASS)  # type: ignore[arg-type]
        assert colours(after) == colours(state)  # type: ignore[arg-type]
        assert game.to_move(after) != game.to_move(state)  # type: ignore[arg-type]
        assert game.actions(after) and PASS not in game.actions(after)


def test_the_game_ends_when_neither_side_can_move() -> None:
    game = Othello()
    over = make(1 << 0, 1 << 2, 0)  # a1 black, c1 white: neither brackets anything
    assert game.is_terminal(over) and game.actions(over) == []
    assert game.utility(over, 0) == 0  # one disc each, the 62 empties split
    ahead = make(1 << 0 | 1 << 63, 1 << 2, 0)  # and h8 black: 2-1, black takes the 61 empties
    assert game.is_terminal(ahead)
    assert game.utility(ahead, 0) == 62 and game.utility(ahead, 1) == -62
    wiped = game.parse_state("-" * 27 + "XX" + "-" * 6 + "XX" + "-" * 27 + " O")
    assert game.is_terminal(wiped) and game.utility(wiped, 1) == -64


def test_final_scores_count_the_discs() -> None:
    game = Othello()
    ends = [s for s in STATES if game.is_terminal(s)]  # type: ignore[arg-type]
    for state in ends:
        squares = game.format_state(state).split()[0]  # type: ignore[arg-type]
        black, white, empty = (squares.count(c) for c in "XO-")
        margin = black - white
        expected = margin + empty if margin > 0 else margin - empty if margin < 0 else 0
        assert game.utility(state, 0) == expected == -game.utility(state, 1)  # type: ignore[arg-type]
    assert len(ends) > 10


def test_mobility_is_the_set_of_legal_squares() -> None:
    game = Othello()
    for state in STATES[:60]:
        mover, opponent = state[0], state[1]  # type: ignore[index]
        legal = {m for m in game.actions(state) if m != PASS}  # type: ignore[arg-type]
        assert {s for s in range(64) if mobility(mover, opponent) >> s & 1} == legal
