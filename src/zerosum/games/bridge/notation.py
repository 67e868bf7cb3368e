"""The checked layer of bridge: cards, strains, seats, deals and positions in and out, and
a picture of the table.

Everything here is for people and files, not for the search: it checks, and bad input
raises :class:`~zerosum.game.InvalidMoveError` (text that is no card),
:class:`~zerosum.game.IllegalMoveError` (a card the rules forbid here) or
:class:`~zerosum.game.InvalidStateError` (a deal or position that cannot be read or
cannot exist), each naming the input and the position.

**Cards** are written suit then rank, ``SA``, ``HT``, ``D2`` (the form of PBN's play
section and of DDS's files), and read in either case, with the ten as ``T`` or ``10``,
the suit as a letter or a symbol (``♠A``), and rank first too (``AS``: no rank letter is
a suit letter).

**Strains** are ``S``, ``H``, ``D``, ``C`` and ``N`` (no trump; ``NT`` is read too).
**Seats** are ``N``, ``E``, ``S``, ``W``; the two players of the two-hand game are ``0``
and ``1`` (``first`` and ``second`` are read too).

**Deals** are PBN's: ``N:QJ6.K652.J85.T98 873.J97.AT764.Q4 ...``, the letter of the
first hand's seat, a colon, then the four hands clockwise from it, each as spades,
hearts, diamonds and clubs separated by dots, ranks ``AKQJT98765432``. A void is empty
as the PBN standard writes it (``-`` is read too); a whole hand cannot be left unknown.
The two-hand game's hands are two such hands, player 0's first, with no seat letter. In
a deal every hand holds the same number of cards, at most 13, and no card twice.

**Positions** are a deal of the cards still held followed by fields, each
``name=value``: ``trump=`` the strain, ``lead=`` the seat that leads the current trick,
``trick=`` the cards it has received so far from the leader on, written one after the
other (``trick=SKS3``), and ``tricks=`` the tricks won so far by each side, side 0's
first (``tricks=3-2``: north-south 3, east-west 2). The last two are left out while they
are empty; a position read without ``trump=`` or ``lead=`` takes the game's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from zerosum.game import IllegalMoveError, InvalidMoveError, InvalidStateError, quoted
from zerosum.games.bridge.rules import (
    NOTRUMP,
    RANKS,
    SUIT_MASKS,
    SUIT_OF,
    State,
    legal_cards,
    make,
)

__all__ = [
    "SEAT_NAMES",
    "STRAIN_NAMES",
    "card_name",
    "format_deal",
    "format_hand",
    "format_move",
    "format_state",
    "parse_card",
    "parse_deal",
    "parse_move",
    "parse_seat",
    "parse_state",
    "parse_strain",
    "render",
    "seat_name",
    "strain_name",
]

_RANK_LETTERS = "23456789TJQKA"
_SUIT_LETTERS = "SHDC"
_SUIT_SYMBOLS = {"♠": 0, "♤": 0, "♥": 1, "♡": 1, "♦": 2, "♢": 2, "♣": 3, "♧": 3}
_SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs", "no trump")

SEAT_NAMES = ("north", "east", "south", "west")
"""The seats of the four-hand game, by number."""
STRAIN_NAMES = ("S", "H", "D", "C", "N")
"""The strains as written, by number: the four suits, then no trump."""

_SEATS_READ = {"N": 0, "E": 1, "S": 2, "W": 3} | {
    name.upper(): seat for seat, name in enumerate(SEAT_NAMES)
}
_PLAYERS_READ = {"0": 0, "1": 1, "FIRST": 0, "SECOND": 1}
_STRAINS_READ = {letter: strain for strain, letter in enumerate(STRAIN_NAMES)} | {
    "NT": NOTRUMP,
    **_SUIT_SYMBOLS,
}
_CARD = re.compile(
    r"(?P<suit>[SHDC♠♤♥♡♦♢♣♧])(?P<rank>10|[2-9TJQKA])|(?P<rank2>10|[2-9TJQKA])(?P<suit2>[SHDC])",
    re.IGNORECASE,
)
_MAX_TEXT = 1024  # a 52-card deal with every field is well under 200 characters
_MAX_HAND = 13


def card_name(card: int) -> str:
    """Return the name of ``card``: suit then rank, ``SA`` for the ace of spades."""
    return _SUIT_LETTERS[SUIT_OF[card]] + _RANK_LETTERS[card % RANKS]


def _rank(text: str) -> int | None:
    """The rank (0 two .. 12 ace) a rank's text (``A``, ``t``, ``10``) names, or ``None``."""
    letter = "T" if text == "10" else text.upper()
    index = _RANK_LETTERS.find(letter) if len(letter) == 1 else -1
    return None if index < 0 else index


def _suit(letter: str) -> int:
    """The suit a suit letter or symbol (as :data:`_CARD` matched it) names."""
    found = _SUIT_SYMBOLS.get(letter)
    return found if found is not None else _SUIT_LETTERS.index(letter.upper())


def parse_card(text: str) -> int | None:
    """Read a card (``SA``, ``s10``, ``♠A``, ``AS``); ``None`` if ``text`` is not one."""
    match = _CARD.fullmatch(text.strip())
    if match is None:
        return None
    suit = match["suit"] or match["suit2"]
    rank = _rank(match["rank"] or match["rank2"])
    return None if rank is None else RANKS * _suit(suit) + rank


def strain_name(strain: int) -> str:
    """Return the letter of ``strain``: ``S``, ``H``, ``D``, ``C`` or ``N``."""
    return STRAIN_NAMES[strain]


def parse_strain(text: str) -> int | None:
    """Read a strain (``S``, ``h``, ``N``, ``NT``, ``♠``); ``None`` if ``text`` is not one."""
    return _STRAINS_READ.get(text.strip().upper())


def seat_name(seat: int, seats: int) -> str:
    """Return how a seat is written: ``N``, ``E``, ``S``, ``W`` of four, ``0``, ``1`` of two."""
    return "NESW"[seat] if seats == 4 else str(seat)


def parse_seat(text: str, seats: int) -> int | None:
    """Read a seat of a ``seats``-hand game (``W``, ``west``; ``0``, ``first``); ``None``
    if ``text`` names none."""
    table = _SEATS_READ if seats == 4 else _PLAYERS_READ
    return table.get(text.strip().upper())


def _who(seat: int, seats: int) -> str:
    """A seat in a sentence: ``West``, or ``player 1``."""
    return SEAT_NAMES[seat].capitalize() if seats == 4 else f"player {seat}"


def format_hand(hand: int) -> str:
    """Write a hand as PBN does: ``QJ6.K652.J85.T98``, highest card first, a void empty."""
    suits = []
    for suit, mask in enumerate(SUIT_MASKS):
        ranks = (hand & mask) >> RANKS * suit
        suits.append("".join(_RANK_LETTERS[r] for r in range(RANKS - 1, -1, -1) if ranks >> r & 1))
    return ".".join(suits)


def _parse_hand(text: str) -> int | str:
    """A hand's set of cards, or why ``text`` is not a hand."""
    if text == "-":
        return "a hand is unknown ('-'): every hand must be given"
    parts = text.split(".")
    if len(parts) != 4:
        return f"hand {quoted(text)} has {len(parts)} suits, not 4 (spades.hearts.diamonds.clubs)"
    hand = 0
    for suit, part in enumerate(parts):
        if part == "-":
            continue
        for letter in re.findall(r"10|.", part):
            rank = _rank(letter)
            if rank is None:
                return (
                    f"hand {quoted(text)} has {quoted(letter)} among the "
                    f"{_SUIT_WORDS[suit]}, not a rank (AKQJT98765432)"
                )
            bit = 1 << RANKS * suit + rank
            if hand & bit:
                return f"hand {quoted(text)} holds {card_name(RANKS * suit + rank)} twice"
            hand |= bit
    return hand


def _check_hands(hands: Sequence[int]) -> str | None:
    """Why these hands cannot be held at once (a card twice, a hand too big), or ``None``."""
    seen = 0
    for seat, hand in enumerate(hands):
        if hand.bit_count() > _MAX_HAND:
            return f"{_who(seat, len(hands))} holds {hand.bit_count()} cards, more than 13"
        twice = seen & hand
        if twice:
            first = (twice & -twice).bit_length() - 1
            return f"{card_name(first)} is in more than one hand"
        seen |= hand
    return None


def _read_hands(text: str, seats: int) -> tuple[int, ...] | str:
    """The hands of a deal's text, seat 0 first (any sizes), or why it is not a deal."""
    if seats == 4:
        first_text, colon, rest = text.partition(":")
        first = parse_seat(first_text, 4) if colon else None
        if first is None or len(first_text.strip()) != 1:
            return "a PBN deal starts with the first hand's seat and a colon (N:, E:, S:, W:)"
        words = rest.split()
    else:
        if ":" in text:
            return "the two-hand game's deal is two hands, player 0's first, without a seat"
        first = 0
        words = text.split()
    if len(words) != seats:
        return f"it has {len(words)} hands, not {seats}"
    hands = [0] * seats
    for offset, word in enumerate(words):
        hand = _parse_hand(word)
        if isinstance(hand, str):
            return hand
        hands[(first + offset) % seats] = hand
    problem = _check_hands(hands)
    return problem if problem is not None else tuple(hands)


def parse_deal(text: str, seats: int = 4) -> tuple[int, ...]:
    """Read a deal: a PBN deal of four hands (``N:QJ6.K652.J85.T98 873.J97.AT764.Q4
    ...``), or with ``seats=2`` two hands, player 0's first. Returns the hands, seat 0
    (north) first.

    Raises :class:`InvalidStateError` naming the text for bad characters, a hand of
    other than four suits, a card held twice, or hands of different sizes."""
    if len(text) > _MAX_TEXT:
        raise InvalidStateError(
            f"{quoted(text)} is not a deal: longer than {_MAX_TEXT:,} characters"
        )
    hands = _read_hands(text.strip(), seats)
    if isinstance(hands, str):
        raise InvalidStateError(f"{quoted(text)} is not a deal: {hands}")
    counts = [hand.bit_count() for hand in hands]
    if len(set(counts)) > 1:
        sizes = ", ".join(f"{_who(s, seats)} {n}" for s, n in enumerate(counts))
        raise InvalidStateError(
            f"{quoted(text)} is not a deal: every hand must hold as many cards ({sizes})"
        )
    return hands


def format_deal(hands: Sequence[int]) -> str:
    """Write hands as a deal: PBN's ``N:...`` for four hands, two hands as they are."""
    written = " ".join(format_hand(hand) for hand in hands)
    return f"N:{written}" if len(hands) == 4 else written


def format_state(state: State) -> str:
    """Write ``state``: the deal of the cards still held, then ``trump=``, ``lead=``, and
    ``trick=`` and ``tricks=`` when there is something to say."""
    hands, seat, trick, won0, won1, trump = state
    seats = len(hands)
    leader = (seat - len(trick)) % seats
    fields = [format_deal(hands), f"trump={strain_name(trump)}", f"lead={seat_name(leader, seats)}"]
    if trick:
        fields.append("trick=" + "".join(card_name(c) for c in trick))
    if won0 or won1:
        fields.append(f"tricks={won0}-{won1}")
    return " ".join(fields)


def parse_state(text: str, seats: int, trump: int, leader: int) -> State:
    """Read a position written by :func:`format_state`, for a game of ``seats`` hands;
    ``trump`` and ``leader`` stand in for fields the text leaves out.

    Raises :class:`InvalidStateError` naming the text for anything that cannot be read
    and for a position that cannot arise: hands whose sizes do not match the trick, a
    card both held and on the table, a card on the table that failed to follow suit
    while its player still holds the suit, more than 13 tricks."""

    def bad(why: str) -> InvalidStateError:
        return InvalidStateError(f"{quoted(text)} is not a bridge position: {why}")

    if len(text) > _MAX_TEXT:
        raise bad(f"longer than {_MAX_TEXT:,} characters")
    words = text.split()
    split = next((i for i, word in enumerate(words) if "=" in word), len(words))
    hands = _read_hands(" ".join(words[:split]), seats)
    if isinstance(hands, str):
        raise bad(hands)
    fields: dict[str, str] = {}
    for word in words[split:]:
        name, _, value = word.partition("=")
        name = name.lower()
        if name not in ("trump", "lead", "trick", "tricks"):
            raise bad(f"unknown field {quoted(word)}; the fields are trump, lead, trick, tricks")
        if name in fields:
            raise bad(f"the field {name}= is given twice")
        fields[name] = value
    if "trump" in fields:
        found = parse_strain(fields["trump"])
        if found is None:
            raise bad(f"trump={quoted(fields['trump'])} is not a strain (S, H, D, C or N)")
        trump = found
    if "lead" in fields:
        found = parse_seat(fields["lead"], seats)
        if found is None:
            names = "N, E, S or W" if seats == 4 else "0 or 1"
            raise bad(f"lead={quoted(fields['lead'])} is not a seat ({names})")
        leader = found
    trick = _read_trick(fields.get("trick", ""), bad)
    won = _read_tricks(fields.get("tricks", "0-0"), bad)
    _check_trick(hands, leader, trick, bad)
    left = hands[(leader + len(trick)) % seats].bit_count()
    if won[0] + won[1] + left > _MAX_HAND:
        raise bad(f"{won[0]} + {won[1]} tricks won and {left} to play make more than 13")
    return make(hands, leader, trump, trick, won)


_Bad = Callable[[str], InvalidStateError]
"""Makes the error that names the text being read, from the reason."""


def _read_trick(text: str, bad: _Bad) -> tuple[int, ...]:
    """The cards of a ``trick=`` field."""
    cards: list[int] = []
    at = 0
    while at < len(text):
        match = _CARD.match(text, at)
        found = None if match is None else parse_card(match[0])
        if match is None or found is None:
            raise bad(f"trick={quoted(text)} is not cards written one after another (SKS3)")
        if found in cards:
            raise bad(f"trick={quoted(text)} holds {card_name(found)} twice")
        cards.append(found)
        at = match.end()
    return tuple(cards)


def _read_tricks(text: str, bad: _Bad) -> tuple[int, int]:
    """The two counts of a ``tricks=`` field."""
    first, dash, second = text.partition("-")
    if not (dash and first.isdecimal() and second.isdecimal() and len(first + second) <= 4):
        raise bad(f"tricks={quoted(text)} is not the tricks of each side (3-2)")
    return int(first), int(second)


def _check_trick(hands: tuple[int, ...], leader: int, trick: tuple[int, ...], bad: _Bad) -> None:
    """Raise ``bad(why)`` when the hands cannot hold what they do with this trick on the
    table: the trick is complete, a card is both held and played, the sizes do not
    match, or a card did not follow suit while its seat still holds the suit."""
    seats = len(hands)
    if len(trick) >= seats:
        raise bad(f"the trick holds {len(trick)} cards; a complete trick is already won")
    held = 0
    for hand in hands:
        held |= hand
    for played in trick:
        if held >> played & 1:
            raise bad(f"{card_name(played)} is both on the table and in a hand")
    size = hands[(leader + len(trick)) % seats].bit_count()
    if trick and not size:
        raise bad("a card is on the table, but the seat to play has no card")
    for offset in range(seats):
        seat = (leader + offset) % seats
        want = size - 1 if offset < len(trick) else size
        if hands[seat].bit_count() != want:
            counts = ", ".join(
                f"{_who(s, seats)} {hand.bit_count()}" for s, hand in enumerate(hands)
            )
            raise bad(
                f"{_who(seat, seats)} should hold {want} cards with "
                f"{len(trick)} on the table, not {hands[seat].bit_count()} ({counts})"
            )
    if trick:
        led = SUIT_OF[trick[0]]
        for offset in range(1, len(trick)):
            seat = (leader + offset) % seats
            if SUIT_OF[trick[offset]] != led and hands[seat] & SUIT_MASKS[led]:
                raise bad(
                    f"{_who(seat, seats)} played {card_name(trick[offset])} to a "
                    f"{_SUIT_WORDS[led][:-1]} lead while holding {_SUIT_WORDS[led]}"
                )


def format_move(state: State, move: int) -> str:
    """Write ``move`` (a card): ``SA``."""
    return card_name(move)


def parse_move(state: State, text: str) -> int:
    """Read ``text`` as a card the seat to play may play in ``state``.

    Raises :class:`InvalidMoveError` for text that names no card and
    :class:`IllegalMoveError` for a card the seat does not hold or may not play (it
    must follow suit), or when every card has been played."""
    found = parse_card(text) if len(text) <= 16 else None
    if found is None:
        raise InvalidMoveError(
            f"{quoted(text)} is not a card (suit then rank: SA, HT, D10) in {format_state(state)}"
        )
    hands, seat, trick = state[0], state[1], state[2]
    if not legal_cards(state) >> found & 1:
        who = _who(seat, len(hands))
        if not any(hands):
            why = "every card has been played"
        elif not hands[seat] >> found & 1:
            why = f"{who} does not hold it"
        else:
            led = _SUIT_WORDS[SUIT_OF[trick[0]]]
            why = f"{who} must follow suit to the {led} led"
        raise IllegalMoveError(f"{quoted(text)} is not legal in {format_state(state)}: {why}")
    return found


def _suit_lines(hand: int) -> list[str]:
    """A hand as four lines, one per suit: ``S QJ6``, with ``-`` for a void."""
    parts = format_hand(hand).split(".")
    return [f"{_SUIT_LETTERS[suit]} {part or '-'}" for suit, part in enumerate(parts)]


def render(state: State) -> str:
    """Draw the table: with four hands north on top, west left, east right and south at
    the bottom; with two, player 1 on top and player 0 at the bottom. Below: the trump,
    the cards on the table, the tricks won and the seat to play."""
    hands, seat, trick, won0, won1, trump = state
    seats = len(hands)
    rows: list[str] = []
    pad = " " * 12
    if seats == 4:
        rows += [pad + "North", *(pad + line for line in _suit_lines(hands[0]))]
        rows.append(f"{'West':<24}East")
        rows += [
            f"{west:<24}{east}"
            for west, east in zip(_suit_lines(hands[3]), _suit_lines(hands[1]), strict=True)
        ]
        rows += [pad + "South", *(pad + line for line in _suit_lines(hands[2]))]
        sides = f"north-south {won0}, east-west {won1}"
    else:
        rows += ["player 1", *_suit_lines(hands[1]), "player 0", *_suit_lines(hands[0])]
        sides = f"player 0 {won0}, player 1 {won1}"
    trumps = "no trump" if trump == NOTRUMP else f"{_SUIT_WORDS[trump]} are trumps"
    rows.append(f"{trumps}; tricks won: {sides}")
    leader = (seat - len(trick)) % seats
    if trick:
        played = ", ".join(
            f"{_who((leader + i) % seats, seats)} {card_name(c)}" for i, c in enumerate(trick)
        )
        rows.append(f"on the table: {played}")
    if not any(hands):
        rows.append("every card has been played")
    else:
        rows.append(f"{_who(seat, seats)} to {'play' if trick else 'lead'}")
    return "\n".join(rows)
