"""Xiangqi rules: perft against every published count up to depth 4, and the rules that
perft does not reach (the end of the game, repetition, the move limit, the keys).

The counts come from ``../shared/data/xiangqi/perft_xiangqi.txt`` (the Chess Programming
Wiki's positions and Fairy-Stockfish's tests); deeper counts are for
``bench/xiangqi_perft.py``.
"""

from __future__ import annotations

import random

import pytest

from conftest import SHARED_DATA, shared_data
from zerosum.games.xiangqi import Xiangqi
from zerosum.games.xiangqi.rules import (
    BLACK,
    MOVE_LIMIT,
    RED,
    START,
    State,
    chases,
    general_attacked,
    legal_moves,
    make,
    perft,
    piece_at,
    result,
    verdict,
)

MAX_DEPTH = 4
SLOW_NODES = 1_000_000
GAME = Xiangqi(notation="iccs")


def _cases() -> list[tuple[str, str, int, int]]:
    """(name, FEN, depth, count) for every published count up to depth 4; none when
    the data is absent (the test below then skips, saying why)."""
    path = SHARED_DATA / "xiangqi" / "perft_xiangqi.txt"
    cases: list[tuple[str, str, int, int]] = []
    if not path.exists():
        return cases
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, *fields = (part.strip() for part in line.split(";"))
        name = next(f.split(None, 1)[1].strip('"') for f in fields if f.startswith("id"))
        for field in fields:
            if field.startswith("D"):
                depth, count = map(int, field[1:].split())
                if depth <= MAX_DEPTH:
                    cases.append((name, fen, depth, count))
    return cases


def _param(case: tuple[str, str, int, int]) -> object:
    name, _, depth, count = case
    marks = [pytest.mark.slow] if count >= SLOW_NODES else []
    return pytest.param(*case, id=f"{name}-d{depth}", marks=marks)


@pytest.mark.parametrize(("name", "fen", "depth", "count"), [_param(c) for c in _cases()])
def test_perft_matches_the_published_counts(name: str, fen: str, depth: int, count: int) -> None:
    assert perft(GAME.parse_state(fen), depth) == count, name


def test_the_perft_data_is_there() -> None:
    shared_data("xiangqi", "perft_xiangqi.txt")
    assert len(_cases()) >= 40


def _play(state: State, *moves: str) -> State:
    for text in moves:
        state = result(state, GAME.parse_move(state, text))
    return state


def _moves(state: State) -> set[str]:
    return {GAME.format_move(state, move) for move in legal_moves(state)}


def test_a_piece_between_the_generals_may_not_leave_the_file() -> None:
    state = GAME.parse_state("4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1")
    assert _moves(state) == {"e0d0", "e0f0"}


def test_the_general_may_not_step_onto_an_open_file_facing_the_other() -> None:
    state = GAME.parse_state("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    assert "e0d0" not in _moves(state)
    assert {"e0f0", "e0e1"} <= _moves(state)


def test_a_cannon_captures_over_exactly_one_screen() -> None:
    state = GAME.parse_state("3k5/9/9/9/r8/9/p8/9/9/C3K4 w - - 0 1")
    from_cannon = {m for m in _moves(state) if m.startswith("a0")}
    # steps to a1, a2 and along rank 0; over the soldier on a3 onto the chariot on a5,
    # never onto the soldier itself (no screen) nor onto the empty a4
    assert from_cannon == {"a0a1", "a0a2", "a0b0", "a0c0", "a0d0", "a0a5"}


def test_no_legal_move_loses_even_out_of_check() -> None:
    # black's general on d9: d8 is covered by the chariot, e9 by the flying general
    state = GAME.parse_state("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert not state[13]
    assert legal_moves(state) == []
    assert verdict(state, []) == 1
    assert GAME.is_terminal(state) and GAME.utility(state, RED) == 1


def test_checkmate_loses() -> None:
    mated = GAME.parse_state("3k5/R8/9/9/9/9/9/9/9/3RK4 b - - 0 1")
    assert mated[13] and legal_moves(mated) == []
    assert verdict(mated, []) == 1


CHECKING = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"
"""Red's chariot on a8 and black's general on e9; red's general on d0 keeps black's off
the d-file, so the chariot can check it for ever along ranks 9 and 8."""
CYCLE = ("a8a9", "e9e8", "a9a8", "e8e9")


def test_perpetual_check_loses_at_the_third_occurrence() -> None:
    state = GAME.parse_state(CHECKING)
    twice = _play(state, *CYCLE)
    assert verdict(twice, legal_moves(twice)) is None  # the second occurrence
    thrice = _play(twice, *CYCLE)
    assert verdict(thrice, legal_moves(thrice)) == -1  # red checked throughout: red loses
    assert GAME.is_terminal(thrice) and GAME.utility(thrice, BLACK) == 1
    # the check flags the history keeps are what decided it
    assert [entry & 1 for entry in thrice[14][-4:]] == [0, 1, 0, 1]


def test_perpetual_check_is_judged_from_the_side_of_the_mover_too() -> None:
    state = _play(GAME.parse_state(CHECKING), *CYCLE, *CYCLE, "a8a9")
    # the position after red's check, for the third time, black to move: red loses
    assert verdict(state, legal_moves(state)) == -1


def test_other_repetitions_draw_and_only_with_draws_on() -> None:
    state = GAME.parse_state("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 1")
    cycle = ("a7a6", "e9e8", "a6a7", "e8e9")
    thrice = _play(state, *cycle, *cycle)
    assert verdict(thrice, legal_moves(thrice)) == 0
    assert verdict(thrice, legal_moves(thrice), draws=False) is None
    assert verdict(_play(state, *cycle), legal_moves(_play(state, *cycle))) is None


def test_perpetual_check_loses_even_without_draws() -> None:
    thrice = _play(GAME.parse_state(CHECKING), *CYCLE, *CYCLE)
    assert verdict(thrice, legal_moves(thrice), draws=False) == -1


def test_a_capture_starts_the_count_again() -> None:
    state = GAME.parse_state("4k4/R8/9/9/9/9/9/9/p8/3K5 w - - 0 1")
    taken = _play(state, "a8a1")
    assert taken[10] == 0 and taken[14] == ()


def test_sixty_moves_without_a_capture_draw() -> None:
    state = GAME.parse_state(f"4k4/9/R8/9/9/9/9/9/9/3K5 w - - {MOVE_LIMIT - 1} 70")
    assert verdict(state, legal_moves(state)) is None
    after = _play(state, "a7a6")
    assert after[10] == MOVE_LIMIT
    assert verdict(after, legal_moves(after)) == 0
    assert verdict(after, legal_moves(after), draws=False) is None


def test_keys_and_check_flags_are_updated_as_make_computes_them() -> None:
    rng = random.Random(7)
    for _ in range(30):
        state = START
        for _ in range(rng.randrange(20, 120)):
            moves = legal_moves(state)
            if not moves:
                break
            state = result(state, rng.choice(moves))
            placement = {sq: found for sq in range(90) if (found := piece_at(state, sq))}
            fresh = make(placement, state[9], state[10], state[11])
            assert fresh[:14] == state[:14]
            assert bool(state[13]) == general_attacked(state, state[9])
            assert not general_attacked(state, state[9] ^ 1)


def test_the_null_move_passes_without_check() -> None:
    state = _play(START, "h2e2")
    passed = GAME.null_move(state)
    assert passed is not None and passed[9] == RED and passed[12] != state[12]
    assert (
        passed[12]
        == make({sq: found for sq in range(90) if (found := piece_at(state, sq))}, RED)[12]
    )
    checked = _play(GAME.parse_state(CHECKING), "a8a9")
    assert GAME.null_move(checked) is None


CHASING = "4k4/9/c8/9/1R7/9/9/9/9/3K5 w - - 0 1"
"""Red's chariot on b5 and black's lone cannon on a7: the chariot can attack the cannon
anew on every move as it flees between a7 and a5."""
CHASE = ("b5b7", "a7a5", "b7b5", "a5a7")


def test_perpetual_chase_of_an_unprotected_piece_loses() -> None:
    state = GAME.parse_state(CHASING)
    assert chases(state, GAME.parse_move(state, "b5b7"))
    assert not chases(_play(state, "b5b7"), GAME.parse_move(_play(state, "b5b7"), "a7a5"))
    twice = _play(state, *CHASE)
    assert verdict(twice, legal_moves(twice)) is None
    thrice = _play(twice, *CHASE)
    assert verdict(thrice, legal_moves(thrice)) == -1  # red chased throughout: red loses


def test_attacking_a_protected_piece_of_less_value_is_no_chase() -> None:
    state = GAME.parse_state("r3k4/9/c8/9/1R7/9/9/9/9/3K5 w - - 0 1")
    assert not chases(state, GAME.parse_move(state, "b5b7"))
    thrice = _play(state, *CHASE, *CHASE)
    assert verdict(thrice, legal_moves(thrice)) == 0


def test_a_horse_attacking_a_chariot_chases_even_a_protected_one() -> None:
    state = GAME.parse_state("4k4/r8/9/r8/9/9/9/2N6/9/3K5 w - - 0 1")
    assert chases(state, GAME.parse_move(state, "c2b4"))  # onto the chariot on a6
    assert not chases(state, GAME.parse_move(state, "c2d4"))
