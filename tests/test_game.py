"""The contract in zerosum.game: score constants, the error taxonomy, outcomes, and the
checked play() of zerosum.notation on a game with its own notation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import FrozenInstanceError

import pytest

from zerosum.game import (
    INFINITY,
    MAX_PLY,
    WIN,
    WIN_THRESHOLD,
    GameInfo,
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    MissingCapabilityError,
    Outcome,
    ZerosumError,
    describe_depth,
    describe_score,
    describe_state,
    is_win_score,
    loss_in,
    other,
    outcome,
    plies_to_end,
    quoted,
    win_in,
)
from zerosum.notation import play


class Countdown:
    """Take 1 or 2 from a counter; whoever takes the last wins. States are ints."""

    info = GameInfo("countdown", "Countdown", impartial=True)

    def __init__(self, start: int = 5) -> None:
        self.start = start

    def initial_state(self) -> tuple[int, int]:
        return (self.start, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def actions(self, state: tuple[int, int]) -> Sequence[int]:
        return [n for n in (1, 2) if n <= state[0]]

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        return (state[0] - action, 1 - state[1])

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return state[0] == 0

    def utility(self, state: tuple[int, int], player: int) -> int:
        return -1 if player == state[1] else 1

    def format_state(self, state: tuple[int, int]) -> str:
        return f"{state[0]} left, player {state[1]} to move"

    def parse_move(self, state: tuple[int, int], text: str) -> int:
        if text not in ("1", "2"):
            raise InvalidMoveError(f"invalid move {text!r} in {self.format_state(state)}")
        if int(text) > state[0]:
            raise IllegalMoveError(f"illegal move {text!r} in {self.format_state(state)}")
        return int(text)


def test_win_band_orders_wins_by_distance() -> None:
    assert win_in(1) > win_in(3) > 0 > loss_in(3) > loss_in(1)
    assert win_in(0) == WIN and loss_in(2) == -(WIN - 2)
    assert is_win_score(win_in(MAX_PLY)) and is_win_score(loss_in(MAX_PLY))
    assert not is_win_score(WIN_THRESHOLD - 1) and not is_win_score(0)
    assert plies_to_end(win_in(7)) == 7 and plies_to_end(loss_in(4)) == 4
    with pytest.raises(ValueError, match="not a proven win"):
        plies_to_end(123)
    assert INFINITY > WIN and INFINITY < 2**30  # one CPython digit


def test_errors_are_value_errors_with_a_common_base() -> None:
    for error in (
        InvalidMoveError,
        IllegalMoveError,
        InvalidStateError,
        InvalidGameError,
        MissingCapabilityError,
    ):
        assert issubclass(error, ZerosumError) and issubclass(error, ValueError)


def test_play_is_checked_and_never_changes_the_state() -> None:
    game = Countdown(1)
    start = game.initial_state()
    with pytest.raises(InvalidMoveError, match=r"'x'.*1 left"):
        play(game, start, "x")
    with pytest.raises(IllegalMoveError, match=r"'2'.*1 left"):
        play(game, start, "2")
    end = play(game, start, "1")
    assert start == (1, 0) and end == (0, 1)
    with pytest.raises(IllegalMoveError, match="game is over"):
        play(game, end, "1")


def test_play_without_notation_reads_moves_as_they_are_written() -> None:
    class Bare(Countdown):
        parse_move = None  # type: ignore[assignment]

    assert play(Bare(), (3, 0), "2") == (1, 1)
    with pytest.raises(IllegalMoveError, match=r"'x'"):
        play(Bare(), (3, 0), "x")


def test_outcome_reports_winner_and_result_text() -> None:
    game = Countdown(2)
    assert outcome(game, (2, 0)) is None
    won_by_first = outcome(game, (0, 1))  # player 1 to move with nothing left: 0 took last
    assert won_by_first == Outcome(0, (1, -1)) and won_by_first.result() == "1-0"
    assert outcome(game, (0, 0)) == Outcome(1, (-1, 1))
    assert Outcome(None).result() == "1/2-1/2" and Outcome(1).result() == "0-1"


def test_describe_state_prefers_the_game_notation() -> None:
    assert describe_state(Countdown(), (3, 1)) == "3 left, player 1 to move"
    assert describe_state(object(), (3, 1)) == "(3, 1)"


def test_values_are_immutable() -> None:
    info = GameInfo("x", "X")
    with pytest.raises(FrozenInstanceError):
        info.name = "y"  # type: ignore[misc]
    assert other(0) == 1 and other(1) == 0


def test_quoted_input_stays_short_however_large() -> None:
    assert quoted("b2") == "'b2'"
    long = quoted("1" * 1_000_000)
    assert long.startswith("'" + "1" * 40 + "'...") and "(1,000,000 characters)" in long
    deep: list[object] = []
    for _ in range(1000):
        deep = [deep, "x" * 1000]
    assert len(quoted(deep)) <= 83
    assert quoted(list(range(10**6))) == "[0, 1, 2, 3, ...]"
    assert quoted(7) == "7"


def test_scores_and_depths_read_the_same_everywhere() -> None:
    points = GameInfo("points", "Points", win_loss=False, score_unit="stones")
    wins = GameInfo("wins", "Wins")
    assert describe_score(wins, None) == "no score yet"
    assert describe_score(wins, WIN - 5) == "win in 5 plies"
    assert describe_score(wins, -(WIN - 1)) == "loss in 1 ply"
    assert describe_score(wins, 0, exact=True) == "draw"
    assert describe_score(wins, 12) == "eval +12 points"
    assert describe_score(points, 6, exact=True) == "+6 stones"
    assert describe_score(points, -3) == "eval -3 stones"
    assert describe_depth(1) == "1 ply" and describe_depth(12) == "12 plies"
    assert describe_depth(MAX_PLY + 1) == "to the end"
