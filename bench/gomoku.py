"""Gomoku: the engine's speed and depth, the VCF solver's time, the brain's reply times,
and matches against a one-ply pattern-greedy player and a depth-2 plain alpha-beta.

Run from the project root with the project's venv::

    .venv/bin/python bench/gomoku.py                      # everything, about an hour on 2 cores
    .venv/bin/python bench/gomoku.py --quick              # a few minutes
    .venv/bin/python bench/gomoku.py --games 20 --time 0.5 --workers 2
    .venv/bin/python bench/gomoku.py --only match         # one part (or speed, vcf, brain, rapfi)
    RAPFI=/tmp/rapfi/Rapfi/build/pbrain-rapfi .venv/bin/python bench/gomoku.py --only rapfi \
        --versus 20000:1000 --versus 1s:10000 --games 20

1. **Speed**: nodes per second and the depth reached in ``--seconds`` (1 s) by a fresh
   engine from each of :data:`MIDGAME` (15x15 mid-game positions from engine self-play,
   none with a forced win at the root, so the search really searches).
2. **VCF**: the time of :func:`zerosum.games.gomoku_threats.vcf` at the game's default
   root budget on positions that have a victory by continuous fours of at least three
   fours: random stones (seeded) around the centre of 15x15, kept when the solver with
   a large budget proves such a win. How many it proves within the default budget, and
   how long it takes, mean and worst; depth first and with ``shortest`` (the fewest
   fours, as the root asks), with the plies of the lines found.
3. **Brain**: two Gomocup brains (:mod:`zerosum.protocols.gomocup`) play each other
   in-process under ``INFO timeout_turn``; the worst reply time against the limit.
4. **Match**: ``--games`` games (default 100) at ``--time`` seconds a move (default 1.0)
   of the engine against (a) :class:`GreedyPlayer` and (b) :class:`AlphaBetaPlayer`,
   through :mod:`zerosum.arena` (process pool, colours alternating, every opening played
   from both sides). The openings are three random stones in the central 5x5 (black,
   white, black), one per two games. Target: 95% of the points or more against both.
5. **Rapfi** (only with ``RAPFI``, the path of a Rapfi executable the user built; it is
   GPL and in no registry): the engine against Rapfi through the arena's Gomocup agent,
   one ``--versus OURS:THEIRS`` pairing at a time (default ``20000:1000``): ``OURS`` is
   the engine's nodes a move (``20000``) or its seconds a move (``1s``), ``THEIRS``
   Rapfi's nodes a move (``INFO max_node``; its move time is only a safety net). Games
   open as in the matches (three random central stones, each opening played with both
   colours; ``--seed`` draws other ones), with ``--openings random-even`` from random
   ones the compiled engine scores near even (:func:`even_openings`, from ``--seed``), or
   with ``--openings balanced`` or ``even`` from :data:`BALANCED` or :data:`EVEN` (the
   openings Rapfi itself scores near even);
   ``--player`` picks our side: the engine users get (compiled when numba is in), the
   pure one, or the compiled one with ``--set`` changing its numbers (``--set
   rapfi_count=1`` counts nodes as Rapfi does, for budgets equal on both sides); each pairing
   prints the score with its Elo interval and each side's seconds a move (wall time,
   the agent's round trip included for Rapfi). ``--rule renju`` plays renju (Rapfi
   told by ``INFO rule 4``; ours the pure engine, which alone knows black's forbidden
   moves; every move of both sides checked against our rules by the arena).
6. **Versions** (``--only versions``): the compiled engine with ``--set`` changing its
   numbers against the default one (``--against kernel``) or the pure engine, on the same
   openings, as a change proves itself against the version before it.

``--sprt elo0=0 elo1=15`` (and ``alpha``, ``beta``, ``model``, as ``zerosum match --sprt``
takes them) stops a Rapfi or versions match once the sequential test on the pentanomial
counts of its game pairs decides, ``--games`` being the most it plays, and prints the
test's verdict under the score::

    .venv/bin/python bench/gomoku.py --only versions --set defence_extension=2 \
        --versus 20000:20000 --games 4000 --sprt elo0=0 elo1=15 --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO, cast

from zerosum import kernels
from zerosum.arena import (
    Event,
    adjudications,
    describe_match_sprt,
    match_estimate,
    match_pairs,
    match_sprt,
    run_event,
    tally,
)
from zerosum.game import WIN_THRESHOLD
from zerosum.games.gomoku import RULES, Gomoku
from zerosum.games.gomoku_threats import vcf
from zerosum.protocols.gomocup import GomocupAgent, GomocupBrain
from zerosum.ratings import SprtSettings, format_elo
from zerosum.search.engine import Engine, Limits
from zerosum.search.reference import negamax_alphabeta

MIDGAME = (
    "h8 f7 f9 e8 d9 e9 e10 e6 f11 c8 g8 h7 d11 c12 g12 h13 e7 d7 f5",
    "h7 j10 i7 j7 i8 j9 j8 h8 k9 l10 g5 h6 i9 i10 h10 k7 i6 i5",
    "f6 f10 h9 g11 d8 h12 i13 e7 i9 g9 i11 g10 i10 i12 g12 g8 g7 h8 i7 i8 f8 k8 j8 e11 d12 h11 "
    "f9 d10 h10",
    "i7 h7 j9 i6 j5 j6 h6 j8 g5 f4 i5 h5 g7 f8 g4 g6 j4 k3",
    "j10 h10 j7 h9 h7 j8 k11 h12 h11 i9 k7 i7 k9 i8 k8 k10 i6 l9 i11 j11 m7 l8 i12",
    "h7 h10 j8 g10 j10 j9 k9 f10 e10 g9 i11 l8 g13 h12 i7 h6 l10 m11 g7 j7 k10 i10 k8 k11 g8 "
    "f9 k6 k7 h8 i8",
    "j9 j10 i7 k9 i11 i10 k10 i8 l11 m12 j11 k11 l9 m8 l12 l10 i12 h13 j12 m11 n12 m9 m10 n8 "
    "o7 k12",
    "j6 i8 j7 j8 k8 h7 i6 h5 k6 h6 h8 h3 h4 j9 g6 k10 l11 i7 k9 g5 f4 i5 j5 j4 k3 g7 f8 f5 e5",
)
"""Mid-game 15x15 positions as moves from the start (engine self-play at 0.15 s a move
from three random central stones, cut at 18 to 30 moves, kept when the side to move has
no win at once, no threat-search win at the root, at least five safe moves, and a 1 s
search neither solves the position nor proves a win or a loss)."""

BALANCED = (
    "h11 e7 g6 h10",
    "i11 j7 j5 f7",
    "j11 j6 g8 k7",
    "g7 e9 h5 e6",
    "i10 j5 h6 f9",
    "g11 f8 e8 f10",
    "g9 e10 k6 h10",
    "k9 i5 e6 g6",
    "f11 h8 i5 f7",
    "j6 i8 h11 f7",
    "k7 e8 e6 j8",
    "j6 k8 e9 i9",
    "g6 i9 k9 g5",
    "k6 j8 h10 g9",
    "g9 g5 k11 g8",
    "i5 h7 e9 g10",
    "f10 e11 f5 f8",
    "e5 f8 h5 h9",
    "e6 k7 k11 h6",
    "k10 h10 g8 j5",
    "h9 i9 g7 k9",
    "f7 i9 k8 e8",
    "k11 h6 g6 j7",
    "e5 j10 g10 e11",
    "h10 k6 h6 f7",
    "e7 f10 j7 i11",
    "f7 h8 f8 k5",
    "k10 g5 g6 f7",
    "i6 f9 f8 f6",
    "i10 g7 i7 j5",
    "f9 i10 j7 f8",
    "j7 f6 f11 k5",
    "g11 k5 k10 f7",
    "f11 g5 f7 i9",
    "j11 k8 k11 g8",
)
"""Four-stone 15x15 openings (black, white, black, white; black to move), each played
with both colours against Rapfi by ``--openings balanced``: random stones in the central
7x7, kept when a 5,000-node search of the engine (round 2 of issue 23) scored the
position within -50 to +60 for black. Three random central stones leave black far ahead:
with them colour decided 5 to 7 of 10 opening pairs against Rapfi, with these 8 or 9
of 15."""

EVEN = (
    "j8 i6 f9",  # +0
    "e11 h8 k10 f5",  # -1
    "j5 j7 e8",  # -1
    "j11 e10 f10",  # -2
    "k9 f5 f7 g6",  # -3
    "j5 i6 g10",  # +4
    "j7 f10 e11",  # +4
    "h5 i7 e10",  # +5
    "h7 k6 h11",  # -6
    "e11 f10 i5",  # +7
    "i5 k7 e9 i6",  # +7
    "i9 f9 e5 i7",  # +7
    "k5 h9 j9",  # -7
    "g5 g6 h11",  # +8
    "e5 k5 i6",  # -9
    "e7 e10 j6 e11",  # +9
    "j5 f10 i9",  # +9
    "e7 g6 k6 f8",  # +10
    "e7 j8 e11 h10",  # +10
    "f9 j8 g5",  # +10
    "f7 g5 j9 g6",  # +11
    "g10 k7 j7",  # +11
    "i7 f8 e10 f9",  # -11
    "j7 k8 f9",  # +11
    "h9 i10 g5",  # +12
    "i6 g7 f11",  # +12
    "j11 i6 i7",  # -12
    "j9 k10 f8",  # +12
    "k11 h8 g7 i7",  # -12
    "f11 g10 e5",  # -13
    "g6 i11 j11",  # -14
    "k10 g7 h7",  # -14
    "k6 f8 f6 h9",  # -15
    "e11 g8 j6 j8",  # -16
    "h11 k8 k6",  # -16
    "h5 k9 k10",  # -16
    "j11 g9 i5 i11",  # +16
    "f5 j9 j7",  # +17
    "f7 i6 k9",  # -17
    "h11 i11 f7",  # +17
    "e10 e9 k7",  # -18
    "i7 i10 e10",  # +18
    "j7 j8 e6",  # -18
    "e7 e6 k10",  # +19
    "i5 i10 e11 h7",  # +19
    "f5 j8 e9",  # -22
    "g10 g8 f6 e7",  # +22
    "i7 j6 e6",  # +22
    "f10 f8 e5",  # -23
    "g6 k9 j11 h9",  # +25
    "j10 g6 h5 i7",  # +25
    "e7 h11 k7",  # +26
    "e8 i9 g10",  # -26
    "g6 e9 g11",  # -26
    "f11 k10 i7",  # +27
    "k9 k10 k6 h9",  # +27
    "g5 h8 f10",  # -29
    "h7 i7 e8",  # -30
    "i5 h7 h11 k7",  # +30
    "e11 h8 j9",  # +31
    "e8 e6 h9",  # -31
    "e8 f6 i5",  # -31
    "g8 i6 k5",  # -31
    "i7 k8 e9",  # +31
    "j7 j6 k11",  # -32
    "h5 k7 e10 i6",  # +33
    "i10 f5 e8",  # +33
    "g10 g11 k8",  # +34
    "g6 i10 k8",  # +34
    "f10 k9 j11",  # -37
    "j10 h8 f7 f9",  # +37
    "k5 h7 g9",  # +37
    "f11 e9 f6 g10",  # +39
    "j11 f6 i7 h6",  # -39
    "j5 e9 f10",  # +39
    "k11 k10 g5",  # +39
    "k9 i10 f8",  # -39
    "f10 f8 k6",  # +40
    "f8 k6 k11",  # +40
    "h11 j5 h7",  # +40
    "i9 e6 f7",  # +40
)
"""Three- and four-stone 15x15 openings (alternate stones from black; white or black to
move) that Rapfi 0.43.02 (its classical evaluation, one thread, 100,000 nodes) scores
within -40 to +40 for the side to move (in its evaluation units; a move is worth a few
hundred), closest to even first, with that value: random stones in the central 7x7, 600
of them scored, these kept. Rapfi found ``BALANCED``'s kind (four random stones) worth
+200 to the side to move in the median, and three random stones -110 to the side to
move: with those, colour decided most pairs of games (25 to 28 of 35 against Rapfi at
20,000 nodes each in issue 23's third round)."""

TARGET = 0.95
NEAR = 2
"""The players below consider the empty cells within this many of a stone."""


def play_line(game: Gomoku, moves: str) -> Any:
    state = game.initial_state()
    for text in moves.split():
        state = game.result(state, game.parse_move(state, text))
    return state


# ---------------------------------------------------------------- the opponents


def near_stones(game: Any, state: Any) -> list[Any]:
    """The empty cells within :data:`NEAR` cells of a stone (the centre on an empty
    board), in reading order: found from the protocol's ``actions`` alone."""
    empty = game.actions(state)
    width, height = game.width, game.height
    taken = set(range(width * height)).difference(empty)
    if not taken:
        return [game.action(width // 2, height // 2)]
    close = set()
    for cell in taken:
        y, x = divmod(cell, width)
        for ny in range(max(0, y - NEAR), min(height, y + NEAR + 1)):
            for nx in range(max(0, x - NEAR), min(width, x + NEAR + 1)):
                close.add(ny * width + nx)
    return [cell for cell in empty if cell in close]


class GreedyPlayer:
    """One ply: the move whose resulting position the game's ``evaluate`` likes best
    for the mover (a five first of all)."""

    def __init__(self, name: str = "greedy") -> None:
        self.name = name

    def choose(self, game: Any, state: Any) -> Any:
        mover = game.to_move(state)
        best, best_value = None, None
        for move in near_stones(game, state):
            child = game.result(state, move)
            if game.is_terminal(child):
                value = WIN_THRESHOLD * game.utility(child, mover)
            else:
                value = -game.evaluate(child)
            if best_value is None or value > best_value:
                best, best_value = move, value
        return best


class NearStones:
    """The game as plain alpha-beta sees it: only the cells near the stones are moves,
    and a finished game is worth more than any evaluation."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.info = game.info

    def initial_state(self) -> Any:
        return self.game.initial_state()

    def to_move(self, state: Any) -> int:
        return int(self.game.to_move(state))

    def actions(self, state: Any) -> list[Any]:
        return [] if self.game.is_terminal(state) else near_stones(self.game, state)

    def result(self, state: Any, action: Any) -> Any:
        return self.game.result(state, action)

    def is_terminal(self, state: Any) -> bool:
        return bool(self.game.is_terminal(state))

    def utility(self, state: Any, player: int) -> int:
        return WIN_THRESHOLD * int(self.game.utility(state, player))

    def evaluate(self, state: Any) -> int:
        return int(self.game.evaluate(state))


class AlphaBetaPlayer:
    """The textbook negamax alpha-beta (:func:`zerosum.search.reference.negamax_alphabeta`)
    to depth 2 over the cells near the stones, leaves scored by the game's ``evaluate``."""

    def __init__(self, depth: int = 2, name: str = "alphabeta-2") -> None:
        self.depth = depth
        self.name = name
        self._views: dict[int, NearStones] = {}

    def choose(self, game: Any, state: Any) -> Any:
        view = self._views.setdefault(id(game), NearStones(game))
        return negamax_alphabeta(view, state, depth=self.depth).best_move


class EnginePlayer:
    """An engine made by ``make(game)`` for each game it plays, searching under
    ``limits`` each move (its tables kept through a game, emptied between games)."""

    def __init__(self, make: Any, limits: Limits, name: str) -> None:
        self.make = make
        self.limits = limits
        self.name = name
        self.last: Any = None
        self._engines: dict[int, tuple[Any, Any]] = {}

    def choose(self, game: Any, state: Any) -> Any:
        """Search ``state`` under the player's limits and return the best move."""
        held = self._engines.get(id(game))
        if held is None:
            held = self._engines[id(game)] = (game, self.make(game))
        self.last = held[1].search(state, self.limits)
        return self.last.best_move

    def reset(self) -> None:
        """A new game: every table emptied."""
        for _, engine in self._engines.values():
            engine.reset()


def kernel_player(
    nodes: int | None = None,
    time: float | None = None,
    name: str = "kernel",
    weights: str | None = None,
    **changes: int,
) -> EnginePlayer:
    """The compiled engine (:class:`~zerosum.games.gomoku_kernel.KernelEngine`) at
    ``nodes`` or ``time`` seconds a move, its numbers changed by keyword: a search
    parameter (``lmr_scale=120``) or one entry of a weight list (``mover_cell_7=80``: the
    list's name, then the index), after what a JSON file ``weights`` holds (an object of
    list names and lists, and of search numbers and values: what ``bench/gomoku_fit.py``
    writes), so that a match can compare two versions of it."""
    from zerosum.games.gomoku_kernel import KernelEngine

    if weights is not None:
        loaded = json.loads(Path(weights).read_text())
        changes = {
            **{
                f"{name}_{i}": v
                for name, values in loaded.items()
                if isinstance(values, list)
                for i, v in enumerate(values)
            },
            **{name: value for name, value in loaded.items() if not isinstance(value, list)},
            **changes,
        }
    chosen = kernel_weights(changes)
    return EnginePlayer(
        lambda game: KernelEngine(game, weights=chosen), Limits(nodes=nodes, time=time), name
    )


def kernel_weights(changes: Mapping[str, float]) -> Any:
    """The kernel's default :class:`~zerosum.games.gomoku_kernel.Weights` with
    ``changes`` (see :func:`kernel_player`)."""
    from zerosum.games.gomoku_kernel import Weights

    weights = Weights()
    for key, value in changes.items():
        if key in weights.search:
            weights.search[key] = int(value)
            continue
        field, _, index = key.rpartition("_")
        if field in ("order_line", "order_cell") and index.isdigit():
            getattr(weights, field)[int(index)] = int(value)
        elif field in ("mover_line", "mover_cell", "other_line", "other_cell") and index.isdigit():
            getattr(weights, field)[int(index)] = float(value)
        else:
            raise ValueError(f"unknown kernel number {key!r}")
    return weights


def pure_player(
    nodes: int | None = None, time: float | None = None, name: str = "pure"
) -> EnginePlayer:
    """The pure-Python engine (never the compiled one) at ``nodes`` or ``time`` a move."""
    return EnginePlayer(Engine, Limits(nodes=nodes, time=time), name)


RAPFI_PAUSE = 0.05
"""Seconds to wait before each command to Rapfi: it prints its move before it stops
marking itself as thinking, and drops a command that arrives in between (a ``TURN``
sent at once, when our reply is instant, came back as ``ERROR Unknown command: x,y``)."""


class RapfiAgent(GomocupAgent):
    """A Gomocup agent that gives Rapfi :data:`RAPFI_PAUSE` before each move."""

    def choose(self, game: Any, state: Any) -> int:
        """Ask Rapfi for its move in ``state``, after the pause."""
        time.sleep(RAPFI_PAUSE)
        return super().choose(game, state)


def rapfi_agent(
    variable: str, nodes: int, time: float, name: str, environment: Mapping[str, object]
) -> GomocupAgent:
    """The Rapfi executable the environment variable ``variable`` names as a Gomocup
    agent, one thread, at most ``nodes`` a move (0: no node limit) and ``time`` seconds
    a move, run with ``environment`` added to its environment."""
    command = os.environ.get(variable)
    if not command:
        raise ValueError(f"set {variable} to the path of a Rapfi executable to play it")
    settings = [f"{key}={value}" for key, value in environment.items()]
    words = ["env", *settings, command] if settings else [command]
    info = [("thread_num", 1)] + ([("max_node", nodes)] if nodes else [])
    return RapfiAgent(words, time=time, info=info, name=name)


def rapfi(nodes: int = 0, time: float = 60.0, name: str = "rapfi") -> GomocupAgent:
    """Rapfi (the executable ``RAPFI`` names), one thread, at most ``nodes`` a move (0:
    no node limit) and ``time`` seconds a move."""
    return rapfi_agent("RAPFI", nodes, time, name, {})


def other_rapfi(
    nodes: int = 0, time: float = 60.0, name: str = "other", **environment: object
) -> GomocupAgent:
    """Another Rapfi executable, the one ``RAPFI_OTHER`` names (a build of one's own,
    changed to measure what a part of its search is worth), as :func:`rapfi`, run with
    ``environment`` added to its environment (the switches such a build reads,
    ``ABL=1``)."""
    return rapfi_agent("RAPFI_OTHER", nodes, time, name, environment)


# ---------------------------------------------------------------- 1. speed


def speed(seconds: float, count: int) -> None:
    """Each engine's depth and nodes a CPU second on the mid-game positions: ours (the
    compiled engine when numba is in, and the pure one, also under renju, whose
    forbidden moves only it knows) searching ``seconds`` of wall clock each, their CPU
    time measured; Rapfi (with ``RAPFI``) searching as many nodes
    as the compiled engine did, its CPU time less that of its start. An engine's rate is
    its nodes over its CPU seconds on all the positions together: a mean of the
    positions' rates would be ruled by one that a search ends in no measurable time."""
    game = Gomoku(15)
    engines: list[tuple[str, Any, Gomoku]] = [
        ("pure", Engine, game),
        ("renju", Engine, Gomoku(15, rule="renju")),
    ]
    if game.compiled_engine() is not None:
        from zerosum.games.gomoku_kernel import KernelEngine

        engines.insert(0, ("compiled", KernelEngine, game))
    command = os.environ.get("RAPFI")
    print(
        f"1. speed on {count} mid-game 15x15 positions, {seconds:g} s each (fresh engines), "
        f"nodes per CPU second"
    )
    print(
        f"   {'position':<9} {'engine':<9} {'depth':>5} {'seldepth':>8} {'nodes':>9} "
        f"{'CPU s':>6} {'nodes/s':>9}"
    )
    work: dict[str, list[float]] = {}
    depths: dict[str, list[int]] = {}
    start_cpu = rapfi_start_cpu(command) if command else 0.0
    for index, moves in enumerate(MIDGAME[:count], start=1):
        budget = 0
        for label, make, played in engines:
            state = play_line(played, moves)
            engine = make(played)
            engine.search(state, Limits(nodes=50))  # tables and code loaded untimed
            engine.reset()
            cpu = time.process_time()
            result = engine.search(state, Limits(time=seconds))
            cpu = time.process_time() - cpu
            stats = result.stats
            budget = budget or stats.nodes
            line = (label, stats.depth, stats.seldepth, stats.nodes, cpu)
            speed_row(index, line, work, depths)
        if command:
            depth, seldepth, cpu = rapfi_search(command, game, moves, budget)
            speed_row(
                index, ("Rapfi", depth, seldepth, budget, max(cpu - start_cpu, 0.0)), work, depths
            )
    rates = {label: nodes / max(cpu, 1e-6) for label, (nodes, cpu) in work.items()}
    for label, rate in rates.items():
        print(
            f"   {label}: mean depth {statistics.mean(depths[label]):.1f} (min "
            f"{min(depths[label])}), {rate:,.0f} nodes a CPU second"
        )
    print(f"   pure under renju / under freestyle: {rates['renju'] / rates['pure']:.3f}")
    if "Rapfi" in rates:
        for label in ("compiled", "pure"):
            if label in rates:
                print(f"   {label} / Rapfi: {rates[label] / rates['Rapfi']:.3f}")


def speed_row(
    index: int,
    line: tuple[str, int, int, int, float],
    work: dict[str, list[float]],
    depths: dict[str, list[int]],
) -> None:
    """Print one engine's search of one position and add its nodes and CPU seconds to
    the engine's totals in ``work``, its depth to ``depths``."""
    label, depth, seldepth, nodes, cpu = line
    rate = nodes / cpu if cpu > 0 else 0.0
    totals = work.setdefault(label, [0.0, 0.0])
    totals[0] += nodes
    totals[1] += cpu
    depths.setdefault(label, []).append(depth)
    print(
        f"   {index:<9} {label:<9} {depth:>5} {seldepth:>8} {nodes:>9} {cpu:>6.2f} {rate:>9.0f}",
        flush=True,
    )


def rapfi_search(command: str, game: Gomoku, moves: str, nodes: int) -> tuple[int, int, float]:
    """Rapfi's search of ``moves`` to ``nodes`` nodes in a process of its own: (depth,
    selective depth, CPU seconds of the process, its start included)."""
    state = game.initial_state()
    cells = []
    for text in moves.split():
        cell = game.parse_move(state, text)
        cells.append(cell)
        state = game.result(state, cell)
    mover = len(cells) % 2
    lines = ["START 15", "INFO thread_num 1", f"INFO max_node {nodes}"]
    lines += ["INFO timeout_turn 600000", "INFO timeout_match 0", "INFO time_left 2147483647"]
    lines.append("BOARD")
    for number, cell in enumerate(cells):
        x, y = game.coordinates(cell)
        lines.append(f"{x},{y},{1 if number % 2 == mover else 2}")
    lines.append("DONE")
    summary = rapfi_session(command, lines)
    found = re.search(r"Depth (\d+)-(\d+)", summary[0]) if summary[0] else None
    depth, seldepth = (int(found[1]), int(found[2])) if found else (0, 0)
    return depth, seldepth, summary[1]


def rapfi_start_cpu(command: str) -> float:
    """The CPU seconds of Rapfi's start (its tables): one move at one node."""
    return rapfi_session(command, ["START 15", "INFO max_node 1", "BEGIN"])[1]


def rapfi_session(command: str, lines: list[str]) -> tuple[str | None, float]:
    """Send ``lines`` to a new Rapfi process and wait for its move, then end it: (its
    last ``MESSAGE Speed`` line, the CPU seconds the process used)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = subprocess.Popen(
        [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("\n".join(lines) + "\n")
    process.stdin.flush()
    summary = None
    for answer in process.stdout:
        if answer.startswith("MESSAGE Speed"):
            summary = answer.strip()
        elif re.fullmatch(r"\d+,\d+", answer.strip()):
            break
    # END only once the move came: an END while it thinks would stop the search
    process.stdin.write("END\n")
    process.stdin.flush()
    process.wait(timeout=60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return summary, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


# ---------------------------------------------------------------- 2. VCF


def vcf_positions(count: int, seed: int = 6) -> list[tuple[list[int], list[int], int]]:
    """Random positions (black's and white's stones, black to move) with a VCF of at
    least three fours that a 100-node search misses and a 200,000-node one proves, with
    the length of the line found."""
    rng = random.Random(seed)
    found: list[tuple[list[int], list[int], int]] = []
    while len(found) < count:
        game = Gomoku(15)  # fresh: the solver remembers failed positions in its game
        centre = [game.action(x, y) for x in range(3, 12) for y in range(3, 12)]
        stones = rng.randrange(8, 15)
        cells = rng.sample(centre, 2 * stones)
        black, white = cells[:stones], cells[stones:]
        try:
            state = game.state_from_stones(black, white, 0)
        except ValueError:
            continue  # a five on the board
        if game.is_terminal(state) or game.winning_action(state) is not None:
            continue
        if game.five_cells(state, 1):
            continue  # the defender threatens five: not a pure VCF position
        if vcf(game, state, budget=100) is not None:
            continue  # too easy to time
        line = vcf(Gomoku(15), state, budget=200_000)
        if line is not None and len(line) >= 5:
            found.append((black, white, len(line)))
    return found


def timed_vcf(
    black: list[int], white: list[int], budget: int, *, shortest: bool = False
) -> tuple[float, int]:
    """Seconds one VCF search takes in a fresh game (nothing remembered), and the plies
    of the win it proved (0 for none)."""
    game = Gomoku(15)
    state = game.state_from_stones(black, white, 0)
    start = time.perf_counter()
    line = vcf(game, state, budget=budget, shortest=shortest)
    return time.perf_counter() - start, 0 if line is None else len(line)


def vcf_times(count: int) -> None:
    budget = Gomoku.DEFAULT_BUDGETS[1]
    print(f"\n2. VCF solver on {count} positions with a win by three or more fours (15x15)")
    positions = vcf_positions(count)
    lengths = [length for _, _, length in positions]
    print(f"   line length (plies) mean {statistics.mean(lengths):.1f}, max {max(lengths)}")
    for nodes, shortest in ((budget, False), (200_000, False), (budget, True)):
        runs = [
            min(timed_vcf(black, white, nodes, shortest=shortest) for _ in range(3))
            for black, white, _ in positions
        ]
        times = [seconds for seconds, _ in runs]
        plies = [length for _, length in runs if length]
        print(
            f"   budget {nodes:>6} nodes{', shortest' if shortest else ''}: proved "
            f"{len(plies)}/{count} (mean {statistics.mean(plies or [0]):.1f} plies, max "
            f"{max(plies, default=0)}); time mean {statistics.mean(times) * 1000:.2f} ms, "
            f"median {statistics.median(times) * 1000:.2f} ms, worst {max(times) * 1000:.2f} ms",
            flush=True,
        )


# ---------------------------------------------------------------- 3. brain


def brain_times(turn_ms: int, games: int) -> None:
    print(f"\n3. two brains, INFO timeout_turn {turn_ms}, {games} games on 20x20 (in-process)")
    replies = []
    for number in range(games):
        outputs = [_Lines(), _Lines()]
        brains = [GomocupBrain(cast("TextIO", out), messages=False) for out in outputs]
        for brain in brains:
            for line in ("START 20", f"INFO timeout_turn {turn_ms}"):
                brain.handle(line)
        side = number % 2
        command = "BEGIN"
        for _ in range(400):
            start = time.perf_counter()
            brains[side].handle(command)
            replies.append(time.perf_counter() - start)
            answer = outputs[side].last
            if "," not in answer or answer.startswith("ERROR"):
                break
            command = f"TURN {answer}"
            side = 1 - side
    replies.sort()
    limit = turn_ms / 1000
    print(
        f"   {len(replies)} replies: worst {replies[-1] * 1000:.0f} ms, 99th percentile "
        f"{replies[int(0.99 * (len(replies) - 1))] * 1000:.0f} ms, median "
        f"{statistics.median(replies) * 1000:.0f} ms; over the limit: "
        f"{sum(r > limit for r in replies)}"
    )


class _Lines:
    """A text stream that keeps only its last line."""

    last = ""

    def write(self, text: str) -> int:
        lines = text.splitlines()
        if lines:
            self.last = lines[-1]
        return len(text)

    def flush(self) -> None:
        return None


# ---------------------------------------------------------------- 4. match


def random_opening(
    game: Gomoku, rng: random.Random, side: int, stones: int
) -> tuple[tuple[str, ...], Any]:
    """``stones`` random stones, alternately black and white, in the central ``side`` x
    ``side`` square of ``game``'s board: their moves, and the position they make."""
    left, bottom = (game.width - side) // 2, (game.height - side) // 2
    square = [
        game.action(x, y) for x in range(left, left + side) for y in range(bottom, bottom + side)
    ]
    state = game.initial_state()
    moves = []
    for cell in rng.sample(square, stones):
        moves.append(game.format_move(state, cell))
        state = game.result(state, cell)
    return tuple(moves), state


def openings(count: int, seed: int) -> tuple[tuple[str, ...], ...]:
    """``count`` openings of three random stones in the central 5x5, from ``seed``."""
    game = Gomoku(15)
    rng = random.Random(seed)
    return tuple(random_opening(game, rng, 5, 3)[0] for _ in range(count))


def match(
    opponent: str,
    games: int,
    seconds: float,
    *,
    workers: int | None,
    seed: int,
    folder: Path | None,
) -> float:
    engine = f"engine:time={seconds:g},name=zerosum"
    event = Event(
        "match",
        "gomoku",
        (engine, opponent),
        games,
        openings=openings((games + 1) // 2, seed),
        seed=seed,
        time_margin=1.0,
    )
    start = time.perf_counter()

    def progress(record: Any, records: list[Any]) -> None:
        print("." if record.winner is None or record.seats[record.winner] == 0 else "x", end="")
        sys.stdout.flush()

    print(f"   zerosum vs {opponent}: ", end="", flush=True)
    output = None if folder is None else folder / f"{opponent.rpartition('.')[2]}.jsonl"
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    records = run_event(event, output=output, workers=workers, progress=progress)
    wins, draws, losses = tally(records, 0, 1)
    points = wins + draws / 2
    counted = wins + draws + losses  # void games (a worker died twice) score for nobody
    share = points / counted if counted else 0.0
    moves = statistics.mean(len(r.moves) for r in records)
    print(
        f"\n   {counted} games: +{wins} ={draws} -{losses}, {points:g} points, "
        f"{share:.1%} (target {TARGET:.0%}: {'met' if share >= TARGET else 'MISSED'}); "
        f"{moves:.0f} moves a game, {time.perf_counter() - start:.0f} s"
    )
    unusual = adjudications(records)
    if unusual:
        print(f"   adjudicated: {dict(unusual)}")
    return share


def matches(games: int, seconds: float, workers: int | None, folder: Path | None) -> None:
    print(
        f"\n4. matches at {seconds:g} s a move, {games} games each, three-stone openings "
        f"(x marks a lost game)"
    )
    for opponent in ("gomoku.GreedyPlayer", "gomoku.AlphaBetaPlayer"):
        match(opponent, games, seconds, workers=workers, seed=15, folder=folder)


def player_spec(player: str, budget: str, options: list[str], label: str = "zerosum") -> str:
    """The agent spec of our side: ``player`` ``engine`` (what users get: the compiled
    engine when numba is in, else the pure one; ``options`` are engine options),
    ``pure`` (the pure engine), ``kernel`` (the compiled one, ``options`` changing its
    numbers) or ``rapfi`` (another Rapfi build, :func:`other_rapfi`, ``options`` its
    environment), at ``budget`` nodes (``20000``) or seconds (``1s``) a move."""
    limit = f"time={float(budget[:-1]):g}" if budget.endswith("s") else f"nodes={int(budget)}"
    kind = {
        "engine": "engine",
        "pure": "gomoku.pure_player",
        "kernel": "gomoku.kernel_player",
        "rapfi": "gomoku.other_rapfi",
    }
    return ",".join((f"{kind[player]}:{limit},name={label}-{budget}", *options))


def versus_rapfi(
    pairing: str,
    games: int,
    workers: int | None,
    folder: Path | None,
    options: list[str],
    *,
    kind: str,
    seed: int = 23,
    player: str = "engine",
    sprt: SprtSettings | None = None,
    rule: str = "freestyle",
) -> None:
    """Our ``player`` (see :func:`player_spec`, ``options`` its changes) against Rapfi, at
    the budgets of ``pairing`` (``20000:1000``: our nodes or seconds, Rapfi's nodes), on
    the openings of ``kind``, under ``rule`` (Rapfi told by ``INFO rule``); under
    ``sprt``, stopped once the test decides."""
    ours, _, theirs = pairing.partition(":")
    engine = player_spec(player, ours, options, "other" if player == "rapfi" else "zerosum")
    opponent = f"gomoku.rapfi:nodes={int(theirs)},name=rapfi-{int(theirs)}"
    duel(
        engine,
        opponent,
        games,
        workers,
        folder=folder,
        label=f"rapfi-{ours}-{theirs}" + ("" if rule == "freestyle" else f"-{rule}"),
        kind=kind,
        seed=seed,
        sprt=sprt,
        rule=rule,
    )


def versions(
    pairing: str,
    games: int,
    workers: int | None,
    folder: Path | None,
    options: list[str],
    *,
    against: str,
    kind: str,
    seed: int = 23,
    sprt: SprtSettings | None = None,
) -> None:
    """The compiled engine with ``options`` (its numbers changed) against the default one
    (``against`` ``kernel``) or the pure engine (``pure``), each at its budget of
    ``pairing`` (``20000:20000``), on the openings of ``kind`` (random ones from
    ``seed``); under ``sprt``, stopped once the test decides."""
    first, _, second = pairing.partition(":")
    engine = player_spec("kernel", first, options, "changed" if options else "kernel")
    opponent = player_spec(against, second, [], against)
    duel(
        engine,
        opponent,
        games,
        workers,
        folder=folder,
        label=f"versions-{first}-{second}",
        kind=kind,
        seed=seed,
        sprt=sprt,
    )


EVEN_MARGIN = 40
"""How far from even, for the side to move, a random opening ``--openings random-even``
keeps may be scored (in the engine's units; :data:`EVEN`'s bound in Rapfi's)."""

EVEN_NODES = 10_000
"""The nodes of the search that scores each candidate opening for ``random-even``."""


def even_openings(count: int, seed: int) -> tuple[tuple[str, ...], ...]:
    """``count`` random openings the compiled engine scores near even: three or four
    random stones in the central 7x7 (alternately black and white, from ``seed``), kept
    when a search of :data:`EVEN_NODES` nodes from the position, the engine's tables
    emptied first, scores it within :data:`EVEN_MARGIN` for the side to move, as
    :data:`EVEN` was chosen by Rapfi's scores: strength between close engines is measured
    from balanced openings, and :func:`openings`' three central stones leave black far ahead
    (about -90 for white to move in the median)."""
    from zerosum.games.gomoku_kernel import KernelEngine

    game = Gomoku(15)
    engine = KernelEngine(game)
    rng = random.Random(seed)
    chosen: list[tuple[str, ...]] = []
    while len(chosen) < count:
        moves, state = random_opening(game, rng, 7, rng.choice((3, 4)))
        engine.reset()
        score = engine.search(state, Limits(nodes=EVEN_NODES)).score
        if score is not None and abs(score) <= EVEN_MARGIN:
            chosen.append(moves)
    return tuple(chosen)


def chosen_openings(kind: str, count: int, seed: int = 23) -> tuple[tuple[str, ...], ...]:
    """``count`` openings of a kind: ``random`` (three random central stones from
    ``seed``), ``random-even`` (those of :func:`even_openings`), ``balanced``
    (:data:`BALANCED`) or ``even`` (:data:`EVEN`)."""
    if kind == "random":
        return openings(count, seed)
    if kind == "random-even":
        return even_openings(count, seed)
    chosen = BALANCED if kind == "balanced" else EVEN
    if count > len(chosen):
        raise ValueError(f"{kind} has {len(chosen)} openings, not {count}")
    return tuple(tuple(line.split()) for line in chosen[:count])


def duel(
    engine: str,
    opponent: str,
    games: int,
    workers: int | None,
    *,
    folder: Path | None,
    label: str,
    kind: str,
    seed: int = 23,
    sprt: SprtSettings | None = None,
    rule: str = "freestyle",
) -> None:
    """``games`` games of ``engine`` (ours, seat 0) against ``opponent`` under ``rule``:
    each opening (of ``kind``, random ones from ``seed``) played with both colours; the
    score with its Elo interval, seconds a move. Under ``sprt`` the match stops (the games
    running finished) once the test on its game pairs decides, and prints the verdict."""
    event = Event(
        "match",
        "gomoku" if rule == "freestyle" else f"gomoku:rule={rule}",
        (engine, opponent),
        games,
        openings=chosen_openings(kind, (games + 1) // 2, seed),
        seed=23,
        time_margin=1.0,
        sprt=None if sprt is None else sprt.describe(),
    )
    start = time.perf_counter()
    print(f"   {engine} vs {opponent}: ", end="", flush=True)

    def progress(record: Any, records: list[Any]) -> None:
        print("." if record.winner is None or record.seats[record.winner] == 0 else "x", end="")
        sys.stdout.flush()

    output = None if folder is None else folder / f"{label}.jsonl"
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    decided = None if sprt is None else (lambda done: match_sprt(done, sprt).decision is not None)
    records = run_event(event, output=output, workers=workers, progress=progress, stop=decided)
    estimate = match_estimate(records)
    seconds = [0.0, 0.0]
    moves = [0, 0]
    for record in records:
        for ply, used in enumerate(record.move_times):
            # the seat that made this move: the opening's stones are not in move_times
            agent = record.seats[(len(record.moves) - len(record.move_times) + ply) % 2]
            seconds[agent] += used
            moves[agent] += 1
    print(
        f"\n   {estimate.games} games: +{estimate.wins} ={estimate.draws} -{estimate.losses}, "
        f"{estimate.score:.1%}, Elo {format_elo(estimate.elo)} "
        f"[{format_elo(estimate.low)}, {format_elo(estimate.high)}]; seconds a move "
        f"{seconds[0] / max(moves[0], 1):.3f} ours, {seconds[1] / max(moves[1], 1):.4f} theirs; "
        f"{time.perf_counter() - start:.0f} s"
    )
    if sprt is not None:
        print(f"   pairs by our points: {match_pairs(records).describe()}")
        print(f"   {describe_match_sprt(records, sprt, games)}")
    unusual = adjudications(records)
    if unusual:
        print(f"   adjudicated: {dict(unusual)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run of every part")
    parser.add_argument("--games", type=int, help="games per match (default 100, quick 4)")
    parser.add_argument("--time", type=float, help="engine seconds a move (default 1, quick 0.2)")
    parser.add_argument("--workers", type=int, help="match processes (default: one per core)")
    parser.add_argument("--seconds", type=float, help="speed: seconds a position (default 1)")
    parser.add_argument("--only", choices=("speed", "vcf", "brain", "match", "rapfi", "versions"))
    parser.add_argument(
        "--rule",
        choices=RULES,
        default="freestyle",
        help="rapfi: the rule of the games (renju: our side is the pure engine, which "
        "alone knows the forbidden moves)",
    )
    parser.add_argument(
        "--versus",
        action="append",
        help="rapfi: OURS:THEIRS, our nodes (or seconds, 1s) and Rapfi's nodes a move; repeatable",
    )
    parser.add_argument(
        "--set",
        action="append",
        metavar="NAME=VALUE",
        help="rapfi, versions: an engine option for our side (null_move=off), or with "
        "--player kernel (and in versions) a kernel number (lmr_scale=120); repeatable",
    )
    parser.add_argument(
        "--player",
        choices=("engine", "pure", "kernel", "rapfi"),
        default="engine",
        help="rapfi: our side, the engine users get (compiled when numba is in), the pure "
        "engine, the compiled one with --set changing its numbers, or another Rapfi build "
        "(RAPFI_OTHER) with --set adding to its environment",
    )
    parser.add_argument(
        "--against",
        choices=("kernel", "pure"),
        default="kernel",
        help="versions: the other side, the default compiled engine or the pure one",
    )
    parser.add_argument(
        "--openings",
        choices=("random", "random-even", "balanced", "even"),
        default="random",
        help="rapfi, versions: three random central stones (from --seed), random ones "
        "the compiled engine scores near 0 (from --seed), the BALANCED four-stone ones, "
        "or the EVEN ones Rapfi scores near 0",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=23,
        help="rapfi, versions: the seed of the random openings (default 23; another seed "
        "gives other games to confirm a result on)",
    )
    parser.add_argument(
        "--records", type=Path, help="a folder for each match's games (JSON lines, new files)"
    )
    parser.add_argument(
        "--sprt",
        nargs="+",
        metavar="NAME=VALUE",
        help="rapfi, versions: stop each match once an SPRT on its game pairs decides "
        "(elo0=0 elo1=15 [alpha=0.05] [beta=0.05] [model=logistic|normalized]); --games "
        "is then the most it plays",
    )
    args = parser.parse_args()
    sprt = None
    if args.sprt is not None:
        try:
            sprt = SprtSettings.parse(" ".join(args.sprt))
        except ValueError as error:
            parser.error(f"--sprt: {error}")
    if args.openings == "random-even" and not kernels.available():
        parser.error("--openings random-even: the compiled engine scores the openings (numba)")
    quick = args.quick
    # the matches name their opponents as gomoku.<Class>: this file, importable by name
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    parts = (args.only,) if args.only else ("speed", "vcf", "brain", "match", "rapfi", "versions")
    if "speed" in parts:
        speed(args.seconds or 1.0, 3 if quick else len(MIDGAME))
    if "vcf" in parts:
        vcf_times(5 if quick else 20)
    if "brain" in parts:
        brain_times(200 if quick else 1000, 1 if quick else 4)
    if "match" in parts:
        games, seconds = args.games or (4 if quick else 100), args.time or (0.2 if quick else 1.0)
        matches(games, seconds, args.workers, args.records)
    if "rapfi" in parts:
        if os.environ.get("RAPFI"):
            games = args.games or (4 if quick else 20)
            print(f"\n5. against Rapfi ({os.environ['RAPFI']}), {games} games a pairing")
            for pairing in args.versus or ["20000:1000"]:
                versus_rapfi(
                    pairing,
                    games,
                    args.workers,
                    args.records,
                    args.set or [],
                    kind=args.openings,
                    seed=args.seed,
                    player=args.player,
                    sprt=sprt,
                    rule=args.rule,
                )
        else:
            print("\n5. against Rapfi: skipped (set RAPFI to the path of a Rapfi executable)")

    if "versions" in parts:
        games = args.games or (4 if quick else 70)
        print(f"\n6. versions of the compiled engine, {games} games a pairing")
        for pairing in args.versus or ["20000:20000"]:
            versions(
                pairing,
                games,
                args.workers,
                args.records,
                args.set or [],
                against=args.against,
                kind=args.openings,
                seed=args.seed,
                sprt=sprt,
            )


if __name__ == "__main__":
    main()
