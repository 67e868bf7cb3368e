"""Connect four: the rules against a naive board, the notation, the solver hooks, the
published scores of Pascal Pons' test sets and John Tromp's values of small boards."""

from __future__ import annotations

import contextlib
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import shared_data
from zerosum.game import (
    WIN,
    WIN_THRESHOLD,
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    ZerosumError,
)
from zerosum.games import connect4
from zerosum.games.connect4 import SOLVED_VALUES, Connect4, State, solve_position
from zerosum.notation import play
from zerosum.search.engine import Engine
from zerosum.search.solve import solve

SIZES = [(w, h) for w in range(4, 10) for h in range(4, 10)]


def _lines(name: str) -> list[tuple[str, int]]:
    path = shared_data("connect4", name)
    pairs = []
    for line in path.read_text().splitlines():
        moves, score = line.split()
        pairs.append((moves, int(score)))
    return pairs


# --------------------------------------------------------------------------- naive rules


class NaiveBoard:
    """Connect four on a list of columns, checked cell by cell: the independent oracle."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.columns: list[list[int]] = [[] for _ in range(width)]
        self.winner: int | None = None
        self.moves = 0

    def legal(self) -> list[int]:
        if self.over():
            return []
        return [c for c in range(self.width) if len(self.columns[c]) < self.height]

    def over(self) -> bool:
        return self.winner is not None or self.moves == self.width * self.height

    def cell(self, column: int, row: int) -> int | None:
        if 0 <= column < self.width and 0 <= row < len(self.columns[column]):
            return self.columns[column][row]
        return None

    def play(self, column: int) -> None:
        player = self.moves % 2
        self.columns[column].append(player)
        self.moves += 1
        row = len(self.columns[column]) - 1
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                c, r = column + sign * dc, row + sign * dr
                while self.cell(c, r) == player:
                    run += 1
                    c, r = c + sign * dc, r + sign * dr
            if run >= 4:
                self.winner = player

    def wins_at_once(self) -> bool:
        player = self.moves % 2
        for column in self.legal():
            trial = self.copy()
            trial.play(column)
            if trial.winner == player:
                return True
        return False

    def copy(self) -> NaiveBoard:
        twin = NaiveBoard(self.width, self.height)
        twin.columns = [list(c) for c in self.columns]
        twin.winner, twin.moves = self.winner, self.moves
        return twin


def _random_games(width: int, height: int, count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board, line = NaiveBoard(width, height), []
        while not board.over():
            column = rng.choice(board.legal())
            board.play(column)
            line.append(column)
        games.append(line)
    return games


@pytest.mark.parametrize(("width", "height"), [(7, 6), (4, 4), (9, 9), (5, 8), (8, 4)])
def test_rules_agree_with_a_naive_board(width: int, height: int) -> None:
    game = Connect4(width, height)
    for line in _random_games(width, height, 60, seed=width * 10 + height):
        board, state = NaiveBoard(width, height), game.initial_state()
        for column in [*line, None]:
            assert game.actions(state) == board.legal()
            assert game.is_terminal(state) == board.over()
            assert game.to_move(state) == board.moves % 2
            if board.over():
                winner = board.winner
                for player in (0, 1):
                    expected = 0 if winner is None else (1 if player == winner else -1)
                    assert game.utility(state, player) == expected
                break
            assert column is not None
            board.play(column)
            state = game.result(state, column)


def test_a_column_fills_and_rows_connect() -> None:
    game = Connect4()
    state = game.parse_state("121212")
    assert not game.is_terminal(state)
    assert game.winning_action(state) == 0
    state = game.result(state, 0)
    assert game.is_terminal(state) and game.utility(state, 0) == 1
    full = game.parse_state("444444")
    assert 3 not in game.actions(full)
    diagonal = game.parse_state("12234334544")  # X: 1, 2, 3, 4 rising
    assert game.is_terminal(diagonal) and game.utility(diagonal, 1) == -1


def test_keys_are_distinct_per_position_and_include_the_side_to_move() -> None:
    game = Connect4()
    seen: dict[int, State] = {}
    for line in _random_games(7, 6, 200, seed=3):
        state = game.initial_state()
        for column in line:
            state = game.result(state, column)
            key = game.key(state)
            assert seen.setdefault(key, state) == state
    # the same stones, the other side to move, can never both arise; empty differs too
    assert game.key(game.initial_state()) != game.key(game.parse_state("4"))
    # one int, for the table to spread: the stones of the mover plus every stone
    assert game.key(game.parse_state("4453")) == sum(game.parse_state("4453"))


def test_bad_sizes_are_rejected() -> None:
    for width, height in ((3, 6), (7, 10), (0, 0)):
        with pytest.raises(InvalidGameError, match="must be an integer from 4 to 9"):
            Connect4(width, height)
    with pytest.raises(InvalidGameError, match="'7'"):
        Connect4("7", 6)  # type: ignore[arg-type]


def test_metadata() -> None:
    game = Connect4()
    assert game.info.name == "connect4"
    assert game.info.solved_value == 1 and game.info.win_loss
    assert game.info.board_size == (7, 6)
    assert Connect4(6, 4).info.solved_value == -1
    assert Connect4(8, 8).info.solved_value is None


# --------------------------------------------------------------------------- notation


def test_moves_and_positions_round_trip() -> None:
    game = Connect4()
    for line in _random_games(7, 6, 50, seed=5):
        state = game.initial_state()
        for column in line:
            if not game.is_terminal(state):
                text = game.format_move(state, column)
                assert text == str(column + 1)
                assert game.parse_move(state, text) == column
            state = game.result(state, column)
            assert game.parse_state(game.format_state(state)) == state
    assert game.format_state(game.initial_state()) == ""
    assert game.parse_state(" 4453 ") == game.parse_state("4453")


def test_render_draws_the_board_with_column_numbers() -> None:
    game = Connect4(5, 4)
    assert game.render(game.parse_state("3324")) == "\n".join(
        [
            ". . . . .",
            ". . . . .",
            ". . O . .",
            ". X X O .",
            "1 2 3 4 5",
        ]
    )


@pytest.mark.parametrize(
    ("moves", "text", "error", "message"),
    [
        ("", "8", InvalidMoveError, "invalid move '8': columns are 1-7, in position ''"),
        ("44", "x", InvalidMoveError, "invalid move 'x': columns are 1-7, in position '44'"),
        ("", "0", InvalidMoveError, "columns are 1-7"),
        ("", "12", InvalidMoveError, "invalid move '12'"),
        ("444444", "4", IllegalMoveError, "illegal move '4': column 4 is full in position"),
        ("1212121", "3", IllegalMoveError, "illegal move '3': the game is over in position"),
    ],
)
def test_bad_moves_name_the_move_and_the_position(
    moves: str, text: str, error: type[Exception], message: str
) -> None:
    game = Connect4()
    with pytest.raises(error) as caught:
        game.parse_move(game.parse_state(moves), text)
    assert message in str(caught.value)


def test_play_reads_moves_through_the_checked_layer() -> None:
    game = Connect4()
    assert play(game, game.parse_state("44"), "5") == game.parse_state("445")
    with pytest.raises(IllegalMoveError):
        play(game, game.parse_state("1212121"), "3")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("44a", "invalid position '44a': move 3 ('a') is not a column 1-7"),
        ("448", "move 3 ('8') is not a column 1-7"),
        ("4444444", "invalid position '4444444': move 7 (4) is played in a full column"),
        ("12121213", "move 8 (3) is played after the game ended"),
    ],
)
def test_bad_positions_name_the_sequence(text: str, message: str) -> None:
    with pytest.raises(InvalidStateError) as caught:
        Connect4().parse_state(text)
    assert message in str(caught.value)


def test_a_position_no_game_reaches_cannot_be_written() -> None:
    game = Connect4()
    with pytest.raises(InvalidStateError, match="no sequence of moves"):
        game.format_state((0, 0b1111))  # four of the second player's stones, none of X


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12), st.text(alphabet="0123456789 ", max_size=45))
def test_parsers_raise_only_our_errors(text: str, digits: str) -> None:
    game = Connect4()
    for parse in (lambda t: game.parse_move(game.initial_state(), t), game.parse_state):
        for candidate in (text, digits):
            with contextlib.suppress(ZerosumError):
                parse(candidate)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(SIZES), st.lists(st.integers(0, 8), max_size=81))
def test_format_then_parse_is_the_identity(size: tuple[int, int], picks: list[int]) -> None:
    game = Connect4(*size)
    state = game.initial_state()
    for pick in picks:
        moves = game.actions(state)
        if not moves:
            break
        state = game.result(state, moves[pick % len(moves)])
    assert game.parse_state(game.format_state(state)) == state


# --------------------------------------------------------------------------- hooks


def _positions(width: int, height: int, count: int, seed: int) -> list[tuple[State, NaiveBoard]]:
    """Positions where the game goes on, each with its naive twin."""
    game = Connect4(width, height)
    found = []
    for line in _random_games(width, height, count, seed):
        board, state = NaiveBoard(width, height), game.initial_state()
        for column in line:
            if not board.over():
                found.append((state, board.copy()))
            board.play(column)
            state = game.result(state, column)
    return found


@pytest.mark.parametrize(("width", "height"), [(7, 6), (4, 5), (9, 8)])
def test_winning_and_non_losing_moves_match_the_naive_board(width: int, height: int) -> None:
    game = Connect4(width, height)
    for state, board in _positions(width, height, 40, seed=width + height):
        mover = board.moves % 2
        winning, safe = set(), set()
        for column in board.legal():
            after = board.copy()
            after.play(column)
            if after.winner == mover:
                winning.add(column)
                safe.add(column)
            elif not after.wins_at_once():
                safe.add(column)
        found = game.winning_action(state)
        assert (found is None) == (not winning) and (found is None or found in winning)
        non_losing = game.non_losing_actions(state)
        assert sorted(non_losing) == sorted(safe)
        ordered = game.ordered_actions(state)
        assert sorted(ordered) == board.legal()
        assert tuple(ordered[: len(non_losing)]) == non_losing
        if winning:
            assert non_losing[0] in winning


@pytest.mark.parametrize(("width", "height"), [(7, 6), (4, 4), (9, 9)])
def test_memoised_hooks_agree_with_a_cold_game_and_the_naive_board(width: int, height: int) -> None:
    # a search asks non_losing_actions before it plays the children, so the memo knows
    # the threats of their stones: is_terminal then reads its answer from there
    warm, cold = Connect4(width, height), Connect4(width, height)
    for state, board in _positions(width, height, 30, seed=width * height):
        answer = warm.non_losing_actions(state)
        assert warm.score_bounds(state) == cold.score_bounds(state)
        for column in board.legal():
            after = board.copy()
            after.play(column)
            child = warm.result(state, column)
            assert warm.is_terminal(child) == cold.is_terminal(child) == after.over()
        assert warm.non_losing_actions(state) == answer  # the threats, from the memo
        assert warm.non_losing_actions_and_bounds(state) == (answer, cold.score_bounds(state))
        cold.clear_memo()
        assert cold.non_losing_actions(state) == answer
        assert warm.winning_action(state) == cold.winning_action(state)


def test_the_memos_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connect4, "_MEMO_LIMIT", 50)
    game = Connect4()
    for state, _ in _positions(7, 6, 40, seed=5):
        game.non_losing_actions(state)
        assert len(game._memo) <= 50 + 2 + game.width
    game.clear_memo()
    assert not game._memo


def test_ordering_prefers_the_centre_and_new_threats() -> None:
    game = Connect4()
    assert game.non_losing_actions(game.initial_state()) == (3, 2, 4, 1, 5, 0, 6)
    assert game.ordered_actions(game.initial_state())[0] == 3
    # X has 3 and 4 on the bottom row: playing 5 (or 2) makes two winning cells at once
    state = game.parse_state("3747")
    assert game.non_losing_actions(state)[0] in (1, 4)
    assert Connect4(8, 6).non_losing_actions((0, 0))[:2] == (4, 3)


@cache
def _exact(game: Connect4, state: State) -> int:
    """Engine score by plain negamax with win distances: the oracle for the hooks."""
    if game.is_terminal(state):
        return -WIN if game.utility(state, game.to_move(state)) else 0
    best = -WIN - 1
    for move in game.actions(state):
        value = -_exact(game, game.result(state, move))
        value += -1 if value > 0 else (1 if value < 0 else 0)
        best = max(best, value)
    return best


def test_score_bounds_hold_the_exact_value() -> None:
    game = Connect4(4, 4)
    exact_bounds = 0
    for state, _ in _positions(4, 4, 150, seed=11):
        if game.moves_played(state) < 6:
            continue
        value = _exact(game, state)
        low, high = game.score_bounds(state)
        assert low <= value <= high, game.format_state(state)
        exact_bounds += low == high
        cold = Connect4(4, 4)
        assert cold.non_losing_actions(state) == game.non_losing_actions(state)
        assert game.score_bounds(state) == (low, high)  # now from the memo
    assert exact_bounds > 20
    over = game.parse_state("1212121")
    assert game.score_bounds(over) == (-WIN, -WIN)


def test_evaluation_is_symmetric_and_sees_threats() -> None:
    game = Connect4()
    for state, _ in _positions(7, 6, 30, seed=13):
        mirrored = game.parse_state("".join(str(8 - int(c)) for c in game.format_state(state)))
        value = game.evaluate(state)
        assert value == game.evaluate(mirrored)
        assert abs(value) < WIN_THRESHOLD
    assert game.evaluate(game.parse_state("121212")) == 1000  # a win on the spot
    # X holds 3, 4 and 5 on the bottom row with 2 and 6 open: O to move is lost
    assert game.evaluate(game.parse_state("37475")) < 0
    assert game.evaluate(game.parse_state("374752")) == 1000


# --------------------------------------------------------------------------- scores


def test_published_scores_convert_both_ways() -> None:
    game = Connect4()
    state = game.parse_state("4455")
    assert game.published_score(state, WIN - 3) == 18  # X's fourth stone: 22 - 4
    assert game.engine_score(state, 18) == WIN - 3
    loser = game.parse_state("44455554221")
    assert game.published_score(loser, -(WIN - 2)) == -15  # X's seventh stone next
    assert game.engine_score(loser, -15) == -(WIN - 2)
    assert game.published_score(state, 0) == game.engine_score(state, 0) == 0
    for moves in ("", "4", "44", "123", "4455667"):
        position = game.parse_state(moves)
        for plies in range(1, 42 - len(moves) + 1):
            score = WIN - plies if plies % 2 else plies - WIN
            assert game.engine_score(position, game.published_score(position, score)) == score
    with pytest.raises(ValueError, match="cannot end a game"):
        game.published_score(state, WIN - 2)  # the mover cannot win on the opponent's move
    with pytest.raises(ValueError, match="impossible"):
        game.engine_score(state, 22)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Connect4())


def _check(engine: Engine, pairs: list[tuple[str, int]]) -> None:
    game = engine.game
    assert isinstance(game, Connect4)
    wrong = []
    for moves, score in pairs:
        state = game.parse_state(moves)
        found = solve(game, state, engine=engine).score
        if game.published_score(state, found) != score:
            wrong.append((moves, score, game.published_score(state, found)))
    assert wrong == []


def test_end_games_score_exactly(engine: Engine) -> None:
    _check(engine, _lines("Test_L3_R1"))


def test_middle_games_score_exactly(engine: Engine) -> None:
    _check(engine, _lines("Test_L2_R1"))


@pytest.mark.slow
def test_harder_middle_games_score_exactly(engine: Engine) -> None:
    _check(engine, _lines("Test_L2_R2")[::10])


@pytest.mark.slow
def test_openings_score_exactly(engine: Engine) -> None:
    _check(engine, _lines("Test_L1_R1")[::10])


def test_the_score_alone_comes_with_one_best_move(engine: Engine) -> None:
    # best_moves=False (what the benchmark times against Pons): the same score, and its
    # one move is among the best moves the full solve lists
    game = engine.game
    for moves, score in _lines("Test_L3_R1")[::50] + _lines("Test_L2_R1")[::25]:
        state = game.parse_state(moves)
        alone = solve(game, state, engine=engine, best_moves=False)
        full = solve(game, state, engine=engine)
        assert game.published_score(state, alone.score) == score, moves
        assert len(alone.best_moves) == 1 and alone.pv == alone.best_moves, moves
        assert alone.best_moves[0] in full.best_moves, moves


def test_weak_solving_gives_the_sign(engine: Engine) -> None:
    game = engine.game
    # openings with fast wins too: there the sign alone cost a hundred times the exact
    # score until the weak solve began with the exact solver's first probes
    pairs = _lines("Test_L3_R1")[::20] + _lines("Test_L2_R1")[::20] + _lines("Test_L1_R1")[:20]
    for moves, score in pairs:
        state = game.parse_state(moves)
        found = solve(game, state, weak=True, engine=engine).score
        assert (found > 0) - (found < 0) == (score > 0) - (score < 0), moves


def test_solve_position_reports_every_column() -> None:
    game = Connect4()
    state = game.parse_state("5554224333234511764415115")
    found = solve_position(game, state, all_columns=True)
    assert found.score == 4 and found.best == ("6",)
    assert found.columns == {"6": 4, "1": -8, "2": -8, "3": -8, "4": -8, "7": -8}
    assert game.parse_state(found.moves) == state and found.nodes > 0
    weak = solve_position(game, state, weak=True)
    assert weak.score == 1 and weak.best == ("6",) and weak.columns is None
    with pytest.raises(IllegalMoveError, match="the game is over"):
        solve_position(game, game.parse_state("1212121"))


# --------------------------------------------------------------------------- small boards


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height"), [(4, 4), (5, 4), (6, 4), (4, 5), (5, 5), (4, 6)])
def test_small_boards_have_tromps_values(width: int, height: int) -> None:
    game = Connect4(width, height)
    found = solve(game, weak=True)
    assert (found.score > 0) - (found.score < 0) == SOLVED_VALUES[(width, height)]
