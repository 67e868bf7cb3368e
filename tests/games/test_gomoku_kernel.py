"""Gomoku's compiled kernel against the pure game: its rules (legal moves, fives, fours
and open fours on random positions, the end of the game), its VCF lines replayed
against every defence, the wins its pattern counts claim checked by brute force, its
search against the textbook alpha-beta where the two search the same tree, the tactics
it must find, its limits, and the pure path when kernels are off.

The kernel tests skip when numba is absent (``pip install zerosum[fast]``)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from zerosum import kernels
from zerosum.agents import SearchAgent
from zerosum.game import WIN, WIN_THRESHOLD
from zerosum.games.gomoku import Gomoku, GomokuState
from zerosum.search.engine import Engine, Limits
from zerosum.search.reference import negamax_alphabeta

needs_numba = pytest.mark.skipif(not kernels.available(), reason="numba is not installed")

RULES = ("freestyle", "exact5")


@pytest.fixture(autouse=True)
def _default_switch() -> Iterator[None]:
    """Every test starts and ends with the switch deferring to the environment."""
    kernels.use_kernels(None)
    yield
    kernels.use_kernels(None)


def random_position(game: Gomoku, rng: random.Random, low: int, high: int) -> GomokuState:
    """A position ``low`` to ``high`` random moves in, most of them near the centre (so
    that threats are common), where the game goes on."""
    while True:
        state = game.initial_state()
        middle_x, middle_y = game.width // 2, game.height // 2
        for _ in range(rng.randint(low, high)):
            if game.is_terminal(state):
                break
            moves = game.actions(state)
            central = [
                a
                for a in moves
                if abs(a % game.width - middle_x) < 5 and abs(a // game.width - middle_y) < 5
            ]
            state = game.result(state, rng.choice(central or moves))
        if not game.is_terminal(state):
            return state


def kernel(game: Gomoku, **search: int) -> Any:
    """A kernel for ``game`` with a small table, its search numbers changed by keyword."""
    from zerosum.games.gomoku_kernel import GomokuKernel, Weights

    weights = Weights()
    weights.search.update(search)
    return GomokuKernel(game, table_bits=14, weights=weights)


# ---------------------------------------------------------------- the rules


@needs_numba
@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize(("width", "height"), [(15, 15), (9, 7), (20, 20)])
def test_cells_agree_with_the_pure_game(rule: str, width: int, height: int) -> None:
    """Empty cells, fives, fours and open fours of both colours, as the pure game finds
    them, on random positions (fours and open fours where nobody has a five to make:
    the kernel counts a five already there as part of any four, as a search needs)."""
    from zerosum.games import gomoku_kernel as k

    game = Gomoku(width, height, rule)
    board = kernel(game)
    rng = random.Random(width * height)
    for _ in range(150):
        state = random_position(game, rng, 0, min(60, game.cells - 1))
        board.setup(state)
        where = game.format_state(state)
        assert board.empty_cells() == game._full & ~(state.black | state.white), where
        fives = [game.five_cells(state, p) for p in (0, 1)]
        for p in (0, 1):
            assert board.cells_with(p, k.FIVE, k.FIVE) == fives[p], where
            if fives[0] or fives[1]:
                continue
            assert board.cells_with(p, k.FOUR, k.OPEN_FOUR) == game.four_cells(state, p), where
            open_fours = sum(
                1 << a
                for a in game.actions(state)
                if any(board.line_pattern(a, p, d) == k.F4 for d in range(4))
            )
            assert open_fours == game.open_four_cells(state, p), where


@needs_numba
@pytest.mark.parametrize("rule", RULES)
def test_incremental_board_matches_a_fresh_one(rule: str) -> None:
    """A move played and taken back leaves the key, the evaluation and every count as
    they were; played, it leaves them as a board set up afresh at the new position."""
    from zerosum.games import gomoku_kernel as k

    game = Gomoku(15, rule=rule)
    board, fresh = kernel(game), kernel(game)
    rng = random.Random(7)
    for _ in range(100):
        state = random_position(game, rng, 0, 50)
        board.setup(state)
        before = (board.key, board.evaluation())
        move = rng.choice(game.actions(state))
        board.play(move)
        board.undo()
        assert (board.key, board.evaluation()) == before
        child = game.result(state, move)
        board.play(move)
        fresh.setup(child)
        assert (board.key, board.evaluation()) == (fresh.key, fresh.evaluation())
        for p in (0, 1):
            for pattern in range(len(k.CELL_PATTERNS)):
                assert board.count(p, pattern) == fresh.count(p, pattern)


@needs_numba
@pytest.mark.parametrize("rule", RULES)
def test_pattern_counts_are_what_the_evaluation_weighs(rule: str) -> None:
    """Random weights (each list its own): each colour's evaluation totals, kept
    incrementally, are the dot products of its pattern counts with the weights in
    sixteenths, as a tuner fitting the weights assumes."""
    from zerosum.games import gomoku_kernel as k

    game = Gomoku(15, rule=rule)
    rng = random.Random(31)
    weights = k.Weights()
    for name in ("mover_line", "mover_cell", "other_line", "other_cell"):
        setattr(weights, name, [rng.randint(-160, 160) / 16 for _ in getattr(weights, name)])
    board = k.GomokuKernel(game, table_bits=10, weights=weights)
    for _ in range(60):
        state = random_position(game, rng, 0, 60)
        board.setup(state)
        black_mover, white_mover, black_other, white_other = board.evaluation()
        totals = ((0, black_mover, black_other), (1, white_mover, white_other))
        mask = board.empty_cells()
        empty = [a for a in range(game.cells) if mask >> a & 1]
        for colour, as_mover, as_other in totals:
            lines, cells = board.pattern_counts(colour)
            by_line = [0] * len(k.LINE_PATTERNS)
            by_cell = [0] * len(k.CELL_PATTERNS)
            for a in empty:
                by_cell[board.cell_pattern(a, colour)] += 1
                for d in range(4):
                    by_line[board.line_pattern(a, colour, d)] += 1
            assert (lines, cells) == (by_line, by_cell)
            for total, line_weights, cell_weights in (
                (as_mover, weights.mover_line, weights.mover_cell),
                (as_other, weights.other_line, weights.other_cell),
            ):
                expected = sum(round(16 * w) * n for w, n in zip(line_weights, lines, strict=True))
                expected += sum(round(16 * w) * n for w, n in zip(cell_weights, cells, strict=True))
                assert total == expected


@needs_numba
@pytest.mark.parametrize("rule", RULES)
def test_games_end_where_the_pure_game_ends(rule: str) -> None:
    """Random games played in both: the kernel sees five made exactly when the pure
    game is won, by the same move."""
    game = Gomoku(9, rule=rule)
    board = kernel(game)
    rng = random.Random(11)
    ends = 0
    for _ in range(60):
        state = game.initial_state()
        board.setup(state)
        while not game.is_terminal(state):
            move = rng.choice(game.actions(state))
            state = game.result(state, move)
            board.play(move)
            assert board.made_five() == (state.winner is not None), game.format_state(state)
        ends += state.winner is not None
    assert ends > 40  # most random games on 9x9 end with five


@needs_numba
def test_exact_five_overlines_are_not_fives() -> None:
    """Under exact five a cell that would make six is no five cell, and the engine does
    not claim a win through it."""
    game = Gomoku(15, rule="exact5")
    # black: h8 i8 j8 k8 and m8; l8 would make six, g8 five
    state = game.parse_state("black: h8 i8 j8 k8 m8; white: a1 a3 a5 a7 a9; to move: black")
    board = kernel(game)
    board.setup(state)
    from zerosum.games import gomoku_kernel as k

    assert board.cells_with(0, k.FIVE, k.FIVE) == 1 << game.parse_move(state, "g8")
    assert game.five_cells(state, 0) == 1 << game.parse_move(state, "g8")
    blocked = game.parse_state("black: h8 i8 j8 k8 m8; white: g8 a3 a5 a7 a9; to move: black")
    board.setup(blocked)
    assert board.cells_with(0, k.FIVE, k.FIVE) == 0
    engine = game.compiled_engine()
    assert engine is not None
    result = engine.search(blocked, Limits(nodes=3000))
    assert result.best_move != game.parse_move(blocked, "l8")
    assert result.score is None or result.score < WIN_THRESHOLD


# ---------------------------------------------------------------- threats


def assert_forced_win(game: Gomoku, state: GomokuState, line: list[int]) -> None:
    """``line`` wins against every defence: each of the attacker's moves is legal, the
    last makes five, and after each other one the defender cannot make five and every
    reply but the line's (which blocks a five) lets the attacker make five."""
    attacker = state.mover
    position = state
    for index in range(0, len(line), 2):
        move = line[index]
        assert move in game.actions(position)
        position = game.result(position, move)
        if index == len(line) - 1:
            assert position.winner == attacker
            return
        assert not game.five_cells(position, 1 - attacker)
        threats = game.five_cells(position, attacker)
        assert threats
        for reply in game.actions(position):
            after = game.result(position, reply)
            if reply != line[index + 1]:
                wins = game.five_cells(after, attacker)
                assert wins, game.format_state(after)
                finish = game.result(after, (wins & -wins).bit_length() - 1)
                assert finish.winner == attacker
        assert threats >> line[index + 1] & 1  # the line's reply blocks a five
        position = game.result(position, line[index + 1])
    pytest.fail("the line does not end with five")


@needs_numba
@pytest.mark.parametrize("rule", RULES)
def test_vcf_lines_hold_against_every_defence(rule: str) -> None:
    """Every victory by continuous fours the prover returns on random positions is a
    forced win in the pure game; the lines are no longer than the pure prover's
    shortest, and it finds one wherever the pure prover does."""
    from zerosum.games.gomoku_threats import vcf

    game = Gomoku(15, rule=rule)
    board = kernel(game)
    rng = random.Random(13)
    found = 0
    for _ in range(400):
        state = random_position(game, rng, 12, 40)
        board.setup(state)
        line, _ = board.vcf(100_000)
        pure = vcf(Gomoku(15, rule=rule), state, budget=100_000, shortest=True)
        assert (line is None) == (pure is None), game.format_state(state)
        if line is None or pure is None:
            continue
        found += 1
        assert len(line) <= len(pure)
        assert_forced_win(game, state, line)
    assert found >= 20


def assert_vct_holds(
    game: Gomoku, board: Any, state: GomokuState, plies: int = 40, first: int | None = None
) -> None:
    """The kernel's VCT prover claims a win for the side to move at ``state``, and it is
    one against every defence: its first move (or ``first``) is legal, and after it
    every reply of the defender either lets the attacker make five, or leaves it an open
    four (two fives next) while the defender has no five, or leads to a position where
    the prover again claims a win, checked the same way (at most ``plies`` moves deep)."""
    assert plies > 0, "the line does not end"
    attacker = state.mover
    board.setup(state)
    line, _ = board.vct(100_000)
    assert line is not None, game.format_state(state)
    move = line[0] if first is None else first
    assert move in game.actions(state)
    after = game.result(state, move)
    if after.winner == attacker:
        return
    assert after.winner is None
    for reply in game.actions(after):
        position = game.result(after, reply)
        assert position.winner is None, game.format_state(position)
        if game.five_cells(position, attacker):
            continue
        opens = game.open_four_cells(position, attacker)
        if opens and not game.five_cells(position, 1 - attacker):
            finish = game.result(position, (opens & -opens).bit_length() - 1)
            wins = game.five_cells(finish, attacker)
            assert wins & (wins - 1), game.format_state(finish)
            assert not game.five_cells(finish, 1 - attacker)
            continue
        assert_vct_holds(game, board, position, plies - 2)


@needs_numba
@pytest.mark.parametrize("rule", RULES)
def test_vct_wins_hold_against_every_defence(rule: str) -> None:
    """Every victory by threes and fours the kernel's prover claims on random positions
    is a forced win in the pure game, replayed against every reply of the defender; it
    finds one in most positions where the pure prover does, and its lines end in five."""
    from zerosum.games.gomoku_threats import vct

    game = Gomoku(15, rule=rule)
    board = kernel(game)
    rng = random.Random(31)
    checked = agreed = pure_found = 0
    for _ in range(150):
        state = random_position(game, rng, 12, 40)
        board.setup(state)
        line, spent = board.vct(20_000)
        assert spent <= 20_001
        pure = vct(Gomoku(15, rule=rule), state, budget=20_000)
        pure_found += pure is not None
        if line is None:
            continue
        agreed += pure is not None
        position = state
        for move in line:
            assert move in game.actions(position)
            position = game.result(position, move)
        assert position.winner == state.mover
        if len(line) >= 5 and checked < 12:
            checked += 1
            assert_vct_holds(game, board, state)
    assert checked >= 8
    assert agreed >= pure_found * 9 // 10


@needs_numba
def test_vct_in_the_search_and_at_the_root() -> None:
    """With the VCT prover at the root, a position with a victory by threes and fours
    (and none by fours alone) is answered by a move after which the attacker still
    wins, scored as a win; with it inside the search a node limit still holds."""
    from zerosum.games.gomoku_kernel import KernelEngine, Weights

    game = Gomoku(15)
    weights = Weights()
    weights.search.update(root_vct=25, search_vct=300)
    engine = KernelEngine(game, weights=weights)
    board = kernel(game)
    rng = random.Random(37)
    found = 0
    while found < 4:
        state = random_position(game, rng, 14, 36)
        board.setup(state)
        if board.vcf(20_000)[0] is not None:
            continue
        board.setup(state)
        line, _ = board.vct(4_000)
        if line is None or len(line) < 5:
            continue
        found += 1
        result = engine.search(state, Limits(nodes=20_000))
        assert result.stats.nodes <= 20_000
        assert result.score is not None
        assert result.score >= WIN_THRESHOLD
        assert result.best_move == result.pv[0]
        assert_vct_holds(game, board, state, first=result.best_move)
    quiet = game.parse_state("h7 j10 i7 j7 i8 j9 j8 h8 k9 l10 g5 h6")
    for nodes in (3_000, 7_000):
        assert engine.search(quiet, Limits(nodes=nodes)).stats.nodes <= nodes


QUIET_MOVE_COUNTS = {
    "move_count_all": 0,
    "move_count_power": 200,
    "move_count_depth": 6,
    "history_weight": 1,
}
"""The kernel's move-count pruning before Rapfi's rule: only quiet moves (no three made
or stopped) past 3 + d ** 2 moves, to depth 6, the history a tie-break in the order."""


@needs_numba
def test_root_moves_left_out_and_the_chosen_move_tested() -> None:
    """Root moves the kernel is told to leave out are not played while others remain;
    with ``root_check`` the engine keeps to its node limit, and where the opponent has
    a VCT after the plain search's move (and other moves exist), it plays another move
    or scores its position as lost."""
    from zerosum.games.gomoku_kernel import KernelEngine, Weights

    game = Gomoku(15)
    state = game.parse_state("h7 j10 i7 j7 i8 j9 j8 h8 k9 l10 g5 h6")
    engine = KernelEngine(game)
    first = engine.search(state, Limits(nodes=4_000)).best_move
    assert first is not None
    engine.kernel.exclude([first])
    result = engine._search_once(state, Limits(nodes=4_000))
    assert result.best_move not in (None, first)
    engine.kernel.exclude([])
    weights = Weights()
    weights.search.update(root_check=25, **QUIET_MOVE_COUNTS)
    checked = KernelEngine(game, weights=weights)
    quiet = Weights()
    quiet.search.update(QUIET_MOVE_COUNTS)
    plain = KernelEngine(game, weights=quiet)
    board = kernel(game)
    # middle games of matches against Rapfi where the plain search's move (under the
    # quiet move counts it had then) lets the opponent win by threes and fours
    for moves in (
        "e11 h8 k10 f5 j11 h7 h9 g8 i8 g7 l9 i12 g10 j7",
        "j5 j7 e8 k6 l5 i6 l6 i5 k7 j8 i8 h6 l4 l3",
        "i9 f9 e5 i7 j8 f10 h8 f8 g7 f6 f7 h10 e7 d7 e8 e6 g6 h5 g8",
    ):
        position = game.parse_state(moves)
        checked.reset()
        plain.reset()
        result = checked.search(position, Limits(nodes=12_000))
        assert result.stats.nodes <= 12_000
        move = plain.search(position, Limits(nodes=9_000)).best_move
        assert move is not None
        board.setup(position)
        board.play(move)
        assert board.vct(3_000)[0] is not None
        assert result.best_move is not None
        # a 2,000,000-node search scores all three lost for the side to move: a loss
        # the checked search sees is as good an answer as another move
        assert result.best_move != move or result.score <= -WIN_THRESHOLD, moves


def wins_in_three(game: Gomoku, state: GomokuState) -> bool:
    """Whether the side to move wins within three plies, by brute force: a five now, or
    a move after which the opponent has no five to make and two cells make five."""
    me = state.mover
    if game.five_cells(state, me):
        return True
    for move in game.actions(state):
        after = game.result(state, move)
        if after.winner == me:
            return True
        if game.five_cells(after, 1 - me):
            continue
        wins = game.five_cells(after, me)
        if wins & (wins - 1):
            return True
    return False


def wins_in_five_by(game: Gomoku, state: GomokuState, move: int) -> bool:
    """Whether ``move`` wins within five plies against every reply, by brute force."""
    me = state.mover
    after = game.result(state, move)
    if after.winner == me:
        return True
    for reply in game.actions(after):
        position = game.result(after, reply)
        if position.winner is not None:
            return False
        if not wins_in_three(game, position):
            return False
    return True


@needs_numba
def test_static_wins_are_real() -> None:
    """The wins the pattern counts claim (an open four to make: three plies; a
    four-three or a double three the opponent cannot answer with a four: five plies)
    hold by brute force in the pure game."""
    from zerosum.games import gomoku_kernel as k

    game = Gomoku(11)
    board = kernel(game)
    rng = random.Random(17)
    claims = {3: 0, 5: 0}
    for _ in range(3000):
        if claims[5] >= 6 and claims[3] >= 10:
            break
        state = random_position(game, rng, 8, 30)
        board.setup(state)
        plies = board.static_win()
        if plies == 3 and claims[3] < 10:
            claims[3] += 1
            assert wins_in_three(game, state), game.format_state(state)
        elif plies == 5 and claims[5] < 6:
            claims[5] += 1
            me = state.mover
            threes = board.cells_with(me, k.THREE_THREE, k.THREE_THREE)
            threes |= board.cells_with(me, k.FOUR_THREE, k.FOUR_THREE)
            assert any(
                wins_in_five_by(game, state, m) for m in game.actions(state) if threes >> m & 1
            ), game.format_state(state)
    assert claims[3] >= 10
    assert claims[5] >= 6


# ---------------------------------------------------------------- the search


class NearStones:
    """Gomoku as the kernel's plain search sees it, for the textbook alpha-beta: the
    cells within two of a stone (the centre on an empty board), a win in ``n`` plies
    worth ``MATE - n``, the kernel's evaluation at the leaves."""

    def __init__(self, game: Gomoku, board: Any) -> None:
        self.game = game
        self.board = board
        self.info = game.info

    def initial_state(self) -> tuple[int, GomokuState]:
        return (0, self.game.initial_state())

    def to_move(self, state: tuple[int, GomokuState]) -> int:
        return self.game.to_move(state[1])

    def actions(self, state: tuple[int, GomokuState]) -> list[int]:
        game, position = self.game, state[1]
        taken = position.black | position.white
        if not taken:
            return [(game.height // 2) * game.width + game.width // 2]
        near = []
        for cell in game.actions(position):
            y, x = divmod(cell, game.width)
            if any(
                taken >> (cy * game.width + cx) & 1
                for cy in range(max(0, y - 2), min(game.height, y + 3))
                for cx in range(max(0, x - 2), min(game.width, x + 3))
            ):
                near.append(cell)
        return near

    def result(self, state: tuple[int, GomokuState], action: int) -> tuple[int, GomokuState]:
        return (state[0] + 1, self.game.result(state[1], action))

    def is_terminal(self, state: tuple[int, GomokuState]) -> bool:
        return self.game.is_terminal(state[1])

    def utility(self, state: tuple[int, GomokuState], player: int) -> int:
        from zerosum.games.gomoku_kernel import MATE

        return self.game.utility(state[1], player) * (MATE - state[0])

    def evaluate(self, state: tuple[int, GomokuState]) -> int:
        self.board.setup(state[1])
        value: int = self.board.static_value()
        return value


PLAIN = {
    "razor_depth": 0,
    "futility_depth": 0,
    "lmr": 0,
    "move_count_depth": 0,
    "forced_extension": 0,
    "quiescence": 0,
    "static_wins": 0,
    "threat_moves": 0,
    "average_eval": 0,
}
"""The search numbers that leave the kernel a plain alpha-beta: no pruning, reduction,
extension, quiescence, static win or threat-chosen move list, and an evaluation of the
position alone (the mean with the previous ply's depends on the path to it)."""


@needs_numba
@pytest.mark.parametrize("rule", RULES)
def test_plain_search_agrees_with_textbook_alpha_beta(rule: str) -> None:
    """With its selective parts off, the kernel's search (principal-variation search,
    table, explicit stack) gives the textbook negamax alpha-beta's value at depths 1 to
    3 on 7x7 positions, wins in few plies among them."""
    game = Gomoku(7, rule=rule)
    searched = kernel(game, **PLAIN)
    plain = NearStones(game, kernel(game, **PLAIN))
    rng = random.Random(19)
    wins = 0
    tactical = [
        game.parse_state("c4 a1 d4 a7 e4 g1"),  # black makes an open four: a win in 3
        game.parse_state("c4 a1 d4 a7 e4 g1 f4"),  # white cannot block b4 and g4... nor a4
    ]
    positions = tactical + [random_position(game, rng, 4, 14) for _ in range(6)]
    for state in positions:
        for depth in (1, 2, 3):
            expected = negamax_alphabeta(plain, (0, state), depth=depth).score
            searched.setup(state)
            searched.clear()
            searched.start(depth)
            assert searched.resume()
            assert searched.value == expected, (game.format_state(state), depth)
            wins += abs(expected) > 20_000
    assert wins >= 3


TABLE_REDUCTIONS = {"lmr_history": 0, "lmr_attack": 0, "lmr_useless_defence": 0}
"""Late-move reductions from the table alone, without Rapfi's adjustments by the move's
history, by an attack in progress and by a defence far from the threat."""

SELECTIVE_RULES = {
    "every move past 3 + d ** 1.32, the history weighed, the table's bounds, Rapfi's "
    "reductions (the default)": (
        {},
        QUIET_MOVE_COUNTS,
    ),
    "quiet moves past 3 + d ** 2 to depth 6, the history a tie-break": (QUIET_MOVE_COUNTS, {}),
    "razoring and futility on the static value alone": ({"tt_eval": 0}, {}),
    "late moves reduced by the table alone": (TABLE_REDUCTIONS, {}),
}
"""Settings of the kernel's selective search, each with the one its tree is compared
with: the default (Rapfi's move-count rule, the history in the order, the table's bounds
on a position's value trusted over its static value in razoring and futility, Rapfi's
adjustments of the late moves' reductions), the move-count rule before it, the static
value alone, and the reductions without Rapfi's adjustments."""


@needs_numba
@pytest.mark.parametrize("rule", SELECTIVE_RULES)
def test_selective_search_proves_only_real_wins(rule: str) -> None:
    """Under each setting of the selective search the search leaves the board as it found
    it, acts (its trees differ from the other setting's), and every win or loss it claims
    in ``n`` plies is one: the plain search (the textbook alpha-beta's values, test above)
    to depth ``n`` finds it too."""
    from zerosum.games.gomoku_kernel import MATE

    game = Gomoku(7)
    settings, compared = SELECTIVE_RULES[rule]
    board = kernel(game, **settings)
    other = kernel(game, **compared)
    rng = random.Random(31)
    positions = [
        game.parse_state("c4 a1 d4 a7 e4 g1"),
        game.parse_state("c4 a1 d4 a7 e4 g1 f4"),
    ] + [random_position(game, rng, 4, 16) for _ in range(16)]
    proven = differ = 0
    for state in positions:
        for depth in (3, 4, 5, 6):
            for searcher in (board, other):
                searcher.setup(state)
                searcher.clear()
                key = searcher.key
                searcher.start(depth)
                assert searcher.resume()
                assert searcher.key == key
            differ += board.nodes != other.nodes
            value = board.value
            if MATE - abs(value) > 7:  # not a proven result, or a long one
                continue
            plies = MATE - abs(value)
            truth = searched(game, state, plies, **PLAIN)[0]
            if value > 0:
                assert truth >= MATE - plies, (game.format_state(state), depth, value)
            else:
                assert truth <= plies - MATE, (game.format_state(state), depth, value)
            proven += 1
    assert differ >= 10
    assert proven >= 5


@needs_numba
def test_engine_takes_a_five_blocks_a_five_and_stops_a_three() -> None:
    """A five to make is played at once; a single five of the opponent is blocked; two
    are a loss; facing an open three the move stops it or makes a four."""
    game = Gomoku(15)
    engine = game.compiled_engine()
    assert engine is not None
    five = game.parse_state("h8 a1 i8 a3 j8 a5 k8 a7")  # black has g8 and l8
    result = engine.search(five, Limits(nodes=5000))
    assert game.result(five, result.best_move).winner == 0
    assert result.score == WIN - 1
    block = game.parse_state("h8 g8 i8 a1 j8 a3 k8")  # white must take l8
    assert engine.search(block, Limits(nodes=5000)).best_move == game.parse_move(block, "l8")
    lost = game.parse_state("h8 a1 i8 a3 j8 a5 k8")  # white cannot block g8 and l8
    score = engine.search(lost, Limits(nodes=5000)).score
    assert score is not None and score <= -WIN_THRESHOLD
    rng = random.Random(23)
    checked = 0
    while checked < 15:
        state = random_position(game, rng, 10, 30)
        me, them = state.mover, 1 - state.mover
        if game.five_cells(state, me) or game.five_cells(state, them):
            continue
        stops = game.three_defences(state, them)
        if not stops:
            continue
        checked += 1
        move = engine.search(state, Limits(nodes=3000)).best_move
        assert (stops | game.four_cells(state, me)) >> move & 1, game.format_state(state)


@needs_numba
def test_engine_finds_the_shortest_vcf_at_the_root() -> None:
    """A position with a victory by continuous fours is answered by its line, scored as
    a win in that many plies, the line forced."""
    game = Gomoku(15)
    rng = random.Random(29)
    from zerosum.games.gomoku_threats import vcf

    found = 0
    while found < 5:
        state = random_position(game, rng, 16, 36)
        if game.five_cells(state, state.mover) or game.five_cells(state, 1 - state.mover):
            continue
        line = vcf(Gomoku(15), state, budget=20_000, shortest=True)
        if line is None or len(line) < 5:
            continue
        found += 1
        engine = game.compiled_engine()
        assert engine is not None
        result = engine.search(state, Limits(nodes=50_000))
        assert result.score == WIN - len(line)
        assert len(result.pv) == len(line)
        assert_forced_win(game, state, list(result.pv))


# ---------------------------------------------------------------- limits and switches


def searched(game: Gomoku, state: GomokuState, depth: int, **search: int) -> tuple[int, Any, int]:
    """A fresh kernel's search of ``state`` to ``depth``: (value, best move, nodes)."""
    board = kernel(game, **search)
    board.setup(state)
    board.new_search()
    board.start(depth)
    assert board.resume()
    return board.value, board.best_move, board.nodes


@needs_numba
def test_rapfis_count_counts_the_same_tree_with_hand_overs_twice() -> None:
    """Under ``rapfi_count`` the search is the same (value and move), only the count
    grows: by the positions the main search hands to the quiescence, so not at all when
    nothing is handed over (no quiescence, no razoring), and by less than double when it
    is; a node limit is then passed by one at most."""
    game = Gomoku(15)
    rng = random.Random(41)
    grew = 0
    for _ in range(6):
        state = random_position(game, rng, 10, 24)
        value, move, nodes = searched(game, state, 4)
        counted = searched(game, state, 4, rapfi_count=1)
        assert counted[:2] == (value, move)
        assert nodes <= counted[2] < 2 * nodes
        grew += counted[2] > nodes
        plain = {"quiescence": 0, "razor_depth": 0}
        assert searched(game, state, 4, **plain) == searched(game, state, 4, rapfi_count=1, **plain)
    assert grew >= 4
    from zerosum.games.gomoku_kernel import KernelEngine, Weights

    weights = Weights()
    weights.search["rapfi_count"] = 1
    engine = KernelEngine(game, weights=weights)
    state = game.parse_state("h7 j10 i7 j7 i8 j9 j8 h8 k9 l10 g5 h6")
    for limit in (1, 999, 7000):
        assert engine.search(state, Limits(nodes=limit)).stats.nodes <= limit + 1


@needs_numba
def test_limits_are_honoured() -> None:
    """A node limit is never exceeded, a time limit ends the search soon after it
    passes, and so does the stop signal."""
    game = Gomoku(15)
    # a quiet middle game: no threat search settles it
    state = game.parse_state("h7 j10 i7 j7 i8 j9 j8 h8 k9 l10 g5 h6")
    engine = game.compiled_engine()
    assert engine is not None
    engine.search(state, Limits(nodes=2000))  # loaded before anything is timed
    result = engine.search(state, Limits(nodes=7000))
    assert result.stats.nodes <= 7000
    assert result.best_move in game.actions(state)
    # the margins allow for a loaded machine: unlimited, this search runs for minutes
    start = time.perf_counter()
    result = engine.search(state, Limits(time=0.3))
    assert time.perf_counter() - start < 1.5
    assert result.best_move in game.actions(state)
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    start = time.perf_counter()
    result = engine.search(state, Limits(stop=stop))
    assert time.perf_counter() - start < 1.5
    assert result.stats.stopped
    assert result.best_move in game.actions(state)


@needs_numba
def test_reports_come_one_per_depth_and_multipv_stays_pure() -> None:
    """Deepening reports every depth from 1 with a legal best move heading its line;
    a search that scores every root move is the pure engine's."""
    game = Gomoku(15)
    state = game.parse_state("h8 i9 h9 h10 g8 i8")
    engine = game.compiled_engine()
    assert engine is not None
    reports = list(engine.iterate(state, Limits(depth=5)))
    assert [r.depth for r in reports] == [1, 2, 3, 4, 5]
    for report in reports:
        assert report.pv[0] == report.best_move
        assert report.best_move in game.actions(state)
    scored = engine.search(state, Limits(depth=1), multipv=True)
    assert scored.root_scores is not None
    assert set(scored.root_scores) == set(Engine(game).root_moves(state, every=True))


def test_pure_path_when_kernels_are_off() -> None:
    """With kernels off there is no compiled engine, and an agent searches with the
    pure one."""
    kernels.use_kernels(False)
    game = Gomoku(15)
    assert game.compiled_engine() is None
    agent = SearchAgent(Limits(depth=1))
    assert type(agent.engine(game)) is Engine
    state = game.parse_state("h8")
    assert agent.choose(game, state) in game.actions(state)


@needs_numba
def test_agents_pick_the_compiled_engine() -> None:
    """With kernels on, an agent plays gomoku with the kernel's engine."""
    from zerosum.games.gomoku_kernel import KernelEngine

    kernels.use_kernels(True)
    game = Gomoku(15)
    agent = SearchAgent(Limits(nodes=2000))
    assert isinstance(agent.engine(game), KernelEngine)
    state = game.parse_state("h8 i9")
    assert agent.choose(game, state) in game.actions(state)
