"""The Game protocol, players, outcomes, score constants and the error taxonomy.

This module is the contract between games and algorithms. It mirrors the formalisation
every textbook uses: states ``S``, the player to move ``P(s)``, actions ``A(s)``, the
transition ``T(s, a)`` and the utility ``u(s, p)``. It imports nothing but the standard
library, so that ``search/`` and every game can depend on it alone.

Conventions that hold everywhere:

* States are immutable values; :meth:`Game.result` returns a new state.
* Scores are integers in negamax orientation (a value is for the side to move). The
  search scores a win in ``n`` plies as ``WIN - n`` and a loss in ``n`` plies as
  ``-(WIN - n)``, so faster wins and slower losses are preferred. No floats, no
  infinities: :data:`INFINITY` is an integer larger than every score.
* Players alternate: ``to_move(result(s, a)) != to_move(s)``. A game where a player
  must pass (othello) models the pass as a move. This is what lets negamax negate every
  child's value and the max/min forms alternate by ply; the conformance test checks it.
* :meth:`Game.result` is unchecked and fast; the checked, user-facing layer
  (``parse_move``, :func:`zerosum.notation.play`) raises a :class:`ValueError` subclass
  naming the input and the state.
"""

from __future__ import annotations

import reprlib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar, runtime_checkable

__all__ = [
    "DRAW",
    "INFINITY",
    "MAX_PLY",
    "WIN",
    "WIN_THRESHOLD",
    "BoardKind",
    "BoardView",
    "Drawable",
    "Evaluating",
    "Game",
    "GameInfo",
    "IllegalMoveError",
    "InvalidGameError",
    "InvalidMoveError",
    "InvalidStateError",
    "Keyed",
    "MissingCapabilityError",
    "Notation",
    "Outcome",
    "Player",
    "ZerosumError",
    "describe_depth",
    "describe_score",
    "describe_state",
    "is_win_score",
    "loss_in",
    "other",
    "outcome",
    "plies_to_end",
    "quoted",
    "win_in",
    "winning_line",
]

S = TypeVar("S")
A = TypeVar("A")
S_contra = TypeVar("S_contra", contravariant=True)

Player = int
"""A player: 0 moves first (the maximiser in max/min form), 1 moves second."""


def other(player: Player) -> Player:
    """Return the opponent of ``player``."""
    return 1 - player


# --------------------------------------------------------------------------- scores

WIN = 100_000_000
"""The score of a win on the spot; a win in ``n`` plies scores ``WIN - n``."""

MAX_PLY = 10_000
"""The longest line any search follows; it sizes the band of win scores."""

WIN_THRESHOLD = WIN - MAX_PLY
"""Scores with an absolute value of at least this are proven wins or losses."""

INFINITY = 1_000_000_000
"""An integer above every score, used as the open end of an (alpha, beta) window.

It stays below 2**30 so that CPython keeps window arithmetic on one-digit integers."""

DRAW = 0
"""The score of a draw."""


def win_in(plies: int) -> int:
    """Return the score of a win reached ``plies`` plies from now."""
    return WIN - plies


def loss_in(plies: int) -> int:
    """Return the score of a loss suffered ``plies`` plies from now."""
    return plies - WIN


def is_win_score(score: int) -> bool:
    """Tell whether ``score`` is a proven win or loss rather than a heuristic value."""
    return score >= WIN_THRESHOLD or score <= -WIN_THRESHOLD


def plies_to_end(score: int) -> int:
    """Return how many plies a proven win or loss ``score`` takes to reach the end.

    Raises ``ValueError`` when ``score`` is not in the win band."""
    if not is_win_score(score):
        raise ValueError(f"score {score} is not a proven win or loss")
    return WIN - abs(score)


def describe_score(info: GameInfo, score: int | None, *, exact: bool = False) -> str:
    """Write an engine score for a person, in the one form every interface shows.

    The score is for the side to move. A proven win or loss reads ``win in 5 plies`` /
    ``loss in 1 ply``; a score a search to the end proved (``exact``) reads ``draw`` for
    a win/loss game and ``+6 points`` (the game's :attr:`GameInfo.score_unit`) for a game
    scored in points; any other score is a heuristic ``eval +12 points``. ``None`` (no
    search depth completed yet) reads ``no score yet``."""
    if score is None:
        return "no score yet"
    if info.win_loss and is_win_score(score):
        plies = plies_to_end(score)
        return f"{'win' if score > 0 else 'loss'} in {plies} {'ply' if plies == 1 else 'plies'}"
    if exact:
        return "draw" if info.win_loss else f"{score:+d} {info.score_unit}"
    return f"eval {score:+d} {info.score_unit}"


def describe_depth(depth: int) -> str:
    """Write a search depth for a person: ``12 plies``, or ``to the end`` for a search
    that followed every line to its end (reported with a depth beyond :data:`MAX_PLY`)."""
    if depth > MAX_PLY:
        return "to the end"
    return f"{depth} {'ply' if depth == 1 else 'plies'}"


def _short_repr() -> reprlib.Repr:
    """A repr that stays short however large or deep a value is (a list of a million
    items, a JSON tree nested a thousand deep)."""
    short = reprlib.Repr()  # Python 3.11's Repr takes no arguments
    short.maxlevel = 2
    short.maxlist = short.maxtuple = short.maxset = short.maxdict = 4
    short.maxstring = short.maxother = short.maxlong = 24
    return short


_SHORT_REPR = _short_repr()


def quoted(value: object, limit: int = 40) -> str:
    """Quote user input for an error message, at most about ``limit`` characters of it.

    A longer text shows its first ``limit`` characters, an ellipsis and its length, so
    that a megabyte of bad input never comes back as a megabyte of error. Any other
    value (a number, a list read from JSON) is shown by a repr that abbreviates long or
    deep parts, cut at ``2 * limit`` characters."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    text = _SHORT_REPR.repr(value)
    return text if len(text) <= 2 * limit else f"{text[: 2 * limit]}..."


# --------------------------------------------------------------------------- errors


class ZerosumError(ValueError):
    """Base of every error zerosum raises for bad input; a :class:`ValueError`."""


class InvalidMoveError(ZerosumError):
    """A move's text cannot be read (a syntax error), e.g. ``"hello"`` for a board square."""


class IllegalMoveError(ZerosumError):
    """A move is well formed but the rules forbid it in this state."""


class InvalidStateError(ZerosumError):
    """A position's text cannot be read, or describes a position that cannot exist."""


class InvalidGameError(ZerosumError):
    """A game's definition is malformed: a tree file, a heap list, a subtraction set."""


class MissingCapabilityError(ZerosumError):
    """An algorithm needs a capability the game does not offer.

    For example a depth-limited search reached its cut-off on a game without
    ``evaluate``."""


# --------------------------------------------------------------------------- metadata


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game declares about itself, once, for algorithms and interfaces.

    ``win_loss`` says the utility is only the sign of the outcome (+1, 0, -1): the
    engine then scores a win by its distance (``WIN - plies``). Otherwise the utility is
    a number of points the search returns as it is (a tree's leaf, a stone game's
    margin). ``solved_value`` is the known value of the start position for the first
    player, in utility units, where one is known. ``score_unit`` names the unit of the
    engine's scores short of a proven win (its evaluation, or the utility's points), for
    people reading them (:func:`describe_score`). ``alternating`` (the default) promises
    that the side to move changes with every move; a game where one side may move twice
    running (a trick's winner leads the next, Kalah's sowing into one's own store)
    declares ``False``, and the algorithms then ask ``to_move`` after every move,
    negating a value only where the side changes.
    """

    name: str
    title: str
    players: tuple[str, str] = ("first", "second")
    impartial: bool = False
    utility_range: tuple[int, int] = (-1, 1)
    win_loss: bool = True
    solved_value: int | None = None
    board_size: tuple[int, int] | None = None
    description: str = ""
    score_unit: str = "points"
    alternating: bool = True


# --------------------------------------------------------------------------- protocol


@runtime_checkable
class Game(Protocol[S, A]):
    """A two-player, zero-sum, perfect-information game.

    The six methods are all an algorithm may assume. Optional capabilities are separate
    protocols (:class:`Evaluating`, :class:`Keyed`, :class:`Notation`, :class:`Drawable`)
    or hooks the engine documents, all discovered once per search with ``getattr``,
    never per node: ``ordered_actions`` (move ordering), ``noisy_actions``
    (quiescence), ``capture_value`` (the order of noisy moves, MVV-LVA in chess),
    ``in_check`` and ``null_move`` (the selective search: check extensions, null-move
    pruning, late-move reductions and futility pruning, only for games that say when
    the side to move is in check), ``forced_win`` (the game's own threat search), and
    for exact solving ``winning_action``, ``non_losing_actions``, ``score_bounds`` and
    ``remaining_plies`` (the most plies any line from a state can last, which bounds the
    win distances a solver bisects over).
    """

    info: GameInfo

    def initial_state(self) -> S:
        """Return the start state."""
        ...

    def to_move(self, state: S) -> Player:
        """Return the player to move in ``state``: 0 or 1."""
        ...

    def actions(self, state: S) -> Sequence[A]:
        """Return the legal moves in ``state`` in a stable order (empty when terminal)."""
        ...

    def result(self, state: S, action: A) -> S:
        """Return the state after ``action``; unchecked and fast, for the search."""
        ...

    def is_terminal(self, state: S) -> bool:
        """Tell whether the game is over in ``state``."""
        ...

    def utility(self, state: S, player: Player) -> int:
        """Return the final payoff of terminal ``state`` for ``player``; zero-sum."""
        ...


class Evaluating(Protocol[S_contra]):
    """A game that can estimate a non-terminal state, for depth-limited search."""

    def evaluate(self, state: S_contra) -> int:
        """Return a heuristic value of ``state`` for the side to move.

        It must lie strictly inside the win band (``abs(value) < WIN_THRESHOLD``)."""
        ...


class Keyed(Protocol[S_contra]):
    """A game that gives each state a hashable key including the side to move."""

    def key(self, state: S_contra) -> Hashable:
        """Return a key equal for equal positions; preferably an ``int``."""
        ...


class Notation(Protocol[S, A]):
    """The checked, user-facing layer: reading and writing moves and positions."""

    def parse_move(self, state: S, text: str) -> A:
        """Read ``text`` as a legal move in ``state``.

        Raises :class:`InvalidMoveError` for text that is not a move and
        :class:`IllegalMoveError` for a move the rules forbid here."""
        ...

    def format_move(self, state: S, action: A) -> str:
        """Write ``action`` (legal in ``state``) in the game's notation."""
        ...

    def parse_state(self, text: str) -> S:
        """Read a position; raises :class:`InvalidStateError`."""
        ...

    def format_state(self, state: S) -> str:
        """Write ``state`` so that :meth:`parse_state` reads it back."""
        ...

    def render(self, state: S) -> str:
        """Draw ``state`` as text for a person."""
        ...


BoardKind = Literal["squares", "intersections", "columns", "heaps"]
"""How a :class:`BoardView` is drawn: ``"squares"`` (pieces sit in cells: tic-tac-toe,
chess, othello), ``"intersections"`` (stones sit where lines cross: gomoku, xiangqi),
``"columns"`` (a click anywhere in a column drops a stone: connect four) or ``"heaps"``
(each row is a heap or a row of counters, clicked to take from: Nim, the stone games)."""


@dataclass(frozen=True, slots=True)
class BoardView(Generic[A]):
    """A picture of a board game's state for graphical interfaces (the browser app).

    ``cells`` holds, row by row from the top, the player whose piece is on each cell
    (``None`` for empty); ``pieces``, when not empty, names each cell's piece (``"K"``,
    ``"n"``, ``""`` for a plain stone; a name on a cell of player ``None`` is a neutral
    counter such as a pile's value). A move is made by one click or by two:

    * ``targets`` maps a cell to the move a click on it plays (connect four maps every
      cell of a column to that column's move);
    * ``moves`` maps a from-cell to its destinations, each to the moves from one to the
      other (several: the person chooses, as among a pawn's promotions).

    ``last`` is the cell of the latest move and ``last_from`` where it started, when the
    state knows them; ``line`` the cells of the line that won the game, if one did.
    ``piece_set`` names the family of pictures the pieces' names stand for
    (``"chess"``: FEN letters, upper case white); with none, a name is written on its
    piece as it is. ``files`` label the columns from the left and ``ranks`` the rows
    from the top. ``segments`` are extra lines drawn from one cell's centre to
    another's (xiangqi's palace diagonals) and ``breaks`` the rows below which the inner
    vertical lines stop (xiangqi's river). ``forbidden`` are empty cells the rules deny
    the side to move (renju's forbidden points for black), drawn crossed out."""

    width: int
    height: int
    cells: tuple[Player | None, ...]
    targets: dict[int, A]
    last: int | None = None
    kind: BoardKind = "squares"
    pieces: tuple[str, ...] = ()
    piece_set: str = ""
    moves: dict[int, dict[int, tuple[A, ...]]] = field(default_factory=dict)
    last_from: int | None = None
    line: tuple[int, ...] = ()
    files: tuple[str, ...] = ()
    ranks: tuple[str, ...] = ()
    segments: tuple[tuple[int, int], ...] = ()
    breaks: tuple[int, ...] = ()
    forbidden: tuple[int, ...] = ()


def winning_line(
    cells: Sequence[Player | None], width: int, height: int, length: int, *, exact: bool = False
) -> tuple[int, ...]:
    """Return the cells of the first run of ``length`` or more (exactly ``length`` when
    ``exact``) of one player's pieces along a row, column or diagonal of a ``width`` x
    ``height`` grid (cells row by row), or ``()`` when there is none: the line a board
    highlights."""

    def at(x: int, y: int) -> Player | None:
        return cells[y * width + x] if 0 <= x < width and 0 <= y < height else None

    for cell, owner in enumerate(cells):
        if owner is None:
            continue
        x, y = cell % width, cell // width
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if at(x - dx, y - dy) == owner:
                continue  # not the start of its run
            run = []
            rx, ry = x, y
            while at(rx, ry) == owner:
                run.append(ry * width + rx)
                rx, ry = rx + dx, ry + dy
            if len(run) == length or (len(run) > length and not exact):
                return tuple(run)
    return ()


class Drawable(Protocol[S_contra, A]):
    """A board game that can describe a state as a :class:`BoardView`."""

    def board(self, state: S_contra) -> BoardView[A]:
        """Return the picture of ``state``."""
        ...


def describe_state(game: Any, state: Any) -> str:
    """Return a short text naming ``state`` for error messages.

    It uses the game's ``format_state`` when it has one, else ``repr``."""
    formatter = getattr(game, "format_state", None)
    if formatter is not None:
        try:
            text = formatter(state)
        except Exception:  # an error message must never raise in turn
            text = repr(state)
    else:
        text = repr(state)
    return text if text else "the start position"


# --------------------------------------------------------------------------- outcome


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the winner (``None`` for a draw) and the payoffs."""

    winner: Player | None
    payoffs: tuple[int, int] = field(default=(0, 0))

    def result(self) -> str:
        """Return the result in the usual notation: ``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == 0 else "0-1"


def outcome(game: Game[S, Any], state: S) -> Outcome | None:
    """Return the :class:`Outcome` of ``state``, or ``None`` while the game goes on."""
    if not game.is_terminal(state):
        return None
    first = game.utility(state, 0)
    payoffs = (first, game.utility(state, 1))
    if first > 0:
        return Outcome(0, payoffs)
    if first < 0:
        return Outcome(1, payoffs)
    return Outcome(None, payoffs)
