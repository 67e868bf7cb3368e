"""Exact othello endgames: the endgame solver against plain minimax and alpha-beta, the
engine's solver with othello's hooks against the plain engine and the FFO endgame suite
(``../shared/data/othello``), and the hooks' promises.

Every FFO position #1-19 is solved both ways, with #20-23 by the endgame solver's own
driver and #20-21 through the engine: those that take half a second or less in the
default run, the others (up to about three seconds) marked slow; the rest of #20-39 is
for ``bench/othello_ffo.py``.
"""

from __future__ import annotations

import random

import pytest

from conftest import shared_data
from zerosum.game import WIN_THRESHOLD
from zerosum.games import othello
from zerosum.games.othello import EXACT_EMPTIES, START, Othello, State
from zerosum.games.othello import rules as othello_rules
from zerosum.games.othello.evaluation import stable_discs
from zerosum.games.othello.notation import colours
from zerosum.games.othello.rules import FULL, PASS, SMALL_EMPTIES, Endgame, solve_exact
from zerosum.search.engine import EngineOptions
from zerosum.search.solve import solve

FAST = (1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 17, 20)
"""FFO positions (#1-19 and #20-39) that solve in half a second or less each."""
SLOW = (8, 10, 12, 14, 15, 16, 18, 19, 21)
"""Those that take up to about three seconds; #22-39 are for ``bench/othello_ffo.py``."""
ROOT_FAST = (*range(1, 20), 20, 21)
"""FFO positions the endgame solver's own driver solves in half a second or less each."""
ROOT_SLOW = (22, 23)
"""Those it solves in about two seconds each."""


def _minimax(game: Othello, state: State) -> int:
    """The exact final score for the side to move by plain negamax over every line."""
    if game.is_terminal(state):
        return game.utility(state, game.to_move(state))
    return max(-_minimax(game, othello_rules.result(state, m)) for m in game.actions(state))


def _alphabeta(game: Othello, state: State, alpha: int = -65, beta: int = 65) -> int:
    """The exact final score for the side to move by plain fail-hard alpha-beta over the
    rules' moves in square order: no table, no ordering, nothing shared with the solver."""
    if game.is_terminal(state):
        return game.utility(state, game.to_move(state))
    for move in game.actions(state):
        score = -_alphabeta(game, othello_rules.result(state, move), -beta, -alpha)
        if score >= beta:
            return beta
        alpha = max(alpha, score)
    return alpha


def _endgames(count: int, most_empties: int, seed: int, least_empties: int = 1) -> list[State]:
    """``count`` positions of random games with ``least_empties`` to ``most_empties``
    empty squares."""
    game = Othello()
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = START
        while not game.is_terminal(state):
            empties = 64 - (state[0] | state[1]).bit_count()
            if empties < least_empties:
                break
            if empties <= most_empties and rng.random() < 0.4:
                found.append(state)
                break
            state = othello_rules.result(state, rng.choice(game.actions(state)))
    return found


def test_the_small_solver_agrees_with_minimax() -> None:
    game = Othello()
    for state in _endgames(120, SMALL_EMPTIES, seed=1):
        assert solve_exact(state[0], state[1]) == _minimax(game, state), game.format_state(state)


def test_the_small_solver_bounds_outside_its_window() -> None:
    game = Othello()
    for state in _endgames(60, SMALL_EMPTIES, seed=2):
        exact = _minimax(game, state)
        assert solve_exact(state[0], state[1], exact, exact + 1) <= exact
        assert solve_exact(state[0], state[1], exact - 1, exact) >= exact


def test_the_endgame_solver_agrees_with_plain_alpha_beta_above_the_small_solver() -> None:
    game = Othello()
    states = _endgames(15, SMALL_EMPTIES + 3, seed=8, least_empties=SMALL_EMPTIES + 1)
    for state in states:
        assert solve_exact(state[0], state[1]) == _alphabeta(game, state)


def test_the_look_ahead_ordering_keeps_every_value_and_best_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the one-reply look ahead only orders the moves: brought down to the table's
    # smallest positions (it runs from 16 empties), the values and best moves must
    # still be plain alpha-beta's
    monkeypatch.setattr(othello_rules, "SORT_EMPTIES", SMALL_EMPTIES + 1)
    game = Othello()
    states = _endgames(8, SMALL_EMPTIES + 4, seed=17, least_empties=SMALL_EMPTIES + 2)
    for state in states:
        scores = _move_scores(game, state)
        value = max(scores.values())
        endgame = Endgame()
        assert endgame.solve(state[0], state[1]) == value
        found = Endgame().solve_root(state[0], state[1])
        assert found.score == value
        assert set(found.best_moves) == {move for move, score in scores.items() if score == value}


def test_one_endgame_solver_keeps_its_windows_promises_from_search_to_search() -> None:
    # the table carries bounds from one window to the next, as a solver's probes share
    # it: every answer must still be exact inside its window and a bound outside
    game = Othello()
    rng = random.Random(9)
    endgame = Endgame()
    states = _endgames(12, SMALL_EMPTIES + 4, seed=10, least_empties=SMALL_EMPTIES + 1)
    exact = [_alphabeta(game, state) for state in states]
    for _ in range(200):
        index = rng.randrange(len(states))
        low = rng.randrange(-66, 64)
        high = rng.choice((low + 1, low + 2, rng.randrange(low + 1, 66)))
        found = endgame.solve(states[index][0], states[index][1], low, high)
        value = exact[index]
        if found <= low:
            assert value <= found
        elif found >= high:
            assert value >= found
        else:
            assert value == found
    assert endgame.table
    assert endgame.nodes() > 0


def test_window_value_searches_the_last_empties_and_leaves_the_others() -> None:
    game = Othello()
    answered = 0
    for state in _endgames(20, SMALL_EMPTIES + 4, seed=3, least_empties=SMALL_EMPTIES + 1):
        found = game.window_value(state, 0, 1)
        if found is not None:  # else the solver gave up within its budget
            answered += 1
            assert (found > 0) == (solve_exact(state[0], state[1]) > 0)
    assert answered >= 15
    for state in _endgames(10, 40, seed=13, least_empties=EXACT_EMPTIES + 1):
        assert game.window_value(state, 0, 1) is None


def test_an_endgame_search_over_its_budget_gives_up_and_leaves_true_bounds() -> None:
    game = Othello()
    states = _endgames(10, SMALL_EMPTIES + 4, seed=12, least_empties=SMALL_EMPTIES + 3)
    for state in states:
        value = _alphabeta(game, state)
        endgame = Endgame()
        assert endgame.try_solve(state[0], state[1], -65, 65, 1) is None
        # what the abandoned searches stored must not mislead the next ones
        for budget in (10, 100):
            found = endgame.try_solve(state[0], state[1], -1, 1, budget)
            if found is not None:
                assert found == value if -1 < value < 1 else (found <= -1) == (value <= -1)
        assert endgame.solve(state[0], state[1]) == value


def _move_scores(game: Othello, state: State) -> dict[int, int]:
    """Every legal move of ``state`` with its exact score for the side to move, by plain
    alpha-beta."""
    scores = {}
    for move in game.actions(state):
        # the players alternate, a pass being a move, and a finished game's utility is
        # also for the side that would move next
        scores[move] = -_alphabeta(game, othello_rules.result(state, move))
    return scores


def test_the_root_driver_finds_the_value_and_every_best_move() -> None:
    game = Othello()
    states = _endgames(10, SMALL_EMPTIES + 3, seed=14, least_empties=SMALL_EMPTIES - 2)
    for state in states:
        scores = _move_scores(game, state)
        value = max(scores.values())
        endgame = Endgame()
        found = endgame.solve_root(state[0], state[1])
        assert found.finished
        assert found.low == found.high == found.score == value
        assert set(found.best_moves) == {move for move, score in scores.items() if score == value}
        one = Endgame().solve_root(state[0], state[1], every=False, guess=-value)
        assert one.score == value
        assert len(one.best_moves) == 1
        assert scores[one.best_moves[0]] == value


def test_the_root_driver_finds_the_value_from_any_first_guess() -> None:
    # guesses far above and below the value make the driver step, gallop and halve
    # the gap between proven bounds, and reorder the root's moves after every probe
    game = Othello()
    states = _endgames(6, SMALL_EMPTIES + 3, seed=16, least_empties=SMALL_EMPTIES + 1)
    for state in states:
        value = _alphabeta(game, state)
        for guess in (-64, -31, 0, 30, 64):
            found = Endgame().solve_root(state[0], state[1], every=False, guess=guess)
            assert found.finished
            assert found.score == value


def _lopsided(count: int, seed: int) -> list[State]:
    """``count`` positions of 7 to 10 empties where one side has one to three discs, off
    the edges, among the other's: wipe-outs either way, and near misses."""
    rng = random.Random(seed)
    inner = [square for square in range(64) if 0 < square % 8 < 7 and 0 < square // 8 < 7]
    found: list[State] = []
    while len(found) < count:
        occupied = FULL
        for square in rng.sample(range(64), rng.randrange(7, 11)):
            occupied ^= 1 << square
        few = sum(
            1 << square
            for square in rng.sample([s for s in inner if occupied >> s & 1], rng.randrange(1, 4))
        )
        mover, opponent = (occupied ^ few, few) if rng.random() < 0.5 else (few, occupied ^ few)
        state = othello_rules.make(mover, opponent, othello_rules.BLACK)
        if state[3]:
            found.append(state)
    return found


@pytest.mark.parametrize("wipe_out_budget", [othello_rules.WIPE_OUT_BUDGET, 1])
def test_the_root_driver_proves_wipe_outs_either_way(
    monkeypatch: pytest.MonkeyPatch, wipe_out_budget: int
) -> None:
    # the probes "above 62?" and "above -64?", and the best moves of a wipe-out, go to
    # the proof-number search; with a budget of one node it gives up and the null
    # windows answer instead
    monkeypatch.setattr(othello_rules, "WIPE_OUT_BUDGET", wipe_out_budget)
    game = Othello()
    values = []
    mixed = 0  # wipe-outs where some move falls short of it
    for state in _lopsided(40, seed=28):
        scores = _move_scores(game, state)
        value = max(scores.values())
        found = Endgame().solve_root(state[0], state[1])
        assert found.finished
        assert found.score == value
        assert set(found.best_moves) == {move for move, score in scores.items() if score == value}
        for guess in (62, -64):
            # the first probe asks the wipe-out question itself
            one = Endgame().solve_root(state[0], state[1], every=False, guess=guess)
            assert one.score == value
            assert scores[one.best_moves[0]] == value
        values.append(value)
        mixed += value == 64 and min(scores.values()) < 64
    # wipe-outs both ways, some with moves that fall short of it, and other values
    assert values.count(64) >= 5
    assert values.count(-64) >= 3
    assert mixed >= 3
    assert len(set(values)) >= 10


def test_the_root_driver_passes_and_ends_games() -> None:
    game = Othello()
    # every square black's but h8 and the three next to it, white's: white cannot play
    # h8, black can (flipping all three), so white passes and black takes the board
    squares = ["X"] * 63 + ["-"]
    for square in (54, 55, 62):
        squares[square] = "O"
    passing = game.parse_state("".join(squares) + " O")
    assert passing[3] == othello_rules.PASS_BIT
    found = Endgame().solve_root(passing[0], passing[1])
    assert found.best_moves == (PASS,)
    assert found.score == -solve_exact(passing[1], passing[0]) == -64
    # no white disc left: neither side can play h8, the empty square goes to black
    over = game.parse_state("X" * 63 + "- O")
    assert game.is_terminal(over)
    found = Endgame().solve_root(over[0], over[1])
    assert found.best_moves == ()
    assert found.score == -64


def test_the_root_driver_over_its_budget_gives_true_bounds() -> None:
    game = Othello()
    states = _endgames(4, SMALL_EMPTIES + 4, seed=15, least_empties=SMALL_EMPTIES + 3)
    for state in states:
        value = _alphabeta(game, state)
        endgame = Endgame()
        found = endgame.solve_root(state[0], state[1], budget=20)
        assert not found.finished
        assert found.best_moves == ()
        assert found.low <= value <= found.high
        assert endgame.solve_root(state[0], state[1]).score == value


def test_the_engine_with_the_hooks_scores_every_root_move_as_the_plain_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a smaller handover than the default, so that the plain engine (which never asks
    # window_value) solves each position quickly and the hooked one runs engine nodes
    # above the solver's: their root scores must agree, every window the engine gives
    # the hook included
    monkeypatch.setattr(othello, "EXACT_EMPTIES", SMALL_EMPTIES + 1)
    plain = EngineOptions(solver_hooks=False)
    for state in _endgames(4, SMALL_EMPTIES + 4, seed=4, least_empties=SMALL_EMPTIES + 3):
        game = Othello()
        hooked = solve(game, state, root_scores=True)
        unhooked = solve(Othello(), state, root_scores=True, options=plain)
        assert hooked.root_scores == unhooked.root_scores
        assert hooked.score == unhooked.score == _alphabeta(game, state)
        assert game.endgame.nodes() > 0


def test_the_children_the_ordering_makes_are_the_transition_s() -> None:
    game = Othello()
    rng = random.Random(6)
    for state in _endgames(40, 40, seed=5):
        moves = game.ordered_actions(state)
        rng.shuffle(moves)
        for move in moves:
            assert game.result(state, move) == othello_rules.result(state, move)


def test_the_evaluation_is_an_estimate_in_discs() -> None:
    game = Othello()
    assert game.evaluate(START) == 0
    for state in _endgames(100, 50, seed=7):
        assert -64 < game.evaluate(state) < 64 < WIN_THRESHOLD


def _ffo(number: int) -> tuple[str, int, set[str]]:
    """FFO position ``number``: the position, its value and its best moves."""
    name, first = ("fforum-1-19.obf", 1) if number < 20 else ("fforum-20-39.obf", 20)
    line = shared_data("othello", name).read_text().splitlines()[number - first]
    scored = [field.strip().split(":") for field in line.split(";")[1:] if field.strip()]
    best = max(int(score) for _, score in scored)
    return line, best, {move.lower() for move, score in scored if int(score) == best}


def _check_ffo(number: int) -> None:
    game = Othello()
    text, value, best_moves = _ffo(number)
    state = game.parse_state(text)
    solution = solve(game, state)
    assert solution.score == value
    assert {game.format_move(state, move) for move in solution.best_moves} == best_moves


@pytest.mark.parametrize("number", FAST)
def test_ffo_endgames(number: int) -> None:
    _check_ffo(number)


def _check_ffo_root(number: int) -> None:
    game = Othello()
    text, value, best_moves = _ffo(number)
    state = game.parse_state(text)
    found = Endgame().solve_root(state[0], state[1])
    assert found.score == value
    assert {game.format_move(state, move) for move in found.best_moves} == best_moves


@pytest.mark.parametrize("number", ROOT_FAST)
def test_ffo_endgames_by_the_root_driver(number: int) -> None:
    _check_ffo_root(number)


@pytest.mark.slow
@pytest.mark.parametrize("number", ROOT_SLOW)
def test_slower_ffo_endgames_by_the_root_driver(number: int) -> None:
    _check_ffo_root(number)


@pytest.mark.slow
@pytest.mark.parametrize("number", SLOW)
def test_slower_ffo_endgames(number: int) -> None:
    _check_ffo(number)


def test_stable_discs_never_flip_for_the_rest_of_random_games() -> None:
    game = Othello()
    rng = random.Random(11)
    found = 0
    for _ in range(60):
        state, seen = START, []
        while not game.is_terminal(state):
            seen.append(state)
            state = othello_rules.result(state, rng.choice(game.actions(state)))
        black, _ = colours(state)
        for position in seen:
            mine, theirs = colours(position)
            occupied = mine | theirs
            stable = stable_discs(mine, occupied)
            assert stable & black == stable
            stable = stable_discs(theirs, occupied)
            assert stable & black == 0
            found += stable.bit_count()
    assert found > 1000  # the test saw many stable discs, not only empty sets


def test_stable_discs_of_full_boards_edges_and_the_start() -> None:
    game = Othello()
    full = game.parse_state("X" * 40 + "O" * 24 + " X")
    assert stable_discs(full[0], FULL) == full[0]
    assert stable_discs(START[0], START[0] | START[1]) == 0
    # a1-c1 black joined to the corner, d1 white, the rest of the row empty
    edge = game.parse_state("XXXO----" + "-" * 16 + "---XO------OX---" + "-" * 24 + " X")
    black, white = colours(edge)
    assert stable_discs(black, black | white) == 0b111
    assert stable_discs(white, black | white) == 0
