"""The connect-four opening book shipped in the package (``zerosum/books``): the empty
board's seven column values as published, read with no search, by the library, by
``zerosum solve`` and by the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from zerosum.agents import SearchAgent
from zerosum.book import ENVIRONMENT_VARIABLE, PACKAGE_FOLDER, Book, find_book
from zerosum.cli import main
from zerosum.games.connect4 import Connect4
from zerosum.search.engine import Limits

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
