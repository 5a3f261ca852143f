"""``cardtable survey`` and ``cardtable report``: the winnability of thousands of deals.

``survey`` solves every deal of a range in parallel (worker processes here, or a
Dask cluster) and stores each verdict in SQLite as it comes, so that running the
same command again resumes where an interrupted survey stopped. ``report``
reads the database: counts, the winnability with its Wilson interval, solve
times, and a plot.

Bad input (a deal range, a game id, a database file) is one line on standard
error and exit code 2, before anything is solved or written.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Final

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from cardtable.cli.files import STDOUT, Staging, goes_to_standard_output, is_stream, name_problem
from cardtable.cli.info import OptionConflictError
from cardtable.cli.options import TIMEOUT_LEAST, Seconds, max_table_option, position_count
from cardtable.cli.stats import db_option
from cardtable.core.deals import deal, parse_deal_range
from cardtable.core.errors import CardtableError
from cardtable.core.move import Move
from cardtable.core.notation import plural
from cardtable.core.spec import GameSpec
from cardtable.core.state import State
from cardtable.formats import Solution
from cardtable.games import load_game
from cardtable.interrupts import INTERRUPTED_EXIT, Terminated, ended_as_ctrl_c
from cardtable.paths import folder_problem, read_only_folder
from cardtable.solver import Limit
from cardtable.survey.executors import (
    LOCAL,
    SchedulerError,
    WorkerLostError,
    check_scheduler,
    default_workers,
    executor,
)
from cardtable.survey.runner import Survey, Tally, WorkerMismatchError
from cardtable.survey.stats import Summary, summarize
from cardtable.survey.store import (
    ROW_COLUMNS,
    ResultStore,
    SettingsUsed,
    default_path,
    remove_if_empty,
)
from cardtable.survey.task import Outcome, stored_moves


def _store_path(db: Path | None) -> Path:
    """The results database a ``--db`` option names (``~`` expanded), or the default one."""
    return default_path() if db is None else db.expanduser()


# -- survey ------------------------------------------------------------------------


@click.command()
@click.argument("game")
@click.option(
    "--deals", "deal_range", required=True, metavar="FIRST-LAST", help="The deals to solve, e.g. 1-10000."
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Processes, or Dask workers for --scheduler local  [default: one per core]",
)
@db_option("the survey's results (survey.sqlite)")
@click.option(
    "--timeout",
    type=Seconds(min=TIMEOUT_LEAST, zero=True),
    default=10.0,
    show_default=True,
    help="Seconds per deal; 0: none.",
)
@click.option("--max-states", type=position_count(1), default=None, help="Positions per deal.")
@max_table_option(per_worker=True)
@click.option(
    "--retry-unknown",
    is_flag=True,
    help="Solve again, beside the deals not stored, the stored unknowns this cardtable has not tried"
    " with this budget or one as large in every part, and store what is found in their place: a verdict,"
    " or an unknown that records this budget, so that the same retry run again skips it.",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="local|tcp://HOST:PORT",
    help="Solve on a Dask cluster: a new local one, or the scheduler at this address.",
)
def survey(
    game: str,
    deal_range: str,
    workers: int | None,
    db: Path | None,
    timeout: float,
    max_states: int | None,
    max_table: int,
    retry_unknown: bool,
    scheduler: str | None,
) -> None:
    """Solve every deal of a range of GAME and store the verdicts.

    Runs in parallel on all cores unless --workers says otherwise. Results are
    stored as they come: interrupt at will, then run the same command again to
    go on. A deal stored when a run starts is not solved again, and no deal is
    ever counted twice; two surveys of overlapping ranges at once may each
    solve a deal, and the first result stored is kept (a verdict over an unknown).
    """
    spec = load_game(game)
    deals = parse_deal_range(deal_range)
    budget = Limit(states=max_states, seconds=timeout or None, table=max_table)
    if scheduler is not None:
        check_scheduler(scheduler)
    if workers is not None and scheduler not in (None, LOCAL):
        raise OptionConflictError(
            f"--workers {workers} starts workers here; the cluster at {scheduler} has its own: leave it out"
        )
    path = _store_path(db)
    made_here = not path.exists()
    try:
        with ResultStore(path) as store:
            job = Survey(store, spec, deals, budget, retry_unknown=retry_unknown)
            try:
                with ended_as_ctrl_c(signal.SIGTERM, signal.SIGHUP):
                    _run(job, scheduler, workers or default_workers())
            except KeyboardInterrupt as stop:
                how = f"stopped ({stop})" if isinstance(stop, Terminated) else "interrupted"
                click.echo(f"cardtable: {how}; {_done_text(job)}; run again to go on", err=True)
                sys.exit(stop.exit_code if isinstance(stop, Terminated) else INTERRUPTED_EXIT)
    except (SchedulerError, WorkerLostError, WorkerMismatchError):
        if made_here:  # a survey whose workers never gave a result leaves no empty database behind
            remove_if_empty(path)
        raise
    click.echo(f"{spec.id} deals {deal_range.strip()}: {_done_text(job)}; {_rate_text(job.tally)}")
    click.echo(f"results in {store.path}")


def _run(job: Survey, scheduler: str | None, workers: int) -> None:
    """Run the survey with a progress bar on standard error."""
    if not job.todo:
        return
    with executor(scheduler, min(workers, job.todo), command=True) as pool, _progress_bar() as progress:
        task = progress.add_task(job.spec.id, total=job.todo, won=0)

        def advance(outcome: Outcome) -> None:
            progress.update(task, advance=1, won=job.tally.verdicts["won"])

        job.run(pool, on_result=advance)


class _RateColumn(ProgressColumn):
    """Deals solved per second, over rich's recent window."""

    def render(self, task: Task) -> Text:
        return Text(f"{task.speed or 0:.1f} deals/s", style="progress.data.speed")


def _progress_bar() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TextColumn("won {task.fields[won]}"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    )


def _done_text(job: Survey) -> str:
    tally = job.tally
    counts = ", ".join(f"{verdict} {count}" for verdict, count in tally.verdicts.items())
    skipped = "decided or tried with as large a budget before" if job.retry_unknown else "stored before"
    stored = f"{tally.stored} stored"
    # a result is kept over this run's only when another survey stored it after this run was planned
    if kept := tally.solved - tally.stored:
        stored += f" ({kept} kept the result another survey stored meanwhile)"
    return f"{tally.solved} solved ({counts}), {stored}, {tally.skipped} {skipped}"


def _rate_text(tally: Tally) -> str:
    rate = tally.solved / tally.seconds if tally.seconds else 0.0
    return f"{tally.seconds:.1f} s, {rate:.1f} deals/s"


# -- report ------------------------------------------------------------------------


@click.command()
@click.argument("game")
@db_option("the survey's results (survey.sqlite)")
@click.option("--deals", "deal_range", default=None, metavar="FIRST-LAST", help="Only these deals.")
@click.option(
    "--plot", "plot_path", default=None, metavar="FILE.png", help="Draw the estimate and the times."
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@click.option(
    "--solutions",
    "solutions_path",
    default=None,
    metavar="FILE.jsonl",
    help="Write every win kept as a solution, one a line, for 'cardtable check FILE'"
    " ('-': standard output, the report then going to standard error).",
)
@click.option(
    "--csv",
    "csv_path",
    default=None,
    metavar="FILE.csv",
    help="Write every deal's result, a row each ('-': standard output, the report then going to standard error).",
)
def report(
    game: str,
    db: Path | None,
    deal_range: str | None,
    plot_path: str | None,
    as_json: bool,
    solutions_path: str | None,
    csv_path: str | None,
) -> None:
    """Report a survey of GAME: verdicts, winnability with its 95% interval, solve times.

    --solutions writes the survey's wins as solutions (JSON Lines in the shared
    format, by deal number), so that anyone can replay every one of them with
    'cardtable check' or a checker of their own. Wins stored by a cardtable
    that did not keep winning lines are counted, not written. --csv writes
    every deal's verdict, positions, seconds, line length, budget and
    cardtable version, for a spreadsheet or benchmarks/floor.py.
    """
    spec = load_game(game)
    deals = parse_deal_range(deal_range) if deal_range is not None else None
    outputs = {"--plot": plot_path, "--solutions": solutions_path, "--csv": csv_path}
    _check_outputs(_store_path(db), {option: path for option, path in outputs.items() if path is not None})
    with (
        ResultStore(_store_path(db), create=False) as store,
        store.snapshot(),
        Staging(_export_error, dash=True) as staging,
    ):
        outcomes = store.outcomes(spec.id, spec.rules_version, deals)
        settings = store.settings(spec.id, spec.rules_version, deals)
        held = None if outcomes else _what_is_held(store, spec)  # a mistyped id looks like an empty survey
        if held is not None and any(outputs.values()):  # leave the files as they are
            asked = f" in {deal_range.strip()}" if deal_range is not None else ""
            raise ExportError(f"no deal of {spec.id}{asked} to write: {held}; nothing was written")
        exported = _export(store, spec, deals, outcomes, staging, plot_path, solutions_path, csv_path)
    summary = summarize(outcomes)
    exported_to_standard_output = any(
        path == STDOUT or goes_to_standard_output(path) for path in outputs.values() if path is not None
    )
    if as_json:  # nothing found: the note says what the database holds instead, as the text does
        out = report_json(spec, store.path, deals, summary, settings) | exported.fields()
        out |= {} if held is None else {"note": held}
        click.echo(json.dumps(out, indent=2), err=exported_to_standard_output)
    else:
        lines = report_lines(spec, store.path, outcomes, summary, settings, deals) + exported.lines()
        lines += [] if held is None else [f"note           {held}"]
        click.echo("\n".join(lines), err=exported_to_standard_output)  # the export has standard output


def _export(
    store: ResultStore,
    spec: GameSpec,
    deals: range | None,
    outcomes: list[Outcome],
    staging: Staging,
    plot_path: str | None,
    solutions_path: str | None,
    csv_path: str | None,
) -> Exported:
    """Write what ``--plot``, ``--solutions`` and ``--csv`` ask for into ``staging``; what was written."""
    if plot_path is not None:  # first: matplotlib refuses more than a file system does
        from cardtable.survey.plot import draw, picture  # matplotlib only when a plot is asked for

        staging.data(plot_path, picture(draw(outcomes, f"{spec.name}: {_span(outcomes)}"), plot_path))
    written = None
    if solutions_path is not None:
        written = write_solutions(store, spec, deals, solutions_path, staging)
    in_csv = None
    if csv_path is not None:
        in_csv = (csv_path, write_csv(store.rows(spec.id, spec.rules_version, deals), csv_path, staging))
    return Exported(plot_path, written, in_csv)


@dataclasses.dataclass(frozen=True)
class Exported:
    """What ``report`` wrote beside the report, for the report to say: the plot, the solutions, the CSV and its deals."""

    plot: str | None
    solutions: Written | None
    csv: tuple[str, int] | None

    def fields(self) -> dict[str, Any]:
        """The report's JSON fields for them."""
        out: dict[str, Any] = {}
        if self.solutions is not None:
            out["solutions"] = dataclasses.asdict(self.solutions)
        if self.csv is not None:
            out["csv"] = {"file": self.csv[0], "deals": self.csv[1]}
        if self.plot is not None:
            out["plot"] = self.plot
        return out

    def lines(self) -> list[str]:
        """The report's lines for them."""
        out = []
        if self.solutions is not None:
            out.append(f"solutions      {_written_text(self.solutions)}")
        if self.csv is not None:
            out.append(f"csv            {plural(self.csv[1], 'deal')} written to {_shown(self.csv[0])}")
        if self.plot is not None:
            out.append(f"plot           drawn in {self.plot}")
        return out


def _what_is_held(store: ResultStore, spec: GameSpec) -> str:
    """What a database holds, for a report that found nothing: other deals of the game, its results
    under other rules, or other games."""
    span = store.span(spec.id, spec.rules_version)
    if span is not None:
        count, first, last = span
        return f"this database holds {plural(count, 'deal')} of {spec.id}, from {first} to {last}: none in the range asked"
    held = store.games()
    if spec.id in held:
        versions = ", ".join(map(str, store.rules_versions(spec.id)))
        return (
            f"this database holds {spec.id} only under rules version {versions}, and this cardtable plays"
            f" version {spec.rules_version}: survey it again to report it"
        )
    return f"this database holds {', '.join(held) or 'no results yet'}"


@dataclasses.dataclass(frozen=True)
class Written:
    """What ``--solutions`` wrote: where, how many wins, and how many it could not (no line kept)."""

    file: str
    solutions: int
    without_line: int


def write_solutions(
    store: ResultStore, spec: GameSpec, deals: range | None, path: str, staging: Staging
) -> Written:
    """Write the wins kept in ``store`` as solutions, one JSON line each, by deal number, in ``path`` (see :func:`_exported`).

    Each is the deal, ``won``, its moves and what the search cost, so that a
    checker needs nothing of ours: the deal is dealt again from its number, and
    the line is played on it, so that a redeal, kept as the word alone, is
    written with the fans it makes, as formats.md writes a redeal.
    """
    count = 0
    with _exported(path, staging) as file:
        for outcome in store.lines(spec.id, spec.rules_version, deals):
            assert outcome.line is not None
            try:
                moves = _played(deal(spec, outcome.deal), stored_moves(outcome.line))
            except CardtableError as problem:
                raise ExportError(
                    f"the line kept for deal {outcome.deal} is damaged: {problem}; nothing was written"
                ) from None
            stats = {"seconds": outcome.seconds, "states": outcome.states}
            file.write(json.dumps(Solution(deal(spec, outcome.deal), "won", moves, stats).to_dict()) + "\n")
            count += 1
    return Written(path, count, store.lineless(spec.id, spec.rules_version, deals))


def _played(state: State, moves: list[Move]) -> list[Move]:
    """``moves`` as made from ``state``, each redeal with its fans; IllegalMoveError if one cannot be made."""
    for move in moves:
        state.push_checked(move)
    return state.move_stack


class ExportError(CardtableError):
    """A file of ``report --plot``, ``--solutions`` or ``--csv`` could not be written; the message says what was."""


def _export_error(path: str, why: str) -> ExportError:
    return ExportError(f"cannot write {'standard output' if path == STDOUT else repr(path)}: {why}")


SQLITE_COMPANIONS: Final = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a database while it works on it."""


def _check_outputs(db: Path, outputs: dict[str, str]) -> None:
    """Refuse outputs that would overwrite the results database or each other, or that cannot be
    written where they are asked, before anything is written."""
    plot = outputs.get("--plot")
    if plot is not None and not Path(plot).suffix:  # matplotlib would write plot.png: another file
        raise ExportError(
            f"--plot {plot!r} has no file type: give a name such as plot.png, plot.svg or plot.pdf"
        )
    for path in outputs.values():  # before the first is written, so that none is
        if (problem := _unwritable(path)) is not None:
            raise ExportError(f"cannot write {path!r}: {problem}; nothing was written")
    seen = {_identity(db): "the results database"}
    for companion in SQLITE_COMPANIONS:  # SQLite's own files beside it, which it would delete or read back
        seen[_identity(Path(f"{db}{companion}"))] = f"the results database's {companion} file"
    for option, path in outputs.items():
        where = _identity(Path(path))
        if where in seen:
            raise ExportError(f"{option} {path!r} is {seen[where]}: it would be written over")
        seen[where] = f"the {option} file too"


def _unwritable(path: str) -> str | None:
    """Why an export cannot be written at ``path`` (its name, its folder), or None if it can."""
    if (problem := name_problem(path)) is not None:
        return problem
    if is_stream(path):  # a pipe or a device is written to where it is
        return None
    target = Path(os.path.realpath(path))  # through a link, the file it names is replaced
    return folder_problem(target) or read_only_folder(target)


def _identity(path: Path) -> tuple[int, int] | Path:
    """What names a file whatever the path to it: its device and inode if it exists, else its full path."""
    try:
        found = path.stat()
    except OSError:
        return path.resolve()
    return found.st_dev, found.st_ino


@contextmanager
def _exported(path: str, staging: Staging) -> Iterator[IO[str]]:
    """A file that ``report`` writes, put in ``path``'s place with the others once all are whole; ``-``, standard output."""
    with staging.text(path) as file:
        yield file


def write_csv(rows: list[tuple[object, ...]], path: str, staging: Staging) -> int:
    """Write the results as CSV with a header, a deal a row, in ``path`` (see :func:`_exported`); how many deals."""
    with _exported(path, staging) as file:
        out = csv.writer(file, lineterminator="\n")
        out.writerow(ROW_COLUMNS)
        out.writerows(rows)
    return len(rows)


def _shown(path: str) -> str:
    return "standard output" if path == STDOUT else path


def _written_text(written: Written) -> str:
    text = f"{written.solutions} written to {_shown(written.file)}"
    lineless = f"{plural(written.without_line, 'won deal')} {'keeps' if written.without_line == 1 else 'keep'} no line"
    why = "solved before cardtable kept them"
    if not written.solutions:
        return (
            text
            + f" (an empty file: {f'the {lineless}, {why}' if written.without_line else 'no won deal to write'})"
        )
    return text + (f"; {lineless} ({why})" if written.without_line else "")


def report_json(
    spec: GameSpec, path: Path, deals: range | None, summary: Summary, settings: list[SettingsUsed]
) -> dict[str, Any]:
    """The report for machines: the summary's fields, with where they came from."""
    return {
        "game": spec.id,
        "rules_version": spec.rules_version,
        "db": str(path),
        "deals": None if deals is None else [deals.start, deals.stop - 1],
        **dataclasses.asdict(summary),
        "confidence": 0.95,
        "settings": [_settings_json(used) for used in settings],
    }


def _settings_json(used: SettingsUsed) -> dict[str, Any]:
    """One budget used, its parts named as the options that set them (``--timeout``, ``--max-states``)."""
    budget = used.budget
    return {
        "budget": {"timeout": budget.seconds, "max_states": budget.states, "table": budget.table},
        "version": used.version,
        "deals": used.deals,
        "unknown": used.unknown,
    }


UNKNOWN_SHARE_TO_WARN = 0.05
"""Past this share of unknown deals the report says that the decided-only figure is biased."""


def report_lines(
    spec: GameSpec,
    path: Path,
    outcomes: list[Outcome],
    summary: Summary,
    settings: list[SettingsUsed],
    asked: range | None = None,
) -> list[str]:
    """The report for people, one fact a line; ``asked`` is the range asked for, if one was."""
    w = summary.winnability
    decided = summary.won + summary.unwinnable
    missing = len(asked) - summary.surveyed if asked is not None and summary.surveyed else 0
    lines = [
        f"{spec.id}, rules version {spec.rules_version}: {_span(outcomes)}, from {path}",
        f"surveyed       {summary.surveyed}"
        + (f" of the {plural(len(asked or ()), 'deal')} asked ({missing:,} not surveyed)" if missing else ""),
        f"won            {summary.won}",
        f"unwinnable     {summary.unwinnable}",
        f"unknown        {summary.unknown}",
    ]
    if w.estimate is None:
        lines.append("winnability    no deal decided yet")
    else:
        lines.append(
            f"winnability    {_pct(w.estimate)}, 95% Wilson interval {_interval(w.interval)}"
            f" (of {decided} decided)"
        )
    lines.append(f"with unknowns  {_interval(w.interval_with_unknowns)} (unknowns all lost .. all won)")
    if summary.unknown > UNKNOWN_SHARE_TO_WARN * summary.surveyed:
        lines.append(
            f"caution        {_pct(summary.unknown / summary.surveyed)} of the deals are unknown: they are the"
            " hardest, not a sample, so quote the range with unknowns"
        )
    if summary.seconds is not None:
        t = summary.seconds
        lines.append(
            f"solve time     median {t.median:.3f} s, p90 {t.p90:.3f} s, p99 {t.p99:.3f} s,"
            f" max {t.max:.3f} s (total {t.total:.1f} s"
            + (f"; the {len(settings)} budgets below together)" if len(settings) > 1 else ")")
        )
    lines += [f"solver         {_settings_text(used)}" for used in settings]
    return lines


def _span(outcomes: list[Outcome]) -> str:
    if not outcomes:
        return "no deals surveyed"
    if len(outcomes) == 1:
        return f"deal {outcomes[0].deal} only"
    return f"{len(outcomes)} deals between {outcomes[0].deal} and {outcomes[-1].deal}"


def _pct(fraction: float) -> str:
    return f"{100 * fraction:.1f}%"


def _interval(ends: tuple[float, float]) -> str:
    return f"{_pct(ends[0])} to {_pct(ends[1])}"


def _settings_text(used: SettingsUsed) -> str:
    budget = used.budget
    timeout = "no timeout" if budget.seconds is None else f"timeout {budget.seconds:g} s"
    states = "no state limit" if budget.states is None else f"max states {budget.states:,}"
    return (
        f"{timeout}, {states}, table {budget.table:,}, cardtable {used.version}: {plural(used.deals, 'deal')}"
        f" ({used.unknown:,} unknown)"
    )
