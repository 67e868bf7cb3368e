"""What every bitboard game shares: a set of cells as the bits of a Python integer."""

from __future__ import annotations

__all__ = ["bit_indices"]


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
