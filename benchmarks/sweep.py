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

``--checkpoint FILE`` (one deal, with ``--no-trace``) keeps where the sweep
stands in FILE, between two stock cards or endgame counts, once at least
``--every S`` seconds (default 1800) have passed since the last: run the same
command again and it goes on from FILE, its seconds counted on from those
already run. FILE is removed once the sweep ends; while it is written, the
previous checkpoint stays whole (:mod:`cardtable.solver.checkpoint`). An exact
sweep can take hours (deal 859: two hours and 17 GB), longer than one process
may be left to run.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cardtable import CardtableError, deal, load_game
from cardtable.core.errors import reason
from cardtable.formats import Solution
from cardtable.solver import checkpoint
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


@dataclass(frozen=True)
class Keeping:
    """``--checkpoint FILE --every S``: where a sweep is kept, and how often."""

    path: Path
    every: float


def sweep_deal(
    number: int,
    room: int | None,
    progress: float,
    *,
    trace: bool = True,
    width: int | None = None,
    solutions: str | None = None,
    keeping: Keeping | None = None,
) -> str:
    """One deal's line; every ``progress`` seconds (0: never) a line on standard error; a decided deal's solution added to ``solutions``.

    ``keeping``: go on from its checkpoint if there is one, and keep one
    there now and then; it is removed once the sweep ends.
    """
    start = deal(load_game("acey-and-kingsley"), number)
    search = Search(start)
    search.due = LOOK_EVERY if progress else 1 << 62  # the sweep calls look() when it is reached
    sweep, before = _begun(number, search, room, width, trace, keeping)
    started = time.perf_counter() - before
    shown = time.perf_counter()
    if keeping is not None:
        sweep.between = _keeper(number, sweep, keeping, started)

    def look() -> None:
        nonlocal shown
        search.due = search.states + LOOK_EVERY
        if time.perf_counter() - shown >= progress:
            shown = time.perf_counter()
            print(f"{number:>8} {_where(sweep):<24} {_standing(sweep, started)}", file=sys.stderr, flush=True)

    try:
        sweep.advance(1 << 62, look)
        if sweep.won:
            verdict = "won" if sweep.win is not None else "won, not traced"
        else:
            verdict = f"no win {sweep.width:,} wide" if sweep.narrowed else "unwinnable"
    except SweepTooLarge:
        verdict = f"gave way at card {sweep.dealt + 1}"
    if keeping is not None:
        keeping.path.unlink(missing_ok=True)
    if solutions and verdict in ("won", "unwinnable"):
        moves = search.realise(unpack(sweep.win)) if sweep.win is not None else []
        stats = {
            "seconds": round(time.perf_counter() - started, 4),
            "states": search.states,
            "weight": sweep.weight,  # where the sweep ended, not its peak
        }
        add_solution(solutions, Solution(start, verdict, moves, stats))
    return f"{number:>8} {verdict:<24} {_standing(sweep, started)}"


def _begun(
    number: int, search: Search, room: int | None, width: int | None, trace: bool, keeping: Keeping | None
) -> tuple[Sweep, float]:
    """The sweep from the deal's start, or from the checkpoint kept, with the seconds it ran before."""
    if keeping is None or not keeping.path.exists():
        return Sweep(search, room, width, trace=trace), 0.0
    kept, seconds = checkpoint.read(keeping.path)
    sweep = Sweep.resumed(search, kept, room, width)
    print(f"{number:>8} {_where(sweep):<24} resumed from {str(keeping.path)!r}", file=sys.stderr, flush=True)
    return sweep, seconds


def _keeper(number: int, sweep: Sweep, keeping: Keeping, started: float) -> Callable[[], None]:
    """What the sweep calls between two stock cards or endgame counts: a checkpoint, once ``keeping.every`` seconds have passed."""
    last = time.perf_counter()

    def keep() -> None:
        nonlocal last
        if time.perf_counter() - last >= keeping.every:
            begun = time.perf_counter()
            checkpoint.write(keeping.path, sweep.checkpoint(), begun - started)
            last = time.perf_counter()
            size = keeping.path.stat().st_size / 1e9
            kept = f"kept in {str(keeping.path)!r}: {size:.2f} GB in {last - begun:.1f} s"
            print(f"{number:>8} {_where(sweep):<24} {kept}", file=sys.stderr, flush=True)

    return keep


def _where(sweep: Sweep) -> str:
    """The stock card being swept, or the endgame."""
    return f"card {sweep.dealt + 1}" if sweep.dealt < len(sweep.search.line) else "endgame"


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
    parser.add_argument(
        "--checkpoint", metavar="FILE", help="keep the sweep in FILE now and then, and go on from it"
    )
    parser.add_argument(
        "--every", type=float, default=1800, help="seconds between two checkpoints at least (default 1800)"
    )
    args = parser.parse_args()
    numbers = deal_numbers(parser, args.deals)
    sweep_width(parser, args.width)
    solutions_file(parser, args.solutions)
    keeping = _keeping(parser, args, numbers)
    for number in numbers:
        try:
            line = sweep_deal(
                number,
                args.room or None,
                args.progress,
                trace=not args.no_trace,
                width=args.width,
                solutions=args.solutions,
                keeping=keeping,
            )
        except CardtableError as problem:  # a checkpoint that cannot go on: left as it is
            parser.exit(2, f"{parser.prog}: error: {problem}\n")
        except KeyboardInterrupt:
            kept = keeping is not None and keeping.path.exists()
            parser.exit(130, f"stopped{f'; {str(args.checkpoint)!r} keeps the sweep' if kept else ''}\n")
        print(line, flush=True)


def _keeping(parser: argparse.ArgumentParser, args: argparse.Namespace, numbers: list[int]) -> Keeping | None:
    """``--checkpoint FILE --every S``, checked before anything is swept: one deal, no trace."""
    if args.checkpoint is None:
        return None
    if len(numbers) != 1 or not args.no_trace:
        parser.error("--checkpoint keeps one deal's sweep, with --no-trace")
    path = Path(args.checkpoint)
    try:  # where it will be written, next to FILE: found out now, not after an hour's sweep
        checkpoint.partial(path).touch()
        checkpoint.partial(path).unlink()
    except OSError as problem:
        parser.error(f"cannot keep a checkpoint in {args.checkpoint!r}: {reason(problem)}")
    return Keeping(path, args.every)


if __name__ == "__main__":
    main()
