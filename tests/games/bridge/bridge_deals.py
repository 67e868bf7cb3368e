"""Deals the bridge tests make: deals alike, which share the double-dummy search's table
keys, so that its entries are asked about positions other than those that stored them."""

from __future__ import annotations

import random


def alike_deal(hands: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    """A deal with as many cards of each suit in each hand as ``hands``, the ranks drawn
    at random: such deals share the search's table keys."""
    dealt = [0] * len(hands)
    for suit in range(4):
        lengths = [(hand >> 13 * suit & 0x1FFF).bit_count() for hand in hands]
        ranks = rng.sample(range(13), sum(lengths))
        for seat, length in enumerate(lengths):
            for rank in ranks[:length]:
                dealt[seat] |= 1 << 13 * suit + rank
            ranks = ranks[length:]
    return tuple(dealt)
