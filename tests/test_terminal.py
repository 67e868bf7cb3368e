"""Terminal play, driven with piped input: every registered game, a game with only the
six protocol methods, bad input, undo, hint, quit, end of input, Ctrl-C, people or
agents on either side, colour, and engine scores in their explained form."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from bare_games import BareNim
from zerosum.agents import RandomAgent, SearchAgent
from zerosum.game import outcome
from zerosum.games import registry
from zerosum.games.mnk import tictactoe
from zerosum.search.engine import Limits
from zerosum.terminal import Session, run_session

QUICK = Limits(time=0.05)


class Script:
    """Answers the session's questions from a list of lines, then ends the input."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.prompts: list[str] = []
        self.output: list[str] = []

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        try:
            return next(self.lines)
        except StopIteration:
            raise EOFError from None

    def write(self, text: str) -> None:
        self.output.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.output)


def open_move(game: Any, state: Any) -> Any:
    """A legal move after which the game goes on (the first one if every move ends it)."""
    moves = list(game.actions(state))
    for move in moves:
        if not game.is_terminal(game.result(state, move)):
            return move
    return moves[0]


@pytest.mark.parametrize("name", registry.names())
def test_every_game_plays_in_the_terminal(name: str) -> None:
    game = registry.make(name)
    start = game.initial_state()
    first = open_move(game, start)
    after_first = game.result(start, first)
    second = open_move(game, after_first)
    words = [game.format_move(start, first), game.format_move(after_first, second)]
    script = Script(["!!", words[0], words[1], "undo", "hint", "moves", "quit"])
    hint = SearchAgent(QUICK)
    session = Session(game, [None, None], hint=hint, read=script.read, write=script.write)
    assert session.run() is None  # the person quit
    assert session.state == after_first  # the second move was taken back
    assert session.history == [start, after_first]
    text = script.text
    assert "'!!'" in text and "try again" in text  # the bad move, named, then asked again
    assert "taken back" in text
    legal = session.legal_moves()
    assert " ".join(legal) in script.output
    hints = [line for line in script.output if line.startswith("hint: ")]
    assert len(hints) == 1
    assert hints[0].removeprefix("hint: ").split(" (")[0] in legal
    assert game.render(start) in script.output and game.render(after_first) in script.output
    assert len(script.prompts) == 7


@pytest.mark.parametrize("name", registry.names())
def test_every_game_plays_against_the_engine(name: str) -> None:
    game = registry.make(name)
    start = game.initial_state()
    first = game.format_move(start, open_move(game, start))
    script = Script([first])
    engine = SearchAgent(QUICK, name="engine")
    session = Session(game, [None, engine], read=script.read, write=script.write)
    session.run()  # the input ends after one move, or the engine's replies end the game
    history = session.history
    assert history[1] == game.result(start, game.parse_move(start, first))
    # the engine moves while it is its turn: once, or more where a side may move twice
    # running (a trick's winner leads again); then the person is to move, or it is over
    assert len(history) >= 3
    assert all(game.to_move(state) == 1 for state in history[1:-1])
    assert game.is_terminal(history[-1]) or game.to_move(history[-1]) == 0
    assert f"{game.info.players[1]} (engine) plays " in script.text


def test_a_whole_game_against_the_engine_ends_with_the_result() -> None:
    game = tictactoe()
    # the person plays the first free cell in reading order every time
    cells = [f"{c}{r}" for r in (3, 2, 1) for c in "abc"]
    script = Script(cells * 2)
    session = Session(
        game, [None, SearchAgent(Limits(depth=9))], read=script.read, write=script.write
    )

    def first_free(prompt: str) -> str:
        script.prompts.append(prompt)
        return next(c for c in cells if c in session.legal_moves())

    session.read = first_free
    result = session.run()
    assert result is not None and result == outcome(game, session.state)
    assert result.winner == 1  # the engine punishes the reading-order player
    assert script.output[-1] == "O (engine (depth 9)) wins (0-1)."


def test_the_engine_can_move_first_and_two_engines_play_alone() -> None:
    game = tictactoe()
    script = Script(["quit"])
    session = Session(
        game, [SearchAgent(Limits(depth=9)), None], read=script.read, write=script.write
    )
    assert session.run() is None
    assert len(session.history) == 2 and script.prompts == ["O to move> "]
    watcher = Script([])
    engines = [SearchAgent(Limits(depth=9), name="a"), SearchAgent(Limits(depth=9), name="b")]
    result = run_session(game, engines, read=watcher.read, write=watcher.write)
    assert result is not None and result.winner is None  # perfect play draws
    assert watcher.prompts == [] and watcher.output[-1] == "Draw (1/2-1/2)."
    assert sum(line.startswith(("X (a) plays", "O (b) plays")) for line in watcher.output) == 9


def test_undo_takes_back_the_engines_reply_too() -> None:
    game = tictactoe()
    script = Script(["b2", "undo", "undo", "quit"])
    session = Session(
        game, [None, RandomAgent(1, name="random")], read=script.read, write=script.write
    )
    assert session.run() is None
    assert session.history == [game.initial_state()]
    assert script.output.count("taken back") == 1
    assert script.output.count("nothing to take back") == 1


def test_a_session_from_a_position_cannot_undo_past_it() -> None:
    game = tictactoe()
    start = game.parse_state("x../.o./...")
    script = Script(["undo", "c1", "undo", "board", "quit"])
    session = Session(game, [None, None], start=start, read=script.read, write=script.write)
    session.run()
    assert session.history == [start]
    assert script.output.count(game.render(start)) == 3  # at the start, after undo, board


def test_end_of_input_and_ctrl_c_end_quietly() -> None:
    game = tictactoe()
    script = Script([])
    assert run_session(game, [None, None], read=script.read, write=script.write) is None
    assert script.output[-1] == ""

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    output: list[str] = []
    assert run_session(game, [None, None], read=interrupted, write=output.append) is None
    assert output[-1] == ""


def test_help_and_a_hint_without_an_engine() -> None:
    game = tictactoe()
    script = Script(["help", "hint", "quit"])
    run_session(game, [None, None], read=script.read, write=script.write)
    assert any(
        line.startswith("Type a move in the game's notation (e.g. a3, b3, c3)")
        for line in script.output
    )
    assert "no engine to ask for a hint" in script.output


def test_colour_paints_the_board_and_plain_stays_plain() -> None:
    game = tictactoe()
    state = game.parse_state("x../.o./...")
    plain = Script(["quit"])
    run_session(game, [None, None], start=state, read=plain.read, write=plain.write)
    assert game.render(state) in plain.output
    assert "\x1b[" not in plain.text
    painted = Script(["quit"])
    run_session(game, [None, None], start=state, read=painted.read, write=painted.write, color=True)
    board = next(line for line in painted.output if "a b c" in line)
    assert "\x1b[" in board
    assert "\x1b[1;36mX" in board and "\x1b[1;33mO" in board  # each side in its colour
    stripped = board
    for code in ("\x1b[1;36m", "\x1b[1;33m", "\x1b[2m", "\x1b[0m"):
        stripped = stripped.replace(code, "")
    assert stripped == game.render(state)


def test_engine_scores_are_shown_in_the_explained_form() -> None:
    # a draw proved to the end, a win with its distance, and a heuristic with its unit
    cases = [
        (tictactoe(), "x.o/.x./..o", Limits(depth=9), r"\(draw, searched \d plies, \d+ nodes"),
        (tictactoe(), "xx./oo./...", Limits(depth=9), r"\(win in 1 ply, searched "),
        (tictactoe(), "x../.o./...", Limits(depth=2), r"\(eval [+-]\d+ points, searched 2 plies,"),
    ]
    for game, position, limits, shown in cases:
        script = Script(["hint", "quit"])
        start = game.parse_state(position)
        run_session(
            game,
            [None, None],
            start=start,
            hint=SearchAgent(limits),
            read=script.read,
            write=script.write,
        )
        (hint,) = [line for line in script.output if line.startswith("hint: ")]
        assert re.search(shown, hint), hint
        assert "99999" not in hint and "1073741824" not in hint


def test_a_game_with_only_the_six_methods_plays_to_the_end_against_the_engine() -> None:
    game = BareNim("1,2")
    # every move, board and prompt in str; a bad move is named with the legal ones
    script = Script(["(1, 3)", "moves", "hint", "undo", "board", "(0, 1)", "quit"])
    engine = SearchAgent(QUICK, name="engine")
    session = Session(
        game, [None, engine], hint=SearchAgent(QUICK), read=script.read, write=script.write
    )
    result = session.run()
    assert result is not None and result.winner == 1  # (0, 1) loses to (1, 2)
    text = script.text
    assert "((1, 2), 0)" in script.output  # the state drawn with str
    assert (
        "illegal move '(1, 3)' in ((1, 2), 0): the legal moves are (0, 1), (1, 1), (1, 2)" in text
    )
    assert "(0, 1) (1, 1) (1, 2)" in script.output
    assert re.search(r"^hint: \(1, 1\) \(win in 3 plies", text, re.MULTILINE)
    assert "nothing to take back" in script.output
    assert "second (engine) plays (1, 2) (win in 1 ply" in text
    assert script.output[-1] == "second (engine) wins (0-1)."
    assert session.history[-1] == ((0, 0), 0)
