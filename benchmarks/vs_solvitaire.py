"""Our solver and Solvitaire side by side on the same deals: verdicts deal by deal, and times.

    python benchmarks/vs_solvitaire.py GAME --solvitaire PATH [--deals 1-200] [--timeout 60]

Solvitaire is Blake and Gent's C++ solver (GPL). It is not part of cardtable and
nothing here builds it: build it yourself and give the path of its binary. GAME
must be one whose rules Solvitaire can state (``fan``,
``alexander-the-great-lucie(redeals=0)``): :mod:`cardtable.interop.solvitaire`
writes its deal and rules files, with our rules spelled out in full.

For each deal, one after the other on one core: our solver runs in this process,
then one Solvitaire process runs (``--custom-rules R --classify --timeout MS D``).
Both get the same per-deal timeout. The times reported:

* cardtable: the search's own seconds (the deal is already in memory);
* solvitaire, own: the milliseconds it prints for its search alone;
* solvitaire, wall: the whole process, start-up and reading the JSON included.

A timeout counts its full budget in the totals. Verdicts: Solvitaire's ``solved``
is won, ``unsolvable`` unwinnable, anything else (timed-out, memory limit, no
answer) unknown. A deal where one says won and the other unwinnable is a
disagreement, listed by number: at least one of the rules files, our solver or
Solvitaire is wrong there. With ``--keep DIR`` the deal, rules and our solution
files stay in DIR, so that ``cardtable check DIR/solution-N.json`` can replay a
win and ``solvitaire --custom-rules DIR/rules.json DIR/deal-N.json`` show its.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from cardtable import State, deal, load_game
from cardtable.core.deals import parse_deal_range
from cardtable.core.errors import CardtableError
from cardtable.formats import Solution, replay
from cardtable.interop.solvitaire import check_supported, deal_json, read_classify_line, rules_json
from cardtable.solver import Limit, solve

GRACE_SECONDS = 10.0
"""How long past its own timeout a Solvitaire process may run before we kill it."""


@dataclass
class Outcome:
    """One tool's answer on one deal."""

    verdict: str  # won, unwinnable, unknown
    seconds: float  # the tool's own time for the search
    wall: float  # the whole run, as we timed it
    note: str = ""


@dataclass
class Row:
    """Both tools' answers on one deal."""

    number: int
    ours: Outcome
    theirs: Outcome

    @property
    def disagrees(self) -> bool:
        return {self.ours.verdict, self.theirs.verdict} == {"won", "unwinnable"}


def run_ours(state: State, timeout: float, folder: Path) -> Outcome:
    """Our solver in-process; a win is replayed and saved as a solution file."""
    started = time.perf_counter()
    result = solve(state, Limit(seconds=timeout))
    wall = time.perf_counter() - started
    note = ""
    if result.status == "won":
        solution = Solution(state, "won", result.moves, result.stats)
        (folder / f"solution-{state.deal_number}.json").write_text(json.dumps(solution.to_dict()))
        problem = replay(solution).problem
        note = f"our win does not replay: {problem}" if problem else ""
    return Outcome(result.status, result.seconds, wall, note)


def run_theirs(command: list[str], deal_path: Path, timeout: float) -> Outcome:
    """One Solvitaire process on one deal file, read through its ``--classify`` line."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [*command, str(deal_path)], capture_output=True, text=True, timeout=timeout + GRACE_SECONDS
        )
    except subprocess.TimeoutExpired:
        return Outcome("unknown", timeout, time.perf_counter() - started, "killed past its timeout")
    wall = time.perf_counter() - started
    lines = [line for line in done.stdout.splitlines() if line.startswith(",")]
    if done.returncode != 0 or not lines:
        why = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return Outcome("unknown", wall, wall, f"no answer: {why}")
    try:
        verdict, milliseconds = read_classify_line(lines[-1])
    except CardtableError as problem:
        return Outcome("unknown", wall, wall, str(problem))
    return Outcome(verdict, milliseconds / 1000, wall)


def compare(game: str, deals: range, binary: str, timeout: float, folder: Path, verbose: bool) -> list[Row]:
    """Write the rules once, then solve each deal with both tools."""
    spec = load_game(game)
    rules_path = folder / "rules.json"
    rules_path.write_text(rules_json(spec))
    command = [
        binary,
        "--custom-rules",
        str(rules_path),
        "--classify",
        "--timeout",
        str(round(timeout * 1000)),
    ]
    rows = []
    for number in deals:
        state = deal(spec, number)
        deal_path = folder / f"deal-{number}.json"
        deal_path.write_text(deal_json(state))
        row = Row(number, run_ours(state, timeout, folder), run_theirs(command, deal_path, timeout))
        rows.append(row)
        if verbose:
            print(row_line(row), flush=True)
    return rows


def row_line(row: Row) -> str:
    """One deal: both verdicts and times, and a mark where they disagree."""
    ours, theirs = row.ours, row.theirs
    mark = "  DISAGREE" if row.disagrees else ""
    notes = "; ".join(n for n in (ours.note, theirs.note) if n)
    return (
        f"{row.number:>7}  cardtable {ours.verdict:<10} {ours.seconds:8.3f} s   "
        f"solvitaire {theirs.verdict:<10} {theirs.seconds:8.3f} s (wall {theirs.wall:7.3f}){mark}"
        + (f"  [{notes}]" if notes else "")
    )


def ratio(mine: float, theirs: float) -> str:
    """How many times as long we took, or n/a when their time is zero."""
    return f"{mine / theirs:.3g}x" if theirs > 0 else "n/a"


def report(game: str, deals: range, timeout: float, rows: list[Row], load: tuple[float, float]) -> None:
    """The table: counts, times and ratios, then agreements with every disagreement listed."""
    print(f"game            {game}")
    print(
        f"deals           {deals.start}-{deals.stop - 1} ({len(rows)}), timeout {timeout:g} s per deal and tool"
    )
    print(f"load average    {load[0]:.2f} at the start, {load[1]:.2f} at the end (2 shared cores)")
    print_counts(rows)
    print_times(rows)
    print_agreement(rows)


def print_counts(rows: list[Row]) -> None:
    """Each tool's won, unwinnable and unknown deals."""
    print(f"{'':16}{'cardtable':>12}{'solvitaire':>12}{'(wall)':>12}")
    for verdict in ("won", "unwinnable", "unknown"):
        ours = sum(r.ours.verdict == verdict for r in rows)
        theirs = sum(r.theirs.verdict == verdict for r in rows)
        print(f"{verdict:16}{ours:>12}{theirs:>12}")


def print_times(rows: list[Row]) -> None:
    """Total and median seconds of each tool, and our time as a multiple of theirs."""
    ours = [r.ours.seconds for r in rows]
    own = [r.theirs.seconds for r in rows]
    wall = [r.theirs.wall for r in rows]
    for name, pick, digits in (("total s", sum, 2), ("median s", statistics.median, 4)):
        print(f"{name:16}{pick(ours):>12.{digits}f}{pick(own):>12.{digits}f}{pick(wall):>12.{digits}f}")
        mine = pick(ours)
        print(
            f"  {'ratio':14}{'':12}{ratio(mine, pick(own)):>12}{ratio(mine, pick(wall)):>12}  (cardtable / solvitaire)"
        )


def print_agreement(rows: list[Row]) -> None:
    """Agreements, then the disagreements, deals only one tool decided, and notes, each listed."""
    decided = [r for r in rows if "unknown" not in (r.ours.verdict, r.theirs.verdict)]
    disagreements = [r for r in rows if r.disagrees]
    one_sided = [r for r in rows if (r.ours.verdict == "unknown") != (r.theirs.verdict == "unknown")]
    noted = [r for r in rows if r.ours.note or r.theirs.note]
    print(f"agreements      {len(decided) - len(disagreements)} of the {len(decided)} deals both decided")
    for title, listed in (("disagreements", disagreements), ("one decided", one_sided), ("notes", noted)):
        print(f"{title:16}{len(listed)}" + "".join(f"\n  {row_line(r)}" for r in listed))


def parse_args() -> argparse.Namespace:
    """The options, checked up front so that a bad game or path fails before any solving."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", help="fan or 'alexander-the-great-lucie(redeals=0)'")
    parser.add_argument("--solvitaire", required=True, help="path of a Solvitaire binary you built")
    parser.add_argument("--deals", default="1-200", help="a range of deal numbers, such as 1-200")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per deal, for each tool")
    parser.add_argument(
        "--keep", metavar="DIR", help="write the deal, rules and solution files here and keep them"
    )
    parser.add_argument("--verbose", action="store_true", help="print a line per deal as it finishes")
    args = parser.parse_args()
    try:
        check_supported(load_game(args.game))
        args.deals = parse_deal_range(args.deals)
    except CardtableError as problem:
        parser.error(str(problem))
    if not os.access(args.solvitaire, os.X_OK):
        parser.error(f"--solvitaire {args.solvitaire!r} is not an executable file")
    args.solvitaire = os.path.abspath(args.solvitaire)
    return args


def main() -> None:
    args = parse_args()
    load_at_start = os.getloadavg()[0]
    if args.keep:
        folder = Path(args.keep)
        folder.mkdir(parents=True, exist_ok=True)
        rows = compare(args.game, args.deals, args.solvitaire, args.timeout, folder, args.verbose)
    else:
        with tempfile.TemporaryDirectory(prefix="vs-solvitaire-") as temp:
            rows = compare(args.game, args.deals, args.solvitaire, args.timeout, Path(temp), args.verbose)
    report(load_game(args.game).id, args.deals, args.timeout, rows, (load_at_start, os.getloadavg()[0]))


if __name__ == "__main__":
    main()
