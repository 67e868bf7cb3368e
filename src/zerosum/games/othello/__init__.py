"""Othello: the rules (:mod:`.rules`), the checked layer (:mod:`.notation`) and an
evaluation with move ordering (:mod:`.evaluation`), put together as one game,
:class:`Othello`.

Besides the protocol it offers the engine what exact endgame solving needs: a key made
of both bitboards and the side to move, fastest-first move ordering
(``ordered_actions``), and ``window_value``, which in the last empties
(:data:`EXACT_EMPTIES`) searches the position with the engine's window in a dedicated
endgame solver (:class:`~zerosum.games.othello.rules.Endgame`), so that the engine's far
costlier nodes stop there.

With the ``fast`` extra (numba), :meth:`Othello.compiled_engine` gives an engine whose
searches run in a compiled kernel (:mod:`zerosum.games.othello.kernel`): the midgame
search with the evaluation, and the exact solve from about twenty empties, forty to
fifty times faster than this pure path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zerosum.game import BoardView
from zerosum.games.bitboards import bit_indices
from zerosum.games.othello import notation
from zerosum.games.othello.evaluation import evaluate, ordered_children
from zerosum.games.othello.rules import (
    FULL,
    PASS,
    PASS_BIT,
    START,
    Endgame,
    OthelloRules,
    State,
    result,
)

if TYPE_CHECKING:
    from zerosum.search.engine import Engine, EngineOptions

__all__ = ["EXACT_EMPTIES", "START", "WINDOW_BUDGET", "Othello", "State"]

EXACT_EMPTIES = 10
"""Up to this many empty squares, :meth:`Othello.window_value` searches the position
itself, within :data:`WINDOW_BUDGET`. Exact solves are 10% faster from 14 (FFO #21-24),
but in play the calls that give up cost the search depth: at 0.15 s a move against
GRhino level 3, 62.5% with 10 against 30% with 14 (20 games each)."""

WINDOW_BUDGET = 2000
"""The nodes :meth:`Othello.window_value` may spend in the endgame solver's table part
(a few milliseconds) before it hands the position back to the engine, which polls its
time and stop signal between nodes: a search with a time limit overruns it by no more
than one such call. The solver's table keeps what it proved, so the engine's search of
the position's children starts from there."""

_CHILDREN_KEPT = 1 << 14  # children the ordering made that the search has not asked for


class Othello(OthelloRules):
    """Othello on the 8x8 board: moves ``d3`` or ``pass``, positions in the FFO/obf form,
    scores as final disc differences (empties to the winner)."""

    def __init__(self) -> None:
        super().__init__()
        self._children: dict[tuple[int, int, int], State] = {}
        self.endgame = Endgame()
        """The endgame solver of :meth:`window_value`; its table lasts as long as the
        game, so that a solver's probes share it."""

    def evaluate(self, state: State) -> int:
        """Return an estimate of the final disc difference for the side to move."""
        return evaluate(state)

    def ordered_actions(self, state: State) -> list[int]:
        """Return the legal moves, most promising first (corners, fewest replies).

        Ranking the moves makes every child; they are kept for :meth:`result`, which
        the search calls next for the first of them."""
        children = self._children
        if len(children) > _CHILDREN_KEPT:
            children.clear()
        mover, opponent, side = state[0], state[1], state[2]
        moves = []
        for move, child in ordered_children(state):
            children[mover, opponent, side << 7 | move] = child
            moves.append(move)
        return moves

    def result(self, state: State, action: int) -> State:
        """Return the state after ``action``; unchecked (the child made by
        :meth:`ordered_actions` when there is one)."""
        child = self._children.pop((state[0], state[1], state[2] << 7 | action), None)
        return child if child is not None else result(state, action)

    def window_value(self, state: State, alpha: int, beta: int) -> int | None:
        """Return the final score for the side to move within the window ``(alpha,
        beta)``, fail-soft, from :attr:`endgame`, in the last :data:`EXACT_EMPTIES`
        empties; ``None`` before, or when the solver would spend more than
        :data:`WINDOW_BUDGET` nodes."""
        mover, opponent = state[0], state[1]
        if 64 - (mover | opponent).bit_count() > EXACT_EMPTIES:
            return None
        return self.endgame.try_solve(mover, opponent, alpha, beta, WINDOW_BUDGET)

    def compiled_engine(self, options: EngineOptions | None = None) -> Engine | None:
        """Return an engine whose searches run in the compiled kernel, or ``None`` for the
        pure path.

        ``None`` when kernels are off (:func:`zerosum.kernels.enabled`: numba missing,
        ``ZEROSUM_KERNELS=0`` or :func:`zerosum.kernels.use_kernels`). The engine
        (:class:`zerosum.games.othello.kernel.KernelEngine`) deepens in the kernel with
        the same evaluation and solves exactly from
        :data:`~zerosum.games.othello.kernel.SOLVE_EMPTIES` empties when the time allows;
        the first one made in a process loads the compiled kernel from the cache folder
        (or, once per CPU, compiles it: some seconds)."""
        from zerosum import kernels  # noqa: PLC0415 - numba only when a kernel is used

        module = kernels.load("zerosum.games.othello.kernel")
        if module is None:
            return None
        engine: Engine = module.KernelEngine(self, options)
        return engine

    def parse_move(self, state: State, text: str) -> int:
        """Read a square (``d3``, either case) or a pass (``pass``, ``ps``, ``pa``).

        Raises :class:`~zerosum.game.InvalidMoveError` for text that is no move and
        :class:`~zerosum.game.IllegalMoveError` for an illegal one."""
        return notation.parse_move(state, text)

    def format_move(self, state: State, action: int) -> str:
        """Write ``action`` as its square in lower case (``d3``), or ``pass``."""
        return notation.format_move(state, action)

    def parse_state(self, text: str) -> State:
        """Read a position in the FFO/obf form; raises
        :class:`~zerosum.game.InvalidStateError`."""
        return notation.parse_state(text)

    def format_state(self, state: State) -> str:
        """Write ``state`` in the FFO/obf form: 64 squares and the side to move."""
        return notation.format_state(state)

    def render(self, state: State) -> str:
        """Draw the board with coordinates, the disc count and the side to move."""
        return notation.render(state)

    def board(self, state: State) -> BoardView[int]:
        """Return the picture of ``state`` for graphical interfaces: ``a1`` top left, a
        click on a legal square plays there, and when the side to move must pass, a
        click on any empty square passes."""
        black, white = notation.colours(state)
        cells = tuple(
            0 if black >> square & 1 else 1 if white >> square & 1 else None for square in range(64)
        )
        moves = state[3]
        if moves == PASS_BIT:
            targets = dict.fromkeys(bit_indices(FULL ^ (black | white)), PASS)
        else:
            targets = {square: square for square in bit_indices(moves)}
        return BoardView(
            8,
            8,
            cells,
            targets,
            kind="squares",
            files=tuple("abcdefgh"),
            ranks=tuple("12345678"),
        )
