"""The checked layer of xiangqi: FEN both ways and its checks, moves in ICCS, WXF and
Chinese notation both ways (published examples, doubled pieces worked out by hand, every
error), round trips over random positions, and the board pictures."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.game import IllegalMoveError, InvalidMoveError, InvalidStateError
from zerosum.games.xiangqi import notation
from zerosum.games.xiangqi.notation import (
    format_chinese,
    format_coordinates,
    format_fen,
    format_move,
    format_wxf,
    parse_chinese,
    parse_coordinates,
    parse_fen,
    parse_move,
    parse_wxf,
    render,
    square_name,
)
from zerosum.games.xiangqi.rules import START, START_FEN, State, legal_moves, result


def _move(frm: str, to: str) -> int:
    return _sq(frm) | _sq(to) << 7


def _sq(name: str) -> int:
    return "abcdefghi".index(name[0]) + 9 * int(name[1:])


def _after(*coordinates: str) -> State:
    state = START
    for text in coordinates:
        state = result(state, parse_coordinates(state, text))
    return state


# --------------------------------------------------------------------------- FEN


def test_start_position_reads_and_writes_as_fairy_stockfish_does() -> None:
    assert parse_fen(START_FEN) == START
    assert format_fen(START) == START_FEN
    assert START_FEN == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


@pytest.mark.parametrize(
    "text",
    [
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",  # h, e
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",  # r to move
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -",
        "  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0 ",
    ],
)
def test_older_letters_red_to_move_and_missing_fields_read_as_the_start(text: str) -> None:
    assert parse_fen(text) == START


def test_fen_keeps_the_clocks_and_the_side_to_move() -> None:
    fen = "3k5/9/9/9/1C7/9/9/1C7/9/4K4 b - - 37 61"
    state = parse_fen(fen)
    assert format_fen(state) == fen
    assert (state[9], state[10], state[11]) == (1, 37, 61)


@pytest.mark.parametrize(
    ("fen", "why"),
    [
        ("", "a FEN has"),
        ("hello", "a FEN has"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "9 ranks"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "does not hold"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "more than 9"),
        ("rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "'x' is no piece"),
        ("rnbaaabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "black has 0 generals"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "red has 2 generals"),
        ("3k5/9/9/9/9/9/9/9/9/2K6 w", "general stands on c0"),
        ("3k5/9/9/9/9/9/9/4A4/9/4K4 w", "advisor stands on e2"),
        ("3k5/9/9/9/9/9/9/9/9/4K1A2 w", "advisor stands on g0"),
        ("3k5/9/9/9/2B6/9/9/9/9/4K4 w", "elephant stands on c5"),
        ("3k5/9/9/9/9/9/9/3B5/9/4K4 w", "elephant stands on d2"),
        ("3k5/9/9/9/9/9/1P7/9/9/4K4 w", "soldier stands on b3"),
        ("3k5/9/9/9/9/9/9/P8/9/4K4 w", "soldier stands on a2"),
        ("3k5/9/9/3p5/9/9/9/9/9/4K4 w", "soldier stands on d6"),
        ("3k5/9/4p4/9/9/9/9/9/9/4K4 w", "soldier stands on e7"),
        ("3k5/9/9/9/9/RRR6/9/9/9/4K4 w", "3 chariots"),
        ("3k5/9/9/9/9/PPPPPP3/9/9/9/4K4 w", "6 soldiers"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 x", "side to move"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w KQkq - 0 1", "no castling"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - e3 0 1", "no castling"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - x 1", "clock 'x'"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 extra", "a FEN has"),
        ("3k5/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "black is in check"),  # generals face
        ("3k5/3R5/9/9/9/9/9/9/9/4K4 w - - 0 1", "black is in check"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1" + " " * 200, "longer than"),
    ],
)
def test_bad_fen_raises_naming_the_input_and_why(fen: str, why: str) -> None:
    with pytest.raises(InvalidStateError) as error:
        parse_fen(fen)
    assert repr(fen[:20])[:-1] in str(error.value)
    assert why in str(error.value)


# --------------------------------------------------------------------------- published moves


def test_the_central_cannon_opening_in_every_notation() -> None:
    # 1. 炮二平五 马8进7 (C2=5 H8+7, h2e2 h9g7): the most played opening
    cannon = _move("h2", "e2")
    assert format_chinese(START, cannon) == "炮二平五"
    assert format_wxf(START, cannon) == "C2=5"
    assert format_coordinates(cannon) == "h2e2"
    assert format_coordinates(cannon, base=1) == "h3e3"
    for text in ["炮二平五", "砲二平五", "C2=5", "C2.5", "h2e2", "H2-E2", " h2e2 "]:
        assert parse_move(START, text) == cannon, text
    assert parse_move(START, "h3e3", base=1) == cannon
    state = result(START, cannon)
    horse = _move("h9", "g7")
    assert format_chinese(state, horse) == "马８进７"  # black's digits full width, as xqbase
    assert format_wxf(state, horse) == "H8+7"
    assert format_coordinates(horse, base=1) == "h10g8"
    for text in ["马8进7", "马８进７", "馬8進7", "H8+7", "N8+7", "h9g7"]:
        assert parse_move(state, text) == horse, text
    assert parse_move(state, "h10g8", base=1) == horse


def test_start_position_names_of_every_piece() -> None:
    expected = {
        ("e0", "e1"): ("帅五进一", "K5+1"),
        ("d0", "e1"): ("仕六进五", "A6+5"),
        ("g0", "e2"): ("相三进五", "E3+5"),
        ("b0", "c2"): ("马八进七", "H8+7"),
        ("a0", "a2"): ("车九进二", "R9+2"),
        ("b2", "b9"): ("炮八进七", "C8+7"),  # takes the horse
        ("c3", "c4"): ("兵七进一", "P7+1"),
    }
    for (frm, to), (chinese, wxf) in expected.items():
        move = _move(frm, to)
        assert (format_chinese(START, move), format_wxf(START, move)) == (chinese, wxf)
        assert parse_move(START, chinese) == parse_move(START, wxf) == move
    black = result(START, _move("h2", "e2"))
    expected = {
        ("e9", "e8"): ("将５进１", "K5+1"),
        ("f9", "e8"): ("士６进５", "A6+5"),
        ("c9", "e7"): ("象３进５", "E3+5"),
        ("a9", "a7"): ("车１进２", "R1+2"),
        ("b7", "b0"): ("炮２进７", "C2+7"),  # over the cannon on b2, takes the horse
        ("c6", "c5"): ("卒３进１", "P3+1"),
    }
    for (frm, to), (chinese, wxf) in expected.items():
        move = _move(frm, to)
        assert (format_chinese(black, move), format_wxf(black, move)) == (chinese, wxf)
        assert parse_move(black, chinese) == parse_move(black, wxf) == move
    assert parse_move(black, "將5進1") == parse_move(black, "将五进一") == _move("e9", "e8")


# --------------------------------------------------------------------------- doubled pieces


# Each case: a position, a move, its Chinese and its WXF as Fairy-Stockfish writes it,
# worked out by hand from the conventions in the module's docstring.
DOUBLED = [
    # two red cannons on file 8 (b2 rear, b5 front): 前/后 and +/-
    ("3k5/9/9/9/1C7/9/9/1C7/9/4K4 w - - 0 1", "b5", "e5", "前炮平五", "C+=5"),
    ("3k5/9/9/9/1C7/9/9/1C7/9/4K4 w - - 0 1", "b2", "e2", "后炮平五", "C-=5"),
    ("3k5/9/9/9/1C7/9/9/1C7/9/4K4 w - - 0 1", "b5", "b9", "前炮进四", "C++4"),
    ("3k5/9/9/9/1C7/9/9/1C7/9/4K4 w - - 0 1", "b2", "b0", "后炮退二", "C--2"),
    # b8 and b1: the rear cannon cannot take the front one's step back six, so WXF
    # keeps the file while Chinese still says front
    ("3k5/1C7/9/9/9/9/9/9/1C7/4K4 w - - 0 1", "b8", "b2", "前炮退六", "C8-6"),
    ("3k5/1C7/9/9/9/9/9/9/1C7/4K4 w - - 0 1", "b1", "b7", "后炮进六", "C8+6"),
    ("3k5/1C7/9/9/9/9/9/9/1C7/4K4 w - - 0 1", "b8", "b7", "前炮退一", "C+-1"),
    # black chariots on its file 1 (a7 is black's front)
    ("r3k4/9/r8/9/9/9/9/9/9/3K5 b - - 0 1", "a7", "a1", "前车进６", "R++6"),
    ("r3k4/9/r8/9/9/9/9/9/9/3K5 b - - 0 1", "a9", "d9", "后车平４", "R-=4"),
    ("r3k4/9/r8/9/9/9/9/9/9/3K5 b - - 0 1", "a7", "a8", "前车退１", "R1-1"),
    # three red soldiers on file 5: 前/中/后 in Chinese, place and file in WXF
    ("3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1", "e7", "e8", "前兵进一", "15+1"),
    ("3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1", "e6", "d6", "中兵平六", "25=6"),
    ("3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1", "e5", "f5", "后兵平四", "35=4"),
    # four: 一 to 四 from the front
    ("3k5/4P4/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1", "e8", "d8", "一兵平六", "15=6"),
    ("3k5/4P4/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1", "e5", "f5", "四兵平四", "45=4"),
    # soldiers doubled on two files keep their file
    ("3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1", "c6", "b6", "前兵七平八", "17=8"),
    ("3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1", "g5", "f5", "后兵三平四", "23=4"),
    # three black soldiers on black's file 5
    ("4k4/9/9/4p4/4p4/4p4/9/9/9/3K5 b - - 0 1", "e4", "d4", "前卒平４", "15=4"),
    # advisors and elephants on one file: the direction tells them apart
    ("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1", "d2", "e1", "仕六退五", "A6-5"),
    ("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1", "d0", "e1", "仕六进五", "A6+5"),
    ("2b1k4/9/9/9/2b6/9/9/9/9/3K5 b - - 0 1", "c5", "e7", "象３退５", "E3-5"),
    ("2b1k4/9/9/9/2b6/9/9/9/9/3K5 b - - 0 1", "c9", "e7", "象３进５", "E3+5"),
]


@pytest.mark.parametrize(("fen", "frm", "to", "chinese", "wxf"), DOUBLED)
def test_doubled_pieces(fen: str, frm: str, to: str, chinese: str, wxf: str) -> None:
    state = parse_fen(fen)
    move = _move(frm, to)
    assert move in legal_moves(state)
    assert format_chinese(state, move) == chinese
    assert format_wxf(state, move) == wxf
    assert parse_chinese(state, chinese) == parse_wxf(state, wxf) == move
    assert parse_move(state, chinese) == parse_move(state, wxf) == move


def test_other_spellings_of_doubled_pieces() -> None:
    state = parse_fen("3k5/9/9/9/1C7/9/9/1C7/9/4K4 w - - 0 1")
    front = _move("b5", "e5")
    assert parse_move(state, "+C=5") == parse_move(state, "C+.5") == front
    assert parse_move(state, "-C=5") == _move("b2", "e2")
    assert parse_move(state, "前砲平五") == front
    # the file names a doubled piece when only one of the two can make the move
    assert parse_move(state, "炮八进四") == parse_move(state, "C8+4") == _move("b5", "b9")
    with pytest.raises(IllegalMoveError, match="ambiguous"):
        parse_move(state, "炮八平五")
    with pytest.raises(IllegalMoveError, match="ambiguous"):
        parse_move(state, "C8=5")
    # advisors on one file may be named front and rear too
    advisors = parse_fen("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1")
    assert parse_move(advisors, "前仕退五") == parse_move(advisors, "A+-5") == _move("d2", "e1")
    # soldiers: the place without the file, or the file when it is enough
    soldiers = parse_fen("3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1")
    assert (
        parse_move(soldiers, "前兵七进一") == parse_move(soldiers, "兵七进一") == _move("c6", "c7")
    )
    with pytest.raises(IllegalMoveError, match="ambiguous"):
        parse_move(soldiers, "前兵进一")
    # three on a file: the WXF's P+ and P- for the front and rear soldiers
    three = parse_fen("3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1")
    assert parse_move(three, "P+=6") == parse_move(three, "15=6") == _move("e7", "d7")
    assert parse_move(three, "P-=4") == parse_move(three, "35=4") == _move("e5", "f5")
    with pytest.raises(IllegalMoveError, match="ambiguous"):
        parse_move(three, "P5=6")


def test_traditional_characters_and_either_sides_names_and_digits() -> None:
    horse = _move("h0", "g2")
    for text in ["马二进三", "馬二進三", "傌二進三", "马2进3", "马２进３"]:
        assert parse_move(START, text) == horse, text
    assert parse_move(START, "俥九進一") == parse_move(START, "車9进1") == _move("a0", "a1")
    assert parse_move(START, "帥五進一") == parse_move(START, "将五进一") == _move("e0", "e1")
    assert parse_move(START, "相三进五") == parse_move(START, "象三进五") == _move("g0", "e2")


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("hello", InvalidMoveError),
        ("", InvalidMoveError),
        ("z9z8", InvalidMoveError),
        ("h2e", InvalidMoveError),
        ("C2=0", InvalidMoveError),
        ("X2=5", InvalidMoveError),
        ("C=5", InvalidMoveError),
        ("+C+=5", InvalidMoveError),
        ("炮十平五", InvalidMoveError),
        ("炮二走五", InvalidMoveError),
        ("龙二平五", InvalidMoveError),
        ("h2h8", IllegalMoveError),  # a cannon jumps a screen only to take
        ("e0e2", IllegalMoveError),
        ("a0a0", IllegalMoveError),
        ("C2+9", IllegalMoveError),
        ("R9=8", IllegalMoveError),
        ("炮二进九", IllegalMoveError),
        ("前炮平五", IllegalMoveError),
        ("马八进六", IllegalMoveError),
        ("15+1", IllegalMoveError),
    ],
)
def test_bad_moves_raise_naming_the_input_and_the_position(text: str, error: type) -> None:
    with pytest.raises(error) as raised:
        parse_move(START, text)
    assert repr(text) in str(raised.value)
    if error is IllegalMoveError:
        assert START_FEN in str(raised.value)


def test_each_reader_refuses_the_others_notation() -> None:
    for reader, text in [
        (parse_wxf, "炮二平五"),
        (parse_chinese, "C2=5"),
        (parse_coordinates, "C2=5"),
        (parse_wxf, "h2e2"),
    ]:
        with pytest.raises(InvalidMoveError):
            reader(START, text)
    with pytest.raises(InvalidMoveError, match="ranks from 1"):
        parse_coordinates(START, "h0e0", base=1)
    with pytest.raises(ValueError, match="no notation"):
        format_move(START, _move("h2", "e2"), "san")  # type: ignore[arg-type]


def test_format_move_writes_each_notation() -> None:
    cannon = _move("h2", "e2")
    assert format_move(START, cannon) == "炮二平五"
    assert [format_move(START, cannon, name) for name in notation.NOTATIONS] == [
        "炮二平五",
        "C2=5",
        "h2e2",
    ]
    assert square_name(0) == "a0" and square_name(89, base=1) == "i10"


# --------------------------------------------------------------------------- round trips


def _random_position(seed: int, plies: int) -> State:
    rng = random.Random(seed)
    state = START
    for _ in range(plies):
        moves = legal_moves(state)
        if not moves:
            break
        state = result(state, rng.choice(moves))
    return state


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 160))
def test_every_move_of_a_random_position_reads_back_in_every_notation(
    seed: int, plies: int
) -> None:
    state = _random_position(seed, plies)
    fen = format_fen(state)
    assert parse_fen(fen)[:14] == state[:14]  # a FEN holds no history
    assert format_fen(parse_fen(fen)) == fen
    for move in legal_moves(state):
        for text in (format_chinese(state, move), format_wxf(state, move)):
            assert parse_move(state, text) == move, (fen, text)
        assert parse_move(state, format_coordinates(move)) == move
        assert parse_coordinates(state, format_coordinates(move, 1), 1) == move


# --------------------------------------------------------------------------- pictures


def test_render_draws_the_board_in_chinese_and_in_letters() -> None:
    lines = render(START).splitlines()
    assert lines[0] == "   １ ２ ３ ４ ５ ６ ７ ８ ９"
    assert lines[1] == "9  車 馬 象 士 将 士 象 馬 車"
    assert lines[3] == "7  ＋ 砲 ＋ ＋ ＋ ＋ ＋ 砲 ＋"
    assert lines[6] == "   ～ ～ ～ ～ ～ ～ ～ ～ ～"
    assert lines[8] == "3  兵 ＋ 兵 ＋ 兵 ＋ 兵 ＋ 兵"
    assert lines[11] == "0  俥 傌 相 仕 帅 仕 相 傌 俥"
    assert lines[12] == "   九 八 七 六 五 四 三 二 一"
    assert lines[13] == "red to move"
    latin = render(START, chinese=False).splitlines()
    assert latin[0] == "9 r n b a k a b n r"
    assert latin[9] == "0 R N B A K A B N R"
    assert latin[10] == "  a b c d e f g h i"
    checked = _after("h2e2", "h7e7", "e2e6")  # the cannon takes the centre soldier: check
    assert render(checked, chinese=False).splitlines()[-1] == "black to move, in check"
