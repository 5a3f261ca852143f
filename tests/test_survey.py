"""The survey's parts: Wilson intervals, the SQLite store, the runner on a pool and on Dask.

Budgets are in positions (``max_states``), never seconds, so verdicts do not
depend on the machine's speed.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, InvalidStateError, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

import cardtable
from cardtable import CardtableError, load_game
from cardtable.core.deals import deal as dealt
from cardtable.solver import Limit
from cardtable.store.sqlite import SURVEY
from cardtable.survey import runner
from cardtable.survey.executors import Pool, WorkerLostError, dask_cluster, process_pool
from cardtable.survey.runner import Survey, WorkerMismatchError
from cardtable.survey.stats import InvalidCountError, percentile, summarize, wilson, winnability
from cardtable.survey.store import ResultStore, SurveyDatabaseError, remove_if_empty
from cardtable.survey.task import Outcome, solve_deal, stored_moves

FAN = load_game("fan")
SMALL = Limit(states=200)  # fan deals 1-30: won, unwinnable and unknown all occur
LARGER = Limit(states=5000)
Row = tuple[int, str, int, int | None]
T = TypeVar("T")


def verdicts(store: ResultStore, game: str = "fan") -> list[Row]:
    """What must not depend on where or how often a survey ran: no times, no dates."""
    return [(o.deal, o.verdict, o.states, o.length) for o in store.outcomes(game, 1)]


def outcome(deal: int, verdict: str = "won", seconds: float = 0.5) -> Outcome:
    return Outcome(deal, verdict, seconds, 100, 40 if verdict == "won" else None, 1, "test")  # type: ignore[arg-type]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ResultStore]:
    with ResultStore(tmp_path / "survey.sqlite") as opened:
        yield opened


@pytest.fixture
def threads() -> Iterator[Pool]:
    with ThreadPoolExecutor(2) as pool:
        yield Pool(pool, lambda: 4)


# -- the package ---------------------------------------------------------------------


def test_the_package_names_what_a_survey_needs() -> None:
    """``from cardtable.survey import ...`` for a survey run, stored and read, as ``cardtable.solver`` names the solver's."""
    names: dict[str, object] = {}
    exec("from cardtable.survey import *", names)
    needed = {"Survey", "ResultStore", "process_pool", "dask_cluster", "solve_deal", "Outcome", "summarize"}
    assert needed <= names.keys()
    for name in cardtable.survey.__all__:  # the parts' own objects, not copies
        assert getattr(cardtable.survey, name).__module__.startswith("cardtable.survey."), name


def test_importing_the_package_imports_neither_matplotlib_nor_dask() -> None:
    """Both are imported on demand: a survey on one machine, or a program that only reads results, pays for neither."""
    found = "import sys, cardtable.survey; print(*sorted({m.split('.')[0] for m in sys.modules}))"
    imported = subprocess.run([sys.executable, "-c", found], capture_output=True, text=True, check=True)
    assert not {"matplotlib", "dask", "distributed"} & set(imported.stdout.split())
    assert "cardtable" in imported.stdout.split()


# -- statistics ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Wilson (1927) score interval, z = 1.96; e.g. Newcombe (1998), Brown, Cai & DasGupta (2001)
        (8, 10, 0.4902, 0.9433),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 10, 0.0179, 0.4042),
        (81, 263, 0.2553, 0.3662),  # Newcombe's example
    ],
)
def test_wilson_interval_matches_published_values(
    successes: int, trials: int, low: float, high: float
) -> None:
    assert wilson(successes, trials) == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_is_symmetric_and_inside_0_1() -> None:
    for trials in range(1, 30):
        for successes in range(trials + 1):
            low, high = wilson(successes, trials)
            assert 0 <= low <= successes / trials <= high <= 1
            mirror_low, mirror_high = wilson(trials - successes, trials)
            assert (low, high) == pytest.approx((1 - mirror_high, 1 - mirror_low))
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("counts", "words"),
    [
        (lambda: wilson(5, 3), "more successes than trials: successes=5, trials=3"),
        (lambda: wilson(-1, 3), "a count cannot be below zero: successes=-1"),
        (lambda: wilson(-2, -1), "a count cannot be below zero: successes=-2, trials=-1"),
        (lambda: winnability(-1, 2, 0), "a count cannot be below zero: won=-1"),
        (lambda: winnability(won=3, unwinnable=0, unknown=-4), "a count cannot be below zero: unknown=-4"),
    ],
)
def test_counts_no_survey_could_give_are_refused_saying_which(
    counts: Callable[[], object], words: str
) -> None:
    with pytest.raises(InvalidCountError) as caught:
        counts()
    assert str(caught.value) == words and isinstance(caught.value, ValueError)


def test_unknowns_widen_the_interval_from_all_lost_to_all_won() -> None:
    w = winnability(won=8, unwinnable=2, unknown=0)
    assert w.estimate == 0.8
    assert w.interval == w.interval_with_unknowns == wilson(8, 10)
    w = winnability(won=8, unwinnable=2, unknown=5)
    assert w.estimate == 0.8 and w.interval == wilson(8, 10)
    assert w.interval_with_unknowns == (wilson(8, 15)[0], wilson(13, 15)[1])
    w = winnability(won=0, unwinnable=0, unknown=4)
    assert w.estimate is None and w.interval_with_unknowns == (0.0, 1.0)


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(100, 0, -1)]
    assert [percentile(values, f) for f in (0.5, 0.9, 0.99, 1.0)] == [50, 90, 99, 100]
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2
    assert percentile([7.0], 0.99) == 7
    assert percentile([float(v) for v in range(25, 0, -1)], 0.9) == 23  # 22.5 up, not half to even


def test_summary_counts_verdicts_and_times() -> None:
    outcomes = [outcome(1, "won", 0.1), outcome(2, "unwinnable", 0.2), outcome(3, "unknown", 3.0)]
    summary = summarize(outcomes)
    assert (summary.surveyed, summary.won, summary.unwinnable, summary.unknown) == (3, 1, 1, 1)
    assert summary.seconds is not None
    assert (summary.seconds.median, summary.seconds.max) == (0.2, 3.0)
    assert summary.seconds.total == pytest.approx(3.3)
    assert summarize([]).seconds is None


# -- the store -----------------------------------------------------------------------


def test_a_stored_deal_is_kept_unless_it_is_an_unknown_and_the_new_result_says_more(
    store: ResultStore,
) -> None:
    assert store.add("fan", outcome(1, "won"), SMALL)
    assert store.add("fan", outcome(2, "unknown"), SMALL)
    assert store.add("fan", outcome(3, "unknown"), SMALL)
    assert not store.add("fan", outcome(1, "unwinnable"), LARGER)
    assert not store.add("fan", outcome(1, "unwinnable"), LARGER, retry_unknown=True)  # decided: kept
    assert not store.add("fan", outcome(2, "unknown"), LARGER)  # no retry asked
    assert store.add("fan", outcome(2, "won"), LARGER)  # a verdict says more, retry or not (another survey's)
    assert store.add("fan", outcome(3, "unknown"), LARGER, retry_unknown=True)
    assert [(o.deal, o.verdict) for o in store.outcomes("fan", 1)] == [(1, "won"), (2, "won"), (3, "unknown")]
    assert [(used.budget, used.deals) for used in store.settings("fan", 1)] == [(LARGER, 2), (SMALL, 1)]


def test_a_retry_replaces_the_unknowns_it_tries_but_no_larger_try(store: ResultStore) -> None:
    """The row records the budget last tried, so that the same retry run again skips it; never a smaller try."""

    def unknown(states: int, version: str = cardtable.__version__) -> Outcome:
        return dataclasses.replace(outcome(1, "unknown"), states=states, version=version)

    minute, positions = Limit(seconds=60), Limit(seconds=None, states=50)
    assert store.add("fan", unknown(5000), minute)
    assert not store.add("fan", unknown(2000), Limit(seconds=30), retry_unknown=True)  # less in every part
    assert not store.add("fan", unknown(5000), minute, retry_unknown=True)  # the same (another survey's)
    # neither larger nor smaller: tried, and its unknown replaces the row
    assert store.known("fan", 1, range(1, 2), retry=positions) == set()
    assert store.add("fan", unknown(50), positions, retry_unknown=True)
    assert [(used.budget, used.deals) for used in store.settings("fan", 1)] == [(positions, 1)]
    assert store.known("fan", 1, range(1, 2), retry=positions) == {1}  # so the same retry skips it
    assert store.add("fan", unknown(5000), minute, retry_unknown=True)  # a larger budget, as ever
    assert store.add("fan", unknown(100, "0.0.1"), Limit(seconds=30), retry_unknown=True)  # another solver's
    # a verdict replaces an unknown, retry or not, and nothing replaces a verdict
    assert store.add("fan", outcome(1, "won"), SMALL)
    assert not store.add("fan", unknown(9000), Limit(), retry_unknown=True)
    assert store.outcomes("fan", 1)[0].verdict == "won"


def test_the_same_retry_run_again_solves_nothing(store: ResultStore, threads: Pool) -> None:
    """A retry neither larger nor smaller than the stored unknowns' budget once solved them again at every run."""
    Survey(store, FAN, range(1, 31), Limit(states=300, table=1000)).run(threads)
    unknown = sum(row[1] == "unknown" for row in verdicts(store))
    assert unknown, "300 positions leave some fan deals unknown"
    retry = Limit(states=200, table=2000)  # fewer positions, but a larger table
    first = Survey(store, FAN, range(1, 31), retry, retry_unknown=True)
    assert first.todo == unknown
    assert (
        first.run(threads).stored == unknown
    )  # each row records the budget last tried, and is not tried so again
    assert Survey(store, FAN, range(1, 31), retry, retry_unknown=True).todo == 0


@pytest.mark.parametrize("retry_unknown", [False, True], ids=["plain", "retry"])
def test_a_survey_run_again_plans_again_and_counts_only_that_run(
    store: ResultStore, threads: Pool, retry_unknown: bool
) -> None:
    """A second run once solved every deal again and counted each twice, its plan made with the object."""
    job = Survey(store, FAN, range(1, 21), SMALL, retry_unknown=retry_unknown)
    assert job.run(threads).solved == job.todo == 20
    again = job.run(threads)
    assert (again.solved, again.stored, again.skipped, job.todo) == (0, 0, 20, 0)
    assert len(verdicts(store)) == 20


def test_a_survey_interrupted_and_run_again_solves_only_the_rest(store: ResultStore, threads: Pool) -> None:
    job = Survey(store, FAN, range(1, 21), SMALL)

    def stop(outcome: Outcome) -> None:
        if job.tally.stored == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        job.run(threads, on_result=stop)
    assert job.run(threads).solved == job.todo == 15
    assert [row[0] for row in verdicts(store)] == list(range(1, 21))


def test_a_timeout_stored_below_zero_reads_as_none_left(store: ResultStore) -> None:
    """Before Limit refused one, a survey made in Python could store ``timeout -1.0``; a report still reads it."""
    store.add("fan", outcome(1), Limit(seconds=0))
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE results SET timeout = -1.0")
    assert [(used.budget, used.deals) for used in store.settings("fan", 1)] == [(Limit(seconds=0), 1)]


@pytest.mark.parametrize(
    ("ask", "words"),
    [
        (
            lambda store: store.outcomes(FAN, 1),
            r"^not a game id: <GameSpec 'fan': Fan> \(GameSpec\): give its id, 'fan'$",
        ),
        (lambda store: store.rows("fan", "1"), r"^not a rules version: '1' \(str\): give a whole number"),
        (
            lambda store: store.settings("fan", 1, [1, 2]),
            r"^not a range of consecutive deals: \[1, 2\] \(list\): give one such as range\(1, 101\),"
            " or None for every deal$",
        ),
        (
            lambda store: store.outcomes("fan", 1, range(1, 100, 2)),  # the even deals would come too
            r"^not a range of consecutive deals: range\(1, 100, 2\) \(range\): give one such",
        ),
        (
            lambda store: Survey(store, FAN, range(1, 10, 2), SMALL),  # planned when made, from the store
            r"^not a range of consecutive deals: range\(1, 10, 2\) \(range\): give one such as range\(1, 101\)$",
        ),
        (
            lambda store: store.known("fan", 1, None),
            r"^not a range of consecutive deals: None \(NoneType\): give one such as range\(1, 101\)$",
        ),
        (lambda store: list(store.lines(None, 1)), r"^not a game id: None \(NoneType\): give a game's id"),
        (lambda store: store.add(FAN, outcome(1), SMALL), r"give its id, 'fan'$"),
    ],
)
def test_arguments_of_the_wrong_kind_are_refused_as_such_not_blamed_on_the_file(
    store: ResultStore, ask: Callable[[ResultStore], object], words: str
) -> None:
    with pytest.raises(CardtableError, match=words) as caught:
        ask(store)
    assert isinstance(caught.value, TypeError) and not isinstance(caught.value, SurveyDatabaseError)
    assert store.games() == []


def test_known_deals_are_per_game_rules_version_and_range(store: ResultStore) -> None:
    for deal in (1, 2, 3, 9):
        store.add("fan", outcome(deal, "unknown" if deal == 2 else "won"), SMALL)
    store.add("alexander-the-great", outcome(4), SMALL)
    assert store.known("fan", 1, range(1, 5)) == {1, 2, 3}
    assert store.known("fan", 1, range(1, 5), retry=LARGER) == {1, 3}
    assert store.known("fan", 2, range(1, 10)) == set()
    assert [o.deal for o in store.outcomes("fan", 1, range(2, 10))] == [2, 3, 9]


def test_an_unknown_tried_with_as_large_a_budget_is_not_retried(store: ResultStore) -> None:
    def unknown(deal: int) -> Outcome:
        return dataclasses.replace(outcome(deal, "unknown"), version=cardtable.__version__)

    seconds = Limit(seconds=60)
    store.add("fan", unknown(1), seconds)
    store.add("fan", unknown(2), LARGER)
    store.add("fan", unknown(3), Limit())  # no limit but the table
    store.add("fan", outcome(4, "unknown"), Limit())  # another cardtable's: tried again
    tried = {
        budget: store.known("fan", 1, range(1, 5), retry=budget)
        for budget in (
            seconds,
            Limit(seconds=30),
            Limit(seconds=120),
            SMALL,
            LARGER,
            Limit(states=9000),
        )
    }
    assert tried == {
        seconds: {1, 3},
        Limit(seconds=30): {1, 3},
        Limit(seconds=120): {3},
        SMALL: {2, 3},
        LARGER: {2, 3},
        Limit(states=9000): {3},
    }
    assert store.known("fan", 1, range(1, 5), retry=Limit(table=LARGER.table * 2)) == set()


def test_two_stores_share_one_file(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite"
    with ResultStore(path) as first, ResultStore(path) as second:
        first.add("fan", outcome(1), SMALL)
        second.add("fan", outcome(2), SMALL)
        first.add("fan", outcome(3), SMALL)
        assert [o.deal for o in second.outcomes("fan", 1)] == [1, 2, 3]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_only_a_database_holding_no_result_is_removed(tmp_path: Path) -> None:
    empty, kept = tmp_path / "empty.sqlite", tmp_path / "kept.sqlite"
    with ResultStore(empty), ResultStore(kept) as store:
        store.add("fan", outcome(1), SMALL)
    remove_if_empty(empty)
    remove_if_empty(kept)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["kept.sqlite"]
    with ResultStore(kept, create=False) as read:
        assert verdicts(read) == [(1, "won", 100, 40)]


def test_a_snapshot_reads_the_results_as_they_stood_at_its_first_read(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite"
    with ResultStore(path) as surveying, ResultStore(path, create=False) as reporting:
        surveying.add("fan", outcome(1), SMALL)
        with reporting.snapshot():
            assert len(reporting.outcomes("fan", 1)) == 1
            surveying.add("fan", outcome(2), SMALL)  # a survey running beside the report
            assert len(reporting.rows("fan", 1)) == 1
        assert len(reporting.rows("fan", 1)) == 2


def test_reading_needs_an_existing_survey(tmp_path: Path) -> None:
    with pytest.raises(SurveyDatabaseError, match="no survey database"):
        ResultStore(tmp_path / "missing.sqlite", create=False)
    assert not (tmp_path / "missing.sqlite").exists()
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    with pytest.raises(SurveyDatabaseError, match="it is empty: not yet a cardtable survey database"):
        ResultStore(empty, create=False)
    with ResultStore(empty) as made:  # surveying may start in an empty file
        made.add("fan", outcome(1), SMALL)
    with ResultStore(empty, create=False) as read:
        assert len(read.outcomes("fan", 1)) == 1


def foreign_database(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE results (x)")
        db.execute("INSERT INTO results VALUES (42)")
    sqlite3.connect(path).close()


def damaged_survey(path: Path) -> None:
    with ResultStore(path) as made:
        for deal in range(1, 400):
            made.add("fan", outcome(deal), SMALL)
    data = bytearray(path.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # page 2 garbled
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda path: path.write_text("deal,verdict\n1,won\n"), "not an SQLite database"),
        (lambda path: path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 50), "it is damaged"),
        (foreign_database, "not a cardtable survey database"),
        (damaged_survey, "it is damaged"),
    ],
    ids=["text", "truncated", "foreign", "damaged"],
)
@pytest.mark.parametrize("create", [True, False], ids=["survey", "report"])
def test_a_bad_file_is_refused_and_left_alone(tmp_path: Path, make: object, words: str, create: bool) -> None:
    path = tmp_path / "bad.sqlite"
    make(path)  # type: ignore[operator]
    before = path.read_bytes()
    with pytest.raises(SurveyDatabaseError) as caught:
        ResultStore(path, create=create)
    assert str(caught.value).startswith(f"cannot open the database {str(path)!r}: ") and words in str(
        caught.value
    )
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.sqlite"]


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SurveyDatabaseError) as caught:
        ResultStore(tmp_path)
    assert str(caught.value) == f"cannot open the database {str(tmp_path)!r}: it is not a regular file"


# -- winning lines ---------------------------------------------------------------------

SCHEMA_1 = """
CREATE TABLE results (
    game TEXT NOT NULL, rules_version INTEGER NOT NULL, deal INTEGER NOT NULL,
    verdict TEXT NOT NULL CHECK (verdict IN ('won', 'unwinnable', 'unknown')),
    seconds REAL NOT NULL, states INTEGER NOT NULL, length INTEGER, timeout REAL, max_states INTEGER,
    table_cap INTEGER NOT NULL, version TEXT NOT NULL, solved_at TEXT NOT NULL,
    UNIQUE (game, rules_version, deal)
)
"""


def schema_1_survey(path: Path) -> None:
    """A survey database as cardtable wrote it before it kept winning lines: deal 1 won, deal 2 lost."""
    with sqlite3.connect(path) as db:
        db.execute(SCHEMA_1)
        for number, verdict in [(1, "won"), (2, "unwinnable")]:
            db.execute(
                "INSERT INTO results VALUES ('fan', 1, ?, ?, 0.5, 100, ?, NULL, 200, 6000000, 'old', 'then')",
                (number, verdict, 40 if verdict == "won" else None),
            )
        db.execute(f"PRAGMA application_id = {SURVEY}")
        db.execute("PRAGMA user_version = 1")
    db.close()


def test_a_won_deal_keeps_its_line_and_it_replays(store: ResultStore) -> None:
    done = solve_deal("fan", 3, Limit(states=100_000))
    assert done.verdict == "won" and done.line is not None
    store.add("fan", done, SMALL)
    store.add("fan", outcome(4, "unwinnable"), SMALL)
    (kept,) = store.lines("fan", 1)
    assert (kept.deal, kept.line, kept.length) == (3, done.line, done.length) and kept.line is not None
    state = dealt(FAN, 3)
    for move in stored_moves(kept.line):
        state.push(move)
    assert state.is_won()
    assert store.outcomes("fan", 1)[0].line is None  # counts and times come without the lines
    assert store.lineless("fan", 1) == 0


def test_a_survey_of_schema_1_gains_the_lines_column_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    schema_1_survey(path)
    with ResultStore(path, create=False) as reading:  # a report changes nothing
        assert list(reading.lines("fan", 1)) == [] and reading.lineless("fan", 1) == 1
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (1,)
    db.close()
    with ResultStore(path) as writing:
        writing.add("fan", solve_deal("fan", 3, Limit(states=100_000)), SMALL)
        assert [o.deal for o in writing.lines("fan", 1)] == [3]
        assert writing.lineless("fan", 1) == 1
        assert [(o.deal, o.verdict) for o in writing.outcomes("fan", 1)] == [
            (1, "won"),
            (2, "unwinnable"),
            (3, "won"),
        ]
    with ResultStore(path) as again:  # the change is made once
        assert again.lineless("fan", 1) == 1


def test_a_damaged_line_is_one_error_naming_the_deal(store: ResultStore) -> None:
    store.add("fan", solve_deal("fan", 3, Limit(states=100_000)), SMALL)
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE results SET line = x'00ff' WHERE deal = 3")
    db.close()
    with pytest.raises(SurveyDatabaseError, match="the winning line kept for deal 3 is damaged"):
        list(store.lines("fan", 1))


# -- the runner ----------------------------------------------------------------------


def test_a_worker_solves_one_deal() -> None:
    done = solve_deal("fan", 1, Limit(states=100_000))
    assert done.deal == 1 and done.verdict in ("won", "unwinnable")
    assert (done.length is not None) == (done.verdict == "won")
    assert done.rules_version == FAN.rules_version


def test_a_survey_resumes_and_never_counts_a_deal_twice(store: ResultStore, threads: Pool) -> None:
    first = Survey(store, FAN, range(1, 21), SMALL).run(threads)
    assert (first.planned, first.skipped, first.solved, first.stored) == (20, 0, 20, 20)
    again = Survey(store, FAN, range(1, 31), SMALL)
    assert again.todo == 10
    assert again.run(threads).stored == 10
    assert len(store.outcomes("fan", 1)) == 30


def test_deals_another_survey_stored_meanwhile_are_told_as_kept(store: ResultStore, threads: Pool) -> None:
    from cardtable.cli.survey import _done_text

    fan = load_game("fan")
    late, early = (Survey(store, fan, range(1, 6), SMALL) for _ in range(2))  # both planned before either ran
    early.run(threads)
    late.run(threads)
    assert (late.tally.solved, late.tally.stored) == (5, 0)
    assert "5 solved (" in _done_text(
        late
    ) and "0 stored (5 kept the result another survey stored meanwhile)" in (_done_text(late))
    assert "5 stored, 0 stored before" in _done_text(early)


def test_retrying_unknowns_replaces_only_unknowns(store: ResultStore, threads: Pool) -> None:
    Survey(store, FAN, range(1, 31), SMALL).run(threads)
    before = verdicts(store)
    unknown = [row[0] for row in before if row[1] == "unknown"]
    assert unknown, "the small budget should leave some fan deals unknown"
    retry = Survey(store, FAN, range(1, 31), LARGER, retry_unknown=True)
    assert retry.todo == len(unknown)
    assert retry.run(threads).stored == len(unknown)
    after = verdicts(store)
    assert [row for row in after if row[0] not in unknown] == [row for row in before if row[0] not in unknown]
    assert sum(row[1] == "unknown" for row in after) < len(unknown)
    assert Survey(store, FAN, range(1, 31), LARGER, retry_unknown=True).todo == 0  # tried so already


def test_process_pool_and_dask_give_the_same_verdicts(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    deals = range(1, 31)
    with ResultStore(tmp_path / "pool.sqlite") as pooled, process_pool(2) as pool:
        Survey(pooled, FAN, deals, SMALL).run(pool)
        by_pool = verdicts(pooled)
    with (
        ResultStore(tmp_path / "dask.sqlite") as dasked,
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        Survey(dasked, FAN, deals, SMALL).run(Pool(client.get_executor(pure=False), lambda: 4))
        by_dask = verdicts(dasked)
    assert by_pool == by_dask
    assert len(by_pool) == 30 and {row[1] for row in by_pool} == {"won", "unwinnable", "unknown"}


def test_a_worker_with_other_rules_is_refused(
    store: ResultStore, threads: Pool, monkeypatch: pytest.MonkeyPatch
) -> None:
    def other_rules(game: str, number: int, budget: Limit) -> Outcome:
        return Outcome(number, "won", 0.1, 10, 50, rules_version=99, version="9.9")

    monkeypatch.setattr(runner, "solve_deal", other_rules)
    with pytest.raises(WorkerMismatchError, match="rules version 99"):
        Survey(store, FAN, range(1, 5), SMALL).run(threads)
    assert store.outcomes("fan", 1) == []


def test_a_stopping_pool_s_cancelled_deals_print_nothing_else_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers killed as the survey cancels its deals: the manager thread's InvalidStateError (gh-107219) is no news."""
    heard: list[str] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: heard.append(str(args.exc_value)))

    def raised(error: BaseException, thread: threading.Thread) -> None:
        threading.excepthook(threading.ExceptHookArgs([type(error), error, None, thread]))

    before = threading.excepthook
    with process_pool(1) as pool:
        pool.executor.submit(os.getpid).result()
        manager = pool.executor._executor_manager_thread  # type: ignore[attr-defined]
        raised(InvalidStateError("CANCELLED: <Future state=cancelled>"), manager)
        raised(RuntimeError("a real bug"), manager)
        raised(InvalidStateError("elsewhere"), threading.current_thread())
    assert heard == ["a real bug", "elsewhere"]
    assert threading.excepthook is before


def test_a_worker_that_dies_is_one_error_not_a_hang() -> None:
    """A library's caller is told of the table as it sets it, the command's user of --max-table."""
    with (
        pytest.raises(WorkerLostError, match=r"give the Limit a smaller table.*run again"),
        process_pool(1) as pool,
    ):
        pool.executor.submit(os._exit, 9).result()


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (
            False,
            "the worker processes died as they started (in a script, is the survey run under if __name__ ==",
        ),
        (
            True,
            "a worker process died (out of memory? try a smaller --max-table)",
        ),  # the command cannot slip so
    ],
    ids=["script", "command"],
)
def test_a_script_that_starts_a_pool_unguarded_is_asked_about_its_main_guard(
    tmp_path: Path, command: bool, words: str
) -> None:
    """Each spawned worker imports the script again and starts a pool of its own: not a worker out of memory."""
    script = tmp_path / "unguarded.py"
    script.write_text(
        "import os\n"
        "from cardtable.survey import process_pool\n"
        f"with process_pool(1, command={command}) as pool:\n"
        "    pool.executor.submit(os.getpid).result()\n"
    )
    ran = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 1
    assert f"WorkerLostError: {words}" in ran.stderr.splitlines()[-1]


def test_a_dask_worker_that_keeps_dying_is_one_error_not_a_traceback() -> None:
    pytest.importorskip("distributed")  # first: its settings join dask's config as it is imported
    dask = pytest.importorskip("dask")
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),  # given up after one death
        pytest.raises(
            WorkerLostError,
            match=r"lost its workers or its scheduler \(KilledWorker\) \(out of memory\? try a smaller --max-table\)",
        ),
        dask_cluster("local", 1, command=True) as pool,
    ):
        pool.executor.submit(os._exit, 9).result()


def test_a_cluster_left_without_workers_stops_the_survey(
    store: ResultStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(runner, "WATCH_SECONDS", 0.2)
    monkeypatch.setattr(runner, "NO_WORKERS_GRACE", 1.0)
    with (
        distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster,
        distributed.Client(cluster) as client,
    ):
        client.wait_for_workers(1)
        cluster.scale(0)  # every worker leaves; the deals below wait for one
        client.sync(cluster._correct_state)
        pool = Pool(client.get_executor(pure=False), lambda: 4, lambda: len(client.nthreads()))
        with pytest.raises(WorkerLostError, match="has had no worker for 1 s"):
            Survey(store, FAN, range(1, 11), SMALL).run(pool)


class AtOnce(Executor):
    """Runs each task as it is submitted: every future is done before the runner waits on any."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:
            future.set_exception(error)
        return future


def test_the_deals_in_flight_are_asked_anew_at_each_top_up(store: ResultStore) -> None:
    """As a cluster's workers join, its survey hands out more deals at a time."""
    handed: list[list[int]] = []
    limits = iter([1, 3])

    class Recording(AtOnce):
        def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
            handed[-1].append(args[1])  # solve_deal's deal number
            return super().submit(fn, *args, **kwargs)

    def in_flight() -> int:
        handed.append([])
        return next(limits, 3)

    Survey(store, FAN, range(1, 8), SMALL).run(Pool(Recording(), in_flight))
    assert handed == [[1], [2, 3, 4], [5, 6, 7], []]


def test_results_finished_beside_a_failed_deal_are_stored(store: ResultStore) -> None:
    survey = Survey(store, FAN, range(1, 6), SMALL)
    survey.known = {3}  # deal 3 is not run; deal 0 below fails
    todo = iter([1, 2, 0, 4, 5])
    with pytest.raises(CardtableError):
        for outcome in runner._solve_all("fan", todo, SMALL, Pool(AtOnce(), lambda: 10)):
            survey._store(outcome)
    assert [row[0] for row in verdicts(store)] == [1, 2, 4, 5]


def test_a_damaged_database_is_told_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "survey.sqlite"
    with ResultStore(path) as store:
        Survey(store, FAN, range(1, 61), SMALL).run(Pool(AtOnce(), lambda: 10))
    with path.open("r+b") as file:  # a page of the table overwritten: SQLite's check lists its problems
        file.seek(8192)
        file.write(b"\xff" * 64)
    with pytest.raises(SurveyDatabaseError) as caught:
        ResultStore(path, create=False)
    message = str(caught.value)
    assert (
        message.startswith(f"cannot open the database {str(path)!r}: it is damaged (")
        and "\n" not in message
        and "***" not in message
    )


def test_a_result_that_finds_no_room_says_that_those_before_it_are_stored(tmp_path: Path) -> None:
    """SQLite's own full database (a page limit: a full disk, wherever the test runs) stops the survey."""
    path = tmp_path / "survey.sqlite"
    with ResultStore(path) as store:
        store._db.execute("PRAGMA max_page_count = 8")  # room for a few results
        with pytest.raises(SurveyDatabaseError) as caught:
            Survey(store, FAN, range(1, 301), SMALL).run(Pool(AtOnce(), lambda: 10))
    assert str(caught.value) == (
        f"cannot use {str(path)!r}: database or disk is full; the results so far are stored: run again to go on"
    )
    with ResultStore(path, create=False) as store:
        assert 0 < len(store.outcomes("fan", 1)) < 300


def test_dask_logs_nothing_but_the_critical_while_a_survey_uses_a_cluster() -> None:
    import logging

    from cardtable.survey.executors import _quiet_dask

    # Dask gives this logger a handler of its own (not under pytest, which configures logging first)
    client_log, handler = logging.getLogger("distributed.client"), logging.StreamHandler()
    client_log.addHandler(handler)
    try:
        with _quiet_dask():  # what a lost scheduler has it say, dozens of lines, is held back
            assert handler.level == logging.CRITICAL
        assert handler.level == logging.NOTSET, "the levels are given back"
    finally:
        client_log.removeHandler(handler)
