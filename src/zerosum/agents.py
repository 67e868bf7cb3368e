"""Players: anything that picks a move in a position.

An :class:`Agent` has a ``name`` and ``choose(game, state) -> action``; ``reset()``
(forget what was learnt, before a new game) and ``close()`` (release resources) are
optional and called with :func:`reset_agent` / :func:`close_agent` when present. A game
played on a clock tells each agent its clock before each of its moves, through the
optional ``set_clock(reading)`` (:func:`tell_clock`, a :class:`ClockReading`): an agent
that keeps time (the engine, an external engine that is sent ``wtime``/``btime``) plans
its move from it, the others ignore it.

* :class:`SearchAgent` plays with the engine under fixed :class:`~zerosum.search.engine.Limits`,
  or, told a clock, within the budget :func:`zerosum.search.clock.budget` gives it.
  It keeps one :class:`~zerosum.search.engine.Engine` per game (the game's compiled
  engine when it offers one and kernels are on), so its table carries over from move
  to move. While the game's opening book (:func:`zerosum.book.find_book`,
  looked for once per game) scores every move, it plays the book's best move instead.
* :class:`RandomAgent` picks uniformly among the legal moves, from its own seeded
  generator: the same seed plays the same game.
* :class:`HumanAgent` reads a move as text through the checked layer
  (:func:`zerosum.notation.parse_move`: the game's notation, else moves as ``str``
  writes them) and asks again, with the error's message, until the text is a legal
  move. ``EOFError`` and ``KeyboardInterrupt`` from the input pass through to the caller.

Every agent refuses a finished game with :class:`~zerosum.game.IllegalMoveError`
(:func:`refuse_finished`).

External engines are agents too, each a protocol client over
:class:`~zerosum.protocols.engines.EngineProcess`: a Gomocup brain plays gomoku as a
:class:`~zerosum.protocols.gomocup.GomocupAgent`, a UCI engine chess as a
:class:`~zerosum.protocols.uci.UciAgent`, a GTP engine (``gtp-rhino``) othello as a
:class:`~zerosum.protocols.gtp.GtpAgent`. They live beside their protocols, and
:func:`zerosum.specs.make_agent` makes them from specs such as ``gomocup:pbrain-x`` or
``uci:stockfish,Skill Level=3``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from zerosum import notation
from zerosum.book import Book, find_book
from zerosum.game import IllegalMoveError, InvalidMoveError, describe_state
from zerosum.search.clock import budget
from zerosum.search.engine import Engine, EngineOptions, EngineResult, EngineStats, Limits

__all__ = [
    "Agent",
    "ClockReading",
    "HumanAgent",
    "RandomAgent",
    "SearchAgent",
    "close_agent",
    "engine_for",
    "refuse_finished",
    "reset_agent",
    "tell_clock",
]


@runtime_checkable
class Agent(Protocol):
    """A player: a name and a way to choose a move."""

    name: str

    def choose(self, game: Any, state: Any) -> Any:
        """Return a legal move of ``game`` in ``state`` (which is not terminal)."""
        ...


@dataclass(frozen=True, slots=True)
class ClockReading:
    """The clocks when an agent is to move: seconds left for the mover (``own``) and for
    the opponent, each side's increment per move, and the moves to play before the next
    time control (``None`` in sudden death)."""

    own: float
    opponent: float
    increment: float = 0.0
    opponent_increment: float = 0.0
    moves_to_go: int | None = None


def tell_clock(agent: Agent, reading: ClockReading) -> None:
    """Call the agent's ``set_clock(reading)`` if it has one: it is to move on a clock."""
    set_clock = getattr(agent, "set_clock", None)
    if set_clock is not None:
        set_clock(reading)


def reset_agent(agent: Agent) -> None:
    """Call the agent's ``reset()`` if it has one: a new game starts."""
    reset = getattr(agent, "reset", None)
    if reset is not None:
        reset()


def close_agent(agent: Agent) -> None:
    """Call the agent's ``close()`` if it has one: it will not be asked again."""
    close = getattr(agent, "close", None)
    if close is not None:
        close()


def refuse_finished(game: Any, state: Any) -> None:
    """Raise :class:`~zerosum.game.IllegalMoveError` when ``state`` is a finished game:
    no agent is asked to move in one."""
    if game.is_terminal(state):
        raise IllegalMoveError(
            f"no move to choose: the game is over in {describe_state(game, state)}"
        )


_LEAST_THINKING = 0.001
"""Seconds a search on a clock gets when the budget is nothing (the clock is spent):
enough for the quickest move the engine has, as a time limit must be positive."""


class SearchAgent:
    """Plays the engine's best move under ``limits`` (and ``options``).

    Told a clock (:meth:`set_clock`), its next move thinks within the clock's budget
    instead of the time limit. ``last`` holds the
    :class:`~zerosum.search.engine.EngineResult` of the latest move, for interfaces that
    show the score and the principal variation.

    With ``book`` (the default) it first looks for the game's opening book, once per game
    (:func:`zerosum.book.find_book`), and while the book scores every move of the
    position it plays the best of them (the first in the game's move order among equals)
    with no search: ``last`` then holds the exact score, every move's score as
    ``root_scores`` and no nodes. Past those positions it plays the move the book's
    lines choose (:meth:`zerosum.book.Book.chosen_move`) while there is one."""

    def __init__(
        self,
        limits: Limits,
        options: EngineOptions | None = None,
        name: str | None = None,
        *,
        book: bool = True,
    ) -> None:
        self.limits = limits
        self.options = options
        self.name = name if name is not None else _describe_limits(limits)
        self.book = book
        self.last: EngineResult | None = None
        self._clock: ClockReading | None = None
        # keyed by id, with the game kept alive beside its engine so the id stays its own
        self._engines: dict[int, tuple[Any, Engine]] = {}
        self._books: dict[int, tuple[Any, Book | None]] = {}

    def __repr__(self) -> str:
        return f"SearchAgent({self.limits!r}, {self.options!r}, name={self.name!r})"

    def engine(self, game: Any) -> Engine:
        """Return this agent's engine for ``game``, made on first use."""
        held = self._engines.get(id(game))
        if held is None:
            held = self._engines[id(game)] = (game, engine_for(game, self.options))
        return held[1]

    def set_clock(self, reading: ClockReading) -> None:
        """Plan the next move from the clocks in ``reading`` (:func:`tell_clock`)."""
        self._clock = reading

    def choose(self, game: Any, state: Any) -> Any:
        """Search ``state`` and return the best move: under the agent's limits, or, when
        a clock was set for this move, within the clock's budget (the depth and node
        limits still apply)."""
        refuse_finished(game, state)
        engine = self.engine(game)
        reading, self._clock = self._clock, None  # a reading holds for one move only
        played = self._from_book(game, state)
        if played is not None:
            self.last = played
        elif reading is None:
            self.last = engine.search(state, self.limits)
        else:
            self.last = self._on_clock(engine, state, reading)
        return self.last.best_move

    def _from_book(self, game: Any, state: Any) -> EngineResult | None:
        """The book's best move at ``state``, or ``None`` when the agent plays without a
        book, the game has none, or the book neither scores every move there nor has a
        line through it."""
        if not self.book:
            return None
        held = self._books.get(id(game))
        if held is None:
            held = self._books[id(game)] = (game, find_book(game))
        book = held[1]
        if book is None:
            return None
        start = time.perf_counter()
        scores = book.move_scores(state)
        if scores is not None:
            move, score = next(iter(scores.items()))
        elif (chosen := book.chosen_move(state)) is not None:
            move, score = chosen
        else:
            return None
        stats = EngineStats(
            nodes=0,
            cutoffs=0,
            table_hits=0,
            table_probes=0,
            depth=0,
            seldepth=0,
            time=time.perf_counter() - start,
            hashfull=0,
            solved=True,
            stopped=False,
        )
        return EngineResult(move, score, (move,), scores, stats)

    def _on_clock(self, engine: Engine, state: Any, reading: ClockReading) -> EngineResult:
        """Search within the clock's budget: the hard one as the time limit, the soft one
        as the moment after which no new iteration starts."""
        given = budget(reading.own, reading.increment, reading.moves_to_go)
        limits = Limits(
            depth=self.limits.depth,
            nodes=self.limits.nodes,
            time=max(given.hard, _LEAST_THINKING),
            stop=self.limits.stop,
            soft_time=given.soft,
        )
        return engine.search(state, limits)

    def reset(self) -> None:
        """Forget every game's table and clock: the next game starts fresh."""
        for _, engine in self._engines.values():
            engine.reset()
        self.last = None
        self._clock = None


def engine_for(game: Any, options: EngineOptions | None = None) -> Engine:
    """Return the engine that plays ``game``: the game's compiled one when it offers
    one and kernels are on (connect four's solves each position it can in its kernel
    before it searches with the evaluation; othello's and gomoku's search in theirs),
    else the pure engine. Agents and the engine protocols (Gomocup, NBoard) play with
    it, so that every way of playing gets the same strength."""
    compiled = getattr(game, "compiled_engine", None)
    engine: Engine | None = compiled(options) if callable(compiled) else None
    return engine if engine is not None else Engine(game, options)


def _describe_limits(limits: Limits) -> str:
    parts = []
    if limits.depth is not None:
        parts.append(f"depth {limits.depth}")
    if limits.nodes is not None:
        parts.append(f"{limits.nodes} nodes")
    if limits.time is not None:
        parts.append(f"{limits.time:g} s")
    return "engine" + (f" ({', '.join(parts)})" if parts else "")


class RandomAgent:
    """Plays a uniformly random legal move; the same ``seed`` plays the same moves."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.seed = seed
        self.name = name
        self._random = random.Random(seed)

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"

    def choose(self, game: Any, state: Any) -> Any:
        """Return a random legal move."""
        refuse_finished(game, state)
        return self._random.choice(list(game.actions(state)))

    def reset(self) -> None:
        """Restart the generator from the seed, so every game replays the same way."""
        self._random = random.Random(self.seed)


class HumanAgent:
    """Asks a person for moves through ``input_fn`` and reports problems via ``output_fn``.

    The text goes through :func:`zerosum.notation.parse_move` (the game's
    ``parse_move``, else the legal move whose ``str`` it is); on an
    :class:`~zerosum.game.InvalidMoveError` or :class:`~zerosum.game.IllegalMoveError`
    the message is shown and the question asked again. Commands such as undo or quit
    belong to the interface around the agent, which sees ``EOFError`` and
    ``KeyboardInterrupt`` unchanged."""

    def __init__(
        self,
        input_fn: Callable[[str], str] = input,
        output_fn: Callable[[str], object] = print,
        name: str = "human",
        prompt: str = "your move: ",
    ) -> None:
        self.input_fn = input_fn
        self.output_fn = output_fn
        self.name = name
        self.prompt = prompt

    def __repr__(self) -> str:
        return f"HumanAgent(name={self.name!r})"

    def choose(self, game: Any, state: Any) -> Any:
        """Read moves until one is legal in ``state`` and return it."""
        refuse_finished(game, state)
        while True:
            text = self.input_fn(self.prompt)
            try:
                return notation.parse_move(game, state, text)
            except (InvalidMoveError, IllegalMoveError) as error:
                self.output_fn(str(error))
