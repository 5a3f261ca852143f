"""How far back lost games could still be won, as the browser asks after a hint in a lost position.

    python benchmarks/way_back.py FILE... [--seconds 5]

Each FILE is a saved game (``cardtable play``'s ``save``) or any position file
with moves; those whose position the solver proves lost within ``--seconds``
are walked back (:func:`cardtable.solver.rewind.way_back`) with ``--seconds``
more, as the server's way-back budget is. One line a game: the answer (``undo
N``, ``restart``, ``lost from the start`` or ``unknown``), how many positions
nearer than it were left undecided, the searches made and the seconds taken;
then the totals. An answer with none left undecided is the exact one.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cardtable import State
from cardtable.formats import read_position
from cardtable.solver import Limit, SolveResult, solve
from cardtable.solver.rewind import WayBack, single_steps, way_back


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--seconds", type=float, default=5.0, help="for the verdict, and again for the walk")
    args = parser.parse_args()
    walked = exact = searches_in_all = 0
    seconds_in_all = 0.0
    print(f"{'file':48} {'answer':>20} {'undecided':>9} {'searches':>8} {'seconds':>8}")
    for path in args.files:
        state = read_position(path.read_text(encoding="utf-8"))
        if not state.ply() or solve(state, Limit(seconds=args.seconds)).status != "unwinnable":
            continue
        searches = 0

        def judged(position: State, seconds: float, back: int) -> SolveResult:
            nonlocal searches
            searches += 1
            return solve(position, Limit(seconds=seconds))

        started = time.perf_counter()
        way = way_back(state, single_steps(state), judged, args.seconds)
        took = time.perf_counter() - started
        walked += 1
        exact += way.status != "unknown" and way.undecided == 0
        searches_in_all += searches
        seconds_in_all += took
        print(f"{path.name:48} {_answer(way, state.ply()):>20} {way.undecided:>9} {searches:>8} {took:>8.2f}")
    print(
        f"{walked} lost games walked back: {exact} exact answers, {searches_in_all} searches, {seconds_in_all:.1f} s"
    )


def _answer(way: WayBack, moves: int) -> str:
    if way.status == "won":
        return "restart" if way.undo == moves else f"undo {way.undo}"
    return "lost from the start" if way.status == "unwinnable" else "unknown"


if __name__ == "__main__":
    main()
