"""Gomocup brains as agents: scripted fake brains (``fake_brain.py``) show what the client
sends and how each misbehaviour ends a game (time, crash, garbage, illegal moves) with
the brain's last lines in the record and no process left behind; zerosum's own brain,
``zerosum gomocup`` as a real subprocess, plays whole matches."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from engine_processes import alive, pids, sessions

from zerosum.agents import Agent, RandomAgent
from zerosum.arena import Event, GameTask, play_game, play_task, run_event, tally
from zerosum.game import IllegalMoveError, MissingCapabilityError
from zerosum.games.gomoku import Gomoku
from zerosum.games.mnk import tictactoe
from zerosum.protocols.engines import (
    EngineDiedError,
    EngineError,
    EngineIllegalMoveError,
    EngineProtocolError,
    EngineTimeoutError,
)
from zerosum.protocols.gomocup import GomocupAgent
from zerosum.specs import make_agent

pytestmark = pytest.mark.usefixtures("compiled_kernels")  # zerosum runs as a subprocess

FAKE_BRAIN = Path(__file__).with_name("fake_brain.py")
BRAIN = f"{sys.executable} -m zerosum.cli gomocup --quiet"
"""zerosum's own brain, as a manager would start it."""

GAME = Gomoku(9)


def fake(mode: str, log: Path, after: int = 0) -> list[str]:
    return [sys.executable, str(FAKE_BRAIN), mode, str(after), str(log)]


def test_a_gomocup_agent_is_an_agent(tmp_path: Path) -> None:
    agent = GomocupAgent(fake("good", tmp_path / "log"), name="fake")
    try:
        assert isinstance(agent, Agent)
        assert agent.about == 'name="fake", mode="good"'
    finally:
        agent.close()
    assert [session[1:] for session in sessions(tmp_path / "log")] == [["ABOUT", "END"]]


def test_what_the_client_sends_over_a_game_and_the_next(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = GomocupAgent(fake("good", log), time=0.25)
    try:
        state = GAME.initial_state()
        first = agent.choose(GAME, state)
        assert GAME.coordinates(first) == (0, 0)
        state = GAME.result(GAME.result(state, first), GAME.action(4, 4))
        second = agent.choose(GAME, state)
        assert GAME.coordinates(second) == (1, 0)
        # a new game, the agent playing white: the board is restarted, the move is a TURN
        opened = GAME.result(GAME.initial_state(), GAME.action(4, 4))
        assert GAME.coordinates(agent.choose(GAME, opened)) == (0, 0)
    finally:
        agent.close()
    (session,) = sessions(log)
    assert session[1:] == [
        "ABOUT",
        "START 9",
        "INFO timeout_turn 250",
        "INFO timeout_match 0",
        "INFO time_left 2147483647",
        "INFO rule 0",
        "BEGIN",
        "TURN 4,4",
        "RESTART",
        "TURN 4,4",
        "END",
    ]
    assert not alive(int(session[0]))


def test_positions_the_brain_has_not_seen_go_as_a_board(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = GomocupAgent(fake("good", log))
    try:
        opening = GAME.parse_state("e5 a9 b8")  # a9 is 0,0: white's, the agent's own
        move = agent.choose(GAME, opening)
        assert GAME.coordinates(move) == (1, 0)
        again = GAME.result(GAME.result(opening, move), GAME.action(8, 8))
        agent.choose(GAME, again)  # the board plus one stone: a TURN
        setup = GAME.state_from_stones([GAME.action(5, 5), GAME.action(0, 1)], [], 1)
        assert GAME.coordinates(agent.choose(GAME, setup)) == (0, 0)
    finally:
        agent.close()
    (session,) = sessions(log)
    assert session[7:] == [
        "BOARD",
        "4,4,2",
        "0,0,1",
        "1,1,2",
        "DONE",
        "TURN 8,8",
        "RESTART",
        "BOARD",
        "0,1,2",  # a position set up from stones: cell order
        "5,5,2",
        "DONE",
        "END",
    ]


def test_another_board_or_rule_starts_a_new_process(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = GomocupAgent(fake("good", log))
    try:
        agent.choose(GAME, GAME.initial_state())
        wide = Gomoku(9, 11)
        agent.choose(wide, wide.initial_state())
        exact = Gomoku(9, rule="exact5")
        agent.choose(exact, exact.initial_state())
    finally:
        agent.close()
    first, second, third = sessions(log)
    assert first[-2:] == ["BEGIN", "END"]
    assert second[1:3] == ["ABOUT", "RECTSTART 9,11"]
    assert third[1:3] == ["ABOUT", "START 9"]
    assert "INFO rule 1" in third
    assert not any(alive(pid) for pid in pids(log))


def test_a_brain_that_refuses_restart_is_started_afresh(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = GomocupAgent(fake("refuse", log))
    try:
        agent.choose(GAME, GAME.initial_state())
        assert GAME.coordinates(agent.choose(GAME, GAME.initial_state())) == (0, 0)
    finally:
        agent.close()
    first, second = sessions(log)
    assert first[-2:] == ["RESTART", "END"]
    assert second[1:3] == ["ABOUT", "START 9"] and second[-2:] == ["BEGIN", "END"]


def test_after_a_crash_the_next_move_starts_a_new_brain(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = GomocupAgent(fake("crash", log, after=1))
    try:
        state = GAME.result(GAME.initial_state(), agent.choose(GAME, GAME.initial_state()))
        state = GAME.result(state, GAME.action(4, 4))
        with pytest.raises(EngineDiedError, match="exited with status 3"):
            agent.choose(GAME, state)
        move = agent.choose(GAME, state)  # a new brain, told the position as a board
        assert move in GAME.actions(state)
    finally:
        agent.close()
    first, second = sessions(log)
    assert first[-1] == "TURN 4,4"
    assert second[-5:] == ["BOARD", "0,0,1", "4,4,2", "DONE", "END"]


def test_a_brain_that_dies_at_once_fails_its_first_move(tmp_path: Path) -> None:
    agent = make_agent(f"gomocup:cmd={sys.executable} -c 'import sys; sys.exit(4)',name=dead")
    try:
        with pytest.raises(EngineDiedError) as raised:
            agent.choose(GAME, GAME.initial_state())
        # it may be gone before ABOUT is written, or before the answer is read
        assert re.fullmatch(
            r"Gomocup engine 'dead' exited with status 4: it (cannot take 'ABOUT'|"
            r"stopped before its answer to ABOUT)",
            str(raised.value),
        )
    finally:
        agent.close()


def test_games_it_cannot_play(tmp_path: Path) -> None:
    agent = GomocupAgent(fake("good", tmp_path / "log"), name="fake")
    try:
        game = tictactoe()
        with pytest.raises(MissingCapabilityError, match="fake is a Gomocup engine"):
            agent.choose(game, game.initial_state())
        won = GAME.parse_state("a1 a2 b1 b2 c1 c2 d1 d2 e1")
        with pytest.raises(IllegalMoveError, match="game is over"):
            agent.choose(GAME, won)
    finally:
        agent.close()


@pytest.mark.parametrize(
    ("mode", "after", "error", "reason", "said"),
    [
        ("hang", 1, EngineTimeoutError, "time", "gave no answer to TURN 4,4 in time"),
        ("crash", 1, EngineDiedError, "crash", "exited with status 3: it stopped before"),
        ("garbage", 1, EngineProtocolError, "crash", "answered 'hello there' to TURN 4,4"),
        ("taken", 1, EngineIllegalMoveError, "illegal", "played 4,4 after TURN 4,4: the square"),
        ("offboard", 0, EngineIllegalMoveError, "illegal", "played 99,99 after BEGIN: off the"),
    ],
)
def test_a_misbehaving_brain_loses_the_game_with_its_last_lines(
    tmp_path: Path, *, mode: str, after: int, error: type[EngineError], reason: str, said: str
) -> None:
    log = tmp_path / "log"
    spec = f"gomocup:cmd={' '.join(fake(mode, log, after))},time=0.2,wait=1,name=fake"
    # the brain plays first; its opponent always answers e5 (4,4) first
    record = play_task(
        GameTask(
            index=0,
            game="gomoku:width=9",
            specs=(spec, "test_gomocup_agent.center_first"),
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
    assert record.detail.startswith(f"black (fake) {verb}: {error.__name__}: ")
    assert said in record.detail
    assert "; its last lines: " in record.detail and "'OK'" in record.detail
    assert not any(alive(pid) for pid in pids(log))


class CenterFirst:
    """Plays e5 (4,4) when it is free, else the last empty square."""

    name = "center"

    def choose(self, game: Gomoku, state: object) -> int:
        moves = game.actions(state)  # type: ignore[arg-type]
        centre = game.action(4, 4)
        return centre if centre in moves else moves[-1]


def center_first() -> CenterFirst:
    return CenterFirst()


def test_zerosum_brain_plays_whole_games_against_random_both_colours() -> None:
    brain = f"gomocup:cmd={BRAIN},time=0.2,name=brain"
    event = Event("match", "gomoku:width=9", (brain, "random"), games=2, seed=3, time_margin=5)
    records = run_event(event, workers=1)
    assert [record.seats for record in records] == [(0, 1), (1, 0)]
    assert [record.reason for record in records] == ["end", "end"]
    assert tally(records, 0) == (2, 0, 0)


def test_zerosum_brain_against_the_engine_both_colours() -> None:
    brain = f"gomocup:cmd={BRAIN},time=0.2,name=brain"
    event = Event(
        "match", "gomoku:width=9", ("engine:time=0.2", brain), games=2, seed=5, time_margin=5
    )
    records = run_event(event, workers=1)
    assert [record.reason for record in records] == ["end", "end"]
    assert all(len(record.moves) >= 9 for record in records)


def test_one_brain_process_plays_a_game_from_an_opening(tmp_path: Path) -> None:
    agent = GomocupAgent(BRAIN, time=0.2)
    try:
        pid = agent.engine.pid
        played = play_game(GAME, [RandomAgent(4), agent], ("e5", "a1", "b2"), time_margin=5)
        assert played.reason == "end" and played.winner == 1
        assert agent.engine.pid == pid
    finally:
        agent.close()
    assert pid is not None and not alive(pid)
