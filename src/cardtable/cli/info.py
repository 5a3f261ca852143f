"""The commands that look without playing: ``games``, ``rules``, ``deal``, ``moves``, ``check``.

They also hold what every command needs to turn its arguments into a
position: a game id and a deal number (which may be negative:
:class:`DealNumberCommand` lets the number's check say what is wrong with
it), or a deal file or ``-`` for standard input, read through
:mod:`cardtable.cli.files`; and the terminal's width, which their output fits.
So each bad input fails the same way everywhere: one line naming the problem,
exit code 2 (see :mod:`cardtable.cli.main`).
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator
from typing import Any, Final, TypeVar

import click

from cardtable.cli.files import STDIN, InputFileError, read_file, source_name, text_pieces
from cardtable.core.deals import deal, parse_deal_number
from cardtable.core.errors import PATH_WIDTH, CardtableError, InvalidSolutionError, quoted
from cardtable.core.move import REDEAL, Move
from cardtable.core.notation import plural
from cardtable.core.state import State
from cardtable.formats import (
    RESULTS,
    deal_to_json,
    move_to_json,
    read_position,
    replay,
    solutions_or_problems,
)
from cardtable.games import GAMES, find_game, load_game, options_note
from cardtable.interop import solvitaire
from cardtable.render.text import console, fitting_width, layout, reflow, wrap

Record = TypeVar("Record")
NEGATIVE_NUMBER: Final = re.compile(r"-[0-9]+")


class DealNumberCommand(click.Command):
    """A command with a deal number among its arguments: ``-3`` reaches the deal-number check, which
    says what is wrong with it, where click would take it for an option it does not know.

    Anything else that starts with a dash and is no option of the command is
    refused as click refuses it (``no such option: --tmeout``, with what it may
    have meant), rather than read as a file or a game's name.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["context_settings"] = {**kwargs.get("context_settings", {}), "ignore_unknown_options": True}
        super().__init__(*args, **kwargs)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        options = [param for param in self.get_params(ctx) if isinstance(param, click.Option)]
        known = {name for option in options for name in (*option.opts, *option.secondary_opts)}
        valued = {name for option in options if not option.is_flag for name in option.opts}
        given = iter(args[: args.index("--")] if "--" in args else args)
        for arg in given:
            name, equals, _ = arg.partition("=")
            if name in valued and not equals:  # its value may start with a dash: --timeout -1
                next(given, None)
            elif (
                arg.startswith("-")
                and arg != STDIN
                and not NEGATIVE_NUMBER.fullmatch(arg)
                and name not in known
            ):
                raise click.NoSuchOption(name, possibilities=sorted(known), ctx=ctx)
        return super().parse_args(ctx, args)


class OptionConflictError(CardtableError, ValueError):
    """Command-line options or arguments that cannot go together."""


# -- turning arguments into positions -----------------------------------------


def numbered_deal(game: str, number: str) -> State:
    """The starting position of deal ``number`` of ``game`` (an id, options allowed)."""
    return deal(load_game(game), parse_deal_number(number))


def names_a_game(source: str) -> bool:
    """Whether an argument given before a deal number is the game: a game id always is, even where a
    file has its name (``./fan`` names the file), and so is any other name that no file has."""
    return find_game(source) is not None or not os.path.exists(source)


def position(source: str, number: str | None) -> State:
    """``GAME N`` when a number is given, else ``FILE`` or ``-`` holding a deal or a saved game."""
    if number is not None and not names_a_game(source):
        raise OptionConflictError(
            f"{quoted(source, PATH_WIDTH)} is a file, and one is enough: {quoted(number)} is one argument too many"
        )
    if number is not None:
        return numbered_deal(source, number)
    return read_file(source, read_position)


def sorted_lines(lines: list[str]) -> list[str]:
    """Lines in byte order, as ``LC_ALL=C sort`` would put them, whatever the locale."""
    return sorted(lines, key=lambda line: line.encode("utf-8"))


# -- the commands ---------------------------------------------------------------


RULES_WIDTH: Final = 80
"""The width the rules are written in: a terminal at least this wide shows them as they are."""


def terminal_width() -> int | None:
    """The width of the terminal standard output goes to, or None for a file or a pipe, which keep whole lines."""
    return shutil.get_terminal_size().columns if click.get_text_stream("stdout").isatty() else None


def echo(text: str) -> None:
    """Print a line on standard output in the output's own encoding, as the game's layouts are printed.

    click.echo alone takes an ASCII output for a mistake and writes UTF-8 to it
    anyway; a card symbol that the output cannot show should instead end the
    command with the advice of :func:`cardtable.cli.main.main`, whichever
    command prints it.
    """
    click.echo(text, file=sys.stdout)


def echo_fitted(text: str) -> None:
    """Print prose, on a terminal wrapped between words to its width: the terminal would cut words in two."""
    echo(wrap(text, terminal_width()))


@click.command()
def games() -> None:
    """List the games: id, name and a one-line summary (on a narrow terminal, going on under the name)."""
    width = max(len(game_id) for game_id in GAMES)
    for spec in GAMES.values():
        line = wrap(f"  {spec.id.ljust(width)}  {spec.name}: {spec.summary}", terminal_width())
        echo("\n".join(part[2:] for part in line.split("\n")))  # wrapped as an indented list


@click.command()
@click.argument("game")
def rules(game: str) -> None:
    """Print the rules of GAME in plain words.

    GAME may carry options, such as 'alexander-the-great-lucie(redeals=0)'.
    """
    spec = load_game(game)
    title, _, rest = spec.rules.rstrip("\n").partition("\n")
    note = options_note(spec)
    text = title + ("" if note is None else f"\n\n{textwrap.fill(note, width=RULES_WIDTH)}") + f"\n{rest}"
    width = terminal_width()
    echo(reflow(text, width) if width is not None and width < RULES_WIDTH else text)


DEAL_FORMATS: Final = ("cardtable", "solvitaire", "solvitaire-rules")


@click.command(name="deal", cls=DealNumberCommand)
@click.argument("game")
@click.argument("number")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(DEAL_FORMATS),
    default=None,
    help="Print JSON instead of the picture: our deal format, Solvitaire's deal, or Solvitaire's rules.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the deal in our JSON deal format (--format cardtable)."
)
def deal_command(game: str, number: str, fmt: str | None, as_json: bool) -> None:
    """Show deal NUMBER (1 to 2147483647) of GAME.

    Every face-up card is shown, bottom to top, left to right: the last card of
    a line is the one that plays. A stock is face down, and shows its count
    (--json gives its cards too). Red cards are red where the terminal has colour.

    --format solvitaire writes the deal as Solvitaire's deal file, and
    --format solvitaire-rules the rules file that makes Solvitaire play our
    rules (solvitaire --custom-rules RULES DEAL). Only games whose rules
    Solvitaire can state work: fan and alexander-the-great-lucie(redeals=0).
    """
    if as_json and fmt not in (None, "cardtable"):
        raise OptionConflictError(f"--json means --format cardtable: it cannot go with --format {fmt}")
    state = numbered_deal(game, number)
    if as_json or fmt == "cardtable":
        echo(deal_to_json(state))
    elif fmt is not None:
        echo(_solvitaire_text(state, fmt))
    else:
        out = console()
        out.print(layout(state, fitting_width(out)))


def _solvitaire_text(state: State, fmt: str) -> str:
    """Solvitaire's deal or rules JSON (see :mod:`cardtable.interop.solvitaire`)."""
    return solvitaire.rules_json(state.spec) if fmt == "solvitaire-rules" else solvitaire.deal_json(state)


@click.command(cls=DealNumberCommand)
@click.argument("source", metavar="FILE|GAME")
@click.argument("number", required=False, metavar="[N]")
def moves(source: str, number: str | None) -> None:
    """Print every legal move, one JSON move per line.

    With one argument, the position is the deal file FILE ('-' reads standard
    input), or a saved game where its moves left it; with two, it is deal N of
    GAME. Lines are sorted as byte strings, like 'LC_ALL=C sort', so the output
    can be compared with other tools'. An allowed redeal prints the fans it
    makes; a position with no legal move prints nothing.
    """
    state = position(source, number)
    for line in sorted_lines([move_to_json(_as_written(state, move)) for move in state.legal_moves]):
        echo(line)


def _as_written(state: State, move: Move) -> Move:
    """``move`` as formats.md writes it: a redeal with the fans it makes, which the deal's seed fixes."""
    return Move.redeal(state.redeal_fans()) if move.kind == REDEAL else move


@click.command()
@click.argument("file", metavar="FILE")
def check(file: str) -> None:
    """Replay the solution in FILE ('-' reads standard input), or the several solutions it holds.

    Prints 'ok N moves' and exits 0 if every move is legal and the moves
    bear out the result: a 'won' solution's end in a win, an 'unwinnable' or
    'unknown' one's do not. That an 'unwinnable' deal truly cannot be won no
    replay can show, and 'ok' says so; 'cardtable solve' searches it again.
    Otherwise prints 'not ok: ' and the first problem, such as the first
    illegal move and why, and exits 1. A file that is not a solution at all
    fails with exit code 2.

    A file may hold several solutions one after another, such as the JSON
    Lines of 'cardtable solve --json' on several deals: then each one that
    fails, or is no solution though it is JSON, gets its own 'not ok' line,
    naming it, and a last line sums up.
    """
    solutions = _named_errors(file, solutions_or_problems(text_pieces(file)))
    first = next(solutions)
    second = next(solutions, None)
    if second is None:
        if isinstance(first, InvalidSolutionError):  # one record, and no solution: no file check reads
            raise InvalidSolutionError(f"{source_name(file)}: {first}")
        result = replay(first)
        if result.problem is not None:
            echo(f"not ok: {result.problem}")
            click.get_current_context().exit(1)
        echo(f"ok {result.legal_moves} moves{UNCHECKED if first.result == 'unwinnable' else ''}")
        return
    failed, moves, results = 0, 0, Counter[str]()
    try:
        for number, solution in enumerate(itertools.chain((first, second), solutions), 1):
            if isinstance(solution, InvalidSolutionError):  # named with its number and line already
                failed += 1
                echo(f"not ok: {solution}")
                continue
            result = replay(solution)
            if result.problem is not None:
                failed += 1
                echo(f"not ok: solution {number} ({position_label(solution.deal)}): {result.problem}")
            else:
                moves += result.legal_moves
                results[solution.result] += 1
    except CardtableError:  # text that is no JSON: where the next record starts cannot be told
        read = failed + sum(results.values())
        echo(
            f"not ok: {failed} of the {plural(read, 'solution')} read so far failed, and the rest cannot be read:"
        )
        raise
    total = failed + sum(results.values())
    if failed:
        echo(f"not ok: {failed} of {total} solutions")
        click.get_current_context().exit(1)
    verdicts = ", ".join(f"{results[verdict]} {verdict}" for verdict in RESULTS if results[verdict])
    echo(f"ok {total} solutions ({verdicts}), {moves} moves{UNCHECKED if results['unwinnable'] else ''}")


UNCHECKED: Final = "; an unwinnable claim is not checked: a replay can prove only a win"
"""What ``check`` adds when it passes an ``unwinnable``: its moves are legal and do not win, and that is all."""


def _named_errors(path: str, records: Iterator[Record]) -> Iterator[Record]:
    """``records`` read from ``path``, a mistake in them told with the file's name, as :func:`~cardtable.cli.files.read_file` tells it."""
    try:
        yield from records
    except CardtableError as problem:
        if isinstance(problem, InputFileError):
            raise
        raise type(problem)(f"{source_name(path)}: {problem}") from None


def position_label(state: State) -> str:
    """A position as the output names it: ``fan deal 3``, or the game alone for a position not dealt by number."""
    if state.deal_number is None:
        return state.spec.id
    return f"{state.spec.id} deal {state.deal_number}"
