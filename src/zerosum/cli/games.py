"""``zerosum games``: list the built-in games."""

from __future__ import annotations

import argparse
from typing import Any

from zerosum.cli.common import table


def register(commands: Any) -> None:
    """Add the ``games`` subcommand."""
    parser = commands.add_parser("games", help="list the built-in games")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Print every registered game with its summary."""
    from zerosum.games import registry

    print(table([(e.name, e.summary) for e in registry.ENTRIES], ("game", "what it is")))
