"""Bridge's double-dummy search compiled with numba: the search of
:class:`~zerosum.games.bridge.search.PartitionSearch`, node for node, on 64-bit words.

:mod:`zerosum.kernels` imports this module when a kernel is first used (never
:mod:`zerosum.games.bridge` itself, which stays free of numba);
:meth:`~zerosum.games.bridge.solver.SolverParts.search` hands out a :class:`BridgeKernel`
for four hands when kernels are on and every part of the search is in use.

**The same search.** Every rule of the pure search is here as it is there, read in the
same order, so that both visit the same nodes and give the same answers (the tests
compare them question by question): one card a group of equivalent cards, DDS's move
ordering for a leader (each card weighed, the lead that last cut at the same trick
raised) and the followers' ordering; the quick tricks and DDS's later tricks at a
trick's start, the second hand's quick tricks; DDS's lowest winning rank (no lower card
of a suit once one failed below the cards the answer rested on); the last trick played
out; and the table of tricks to come with partition search: an entry keeps, suit by
suit, who holds each card from the top down to the lowest card the answer rested on,
and answers every position alike in those. What the pure search remembers to save time
(the suits' records, the leads' weights) is computed afresh here, a loop over each
suit's cards at each trick's start.

**Words.** A card set is a signed 64-bit word with bit ``13 * suit + rank`` for each card
(:mod:`~zerosum.games.bridge.rules`' numbering): 52 bits, so the sign bit stays clear
and signed arithmetic (``x & -x``, comparisons of card sets) means what it does on
Python ints.

**One stack.** :func:`_run` searches one question, "does the side of the seat to play
take at least ``t`` tricks from this trick on?", over an explicit stack (numba cannot
load a self-recursive function from its cache): a frame a card about to be played, the
first of a trick being the trick's start (the table, the bounds). The search stops after
a given number of nodes with its stack kept, so that the Python side can read its
limits (time, a stop signal) between chunks and carry on.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from zerosum.games.bridge.rules import NOTRUMP
from zerosum.games.bridge.search import CUT_LEAD_RAISES
from zerosum.kernel_bits import highest, lowest, popcount
from zerosum.kernels import jit
from zerosum.search.engine import Limits, SearchStopped

if TYPE_CHECKING:
    from zerosum.games.bridge.rules import State

__all__ = ["CHUNK_NODES", "BridgeKernel"]

_Ints = npt.NDArray[np.int64]

CHUNK_NODES = 1 << 12
"""Nodes a search with limits runs between two readings of the clock and the stop signal:
as often as the pure search reads them (a few milliseconds here; a call into the kernel
costs microseconds)."""

_SUIT = 0x1FFF
"""A suit's 13 cards once shifted down."""

_MAX_PLY = 64
"""Frames of the stack: the trick's start a question begins at and the 52 cards after."""

# a frame's fields
_LEADER = 0  # the seat that led the current trick
_COUNT = 1  # cards played to the trick before this one
_BEST = 2  # the card winning the trick so far (-1 for none)
_AT = 3  # its place in the trick
_RANKED = 4  # whether it wins by rank (it beat a card of its own suit)
_TARGET = 5  # the tricks the leader's side is to take of those left
_LEFT = 6  # the tricks left, the current one included
_LEAD = 7  # the card led to the trick (-1 at its start)
_LIVE = 8  # every card in play at the trick's start (what separates equivalent cards)
_MOVES = 9  # the groups to try
_INDEX = 10  # the next of them
_UNION = 11  # the cards the answers of the groups tried rested on
_SKIP = 12  # the cards no longer worth trying (DDS's lowest winning rank)
_HAND = 13  # the hand of the seat to play before its card
_LOW = 14  # the card played (a card set)
_GROUP = 15  # its group
_NEW_BEST = 16  # the card winning the trick once it is played
_NEW_RANKED = 17  # whether that card wins by rank
_NEGATE = 18  # the child: -1 the next card, 0 the next trick won by this side, 1 lost
_STORE = 19  # 1 at a searched trick's start: its answer goes to the table
_FIELDS = 20

# a suit's record at a trick's start (infos[ply, suit, field]): the pure search's
# records (search._suit_part), the card sets in their places
_COUNTS = 0  # 0-3: each seat's length
_CASH = 4  # 4-7: the rounds each seat cashes leading the suit from the top
_CASHED = 8  # 8-11: the cards they count on
_ABOVE = 12  # 12-15: how many of each seat's cards are above all of its opponents'
_ABOVE_CARDS = 16  # 16-19: those cards (none when the opponents hold no card of it)
_TOP_SEAT = 20  # the seat holding the top card (-1 for none)
_TOP_CARD = 21  # that card
_IN_PLAY = 22  # how many of its cards are still in play
_CODE = 23  # who holds each card still in play, from the top, after a leading 1
_SUIT_LIVE = 24  # the cards in play (a card set)
_LENGTHS = 25  # the seats' lengths, four bits each, the first seat highest
_INFO = 26

# the registers
_SP = 0
_MODE = 1
_FOUND = 2
_RELEVANT = 3
_NODES = 4
_ENTRIES = 5
_TRUMP = 6
_REGISTERS = 7

_ENTER = 0  # a frame to start
_RETURN = 1  # a frame finished: its answer in found / relevant
_NEXT = 2  # a frame to carry on with its next group
_FINISH = 3  # a frame answered (found / relevant): a searched trick's start stores it

_NO_LIMIT = 1 << 62

# the table: entries keep the key's parts and the bounds as small ints
_LEADER_OF = 0
_LOWER = 1
_UPPER = 2
_SHIFTS = 3  # 3-6: how many bits of each suit's holders code the entry drops
_SMALL = 7

_WINNER_RAISE = (CUT_LEAD_RAISES[0][0], CUT_LEAD_RAISES[1][0])
"""The raise of the lead that last cut when it wins the trick: without trumps, with."""
_OTHER_RAISE = (CUT_LEAD_RAISES[0][1], CUT_LEAD_RAISES[1][1])
"""The same when it does not."""
_LEAD_OFFSET = 1 << 12
"""Added to a lead's negated weight so that its sort key stays positive."""


@jit
def _mask(suit: int) -> int:
    """The cards of ``suit``."""
    return _SUIT << 13 * suit


@jit
def _top(cards: int) -> int:
    """The highest card of non-empty ``cards``, as a card set."""
    return 1 << highest(cards)


@jit
def _length(cards: int) -> int:
    """Python's ``int.bit_length``: one past the highest card, 0 for none."""
    if cards == 0:
        return 0
    return highest(cards) + 1


@jit
def _top_cards(held: int, count: int) -> int:
    """The ``count`` highest cards of ``held``."""
    found = 0
    for _ in range(count):
        top = _top(held)
        held ^= top
        found |= top
    return found


@jit
def _cheapest(held: int, mask: int, trumps: int) -> int:
    """The card a hand plays to a trick led in the suit of ``mask`` when it means to win
    nothing: its lowest of that suit, else its lowest outside ``trumps``, else its
    lowest."""
    follow = held & mask
    if follow:
        return follow & -follow
    spare = held & ~trumps
    if spare:
        return spare & -spare
    return held & -held


@jit
def _top_trumps(hands: _Ints, seat: int, trump: int) -> tuple[int, int]:
    """How many of ``seat``'s trumps are above every trump of its opponents, and those
    trumps (:func:`~zerosum.games.bridge.search.top_trumps`)."""
    mask = _mask(trump)
    held = hands[seat] & mask
    if not held:
        return 0, 0
    theirs = (hands[seat ^ 1] | hands[seat ^ 3]) & mask
    count = popcount(held >> _length(theirs))
    return count, _top_cards(held, count)


@jit
def _suit_records(hands: _Ints, infos: _Ints) -> None:
    """Fill ``infos`` (a suit a row) with the records of the trick's start ``hands``."""
    for suit in range(4):
        shift = 13 * suit
        info = infos[suit]
        live = 0
        for seat in range(4):
            held = hands[seat] >> shift & _SUIT
            info[_COUNTS + seat] = popcount(held)
            live |= held
        for seat in range(4):
            held = hands[seat] >> shift & _SUIT
            longest = 0
            for other in range(4):
                if other != seat and info[_COUNTS + other] > longest:
                    longest = info[_COUNTS + other]
            winners = popcount(held >> _length(live ^ held))
            if winners >= longest:
                rounds = info[_COUNTS + seat]
                counted = longest
            else:
                rounds = counted = winners
            info[_CASH + seat] = rounds
            info[_CASHED + seat] = _top_cards(held, counted) << shift
            theirs = (hands[seat ^ 1] | hands[seat ^ 3]) >> shift & _SUIT
            over = popcount(held >> _length(theirs))
            info[_ABOVE + seat] = over
            # when the opponents hold none of the suit every card counts, whatever its rank
            info[_ABOVE_CARDS + seat] = _top_cards(held, over) << shift if theirs else 0
        info[_TOP_SEAT] = -1
        info[_TOP_CARD] = 0
        code = 1
        rest = live
        while rest:
            top = _top(rest)
            rest ^= top
            for seat in range(4):
                if hands[seat] >> shift & top:
                    if info[_TOP_SEAT] < 0:
                        info[_TOP_SEAT] = seat
                        info[_TOP_CARD] = top << shift
                    code = code << 2 | seat
                    break
        info[_IN_PLAY] = popcount(live)
        lengths = 0
        for seat in range(4):
            lengths = lengths << 4 | info[_COUNTS + seat]
        info[_LENGTHS] = lengths
        info[_CODE] = code
        info[_SUIT_LIVE] = live << shift


@jit
def _partner_ruff(infos: _Ints, seat: int, trump: int) -> tuple[int, int]:
    """One trick for the side of ``seat`` by partner's ruff (see the pure search's
    ``_partner_ruff``)."""
    mate = seat ^ 2
    record = infos[trump]
    if not record[_COUNTS + mate]:
        return 0, 0
    lho = (seat + 1) % 4
    rho = (seat + 3) % 4
    over = record[_ABOVE + mate]
    for suit in range(4):
        lengths = infos[suit]
        if suit != trump and lengths[_COUNTS + seat] and not lengths[_COUNTS + mate]:
            if (lengths[_COUNTS + lho] or not record[_COUNTS + lho]) and (
                lengths[_COUNTS + rho] or not record[_COUNTS + rho]
            ):
                return 1, 0
            if over:
                return 1, _top(record[_ABOVE_CARDS + mate])
    return 0, 0


@jit
def _sure_tricks(infos: _Ints, seat: int, trump: int) -> tuple[int, int]:
    """The tricks the side of ``seat``, on lead, is sure to take, with the cards that
    decide it (:func:`~zerosum.games.bridge.search.sure_tricks`)."""
    mate = seat ^ 2
    trumped = trump != NOTRUMP
    total = 0
    relevant = 0
    # the rounds each of the two cashes, four bits a suit (no array made a node)
    cashing = 0
    theirs = 0
    their_total = 0
    their_ranks = 0
    crossing = False
    for suit in range(4):
        record = infos[suit]
        rounds = record[_CASH + seat]
        partner = record[_CASH + mate]
        if not (rounds or partner):
            continue
        if trumped and suit != trump:
            for other in range(4):
                if infos[trump, _COUNTS + other]:  # a hand that could ruff
                    length = record[_COUNTS + other]
                    if other != seat and length < rounds:
                        rounds = length
                    if other != mate and length < partner:
                        partner = length
        if rounds:
            cashing |= rounds << 4 * suit
            total += rounds
            relevant |= record[_CASHED + seat]
        if partner:
            theirs |= partner << 4 * suit
            their_total += partner
            their_ranks |= record[_CASHED + mate]
            if record[_COUNTS + seat]:
                crossing = True
    if crossing:
        # first the suits only seat cashes, where partner follows every round, then
        # partner's
        first = 0
        first_ranks = 0
        for suit in range(4):
            rounds = cashing >> 4 * suit & 15
            if rounds and not theirs >> 4 * suit & 15 and infos[suit, _COUNTS + mate] >= rounds:
                first += rounds
                first_ranks |= relevant & _mask(suit)
        both = first + their_total
        if both > total:
            total = both
            relevant = first_ranks | their_ranks
    if trumped:
        record = infos[trump]
        for member in (seat, mate):
            count = record[_ABOVE + member]
            if count > total:
                total = count
                relevant = record[_ABOVE_CARDS + member]
        if not total:
            return _partner_ruff(infos, seat, trump)
    return total, relevant


@jit
def _trump_stopper(record: _Ints, leader: int) -> tuple[int, int]:
    """A trick the side of ``leader``, holding the top trump, cannot win if it is to win
    every trick (see the pure search's ``_trump_stopper``); ``record`` the trumps'."""
    count = record[_IN_PLAY]
    if count < 2:
        return 0, 0
    code = record[_CODE]
    first = code >> 2 * (count - 1) & 3
    second = code >> 2 * (count - 2) & 3
    if (second ^ leader) & 1 and record[_COUNTS + second] > 1:
        if first == (second + 3) % 4:
            return 1, _top_cards(record[_SUIT_LIVE], 2)
        if count > 2 and ((code >> 2 * (count - 3) & 3) ^ leader) & 1:
            return 1, _top_cards(record[_SUIT_LIVE], 3)
    return 0, 0


@jit
def _later_tricks(infos: _Ints, leader: int, trump: int) -> tuple[int, int]:
    """The tricks the side of ``leader``, on lead, is sure to lose, with the cards that
    decide it (see the pure search's ``_later_tricks``)."""
    if trump != NOTRUMP:
        record = infos[trump]
        most = 0
        relevant = 0
        for other in (leader ^ 1, leader ^ 3):
            count = record[_ABOVE + other]
            if count > most:
                most = count
                relevant = record[_ABOVE_CARDS + other]
        if most or record[_COUNTS + leader] or record[_COUNTS + (leader ^ 2)]:
            if not most:
                return _trump_stopper(record, leader)
            return most, relevant
    relevant = 0
    topped = True
    for suit in range(4):
        record = infos[suit]
        if record[_COUNTS + leader]:
            if not (record[_TOP_SEAT] ^ leader) & 1:
                topped = False
                break
            relevant |= record[_TOP_CARD]
    if topped:
        return 1, relevant
    # without trumps a side that wins every trick leads every one, never in a suit
    # whose top card an opponent holds, and a suit it leads runs to no more tricks than
    # the longer of its two hands holds
    runs = 0
    left = 0
    relevant = 0
    for suit in range(4):
        record = infos[suit]
        left += record[_COUNTS + leader]
        holder = record[_TOP_SEAT]
        if holder < 0:
            continue
        if (holder ^ leader) & 1:
            if record[_COUNTS + holder] < record[_IN_PLAY]:
                relevant |= record[_TOP_CARD]
        else:
            runs += max(record[_COUNTS + holder], record[_COUNTS + (holder ^ 2)])
    if runs < left:
        return 1, relevant
    return 0, 0


@jit
def _second_hand(hands: _Ints, seat: int, led: int, trump: int, needed: int) -> tuple[bool, int]:
    """Whether the side of ``seat``, second to play to a trick led with ``led``, is sure
    to take ``needed`` tricks from this one on, with the cards that decide it (DDS's
    quick tricks at the second hand; see the pure search's ``_second_hand``)."""
    suit = led // 13
    mask = _mask(suit)
    trumps = _mask(trump) if trump != NOTRUMP else 0
    third = hands[(seat + 1) % 4]
    follow = third & mask
    ruffs = third & trumps if not follow and suit != trump else 0
    mate = seat ^ 2
    rest = hands[0] | hands[1] | hands[2] | hands[3]
    # the ways the side wins this trick, one after the other: seat's card, partner's
    for way in range(2):
        winner = seat if way == 0 else mate
        other = mate if way == 0 else seat
        held = hands[winner]
        if held & mask:
            card = _top(held & mask)
            if card < 1 << led or card < follow or ruffs:
                continue
            relevant = card
        elif held & trumps and suit != trump:
            card = _top(held & trumps)
            if card < ruffs:
                continue
            relevant = card if ruffs else 0
        else:
            continue
        # the other one plays its cheapest card: it must not beat the winner's
        cheapest = _cheapest(hands[other], mask, trumps)
        if cheapest & trumps and not card & mask:
            if cheapest > card:
                continue
            relevant = card
        elif cheapest & mask and card & mask and cheapest > card:
            continue
        if needed <= 1:
            return True, relevant
        tricks = 1
        if trump == NOTRUMP:
            held ^= card
            others = rest ^ hands[winner]
            for each in range(4):
                mine = held & _mask(each)
                if mine:
                    theirs = others & _mask(each)
                    if not theirs:
                        tricks += popcount(mine)
                    else:
                        cashed = popcount(mine >> _length(theirs))
                        if cashed:
                            tricks += cashed
                            relevant |= _top_cards(mine, cashed)
        else:
            most = 0
            kept_ranks = 0
            for member in (seat, mate):
                kept, tops = _top_trumps(hands, member, trump)
                spent = card if member == winner else _cheapest(hands[member], mask, trumps)
                if spent & tops:
                    kept -= 1
                if kept > most:
                    most = kept
                    kept_ranks = tops
            tricks += most
            if (hands[seat ^ 1] | hands[seat ^ 3]) & trumps:
                # (when the opponents hold no trump every trump counts, whatever its rank)
                relevant |= kept_ranks
        if tricks >= needed:
            return True, relevant
    return False, 0


@jit
def _suit_groups(held: int, live: int, suit: int, out: _Ints, start: int) -> int:
    """Write the groups of equivalent cards of ``held`` in ``suit`` (``live`` every card
    in play, ``held``'s included) at ``out[start:]``, the highest first; return the end."""
    mask = _mask(suit)
    mine = held & mask
    rest = live & mask
    n = start
    group = 0
    while rest and mine:
        top = _top(rest)
        rest ^= top
        if top & mine:
            group |= top
            mine ^= top
        elif group:
            out[n] = group
            n += 1
            group = 0
    if group:
        out[n] = group
        n += 1
    return n


@jit
def _sort(keys: _Ints, groups: _Ints, n: int) -> None:
    """Sort the first ``n`` ``keys`` rising, ``groups`` along (an insertion sort: a dozen
    items at most)."""
    for i in range(1, n):
        key = keys[i]
        group = groups[i]
        j = i - 1
        while j >= 0 and keys[j] > key:
            keys[j + 1] = keys[j]
            groups[j + 1] = groups[j]
            j -= 1
        keys[j + 1] = key
        groups[j + 1] = group


@jit
def _weigh_suit(  # noqa: PLR0917 - numba takes its arguments by position
    hands: _Ints, seat: int, trump: int, groups: _Ints, start: int, end: int, weights: _Ints
) -> None:
    """Weigh a leader's groups ``groups[start:end]`` (one suit, the highest first) as
    the pure search's ``_lead_weights`` and ``_trump_weights`` do: ``weights[i]`` the
    weight of ``groups[i]``, times two, plus one when it wins the trick."""
    mine = hands[seat]
    partner = hands[seat ^ 2]
    lho = hands[(seat + 1) % 4]
    rho = hands[(seat + 3) % 4]
    everyone = mine | partner | lho | rho
    void = popcount(mine) + 1
    suit = lowest(groups[start]) // 13
    mask = _mask(suit)
    live = everyone & mask
    top = _top(live)
    rest = live ^ top
    second = _top(rest) if rest else 0
    rest ^= second
    third = _top(rest) if rest else 0
    ours = partner & mask
    if trump == NOTRUMP:
        left_length = popcount(lho & mask)
        right_length = popcount(rho & mask)
        base = -7 * ((left_length or void) + (right_length or void))
        if not ours:
            base -= 9
        partner_wins = ours > (lho | rho) & mask
        winning = 0
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
        elif top & lho and second & partner and popcount(ours) != 1:
            losing += 31  # through the left-hand opponent's top to partner's second
        if second & partner and third & partner:
            losing += 35
        elif popcount(ours) > 1 and (
            (second & mine and third & partner) or (second & partner and third & mine)
        ):
            losing += 25
        singleton = (left_length == 1 and top & lho != 0) or (right_length == 1 and top & rho != 0)
        for i in range(start, end):
            group = groups[i]
            low = group & -group
            rank = popcount(live & low - 1)
            wins = bool(top & group) or partner_wins
            if wins:
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
            weights[i] = 2 * weight + wins
        return
    trumps = _mask(trump)
    partner_trumps = partner & trumps
    left_trumps = lho & trumps
    right_trumps = rho & trumps
    left = lho & mask
    right = rho & mask
    side = suit != trump
    base = -10 * ((popcount(left) or void) + (popcount(right) or void))
    left_ruffs = side and not left and left_trumps != 0
    right_ruffs = side and not right and right_trumps != 0
    if left_ruffs or right_ruffs:
        base -= 12
    partner_ruffs = side and not ours and partner_trumps != 0
    if partner_ruffs and right:
        base += 17
    if (top | second) & rho:
        if popcount(right) != 1:
            base -= 12  # up to the right-hand opponent's high card
    elif top & lho and second & partner and popcount(ours) != 1:
        base += 27  # through the left-hand opponent's top to partner's second
    singly = side and popcount(mine & mask) == 1 and mine & trumps != 0
    if singly and top & partner and popcount(ours) > 1:
        base += 19  # to partner's winner, for partner to give a ruff
    overruffed = (left_ruffs and left_trumps > partner_trumps) or (
        right_ruffs and right_trumps > partner_trumps
    )
    partner_high = ours > left | right
    cashes = not (left_ruffs or right_ruffs) or (partner_ruffs and not overruffed)
    losing = base
    if second & partner and third & partner:
        losing += 20
    elif popcount(ours) > 1 and (
        (second & mine and third & partner) or (second & partner and third & mine)
    ):
        losing += 13
    singleton = (popcount(left) == 1 and top & lho != 0) or (
        popcount(right) == 1 and top & rho != 0
    )
    for i in range(start, end):
        group = groups[i]
        low = group & -group
        rank = popcount(live & low - 1)
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
            weight = losing + 17 - lowest(low) % 13
        weights[i] = 2 * weight + wins


@jit
def _order_leads(  # noqa: PLR0917 - numba takes its arguments by position
    hands: _Ints, seat: int, trump: int, killer: int, out: _Ints, scratch: _Ints
) -> int:
    """Write a leader's groups at ``out``, the most promising first (DDS's weights, the
    group holding ``killer``, the lead that last cut at this trick, raised); return how
    many. ``scratch`` holds the weights and sort keys on the way."""
    live = hands[0] | hands[1] | hands[2] | hands[3]
    held = hands[seat]
    weights = scratch[0]
    keys = scratch[1]
    with_trumps = 0 if trump == NOTRUMP else 1
    winner_bonus = _WINNER_RAISE[with_trumps]
    other_bonus = _OTHER_RAISE[with_trumps]
    n = 0
    for suit in range(4):
        if not held & _mask(suit):
            continue
        end = _suit_groups(held, live, suit, out, n)
        _weigh_suit(hands, seat, trump, out, n, end, weights)
        for i in range(n, end):
            weight = weights[i] >> 1
            if out[i] & killer:
                weight += winner_bonus if weights[i] & 1 else other_bonus
            # the heavier first, then suit by suit, in a suit the higher first
            keys[i] = (_LEAD_OFFSET - weight) << 6 | suit << 4 | i - n
        n = end
    _sort(keys, out, n)
    return n


@jit
def _order_follows(  # noqa: PLR0917 - numba takes its arguments by position
    hands: _Ints,
    seat: int,
    count: int,
    led: int,
    trump: int,
    best: int,
    at: int,
    live: int,
    out: _Ints,
    keys: _Ints,
) -> int:
    """Write the groups of ``seat``, ``count`` cards played to a trick led in suit
    ``led`` (``best`` winning it, the ``at``-th; ``live`` the cards in play at the
    trick's start), at ``out``, the most promising first, as the pure search orders
    them; return how many. ``keys`` holds the sort keys on the way."""
    hand = hands[seat]
    led_mask = _mask(led)
    trumps = _mask(trump) if trump != NOTRUMP else 0
    follow = hand & led_mask
    best_suit = best // 13
    # what the opponent still to play can beat, read once: a card of the suit led below
    # over_led (or any, when it can ruff), a trump below over_trump on another suit
    over_led = -1
    over_trump = -1
    ruffs = False
    if count < 3:
        held_there = hands[(seat + 1) % 4]
        if held_there & led_mask:
            over_led = highest(held_there & led_mask)
        elif held_there & trumps:
            ruffs = led != trump
            over_trump = highest(held_there & trumps)
    # partner's card holds the trick whatever the opponent still to play does
    if (count - at) & 1:
        holds = False
    elif best_suit == led:
        holds = best > over_led and not ruffs
    else:
        holds = best > over_trump
    if follow:
        # the groups rising
        high = _suit_groups(hand, live, led, keys, 0)
        for i in range(high):
            out[i] = keys[high - 1 - i]
        n = high
        if n < 2:
            return n
        if count == 3:
            # last to play: when an opponent's card of the suit led wins, the cheapest
            # card above it first, then the low ones; else every card rising
            if (count - at) & 1 and best_suit == led:
                split = 0
                while split < n and out[split] < 1 << best:
                    split += 1
                _rotate(out, n, split)
            return n
        if best_suit != led or holds:
            return n
        beat = 1 << best
        split = 0
        while split < n and out[split] < beat:
            split += 1
        second = count == 1
        if ruffs:
            if not second:
                _rotate(out, n, split)
            return n
        # second to play, with partner last holding a card of the suit led above the
        # card led and every card of it the third hand holds: partner wins, play low
        if second and hands[(seat + 2) % 4] & led_mask > 1 << max(best, over_led):
            return n
        sure = 1 << over_led if over_led > best else beat
        cut = split
        while cut < n and out[cut] < sure:
            cut += 1
        # the sure winners, then (second hand) the losers and the unsure ones, or
        # (third hand) the unsure ones and the losers
        for i in range(n):
            keys[i] = out[i]
        k = 0
        for i in range(cut, n):
            out[k] = keys[i]
            k += 1
        if second:
            for i in range(split):
                out[k] = keys[i]
                k += 1
            for i in range(split, cut):
                out[k] = keys[i]
                k += 1
        else:
            for i in range(split, cut):
                out[k] = keys[i]
                k += 1
            for i in range(split):
                out[k] = keys[i]
                k += 1
        return n
    # void in the suit led: a trump that surely wins the trick first (the cheapest),
    # then discards from the longest side suit, low cards first, and losing trumps,
    # then a trump partner's card made needless
    n = 0
    for suit in range(4):
        if not hand & _mask(suit):
            continue
        end = _suit_groups(hand, live, suit, out, n)
        length = popcount(hand & _mask(suit))
        for i in range(n, end):
            card = lowest(out[i])
            if suit != trump:
                keys[i] = 2 << 6 | card % 13 + 16 - length
            else:
                if best_suit == trump and card < best:
                    rank = 2
                elif holds:
                    rank = 3
                elif card > over_trump:
                    rank = 0  # the cheapest sure winner
                else:
                    rank = 2
                keys[i] = rank << 6 | card % 13 + 16 + 13
            # the group breaks ties, as it does in the pure search's sort keys
            keys[i] = keys[i] << 52 | out[i]
        n = end
    _sort(keys, out, n)
    return n


@jit
def _rotate(items: _Ints, n: int, split: int) -> None:
    """Move ``items[split:n]`` before ``items[:split]``, each part in its order."""
    if split in (0, n):
        return
    for _ in range(split):
        first = items[0]
        for i in range(1, n):
            items[i - 1] = items[i]
        items[n - 1] = first


@jit
def _last(hands: _Ints, leader: int, trump: int) -> tuple[int, int]:
    """The last trick played out: 1 if the leader's side wins it, and the winning card
    when it wins by rank."""
    best = -1
    at = 0
    ranked = False
    for i in range(4):
        played = highest(hands[(leader + i) % 4])
        if best < 0:
            best = played
            at = i
        elif played // 13 == best // 13:
            ranked = True
            if played > best:
                best = played
                at = i
        elif played // 13 == trump:
            best = played
            at = i
            ranked = False
    return (1 if at & 1 == 0 else 0), (1 << best if ranked else 0)


@jit
def _lengths_key(infos: _Ints) -> int:
    """Every seat's length in every suit as one word (four bits each): the table's key,
    with the leader."""
    key: int = (
        infos[0, _LENGTHS] << 48
        | infos[1, _LENGTHS] << 32
        | infos[2, _LENGTHS] << 16
        | infos[3, _LENGTHS]
    )
    return key


@jit
def _bucket(key: int, leader: int, heads: npt.NDArray[np.int32]) -> int:
    """The table's chain of ``key`` and ``leader`` (a multiplicative hash, wrapping)."""
    mixed = (key ^ key >> 29) * 0x2545F4914F6CDD1D + leader * 0x9E3779B1
    return (mixed >> 20) & (len(heads) - 1)


@jit
def _entry_cards(infos: _Ints, small: npt.NDArray[np.int8], entry: int) -> int:
    """The cards an entry's answer rests on at this trick's start: in each suit the
    highest cards in play, as many as the entry keeps the holders of."""
    relevant = 0
    for suit in range(4):
        kept = infos[suit, _IN_PLAY] - (small[entry, _SHIFTS + suit] >> 1)
        relevant |= _top_cards(infos[suit, _SUIT_LIVE], kept)
    return relevant


@jit
def _probe(  # noqa: PLR0917 - numba takes its arguments by position
    infos: _Ints,
    leader: int,
    target: int,
    heads: npt.NDArray[np.int32],
    keys: _Ints,
    small: npt.NDArray[np.int8],
    codes: npt.NDArray[np.int32],
    chain: npt.NDArray[np.int32],
) -> tuple[int, int]:
    """Look the trick's start up: 1 (at least ``target``) or 0 (fewer) with the cards
    the answer rests on, -1 when no entry decides it."""
    key = _lengths_key(infos)
    entry = heads[_bucket(key, leader, heads)]
    while entry >= 0:
        if keys[entry] == key and small[entry, _LEADER_OF] == leader:
            alike = True
            for suit in range(4):
                if infos[suit, _CODE] >> small[entry, _SHIFTS + suit] != codes[entry, suit]:
                    alike = False
                    break
            if alike:
                if small[entry, _LOWER] >= target:
                    return 1, _entry_cards(infos, small, entry)
                if small[entry, _UPPER] < target:
                    return 0, _entry_cards(infos, small, entry)
        entry = chain[entry]
    return -1, 0


@jit
def _store(  # noqa: PLR0917 - numba takes its arguments by position
    infos: _Ints,
    leader: int,
    found: int,
    target: int,
    left: int,
    relevant: int,
    heads: npt.NDArray[np.int32],
    keys: _Ints,
    small: npt.NDArray[np.int8],
    codes: npt.NDArray[np.int32],
    chain: npt.NDArray[np.int32],
    registers: _Ints,
    shifts: _Ints,
) -> None:
    """Keep what a search of a trick's start proved: at least ``target`` tricks if
    ``found``, else at most ``target - 1``, for every position with the same lengths and
    the same holders of each suit's cards down to the lowest the answer rested on
    (``shifts`` holds how many bits of each suit's code it drops)."""
    for suit in range(4):
        ranks = relevant & _mask(suit)
        if ranks:
            below = infos[suit, _SUIT_LIVE] & (ranks & -ranks) - 1
            shifts[suit] = 2 * popcount(below)
        else:
            shifts[suit] = 2 * infos[suit, _IN_PLAY]
    key = _lengths_key(infos)
    bucket = _bucket(key, leader, heads)
    entry = heads[bucket]
    tail = -1
    while entry >= 0:
        if keys[entry] == key and small[entry, _LEADER_OF] == leader:
            alike = True
            for suit in range(4):
                if small[entry, _SHIFTS + suit] != shifts[suit] or (
                    infos[suit, _CODE] >> shifts[suit] != codes[entry, suit]
                ):
                    alike = False
                    break
            if alike:
                if found:
                    small[entry, _LOWER] = max(small[entry, _LOWER], target)
                else:
                    small[entry, _UPPER] = min(small[entry, _UPPER], target - 1)
                return
        tail = entry
        entry = chain[entry]
    entries = registers[_ENTRIES]
    if entries >= len(keys):
        # full: start again (as the pure search does)
        heads.fill(-1)
        entries = 0
        tail = -1
    entry = entries
    registers[_ENTRIES] = entries + 1
    keys[entry] = key
    small[entry, _LEADER_OF] = leader
    small[entry, _LOWER] = target if found else 0
    small[entry, _UPPER] = left if found else target - 1
    for suit in range(4):
        small[entry, _SHIFTS + suit] = shifts[suit]
        codes[entry, suit] = infos[suit, _CODE] >> shifts[suit]
    chain[entry] = -1
    # appended at the chain's end: entries of a key are read in the order they came,
    # as the pure search reads its buckets
    if tail < 0:
        heads[bucket] = entry
    else:
        chain[tail] = entry


@jit
def _run(  # noqa: PLR0917 - numba takes its arguments by position
    hands: _Ints,
    frames: _Ints,
    moves: _Ints,
    infos: _Ints,
    killers: _Ints,
    heads: npt.NDArray[np.int32],
    keys: _Ints,
    small: npt.NDArray[np.int8],
    codes: npt.NDArray[np.int32],
    chain: npt.NDArray[np.int32],
    registers: _Ints,
    scratch: _Ints,
    budget: int,
) -> bool:
    """Run the question set up in frame 0 for up to ``budget`` more nodes; ``True`` once
    it is answered (1 or 0 in ``registers[_FOUND]``), ``False`` when the budget ran out
    first (the stack kept, so that a second call carries on). ``scratch`` holds what
    the ordering and the table's store work out on the way."""
    sp = registers[_SP]
    mode = registers[_MODE]
    found = registers[_FOUND]
    relevant = registers[_RELEVANT]
    nodes = registers[_NODES]
    trump = registers[_TRUMP]
    limit = nodes + budget
    done = False
    while True:
        frame = frames[sp]
        if mode == _ENTER:
            leader = frame[_LEADER]
            count = frame[_COUNT]
            target = frame[_TARGET]
            left = frame[_LEFT]
            if count == 0:
                if target <= 0:
                    found, relevant, mode = 1, 0, _RETURN
                    continue
                if target > left:
                    found, relevant, mode = 0, 0, _RETURN
                    continue
                if nodes >= limit:
                    break
                nodes += 1
                if left == 1:
                    found, relevant = _last(hands, leader, trump)
                    mode = _RETURN
                    continue
                info = infos[sp]
                _suit_records(hands, info)
                answer, cards = _probe(info, leader, target, heads, keys, small, codes, chain)
                if answer >= 0:
                    found, relevant, mode = answer, cards, _RETURN
                    continue
                sure, cards = _sure_tricks(info, leader, trump)
                if sure >= target:
                    found, relevant, mode = 1, cards, _RETURN
                    continue
                lost, cards = _later_tricks(info, leader, trump)
                if left - lost < target:
                    found, relevant, mode = 0, cards, _RETURN
                    continue
                frame[_LIVE] = hands[0] | hands[1] | hands[2] | hands[3]
                frame[_MOVES] = _order_leads(
                    hands, leader, trump, killers[left], moves[sp], scratch
                )
                frame[_STORE] = 1
            else:
                if sp > 0:  # (a question asked within a trick does not count its start)
                    if nodes >= limit:
                        break
                    nodes += 1
                seat = (leader + count) % 4
                if count == 1:
                    # the second hand's side needs left - target + 1 tricks to defeat it
                    won, cards = _second_hand(hands, seat, frame[_LEAD], trump, left - target + 1)
                    if won:
                        found, relevant, mode = 0, cards, _RETURN
                        continue
                frame[_MOVES] = _order_follows(
                    hands,
                    seat,
                    count,
                    frame[_LEAD] // 13,
                    trump,
                    frame[_BEST],
                    frame[_AT],
                    frame[_LIVE],
                    moves[sp],
                    scratch[0],
                )
                frame[_STORE] = 0
            frame[_INDEX] = 0
            frame[_UNION] = 0
            frame[_SKIP] = 0
            mode = _NEXT
            continue
        if mode == _FINISH:
            if frame[_STORE]:
                _store(
                    infos[sp],
                    frame[_LEADER],
                    found,
                    frame[_TARGET],
                    frame[_LEFT],
                    relevant,
                    heads,
                    keys,
                    small,
                    codes,
                    chain,
                    registers,
                    scratch[0],
                )
            mode = _RETURN
        count = frame[_COUNT]
        leader = frame[_LEADER]
        seat = (leader + count) % 4
        maximizing = 1 if count & 1 == 0 else 0
        if mode == _RETURN:
            if sp == 0:
                done = True
                break
            sp -= 1
            frame = frames[sp]
            count = frame[_COUNT]
            leader = frame[_LEADER]
            seat = (leader + count) % 4
            maximizing = 1 if count & 1 == 0 else 0
            negate = frame[_NEGATE]
            if negate >= 0:  # the answer of the next trick's start
                if negate:
                    found = 1 - found
                if frame[_NEW_RANKED]:
                    relevant |= 1 << frame[_NEW_BEST]
            hands[seat] = frame[_HAND]
            low = frame[_LOW]
            group = frame[_GROUP]
            mask = _mask(lowest(low) // 13)
            if found == maximizing:
                if group != low:
                    ranks = relevant & mask
                    if ranks and group > ranks & -ranks > low:
                        # the group reaches up among the cards the answer rests on: it
                        # stays one group only where its lowest card is held alike too
                        relevant |= low
                if count == 0:
                    killers[frame[_LEFT]] = low
                mode = _FINISH
                continue
            ranks = relevant & mask
            if ranks:
                if group != low and group > ranks & -ranks > low:
                    relevant |= low
                    ranks |= low
                # no lower card of the suit gives another answer (DDS's lowest
                # winning rank)
                floor = ranks & -ranks
                if low < floor:
                    frame[_SKIP] |= floor - 1 & mask
            else:
                # the answer rests on no card of the suit: none other is worth trying
                frame[_SKIP] |= mask
            frame[_UNION] |= relevant
            mode = _NEXT
        # _NEXT: the frame's next group
        index = frame[_INDEX]
        n = frame[_MOVES]
        skip = frame[_SKIP]
        group = 0
        low = 0
        while index < n:
            group = moves[sp, index]
            index += 1
            low = group & -group
            if not low & skip:
                break
            group = 0
        frame[_INDEX] = index
        if group == 0:
            found = 1 - maximizing
            relevant = frame[_UNION]
            mode = _FINISH
            continue
        played = lowest(low)
        suit = played // 13
        hand = hands[seat]
        frame[_HAND] = hand
        frame[_LOW] = low
        frame[_GROUP] = group
        hands[seat] = hand ^ low
        best = frame[_BEST]
        at = frame[_AT]
        ranked = frame[_RANKED]
        if count == 0:
            best, at, ranked = played, 0, 0
        elif suit == best // 13:
            ranked = 1
            if played > best:
                best, at = played, count
        elif suit == trump:
            best, at, ranked = played, count, 0
        child = frames[sp + 1]
        if count == 3:
            frame[_NEGATE] = at & 1
            frame[_NEW_BEST] = best
            frame[_NEW_RANKED] = ranked
            child[_LEADER] = (leader + at) % 4
            child[_COUNT] = 0
            left = frame[_LEFT]
            child[_TARGET] = frame[_TARGET] - 1 if at & 1 == 0 else left - frame[_TARGET]
            child[_LEFT] = left - 1
        else:
            frame[_NEGATE] = -1
            child[_LEADER] = leader
            child[_COUNT] = count + 1
            child[_BEST] = best
            child[_AT] = at
            child[_RANKED] = ranked
            child[_TARGET] = frame[_TARGET]
            child[_LEFT] = frame[_LEFT]
            child[_LEAD] = frame[_LEAD] if count else played
            child[_LIVE] = frame[_LIVE]
        sp += 1
        mode = _ENTER
    registers[_SP] = sp
    registers[_MODE] = mode
    registers[_FOUND] = found
    registers[_RELEVANT] = relevant
    registers[_NODES] = nodes
    return done


class BridgeKernel:
    """The compiled double-dummy search of one strain (four hands), its table kept from
    question to question, as :class:`~zerosum.games.bridge.search.PartitionSearch` keeps
    its own; it answers the same questions the same way (:meth:`at_least`).

    ``table_bits`` sizes the table: ``2 ** table_bits`` entries of 35 bytes, and a
    quarter as many chains. The first kernel made in a process loads the compiled code
    from the cache folder, or compiles it (some seconds) if the cache holds none for
    this CPU."""

    __slots__ = (
        "_chain",
        "_codes",
        "_frames",
        "_hands",
        "_heads",
        "_infos",
        "_keys",
        "_killers",
        "_moves",
        "_registers",
        "_scratch",
        "_small",
        "seats",
        "trump",
    )

    def __init__(self, trump: int, table_bits: int = 21) -> None:
        if not 8 <= table_bits <= 26:
            raise ValueError(f"table_bits must be from 8 to 26, not {table_bits}")
        self.seats = 4
        """The hands the search plays: four (double dummy)."""
        self.trump = trump
        """The strain (:data:`~zerosum.games.bridge.rules.NOTRUMP` for no trump)."""
        size = 1 << table_bits
        self._hands = np.zeros(4, dtype=np.int64)
        self._frames = np.zeros((_MAX_PLY, _FIELDS), dtype=np.int64)
        self._moves = np.zeros((_MAX_PLY, 13), dtype=np.int64)
        self._infos = np.zeros((_MAX_PLY, 4, _INFO), dtype=np.int64)
        self._killers = np.zeros(14, dtype=np.int64)
        # (np.empty: an entry's slots are written when it is made, and pages the table
        # never reaches are never touched)
        self._heads = np.empty(size >> 2, dtype=np.int32)
        self._keys = np.empty(size, dtype=np.int64)
        self._small = np.empty((size, _SMALL), dtype=np.int8)
        self._codes = np.empty((size, 4), dtype=np.int32)
        self._chain = np.empty(size, dtype=np.int32)
        self._registers = np.zeros(_REGISTERS, dtype=np.int64)
        self._registers[_TRUMP] = trump
        self._scratch = np.zeros((2, 16), dtype=np.int64)
        self.clear()

    @property
    def nodes(self) -> int:
        """The positions searched over every question (a card about to be played, or a
        trick about to start), counted as the pure search counts them."""
        return int(self._registers[_NODES])

    @property
    def entries(self) -> int:
        """The entries the table holds."""
        return int(self._registers[_ENTRIES])

    def clear(self) -> None:
        """Empty the table and the node count."""
        self._heads.fill(-1)
        self._registers[_ENTRIES] = 0
        self._registers[_NODES] = 0

    def at_least(self, state: State, tricks: int, limits: Limits | None = None) -> bool:
        """Tell whether the side of the seat to play in ``state`` takes at least
        ``tricks`` tricks from the current trick on (those already won not counted).

        ``limits`` (time, nodes, a stop signal) bound the search, which raises
        :class:`~zerosum.search.engine.SearchStopped` when one strikes; the table keeps
        what finished before."""
        hands, seat, trick = state[0], state[1], state[2]
        if len(hands) != 4:
            raise ValueError(f"the compiled search plays four hands, not {len(hands)}")
        left = hands[seat].bit_count()
        if tricks <= 0:
            return True
        if tricks > left:
            return False
        leader = (seat - len(trick)) % 4
        frame = self._frames[0]
        frame[_LEADER] = leader
        frame[_COUNT] = len(trick)
        frame[_LEFT] = left
        ours = True
        if trick:
            best, at, ranked = -1, 0, 0
            live = hands[0] | hands[1] | hands[2] | hands[3]
            for place, played in enumerate(trick):
                live |= 1 << played
                if best < 0:
                    best, at = played, place
                elif played // 13 == best // 13:
                    ranked = 1
                    if played > best:
                        best, at = played, place
                elif played // 13 == self.trump:
                    best, at, ranked = played, place, 0
            ours = (seat ^ leader) & 1 == 0
            frame[_TARGET] = tricks if ours else left - tricks + 1
            frame[_BEST] = best
            frame[_AT] = at
            frame[_RANKED] = ranked
            frame[_LEAD] = trick[0]
            frame[_LIVE] = live
        else:
            frame[_TARGET] = tricks
            frame[_LEAD] = -1
        self._hands[:] = hands
        self._killers.fill(0)
        registers = self._registers
        registers[_SP] = 0
        registers[_MODE] = _ENTER
        found = self._run(limits)
        return found if ours else not found

    def _run(self, limits: Limits | None) -> bool:
        """Answer the question set up in frame 0 under ``limits``."""
        first = self.nodes
        node_limit = limits.nodes if limits is not None else None
        stop = limits.stop if limits is not None else None
        seconds = limits.time if limits is not None else None
        deadline = time.perf_counter() + seconds if seconds is not None else None
        watched = node_limit is not None or stop is not None or deadline is not None
        while True:
            budget = CHUNK_NODES if watched else _NO_LIMIT
            if node_limit is not None:
                budget = min(budget, node_limit - (self.nodes - first))
            if budget > 0 and _run(
                self._hands,
                self._frames,
                self._moves,
                self._infos,
                self._killers,
                self._heads,
                self._keys,
                self._small,
                self._codes,
                self._chain,
                self._registers,
                self._scratch,
                budget,
            ):
                return bool(self._registers[_FOUND])
            done = self.nodes - first
            if node_limit is not None and done >= node_limit:
                raise SearchStopped("nodes", done)
            if stop is not None and stop.is_set():
                raise SearchStopped("stop", done)
            if deadline is not None and time.perf_counter() >= deadline:
                raise SearchStopped("time", done)
