"""What the tests of external engines share: whether a process lives, and the log the
scripted fake engines (fake_brain.py, fake_uci.py) keep of every line they were sent.

A fake engine writes its pid on a line of its own when it starts, then every line it
receives; a log may hold several processes in turn (an agent restarts a dead engine)."""

from __future__ import annotations

from pathlib import Path


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (exited, waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def sessions(log: Path) -> list[list[str]]:
    """The lines each fake engine process received, one list per process (its pid first)."""
    found: list[list[str]] = []
    for line in log.read_text().splitlines():
        if line.isdigit():
            found.append([line])
        else:
            found[-1].append(line)
    return found


def pids(log: Path) -> list[int]:
    """The pid of each fake engine process the log saw, in the order they started."""
    return [int(session[0]) for session in sessions(log)]
