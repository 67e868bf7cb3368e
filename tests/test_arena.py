"""Matches and tournaments: adjudication, schedules, seeds, records, resuming, workers
and the Ray path, on tic-tac-toe with small depth limits so that they stay fast."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from arena_helpers import Interrupted, Quitter, child_processes
from zerosum import notation
from zerosum.agents import Agent, ClockReading, RandomAgent, SearchAgent
from zerosum.arena import (
    Adjudication,
    ArenaError,
    Event,
    GameRecord,
    OpeningError,
    Position,
    RecordError,
    TimeControl,
    TimeControlError,
    adjudications,
    balance_score,
    balanced_openings,
    crosstable,
    describe_opening,
    epd_to_fen,
    load_openings,
    match_estimate,
    match_pairs,
    match_sprt,
    opening_tally,
    parse_opening,
    play_game,
    random_openings,
    read_header,
    read_records,
    run_event,
    sample_openings,
    tally,
)
from zerosum.game import outcome
from zerosum.games import registry
from zerosum.games.mnk import tictactoe
from zerosum.ratings import SprtSettings, sprt
from zerosum.search.engine import Engine, Limits
from zerosum.specs import AgentSpecError

GAME = tictactoe()


class Crasher:
    """Raises on its second move."""

    def __init__(self) -> None:
        self.name = "crasher"
        self.moves = 0

    def choose(self, game: Any, state: Any) -> Any:
        self.moves += 1
        if self.moves == 2:
            raise RuntimeError("out of ideas")
        return game.actions(state)[0]


class Cheater:
    """Plays on the centre every time, taken or not."""

    def __init__(self) -> None:
        self.name = "cheater"

    def choose(self, game: Any, state: Any) -> Any:
        return 4


class Sleeper:
    """Sleeps ``nap`` seconds a move while claiming ``time`` seconds a move."""

    def __init__(self, time: float, nap: float) -> None:
        self.name = "sleeper"
        self.nap = nap

    def choose(self, game: Any, state: Any) -> Any:
        time.sleep(self.nap)
        return game.actions(state)[-1]


def outcomes(records: list[GameRecord]) -> list[tuple[Any, ...]]:
    """What the games were, without the clock readings."""
    return [(r.index, r.seats, r.opening, r.moves, r.winner, r.reason) for r in records]


def replay(moves: tuple[str, ...]) -> Any:
    state = GAME.initial_state()
    for move in moves:
        state = GAME.result(state, GAME.parse_move(state, move))
    return state


def test_play_game_ends_by_the_rules() -> None:
    played = play_game(GAME, [SearchAgent(Limits(depth=9)), SearchAgent(Limits(depth=9))])
    assert (played.winner, played.reason, played.detail) == (None, "end", "")
    final = replay(played.moves)
    assert GAME.is_terminal(final) and outcome(GAME, final) is not None
    assert len(played.move_times) == len(played.moves) == 9
    assert sum(played.time_used) == pytest.approx(sum(played.move_times))


def test_play_game_starts_after_the_opening() -> None:
    played = play_game(GAME, [RandomAgent(1), RandomAgent(2)], opening=("b2", "a1"))
    assert played.moves[:2] == ("b2", "a1")
    assert len(played.move_times) == len(played.moves) - 2


@pytest.mark.parametrize(
    ("agents", "reason", "loser", "detail"),
    [
        ((Crasher(), RandomAgent(1)), "crash", 0, "X (crasher) crashed: RuntimeError: out of"),
        ((RandomAgent(1), Cheater()), "illegal", 1, "O (cheater) played 4, not a legal move"),
    ],
)
def test_rule_breakers_forfeit(agents: Any, reason: str, loser: int, detail: str) -> None:
    played = play_game(GAME, agents)
    assert (played.reason, played.winner) == (reason, 1 - loser)
    assert played.detail.startswith(detail)
    assert not GAME.is_terminal(replay(played.moves))


def test_a_slow_move_forfeits_on_time() -> None:
    agents: list[Agent] = [Sleeper(time=0.001, nap=0.03), RandomAgent(1)]
    played = play_game(GAME, agents, time_limits=(0.001, None), time_margin=0.005)
    assert (played.reason, played.winner, played.moves) == ("time", 1, ())
    assert "took 0.0" in played.detail and "allowed 0.001 s + 0.005 s margin" in played.detail
    generous = play_game(GAME, agents, time_limits=(0.001, None), time_margin=5)
    assert generous.reason == "end"


def test_the_engine_never_loses_to_random() -> None:
    event = Event("match", "tictactoe", ("engine:depth=3", "random"), games=24, seed=3)
    records = run_event(event, workers=1)
    wins, draws, losses = tally(records, 0)
    assert losses == 0 and wins + draws == 24 and wins > draws
    assert {r.reason for r in records} == {"end"}
    estimate = match_estimate(records)
    assert estimate.wins == wins and estimate.elo > 0 and estimate.los > 0.99


def test_the_schedule_alternates_colours_and_plays_every_opening_both_ways() -> None:
    openings = (("b2",), ("a1",), ("c3", "b2"))
    event = Event("tournament", "tictactoe", ("random", "engine:depth=1", "engine:depth=2"), 5)
    event = Event(event.kind, event.game, event.agents, 5, openings, seed=1)
    tasks = event.tasks()
    assert [t.index for t in tasks] == list(range(len(tasks)))
    assert len(tasks) == 5 * 3  # five games for each of three pairings
    for pair in event.pairings():
        games = [t for t in tasks if set(t.seats) == set(pair)]
        assert len(games) == 5
        firsts = [t.seats[0] for t in games]
        assert firsts.count(pair[0]) == 3 and firsts.count(pair[1]) == 2
        for which in (0, 1):
            sides = {t.seats for t in games if t.opening == which}
            assert sides == {pair, pair[::-1]}
    assert {t.moves for t in tasks} == set(openings)
    # a longer event begins with the same games, so a run can be extended
    longer = Event(event.kind, event.game, event.agents, 8, openings, seed=1).tasks()
    assert longer[: len(tasks)] == tasks


def test_the_same_seed_gives_the_same_games_whatever_the_workers() -> None:
    openings = random_openings(GAME, 2, 3, seed=5)
    event = Event("match", "tictactoe", ("random", "engine:depth=1"), 6, openings, seed=5)
    alone = run_event(event, workers=1)
    pooled = run_event(event, workers=2)
    assert outcomes(alone) == outcomes(pooled)
    other = run_event(
        Event("match", "tictactoe", ("random", "engine:depth=1"), 6, openings, seed=6),
        workers=1,
    )
    assert outcomes(other) != outcomes(alone)


def test_misbehaving_agents_are_adjudicated_and_the_match_goes_on(tmp_path: Path) -> None:
    agents = (
        "test_arena.Crasher",
        "random",
        "test_arena.Cheater",
        "test_arena.Sleeper:time=0.001,nap=0.02",
    )
    event = Event("tournament", "tictactoe", agents, games=2, seed=2, time_margin=0.002)
    path = tmp_path / "games.jsonl"
    records = run_event(event, workers=2, output=path)
    assert len(records) == 6 * 2
    for record in records:
        seats = [agents[i].partition(":")[0] for i in record.seats]
        if "test_arena.Crasher" in seats and record.reason == "crash":
            assert seats[1 - record.winner] == "test_arena.Crasher"  # type: ignore[operator]
        if record.reason == "illegal":
            assert seats[1 - record.winner] == "test_arena.Cheater"  # type: ignore[operator]
        if record.reason == "time":
            assert seats[1 - record.winner] == "test_arena.Sleeper"  # type: ignore[operator]
    reasons = {r.reason for r in records}
    assert {"crash", "illegal", "time"} <= reasons
    _, saved = read_records(path)
    assert sorted(saved, key=lambda r: r.index) == records


def test_records_round_trip(tmp_path: Path) -> None:
    event = Event("match", "tictactoe", ("engine:depth=2", "random"), games=4, seed=9)
    path = tmp_path / "match.jsonl"
    records = run_event(event, workers=1, output=path)
    header, saved = read_records(path)
    assert header == json.loads(json.dumps(event.header()))
    assert header["agents"] == ["engine:depth=2", "random"] and header["seed"] == 9
    assert [r.index for r in saved] == [0, 1, 2, 3]
    for record, again in zip(records, saved, strict=True):
        assert GameRecord.from_json(json.loads(record.to_json())) == again
        assert again.moves == record.moves and again.result in ("1-0", "0-1", "1/2-1/2")
        assert outcome(GAME, replay(again.moves)) is not None
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[1])["reason"] == "end"
    with pytest.raises(RecordError, match="not a game record"):
        GameRecord.from_json({"index": 1})


def test_resume_plays_only_the_missing_games(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    first = Event("match", "tictactoe", ("engine:depth=2", "random"), games=4, seed=4)
    run_event(first, workers=1, output=path)
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"type": "game", "index": 4, "sea')  # a run killed mid-line
    played: list[int] = []
    longer = Event("match", "tictactoe", ("engine:depth=2", "random"), games=7, seed=4)
    records = run_event(
        longer,
        workers=1,
        output=path,
        resume=True,
        progress=lambda record, _: played.append(record.index),
    )
    assert played == [4, 5, 6]
    assert [r.index for r in records] == list(range(7))
    assert outcomes(records) == outcomes(run_event(longer, workers=1))
    header, saved = read_records(path)
    assert header["games"] == 7  # the header now describes the longer run
    assert [p.name for p in tmp_path.iterdir()] == ["run.jsonl"]
    assert sorted(r.index for r in saved) == list(range(7))

    def never(*_: object) -> None:
        raise AssertionError("every game is recorded: none should be played")

    again = run_event(longer, workers=1, output=path, resume=True, progress=never)
    assert outcomes(again) == outcomes(records)


def test_resume_refuses_another_event_and_overwriting(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    event = Event("match", "tictactoe", ("engine:depth=1", "random"), games=2, seed=4)
    run_event(event, workers=1, output=path)
    with pytest.raises(RecordError, match="exists"):
        run_event(event, workers=1, output=path)
    other = Event("match", "tictactoe", ("engine:depth=1", "random"), games=2, seed=5)
    with pytest.raises(RecordError, match="seed is 4, this run has 5"):
        run_event(other, workers=1, output=path, resume=True)
    swapped = Event("match", "tictactoe", ("random", "engine:depth=1"), games=2, seed=4)
    with pytest.raises(RecordError, match="agents"):
        run_event(swapped, workers=1, output=path, resume=True)
    with pytest.raises(RecordError, match="no such file"):
        run_event(event, workers=1, output=tmp_path / "missing.jsonl", resume=True)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b'{"type": "hea\xff\n' + path.read_bytes().partition(b"\n")[2])
    for read in (read_header, read_records):
        with pytest.raises(RecordError, match="line 1: not a zerosum record header"):
            read(damaged)
    with pytest.raises(RecordError, match="line 1: not a zerosum record header"):
        run_event(event, workers=1, output=damaged, resume=True)


def test_openings_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "openings.txt"
    path.write_text("# two openings\nb2, a1\n\n  c3 b2 a3  # a comment\n", encoding="utf-8")
    assert load_openings(GAME, path) == (("b2", "a1"), ("c3", "b2", "a3"))
    assert parse_opening(GAME, "5 1") == ("b2", "a3")  # normalised to the game's writing
    path.write_text("b2 a1\nb2 b2\n", encoding="utf-8")
    with pytest.raises(OpeningError, match=r"openings.txt, line 2: .*b2 is taken"):
        load_openings(GAME, path)
    path.write_text("a1 b1 a2 b2 a3\n", encoding="utf-8")
    with pytest.raises(OpeningError, match="line 1: opening 'a1 b1 a2 b2 a3' ends the game"):
        load_openings(GAME, path)
    path.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(OpeningError, match="holds no openings"):
        load_openings(GAME, path)


def test_random_openings_are_seeded_and_leave_the_game_open() -> None:
    openings = random_openings(GAME, 5, 40, seed=1)
    assert openings == random_openings(GAME, 5, 40, seed=1)
    assert openings != random_openings(GAME, 5, 40, seed=2)
    assert all(len(o) == 5 and not GAME.is_terminal(replay(o)) for o in openings)
    assert random_openings(GAME, 5, 60, seed=1)[:40] == openings  # more keeps the first
    assert random_openings(GAME, 0, 2, seed=1) == ((), ())
    with pytest.raises(OpeningError, match="keep ending"):
        random_openings(GAME, 9, 1, seed=1)


def test_events_are_checked() -> None:
    with pytest.raises(ArenaError, match="a person cannot play"):
        Event("match", "tictactoe", ("human", "random"), 2)
    with pytest.raises(ArenaError, match="exactly 2 agents"):
        Event("match", "tictactoe", ("random", "random:seed=1", "random:seed=2"), 2)
    with pytest.raises(ArenaError, match="same name"):
        Event("tournament", "tictactoe", ("random", "random"), 2)
    with pytest.raises(AgentSpecError, match="unknown agent"):
        Event("match", "tictactoe", ("random", "minimax"), 2)
    with pytest.raises(ArenaError, match="at least one game"):
        Event("match", "tictactoe", ("random", "engine"), 0)
    bad_opening = Event("match", "tictactoe", ("random", "engine"), 2, (("z9",),))
    with pytest.raises(OpeningError, match="z9"):
        run_event(bad_opening, workers=1)


def test_crosstable_counts_points_and_games() -> None:
    event = Event("tournament", "tictactoe", ("engine:depth=9", "engine:depth=2", "random"), 4)
    records = run_event(event, workers=1)
    scores, games = crosstable(records, 3)
    assert games == [[0, 4, 4], [4, 0, 4], [4, 4, 0]]
    for i in range(3):
        for j in range(3):
            if i != j:
                assert scores[i][j] + scores[j][i] == 4
    assert tally(records, 0) == (
        sum(r.winner is not None and r.seats[r.winner] == 0 for r in records),
        sum(r.winner is None and 0 in r.seats for r in records),
        0,  # the perfect player never loses
    )


def test_ray_runs_the_same_games_on_a_local_cluster() -> None:
    pytest.importorskip("ray")
    event = Event("match", "tictactoe", ("engine:depth=2", "random"), games=6, seed=8)
    start = time.perf_counter()
    remote = run_event(event, workers=2, ray=True)
    elapsed = time.perf_counter() - start
    assert outcomes(remote) == outcomes(run_event(event, workers=1))
    assert elapsed < 120, f"the local Ray run took {elapsed:.1f} s"


# --------------------------------------------------------------------------- surviving agents


def test_an_agent_calling_sys_exit_loses_by_crash_but_ctrl_c_stops_the_game() -> None:
    played = play_game(GAME, [RandomAgent(1), Quitter("had enough")])
    assert (played.reason, played.winner, len(played.moves)) == ("crash", 0, 1)
    assert played.detail == "O (quitter) crashed: SystemExit: had enough"
    with pytest.raises(KeyboardInterrupt):
        play_game(GAME, [Interrupted(), RandomAgent(1)])


def recorded(path: Path) -> list[GameRecord]:
    """The records of a file, by index."""
    return sorted(read_records(path)[1], key=lambda r: r.index)


@pytest.fixture
def reaped() -> Iterator[None]:
    """Check that a test leaves no child process behind, not even a zombie."""
    before = child_processes()
    yield
    assert child_processes() <= before


@pytest.mark.usefixtures("reaped")
def test_sys_exit_in_a_worker_is_a_crash_and_the_match_goes_on(tmp_path: Path) -> None:
    event = Event("match", "tictactoe", ("arena_helpers.Quitter:code=3", "random"), 4, seed=1)
    records = run_event(event, workers=2, output=tmp_path / "m.jsonl")
    assert [(r.reason, r.points(0)) for r in records] == [("crash", 0.0)] * 4
    assert all(r.detail.endswith("crashed: SystemExit: 3") for r in records)
    assert tally(records, 1) == (4, 0, 0)
    assert recorded(tmp_path / "m.jsonl") == records


def killer(marker: Path, always: bool = False) -> str:
    """The spec of an agent that kills its worker process (once, or ``always``)."""
    return f"arena_helpers.Killer:marker={marker},always={int(always)},name=killer"


@pytest.mark.usefixtures("reaped")
def test_a_killed_worker_is_replaced_and_its_games_played_again(tmp_path: Path) -> None:
    marker = tmp_path / "killed"
    event = Event("match", "tictactoe", (killer(marker), "engine:depth=1"), games=6, seed=2)
    warnings: list[str] = []
    records = run_event(event, workers=2, output=tmp_path / "m.jsonl", warn=warnings.append)
    assert marker.exists()  # a worker was killed...
    assert len(warnings) == 1 and warnings[0].startswith("a worker process died during game")
    # ...and every game was played as if none had been: the killer plays on once marked
    assert outcomes(records) == outcomes(run_event(event, workers=1))
    assert {r.reason for r in records} == {"end"}
    assert recorded(tmp_path / "m.jsonl") == records


@pytest.mark.usefixtures("reaped")
def test_a_game_whose_worker_dies_twice_is_void_and_not_scored(tmp_path: Path) -> None:
    agents = (killer(tmp_path / "unused", always=True), "random", "engine:depth=1")
    event = Event("tournament", "tictactoe", agents, games=2, seed=3)
    warnings: list[str] = []
    path = tmp_path / "t.jsonl"
    records = run_event(event, workers=2, output=path, warn=warnings.append)
    assert [r.index for r in records] == list(range(6))
    void = [r for r in records if 0 in r.seats]
    assert len(void) == 4 and all(r.void for r in void)
    for record in void:
        assert (record.reason, record.result, record.winner) == ("error", "*", None)
        assert record.moves == () and record.points(0) == record.points(record.seats[1]) == 0
        assert "died twice" in record.detail
    assert {r.reason for r in records if 0 not in r.seats} == {"end"}
    assert sum("is void" in w for w in warnings) == 4
    assert tally(records, 0) == (0, 0, 0)
    wins, draws, losses = tally(records, 1)
    assert wins + draws + losses == 2  # only the two games against the engine count
    scores, games = crosstable(records, 3)
    assert games == [[0, 0, 0], [0, 0, 2], [0, 2, 0]]
    assert scores[1][2] + scores[2][1] == 2
    assert adjudications(records) == {"error": 4}
    assert recorded(path) == records  # a void record reads back as written
    with pytest.raises(RecordError, match="void game won"):
        GameRecord.from_json({**json.loads(void[0].to_json()), "winner": 0})


# --------------------------------------------------------------------------- pairs and stopping


def game(index: int, seats: tuple[int, int], winner: int | None, reason: str = "end") -> GameRecord:
    """A record of game ``index`` of a match, with no moves."""
    return GameRecord(index, seats, index // 2, (), winner, reason, "", (0.0, 0.0), (), index)


def test_match_pairs_count_complete_pairs_only() -> None:
    records = [
        game(5, (1, 0), 0),  # with game 4: agent 1 won both, agent 0 scored 0
        game(0, (0, 1), 0),  # with game 1: a win and a draw, 3/2
        game(1, (1, 0), None),
        game(2, (0, 1), 0),  # game 3 is void: the pair is left out
        game(3, (1, 0), None, reason="error"),
        game(4, (0, 1), 1),
        game(6, (0, 1), 0),  # the odd last game has no partner
        game(9, (1, 0), 1),  # nor has a game whose partner is still running
    ]
    pairs = match_pairs(records)
    assert pairs.counts == (1, 0, 0, 1, 0)
    settings = SprtSettings(0, 5)
    assert match_sprt(records, settings) == sprt([1, 0, 0, 1, 0], settings)


def test_stop_ends_the_event_once_the_running_games_finish(tmp_path: Path) -> None:
    event = Event("match", "tictactoe", ("engine:depth=1", "random"), games=10, seed=2)
    asked: list[int] = []

    def after_three(records: list[GameRecord]) -> bool:
        asked.append(len(records))
        return len(records) >= 3

    alone = run_event(event, workers=1, output=tmp_path / "one.jsonl", stop=after_three)
    assert [r.index for r in alone] == [0, 1, 2] and asked == [1, 2, 3]
    assert read_records(tmp_path / "one.jsonl")[1] == alone
    # two workers: the game running when the first one ends still finishes and is saved
    pooled = run_event(event, workers=2, output=tmp_path / "two.jsonl", stop=lambda _: True)
    assert [r.index for r in pooled] == [0, 1]
    saved = read_records(tmp_path / "two.jsonl")[1]  # in the order the games ended
    assert sorted(saved, key=lambda r: r.index) == pooled
    assert outcomes(pooled) == outcomes(alone[:2])
    # resuming a run that should stop plays nothing; one that should not goes on
    played: list[int] = []
    again = run_event(
        event,
        workers=1,
        output=tmp_path / "one.jsonl",
        resume=True,
        stop=after_three,
        progress=lambda record, _: played.append(record.index),
    )
    assert again == alone and played == []
    more = run_event(
        event, workers=1, output=tmp_path / "one.jsonl", resume=True, stop=lambda r: len(r) >= 5
    )
    assert [r.index for r in more] == [0, 1, 2, 3, 4]


# --------------------------------------------------------------------------- damaged files


def damage(path: Path) -> list[bytes]:
    """Spoil a record file of four games the ways a crash or a careless edit would: a
    line of bytes that are not UTF-8, game 1 recorded twice, a line of JSON garbage, and
    a last line cut short. Return the lines of the records left intact."""
    header, *games = path.read_bytes().splitlines(keepends=True)
    assert len(games) == 4
    spoilt = [header, games[0], b"\xff\xfe\x00 garbage\n", games[1], games[1], b"[1, 2\n"]
    path.write_bytes(b"".join([*spoilt, games[3], games[2][:20]]))
    return [games[0], games[1], games[3]]


def test_damaged_lines_are_skipped_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "run.jsonl"
    event = Event("match", "tictactoe", ("engine:depth=2", "random"), games=4, seed=4)
    records = run_event(event, workers=1, output=path)
    intact = damage(path)
    warnings: list[str] = []
    header, read = read_records(path, warn=warnings.append)
    assert header == read_header(path) == json.loads(json.dumps(event.header()))
    assert [r.index for r in read] == [0, 1, 1, 3]
    assert [r.to_json().encode() + b"\n" for r in read] == [*intact[:2], *intact[1:]]
    assert read[0] == records[0] and read[-1] == records[3]
    assert warnings == [
        f"{path}: skipped 3 damaged line(s): line 3 (not UTF-8), line 6 (not JSON), "
        f"line 8 (cut short)"
    ]
    with caplog.at_level(logging.WARNING, logger="zerosum.arena"):
        read_records(path)  # without a warn function, the module's logger says it
    assert [r.getMessage() for r in caplog.records] == warnings


def test_resume_repairs_a_damaged_file_without_duplicate_lines(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    event = Event("match", "tictactoe", ("engine:depth=2", "random"), games=4, seed=4)
    run_event(event, workers=1, output=path)
    damage(path)
    longer = Event("match", "tictactoe", ("engine:depth=2", "random"), games=6, seed=4)
    warnings: list[str] = []
    played: list[int] = []
    records = run_event(
        longer,
        workers=1,
        output=path,
        resume=True,
        warn=warnings.append,
        progress=lambda record, _: played.append(record.index),
    )
    assert played == [2, 4, 5]  # the game whose lines were damaged, and the new ones
    assert len(warnings) == 2 and "skipped 3 damaged line(s)" in warnings[0]
    assert warnings[1] == f"{path}: dropped 1 repeated record(s) of a game"
    assert outcomes(records) == outcomes(run_event(longer, workers=1))

    def lines() -> list[Any]:
        raw = path.read_bytes()
        assert raw.endswith(b"\n")
        return [json.loads(line) for line in raw.decode("utf-8").splitlines()]

    saved = lines()
    assert len(saved) == 1 + 6 and saved[0]["games"] == 6
    assert sorted(line["index"] for line in saved[1:]) == list(range(6))
    before = path.read_bytes()
    warnings.clear()
    again = run_event(longer, workers=1, output=path, resume=True, warn=warnings.append)
    assert outcomes(again) == outcomes(records) and warnings == []
    assert path.read_bytes() == before  # a second resume changes nothing
    run_event(
        Event("match", "tictactoe", longer.agents, games=7, seed=4),
        output=path,
        workers=1,
        resume=True,
    )
    assert len(lines()) == 1 + 7


def test_an_agent_error_may_say_how_it_lost() -> None:
    class LateError(ValueError):
        reason = "time"

    class OddError(ValueError):
        reason = "end"  # not a reason an agent may give: a crash

    class Raiser:
        name = "raiser"

        def __init__(self, error: Exception) -> None:
            self.error = error

        def choose(self, game: Any, state: Any) -> Any:
            raise self.error

    for error, reason in ((LateError("no answer"), "time"), (OddError("hm"), "crash")):
        played = play_game(tictactoe(), (Raiser(error), RandomAgent(1)))
        assert (played.winner, played.reason) == (1, reason)
        assert played.detail.endswith(f"{type(error).__name__}: {error}")


# --------------------------------------------------------------------------- clocks


@pytest.mark.parametrize(
    ("text", "control"),
    [
        ("40/60+0.6", TimeControl(60, 0.6, 40)),
        ("10+0.1", TimeControl(10, 0.1)),
        ("5", TimeControl(5)),
        (" 1/0.25 ", TimeControl(0.25, 0, 1)),
        ("1.5e2+.5", TimeControl(150, 0.5)),
    ],
)
def test_time_controls_parse_and_format_round_trip(text: str, control: TimeControl) -> None:
    assert TimeControl.parse(text) == control
    assert TimeControl.parse(control.format()) == control


def test_time_controls_format_as_people_write_them() -> None:
    assert TimeControl(60, 0.6, 40).format() == "40/60+0.6"
    assert TimeControl(10, 0.1).format() == "10+0.1"
    assert TimeControl(0.1 + 0.2).format() == "0.30000000000000004"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "expected [MOVES/]BASE[+INCREMENT]"),
        ("ten", "expected [MOVES/]BASE[+INCREMENT]"),
        ("10+", "expected"),
        ("/10", "expected"),
        ("-1+2", "expected"),
        ("10+-1", "expected"),
        ("nan", "expected"),
        ("0+1", "base above 0"),
        ("0/10+1", "period must be 1 move or more"),
    ],
)
def test_bad_time_controls_are_one_line_errors(text: str, says: str) -> None:
    with pytest.raises(TimeControlError) as caught:
        TimeControl.parse(text)
    message = str(caught.value)
    assert says in message and "\n" not in message
    assert message.startswith(f"time control {text!r}" if text else "time control ''")


class Stopwatch:
    """Plays the first legal move at once and keeps every clock reading it is told."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.readings: list[ClockReading] = []

    def set_clock(self, reading: ClockReading) -> None:
        self.readings.append(reading)

    def choose(self, game: Any, state: Any) -> Any:
        return game.actions(state)[0]


def test_clocks_take_the_time_used_add_the_increment_and_refill_each_period() -> None:
    first, second = Stopwatch("a"), Stopwatch("b")
    played = play_game(GAME, [first, second], time_control=TimeControl(10, 1, moves=2))
    assert played.reason == "end" and played.winner == 0  # a1 b1 c1 a2 b2 c2 a3: X wins
    seen = [(r.own, r.opponent, r.increment, r.moves_to_go) for r in first.readings]
    expected = [(10, 10, 1, 2), (11, 11, 1, 1), (22, 22, 1, 2), (23, 23, 1, 1)]
    assert seen == [pytest.approx(e, abs=0.05) for e in expected]
    assert [r.own for r in second.readings] == pytest.approx([10, 11, 22], abs=0.05)
    assert played.clocks == pytest.approx((34, 23), abs=0.05)  # X's 4th move ends a period
    assert played.clocks is not None
    assert sum(played.clocks) == pytest.approx(57 - sum(played.time_used))


def test_a_side_whose_clock_runs_out_loses_on_time() -> None:
    agents: list[Agent] = [RandomAgent(1), Sleeper(time=0, nap=0.3)]
    played = play_game(GAME, agents, time_control=TimeControl(0.2), time_margin=0.05)
    assert (played.reason, played.winner, len(played.moves)) == ("time", 0, 1)
    assert played.detail.startswith("O (sleeper) ran out of time: its clock fell to -0.")
    assert "past the 0.05 s margin (clocks: X (random) 0.2" in played.detail
    assert played.clocks is not None and played.clocks[1] < -0.05


def test_per_move_limits_give_way_to_the_clock() -> None:
    agents: list[Agent] = [Sleeper(time=0.001, nap=0.03), RandomAgent(1)]
    played = play_game(
        GAME, agents, time_limits=(0.001, None), time_margin=0.005, time_control=TimeControl(60)
    )
    assert played.reason == "end"


@pytest.mark.parametrize(("game", "control"), [("tictactoe", "10+0.1"), ("connect4", "1+0.01")])
def test_engines_never_flag(tmp_path: Path, game: str, control: str) -> None:
    event = Event(
        "match",
        game,
        ("engine", "engine:killers=off"),
        games=2,
        seed=5,
        time_control=TimeControl.parse(control),
    )
    records = run_event(event, output=tmp_path / "m.jsonl", workers=1)
    assert [r.reason for r in records] == ["end", "end"]
    for record in records:
        assert record.clocks is not None and min(record.clocks) > 0
    header, again = read_records(tmp_path / "m.jsonl")
    assert header["time_control"] == control
    assert again == records


def test_the_time_control_defines_the_event_and_old_files_still_resume(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    plain = Event("match", "tictactoe", ("engine:depth=2", "random"), games=2, seed=1)
    run_event(plain, output=path, workers=1)
    header = read_header(path)
    assert "time_control" not in header and "adjudication" not in header
    assert all(r.clocks is None and "clocks" not in r.to_json() for r in read_records(path)[1])
    clocked = Event(
        "match",
        "tictactoe",
        ("engine:depth=2", "random"),
        games=2,
        seed=1,
        time_control=TimeControl(5),
    )
    with pytest.raises(RecordError, match="time_control is None, this run has '5'"):
        run_event(clocked, output=path, resume=True, workers=1)
    longer = Event("match", "tictactoe", ("engine:depth=2", "random"), games=4, seed=1)
    assert len(run_event(longer, output=path, resume=True, workers=1)) == 4


# --------------------------------------------------------------------------- scores


class Confident:
    """Plays the first legal move and reports the same score every time, as the engine's
    ``last`` result would."""

    def __init__(self, name: str, score: int | None) -> None:
        self.name = name
        self.last = SimpleNamespace(score=score)

    def choose(self, game: Any, state: Any) -> Any:
        return game.actions(state)[0]


def test_both_sides_must_agree_for_the_resignation_moves() -> None:
    rules = Adjudication(resign_score=300, resign_moves=2)
    played = play_game(GAME, [Confident("up", 500), Confident("down", -300)], adjudication=rules)
    assert (played.winner, played.reason, len(played.moves)) == (0, "adjudicated", 4)
    assert played.detail == (
        "O (down) resigned: both agents scored it lost by 300 or more for 2 moves each "
        "(X (up): 500 500; O (down): -300 -300)"
    )
    for scores in ((500, -299), (500, None), (299, -500)):
        agents = [Confident("up", scores[0]), Confident("down", scores[1])]
        assert play_game(GAME, agents, adjudication=rules).reason == "end"
    assert play_game(GAME, [Confident("a", 500), RandomAgent(1)], adjudication=rules).reason == (
        "end"
    )


def test_the_engine_resigns_a_lost_tictactoe_and_draws_an_even_one() -> None:
    engines = [SearchAgent(Limits(depth=9)), SearchAgent(Limits(depth=9))]
    # O answering the centre on an edge loses by force, and both engines see it
    lost = play_game(
        GAME, engines, ("b2", "b1"), adjudication=Adjudication(resign_score=100, resign_moves=1)
    )
    assert (lost.winner, lost.reason, len(lost.moves)) == (0, "adjudicated", 4)
    assert lost.detail.startswith("O (engine (depth 9)) resigned")
    even = Adjudication(draw_score=0, draw_moves=2, draw_after=5)
    drawn = play_game(GAME, engines, adjudication=even)
    assert (drawn.winner, drawn.reason, len(drawn.moves)) == (None, "adjudicated", 5)
    assert drawn.detail.startswith("drawn: both agents scored the game within 0 of even")
    assert play_game(GAME, engines).reason == "end"  # off by default


def test_adjudicated_games_are_recorded_and_counted(tmp_path: Path) -> None:
    rules = Adjudication(draw_score=0, draw_moves=1)
    event = Event(
        "match", "tictactoe", ("engine:depth=9", "engine:depth=8"), games=2, adjudication=rules
    )
    records = run_event(event, output=tmp_path / "m.jsonl", workers=1)
    assert [r.reason for r in records] == ["adjudicated", "adjudicated"]
    assert tally(records, 0) == (0, 2, 0)
    assert adjudications(records) == {"adjudicated": 2}
    header, again = read_records(tmp_path / "m.jsonl")
    assert header["adjudication"]["draw_score"] == 0 and again == records


def test_the_move_limit_draws_a_game_still_going_and_no_finished_one() -> None:
    agents = [RandomAgent(1), RandomAgent(2)]
    capped = play_game(GAME, agents, ("a1", "b1"), adjudication=Adjudication(max_moves=4))
    assert (capped.winner, capped.reason, len(capped.moves)) == (None, "adjudicated", 4)
    assert capped.detail == "drawn: the move limit of 4"
    # X wins with its fifth move, the ninth of the game: the game's own end comes first
    won = play_game(
        GAME,
        agents,
        ("a1", "b1", "a2", "b2", "c3", "c2", "b3", "c1", "a3"),
        adjudication=Adjudication(max_moves=9),
    )
    assert (won.winner, won.reason) == (0, "end")
    assert Adjudication(max_moves=4).to_json()["max_moves"] == 4
    assert "max_moves" not in Adjudication(draw_score=0).to_json()  # old headers read alike


def test_bad_adjudications_are_refused() -> None:
    with pytest.raises(ArenaError, match="resign_score must be 0 or more"):
        Adjudication(resign_score=-1)
    with pytest.raises(ArenaError, match="must be at least 1"):
        Adjudication(draw_score=5, draw_moves=0)
    with pytest.raises(ArenaError, match="max_moves must be at least 1"):
        Adjudication(max_moves=0)


# --------------------------------------------------------------------------- opening suites

CHESS = registry.make("chess")

# two short chess positions as EPD: the halfmove clocks near 100 end every random game
# within a few plies by the fifty-move rule (or by material), and the operations the
# arena ignores (bm, id) come before and after the counters it reads
SUITE = (
    '4k3/8/8/8/8/8/8/R3K3 w - - bm Ra8+; hmvc 98; fmvn 60; id "rook";\n'
    "# a comment line\n"
    '7k/8/8/3q4/8/8/8/K7 b - - id "queen"; hmvc 99;\n'
)
SUITE_FENS = ("4k3/8/8/8/8/8/8/R3K3 w - - 98 60", "7k/8/8/3q4/8/8/8/K7 b - - 99 1")


def test_epd_to_fen_reads_the_counters_and_ignores_other_operations() -> None:
    assert epd_to_fen('8/8/8/8/8/8/8/K1k5 w - - id "x"; fmvn 7; bm Kb1;') == (
        "8/8/8/8/8/8/8/K1k5 w - - 0 7"
    )
    assert epd_to_fen("8/8/8/8/8/8/8/K1k5 b - - 3 9") == "8/8/8/8/8/8/8/K1k5 b - - 3 9"
    with pytest.raises(OpeningError, match="four FEN fields"):
        epd_to_fen("8/8/8 w")


def test_an_epd_suite_plays_each_position_with_colours_swapped(tmp_path: Path) -> None:
    path = tmp_path / "suite.epd"
    path.write_text(SUITE, encoding="utf-8")
    openings = load_openings(CHESS, path)
    assert openings == tuple(Position(fen) for fen in SUITE_FENS)
    event = Event("match", "chess", ("random", "random:name=other"), 4, openings, seed=3)
    assert event.header()["openings"] == [{"position": fen} for fen in SUITE_FENS]
    output = tmp_path / "games.jsonl"
    first = Event(event.kind, event.game, event.agents, 2, openings, seed=3)
    run_event(first, output=output, workers=1)
    # the other two games are played by worker processes, from the strings of the file
    records = run_event(event, output=output, resume=True, workers=2)
    assert [(r.opening, r.seats, r.start) for r in records] == [
        (0, (0, 1), SUITE_FENS[0]),
        (0, (1, 0), SUITE_FENS[0]),
        (1, (0, 1), SUITE_FENS[1]),
        (1, (1, 0), SUITE_FENS[1]),
    ]
    assert sorted(read_records(output)[1], key=lambda r: r.index) == records
    for record in records:
        state = CHESS.parse_state(record.start)
        for move in record.moves:
            state = notation.play(CHESS, state, move)
        final = outcome(CHESS, state)
        assert record.reason == "end" and final is not None and final.winner == record.winner


def test_bad_positions_name_the_file_and_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.epd"
    path.write_text(SUITE + "4k3/8/8/8/8/8/8/R3K3 w - - hmvc 100;\n", encoding="utf-8")
    with pytest.raises(OpeningError, match=r"bad.epd, line 4: position .* is already over"):
        load_openings(CHESS, path)
    path.write_text("4k3/8/8/8/8/8/8/R3K3 w - -\nnot a position at all\n", encoding="utf-8")
    with pytest.raises(OpeningError, match=r"bad.epd, line 2: position 'not a position"):
        load_openings(CHESS, path, "positions")
    with pytest.raises(OpeningError, match="opening format 'fen': expected one of"):
        load_openings(CHESS, path, "fen")


def test_a_position_suite_of_another_game_and_old_move_lists(tmp_path: Path) -> None:
    path = tmp_path / "boards.fen"
    path.write_text("x../.o./...\n.../.x./...\n", encoding="utf-8")
    openings = load_openings(GAME, path)  # positions, by the suffix
    assert openings == (Position("x../.o./..."), Position(".../.x./..."))
    played = play_game(GAME, [RandomAgent(1), RandomAgent(2)], position=openings[0].text)
    assert len(played.moves) == len(played.move_times) <= 7  # two cells were taken
    # a move list stays a move list, in the header and in the records
    moves = tmp_path / "moves.txt"
    moves.write_text("b2 a1\n", encoding="utf-8")
    assert load_openings(GAME, moves) == (("b2", "a1"),)
    event = Event("match", "tictactoe", ("random", "engine:depth=1"), 2, (("b2", "a1"),))
    assert event.header()["openings"] == [["b2", "a1"]]
    for record in run_event(event, workers=1):
        assert record.start is None and "start" not in json.loads(record.to_json())
        assert record.moves[:2] == ("b2", "a1")


def test_sampling_draws_without_replacement_in_an_order_fixed_by_the_seed() -> None:
    openings = random_openings(GAME, 3, 10, seed=4)
    sample = sample_openings(openings, 6, seed=1)
    assert len(set(sample)) == 6 and set(sample) <= set(openings)
    assert sample == sample_openings(openings, 6, seed=1)
    assert sample != sample_openings(openings, 6, seed=2)
    everything = sample_openings(openings, 10, seed=1)
    assert len(everything) == 10 and set(everything) == set(openings)
    with pytest.raises(OpeningError, match="cannot sample 11 opening"):
        sample_openings(openings, 11, seed=1)


def test_balanced_openings_score_within_the_window() -> None:
    game = registry.make("connect4")
    openings = balanced_openings(game, 4, 6, seed=2, depth=3, window=20)
    assert openings == balanced_openings(game, 4, 6, seed=2, depth=3, window=20)
    assert balanced_openings(game, 4, 8, seed=2, depth=3, window=20)[:6] == openings
    for moves in openings:
        assert len(moves) == 4
        state = game.initial_state()
        for move in moves:
            state = notation.play(game, state, move)
        score = Engine(game).search(state, Limits(depth=3)).score
        assert score is not None and abs(score) <= 20
    # no random line of 0 plies other than the start: a window that excludes its score
    # leaves none, and the error says how many were found
    start = balance_score(game, (), 3)
    assert start > 0
    assert balanced_openings(game, 0, 1, seed=1, depth=3, window=start) == ((),)
    with pytest.raises(OpeningError, match=r"found 0 of 1 balanced openings .* within ±"):
        balanced_openings(game, 0, 1, seed=1, depth=3, window=start - 1)
    with pytest.raises(OpeningError, match="need a depth-limited search"):
        balanced_openings(registry.make("nim"), 1, 1, seed=1, depth=2, window=0)


def test_opening_tally_counts_each_opening() -> None:
    openings = (("b2",), ("a1",), ("c3",))
    event = Event("match", "tictactoe", ("random", "engine:depth=1"), 6, openings, seed=5)
    records = run_event(event, workers=1)
    counts = opening_tally(records, 0)
    assert list(counts) == [0, 1, 2]
    for which, result in counts.items():
        assert result == tally([r for r in records if r.opening == which], 0)
    assert sum(sum(result) for result in counts.values()) == len(records)
    assert describe_opening(()) == "(start)" and describe_opening(("b2", "a1")) == "b2 a1"
