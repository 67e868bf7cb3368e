"""``zerosum dd`` (the double-dummy table) and ``zerosum solve bridge`` (tricks and every
card's value): text in, text out, checked against endplay's DDS and one-line errors."""

from __future__ import annotations

import pytest

from zerosum.cli import main

endplay_types = pytest.importorskip(
    "endplay.types", reason="endplay is the double-dummy oracle: pip install endplay"
)
endplay_dds = pytest.importorskip("endplay.dds")

ENDING = "N:AK.Q.. Q2.A.. J3.K.. T9.J.."
"""Three cards a hand: spades and hearts only."""

FIVE = "N:J6.T4.5. 8.KJ.2.A T.7.QT.3 9.9.76.8"
"""Five cards a hand, every suit."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse's own errors
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def dds_table(deal: str) -> list[int]:
    """DDS's TABLE line for ``deal``, less the tricks DDS counts for the missing cards."""
    found = endplay_dds.calc_dd_table(endplay_types.Deal(deal))
    size = len(deal.split(maxsplit=1)[0].partition(":")[2].replace(".", ""))
    return [
        found[endplay_types.Denom(strain), endplay_types.Player(seat)] - (13 - size)
        for strain in range(5)
        for seat in range(4)
    ]


@pytest.mark.parametrize("deal", [ENDING, FIVE])
def test_dd_prints_the_table_as_dds(capsys: pytest.CaptureFixture[str], deal: str) -> None:
    code, out, _ = run(capsys, "dd", deal)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(deal + ": ")
    assert lines[1].split() == ["strain", "north", "east", "south", "west"]
    table_line = next(line for line in lines if line.startswith("TABLE "))
    tricks = [int(word) for word in table_line.split()[1:]]
    assert tricks == dds_table(deal)
    rows = [line.split() for line in lines[3:8]]
    assert [row[0] for row in rows] == ["S", "H", "D", "C", "N"]
    assert [int(t) for row in rows for t in row[1:]] == tricks
    assert lines[-1].startswith("time: ")


def test_dd_one_strain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "dd", FIVE, "--strain", "n")
    assert code == 0
    rows = [line.split() for line in out.splitlines()[3:] if line[:1] in "SHDCN"]
    assert rows == [["N", *map(str, dds_table(FIVE)[16:])]]
    assert "TABLE" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["dd", "N:AK.Q.. Q2.A.. J3.K.. T9.J."], "has 3 suits, not 4"),
        (["dd", "N:AK.Q.. Q2.A.. J3.K.. T9.JT.."], "every hand must hold as many cards"),
        (["dd", "N:AK.Q.. A2.A.. J3.K.. T9.J.."], "SA is in more than one hand"),
        (["dd", ENDING, "--strain", "X"], "--strain 'X' is not a strain"),
        (["dd", "N:... ... ... ..."], "holds no card"),
        (["solve", "bridge", ENDING, "--trump", "X"], "option trump='X'"),
        (["solve", "bridge", ENDING, "--leader", "Q"], "option leader='Q'"),
        (["solve", "bridge", ENDING, "--moves", "S2"], "North does not hold it"),
    ],
)
def test_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out
    assert err.count("\n") == 1 and err.startswith("zerosum: error: ") and message in err


def test_solve_bridge_gives_the_tricks_and_every_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "bridge", FIVE, "--trump", "S", "--leader", "W")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"Double-dummy bridge: {FIVE} trump=S lead=W"
    deal = endplay_types.Deal(FIVE)
    deal.trump, deal.first = endplay_types.Denom.spades, endplay_types.Player.west
    theirs = {_name(card): tricks for card, tricks in endplay_dds.solve_board(deal)}
    best = max(theirs.values())
    assert lines[1] == (
        f"tricks: east-west {best}, north-south {5 - best} (of the 5 left, with best play)"
    )
    listed = lines[2].removeprefix("best cards: ").split()
    assert listed and all(theirs[card] == best for card in listed)
    ours = {}
    for row in lines[5:-1]:
        card, same, tricks = row.split()
        for each in [card, *([] if same == "-" else same.split())]:
            ours[each] = int(tricks)
    assert ours == theirs
    assert lines[-1].startswith("nodes: ")


def _name(card: object) -> str:
    """An endplay card written as ours: suit letter then rank (its Rank is a bit mask)."""
    rank = int(card.rank).bit_length() - 1  # type: ignore[attr-defined]
    return "SHDC"[int(card.suit)] + "23456789TJQKA"[rank - 2]  # type: ignore[attr-defined]


def test_solve_bridge_two_hands_and_after_moves(capsys: pytest.CaptureFixture[str]) -> None:
    # player 1 leads: the spade jack loses to the queen, the ace of hearts wins
    code, out, _ = run(capsys, "solve", "bridge", "AKQ.32.. JT9.A5..", "--leader", "1")
    assert code == 0
    assert "tricks: second 2, first 3 (of the 5 left" in out
    code, out, _ = run(
        capsys, "solve", "bridge", ENDING, "--trump", "N", "--leader", "N", "--moves", "SA,S2"
    )
    assert code == 0
    assert "trick=SAS2" in out.splitlines()[0] and "tricks: north-south 2, east-west 1" in out
