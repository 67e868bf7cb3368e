"""PGN export of the chess games a match or a tournament recorded.

:func:`game_to_pgn` writes one :class:`~zerosum.arena.GameRecord` as a game of the PGN
standard (Portable Game Notation, export format), which chess GUIs, databases and
python-chess read:

- the Seven Tag Roster: ``Event`` (``chess match`` or ``chess tournament``, from the
  record file's header), ``Site "?"``, ``Date "????.??.??"`` (records hold no date),
  ``Round`` (the game's index + 1), ``White`` and ``Black`` (the agents' labels, as the
  event's tables name them, by seat) and ``Result``;
- ``SetUp "1"`` and ``FEN`` for a game started from a position, ``Variant "Chess960"``
  for Chess960, ``TimeControl`` (``[MOVES/]BASE[+INCREMENT]`` seconds, cutechess-cli's
  form of PGN's ``moves/seconds`` and ``seconds+increment``) for an event on a clock,
  and ``Termination`` from the record's reason (:data:`TERMINATIONS`);
- movetext with move numbers (``1. e4 e5 2. Nf3``; ``12... Kf7`` when black moves first
  from a position), every move read again through the game, so an illegal or unreadable
  one is an error rather than a broken file, and written in SAN; then a comment with the
  detail of a game the rules did not end (``{...}``) and the result. Lines are at most
  :data:`LINE_LENGTH` characters.

Only chess is written: its moves are SAN, which is what PGN's movetext is. Any other game
raises :class:`PgnError`, as do moves that are not legal.
"""

from __future__ import annotations

from typing import Any

from zerosum.arena import GameRecord, TimeControl
from zerosum.game import ZerosumError
from zerosum.games.chess import Chess
from zerosum.specs import parse_agent_spec

__all__ = ["LINE_LENGTH", "TERMINATIONS", "PgnError", "game_to_pgn"]

LINE_LENGTH = 79
"""The longest line written: the PGN standard's export format asks for under 80."""

TERMINATIONS = {
    "end": "normal",
    "time": "time forfeit",
    "illegal": "rules infraction",
    "crash": "abandoned",
    "resign": "normal",
    "error": "abandoned",
    "adjudicated": "adjudication",
}
"""The ``Termination`` tag's value for each :data:`zerosum.arena.REASONS` entry."""


class PgnError(ZerosumError):
    """A record that cannot be written as PGN: not chess, or moves that are not legal."""


def _tag(name: str, value: str) -> str:
    """One tag pair, its value escaped as the standard asks (``\\\\`` and ``\\"``); a
    line break, which a tag cannot hold, becomes a space."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{" ".join(escaped.splitlines())}"]'


def _comment_words(text: str) -> list[str]:
    """The words of a ``{...}`` comment. PGN has no escape inside a comment, whose first
    ``}`` ends it, so a ``}`` of the text is written ``)``."""
    words = text.replace("}", ")").split()
    words[0] = "{" + words[0]
    words[-1] += "}"
    return words


def _wrapped(tokens: list[str]) -> str:
    """The tokens joined by spaces in lines of at most :data:`LINE_LENGTH` characters;
    a longer token (a comment's word) is cut into pieces of that length."""
    lines: list[str] = []
    line = ""
    for token in tokens:
        pieces = [token[i : i + LINE_LENGTH] for i in range(0, len(token), LINE_LENGTH)]
        for piece in pieces:
            if line and len(line) + 1 + len(piece) <= LINE_LENGTH:
                line += " " + piece
            else:
                if line:
                    lines.append(line)
                line = piece
    lines.append(line)
    return "\n".join(lines)


def _labels(header: dict[str, Any]) -> list[str]:
    """The agents' names from the header's specs, as the event's tables show them."""
    agents = header.get("agents")
    if not isinstance(agents, list) or not all(isinstance(spec, str) for spec in agents):
        raise PgnError("the record file's header names no agents")
    return [parse_agent_spec(spec).label for spec in agents]


def _movetext(record: GameRecord, game: Chess) -> list[str]:
    """The moves as PGN tokens, numbered, each read again through ``game`` and written
    in SAN; raises :class:`PgnError` naming the game and the move that is not legal."""
    try:
        state = game.parse_state(record.start) if record.start else game.initial_state()
    except ZerosumError as error:
        raise PgnError(f"game {record.index + 1}: its start position: {error}") from None
    number = int(game.format_state(state).split()[5])  # FEN's sixth field: the move number
    tokens: list[str] = []
    for ply, text in enumerate(record.moves, start=1):
        try:
            action = game.parse_move(state, text)
        except ZerosumError as error:
            raise PgnError(f"game {record.index + 1}, ply {ply}: {error}") from None
        black = game.to_move(state) == 1
        if not black:
            tokens.append(f"{number}.")
        elif not tokens:  # black moves first from a position
            tokens.append(f"{number}...")
        tokens.append(game.format_move(state, action))
        state = game.result(state, action)
        number += black
    return tokens


def game_to_pgn(header: dict[str, Any], record: GameRecord, game: Any) -> str:
    """Write ``record``, a game of the event whose record-file header is ``header``, as
    one PGN game (tags, a blank line, the movetext, and a final newline).

    ``game`` is the event's game (``registry.make(header["game"])``). Raises
    :class:`PgnError` when it is not chess, when the header has no agents, or when a
    move of the record is not legal in its position."""
    if not isinstance(game, Chess):
        name = getattr(getattr(game, "info", None), "name", type(game).__name__)
        raise PgnError(f"PGN holds chess games in SAN, and this event's game is {name}")
    labels = _labels(header)
    try:
        white, black = (labels[seat] for seat in record.seats)
    except IndexError:
        raise PgnError(f"game {record.index + 1} seats an agent the header does not name") from None
    tags = [
        _tag("Event", f"{header.get('game', 'chess')} {header.get('kind', 'match')}"),
        _tag("Site", "?"),
        _tag("Date", "????.??.??"),
        _tag("Round", str(record.index + 1)),
        _tag("White", white),
        _tag("Black", black),
        _tag("Result", record.result),
    ]
    if game.chess960:
        tags.append(_tag("Variant", "Chess960"))
    if record.start:
        tags += [_tag("SetUp", "1"), _tag("FEN", record.start)]
    if isinstance(header.get("time_control"), str):
        tags.append(_tag("TimeControl", TimeControl.parse(header["time_control"]).format()))
    tags.append(_tag("Termination", TERMINATIONS[record.reason]))
    tokens = _movetext(record, game)
    if record.reason != "end" and record.detail.strip():
        tokens += _comment_words(record.detail)
    tokens.append(record.result)
    return "\n".join(tags) + "\n\n" + _wrapped(tokens) + "\n"
