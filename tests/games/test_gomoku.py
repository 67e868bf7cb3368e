"""Gomoku: the rules and the incremental line analysis against a naive board, the
notation, the exact-five rule, and the engine's tactics checked by naive search.

Everything the game claims is checked here by code that shares nothing with it: a board
as a list of cells, five found by walking runs cell by cell."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import renju_reference
from zerosum.game import (
    WIN,
    WIN_THRESHOLD,
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    ZerosumError,
)
from zerosum.games import registry
from zerosum.games.gomoku import BREADTH, Gomoku, GomokuState
from zerosum.games.gomoku_threats import vcf, vct
from zerosum.notation import play
from zerosum.search.engine import Engine, Limits

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


# --------------------------------------------------------------------------- naive board


class Naive:
    """A board as a list (``None``, 0 or 1 per cell) with runs counted cell by cell;
    ``exact`` says per player whether only exactly five win (renju: black alone), and
    ``renju`` that black's forbidden moves (by the independent reference) are not played."""

    def __init__(self, width: int, height: int, exact: tuple[bool, bool], renju: bool) -> None:
        self.width, self.height, self.exact, self.renju = width, height, exact, renju
        self.cells: list[int | None] = [None] * (width * height)

    @classmethod
    def of(cls, game: Gomoku, state: GomokuState) -> Naive:
        exact = (game.rule != "freestyle", game.rule == "exact5")
        board = cls(game.width, game.height, exact, game.rule == "renju")
        for cell in range(game.cells):
            if state.black >> cell & 1:
                board.cells[cell] = 0
            elif state.white >> cell & 1:
                board.cells[cell] = 1
        return board

    def run(self, cell: int, player: int, direction: tuple[int, int]) -> int:
        """The length of ``player``'s run through ``cell`` (counted as if ``player``'s)."""
        dx, dy = direction
        y, x = divmod(cell, self.width)
        length = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while (
                0 <= cx < self.width
                and 0 <= cy < self.height
                and self.cells[cy * self.width + cx] == player
            ):
                length += 1
                cx, cy = cx + sign * dx, cy + sign * dy
        return length

    def wins_along(self, cell: int, player: int, direction: tuple[int, int]) -> bool:
        length = self.run(cell, player, direction)
        return length == 5 if self.exact[player] else length >= 5

    def has_five(self, player: int) -> bool:
        return any(
            self.cells[c] == player and any(self.wins_along(c, player, d) for d in DIRECTIONS)
            for c in range(len(self.cells))
        )

    def empty(self) -> list[int]:
        return [c for c, v in enumerate(self.cells) if v is None]

    def allowed(self, cell: int, player: int) -> bool:
        """Whether ``player`` may play on empty ``cell`` (under renju black's forbidden
        moves may not be played)."""
        if not self.renju or player:
            return True
        stones = [
            frozenset((c % self.width, c // self.width) for c, v in enumerate(self.cells) if v == p)
            for p in (0, 1)
        ]
        point = (cell % self.width, cell // self.width)
        return not renju_reference.forbidden(self.width, self.height, *stones, point)

    def five_cells(self, player: int) -> set[int]:
        return {c for c in self.empty() if any(self.wins_along(c, player, d) for d in DIRECTIONS)}

    def line_of(self, cell: int, direction: tuple[int, int]) -> list[int]:
        dx, dy = direction
        y, x = divmod(cell, self.width)
        found = []
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while 0 <= cx < self.width and 0 <= cy < self.height:
                found.append(cy * self.width + cx)
                cx, cy = cx + sign * dx, cy + sign * dy
        return found

    def four_cells(self, player: int) -> set[int]:
        """Cells after which ``player`` has a new cell making five on a line through it."""
        found = set()
        for c in self.empty():
            for d in DIRECTIONS:
                if self.wins_along(c, player, d):
                    continue
                line = [e for e in self.line_of(c, d) if self.cells[e] is None]
                before = {e for e in line if self.wins_along(e, player, d)}
                self.cells[c] = player
                after = {e for e in line if self.wins_along(e, player, d)}
                self.cells[c] = None
                if after - before:
                    found.add(c)
                    break
        return found

    def three_cells(self, player: int) -> set[int]:
        """Cells where ``player`` makes no new five-cell on some line through it but
        leaves a cell on that line that makes two there."""
        found = set()
        for c in self.empty():
            for d in DIRECTIONS:
                line = [e for e in self.line_of(c, d) if self.cells[e] is None]
                before = {e for e in line if self.wins_along(e, player, d)}
                self.cells[c] = player
                made = {e for e in line if self.wins_along(e, player, d)} - before
                opened = False
                if not made and not self.wins_along(c, player, d):
                    for e in line:
                        self.cells[e] = player
                        rest = [f for f in line if f != e]
                        opened = sum(self.wins_along(f, player, d) for f in rest) >= 2
                        self.cells[e] = None
                        if opened:
                            break
                self.cells[c] = None
                if opened:
                    found.add(c)
                    break
        return found

    def open_four_cells(self, player: int) -> set[int]:
        """Cells after which ``player`` has two cells making five on one line through it."""
        found = set()
        for c in self.empty():
            self.cells[c] = player
            for d in DIRECTIONS:
                line = [e for e in self.line_of(c, d) if self.cells[e] is None]
                if sum(self.wins_along(e, player, d) for e in line) >= 2:
                    found.add(c)
                    break
            self.cells[c] = None
        return found


def random_state(game: Gomoku, rng: random.Random, plies: int) -> GomokuState:
    """A random game of up to ``plies`` moves, played near the stones already there."""
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        moves = game.ordered_actions(state)
        state = game.result(state, rng.choice(moves[: 3 * BREADTH]))
    return state


def scattered(game: Gomoku, rng: random.Random, black: int, white: int) -> GomokuState:
    """Random stones in the middle of the board, black to move, nobody with five."""
    while True:
        margin = 1
        cells = [
            y * game.width + x
            for y in range(margin, game.height - margin)
            for x in range(margin, game.width - margin)
        ]
        chosen = rng.sample(cells, black + white)
        try:
            state = game.state_from_stones(chosen[:black], chosen[black:], 0)
        except InvalidStateError:
            continue
        if not game.is_terminal(state):
            return state


# --------------------------------------------------------------------------- the game


def test_options_are_checked() -> None:
    assert Gomoku().info.board_size == (15, 15)
    assert Gomoku(20).info.board_size == (20, 20)
    assert Gomoku(9, 7).info.board_size == (9, 7)
    for bad in (6, 26, "15"):
        with pytest.raises(InvalidGameError, match=repr(bad)):
            Gomoku(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidGameError, match="caro"):
        Gomoku(rule="caro")
    assert "renju" in Gomoku(rule="renju").info.title.lower()
    game = registry.make("gomoku:width=9,rule=exact5")
    assert (game.width, game.height, game.rule) == (9, 9, "exact5")
    assert game.info.name == "gomoku" and game.info.win_loss


def test_coordinates_follow_gomocup() -> None:
    game = Gomoku(20, 15)
    assert game.action(3, 5) == 5 * 20 + 3
    assert game.coordinates(game.action(19, 14)) == (19, 14)
    with pytest.raises(IllegalMoveError, match=r"\(20, 0\)"):
        game.action(20, 0)
    with pytest.raises(IllegalMoveError):
        game.action(0, -1)
    with pytest.raises(InvalidMoveError):
        game.action(1.5, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("width", "height", "rule"), [(15, 15, "freestyle"), (9, 7, "exact5"), (11, 11, "renju")]
)
def test_incremental_state_matches_a_recomputation(width: int, height: int, rule: str) -> None:
    """Lines, flags, scores, keys and the winner, updated per move, equal the same
    position set up from its stones and a naive reading of the board."""
    game = Gomoku(width, height, rule)
    rng = random.Random(width * 7 + height)
    for _ in range(6):
        state = game.initial_state()
        while not game.is_terminal(state):
            moves = game.actions(state)
            move = rng.choice(moves) if rng.random() < 0.3 else game.ordered_actions(state)[0]
            state = game.result(state, move)
            fresh = (
                game.state_from_stones(
                    [c for c in range(game.cells) if state.black >> c & 1],
                    [c for c in range(game.cells) if state.white >> c & 1],
                    state.mover,
                )
                if state.winner is None
                else None
            )
            if fresh is not None:
                assert fresh == state and hash(fresh) == hash(state)
                assert game.key(fresh) == game.key(state)
                assert tuple(fresh)[3:11] == tuple(state)[3:11]
            board = Naive.of(game, state)
            last = 1 - state.mover
            assert (state.winner == last) == board.has_five(last)
            assert not board.has_five(state.mover)
            for p in (0, 1):
                assert _cells(game.five_cells(state, p)) == board.five_cells(p)
            if state.stones % 5 == 0 and state.winner is None:
                for p in (0, 1):
                    assert _cells(game.four_cells(state, p)) == board.four_cells(p)
                    if not board.five_cells(p):  # open fours matter while p has no four
                        opens = board.open_four_cells(p)
                        assert _cells(game.open_four_cells(state, p)) == opens
        assert game.actions(state) == []


def _cells(mask: int) -> set[int]:
    return {c for c in range(mask.bit_length()) if mask >> c & 1}


def test_keys_include_the_side_to_move() -> None:
    game = Gomoku(9)
    stones = ([40, 41], [30])
    assert game.key(game.state_from_stones(*stones, 0)) != game.key(
        game.state_from_stones(*stones, 1)
    )
    state = game.initial_state()
    for move in (40, 30, 41):
        state = game.result(state, move)
    assert game.key(state) == game.key(game.state_from_stones([41, 40], [30], 1))


def test_state_from_stones_rejects_impossible_positions() -> None:
    game = Gomoku(9)
    with pytest.raises(InvalidStateError, match="twice"):
        game.state_from_stones([1, 2], [2], 0)
    with pytest.raises(InvalidStateError, match="twice"):
        game.state_from_stones([1, 1], [], 1)
    with pytest.raises(InvalidStateError, match="81"):
        game.state_from_stones([81], [], 1)
    row = [0, 1, 2, 3, 4]
    with pytest.raises(InvalidStateError, match="black has five"):
        game.state_from_stones(row, [20, 21], 0)
    with pytest.raises(InvalidStateError, match="both"):
        game.state_from_stones(row, [18, 19, 20, 21, 22], 0)
    won = game.state_from_stones(row, [20, 21], 1)
    assert game.is_terminal(won) and game.utility(won, 0) == 1 and game.utility(won, 1) == -1


def test_exact_five_against_freestyle() -> None:
    """An overline wins under freestyle and not under exact five; a five wins in both."""
    for rule, overline_wins in (("freestyle", True), ("exact5", False)):
        game = Gomoku(9, rule=rule)
        # black a9 b9 c9 d9 . f9: e9 makes six
        state = game.state_from_stones([0, 1, 2, 3, 5], [60, 61, 62, 63, 70], 0)
        assert (game.winning_action(state) == 4) is overline_wins
        after = game.result(state, 4)
        assert game.is_terminal(after) is overline_wins
        assert (game.utility(after, 0) == 1) is overline_wins
        # five exactly: black a1..d1, e1 wins under both rules
        state = game.state_from_stones([72, 73, 74, 75], [60, 61, 62, 63], 0)
        assert game.winning_action(state) == 76
        assert game.is_terminal(game.result(state, 76))
        # and the line analysis knows: under exact five the six is no threat to block
        state = game.state_from_stones([60, 61, 62, 63, 74], [0, 1, 2, 3, 5], 0)
        assert bool(game.five_cells(state, 1)) is overline_wins
        assert (game.non_losing_actions(state) == [4]) is overline_wins


# --------------------------------------------------------------------------- notation


def test_notation() -> None:
    game = Gomoku()
    start = game.initial_state()
    assert game.parse_move(start, "h8") == game.action(7, 7) == 112
    assert game.parse_move(start, "7,7") == 112
    assert game.parse_move(start, " A15 ") == 0
    assert game.parse_move(start, "0,14") == game.parse_move(start, "a1")
    assert game.format_move(start, 0) == "a15"
    state = game.parse_state("h8 i9 h9")
    assert game.format_state(state) == "h8 i9 h9"
    assert state.last == game.parse_move(start, "h9") and game.to_move(state) == 1
    assert game.render(state).splitlines()[7].startswith(" 8 · · · · · · · X")
    view = game.board(state)
    assert view.cells[112] == 0 and view.cells[game.action(8, 6)] == 1
    assert view.last == state.last and len(view.targets) == 222
    with pytest.raises(InvalidMoveError, match=r"'z'.*'h8 i9 h9'"):
        game.parse_move(state, "z")
    with pytest.raises(IllegalMoveError, match="h8 is taken"):
        game.parse_move(state, "h8")
    with pytest.raises(IllegalMoveError, match="'p1'"):
        game.parse_move(state, "p1")
    with pytest.raises(IllegalMoveError, match="'15,3'"):
        game.parse_move(state, "15,3")
    with pytest.raises(InvalidStateError, match="move 3"):
        game.parse_state("h8 i9 h8")
    won = game.parse_state("a1 b1 a2 b2 a3 b3 a4 b4 a5")
    assert game.is_terminal(won)
    with pytest.raises(IllegalMoveError, match="over"):
        play(game, won, "c1")
    with pytest.raises(InvalidStateError, match="move 10"):
        game.parse_state("a1 b1 a2 b2 a3 b3 a4 b4 a5 c1")


def test_set_up_positions_round_trip() -> None:
    game = Gomoku(9)
    state = game.state_from_stones([40, 41, 42], [30], 1)
    text = game.format_state(state)
    assert text == "black: e5 f5 g5; white: d6; to move: white"
    assert game.parse_state(text) == state
    assert game.board(state).last is None
    for bad in (
        "black: e5; white: e6",
        "black: e5; white: zz; to move: white",
        "black: e5; white: e5; to move: white",
        "black: e5; white: ; to move: red",
        "black: j1; white: ; to move: white",
    ):
        with pytest.raises(InvalidStateError):
            game.parse_state(bad)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_bad_move_text_raises_only_our_errors(text: str) -> None:
    game = Gomoku(9)
    state = game.parse_state("e5 e6")
    try:
        move = game.parse_move(state, text)
    except ZerosumError:
        return
    assert move in game.actions(state)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="abcdefghij0123456789 ,;:klmnopqrstuvwxyz", max_size=30))
def test_bad_position_text_raises_only_our_errors(text: str) -> None:
    game = Gomoku(9)
    try:
        state = game.parse_state(text)
    except ZerosumError:
        return
    assert game.format_state(game.parse_state(game.format_state(state))) == game.format_state(state)


@settings(max_examples=60, deadline=None)
@given(st.integers(7, 25), st.integers(7, 25), st.randoms(use_true_random=False))
def test_moves_round_trip_on_every_size(width: int, height: int, rng: random.Random) -> None:
    game = Gomoku(width, height)
    state = game.initial_state()
    for _ in range(6):
        move = rng.choice(game.actions(state))
        text = game.format_move(state, move)
        assert game.parse_move(state, text) == move
        x, y = game.coordinates(move)
        assert game.parse_move(state, f"{x},{y}") == move
        state = game.result(state, move)
    assert game.parse_state(game.format_state(state)) == state


# --------------------------------------------------------------------------- engine hooks


def _positions(game: Gomoku, seed: int, count: int) -> Iterator[GomokuState]:
    rng = random.Random(seed)
    made = 0
    while made < count:
        state = random_state(game, rng, rng.randrange(4, 40))
        if not game.is_terminal(state):
            made += 1
            yield state


def test_hooks_agree_with_the_naive_board() -> None:
    game = Gomoku(11)
    for state in _positions(game, 11, 40):
        board = Naive.of(game, state)
        p, o = state.mover, 1 - state.mover
        mine, theirs = board.five_cells(p), board.five_cells(o)
        win = game.winning_action(state)
        assert (win is None) == (not mine) and (win is None or win in mine)
        moves = game.non_losing_actions(state)
        assert len(set(moves)) == len(moves)
        assert all(board.cells[m] is None for m in moves)
        if mine:
            assert moves == [win]
        elif len(theirs) >= 2:
            assert moves == []
        elif theirs:
            assert moves == list(theirs)
        elif board.open_four_cells(o):
            # facing open threes: only moves that stop them, or fours, when some move does
            stops = []
            for cell in board.empty():
                board.cells[cell] = p
                if not board.open_four_cells(o):
                    stops.append(cell)
                board.cells[cell] = None
            assert moves
            if stops:
                assert set(moves) <= set(stops) | board.four_cells(p)
                assert set(stops) <= set(moves)
        else:
            assert 0 < len(moves) <= BREADTH
        assert abs(game.evaluate(state)) < WIN_THRESHOLD // 2
        ordered = game.ordered_actions(state)
        assert ordered[: len(moves)] == moves
        assert sorted(ordered) == game.actions(state)


def test_three_cells_agree_with_the_naive_board() -> None:
    """Where a player has no open three yet (else a stone near it leaves one too),
    its three cells are those after which it can make an open four."""
    game = Gomoku(11)
    compared = 0
    for state in _positions(game, 12, 30):
        board = Naive.of(game, state)
        for player in (0, 1):
            if not board.open_four_cells(player):
                compared += 1
                assert _cells(game.three_cells(state, player)) == board.three_cells(player)
    assert compared >= 30


def test_move_lists_are_remembered_by_position() -> None:
    """The same position reached again (another order of moves, a new state object)
    gets the same list, which the caller may change without harm."""
    game = Gomoku()
    first = game.parse_state("h8 i9 h9 h10 g8")
    again = game.parse_state("g8 h10 h9 i9 h8")
    moves = game.non_losing_actions(first)
    assert len(moves) == BREADTH
    moves.clear()
    assert game.non_losing_actions(again) == game.non_losing_actions(first) != []
    assert game.non_losing_actions(again) == Gomoku().non_losing_actions(again)


def test_the_empty_board_starts_in_the_centre() -> None:
    for game in (Gomoku(), Gomoku(20), Gomoku(8, 10)):
        start = game.initial_state()
        assert game.non_losing_actions(start) == [game.action(game.width // 2, game.height // 2)]


def _engine_move(game: Gomoku, state: GomokuState, depth: int = 3) -> int:
    result = Engine(game).search(state, Limits(depth=depth))
    move: int = result.best_move
    return move


def test_engine_completes_five_and_blocks_fours() -> None:
    game = Gomoku(9)
    rng = random.Random(3)
    wins = blocks = 0
    while wins < 5 or blocks < 5:
        state = scattered(game, rng, rng.randrange(5, 10), rng.randrange(5, 10))
        if state.white.bit_count() > state.black.bit_count():
            continue
        board = Naive.of(game, state)
        mine, theirs = board.five_cells(0), board.five_cells(1)
        if mine and wins < 5:
            wins += 1
            assert _engine_move(game, state) in mine
        elif len(theirs) == 1 and blocks < 5:
            blocks += 1
            assert _engine_move(game, state) in theirs


def test_engine_answers_open_threes() -> None:
    """Facing an open three with no four of its own, the engine's move leaves the
    opponent no open four to make whenever some move does, or makes a four."""
    game = Gomoku(9)
    rng = random.Random(4)
    checked = 0
    while checked < 6:
        state = scattered(game, rng, 6, 6)
        board = Naive.of(game, state)
        if board.five_cells(0) or board.five_cells(1) or not board.open_four_cells(1):
            continue
        defences = []
        for cell in board.empty():
            board.cells[cell] = 0
            if not board.open_four_cells(1):
                defences.append(cell)
            board.cells[cell] = None
        if not defences:
            continue
        checked += 1
        move = _engine_move(game, state)
        board.cells[move] = 0
        assert board.five_cells(0) or not board.open_four_cells(1), game.format_state(state)


# --------------------------------------------------------------------------- threats


def naive_vcf(board: Naive, attacker: int, fours: int) -> bool:
    """Whether ``attacker`` (to move) wins by at most ``fours`` consecutive fours.

    The attacker plays fives and fours only; the defender may answer anywhere, so every
    reply is tried, except that a reply leaving the attacker a five loses at once."""
    if board.five_cells(attacker):
        return True
    defender = 1 - attacker
    threats = board.five_cells(defender)
    if fours == 0 or len(threats) >= 2:
        return False
    for move in board.four_cells(attacker):
        if (threats and move not in threats) or not board.allowed(move, attacker):
            continue
        board.cells[move] = attacker
        try:
            made = board.five_cells(attacker)
            if board.five_cells(defender):
                continue
            if len(made) >= 2:
                return True
            # every reply but the block leaves a five; the block is the only one to try
            (block,) = made
            board.cells[block] = defender
            try:
                if not board.has_five(defender) and naive_vcf(board, attacker, fours - 1):
                    return True
            finally:
                board.cells[block] = None
        finally:
            board.cells[move] = None
    return False


def check_line(game: Gomoku, state: GomokuState, line: list[int]) -> None:
    """The line is legal, alternates from the side to move, and its last move wins."""
    for move in line:
        assert not game.is_terminal(state)
        assert move in game.actions(state)
        state = game.result(state, move)
    assert game.is_terminal(state) and game.utility(state, 1 - game.to_move(state)) == 1
    assert len(line) % 2 == 1


@pytest.mark.parametrize("rule", ["freestyle", "exact5", "renju"])
def test_vcf_agrees_with_a_naive_search(rule: str) -> None:
    """On 9x9 positions of random stones, the VCF solver finds a win exactly when a naive
    exhaustive search does, and every line it returns is a forced win by naive rules
    (under the exact-five rule too, where a stone may spoil its own side's five, and under
    renju, where black, attacking here, may play no forbidden four)."""
    game = Gomoku(9, rule=rule)
    rng = random.Random(6)
    found = long = 0
    for trial in range(120):
        state = scattered(game, rng, 8 + trial % 5, 8 + trial % 5)
        if game.winning_action(state) is not None:
            continue
        line = vcf(game, state, budget=100_000)
        board = Naive.of(game, state)
        assert (line is not None) == naive_vcf(board, 0, 6), game.format_state(state)
        if line is not None:
            found += 1
            long += len(line) >= 5
            check_line(game, state, line)
    assert found >= 10 and long >= 5


def test_shortest_vcf_has_the_fewest_fours() -> None:
    """With ``shortest`` the VCF solver returns a forced win with the fewest fours: the
    naive search finds none with one four less, while the depth-first solver's lines are
    sometimes longer."""
    game = Gomoku(9)
    rng = random.Random(6)
    found = longer = 0
    for trial in range(120):
        state = scattered(game, rng, 8 + trial % 5, 8 + trial % 5)
        if game.winning_action(state) is not None:
            continue
        line = vcf(Gomoku(9), state, budget=100_000, shortest=True)
        first = vcf(Gomoku(9), state, budget=100_000)
        assert (line is None) == (first is None), game.format_state(state)
        if line is None or first is None:
            continue
        found += 1
        check_line(game, state, line)
        fours = (len(line) - 1) // 2
        assert not naive_vcf(Naive.of(game, state), 0, fours - 1), game.format_state(state)
        assert len(line) <= len(first)
        longer += len(first) > len(line)
    assert found >= 10 and longer >= 1


def test_vct_lines_are_forced_wins() -> None:
    """Every VCT line found on random 9x9 positions holds against every defence: a naive
    search in which the defender may answer each threat anywhere confirms it."""
    game = Gomoku(9)
    rng = random.Random(8)
    found = threes = 0
    for _ in range(200):
        if found >= 6:
            break
        state = scattered(game, rng, 7, 6)
        if game.winning_action(state) is not None or game.five_cells(state, 1):
            continue
        if game.forced_win(state, False) is not None:
            continue
        line = vct(game, state, budget=3_000)
        if line is None or len(line) > 9:
            continue
        found += 1
        check_line(game, state, line)
        board = Naive.of(game, state)
        assert naive_wins(game, board, 0, (len(line) + 1) // 2 + 2), game.format_state(state)
        threes += not game.five_cells(game.result(state, line[0]), 0)
    assert found >= 3 and threes >= 1


def naive_wins(game: Gomoku, board: Naive, attacker: int, moves: int) -> bool:
    """Whether ``attacker`` (to move) makes five within ``moves`` of its moves against
    every defence, by the naive rules: the defender tries every empty cell, except that
    a reply leaving the attacker a five is answered at once. The attacker's move is the
    first of the game's threat line from the position (a prover may take advice: only
    its moves are trusted, never its claims)."""
    if board.five_cells(attacker):
        return True
    if moves <= 1:
        return False
    defender = 1 - attacker
    theirs = board.five_cells(defender)
    if len(theirs) >= 2:
        return False
    if theirs:
        (move,) = theirs
    else:
        state = game.state_from_stones(
            [c for c, v in enumerate(board.cells) if v == 0],
            [c for c, v in enumerate(board.cells) if v == 1],
            attacker,
        )
        line = vct(game, state, budget=3_000)
        if line is None:
            return False
        move = line[0]
    board.cells[move] = attacker
    try:
        return _holds(game, board, attacker, moves - 1)
    finally:
        board.cells[move] = None


def _holds(game: Gomoku, board: Naive, attacker: int, moves: int) -> bool:
    """Whether every defender reply loses within ``moves`` attacker moves."""
    defender = 1 - attacker
    if board.five_cells(defender):
        return False
    made = board.five_cells(attacker)
    if len(made) >= 2:
        return True
    replies = sorted(made) if made else board.empty()
    for reply in replies:
        board.cells[reply] = defender
        try:
            if board.has_five(defender) or not naive_wins(game, board, attacker, moves):
                return False
        finally:
            board.cells[reply] = None
    return True


def test_engine_plays_a_found_forced_win_with_its_line() -> None:
    """At a root with a VCF the engine's move and principal variation are the threat
    line, scored as a win in its length, and the line is a forced win by naive rules."""
    game = Gomoku(9)
    rng = random.Random(9)
    played = 0
    while played < 3:
        state = scattered(game, rng, 10, 10)
        if game.winning_action(state) is not None:
            continue
        line = game.forced_win(state, True)
        if line is None or len(line) < 5:
            continue
        played += 1
        result = Engine(game).search(state, Limits(time=5))
        assert list(result.pv) == line and result.best_move == line[0]
        assert result.score == WIN - len(line)
        assert naive_vcf(Naive.of(game, state), 0, 8) or naive_wins(
            game, Naive.of(game, state), 0, (len(line) + 1) // 2
        )
