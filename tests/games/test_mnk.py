"""Tic-tac-toe and the m,n,k-games: rules, published counts, search values, notation.

The rules are checked against a slow, independent model of the game (a board is a string
in reading order and lines are found by walking from each stone), and the published
tic-tac-toe facts are read from the shared data folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import product
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import shared_data
from zerosum.game import (
    WIN_THRESHOLD,
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    ZerosumError,
)
from zerosum.games import registry
from zerosum.games.mnk import MNKGame, tictactoe
from zerosum.notation import play
from zerosum.search.reference import ALGORITHMS

FULL_TREE_NODES = 549_946
"""Nodes of the whole tic-tac-toe game tree, the empty board included (every prefix of
every finished game), as plain minimax visits them."""


# --------------------------------------------------------------------------- a model


class Model:
    """A slow model of the m,n,k-game written without masks or tables.

    A board is a string of ``x``, ``o`` and ``.`` in reading order (top row first)."""

    def __init__(self, m: int, n: int, k: int) -> None:
        self.m, self.n, self.k = m, n, k
        self.values: dict[str, int] = {}

    def winner(self, board: str) -> str | None:
        m, n, k = self.m, self.n, self.k
        for row, column in product(range(n), range(m)):
            stone = board[row * m + column]
            if stone == ".":
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                r, c, run = row, column, 0
                while 0 <= r < n and 0 <= c < m and board[r * m + c] == stone and run < k:
                    r, c, run = r + dr, c + dc, run + 1
                if run == k:
                    return stone
        return None

    @staticmethod
    def mover(board: str) -> str:
        return "x" if board.count("x") == board.count("o") else "o"

    def is_over(self, board: str) -> bool:
        return self.winner(board) is not None or "." not in board

    def play(self, board: str, cell: int) -> str:
        return board[:cell] + self.mover(board) + board[cell + 1 :]

    def winning_cells(self, board: str, stone: str) -> set[int]:
        """The empty cells where ``stone`` would make a line."""
        return {
            cell
            for cell, here in enumerate(board)
            if here == "." and self.winner(board[:cell] + stone + board[cell + 1 :]) == stone
        }

    def value(self, board: str) -> int:
        """The exact value for the side to move: +1 win, 0 draw, -1 loss (memoised)."""
        known = self.values.get(board)
        if known is not None:
            return known
        winner = self.winner(board)
        if winner is not None:
            value = 1 if winner == self.mover(board) else -1
        elif "." not in board:
            value = 0
        else:
            value = -1
            for cell, here in enumerate(board):
                if here == ".":
                    value = max(value, -self.value(self.play(board, cell)))
                    if value == 1:  # nothing beats a win: the value is exact already
                        break
        self.values[board] = value
        return value


def flat(game: MNKGame, state: int) -> str:
    return game.format_state(state).replace("/", "")


def reachable(game: MNKGame) -> dict[int, str]:
    """Every position reachable from the empty board, with the model's board for it.

    The model's board is built by playing the same cells, so it checks ``result`` and
    ``format_state`` against the documented reading-order numbering on every path."""
    model = Model(game.m, game.n, game.k)
    seen = {game.initial_state(): "." * game.size}
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        board = seen[state]
        for cell in game.actions(state):
            child, child_board = game.result(state, cell), model.play(board, cell)
            known = seen.get(child)
            if known is None:
                seen[child] = child_board
                stack.append(child)
            else:
                assert known == child_board
    return seen


def solve(game: MNKGame, state: int, values: dict[int, int]) -> int:
    """The exact value of ``state`` for the side to move, through the game's own methods."""
    known = values.get(state)
    if known is None:
        if game.is_terminal(state):
            known = game.utility(state, game.to_move(state))
        else:
            known = -1
            for cell in game.ordered_actions(state):
                known = max(known, -solve(game, game.result(state, cell), values))
                if known == 1:
                    break
        values[state] = known
    return known


@pytest.fixture(scope="module")
def game() -> MNKGame:
    return tictactoe()


@pytest.fixture(scope="module")
def model() -> Model:
    return Model(3, 3, 3)


@pytest.fixture(scope="module")
def positions(game: MNKGame) -> dict[int, str]:
    return reachable(game)


@pytest.fixture(scope="module")
def facts() -> dict[str, Any]:
    facts_file = shared_data("tictactoe", "facts.json")
    loaded: dict[str, Any] = json.loads(facts_file.read_text(encoding="utf-8"))
    return loaded


def states_of(game: MNKGame, texts: str) -> Iterator[int]:
    for text in texts.split():
        yield game.parse_state(text)


# --------------------------------------------------------------------------- rules


def test_rules_agree_with_the_model_on_every_reachable_position(
    game: MNKGame, model: Model, positions: dict[int, str]
) -> None:
    for state, board in positions.items():
        assert flat(game, state) == board
        over = model.is_over(board)
        assert game.is_terminal(state) == over, board
        assert game.to_move(state) == (0 if model.mover(board) == "x" else 1)
        if over:
            assert game.actions(state) == ()
            winner = model.winner(board)
            expected = 0 if winner is None else 1 if winner == "x" else -1
            assert (game.utility(state, 0), game.utility(state, 1)) == (expected, -expected)
        else:
            assert list(game.actions(state)) == [i for i, c in enumerate(board) if c == "."]
        assert game.key(state) == state


def test_metadata_and_the_registry() -> None:
    info = tictactoe().info
    assert (info.name, info.title, info.players) == ("tictactoe", "Tic-tac-toe", ("X", "O"))
    assert (info.solved_value, info.board_size, info.utility_range) == (0, (3, 3), (-1, 1))
    assert registry.make("tictactoe").info == info
    assert registry.make("mnk").info == info
    other = registry.make("mnk:m=4,n=3,k=3")
    assert isinstance(other, MNKGame)
    assert (other.info.name, other.info.title) == ("mnk", "m,n,k-game 4x3, 3 in a row")
    assert (other.info.board_size, other.info.solved_value) == ((4, 3), None)
    assert repr(other) == "MNKGame(m=4, n=3, k=3)"


@pytest.mark.parametrize(
    ("m", "n", "k", "named"),
    [
        (0, 3, 3, "m=0"),
        (3, 27, 3, "n=27"),
        (3, 3, 4, "k=4"),
        (5, 2, 0, "k=0"),
        ("3", 3, 3, "m='3'"),
        (3, True, 3, "n=True"),
    ],
)
def test_bad_sizes_are_named(m: Any, n: Any, k: Any, named: str) -> None:
    with pytest.raises(InvalidGameError, match=named):
        MNKGame(m, n, k)


def test_one_in_a_row_is_won_by_the_first_stone() -> None:
    game = MNKGame(2, 2, 1)
    for cell in game.actions(game.initial_state()):
        state = game.result(game.initial_state(), cell)
        assert game.is_terminal(state)
        assert game.utility(state, 0) == 1
        assert game.utility(state, 1) == -1
    assert len(game.lines) == 4


def test_a_line_made_by_the_last_stone_on_a_full_board_wins(game: MNKGame) -> None:
    state = game.parse_state("xox/oxo/ox.")
    final = game.result(state, 8)
    assert game.format_state(final) == "xox/oxo/oxx"
    assert game.utility(final, 0) == 1
    drawn = game.result(game.parse_state("xox/xoo/ox."), 8)
    assert game.is_terminal(drawn)
    assert game.utility(drawn, 0) == 0


# --------------------------------------------------------------------------- published facts


def _value_named(fact: str) -> int:
    """Read a value written like ``draw (0)``."""
    return int(fact.split("(")[1].rstrip(")"))


def test_the_empty_board_is_a_draw_under_every_reference_algorithm(
    game: MNKGame, facts: dict[str, Any]
) -> None:
    expected = _value_named(facts["game_value_empty_board"])
    results = {name: search(game, game.initial_state()) for name, search in ALGORITHMS.items()}
    for name, result in results.items():
        assert result.score == expected, name
    stats = results["minimax"].stats
    assert stats.nodes == FULL_TREE_NODES
    assert stats.leaves == facts["number_of_games_all_move_sequences_until_win_or_full"]


def test_game_counts_by_enumeration(game: MNKGame, facts: dict[str, Any]) -> None:
    memo: dict[int, tuple[int, int, int, int]] = {}

    def count(state: int) -> tuple[int, int, int, int]:
        """Games won by X, won by O, drawn, and nodes of the tree below ``state``."""
        known = memo.get(state)
        if known is not None:
            return known
        if game.is_terminal(state):
            payoff = game.utility(state, 0)
            totals = (int(payoff > 0), int(payoff < 0), int(payoff == 0), 1)
        else:
            children = [count(game.result(state, a)) for a in game.actions(state)]
            x, o, draws, nodes = (sum(column) for column in zip(*children, strict=True))
            totals = (x, o, draws, nodes + 1)
        memo[state] = totals
        return totals

    x, o, draws, nodes = count(game.initial_state())
    assert x == facts["games_won_by_first_player_X"]
    assert o == facts["games_won_by_second_player_O"]
    assert draws == facts["games_drawn"]
    assert x + o + draws == facts["number_of_games_all_move_sequences_until_win_or_full"]
    assert nodes == FULL_TREE_NODES


def test_position_counts(game: MNKGame, positions: dict[int, str], facts: dict[str, Any]) -> None:
    terminal = [s for s in positions if game.is_terminal(s)]
    assert len(positions) == facts["reachable_legal_positions_including_empty"]
    assert len(terminal) == facts["terminal_positions"]
    classes = {game.canonical(s) for s in positions}
    assert len(classes) == facts["reachable_positions_up_to_symmetry"]
    finished = {game.canonical(s) for s in terminal}
    assert len(finished) == facts["terminal_positions_up_to_symmetry"]
    payoffs = [game.utility(s, 0) for s in finished]
    split = facts["terminal_up_to_symmetry_split"]
    assert (payoffs.count(1), payoffs.count(-1), payoffs.count(0)) == (
        split["X_wins"],
        split["O_wins"],
        split["draws"],
    )


def test_games_up_to_symmetry(game: MNKGame, facts: dict[str, Any]) -> None:
    memo: dict[int, int] = {}

    def games(state: int) -> int:
        """Finished games below ``state``, counting moves to symmetric positions once."""
        if game.is_terminal(state):
            return 1
        known = memo.get(state)
        if known is None:
            children = {game.canonical(game.result(state, a)) for a in game.actions(state)}
            known = memo[state] = sum(games(child) for child in children)
        return known

    assert games(game.initial_state()) == facts["games_up_to_symmetry"]


# --------------------------------------------------------------------------- symmetries


@pytest.mark.parametrize(("m", "n", "count"), [(3, 3, 8), (4, 3, 4), (2, 5, 4), (5, 5, 8)])
def test_symmetries_map_lines_onto_lines(m: int, n: int, count: int) -> None:
    game = MNKGame(m, n, 3)
    permutations = game.symmetries()
    assert len(set(permutations)) == count
    assert permutations[0] == tuple(range(game.size))
    cells_of = [frozenset(c for c in range(game.size) if line >> c & 1) for line in game.lines]
    for permutation in permutations:
        assert sorted(permutation) == list(range(game.size))
        moved = {frozenset(permutation[c] for c in cells) for cells in cells_of}
        assert moved == set(cells_of)


def test_transform_keeps_the_rules(game: MNKGame, positions: dict[int, str]) -> None:
    for state, board in positions.items():
        for number, permutation in enumerate(game.symmetries()):
            image = game.transform(state, number)
            moved = ["."] * 9
            for cell, stone in enumerate(board):
                moved[permutation[cell]] = stone
            assert flat(game, image) == "".join(moved)
            assert game.is_terminal(image) == game.is_terminal(state)
            if game.is_terminal(state):
                assert game.utility(image, 0) == game.utility(state, 0)
        assert game.canonical(state) == min(game.transform(state, g) for g in range(8))


# --------------------------------------------------------------------------- search


def test_every_algorithm_gives_the_exact_value_of_every_position(
    game: MNKGame, model: Model, positions: dict[int, str]
) -> None:
    exact = {state: model.value(board) for state, board in positions.items()}
    assert exact[game.initial_state()] == 0
    for name, search in ALGORITHMS.items():
        wrong = [
            game.format_state(s) for s, value in exact.items() if search(game, s).score != value
        ]
        assert wrong == [], name


def test_algorithms_agree_at_a_depth_limit_using_the_evaluation(
    game: MNKGame, positions: dict[int, str]
) -> None:
    for state in positions:
        scores = {name: search(game, state, depth=2).score for name, search in ALGORITHMS.items()}
        assert len(set(scores.values())) == 1, (game.format_state(state), scores)


def test_evaluation_values(game: MNKGame, positions: dict[int, str]) -> None:
    assert game.evaluate(game.initial_state()) == 0
    # four lines through the centre hold one X each; O is to move
    assert game.evaluate(game.parse_state(".../.x./...")) == -4
    # X: middle row, middle column, main diagonal; O: bottom row, left column
    assert game.evaluate(game.parse_state(".../.x./o..")) == 3 - 2
    for state, board in positions.items():
        for number in range(8):
            assert game.evaluate(game.transform(state, number)) == game.evaluate(state)
        if board.count("x") == board.count("o") and not game.is_terminal(state):
            swapped = board.replace("x", "-").replace("o", "x").replace("-", "o")
            mirror = game.parse_state("/".join(swapped[i : i + 3] for i in (0, 3, 6)))
            assert game.evaluate(mirror) == -game.evaluate(state)


def test_evaluation_stays_far_inside_the_win_band_on_the_largest_board() -> None:
    game = MNKGame(26, 26, 26)
    holes = {(r, r) for r in range(26)} | {(0, 25)}
    state = sum(1 << r * 26 + c for r in range(26) for c in range(26) if (r, c) not in holes)
    assert not game.is_terminal(state)
    assert 0 < -game.evaluate(state) < WIN_THRESHOLD // 8


def test_ordered_actions(game: MNKGame, model: Model, positions: dict[int, str]) -> None:
    assert game.ordered_actions(game.initial_state())[0] == 4
    assert set(game.ordered_actions(game.initial_state())[1:5]) == {0, 2, 6, 8}
    for state, board in positions.items():
        ordered = game.ordered_actions(state)
        assert sorted(ordered) == list(game.actions(state))
        if not ordered:
            continue
        mover = model.mover(board)
        wins = model.winning_cells(board, mover)
        threats = model.winning_cells(board, "o" if mover == "x" else "x")
        if wins:
            assert ordered[0] in wins, board
        elif threats:
            assert ordered[0] in threats, board


# --------------------------------------------------------------------------- notation


def test_move_notation(game: MNKGame, positions: dict[int, str]) -> None:
    empty = game.initial_state()
    assert [game.format_move(empty, cell) for cell in (0, 2, 4, 6, 8)] == [
        "a3",
        "c3",
        "b2",
        "a1",
        "c1",
    ]
    for digit in range(1, 10):
        assert game.parse_move(empty, str(digit)) == digit - 1
    assert game.parse_move(empty, " B2 ") == 4
    for state in positions:
        for cell in game.actions(state):
            assert game.parse_move(state, game.format_move(state, cell)) == cell
    after = play(game, play(game, empty, "1"), "c1")
    assert game.format_state(after) == "x../.../..o"


def test_notation_on_a_large_board() -> None:
    game = MNKGame(26, 20, 5)
    empty = game.initial_state()
    assert game.format_move(empty, 25) == "z20"
    assert game.format_move(empty, 19 * 26) == "a1"
    assert game.parse_move(empty, "a1") == 19 * 26
    with pytest.raises(InvalidMoveError):
        game.parse_move(empty, "5")
    with pytest.raises(IllegalMoveError, match="rows 1-20"):
        game.parse_move(empty, "a21")


def test_state_notation_reads_exactly_the_reachable_positions(
    game: MNKGame, positions: dict[int, str]
) -> None:
    accepted = {}
    for cells in product("xo.", repeat=9):
        text = "/".join("".join(cells[i : i + 3]) for i in (0, 3, 6))
        try:
            accepted[game.parse_state(text)] = text
        except InvalidStateError:
            continue
    assert accepted.keys() == positions.keys()
    for state, text in accepted.items():
        assert game.format_state(state) == text
    assert game.parse_state(" X.O/.x./..o ") == game.parse_state("x.o/.x./..o")


def test_render(game: MNKGame) -> None:
    assert game.render(game.parse_state("x.o/.x./..o")) == "3 X · O\n2 · X ·\n1 · · O\n  a b c"
    wide = MNKGame(3, 10, 3)
    picture = wide.render(wide.parse_state("/".join(["x..", *["..."] * 9])))
    assert picture.splitlines()[0] == "10 X · ·"
    assert picture.splitlines()[-2:] == [" 1 · · ·", "   a b c"]


def test_board_view() -> None:
    game = MNKGame(4, 3, 3)
    view = game.board(game.parse_state("x.../.o../...x"))
    assert (view.width, view.height, view.last) == (4, 3, None)
    assert view.cells == (0, None, None, None, None, 1, None, None, None, None, None, 0)
    assert sorted(view.targets) == [1, 2, 3, 4, 6, 7, 8, 9, 10]
    assert all(cell == move for cell, move in view.targets.items())
    assert game.board(game.parse_state("xxx./oo../....")).targets == {}


@pytest.mark.parametrize(
    ("position", "text", "error", "reason"),
    [
        ("x.o/.x./..o", "a3", IllegalMoveError, "a3 is taken"),
        ("x.o/.x./..o", "3", IllegalMoveError, "c3 is taken"),
        ("x.o/.x./..o", "d1", IllegalMoveError, "columns a-c and rows 1-3"),
        ("x.o/.x./..o", "a4", IllegalMoveError, "columns a-c and rows 1-3"),
        ("x.o/.x./..o", "b0", IllegalMoveError, "columns a-c and rows 1-3"),
        ("x.o/.x./..o", "a123456789", IllegalMoveError, "columns a-c and rows 1-3"),
        ("xxx/oo./...", "c2", IllegalMoveError, "the game is over"),
        ("x.o/.x./..o", "", InvalidMoveError, "cannot read move"),
        ("x.o/.x./..o", "0", InvalidMoveError, "cannot read move"),
        ("x.o/.x./..o", "10", InvalidMoveError, "cannot read move"),
        ("x.o/.x./..o", "2b", InvalidMoveError, "cannot read move"),
        ("x.o/.x./..o", "b 2", InvalidMoveError, "cannot read move"),
        ("xxx/oo./...", "zz", InvalidMoveError, "cannot read move"),
    ],
)
def test_bad_moves_name_the_move_and_the_position(
    game: MNKGame, position: str, text: str, error: type[ZerosumError], reason: str
) -> None:
    with pytest.raises(error) as raised:
        game.parse_move(game.parse_state(position), text)
    assert type(raised.value) is error
    message = str(raised.value)
    assert reason in message
    assert repr(text) in message
    assert position in message


@pytest.mark.parametrize(
    ("size", "text", "reason"),
    [
        ((3, 3, 3), "", "expected 3 rows of 3 cells"),
        ((3, 3, 3), "x.o/.x.", "expected 3 rows of 3 cells"),
        ((3, 3, 3), "x.o/.x./..oo", "expected 3 rows of 3 cells"),
        ((3, 3, 3), "x.o/.x./..q", "'q' is not a cell"),
        ((3, 3, 3), "o../.../...", "X has 0 stones and O 1"),
        ((3, 3, 3), "xx./.../...", "X has 2 stones and O 0"),
        ((3, 3, 3), "xxx/ooo/x..", "both X and O have a line"),
        ((3, 3, 3), "xxx/oo./o..", "X has a line, but O moved after it"),
        ((3, 3, 3), "ooo/xx./xx.", "O has a line, but X moved after it"),
        ((4, 4, 3), "xxx./oo.o/xxx./o..o", "no single stone completes all the lines"),
    ],
)
def test_impossible_positions_are_refused(
    size: tuple[int, int, int], text: str, reason: str
) -> None:
    with pytest.raises(InvalidStateError) as raised:
        MNKGame(*size).parse_state(text)
    assert reason in str(raised.value)
    assert repr(text) in str(raised.value)


def test_lines_sharing_the_last_stone_are_possible() -> None:
    game = MNKGame(4, 4, 3)
    state = game.parse_state("xxxx/oo../o.../....")
    assert game.is_terminal(state)
    assert game.utility(state, 0) == 1
    cross = tictactoe().parse_state("xxx/oxo/xoo")
    assert tictactoe().utility(cross, 0) == 1


SAMPLE_POSITIONS = [".../.../...", "x.o/.x./..o", "xxx/oo./...", "xox/xoo/oxx"]
MOVE_TEXT = (
    st.text(max_size=8)
    | st.from_regex(r"\s*[a-zA-Z][0-9]{1,5}\s*", fullmatch=True)
    | st.from_regex(r"[0-9]{1,2}", fullmatch=True)
)


@given(text=MOVE_TEXT, position=st.sampled_from(SAMPLE_POSITIONS))
def test_any_move_text_raises_only_our_errors(text: str, position: str) -> None:
    game = tictactoe()
    state = game.parse_state(position)
    try:
        cell = game.parse_move(state, text)
    except ZerosumError:
        return
    assert cell in game.actions(state)


STATE_TEXT = (
    st.text(max_size=14)
    | st.text(alphabet="xoXO./ -", max_size=14)
    | st.lists(st.sampled_from("xo."), min_size=9, max_size=9).map(
        lambda cells: "/".join("".join(cells[i : i + 3]) for i in (0, 3, 6))
    )
)


@given(text=STATE_TEXT)
def test_any_state_text_raises_only_our_errors(text: str) -> None:
    game = tictactoe()
    try:
        state = game.parse_state(text)
    except ZerosumError:
        return
    assert game.format_state(state) == text.strip().lower()
    assert game.parse_state(game.format_state(state)) == state


# --------------------------------------------------------------------------- other sizes


def test_three_in_a_row_on_four_by_three_matches_the_model() -> None:
    game = MNKGame(4, 3, 3)
    model = Model(4, 3, 3)
    positions = reachable(game)
    values: dict[int, int] = {}
    for state, board in positions.items():
        assert game.is_terminal(state) == model.is_over(board), board
        assert solve(game, state, values) == model.value(board), board
    assert values[game.initial_state()] == 1  # the first player wins
    assert ALGORITHMS["negamax-ab"](game, game.initial_state()).score == 1


@pytest.mark.parametrize(
    ("m", "n", "k", "value"), [(3, 4, 3, 1), (4, 4, 3, 1), (3, 3, 2, 1), (4, 2, 3, 0), (5, 2, 3, 0)]
)
def test_small_boards_solve_like_the_model(m: int, n: int, k: int, value: int) -> None:
    game = MNKGame(m, n, k)
    empty = "." * game.size
    assert Model(m, n, k).value(empty) == value
    assert solve(game, game.initial_state(), {}) == value


def test_large_boards_list_moves_by_chunks() -> None:
    game = MNKGame(7, 5, 4)
    model = Model(7, 5, 4)
    state, board = game.initial_state(), "." * 35
    for cell in (17, 0, 34, 8, 9, 33, 26, 16, 1, 30, 24, 10):
        assert list(game.actions(state)) == [i for i, c in enumerate(board) if c == "."]
        ordered = game.ordered_actions(state)
        assert sorted(ordered) == list(game.actions(state))
        wins = model.winning_cells(board, model.mover(board))
        if wins:
            assert ordered[0] in wins
        assert not game.is_terminal(state)
        state, board = game.result(state, cell), model.play(board, cell)
        assert flat(game, state) == board
    assert game.is_terminal(state) == model.is_over(board)
