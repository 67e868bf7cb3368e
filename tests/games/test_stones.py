"""The LeetCode stone games: the official examples, and the dynamic programmes against
the textbook searches on random rows."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import shared_data
from zerosum.game import (
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    ZerosumError,
)
from zerosum.games import stones
from zerosum.games.stones import (
    PredictTheWinner,
    StoneGame,
    StoneGameBase,
    StoneGameII,
    StoneGameIII,
    StoneGameVII,
)
from zerosum.notation import play
from zerosum.search.reference import negamax, negamax_alphabeta

SOLVERS: dict[int, tuple[Callable[[Any], Any], type[StoneGameBase]]] = {
    486: (stones.predict_the_winner, PredictTheWinner),
    877: (stones.stone_game, StoneGame),
    1140: (stones.stone_game_ii, StoneGameII),
    1406: (stones.stone_game_iii, StoneGameIII),
    1690: (stones.stone_game_vii, StoneGameVII),
}


def _problems() -> list[dict[str, Any]]:
    path = shared_data("leetcode", "examples.json")
    problems: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["problems"]
    return problems


def test_every_official_example() -> None:
    problems = _problems()
    assert {p["id"] for p in problems} == set(SOLVERS)
    for problem in problems:
        function, game_class = SOLVERS[problem["id"]]
        for example in problem["examples"]:
            (values,) = example["input"].values()
            assert function(values) == example["output"], (problem["id"], values)
            game = game_class(values)
            assert game.solve().answer == example["output"]
            assert negamax_alphabeta(game, game.initial_state()).score == game.solve().value


def test_stone_game_vii_prints_its_value_and_line() -> None:
    game = stones.stones_vii("5,3,1,4,2")
    solution = stones.solve(game)
    assert solution.value == solution.answer == 6
    assert len(solution.line) == 5 and solution.line[0] in ("left 5", "right 2")
    state = game.initial_state()
    for text in solution.line:
        state = play(game, state, text)
    assert game.utility(state, 0) == 6


def _replay(game: StoneGameBase, moves: tuple[int, ...]) -> int:
    """The first player's margin at the end of ``moves``, each checked to keep the value."""
    state = game.initial_state()
    for move in moves:
        assert move in game.actions(state)
        before = negamax(game, state).score
        state = game.result(state, move)
        assert -negamax(game, state).score == before, "the line keeps the value"
    assert game.is_terminal(state)
    return game.utility(state, 0)


@pytest.mark.parametrize("game_class", [PredictTheWinner, StoneGameII, StoneGameIII, StoneGameVII])
@settings(max_examples=30, deadline=None)
@given(values=st.lists(st.integers(-20, 40), min_size=1, max_size=12))
def test_the_solver_agrees_with_the_searches(
    game_class: type[StoneGameBase], values: list[int]
) -> None:
    game = game_class(values)
    solution = game.solve()
    assert negamax_alphabeta(game, game.initial_state()).score == solution.value
    if len(values) <= 8:  # the plain search visits every line
        assert negamax(game, game.initial_state()).score == solution.value
        assert _replay(game, solution.moves) == solution.value
    assert [game.format_move(s, m) for s, m in _states(game, solution.moves)] == list(solution.line)


@settings(max_examples=30, deadline=None)
@given(
    values=st.lists(st.integers(1, 30), min_size=1, max_size=6).map(
        lambda half: half + [h + 1 for h in half]  # even count; the total is odd when len is
    )
)
def test_the_stone_game_solver_agrees_with_the_search(values: list[int]) -> None:
    if sum(values) % 2 == 0:
        values[0] += 1
    game = StoneGame(values)
    solution = game.solve()
    assert negamax_alphabeta(game, game.initial_state()).score == solution.value
    assert solution.answer is (solution.value > 0)


def _states(game: StoneGameBase, moves: tuple[int, ...]) -> list[tuple[Any, int]]:
    state, pairs = game.initial_state(), []
    for move in moves:
        pairs.append((state, move))
        state = game.result(state, move)
    return pairs


def test_answer_conventions() -> None:
    assert stones.predict_the_winner([1, 1]) is True  # a tie goes to player 1
    assert stones.predict_the_winner([2, 9, 3]) is False
    assert stones.stone_game_ii([3]) == 3
    assert stones.stone_game_iii([0, 0]) == "Tie"
    assert stones.stone_game_iii([-5, 1]) == "Bob"
    assert stones.stone_game_vii([9]) == 0


def test_solution_sizes() -> None:
    assert StoneGameVII([1, 2, 3, 4]).solve().states == 10
    assert StoneGameII([1, 2, 3, 4]).solve().states == 10
    assert StoneGameIII([1, 2, 3, 4]).solve().states == 5


def test_the_end_games_notation() -> None:
    game = PredictTheWinner([1, 5, 233, 7])
    state = game.initial_state()
    assert game.format_state(state) == "left=0 right=0 score=0:0"
    assert game.parse_move(state, "R 7") == game.parse_move(state, "right") == stones.RIGHT
    after = play(game, state, "left 1")
    assert game.format_state(after) == "left=1 right=0 score=1:0"
    assert game.parse_state("left=1 right=0 score=1:0") == after
    assert game.to_move(after) == 1
    last = game.parse_state("left=2 right=1 score=8:1")
    assert game.actions(last) == (stones.LEFT,)
    assert game.parse_move(last, "right 233") == stones.LEFT
    assert game.render(last).splitlines() == [
        "stones: 233",
        "score: first 8, second 1",
        "second to move",
    ]
    with pytest.raises(IllegalMoveError, match="the left stone is 1, not 5"):
        game.parse_move(state, "left 5")
    with pytest.raises(InvalidMoveError, match="'left' or 'right'"):
        game.parse_move(state, "middle")
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.parse_move(game.parse_state("left=4 right=0"), "left")


def test_the_front_games_notation() -> None:
    game = StoneGameII([2, 7, 9, 4, 4])
    state = play(game, game.initial_state(), "take 2")
    assert game.format_state(state) == "taken=2 m=2 score=9:0 turn=2"
    assert game.parse_state("taken=2 m=2 score=9:0 turn=2") == state
    assert game.format_move(state, 3) == "take 3" and game.parse_move(state, "3") == 3
    with pytest.raises(IllegalMoveError, match="take 1 to 3 piles here \\(M = 2\\)"):
        game.parse_move(state, "take 4")
    with pytest.raises(InvalidStateError, match="m=3 cannot be reached"):
        game.parse_state("taken=2 m=3")
    third = StoneGameIII([1, 2, 3, -9])
    state = play(third, third.initial_state(), "take 3")
    assert third.format_state(state) == "taken=3 score=6:0 turn=2"
    assert third.parse_state("taken=3 score=6:0 turn=2") == state
    with pytest.raises(IllegalMoveError, match="take 1 to 1 stones"):
        third.parse_move(state, "2")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("left=9 right=0", "only 4 stones"),
        ("left=1", "missing right"),
        ("left=1 right=0 left=2", "each once"),
        ("left=-1 right=0", "'left=-1' is not a number"),
        ("left=0 right=0 score=1", "two integers"),
        ("left=0 right=0 turn=2", "each once"),
    ],
)
def test_bad_states_are_named(text: str, words: str) -> None:
    with pytest.raises(InvalidStateError, match=words) as caught:
        StoneGameVII([5, 3, 1, 4]).parse_state(text)
    assert repr(text) in str(caught.value)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: stones.stones_vii(""), "empty"),
        (lambda: stones.stones_vii("1,x"), "'x' is not an integer"),
        (lambda: stones.stones("1,2,3"), "even number of piles and an odd total"),
        (lambda: stones.stones("1,3"), "even number of piles and an odd total"),
        (lambda: StoneGameIII([10**9] * 200), "must stay below"),
        (lambda: StoneGameVII([]), "non-empty"),
    ],
)
def test_bad_games_are_named(make: Callable[[], Any], words: str) -> None:
    with pytest.raises(InvalidGameError, match=words):
        make()


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=24))
def test_parsers_raise_only_zerosum_errors(text: str) -> None:
    games = [stones.predict_the_winner_game("3,1,2"), StoneGameII([1, 2, 3]), StoneGameIII([1])]
    parsers: list[Callable[[str], Any]] = [stones.stones_vii, stones.stones, stones.parse_values]
    for game in games:
        parsers.append(game.parse_state)
        parsers.append(lambda t, game=game: game.parse_move(game.initial_state(), t))
    for parse in parsers:
        with contextlib.suppress(ZerosumError):
            parse(text)
