"""Chess's own draw rules can be switched off (``chess:draws=0``): then only mate and
stalemate end a game, and a match bounds it with the arena's move limit."""

from __future__ import annotations

import chess as oracle

from zerosum.arena import Adjudication, Event, Position, run_event
from zerosum.games import registry
from zerosum.games.chess import Chess

WITH = Chess()
WITHOUT = registry.make("chess:draws=0")


def after(game: Chess, fen: str, *moves: str) -> object:
    state = game.parse_state(fen)
    for text in moves:
        state = game.result(state, game.parse_move(state, text))
    return state


def test_each_draw_rule_ends_the_game_only_when_on() -> None:
    shuffle = ("Nf3", "Nf6", "Ng1", "Ng8") * 2
    cases = {
        "bare kings": ("8/8/8/4k3/8/8/3K4/8 w - - 0 1", ()),
        "fifty moves": ("4k3/8/8/8/8/8/4P3/R3K3 w - - 100 80", ()),
        "threefold": (oracle.STARTING_FEN, shuffle),
    }
    for name, (fen, moves) in cases.items():
        board = oracle.Board(fen)
        for text in moves:
            board.push_san(text)
        assert board.is_game_over(claim_draw=True), name  # the position is a FIDE draw
        assert WITH.is_terminal(after(WITH, fen, *moves)), name
        state = after(WITHOUT, fen, *moves)
        assert not WITHOUT.is_terminal(state), name
        assert len(WITHOUT.actions(state)) == board.legal_moves.count(), name


def test_mate_and_stalemate_end_the_game_either_way() -> None:
    mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    stalemated = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    for game in (WITH, WITHOUT):
        assert game.utility(game.parse_state(mated), 0) == -1
        assert game.is_terminal(game.parse_state(stalemated))
        assert game.utility(game.parse_state(stalemated), 0) == 0


def test_a_match_without_draw_rules_ends_at_the_move_limit() -> None:
    event = Event(
        "match",
        "chess:draws=0",
        ("random:name=a", "random:name=b"),
        games=2,
        seed=1,
        openings=(Position("8/8/8/4k3/8/8/3K4/8 w - - 0 1"),),
        adjudication=Adjudication(max_moves=30),
    )
    records = run_event(event, workers=1)
    assert [(r.reason, r.winner, len(r.moves)) for r in records] == [("adjudicated", None, 30)] * 2
