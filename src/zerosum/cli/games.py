"""``zerosum games``: list the games, built-in and installed, and the broken plugins."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from zerosum.cli.common import table


def register(commands: Any) -> None:
    """Add the ``games`` subcommand."""
    parser = commands.add_parser("games", help="list the built-in and installed games")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Print every registered game with its summary; warn about each installed game
    plugin that cannot be loaded, on standard error."""
    from zerosum.games import registry

    rows = [(e.name, e.summary) for e in registry.entries()]
    print(table(rows, ("game", "what it is")), flush=True)  # the list before the warnings
    for problem in registry.plugin_problems():
        print(f"zerosum: warning: {problem}", file=sys.stderr)
