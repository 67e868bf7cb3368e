"""What every bitboard game shares: a set of cells as the bits of a Python integer, and
the FEN placement field of the board games written with one."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["bit_indices", "fen_placement"]


def bit_indices(mask: int) -> list[int]:
    """Return the indices of the set bits of ``mask``, lowest first.

    ``mask & -mask`` isolates the lowest bit, so the loop runs once per set bit, not
    once per cell of the board."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def fen_placement(width: int, height: int, letter: Callable[[int], str | None]) -> str:
    """Write a board's pieces as FEN's placement field: ranks from the top one down,
    separated by ``/``, each piece by its ``letter`` (of the square ``rank * width +
    file``, ``None`` for empty), runs of empty squares by their count."""
    rows = []
    for rank in range(height - 1, -1, -1):
        row = ""
        empty = 0
        for file in range(width):
            found = letter(rank * width + file)
            if found is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += found
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)
