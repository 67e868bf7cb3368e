"""Chess's engine hooks against python-chess, the tapered evaluation's terms, and the
engine's selective features on chess: mates found with every feature on, at the same
distance as the full-width search proves.

python-chess is the oracle: whether the side to move is in check, the position after a
null move, the pieces a capture takes and moves, and forced mates found by its own
brute-force search."""

from __future__ import annotations

import random
from typing import Any

import pytest

from zerosum.game import WIN
from zerosum.games.chess import Chess, mvv_lva
from zerosum.games.chess.evaluation import evaluate, pawn_structure, phase
from zerosum.search.engine import Engine, EngineOptions, Limits

chess = pytest.importorskip("chess", reason="python-chess is the oracle: pip install chess")

GAME = Chess()
FEATURES = ("capture_order", "check_extensions", "null_move", "lmr", "futility")
NONE = EngineOptions(**dict.fromkeys(FEATURES, False))


def random_boards(count: int, seed: int) -> list[Any]:
    """python-chess boards from seeded random games, at every length up to 120 plies."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = chess.Board()
        for _ in range(rng.randrange(121)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board)
    return boards


BOARDS = random_boards(300, 17)

# ---------------------------------------------------------------- hooks against the oracle


def test_in_check_agrees_with_python_chess() -> None:
    checks = 0
    for board in BOARDS:
        state = GAME.parse_state(board.fen())
        assert GAME.in_check(state) == board.is_check(), board.fen()
        checks += board.is_check()
    assert checks > 10  # the sample holds checks to agree on


def test_null_move_is_python_chess_null_move_where_allowed() -> None:
    passed = refused = 0
    for board in BOARDS:
        state = GAME.parse_state(board.fen())
        after = GAME.null_move(state)
        side = board.occupied_co[board.turn]
        pieces_only = side & ~(board.pawns | board.kings)
        if board.is_check() or not pieces_only:
            assert after is None, board.fen()
            refused += 1
            continue
        assert after is not None
        board.push(chess.Move.null())
        expected = GAME.parse_state(board.fen())
        assert after[:11] == expected[:11], board.fen()  # pieces, side, castling, en passant
        assert GAME.key(after) == GAME.key(expected)
        assert after[14] == ()  # a new repetition history
        passed += 1
    assert passed > 100 and refused > 10


VICTIM = {chess.PAWN: 1, chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}
"""MVV-LVA's rank of a taken piece (minor pieces alike)."""
ATTACKER = {
    chess.PAWN: 1,
    chess.KNIGHT: 2,
    chess.BISHOP: 3,
    chess.ROOK: 4,
    chess.QUEEN: 5,
    chess.KING: 6,
}
"""MVV-LVA's rank of the moving piece."""


def test_capture_values_are_mvv_lva_by_python_chess_pieces() -> None:
    seen = 0
    for board in BOARDS:
        state = GAME.parse_state(board.fen())
        for move in GAME.noisy_actions(state):
            oracle = chess.Move.from_uci(GAME.format_uci(state, move))
            mover = board.piece_type_at(oracle.from_square)
            assert mover is not None
            attacker = ATTACKER[mover]
            victim = 0
            if board.is_en_passant(oracle):
                victim = 1
            elif board.is_capture(oracle):
                taken = board.piece_type_at(oracle.to_square)
                assert taken is not None
                victim = VICTIM[taken]
            if oracle.promotion:
                victim += VICTIM[oracle.promotion]
            assert GAME.capture_value(state, move) == 8 * victim - attacker, oracle
            seen += 1
    assert seen > 200


def test_mvv_lva_orders_victims_then_attackers() -> None:
    # white pawn, knight, rook and queen can all take the black queen on d5; the queen
    # also takes a pawn on a5
    state = GAME.parse_state("4k3/8/8/p2q4/2P2N2/8/3R4/Q3K3 w - - 0 1")
    values = {GAME.format_move(state, m): mvv_lva(state, m) for m in GAME.noisy_actions(state)}
    assert values["cxd5"] > values["Nxd5"] > values["Rxd5"] > values["Qxa5"]
    assert values["Qxa5"] == 8 * 1 - 5
    assert values["cxd5"] == 8 * 4 - 1


# ---------------------------------------------------------------- the tapered evaluation


def test_evaluation_is_colour_symmetric_on_random_positions() -> None:
    for board in BOARDS[:150]:
        state = GAME.parse_state(board.fen())
        mirrored = GAME.parse_state(board.mirror().fen())
        assert evaluate(state) == evaluate(mirrored), board.fen()


def test_phase_runs_from_the_full_board_to_kings_and_pawns() -> None:
    assert phase(GAME.initial_state()) == 24
    assert phase(GAME.parse_state("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1")) == 0
    assert phase(GAME.parse_state("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")) == 2


def test_pawn_structure_terms() -> None:
    def white(squares: str) -> int:
        return sum(1 << chess.parse_square(name) for name in squares.split())

    # a lone white pawn on e4 against nothing: isolated and passed, rank 4 from white
    mg, eg = pawn_structure(white("e4"), 0)
    assert (mg, eg) == (-10 + 15, -15 + 35)
    # doubled on the e-file, both isolated and passed
    mg, eg = pawn_structure(white("e2 e3"), 0)
    assert (mg, eg) == (-10 - 2 * 10 + 5 + 10, -20 - 2 * 15 + 10 + 20)
    # a black pawn on d5 stops e4 from being passed; each side mirrors the other
    mg, eg = pawn_structure(white("e4"), white("d5"))
    assert (mg, eg) == (0, 0)


def test_the_endgame_values_a_passed_pawn_and_an_active_king() -> None:
    # kings and one pawn: the phase is 0, so the endgame tables and terms alone count
    state = GAME.parse_state("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1")
    pawn = 94 + 10 * 3  # endgame value, and 10 a rank beyond the second
    kings = -20 - (-20)  # e1 and e8 mirror each other
    assert evaluate(state) == pawn + kings + (-15 + 60)  # isolated, passed on rank 5


# ---------------------------------------------------------------- mates with the features


def _mate_in(board: Any, moves: int) -> bool:
    """python-chess by brute force: the side to move mates in at most ``moves`` moves."""
    for move in list(board.legal_moves):
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            if (
                moves > 1
                and not board.is_game_over()
                and all(_after_reply(board, reply, moves - 1) for reply in list(board.legal_moves))
            ):
                return True
        finally:
            board.pop()
    return False


def _after_reply(board: Any, reply: Any, moves: int) -> bool:
    board.push(reply)
    try:
        return _mate_in(board, moves)
    finally:
        board.pop()


MATES = (
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1),
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1),
    ("k7/8/2K5/8/8/8/8/7R w - - 0 1", 2),
    ("7k/8/5KQ1/8/8/8/8/8 w - - 0 1", 1),
    ("5k2/8/5K2/8/8/8/8/4Q3 w - - 0 1", 2),
)


@pytest.mark.parametrize(("fen", "moves"), MATES)
def test_mates_are_found_at_their_distance_with_every_feature_on(fen: str, moves: int) -> None:
    board = chess.Board(fen)
    assert _mate_in(board, moves) and (moves == 1 or not _mate_in(board, moves - 1))
    state = GAME.parse_state(fen)
    plies = 2 * moves - 1
    for options in (EngineOptions(), NONE):
        found = Engine(GAME, options).search(state, Limits(depth=plies))
        assert found.score == WIN - plies, (fen, options)
        line = board.copy()
        for move in found.pv:
            line.push(chess.Move.from_uci(GAME.format_uci(state, move)))
            state = GAME.result(state, move)
        state = GAME.parse_state(fen)
        assert line.is_checkmate() and len(found.pv) == plies


ITALIAN = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


@pytest.mark.parametrize(
    ("feature", "depth"),
    [("capture_order", 3), ("check_extensions", 4), ("null_move", 4), ("lmr", 4), ("futility", 4)],
)
def test_each_switch_reaches_the_search_and_keeps_it_legal(feature: str, depth: int) -> None:
    state = GAME.parse_state(ITALIAN)
    on = Engine(GAME, EngineOptions(**{feature: True})).search(state, Limits(depth=depth))
    off = Engine(GAME, EngineOptions(**{feature: False})).search(state, Limits(depth=depth))
    assert on.stats.nodes != off.stats.nodes  # the switch changes the tree searched
    board = chess.Board(ITALIAN)
    for found in (on, off):
        assert chess.Move.from_uci(GAME.format_uci(state, found.best_move)) in board.legal_moves
