"""``zerosum gomocup``: a gomoku brain for Gomocup managers (Piskvork) on stdin/stdout.

The protocol, and what the brain does with every command, is
:mod:`zerosum.protocols.gomocup`; this command only connects it to the process's
standard streams and exits with status 0 after ``END`` or at the end of the input.

``--depth N`` and ``--nodes N`` cap every search on top of the manager's time, and
``--set NAME=VALUE`` changes an engine option (any field of
:class:`~zerosum.search.engine.EngineOptions`, as an ``engine:`` agent spec takes it),
so that a match can play the brain against its own other settings at fixed nodes:
``gomocup:zerosum gomocup --nodes 3000 --set threats=off``. Bad values print one line
and exit with status 2."""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

from zerosum.cli.common import count


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
    parser.add_argument(
        "--depth", type=count, metavar="N", help="search at most N plies a move (default: no cap)"
    )
    parser.add_argument(
        "--nodes", type=count, metavar="N", help="search at most N nodes a move (default: no cap)"
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an engine option, as in an engine: agent spec (threats=off, table_size=65536); "
        "repeatable",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Run the brain on the standard streams until ``END`` or the end of the input."""
    from zerosum.cli.common import UsageError
    from zerosum.protocols.gomocup import GomocupBrain
    from zerosum.specs import AgentSpecError, parse_agent_spec

    caps = [
        f"{name}={value}"
        for name, value in (("depth", args.depth), ("nodes", args.nodes))
        if value is not None
    ]
    settings = [item for item in args.set if "," not in item]
    if len(settings) < len(args.set):
        raise UsageError("--set takes one NAME=VALUE each time; repeat it for more")
    try:
        spec = parse_agent_spec("engine:" + ",".join([*caps, *settings]))
    except AgentSpecError as error:
        raise UsageError(str(error)) from None
    if "time" in dict(spec.options) or "name" in dict(spec.options):
        raise UsageError("--set takes engine options; the manager gives the time")
    try:
        limits = spec.limits() if caps else None
        options = spec.engine_options()
    except AgentSpecError as error:
        raise UsageError(str(error)) from None
    # a manager's stray bytes must not end the brain with a decoding error
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    brain = GomocupBrain(
        sys.stdout,
        messages=not args.quiet,
        caps=limits,
        options=options,
    )
    brain.run(iter(sys.stdin.readline, ""))
