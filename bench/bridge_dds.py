"""The double-dummy solver against DDS (through endplay) in the same run.

On the deals of ``../shared/data/bridge/dds_list100.txt``, each cut to an ending by
replaying the first cards of its real play (``--cards`` a hand left, 8 by default):

* **single solve**: the tricks of the side on lead (ours :meth:`DoubleDummySolver.tricks`,
  DDS's ``SolveBoard`` asked for one optimal card), time each and the ratio;
* **table**: the 20 results of the double-dummy table (ours :func:`dd_table`, DDS's
  ``CalcDDtable``), time each and the ratio; the results are checked equal;
* **parts**: the single solves of the pure-Python search again with each of its
  additions switched off (:class:`SolverParts`), nodes and time, to show what each is
  worth, and compiled (the same nodes);
* ``--full S``: the opening lead of the whole deal (13 cards a hand), each question
  given at most ``S`` seconds, against DDS and the published value;
* ``--full-table``: the double-dummy table of the whole deals, against DDS's, checked
  equal;
* ``--all-tables S``: the double-dummy table of every whole deal of the file (or the
  first ``--deals``), strain by strain, each stopped after the strain that takes it
  past ``S`` seconds, checked against the published ``TABLE``: how many finish within
  ``S`` (the goal: 60 s in pure Python, ``--pure``);
* ``--whole``: only single solves of whole deals from the opening lead, on a sample of
  the file (:data:`SAMPLE`, or ``--lines``): ours and DDS's time per deal, their ratio
  and its geometric mean (the goal of 30x is for it), every value checked equal to
  DDS's and the published one; each time the best of ``--reps`` runs.

Our search runs compiled (numba, :class:`~zerosum.games.bridge.kernel.BridgeKernel`)
when the ``fast`` extra is in, as users get it; ``--pure`` runs every solve in pure
Python instead (:class:`SolverParts` ``compiled=False``): the two visit the same nodes.
Every time is CPU seconds of this process (DDS runs in it, its threads counted): on the
shared machine the wall clock measures the load as much as the work.

Goals of issue 20: a full 52-card table under 60 s in pure Python, single solves within
30x of DDS. Keep runs short on the shared machine: a handful of deals (``--deals``).

Run: ``.venv/bin/python bench/bridge_dds.py [--deals 4] [--cards 8] [--parts] [--full S]
[--full-table] [--pure]`` or ``.venv/bin/python bench/bridge_dds.py --whole [--lines 2,9]
[--reps 3] [--pure]`` or ``.venv/bin/python bench/bridge_dds.py --all-tables 60 [--deals
100] [--pure]``.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TypeVar

from endplay.dds import calc_dd_table, solve_board
from endplay.dds.solve import SolveMode
from endplay.types import Deal, Denom, Player

from zerosum.games.bridge.ddsfile import DdsDeal, load_dds_file
from zerosum.games.bridge.notation import format_deal
from zerosum.games.bridge.rules import State, make, result
from zerosum.games.bridge.solver import DoubleDummySolver, SolverParts, dd_table
from zerosum.search.engine import Limits, SearchStopped

T = TypeVar("T")

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "bridge" / "dds_list100.txt"

SAMPLE = (2, 9, 23, 30, 72, 142, 212, 282, 352, 422, 492, 562, 632, 695)
"""The whole deals of ``--whole``, by line: the first four deals measured since round 1
(2, 9, 23, 30), every tenth deal from the eleventh, and the last one: five no-trump
deals and nine in the four trump suits."""


def ending(deal: DdsDeal, cards: int) -> State | None:
    """The deal after its real play, cut at the first trick start with ``cards`` cards a
    hand left, or ``None`` if the play stops before."""
    played = 4 * (13 - cards)
    if len(deal.play) < played:
        return None
    state = make(deal.hands, deal.leader, deal.trump)
    for card in deal.play[:played]:
        state = result(state, card)
    return state


def endplay_deal(state: State) -> Deal:
    """A state at the start of a trick as an endplay deal."""
    found = Deal(format_deal(state[0]))
    found.trump = Denom(state[5])
    found.first = Player(state[1])
    return found


def timed(work: Callable[[], T]) -> tuple[T, float]:
    """``work()`` and the seconds of CPU it took (DDS runs in this process, its threads
    counted): on a shared machine the wall clock measures the load as much as the work."""
    start = time.process_time()
    value = work()
    return value, time.process_time() - start


def single(states: list[State], parts: SolverParts | None = None) -> tuple[list[int], int, float]:
    """Our single solves: the tricks of each, the nodes and the seconds in all."""
    found: list[int] = []
    nodes, seconds = 0, 0.0
    for state in states:
        solver = DoubleDummySolver(state[5], parts=parts)
        tricks, spent = timed(partial(solver.tricks, state))
        found.append(tricks)
        nodes += solver.nodes
        seconds += spent
    return found, nodes, seconds


def whole_deals(deals: list[DdsDeal], lines: list[int], reps: int, parts: SolverParts) -> None:
    """Single solves of whole deals from the opening lead, ours against DDS's."""
    by_line = {deal.line: deal for deal in deals}
    chosen = [by_line[line] for line in lines]
    boards = {deal.line: endplay_deal(make(deal.hands, deal.leader, deal.trump)) for deal in chosen}
    # DDS sets up its tables on its first call (our kernel loads its code on its
    # first), and keeps its table for a deal asked again: a deal of another line is
    # solved before each timing
    other = next(deal for deal in deals if deal.line not in boards)
    warm = endplay_deal(make(other.hands, other.leader, other.trump))
    solve_board(warm, SolveMode.OptimalOne)
    DoubleDummySolver(other.trump, parts).tricks(make(other.hands, other.leader, other.trump))
    logs = []
    total_nodes = 0
    for deal in chosen:
        state = make(deal.hands, deal.leader, deal.trump)
        ours = dds = float("inf")
        for _ in range(reps):
            solver = DoubleDummySolver(deal.trump, parts)
            tricks, spent = timed(partial(solver.tricks, state))
            ours = min(ours, spent)
            solve_board(warm, SolveMode.OptimalOne)
            board = boards[deal.line]
            theirs, dds_spent = timed(partial(solve_board, board, SolveMode.OptimalOne))
            dds = min(dds, dds_spent)
        dds_tricks = max(found for _, found in theirs)
        assert tricks == dds_tricks == 13 - deal.trace[0], (deal.line, tricks, dds_tricks)
        logs.append(math.log(ours / dds))
        total_nodes += solver.nodes
        print(
            f"whole deal at line {deal.line} ({'SHDCN'[deal.trump]}, {tricks} tricks): ours "
            f"{ours * 1000:,.1f} ms ({solver.nodes:,} nodes), DDS {dds * 1000:.1f} ms, "
            f"ratio {ours / dds:.0f}x",
            flush=True,
        )
    print(
        f"{len(chosen)} whole deals, {total_nodes:,} nodes: geometric mean of the ratios "
        f"{math.exp(sum(logs) / len(logs)):.1f}x (goal 30x)"
    )


def all_tables(deals: list[DdsDeal], cap: float, parts: SolverParts) -> None:
    """Every deal's whole table, strain by strain, stopped past ``cap`` seconds."""
    seconds: list[float] = []
    over: list[int] = []
    for deal in deals:
        start = time.process_time()
        for strain in range(5):
            (row,) = dd_table(deal.hands, strains=[strain], parts=parts)
            assert row == list(deal.table[strain]), (deal.line, strain, row)
            if time.process_time() - start > cap:
                break
        spent = time.process_time() - start
        if strain < 4 or spent > cap:
            over.append(deal.line)
        else:
            seconds.append(spent)
        print(f"table of line {deal.line}: {spent:.1f} s", flush=True)
    seconds.sort()
    print(
        f"{len(seconds)} of {len(deals)} tables within {cap:g} s (median of those "
        f"{seconds[len(seconds) // 2]:.1f} s, the slowest {seconds[-1]:.1f} s); past it, "
        f"stopped: lines {', '.join(map(str, over)) or 'none'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--deals", type=int, help="deals of the file to use (4; with --all-tables, every one)"
    )
    parser.add_argument("--cards", type=int, default=8, help="cards a hand in the endings")
    parser.add_argument("--parts", action="store_true", help="measure each part switched off")
    parser.add_argument("--full", type=float, metavar="S", help="full deals, S s a question")
    parser.add_argument("--full-table", action="store_true", help="tables of the full deals")
    parser.add_argument("--whole", action="store_true", help="whole-deal single solves only")
    parser.add_argument(
        "--lines", default=",".join(map(str, SAMPLE)), help="the deals of --whole, by line"
    )
    parser.add_argument("--reps", type=int, default=3, help="runs of --whole, the best kept")
    parser.add_argument("--pure", action="store_true", help="our search in pure Python only")
    parser.add_argument("--all-tables", type=float, metavar="S", help="every deal's table, S s cap")
    args = parser.parse_args()
    parts = SolverParts(compiled=not args.pure)
    print(f"our search: {'pure Python' if args.pure else 'compiled where the fast extra is in'}")
    deals = load_dds_file(DATA)
    if args.whole:
        whole_deals(deals, [int(line) for line in args.lines.split(",")], args.reps, parts)
        return
    if args.all_tables is not None:
        all_tables(deals[: args.deals], args.all_tables, parts)
        return
    cut = [(deal, ending(deal, args.cards)) for deal in deals]
    sample = [(deal, state) for deal, state in cut if state is not None][: args.deals or 4]
    states = [state for _, state in sample]
    print(
        f"{len(states)} endings of {args.cards} cards a hand (deals at lines "
        f"{', '.join(str(deal.line) for deal, _ in sample)})"
    )

    # DDS sets up its tables on its first call, our kernel loads its code on its first:
    # not part of any solve's time
    solve_board(endplay_deal(states[0]), SolveMode.OptimalOne)
    calc_dd_table(Deal(format_deal(states[0][0])))
    DoubleDummySolver(states[0][5], parts).tricks(states[0])
    ours, nodes, seconds = single(states, parts)
    theirs, dds_seconds = timed(
        lambda: [solve_board(endplay_deal(s), SolveMode.OptimalOne) for s in states]
    )
    dds_tricks = [max(tricks for _, tricks in board) for board in theirs]
    assert ours == dds_tricks, (ours, dds_tricks)
    print(
        f"single solve: ours {seconds / len(states):.3f} s ({nodes / len(states):,.0f} nodes, "
        f"{nodes / seconds:,.0f} nodes/s), DDS {dds_seconds / len(states) * 1000:.2f} ms, "
        f"ratio {seconds / dds_seconds:,.0f}x (goal 30x)"
    )

    table_seconds = dds_table_seconds = 0.0
    for state in states:
        table, spent = timed(partial(dd_table, state[0], parts=parts))
        table_seconds += spent
        theirs_table, spent = timed(partial(calc_dd_table, Deal(format_deal(state[0]))))
        dds_table_seconds += spent
        missing = 13 - args.cards  # DDS counts the tricks already played as declarer's
        expected = [
            [theirs_table[Denom(strain), Player(seat)] - missing for seat in range(4)]
            for strain in range(5)
        ]
        assert table == expected, (table, expected)
    print(
        f"table: ours {table_seconds / len(states):.2f} s, DDS "
        f"{dds_table_seconds / len(states) * 1000:.1f} ms, ratio "
        f"{table_seconds / dds_table_seconds:,.0f}x"
    )

    if args.parts:
        # what each part is worth, measured in the pure search (the kernel runs only
        # with every part); the compiled row runs the same nodes compiled
        pure = SolverParts(compiled=False)
        found, nodes, seconds = single(states, pure)
        assert found == ours
        print(
            f"{'pure, without':<14} {'nodes':>12} {'seconds':>9}  "
            f"(all: {nodes:,} nodes, {seconds:.2f} s)"
        )
        for name in ("sequences", "ordering", "bounds", "table", "partition", "last_trick"):
            fewer = replace(pure, **{name: False})
            found, part_nodes, part_seconds = single(states, fewer)
            assert found == ours
            print(
                f"{name:<14} {part_nodes:>12,} {part_seconds:>9.2f}  "
                f"({part_nodes / nodes:.2f}x nodes, {part_seconds / seconds:.2f}x time)"
            )
        found, part_nodes, part_seconds = single(states, SolverParts())
        assert found == ours
        print(
            f"{'compiled':<14} {part_nodes:>12,} {part_seconds:>9.2f}  "
            f"({part_nodes / nodes:.2f}x nodes, {part_seconds / seconds:.2f}x time)"
        )

    if args.full is not None:
        for deal, _ in sample:
            state = make(deal.hands, deal.leader, deal.trump)
            solver = DoubleDummySolver(deal.trump, parts)
            start = time.process_time()
            try:
                tricks = solver.tricks(state, limits=Limits(time=args.full))
                shown = f"{tricks} tricks (published {13 - deal.trace[0]})"
            except SearchStopped:
                shown = f"stopped by the limit of {args.full:g} s a probe"
            spent = time.process_time() - start
            board = endplay_deal(state)
            _, dds_spent = timed(partial(solve_board, board, SolveMode.OptimalOne))
            print(
                f"full deal at line {deal.line}: {shown}, {solver.nodes:,} nodes, "
                f"{spent:.2f} s; DDS {dds_spent * 1000:.1f} ms, ratio {spent / dds_spent:,.0f}x"
            )

    if args.full_table:
        for deal, _ in sample:
            wall = time.perf_counter()
            table, spent = timed(partial(dd_table, deal.hands, parts=parts))
            wall = time.perf_counter() - wall
            theirs_table, dds_spent = timed(partial(calc_dd_table, Deal(format_deal(deal.hands))))
            expected = [
                [theirs_table[Denom(strain), Player(seat)] for seat in range(4)]
                for strain in range(5)
            ]
            assert table == expected, (deal.line, table, expected)
            print(
                f"full table at line {deal.line}: ours {spent:.1f} s ({wall:.1f} s of wall clock), "
                f"DDS {dds_spent * 1000:.1f} ms, ratio {spent / dds_spent:,.0f}x"
            )


if __name__ == "__main__":
    main()
