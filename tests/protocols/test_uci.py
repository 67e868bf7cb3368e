"""The UCI engine loop, text in and text out: scripted sessions on in-memory streams,
and interactive ones (a line source the test feeds while the engine searches) for
``stop``, ``isready`` and ``quit`` during a search. Every ``bestmove`` is checked legal
with the chess game itself."""

from __future__ import annotations

import io
import queue
import threading
import time
from collections.abc import Iterator

import pytest

from zerosum.game import WIN
from zerosum.games.chess import Chess, State
from zerosum.protocols.uci import UciEngine, format_score, table_entries

WAIT = 30.0
"""Seconds a test waits for an answer before it fails: generous, for a loaded box."""

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
MATED = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"


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
