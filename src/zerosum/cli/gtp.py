"""``zerosum gtp``: zerosum's engine as a GTP engine, for games whose moves are board
points (othello, gomoku, the m,n,k-games), on stdin/stdout.

The protocol, and what the engine does with every command, is
:mod:`zerosum.protocols.gtp`; this command only builds the game and the engine's limits,
connects them to the process's standard streams, and exits with status 0 after ``quit``
or at the end of the input."""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

from zerosum.cli.common import count


def register(commands: Any) -> None:
    """Add the ``gtp`` subcommand."""
    parser = commands.add_parser(
        "gtp",
        help="play a board game as a GTP engine (Go Text Protocol, on stdin/stdout)",
        description=(
            "Speak the Go Text Protocol (version 2) on standard input and output for a "
            "game whose moves are board points: protocol_version, name, version, "
            "known_command, list_commands, boardsize, clear_board, komi, play, genmove, "
            "undo, showboard, final_score, time_settings, time_left, quit."
        ),
    )
    parser.add_argument(
        "--game", required=True, help="the game spec, e.g. othello, gomoku:width=9 or tictactoe"
    )
    parser.add_argument(
        "--time",
        metavar="S",
        help="seconds a move when the controller sets no clock (default 1 with no --depth "
        "or --nodes)",
    )
    parser.add_argument(
        "--depth", type=count, metavar="N", help="search at most N plies a move (default: no cap)"
    )
    parser.add_argument(
        "--nodes", type=count, metavar="N", help="search at most N nodes a move (default: no cap)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Run the engine on the standard streams until ``quit`` or the end of the input."""
    from zerosum.cli.common import UsageError, make_game
    from zerosum.protocols.gtp import GtpEngine
    from zerosum.specs import AgentSpecError, parse_agent_spec

    game = make_game(args.game)
    if args.time is not None and "," in args.time:
        raise UsageError(f"--time must be a number of seconds, not {args.time!r}")
    given = [
        f"{name}={value}"
        for name, value in (("time", args.time), ("depth", args.depth), ("nodes", args.nodes))
        if value is not None
    ]
    try:  # read as an engine: spec's limits are, with its checks and its default time
        limits = parse_agent_spec("engine:" + ",".join(given)).limits()
    except AgentSpecError as error:
        raise UsageError(str(error)) from None
    # a controller's stray bytes must not end the engine with a decoding error, nor a
    # board drawn in characters the terminal's encoding lacks
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="backslashreplace")
    engine = GtpEngine(game, sys.stdout, limits=limits)
    engine.run(iter(sys.stdin.readline, ""))
