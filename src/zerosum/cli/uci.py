"""``zerosum uci`` and ``zerosum ucci``: zerosum's engines for GUIs on stdin/stdout.

``zerosum uci`` plays chess, or xiangqi with ``--game xiangqi``, as a UCI engine
(:mod:`zerosum.protocols.uci`); ``zerosum ucci`` plays xiangqi as a UCCI engine, for the
Chinese GUIs that speak it (:mod:`zerosum.protocols.ucci`). These commands only connect
the protocol to the process's standard streams and exit with status 0 after ``quit`` or
at the end of the input."""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

from zerosum.cli.common import count

SWITCH_INTERVAL = 0.001
"""Seconds between the interpreter's thread switches while the engine runs (Python's
default is 0.005): how soon the input loop may run while the search thread computes."""


def register(commands: Any) -> None:
    """Add the ``uci`` and ``ucci`` subcommands."""
    parser = commands.add_parser(
        "uci",
        help="play chess or xiangqi as a UCI engine (for GUIs, on stdin/stdout)",
        description=(
            "Speak the UCI engine protocol on standard input and output: uci, "
            "isready, setoption, ucinewgame, position, go, stop, ponderhit, quit. "
            "Xiangqi is spoken as Pikafish speaks it (FEN, moves like h2e2 with ranks "
            "0-9); its option Coordinates=fairy-stockfish counts ranks 1-10 instead."
        ),
    )
    parser.add_argument(
        "--game",
        choices=("chess", "xiangqi"),
        default="chess",
        help="the game to play (default chess)",
    )
    _hash_argument(parser, "Hash")
    parser.set_defaults(run=run)
    parser = commands.add_parser(
        "ucci",
        help="play xiangqi as a UCCI engine (for Chinese GUIs, on stdin/stdout)",
        description=(
            "Speak UCCI, the Chinese chess engine protocol of xqbase.com, on standard "
            "input and output: ucci, isready, setoption, position, banmoves, go, "
            "ponderhit, stop, quit."
        ),
    )
    _hash_argument(parser, "hashsize")
    parser.set_defaults(run=run_ucci)


def _hash_argument(parser: argparse.ArgumentParser, option: str) -> None:
    parser.add_argument(
        "--hash",
        type=count,
        default=None,
        metavar="MB",
        help=f"the transposition table's size in MB, 1 to 4096, as the {option} option "
        "(default 16)",
    )


def _standard_streams() -> None:
    """Make the standard streams fit for an engine's loop."""
    # a GUI's stray bytes must not end the engine with a decoding error
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    # the search thread holds the interpreter lock; the loop reading ``stop`` gets it at
    # the next switch, by default every 5 ms: 1 ms keeps the answer within a few ms
    sys.setswitchinterval(SWITCH_INTERVAL)


def run(args: argparse.Namespace) -> None:
    """Run the UCI engine on the standard streams until ``quit`` or the end of the input."""
    from zerosum.protocols.uci import DEFAULT_HASH, UciEngine

    _standard_streams()
    hash_mb = args.hash if args.hash is not None else DEFAULT_HASH
    engine = UciEngine(sys.stdout, game=args.game, hash_mb=hash_mb)
    engine.run(iter(sys.stdin.readline, ""))


def run_ucci(args: argparse.Namespace) -> None:
    """Run the UCCI engine on the standard streams until ``quit`` or the end of the input."""
    from zerosum.protocols.ucci import UcciEngine
    from zerosum.protocols.uci import DEFAULT_HASH

    _standard_streams()
    hash_mb = args.hash if args.hash is not None else DEFAULT_HASH
    UcciEngine(sys.stdout, hash_mb=hash_mb).run(iter(sys.stdin.readline, ""))
