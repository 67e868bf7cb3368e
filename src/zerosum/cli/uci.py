"""``zerosum uci``: zerosum's chess engine for UCI chess GUIs on stdin/stdout.

The protocol, and what the engine does with every command, is
:mod:`zerosum.protocols.uci`; this command only connects it to the process's standard
streams and exits with status 0 after ``quit`` or at the end of the input."""

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
    """Add the ``uci`` subcommand."""
    parser = commands.add_parser(
        "uci",
        help="play chess as a UCI engine (for chess GUIs, on stdin/stdout)",
        description=(
            "Speak the UCI chess engine protocol on standard input and output: uci, "
            "isready, setoption, ucinewgame, position, go, stop, ponderhit, quit."
        ),
    )
    parser.add_argument(
        "--hash",
        type=count,
        default=None,
        metavar="MB",
        help="the transposition table's size in MB, 1 to 4096, as the Hash option (default 16)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Run the engine on the standard streams until ``quit`` or the end of the input."""
    from zerosum.protocols.uci import DEFAULT_HASH, UciEngine

    # a GUI's stray bytes must not end the engine with a decoding error
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    # the search thread holds the interpreter lock; the loop reading ``stop`` gets it at
    # the next switch, by default every 5 ms: 1 ms keeps the answer within a few ms
    sys.setswitchinterval(SWITCH_INTERVAL)
    engine = UciEngine(sys.stdout, hash_mb=args.hash if args.hash is not None else DEFAULT_HASH)
    engine.run(iter(sys.stdin.readline, ""))
