"""Opening books (zerosum.book, ``zerosum book``): every stored score against plain
minimax or a fresh solve, builds on one and two workers, on Ray, interrupted and resumed,
with a worker killed; the file's checks; ``solve`` and the engine answering from a book;
a player's lines against plain minimax, their reach, resumed and extended."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from zerosum import kernels
from zerosum.agents import SearchAgent
from zerosum.book import (
    ENVIRONMENT_VARIABLE,
    SCHEMA_VERSION,
    Book,
    BookError,
    book_name,
    build,
    build_lines,
    find_book,
)
from zerosum.cli import main
from zerosum.games.connect4 import Connect4
from zerosum.games.registry import make
from zerosum.search.engine import Limits
from zerosum.search.solve import solve, solve_all

SMALL = "connect4:width=4,height=4"
MEDIUM = "connect4:width=5,height=4"


def rows(path: Path) -> list[tuple[int, int, int]]:
    """Every position row of a book file, sorted."""
    with sqlite3.connect(path) as connection:
        return sorted(connection.execute("SELECT key, ply, score FROM positions"))


def reachable(game: Any, plies: int) -> Iterator[tuple[int, Any]]:
    """Every position within ``plies`` moves where the game goes on, with its ply."""
    seen = set()
    frontier = [game.initial_state()]
    for ply in range(plies + 1):
        following = []
        for state in frontier:
            if game.key(state) in seen or game.is_terminal(state):
                continue
            seen.add(game.key(state))
            yield ply, state
            following.extend(game.result(state, move) for move in game.actions(state))
        frontier = following


@pytest.fixture(autouse=True)
def no_default_book(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No book but the ones a test makes: an empty user data folder, no ZEROSUM_BOOK."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)


@pytest.fixture(scope="module")
def medium_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 5x4 book of 6 plies, built in this process."""
    path = tmp_path_factory.mktemp("books") / "medium.sqlite"
    build(MEDIUM, path, 6)
    return path


# ---------------------------------------------------------------- the game's symmetry


def test_mirror_is_an_involution_and_keeps_values() -> None:
    game = make(SMALL)
    values = solve_all(game, distance=True)
    checked = 0
    for _, state in reachable(game, 16):
        mirrored = game.mirror(state)
        assert game.mirror(mirrored) == state
        assert game.canonical_key(state) == game.canonical_key(mirrored)
        assert game.canonical_key(state) == min(game.key(state), game.key(mirrored))
        assert values[game.key(state)] == values[game.key(mirrored)]
        checked += 1
    assert checked > 60_000
    seven = Connect4()
    state = seven.parse_state("1127")
    assert seven.mirror(state) == seven.parse_state("7761")


# ---------------------------------------------------------------- scores against truth


def test_a_whole_small_book_equals_plain_minimax_everywhere(tmp_path: Path) -> None:
    # 4x4 to the last ply: every stored score backed up from the rules alone, checked
    # against solve_all's plain minimax on every position of the game
    path = tmp_path / "whole.sqlite"
    reports = build(SMALL, path, 16)
    game = make(SMALL)
    values = solve_all(game, distance=True)
    expected = {
        (game.canonical_key(state), ply, values[game.key(state)])
        for ply, state in reachable(game, 16)
    }
    assert set(rows(path)) == expected
    assert sum(r.positions for r in reports) == len(expected) == 67_163
    with Book(path) as book:
        assert book.info.plies == 16
        assert book.score(game.initial_state()) == 0  # Tromp: 4x4 is a draw


@pytest.mark.parametrize("compiled", [True, False], ids=["kernel", "pure"])
def test_the_deepest_ply_is_solved_exactly(tmp_path: Path, compiled: bool) -> None:
    if compiled and not kernels.available():
        pytest.skip("numba is not installed (the fast extra)")
    kernels.use_kernels(compiled)
    try:
        path = tmp_path / "deep.sqlite"
        build(SMALL, path, 7)
    finally:
        kernels.use_kernels(None)
    game = make(SMALL)
    values = solve_all(game, distance=True)
    expected = {
        (game.canonical_key(state), ply, values[game.key(state)])
        for ply, state in reachable(game, 7)
    }
    assert set(rows(path)) == expected
    with Book(path) as book:
        assert book.info.solver.endswith("compiled kernel" if compiled else "pure Python")


def test_lookups_equal_fresh_solves_on_random_positions(medium_book: Path) -> None:
    game = make(MEDIUM)
    positions = [state for _, state in reachable(game, 5)]
    rng = random.Random(22)
    with Book(medium_book) as book:
        for state in rng.sample(positions, 8):
            fresh = solve(game, state, root_scores=True)
            assert book.score(state) == fresh.score
            assert book.move_scores(state) == fresh.root_scores
            assert book.score(game.mirror(state)) == fresh.score
        # the deepest ply holds scores, but its moves lead out of the book
        deep = next(state for ply, state in reachable(game, 6) if ply == 6)
        assert book.score(deep) == solve(game, deep).score
        assert book.move_scores(deep) is None
        assert book.score(game.result(deep, 0)) is None


def test_published_scores_come_out_as_solve_prints_them(medium_book: Path) -> None:
    with Book(medium_book) as book:
        game = book.game
        start = game.initial_state()
        scores = book.move_scores(start)
        assert scores is not None
        shown = {
            game.format_move(start, m): game.published_score(start, s) for m, s in scores.items()
        }
    # 5x4 is a draw (Tromp); checked move by move against the solver
    fresh = solve(game, start, root_scores=True)
    assert fresh.root_scores is not None
    assert shown == {
        game.format_move(start, m): game.published_score(start, s)
        for m, s in fresh.root_scores.items()
    }
    assert max(shown.values()) == 0


# ---------------------------------------------------------------- builds


def test_one_and_two_workers_and_a_resumed_build_give_the_same_rows(
    tmp_path: Path, medium_book: Path
) -> None:
    two = tmp_path / "two.sqlite"
    build(MEDIUM, two, 6, workers=2)
    assert rows(two) == rows(medium_book)
    # run again: nothing left to add
    again = build(MEDIUM, two, 6, workers=2)
    assert [r.added for r in again] == [0] * 7
    assert rows(two) == rows(medium_book)
    # deepen a shallower book: its rows are kept, the rest added
    shallow = tmp_path / "shallow.sqlite"
    build(MEDIUM, shallow, 3)
    build(MEDIUM, shallow, 6)
    assert rows(shallow) == rows(medium_book)
    with Book(shallow) as book:
        assert book.info.plies == 6


def command(*argv: str) -> list[str]:
    """The ``zerosum`` command with ``argv``, run by this interpreter."""
    return [
        sys.executable,
        "-c",
        "import sys; from zerosum.cli import main; sys.exit(main())",
        *argv,
    ]


SLOWED_SCORER = """
import time
from zerosum import book
from zerosum.search.solve import solve

made = book._Scorer.__init__


def slowed_scorer(self, spec, choose):
    made(self, spec, choose)
    value = self._value
    if value is None:
        engine = self._engine

        def value(state):
            return solve(self.game, state, best_moves=False, engine=engine).score

    def slowed(state):
        time.sleep(0.01)
        return value(state)

    self._value = slowed


book._Scorer.__init__ = slowed_scorer
"""
"""A ``sitecustomize`` that makes every position of a build take 10 ms more, in the
building process and in each worker however it starts: the build then lasts tens of
seconds, so that a test stops it mid-way for sure, however fast the machine."""


def start_build(path: Path, tmp_path: Path, *extra: str) -> subprocess.Popen[str]:
    """A 5x4 build of 7 plies on two workers in its own process group, slowed down
    (:data:`SLOWED_SCORER`)."""
    site = tmp_path / "slowed"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SLOWED_SCORER)
    paths = [str(site), *filter(None, [os.environ.get("PYTHONPATH")])]
    return subprocess.Popen(
        command(
            "book", "build", MEDIUM, "--plies", "7", "--workers", "2", "--out", str(path), *extra
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(paths)},
    )


def wait_for_rows(path: Path, process: subprocess.Popen[str], ply: int) -> int:
    """Wait until the build has committed some rows of ``ply``; their count."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        if path.exists():
            try:
                with sqlite3.connect(path) as connection:
                    (found,) = connection.execute(
                        "SELECT COUNT(*) FROM positions WHERE ply = ?", (ply,)
                    ).fetchone()
            except sqlite3.OperationalError:  # the tables are not made yet
                found = 0
            if found:
                return int(found)
        time.sleep(0.05)
    raise AssertionError("the build stored nothing in two minutes")


@pytest.fixture(scope="module")
def seven_plies(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[int, int, int]]:
    """The rows of an uninterrupted 5x4 build of 7 plies."""
    path = tmp_path_factory.mktemp("books") / "seven.sqlite"
    build(MEDIUM, path, 7, workers=2)
    return rows(path)


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill"])
def test_an_interrupted_build_resumes_to_the_same_rows(
    tmp_path: Path, seven_plies: list[tuple[int, int, int]], how: signal.Signals
) -> None:
    path = tmp_path / "interrupted.sqlite"
    process = start_build(path, tmp_path)
    try:
        wait_for_rows(path, process, 7)
        os.killpg(process.pid, how)  # Ctrl-C reaches the whole group, as in a terminal
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    if how == signal.SIGINT:
        assert process.returncode == 130, err
    else:
        assert process.returncode == -signal.SIGKILL
    stored = rows(path)
    deepest = sum(1 for _, ply, _ in seven_plies if ply == 7)
    assert 0 < sum(1 for _, ply, _ in stored if ply == 7) < deepest, "not stopped mid-way"
    assert set(stored) <= set(seven_plies)
    with Book(path) as book:
        assert book.info.plies == 0  # not complete
    resumed = subprocess.run(
        command("book", "build", MEDIUM, "--plies", "7", "--workers", "2", "--out", str(path)),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert rows(path) == seven_plies
    with Book(path) as book:
        assert book.info.plies == 7


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux)."""
    listing = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in listing.read_text().split()]


def test_a_dead_worker_costs_only_its_positions(
    tmp_path: Path, seven_plies: list[tuple[int, int, int]]
) -> None:
    if not Path("/proc/self/task").exists():
        pytest.skip("finding the pool's workers needs Linux's /proc")
    path = tmp_path / "survivor.sqlite"
    process = start_build(path, tmp_path)
    try:
        wait_for_rows(path, process, 7)
        workers = children(process.pid)
        assert workers, "no worker process found"
        os.kill(workers[0], signal.SIGKILL)
        _, err = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 0, err
    assert "zerosum: warning: a worker died; its " in err
    assert rows(path) == seven_plies


@pytest.mark.slow
def test_a_build_on_a_local_ray_cluster_gives_the_same_rows(
    tmp_path: Path, medium_book: Path
) -> None:
    pytest.importorskip("ray")
    path = tmp_path / "ray.sqlite"
    build(MEDIUM, path, 6, workers=2, ray_address="local")
    assert rows(path) == rows(medium_book)


def test_ray_missing_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray then raises ImportError
    assert (
        main(
            [
                "book",
                "build",
                SMALL,
                "--plies",
                "5",
                "--ray",
                "local",
                "--out",
                str(tmp_path / "r.sqlite"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "--ray needs Ray, which is not installed" in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------- the file's checks


def test_a_book_of_another_version_or_game_or_no_book_is_refused(
    tmp_path: Path, medium_book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "v2.sqlite"
    other.write_bytes(medium_book.read_bytes())
    with sqlite3.connect(other) as connection:
        connection.execute("UPDATE meta SET value = '2' WHERE name = 'version'")
    with pytest.raises(BookError, match=f"version 2; this zerosum reads version {SCHEMA_VERSION}"):
        Book(other)
    with pytest.raises(BookError, match="is a book of connect4-5x4, not of connect4-4x4"):
        Book(medium_book, make(SMALL))
    big = tmp_path / "big.sqlite"
    code = tmp_path / "code.sqlite"
    code.write_bytes(medium_book.read_bytes())
    with sqlite3.connect(code) as connection:
        connection.execute("UPDATE meta SET value = 'os:system' WHERE name = 'game'")
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_text("not a database\n" * 100)
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()
    cases = [
        (["book", "info", str(other)], "version 2"),
        (["book", "info", str(garbage)], "is not a zerosum book"),
        (["book", "info", str(code)], "names Python code to import, which is not accepted"),
        (["book", "info", str(empty)], "is not a zerosum book"),
        (["book", "info", str(tmp_path / "absent.sqlite")], "no book file"),
        (["book", "probe", str(garbage), "--moves", "33"], "is not a zerosum book"),
        (["solve", MEDIUM, "--book", str(garbage)], "is not a zerosum book"),
        (["solve", SMALL, "--book", str(medium_book)], "not of connect4-4x4"),
        (["book", "build", MEDIUM, "--plies", "2", "--out", str(garbage)], "not a zerosum book"),
        (["book", "build", SMALL, "--plies", "2", "--out", str(medium_book)], "give another file"),
        (
            ["book", "build", "connect4:width=9,height=9", "--plies", "2", "--out", str(big)],
            "keys beyond 63 bits",
        ),
    ]
    for argv, message in cases:
        assert main(argv) == 2, argv
        captured = capsys.readouterr()
        assert message in captured.err and len(captured.err.strip().splitlines()) == 1, argv
    assert garbage.read_text().startswith("not a database")  # never overwritten
    assert not big.exists()  # refused before any file is made


def test_book_info_and_probe_print_the_counts_and_scores(
    medium_book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["book", "info", str(medium_book)]) == 0
    out = capsys.readouterr().out
    assert "game: connect4:width=5,height=4 (connect4-5x4)" in out
    assert f"version: {SCHEMA_VERSION}" in out and "complete to: 6 plies" in out
    game = make(MEDIUM)
    counts = {}
    for ply, state in reachable(game, 6):
        counts.setdefault(ply, set()).add(game.canonical_key(state))
    for ply, keys in counts.items():
        assert f"\n{ply}    {len(keys):,}\n" in out
    assert main(["book", "probe", str(medium_book), "--moves", "33"]) == 0
    lines = capsys.readouterr().out.splitlines()
    state = game.parse_state("33")
    fresh = solve(game, state, root_scores=True)
    assert lines[1] == f"score: {game.published_score(state, fresh.score):+d} (draw)"
    assert main(["book", "probe", str(medium_book), "--moves", "3324415"]) == 0
    out = capsys.readouterr().out
    assert "score: not in the book (it holds every position up to 6 plies)" in out


def test_the_build_command_prints_each_ply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "small.sqlite"
    assert main(["book", "build", SMALL, "--plies", "4", "--workers", "1", "--out", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["ply", "positions", "added", "seconds"]
    assert [line.split()[:3] for line in out.splitlines()[2:7]] == [
        ["0", "1", "1"],
        ["1", "2", "2"],
        ["2", "8", "8"],
        ["3", "26", "26"],
        ["4", "82", "82"],
    ]
    assert f"book: {path} (119 positions" in out


def test_build_goes_to_the_user_books_folder_where_it_is_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["book", "build", SMALL, "--plies", "2", "--workers", "1"]) == 0
    made = tmp_path / "data" / "zerosum" / "books" / "connect4-4x4.sqlite"
    assert made.is_file() and str(made) in capsys.readouterr().out
    game = make(SMALL)
    found = find_book(game)
    assert found is not None and found.info.path == made
    found.close()
    assert find_book(make(MEDIUM)) is None
    assert book_name(make("connect4")) == "connect4-7x6"


def test_zerosum_book_chooses_the_file_or_none(
    medium_book: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = make(MEDIUM)
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(medium_book))
    found = find_book(game)
    assert found is not None and found.info.path == medium_book
    found.close()
    assert find_book(make(SMALL)) is None  # a book of another game is passed over
    folder = tmp_path / "shelf"
    folder.mkdir()
    (folder / "connect4-5x4.sqlite").write_bytes(medium_book.read_bytes())
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(folder))
    found = find_book(game)
    assert found is not None and found.info.path == folder / "connect4-5x4.sqlite"
    found.close()
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "0")
    assert find_book(game) is None
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tmp_path / "typo.sqlite"))
    with pytest.raises(BookError, match=r"ZEROSUM_BOOK names .*, which does not exist"):
        find_book(game)


# ---------------------------------------------------------------- solve and the engine


def parsed(out: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)


def table_rows(out: str) -> dict[str, str]:
    """The move table at the end of solve's output, move to score."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["move", "score"])
    return {line.split()[0]: line.split(None, 1)[1] for line in lines[start + 2 :]}


def test_solve_answers_from_the_book_with_no_search(
    medium_book: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for moves in ("", "3", "3324"):
        argv = ["solve", MEDIUM, "--all", *(["--moves", moves] if moves else [])]
        assert main([*argv, "--book", str(medium_book)]) == 0
        booked = capsys.readouterr().out
        assert main(argv) == 0  # no book found: searched
        searched = capsys.readouterr().out
        assert parsed(booked)["nodes"].startswith("0 ")
        assert not parsed(searched)["nodes"].startswith("0 ")
        for field in ("score", "best moves"):
            assert parsed(booked)[field] == parsed(searched)[field], (moves, field)
        assert table_rows(booked) == table_rows(searched)
        assert parsed(booked)["book"] == f"{medium_book} (every position up to 6 plies)"
    # ZEROSUM_BOOK finds it as --book does
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(medium_book))
    assert main(["solve", MEDIUM, "--all"]) == 0
    assert parsed(capsys.readouterr().out)["nodes"].startswith("0 ")
    monkeypatch.delenv(ENVIRONMENT_VARIABLE)
    # the deepest ply's moves lead out of the book: solved as without one
    assert main(["solve", MEDIUM, "--moves", "332244", "--book", str(medium_book)]) == 0
    out = parsed(capsys.readouterr().out)
    assert "book" not in out and not out["nodes"].startswith("0 ")


def test_the_line_from_the_book_is_a_best_line(
    medium_book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", MEDIUM, "--book", str(medium_book)]) == 0
    shown = parsed(capsys.readouterr().out)
    line = shown["line"].removesuffix(" (as far as the book goes)").split()
    assert len(line) == 6
    game = make(MEDIUM)
    value = solve(game, game.initial_state()).score
    state = game.initial_state()
    for digit in line:  # each move keeps the value, seen from the side to move
        state = game.result(state, int(digit) - 1)
        value = -value
        assert solve(game, state).score == value


def test_the_engine_plays_the_book_move_then_searches(
    medium_book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make(MEDIUM)
    agent = SearchAgent(Limits(depth=2))
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(medium_book))
    state = game.initial_state()
    for _ in range(6):  # every position up to ply 5 has its moves in the book
        move = agent.choose(game, state)
        assert agent.last is not None and agent.last.stats.nodes == 0
        fresh = solve(game, state)
        assert agent.last.score == fresh.score
        assert move in fresh.best_moves
        state = game.result(state, move)
    agent.choose(game, state)  # ply 6: out of the book, searched
    assert agent.last is not None and agent.last.stats.nodes > 0
    plain = SearchAgent(Limits(depth=2), book=False)
    plain.choose(game, game.initial_state())
    assert plain.last is not None and plain.last.stats.nodes > 0


def test_engine_specs_play_from_the_book(
    medium_book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zerosum.specs import make_agent

    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(medium_book))
    game = make(MEDIUM)
    agent = make_agent("engine:depth=1")
    assert isinstance(agent, SearchAgent)
    move = agent.choose(game, game.initial_state())
    assert agent.last is not None and agent.last.stats.nodes == 0
    assert move in solve(game, game.initial_state()).best_moves


# ---------------------------------------------------------------- lines


def line_rows(path: Path) -> list[tuple[int, int]]:
    """Every row of a book's ``lines`` table, sorted."""
    with sqlite3.connect(path) as connection:
        return sorted(connection.execute("SELECT key, child FROM lines"))


def strategy_positions(book: Book, player: int, plies: int) -> Iterator[tuple[int, Any]]:
    """Every position up to ``plies`` that ``player`` reaches playing ``book``'s line moves
    against every reply, where it is to move, with its ply; fails where a line stops."""
    game = book.game
    frontier = {game.key(game.initial_state()): game.initial_state()}
    for ply in range(plies + 1):
        following: dict[int, Any] = {}
        for state in frontier.values():
            if game.to_move(state) == player:
                yield ply, state
                chosen = book.chosen_move(state)
                assert chosen is not None, (ply, game.format_state(state))
                moves = [chosen[0]]
            else:
                moves = list(game.actions(state))
            for move in moves:
                child = game.result(state, move)
                if not game.is_terminal(child):
                    following[game.key(child)] = child
        frontier = following


@pytest.mark.parametrize("compiled", [True, False], ids=["kernel", "pure"])
@pytest.mark.parametrize("player", [0, 1], ids=["first", "second"])
def test_lines_choose_a_best_move_wherever_the_player_moves(
    tmp_path: Path, compiled: bool, player: int
) -> None:
    # 4x4 lines to 10 plies, every score and every chosen move against plain minimax, on
    # every position the player can reach whatever the other side plays
    if compiled and not kernels.available():
        pytest.skip("numba is not installed (the fast extra)")
    kernels.use_kernels(compiled)
    try:
        path = tmp_path / "lines.sqlite"
        reports = build_lines(SMALL, path, 10, player=player)
    finally:
        kernels.use_kernels(None)
    game = make(SMALL)
    values = solve_all(game, distance=True)
    with Book(path) as book:
        assert book.info.lines == ((10, None) if player == 0 else (None, 10))
        assert book.info.plies == 0
        reached = list(strategy_positions(book, player, 10))
        for _, state in reached:
            chosen = book.chosen_move(state)
            assert chosen is not None
            move, score = chosen
            assert score == values[game.key(state)]
            child = game.result(state, move)
            after = values[game.key(child)] if not game.is_terminal(child) else None
            if after is not None:  # the move keeps the value: a win one ply further
                assert score == (-after - 1 if -after > 0 else -after + 1 if -after < 0 else 0)
            else:
                assert game.utility(child, game.to_move(state)) > 0  # a winning move
        # the other side's positions and those off the lines are not the book's
        assert book.chosen_move(game.result(game.initial_state(), 0)) is None or player == 1
    keys = {game.canonical_key(state) for _, state in reached}
    assert {key for key, _ in line_rows(path)} == keys
    assert sum(r.positions for r in reports) == len(keys)
    assert [r.ply for r in reports] == list(range(11))


def test_lines_resume_and_extend_to_the_same_rows(tmp_path: Path) -> None:
    once = tmp_path / "once.sqlite"
    build_lines(MEDIUM, once, 8, player=0)
    steps = tmp_path / "steps.sqlite"
    build_lines(MEDIUM, steps, 4, player=0)
    with Book(steps) as book:
        assert book.info.lines == (4, None)
    build_lines(MEDIUM, steps, 8, player=0)
    assert line_rows(steps) == line_rows(once) and rows(steps) == rows(once)
    # a build stopped in the middle of a ply (each position's two rows are committed
    # together): the rows it had not written come back
    with sqlite3.connect(steps) as connection:
        connection.execute(
            "DELETE FROM lines WHERE key IN (SELECT key FROM positions WHERE ply = 6)"
        )
        connection.execute(
            "DELETE FROM lines WHERE key IN (SELECT key FROM positions WHERE ply = 8)"
        )
        connection.execute("DELETE FROM positions WHERE ply = 8")
    reports = build_lines(MEDIUM, steps, 8, player=0)
    assert line_rows(steps) == line_rows(once) and rows(steps) == rows(once)
    assert [r.added > 0 for r in reports] == [False] * 6 + [True, False, True]
    with Book(steps) as book:
        assert book.info.lines == (8, None)


def test_lines_inside_a_full_book_take_its_best_moves(tmp_path: Path, medium_book: Path) -> None:
    path = tmp_path / "both.sqlite"
    path.write_bytes(medium_book.read_bytes())
    before = rows(path)
    reports = build_lines(MEDIUM, path, 9, player=1)
    game = make(MEDIUM)
    with Book(path) as book:
        assert book.info.plies == 6 and book.info.lines == (None, 9)
        for ply, state in strategy_positions(book, 1, 9):
            chosen = book.chosen_move(state)
            assert chosen is not None
            scores = book.move_scores(state)
            if ply < 6:  # inside the full book: one of its best moves
                assert scores is not None and scores[chosen[0]] == chosen[1]
                assert chosen[1] == max(scores.values())
            elif ply in {7, 9}:
                fresh = solve(game, state, root_scores=True)
                assert chosen[1] == fresh.score and chosen[0] in fresh.best_moves
    assert set(before) <= set(rows(path))  # the full book's rows stay as they were
    assert all(r.positions == 0 for r in reports if r.ply % 2 == 0)


def test_a_book_from_before_lines_reads_and_gains_them(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    build(SMALL, path, 2)
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE lines")
    game = make(SMALL)
    with Book(path) as book:
        assert book.info.lines == (None, None)
        assert book.chosen_move(game.initial_state()) is None
        assert book.move_scores(game.initial_state()) is not None
    build_lines(SMALL, path, 4, player=0)
    with Book(path) as book:
        start = game.initial_state()
        chosen = book.chosen_move(start)
        assert chosen is not None and chosen[1] == 0  # 4x4 is a draw
        replied = game.result(game.result(start, chosen[0]), 0)
        assert book.chosen_move(replied) is not None


def test_the_engine_follows_the_lines_with_no_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "connect4-5x4.sqlite"
    build_lines(MEDIUM, path, 8, player=0)
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(path))
    game = make(MEDIUM)
    rng = random.Random(8)
    for _ in range(3):
        agent = SearchAgent(Limits(depth=1))
        state = game.initial_state()
        for ply in range(0, 9, 2):
            move = agent.choose(game, state)
            assert agent.last is not None and agent.last.stats.nodes == 0, ply
            assert move in solve(game, state).best_moves
            state = game.result(state, move)
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(list(game.actions(state))))
            if game.is_terminal(state):
                break


def test_book_lines_command_info_and_probe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "lines.sqlite"
    argv = ["book", "lines", SMALL, "--player", "second", "--plies", "5", "--out", str(path)]
    assert main([*argv, "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["ply", "positions", "added", "seconds"]
    plies = [line.split()[:2] for line in out.splitlines()[2:8]]
    assert [ply for ply, _ in plies] == ["0", "1", "2", "3", "4", "5"]
    assert [count for ply, count in plies if int(ply) % 2 == 0] == ["0", "0", "0"]
    assert main(["book", "info", str(path)]) == 0
    out = capsys.readouterr().out
    assert "lines of the second player: to 5 plies" in out and "first player" not in out
    game = make(SMALL)
    with Book(path) as book:
        chosen = book.chosen_move(game.parse_state("2"))
    assert chosen is not None
    assert main(["book", "probe", str(path), "--moves", "2"]) == 0
    out = capsys.readouterr().out
    assert (
        f"best move (the book's line): {game.format_move(game.parse_state('2'), chosen[0])}" in out
    )
    with pytest.raises(SystemExit) as leaving:  # argparse's own error
        main([*argv[:3], "--player", "third", "--plies", "2"])
    assert leaving.value.code == 2
    assert "invalid choice: 'third'" in capsys.readouterr().err
