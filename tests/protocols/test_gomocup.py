"""The Gomocup brain in-process: a scripted manager plays whole games through the
protocol, feeds it bad lines, and sets it tactical positions whose answers the test
works out itself, on its own board, with its own five-in-a-row check.

The manager keeps the board as it sees it (the brain's stones and the opponent's) and
checks every reply: its form, that a move is on the board and on an empty square, and
what OK / ERROR / UNKNOWN / MESSAGE lines come when."""

from __future__ import annotations

import io
import random
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.protocols.gomocup import (
    BASE_MEMORY,
    DEFAULT_TABLE_ENTRIES,
    GomocupBrain,
    TimeControl,
    table_entries,
)
from zerosum.search.table import BYTES_PER_ENTRY

MOVE = re.compile(r"(\d+),(\d+)")
TURN_MS = 200
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))

Square = tuple[int, int]


def run_length(stones: set[Square], x: int, y: int, dx: int, dy: int) -> int:
    """The length of the line through (x, y) along (dx, dy) if (x, y) joined ``stones``."""
    length = 1
    for sign in (1, -1):
        cx, cy = x + sign * dx, y + sign * dy
        while (cx, cy) in stones:
            length += 1
            cx, cy = cx + sign * dx, cy + sign * dy
    return length


def completes_five(stones: set[Square], square: Square, exact: bool = False) -> bool:
    """Whether a stone on ``square`` gives ``stones`` five in a row (exactly five if
    ``exact``: an overline does not count)."""
    lengths = [run_length(stones, *square, dx, dy) for dx, dy in DIRECTIONS]
    return any(n == 5 or (n > 5 and not exact) for n in lengths)


def has_five(stones: set[Square], exact: bool = False) -> bool:
    """Whether ``stones`` hold five in a row somewhere."""
    for x, y in stones:
        for dx, dy in DIRECTIONS:
            if (x - dx, y - dy) in stones:
                continue  # not the start of its line
            length = 1
            while (x + length * dx, y + length * dy) in stones:
                length += 1
            if length == 5 or (length > 5 and not exact):
                return True
    return False


class Manager:
    """A scripted manager driving one brain in-process, holding its own copy of the board."""

    def __init__(self, width: int = 15, height: int | None = None) -> None:
        self.out = io.StringIO()
        self.brain = GomocupBrain(self.out)
        self.width = width
        self.height = height if height is not None else width
        self.own: set[Square] = set()  # the brain's stones
        self.theirs: set[Square] = set()
        self.alive = True

    def send(self, *lines: str) -> list[str]:
        """Send ``lines``; return every line the brain wrote in answer."""
        start = len(self.out.getvalue())
        for line in lines:
            self.alive = self.brain.handle(line)
        return self.out.getvalue()[start:].splitlines()

    def answer(self, *lines: str) -> str:
        """Send ``lines`` and return the one answer line, MESSAGE lines left out."""
        replies = [r for r in self.send(*lines) if not r.startswith("MESSAGE ")]
        assert len(replies) == 1, replies
        return replies[0]

    @property
    def empty(self) -> list[Square]:
        taken = self.own | self.theirs
        return [
            (x, y) for y in range(self.height) for x in range(self.width) if (x, y) not in taken
        ]

    def brain_move(self, *lines: str) -> Square:
        """Send ``lines`` (a move command) and check the answer is a legal move; record it."""
        reply = self.answer(*lines)
        found = MOVE.fullmatch(reply)
        assert found is not None, f"not a move: {reply!r}"
        square = (int(found[1]), int(found[2]))
        assert square in self.empty, f"{square} is off the board or taken"
        self.own.add(square)
        return square


def opponent_move(manager: Manager, rng: random.Random) -> Square:
    """A weak but not helpless opponent: it completes its five, else blocks the brain's,
    else plays at random next to the stones."""
    empty = manager.empty
    for stones in (manager.theirs, manager.own):
        for square in empty:
            if completes_five(stones, square):
                return square
    near = [
        (x, y)
        for x, y in empty
        if any(
            (x + dx, y + dy) in manager.own | manager.theirs
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        )
    ]
    return rng.choice(near or empty)


def play_out(manager: Manager, rng: random.Random, brain_first: bool) -> str:
    """Play a game to its end through the protocol; return who won: brain, opponent, draw."""
    assert manager.answer(f"START {manager.width}") == "OK"
    assert manager.send(f"INFO timeout_turn {TURN_MS}", "INFO timeout_match 0", "INFO rule 0") == []
    if brain_first:
        manager.brain_move("BEGIN")
    while True:
        if has_five(manager.own):
            return "brain"
        if not manager.empty:
            return "draw"
        x, y = opponent_move(manager, rng)
        manager.theirs.add((x, y))
        if has_five(manager.theirs):
            return "opponent"
        if not manager.empty:
            return "draw"
        started = time.perf_counter()
        manager.brain_move(f"TURN {x},{y}")
        elapsed = time.perf_counter() - started
        # the margin covers a loaded machine; the default without INFO is 5 s a move
        assert elapsed < TURN_MS / 1000 + 0.3, f"a move took {elapsed:.3f} s"


@pytest.mark.parametrize("brain_first", [True, False])
def test_a_full_game_through_the_protocol(brain_first: bool) -> None:
    manager = Manager()
    assert play_out(manager, random.Random(7 + brain_first), brain_first) == "brain"
    assert manager.send("END") == []
    assert not manager.alive


def test_a_game_on_a_small_rectangular_board_ends_by_five_or_full_board() -> None:
    manager = Manager(9, 7)
    assert manager.answer("RECTSTART 9,7") == "OK"
    manager.send(f"INFO timeout_turn {TURN_MS}")
    rng = random.Random(3)
    manager.brain_move("BEGIN")
    while not has_five(manager.own) and manager.empty:
        square = rng.choice(manager.empty)  # the opponent plays anywhere, even off-line
        manager.theirs.add(square)
        if has_five(manager.theirs) or not manager.empty:
            break
        manager.brain_move("TURN {},{}".format(*square))
    assert has_five(manager.own) and not has_five(manager.theirs)


def test_search_reports_come_as_message_lines_before_the_move() -> None:
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    lines = manager.send("BEGIN")
    assert MOVE.fullmatch(lines[-1])
    reports = lines[:-1]
    assert reports and all(line.startswith("MESSAGE depth ") for line in reports)
    depths = [int(line.split()[2]) for line in reports]
    assert depths == sorted(depths)
    pv = reports[-1].split(" pv ")[1].split()
    assert pv[0] == lines[-1]  # the move played is the principal variation's first


def test_quiet_brain_answers_only_the_move() -> None:
    out = io.StringIO()
    brain = GomocupBrain(out, messages=False)
    for line in ("START 15", f"INFO timeout_turn {TURN_MS}", "BEGIN"):
        brain.handle(line)
    assert out.getvalue().splitlines()[0] == "OK"
    assert MOVE.fullmatch(out.getvalue().splitlines()[1])
    assert len(out.getvalue().splitlines()) == 2


# --------------------------------------------------------------------------- bad lines


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("START 4", ["ERROR", "START 4"]),
        ("START 26", ["ERROR", "START 26"]),
        ("START", ["ERROR", "START"]),
        ("START fifteen", ["ERROR", "fifteen"]),
        ("RECTSTART 20", ["ERROR", "RECTSTART 20"]),
        ("RECTSTART 30,20", ["ERROR", "30,20"]),
    ],
)
def test_unsupported_or_malformed_sizes_are_errors(line: str, words: list[str]) -> None:
    manager = Manager()
    reply = manager.answer(line)
    assert reply.split()[0] == words[0] and all(word in reply for word in words[1:]), reply
    assert manager.answer("START 20") == "OK"  # the brain goes on


@pytest.mark.parametrize("line", ["BEGIN", "TURN 7,7", "RESTART", "TAKEBACK 7,7", "PLAY 7,7"])
def test_commands_before_start_are_errors(line: str) -> None:
    manager = Manager()
    reply = manager.answer(line)
    assert reply.startswith("ERROR ") and "START" in reply, reply
    assert manager.answer("START 15") == "OK"


def test_a_board_before_start_is_one_error_at_done() -> None:
    manager = Manager()
    replies = manager.send("BOARD", "7,7,1", "7,8,2", "DONE")
    assert len(replies) == 1 and replies[0].startswith("ERROR ") and "START" in replies[0]


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("TURN 15,3", "15,3"),
        ("TURN 3,15", "3,15"),
        ("TURN -1,0", "-1,0"),
        ("TURN a,b", "TURN a,b"),
        ("TURN 7", "TURN 7"),
        ("TURN", "TURN"),
        ("TURN 7,7,7", "TURN 7,7,7"),
    ],
)
def test_bad_coordinates_are_errors_naming_them(line: str, named: str) -> None:
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    reply = manager.answer(line)
    assert reply.startswith("ERROR ") and named in reply, reply
    # nothing was played: the brain still opens the empty board
    manager.brain_move("BEGIN")


def test_an_occupied_square_is_an_error_and_changes_nothing() -> None:
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    x, y = manager.brain_move("BEGIN")
    reply = manager.answer(f"TURN {x},{y}")
    assert reply.startswith("ERROR ") and f"{x},{y}" in reply and "brain's" in reply, reply
    manager.theirs.add((x + 1, y))
    manager.brain_move(f"TURN {x + 1},{y}")
    reply = manager.answer(f"TURN {x + 1},{y}")
    assert reply.startswith("ERROR ") and "opponent's" in reply, reply


def test_unknown_commands_and_garbage_get_unknown_and_the_brain_goes_on() -> None:
    manager = Manager()
    for line in ("HELLO", "hello world", "7,7", "DONE", "SUGGEST 7,7", "\x00\x01"):
        reply = manager.answer(line)
        assert reply.startswith("UNKNOWN "), (line, reply)
    assert manager.send("", "   ", "\r\n") == []  # empty lines are ignored
    assert manager.answer("START 15") == "OK"


def test_commands_are_read_in_any_case_with_any_spacing_and_crlf_endings() -> None:
    manager = Manager()
    assert manager.answer("start 15\r\n") == "OK"
    manager.send(f"info timeout_turn {TURN_MS}\r\n")
    manager.brain_move("begin\r\n")
    manager.theirs.add((0, 0))
    manager.brain_move("turn\t0,0\r\n")  # any whitespace separates the words


def test_begin_on_a_board_with_stones_is_an_error() -> None:
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    manager.brain_move("TURN 7,7")
    reply = manager.answer("BEGIN")
    assert reply.startswith("ERROR ") and "BEGIN" in reply and "RESTART" in reply, reply


def test_a_finished_game_refuses_more_moves() -> None:
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    their_five = [f"{x},3,2" for x in range(5)]
    reply = manager.answer("BOARD", *their_five, "0,5,1", "2,5,1", "4,5,1", "6,6,1", "DONE")
    assert reply.startswith("ERROR ") and "over" in reply and "opponent" in reply, reply
    own = {(x, 5) for x in range(4)}
    theirs = {(0, 0), (2, 0), (4, 0), (9, 9)}
    manager.own, manager.theirs = set(own), set(theirs)
    assert manager.brain_move(*board_lines(own, theirs)) == (4, 5)
    reply = manager.answer("TURN 9,8")
    assert reply.startswith("ERROR ") and "over" in reply and "brain" in reply, reply


# The zeros of other scripts' digits, which str.isdigit(), int() and re's \\d all take:
# full-width, Arabic-Indic, Devanagari, mathematical bold
UNICODE_ZEROS = (0xFF10, 0x0660, 0x0966, 0x1D7CE)


def escaped(text: str) -> str:
    """``text`` as the brain echoes it: in ASCII, other characters as Python escapes."""
    return text.encode("ascii", "backslashreplace").decode("ascii")


@pytest.mark.parametrize("zero", UNICODE_ZEROS)
@pytest.mark.parametrize(
    "line",
    [
        "TURN {7},{7}",
        "TURN 7,{7}",
        "PLAY {7},{7}",
        "TAKEBACK {3},{3}",
        "START 1{5}",
        "RECTSTART 2{0},1{5}",
    ],
)
def test_only_ascii_digits_are_numbers(line: str, zero: int) -> None:
    digits = [chr(zero + n) for n in range(10)]
    assert digits[7].isdigit() and int(digits[7]) == 7  # what the brain must not rely on
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    manager.brain_move("PLAY 3,3")
    sent = line.format(*digits)
    reply = manager.answer(sent)
    assert reply.startswith(f"ERROR {escaped(sent)}: "), reply
    assert repr(manager.brain) == "GomocupBrain(15x15, 1 stones)"  # nothing changed
    manager.theirs.add((7, 7))
    manager.brain_move("TURN 7,7")  # the brain goes on


@pytest.mark.parametrize("zero", UNICODE_ZEROS)
def test_board_lines_and_info_values_take_only_ascii_digits(zero: int) -> None:
    seven = chr(zero + 7)
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    replies = manager.send("BOARD", f"{seven},7,1", f"7,7,{seven}", "3,3,2")
    assert len(replies) == 2 and all(r.startswith("ERROR BOARD line") for r in replies)
    assert escaped(seven) in replies[0] and escaped(seven) in replies[1]
    manager.theirs.add((3, 3))
    manager.brain_move("DONE")
    assert manager.send(f"INFO timeout_turn 1{seven}") == []
    assert manager.brain.time.timeout_turn == TURN_MS
    lines = manager.send("ABOUT")
    assert lines[0].startswith("MESSAGE INFO timeout_turn") and "ignored" in lines[0]


def test_commands_are_ascii_words() -> None:
    manager = Manager()
    assert "\u017ftart".upper() == "START" and "\u0131nfo".upper() == "INFO"
    assert manager.answer("\u017ftart 15").startswith("UNKNOWN command '\\u017ftart'")
    assert manager.answer("\u0131nfo timeout_turn 0").startswith("UNKNOWN ")
    assert manager.answer("START 15") == "OK"


HUGE = 1_000_000


@pytest.mark.parametrize(
    "line",
    [
        "X" * HUGE,
        "TURN " + "7" * HUGE,
        "TURN 7,7" + "x" * HUGE,
        "START " + "1" * HUGE,
        "RECTSTART 15," + "2" * HUGE,
        "TAKEBACK " + "\uff17" * HUGE,
        "PLAY 1," + "-" * HUGE,
    ],
)
def test_a_huge_bad_line_gets_a_short_answer(line: str) -> None:
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    reply = manager.answer(line)
    # 40 characters of the line, 6 each at worst once escaped, and the explanation
    assert reply.split()[0] in ("ERROR", "UNKNOWN") and len(reply) < 400, reply[:400]
    assert f"... ({len(line.split(None, 1)[-1])} characters)" in reply, reply
    manager.brain_move("BEGIN")  # the brain goes on


def test_huge_board_lines_and_info_values_get_short_answers() -> None:
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    replies = manager.send("BOARD", "7," * HUGE, "8,8,2")
    assert len(replies) == 1 and len(replies[0]) < 300
    assert (
        replies[0].startswith("ERROR BOARD line '7,7,") and f"({2 * HUGE} characters)" in replies[0]
    )
    manager.theirs.add((8, 8))
    manager.brain_move("DONE")
    assert manager.send("INFO timeout_turn " + "9" * HUGE) == []
    lines = manager.send("ABOUT")
    assert len(lines) == 2 and len(lines[0]) < 300 and f"({HUGE} characters)" in lines[0]
    assert manager.brain.time.timeout_turn == TURN_MS


# --------------------------------------------------------------------------- INFO


def test_info_has_no_answer_and_its_problems_come_before_the_next_answer() -> None:
    manager = Manager()
    quiet = [
        "INFO timeout_turn 200",
        "INFO timeout_match 0",
        "INFO time_left 2147483647",
        "INFO max_memory 0",
        "INFO game_type 1",
        "INFO folder /tmp/zerosum",
        "INFO evaluate 7,7",
        "INFO some_new_key 12",
        "INFO timeout_turn soon",
        "INFO max_memory -5",
        "INFO rule 6",
    ]
    assert manager.send(*quiet) == []
    lines = manager.send("START 15")
    assert lines[-1] == "OK"
    notes = lines[:-1]
    assert len(notes) == 3 and all(note.startswith("MESSAGE ") for note in notes), notes
    assert "soon" in notes[0] and "-5" in notes[1]
    assert "continuous" in notes[2] and "renju rules" in notes[2]
    assert manager.brain.folder == "/tmp/zerosum"
    assert manager.brain.game_type == 1
    assert manager.brain.time.timeout_turn == 200  # the bad value did not replace it


def test_time_control_budgets() -> None:
    assert TimeControl(timeout_turn=0).budget() is None
    turn_only = TimeControl(timeout_turn=1000).budget()
    assert turn_only is not None and 0.8 <= turn_only < 1.0
    match = TimeControl(timeout_turn=30000, time_left=10000).budget()
    assert match is not None and match < 10 / 20
    unlimited = TimeControl(timeout_turn=2000, time_left=2147483647).budget()
    assert unlimited == TimeControl(timeout_turn=2000).budget()
    assert TimeControl(timeout_turn=5000, time_left=-300).budget() is None
    # without time_left the brain counts its own time against timeout_match
    counted = TimeControl(timeout_turn=30000, timeout_match=100000, spent=90.0)
    budget = counted.budget()
    assert budget is not None and budget < 10 / 20


def test_the_table_fits_the_memory_limit() -> None:
    assert table_entries(0) == DEFAULT_TABLE_ENTRIES
    sizes = [table_entries(mb << 20) for mb in (64, 70, 128, 350, 1024)]
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1]
    for mb in (70, 128, 350):
        assert BASE_MEMORY + table_entries(mb << 20) * BYTES_PER_ENTRY <= mb << 20


def test_a_memory_limit_sizes_the_engine_table_and_a_tiny_one_is_reported() -> None:
    manager = Manager()
    manager.send("INFO max_memory 83886080", "START 15", f"INFO timeout_turn {TURN_MS}")
    manager.brain_move("BEGIN")
    assert manager.brain.engine is not None
    table = manager.brain.engine.table
    assert table is not None and table.capacity <= table_entries(83886080)
    manager.send("INFO max_memory 1000000")
    lines = manager.send("TURN 0,0")
    assert lines[0].startswith("MESSAGE INFO max_memory 1000000"), lines


def test_about() -> None:
    reply = Manager().answer("ABOUT")
    fields = dict(re.findall(r'(\w+)="([^"]*)"', reply))
    assert fields["name"] == "zerosum" and fields["version"]


# --------------------------------------------------------------------------- BOARD, TAKEBACK


def test_board_bad_lines_are_errors_and_the_rest_is_played() -> None:
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    replies = manager.send("BOARD", "7,7,1", "7,7,2", "x,y,1", "20,1,2", "3,3,3", "8,8,4", "6,6,2")
    assert len(replies) == 5 and all(r.startswith("ERROR BOARD line") for r in replies), replies
    for reply, named in zip(replies, ("7,7,2", "x,y,1", "20,1,2", "3,3,3", "8,8,4"), strict=True):
        assert named in reply
    manager.own.add((7, 7))
    manager.theirs.add((6, 6))
    manager.brain_move("DONE")


def test_board_then_game_continues_with_turns() -> None:
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    manager.own |= {(7, 7), (8, 8)}
    manager.theirs |= {(7, 8), (6, 6), (9, 9)}
    manager.brain_move("BOARD", "7,7,1", "7,8,2", "8,8,1", "6,6,2", "9,9,2", "DONE")
    rng = random.Random(5)
    for _ in range(3):
        square = rng.choice(manager.empty)
        manager.theirs.add(square)
        manager.brain_move("TURN {},{}".format(*square))


def test_takeback_removes_the_stone_and_the_owner_moves_again() -> None:
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    manager.theirs.add((7, 7))
    x, y = manager.brain_move("TURN 7,7")
    assert manager.answer(f"TAKEBACK {x},{y}") == "OK"
    manager.own.discard((x, y))
    assert manager.answer("TAKEBACK 7,7") == "OK"
    manager.theirs.clear()
    reply = manager.answer("TAKEBACK 7,7")
    assert reply.startswith("ERROR ") and "7,7" in reply
    manager.brain_move("BEGIN")  # the board is empty again


def test_restart_empties_the_board_and_keeps_the_size() -> None:
    manager = Manager(10)
    manager.send("START 10", f"INFO timeout_turn {TURN_MS}")
    manager.brain_move("BEGIN")
    assert manager.answer("RESTART") == "OK"
    manager.own.clear()
    reply = manager.answer("TURN 10,0")
    assert reply.startswith("ERROR ") and "10x10" in reply
    manager.theirs.add((9, 9))
    manager.brain_move("TURN 9,9")


def test_play_imposes_the_brains_move() -> None:
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    assert manager.answer("PLAY 3,4") == "3,4"
    manager.own.add((3, 4))
    assert manager.answer("PLAY 3,4").startswith("ERROR ")
    manager.theirs.add((4, 4))
    manager.brain_move("TURN 4,4")


def test_swap2board_is_read_to_done_and_answered_unknown() -> None:
    manager = Manager()
    manager.send("START 15")
    assert manager.send("SWAP2BOARD", "7,7", "8,7", "9,9") == []
    reply = manager.answer("DONE")
    assert reply.startswith("UNKNOWN ") and "SWAP2BOARD" in reply


# --------------------------------------------------------------------------- tactics


def random_position(
    rng: random.Random, width: int, own_count: int, their_count: int, avoid: set[Square]
) -> tuple[set[Square], set[Square]]:
    """Scatter stones of each side on squares not in ``avoid``, with no five."""
    while True:
        free = [(x, y) for x in range(width) for y in range(width) if (x, y) not in avoid]
        picked = rng.sample(free, own_count + their_count)
        own, theirs = set(picked[:own_count]), set(picked[own_count:])
        if not has_five(own) and not has_five(theirs):
            return own, theirs


def winning_squares(
    stones: set[Square], others: set[Square], width: int, exact: bool
) -> set[Square]:
    return {
        (x, y)
        for x in range(width)
        for y in range(width)
        if (x, y) not in stones | others and completes_five(stones, (x, y), exact)
    }


def board_lines(own: set[Square], theirs: set[Square]) -> list[str]:
    lines = [f"{x},{y},1" for x, y in own] + [f"{x},{y},2" for x, y in theirs]
    random.Random(len(lines)).shuffle(lines)  # BOARD may list stones in any order
    return ["BOARD", *lines, "DONE"]


@pytest.mark.parametrize("seed", range(4))
def test_the_brain_completes_its_five_even_facing_a_four(seed: int) -> None:
    rng = random.Random(seed)
    width = 15
    x0, y0 = rng.randrange(1, width - 5), rng.randrange(width)
    four = {(x0 + i, y0) for i in range(4)}
    their_four = {(i, (y0 + 7) % width) for i in range(4)}
    avoid = four | their_four | {(x0 + 4, y0), (x0 - 1, y0)}
    own, theirs = random_position(rng, width, 8, 8, avoid)
    own |= four
    theirs |= their_four | {(x0 - 1, y0)}
    wins = winning_squares(own, theirs, width, exact=False)
    assert wins  # the test built a four with an open end
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    manager.own, manager.theirs = set(own), set(theirs)
    assert manager.brain_move(*board_lines(own, theirs)) in wins


@pytest.mark.parametrize("seed", range(4))
def test_the_brain_blocks_a_four(seed: int) -> None:
    rng = random.Random(100 + seed)
    width = 15
    for _ in range(1000):
        x0, y0 = rng.randrange(width - 4), rng.randrange(width - 4)
        gap = rng.randrange(5)
        direction = rng.choice(DIRECTIONS[:3])  # keep the line on the board
        line = [(x0 + i * direction[0], y0 + i * direction[1]) for i in range(5)]
        their_four = {square for i, square in enumerate(line) if i != gap}
        own, theirs = random_position(rng, width, 11, 7, set(line))
        theirs |= their_four
        threats = winning_squares(theirs, own, width, exact=False)
        if len(threats) == 1 and not winning_squares(own, theirs, width, exact=False):
            break
    else:
        pytest.fail("no position with exactly one square to block")
    manager = Manager()
    manager.send("START 15", f"INFO timeout_turn {TURN_MS}")
    manager.own, manager.theirs = set(own), set(theirs)
    assert manager.brain_move(*board_lines(own, theirs)) in threats


def test_exact_five_rule_reaches_the_brain() -> None:
    """Own stones ``XXXX.X`` on one row and a broken four elsewhere: under exactly-five
    only the second four wins; under freestyle either does."""
    width = 15
    overline = {(x, 2) for x in (2, 3, 4, 5, 7)}  # 6,2 would make six in a row
    four = {(3, 10), (4, 10), (5, 10), (7, 10)}  # 6,10 makes exactly five
    theirs = {(1, 2), (8, 2), (2, 10), (8, 10), (12, 12), (13, 13), (12, 13), (0, 14), (14, 0)}
    own = overline | four
    exact = winning_squares(own, theirs, width, exact=True)
    free = winning_squares(own, theirs, width, exact=False)
    assert exact == {(6, 10)} and free == {(6, 10), (6, 2)}
    for rule, wins in ((1, exact), (0, free)):
        manager = Manager()
        manager.send(f"INFO rule {rule}", "START 15", f"INFO timeout_turn {TURN_MS}")
        manager.own, manager.theirs = set(own), set(theirs)
        assert manager.brain_move(*board_lines(own, theirs)) in wins


# --------------------------------------------------------------------------- any line

WORDS = ["START", "RECTSTART", "RESTART", "BEGIN", "TURN", "BOARD", "DONE", "INFO", "ABOUT"]
WORDS += ["TAKEBACK", "PLAY", "SWAP2BOARD", "timeout_turn", "rule", "max_memory", "7,7", "-1"]
ANSWER = re.compile(r"(OK|\d+,\d+|(ERROR|UNKNOWN|MESSAGE) .*|name=.*)")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=30),
            st.lists(
                st.one_of(
                    st.sampled_from(WORDS),
                    st.from_regex(r"-?[0-9]{1,3}(,-?[0-9]{1,3}){0,2}", fullmatch=True),
                ),
                max_size=4,
            ).map(" ".join),
        ),
        max_size=12,
    )
)
def test_no_line_stops_the_brain_and_every_answer_is_well_formed(lines: list[str]) -> None:
    out = io.StringIO()
    brain = GomocupBrain(out)
    brain.handle("INFO timeout_turn 0")  # as fast as possible: a one-ply search
    for line in lines:
        if line.strip().upper().startswith("END"):
            continue
        assert brain.handle(line)
    for answer in out.getvalue().splitlines():
        assert ANSWER.fullmatch(answer) and answer.isascii(), answer
    assert brain.handle("END") is False
