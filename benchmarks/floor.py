"""What every stored run says together: the deals won, proved lost and unknown, and the winnability bounds.

    python benchmarks/floor.py FILE... [--deals 1-10000]

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
from cardtable.survey.stats import winnability
from deal_args import deal_numbers  # beside this script, so on its path

VERDICTS = ("won", "unwinnable", "unknown")
SOLVE_LINE = re.compile(r"^\s*(\d+)\s+(won|unwinnable|unknown)\s")


def verdicts(path: Path) -> Iterator[tuple[int, str]]:
    """The (deal, verdict) pairs of one file, whichever of the two kinds it is."""
    lines = [line for line in read_text(str(path)).splitlines() if line.strip() and not line.startswith("#")]
    if lines and lines[0].startswith("deal,"):
        for row in csv.DictReader(lines):
            yield int(row["deal"]), row["verdict"]
        return
    if lines and lines[0].startswith("{"):
        for line in lines:
            solution = json.loads(line)
            yield int(solution["deal"]["deal"]), solution["result"]
        return
    for line in lines:
        if match := SOLVE_LINE.match(line):
            yield int(match[1]), match[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument(
        "--deals", default="1-10000", help="the deals surveyed; those no file names count as unknown"
    )
    args = parser.parse_args()
    deals = set(deal_numbers(parser, args.deals))
    won: set[int] = set()
    lost: set[int] = set()
    for path in args.files:
        found: dict[str, set[int]] = {verdict: set() for verdict in VERDICTS}
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
        won |= found["won"]
        lost |= found["unwinnable"]
        print(f"{path.name:<64} " + "  ".join(f"{len(found[v]):>5} {v}" for v in VERDICTS))
    if both := sorted(won & lost):
        sys.exit(f"won in one run and proved lost in another: {both}")
    unknown = len(deals) - len(won) - len(lost)
    low, high = winnability(len(won), len(lost), unknown).interval_with_unknowns
    print(f"together, deals {args.deals}: {len(won)} won, {len(lost)} unwinnable, {unknown} unknown")
    print(
        f"winnable: at least {low:.1%}, at most {high:.1%} (95% Wilson bounds, unknowns counted lost, then won)"
    )
    print(f"proved lost: {', '.join(map(str, sorted(lost))) or 'none'}")


if __name__ == "__main__":
    main()
