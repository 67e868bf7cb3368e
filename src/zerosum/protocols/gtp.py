"""The GTP protocol (the Go Text Protocol, version 2), both sides: zerosum's engine as a
GTP engine for games whose moves are board points (:class:`GtpEngine`, ``zerosum gtp``),
and any GTP engine as an agent (:class:`GtpAgent`, the agent spec ``gtp:COMMAND``;
Debian's ``gtp-rhino`` plays othello this way).

GTP (Gunnar Farnebäck's specification, version 2 draft 2) is spoken over standard input
and output: the controller sends one command a line, optionally after a numeric ``id``;
the engine answers every command with ``=[id] result`` (success) or ``?[id] message``
(failure), a result of one or more lines, always ended by one blank line. A move is a
*vertex*, a column letter and a row number (``d3``), or ``pass``; vertices and colours
(``b``, ``w``, ``black``, ``white``) are not case-sensitive. Player 0 of a game is black,
player 1 white.

**The game's adapter.** How a move is written in GTP is the game's business, as UCI's
``format_uci`` is chess's: a game may define ``format_gtp(state, move)`` and
``parse_gtp(state, text)``; without them a move is written in the game's own notation
(``format_move``) and read back through it (:func:`zerosum.notation.parse_move`, the
text in lower case, since GTP's vertices are not case-sensitive). Either way every move
sent must have a vertex's shape (letters, then digits) or be ``pass``: a game whose
moves are not board points (connect four's columns, chess) cannot be spoken in GTP and
raises :class:`~zerosum.game.MissingCapabilityError`.

Commands :class:`GtpEngine` answers:

``protocol_version``, ``name``, ``version``
    ``2``, ``zerosum``, zerosum's version.
``known_command C``, ``list_commands``
    ``true`` or ``false``; the commands below, one a line.
``boardsize N`` (or ``boardsize W H``)
    accepted when it is the game's board, and the board is cleared; any other size
    fails with ``unacceptable size`` (the game is chosen with ``zerosum gtp --game``).
``clear_board``
    the game's start position, with the clocks of ``time_settings`` set again.
``komi K``
    accepted (a number) and ignored: the games have no komi.
``play COLOUR VERTEX``
    the move is played; it fails with ``illegal move: ...`` when it is not legal, also
    when ``COLOUR`` is not to move (the games decide whose turn it is).
``genmove COLOUR``
    the engine searches, plays its move and answers it; ``COLOUR`` must be to move.
``undo``
    takes back the last move (``cannot undo`` at the start).
``showboard``
    the board as the game draws it, on the lines after ``=``.
``final_score``
    a finished game's result from black's side, ``B+N``, ``W+N`` or ``0``, ``N`` the
    game's utility (1 for a win in a game scored win/loss, the disc margin in a game
    scored by points); ``cannot score`` before the end.
``time_settings MAIN BYO STONES``, ``time_left COLOUR TIME STONES``
    the clocks, in seconds: main time, then Canadian byo-yomi of ``BYO`` seconds per
    ``STONES`` moves (``BYO`` above 0 with ``STONES`` 0: no limit). Each ``genmove``
    then plans its time from the mover's clock (:func:`zerosum.search.clock.budget`,
    the stones left in the period as the moves to go), counting down its own use until
    the next ``time_left``. Without them the engine searches under its own limits.
``quit``
    ``=`` and the end of the loop; so does the end of the input.

Decisions where the protocol leaves room:

* **Bad lines never stop the engine.** Lines are first cleaned as the specification
  says (control characters but tab dropped, ``#`` comments cut, tabs made spaces,
  blank lines ignored); an unknown command answers ``? unknown command``, a bad
  argument ``? syntax error: ...``, each naming at most a short prefix of the input
  (:func:`~zerosum.game.quoted`), and the position is unchanged.
* **One line, except where GTP allows more.** Results and messages are single lines
  (``list_commands`` and ``showboard`` excepted), and no result holds a blank line,
  which would end it early.

**The client.** :class:`GtpAgent` runs an engine as a child process
(:class:`~zerosum.protocols.engines.EngineProcess`); what it sends, and how it treats an
engine that misbehaves, is in the class's notes.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from zerosum import __version__, notation
from zerosum.agents import ClockReading, SearchAgent, refuse_finished
from zerosum.game import (
    IllegalMoveError,
    InvalidMoveError,
    MissingCapabilityError,
    ZerosumError,
    describe_state,
    quoted,
)
from zerosum.protocols.engines import (
    EngineError,
    EngineIllegalMoveError,
    EngineProcess,
    EngineProtocolError,
)
from zerosum.search.engine import EngineOptions, Limits

__all__ = [
    "COLOURS",
    "DEFAULT_WAIT",
    "NAME",
    "PROTOCOL_VERSION",
    "SETUP_NODES",
    "START_TIMEOUT",
    "GtpAgent",
    "GtpCommandError",
    "GtpEngine",
    "GtpResignedError",
]

NAME = "zerosum"
"""The engine's answer to ``name``."""

PROTOCOL_VERSION = "2"
"""The GTP version spoken, the answer to ``protocol_version``."""

COLOURS = ("b", "w")
"""How GTP writes each player's colour: player 0 is black, player 1 white."""

_COLOUR_WORDS = {"b": 0, "black": 0, "w": 1, "white": 1}

_VERTEX = re.compile(r"[a-z][0-9]{1,2}", re.ASCII)
"""The shape of a GTP vertex (in lower case): a column letter, then a row number."""

_ID = re.compile(r"[0-9]{1,9}", re.ASCII)
_TIME = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,6})?", re.ASCII)
_RESPONSE = re.compile(r"\s*([=?])[0-9]*(.*)", re.ASCII)
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # every control character but tab


# =========================================================================== the adapter


@dataclass(frozen=True, slots=True)
class _Adapter:
    """How one game's moves are written and read in GTP, resolved once per game."""

    game: Any
    format_move: Callable[[Any, Any], str]
    parse_move: Callable[[Any, str], Any]

    def read(self, state: Any, text: str) -> Any:
        """Read GTP ``text`` as a legal move in ``state``; the game's errors pass through."""
        move = self.parse_move(state, text)
        if move not in self.game.actions(state):
            raise IllegalMoveError(
                f"illegal move {quoted(text)} in {describe_state(self.game, state)}"
            )
        return move


def _adapter(game: Any) -> _Adapter:
    """The GTP adapter of ``game``: its ``format_gtp``/``parse_gtp``, else its notation.

    Raises :class:`~zerosum.game.MissingCapabilityError` when the moves of its start
    position are not written as vertices (or ``pass``), or it declares no board size."""
    if game.info.board_size is None:
        raise MissingCapabilityError(
            f"GTP plays on a board, and {game.info.name} declares no board size"
        )
    format_move: Callable[[Any, Any], str] | None = getattr(game, "format_gtp", None)
    parse_move: Callable[[Any, str], Any] | None = getattr(game, "parse_gtp", None)
    if format_move is None:
        format_move = notation.move_formatter(game)
    if parse_move is None:

        def parse_move(state: Any, text: str) -> Any:
            return notation.parse_move(game, state, text.lower())

    start = game.initial_state()
    for move in game.actions(start):
        text = format_move(start, move)
        if not _is_move_text(text.lower()):
            raise MissingCapabilityError(
                f"GTP speaks of board points (a column letter and a row number, or pass), "
                f"and {game.info.name} writes a move as {quoted(text)}"
            )
    return _Adapter(game, format_move, parse_move)


def _is_move_text(text: str) -> bool:
    return text == "pass" or _VERTEX.fullmatch(text) is not None


def _colour(text: str) -> int | None:
    """The player a GTP colour names, or ``None``."""
    return _COLOUR_WORDS.get(text.lower())


# =========================================================================== the engine


class _CommandFailedError(ZerosumError):
    """A command the engine cannot carry out; its message follows ``?``."""


class GtpEngine:
    """A GTP engine for ``game``: feed it the controller's lines, it writes its answers
    to ``output``.

    ``limits`` are the search's limits when the controller sets no clock (with one, its
    depth and node limits still hold), ``options`` the engine's options. :meth:`handle`
    takes one line and returns ``False`` after ``quit``; :meth:`run` feeds it lines
    until then or the end of the input. Raises
    :class:`~zerosum.game.MissingCapabilityError` for a game whose moves are not board
    points (see the module's notes)."""

    def __init__(
        self,
        game: Any,
        output: TextIO,
        *,
        limits: Limits,
        options: EngineOptions | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.game = game
        self.agent = SearchAgent(limits, options, name=NAME)
        self._adapter = _adapter(game)
        self._out = output
        self._clock = clock
        self._state: Any = game.initial_state()
        self._undo: list[Any] = []  # the states before each move, for undo
        # time_settings (main, byo-yomi seconds, byo-yomi stones), and each player's
        # clock: seconds left and the stones left in its byo-yomi period (0: main time)
        self._settings: tuple[float, float, int] | None = None
        self._clocks: list[list[float]] = [[0.0, 0], [0.0, 0]]
        self._commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda args: PROTOCOL_VERSION,
            "name": lambda args: NAME,
            "version": lambda args: __version__,
            "known_command": self._known_command,
            "list_commands": lambda args: "\n".join(self._commands),
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "komi": self._komi,
            "play": self._play,
            "genmove": self._genmove,
            "undo": self._undo_move,
            "showboard": self._showboard,
            "final_score": self._final_score,
            "time_settings": self._time_settings,
            "time_left": self._time_left,
            "quit": lambda args: "",
        }

    def __repr__(self) -> str:
        return f"GtpEngine({self.game.info.name!r}, {len(self._undo)} moves)"

    @property
    def state(self) -> Any:
        """The position on the engine's board."""
        return self._state

    # ------------------------------------------------------------------ the loop

    def run(self, lines: Iterable[str]) -> None:
        """Handle ``lines`` until ``quit`` or their end."""
        for line in lines:
            if not self.handle(line):
                return

    def handle(self, line: str) -> bool:
        """Handle one line from the controller; return ``False`` when it was ``quit``."""
        text = _CONTROL.sub("", line).split("#", 1)[0].replace("\t", " ").strip()
        if not text:
            return True
        words = text.split()
        ident = ""
        if _ID.fullmatch(words[0]):
            ident, words = words[0], words[1:]
        if not words:
            self._answer(False, ident, "syntax error: an id and no command")
            return True
        command = self._commands.get(words[0])
        if command is None:
            self._answer(False, ident, f"unknown command {quoted(words[0])}")
            return True
        try:
            result = command(words[1:])
        except (_CommandFailedError, ZerosumError) as error:
            self._answer(False, ident, str(error))
            return True
        self._answer(True, ident, result)
        return words[0] != "quit"

    def _answer(self, success: bool, ident: str, text: str) -> None:
        # a blank line ends a response: the result keeps none after its first line
        # (which may be empty, for a board drawn below the =), and a failure is one line
        first, *rest = text.split("\n")
        if success:
            body = "\n".join([first.strip(), *(line.rstrip() for line in rest if line.strip())])
        else:
            body = " ".join(line.strip() for line in text.split("\n") if line.strip())
        head = ("=" if success else "?") + ident
        self._out.write(f"{head} {body}\n\n" if body else f"{head}\n\n")
        self._out.flush()

    # ------------------------------------------------------------------ commands

    def _known_command(self, args: list[str]) -> str:
        _arguments(args, 1, "known_command COMMAND")
        return "true" if args[0] in self._commands else "false"

    def _boardsize(self, args: list[str]) -> str:
        _arguments(args, (1, 2), "boardsize SIZE (or WIDTH HEIGHT)")
        sizes = [_whole(arg, "boardsize") for arg in args]
        width, height = sizes if len(sizes) == 2 else sizes * 2
        if (width, height) != tuple(self.game.info.board_size):
            raise _CommandFailedError(
                "unacceptable size: {} plays on {}x{}".format(
                    self.game.info.name, *self.game.info.board_size
                )
            )
        return self._clear_board([])

    def _clear_board(self, args: list[str]) -> str:
        self._state = self.game.initial_state()
        self._undo = []
        self.agent.reset()
        self._reset_clocks()
        return ""

    def _komi(self, args: list[str]) -> str:
        _arguments(args, 1, "komi NUMBER")
        try:
            float(args[0])
        except ValueError:
            raise _CommandFailedError(
                f"syntax error: komi {quoted(args[0])} is not a number"
            ) from None
        return ""

    def _mover(self, text: str, command: str) -> int:
        """The player the colour ``text`` names, who must be to move."""
        player = _colour(text)
        if player is None:
            raise _CommandFailedError(
                f"syntax error: {quoted(text)} is no colour (b, w, black, white)"
            )
        game, state = self.game, self._state
        if game.is_terminal(state):
            raise _CommandFailedError(
                f"{command}: the game is over in {describe_state(game, state)}"
            )
        if player != game.to_move(state):
            raise _CommandFailedError(
                f"{command}: {_COLOUR_NAMES[player]} is not to move in "
                f"{describe_state(game, state)}"
            )
        return player

    def _play(self, args: list[str]) -> str:
        _arguments(args, 2, "play COLOUR VERTEX")
        self._mover(args[0], "illegal move")
        try:
            move = self._adapter.read(self._state, args[1])
        except InvalidMoveError as error:
            raise _CommandFailedError(f"syntax error: {error}") from None
        except IllegalMoveError as error:
            raise _CommandFailedError(f"illegal move: {error}") from None
        self._push(move)
        return ""

    def _genmove(self, args: list[str]) -> str:
        _arguments(args, 1, "genmove COLOUR")
        player = self._mover(args[0], "genmove")
        reading = self._reading(player)
        if reading is not None:
            self.agent.set_clock(reading)
        started = self._clock()
        move = self.agent.choose(self.game, self._state)
        self._spend(player, self._clock() - started)
        text = self._adapter.format_move(self._state, move)
        self._push(move)
        return text

    def _push(self, move: Any) -> None:
        self._undo.append(self._state)
        self._state = self.game.result(self._state, move)

    def _undo_move(self, args: list[str]) -> str:
        _arguments(args, 0, "undo")
        if not self._undo:
            raise _CommandFailedError("cannot undo: no move has been played")
        self._state = self._undo.pop()
        return ""

    def _showboard(self, args: list[str]) -> str:
        _arguments(args, 0, "showboard")
        return "\n" + notation.render(self.game, self._state)

    def _final_score(self, args: list[str]) -> str:
        _arguments(args, 0, "final_score")
        game, state = self.game, self._state
        if not game.is_terminal(state):
            raise _CommandFailedError(
                f"cannot score: the game is not over in {describe_state(game, state)}"
            )
        value = game.utility(state, 0)
        return "0" if value == 0 else f"B+{value}" if value > 0 else f"W+{-value}"

    # ------------------------------------------------------------------ time

    def _time_settings(self, args: list[str]) -> str:
        _arguments(args, 3, "time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES")
        main, byo = (_seconds(arg, "time_settings") for arg in args[:2])
        stones = _whole(args[2], "time_settings")
        self._settings = None if main == 0 and byo > 0 and stones == 0 else (main, byo, stones)
        self._reset_clocks()
        return ""

    def _time_left(self, args: list[str]) -> str:
        _arguments(args, 3, "time_left COLOUR TIME STONES")
        player = _colour(args[0])
        if player is None:
            raise _CommandFailedError(
                f"syntax error: {quoted(args[0])} is no colour (b, w, black, white)"
            )
        self._clocks[player] = [_seconds(args[1], "time_left"), _whole(args[2], "time_left")]
        if self._settings is None:
            self._settings = (0.0, 0.0, 0)  # a clock told without settings still counts
        return ""

    def _reset_clocks(self) -> None:
        settings = self._settings
        if settings is None:
            return
        main, byo, stones = settings
        start = [main, 0] if main > 0 or stones == 0 else [byo, stones]
        self._clocks = [list(start), list(start)]

    def _reading(self, player: int) -> ClockReading | None:
        """The mover's clock, as the search plans from it, or ``None`` without one."""
        if self._settings is None:
            return None
        own, stones = self._clocks[player]
        return ClockReading(
            own=own,
            opponent=self._clocks[1 - player][0],
            moves_to_go=int(stones) if stones > 0 else None,
        )

    def _spend(self, player: int, seconds: float) -> None:
        """Take a move's time off the mover's clock; a byo-yomi period starts again
        after its stones, and when the main time runs out."""
        if self._settings is None:
            return
        _, byo, period = self._settings
        clock = self._clocks[player]
        clock[0] -= seconds
        if clock[1] > 0:
            clock[1] -= 1
            if clock[1] == 0:
                clock[:] = [byo, period]
        elif clock[0] <= 0 and period > 0:
            clock[:] = [byo, period]


_COLOUR_NAMES = ("black", "white")


def _arguments(args: list[str], count: int | tuple[int, ...], usage: str) -> None:
    """Refuse ``args`` unless there are ``count`` of them (one of ``count``)."""
    counts = (count,) if isinstance(count, int) else count
    if len(args) not in counts:
        raise _CommandFailedError(f"syntax error: expected {usage}")


def _whole(text: str, command: str) -> int:
    if not _ID.fullmatch(text):
        raise _CommandFailedError(f"syntax error: {command}: {quoted(text)} is not a whole number")
    return int(text)


def _seconds(text: str, command: str) -> float:
    if not _TIME.fullmatch(text):
        raise _CommandFailedError(
            f"syntax error: {command}: {quoted(text)} is not a number of seconds"
        )
    return float(text)


# =========================================================================== the client

START_TIMEOUT = 30.0
"""Seconds a newly started engine has to answer its first command (``protocol_version``):
its program loading, which a loaded machine can make slow."""

DEFAULT_WAIT = 10.0
"""Seconds past its time per move (and for every other answer) that :class:`GtpAgent`
waits before it gives the engine up as hung."""

SETUP_NODES = 100_000
"""The most positions :class:`GtpAgent` visits looking for the moves that lead to a
position it has not seen played (an opening), which it must replay to the engine."""


class GtpCommandError(EngineError):
    """The agent's spec needs a command the engine does not list (``level``); the
    message names the commands it does list."""


class GtpResignedError(EngineError):
    """The engine resigned (``genmove`` answered ``resign``): it loses the game, which
    the arena records with the reason ``resign``."""

    reason = "resign"


class GtpAgent:
    """A GTP engine as an agent: an external program (``gtp-rhino``, or ``zerosum gtp``)
    plays a board game for us, spoken to as a GTP controller speaks to it.

    ``command`` is the program and its arguments (a string is split as a POSIX shell
    would); ``cwd`` its working directory; ``time`` the seconds per move it is told
    (``None``: it plays at its own pace); ``level`` a value for the ``level`` command,
    which engines such as GNU Go offer (others set their strength on their command
    line: ``gtp-rhino -l 1``); ``wait`` the seconds past the move's time (the clock's
    time left, else ``time``, else none) the agent waits for a move, and for any other
    answer, before it gives the engine up.

    The engine starts when the agent is made and is asked ``protocol_version``, ``name``
    and ``version`` (kept in :attr:`engine_name`, :attr:`engine_version`) and
    ``list_commands`` (:attr:`commands`), then sent ``level``; should that fail, the
    first move starts it again and raises what went wrong. One process then plays every
    game, until :meth:`close` sends ``quit`` and reaps it:

    * a position that does not continue the agent's game (the first, a new one after
      :meth:`reset`, an opening) starts a new game: ``boardsize N`` (``boardsize W H``,
      an extension some engines read, for a board that is not square), ``clear_board``,
      the time (below), and a ``play`` for each move since the start. GTP cannot set a
      position up, so the agent looks for those moves itself, visiting at most
      :data:`SETUP_NODES` positions: short openings of othello or tic-tac-toe, but not
      of gomoku's wide board;
    * then ``play COLOUR VERTEX`` for the opponent's move and ``genmove COLOUR`` for the
      agent's own. A refused ``play COLOUR pass`` is let go: some engines (``gtp-rhino``)
      pass by themselves for a side without moves, and refuse to be told; an engine
      whose board is then wrong shows it at its next answer;
    * the time: on a clock (:meth:`set_clock`), ``time_settings MAIN 0 0`` at a game's
      start (Canadian ``time_settings 0 BASE MOVES`` for moves-in-time controls) and
      ``time_left COLOUR SECONDS STONES`` before each ``genmove``; with ``time``,
      ``time_settings 0 S 1`` (S seconds a move). GTP counts whole seconds: times are
      rounded down, a time per move up to 1 second. Engines that do not list
      ``time_settings``/``time_left`` are not sent them.

    Responses may carry an id or not and run over several lines. A line that is no
    response (``=`` or ``?``), a ``?`` to any command but ``name``, ``version`` and a
    pass (such as the engine refusing the opponent's legal move), or a ``genmove`` answer that
    is neither a vertex nor ``pass`` raise
    :class:`~zerosum.protocols.engines.EngineProtocolError`; an illegal move
    :class:`~zerosum.protocols.engines.EngineIllegalMoveError`; ``resign``
    :class:`GtpResignedError`; no answer in time
    :class:`~zerosum.protocols.engines.EngineTimeoutError`; an engine that exits
    :class:`~zerosum.protocols.engines.EngineDiedError`; a ``level`` it lacks
    :class:`GtpCommandError`; each names the engine's last lines. After any of them but
    a resignation the process is killed and the next move starts a new one."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        time: float | None = None,
        level: str | None = None,
        wait: float = DEFAULT_WAIT,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        name: str = "gtp",
    ) -> None:
        self.name = name
        self.time = time
        self.level = level
        self.wait = wait
        self.engine_name: str | None = None
        self.engine_version: str | None = None
        self.commands: frozenset[str] = frozenset()
        """The commands the engine lists (``list_commands``)."""
        self.engine = EngineProcess(
            command, cwd=cwd, env=env, label=f"GTP engine {quoted(name)}", quit_line="quit"
        )
        self._adapted: _Adapter | None = None
        self._clock: ClockReading | None = None
        self._after: Any = None  # the position on the engine's board (None: no game yet)
        try:
            self._launch()
        except EngineError:
            self.engine.kill()  # the first move tries again, and reports the failure

    def __repr__(self) -> str:
        return f"GtpAgent({self.engine.command!r}, name={self.name!r})"

    def close(self) -> None:
        """Send ``quit`` and reap the engine (terminated, then killed, if it lingers)."""
        self.engine.close()
        self._after = None

    def reset(self) -> None:
        """A new game starts: the next move begins with ``clear_board``."""
        self._after = None

    def set_clock(self, reading: ClockReading) -> None:
        """Take the clocks for the next move: it sends them (``time_settings`` at a
        game's start, ``time_left``) instead of the time per move."""
        self._clock = reading

    def choose(self, game: Any, state: Any) -> Any:
        """Ask the engine for its move in ``state`` of ``game``."""
        refuse_finished(game, state)
        adapter = self._adapted
        if adapter is None or adapter.game is not game:
            adapter = self._adapted = _adapter(game)
        clock, self._clock = self._clock, None  # a reading is for one move only
        try:
            return self._choose(game, adapter, state, clock)
        except GtpResignedError:
            self._after = None  # the engine is sound; its game is over
            raise
        except EngineError:
            # the engine's board is now unknown (or it hangs): a new process next time
            self.engine.kill()
            self._after = None
            raise

    # ------------------------------------------------------------------ talking

    def _launch(self) -> None:
        """Start the engine: its version, name and commands, then the spec's level."""
        self.engine.start()
        self._after = None
        self._ask("protocol_version", START_TIMEOUT)
        named, name = self._exchange("name", self.wait)
        versioned, version = self._exchange("version", self.wait)
        self.engine_name = name if named else None
        self.engine_version = version if versioned else None
        listed = self._ask("list_commands", self.wait)
        self.commands = frozenset(line.strip() for line in listed.splitlines() if line.strip())
        if self.level is not None:
            if "level" not in self.commands:
                raise self.engine.error(
                    GtpCommandError,
                    f"lists no command 'level' (its commands: {', '.join(sorted(self.commands))})",
                )
            self._ask(f"level {self.level}", self.wait)

    def _ask(self, command: str, timeout: float) -> str:
        """Send ``command`` and return its result; a failure (``?``) raises
        :class:`~zerosum.protocols.engines.EngineProtocolError`."""
        success, text = self._exchange(command, timeout)
        if not success:
            raise self.engine.error(
                EngineProtocolError, f"refused {command}: {quoted('? ' + text)}"
            )
        return text

    def _exchange(self, command: str, timeout: float) -> tuple[bool, str]:
        """Send ``command`` and return whether it succeeded and the response's text,
        read to the blank line that ends it within ``timeout`` seconds."""
        self.engine.send(command)
        deadline = time.monotonic() + timeout
        waiting_for = f"answer to {command}"
        line = ""
        while not line.strip():  # blank lines between responses are no response
            line = self.engine.read_line(deadline, waiting_for)
        found = _RESPONSE.fullmatch(line)
        if found is None:
            raise self.engine.error(
                EngineProtocolError,
                f"answered {quoted(line)} to {command}, not a GTP response (= or ?)",
            )
        lines = [found[2].strip()]
        while (more := self.engine.read_line(deadline, waiting_for)).strip():
            lines.append(more.strip())
        return found[1] == "=", "\n".join(lines).strip()

    def _supports(self, command: str) -> bool:
        """Whether the engine lists ``command`` (any, when it lists none)."""
        return not self.commands or command in self.commands

    # ------------------------------------------------------------------ the game

    def _choose(self, game: Any, adapter: _Adapter, state: Any, clock: ClockReading | None) -> Any:
        if not self.engine.running:
            self._launch()
        self._follow(game, adapter, state, clock)
        colour = COLOURS[game.to_move(state)]
        if clock is not None and self._supports("time_left"):
            stones = clock.moves_to_go or 0
            self._ask(f"time_left {colour} {_whole_seconds(clock.own)} {stones}", self.wait)
        command = f"genmove {colour}"
        if clock is not None:
            timeout = max(clock.own, 0.0) + self.wait
        else:
            timeout = (self.time or 0.0) + self.wait
        answer = self._ask(command, timeout)
        move = self._read_move(adapter, state, answer, command)
        self._after = game.result(state, move)
        return move

    def _follow(self, game: Any, adapter: _Adapter, state: Any, clock: ClockReading | None) -> None:
        """Bring the engine's board to ``state``: one more move (the opponent's), none
        (the agent plays both sides), or a new game."""
        after = self._after
        if after is not None and after == state:
            return
        if after is not None:
            for move in game.actions(after):
                if game.result(after, move) == state:
                    self._play(game, adapter, after, move)
                    self._after = state
                    return
        line = _line_to(game, state)
        width, height = game.info.board_size
        size = f"{width}" if width == height else f"{width} {height}"
        self._ask(f"boardsize {size}", self.wait)
        self._ask("clear_board", self.wait)
        self._send_time(clock)
        position = game.initial_state()
        for move in line:
            self._play(game, adapter, position, move)
            position = game.result(position, move)
        self._after = state

    def _send_time(self, clock: ClockReading | None) -> None:
        """Tell the engine the game's time: the clock it starts with, or the time per move."""
        if not self._supports("time_settings"):
            return
        if clock is not None:
            own = _whole_seconds(clock.own)
            settings = f"{own} 0 0" if clock.moves_to_go is None else f"0 {own} {clock.moves_to_go}"
        elif self.time is not None:
            settings = f"0 {max(1, _whole_seconds(self.time))} 1"
        else:
            return
        self._ask(f"time_settings {settings}", self.wait)

    def _play(self, game: Any, adapter: _Adapter, state: Any, move: Any) -> None:
        vertex = adapter.format_move(state, move)
        command = f"play {COLOURS[game.to_move(state)]} {vertex}"
        if vertex.lower() != "pass":
            self._ask(command, self.wait)
        else:
            # gtp-rhino refuses the pass it has already made for a side without moves;
            # an engine that did not is found out by its next answer
            self._exchange(command, self.wait)

    def _read_move(self, adapter: _Adapter, state: Any, answer: str, command: str) -> Any:
        text = answer.strip()
        word = text.lower()
        if word == "resign":
            raise self.engine.error(GtpResignedError, f"resigned ({command})")
        if not _is_move_text(word):
            raise self.engine.error(
                EngineProtocolError,
                f"answered {quoted(text)} to {command}, not a vertex or pass",
            )
        try:
            return adapter.read(state, word)
        except ZerosumError as error:
            raise self.engine.error(
                EngineIllegalMoveError, f"played {text} after {command}: {error}"
            ) from None


def _whole_seconds(seconds: float) -> int:
    """Seconds as GTP writes them: whole, rounded down, never negative."""
    return max(int(seconds), 0)


def _line_to(game: Any, state: Any) -> list[Any]:
    """The moves from the start of ``game`` to ``state``, the fewest there are.

    Raises :class:`~zerosum.game.MissingCapabilityError` when none is found within
    :data:`SETUP_NODES` positions."""
    search = _LineSearch(game, state)
    depth = 0
    # iterative deepening: the first depth that reaches the state gives the shortest line
    while not search.reaches(game.initial_state(), depth):
        search.seen.clear()
        depth += 1
    return search.line


class _LineSearch:
    """A depth-first search for the moves that lead to ``target``, counting the
    positions it visits against :data:`SETUP_NODES`."""

    def __init__(self, game: Any, target: Any) -> None:
        self.game = game
        self.target = target
        self.line: list[Any] = []
        self.seen: dict[Any, int] = {}  # position -> the most moves it was searched with
        self.visited = 0

    def reaches(self, position: Any, left: int) -> bool:
        """Whether the target is at most ``left`` moves from ``position``; if so, the
        moves are in :attr:`line`."""
        game, target = self.game, self.target
        self.visited += 1
        if self.visited > SETUP_NODES:
            raise MissingCapabilityError(
                f"no line of moves to {describe_state(game, target)} found within "
                f"{SETUP_NODES} positions: a GTP engine is told a position as the moves "
                f"from the start, which the agent must find"
            )
        if position == target:
            return True
        if left == 0 or game.is_terminal(position) or self.seen.get(position, -1) >= left:
            return False
        self.seen[position] = left
        for move in game.actions(position):
            self.line.append(move)
            if self.reaches(game.result(position, move), left - 1):
                return True
            self.line.pop()
        return False
