"""Explicit graph games, the maze game, sums of games and the Grundy report."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import shared_data
from zerosum.game import (
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    ZerosumError,
)
from zerosum.games.impartial import (
    GraphGame,
    Maze,
    Sum,
    graph,
    graph_from_json,
    load_graph,
    maze,
    report,
)
from zerosum.games.nim import SubtractionHeap
from zerosum.search.grundy import GrundyTable, grundy, winning_moves
from zerosum.search.reference import negamax


def _cases() -> Any:
    path = shared_data("nim", "cases.json")
    return json.loads(path.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- the data


def test_the_handbook_graph_values(tmp_path: Path) -> None:
    case = _cases()["explicit_graph"]
    file = tmp_path / "six.json"
    file.write_text(json.dumps({"edges": case["edges"]}), encoding="utf-8")
    game = load_graph(file)
    table = GrundyTable(game)
    found = {node: table.value((game.read_position(node), 0)) for node in case["grundy"]}
    assert found == case["grundy"]
    assert game.info.name == "six"


def _handbook_maze() -> tuple[Maze, list[list[Any]]]:
    rows = _cases()["maze_game"]["grundy_rows_top_to_bottom"]
    grid = ["".join("#" if cell == "#" else "." for cell in row) for row in rows]
    return Maze(grid), rows


def test_the_handbook_maze_values() -> None:
    game, rows = _handbook_maze()
    table = GrundyTable(game)
    found = [
        [
            "#" if r * game.width + c in game.walls else table.value((r * game.width + c, 0))
            for c in range(game.width)
        ]
        for r in range(game.height)
    ]
    assert found == rows


def test_the_handbook_maze_starts_bottom_right_and_is_won() -> None:
    game, rows = _handbook_maze()
    state = game.initial_state()
    assert game.format_state(state) == "e1"
    answer = report(game, state)
    assert answer.value == rows[-1][-1] == 2
    assert answer.to_move_wins
    assert {w.text for w in answer.winning_moves} == {
        game.format_move(state, m) for m in game.actions(state) if rows[m // 5][m % 5] == 0
    }


# --------------------------------------------------------------------------- graphs


@st.composite
def dags(draw: st.DrawFn) -> GraphGame:
    """A random acyclic graph of up to 8 nodes, its nodes in a random order."""
    count = draw(st.integers(1, 8))
    names = draw(st.permutations([f"n{i}" for i in range(count)]))
    pairs = [(i, j) for i in range(count) for j in range(i + 1, count)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=16)) if pairs else []
    return GraphGame([(names[i], names[j]) for i, j in chosen], nodes=sorted(names))


@settings(max_examples=80, deadline=None)
@given(game=dags(), mover=st.integers(0, 1))
def test_graph_grundy_zero_is_a_negamax_loss(game: GraphGame, mover: int) -> None:
    table = GrundyTable(game)
    for node in range(len(game.names)):
        state = (node, mover)
        value = table.value(state)
        assert (value == 0) == (negamax(game, state).score < 0)
        brute = [m for m in game.actions(state) if negamax(game, game.result(state, m)).score < 0]
        assert table.winning_moves(state) == brute
        children = {table.value(game.result(state, m)) for m in game.actions(state)}
        assert value not in children and set(range(value)) <= children


@pytest.mark.parametrize(
    ("edges", "words"),
    [
        ([["a", "b"], ["b", "c"], ["c", "a"]], "cycle through node 'a' \\(a -> b -> c -> a\\)"),
        ([["x", "x"]], "cycle through node 'x'"),
        ([["a", "b"], ["a", "b"]], "a -> b is listed twice"),
        ([["a"]], "an edge is a pair"),
        (["ab"], "an edge is a pair"),
        ([["a", True]], "a node is a string or an integer"),
        ([["a", " b"]], "surrounding spaces"),
        ([["a", "b:c"]], "':'"),
        ([], "no nodes"),
    ],
)
def test_bad_graphs_are_refused(edges: Any, words: str) -> None:
    with pytest.raises(InvalidGameError, match=words):
        GraphGame(edges)


def test_unknown_nodes_are_refused() -> None:
    with pytest.raises(InvalidGameError, match="unknown node 'c'"):
        GraphGame([("a", "b"), ("b", "c")], nodes=["a", "b"])
    with pytest.raises(InvalidGameError, match="start node 'z' is not in the graph"):
        GraphGame([("a", "b")], start="z")


def test_a_long_cycle_is_found_without_recursion() -> None:
    edges = [(i, i + 1) for i in range(50_000)] + [(50_000, 7)]
    with pytest.raises(InvalidGameError, match="cycle through node '7'"):
        GraphGame(edges)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "not valid JSON"),
        ('{"edges": [[1, 2]], "colour": 3}', "unknown key 'colour'"),
        ('{"nodes": [1]}', "'edges'"),
        ('{"edges": [[1, 2]], "nodes": 3}', "'nodes' must be a list"),
        ('{"edges": 5}', "must be a list"),
        ("[[1, 2], [2, 1]]", "cycle"),
        ("[" * 100_000, "nested too deeply|not valid JSON"),
    ],
)
def test_bad_graph_files_are_refused(text: str, words: str) -> None:
    with pytest.raises(InvalidGameError, match=words):
        graph_from_json(text, source="g.json")


def test_graph_files_and_options(tmp_path: Path) -> None:
    file = tmp_path / "g.json"
    file.write_text('{"nodes": [1, 2, 3, 4], "edges": [[1, 2], [2, 3]], "start": 2}', "utf-8")
    game = graph(file=str(file))
    assert game.format_state(game.initial_state()) == "2"
    assert game.parse_state("4;2") == (3, 1) and game.is_terminal((3, 1))
    assert (
        graph(file=str(file), start=1).format_state(graph(file=str(file), start=1).initial_state())
        == "1"
    )
    with pytest.raises(InvalidGameError, match="cannot read graph file"):
        graph(file=str(tmp_path / "missing.json"))
    with pytest.raises(InvalidGameError, match="not both"):
        graph(file=str(file), edges="a>b")
    made = graph(edges="a > b, b>c; a>c")
    assert made.names == ("a", "b", "c") and made.successors == ((1, 2), (2,), ())
    with pytest.raises(InvalidGameError, match="cannot read edge 'a>'"):
        graph(edges="a> ,b>c")


def test_graph_moves_are_node_names() -> None:
    game = graph(edges="a>b a>c b>c")
    state = game.initial_state()
    assert game.parse_move(state, " c ") == 2 and game.format_move(state, 2) == "c"
    with pytest.raises(IllegalMoveError, match="the legal moves are b, c"):
        game.parse_move(state, "a")
    with pytest.raises(InvalidMoveError, match="unknown node 'q'"):
        game.parse_move(state, "q")
    with pytest.raises(InvalidStateError, match="unknown node 'q'"):
        game.parse_state("q")
    assert game.render(state) == "at node a; moves to b, c\nfirst to move"


# --------------------------------------------------------------------------- the maze


def test_maze_moves_slide_left_or_up_until_a_wall() -> None:
    game = maze(grid="..#./..../#...")
    assert game.format_state(game.initial_state()) == "d1"
    state = game.initial_state()
    assert [game.format_move(state, m) for m in game.actions(state)] == ["c1", "b1", "d2", "d3"]
    assert game.parse_move(state, "left 2") == game.parse_move(state, "B1")
    assert game.parse_move(state, "up 2") == game.parse_move(state, "d3")
    with pytest.raises(IllegalMoveError, match="cannot slide 4 left"):
        game.parse_move(state, "left 4")
    with pytest.raises(IllegalMoveError, match="legal moves are c1, b1, d2, d3"):
        game.parse_move(state, "a1")
    with pytest.raises(InvalidMoveError, match="'left N' or 'up N'"):
        game.parse_move(state, "down 1")
    with pytest.raises(InvalidStateError, match="is a wall"):
        game.parse_state("a1")
    assert game.render(state).splitlines() == [
        " 3 . . # .",
        " 2 . . . .",
        " 1 # . . @",
        "   a b c d",
        "first to move",
    ]


def test_maze_start_and_files(tmp_path: Path) -> None:
    assert maze(grid="@../...").format_state(maze(grid="@../...").initial_state()) == "a2"
    assert maze(grid=".../...", start="b2").initial_state() == (1, 0)
    file = tmp_path / "m.txt"
    file.write_text("..\n.#\n\n", encoding="utf-8")
    with pytest.raises(InvalidGameError, match="start square b1 is a wall"):
        maze(file=str(file))
    assert maze(file=str(file), start="a1").initial_state() == (2, 0)


@pytest.mark.parametrize(
    ("grid", "words"),
    [
        ("", "no rows"),
        ("../.", "must be 2 wide"),
        ("..x", "unknown square 'x'"),
        ("@./.@", "more than one start"),
        ("/".join(["." * 27]), "at most 26"),
        ("..", None),
    ],
)
def test_bad_mazes_are_refused(grid: str, words: str | None) -> None:
    if words is None:
        with pytest.raises(InvalidGameError, match="off the maze"):
            maze(grid=grid, start="c1")
        return
    with pytest.raises(InvalidGameError, match=words):
        maze(grid=grid)


# --------------------------------------------------------------------------- sums and reports


def test_a_sum_of_different_games() -> None:
    game = Sum([graph(edges="a>b b>c a>c"), maze(grid="../.."), SubtractionHeap((1, 2), 4)])
    state = game.initial_state()
    assert game.format_state(state) == "a + b1 + 4"
    assert game.parse_state("b + a2 + 0;2") == ((1, 0, 0), 1)
    assert game.parse_move(state, "2:a1") == (1, 2)
    assert game.format_move(state, (2, 2)) == "3:2"
    # a is worth 2 (b is 1, c is 0), b1 in the maze 0 (both its moves reach a 1), 4 in {1, 2} 1
    assert grundy(game, state) == 2 ^ 0 ^ 1
    assert winning_moves(game, state) == [(0, 1), (2, 2)]
    with pytest.raises(InvalidStateError, match="expected 3 components"):
        game.parse_state("a + b1")
    with pytest.raises(InvalidMoveError, match="component number"):
        game.parse_move(state, "a1")
    with pytest.raises(InvalidGameError, match="at least one"):
        Sum([])


def test_the_report_of_a_lost_position() -> None:
    game = graph(edges="a>b b>c")
    answer = report(game, game.parse_state("b;2"))
    assert (answer.position, answer.value, answer.to_move_wins) == ("b", 1, True)
    assert [(w.text, w.after) for w in answer.winning_moves] == [("c", "c")]
    lost = report(game, game.parse_state("a"))
    assert (lost.value, lost.winner, lost.winning_moves) == (0, "the other player", ())


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=24))
def test_parsers_raise_only_zerosum_errors(text: str) -> None:
    graph_game, maze_game = graph(), maze()
    for parse in (
        lambda t: graph(edges=t),
        lambda t: graph(edges="a>b", start=t),
        lambda t: maze(grid=t),
        lambda t: maze(start=t),
        graph_game.parse_state,
        maze_game.parse_state,
        lambda t: graph_game.parse_move(graph_game.initial_state(), t),
        lambda t: maze_game.parse_move(maze_game.initial_state(), t),
        graph_from_json,
    ):
        with contextlib.suppress(ZerosumError):
            parse(text)
