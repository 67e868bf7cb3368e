"""``zerosum solve``: the exact value of a position, every best move and the work done.

It works for every game: the engine's exact solver (:func:`zerosum.search.solve.solve`)
proves the value. Three optional game hooks change only how the answer is shown or found:
``published_score(state, engine_score)`` gives the score in the game's published
convention as well (connect four's 22-minus-stones scale), a game that solves itself
by dynamic programming (``solve()``, the stone games) is solved that way from its start,
in polynomial time, and ``compiled_engine()`` gives an engine whose searches run in a
compiled kernel (connect four with the ``fast`` extra; ``ZEROSUM_KERNELS=0`` keeps the
pure path), to the same answers.

``--mate N`` answers a mate-in-N puzzle instead of solving the whole game: whether the
side to move forces a win within ``N`` of its own moves (``2N - 1`` plies), and if so
the shortest such win and its first move. It is the engine's full-width search to
``2N - 1`` plies with win-distance scores (null-move pruning, late-move reductions and
futility pruning, which may skip a mating line, switched off), so it needs the game's
``evaluate`` at the horizon and proves both answers: a win is found by every search
that reaches its length, and a score short of the win band at depth ``2N - 1`` rules
out every win that short.

A solve can be bounded with ``--time`` and ``--nodes``, and Ctrl-C stops it: either way
it prints what was proven (the bounds on the value, a best move if one is known) and a
``not finished`` line, and exits 0. On a terminal a live line on stderr shows the
bounds, the nodes, their rate and the time. A position whose game tree is far beyond
exact solving (:func:`~zerosum.search.solve.estimate_tree`) is refused unless a limit
is given.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from zerosum.cli.common import UsageError, make_game, table

if TYPE_CHECKING:
    from zerosum.search.solve import Solution, SolveProgress

FAR_BEYOND = 24
"""The power of ten of the minimal alpha-beta tree above which solving is refused without
a limit: 10^24 nodes would take longer than the age of the universe at a million nodes a
second, even with perfect move ordering. Connect four's start is about 10^13 (solvable,
if slowly), gomoku on 7x7 about 10^31 and on 15x15 about 10^175."""

PLAIN_PROGRESS_SECONDS = (1.0, 10.0)
"""When progress is printed as a plain line if stderr is not a terminal: once a solve has
run this first many seconds (a quick one prints nothing), then every second many."""


def _seconds(text: str) -> float:
    """Read a positive number of seconds; argparse type."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def _positive(text: str) -> int:
    """Read a whole number of at least 1; argparse type."""
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is below 1")
    return value


def register(commands: Any) -> None:
    """Add the ``solve`` subcommand."""
    parser = commands.add_parser(
        "solve",
        help="exact value of a position, every best move and node counts",
        description="Examples: zerosum solve tictactoe --moves b2,a1 | "
        "zerosum solve connect4 --moves 4455 --all | zerosum solve stones-vii 5,3,1,4,2",
    )
    parser.add_argument("game", help="a game spec, e.g. tictactoe or connect4:width=5,height=4")
    parser.add_argument("setup", nargs="?", help="the game's main option, e.g. stone values")
    parser.add_argument("--position", help="start from a position in the game's notation")
    parser.add_argument("--moves", help="moves to play first, separated by commas or spaces")
    parser.add_argument("--all", action="store_true", help="also score every legal move")
    parser.add_argument("--weak", action="store_true", help="win, draw or loss only (faster)")
    parser.add_argument(
        "--time", type=_seconds, metavar="S", help="stop after S seconds with the bounds proven"
    )
    parser.add_argument(
        "--nodes", type=_positive, metavar="N", help="stop after N nodes with the bounds proven"
    )
    parser.add_argument(
        "--mate",
        type=_positive,
        metavar="N",
        help="only decide whether the side to move wins (mates) within N of its moves",
    )
    parser.add_argument(
        "--book",
        metavar="FILE",
        help="answer from this opening book when it holds the position's moves "
        "(default: the game's book, if one is found)",
    )
    parser.add_argument("--trump", help="bridge: the trump strain (S, H, D, C or N)")
    parser.add_argument("--leader", help="bridge: the opening leader (N, E, S, W; 0 or 1)")
    parser.set_defaults(run=run)


def start_state(game: Any, args: argparse.Namespace) -> Any:
    """The position to solve: ``--position`` or the start, then ``--moves`` played, checked.

    Moves are separated by commas or spaces; a single word that is not a move is read as
    one move per character, as connect four's published sequences are written (``4455``)."""
    from zerosum.game import ZerosumError
    from zerosum.notation import parse_state, play

    state = parse_state(game, args.position) if args.position else game.initial_state()
    words = (args.moves or "").replace(",", " ").split()
    if len(words) == 1 and len(words[0]) > 1:
        try:
            return play(game, state, words[0])
        except ZerosumError as whole:
            played = 0
            try:
                for move in words[0]:
                    state = play(game, state, move)
                    played += 1
            except ZerosumError:
                if played == 0:  # not a sequence of moves either: the word was the move
                    raise whole from None
                raise
            return state
    for move in words:
        state = play(game, state, move)
    return state


def describe(game: Any, score: int, weak: bool) -> str:
    """Say what an exact engine score means for the side to move."""
    from zerosum.game import plies_to_end

    if weak or game.info.win_loss:
        if score == 0:
            return "draw"
        outcome = "win" if score > 0 else "loss"
        return outcome if weak else f"{outcome} in {plies_to_end(score)} plies"
    return f"{score:+d} points"


def _game(args: argparse.Namespace) -> Any:
    """The game to solve: ``--trump`` and ``--leader`` are bridge's options, and
    ``bridge`` given a four-hand PBN deal (``N:...``) is double-dummy bridge."""
    spec = args.game
    if spec == "bridge" and args.setup is not None and ":" in args.setup:
        spec = "bridge-dd"
    given = (("trump", args.trump), ("leader", args.leader))
    extra = [f"{name}={value}" for name, value in given if value is not None]
    if extra:
        spec += ("," if ":" in spec else ":") + ",".join(extra)
    return make_game(spec, args.setup)


def run(args: argparse.Namespace) -> None:
    """Solve and print the value, the best moves, the line and the counts."""
    game = _game(args)
    own_solver = getattr(game, "solve", None)
    if callable(own_solver) and not (args.position or args.moves or args.weak or args.all):
        _print_dynamic_programme(game, own_solver())
        return
    from zerosum import notation

    state = start_state(game, args)
    where = notation.format_state(game, state) or "the start"
    if game.is_terminal(state):
        raise UsageError(f"nothing to solve: the game is over in {where!r}")
    if args.mate is not None:
        _solve_mate(game, state, where, args)
        return
    if _answer_from_book(game, state, where, args):
        return
    from zerosum.games.bridge import DoubleDummy, TwoPlayerBridge

    limited = args.time is not None or args.nodes is not None
    if isinstance(game, DoubleDummy | TwoPlayerBridge) and not (limited or args.weak):
        _solve_bridge(game, state, where)
        return
    from zerosum.search.engine import Limits
    from zerosum.search.solve import estimate_tree, solve

    size = estimate_tree(game, state).log10_minimal
    if size > FAR_BEYOND:
        beyond = (
            f"{game.info.title} from {where} is far beyond exact solving: even perfectly "
            f"ordered, alpha-beta would search about 10^{size:.0f} nodes"
        )
        if not limited:
            raise UsageError(f"{beyond}; give --time or --nodes to search for bounds anyway")
        print(f"warning: {beyond}; searching for bounds until the limit", file=sys.stderr)
    published = getattr(game, "published_score", None)

    def shown(score: int, weak: bool = args.weak) -> str:
        text = describe(game, score, weak)
        if published is not None and not weak:
            return f"{published(state, score):+d} ({text})"
        return text

    compiled = getattr(game, "compiled_engine", None)
    engine = compiled() if callable(compiled) else None
    stop = threading.Event()
    limits = Limits(time=args.time, nodes=args.nodes, stop=stop)
    with _ctrl_c_sets(stop), _progress_line(shown) as progress:
        solution = solve(
            game,
            state,
            weak=args.weak,
            root_scores=args.all,
            engine=engine,
            limits=limits,
            progress=progress,
        )
    mover = game.info.players[game.to_move(state)]
    print(f"{game.info.title}: {where}, {mover} to move")
    label = "score" if published is not None and not args.weak else "value"
    format_move = notation.move_formatter(game)
    if solution.proven:
        print(f"{label}: {shown(solution.score)}")
        moves = "best moves" if solution.finished else "best moves so far"
        best = [format_move(state, move) for move in solution.best_moves]
        print(f"{moves}: {' '.join(best) or '(none proven yet)'}")
    else:
        print(f"bounds: {_interval(solution.bounds, shown)}")
        if solution.best_moves:
            move = format_move(state, solution.best_moves[0])
            print(f"best move so far: {move} (gets at least {shown(solution.bounds[0], False)})")
    if solution.pv and solution.proven:
        line, position = [], state
        for move in solution.pv:
            line.append(format_move(position, move))
            position = game.result(position, move)
        print(f"line: {' '.join(line)}")
    print(f"nodes: {solution.nodes:,}  time: {solution.time:.3f} s")
    if solution.root_scores:
        rows = [(format_move(state, m), shown(s)) for m, s in solution.root_scores.items()]
        print(table(rows, ("move", label)))
    if not solution.finished:
        print(_not_finished(solution, args))


def _answer_from_book(game: Any, state: Any, where: str, args: argparse.Namespace) -> bool:
    """Answer from the opening book (``--book``, else :func:`zerosum.book.find_book`)
    when it scores every move of ``state``: the value, the best moves, a best line as far
    as the book goes and every move's score, with no search. ``False`` when it cannot."""
    from zerosum.book import Book, find_book
    from zerosum.cli.book import book_line, move_table, score_writer
    from zerosum.game import describe_depth

    start = time.perf_counter()
    book = Book(args.book, game) if args.book else find_book(game)
    if book is None:
        return False
    with book:
        scores = book.move_scores(state)
        if scores is None:
            return False
        line = book_line(book, state)
        plies = book.info.plies
        path = book.info.path
    elapsed = time.perf_counter() - start
    from zerosum import notation

    shown = score_writer(game, state, args.weak)
    score = next(iter(scores.values()))
    format_move = notation.move_formatter(game)
    mover = game.info.players[game.to_move(state)]
    weak_or_plain = args.weak or getattr(game, "published_score", None) is None
    print(f"{game.info.title}: {where}, {mover} to move")
    print(f"{'value' if weak_or_plain else 'score'}: {shown(score)}")
    best = [format_move(state, move) for move, value in scores.items() if value == score]
    print(f"best moves: {' '.join(best)}")
    written, position = [], state
    for move in line:
        written.append(format_move(position, move))
        position = game.result(position, move)
    print(f"line: {' '.join(written)} (as far as the book goes)")
    print(f"book: {path} (every position up to {describe_depth(plies)})")
    print(f"nodes: 0  time: {elapsed:.3f} s")
    print(move_table(game, state, scores, shown))
    return True


def _solve_bridge(game: Any, state: Any, where: str) -> None:
    """Solve bridge card play with the double-dummy solver: the tricks of the side to
    move and every card's value, equivalent cards together."""
    from zerosum.games.bridge.notation import card_name
    from zerosum.games.bridge.solver import DoubleDummySolver

    started = time.perf_counter()
    solver = DoubleDummySolver(state[5])
    values = solver.card_values(state)
    elapsed = time.perf_counter() - started
    side = game.info.players[game.to_move(state)]
    other = game.info.players[1 - game.to_move(state)]
    left = state[0][state[1]].bit_count()
    best = values[0].tricks
    print(f"{game.info.title}: {where}")
    print(f"tricks: {side} {best}, {other} {left - best} (of the {left} left, with best play)")
    print(f"best cards: {' '.join(card_name(v.card) for v in values if v.tricks == best)}")
    rows = [
        (card_name(v.card), " ".join(card_name(c) for c in _cards(v.equals)) or "-", v.tricks)
        for v in values
    ]
    print(table(rows, ("card", "same as", f"tricks for {side}")))
    print(f"nodes: {solver.nodes:,}  time: {elapsed:.3f} s")


def _cards(held: int) -> list[int]:
    """The cards of a set, highest first."""
    return [card for card in range(51, -1, -1) if held >> card & 1]


def _solve_mate(game: Any, state: Any, where: str, args: argparse.Namespace) -> None:
    """Decide a mate-in-``args.mate`` puzzle by a search to ``2 * args.mate - 1`` plies."""
    from zerosum import notation
    from zerosum.game import WIN, MissingCapabilityError, describe_depth, plies_to_end
    from zerosum.search.engine import Engine, EngineOptions, Limits

    if not game.info.win_loss or getattr(game, "evaluate", None) is None:
        raise MissingCapabilityError(
            f"--mate needs a won/lost game with an evaluate() for the search's horizon, "
            f"which {game.info.name!r} is not; solve it without --mate"
        )
    if args.all or args.weak:
        raise UsageError("--mate cannot be combined with --all or --weak")
    plies = 2 * args.mate - 1
    stop = threading.Event()
    limits = Limits(depth=plies, time=args.time, nodes=args.nodes, stop=stop)
    last = None
    # the pruning that may skip a mating line (a null move in zugzwang, a reduced or
    # futile quiet move) is off: what is not found must not exist
    exact = EngineOptions(null_move=False, lmr=False, futility=False)
    iterations = Engine(game, exact).iterate(state, limits)
    with _ctrl_c_sets(stop):
        for report in iterations:
            last = report
            if report.score >= WIN - report.depth:
                # every win this short was searched in full: none shorter is left
                break
    mover = game.info.players[game.to_move(state)]
    print(f"{game.info.title}: {where}, {mover} to move")
    searched = last.depth if last is not None else 0
    moves = (searched + 1) // 2
    if last is not None and last.score >= WIN - plies:
        length = (plies_to_end(last.score) + 1) // 2
        written = notation.move_formatter(game)
        line, position = [], state
        for move in last.pv:
            line.append(written(position, move))
            position = game.result(position, move)
        print(f"mate in {length}: {line[0]} ({mover} wins in {plies_to_end(last.score)} plies)")
        print(f"line: {' '.join(line)}")
    elif searched == plies:
        print(f"no mate in {args.mate}: {mover} cannot force a win within {describe_depth(plies)}")
    else:
        shown = f"no mate in {moves} or fewer moves" if moves else "nothing proven"
        print(f"not finished: {shown}; the search to {plies} plies was stopped at {searched}")
    nodes = last.nodes if last is not None else 0
    elapsed = last.elapsed if last is not None else 0.0
    print(f"nodes: {nodes:,}  time: {elapsed:.3f} s")


def _interval(bounds: tuple[int, int], shown: Callable[[int, bool], str]) -> str:
    """Bounds on a value as the game shows scores (exact scores, even for a weak solve)."""
    return f"[{shown(bounds[0], False)} .. {shown(bounds[1], False)}]"


def _not_finished(solution: Solution, args: argparse.Namespace) -> str:
    """The line saying why a solve did not finish and what is missing."""
    after = f"after {solution.time:.1f} s"
    if solution.stopped == "time":
        why = f"time limit of {args.time:g} s reached {after}"
    elif solution.stopped == "nodes":
        why = f"node limit of {args.nodes:,} reached {after}"
    else:
        why = f"stopped by Ctrl-C {after}"
    missing = "not every move was tested" if solution.proven else "the value is not proven"
    return f"not finished: {why} ({missing})"


@contextmanager
def _ctrl_c_sets(stop: threading.Event) -> Iterator[None]:
    """Within the block the first Ctrl-C (SIGINT) sets ``stop``; a second one interrupts
    as usual. Signals reach only the main thread: elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is None:  # installed outside Python: put Python's own back afterwards
        previous = signal.default_int_handler

    def first(signum: int, frame: Any) -> None:
        stop.set()
        signal.signal(signal.SIGINT, previous)

    signal.signal(signal.SIGINT, first)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _progress_line(
    shown: Callable[[int, bool], str],
) -> Iterator[Callable[[SolveProgress], None]]:
    """A progress callable for :func:`~zerosum.search.solve.solve`: a live rich line on
    stderr when it is a terminal (gone when the solve ends), else plain lines as
    :data:`PLAIN_PROGRESS_SECONDS` says."""

    def text(progress: SolveProgress) -> str:
        if progress.phase == "value":
            where = f"value in {_interval(progress.bounds, shown)}"
        else:
            where = f"value {shown(progress.bounds[0], False)}, testing the moves"
        rate = progress.nodes / progress.elapsed if progress.elapsed > 0 else 0.0
        return (
            f"solving: {where}  {progress.nodes:,} nodes  {rate:,.0f} nodes/s  "
            f"{progress.elapsed:.1f} s"
        )

    if not sys.stderr.isatty():
        first, every = PLAIN_PROGRESS_SECONDS
        due = first

        def plain(progress: SolveProgress) -> None:
            nonlocal due
            if progress.elapsed >= due:
                due = progress.elapsed + every
                print(text(progress), file=sys.stderr, flush=True)

        yield plain
        return
    from rich.console import Console
    from rich.live import Live
    from rich.text import Text

    refreshed = 0.0
    with Live(Text(""), console=Console(stderr=True), auto_refresh=False, transient=True) as live:

        def update(progress: SolveProgress) -> None:
            nonlocal refreshed
            now = time.perf_counter()
            if now - refreshed >= 0.1:  # the solver may report thousands of probes a second
                refreshed = now
                live.update(Text(text(progress)), refresh=True)

        yield update


def _print_dynamic_programme(game: Any, solution: Any) -> None:
    from zerosum.notation import format_state

    print(f"{game.info.title}: {format_state(game, game.initial_state())}")
    print(f"value: {solution.value} (first player's margin with best play)")
    print(f"answer: {solution.answer}")
    print(f"line: {', '.join(solution.line)}")
    print(f"states: {solution.states:,} (dynamic programming over the repeated positions)")
