"""``zerosum play bridge``: declaring a deal from north-south against the engine's
defence and one hand of two-player bridge, through a pseudo-terminal, with piped input,
and in this process with a player that answers from the position. Bad cards and revokes
are answered and asked again; each trick is told with its winner; the end sets the
tricks taken against the double-dummy par, checked by plain minimax."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from play_session import ANSI, Terminal, play

from zerosum.cli.bridge_play import BridgeSession, bridge_game, double_dummy_par
from zerosum.cli.common import UsageError
from zerosum.game import InvalidGameError
from zerosum.games.bridge import DoubleDummy, State, TwoPlayerBridge
from zerosum.games.bridge.notation import card_name, format_deal
from zerosum.games.bridge.solver import DoubleDummySolver
from zerosum.search.reference import minimax
from zerosum.specs import make_agent

ENDING = "N:A..2. 2..5. .3.Q. ..3."
"""Two cards a hand, east's and west's forced once west has led a diamond."""

MIDTRICK = f"{ENDING} trump=N lead=W trick=D4"

TRICK = re.compile(
    r"^Trick (\d+): (.*); (.+?) wins it \(tricks won: [\w -]+ (\d+), [\w -]+ (\d+)\)$"
)


def _par_by_minimax(game: TwoPlayerBridge | DoubleDummy, state: State) -> tuple[int, int]:
    """The tricks each side has at the end with best play, from plain minimax's value
    (the final difference in tricks for the side to move)."""
    score = minimax(game, state).score
    difference = score if game.to_move(state) == 0 else -score
    total = state[3] + state[4] + state[0][state[1]].bit_count()
    return (total + difference) // 2, (total - difference) // 2


def test_a_piped_ending_with_revokes_to_the_par(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = play(
        monkeypatch,
        capsys,
        "bridge",
        "--position",
        MIDTRICK,
        lines="SA\nS9\nD2\nH3\nDQ\nH3\nSA\n",
    )
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Deal N:A..2. 2..5. .3.Q. ..3.: no trump, West led this trick"
    assert lines[1].startswith("Double-dummy bridge: north-south (you), east-west (engine")
    assert (
        "North to play> 'SA' is not legal in N:A..2. 2..5. .3.Q. ..3. trump=N lead=W "
        "trick=D4: North must follow suit to the diamonds led; try again ('help' for help)"
    ) in lines
    assert any("'S9' is not legal" in line and "North does not hold it" in line for line in lines)
    assert any("'H3' is not legal" in line and "South must follow suit" in line for line in lines)
    assert "South to play> " in out and "Traceback" not in out
    tricks = [line.split("> ")[-1] for line in lines if "Trick " in line]
    assert tricks == [
        "Trick 1: West D4, North D2, East D5, South DQ; South wins it "
        "(tricks won: north-south 1, east-west 0)",
        "Trick 2: South H3, West D3, North SA, East S2; South wins it "
        "(tricks won: north-south 2, east-west 0)",
    ]
    game = DoubleDummy("N:A..2. 2..5. .3.Q. ..43.")  # before west's lead
    assert _par_by_minimax(game, game.parse_state(MIDTRICK)) == (2, 0)
    assert lines[-2:] == [
        "north-south (you) took 2 tricks, east-west (engine) 0 tricks.",
        "Double-dummy par: 2 tricks for north-south with best play on both sides; "
        "you took as many.",
    ]


def test_declaring_through_a_pseudo_terminal() -> None:
    terminal = Terminal(
        "play", "bridge", "N:J6.T4.5. 8.KJ.2.A T.7.QT.3 9.9.76.8", "--trump", "H", "--time", "0.2"
    )
    try:
        terminal.expect("South declares in hearts, West leads")
        terminal.expect("West (engine) plays H9")  # the lead west's only trump leaves
        terminal.expect("North to play> ")
        assert "\x1b[" in terminal.seen  # a terminal gets colour
        terminal.send("SJ")
        terminal.expect("North must follow suit to the hearts led; try again")
        terminal.send("hint")
        terminal.expect("hint: H")
        terminal.send("HT")
        terminal.expect("South to play> ")
        terminal.send("quit")
    finally:
        code = terminal.close()
    assert code == 0


Chooser = Callable[[DoubleDummySolver, State], int]


def _tricks(count: int) -> str:
    return f"{count} trick{'' if count == 1 else 's'}"


def _best(solver: DoubleDummySolver, state: State) -> int:
    return solver.card_values(state)[0].card


def _worst(solver: DoubleDummySolver, state: State) -> int:
    return solver.card_values(state)[-1].card


def _session(
    game: TwoPlayerBridge | DoubleDummy, person: int, choose: Chooser
) -> tuple[BridgeSession, list[str]]:
    """A session in which the person at ``person``'s side plays what ``choose`` picks,
    once as a card not held (answered and asked again), against an engine that solves."""
    shown: list[str] = []
    solver = DoubleDummySolver(game.initial_state()[5])
    asked: list[str] = []

    def read(prompt: str) -> str:
        state = session.state
        asked.append(prompt)
        if len(asked) == 1:
            return "SZ"  # no card: the answer is the reason, and the question again
        return card_name(choose(solver, state))

    seats = [None, None]
    seats[1 - person] = make_agent("engine", default_time=5.0)
    session = BridgeSession(game, seats, read=read, write=shown.append)
    return session, shown


@pytest.mark.parametrize(
    ("game", "person"),
    [
        (DoubleDummy(seed=11, cards=4, trump="S", leader="W"), 0),
        (DoubleDummy(seed=12, cards=4, trump="N", leader="E"), 0),
        (TwoPlayerBridge(seed=13, cards=5, trump="H"), 0),
        (TwoPlayerBridge(seed=14, cards=5, leader=1), 1),
    ],
)
@pytest.mark.parametrize("choose", [_best, _worst])
def test_whole_hands_against_the_engine_end_at_the_par(
    game: TwoPlayerBridge | DoubleDummy, person: int, choose: Chooser
) -> None:
    session, shown = _session(game, person, choose)
    result = session.run()
    assert result is not None
    start, final = game.initial_state(), session.state
    assert game.is_terminal(final)
    assert any("'SZ' is not a card" in line for line in shown)
    tricks = [TRICK.match(ANSI.sub("", line)) for line in shown]
    told = [match for match in tricks if match is not None]
    size = start[0][0].bit_count()
    assert [int(match[1]) for match in told] == list(range(1, size + 1))
    # the tricks told add up, trick by trick, to the tricks won
    assert (int(told[-1][4]), int(told[-1][5])) == (final[3], final[4])
    par = _par_by_minimax(game, start)
    assert double_dummy_par(start) == par
    assert session.who(person).endswith(" (you)")
    assert shown[-2] == (
        f"{session.who(0)} took {_tricks(final[3])}, {session.who(1)} {_tricks(final[4])}."
    )
    # the engine solves these endings: best cards reach the par, any others at most it
    taken = final[3 + person]
    if choose is _best:
        assert taken == par[person]
        assert shown[-1].endswith("you took as many.")
    else:
        assert taken <= par[person]
        missed = par[person] - taken
        verdict = "as many" if missed == 0 else f"{_tricks(missed)} fewer"
        assert shown[-1].endswith(f"you took {verdict}.")
    assert shown[-1].startswith(f"Double-dummy par: {_tricks(par[person])} for ")


def test_the_game_a_command_line_asks_for() -> None:
    game, seed = bridge_game("bridge", None, draw_seed=lambda: 4321)
    assert isinstance(game, TwoPlayerBridge) and seed == 4321
    assert game.initial_state() == TwoPlayerBridge(seed=4321).initial_state()
    game, seed = bridge_game("bridge", "N:A..2. 2..5. .3.Q. ..43.", trump="H")
    assert isinstance(game, DoubleDummy) and seed is None
    assert (game.leader, game.trump) == (3, 1)  # south declares: west leads
    game, seed = bridge_game("bridge:seed=5,cards=3", None, declarer="N", draw_seed=lambda: 1)
    assert isinstance(game, DoubleDummy) and seed is None and game.leader == 1
    game, _ = bridge_game("bridge-dd:leader=S", None, draw_seed=lambda: 1)
    assert game.leader == 2
    game, _ = bridge_game("bridge", None, leader="1", draw_seed=lambda: 1)
    assert isinstance(game, TwoPlayerBridge) and game.leader == 1
    with pytest.raises(UsageError, match="a declarer or a leader, not both"):
        bridge_game("bridge", None, leader="W", declarer="S")
    with pytest.raises(UsageError, match="--declarer 'X' is not a seat"):
        bridge_game("bridge", None, declarer="X")
    with pytest.raises(InvalidGameError, match="option trump='Z'"):
        bridge_game("bridge", None, trump="Z")


def test_the_deal_drawn_is_shown_to_be_dealt_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = play(monkeypatch, capsys, "bridge", "--declarer", "S", lines="quit\n")
    assert code == 0
    first = out.splitlines()[0]
    match = re.fullmatch(
        r"Deal (N:\S+ \S+ \S+ \S+): South declares in no trump, West leads "
        r"\(seed=(\d+) deals it again\)",
        first,
    )
    assert match is not None, first
    again = DoubleDummy(seed=int(match[2]))
    assert format_deal(again.initial_state()[0]) == match[1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("tictactoe", "--trump", "S"), "--trump, --leader and --declarer are bridge's options"),
        (("bridge", "--declarer", "S", "--leader", "W"), "a declarer or a leader, not both"),
        (("bridge", "N:AK.. Q2.. J3.. T9.."), "is not a deal"),
        (("bridge-dd:seed=3,cards=2", "--declarer", "NE"), "--declarer 'NE' is not a seat"),
    ],
)
def test_bad_command_lines_are_one_line_errors(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: tuple[str, ...],
    message: str,
) -> None:
    code, out, err = play(monkeypatch, capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("zerosum: error: ") and message in err
    assert len(err.splitlines()) == 1


def test_the_par_is_given_up_past_its_time() -> None:
    # 13 cards a hand: 54,000 nodes, so the solver reads its limits (every 4,096 nodes)
    # many times; a deadline already past when it starts must stop it, where one of 10 ms
    # against a 25 ms solve failed on a run that solved the deal in under 10 ms
    whole = DoubleDummy(seed=1).initial_state()
    assert double_dummy_par(whole, 0.0) is None
    game = DoubleDummy(seed=1, cards=3, leader="E")
    ending = game.initial_state()
    assert double_dummy_par(ending, 30.0) == _par_by_minimax(game, ending)
