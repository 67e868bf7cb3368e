"""Xiangqi (Chinese chess): the rules (:mod:`.rules`), the checked layer
(:mod:`.notation`) and an evaluation (:mod:`.evaluation`), put together as one game,
:class:`Xiangqi`.

The rules are fast and unchecked (the search's side); the notation reads and writes
FEN, ICCS coordinates, WXF and Chinese notation and raises the project's errors.
"""

from __future__ import annotations

from typing import Literal

from zerosum.game import BoardView, Player
from zerosum.games.xiangqi import notation, rules
from zerosum.games.xiangqi.evaluation import evaluate
from zerosum.games.xiangqi.rules import (
    SIDE_KEY,
    START,
    State,
    XiangqiRules,
    is_check,
)

__all__ = ["START", "MoveNotation", "State", "Xiangqi", "mvv_lva"]

MoveNotation = Literal["chinese", "wxf", "iccs"]
"""How :meth:`Xiangqi.format_move` writes a move: Chinese notation (``炮二平五``), WXF
(``C2=5``) or ICCS coordinates (``h2e2``)."""


class Xiangqi(XiangqiRules):
    """Xiangqi, with FEN positions and moves read in Chinese notation, WXF or ICCS and
    written in the ``notation`` chosen (Chinese by default).

    ``draws=False`` leaves out the repetition draw and the sixty-move rule (see
    :mod:`.rules`); perpetual check still loses."""

    notation: MoveNotation

    def __init__(self, notation: MoveNotation = "chinese", draws: bool = True) -> None:
        super().__init__(draws)
        if notation not in ("chinese", "wxf", "iccs"):
            raise ValueError(f"notation must be chinese, wxf or iccs, not {notation!r}")
        self.notation = notation

    def evaluate(self, state: State) -> int:
        """Return the evaluation in centipawns for the side to move
        (:func:`zerosum.games.xiangqi.evaluation.evaluate`)."""
        return evaluate(state)

    def in_check(self, state: State) -> bool:
        """Tell whether the side to move is in check: the engine's hook for check
        extensions and for the moves it never reduces or prunes."""
        return is_check(state)

    def null_move(self, state: State) -> State | None:
        """Return ``state`` with the side to move passing (the engine's null move), or
        ``None`` where a pass would mislead: in check, and when the side to move has no
        chariot, horse or cannon, where zugzwang is common.

        The pass starts a new repetition history, so no line through it is scored as a
        repetition of the game's positions; the other side cannot be in check (the
        position is legal with us to move)."""
        turn = state[9]
        us = state[1] if turn else state[0]
        if state[13] or not us & (state[5] | state[6] | state[7]):  # horses, cannons, chariots
            return None
        return (*state[:9], turn ^ 1, 0, state[11] + turn, state[12] ^ SIDE_KEY, 0, (), ())

    def capture_value(self, state: State, action: int) -> int:
        """Return the ordering value of a capture by MVV-LVA (:func:`mvv_lva`)."""
        return mvv_lva(state, action)

    def parse_move(self, state: State, text: str) -> int:
        """Read a move in Chinese notation (``炮二平五``), WXF (``C2=5``) or ICCS
        (``h2e2``).

        Raises :class:`~zerosum.game.InvalidMoveError` for text that is no move and
        :class:`~zerosum.game.IllegalMoveError` for an illegal or ambiguous one."""
        return notation.parse_move(state, text)

    def format_move(self, state: State, action: int) -> str:
        """Write ``action`` in the game's ``notation``."""
        if self.notation == "wxf":
            return notation.format_wxf(state, action)
        if self.notation == "iccs":
            return notation.format_coordinates(action)
        return notation.format_chinese(state, action)

    def format_uci(self, state: State, action: int, base: int = 0) -> str:
        """Write ``action`` as UCI engines do: coordinates with ranks 0-9 as Pikafish
        writes them (``h2e2``), or with ``base=1`` ranks 1-10 as Fairy-Stockfish does
        (``h3e3``). :class:`~zerosum.protocols.uci.UciAgent` chooses the base."""
        return notation.format_coordinates(action, base)

    def parse_uci(self, state: State, text: str, base: int = 0) -> int:
        """Read a move as a UCI engine writes it, ranks counted from ``base`` (see
        :meth:`format_uci`). Raises :class:`~zerosum.game.InvalidMoveError` for text that
        is no move and :class:`~zerosum.game.IllegalMoveError` for an illegal one."""
        return notation.parse_coordinates(state, text, base)

    def perft(self, state: State, depth: int) -> int:
        """Count the move paths of ``depth`` plies (no draws), counting the last ply's
        moves without making them: the hook :func:`zerosum.search.perft.perft` calls."""
        return rules.perft(state, depth)

    def parse_state(self, text: str) -> State:
        """Read a FEN; raises :class:`~zerosum.game.InvalidStateError`."""
        return notation.parse_fen(text)

    def format_state(self, state: State) -> str:
        """Write ``state`` as FEN."""
        return notation.format_fen(state)

    def render(self, state: State) -> str:
        """Draw the board with Chinese piece names, coordinates and the side to move."""
        return notation.render(state)

    def board(self, state: State) -> BoardView[int]:
        """Return the picture of ``state`` for graphical interfaces: red at the bottom,
        pieces named by their Chinese characters (red's 帅仕相傌炮俥兵, black's
        将士象馬砲車卒) on the points, moves made from-point then to-point. The river
        breaks the inner files between ranks 4 and 5 and the palaces have their
        diagonals. The files are labelled as the game's notation counts them: red's
        九 to 一, WXF's 9 to 1, or ICCS's a to i with the ranks 9 to 0."""
        cells: list[Player | None] = []
        pieces: list[str] = []
        for cell in range(90):
            found = rules.piece_at(state, _point(cell))  # _point is its own inverse
            cells.append(None if found is None else found[0])
            pieces.append("" if found is None else _BOARD_NAMES[found[0]][found[1]])
        moves: dict[int, dict[int, tuple[int, ...]]] = {}
        for move in self.actions(state):
            moves.setdefault(_point(move & 127), {})[_point(move >> 7)] = (move,)
        return BoardView(
            9,
            10,
            tuple(cells),
            {},
            kind="intersections",
            pieces=tuple(pieces),
            moves=moves,
            files=tuple(_BOARD_FILES[self.notation]),
            ranks=tuple("9876543210") if self.notation == "iccs" else (),
            segments=((3, 23), (5, 21), (66, 86), (68, 84)),
            breaks=(4,),
        )


_BOARD_NAMES = ("兵仕相傌炮俥帅", "卒士象馬砲車将")
"""Red's and black's pieces in :meth:`Xiangqi.board`, by piece number."""

_BOARD_FILES = {"chinese": "九八七六五四三二一", "wxf": "987654321", "iccs": "abcdefghi"}
"""The file labels of :meth:`Xiangqi.board`, from the left, by notation."""


def _point(square: int) -> int:
    """The point of ``square`` (``a0`` is 0) in a picture drawn from the top left
    (``a9``)."""
    return (9 - square // 9) * 9 + square % 9


_VICTIM_RANK = (1, 2, 2, 4, 4, 5, 6)
"""The rank of a soldier, advisor, elephant, horse, cannon, chariot and general."""


def mvv_lva(state: State, action: int) -> int:
    """Return ``8 * victim - attacker`` for ``action``, with pieces ranked 1 (soldier)
    to 6 (general) and the victim 0 for none: a higher value is searched first."""
    frm, to = action & 127, action >> 7
    victim = attacker = 0
    for piece, pieces in enumerate(state[2:9]):
        if pieces >> to & 1:
            victim = _VICTIM_RANK[piece]
        if pieces >> frm & 1:
            attacker = _VICTIM_RANK[piece]
    return 8 * victim - attacker
