"""The terminal's statistics: which games count, what is kept, and a database that fails."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from cardtable.cli.session import Session
from cardtable.cli.stats import TERMINAL_PLAYER, Scorebook
from cardtable.formats import deal_to_dict
from cardtable.store import Store
from test_cli import run
from test_play import nearly_won_fan, position, resumed_from, session, suit_run


def fan_lost_in_two() -> Session:
    """Fan, deal 78 in name: ``t0`` puts 10♠ home, then ``t0 t1`` (the only move) leaves none."""
    foundations = [suit_run(s, 13) for s in "CDH"] + [suit_run("S", 9)]
    piles = {"foundation": foundations, "fan": [["QS", "TS"], ["JS", "KS"]] + [[]] * 16}
    return Session(position("fan", piles, deal=78))


def kept(db: Path) -> list[tuple[str, int | None, str, int]]:
    """What the database holds for the terminal: (game, deal, status, moves) per game."""
    store = Store(db)
    try:
        return [(r.game, r.deal, r.status, len(r.moves)) for r in store.finished(TERMINAL_PLAYER)]
    finally:
        store.close()


def deal_file(tmp_path: Path, game: Session) -> str:
    """A deal file of the game's position, to play with ``cardtable play FILE``."""
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal_to_dict(game.state)), encoding="utf-8")
    return str(path)


# -- which games count ---------------------------------------------------------------


def test_won_lost_and_abandoned_games_count_as_they_end() -> None:
    won = Session(nearly_won_fan())
    for line in ["t1", "t0"]:
        won.handle(line)
    lost = fan_lost_in_two()
    for line in ["t0", "t0 t1"]:
        lost.handle(line)
    left = session("fan", 1)
    left.handle("t10 f0")
    assert (won.outcome(), lost.outcome(), left.outcome()) == ("won", "lost", "abandoned")


def test_nothing_counts_before_a_move_or_while_a_save_can_resume_it(tmp_path: Path) -> None:
    untouched = session("fan", 1)
    assert untouched.outcome() is None
    saved = session("fan", 1)
    saved.handle("t10 f0")
    saved.save(str(tmp_path / "fan.json"))
    saved.handle("t1 t6")
    assert saved.outcome() is None  # counted once the resumed game ends
    assert resumed_from(tmp_path / "fan.json").outcome() is None  # opened and left: nothing played here


def test_a_save_ended_again_and_again_is_one_game_with_its_latest_ending(tmp_path: Path) -> None:
    """Resumed from one save, each ending replaces the last, as undoing past a loss does in the browser."""
    db, save = tmp_path / "db.sqlite", tmp_path / "game.json"
    first = run(
        "play", deal_file(tmp_path, Session(nearly_won_fan())), "--db", str(db), input=f"t1\nsave {save}\nq\n"
    )
    assert first.exit_code == 0 and kept(db) == []  # a save to resume counts when it ends
    for _ in range(2):
        assert "You won" in run("play", str(save), "--db", str(db), input="t0\n").output
    assert kept(db) == [("fan", None, "won", 2)]
    book = Scorebook.open(db)
    try:
        [won] = book.store.finished(TERMINAL_PLAYER)
        book.keep(replace(won, status="lost", hints=2, assisted=True))  # an ending of the same game again
        [again] = book.store.finished(TERMINAL_PLAYER)
    finally:
        book.close()
    assert (again.id, again.status, again.hints, again.assisted) == (won.id, "lost", won.hints + 2, True)
    assert again.seconds == 2 * won.seconds and again.created == won.created


def test_a_kept_game_has_its_deal_moves_time_and_hints(tmp_path: Path) -> None:
    ticks = iter([100.0, 104.0, 110.0, 2000.0, 2005.0])
    game = Session(nearly_won_fan(), clock=lambda: next(ticks))  # created at 100
    game.scorebook = Scorebook.open(tmp_path / "db.sqlite")
    game.handle("hint")  # 104
    game.handle("t1")  # 110: 10 s of play
    game.handle("t0")  # 2000: idle for longer than the cap, counted as 300 s
    assert game.keep() == "won"  # 2005: 5 s more
    record = game.scorebook.store.finished(TERMINAL_PLAYER)[0]
    assert (record.game, record.deal, record.status, record.seconds) == (
        "fan",
        None,
        "won",
        315.0,
    )  # set up: no deal
    assert record.start == deal_to_dict(nearly_won_fan())
    assert [m["from"] for m in record.moves] == ["fan/1", "fan/0"]
    assert (record.hints, record.assisted, record.created, record.finished) == (1, False, 100.0, 2005.0)


# -- the commands ----------------------------------------------------------------------


def test_play_keeps_each_game_and_stats_sums_them_up(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite")
    won = run("play", deal_file(tmp_path, Session(nearly_won_fan())), "--db", db, input="t1\nt0\n")
    assert won.exit_code == 0 and won.output.rstrip().endswith("You won fan deal 77 in 2 moves!")
    run("play", "fan", "1", "--db", db, input="t10 f0\nq\nq\n")
    run("play", "fan", "2", "--db", db, input="q\n")  # no move: not a game played
    # the first, labelled deal 77 but set up one move from the end, is a position of one's own: a row apart
    assert kept(Path(db)) == [("fan", None, "won", 2), ("fan", 1, "abandoned", 1)]
    table = run("stats", "--db", db)
    assert table.exit_code == 0
    assert table.output.splitlines() == [
        "game                 played    won  win rate  streak  best streak",
        "fan (own positions)       1      1    100.0%       1            1",
        "fan                       1      0      0.0%       0            0",
    ]


def test_stats_inside_a_game_and_with_nothing_kept(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite")
    fresh_home: dict[str, str | None] = {"XDG_DATA_HOME": str(tmp_path / "home")}
    assert run("stats", env=fresh_home).output.startswith("No game finished in the terminal yet")
    assert not (tmp_path / "home").exists()  # the default database is not made to say so
    missing = run("stats", "--db", db)
    assert missing.exit_code == 2 and f"cardtable: no database at {db!r}" in missing.stderr
    assert not Path(db).exists()
    result = run("play", "fan", "1", "--db", db, input="stats\n")
    assert "No game finished in the terminal yet: won, lost and abandoned games count." in result.output
    off = run("play", "fan", "1", "--no-stats", "--db", db, input="t10 f0\nstats\nq\nq\n")
    assert "No game finished in the terminal yet" in off.output
    counted = run("play", "fan", "1", "--db", db, input="t10 f0\nq\nq\n")
    assert "leave without saving (it then counts as abandoned in your statistics)." in counted.output
    before = Path(db).read_bytes()
    off = run("play", "fan", "2", "--no-stats", "--db", db, input="t10 f0\nstats\nq\nq\n")
    assert "leave without saving." in off.output, "a game kept out says nothing of the statistics"
    assert re.search(r"\nfan +1 +0 +0\.0%", off.output), (
        "--no-stats keeps this game out, and still shows the others"
    )
    assert kept(Path(db)) == [("fan", 1, "abandoned", 1)] and Path(db).read_bytes() == before


def test_a_database_that_cannot_open_costs_the_statistics_not_the_game(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory", encoding="utf-8")
    blocked = tmp_path / "file" / "db.sqlite"
    result = run("play", "fan", "1", "--db", str(blocked), input="t10 f0\nstats\n")
    assert result.exit_code == 0
    assert result.output.startswith(
        f"statistics are not kept in this game: cannot open the database '{blocked}':"
        f" '{blocked.parent}' is a file, not a folder"
    )
    assert "t10 f0: A♠" in result.output
    failed = run("stats", "--db", str(blocked))
    assert failed.exit_code == 2 and f"cardtable: no database at '{blocked}'" in failed.stderr
    assert (tmp_path / "file").read_text(encoding="utf-8") == "not a directory"


@pytest.mark.parametrize("lines", [["t0", "t0 t1", "q"], ["t0", "t0 t1"]])
def test_a_lost_game_counts_when_the_player_leaves(tmp_path: Path, lines: list[str]) -> None:
    db = tmp_path / "db.sqlite"
    result = run(
        "play", deal_file(tmp_path, fan_lost_in_two()), "--db", str(db), input="\n".join(lines) + "\n"
    )
    assert "No move is left: fan deal 78 is lost after 2 moves." in result.output
    assert kept(db) == [
        ("fan", None, "lost", 2)
    ]  # labelled deal 78, but not as dealt: a position of one's own


def test_a_file_that_is_not_a_database_is_named_and_left_as_it_was(tmp_path: Path) -> None:
    other = tmp_path / "notes.sqlite"
    other.write_text("my notes", encoding="utf-8")
    result = run("play", "fan", "1", "--db", str(other), input="t10 f0\nq\nq\n")
    assert result.exit_code == 0
    assert f"cannot open the database '{other}': it is not an SQLite database" in result.output
    failed = run("stats", "--db", str(other))
    assert failed.exit_code == 2 and "it is not an SQLite database" in failed.stderr
    assert other.read_text(encoding="utf-8") == "my notes"
