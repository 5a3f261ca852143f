"""``cardtable solve`` and ``cardtable hint``: the solver from the command line.

Verdicts are exact: ``won`` with a line that ``cardtable check`` replays,
``unwinnable`` when every reachable position was searched, ``unknown`` when a
budget ran out first. A verdict is not an error: the exit code is 0 for all three.
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from os import path as os_path
from typing import Final, TypeVar

import click
from rich.console import Console

from cardtable.cli.files import STDIN, read_file
from cardtable.cli.info import (
    DealNumberCommand,
    OptionConflictError,
    echo,
    echo_fitted,
    names_a_game,
    numbered_deal,
    position,
    position_label,
    terminal_width,
)
from cardtable.cli.options import TIMEOUT_LEAST, Seconds, max_table_option, position_count
from cardtable.core.cards import card_symbol
from cardtable.core.move import CARD, REDEAL, Move, PileId
from cardtable.core.notation import move_text, pile_code, plural
from cardtable.core.state import State
from cardtable.formats import Solution, read_position
from cardtable.games import find_game
from cardtable.interrupts import INTERRUPTED_EXIT, Terminated
from cardtable.render.text import glued
from cardtable.solver import Limit, Progress, SolveResult
from cardtable.solver import solve as run_solver
from cardtable.solver.rewind import WayBack, single_steps, way_back
from cardtable.solver.search import ran_out_of_time


def with_budget(
    timeout_help: str, timeout: float | None = None
) -> Callable[[click.decorators.FC], click.decorators.FC]:
    """Add the budget options shared by ``solve`` and ``hint``, ``--timeout`` with each one's help and default.

    ``solve`` gives each position the budget and has no time limit unless
    told, or told 0 as ``survey`` is; ``hint`` judges one position, as long
    again to look back, and has one, which 0 cannot take away.
    """
    options = [
        click.option(
            "--timeout",
            type=Seconds(min=TIMEOUT_LEAST, zero=timeout is None),
            default=timeout,
            show_default=timeout is not None,
            help=timeout_help,
        ),
        click.option("--max-states", type=position_count(1), default=None, help="Positions per search."),
        max_table_option(per_worker=False),
    ]

    def add(command: click.decorators.FC) -> click.decorators.FC:
        for option in reversed(options):
            command = option(command)
        return command

    return add


def positions(sources: tuple[str, ...]) -> list[tuple[str, State]]:
    """``GAME N`` (one numbered deal) or any number of deal files (``-`` is standard input), each with its label.

    Two arguments are ``GAME N`` when the first is a game id, whatever files
    there are, as for ``moves`` and ``hint`` (see :func:`names_a_game`; ``./fan``
    names the file). When it is no game id and no file either, they are too if
    the second looks like a deal number and is no file: so that ``solve
    klondike 3`` or ``solve 'fan(x=1)' 3`` says what is wrong with the game, as
    every other command does, not that there is no file by that name. A
    position from a file is labelled with the file's name too, since files of
    one game, or positions of one deal, would otherwise read alike.
    """
    if len(sources) == 2 and names_a_game(sources[0]) and _names_a_deal(*sources):
        state = numbered_deal(sources[0], sources[1])
        return [(position_label(state), state)]
    if len(sources) > 2 and find_game(sources[0]) is not None:
        raise OptionConflictError(
            f"one deal number after the game: {sources[0]} {sources[1]} (several deals: deal files, or"
            f" 'cardtable survey'{f'; the file {sources[0]!r} is ./{sources[0]}' if os_path.exists(sources[0]) else ''})"
        )
    if sources.count(STDIN) > 1:
        raise OptionConflictError("'-' is given more than once: standard input can be read only once")
    states = [(source, read_file(source, read_position)) for source in sources]
    return [
        (f"{'standard input' if source == STDIN else source} ({position_label(state)})", state)
        for source, state in states
    ]


def _names_a_deal(game: str, number: str) -> bool:
    return find_game(game) is not None or (number.isdigit() and not os_path.exists(number))


def notation_lines(state: State, moves: list[Move], width: int) -> str:
    """The moves in the terminal notation, numbered, with the card each moves, replayed from ``state``.

    They stand in columns, as many to a line as fit ``width`` (see
    :func:`line_width`), and never split: a player replaying them by
    hand can check each card. A redeal ends its line and is followed by the fans
    it deals, one a line, since the moves after it name piles of the new fans.
    """
    board = state.copy()
    digits = len(str(len(moves)))
    out: list[str] = []
    items: list[str] = []
    for number, move in enumerate(moves, 1):
        card = f" {card_symbol(move.card)}" if move.kind == CARD and move.card is not None else ""
        items.append(f"{number:>{digits}}. {move_text(board, move)}{card}")
        board.push(move)
        if move.kind == REDEAL:
            out += [_columns(items, width), "   the fans are now:"]
            fans = board.spec.groups[-1]
            for index, fan in enumerate(board.group(fans.name)):
                code = pile_code(board, PileId(fans.name, index))
                out.append(f"     {code:<4} {' '.join(card_symbol(card).ljust(3) for card in fan)}".rstrip())
            items = []
    if items:
        out.append(_columns(items, width))
    return "\n".join(out)


LINE_WIDTH: Final = 78
"""The widest a line of moves gets, on a terminal or in a file."""
GAP: Final = 3
"""Spaces between two columns of moves."""


def line_width() -> int:
    """:data:`LINE_WIDTH`, or a terminal's width where it is narrower: a line cut at its edge would split a move."""
    return min(LINE_WIDTH, terminal_width() or LINE_WIDTH)


def _columns(items: list[str], width: int) -> str:
    """The items in columns as wide as the widest, as many to a line as fit ``width`` (one at least)."""
    cell = max(map(len, items))
    per_line = max(1, (width + GAP) // (cell + GAP))
    lines = [items[start : start + per_line] for start in range(0, len(items), per_line)]
    return "\n".join((" " * GAP).join(item.ljust(cell) for item in line).rstrip() for line in lines)


HINT_SECONDS: Final = 10.0
"""How long a hint may think unless told otherwise (``hint``, and ``play``'s ``hint``), and then how long
it may look back when the position is lost."""
INTERRUPTED: Final = "interrupted"
"""The reason of a search stopped by Ctrl-C (see :func:`watched_solve`)."""
T = TypeVar("T")

NO_TIME_LEFT: Final = "no time left"
"""The reason of a look-back's search not begun: the seconds for the whole look-back are spent."""


def was_interrupted(result: SolveResult) -> bool:
    """Whether a Ctrl-C stopped the search: a look-back ends there, it does not go on to the next position."""
    return result.reason == INTERRUPTED


def unless_stopped(work: Callable[[], T], stopped: T) -> T:
    """``work()``, or ``stopped`` if a Ctrl-C ends it first: a hint's searches, and what it does between them.

    The search in hand takes a Ctrl-C as its own (see :func:`watched_solve`);
    one that lands between two searches, or while a line found is remembered,
    is taken here the same way, so that it stops the hint, not the game. A
    SIGTERM or SIGHUP still ends the session.
    """
    try:
        return work()
    except Terminated:
        raise
    except KeyboardInterrupt:
        return stopped


def judged(state: State, limit: Limit, back: int = 0) -> SolveResult:
    """A hint's search: :func:`watched_solve`, or ``unknown`` at once when no time is left.

    ``back``: how many moves back the position stands, when a hint looks back
    for one that can still be won; the live line says so.
    """
    if limit.seconds is not None and limit.seconds <= 0:
        return SolveResult("unknown", reason=NO_TIME_LEFT)
    return watched_solve(state, limit, f"the position {plural(back, 'move')} back" if back else "for a hint")


def watched_solve(state: State, limit: Limit, label: str) -> SolveResult:
    """Solve ``state``, with a live line on standard error when it is a terminal; Ctrl-C ends the search as unknown.

    A search without a budget can run for minutes (Acey and Kingsley's hardest
    deals), and a player who stops it should still hear what it cost, not
    "Aborted!". The numbers then are those of the last live report, at most
    :data:`~cardtable.solver.search.PROGRESS_EVERY` seconds old.
    """
    started = time.perf_counter()
    last = Progress(0, 0, 0.0)
    with _live_line(f"solving {label}") as show:

        def note(progress: Progress) -> None:
            nonlocal last
            last = progress
            show(f"solving {label}: {progress.states:,} positions, {progress.seconds:.0f} s (Ctrl-C stops)")

        try:
            return run_solver(state, limit, progress=note)
        except Terminated:
            raise  # not the player's Ctrl-C: the command ends
        except KeyboardInterrupt:
            return SolveResult(
                "unknown", [], last.states, time.perf_counter() - started, last.table, INTERRUPTED
            )


def _stop_if_interrupted(result: SolveResult | WayBack) -> None:
    """End the command with :data:`INTERRUPTED_EXIT` once an interrupted search has been reported."""
    if result.reason == INTERRUPTED:
        click.get_current_context().exit(INTERRUPTED_EXIT)


@contextmanager
def _live_line(text: str) -> Iterator[Callable[[str], None]]:
    """A spinner line on standard error, if it is a terminal, and a way to change its text; else nothing."""
    err = Console(stderr=True, highlight=False, markup=False)
    if not err.is_terminal:
        yield lambda _: None
        return
    with err.status(text) as status:
        yield status.update


def verdict_line(result: SolveResult) -> str:
    """One line: the verdict and what it cost."""
    cost = f"{plural(result.states, 'position')}, {result.seconds:.2f} s"
    if result.status == "won":
        return f"won in {plural(len(result.moves), 'move')} ({cost})"
    if result.status == "unwinnable":
        return f"unwinnable: no line wins ({cost}, every line ruled out)"
    return f"unknown: {result.reason} before a verdict ({cost})"


@click.command(cls=DealNumberCommand)
@click.argument("sources", nargs=-1, required=True, metavar="GAME N | FILE...")
@click.option("--json", "as_json", is_flag=True, help="Print solutions (JSON Lines, in the order given).")
@with_budget("Seconds for each position solved (each FILE, or the deal); 0: none, as without it.")
def solve(
    sources: tuple[str, ...], as_json: bool, timeout: float | None, max_states: int | None, max_table: int
) -> None:
    """Solve deal N of GAME, or the positions in FILEs: deals, or saved games where their moves left them.

    Prints the verdict (won, unwinnable or unknown) and, when won, the winning
    line in the play notation. The solver knows every card: the stock's order
    and the shuffles of later redeals, which the deal fixes.

    Without --timeout or --max-states a search runs until it decides or its
    table is full, which can take minutes. On a
    terminal a live line shows how far it has got; Ctrl-C stops it, reports it
    unknown and exits with code 130.
    """
    limit = Limit(states=max_states, seconds=timeout or None, table=max_table)
    for label, state in positions(sources):
        result = watched_solve(state, limit, label)
        if as_json:
            record = Solution(state, result.status, result.moves, result.stats)
            echo(json.dumps(record.to_dict()))
        else:
            echo(f"{label}: {verdict_line(result)}")
            if result.moves:
                echo(notation_lines(state, result.moves, line_width()))
        _stop_if_interrupted(result)


@click.command(cls=DealNumberCommand)
@click.argument("source", metavar="FILE|GAME")
@click.argument("number", required=False, metavar="[N]")
@with_budget(
    "Seconds to think; a saved game that can no longer be won gets as long again to look back"
    " for where it still could.",
    HINT_SECONDS,
)
def hint(source: str, number: str | None, timeout: float, max_states: int | None, max_table: int) -> None:
    """Suggest a move on a winning line from FILE (a deal or a saved game; '-': standard input) or deal N of GAME.

    Says so when the position can no longer be won, and when the budget ran
    out before an answer.
    """
    state = position(source, number)
    result = judged(state, Limit(states=max_states, seconds=timeout, table=max_table))
    text = hint_text(state, result)
    way = WayBack("won")  # no look-back: nothing to say of one
    if result.status == "unwinnable" and state.move_stack:  # a saved game: where it still could be won
        way = unless_stopped(
            lambda: way_back(
                state,
                single_steps(state),
                lambda earlier, left, back: judged(
                    earlier, Limit(states=max_states, seconds=left, table=max_table), back
                ),
                timeout,
                stops=was_interrupted,
            ),
            WayBack("unknown", reason=INTERRUPTED),
        )
        then = f"cardtable play {shlex.quote(source)}, then" if source != "-" else "resume the game, then"
        text += way_back_text(way, state.ply(), timeout, then=then)
    echo_fitted(text)
    _stop_if_interrupted(result)
    _stop_if_interrupted(way)  # a look-back stopped ends the command as a hint stopped does


def hint_text(state: State, result: SolveResult, *, name: Callable[[State, Move], str] | None = None) -> str:
    """What a player is told: the move to make, or why there is none.

    ``name`` says a move: by default as typed, with its card and the piles as
    formats.md names them; ``cardtable play``, where the codes are what the
    player types, says it in codes alone.
    """
    name = name or _named
    played = bool(state.move_stack)  # "still", "no longer": only of a game under way
    if result.status == "won" and result.moves:
        move = result.moves[0]
        return (
            f"play {name(state, move)}: the game can {'still ' if played else ''}be won"
            f" (the solver's line takes {plural(len(result.moves), 'move')})"
        )
    if result.status == "won":
        return "the game is won"
    if result.status == "unwinnable":
        return f"no move wins from here: this position {'can no longer' if played else 'cannot'} be won"
    if result.guess is not None:
        return (
            f"try {name(state, result.guess)}: the solver's best guess, not proved to win"
            f" ({result.reason} before it found a win or proved there is none)"
        )
    return f"no hint: {result.reason} before the solver found a win or proved there is none"


def way_back_text(way: WayBack, played: int, seconds: float, *, then: str | None = None) -> str:
    """What follows "can no longer be won" after ``played`` moves: how far back it still could.

    ``then``: what to do before typing the undo, for ``cardtable hint``, which
    has no undo of its own: the player resumes the saved game to take moves back.
    """
    if way.status == "won":
        typed = glued("restart" if way.undo == played else "undo" if way.undo == 1 else f"undo {way.undo}")
        how = (
            f"{glued(then)} '{typed}'" if then is not None else f"'{typed}' goes there"
        )  # each kept on a line
        if way.undecided:  # the latest winnable position may be nearer: say only what is proved
            where = (
                "the start of the game"
                if way.undo == played
                else f"the position {plural(way.undo, 'move')} back"
            )
            nearer = "position" if way.undecided == 1 else f"{way.undecided} positions"
            return f"; {where} still could ({how}), and the solver could not tell for the {nearer} between"
        if way.undo == played:
            return f"; only the start of the game still could ({how})"
        return f"; {plural(way.undo, 'move')} back it still could ({how})"
    if way.status == "unwinnable":
        return "; nor could any earlier position: the game was lost from its start"
    if way.reason == INTERRUPTED:
        return "; interrupted before the solver found how far back it still could"
    out_of_time = way.reason == NO_TIME_LEFT or ran_out_of_time(way.reason)  # whichever search it was
    if out_of_time:
        return f"; the solver found no earlier position it could win within {seconds:g} s"
    back = plural(way.undo, "move")
    return f"; the solver could not tell whether the position {back} back can still be won ({way.reason})"


def _named(state: State, move: Move) -> str:
    """A move as typed, and the card it moves from where to where: ``t3 f1 (7♣ tableau/3 to foundation/1)``."""
    what = f" ({card_symbol(move.card)} {move.source} to {move.target})" if move.card is not None else ""
    return f"{glued(move_text(state, move))}{what}"
