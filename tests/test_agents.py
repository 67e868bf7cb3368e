"""The agents: seeded random play is reproducible, the search agent never loses at
tic-tac-toe, and the human agent asks again after bad input."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bare_games import BareNim
from zerosum.agents import (
    Agent,
    ClockReading,
    HumanAgent,
    RandomAgent,
    SearchAgent,
    close_agent,
    refuse_finished,
    reset_agent,
)
from zerosum.game import IllegalMoveError, outcome
from zerosum.games import registry
from zerosum.games.mnk import MNKGame, tictactoe
from zerosum.games.tree import example
from zerosum.search.clock import budget
from zerosum.search.engine import Limits

TICTACTOE = tictactoe()


def play(game: Any, first: Agent, second: Agent) -> list[Any]:
    """Play one game; return the moves."""
    state = game.initial_state()
    agents = (first, second)
    moves = []
    while not game.is_terminal(state):
        move = agents[game.to_move(state)].choose(game, state)
        assert move in game.actions(state)
        moves.append(move)
        state = game.result(state, move)
    return moves


def final(game: Any, moves: list[Any]) -> Any:
    state = game.initial_state()
    for move in moves:
        state = game.result(state, move)
    return state


def test_agents_satisfy_the_protocol() -> None:
    for agent in (RandomAgent(1), SearchAgent(Limits(depth=2)), HumanAgent(lambda _: "a1")):
        assert isinstance(agent, Agent)
        assert agent.name


def test_seeded_random_agents_replay_the_same_game() -> None:
    games = [play(TICTACTOE, RandomAgent(seed), RandomAgent(seed + 100)) for seed in (7, 7)]
    assert games[0] == games[1]
    others = {tuple(play(TICTACTOE, RandomAgent(s), RandomAgent(s + 100))) for s in range(10)}
    assert len(others) > 1  # the seed matters
    agent = RandomAgent(3)
    first = [agent.choose(TICTACTOE, 0) for _ in range(20)]
    reset_agent(agent)
    assert [agent.choose(TICTACTOE, 0) for _ in range(20)] == first


def test_search_agent_never_loses_to_random_play() -> None:
    engine = SearchAgent(Limits(depth=9))
    for seed in range(20):
        for first, second, side in ((engine, RandomAgent(seed), 0), (RandomAgent(seed), engine, 1)):
            result = outcome(TICTACTOE, final(TICTACTOE, play(TICTACTOE, first, second)))
            assert result is not None
            assert result.winner in (side, None), f"seed {seed}, engine as player {side}"


def test_search_agent_with_a_time_limit_also_holds_the_draw() -> None:
    engine = SearchAgent(Limits(time=0.05))
    for seed in range(5):
        result = outcome(TICTACTOE, final(TICTACTOE, play(TICTACTOE, RandomAgent(seed), engine)))
        assert result is not None
        assert result.winner in (1, None)


def test_search_agent_keeps_an_engine_per_game_and_reports() -> None:
    agent = SearchAgent(Limits(depth=3), name="three")
    small = MNKGame(4, 4, 3)
    assert agent.engine(TICTACTOE) is agent.engine(TICTACTOE)
    assert agent.engine(small) is not agent.engine(TICTACTOE)
    move = agent.choose(small, 0)
    assert agent.last is not None
    assert agent.last.best_move == move
    assert agent.last.stats.depth == 3
    table = agent.engine(small).table
    assert table is not None and len(table) > 0
    reset_agent(agent)
    assert len(table) == 0
    assert agent.last is None
    assert agent.name == "three"
    assert SearchAgent(Limits(depth=4, time=1.5)).name == "engine (depth 4, 1.5 s)"


def test_a_finished_game_has_no_move() -> None:
    over = TICTACTOE.parse_state("xxx/oo./...")
    for agent in (RandomAgent(1), SearchAgent(Limits(depth=1)), HumanAgent(lambda _: "c1")):
        with pytest.raises(IllegalMoveError, match="game is over"):
            agent.choose(TICTACTOE, over)


def test_human_agent_asks_again_until_the_move_is_legal() -> None:
    answers = iter(["zz", "b2", "   ", "a1"])
    prompts: list[str] = []
    shown: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    state = TICTACTOE.parse_state(".../.x./...")
    agent = HumanAgent(ask, shown.append, prompt="> ")
    move = agent.choose(TICTACTOE, state)
    assert move == TICTACTOE.parse_move(state, "a1")
    assert prompts == ["> "] * 4
    assert len(shown) == 3
    assert "'zz'" in shown[0]
    assert "taken" in shown[1]  # b2 holds X's stone
    close_agent(agent)


def test_human_agent_lets_end_of_input_and_interrupts_through() -> None:
    def closed(_: str) -> str:
        raise EOFError

    def interrupted(_: str) -> str:
        raise KeyboardInterrupt

    with pytest.raises(EOFError):
        HumanAgent(closed).choose(TICTACTOE, 0)
    with pytest.raises(KeyboardInterrupt):
        HumanAgent(interrupted).choose(TICTACTOE, 0)


def test_human_agent_reads_the_str_of_a_move_in_a_game_without_notation() -> None:
    game = BareNim("1,2")
    answers = iter(["b2", "(1, 1)"])
    shown: list[str] = []
    agent = HumanAgent(lambda _: next(answers), shown.append)
    assert agent.choose(game, game.initial_state()) == (1, 1)
    assert shown == ["illegal move 'b2' in ((1, 2), 0): the legal moves are (0, 1), (1, 1), (1, 2)"]


def test_agents_play_a_game_with_only_the_six_methods() -> None:
    game = BareNim("2,3")
    moves = play(game, SearchAgent(Limits(time=0.5)), RandomAgent(1))
    assert outcome(game, final(game, moves)) == outcome(game, ((0, 0), 1))  # first wins


def test_search_agent_on_a_tree() -> None:
    tree = example("night-market")
    move = SearchAgent(Limits()).choose(tree, 0)
    assert tree.format_move(0, move) == "A"


def test_refuse_finished_refuses_only_finished_games() -> None:
    refuse_finished(TICTACTOE, TICTACTOE.initial_state())  # an open game passes
    won = final(TICTACTOE, [0, 3, 1, 4, 2])
    with pytest.raises(IllegalMoveError, match="no move to choose: the game is over"):
        refuse_finished(TICTACTOE, won)


def test_only_agents_that_keep_time_are_told_the_clock() -> None:
    from zerosum.agents import ClockReading, tell_clock

    class Timekeeper(RandomAgent):
        readings: list[ClockReading]

        def set_clock(self, reading: ClockReading) -> None:
            self.readings.append(reading)

    keeper = Timekeeper(1)
    keeper.readings = []
    reading = ClockReading(own=9.5, opponent=10.0, increment=0.1, opponent_increment=0.1)
    tell_clock(keeper, reading)
    tell_clock(RandomAgent(1), reading)  # no set_clock: nothing to tell
    assert keeper.readings == [reading] and reading.moves_to_go is None


def test_on_a_clock_the_engine_thinks_within_its_budget_not_its_time_limit() -> None:
    game = registry.make("connect4")
    start = game.initial_state()
    # a minute a move, were the clock not set; one second on it gives a tenth of that
    agent = SearchAgent(Limits(time=60))
    agent.set_clock(ClockReading(own=1.0, opponent=1.0))
    agent.engine(game)  # made first: a compiled engine may compile its kernel (seconds)
    began = time.perf_counter()
    move = agent.choose(game, start)
    assert time.perf_counter() - began < 10
    assert move in game.actions(start) and agent.last is not None
    # within the clock's hard budget (a tenth of a second), polls and load allowed for;
    # ended by the soft budget between iterations, or stopped by the hard one
    given = budget(1.0, 0.0, None)
    assert agent.last.stats.time <= given.hard + 0.5
    assert agent.last.stats.stopped or agent.last.stats.time >= given.soft


def test_on_a_clock_the_depth_limit_holds_and_a_reading_serves_one_move() -> None:
    game = registry.make("connect4")
    start = game.initial_state()
    roomy = SearchAgent(Limits(depth=8))
    roomy.set_clock(ClockReading(own=100.0, opponent=100.0))
    roomy.choose(game, start)
    assert roomy.last is not None and roomy.last.stats.depth == 8  # the clock allowed more
    # a spent clock leaves a millisecond, and depth 8 takes some 8000 nodes: tens of
    # milliseconds (a fresh agent, whose table holds nothing of the position)
    spent = SearchAgent(Limits(depth=8))
    spent.set_clock(ClockReading(own=0.0, opponent=100.0))
    assert spent.choose(game, start) in game.actions(start)
    assert spent.last is not None and spent.last.stats.depth < 8
    spent.choose(game, start)  # no reading for this move: the depth limit alone
    assert spent.last.stats.depth == 8
