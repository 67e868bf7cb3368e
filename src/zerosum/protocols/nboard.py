"""The NBoard protocol: zerosum's othello engine for the NBoard GUI and its peers.

NBoard (Chris Welty's othello GUI) starts an engine as a process and speaks to it one
line at a time; Edax, NTest and Egaroucid speak it too. :class:`NBoardEngine` is the
engine's side (``zerosum nboard`` connects it to the standard streams):

``nboard VERSION``
    the first line: the engine answers ``set myname zerosum``.
``set depth N``
    the midgame search depth (default :data:`DEFAULT_DEPTH`); with
    :data:`EXACT_EMPTIES` empty squares or fewer the engine solves the position
    exactly instead. ``set contempt`` and other settings are accepted and ignored.
``set game GGF``
    the position the following commands are about: the end of the game in GGF
    (``(;GM[Othello]...BO[8 <64 squares> <side>]B[f5]W[f6/-1.00/2.1]...;)``), its board
    ``BO`` with ``-`` empty, ``*`` black and ``O`` white, then the moves, ``PA`` a pass.
``move MOVE[/EVAL/TIME]``
    a move played on that position (``F5``, ``PA``).
``go``
    the engine answers ``=== MOVE/EVAL/TIME`` (its move, its score in discs for the
    side to move, the seconds spent) without playing it: the GUI sends the ``move``.
``hint N``
    the best N moves, each as ``search MOVE EVAL 0 DEPTH`` (``book`` lines are for
    engines with an opening book), then an empty ``status``.
``ping N``
    stops any search, then ``pong N``: what the GUI reads before that is about the
    earlier position.
``learn``
    answered ``learned`` (there is no book to learn into).
``quit``
    ends the session.

While searching the engine reports ``status`` lines and, after each completed depth,
``nodestats NODES SECONDS`` and ``search PV EVAL 0 DEPTH`` (the principal variation as
``F5-D6-C3``; ``DEPTH`` is ``100%`` once the score is exact). Searches run in a thread so
that ``ping`` (and ``quit``) stop them at once; any other command waits for the running
search to finish, as a script that sends ``go`` and ``hint`` one after the other expects.
The protocol asks engines to ignore lines they do not understand; a line that names a
known command but cannot be used (a bad game, an illegal move) is answered with a
``status`` line saying why, and the position is left as it was.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from zerosum.agents import engine_for
from zerosum.game import ZerosumError, quoted
from zerosum.games import registry
from zerosum.protocols.serving import Lines, Searching, SearchSlot
from zerosum.search.engine import EngineOptions, Limits, Report

__all__ = [
    "DEFAULT_DEPTH",
    "EXACT_EMPTIES",
    "NAME",
    "GgfError",
    "NBoardEngine",
    "parse_ggf",
]

NAME = "zerosum"
"""The name the engine gives NBoard."""

DEFAULT_DEPTH = 8
"""The midgame depth until the GUI sets one."""

MAX_DEPTH = 60
"""The deepest ``set depth`` accepted: an othello game has at most 60 moves."""

EXACT_EMPTIES = 14
"""From this many empty squares down the engine solves the position to the end."""

_MAX_LINE = 20_000  # characters: a 60-move GGF record is about 1,000
_PROPERTY = re.compile(r"([A-Z]+)\[([^\]]*)\]")
_DISCS = {"-": "-", "*": "X", "O": "O", "X": "X", "#": "X", "o": "O", "x": "X", ".": "-"}


class GgfError(ZerosumError):
    """A ``set game`` line that is not an othello game in GGF, or whose moves are illegal."""


def parse_ggf(game: Any, text: str) -> Any:
    """Read a game in GGF and return the othello state at its end.

    Raises :class:`GgfError` naming the text: no ``BO`` board, a board that is not 8x8,
    a square or side that is not ``-``, ``*`` or ``O``, or a move that is not legal
    where it is played (a colour whose turn it is not, unless the other colour had to
    pass, which GGF may leave out)."""
    shown = quoted(text if len(text) <= 80 else text[:77] + "...")
    if len(text) > _MAX_LINE:
        raise GgfError(f"game {shown}: longer than {_MAX_LINE:,} characters")
    body = text.strip()
    if not (body.startswith("(;") and body.endswith(";)")):
        raise GgfError(f"game {shown}: a GGF game is written (;...;)")
    properties = _PROPERTY.findall(body)
    kinds = dict(properties)
    if kinds.get("GM", "Othello").lower() != "othello":
        raise GgfError(f"game {shown}: GM[{kinds['GM']}] is not othello")
    board = kinds.get("BO")
    if board is None:
        raise GgfError(f"game {shown}: no BO[...] board")
    words = board.split()
    if len(words) != 3 or words[0] != "8":
        raise GgfError(f"game {shown}: BO[{board}] is not 8, 64 squares and the side to move")
    squares, side = words[1], words[2]
    if len(squares) != 64 or any(c not in _DISCS for c in squares) or side not in ("*", "O"):
        raise GgfError(f"game {shown}: BO[{board}] squares are -, * or O, the side * or O")
    try:
        state = game.parse_state("".join(_DISCS[c] for c in squares) + " " + _DISCS[side])
    except ZerosumError as error:
        raise GgfError(f"game {shown}: {error}") from None
    for key, value in properties:
        if key not in ("B", "W"):
            continue
        player = 0 if key == "B" else 1
        if game.is_terminal(state):
            raise GgfError(f"game {shown}: {key}[{value}] comes after the end of the game")
        if game.to_move(state) != player:
            # a pass GGF left out: the side to move had nothing else
            moves = game.actions(state)
            if len(moves) != 1 or game.format_move(state, moves[0]) != "pass":
                raise GgfError(f"game {shown}: {key}[{value}] is played out of turn")
            state = game.result(state, moves[0])
        state = game.result(state, _move(game, state, value, f"game {shown}: "))
    return state


def _move(game: Any, state: Any, text: str, context: str) -> Any:
    """Read a move written ``F5``, ``PA`` or ``f5/-2.00/1.5`` (the eval and time are
    ignored); raise :class:`GgfError` after ``context``."""
    word = text.split("/", 1)[0].strip()
    try:
        return game.parse_move(state, word)
    except ZerosumError as error:
        raise GgfError(f"{context}{error}") from None


def _write_move(game: Any, state: Any, move: Any) -> str:
    text = game.format_move(state, move)
    return "PA" if text == "pass" else text.upper()


class NBoardEngine:
    """An NBoard othello engine: feed it the GUI's lines, it writes its answers to
    ``output``.

    :meth:`handle` takes one line and returns ``False`` after ``quit``; :meth:`run`
    feeds it lines until then or the end of the input, and waits for the last search.
    ``clock`` (seconds) times the moves. ``last`` is the final report of the latest
    search (``None`` when no iteration completed)."""

    def __init__(self, output: TextIO, *, clock: Callable[[], float] = time.perf_counter) -> None:
        self.depth = DEFAULT_DEPTH
        self.last: Report | None = None
        self._say = Lines(output).say
        self._clock = clock
        self._game = registry.make("othello")
        self._state = self._game.initial_state()
        self._engine = engine_for(self._game, EngineOptions())
        self._search: SearchSlot[Searching] = SearchSlot()
        self._commands: dict[str, Callable[[str], None]] = {
            "nboard": lambda rest: self._say(f"set myname {NAME}"),
            "set": self._set,
            "move": self._move,
            "go": lambda rest: self._start(self._go),
            "hint": self._hint,
            "ping": self._ping,
            "learn": lambda rest: self._say("learned"),
        }

    def __repr__(self) -> str:
        return f"NBoardEngine({self._game.format_state(self._state)!r}, depth {self.depth})"

    @property
    def state(self) -> Any:
        """The position the GUI's commands are about."""
        return self._state

    # ------------------------------------------------------------------ the loop

    def run(self, lines: Iterable[str]) -> None:
        """Handle ``lines`` until ``quit`` or their end, then wait for the last search."""
        for line in lines:
            if not self.handle(line):
                return
        self._search.finish()

    def handle(self, line: str) -> bool:
        """Handle one line from the GUI; return ``False`` when it was ``quit``."""
        word, rest = (*line.split(None, 1), "", "")[:2]
        if word == "quit":
            self._search.stop(wait=True)
            return False
        command = self._commands.get(word)
        if command is None:
            return True  # the protocol: ignore what is not understood
        try:
            command(rest.strip())
        except ZerosumError as error:
            self._say(f"status {error}")
        return True

    # ------------------------------------------------------------------ commands

    def _set(self, rest: str) -> None:
        name, _, value = rest.partition(" ")
        if name == "depth":
            if not value.strip().isdigit() or not 1 <= int(value) <= MAX_DEPTH:
                raise ZerosumError(f"set depth {quoted(value)}: a depth is 1 to {MAX_DEPTH}")
            self.depth = int(value)
        elif name == "game":
            self._search.finish()
            self._state = parse_ggf(self._game, value)

    def _move(self, rest: str) -> None:
        self._search.finish()
        if self._game.is_terminal(self._state):
            raise GgfError(f"move {quoted(rest)}: the game is over")
        self._state = self._game.result(self._state, _move(self._game, self._state, rest, ""))

    def _ping(self, rest: str) -> None:
        self._search.stop(wait=True)
        self._say(f"pong {rest}")

    def _hint(self, rest: str) -> None:
        count = int(rest) if rest.isdigit() else 1
        self._start(lambda search: self._hints(search, max(count, 1)))

    def _start(self, work: Callable[[Searching], None]) -> None:
        self._search.finish()
        if self._game.is_terminal(self._state):
            raise ZerosumError("the game is over: no move to search")
        self._search.start(Searching(), work, name="nboard-search")

    # ------------------------------------------------------------------ searching

    def _limits(self, search: Searching) -> Limits:
        empties = self._game.format_state(self._state).count("-")
        if empties <= EXACT_EMPTIES:
            return Limits(stop=search)  # to the end: the exact score
        return Limits(depth=self.depth, stop=search)

    def _reports(self, search: Searching, multipv: bool) -> Iterable[Report]:
        """Deepen on the current position, reporting each depth to the GUI."""
        state, started = self._state, self._clock()
        self._say(f"status {NAME} is thinking")
        for report in self._engine.iterate(state, self._limits(search), multipv=multipv):
            self.last = report
            self._say(f"nodestats {report.nodes} {self._clock() - started:.2f}")
            yield report
        self._say("status")

    def _describe(self, report: Report, state: Any, pv: tuple[Any, ...], score: int) -> str:
        line = []
        for move in pv:
            line.append(_write_move(self._game, state, move))
            state = self._game.result(state, move)
        depth = "100%" if report.solved else str(report.depth)
        return f"search {'-'.join(line)} {score:.2f} 0 {depth}"

    def _go(self, search: Searching) -> None:
        started, state = self._clock(), self._state
        self.last = None
        for report in self._reports(search, multipv=False):
            self._say(self._describe(report, state, report.pv, report.score))
        last = self.last
        if last is None:  # stopped before the first depth: the first move in search order
            move, tail = self._engine.root_moves(state)[0], ""
        else:
            move, tail = last.best_move, f"/{last.score:.2f}"
        spent = self._clock() - started
        self._say(f"=== {_write_move(self._game, state, move)}{tail}/{spent:.1f}")

    def _hints(self, search: Searching, count: int) -> None:
        state = self._state
        final: Report | None = None
        for report in self._reports(search, multipv=count > 1):
            final = report
            self._say(self._describe(report, state, report.pv, report.score))
        if final is not None and final.root_scores and count > 1:
            for move, score in list(final.root_scores.items())[1:count]:
                self._say(self._describe(final, state, (move,), score))
