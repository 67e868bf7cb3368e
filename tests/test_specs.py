"""Agent specs: every kind builds the agent it names, with its limits and options, and a
bad spec is refused with one line naming it."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from zerosum.agents import HumanAgent, RandomAgent, SearchAgent
from zerosum.games.mnk import tictactoe
from zerosum.protocols.uci import DEFAULT_WAIT, UciAgent
from zerosum.search.engine import EngineOptions, Limits
from zerosum.specs import DEFAULT_TIME, AgentSpecError, make_agent, parse_agent_spec


class Scripted:
    """A custom agent for the module.attribute kind: plays the lowest legal move."""

    def __init__(self, seed: int | None = None, offset: int = 0) -> None:
        self.seed = seed
        self.offset = offset
        self.name = "scripted"

    def choose(self, game: Any, state: Any) -> Any:
        moves = list(game.actions(state))
        return moves[self.offset % len(moves)]


def not_an_agent() -> object:
    return object()


def test_engine_limits_and_options() -> None:
    agent = make_agent("engine:depth=6")
    assert isinstance(agent, SearchAgent)
    assert agent.limits == Limits(depth=6)
    assert agent.options is None
    assert agent.name == "engine:depth=6"
    timed = make_agent("engine:time=0.1,nodes=20000")
    assert isinstance(timed, SearchAgent)
    assert timed.limits == Limits(nodes=20000, time=0.1)
    tuned = make_agent("engine:nodes=500,table_size=1024,killers=off,pvs=no,history=on,name=v2")
    assert isinstance(tuned, SearchAgent)
    assert tuned.options == EngineOptions(table_size=1024, killers=False, pvs=False, history=True)
    assert tuned.name == "v2"
    auto = make_agent("engine:depth=2,killers=auto,aspiration=off")
    assert isinstance(auto, SearchAgent)
    assert auto.options == EngineOptions(killers=None, aspiration=False)


def test_an_engine_without_limits_thinks_the_default_time() -> None:
    agent = make_agent("engine")
    assert isinstance(agent, SearchAgent)
    assert agent.limits == Limits(time=DEFAULT_TIME)
    quick = make_agent("engine", default_time=0.25)
    assert isinstance(quick, SearchAgent) and quick.limits == Limits(time=0.25)


def test_time_limit_is_the_spec_time() -> None:
    assert parse_agent_spec("engine:time=0.5").time_limit == 0.5
    assert parse_agent_spec("engine:depth=3").time_limit is None
    assert parse_agent_spec("random").time_limit is None


def test_random_agents_take_the_callers_seed_unless_the_spec_pins_one() -> None:
    game = tictactoe()
    seeded = make_agent("random", seed=11)
    assert isinstance(seeded, RandomAgent) and seeded.seed == 11
    pinned = make_agent("random:seed=5", seed=11)
    assert isinstance(pinned, RandomAgent) and pinned.seed == 5
    again = make_agent("random", seed=11)
    start = game.initial_state()
    assert [seeded.choose(game, start) for _ in range(10)] == [
        again.choose(game, start) for _ in range(10)
    ]


def test_human_uses_the_given_input() -> None:
    game = tictactoe()
    agent = make_agent("human:name=ada", read=lambda _: "b2", write=lambda _: None)
    assert isinstance(agent, HumanAgent) and agent.name == "ada"
    assert game.format_move(0, agent.choose(game, 0)) == "b2"


def test_module_attribute_agents() -> None:
    agent = make_agent("test_specs.Scripted:offset=2,name=low", seed=9)
    assert isinstance(agent, Scripted)
    assert (agent.seed, agent.offset, agent.name) == (9, 2, "scripted")
    game = tictactoe()
    assert agent.choose(game, game.initial_state()) == 2
    with pytest.raises(AgentSpecError, match="no choose"):
        make_agent("test_specs.not_an_agent")
    with pytest.raises(AgentSpecError, match="cannot import"):
        make_agent("no_such_module_here.Agent")
    with pytest.raises(AgentSpecError, match="'test_specs' has no attribute 'Missing'"):
        make_agent("test_specs.Missing")
    with pytest.raises(AgentSpecError, match=r"test_specs\.DEFAULT_TIME is a float, not a class"):
        make_agent("test_specs.DEFAULT_TIME")
    with pytest.raises(AgentSpecError, match="importing 'bare_games_broken' failed: Zero"):
        make_agent("bare_games_broken.Agent")
    with pytest.raises(AgentSpecError, match="unexpected keyword"):
        make_agent("test_specs.Scripted:colour=red")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty agent spec"),
        ("alphabeta", "unknown agent 'alphabeta'"),
        ("engine:depth", "bad option 'depth'"),
        ("engine:depth=six", "depth must be a whole number, not 'six'"),
        ("engine:time=fast", "time must be a number of seconds"),
        ("engine:time=inf", "time must be a number of seconds"),
        ("engine:time=0", "time limit must be a positive number"),
        ("engine:depth=0", "depth limit must be 1"),
        ("engine:dept=3", "unknown option 'dept' for engine"),
        ("engine:killers=maybe", "killers is on or off"),
        ("engine:table_size=0", "table_size must be at least 1"),
        ("engine:depth=2,depth=3", "given twice"),
        ("random:depth=2", "unknown option 'depth' for random"),
        ("random:seed=x", "seed must be a whole number"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message) as caught:
        parse_agent_spec(spec)
    text = str(caught.value)
    assert "\n" not in text
    assert repr(spec) in text or spec.partition(":")[0] in text


def test_specs_keep_their_text_as_label() -> None:
    spec = parse_agent_spec("  engine:depth=3 ")
    assert (spec.text, spec.kind, spec.label) == ("engine:depth=3", "engine", "engine:depth=3")
    assert spec.option("depth") == 3 and spec.option("nodes") is None


def test_gomocup_specs_take_the_command_first_or_as_cmd() -> None:
    bare = parse_agent_spec("gomocup: zerosum gomocup --quiet ,time=0.5,wait=3")
    assert bare.option("cmd") == "zerosum gomocup --quiet"
    assert (bare.time_limit, bare.option("wait"), bare.label) == (0.5, 3.0, bare.text)
    named = parse_agent_spec("gomocup:time=0.1,cmd=pbrain-x --level=3,cwd=/tmp,name=x")
    assert (named.option("cmd"), named.option("cwd"), named.label) == (
        "pbrain-x --level=3",
        "/tmp",
        "x",
    )
    # a first item key=value whose key is no option is a command, = and all
    assert parse_agent_spec("gomocup:pbrain-x --level=3").option("cmd") == "pbrain-x --level=3"
    quoted_word = parse_agent_spec("gomocup:'/opt/my brains/pbrain-x' -v")
    assert quoted_word.option("cmd") == "'/opt/my brains/pbrain-x' -v"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gomocup", "no engine command; write gomocup:COMMAND or gomocup:cmd=COMMAND"),
        ("gomocup:time=1", "no engine command"),
        ("gomocup:pbrain-x,cmd=pbrain-y", "option 'cmd' given twice"),
        ("gomocup:pbrain 'x", 'cannot read engine command "pbrain \'x": No closing quotation'),
        ("gomocup:cmd=  ", "bad option 'cmd='"),
        ("gomocup:pbrain-x,time=-1", "time must be 0 or more seconds"),
        ("gomocup:pbrain-x,wait=0", "wait must be more than 0 seconds"),
        ("gomocup:pbrain-x,wait=soon", "wait must be a number of seconds, not 'soon'"),
        ("gomocup:pbrain-x,depth=3", "unknown option 'depth' for gomocup"),
    ],
)
def test_bad_gomocup_specs(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError) as caught:
        parse_agent_spec(spec)
    assert message in str(caught.value) and repr(spec) in str(caught.value)


def test_a_gomocup_program_that_does_not_exist_is_a_bad_spec() -> None:
    with pytest.raises(AgentSpecError) as caught:
        make_agent("gomocup:no-such-pbrain-zerosum -x")
    assert str(caught.value) == (
        "bad agent spec 'gomocup:no-such-pbrain-zerosum -x': cannot start engine "
        "'no-such-pbrain-zerosum -x': no executable program 'no-such-pbrain-zerosum' on "
        "the PATH"
    )
    with pytest.raises(AgentSpecError, match="working directory '/no/such' is not a dir"):
        make_agent(f"gomocup:{sys.executable},cwd=/no/such")


def test_uci_specs_take_limits_and_engine_options_with_spaces() -> None:
    spec = parse_agent_spec(
        "uci:stockfish,UCI_LimitStrength=true,UCI_Elo=1500,Skill Level=3,time=0.5,depth=8"
    )
    assert spec.option("cmd") == "stockfish"
    assert (spec.time_limit, spec.option("depth"), spec.option("nodes")) == (0.5, 8, None)
    # the engine's options are kept as written, for setoption
    assert [item for item in spec.options if item[0][0].isupper()] == [
        ("UCI_LimitStrength", "true"),
        ("UCI_Elo", "1500"),
        ("Skill Level", "3"),
    ]


def test_a_uci_spec_makes_an_agent_with_its_options() -> None:
    command = f"{sys.executable} -m zerosum.cli uci"
    agent = make_agent(f"uci:{command},Hash=1,Move Overhead=10,name=z", default_time=0.3)
    assert isinstance(agent, UciAgent)
    try:
        assert (agent.name, agent.time, agent.depth, agent.nodes) == ("z", 0.3, None, None)
        assert (agent.wait, agent.options) == (
            DEFAULT_WAIT,
            (("Hash", "1"), ("Move Overhead", "10")),
        )
        assert agent.engine_name is not None and agent.engine_name.startswith("zerosum")
    finally:
        agent.close()
    limited = make_agent(f"uci:cmd={command},nodes=500,wait=3", default_time=0.3)
    assert isinstance(limited, UciAgent)
    try:
        # a node limit is a limit: no default time is added to it
        assert (limited.time, limited.nodes, limited.wait, limited.options) == (None, 500, 3.0, ())
    finally:
        limited.close()
    ranked = make_agent(f"uci:{command} --game xiangqi,coordinates=fairy-stockfish,depth=1")
    assert isinstance(ranked, UciAgent)
    try:
        # the agent's own key, not an option sent to the engine
        assert (ranked.coordinates, ranked.options) == ("fairy-stockfish", ())
    finally:
        ranked.close()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("uci", "no engine command; write uci:COMMAND or uci:cmd=COMMAND"),
        ("uci:time=1", "no engine command"),
        ("uci:stockfish,depth=0", "depth must be 1 or more"),
        ("uci:stockfish,nodes=many", "nodes must be a whole number, not 'many'"),
        ("uci:stockfish,time=-1", "time must be 0 or more seconds"),
        ("uci:stockfish,depth=1,coordinates=xy", "coordinates must be iccs or fairy-stockfish"),
        ("uci:stockfish,Hash=1,hash=2", "option 'hash' given twice"),
        ("uci:stockfish,Skill Level", "bad option 'Skill Level'"),
    ],
)
def test_bad_uci_specs(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError) as caught:
        parse_agent_spec(spec)
    assert message in str(caught.value) and repr(spec) in str(caught.value)


def test_a_uci_program_that_does_not_exist_is_a_bad_spec() -> None:
    with pytest.raises(AgentSpecError, match="no executable program 'no-such-uci-zerosum'"):
        make_agent("uci:no-such-uci-zerosum,Hash=1")
