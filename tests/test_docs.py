"""The documentation runs: every command and every piece of Python it shows is executed
and its shown output checked, so the docs cannot drift from the code.

The documents checked are :data:`DOCUMENTS`. In them, by the kind of fenced block:

``console``
    Lines starting with ``$ `` are commands; the lines after one, up to the next command
    or the end of the block, are its expected output (standard output and standard error
    together, as a terminal shows them). Each command runs with ``bash -c`` in the
    project root, with ``zerosum`` and ``python`` on the ``PATH`` meaning this
    interpreter's ``python -m zerosum.cli`` and this interpreter, so pipes such as
    ``printf 'b2\\n' | zerosum play ...`` work as typed. A command must exit with status
    0, unless its expected output shows the command line's one-line error
    (``zerosum: error: ...``), which exits with status 2. Spaces at the ends of lines
    and blank lines at the end are ignored (Markdown editors strip them), so a prompt
    left waiting, ``X to move> ``, is written without its space.
``python``
    Either doctest form (``>>>`` and ``...`` prompts, the expected output below), or,
    when the line before the block is ``<!-- file: PATH -->``, a copy of the file
    ``PATH`` (relative to the project root) that must equal it byte for byte. The
    doctest blocks of one document run in order in one namespace, in the project root,
    so a later block may use what an earlier one defined. A ``python`` block that is
    neither is an error: Python that is shown is Python that is checked.
anything else (``sh``, ``text``, ``json``...)
    Shown, never run: the README's install commands are ``sh`` blocks for this reason.

Expected output is compared as doctest compares it, with ``ELLIPSIS``: ``...`` matches
any text. It is for figures that change from run to run (times, nodes per second) and is
used sparingly; node counts, scores and moves are always written out exactly.

The English and Chinese tutorials carry the same commands and the same outputs; a test
checks that they do, block for block.
"""

from __future__ import annotations

import doctest
import importlib.util
import io
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from zerosum.game import IllegalMoveError, InvalidMoveError, InvalidStateError
from zerosum.search.reference import ALGORITHMS
from zerosum.search.solve import solve, solve_all

ROOT = Path(__file__).resolve().parents[1]

DOCUMENTS = (
    "README.md",
    "docs/index.md",
    "docs/tutorial.md",
    "docs/tutorial.zh.md",
    "docs/games.md",
    "docs/arena.md",
)
"""The documents whose blocks are run, relative to the project root."""

TUTORIALS = ("docs/tutorial.md", "docs/tutorial.zh.md")

COMMAND_TIMEOUT = 600
"""Seconds one documented command may take before the test gives up on it."""

_FENCE = re.compile(r"^(`{3,})\s*([\w.+-]*)[^`]*$")
_FILE_MARKER = re.compile(r"^<!--\s*file:\s*(\S+)\s*-->$")
_FLAGS = doctest.ELLIPSIS


@dataclass(frozen=True, slots=True)
class Block:
    """One fenced block: its document, the line of its opening fence, its language, its
    text, and the file it claims to copy (from a ``<!-- file: PATH -->`` marker)."""

    document: str
    line: int
    language: str
    text: str
    copy_of: str | None = None

    @property
    def where(self) -> str:
        """The block's place, ``document:line``, for test ids and messages."""
        return f"{self.document}:{self.line}"


@dataclass(frozen=True, slots=True)
class Command:
    """One ``$`` line of a console block and the output shown under it."""

    line: int
    command: str
    expected: str


def blocks(document: str, text: str) -> list[Block]:
    """Return the fenced blocks of a Markdown ``text`` in order.

    Raises ``ValueError`` naming the document for a fence that is never closed."""
    found = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        fence, language = opening[1], opening[2].lower()
        start = index
        index += 1
        body = []
        while index < len(lines) and lines[index].strip() != fence:
            body.append(lines[index])
            index += 1
        if index == len(lines):
            raise ValueError(f"{document}:{start + 1}: a {fence} fence is never closed")
        marker = _FILE_MARKER.match(lines[start - 1].strip()) if start else None
        copy_of = marker[1] if marker else None
        found.append(Block(document, start + 1, language, "\n".join(body) + "\n", copy_of))
        index += 1
    return found


def commands(block: Block) -> list[Command]:
    """Split a console block into its commands and their expected outputs.

    Raises ``ValueError`` for text before the first command or a block with none."""
    result: list[Command] = []
    current: tuple[int, str] | None = None
    output: list[str] = []
    for offset, text in enumerate(block.text.splitlines(), start=1):
        if text.startswith("$ "):
            if current is not None:
                result.append(Command(current[0], current[1], _joined(output)))
            current, output = (block.line + offset, text[2:].strip()), []
        elif current is None:
            if text.strip():
                raise ValueError(f"{block.where}: console output {text!r} before any $ command")
        else:
            output.append(text)
    if current is None:
        raise ValueError(f"{block.where}: a console block without a $ command")
    result.append(Command(current[0], current[1], _joined(output)))
    return result


def _joined(lines: list[str]) -> str:
    """Lines as text, each ending in a newline, without trailing spaces or blank lines."""
    while lines and not lines[-1].strip():
        lines.pop()
    return "".join(line.rstrip() + "\n" for line in lines)


def doctest_examples(block: Block) -> list[doctest.Example]:
    """Return the doctest examples of a python block, numbered by document line."""
    examples = doctest.DocTestParser().get_examples(block.text, block.where)
    for example in examples:
        example.lineno += block.line  # the parser counts from the block's first line
    return examples


def output_matches(expected: str, actual: str) -> bool:
    """Compare shown and real output as doctest does, with ``ELLIPSIS``."""
    return doctest.OutputChecker().check_output(expected, actual, _FLAGS)


def read(document: str) -> list[Block]:
    """Return the blocks of ``document`` (a path relative to the project root)."""
    return blocks(document, (ROOT / document).read_text(encoding="utf-8"))


def _all_blocks() -> list[Block]:
    return [block for document in DOCUMENTS for block in read(document)]


def _of(language: str) -> list[Block]:
    return [b for b in _all_blocks() if b.language == language]


# --------------------------------------------------------------------------- running


@pytest.fixture(scope="session")
def shell_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment whose ``zerosum`` and ``python`` are this interpreter's."""
    shims = tmp_path_factory.mktemp("shims")
    for name, target in (
        ("zerosum", f'"{sys.executable}" -m zerosum.cli'),
        ("python", f'"{sys.executable}"'),
        ("python3", f'"{sys.executable}"'),
    ):
        shim = shims / name
        shim.write_text(f'#!/bin/sh\nexec {target} "$@"\n', encoding="utf-8")
        shim.chmod(0o755)
    env = dict(os.environ)
    env.update(
        PATH=f"{shims}{os.pathsep}{env.get('PATH', '')}",
        PYTHONUTF8="1",
        PYTHONIOENCODING="utf-8",
        NO_COLOR="1",
        COLUMNS="100",
        TERM="dumb",
        # the pages show what a plain install prints: the compiled kernels of the
        # ``fast`` extra give the same values, with other node counts and lines
        ZEROSUM_KERNELS="0",
    )
    return env


def run_command(command: str, env: dict[str, str]) -> tuple[int, str]:
    """Run a documented command as a person would; return its status and its output."""
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
        timeout=COMMAND_TIMEOUT,
        check=False,
    )
    return done.returncode, done.stdout


def check_console(block: Block, env: dict[str, str]) -> list[str]:
    """Run every command of a console block; return a description of each mismatch."""
    problems = []
    for command in commands(block):
        status, output = run_command(command.command, env)
        shows_error = "zerosum: error:" in command.expected
        if status != 0 and not shows_error:
            problems.append(
                f"{block.document}:{command.line}: `{command.command}` exited with "
                f"status {status}:\n{output}"
            )
        elif status == 0 and shows_error:
            problems.append(
                f"{block.document}:{command.line}: `{command.command}` shows an error but "
                f"succeeded:\n{output}"
            )
        elif not output_matches(command.expected, _joined(output.splitlines())):
            problems.append(
                f"{block.document}:{command.line}: `{command.command}`\n"
                f"--- shown\n{command.expected}--- real\n{output}"
            )
    return problems


def check_python(document: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Run the doctest blocks of ``document`` in order in one namespace; return the
    failure reports."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "path", list(sys.path))  # a document may extend it for itself
    namespace: dict[str, object] = {"__name__": "__docs__"}
    runner = doctest.DocTestRunner(optionflags=_FLAGS)
    problems = []
    for block in read(document):
        if block.language != "python" or block.copy_of is not None:
            continue
        examples = doctest_examples(block)
        test = doctest.DocTest(examples, namespace, block.where, document, 0, block.text)
        report = io.StringIO()
        result = runner.run(test, out=report.write, clear_globs=False)
        namespace = test.globs  # DocTest copies the namespace; carry on with its copy
        if result.failed:
            problems.append(report.getvalue())
    return problems


# --------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("block", _of("console"), ids=lambda b: b.where)
def test_console_block(block: Block, shell_env: dict[str, str]) -> None:
    problems = check_console(block, shell_env)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("document", DOCUMENTS)
def test_python_blocks(document: str, monkeypatch: pytest.MonkeyPatch) -> None:
    problems = check_python(document, monkeypatch)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "block", [b for b in _of("python") if b.copy_of is not None], ids=lambda b: b.where
)
def test_file_copies_are_exact(block: Block) -> None:
    assert block.copy_of is not None
    original = (ROOT / block.copy_of).read_text(encoding="utf-8")
    assert block.text == original, f"{block.where} differs from {block.copy_of}"


@pytest.mark.parametrize("block", _of("python"), ids=lambda b: b.where)
def test_every_python_block_is_checked(block: Block) -> None:
    assert block.copy_of is not None or doctest_examples(block), (
        f"{block.where}: a python block must be doctest (>>>) or a marked copy of a file"
    )


def test_the_tutorials_show_the_same_commands_and_outputs() -> None:
    def shown(document: str) -> list[tuple[str, ...]]:
        items: list[tuple[str, ...]] = []
        for block in read(document):
            if block.language == "console":
                items += [(c.command, c.expected) for c in commands(block)]
            elif block.language == "python" and block.copy_of is None:
                items += [(e.want,) for e in doctest_examples(block)]
        return items

    english, chinese = (shown(document) for document in TUTORIALS)
    assert english, "the tutorial shows no command"
    for number, (left, right) in enumerate(zip(english, chinese, strict=False), start=1):
        assert left == right, f"step {number} differs between the tutorials"
    assert len(english) == len(chinese)


def test_the_readme_install_blocks_are_not_run() -> None:
    readme = read("README.md")
    assert any(b.language == "sh" and "pip install" in b.text for b in readme)
    assert not any(b.language in ("console", "python") and "pip install" in b.text for b in readme)


# --------------------------------------------------------------------------- the harness


SAMPLE = """\
Some prose.

```console
$ zerosum tree --example night-market-2
Night market: two prize boxes: value 80 for max (the root)
best line: 甲 > 80
...
```

```python
>>> 6 * 7
42
```

<!-- file: docs/tutorial.md -->
```python
not the tutorial
```

```sh
rm -rf /
```
"""


def test_the_harness_reads_blocks_and_commands() -> None:
    found = blocks("sample.md", SAMPLE)
    assert [(b.line, b.language) for b in found] == [
        (3, "console"),
        (10, "python"),
        (16, "python"),
        (20, "sh"),
    ]
    assert found[2].copy_of == "docs/tutorial.md" and found[1].copy_of is None
    (command,) = commands(found[0])
    assert command.line == 4
    assert command.command == "zerosum tree --example night-market-2"
    assert command.expected.endswith("best line: 甲 > 80\n...\n")
    assert [e.want for e in doctest_examples(found[1])] == ["42\n"]


def test_the_harness_passes_true_output_and_catches_drift(
    shell_env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    console = blocks("sample.md", SAMPLE)[0]
    assert check_console(console, shell_env) == []
    drifted = Block(console.document, 1, "console", console.text.replace("80", "81"))
    assert len(check_console(drifted, shell_env)) == 1
    failing = Block("x.md", 1, "console", "$ zerosum tree\n")
    assert "exited with status 2" in check_console(failing, shell_env)[0]
    claimed = Block("x.md", 1, "console", "$ zerosum games\nzerosum: error: ...\n")
    assert "shows an error but succeeded" in check_console(claimed, shell_env)[0]

    document = tmp_path / "wrong.md"
    document.write_text("```python\n>>> 6 * 7\n41\n```\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (report,) = check_python("wrong.md", monkeypatch)
    assert "Expected:\n    41\nGot:\n    42" in report


def test_the_harness_refuses_malformed_blocks() -> None:
    with pytest.raises(ValueError, match="never closed"):
        blocks("x.md", "```console\n$ zerosum games\n")
    with pytest.raises(ValueError, match="before any \\$ command"):
        commands(Block("x.md", 1, "console", "output\n$ zerosum games\n"))
    with pytest.raises(ValueError, match="without a \\$ command"):
        commands(Block("x.md", 1, "console", "\n"))


# --------------------------------------------------------------------------- the example game


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hexapawn() -> Any:
    return _load(ROOT / "docs" / "examples" / "hexapawn.py", "docs_example_hexapawn").Hexapawn()


def test_the_example_game_passes_the_conformance_checks(hexapawn: Any) -> None:
    checks = _load(ROOT / "tests" / "games" / "test_conformance.py", "docs_conformance")
    checks.test_metadata(hexapawn)
    checks.test_rules_hold_along_random_playouts(hexapawn)
    checks.test_notation_round_trips(hexapawn)


def test_the_example_game_agrees_with_every_algorithm_everywhere(hexapawn: Any) -> None:
    values = solve_all(hexapawn)
    assert len(values) == 135
    assert values[hexapawn.key(hexapawn.initial_state())] == hexapawn.info.solved_value == -1
    seen = {hexapawn.initial_state()}
    frontier = list(seen)
    while frontier:
        state = frontier.pop()
        expected = values[hexapawn.key(state)]
        for name, search in ALGORITHMS.items():
            assert search(hexapawn, state).score == expected, (name, hexapawn.format_state(state))
        assert solve(hexapawn, state).value == expected
        for move in hexapawn.actions(state):
            child = hexapawn.result(state, move)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    assert len(seen) == len(values)


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("b1b4", InvalidMoveError, "cannot read move 'b1b4' in bbb/.../www w"),
        ("hello", InvalidMoveError, "write two cells like 'b1-b2'"),
        ("b1-c2", IllegalMoveError, "the legal moves are a1-a2, b1-b2, c1-c2"),
        ("b3-b2", IllegalMoveError, "illegal move 'b3-b2' in bbb/.../www w"),
    ],
)
def test_the_example_game_names_bad_moves(
    hexapawn: Any, text: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        hexapawn.parse_move(hexapawn.initial_state(), text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bbb/.../www", "write three rows of w, b or . and the side to move"),
        ("bbb/.q./www w", "'q' is not w, b or ."),
        ("bbb/bbb/www w", "more than three pawns"),
    ],
)
def test_the_example_game_names_bad_positions(hexapawn: Any, text: str, message: str) -> None:
    with pytest.raises(InvalidStateError, match=re.escape(message)):
        hexapawn.parse_state(text)


def test_the_example_game_ends_in_each_of_its_three_ways(hexapawn: Any) -> None:
    reached = hexapawn.parse_state("w../.b./... b")  # a white pawn on the far row
    captured = hexapawn.parse_state("..w/.../... b")  # Black has no pawn left
    blocked = hexapawn.parse_state("b../w../... w")  # White to move, and stuck
    for state in (reached, captured, blocked):
        assert hexapawn.is_terminal(state)
        last_mover = 1 - hexapawn.to_move(state)
        assert hexapawn.utility(state, last_mover) == 1 == -hexapawn.utility(state, 1 - last_mover)
    assert hexapawn.format_move(hexapawn.parse_state("bbb/.w./w.w b"), (0, 4)) == "a3xb2"
