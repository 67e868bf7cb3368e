"""endplay (PyPI, MIT, bundling Bo Haglund's DDS) as the tests' double-dummy oracle: our
positions as its deals, its cards and tables as ours. Importing this module skips the
importing test (or test module) when endplay is not installed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from zerosum.games.bridge import State
from zerosum.games.bridge.notation import card_name, format_deal

endplay_types = pytest.importorskip(
    "endplay.types", reason="endplay is the double-dummy oracle: pip install endplay"
)
endplay_dds = pytest.importorskip("endplay.dds")


def endplay_deal(state: State) -> Any:
    """Our state as an endplay Deal: the trick's cards back in their hands, then played."""
    hands, seat, trick, _, _, trump = state
    leader = (seat - len(trick)) % 4
    held = list(hands)
    for offset, played in enumerate(trick):
        held[(leader + offset) % 4] |= 1 << played
    deal = endplay_types.Deal(format_deal(held))
    deal.trump = endplay_types.Denom(trump)
    deal.first = endplay_types.Player(leader)
    for played in trick:
        deal.play(endplay_types.Card(card_name(played)))
    return deal


def our_card(card: Any) -> int:
    """An endplay card as our card number: its Denom is our suit, its Rank a bit mask
    with bit r for rank r (2 .. 14)."""
    return 13 * int(card.suit) + int(card.rank).bit_length() - 3


def dds_card_values(state: State, mode: Any = None) -> dict[int, int]:
    """DDS's tricks for the side to move after each legal card of ``state`` (every card,
    or as ``mode``, a ``SolveMode``, asks)."""
    deal = endplay_deal(state)
    solved = endplay_dds.solve_board(deal) if mode is None else endplay_dds.solve_board(deal, mode)
    return {our_card(card): tricks for card, tricks in solved}


def dds_table(hands: Sequence[int]) -> list[list[int]]:
    """DDS's double-dummy table of ``hands`` as ours: ``[strain][declarer]``, strains S H D
    C N. DDS counts the tricks of a deal's missing cards (fewer than 13 a hand) as
    declarer's, as if won (measured: a 4-card deal's entries run 9 to 13), so they are
    taken off."""
    found = endplay_dds.calc_dd_table(endplay_types.Deal(format_deal(hands)))
    missing = 13 - hands[0].bit_count()
    return [
        [
            found[endplay_types.Denom(strain), endplay_types.Player(seat)] - missing
            for seat in range(4)
        ]
        for strain in range(5)
    ]
