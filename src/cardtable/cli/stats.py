"""The terminal's statistics: each game played with ``cardtable play`` kept in the server's SQLite database.

The terminal is one player of the database that ``cardtable serve`` uses, named
``terminal``. A browser's player is the SHA-256 of its cookie (64 hex digits), so
the two never mix, and the figures are the ones the browser shows
(:func:`cardtable.store.game_stats`). Keeping a game must never spoil it: a
database that cannot be opened or written costs the statistics one line of
warning, never the game.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Final, TypeVar

import click

from cardtable.cli.files import FileName
from cardtable.core.errors import CardtableError, reason
from cardtable.paths import data_folder, folder_problem, write_problem
from cardtable.store import DatabaseFileError, GameStats, PlayRecord, Store, game_stats

TERMINAL_PLAYER: Final = "terminal"
"""The player the terminal's games are kept under: never a browser's (those are 64 hex digits)."""

F = TypeVar("F", bound=Callable[..., object])


class StatsUnavailableError(CardtableError):
    """The statistics' database cannot be opened, read or written."""


def default_db() -> Path:
    """The database in the user's data directory (see :func:`cardtable.paths.data_folder`)."""
    return data_folder() / "cardtable.sqlite"


def db_path(db: Path | None) -> Path:
    """The database a ``--db`` option names (``~`` expanded), or the default one."""
    return db.expanduser() if db is not None else default_db()


def db_option(what: str) -> Callable[[F], F]:
    """The ``--db`` option of the commands that share the database; ``what`` says what it holds."""
    return click.option(
        "--db",
        type=FileName(dir_okay=False),
        default=None,
        callback=_named_file,
        help=f"SQLite file for {what} [default: in the user data directory].",
    )


def _named_file(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """The path ``--db`` names; an empty one (``--db ""``, an unset variable) names no file at all.

    SQLite's name for a database in memory names none either: what it held would be gone at the end.
    """
    if value is not None and not value.strip():
        raise click.BadParameter(f"{value!r} names no file", ctx, param)
    if value == ":memory:":
        raise click.BadParameter(
            "':memory:' would keep nothing: name a file (./:memory: for one of that name)", ctx, param
        )
    return None if value is None else Path(value)


class Scorebook:
    """The terminal's finished games in the database: kept one by one, summed up per game."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @classmethod
    def open(cls, db: Path | None, *, to_write: bool = True) -> Scorebook:
        """The scorebook in ``db`` (None: the default database); StatsUnavailableError if it cannot be opened.

        ``to_write=False`` only reads it, so that a file that cannot be written still shows its statistics.
        """
        return cls(open_store(db_path(db), StatsUnavailableError, create=to_write))

    def keep(self, record: PlayRecord) -> None:
        """Add a finished game; StatsUnavailableError (and nothing written) if the database refuses it.

        A game kept before under the same id (a save resumed and ended again) is
        one game: its latest ending is its result, as undoing past a loss is in
        the browser, with the play time and hints of every ending, and the
        solver's help if any ending had it.
        """
        try:
            kept = self.store.get(record.player, record.id)
            if kept is None:
                self.store.start(record)
            else:
                self.store.save(
                    replace(
                        record,
                        seconds=kept.seconds + record.seconds,
                        hints=kept.hints + record.hints,
                        assisted=kept.assisted or record.assisted,
                        version=kept.version,
                    )
                )
        except sqlite3.Error as error:
            raise StatsUnavailableError(
                f"the game was not added to the statistics in {self.store.path!r}: {reason(error)}"
            ) from None

    def stats(self) -> list[GameStats]:
        """The statistics of each game played in the terminal, in the order first played."""
        try:
            return game_stats(self.store.endings(TERMINAL_PLAYER))
        except sqlite3.Error as error:
            raise StatsUnavailableError(f"cannot read {self.store.path!r}: {reason(error)}") from None

    def close(self) -> None:
        """Close the database."""
        self.store.close()


GAME_COLUMN: Final = 32
"""The widest the game column grows: beside it the figures take 46 columns, and the table fits in 80."""


def stats_table(stats: list[GameStats]) -> str:
    """The statistics as aligned plain text, one game a line (a game with options is a game of its own).

    An id too long for the game column (``alexander-the-great-lucie(redeal_anytime=true)``)
    has a line to itself and its figures go on the next, so that one long id
    does not push every row past the width of a terminal.
    """
    if not stats:
        return "No game finished in the terminal yet: won, lost and abandoned games count."
    names = [f"{s.game} (own positions)" if s.positions else s.game for s in stats]
    width = max([len("game"), *(len(name) for name in names if len(name) <= GAME_COLUMN)])
    lines = [f"{'game':<{width}}  played    won  win rate  streak  best streak"]
    for name, s in zip(names, stats, strict=True):
        if len(name) > width:
            lines.append(name)
        lines.append(
            f"{name if len(name) <= width else '':<{width}}  {s.played:>6}  {s.won:>5}  {s.win_rate:>8.1%}"
            f"  {s.current_streak:>6}  {s.best_streak:>11}"
        )
    return "\n".join(lines)


def open_store(path: Path, error: type[CardtableError], *, create: bool = True) -> Store:
    """The database at ``path``, opened (its tables read, or made), or ``error`` saying why not; ``create=False`` only reads it."""
    if create and (unusable := folder_problem(path) or write_problem(path)) is not None:
        raise error(f"cannot open the database {str(path)!r}: {unusable}")
    try:
        return Store(path, create=create)
    except DatabaseFileError as problem:  # it names the file and says why
        raise error(str(problem)) from None
    except (OSError, sqlite3.Error) as problem:
        raise error(f"cannot open the database {str(path)!r}: {reason(problem)}") from None


@click.command()
@db_option("the games and statistics")
def stats(db: Path | None) -> None:
    """Show the statistics of the games played in the terminal: played, won, win rate and streaks, per game.

    A game counts once it is won, lost, or left with moves played or taken back that were not saved;
    a game saved to a file counts when it ends after being resumed. Games started from a
    position with no deal number have rows of their own, apart from the deals. The browser's
    games keep their own statistics, on its Statistics page.
    """
    path = db_path(db)
    if not path.exists():  # nothing kept yet; and a mistyped --db should not leave a new file behind
        if db is not None:
            raise StatsUnavailableError(f"no database at {str(path)!r}")
        click.echo(stats_table([]))
        return
    book = Scorebook.open(path, to_write=False)
    try:
        click.echo(stats_table(book.stats()))
    finally:
        book.close()
