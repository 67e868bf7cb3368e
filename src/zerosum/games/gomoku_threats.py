"""Threat search for gomoku: victory by continuous fours (VCF) and by threes and fours (VCT).

Both are AND/OR searches for the side to move (the *attacker*) over the threats that
leave the defender few answers, proven without leaving anything out:

* A **four** (a move after which the attacker makes five next) has one answer: the
  block. The defender may instead make five of its own, so a four is only played when
  the defender has none; a block that makes the defender a four forces the attacker to
  block in turn (with a four of its own, in VCF). Two cells to make five at once win.
* A **three** (a move after which the attacker can make an open four, VCT only) is
  answered by any cell that leaves the attacker no open four to make on any line, or by
  any four of the defender. Every other reply loses: the attacker makes the open four,
  the defender has no five to make (its reply made no four, and it had none), and one
  stone cannot block two cells. So the answers searched are exactly the cells that stop
  the threes and the defender's fours, and a line is only claimed when every one of them
  loses.

**Renju.** Black's forbidden moves (:meth:`~zerosum.games.gomoku.Gomoku.forbidden`)
are never among its fours in VCF, and VCT is not tried for black: a three of black's may
be a false one, and a stone of white's may answer it by leaving black only forbidden
open fours, which the answers searched here do not cover. White's searches stay sound as
they are: where black's block or answer is forbidden black has one answer fewer, and a
line that wins against more answers wins against fewer.

A line returned is the moves of both sides in order, the last making five; the
defender's move in it is the answer that holds out longest within the search. A node
budget bounds the work, and an ``expired`` callable (the engine's time limit and stop
signal, asked at every node) can cut it short: either way the search gives up
(``None``), so the functions answer soundly or not at all. Positions proven to have no
VCF within a number of fours are remembered by Zobrist key (side to move included: the
attacker) from one VCF search to the next, since the engine asks at many similar
positions; VCT remembers its failures for one search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from zerosum.games.gomoku import Gomoku, GomokuState

__all__ = ["VCF_DEPTH", "VCT_DEPTH", "vcf", "vct"]

VCF_DEPTH = 16
"""The most fours the attacker may play in one VCF line."""

VCT_DEPTH = 7
"""The most threats (threes or fours) the attacker may play in one VCT line."""


_FAILED_LIMIT = 1 << 16
"""Positions without a VCF remembered between searches before the memory is emptied."""


class _GiveUpError(Exception):
    """Raised to abandon a search whose node budget is spent or whose time is up."""


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _ordered(game: Gomoku, state: GomokuState, cells: int) -> list[int]:
    """The cells of ``cells``, best first by the game's move-ordering value."""
    return game._ranked(state, cells, game.cells)


def vcf(
    game: Gomoku,
    state: GomokuState,
    budget: int = 4_000,
    expired: Callable[[], bool] | None = None,
    *,
    shortest: bool = False,
) -> list[int] | None:
    """Return a victory by continuous fours for the side to move, or ``None``.

    The line holds the attacker's fours and the defender's forced blocks, in order, and
    ends with the attacker's five; ``budget`` bounds the positions visited, and the
    search gives up as soon as ``expired()`` (asked at each of them) says so. With
    ``shortest`` it deepens one four at a time, so that a line returned has the fewest
    fours of any VCF (of at most :data:`VCF_DEPTH` fours), at the price of searching the
    shallower trees again."""
    if state[9] >= 0:
        return None
    p = state[2]
    masks = game._flag_masks
    win_mask = masks[1 << p]
    if not state[4] & (win_mask | masks[4 << p]):  # no five and no four to make
        return None
    failed = game._vcf_failed
    if len(failed) > _FAILED_LIMIT:
        failed.clear()
    nodes = 0
    # the search plays on one list of line analyses, made and unmade in place (a state
    # for every position it visited cost most of its time), and reads the attacker's
    # five cells and the defender's from the lines through the stone just played:
    # elsewhere neither side has any (the attacker's four is played only when it has no
    # five, and its four blocks the defender's one five if there is one)
    infos = list(state[3])
    cell_lines = game._cell_lines
    clear = game._clear
    cache = game._cache
    analyse = game._analyse
    spread = game._spread
    mine, theirs = game._zobrist[p], game._zobrist[1 - p]
    four_mask = masks[4 << p]
    open_mask = masks[16 << p]
    o = 1 - p
    own_shift, their_shift = (32, 0) if p else (0, 32)
    # under renju black's fours are asked whether they are allowed: the stones are kept
    renju = game.rule == "renju" and p == 0
    stones = [state[0], state[1]]
    forbidden = game._forbidden_reason
    suspect = game._suspect

    def attack(marks: int, key: int, threats: int, depth: int) -> list[int] | None:
        nonlocal nodes
        if depth == 0 or failed.get(key, -1) >= depth:
            return None
        nodes += 1
        if nodes > budget or (expired is not None and expired()):
            raise _GiveUpError
        moves = 0
        m = marks & four_mask
        while m:
            low = m & -m
            m ^= low
            line = (low.bit_length() - 1) >> 3
            moves |= spread(line, infos[line].fours[p])
        if threats:
            moves = 0 if threats & (threats - 1) else moves & threats
        m = marks & open_mask
        if m and moves:
            opens = 0
            while m:
                low = m & -m
                m ^= low
                line = (low.bit_length() - 1) >> 3
                opens |= spread(line, infos[line].opens[p])
            if moves & opens:
                # an open four wins at once: the depth-first order would try the fours
                # before it first, and run out of budget in long lines
                moves &= opens
                moves &= -moves
        # fours are few and each has one answer, the block: trying them in cell order
        # costs less than ranking them
        while moves:
            low = moves & -moves
            moves ^= low
            move = low.bit_length() - 1
            if renju and suspect(infos, move) and forbidden(stones[0], stones[1], move):
                continue
            after = marks
            wins = 0
            lines = cell_lines[move]
            olds = [infos[line] for line, _ in lines]
            for line, position in lines:
                code = infos[line].code | 1 << (position + own_shift)
                new = infos[line] = cache.get(code) or analyse(code)
                after = (after & clear[line]) | new.flags << (8 * line)
                if new.wins[p]:
                    wins |= spread(line, new.wins[p])
            block = _lowest(wins)
            rest = wins ^ (1 << block)
            if rest:
                for (line, _), old in zip(lines, olds, strict=True):
                    infos[line] = old
                return [move, block, _lowest(rest)]
            blocked = after
            made = 0
            block_lines = cell_lines[block]
            block_olds = [infos[line] for line, _ in block_lines]
            for line, position in block_lines:
                code = infos[line].code | 1 << (position + their_shift)
                new = infos[line] = cache.get(code) or analyse(code)
                blocked = (blocked & clear[line]) | new.flags << (8 * line)
                if new.wins[o]:
                    made |= spread(line, new.wins[o])
            stones[p] ^= 1 << move
            stones[o] ^= 1 << block
            found = attack(blocked, key ^ mine[move] ^ theirs[block], made, depth - 1)
            stones[p] ^= 1 << move
            stones[o] ^= 1 << block
            for (line, _), old in zip(block_lines, block_olds, strict=True):
                infos[line] = old
            for (line, _), old in zip(lines, olds, strict=True):
                infos[line] = old
            if found is not None:
                return [move, block, *found]
        failed[key] = depth
        return None

    if state[4] & win_mask:
        return [_lowest(game.five_cells(state, p))]
    threats = game.five_cells(state, o)
    try:
        for depth in range(1 if shortest else VCF_DEPTH, VCF_DEPTH + 1):
            line = attack(state[4], state[7], threats, depth)
            if line is not None:
                return line
    except _GiveUpError:
        return None
    return None


def vct(
    game: Gomoku,
    state: GomokuState,
    budget: int = 12_000,
    expired: Callable[[], bool] | None = None,
) -> list[int] | None:
    """Return a victory by threes and fours for the side to move, or ``None``.

    The line holds the attacker's threats and the defender's answers, in order, and ends
    with the attacker's five; every answer of the defender was searched (see the module
    docstring). ``budget`` bounds the positions visited, and the search gives up as soon
    as ``expired()`` (asked at each of them) says so."""
    if state[9] >= 0 or (game.rule == "renju" and state[2] == 0):
        return None
    p = state[2]
    failed: dict[tuple[int, bool], int] = {}
    nodes = 0
    result = game.result
    five_cells = game.five_cells
    four_cells = game.four_cells
    three_cells = game.three_cells
    three_defences = game.three_defences
    open_four_cells = game.open_four_cells

    def count() -> None:
        nonlocal nodes
        nodes += 1
        if nodes > budget or (expired is not None and expired()):
            raise _GiveUpError

    def attack(s: GomokuState, depth: int) -> list[int] | None:
        wins = five_cells(s, p)
        if wins:
            return [_lowest(wins)]
        threats = five_cells(s, 1 - p)
        if threats:
            if threats & (threats - 1):
                return None
            block = _lowest(threats)
            line = defend(result(s, block), depth)
            return None if line is None else [block, *line]
        if depth == 0:
            return None
        key = (s[7], True)
        if failed.get(key, -1) >= depth:
            return None
        count()
        moves = four_cells(s, p) | three_cells(s, p)
        for move in _ordered(game, s, moves):
            line = defend(result(s, move), depth - 1)
            if line is not None:
                return [move, *line]
        failed[key] = depth
        return None

    def defend(s: GomokuState, depth: int) -> list[int] | None:
        d = 1 - p
        if five_cells(s, d):
            return None
        wins = five_cells(s, p)
        if wins:
            block = _lowest(wins)
            rest = wins ^ (1 << block)
            if rest:
                return [block, _lowest(rest)]
            line = attack(result(s, block), depth)
            return None if line is None else [block, *line]
        stops = three_defences(s, p)
        if stops is None:
            return None  # no threat: the defender has a free move
        key = (s[7], False)
        if failed.get(key, -1) >= depth:
            return None
        count()
        answers = stops | four_cells(s, d)
        if not answers:
            # nothing stops the threes: any reply loses, so show one that takes an
            # open-four cell and let the search prove the rest
            answers = open_four_cells(s, p) & -open_four_cells(s, p)
        longest: list[int] | None = None
        for answer in _ordered(game, s, answers):
            line = attack(result(s, answer), depth)
            if line is None:
                failed[key] = depth
                return None
            if longest is None or len(line) + 1 > len(longest):
                longest = [answer, *line]
        return longest

    try:
        return attack(state, VCT_DEPTH)
    except _GiveUpError:
        return None
