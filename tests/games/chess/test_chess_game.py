"""Chess as a game: the conformance checks every registered game passes, the checked
layer's errors, SAN details, castling forms, rendering and the evaluation."""

from __future__ import annotations

import pytest

from games import test_conformance as conformance
from zerosum import notation as shared_notation
from zerosum.game import (
    WIN_THRESHOLD,
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
)
from zerosum.games.chess import START, Chess
from zerosum.games.chess.notation import format_uci, square_name
from zerosum.games.chess.rules import legal_moves

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@pytest.fixture
def game() -> Chess:
    return Chess()


@pytest.fixture
def long_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random chess games often outlast the conformance test's 400 plies (the fifty-move
    rule bounds a game by about 6000 plies, not 400)."""
    monkeypatch.setattr(conformance, "MAX_PLIES", 6000)


# --------------------------------------------------------------------------- conformance


@pytest.mark.usefixtures("long_playouts")
def test_conformance_metadata_and_playouts(game: Chess) -> None:
    conformance.test_metadata(game)
    conformance.test_rules_hold_along_random_playouts(game)


@pytest.mark.usefixtures("long_playouts")
def test_conformance_notation_round_trips(game: Chess) -> None:
    conformance.test_notation_round_trips(game)


@pytest.mark.usefixtures("long_playouts")
def test_conformance_keys_evaluation_and_noisy_moves(game: Chess) -> None:
    seen: dict[int, tuple[int, str]] = {}
    for line in conformance._playouts(game, seed=2):
        for state in line:
            signature = (game.to_move(state), repr(sorted(game.actions(state))))
            assert seen.setdefault(game.key(state), signature) == signature
            value = game.evaluate(state)
            assert isinstance(value, int) and -WIN_THRESHOLD < value < WIN_THRESHOLD
            noisy = game.noisy_actions(state)
            assert set(noisy) <= set(game.actions(state))
            them = state[0] if state[8] else state[1]
            for move in game.actions(state):
                takes = bool(them >> (move >> 6 & 63) & 1) or (
                    move >> 6 == state[10] and bool(state[2] >> (move & 63) & 1)
                )
                assert (move in noisy) == (takes or move >> 12 > 0)


@pytest.mark.usefixtures("long_playouts")
def test_the_shared_checked_layer_reads_back_every_move(game: Chess) -> None:
    line = conformance._playouts(game, seed=7)[0]
    label = shared_notation.move_formatter(game)
    for state in line[:-1]:
        assert isinstance(shared_notation.render(game, state), str)
        for move in game.actions(state):
            assert shared_notation.parse_move(game, state, label(state, move)) == move


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "fen",
    [
        "",
        "hello",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",  # seven ranks
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # nine squares
        "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # seven squares
        "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # a ninth piece
        "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # no piece x
        "rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # no black king
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w KQkq - 0 1",  # two white kings
        "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1",  # pawn on rank 8
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",  # side
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1",  # castling
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1",  # repeated right
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",  # ep for black
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",  # clock
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",  # black in check, white to move
        START + " " * 200,
    ],
)
def test_bad_fen_raises_naming_the_input(game: Chess, fen: str) -> None:
    with pytest.raises(InvalidStateError) as error:
        game.parse_state(fen)
    assert repr(fen[:20])[:-1] in str(error.value)


def test_bad_moves_raise_naming_the_input_and_the_position(game: Chess) -> None:
    state = game.initial_state()
    for text, error in [
        ("hello", InvalidMoveError),
        ("", InvalidMoveError),
        ("e2e5", IllegalMoveError),
        ("e5", IllegalMoveError),
        ("Nf4", IllegalMoveError),
        ("O-O", IllegalMoveError),
        ("e2e4q", IllegalMoveError),
        ("z9", InvalidMoveError),
    ]:
        with pytest.raises(error) as raised:
            game.parse_move(state, text)
        assert repr(text) in str(raised.value)
        if error is IllegalMoveError:
            assert START in str(raised.value)


def test_ambiguous_san_is_refused() -> None:
    game = Chess()
    state = game.parse_state("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    with pytest.raises(IllegalMoveError, match="ambiguous"):
        game.parse_move(state, "Nd2")
    assert game.format_move(state, game.parse_move(state, "Nbd2")) == "Nbd2"


# --------------------------------------------------------------------------- notation


def test_san_disambiguates_by_file_rank_or_square(game: Chess) -> None:
    state = game.parse_state("7k/8/8/8/2Q1Q3/8/2Q5/4K3 w - - 0 1")
    written = {game.format_move(state, move).rstrip("+#") for move in game.actions(state)}
    assert {"Qc4d3", "Qcd3"} & written == {"Qc4d3"}  # rank and file both shared: square
    assert "Qc2b2" not in written and "Qb2" in written  # only one queen reaches b2
    assert "Q4d4" not in written and "Qcd4" in written  # c4 and e4: the file tells


def test_check_and_mate_marks(game: Chess) -> None:
    state = game.initial_state()
    for san in ["f3", "e5", "g4"]:
        state = game.result(state, game.parse_move(state, san))
    mate = game.parse_move(state, "Qh4")
    assert game.format_move(state, mate) == "Qh4#"
    after = game.result(state, mate)
    assert game.is_terminal(after) and game.utility(after, 1) == 1
    assert game.utility(after, 0) == -1


def test_castling_in_every_form() -> None:
    game = Chess()
    state = game.parse_state(KIWIPETE)
    short = game.parse_move(state, "O-O")
    assert game.parse_move(state, "0-0") == game.parse_move(state, "e1g1") == short
    assert game.parse_move(state, "e1h1") == short  # the king onto its rook
    assert format_uci(state, short) == "e1g1"
    assert format_uci(state, short, chess960=True) == "e1h1"
    assert game.format_move(state, game.parse_move(state, "e1c1")) == "O-O-O"


def test_promotions_and_en_passant(game: Chess) -> None:
    state = game.parse_state("4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert game.format_state(state).split()[3] == "d6"
    assert game.format_move(state, game.parse_move(state, "exd6")) == "exd6"
    assert game.parse_move(state, "b8=N") == game.parse_move(state, "b7b8n")
    assert game.format_move(state, game.parse_move(state, "b8Q")) == "b8=Q+"
    # an en passant square with no legal capture is not kept
    quiet = game.parse_state("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1")
    assert game.format_state(quiet).split()[3] == "-"


def test_render_draws_the_board_with_coordinates(game: Chess) -> None:
    picture = game.render(game.initial_state())
    lines = picture.splitlines()
    assert lines[0] == "8 r n b q k b n r"
    assert lines[7] == "1 R N B Q K B N R"
    assert lines[8] == "  a b c d e f g h"
    assert lines[9] == "white to move"


def test_fen_round_trips_and_start(game: Chess) -> None:
    assert game.format_state(game.initial_state()) == START
    assert game.parse_state(START) == game.initial_state()
    for fen in [KIWIPETE, "8/8/8/8/8/8/8/K6k b - - 99 120"]:
        assert game.format_state(game.parse_state(fen)) == fen
    epd = game.parse_state("8/8/8/8/8/8/8/K6k b - -")
    assert game.format_state(epd) == "8/8/8/8/8/8/8/K6k b - - 0 1"
    assert square_name(0) == "a1" and square_name(63) == "h8"


# --------------------------------------------------------------------------- draws


def test_fifty_moves_draw_unless_mated(game: Chess) -> None:
    drawn = game.parse_state("4k3/8/8/8/8/8/R7/4K3 w - - 100 80")
    assert game.is_terminal(drawn) and game.utility(drawn, 0) == 0
    assert legal_moves(drawn)  # moves exist: the rule, not a stalemate, ends it
    mated = game.parse_state("R3k3/8/4K3/8/8/8/8/8 b - - 100 80")
    assert game.is_terminal(mated) and game.utility(mated, 0) == 1
    going = game.parse_state("4k3/8/8/8/8/8/R7/4K3 w - - 99 80")
    assert not game.is_terminal(going)


@pytest.mark.parametrize(
    ("fen", "dead"),
    [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", True),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", True),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", True),  # bishops on one colour
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", False),  # bishops on both colours
        ("4kn2/8/8/8/8/8/8/2B1K3 w - - 0 1", False),
        ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", False),
        ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", False),
    ],
)
def test_insufficient_material(game: Chess, fen: str, dead: bool) -> None:
    assert game.is_terminal(game.parse_state(fen)) == dead


def test_stalemate_is_a_draw(game: Chess) -> None:
    state = game.parse_state("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")
    assert game.is_terminal(state) and game.actions(state) == []
    assert game.utility(state, 0) == game.utility(state, 1) == 0


def test_evaluation_is_symmetric(game: Chess) -> None:
    state = game.parse_state(KIWIPETE)
    mirrored = game.parse_state(
        "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1"
    )
    assert game.evaluate(state) == game.evaluate(mirrored)
    assert game.evaluate(game.initial_state()) == 0
