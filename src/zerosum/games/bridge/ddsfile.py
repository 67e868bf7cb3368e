"""Reading the test files of DDS, Bo Haglund and Soren Hein's double-dummy solver
(repository dds-bridge/dds, ``hands/list*.txt``): deals with their double-dummy results.

A file starts with ``NUMBER n`` and holds ``n`` deals, each a block of lines:

* ``PBN dealer vul trump first "<deal>"``: the deal in PBN, the trump strain (0 spades ..
  3 clubs, 4 no trump) and the opening leader (0 north .. 3 west) of the solves below;
* ``FUT n suits... ranks... equals... scores...``: a solve of the opening lead, every
  card the leader may play as one of each group of equivalent cards (suit, rank 2 to
  14), the mask of the lower cards equivalent to it (bit ``r`` for rank ``r``) and the
  tricks the leader's side takes with best play after it;
* ``TABLE`` and 20 numbers: the tricks each declarer (north, east, south, west) takes in
  each strain (spades, hearts, diamonds, clubs, no trump);
* ``PAR`` and ``PAR2``: par scores and contracts, as quoted texts;
* ``PLAY k "<cards>"``: the first ``k`` cards of a real play of the deal;
* ``TRACE m t0 t1 ...``: the tricks the declaring side (the one not on lead) takes with
  best play before any card and after each card of the play, counting tricks won.

:func:`read_dds_file` turns such a text into :class:`DdsDeal` values in this package's
terms (cards, seats and strains as :mod:`.rules` numbers them); anything malformed
raises :class:`~zerosum.game.InvalidStateError` naming the line. :func:`replay` gives
the positions of a deal's real play, those the ``TRACE`` values are of, from which
endings are cut.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from zerosum.game import InvalidStateError, quoted
from zerosum.games.bridge.notation import parse_card, parse_deal
from zerosum.games.bridge.rules import RANKS, State, make, result

__all__ = ["DdsDeal", "Lead", "load_dds_file", "read_dds_file", "replay"]

_FIELDS = ("PBN", "FUT", "TABLE", "PAR", "PAR2", "PLAY", "TRACE")


@dataclass(frozen=True, slots=True)
class Lead:
    """One opening lead of a ``FUT`` line: the card, the set of lower cards of the same
    hand equivalent to it, and the tricks the leader's side takes after it."""

    card: int
    equals: int
    tricks: int


@dataclass(frozen=True, slots=True)
class DdsDeal:
    """One deal of a DDS test file and its published results.

    ``hands`` are north's, east's, south's and west's; ``trump`` the strain and
    ``leader`` the seat of the solves (``leads``, ``play``, ``trace``). ``table[strain]
    [declarer]`` is the tricks ``declarer`` takes in ``strain`` (strains spades ..
    clubs, no trump; declarers north .. west). ``par`` and ``par2`` are the quoted texts
    of the ``PAR`` and ``PAR2`` lines, ``play`` the cards of the real play and ``trace``
    the declaring side's tricks before it and after each of its cards."""

    line: int
    pbn: str
    dealer: int
    vulnerability: int
    hands: tuple[int, ...]
    trump: int
    leader: int
    leads: tuple[Lead, ...]
    table: tuple[tuple[int, ...], ...]
    par: tuple[str, ...]
    par2: tuple[str, ...]
    play: tuple[int, ...]
    trace: tuple[int, ...]


def replay(deal: DdsDeal) -> list[State]:
    """Return the positions of ``deal``'s real play, with its trump and opening leader:
    before the first card, then after each card of ``play``, so that ``trace[i]`` is
    the value of position ``i``, and position ``4 * (13 - n)`` the ending of ``n`` cards
    a hand. Unchecked: the published play is legal (the tests replay it checked)."""
    state = make(deal.hands, deal.leader, deal.trump)
    states = [state]
    for card in deal.play:
        state = result(state, card)
        states.append(state)
    return states


def load_dds_file(path: str | Path) -> list[DdsDeal]:
    """Read the DDS test file at ``path`` (see :func:`read_dds_file`)."""
    return read_dds_file(Path(path).read_text(encoding="utf-8"))


def read_dds_file(text: str) -> list[DdsDeal]:
    """Read the deals of a DDS test file's ``text``, in order.

    Raises :class:`InvalidStateError` naming the line for a line that cannot be read, a
    deal missing a line, or a count that disagrees with the numbers that follow it."""
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)]
    lines = [(number, line) for number, line in lines if line]
    if not lines or not lines[0][1].startswith("NUMBER"):
        raise InvalidStateError("a DDS test file starts with NUMBER and the count of deals")
    count = _integers(lines[0][0], lines[0][1], 1)[0]
    deals = []
    block: dict[str, tuple[int, str]] = {}
    for number, line in [*lines[1:], (0, "")]:
        field = line.split(maxsplit=1)[0] if line else ""
        if (not line or field == "PBN") and block:
            deals.append(_deal(block))
            block = {}
        if not line:
            break
        if field not in _FIELDS:
            raise InvalidStateError(f"line {number}: {quoted(line)} is not a DDS test line")
        if field in block:
            raise InvalidStateError(f"line {number}: a second {field} line for one deal")
        block[field] = (number, line)
    if len(deals) != count:
        raise InvalidStateError(f"the file says {count} deals, but it holds {len(deals)}")
    return deals


def _integers(number: int, line: str, count: int | None = None) -> list[int]:
    """The integers after a line's field name (``count`` of them when given)."""
    words = line.split()[1:]
    if not all(re.fullmatch(r"-?\d{1,9}", word) for word in words):
        raise InvalidStateError(f"line {number}: {quoted(line)} should hold only integers")
    values = [int(word) for word in words]
    if count is not None and len(values) != count:
        raise InvalidStateError(f"line {number}: {quoted(line)} should hold {count} numbers")
    return values


def _counted(number: int, line: str, per: int) -> list[int]:
    """The numbers of a line that starts with their count ``n`` and then holds ``per``
    numbers for each of the ``n``."""
    values = _integers(number, line)
    if not values or len(values) != 1 + per * values[0]:
        raise InvalidStateError(
            f"line {number}: {quoted(line)} should hold a count n and then {per} x n numbers"
        )
    return values[1:]


def _quoted_texts(number: int, line: str) -> list[str]:
    """The words of a line after its field name, quotes removed."""
    try:
        return shlex.split(line)[1:]
    except ValueError:
        raise InvalidStateError(f"line {number}: {quoted(line)} has an unclosed quote") from None


def _card(number: int, suit: int, rank: int) -> int:
    """A card from DDS's numbers: suit 0 spades .. 3 clubs, rank 2 .. 14."""
    if not (0 <= suit <= 3 and 2 <= rank <= 14):
        raise InvalidStateError(f"line {number}: suit {suit}, rank {rank} is not a card")
    return RANKS * suit + rank - 2


def _deal(block: dict[str, tuple[int, str]]) -> DdsDeal:
    """One deal from its lines, by field."""
    first = min(number for number, _ in block.values())
    missing = [field for field in _FIELDS if field not in block]
    if missing:
        raise InvalidStateError(f"line {first}: the deal there has no {missing[0]} line")
    number, line = block["PBN"]
    words = _quoted_texts(number, line)
    if len(words) != 5 or not all(word.isdecimal() for word in words[:4]):
        raise InvalidStateError(f"line {number}: {quoted(line)} is not PBN dealer vul trump first")
    dealer, vulnerability, trump, leader = (int(word) for word in words[:4])
    if dealer > 3 or trump > 4 or leader > 3:
        raise InvalidStateError(f"line {number}: {quoted(line)} names no such seat or strain")
    pbn = words[4]
    hands = parse_deal(pbn)

    number, line = block["FUT"]
    values = _counted(number, line, 4)
    n = len(values) // 4
    suits, ranks, equals, scores = (values[i * n : (i + 1) * n] for i in range(4))
    leads = []
    for suit, rank, mask, tricks in zip(suits, ranks, equals, scores, strict=True):
        lead = _card(number, suit, rank)
        same = sum(1 << _card(number, suit, r) for r in range(2, 15) if mask >> r & 1)
        leads.append(Lead(lead, same, tricks))

    number, line = block["TABLE"]
    numbers = _integers(number, line, 20)
    table = tuple(tuple(numbers[4 * strain : 4 * strain + 4]) for strain in range(5))

    number, line = block["PLAY"]
    words = _quoted_texts(number, line)
    if len(words) != 2 or not words[0].isdecimal():
        raise InvalidStateError(f'line {number}: {quoted(line)} is not PLAY k "cards"')
    cards = words[1]
    play = tuple(parse_card(cards[i : i + 2]) for i in range(0, len(cards), 2))
    if len(cards) % 2 or None in play or len(play) != int(words[0]):
        raise InvalidStateError(
            f"line {number}: {quoted(line)} should hold {words[0]} cards, each suit and rank"
        )

    number, line = block["TRACE"]
    trace = tuple(_counted(number, line, 1))
    return DdsDeal(
        line=first,
        pbn=pbn,
        dealer=dealer,
        vulnerability=vulnerability,
        hands=hands,
        trump=trump,
        leader=leader,
        leads=tuple(leads),
        table=table,
        par=tuple(_quoted_texts(*block["PAR"])),
        par2=tuple(_quoted_texts(*block["PAR2"])),
        play=tuple(c for c in play if c is not None),
        trace=trace,
    )
