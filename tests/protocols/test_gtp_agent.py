"""GTP engines as agents: a scripted fake engine (``fake_gtp.py``) shows what the client
sends and how each misbehaviour ends a game (time, crash, garbage, illegal moves, a
refused move, a resignation, a command the engine lacks) with the engine's last lines in
the record and no process left behind; zerosum's own engine, ``zerosum gtp`` as a real
subprocess, plays whole games; Debian's ``gtp-rhino`` plays othello when both exist."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from engine_processes import alive, pids, sessions

from zerosum.agents import Agent, ClockReading, SearchAgent
from zerosum.arena import Event, GameTask, TimeControl, play_game, play_task, run_event, tally
from zerosum.game import IllegalMoveError, MissingCapabilityError
from zerosum.games import registry
from zerosum.games.gomoku import Gomoku
from zerosum.games.mnk import tictactoe
from zerosum.protocols.engines import (
    EngineDiedError,
    EngineError,
    EngineIllegalMoveError,
    EngineProtocolError,
    EngineTimeoutError,
)
from zerosum.protocols.gtp import (
    SETUP_NODES,
    GtpAgent,
    GtpCommandError,
    GtpResignedError,
    _line_to,
)
from zerosum.search.engine import Limits
from zerosum.search.reference import minimax
from zerosum.specs import make_agent

pytestmark = pytest.mark.usefixtures("compiled_kernels")  # zerosum runs as a subprocess

FAKE_GTP = Path(__file__).with_name("fake_gtp.py")
ENGINE = f"{sys.executable} -m zerosum.cli gtp"
"""zerosum's own GTP engine, as a controller would start it (the game to add)."""

RHINO = "/usr/games/gtp-rhino"
GAME = tictactoe()


def fake(mode: str, log: Path, after: int = 0) -> list[str]:
    return [sys.executable, str(FAKE_GTP), mode, str(after), str(log)]


def play(*moves: str) -> int:
    """The tic-tac-toe position after ``moves``."""
    state = GAME.initial_state()
    for text in moves:
        state = GAME.result(state, GAME.parse_move(state, text))
    return state


def first(state: int) -> str:
    """The fake engine's move in ``state``: the first legal one."""
    return GAME.format_move(state, GAME.actions(state)[0])


HANDSHAKE = ["protocol_version", "name", "version", "list_commands"]


def test_what_the_client_sends_over_a_game_and_the_next(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = GtpAgent(fake("good", log), time=0.25, name="fake")
    try:
        assert isinstance(agent, Agent)
        assert (agent.engine_name, agent.engine_version) == ("Fake GTP", "good")
        assert "genmove" in agent.commands and "level" not in agent.commands
        start = GAME.initial_state()
        one = agent.choose(GAME, start)
        assert GAME.format_move(start, one) == first(start) == "a3"
        reply = play("a3", "b2")
        assert GAME.format_move(reply, agent.choose(GAME, reply)) == first(reply)
        agent.reset()
        # a new game, the agent playing white: the opponent's first move is replayed
        opened = play("b2")
        assert GAME.format_move(opened, agent.choose(GAME, opened)) == first(opened)
        pid = agent.engine.pid
    finally:
        agent.close()
    (session,) = sessions(log)
    assert session[1:] == [
        *HANDSHAKE,
        "boardsize 3",
        "clear_board",
        "time_settings 0 1 1",  # a quarter of a second a move: GTP's seconds are whole
        "genmove b",
        "play w b2",
        "genmove b",
        "boardsize 3",
        "clear_board",
        "time_settings 0 1 1",
        "play b b2",
        "genmove w",
        "quit",
    ]
    assert pid is not None and not alive(pid)


def test_clocks_go_as_time_settings_and_time_left(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = GtpAgent(fake("good", log))
    try:
        agent.set_clock(ClockReading(60.9, 58.0, moves_to_go=40))
        agent.choose(GAME, GAME.initial_state())
        state = play("a3", "b2")
        agent.set_clock(ClockReading(41.5, 50.0, moves_to_go=39))
        agent.choose(GAME, state)
        agent.reset()
        agent.set_clock(ClockReading(5.99, 5.0, increment=0.1))  # sudden death
        agent.choose(GAME, GAME.initial_state())
        agent.reset()
        agent.choose(GAME, GAME.initial_state())  # no clock, no time: no time at all
    finally:
        agent.close()
    (session,) = sessions(log)
    timed = [line for line in session if line.startswith(("time_", "genmove", "clear"))]
    assert timed == [
        "clear_board",
        "time_settings 0 60 40",  # Canadian byo-yomi: 60 s for 40 moves
        "time_left b 60 40",
        "genmove b",
        "time_left b 41 39",
        "genmove b",
        "clear_board",
        "time_settings 5 0 0",  # absolute time
        "time_left b 5 0",
        "genmove b",
        "clear_board",
        "genmove b",
    ]


def test_responses_with_ids_and_on_several_lines(tmp_path: Path) -> None:
    agent = GtpAgent(fake("ids", tmp_path / "log"))
    try:
        assert agent.engine_name == "Fake GTP"
        assert len(agent.commands) == 11 and "time_left" in agent.commands
        assert agent.choose(GAME, GAME.initial_state()) == GAME.actions(GAME.initial_state())[0]
    finally:
        agent.close()


def test_the_level_is_sent_when_the_engine_lists_it(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = make_agent(f"gtp:cmd={' '.join(fake('level', log))},level=3")
    assert isinstance(agent, GtpAgent)
    try:
        agent.choose(GAME, GAME.initial_state())
    finally:
        agent.close()
    (session,) = sessions(log)
    assert session[1:6] == [*HANDSHAKE, "level 3"]


def test_a_position_it_has_not_seen_is_replayed_from_the_start(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = GtpAgent(fake("good", log))
    try:
        state = play("b2", "a3", "c1")
        assert GAME.format_move(state, agent.choose(GAME, state)) == first(state)
    finally:
        agent.close()
    (session,) = sessions(log)
    # the moves are found again: any line that leads to the position, here its own
    assert session[5:] == [
        "boardsize 3",
        "clear_board",
        "play b b2",
        "play w a3",
        "play b c1",
        "genmove w",
        "quit",
    ]


@pytest.mark.parametrize("plies", range(10))
def test_the_line_found_leads_to_the_position_in_as_many_moves(plies: int) -> None:
    # a game of random moves: the line found must reach it, and be no longer
    state = GAME.initial_state()
    for ply in range(plies):
        if GAME.is_terminal(state):
            break
        moves = GAME.actions(state)
        state = GAME.result(state, moves[(ply * 5 + plies) % len(moves)])
    line = _line_to(GAME, state)
    replayed = GAME.initial_state()
    for move in line:
        replayed = GAME.result(replayed, move)
    assert replayed == state
    assert len(line) == bin(state & 0x3FFFF).count("1")  # one move per stone


def test_a_position_too_far_to_find_is_a_missing_capability() -> None:
    game = Gomoku(15)
    state = game.parse_state("h8 h9 j10 a1")
    with pytest.raises(MissingCapabilityError, match=f"within {SETUP_NODES} positions"):
        _line_to(game, state)


def test_after_a_crash_the_next_move_starts_a_new_engine(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = GtpAgent(fake("crash", log, after=1))
    try:
        assert GAME.format_move(0, agent.choose(GAME, GAME.initial_state())) == "a3"
        state = play("a3", "b2")
        with pytest.raises(EngineDiedError, match="exited with status 3"):
            agent.choose(GAME, state)
        # a new engine, told the game from its start (it crashes only after a move)
        assert agent.choose(GAME, state) in GAME.actions(state)
    finally:
        agent.close()
    first_session, second = sessions(log)
    assert first_session[-1] == "genmove b"
    assert second[5:] == [
        "boardsize 3",
        "clear_board",
        "play b a3",
        "play w b2",
        "genmove b",
        "quit",
    ]


def test_an_engine_that_dies_at_once_fails_its_first_move() -> None:
    agent = make_agent(f"gtp:cmd={sys.executable} -c 'import sys; sys.exit(4)',name=dead")
    assert isinstance(agent, GtpAgent)
    try:
        with pytest.raises(EngineDiedError) as raised:
            agent.choose(GAME, GAME.initial_state())
        # it may be gone before protocol_version is written, or before the answer is read
        assert re.fullmatch(
            r"GTP engine 'dead' exited with status 4: it (cannot take 'protocol_version'|"
            r"stopped before its answer to protocol_version)",
            str(raised.value),
        )
    finally:
        agent.close()


@pytest.mark.parametrize("name", ["connect4", "chess", "nim"])
def test_games_whose_moves_are_not_board_points(tmp_path: Path, name: str) -> None:
    agent = GtpAgent(fake("good", tmp_path / "log"))
    try:
        game = registry.make(name)
        with pytest.raises(MissingCapabilityError, match="GTP"):
            agent.choose(game, game.initial_state())
        with pytest.raises(IllegalMoveError, match="game is over"):
            agent.choose(GAME, play("a3", "a2", "b3", "b2", "c3"))
    finally:
        agent.close()


@pytest.mark.parametrize(
    ("mode", "error", "reason", "said", "shown"),
    [
        ("hang", EngineTimeoutError, "time", "gave no answer to genmove b in time", "'='"),
        ("crash", EngineDiedError, "crash", "exited with status 3: it stopped before",
         "'stderr: fake gtp: bus error'"),
        ("garbage", EngineProtocolError, "crash",
         "answered 'hello there' to genmove b, not a GTP response", "'hello there'"),
        ("banana", EngineProtocolError, "crash", "answered 'banana' to genmove b, not a vertex",
         "'= banana'"),
        ("taken", EngineIllegalMoveError, "illegal", "played B2 after genmove b: ", "'= B2'"),
        ("pass", EngineIllegalMoveError, "illegal", "played pass after genmove b: ", "'= pass'"),
        ("refuse", EngineProtocolError, "crash", "refused play w b2: '? illegal move'",
         "'? illegal move'"),
        ("resign", GtpResignedError, "resign", "resigned (genmove b)", "'= resign'"),
    ],
)  # fmt: skip
def test_a_misbehaving_engine_loses_the_game_with_its_last_lines(
    tmp_path: Path,
    *,
    mode: str,
    error: type[EngineError],
    reason: str,
    said: str,
    shown: str,
) -> None:
    log = tmp_path / "log"
    spec = f"gtp:cmd={' '.join(fake(mode, log, after=1))},time=0.2,wait=1,name=fake"
    # the engine plays first (a3); its opponent always answers b2
    record = play_task(
        GameTask(
            index=0,
            game="tictactoe",
            specs=(spec, "test_gtp_agent.centre_first"),
            seats=(0, 1),
            opening=0,
            moves=(),
            seed=1,
            time_margin=0.5,
        )
    )
    assert record.winner == 1
    # the arena records the engine error's own reason
    assert record.reason == reason == error.reason
    verb = {"crash": "crashed", "resign": "resigned"}.get(reason, "lost")
    assert record.detail.startswith(f"X (fake) {verb}: {error.__name__}: GTP engine 'fake' ")
    assert said in record.detail
    assert "; its last lines: " in record.detail and shown in record.detail
    assert record.moves == ("a3", "b2")
    assert not any(alive(pid) for pid in pids(log))


def test_an_engine_without_the_level_loses_naming_its_commands(tmp_path: Path) -> None:
    log = tmp_path / "log"
    spec = f"gtp:cmd={' '.join(fake('good', log))},level=3,name=fake"
    record = play_task(
        GameTask(
            index=0,
            game="tictactoe",
            specs=(spec, "random"),
            seats=(0, 1),
            opening=0,
            moves=(),
            seed=1,
            time_margin=0.5,
        )
    )
    assert record.winner == 1 and record.reason == "crash" and record.moves == ()
    assert f"{GtpCommandError.__name__}: GTP engine 'fake' lists no command 'level'" in (
        record.detail
    )
    assert "(its commands: boardsize, clear_board, genmove, list_commands" in record.detail
    assert not any(alive(pid) for pid in pids(log))


class CentreFirst:
    """Plays b2 when it is free, else the last empty square."""

    name = "centre"

    def choose(self, game: object, state: int) -> int:
        moves = GAME.actions(state)
        return 4 if 4 in moves else moves[-1]


def centre_first() -> CentreFirst:
    return CentreFirst()


def test_zerosum_engine_never_loses_to_random_with_either_colour() -> None:
    engine = f"gtp:cmd={ENGINE} --game tictactoe --depth 9,name=zerosum-gtp"
    event = Event("match", "tictactoe", (engine, "random"), games=4, seed=3, time_margin=5)
    records = run_event(event, workers=1)
    assert [record.seats for record in records] == [(0, 1), (1, 0)] * 2
    assert [record.reason for record in records] == ["end"] * 4
    wins, draws, losses = tally(records, 0)
    assert losses == 0 and wins + draws == 4 and wins >= 1


def test_zerosum_engine_against_perfect_play_draws_as_tictactoe_is_solved() -> None:
    assert minimax(GAME, GAME.initial_state()).score == 0  # the oracle: a draw
    engine = f"gtp:cmd={ENGINE} --game tictactoe --depth 9,name=zerosum-gtp"
    event = Event("match", "tictactoe", (engine, "engine:depth=9"), games=2, seed=5)
    records = run_event(event, workers=1)
    assert [(record.reason, record.winner) for record in records] == [("end", None)] * 2
    assert all(len(record.moves) == 9 for record in records)


def test_zerosum_engine_plays_gomoku_on_a_clock() -> None:
    engine = f"gtp:cmd={ENGINE} --game gomoku:width=9,name=zerosum-gtp"
    event = Event(
        "match", "gomoku:width=9", (engine, "random"), games=2, seed=3, time_margin=2,
        time_control=TimeControl.parse("4+0.1"),
    )  # fmt: skip
    records = run_event(event, workers=1)
    assert [record.reason for record in records] == ["end", "end"]
    assert tally(records, 0) == (2, 0, 0)


def test_zerosum_engine_plays_othello_as_the_engine_does_in_process_passes_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the engine behind GTP is the engine: at a fixed depth it must play the very moves
    # the in-process one plays, through a game in which one side passes; the pure path
    # on both sides (the variable reaches the GTP process), whose evaluation makes the
    # depth-1 game from this opening pass (the compiled kernel's evaluation differs)
    monkeypatch.setenv("ZEROSUM_KERNELS", "0")
    game = registry.make("othello")
    opening = ("c4", "c5", "f6", "c3")  # from here the depth-1 game has passes
    depth_one = [SearchAgent(Limits(depth=1)), SearchAgent(Limits(depth=1))]
    expected = play_game(game, depth_one, opening).moves
    assert "pass" in expected
    engine = f"gtp:cmd={ENGINE} --game othello --depth 1,name=zerosum-gtp"
    event = Event(
        "match",
        "othello",
        (engine, "engine:depth=1"),
        games=2,
        seed=1,
        time_margin=5,
        openings=(opening,),
    )
    records = run_event(event, workers=1)
    assert [record.reason for record in records] == ["end", "end"]
    assert [record.moves for record in records] == [expected, expected]


def test_one_engine_process_plays_a_game_from_an_opening() -> None:
    agent = make_agent(f"gtp:cmd={ENGINE} --game tictactoe --depth 9")
    assert isinstance(agent, GtpAgent)
    try:
        pid = agent.engine.pid
        # X's a3 and c1 against O's b2, O to move: perfect play never loses from here
        played = play_game(GAME, [make_agent("random", seed=4), agent], ("a3", "b2", "c1"))
        assert played.reason == "end" and played.winner != 0
        assert agent.engine.pid == pid
    finally:
        agent.close()
    assert pid is not None and not alive(pid)


# --------------------------------------------------------------------------- gtp-rhino


def needs_rhino() -> None:
    if not Path(RHINO).exists():
        pytest.skip(f"{RHINO} is not installed (Debian's grhino package)")


def test_gtp_rhino_plays_a_whole_othello_game_through_the_arena() -> None:
    needs_rhino()
    rhino = f"gtp:{RHINO} --level=1,wait=30,name=rhino"
    event = Event("match", "othello", (rhino, "random"), games=2, seed=7, time_margin=5)
    records = run_event(event, workers=1)
    assert [record.reason for record in records] == ["end", "end"]
    assert all(len(record.moves) >= 20 for record in records)


def test_gtp_rhino_from_the_command_line(tmp_path: Path) -> None:
    needs_rhino()
    record = tmp_path / "games.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "zerosum.cli", "match", "othello",
         f"gtp:{RHINO} --level=1,name=rhino", "engine:depth=1", "--games", "2",
         "--workers", "1", "--output", str(record)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    table = [line.split() for line in done.stdout.splitlines()]
    (rhino,) = [row for row in table if row[:1] == ["rhino"]]
    assert rhino[1] == "2"  # two games, each ended by the rules
    lines = record.read_text().splitlines()
    assert len(lines) == 3 and all('"reason": "end"' in line for line in lines[1:])
