"""Games from outside zerosum: installed packages' entry points (``zerosum.games``), the
run-time :func:`~zerosum.games.registry.register`, and the import form, in this process
and end to end through the ``zerosum`` command.

The installed package is ``tests/fixtures/plugin_site``: a module ``tinygames`` and the
``tinygames-1.0.dist-info`` folder ``pip install`` would write beside it, whose
``entry_points.txt`` adds a working game (``pile``), one whose module is missing
(``broken``), one that takes a built-in's name (``tictactoe``) and one whose name is no
game name (``two words``). With that folder on the import path ``importlib.metadata``
finds the distribution exactly as it finds an installed one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from zerosum.game import InvalidGameError
from zerosum.games import registry
from zerosum.games.mnk import MNKGame

ROOT = Path(__file__).resolve().parents[1]
PLUGIN_SITE = ROOT / "tests" / "fixtures" / "plugin_site"


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A registry that discovers the plugins again and forgets run-time registrations."""
    monkeypatch.setattr(registry, "_added", {})
    registry._installed.cache_clear()
    yield
    registry._installed.cache_clear()  # rediscover without the test's path


@pytest.fixture
def installed(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fixture package is installed (its folder is on the import path)."""
    monkeypatch.setattr(sys, "path", [*sys.path, str(PLUGIN_SITE)])


def test_installed_games_follow_the_built_in_ones(installed: None) -> None:
    assert registry.names()[: len(registry.ENTRIES)] == [e.name for e in registry.ENTRIES]
    assert registry.names()[len(registry.ENTRIES) :] == ["pile"]
    pile = registry.entry("pile")
    assert pile.summary == "Pile: take one or two stones; who takes the last wins (size=5)."
    assert (pile.target, pile.argument, pile.untrusted_options) == (
        "tinygames:make_pile",
        "size",
        False,
    )
    game = registry.make("pile:size=3")
    assert game.initial_state() == (3, 0)
    assert registry.entries()[-1] is pile


def test_broken_plugins_are_reported_not_fatal(installed: None) -> None:
    problems = registry.plugin_problems()
    assert len(problems) == 3
    broken, shadow, badly_named = problems
    assert broken.startswith(
        "game plugin 'broken' (tinygames.missing:make, installed by tinygames): cannot import "
        "'tinygames.missing'"
    )
    assert shadow == (
        "game plugin 'tictactoe' (tinygames:make_pile, installed by tinygames): another game "
        "has that name; ignored"
    )
    assert "'two words'" in badly_named and "not letters, digits, - and _" in badly_named
    assert registry.make("tictactoe").info.name == "tictactoe"  # the built-in still wins
    with pytest.raises(InvalidGameError) as error:
        registry.make("broken")
    assert str(error.value) == broken  # the person who installed it learns why


def test_discovery_happens_once(installed: None, monkeypatch: pytest.MonkeyPatch) -> None:
    registry.names()
    calls: list[str] = []
    monkeypatch.setattr(registry.importlib.metadata, "entry_points", calls.append)
    registry.names()
    registry.make("pile")
    assert calls == []


def test_built_in_games_are_made_without_discovering_plugins(
    fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(**_: object) -> None:
        raise AssertionError("plugins discovered to make a built-in game")

    monkeypatch.setattr(registry.importlib.metadata, "entry_points", refuse)
    assert registry.make("mnk:m=4").info.name == "mnk"


def test_untrusted_specs_may_play_an_installed_game_but_not_set_its_options(
    installed: None,
) -> None:
    assert registry.make("pile", untrusted=True).initial_state() == (5, 0)
    with pytest.raises(InvalidGameError, match="game 'pile' takes no options here"):
        registry.make("pile:size=1000000000", untrusted=True)


def test_register_adds_a_game_for_this_process(fresh: None) -> None:
    item = registry.register("zerosum.games.mnk:MNKGame", name="big-mnk")
    assert registry.names()[-1] == "big-mnk" and registry.entry("big-mnk") is item
    assert item.summary.startswith("The m,n,k-game")
    assert item.argument == "m"
    game = registry.make("big-mnk:m=5,n=5,k=4")
    assert isinstance(game, MNKGame) and game.info.board_size == (5, 5)
    assert registry.register("bare_games:BareNim").name == "barenim"  # from the attribute
    assert registry.make("barenim:heaps=4").initial_state() == ((4,), 0)


@pytest.mark.parametrize(
    ("target", "name", "message"),
    [
        ("zerosum.games.mnk:MNKGame", "mnk", "cannot register 'mnk': another game has that"),
        ("zerosum.games.mnk:MNKGame", "m:n", "a game name is letters, digits, - and _"),
        ("zerosum.games.mnk", "x", "'zerosum.games.mnk' is not module.path:attribute"),
        ("zerosum.games.mnk:Nothing", "x", "'zerosum.games.mnk' has no attribute 'Nothing'"),
    ],
)
def test_register_refuses_bad_targets_and_names(
    fresh: None, target: str, name: str, message: str
) -> None:
    with pytest.raises(InvalidGameError, match=message):
        registry.register(target, name=name)
    assert registry.names() == [e.name for e in registry.ENTRIES]


# --------------------------------------------------------------------------- end to end


def zerosum(*argv: str, stdin: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run ``zerosum`` in a child process with the fixture package installed."""
    path = os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), str(PLUGIN_SITE)]))
    env = {**os.environ, "PYTHONPATH": path, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "zerosum.cli", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )


def test_zerosum_games_lists_the_installed_game_and_warns_about_the_broken() -> None:
    done = zerosum("games")
    assert done.returncode == 0
    last = done.stdout.splitlines()[-1]
    assert last.startswith("pile ")
    assert last.endswith(" Pile: take one or two stones; who takes the last wins (size=5).")
    warnings = done.stderr.splitlines()
    assert len(warnings) == 3
    assert all(line.startswith("zerosum: warning: game plugin '") for line in warnings)


def test_zerosum_plays_the_installed_game_against_the_engine() -> None:
    done = zerosum("play", "pile", "4", "--time", "0.2", stdin="moves\n2\n")
    assert (done.returncode, done.stderr) == (0, "")
    assert "first to move> 1 2\n" in done.stdout
    assert "second (engine) plays 2 (win in 1 ply" in done.stdout
    assert done.stdout.rstrip().endswith("second (engine) wins (0-1).")


def test_zerosum_refuses_a_broken_plugin_in_one_line() -> None:
    done = zerosum("play", "broken")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("zerosum: error: game plugin 'broken' (tinygames.missing:make")
