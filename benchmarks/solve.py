"""Solve a range of deals and print how the solver did: verdicts, times, speed.

    python benchmarks/solve.py GAME --deals 1-1000 [--timeout 60] [--max-states N] [--max-table N]
        [--verbose] [--solutions FILE]

``--deals`` takes ranges and single deals, comma-separated (``13,40-42``).
``--solutions`` adds each decided deal's solution to FILE as a line of JSON
(formats.md), as it comes, so that ``cardtable check FILE`` can replay the
wins of a run that a time budget makes hard to repeat.

One process, one deal after another, as a player's machine would. With
``--max-states`` (and ``--timeout 0``) every deal gets the same number of
positions, so the verdicts are the same on any machine and only the times vary.
``p90 s`` is the nearest-rank percentile that ``cardtable report`` gives (of 25
deals, the 23rd fastest); ``median s`` is the usual median, the mean of the two
middle times for an even count, as the runs kept in ``benchmarks/results`` have it.
"""

from __future__ import annotations

import argparse
import statistics
import time

from cardtable import CardtableError, deal, load_game
from cardtable.formats import Solution
from cardtable.solver import Limit, solve
from cardtable.solver.search import DEFAULT_TABLE_CAP
from cardtable.survey.stats import percentile  # nearest rank, as `cardtable report` gives it
from deal_args import add_solution, deal_numbers, solutions_file  # beside this script, so on its path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--deals", default="1-100")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a deal; 0: no limit")
    parser.add_argument("--max-states", type=int, default=None, help="positions a deal")
    parser.add_argument(
        "--max-table", type=int, default=DEFAULT_TABLE_CAP, help="positions a deal may keep in memory"
    )
    parser.add_argument("--verbose", action="store_true", help="print a line per deal")
    parser.add_argument(
        "--solutions", metavar="FILE", help="add each decided deal's solution to FILE (JSON Lines)"
    )
    args = parser.parse_args()
    try:
        spec = load_game(args.game)
    except CardtableError as problem:
        parser.error(str(problem))
    numbers = deal_numbers(parser, args.deals)
    solutions_file(parser, args.solutions)
    counts = {"won": 0, "unwinnable": 0, "unknown": 0}
    seconds: list[float] = []
    states = 0
    started = time.perf_counter()
    for number in numbers:
        start = deal(spec, number)
        result = solve(
            start, Limit(states=args.max_states, seconds=args.timeout or None, table=args.max_table)
        )
        if args.solutions and result.status != "unknown":
            add_solution(args.solutions, Solution(start, result.status, result.moves, result.stats))
        counts[result.status] += 1
        seconds.append(result.seconds)
        states += result.states
        if args.verbose:
            print(f"{number:>8} {result.status:<10} {result.seconds:8.3f} s {result.states:>9} states")
    total = time.perf_counter() - started
    print(f"game        {spec.id}")
    print(f"deals       {args.deals if len(args.deals) <= 40 else args.deals[:37] + '...'} ({len(seconds)})")
    print(f"won         {counts['won']}")
    print(f"unwinnable  {counts['unwinnable']}")
    budget = [f"timeout {args.timeout:g} s" if args.timeout else "no timeout"]
    if args.max_states is not None:
        budget.append(f"max states {args.max_states:,}")
    if args.max_table != DEFAULT_TABLE_CAP:
        budget.append(f"max table {args.max_table:,}")
    print(f"unknown     {counts['unknown']} ({', '.join(budget)})")
    print(f"median s    {statistics.median(seconds):.3f}")
    print(f"p90 s       {percentile(seconds, 0.9):.3f}")
    print(f"max s       {max(seconds):.3f}")
    print(f"total s     {total:.1f}")
    print(f"states/s    {states / max(sum(seconds), 1e-9):,.0f}")


if __name__ == "__main__":
    main()
