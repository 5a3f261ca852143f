"""The tables of the played games' database, marked and versioned as :mod:`cardtable.store.sqlite` keeps every cardtable file."""

from __future__ import annotations

from typing import Final

from cardtable.store.sqlite import GAMES, Schema

VERSION: Final = 1

PLAYS: Final = """
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
)
"""
BY_PLAYER: Final = "CREATE INDEX IF NOT EXISTS plays_by_player ON plays (player, updated)"

SCHEMA: Final = Schema(GAMES, VERSION, (PLAYS, BY_PLAYER), unmarked="plays")
"""Files made before cardtable marked them have the ``plays`` table and no mark: they are ours, and marked when next opened."""
