"""The card table of ``zerosum play bridge``: one hand of two-player bridge against the
engine, or a double-dummy deal declared from north-south while the engine defends.

The two modes are the two bridge games, chosen from what the command line gives
(:func:`bridge_game`):

* **two-player bridge** (``bridge``, two hands): you hold one hand (player 0, or player
  1 with ``--engine-first``) and the engine the other; ``--leader`` says who leads first;
* **declaring** (``bridge`` with a four-hand PBN deal, ``--declarer``, or ``bridge-dd``):
  you play north's and south's cards, declarer's and dummy's, and the engine east's and
  west's; as in real bridge the opening lead is made from declarer's left, so
  ``--declarer S`` (the default) has west lead.

The deal is a PBN text (the game's main argument), or a random deal of ``seed=`` and
``cards=`` (a spec's options: ``bridge-dd:seed=7,cards=5``); with neither, a seed is
drawn and shown, so that the deal can be played again. ``--trump`` names the strain.

:class:`BridgeSession` is :class:`~zerosum.terminal.Session` with bridge's words: the
hand to play is named in prompts and in the engine's moves, each trick is told as it
ends with the tricks so far, and the end compares the tricks taken with the
double-dummy par, the tricks the solver
(:class:`~zerosum.games.bridge.solver.DoubleDummySolver`) says the side takes from the
start with best play on both sides. Endings take the pure-Python solver a moment, a
whole deal may take it minutes: the par is given up after ``par_seconds``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from zerosum.agents import Agent
from zerosum.cli.common import UsageError
from zerosum.game import Outcome
from zerosum.games import registry
from zerosum.games.bridge import DoubleDummy, State, TwoPlayerBridge
from zerosum.games.bridge.notation import (
    SEAT_NAMES,
    card_name,
    format_deal,
    parse_seat,
)
from zerosum.games.bridge.rules import NOTRUMP, trick_winner
from zerosum.games.bridge.solver import DoubleDummySolver
from zerosum.search.engine import Limits, SearchStopped
from zerosum.terminal import Session

__all__ = ["GAMES", "PAR_SECONDS", "BridgeSession", "bridge_game", "double_dummy_par"]

GAMES = ("bridge", "bridge-dd")
"""The games :func:`bridge_game` makes: the spec names ``zerosum play`` hands to it."""

PAR_SECONDS = 30.0
"""How long the session's end waits for the double-dummy par before giving it up."""

_QUICK_PAR_CARDS = 8
"""Cards a hand up to which the par takes the solver a moment: past them, the end says
it is working on it."""

_SEED_LIMIT = 1_000_000
"""Seeds drawn for a deal the command line leaves random: short enough to type again."""

_STRAIN_WORDS = ("spades", "hearts", "diamonds", "clubs", "no trump")


def bridge_game(
    spec: str,
    setup: str | None,
    *,
    trump: str | None = None,
    leader: str | None = None,
    declarer: str | None = None,
    position: str | None = None,
    draw_seed: Callable[[], int] = lambda: random.SystemRandom().randrange(_SEED_LIMIT),
) -> tuple[TwoPlayerBridge | DoubleDummy, int | None]:
    """Make the bridge game ``zerosum play`` asked for; return it and the seed drawn
    for its deal (``None`` when the deal was given: a PBN text or ``seed=``).

    ``spec`` is ``bridge`` or ``bridge-dd`` with options, ``setup`` the bare argument
    (a deal) and ``position`` the one play starts from, if any; ``bridge`` with a
    four-hand deal or position (``N:...``) or a ``declarer`` is the four-hand game.
    ``declarer`` (a seat) makes the opening leader the seat on its left; a four-hand
    game given no leader at all is declared by south. With no deal, seed or position, a
    seed is drawn by ``draw_seed``. Raises
    :class:`~zerosum.cli.common.UsageError` for a declarer that is no seat or comes
    with a leader, and the game's errors for bad options or deals."""
    name, parsed = registry.parse_spec(spec)
    options: dict[str, Any] = dict(parsed)
    if name not in GAMES:
        raise UsageError(f"game {name!r} is not bridge: use {' or '.join(GAMES)}")
    four = [text for text in (setup, position) if text is not None and ":" in text]
    if name == "bridge" and (four or declarer is not None):
        name = "bridge-dd"
    if setup is not None:
        options["deal"] = setup
    if trump is not None:
        options["trump"] = trump
    if leader is not None:
        options["leader"] = leader
    if declarer is not None:
        if "leader" in options:
            raise UsageError("give a declarer or a leader, not both: the leader sits on its left")
        seat = parse_seat(declarer, 4)
        if seat is None:
            raise UsageError(f"--declarer {declarer!r} is not a seat: use N, E, S or W")
        options["leader"] = "NESW"[(seat + 1) % 4]
    elif name == "bridge-dd" and "leader" not in options:
        options["leader"] = "W"  # south declares: the user's side
    seed = None
    if "deal" not in options and "seed" not in options and position is None:
        seed = options["seed"] = draw_seed()
    game = registry.make(name, **options)
    assert isinstance(game, TwoPlayerBridge | DoubleDummy)
    return game, seed


class _Deadline:
    """A stop signal (:class:`~zerosum.search.engine.StopSignal`) that is set once
    ``seconds`` have passed: a limit on a whole solve rather than on each probe."""

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds

    def is_set(self) -> bool:
        """Tell whether the time is up."""
        return time.monotonic() >= self.at


def double_dummy_par(state: State, seconds: float | None = None) -> tuple[int, int] | None:
    """Return the tricks each side has in all (side 0's, side 1's) at the end of the
    deal from ``state`` on with best play on both sides, those already won counted; or
    ``None`` when the solver has not found them in ``seconds`` (no limit by default)."""
    hands, seat, _, won0, won1, _ = state
    left = hands[seat].bit_count()
    if not left:
        return won0, won1
    solver = DoubleDummySolver(state[5])
    limits = None if seconds is None else Limits(stop=_Deadline(seconds))
    try:
        tricks = solver.tricks(state, limits=limits)
    except SearchStopped:
        return None
    side0 = won0 + (left - tricks if seat & 1 else tricks)
    return side0, won0 + won1 + left - side0


def _count(tricks: int) -> str:
    """``1 trick``, ``3 tricks``."""
    return f"{tricks} trick{'' if tricks == 1 else 's'}"


class BridgeSession(Session):
    """A :class:`~zerosum.terminal.Session` of a bridge game with the words of the card
    table: the hand to play named, each trick told as it ends, and the tricks taken
    compared with the double-dummy par at the end (given up after ``par_seconds``).
    ``seed`` is the seed drawn for a random deal, shown so that it can be played again."""

    def __init__(
        self,
        game: TwoPlayerBridge | DoubleDummy,
        seats: Sequence[Agent | None],
        *,
        seed: int | None = None,
        par_seconds: float = PAR_SECONDS,
        **options: Any,
    ) -> None:
        super().__init__(game, seats, **options)
        self.seed = seed
        self.par_seconds = par_seconds

    def _hand(self, seat: int) -> str:
        """A seat as the table names it: ``West``, or ``player 1``."""
        return SEAT_NAMES[seat].capitalize() if self.game.seats == 4 else f"player {seat}"

    def _side(self, player: int) -> str:
        """A side as the table names it: ``north-south``, or ``player 0``."""
        return self.game.info.players[player] if self.game.seats == 4 else f"player {player}"

    def who(self, player: int) -> str:
        """Name the side ``player`` as the table does and who plays it:
        ``north-south (you)``, ``player 1 (engine (1 s))``."""
        agent = self.seats[player]
        if agent is not None:
            return f"{self._side(player)} ({agent.name})"
        person = "you" if sum(seat is None for seat in self.seats) == 1 else "person"
        return f"{self._side(player)} ({person})"

    def mover(self, state: State) -> str:
        """Name the hand to play in ``state`` and who plays it: ``West (engine)``."""
        agent = self.seats[self.game.to_move(state)]
        return f"{self._hand(state[1])} ({'you' if agent is None else agent.name})"

    def prompt(self, state: State) -> str:
        """Ask for the card of the hand to play: ``North to play> ``."""
        return f"{self._hand(state[1])} to play> "

    def moved(self, before: State, after: State) -> None:
        """Tell the trick a card ended: its cards from the leader on, its winner and the
        tricks each side has won."""
        hands, seat, trick, _, _, trump = before
        if after[2] or not trick:
            return
        played = (hands[seat] ^ after[0][seat]).bit_length() - 1
        cards = (*trick, played)
        seats = len(hands)
        leader = (seat + 1) % seats
        winner = (leader + trick_winner(cards, trump)) % seats
        shown = ", ".join(
            f"{self._hand((leader + i) % seats)} {card_name(c)}" for i, c in enumerate(cards)
        )
        self.write(
            self.painter.note(
                f"Trick {after[3] + after[4]}: {shown}; {self._hand(winner)} wins it "
                f"(tricks won: {self._side(0)} {after[3]}, {self._side(1)} {after[4]})"
            )
        )

    def run(self) -> Outcome | None:
        """Say what is played (the deal, the strain, who declares and who leads), then
        play it as :meth:`Session.run` does."""
        start = self.history[0]
        hands, seat, trick, won0, won1, trump = start
        strain = _STRAIN_WORDS[trump]
        contract = strain if trump == NOTRUMP else f"{strain} trumps"
        leader = (seat - len(trick)) % len(hands)
        if len(hands) == 4:
            opening = not (trick or won0 or won1)
            declarer = self._hand((leader + 3) % 4)
            who = f"{declarer} declares in {strain}, " if opening else f"{contract}, "
            lead = f"{self._hand(leader)} {'led this trick' if trick else 'leads'}"
            told = f"{who}{lead}"
        else:
            told = f"{contract}, {self._hand(leader)} leads"
        seed = "" if self.seed is None else f" (seed={self.seed} deals it again)"
        self.write(f"Deal {format_deal(hands)}: {told}{seed}")
        return super().run()

    def closing(self, result: Outcome) -> None:
        """Say the tricks each side took and set them against the double-dummy par of
        the start: the tricks each side takes with best play on both sides."""
        final = self.state
        self.write(
            self.painter.note(
                f"{self.who(0)} took {_count(final[3])}, {self.who(1)} {_count(final[4])}."
            )
        )
        start = self.history[0]
        if start[0][start[1]].bit_count() > _QUICK_PAR_CARDS:
            self.write(f"(working out the double-dummy par: at most {self.par_seconds:g} s)")
        par = double_dummy_par(start, self.par_seconds)
        if par is None:
            self.write(
                f"Double-dummy par: not found within {self.par_seconds:g} s "
                "(`zerosum solve bridge` solves the deal without a limit)."
            )
            return
        people = [player for player in (0, 1) if self.seats[player] is None]
        if len(people) == 1:
            side = people[0]
        else:  # the declaring side: the one that did not lead
            side = 1 - (start[1] - len(start[2])) % 2 if self.game.seats == 4 else 0
        name = self._side(side)
        difference = final[3 + side] - par[side]
        if difference == 0:
            verdict = "as many"
        else:
            verdict = f"{_count(abs(difference))} {'more' if difference > 0 else 'fewer'}"
        self.write(
            self.painter.note(
                f"Double-dummy par: {_count(par[side])} for {name} with best play on both "
                f"sides; {'you' if people == [side] else name} took {verdict}."
            )
        )
