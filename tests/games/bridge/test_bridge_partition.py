"""The dedicated double-dummy search (:mod:`zerosum.games.bridge.search`): every answer
of :class:`PartitionSearch` matches plain minimax, with a fresh table and with one table
shared by many deals (where partition search answers a position from entries another
deal stored, and where a group of equivalent cards splits); the sure tricks, the top
trumps and the second hand's quick tricks, and the cards they count on, hold; the
engine's solver drives the search through ``window_value``; and limits stop it."""

from __future__ import annotations

import gc
import random

import pytest
from bridge_deals import alike_deal
from bridge_oracle import Card, side_zero_tricks

from zerosum.games.bitboards import bit_indices
from zerosum.games.bridge import DoubleDummy, State, TwoPlayerBridge
from zerosum.games.bridge.notation import parse_deal
from zerosum.games.bridge.rules import (
    NOTRUMP,
    SPADES,
    SUIT_MASKS,
    equivalent_groups,
    make,
    random_hands,
)
from zerosum.games.bridge.search import (
    PartitionSearch,
    _later_tricks,
    _lead_weights,
    _leads,
    _second_hand,
    _suits,
    order_groups,
    sure_tricks,
    top_trumps,
)
from zerosum.games.bridge.solver import SolverRules
from zerosum.search.engine import Limits, SearchStopped
from zerosum.search.reference import minimax
from zerosum.search.solve import solve

Game = DoubleDummy | TwoPlayerBridge


def _mover_tricks(game: Game, state: State) -> int:
    """The tricks the side to move takes from the current trick on, by plain minimax
    (whose value is the final difference in tricks for the side to move)."""
    score = minimax(game, state).score
    hands, seat, _, won0, won1, _ = state
    won = won1 if seat & 1 else won0
    return (score + won0 + won1 + hands[seat].bit_count()) // 2 - won


def _random_state(game: Game, rng: random.Random) -> State:
    """A state a few random cards into the game's deal, often in the middle of a trick."""
    state = game.initial_state()
    for _ in range(rng.randrange(4)):
        state = game.result(state, rng.choice(game.actions(state)))
    return state


def _answers(search: PartitionSearch, state: State) -> list[bool]:
    """The search's answer to "at least t tricks?" for every t from 0 to the tricks left."""
    left = state[0][state[1]].bit_count()
    return [search.at_least(state, tricks) for tricks in range(left + 1)]


def _oracle_tricks(state: State) -> int:
    """The tricks the side to move takes from the current trick on, by the tests' own
    exhaustive solver (:mod:`bridge_oracle`), which knows nothing of zerosum's search."""
    hands, seat, trick, _, _, trump = state
    seats = len(hands)

    def cards(held: int) -> frozenset[Card]:
        return frozenset((card // 13, card % 13 + 2) for card in bit_indices(held))

    leader = (seat - len(trick)) % seats
    played = tuple((card // 13, card % 13 + 2) for card in trick)
    first = side_zero_tricks(tuple(cards(hand) for hand in hands), leader, trump, played)
    return first if seat % 2 == 0 else hands[seat].bit_count() - first


@pytest.mark.parametrize(("seats", "cards"), [(4, 4), (2, 6)])
def test_one_table_shared_by_deals_alike_answers_as_an_exhaustive_search(
    seats: int, cards: int
) -> None:
    # one search per strain for 120 deals of the same suit lengths: they meet in its
    # table, and an entry that kept too few cards' holders would answer a later deal
    # wrongly (keeping none, or only each suit's highest, fails here)
    rng = random.Random(seats)
    base = random_hands(rng, seats, cards)
    searches = {strain: PartitionSearch(seats, strain) for strain in range(5)}
    game: Game = DoubleDummy() if seats == 4 else TwoPlayerBridge()
    reused = 0
    for seed in range(120):
        strain = rng.randrange(5)
        state = make(alike_deal(base, rng), rng.randrange(seats), strain)
        for _ in range(rng.randrange(3)):
            state = game.result(state, rng.choice(game.actions(state)))
        search = searches[strain]
        entries = search.entries
        expected = _oracle_tricks(state)
        left = state[0][state[1]].bit_count()
        assert _answers(search, state) == [t <= expected for t in range(left + 1)], seed
        reused += search.entries == entries  # answered with nothing new stored
    assert reused > 10


def test_a_fresh_search_matches_minimax_with_every_part_switched_off() -> None:
    switches = ("sequences", "ordering", "bounds", "table", "partition", "last_trick")
    for seed in range(12):
        rng = random.Random(seed)
        game = DoubleDummy(seed=seed, cards=3, trump=rng.choice("SHDCN"), leader=rng.choice("NESW"))
        state = _random_state(game, rng)
        expected = _mover_tricks(game, state)
        left = state[0][state[1]].bit_count()
        for off in switches:
            search = PartitionSearch(4, state[5], **{off: False})
            assert _answers(search, state) == [t <= expected for t in range(left + 1)], off


def test_sure_tricks_and_the_cards_they_count_on() -> None:
    # north: SAKQ and HA2 against the others' spades and hearts; no trump
    hands = parse_deal("N:AKQ.A2.. J32.KQ.. T9.J3.3. 87.T9.4.")
    tricks, cards = sure_tricks(hands, 0, NOTRUMP)
    assert tricks == 4  # three spades and a heart
    # the three top spades (east's three spades make all three count) and the heart ace
    assert cards == sum(1 << card for card in (12, 11, 10, 13 + 12))
    # spades are trumps: north's top trumps, or the same cashing; west has no trump
    assert sure_tricks(hands, 0, SPADES)[0] == 4
    # hearts trumps: east holds trumps and two spades, so two spade rounds are safe
    hearts = parse_deal("N:AKQ.A2.. J3.KQ4.. T92.J3.. 87.T9.4.")
    assert sure_tricks(hearts, 0, 1)[0] == 3


def test_top_trumps_count_a_hand_s_trumps_above_the_opponents() -> None:
    # spades trumps: north's SA and SQ are above east's and west's trumps (south's SK
    # lies between them, a partner's): each wins a trick of its own
    hands = parse_deal("N:AQ3.A.. J9.K2.. K.Q.3.4 T8.J.2.")
    assert top_trumps(hands, 0, SPADES) == (2, 1 << 12 | 1 << 10)
    assert top_trumps(hands, 2, SPADES) == (1, 1 << 11)
    assert top_trumps(hands, 1, SPADES) == (0, 0)
    assert sure_tricks(hands, 0, SPADES)[0] >= 2


def test_the_second_hand_s_quick_tricks_never_claim_too_many() -> None:
    # every claim of the second hand's side, checked against the tests' own exhaustive
    # solver, on random positions one card into a trick, with and without trumps
    claims = 0
    for seed in range(400):
        rng = random.Random(seed)
        game = DoubleDummy(
            seed=seed, cards=rng.randint(2, 4), trump=rng.choice("SHDCN"), leader=rng.choice("NESW")
        )
        state = game.initial_state()
        for _ in range(4 * rng.randrange(2) + 1):
            state = game.result(state, rng.choice(game.actions(state)))
        hands, seat, trick, _, _, trump = state
        tricks = _oracle_tricks(state)
        for needed in range(1, hands[seat].bit_count() + 1):
            if _second_hand(hands, seat, trick[0], trump, needed)[0]:
                claims += 1
                assert tricks >= needed, (seed, needed)
    assert claims > 100


def _dense_hands(rng: random.Random, cards: int) -> tuple[int, ...]:
    """Four hands of ``cards`` cards dealt from the few highest ranks of each suit, so
    that top cards, stoppers and ruffs meet often."""
    deck = [13 * suit + rank for suit in range(4) for rank in range(13 - cards - 1, 13)]
    rng.shuffle(deck)
    return tuple(sum(1 << card for card in deck[cards * s : cards * (s + 1)]) for s in range(4))


def test_the_bounds_of_a_trick_s_start_hold_wherever_their_cards_are_held_alike() -> None:
    # the leader's sure tricks (with partner's ruff) and the tricks its side is sure to
    # lose (an opponent's top trumps, the trump stoppers, DDS's count of the suits the
    # side tops without trumps), checked against the tests' own exhaustive solver, in
    # the position and with the cards below those they count on dealt again: the
    # property partition search relies on
    sure_claims = lost_claims = 0
    for seed in range(200):
        rng = random.Random(seed)
        cards = 4 if seed % 25 == 0 else rng.randint(2, 3)
        hands = _dense_hands(rng, cards)
        leader, trump = rng.randrange(4), rng.randrange(5)
        sure, sure_cards = sure_tricks(hands, leader, trump)
        lost, lost_cards = _later_tricks(_suits(hands), leader, trump)
        sure_claims += sure > 0
        lost_claims += lost > 0
        for held in (hands, _shuffle_below(hands, sure_cards, rng)):
            assert _oracle_tricks(make(held, leader, trump)) >= sure, (seed, held)
        for held in (hands, _shuffle_below(hands, lost_cards, rng)):
            assert _oracle_tricks(make(held, leader, trump)) <= cards - lost, (seed, held)
    assert sure_claims > 80
    assert lost_claims > 80


def test_later_tricks_count_the_suits_the_side_tops_and_the_trump_stoppers() -> None:
    # no trump, north to lead and needing both tricks: north-south top only spades
    # (north's SA, south's SK: one spade trick, the suit runs to one round), so they
    # lose a trick, whatever the ranks of the hearts below east's HA
    # (the cards that decide it: the top card of each suit the opponents top, here
    # east's HA and west's D3; east's lone C3 counts whatever its rank)
    hands = parse_deal("N:A.2.. .A..3 K..2. .3.3.")
    assert _later_tricks(_suits(hands), 0, NOTRUMP) == (1, 1 << 13 + 12 | 1 << 26 + 1)
    # spades trumps, north's SA sits just before east's SK3: the king makes a trick
    hands = parse_deal("N:A2.A.. K3.2.. 54.3.. 6..2.2")
    assert _later_tricks(_suits(hands), 0, SPADES) == (1, 1 << 12 | 1 << 11)
    # south leads towards north's SAQ, west's SK5 before them: no sure loser
    hands = parse_deal("N:AQ.A.. 3..2.2 4.3.3. K5.2..")
    assert _later_tricks(_suits(hands), 2, SPADES) == (0, 0)


def test_partner_s_ruff_is_a_sure_trick() -> None:
    # hearts trumps: north leads a spade south is void in, south ruffs; east and west
    # follow to spades, so any trump of south's wins the trick
    hands = parse_deal("N:2..2. 3..A. .2.3. 4.A..")
    assert sure_tricks(hands, 0, 1) == (1, 0)


def test_a_group_reaching_up_among_the_cards_decided_keeps_its_lowest_card() -> None:
    # north's DKQ are one group, led as the queen; the answer "north-south take at most
    # 2" rested on the DA and DK only, and once let a second deal, where north holds
    # DK9 and the D9 lies below south's DJ, share the entry: there north-south take 3
    # (DDS: 2 and 3). The card played for a group that reaches up among the cards an
    # answer rests on is one of them.
    blocked = make(parse_deal("N:92.A5.KQ.T54 Q.KJT942.8.9 T.873.J742.2 J.Q6.AT.KQJ7"), 0, NOTRUMP)
    open_suit = make(
        parse_deal("N:92.A5.K9.T54 Q.KJT942.8.9 7.873.J764.2 J.Q6.AT.KQJ7"), 0, NOTRUMP
    )
    search = PartitionSearch(4, NOTRUMP)
    assert _answers(search, blocked) == [t <= 2 for t in range(10)]
    assert _answers(search, open_suit) == [t <= 3 for t in range(10)]


def test_sure_tricks_hold_wherever_their_cards_are_held_alike() -> None:
    # moving the cards below the ones counted on between the hands (suit lengths kept)
    # never takes the sure tricks away: the property partition search relies on
    rng = random.Random(7)
    for seed in range(200):
        hands = random_hands(random.Random(seed), 4, 6)
        seat, trump = rng.randrange(4), rng.randrange(5)
        tricks, cards = sure_tricks(hands, seat, trump)
        shuffled = _shuffle_below(hands, cards, rng)
        assert sure_tricks(shuffled, seat, trump)[0] >= tricks, (seed, hands, shuffled)


def _shuffle_below(hands: tuple[int, ...], cards: int, rng: random.Random) -> tuple[int, ...]:
    """``hands`` with, in each suit, the cards below the lowest of ``cards`` (all the
    suit's when none) dealt again among their holders, each keeping its count."""
    held = list(hands)
    for suit in range(4):
        mask = ((1 << 13) - 1) << 13 * suit
        kept = cards & mask
        floor = (kept & -kept) if kept else 1 << 13 * (suit + 1)
        low = [card for card in range(13 * suit, 13 * (suit + 1)) if 1 << card < floor]
        pool = [card for card in low if any(hand >> card & 1 for hand in hands)]
        owners = [seat for card in pool for seat in range(4) if hands[seat] >> card & 1]
        rng.shuffle(owners)
        for card in pool:
            for seat in range(4):
                held[seat] &= ~(1 << card)
        for card, seat in zip(pool, owners, strict=True):
            held[seat] |= 1 << card
    return tuple(held)


def test_the_order_of_the_cards_does_not_depend_on_where_the_table_starts() -> None:
    # the same position with every hand one seat further round is the same problem:
    # the order must match (it once told the leader's left-hand opponent from the
    # right-hand one by the seat's parity, reversing the advice for east and west)
    game = DoubleDummy()
    for seed in range(300):
        rng = random.Random(seed)
        state = make(random_hands(rng, 4, 13), rng.randrange(4), rng.randrange(5))
        for _ in range(rng.randrange(12)):
            state = game.result(state, rng.choice(game.actions(state)))
        hands, seat, trick, _, _, trump = state
        groups = equivalent_groups(state)
        turned = (hands[3], hands[0], hands[1], hands[2])
        expected = order_groups(hands, seat, trick, trump, groups)
        assert order_groups(turned, (seat + 1) % 4, trick, trump, groups) == expected, seed


def test_the_engine_s_solver_drives_the_search_through_window_value() -> None:
    for seed in range(8):
        rng = random.Random(seed)
        game = DoubleDummy(seed=seed, cards=3, trump=rng.choice("SHDCN"), leader=rng.choice("NESW"))
        state = _random_state(game, rng)
        rules = SolverRules(state)
        solution = solve(rules, state)
        assert solution.score == minimax(game, state).score
        # every best move too, one card a group: the window questions at the root's
        # children are the search's as well
        values = {}
        for card in rules.actions(state):
            child = game.result(state, card)
            score = minimax(game, child).score
            values[card] = score if child[1] & 1 == state[1] & 1 else -score
        assert set(solution.best_moves) == {c for c, v in values.items() if v == solution.score}
        assert rules.search.nodes > 0


def test_limits_stop_the_search() -> None:
    deal = random_hands(random.Random(3), 4, 13)
    search = PartitionSearch(4, NOTRUMP)
    with pytest.raises(SearchStopped) as stopped:
        search.at_least(make(deal, 0, NOTRUMP), 7, Limits(nodes=5000))
    assert stopped.value.reason == "nodes"
    assert 5000 <= stopped.value.nodes < 5000 + 64


def test_a_leader_s_order_sorts_its_weights_with_the_cutting_lead_raised() -> None:
    # the leads are sorted on one int a lead (the weight, then the place, the group in
    # the low bits): the order of sorting (weight, place) pairs, the lead that last cut
    # raised by DDS's bonus, more when it wins the trick
    for seed in range(300):
        rng = random.Random(seed)
        hands = random_hands(rng, 4, rng.randint(2, 13))
        seat, trump = rng.randrange(4), rng.randrange(5)
        groups = equivalent_groups(make(hands, seat, trump))
        killer = 0
        if rng.random() < 0.7:
            chosen = rng.choice(groups)
            killer = chosen & -chosen
        winner_bonus, other_bonus = (126, 47) if trump == NOTRUMP else (55, 18)
        ranked = []
        for mask in SUIT_MASKS:
            suit_groups = [group for group in groups if group & mask]
            if suit_groups:
                for weight, group, wins in _lead_weights(hands, seat, trump, suit_groups):
                    key = -weight
                    if group & killer:
                        key -= winner_bonus if wins else other_bonus
                    ranked.append((key, len(ranked), group))
        expected = [group for _, _, group in sorted(ranked)]
        assert _leads(hands, seat, trump, groups, killer) == expected, seed


def test_the_search_pauses_the_cyclic_collector_only_while_it_runs() -> None:
    deal = random_hands(random.Random(5), 4, 6)
    search = PartitionSearch(4, NOTRUMP)
    assert gc.isenabled()
    search.at_least(make(deal, 0, NOTRUMP), 3)
    assert gc.isenabled()
    with pytest.raises(SearchStopped):
        PartitionSearch(4, NOTRUMP).at_least(
            make(random_hands(random.Random(3), 4, 13), 0, NOTRUMP), 7, Limits(nodes=500)
        )
    assert gc.isenabled()
    gc.disable()
    try:
        search.at_least(make(deal, 1, NOTRUMP), 3)
        assert not gc.isenabled()
    finally:
        gc.enable()
