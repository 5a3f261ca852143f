"""What every stored run says together: the deals won, proved lost and unknown, and the winnability bounds.

    python benchmarks/floor.py FILE... [--deals 1-10000] [--csv OUT] [--plot OUT.png [--title T]]

Each FILE is a survey exported as CSV (``deal,verdict,...``: ``cardtable report
GAME --csv FILE``, or ``benchmarks/results/*-survey-*.csv``), the per-deal lines of
``benchmarks/solve.py --verbose``, or solutions, a JSON object a line (``report
--solutions``, ``solve.py --solutions``); lines starting with ``#`` are notes, and a
file may be gzip-compressed. A deal
counts as won if any run won it and as lost if any proved it lost (both are
checked claims: a winning line replayed, a search exhausted), so the floor that
``docs/winnability.md`` quotes can be worked out again from the files kept. A
deal won in one run and proved lost in another would be a bug in the solver:
the script names it and fails.

``--csv`` writes what the runs say together, one row a deal (``deal,verdict,settled_by``:
the first file given that won it or proved it lost), which this script reads
back like any survey; ``--plot`` draws its running winnability in deal order,
as ``cardtable report --plot`` does for one survey (without the solve times,
which runs with different budgets do not share).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from cardtable import CardtableError
from cardtable.cli.info import read_text
from cardtable.solver.search import Status
from cardtable.survey.stats import winnability
from cardtable.survey.task import VERDICTS
from deal_args import deal_numbers  # beside this script, so on its path

DECISIVE: tuple[Status, ...] = ("won", "unwinnable")
"""The verdicts that settle a deal: a line replayed, a search exhausted."""
SOLVE_LINE = re.compile(r"^\s*(\d+)\s+(won|unwinnable|unknown)\s")


def verdicts(path: Path) -> Iterator[tuple[int, Status]]:
    """The (deal, verdict) pairs of one file, whichever of the two kinds it is."""
    lines = [line for line in read_text(str(path)).splitlines() if line.strip() and not line.startswith("#")]
    if lines and lines[0].startswith("deal,"):
        for row in csv.DictReader(lines):
            yield int(row["deal"]), status(row["verdict"])
        return
    if lines and lines[0].startswith("{"):
        for line in lines:
            solution = json.loads(line)
            yield int(solution["deal"]["deal"]), status(solution["result"])
        return
    for line in lines:
        if match := SOLVE_LINE.match(line):
            yield int(match[1]), status(match[2])


def status(verdict: str) -> Status:
    """A verdict as read; ValueError if it is none of the three."""
    for known in VERDICTS:
        if verdict == known:
            return known
    raise ValueError(verdict)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument(
        "--deals", default="1-10000", help="the deals surveyed; those no file names count as unknown"
    )
    parser.add_argument(
        "--csv", type=Path, help="write each deal's verdict together, and the file that settled it"
    )
    parser.add_argument("--plot", type=Path, help="draw the running winnability of the verdicts together")
    parser.add_argument("--title", help="the plot's title (default: the deals)")
    args = parser.parse_args()
    deals = set(deal_numbers(parser, args.deals))
    for out in (args.csv, args.plot):
        if out is not None and any(out.resolve() == path.resolve() for path in args.files):
            parser.error(f"{str(out)!r} is one of the files read: it would be overwritten")
    settled: dict[int, tuple[Status, str]] = {}  # deal: (verdict, the first file that gave it)
    for path in args.files:
        found = read_run(parser, path, deals)
        for verdict in DECISIVE:
            for deal in found[verdict]:
                if settled.setdefault(deal, (verdict, str(path)))[0] != verdict:
                    sys.exit(
                        f"deal {deal} won in one run and proved lost in another: {str(path)!r}, {settled[deal][1]!r}"
                    )
        print(f"{path.name:<64} " + "  ".join(f"{len(found[v]):>5} {v}" for v in VERDICTS))
    won, lost = ({deal for deal, (v, _) in settled.items() if v == verdict} for verdict in DECISIVE)
    unknown = len(deals) - len(won) - len(lost)
    low, high = winnability(len(won), len(lost), unknown).interval_with_unknowns
    print(f"together, deals {args.deals}: {len(won)} won, {len(lost)} unwinnable, {unknown} unknown")
    print(
        f"winnable: at least {low:.1%}, at most {high:.1%} (95% Wilson bounds, unknowns counted lost, then won)"
    )
    print(f"proved lost: {', '.join(map(str, sorted(lost))) or 'none'}")
    unsettled: tuple[Status, str] = ("unknown", "")
    together = [(deal, *settled.get(deal, unsettled)) for deal in sorted(deals)]
    if args.csv is not None:
        write_together(parser, args.csv, together)
    if args.plot is not None:
        plot_together(
            parser,
            args.plot,
            [verdict for _, verdict, _ in together],
            args.title or f"deals {args.deals}, every run together",
        )


def read_run(parser: argparse.ArgumentParser, path: Path, deals: set[int]) -> dict[Status, set[int]]:
    """The deals of ``deals`` that one file calls won, unwinnable and unknown; a file of neither kind ends the script."""
    found: dict[Status, set[int]] = {verdict: set() for verdict in VERDICTS}
    try:
        for deal, verdict in verdicts(path):
            if deal in deals:
                found[verdict].add(deal)
    except CardtableError as problem:
        parser.error(str(problem))
    except (KeyError, TypeError, ValueError):
        parser.error(
            f"{str(path)!r} is no survey CSV (deal,verdict,...) or solutions with a verdict on every row"
        )
    found["unknown"] -= found["won"] | found["unwinnable"]  # a file may hold a deal more than once
    return found


def write_together(
    parser: argparse.ArgumentParser, path: Path, together: list[tuple[int, Status, str]]
) -> None:
    """Each deal's verdict together, as a CSV this script reads back: ``deal,verdict,settled_by``."""
    try:
        with path.open("w", newline="", encoding="utf-8") as file:
            writer = csv.writer(file)
            writer.writerow(("deal", "verdict", "settled_by"))
            writer.writerows(together)
    except OSError as problem:
        parser.error(f"cannot write {str(path)!r}: {(problem.strerror or str(problem)).lower()}")
    print(f"{len(together)} deals written to {path}")


def plot_together(parser: argparse.ArgumentParser, path: Path, in_order: list[Status], title: str) -> None:
    """The running winnability of the verdicts together, in deal order."""
    from cardtable.survey.plot import draw_running  # matplotlib only when a plot is asked for

    try:
        draw_running(in_order, title, path)
    except CardtableError as problem:
        parser.error(str(problem))
    print(f"plot written to {path}")


if __name__ == "__main__":
    main()
