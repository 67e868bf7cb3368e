"""Double-dummy solving: the tricks a side takes with best play, every card's value and
the full double-dummy table, found by the engine's null-window searches
(:meth:`~zerosum.search.engine.Engine.search_window`) with the hooks trick-taking needs.

The engine searches :class:`SolverRules`, the card play of :mod:`.rules` with:

* **one card per group of equivalent cards** (:func:`~.rules.sequences`): playing the
  queen or the jack of ``QJ`` leads to the same result, so only one is searched;
* **move ordering** (:func:`ordered_groups`): a leader cashes its side's top cards, leads
  to partner's winners or towards a ruff before anything else; a follower wins the trick
  as cheaply as it can be sure of, and otherwise plays low;
* **quick-trick bounds** as ``score_bounds`` (:func:`trick_bounds`): at the start of a
  trick the leader's side takes at least the top cards the leader can cash (no more in a
  side suit than a hand holding trumps can follow), or those partner cashes after an
  entry, or the top trumps one of its hands holds, and at most the tricks left less the
  top trumps one opponent holds;
* **a table key with rank equivalence** (:meth:`SolverRules.key`): at the start of a
  trick the key is, suit by suit, which seat holds each card still in play, from the
  highest down, so that positions differing only in cards already played share their
  entry; within a trick it is the position itself;
* **the last trick played out** as ``window_value``, with no node searched.

Scores are the engine's: the final difference in tricks for the side to move (see
:mod:`.rules`). :class:`DoubleDummySolver` turns them into tricks:
:meth:`~DoubleDummySolver.tricks` for the side to move with best play,
:meth:`~DoubleDummySolver.card_values` for every card it may play (DDS's all-cards mode,
equivalent cards grouped), and :func:`dd_table` the tricks of each declarer in each
strain, as DDS's ``TABLE``. A solve is a search on the tricks: each probe asks one
null-window question, "does the side to move take at least ``t`` tricks?", and the
engine's table carries what one probe proved to the next. Each addition's worth, in
nodes and time, is measured by ``bench/bridge_dds.py`` (see ``bench/README.md``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from zerosum.game import GameInfo
from zerosum.games.bitboards import bit_indices
from zerosum.games.bridge.rules import (
    NOTRUMP,
    RANKS,
    SUIT_MASKS,
    SUIT_OF,
    CardPlayRules,
    State,
    equivalent_groups,
    make,
    result,
    trick_winner,
)
from zerosum.search.engine import Engine, EngineOptions, Limits

__all__ = [
    "CardValue",
    "DoubleDummySolver",
    "SolverParts",
    "SolverRules",
    "dd_table",
    "ordered_groups",
    "quick_tricks",
    "top_trumps",
    "trick_bounds",
]

_SUIT = (1 << RANKS) - 1
"""A suit's cards once shifted down: 13 bits."""

_CODE_BITS = 2 * RANKS + 1
"""Bits of a suit's code in the key (:func:`_owners`): two a card and a leading 1."""

_KEYS_KEPT = 1 << 20
"""Hands whose key part is remembered (the searches come back to the same positions
probe after probe); past this many the memory starts again."""

_TABLE_SIZE = 1 << 20
"""Table entries of a solver's engine at most (it grows to this as it fills): a whole
deal's solve visits millions of nodes, yet a table four times larger saved 1% of them."""


def _top(mask: int) -> int:
    """The highest bit of a non-empty ``mask``."""
    return 1 << mask.bit_length() - 1


def _cashable(held: int, holdings: Sequence[int]) -> int:
    """The rounds a hand holding ``held`` of a suit (not empty) wins by leading it from
    the top while the other hands, holding ``holdings`` of it, follow as long as they
    can: its cards above all of theirs, and every card of it once theirs have run out."""
    rest = 0
    longest = 0
    for holding in holdings:
        rest |= holding
        longest = max(longest, holding.bit_count())
    winners = (held >> rest.bit_length()).bit_count()
    return held.bit_count() if winners >= longest else winners


def _cashing(hands: Sequence[int], seat: int, trump: int) -> list[int]:
    """The rounds ``seat`` wins in each suit by leading it from the top (see
    :func:`quick_tricks`), suit by suit."""
    mine = hands[seat]
    others = [hand for other, hand in enumerate(hands) if other != seat]
    trumps = SUIT_MASKS[trump] if trump != NOTRUMP else 0
    rounds = [0, 0, 0, 0]
    for suit in range(4):
        shift = RANKS * suit
        held = mine >> shift & _SUIT
        if not held:
            continue
        holdings = [hand >> shift & _SUIT for hand in others]
        cash = _cashable(held, holdings)
        if trumps and suit != trump:
            for hand, holding in zip(others, holdings, strict=True):
                if hand & trumps:
                    cash = min(cash, holding.bit_count())
        rounds[suit] = cash
    return rounds


def quick_tricks(hands: Sequence[int], seat: int, trump: int) -> int:
    """Return tricks the side of ``seat`` is sure to take when ``seat`` leads a new
    trick: the most of three plans, each a strategy that wins that many tricks whatever
    the others do.

    *Cashing*: ``seat`` leads its winners suit by suit from the top, and in a suit other
    than trumps no more rounds than the shortest holding of another hand that holds
    trumps (partner's too, whose ruff would take the lead), so that every round wins and
    ``seat`` keeps the lead; a hand that runs out of a suit and discards only makes the
    other suits better. *Both hands' cashing*: ``seat`` cashes as above the suits in
    which partner cashes nothing and follows every round, then leads a suit in which
    partner cashes at least one round, and partner, on lead after winning it, cashes as
    above (that trick is partner's first round of the suit). *Top trumps*: a hand of the side
    holding the ``k`` highest trumps still in play takes ``k`` tricks by keeping them to
    the end (a top trump wins the trick it is played to, and its holder may play it once
    void or when trumps are led)."""
    cashing = _cashing(hands, seat, trump)
    total = sum(cashing)
    if len(hands) == 4:
        mine, partner = hands[seat], hands[seat ^ 2]
        theirs = _cashing(hands, seat ^ 2, trump)
        if any(rounds and mine & SUIT_MASKS[suit] for suit, rounds in enumerate(theirs)):
            # first the suits only seat cashes, where partner follows every round (a
            # discard might be one of partner's winners), then partner's
            first = sum(
                rounds
                for suit, rounds in enumerate(cashing)
                if not theirs[suit] and (partner & SUIT_MASKS[suit]).bit_count() >= rounds
            )
            total = max(total, first + sum(theirs))
    if trump != NOTRUMP:
        side = [seat] if len(hands) == 2 else [seat, seat ^ 2]
        total = max(total, *(top_trumps(hands, member, trump) for member in side))
    return total


def top_trumps(hands: Sequence[int], seat: int, trump: int) -> int:
    """Return how many of the highest trumps still in ``hands`` are in ``seat``'s hand."""
    shift = RANKS * trump
    held = hands[seat] >> shift & _SUIT
    if not held:
        return 0
    rest = 0
    for other, hand in enumerate(hands):
        if other != seat:
            rest |= hand >> shift & _SUIT
    return (held >> rest.bit_length()).bit_count()


def trick_bounds(state: State) -> tuple[int, int]:
    """Return bounds ``(lo, hi)`` on the final difference in tricks for the side to move
    in ``state``: the difference so far give or take the tricks left, narrowed at the
    start of a trick by the leader's :func:`quick_tricks` (at least) and the top trumps
    one opponent holds (the tricks the leader's side cannot have)."""
    hands, seat, trick, won0, won1, trump = state
    left = hands[seat].bit_count()
    mine, theirs = (won1, won0) if seat & 1 else (won0, won1)
    total = mine + theirs + left
    # bounds within a trick (its sure winner, the top trumps) were measured: 1% fewer
    # nodes, for more time
    if trick or not left:
        return mine - theirs - left, mine - theirs + left
    sure = quick_tricks(hands, seat, trump)
    lost = 0
    if trump != NOTRUMP:
        opponents = [seat ^ 1] if len(hands) == 2 else [seat ^ 1, seat ^ 3]
        lost = max(top_trumps(hands, other, trump) for other in opponents)
    return 2 * (mine + sure) - total, 2 * (mine + left - lost) - total


def _beaten_later(state: State, winning: int) -> bool:
    """Whether an opponent of the seat to play, still to play to this trick after it,
    may beat ``winning`` (the card that wins the trick so far, or would once played)."""
    hands, seat, trick, _, _, trump = state
    seats = len(hands)
    led = SUIT_OF[trick[0]]
    to_come = seats - 1 - len(trick)
    suit = SUIT_OF[winning]
    for offset in range(1, to_come + 1):
        other = (seat + offset) % seats
        if (other ^ seat) & 1 == 0:
            continue
        hand = hands[other]
        follows = hand & SUIT_MASKS[led]
        if follows:
            if suit == led and follows >> winning:
                return True
        elif trump != NOTRUMP:
            trumps = hand & SUIT_MASKS[trump]
            if trumps and (suit != trump or trumps >> winning):
                return True
    return False


def ordered_groups(state: State) -> list[int]:
    """Return the groups of equivalent legal cards of ``state`` (see
    :func:`~zerosum.games.bridge.rules.equivalent_groups`), most promising first.

    A leader cashes its top cards (trumps first in a trump contract, and side suits
    an opponent would ruff last), leads low to the top cards of its partner or towards
    partner's ruff, and otherwise leads its highest cards, through the opponent holding
    the suit's top card before up to it, trumps last. A follower
    takes the trick with the cheapest card no opponent still to play can beat, unless
    partner already holds it so; last to play it wins as cheaply as it can or plays low;
    and low cards (trumps last) come before wasted high ones."""
    groups = equivalent_groups(state)
    if len(groups) < 2:
        return groups
    hands, seat, trick, _, _, trump = state
    if trick:
        return _follows(state, groups)
    seats = len(hands)
    partner = hands[(seat + 2) % 4] if seats == 4 else 0
    mine = hands[seat]
    everyone = 0
    for hand in hands:
        everyone |= hand
    ranked = []
    for group in groups:
        low = group & -group
        card = low.bit_length() - 1
        suit = SUIT_OF[card]
        live = everyone & SUIT_MASKS[suit]
        top = _top(live)
        if top & group:
            # a top card: cash it (trumps first), unless an opponent void in a side
            # suit ruffs it
            ruffed = trump not in (suit, NOTRUMP) and _opponent_ruffs(state, suit)
            rank = 5 if ruffed else (0 if suit == trump else 2)
        elif top & partner and not (mine & SUIT_MASKS[suit]) & (group - 1):
            rank = 3  # the lowest card towards partner's winner
        elif (
            trump not in (suit, NOTRUMP)
            and partner
            and not partner & SUIT_MASKS[suit]
            and partner & SUIT_MASKS[trump]
        ):
            rank = 4  # partner ruffs
        elif suit == trump:
            rank = 7
        else:
            # lead through the opponent holding the top card, not up to it
            rank = 6 if seats == 4 and top & hands[seat ^ 3] else 5
        ranked.append((rank, -(card % RANKS) if rank in (0, 2, 5, 6) else card % RANKS, group))
    ranked.sort()
    return [group for _, _, group in ranked]


def _opponent_ruffs(state: State, suit: int) -> bool:
    """Whether an opponent of the leader is void in ``suit`` and holds a trump."""
    hands, seat, _, _, _, trump = state
    seats = len(hands)
    for other in range(seats):
        held = hands[other]
        if (other ^ seat) & 1 and not held & SUIT_MASKS[suit] and held & SUIT_MASKS[trump]:
            return True
    return False


def _follows(state: State, groups: list[int]) -> list[int]:
    """A follower's groups, the most promising first (see :func:`ordered_groups`)."""
    hands, seat, trick, _, _, trump = state
    seats = len(hands)
    leader = (seat - len(trick)) % seats
    at = trick_winner(trick, trump)
    best = trick[at]
    best_suit = SUIT_OF[best]
    led = SUIT_OF[trick[0]]
    # partner's card holds the trick whatever the opponents still to play do: play low
    held = ((leader + at) ^ seat) & 1 == 0 and not _beaten_later(state, best)
    second = len(trick) == 1 and seats == 4
    ranked = []
    for group in groups:
        card = (group & -group).bit_length() - 1
        suit = SUIT_OF[card]
        beats = (suit == best_suit and card > best) or (suit == trump and best_suit != trump)
        cheap = card % RANKS + (RANKS if suit == trump else 0)
        if held:
            rank = 3 if beats else 2
        elif beats and not _beaten_later(state, card):
            rank = 0  # the cheapest sure winner
        elif beats and suit == led and not second:
            rank = 1
        else:
            rank = 2
        ranked.append((rank, cheap, group))
    ranked.sort()
    return [group for _, _, group in ranked]


@dataclass(frozen=True, slots=True)
class SolverParts:
    """Which of the solver's additions :class:`SolverRules` uses, each on by default;
    switched off one at a time, they measure what each is worth
    (``bench/bridge_dds.py``). ``sequences``: one card per group of equivalent cards;
    ``ordering``: :func:`ordered_groups`; ``bounds``: :func:`trick_bounds`;
    ``equivalence``: the table key with rank equivalence; ``last_trick``: the last
    trick played out."""

    sequences: bool = True
    ordering: bool = True
    bounds: bool = True
    equivalence: bool = True
    last_trick: bool = True


class SolverRules(CardPlayRules):
    """The card play the solver's engine searches: the rules of ``start``'s game with
    one card per group of equivalent cards, ordered, a table key with rank equivalence,
    quick-trick bounds and the last trick played out (see the module notes), each of
    them as ``parts`` says."""

    def __init__(self, start: State, parts: SolverParts | None = None) -> None:
        seats = len(start[0])
        info = GameInfo(
            name="bridge-solver",
            title="Double-dummy solver" if seats == 4 else "Two-hand card play solver",
            players=("north-south", "east-west") if seats == 4 else ("first", "second"),
            utility_range=(-13, 13),
            win_loss=False,
            description="Bridge card play with one card per group of equivalent cards.",
            score_unit="tricks ahead",
            alternating=False,
        )
        super().__init__(start, info)
        self.parts = parts = parts or SolverParts()
        self._codes: dict[tuple[int, ...], int] = {}
        self._keys: dict[tuple[int, ...], int] = {}
        if not parts.bounds:
            self.score_bounds = super().score_bounds  # type: ignore[method-assign]
        if not parts.equivalence:
            self.key = super().key  # type: ignore[method-assign]
        if not parts.last_trick:
            self.window_value = lambda state, alpha, beta: None  # type: ignore[method-assign]

    def actions(self, state: State) -> list[int]:
        """Return one card (the lowest) of each group of equivalent legal cards, in no
        particular order: the engine asks it only whether the table's move is legal."""
        if not self.parts.sequences:
            return CardPlayRules.actions(self, state)
        return [(group & -group).bit_length() - 1 for group in equivalent_groups(state)]

    def ordered_actions(self, state: State) -> list[int]:
        """Return :meth:`actions`, the most promising first (:func:`ordered_groups`)."""
        parts = self.parts
        if not parts.ordering:
            return self.actions(state)
        if not parts.sequences:
            return [card for group in ordered_groups(state) for card in bit_indices(group)]
        return [(group & -group).bit_length() - 1 for group in ordered_groups(state)]

    def score_bounds(self, state: State) -> tuple[int, int]:
        """Return :func:`trick_bounds`."""
        return trick_bounds(state)

    def key(self, state: State) -> int:
        """Return the table key: at the start of a trick, for each suit which seat holds
        each card still in play from the highest down (cards already played drop out,
        so equivalent positions share the key), with the seat to lead and the tricks
        won; within a trick, the position itself (:meth:`CardPlayRules.key`), negated
        to keep the two kinds apart."""
        hands, seat, trick, won0, won1, _ = state
        if trick:
            return -1 - CardPlayRules.key(self, state)
        keys = self._keys
        packed = keys.get(hands)
        if packed is None:
            if len(keys) >= _KEYS_KEPT:
                keys.clear()
            codes = self._codes
            packed = 0
            for suit in range(4):
                shift = RANKS * suit
                holdings = tuple(hand >> shift & _SUIT for hand in hands)
                code = codes.get(holdings)
                if code is None:
                    code = codes[holdings] = _owners(holdings)
                packed = packed << _CODE_BITS | code
            keys[hands] = packed
        return ((won0 << 4 | won1) << 4 * _CODE_BITS | packed) << 2 | seat

    def window_value(self, state: State, alpha: int, beta: int) -> int | None:
        """Return the exact value of the last trick, played out; ``None`` earlier.
        (Playing out the last two tricks by plain minimax saved 4% of the engine's nodes
        and cost more time than it saved; three, three times the time.)"""
        if state[0][state[1]].bit_count() != 1:
            return None
        difference = _last_trick(state)
        return -difference if state[1] & 1 else difference


def _last_trick(state: State) -> int:
    """The final difference in tricks (side 0's less side 1's) once every seat, holding
    one card, has played it."""
    hands, seat, trick, won0, won1, trump = state
    seats = len(hands)
    cards = [
        *trick,
        *(hands[(seat + offset) % seats].bit_length() - 1 for offset in range(seats - len(trick))),
    ]
    winner = (seat - len(trick) + trick_winner(cards, trump)) % seats
    return won0 - won1 + (-1 if winner & 1 else 1)


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


@dataclass(frozen=True, slots=True)
class CardValue:
    """One group of equivalent cards the seat to play may play, as DDS's all-cards mode
    reports it: ``card`` the highest of the group, ``equals`` the set of the others
    (a card set int, maybe empty), and ``tricks`` the tricks the side to move takes
    from the current trick on after playing it, with best play."""

    card: int
    equals: int
    tricks: int


class DoubleDummySolver:
    """Solves positions of one strain with one engine, whose table is kept from solve
    to solve (solving the same deal from another leader reuses it).

    ``trump`` is the strain (:data:`~.rules.NOTRUMP` for no trump); ``options`` the
    engine's, ``parts`` the solver's additions in use (:class:`SolverParts`). ``nodes``
    counts the nodes of every solve so far."""

    def __init__(
        self,
        trump: int,
        options: EngineOptions | None = None,
        parts: SolverParts | None = None,
    ) -> None:
        self.trump = trump
        self.options = options or EngineOptions(table_size=_TABLE_SIZE)
        self.parts = parts
        self._engines: dict[int, tuple[SolverRules, Engine]] = {}
        self.nodes = 0

    def _engine(self, state: State) -> tuple[SolverRules, Engine]:
        """The rules and engine of ``state``'s number of seats, made once."""
        seats = len(state[0])
        made = self._engines.get(seats)
        if made is None:
            rules = SolverRules(state, self.parts)
            made = self._engines[seats] = (rules, Engine(rules, self.options))
        return made

    def tricks(self, state: State, guess: int | None = None, limits: Limits | None = None) -> int:
        """Return the tricks the side to move in ``state`` takes from the current trick
        on (the tricks already won not counted), both sides playing best.

        ``guess`` (tricks) is probed first, then its neighbours: a good one saves
        probes; without one the probes halve the interval the bounds leave (a first
        guess halfway between the two sides' quick tricks was measured on two whole
        deals: 1.71M to 1.12M nodes on one, 7.5M to 14.6M on the other). ``limits`` (time,
        nodes, a stop signal) bound each probe, which raises
        :class:`~zerosum.search.engine.SearchStopped` when one strikes. Raises
        :class:`ValueError` for a state of another strain or with no card left."""
        if state[5] != self.trump:
            raise ValueError(f"this solver solves strain {self.trump}, not {state[5]}")
        hands, seat = state[0], state[1]
        left = hands[seat].bit_count()
        if not left:
            raise ValueError("every card has been played: there is nothing to solve")
        _, engine = self._engine(state)
        won = state[4] if seat & 1 else state[3]
        total = state[3] + state[4] + left
        low, high = trick_bounds(state)
        lo, hi = (low + total) // 2 - won, (high + total) // 2 - won
        while lo < hi:
            # from a guess, step by one (MTD(f)): a near guess takes two probes
            target = guess if guess is not None and lo < guess <= hi else (lo + hi + 1) // 2
            bar = 2 * (won + target) - total
            found = engine.search_window(state, bar - 1, bar, limits=limits)
            self.nodes += found.nodes
            tricks = (found.score + total) // 2 - won
            if found.score >= bar:
                lo = max(target, tricks)
                guess = None if guess is None else lo + 1
            else:
                hi = min(target - 1, tricks)
                guess = None if guess is None else hi
        return lo

    def card_values(self, state: State) -> list[CardValue]:
        """Return every group of equivalent cards the seat to play may play with the
        tricks its side takes from the current trick on after it, best first (ties in
        the order of :func:`~.rules.equivalent_groups`)."""
        best = self.tricks(state)
        seat = state[1]
        left = state[0][seat].bit_count()
        values = []
        for group in equivalent_groups(state):
            card = group.bit_length() - 1
            child = result(state, card)
            taken = 0
            if not child[2]:  # the card completed the trick: its winner leads next
                left_after = left - 1
                taken = int((child[1] ^ seat) & 1 == 0)
            else:
                left_after = left
            if not left_after:
                value = taken
            elif (child[1] ^ seat) & 1 == 0:
                value = taken + self.tricks(child, best - taken)
            else:
                value = taken + left_after - self.tricks(child, left_after - best + taken)
            values.append(CardValue(card, group ^ 1 << card, value))
        values.sort(key=lambda value: -value.tricks)
        return values


def dd_table(
    hands: Sequence[int],
    strains: Iterable[int] = range(5),
    options: EngineOptions | None = None,
    parts: SolverParts | None = None,
) -> list[list[int]]:
    """Return the double-dummy table of a deal of four hands: a row for each of
    ``strains`` (spades 0, hearts, diamonds, clubs, no trump 4; all five by default,
    in that order, as DDS's ``TABLE`` line holds them), each the tricks north, east,
    south and west take as declarer, the player on declarer's left leading."""
    table = []
    size = hands[0].bit_count()
    for strain in strains:
        solver = DoubleDummySolver(strain, options, parts)
        row = [0, 0, 0, 0]
        for declarer in (0, 1, 2, 3):
            # partners often take as many tricks: the first guess of south and west
            guess = size - row[declarer - 2] if declarer >= 2 else None
            leader = (declarer + 1) % 4
            row[declarer] = size - solver.tricks(make(hands, leader, strain), guess)
        table.append(row)
    return table
