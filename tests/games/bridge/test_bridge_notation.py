"""Bridge's checked layer: cards, strains and seats read in their usual forms, deals and
positions read back what is written, every bad input raises the project's errors
naming it, the game's options, and the picture of the table."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerosum.game import (
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    ZerosumError,
)
from zerosum.games import registry
from zerosum.games.bridge import DoubleDummy, State, TwoPlayerBridge
from zerosum.games.bridge.notation import (
    card_name,
    format_deal,
    parse_card,
    parse_deal,
    parse_seat,
    parse_strain,
)
from zerosum.games.bridge.rules import CARDS, NOTRUMP, make

DEAL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
GAME = DoubleDummy(DEAL, trump="S", leader="N")
TWO = TwoPlayerBridge("AKQ.J.. JT9.Q..", trump="H", leader=1)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("SA", "SA"),
        ("sa", "SA"),
        (" HT ", "HT"),
        ("H10", "HT"),
        ("h10", "HT"),
        ("10H", "HT"),
        ("AS", "SA"),
        ("♠A", "SA"),
        ("♥q", "HQ"),
        ("♦2", "D2"),
        ("♣K", "CK"),
        ("C2", "C2"),
    ],
)
def test_cards_read_in_the_usual_forms(text: str, name: str) -> None:
    card = parse_card(text)
    assert card is not None and card_name(card) == name


def test_every_card_reads_back() -> None:
    assert [parse_card(card_name(c)) for c in range(CARDS)] == list(range(CARDS))
    assert card_name(0) == "S2" and card_name(12) == "SA" and card_name(51) == "CA"


@pytest.mark.parametrize("text", ["", "S", "A", "S1", "S11", "X5", "SAS", "S 10", "T10", "SS"])
def test_text_that_is_no_card(text: str) -> None:
    assert parse_card(text) is None


def test_strains_and_seats() -> None:
    assert [parse_strain(t) for t in ("S", "h", "D", "c", "N", "NT", "nt", "♠")] == [
        0,
        1,
        2,
        3,
        NOTRUMP,
        NOTRUMP,
        NOTRUMP,
        0,
    ]
    assert parse_strain("X") is None and parse_strain("") is None
    assert [parse_seat(t, 4) for t in ("N", "e", "South", "WEST")] == [0, 1, 2, 3]
    assert parse_seat("X", 4) is None and parse_seat("0", 4) is None
    assert [parse_seat(t, 2) for t in ("0", "1", "first", "Second")] == [0, 1, 0, 1]
    assert parse_seat("N", 2) is None and parse_seat("2", 2) is None


def test_a_deal_reads_from_any_first_seat() -> None:
    hands = parse_deal(DEAL)
    rotated = "E:873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3 QJ6.K652.J85.T98"
    assert parse_deal(rotated) == hands
    assert format_deal(hands) == DEAL
    assert parse_deal("N:AK.-.-.- QJ.-.-.- T9... 87...") == parse_deal("N:AK... QJ... T9... 87...")
    assert format_deal(parse_deal("N:AK... QJ... T9... 87...")) == "N:AK... QJ... T9... 87..."
    assert parse_deal("N:A10... K9... Q8... J7...") == parse_deal("N:AT... K9... Q8... J7...")


@st.composite
def positions(draw: st.DrawFn, seats: int) -> State:
    """A random position: a random deal of 0-13 cards a hand, a few random cards in."""
    size = draw(st.integers(0, 13))
    deck = draw(st.permutations(range(CARDS)))
    hands = [sum(1 << c for c in deck[size * s : size * (s + 1)]) for s in range(seats)]
    leader = draw(st.integers(0, seats - 1))
    state = make(hands, leader, draw(st.integers(0, 4)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    game = DoubleDummy() if seats == 4 else TwoPlayerBridge()
    for _ in range(draw(st.integers(0, seats * size))):
        state = game.result(state, rng.choice(game.actions(state)))
    return state


@given(positions(4))
def test_double_dummy_positions_read_back(state: State) -> None:
    text = GAME.format_state(state)
    assert GAME.parse_state(text) == state


@given(positions(2))
def test_two_player_positions_read_back(state: State) -> None:
    assert TWO.parse_state(TWO.format_state(state)) == state


@given(positions(4))
def test_deals_read_back_from_every_first_seat(state: State) -> None:
    hands = state[0]
    if len({hand.bit_count() for hand in hands}) == 1:
        words = format_deal(hands)[2:].split(" ")
        for first in range(4):
            text = "NESW"[first] + ":" + " ".join(words[first:] + words[:first])
            assert parse_deal(text) == hands


@given(st.text(max_size=80))
def test_arbitrary_text_raises_only_our_errors(text: str) -> None:
    for read in (
        lambda: parse_deal(text),
        lambda: parse_deal(text, 2),
        lambda: GAME.parse_state(text),
        lambda: TWO.parse_state(text),
        lambda: GAME.parse_move(GAME.initial_state(), text),
    ):
        with contextlib.suppress(ZerosumError):
            read()


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3", "starts with"),
        ("X:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3", "starts with"),
        ("N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652", "it has 3 hands, not 4"),
        ("N:QJ6.K652.J85 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3", "has 3 suits"),
        ("N:QJ6.K652.J85.T9x 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3", "'x' among"),
        ("N:QJ6.K652.J85.T91 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3", "'1' among"),
        ("N:QQ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3", "SQ twice"),
        ("N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ2", "C2 is in more"),
        ("N:QJ6.K652.J85.T98 - K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3", "unknown"),
        ("N:QJ6.K652.J85.T9 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3", "as many cards"),
        ("N:" + "x" * 2000, "longer than 1,024 characters"),
    ],
)
def test_bad_deals_name_the_input(text: str, why: str) -> None:
    with pytest.raises(InvalidStateError) as error:
        parse_deal(text)
    message = str(error.value)
    assert why in message and message.startswith(repr(text[:40]))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("AKQJT98765432.A.. 2.AKQJT98765432..", "holds 14 cards, more than 13"),
        ("N:AK... QJ...", "the two-hand game's deal is two hands"),
        ("AK... QJ... T9...", "it has 3 hands, not 2"),
    ],
)
def test_bad_two_hand_deals_name_the_input(text: str, why: str) -> None:
    with pytest.raises(InvalidStateError, match="is not a deal") as error:
        parse_deal(text, 2)
    assert why in str(error.value)


MIDDLE = "N:J6.K652.J85.T98 87.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3 trump=S lead=N"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (DEAL + " trump=X", "trump='X' is not a strain"),
        (DEAL + " lead=Q", "lead='Q' is not a seat (N, E, S or W)"),
        (DEAL + " leader=N", "unknown field 'leader=N'"),
        (DEAL + " trump=S trump=H", "the field trump= is given twice"),
        (DEAL + " tricks=1", "tricks='1' is not the tricks of each side"),
        (DEAL + " tricks=1-2", "1 + 2 tricks won and 13 to play make more than 13"),
        (MIDDLE + " trick=SQ", "North should hold 11 cards with 1 on the table, not 12"),
        (MIDDLE + " trick=SQSQ", "holds SQ twice"),
        (MIDDLE + " trick=SQx", "is not cards written one after another"),
        (MIDDLE + " trick=SQS3D2C2", "the trick holds 4 cards"),
        (MIDDLE + " trick=SJS3", "SJ is both on the table and in a hand"),
        (
            "N:J6.K652.J85.T98 873.J97.AT76.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3 lead=N trick=SQD4",
            "East played D4 to a spade lead while holding spades",
        ),
        ("N:... ... ... ... lead=W trick=S2", "the seat to play has no card"),
        ("N:AK... QJ... T9... trump=N", "it has 3 hands, not 4"),
        ("N:AK... QJ... T9... 8... trump=N", "West should hold 2 cards with 0 on the table, not 1"),
        (DEAL + " " + "x" * 2000, "longer than 1,024 characters"),
    ],
)
def test_bad_positions_name_the_input(text: str, why: str) -> None:
    with pytest.raises(InvalidStateError) as error:
        GAME.parse_state(text)
    message = str(error.value)
    assert why in message and "is not a bridge position" in message
    assert message.startswith(repr(text[:40]))


def test_two_hand_positions_name_their_seats() -> None:
    with pytest.raises(InvalidStateError, match=r"lead='W' is not a seat \(0 or 1\)"):
        TWO.parse_state("AKQ.J.. JT9.Q.. lead=W")
    with pytest.raises(InvalidStateError, match="player 0 should hold 2 cards with 1 on the"):
        TWO.parse_state("KQ.J.. T9.Q.. lead=0 trick=SA")
    state = TWO.parse_state("KQ.J.. JT9.Q.. lead=0 trick=SA")
    assert TWO.to_move(state) == 1 and state[2] == (parse_card("SA"),)


def test_a_position_with_a_trick_and_tricks_won() -> None:
    text = MIDDLE + " trick=SQS3 tricks=0-0"
    state = GAME.parse_state(text)
    assert state[1] == 2 and state[2] == (parse_card("SQ"), parse_card("S3"))
    assert GAME.format_state(state) == MIDDLE + " trick=SQS3"
    # without trump= and lead=, the game's own
    assert GAME.parse_state(DEAL) == GAME.initial_state()
    assert GAME.parse_state(DEAL + " lead=W trump=n tricks=0-0")[1:] == ((3, (), 0, 0, NOTRUMP))


def test_moves_name_the_input_and_the_position() -> None:
    state = GAME.initial_state()
    with pytest.raises(InvalidMoveError, match=r"'hello' is not a card .* in N:QJ6"):
        GAME.parse_move(state, "hello")
    with pytest.raises(IllegalMoveError, match=r"'SA' is not legal in N:QJ6.*North does not hold"):
        GAME.parse_move(state, "SA")
    led = GAME.result(state, GAME.parse_move(state, "HK"))
    with pytest.raises(IllegalMoveError, match="East must follow suit to the hearts led"):
        GAME.parse_move(led, "S3")
    with pytest.raises(IllegalMoveError, match="player 1 does not hold it"):
        TWO.parse_move(TWO.initial_state(), "SA")
    end = GAME.parse_state("N:... ... ... ... lead=W tricks=7-6")
    assert GAME.is_terminal(end) and GAME.utility(end, 1) == -1
    with pytest.raises(IllegalMoveError, match="every card has been played"):
        GAME.parse_move(end, "SA")
    with pytest.raises(InvalidMoveError, match="is not a card"):
        GAME.parse_move(state, "S" * 100)


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ({"trump": "X"}, "option trump='X' of game 'bridge-dd': use S, H, D, C or N"),
        ({"leader": "Q"}, "option leader='Q' of game 'bridge-dd': use N, E, S or W"),
        ({"leader": 2}, "option leader='2' of game 'bridge-dd'"),
        ({"cards": 0}, "option cards=0 of game 'bridge-dd': use 1 to 13"),
        ({"cards": 14}, "option cards=14"),
        ({"seed": -1}, "option seed=-1"),
        ({"seed": "x"}, "option seed='x'"),
        ({"seed": 1, "deal": DEAL}, "takes a deal or a seed, not both"),
    ],
)
def test_bad_options_raise_invalid_game(options: dict[str, object], why: str) -> None:
    with pytest.raises(InvalidGameError) as error:
        DoubleDummy(**options)  # type: ignore[arg-type]
    assert why in str(error.value)


def test_the_two_player_game_s_options() -> None:
    with pytest.raises(InvalidGameError, match="option leader='W' of game 'bridge': use 0 or 1"):
        TwoPlayerBridge(leader="W")
    with pytest.raises(InvalidStateError, match="is not a deal"):
        TwoPlayerBridge(deal=DEAL)
    game = TwoPlayerBridge("AKQ.J.. JT9.Q..", trump="H", leader="second")
    assert game.initial_state()[1] == 1 and game.initial_state()[5] == 1


def test_the_picture_of_the_table() -> None:
    picture = GAME.render(GAME.initial_state()).splitlines()
    assert picture[0].strip() == "North" and picture[1].strip() == "S QJ6"
    assert picture[5].split() == ["West", "East"]
    assert picture[6].split() == ["S", "AT942", "S", "873"]
    assert picture[10].strip() == "South" and picture[14].strip() == "C A7652"
    assert picture[-2:] == [
        "spades are trumps; tricks won: north-south 0, east-west 0",
        "North to lead",
    ]
    state = GAME.parse_state(MIDDLE + " trick=SQS3")
    assert GAME.render(state).splitlines()[-2:] == [
        "on the table: North SQ, East S3",
        "South to play",
    ]
    void = GAME.render(GAME.parse_state("N:A... K... Q... J... trump=N lead=W")).splitlines()
    assert void[2].strip() == "H -" and void[-2].startswith("no trump")
    two = TWO.render(TWO.initial_state()).splitlines()
    assert two[0] == "player 1" and two[1] == "S JT9" and two[5] == "player 0"
    assert two[-1] == "player 1 to lead"
    end = GAME.render(GAME.parse_state("N:... ... ... ... lead=W tricks=7-6")).splitlines()
    assert end[-1] == "every card has been played"


def test_every_move_shown_reads_back() -> None:
    rng = random.Random(2)
    for game in (GAME, TWO, DoubleDummy(seed=5)):
        state = game.initial_state()
        while not game.is_terminal(state):
            for move in game.actions(state):
                assert game.parse_move(state, game.format_move(state, move)) == move
            state = game.result(state, rng.choice(game.actions(state)))


def test_the_registry_makes_both_games() -> None:
    two = registry.make("bridge")
    assert isinstance(two, TwoPlayerBridge) and two.info.name == "bridge"
    assert not two.info.alternating and not two.info.win_loss
    assert two.info.utility_range == (-13, 13)
    four = registry.make(f"bridge-dd:deal={DEAL},trump=S,leader=N")
    assert isinstance(four, DoubleDummy) and four.info.players == ("north-south", "east-west")
    assert four.initial_state() == GAME.initial_state()
    small = registry.make("bridge-dd:seed=7,cards=4,leader=E", untrusted=True)
    assert [h.bit_count() for h in small.initial_state()[0]] == [4, 4, 4, 4]
    assert registry.make("bridge:leader=1,seed=3").initial_state()[1] == 1
    with pytest.raises(InvalidGameError, match="option cards=52 of game 'bridge': use 1 to 13"):
        registry.make("bridge:cards=52", untrusted=True)
    with pytest.raises(InvalidStateError, match="is not a deal"):
        registry.make("bridge-dd:deal=N:AK... QJ...")
