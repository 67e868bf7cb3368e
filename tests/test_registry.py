"""The game registry: names, specs with options, and clear errors."""

from __future__ import annotations

import contextlib
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerosum.game import InvalidGameError
from zerosum.games import registry
from zerosum.games.files import GameText

ROOT = Path(__file__).resolve().parents[1]


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


# --------------------------------------------------------------------------- the import form


@pytest.fixture
def importable_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The project root is importable, as the command line makes the current directory."""
    monkeypatch.syspath_prepend(str(ROOT))


def test_the_import_form_makes_a_game_of_one_s_own(importable_docs: None) -> None:
    hexapawn = registry.make("docs.examples.hexapawn:Hexapawn")
    assert hexapawn.info.name == "hexapawn"
    assert registry.parse_spec("bare_games:BareNim:heaps=3,4") == (
        "bare_games:BareNim",
        {"heaps": "3,4"},
    )
    game = registry.make("bare_games:BareNim:heaps=3,4")
    assert game.initial_state() == ((3, 4), 0)
    assert registry.make("bare_games:BareNim", heaps=7).initial_state() == ((7,), 0)
    found = registry.resolve("bare_games:BareNim")
    assert (found.argument, found.summary) == (
        "heaps",
        "Nim with the heaps given (default 1,2): take any number from one heap; who takes",
    )


def test_registered_names_win_over_the_import_form() -> None:
    # 'nim:heaps' reads as module nim, attribute heaps, but nim is a registered game
    with pytest.raises(InvalidGameError, match="bad option 'heaps' in game spec 'nim:heaps'"):
        registry.make("nim:heaps")
    assert registry.parse_spec("mnk:m=4") == ("mnk", {"m": 4})


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_such_module_here:Game", "game 'no_such_module_here:Game': cannot import"),
        ("bare_games:Missing", "game 'bare_games:Missing': 'bare_games' has no attribute"),
        ("bare_games:SIX", "bare_games.SIX is a int, not a class or a function"),
        ("bare_games_broken:Game", "importing 'bare_games_broken' failed: ZeroDivisionError"),
        ("bare_games:NotAGame", "which is not a game: it has no to_move, result, is_terminal"),
        ("bare_games:no_info", "its info is not a zerosum.game.GameInfo"),
        ("bare_games:BareNim:size=3", "unknown option 'size' for game 'bare_games:BareNim'"),
        ("chequers", "(or name a Game class as module.path:attribute)"),
    ],
)
def test_the_import_form_names_the_spec_in_every_error(spec: str, message: str) -> None:
    with pytest.raises(InvalidGameError, match=re.escape(message)):
        registry.make(spec)


def test_a_factory_returning_a_class_is_refused() -> None:
    with pytest.raises(InvalidGameError, match="a class: its factory must return a game"):
        registry.make("bare_games:returns_a_class")


def test_untrusted_specs_never_import(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "bare_games_broken", raising=False)
    for spec in ("bare_games_broken:Game", "os:system", "bare_games:BareNim:heaps=3"):
        with pytest.raises(InvalidGameError, match="names Python code to import"):
            registry.make(spec, untrusted=True)
    assert "bare_games_broken" not in sys.modules


def test_a_factory_taking_any_keyword_gets_every_option() -> None:
    game = registry.make("bare_games:any_options:heaps=4,colour=red")
    assert game.initial_state() == ((4,), 0)


# --------------------------------------------------------------------------- the documented caps


def _cap(cap: registry.OptionCap) -> str:
    text = f"`{cap.option}` up to {cap.most:,}"
    return text + (f", {cap.items} items" if cap.items > 1 else "")


def caps_table() -> str:
    """The table of what an untrusted spec may ask of each built-in game, as the docs
    must show it."""
    lines = [
        "| game | options naming a file: refused | caps on the options |",
        "| --- | --- | --- |",
    ]
    for item in registry.ENTRIES:
        files = ", ".join(f"`{option}`" for option in item.file_options) or "none"
        caps = "; ".join(_cap(cap) for cap in item.caps) or "none: the game's own limits"
        lines.append(f"| `{item.name}` | {files} | {caps} |")
    return "\n".join(lines) + "\n"


def test_the_documented_caps_are_the_registry_s() -> None:
    documented = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    assert caps_table() in documented, "docs/games.md must show:\n" + caps_table()
