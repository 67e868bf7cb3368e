"""The game registry: names, specs with options, and clear errors."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerosum.game import InvalidGameError
from zerosum.games import registry


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
