"""``zerosum pgn``: the chess games of a match or a tournament as a PGN file.

``zerosum pgn RECORDS.jsonl [--out FILE.pgn]`` reads the records that ``zerosum match``
or ``zerosum tournament`` saved and writes every game, in the order the games were
scheduled, as PGN (:mod:`zerosum.pgn`), on standard output unless ``--out`` names a
file. A bad file, a record file of another game than chess, or a recorded move that is
not legal is a one-line error with status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(commands: Any) -> None:
    """Add the ``pgn`` subcommand."""
    pgn = commands.add_parser(
        "pgn",
        help="write a chess match's or tournament's games as PGN",
        description="Read a record file of 'zerosum match' or 'zerosum tournament' "
        "played at chess and write its games in PGN, the format chess GUIs and databases "
        "read.",
    )
    pgn.add_argument("records", metavar="RECORDS", help="the record file (JSON lines)")
    pgn.add_argument(
        "--out", metavar="FILE", help="the PGN file to write (default: standard output)"
    )
    pgn.set_defaults(run=run_pgn)


def _warn(message: str) -> None:
    """Print a warning about the record file (a damaged line) on one line."""
    print(f"zerosum: warning: {message}", file=sys.stderr)


def run_pgn(args: argparse.Namespace) -> None:
    """Read the record file and write its games as PGN, one blank line between games."""
    from zerosum import arena, pgn
    from zerosum.games import registry

    header, records = arena.read_records(args.records, warn=_warn)
    if header.get("kind") not in ("match", "tournament") or not isinstance(header.get("game"), str):
        raise arena.RecordError(f"{args.records}: the header names no match or tournament")
    game = registry.make(header["game"])
    try:
        games = [
            pgn.game_to_pgn(header, record, game)
            for record in sorted(records, key=lambda r: r.index)
        ]
    except pgn.PgnError as error:
        raise pgn.PgnError(f"{args.records}: {error}") from None
    text = "\n".join(games)
    if args.out is None:
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"{len(games)} games saved to {args.out}")
