"""``zerosum --version`` prints the installed version, the one pyproject.toml declares."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from zerosum.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_version_prints_the_declared_version(capsys: pytest.CaptureFixture[str]) -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"zerosum {declared['project']['version']}\n"


def test_version_works_from_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "zerosum.cli", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("zerosum ") and done.stdout.count("\n") == 1
