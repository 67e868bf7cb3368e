"""Renju, gomoku's rule with forbidden moves for black: the rule against an independent
reference (``renju_reference``, written from RIF's definitions alone) and against the
textbook shapes, the win by exactly five for black and five or more for white, legal
moves and move parsing, the threat search, the engine's proven results against a plain
search, and the Gomocup brain under ``INFO rule 4``."""

from __future__ import annotations

import io
import random

import pytest

import renju_reference
from zerosum.game import WIN, WIN_THRESHOLD, IllegalMoveError, InvalidGameError
from zerosum.games.gomoku import FORBIDDEN_REASONS, Gomoku, GomokuState
from zerosum.games.gomoku_threats import vcf, vct
from zerosum.protocols.gomocup import GomocupBrain
from zerosum.search.engine import Engine, Limits

RENJU = Gomoku(15, rule="renju")
OVERLINE, DOUBLE_FOUR, DOUBLE_THREE = FORBIDDEN_REASONS


def diagram(game: Gomoku, rows: list[str], origin: tuple[int, int]) -> tuple[GomokuState, int]:
    """A position drawn as rows (``X`` black, ``O`` white, ``*`` the cell asked about,
    ``.`` empty) with its top-left character on cell ``origin`` (x, y from the top),
    black to move; and the asked cell."""
    black, white, asked = [], [], []
    for i, row in enumerate(rows):
        for j, char in enumerate(row):
            cell = game.action(origin[0] + j, origin[1] + i)
            {"X": black, "O": white, "*": asked, ".": []}[char].append(cell)
    return game.state_from_stones(black, white, 0), asked[0]


def named(game: Gomoku, black: str, white: str = "", to_move: int = 0) -> GomokuState:
    """A position from its stones' names (``h8``)."""
    start = game.initial_state()
    return game.state_from_stones(
        [game.parse_move(start, name) for name in black.split()],
        [game.parse_move(start, name) for name in white.split()],
        to_move,
    )


SHAPES = [
    ("double three", ["..X", "..X", "XX*"], (5, 5), DOUBLE_THREE),
    ("four and three", ["...X", "...X", "XXX*"], (4, 5), None),
    ("two fours in two lines", ["....O", "....X", "....X", "....X", "OXXX*"], (3, 3), DOUBLE_FOUR),
    ("two fours in one line, X.XXX.X", ["X.X*X.X"], (3, 7), DOUBLE_FOUR),
    (
        "a straight four and a four",
        ["....O", "....X", "....X", "....X", ".XXX*"],
        (3, 3),
        DOUBLE_FOUR,
    ),
    ("six in a row", ["XXX*XX"], (3, 7), OVERLINE),
    ("exactly five, with two threes besides", ["..X.X", "...XX", "XXXX*"], (3, 5), None),
    ("the same two threes without the five", ["..X.X", "...XX", "....*"], (3, 5), DOUBLE_THREE),
    ("six in a row, with two threes besides", ["..X.X.", "...XX.", "XXXX*X"], (3, 5), OVERLINE),
    ("a three closed by white, and a three", ["...X", "...X", "OXX*"], (4, 5), None),
    ("a split three, and a three", ["...X", "...X", "X.X*"], (4, 5), DOUBLE_THREE),
    ("a three closed by the edge, and a three", ["X..", "X..", "*XX"], (0, 5), None),
    # the split three's one straight four (at the gap) would be two fours: a false three
    ("a false three, and a three", [".X..", ".X.X", ".X.X", "X.X*"], (4, 4), None),
]


@pytest.mark.parametrize(
    ("rows", "origin", "reason"), [s[1:] for s in SHAPES], ids=[s[0] for s in SHAPES]
)
def test_textbook_shapes(rows: list[str], origin: tuple[int, int], reason: str | None) -> None:
    """RIF's shapes: what is forbidden and why, and nothing under the other rules."""
    state, cell = diagram(RENJU, rows, origin)
    assert RENJU.forbidden(state, cell) == reason
    assert bool(RENJU.forbidden_cells(state) >> cell & 1) is (reason is not None)
    for rule in ("freestyle", "exact5"):
        other = Gomoku(15, rule=rule)
        plain, _ = diagram(other, rows, origin)
        assert other.forbidden(plain, cell) is None and other.forbidden_cells(plain) == 0


def test_forbidden_cells_agree_with_the_reference() -> None:
    """On dense random positions, every empty cell is forbidden exactly when the
    reference says so, asked alone and in the board's mask; many are."""
    rng = random.Random(41)
    middle = [RENJU.action(x, y) for y in range(4, 11) for x in range(4, 11)]
    forbidden = shown = 0
    while shown < 60:
        black_count = rng.randint(6, 20)
        chosen = rng.sample(middle, black_count + rng.randint(0, black_count))
        black, white = chosen[:black_count], chosen[black_count:]
        try:
            state = RENJU.state_from_stones(black, white, 0)
        except ValueError:
            continue
        if RENJU.is_terminal(state):
            continue
        shown += 1
        stones = [frozenset(RENJU.coordinates(c) for c in side) for side in (black, white)]
        mask = RENJU.forbidden_cells(state)
        for cell in range(RENJU.cells):
            if (state.black | state.white) >> cell & 1:
                continue
            expected = renju_reference.forbidden(15, 15, *stones, RENJU.coordinates(cell))
            assert (RENJU.forbidden(state, cell) is not None) is expected, (
                RENJU.format_state(state),
                RENJU.format_move(state, cell),
            )
            assert bool(mask >> cell & 1) is expected
            forbidden += expected
    assert forbidden >= 100


def test_black_wins_by_exactly_five_and_white_by_five_or_more() -> None:
    black_six = named(RENJU, "e8 f8 g8 i8 j8", "e2 f2 g2 i2 j2")  # h8 makes six
    assert RENJU.forbidden(black_six, RENJU.parse_move(black_six, "e1")) is None
    six = RENJU.action(7, 7)
    assert RENJU.forbidden(black_six, six) == OVERLINE
    assert six not in RENJU.actions(black_six)
    assert RENJU.winning_action(black_six) is None
    assert not RENJU.is_terminal(RENJU.result(black_six, six))  # unchecked, and no win
    white_six = named(RENJU, "e2 f2 g2 i2 j2 a1", "e8 f8 g8 i8 j8", 1)
    assert RENJU.winning_action(white_six) == six
    won = RENJU.result(white_six, six)
    assert RENJU.is_terminal(won) and RENJU.utility(won, 1) == 1
    black_five = named(RENJU, "d8 e8 f8 g8", "d2 e2 f2 g2")
    assert RENJU.winning_action(black_five) in (RENJU.action(2, 7), RENJU.action(7, 7))


def test_only_black_is_bound_and_a_forbidden_move_is_refused_by_name() -> None:
    state, cell = diagram(RENJU, ["..X", "..X", "XX*"], (5, 5))
    assert cell not in RENJU.actions(state) and cell not in RENJU.ordered_actions(state)
    assert cell not in RENJU.non_losing_actions(state)
    name = RENJU.format_move(state, cell)
    with pytest.raises(IllegalMoveError, match=f"{name} is forbidden for black under renju"):
        RENJU.parse_move(state, name)
    with pytest.raises(IllegalMoveError, match="double three"):
        RENJU.parse_move(state, "7,7")
    for bad in (-1, RENJU.cells, RENJU.action(5, 7)):  # off the board, off, taken
        with pytest.raises(IllegalMoveError, match=r"off the|is taken"):
            RENJU.forbidden(state, bad)
    white_to_move = RENJU.state_from_stones(
        [c for c in range(RENJU.cells) if state.black >> c & 1], [], 1
    )
    assert cell in RENJU.actions(white_to_move)
    assert RENJU.parse_move(white_to_move, name) == cell
    exact = Gomoku(15, rule="exact5")
    assert RENJU.parse_move(exact.initial_state(), name) == cell
    rows = RENJU.render(state).splitlines()
    assert rows[7].split()[1 + 7] == "×" and "×" not in RENJU.render(white_to_move)
    assert rows[7].replace("×", "·") == exact.render(state).splitlines()[7]


def test_a_four_black_may_only_block_on_a_forbidden_cell_is_lost() -> None:
    """White's four whose one block is a double-three cell of black's: black has no
    move that holds (the engine's list is empty), and the engine scores it lost."""
    state, cell = diagram(RENJU, ["..X", "..X", "XX*"], (5, 5))
    # white's four on the diagonal i7 to l4, closed by black at m3: five only at h8
    white_four = [RENJU.action(k, k) for k in (8, 9, 10, 11)]
    black = [c for c in range(RENJU.cells) if state.black >> c & 1] + [RENJU.action(12, 12)]
    lost = RENJU.state_from_stones(black, white_four, 0)
    assert RENJU.five_cells(lost, 1) == 1 << cell and RENJU.forbidden(lost, cell) == DOUBLE_THREE
    assert RENJU.non_losing_actions(lost) == []
    score = Engine(RENJU).search(lost, Limits(depth=2)).score
    assert score is not None and score <= -WIN_THRESHOLD
    free = Gomoku(15)
    same = free.state_from_stones(black, white_four, 0)
    assert free.non_losing_actions(same) == [cell]


def test_black_threat_search_plays_no_forbidden_move() -> None:
    """Black's VCF here starts with two fours (exact five finds it): under renju there is
    none; every black VCF found on random positions is legal move by move; black's VCT is
    not tried."""
    stones = "c8 c7 g7 b6 d6 b5 c5 d5 h5 g4 f3 g2", "b8 f8 g8 h8 e7 e6 g6 h6 h4 c3 f2 h2"
    exact = Gomoku(9, rule="exact5")
    renju = Gomoku(9, rule="renju")
    line = vcf(exact, named(exact, *stones), budget=100_000)
    assert line is not None
    assert renju.forbidden(named(renju, *stones), line[0]) == DOUBLE_FOUR
    assert vcf(renju, named(renju, *stones), budget=100_000) is None
    rng = random.Random(8)
    middle = [renju.action(x, y) for y in range(1, 8) for x in range(1, 8)]
    found = 0
    for _ in range(300):
        chosen = rng.sample(middle, 20)
        try:
            state = renju.state_from_stones(chosen[:10], chosen[10:], 0)
        except ValueError:
            continue
        if renju.is_terminal(state):
            continue
        assert vct(renju, state, budget=2_000) is None
        line = vcf(renju, state, budget=20_000)
        if line is None:
            continue
        found += 1
        for move in line:
            assert move in renju.actions(state)
            state = renju.result(state, move)
        assert renju.is_terminal(state) and renju.utility(state, 0) == 1
    assert found >= 10


def decided_within(game: Gomoku, state: GomokuState, plies: int) -> int:
    """1 when the side to move wins within ``plies`` over the legal moves, -1 when it
    loses within them, else 0: a plain search with nothing but the rules."""
    if game.is_terminal(state):
        return game.utility(state, game.to_move(state))
    if plies == 0:
        return 0
    best = -1
    moves = game.ordered_actions(state)
    if not moves:  # no legal move: nothing decided by the rules' own end
        return 0
    for move in moves:
        best = max(best, -decided_within(game, game.result(state, move), plies - 1))
        if best == 1:
            break
    return best


def test_engine_proves_only_real_results() -> None:
    """The engine (the pure one: the compiled kernel does not play renju) never chooses a
    forbidden move, and every win or loss it claims within 3 plies on 9x9 positions a
    plain search over the legal moves finds too."""
    game = Gomoku(9, rule="renju")
    assert game.compiled_engine() is None
    from zerosum.games.gomoku_kernel import GomokuKernel

    with pytest.raises(InvalidGameError, match="renju"):
        GomokuKernel(game)
    rng = random.Random(12)
    middle = [game.action(x, y) for y in range(1, 8) for x in range(1, 8)]
    proven = checked = 0
    while checked < 40:
        black_count = rng.randint(7, 11)
        chosen = rng.sample(middle, 2 * black_count)
        try:
            state = game.state_from_stones(chosen[:black_count], chosen[black_count:], 0)
        except ValueError:
            continue
        if game.is_terminal(state) or not game.forbidden_cells(state):
            continue
        checked += 1
        result = Engine(game).search(state, Limits(depth=3))
        assert result.best_move is None or game.forbidden(state, result.best_move) is None
        score = result.score
        if score is None or abs(score) < WIN_THRESHOLD or WIN - abs(score) > 3:
            continue
        truth = decided_within(game, state, WIN - abs(score))
        assert truth == (1 if score > 0 else -1), (game.format_state(state), score)
        proven += 1
    assert proven >= 3


def brain_answer(rule: int, *board: str) -> str:
    """The move a fresh Gomocup brain answers to ``BOARD`` under ``INFO rule``."""
    out = io.StringIO()
    brain = GomocupBrain(out)
    for line in (
        "START 15",
        "INFO timeout_turn 1000",
        f"INFO rule {rule}",
        "BOARD",
        *board,
        "DONE",
    ):
        brain.handle(line)
    return [
        line
        for line in out.getvalue().splitlines()
        if "," in line and not line.startswith("MESSAGE")
    ][-1]


def test_gomocup_brain_keeps_renju_rules() -> None:
    """With four stones each, the brain is black: g8 i8 h7 h9 make h8 a double three,
    which wins under freestyle (the brain plays it) and is forbidden under renju."""
    board = ["6,7,1", "8,7,1", "7,8,1", "7,6,1", "2,12,2", "2,2,2", "12,12,2", "12,2,2"]
    assert brain_answer(0, *board) == "7,7"
    assert brain_answer(4, *board) != "7,7"
