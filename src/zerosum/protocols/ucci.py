"""The UCCI protocol: zerosum's xiangqi engine for the Chinese GUIs that speak it
(:class:`UcciEngine`, ``zerosum ucci``).

UCCI (中国象棋通用引擎协议, the Universal Chinese Chess Protocol, version 3.0, by Huang
Chen of xqbase.com, 2004-2007) is UCI adapted to xiangqi; GUIs such as XQWizard (象棋
巫师) and engines such as ElephantEye speak it. :class:`UcciEngine` is
:class:`~zerosum.protocols.uci.UciEngine` with UCCI's words: the same loop, search
thread, time management and answers to ``isready``, ``stop`` and ``ponderhit`` within
milliseconds; what follows is what UCCI changes.

Commands and answers:

``ucci``
    ``id name zerosum X``, ``id author``, the options, ``ucciok``. Options are one lower
    case word and ``setoption`` has neither ``name`` nor ``value``: ``setoption
    hashsize 64``.
``setoption usemillisec true|false``
    times in milliseconds (the default, as UCCI recommends) or in seconds.
``setoption hashsize MB``, ``setoption ponder true|false``, ``setoption newgame``
    the table's size (0 for the default, :data:`~zerosum.protocols.uci.DEFAULT_HASH`),
    whether ``bestmove`` names the expected reply (``ponder M``), and a new game (the
    table forgotten).
``setoption batch true|false``
    batch mode: a search that ends by itself is finished before the next line is read,
    so that a file of commands can be fed in one go.
``position fen FEN|startpos [moves m1 m2 ...]``
    FEN as xqbase.com writes it (``rnbakabnr/9/1c5c1/... w - - 0 1``; the older letters
    ``h`` and ``e`` are read too), moves in ICCS coordinates, lower case without the
    dash (``h2e2``), ranks 0-9.
``banmoves m1 m2 ...``
    moves the engine may not play in the current position (a GUI's ruling on perpetual
    chasing); the next ``position`` lifts them.
``go [ponder|draw] MODE``
    searches, the mode one of ``depth D`` (or ``depth infinite``), ``infinite``,
    ``nodes N`` or ``time T [movestogo M|increment I] [opptime T [oppmovestogo
    M|oppincrement I]]``: ``time`` is the engine's clock, ``opptime`` the opponent's.
    ``depth 0`` answers the static evaluation and ``nobestmove``. Each completed
    iteration writes ``info depth D score S pv ...`` and ``info time MS nodes N``;
    the search ends with ``bestmove M [ponder P] [draw]`` or ``nobestmove``.
``ponderhit [draw]``, ``stop``, ``isready``
    as in UCI; ``stop`` with no search running answers ``nobestmove``, as UCCI asks.
``quit``
    stops any search and answers ``bye``.

Decisions where the protocol leaves room:

* **Scores** are centipawns with a soldier 100 (UCCI's convention is a horse or cannon
  100: ours read about four times larger), a mate found ``10000`` less its length in
  plies (negative when the engine is mated), as ElephantEye writes them.
* **Draws.** With ``go draw`` or ``ponderhit draw`` (the opponent offers a draw) the
  engine accepts, adding ``draw`` to its ``bestmove``, when its score is below zero. It
  never offers a draw and never resigns.
* **Unknown options are ignored**, as UCCI asks (XQWizard sends its own settings,
  ``usebook``, ``pruning``, ``knowledge``..., to every engine); a known option with a
  bad value, and any other line the engine cannot use, answer one line ``info message``
  saying why (UCCI's way to tell the user), and change nothing.
* **No move.** A position without a legal move (lost in xiangqi), or whose every move is
  banned, answers ``nobestmove``; a position over by rule (perpetual check, repetition,
  sixty moves) still has its legal moves, and the engine plays one.
* ``probe`` (a debugging aid) is not supported: its answer would be table internals.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from zerosum.game import WIN, WIN_THRESHOLD, ZerosumError, quoted
from zerosum.games.xiangqi import State, Xiangqi
from zerosum.protocols.uci import (
    AUTHOR,
    DEFAULT_HASH,
    MAX_HASH,
    NAME,
    RunningSearch,
    SearchPlan,
    UciEngine,
    XiangqiDialect,
)
from zerosum.search.engine import Engine, Report

__all__ = ["MATE_SCORE", "UcciEngine", "format_ucci_score"]

MATE_SCORE = 10000
"""The score of a mate on the board, as ElephantEye writes it: a mate in ``n`` plies is
``MATE_SCORE - n``."""

_GO_NUMBERS = frozenset(
    ("depth", "nodes", "time", "movestogo", "increment", "opptime", "oppmovestogo", "oppincrement")
)
_TIMES = frozenset(("time", "increment", "opptime", "oppincrement"))


def format_ucci_score(score: int) -> str:
    """Write an engine score as UCCI does: centipawns, or :data:`MATE_SCORE` less the
    plies to mate (negative when the side to move is mated)."""
    if score >= WIN_THRESHOLD:
        return str(MATE_SCORE - (WIN - score))
    if score <= -WIN_THRESHOLD:
        return str(-(MATE_SCORE - (WIN + score)))
    return str(score)


class _RefusedError(ZerosumError):
    """A line the engine cannot use; its message follows ``info message``."""


class _BanningXiangqi(Xiangqi):
    """Xiangqi whose moves at one position (the position searched, matched by identity)
    leave out the banned ones: the search's root moves then never include them."""

    def __init__(self) -> None:
        super().__init__(notation="iccs")
        self.banned: tuple[State | None, frozenset[int]] = (None, frozenset())

    def actions(self, state: State) -> list[int]:
        """The legal moves, less the banned ones at the banned position."""
        moves = super().actions(state)
        at, banned = self.banned
        if state is at:
            return [move for move in moves if move not in banned]
        return moves


class UcciEngine(UciEngine):
    """A UCCI xiangqi engine: feed it the GUI's lines, it writes its answers to
    ``output``. :meth:`handle` takes one line and returns ``False`` after ``quit``
    (having answered ``bye``); :meth:`run` feeds it lines until then or the end of the
    input. ``hash_mb`` is the initial ``hashsize``; ``clock`` (seconds) measures time."""

    NOTE = "info message"

    def __init__(
        self,
        output: TextIO,
        *,
        hash_mb: int = DEFAULT_HASH,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._rules = _BanningXiangqi()
        dialect = XiangqiDialect()
        dialect.game = self._rules
        super().__init__(output, game=dialect, hash_mb=hash_mb, clock=clock)
        self.milliseconds = True
        """Whether ``go`` counts time in milliseconds (``usemillisec``), else seconds."""
        self.batch = False
        """Whether a search is finished before the next line is read (``batch``)."""
        commands = self._commands
        del commands["uci"], commands["ucinewgame"], commands["debug"]
        commands["ucci"] = self._ucci
        commands["banmoves"] = self._banmoves
        commands["stop"] = self._stop

    def __repr__(self) -> str:
        return f"UcciEngine({self._game.format_state(self._state)!r})"

    def handle(self, line: str) -> bool:
        """Handle one line from the GUI; return ``False`` when it was ``quit``."""
        search = self._search.current
        if self.batch and search is not None and not (search.plan.infinite or search.plan.ponder):
            self._search.finish()
        if super().handle(line):
            return True
        self._say("bye")
        return False

    # ------------------------------------------------------------------ commands

    def _ucci(self, rest: str, started: float) -> None:
        self._say(f"id name {NAME}")
        self._say(f"id author {AUTHOR}")
        self._say("option usemillisec type check default true")
        self._say("option batch type check default false")
        self._say("option ponder type check default false")
        self._say(f"option hashsize type spin min 0 max {MAX_HASH} default {DEFAULT_HASH}")
        self._say("option newgame type button")
        self._say("ucciok")

    def _setoption(self, rest: str, started: float) -> None:
        self._search.stop(wait=True)
        name, _, value = rest.partition(" ")
        key, value = name.lower(), value.strip()
        options = self.options
        if key == "usemillisec":
            self.milliseconds = _check(name, value)
        elif key == "batch":
            self.batch = _check(name, value)
        elif key == "ponder":
            options.ponder = _check(name, value)
        elif key == "hashsize":
            if not (value.isascii() and value.isdigit() and int(value) <= MAX_HASH):
                raise _RefusedError(
                    f"setoption hashsize: value must be 0 to {MAX_HASH} MB, not {quoted(value)}"
                )
            options.hash_mb = int(value) or DEFAULT_HASH
        elif key == "newgame" and self._engine is not None:
            self._engine.reset()
        # any other option is some other engine's: UCCI has them ignored

    def _position(self, rest: str, started: float) -> None:
        super()._position(rest, started)
        self._rules.banned = (None, frozenset())

    def _banmoves(self, rest: str, started: float) -> None:
        self._search.stop(wait=True)
        state = self._state
        banned: set[int] = set()
        for text in rest.split():
            try:
                banned.add(self._dialect.parse_move(state, text))
            except ZerosumError as error:
                raise _RefusedError(f"banmoves: {error}; no move banned") from None
        self._rules.banned = (state, frozenset(banned))

    def _stop(self, rest: str, started: float) -> None:
        search = self._search.current
        if search is None or search.thread is None or not search.thread.is_alive():
            self._say("nobestmove")
        else:
            search.stop()

    def _ponderhit(self, rest: str, started: float) -> None:
        search = self._search.current
        if search is not None:
            search.plan.draw = search.plan.draw or rest.split()[:1] == ["draw"]
        super()._ponderhit(rest, started)

    # ------------------------------------------------------------------ go

    def _go(self, rest: str, started: float) -> None:
        words = rest.split()
        at = words.index("depth") + 1 if "depth" in words else len(words)
        if words[at : at + 1] == ["0"]:
            self._search.stop(wait=True)
            self._evaluate()
            return
        super()._go(rest, started)

    def _evaluate(self) -> None:
        """``go depth 0``: the static evaluation, and no move."""
        state, game = self._state, self._game
        if not game.is_terminal(state):
            self._say(f"info depth 0 score {format_ucci_score(game.evaluate(state))}")
        self._say("nobestmove")

    def _plan(self, words: list[str]) -> tuple[SearchPlan, list[str]]:
        """Read UCCI's ``go`` arguments; return the plan and what was skipped."""
        plan = SearchPlan()
        read: dict[str, int] = {}
        problems: list[str] = []
        index = 0
        while index < len(words):
            word = words[index]
            index += 1
            if word == "ponder":
                plan.ponder = True
            elif word == "draw":
                plan.draw = True
            elif word == "infinite":
                plan.infinite = True
            elif word == "depth" and words[index : index + 1] == ["infinite"]:
                plan.infinite = True
                index += 1
            elif word in _GO_NUMBERS:
                value = words[index] if index < len(words) else ""
                index += 1 if value else 0
                if value.isascii() and value.isdigit() and len(value) <= 18:
                    read[word] = int(value)
                else:
                    problems.append(f"{word} needs a whole number, not {quoted(value)}")
            else:
                problems.append(f"unknown argument {quoted(word)} skipped")
        self._limit(plan, self._uci_numbers(read))
        return plan, problems

    def _uci_numbers(self, read: Mapping[str, int]) -> dict[str, int]:
        """UCCI's ``go`` numbers under UCI's names, times in milliseconds: the engine's
        clock is the side to move's (``wtime`` for red)."""
        scale = 1 if self.milliseconds else 1000
        red = self._game.to_move(self._state) == 0
        own, other = ("w", "b") if red else ("b", "w")
        names = {
            "time": f"{own}time",
            "increment": f"{own}inc",
            "opptime": f"{other}time",
            "oppincrement": f"{other}inc",
            "movestogo": "movestogo",
            "depth": "depth",
            "nodes": "nodes",
        }
        return {
            names[word]: value * scale if word in _TIMES else value
            for word, value in read.items()
            if word in names
        }

    # ------------------------------------------------------------------ answers

    def _best_move(self, search: RunningSearch, state: Any) -> Any:
        rules, at = self._rules, self._rules.banned[0]
        if at is not None and state is at and not rules.is_terminal(at) and not rules.actions(at):
            self._say(f"{self.NOTE} every legal move is banned")
            return None
        return super()._best_move(search, state)

    def _answer(self, search: RunningSearch, state: Any, move: Any) -> None:
        if move is None:
            self._say("nobestmove")
            return
        dialect = self._dialect
        words = ["bestmove", dialect.format_move(state, move)]
        last = self.last
        if self.options.ponder and last is not None and last.pv[:1] == (move,) and len(last.pv) > 1:
            after = self._game.result(state, move)
            words += ["ponder", dialect.format_move(after, last.pv[1])]
        if search.plan.draw and last is not None and last.score < 0:
            words.append("draw")
        self._say(" ".join(words))

    def _score(self, score: int) -> str:
        return format_ucci_score(score)

    def _infos(self, engine: Engine, state: Any, report: Report, count: int) -> list[str]:
        """The two ``info`` lines of one iteration: depth, score and principal
        variation, then time and nodes."""
        return [
            f"info depth {report.depth} score {self._score(report.score)} "
            f"pv {self._moves(state, report.pv)}",
            f"info time {round(report.elapsed * 1000)} nodes {report.nodes}",
        ]


def _check(name: str, value: str) -> bool:
    """Read a check option's value, ``true`` or ``false``."""
    if value.lower() not in ("true", "false"):
        raise _RefusedError(f"setoption {name}: value must be true or false, not {quoted(value)}")
    return value.lower() == "true"
