"""Every game's board, checked against its rules: a click plays a legal move, every legal
move is reachable by clicks, and the view the page receives says the same."""

from __future__ import annotations

import random
from typing import Any

import pytest

from zerosum.game import BoardView, winning_line
from zerosum.games import registry
from zerosum.web.sessions import Recipe, Session, make_game, session_view

DRAWN = [name for name in registry.names() if hasattr(registry.make(name), "board")]
"""The registered games that draw a board (the others are played from a list of moves)."""

PLIES = {"chess": 60, "gomoku": 40}
"""How deep the random games go: long enough to reach captures, castling and the end."""


def clickable(view: BoardView[Any]) -> list[Any]:
    """Every move a person can make on ``view`` by one click or two."""
    found = list(view.targets.values())
    for destinations in view.moves.values():
        for choices in destinations.values():
            found.extend(choices)
    return found


def check_board(game: Any, state: Any) -> BoardView[Any]:
    view: BoardView[Any] = game.board(state)
    cells = view.width * view.height
    assert len(view.cells) == cells
    assert view.pieces == () or len(view.pieces) == cells
    assert all(0 <= cell < cells for cell in view.targets)
    for start, destinations in view.moves.items():
        assert 0 <= start < cells and all(0 <= end < cells for end in destinations)
    legal = [] if game.is_terminal(state) else list(game.actions(state))
    reachable = clickable(view)
    assert all(move in legal for move in reachable)  # every click plays a legal move
    assert set(map(repr, legal)) == set(map(repr, reachable))  # every legal move has a click
    assert view.files == () or len(view.files) == view.width
    assert view.ranks == () or len(view.ranks) == view.height
    return view


def test_the_games_that_draw_boards() -> None:
    # the games drawn as text have no grid: an explicit tree, a token on a graph, a maze
    # walked by name and a divisor heap
    assert set(registry.names()) - set(DRAWN) <= {"tree", "graph", "maze", "divisor"}
    for name in ("chess", "connect4", "nim", "subtraction", "stones", "stones-iii"):
        assert name in DRAWN


@pytest.mark.parametrize("name", DRAWN)
def test_random_games_are_playable_by_clicks(name: str) -> None:
    game = registry.make(name)
    rng = random.Random(21)
    for _ in range(3):
        state = game.initial_state()
        for _ply in range(PLIES.get(name, 200)):
            view = check_board(game, state)
            if game.is_terminal(state):
                break
            # play by the board's clicks, not from the list: the test walks what a
            # person can reach
            state = game.result(state, rng.choice(clickable(view)))


def test_chess_board_from_a_position() -> None:
    chess = registry.make("chess")
    # white may castle both ways and promote on b8 by a push or a capture
    state = chess.parse_state("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
    view = check_board(chess, state)
    assert view.pieces[0] == "r" and view.cells[0] == 1
    assert view.pieces[60] == "K" and view.cells[60] == 0
    label = lambda move: chess.format_move(state, move)  # noqa: E731
    king = view.moves[60]
    assert [label(m) for m in king[62]] == ["O-O"] == [label(m) for m in king[63]]
    assert [label(m) for m in king[58]] == ["O-O-O"] == [label(m) for m in king[56]]
    pawn = view.moves[9]  # b7
    assert sorted(label(m) for m in pawn[1]) == ["b8=B", "b8=N", "b8=Q+", "b8=R+"]
    assert sorted(label(m) for m in pawn[0]) == ["bxa8=B", "bxa8=N", "bxa8=Q+", "bxa8=R+"]
    assert view.files == tuple("abcdefgh") and view.ranks == tuple("87654321")


def test_chess_clicks_match_python_chess() -> None:
    chess_oracle = pytest.importorskip("chess")
    game = registry.make("chess")
    rng = random.Random(7)
    state = game.initial_state()
    for _ in range(80):
        if game.is_terminal(state):
            break
        view = game.board(state)
        clicks = set()
        for start, destinations in view.moves.items():
            for end, choices in destinations.items():
                for move in choices:
                    clicks.add((start, end, game.format_uci(state, move)))
        board = chess_oracle.Board(game.format_state(state))
        expected = set()
        for move in board.legal_moves:
            uci = move.uci()
            # a picture's cell counts from a8: the from- and to-squares of the clicks
            expected.add((63 - move.from_square ^ 7, 63 - move.to_square ^ 7, uci))
            if board.is_castling(move):  # castling is also the king onto its rook
                rook = chess_oracle.square(7 if move.to_square % 8 == 6 else 0, move.to_square // 8)
                expected.add((63 - move.from_square ^ 7, 63 - rook ^ 7, uci))
        assert clicks == expected
        state = game.result(state, rng.choice(game.actions(state)))


def test_connect4_marks_its_four() -> None:
    game = registry.make("connect4")
    state = game.parse_state("4455667")
    view = check_board(game, state)
    bottom = 5 * 7
    assert view.line == (bottom + 3, bottom + 4, bottom + 5, bottom + 6)
    assert view.kind == "columns"
    assert game.board(game.initial_state()).targets[3] == 3  # the top of column 4 drops


def test_tictactoe_marks_its_line_and_gomoku_its_five() -> None:
    game = registry.make("tictactoe")
    won = game.parse_state("xxx/oo./...")
    assert game.board(won).line == (0, 1, 2)
    assert game.board(game.parse_state("xo./.x./..o")).line == ()
    cells: list[int | None] = [None] * 36
    for cell in range(6):  # six in a row: an overline
        cells[cell] = 0
    assert winning_line(cells, 6, 6, 5) == tuple(range(6))
    assert winning_line(cells, 6, 6, 5, exact=True) == ()
    cells[0] = None
    cells[35] = cells[28] = cells[21] = 1
    assert winning_line(cells, 6, 6, 3, exact=True) == (21, 28, 35)
    assert winning_line(cells, 6, 6, 4) == (1, 2, 3, 4, 5)


def test_heaps_and_stones() -> None:
    nim = registry.make("nim")
    view = check_board(nim, nim.initial_state())
    assert (view.width, view.height, view.kind) == (5, 3, "heaps")
    assert view.pieces[:5] == ("1", "2", "3", "", "")
    assert view.targets[0] == (0, 3)  # the first stone of heap 1 takes the whole heap
    assert view.targets[14] == (2, 1)  # the last stone of heap 3 takes one
    stones = registry.make("stones")
    view = check_board(stones, stones.initial_state())
    assert view.pieces == tuple(str(v) for v in stones.values)
    assert set(view.targets) == {0, len(stones.values) - 1}


@pytest.mark.parametrize("name", ["chess", "connect4", "nim", "stones-ii"])
def test_the_view_lists_the_board_and_marks_the_last_move(name: str) -> None:
    game = make_game(Recipe(name))
    session = Session("id", "owner", Recipe(name), game, 0, 1.0, [game.initial_state()])
    before = session_view(session)["board"]
    assert before["last"] == []
    move = game.actions(session.state)[0]
    picture = game.board(session.state)
    session.push(move)
    board = session_view(session)["board"]
    assert board["kind"] == picture.kind
    assert len(board["cells"]) == len(board["pieces"]) == board["width"] * board["height"]
    after = game.board(session.state)
    changed = [
        cell
        for cell in range(len(after.cells))
        if (before["cells"][cell], before["pieces"][cell])
        != (after.cells[cell], board["pieces"][cell])
    ]
    assert board["last"] == changed and changed


def test_renju_crosses_out_blacks_forbidden_cells() -> None:
    """Under renju the view black receives marks its forbidden cells and offers no click
    on them; white's view marks none."""
    game = make_game(Recipe("gomoku:rule=renju"))
    cross = game.parse_state("black: g8 i8 h7 h9; white: a1 a15 o1 o15; to move: black")
    h8 = game.action(7, 7)
    session = Session("id", "owner", Recipe("gomoku:rule=renju"), game, 0, 1.0, [cross])
    board = session_view(session)["board"]
    assert board["forbidden"] == [h8]
    assert str(h8) not in board["targets"] and len(board["targets"]) == game.cells - 9
    view = check_board(game, cross)
    assert view.forbidden == (h8,)
    white = game.result(cross, game.action(0, 7))
    assert game.board(white).forbidden == () and h8 in game.board(white).targets
    free = make_game(Recipe("gomoku"))
    assert free.board(free.parse_state(game.format_state(cross))).forbidden == ()
