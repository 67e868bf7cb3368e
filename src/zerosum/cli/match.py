"""``zerosum match`` and ``zerosum tournament``: agents play each other, results rated.

Both save every game as a JSON line (``--output``, by default a new file named after the
event and the time) and continue an interrupted run with ``--resume``. A progress bar
with the running score goes to standard error when it is a terminal, and so does a
one-line warning for each damaged line of a resumed file and each worker process that
died (its games are played again; see :mod:`zerosum.arena`).

``zerosum match ... --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized]`` runs
a sequential probability ratio test of "A is ``elo0`` Elo stronger than B" against
"A is ``elo1`` stronger" on the pentanomial counts of the game pairs (each opening with
colours swapped; :mod:`zerosum.ratings` gives the formulas). The progress line shows the
LLR and its bounds; the match stops when the test decides (games already running
finish, and only complete pairs count), so ``--games`` is then the most it plays. A
resumed match recomputes the test from its records.

``--tc 40/60+0.6`` (or ``10+0.1``: moves per period, base seconds, increment) puts
every game on a clock: agents that keep time (the engine) plan their moves from it,
and a side that overruns it by more than ``--time-margin`` loses on time.
``--resign-score CP`` (with ``--resign-moves N``) and ``--draw-score CP`` (with
``--draw-moves N --draw-after M``) end games early when both agents' scores agree
(:class:`zerosum.arena.Adjudication`); both are off unless given.

Openings: ``--openings FILE`` reads a suite, one opening a line, in the format
``--openings-format`` names (``moves``, ``positions`` such as FEN, or ``epd``; by
default ``epd`` for a ``.epd`` file, ``positions`` for ``.fen``, else ``moves``), and
``--sample N`` plays N of them drawn without replacement by the seed.
``--random-openings K`` plays K random plies, and ``--balanced-openings K`` only those
random openings that a ``--balance-depth`` search scores within ``--balance-window``
of even. Each opening is played with colours swapped; a match with more than one
opening (or ``--per-opening``) ends with a table of the results from each.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from zerosum.cli.common import UsageError, count, progress_bar, table

DEFAULT_GAMES = 10
"""Games per pairing when ``--games`` is not given."""

DEFAULT_BALANCE_DEPTH = 3
"""The depth of the search that judges ``--balanced-openings``: short, as it runs once
per candidate opening."""

DEFAULT_BALANCE_WINDOW = 50
"""How far from even (in the game's score units) a balanced opening may score."""


def _non_negative(text: str) -> float:
    """Read a non-negative number of seconds; argparse type."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value >= 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text!r} must be 0 or more seconds")
    return value


def _positive(text: str) -> int:
    """Read a whole number of at least 1; argparse type."""
    value = count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _common(parser: argparse.ArgumentParser, per: str) -> None:
    """Add the options matches and tournaments share."""
    parser.add_argument("game", help="the game spec, e.g. tictactoe or connect4:width=5")
    parser.add_argument(
        "--games", type=_positive, default=DEFAULT_GAMES, help=f"games {per} (default 10)"
    )
    openings = parser.add_mutually_exclusive_group()
    openings.add_argument(
        "--openings",
        metavar="FILE",
        help="one opening a line: moves in the game's notation, or positions "
        "(see --openings-format)",
    )
    openings.add_argument(
        "--random-openings", metavar="K", type=count, help="openings of K random plies"
    )
    openings.add_argument(
        "--balanced-openings",
        metavar="K",
        type=count,
        help="openings of K random plies that a short search scores close to even",
    )
    parser.add_argument(
        "--openings-format",
        # checked by the arena (one error listing the formats), so that building the
        # parser does not import it
        metavar="moves|positions|epd",
        help="the --openings file's format (default: epd for .epd, positions for .fen, else moves)",
    )
    parser.add_argument(
        "--sample",
        type=_positive,
        metavar="N",
        help="play N openings of the --openings file, drawn without replacement by the seed",
    )
    parser.add_argument(
        "--balance-depth",
        type=_positive,
        default=DEFAULT_BALANCE_DEPTH,
        metavar="D",
        help=f"the search depth that judges balanced openings (default {DEFAULT_BALANCE_DEPTH})",
    )
    parser.add_argument(
        "--balance-window",
        type=count,
        default=DEFAULT_BALANCE_WINDOW,
        metavar="W",
        help="keep balanced openings scored within W of even, in the game's score units "
        f"(default {DEFAULT_BALANCE_WINDOW})",
    )
    parser.add_argument("--seed", type=int, help="the seed of games and openings (default: new)")
    parser.add_argument(
        "--workers", type=_positive, help="worker processes (default: one per core)"
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="run the games on a Ray cluster (a local one when no address is given)",
    )
    parser.add_argument("--output", metavar="FILE", help="the JSON lines file of the games")
    parser.add_argument(
        "--resume", action="store_true", help="continue the run recorded in --output"
    )
    parser.add_argument(
        "--time-margin",
        type=_non_negative,
        metavar="S",
        help="seconds a move may exceed its agent's time before it forfeits (default 0.5)",
    )
    parser.add_argument(
        "--tc",
        metavar="[MOVES/]BASE[+INC]",
        help="a clock for each side, in seconds: 10+0.1, 40/60+0.6 (default: none)",
    )
    parser.add_argument(
        "--resign-score",
        type=count,
        metavar="CP",
        help="adjudicate a loss when both agents score the game lost by CP or more",
    )
    parser.add_argument(
        "--resign-moves",
        type=_positive,
        default=3,
        metavar="N",
        help="... for N moves each (default 3)",
    )
    parser.add_argument(
        "--draw-score",
        type=count,
        metavar="CP",
        help="adjudicate a draw when both agents score the game within CP of even",
    )
    parser.add_argument(
        "--draw-moves",
        type=_positive,
        default=8,
        metavar="N",
        help="... for N moves each (default 8)",
    )
    parser.add_argument(
        "--draw-after",
        type=count,
        default=0,
        metavar="M",
        help="... once M moves of the game, the opening's included, are played (default 0)",
    )
    parser.add_argument(
        "--max-moves",
        type=_positive,
        metavar="N",
        help="adjudicate a draw when a game reaches N moves, the opening's included "
        "(default: no limit)",
    )


def register(commands: Any) -> None:
    """Add the ``match`` and ``tournament`` subcommands."""
    match = commands.add_parser(
        "match",
        help="play a match between two agents and estimate their Elo difference",
        description="Agents are specs such as engine:time=0.1, engine:depth=6, "
        "engine:nodes=20000,killers=off, random, gomocup:COMMAND[,time=S,wait=S,cwd=DIR] "
        "(an external Gomocup brain, e.g. 'gomocup:pbrain-x,time=1') or "
        "uci:COMMAND[,time=S,depth=N,nodes=N,OPTION=VALUE] (an external UCI engine, e.g. "
        "'uci:stockfish,Skill Level=3') or gtp:COMMAND[,time=S,level=L,wait=S,cwd=DIR] (an "
        "external GTP engine, e.g. 'gtp:/usr/games/gtp-rhino -l 2' for othello); the "
        "command runs to the next comma, split as a shell splits words. With --sprt the "
        "match stops as soon as a sequential probability ratio test decides whether A is "
        "elo0 or elo1 Elo stronger than B; the progress line shows its log-likelihood ratio "
        "(LLR) and bounds.",
    )
    _common(match, "in the match; with --sprt, the most it plays")
    match.add_argument("first", metavar="A", help="the first agent spec")
    match.add_argument("second", metavar="B", help="the second agent spec")
    match.add_argument(
        "--per-opening",
        action="store_true",
        help="show the results from each opening even when there is only one",
    )
    match.add_argument(
        "--sprt",
        nargs="+",
        metavar="KEY=VALUE",
        help="stop when a sequential probability ratio test decides between H0 'A is elo0 "
        "Elo stronger than B' and H1 'A is elo1 stronger', with error rates alpha and beta: "
        "elo0=0 elo1=5 [alpha=0.05] [beta=0.05] [model=logistic|normalized]; pentanomial "
        "over game pairs, as fishtest and fastchess; put it after the agents",
    )
    match.set_defaults(run=run_match)
    tournament = commands.add_parser(
        "tournament",
        help="play a round robin between agents and rate them (Bradley-Terry)",
        description="Every pair of agents plays --games games; ratings are maximum "
        "likelihood Bradley-Terry Elo with mean 0.",
    )
    _common(tournament, "per pairing")
    tournament.add_argument("agents", metavar="AGENT", nargs="+", help="agent specs (2 or more)")
    tournament.add_argument(
        "--prior",
        type=_non_negative,
        default=1.0,
        metavar="DRAWS",
        help="virtual draws added to every pairing, so that unbeaten agents get a finite "
        "rating (default 1; 0 for the plain maximum likelihood)",
    )
    tournament.set_defaults(run=run_tournament)


def _event(args: argparse.Namespace, kind: str, agents: Sequence[str]) -> tuple[Any, Any]:
    """Build the event the arguments describe, reading the seed back when resuming."""
    from zerosum import arena
    from zerosum.games import registry

    if args.resume and args.output is None:
        raise UsageError("--resume needs --output FILE: the record file to continue")
    game = registry.make(args.game)
    seed = args.seed
    if seed is None and args.resume:
        try:
            header = arena.read_header(args.output)
        except FileNotFoundError:
            raise UsageError(f"cannot resume {args.output}: no such file") from None
        seed = header.get("seed")
        if not isinstance(seed, int):
            raise UsageError(f"cannot resume {args.output}: its header has no seed")
    if seed is None:
        seed = secrets.randbelow(1 << 31)
    pairs = (args.games + 1) // 2
    if args.openings is None and (args.sample is not None or args.openings_format is not None):
        raise UsageError("--sample and --openings-format need --openings FILE")
    openings: tuple[Any, ...]
    if args.openings is not None:
        openings = arena.load_openings(game, args.openings, args.openings_format)
        if args.sample is not None:
            openings = arena.sample_openings(openings, args.sample, seed)
    elif args.random_openings is not None:
        openings = arena.random_openings(game, args.random_openings, pairs, seed)
    elif args.balanced_openings is not None:
        openings = arena.balanced_openings(
            game,
            args.balanced_openings,
            pairs,
            seed,
            depth=args.balance_depth,
            window=args.balance_window,
        )
    else:
        openings = ((),)
    margin = args.time_margin if args.time_margin is not None else arena.DEFAULT_TIME_MARGIN
    try:
        control = arena.TimeControl.parse(args.tc) if args.tc is not None else None
    except arena.TimeControlError as error:
        raise UsageError(f"--tc: {error}") from None
    adjudication = arena.Adjudication(
        resign_score=args.resign_score,
        resign_moves=args.resign_moves,
        draw_score=args.draw_score,
        draw_moves=args.draw_moves,
        draw_after=args.draw_after,
        max_moves=args.max_moves,
    )
    return arena.Event(
        kind=kind,
        game=args.game,
        agents=tuple(agents),
        games=args.games,
        openings=openings,
        seed=seed,
        time_margin=margin,
        time_control=control,
        adjudication=adjudication,
    ), game


def _output(args: argparse.Namespace, kind: str, game: Any) -> str:
    """The record file: ``--output``, or a new name made of the event and the time."""
    if args.output is not None:
        return str(args.output)
    return f"{kind}-{game.info.name}-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"


def _warn(message: str) -> None:
    """Print a warning of the run on one line; a live progress bar shows it above itself."""
    print(f"zerosum: warning: {message}", file=sys.stderr)


def _run(
    args: argparse.Namespace,
    event: Any,
    output: str,
    describe: Callable[[list[Any]], str],
    stop: Callable[[list[Any]], bool] | None = None,
) -> list[Any]:
    """Run ``event`` with a progress bar on a terminal (what ``describe`` says of the
    records, and the games per minute of this run); ``stop`` ends it early (see
    :func:`zerosum.arena.run_event`). Return every record."""
    from zerosum import arena

    total = len(event.tasks())
    options: dict[str, Any] = {
        "output": output,
        "resume": args.resume,
        "workers": args.workers,
        "ray": args.ray is not None,
        "ray_address": args.ray or None,
        "warn": _warn,
        "stop": stop,
    }
    if not sys.stderr.isatty():
        return arena.run_event(event, **options)
    with progress_bar(transient=True) as bar:
        task = bar.add_task(describe([]), total=total)
        started = time.monotonic()
        played = 0  # games of this run, not of the resumed file

        def advance(_: Any, records: list[Any]) -> None:
            nonlocal played
            played += 1
            rate = played / max(time.monotonic() - started, 1e-9) * 60
            text = f"{describe(records)}  {rate:.1f} games/min"
            bar.update(task, completed=len(records), description=text)

        return arena.run_event(event, progress=advance, **options)


def _adjudicated(records: Sequence[Any]) -> str:
    """One line counting the games decided by adjudication, or an empty string."""
    from zerosum import arena

    reasons = arena.adjudications(records)
    if not reasons:
        return ""
    parts = ", ".join(f"{reason} {n}" for reason, n in sorted(reasons.items()))
    line = f"adjudicated: {sum(reasons.values())} of {len(records)} games ({parts})"
    if reasons[arena.VOID]:
        line += f"; {arena.VOID} games are void (a worker died) and not scored"
    return line


def run_match(args: argparse.Namespace) -> None:
    """Play the match and print the results table, the Elo difference and the LOS; with
    ``--sprt``, the pair counts, the draw ratio and the test's LLR and decision too."""
    from zerosum import arena
    from zerosum.ratings import RatingError, SprtSettings, format_elo

    settings = None
    if args.sprt is not None:
        try:
            settings = SprtSettings.parse(" ".join(args.sprt))
        except RatingError as error:
            raise UsageError(f"--sprt: {error}") from None
    event, game = _event(args, "match", (args.first, args.second))
    if settings is not None:
        event = dataclasses.replace(event, sprt=settings.describe())
    output = _output(args, "match", game)
    first, second = event.labels

    def running(records: list[Any]) -> str:
        wins, draws, losses = arena.tally(records, 0)
        text = f"{first} {wins + draws / 2:g} - {losses + draws / 2:g} {second}"
        if settings is None:
            return text
        if wins + draws + losses:
            estimate = arena.match_estimate(records)
            text += f"  Elo {format_elo(estimate.elo)} ± {_half_width(estimate)}"
        return f"{text}  {arena.match_sprt(records, settings).describe()}"

    def decided(records: list[Any]) -> bool:
        return settings is not None and arena.match_sprt(records, settings).decision is not None

    records = _run(args, event, output, running, decided if settings is not None else None)
    rows = []
    for agent in (0, 1):
        wins, draws, losses = arena.tally(records, agent)
        games = wins + draws + losses
        points = wins + draws / 2
        share = f"{points / games:.1%}" if games else "-"
        rows.append((event.labels[agent], games, wins, draws, losses, f"{points:g}", share))
    print(
        f"{game.info.title}: {first} vs {second}, {len(records)} games, seed {event.seed}, "
        f"{len(event.openings)} opening(s)"
    )
    print(table(rows, ("agent", "games", "wins", "draws", "losses", "points", "score")))
    try:
        estimate = arena.match_estimate(records)
    except RatingError as error:  # every game void: nothing to estimate from
        print(f"Elo difference ({first} - {second}): none ({error})")
    else:
        print(f"Elo difference ({first} - {second}): {estimate.describe()}")
        print(f"likelihood of superiority: {estimate.los:.1%}")
        if settings is not None:
            print(f"draw ratio: {estimate.draw_ratio:.1%}")
    if settings is not None:
        print(f"pairs by {first}'s points: {arena.match_pairs(records).describe()}")
        print(arena.describe_match_sprt(records, settings, event.games))
    if len(event.openings) > 1 or args.per_opening:
        print(_per_opening(event, records))
    note = _adjudicated(records)
    if note:
        print(note)
    print(f"games saved to {output}")


def _per_opening(event: Any, records: Sequence[Any]) -> str:
    """The table of the first agent's results from each opening the records played."""
    from zerosum import arena

    rows = []
    for which, (wins, draws, losses) in arena.opening_tally(records, 0).items():
        games = wins + draws + losses
        points = wins + draws / 2
        share = f"{points / games:.1%}" if games else "-"
        opening = arena.describe_opening(event.openings[which])
        rows.append((which + 1, opening, games, f"{points:g}", share, wins, draws, losses))
    first = event.labels[0]
    header = ("#", "opening", "games", f"{first} points", "score", "wins", "draws", "losses")
    return f"per opening ({first}'s results):\n" + table(rows, header)


def _half_width(estimate: Any) -> str:
    """Half the width of an Elo interval (``inf`` when an end is unbounded)."""
    width = (estimate.high - estimate.low) / 2
    return f"{width:.1f}" if math.isfinite(width) else "inf"


def run_tournament(args: argparse.Namespace) -> None:
    """Play the round robin and print the crosstable with Bradley-Terry ratings."""
    from zerosum import arena
    from zerosum.ratings import RatingError, bradley_terry, format_elo

    event, game = _event(args, "tournament", args.agents)
    output = _output(args, "tournament", game)
    size = len(event.agents)

    def running(records: list[Any]) -> str:
        scores, _ = arena.crosstable(records, size)
        leader = max(range(size), key=lambda i: sum(scores[i]))
        return f"leader {event.labels[leader]} ({sum(scores[leader]):g})" if records else ""

    records = _run(args, event, output, running)
    scores, games = arena.crosstable(records, size)
    try:
        fit = bradley_terry(scores, games, prior=args.prior)
    except RatingError as error:
        fit = None
        reason = str(error)
    order = sorted(range(size), key=lambda i: -(fit.ratings[i] if fit else sum(scores[i])))
    rows = []
    for rank, i in enumerate(order, start=1):
        played = sum(games[i])
        cells = [
            "x" if j == i else f"{scores[i][j]:g}/{games[i][j]}" if games[i][j] else "-"
            for j in order
        ]
        if fit is not None:
            rating = format_elo(fit.ratings[i])
            interval = f"{format_elo(fit.low[i])} to {format_elo(fit.high[i])}"
        else:
            rating = interval = "-"
        points = sum(scores[i])
        rows.append((rank, event.labels[i], rating, interval, f"{points:g}/{played}", *cells))
    header = ("#", "agent", "Elo", "95% interval", "score", *(str(r) for r in range(1, size + 1)))
    print(
        f"{game.info.title}: round robin of {size} agents, {args.games} games per pairing, "
        f"{len(records)} games, seed {event.seed}"
    )
    print(table(rows, header))
    if fit is not None:
        print(
            f"ratings: Bradley-Terry maximum likelihood, mean 0, {args.prior:g} virtual "
            f"draw(s) per pairing"
        )
    else:
        print(f"ratings: none ({reason})")
    note = _adjudicated(records)
    if note:
        print(note)
    print(f"games saved to {output}")
