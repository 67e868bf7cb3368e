"""The connect-four opening book shipped in the package (``zerosum/books``): the empty
board's seven column values as published, read with no search, by the library, by
``zerosum solve`` and by the engine; both players' lines complete wherever the other
side may go, and their scores and moves against the kernel's exact solves."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from zerosum import kernels
from zerosum.agents import SearchAgent
from zerosum.book import ENVIRONMENT_VARIABLE, PACKAGE_FOLDER, Book, find_book
from zerosum.cli import main
from zerosum.games.connect4 import Connect4
from zerosum.search.engine import Limits
from zerosum.search.solve import solve

EMPTY_BOARD = {"1": -2, "2": -1, "3": 0, "4": 1, "5": 0, "6": -1, "7": -2}
"""The published value of each first move on 7x6, in Pons' scores (see
../shared/data/README.md): only the centre wins, with the last stone."""


@pytest.fixture
def shipped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The package's book, found as a user without books of their own finds it."""
    monkeypatch.delenv(ENVIRONMENT_VARIABLE)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = PACKAGE_FOLDER / "connect4-7x6.sqlite"
    assert path.is_file(), f"the package ships {path}"
    return path


def test_the_shipped_book_scores_each_first_move_as_published(shipped: Path) -> None:
    game = Connect4()
    book = find_book(game)
    assert book is not None and book.info.path == shipped
    with book:
        assert book.info.plies >= 1
        start = game.initial_state()
        scores = book.move_scores(start)
        assert scores is not None
        published = {
            game.format_move(start, move): game.published_score(start, score)
            for move, score in scores.items()
        }
        assert published == EMPTY_BOARD
        # the start's own row is the negamax of its children's
        assert book.score(start) == max(scores.values())


def test_zerosum_solve_answers_the_empty_board_from_the_book(
    shipped: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "connect4", "--all"]) == 0
    out = capsys.readouterr().out
    assert "score: +1" in out and "best moves: 4" in out
    assert "nodes: 0 " in out and f"book: {shipped}" in out
    rows = dict(line.split()[:2] for line in out.splitlines() if line[:1].isdigit())
    assert {move: int(score) for move, score in rows.items()} == EMPTY_BOARD


def test_the_engine_opens_with_the_centre_from_the_book(shipped: Path) -> None:
    game = Connect4()
    agent = SearchAgent(Limits(time=1.0))
    move = agent.choose(game, game.initial_state())
    assert game.format_move(game.initial_state(), move) == "4"
    assert agent.last is not None and agent.last.stats.nodes == 0
    assert Book(shipped).info.name == "connect4-7x6"


def line_positions(book: Book, player: int) -> Iterator[tuple[int, Any, Any, int]]:
    """Every position ``player`` reaches up to its lines' ply playing the lines' moves
    against every reply, where it is to move: ``(ply, position, move, score)``. Fails
    where a line stops short."""
    game = book.game
    reach = book.info.lines[player]
    assert reach is not None
    frontier = {game.canonical_key(game.initial_state()): game.initial_state()}
    for ply in range(reach + 1):
        following: dict[int, Any] = {}
        for state in frontier.values():
            if game.to_move(state) == player:
                chosen = book.chosen_move(state)
                assert chosen is not None, (ply, game.format_state(state))
                yield ply, state, *chosen
                moves = [chosen[0]]
            else:
                moves = list(game.actions(state))
            for move in moves:
                child = game.result(state, move)
                if not game.is_terminal(child):
                    following[game.canonical_key(child)] = child
        frontier = following


@pytest.mark.parametrize("player", [0, 1], ids=["first", "second"])
def test_the_shipped_lines_answer_every_reply_with_a_best_move(shipped: Path, player: int) -> None:
    game = Connect4()
    with Book(shipped, game) as book:
        assert book.info.lines[player] is not None and book.info.lines[player] >= 8
        found = list(line_positions(book, player))
    # the lines start from the published values: the centre wins with the last stone,
    # and each first move leaves the second player the negation of its value
    for ply, state, move, score in found:
        if ply == 0:
            assert game.published_score(state, score) == 1
            assert game.format_move(state, move) == "4"
        elif ply == 1:
            first_move = game.format_state(state)
            assert game.published_score(state, score) == -EMPTY_BOARD[first_move]
        elif player == 0:  # a win is never let go: the first player's lines all win
            assert score > 0
    if not kernels.available():
        pytest.skip("numba is not installed (the fast extra): no exact solves to compare")
    engine = game.compiled_engine()
    deepest = max(ply for ply, *_ in found)
    sample = random.Random(22).sample([f for f in found if f[0] >= deepest - 1], 4)
    for _, state, move, score in sample:
        solved = solve(game, state, engine=engine)
        assert score == solved.score and move in solved.best_moves, game.format_state(state)
