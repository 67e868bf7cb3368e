"""The UCI engine loop, text in and text out: scripted sessions on in-memory streams,
and interactive ones (a line source the test feeds while the engine searches) for
``stop``, ``isready`` and ``quit`` during a search. Every ``bestmove`` is checked legal
with the chess game itself."""

from __future__ import annotations

import io
import itertools
import queue
import statistics
import sys
import threading
import time
from collections.abc import Iterator

import chess
import chess.engine
import pytest

from zerosum.game import WIN
from zerosum.games.chess import Chess, State
from zerosum.protocols.uci import (
    MAX_MULTIPV,
    MAX_SKILL,
    SKILL_BASE_NODES,
    UciEngine,
    format_score,
    skill_nodes,
    table_entries,
)
from zerosum.search.engine import Engine, EngineOptions, Limits

WAIT = 30.0
"""Seconds a test waits for an answer before it fails: generous, for a loaded box."""

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
MATED = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
MATE_IN_TWO = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"
"""Nf6+ gxf6 Bxf7#: a published mate-in-two puzzle; checked by brute force below."""
UCI_COMMAND = [sys.executable, "-m", "zerosum.cli", "uci"]


def session(*lines: str) -> list[str]:
    """Run the engine on ``lines`` to the end of the input; return what it wrote."""
    out = io.StringIO()
    UciEngine(out).run(line + "\n" for line in lines)
    return out.getvalue().splitlines()


def position_of(command: str) -> State:
    """The state a ``position`` command sets, read by the chess game itself."""
    game = Chess()
    words = command.split()[1:]
    if words[0] == "startpos":
        state, rest = game.initial_state(), words[1:]
    else:
        at = words.index("moves") if "moves" in words else len(words)
        state, rest = game.parse_state(" ".join(words[1:at])), words[at:]
    for text in rest[1:]:
        state = game.result(state, game.parse_move(state, text))
    return state


def assert_legal_bestmove(lines: list[str], position: str) -> str:
    """Check the last line is a legal ``bestmove`` in ``position``; return the move."""
    assert lines[-1].startswith("bestmove "), lines
    move = lines[-1].split()[1]
    state = position_of(position)
    game = Chess()
    assert game.parse_move(state, move) in game.actions(state)
    assert game.format_uci(state, game.parse_move(state, move)) == move
    return move


class Live:
    """The engine on a background thread, fed lines one at a time; its output lines are
    collected as they come, each with the time it came."""

    def __init__(self) -> None:
        self.inbox: queue.Queue[str | None] = queue.Queue()
        self.lines: list[tuple[float, str]] = []
        self._seen = threading.Condition()
        self._partial = ""
        self.engine = UciEngine(self)  # type: ignore[arg-type]
        self.thread = threading.Thread(target=self.engine.run, args=(self._feed(),))
        self.thread.start()

    def _feed(self) -> Iterator[str]:
        while (line := self.inbox.get()) is not None:
            yield line

    def write(self, text: str) -> int:
        with self._seen:
            self._partial += text
            *done, self._partial = self._partial.split("\n")
            self.lines.extend((time.perf_counter(), line) for line in done)
            self._seen.notify_all()
        return len(text)

    def flush(self) -> None:
        """Nothing is buffered."""

    def send(self, line: str) -> float:
        """Feed one line; return when it was sent."""
        sent = time.perf_counter()
        self.inbox.put(line + "\n")
        return sent

    def wait_for(self, prefix: str) -> tuple[float, str]:
        """The first output line starting with ``prefix`` (waiting for it)."""
        deadline = time.perf_counter() + WAIT
        with self._seen:
            while True:
                for when, line in self.lines:
                    if line.startswith(prefix):
                        return when, line
                left = deadline - time.perf_counter()
                assert left > 0, f"no {prefix!r} line in {self.lines}"
                self._seen.wait(left)

    def close(self) -> None:
        """End the input and wait for the engine's loop to end."""
        self.inbox.put(None)
        self.thread.join(WAIT)
        assert not self.thread.is_alive()


@pytest.fixture
def live() -> Iterator[Live]:
    engine = Live()
    try:
        yield engine
    finally:
        engine.inbox.put("quit\n")
        engine.close()


def test_a_full_session() -> None:
    lines = session(
        "uci", "isready", "ucinewgame", "position startpos moves e2e4 e7e5", "go depth 3"
    )
    assert lines[0].startswith("id name zerosum ")
    assert lines[1].startswith("id author ")
    options = [line for line in lines if line.startswith("option name ")]
    assert "option name Hash type spin default 16 min 1 max 4096" in options
    assert "option name UCI_Chess960 type check default false" in options
    assert lines[len(options) + 2 :][:2] == ["uciok", "readyok"]
    infos = [line.split() for line in lines if line.startswith("info depth")]
    assert [int(words[2]) for words in infos] == [1, 2, 3]
    for words in infos:
        for field in ("seldepth", "score", "nodes", "nps", "hashfull", "time", "pv"):
            assert field in words
    assert infos[-1][infos[-1].index("pv") + 1] == lines[-1].split()[1]
    assert_legal_bestmove(lines, "position startpos moves e2e4 e7e5")


def test_mate_in_one_is_found_and_scored() -> None:
    lines = session(f"position fen {MATE_IN_ONE}", "go depth 3")
    assert "score mate 1" in lines[-2]
    assert assert_legal_bestmove(lines, f"position fen {MATE_IN_ONE}") == "a1a8"


@pytest.mark.parametrize(
    ("fen", "score"), [(MATED, "info depth 0 score mate 0"), (STALEMATE, "info depth 0 score cp 0")]
)
def test_no_move_to_make(fen: str, score: str) -> None:
    assert session(f"position fen {fen}", "go depth 2") == [score, "bestmove (none)"]


def test_the_score_in_mates_counts_moves_for_either_side() -> None:
    assert format_score(WIN - 1) == "mate 1"
    assert format_score(WIN - 3) == "mate 2"
    assert format_score(-WIN + 2) == "mate -1"
    assert format_score(-WIN + 4) == "mate -2"
    assert format_score(-WIN) == "mate 0"
    assert format_score(-35) == "cp -35"


def test_castling_moves_are_read() -> None:
    moves = "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8"
    assert_legal_bestmove(session(moves, "go depth 1"), moves)


def test_bad_lines_answer_and_the_loop_goes_on() -> None:
    long = "x" * 10_000
    lines = session(
        long,
        "position fen not a fen",
        "position startpos moves e2e4 e2e4",
        "position sideways",
        "setoption name Hash value 0",
        "setoption name Colour value blue",
        "setoption name Threads value 2",
        "isready",
        "go depth x nodes 500 sideways",
    )
    infos = [line for line in lines if line.startswith("info string")]
    assert len(infos) == 9
    assert all(len(line) < 300 for line in infos)
    assert "10,000 characters" in infos[0]
    assert "position unchanged" in infos[2]
    assert "readyok" in lines
    # the bad positions changed nothing: the search is from the start position
    assert_legal_bestmove(lines, "position startpos")


def test_options_are_kept() -> None:
    out = io.StringIO()
    engine = UciEngine(out)
    engine.run(
        [
            "setoption name Hash value 1",
            "setoption name Move Overhead value 10",
            "setoption name Ponder value true",
            "go depth 1",
        ]
    )
    assert engine.options.hash_mb == 1 and engine.options.overhead_ms == 10
    assert engine.options.ponder
    assert out.getvalue().splitlines()[-1].startswith("bestmove ")
    assert table_entries(1) < table_entries(16)


def test_go_movetime_takes_about_that_time() -> None:
    started = time.perf_counter()
    lines = session("position startpos", "go movetime 300")
    elapsed = time.perf_counter() - started
    assert 0.2 < elapsed < 0.3 + WAIT / 10
    assert_legal_bestmove(lines, "position startpos")


def test_go_with_a_clock_stays_inside_it() -> None:
    started = time.perf_counter()
    lines = session("position startpos moves e2e4", "go wtime 1000 btime 1000 winc 100 binc 100")
    assert time.perf_counter() - started < 1.0
    assert_legal_bestmove(lines, "position startpos moves e2e4")


def test_go_nodes_stops_the_search() -> None:
    lines = session("position startpos", "go nodes 2000")
    nodes = [int(line.split()[line.split().index("nodes") + 1]) for line in lines[:-1]]
    assert nodes and max(nodes) <= 2000
    assert_legal_bestmove(lines, "position startpos")


def test_infinite_waits_for_stop_and_stop_answers_at_once(live: Live) -> None:
    live.send("position startpos")
    live.send("go infinite")
    live.wait_for("info depth 2")
    live.send("isready")
    live.wait_for("readyok")  # answered while the search goes on
    assert not any(line.startswith("bestmove") for _, line in live.lines)
    stopped = live.send("stop")
    answered, line = live.wait_for("bestmove ")
    assert answered - stopped < 0.5
    assert_legal_bestmove([line], "position startpos")


def test_infinite_holds_bestmove_after_a_proven_mate(live: Live) -> None:
    live.send(f"position fen {MATE_IN_ONE}")
    live.send("go infinite")
    live.wait_for("info depth 1")
    time.sleep(0.2)
    assert not any(line.startswith("bestmove") for _, line in live.lines)
    live.send("stop")
    assert live.wait_for("bestmove ")[1] == "bestmove a1a8"


def test_ponder_searches_until_ponderhit_then_keeps_the_clock(live: Live) -> None:
    live.send("position startpos moves e2e4")
    live.send("go ponder wtime 2000 btime 2000")
    live.wait_for("info depth 2")
    time.sleep(0.3)
    assert not any(line.startswith("bestmove") for _, line in live.lines)
    hit = live.send("ponderhit")
    answered, line = live.wait_for("bestmove ")
    assert answered - hit < 2.0  # within black's clock, counted from the ponderhit
    assert_legal_bestmove([line], "position startpos moves e2e4")


def test_quit_during_a_search_ends_the_loop(live: Live) -> None:
    live.send("go infinite")
    live.wait_for("info depth 1")
    live.send("quit")
    live.thread.join(WAIT)
    assert not live.thread.is_alive()
    assert_legal_bestmove([live.wait_for("bestmove ")[1]], "position startpos")


def test_a_new_go_stops_the_running_search_first(live: Live) -> None:
    live.send("go infinite")
    live.wait_for("info depth 1")
    live.send("position startpos moves d2d4")
    live.send("go depth 2")
    live.inbox.put(None)
    live.thread.join(WAIT)
    bestmoves = [line for _, line in live.lines if line.startswith("bestmove")]
    assert len(bestmoves) == 2
    assert_legal_bestmove([bestmoves[0]], "position startpos")
    assert_legal_bestmove([bestmoves[1]], "position startpos moves d2d4")


def infos(lines: list[str]) -> list[list[str]]:
    """The words of every ``info depth`` line."""
    return [line.split() for line in lines if line.startswith("info depth")]


def field(words: list[str], name: str) -> str:
    """The word after ``name`` in one ``info`` line."""
    return words[words.index(name) + 1]


def test_the_options_a_gui_sees() -> None:
    options = [line for line in session("uci") if line.startswith("option name ")]
    assert f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}" in options
    assert f"option name Skill Level type spin default {MAX_SKILL} min 0 max {MAX_SKILL}" in options
    assert "option name Threads type spin default 1 min 1 max 1" in options


def test_multipv_lines_carry_each_move_s_exact_score() -> None:
    """At depth 2 every root move's score is the negated depth-1 value of the position
    after it (no transposition within two plies), found by a separate, table-free
    engine: the scores shown are exact, not bounds."""
    lines = session("setoption name MultiPV value 4", "position startpos", "go depth 2")
    found = infos(lines)
    assert [(field(w, "depth"), field(w, "multipv")) for w in found] == [
        (depth, rank) for depth in "12" for rank in "1234"
    ]
    game = Chess()
    start = game.initial_state()
    oracle = Engine(game, EngineOptions(use_table=False))
    last = found[4:]
    firsts = [field(words, "pv") for words in last]
    assert len(set(firsts)) == 4  # four different moves
    scores = [int(field(words, "cp")) for words in last]
    assert scores == sorted(scores, reverse=True)
    for move, score in zip(firsts, scores, strict=True):
        child = game.result(start, game.parse_move(start, move))
        assert -oracle.search(child, Limits(depth=1)).score == score  # type: ignore[operator]
    # every line is legal from the start, and the best one is the bestmove
    for words in last:
        position_of(f"position startpos moves {' '.join(words[words.index('pv') + 1 :])}")
    assert lines[-1] == f"bestmove {firsts[0]}"


def test_go_mate_finds_the_shortest_mate_and_stops() -> None:
    lines = session(f"position fen {MATE_IN_TWO}", "go mate 5")
    last = infos(lines)[-1]
    assert field(last, "mate") == "2"
    assert int(field(last, "depth")) == 3  # stopped once the mate's length was searched
    assert assert_legal_bestmove(lines, f"position fen {MATE_IN_TWO}") == "d5f6"
    # the oracle: python-chess, by brute force, agrees that d5f6 mates in two
    board = chess.Board(MATE_IN_TWO)
    board.push_uci("d5f6")
    assert board.legal_moves.count() > 0
    for reply in list(board.legal_moves):
        board.push(reply)
        assert any(board.is_checkmate() for _ in _after_each(board))
        board.pop()


def _after_each(board: chess.Board) -> Iterator[None]:
    """Yield once with each legal move made on ``board`` (taken back afterwards)."""
    for move in list(board.legal_moves):
        board.push(move)
        yield
        board.pop()


def test_go_mate_without_a_mate_searches_its_depth_and_answers() -> None:
    lines = session("position startpos", "go mate 2")
    assert [field(words, "depth") for words in infos(lines)] == ["1", "2", "3"]
    assert_legal_bestmove(lines, "position startpos")


def test_skill_levels_are_node_budgets_that_grow_with_the_level() -> None:
    assert skill_nodes(MAX_SKILL) is None
    budgets = [n for level in range(MAX_SKILL) if (n := skill_nodes(level)) is not None]
    assert len(budgets) == MAX_SKILL and budgets[0] == SKILL_BASE_NODES
    assert all(a < b for a, b in itertools.pairwise(budgets))
    reached = []
    for level in (0, 8, 16):
        lines = session(f"setoption name Skill Level value {level}", "go depth 30")
        found = infos(lines)
        assert max(int(field(words, "nodes")) for words in found) <= budgets[level]
        reached.append(int(field(found[-1], "depth")))
        assert_legal_bestmove(lines, "position startpos")
    assert reached == sorted(reached) and reached[0] < reached[-1]


def test_ponder_on_names_the_expected_reply() -> None:
    lines = session("setoption name Ponder value true", "position startpos", "go depth 3")
    words = lines[-1].split()
    assert words[0] == "bestmove" and words[2] == "ponder"
    pv = infos(lines)[-1]
    assert pv[pv.index("pv") + 1 : pv.index("pv") + 3] == [words[1], words[3]]
    position_of(f"position startpos moves {words[1]} {words[3]}")


def test_bad_new_values_answer_and_change_nothing() -> None:
    out = io.StringIO()
    engine = UciEngine(out)
    engine.run(
        [
            "setoption name MultiPV value 0",
            f"setoption name MultiPV value {MAX_MULTIPV + 1}",
            "setoption name Skill Level value -1",
            "setoption name Skill Level value max",
            "go depth 1 mate x",
        ]
    )
    lines = out.getvalue().splitlines()
    assert sum(line.startswith("info string") for line in lines) == 5
    assert engine.options.multipv == 1 and engine.options.skill == MAX_SKILL
    assert_legal_bestmove(lines, "position startpos")


def test_stop_is_answered_within_milliseconds(live: Live) -> None:
    """Five stops of a running search: the median answer comes within 20 ms (the
    engine polls about every millisecond; the interpreter switches threads every
    ``sys.getswitchinterval()``, 1 ms under ``zerosum uci``)."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        delays = []
        for _ in range(5):
            live.lines.clear()
            live.send("position startpos")
            live.send("go infinite")
            live.wait_for("info depth 3")
            stopped = live.send("stop")
            answered, line = live.wait_for("bestmove ")
            delays.append(answered - stopped)
            assert_legal_bestmove([line], "position startpos")
    finally:
        sys.setswitchinterval(previous)
    assert statistics.median(delays) < 0.02, delays


@pytest.fixture
def gui() -> Iterator[chess.engine.SimpleEngine]:
    """``zerosum uci`` in its own process, driven by python-chess's engine client."""
    client = chess.engine.SimpleEngine.popen_uci(UCI_COMMAND, timeout=WAIT)
    try:
        yield client
    finally:
        client.quit()


def test_python_chess_reads_multipv_and_mate_scores(gui: chess.engine.SimpleEngine) -> None:
    board = chess.Board(MATE_IN_ONE)
    found = gui.analyse(board, chess.engine.Limit(depth=2), multipv=3)
    assert [info["multipv"] for info in found] == [1, 2, 3]
    assert found[0]["score"].relative == chess.engine.Mate(1)
    assert found[0]["pv"] == [chess.Move.from_uci("a1a8")]
    assert len({info["pv"][0] for info in found}) == 3
    assert all(info["pv"][0] in board.legal_moves for info in found)
    assert all(info["score"].relative < chess.engine.Mate(1) for info in found[1:])
    info = gui.analyse(chess.Board(MATE_IN_TWO), chess.engine.Limit(mate=2))
    assert info["score"].relative == chess.engine.Mate(2)
    assert info["pv"] == [chess.Move.from_uci(m) for m in ("d5f6", "g7f6", "c4f7")]


def test_a_fast_game_never_flags(gui: chess.engine.SimpleEngine) -> None:
    """Both sides, a 1 s + 0.1 s clock each, 80 plies or to the end: the GUI's own
    clocks (wall time from go to bestmove, as python-chess measures it) never run out.
    A short clock is where flagging happens; ``bench`` plays the 10+0.1 games."""
    board = chess.Board()
    clocks = [1.0, 1.0]
    increment = 0.1
    while not board.is_game_over(claim_draw=True) and board.ply() < 80:
        side = 0 if board.turn == chess.WHITE else 1
        limit = chess.engine.Limit(
            white_clock=clocks[0], black_clock=clocks[1], white_inc=increment, black_inc=increment
        )
        started = time.perf_counter()
        played = gui.play(board, limit)
        clocks[side] -= time.perf_counter() - started
        assert clocks[side] > 0, f"flagged at ply {board.ply()}: {clocks}"
        clocks[side] += increment
        assert played.move in board.legal_moves
        board.push(played.move)  # type: ignore[arg-type]


def test_an_increment_game_keeps_a_reserve() -> None:
    """0.6 s left with a 0.1 s increment: five increments and the overhead are kept
    back, leaving 0.05 s usable, a hard budget of 0.025 s; without the reserve the
    clock's budget would allow 0.275 s."""
    started = time.perf_counter()
    lines = session("position startpos", "go wtime 600 btime 600 winc 100 binc 100")
    assert time.perf_counter() - started < 0.2
    assert_legal_bestmove(lines, "position startpos")
