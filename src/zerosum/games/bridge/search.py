"""The double-dummy search: a dedicated search of bridge card play with partition search,
after Matthew Ginsberg's GIB (partition search, 1996) and Bo Haglund's DDS.

:class:`PartitionSearch` answers one question at a time, "does the side of the seat to
play take at least ``t`` tricks from the current trick on?", by a depth-first search of
the cards with:

* **one card per group of equivalent cards** (:func:`~.rules.sequences`), the groups
  ordered by :func:`order_groups`;
* **a table of tricks to come** kept at the start of each trick: a position is the
  number of cards each seat holds in each suit and the seat on lead, and an entry holds
  bounds on the tricks the leader's side takes *from there on*, so that positions
  differing only in the tricks already won, or in cards already played, share it;
* **partition search**: each answer comes with the cards whose ranks decided it (the
  winners of tricks won by rank, the top cards a quick-trick bound counted, and the
  card played for a group of equivalent cards that reaches up among those, since
  where that card is held otherwise the group splits), and the
  table entry keeps, suit by suit, only who holds each card from the top down to the
  lowest of those. Any position with the same suit lengths and the same holders of
  those cards has the same answer (the same strategy, the smaller cards played in their
  place, wins the same tricks), so one entry answers many positions;
* **quick tricks** (:func:`sure_tricks`, and partner's ruff) as a lower bound and
  DDS's "later tricks" as an upper bound: the top trumps of an opponent, a trump
  stopper when the leader's side needs every trick, and without trumps the opponents'
  top cards in every suit the leader holds or too few rounds in the suits the side
  tops; each with the cards that decided it; and at the second hand the quick tricks
  of its side (the trick it surely wins, then its winners), DDS's too;
* **move ordering** (:func:`order_groups`), a leader's cards weighed after DDS's with
  the lead that last cut the search at the same trick raised (DDS's best move), and
  **no lower card of a suit** once one has failed below the lowest card the answer
  rested on in it (DDS's lowest winning rank: the answer would be the same);
* **the last trick played out** with no search.

What a trick's start offers is read once a position (:func:`_place`): suit by suit
from a record remembered by the suit's cards in every hand (:func:`_suit_part`: who
holds what, each hand's groups of equivalent cards, what it cashes), which also serves
the rest of the trick, since every seat holds at its turn what it held at the start.

Its scores are tricks still to come, never the final difference: the caller adds the
tricks already won (:class:`~.solver.DoubleDummySolver` does).
"""

from __future__ import annotations

import gc
import time
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

from zerosum.games.bridge.rules import NOTRUMP, RANKS, SUIT_MASKS, SUIT_OF, State, sequences
from zerosum.search.engine import Limits, SearchStopped, StopReason

__all__ = [
    "CUT_LEAD_RAISES",
    "PartitionSearch",
    "order_groups",
    "sure_tricks",
    "top_trumps",
]

_SUIT = (1 << RANKS) - 1
"""A suit's cards once shifted down: 13 bits."""

_ENTRIES_KEPT = 1 << 21
"""Table entries a search keeps at most; past this many the table starts again."""

_CARDS = (1 << 52) - 1
"""Every card: a card set's bits below a sort key's."""

_SUITS = (0, 1, 2, 3)
"""Every suit."""

_ONE_SUIT = ((0,), (1,), (2,), (3,))
"""``_ONE_SUIT[suit]``: that suit alone."""

_PLACES_KEPT = 1 << 18
"""Trick starts whose table key and bounds a search remembers (the questions of a solve
come back to the same positions); past this many the memory starts again."""

_HELD_SUITS = {
    seats: tuple(sum(mask << 52 * seat for seat in range(seats)) for mask in SUIT_MASKS)
    for seats in (2, 4)
}
"""``_HELD_SUITS[seats][suit]``: a suit's cards of every hand when ``seats`` hands are
one int, 52 bits a seat."""

_POLL_NODES = 1 << 12
"""How often (in nodes) a search with limits reads the clock and the stop signal."""


def _top(mask: int) -> int:
    """The highest bit of a non-empty ``mask``."""
    return 1 << mask.bit_length() - 1


def _top_cards(held: int, count: int) -> int:
    """The ``count`` highest cards of ``held``."""
    found = 0
    for _ in range(count):
        top = _top(held)
        held ^= top
        found |= top
    return found


def _above(held: int, theirs: int) -> tuple[int, int]:
    """How many cards of ``held`` are above every card of ``theirs`` (one suit), and
    those cards."""
    count = (held >> theirs.bit_length()).bit_count()
    return count, _top_cards(held, count)


def top_trumps(hands: Sequence[int], seat: int, trump: int) -> tuple[int, int]:
    """Return how many of ``seat``'s trumps are above every trump of its opponents, and
    those trumps (a card set): each wins the trick it is played to (only partner's
    trump can beat it), and ``seat`` plays each to a trick of its own, so its side
    takes at least that many tricks."""
    mask = SUIT_MASKS[trump]
    held = hands[seat] & mask
    if not held:
        return 0, 0
    theirs = hands[seat ^ 1] & mask
    if len(hands) == 4:
        theirs |= hands[seat ^ 3] & mask
    return _above(held, theirs)


def sure_tricks(hands: Sequence[int], seat: int, trump: int) -> tuple[int, int]:
    """Return tricks the side of ``seat`` is sure to take when ``seat`` leads a new
    trick, the most of three plans, each a strategy that wins that many tricks whatever
    the others do; with the cards whose ranks the plan counts on (a card set): any
    position with the same number of cards in each suit in each hand and the same
    holders of these cards and every higher one has the same plan.

    *Cashing*: ``seat`` leads its winners suit by suit from the top, and in a suit other
    than trumps no more rounds than the shortest holding of another hand that holds
    trumps (partner's too, whose ruff would take the lead), so that every round wins and
    ``seat`` keeps the lead; a hand that runs out of a suit and discards only makes the
    other suits better. In a suit it holds, it cashes its cards above all of the other
    hands' while they follow (as many as the longest of them holds, or as it holds
    above them), every card of it once theirs have run out. *Both hands' cashing*:
    ``seat`` cashes as above the suits in which partner cashes nothing and follows
    every round, then leads a suit in which partner cashes at least one round, and
    partner, on lead after winning it, cashes as above (that trick is partner's first
    round of the suit). *Top trumps*: a hand of the side holding ``k`` trumps above
    every trump of the opponents takes ``k`` tricks (:func:`top_trumps`)."""
    return _sure_tricks(_suits(hands), seat, trump)


def _suits(hands: Sequence[int]) -> tuple[tuple[Any, ...], ...]:
    """The four suits' records (:func:`_suit_part`) of ``hands``."""
    return tuple(
        _suit_part(tuple(hand >> RANKS * suit & _SUIT for hand in hands), RANKS * suit)
        for suit in _SUITS
    )


def _sure_tricks(records: tuple[tuple[Any, ...], ...], seat: int, trump: int) -> tuple[int, int]:
    """:func:`sure_tricks` from the suits' ``records`` (:func:`_suit_part`): the rounds
    ``seat`` and partner each cash suit by suit, in a side suit no more than the
    shortest holding of another hand holding trumps, read in one pass."""
    seats = len(records[0][4])
    mate = seat ^ 2 if seats == 4 else seat
    # the hands that could ruff a side suit: those holding trumps
    ruffers: Sequence[int] = ()
    if trump != NOTRUMP:
        ruffers = records[trump][15]
    total = 0
    relevant = 0
    cashing = [0, 0, 0, 0]
    theirs = [0, 0, 0, 0]
    their_total = 0
    their_ranks = 0
    crossing = False
    for suit in _SUITS:
        record = records[suit]
        cash = record[5]
        rounds = cash[seat]
        partner = cash[mate] if seats == 4 else 0
        if not (rounds or partner):
            continue
        lengths = record[4]
        if ruffers and suit != trump:
            for other in ruffers:
                length = lengths[other]
                # (compares, not min(): cheaper, and min() would not skip the seat)
                if other != seat and length < rounds:
                    rounds = length
                if other != mate and length < partner:
                    partner = length
        if rounds:
            cashing[suit] = rounds
            total += rounds
            relevant |= record[6][seat]
        if partner:
            theirs[suit] = partner
            their_total += partner
            their_ranks |= record[6][mate]
            if lengths[seat]:
                crossing = True
    if crossing:
        # first the suits only seat cashes, where partner follows every round (a
        # discard might be one of partner's winners), then partner's
        first = 0
        first_ranks = 0
        for suit, rounds in enumerate(cashing):
            if rounds and not theirs[suit] and records[suit][4][mate] >= rounds:
                first += rounds
                first_ranks |= relevant & SUIT_MASKS[suit]
        both = first + their_total
        if both > total:
            total, relevant = both, first_ranks | their_ranks
    if trump != NOTRUMP:
        record = records[trump]
        for member in (seat, mate) if seats == 4 else (seat,):
            count = record[7][member]
            if count > total:
                total, relevant = count, record[8][member]
        if not total and seats == 4:
            return _partner_ruff(records, seat, trump)
    return total, relevant


def _partner_ruff(records: tuple[tuple[Any, ...], ...], seat: int, trump: int) -> tuple[int, int]:
    """One trick for the side of ``seat`` (four hands, on lead) by partner's ruff, after
    DDS's quick tricks: ``seat`` leads a side suit partner is void in while partner
    holds trumps, and each opponent follows suit or holds no trump (then any trump of
    partner's wins), or partner's top trump is above every trump of the opponents;
    with the cards that decide it."""
    mate = seat ^ 2
    trump_record = records[trump]
    trump_lengths = trump_record[4]
    if not trump_lengths[mate]:
        return 0, 0
    lho, rho = (seat + 1) % 4, (seat + 3) % 4
    over = trump_record[7][mate]
    for suit in _SUITS:
        lengths = records[suit][4]
        if suit != trump and lengths[seat] and not lengths[mate]:
            if (lengths[lho] or not trump_lengths[lho]) and (
                lengths[rho] or not trump_lengths[rho]
            ):
                return 1, 0
            if over:
                return 1, _top(trump_record[8][mate])
    return 0, 0


def _later_tricks(records: tuple[tuple[Any, ...], ...], leader: int, trump: int) -> tuple[int, int]:
    """Tricks the side of ``leader``, on lead, is sure to lose, with the cards that
    decide it, from the suits' ``records`` (:func:`_suit_part`): the top trumps one
    opponent holds; when the leader's side holds no trump, one trick if an opponent
    holds the top card of every suit the leader holds (whatever is led, that opponent
    follows with it and wins: DDS's "later tricks")."""
    four = len(records[0][4]) == 4
    if trump != NOTRUMP:
        record = records[trump]
        most, relevant = 0, 0
        for other in (leader ^ 1, leader ^ 3) if four else (leader ^ 1,):
            count = record[7][other]
            if count > most:
                most, relevant = count, record[8][other]
        lengths = record[4]
        if most or lengths[leader] or (four and lengths[leader ^ 2]):
            if not most and four:
                return _trump_stopper(record, leader)
            return most, relevant
    relevant = 0
    for record in records:
        if record[4][leader]:
            if not (record[9] ^ leader) & 1:
                break
            relevant |= record[10]
    else:
        return 1, relevant
    if not four:
        return 0, 0
    # DDS's later tricks without trumps: a side that wins every trick leads every one,
    # never in a suit whose top card an opponent still holds, and a suit led by the
    # side runs to no more tricks than the longer of its two hands holds (each such
    # trick takes a card of the suit from it); so it cannot win every trick when the
    # suits whose top card it holds run to fewer tricks than are left. What decides
    # it: the top card of each suit an opponent tops (unless nobody else holds it)
    runs = 0
    left = 0
    relevant = 0
    for record in records:
        lengths = record[4]
        left += lengths[leader]
        holder = record[9]
        if holder < 0:
            continue
        if (holder ^ leader) & 1:
            if lengths[holder] < record[3]:
                relevant |= record[10]
        else:
            runs += max(lengths[holder], lengths[holder ^ 2])
    if runs < left:
        return 1, relevant
    return 0, 0


def _trump_stopper(record: tuple[Any, ...], leader: int) -> tuple[int, int]:
    """A trick the side of ``leader`` (four hands, its side holding the top trump, the
    trump suit's ``record``) cannot win if it is to win every trick (DDS's later
    tricks with trumps), with the cards that decide it: the second trump held by an
    opponent with another trump who plays after the top trump's holder (it wins,
    unless the top trump beats it, and then it is the top trump), or the second and
    third trumps both the opponents' (the top trump takes only one of them)."""
    count = record[3]
    if count < 2:
        return 0, 0
    code = record[0]
    first = code >> 2 * (count - 1) & 3
    second = code >> 2 * (count - 2) & 3
    if (second ^ leader) & 1 and record[4][second] > 1:
        if first == (second + 3) % 4:
            return 1, record[2][2]
        if count > 2 and (code >> 2 * (count - 3) & 3 ^ leader) & 1:
            return 1, record[2][3]
    return 0, 0


def order_groups(
    hands: Sequence[int], seat: int, trick: Sequence[int], trump: int, groups: Sequence[int]
) -> list[int]:
    """Return ``groups`` (of equivalent cards ``seat`` may play to ``trick``, the cards
    on the table from its leader on) most promising first.

    With four hands a leader weighs each card, after the move ordering of Bo Haglund's
    DDS: a suit in which the opponents hold fewer cards leaves them fewer choices (a
    smaller tree); a card that wins the trick (its own top card, or a suit in which
    partner's highest card beats the opponents', and in a trump contract no opponent
    ruffs it unless partner overruffs) comes first, the more so when the opponents'
    second card falls under it; leading up to the right-hand opponent's high card is
    discouraged, through the left-hand opponent's top card to partner's second card
    encouraged, as are suits in which the side holds the second and third cards, an
    opponent's bare top card, partner's ruff, and a singleton towards partner's winner
    for a ruff. With two hands a leader cashes its top cards (trumps first, side suits
    the opponent would ruff last) and otherwise leads its highest cards, trumps last.
    A follower takes the trick with the cheapest card no opponent still to play can
    beat, unless partner already holds it so (or, second to play, partner last will
    win it in the suit led); last to play it wins as cheaply as it can or plays low;
    and low cards (trumps last) come before wasted high ones, a discard from the
    longest side suit first."""
    if len(groups) < 2:
        return list(groups)
    if trick:
        return _follows(hands, seat, trick, trump, groups)
    if len(hands) == 4:
        return _leads(hands, seat, trump, groups)
    everyone = hands[0] | hands[1]
    ranked = []
    for group in groups:
        low = group & -group
        card = low.bit_length() - 1
        suit = SUIT_OF[card]
        if _top(everyone & SUIT_MASKS[suit]) & group:
            # a top card: cash it (trumps first), unless the opponent, void in a side
            # suit, ruffs it
            ruffed = trump not in (suit, NOTRUMP) and _opponent_ruffs(hands, seat, trump, suit)
            rank = 5 if ruffed else (0 if suit == trump else 2)
        else:
            rank = 7 if suit == trump else 5
        ranked.append((rank, -(card % RANKS) if rank != 7 else card % RANKS, group))
    ranked.sort()
    return [group for _, _, group in ranked]


def _second_hand(
    hands: Sequence[int], seat: int, led: int, trump: int, needed: int
) -> tuple[bool, int]:
    """Whether the side of ``seat``, second to play to a trick led with ``led`` (four
    hands), is sure to take ``needed`` tricks from this one on; with the cards whose
    ranks decide it (DDS's quick tricks at the second hand).

    The side wins this trick when the third hand cannot beat the card it wins it with,
    the highest card of the suit led of ``seat`` or of partner, or the highest trump of
    either one void in it, and the other one of the side can play under that card.
    Without trumps, the hand that wins it then cashes, suit by suit, its cards above
    every other hand's (all of a suit nobody else holds); with trumps, a hand of the
    side plays each of its trumps above the opponents' (see :func:`top_trumps`) to a
    trick of its own, the card it plays to this one aside."""
    suit = SUIT_OF[led]
    mask = SUIT_MASKS[suit]
    trumps = SUIT_MASKS[trump] if trump != NOTRUMP else 0
    third = hands[(seat + 1) % 4]
    follow = third & mask
    ruffs = third & trumps if not follow and suit != trump else 0
    mate = seat ^ 2
    # (the hand winning the trick, the card it wins with, the cards whose ranks win it)
    ways: list[tuple[int, int, int]] = []
    for member, other in ((seat, mate), (mate, seat)):
        held = hands[member]
        if held & mask:
            card = _top(held & mask)
            if card < 1 << led or card < follow or ruffs:
                continue
            ranks = card
        elif held & trumps and suit != trump:
            card = _top(held & trumps)
            if card < ruffs:
                continue
            ranks = card if ruffs else 0
        else:
            continue
        # the other one plays its cheapest card: it must not beat the winner's
        cheapest = _cheapest(hands[other], mask, trumps)
        if cheapest & trumps and not card & mask:
            if cheapest > card:
                continue
            ranks = card
        elif cheapest & mask and card & mask and cheapest > card:
            continue
        ways.append((member, card, ranks))
    if not ways:
        return False, 0
    if needed <= 1:
        return True, ways[0][2]
    rest = 0
    for hand in hands:
        rest |= hand
    for winner, card, ranks in ways:
        relevant = ranks
        tricks = 1
        if trump == NOTRUMP:
            held = hands[winner] ^ card
            others = rest ^ hands[winner]
            for suit_mask in SUIT_MASKS:
                mine = held & suit_mask
                if mine:
                    theirs = others & suit_mask
                    if not theirs:
                        tricks += mine.bit_count()
                    else:
                        cashed = (mine >> theirs.bit_length()).bit_count()
                        if cashed:
                            tricks += cashed
                            relevant |= _top_cards(mine, cashed)
        else:
            most, kept_ranks = 0, 0
            for member in (seat, mate):
                kept, tops = top_trumps(hands, member, trump)
                spent = card if member == winner else _cheapest(hands[member], mask, trumps)
                if spent & tops:
                    kept -= 1
                if kept > most:
                    most, kept_ranks = kept, tops
            tricks += most
            if (hands[seat ^ 1] | hands[seat ^ 3]) & trumps:
                # (when the opponents hold no trump every trump counts, whatever its rank)
                relevant |= kept_ranks
        if tricks >= needed:
            return True, relevant
    return False, 0


def _singles(held: int) -> list[int]:
    """The cards of ``held`` one by one, each a card set, the lowest first (the search
    without groups of equivalent cards)."""
    singles = []
    while held:
        low = held & -held
        singles.append(low)
        held ^= low
    return singles


def _cheapest(held: int, mask: int, trumps: int) -> int:
    """The card a hand holding ``held`` plays to a trick led in the suit of ``mask`` when
    it means to win nothing: its lowest card of that suit, else its lowest card outside
    ``trumps`` (trumps last)."""
    follow = held & mask
    if follow:
        return follow & -follow
    spare = held & ~trumps
    if spare:
        return spare & -spare
    return held & -held


def _leads(
    hands: Sequence[int], seat: int, trump: int, groups: Sequence[int], killer: int = 0
) -> list[int]:
    """A leader's ``groups`` (four hands), the most promising first: see
    :func:`order_groups`; the group holding ``killer`` (a card set, the lead that last
    cut the search at this trick) is raised as DDS raises its best move."""
    suits: list[list[int]] = []
    mask = 0
    for group in groups:
        if not group & mask:
            mask = SUIT_MASKS[SUIT_OF[(group & -group).bit_length() - 1]]
            suits.append([])
        suits[-1].append(group)
    return _ranked_leads(
        [_lead_keys(_lead_weights(hands, seat, trump, one), trump) for one in suits], killer
    )


_LEAD_ORDER = 52 + 6
"""Where a leader's sort key (:func:`_lead_keys`) holds the weight: above the group
(52 bits) and its place among the leads (the suit and its place in the suit, 6)."""

_LEAD_OFFSET = 1 << 12
"""Added to a lead's negated weight so that its sort key stays positive."""

CUT_LEAD_RAISES = ((126, 47), (55, 18))
"""The raise of the lead that last cut the search at the same trick (DDS's best move),
without trumps and with them: when it wins the trick, and when it does not."""


def _lead_keys(
    weights: Sequence[tuple[int, int, bool]], trump: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A suit's lead ``weights`` (:func:`_lead_weights`) as sort keys, one int each
    (the heavier first, then in the order given, the group in the low bits: sorting
    ints is cheaper than sorting tuples), and the same keys raised as the lead that
    last cut (DDS's best move: more when it wins the trick)."""
    winner_bonus, other_bonus = CUT_LEAD_RAISES[trump != NOTRUMP]
    keys = []
    raised = []
    for place, (weight, group, wins) in enumerate(weights):
        suit = SUIT_OF[(group & -group).bit_length() - 1]
        order = (suit << 4 | place) << 52 | group
        keys.append((_LEAD_OFFSET - weight) << _LEAD_ORDER | order)
        bonus = winner_bonus if wins else other_bonus
        raised.append((_LEAD_OFFSET - weight - bonus) << _LEAD_ORDER | order)
    return tuple(keys), tuple(raised)


def _ranked_leads(
    keys: Sequence[tuple[tuple[int, ...], tuple[int, ...]]], killer: int
) -> list[int]:
    """A leader's groups, the most promising first, from the sort keys of each suit's
    (:func:`_lead_keys`); the group holding ``killer`` raised."""
    ranked: list[int] = []
    killer_suit = SUIT_MASKS[SUIT_OF[killer.bit_length() - 1]] if killer else 0
    for suit_keys, raised in keys:
        if suit_keys[0] & killer_suit:
            ranked += [
                high if key & killer else key for key, high in zip(suit_keys, raised, strict=True)
            ]
        else:
            ranked += suit_keys
    ranked.sort()
    return [key & _CARDS for key in ranked]


def _search_leads(
    hands: Sequence[int],
    seat: int,
    trump: int,
    records: tuple[tuple[Any, ...], ...],
    killer: int,
) -> list[int]:
    """:func:`_leads` at a trick's start whose suits' records (:func:`_suit_part`) are
    ``records``: each suit's weights are remembered in its record, by what else they
    depend on (see :func:`_lead_weights`)."""
    mine = hands[seat]
    key = seat
    if trump != NOTRUMP:
        trumps = SUIT_MASKS[trump]
        partner = hands[seat ^ 2] & trumps
        lho = hands[(seat + 1) % 4] & trumps
        rho = hands[(seat + 3) % 4] & trumps
        key |= (
            (partner != 0)
            | (lho != 0) << 1
            | (rho != 0) << 2
            | (lho > partner) << 3
            | (rho > partner) << 4
            | (mine & trumps != 0) << 5
        ) << 2
    # the leader's length counts only in a suit an opponent is void in
    longer = key | mine.bit_count() << 8
    lho_seat = (seat + 1) % 4
    rho_seat = (seat + 3) % 4
    weights = []
    for record in records:
        lengths = record[4]
        if lengths[seat]:
            known = record[13]
            suit_key = key if lengths[lho_seat] and lengths[rho_seat] else longer
            suit_keys = known.get(suit_key)
            if suit_keys is None:
                suit_keys = known[suit_key] = _lead_keys(
                    _lead_weights(hands, seat, trump, record[11][seat]), trump
                )
            weights.append(suit_keys)
    return _ranked_leads(weights, killer)


def _lead_weights(
    hands: Sequence[int], seat: int, trump: int, groups: Sequence[int]
) -> tuple[tuple[int, int, bool], ...]:
    """The weights of a leader's ``groups``, all of one suit (four hands; see
    :func:`order_groups`), in their order: each the weight, the group and whether it
    wins the trick. They depend only on the suit's cards, the seat, its length and,
    with trumps, who holds trumps and whose top trump is higher than partner's (the
    search remembers them by those)."""
    if trump != NOTRUMP:
        return _trump_weights(hands, seat, trump, groups)
    mine = hands[seat]
    partner = hands[seat ^ 2]
    lho = hands[(seat + 1) % 4]
    rho = hands[(seat + 3) % 4]
    everyone = mine | partner | lho | rho
    void = mine.bit_count() + 1
    weights: list[tuple[int, int, bool]] = []
    mask = 0
    for group in groups:
        low = group & -group
        if not mask:
            # what the suit offers, read once for its groups
            mask = SUIT_MASKS[SUIT_OF[low.bit_length() - 1]]
            live = everyone & mask
            top = _top(live)
            rest = live ^ top
            second = _top(rest) if rest else 0
            rest ^= second
            third = _top(rest) if rest else 0
            left_length = (lho & mask).bit_count()
            right_length = (rho & mask).bit_count()
            ours = partner & mask
            # the opponents' cards of the suit are their choices: fewer, a smaller tree
            base = -7 * ((left_length or void) + (right_length or void))
            if not ours:
                base -= 9
            partner_wins = ours > (lho | rho) & mask
            if top & mine or partner_wins:
                # a winner: best when the opponents' second card falls under it
                winning = base
                if second & rho and right_length != 1:
                    winning -= 1
                elif second & lho:
                    winning += 22 if left_length != 1 else 16
                safe = (not second & lho or left_length == 1) and (
                    not second & rho or right_length == 1
                )
                winning += 45 if safe else 18
            losing = base
            if (top | second) & rho and right_length != 1:
                losing -= 10  # up to the right-hand opponent's high card
            elif top & lho and second & partner and ours.bit_count() != 1:
                losing += 31  # through the left-hand opponent's top to partner's second
            if second & partner and third & partner:
                losing += 35
            elif ours.bit_count() > 1 and (
                (second & mine and third & partner) or (second & partner and third & mine)
            ):
                losing += 25
            singleton = (left_length == 1 and top & lho) or (right_length == 1 and top & rho)
        rank = (live & (low - 1)).bit_count()
        if top & group or partner_wins:
            weight = winning + rank
        elif singleton:
            weight = losing + 28 + rank
        elif top & mine:
            weight = losing + rank - 17
        elif group == low:
            weight = losing + 12 + rank
        elif second & group:
            weight = losing + 48
        else:
            weight = losing + 29 - rank
        weights.append((weight, group, bool(top & group or partner_wins)))
    return tuple(weights)


def _trump_weights(
    hands: Sequence[int], seat: int, trump: int, groups: Sequence[int]
) -> tuple[tuple[int, int, bool], ...]:
    """:func:`_lead_weights` with trumps."""
    mine = hands[seat]
    partner = hands[seat ^ 2]
    lho = hands[(seat + 1) % 4]
    rho = hands[(seat + 3) % 4]
    everyone = mine | partner | lho | rho
    void = mine.bit_count() + 1
    trumps = SUIT_MASKS[trump]
    partner_trumps = partner & trumps
    left_trumps = lho & trumps
    right_trumps = rho & trumps
    weights: list[tuple[int, int, bool]] = []
    mask = 0
    for group in groups:
        low = group & -group
        if not mask:
            # what the suit offers, read once for its groups
            suit = SUIT_OF[low.bit_length() - 1]
            mask = SUIT_MASKS[suit]
            live = everyone & mask
            top = _top(live)
            rest = live ^ top
            second = _top(rest) if rest else 0
            rest ^= second
            third = _top(rest) if rest else 0
            left = lho & mask
            right = rho & mask
            ours = partner & mask
            side = suit != trump
            # the opponents' cards of the suit are their choices: fewer, a smaller tree
            base = -10 * ((left.bit_count() or void) + (right.bit_count() or void))
            left_ruffs = side and not left and left_trumps
            right_ruffs = side and not right and right_trumps
            if left_ruffs or right_ruffs:
                base -= 12
            partner_ruffs = side and not ours and partner_trumps
            if partner_ruffs and right:
                base += 17
            if (top | second) & rho:
                if right.bit_count() != 1:
                    base -= 12  # up to the right-hand opponent's high card
            elif top & lho and second & partner and ours.bit_count() != 1:
                base += 27  # through the left-hand opponent's top to partner's second
            singly = side and (mine & mask).bit_count() == 1 and mine & trumps
            if singly and top & partner and ours.bit_count() > 1:
                base += 19  # to partner's winner, for partner to give a ruff
            overruffed = (left_ruffs and left_trumps > partner_trumps) or (
                right_ruffs and right_trumps > partner_trumps
            )
            partner_high = ours > left | right
            cashes = not (left_ruffs or right_ruffs) or (partner_ruffs and not overruffed)
            losing = base
            if second & partner and third & partner:
                losing += 20
            elif ours.bit_count() > 1 and (
                (second & mine and third & partner) or (second & partner and third & mine)
            ):
                losing += 13
            singleton = (left.bit_count() == 1 and top & lho) or (
                right.bit_count() == 1 and top & rho
            )
        rank = (live & (low - 1)).bit_count()
        wins = cashes if top & group or partner_high else partner_ruffs and not overruffed
        if wins:
            if singleton:
                weight = base + 35 + rank
            elif top & mine:
                if second & partner:
                    weight = base + 48 + rank
                elif top & group:
                    weight = base + 31
                else:
                    weight = base + rank - 3
            elif top & partner:
                weight = base + (42 if second & mine else 28) + rank
            elif group != low and second & group:
                weight = base + 40
            else:
                weight = base + (22 if group != low else 11) + rank
        elif singleton:
            weight = losing + 2 + rank
        elif top & mine:
            if second & partner:
                weight = losing + 33 + rank
            elif top & group:
                weight = losing + 38
            else:
                weight = losing + rank - 14
        elif top & partner:
            weight = losing + 34 + rank
        elif group != low and second & group:
            weight = losing + 35
        else:
            weight = losing + 17 - (low.bit_length() - 1) % RANKS
        weights.append((weight, group, bool(wins)))
    return tuple(weights)


def _opponent_ruffs(hands: Sequence[int], seat: int, trump: int, suit: int) -> bool:
    """Whether an opponent of ``seat`` is void in ``suit`` and holds a trump."""
    for other, held in enumerate(hands):
        if (other ^ seat) & 1 and not held & SUIT_MASKS[suit] and held & SUIT_MASKS[trump]:
            return True
    return False


def _follows(
    hands: Sequence[int], seat: int, trick: Sequence[int], trump: int, groups: Sequence[int]
) -> list[int]:
    """A follower's groups, the most promising first (see :func:`order_groups`)."""
    best = trick[0]
    at = 0
    for i in range(1, len(trick)):
        played = trick[i]
        if SUIT_OF[played] == SUIT_OF[best]:
            if played > best:
                best, at = played, i
        elif SUIT_OF[played] == trump:
            best, at = played, i
    led = SUIT_OF[trick[0]]
    if groups[0] & SUIT_MASKS[led]:
        groups = sorted(groups)
    return list(_ranked_follows(hands, seat, len(trick), led, trump, groups, best, at))


def _ranked_follows(  # noqa: PLR0917 - the search's hot path calls it positionally
    hands: Sequence[int],
    seat: int,
    count: int,
    led: int,
    trump: int,
    groups: Sequence[int],
    best: int,
    at: int,
    discards: Sequence[int] = (),
) -> Sequence[int]:
    """:func:`_follows` with the trick read by the search: ``count`` cards played, the
    suit ``led``, the card winning it so far ``best`` (the ``at``-th); ``groups`` in
    rising order when they follow suit; a seat void in the suit led may pass the sort
    keys of its groups outside trumps (:func:`_discard_key`) as ``discards``, and its
    trumps alone as ``groups``."""
    seats = len(hands)
    best_suit = SUIT_OF[best]
    led_mask = SUIT_MASKS[led]
    trumps = SUIT_MASKS[trump] if trump != NOTRUMP else 0
    # what the opponents still to play can beat, read once: a card of the suit led
    # below ``over_led`` (or any, when one of them can ruff it), a trump below
    # ``over_trump`` played on another suit
    over_led = over_trump = -1
    ruffs = False
    if count < seats - 1:
        # a follower (never the leader) has one opponent still to play, the next
        # seat, or none when it plays last (two hands: always last)
        held_there = hands[(seat + 1) % seats]
        follows = held_there & led_mask
        if follows:
            over_led = follows.bit_length() - 1
        elif held_there & trumps:
            ruffs = led != trump
            over_trump = (held_there & trumps).bit_length() - 1
    hand = hands[seat]
    # partner's card holds the trick whatever the opponents still to play do: play low
    if (count - at) & 1:
        held = False
    elif best_suit == led:
        held = best > over_led and not ruffs
    else:
        held = best > over_trump
    second = count == 1 and seats == 4
    if groups and groups[0] & led_mask:
        # following suit: the ranks below split the groups at a card's rank, so
        # cutting the rising list up (bisect, in C) is their order; the groups
        # themselves (rising) when that is the order, not copied
        if best_suit != led or held:
            return groups
        beat = 1 << best
        split = bisect_left(groups, beat)
        losers = groups[:split]
        if ruffs:
            return groups if second else [*groups[split:], *losers]
        # second to play, with partner last holding a card of the suit led above the
        # card led and every card of it the third hand holds (and no ruff by the
        # third hand): partner wins the trick, so play low
        if second and (hands[(seat + 2) % 4] & led_mask) > 1 << max(best, over_led):
            return groups
        sure = 1 << over_led if over_led > best else beat
        cut = bisect_left(groups, sure, split)
        unsure = groups[split:cut]
        if second:
            return [*groups[cut:], *losers, *unsure]
        return [*groups[cut:], *unsure, *losers]
    # void in the suit led: a trump that wins the trick for sure first (the cheapest),
    # then discards and losing trumps (low ones first, trumps last), then a trump
    # partner's card made needless
    ranked = list(discards)
    for group in groups:
        card = (group & -group).bit_length() - 1
        suit = SUIT_OF[card]
        if suit != trump:
            ranked.append(_discard_key(group, (hand & SUIT_MASKS[suit]).bit_count()))
            continue
        if best_suit == trump and card < best:
            rank = 2
        elif held:
            rank = 3
        elif card > over_trump:
            rank = 0  # the cheapest sure winner
        else:
            rank = 2
        ranked.append((rank << 6 | card % RANKS + 16 + RANKS) << 52 | group)
    ranked.sort()
    return [key & _CARDS for key in ranked]


def _discard_key(group: int, length: int) -> int:
    """The sort key of a discard of ``group`` (not a trump) by a follower void in the
    suit led, holding ``length`` cards of the group's suit: from the longest side suit
    (the one least likely to hold a winner), its low cards first; the group in the low
    bits."""
    low = group & -group
    return (2 << 6 | (low.bit_length() - 1) % RANKS + 16 - length) << 52 | group


def _owners(holdings: tuple[int, ...]) -> int:
    """A suit's holdings as one int: for each card still in play from the highest down,
    the seat that holds it (two bits), after a leading 1."""
    live = 0
    for holding in holdings:
        live |= holding
    code = 1
    while live:
        top = _top(live)
        live ^= top
        for seat, holding in enumerate(holdings):
            if holding & top:
                code = code << 2 | seat
                break
    return code


class _LimitError(Exception):
    """A limit struck inside a search (unwinds it; turned into :class:`SearchStopped`)."""

    def __init__(self, reason: StopReason) -> None:
        super().__init__(reason)
        self.reason = reason


class PartitionSearch:
    """The dedicated double-dummy search of one strain (see the module notes), its table
    kept from question to question.

    ``seats`` is 4 (double dummy) or 2 (two-player card play), ``trump`` the strain.
    The switches measure what each addition is worth: ``sequences`` one card per group
    of equivalent cards, ``ordering`` :func:`order_groups`, ``bounds`` the quick-trick
    and later-trick bounds, ``table`` the table of tricks to come, ``partition`` its
    entries keeping only the cards that decided them (else every card's holder),
    ``last_trick`` the last trick played out. ``nodes`` counts the positions searched
    (a card about to be played, or a trick about to start) over every question."""

    def __init__(
        self,
        seats: int,
        trump: int,
        *,
        sequences: bool = True,
        ordering: bool = True,
        bounds: bool = True,
        table: bool = True,
        partition: bool = True,
        last_trick: bool = True,
    ) -> None:
        self.seats = seats
        self.trump = trump
        self.sequences = sequences
        self.ordering = ordering
        self.bounds = bounds
        self.use_table = table
        self.partition = partition
        self.last_trick = last_trick
        self.nodes = 0
        self.entries = 0
        self._table: dict[int, list[list[int]]] = {}
        self._places: dict[int, tuple[Any, ...]] = {}
        self._codes: dict[int, tuple[Any, ...]] = {}
        self._hands: list[int] = []
        self._killers = [0] * 14
        self._next_poll = 1 << 62
        self._deadline: float | None = None
        self._node_limit: int | None = None
        self._limits: Limits | None = None

    def at_least(self, state: State, tricks: int, limits: Limits | None = None) -> bool:
        """Tell whether the side of the seat to play in ``state`` takes at least
        ``tricks`` tricks from the current trick on (those already won not counted).

        ``limits`` (time, nodes, a stop signal) bound the search, which raises
        :class:`~zerosum.search.engine.SearchStopped` when one strikes; the table keeps
        what finished before."""
        hands, seat, trick = state[0], state[1], state[2]
        seats = self.seats
        left = hands[seat].bit_count()
        if tricks <= 0:
            return True
        if tricks > left:
            return False
        start = self.nodes
        self._arm(limits)
        leader = (seat - len(trick)) % seats
        self._hands = list(hands)
        self._killers = [0] * 14
        # the search makes many small tuples and lists and no reference cycles (ints
        # and containers of ints, freed by their counts): the cyclic collector only
        # walks its ever larger memory of trick starts again and again (measured, about
        # a tenth of a solve's time), so it pauses for the search, as it was found
        collecting = gc.isenabled()
        gc.disable()
        try:
            if not trick:
                return self._lead(leader, tricks)[0]
            best, best_at, ranked = -1, 0, False
            started = list(hands)
            for at, played in enumerate(trick):
                best, best_at, ranked = _step(best, best_at, ranked, played, at, self.trump)
                started[(leader + at) % seats] |= 1 << played
            records = self._place_of(started)[13]
            ours = (seat ^ leader) & 1 == 0
            target = tricks if ours else left - tricks + 1
            found = self._play(
                leader, len(trick), best, best_at, ranked, target, left, records, trick[0]
            )[0]
            return found if ours else not found
        except _LimitError as stop:
            raise SearchStopped(stop.reason, self.nodes - start) from None
        finally:
            if collecting:
                gc.enable()

    def _arm(self, limits: Limits | None) -> None:
        """Set the limits of the next search."""
        self._limits = limits
        if limits is None or (limits.time is None and limits.nodes is None and limits.stop is None):
            self._next_poll = 1 << 62
            return
        self._deadline = time.perf_counter() + limits.time if limits.time is not None else None
        self._node_limit = self.nodes + limits.nodes if limits.nodes is not None else None
        self._next_poll = self.nodes + _POLL_NODES
        if self._node_limit is not None:
            self._next_poll = min(self._next_poll, self._node_limit)

    def _poll(self) -> None:
        """Read the limits; raise :class:`_LimitError` when one has struck."""
        limits = self._limits
        assert limits is not None
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise _LimitError("nodes")
        if limits.stop is not None and limits.stop.is_set():
            raise _LimitError("stop")
        if self._deadline is not None and time.perf_counter() >= self._deadline:
            raise _LimitError("time")
        self._next_poll = self.nodes + _POLL_NODES
        if self._node_limit is not None:
            self._next_poll = min(self._next_poll, self._node_limit)

    def _lead(self, leader: int, target: int) -> tuple[bool, int]:
        """Whether the side of ``leader``, on lead to a new trick, takes ``target`` of
        the tricks left; with the cards whose ranks decided it (a card set)."""
        hands = self._hands
        left = hands[leader].bit_count()
        if target <= 0:
            return True, 0
        if target > left:
            return False, 0
        self.nodes += 1
        if self.nodes >= self._next_poll:
            self._poll()
        trump = self.trump
        if left == 1 and self.last_trick:
            return self._last(leader)
        place = self._place_of(hands)
        if self.use_table:
            bucket = self._table.get(place[0] << 2 | leader)
            if bucket is not None:
                c0, c1, c2, c3 = place[1], place[2], place[3], place[4]
                for entry in bucket:
                    if (
                        c0 >> entry[2] == entry[6]
                        and c1 >> entry[3] == entry[7]
                        and c2 >> entry[4] == entry[8]
                        and c3 >> entry[5] == entry[9]
                    ):
                        if entry[0] >= target:
                            return True, _entry_cards(entry, place)
                        if entry[1] < target:
                            return False, _entry_cards(entry, place)
        if self.bounds:
            bounds = place[14][leader]
            if bounds is None:
                # the tricks lost are read only when the sure tricks do not settle it
                # (-1: not read yet), and then remembered too
                bounds = place[14][leader] = (*_sure_tricks(place[13], leader, trump), -1, 0)
            if bounds[0] >= target:
                return True, bounds[1]
            if bounds[2] < 0:
                bounds = place[14][leader] = (
                    bounds[0],
                    bounds[1],
                    *_later_tricks(place[13], leader, trump),
                )
            if left - bounds[2] < target:
                return False, bounds[3]
        found, relevant = self._play(leader, 0, -1, 0, False, target, left, place[13], -1)
        if self.use_table:
            self._store(place, leader, found, target, left, relevant)
        return found, relevant

    def _place_of(self, hands: Sequence[int]) -> tuple[Any, ...]:
        """The trick start with these ``hands`` as the search reads it (:func:`_place`),
        remembered."""
        # every hand in one int (52 bits a seat): a cheaper key than a tuple, and one
        # mask a suit cuts out the suit's part (_place)
        if self.seats == 4:
            held = hands[0] << 156 | hands[1] << 104 | hands[2] << 52 | hands[3]
        else:
            held = hands[0] << 52 | hands[1]
        places = self._places
        place = places.get(held)
        if place is None:
            if len(places) >= _PLACES_KEPT:
                places.clear()
                self._codes.clear()
            place = places[held] = _place(held, hands, self._codes)
        return place

    def _last(self, leader: int) -> tuple[bool, int]:
        """The last trick played out: whether the leader's side wins it, and the
        winning card when it won by rank."""
        hands = self._hands
        seats = self.seats
        trump = self.trump
        best, best_at, ranked = -1, 0, False
        for at in range(seats):
            played = hands[(leader + at) % seats].bit_length() - 1
            best, best_at, ranked = _step(best, best_at, ranked, played, at, trump)
        return (best_at & 1 == 0), (1 << best if ranked else 0)

    def _play(  # noqa: PLR0917 - the hot path: positional arguments are the cheapest
        self,
        leader: int,
        count: int,
        best: int,
        best_at: int,
        ranked: bool,
        target: int,
        left: int,
        records: tuple[tuple[Any, ...], ...],
        lead: int,
    ) -> tuple[bool, int]:
        """Whether the leader's side takes ``target`` of the ``left`` tricks, ``count``
        cards of the current trick played (the first ``lead``, -1 for none yet; ``best``
        winning it so far, at ``best_at``, ``ranked`` if by rank), ``records`` the
        suits' records of the trick's start (:func:`_suit_part`); with the cards whose
        ranks decided it."""
        hands = self._hands
        seats = self.seats
        trump = self.trump
        seat = (leader + count) % seats
        hand = hands[seat]
        groups: Sequence[int]
        # (the branches on count come first: a node reads only what its place in the
        # trick needs, the hot path running some 600 bytecodes a node)
        if count:
            led = SUIT_OF[lead]
            if count == 1 and seats == 4 and self.bounds:
                # the second hand's side needs left - target + 1 tricks to defeat it
                won, relevant = _second_hand(hands, seat, lead, trump, left - target + 1)
                if won:
                    return False, relevant
            follow = hand & SUIT_MASKS[led]
            if not self.sequences:
                groups = _singles(follow or hand)
                if self.ordering and len(groups) > 1:
                    groups = _ranked_follows(hands, seat, count, led, trump, groups, best, best_at)
            elif follow:
                # a seat holds at its turn what it held at the trick's start: its groups
                # are its record's (rising, as the follower's ordering takes them)
                groups = records[led][12][seat]
                if len(groups) > 1 and self.ordering:
                    if count != seats - 1:
                        groups = _ranked_follows(
                            hands, seat, count, led, trump, groups, best, best_at
                        )
                    elif (count - best_at) & 1 and SUIT_OF[best] == led:
                        # _ranked_follows of the last hand, written out (a third of the
                        # nodes): an opponent's card of the suit led wins, so the
                        # cheapest card above it first, then the low ones; else (its
                        # side's card wins, or a trump) every card rising, as they are
                        rising: tuple[int, ...] = records[led][12][seat]
                        split = bisect_left(rising, 1 << best)
                        groups = rising[split:] + rising[:split]
            elif self.ordering:
                # void in the suit led: its discards' sort keys are its records', its
                # trumps are ordered by the trick
                discards: list[int] = []
                trumps: Sequence[int] = ()
                for suit, record in enumerate(records):
                    if record[4][seat]:
                        if suit == trump:
                            trumps = record[11][seat]
                        else:
                            discards += record[14][seat]
                groups = _ranked_follows(
                    hands, seat, count, led, trump, trumps, best, best_at, discards
                )
            else:
                r0, r1, r2, r3 = records
                groups = r0[11][seat] + r1[11][seat] + r2[11][seat] + r3[11][seat]
            best_suit = SUIT_OF[best]
        else:
            if not self.sequences:
                groups = _singles(hand)
                if self.ordering and len(groups) > 1:
                    if seats == 4:
                        groups = _leads(hands, seat, trump, groups, self._killers[left])
                    else:
                        groups = order_groups(hands, seat, (), trump, groups)
            elif self.ordering and seats == 4:
                groups = _search_leads(hands, seat, trump, records, self._killers[left])
            else:
                r0, r1, r2, r3 = records
                groups = r0[11][seat] + r1[11][seat] + r2[11][seat] + r3[11][seat]
                if self.ordering and len(groups) > 1:
                    groups = order_groups(hands, seat, (), trump, groups)
            best_suit = -1
        maximizing = (seat ^ leader) & 1 == 0
        last = count == seats - 1
        union = 0
        # the cards no longer worth trying, after DDS's lowest winning rank (below):
        # one card set rather than a floor a suit, made for each node
        skip = 0
        for group in groups:
            low = group & -group
            if low & skip:
                continue
            played = low.bit_length() - 1
            suit = SUIT_OF[played]
            hands[seat] = hand ^ low
            # the card winning the trick now (_step inlined: it runs for every card)
            if not count:
                new_best, new_at, new_ranked = played, 0, False
            elif suit == best_suit:
                if played > best:
                    new_best, new_at, new_ranked = played, count, True
                else:
                    new_best, new_at, new_ranked = best, best_at, True
            elif suit == trump:
                new_best, new_at, new_ranked = played, count, False
            else:
                new_best, new_at, new_ranked = best, best_at, ranked
            if last:
                if new_at & 1 == 0:
                    found, relevant = self._lead((leader + new_at) % seats, target - 1)
                else:
                    found, relevant = self._lead((leader + new_at) % seats, left - target)
                    found = not found
                if new_ranked:
                    relevant |= 1 << new_best
            else:
                self.nodes += 1
                if self.nodes >= self._next_poll:
                    self._poll()
                found, relevant = self._play(
                    leader,
                    count + 1,
                    new_best,
                    new_at,
                    new_ranked,
                    target,
                    left,
                    records,
                    lead if count else played,
                )
            hands[seat] = hand
            if found == maximizing:
                if group != low:
                    ranks = relevant & SUIT_MASKS[suit]
                    if ranks and group > ranks & -ranks > low:
                        # the group reaches up among the cards the answer rests on:
                        # it stays one group only where its lowest card is held
                        # alike too
                        relevant |= low
                if not count:
                    self._killers[left] = low
                return found, relevant
            mask = SUIT_MASKS[suit]
            ranks = relevant & mask
            if ranks:
                if group != low and group > ranks & -ranks > low:
                    # (as above)
                    relevant |= low
                    ranks |= low
                # the answer rests on no card of this suit below the lowest of
                # ``relevant`` in it, nor on the card played when it is lower: any
                # lower card of the suit would give the same answer (DDS's lowest
                # winning rank)
                floor = ranks & -ranks
                if low < floor:
                    skip |= floor - 1 & mask
            else:
                # it rests on no card of the suit: no other card of it is worth trying
                skip |= mask
            union |= relevant
        return not maximizing, union

    def _store(  # noqa: PLR0917 - called once a searched trick start, with what it found
        self,
        place: tuple[Any, ...],
        leader: int,
        found: bool,
        target: int,
        left: int,
        relevant: int,
    ) -> None:
        """Keep what a search of a trick's start proved: at least ``target`` tricks if
        ``found``, else at most ``target - 1``, for any position with the same suit
        lengths and the same holders of the cards from the top of each suit down to the
        lowest of ``relevant``."""
        # each suit's holders code loses two bits a card below the lowest card the
        # answer rests on (all of them when it rests on none of the suit)
        shifts = [0, 0, 0, 0]
        if self.partition:
            for suit in _SUITS:
                ranks = relevant & SUIT_MASKS[suit]
                if ranks:
                    below = place[5 + suit][place[9 + suit]] & (ranks & -ranks) - 1
                    shifts[suit] = 2 * below.bit_count()
                else:
                    shifts[suit] = 2 * place[9 + suit]
        s0, s1, s2, s3 = shifts
        entry = [
            target if found else 0,
            left if found else target - 1,
            s0,
            s1,
            s2,
            s3,
            place[1] >> s0,
            place[2] >> s1,
            place[3] >> s2,
            place[4] >> s3,
        ]
        key = place[0] << 2 | leader
        bucket = self._table.get(key)
        if bucket is None:
            if self.entries >= _ENTRIES_KEPT:
                self._table.clear()
                self.entries = 0
            self._table[key] = [entry]
            self.entries += 1
            return
        for kept_entry in bucket:
            if (
                kept_entry[6] == entry[6]
                and kept_entry[7] == entry[7]
                and kept_entry[8] == entry[8]
                and kept_entry[9] == entry[9]
                and kept_entry[2] == s0
                and kept_entry[3] == s1
                and kept_entry[4] == s2
                and kept_entry[5] == s3
            ):
                if found:
                    kept_entry[0] = max(kept_entry[0], target)
                else:
                    kept_entry[1] = min(kept_entry[1], target - 1)
                return
        bucket.append(entry)
        self.entries += 1


def _step(  # noqa: PLR0917 - called for every card played: positional is cheapest
    best: int, best_at: int, ranked: bool, played: int, at: int, trump: int
) -> tuple[int, int, bool]:
    """The card winning a trick once ``played`` (its ``at``-th card) joins it: the card,
    its place, and whether it wins by rank (it beats a card of its own suit), given the
    same of the cards before (``best`` -1 for none)."""
    if best < 0:
        return played, at, False
    suit = SUIT_OF[played]
    if suit == SUIT_OF[best]:
        if played > best:
            return played, at, True
        return best, best_at, True
    if suit == trump:
        return played, at, False
    return best, best_at, ranked


def _place(held: int, hands: Sequence[int], known: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    """What the search reads of a trick's start with these ``hands`` (``held`` all of
    them in one int, the first seat highest, 52 bits a seat): the seats' lengths in
    each suit as one int (four bits a seat, sixteen a suit); then suit by suit who
    holds each card still in play (:func:`_owners`); then suit by suit the highest
    ``k`` cards still in play for each ``k`` (``tops[k]``, a card set); then the
    number of cards still in play in each suit; then the four suits' records
    (:func:`_suit_part`); then a slot a seat for the bounds with that seat on lead. A
    suit's record is remembered in ``known``."""
    m0, m1, m2, m3 = _HELD_SUITS[len(hands)]
    # each suit's cards of every hand, in their places (the key tells the suit apart),
    # the four suits written out rather than looped over: this runs at most trick starts
    r0 = known.get(held & m0)
    if r0 is None:
        r0 = known[held & m0] = _suit_part(tuple(hand & _SUIT for hand in hands), 0)
    r1 = known.get(held & m1)
    if r1 is None:
        r1 = known[held & m1] = _suit_part(tuple(hand >> RANKS & _SUIT for hand in hands), RANKS)
    r2 = known.get(held & m2)
    if r2 is None:
        r2 = known[held & m2] = _suit_part(
            tuple(hand >> 2 * RANKS & _SUIT for hand in hands), 2 * RANKS
        )
    r3 = known.get(held & m3)
    if r3 is None:
        r3 = known[held & m3] = _suit_part(
            tuple(hand >> 3 * RANKS & _SUIT for hand in hands), 3 * RANKS
        )
    return (
        r0[1] << 48 | r1[1] << 32 | r2[1] << 16 | r3[1],
        r0[0],
        r1[0],
        r2[0],
        r3[0],
        r0[2],
        r1[2],
        r2[2],
        r3[2],
        r0[3],
        r1[3],
        r2[3],
        r3[3],
        (r0, r1, r2, r3),
        [None] * len(hands),
    )


def _suit_part(holdings: tuple[int, ...], shift: int) -> tuple[Any, ...]:
    """A suit's record, its seats' cards of it ``holdings`` (shifted down by
    ``shift``): 0 the holders' code (:func:`_owners`), 1 the seats' lengths (four bits
    each, the first seat highest, as if there were four), 2 the highest ``k`` cards
    still in play for each ``k``, 3 the number of cards in play, and seat by seat: 4
    its length, 5 the rounds it cashes leading the suit from the top while nobody
    ruffs (:func:`sure_tricks`) and 6 the cards they count on, 7 how many of its cards
    are above every card of its opponents (:func:`top_trumps`) and 8 those cards; 9 the
    seat holding the suit's top card (-1 for none) and 10 that card; 11 seat by seat
    its groups of equivalent cards (:func:`~.rules.sequences`, the highest first) and
    12 the same the lowest first; 13 the sort keys of its groups as a leader's
    (:func:`_lead_keys`), remembered by :func:`_search_leads`; 14 seat by seat the
    sort keys of its groups as discards (:func:`_discard_key`); 15 the seats holding
    cards of the suit (as trumps, those who could ruff).
    Card sets are in their places (shifted back up)."""
    seats = len(holdings)
    lengths = 0
    live = 0
    counts = []
    for holding in holdings:
        count = holding.bit_count()
        counts.append(count)
        lengths = lengths << 4 | count
        live |= holding
    lengths <<= 4 * (4 - seats)
    tops = [0]
    rest = live
    while rest:
        top = _top(rest)
        rest ^= top
        tops.append(tops[-1] | top << shift)
    cash = []
    cashed = []
    above = []
    above_cards = []
    groups = []
    rising = []
    discards = []
    for seat, held in enumerate(holdings):
        groups.append(tuple(sequences(held << shift, (live ^ held) << shift)))
        rising.append(groups[-1][::-1])
        discards.append(tuple(_discard_key(group, counts[seat]) for group in groups[-1]))
        longest = max(count for other, count in enumerate(counts) if other != seat)
        winners = (held >> (live ^ held).bit_length()).bit_count()
        if winners >= longest:
            rounds, counted = counts[seat], longest
        else:
            rounds = counted = winners
        cash.append(rounds)
        cashed.append(_top_cards(held, counted) << shift)
        theirs = holdings[seat ^ 1] | (holdings[seat ^ 3] if seats == 4 else 0)
        over, cards = _above(held, theirs)
        above.append(over)
        # when the opponents hold none of the suit every card counts, whatever its rank
        above_cards.append(cards << shift if theirs else 0)
    top_seat = -1
    top_card = 0
    if live:
        top = _top(live)
        top_seat = next(seat for seat, held in enumerate(holdings) if held & top)
        top_card = top << shift
    return (
        _owners(holdings),
        lengths,
        tuple(tops),
        len(tops) - 1,
        tuple(counts),
        tuple(cash),
        tuple(cashed),
        tuple(above),
        tuple(above_cards),
        top_seat,
        top_card,
        tuple(groups),
        tuple(rising),
        {},
        tuple(discards),
        tuple(seat for seat, count in enumerate(counts) if count),
    )


def _entry_cards(entry: list[int], place: tuple[Any, ...]) -> int:
    """The cards a table entry's answer rests on at the trick's start ``place``
    (:func:`_place`): in each suit the highest cards still in play, as many as the
    entry keeps the holders of."""
    relevant: int = (
        place[5][place[9] - (entry[2] >> 1)]
        | place[6][place[10] - (entry[3] >> 1)]
        | place[7][place[11] - (entry[4] >> 1)]
        | place[8][place[12] - (entry[5] >> 1)]
    )
    return relevant
