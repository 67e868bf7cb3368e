"""The production search: negamax alpha-beta with everything that makes it strong.

:class:`Engine` searches one game. It keeps its transposition table between searches, so
that playing a game move after move reuses what it learnt; :meth:`Engine.reset` forgets.

* **Iterative deepening** is a generator: :meth:`Engine.iterate` yields one
  :class:`Report` per completed depth and the caller decides when to stop.
  :meth:`Engine.search` runs it under :class:`Limits` and returns the last completed
  iteration as an :class:`EngineResult`. Only completed iterations are trusted. A game
  without ``evaluate`` cannot stop early, so it is searched to the end in one iteration
  (or to ``Limits.depth``, raising :class:`~zerosum.game.MissingCapabilityError` if
  that horizon is reached); so is any game that :meth:`Engine.search` is given no
  limit at all for. Deepening stops as soon as an iteration met no horizon: the game
  is then solved from the root.
* **Alpha-beta** in negamax form, fail-soft, with **principal-variation search** (every
  move after the first is tried with a null window and re-searched only if it beats
  alpha) and **aspiration windows** around the previous iteration's score, widened on
  failure.
* **Transposition table** (:mod:`zerosum.search.table`): cut-offs from stored bounds of
  sufficient depth (never at PV nodes, so the principal variation stays whole), the
  stored move tried first after a legality check. A subtree in which every line ended is
  stored with :data:`~zerosum.search.table.DEPTH_END`, so it is reused at any depth and
  lets the deepening loop notice a solved game.
* **Move ordering**: the table move (tried before the other moves are even generated),
  then the game's own order (``ordered_actions``); for games without one, the two
  killer moves of the ply and then the rest by the history heuristic.
* **Quiescence** at the horizon for games with ``noisy_actions``: stand pat on
  ``evaluate`` and search only the noisy moves, by ``capture_value`` when the game
  gives one (MVV-LVA in chess); in the tree the noisy moves then come right after the
  table move, in that order, before the killers and the quiet moves by history.
* **Selective search** for games that say when the side to move is in check
  (``in_check``), each an :class:`EngineOptions` switch: *check extensions* (a node in
  check is searched a ply deeper, up to twice the iteration's depth); *null-move
  pruning* for games with ``null_move`` (at a non-PV node not in check whose static
  value reaches beta, the side to move passes and a search two or three plies shallower
  that still fails high cuts the node); *late-move reductions* (from the fourth move on,
  a quiet move, not a killer and giving no check, is searched a ply or two shallower with
  a null window, and again in full only if it beats alpha); *futility pruning* (at one
  or two plies from the horizon, outside the PV and not in check, quiet moves are skipped
  when the static value plus ``futility_margin`` per ply cannot reach alpha). These
  prune unsoundly by design, as every chess engine does: a game without ``in_check``
  (every game but chess so far) is searched exactly as before, and a proven mate is
  still a mate (pruned moves never score as wins), though not always the fastest.
* **Null-window solving nodes**: a search to the end with a null window (what every
  probe of an MTD solver is) on a game with ``non_losing_actions`` and
  ``winning_action`` runs a lean copy of the node that keeps only what such a search
  uses (no principal variation, depth, horizon, killers or history), as Stockfish
  separates its non-PV nodes; both visit the same tree, and the lean one takes 18% less
  time on connect four's solves.
* **Win distances**: a terminal state scores ``+-(WIN - ply)`` for ``win_loss`` games, so
  the engine takes the fastest win and the slowest loss; mate-distance pruning trims
  windows that cannot be reached.
* **Limits** on depth, nodes, time and a :class:`threading.Event`: the recursion polls
  them every ``EngineOptions.poll_interval`` nodes (a counter compare per node), or
  about every millisecond when there is a time limit or a stop signal and the game's
  nodes are slow (gomoku's: 10 to 50 thousand a second), and unwinds with an internal
  exception. The game's threat search polls the time and the stop signal itself
  (``forced_win``'s ``expired``), so that no part of a search runs unpolled.
  :meth:`Engine.search_window` takes limits too and raises :class:`SearchStopped` when
  one strikes; :meth:`Engine.proven_move` then reads from the table the move that
  proved a solver's lower bound.

Every option can be switched off in :class:`EngineOptions`, so that two versions of the
engine can be compared in a match.

Capabilities are looked up once, when the engine is made, never per node:

``key(s)``
    a hashable key of the position including the side to move; without it the state
    itself is the key if it is hashable, else the table is not used.
``evaluate(s)``
    the heuristic value for the side to move, inside the win band.
``ordered_actions(s)``
    the legal moves, most promising first.
``noisy_actions(s)``
    the moves quiescence search follows (captures and the like).
``capture_value(s, a)``
    the ordering value of the noisy move ``a`` (higher first: MVV-LVA), for
    :attr:`EngineOptions.capture_order`.
``in_check(s)``
    whether the side to move is in check: the switch of the selective features. Such a
    node is never reduced, pruned or passed from, and a move giving check is never quiet.
``null_move(s) -> state | None``
    the state with the side to move passing, or ``None`` where passing would mislead
    (a side prone to zugzwang, in chess one with only king and pawns), for
    :attr:`EngineOptions.null_move`.
``winning_action(s) -> action | None``
    a move that wins at once. Called where no other hook already rules it out.
``non_losing_actions(s)``
    the legal moves after which the opponent cannot win at once, best first (a game may
    leave out more moves it judges hopeless, as gomoku keeps its best candidates); it
    replaces the move list at every node, the root included unless every root move is
    to be scored (``multipv``) or the list is empty there, and an empty list below the
    root scores the node as lost in two plies. Together with ``winning_action`` it also
    tightens the window: no win is nearer than three plies once no move wins at once,
    no loss nearer than four once a safe move exists.
``score_bounds(s) -> (lo, hi)``
    bounds on the engine score of ``s`` for the side to move, measured as if ``s`` were
    the root; the engine shifts win scores by the ply and narrows the window with them.
``non_losing_actions_and_bounds(s) -> (moves, (lo, hi))``
    the two hooks above in one call, for a game that finds both from the same work (the
    threats that make a move unsafe also bound the score); the engine then calls it in
    their place at every node.
``window_value(s, alpha, beta) -> score | None``
    the game's own search of ``s`` to the end, fail-soft within the window ``(alpha,
    beta)`` (exact inside it, a bound on the same side outside), or ``None`` to leave
    ``s`` to the engine: a dedicated solver for small endgames (othello's last
    empties), asked at every node right after the end-of-game test, its answer
    returned as the node's value (no table entry, the principal variation ending
    there). Scores and window are measured as if ``s`` were the root, as for
    ``score_bounds``. Given the window rather than asked for the exact value, it cuts
    as the engine would. It should answer only where it is much cheaper than the
    engine's nodes, and give up (``None``) after a few milliseconds: the engine cannot
    poll its limits inside it, only after each call (a search with a time limit or a
    stop signal reads the clock then).
``forced_win(s, deep, expired) -> line | None``
    the game's threat search (gomoku's victory by continuous fours, say): a forced win
    for the side to move as the moves of both sides, the last one winning, or ``None``.
    With ``deep=False`` it is asked at every horizon node before ``evaluate`` and must be
    cheap; a line found there scores as a win in ``len(line)`` plies. With ``deep=True``
    it is asked once at the root of each search (without ``multipv``) and may spend more,
    within a budget small against a move's time; a line found there ends the search
    with one report whose principal variation is the line. ``expired`` is ``None`` when
    the search has no time limit or stop signal, else a callable telling whether one has
    struck: the threat search should call it every few of its own nodes and give up
    (``None``) when it answers ``True``, as it does when its budget runs out. A hook of
    the older form ``forced_win(s, deep)`` still works (found once, when the engine is
    made) but cannot be interrupted. A threat search proves wins it finds, not their
    distance, so these scores are not guaranteed to be the fastest win
    (:attr:`EngineOptions.threats` switches it off).

``winning_action``, ``non_losing_actions``, ``score_bounds`` and ``window_value`` are the
solving hooks (:attr:`EngineOptions.solver_hooks`); a game that offers them should make
them cheap, since they run at every interior node.
"""

from __future__ import annotations

import inspect
import time
from collections import defaultdict
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from zerosum.game import (
    INFINITY,
    MAX_PLY,
    WIN,
    WIN_THRESHOLD,
    Game,
    MissingCapabilityError,
    describe_state,
    is_win_score,
)
from zerosum.search.reference import SearchDepthError
from zerosum.search.table import (
    DEPTH_END,
    EXACT,
    LOWER,
    MIX,
    UPPER,
    TableEntry,
    TranspositionTable,
)

__all__ = [
    "Engine",
    "EngineOptions",
    "EngineResult",
    "EngineStats",
    "Limits",
    "Report",
    "SearchStopped",
    "StopReason",
    "StopSignal",
    "WindowResult",
]

_NO_POLL = 1 << 62
"""A node count no search reaches: the poll never fires when there is nothing to poll."""

_NO_KILLERS = (None,) * (MAX_PLY + 2)
"""The killer slots of every ply, empty: copied over the killer lists at each search."""

_NO_NULLS = (False,) * (MAX_PLY + 2)
"""No ply follows a null move: copied over a reused searcher's flags of the plies."""

_POLL_SECONDS = 0.001
"""How often a search with a time limit or a stop signal aims to poll them, in seconds."""

_HISTORY_DEPTH_CAP = 64
"""Drafts above this (searches to the end) all earn the same history bonus."""


def _terminal_score(game: Game[Any, Any], state: Any, ply: int) -> int:
    """The engine score of a finished ``state``, ``ply`` plies from the root, for the
    side to move there: ``WIN - ply`` for a win of a win/loss game (so nearer wins score
    higher), the loss mirrored, 0 a draw; otherwise the utility in points."""
    value: int = game.utility(state, game.to_move(state))
    if game.info.win_loss:
        return WIN - ply if value > 0 else (ply - WIN if value < 0 else 0)
    return value


class StopSignal(Protocol):
    """Anything another thread or process can raise to stop a search: a
    :class:`threading.Event`, or a flag in shared memory with the same ``is_set``."""

    def is_set(self) -> bool:
        """Tell whether the search should stop now."""
        ...


StopReason = Literal["stop", "time", "nodes"]
"""Which limit ended a search: the stop signal, the time or the node count."""


class _LimitReachedError(Exception):
    """Raised inside the recursion to unwind it when a limit is reached; ``reason`` says
    which."""

    def __init__(self, reason: StopReason) -> None:
        super().__init__(reason)
        self.reason: StopReason = reason


class SearchStopped(Exception):  # noqa: N818 - a search result, not an error
    """A limit ended :meth:`Engine.search_window` before it finished.

    ``reason`` is ``"stop"`` (the stop signal), ``"time"`` or ``"nodes"``; ``nodes`` the
    nodes searched until then. The table keeps what the finished subtrees proved."""

    def __init__(self, reason: StopReason, nodes: int) -> None:
        super().__init__(f"search stopped by its {reason} limit after {nodes} nodes")
        self.reason: StopReason = reason
        self.nodes = nodes


@dataclass(frozen=True, slots=True)
class Limits:
    """When a search stops: a depth in plies, a node count, seconds, or an event.

    Every limit is optional; with none, the search runs until the game is solved from
    the root. ``stop`` is a :class:`StopSignal` (a :class:`threading.Event`, say) that another
    thread or process may set. ``soft_time`` is a clock's soft budget
    (:func:`zerosum.search.clock.budget`): no new iteration starts once it has passed,
    since the next would most likely not finish before ``time``, the hard limit."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    stop: StopSignal | None = None
    soft_time: float | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and not 1 <= self.depth <= MAX_PLY:
            raise ValueError(f"depth limit must be 1 to {MAX_PLY} plies, not {self.depth}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"node limit must be at least 1, not {self.nodes}")
        if self.time is not None and not self.time > 0:
            raise ValueError(f"time limit must be a positive number of seconds, not {self.time}")
        if self.soft_time is not None and not self.soft_time >= 0:
            raise ValueError(f"soft time must be 0 or more seconds, not {self.soft_time}")


@dataclass(frozen=True, slots=True)
class EngineOptions:
    """The engine's switches and sizes; the defaults are the strongest settings.

    ``killers`` and ``history`` left at ``None`` are on for games that give no ordering
    hints (``ordered_actions`` or ``non_losing_actions``) and off for games that do,
    whose own order then comes right after the table move; ``True`` puts them (killers
    first, then the rest by history, ties in the game's order) before the game's order.
    ``table_size`` bounds the transposition table (entries); ``aspiration_window`` is
    the first half-width of the window around the previous score, in the game's units;
    ``poll_interval`` is how many nodes pass between two checks of the limits (at most:
    a search with a time limit or a stop signal checks them about every millisecond,
    fewer nodes apart in a game whose nodes are slow);
    ``threats`` lets the game's ``forced_win`` threat search run; ``null_nodes`` lets a
    null-window search to the end (a solver's probe) run the lean node made for it, which
    visits the same tree as the general one, faster.

    The chess features (see the module notes): ``capture_order`` orders noisy moves by
    the game's ``capture_value``; ``check_extensions``, ``null_move``, ``lmr`` (late-move
    reductions) and ``futility`` (with ``futility_margin``, in the game's units per ply
    from the horizon) are the selective search, which only games with ``in_check`` get.
    Each was measured against the engine without it (``bench/chess_features.py``); late-move
    reductions are off by default because no match has shown them to pay yet (about zero
    Elo at 1000 and 3000 nodes a move)."""

    table_size: int = 1 << 18
    use_table: bool = True
    hints: bool = True
    killers: bool | None = None
    history: bool | None = None
    pvs: bool = True
    aspiration: bool = True
    aspiration_window: int = 25
    quiescence: bool = True
    solver_hooks: bool = True
    poll_interval: int = 256
    threats: bool = True
    null_nodes: bool = True
    capture_order: bool = True
    check_extensions: bool = True
    null_move: bool = True
    lmr: bool = False
    futility: bool = True
    futility_margin: int = 200

    def __post_init__(self) -> None:
        if self.table_size < 1:
            raise ValueError(f"table_size must be at least 1 entry, not {self.table_size}")
        if self.aspiration_window < 1:
            raise ValueError(f"aspiration_window must be at least 1, not {self.aspiration_window}")
        if self.poll_interval < 1:
            raise ValueError(f"poll_interval must be at least 1 node, not {self.poll_interval}")
        if self.futility_margin < 1:
            raise ValueError(f"futility_margin must be at least 1, not {self.futility_margin}")


@dataclass(frozen=True, slots=True)
class Report:
    """One completed iteration of iterative deepening.

    ``score`` is for the side to move at the root; ``nodes`` and ``elapsed`` count from
    the start of the search; ``hashfull`` is the table's fill in thousandths;
    ``solved`` says no line met the horizon, so the score is the game's exact value;
    ``root_scores`` (with ``multipv``) maps every root move to its exact score at this
    depth, best first."""

    depth: int
    score: int
    pv: tuple[Any, ...]
    best_move: Any
    nodes: int
    nps: int
    elapsed: float
    hashfull: int
    seldepth: int
    solved: bool
    cutoffs: int = 0
    table_hits: int = 0
    root_scores: dict[Any, int] | None = None


@dataclass(frozen=True, slots=True)
class EngineStats:
    """The counts of a whole search (every iteration).

    ``depth`` is the last completed iteration (0 if none completed), ``seldepth`` the
    deepest ply visited, ``time`` seconds, ``stopped`` whether a limit cut it short."""

    nodes: int
    cutoffs: int
    table_hits: int
    table_probes: int
    depth: int
    seldepth: int
    time: float
    hashfull: int
    solved: bool
    stopped: bool


@dataclass(frozen=True, slots=True)
class EngineResult:
    """What :meth:`Engine.search` found: the last completed iteration.

    ``best_move`` is ``None`` only when the game is over at the root. If a limit struck
    before any iteration completed, ``best_move`` is the first ordered legal move and
    ``score`` is ``None``. ``root_scores`` is filled when ``multipv`` was asked."""

    best_move: Any
    score: int | None
    pv: tuple[Any, ...]
    root_scores: dict[Any, int] | None
    stats: EngineStats


@dataclass(frozen=True, slots=True)
class WindowResult:
    """One fixed-window search (:meth:`Engine.search_window`).

    Fail-soft: a ``score`` at or below ``alpha`` is an upper bound on the true value, at
    or above ``beta`` a lower bound, in between exact. ``pv`` is filled for windows wider
    than one."""

    score: int
    pv: tuple[Any, ...]
    nodes: int


class _Searcher:
    """One search's state and its recursive functions, built as closures for speed.

    The counters live in the closure (cell variables are fast to read and write); the
    bound methods of the game, the table slots and every switch are bound once here.
    ``deadline`` is a :func:`time.perf_counter` time, ``node_limit`` a count of this
    searcher's nodes, ``tick`` a callable given the nodes searched at every poll."""

    def __init__(
        self,
        engine: Engine,
        deadline: float | None,
        node_limit: int | None,
        stop: StopSignal | None,
        tick: Callable[[int], None] | None = None,
    ) -> None:
        caps = engine._caps
        options = engine.options
        game = engine.game
        is_terminal = game.is_terminal
        utility = game.utility
        to_move = game.to_move
        result = game.result
        actions = game.actions
        win_loss = game.info.win_loss
        # a game where one side may move twice running asks whose turn it is after each
        # move, and a child's value is negated, and its window swapped, only where the
        # side changes; an alternating game skips the question
        alternating = game.info.alternating
        evaluate: Callable[[Any], int] | None = caps.evaluate
        keyf = caps.key
        gen = caps.ordered if caps.ordered is not None else game.actions
        winning = caps.winning
        bounds = caps.bounds
        windowed = caps.windowed
        safe = caps.safe
        noisy = caps.noisy
        forced = caps.forced
        table = engine.table
        use_table = table is not None and engine._keyable
        slots = table.slots if table is not None else []
        mask = table.mask if table is not None else 0
        shift = table.shift if table is not None else 64
        mix = MIX
        store = table.store if table is not None else None
        # the game's own ordering beats the generic heuristics wherever the game has one
        # (measured on tic-tac-toe, m,n,k and connect four): by default killers and
        # history serve only games without hints
        hinted = caps.ordered is not None or safe is not None
        use_killers = options.killers if options.killers is not None else not hinted
        use_history = options.history if options.history is not None else not hinted
        reorder = use_killers or use_history
        use_pvs = options.pvs
        interval = options.poll_interval
        # the selective features (see EngineOptions) serve games that say when the side
        # to move is in check: never reduce, prune or pass there, and a move that gives
        # check is never quiet
        checked = caps.checked
        capture = caps.capture if noisy is not None else None
        selective = checked is not None and evaluate is not None and noisy is not None
        extend = options.check_extensions and checked is not None
        passing = caps.passing if evaluate is not None else None
        use_lmr = options.lmr and use_pvs and selective
        use_futility = options.futility and selective
        margin = options.futility_margin
        look = extend or passing is not None or use_lmr or use_futility
        classify = capture is not None or use_lmr or use_futility
        extend_until = 0  # the ply from which checks are no longer extended
        after_null = [False] * (MAX_PLY + 2)
        no_moves = _NO_MOVES
        first_killers, second_killers = engine._killers
        dirty = engine._dirty_plies  # only the plies the last search reached
        first_killers[:dirty] = second_killers[:dirty] = _NO_KILLERS[:dirty]
        engine._dirty_plies = MAX_PLY + 2  # until this search says how deep it went
        histories: tuple[defaultdict[Any, int], defaultdict[Any, int]] = (
            defaultdict(int),
            defaultdict(int),
        )
        pv_lines = engine._pv_lines
        # a move from non_losing_actions leaves the opponent no win at once: below the
        # first ply whose parent chose from that list, winning_action is known to fail
        filtered_from = _NO_POLL
        wt = WIN_THRESHOLD
        # a table below its capacity grows at the polls, so they run even without limits
        growable = table is not None and len(slots) < table.capacity

        # searches to the end with a null window take null_node, made for them: it needs
        # the hooks that rule out a win at once (winning_action at its root, the safe
        # moves below) and the game's own move order
        lean = (
            options.null_nodes
            and win_loss
            and safe is not None
            and winning is not None
            and use_table
            and not reorder
        )
        nodes = 0
        base = 0  # the node count when the limits were set
        next_poll = _NO_POLL
        # the table grows at polls every interval nodes, however the limits are polled,
        # so that they never change the tree searched
        grow_at = interval
        # polls with a clock are paced by time: the nodes between two (at most interval,
        # from one at the start) and when and at which count the last one was
        step = interval
        polled_at = 0.0
        polled_nodes = 0
        threat_poll: Callable[[], bool] | None = None
        horizon = 0
        seldepth = 0
        cutoffs = 0
        hits = 0
        probes = 0

        def poll() -> None:
            nonlocal slots, mask, shift, growable, grow_at, step, polled_at, polled_nodes
            if growable and nodes >= grow_at:
                grow_at = nodes + interval
                if table.grow():  # type: ignore[union-attr]
                    slots, mask, shift = table.slots, table.mask, table.shift  # type: ignore[union-attr]
                    growable = len(slots) < table.capacity  # type: ignore[union-attr]
            if stop is not None and stop.is_set():
                raise _LimitReachedError("stop")
            if threat_poll is not None:  # set when there is a deadline or a stop signal
                now = time.perf_counter()
                if deadline is not None and now >= deadline:
                    raise _LimitReachedError("time")
                # a node of gomoku costs a hundred of connect four: aim the next poll
                # _POLL_SECONDS ahead at the speed since the last one, doubling at most
                spent = now - polled_at
                done = nodes - polled_nodes
                if spent > 0 and done * _POLL_SECONDS < step * spent:
                    step = max(1, int(done * _POLL_SECONDS / spent))
                elif step < interval:
                    step = min(interval, 2 * step)
                polled_at, polled_nodes = now, nodes
            if tick is not None:
                tick(nodes - base)
            if node_limit is not None and nodes >= node_limit:
                raise _LimitReachedError("nodes")
            schedule()

        def schedule() -> None:
            """Set the node count of the next poll: ``step`` nodes on when there are
            limits or a tick, the next growth check of the table, or the node limit,
            whichever comes first."""
            nonlocal next_poll
            polled = node_limit is not None or threat_poll is not None or tick is not None
            upcoming = nodes + step if polled else _NO_POLL
            if growable and grow_at < upcoming:
                upcoming = grow_at
            if node_limit is not None and node_limit < upcoming:
                upcoming = node_limit
            next_poll = upcoming

        def expired() -> bool:
            """Tell whether the time is up or the stop signal set: the threat search's poll."""
            return (stop is not None and stop.is_set()) or (
                deadline is not None and time.perf_counter() >= deadline
            )

        def limit(
            new_deadline: float | None,
            new_nodes: int | None,
            new_stop: StopSignal | None,
            new_tick: Callable[[int], None] | None,
        ) -> None:
            """Set the limits of the next search: a deadline, ``new_nodes`` more nodes, a
            stop signal, a callable told the nodes searched at every poll."""
            nonlocal deadline, node_limit, stop, tick, base, threat_poll
            nonlocal step, polled_at, polled_nodes
            deadline, stop, tick, base = new_deadline, new_stop, new_tick, nodes
            node_limit = None if new_nodes is None else nodes + new_nodes
            if deadline is not None or stop is not None:
                threat_poll = expired
                # from the first node: a signal set before the search stops it at once
                step, polled_at, polled_nodes = 1, time.perf_counter(), nodes
            else:
                threat_poll = None
                step = interval  # no clock to pace the polls by
            schedule()

        def missing_evaluate(state: Any) -> MissingCapabilityError:
            return MissingCapabilityError(
                f"the depth limit was reached at {describe_state(game, state)}, but game "
                f"{game.info.name!r} has no evaluate(); search without a depth limit"
            )

        def qnode(state: Any, alpha: int, beta: int, ply: int) -> int:
            nonlocal nodes, seldepth
            nodes += 1
            if nodes >= next_poll:
                poll()
            if ply > seldepth:  # noqa: PLR1730 - a compare is cheaper than calling max
                seldepth = ply
            if is_terminal(state):
                return _terminal_score(game, state, ply)
            best: int = evaluate(state)  # type: ignore[misc]
            if best >= beta:
                return best
            if best > alpha:  # noqa: PLR1730 - a compare is cheaper than calling max
                alpha = best
            captures = noisy(state)  # type: ignore[misc]
            if capture is not None and len(captures) > 1:
                captures = sorted(captures, key=lambda move: capture(state, move), reverse=True)
            mover = None if alternating else to_move(state)
            for move in captures:
                child = result(state, move)
                if mover is not None and to_move(child) == mover:
                    score = qnode(child, alpha, beta, ply + 1)
                else:
                    score = -qnode(child, -beta, -alpha, ply + 1)
                if score > best:
                    best = score
                    if score > alpha:
                        if score >= beta:
                            break
                        alpha = score
            return best

        quiesce = (
            qnode if options.quiescence and noisy is not None and evaluate is not None else None
        )

        def order(moves: Sequence[Any], tt_move: Any, ply: int, side: int) -> Sequence[Any]:
            """Put the table move first, then the killers, then the rest by history."""
            if len(moves) < 2:
                return moves
            if use_history:
                moves = sorted(moves, key=histories[side].__getitem__, reverse=True)
            else:
                moves = list(moves)
            if use_killers:
                killer = second_killers[ply]
                if killer is not None and killer in moves:
                    moves.remove(killer)
                    moves.insert(0, killer)
                killer = first_killers[ply]
                if killer is not None and killer in moves:
                    moves.remove(killer)
                    moves.insert(0, killer)
            if tt_move is not None:
                moves.remove(tt_move)
                moves.insert(0, tt_move)
            return moves

        def split(
            state: Any, moves: Sequence[Any], tt_move: Any, ply: int, side: int
        ) -> tuple[Sequence[Any], frozenset[Any] | set[Any]]:
            """:func:`order` with the noisy moves apart: the table move, then the noisy
            moves by the game's ``capture_value`` (when ordering by it), then the rest;
            also return the noisy moves, which are never reduced or pruned."""
            found = noisy(state)  # type: ignore[misc]
            if not found:
                return order(moves, tt_move, ply, side), _NO_MOVES
            noisy_set = set(found)
            if capture is None:
                return order(moves, tt_move, ply, side), noisy_set
            ranked = sorted(found, key=lambda move: capture(state, move), reverse=True)
            quiet = order([move for move in moves if move not in noisy_set], None, ply, side)
            ordered = [*ranked, *quiet]
            if tt_move is not None:
                ordered.remove(tt_move)
                ordered.insert(0, tt_move)
            return ordered, noisy_set

        def node(state: Any, depth: int, alpha: int, beta: int, ply: int) -> int:
            nonlocal nodes, horizon, seldepth, cutoffs, hits, probes
            nodes += 1
            if nodes >= next_poll:
                poll()
            if ply > seldepth:  # noqa: PLR1730 - a compare is cheaper than calling max
                seldepth = ply
            if is_terminal(state):
                # _terminal_score inlined: this runs at every node, and a call costs more
                value: int = utility(state, to_move(state))
                if win_loss:
                    return WIN - ply if value > 0 else (ply - WIN if value < 0 else 0)
                return value
            if windowed is not None:
                found = windowed(state, _shift(alpha, ply), _shift(beta, ply))
                if threat_poll is not None:
                    poll()  # the hook's search costs far more than a node: read the clock
                if found is not None:
                    return _shift(found, -ply)
            pv_node = beta - alpha > 1
            no_win_now = ply >= filtered_from
            if winning is not None and not no_win_now:
                win = winning(state)
                if win is not None:
                    if pv_node:
                        pv_lines[ply] = (win,)
                    return WIN - ply - 1
                no_win_now = True
            in_check = look and checked(state)  # type: ignore[misc]
            if in_check and extend and ply < extend_until:
                depth += 1
            if depth <= 0:
                horizon += 1
                if forced is not None:
                    line = forced(state, False, threat_poll)
                    if line:
                        if pv_node:
                            pv_lines[ply] = tuple(line)
                        return WIN - ply - len(line)
                if quiesce is not None:
                    return quiesce(state, alpha, beta, ply)
                if evaluate is None:
                    raise missing_evaluate(state)
                return evaluate(state)
            if win_loss:
                # mate-distance pruning: nothing beats a win on the next move (or, when
                # the hooks rule that out, two moves later)
                high = WIN - ply - (3 if no_win_now else 1)
                if beta > high:
                    if alpha >= high:
                        return high
                    beta = high

            tt_move = None
            if use_table:
                key = keyf(state) if keyf is not None else state
                probes += 1
                entry = slots[(hash(key) * mix >> shift) & mask]
                if entry is not None and entry[0] == key:
                    hits += 1
                    tt_move = entry[4]
                    if not pv_node and entry[1] >= depth:
                        stored = entry[3]
                        if stored >= wt:
                            stored -= ply
                        elif stored <= -wt:
                            stored += ply
                        flag = entry[2]
                        if (
                            flag == EXACT
                            or (flag == LOWER and stored >= beta)
                            or (flag == UPPER and stored <= alpha)
                        ):
                            if entry[1] < DEPTH_END:
                                horizon += 1
                            return stored

            static = None
            if (
                passing is not None
                and not pv_node
                and not in_check
                and depth >= 2
                and not after_null[ply]
                and -wt < beta < wt
            ):
                # null-move pruning: if passing still fails high at a reduced depth,
                # a real move will too (the game's null_move refuses where that fails)
                static = evaluate(state)  # type: ignore[misc]
                if static >= beta:
                    passed = passing(state)
                    if passed is not None:
                        after_null[ply + 1] = True
                        score = -node(
                            passed, depth - (4 if depth >= 6 else 3), -beta, 1 - beta, ply + 1
                        )
                        after_null[ply + 1] = False
                        if score >= beta:
                            return beta if score >= wt else score
            # futility pruning: near the horizon, quiet moves cannot lift a static value
            # far below alpha up to it
            futile = -INFINITY
            if use_futility and not pv_node and not in_check and depth <= 2 and -wt < alpha < wt:
                if static is None:
                    static = evaluate(state)  # type: ignore[misc]
                if static + margin * depth <= alpha:
                    futile = static + margin * depth

            # the table move is tried before the moves are generated: when it cuts off,
            # as it mostly does, generating and ordering the rest is saved
            staged = False
            noisy_set: frozenset[Any] | set[Any] = no_moves
            if safe is not None:
                moves: Sequence[Any]
                moves, (low, high) = safe(state)
                if not moves:
                    return ply + 2 - WIN
                if tt_move is not None and tt_move not in moves:
                    tt_move = None
            else:
                if tt_move is not None and tt_move in actions(state):
                    moves = (tt_move,)
                    staged = True
                else:
                    tt_move = None
                    moves = ()
                low, high = bounds(state) if bounds is not None else _OPEN_BOUNDS
            if safe is not None or bounds is not None:
                if low >= wt:
                    low -= ply
                elif low <= -wt:
                    low += ply
                    if safe is not None and low < ply + 4 - WIN:
                        low = ply + 4 - WIN  # a safe move puts off any loss for four plies
                if high >= wt:
                    high -= ply
                elif high <= -wt:
                    high += ply
                if low > alpha:
                    if low >= beta:
                        return low
                    alpha = low
                if high < beta:
                    if high <= alpha:
                        return high
                    beta = high

            mover = None if alternating else to_move(state)
            side = ply & 1 if mover is None else mover
            if not staged:
                if safe is None:
                    moves = gen(state)
                if classify:
                    moves, noisy_set = split(state, moves, tt_move, ply, side)
                elif reorder:
                    moves = order(moves, tt_move, ply, side)
                elif tt_move is not None and moves[0] != tt_move:
                    # the game's own order often puts the table move first already;
                    # otherwise moving it up inline saves order()'s call and list edits
                    moves = (tt_move, *[move for move in moves if move != tt_move])

            start_horizon = horizon
            best = -INFINITY
            best_move = None
            a = alpha
            child_depth = depth - 1
            child_ply = ply + 1
            first = True
            searched = 0
            prune = futile > -INFINITY
            reducing = use_lmr and depth >= 3 and not in_check
            while True:
                for move in moves:
                    child = result(state, move)
                    sign = 1 if mover is not None and to_move(child) == mover else -1
                    reduction = 0
                    if (
                        (prune or (reducing and searched >= 3))
                        and move != tt_move
                        and move not in noisy_set
                        and move != first_killers[ply]
                        and move != second_killers[ply]
                        and not checked(child)  # type: ignore[misc]
                    ):
                        if prune:
                            horizon += 1
                            if futile > best:  # noqa: PLR1730 - cheaper than calling max
                                best = futile
                            continue
                        # late-move reduction: a late quiet move is searched shallower
                        # first, and again in full only if it beats alpha there
                        reduction = 1 if searched < 6 else 2
                    searched += 1
                    if pv_node:
                        pv_lines[child_ply] = ()
                    if sign < 0:
                        full, null = (-beta, -a), (-a - 1, -a)
                    else:
                        full, null = (a, beta), (a, a + 1)
                    if first or not use_pvs:
                        first = False
                        score = sign * node(child, child_depth, *full, child_ply)
                    else:
                        if reduction:
                            score = sign * node(child, child_depth - reduction, *null, child_ply)
                        if not reduction or score > a:
                            score = sign * node(child, child_depth, *null, child_ply)
                        if a < score < beta:
                            pv_lines[child_ply] = ()
                            score = sign * node(child, child_depth, *full, child_ply)
                    if score > best:
                        best = score
                        best_move = move
                        if score > a:
                            if pv_node:
                                pv_lines[ply] = (move, *pv_lines[child_ply])
                            if score >= beta:
                                cutoffs += 1
                                if use_killers and first_killers[ply] != move:
                                    second_killers[ply] = first_killers[ply]
                                    first_killers[ply] = move
                                if use_history:
                                    histories[side][move] += (
                                        depth * depth
                                        if depth < _HISTORY_DEPTH_CAP
                                        else _HISTORY_DEPTH_CAP * _HISTORY_DEPTH_CAP
                                    )
                                staged = False
                                break
                            a = score
                if not staged:
                    break
                staged = False
                if classify:
                    moves, noisy_set = split(state, gen(state), tt_move, ply, side)
                    moves = moves[1:]
                else:
                    moves = order(gen(state), tt_move, ply, side)[1:]
            if use_table:
                store(  # type: ignore[misc]
                    key,
                    depth if horizon != start_horizon else DEPTH_END,
                    UPPER if best <= alpha else (LOWER if best >= beta else EXACT),
                    best,
                    best_move,
                    ply,
                )
            return best

        def null_node(state: Any, depth: int, alpha: int, ply: int) -> int:
            """:func:`node` for the window ``(alpha, alpha + 1)`` searched to the end.

            Only what such a search uses is left: with no horizon there is no depth test
            or evaluation, with a null window no principal variation, and a game with
            ``non_losing_actions`` orders its own moves (no killers or history). The
            steps, and so the tree, are those of :func:`node`."""
            nonlocal nodes, seldepth, cutoffs, hits, probes
            nodes += 1
            if nodes >= next_poll:
                poll()
            if ply > seldepth:  # noqa: PLR1730 - a compare is cheaper than calling max
                seldepth = ply
            if is_terminal(state):
                value: int = utility(state, to_move(state))
                return WIN - ply if value > 0 else (ply - WIN if value < 0 else 0)
            if windowed is not None:
                found = windowed(state, _shift(alpha, ply), _shift(alpha + 1, ply))
                if threat_poll is not None:
                    poll()  # the hook's search costs far more than a node: read the clock
                if found is not None:
                    return _shift(found, -ply)
            if ply < filtered_from and winning(state) is not None:  # type: ignore[misc]
                return WIN - ply - 1
            # mate-distance pruning with beta = alpha + 1: at this ply the hooks rule out
            # a win sooner than three plies
            high = WIN - ply - 3
            if alpha >= high:
                return high
            key = keyf(state) if keyf is not None else state
            probes += 1
            entry = slots[(hash(key) * mix >> shift) & mask]
            tt_move = None
            if entry is not None and entry[0] == key:
                hits += 1
                tt_move = entry[4]
                if entry[1] >= depth:
                    stored = entry[3]
                    if stored >= wt:
                        stored -= ply
                    elif stored <= -wt:
                        stored += ply
                    flag = entry[2]
                    if flag == EXACT or (stored > alpha if flag == LOWER else stored <= alpha):
                        return stored
            moves, (low, high) = safe(state)  # type: ignore[misc]
            if not moves:
                return ply + 2 - WIN
            if low >= wt:
                low -= ply
            elif low <= -wt:
                low += ply
                if low < ply + 4 - WIN:  # noqa: PLR1730 - cheaper than calling max
                    low = ply + 4 - WIN  # a safe move puts off any loss for four plies
            if low > alpha:
                return low
            if high >= wt:
                high -= ply
            elif high <= -wt:
                high += ply
            if high <= alpha:
                return high
            if tt_move is not None and tt_move != moves[0] and tt_move in moves:
                moves = (tt_move, *[move for move in moves if move != tt_move])
            best = -INFINITY
            best_move = None
            child_depth = depth - 1
            child_ply = ply + 1
            child_alpha = -alpha - 1
            mover = None if alternating else to_move(state)
            for move in moves:
                child = result(state, move)
                if mover is not None and to_move(child) == mover:
                    score = null_node(child, child_depth, alpha, child_ply)
                else:
                    score = -null_node(child, child_depth, child_alpha, child_ply)
                if score > best:
                    best = score
                    best_move = move
                    if score > alpha:
                        cutoffs += 1
                        break
            # table.store inlined (4% of a connect-four solve): an entry searched to the
            # end always takes its slot under the table's depth-preferred rule, and win
            # scores are stored relative to this node, as store() does
            index = (hash(key) * mix >> shift) & mask  # the table may have grown since
            if slots[index] is None:
                table.used += 1  # type: ignore[union-attr]
            slots[index] = (
                key,
                DEPTH_END,
                LOWER if best > alpha else UPPER,
                best + ply if best >= wt else (best - ply if best <= -wt else best),
                best_move,
                table.generation,  # type: ignore[union-attr]
            )
            return best

        def root(
            state: Any, moves: Sequence[Any], depth: int, alpha: int, beta: int, *, multipv: bool
        ) -> tuple[int, Any, tuple[Any, ...], list[int]]:
            """Search every root move; return score, best move, PV and per-move scores."""
            nonlocal nodes, horizon, filtered_from, extend_until
            nodes += 1
            if nodes >= next_poll:
                poll()
            horizon = 0
            # checks are extended up to twice the nominal depth: a line of checks ends
            extend_until = 2 * depth
            if safe is not None:
                filtered_from = 2
            best = -INFINITY
            best_move = moves[0]
            best_pv: tuple[Any, ...] = ()
            scores: list[int] = []
            a = alpha
            child_depth = depth - 1
            mover = None if alternating else to_move(state)
            for index, move in enumerate(moves):
                child = result(state, move)
                pv_lines[1] = ()
                sign = 1 if mover is not None and to_move(child) == mover else -1
                if multipv:
                    score = sign * node(child, child_depth, -INFINITY, INFINITY, 1)
                elif index == 0 or not use_pvs:
                    score = sign * node(child, child_depth, *_window(sign, a, beta), 1)
                else:
                    score = sign * node(child, child_depth, *_window(sign, a, a + 1), 1)
                    if a < score < beta:
                        pv_lines[1] = ()
                        score = sign * node(child, child_depth, *_window(sign, a, beta), 1)
                scores.append(score)
                if score > best:
                    best = score
                    best_move = move
                    best_pv = (move, *pv_lines[1])
                    if score > a:
                        if score >= beta:
                            break
                        a = score
            if use_table:
                key = keyf(state) if keyf is not None else state
                flag = UPPER if best <= alpha else (LOWER if best >= beta else EXACT)
                store(key, depth if horizon else DEPTH_END, flag, best, best_move, 0)  # type: ignore[misc]
            return best, best_move, best_pv, scores

        def window(state: Any, depth: int, alpha: int, beta: int, ply: int) -> int:
            """Search ``state`` as a node ``ply`` plies deep with a fixed window."""
            nonlocal horizon, filtered_from, extend_until
            horizon = 0
            extend_until = ply + 2 * depth if depth < DEPTH_END else 0
            if safe is not None:
                filtered_from = ply + 1
            pv_lines[ply] = ()
            if lean and beta - alpha == 1 and depth >= DEPTH_END:
                return null_node(state, depth, alpha, ply)
            return node(state, depth, alpha, beta, ply)

        def counts() -> tuple[int, int, int, int, int, int]:
            """Return nodes, cut-offs, table hits, probes, seldepth and horizon nodes."""
            return nodes, cutoffs, hits, probes, seldepth, horizon

        def renew() -> bool:
            """Ready this searcher for another search as a new one would start (killers
            and history empty); ``False`` if it no longer fits the engine (its table was
            cleared or resized by another search, or keying changed): make a new one."""
            if use_table != (table is not None and engine._keyable):
                return False
            if table is not None and mask != table.mask:
                return False
            dirty = engine._dirty_plies
            first_killers[:dirty] = second_killers[:dirty] = _NO_KILLERS[:dirty]
            engine._dirty_plies = MAX_PLY + 2
            histories[0].clear()
            histories[1].clear()
            after_null[:dirty] = _NO_NULLS[:dirty]
            return True

        limit(deadline, node_limit, stop, tick)
        self.limit = limit
        self.expired = expired
        self.root = root
        self.renew = renew
        self.window = window
        self.counts = counts
        self.pv_lines = pv_lines


@dataclass(frozen=True, slots=True)
class _Capabilities:
    """The optional methods of a game, looked up once (``None`` when absent or off)."""

    key: Callable[[Any], Any] | None
    evaluate: Callable[[Any], int] | None
    ordered: Callable[[Any], Sequence[Any]] | None
    noisy: Callable[[Any], Sequence[Any]] | None
    winning: Callable[[Any], Any] | None
    nonlosing: Callable[[Any], Sequence[Any]] | None
    bounds: Callable[[Any], tuple[int, int]] | None
    windowed: Callable[[Any, int, int], int | None] | None
    safe: Callable[[Any], tuple[Sequence[Any], tuple[int, int]]] | None
    forced: Callable[[Any, bool, Callable[[], bool] | None], Sequence[Any] | None] | None
    checked: Callable[[Any], bool] | None
    passing: Callable[[Any], Any] | None
    capture: Callable[[Any, Any], int] | None


_NO_MOVES: frozenset[Any] = frozenset()
"""The noisy moves of a node that has none."""

_OPEN_BOUNDS = (-INFINITY, INFINITY)
"""The score bounds of a game without ``score_bounds``: none."""


def _shift(score: int, plies: int) -> int:
    """``score`` seen from ``plies`` plies further from the root (nearer when negative):
    a win or a loss that far nearer, any other score as it is."""
    if score >= WIN_THRESHOLD:
        return score + plies
    if score <= -WIN_THRESHOLD:
        return score - plies
    return score


def _paired_hooks(
    game: Any,
    nonlosing: Callable[[Any], Sequence[Any]] | None,
    bounds: Callable[[Any], tuple[int, int]] | None,
) -> Callable[[Any], tuple[Sequence[Any], tuple[int, int]]] | None:
    """``non_losing_actions`` and ``score_bounds`` as one call returning both: the game's
    own ``non_losing_actions_and_bounds`` if it has one, else the two hooks in turn, or
    ``None`` for a game without ``non_losing_actions`` (or with the hooks switched off)."""
    if nonlosing is None:
        return None
    paired: Callable[[Any], tuple[Sequence[Any], tuple[int, int]]] | None = getattr(
        game, "non_losing_actions_and_bounds", None
    )
    if paired is not None:
        return paired
    if bounds is None:
        return lambda state: (nonlosing(state), _OPEN_BOUNDS)
    return lambda state: (nonlosing(state), bounds(state))


def _window(sign: int, alpha: int, beta: int) -> tuple[int, int]:
    """The window ``(alpha, beta)`` as a child sees it: as it is where the same side
    moves again (``sign`` 1), negated and swapped where the side changes (``sign`` -1)."""
    return (alpha, beta) if sign > 0 else (-beta, -alpha)


def _threat_search(
    game: Any,
) -> Callable[[Any, bool, Callable[[], bool] | None], Sequence[Any] | None] | None:
    """The game's ``forced_win`` hook taking ``(state, deep, expired)``: the hook itself,
    or for a hook of the older form ``(state, deep)`` a wrapper that drops ``expired``;
    ``None`` for a game without one."""
    hook: Callable[..., Sequence[Any] | None] | None = getattr(game, "forced_win", None)
    if hook is None:
        return None
    parameters: list[inspect.Parameter] | None
    try:
        parameters = list(inspect.signature(hook).parameters.values())
    except (TypeError, ValueError):  # no signature to read (a builtin): the older form
        parameters = None
    if parameters is not None and (
        len(parameters) >= 3 or any(p.kind is p.VAR_POSITIONAL for p in parameters)
    ):
        return hook
    two_argument = hook
    return lambda state, deep, expired: two_argument(state, deep)


class Engine:
    """The production search for one game; it keeps its table from search to search.

    ``options`` switches features and sizes the table (:class:`EngineOptions`)."""

    __slots__ = (
        "_caps",
        "_dirty_plies",
        "_keyable",
        "_killers",
        "_pv_lines",
        "_window",
        "_window_limited",
        "game",
        "options",
        "table",
    )

    def __init__(self, game: Game[Any, Any], options: EngineOptions | None = None) -> None:
        self.game = game
        self.options = options = options if options is not None else EngineOptions()
        hooks = options.solver_hooks
        # the threat hooks reason in alternating plies (a move that does not lose now
        # puts a loss off for two more plies): they serve only games whose sides alternate
        threats = hooks and game.info.alternating
        nonlosing = getattr(game, "non_losing_actions", None) if threats else None
        bounds = getattr(game, "score_bounds", None) if hooks else None
        self._caps = _Capabilities(
            key=getattr(game, "key", None),
            evaluate=getattr(game, "evaluate", None),
            ordered=getattr(game, "ordered_actions", None) if options.hints else None,
            noisy=getattr(game, "noisy_actions", None),
            winning=getattr(game, "winning_action", None) if threats else None,
            nonlosing=nonlosing,
            bounds=bounds,
            windowed=getattr(game, "window_value", None) if hooks else None,
            safe=_paired_hooks(game, nonlosing, bounds),
            forced=_threat_search(game) if options.threats and game.info.alternating else None,
            checked=getattr(game, "in_check", None),
            passing=getattr(game, "null_move", None) if options.null_move else None,
            capture=getattr(game, "capture_value", None) if options.capture_order else None,
        )
        self.table = TranspositionTable(options.table_size) if options.use_table else None
        self._keyable = self._caps.key is not None
        # per-ply scratch arrays, made once per engine: flat lists, so that the garbage
        # collector has two objects to scan rather than one per ply
        self._killers: tuple[list[Any], list[Any]] = (list(_NO_KILLERS), list(_NO_KILLERS))
        self._dirty_plies = 0
        self._pv_lines: list[tuple[Any, ...]] = [()] * (MAX_PLY + 2)
        # the searcher of search_window, kept from call to call: a solver makes many
        # small null-window searches, and building the closures cost 30 us each (more
        # than a whole end-game probe of connect four)
        self._window: _Searcher | None = None
        self._window_limited = False

    def __repr__(self) -> str:
        return f"Engine({self.game.info.name!r}, {self.options!r})"

    def reset(self) -> None:
        """Forget everything learnt: empty the transposition table."""
        if self.table is not None:
            self.table.clear()

    # ------------------------------------------------------------------ helpers

    def _prepare(self, state: Any) -> None:
        """Decide once per search whether states can key the table themselves."""
        if self._caps.key is None:
            try:
                hash(state)
            except TypeError:
                self._keyable = False
            else:
                self._keyable = True

    def root_moves(self, state: Any, *, every: bool = False) -> list[Any]:
        """Return the moves the search tries at ``state``, in order: the table's move first.

        These are the game's ``non_losing_actions`` when it offers them and they are not
        empty, as at every other node (a move that loses at once is never best when
        another exists; a game may also leave out moves it judges hopeless there), else
        every legal move; ``every`` asks for every legal move (for root scores). Empty
        when the game is over there."""
        game = self.game
        if game.is_terminal(state):
            return []
        caps = self._caps
        moves = list(caps.nonlosing(state)) if caps.nonlosing is not None and not every else []
        if not moves:
            ordered = caps.ordered
            moves = list(ordered(state) if ordered is not None else game.actions(state))
        if len(moves) > 1:
            entry = self._table_entry(state)
            if entry is not None and entry.move in moves:
                moves.remove(entry.move)
                moves.insert(0, entry.move)
        return moves

    def _table_entry(self, state: Any) -> TableEntry | None:
        """The table's entry for ``state`` as a root, if it holds one."""
        table = self.table
        if table is None:
            return None
        self._prepare(state)
        if not self._keyable:
            return None
        return table.probe(self._caps.key(state) if self._caps.key is not None else state)

    def proven_move(self, state: Any, score: int) -> Any:
        """Return a move the table proves worth at least ``score`` at ``state``, or ``None``.

        ``score`` is in engine units with ``state`` as the root. The proof is an entry
        of a search to the end of every line that failed high or was exact with that
        move (the move a solver's probe found); there is none when ``state`` was not
        searched so, or its entry was replaced since."""
        entry = self._table_entry(state)
        if (
            entry is None
            or entry.depth < DEPTH_END
            or entry.flag == UPPER
            or entry.value < score
            or entry.move is None
            or self.game.is_terminal(state)
            or entry.move not in self.game.actions(state)
        ):
            return None
        return entry.move

    # ------------------------------------------------------------------ searching

    def iterate(
        self, state: Any, limits: Limits | None = None, multipv: bool = False
    ) -> Generator[Report, None, EngineStats]:
        """Deepen from ``state`` one ply at a time, yielding a :class:`Report` per depth.

        The generator ends when ``limits`` stop the search (the interrupted iteration is
        dropped), at ``limits.depth``, when an iteration solved the game, or after the one
        report of a win the game's threat search proved at the root (``forced_win``); its return
        value (``StopIteration.value``) is the :class:`EngineStats` of the whole search.
        With ``multipv`` every root move gets an exact score (slower). Nothing is
        yielded when the game is already over at ``state``."""
        return self._deepen(state, limits, multipv=multipv, to_the_end=False)

    def _deepen(
        self, state: Any, limits: Limits | None, *, multipv: bool, to_the_end: bool
    ) -> Generator[Report, None, EngineStats]:
        """:meth:`iterate`; ``to_the_end`` skips the shallow iterations."""
        limits = limits if limits is not None else Limits()
        start = time.perf_counter()
        moves = self.root_moves(state, every=multipv)
        table = self.table
        if not moves:
            hashfull = table.fill_permille() if table is not None else 0
            return EngineStats(0, 0, 0, 0, 0, 0, 0.0, hashfull, True, False)
        self._prepare(state)
        deadline = start + limits.time if limits.time is not None else None
        searcher = _Searcher(self, deadline, limits.nodes, limits.stop)
        forced = self._caps.forced
        line = None
        if forced is not None and not multipv:
            timed = deadline is not None or limits.stop is not None
            line = forced(state, True, searcher.expired if timed else None)
            if not line and timed and searcher.expired():
                # the threat search gave up at the limit: nothing completed
                elapsed = time.perf_counter() - start
                hashfull = table.fill_permille() if table is not None else 0
                return EngineStats(0, 0, 0, 0, 0, 0, elapsed, hashfull, False, True)
        if line:
            elapsed = time.perf_counter() - start
            yield Report(
                depth=len(line),
                score=WIN - len(line),
                pv=tuple(line),
                best_move=line[0],
                nodes=0,
                nps=0,
                elapsed=elapsed,
                hashfull=table.fill_permille() if table is not None else 0,
                seldepth=len(line),
                solved=False,
            )
            return EngineStats(0, 0, 0, 0, len(line), len(line), elapsed, 0, False, False)
        if table is not None:
            table.new_search()
        # shallow iterations only serve to stop early with an answer: a game without
        # evaluate cannot give one
        last_depth = limits.depth if limits.depth is not None else MAX_PLY
        to_the_end = to_the_end or self._caps.evaluate is None
        depth = (limits.depth or DEPTH_END) if to_the_end else 1
        previous: int | None = None
        completed = 0
        solved = stopped = False
        while True:
            try:
                score, best_move, pv, scores = self._iteration(
                    searcher, state, moves, depth, previous, multipv=multipv
                )
            except _LimitReachedError:
                stopped = True
                break
            except MissingCapabilityError:
                # evaluate may cover only some states (a tree with a few estimates): with
                # no depth asked for, search to the end instead
                if limits.depth is not None or depth == DEPTH_END:
                    raise
                depth = DEPTH_END
                continue
            except RecursionError:
                raise SearchDepthError(
                    f"game {self.game.info.name!r} has a line deeper than Python's recursion "
                    f"limit; the engine cannot search it"
                ) from None
            nodes, cutoffs, hits, _, seldepth, horizon = searcher.counts()
            order = sorted(range(len(scores)), key=scores.__getitem__, reverse=True)
            moves = [moves[i] for i in order] + moves[len(scores) :]
            previous = score
            completed = depth
            solved = horizon == 0
            elapsed = time.perf_counter() - start
            yield Report(
                depth=depth,
                score=score,
                pv=pv,
                best_move=best_move,
                nodes=nodes,
                nps=int(nodes / elapsed) if elapsed > 0 else 0,
                elapsed=elapsed,
                hashfull=table.fill_permille() if table is not None else 0,
                seldepth=seldepth,
                solved=solved,
                cutoffs=cutoffs,
                table_hits=hits,
                root_scores={moves[i]: scores[order[i]] for i in range(len(scores))}
                if multipv
                else None,
            )
            if solved or depth >= last_depth:
                break
            if limits.soft_time is not None and elapsed >= limits.soft_time:
                break
            depth += 1
        nodes, cutoffs, hits, probes, seldepth, _ = searcher.counts()
        self._dirty_plies = seldepth + 2
        if table is not None:
            table.hits += hits
            table.probes += probes
        return EngineStats(
            nodes=nodes,
            cutoffs=cutoffs,
            table_hits=hits,
            table_probes=probes,
            depth=completed,
            seldepth=seldepth,
            time=time.perf_counter() - start,
            hashfull=table.fill_permille() if table is not None else 0,
            solved=solved,
            stopped=stopped,
        )

    def _iteration(
        self,
        searcher: _Searcher,
        state: Any,
        moves: list[Any],
        depth: int,
        previous: int | None,
        *,
        multipv: bool,
    ) -> tuple[int, Any, tuple[Any, ...], list[int]]:
        """Search one depth, inside an aspiration window around ``previous`` if any."""
        options = self.options
        if (
            multipv
            or not options.aspiration
            or previous is None
            or depth < 2
            or is_win_score(previous)
        ):
            return searcher.root(state, moves, depth, -INFINITY, INFINITY, multipv=multipv)
        delta = options.aspiration_window
        alpha, beta = previous - delta, previous + delta
        while True:
            found = searcher.root(state, moves, depth, alpha, beta, multipv=False)
            score = found[0]
            if alpha > -INFINITY and score <= alpha:
                alpha = max(score - delta, -INFINITY)
            elif beta < INFINITY and score >= beta:
                beta = min(score + delta, INFINITY)
            else:
                return found
            delta *= 4
            if delta > WIN_THRESHOLD:
                alpha, beta = -INFINITY, INFINITY

    def search(
        self, state: Any, limits: Limits | None = None, multipv: bool = False
    ) -> EngineResult:
        """Deepen under ``limits`` and return the last completed iteration.

        A legal move is always returned when one exists: if no iteration completed, the
        first move in search order, with ``score`` ``None``. At a finished game the
        move is ``None`` and the score the game's end value."""
        # with no limit at all nothing stops early, so the shallow iterations would be
        # wasted: one search to the end (measured 4 to 10 times fewer nodes than
        # deepening on tic-tac-toe, m,n,k boards and connect four)
        unlimited = limits is None or limits == Limits()
        iterations = self._deepen(state, limits, multipv=multipv, to_the_end=unlimited)
        last: Report | None = None
        while True:
            try:
                last = next(iterations)
            except StopIteration as finished:
                stats: EngineStats = finished.value
                break
        if last is not None:
            return EngineResult(last.best_move, last.score, last.pv, last.root_scores, stats)
        if self.game.is_terminal(state):
            return EngineResult(None, _terminal_score(self.game, state, 0), (), None, stats)
        moves = self.root_moves(state)
        return EngineResult(moves[0] if moves else None, None, (), None, stats)

    def search_window(
        self,
        state: Any,
        alpha: int,
        beta: int,
        *,
        depth: int | None = None,
        ply: int = 0,
        limits: Limits | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> WindowResult:
        """Search ``state`` once with the window ``(alpha, beta)``, fail-soft.

        ``depth`` defaults to the end of every line. ``ply`` says how far from the root
        of the caller's search ``state`` lies, so that win scores come out in the caller's
        units (a solver checks each root move with ``ply=1``). The table is kept and
        used; this is the building block of null-window solvers (MTD).

        ``limits`` (time, nodes and stop signal; the depth is ``depth``) bound this one
        search: when one strikes it raises :class:`SearchStopped`, the table keeping
        what the finished subtrees proved. ``progress`` is told the nodes searched so
        far at every poll of the limits (every :attr:`EngineOptions.poll_interval`
        nodes), for a caller showing a long search live."""
        if alpha >= beta:
            raise ValueError(f"empty window ({alpha}, {beta}): alpha must be below beta")
        self._prepare(state)
        searcher = self._window
        if searcher is None or not searcher.renew():
            searcher = self._window = _Searcher(self, None, None, None)
            self._window_limited = False
        if limits is not None or progress is not None:
            if limits is None:
                searcher.limit(None, None, None, progress)
            elif limits.depth is not None:
                raise ValueError(
                    f"search_window takes its depth as depth=, not as a limit ({limits.depth})"
                )
            else:
                deadline = time.perf_counter() + limits.time if limits.time is not None else None
                searcher.limit(deadline, limits.nodes, limits.stop, progress)
            self._window_limited = True
        elif self._window_limited:  # the last window search had limits: lift them
            searcher.limit(None, None, None, None)
            self._window_limited = False
        # the counters of a kept searcher run on: this search's share is the difference
        nodes0, _, hits0, probes0, _, _ = searcher.counts()
        stopped: StopReason | None = None
        score = 0
        try:
            score = searcher.window(
                state, depth if depth is not None else DEPTH_END, alpha, beta, ply
            )
        except RecursionError:
            raise SearchDepthError(
                f"game {self.game.info.name!r} has a line deeper than Python's recursion "
                f"limit; the engine cannot search it"
            ) from None
        except _LimitReachedError as reached:
            stopped = reached.reason
        nodes, _, hits, probes, seldepth, _ = searcher.counts()
        self._dirty_plies = seldepth + 2
        if self.table is not None:
            self.table.hits += hits - hits0
            self.table.probes += probes - probes0
        if stopped is not None:
            raise SearchStopped(stopped, nodes - nodes0)
        pv = searcher.pv_lines[ply] if beta - alpha > 1 else ()
        return WindowResult(score, pv, nodes - nodes0)
