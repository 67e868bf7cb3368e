"""Every published value of DDS's test deals checked on the whole deals, each check of
each deal stopped after a time cap.

For each deal of ``../shared/data/bridge/dds_list100.txt`` (format in the data's
README), three checks, each in a child process that is ended once ``--cap`` seconds
have passed, saying what it had checked by then:

* **TRACE**: the declaring side's tricks with best play after each card of the real play
  (:func:`~zerosum.games.bridge.ddsfile.replay`), from the last trick back to before
  the first card, so that a check stopped by the cap has done the endings;
* **FUT**: the tricks the opening leader's side takes after each of its leads, one lead
  after another;
* **TABLE**: the 20 results of the double-dummy table (:func:`dd_table`), strain by
  strain, against the ``TABLE`` line.

A deal's check *passes* when every value is the published one, *fails* at the first
that is not (printed), and *times out* when the cap strikes first (with how many values
it had checked, all equal). The tests (``tests/games/bridge/test_bridge_data.py``) run
endings of 5 to 8 cards a hand; this runs the whole deals, with the solver users get:
compiled with the ``fast`` extra (every check of every deal in a few seconds; the
whole file in about ten minutes), in pure Python without it or with
``ZEROSUM_KERNELS=0`` (seconds a solve: many checks then stop at the cap). At most
``deals x 3 x cap`` seconds (``--deals``, ``--cap``).

Run: ``.venv/bin/python bench/bridge_data.py [--deals 100] [--first 0] [--cap 60]
[--checks trace,fut,table]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from pathlib import Path

from zerosum.games.bridge.ddsfile import DdsDeal, load_dds_file, replay
from zerosum.games.bridge.notation import card_name
from zerosum.games.bridge.rules import make, result
from zerosum.games.bridge.solver import DoubleDummySolver, dd_table

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "bridge" / "dds_list100.txt"

Value = tuple[str, object, object]
"""One value checked: what it is, ours and the published one."""


def trace_values(deal: DdsDeal) -> Iterator[Value]:
    """The declaring side's tricks after each card of the real play, last first."""
    positions = replay(deal)
    solver = DoubleDummySolver(deal.trump)
    declaring = 1 - (deal.leader & 1)
    for played in range(len(deal.trace) - 1, -1, -1):
        hands, seat, _, won0, won1, _ = positions[played]
        tricks = solver.tricks(positions[played])
        ours = tricks if seat & 1 == declaring else hands[seat].bit_count() - tricks
        yield f"after {played} cards", (won1 if declaring else won0) + ours, deal.trace[played]


def fut_values(deal: DdsDeal) -> Iterator[Value]:
    """The tricks of the opening leader's side after each published lead."""
    start = make(deal.hands, deal.leader, deal.trump)
    solver = DoubleDummySolver(deal.trump)
    for lead in deal.leads:
        # after the lead the other side is to move, with all 13 tricks to come
        ours = 13 - solver.tricks(result(start, lead.card))
        yield f"lead {card_name(lead.card)}", ours, lead.tricks


def table_values(deal: DdsDeal) -> Iterator[Value]:
    """The tricks of north, east, south and west as declarer, strain by strain."""
    for strain in range(5):
        (row,) = dd_table(deal.hands, strains=[strain])
        yield f"strain {'SHDCN'[strain]}", row, list(deal.table[strain])


CHECKS: dict[str, Callable[[DdsDeal], Iterator[Value]]] = {
    "trace": trace_values,
    "fut": fut_values,
    "table": table_values,
}


def count(deal: DdsDeal, check: str) -> int:
    """How many values ``check`` has for ``deal``."""
    return {"trace": len(deal.trace), "fut": len(deal.leads), "table": 5}[check]


def _child(deal: DdsDeal, check: str, connection: Connection) -> None:
    """Send each value of ``check`` as it is found."""
    for value in CHECKS[check](deal):
        connection.send(value)
    connection.close()


def run_check(deal: DdsDeal, check: str, cap: float) -> tuple[str, int, float]:
    """Run one check of one deal for at most ``cap`` seconds: its verdict (``passed``,
    ``FAILED ...`` or ``timed out``), the values found equal and the seconds spent."""
    context = multiprocessing.get_context("fork")
    receiving, sending = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(deal, check, sending), daemon=True)
    start = time.perf_counter()
    child.start()
    sending.close()
    equal = 0
    verdict = "timed out"
    try:
        while equal < count(deal, check):
            left = cap - (time.perf_counter() - start)
            if left <= 0 or not receiving.poll(left):
                break
            what, ours, published = receiving.recv()
            if ours != published:
                verdict = f"FAILED {what}: ours {ours}, published {published}"
                break
            equal += 1
        else:
            verdict = "passed"
    except EOFError:
        verdict = "FAILED: the check ended without all its values"
    finally:
        child.kill()
        child.join()
        receiving.close()
    return verdict, equal, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="deals to check")
    parser.add_argument("--first", type=int, default=0, help="deals of the file to skip")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds each check may take")
    parser.add_argument(
        "--checks", default="trace,fut,table", help="checks, in order: trace, fut, table"
    )
    args = parser.parse_args()
    checks = [name.strip() for name in args.checks.split(",") if name.strip()]
    unknown = [name for name in checks if name not in CHECKS]
    if unknown:
        parser.error(f"unknown check {unknown[0]!r}: use trace, fut, table")
    deals = load_dds_file(DATA)[args.first : args.first + args.deals]
    print(
        f"{len(deals)} deals, checks {', '.join(checks)}, at most {args.cap:g} s each "
        f"(at most {len(deals) * len(checks) * args.cap / 60:.0f} min)"
    )
    tally = {name: {"passed": 0, "failed": 0, "timed out": 0} for name in checks}
    for deal in deals:
        shown = []
        for name in checks:
            verdict, equal, spent = run_check(deal, name, args.cap)
            kind = "failed" if verdict.startswith("FAILED") else verdict
            tally[name][kind] += 1
            shown.append(f"{name.upper()} {equal}/{count(deal, name)} {verdict} ({spent:.1f} s)")
        contract = f"{'SHDCN'[deal.trump]}, {'NESW'[deal.leader]} leads"
        print(f"deal at line {deal.line} ({contract}): {'; '.join(shown)}", flush=True)
    for name in checks:
        counts = ", ".join(f"{number} {kind}" for kind, number in tally[name].items())
        print(f"{name.upper()}: {counts}")


if __name__ == "__main__":
    main()
