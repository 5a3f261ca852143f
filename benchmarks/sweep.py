"""The sweep alone on Acey and Kingsley deals: its verdict, rests swept, weight, time and memory.

    python benchmarks/sweep.py --deals 48,194 [--room 6000000] [--progress 60] [--no-trace]
        [--width W] [--solutions FILE]

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
memory so far. A sweep with no bound can run for many minutes: ``--progress S``
prints where it stands every S seconds, on standard error. ``--no-trace`` keeps
only what is left to sweep, not what a win would be traced through: a proof
that a deal is lost then takes far less memory, and a win is said, not traced
(the solver would trace it). ``--width W`` narrows the sweep from its first
card to the W most promising rests a card (:meth:`~cardtable.solver.sweep.Sweep._narrow`):
a beam over rests, which can win but proves nothing when it ends without a
win. ``--solutions FILE`` adds each traced win's line, and each loss, to FILE as
a line of JSON (formats.md), which ``cardtable check`` replays.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from cardtable import deal, load_game
from cardtable.formats import Solution
from cardtable.solver.search import DEFAULT_TABLE_CAP
from cardtable.solver.sweep import Sweep, SweepTooLarge
from cardtable.solver.updown import Search, unpack
from deal_args import (  # beside this script, so on its path
    add_solution,
    deal_numbers,
    solutions_file,
    sweep_width,
)

LOOK_EVERY = 20_000
"""Rests swept between two looks at the clock, when progress is asked for."""


def sweep_deal(
    number: int,
    room: int | None,
    progress: float,
    *,
    trace: bool = True,
    width: int | None = None,
    solutions: str | None = None,
) -> str:
    """One deal's line; every ``progress`` seconds (0: never) a line on standard error; a decided deal's solution added to ``solutions``."""
    start = deal(load_game("acey-and-kingsley"), number)
    search = Search(start)
    search.due = LOOK_EVERY if progress else 1 << 62  # the sweep calls look() when it is reached
    sweep = Sweep(search, room, width, trace=trace)
    started = shown = time.perf_counter()

    def look() -> None:
        nonlocal shown
        search.due = search.states + LOOK_EVERY
        if time.perf_counter() - shown >= progress:
            shown = time.perf_counter()
            card = f"card {sweep.dealt + 1}" if sweep.dealt < len(search.line) else "endgame"
            print(f"{number:>8} {card:<24} {_standing(sweep, started)}", file=sys.stderr, flush=True)

    try:
        sweep.advance(1 << 62, look)
        if sweep.won:
            verdict = "won" if sweep.win is not None else "won, not traced"
        else:
            verdict = f"no win {sweep.width:,} wide" if sweep.narrowed else "unwinnable"
    except SweepTooLarge:
        verdict = f"gave way at card {sweep.dealt + 1}"
    if solutions and verdict in ("won", "unwinnable"):
        moves = search.realise(unpack(sweep.win)) if sweep.win is not None else []
        stats = {
            "seconds": round(time.perf_counter() - started, 4),
            "states": search.states,
            "weight": sweep.weight,  # where the sweep ended, not its peak
        }
        add_solution(solutions, Solution(start, verdict, moves, stats))
    return f"{number:>8} {verdict:<24} {_standing(sweep, started)}"


def _standing(sweep: Sweep, started: float) -> str:
    """Rests swept (in all, and once the stock is out), weight, seconds and peak memory so far."""
    seconds = time.perf_counter() - started
    endgame = sweep.endgame_swept
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # kilobytes on Linux
    return (
        f"{sweep.search.states:>11,} rests swept {endgame:>11,} after the stock"
        f" {sweep.weight:>11,} weight {seconds:>8.1f} s {peak:>6.2f} GB peak"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="194,48")
    parser.add_argument(
        "--room", type=int, default=DEFAULT_TABLE_CAP, help="table positions it may weigh; 0: no bound"
    )
    parser.add_argument(
        "--progress", type=float, default=0, help="seconds between progress lines on stderr; 0: none"
    )
    parser.add_argument(
        "--no-trace",
        action="store_true",
        help="keep only what is left to sweep: less memory, wins not traced",
    )
    parser.add_argument(
        "--width",
        type=int,
        default=None,
        help="rests kept after each stock card, from the first; default: all",
    )
    parser.add_argument(
        "--solutions", metavar="FILE", help="add each decided deal's solution to FILE (JSON Lines)"
    )
    args = parser.parse_args()
    numbers = deal_numbers(parser, args.deals)
    sweep_width(parser, args.width)
    solutions_file(parser, args.solutions)
    for number in numbers:
        line = sweep_deal(
            number,
            args.room or None,
            args.progress,
            trace=not args.no_trace,
            width=args.width,
            solutions=args.solutions,
        )
        print(line, flush=True)


if __name__ == "__main__":
    main()
