"""Reading a game's definition from a file, with the errors every loader gives."""

from __future__ import annotations

import os
from pathlib import Path

from zerosum.game import InvalidGameError

__all__ = ["read_game_file"]


def read_game_file(path: str | os.PathLike[str], kind: str) -> str:
    """Return the UTF-8 text of ``path``, a ``kind`` file (``"tree"``, ``"graph"``...).

    Raises :class:`~zerosum.game.InvalidGameError` naming the file when it cannot be
    read or is not UTF-8 text, so a command line shows one clear line."""
    source = os.fspath(path)
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidGameError(
            f"cannot read {kind} file {source}: {error.strerror or error}"
        ) from None
    except UnicodeDecodeError as error:
        raise InvalidGameError(f"{source}: not UTF-8 text: {error.reason}") from None
