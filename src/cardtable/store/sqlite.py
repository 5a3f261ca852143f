"""Opening cardtable's SQLite files, the played games' and the surveys' alike.

Each kind of file carries its own mark (``PRAGMA application_id``) and schema
version (``PRAGMA user_version``). Before anything is written to a file,
opening refuses one that is not SQLite (its first bytes tell, before SQLite
reads it), one that is damaged (``PRAGMA quick_check``), another program's
database or another kind of cardtable's, and one a newer cardtable wrote. An
empty file gets its tables, and an older schema is brought up to date, all or
nothing: in one transaction that looks at the file again first, since two
processes may open one new file at once and the second must find the work done.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from cardtable.core.errors import CardtableError

SQLITE_HEADER: Final = b"SQLite format 3\x00"
BUSY_SECONDS: Final = 30.0
"""How long opening waits for another process that holds the file to itself."""


class DatabaseFileError(CardtableError):
    """A file that cannot be used as the database asked for; the message says why, and the caller names the file."""


@dataclass(frozen=True)
class Schema:
    """One kind of cardtable database: its mark, its version, and how its tables are made and brought up to date."""

    what: str
    """The kind in words, for refusals: ``a cardtable survey database``."""
    application_id: int
    version: int
    tables: tuple[str, ...]
    """The statements that make the tables of an empty file."""
    upgrades: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    """Schema version -> the statements that bring a file of it to the next."""
    unmarked: str | None = None
    """A table that makes a file without the mark ours: files written before cardtable marked them."""


def check_header(path: Path) -> None:
    """Refuse a file that is not SQLite before SQLite opens it; an empty or missing file passes."""
    if not path.exists():
        return
    with path.open("rb") as file:
        header = file.read(len(SQLITE_HEADER))
    if header and header != SQLITE_HEADER:
        raise DatabaseFileError("it is not an SQLite database")


def prepare(db: sqlite3.Connection, schema: Schema, *, create: bool, synchronous: str) -> int:
    """Check that ``db`` holds a sound database of ``schema``, or make an empty one into one; its schema version.

    ``create=False`` only reads: nothing is written, an empty file is refused,
    and an older schema is read as it is. ``db`` must be in autocommit mode
    (``isolation_level=None``); the journal becomes WAL when writing, with
    ``synchronous`` (``FULL`` or ``NORMAL``).
    """
    _check_sound(db)
    application, found, tables = _look(db)
    ours = application == schema.application_id or (application == 0 and schema.unmarked in tables)
    if ours and found > schema.version:
        raise DatabaseFileError(
            f"it was written by a newer cardtable (schema {found}; this one reads up to {schema.version})"
        )
    if not ours and (tables or not create):
        raise DatabaseFileError(f"it is not {schema.what} (its tables: {', '.join(tables) or 'none'})")
    if not create:
        return found
    _patiently(lambda: db.execute("PRAGMA journal_mode = WAL"))
    db.execute(f"PRAGMA synchronous = {synchronous}")
    if tables:  # a file that reads but cannot be written is refused before it is used
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(f"PRAGMA user_version = {found}")  # a write that changes nothing
        finally:
            db.execute("ROLLBACK")
    if not tables or found < schema.version or application != schema.application_id:
        _bring_up_to_date(db, schema)
    return schema.version


def _check_sound(db: sqlite3.Connection) -> None:
    try:
        (check,) = db.execute("PRAGMA quick_check").fetchone()
    except sqlite3.OperationalError:  # locked, or cannot be opened: not the file's fault
        raise
    except sqlite3.DatabaseError as error:  # damaged past listing its problems
        raise DatabaseFileError(f"the database is damaged ({error})") from None
    if check != "ok":  # SQLite lists every problem, a line each, under a heading: the first says enough
        first = next((line for line in check.splitlines() if not line.startswith("***")), check)
        raise DatabaseFileError(f"the database is damaged ({first.strip()})")


def _look(db: sqlite3.Connection) -> tuple[int, int, list[str]]:
    """The file's mark, schema version and tables, read in one snapshot."""
    db.execute("BEGIN")
    try:
        return _look_within(db)
    finally:
        db.execute("COMMIT")


def _bring_up_to_date(db: sqlite3.Connection, schema: Schema) -> None:
    """Make the tables, or run the upgrades, and mark the file, all or nothing, unless another process just did."""
    db.execute("BEGIN IMMEDIATE")
    try:
        application, found, tables = _look_within(db)
        if not tables:
            statements = schema.tables
        else:
            statements = tuple(
                s for version in range(found, schema.version) for s in schema.upgrades[version]
            )
        if statements or application != schema.application_id or found != schema.version:
            for statement in statements:
                db.execute(statement)
            db.execute(f"PRAGMA application_id = {schema.application_id}")
            db.execute(f"PRAGMA user_version = {schema.version}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _look_within(db: sqlite3.Connection) -> tuple[int, int, list[str]]:
    """:func:`_look` inside a transaction already begun."""
    (application,) = db.execute("PRAGMA application_id").fetchone()
    (found,) = db.execute("PRAGMA user_version").fetchone()
    tables = [
        name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")
    ]
    return application, found, tables


def _patiently(run: Callable[[], object]) -> None:
    """Run ``run`` until SQLite stops saying the database is locked, for up to :data:`BUSY_SECONDS`.

    Switching to WAL takes the file to itself, and SQLite reports another
    process opening it meanwhile at once instead of waiting as it does for a write.
    """
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            run()
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)
