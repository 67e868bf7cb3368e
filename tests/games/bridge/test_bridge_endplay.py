"""endplay (PyPI, MIT, bundling Bo Haglund's DDS) as the oracle: our PBN matches its
PBN, and the double-dummy value of every card in random endings of 3 to 5 cards a hand,
at the start of a trick and in its middle, found by the textbook searches on our rules,
matches DDS's ``solve_board``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from endplay_oracle import dds_card_values, endplay_types, our_card

from zerosum.games.bitboards import bit_indices
from zerosum.games.bridge import DoubleDummy, State
from zerosum.games.bridge.notation import format_deal, parse_deal
from zerosum.search.reference import alphabeta, minimax

Search = Callable[[DoubleDummy, State], Any]


def _final_tricks(game: DoubleDummy, state: State, side: int, search: Search) -> int:
    """The tricks ``side`` takes in all with best play from ``state``: the searched value
    is the final difference in tricks for the side to move."""
    score = search(game, state).score
    difference = score if game.to_move(state) == side else -score
    hands, seat, _, won0, won1, _ = state
    total = won0 + won1 + hands[seat].bit_count()
    return (total + difference) // 2


def _ending(seed: int, cards: int) -> tuple[DoubleDummy, State]:
    """A random ending of ``cards`` a hand, sometimes a card or two into a trick."""
    rng = random.Random(seed)
    game = DoubleDummy(seed=seed, cards=cards, trump=rng.choice("SHDCN"), leader=rng.choice("NESW"))
    state = game.initial_state()
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        state = game.result(state, rng.choice(game.actions(state)))
    return game, state


@pytest.mark.parametrize(
    ("seed", "cards", "search"),
    [(seed, 3, minimax) for seed in range(16)]
    + [(seed, 4, minimax) for seed in range(100, 104)]
    + [(seed, 5, alphabeta) for seed in range(200, 203)],
)
def test_every_card_s_value_matches_dds(seed: int, cards: int, search: Search) -> None:
    game, state = _ending(seed, cards)
    side = game.to_move(state)
    won = state[3 + side]
    ours = {
        move: _final_tricks(game, game.result(state, move), side, search) - won
        for move in game.actions(state)
    }
    theirs = dds_card_values(state)
    assert ours == theirs, game.format_state(state)


@pytest.mark.parametrize("seed", range(20))
def test_our_pbn_is_endplay_s_pbn(seed: int) -> None:
    hands = DoubleDummy(seed=seed, cards=1 + seed % 13).initial_state()[0]
    text = format_deal(hands)
    theirs = endplay_types.Deal(text)
    assert theirs.to_pbn() == text
    assert parse_deal(theirs.to_pbn()) == hands
    for seat in range(4):
        held = theirs[endplay_types.Player(seat)]
        assert {our_card(card) for card in held} == set(bit_indices(hands[seat]))
