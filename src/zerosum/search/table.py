"""A bounded transposition table: what earlier searches learnt about a position.

A search that meets a position again (by another move order, or in the next iteration
of iterative deepening) can reuse its value, or at least try its best move first. The
table maps a position's key to one entry::

    (key, depth, flag, value, move, generation)

* ``key`` is the full key, compared on every probe: two keys that share a slot never
  pass for each other.
* ``depth`` is the draft the value was searched to (``DEPTH_END`` when every line below
  ended, so the value holds at any depth).
* ``flag`` says what the value is: :data:`EXACT`, a :data:`LOWER` bound (the search
  failed high) or an :data:`UPPER` bound (it failed low).
* ``value`` is stored relative to the entry's own position: a win in ``n`` plies counted
  from the root is stored as a win in ``n - ply`` plies from the node, so that it stays
  right when the position is met at another distance from another root
  (:func:`to_table` / :func:`from_table`).
* ``move`` is the best (or refuting) move found, ``None`` if none; a probe hands it back
  for ordering only, and the engine checks it is legal before playing it.
* ``generation`` is the search that wrote it; :meth:`TranspositionTable.new_search`
  bumps it, so entries from finished searches give way first.

Design, for CPython speed: the table is one ``list`` of ``2**b`` slots and a key goes to
one slot; an entry is one ``tuple``. A probe is therefore an index, a tuple unpack and a
key comparison, all in C; a store builds one small tuple. Parallel arrays of packed ints
would save memory but cost several list writes and bit arithmetic in interpreted code
per store, which is slower. The capacity is the largest power of two not above the
requested size, so the table can never hold more entries than its bound. Ints hash to
themselves, so a bitboard key masked directly would use only its lowest bits (a few
squares); the slot is therefore ``(hash(key) * MIX >> shift) & mask``, the top ``b``
bits of the low 64 bits of a multiplication by a large odd constant (Fibonacci hashing),
which every bit of the key reaches. The key check stays exact. Replacement is
depth-preferred with ageing (as in Stockfish): an entry is overwritten by the same key,
by anything when it is from an older search, and otherwise only by a search at least as
deep.

The list starts small (:data:`INITIAL_SLOTS`) and doubles, rehashing its entries,
whenever it is half full, up to its capacity. A big table allocated up front is a young
object of megabytes that the garbage collector scans at each collection of a process
until it ages, which cost a short search (a tic-tac-toe solve, a connect-four end game)
more than the search itself; a growing table costs what the search uses.

The engine reads ``slots``, ``shift`` and ``mask`` (and :data:`MIX`) directly in its
inner loop (the layout above is the contract) and writes through
:meth:`TranspositionTable.store`; every few hundred nodes it calls
:meth:`TranspositionTable.grow` and re-reads the three when the table grew.
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import repeat
from typing import Any, NamedTuple

from zerosum.game import WIN_THRESHOLD

__all__ = [
    "BYTES_PER_ENTRY",
    "DEPTH_END",
    "EXACT",
    "INITIAL_SLOTS",
    "LOWER",
    "MIX",
    "UPPER",
    "TableEntry",
    "TranspositionTable",
    "from_table",
    "to_table",
]

BYTES_PER_ENTRY = 125
"""The memory one table entry costs at the peak, its slot and the growth of the slot list
included: 122 bytes measured by ``bench/limits.py``, rounded up. Engines that size their
table from a memory budget (the Gomocup brain, UCI's ``Hash``) divide by it."""

EXACT = 0
"""The stored value is the position's value at that depth."""

LOWER = 1
"""The stored value is a lower bound: the search failed high (a cut-off)."""

UPPER = 2
"""The stored value is an upper bound: every move failed low."""

MIX = 0x9E3779B97F4A7C15
"""The odd 64-bit multiplier that spreads a key's hash over the slots (2**64 / phi)."""

INITIAL_SLOTS = 1 << 12
"""The slots a table starts with (fewer if its capacity is smaller): 32 kB of list."""

DEPTH_END = 1 << 30
"""The draft of a value searched to the end of every line: it holds at any depth."""


class TableEntry(NamedTuple):
    """One entry as :meth:`TranspositionTable.probe` returns it, value in root units."""

    key: Hashable
    depth: int
    flag: int
    value: int
    move: Any
    generation: int


def to_table(value: int, ply: int) -> int:
    """Convert a root-relative score found ``ply`` plies from the root to node-relative.

    Only proven wins and losses move: a win ``n`` plies from the root is a win ``n - ply``
    plies from the node."""
    if value >= WIN_THRESHOLD:
        return value + ply
    if value <= -WIN_THRESHOLD:
        return value - ply
    return value


def from_table(value: int, ply: int) -> int:
    """Convert a node-relative stored score back to root-relative, ``ply`` plies deep."""
    if value >= WIN_THRESHOLD:
        return value - ply
    if value <= -WIN_THRESHOLD:
        return value + ply
    return value


class TranspositionTable:
    """A transposition table holding at most ``size`` entries (rounded down to 2**b).

    ``capacity`` is that bound; ``slots`` holds the entries and grows to ``capacity`` as
    the table fills (:meth:`grow`). ``hits`` and ``probes`` count the engine's lookups (it
    adds its counts after each search); ``len(table)`` is the number of occupied slots."""

    __slots__ = (
        "_grow_at",
        "capacity",
        "generation",
        "hits",
        "mask",
        "probes",
        "shift",
        "slots",
        "used",
    )

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a transposition table needs at least 1 entry, not {size}")
        self.capacity = 1 << (size.bit_length() - 1)
        self.slots: list[tuple[Any, int, int, int, Any, int] | None] = []
        self._allocate(min(self.capacity, INITIAL_SLOTS))
        self.generation = 0
        self.used = 0
        self.hits = 0
        self.probes = 0

    def _allocate(self, count: int) -> None:
        """Make ``slots`` ``count`` long (a power of two), every slot empty, in place."""
        bits = count.bit_length() - 1
        self.mask = count - 1
        self.shift = 64 - bits
        # when the table grows past this many entries it doubles (never past capacity)
        self._grow_at = count // 2 if count < self.capacity else count + 1
        # the same list object, refilled: a new one would be young, and the garbage
        # collector scans young lists (every slot) at each collection until they age
        slots = self.slots
        slots.clear()
        slots.extend(repeat(None, count))

    def __len__(self) -> int:
        return self.used

    def __repr__(self) -> str:
        return f"TranspositionTable(capacity={self.capacity}, used={self.used})"

    def new_search(self) -> None:
        """Start a new search: entries written before it become the first to replace."""
        self.generation += 1

    def grow(self) -> bool:
        """Double the slots, keeping every entry, if the table is half full and below its
        capacity; return whether it grew (the engine then re-reads ``slots``, ``mask``
        and ``shift``)."""
        if self.used < self._grow_at:
            return False
        entries = [entry for entry in self.slots if entry is not None]
        self._allocate(min(len(self.slots) * 2, self.capacity))
        slots, shift, mask = self.slots, self.shift, self.mask
        # the slot is the top bits of the mixed hash, so old slot i splits into new slots
        # 2i and 2i + 1: no two entries collide, and ``used`` stays right
        for entry in entries:
            slots[(hash(entry[0]) * MIX >> shift) & mask] = entry
        return True

    def clear(self) -> None:
        """Empty the table and its statistics, back to its starting size."""
        self._allocate(min(self.capacity, INITIAL_SLOTS))
        self.generation = 0
        self.used = 0
        self.hits = 0
        self.probes = 0

    def fill_permille(self) -> int:
        """Return how full the table is against its capacity, in thousandths (what
        engines call hashfull)."""
        return self.used * 1000 // self.capacity

    def probe(self, key: Hashable, ply: int = 0) -> TableEntry | None:
        """Return the entry for ``key`` with its value made root-relative at ``ply``.

        Returns ``None`` when the slot is empty or holds another key."""
        entry = self.slots[(hash(key) * MIX >> self.shift) & self.mask]
        if entry is None or entry[0] != key:
            return None
        stored_key, depth, flag, value, move, generation = entry
        return TableEntry(stored_key, depth, flag, from_table(value, ply), move, generation)

    def store(  # noqa: PLR0917 - the engine calls it once per node: positional is faster
        self, key: Any, depth: int, flag: int, value: int, move: Any, ply: int
    ) -> None:
        """Record a search result for ``key``, found ``ply`` plies from the root.

        Depth-preferred with ageing: the slot is taken when it is empty, holds the same
        key, holds an entry of an older search, or holds one searched no deeper."""
        index = (hash(key) * MIX >> self.shift) & self.mask
        slots = self.slots
        old = slots[index]
        if old is None:
            self.used += 1
        elif old[0] != key and old[5] == self.generation and old[1] > depth:
            return
        if value >= WIN_THRESHOLD:
            value += ply
        elif value <= -WIN_THRESHOLD:
            value -= ply
        slots[index] = (key, depth, flag, value, move, self.generation)
