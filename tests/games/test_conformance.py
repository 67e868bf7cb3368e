"""One conformance test over every registered game (the OpenSpiel habit).

Whatever a game is, it must keep the protocol's promises: immutable states, a player to
move that the state alone decides (and that changes with every move in a game declaring
``alternating``, the default), a stable order of legal moves, zero-sum utilities inside
the declared range, a terminal state at the end of every random playout, keys that
include the side to move,
evaluations inside the win band, ordering hints that are a permutation of the legal
moves, and a checked notation layer whose format and parse round-trip. A game with only
the six protocol methods, named by the import form, keeps the same promises, and the
shared checked layer (:mod:`zerosum.notation`) reads back every move it shows for it.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from zerosum import notation
from zerosum.game import WIN_THRESHOLD, ZerosumError, outcome
from zerosum.games import registry

PLAYOUTS = 12
MAX_PLIES = 6000
"""Longer than any game can last: chess's fifty-move rule allows about 5,900 plies."""


def _playouts(game: Any, seed: int) -> list[list[Any]]:
    """Random games from the start: each a list of the states visited, in order."""
    rng = random.Random(seed)
    lines = []
    for _ in range(PLAYOUTS):
        state = game.initial_state()
        line = [state]
        while not game.is_terminal(state):
            assert len(line) < MAX_PLIES, f"{game.info.name}: a playout did not end"
            state = game.result(state, rng.choice(list(game.actions(state))))
            line.append(state)
        lines.append(line)
    return lines


BARE = "bare_games:BareNim:heaps=2,3"
"""A game of one's own with nothing but the protocol (tests/bare_games.py)."""


@pytest.fixture(params=[*registry.names(), BARE])
def game(request: pytest.FixtureRequest) -> Any:
    return registry.make(request.param)


def offering(capability: str) -> list[str]:
    """The registered games that offer an optional ``capability``."""
    return [name for name in registry.names() if hasattr(registry.make(name), capability)]


def test_metadata(game: Any) -> None:
    info = game.info
    low, high = info.utility_range
    assert info.name and info.title and len(info.players) == 2
    assert low <= high and low > -WIN_THRESHOLD and high < WIN_THRESHOLD
    if info.win_loss:
        assert (low, high) == (-1, 1)
    if info.solved_value is not None:
        assert low <= info.solved_value <= high


def test_rules_hold_along_random_playouts(game: Any) -> None:
    low, high = game.info.utility_range
    for line in _playouts(game, seed=1):
        for state in line[:-1]:
            moves = list(game.actions(state))
            assert moves, "a state that is not terminal has a legal move"
            assert moves == list(game.actions(state)), "actions are in a stable order"
            assert game.to_move(state) in (0, 1)
            for move in moves:
                before = repr(state)
                child = game.result(state, move)
                assert repr(state) == before, "result must not change its argument"
                assert game.to_move(child) == game.to_move(game.result(state, move))
                if game.info.alternating:
                    assert game.to_move(child) != game.to_move(state), "players alternate"
        end = line[-1]
        assert list(game.actions(end)) == []
        first, second = game.utility(end, 0), game.utility(end, 1)
        assert first == -second, "utilities are zero-sum"
        assert low <= first <= high
        result = outcome(game, end)
        assert result is not None and result.payoffs == (first, second)


def test_a_game_that_does_not_alternate_says_so_and_moves_twice_running() -> None:
    turns_kept = []
    for name in registry.names():
        game = registry.make(name)
        if game.info.alternating:
            continue
        kept = any(
            game.to_move(after) == game.to_move(before)
            for line in _playouts(game, seed=8)
            for before, after in itertools.pairwise(line)
        )
        turns_kept.append((name, kept))
    assert turns_kept and all(kept for _, kept in turns_kept), turns_kept


@pytest.mark.parametrize("name", offering("key"))
def test_keys_identify_positions(name: str) -> None:
    game = registry.make(name)
    key = game.key
    seen: dict[Any, tuple[int, str]] = {}
    for line in _playouts(game, seed=2):
        for state in line:
            hash(key(state))
            if game.is_terminal(state):
                # repetition and move-count rules end a game by its history, which
                # keys leave out on purpose (as every engine's do): the moves differ
                continue
            signature = (game.to_move(state), repr(sorted(map(repr, game.actions(state)))))
            assert seen.setdefault(key(state), signature) == signature


@pytest.mark.parametrize("name", offering("evaluate"))
def test_evaluation_stays_inside_the_win_band(name: str) -> None:
    game = registry.make(name)
    evaluate = game.evaluate
    for line in _playouts(game, seed=3):
        for state in line[:-1]:
            try:
                value = evaluate(state)
            except ZerosumError:  # a tree node without an estimate says so clearly
                continue
            assert isinstance(value, int) and -WIN_THRESHOLD < value < WIN_THRESHOLD


@pytest.mark.parametrize("name", offering("ordered_actions"))
def test_ordering_hints_are_permutations(name: str) -> None:
    game = registry.make(name)
    ordered = game.ordered_actions
    for line in _playouts(game, seed=4):
        for state in line[:-1]:
            assert sorted(map(repr, ordered(state))) == sorted(map(repr, game.actions(state)))


@pytest.mark.parametrize("spec", [*registry.names(), BARE])
def test_the_checked_layer_reads_back_every_move_it_shows(spec: str) -> None:
    game = registry.make(spec)
    line = _playouts(game, seed=7)[0]
    for state in line[:-1]:
        assert isinstance(notation.render(game, state), str)
        label = notation.move_formatter(game)
        for move in game.actions(state):
            assert notation.parse_move(game, state, label(state, move)) == move


@pytest.fixture(params=registry.names())
def registered(request: pytest.FixtureRequest) -> Any:
    """A registered game: every one of them has the whole checked layer."""
    return registry.make(request.param)


def test_notation_round_trips(registered: Any) -> None:
    game = registered
    for method in ("parse_move", "format_move", "parse_state", "format_state", "render"):
        assert callable(getattr(game, method, None)), f"{game.info.name} lacks {method}"
    for line in _playouts(game, seed=5):
        for state in line:
            text = game.format_state(state)
            assert game.format_state(game.parse_state(text)) == text
            assert isinstance(game.render(state), str)
            if game.is_terminal(state):
                continue
            for move in game.actions(state):
                written = game.format_move(state, move)
                assert game.parse_move(state, written) == move, written


@pytest.mark.parametrize("name", offering("board"))
def test_board_views_match_the_rules(name: str) -> None:
    game = registry.make(name)
    board = game.board
    for line in _playouts(game, seed=6):
        for state in line:
            view = board(state)
            assert len(view.cells) == view.width * view.height
            assert set(view.cells) <= {None, 0, 1}
            legal = list(game.actions(state))
            assert all(0 <= cell < len(view.cells) for cell in view.targets)
            # a move is one click (targets) or two, from a cell to a cell (moves)
            reachable = list(view.targets.values()) + [
                move
                for destinations in view.moves.values()
                for choices in destinations.values()
                for move in choices
            ]
            assert all(move in legal for move in reachable)
            assert {repr(m) for m in reachable} == {repr(m) for m in legal}
            assert view.last is None or 0 <= view.last < len(view.cells)
