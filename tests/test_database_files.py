"""The one way cardtable opens its SQLite files (store/sqlite.py), as the played games' database meets it.

The survey's database meets the same checks; test_survey.py refuses its bad files.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from cardtable import CardtableError
from cardtable.store import DatabaseFileError, PlayRecord, Store
from cardtable.store.schema import APPLICATION_ID, PLAYS, VERSION
from cardtable.survey.store import ResultStore, SurveyDatabaseError


def marks(path: Path) -> tuple[int, int]:
    with closing(sqlite3.connect(path)) as db:
        return db.execute("PRAGMA application_id").fetchone()[0], db.execute(
            "PRAGMA user_version"
        ).fetchone()[0]


def a_play(id_: str = "p1") -> PlayRecord:
    return PlayRecord(id=id_, player="me", game="fan", deal=1, start={}, created=1.0, updated=1.0)


def test_a_new_file_is_marked_as_played_games(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    Store(path).close()
    assert marks(path) == (APPLICATION_ID, VERSION)


def test_a_file_from_before_the_mark_keeps_its_games_and_is_marked(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with closing(sqlite3.connect(path)) as db:  # as cardtable made them: the table, version 1, no mark
        db.execute(PLAYS)
        db.execute(
            "INSERT INTO plays (id, player, game, start, created, updated) VALUES ('p0', 'me', 'fan', '{}', 1, 1)"
        )
        db.execute(f"PRAGMA user_version = {VERSION}")
        db.commit()
    with closing(Store(path)) as store:
        assert store.get("me", "p0") is not None
    assert marks(path) == (APPLICATION_ID, VERSION)


def test_each_kind_of_cardtable_database_refuses_the_other(tmp_path: Path) -> None:
    games, survey = tmp_path / "games.sqlite", tmp_path / "survey.sqlite"
    with closing(Store(games)) as store:
        store.start(a_play())
    ResultStore(survey).close()
    for path in (games, survey):
        with closing(sqlite3.connect(path)) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = games.read_bytes(), survey.read_bytes()
    with pytest.raises(
        SurveyDatabaseError, match=r"it is not a cardtable survey database \(its tables: plays\)"
    ):
        ResultStore(games)
    with pytest.raises(
        DatabaseFileError, match=r"it is not a database of played games \(its tables: results\)"
    ):
        Store(survey)
    assert (games.read_bytes(), survey.read_bytes()) == before


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"my notes, not a database", "it is not an SQLite database"),
        (b"SQLite format 3\x00" + b"\x00" * 50, "the database is damaged"),
    ],
    ids=["text", "truncated"],
)
def test_a_file_that_is_no_database_is_refused_and_left_as_it_was(
    tmp_path: Path, content: bytes, words: str
) -> None:
    path = tmp_path / "games.sqlite"
    path.write_bytes(content)
    with pytest.raises(DatabaseFileError, match=words):
        Store(path)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite"]


def open_games(path: Path) -> None:
    Store(path).close()


def open_survey(path: Path) -> None:
    ResultStore(path).close()


def _open_when_all_are_ready(open_: Callable[[Path], None], path: Path, ready: Any, said: Any) -> None:
    ready.wait()
    try:
        open_(path)
        said.put("ok")
    except (CardtableError, sqlite3.Error) as error:
        said.put(str(error))


@pytest.mark.parametrize("open_", [open_games, open_survey], ids=["games", "survey"])
def test_processes_that_open_a_new_file_together_all_open_it(
    tmp_path: Path, open_: Callable[[Path], None]
) -> None:
    """Two servers, or two surveys, started at once on a file not made yet: the race was lost about one time in ten."""
    forked = multiprocessing.get_context("fork")
    answers = []
    for round_ in range(8):
        ready, said = forked.Barrier(4), forked.Queue()
        path = tmp_path / f"new{round_}.sqlite"
        openers = [
            forked.Process(target=_open_when_all_are_ready, args=(open_, path, ready, said)) for _ in range(4)
        ]
        for opener in openers:
            opener.start()
        answers += [said.get(timeout=60) for _ in openers]
        for opener in openers:
            opener.join()
    assert answers == ["ok"] * 32
