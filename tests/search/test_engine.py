"""The production engine against the textbook oracle and an independent memoised minimax.

Agreement at every depth on random trees under every combination of options, exact win
distances on every reachable tic-tac-toe position, root scores, win-distance
preferences, the solving hooks, quiescence, the limits, the table's moves and
determinism."""

from __future__ import annotations

import cProfile
import pstats
import random
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import Bare, minimax_value, on_time, stop_delay, timed, trees
from zerosum.game import WIN, MissingCapabilityError
from zerosum.games.connect4 import Connect4
from zerosum.games.mnk import MNKGame, tictactoe
from zerosum.games.tree import TreeGame
from zerosum.search.engine import Engine, EngineOptions, Limits, SearchStopped
from zerosum.search.reference import negamax
from zerosum.search.table import DEPTH_END, EXACT, INITIAL_SLOTS

SWITCHES = ("use_table", "hints", "killers", "history", "pvs", "aspiration")


@st.composite
def option_sets(draw: st.DrawFn) -> EngineOptions:
    """Any combination of the engine's switches, with small tables and windows too."""
    flags = {name: draw(st.booleans()) for name in SWITCHES}
    return EngineOptions(
        table_size=draw(st.sampled_from((1, 8, 1 << 12))),
        aspiration_window=draw(st.integers(1, 6)),
        **flags,
    )


def reachable(game: Any) -> list[Any]:
    """Every state reachable from the start, in breadth-first order."""
    seen = {game.initial_state(): None}
    frontier = list(seen)
    while frontier:
        following = []
        for state in frontier:
            for move in game.actions(state):
                child = game.result(state, move)
                if child not in seen:
                    seen[child] = None
                    following.append(child)
        frontier = following
    return list(seen)


def exact_scores(game: Any) -> dict[Any, int]:
    """Every reachable state's engine score (win distances, mover's side), memoised.

    Written from the definitions alone: a finished game scores +-WIN or 0; otherwise the
    best of the children's scores, negated, with a win or loss one ply further away."""
    memo: dict[Any, int] = {}

    def value(state: Any) -> int:
        if state in memo:
            return memo[state]
        if game.is_terminal(state):
            u = game.utility(state, game.to_move(state))
            score = WIN if u > 0 else -WIN if u < 0 else 0
        else:
            score = max(-further(value(game.result(state, a))) for a in game.actions(state))
        memo[state] = score
        return score

    for state in reversed(reachable(game)):
        value(state)
    return memo


def further(score: int) -> int:
    """A score seen one ply further from the root: wins and losses come one ply later."""
    if score > WIN // 2:
        return score - 1
    if score < -WIN // 2:
        return score + 1
    return score


TICTACTOE = tictactoe()
EXACT_TICTACTOE = exact_scores(TICTACTOE)


class WithoutEvaluate(Bare):
    """Tic-tac-toe with its key and hints but no evaluate: searched to the end."""

    def key(self, state: int) -> int:
        return state

    def ordered_actions(self, state: int) -> Any:
        return self.game.ordered_actions(state)  # type: ignore[attr-defined]


class Points(Bare):
    """Tic-tac-toe scored in points (win_loss off): 100 for a line, and its evaluate.

    The engine then returns the textbook's values exactly, at any depth."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.info = type(game.info)(name="points", title="points", win_loss=False)

    def utility(self, state: int, player: int) -> int:
        return 100 * self.game.utility(state, player)

    def evaluate(self, state: int) -> int:
        return int(self.game.evaluate(state)) % 7 - 3  # type: ignore[attr-defined]

    def key(self, state: int) -> int:
        return state


class Hooked(Bare):
    """Tic-tac-toe with solving hooks written the slow, obvious way."""

    def winning_action(self, state: int) -> int | None:
        game = self.game
        for a in game.actions(state):
            child = game.result(state, a)
            if game.is_terminal(child) and game.utility(child, game.to_move(state)) > 0:
                return a
        return None

    def non_losing_actions(self, state: int) -> list[int]:
        game = self.game
        safe = []
        for a in game.actions(state):
            child = game.result(state, a)
            if game.is_terminal(child) or Hooked.winning_action(self, child) is None:
                safe.append(a)
        return safe

    def score_bounds(self, state: int) -> tuple[int, int]:
        # a loss takes two plies at least, and both players need a move left for it
        empty = 9 - state.bit_count()
        if not empty:
            return (-WIN, WIN)
        return (2 - WIN if empty >= 2 else 0, WIN - 1)

    def key(self, state: int) -> int:
        return state


def random_position(data: st.DataObject, game: Any, plies: int) -> Any:
    state = game.initial_state()
    for _ in range(plies):
        moves = game.actions(state)
        if not moves:
            break
        state = game.result(state, data.draw(st.sampled_from(list(moves))))
    return state


# ---------------------------------------------------------------- agreement with oracles


@settings(max_examples=150, deadline=None)
@given(trees(estimates=True), option_sets(), st.data())
def test_agrees_with_minimax_on_random_trees_at_every_depth(
    tree: Any, options: EngineOptions, data: st.DataObject
) -> None:
    game = TreeGame(tree)
    depth = data.draw(st.integers(1, 7))
    result = Engine(game, options).search(0, Limits(depth=depth))
    assert result.score == minimax_value(tree, depth)
    full = Engine(game, options).search(0)
    assert full.score == minimax_value(tree)
    assert full.stats.solved


@settings(max_examples=60, deadline=None)
@given(trees(estimates=True), option_sets(), st.data())
def test_multipv_scores_every_root_move_exactly(
    tree: Any, options: EngineOptions, data: st.DataObject
) -> None:
    game = TreeGame(tree)
    depth = data.draw(st.integers(1, 6))
    result = Engine(game, options).search(0, Limits(depth=depth), multipv=True)
    assert result.root_scores is not None
    kids = tree["children"]
    expected = {i: minimax_value(kid, depth - 1, maximise=False) for i, kid in enumerate(kids)}
    assert result.root_scores == expected
    assert list(result.root_scores.values()) == sorted(expected.values(), reverse=True)
    assert result.score == max(expected.values())
    assert expected[result.best_move] == result.score


@settings(max_examples=80, deadline=None)
@given(option_sets(), st.data())
def test_agrees_with_negamax_on_tictactoe_in_points(
    options: EngineOptions, data: st.DataObject
) -> None:
    game = Points(TICTACTOE)
    state = random_position(data, game, data.draw(st.integers(2, 6)))
    depth = data.draw(st.integers(1, 5))
    expected = negamax(game, state, depth).score
    assert Engine(game, options).search(state, Limits(depth=depth)).score == expected


def test_exact_win_distance_on_every_tictactoe_position() -> None:
    for game in (TICTACTOE, WithoutEvaluate(TICTACTOE)):
        engine = Engine(game)
        for state, score in EXACT_TICTACTOE.items():
            result = engine.search(state)
            assert result.score == score, game.format_state(state)  # type: ignore[attr-defined]
            if not TICTACTOE.is_terminal(state):
                child = TICTACTOE.result(state, result.best_move)
                assert -further(EXACT_TICTACTOE[child]) == score


def test_sign_agrees_with_negamax_on_sampled_tictactoe_positions() -> None:
    bare = Bare(TICTACTOE)  # type: ignore[arg-type]
    engine = Engine(bare)
    late = [s for s in EXACT_TICTACTOE if s.bit_count() >= 4]
    for state in late[::7]:
        expected = negamax(bare, state).score
        score = engine.search(state).score
        assert score is not None
        assert (score > 0) - (score < 0) == expected


def test_multipv_on_the_empty_board_draws_everywhere() -> None:
    result = Engine(TICTACTOE).search(0, multipv=True)
    assert result.root_scores == dict.fromkeys(range(9), 0)
    assert result.score == 0


@settings(max_examples=40, deadline=None)
@given(option_sets(), st.data())
def test_root_scores_are_exact_win_distances(options: EngineOptions, data: st.DataObject) -> None:
    state = random_position(data, TICTACTOE, data.draw(st.integers(0, 5)))
    if TICTACTOE.is_terminal(state):
        return
    result = Engine(WithoutEvaluate(TICTACTOE), options).search(state, multipv=True)
    assert result.root_scores is not None
    for move, score in result.root_scores.items():
        assert score == -further(EXACT_TICTACTOE[TICTACTOE.result(state, move)])


def test_solving_hooks_change_nothing_but_the_work() -> None:
    plain = Engine(WithoutEvaluate(TICTACTOE))
    hooked = Engine(Hooked(TICTACTOE))  # type: ignore[arg-type]
    off = Engine(Hooked(TICTACTOE), EngineOptions(solver_hooks=False))  # type: ignore[arg-type]
    for state, score in EXACT_TICTACTOE.items():
        assert hooked.search(state).score == score
        assert off.search(state).score == score
    plain_order = {"killers": False, "history": False}
    unhooked = EngineOptions(solver_hooks=False, **plain_order)
    empty_plain = Engine(Hooked(TICTACTOE), unhooked).search(0).stats.nodes  # type: ignore[arg-type]
    empty_hooked = Engine(Hooked(TICTACTOE), EngineOptions(**plain_order)).search(0).stats.nodes  # type: ignore[arg-type]
    assert empty_hooked < empty_plain
    assert plain.search(0).score == 0


def test_connect4_hooks_agree_with_the_plain_search() -> None:
    game = Connect4(4, 4)
    hooked = Engine(game)
    plain = Engine(game, EngineOptions(solver_hooks=False))
    for moves in ("", "1", "23", "1414", "2323", "12341"):
        state = game.parse_state(moves)
        window = hooked.search_window(state, -WIN - 1, WIN + 1)
        reference = plain.search_window(state, -WIN - 1, WIN + 1)
        assert window.score == reference.score, moves


class SafeOnly(Hooked):
    """Hooked tic-tac-toe without ``score_bounds``: the engine pairs the moves with none."""

    score_bounds = None


class NoWinningHook(Hooked):
    """Hooked tic-tac-toe without ``winning_action``: a win at once is not ruled out at the
    root of a search, so the lean node must not run."""

    winning_action = None


def _called(function_name: str, run: Any) -> bool:
    """Tell whether ``run()`` called a function of that name (the engine's inner ones)."""
    profiler = cProfile.Profile()
    profiler.runcall(run)
    return any(
        name == function_name
        for (_, _, name) in pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize(
    ("game", "lean_runs"),
    [(Hooked(TICTACTOE), True), (SafeOnly(TICTACTOE), True), (NoWinningHook(TICTACTOE), False)],
    ids=["hooked", "no-bounds", "no-winning-action"],
)
def test_null_nodes_visit_the_same_tree_as_the_general_node(game: Any, lean_runs: bool) -> None:
    # a solver's probes around each position's value: the lean node and the general
    # one must answer alike, after the same nodes
    lean = Engine(game)
    general = Engine(game, EngineOptions(null_nodes=False))
    for state, score in EXACT_TICTACTOE.items():
        if TICTACTOE.is_terminal(state):
            continue
        for middle in {score - 1, score, 0, -1, WIN - 6, 5 - WIN}:
            fast = lean.search_window(state, middle, middle + 1)
            slow = general.search_window(state, middle, middle + 1)
            assert (fast.score, fast.nodes) == (slow.score, slow.nodes), (state, middle)
            assert (fast.score > middle) == (score > middle), (state, middle)
    assert lean.table is not None and general.table is not None
    assert len(lean.table) == len(general.table)
    assert lean.table.slots == general.table.slots  # the same entries, stored alike
    state = TICTACTOE.parse_state("x../.o./...")
    assert _called("null_node", lambda: Engine(game).search_window(state, 0, 1)) == lean_runs
    assert not _called("null_node", lambda: general.search_window(state, 0, 1))
    assert not _called("null_node", lambda: Engine(game).search_window(state, -1, 1))


def test_connect4_null_nodes_agree_with_the_general_node() -> None:
    game = Connect4(5, 4)
    lean = Engine(game)
    general = Engine(game, EngineOptions(null_nodes=False))
    for moves in ("", "3", "23", "1414", "2323", "12341", "333"):
        state = game.parse_state(moves)
        score = Engine(game).search_window(state, -WIN - 1, WIN + 1).score
        for middle in (score - 1, score, 0, -1):
            fast = lean.search_window(state, middle, middle + 1)
            slow = general.search_window(state, middle, middle + 1)
            assert (fast.score, fast.nodes) == (slow.score, slow.nodes), (moves, middle)
            assert (fast.score > middle) == (score > middle), (moves, middle)
    assert lean.table is not None and general.table is not None
    assert lean.table.slots == general.table.slots


# ---------------------------------------------------------------- win distances


def test_takes_a_win_in_one_at_depth_one() -> None:
    engine = Engine(TICTACTOE)
    for state, score in EXACT_TICTACTOE.items():
        if score == WIN - 1:
            result = engine.search(state, Limits(depth=1))
            assert result.score == WIN - 1
            child = TICTACTOE.result(state, result.best_move)
            assert TICTACTOE.is_terminal(child)
            assert TICTACTOE.utility(child, TICTACTOE.to_move(state)) == 1


def _threat(game: Any, state: Any) -> bool:
    """The player to move could win at once."""
    for a in game.actions(state):
        child = game.result(state, a)
        if game.is_terminal(child) and game.utility(child, game.to_move(state)) > 0:
            return True
    return False


def _opponent_threatens(state: int) -> bool:
    """The player not to move has two in a line with the third cell empty."""
    x, o = state & 0x1FF, state >> 9 & 0x1FF
    theirs = o if TICTACTOE.to_move(state) == 0 else x
    empty = 0x1FF & ~(x | o)
    return any((theirs & line).bit_count() == 2 and empty & line for line in TICTACTOE.lines)


def test_blocks_a_loss_in_one_at_depth_two() -> None:
    checked = 0
    for options in (EngineOptions(), EngineOptions(hints=False, use_table=False)):
        engine = Engine(TICTACTOE, options)
        for state, score in EXACT_TICTACTOE.items():
            if TICTACTOE.is_terminal(state) or _threat(TICTACTOE, state):
                continue
            # the opponent threatens and some move stops every win in one
            if not _opponent_threatens(state) or score == -(WIN - 2):
                continue
            move = engine.search(state, Limits(depth=2)).best_move
            child = TICTACTOE.result(state, move)
            assert TICTACTOE.is_terminal(child) or not _threat(TICTACTOE, child)
            checked += 1
    assert checked > 100


def _positions_with(predicate: Any) -> Iterator[int]:
    for state, score in EXACT_TICTACTOE.items():
        if TICTACTOE.is_terminal(state):
            continue
        children = {
            -further(EXACT_TICTACTOE[TICTACTOE.result(state, a)]) for a in TICTACTOE.actions(state)
        }
        if predicate(score, children):
            yield state


def test_prefers_the_fastest_win() -> None:
    found = list(_positions_with(lambda _, c: WIN - 1 in c and WIN - 3 in c))
    assert found
    for game in (TICTACTOE, WithoutEvaluate(TICTACTOE)):
        engine = Engine(game)
        for state in found:
            assert engine.search(state).score == WIN - 1


def test_prefers_the_slowest_loss() -> None:
    found = list(_positions_with(lambda s, c: s < 0 and -(WIN - 2) in c and -(WIN - 4) in c))
    assert found
    for state in found:
        for game in (TICTACTOE, WithoutEvaluate(TICTACTOE)):
            result = Engine(game).search(state)
            assert result.score == -(WIN - 4)
            child = TICTACTOE.result(state, result.best_move)
            assert -further(EXACT_TICTACTOE[child]) == -(WIN - 4)


# ---------------------------------------------------------------- threat search


def winning_line(state: int) -> tuple[int, ...]:
    """A line from ``state`` won by the side to move in its exact number of plies: the
    winner keeps the fastest win, the loser the slowest loss."""
    line: list[int] = []
    while not TICTACTOE.is_terminal(state):
        score = EXACT_TICTACTOE[state]
        move = next(
            a
            for a in TICTACTOE.actions(state)
            if -further(EXACT_TICTACTOE[TICTACTOE.result(state, a)]) == score
        )
        line.append(move)
        state = TICTACTOE.result(state, move)
    return tuple(line)


class Threats(Bare):
    """Tic-tac-toe with a sound threat search: the exact win line, found by the oracle.

    ``at_root`` says whether the deep call (the engine's root) finds wins too; every call
    is recorded."""

    def __init__(self, game: Any, *, at_root: bool) -> None:
        super().__init__(game)
        self.at_root = at_root
        self.calls: list[bool] = []

    def evaluate(self, state: int) -> int:
        return int(self.game.evaluate(state))  # type: ignore[attr-defined]

    def key(self, state: int) -> int:
        return state

    def forced_win(self, state: int, deep: bool) -> tuple[int, ...] | None:
        self.calls.append(deep)
        if (deep and not self.at_root) or EXACT_TICTACTOE[state] <= WIN // 2:
            return None
        return winning_line(state)


WON_POSITIONS = [
    state
    for state, score in EXACT_TICTACTOE.items()
    if not TICTACTOE.is_terminal(state) and score > WIN // 2
]


def test_a_threat_win_at_the_root_is_played_with_its_line() -> None:
    for state in WON_POSITIONS[::7]:
        game = Threats(TICTACTOE, at_root=True)
        result = Engine(game).search(state, Limits(depth=1))
        line = winning_line(state)
        assert (result.score, result.pv, result.best_move) == (WIN - len(line), line, line[0])
        assert result.stats.nodes == 0
        assert game.calls == [True]


def test_threat_wins_at_the_horizon_give_exact_scores_two_plies_up() -> None:
    # a win in n >= 3 plies shows at depth 2: every reply to the right move leaves a
    # position the threat search proves won in n - 2
    found = [state for state in WON_POSITIONS if EXACT_TICTACTOE[state] <= WIN - 3]
    assert found
    for state in found:
        game = Threats(TICTACTOE, at_root=False)
        result = Engine(game).search(state, Limits(depth=2))
        assert result.score == EXACT_TICTACTOE[state]
        assert result.stats.depth == 2
        assert False in game.calls
        child = TICTACTOE.result(state, result.best_move)
        assert -further(EXACT_TICTACTOE[child]) == EXACT_TICTACTOE[state]


def test_threats_off_or_multipv_skip_the_threat_search_at_the_root() -> None:
    state = WON_POSITIONS[0]
    game = Threats(TICTACTOE, at_root=True)
    Engine(game, EngineOptions(threats=False)).search(state, Limits(depth=2))
    assert game.calls == []
    result = Engine(game).search(state, Limits(depth=2), multipv=True)
    assert True not in game.calls
    assert result.root_scores is not None


# ---------------------------------------------------------------- quiescence


class Noisy(Bare):
    """A tree whose every move is noisy: quiescence then searches on from the horizon."""

    def evaluate(self, state: int) -> int:
        return self.game.evaluate(state)

    def noisy_actions(self, state: int) -> tuple[int, ...]:
        return self.game.actions(state)


def quiescent_value(tree: Any, depth: int, maximise: bool = True) -> int:
    """The depth-limited value when the horizon stands pat or plays on (the oracle)."""
    if isinstance(tree, int):
        return tree
    kids = tree["children"]
    if depth > 0:
        values = [quiescent_value(k, depth - 1, not maximise) for k in kids]
        return max(values) if maximise else min(values)
    pat = int(tree["estimate"])
    values = [quiescent_value(k, 0, not maximise) for k in kids]
    return max(pat, *values) if maximise else min(pat, *values)


@settings(max_examples=60, deadline=None)
@given(trees(estimates=True), st.integers(1, 4), option_sets())
def test_quiescence_stands_pat_or_plays_on(tree: Any, depth: int, options: EngineOptions) -> None:
    game = Noisy(TreeGame(tree))
    result = Engine(game, options).search(0, Limits(depth=depth))
    assert result.score == quiescent_value(tree, depth)
    off = EngineOptions(quiescence=False)
    assert Engine(game, off).search(0, Limits(depth=depth)).score == minimax_value(tree, depth)


class Ranked(Noisy):
    """A tree whose noisy moves the game ranks (last child first), as chess by MVV-LVA."""

    def capture_value(self, state: int, move: int) -> int:
        return move


@settings(max_examples=60, deadline=None)
@given(trees(estimates=True), st.integers(1, 4), option_sets())
def test_ranked_noisy_moves_change_the_order_not_the_value(
    tree: Any, depth: int, options: EngineOptions
) -> None:
    game = Ranked(TreeGame(tree))
    assert Engine(game, options).search(0, Limits(depth=depth)).score == quiescent_value(
        tree, depth
    )


SELECTIVE = ("capture_order", "check_extensions", "null_move", "lmr", "futility")


@pytest.mark.parametrize(
    ("game", "position", "depth"),
    [(TICTACTOE, "x../.o./...", 4), (MNKGame(4, 4, 3), "", 5), (Connect4(), "4453", 6)],
    ids=["tictactoe", "4x4", "connect4"],
)
def test_the_chess_switches_change_nothing_for_games_without_their_hooks(
    game: Any, position: str, depth: int
) -> None:
    state = game.parse_state(position) if position else game.initial_state()
    on = Engine(game).search(state, Limits(depth=depth))
    off = Engine(game, EngineOptions(**dict.fromkeys(SELECTIVE, False))).search(
        state, Limits(depth=depth)
    )
    assert (on.score, on.best_move, on.pv, on.stats.nodes) == (
        off.score,
        off.best_move,
        off.pv,
        off.stats.nodes,
    )


# ---------------------------------------------------------------- capabilities


def test_a_depth_limit_without_evaluate_raises() -> None:
    game = WithoutEvaluate(TICTACTOE)
    with pytest.raises(MissingCapabilityError, match="no evaluate"):
        Engine(game).search(0, Limits(depth=3))
    assert Engine(game).search(0, Limits(depth=9)).score == 0


def test_partial_estimates_search_to_the_end() -> None:
    tree = [[3, [5, 1]], {"children": [2, 9], "estimate": 4}]
    result = Engine(TreeGame(tree)).search(0)
    assert result.score == minimax_value(tree)
    with pytest.raises(MissingCapabilityError):
        Engine(TreeGame(tree)).search(0, Limits(depth=1))


class Unhashable(Bare):
    """States are lists: no key and no hash, so the engine runs without its table."""

    def initial_state(self) -> Any:
        return [0]

    def to_move(self, state: Any) -> int:
        return self.game.to_move(state[0])

    def actions(self, state: Any) -> Any:
        return self.game.actions(state[0])

    def result(self, state: Any, action: int) -> Any:
        return [self.game.result(state[0], action)]

    def is_terminal(self, state: Any) -> bool:
        return self.game.is_terminal(state[0])

    def utility(self, state: Any, player: int) -> int:
        return self.game.utility(state[0], player)


def test_unhashable_states_search_without_the_table() -> None:
    engine = Engine(Unhashable(TICTACTOE))  # type: ignore[arg-type]
    result = engine.search([0])
    assert result.score == 0
    assert result.stats.table_probes == 0


def test_a_finished_game_has_no_move() -> None:
    state = TICTACTOE.parse_state("xxx/oo./...")
    result = Engine(TICTACTOE).search(state)
    assert result.best_move is None
    assert result.score == -WIN  # the side to move has lost
    assert list(Engine(TICTACTOE).iterate(state)) == []


# ---------------------------------------------------------------- the table


class Guarded(WithoutEvaluate):
    """Fails the test if the search plays on an occupied cell."""

    def result(self, state: int, action: int) -> int:
        assert not (state | state >> 9) >> action & 1, f"illegal move {action} played"
        return self.game.result(state, action)


def test_an_illegal_stored_move_is_never_played() -> None:
    engine = Engine(Guarded(TICTACTOE), EngineOptions(table_size=1 << 16))
    table = engine.table
    assert table is not None

    def poison() -> None:
        for state in EXACT_TICTACTOE:
            occupied = [c for c in range(9) if (state | state >> 9) >> c & 1]
            if occupied:  # a shallow bound, so the search uses the move but not the value
                table.store(state, 0, EXACT, 0, occupied[0], 0)
        table.store(0, 0, EXACT, 0, 42, 0)  # not a move at all

    for state, score in list(EXACT_TICTACTOE.items())[::20]:
        poison()
        assert engine.search(state).score == score


def test_the_table_is_kept_between_searches_and_reset_forgets() -> None:
    engine = Engine(TICTACTOE)
    first = engine.search(0)
    second = engine.search(0)
    assert second.score == first.score == 0
    assert second.stats.nodes < first.stats.nodes
    assert engine.table is not None
    entry = engine.table.probe(0)
    assert entry is not None
    assert entry.depth == DEPTH_END
    engine.reset()
    assert len(engine.table) == 0
    assert engine.search(0).stats.nodes == first.stats.nodes


def test_the_table_grows_inside_one_search_and_the_value_stays() -> None:
    game = Connect4(5, 4)
    engine = Engine(game)
    assert engine.table is not None
    assert len(engine.table.slots) == INITIAL_SLOTS
    result = engine.search(game.initial_state())
    assert len(engine.table.slots) > INITIAL_SLOTS
    assert result.score == 0  # John Tromp: 5x4 is a draw
    small = Engine(game, EngineOptions(table_size=INITIAL_SLOTS // 4))
    assert small.search(game.initial_state()).score == 0
    assert small.table is not None
    assert len(small.table.slots) == INITIAL_SLOTS // 4


def test_the_table_never_exceeds_its_bound() -> None:
    engine = Engine(MNKGame(4, 4, 3), EngineOptions(table_size=1000))
    engine.search(0, Limits(depth=5))
    assert engine.table is not None
    assert len(engine.table) <= 512 == engine.table.capacity
    assert engine.search(0, Limits(depth=5)).stats.hashfull <= 1000


# ---------------------------------------------------------------- limits


BIG = MNKGame(5, 5, 4)


def test_node_limit_is_respected() -> None:
    for nodes in (1, 10, 999, 5000):
        result = Engine(BIG).search(0, Limits(nodes=nodes))
        assert result.stats.nodes <= nodes
        assert result.stats.stopped
        assert result.best_move in BIG.actions(0)
    assert Engine(BIG).search(0, Limits(nodes=5000)).stats.nodes == 5000


def test_a_legal_move_even_when_stopped_during_depth_one() -> None:
    result = Engine(BIG).search(0, Limits(nodes=2))
    assert result.score is None
    assert result.stats.depth == 0
    assert result.best_move == BIG.ordered_actions(0)[0]


def stoppable(game: Any) -> Callable[[threading.Event], Any]:
    """A search of ``game`` from state 0 by a new engine, with only a stop signal."""
    return lambda stop: Engine(game).search(0, Limits(stop=stop))


def test_time_limit() -> None:
    elapsed, result = on_time(lambda: timed(Engine(BIG).search, 0, Limits(time=0.1)), 0.3)
    assert 0.1 <= elapsed < 0.3
    assert result.stats.stopped
    assert result.stats.depth >= 1
    assert result.best_move in BIG.actions(0)


def test_stop_event_from_another_thread() -> None:
    delay, result = on_time(partial(stop_delay, stoppable(BIG), 0.15, 5), 0.05)
    assert delay < 0.05
    assert result.best_move in BIG.actions(0)
    assert result.stats.stopped


def test_iterate_reports_each_depth_and_the_caller_may_stop() -> None:
    engine = Engine(BIG)
    reports = []
    for report in engine.iterate(0):
        reports.append(report)
        if report.depth == 3:
            break
    assert [r.depth for r in reports] == [1, 2, 3]
    assert all(r.pv and r.pv[0] == r.best_move for r in reports)
    nodes = [r.nodes for r in reports]
    assert nodes == sorted(nodes)
    assert all(r.elapsed > 0 and r.nps > 0 for r in reports)


def test_limits_reject_nonsense() -> None:
    for bad in ({"depth": 0}, {"nodes": 0}, {"time": 0.0}, {"time": -1.0}):
        with pytest.raises(ValueError):
            Limits(**bad)
    with pytest.raises(ValueError):
        EngineOptions(table_size=0)
    with pytest.raises(ValueError):
        Engine(TICTACTOE).search_window(0, 3, 3)


class Slow(Bare):
    """Five-by-five four-in-a-row whose every move takes ``pause`` seconds to play, with
    an evaluation: a game whose nodes are a thousand times slower than connect four's."""

    def __init__(self, pause: float) -> None:
        super().__init__(BIG)
        self.pause = pause

    def result(self, state: Any, action: Any) -> Any:
        time.sleep(self.pause)
        return self.game.result(state, action)

    def evaluate(self, state: Any) -> int:
        return int(self.game.evaluate(state))


def test_a_game_with_slow_nodes_still_stops_on_time() -> None:
    # polling every 256 nodes left 2 ms nodes half a second past a 50 ms limit
    for limits in (Limits(time=0.05), Limits(time=0.05, depth=30)):
        elapsed, result = on_time(partial(timed, Engine(Slow(0.002)).search, 0, limits), 0.15)
        assert elapsed - 0.05 < 0.1, elapsed
        assert result.stats.stopped
        assert result.best_move in BIG.actions(0)


def test_a_game_with_slow_nodes_still_stops_at_the_signal() -> None:
    delay, result = on_time(partial(stop_delay, stoppable(Slow(0.002)), 0.1, 10), 0.1)
    assert delay < 0.1
    assert result.stats.stopped


def test_window_search_limits_raise_and_leave_the_table_sound() -> None:
    game = Connect4(5, 4)
    state = game.parse_state("12")  # 17,546 nodes
    exact = Engine(game).search_window(state, -1, 0).score
    for nodes in (1, 7, 300, 5000):
        engine = Engine(game)
        with pytest.raises(SearchStopped) as stopped:
            engine.search_window(state, -1, 0, limits=Limits(nodes=nodes))
        assert (stopped.value.reason, stopped.value.nodes) == ("nodes", nodes)
        # what the stopped search stored is proven: the search after it agrees
        assert engine.search_window(state, -1, 0).score == exact
    engine = Engine(game)
    with pytest.raises(SearchStopped) as stopped:
        engine.search_window(state, -1, 0, limits=Limits(time=0.01))
    assert stopped.value.reason == "time"
    signal = threading.Event()
    signal.set()
    with pytest.raises(SearchStopped) as stopped:
        engine.search_window(state, -1, 0, limits=Limits(stop=signal))
    assert (stopped.value.reason, stopped.value.nodes) == ("stop", 1)
    with pytest.raises(ValueError, match="depth"):
        engine.search_window(state, -1, 0, limits=Limits(depth=3))


def test_window_search_tells_its_progress_at_each_poll() -> None:
    game = Connect4(5, 4)
    state = game.parse_state("1234")
    told: list[int] = []
    engine = Engine(game, EngineOptions(poll_interval=100))
    found = engine.search_window(state, -1, 0, progress=told.append)
    assert told == list(range(100, found.nodes + 1, 100))
    # and the same tree as without: only the polls differ
    assert found.nodes == Engine(game).search_window(state, -1, 0).nodes


def test_the_table_proves_the_move_a_probe_found() -> None:
    game = WithoutEvaluate(TICTACTOE)
    exact = EXACT_TICTACTOE
    engine = Engine(game)
    for state, score in list(exact.items())[::11]:
        if TICTACTOE.is_terminal(state):
            assert engine.proven_move(state, -WIN) is None
            continue
        engine.reset()
        assert engine.proven_move(state, -WIN) is None  # nothing searched yet
        found = engine.search_window(state, score - 1, score).score  # fails high
        move = engine.proven_move(state, found)
        assert move is not None
        assert -further(exact[TICTACTOE.result(state, move)]) >= found
        assert engine.proven_move(state, found + 1) is None


# ---------------------------------------------------------------- determinism


def test_same_search_same_result() -> None:
    runs = [Engine(BIG).search(0, Limits(depth=4)) for _ in range(2)]
    first, second = runs
    assert (first.best_move, first.score, first.pv) == (second.best_move, second.score, second.pv)
    assert first.stats.nodes == second.stats.nodes
    assert first.stats.cutoffs == second.stats.cutoffs


def test_principal_variation_is_legal_and_reaches_the_score() -> None:
    state = TICTACTOE.parse_state("x../.o./...")
    result = Engine(WithoutEvaluate(TICTACTOE)).search(state)
    for move in result.pv:
        assert move in TICTACTOE.actions(state)
        state = TICTACTOE.result(state, move)
    assert TICTACTOE.is_terminal(state)
    assert result.score == 0 == TICTACTOE.utility(state, 0)


# ---------------------------------------------------------------- repeated window searches


def test_window_searches_count_alike_on_a_kept_and_a_new_engine() -> None:
    # the engine keeps its window searcher between calls: each call must still report
    # its own nodes and table counts, and search exactly as a new engine does
    for game in (WithoutEvaluate(TICTACTOE), Connect4(4, 4)):
        kept = Engine(game)
        for moves in ((), (0,), (0, 1), (1, 2, 3)):
            state = game.initial_state()
            for move in moves:
                state = game.result(state, move)
            for alpha, beta in ((-1, 0), (0, 1), (-WIN - 1, WIN + 1)):
                kept.reset()
                fresh = Engine(game)
                assert kept.table is not None and fresh.table is not None
                found = kept.search_window(state, alpha, beta)
                expected = fresh.search_window(state, alpha, beta)
                assert (found.score, found.nodes, found.pv) == (
                    expected.score,
                    expected.nodes,
                    expected.pv,
                )
                assert (kept.table.hits, kept.table.probes) == (
                    fresh.table.hits,
                    fresh.table.probes,
                )


def test_window_searches_follow_the_table_through_other_searches() -> None:
    # a deepening search grows the table under the kept window searcher, and reset()
    # shrinks it back: the window searches after either must use the table as it is
    game = Connect4(5, 4)
    engine = Engine(game, EngineOptions(table_size=1 << 16))
    state = game.parse_state("1234512345")
    assert engine.table is not None
    before = engine.search_window(state, -1, 0).score
    small = engine.table.mask
    engine.search(game.initial_state(), Limits(depth=12))
    assert engine.table.mask > small
    assert engine.search_window(state, -1, 0).score == before
    engine.reset()
    assert engine.search_window(state, -1, 0).score == before
    assert Engine(game).search_window(state, -1, 0).score == before


def test_no_iteration_starts_after_the_soft_time() -> None:
    game = Connect4()
    state = game.initial_state()
    # past the soft time at once: the first completed iteration is the last
    reports = list(Engine(game).iterate(state, Limits(time=60, soft_time=0)))
    assert [r.depth for r in reports] == [1]
    assert Engine(game).search(state, Limits(depth=4, soft_time=60)).stats.depth == 4
    with pytest.raises(ValueError, match="soft time"):
        Limits(soft_time=-1)


class _SolvedEndings(MNKGame):
    """Tic-tac-toe whose ``window_value`` hook answers every position with four empty
    cells or fewer by an exact solve of its own, win distances counted from there."""

    def __init__(self) -> None:
        super().__init__(3, 3, 3)
        self.solver = Engine(tictactoe())

    def window_value(self, state: Any, alpha: int, beta: int) -> int | None:
        del alpha, beta  # an exact value answers any window
        if len(self.actions(state)) > 4:
            return None
        return self.solver.search(state).score


def test_window_value_answers_are_scored_from_the_node_they_answer() -> None:
    # the hook measures win distances from its own node; the engine must shift them by
    # the node's depth, so that the hooked search scores every position, wins at their
    # distance, as the plain one does
    hooked, plain = _SolvedEndings(), tictactoe()
    rng = random.Random(5)
    for _ in range(60):
        state = plain.initial_state()
        for _ in range(rng.randrange(0, 5)):
            state = plain.result(state, rng.choice(plain.actions(state)))
        if plain.is_terminal(state):
            continue
        expected = Engine(plain).search(state).score
        assert Engine(hooked).search(state).score == expected
        found = Engine(hooked, EngineOptions(solver_hooks=False)).search(state).score
        assert found == expected
