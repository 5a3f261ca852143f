"""How many positions an Acey and Kingsley deal has after each stock card: the size a proof must face.

    python benchmarks/stock_phase.py --deals 13,48 [--cap 200000] [--summary] [--parts]

The solver can call a deal unwinnable only by visiting every position of its
stock phase (:mod:`cardtable.solver.updown`, part 4 of its argument). This
script visits them level by level, one level per card taken from the stock,
with the solver's own moves and keys, and prints each level's size and the
fewest cards any of its positions has on the waste. It stops a deal once a
level holds more than ``--cap`` positions: past that, whole-space search is
out of reach and only a bound that cuts positions early could decide the deal.
With ``--parts`` each level also says where its positions differ: how many
distinct wastes it holds, and how many distinct rests (reserve heights,
tableau and foundations together).
"""

from __future__ import annotations

import argparse
import time

from cardtable import deal, load_game
from cardtable.solver.updown import Search
from deal_args import deal_numbers  # beside this script, so on its path


def next_level(search: Search, level: set[int]) -> set[int]:
    """The positions after the next stock card: every way of playing cards home first, then the card."""
    following: set[int] = set()
    seen = set(level)
    stack = list(level)
    while stack:
        key = stack.pop()
        here = search.dealt(key)
        for _, child in search.children(key):
            if search.dealt(child) != here:
                following.add(child)
            elif child not in seen:
                seen.add(child)
                stack.append(child)
    return following


def parts(search: Search, level: set[int]) -> str:
    """How many distinct wastes a level holds, and how many distinct rests (all but the waste)."""
    nodes = [search.unpack(key) for key in level]
    wastes = {waste for _, _, waste, _, _ in nodes}
    rests = {(heights, tableau, found) for heights, _, _, tableau, found in nodes}
    return f", {len(wastes):>9,} wastes, {len(rests):>7,} rests"


def profile(number: int, cap: int, summary: bool, show_parts: bool) -> None:
    """Print one deal's levels (or, with ``summary``, only the last one reached)."""
    search = Search(deal(load_game("acey-and-kingsley"), number))
    level = {search.root}
    started = time.perf_counter()
    line = ""
    while search.dealt(next(iter(level))) < len(search.line):
        level = next_level(search, level)
        fewest = min(search.unpack(key)[2].bit_count() for key in level)
        line = (
            f"deal {number:>5} card {search.dealt(next(iter(level))):>2}: {len(level):>9,} positions,"
            f" fewest on the waste {fewest:>2}, {time.perf_counter() - started:6.1f} s"
        )
        if show_parts:
            line += parts(search, level)
        if not summary:
            print(line, flush=True)
        if len(level) > cap:
            break
    if summary:
        print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="13")
    parser.add_argument("--cap", type=int, default=200_000, help="stop a deal after a level this large")
    parser.add_argument("--summary", action="store_true", help="print only each deal's last level")
    parser.add_argument("--parts", action="store_true", help="count each level's distinct wastes and rests")
    args = parser.parse_args()
    numbers = deal_numbers(parser, args.deals)
    for number in numbers:
        profile(number, args.cap, args.summary, args.parts)


if __name__ == "__main__":
    main()
