"""The documentation site builds without a warning, and its API reference is complete.

``mkdocs build --strict`` (the documented build command) runs into a temporary folder:
any warning (a broken link, a missing page, a docstring mkdocstrings cannot read) fails
it. Then every public name, each name in a module's ``__all__``, must have a docstring
and an entry in the built API reference, and every module must have a page.

The tools come with the ``docs`` extra (``pip install -e '.[docs]'``); without them
these tests skip, saying so.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REASON = "the docs tools are not installed: pip install -e '.[docs]'"
pytest.importorskip("mkdocs", reason=REASON)
pytest.importorskip("mkdocstrings", reason=REASON)
griffe = pytest.importorskip("griffe", reason=REASON)

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "docs" / "api"


def _modules() -> list[Any]:
    """Every module of the zerosum package, read statically, ``__main__`` left out."""
    package = griffe.load("zerosum", search_paths=[str(ROOT / "src")])
    found = []
    stack = [package]
    while stack:
        module = stack.pop()
        found.append(module)
        stack.extend(
            member
            for name, member in module.modules.items()
            if not name.startswith("_") and not member.is_alias
        )
    return sorted(found, key=lambda module: module.path)


MODULES = _modules()


def _public(module: Any) -> list[str]:
    return sorted(module.exports or ())


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stdout + done.stderr, done.stdout + done.stderr
    return folder


def test_the_site_builds_strictly(site: Path) -> None:
    pages = {path.relative_to(site).as_posix() for path in site.rglob("index.html")}
    for page in ("index.html", "tutorial/index.html", "tutorial.zh/index.html", "games/index.html"):
        assert page in pages
    assert "api/index.html" in pages


@pytest.mark.parametrize("module", MODULES, ids=lambda module: module.path)
def test_every_module_has_a_reference_page(module: Any) -> None:
    directives = {
        line.removeprefix(":::").strip()
        for page in API.glob("*.md")
        for line in page.read_text(encoding="utf-8").splitlines()
        if line.startswith(":::")
    }
    assert module.path in directives, f"add '::: {module.path}' to a page in docs/api/"


@pytest.mark.parametrize("module", MODULES, ids=lambda module: module.path)
def test_every_public_name_has_a_docstring(module: Any) -> None:
    assert module.docstring is not None, f"module {module.path} has no docstring"
    missing = []
    for name in _public(module):
        member = module[name]
        target = member.final_target if member.is_alias else member
        if target.docstring is None or not target.docstring.value.strip():
            missing.append(name)
    assert not missing, f"{module.path}: no docstring for {', '.join(missing)}"


def test_every_public_name_is_in_the_reference(site: Path) -> None:
    anchors = set()
    for page in (site / "api").rglob("index.html"):
        anchors |= set(re.findall(r'id="(zerosum[\w.]*)"', page.read_text(encoding="utf-8")))
    absent = [
        f"{module.path}.{name}"
        for module in MODULES
        for name in _public(module)
        if f"{module.path}.{name}" not in anchors
    ]
    assert not absent, f"not in the API reference: {', '.join(absent)}"
