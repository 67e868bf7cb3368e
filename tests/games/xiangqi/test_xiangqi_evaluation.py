"""The xiangqi evaluation against plain re-computations: material counted point by point,
each term (piece-square values, king safety, mobility, cannon screens) worked out by
walking the board, the published XQWizard Light numbers, and the symmetries every
evaluation of the game must have (colours swapped, the board mirrored)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from zerosum.games.xiangqi import Xiangqi
from zerosum.games.xiangqi import evaluation as ev
from zerosum.games.xiangqi.rules import (
    ADVISOR,
    BLACK,
    CANNON,
    CHARIOT,
    ELEPHANT,
    GENERAL,
    HORSE,
    RED,
    SOLDIER,
    START,
    State,
    legal_moves,
    make,
    piece_at,
    result,
)

GAME = Xiangqi()
MATERIAL_ONLY = ev.make_evaluate(squares=False, king_safety=False, mobility=False, cannons=False)


def term(name: str) -> Callable[[State], int]:
    """The evaluation with material and the one term ``name``."""
    switches = {"squares": False, "king_safety": False, "mobility": False, "cannons": False}
    switches[name] = True
    return ev.make_evaluate(**switches)


def random_positions(count: int, seed: int) -> list[State]:
    """Positions of random games, from a few plies to the late middle game."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = START
        for _ in range(rng.randrange(2, 120)):
            moves = legal_moves(state)
            if not moves:
                break
            state = result(state, rng.choice(moves))
        found.append(state)
    return found


POSITIONS = random_positions(250, 18)


def placement(state: State) -> dict[int, tuple[int, int]]:
    """Every occupied point's colour and piece."""
    return {sq: found for sq in range(90) if (found := piece_at(state, sq)) is not None}


def for_mover(state: State, red_minus_black: int) -> int:
    return -red_minus_black if state[9] else red_minus_black


def rotated(state: State) -> State:
    """The board turned half round with the colours swapped and the other side to move:
    the same position for the other side."""
    turned = {89 - sq: (1 - colour, piece) for sq, (colour, piece) in placement(state).items()}
    return make(turned, 1 - state[9])


def mirrored(state: State) -> State:
    """The board mirrored left to right."""
    flipped = {9 * (sq // 9) + 8 - sq % 9: found for sq, found in placement(state).items()}
    return make(flipped, state[9])


# --------------------------------------------------------------------------- oracles

VALUES = {SOLDIER: 100, ADVISOR: 200, ELEPHANT: 200, HORSE: 400, CANNON: 450, CHARIOT: 900}


def material_oracle(state: State) -> int:
    total = 0
    for sq, (colour, piece) in placement(state).items():
        if piece == GENERAL:
            continue
        value = VALUES[piece]
        if piece == SOLDIER and (sq >= 45 if colour == RED else sq < 45):
            value += 100
        total += value if colour == RED else -value
    return for_mover(state, total)


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < 9 and 0 <= rank < 10


def walk(board: dict[int, tuple[int, int]], sq: int, df: int, dr: int) -> list[int]:
    """The points from ``sq`` one way up to and including the first piece."""
    points = []
    file, rank = sq % 9 + df, sq // 9 + dr
    while on_board(file, rank):
        points.append(9 * rank + file)
        if 9 * rank + file in board:
            break
        file, rank = file + df, rank + dr
    return points


def mobility_oracle(state: State) -> int:
    board = placement(state)
    total = 0
    for sq, (colour, piece) in board.items():
        sign = 1 if colour == RED else -1
        if piece == HORSE:
            jumps = 0
            for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
                file, rank = sq % 9 + df, sq // 9 + dr
                leg = sq + (df // 2 if abs(df) == 2 else 0) + 9 * (dr // 2 if abs(dr) == 2 else 0)
                target = board.get(9 * rank + file)
                if (
                    on_board(file, rank)
                    and leg not in board
                    and (target is None or target[0] != colour)
                ):
                    jumps += 1
            total += sign * ev.HORSE_MOBILITY[jumps]
        elif piece == CHARIOT:
            reach = [
                point
                for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
                for point in walk(board, sq, df, dr)
                if board.get(point, (None,))[0] != colour
            ]
            total += sign * ev.CHARIOT_MOBILITY * len(reach)
    return for_mover(state, total)


def king_safety_oracle(state: State) -> int:
    board = placement(state)
    total = 0
    for colour in (RED, BLACK):
        enemy = [piece for c, piece in board.values() if c != colour]
        attack = 2 * enemy.count(CHARIOT) + enemy.count(HORSE) + enemy.count(CANNON)
        own = [piece for c, piece in board.values() if c == colour]
        missing = ev.KING_SAFETY[0] * (2 - own.count(ADVISOR)) + ev.KING_SAFETY[1] * (
            2 - own.count(ELEPHANT)
        )
        penalty = missing * min(attack, ev.FULL_ATTACK) // ev.FULL_ATTACK
        (general,) = [sq for sq, found in board.items() if found == (colour, GENERAL)]
        ahead = walk(board, general, 0, 1 if colour == RED else -1)
        if CHARIOT in enemy and not any(point in board for point in ahead):
            penalty += ev.OPEN_FILE
        total += -penalty if colour == RED else penalty
    return for_mover(state, total)


def cannons_oracle(state: State) -> int:
    board = placement(state)
    total = 0
    for sq, (colour, piece) in board.items():
        if piece != CANNON:
            continue
        (general,) = [g for g, found in board.items() if found == (1 - colour, GENERAL)]
        if general // 9 != sq // 9 and general % 9 != sq % 9:
            continue
        step = (1 if general > sq else -1) * (1 if general // 9 == sq // 9 else 9)
        between = sum(point in board for point in range(sq + step, general, step))
        if between < len(ev.CANNON_SCREENS):
            total += ev.CANNON_SCREENS[between] if colour == RED else -ev.CANNON_SCREENS[between]
    return for_mover(state, total)


# --------------------------------------------------------------------------- tests


def test_material_is_counted_point_by_point() -> None:
    for state in POSITIONS:
        assert ev.evaluate_material(state) == material_oracle(state)
        assert MATERIAL_ONLY(state) == material_oracle(state)


@pytest.mark.parametrize(
    ("name", "oracle"),
    [
        ("mobility", mobility_oracle),
        ("king_safety", king_safety_oracle),
        ("cannons", cannons_oracle),
    ],
)
def test_each_term_matches_a_walk_over_the_board(name: str, oracle: Callable[[State], int]) -> None:
    evaluate = term(name)
    seen = set()
    for state in POSITIONS:
        value = evaluate(state) - MATERIAL_ONLY(state)
        assert value == oracle(state)
        seen.add(value)
    assert len(seen) > 5  # the positions exercise the term, not only its zero


def test_square_values_are_the_published_table_scaled() -> None:
    red, black = ev.SQUARE_VALUES
    scale = ev.PST_SCALE
    # XQWizard Light: chariot 233 on e8 (rank 8, file e), 194 on a0; horse 108 on b6, 78 on e1
    assert red[CHARIOT][9 * 8 + 4] - red[CHARIOT][0] == scale * (233 - 194)
    assert red[HORSE][9 * 6 + 1] - red[HORSE][9 * 1 + 4] == scale * (108 - 78)
    # soldiers: 16 on e4 against 7 on a3 before the river; 44 on e8 against 14 on a5 across
    assert red[SOLDIER][9 * 4 + 4] - red[SOLDIER][9 * 3] == scale * (16 - 7)
    assert red[SOLDIER][9 * 8 + 4] - red[SOLDIER][9 * 5] == scale * (44 - 14)
    # the general prefers its back rank: 15 on e0, 2 on e1
    assert red[GENERAL][4] - red[GENERAL][13] == scale * (15 - 2)
    for piece in range(7):
        assert black[piece] == tuple(red[piece][89 - sq] for sq in range(90))


def test_the_positional_part_averages_out_over_where_a_piece_can_stand() -> None:
    red = ev.SQUARE_VALUES[0]
    for piece in (HORSE, CANNON, CHARIOT):
        deltas = [value - ev.PIECE_VALUES[piece] for value in red[piece]]
        assert abs(sum(deltas)) <= 90  # each rounded by at most half a centipawn
    across = [red[SOLDIER][sq] - 200 for sq in range(45, 90)]
    assert abs(sum(across)) <= 45


def test_the_start_is_even_and_each_side_sees_the_same() -> None:
    assert ev.evaluate(START) == 0
    every_term = ev.make_evaluate(king_safety=True, mobility=True, cannons=True)
    assert every_term(START) == 0
    evaluators = [
        every_term,
        ev.evaluate,
        *(term(name) for name in ("squares", "king_safety", "mobility", "cannons")),
    ]
    for state in POSITIONS[:120]:
        other, mirror = rotated(state), mirrored(state)
        for evaluate in evaluators:
            assert evaluate(other) == evaluate(state)
            assert evaluate(mirror) == evaluate(state)


@pytest.mark.parametrize(
    ("fen", "screens"),
    [
        ("4k4/9/9/9/9/9/9/4C4/9/3K5 w - - 0 1", 0),  # the empty-head cannon
        ("4k4/9/4n4/9/9/9/9/4C4/9/3K5 b - - 0 1", 1),  # check
        ("4k4/9/4n4/9/9/9/4P4/4C4/9/3K5 w - - 0 1", 2),  # the central cannon's two screens
        ("4k4/9/9/9/9/9/9/9/9/C2K5 w - - 0 1", None),  # on neither line
    ],
)
def test_a_cannon_by_its_screens(fen: str, screens: int | None) -> None:
    state = GAME.parse_state(fen)
    expected = 0 if screens is None else ev.CANNON_SCREENS[screens]
    assert term("cannons")(state) - MATERIAL_ONLY(state) == for_mover(state, expected)


def test_a_horse_with_its_legs_blocked_is_worth_less() -> None:
    # red's horse on b0 jumps to a2, c2 and d1; a cannon on b1 and an elephant on c0
    # block its legs
    free = GAME.parse_state("3k5/9/9/9/9/9/9/9/9/1N2K4 w - - 0 1")
    blocked = GAME.parse_state("3k5/9/9/9/9/9/9/9/1C7/1NB1K4 w - - 0 1")
    mobility = term("mobility")
    assert mobility(free) - MATERIAL_ONLY(free) == ev.HORSE_MOBILITY[3]
    assert mobility(blocked) - MATERIAL_ONLY(blocked) == ev.HORSE_MOBILITY[0]


def test_the_game_evaluates_with_the_terms_that_proved_out() -> None:
    squares = term("squares")
    for state in POSITIONS[:50]:
        assert GAME.evaluate(state) == ev.evaluate(state) == squares(state)
