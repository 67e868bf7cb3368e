"""Matches and tournaments between agents, with adjudication, records and parallel workers.

An :class:`Event` (a match between two agents, or a round robin between several) is
defined by strings only: a game spec, agent specs (:mod:`zerosum.specs`), the openings
(each a list of moves in the game's notation, or a :class:`Position` the game writes
with ``format_state``), the number of games per pairing, a seed and a time margin.
:meth:`Event.tasks` unfolds it into :class:`GameTask` values, each enough to rebuild its
game and agents from scratch, so a worker process (or a Ray worker) needs nothing else,
and the same seed plays the same games whatever the number of workers.

**Schedule.** Games come in rounds. Round ``r`` uses opening ``r mod len(openings)``
and plays it once with each agent of every pairing moving first: first every pairing
with its first-listed agent moving first, then every pairing with colours reversed. So
colours alternate, every opening is played from both sides, and the schedule of
``N`` games is the beginning of the schedule of more games: a finished run can be
extended with ``--resume`` and a larger ``--games``.

**Seeds.** Each game's seed is derived from the event seed and the game's index, and
each agent's seed from the game's seed and its colour; random openings, balanced
openings and the sample drawn from a suite come from the event seed alone.

**Opening suites** (:func:`load_openings`). A file holds one opening a line, in one
format for the whole file: ``moves`` (moves from the start, the default), ``positions``
(a position the game's ``parse_state`` reads, e.g. a FEN) or ``epd`` (chess's EPD: the
first four FEN fields, then operations of which only ``hmvc`` and ``fmvn``, the move
counters, are read). The format is the file's, not guessed line by line, because a line
can read both ways (``3 4 5`` is a Nim position and a list of moves); it follows the
suffix (``.epd``, ``.fen``) unless given. :func:`sample_openings` draws a seeded sample
without replacement; :func:`balanced_openings` keeps random openings whose short
search scores them within a window of even.

**Adjudication** (:func:`play_game`). The player to move loses at once, and the reason is
recorded, when its agent raises an exception (``crash``; ``SystemExit`` and any other
exception count, only ``KeyboardInterrupt``, the user's Ctrl-C, stops the match),
returns a move that is not legal (``illegal``), or takes longer than its spec's
``time`` plus the event's time margin (``time``; the margin,
:data:`DEFAULT_TIME_MARGIN` seconds unless set, absorbs the engine's polling and the
machine's load). A game that ends by the rules has the reason ``end``. The match goes
on either way.

**Clocks.** An event with a :class:`TimeControl` (``[MOVES/]BASE[+INCREMENT]``, in
seconds) keeps each side's clock instead: before each move the mover's agent is told
both clocks (:func:`~zerosum.agents.tell_clock`), after it the time used is taken off,
the increment added, and after every ``MOVES`` moves of a side its clock gets ``BASE``
again. A side whose clock falls below minus the time margin loses on time (``time``);
per-move ``time`` limits of the specs are then not adjudicated, the clock is. Each
record holds the clocks left at the end.

**Scores** (:class:`Adjudication`, off unless asked). Agents that keep their last
search result in ``last`` (the engine) report a score after each move. When both
agree for ``resign_moves`` moves each that one side is lost by ``resign_score`` or
more, that side loses; when both see a score within ``draw_score`` of zero for
``draw_moves`` moves each once ``draw_after`` moves have been played, the game is
drawn. A game still going after ``max_moves`` moves (every move, the opening's too) is
drawn, as cutechess-cli's and fastchess's move limit does, whatever the scores. Either
way the reason is ``adjudicated``; an agent without a score never agrees. The game's own
rules (chess's fifty-move rule, repetition and insufficient material) always end a game
before any of these.

**Records.** A run writes JSON lines: a header (``"type": "header"``, the event's
definition) and then one record per game as it finishes (:class:`GameRecord`: the
agents' places, the opening, every move in notation, the result, the reason and the
time used, and the starting position of a game that does not start at the game's
first one), flushed line by line. :func:`run_event` with ``resume`` reads the file,
checks that its header defines the same event (game, agents, openings, seed, time
margin; a longer run may add openings after the recorded ones) and plays only the games
not yet recorded. A damaged game line (not UTF-8, not JSON, not a record, or a last
line cut short by a crash) is skipped with one warning and its game is played again;
the file is rewritten (atomically, by renaming) with each recorded game once before
new records are appended, so no damaged line can merge with a new one.

**Workers.** By default games run in a :class:`~concurrent.futures.ProcessPoolExecutor`
with one process per core (``workers=1`` plays in this process, where nothing can
survive a dead interpreter). The pool survives its workers: at most one game per
process is in flight, so when a worker dies (killed, or its interpreter crashed) the
games in flight are exactly the ones the broken pool takes down. They are played again
one at a time, each alone in a new pool, before any other game; a game whose worker
dies again while it plays alone is recorded *void* (reason ``error``, result ``*``):
nobody knows which agent killed it, so it scores for neither side and :func:`tally`,
:func:`crosstable` and the Elo estimates leave it out. Each death is reported with one
warning. With ``ray=True`` the same tasks go to a Ray cluster (``ray_address``, or a
local one started for the run); Ray is imported only then.

**Stopping early.** :func:`run_event` takes a ``stop`` test, asked after each game
(and once on the records of a resumed file): when it says yes, no new game starts, the
games already running finish and are recorded, and the event ends there. ``zerosum
match --sprt`` stops this way when its SPRT (:func:`match_sprt`, on the pentanomial
counts of the complete game pairs, :func:`match_pairs`) decides.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import os
import random
import re
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from zerosum import notation
from zerosum.agents import Agent, ClockReading, close_agent, tell_clock
from zerosum.game import MissingCapabilityError, ZerosumError, other, outcome, quoted
from zerosum.games import registry
from zerosum.pools import SurvivingPool
from zerosum.ratings import (
    EloEstimate,
    Pentanomial,
    SprtResult,
    SprtSettings,
    elo_estimate,
    sprt,
)
from zerosum.search.engine import Engine, Limits
from zerosum.specs import make_agent, parse_agent_spec

__all__ = [
    "BALANCE_ATTEMPTS",
    "DEFAULT_TIME_MARGIN",
    "OPENING_FORMATS",
    "REASONS",
    "RECORD_VERSION",
    "VOID",
    "Adjudication",
    "ArenaError",
    "Event",
    "GameRecord",
    "GameTask",
    "Opening",
    "OpeningError",
    "PlayedGame",
    "Position",
    "RecordError",
    "TimeControl",
    "TimeControlError",
    "Warn",
    "adjudications",
    "balance_score",
    "balanced_openings",
    "crosstable",
    "derive_seed",
    "describe_match_sprt",
    "describe_opening",
    "epd_to_fen",
    "load_openings",
    "match_estimate",
    "match_pairs",
    "match_sprt",
    "opening_format",
    "opening_tally",
    "parse_opening",
    "parse_position",
    "play_game",
    "play_task",
    "random_openings",
    "read_header",
    "read_records",
    "run_event",
    "sample_openings",
    "tally",
]

RECORD_VERSION = 1
"""The version of the JSON lines format, written in every header."""

DEFAULT_TIME_MARGIN = 0.5
"""Seconds a move may exceed its agent's time per move before it forfeits the game."""

REASONS = ("end", "illegal", "crash", "time", "resign", "adjudicated", "error")
"""Why a game ended: by the rules, or adjudicated for an illegal move, a crash, time, an
external engine's resignation (``resign``), or the agents' scores (``adjudicated``);
``error`` marks a void game, whose worker process died twice (see the module's notes)."""

VOID = "error"
"""The reason of a void game: no result, no points for either side."""

_RESULTS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}
_VOID_RESULT = "*"  # PGN's mark of a game without a result

_AGENT_REASONS = frozenset({"crash", "time", "illegal", "resign"})
"""The reasons an agent's exception may give for its loss, in an attribute ``reason``."""

_log = logging.getLogger(__name__)


class ArenaError(ZerosumError):
    """A match or tournament cannot be run as asked (no Ray, too few agents, ...)."""


class OpeningError(ArenaError):
    """An opening is not a sequence of legal moves, or a readable position, that leaves
    the game open; or openings cannot be drawn as asked."""


class RecordError(ArenaError):
    """A record file cannot be resumed: another event's header, or a damaged line."""


class TimeControlError(ArenaError):
    """A time control's text is not ``[MOVES/]BASE[+INCREMENT]`` in seconds."""


_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_TIME_CONTROL = re.compile(rf"(?:(\d+)/)?({_NUMBER})(?:\+({_NUMBER}))?")


def _seconds(value: float) -> str:
    """Write seconds so that reading them back gives the same float (``60``, ``0.1``)."""
    value = float(value)  # an int is a float to the type checker, not to is_integer
    return str(int(value)) if value.is_integer() else repr(value)


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Each side's clock: ``base`` seconds, ``increment`` seconds added after each move,
    and ``base`` again after every ``moves`` moves of the side (``None``: never, sudden
    death or Fischer increment). Written ``40/60+0.6`` or ``10+0.1``."""

    base: float
    increment: float = 0.0
    moves: int | None = None

    def __post_init__(self) -> None:
        if not (self.base > 0 and math.isfinite(self.base)):
            raise TimeControlError(f"a time control needs a base above 0 seconds, not {self.base}")
        if not (self.increment >= 0 and math.isfinite(self.increment)):
            raise TimeControlError(
                f"a time control's increment must be 0 or more seconds, not {self.increment}"
            )
        if self.moves is not None and self.moves < 1:
            raise TimeControlError(
                f"a time control's period must be 1 move or more, not {self.moves}"
            )

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read ``[MOVES/]BASE[+INCREMENT]`` (seconds; ``40/60+0.6``, ``10+0.1``, ``5``).

        Raises :class:`TimeControlError` quoting the text."""
        match = _TIME_CONTROL.fullmatch(text.strip())
        if match is None:
            raise TimeControlError(
                f"time control {quoted(text)}: expected [MOVES/]BASE[+INCREMENT] in seconds, "
                f"e.g. 40/60+0.6 or 10+0.1"
            )
        moves, base, increment = match.groups()
        try:
            return cls(
                base=float(base),
                increment=float(increment) if increment is not None else 0.0,
                moves=int(moves) if moves is not None else None,
            )
        except TimeControlError as error:
            raise TimeControlError(f"time control {quoted(text)}: {error}") from None

    def format(self) -> str:
        """Write the time control as :meth:`parse` reads it."""
        period = f"{self.moves}/" if self.moves is not None else ""
        increment = f"+{_seconds(self.increment)}" if self.increment else ""
        return f"{period}{_seconds(self.base)}{increment}"


@dataclass(frozen=True, slots=True)
class Adjudication:
    """When the arena ends a game on the agents' scores (see the module's notes).

    Scores are in the game's units, for the side that reports them; a rule whose score
    is ``None`` is off, and so is the whole adjudication by default. ``draw_after``
    and ``max_moves`` (``None``: no limit) count every move of the game, the opening's
    too."""

    resign_score: int | None = None
    resign_moves: int = 3
    draw_score: int | None = None
    draw_moves: int = 8
    draw_after: int = 0
    max_moves: int | None = None

    def __post_init__(self) -> None:
        for name in ("resign_score", "draw_score"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ArenaError(f"adjudication: {name} must be 0 or more, not {value}")
        if self.resign_moves < 1 or self.draw_moves < 1 or self.draw_after < 0:
            raise ArenaError(
                "adjudication: resign_moves and draw_moves must be at least 1 and "
                "draw_after 0 or more"
            )
        if self.max_moves is not None and self.max_moves < 1:
            raise ArenaError(f"adjudication: max_moves must be at least 1, not {self.max_moves}")

    @property
    def active(self) -> bool:
        """Whether any rule is on."""
        return (
            self.resign_score is not None
            or self.draw_score is not None
            or self.max_moves is not None
        )

    def to_json(self) -> dict[str, int | None]:
        """The settings as a JSON object, for the record file's header (the move limit
        only when set, so that headers written before it existed read the same)."""
        settings = {
            "resign_score": self.resign_score,
            "resign_moves": self.resign_moves,
            "draw_score": self.draw_score,
            "draw_moves": self.draw_moves,
            "draw_after": self.draw_after,
        }
        if self.max_moves is not None:
            settings["max_moves"] = self.max_moves
        return settings


def derive_seed(seed: int, *parts: object) -> int:
    """Return a 63-bit seed derived from ``seed`` and ``parts``, the same on every machine."""
    text = "/".join(map(str, (seed, *parts))).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


# --------------------------------------------------------------------------- openings

_SEPARATORS = re.compile(r"[\s,]+")


@dataclass(frozen=True, slots=True)
class Position:
    """An opening that is a starting position, written as the game's ``format_state``
    writes it (a FEN for chess), so that any process can read it back."""

    text: str


Opening = tuple[str, ...] | Position
"""An opening: moves in notation from the game's first position, or a position."""

OPENING_FORMATS = ("moves", "positions", "epd")
"""The formats of an opening file (see the module's notes)."""

_SUFFIX_FORMATS = {".epd": "epd", ".fen": "positions"}


def parse_opening(game: Any, text: str | Sequence[str]) -> tuple[str, ...]:
    """Check an opening (moves separated by commas or spaces) and return it normalised.

    Every move goes through the game's checked layer; the moves are returned as the
    game writes them. Raises :class:`OpeningError` for a bad move or an opening that
    ends the game."""
    words = _SEPARATORS.split(text.strip()) if isinstance(text, str) else list(text)
    state = game.initial_state()
    format_move = notation.move_formatter(game)
    moves = []
    for word in filter(None, words):
        try:
            move = notation.parse_move(game, state, word)
        except ZerosumError as error:
            raise OpeningError(f"opening {quoted(' '.join(words))}: {error}") from None
        moves.append(format_move(state, move))
        state = game.result(state, move)
    if game.is_terminal(state):
        raise OpeningError(f"opening {' '.join(moves)!r} ends the game; an opening must not")
    return tuple(moves)


def parse_position(game: Any, text: str) -> Position:
    """Check a starting position in the game's notation and return it as the game
    writes it. Raises :class:`OpeningError` for text the game cannot read as a position
    (or a game that reads none) and for a position where the game is over."""
    try:
        state = notation.parse_state(game, text.strip())
    except ZerosumError as error:
        raise OpeningError(f"position {quoted(text.strip())}: {error}") from None
    if game.is_terminal(state):
        raise OpeningError(
            f"position {quoted(text.strip())} is already over; an opening must not be"
        )
    return Position(notation.format_state(game, state))


_EPD_COUNTERS = re.compile(r"(\d+)\s+(\d+)(?:\s+|$)")


def epd_to_fen(text: str) -> str:
    """The FEN of an EPD line: its four position fields, then the halfmove clock and
    move number of its ``hmvc`` and ``fmvn`` operations (0 and 1 when absent); other
    operations (``bm``, ``id``, ...) are ignored. A line that is already a FEN (two
    counters after the fields) keeps its counters. Raises :class:`OpeningError` when
    the line has fewer than four fields."""
    fields = text.split(None, 4)
    if len(fields) < 4:
        raise OpeningError(
            f"EPD {quoted(text.strip())}: expected four FEN fields (board, side, castling, "
            f"en passant) and then operations"
        )
    rest = fields[4] if len(fields) == 5 else ""
    counters = {"hmvc": "0", "fmvn": "1"}
    full = _EPD_COUNTERS.match(rest)
    if full is not None:
        counters = {"hmvc": full.group(1), "fmvn": full.group(2)}
        rest = rest[full.end() :]
    for operation in rest.split(";"):
        words = operation.split()
        if len(words) == 2 and words[0] in counters:
            counters[words[0]] = words[1]
    return " ".join((*fields[:4], counters["hmvc"], counters["fmvn"]))


def opening_format(path: str | Path, form: str | None = None) -> str:
    """The format of the opening file ``path``: ``form`` when given, else ``epd`` for
    a ``.epd`` file, ``positions`` for a ``.fen`` file and ``moves`` otherwise."""
    if form is None:
        return _SUFFIX_FORMATS.get(Path(path).suffix.lower(), "moves")
    if form not in OPENING_FORMATS:
        raise OpeningError(f"opening format {form!r}: expected one of {', '.join(OPENING_FORMATS)}")
    return form


def _read_opening(game: Any, line: str, form: str) -> Opening | None:
    """The opening of one line of a file in format ``form``, or ``None`` for a blank or
    comment line. Moves may be followed by a ``#`` comment; a position line can only be
    a comment as a whole, since an EPD's quoted operands may hold a ``#``."""
    if form == "moves":
        text = line.split("#", 1)[0].strip()
        return parse_opening(game, text) if text else None
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    return parse_position(game, epd_to_fen(text) if form == "epd" else text)


def load_openings(game: Any, path: str | Path, form: str | None = None) -> tuple[Opening, ...]:
    """Read one opening per line from ``path`` in format ``form`` (see
    :func:`opening_format`); blank lines and ``#`` comments are skipped.

    Raises :class:`OpeningError` naming the file and the line of the first bad opening,
    or when the file holds none."""
    form = opening_format(path, form)
    openings: list[Opening] = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            try:
                opening = _read_opening(game, line, form)
            except OpeningError as error:
                raise OpeningError(f"{path}, line {number}: {error}") from None
            if opening is not None:
                openings.append(opening)
    if not openings:
        what = "moves in notation" if form == "moves" else form
        raise OpeningError(f"{path} holds no openings (one per line, {what})")
    return tuple(openings)


def sample_openings(openings: Sequence[Opening], count: int, seed: int) -> tuple[Opening, ...]:
    """Draw ``count`` of ``openings`` without replacement, in an order fixed by ``seed``.

    Raises :class:`OpeningError` when there are fewer than ``count`` openings."""
    if not 1 <= count <= len(openings):
        raise OpeningError(
            f"cannot sample {count} opening(s) from {len(openings)}: ask for 1 to {len(openings)}"
        )
    return tuple(random.Random(derive_seed(seed, "sample")).sample(list(openings), count))


def _random_line(
    game: Any, rng: random.Random, plies: int, format_move: Callable[[Any, Any], str]
) -> tuple[tuple[str, ...], Any] | None:
    """``plies`` random moves from the start and the state they reach, or ``None`` when
    the game ends on the way."""
    state = game.initial_state()
    moves = []
    for _ in range(plies):
        if game.is_terminal(state):
            return None
        move = rng.choice(list(game.actions(state)))
        moves.append(format_move(state, move))
        state = game.result(state, move)
    return None if game.is_terminal(state) else (tuple(moves), state)


_RANDOM_ATTEMPTS = 1000  # draws per opening before the game is deemed to end too soon


def random_openings(game: Any, plies: int, count: int, seed: int) -> tuple[tuple[str, ...], ...]:
    """Return ``count`` openings of ``plies`` random moves, drawn from ``seed``.

    Opening ``i`` depends on ``seed`` and ``i`` alone, so asking for more openings
    keeps the first ones (a resumed run with more games plays the same openings first).
    Openings after which the game is over are drawn again. Raises :class:`OpeningError`
    when the game seems to end before ``plies`` every time."""
    if plies < 0 or count < 1:
        raise OpeningError(f"need at least one opening of 0 or more plies, not {count} x {plies}")
    format_move = notation.move_formatter(game)
    openings = []
    for number in range(count):
        rng = random.Random(derive_seed(seed, "opening", number))
        for _ in range(_RANDOM_ATTEMPTS):
            line = _random_line(game, rng, plies, format_move)
            if line is not None:
                openings.append(line[0])
                break
        else:
            raise OpeningError(
                f"random openings of {plies} plies keep ending game {game.info.name!r}; "
                f"ask for fewer plies"
            )
    return tuple(openings)


BALANCE_ATTEMPTS = 200
"""Random openings tried for each balanced opening before giving up."""


def balance_score(game: Any, moves: Sequence[str], depth: int) -> int:
    """The score, for the side to move, of a depth-``depth`` engine search after the
    opening ``moves`` (a fresh engine, so the score depends on the position alone)."""
    state = game.initial_state()
    for text in moves:
        state = notation.play(game, state, text)
    try:
        score = Engine(game).search(state, Limits(depth=depth)).score
    except MissingCapabilityError as error:  # a depth-limited search needs evaluate()
        raise OpeningError(f"balanced openings need a depth-limited search: {error}") from None
    assert score is not None  # a depth limit lets every iteration complete
    return int(score)


def balanced_openings(
    game: Any, plies: int, count: int, seed: int, *, depth: int, window: int
) -> tuple[tuple[str, ...], ...]:
    """Return ``count`` openings of ``plies`` random moves whose depth-``depth`` search
    (:func:`balance_score`) scores within ``window`` of even, drawn from ``seed``.

    As with :func:`random_openings`, opening ``i`` depends on ``seed`` and ``i`` alone.
    Each opening gets :data:`BALANCE_ATTEMPTS` random tries; raises
    :class:`OpeningError` when one finds none within the window."""
    if plies < 0 or count < 1 or depth < 1 or window < 0:
        raise OpeningError(
            f"balanced openings need a count of 1 or more, 0 or more plies, a depth of 1 "
            f"or more and a window of 0 or more, not {count} x {plies}, depth {depth}, "
            f"window {window}"
        )
    format_move = notation.move_formatter(game)
    openings = []
    for number in range(count):
        rng = random.Random(derive_seed(seed, "balanced", number))
        for _ in range(BALANCE_ATTEMPTS):
            line = _random_line(game, rng, plies, format_move)
            if line is not None and abs(balance_score(game, line[0], depth)) <= window:
                openings.append(line[0])
                break
        else:
            raise OpeningError(
                f"found {number} of {count} balanced openings of {plies} plies in game "
                f"{game.info.name!r}: none of {BALANCE_ATTEMPTS} random tries for the next "
                f"one scores within ±{window} at depth {depth}; widen the window or ask "
                f"fewer plies"
            )
    return tuple(openings)


def describe_opening(opening: Opening) -> str:
    """An opening as written: its position, its moves, or ``(start)`` when empty."""
    if isinstance(opening, Position):
        return opening.text
    return " ".join(opening) if opening else "(start)"


def _check_opening(game: Any, opening: Opening) -> None:
    """Raise :class:`OpeningError` unless ``opening`` can start a game of ``game``."""
    if isinstance(opening, Position):
        parse_position(game, opening.text)
    else:
        parse_opening(game, opening)


def _opening_json(opening: Opening) -> list[str] | dict[str, str]:
    """An opening in the record file's header: a list of moves (as headers have always
    had) or ``{"position": text}``."""
    return {"position": opening.text} if isinstance(opening, Position) else list(opening)


# --------------------------------------------------------------------------- one game


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """How one game went: every move in notation, the winner (player or ``None``), why
    it ended (one of :data:`REASONS`) with details, the seconds each move took, and
    each side's clock at the end (``None`` without a time control)."""

    moves: tuple[str, ...]
    winner: int | None
    reason: str
    detail: str
    move_times: tuple[float, ...]
    time_used: tuple[float, float]
    clocks: tuple[float, float] | None = None


def play_game(
    game: Any,
    agents: Sequence[Agent],
    opening: Sequence[str] = (),
    time_limits: Sequence[float | None] = (None, None),
    time_margin: float = DEFAULT_TIME_MARGIN,
    *,
    time_control: TimeControl | None = None,
    adjudication: Adjudication | None = None,
    position: str | None = None,
) -> PlayedGame:
    """Play one game between ``agents`` (player 0 first) from ``position``
    (in the game's notation; ``None``: the game's first position) after the
    ``opening`` moves.

    An agent that crashes, returns an illegal move, or uses more than its
    ``time_limits`` entry plus ``time_margin`` seconds on a move loses the game; with a
    ``time_control`` each side's clock is kept instead of the ``time_limits``, and a
    side whose clock falls below ``-time_margin`` loses. ``adjudication`` ends the game
    on the agents' scores. The reason is recorded (see the module's notes).
    ``opening`` must be legal (see :func:`parse_opening`) and ``position`` readable (see
    :func:`parse_position`)."""
    state = game.initial_state() if position is None else notation.parse_state(game, position)
    format_move = notation.move_formatter(game)
    moves: list[str] = []
    for text in opening:
        move = notation.parse_move(game, state, text)
        moves.append(format_move(state, move))
        state = game.result(state, move)
    times: list[float] = []
    used = [0.0, 0.0]
    left = [time_control.base if time_control is not None else 0.0] * 2  # the clocks
    made = [0, 0]  # each side's moves, for the time control's periods
    rules = adjudication if adjudication is not None and adjudication.active else None
    kept = max(rules.resign_moves, rules.draw_moves) if rules is not None else 0
    scores: tuple[deque[int | None], deque[int | None]] = (deque(maxlen=kept), deque(maxlen=kept))
    names = [f"{game.info.players[p]} ({agents[p].name})" for p in (0, 1)]
    clock = time.perf_counter
    is_terminal, to_move, actions = game.is_terminal, game.to_move, game.actions

    def end(winner: int | None, reason: str, detail: str) -> PlayedGame:
        clocks = (left[0], left[1]) if time_control is not None else None
        return PlayedGame(
            tuple(moves), winner, reason, detail, tuple(times), (used[0], used[1]), clocks
        )

    while not is_terminal(state):
        player = to_move(state)
        agent = agents[player]
        who = names[player]
        if time_control is not None:
            tell_clock(agent, _reading(time_control, left, made, player))
        start = clock()
        try:
            move = agent.choose(game, state)
        except KeyboardInterrupt:
            raise  # the user's Ctrl-C stops the match
        except BaseException as error:  # any other crash, sys.exit() too, forfeits the game
            elapsed = clock() - start
            used[player] += elapsed
            left[player] -= elapsed
            # an external engine's error says how it lost (no answer in time, an illegal
            # move); the arena cannot import the protocols, so it reads the attribute
            reason = getattr(error, "reason", "crash")
            if reason not in _AGENT_REASONS:
                reason = "crash"
            verb = {"crash": "crashed", "resign": "resigned"}.get(reason, "lost")
            return end(other(player), reason, f"{who} {verb}: {type(error).__name__}: {error}")
        elapsed = clock() - start
        used[player] += elapsed
        times.append(elapsed)
        left[player] -= elapsed
        if move not in actions(state):
            return end(other(player), "illegal", f"{who} played {move!r}, not a legal move")
        if time_control is not None:
            if left[player] < -time_margin:
                detail = (
                    f"{who} ran out of time: its clock fell to {left[player]:.3f} s, past the "
                    f"{time_margin:g} s margin (clocks: {names[0]} {left[0]:.3f} s, "
                    f"{names[1]} {left[1]:.3f} s)"
                )
                return end(other(player), "time", detail)
            made[player] += 1
            left[player] += time_control.increment
            if time_control.moves is not None and made[player] % time_control.moves == 0:
                left[player] += time_control.base
        else:
            limit = time_limits[player]
            if limit is not None and elapsed > limit + time_margin:
                detail = (
                    f"{who} took {elapsed:.3f} s for a move; allowed {limit:g} s + "
                    f"{time_margin:g} s margin"
                )
                return end(other(player), "time", detail)
        moves.append(format_move(state, move))
        state = game.result(state, move)
        if rules is not None:
            scores[player].append(_score_of(agent))
            verdict = _by_scores(rules, scores, len(moves), names)
            if verdict is not None:
                return end(*verdict)
            if (
                rules.max_moves is not None
                and len(moves) >= rules.max_moves
                and not is_terminal(state)
            ):
                return end(None, "adjudicated", f"drawn: the move limit of {rules.max_moves}")
    final = outcome(game, state)
    assert final is not None
    return end(final.winner, "end", "")


def _reading(control: TimeControl, left: list[float], made: list[int], player: int) -> ClockReading:
    """What ``player``'s agent is told of the clocks before its move."""
    to_go = control.moves - made[player] % control.moves if control.moves is not None else None
    return ClockReading(
        own=left[player],
        opponent=left[other(player)],
        increment=control.increment,
        opponent_increment=control.increment,
        moves_to_go=to_go,
    )


def _score_of(agent: Agent) -> int | None:
    """The score an agent gave its last move (its ``last`` search result's), if any."""
    score = getattr(getattr(agent, "last", None), "score", None)
    return score if isinstance(score, int) and not isinstance(score, bool) else None


def _agreed(recent: deque[int | None], count: int, test: Callable[[int], bool]) -> bool:
    """Whether the last ``count`` scores are all known and pass ``test``."""
    if len(recent) < count:
        return False
    return all(score is not None and test(score) for score in list(recent)[-count:])


def _by_scores(
    rules: Adjudication,
    scores: tuple[deque[int | None], deque[int | None]],
    played: int,
    names: list[str],
) -> tuple[int | None, str, str] | None:
    """The adjudicated end (winner, reason, detail) when both agents' recent scores
    agree on a loss or a draw, else ``None``."""

    def shown(count: int) -> str:
        return "; ".join(
            f"{names[p]}: {' '.join(str(s) for s in list(scores[p])[-count:])}" for p in (0, 1)
        )

    if rules.resign_score is not None:
        limit, count = rules.resign_score, rules.resign_moves
        for loser in (0, 1):
            if _agreed(scores[loser], count, lambda s: s <= -limit) and _agreed(
                scores[other(loser)], count, lambda s: s >= limit
            ):
                detail = (
                    f"{names[loser]} resigned: both agents scored it lost by {limit} or more "
                    f"for {count} moves each ({shown(count)})"
                )
                return other(loser), "adjudicated", detail
    if rules.draw_score is not None and played >= rules.draw_after:
        limit, count = rules.draw_score, rules.draw_moves
        if all(_agreed(scores[p], count, lambda s: abs(s) <= limit) for p in (0, 1)):
            detail = (
                f"drawn: both agents scored the game within {limit} of even for {count} "
                f"moves each ({shown(count)})"
            )
            return None, "adjudicated", detail
    return None


# --------------------------------------------------------------------------- tasks and records


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game of an event, defined by strings so that any process can play it.

    ``specs`` are the agent specs of player 0 and player 1, ``seats`` the indices of
    those agents in the event, ``opening`` the index of the opening whose ``moves``
    start the game from the position ``start`` (``None``: the game's first);
    ``time_control`` and ``adjudication`` are the event's."""

    index: int
    game: str
    specs: tuple[str, str]
    seats: tuple[int, int]
    opening: int
    moves: tuple[str, ...]
    seed: int
    time_margin: float
    time_control: TimeControl | None = None
    adjudication: Adjudication = Adjudication()
    start: str | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game, as written to the record file (one JSON object a line).

    ``seats`` are the event's agent indices playing first and second, ``moves`` every
    move from the start (the opening's first), ``winner`` the winning player (0, 1, or
    ``None`` for a draw or a void game), ``reason`` one of :data:`REASONS`,
    ``time_used`` each player's seconds and ``move_times`` the seconds of every move
    after the opening (to the microsecond, so that a record equals its JSON);
    ``clocks`` each player's clock at the end, in a game on a time control, and
    ``start`` the position the game started from when not the game's first (each
    written only when set, so records without them read as before)."""

    index: int
    seats: tuple[int, int]
    opening: int
    moves: tuple[str, ...]
    winner: int | None
    reason: str
    detail: str
    time_used: tuple[float, float]
    move_times: tuple[float, ...]
    seed: int
    clocks: tuple[float, float] | None = None
    start: str | None = None

    @property
    def void(self) -> bool:
        """Whether the game has no result (its worker died twice): it is not scored."""
        return self.reason == VOID

    @property
    def result(self) -> str:
        """The result in the usual notation: ``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` for
        a void game."""
        return _VOID_RESULT if self.void else _RESULTS[self.winner]

    def points(self, agent: int) -> float:
        """The points agent ``agent`` (an event index) took from this game: 1, 1/2 or 0
        (0 for both sides of a void game, which :func:`tally` does not count)."""
        if agent not in self.seats:
            raise ValueError(f"agent {agent} did not play game {self.index}")
        if self.void:
            return 0.0
        if self.winner is None:
            return 0.5
        return 1.0 if self.seats[self.winner] == agent else 0.0

    def to_json(self) -> str:
        """Write the record as one line of JSON."""
        optional: dict[str, Any] = {}
        if self.clocks is not None:
            optional["clocks"] = list(self.clocks)
        if self.start is not None:
            optional["start"] = self.start
        return json.dumps(
            {
                "type": "game",
                "index": self.index,
                "seats": list(self.seats),
                "opening": self.opening,
                "moves": list(self.moves),
                "result": self.result,
                "winner": self.winner,
                "reason": self.reason,
                "detail": self.detail,
                "time_used": list(self.time_used),
                "move_times": list(self.move_times),
                "seed": self.seed,
                **optional,
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        """Read a record from the decoded JSON object of one line.

        Raises :class:`RecordError` when a field is missing or of the wrong kind."""
        try:
            first, second = data["seats"]
            used_first, used_second = data["time_used"]
            clocks = data.get("clocks")
            if clocks is not None:
                clock_first, clock_second = clocks
                clocks = (float(clock_first), float(clock_second))
            start = data.get("start")
            record = cls(
                index=int(data["index"]),
                seats=(int(first), int(second)),
                opening=int(data["opening"]),
                moves=tuple(str(m) for m in data["moves"]),
                winner=None if data["winner"] is None else int(data["winner"]),
                reason=str(data["reason"]),
                detail=str(data["detail"]),
                time_used=(float(used_first), float(used_second)),
                move_times=tuple(float(t) for t in data["move_times"]),
                seed=int(data["seed"]),
                clocks=clocks,
                start=None if start is None else str(start),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"not a game record: {error!r} in {data!r}") from None
        if record.winner not in (0, 1, None) or record.reason not in REASONS:
            raise RecordError(f"not a game record: winner or reason unknown in {data!r}")
        if record.index < 0 or (record.void and record.winner is not None):
            raise RecordError(f"not a game record: negative index or a void game won in {data!r}")
        return record


@lru_cache(maxsize=8)
def _make_game(spec: str) -> Any:
    """The game of ``spec``, made once per process: games are immutable descriptions."""
    return registry.make(spec)


def _void_record(task: GameTask) -> GameRecord:
    """The record of a game that could not be played: its worker process died twice."""
    return GameRecord(
        index=task.index,
        seats=task.seats,
        opening=task.opening,
        moves=task.moves,
        winner=None,
        reason=VOID,
        detail="void: its worker process died twice, the second time playing it alone",
        time_used=(0.0, 0.0),
        move_times=(),
        seed=task.seed,
        start=task.start,
    )


def play_task(task: GameTask) -> GameRecord:
    """Play the game ``task`` defines, rebuilding game and agents from its strings.

    This is what worker processes run."""
    game = _make_game(task.game)
    parsed = [parse_agent_spec(spec) for spec in task.specs]
    agents = [make_agent(spec, seed=derive_seed(task.seed, p)) for p, spec in enumerate(parsed)]
    try:
        played = play_game(
            game,
            agents,
            task.moves,
            [spec.time_limit for spec in parsed],
            task.time_margin,
            time_control=task.time_control,
            adjudication=task.adjudication,
            position=task.start,
        )
    finally:
        for agent in agents:
            close_agent(agent)
    return GameRecord(
        index=task.index,
        seats=task.seats,
        opening=task.opening,
        moves=played.moves,
        winner=played.winner,
        reason=played.reason,
        detail=played.detail,
        time_used=(round(played.time_used[0], 6), round(played.time_used[1], 6)),
        move_times=tuple(round(t, 6) for t in played.move_times),
        seed=task.seed,
        clocks=_rounded(played.clocks),
        start=task.start,
    )


def _rounded(clocks: tuple[float, float] | None) -> tuple[float, float] | None:
    """Clocks to the microsecond, as the record's other times."""
    return (round(clocks[0], 6), round(clocks[1], 6)) if clocks is not None else None


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Event:
    """A match (``kind="match"``, two agents) or a round robin (``"tournament"``).

    ``games`` is the number of games of every pairing; ``openings`` are move lists in
    the game's notation (one empty opening plays from the start) or positions;
    ``time_control`` puts the games on a clock and ``adjudication`` ends them on the
    agents' scores (both off by default; see the module's notes); ``sprt`` is the text
    of the SPRT settings that may stop a match, kept in the header for readers."""

    kind: str
    game: str
    agents: tuple[str, ...]
    games: int
    openings: tuple[Opening, ...] = ((),)
    seed: int = 0
    time_margin: float = DEFAULT_TIME_MARGIN
    time_control: TimeControl | None = None
    adjudication: Adjudication = Adjudication()
    sprt: str | None = None
    labels: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        if self.kind not in ("match", "tournament"):
            raise ArenaError(f"an event is a match or a tournament, not {self.kind!r}")
        wanted = "exactly 2" if self.kind == "match" else "at least 2"
        if len(self.agents) < 2 or (self.kind == "match" and len(self.agents) != 2):
            raise ArenaError(f"a {self.kind} needs {wanted} agents, not {len(self.agents)}")
        if self.games < 1:
            raise ArenaError(f"a {self.kind} needs at least one game per pairing")
        if not self.openings:
            raise ArenaError("an event needs at least one opening (an empty one is fine)")
        if not (self.time_margin >= 0 and math.isfinite(self.time_margin)):
            raise ArenaError(f"the time margin must be 0 or more seconds, not {self.time_margin}")
        parsed = [parse_agent_spec(spec) for spec in self.agents]
        for spec in parsed:
            if spec.kind == "human":
                raise ArenaError(
                    f"agent {spec.text!r}: a person cannot play a {self.kind}; use "
                    f"'zerosum play' to play against the engine"
                )
        labels = tuple(spec.label for spec in parsed)
        if len(set(labels)) != len(labels):
            raise ArenaError(
                f"two agents have the same name among {', '.join(labels)}; tell them apart "
                f"with name=..."
            )
        object.__setattr__(self, "labels", labels)

    def check(self) -> Any:
        """Make the game, every agent and every opening once, so that a bad event fails
        here with a clear error rather than in a worker; return the game."""
        game = registry.make(self.game)
        for spec in self.agents:
            close_agent(make_agent(spec, seed=self.seed))
        for opening in self.openings:
            _check_opening(game, opening)
        return game

    def pairings(self) -> list[tuple[int, int]]:
        """Every pair of agents that meets, as event indices (first < second)."""
        size = len(self.agents)
        return [(i, j) for i in range(size) for j in range(i + 1, size)]

    def tasks(self) -> list[GameTask]:
        """The games of the event in schedule order (see the module's notes)."""
        pairings = self.pairings()
        tasks: list[GameTask] = []
        for round_number in range((self.games + 1) // 2):
            which = round_number % len(self.openings)
            opening = self.openings[which]
            position = opening if isinstance(opening, Position) else None
            colours = 2 if 2 * round_number + 1 < self.games else 1
            for reverse in range(colours):
                for pair in pairings:
                    seats = (pair[1], pair[0]) if reverse else pair
                    index = len(tasks)
                    tasks.append(
                        GameTask(
                            index=index,
                            game=self.game,
                            specs=(self.agents[seats[0]], self.agents[seats[1]]),
                            seats=seats,
                            opening=which,
                            moves=() if isinstance(opening, Position) else opening,
                            seed=derive_seed(self.seed, index),
                            time_margin=self.time_margin,
                            time_control=self.time_control,
                            adjudication=self.adjudication,
                            start=position.text if position is not None else None,
                        )
                    )
        return tasks

    def header(self) -> dict[str, Any]:
        """The first line of the record file: what defines the event (a time control
        and an adjudication only when set, so that headers without them read as before),
        and the settings of the SPRT that may stop it, for readers of the file (the
        charts); a resumed run writes its own, as they do not change the games."""
        optional: dict[str, Any] = {}
        if self.time_control is not None:
            optional["time_control"] = self.time_control.format()
        if self.adjudication.active:
            optional["adjudication"] = self.adjudication.to_json()
        if self.sprt is not None:
            optional["sprt"] = self.sprt
        return {
            "type": "header",
            "version": RECORD_VERSION,
            "kind": self.kind,
            "game": self.game,
            "agents": list(self.agents),
            "games": self.games,
            "openings": [_opening_json(o) for o in self.openings],
            "seed": self.seed,
            "time_margin": self.time_margin,
            **optional,
        }


_DEFINING = (
    "kind",
    "game",
    "agents",
    "openings",
    "seed",
    "time_margin",
    "time_control",
    "adjudication",
)

Warn = Callable[[str], None]
"""Where the arena sends a warning (a damaged record line, a dead worker): one line each."""

_SHOWN_DAMAGED = 3  # damaged lines a warning names before it only counts the rest


def _json_object(raw: bytes) -> dict[str, Any]:
    """Decode one line of a record file; raise :class:`RecordError` saying what it is not."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("not UTF-8") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: garbage nested too deep
        raise RecordError("not JSON") from None
    if not isinstance(data, dict):
        raise RecordError("not a JSON object")
    return data


def _header(path: str | Path, line: bytes) -> dict[str, Any]:
    """Read the header from the first line of the record file ``path``."""
    with contextlib.suppress(RecordError):
        data = _json_object(line)
        if data.get("type") == "header" and data.get("version") == RECORD_VERSION:
            return data
    raise RecordError(f"{path}, line 1: not a zerosum record header (version {RECORD_VERSION})")


def read_header(path: str | Path) -> dict[str, Any]:
    """Read only the header of a record file (what defines its event).

    Raises :class:`RecordError` when the first line is not a complete header."""
    with open(path, "rb") as handle:
        first = handle.readline()
    if not first.endswith(b"\n"):
        raise RecordError(f"{path} holds no header: it is not a zerosum record file")
    return _header(path, first)


def read_records(
    path: str | Path, warn: Warn | None = None
) -> tuple[dict[str, Any], list[GameRecord]]:
    """Read a record file: its header and its game records, in file order.

    A game line that cannot be read (not UTF-8, not JSON, not a game record, or a last
    line cut short, without its newline) is skipped, and ``warn`` (default: this
    module's logger) gets one line naming the skipped lines. Raises
    :class:`RecordError` when the file has no readable header."""
    lines = Path(path).read_bytes().split(b"\n")
    tail = lines.pop()  # the bytes after the last newline: none, or a line cut short
    if not lines:
        raise RecordError(f"{path} holds no header: it is not a zerosum record file")
    header = _header(path, lines[0])
    records = []
    damaged = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            data = _json_object(line)
        except RecordError as error:
            damaged.append(f"line {number} ({error})")
            continue
        try:
            records.append(GameRecord.from_json(data))
        except RecordError:  # its message holds the whole line: too long for a warning
            damaged.append(f"line {number} (not a game record)")
    if tail:
        damaged.append(f"line {len(lines) + 1} (cut short)")
    if damaged:
        named = ", ".join(damaged[:_SHOWN_DAMAGED])
        more = len(damaged) - _SHOWN_DAMAGED
        (warn or _log.warning)(
            f"{path}: skipped {len(damaged)} damaged line(s): {named}"
            + (f" and {more} more" if more > 0 else "")
        )
    return header, records


def _resume(path: Path, event: Event, tasks: list[GameTask], warn: Warn) -> dict[int, GameRecord]:
    """Check the file's header against ``event`` and return the records it holds.

    The openings may have grown (more games ask for more random openings) as long as
    the recorded ones come first. The file is rewritten with this run's header and each
    recorded game once (the first record of a game wins), without damaged lines, so
    that it describes the whole event and new records start on a fresh line."""
    header, records = read_records(path, warn)
    expected = event.header()
    for key in _DEFINING:
        # a key absent from both (no time control, no adjudication) is None on both sides
        recorded: Any = header.get(key)
        wanted: Any = expected.get(key)
        if key == "openings" and isinstance(recorded, list):
            wanted = wanted[: len(recorded)]
        if recorded != wanted:
            raise RecordError(
                f"cannot resume {path}: it records another event ({key} is "
                f"{header.get(key)!r}, this run has {expected.get(key)!r})"
            )
    done: dict[int, GameRecord] = {}
    for record in records:
        if record.index < len(tasks):
            task = tasks[record.index]
            if (record.seats, record.opening) != (task.seats, task.opening):
                raise RecordError(
                    f"cannot resume {path}: game {record.index} does not match the schedule"
                )
        done.setdefault(record.index, record)
    if len(done) < len(records):
        warn(f"{path}: dropped {len(records) - len(done)} repeated record(s) of a game")
    lines = [json.dumps(expected, ensure_ascii=False)]
    lines.extend(record.to_json() for record in done.values())
    temporary = path.with_name(path.name + ".resume")
    temporary.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    os.replace(temporary, path)
    return done


Stopped = Callable[[], bool]
"""Whether the event has been told to stop: start no new game, finish those running."""


def _local_workers(
    tasks: list[GameTask], workers: int, warn: Warn, stopped: Stopped
) -> Iterator[GameRecord]:
    """Play ``tasks`` here (one worker) or in a process pool, yielding as games end."""
    if workers <= 1:
        for task in tasks:
            if stopped():
                return
            yield play_task(task)
        return
    yield from _surviving_pool(tasks, min(workers, len(tasks)), warn, stopped)


def _surviving_pool(
    tasks: list[GameTask], size: int, warn: Warn, stopped: Stopped
) -> Iterator[GameRecord]:
    """Play ``tasks`` in a pool of ``size`` processes that outlives a dying worker.

    Only ``size`` games are submitted at a time, so the games a broken pool takes down
    are the ones in flight. They become suspects, played again one at a time in a new
    pool before anything else; a suspect whose worker dies while it plays alone killed
    it, and is recorded void. Once ``stopped``, no waiting game is submitted (suspects
    still are: they had started)."""
    waiting = deque(tasks)
    suspects: deque[GameTask] = deque()
    with SurvivingPool(size, play_task) as pool:
        while (waiting and not stopped()) or suspects or pool.running:
            alone = bool(suspects)
            queue, room = (suspects, 1) if alone else (waiting, size)
            if queue is waiting and stopped():
                room = 0  # only the games running are waited for
            while queue and pool.running < room:
                task = queue.popleft()
                if not pool.submit(task):
                    queue.appendleft(task)
                    break
            ended, lost = pool.wait()
            for _, record in sorted(ended, key=lambda done: done[0].index):
                yield record
            if not lost:
                continue
            games = ", ".join(str(task.index) for task in sorted(lost, key=lambda t: t.index))
            if alone:
                warn(f"game {games} is void: its worker process died again as it played alone")
                yield from map(_void_record, lost)
            else:
                warn(
                    f"a worker process died during game(s) {games}; playing them again, "
                    f"one at a time"
                )
                suspects.extend(sorted(lost, key=lambda t: t.index))


def _ray_workers(
    tasks: list[GameTask], workers: int, address: str | None, stopped: Stopped
) -> Iterator[GameRecord]:
    """Play ``tasks`` on a Ray cluster (a local one with ``workers`` CPUs if no address).

    At most as many games as the cluster has CPUs are submitted at a time, so that once
    ``stopped`` only those finish."""
    try:
        import ray  # noqa: PLC0415 - optional: imported only when a run asks for Ray
    except ImportError:
        raise ArenaError(
            "Ray is not installed: install the extra with pip install 'zerosum[ray]'"
        ) from None
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
        else:
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                logging_level=logging.WARNING,
                log_to_driver=False,
            )
    remote = ray.remote(num_cpus=1)(play_task)
    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    window = max(workers, int(resources.get("CPU", workers)))
    waiting = deque(tasks)
    pending: list[Any] = []
    try:
        while True:
            while waiting and len(pending) < window and not stopped():
                pending.append(remote.remote(waiting.popleft()))
            if not pending:
                break
            finished, pending = ray.wait(pending, num_returns=1)
            for reference in finished:
                yield ray.get(reference)
    finally:
        for reference in pending:
            ray.cancel(reference)
        if started:
            ray.shutdown()


def run_event(
    event: Event,
    *,
    output: str | Path | None = None,
    resume: bool = False,
    workers: int | None = None,
    ray: bool = False,
    ray_address: str | None = None,
    progress: Callable[[GameRecord, list[GameRecord]], None] | None = None,
    warn: Warn | None = None,
    stop: Callable[[list[GameRecord]], bool] | None = None,
) -> list[GameRecord]:
    """Play every game of ``event`` not yet recorded and return all records by index.

    ``output`` is the JSON lines file (``None``: no file). It must not exist unless
    ``resume`` is set, in which case its header must define the same event. ``workers``
    defaults to the number of cores; ``ray`` sends the games to a Ray cluster.
    ``progress`` is called after each new game with it and every record so far;
    ``warn`` (default: this module's logger) gets a line for each damaged record line
    skipped and each worker process that died (see the module's notes). ``stop`` is
    asked after each new game (after ``progress``), and first on the records of a
    resumed file, with every record so far: once it says yes, no new game starts and
    the games already running finish and are recorded.
    Raises :class:`ArenaError` (and its subclasses) for an event that cannot run."""
    warn = warn or _log.warning
    tasks = event.tasks()
    done: dict[int, GameRecord] = {}
    path = Path(output) if output is not None else None
    if path is not None:
        if resume:
            if not path.exists():
                raise RecordError(f"cannot resume {path}: no such file")
            done = _resume(path, event, tasks, warn)
        elif path.exists():
            raise RecordError(f"{path} exists: resume it, or choose another file for the records")
    elif resume:
        raise RecordError("resuming needs the record file of the run to continue")
    event.check()
    count = workers if workers is not None else os.cpu_count() or 1
    if count < 1:
        raise ArenaError(f"the number of workers must be at least 1, not {count}")
    remaining = [task for task in tasks if task.index not in done]
    records = [done[i] for i in sorted(done) if i < len(tasks)]
    stopping = stop is not None and bool(records) and stop(records)

    def stopped() -> bool:
        return stopping

    handle = None
    if path is not None:
        handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed in the finally
        if not resume:
            handle.write(json.dumps(event.header(), ensure_ascii=False) + "\n")
            handle.flush()
    try:
        source = (
            _ray_workers(remaining, count, ray_address, stopped)
            if ray
            else _local_workers(remaining, count, warn, stopped)
        )
        for record in source:
            if handle is not None:
                handle.write(record.to_json() + "\n")
                handle.flush()
            records.append(record)
            if progress is not None:
                progress(record, records)
            if stop is not None and not stopping:
                stopping = stop(records)
    finally:
        if handle is not None:
            handle.close()
    records.sort(key=lambda r: r.index)
    return records


# --------------------------------------------------------------------------- summaries


def tally(
    records: Sequence[GameRecord], agent: int, opponent: int | None = None
) -> tuple[int, int, int]:
    """Count the wins, draws and losses of ``agent`` (against ``opponent`` if given);
    void games are none of these."""
    counts: Counter[float] = Counter()
    for record in records:
        if record.void:
            continue
        if agent in record.seats and (opponent is None or opponent in record.seats):
            counts[record.points(agent)] += 1
    return counts[1.0], counts[0.5], counts[0.0]


def opening_tally(records: Sequence[GameRecord], agent: int) -> dict[int, tuple[int, int, int]]:
    """The wins, draws and losses of ``agent`` (see :func:`tally`) from each opening,
    by the opening's index in the event, for the openings the records played."""
    by_opening: dict[int, list[GameRecord]] = {}
    for record in records:
        by_opening.setdefault(record.opening, []).append(record)
    return {which: tally(games, agent) for which, games in sorted(by_opening.items())}


def crosstable(
    records: Sequence[GameRecord], size: int
) -> tuple[list[list[float]], list[list[int]]]:
    """Return ``(scores, games)``: ``scores[i][j]`` is what agent ``i`` scored against
    ``j`` and ``games[i][j]`` how many scored (not void) games they played."""
    scores = [[0.0] * size for _ in range(size)]
    games = [[0] * size for _ in range(size)]
    for record in records:
        if record.void:
            continue
        first, second = record.seats
        scores[first][second] += record.points(first)
        scores[second][first] += record.points(second)
        games[first][second] += 1
        games[second][first] += 1
    return scores, games


def match_estimate(records: Sequence[GameRecord]) -> EloEstimate:
    """The Elo difference of agent 0 over agent 1 from a match's records (void games
    left out)."""
    return elo_estimate(*tally(records, 0, 1))


def adjudications(records: Sequence[GameRecord]) -> Counter[str]:
    """Count the games that did not end by the rules, by reason (void games under
    ``error``)."""
    return Counter(record.reason for record in records if record.reason != "end")


def match_pairs(records: Sequence[GameRecord]) -> Pentanomial:
    """The pentanomial counts of agent 0's points over the complete game pairs of a
    match: games ``2r`` and ``2r + 1`` play the same opening with colours swapped (see
    the module's notes). A pair with a game missing (not played yet, or the odd last
    game) or void is left out."""
    by_index = {record.index: record for record in records}
    scores = []
    for record in records:
        partner = by_index.get(record.index + 1)
        if record.index % 2 or partner is None or record.void or partner.void:
            continue
        scores.append(record.points(0) + partner.points(0))
    return Pentanomial.from_scores(scores)


def match_sprt(records: Sequence[GameRecord], settings: SprtSettings) -> SprtResult:
    """The SPRT of ``settings`` for agent 0 against agent 1 of a match, on the
    pentanomial counts of its complete pairs (:func:`match_pairs`)."""
    return sprt(match_pairs(records).counts, settings)


def describe_match_sprt(records: Sequence[GameRecord], settings: SprtSettings, games: int) -> str:
    """The SPRT's line for a match of at most ``games`` games: ``SPRT elo0=0 elo1=5 ...:
    LLR 2.98 (-2.94, 2.94) after 12 pairs: H1 accepted`` (or ``no decision within 200
    games``)."""
    result = match_sprt(records, settings)
    verdict = result.decision or f"no decision within {games} games"
    pairs = match_pairs(records).pairs
    return f"SPRT {settings.describe()}: {result.describe()} after {pairs} pairs: {verdict}"
