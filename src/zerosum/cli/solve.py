"""``zerosum solve``: the exact value of a position, every best move and the work done.

It works for every game: the engine's exact solver (:func:`zerosum.search.solve.solve`)
proves the value. Two optional game hooks change only how the answer is shown or found:
``published_score(state, engine_score)`` gives the score in the game's published
convention as well (connect four's 22-minus-stones scale), and a game that solves itself
by dynamic programming (``solve()``, the stone games) is solved that way from its start,
in polynomial time.
"""

from __future__ import annotations

import argparse
from typing import Any

from zerosum.cli.common import UsageError, make_game, table


def register(commands: Any) -> None:
    """Add the ``solve`` subcommand."""
    parser = commands.add_parser(
        "solve",
        help="exact value of a position, every best move and node counts",
        description="Examples: zerosum solve tictactoe --moves b2,a1 | "
        "zerosum solve connect4 --moves 4455 --all | zerosum solve stones-vii 5,3,1,4,2",
    )
    parser.add_argument("game", help="a game spec, e.g. tictactoe or connect4:width=5,height=4")
    parser.add_argument("setup", nargs="?", help="the game's main option, e.g. stone values")
    parser.add_argument("--position", help="start from a position in the game's notation")
    parser.add_argument("--moves", help="moves to play first, separated by commas or spaces")
    parser.add_argument("--all", action="store_true", help="also score every legal move")
    parser.add_argument("--weak", action="store_true", help="win, draw or loss only (faster)")
    parser.set_defaults(run=run)


def start_state(game: Any, args: argparse.Namespace) -> Any:
    """The position to solve: ``--position`` or the start, then ``--moves`` played, checked.

    Moves are separated by commas or spaces; a single word that is not a move is read as
    one move per character, as connect four's published sequences are written (``4455``)."""
    from zerosum.game import ZerosumError, play

    state = game.parse_state(args.position) if args.position else game.initial_state()
    words = (args.moves or "").replace(",", " ").split()
    if len(words) == 1 and len(words[0]) > 1:
        try:
            return play(game, state, words[0])
        except ZerosumError as whole:
            played = 0
            try:
                for move in words[0]:
                    state = play(game, state, move)
                    played += 1
            except ZerosumError:
                if played == 0:  # not a sequence of moves either: the word was the move
                    raise whole from None
                raise
            return state
    for move in words:
        state = play(game, state, move)
    return state


def describe(game: Any, score: int, weak: bool) -> str:
    """Say what an exact engine score means for the side to move."""
    from zerosum.game import plies_to_end

    if weak or game.info.win_loss:
        if score == 0:
            return "draw"
        outcome = "win" if score > 0 else "loss"
        return outcome if weak else f"{outcome} in {plies_to_end(score)} plies"
    return f"{score:+d} points"


def run(args: argparse.Namespace) -> None:
    """Solve and print the value, the best moves, the line and the counts."""
    game = make_game(args.game, args.setup)
    own_solver = getattr(game, "solve", None)
    if callable(own_solver) and not (args.position or args.moves or args.weak or args.all):
        _print_dynamic_programme(game, own_solver())
        return
    state = start_state(game, args)
    if game.is_terminal(state):
        raise UsageError(f"nothing to solve: the game is over in {game.format_state(state)!r}")
    from zerosum.search.solve import solve

    solution = solve(game, state, weak=args.weak, root_scores=args.all)
    mover = game.info.players[game.to_move(state)]
    where = game.format_state(state) or "the start"
    print(f"{game.info.title}: {where}, {mover} to move")
    published = getattr(game, "published_score", None)

    def shown(score: int) -> str:
        text = describe(game, score, args.weak)
        if published is not None and not args.weak:
            return f"{published(state, score):+d} ({text})"
        return text

    label = "score" if published is not None and not args.weak else "value"
    print(f"{label}: {shown(solution.score)}")
    best = [game.format_move(state, move) for move in solution.best_moves]
    print(f"best moves: {' '.join(best)}")
    if solution.pv:
        line, position = [], state
        for move in solution.pv:
            line.append(game.format_move(position, move))
            position = game.result(position, move)
        print(f"line: {' '.join(line)}")
    print(f"nodes: {solution.nodes:,}  time: {solution.time:.3f} s")
    if solution.root_scores is not None:
        rows = [(game.format_move(state, m), shown(s)) for m, s in solution.root_scores.items()]
        print(table(rows, ("move", label)))


def _print_dynamic_programme(game: Any, solution: Any) -> None:
    print(f"{game.info.title}: {game.format_state(game.initial_state())}")
    print(f"value: {solution.value} (first player's margin with best play)")
    print(f"answer: {solution.answer}")
    print(f"line: {', '.join(solution.line)}")
    print(f"states: {solution.states:,} (dynamic programming over the repeated positions)")
