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
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Final

from cardtable.core.errors import CardtableError

SQLITE_HEADER: Final = b"SQLite format 3\x00"
BUSY_SECONDS: Final = 30.0
"""How long opening waits for another process that holds the file to itself."""
GAMES: Final = 0x4354474D  # "CTGM"
SURVEY: Final = 0x43545356  # "CTSV"
KINDS: Final = {GAMES: "a database of played games", SURVEY: "a cardtable survey database"}
"""Each kind of cardtable database by its mark, so that a refusal can say which kind a file is."""


class DatabaseFileError(CardtableError):
    """A file that cannot be used as the database asked for; the message names the file and says why."""


@dataclass(frozen=True)
class Schema:
    """One kind of cardtable database: its mark, its version, and how its tables are made and brought up to date."""

    application_id: int
    """One of :data:`KINDS`."""
    version: int
    tables: tuple[str, ...]
    """The statements that make the tables of an empty file, or of one stopped in the making (version 0): each ``IF NOT EXISTS``."""
    upgrades: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    """Schema version -> the statements that bring a file of it to the next, for each from 1 on."""
    unmarked: str | None = None
    """A table that makes a file without the mark ours, if its columns are ours: files written before cardtable marked them."""

    def __post_init__(self) -> None:
        assert self.application_id in KINDS and set(self.upgrades) == set(range(1, self.version))

    @property
    def what(self) -> str:
        """The kind in words, for refusals: ``a cardtable survey database``."""
        return KINDS[self.application_id]


@dataclass(frozen=True)
class _Found:
    """What a file holds, read before anything is written to it."""

    application: int
    version: int
    tables: list[str]
    """Its tables and views, by name."""

    @property
    def blank(self) -> bool:
        """Nothing in it, and no mark or version of any program: a file to make into one of ours."""
        return not self.tables and self.application == 0 and self.version == 0


@dataclass(frozen=True)
class Opened:
    """A connection to a checked database file, and the schema version it holds."""

    db: sqlite3.Connection
    version: int


def open_database(
    path: Path | None,
    schema: Schema,
    *,
    create: bool,
    synchronous: str = "NORMAL",
    wait: float = BUSY_SECONDS,
    shared: bool = False,
) -> Opened:
    """Connect to the file at ``path`` in autocommit mode and :func:`prepare` it; ``create=False`` only reads.

    ``path=None`` is a database in memory, gone when it is closed (for tests).

    ``wait``: how long a statement waits for another process's lock; ``shared``:
    whether threads other than this one may use the connection (behind a lock of
    the caller's). A file on storage that cannot be written (a read-only mount)
    is read as it is, when nothing but the file holds the database.
    """
    connect = partial(
        _opened, schema=schema, create=create, synchronous=synchronous, wait=wait, shared=shared
    )
    if path is None:
        return connect(":memory:")
    try:
        return _open_file(path, connect, create=create)
    except DatabaseFileError as error:  # each check says why; the file is named once, here
        raise DatabaseFileError(f"cannot open the database {str(path)!r}: {error}") from None


def _open_file(path: Path, connect: Callable[..., Opened], *, create: bool) -> Opened:
    """:func:`open_database` for a file; its refusals say why, and the caller names the file."""
    if not create and not path.exists():  # SQLite would make it
        raise DatabaseFileError("there is no such file")
    _check_header(path)
    try:
        return connect(_file_name(path))
    except sqlite3.OperationalError as error:
        if create or "unable to open" not in str(error) or Path(f"{path}-wal").exists():
            raise
        # SQLite could not make the shared-memory index a WAL database keeps beside
        # it. With no write-ahead log there to read, the file alone is the whole
        # database, to read as one that nothing changes.
        return connect(f"{path.absolute().as_uri()}?immutable=1", uri=True)


def _opened(
    name: str, *, schema: Schema, create: bool, synchronous: str, wait: float, shared: bool, uri: bool = False
) -> Opened:
    db = sqlite3.connect(name, uri=uri, timeout=wait, check_same_thread=not shared, isolation_level=None)
    try:
        return Opened(db, prepare(db, schema, create=create, synchronous=synchronous))
    except BaseException:
        db.close()
        raise


def _file_name(path: Path) -> str:
    """The name to give SQLite for ``path``: absolute, so that SQLite never reads it as a URI (``file:x``) or as memory (``:memory:``)."""
    return str(path.absolute())


def _check_header(path: Path) -> None:
    """Refuse a file that is not SQLite before SQLite opens it; an empty or missing file passes."""
    if not path.exists():
        return
    if not path.is_file():  # a pipe would keep the read waiting; a device is no database
        raise DatabaseFileError("it is not a regular file")
    with path.open("rb") as file:
        header = file.read(len(SQLITE_HEADER))
    if header and header != SQLITE_HEADER:
        raise DatabaseFileError("it is not an SQLite database")


def prepare(db: sqlite3.Connection, schema: Schema, *, create: bool, synchronous: str) -> int:
    """Check that ``db`` holds a sound database of ``schema``, or make an empty one into one; its schema version.

    ``create=False`` only reads: nothing is written, an empty file is refused,
    and an older schema is read as it is. ``db`` must be in autocommit mode
    (``isolation_level=None``); the journal becomes WAL when writing, with
    ``synchronous`` (``FULL`` or ``NORMAL``). A :class:`DatabaseFileError` says why,
    not which file: :func:`open_database` names it.
    """
    _check_sound(db)
    found = _look(db)
    if not _ours(db, found, schema):
        if not (create and found.blank):
            raise DatabaseFileError(_not_ours(found, schema))
    elif found.version > schema.version:
        raise DatabaseFileError(
            f"it was written by a newer cardtable (schema {found.version}; this one reads up to {schema.version})"
        )
    elif found.version < 0:
        raise DatabaseFileError(f"its schema version, {found.version}, is not one cardtable writes")
    if not create:
        return found.version
    _patiently(db, "PRAGMA journal_mode = WAL")
    db.execute(f"PRAGMA synchronous = {synchronous}")
    if found.tables:
        _check_writable(db)
    if found.version < schema.version or found.application != schema.application_id:
        _bring_up_to_date(db, schema)
    return schema.version


def _ours(db: sqlite3.Connection, found: _Found, schema: Schema) -> bool:
    """Whether the file is of ``schema``'s kind: marked so, or unmarked with the table that made it ours, column for column."""
    if found.application == schema.application_id:
        return True
    if found.application != 0 or schema.unmarked is None or schema.unmarked not in found.tables:
        return False
    with closing(sqlite3.connect(":memory:")) as made:
        for statement in schema.tables:
            made.execute(statement)
        return _columns(made, schema.unmarked) == _columns(db, schema.unmarked)


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def _not_ours(found: _Found, schema: Schema) -> str:
    """Why a file is refused as not of ``schema``'s kind, in a few words."""
    if found.application in KINDS:
        return f"it is {KINDS[found.application]}, not {schema.what}"
    if found.blank:
        return f"it is empty: not yet {schema.what}"
    return f"it is not {schema.what} (its tables: {', '.join(found.tables) or 'none'})"


def _check_writable(db: sqlite3.Connection) -> None:
    """Refuse a file that reads but cannot be written (a read-only mount), before it is used.

    A write that changes nothing, taken back. Another process writing the
    file meanwhile shows that it takes writes: the check does not wait for it.
    """
    (wait,) = db.execute("PRAGMA busy_timeout").fetchone()
    db.execute("PRAGMA busy_timeout = 0")
    try:
        with transaction(db, "BEGIN IMMEDIATE", keep=False):
            (version,) = db.execute("PRAGMA user_version").fetchone()
            db.execute(f"PRAGMA user_version = {version}")
    except sqlite3.OperationalError as error:
        if "locked" not in str(error) and "busy" not in str(error):
            raise
    finally:
        db.execute(f"PRAGMA busy_timeout = {wait}")


def _check_sound(db: sqlite3.Connection) -> None:
    try:
        (check,) = db.execute("PRAGMA quick_check").fetchone()
    except sqlite3.OperationalError:  # locked, or cannot be opened: not the file's fault
        raise
    except sqlite3.DatabaseError as error:  # damaged past listing its problems
        raise DatabaseFileError(f"it is damaged ({error})") from None
    if check != "ok":  # SQLite lists every problem, a line each, under a heading: the first says enough
        first = next((line for line in check.splitlines() if not line.startswith("***")), check)
        raise DatabaseFileError(f"it is damaged ({first.strip()})")


def _look(db: sqlite3.Connection) -> _Found:
    """What the file holds, read in one snapshot."""
    with transaction(db, "BEGIN", keep=False):
        return _look_within(db)


def _bring_up_to_date(db: sqlite3.Connection, schema: Schema) -> None:
    """Make the tables, or run the upgrades, and mark the file, all or nothing, unless another process just did.

    A file of version 0 gets the tables made (each ``IF NOT EXISTS``): it is
    new, or its making was cut short before its version was written.
    """
    with transaction(db, "BEGIN IMMEDIATE", keep=True):
        found = _look_within(db)
        if found.version < schema.version or found.application != schema.application_id:
            if found.version == 0:
                statements = schema.tables
            else:
                statements = tuple(
                    s for version in range(found.version, schema.version) for s in schema.upgrades[version]
                )
            for statement in statements:
                db.execute(statement)
            db.execute(f"PRAGMA application_id = {schema.application_id}")
            db.execute(f"PRAGMA user_version = {schema.version}")


@contextmanager
def transaction(db: sqlite3.Connection, begin: str, *, keep: bool) -> Iterator[None]:
    """A transaction, kept (committed) at its end if ``keep``, and taken back on an error, the commit's own included.

    After some errors (a full disk, an I/O error) SQLite has taken it back
    already: it is not taken back twice, which would hide the error behind
    "no transaction is active". A commit that fails leaves it open otherwise,
    and the connection's next transaction could not begin.
    """
    db.execute(begin)
    try:
        yield
        db.execute("COMMIT" if keep else "ROLLBACK")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _look_within(db: sqlite3.Connection) -> _Found:
    """:func:`_look` inside a transaction already begun."""
    (application,) = db.execute("PRAGMA application_id").fetchone()
    (version,) = db.execute("PRAGMA user_version").fetchone()
    tables = [
        name
        for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY 1")
    ]
    return _Found(application, version, tables)


def _patiently(db: sqlite3.Connection, statement: str) -> None:
    """Run ``statement`` until SQLite stops saying the database is locked, as long as the connection waits for a lock.

    Switching to WAL takes the file to itself, and SQLite reports another
    process opening it meanwhile at once instead of waiting as it does for a write.
    """
    (wait,) = db.execute("PRAGMA busy_timeout").fetchone()
    deadline = time.monotonic() + wait / 1000
    while True:
        try:
            db.execute(statement)
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)
