"""``zerosum gomocup``: a gomoku brain for Gomocup managers (Piskvork) on stdin/stdout.

The protocol, and what the brain does with every command, is
:mod:`zerosum.protocols.gomocup`; this command only connects it to the process's
standard streams and exits with status 0 after ``END`` or at the end of the input."""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any


def register(commands: Any) -> None:
    """Add the ``gomocup`` subcommand."""
    parser = commands.add_parser(
        "gomocup",
        help="play gomoku as a Gomocup brain (Piskvork manager protocol on stdin/stdout)",
        description=(
            "Speak the Gomocup (Piskvork) brain protocol on standard input and output: "
            "START, BEGIN, TURN, BOARD, INFO, ABOUT, END and the optional RECTSTART, "
            "RESTART, TAKEBACK, PLAY."
        ),
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no MESSAGE line per search iteration (depth, score, principal variation)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Run the brain on the standard streams until ``END`` or the end of the input."""
    from zerosum.protocols.gomocup import GomocupBrain

    # a manager's stray bytes must not end the brain with a decoding error
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    brain = GomocupBrain(sys.stdout, messages=not args.quiet)
    brain.run(iter(sys.stdin.readline, ""))
