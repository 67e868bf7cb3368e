"""The double-dummy solver on DDS's test deals (``../shared/data/bridge/dds_list100.txt``)
cut to endings of 5 to 8 cards a hand by replaying their real play
(:func:`~zerosum.games.bridge.ddsfile.replay`): the published ``TRACE`` values along the
played cards of the last tricks, and, against DDS itself through endplay (the oracle),
the double-dummy table of each ending (as DDS's ``TABLE``) and the value of every card
the leader of the ending may play (as DDS's ``FUT``). A sample of deals runs here in
seconds, and so does every published value (``TABLE``, ``FUT``, ``TRACE``) of three
whole deals with the compiled solver; ``bench/bridge_data.py`` checks them all."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import shared_data
from zerosum import kernels
from zerosum.games.bitboards import bit_indices
from zerosum.games.bridge import DoubleDummy, State
from zerosum.games.bridge.ddsfile import DdsDeal, load_dds_file, replay
from zerosum.games.bridge.rules import make, result
from zerosum.games.bridge.solver import DoubleDummySolver, dd_table

TRACE_SAMPLE = {5: 12, 6: 8, 7: 6, 8: 4}
"""Cards a hand in the endings whose published values are checked, and how many deals
(spread over the file) for each: enough to run in seconds on the shared machine."""

DDS_SAMPLE = {5: 12, 6: 6, 7: 3, 8: 1}
"""The same for the tables and the card values checked against DDS."""


@pytest.fixture(scope="module")
def deals() -> list[DdsDeal]:
    return load_dds_file(shared_data("bridge", "dds_list100.txt"))


@pytest.fixture(scope="module")
def dds() -> Any:
    """The endplay oracle (:mod:`endplay_oracle`), or the test skipped saying how to get
    endplay."""
    import endplay_oracle

    return endplay_oracle


def _reaching(deals: list[DdsDeal], cards: int, count: int) -> list[DdsDeal]:
    """``count`` deals spread over the file whose real play reaches the ending of
    ``cards`` cards a hand (``cards`` 1: whose trace runs to the last trick)."""
    long_enough = [deal for deal in deals if len(deal.play) >= 4 * (13 - cards)]
    step = max(1, len(long_enough) // count)
    return long_enough[::step][:count]


def test_the_replay_is_the_real_play_read_card_by_card(deals: list[DdsDeal]) -> None:
    for deal in deals:
        game = DoubleDummy(deal.pbn, trump="SHDCN"[deal.trump], leader="NESW"[deal.leader])
        state = game.initial_state()
        positions = replay(deal)
        assert positions[0] == state and len(positions) == len(deal.play) + 1
        for card, after in zip(deal.play, positions[1:], strict=True):
            state = game.result(state, game.parse_move(state, game.format_move(state, card)))
            assert after == state, deal.line


def _declarer_tricks(solver: DoubleDummySolver, state: State, declaring: int) -> int:
    """The tricks the declaring side has at the end with best play from ``state`` on,
    those already won counted, as ``TRACE`` gives them."""
    hands, seat, _, won0, won1, _ = state
    left = hands[seat].bit_count()
    tricks = solver.tricks(state)  # for the side to move, from the current trick on
    ours = tricks if seat & 1 == declaring else left - tricks
    return (won1 if declaring else won0) + ours


@pytest.mark.parametrize("cards", sorted(TRACE_SAMPLE))
def test_the_published_trace_of_the_last_tricks(deals: list[DdsDeal], cards: int) -> None:
    checked = 0
    for deal in _reaching(deals, 1, TRACE_SAMPLE[cards]):
        positions = replay(deal)
        solver = DoubleDummySolver(deal.trump)
        declaring = 1 - (deal.leader & 1)
        for played in range(4 * (13 - cards), len(deal.trace)):
            found = _declarer_tricks(solver, positions[played], declaring)
            assert found == deal.trace[played], (deal.line, played)
            checked += 1
    # the trace stops at the last trick's start: 4 * cards - 3 values of each ending
    assert checked == TRACE_SAMPLE[cards] * (4 * cards - 3)


@pytest.mark.parametrize("cards", sorted(DDS_SAMPLE))
def test_the_table_of_each_ending_is_dds_s(deals: list[DdsDeal], dds: Any, cards: int) -> None:
    for deal in _reaching(deals, cards, DDS_SAMPLE[cards]):
        hands = replay(deal)[4 * (13 - cards)][0]
        assert dd_table(hands) == dds.dds_table(hands), deal.line


@pytest.mark.parametrize("cards", sorted(DDS_SAMPLE))
def test_every_card_of_each_ending_s_lead_is_valued_as_dds_does(
    deals: list[DdsDeal], dds: Any, cards: int
) -> None:
    for deal in _reaching(deals, cards, DDS_SAMPLE[cards]):
        state = replay(deal)[4 * (13 - cards)]
        values = DoubleDummySolver(deal.trump).card_values(state)
        ours = {
            card: value.tricks
            for value in values
            for card in bit_indices(1 << value.card | value.equals)
        }
        theirs = dds.dds_card_values(state)
        assert ours == theirs, deal.line
        assert values[0].tricks == max(theirs.values())


WHOLE_SAMPLE = 3
"""Whole deals (13 cards a hand, spread over the file) whose every published value the
compiled solver checks here: a few seconds each."""


@pytest.mark.skipif(not kernels.available(), reason="whole deals need the compiled solver (numba)")
def test_whole_deals_give_every_published_table_fut_and_trace_value(
    deals: list[DdsDeal],
) -> None:
    for deal in _reaching(deals, 1, WHOLE_SAMPLE):
        assert [list(row) for row in deal.table] == dd_table(deal.hands), deal.line
        start = make(deal.hands, deal.leader, deal.trump)
        solver = DoubleDummySolver(deal.trump)
        for lead in deal.leads:
            # after the lead the other side is to move, with all 13 tricks to come
            assert 13 - solver.tricks(result(start, lead.card)) == lead.tricks, deal.line
        declaring = 1 - (deal.leader & 1)
        for played, state in enumerate(replay(deal)[: len(deal.trace)]):
            found = _declarer_tricks(solver, state, declaring)
            assert found == deal.trace[played], (deal.line, played)
