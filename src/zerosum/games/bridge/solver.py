"""Double-dummy solving: the tricks a side takes with best play, every card's value and
the full double-dummy table.

The search is :class:`~.search.PartitionSearch`, bridge's own (partition search with a
table of tricks to come, quick tricks, move ordering: see :mod:`.search`), asked one
null-window question at a time, "does the side to move take at least ``t`` tricks?".
:class:`DoubleDummySolver` drives those questions and turns them into tricks:
:meth:`~DoubleDummySolver.tricks` for the side to move with best play,
:meth:`~DoubleDummySolver.card_values` for every card it may play (DDS's all-cards mode,
equivalent cards grouped), and :func:`dd_table` the tricks of each declarer in each
strain, as DDS's ``TABLE``. The search's table lasts from question to question and from
leader to leader of a strain, so each question starts from what the others proved.

:class:`SolverRules` plugs the same search into the engine: its ``window_value`` answers
a window for the whole position, so that :func:`zerosum.search.solve.solve` (and any
engine search) drives it like any game's solver. Its ``score_bounds``
(:func:`trick_bounds`) and ``ordered_actions`` (:func:`ordered_groups`) serve the
playing games too (:mod:`zerosum.games.bridge`).

Scores of the engine are the final difference in tricks for the side to move (see
:mod:`.rules`); the search's are tricks still to come. Each addition's worth, in nodes
and time, is measured by ``bench/bridge_dds.py`` (see ``bench/README.md``).

With the ``fast`` extra (numba) the search of four hands runs compiled
(:class:`~.kernel.BridgeKernel`): the same search, the same nodes and answers, some
twenty times faster; :class:`SolverParts` ``compiled=False`` or
``ZEROSUM_KERNELS=0`` keeps it in pure Python.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Protocol

from zerosum import kernels
from zerosum.game import GameInfo
from zerosum.games.bridge.rules import (
    NOTRUMP,
    CardPlayRules,
    State,
    equivalent_groups,
    make,
    result,
)
from zerosum.games.bridge.search import PartitionSearch, order_groups, sure_tricks, top_trumps
from zerosum.search.engine import Limits

__all__ = [
    "CardValue",
    "DoubleDummySolver",
    "SolverParts",
    "SolverRules",
    "TrickSearch",
    "dd_table",
    "ordered_groups",
    "trick_bounds",
]


class TrickSearch(Protocol):
    """What the solver asks of a search: :class:`~.search.PartitionSearch`, or its
    compiled twin :class:`~.kernel.BridgeKernel` (the same search, node for node)."""

    @property
    def nodes(self) -> int:
        """The positions searched over every question."""

    def at_least(self, state: State, tricks: int, limits: Limits | None = None) -> bool:
        """Tell whether the side of the seat to play takes at least ``tricks`` tricks
        from the current trick on; ``limits`` bound the search."""


def trick_bounds(state: State) -> tuple[int, int]:
    """Return bounds ``(lo, hi)`` on the final difference in tricks for the side to move
    in ``state``: the difference so far give or take the tricks left, narrowed at the
    start of a trick by the leader's :func:`~.search.sure_tricks` (at least) and the top
    trumps one opponent holds (the tricks the leader's side cannot have)."""
    hands, seat, trick, won0, won1, trump = state
    left = hands[seat].bit_count()
    mine, theirs = (won1, won0) if seat & 1 else (won0, won1)
    total = mine + theirs + left
    # bounds within a trick (its sure winner, the top trumps) were measured: 1% fewer
    # nodes, for more time
    if trick or not left:
        return mine - theirs - left, mine - theirs + left
    sure = sure_tricks(hands, seat, trump)[0]
    lost = 0
    if trump != NOTRUMP:
        opponents = [seat ^ 1] if len(hands) == 2 else [seat ^ 1, seat ^ 3]
        lost = max(top_trumps(hands, other, trump)[0] for other in opponents)
    return 2 * (mine + sure) - total, 2 * (mine + left - lost) - total


def ordered_groups(state: State) -> list[int]:
    """Return the groups of equivalent legal cards of ``state`` (see
    :func:`~zerosum.games.bridge.rules.equivalent_groups`), most promising first
    (:func:`~.search.order_groups`)."""
    hands, seat, trick, _, _, trump = state
    return order_groups(hands, seat, trick, trump, equivalent_groups(state))


@dataclass(frozen=True, slots=True)
class SolverParts:
    """Which of the search's additions (:class:`~.search.PartitionSearch`) a solver
    uses, each on by default; switched off one at a time, they measure what each is
    worth (``bench/bridge_dds.py``). ``sequences``: one card per group of equivalent
    cards; ``ordering``: :func:`~.search.order_groups`; ``bounds``: the quick-trick and
    later-trick bounds; ``table``: the table of tricks to come; ``partition``: its
    entries keeping only the cards that decided them; ``last_trick``: the last trick
    played out; ``compiled``: the search compiled with numba
    (:class:`~.kernel.BridgeKernel`, the same search node for node) where it can run:
    four hands, every other part in use, and :func:`zerosum.kernels.enabled` (the
    ``fast`` extra in, ``ZEROSUM_KERNELS`` not ``0``)."""

    sequences: bool = True
    ordering: bool = True
    bounds: bool = True
    table: bool = True
    partition: bool = True
    last_trick: bool = True
    compiled: bool = True

    def search(self, seats: int, trump: int) -> TrickSearch:
        """Return a new search of ``seats`` hands and strain ``trump`` with these parts."""
        if (
            self.compiled
            and seats == 4
            and all(getattr(self, part.name) for part in fields(self))
            and (module := kernels.load("zerosum.games.bridge.kernel")) is not None
        ):
            search: TrickSearch = module.BridgeKernel(trump)
            return search
        return PartitionSearch(
            seats,
            trump,
            sequences=self.sequences,
            ordering=self.ordering,
            bounds=self.bounds,
            table=self.table,
            partition=self.partition,
            last_trick=self.last_trick,
        )


class SolverRules(CardPlayRules):
    """The card play of ``start``'s game as the engine's solvers search it: one card per
    group of equivalent cards (:meth:`actions`), ordered, :func:`trick_bounds` as
    ``score_bounds``, and :meth:`window_value` answering any window for the whole
    position from a :class:`~.search.PartitionSearch` with ``parts``, whose table lasts
    as long as the rules."""

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
        self.search = (parts or SolverParts()).search(seats, start[5])
        """The search :meth:`window_value` asks (its ``nodes`` count the hook's work)."""

    def actions(self, state: State) -> list[int]:
        """Return one card (the lowest) of each group of equivalent legal cards."""
        return [(group & -group).bit_length() - 1 for group in equivalent_groups(state)]

    def ordered_actions(self, state: State) -> list[int]:
        """Return :meth:`actions`, the most promising first (:func:`ordered_groups`)."""
        return [(group & -group).bit_length() - 1 for group in ordered_groups(state)]

    def score_bounds(self, state: State) -> tuple[int, int]:
        """Return :func:`trick_bounds`."""
        return trick_bounds(state)

    def window_value(self, state: State, alpha: int, beta: int) -> int:
        """Return the final difference in tricks for the side to move, fail-soft within
        the window ``(alpha, beta)``: exact inside it, a bound beyond it. Each question
        of the search is a null window; a null window ``(m, m + 1)`` takes one."""
        hands, seat, _, won0, won1, _ = state
        left = hands[seat].bit_count()
        won = won1 if seat & 1 else won0
        total = won0 + won1 + left
        search = self.search
        low, high = 0, left
        # the fewest tricks that reach beta: asked first, it settles a null window
        reach = max(0, (beta + total + 1) // 2 - won)
        if low < reach <= high:
            if search.at_least(state, reach):
                low = reach
            else:
                high = reach - 1
        while low < high and 2 * (won + low) - total < beta and 2 * (won + high) - total > alpha:
            middle = (low + high + 1) // 2
            if search.at_least(state, middle):
                low = middle
            else:
                high = middle - 1
        if 2 * (won + low) - total >= beta:
            return 2 * (won + low) - total
        return 2 * (won + high) - total


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
    """Solves positions of one strain with one search (:class:`TrickSearch`, one a
    number of hands), whose table is kept from solve to solve (solving the same deal
    from another leader reuses it).

    ``trump`` is the strain (:data:`~.rules.NOTRUMP` for no trump), ``parts`` the
    search's additions in use (:class:`SolverParts`). ``nodes`` counts the nodes of
    every solve so far."""

    def __init__(self, trump: int, parts: SolverParts | None = None) -> None:
        self.trump = trump
        self.parts = parts or SolverParts()
        self._searches: dict[int, TrickSearch] = {}

    @property
    def nodes(self) -> int:
        """The nodes searched by every solve so far."""
        return sum(search.nodes for search in self._searches.values())

    def _search(self, state: State) -> TrickSearch:
        """The search of ``state``'s number of hands, made once."""
        seats = len(state[0])
        search = self._searches.get(seats)
        if search is None:
            search = self._searches[seats] = self.parts.search(seats, self.trump)
        return search

    def tricks(self, state: State, guess: int | None = None, limits: Limits | None = None) -> int:
        """Return the tricks the side to move in ``state`` takes from the current trick
        on (the tricks already won not counted), both sides playing best.

        ``guess`` (tricks) is asked first, then its neighbours: a good one saves
        questions; without one the questions climb one trick at a time from the
        lower bound of :func:`trick_bounds` (a question below the value is cheap, one
        above it dear: measured, 1% to 15% fewer nodes than halving the interval).
        ``limits`` (time, nodes, a stop signal) bound each question, which raises
        :class:`~zerosum.search.engine.SearchStopped` when one strikes. Raises
        :class:`ValueError` for a state of another strain or with no card left."""
        if state[5] != self.trump:
            raise ValueError(f"this solver solves strain {self.trump}, not {state[5]}")
        hands, seat = state[0], state[1]
        left = hands[seat].bit_count()
        if not left:
            raise ValueError("every card has been played: there is nothing to solve")
        search = self._search(state)
        won = state[4] if seat & 1 else state[3]
        total = state[3] + state[4] + left
        low, high = trick_bounds(state)
        lo, hi = (low + total) // 2 - won, (high + total) // 2 - won
        while lo < hi:
            # step by one from a guess (MTD(f)), where a near guess takes two questions,
            # or up from the lower bound
            target = guess if guess is not None and lo < guess <= hi else lo + 1
            if search.at_least(state, target, limits):
                lo = target
                guess = None if guess is None else lo + 1
            else:
                hi = target - 1
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
    parts: SolverParts | None = None,
) -> list[list[int]]:
    """Return the double-dummy table of a deal of four hands: a row for each of
    ``strains`` (spades 0, hearts, diamonds, clubs, no trump 4; all five by default,
    in that order, as DDS's ``TABLE`` line holds them), each the tricks north, east,
    south and west take as declarer, the player on declarer's left leading."""
    table = []
    size = hands[0].bit_count()
    for strain in strains:
        solver = DoubleDummySolver(strain, parts)
        row = [0, 0, 0, 0]
        for declarer in (0, 1, 2, 3):
            # partners often take as many tricks: the first guess of south and west;
            # and a side often takes as many whichever opponent leads: east's
            guess = size - row[declarer - 2] if declarer >= 2 else row[0] if declarer else None
            leader = (declarer + 1) % 4
            row[declarer] = size - solver.tricks(make(hands, leader, strain), guess)
        table.append(row)
    return table
