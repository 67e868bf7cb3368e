"""Bridge's compiled double-dummy search (:mod:`zerosum.games.bridge.kernel`) against the
pure search it compiles, question by question and node for node (fresh tables, and one
table shared by deals alike, where partition search answers positions from entries other
deals stored, and a table so small it fills and starts again); whole deals and tables
against DDS (endplay); limits; and which search the solver takes.

The kernel tests skip when numba is absent (``pip install zerosum[fast]``)."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest
from bridge_deals import alike_deal

from zerosum import kernels
from zerosum.games.bridge.rules import NOTRUMP, State, legal_cards, make, random_hands, result
from zerosum.games.bridge.search import PartitionSearch
from zerosum.games.bridge.solver import DoubleDummySolver, SolverParts, TrickSearch, dd_table
from zerosum.search.engine import Limits, SearchStopped

needs_numba = pytest.mark.skipif(not kernels.available(), reason="numba is not installed")

TABLE_BITS = 16  # the test positions need no more


@pytest.fixture(autouse=True)
def _default_switch() -> Iterator[None]:
    """Every test starts and ends with the switch deferring to the environment."""
    kernels.use_kernels(None)
    yield
    kernels.use_kernels(None)


def _kernel(trump: int, table_bits: int = TABLE_BITS) -> TrickSearch:
    from zerosum.games.bridge.kernel import BridgeKernel

    return BridgeKernel(trump, table_bits)


def _into_trick(state: State, rng: random.Random) -> State:
    """``state`` after 0 to 3 random legal cards: often in the middle of a trick."""
    for _ in range(rng.randrange(4)):
        legal = legal_cards(state)
        state = result(state, rng.choice([card for card in range(52) if legal >> card & 1]))
    return state


def _ask_both(pure: PartitionSearch, compiled: TrickSearch, state: State) -> None:
    """Ask both searches every question of ``state`` (from below 0 to above the tricks
    left): the same answers, and the same nodes after each."""
    left = state[0][state[1]].bit_count()
    for tricks in range(-1, left + 2):
        expected = pure.at_least(state, tricks)
        assert compiled.at_least(state, tricks) == expected, (state, tricks)
        assert compiled.nodes == pure.nodes, (state, tricks)


@needs_numba
@pytest.mark.parametrize("cards", [2, 3, 4, 5, 6, 7, 8])
def test_the_kernel_answers_as_the_pure_search_node_for_node(cards: int) -> None:
    for seed in range(10):
        rng = random.Random(100 * cards + seed)
        trump = rng.randrange(5)
        state = _into_trick(make(random_hands(rng, 4, cards), rng.randrange(4), trump), rng)
        _ask_both(PartitionSearch(4, trump), _kernel(trump), state)


@needs_numba
def test_whole_deals_answer_as_the_pure_search_node_for_node() -> None:
    rng = random.Random(7)
    for strain in (NOTRUMP, 0):
        state = make(random_hands(rng, 4, 13), rng.randrange(4), strain)
        pure, compiled = PartitionSearch(4, strain), _kernel(strain)
        for tricks in (5, 6, 7, 8):
            assert compiled.at_least(state, tricks) == pure.at_least(state, tricks)
            assert compiled.nodes == pure.nodes


@needs_numba
@pytest.mark.parametrize("strain", [0, 2, NOTRUMP])
def test_one_table_shared_by_deals_alike_answers_as_the_pure_search(strain: int) -> None:
    # entries stored by one deal answer positions of another with the same lengths
    # (partition search), and groups split where the answer reached up among them
    rng = random.Random(strain)
    pure, compiled = PartitionSearch(4, strain), _kernel(strain)
    first = random_hands(rng, 4, 6)
    for _ in range(12):
        state = _into_trick(make(alike_deal(first, rng), rng.randrange(4), strain), rng)
        _ask_both(pure, compiled, state)


@needs_numba
def test_a_table_that_fills_starts_again_and_answers_alike() -> None:
    # 256 entries: the table fills many times a solve and starts again; the answers
    # stay the pure search's (the nodes may differ: the pure table keeps more)
    rng = random.Random(11)
    for _ in range(3):
        trump = rng.randrange(5)
        state = make(random_hands(rng, 4, 8), rng.randrange(4), trump)
        pure, small = PartitionSearch(4, trump), _kernel(trump, table_bits=8)
        for tricks in range(9):
            assert small.at_least(state, tricks) == pure.at_least(state, tricks)
        assert small.entries <= 256


@needs_numba
def test_whole_deals_and_tables_match_dds() -> None:
    oracle = pytest.importorskip("endplay_oracle")
    rng = random.Random(5)
    for strain in range(5):
        state = make(random_hands(rng, 4, 13), rng.randrange(4), strain)
        assert DoubleDummySolver(strain).tricks(state) == max(
            oracle.dds_card_values(state).values()
        )
    hands = random_hands(rng, 4, 13)
    assert dd_table(hands) == oracle.dds_table(hands)


@needs_numba
def test_limits_stop_the_search_and_the_table_keeps_what_finished() -> None:
    from zerosum.games.bridge.kernel import CHUNK_NODES

    # a question of some 300,000 nodes: the limits are read between chunks of nodes
    state = make(random_hands(random.Random(3), 4, 13), 0, NOTRUMP)
    compiled = _kernel(NOTRUMP)
    with pytest.raises(SearchStopped) as stopped:
        compiled.at_least(state, 8, Limits(nodes=5000))
    assert stopped.value.reason == "nodes"
    assert stopped.value.nodes == 5000
    # stopped, it answers as a fresh search, from where the table got
    assert compiled.at_least(state, 8) == PartitionSearch(4, NOTRUMP).at_least(state, 8)
    signal = threading.Event()
    signal.set()
    with pytest.raises(SearchStopped) as stopped:
        _kernel(NOTRUMP).at_least(state, 8, Limits(stop=signal))
    assert stopped.value.reason == "stop"
    assert stopped.value.nodes == CHUNK_NODES
    with pytest.raises(SearchStopped) as stopped:
        _kernel(NOTRUMP).at_least(state, 8, Limits(time=1e-9))
    assert stopped.value.reason == "time"


@needs_numba
def test_the_solver_takes_the_kernel_for_four_hands_with_every_part() -> None:
    from zerosum.games.bridge.kernel import BridgeKernel

    assert isinstance(SolverParts().search(4, NOTRUMP), BridgeKernel)
    assert isinstance(SolverParts(compiled=False).search(4, NOTRUMP), PartitionSearch)
    assert isinstance(SolverParts(table=False).search(4, NOTRUMP), PartitionSearch)
    assert isinstance(SolverParts().search(2, NOTRUMP), PartitionSearch)
    kernels.use_kernels(False)
    assert isinstance(SolverParts().search(4, NOTRUMP), PartitionSearch)


@needs_numba
def test_the_kernel_refuses_two_hands_and_odd_table_sizes() -> None:
    from zerosum.games.bridge.kernel import BridgeKernel

    with pytest.raises(ValueError, match="four hands"):
        BridgeKernel(NOTRUMP).at_least(make(random_hands(random.Random(1), 2, 5), 0, NOTRUMP), 2)
    with pytest.raises(ValueError, match="table_bits"):
        BridgeKernel(NOTRUMP, table_bits=40)
