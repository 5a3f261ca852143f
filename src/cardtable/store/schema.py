"""The SQLite schema, versioned with ``PRAGMA user_version``."""

from __future__ import annotations

import sqlite3
from typing import Final

VERSION: Final = 1

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS plays (
    id        TEXT PRIMARY KEY,          -- random public id, unguessable
    player    TEXT NOT NULL,             -- sha256 of the player's cookie token
    game      TEXT NOT NULL,             -- game id with its options
    deal      INTEGER,                   -- deal number; NULL for a given position
    start     TEXT NOT NULL,             -- the starting deal object (formats.md)
    moves     TEXT NOT NULL DEFAULT '[]',-- moves made, formats.md objects
    redo      TEXT NOT NULL DEFAULT '[]',-- moves taken back, next to redo first
    status    TEXT NOT NULL DEFAULT 'playing',
    seconds   REAL NOT NULL DEFAULT 0,   -- time spent playing
    assisted  INTEGER NOT NULL DEFAULT 0,-- "show me" gave a winning line
    hints     INTEGER NOT NULL DEFAULT 0,
    created   REAL NOT NULL,
    updated   REAL NOT NULL,
    finished  REAL,
    version   INTEGER NOT NULL DEFAULT 0 -- bumped by every change: stale writes fail
);
CREATE INDEX IF NOT EXISTS plays_by_player ON plays (player, updated);
"""


def migrate(connection: sqlite3.Connection) -> None:
    """Create the tables of an empty database; refuse one written by a newer cardtable, or not for games at all.

    A database that holds other tables but no ``plays`` (a survey's, or any
    other program's) is refused untouched rather than given tables of ours.
    """
    (found,) = connection.execute("PRAGMA user_version").fetchone()
    tables = sorted(
        name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    )
    if "plays" not in tables and (found or tables):
        raise sqlite3.DatabaseError(
            f"it is not a database of played games: it has no plays table (its tables: {', '.join(tables) or 'none'})"
        )
    if found > VERSION:
        raise sqlite3.DatabaseError(f"the database has schema {found}; this cardtable reads up to {VERSION}")
    if found < VERSION:
        connection.executescript(SCHEMA + f"PRAGMA user_version = {VERSION};")
