"""An independent double-dummy solver for the tests, written on the rules as bridge
books state them rather than on zerosum's bit sets: cards are (suit, rank) pairs with
the rank 2..14, a hand is a set of them, a trick is settled by comparing strengths, and
side 0 maximises the tricks it takes while side 1 minimises them. It knows nothing of
zerosum's card numbers, states or searches.
"""

from __future__ import annotations

from functools import cache

Card = tuple[int, int]
"""(suit, rank): suit 0 spades .. 3 clubs, rank 2 .. 14 (the ace)."""


def winner(trick: tuple[Card, ...], trump: int) -> int:
    """The index of the card that wins ``trick`` (from the leader on)."""
    led = trick[0][0]

    def strength(card: Card) -> tuple[int, int]:
        suit, rank = card
        return (2 if suit == trump else 1 if suit == led else 0, rank)

    return max(range(len(trick)), key=lambda i: strength(trick[i]))


def side_zero_tricks(
    hands: tuple[frozenset[Card], ...], leader: int, trump: int, trick: tuple[Card, ...] = ()
) -> int:
    """The tricks side 0 (seats 0 and 2) takes from the current trick on, both sides
    playing best, by exhaustive search; ``trick`` holds the cards already played to the
    current trick by ``leader`` and the seats after it."""
    seats = len(hands)

    @cache
    def value(hands: tuple[frozenset[Card], ...], leader: int, trick: tuple[Card, ...]) -> int:
        seat = (leader + len(trick)) % seats
        hand = hands[seat]
        if not hand:
            return 0
        follow = [c for c in hand if trick and c[0] == trick[0][0]]
        results = []
        for card in follow or hand:
            held = (*hands[:seat], hand - {card}, *hands[seat + 1 :])
            played = (*trick, card)
            if len(played) < seats:
                results.append(value(held, leader, played))
            else:
                won_by = (leader + winner(played, trump)) % seats
                results.append((won_by % 2 == 0) + value(held, won_by, ()))
        return max(results) if seat % 2 == 0 else min(results)

    return value(hands, leader, trick)
