"""The transposition table: its bound, replacement, ageing, ply adjustment and statistics."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerosum.game import WIN, WIN_THRESHOLD
from zerosum.search.table import (
    DEPTH_END,
    EXACT,
    INITIAL_SLOTS,
    LOWER,
    MIX,
    UPPER,
    TranspositionTable,
    from_table,
    to_table,
)

INSERTS = st.lists(
    st.tuples(
        st.integers(-(2**70), 2**70) | st.text(max_size=3),
        st.integers(0, 20),
        st.sampled_from((EXACT, LOWER, UPPER)),
        st.integers(-WIN, WIN),
        st.integers(0, 8) | st.none(),
        st.integers(0, 30),
        st.booleans(),
    ),
    max_size=200,
)


@given(st.integers(1, 300), INSERTS)
def test_never_more_entries_than_the_bound(size: int, inserts: list[tuple]) -> None:
    table = TranspositionTable(size)
    assert table.capacity <= size < 2 * table.capacity
    for key, depth, flag, value, move, ply, new_search in inserts:
        if new_search:
            table.new_search()
        table.store(key, depth, flag, value, move, ply)
        table.grow()
        occupied = sum(entry is not None for entry in table.slots)
        assert occupied == len(table) <= size
        assert len(table.slots) <= table.capacity
    assert 0 <= table.fill_permille() <= 1000


@given(st.sets(st.integers(-(2**70), 2**70) | st.text(max_size=4), max_size=3000))
def test_growing_keeps_every_entry(keys: set[object]) -> None:
    table = TranspositionTable(INITIAL_SLOTS * 4)
    stored = {}
    for number, key in enumerate(keys):
        table.store(key, 1, EXACT, number, None, 0)
        if table.probe(key) is not None:  # a store may lose to a deeper entry
            stored = {k: v for k, v in stored.items() if table.probe(k) is not None}
            stored[key] = number
        size_before = len(table.slots)
        if table.grow():
            assert len(table.slots) == 2 * size_before <= table.capacity
        for kept, value in stored.items():
            entry = table.probe(kept)
            assert entry is not None and entry.value == value
        assert len(table) == len(table.slots) - table.slots.count(None) == len(stored)


def test_the_slots_double_when_half_full_up_to_the_capacity() -> None:
    table = TranspositionTable(INITIAL_SLOTS * 4)
    assert len(table.slots) == INITIAL_SLOTS
    assert not table.grow()
    key = 0
    sizes = []
    while len(table) < table.capacity // 2:
        table.store(key, 1, EXACT, 0, None, 0)
        key += 1
        if table.grow():
            sizes.append(len(table.slots))
    assert sizes == [INITIAL_SLOTS * 2, INITIAL_SLOTS * 4]
    while len(table) < table.capacity * 3 // 4:
        table.store(key, 1, EXACT, 0, None, 0)
        key += 1
        assert not table.grow()
    table.clear()
    assert len(table.slots) == INITIAL_SLOTS


@given(st.integers(-WIN, WIN), st.integers(0, 9_000))
def test_ply_adjustment_round_trips(value: int, ply: int) -> None:
    assert from_table(to_table(value, ply), ply) == value


@given(st.integers(1, 1_000), st.integers(0, 100), st.integers(0, 100))
def test_a_win_keeps_its_distance_from_the_node(plies: int, stored_at: int, probed_at: int) -> None:
    # a win `plies` plies below a node found `stored_at` plies deep is, probed at another
    # depth, still `plies` plies below that node
    table = TranspositionTable(16)
    table.store(7, 3, EXACT, WIN - stored_at - plies, 2, stored_at)
    entry = table.probe(7, probed_at)
    assert entry is not None
    assert entry.value == WIN - probed_at - plies
    table.store(8, 3, EXACT, -(WIN - stored_at - plies), 2, stored_at)
    loss = table.probe(8, probed_at)
    assert loss is not None
    assert loss.value == -(WIN - probed_at - plies)


def test_heuristic_values_are_not_adjusted() -> None:
    table = TranspositionTable(16)
    table.store(1, 2, LOWER, WIN_THRESHOLD - 1, None, 5)
    entry = table.probe(1, 9)
    assert entry is not None
    assert entry.value == WIN_THRESHOLD - 1


def test_probe_checks_the_whole_key() -> None:
    table = TranspositionTable(4)
    table.store(1, 2, EXACT, 10, 3, 0)
    assert table.probe(1 + table.capacity) is None  # same slot, another key
    entry = table.probe(1)
    assert entry is not None
    assert (entry.depth, entry.flag, entry.value, entry.move) == (2, EXACT, 10, 3)


def test_depth_preferred_replacement_with_ageing() -> None:
    table = TranspositionTable(4)

    def slot(key: int) -> int:
        return (hash(key) * MIX >> table.shift) & table.mask

    deep = 1
    shallow, other = [key for key in range(2, 200) if slot(key) == slot(deep)][:2]
    table.store(deep, 6, EXACT, 1, None, 0)
    table.store(shallow, 2, EXACT, 2, None, 0)
    assert table.probe(deep) is not None  # a shallower search does not evict a deeper one
    assert table.probe(shallow) is None
    table.store(other, 6, EXACT, 3, None, 0)
    assert table.probe(other) is not None  # as deep: the newer entry wins
    table.new_search()
    table.store(shallow, 1, EXACT, 4, None, 0)
    entry = table.probe(shallow)
    assert entry is not None  # entries of an older search give way to anything
    assert entry.value == 4
    assert len(table) == 1


def test_keys_differing_only_in_high_bits_spread_over_the_slots() -> None:
    # bitboard keys often differ only above the bits a mask would keep (a connect-four
    # key's low bits are its first columns): the multiplicative mix must still spread them
    table = TranspositionTable(1 << 10)
    keys = [index << 40 for index in range(1 << 10)]
    for key in keys:
        table.store(key, 1, EXACT, 0, None, 0)
    assert len(table) > 600  # 1024 keys into 1024 slots: about 1 - 1/e of them distinct
    for key in keys:
        entry = table.probe(key)
        assert entry is None or entry.key == key


def test_same_key_is_refreshed() -> None:
    table = TranspositionTable(8)
    table.store(3, DEPTH_END, EXACT, 0, 1, 0)
    table.store(3, 1, UPPER, -5, 2, 0)
    entry = table.probe(3)
    assert entry is not None
    assert (entry.depth, entry.flag, entry.value, entry.move) == (1, UPPER, -5, 2)
    assert len(table) == 1


def test_fill_and_clear() -> None:
    table = TranspositionTable(100)
    assert table.capacity == 64
    for key in range(32):
        table.store(key, 1, EXACT, 0, None, 0)
    assert table.fill_permille() == 500
    table.clear()
    assert len(table) == 0
    assert table.fill_permille() == 0
    assert table.probe(3) is None


def test_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        TranspositionTable(0)
