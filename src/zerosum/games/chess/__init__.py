"""Chess: the rules (:mod:`.rules`), the checked layer (:mod:`.notation`) and an
evaluation (:mod:`.evaluation`), put together as one game, :class:`Chess`.

The rules are fast and unchecked (the search's side); the notation reads and writes
FEN, UCI and SAN and raises the project's errors. python-chess is not needed: it is only
an optional extra (PGN, opening books, tablebases) and the oracle of the tests.
"""

from __future__ import annotations

from zerosum.game import BoardView
from zerosum.games.chess import notation, rules
from zerosum.games.chess.evaluation import evaluate
from zerosum.games.chess.rules import (
    EP_KEYS,
    SIDE_KEY,
    START,
    ChessRules,
    State,
    colour_set,
    is_check,
    piece_at,
)

__all__ = ["START", "Chess", "State", "mvv_lva"]


class Chess(ChessRules):
    """Chess, with FEN positions and moves read in SAN or UCI and written in SAN.

    ``chess960`` allows Chess960 castling rights in FEN (any rook on the home rank, in
    X-FEN or Shredder-FEN) and writes UCI castling as the king moving onto its rook; the
    start position is the standard one either way (a Chess960 start comes as a FEN).
    ``draws=False`` leaves out the fifty-move rule, repetition and insufficient material
    (see :mod:`.rules`)."""

    chess960: bool

    def __init__(self, chess960: bool = False, draws: bool = True) -> None:
        super().__init__(draws)
        self.chess960 = bool(chess960)

    def evaluate(self, state: State) -> int:
        """Return the tapered evaluation in centipawns for the side to move
        (:func:`zerosum.games.chess.evaluation.evaluate`)."""
        return evaluate(state)

    def in_check(self, state: State) -> bool:
        """Tell whether the side to move is in check: the engine's hook for check
        extensions and for the moves it never reduces or prunes."""
        return is_check(state)

    def null_move(self, state: State) -> State | None:
        """Return ``state`` with the side to move passing (the engine's null move), or
        ``None`` where a pass would mislead: in check, and when the side to move has only
        its king and pawns, where zugzwang is common.

        The pass forfeits an en passant right and starts a new repetition history, so no
        line through it is scored as a repetition of the game's positions."""
        turn = state[8]
        us = state[1] if turn else state[0]
        if not us & (state[3] | state[4] | state[5] | state[6]) or is_check(state):
            return None
        key = state[13] ^ SIDE_KEY
        if state[10]:
            key ^= EP_KEYS[state[10] & 7]
        return (*state[:8], turn ^ 1, state[9], 0, 0, state[12] + turn, key, ())

    def capture_value(self, state: State, action: int) -> int:
        """Return the ordering value of a capture or promotion by MVV-LVA: the most
        valuable victim first and, among captures of one victim, the least valuable
        attacker; a promotion counts as capturing the piece it becomes."""
        return mvv_lva(state, action)

    def parse_move(self, state: State, text: str) -> int:
        """Read a move in SAN (``Nf3``, ``O-O``, ``e8=Q``) or UCI (``g1f3``, ``e7e8q``).

        Raises :class:`~zerosum.game.InvalidMoveError` for text that is no move and
        :class:`~zerosum.game.IllegalMoveError` for an illegal or ambiguous one."""
        return notation.parse_move(state, text)

    def format_move(self, state: State, action: int) -> str:
        """Write ``action`` in SAN, with ``+`` and ``#`` marks."""
        return notation.format_san(state, action)

    def perft(self, state: State, depth: int) -> int:
        """Count the move paths of ``depth`` plies by perft's rules (no draws), counting
        the last ply's moves without making them: the hook :func:`zerosum.search.perft.perft`
        calls."""
        return rules.perft(state, depth)

    def format_uci(self, state: State, action: int) -> str:
        """Write ``action`` in UCI notation (Chess960 castling when ``chess960``)."""
        return notation.format_uci(state, action, self.chess960)

    def parse_state(self, text: str) -> State:
        """Read a FEN; raises :class:`~zerosum.game.InvalidStateError`."""
        return notation.parse_fen(text, self.chess960)

    def format_state(self, state: State) -> str:
        """Write ``state`` as FEN."""
        return notation.format_fen(state)

    def render(self, state: State) -> str:
        """Draw the board with coordinates and the side to move."""
        return notation.render(state)

    def board(self, state: State) -> BoardView[int]:
        """Return the picture of ``state`` for graphical interfaces: white at the bottom,
        pieces named by their FEN letters, moves made from-square then to-square.

        Castling is the king moving onto its rook; in standard chess a click on the
        square the king lands on (``g1``, ``c1``) castles too. A pawn reaching the last
        rank has one move per promotion, for the person to choose among."""
        cells: list[int | None] = []
        pieces: list[str] = []
        for cell in range(64):
            found = piece_at(state, _cell(cell))  # _cell is its own inverse
            cells.append(None if found is None else found[0])
            letter = "" if found is None else "pnbrqk"[found[1]]
            pieces.append(letter.upper() if found is not None and found[0] == 0 else letter)
        moves: dict[int, dict[int, tuple[int, ...]]] = {}
        own = colour_set(state, state[8])
        for move in self.actions(state):
            frm, to = move & 63, move >> 6 & 63
            landings = [to]
            if own >> to & 1 and not self.chess960:
                # castling: the king's own landing square names it as well as its rook
                landings.append((to & 56) + (6 if to > frm else 2))
            destinations = moves.setdefault(_cell(frm), {})
            for landing in landings:
                destinations[_cell(landing)] = (*destinations.get(_cell(landing), ()), move)
        return BoardView(
            8,
            8,
            tuple(cells),
            {},
            kind="squares",
            pieces=tuple(pieces),
            piece_set="chess",
            moves=moves,
            files=tuple("abcdefgh"),
            ranks=tuple("87654321"),
        )


_VICTIM_RANK = (1, 2, 2, 3, 4, 0)
"""The rank of a captured (or promoted-to) pawn, knight, bishop, rook or queen."""


def mvv_lva(state: State, action: int) -> int:
    """Return ``8 * victim - attacker`` for ``action``, with the victim ranked 1 (pawn)
    to 4 (queen), 0 for none, plus the rank of a promotion's piece, and the attacker
    ranked 1 (pawn) to 6 (king): a higher value is searched first."""
    frm, to, promotion = action & 63, action >> 6 & 63, action >> 12
    them = state[0] if state[8] else state[1]
    sets = state[2:7]
    victim = 0
    if them >> to & 1:
        for piece in range(5):
            if sets[piece] >> to & 1:
                victim = _VICTIM_RANK[piece]
                break
    elif state[10] and to == state[10] and state[2] >> frm & 1:
        victim = 1  # en passant
    attacker = 6
    for piece in range(5):
        if sets[piece] >> frm & 1:
            attacker = piece + 1
            break
    if promotion:
        victim += _VICTIM_RANK[promotion]
    return 8 * victim - attacker


def _cell(square: int) -> int:
    """The cell of ``square`` (``a1`` is 0) in a picture drawn from the top left (``a8``)."""
    return (7 - (square >> 3)) * 8 + (square & 7)
