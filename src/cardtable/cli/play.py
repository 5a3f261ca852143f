"""``cardtable play``: a person plays a deal in the terminal, one typed line at a time.

The logic is :class:`~cardtable.cli.session.Session` (the position, undo and
redo, the replies to each line); this module is its input and output
(:func:`run_session`), the ``play`` command, and the opening of a game from a
deal number or a file. On a terminal every reply is wrapped between words to
its width.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

import click
from rich.console import Console

from cardtable.cli.files import STDIN, InputFileError, read_file
from cardtable.cli.info import DealNumberCommand, numbered_deal
from cardtable.cli.session import Session
from cardtable.cli.stats import (
    Scorebook,
    StatsUnavailableError,
    db_option,
    db_path,
)
from cardtable.core.deals import deal, random_deal
from cardtable.core.errors import PATH_WIDTH, InvalidSaveError, UnknownGameError, quoted
from cardtable.formats import (
    SavedGame,
    deal_from_dict,
    parse_json,
    record_kind,
    saved_game_from_dict,
)
from cardtable.games import find_game, load_game
from cardtable.interrupts import Terminated, ctrl_c_ignored, ended_as_ctrl_c, signals_reach_the_prompt
from cardtable.render.text import console, fitting_width, layout, wrap
from cardtable.solver import Limit, draw, solve

PROMPT: Final = "> "


# -- input and output -----------------------------------------------------------


def read_line(prompt: str) -> str | None:
    """A line typed after ``prompt``, or None at end of input or on Ctrl-C."""
    try:
        return input(prompt)
    except Terminated:
        raise  # not the player's Ctrl-C: the session ends with the signal's exit code
    except (EOFError, KeyboardInterrupt):
        return None


def run_session(session: Session, read: Callable[[str], str | None], out: Console) -> None:
    """Show the deal, then answer lines until the game is won, the player quits, or input ends.

    A Ctrl-C that comes while a line is answered rather than at the prompt (a
    second one while a hint stops, say) ends the session as one at the prompt
    does, with the note of what was not saved and the game kept, not with
    click's "Aborted!", which would lose both. So does SIGTERM or SIGHUP (the
    terminal window closed) where ``play`` lets them raise :class:`Terminated`,
    which is raised again once the game is kept, for the process to exit with
    the signal's code. Whatever ends the session, an error included (a terminal
    gone in the middle of a line), the game is kept.

    A terminal that fails to read or write (EIO) has hung up: its window
    closed. The kernel's SIGHUP may be handled only after that failure (the
    line editor reads the hang-up as the end of input, and the goodbye then
    fails to print), so the failure is taken as that SIGHUP.
    """
    stop: KeyboardInterrupt | None = None
    try:
        _show(session, out, session.greeting())
        _answer(session, read, out)
    except KeyboardInterrupt as interrupted:
        stop = interrupted
    except OSError as error:
        if error.errno != errno.EIO or not sys.stdin.isatty():
            raise
        stop = Terminated(signal.SIGHUP)
    finally:  # whatever ends the session, a terminal gone in the middle of a line included
        with ctrl_c_ignored(signal.SIGTERM, signal.SIGHUP):  # a second signal must not cut the record short
            try:
                if stop is not None:
                    _leave(session, out)
            except OSError:
                if not isinstance(stop, Terminated):
                    raise  # a terminal closed (SIGHUP) takes nothing more, but the game is still kept
            finally:
                _keep(session, out)
    if isinstance(stop, Terminated):
        raise stop


def _answer(session: Session, read: Callable[[str], str | None], out: Console) -> None:
    """Answer typed lines until the game is won, the player quits, or input ends."""
    while not session.state.is_won():
        line = read(PROMPT)
        if line is None:
            _leave(session, out)
            return
        reply = session.handle(line)
        if reply.redraw:
            _show(session, out, reply.message)
        elif reply.table:
            out.print(reply.message, soft_wrap=True)
        elif reply.message:
            _say(out, reply.message)
        if reply.quit:
            return


def _leave(session: Session, out: Console) -> None:
    """Quit without asking, since no answer can come (end of input, Ctrl-C), but say what is not saved."""
    out.print()
    if session.unsaved:
        status = session.counts_as()
        _say(out, session.unsaved_note() + (f" It counts as {status} in your statistics." if status else ""))
    _say(out, session.quit(confirmed=True).message)


def _keep(session: Session, out: Console) -> None:
    """Add the game to the statistics if it counts: one line if that fails, never an error."""
    try:
        session.keep()
    except StatsUnavailableError as error:
        _say(out, str(error))


def _show(session: Session, out: Console, message: str) -> None:
    """The table, then what the latest line did and what the game's state asks for, next to the prompt.

    The table comes first, so that on a terminal of 24 lines the message is never scrolled away by it.
    """
    out.print(layout(session.state, fitting_width(out)))
    if message:
        _say(out, message)
    status = session.status()
    if status is not None:
        _say(out, status)


def _say(out: Console, message: str) -> None:
    """Print a message, wrapped between words on a terminal (a line cut at its edge could split a word)."""
    out.print(wrap(message, fitting_width(out)))


@click.command(cls=DealNumberCommand)
@click.argument("game", metavar="GAME|FILE")
@click.argument("number", required=False, metavar="[N]")
@db_option("the statistics (shared with cardtable serve)")
@click.option(
    "--no-stats", is_flag=True, help="Keep this game out of the statistics ('stats' in it still shows them)."
)
@click.option(
    "--winnable",
    is_flag=True,
    help=f"A random deal the solver proves winnable ({draw.TRIES} tried at most, {draw.SECONDS:g} s each).",
)
def play(game: str, number: str | None, db: Path | None, no_stats: bool, winnable: bool) -> None:
    """Play GAME in the terminal: deal N, or a random deal (shown, so you can replay it).

    Or play on from FILE: a game saved with the 'save' command (undo and redo
    as they were), a solution file (its line ready for redo), or a deal file.

    Type moves in the short notation (t3 f1, t3, 7c, d, redeal) and commands
    (undo, redo, restart, hint, auto, moves, save, stats, help, quit); 'help' lists them all.
    In games with a stock, Enter alone deals a card, unless moves wait to be
    redone that a deal would drop ('d' deals then). Lines are read from standard
    input, so a game can also be piped in; end of input quits.

    A game won or lost counts in the statistics ('cardtable stats'), unless
    --no-stats; so does one left with moves played or taken back, unless it
    was saved or resumed from a save, which counts once it is won or lost.
    """
    out = console()
    if game == STDIN and number is None:
        raise InputFileError(
            "cannot read a game from standard input ('-'): play reads the lines typed from it;"
            " give a file (./- names one called '-')"
        )
    if winnable and (number is not None or _names_a_file(game)):
        raise click.UsageError("--winnable picks a random deal: give GAME alone, not a deal number or a file")
    if number is None and _names_a_file(game):
        session = _session_from_file(game)
    elif number is None:
        try:
            session = (
                _winnable_session(game, out) if winnable else Session(numbered_deal(game, str(random_deal())))
            )
        except UnknownGameError as error:  # a mistyped save's name reads as a game id
            raise UnknownGameError(
                f"{error}, and there is no file {quoted(game, PATH_WIDTH)} to play on from"
            ) from None
    else:
        session = Session(numbered_deal(game, number))
    if no_stats:
        session.counts = False
        session.no_stats_reason = None  # no database: none kept yet, as 'cardtable stats' says
        if db_path(db).exists():  # 'stats' still shows the others' statistics
            try:
                session.scorebook = Scorebook.open(db, to_write=False)
            except StatsUnavailableError as error:
                session.no_stats_reason = f"no statistics to show: {error}"
    else:
        try:
            session.scorebook = Scorebook.open(db)
        except StatsUnavailableError as error:
            session.no_stats_reason = f"statistics are not kept in this game: {error}"
            _say(out, session.no_stats_reason)
    _enable_line_editing()
    try:
        ended = (signal.SIGTERM, signal.SIGHUP)
        with ended_as_ctrl_c(*ended), signals_reach_the_prompt(signal.SIGINT, *ended):
            run_session(session, read_line, out)
    finally:
        if session.scorebook is not None:
            session.scorebook.close()


def _winnable_session(game: str, out: Console) -> Session:
    """A session of a random deal the solver proves winnable, its line remembered for the first hint.

    The deal is drawn as :class:`cardtable.solver.draw.Draw` chooses, as the
    browser's winnable-only games draw it, and the player is told what is known
    of it. A Ctrl-C ends the command, as it would at any time before the game starts.
    """
    spec = load_game(game)
    _say(out, f"Looking for a deal of {spec.id} that the solver proves winnable...")
    started, chosen, line = time.monotonic(), draw.Draw(draw.TRIES), None
    while chosen.more:
        number = random_deal()
        result = solve(deal(spec, number), Limit(seconds=draw.SECONDS))
        chosen.judged(number, result.status)
        line = result if result.status == "won" else line
    told = chosen.told(time.monotonic() - started, draw.SECONDS)
    _say(out, f"{told[:1].upper()}{told[1:]}.")
    assert chosen.number is not None
    session = Session(deal(spec, chosen.number))
    if line is not None:
        session.known.remember(session.state, line.status, line.moves)
    return session


def _names_a_file(argument: str) -> bool:
    """Whether ``play``'s one argument is a file: not a game id, and an existing file or a .json name.

    A folder counts as a file, so that it is told as one (``cannot read 'x': is
    a directory``), not as a game that is unknown.
    """
    if find_game(argument) is not None:
        return False
    return os.path.exists(argument) or argument.lower().endswith(".json")


def _session_from_file(path: str) -> Session:
    """A session from a saved game or a solution (both hold a whole deal), else from a deal file.

    A solution starts at its deal with its line ready for ``redo``, one move at
    a time. ``save`` alone writes back only to a saved game: a solution or a
    deal file is left as it is, and the game is saved under the deal's own name.
    A problem with the file is told with its name, as every command tells it.
    """
    return read_file(path, lambda text: _session_from_text(text, path))


def _session_from_text(text: str, path: str) -> Session:
    """The session the file's text holds, which knows its file: a position with no deal number is played again from it."""
    session = _opened(text, path)
    session.opened_from = path
    return session


def _opened(text: str, path: str) -> Session:
    try:
        obj = parse_json(text, "", InvalidSaveError)
    except InvalidSaveError as problem:
        raise InvalidSaveError(f"not a saved game, a solution or a deal: {problem}") from None
    kind = record_kind(obj)
    if kind == "saved game":
        return Session.resume(saved_game_from_dict(obj), path)
    if kind == "solution":
        saved = saved_game_from_dict(obj)
        return Session.resume(SavedGame(saved.deal, [], saved.moves), path, save_there=False)
    return Session(deal_from_dict(obj))


def _enable_line_editing() -> None:
    """Arrow keys and history for input() on a terminal, where the readline module exists."""
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  # importing it is what turns it on
