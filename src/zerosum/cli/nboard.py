"""``zerosum nboard``: zerosum's othello engine for the NBoard GUI on stdin/stdout.

The protocol, and what the engine does with every command, is
:mod:`zerosum.protocols.nboard`; this command only connects it to the process's
standard streams and exits with status 0 after ``quit`` or at the end of the input."""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any


def register(commands: Any) -> None:
    """Add the ``nboard`` subcommand."""
    parser = commands.add_parser(
        "nboard",
        help="play othello as an NBoard engine (for the NBoard GUI, on stdin/stdout)",
        description=(
            "Speak the NBoard othello engine protocol on standard input and output: "
            "nboard, set depth, set game, move, go, hint, ping, learn, quit."
        ),
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Run the engine on the standard streams until ``quit`` or the end of the input."""
    from zerosum.protocols.nboard import NBoardEngine

    # a GUI's stray bytes must not end the engine with a decoding error
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    NBoardEngine(sys.stdout).run(iter(sys.stdin.readline, ""))
