"""The double-dummy solver (:mod:`zerosum.games.bridge.solver`, searching with
:mod:`zerosum.games.bridge.search`): its bounds hold and its tricks match plain minimax
on small endings of both games; every card's value and the
double-dummy table match endplay's DDS on random endings of 5 to 8 cards a hand; the
published values of DDS's test deals (``dds_list100.txt``) are reproduced on their
endings; and every part of the solver can be switched off without changing an answer."""

from __future__ import annotations

import random

import pytest
from endplay_oracle import dds_card_values, dds_table, endplay_dds, endplay_deal

from conftest import shared_data
from zerosum.games.bitboards import bit_indices
from zerosum.games.bridge import DoubleDummy, State, TwoPlayerBridge
from zerosum.games.bridge.ddsfile import DdsDeal, load_dds_file
from zerosum.games.bridge.notation import format_deal, parse_deal
from zerosum.games.bridge.rules import NOTRUMP, SPADES, make
from zerosum.games.bridge.solver import (
    DoubleDummySolver,
    SolverParts,
    dd_table,
    ordered_groups,
    trick_bounds,
)
from zerosum.search.reference import alphabeta, minimax

ONE_BEST_CARD = pytest.importorskip("endplay.dds.solve").SolveMode.OptimalOne

Game = DoubleDummy | TwoPlayerBridge


def _mover_tricks(game: Game, state: State, search: object = minimax) -> int:
    """The tricks the side to move takes from the current trick on, from the textbook
    search's value (the final difference in tricks for the side to move)."""
    score = search(game, state).score  # type: ignore[operator]
    hands, seat, _, won0, won1, _ = state
    won = won1 if seat & 1 else won0
    return (score + won0 + won1 + hands[seat].bit_count()) // 2 - won


def _random_state(game: Game, rng: random.Random) -> State:
    """A state a few random cards into the game's deal, often in the middle of a trick."""
    state = game.initial_state()
    for _ in range(rng.randrange(6)):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(game.actions(state)))
    return state


@pytest.mark.parametrize("seed", range(40))
def test_bounds_hold_and_tricks_match_minimax_on_four_hands(seed: int) -> None:
    rng = random.Random(seed)
    game = DoubleDummy(
        seed=seed, cards=2 + seed % 3, trump=rng.choice("SHDCN"), leader=rng.choice("NESW")
    )
    state = _random_state(game, rng)
    if game.is_terminal(state):
        return
    low, high = trick_bounds(state)
    assert low <= minimax(game, state).score <= high
    assert game.score_bounds(state) == (low, high)
    assert DoubleDummySolver(state[5]).tricks(state) == _mover_tricks(game, state)


@pytest.mark.parametrize("seed", range(24))
def test_the_two_player_game_against_plain_minimax(seed: int) -> None:
    rng = random.Random(seed)
    size = 3 + seed % 4
    game = TwoPlayerBridge(seed=seed, cards=size, trump=rng.choice("SHDCN"), leader=seed % 2)
    state = _random_state(game, rng)
    low, high = trick_bounds(state)
    search = minimax if size <= 4 else alphabeta
    expected = _mover_tricks(game, state, search)
    assert DoubleDummySolver(state[5]).tricks(state) == expected
    assert low <= 2 * expected - state[0][state[1]].bit_count() + _won_difference(state) <= high


def _won_difference(state: State) -> int:
    """Tricks won so far by the side to move less the other side's."""
    difference = state[3] - state[4]
    return -difference if state[1] & 1 else difference


def test_trick_bounds_narrow_by_the_leader_s_sure_tricks() -> None:
    # north: SAKQ and HA2 against the others' spades and hearts; no trump: four sure
    # tricks of five, and no trump for the opponents to hold
    hands = parse_deal("N:AKQ.A2.. J32.KQ.. T9.J3.3. 87.T9.4.")
    assert trick_bounds(make(hands, 0, NOTRUMP)) == (2 * 4 - 5, 5)
    # spades trumps led by east: east's side is sure of nothing, north's top trumps
    # (SAKQ) leave it two tricks at most
    assert trick_bounds(make(hands, 1, SPADES)) == (-5, 2 * 2 - 5)


def test_bounds_hold_on_random_deals_of_every_size_by_dds() -> None:
    # quick tricks are a lower bound and the opponents' top trumps an upper one only if
    # every plan they count is sound: DDS's values on deals of 3 to 13 cards a hand
    tight = 0
    for seed in range(120):
        rng = random.Random(seed)
        cards = rng.randint(3, 13)
        trump, leader = rng.randrange(5), rng.randrange(4)
        state = make(DoubleDummy(seed=seed, cards=cards).initial_state()[0], leader, trump)
        low, high = trick_bounds(state)
        solved = endplay_dds.solve_board(endplay_deal(state), ONE_BEST_CARD)
        difference = 2 * max(tricks for _, tricks in solved) - cards
        assert low <= difference <= high, (game_text(state), low, high, difference)
        tight += (low == difference) + (high == difference)
    assert tight > 25  # the bounds are often exact, not merely sound


def game_text(state: State) -> str:
    """A state as text, for a failure's message."""
    return f"{format_deal(state[0])} trump={state[5]} lead={state[1]}"


def _every_card(solver: DoubleDummySolver, state: State) -> dict[int, int]:
    """Each legal card with its value from :meth:`DoubleDummySolver.card_values`."""
    values = {}
    for value in solver.card_values(state):
        for card in bit_indices(value.equals | 1 << value.card):
            values[card] = value.tricks
    return values


@pytest.mark.parametrize(
    ("seed", "cards"),
    [(seed, 5) for seed in range(10)] + [(seed, 6) for seed in range(10, 14)] + [(20, 7), (21, 8)],
)
def test_every_card_s_value_matches_dds_on_endings(seed: int, cards: int) -> None:
    rng = random.Random(seed)
    game = DoubleDummy(seed=seed, cards=cards, trump=rng.choice("SHDCN"), leader=rng.choice("NESW"))
    state = game.initial_state()
    for _ in range(rng.choice((0, 1, 2, 3))):
        state = game.result(state, rng.choice(game.actions(state)))
    solver = DoubleDummySolver(state[5])
    values = solver.card_values(state)
    theirs = dds_card_values(state)
    assert _every_card(solver, state) == theirs, game.format_state(state)
    assert values[0].tricks == max(theirs.values()) == solver.tricks(state)
    tricks = [value.tricks for value in values]
    assert tricks == sorted(tricks, reverse=True)  # best first
    assert len(values) == len(game.equivalent_cards(state))
    # the groups are the equivalent cards, each named by its highest card
    assert all(value.equals < 1 << value.card for value in values)


@pytest.mark.parametrize(("seed", "cards"), [(30, 4), (31, 5), (32, 5), (33, 6)])
def test_the_double_dummy_table_matches_dds(seed: int, cards: int) -> None:
    hands = DoubleDummy(seed=seed, cards=cards).initial_state()[0]
    assert dd_table(hands) == dds_table(hands)


@pytest.fixture(scope="module")
def deals() -> list[DdsDeal]:
    return load_dds_file(shared_data("bridge", "dds_list100.txt"))


def _replayed(deal: DdsDeal, cards: int) -> State:
    """The state after the first ``cards`` cards of the deal's real play."""
    assert len(deal.play) >= cards, deal.line
    state = make(deal.hands, deal.leader, deal.trump)
    game = DoubleDummy(deal.pbn, trump="SHDCN"[deal.trump], leader="NESW"[deal.leader])
    for card in deal.play[:cards]:
        state = game.result(state, card)
    return state


ENDING = 24
"""Cards of the real play replayed before the published endings solved here: six
tricks, seven cards a hand left."""


def test_the_published_trace_on_seven_card_endings(deals: list[DdsDeal]) -> None:
    sample = [deal for deal in deals if len(deal.trace) > ENDING + 4][:6]
    assert len(sample) == 6
    for deal in sample:
        declaring = 1 - (deal.leader & 1)
        for played in (ENDING, ENDING + 2):
            state = _replayed(deal, played)
            solver = DoubleDummySolver(deal.trump)
            mover = state[1] & 1
            won = state[3 + declaring]
            taken = solver.tricks(state)
            left = state[0][state[1]].bit_count()
            declarer_tricks = won + (taken if mover == declaring else left - taken)
            assert declarer_tricks == deal.trace[played], (deal.line, played)


def test_the_lead_values_of_published_endings_match_dds(deals: list[DdsDeal]) -> None:
    # the FUT line scores the opening lead of all 13 tricks, beyond a unit test's time:
    # here the same all-cards solve, of the lead at the seventh trick, against DDS
    for deal in [deal for deal in deals if len(deal.play) >= ENDING][:4]:
        state = _replayed(deal, ENDING)
        solver = DoubleDummySolver(deal.trump)
        assert _every_card(solver, state) == dds_card_values(state), deal.line


def test_the_published_table_of_an_ending_matches_dds(deals: list[DdsDeal]) -> None:
    state = _replayed(deals[0], 32)  # five cards a hand
    assert not state[2]
    assert dd_table(state[0]) == dds_table(state[0])


@pytest.mark.parametrize(
    "parts",
    [
        SolverParts(sequences=False),
        SolverParts(ordering=False),
        SolverParts(bounds=False),
        SolverParts(table=False),
        SolverParts(partition=False),
        SolverParts(last_trick=False),
        SolverParts(False, False, False, False, False, False),
    ],
)
def test_every_part_can_be_switched_off(parts: SolverParts) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        game = DoubleDummy(seed=seed, cards=4, trump=rng.choice("SHDCN"), leader=rng.choice("NESW"))
        state = _random_state(game, rng)
        if game.is_terminal(state):
            continue
        full = DoubleDummySolver(state[5]).tricks(state)
        assert DoubleDummySolver(state[5], parts=parts).tricks(state) == full


def test_the_order_keeps_every_group_once() -> None:
    game = DoubleDummy(seed=5, cards=8, trump="H", leader="W")
    rng = random.Random(5)
    state = game.initial_state()
    while not game.is_terminal(state):
        groups = ordered_groups(state)
        assert sorted(groups) == sorted(game.equivalent_cards(state))
        assert game.ordered_actions(state) == [c for g in groups for c in bit_indices(g)]
        state = game.result(state, rng.choice(game.actions(state)))


def test_solving_refuses_a_finished_deal_and_another_strain() -> None:
    game = DoubleDummy("N:A... 2... K... 3...", trump="N", leader="N")
    state = game.initial_state()
    with pytest.raises(ValueError, match="strain 0, not 4"):
        DoubleDummySolver(SPADES).tricks(state)
    for card in ("SA", "S2", "SK", "S3"):
        state = game.result(state, game.parse_move(state, card))
    with pytest.raises(ValueError, match="every card has been played"):
        DoubleDummySolver(NOTRUMP).tricks(state)
