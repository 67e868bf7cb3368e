"""DDS's test deals (``../shared/data/bridge/dds_list100.txt``): every deal read, its PBN
parsed, its published lead groups matched by our rank equivalence, its real play
replayed by our rules, and the published double-dummy values of its last tricks matched
by plain minimax; and the file reader's errors."""

from __future__ import annotations

import pytest

from conftest import shared_data
from zerosum.game import InvalidStateError
from zerosum.games.bridge import DoubleDummy, State
from zerosum.games.bridge.ddsfile import DdsDeal, load_dds_file, read_dds_file
from zerosum.games.bridge.notation import format_deal, format_hand, parse_deal
from zerosum.games.bridge.rules import DECK, sequences
from zerosum.search.reference import minimax

ENDING_CARDS = 40
"""Cards played before the endings solved here: 3 cards a hand are left."""


@pytest.fixture(scope="module")
def deals() -> list[DdsDeal]:
    return load_dds_file(shared_data("bridge", "dds_list100.txt"))


def _game(deal: DdsDeal) -> DoubleDummy:
    return DoubleDummy(deal.pbn, trump="SHDCN"[deal.trump], leader="NESW"[deal.leader])


def test_every_deal_is_read(deals: list[DdsDeal]) -> None:
    assert len(deals) == 100
    first = deals[0]
    assert first.pbn == "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
    assert (first.trump, first.leader, first.dealer, first.vulnerability) == (0, 0, 0, 0)
    assert first.table[0] == (5, 8, 5, 8) and first.table[4] == (6, 6, 6, 6)
    assert first.par2 == ("-110", "2S-EW")
    assert len(first.play) == 45 and first.trace[:2] == (8, 8)


def test_every_pbn_deal_parses_to_four_hands_of_thirteen(deals: list[DdsDeal]) -> None:
    for deal in deals:
        hands = parse_deal(deal.pbn)
        assert hands == deal.hands
        assert [hand.bit_count() for hand in hands] == [13, 13, 13, 13]
        assert hands[0] | hands[1] | hands[2] | hands[3] == DECK
        seat, _, rest = deal.pbn.partition(":")
        first = "NESW".index(seat)
        # each hand is where the PBN text puts it: clockwise from the seat named
        assert [format_hand(hands[(first + i) % 4]) for i in range(4)] == rest.split()
        assert parse_deal(format_deal(hands)) == hands


def test_the_published_lead_groups_are_our_equivalent_cards(deals: list[DdsDeal]) -> None:
    for deal in deals:
        hand = deal.hands[deal.leader]
        others = DECK ^ hand
        ours = set(sequences(hand, others))
        published = {1 << lead.card | lead.equals for lead in deal.leads}
        assert ours == published, deal.line
        # the card DDS names is the highest of its group
        assert all(lead.equals < 1 << lead.card for lead in deal.leads)


def test_the_published_results_agree_with_each_other(deals: list[DdsDeal]) -> None:
    for deal in deals:
        best_lead = max(lead.tricks for lead in deal.leads)
        declarer = (deal.leader + 3) % 4  # the opening leader sits on declarer's left
        assert deal.table[deal.trump][declarer] == 13 - best_lead == deal.trace[0], deal.line
        assert len(deal.trace) == min(len(deal.play), 48) + 1


def _replay(game: DoubleDummy, deal: DdsDeal) -> list[State]:
    """The states along the deal's real play, read card by card as a person types them."""
    state = game.initial_state()
    states = [state]
    for card in deal.play:
        state = game.result(state, game.parse_move(state, game.format_move(state, card)))
        states.append(state)
    return states


def test_every_real_play_is_legal_and_its_tricks_add_up(deals: list[DdsDeal]) -> None:
    for deal in deals:
        game = _game(deal)
        states = _replay(game, deal)  # a wrong trick winner makes a later card unheld
        end = states[-1]
        if len(deal.play) == 52:
            assert game.is_terminal(end)
        assert end[3] + end[4] == len(deal.play) // 4
        for state in states:
            assert game.parse_state(game.format_state(state)) == state


def _declarer_tricks(game: DoubleDummy, state: State, declaring: int) -> int:
    """The tricks the declaring side takes in the whole deal from ``state`` on, with
    best play, counting those it has won: from the plain minimax value."""
    score = minimax(game, state).score
    difference = score if game.to_move(state) == 0 else -score
    # difference = won0 - won1 in the end, and won0 + won1 = 13
    side_zero = (13 + difference) // 2
    return side_zero if declaring == 0 else 13 - side_zero


def test_the_published_values_of_the_last_tricks_by_minimax(deals: list[DdsDeal]) -> None:
    checked = 0
    for deal in deals:
        if len(deal.trace) <= ENDING_CARDS:
            continue
        game = _game(deal)
        states = _replay(game, deal)
        declaring = 1 - (deal.leader & 1)
        for played in range(ENDING_CARDS, len(deal.trace)):
            found = _declarer_tricks(game, states[played], declaring)
            assert found == deal.trace[played], (deal.line, played)
            checked += 1
    assert checked > 400


def test_the_published_values_of_four_card_endings_by_minimax(deals: list[DdsDeal]) -> None:
    sample = [deal for deal in deals if len(deal.trace) > 36][:4]
    for deal in sample:
        game = _game(deal)
        state = _replay(game, deal)[36]
        declaring = 1 - (deal.leader & 1)
        assert _declarer_tricks(game, state, declaring) == deal.trace[36], deal.line


GOOD = """NUMBER 1
PBN 0 0 0 0 "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
FUT 2 2 3 5 10 0 768 5 5
TABLE 5 8 5 8 6 6 6 6 5 7 5 7 7 5 7 5 6 6 6 6
PAR "NS -110" "EW 110"
PAR2 "-110" "2S-EW"
PLAY 2 "CTC4"
TRACE 3 8 8 8
"""


def test_a_small_file_reads() -> None:
    (deal,) = read_dds_file(GOOD)
    assert [lead.tricks for lead in deal.leads] == [5, 5]
    assert deal.leads[1].equals == 1 << 46 | 1 << 45  # C9 and C8 with the ten
    assert deal.par == ("NS -110", "EW 110") and deal.play == (47, 41)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("NUMBER 1", ""), "starts with NUMBER"),
        (("NUMBER 1", "NUMBER 2"), "the file says 2 deals, but it holds 1"),
        (("NUMBER 1", "NUMBER x"), "line 1: 'NUMBER x' should hold only integers"),
        (("TRACE 3", "TRICKS 3"), "line 8: 'TRICKS 3 8 8 8' is not a DDS test line"),
        (("PAR2 ", "PAR "), "line 6: a second PAR line for one deal"),
        (('PLAY 2 "CTC4"\n', ""), "line 2: the deal there has no PLAY line"),
        (("FUT 2", "FUT 3"), "should hold a count n and then 4 x n numbers"),
        (("FUT 2 2 3", "FUT 2 2 7"), "suit 7, rank 10 is not a card"),
        (("TABLE 5 8", "TABLE 8"), "should hold 20 numbers"),
        (('PBN 0 0 0 0 "N:', 'PBN 0 0 9 0 "N:'), "names no such seat or strain"),
        (('PBN 0 0 0 0 "N:', 'PBN 0 0 0 "N:'), "is not PBN dealer vul trump first"),
        (("N:QJ6.", "N:QQ6."), "is not a deal: hand 'QQ6.K652.J85.T98' holds SQ twice"),
        (('PLAY 2 "CTC4"', 'PLAY 3 "CTC4"'), "should hold 3 cards, each suit and rank"),
        (('PLAY 2 "CTC4"', 'PLAY 2 "CTX4"'), "should hold 2 cards, each suit and rank"),
        (('PLAY 2 "CTC4"', 'PLAY 2 "CTC4'), "has an unclosed quote"),
        (("TRACE 3 8 8 8", "TRACE 4 8 8 8"), "should hold a count n and then 1 x n numbers"),
    ],
)
def test_malformed_files_raise_naming_the_line(edit: tuple[str, str], message: str) -> None:
    old, new = edit
    assert old in GOOD
    with pytest.raises(InvalidStateError) as error:
        read_dds_file(GOOD.replace(old, new, 1))
    assert message in str(error.value)
