"""``zerosum chart``: a picture of a match or a tournament from its record file.

``zerosum chart RECORDS.jsonl --out FILE.svg [--kind ratings|llr|elo]`` reads the
records that ``zerosum match`` or ``zerosum tournament`` saved and writes an SVG file
(:mod:`zerosum.charts`) that a browser opens:

- ``ratings`` (the default): for a tournament, every agent's Bradley-Terry rating with
  its 95% interval (``--prior`` virtual draws per pairing, 1 by default as for
  ``zerosum tournament``); for a match, the Elo difference of A over B with its interval;
- ``llr`` (a match only): the SPRT's log-likelihood ratio after each complete game pair,
  with its bounds. The settings are ``--sprt elo0=.. elo1=.. [alpha=..] [beta=..]
  [model=..]``, or, without it, a header's ``sprt`` entry (the settings as
  :meth:`zerosum.ratings.SprtSettings.describe` writes them) when the record file has one;
- ``elo`` (a match only): the Elo difference of A over B, with its interval, after each
  game in schedule order.

Void games are left out, as in the match's own summary. A bad file or option is a
one-line error with status 2.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from zerosum.cli.common import UsageError

KINDS = ("ratings", "llr", "elo")
"""The pictures ``--kind`` chooses from."""


def register(commands: Any) -> None:
    """Add the ``chart`` subcommand."""
    chart = commands.add_parser(
        "chart",
        help="draw a match's or a tournament's results as an SVG picture",
        description="Read a record file of 'zerosum match' or 'zerosum tournament' and "
        "write an SVG picture: ratings with their intervals, a match's SPRT log-likelihood "
        "ratio over its game pairs (llr), or its Elo estimate over its games (elo).",
    )
    chart.add_argument("records", metavar="RECORDS", help="the record file (JSON lines)")
    chart.add_argument("--out", required=True, metavar="FILE", help="the SVG file to write")
    chart.add_argument(
        "--kind", choices=KINDS, default="ratings", help="the picture (default ratings)"
    )
    chart.add_argument(
        "--sprt",
        nargs="+",
        metavar="KEY=VALUE",
        help="the SPRT of --kind llr: elo0=0 elo1=5 [alpha=0.05] [beta=0.05] "
        "[model=logistic|normalized] (default: the settings the match's header records)",
    )
    chart.add_argument(
        "--prior",
        type=float,
        default=1.0,
        metavar="DRAWS",
        help="virtual draws per pairing for a tournament's ratings (default 1)",
    )
    chart.set_defaults(run=run_chart)


def _warn(message: str) -> None:
    """Print a warning about the record file (a damaged line) on one line."""
    print(f"zerosum: warning: {message}", file=sys.stderr)


def _labels(path: str, header: dict[str, Any]) -> tuple[str, ...]:
    """The agents' names, as the event's tables show them, from the header's specs."""
    from zerosum.specs import parse_agent_spec

    agents = header.get("agents")
    kind = header.get("kind")
    if kind not in ("match", "tournament") or not isinstance(agents, list):
        raise UsageError(f"{path}: the header names no match or tournament and its agents")
    if not all(isinstance(spec, str) for spec in agents) or len(agents) < 2:
        raise UsageError(f"{path}: the header's agents are not two or more agent specs")
    return tuple(parse_agent_spec(spec).label for spec in agents)


def _settings(args: argparse.Namespace, header: dict[str, Any]) -> Any:
    """The SPRT settings of ``--kind llr``: the option's, else the header's."""
    from zerosum.ratings import RatingError, SprtSettings

    if args.sprt is not None:
        text, origin = " ".join(args.sprt), "--sprt"
    elif isinstance(header.get("sprt"), str):
        text, origin = header["sprt"], f"{args.records}: the header's sprt"
    else:
        raise UsageError(
            f"--kind llr needs the SPRT's settings: {args.records} records none; "
            f"give --sprt elo0=0 elo1=5"
        )
    try:
        return SprtSettings.parse(text)
    except RatingError as error:
        raise UsageError(f"{origin}: {error}") from None


def _ratings(
    args: argparse.Namespace, header: dict[str, Any], labels: tuple[str, ...], records: list[Any]
) -> str:
    """A tournament's Bradley-Terry ratings, or a match's Elo difference."""
    from zerosum import arena, charts
    from zerosum.ratings import bradley_terry

    if header["kind"] == "match":
        estimate = arena.match_estimate(records)
        return charts.ratings_chart(
            [f"{labels[0]} - {labels[1]}"],
            [estimate.elo],
            [(estimate.low, estimate.high)],
            title=f"{header.get('game')}: {labels[0]} vs {labels[1]}, {estimate.games} games",
            caption=f"Elo difference ({estimate.confidence:.0%} interval)",
        )
    scores, games = arena.crosstable(records, len(labels))
    fit = bradley_terry(scores, games, prior=args.prior)
    return charts.ratings_chart(
        labels,
        fit.ratings,
        list(zip(fit.low, fit.high, strict=True)),
        title=f"{header.get('game')}: round robin of {len(labels)} agents, {len(records)} games",
        caption=f"Bradley-Terry Elo, mean 0 ({fit.confidence:.0%} interval)",
    )


def _in_order(records: list[Any]) -> list[Any]:
    """The scored games in schedule order (a file lists them as they finished)."""
    return sorted((r for r in records if not r.void), key=lambda r: r.index)


def _llr(
    args: argparse.Namespace, header: dict[str, Any], labels: tuple[str, ...], records: list[Any]
) -> str:
    """A match's SPRT log-likelihood ratio after each complete game pair."""
    from zerosum import arena, charts
    from zerosum.ratings import sprt

    settings = _settings(args, header)
    by_index = {record.index: record for record in _in_order(records)}
    counts = [0] * 5
    points = []
    for index, record in by_index.items():
        partner = by_index.get(index + 1)
        if index % 2 or partner is None:
            continue
        # one pair's pentanomial, so that a pair is what arena.match_pairs says it is
        for cell, n in enumerate(arena.match_pairs([record, partner]).counts):
            counts[cell] += n
        points.append(sprt(counts, settings).llr)
    if not points:
        raise UsageError(f"{args.records} holds no complete game pair: no LLR to draw")
    return charts.llr_chart(
        points,
        settings.lower,
        settings.upper,
        title=f"SPRT {labels[0]} vs {labels[1]}, elo0={settings.elo0:g} elo1={settings.elo1:g}",
    )


def _elo(
    args: argparse.Namespace, header: dict[str, Any], labels: tuple[str, ...], records: list[Any]
) -> str:
    """A match's Elo difference with its interval after each game."""
    from zerosum import arena, charts
    from zerosum.ratings import elo_estimate

    wins = draws = losses = 0
    points = []
    for record in _in_order(records):
        won, drew, lost = arena.tally([record], 0)
        wins, draws, losses = wins + won, draws + drew, losses + lost
        estimate = elo_estimate(wins, draws, losses)
        points.append((estimate.elo, estimate.low, estimate.high))
    if not points:
        raise UsageError(f"{args.records} holds no scored game: no Elo to draw")
    return charts.elo_chart(
        points, title=f"Elo difference {labels[0]} - {labels[1]} (95% interval)"
    )


def run_chart(args: argparse.Namespace) -> None:
    """Read the record file, draw the picture ``--kind`` asks for and write it."""
    from zerosum import arena
    from zerosum.ratings import RatingError

    if args.sprt is not None and args.kind != "llr":
        raise UsageError("--sprt is for --kind llr only")
    if not (args.prior >= 0 and math.isfinite(args.prior)):
        raise UsageError(f"--prior must be 0 or more virtual draws, not {args.prior:g}")
    header, records = arena.read_records(args.records, warn=_warn)
    labels = _labels(args.records, header)
    if args.kind != "ratings" and header["kind"] != "match":
        raise UsageError(f"--kind {args.kind} draws a match, and {args.records} is a tournament")
    draw = {"ratings": _ratings, "llr": _llr, "elo": _elo}[args.kind]
    try:
        svg = draw(args, header, labels, records)
    except RatingError as error:  # no games to rate, or ratings without a maximum
        raise UsageError(f"{args.records}: {error}") from None
    Path(args.out).write_text(svg, encoding="utf-8")
    print(f"chart saved to {args.out}")
