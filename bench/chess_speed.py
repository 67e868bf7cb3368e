"""Chess search speed: zerosum's engine against sunfish's, nodes per second, through UCI.

Run ``bash bench/setup.sh`` once (sunfish from PyPI into bench/.venv), then from the
project root::

    .venv/bin/python bench/chess_speed.py                   # 1 s a position, ~1 min
    .venv/bin/python bench/chess_speed.py --movetime 3
    .venv/bin/python bench/chess_speed.py --depth 4         # fixed depth instead of time
    .venv/bin/python bench/chess_speed.py \\
        --zerosum-command "env PYTHONPATH=/tmp/zs-frozen/src .venv/bin/python -m zerosum.cli uci"

Both engines run as UCI processes, the same way, on the same positions (the 24
Bratko-Kopec positions of ``../shared/data/chess/bratko-kopec.epd``) in the same run:
each position is searched by one engine and then the other, the order alternating from
position to position, so that both see the same load on the machine (only one searches
at a time). Each search starts a new game (``ucinewgame``, an empty table) and runs
``go movetime`` (``--movetime``, 1 s) or ``go depth`` (``--depth``).

Nodes per second are each engine's own count over its own clock, from its last ``info``
line that gives both ``nodes`` and ``time``. Both engines write one as each iteration
ends, so the nodes of an iteration stopped by the clock are not counted; a position
where an engine completed none shows ``-`` and adds nothing to its totals. Both count
every call of their search functions, quiescence included (sunfish's ``bound``,
zerosum's root, node and quiescence node). The ratio is zerosum's nodes per second
over sunfish's, per position and over all positions (total nodes over total time).
Node counts are not the same unit of work in two different searches; the ratio says how
fast each walks its own tree, not which finds better moves (see ``bench/bratko_kopec.py``
and ``bench/chess_strength.py`` for that).
"""

from __future__ import annotations

import argparse
import queue
import re
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from zerosum.arena import epd_to_fen

ROOT = Path(__file__).resolve().parents[1]
BRATKO_KOPEC = ROOT / ".." / "shared" / "data" / "chess" / "bratko-kopec.epd"
SUNFISH = ROOT / "bench" / ".venv" / "bin" / "sunfish-uci"
ZEROSUM = f"{sys.executable} -m zerosum.cli uci"
WAIT = 30.0  # seconds past its limit an engine may stay silent before it is given up


@dataclass(frozen=True, slots=True)
class EpdCase:
    """One EPD test position: its name, FEN and best moves as written (SAN)."""

    name: str
    fen: str
    best: tuple[str, ...]


def read_epd(path: Path) -> list[EpdCase]:
    """The positions of an EPD suite with ``bm`` and ``id`` operations."""
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        best = re.search(r"\bbm\s+([^;]+);", line)
        name = re.search(r'\bid\s+"([^"]*)"', line)
        if best is None:
            raise ValueError(f"{path}: no bm operation in {line!r}")
        fen = epd_to_fen(line[: best.start()])
        cases.append(EpdCase(name.group(1) if name else fen, fen, tuple(best.group(1).split())))
    return cases


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What one ``go`` returned: the best move, and the last ``info`` line's depth,
    nodes and time (ms) among the lines that gave nodes and time."""

    move: str
    depth: int
    nodes: int
    milliseconds: int


class UciProcess:
    """A UCI engine process driven line by line, read by a thread so that a silent
    engine times out instead of hanging the bench."""

    def __init__(self, command: str, label: str) -> None:
        self.label = label
        self.process = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.expect("uciok", WAIT)
        self.name = label

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        """Write one line to the engine."""
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def next_line(self, deadline: float) -> str:
        """The engine's next line; ``RuntimeError`` past ``deadline`` or at its exit."""
        try:
            line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.0))
        except queue.Empty:
            raise RuntimeError(f"{self.label}: no answer in time") from None
        if line is None:
            raise RuntimeError(f"{self.label}: the engine exited")
        return line

    def expect(self, first_word: str, seconds: float) -> str:
        """Read lines until one starting with ``first_word``; return it."""
        deadline = time.monotonic() + seconds
        while True:
            line = self.next_line(deadline)
            if line.split()[:1] == [first_word]:
                return line

    def search(self, fen: str, movetime: float | None, depth: int | None) -> SearchResult:
        """A new game from ``fen`` and one search of ``movetime`` seconds or ``depth``."""
        self.send("ucinewgame")
        self.send("isready")
        self.expect("readyok", WAIT)
        self.send(f"position fen {fen}")
        if depth is not None:
            self.send(f"go depth {depth}")
        else:
            self.send(f"go movetime {round((movetime or 0.0) * 1000)}")
        deadline = time.monotonic() + (movetime or 0.0) + WAIT * (10 if depth else 1)
        reached, nodes, milliseconds = 0, 0, 0
        while True:
            words = self.next_line(deadline).split()
            if words[:1] == ["bestmove"]:
                return SearchResult(words[1], reached, nodes, milliseconds)
            if words[:1] == ["info"] and "nodes" in words and "time" in words:
                nodes = int(words[words.index("nodes") + 1])
                milliseconds = int(words[words.index("time") + 1])
                if "depth" in words:
                    reached = int(words[words.index("depth") + 1])

    def close(self) -> None:
        """Send ``quit`` and reap the process."""
        try:
            self.send("quit")
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


def engines(args: argparse.Namespace) -> list[UciProcess]:
    """zerosum's and sunfish's engines, started."""
    if not Path(shlex.split(args.sunfish_command)[0]).exists():
        sys.exit(f"no {args.sunfish_command}: run bash bench/setup.sh")
    return [
        UciProcess(args.zerosum_command, "zerosum"),
        UciProcess(args.sunfish_command, "sunfish"),
    ]


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """The options naming the two engines' commands."""
    parser.add_argument("--zerosum-command", default=ZEROSUM, help="default: %(default)s")
    parser.add_argument("--sunfish-command", default=str(SUNFISH), help="default: %(default)s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--movetime", type=float, default=1.0, help="seconds a search (1)")
    limit.add_argument("--depth", type=int, help="a fixed depth instead of a time")
    parser.add_argument("--positions", type=Path, default=BRATKO_KOPEC)
    add_engine_options(parser)
    args = parser.parse_args()
    if not args.positions.exists():
        sys.exit(f"{args.positions} is absent (see ../shared/data/README.md)")
    movetime = None if args.depth is not None else args.movetime
    cases = [(case.name, case.fen) for case in read_epd(args.positions)]
    compare_speeds(engines(args), cases, movetime, args.depth)


def compare_speeds(
    players: list[UciProcess],
    cases: Sequence[tuple[str, str]],
    movetime: float | None,
    depth: int | None,
) -> None:
    """Search every ``(name, FEN)`` case with both ``players`` (zerosum first), the order
    alternating from case to case so that both see the same load, and print each one's
    depth, nodes and nodes a second, and zerosum's speed over the other's, per case and
    over all (total nodes over total time); the players are closed at the end."""
    totals = {player.label: [0, 0] for player in players}  # nodes, milliseconds
    name_width = max(9, *(len(name) for name, _ in cases))
    first, second = (player.label for player in players)
    print(
        f"{'position':{name_width}} {first + ' d':>9} {'nodes':>9} {'n/s':>9}  "
        f"{second + ' d':>9} {'nodes':>9} {'n/s':>9}  ratio"
    )
    try:
        for number, (name, fen) in enumerate(cases):
            order = players if number % 2 == 0 else players[::-1]
            found = {p.label: p.search(fen, movetime, depth) for p in order}
            line = f"{name:{name_width}}"
            for player in players:
                result = found[player.label]
                totals[player.label][0] += result.nodes
                totals[player.label][1] += result.milliseconds
                speed = result.nodes * 1000 / max(result.milliseconds, 1)
                line += f" {result.depth:>9} {result.nodes:>9} {speed:>9,.0f} "
            ours, theirs = (found[p.label] for p in players)
            if ours.nodes and theirs.nodes:
                ratio = (ours.nodes / max(ours.milliseconds, 1)) / (
                    theirs.nodes / max(theirs.milliseconds, 1)
                )
                line += f" {ratio:6.4f}x"
            else:  # an engine that completed no iteration reported no nodes
                line += "      -"
            print(line, flush=True)
    finally:
        for player in players:
            player.close()
    speeds = [nodes * 1000 / max(ms, 1) for nodes, ms in totals.values()]
    print(
        f"all: {first} {speeds[0]:,.0f} nodes/s, {second} {speeds[1]:,.0f} nodes/s, "
        f"ratio {speeds[0] / speeds[1]:.4f}x (1 : {speeds[1] / speeds[0]:.1f})"
    )


if __name__ == "__main__":
    main()
