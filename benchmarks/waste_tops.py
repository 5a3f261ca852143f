"""How far remembering a lost Acey and Kingsley position by the top of its waste cuts a whole-space search.

    python benchmarks/waste_tops.py --deals 194,48 [--cap 30000000] [--exact]
    python benchmarks/waste_tops.py --deals 48 --level 55 --roots 400 [--exact]

A search that finds a position lost has looked at its waste only down to the
deepest card that ever came on top; the cards below never moved and no move
looked at them. So every position with the same rest (stock dealt, reserve
heights, tableau, foundations) and the same top of the waste down to that card
is lost too. This script searches depth first with the solver's own moves
and keys (:class:`cardtable.solver.updown.Search`), remembering each loss by
its rest and that top (with a mark for an empty waste, which covers only
itself); ``--exact`` remembers whole wastes instead, for comparison. It prints
the verdict, the positions visited and how many waste cards the losses keep.
With ``--level`` it searches, one after another and with one memory, that
many positions (``--roots``, drawn at random) of the level after that stock
card instead of the deal from its start.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from cardtable import deal, load_game
from cardtable.solver.sweep import waste_ranks
from cardtable.solver.updown import Search
from deal_args import deal_numbers  # beside this script, so on its path
from stock_phase import next_level  # beside this script, so on its path

FLOOR = 0
"""The mark below a waste that a search emptied: no rank is 0."""


class CapReached(Exception):
    """The search visited as many positions as it was allowed."""


class TopsSearch:
    """Depth-first search of a deal's whole space, losses remembered by the top of their waste."""

    def __init__(self, search: Search, cap: int, exact: bool) -> None:
        self.search = search
        self.cap = cap
        self.exact = exact
        self.waste_mask = search.layout.waste_mask
        self.losses: dict[int, set[int]] = {}  # rest -> tops, each packed 4 bits a rank below a leading 1
        self.kept: list[int] = [0] * 128  # losses by the number of waste places they keep (the floor counts)
        self.visited = 0

    def covered(self, rest: int, ranks: Sequence[int]) -> int:
        """How many places of this waste a remembered loss keeps (0: none covers it)."""
        tops = self.losses.get(rest)
        if not tops:
            return 0
        packed = 1
        for depth, rank in enumerate(ranks, 1):
            packed = packed << 4 | rank
            if packed in tops:
                return depth
        return len(ranks) + 1 if packed << 4 | FLOOR in tops else 0

    def remember(self, rest: int, ranks: Sequence[int], deepest: int) -> None:
        """A loss that looked at the waste from the top down to place ``deepest`` (-1: it emptied the waste)."""
        if self.exact:
            deepest = -1
        keep = len(ranks) - deepest
        packed = 1
        for rank in ranks[: min(keep, len(ranks))]:
            packed = packed << 4 | rank
        if keep > len(ranks):
            packed = packed << 4 | FLOOR
        self.losses.setdefault(rest, set()).add(packed)
        self.kept[keep] += 1

    def visit(self, key: int) -> int | None:
        """None if ``key`` is won, else the deepest waste place (from the bottom, -1 for empty) its search saw."""
        waste = key & self.waste_mask
        rest, ranks = key ^ waste, waste_ranks(self.search, waste)
        if keep := self.covered(rest, ranks):
            return len(ranks) - keep
        self._count()
        if self.search.is_won(key):
            return None
        if self.search.dealt(key) == len(self.search.line):
            ending = self.endgame(key)
            if ending is None:
                return None
            deepest = ending
        else:
            deepest = len(ranks) - 1
            for _, child in self.search.children(key):
                seen = self.visit(child)
                if seen is None:
                    return None
                deepest = min(deepest, seen)
        self.remember(rest, ranks, deepest)
        return deepest

    def endgame(self, start: int) -> int | None:
        """Search an endgame (positions may repeat) whole: None if won, else the deepest waste place seen.

        Every position seen is lost and looked no deeper than the whole, so each is remembered with that depth.
        """
        seen, stack, members, deepest = {start}, [start], [], len(waste_ranks(self.search, start)) - 1
        while stack:
            key = stack.pop()
            waste = key & self.waste_mask
            rest, ranks = key ^ waste, waste_ranks(self.search, waste)
            if key != start and (keep := self.covered(rest, ranks)):
                deepest = min(deepest, len(ranks) - keep)
                continue
            self._count()
            if self.search.is_won(key):
                return None
            members.append((rest, ranks))
            deepest = min(deepest, len(ranks) - 1)
            for _, child in self.search.children(key):
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
        for rest, ranks in members[1:]:  # the start is remembered by visit
            self.remember(rest, ranks, deepest)
        return deepest

    def _count(self) -> None:
        self.visited += 1
        if self.visited > self.cap:
            raise CapReached

    def median_kept(self) -> int:
        """The median number of waste places a remembered loss keeps (the floor counts as one)."""
        half, running = sum(self.kept) / 2, 0
        for keep, many in enumerate(self.kept):
            running += many
            if running and running >= half:
                return keep
        return 0


def verdict(tops: TopsSearch, key: int) -> str:
    try:
        return "won" if tops.visit(key) is None else "unwinnable"
    except CapReached:
        return "unknown"


def from_root(number: int, cap: int, exact: bool) -> None:
    search = Search(deal(load_game("acey-and-kingsley"), number))
    tops = TopsSearch(search, cap, exact)
    started = time.perf_counter()
    outcome = verdict(tops, search.root)
    print(
        f"deal {number:>5}: {outcome:<10} {tops.visited:>12,} positions,"
        f" {sum(tops.kept):>12,} losses kept (median {tops.median_kept()} waste places),"
        f" {time.perf_counter() - started:7.1f} s",
        flush=True,
    )


def from_level(number: int, level_card: int, roots: int, cap: int, exact: bool) -> None:
    search = Search(deal(load_game("acey-and-kingsley"), number))
    level = {search.root}
    while search.dealt(next(iter(level))) < level_card:
        level = next_level(search, level)
    chosen = sorted(level)
    random.Random(1).shuffle(chosen)
    tops = TopsSearch(search, cap, exact)
    started = time.perf_counter()
    print(f"deal {number}: {len(level):,} positions after card {level_card}", flush=True)
    for done, key in enumerate(chosen[:roots], 1):
        if verdict(tops, key) == "unknown":
            print(f"  cap reached in root {done}", flush=True)
            return
        if done % max(1, roots // 10) == 0:
            print(
                f"  {done:>6} roots: {tops.visited:>12,} positions, {time.perf_counter() - started:7.1f} s",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="194")
    parser.add_argument("--cap", type=int, default=30_000_000, help="positions a search may visit")
    parser.add_argument("--exact", action="store_true", help="remember whole wastes, for comparison")
    parser.add_argument("--level", type=int, help="search positions after this stock card instead")
    parser.add_argument("--roots", type=int, default=400, help="with --level: how many of its positions")
    args = parser.parse_args()
    numbers = deal_numbers(parser, args.deals)
    sys.setrecursionlimit(100_000)
    for number in numbers:
        if args.level is None:
            from_root(number, args.cap, args.exact)
        else:
            from_level(number, args.level, args.roots, args.cap, args.exact)


if __name__ == "__main__":
    main()
