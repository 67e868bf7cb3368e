"""Helpers for the arena's tests: agents that misbehave the hard way (they end their
process, or raise what is not an ``Exception``), and a look at this process's children.

The agents are imported by agent specs (``arena_helpers.Killer:marker=...``), in the
test process and in the pool's worker processes, which inherit its ``sys.path``. Each
plays the first legal move when it does not misbehave, so its games are reproducible."""

from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path
from typing import Any


def child_processes() -> set[int]:
    """The ids of this process's child processes, zombies (dead but not reaped) included."""
    mine = os.getpid()
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # the process ended while we looked
            continue
        # the command name, in parentheses, may hold anything: the fields follow its ")"
        state_and_parent = stat.rpartition(")")[2].split()
        if int(state_and_parent[1]) == mine:
            found.add(int(entry.name))
    return found


class Killer:
    """Kills its own worker process with SIGKILL when asked for its first move.

    ``marker`` is a file path: the first ``Killer`` to create it kills its worker, and
    later ones, finding it, play on; with ``always=1`` every one kills its worker. In the
    main process (no worker to kill: a test that got its workers wrong) it raises
    instead, so the test fails rather than the test run dying."""

    def __init__(self, marker: str, always: int = 0) -> None:
        self.marker = Path(marker)
        self.always = bool(always)
        self.asked = False

    def choose(self, game: Any, state: Any) -> Any:
        if not self.asked:
            self.asked = True
            if self._should_kill():
                if multiprocessing.parent_process() is None:
                    raise RuntimeError("Killer asked to kill the main process")
                os.kill(os.getpid(), signal.SIGKILL)
        return game.actions(state)[0]

    def _should_kill(self) -> bool:
        if self.always:
            return True
        try:
            self.marker.touch(exist_ok=False)  # atomic: one Killer wins the race
        except FileExistsError:
            return False
        return True


class Quitter:
    """Calls ``sys.exit`` with ``code`` on its first move, as a careless agent might."""

    def __init__(self, code: int | str = "quitting", name: str = "quitter") -> None:
        self.code = code
        self.name = name

    def choose(self, game: Any, state: Any) -> Any:
        raise SystemExit(self.code)


class Interrupted:
    """Raises ``KeyboardInterrupt`` on its first move, as the user's Ctrl-C would."""

    name = "interrupted"

    def choose(self, game: Any, state: Any) -> Any:
        raise KeyboardInterrupt
