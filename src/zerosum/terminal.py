"""Playing a game in the terminal: people, the engine or any agent on either side.

A :class:`Session` holds the game and who sits on each side: ``None`` for a person at
the keyboard, an :class:`~zerosum.agents.Agent` otherwise (so person against engine,
two people, or two engines watched move by move). People type moves in the game's own
notation, read through the checked layer (:func:`zerosum.notation.play`; a game
without a notation of its own shows and reads moves as ``str`` writes them): a bad move
is answered with the reason and asked again, and nothing is lost. Engine scores are
shown in the one explained form of :func:`zerosum.game.describe_score`. Besides moves a person
may type ``help``, ``moves``, ``board``, ``hint``, ``undo`` and ``quit``. End of input
or Ctrl-C ends the session quietly.

Input and output are the injectable ``read`` (``input``-like) and ``write``
(``print``-like) callables, so that tests and other front ends can drive a session.
With ``color`` the board is drawn through rich: each side's marks in its own colour and
empty cells dimmed; without it every line is plain text.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from typing import Any

from zerosum import notation
from zerosum.agents import Agent
from zerosum.game import Outcome, ZerosumError, describe_depth, describe_score, outcome

__all__ = ["HELP", "Painter", "Session", "run_session"]

HELP = """\
Type a move in the game's notation (e.g. {example}), or:
  moves  list the legal moves
  board  show the board again
  hint   ask the engine for a move
  undo   take back your last move (and the replies to it)
  help   show this help
  quit   leave the game"""
"""The text the session's ``help`` command prints; ``{example}`` is a few legal moves."""

_QUIT = frozenset({"quit", "exit", "q"})
_PLAYER_STYLES = ("bold cyan", "bold yellow")
_EMPTY = re.compile(r"(?<!\S)[·.](?!\S)")


class Painter:
    """Turns boards and messages into the text a terminal shows: plain, or coloured.

    A side's mark is its player name where the game writes it as a word or a single
    character (``X`` and ``O``); lone ``.`` and ``·`` are empty cells."""

    def __init__(self, game: Any, color: bool) -> None:
        self.color = color
        names = game.info.players
        self._marks = [re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])") for name in names]
        self._console: Any = None
        if color:
            from rich.console import Console  # noqa: PLC0415 - only coloured output needs rich

            self._console = Console(
                file=io.StringIO(),
                force_terminal=True,
                color_system="standard",
                width=200,
                highlight=False,
            )

    def _paint(self, text: Any) -> str:
        console = self._console
        with console.capture() as captured:
            console.print(text, end="")
        return str(captured.get())

    def board(self, game: Any, state: Any) -> str:
        """Draw ``state`` (:func:`zerosum.notation.render`), coloured when colour is on."""
        drawing = notation.render(game, state)
        if not self.color:
            return str(drawing)
        from rich.text import Text  # noqa: PLC0415 - only coloured output needs rich

        text = Text(drawing)
        for pattern, style in zip(self._marks, _PLAYER_STYLES, strict=True):
            text.highlight_regex(pattern, style)
        text.highlight_regex(_EMPTY, "dim")
        return self._paint(text)

    def note(self, message: str, style: str = "bold") -> str:
        """Return ``message`` in ``style`` when colour is on, else as it is."""
        if not self.color:
            return message
        from rich.text import Text  # noqa: PLC0415 - only coloured output needs rich

        return self._paint(Text(message, style=style))


class Session:
    """A game in progress in the terminal: its states so far and who sits where.

    ``seats[p]`` is ``None`` when a person plays player ``p``, else the agent that
    does. ``hint`` answers the ``hint`` command. The session starts at ``start`` (the
    game's start by default); ``undo`` never goes back past it. A game may say things
    its own way in a subclass that overrides :meth:`mover`, :meth:`prompt`,
    :meth:`moved` and :meth:`closing` (bridge's card table:
    :class:`zerosum.cli.bridge_play.BridgeSession`)."""

    def __init__(
        self,
        game: Any,
        seats: Sequence[Agent | None],
        *,
        start: Any = None,
        hint: Agent | None = None,
        read: Callable[[str], str] = input,
        write: Callable[[str], object] = print,
        color: bool = False,
    ) -> None:
        if len(seats) != 2:
            raise ValueError(f"a session has two seats, not {len(seats)}")
        self.game = game
        self.seats = (seats[0], seats[1])
        self.hint_agent = hint
        self.read = read
        self.write = write
        self.painter = Painter(game, color)
        self.history: list[Any] = [game.initial_state() if start is None else start]

    @property
    def state(self) -> Any:
        """The current state."""
        return self.history[-1]

    def legal_moves(self) -> list[str]:
        """The legal moves of the current state, written in the game's notation."""
        state, label = self.state, notation.move_formatter(self.game)
        return [label(state, a) for a in self.game.actions(state)]

    def who(self, player: int) -> str:
        """Name the side ``player`` and who plays it: ``X (you)``, ``O (engine (1 s))``."""
        seat = self.seats[player]
        if seat is not None:
            return f"{self.game.info.players[player]} ({seat.name})"
        person = "you" if sum(s is None for s in self.seats) == 1 else "person"
        return f"{self.game.info.players[player]} ({person})"

    def undo(self) -> bool:
        """Take back the last move a person made and every move after it.

        Returns ``False`` (and changes nothing) when no person has moved since the start."""
        game = self.game
        for index in range(len(self.history) - 2, -1, -1):
            if self.seats[game.to_move(self.history[index])] is None:
                del self.history[index + 1 :]
                return True
        return False

    def _agent_move(self, agent: Agent, state: Any, verb: str) -> tuple[Any, str]:
        """Ask ``agent`` for a move; return it and a line saying what it found: the
        score in the one explained form, how deep the search went, its cost."""
        move = agent.choose(self.game, state)
        text = notation.format_move(self.game, state, move)
        last = getattr(agent, "last", None)
        if last is None:
            return move, f"{verb} {text}"
        stats = last.stats
        facts = [describe_score(self.game.info, last.score, exact=stats.solved)]
        if stats.depth > 0:  # no depth completed: the score already says so
            facts.append(f"searched {describe_depth(stats.depth)}")
        facts.append(f"{stats.nodes} nodes, {stats.time:.2f} s")
        return move, f"{verb} {text} ({', '.join(facts)})"

    def _show(self) -> None:
        self.write(self.painter.board(self.game, self.state))

    def mover(self, state: Any) -> str:
        """Name who moves in ``state`` in the line that shows an agent's move: the side
        and who plays it (:meth:`who`); a game's session may name the hand instead."""
        return self.who(self.game.to_move(state))

    def prompt(self, state: Any) -> str:
        """The question a person answers with a move in ``state``: ``X to move> ``."""
        return f"{self.game.info.players[self.game.to_move(state)]} to move> "

    def moved(self, before: Any, after: Any) -> None:
        """Say what a move did besides itself, once made (``before`` became ``after``):
        nothing here; a game's session may say more (bridge's tricks as they end)."""

    def closing(self, result: Outcome) -> None:
        """Say how the game ended: the winner or a draw, with the result."""
        if result.winner is None:
            self.write(self.painter.note(f"Draw ({result.result()})."))
        else:
            self.write(self.painter.note(f"{self.who(result.winner)} wins ({result.result()})."))

    def _command(self, command: str) -> bool:
        """Carry out one line a person typed; ``False`` when the person leaves."""
        game, state = self.game, self.state
        word = command.lower()
        if word in _QUIT:
            return False
        if word in ("help", "?", "h"):
            example = ", ".join(self.legal_moves()[:3])
            self.write(HELP.format(example=example))
        elif word == "moves":
            self.write(" ".join(self.legal_moves()))
        elif word == "board":
            self._show()
        elif word == "hint":
            if self.hint_agent is None:
                self.write("no engine to ask for a hint")
            else:
                _, line = self._agent_move(self.hint_agent, state, "hint:")
                self.write(self.painter.note(line, "green"))
        elif word == "undo":
            if self.undo():
                self.write("taken back")
            else:
                self.write("nothing to take back")
        else:
            try:
                self.history.append(notation.play(game, state, command))
            except ZerosumError as error:
                self.write(self.painter.note(f"{error}; try again ('help' for help)", "red"))
            else:
                self.moved(state, self.state)
        return True

    def run(self) -> Outcome | None:
        """Play until the game ends; return its outcome, or ``None`` if the person left.

        ``EOFError`` and ``KeyboardInterrupt`` end the session quietly (``None``)."""
        game = self.game
        sides = ", ".join(self.who(p) for p in (0, 1))
        self.write(self.painter.note(f"{game.info.title}: {sides}. Type 'help' for commands."))
        shown = -1  # the length of the history when the board was last drawn
        try:
            while not game.is_terminal(self.state):
                state = self.state
                player = game.to_move(state)
                seat = self.seats[player]
                if seat is not None:
                    move, line = self._agent_move(seat, state, f"{self.mover(state)} plays")
                    self.write(line)
                    self.history.append(game.result(state, move))
                    self.moved(state, self.state)
                    continue
                if len(self.history) != shown:
                    self._show()
                    shown = len(self.history)
                command = self.read(self.prompt(state)).strip()
                if command and not self._command(command):
                    return None
        except (EOFError, KeyboardInterrupt):
            self.write("")
            return None
        final = self.state
        self._show()
        result = outcome(game, final)
        assert result is not None
        self.closing(result)
        return result


def run_session(
    game: Any,
    seats: Sequence[Agent | None],
    *,
    start: Any = None,
    hint: Agent | None = None,
    read: Callable[[str], str] = input,
    write: Callable[[str], object] = print,
    color: bool = False,
) -> Outcome | None:
    """Play ``game`` in a :class:`Session` and return the outcome (``None`` if left)."""
    session = Session(game, seats, start=start, hint=hint, read=read, write=write, color=color)
    return session.run()
