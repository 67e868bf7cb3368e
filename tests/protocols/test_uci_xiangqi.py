"""``zerosum uci --game xiangqi``: the UCI engine speaking xiangqi as Pikafish does (ranks
0-9) and, with ``Coordinates=fairy-stockfish``, as Fairy-Stockfish does (ranks 1-10).
Every ``bestmove`` and principal variation is checked legal by pyffish (Fairy-Stockfish
as a module, the oracle), and so are the mates; the engine plays matches as an agent
and as a UCI subprocess."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from pathlib import Path

import pyffish
import pytest

from zerosum.arena import Adjudication, Event, read_records, run_event, tally
from zerosum.cli import main
from zerosum.protocols.uci import UciEngine

START = pyffish.start_fen("xiangqi")
MATED = "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1"
"""Black's general on d9 faces the chariot on d0; e9 and e8 face red's general."""
MATE_IN_ONE = "3k5/9/9/9/9/9/9/9/9/2R1K4 w - - 0 1"
"""The same, a move before: the chariot is on c0."""
COMMAND = [sys.executable, "-m", "zerosum.cli", "uci", "--game", "xiangqi"]
_SQUARES = re.compile(r"([a-i])(\d+)([a-i])(\d+)")


def session(*lines: str) -> list[str]:
    """Run the xiangqi engine on ``lines`` to the end of the input; return its lines."""
    out = io.StringIO()
    UciEngine(out, game="xiangqi").run(line + "\n" for line in lines)
    return out.getvalue().splitlines()


def shifted(move: str, by: int) -> str:
    """``move`` with both ranks moved by ``by``: +1 from ICCS to Fairy-Stockfish."""
    found = _SQUARES.fullmatch(move)
    assert found is not None, move
    return f"{found[1]}{int(found[2]) + by}{found[3]}{int(found[4]) + by}"


def legal(fen: str, moves: list[str]) -> list[str]:
    """pyffish's legal moves after ``moves`` (Fairy-Stockfish's coordinates)."""
    return list(pyffish.legal_moves("xiangqi", fen, moves))


def answer(lines: list[str]) -> str:
    """The move of the last line, which must be ``bestmove``."""
    assert lines[-1].startswith("bestmove "), lines
    return lines[-1].split()[1]


def test_the_handshake_offers_xiangqi_options() -> None:
    lines = session("uci")
    assert lines[-1] == "uciok"
    assert "option name UCI_Variant type combo default xiangqi var xiangqi" in lines
    assert "option name Coordinates type combo default iccs var iccs var fairy-stockfish" in lines
    assert not any("Chess960" in line for line in lines)


def test_options_it_refuses_say_so_and_change_nothing() -> None:
    lines = session(
        "setoption name UCI_Variant value xiangqi",
        "setoption name UCI_Variant value chess",
        "setoption name Coordinates value pikafish",
        "setoption name UCI_Chess960 value true",
        "position startpos moves h2e2",
        "go depth 1",
    )
    notes = [line for line in lines if line.startswith("info string")]
    assert len(notes) == 3
    assert "'chess'" in notes[0] and "'pikafish'" in notes[1] and "UCI_Chess960" in notes[2]
    assert shifted(answer(lines), 1) in legal(START, ["h3e3"])  # still ranks 0-9


@pytest.mark.parametrize(("coordinates", "by"), [("iccs", 0), ("fairy-stockfish", 1)])
def test_a_game_in_either_coordinates(coordinates: str, by: int) -> None:
    """Eight plies, each asked of a new engine: the move and the principal variation are
    legal, in the coordinates chosen."""
    played: list[str] = []  # Fairy-Stockfish's coordinates
    for _ in range(8):
        ours = " ".join(shifted(move, by - 1) for move in played)
        lines = session(
            f"setoption name Coordinates value {coordinates}",
            f"position startpos moves {ours}" if played else "position startpos",
            "go depth 2",
        )
        move = shifted(answer(lines), 1 - by)
        assert move in legal(START, played)
        infos = [line.split() for line in lines if line.startswith("info depth")]
        assert infos and ("cp" in infos[-1] or "mate" in infos[-1])
        pv = [shifted(text, 1 - by) for text in infos[-1][infos[-1].index("pv") + 1 :]]
        for at, step in enumerate(pv):
            assert step in legal(START, played + pv[:at])
        played.append(move)


def test_positions_set_from_fen() -> None:
    """Positions reached by random play, set by their FEN as pyffish writes it."""
    rng = random.Random(18)
    for _ in range(8):
        moves: list[str] = []
        for _ in range(rng.randrange(10, 60)):
            choices = legal(START, moves)
            if not choices:
                break
            moves.append(rng.choice(choices))
        fen = pyffish.get_fen("xiangqi", START, moves)
        lines = session(
            "setoption name Coordinates value fairy-stockfish",
            f"position fen {fen}",
            "go nodes 300",
        )
        replies = legal(fen, [])
        if replies:
            assert answer(lines) in replies
        else:
            assert lines[-2:] == ["info depth 0 score mate 0", "bestmove (none)"]


def test_no_legal_move_is_mate() -> None:
    assert legal(MATED, []) == []
    assert session(f"position fen {MATED}", "go depth 3") == [
        "info depth 0 score mate 0",
        "bestmove (none)",
    ]


def test_a_mate_in_one_is_found_and_scored() -> None:
    lines = session(f"position fen {MATE_IN_ONE}", "go depth 3")
    move = shifted(answer(lines), 1)
    assert legal(MATE_IN_ONE, [move]) == []  # the reply has no legal move: mate
    assert "score mate 1" in [line for line in lines if line.startswith("info depth")][-1]


def test_perpetual_check_is_lost_as_pyffish_rules() -> None:
    """Red's chariot checks from e0 and f0 in turn; the third time the start comes back,
    red (to move) has lost by perpetual check, and plays on a legal move."""
    fen = "4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1"
    moves = ["f1e1", "e10f10", "e1f1", "f10e10"] * 2
    ended, value = pyffish.is_optional_game_end("xiangqi", fen, moves)
    assert ended and value < 0  # lost for the side to move
    ours = " ".join(shifted(move, -1) for move in moves)
    lines = session(f"position fen {fen} moves {ours}", "go depth 2")
    assert lines[0] == "info string the position is lost by rule; playing a legal move"
    assert shifted(answer(lines), 1) in legal(fen, moves)


def test_the_clock_is_the_side_to_moves() -> None:
    """Black to move searches on ``btime`` and ``binc``; red's clock changes nothing."""
    engine = UciEngine(io.StringIO(), game="xiangqi")
    engine.handle(f"position fen {START.split()[0]} b - - 0 1")
    plan, _ = engine._plan(["btime", "60000", "binc", "1000"])
    assert plan.clocked and plan.hard is not None
    assert engine._plan(["wtime", "5", "winc", "0", "btime", "60000", "binc", "1000"])[0] == plan
    assert engine._plan(["wtime", "60000", "btime", "5000", "binc", "1000"])[0].hard != plan.hard


def test_a_move_in_the_other_coordinates_is_refused() -> None:
    # h2e2 with ranks 1-10 starts on h2 (ICCS h1), where red has nothing
    lines = session(
        "setoption name Coordinates value fairy-stockfish",
        "position startpos moves h2e2",
        "go depth 1",
    )
    assert lines[0].startswith("info string position: move 1 'h2e2' refused")
    assert answer(lines) in legal(START, [])


def test_the_command_line_engine() -> None:
    lines = "\n".join(
        ["uci", "isready", "position startpos moves h2e2 h9g7", "go depth 2", "quit", ""]
    )
    done = subprocess.run(
        COMMAND, input=lines, capture_output=True, text=True, timeout=60, check=True
    )
    out = done.stdout.splitlines()
    assert out[0].startswith("id name zerosum ") and "readyok" in out
    assert shifted(answer(out), 1) in legal(START, ["h3e3", "h10g8"])


def test_a_match_between_engine_presets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "match.jsonl"
    argv = ["match", "xiangqi", "engine:depth=2", "random", "--games", "2", "--seed", "4"]
    assert main([*argv, "--max-moves", "150", "--output", str(saved)]) == 0
    out = capsys.readouterr().out
    _, records = read_records(saved)
    wins, draws, losses = tally(records, 0)
    assert re.search(rf"engine:depth=2 +2 +{wins} +{draws} +{losses} ", out), out
    assert wins >= 1 and losses == 0  # two plies of search never lose to random moves


def test_a_match_with_the_uci_engine_as_an_agent() -> None:
    engine = f"uci:cmd={' '.join(COMMAND)},depth=1,Hash=1,name=zerosum-uci"
    event = Event(
        "match",
        "xiangqi",
        (engine, "engine:depth=1"),
        games=2,
        seed=5,
        time_margin=5,
        adjudication=Adjudication(max_moves=40),
    )
    records = run_event(event, workers=1)
    assert [record.seats for record in records] == [(0, 1), (1, 0)]
    assert all(record.reason in ("end", "adjudicated") for record in records)
    assert all(len(record.moves) >= 10 for record in records)
    assert sum(tally(records, 0)) == 2
