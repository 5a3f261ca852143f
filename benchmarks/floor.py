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

The files must be of one game, since a deal number means another deal in
another game. Solutions name their game on every line, a survey CSV in its
``game`` column (``report --csv`` writes one since the CSV kept in
``benchmarks/results`` was made), and ``solve.py``'s output on its summary's
``game`` line; files that name different games are refused. A file that names
none (an older CSV, or ``solve.py``'s deal lines kept without the summary, such
as ``benchmarks/results/*-survey-unknowns-*.txt``, whose game is in a note for
people) is taken to be of the game the others name, so give only files of one
game.

A file of none of the three kinds is refused, and so is a text file with no
deal line in it, unless a note names the benchmark script that made it, such
as ``# python benchmarks/sweep.py ...``: that is a run kept in
``benchmarks/results`` that gives no verdict this script reads, and it counts,
as an empty file does, as a run that decided nothing. So the command of
``docs/winnability.md``, ``floor.py benchmarks/results/acey-and-kingsley-*``,
still reads every run kept.

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
from pathlib import Path
from typing import NoReturn

from cardtable import CardtableError
from cardtable.cli.files import text_pieces
from cardtable.core.errors import reason
from cardtable.solver.search import STATUSES, Status
from cardtable.survey.stats import winnability
from deal_args import deal_numbers  # beside this script, so on its path

DECISIVE: tuple[Status, ...] = ("won", "unwinnable")
"""The verdicts that settle a deal: a line replayed, a search exhausted."""
SOLVE_LINE = re.compile(r"^\s*(\d+)\s+(won|unwinnable|unknown)\s")
GAME_LINE = re.compile(r"^game\s+(\S.*?)\s*$")
"""``solve.py``'s summary line that names the game."""
MADE_BY = re.compile(r"^#.*\bbenchmarks/\w+\.py\b")
"""A note that names the benchmark script that made a file."""
KINDS = "survey CSV (deal,verdict,...), solutions, or solve.py --verbose lines"

Verdicts = list[tuple[int, Status]]


def verdicts(path: Path) -> tuple[Verdicts, set[str]]:
    """The (deal, verdict) pairs of one file, whichever of the three kinds it is, and the games it names.

    An older CSV names no game. ValueError (or KeyError, TypeError) for a file of
    none of the kinds: text in which no line gives a deal and its verdict, and
    no note names the benchmark that made it.
    """
    text = "".join(text_pieces(str(path))).splitlines()  # a survey's files outgrow what read_text allows
    lines = [line for line in text if line.strip() and not line.startswith("#")]
    if lines and lines[0].startswith("deal,"):
        rows = list(csv.DictReader(lines))
        return [(int(row["deal"]), status(row["verdict"])) for row in rows], {
            r["game"] for r in rows if r.get("game")
        }
    if lines and lines[0].startswith("{"):
        found = [json.loads(line) for line in lines]
        pairs = [(int(solution["deal"]["deal"]), status(solution["result"])) for solution in found]
        return pairs, {str(solution["game"]) for solution in found}
    pairs = [(int(match[1]), status(match[2])) for line in lines if (match := SOLVE_LINE.match(line))]
    if lines and not pairs and not any(MADE_BY.match(line) for line in text):
        raise ValueError("no deal line")
    return pairs, {match[1] for line in lines if (match := GAME_LINE.match(line))}


def status(verdict: str) -> Status:
    """A verdict as read; ValueError if it is none of the three."""
    for known in STATUSES:
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
    runs = {str(path): read_run(path, deals) for path in args.files}
    games = {path: game for path, (_, game) in runs.items()}
    one_game(games)
    settled: dict[int, tuple[Status, str]] = {}  # deal: (verdict, the first file that gave it)
    for path in args.files:
        found = runs[str(path)][0]
        for verdict in DECISIVE:
            for deal in found[verdict]:
                if settled.setdefault(deal, (verdict, str(path)))[0] != verdict:
                    sys.exit(contradiction(deal, [str(path), settled[deal][1]], games))
        print(f"{path.name:<64} " + "  ".join(f"{len(found[v]):>5} {v}" for v in STATUSES))
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


def read_run(path: Path, deals: set[int]) -> tuple[dict[Status, set[int]], str | None]:
    """The deals of ``deals`` that one file calls won, unwinnable and unknown, and its game (None: it does not say).

    A file that cannot be read, of none of the three kinds, or of several games ends the script.
    """
    found: dict[Status, set[int]] = {verdict: set() for verdict in STATUSES}
    try:
        pairs, games = verdicts(path)
    except CardtableError as problem:
        refuse(str(problem))
    except (KeyError, TypeError, ValueError):
        refuse(f"{str(path)!r} is no {KINDS} with a verdict on every row")
    if len(games) > 1:
        refuse(f"{str(path)!r} holds deals of several games: {', '.join(sorted(games))}")
    for deal, verdict in pairs:
        if deal in deals:
            found[verdict].add(deal)
    found["unknown"] -= found["won"] | found["unwinnable"]  # a file may hold a deal more than once
    return found, next(iter(games), None)


def one_game(games: dict[str, str | None]) -> None:
    """End the script if the files (by name, with the game each names or None) name different games."""
    first: dict[str, str] = {}  # game: the first file that names it
    for path, game in games.items():
        if game is not None:
            first.setdefault(game, path)
    if len(first) > 1:
        named = ", ".join(f"{game} in {path!r}" for game, path in first.items())
        refuse(f"files of different games: {named}; give the files of one game")


def contradiction(deal: int, paths: list[str], games: dict[str, str | None]) -> str:
    """What to say of a deal won in one file and proved lost in another: a bug, unless they are of two games."""
    text = f"deal {deal} won in one run and proved lost in another: {', '.join(map(repr, paths))}"
    silent = [path for path in paths if games[path] is None]
    if silent:
        text += f"; or the files are of different games, which {' and '.join(map(repr, silent))} cannot say"
    return text


def refuse(message: str) -> NoReturn:
    """End the script on a file it cannot take: one line on standard error, exit code 2 as for a bad option."""
    print(f"floor.py: error: {message}", file=sys.stderr)
    sys.exit(2)


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
        parser.error(f"cannot write {str(path)!r}: {reason(problem)}")
    print(f"{len(together)} deals written to {path}")


def plot_together(parser: argparse.ArgumentParser, path: Path, in_order: list[Status], title: str) -> None:
    """The running winnability of the verdicts together, in deal order."""
    from cardtable.survey.plot import draw_running, picture  # matplotlib only when a plot is asked for

    try:
        path.write_bytes(picture(draw_running(in_order, title), path))
    except CardtableError as problem:
        parser.error(str(problem))
    except OSError as problem:
        parser.error(f"cannot write {str(path)!r}: {reason(problem)}")
    print(f"plot written to {path}")


if __name__ == "__main__":
    main()
