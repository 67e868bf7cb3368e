"""``zerosum play``: play any game in the terminal, against the engine or a person.

The game is any spec: a registered name with options, a bare setup like ``solve``
takes (``zerosum play nim 3,4,5``), or ``module.path:attribute`` for a game of your own.

By default you move first and the engine replies (``--engine-first`` swaps). ``--first``
and ``--second`` put any agent spec on a side (``human``, ``engine:depth=4``,
``random``...), so two people or two engines may play too. Engines whose spec sets no
limit think ``--time`` seconds a move, and so does the engine that answers ``hint``.

``zerosum play bridge`` sits you at a card table (:mod:`zerosum.cli.bridge_play`): one
hand of two-player bridge against the engine, or a four-hand deal declared from
north-south (``--declarer``) while the engine defends; ``--trump`` and ``--leader`` are
bridge's options too.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any

from zerosum.cli.common import UsageError, make_game


def _think_time(text: str) -> float:
    """Read a positive number of seconds; argparse type."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number of seconds")
    return value


def register(commands: Any) -> None:
    """Add the ``play`` subcommand."""
    parser = commands.add_parser(
        "play",
        help="play a game in the terminal against the engine (or a person)",
        description="Type moves in the game's notation; 'help' lists the commands.",
    )
    parser.add_argument(
        "game", help="the game spec, e.g. tictactoe, connect4:width=5 or mymodule:MyGame"
    )
    parser.add_argument("setup", nargs="?", help="the game's main option, e.g. nim heaps 3,4,5")
    parser.add_argument(
        "--engine-first",
        "--human-second",
        action="store_true",
        help="the engine moves first and you play second",
    )
    parser.add_argument("--first", metavar="SPEC", help="who plays first: human, engine:..., ...")
    parser.add_argument("--second", metavar="SPEC", help="who plays second")
    parser.add_argument(
        "--time",
        type=_think_time,
        default=1.0,
        metavar="S",
        help="engine think time per move and for hints, in seconds (default 1)",
    )
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--moves", metavar="M1,M2", help="start after these moves")
    start.add_argument("--position", metavar="TEXT", help="start from this position")
    parser.add_argument("--trump", help="bridge: the trump strain (S, H, D, C or N)")
    parser.add_argument("--leader", help="bridge: the opening leader (N, E, S, W; 0 or 1)")
    parser.add_argument(
        "--declarer", help="bridge: declare a four-hand deal from this seat (S by default)"
    )
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the board (auto: on a terminal, unless NO_COLOR is set)",
    )
    parser.set_defaults(run=run)


def _line_writer(text: str) -> None:
    """Print ``text`` at once, so a pipe sees it before the next question."""
    print(text, flush=True)


def run(args: argparse.Namespace) -> None:
    """Play the game the arguments describe, until it ends or the person leaves."""
    from zerosum import notation
    from zerosum.arena import parse_opening
    from zerosum.cli.bridge_play import GAMES, BridgeSession, bridge_game
    from zerosum.games.registry import parse_spec
    from zerosum.specs import make_agent, parse_agent_spec
    from zerosum.terminal import run_session

    if args.engine_first and (args.first or args.second):
        raise UsageError("--engine-first cannot be combined with --first or --second")
    bridge = parse_spec(args.game)[0] in GAMES
    seed = None
    if bridge:
        game, seed = bridge_game(
            args.game,
            args.setup,
            trump=args.trump,
            leader=args.leader,
            declarer=args.declarer,
            position=args.position,
        )
    elif args.trump or args.leader or args.declarer:
        raise UsageError("--trump, --leader and --declarer are bridge's options")
    else:
        game = make_game(args.game, args.setup)
    default = ("engine", "human") if args.engine_first else ("human", "engine")
    specs = [
        parse_agent_spec(text or fallback)
        for text, fallback in zip((args.first, args.second), default, strict=True)
    ]
    seats = [
        None if spec.kind == "human" else make_agent(spec, seed=None, default_time=args.time)
        for spec in specs
    ]
    start = None
    if args.moves is not None:
        start = game.initial_state()
        for move in parse_opening(game, args.moves):
            start = notation.play(game, start, move)
    elif args.position is not None:
        start = notation.parse_state(game, args.position)
    color = args.color == "always" or (
        args.color == "auto" and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    )
    hint = make_agent("engine", default_time=args.time)
    if bridge:
        BridgeSession(
            game, seats, seed=seed, start=start, hint=hint, write=_line_writer, color=color
        ).run()
    else:
        run_session(game, seats, start=start, hint=hint, write=_line_writer, color=color)
