"""The bench signature: pinned, and the same twice.

If a change to the engine, its defaults or a built-in game's evaluation or ordering
changes the node total, update ``PINNED`` on purpose and say why in the change.

28929: two chess positions joined the signature with the engine's chess features
(MVV-LVA capture order, check extensions, null move, futility; late-move reductions off
by default, unproved by matches) and the tapered evaluation; the other games' rows are
unchanged (25077), since those features need hooks only chess offers."""

from __future__ import annotations

from zerosum.signature import POSITIONS, run_signature

PINNED = 28929


def test_the_signature_is_pinned() -> None:
    rows, total = run_signature()
    assert len(rows) == len(POSITIONS)
    assert total == sum(row.nodes for row in rows)
    assert total == PINNED


def test_the_same_search_twice_gives_the_same_rows() -> None:
    first, _ = run_signature()
    second, _ = run_signature()
    strip = [(r.label, r.position, r.depth, r.move, r.score, r.nodes) for r in first]
    assert strip == [(r.label, r.position, r.depth, r.move, r.score, r.nodes) for r in second]


def test_known_values_appear() -> None:
    rows, _ = run_signature()
    by_position = {(r.label, r.position): r for r in rows}
    assert by_position["tictactoe", ""].score == 0
    assert by_position["tree night-market", ""].score == 100
    assert by_position["tree aima-5.2", ""].score == 3
    assert by_position["connect4 4x4", ""].score == 0
