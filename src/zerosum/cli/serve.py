"""``zerosum serve``: the browser app, on uvicorn.

It needs the ``web`` extra (FastAPI, uvicorn); without it the command says how to
install it, from a checkout (``pip install -e '.[web]'``) or from the package index
(``pip install 'zerosum[web]'``)."""

from __future__ import annotations

import argparse
from typing import Any

from zerosum.cli.common import UsageError, count


def _seconds(text: str) -> float:
    """Read a positive number of seconds; argparse type."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text!r} must be above 0 and at most 3600 seconds")
    return value


def register(commands: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser = commands.add_parser(
        "serve", help="serve the browser app: play every game, step through alpha-beta"
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=count, default=8000, help="port to listen on")
    parser.add_argument(
        "--workers", type=count, help="engine workers (default: one per core but one)"
    )
    parser.add_argument(
        "--pool",
        choices=("process", "thread"),
        default="process",
        help="run searches in worker processes (default) or threads",
    )
    parser.add_argument(
        "--max-think", type=_seconds, default=10.0, help="cap on every search, in seconds"
    )
    parser.add_argument(
        "--per-address",
        type=count,
        default=64,
        help="most games in play from one client address (0: no bound, for a server "
        "behind a proxy, where every visitor has the proxy's address; default 64)",
    )
    parser.add_argument(
        "--queue",
        type=count,
        help="searches that may wait for a busy engine; more are refused (default: 2 x workers)",
    )
    parser.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="MODULE:ATTRIBUTE",
        help="offer your own game too (a Game class or factory; repeat for more); its "
        "name is the attribute's, in lower case",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    """Start the server and serve until interrupted."""
    try:
        import uvicorn

        from zerosum.web.app import create_app
    except ImportError as error:
        raise UsageError(
            f"the browser app needs the web extra ({error.name} is missing): run "
            f"pip install -e '.[web]' in a zerosum checkout, or pip install 'zerosum[web]'"
        ) from None
    if args.workers == 0:
        raise UsageError("--workers must be 1 or more")
    from zerosum.games import registry

    for target in args.game:
        registry.register(target)
    app = create_app(
        workers=args.workers,
        pool=args.pool,
        max_think=args.max_think,
        queue=args.queue,
        per_address=args.per_address or None,
    )
    print(f"zerosum: serving on http://{args.host}:{args.port}/ (Ctrl-C to stop)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
