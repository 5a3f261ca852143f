"""The survey's results in SQLite: one row per (game, rules version, deal), written as it comes.

Why these choices:

* Each result is its own transaction, committed the moment the parent process
  has it, so that an interrupted survey (Ctrl-C, ``kill -9``) loses only the
  deals still in flight. A power cut or a crash of the system may also take
  the last results committed (WAL with ``synchronous = NORMAL`` syncs at
  checkpoints, not at every commit), never the file's soundness: run again and
  they are solved again.
* ``UNIQUE(game, rules_version, deal)`` with an upsert means a deal is never
  counted twice: a second result for a stored deal is dropped, unless the
  stored verdict is ``unknown`` and the new one decides the deal (or, when the
  survey retries unknowns, is an unknown the stored one does not cover: see :data:`UPSERT`).
* WAL mode and a busy timeout let two surveys (of different ranges, or a survey
  and a report) share one file; in each survey the parent process is the only
  writer, its workers only return results.
* A file that is not a survey database (not SQLite, corrupt, another program's
  tables, a newer schema) is refused before anything is written to it, by the
  checks every cardtable database meets (:mod:`cardtable.store.sqlite`).
* Each won deal keeps its winning line, so that the survey's wins can be
  written out as solutions and checked by anyone (:meth:`ResultStore.lines`).
  Compressed, a line takes a few hundred bytes (Acey and Kingsley's 210 moves
  of deal 1: 618), a tenth of its text. A database of schema 1, which kept no
  lines, gains the column when a survey next writes to it; its old wins stay
  without one.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import cardtable
from cardtable.core.errors import CardtableError, not_a, reason
from cardtable.core.spec import GameSpec
from cardtable.paths import data_folder, folder_problem, write_problem
from cardtable.solver import Limit
from cardtable.store.sqlite import SURVEY, DatabaseFileError, Schema, open_database
from cardtable.survey.task import Outcome

SCHEMA_VERSION: Final = 2
LINES_SINCE: Final = 2
"""The first schema that keeps winning lines."""
LINES_AT_ONCE: Final = 1000
"""Winning lines read in one batch (:meth:`ResultStore.lines`)."""

RESULTS_TABLE: Final = """
CREATE TABLE IF NOT EXISTS results (
    game TEXT NOT NULL,                -- canonical id, options included
    rules_version INTEGER NOT NULL,    -- the game's spec.rules_version
    deal INTEGER NOT NULL,
    verdict TEXT NOT NULL CHECK (verdict IN ('won', 'unwinnable', 'unknown')),
    seconds REAL NOT NULL,             -- the solver's time
    states INTEGER NOT NULL,           -- positions searched
    length INTEGER,                    -- moves in the winning line; NULL unless won
    timeout REAL,                      -- the budget: NULL means none
    max_states INTEGER,
    table_cap INTEGER NOT NULL,
    version TEXT NOT NULL,             -- the cardtable that solved it
    solved_at TEXT NOT NULL,           -- UTC, ISO 8601
    line BLOB,                         -- the winning moves, zlib-compressed; NULL unless won (schema 2)
    UNIQUE (game, rules_version, deal)
)
"""
LINES_ADDED: Final = "ALTER TABLE results ADD COLUMN line BLOB"
"""Schema 1 to 2: the one change, made when a survey opens a database of schema 1."""
SCHEMA: Final = Schema(SURVEY, SCHEMA_VERSION, (RESULTS_TABLE,), upgrades={1: (LINES_ADDED,)})


def _covers(tried: str, asked: str) -> str:
    """SQL true when the try in ``tried`` (a table's name) covers the one in ``asked``: the same cardtable, with a
    budget as large in every part (each limit none or as high, and none where none is asked).

    One rule for both ends of a retry: what it skips (:meth:`ResultStore.known`) and what it replaces (:data:`UPSERT`).
    """
    return (
        f"{tried}.version = {asked}.version"
        f" AND ({tried}.timeout IS NULL OR ({asked}.timeout IS NOT NULL AND {tried}.timeout >= {asked}.timeout))"
        f" AND ({tried}.max_states IS NULL"
        f" OR ({asked}.max_states IS NOT NULL AND {tried}.max_states >= {asked}.max_states))"
        f" AND {tried}.table_cap >= {asked}.table_cap"
    )


UPSERT: Final = f"""
INSERT INTO results (game, rules_version, deal, verdict, seconds, states, length,
                     timeout, max_states, table_cap, version, solved_at, line)
VALUES (:game, :rules_version, :deal, :verdict, :seconds, :states, :length,
        :timeout, :max_states, :table_cap, :version, :solved_at, :line)
ON CONFLICT (game, rules_version, deal) DO UPDATE SET
    verdict = excluded.verdict, seconds = excluded.seconds, states = excluded.states,
    length = excluded.length, timeout = excluded.timeout, max_states = excluded.max_states,
    table_cap = excluded.table_cap, version = excluded.version, solved_at = excluded.solved_at,
    line = excluded.line
WHERE results.verdict = 'unknown' AND (
    excluded.verdict != 'unknown' OR :retry_unknown AND NOT ({_covers("results", "excluded")})
)
"""
"""A stored deal keeps its row, but for an unknown: a verdict replaces it, and when retrying unknowns so does an
unknown the stored one does not cover. The row then records the budget last tried, so that the same retry run
again skips it; an unknown found by this cardtable with a larger budget is never replaced by a smaller one's."""

ROW_COLUMNS: Final = (
    "deal",
    "verdict",
    "states",
    "seconds",
    "length",
    "timeout",
    "max_states",
    "table_cap",
    "version",
    "solved_at",
    "game",
)
"""A result's columns as ``report --csv`` writes them: the verdict first, then its cost, then how it was found, then the game."""

IN_RANGE: Final = "game = ? AND rules_version = ? AND deal BETWEEN ? AND ?"
RETRY_ASKED: Final = "(SELECT ? AS version, ? AS timeout, ? AS max_states, ? AS table_cap) AS asked"
"""A retry's version and budget as a one-row table, for :func:`_covers`."""


STORED_SO_FAR: Final = "; the results so far are stored: run again to go on"
"""What a result that cannot be stored (a full disk) adds: each before it was committed on its own."""


class SurveyDatabaseError(CardtableError):
    """A survey database that cannot be opened, read or written."""


@dataclass(frozen=True)
class SettingsUsed:
    """One budget and cardtable version found among stored results, with how many deals used it.

    ``unknown``: how many of those deals it left undecided. Where budgets were
    mixed, the unknowns are not all equally hard, and a reader should know
    which budget gave up on how many.
    """

    budget: Limit
    version: str
    deals: int
    unknown: int = 0


def default_path() -> Path:
    """Where surveys go unless ``--db`` says otherwise: the user's data directory (see :func:`cardtable.paths.data_folder`)."""
    return data_folder() / "survey.sqlite"


class ResultStore:
    """The survey results in one SQLite file; ``create=False`` only reads an existing one."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        with self._guard():
            _check_file(self.path, create)
            opened = open_database(self.path, SCHEMA, create=create)
        self._db: sqlite3.Connection = opened.db
        self._schema = opened.version

    def close(self) -> None:
        """Close the file; the store cannot be used afterwards."""
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Read the results as they stand at the first read, whatever a survey running beside stores meanwhile.

        A report reads several times (the verdicts, the budgets, the lines, the
        rows): in one snapshot its counts, its solutions and its CSV agree.
        """
        with self._guard():
            self._db.execute("BEGIN")
        try:
            yield
        finally:
            with self._guard():
                self._db.execute("COMMIT")

    def known(self, game: str, rules_version: int, deals: range, *, retry: Limit | None = None) -> set[int]:
        """The deals of ``deals`` that need no solving: those stored, or when retrying unknowns with ``retry``, those decided or already tried so.

        An unknown already tried by this cardtable with ``retry`` or a budget as
        large in every part is not tried again, so that an interrupted retry
        goes on where it stopped instead of starting over; every other is, and
        what it gives replaces it (:data:`UPSERT`), so that the same retry run
        again skips it.
        """
        _check_game(game, rules_version)
        args = (game, rules_version, *_bounds(deals, none_is_every=False))
        if retry is None:
            return {deal for (deal,) in self._read(f"SELECT deal FROM results WHERE {IN_RANGE}", *args)}
        sql = (
            f"SELECT deal FROM results, {RETRY_ASKED} WHERE {IN_RANGE}"
            f" AND (verdict != 'unknown' OR ({_covers('results', 'asked')}))"
        )
        tried = (cardtable.__version__, retry.seconds, retry.states, retry.table)
        return {deal for (deal,) in self._read(sql, *tried, *args)}

    def outcomes(self, game: str, rules_version: int, deals: range | None = None) -> list[Outcome]:
        """The stored results, by deal number."""
        _check_game(game, rules_version)
        sql = (
            "SELECT deal, verdict, seconds, states, length, rules_version, version"
            f" FROM results WHERE {IN_RANGE} ORDER BY deal"
        )
        return [Outcome(*row) for row in self._read(sql, game, rules_version, *_bounds(deals))]

    def span(self, game: str, rules_version: int) -> tuple[int, int, int] | None:
        """How many deals of ``game`` are stored, the first and the last; None if there are none."""
        _check_game(game, rules_version)
        sql = "SELECT COUNT(*), MIN(deal), MAX(deal) FROM results WHERE game = ? AND rules_version = ?"
        ((count, first, last),) = self._read(sql, game, rules_version)
        return (count, first, last) if count else None

    def games(self) -> list[str]:
        """The game ids this database holds results of, in order: what a report of another could ask for."""
        return [game for (game,) in self._read("SELECT DISTINCT game FROM results ORDER BY game")]

    def rules_versions(self, game: str) -> list[int]:
        """The rules versions of ``game`` this database holds results of, in order."""
        _check_game(game)
        sql = "SELECT DISTINCT rules_version FROM results WHERE game = ? ORDER BY rules_version"
        return [version for (version,) in self._read(sql, game)]

    def rows(self, game: str, rules_version: int, deals: range | None = None) -> list[tuple[object, ...]]:
        """The stored results by deal number as plain values, every column but the lines: :data:`ROW_COLUMNS`."""
        _check_game(game, rules_version)
        sql = f"SELECT {', '.join(ROW_COLUMNS)} FROM results WHERE {IN_RANGE} ORDER BY deal"
        return self._read(sql, game, rules_version, *_bounds(deals))

    def settings(self, game: str, rules_version: int, deals: range | None = None) -> list[SettingsUsed]:
        """The budgets and versions the stored results were found with, most used first.

        A timeout below zero, which a survey made in Python could store before
        :class:`Limit` refused one, gave its searches no time: it reads as 0.
        """
        _check_game(game, rules_version)
        sql = (
            "SELECT timeout, max_states, table_cap, version, COUNT(*) AS n, SUM(verdict = 'unknown')"
            f" FROM results WHERE {IN_RANGE} GROUP BY 1, 2, 3, 4 ORDER BY n DESC, 1, 2, 3, 4"
        )
        rows = self._read(sql, game, rules_version, *_bounds(deals))
        return [
            SettingsUsed(
                Limit(states=states, seconds=_no_less_than_none(timeout), table=table), version, n, unknown
            )
            for timeout, states, table, version, n, unknown in rows
        ]

    def lines(self, game: str, rules_version: int, deals: range | None = None) -> Iterator[Outcome]:
        """The won deals whose winning line is kept, by deal number, each with its line.

        Read a batch at a time: a survey of a million deals keeps about as many
        lines, too many to hold at once. A database of schema 1 keeps none.
        """
        _check_game(game, rules_version)
        if self._schema < LINES_SINCE:
            return
        sql = (
            "SELECT deal, verdict, seconds, states, length, rules_version, version, line FROM results"
            f" WHERE {IN_RANGE} AND verdict = 'won' AND line IS NOT NULL ORDER BY deal"
        )
        with self._guard():
            rows = self._db.execute(sql, (game, rules_version, *_bounds(deals)))
        while True:
            with self._guard():
                batch = rows.fetchmany(LINES_AT_ONCE)
            if not batch:
                return
            for deal, verdict, seconds, states, length, rules, version, packed in batch:
                line = self._unpacked(deal, packed)
                yield Outcome(deal, verdict, seconds, states, length, rules, version, line)

    def lineless(self, game: str, rules_version: int, deals: range | None = None) -> int:
        """How many won deals keep no line: those solved before cardtable kept them."""
        _check_game(game, rules_version)
        without = " AND line IS NULL" if self._schema >= LINES_SINCE else ""
        sql = f"SELECT COUNT(*) FROM results WHERE {IN_RANGE} AND verdict = 'won'{without}"
        ((count,),) = self._read(sql, game, rules_version, *_bounds(deals))
        return int(count)

    def _unpacked(self, deal: int, packed: bytes) -> str:
        try:
            return zlib.decompress(packed).decode()
        except (zlib.error, UnicodeDecodeError, TypeError):
            raise SurveyDatabaseError(
                f"cannot use {str(self.path)!r}: the winning line kept for deal {deal} is damaged"
            ) from None

    # -- writing -----------------------------------------------------------------

    def add(self, game: str, outcome: Outcome, budget: Limit, *, retry_unknown: bool = False) -> bool:
        """Store one result now; False if the deal was stored already (and kept)."""
        _check_game(game)
        row = {
            "game": game,
            "rules_version": outcome.rules_version,
            "deal": outcome.deal,
            "verdict": outcome.verdict,
            "seconds": outcome.seconds,
            "states": outcome.states,
            "length": outcome.length,
            "timeout": budget.seconds,
            "max_states": budget.states,
            "table_cap": budget.table,
            "version": outcome.version,
            "solved_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "line": None if outcome.line is None else zlib.compress(outcome.line.encode()),
            "retry_unknown": retry_unknown,
        }
        with self._guard(STORED_SO_FAR):
            return self._db.execute(UPSERT, row).rowcount == 1

    # -- plumbing ----------------------------------------------------------------

    def _read(self, sql: str, *args: Any) -> list[Any]:
        with self._guard():
            return self._db.execute(sql, args).fetchall()

    @contextmanager
    def _guard(self, then: str = "") -> Iterator[None]:
        """Turn SQLite's and the file system's errors into one line naming the file, ending with ``then``."""
        try:
            yield
        except DatabaseFileError as error:  # it names the file
            raise SurveyDatabaseError(f"{error}{then}") from None
        except sqlite3.Error as error:
            raise SurveyDatabaseError(f"cannot use {str(self.path)!r}: {error}{then}") from None
        except OSError as error:
            raise SurveyDatabaseError(f"cannot use {str(self.path)!r}: {reason(error)}{then}") from None


def remove_if_empty(path: Path) -> None:
    """Remove the survey database at ``path``, with the files SQLite keeps beside it, if it holds no result.

    What a survey calls on a database it made itself and then could not start
    on (a Dask scheduler out of reach), so that a failed start leaves no empty
    file behind for ``report`` to find. A database holding any result is kept.
    """
    with ResultStore(path, create=False) as store:
        if store.games():
            return
    for made in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        made.unlink(missing_ok=True)


def _check_file(path: Path, create: bool) -> None:
    """Refuse a missing file (unless creating), or one that cannot be written when surveying, in the survey's words."""
    if not path.exists():
        if not create:
            raise SurveyDatabaseError(f"no survey database at {str(path)!r}")
        if (problem := folder_problem(path) or write_problem(path)) is not None:
            raise SurveyDatabaseError(f"cannot make a survey database at {str(path)!r}: {problem}")
        return
    if create and (problem := write_problem(path)) is not None:
        raise SurveyDatabaseError(f"cannot store results in {str(path)!r}: {problem}")


def _no_less_than_none(seconds: float | None) -> float | None:
    """A stored timeout, 0 where it is below zero (a search given fewer than no seconds had none)."""
    return None if seconds is None else max(seconds, 0.0)


def _check_game(game: str, rules_version: int = 1) -> None:
    """Refuse a game that is no id, or a rules version that is no whole number, before SQLite is asked.

    A query's arguments of the wrong kind are the calling program's slip:
    SQLite's own refusal (``Error binding parameter 1``) would come out as a
    :class:`SurveyDatabaseError`, blaming the file, and name neither argument.
    """
    if not isinstance(game, str):
        instead = f"its id, {game.id!r}" if isinstance(game, GameSpec) else "a game's id, such as 'fan'"
        raise not_a("game id", game, instead)
    if isinstance(rules_version, bool) or not isinstance(rules_version, int):
        raise not_a("rules version", rules_version, "a whole number, such as load_game('fan').rules_version")


def _bounds(deals: range | None, *, none_is_every: bool = True) -> tuple[int, int]:
    """The first and last deal of a range of consecutive deals; every deal for None, where that is asked."""
    if deals is None and none_is_every:
        return 0, 2**63 - 1
    if not isinstance(deals, range) or deals.step != 1:  # the SQL asks for the deals between two ends
        every = ", or None for every deal" if none_is_every else ""
        raise not_a("range of consecutive deals", deals, f"one such as range(1, 101){every}")
    return deals.start, deals.stop - 1
