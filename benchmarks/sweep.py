"""The sweep alone on Acey and Kingsley deals: its verdict, rests swept, weight, time and memory.

    python benchmarks/sweep.py --deals 48,194 [--room 6000000]

The solver gives the sweep (:mod:`cardtable.solver.sweep`) turns beside its
beams; this script runs it by itself from each deal's start, to its end or
until it gives way (``--room``: the table it may weigh, in positions; 0, no
bound, and so no narrowing. Alone, it narrows, or gives way, only when its
stock phase looks set to outgrow its share of that room: in the solver, a full
table drops it too),
and prints a line per deal: the verdict (won, unwinnable, no win found once
narrowed to the width it says, or gave way, and while sweeping which stock
card's level), the rests swept, the rests swept once
the stock is out, the weight it reached, the seconds, and the process's peak
memory so far.
"""

from __future__ import annotations

import argparse
import resource
import time

from cardtable import deal, load_game
from cardtable.solver.search import DEFAULT_TABLE_CAP
from cardtable.solver.sweep import Sweep, SweepTooLarge
from cardtable.solver.updown import Search
from deal_args import deal_numbers  # beside this script, so on its path


def sweep_deal(number: int, room: int | None) -> str:
    """One deal's line."""
    search = Search(deal(load_game("acey-and-kingsley"), number))
    search.due = 1 << 62  # no budget to look at
    sweep = Sweep(search, room)
    started = time.perf_counter()
    try:
        sweep.advance(1 << 62, lambda: None)
        if sweep.win is not None:
            verdict = "won"
        else:
            verdict = f"no win {sweep.width:,} wide" if sweep.narrowed else "unwinnable"
    except SweepTooLarge:
        verdict = f"gave way at card {sweep.dealt + 1}"
    seconds = time.perf_counter() - started
    endgame = sum(len(rests) for rests, _ in sweep.layers)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # kilobytes on Linux
    return (
        f"{number:>8} {verdict:<24} {search.states:>11,} rests swept {endgame:>11,} after the stock"
        f" {sweep.weight:>11,} weight {seconds:>8.1f} s {peak:>6.2f} GB peak"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="194,48")
    parser.add_argument(
        "--room", type=int, default=DEFAULT_TABLE_CAP, help="table positions it may weigh; 0: no bound"
    )
    args = parser.parse_args()
    numbers = deal_numbers(parser, args.deals)
    for number in numbers:
        print(sweep_deal(number, args.room or None), flush=True)


if __name__ == "__main__":
    main()
