"""Chess: the rules (:mod:`.rules`), the checked layer (:mod:`.notation`) and an
evaluation (:mod:`.evaluation`), put together as one game, :class:`Chess`.

The rules are fast and unchecked (the search's side); the notation reads and writes
FEN, UCI and SAN and raises the project's errors. python-chess is not needed: it is only
an optional extra (PGN, opening books, tablebases) and the oracle of the tests.
"""

from __future__ import annotations

from zerosum.games.chess import notation, rules
from zerosum.games.chess.evaluation import evaluate
from zerosum.games.chess.rules import START, ChessRules, State

__all__ = ["START", "Chess", "State"]


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
        """Return material and piece-square value in centipawns for the side to move."""
        return evaluate(state)

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
