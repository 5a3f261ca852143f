"""Where an exact sweep's time goes: CPU seconds in its main parts, in the stock phase and in the endgame.

    python benchmarks/sweep_parts.py --deals 48,182
    python benchmarks/sweep_parts.py --deals 806 --rests 10000000
    python benchmarks/sweep_parts.py --deals 806 --from 806.checkpoint --rests 3000000

Runs each deal's exact sweep with no trace (as ``benchmarks/sweep.py --room 0
--no-trace`` does), each part below wrapped in a timer, and prints a line per
deal and part: CPU seconds in the stock phase, in the endgame, and calls. A
part's seconds include what it calls; the parts are called once a batch,
a level or a chunk of an endgame layer, so the timers cost little (a timer
on each of the millions of merges of two sets cost more than the merges).
Measure a change by running this before and after it: the rests swept must
be the same.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from cardtable import CardtableError, deal, load_game
from cardtable.solver.checkpoint import read
from cardtable.solver.sweep import Sweep
from cardtable.solver.updown import Search
from deal_args import deal_numbers  # beside this script, so on its path

PARTS: dict[str, tuple[type[Sweep], str]] = {
    "merging rests that came again": (Sweep, "_merged"),
    "reading waste tops": (Sweep, "_waste_tops"),
    "cards home from a batch": (Sweep, "_home_moves"),
    "endgame moves of a chunk": (Sweep, "_endgame_moves"),
}


Seconds = defaultdict[tuple[str, str], float]
Calls = Counter[tuple[str, str]]


def timed(seconds: Seconds, calls: Calls, phase: list[str]) -> None:
    """Wrap each part in a timer that adds to ``seconds`` and ``calls`` under the phase at hand (``phase[0]``)."""
    for name, (owner, attribute) in PARTS.items():
        setattr(owner, attribute, _timer(getattr(owner, attribute), name, seconds, calls, phase))


def _timer(
    original: Callable[..., Any], name: str, seconds: Seconds, calls: Calls, phase: list[str]
) -> Callable[..., Any]:
    def part(*args: Any) -> Any:
        begun = time.process_time()
        try:
            return original(*args)
        finally:
            seconds[name, phase[0]] += time.process_time() - begun
            calls[name, phase[0]] += 1

    return part


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="48")
    parser.add_argument(
        "--rests",
        type=int,
        default=1 << 62,
        help="stop each sweep after this many rests (a deal too large to sweep whole)",
    )
    parser.add_argument(
        "--from",
        dest="kept",
        type=Path,
        help="go on from this checkpoint of benchmarks/sweep.py (one deal, its own)",
    )
    args = parser.parse_args()
    numbers = deal_numbers(parser, args.deals)
    if args.rests < 1:
        parser.error(f"--rests must be at least 1, not {args.rests}")
    if args.kept is not None and len(numbers) != 1:
        parser.error("--from goes on with one deal's sweep")
    seconds: Seconds = defaultdict(float)
    calls: Calls = Counter()
    phase = ["stock"]
    timed(seconds, calls, phase)
    endgame = Sweep._endgame

    def into_endgame(sweep: Sweep) -> Iterator[int]:
        phase[0] = "endgame"
        return endgame(sweep)

    setattr(Sweep, "_endgame", into_endgame)  # noqa: B010 (a method replaced, which mypy would refuse)
    for number in numbers:
        seconds.clear()
        calls.clear()
        phase[0] = "stock"
        search = Search(deal(load_game("acey-and-kingsley"), number))
        try:
            sweep = (
                Sweep(search, None, trace=False)
                if args.kept is None
                else Sweep.resumed(search, read(args.kept)[0], None)
            )
        except CardtableError as problem:  # a checkpoint unreadable, or of another deal
            parser.exit(2, f"{parser.prog}: error: {problem}\n")
        begun = time.process_time()
        before = search.states
        over = sweep.advance(before + args.rests, lambda: None)
        total = time.process_time() - begun
        verdict = ("won" if sweep.won else "unwinnable") if over else "stopped"
        print(f"{number:>8} {verdict:<10} {search.states - before:>12,} rests {total:>8.1f} s of CPU in all")
        for name in PARTS:
            stock, end = seconds[name, "stock"], seconds[name, "endgame"]
            count = calls[name, "stock"] + calls[name, "endgame"]
            print(f"{'':>8} {name:<32} {stock:>8.2f} s stock {end:>8.2f} s endgame {count:>11,} calls")


if __name__ == "__main__":
    main()
