"""Reference oracle for the Renju (RIF) forbidden-move rule for black.

Written from RIF's definitions alone, apart from :mod:`zerosum.games.gomoku`, for
``tests/games/test_gomoku_renju.py`` and the naive VCF of ``tests/games/test_gomoku.py``.
This module is deliberately simple and slow: every question is answered by
walking the board cell by cell along one of the four line directions, and the
"false three" rule is handled by plain recursion into :func:`forbidden`.  It is
meant as an obviously-correct test oracle for a faster implementation.

Coordinates are ``(x, y)``, 0-based, with ``0 <= x < width`` and
``0 <= y < height``.

Rule implemented (for a black stone placed on an empty ``cell``):

* Five first: if the stone makes a run of exactly five consecutive black
  stones through ``cell`` in some direction, the move is a win and is never
  forbidden.
* Otherwise the move is forbidden if any of the following holds:

  (a) overline: a run of six or more consecutive black stones through ``cell``;
  (b) double four: the move makes two or more fours (counted as distinct
      stone sets, over all four directions);
  (c) double three: the move makes real threes in two or more directions.

* A *four* in a direction is a set ``S`` of four black stones on that line,
  including ``cell``, such that some empty point ``f`` on the line completes
  ``S`` into exactly five consecutive black stones.
* A *three* in a direction (at most one per direction, and only in directions
  without a four) exists when some empty point ``g`` on the line turns the
  stones into a straight four containing ``cell`` (four consecutive black
  stones whose two end neighbours are empty and would each make exactly five),
  and ``g`` is itself not forbidden on the board with ``cell`` played.
* White stones and the board edge block lines.
"""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]
Direction = tuple[int, int]

#: The four line directions: horizontal, vertical, diagonal, anti-diagonal.
DIRECTIONS: tuple[Direction, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))


def _step(p: Cell, d: Direction, k: int) -> Cell:
    """Return the point ``k`` steps from ``p`` along direction ``d``."""
    return (p[0] + k * d[0], p[1] + k * d[1])


@dataclass(frozen=True)
class _Board:
    """An immutable board position: size plus black and white stone sets."""

    width: int
    height: int
    black: frozenset[Cell]
    white: frozenset[Cell]

    def on_board(self, p: Cell) -> bool:
        """Return True if ``p`` lies inside the board."""
        return 0 <= p[0] < self.width and 0 <= p[1] < self.height

    def is_black(self, p: Cell) -> bool:
        """Return True if ``p`` holds a black stone (off-board is never black)."""
        return p in self.black

    def is_empty(self, p: Cell) -> bool:
        """Return True if ``p`` is on the board and holds no stone."""
        return self.on_board(p) and p not in self.black and p not in self.white

    def with_black(self, p: Cell) -> _Board:
        """Return a copy of this board with an extra black stone on ``p``."""
        return _Board(self.width, self.height, self.black | {p}, self.white)

    def black_run(self, p: Cell, d: Direction) -> list[Cell]:
        """Return the maximal run of consecutive black stones through ``p``.

        ``p`` must hold a black stone.  The run is returned in order along
        ``d``, i.e. from the end in direction ``-d`` to the end in ``d``.
        """
        assert self.is_black(p), "black_run needs a black stone at p"
        start = p
        while self.is_black(_step(start, d, -1)):
            start = _step(start, d, -1)
        run = [start]
        while self.is_black(_step(run[-1], d, 1)):
            run.append(_step(run[-1], d, 1))
        return run


def _fours_in_direction(board: _Board, cell: Cell, d: Direction) -> set[frozenset[Cell]]:
    """Return the distinct fours through ``cell`` in direction ``d``.

    ``board`` already contains the black stone on ``cell``.  Each four is the
    set ``S`` of four black stones (including ``cell``) that a single empty
    point ``f`` completes into exactly five consecutive black stones.
    """
    fours: set[frozenset[Cell]] = set()
    # A five that contains both f and cell spans at most 5 points, so f is
    # within 4 steps of cell.
    for k in range(-4, 5):
        if k == 0:
            continue
        f = _step(cell, d, k)
        if not board.is_empty(f):
            continue
        run = board.with_black(f).black_run(f, d)
        if len(run) == 5 and cell in run:
            fours.add(frozenset(run) - {f})
    return fours


def _makes_straight_four(board: _Board, cell: Cell, d: Direction, g: Cell) -> bool:
    """Return True if black on empty ``g`` makes a straight four with ``cell``.

    ``board`` already contains the black stone on ``cell``.  After adding a
    black stone on ``g`` there must be exactly four consecutive black stones
    (containing both ``g`` and ``cell``) along ``d``, whose two end neighbours
    are empty points and whose points beyond those neighbours are not black
    (so that each end neighbour would make exactly five, not an overline).
    """
    after = board.with_black(g)
    run = after.black_run(g, d)
    if len(run) != 4 or cell not in run:
        return False
    low_end = _step(run[0], d, -1)
    high_end = _step(run[-1], d, 1)
    if not (after.is_empty(low_end) and after.is_empty(high_end)):
        return False
    return not (after.is_black(_step(low_end, d, -1)) or after.is_black(_step(high_end, d, 1)))


def _has_real_three(board: _Board, cell: Cell, d: Direction) -> bool:
    """Return True if ``cell`` forms a real (not false) three along ``d``.

    ``board`` already contains the black stone on ``cell``.  A real three
    needs an empty point ``g`` on the line that makes a straight four with
    ``cell`` and that is not itself a forbidden point for black on ``board``.
    """
    # Four consecutive stones containing both g and cell: g within 3 steps.
    for k in range(-3, 4):
        if k == 0:
            continue
        g = _step(cell, d, k)
        if not board.is_empty(g):
            continue
        if not _makes_straight_four(board, cell, d, g):
            continue
        if not forbidden(board.width, board.height, board.black, board.white, g):
            return True
    return False


def forbidden(
    width: int,
    height: int,
    black: frozenset[tuple[int, int]],
    white: frozenset[tuple[int, int]],
    cell: tuple[int, int],
) -> bool:
    """Return True if a black stone on ``cell`` is a forbidden move (RIF Renju).

    Args:
        width: Board width (number of columns, x in ``range(width)``).
        height: Board height (number of rows, y in ``range(height)``).
        black: Cells currently holding black stones.
        white: Cells currently holding white stones.
        cell: The empty cell black would play on.

    Returns:
        False if the move makes exactly five (five first).  Otherwise True if
        the move makes an overline, two or more fours, or real threes in two or
        more directions; False in every other case.
    """
    board0 = _Board(width, height, frozenset(black), frozenset(white))
    if not board0.is_empty(cell):
        raise ValueError(f"cell {cell} is off the board or occupied")
    if board0.black & board0.white:
        raise ValueError("a cell holds both a black and a white stone")
    board = board0.with_black(cell)

    run_lengths = [len(board.black_run(cell, d)) for d in DIRECTIONS]
    if 5 in run_lengths:
        return False  # Exact five wins; five first.
    if max(run_lengths) >= 6:
        return True  # Overline.

    fours_by_direction = {d: _fours_in_direction(board, cell, d) for d in DIRECTIONS}
    if sum(len(fours) for fours in fours_by_direction.values()) >= 2:
        return True  # Double four (possibly in a single line).

    threes = 0
    for d in DIRECTIONS:
        if fours_by_direction[d]:
            continue  # A direction holding a four is not also a three.
        if _has_real_three(board, cell, d):
            threes += 1
    return threes >= 2
