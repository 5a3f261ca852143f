"""The SQLite store and the statistics it feeds, without the server."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from cardtable import deal, load_game
from cardtable.core.notation import parse_move
from cardtable.server.play import Play
from cardtable.server.plays import Plays, StaleViewError
from cardtable.store import ConflictError, DatabaseFileError, Ending, PlayRecord, Store, game_stats
from cardtable.store.schema import PLAYS, VERSION


def record(
    play_id: str, *, game: str = "fan", status: str = "playing", at: float = 1.0, deal: int | None = 7
) -> PlayRecord:
    return PlayRecord(
        id=play_id,
        player="p",
        game=game,
        deal=deal,
        start={"game": game},
        status=status,  # type: ignore[arg-type]
        created=at,
        updated=at,
        finished=at if status != "playing" else None,
    )


def test_a_play_round_trips(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    play = record("a")
    play.moves = [{"from": "fan/1", "to": "foundation/0", "card": "AC", "auto": True}]
    play.redo = [{"deal": "stock"}]
    store.start(play)
    assert store.get("p", "a") == play
    assert store.get("q", "a") is None, "another player's id is unknown"
    store.close()


def test_a_stale_write_is_refused(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    store.start(record("a"))
    first = store.get("p", "a")
    second = store.get("p", "a")
    assert first is not None and second is not None
    first.hints = 1
    store.save(first)
    second.hints = 5
    with pytest.raises(ConflictError):
        store.save(second)
    saved = store.get("p", "a")
    assert saved is not None and saved.hints == 1 and saved.version == 1


def test_a_change_another_process_wrote_first_is_refused_with_the_play_as_it_stands(tmp_path: Path) -> None:
    """Two servers on one file: the one that loses the race answers as for a stale tab, with the play to show."""
    ours, theirs = (Plays(Store(tmp_path / "db.sqlite")) for _ in range(2))
    fan = load_game("fan")
    play = ours.start("p", deal(fan, 1))

    def raced(mine: Play) -> None:
        theirs.change("p", play.record.id, lambda other: other.play(parse_move(other.state, "t1 t6")))
        mine.play(parse_move(mine.state, "t4 t12"))

    with pytest.raises(StaleViewError) as refused:
        ours.change("p", play.record.id, raced)
    assert [m.text() for m in refused.value.play.state.move_stack] == ["fan/1 fan/6 5S"]
    stored = ours.get("p", play.record.id)
    assert stored.board == refused.value.play.board


def test_starting_a_game_abandons_or_forgets_the_last_one(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    store.start(record("empty", at=1))
    store.start(record("played", at=2))
    played = store.get("p", "played")
    assert store.get("p", "empty") is None
    assert played is not None
    played.moves = [{"deal": "stock"}]
    store.save(played)
    store.start(record("other-game", game="acey-and-kingsley", at=3))
    store.start(record("restarted", at=4))
    restarted = store.get("p", "restarted")
    assert restarted is not None
    restarted.redo = [{"deal": "stock"}]  # played, then every move taken back
    store.save(restarted)
    store.start(record("new", at=5))
    statuses = {r.id: r.status for r in store.finished("p")}
    assert statuses == {"played": "abandoned", "restarted": "abandoned"}
    latest = store.latest("p")
    assert latest is not None and latest.id == "new"
    other = store.latest("p", "acey-and-kingsley")
    assert other is not None and other.id == "other-game"


def test_a_play_with_automatic_moves_only_is_forgotten_and_one_that_cannot_be_read_is_kept(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "db.sqlite")
    autoplayed = record("autoplayed", at=1)
    autoplayed.moves = [{"from": "fan/1", "to": "foundation/0", "card": "AC", "auto": True}]
    autoplayed.redo = [{"from": "fan/2", "to": "foundation/1", "card": "AD", "auto": True}]
    store.start(autoplayed)
    store.start(record("damaged", at=2))
    with sqlite3.connect(tmp_path / "db.sqlite") as db:
        db.execute("UPDATE plays SET moves = '[' WHERE id = 'damaged'")
    store.start(record("new", at=3))
    store.close()
    with closing(sqlite3.connect(tmp_path / "db.sqlite")) as db:
        rows = db.execute("SELECT id, status FROM plays ORDER BY created").fetchall()
    assert rows == [("damaged", "abandoned"), ("new", "playing")]


def test_the_statistics_read_of_each_finished_play_only_how_it_ended(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    store.start(record("won", status="won", at=1, deal=3))
    store.start(record("lost", status="lost", at=2, deal=None))
    store.start(record("playing", at=3))
    assert store.endings("p") == [Ending.of(play) for play in store.finished("p")]
    assert [(e.status, e.deal, e.finished) for e in store.endings("p")] == [
        ("won", 3, 1.0),
        ("lost", None, 2.0),
    ]


def test_streaks_follow_the_order_games_finished() -> None:
    results = ["won", "won", "lost", "won", "won", "won", "abandoned", "won"]
    plays = [record(str(i), status=s, at=float(i)) for i, s in enumerate(results)]
    plays.append(record("x", game="other", status="won", at=0.5))
    plays.append(record("y", status="playing", at=99))
    fan, other = game_stats(Ending.of(play) for play in reversed(plays))
    assert (other.game, other.played, other.won) == ("other", 1, 1)
    assert (fan.played, fan.won, fan.current_streak, fan.best_streak) == (8, 6, 1, 3)
    assert fan.win_rate == 0.75


def test_games_from_positions_of_ones_own_are_counted_apart_from_the_deals() -> None:
    plays = [record("lost", status="lost", at=1), record("won", status="won", at=2, deal=None)]
    deals, positions = game_stats(map(Ending.of, plays))
    assert (deals.game, deals.positions, deals.played, deals.won) == ("fan", False, 1, 0)
    assert (positions.game, positions.positions, positions.played, positions.won) == ("fan", True, 1, 1)


def test_a_newer_schema_is_not_touched(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    with sqlite3.connect(path) as db:
        db.execute(PLAYS)
        db.execute(f"PRAGMA user_version = {VERSION + 1}")
    with pytest.raises(
        DatabaseFileError, match=r"written by a newer cardtable \(schema 2; this one reads up to 1\)"
    ):
        Store(path)


@pytest.mark.parametrize("version", [0, 2])
def test_a_database_of_something_else_is_refused_untouched(tmp_path: Path, version: int) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE results (deal INTEGER)")  # a survey's database, say
        db.execute(f"PRAGMA user_version = {version}")
    before = path.read_bytes()
    with pytest.raises(DatabaseFileError, match=r"not a database of played games \(its tables: results\)"):
        Store(path)
    assert path.read_bytes() == before
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)


def test_play_time_counts_while_a_lost_game_is_undone_not_while_it_is_only_looked_at(store: Store) -> None:
    now = [1000.0]
    plays = Plays(store, clock=lambda: now[0])
    play = plays.start("me", deal(load_game("alexander-the-great"), 8))
    for text in ["t11 t5", "t3 t2", "t6 t8", "t1 f0"]:  # lost after the fourth

        def move(p: Play, text: str = text) -> None:
            p.play(parse_move(p.state, text))

        now[0] += 10
        plays.change("me", play.record.id, move)
    lost = plays.get("me", play.record.id)
    assert (lost.status, lost.record.seconds) == ("lost", 40.0)
    now[0] += 60

    def count_hint(p: Play) -> None:  # looked at, a hint asked: the game stays lost
        p.record.hints += 1

    plays.change("me", play.record.id, count_hint)
    assert plays.get("me", play.record.id).record.seconds == 40.0
    now[0] += 30
    undone = plays.change("me", play.record.id, lambda p: p.undo())  # the player thought, then took it back
    assert (undone.status, undone.record.seconds) == ("playing", 70.0)


def test_an_action_that_changes_nothing_writes_nothing(store: Store) -> None:
    plays = Plays(store, clock=lambda: 1000.0)
    play = plays.start("me", deal(load_game("acey-and-kingsley"), 5))
    before = plays.get("me", play.record.id).record.version
    plays.change("me", play.record.id, Play.autoplay)  # nothing is safe to send home here
    assert plays.get("me", play.record.id).record.version == before
