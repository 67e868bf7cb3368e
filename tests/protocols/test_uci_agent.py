"""UCI engines as agents: a scripted fake engine (``fake_uci.py``) shows what the client
sends and how each misbehaviour ends a game (time, crash, garbage, illegal moves, an
option the engine lacks) with the engine's last lines in the record and no process left
behind; zerosum's own engine, ``zerosum uci`` as a real subprocess, plays whole games."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from engine_processes import alive, sessions

from zerosum.agents import Agent, ClockReading
from zerosum.arena import Event, GameTask, play_game, play_task, run_event, tally
from zerosum.game import IllegalMoveError, MissingCapabilityError
from zerosum.games.chess import Chess, State
from zerosum.games.mnk import tictactoe
from zerosum.protocols.engines import (
    EngineDiedError,
    EngineError,
    EngineIllegalMoveError,
    EngineProtocolError,
    EngineTimeoutError,
)
from zerosum.protocols.uci import UciAgent, UciOptionError, UciScore, _read_score
from zerosum.specs import make_agent

FAKE_UCI = Path(__file__).with_name("fake_uci.py")
ENGINE = f"{sys.executable} -m zerosum.cli uci"
"""zerosum's own UCI engine, as a GUI would start it."""

CHESS = Chess()
FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
ENDGAME = "8/8/8/4k3/8/8/3QK3/8 w - - 0 1"


def fake(mode: str, log: Path, after: int = 0) -> list[str]:
    return [sys.executable, str(FAKE_UCI), mode, str(after), str(log)]


def play(state: State, *moves: str) -> State:
    """The position after ``moves`` from ``state``."""
    for text in moves:
        state = CHESS.result(state, CHESS.parse_move(state, text))
    return state


def first_move(state: State) -> str:
    """The fake engine's move in ``state``: the first legal one."""
    return CHESS.format_uci(state, CHESS.actions(state)[0])


def test_what_the_client_sends_over_a_game_and_the_next(tmp_path: Path) -> None:
    log = tmp_path / "log"
    options = {"hash": "8", "Skill Level": "3"}
    agent = UciAgent(fake("good", log), depth=1, options=options, name="fake")
    try:
        assert isinstance(agent, Agent)
        assert agent.engine_name == "Fake UCI"
        assert sorted(agent.offered.values()) == ["Hash", "Skill Level", "UCI_Chess960"]
        start = CHESS.initial_state()
        one = CHESS.format_uci(start, agent.choose(CHESS, start))
        assert one == first_move(start)
        # only the exact score counts, not the bound of the depth 2 line
        assert agent.last_score == UciScore(centipawns=12, mate=None, depth=1)
        reply = play(start, one, "e7e5")
        assert CHESS.format_uci(reply, agent.choose(CHESS, reply)) == first_move(reply)
        agent.reset()
        endgame = CHESS.parse_state(ENDGAME)
        assert CHESS.format_uci(endgame, agent.choose(CHESS, endgame)) == first_move(endgame)
        pid = agent.engine.pid
    finally:
        agent.close()
    (session,) = sessions(log)
    assert session[1:] == [
        "uci",
        "setoption name Hash value 8",  # the name as the engine spells it
        "setoption name Skill Level value 3",
        "isready",
        "setoption name UCI_Chess960 value false",
        "isready",
        "ucinewgame",
        "isready",
        "position startpos",
        "go depth 1",
        f"position startpos moves {one} e7e5",
        "go depth 1",
        "ucinewgame",
        "isready",
        f"position fen {ENDGAME}",
        "go depth 1",
        "quit",
    ]
    assert pid is not None and not alive(pid)


def test_clocks_go_as_wtime_and_btime_and_time_as_movetime(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = UciAgent(fake("good", log), time=0.25, nodes=500)
    try:
        state = play(CHESS.initial_state(), "e2e4")  # black, the agent, to move
        agent.set_clock(ClockReading(5.0, 7.25, 0.1, 0.2, moves_to_go=20))
        agent.choose(CHESS, state)
        agent.choose(CHESS, state)  # the reading was for one move: movetime again
    finally:
        agent.close()
    (session,) = sessions(log)
    assert [line for line in session if line.startswith("go")] == [
        "go wtime 7250 btime 5000 winc 200 binc 100 movestogo 20 nodes 500",
        "go movetime 250 nodes 500",
    ]


def test_chess960_is_set_for_a_chess960_game(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = UciAgent(fake("good", log), depth=1)
    try:
        game = Chess(chess960=True)
        agent.choose(game, game.initial_state())
    finally:
        agent.close()
    (session,) = sessions(log)
    assert "setoption name UCI_Chess960 value true" in session


def test_an_engine_without_chess960_cannot_play_it(tmp_path: Path) -> None:
    agent = UciAgent(fake("plain", tmp_path / "log"), depth=1, name="plain")
    try:
        game = Chess(chess960=True)
        with pytest.raises(UciOptionError, match="no option 'UCI_Chess960'; it offers: none"):
            agent.choose(game, game.initial_state())
        # standard chess needs no option: the engine (started again) plays it
        agent.choose(CHESS, CHESS.initial_state())
    finally:
        agent.close()


def test_after_a_crash_the_next_move_starts_a_new_engine(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = UciAgent(fake("crash", log, after=1), depth=1)
    try:
        start = CHESS.initial_state()
        one = CHESS.format_uci(start, agent.choose(CHESS, start))
        state = play(start, one, "e7e5")
        with pytest.raises(EngineDiedError, match="exited with status 3"):
            agent.choose(CHESS, state)
        assert agent.choose(CHESS, state) in CHESS.actions(state)  # and a new one crashes
    finally:
        agent.close()
    first, second = sessions(log)
    assert first[-1] == "go depth 1"
    # the new engine is told the position as a FEN: the game's moves went with the old one
    assert second[-5:] == [
        "ucinewgame",
        "isready",
        f"position fen {CHESS.format_state(state)}",
        "go depth 1",
        "quit",
    ]


def test_an_engine_that_dies_at_once_fails_its_first_move() -> None:
    agent = make_agent(f"uci:cmd={sys.executable} -c 'import sys; sys.exit(4)',name=dead")
    assert isinstance(agent, UciAgent)
    try:
        with pytest.raises(EngineDiedError) as raised:
            agent.choose(CHESS, CHESS.initial_state())
        # it may be gone before uci is written, or before the answer is read
        assert re.fullmatch(
            r"UCI engine 'dead' exited with status 4: it (cannot take 'uci'|"
            r"stopped before its uciok)",
            str(raised.value),
        )
    finally:
        agent.close()


def test_games_it_cannot_play(tmp_path: Path) -> None:
    agent = UciAgent(fake("good", tmp_path / "log"), depth=1)
    try:
        game = tictactoe()
        with pytest.raises(MissingCapabilityError, match="FEN with UCI moves"):
            agent.choose(game, game.initial_state())
        with pytest.raises(IllegalMoveError, match="game is over"):
            agent.choose(CHESS, CHESS.parse_state(FOOLS_MATE))
    finally:
        agent.close()


@pytest.mark.parametrize(
    ("mode", "option", "error", "reason", "said", "shown"),
    [
        ("hang", "", EngineTimeoutError, "time", "gave no bestmove in time", "'readyok'"),
        ("crash", "", EngineDiedError, "crash", "exited with status 3: it stopped before",
         "'info depth 2 score mate 3 lowerbound"),
        ("garbage", "", EngineProtocolError, "crash", "answered bestmove 'banana', not a UCI",
         "'bestmove banana'"),
        ("illegal", "", EngineIllegalMoveError, "illegal", "played e2e5: ", "'bestmove e2e5'"),
        ("none", "", EngineIllegalMoveError, "illegal", "played no move ((none))",
         "'bestmove (none)'"),
        ("good", ",Contempt=10", UciOptionError, "crash",
         "offers no option 'Contempt'; it offers: Hash, Skill Level, UCI_Chess960", "'uciok'"),
    ],
)  # fmt: skip
def test_a_misbehaving_engine_loses_the_game_with_its_last_lines(
    tmp_path: Path,
    *,
    mode: str,
    option: str,
    error: type[EngineError],
    reason: str,
    said: str,
    shown: str,
) -> None:
    log = tmp_path / "log"
    spec = f"uci:cmd={' '.join(fake(mode, log, after=1))},depth=1,wait=2,name=fake{option}"
    record = play_task(
        GameTask(
            index=0,
            game="chess",
            specs=(spec, "random"),
            seats=(0, 1),
            opening=0,
            moves=(),
            seed=1,
            time_margin=0.5,
        )
    )
    assert record.winner == 1
    # the arena records the engine error's own reason: no answer in time, an illegal move
    assert record.reason == reason == error.reason
    verb = "crashed" if reason == "crash" else "lost"
    assert record.detail.startswith(f"white (fake) {verb}: {error.__name__}: UCI engine 'fake' ")
    assert said in record.detail
    assert "; its last lines: " in record.detail and shown in record.detail
    assert len(record.moves) == (0 if error is UciOptionError else 2)
    assert not any(alive(int(session[0])) for session in sessions(log))


def test_zerosum_engine_plays_whole_games_against_random_both_colours() -> None:
    engine = f"uci:cmd={ENGINE},depth=2,Hash=1,name=zerosum-uci"
    event = Event("match", "chess", (engine, "random"), games=2, seed=3, time_margin=5)
    records = run_event(event, workers=1)
    assert [record.seats for record in records] == [(0, 1), (1, 0)]
    assert [record.reason for record in records] == ["end", "end"]
    assert tally(records, 0) == (2, 0, 0)


def test_zerosum_engine_against_the_engine() -> None:
    engine = f"uci:cmd={ENGINE},depth=2,name=zerosum-uci"
    event = Event("match", "chess", (engine, "engine:depth=1"), games=1, seed=5, time_margin=5)
    (record,) = run_event(event, workers=1)
    assert record.reason == "end"
    assert len(record.moves) >= 10


def test_one_engine_process_plays_a_game_from_an_opening() -> None:
    agent = make_agent(f"uci:cmd={ENGINE},depth=2,Hash=1")
    assert isinstance(agent, UciAgent)
    try:
        pid = agent.engine.pid
        played = play_game(CHESS, [make_agent("random", seed=4), agent], ("f3", "e5", "g4"))
        assert played.reason == "end" and played.winner == 1 and len(played.moves) == 4
        assert agent.last_score == UciScore(mate=1, depth=2)
        assert agent.engine.pid == pid
    finally:
        agent.close()
    assert pid is not None and not alive(pid)


@pytest.mark.parametrize(
    ("line", "score"),
    [
        ("info depth 7 seldepth 9 score cp -35 nodes 100 pv e2e4 e7e5", UciScore(-35, None, 7)),
        ("info score mate -2 depth 5", UciScore(None, -2, 5)),
        ("info depth 4 multipv 1 score mate 3 pv d1h5", UciScore(None, 3, 4)),
        ("info depth 4 multipv 2 score cp 80", None),  # not the best line
        ("info depth 9 score cp 40 upperbound", None),  # a bound, not a score
        ("info string score cp 5", None),
        ("info depth 3 score cp lots", None),
        ("info currmove e2e4 currmovenumber 1", None),
    ],
)
def test_the_score_read_from_info_lines(line: str, score: UciScore | None) -> None:
    assert _read_score(line.split()) == score
