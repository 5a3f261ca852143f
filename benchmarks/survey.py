"""Deals per second of a survey with 1 and 2 worker processes, and the scaling efficiency.

    python benchmarks/survey.py [GAME] [--deals 1-200] [--max-states 20000] [--workers 1,2]

Each worker count surveys the same deals into a fresh database, through the same
code as ``cardtable survey`` (process pool, SQLite writes, one result at a time),
so the figures include process start-up and storage, not only the solver. The
budget is in positions, so every run does the same work whatever the machine.
Scaling efficiency is the speed-up over one worker divided by the workers: 100%
is perfect; on a machine shared with other work it says how much was free.
``solver s`` sums the solver's own seconds over the deals: it stays flat as
workers are added unless they compete with other work for the cores.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from cardtable.core.deals import parse_deal_range
from cardtable.games import load_game
from cardtable.solver import Limit
from cardtable.survey.executors import process_pool
from cardtable.survey.runner import Survey, Tally
from cardtable.survey.store import ResultStore


def timed_survey(game: str, deals: range, budget: Limit, workers: int, folder: Path) -> tuple[Tally, float]:
    """One survey of ``deals`` into a new database, with ``workers`` processes; and the solver's seconds.

    The solver's own seconds, summed over deals, stay flat as workers are added
    unless the workers compete for a core (or for memory): they tell a busy
    machine from overhead in the survey.
    """
    solving: list[float] = []
    with ResultStore(folder / f"workers-{workers}.sqlite") as store, process_pool(workers) as pool:
        tally = Survey(store, load_game(game), deals, budget).run(
            pool, lambda done: solving.append(done.seconds)
        )
    return tally, sum(solving)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="fan")
    parser.add_argument("--deals", default="1-200")
    parser.add_argument("--max-states", type=int, default=20_000)
    parser.add_argument("--workers", default="1,2", help="worker counts to try, comma-separated")
    args = parser.parse_args()
    deals = parse_deal_range(args.deals)
    budget = Limit(states=args.max_states)
    counts = [int(n) for n in args.workers.split(",")]
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(
        f"{args.game}, deals {args.deals}, max states {args.max_states:,}, {os.cpu_count()} cores, load {load}"
    )
    print(
        f"{'workers':>7} {'deals':>6} {'seconds':>8} {'deals/s':>8} {'speed-up':>8} {'efficiency':>10}"
        f" {'solver s':>8}  verdicts"
    )
    base = None
    with tempfile.TemporaryDirectory() as folder:
        for workers in counts:
            tally, solving = timed_survey(args.game, deals, budget, workers, Path(folder))
            rate = tally.solved / tally.seconds
            base = base or rate / counts[0]
            speedup = rate / base
            verdicts = " ".join(f"{verdict} {n}" for verdict, n in tally.verdicts.items())
            print(
                f"{workers:>7} {tally.solved:>6} {tally.seconds:>8.2f} {rate:>8.2f}"
                f" {speedup:>8.2f} {speedup / workers:>10.0%} {solving:>8.2f}  {verdicts}"
            )


if __name__ == "__main__":
    main()
