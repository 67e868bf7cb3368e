"""Kalah, the mancala game in which a player may move twice running.

Two rows of ``pits`` houses face each other, each player's row ending in its store on
the player's right; every house starts with ``seeds`` seeds. A move takes every seed of
one of the mover's houses and sows them one a pit counter-clockwise: along the mover's
houses, into the mover's store, along the opponent's houses, skipping the opponent's
store. Then, as Wikipedia's statement of the common rules has it:

* the last seed sown in the mover's own store earns the mover another move (so the same
  player moves again: the game declares ``alternating=False``);
* the last seed sown in an empty house of the mover's, whose opposite house holds seeds,
  captures both that seed and the opposite seeds into the mover's store;
* when either row of houses is empty the game ends, and the seeds left in the other row
  go to that row's owner's store.

The utility is the margin in stores (seeds), for the player asked about. Kalah(6, 4)
and the larger games were solved by Irving, Donkers and Uiterwijk (2000); the sizes
tests solve here are small ones, against plain minimax on every reachable state.

Notation: the mover's houses are numbered ``1`` to ``pits`` from the mover's left (the
way the sowing runs). A state is written as the pits counter-clockwise from south's
first house, stores included, then the side to move:
``4,4,4,4,4,4,0,4,4,4,4,4,4,0 south``.
"""

from __future__ import annotations

from zerosum.game import (
    BoardView,
    GameInfo,
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
    Player,
    describe_state,
    quoted,
)

__all__ = ["SIDES", "Kalah", "State"]

State = tuple[tuple[int, ...], Player]
"""A position: the pits counter-clockwise from south's first house (south's houses,
south's store, north's houses, north's store) and the player to move (0 south)."""

SIDES = ("south", "north")
"""The players' names: south moves first."""


class Kalah:
    """Kalah with ``pits`` houses a side and ``seeds`` seeds a house (6 and 4 by default)."""

    info: GameInfo
    pits: int
    seeds: int

    def __init__(self, pits: int = 6, seeds: int = 4) -> None:
        if not 1 <= pits <= 12:
            raise ValueError(f"Kalah has 1 to 12 houses a side, not {pits}")
        if not 1 <= seeds <= 24:
            raise ValueError(f"Kalah has 1 to 24 seeds a house, not {seeds}")
        self.pits, self.seeds = pits, seeds
        total = 2 * pits * seeds
        self.info = GameInfo(
            name="kalah",
            title=f"Kalah({pits}, {seeds})",
            players=SIDES,
            utility_range=(-total, total),
            win_loss=False,
            board_size=(pits + 2, 2),
            description=(
                f"Kalah with {pits} houses of {seeds} seeds a side: sow counter-clockwise; "
                "the last seed in your store moves again, in an empty house of yours "
                f"captures the opposite house. Moves 1-{pits} from your left."
            ),
            score_unit="seeds",
            alternating=False,
        )
        self._start: State = ((*[seeds] * pits, 0, *[seeds] * pits, 0), 0)

    # ------------------------------------------------------------------ protocol

    def initial_state(self) -> State:
        """Return the start: every house full, both stores empty, south to move."""
        return self._start

    def to_move(self, state: State) -> Player:
        """Return the player to move (0 south, 1 north); after a move that ended in the
        mover's store, the same player again."""
        return state[1]

    def actions(self, state: State) -> list[int]:
        """Return the mover's non-empty houses, numbered 0 to ``pits - 1`` from the
        mover's left; none once the game is over."""
        if self.is_terminal(state):
            return []
        pits, (board, mover) = self.pits, state
        first = 0 if mover == 0 else pits + 1
        return [house for house in range(pits) if board[first + house]]

    def result(self, state: State, action: int) -> State:
        """Sow the seeds of house ``action`` (unchecked)."""
        pits = self.pits
        board, mover = list(state[0]), state[1]
        ring = 2 * pits + 2
        own_store = pits if mover == 0 else ring - 1
        skipped = ring - 1 if mover == 0 else pits
        pit = action if mover == 0 else pits + 1 + action
        seeds, board[pit] = board[pit], 0
        while seeds:
            pit = (pit + 1) % ring
            if pit != skipped:
                board[pit] += 1
                seeds -= 1
        next_mover: Player = mover
        if pit != own_store:
            next_mover = 1 - mover
            own_side = 0 <= pit < pits if mover == 0 else pits < pit < ring - 1
            opposite = 2 * pits - pit
            if own_side and board[pit] == 1 and board[opposite]:
                board[own_store] += board[opposite] + 1
                board[pit] = board[opposite] = 0
        south, north = board[:pits], board[pits + 1 : ring - 1]
        if not any(south) or not any(north):
            # the game is over: each row's seeds go to its owner's store
            board[pits] += sum(south)
            board[ring - 1] += sum(north)
            board[:pits] = [0] * pits
            board[pits + 1 : ring - 1] = [0] * pits
        return tuple(board), next_mover

    def is_terminal(self, state: State) -> bool:
        """Tell whether either row of houses is empty."""
        board, pits = state[0], self.pits
        return not any(board[:pits]) or not any(board[pits + 1 : 2 * pits + 1])

    def utility(self, state: State, player: Player) -> int:
        """Return ``player``'s seeds less the opponent's (houses included, as the end's
        sweep counts them)."""
        board, pits = state[0], self.pits
        south = sum(board[: pits + 1])
        north = sum(board[pits + 1 :])
        return south - north if player == 0 else north - south

    def evaluate(self, state: State) -> int:
        """Return the stores' margin for the side to move: what the mover has banked."""
        board, mover = state
        margin = board[self.pits] - board[-1]
        return margin if mover == 0 else -margin

    # ------------------------------------------------------------------ checked layer

    def parse_move(self, state: State, text: str) -> int:
        """Read a house number, 1 to ``pits`` from the mover's left.

        Raises :class:`~zerosum.game.InvalidMoveError` for text that is no number and
        :class:`~zerosum.game.IllegalMoveError` for a house out of range or empty."""
        stripped = text.strip()
        if not stripped.isdigit() or len(stripped) > 3:
            raise InvalidMoveError(
                f"{quoted(text)} is not a house number 1-{self.pits} "
                f"({describe_state(self, state)})"
            )
        house = int(stripped) - 1
        if house not in self.actions(state):
            why = "out of range" if not 0 <= house < self.pits else "empty, or the game is over"
            raise IllegalMoveError(f"house {quoted(text)} is {why} ({describe_state(self, state)})")
        return house

    def format_move(self, state: State, action: int) -> str:
        """Write ``action`` as its house number from the mover's left."""
        return str(action + 1)

    def parse_state(self, text: str) -> State:
        """Read ``4,4,...,0 south`` (see the module notes); raises
        :class:`~zerosum.game.InvalidStateError`."""
        words = text.split()
        ring = 2 * self.pits + 2
        if len(words) != 2 or words[1] not in SIDES:
            raise InvalidStateError(
                f"{quoted(text)} is not {ring} comma-separated pits and south or north"
            )
        counts = words[0].split(",")
        if len(counts) != ring or not all(c.isdigit() and len(c) <= 4 for c in counts):
            raise InvalidStateError(
                f"{quoted(text)} does not list {ring} pits of seeds for Kalah({self.pits}, "
                f"{self.seeds})"
            )
        board = tuple(int(c) for c in counts)
        if sum(board) != 2 * self.pits * self.seeds:
            raise InvalidStateError(
                f"{quoted(text)} holds {sum(board)} seeds, not the "
                f"{2 * self.pits * self.seeds} of Kalah({self.pits}, {self.seeds})"
            )
        mover: Player = 0 if words[1] == SIDES[0] else 1
        return board, mover

    def format_state(self, state: State) -> str:
        """Write ``state`` as :meth:`parse_state` reads it."""
        return f"{','.join(map(str, state[0]))} {SIDES[state[1]]}"

    def render(self, state: State) -> str:
        """Draw the board from south's side: north's houses on top, right to left, its
        store on the left; south's houses below, its store on the right."""
        board, mover = state
        pits = self.pits
        north = " ".join(f"{n:2}" for n in reversed(board[pits + 1 : 2 * pits + 1]))
        south = " ".join(f"{n:2}" for n in board[:pits])
        width = len(south)
        return "\n".join(
            (
                f"      {north}       north{' to move' if mover == 1 else ''}",
                f"[{board[-1]:2}]  {' ' * width}  [{board[pits]:2}]",
                f"      {south}       south{' to move' if mover == 0 else ''}",
            )
        )

    def board(self, state: State) -> BoardView[int]:
        """Return the picture: two rows of ``pits + 2`` cells, north's store at the top
        left, south's at the bottom right, every pit labelled with its seeds; a click on
        a house of the mover's sows it."""
        board, mover = state
        pits = self.pits
        width = pits + 2
        cells: list[Player | None] = [None] * (2 * width)
        labels = [""] * (2 * width)
        targets: dict[int, int] = {}
        for house in range(pits):
            north_cell = width - 2 - house  # north's houses run right to left on top
            south_cell = width + 1 + house
            cells[north_cell], labels[north_cell] = 1, str(board[pits + 1 + house])
            cells[south_cell], labels[south_cell] = 0, str(board[house])
        cells[0], labels[0] = 1, str(board[-1])
        cells[-1], labels[-1] = 0, str(board[pits])
        for house in self.actions(state):
            targets[width + 1 + house if mover == 0 else width - 2 - house] = house
        return BoardView(width, 2, tuple(cells), targets, pieces=tuple(labels))
