"""``cardtable survey`` and ``cardtable report`` from the outside: resume after kill -9, reports, bad input.

Budgets are in positions (``--max-states``, ``--timeout 0``), so verdicts do not
depend on the machine's speed; fan deals with a small budget keep it quick.
"""

from __future__ import annotations

import contextlib
import csv
import gc
import gzip
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import traceback
import zlib
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import cardtable
from cardtable import load_game
from cardtable.cli import survey as survey_cli
from cardtable.cli.main import main
from cardtable.cli.stats import TERMINAL_PLAYER
from cardtable.core.deals import deal as dealt
from cardtable.core.deals import parse_deal_list
from cardtable.core.errors import InvalidDealError
from cardtable.formats import deal_to_dict
from cardtable.solver.search import DEFAULT_TABLE_CAP
from cardtable.store import PlayRecord, Store
from cardtable.survey.executors import WorkerLostError
from cardtable.survey.runner import WorkerMismatchError
from helpers import LUCIE

BUDGET = ("--timeout", "0", "--max-states", "200")  # fan deals 1-30: some unknown
SURVEY_CODE = "from cardtable.cli.main import main; main()"
FLOOR = Path(__file__).parent.parent / "benchmarks" / "floor.py"


def run(*args: str) -> Result:
    """``cardtable ARGS`` in-process, standard error apart."""
    return CliRunner().invoke(main, list(args), env={"NO_COLOR": "1"})


def floor(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(FLOOR), *map(str, args)], capture_output=True, text=True)


def survey(db: Path, deals: str = "1-30", *extra: str) -> Result:
    result = run("survey", "fan", "--deals", deals, "--workers", "2", "--db", str(db), *BUDGET, *extra)
    trace = "".join(traceback.format_exception(*result.exc_info)) if result.exc_info else ""
    assert result.exit_code == 0, (result.output, result.stderr, trace)
    return result


def table(db: Path) -> list[tuple[object, ...]]:
    """Everything stored that does not depend on timing: no seconds, no dates."""
    with sqlite3.connect(db) as connection:
        sql = "SELECT game, rules_version, deal, verdict, states, length, timeout, max_states FROM results"
        return connection.execute(f"{sql} ORDER BY deal").fetchall()


def count(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as connection:
            return int(connection.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.Error:  # not created yet
        return 0


def start_survey(db: Path, deals: str) -> subprocess.Popen[bytes]:
    """The survey in a process group of its own, with Ctrl-C acting as in a terminal."""
    args = ["survey", "fan", "--deals", deals, "--workers", "2", "--db", str(db), *BUDGET]
    return subprocess.Popen(
        [sys.executable, "-c", SURVEY_CODE, *args],
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def wait_for_results(db: Path, process: subprocess.Popen[bytes], at_least: int) -> int:
    deadline = time.monotonic() + 60
    while (stored := count(db)) < at_least:
        assert process.poll() is None, "the survey ended before it could be interrupted"
        assert time.monotonic() < deadline, "no results stored in 60 s"
        time.sleep(0.02)
    return stored


def group_alive(group: int) -> list[int]:
    """The processes of a process group still running (zombies awaiting their reaper aside)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, _, pgrp = stat.read_text().rsplit(")", 1)[1].split()[:3]
        except (OSError, IndexError):
            continue  # ended while we looked
        if int(pgrp) == group and state != "Z":
            alive.append(int(stat.parent.name))
    return alive


def assert_group_ends(group: int) -> None:
    """Wait up to 15 s for the group's processes to end; those left are killed, and the test fails."""
    deadline = time.monotonic() + 15
    while alive := group_alive(group):
        if time.monotonic() > deadline:
            os.killpg(group, signal.SIGKILL)
            pytest.fail(f"left running: {alive}")
        time.sleep(0.05)


def assert_fails(result: Result, *words: str) -> None:
    """One line on standard error naming the problem, exit code 2, no traceback."""
    assert result.exit_code == 2, (result.output, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardtable: "), result.stderr
    for word in words:
        assert word in lines[0]
    assert result.stdout == ""


# -- interrupted and resumed ---------------------------------------------------------


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="looks for left-over workers in /proc")
def test_a_survey_killed_part_way_resumes_to_the_same_table(tmp_path: Path) -> None:
    straight, killed = tmp_path / "straight.sqlite", tmp_path / "killed.sqlite"
    survey(straight, "1-150")
    process = start_survey(killed, "1-150")
    try:
        wait_for_results(killed, process, at_least=10)
        process.kill()  # kill -9 of the parent alone: its workers must notice and end
        process.communicate()
        assert_group_ends(process.pid)
    finally:
        if group_alive(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
    stored = count(killed)
    assert 10 <= stored < 150
    resumed = survey(killed, "1-150")
    assert f"{150 - stored} stored, {stored} stored before" in resumed.output
    assert table(killed) == table(straight)
    assert len(table(straight)) == 150


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="looks for left-over workers in /proc")
@pytest.mark.parametrize(
    ("signum", "whole_group", "said"),
    [
        (signal.SIGINT, True, "cardtable: interrupted;"),  # Ctrl-C: the terminal signals every process
        (
            signal.SIGTERM,
            False,
            "cardtable: stopped (SIGTERM);",
        ),  # to the parent alone: `timeout`, `docker stop`
        (
            signal.SIGHUP,
            True,
            "cardtable: stopped (SIGHUP);",
        ),  # a closed terminal: every process, its tracker too
    ],
    ids=["ctrl-c", "sigterm", "closed terminal"],
)
def test_a_signal_stops_the_survey_at_once_in_one_line_keeping_what_was_stored(
    tmp_path: Path, signum: signal.Signals, whole_group: bool, said: str
) -> None:
    db = tmp_path / "survey.sqlite"
    process = start_survey(db, "1-2000")
    wait_for_results(db, process, at_least=5)
    if whole_group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 128 + signum
    lines = stderr.decode().strip().splitlines()
    assert lines[-1].startswith(said) and "run again" in lines[-1]
    assert not [
        line for line in lines if any(word in line for word in ("Traceback", "resource_tracker", "leaked"))
    ]
    assert_group_ends(process.pid)  # no worker left behind
    assert count(db) >= 5, "what was stored stays"


def test_a_second_run_solves_only_new_deals_and_retries_unknowns_on_request(tmp_path: Path) -> None:
    db = tmp_path / "survey.sqlite"
    survey(db, "1-20")
    first = table(db)
    assert "10 solved" in survey(db, "11-30").output
    assert table(db)[:20] == first
    unknown = sum(row[3] == "unknown" for row in table(db))
    assert unknown > 0
    retried = run(
        "survey", "fan", "--deals", "1-30", "--db", str(db), "--timeout", "0", "--max-states", "5000"
    )
    assert f"{unknown} solved" not in retried.output and "0 solved" in retried.output
    retry = ("survey", "fan", "--deals", "1-30", "--db", str(db), "--timeout", "0", "--max-states", "5000")
    retried = run(*retry, "--retry-unknown")
    assert f"{unknown} solved" in retried.output and f"{unknown} stored" in retried.output
    decided = [row for row in first if row[3] != "unknown"]
    assert [row for row in table(db) if row[2] in {r[2] for r in decided}] == decided
    timed = next(
        line for line in run("report", "fan", "--db", str(db)).output.splitlines() if "median" in line
    )
    assert timed.endswith("; the 2 budgets below together)"), "percentiles over two budgets say so"
    again = run(*retry, "--retry-unknown")  # as after an interruption: nothing is tried twice
    assert "0 solved" in again.output and "30 decided or tried with as large a budget before" in again.output


def test_a_retry_neither_larger_nor_smaller_than_the_stored_budget_is_not_run_twice(tmp_path: Path) -> None:
    """Its unknowns replace the stored ones, recording the budget last tried: the same retry again skips them."""
    db = str(tmp_path / "x.sqlite")
    game = ("survey", "alexander-the-great", "--deals", "1-40", "--workers", "2", "--db", db)
    first = run(*game, "--max-states", "300", "--timeout", "0")
    assert first.exit_code == 0 and "unknown 0)" not in first.output, "300 positions leave some deals unknown"
    retry = (*game, "--timeout", "0.002", "--retry-unknown")
    assert run(*retry).exit_code == 0
    again = run(*retry)
    assert "0 solved" in again.output and "40 decided or tried with as large a budget before" in again.output


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder on a file system of 96 KiB, which a survey fills after a few results."""
    folder = tmp_path / "full"
    folder.mkdir()
    mount = ["mount", "-t", "tmpfs", "-o", "size=96k", "tmpfs", str(folder)]
    if os.geteuid() != 0 or subprocess.run(mount, capture_output=True).returncode != 0:
        pytest.skip("needs a small tmpfs: root, where mount is allowed")
    try:
        yield folder
    finally:
        # lazily: the file system goes once the last connection to it, which a test may leave to the GC, is gone
        subprocess.run(["umount", "--lazy", str(folder)], check=True)


def test_a_disk_that_fills_mid_survey_stops_it_in_one_line_that_says_how_to_go_on(small_disk: Path) -> None:
    db = small_disk / "s.sqlite"
    result = run("survey", "fan", "--deals", "1-300", "--workers", "2", "--db", str(db), *BUDGET)
    assert result.exit_code == 2, (result.output, result.stderr)
    assert result.stderr.splitlines()[-1] == (
        f"cardtable: cannot use {str(db)!r}: database or disk is full; the results so far are stored: run"
        " again to go on"
    )
    assert 0 < count(db) < 300


# -- reports -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def surveyed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("report") / "survey.sqlite"
    survey(db, "1-40")
    return db


def test_a_database_that_cannot_be_written_is_refused_before_a_deal_is_solved(tmp_path: Path) -> None:
    db = tmp_path / "survey.sqlite"
    survey(db, "1-5")
    if subprocess.run(["chattr", "+i", str(db)], capture_output=True).returncode != 0:
        pytest.skip("chattr cannot make the file immutable here")
    try:
        result = run("survey", "fan", "--deals", "1-10", "--db", str(db), *BUDGET)
        assert_fails(result, f"cannot store results in {str(db)!r}: the file is read-only")
    finally:
        subprocess.run(["chattr", "-i", str(db)], check=True)


def test_a_survey_on_read_only_storage_can_be_reported_but_not_added_to(
    surveyed: Path, tmp_path: Path
) -> None:
    shelf, mounted = tmp_path / "shelf", tmp_path / "mounted"
    shelf.mkdir()
    mounted.mkdir()
    shutil.copy(surveyed, shelf / "survey.sqlite")
    with closing(Store(shelf / "games.sqlite")) as games:
        games.start(finished_game())
    if subprocess.run(["mount", "--bind", str(shelf), str(mounted)], capture_output=True).returncode != 0:
        pytest.skip("cannot mount here (not root, or no mount namespace)")
    try:
        if subprocess.run(["mount", "-o", "remount,bind,ro", str(mounted)], capture_output=True).returncode:
            pytest.skip("cannot make a mount read-only here")
        there = run("report", "fan", "--db", str(mounted / "survey.sqlite"))
        assert there.exit_code == 0, there.stderr
        here = run("report", "fan", "--db", str(shelf / "survey.sqlite"))
        assert there.output.splitlines()[1:] == here.output.splitlines()[1:]  # all but the path
        read_only = (
            f"its folder {str(mounted)!r} is read-only, and SQLite writes its journal beside the database"
        )
        added = run("survey", "fan", "--deals", "41-45", "--db", str(mounted / "survey.sqlite"), *BUDGET)
        assert_fails(added, f"cannot store results in {str(mounted / 'survey.sqlite')!r}: {read_only}")
        made = run("survey", "fan", "--deals", "1-5", "--db", str(mounted / "new.sqlite"), *BUDGET)
        assert_fails(made, f"cannot make a survey database at {str(mounted / 'new.sqlite')!r}: {read_only}")
        exported = str(mounted / "x.csv")
        assert_fails(
            run("report", "fan", "--db", str(shelf / "survey.sqlite"), "--csv", exported),
            f"cannot write {exported!r}: its folder {str(mounted)!r} is read-only; nothing was written",
        )
        stats_db = str(mounted / "stats.sqlite")
        played = CliRunner().invoke(
            main, ["play", "fan", "1", "--db", stats_db], input="q\n", env={"NO_COLOR": "1"}
        )
        assert played.exit_code == 0 and played.output.startswith(
            f"statistics are not kept in this game: cannot open the database {stats_db!r}: {read_only}"
        )
        shown = run("stats", "--db", str(mounted / "games.sqlite"))  # statistics only read
        assert shown.exit_code == 0 and shown.stdout.splitlines()[1].split()[:3] == ["fan", "1", "1"]
    finally:
        subprocess.run(["umount", str(mounted)], check=True)


def finished_game() -> PlayRecord:
    """A game won in the terminal, as its statistics keep it."""
    start = deal_to_dict(dealt(load_game("fan"), 1))
    return PlayRecord(
        id="won",
        player=TERMINAL_PLAYER,
        game="fan",
        deal=1,
        start=start,
        status="won",
        created=1,
        updated=2,
        finished=2,
    )


def test_a_report_of_a_range_not_surveyed_says_which_deals_are(surveyed: Path) -> None:
    result = run("report", "fan", "--db", str(surveyed), "--deals", "60-70")
    assert result.exit_code == 0
    assert (
        "note           this database holds 40 deals of fan, from 1 to 40: none in the range asked"
        in result.output
    )


def test_a_report_of_a_range_partly_surveyed_says_how_much_was_not(surveyed: Path) -> None:
    result = run("report", "fan", "--db", str(surveyed), "--deals", "31-60")
    assert result.output.splitlines()[:2] == [
        f"fan, rules version 1: 10 deals between 31 and 40, from {surveyed}",
        "surveyed       10 of the 30 deals asked (20 not surveyed)",
    ]


@pytest.mark.parametrize(
    ("solutions", "without_line", "words"),
    [
        (3, 0, "3 written to w.jsonl"),
        (0, 0, "0 written to w.jsonl (an empty file: no won deal to write)"),
        (
            0,
            1,
            "0 written to w.jsonl (an empty file: the 1 won deal keeps no line, solved before cardtable kept them)",
        ),
        (2, 18, "2 written to w.jsonl; 18 won deals keep no line (solved before cardtable kept them)"),
    ],
)
def test_what_solutions_were_written_is_said_without_contradiction(
    solutions: int, without_line: int, words: str
) -> None:
    from cardtable.cli.survey import Written, _written_text

    assert _written_text(Written("w.jsonl", solutions, without_line)) == words


def test_a_report_of_a_game_not_surveyed_names_those_that_are(surveyed: Path) -> None:
    result = run("report", "alexander-the-great-lucie(redeals=0)", "--db", str(surveyed))
    assert result.exit_code == 0
    assert "no deals surveyed" in result.output
    assert result.output.splitlines()[-1] == "note           this database holds fan"
    as_json = run("report", "alexander-the-great-lucie(redeals=0)", "--db", str(surveyed), "--json")
    assert json.loads(as_json.output)["note"] == "this database holds fan"


def test_a_report_of_results_under_other_rules_says_so(surveyed: Path, tmp_path: Path) -> None:
    older = tmp_path / "older.sqlite"
    shutil.copy(surveyed, older)
    with closing(sqlite3.connect(older)) as db, db:
        db.execute("UPDATE results SET rules_version = 0")
    result = run("report", "fan", "--db", str(older))
    assert result.exit_code == 0
    assert result.output.splitlines()[-1] == (
        "note           this database holds fan only under rules version 0, and this cardtable plays"
        " version 1: survey it again to report it"
    )


@pytest.mark.parametrize("command", ["survey", "report", "stats", "serve"])
def test_an_empty_db_name_or_a_folder_is_refused_in_our_words(command: str) -> None:
    args = ("fan", "--deals", "1-3") if command in ("survey", "report") else ()
    assert_fails(run(command, *args, "--db", ""), "invalid value for '--db': '' names no file")
    assert_fails(run(command, *args, "--db", "/"), "invalid value for '--db': file '/' is a directory")


@pytest.mark.parametrize(
    "problem", [WorkerMismatchError("a worker plays other rules"), WorkerLostError("gone")]
)
def test_a_survey_whose_workers_give_no_result_leaves_no_database_it_made(
    problem: Exception, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*_: object) -> None:
        raise problem

    monkeypatch.setattr(survey_cli, "_run", refused)
    made = tmp_path / "new.sqlite"
    assert_fails(run("survey", "fan", "--deals", "1-3", "--db", str(made)), str(problem))
    assert list(tmp_path.iterdir()) == []
    kept = tmp_path / "kept.sqlite"
    monkeypatch.undo()
    survey(kept, "1-2")
    monkeypatch.setattr(survey_cli, "_run", refused)
    assert_fails(run("survey", "fan", "--deals", "3-4", "--db", str(kept)), str(problem))
    assert count(kept) == 2, "a database it did not make stays, with its results"


def test_a_db_linked_into_a_missing_folder_names_that_folder(tmp_path: Path) -> None:
    link = tmp_path / "linked.sqlite"
    link.symlink_to(tmp_path / "gone" / "x.sqlite")
    missing = f"there is no folder {str(tmp_path / 'gone')!r}"
    assert_fails(run("survey", "fan", "--deals", "1-3", "--db", str(link)), missing)
    played = CliRunner().invoke(main, ["play", "fan", "1", "--db", str(link)], input="q\n")  # on, unrecorded
    assert (
        played.exit_code == 0
        and "statistics are not kept in this game: cannot open the database" in played.output
    )
    assert missing in played.output


@pytest.mark.parametrize("command", ["survey", "report", "stats", "serve"])
def test_a_database_in_memory_is_refused_for_it_would_keep_nothing(command: str) -> None:
    args = ("fan", "--deals", "1-3") if command in ("survey", "report") else ()
    assert_fails(
        run(command, *args, "--db", ":memory:"),
        "invalid value for '--db': ':memory:' would keep nothing: name a file (./:memory: for one of that name)",
    )


def test_a_database_named_like_an_sqlite_uri_is_a_file_of_that_name(tmp_path: Path) -> None:
    with contextlib.chdir(tmp_path):
        made = run(
            "survey", "fan", "--deals", "1-2", "--max-states", "50", "--db", "file:x.sqlite?mode=memory"
        )
        assert made.exit_code == 0, made.stderr
        assert (tmp_path / "file:x.sqlite?mode=memory").is_file()
        Store(tmp_path / ":memory:").close()  # a Path is a file, whatever its name
        assert run("stats", "--db", "./:memory:").stdout.startswith("No game finished")


def test_a_database_under_home_written_with_a_tilde_goes_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # --db=~/... is not expanded by the shell
    assert run("survey", "fan", "--deals", "1-2", "--workers", "1", "--db=~/fan.sqlite").exit_code == 0
    assert (tmp_path / "fan.sqlite").is_file()
    assert run("report", "fan", "--db=~/fan.sqlite").output.startswith("fan, rules version 1: 2 deals")


def test_report_counts_and_winnability(surveyed: Path) -> None:
    rows = table(surveyed)
    won = sum(row[3] == "won" for row in rows)
    result = run("report", "fan", "--db", str(surveyed))
    assert result.exit_code == 0, result.stderr
    lines = dict(line.split(None, 1) for line in result.stdout.splitlines()[1:] if line.split()[0] != "with")
    assert lines["surveyed"] == "40" and lines["won"] == str(won)
    assert int(lines["won"]) + int(lines["unwinnable"]) + int(lines["unknown"]) == 40
    assert "95% Wilson interval" in lines["winnability"]
    assert lines["solve"].startswith("time     median") and "p99" in lines["solve"]
    assert "max states 200" in lines["solver"] and "40 deals" in lines["solver"]
    assert ("caution" in lines) == (int(lines["unknown"]) > 2)  # more than 5% of 40


def test_report_json_and_a_deal_range(surveyed: Path) -> None:
    result = run("report", "fan", "--db", str(surveyed), "--json", "--deals", "11-30")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    rows = [row for row in table(surveyed) if 11 <= int(row[2]) <= 30]  # type: ignore[call-overload]
    assert (report["game"], report["rules_version"], report["deals"]) == ("fan", 1, [11, 30])
    assert report["surveyed"] == 20
    assert [report[v] for v in ("won", "unwinnable", "unknown")] == [
        sum(row[3] == v for row in rows) for v in ("won", "unwinnable", "unknown")
    ]
    w = report["winnability"]
    assert w["estimate"] == pytest.approx(report["won"] / (report["won"] + report["unwinnable"]))
    assert w["interval_with_unknowns"][0] <= w["interval"][0] <= w["estimate"] <= w["interval"][1]
    assert w["interval"][1] <= w["interval_with_unknowns"][1]
    assert set(report["seconds"]) == {"median", "p90", "p99", "max", "total"}
    budget = {"timeout": None, "max_states": 200, "table": DEFAULT_TABLE_CAP}
    used = {"budget": budget, "version": cardtable.__version__, "deals": 20, "unknown": report["unknown"]}
    assert report["settings"] == [used]


def test_report_draws_a_plot(surveyed: Path, tmp_path: Path) -> None:
    plot = tmp_path / "fan.png"
    result = run("report", "fan", "--db", str(surveyed), "--plot", str(plot))
    assert result.exit_code == 0, result.stderr
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_report_of_a_game_not_surveyed(surveyed: Path) -> None:
    result = run("report", "alexander-the-great", "--db", str(surveyed), "--json")
    report = json.loads(result.stdout)
    assert (report["surveyed"], report["seconds"], report["winnability"]["estimate"]) == (0, None, None)
    assert "no deal decided yet" in run("report", "alexander-the-great", "--db", str(surveyed)).stdout


def test_report_writes_the_wins_as_solutions_that_check_replays(surveyed: Path, tmp_path: Path) -> None:
    won = [row[2] for row in table(surveyed) if row[3] == "won"]
    path = tmp_path / "fan.jsonl"
    result = run("report", "fan", "--db", str(surveyed), "--solutions", str(path))
    assert result.exit_code == 0, result.stderr
    assert f"solutions      {len(won)} written to {path}" in result.stdout.splitlines()
    solutions = [json.loads(line) for line in path.read_text().splitlines()]
    assert [s["deal"]["deal"] for s in solutions] == won and {s["result"] for s in solutions} == {"won"}
    checked = run("check", str(path))
    assert checked.exit_code == 0 and checked.stdout.startswith(f"ok {len(won)} solutions ({len(won)} won), ")
    some = run("report", "fan", "--db", str(surveyed), "--json", "--deals", "1-10", "--solutions", str(path))
    written = json.loads(some.stdout)["solutions"]
    assert written == {"file": str(path), "solutions": sum(d <= 10 for d in won), "without_line": 0}  # type: ignore[operator]
    lost = next(row[2] for row in table(surveyed) if row[3] != "won")
    none = run("report", "fan", "--db", str(surveyed), "--deals", f"{lost}-{lost}", "--solutions", str(path))
    assert f"solutions      0 written to {path} (an empty file: no won deal to write)" in none.stdout


def test_a_redeal_in_a_survey_s_win_is_written_with_its_fans(tmp_path: Path) -> None:
    """The survey keeps a line as text, where a redeal is the word alone; formats.md writes it with the fans it makes."""
    db, path = tmp_path / "lucie.sqlite", tmp_path / "lucie.jsonl"
    budget = ("--timeout", "0", "--max-states", "100000")  # deals 1-3 are won, each with a redeal or two
    surveyed = run("survey", LUCIE, "--deals", "1-3", "--workers", "1", "--db", str(db), *budget)
    assert surveyed.exit_code == 0, surveyed.output
    assert run("report", LUCIE, "--db", str(db), "--solutions", str(path)).exit_code == 0
    solutions = [json.loads(line) for line in path.read_text().splitlines()]
    redeals = [m["redeal"] for s in solutions for m in s["moves"] if "redeal" in m]
    assert len(solutions) == 3 and redeals
    assert all(isinstance(fans, list) and all(isinstance(fan, list) for fan in fans) for fans in redeals)
    assert run("check", str(path)).stdout.startswith("ok 3 solutions (3 won)")


def test_solutions_named_gz_are_written_compressed_and_checked_as_they_are(
    surveyed: Path, tmp_path: Path
) -> None:
    plain, packed = tmp_path / "fan.jsonl", tmp_path / "fan.jsonl.gz"
    for path in (plain, packed):
        assert run("report", "fan", "--db", str(surveyed), "--solutions", str(path)).exit_code == 0
    assert gzip.decompress(packed.read_bytes()) == plain.read_bytes()
    again = tmp_path / "again.jsonl.gz"
    run("report", "fan", "--db", str(surveyed), "--solutions", str(again))
    assert again.read_bytes() == packed.read_bytes()  # no time stamp: the same text, the same bytes
    assert run("check", str(packed)).stdout == run("check", str(plain)).stdout
    won = sum(row[3] == "won" for row in table(surveyed))
    out = floor(packed, "--deals", "1-40")
    assert f"together, deals 1-40: {won} won, 0 unwinnable, {40 - won} unknown" in out.stdout, out.stderr
    damaged = tmp_path / "damaged.jsonl.gz"
    damaged.write_bytes(packed.read_bytes()[: len(packed.read_bytes()) // 2])
    assert_fails(
        run("check", str(damaged)), f"cannot read {str(damaged)!r}: a damaged or incomplete gzip file"
    )


def test_report_writes_every_result_as_csv_that_floor_reads(surveyed: Path, tmp_path: Path) -> None:
    path = tmp_path / "fan.csv"
    result = run("report", "fan", "--db", str(surveyed), "--csv", str(path))
    assert result.exit_code == 0, result.stderr
    assert f"csv            40 deals written to {path}" in result.stdout.splitlines()
    with path.open(newline="") as file:
        rows = list(csv.DictReader(file))
    assert {r["game"] for r in rows} == {"fan"}
    assert [(int(r["deal"]), r["verdict"], int(r["states"]), r["max_states"]) for r in rows] == [
        (row[2], row[3], row[4], "200") for row in table(surveyed)
    ]
    won, lost = (sum(row[3] == verdict for row in table(surveyed)) for verdict in ("won", "unwinnable"))
    out = floor(path, "--deals", "1-40")
    assert out.returncode == 0, out.stderr
    assert f"together, deals 1-40: {won} won, {lost} unwinnable, {40 - won - lost} unknown" in out.stdout


def test_floor_writes_the_runs_together_as_csv_and_plot_and_never_over_a_file_it_reads(
    surveyed: Path, tmp_path: Path
) -> None:
    survey_csv = tmp_path / "fan.csv"
    assert run("report", "fan", "--db", str(surveyed), "--csv", str(survey_csv)).exit_code == 0
    extra = tmp_path / "extra.jsonl"  # a later run: nothing new, but a file of its own kind
    extra.write_text("")
    together, png = tmp_path / "together.csv", tmp_path / "together.png"
    out = floor(survey_csv, extra, "--deals", "1-45", "--csv", together, "--plot", png)
    assert out.returncode == 0, out.stderr
    with together.open(newline="") as file:
        rows = [(int(r["deal"]), r["verdict"], r["settled_by"]) for r in csv.DictReader(file)]
    by_deal = {row[2]: row[3] for row in table(surveyed)}
    assert rows == [
        (deal, verdict, str(survey_csv) if verdict != "unknown" else "")
        for deal in range(1, 46)
        for verdict in [by_deal.get(deal, "unknown")]
    ]
    assert png.read_bytes().startswith(b"\x89PNG")
    summary = [line for line in out.stdout.splitlines() if line.startswith("together,")]
    again = floor(together, "--deals", "1-45")
    assert summary == [line for line in again.stdout.splitlines() if line.startswith("together,")]
    before = survey_csv.read_bytes()
    refused = floor(survey_csv, "--deals", "1-45", "--csv", survey_csv)
    assert refused.returncode == 2
    assert f"{str(survey_csv)!r} is one of the files read: it would be overwritten" in refused.stderr
    assert survey_csv.read_bytes() == before


def test_floor_fails_on_a_deal_won_in_one_run_and_proved_lost_in_another(tmp_path: Path) -> None:
    won, lost = tmp_path / "won.csv", tmp_path / "lost.csv"
    won.write_text("deal,verdict\n1,won\n2,unknown\n")
    lost.write_text("deal,verdict\n2,unwinnable\n1,unwinnable\n")
    out = floor(won, lost, "--deals", "1-2")
    assert out.returncode == 1
    assert f"deal 1 won in one run and proved lost in another: {str(lost)!r}, {str(won)!r}" in out.stderr
    assert "or the files are of different games, which" in out.stderr, "CSVs do not say their game"
    odd = tmp_path / "odd.csv"
    odd.write_text("deal,verdict\n1,maybe\n")
    assert "is no survey CSV" in floor(odd, "--deals", "1-2").stderr


def test_solve_benchmark_keeps_each_decided_deal_as_a_solution_that_check_and_floor_read(
    tmp_path: Path,
) -> None:
    path = tmp_path / "fan.jsonl"
    solve_py = FLOOR.with_name("solve.py")
    budget = ["--timeout", "0", "--max-states", "300"]  # fan deals 1-6: some decided, some not
    out = subprocess.run(
        [
            sys.executable,
            str(solve_py),
            "fan",
            "--deals",
            "1-6",
            *budget,
            "--verbose",
            "--solutions",
            str(path),
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    decided = [
        line.split()[:2] for line in out.stdout.splitlines() if line.split()[1:2] in (["won"], ["unwinnable"])
    ]
    assert 0 < len(decided) < 6
    solutions = [json.loads(line) for line in path.read_text().splitlines()]
    assert [[str(s["deal"]["deal"]), s["result"]] for s in solutions] == decided
    assert run("check", str(path)).stdout.startswith(f"ok {len(decided)} solutions")
    together = floor(path, "--deals", "1-6")
    assert f"{6 - len(decided)} unknown" in together.stdout, together.stderr


def test_sweep_benchmark_narrowed_keeps_its_wins_and_exhaustive_losses_as_solutions(tmp_path: Path) -> None:
    # 300 rests a card: deal 1 ends without a win (proving nothing, so not kept), deal 2 is
    # won, and deal 194 never has more than 300, so its sweep is exhaustive: unwinnable.
    path = tmp_path / "sweep.jsonl"
    sweep_py = FLOOR.with_name("sweep.py")
    args = ["--deals", "1,2,194", "--width", "300", "--room", "0", "--solutions", str(path)]
    out = subprocess.run([sys.executable, str(sweep_py), *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    verdicts = [line.split()[:2] for line in out.stdout.splitlines()]
    assert verdicts == [["1", "no"], ["2", "won"], ["194", "unwinnable"]]
    solutions = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(s["deal"]["deal"], s["result"]) for s in solutions] == [(2, "won"), (194, "unwinnable")]
    assert run("check", str(path)).stdout.startswith("ok 2 solutions (1 won, 1 unwinnable)")


def test_sweep_parts_benchmark_times_each_part_of_an_exact_sweep() -> None:
    parts = FLOOR.with_name("sweep_parts.py")
    out = subprocess.run([sys.executable, str(parts), "--deals", "194"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    deal_line, *part_lines = out.stdout.splitlines()
    assert deal_line.split()[:3] == ["194", "unwinnable", "650"]
    assert [line.split(" s ")[0].rsplit(maxsplit=1)[0].strip() for line in part_lines] == [
        "merging rests that came again",
        "reading waste tops",
        "cards home from a batch",
        "endgame moves of a chunk",
    ]
    assert part_lines[-1].endswith(" 10 calls")  # one for each of the 10 layers of its 52 endgame rests


def test_line_ranks_benchmark_finds_the_won_line_within_the_width_at_every_cut() -> None:
    # Deal 2's sweep 300 rests wide wins (deal 1's does not): its line was kept at every cut,
    # so fewer than 300 rests can have scored better there; the start's level holds one rest.
    line_ranks = FLOOR.with_name("line_ranks.py")
    args = ["--deals", "1,2", "--width", "300", "--within", "100", "--cards"]
    out = subprocess.run([sys.executable, str(line_ranks), *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    no_win, won, *cuts = out.stdout.splitlines()
    assert no_win.split() == ["1", "no", "win", "300", "wide"]
    assert won.startswith("       2 won 300 wide; worst after card ")
    better = [int(cut.split(":")[1].split()[0].replace(",", "")) for cut in cuts]
    assert len(better) == 66 and better[0] == 0 and cuts[0].split()[-2:] == ["of", "1"]
    assert max(better) < 300
    assert won.endswith(f"more than 100 better at {sum(b > 100 for b in better)} of 66 cuts")


def test_solutions_that_cannot_be_written_leave_the_file_as_it_was(surveyed: Path, tmp_path: Path) -> None:
    db = tmp_path / "damaged-line.sqlite"
    db.write_bytes(surveyed.read_bytes())
    with sqlite3.connect(db) as connection:
        (last,) = connection.execute("SELECT MAX(deal) FROM results WHERE verdict = 'won'").fetchone()
        connection.execute(
            "UPDATE results SET line = ? WHERE deal = ?", (zlib.compress(b"fan/0 nowhere"), last)
        )
    connection.close()
    path = tmp_path / "fan.jsonl"
    path.write_text("what was there\n")
    result = run("report", "fan", "--db", str(db), "--solutions", str(path))
    assert_fails(result, f"the line kept for deal {last} is damaged", "nothing was written")
    assert path.read_text() == "what was there\n"
    assert not [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"]
    nowhere = str(tmp_path / "no" / "such.jsonl")
    for option in ("--solutions", "--csv"):
        assert_fails(run("report", "fan", "--db", str(db), option, nowhere), f"cannot write {nowhere!r}")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a device that is always full")
def test_a_report_whose_last_file_fails_writes_none_of_them(surveyed: Path, tmp_path: Path) -> None:
    """The plot and the csv wait for the solutions: a full disk there leaves all three as they were."""
    plot, rows = tmp_path / "plot.png", tmp_path / "rows.csv"
    plot.write_bytes(b"the old plot")
    rows.write_text("the old rows\n")
    result = run(
        "report",
        "fan",
        "--db",
        str(surveyed),
        "--plot",
        str(plot),
        "--csv",
        str(rows),
        "--solutions",
        "/dev/full",
    )
    assert_fails(result, "cannot write '/dev/full': no space left on device; nothing was written")
    assert (plot.read_bytes(), rows.read_text()) == (b"the old plot", "the old rows\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plot.png", "rows.csv"]


# -- bad input -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deals", "words"),
    [
        ("10-1", "empty deal range: '10-1'"),
        ("abc", "not a deal range: 'abc'"),
        ("0-5", "not a deal range: '0-5'"),
        ("1-", "'1-'"),
    ],
)
@pytest.mark.parametrize("command", ["survey", "report"])
def test_a_bad_range_is_one_line(tmp_path: Path, command: str, deals: str, words: str) -> None:
    db = tmp_path / "survey.sqlite"
    assert_fails(run(command, "fan", "--deals", deals, "--db", str(db)), words)
    assert not db.exists()


@pytest.mark.parametrize(
    ("script", "args", "words"),
    [
        ("sweep.py", ["--width", "0"], "--width must be at least 1, not 0"),
        ("line_ranks.py", ["--width", "0"], "--width must be at least 1, not 0"),
        ("sweep.py", ["--solutions", "{missing}"], "cannot add solutions to '{missing}': no such file"),
        ("sweep.py", ["--checkpoint", "{missing}"], "--checkpoint keeps one deal's sweep, with --no-trace"),
        (
            "sweep.py",
            ["--checkpoint", "{missing}", "--no-trace"],
            "cannot keep a checkpoint in '{missing}': no such file",
        ),
        (
            "solve.py",
            ["fan", "--solutions", "{missing}"],
            "cannot add solutions to '{missing}': no such file",
        ),
        ("solve.py", ["fan", "--deals", "1-x"], "not a deal range: '1-x'"),
    ],
)
def test_a_benchmark_refuses_bad_options_before_it_solves_anything(
    tmp_path: Path, script: str, args: list[str], words: str
) -> None:
    missing = str(tmp_path / "no" / "such.jsonl")
    out = subprocess.run(
        [
            sys.executable,
            str(FLOOR.with_name(script)),
            "--deals",
            "194",
            *[a.format(missing=missing) for a in args],
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert words.format(missing=missing) in out.stderr
    assert "Traceback" not in out.stderr and not out.stdout


def test_a_list_of_deals_reads_each_part_as_a_range() -> None:
    # benchmarks/solve.py and stock_phase.py take "13,40-42" to run chosen deals.
    assert parse_deal_list("13,40-42") == [13, 40, 41, 42]
    with pytest.raises(InvalidDealError, match="empty deal range: '5-1'"):
        parse_deal_list("13,5-1")


@pytest.mark.parametrize("option", ["--max-states", "--max-table"])
def test_a_count_larger_than_sqlite_stores_is_refused_before_a_database_is_made(
    tmp_path: Path, option: str
) -> None:
    db = tmp_path / "survey.sqlite"
    result = run("survey", "fan", "--deals", "1-2", "--db", str(db), option, "9" * 23)
    assert_fails(result, f"invalid value for '{option}'", "<=9223372036854775807")
    assert not db.exists()


@pytest.mark.parametrize("command", ["survey", "report"])
def test_an_unknown_game_is_one_line(tmp_path: Path, command: str) -> None:
    db = tmp_path / "survey.sqlite"
    assert_fails(run(command, "klondike", "--deals", "1-10", "--db", str(db)), "unknown game: 'klondike'")
    assert not db.exists()


@pytest.mark.parametrize("command", ["survey", "report"])
def test_a_file_that_is_no_survey_is_one_line_and_left_alone(tmp_path: Path, command: str) -> None:
    db = tmp_path / "notes.txt"
    db.write_text("not a database\n")
    assert_fails(
        run(command, "fan", "--deals", "1-10", "--db", str(db)), "not an SQLite database", "notes.txt"
    )
    assert db.read_text() == "not a database\n"


def test_a_damaged_survey_is_one_line_and_left_alone(surveyed: Path, tmp_path: Path) -> None:
    db = tmp_path / "damaged.sqlite"
    data = bytearray(surveyed.read_bytes())
    data[100:4096] = bytes(len(data[100:4096]))  # the schema page wiped
    db.write_bytes(bytes(data))
    for command in ("survey", "report"):
        assert_fails(
            run(command, "fan", "--deals", "1-10", "--db", str(db)),
            f"cannot open the database {str(db)!r}: it is damaged (",
        )
    assert db.read_bytes() == bytes(data)


def test_reporting_a_missing_database_is_one_line(tmp_path: Path) -> None:
    assert_fails(run("report", "fan", "--db", str(tmp_path / "none.sqlite")), "no survey database")


def test_an_output_that_cannot_be_written_is_refused_before_any_is_written(
    surveyed: Path, tmp_path: Path
) -> None:
    csv_path, plot = tmp_path / "a.csv", tmp_path / "p.png"
    nowhere = tmp_path / "no" / "such" / "x"
    for option in ("--plot", "--solutions", "--csv"):
        outputs = {"--plot": str(plot), "--csv": str(csv_path), option: f"{nowhere}.png"}
        result = run(
            "report", "fan", "--db", str(surveyed), *(word for pair in outputs.items() for word in pair)
        )
        assert_fails(
            result,
            f"cannot write '{nowhere}.png': there is no folder {str(nowhere.parent)!r}; nothing was written",
        )
        assert not csv_path.exists() and not plot.exists()


def test_a_plot_named_without_a_file_type_is_refused(surveyed: Path, tmp_path: Path) -> None:
    for name in ("p", ".png"):  # the second a hidden file with no type, as Python reads it
        result = run("report", "fan", "--db", str(surveyed), "--plot", str(tmp_path / name))
        assert_fails(result, "has no file type: give a name such as plot.png, plot.svg or plot.pdf")
    assert not list(tmp_path.iterdir())
    result = run("report", "fan", "--db", str(surveyed), "--plot", str(tmp_path / "p.docx"))
    assert_fails(result, "p.docx': format 'docx' is not supported (supported formats: ")
    drawn = run("report", "fan", "--db", str(surveyed), "--plot", str(tmp_path / "p.svg"))
    assert f"plot           drawn in {tmp_path / 'p.svg'}" in drawn.output.splitlines()


def test_workers_are_not_asked_of_a_cluster_that_has_its_own(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    scheduler = "tcp://127.0.0.1:8786"
    result = run(
        "survey", "fan", "--deals", "1-5", "--workers", "3", "--scheduler", scheduler, "--db", str(db)
    )
    assert_fails(
        result, f"--workers 3 starts workers here; the cluster at {scheduler} has its own: leave it out"
    )
    assert not db.exists()


def test_what_names_no_scheduler_is_refused_before_a_database_is_made(tmp_path: Path) -> None:
    for scheduler in ("nowhere", "tcp://127.0.0.1:99999", "tcp://host"):
        result = run(
            "survey", "fan", "--deals", "1-5", "--db", str(tmp_path / "s.sqlite"), "--scheduler", scheduler
        )
        assert_fails(result, f"cannot use the Dask scheduler {scheduler!r}: give 'local' or tcp://HOST:PORT")
    assert not (tmp_path / "s.sqlite").exists()


def test_a_scheduler_not_there_is_one_line_and_leaves_no_client_or_database_behind(tmp_path: Path) -> None:
    from distributed import Client

    result = run(  # nothing listens there: Dask tries for 10 s
        "survey",
        "fan",
        "--deals",
        "1-5",
        "--db",
        str(tmp_path / "s.sqlite"),
        "--scheduler",
        "tcp://127.0.0.1:1",
    )
    assert_fails(result, "cannot use the Dask scheduler 'tcp://127.0.0.1:1'")
    assert not list(tmp_path.iterdir())  # the database it made for the survey is gone again
    # A half-built client left to the garbage collector closes itself at a random moment,
    # in a random thread, and so once deadlocked the next survey's LocalCluster start.
    assert not [thing for thing in gc.get_objects() if isinstance(thing, Client)]


# -- on Dask -------------------------------------------------------------------------


def test_a_local_dask_cluster_gives_the_pool_verdicts(surveyed: Path, tmp_path: Path) -> None:
    db = tmp_path / "dask.sqlite"
    survey(db, "1-12", "--scheduler", "local", "--workers", "1")
    assert table(db) == table(surveyed)[:12]


def test_the_help_of_surveys_timeout_shows_the_range_it_takes_0_included() -> None:
    shown = " ".join(run("survey", "--help").output.split())
    assert "Seconds per deal; 0: none. [default: 10.0; 0 or x>=0.001]" in shown
