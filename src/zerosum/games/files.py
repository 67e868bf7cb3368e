"""Reading a game's definition from a file, with the errors every loader gives."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from zerosum.game import InvalidGameError

__all__ = ["GameText", "read_game_file"]


@dataclass(frozen=True, slots=True)
class GameText:
    """A game file's content that arrived without a file: a browser's upload.

    It stands wherever a loader takes a path (``maze:file=...``): :func:`read_game_file`
    returns its ``text`` and reads nothing from disk, and ``name`` (the upload's file
    name, never opened) names it in error messages."""

    name: str
    text: str

    def __str__(self) -> str:
        return self.name


def read_game_file(path: str | os.PathLike[str] | GameText, kind: str) -> str:
    """Return the UTF-8 text of ``path``, a ``kind`` file (``"tree"``, ``"graph"``...).

    A :class:`GameText` gives its text at once. Raises
    :class:`~zerosum.game.InvalidGameError` naming the file when it cannot be read or is
    not UTF-8 text, so a command line shows one clear line."""
    if isinstance(path, GameText):
        return path.text
    source = os.fspath(path)
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidGameError(
            f"cannot read {kind} file {source}: {error.strerror or error}"
        ) from None
    except UnicodeDecodeError as error:
        raise InvalidGameError(f"{source}: not UTF-8 text: {error.reason}") from None
