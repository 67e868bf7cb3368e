"""The game registry: names, specs with options, and clear errors."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerosum.game import InvalidGameError
from zerosum.games import registry
from zerosum.games.files import GameText


def test_every_entry_imports_and_makes_its_default_game() -> None:
    for name in registry.names():
        game = registry.make(name)
        assert game.info.name, name


def test_spec_options_are_parsed_and_passed() -> None:
    assert registry.parse_spec("mnk:m=4, n=4,k=3") == ("mnk", {"m": 4, "n": 4, "k": 3})
    assert registry.parse_spec("tree:name=aima-5.2") == ("tree", {"name": "aima-5.2"})
    assert registry.parse_spec("nim:heaps=3,4,5,misere=1") == (
        "nim",
        {"heaps": "3,4,5", "misere": 1},
    )
    game = registry.make("mnk:m=4,n=3,k=3")
    assert len(game.actions(game.initial_state())) == 12


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("chequers", "unknown game 'chequers'; known games: tree, tictactoe"),
        ("mnk:m", "bad option 'm' in game spec 'mnk:m'"),
        ("mnk:q=3", "unknown option 'q' for game 'mnk'; accepted options: m, n, k"),
    ],
)
def test_bad_specs_name_the_input(spec: str, message: str) -> None:
    with pytest.raises(InvalidGameError) as error:
        registry.make(spec)
    assert message in str(error.value)


@given(st.text(max_size=30))
def test_arbitrary_specs_raise_only_our_errors(spec: str) -> None:
    with contextlib.suppress(InvalidGameError):
        registry.parse_spec(spec)


def test_option_numbers_past_python_s_digit_limit_are_our_error() -> None:
    # int() refuses over 4,300 digits with a plain ValueError; the spec must not get there
    with pytest.raises(InvalidGameError, match=r"has 5000 digits; at most 30") as error:
        registry.make("connect4:width=" + "7" * 5000)
    assert len(str(error.value)) < 200
    # full-width digits are not numbers to a spec (int() would read them)
    assert registry.parse_spec("mnk:m=４") == ("mnk", {"m": "４"})


@pytest.mark.parametrize(
    "spec", ["maze:file=/etc/passwd", "graph:file=/dev/zero", "maze:file=maze.txt"]
)
def test_untrusted_specs_cannot_name_files(spec: str) -> None:
    with pytest.raises(InvalidGameError, match="names a file on this machine") as error:
        registry.make(spec, untrusted=True)
    assert "root:" not in str(error.value)


def test_untrusted_uploads_stand_in_for_files() -> None:
    maze = registry.make("maze", untrusted=True, file=GameText("m.txt", "..#\n@..\n..."))
    assert len(maze.actions(maze.initial_state())) == 1
    graph = registry.make("graph", untrusted=True, file=GameText("g.json", '[["a", "b"]]'))
    assert graph.info.name == "g"
    with pytest.raises(InvalidGameError, match=r"^m\.txt: "):
        registry.make("maze", untrusted=True, file=GameText("m.txt", "#"))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nim:heaps=1000000000,999999999", "option 'heaps' of game 'nim' holds '1000000000'"),
        ("nim:heaps=" + ",".join(["1"] * 17), "lists 17 items; at most 16"),
        ("divisor:n=100001", "at most 100,000 here"),
        ("stones-vii:values=" + ",".join(["1"] * 65), "at most 64 here"),
        ("subtraction:heaps=5,moves=1001", "option 'moves' of game 'subtraction'"),
    ],
)
def test_untrusted_specs_are_held_to_the_caps(spec: str, message: str) -> None:
    with pytest.raises(InvalidGameError, match=message):
        registry.make(spec, untrusted=True)
    registry.make(spec)  # the same spec is fine from the command line


def test_every_cap_names_an_option_of_its_game() -> None:
    import inspect

    for item in registry.ENTRIES:
        accepted = inspect.signature(item.factory()).parameters
        for option in (*item.file_options, *(cap.option for cap in item.caps)):
            assert option in accepted, (item.name, option)
