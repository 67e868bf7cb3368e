"""PGN export (:mod:`zerosum.pgn`): real chess match records written as PGN and read
back by python-chess's PGN reader, an independent oracle: the same moves, result and
final position; tags escaped, games from a FEN, lines of at most 79 characters, and
errors for what PGN cannot hold."""

from __future__ import annotations

import io
import re
from typing import Any

import chess
import chess.pgn
import pytest

from zerosum.arena import GameRecord, read_records
from zerosum.cli import main
from zerosum.games import registry
from zerosum.pgn import LINE_LENGTH, PgnError, game_to_pgn

HEADER: dict[str, Any] = {
    "kind": "match",
    "game": "chess",
    "agents": ["random:name=a", "random:name=b"],
}
# after 1. f3 e5 2. g4: black to move, and Qh4 mates
FOOL = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2"


def record(moves: tuple[str, ...], **changes: Any) -> GameRecord:
    """A game record of ``moves`` with a draw by the rules, unless ``changes`` say else."""
    fields: dict[str, Any] = {
        "index": 0,
        "seats": (0, 1),
        "opening": 0,
        "moves": moves,
        "winner": None,
        "reason": "end",
        "detail": "",
        "time_used": (0.0, 0.0),
        "move_times": (),
        "seed": 1,
    }
    return GameRecord(**{**fields, **changes})


def read_back(text: str) -> chess.pgn.Game:
    """The one game of ``text`` as python-chess reads it, refusing any reader error."""
    parsed = chess.pgn.read_game(io.StringIO(text))
    assert parsed is not None
    assert not parsed.errors, parsed.errors
    return parsed


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], list[GameRecord]]:
    """A real two-game match of random players, to the end by the rules."""
    path = tmp_path_factory.mktemp("pgn") / "m.jsonl"
    argv = "match chess random:name=a random:name=b --games 2 --workers 1 --seed 3 --output"
    assert main([*argv.split(), str(path)]) == 0
    return read_records(path)


def test_a_real_match_reads_back_with_its_moves_result_and_position(
    match: tuple[dict[str, Any], list[GameRecord]],
) -> None:
    header, records = match
    game = registry.make("chess")
    assert len(records) == 2
    for rec in records:
        text = game_to_pgn(header, rec, game)
        parsed = read_back(text)
        assert parsed.headers["Result"] == rec.result
        assert parsed.headers["Round"] == str(rec.index + 1)
        assert [parsed.headers["White"], parsed.headers["Black"]] == [
            ["a", "b"][seat] for seat in rec.seats
        ]
        assert parsed.headers["Termination"] == "normal"
        board = parsed.board()
        state = game.initial_state()
        for move, text_move in zip(parsed.mainline_moves(), rec.moves, strict=True):
            assert board.san(move) == text_move
            board.push(move)
            state = game.result(state, game.parse_move(state, text_move))
        assert len(board.move_stack) == len(rec.moves)
        # placement, side to move, castling: the ep field's conventions differ
        assert board.fen().split()[:3] == game.format_state(state).split()[:3]
        assert board.outcome(claim_draw=True) is not None  # the rules ended it
        assert all(len(line) <= LINE_LENGTH for line in text.splitlines())


def test_a_game_from_a_fen_with_black_first_and_the_clock_tags() -> None:
    header = {**HEADER, "time_control": "40/60+0.5"}
    rec = record(("Qh4#",), start=FOOL, winner=1)
    text = game_to_pgn(header, rec, registry.make("chess"))
    assert '[SetUp "1"]' in text and f'[FEN "{FOOL}"]' in text
    assert '[TimeControl "40/60+0.5"]' in text
    assert text.endswith("\n\n2... Qh4# 0-1\n")
    parsed = read_back(text)
    assert parsed.end().board().is_checkmate()
    assert parsed.headers["Result"] == "0-1"


def test_tags_are_escaped_and_the_detail_becomes_a_comment() -> None:
    header = {**HEADER, "agents": ['random:name=say "hi" \\o/', "random:name=b"]}
    detail = "both agents saw a score of 0 } for long enough " + "x" * 100
    rec = record(("e4", "e5"), reason="adjudicated", detail=detail)
    text = game_to_pgn(header, rec, registry.make("chess"))
    assert '[White "say \\"hi\\" \\\\o/"]' in text
    assert '[Termination "adjudication"]' in text
    assert all(len(line) <= LINE_LENGTH for line in text.splitlines())
    parsed = read_back(text)
    # python-chess keeps a tag's escapes: undone here as the standard defines them
    assert re.sub(r"\\(.)", r"\1", parsed.headers["White"]) == 'say "hi" \\o/'
    assert parsed.headers["Black"] == "b"  # the quote did not end the tag early
    assert parsed.end().comment.startswith("both agents saw a score of 0 ) for long")
    assert parsed.headers["Result"] == "1/2-1/2"


@pytest.mark.parametrize(
    ("reason", "termination"),
    [("time", "time forfeit"), ("illegal", "rules infraction"), ("crash", "abandoned")],
)
def test_each_reason_has_its_termination(reason: str, termination: str) -> None:
    text = game_to_pgn(
        HEADER, record(("d4",), reason=reason, winner=0, detail="d"), registry.make("chess")
    )
    assert f'[Termination "{termination}"]' in text
    assert text.endswith("{d} 1-0\n")


def test_a_void_game_has_no_result() -> None:
    text = game_to_pgn(HEADER, record(("d4",), reason="error"), registry.make("chess"))
    assert '[Result "*"]' in text and text.endswith("1. d4 *\n")


def test_chess960_says_its_variant() -> None:
    text = game_to_pgn(HEADER, record(("e4",)), registry.make("chess:chess960=true"))
    assert '[Variant "Chess960"]' in text


def test_other_games_and_illegal_moves_are_refused() -> None:
    with pytest.raises(PgnError, match="this event's game is tictactoe"):
        game_to_pgn(HEADER, record(("b2",)), registry.make("tictactoe"))
    with pytest.raises(PgnError, match="game 1, ply 2"):
        game_to_pgn(HEADER, record(("e4", "e4")), registry.make("chess"))
    with pytest.raises(PgnError, match="seats an agent"):
        game_to_pgn(HEADER, record(("e4",), seats=(0, 2)), registry.make("chess"))
