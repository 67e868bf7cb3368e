"""``zerosum analyse``: watch the engine think about one position, depth after depth.

Every completed iteration of the engine's deepening prints one line: the depth, the
score for the side to move in words (:func:`~zerosum.game.describe_score`: ``eval +35
centipawns``, ``win in 5 plies``), the nodes, their rate, the time, and the principal
variation in the game's notation (SAN for chess). ``--multipv K`` scores every root
move exactly (slower) and prints the best ``K`` of them at each depth, each with its
line: the search's own for the best, the transposition table's best moves after the
others.

``--depth``, ``--nodes`` and ``--time`` bound the search; with none of them it runs
until the game is solved from the position or Ctrl-C. Ctrl-C drops the iteration in
progress, which is never trusted, and prints the last completed one as the result.
A game without ``evaluate`` cannot stop early, so it is searched to the end at once.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from zerosum.cli.common import UsageError, make_game

if TYPE_CHECKING:
    from zerosum.search.engine import Engine, Report


def _positive(text: str) -> int:
    """Read a whole number of at least 1; argparse type."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is below 1")
    return value


def _seconds(text: str) -> float:
    """Read a positive number of seconds; argparse type."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def register(commands: Any) -> None:
    """Add the ``analyse`` subcommand."""
    parser = commands.add_parser(
        "analyse",
        help="search one position depth after depth, printing each completed depth",
        description="Examples: zerosum analyse chess --depth 6 | zerosum analyse chess "
        "--position '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1' --multipv 3 --time 5 | "
        "zerosum analyse connect4 --moves 4455",
    )
    parser.add_argument("game", help="a game spec, e.g. chess or connect4:width=5")
    parser.add_argument("--position", metavar="TEXT", help="the position, in the game's notation")
    parser.add_argument("--moves", help="moves to play first, separated by commas or spaces")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=_positive, metavar="N", help="stop after N plies")
    limit.add_argument("--nodes", type=_positive, metavar="N", help="stop after N nodes")
    limit.add_argument("--time", type=_seconds, metavar="S", help="stop after S seconds")
    parser.add_argument(
        "--multipv",
        type=_positive,
        default=1,
        metavar="K",
        help="show the best K moves with exact scores (slower; default 1)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Print one line per completed depth, then the best move found."""
    from zerosum import notation
    from zerosum.cli.solve import start_state
    from zerosum.game import MAX_PLY
    from zerosum.search.engine import Engine, Limits

    game = make_game(args.game)
    state = start_state(game, args)
    if game.is_terminal(state):
        where = notation.format_state(game, state) or "the start"
        raise UsageError(f"nothing to analyse: the game is over in {where!r}")
    if args.depth is not None and args.depth > MAX_PLY:
        raise UsageError(f"--depth must be 1 to {MAX_PLY} plies, not {args.depth}")
    engine = Engine(game)
    limits = Limits(depth=args.depth, nodes=args.nodes, time=args.time)
    mover = game.info.players[game.to_move(state)]
    print(f"{game.info.title}: {notation.format_state(game, state)}, {mover} to move")
    written = notation.move_formatter(game)
    last = None
    try:
        for report in engine.iterate(state, limits, multipv=args.multipv > 1):
            last = report
            for line in _lines(game, engine, state, report, count=args.multipv, written=written):
                print(line, flush=True)
    except KeyboardInterrupt:
        print("stopped by Ctrl-C: the depth in progress is dropped", flush=True)
    if last is None:
        print("no depth completed: no move to suggest yet")
        return
    print(f"best move: {written(state, last.best_move)} ({_score(game, last)})")


def _score(game: Any, report: Report) -> str:
    """The score in words, with the depth that gave it."""
    from zerosum.game import describe_depth, describe_score

    words = describe_score(game.info, report.score, exact=report.solved)
    return f"{words}, {describe_depth(report.depth)}"


def _lines(
    game: Any,
    engine: Engine,
    state: Any,
    report: Report,
    *,
    count: int,
    written: Callable[[Any, Any], str],
) -> list[str]:
    """The lines of one iteration: the best ``count`` moves, best first."""
    from zerosum.game import describe_depth, describe_score

    variations = [(report.score, report.pv)]
    for move, score in (report.root_scores or {}).items():
        if len(variations) >= count:
            break
        if move != report.best_move:
            variations.append((score, (move, *_table_line(game, engine, state, move, report))))
    depth = describe_depth(report.depth)
    stats = f"nodes {report.nodes:,}  nps {report.nps:,}  time {report.elapsed:.2f} s"
    lines = []
    for rank, (score, pv) in enumerate(variations, 1):
        label = f"#{rank}  " if count > 1 else ""
        words = describe_score(game.info, score, exact=report.solved)
        moves = _moves(game, state, pv, written)
        lines.append(f"{depth}  {label}{words}  {stats}  pv {moves}")
    return lines


def _moves(game: Any, state: Any, moves: Sequence[Any], written: Callable[[Any, Any], str]) -> str:
    """``moves`` from ``state`` in the game's notation."""
    words = []
    for move in moves:
        words.append(written(state, move))
        state = game.result(state, move)
    return " ".join(words)


def _table_line(
    game: Any, engine: Engine, state: Any, move: Any, report: Report
) -> tuple[Any, ...]:
    """The table's best moves after ``move``, at most the iteration's depth in all: legal
    moves only, ending at a finished game, a missing entry or a repeated position. Only
    a game with ``key`` is followed (another game's states may not be hashable)."""
    table = engine.table
    key: Callable[[Any], Any] | None = getattr(game, "key", None)
    if key is None:
        return ()
    line: list[Any] = []
    state = game.result(state, move)
    seen: set[Any] = set()
    while table is not None and len(line) < report.depth - 1 and not game.is_terminal(state):
        here = key(state)
        entry = table.probe(here)
        if here in seen or entry is None or entry.move not in game.actions(state):
            break
        seen.add(here)
        line.append(entry.move)
        state = game.result(state, entry.move)
    return tuple(line)
