"""Bridge card play: the rules (:mod:`.rules`), the checked layer (:mod:`.notation`) and
DDS's test files (:mod:`.ddsfile`), put together as two games.

* :class:`TwoPlayerBridge` (``bridge``): two hands play tricks against each other, the
  card play of two-player bridge: follow suit when able, the highest trump or else the
  highest card of the suit led wins, the winner leads the next trick.
* :class:`DoubleDummy` (``bridge-dd``): the four hands of a deal, all visible,
  north-south (player 0) against east-west (player 1): the double-dummy problem that
  Bo Haglund's DDS solves. The player to move is the partnership of the seat to play.

Both score the difference in tricks (see :mod:`.rules`): ``+3`` for player 0 is 8
tricks to 5 of 13. The same side often moves several times running (the winner of a
trick leads the next; partners play in turn), so the searches that take them must
negate a value only where the side to move changes.

A game is made from a deal (``deal=``, PBN for four hands, two hands for two) or from a
random deal (``seed=``, ``cards=`` cards a hand), with a trump strain (``trump=``) and an
opening leader (``leader=``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from zerosum.game import BoardView, GameInfo, InvalidGameError, Player, quoted
from zerosum.games.bitboards import bit_indices
from zerosum.games.bridge import notation
from zerosum.games.bridge.rules import (
    CARDS,
    RANKS,
    CardPlayRules,
    State,
    equivalent_groups,
    make,
    random_hands,
)
from zerosum.games.bridge.solver import ordered_groups, trick_bounds

__all__ = ["DoubleDummy", "State", "TwoPlayerBridge"]

_MAX_SEED = 2**64


class _Bridge(CardPlayRules):
    """The checked layer both games share: positions, cards and pictures in and out."""

    seats: int
    trump: int
    leader: int

    def __init__(
        self,
        info: GameInfo,
        seats: int,
        *,
        deal: str | None,
        trump: str,
        leader: str | int,
        seed: int | None,
        cards: int,
    ) -> None:
        self.seats = seats
        self.trump = _option(info.name, "trump", trump, notation.parse_strain, "S, H, D, C or N")
        self.leader = _option(
            info.name,
            "leader",
            leader,
            lambda text: notation.parse_seat(text, seats),
            "N, E, S or W" if seats == 4 else "0 or 1",
        )
        hands = _hands(info.name, seats, deal, seed, cards)
        super().__init__(make(hands, self.leader, self.trump), info)

    def evaluate(self, state: State) -> int:
        """Return the difference in tricks won so far for the side to move: the tricks
        are the game's material, and a depth-limited search counts those it sees won."""
        difference = state[3] - state[4]
        return -difference if state[1] & 1 else difference

    def ordered_actions(self, state: State) -> list[int]:
        """Return the legal cards, the most promising first: group by group of
        equivalent cards in the solver's order
        (:func:`~zerosum.games.bridge.solver.ordered_groups`)."""
        return [card for group in ordered_groups(state) for card in bit_indices(group)]

    def score_bounds(self, state: State) -> tuple[int, int]:
        """Return bounds on the final difference in tricks for the side to move, with
        the quick tricks of a trick's leader and the top trumps of its opponents
        (:func:`~zerosum.games.bridge.solver.trick_bounds`)."""
        return trick_bounds(state)

    def equivalent_cards(self, state: State) -> list[int]:
        """Return the legal cards of ``state`` in groups of equivalent cards (no card
        still in play between them), each group a set of cards: playing any card of a
        group leads to the same result (see :func:`~zerosum.games.bridge.rules.sequences`)."""
        return equivalent_groups(state)

    def parse_move(self, state: State, text: str) -> int:
        """Read a card (``SA``, ``HT``, ``S10``, ``♠A``) the seat to play may play.

        Raises :class:`~zerosum.game.InvalidMoveError` for text that is no card and
        :class:`~zerosum.game.IllegalMoveError` for a card it may not play."""
        return notation.parse_move(state, text)

    def format_move(self, state: State, action: int) -> str:
        """Write a card as suit then rank: ``SA``."""
        return notation.format_move(state, action)

    def parse_state(self, text: str) -> State:
        """Read a position (:func:`~zerosum.games.bridge.notation.format_state`'s form);
        a text without ``trump=`` or ``lead=`` takes this game's. Raises
        :class:`~zerosum.game.InvalidStateError`."""
        return notation.parse_state(text, self.seats, self.trump, self.leader)

    def format_state(self, state: State) -> str:
        """Write ``state``: the cards still held, the trump, the leader of the current
        trick, the cards on the table and the tricks won."""
        return notation.format_state(state)

    def render(self, state: State) -> str:
        """Draw the hands around the table, with the trump, the trick and the score."""
        return notation.render(state)

    def board(self, state: State) -> BoardView[int]:
        """Return the card table for graphical interfaces: a row of cards for each hand
        (north, west, east, south; or the two players'), highest suit and rank first,
        and a last row with the cards of the trick on the table, its leader's first. A
        card is drawn as its suit's symbol and rank and belongs to its seat's side; a
        click on a card the seat to play may play plays it."""
        hands, seat, trick = state[0], state[1], state[2]
        seats = len(hands)
        order = (0, 3, 1, 2) if seats == 4 else tuple(range(seats))
        width = max(RANKS, *(hand.bit_count() for hand in hands))
        cells: list[Player | None] = []
        pieces: list[str] = []
        targets: dict[int, int] = {}
        legal = set(self.actions(state))
        rows: list[tuple[Player, list[int]]] = [
            (
                _side(held, seats),
                sorted(
                    (c for c in range(CARDS) if hands[held] >> c & 1),
                    key=lambda c: (c // RANKS, -c),
                ),
            )
            for held in order
        ]
        leader = (seat - len(trick)) % seats
        played = [(_side((leader + i) % seats, seats), c) for i, c in enumerate(trick)]
        for side, cards in rows:
            for index in range(width):
                if index < len(cards):
                    if cards[index] in legal:
                        targets[len(cells)] = cards[index]
                    cells.append(side)
                    pieces.append(_picture(cards[index]))
                else:
                    cells.append(None)
                    pieces.append("")
        for index in range(width):
            found = played[index] if index < len(played) else None
            cells.append(None if found is None else found[0])
            pieces.append("" if found is None else _picture(found[1]))
        names = ("N", "W", "E", "S") if seats == 4 else self.info.players
        return BoardView(
            width,
            len(rows) + 1,
            tuple(cells),
            targets,
            pieces=tuple(pieces),
            ranks=(*names, "trick"),
        )


class TwoPlayerBridge(_Bridge):
    """Two-player bridge card play: two hands (13 cards by default, fewer for puzzles)
    play tricks against each other; each player is its own side.

    ``deal`` is two hands, player 0's first (``AKQ.JT9.87.654 ...``); without one,
    ``seed`` deals ``cards`` cards to each player from a shuffled deck (seed 0 by
    default), the rest out of play. ``trump`` is the strain (``S``, ``H``, ``D``, ``C``,
    ``N`` for no trump) and ``leader`` the player who leads first (0 or 1)."""

    def __init__(
        self,
        deal: str | None = None,
        trump: str = "N",
        leader: str | int = 0,
        seed: int | None = None,
        cards: int = 13,
    ) -> None:
        info = GameInfo(
            name="bridge",
            title="Two-player bridge card play",
            players=("first", "second"),
            utility_range=(-13, 13),
            win_loss=False,
            description=(
                "Two hands play tricks: the leader plays any card, the other follows suit "
                "if able; the higher trump, else the higher card of the suit led, wins "
                "the trick and leads the next. The score is the difference in tricks."
            ),
            score_unit="tricks ahead",
            alternating=False,
        )
        super().__init__(info, 2, deal=deal, trump=trump, leader=leader, seed=seed, cards=cards)


class DoubleDummy(_Bridge):
    """Double-dummy bridge: the four hands of a deal, all visible, north-south (player
    0) against east-west (player 1), played clockwise from the opening leader.

    ``deal`` is a PBN deal (``N:QJ6.K652.J85.T98 873.J97.AT764.Q4 ...``); without one,
    ``seed`` deals ``cards`` cards to each seat (all 52 by default; fewer for endings).
    ``trump`` is the strain and ``leader`` the seat that leads first: north by default,
    so that player 0 moves first as in every game (west declares)."""

    def __init__(
        self,
        deal: str | None = None,
        trump: str = "N",
        leader: str | int = "N",
        seed: int | None = None,
        cards: int = 13,
    ) -> None:
        info = GameInfo(
            name="bridge-dd",
            title="Double-dummy bridge",
            players=("north-south", "east-west"),
            utility_range=(-13, 13),
            win_loss=False,
            description=(
                "The four hands of a bridge deal, all visible, north-south against "
                "east-west: follow suit if able; the highest trump, else the highest card "
                "of the suit led, wins the trick and leads the next. The score is the "
                "difference in tricks."
            ),
            score_unit="tricks ahead",
            alternating=False,
        )
        super().__init__(info, 4, deal=deal, trump=trump, leader=leader, seed=seed, cards=cards)


_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _picture(card: int) -> str:
    """A card as a board shows it: its suit's symbol and its rank (``♠A``)."""
    name = notation.card_name(card)
    return _SUIT_SYMBOLS[name[0]] + name[1:]


def _side(seat: int, seats: int) -> Player:
    """The side a seat plays for: north-south 0 and east-west 1, or the seat itself."""
    return 0 if (seat & 1 if seats == 4 else seat) == 0 else 1


def _option(
    game: str, name: str, value: str | int, read: Callable[[str], int | None], names: str
) -> int:
    """A strain or seat option read by ``read``; raises :class:`InvalidGameError`."""
    found = read(str(value))
    if found is None:
        raise InvalidGameError(f"option {name}={quoted(str(value))} of game {game!r}: use {names}")
    return found


def _hands(game: str, seats: int, deal: str | None, seed: int | None, cards: int) -> Sequence[int]:
    """The hands a game starts from: the deal read, or a random one."""
    if deal is not None:
        if seed is not None:
            raise InvalidGameError(f"game {game!r} takes a deal or a seed, not both")
        return notation.parse_deal(str(deal), seats)
    if not (isinstance(cards, int) and 1 <= cards <= 13):
        raise InvalidGameError(f"option cards={quoted(cards)} of game {game!r}: use 1 to 13")
    if not (isinstance(seed, int | None) and 0 <= (seed or 0) < _MAX_SEED):
        raise InvalidGameError(f"option seed={quoted(seed)} of game {game!r}: use 0 to 2**64-1")
    return random_hands(random.Random(seed or 0), seats, cards)
