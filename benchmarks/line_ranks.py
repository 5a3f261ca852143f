"""Where a narrowed sweep's winning line stood among the rests its judge sorted, stock card by stock card.

    python benchmarks/line_ranks.py --deals 85,268 --width 100000 [--within 30000] [--cards]

A sweep narrowed to W rests a card (:meth:`~cardtable.solver.sweep.Sweep._narrow`)
keeps, after each stock card, the W rests its judge scores best. When it wins,
the winning line's rest was among them at every card; a narrower sweep keeps
the line only where fewer rests score better. For each deal the sweep wins,
this script sweeps it again knowing the line (the sweep visits the same rests
in the same order every time) and counts, at each card, the rests that score
strictly better than the line's and those that score the same (ties go by the
rest's bits). It prints the worst card and the number of cards at which more
than ``--within`` rests (default: the solver's width,
:data:`~cardtable.solver.sweep.FIRST_RESTS`) score better: a cut that narrow
there would drop the line, whatever the ties, so a judge meant to keep it
within that width must rank it higher there. (A sweep that narrow from its
first card meets other rests, and may win by another line.) ``--cards``
prints every card's counts too.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeVar

from cardtable import deal, load_game
from cardtable.solver.sweep import FIRST_RESTS, Sweep
from cardtable.solver.updown import Search
from deal_args import deal_numbers, sweep_width  # beside this script, so on its path

SweepKind = TypeVar("SweepKind", bound=Sweep)
"""The kind of sweep :func:`_swept` runs: the plain one, or one that ranks the line."""

Standing = tuple[int, int, int]
"""The line's standing at one stock card: rests scoring better, rests scoring the same, rests judged."""


class _Ranking(Sweep):
    """A narrowed sweep that, before each cut, notes how the line's rest at that card stands."""

    def __init__(self, search: Search, width: int, line: dict[int, int]) -> None:
        super().__init__(search, None, width, trace=False)
        self.line = line
        self.standings: dict[int, Standing] = {}

    def _narrow(self, dealt: int) -> None:
        here = [level for level in self.levels if level[0] == dealt]
        scores, rests = self._judged(here)
        line = scores[rests == self.line[dealt] >> self.search.layout.position]
        # the line reaches every count of cards dealt, and this sweep visits what the first one did
        assert len(line) == 1, f"the line's rest after card {dealt} was not among the rests judged"
        better = int((scores > line[0]).sum())
        same = int((scores == line[0]).sum()) - 1
        self.standings[dealt] = (better, same, len(scores))
        super()._narrow(dealt)


def _swept(number: int, make: Callable[[Search], SweepKind]) -> tuple[Search, SweepKind]:
    """A deal's search and the sweep ``make`` gives it, swept to its end with no budget."""
    search = Search(deal(load_game("acey-and-kingsley"), number))
    search.due = 1 << 62  # no budget: the sweep never needs to look
    sweep = make(search)
    sweep.advance(1 << 62, lambda: None)
    return search, sweep


def winning_line(number: int, width: int) -> dict[int, int] | None:
    """The rest of the narrowed sweep's win as it first reaches each count of stock cards dealt; None if it does not win."""
    search, sweep = _swept(number, lambda search: Sweep(search, None, width))
    if sweep.win is None:
        return None
    waste_mask, stock_out = search.layout.waste_mask, len(search.line)
    key, rests = search.root, dict[int, int]()
    for code in sweep.win:
        dealt = search.dealt(key)
        if dealt == stock_out:
            break
        rests.setdefault(dealt, key & ~waste_mask)
        key = next(after for step, after in search.moves(key) if step == code)
    return rests


def standings(number: int, width: int, line: dict[int, int]) -> dict[int, Standing]:
    """The line's standing at each cut: by the stock cards dealt (0: the start's level)."""
    _, sweep = _swept(number, lambda search: _Ranking(search, width, line))
    return sweep.standings


def report(number: int, width: int, within: int, cards: bool) -> list[str]:
    """The lines printed for one deal."""
    line = winning_line(number, width)
    if line is None:
        return [f"{number:>8} no win {width:,} wide"]
    standing = standings(number, width, line)
    worst = max(standing, key=lambda card: standing[card][:2])
    better, same, judged = standing[worst]
    cut = sum(1 for counts in standing.values() if counts[0] > within)
    lines = [
        f"{number:>8} won {width:,} wide; worst after card {worst}: {better:,} rests better, {same:,} as good,"
        f" of {judged:,}; more than {within:,} better at {cut} of {len(standing)} cuts"
    ]
    if cards:
        lines += [
            f"{'':>8} after card {card:>2}: {b:>9,} better {s:>9,} as good of {j:>9,}"
            for card, (b, s, j) in sorted(standing.items())
        ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="906")
    parser.add_argument(
        "--width", type=int, default=100_000, help="rests the sweep keeps after each stock card"
    )
    parser.add_argument(
        "--within",
        type=int,
        default=FIRST_RESTS,
        help="count the cards where more rests than this score better",
    )
    parser.add_argument("--cards", action="store_true", help="print every card's counts")
    options = parser.parse_args()
    sweep_width(parser, options.width)
    for number in deal_numbers(parser, options.deals):
        print("\n".join(report(number, options.width, options.within, options.cards)), flush=True)


if __name__ == "__main__":
    main()
