"""The card play of bridge: cards and hands as bits of Python ints, tricks, the rules.

**Cards** are the ints ``0 .. 51``: ``card = 13 * suit + rank``, with the suits in the
order bridge and PBN write them (:data:`SPADES` 0, :data:`HEARTS` 1, :data:`DIAMONDS` 2,
:data:`CLUBS` 3) and the ranks from the two (0) to the ace (12). A set of cards (a hand,
the cards still in play) is an int with bit ``c`` for card ``c``, so a suit's cards are
a shift and a mask (``hand >> 13 * suit & 0x1FFF``), a higher card of a suit is a higher
bit, and the highest card of a suit in a set is its highest bit.

**Seats** are numbered around the table: with four hands :data:`NORTH` 0, :data:`EAST` 1,
:data:`SOUTH` 2, :data:`WEST` 3; with two hands 0 and 1. A seat plays for side
``seat & 1``: north-south are player 0 and east-west player 1, and with two hands each
seat is its own side. One set of rules serves both games.

**State.** A plain tuple ``(hands, seat, trick, won0, won1, trump)`` (see :data:`State`):
the cards each seat still holds, the seat to play, the cards played to the current trick
from its leader on (they are no longer in the hands), the tricks each side has won and
the trump suit (:data:`NOTRUMP` 4 for none). A trick is settled by the transition that
plays its last card: the winner's side scores it and the winner is the next seat to
play, so the same side may move twice or more running.

**Rules.** The leader plays any card; the others follow suit when they can, else play
any card. The highest trump wins the trick, else the highest card of the suit led.

**The score** is the difference in tricks: the tricks player 0's side has won minus the
other side's (:meth:`CardPlayRules.utility`). Tricks won minus half of those played
would be the same ordering, but not an integer when an odd number of tricks is played,
and scores are integers; the difference is twice that, exact, and zero-sum. With ``n``
tricks in all, a side that wins ``t`` of them scores ``2 * t - n``.

**Rank equivalence.** Cards of one hand and one suit with no card still in play between
them are the same card for the rest of the deal (:func:`sequences`): cards already
played do not separate them, cards of other hands (the current trick's included) do.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from zerosum.game import GameInfo, Player
from zerosum.games.bitboards import bit_indices

__all__ = [
    "CARDS",
    "CLUBS",
    "DECK",
    "DIAMONDS",
    "EAST",
    "HEARTS",
    "NORTH",
    "NOTRUMP",
    "RANKS",
    "SOUTH",
    "SPADES",
    "SUIT_MASKS",
    "SUIT_OF",
    "WEST",
    "CardPlayRules",
    "State",
    "card",
    "equivalent_groups",
    "legal_cards",
    "make",
    "random_hands",
    "result",
    "sequences",
    "trick_winner",
]

SPADES = 0
"""Spades, the highest suit; also the strain spades are trumps."""
HEARTS = 1
"""Hearts."""
DIAMONDS = 2
"""Diamonds."""
CLUBS = 3
"""Clubs, the lowest suit."""
NOTRUMP = 4
"""The strain without trumps."""

NORTH = 0
"""North, who plays with south for player 0."""
EAST = 1
"""East, who plays with west for player 1."""
SOUTH = 2
"""South."""
WEST = 3
"""West."""

RANKS = 13
"""Cards in a suit; a card's rank is 0 (the two) to 12 (the ace)."""
CARDS = 52
"""Cards in the deck."""
DECK = (1 << CARDS) - 1
"""Every card."""

SUIT_MASKS = tuple(((1 << RANKS) - 1) << RANKS * suit for suit in range(4))
"""``SUIT_MASKS[suit]``: every card of ``suit``."""
SUIT_OF = tuple(c // RANKS for c in range(CARDS))
"""``SUIT_OF[card]``: the suit of ``card``, looked up rather than divided on the hot path."""

State = tuple[tuple[int, ...], int, tuple[int, ...], int, int, int]
"""A position: ``(hands, seat, trick, won0, won1, trump)``, the cards each seat holds,
the seat to play, the cards played to the current trick from its leader on, the tricks
won by side 0 and by side 1, and the trump suit (:data:`NOTRUMP` for none)."""


def card(suit: int, rank: int) -> int:
    """Return the card of ``suit`` (0 spades .. 3 clubs) and ``rank`` (0 two .. 12 ace)."""
    return RANKS * suit + rank


def make(
    hands: Sequence[int],
    leader: int,
    trump: int,
    trick: Sequence[int] = (),
    won: tuple[int, int] = (0, 0),
) -> State:
    """Return the state with these ``hands``, the current trick led by ``leader`` holding
    the cards ``trick`` (already gone from the hands), ``won`` tricks and ``trump``;
    unchecked (the notation layer checks what people write)."""
    seat = (leader + len(trick)) % len(hands)
    return (tuple(hands), seat, tuple(trick), won[0], won[1], trump)


def trick_winner(trick: Sequence[int], trump: int) -> int:
    """Return the index in ``trick`` (cards from the leader on) of the card that wins it:
    the highest trump if any was played, else the highest card of the suit led."""
    best = trick[0]
    at = 0
    for i in range(1, len(trick)):
        played = trick[i]
        suit = SUIT_OF[played]
        if suit == SUIT_OF[best]:
            if played > best:
                best, at = played, i
        elif suit == trump:
            best, at = played, i
    return at


def legal_cards(state: State) -> int:
    """Return the set of cards the seat to play may play: its cards of the suit led when
    it has any, else all its cards."""
    hand = state[0][state[1]]
    trick = state[2]
    if trick:
        follow = hand & SUIT_MASKS[SUIT_OF[trick[0]]]
        if follow:
            return follow
    return hand


def result(state: State, played: int) -> State:
    """Return the state after the seat to play plays ``played``; unchecked."""
    hands, seat, trick, won0, won1, trump = state
    seats = len(hands)
    after = (*hands[:seat], hands[seat] ^ 1 << played, *hands[seat + 1 :])
    trick = (*trick, played)
    if len(trick) < seats:
        return (after, seat + 1 if seat + 1 < seats else 0, trick, won0, won1, trump)
    # the last card of the trick: the seat after it is the one that led
    winner = (seat + 1 + trick_winner(trick, trump)) % seats
    if winner & 1:
        return (after, winner, (), won0, won1 + 1, trump)
    return (after, winner, (), won0 + 1, won1, trump)


def sequences(hand: int, others: int) -> list[int]:
    """Return the cards of ``hand`` in groups of equivalent cards, each a set of cards,
    suit by suit from spades, and in a suit from the highest group down.

    ``others`` is every other card still in play (the other hands' and the cards on the
    table): two cards of ``hand`` are equivalent when no card of ``others`` lies between
    them in their suit, so that playing one or the other makes no difference to the rest
    of the deal."""
    groups = []
    for mask in SUIT_MASKS:
        mine = hand & mask
        if not mine:
            continue
        live = mine | others & mask
        group = 0
        while live:
            top = 1 << live.bit_length() - 1
            live ^= top
            if top & mine:
                group |= top
            elif group:
                groups.append(group)
                group = 0
        if group:
            groups.append(group)
    return groups


def equivalent_groups(state: State) -> list[int]:
    """Return the legal cards of ``state`` in groups of equivalent cards (see
    :func:`sequences`): the other hands and the cards on the table are what separates
    them."""
    hands, seat, trick = state[0], state[1], state[2]
    others = 0
    for other, hand in enumerate(hands):
        if other != seat:
            others |= hand
    for played in trick:
        others |= 1 << played
    return sequences(legal_cards(state), others)


def random_hands(rng: random.Random, seats: int, size: int) -> tuple[int, ...]:
    """Return ``seats`` hands of ``size`` cards each, dealt by ``rng`` from a shuffled
    deck (the cards left over are out of play)."""
    deck = list(range(CARDS))
    rng.shuffle(deck)
    return tuple(sum(1 << c for c in deck[size * s : size * (s + 1)]) for s in range(seats))


class CardPlayRules:
    """The card play of bridge as a :class:`~zerosum.game.Game`: fast and unchecked.

    ``start`` is the position play starts from and ``info`` the game's metadata. The
    checked layer (deals, cards, strains and seats in and out, pictures) is added by
    :class:`~zerosum.games.bridge.TwoPlayerBridge` and
    :class:`~zerosum.games.bridge.DoubleDummy`."""

    info: GameInfo
    start: State

    def __init__(self, start: State, info: GameInfo) -> None:
        self.start = start
        self.info = info

    def initial_state(self) -> State:
        """Return the position play starts from: the deal, the leader and the trump."""
        return self.start

    def to_move(self, state: State) -> Player:
        """Return the side of the seat to play: 0 (north-south, or the first player) or 1."""
        return state[1] & 1

    def actions(self, state: State) -> list[int]:
        """Return the cards the seat to play may play, lowest card number first."""
        return bit_indices(legal_cards(state))

    def result(self, state: State, action: int) -> State:
        """Return the state after ``action`` (a card); unchecked."""
        return result(state, action)

    def is_terminal(self, state: State) -> bool:
        """Tell whether every card has been played."""
        return not any(state[0])

    def utility(self, state: State, player: Player) -> int:
        """Return the difference in tricks for ``player``: its side's tricks minus the
        other side's."""
        difference = state[3] - state[4]
        return difference if player == 0 else -difference

    def key(self, state: State) -> int:
        """Return the whole position as one int: the hands, the cards on the table, the
        tricks won, the trump and the seat to play."""
        hands, seat, trick, won0, won1, trump = state
        packed = 0
        for hand in hands:
            packed = packed << CARDS | hand
        for played in trick:
            packed = packed << 6 | played + 1
        return ((packed << 6 | len(trick)) << 8 | won0 << 4 | won1) << 5 | trump << 2 | seat

    def score_bounds(self, state: State) -> tuple[int, int]:
        """Return bounds on the final difference in tricks for the side to move: the
        difference so far, give or take every trick still to play (the seat to play
        holds one card per trick left, the current one included)."""
        hands, seat, _, won0, won1, _ = state
        left = hands[seat].bit_count()
        difference = won1 - won0 if seat & 1 else won0 - won1
        return difference - left, difference + left
