"""Saved games and statistics in SQLite: a satellite of the core that the server and the terminal game use.

The store keeps, per play, the starting deal and the move lists as the JSON of
formats.md, so a game resumes by replaying them; it knows nothing of the rules.
"""

from cardtable.store.db import ConflictError, DamagedRecordError, Store
from cardtable.store.records import FINISHED, PlayRecord, PlayStatus
from cardtable.store.sqlite import DatabaseFileError
from cardtable.store.stats import Ending, GameStats, game_stats

__all__ = [
    "FINISHED",
    "ConflictError",
    "DamagedRecordError",
    "DatabaseFileError",
    "Ending",
    "GameStats",
    "PlayRecord",
    "PlayStatus",
    "Store",
    "game_stats",
]
