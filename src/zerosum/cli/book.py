"""``zerosum book``: build an opening book of exact scores, and read one.

* ``zerosum book build GAME --plies N`` solves every position up to ``N`` plies (one per
  mirror pair for connect four) into an SQLite file (:mod:`zerosum.book`): the deepest
  ply with the solver (the compiled kernel when kernels are on), on ``--workers``
  processes (one per core by default) or a Ray cluster (``--ray ADDRESS``, ``local`` for
  one started here), every shallower ply from the ply below. The file defaults to the
  user's books folder, where ``zerosum solve`` and the engine find it. Run again, the same
  command skips what is stored: an interrupted build resumes, and a larger ``--plies``
  deepens a book. Progress shows on stderr; at the end a table gives the positions and
  the time of each ply.
* ``zerosum book lines GAME --player first --plies N`` adds to a book the lines of a
  player (:func:`zerosum.book.build_lines`): every position up to ``N`` plies where the
  player is to move and which it reaches playing the book's moves against every reply,
  with its exact score and one best move, on the same workers as ``build``. Resumable
  and extensible the same way.
* ``zerosum book info FILE`` prints the book's metadata and its positions per ply.
* ``zerosum book probe FILE --moves 44`` prints the stored score of a position and of
  each of its moves, in the game's published convention when it has one (on a line, the
  one move the line chooses).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zerosum.cli.common import count, make_game, progress_bar, table
from zerosum.game import describe_depth

if TYPE_CHECKING:
    from zerosum.book import Book, BuildProgress, PlyReport

PLAIN_PROGRESS_SECONDS = 10.0
"""How often a build prints a plain progress line when stderr is not a terminal."""


def _workers(text: str) -> int:
    """Read a number of workers, 1 or more; argparse type."""
    value = count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is below 1")
    return value


def register(commands: Any) -> None:
    """Add the ``book`` subcommand and its ``build``, ``info`` and ``probe`` actions."""
    from zerosum.cli.common import Parser

    parser = commands.add_parser(
        "book",
        help="build an opening book of exact scores, or read one",
        description="Examples: zerosum book build connect4 --plies 6 | "
        "zerosum book info connect4-7x6.sqlite | zerosum book probe connect4-7x6.sqlite --moves 44",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=Parser)
    actions.required = True
    build = actions.add_parser(
        "build",
        help="solve every position up to N plies into a book (resumes if interrupted)",
        description="Example: zerosum book build connect4:width=5,height=4 --plies 8 --workers 2",
    )
    build.add_argument("game", help="a game spec, e.g. connect4 or connect4:width=5,height=4")
    build.add_argument(
        "--plies", type=count, required=True, metavar="N", help="every position up to N plies"
    )
    _solving_options(build)
    build.set_defaults(run=run_build)
    lines = actions.add_parser(
        "lines",
        help="add a player's lines to a book: a best move wherever it moves (resumable)",
        description="Example: zerosum book lines connect4 --player first --plies 8 --workers 2",
    )
    lines.add_argument("game", help="a game spec, e.g. connect4 or connect4:width=5,height=4")
    lines.add_argument(
        "--player",
        choices=PLAYERS,
        required=True,
        help="whose moves the lines choose: the first or the second to move",
    )
    lines.add_argument(
        "--plies",
        type=count,
        required=True,
        metavar="N",
        help="every position up to N plies where the player moves and which its lines reach",
    )
    _solving_options(lines)
    lines.set_defaults(run=run_lines)
    info = actions.add_parser("info", help="a book's metadata and positions per ply")
    info.add_argument("file", help="a book file")
    info.set_defaults(run=run_info)
    probe = actions.add_parser(
        "probe",
        help="the stored score of a position and of each of its moves",
        description="Example: zerosum book probe connect4-7x6.sqlite --moves 4453",
    )
    probe.add_argument("file", help="a book file")
    probe.add_argument("--position", help="start from a position in the game's notation")
    probe.add_argument("--moves", help="moves to play first, separated by commas or spaces")
    probe.set_defaults(run=run_probe)


PLAYERS = ("first", "second")
"""The values of ``zerosum book lines --player``, the first mover first."""


def _solving_options(parser: argparse.ArgumentParser) -> None:
    """Add the options ``build`` and ``lines`` share: where they solve and write."""
    parser.add_argument(
        "--workers",
        type=_workers,
        metavar="W",
        help="processes solving positions (default: one per core; Ray: one per CPU)",
    )
    parser.add_argument(
        "--ray", metavar="ADDRESS", help="solve on the Ray cluster at ADDRESS ('local': start one)"
    )
    parser.add_argument(
        "--out", metavar="FILE", help="the book file (default: the user's books folder)"
    )


def run_build(args: argparse.Namespace) -> None:
    """Build (or resume) the book and print the positions and time of each ply."""
    from zerosum.book import build

    _run(args, build)


def run_lines(args: argparse.Namespace) -> None:
    """Add the player's lines to the book and print the positions and time of each ply."""
    from zerosum.book import build_lines

    _run(args, functools.partial(build_lines, player=PLAYERS.index(args.player)))


def _run(args: argparse.Namespace, builder: Callable[..., list[PlyReport]]) -> None:
    """Run ``builder`` (:func:`zerosum.book.build` or ``build_lines``) as the options say,
    with progress on stderr, then print each ply, the first first, and the file."""
    out = _out(args)
    start = time.perf_counter()
    with _progress() as progress:
        reports = builder(
            args.game,
            out,
            args.plies,
            workers=_worker_count(args),
            ray_address=args.ray,
            progress=progress,
            warn=_warn,
        )
    elapsed = time.perf_counter() - start
    shown = sorted(reports, key=lambda report: report.ply)
    rows = [(r.ply, f"{r.positions:,}", f"{r.added:,}", f"{r.seconds:.2f}") for r in shown]
    print(table(rows, ("ply", "positions", "added", "seconds")))
    total = sum(r.positions for r in shown)
    size = out.stat().st_size
    print(f"book: {out} ({total:,} positions, {size / 1e6:.1f} MB, built in {elapsed:.1f} s)")


def _out(args: argparse.Namespace) -> Path:
    """The book file a build writes: ``--out``, else the game's in the user's folder."""
    from zerosum.book import book_name, user_folder

    if args.out:
        return Path(args.out)
    return user_folder() / f"{book_name(make_game(args.game))}.sqlite"


def _worker_count(args: argparse.Namespace) -> int:
    """``--workers``, by default one per core (on Ray, one per CPU of the cluster)."""
    if args.workers is not None:
        return int(args.workers)
    return 1 if args.ray else os.cpu_count() or 1


def run_info(args: argparse.Namespace) -> None:
    """Print the book's metadata and its positions per ply."""
    from zerosum.book import Book

    with Book(args.file) as book:
        info = book.info
        counts = book.counts()
    print(f"book: {info.path}")
    print(f"game: {info.game} ({info.name})")
    print(f"version: {info.version}")
    print(f"complete to: {describe_depth(info.plies)}")
    for player, reached in zip(PLAYERS, info.lines, strict=False):
        if reached is not None:
            print(f"lines of the {player} player: to {describe_depth(reached)}")
    print(f"keys: {info.key}")
    print(f"created: {info.created}")
    print(f"solver: {info.solver}")
    print(f"size: {info.path.stat().st_size / 1e6:.1f} MB")
    rows = [(ply, f"{n:,}") for ply, n in counts.items()]
    print(table([*rows, ("all", f"{sum(counts.values()):,}")], ("ply", "positions")))


def run_probe(args: argparse.Namespace) -> None:
    """Print the stored score of the position and of each of its moves."""
    from zerosum import notation
    from zerosum.book import Book
    from zerosum.cli.common import UsageError
    from zerosum.cli.solve import start_state

    with Book(args.file) as book:
        game = book.game
        state = start_state(game, args)
        where = notation.format_state(game, state) or "the start"
        if game.is_terminal(state):
            raise UsageError(f"nothing to probe: the game is over in {where!r}")
        score = book.score(state)
        scores = book.move_scores(state)
        chosen = book.chosen_move(state) if scores is None else None
    mover = game.info.players[game.to_move(state)]
    print(f"{game.info.title}: {where}, {mover} to move")
    if score is None:
        held = describe_depth(book.info.plies)
        print(f"score: not in the book (it holds every position up to {held})")
        return
    shown = score_writer(game, state)
    print(f"score: {shown(score)}")
    if scores is not None:
        print(move_table(game, state, scores, shown))
    elif chosen is not None:
        move = notation.move_formatter(game)(state, chosen[0])
        print(f"best move (the book's line): {move}")
    else:
        print("moves: not in the book")


def score_writer(game: Any, state: Any, weak: bool = False) -> Callable[[int], str]:
    """How ``zerosum solve`` writes an exact score of ``state``: the published score first
    when the game has a convention for it (``+18 (win in 3 plies)``)."""
    from zerosum.cli.solve import describe

    published = getattr(game, "published_score", None)

    def shown(score: int) -> str:
        if weak:
            return describe(game, (score > 0) - (score < 0), True)
        text = describe(game, score, False)
        return f"{published(state, score):+d} ({text})" if published is not None else text

    return shown


def move_table(game: Any, state: Any, scores: dict[Any, int], shown: Callable[[int], str]) -> str:
    """Every move with its score, as ``zerosum solve --all`` prints them."""
    from zerosum import notation

    format_move = notation.move_formatter(game)
    label = "score" if getattr(game, "published_score", None) is not None else "value"
    return table([(format_move(state, m), shown(s)) for m, s in scores.items()], ("move", label))


def book_line(book: Book, state: Any) -> list[Any]:
    """A best line from ``state`` as far as the book answers: a best move at each step."""
    game = book.game
    line = []
    while (scores := book.move_scores(state)) is not None:
        move = next(iter(scores))
        line.append(move)
        state = game.result(state, move)
    return line


def _warn(message: str) -> None:
    """Print a build's warning on stderr."""
    print(f"zerosum: warning: {message}", file=sys.stderr, flush=True)


@contextmanager
def _progress() -> Iterator[Callable[[BuildProgress], None]]:
    """A progress callable for :func:`zerosum.book.build`: a rich bar per ply with its ETA
    on stderr when it is a terminal, else a plain line every
    :data:`PLAIN_PROGRESS_SECONDS` and one when a ply ends."""
    if not sys.stderr.isatty():
        first: dict[int, int] = {}  # positions stored when each ply started
        due: dict[int, float] = {}

        def plain(progress: BuildProgress) -> None:
            ply = progress.ply
            finished = progress.done == progress.total
            start = first.setdefault(ply, progress.done)
            if progress.seconds < due.get(ply, PLAIN_PROGRESS_SECONDS) and not (
                finished and progress.seconds >= 1.0
            ):
                return
            due[ply] = float("inf") if finished else progress.seconds + PLAIN_PROGRESS_SECONDS
            rate = (progress.done - start) / progress.seconds if progress.seconds > 0 else 0.0
            left = f", ETA {(progress.total - progress.done) / rate:.0f} s" if rate > 0 else ""
            print(
                f"ply {ply}: {progress.done:,}/{progress.total:,} positions, "
                f"{progress.seconds:.0f} s{left if not finished else ''}",
                file=sys.stderr,
                flush=True,
            )

        yield plain
        return
    tasks: dict[int, Any] = {}
    with progress_bar() as bar:

        def update(progress: BuildProgress) -> None:
            task = tasks.get(progress.ply)
            if task is None:
                what = "solving" if progress.solving else "from the ply below"
                task = tasks[progress.ply] = bar.add_task(
                    f"ply {progress.ply} ({what})", total=progress.total
                )
            bar.update(task, completed=progress.done)

        yield update
