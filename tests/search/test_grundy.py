"""Sprague-Grundy values: mex, the memoised walk, sums and winning moves.

The values are checked against searches that know nothing of Grundy theory: the value of
a sum is compared with a search of the whole sum through a wrapper that hides every
capability, and the winning moves with the moves a brute-force search finds.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import Bare, shared_data
from zerosum.game import GameInfo, InvalidGameError, Player
from zerosum.games.impartial import GraphGame, Maze, Sum
from zerosum.games.nim import Nim, NimHeap, Subtraction, SubtractionHeap
from zerosum.games.stones import StoneGameVII
from zerosum.search.grundy import (
    GrundyTable,
    NotImpartialError,
    NotNormalPlayError,
    grundy,
    mex,
    winning_moves,
)


class Loop:
    """A counter that goes 0 -> 1 -> 2 -> 0 (a cycle), or 2 -> 3 when ``exit`` is set."""

    info = GameInfo(name="loop", title="a cycle", impartial=True)

    def initial_state(self) -> tuple[int, int]:
        return (0, 0)

    def to_move(self, state: tuple[int, int]) -> Player:
        return state[1]

    def actions(self, state: tuple[int, int]) -> list[int]:
        return [] if state[0] == 3 else [(state[0] + 1) % 3]

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        return (action, 1 - state[1])

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return state[0] == 3

    def utility(self, state: tuple[int, int], player: Player) -> int:
        return -1 if player == state[1] else 1

    def format_state(self, state: tuple[int, int]) -> str:
        return f"counter {state[0]}"


def _data(name: str) -> Any:
    path = shared_data(name)
    return json.loads(path.read_text(encoding="utf-8"))


def test_mex_reproduces_the_handbook_cases() -> None:
    cases = _data("nim/cases.json")["mex"]
    assert cases
    for case in cases:
        assert mex(case["set"]) == case["mex"]


@pytest.mark.parametrize(
    ("values", "expected"), [([], 0), ([1, 2], 0), ([0, 0, 2], 1), ([3, 0, 1, 2, 5], 4)]
)
def test_mex_is_the_least_missing_value(values: list[int], expected: int) -> None:
    assert mex(iter(values)) == expected


def test_a_game_that_is_not_impartial_is_refused() -> None:
    with pytest.raises(NotImpartialError, match="stones-vii"):
        grundy(StoneGameVII([1, 2]), (0, 2, 0, 0))


def test_misere_play_is_refused_when_declared() -> None:
    game = Nim((1, 2), misere=True)
    with pytest.raises(NotNormalPlayError, match="misère"):
        GrundyTable(game)


def test_misere_play_is_refused_when_not_declared() -> None:
    game = Bare(Nim((1, 2), misere=True))
    with pytest.raises(NotNormalPlayError, match="has no move but has not lost"):
        grundy(game, game.initial_state())


def test_a_cycle_is_refused_naming_a_state_on_it() -> None:
    with pytest.raises(InvalidGameError, match="cycle through counter"):
        grundy(Loop(), (0, 0))


def test_a_line_of_100000_moves_needs_no_recursion() -> None:
    game = Subtraction((100_000,), (1, 2, 3))
    table = GrundyTable(game)
    assert table.value(game.initial_state()) == 100_000 % 4
    assert table.size == 100_001  # one memo shared by every heap, keyed without the mover
    assert table.value(((99_999, 77), 1)) == (99_999 % 4) ^ (77 % 4)


@settings(max_examples=40, deadline=None)
@given(
    allowed=st.sets(st.integers(1, 7), min_size=1, max_size=4),
    heap=st.integers(0, 60),
    mover=st.integers(0, 1),
)
def test_a_bare_game_gets_the_same_values(allowed: set[int], heap: int, mover: int) -> None:
    rules = SubtractionHeap(tuple(allowed), heap)
    bare = Bare(rules)
    assert grundy(bare, (heap, mover)) == grundy(rules, (heap, 0))


def _brute_value(game: Any, state: Any, memo: dict[Any, int]) -> int:
    """The Grundy value by the definition, recursively, over whole states."""
    if state not in memo:
        memo[state] = mex(
            _brute_value(game, game.result(state, a), memo) for a in game.actions(state)
        )
    return memo[state]


_GRAPH = GraphGame([("a", "b"), ("a", "c"), ("b", "c"), ("c", "d"), ("a", "d")])
_MAZE = Maze(["..#", "...", "#.."])


def _sum_states() -> Any:
    return st.tuples(
        st.integers(0, 6),
        st.integers(0, 9),
        st.sampled_from(range(len(_GRAPH.names))),
        st.sampled_from(sorted(set(range(9)) - _MAZE.walls)),
    )


@settings(max_examples=60, deadline=None)
@given(position=_sum_states())
def test_a_sum_is_worth_the_xor_of_its_parts(position: tuple[int, int, int, int]) -> None:
    game = Sum([NimHeap(0), SubtractionHeap((2, 3), 0), _GRAPH, _MAZE])
    state = (position, 0)
    table = GrundyTable(game)
    parts = [grundy(part, (place, 0)) for part, place in zip(game.parts, position, strict=True)]
    expected = parts[0] ^ parts[1] ^ parts[2] ^ parts[3]
    assert table.value(state) == expected == _brute_value(Bare(game), state, {})
    # component by component: the memo holds the parts' positions, not the product's
    assert table.size <= 10 + len(_GRAPH.names) + 9


@settings(max_examples=60, deadline=None)
@given(position=_sum_states())
def test_winning_moves_of_a_sum_are_the_moves_to_value_zero(
    position: tuple[int, int, int, int],
) -> None:
    game = Sum([NimHeap(0), SubtractionHeap((2, 3), 0), _GRAPH, _MAZE])
    state = (position, 1)
    memo: dict[Any, int] = {}
    bare = Bare(game)
    brute = [a for a in game.actions(state) if _brute_value(bare, game.result(state, a), memo) == 0]
    assert winning_moves(game, state) == brute
    assert (brute == []) == (_brute_value(bare, state, memo) == 0)


def test_winning_moves_of_a_single_game() -> None:
    game = Subtraction((10,), (1, 3, 4))
    table = GrundyTable(SubtractionHeap((1, 3, 4)))
    # 10 is worth 1 in {1, 3, 4}: taking 1 or 3 leaves 9 or 7, both worth 0; 6 is worth 2.
    assert [table.value((n, 0)) for n in range(11)] == [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1]
    assert table.winning_moves((10, 0)) == [1, 3]
    assert winning_moves(game, game.initial_state()) == [(0, 1), (0, 3)]


def test_a_known_heap_value_is_not_searched() -> None:
    table = GrundyTable(Nim((2**50 + 1, 2**50)))
    state = ((2**50 + 1, 2**50), 0)
    assert table.value(state) == 1
    assert table.winning_moves(state) == [(0, 1)]
    assert table.size == 0
