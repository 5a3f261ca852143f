"""Every Acey and Kingsley position at once, one set of wastes per rest: the search that proves deals lost.

The beams of :mod:`cardtable.solver.updown` visit positions one by one, and a deal
whose waste grows long before much goes home has far too many to visit: deal 48
has 72 million positions with 65 of its 66 stock cards dealt, and a depth-first
search visited 297 million without a verdict. Those positions differ above all in their wastes. This
search visits each *rest* once instead (cards dealt, reserve heights, tableau,
foundations: a key without its waste) with the set of every waste that reaches it.
Its argument:

1. **A move sees the waste only through its top.** A move leaves the waste alone
   (a reserve or tableau card home or onto the tableau, a lift), takes its top
   (home or onto an empty tableau pile), or deals the next stock card onto it.
   Whether it is legal and what it makes of the rest depend on the waste only
   through the top's rank. So the positions that share a rest move together: a
   move that leaves the waste alone takes the whole set along; taking a top of
   rank ``r`` takes the wastes whose top is ``r``, less that top; a deal puts the
   stock card on every waste of the set.

2. **A set of wastes is a trie read from the top, its equal parts shared**
   (:class:`~cardtable.solver.wastes.WasteSets`). The wastes of one rest all hold the same number of cards
   (the rest says how many are elsewhere). Each of the three steps above is then
   one step on the trie, whatever the number of wastes: a deal makes one node
   above the set, taking a top of rank ``r`` follows one edge, and the set's tops
   are its node's edges. Sets meeting at a rest are merged, node by node.

3. **Before the stock is out, rests come in order.** Every move deals a card or
   puts one home, so a rest is swept once, after every rest with fewer cards dealt,
   or as many dealt and fewer home, and so with every waste that can reach it.
   Once a stock card's levels are swept, nothing reaches them again; they are
   kept in arrays, for a trace only. Once the stock is out, cards go back and
   forth between foundations and tableau, but none goes back onto a reserve or
   the waste: the sweep takes the rests by the cards those hold, most first, and
   each count breadth first, keeping for each rest the wastes already seen and
   going on from those not seen before, until nothing is new; then it forgets
   that count, which nothing can reach again. There it makes
   the moves of :meth:`~cardtable.solver.updown.Search.endgame_children`: a
   tableau card that can go home goes at once, and cards are lifted only to
   make an ace pile and a king pile meet on the way to a card going home, which
   loses no win (part 5 of the argument of :mod:`cardtable.solver.updown`),
   spares most endgame rests (deal 48: 647,017 instead of 4,418,519) and makes
   each cheap (deal 1229's 565,188 in under half a minute).

4. **The verdict is exact.** The sweep visits every position reachable from the
   start, so if none of them is won the position is unwinnable. When the won
   rest is reached, the line is traced back through the sets kept at each level
   and turned into moves by :meth:`~cardtable.solver.updown.Search.realise`, which
   checks each against the rules.

The sweep pays where few rests carry many wastes: deals where little goes home
while the waste grows, the likeliest to be lost (deal 48: 2.2 million rests
swept, then unwinnable). Where many cards go home the rests multiply (deal 1,
won in 0.05 s by the beams: 8 million rests after its 37th stock card), so
:class:`~cardtable.solver.updown.Search` gives the sweep turns beside its beams,
and as soon as its rests look set to outgrow its room (:meth:`Sweep._project`)
the sweep *narrows*: after each stock card it keeps only the most promising
rests, each still with every waste that reaches it (:meth:`Sweep._narrow`), a
beam over rests. A narrowed sweep can still find a win, which is traced and
checked as before, but one that ends without a win proves nothing
(:attr:`Sweep.narrowed`).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain
from math import comb
from typing import TYPE_CHECKING, Final

import numpy as np

from cardtable.core.errors import InvalidCheckpointError
from cardtable.solver.wastes import BARE, TOP_BITS, TOP_MASK, Keys, Ranks, WasteSets, as_keys, each_once

if TYPE_CHECKING:  # the search imports this module; this one only needs its type
    from cardtable.solver.updown import Search

RANK_SLOTS: Final = 16
"""Slots for the ranks of one foundation class in the tables of moves home (see :meth:`Sweep._homes_from`)."""
SLOT_BITS: Final = 8
"""Bits of a slot that count its rows; the place of its first row lies above them."""
SLOT_COUNT: Final = (1 << SLOT_BITS) - 1


def waste_ranks(search: Search, key: int) -> Ranks:
    """A key's waste as ranks, top first (the key may be the waste's bits alone)."""
    waste, line, ranks = key & search.layout.waste_mask, search.line, []
    while waste:
        top = waste.bit_length() - 1
        ranks.append(line[top])
        waste ^= 1 << top
    return tuple(ranks)


@dataclass(frozen=True)
class Checkpoint:
    """All that a sweep with no trace holds between two stock cards, or two counts of its endgame: what it needs to go on later.

    An exact sweep can outlast the process that runs it (deal 859's took two
    hours and 17 GB); :mod:`cardtable.solver.checkpoint` keeps one in a file. The
    arrays are the sweep's own, not copies: write them before it goes on.
    """

    root: int
    """The key of the position swept: a checkpoint goes on only from the same one."""
    dealt: int
    """The stock card it goes on from (the stock's length: the endgame)."""
    classes: list[tuple[int, tuple[int, ...], tuple[int, ...]]]
    """The search's foundation classes, in the order of their numbers, which the rests hold."""
    counts: dict[str, int]
    """Rests swept, and what the sweep counts to weigh itself."""
    sets: tuple[array[int], list[int], array[int]]
    """:class:`WasteSets`: each node's tops, the names of several tops, each node's first one-top set."""
    levels: dict[Level, tuple[list[Keys], list[Keys], bool]]
    """The stock-phase levels still to sweep: their rests and sets, in batches as they came, and whether merged (see :class:`Arrivals`)."""
    waiting: dict[int, Waiting]
    """The endgame's rests waiting, by cards stacked."""


class SweepTooLarge(Exception):
    """The sweep would outgrow its room, or its rests a machine word: it gives way."""


def rests_fit_words(found_shift: int, aces: int, kings: int) -> bool:
    """Whether every rest, shifted past its waste, fits a signed machine word: its fields below ``found_shift``, then any foundation class number.

    A class is a number of free pairs and the unmatched tops of each kind, so
    there are at most so many: in Acey and Kingsley's layout, 31 bits and 25, where
    a game of its shape with more piles could overflow the arrays unseen.
    """
    classes = (min(aces, kings) + 1) * comb(13 + aces, aces) * comb(13 + kings, kings)
    return found_shift + classes.bit_length() <= 63


class Arrivals:
    """A stock-phase level's rests, each with a set of wastes, in batches of arrays as the moves of earlier levels bring them.

    A rest has no waste bits, so shifted past them it fits a machine word (in
    Acey and Kingsley's layout about 31 bits and the foundations' class
    number): a rest and its set take 16 bytes, where a dict held about 84.
    Rests come again and again (each card home can come before or after
    others); :meth:`Sweep._merged` keeps each once, in the order it first came,
    with the union of its sets, just before the level is judged or swept.
    """

    __slots__ = ("kept", "merged", "nodes", "rests", "size")

    def __init__(self) -> None:
        self.rests: list[Keys] = []
        self.nodes: list[Keys] = []
        self.size = 0
        """The rests held, a rest that came twice counted twice until merged."""
        self.merged = True
        self.kept = 0
        """The rests held after the last merge: merged early once they have doubled since (see :data:`MERGED_PAST`)."""

    def add(self, rests: Keys, nodes: Keys) -> None:
        """Rests that moves reached, with their sets, in the order the moves came."""
        if len(rests):
            self.rests.append(rests)
            self.nodes.append(nodes)
            self.size += len(rests)
            self.merged = False


def _spread(keys: Keys, rows_of: Callable[[int], Sequence[tuple[int, ...]]], width: int) -> tuple[Keys, Keys]:
    """Each entry's rows by its key, every entry in turn: the entries' indices, once per row, and the rows, ``width`` ints each.

    How a move made on a whole batch of rests looks up what depends on one
    field (the moves a set's tops, a tableau or a foundation class allow):
    ``rows_of`` is called once for each distinct key.
    """
    distinct, inverse = np.unique(keys, return_inverse=True)
    tables = [rows_of(key) for key in distinct.tolist()]
    counts = np.array(list(map(len, tables)), dtype=np.int64)
    rows = np.fromiter(chain.from_iterable(chain.from_iterable(tables)), np.int64).reshape(-1, width)
    entries, within = _expanded(counts[inverse])
    return entries, rows[(np.cumsum(counts) - counts)[inverse][entries] + within]


def _expanded(counts: Keys) -> tuple[Keys, Keys]:
    """Each entry repeated as many times as it counts: the entries' indices, and each repeat's place among its entry's (0, 1, ...)."""
    entries = np.repeat(np.arange(len(counts)), counts)
    return entries, np.arange(len(entries)) - np.repeat(np.cumsum(counts) - counts, counts)


def _in_order(sources: Sequence[Keys], *columns: Sequence[Keys]) -> list[Keys]:
    """Columns of moves gathered kind by kind, in the order a rest at a time would make them: by source rest, then by kind."""
    order = np.argsort(np.concatenate(sources), kind="stable")
    return [np.concatenate(column)[order] for column in columns]


Moves = tuple[Keys, Keys, Keys]
"""Moves made on a batch of rests: each one's rest (its index in the batch), the rest after, and its set after."""


def _joined(kinds: Sequence[Moves]) -> Moves:
    """Moves of several kinds made on one batch, each kind in the order a rest at a time makes it, joined in that order: by rest, then by kind."""
    sources, afters, wastes = zip(*kinds)
    source, after, waste = _in_order(sources, sources, afters, wastes)
    return source, after, waste


@dataclass
class _EndgameLayer:
    """An endgame layer being swept: its rests and sets, what the sweep saw and will sweep next, the moves of the chunk at hand."""

    rests: Keys
    nodes: Keys
    seen: dict[int, int]
    """Every rest seen with this many cards stacked, with every set seen there."""
    upcoming: dict[int, int]
    """The next layer: rests reached with this many cards stacked and wastes not seen there before."""
    fewer: Waiting | None
    """The rests waiting with one card fewer stacked (None: none can have fewer)."""
    chunk: int = -1
    moves: Moves = (np.empty(0, np.int64),) * 3


Level = tuple[int, int]
"""A stock-phase level: (stock cards dealt, cards home)."""

Waiting = tuple["array[int]", "array[int]"]
"""The endgame's rests waiting with one count of cards stacked: each shifted past its empty waste, and its set, as they came."""

Layer = tuple["array[int]", "array[int]"]
"""A swept stock-phase level or endgame layer, kept for a trace: its rests (shifted down past their empty waste), and their sets."""

ENTRY_WEIGHT: Final = 0.5
"""A rest and its set, kept in a dict, against a position of the search's table: ~100 bytes to ~180."""
NODE_WEIGHT: Final = 2.0
"""A node of :class:`WasteSets` against a position: ~350 bytes while its tops were a dict named by a tuple.

Packed, a node takes a third of that or less (16 bytes for most one-top sets:
see the class), but the weight stays: it decides where a sweep in the solver
narrows or gives way, which is where it was measured to pay, and what it
overstates is a margin of memory.
"""
STOCK_SHARE: Final = 1 / 3
"""The share of its room that the sweep's stock phase may be projected to take (see :meth:`Sweep._project`).

Deal 48's sweep weighs 0.71 million at most, in its stock phase (1.56 million
while swept levels stayed in dicts and the endgame remembered every rest, 4.15
million before the endgame rule of part 5 of the argument of
:mod:`cardtable.solver.updown`): a third of the default table (6 million) leaves
its stock phase a wide margin. The
sooner a sweep that cannot go through whole narrows, the less it costs the
beams, and rests that multiply double with about every card.
"""
NARROW_STOCK_SHARE: Final = 2 / 3
""":data:`STOCK_SHARE` for a sweep that has narrowed, or would: its endgame starts from far fewer rests.

Whether a sweep may narrow is judged against this share too: against
:data:`STOCK_SHARE`, a sweep 100,000 rests wide was foretold too large and
gave way on deals 13, 85, 268, 295 and 790, which it wins narrowed.

The rests swept after each stock card are the :attr:`Sweep.width` dealt, and
those that more cards home make of them: deal 202 narrowed to 30,000 weighed 2
million when its 65th card was dealt, a third of the default table, while swept
levels stayed in dicts (1.2 million at most now, narrowed from its first card),
and its endgame 1.6 million rests more.
"""
LAYER_WEIGHT: Final = 0.1
"""A rest and its set in a level's arrivals, a swept level or a finished endgame layer, two machine words in arrays: 16 bytes.

A level's rests were kept in a dict until they were swept, at :data:`ENTRY_WEIGHT`;
:meth:`Sweep._project` still counts the rests to come at that weight, so a
sweep in the solver narrows, or gives way, about where it was measured to pay.
"""
BATCH: Final = 4096
"""Rests a stock-phase level sweeps at once, if no pause comes sooner, even past a look at the budget (see :meth:`Sweep.advance`).

A batch costs a few dozen array operations whatever its size: at the
budget's 256 positions between looks, deal 13 narrowed to 30,000 rests a
card took longer than with a rest at a time. A batch this size takes about
10 ms, so the clock is still read often enough.
"""
MERGES_KEPT: Final = 3_000_000
"""Merges remembered past which a sweep forgets them after a level, not only after a stock card.

An exact sweep's card can remember as many merges as it holds sets (deal 888,
card 57: 13.5 million), a fifth of its memory. Forgotten past this many, after
any level, deal 888's sweep held 3.45 GB instead of 4.00 at 20.5 million
rests, for 4% more time; forgotten after every level, 33% more.
"""
UNITED_AT_ONCE: Final = 1 << 18
"""Rests that came more than once whose sets a level's merge unites from one slice of ints (see :meth:`Sweep._merged`).

An exact sweep's level can take tens of millions of arrivals; made ints all
at once, their sets took 40 bytes each besides the arrays.
"""
MERGED_PAST: Final = 1 << 22
"""Rests held for a level or an endgame count, a rest that came again counted again, past which they are merged before their turn, and again each time they have doubled since.

A rest comes again and again before it is swept: deal 48's endgame counts
held 2.6 arrivals per rest when its stock ran out, 4.1 by the time each was
swept. Merging keeps each rest once with the union of its sets, in the order
it first came, as the merge at its turn would (merges of merges make the
same sets), so the sweep goes on the same. Below this many rests, 64 MB, a
merge would save too little to pay for itself; by doubling, the merges of
one level cost at most twice the last.
"""
ENDGAME_CHUNK: Final = 1 << 14
"""Rests of an endgame layer whose moves are made at once, on arrays (see :meth:`Sweep._endgame_moves`).

A chunk's moves number the foundation classes they meet first in another
order than a rest at a time would, so chunks are cut from the layer's start,
not where the sweep pauses: where it pauses changes no number. A chunk's
moves are made between two looks at the budget: in deal 182's sweep, beside
three other processes, chunks of 65,536 rests took up to 0.83 s, and its
endgame's moves 27.0 s in all; chunks of 16,384, up to 0.48 s, and 29.6 s.
"""
FIRST_RESTS: Final = 100_000
"""The rests a sweep keeps after each stock card once it has narrowed (see :meth:`Sweep._narrow`).

Alone and narrowed from its first card, a sweep this wide wins each of the 8
deals of 1-1000 that a sweep 30,000 wide could not win alone and 100,000 wide
could (85, 268, 295, 305, 790, 906, 922, 924), in 24 to 36 s alone, and each
of the 10 that 30,000 wide wins (131 to 919, 17 to 47 s) and 12 of the 13
that the beams won in over 15 s at 60 s (not 390): 4 to 7.6 million rests each
(``python benchmarks/sweep.py --deals LIST --width 100000 --room 0
--no-trace``). At 30,000 it had won 10 of the 125 deals unknown at 60 s
besides 48; at 300,000 it takes two to three times the minute.
"""


class Sweep:
    """The sweep of one position's whole space (see the module's argument), a rest at a time.

    :meth:`advance` lets it run for a while and pause, so that it can take turns
    with the searches of :class:`~cardtable.solver.updown.Search`, whose position
    count it shares: a rest swept counts as a position.
    """

    def __init__(
        self, search: Search, room: int | None, width: int | None = None, *, trace: bool = True
    ) -> None:
        """``room``: the positions of the search's table the sweep may weigh (see :attr:`weight`); None, no bound.

        ``width``: the rests to keep after each stock card (see :meth:`_narrow`);
        None, every one, unless the room runs short.

        ``trace``: keep every rest swept, with its set, to trace a win's line
        back through. Without it the sweep keeps only the rests still to sweep
        and the sets they hold (:meth:`WasteSets.keep_only`), so a proof that a
        deal is lost takes far less memory, but a win is only known
        (:attr:`won`), not traced.
        """
        self.search = search
        self.room = room
        self.width = width
        self.trace = trace
        self.narrowed = False
        """Whether rests were dropped: then a sweep that ends without a win proves nothing."""
        self.sets = WasteSets()
        self.won = False
        self.win: list[int] | None = None
        """The step codes of a win, once one is met and traced."""
        self.endgame_swept = 0
        """Rests swept once the stock is out."""
        # nodes left by the last keep_only: without a trace, the sets are thinned out each time they double
        self._sets_kept = 1
        layout = search.layout
        self._found_at = layout.found
        self._home_counts: list[int] = []  # cards home, by foundation class number
        # the moves' parts that depend on the foundation class or the tableau alone, remembered: where each
        # rank goes home from each class, in flat tables by class number (see _homes_from), and the rest in dicts
        self._homes_known = bytearray()
        self._home_slots = array("q")
        self._home_rows = array("q")
        self._held_by_fields: dict[int, int] = {}  # cards in the reserves and on the tableau, by those fields
        self._onto_by_tableau: dict[int, list[int]] = {}
        # the stock phase's rests by level, to sweep and swept; the endgame's by cards stacked, to sweep; its layers
        self.levels: dict[Level, Arrivals] = {}
        self.swept_levels: dict[Level, Layer] = {}
        self.waiting: dict[int, Waiting] = {}
        self._waiting_kept: dict[int, int] = {}  # by count: the rests waiting after its last merge
        self.layers: list[Layer] = []
        self.dealt = search.dealt(search.root)
        """The level being swept: stock cards dealt (all, once the stock is out)."""
        self._entries = 0  # rests held in dicts: the endgame's seen and upcoming
        # rests held in the levels' arrivals and the endgame's waiting, twice if they came twice
        self._pending = 0
        self._layered = 0  # rests held in swept levels and finished layers
        self._allowance = 1  # rests the sweep may take before it pauses (see advance)
        # the stock phase's rests are shifted past their waste (see Arrivals): where their fields sit then
        self._shift = layout.position
        self._found_shift = layout.found - layout.position
        self._heights_shift = layout.heights - layout.position
        self._tableau_shift = layout.tableau - layout.position
        self._below_found = (1 << self._found_shift) - 1
        # each reserve: its top's rank by its height (0 when empty), where its height sits, what a card leaving takes off
        self._reserve_tops = [
            (np.array([0, *ranks], dtype=np.int64), shift, 1 << shift)
            for shift, ranks in zip(range(self._heights_shift, self._tableau_shift, 4), search.reserve_ranks)
        ]
        self._cards = self._not_in_waste(search.root) + (search.root & layout.waste_mask).bit_count()
        self.between: Callable[[], object] | None = None
        """Called between two stock cards and between two counts of the endgame: where :meth:`checkpoint` may be taken."""
        self._is_between = False
        self._steps = self._sweep()

    @property
    def weight(self) -> int:
        """What the sweep holds, in positions of the search's table (by the bytes each thing takes)."""
        return int(
            ENTRY_WEIGHT * (self._entries + self.sets.merges)
            + NODE_WEIGHT * len(self.sets)
            + LAYER_WEIGHT * (self._layered + self._pending)
        )

    def advance(self, until: int, look: Callable[[], object]) -> bool:
        """Sweep until the search has visited ``until`` positions; whether the sweep is over.

        Once it is over, :attr:`win` holds the step codes of a win, or None: no
        position reachable is won. ``look`` is called once the search's budget
        asks to be told (:attr:`~cardtable.solver.updown.Search.due`), after
        the batch that reaches it (see :data:`BATCH`), and never past a budget
        in positions (:attr:`~cardtable.solver.updown.Search.most_states`); it
        raises to stop. Raises :class:`SweepTooLarge` when the sweep would
        outgrow its room.
        """
        search = self.search
        if search.most_states is not None:
            until = min(until, search.most_states + 1)  # where the budget stops the search, and so the sweep
        while search.states < until:
            # a stock-phase level sweeps its rests in batches: at least BATCH between two looks, never past the pause
            self._allowance = min(until - search.states, max(search.due - search.states, BATCH))
            try:
                search.states += next(self._steps)
            except StopIteration:
                return True
            if search.states >= search.due:
                look()
        return False

    def close(self) -> None:
        """End the sweep where it stands: its generator, which refers to it, lets go of it."""
        self._steps.close()

    def _sweep(self, resumed: bool = False) -> Generator[int, None, None]:
        """Sweep the stock phase level by level, then the endgame; yield how many rests each step counted. Sets :attr:`win` on a win.

        ``resumed``: the sweep was restored from a :class:`Checkpoint`, and goes
        on from the stock card or the endgame's count it was taken before.
        """
        search, sets = self.search, self.sets
        if not rests_fit_words(self._found_shift, len(search.ace_piles), len(search.king_piles)):
            raise SweepTooLarge
        stock_out = len(search.line)
        if not resumed:
            start = search.root & ~search.layout.waste_mask
            wastes = sets.of(waste_ranks(search, search.root))
            if self.dealt == stock_out:
                self._wait(as_keys([start >> self._shift]), as_keys([wastes]))
            else:
                self._arrive(
                    self._level((self.dealt, self._home(start))),
                    as_keys([start >> self._shift]),
                    as_keys([wastes]),
                )
        for dealt in range(self.dealt, stock_out):
            self.dealt = dealt
            self._pause_between()
            self._narrow(dealt)
            for home in range(self._cards + 1):
                arrivals = self.levels.get((dealt, home))
                if arrivals is not None and arrivals.size:
                    yield from self._sweep_level(*self._merged(arrivals), dealt, home)
                    if sets.merges > MERGES_KEPT:
                        sets.forget_merges()
                if not self.trace and arrivals is not None:  # nothing comes back to a level swept
                    self._pending -= self.levels.pop((dealt, home)).size
            sets.forget_merges()
            self._put_away(dealt)
            self._project(dealt, stock_out)
        self.dealt = stock_out
        yield from self._endgame()

    def _sweep_level(self, rests: Keys, nodes: Keys, dealt: int, home: int) -> Iterator[int]:
        """Sweep the rests of one stock-phase level, in batches; yield how many each batch counted.

        The hot path of every sweep. Each kind of move leads to one level: a
        reserve's or the waste's card home to one more card home, a tableau card
        home to that and one more card dealt (the stock refills its pile), a deal
        to one more card dealt. So a batch of rests makes each kind of move at
        once, on arrays (:meth:`_sweep_batch`), and adds what it reaches to
        that level's arrivals. The last stock card's deal and tableau plays
        reach the endgame, and are settled into it at the end.
        """
        last = dealt + 1 == len(self.search.line)
        reached = Arrivals()  # the last card's: the stock out, not yet settled
        to_home = self._level((dealt, home + 1))
        to_dealt = reached if last else self._level((dealt + 1, home))
        to_both = reached if last else self._level((dealt + 1, home + 1))
        incoming = self.search.line[dealt]
        yield from self._in_batches(
            len(rests),
            lambda start, stop: self._sweep_batch(
                rests[start:stop], nodes[start:stop], incoming, to_home, to_dealt, to_both
            ),
        )
        if last:
            self._into_endgame(reached)

    def _in_batches(self, rests: int, sweep: Callable[[int, int], None]) -> Iterator[int]:
        """Sweep this many rests a batch at a time, with ``sweep`` (from one index to another); yield how many each batch counted.

        A rest counts as a position of the search that gives the sweep turns,
        and a rest counted before a pause was swept only after it, one at a
        time, when the sweep took a rest at a time: so each batch counts its
        rests and sweeps all but the last, which it sweeps with the next batch.
        Wherever the pauses fall, the search then sees the same rests and the
        same foundation classes numbered alike, and stops at exactly its budget.
        """
        counted = swept = 0
        while counted < rests:
            take = max(1, min(self._allowance, rests - counted))
            counted += take
            sweep(swept, counted - 1)
            swept = counted - 1
            yield take
        sweep(swept, rests)

    def _sweep_batch(
        self,
        rests: Keys,
        nodes: Keys,
        incoming: int,
        to_home: Arrivals,
        to_dealt: Arrivals,
        to_both: Arrivals,
    ) -> None:
        """Make every move of a batch of one level's rests, in its order; add what they reach, in the order a rest at a time would, to the levels they reach."""
        if not len(rests):
            return
        self._know_classes(rests)
        _, home_rests, home_nodes = self._tops_home(rests, self._tops(rests, nodes))
        self._arrive(to_home, home_rests, home_nodes)
        played_from, played_rests, played_nodes = self._tableau_home(rests, nodes, incoming)
        dealt_rests = rests + 1  # one card dealt: the lowest field
        dealt_nodes = self._dealt_onto(nodes, incoming)
        if to_both is to_dealt:  # the last card's: both reach the endgame
            self._arrive(
                to_dealt,
                *_in_order(
                    [played_from, np.arange(len(rests))],
                    [played_rests, dealt_rests],
                    [played_nodes, dealt_nodes],
                ),
            )
        else:
            self._arrive(to_both, played_rests, played_nodes)
            self._arrive(to_dealt, dealt_rests, dealt_nodes)

    def _tops(self, rests: Keys, nodes: Keys) -> list[Keys]:
        """The reserves' and the waste's tops of a batch of rests, in the order a rest at a time takes them.

        Four columns, a row per top: the rest's index, the top's rank, the rest
        without that card and its foundations, and the set left under it.
        """
        below = rests & self._below_found
        sources, cards, bases, wastes = [], [], [], []
        for tops, shift, one_less in self._reserve_tops:
            at = np.flatnonzero(rests >> shift & 15)
            sources.append(at)
            cards.append(tops[rests[at] >> shift & 15])
            bases.append(below[at] - one_less)
            wastes.append(nodes[at])
        at, waste_tops = self._waste_tops(nodes)
        sources.append(at)
        cards.append(waste_tops[:, 0])
        bases.append(below[at])
        wastes.append(waste_tops[:, 1])
        return _in_order(sources, sources, cards, bases, wastes)

    def _tops_home(self, rests: Keys, tops: list[Keys]) -> Moves:
        """Every move of a batch that sends a reserve's or the waste's top home (``tops``: see :meth:`_tops`), in the order a rest at a time makes them."""
        source, card, base, waste = tops
        after, wastes, entries = self._home_moves(rests[source] >> self._found_shift, card, base, waste)
        return source[entries], after, wastes

    def _tableau_home(self, rests: Keys, nodes: Keys, incoming: int) -> Moves:
        """Every move of a batch that sends a tableau card home, ``incoming`` refilling its pile, in the order a rest at a time makes them."""
        at, plays = _spread(
            rests >> self._tableau_shift & self.search.layout.tableau_mask, self._plays(incoming), 2
        )
        played = rests[at]
        after, wastes, which = self._home_moves(
            played >> self._found_shift, plays[:, 0], (played & self._below_found) + plays[:, 1], nodes[at]
        )
        return at[which], after, wastes

    def _waste_tops(self, nodes: Keys) -> tuple[Keys, Keys]:
        """Each set's tops, as :func:`_spread` gives them: the sets' indices, once per top, and (rank, set below) rows, each set's in rank order.

        Most sets have one top, packed in one word (see :class:`WasteSets`):
        those are read off all at once, and only the others one at a time.
        Read one at a time, tops took a fifth of deal 668's stock phase.
        """
        packed = np.frombuffer(self.sets.packed, dtype=np.int64)[nodes]  # a copy: the sets may grow after
        one = np.flatnonzero(packed >= 0)
        tops = np.stack((packed[one] & TOP_MASK, packed[one] >> TOP_BITS), axis=1)
        several = np.flatnonzero(packed < 0)
        if not len(several):
            return one, tops
        at, more = self.sets.several_tops(nodes[several])
        entries = np.concatenate((one, several[at]))
        order = np.argsort(entries, kind="stable")
        return entries[order], np.concatenate((tops, more))[order]

    def _know_classes(self, rests: Keys) -> None:
        """Work out where cards go home from each foundation class of the rests, in the order the rests first hold it.

        Working it out numbers the classes it reaches, and a class's number is
        part of every key that holds it, so the order is that of a rest at a time.
        """
        if (grown := len(self.search.classes) - len(self._homes_known)) > 0:
            self._homes_known.extend(bytes(grown))
            self._home_slots.extend(array("q", bytes(8 * RANK_SLOTS * grown)))
        found = rests >> self._found_shift
        fresh = found[np.frombuffer(self._homes_known, dtype=np.uint8)[found] == 0]
        if len(fresh):
            classes, first = np.unique(fresh, return_index=True)
            for one in classes[np.argsort(first)].tolist():
                self._homes_from(one)

    def _home_moves(self, found: Keys, cards: Keys, bases: Keys, wastes: Keys) -> tuple[Keys, Keys, Keys]:
        """Cards of these ranks sent home from these classes, onto rests that lack only their foundations: the rests after, their sets, and the entry each came from."""
        slots = np.frombuffer(self._home_slots, dtype=np.int64)[found * RANK_SLOTS + cards]
        entries, within = _expanded(slots & SLOT_COUNT)
        afters = np.frombuffer(self._home_rows, dtype=np.int64)[(slots >> SLOT_BITS)[entries] + within]
        return bases[entries] | afters, wastes[entries], entries

    def _plays(self, incoming: int) -> Callable[[int], list[tuple[int, int]]]:
        """A tableau's cards that could go home, with what each one's leaving does to a rest (``incoming`` refills its pile)."""
        plays, shift = self.search.tableau_plays, self._shift
        return lambda tableau: [(card, change >> shift) for card, _, change in plays(tableau, incoming)[1]]

    def _dealt_onto(self, nodes: Keys, incoming: int) -> Keys:
        """The sets with ``incoming`` dealt onto every waste."""
        distinct, inverse = np.unique(nodes, return_inverse=True)
        on = self.sets.on
        return as_keys([on(incoming, node) for node in distinct.tolist()])[inverse]

    def _into_endgame(self, reached: Arrivals) -> None:
        """Keep the rests that the last stock card's deal or a tableau card home reached, settled, as the endgame's.

        Settling sends home what can go (:meth:`~cardtable.solver.updown.Search.settle`)
        and leaves the reserves and the waste alone, so rests that meet before it
        meet after it too: each is settled once, whatever the moves that reached it.
        """
        rests, nodes = self._merged(reached)
        self._pending -= reached.size
        for part in range(0, len(rests), UNITED_AT_ONCE):  # a slice at a time, as in _merged
            end = part + UNITED_AT_ONCE
            self._wait(self._settled(rests[part:end]), nodes[part:end])
        for stacked in self.waiting:
            self._merge_grown(stacked)

    def _put_away(self, dealt: int) -> None:
        """Keep the swept levels with ``dealt`` stock cards dealt as layers: nothing reaches them again, and only a trace reads them.

        Deal 182's sweep weighed 5.2 million positions with them in dicts,
        3.0 million with them in arrays (1.3 GB at most instead of 1.7).
        """
        for level in [level for level in self.levels if level[0] == dealt]:
            arrivals = self.levels.pop(level)
            self._pending -= arrivals.size
            # a level the sweep made ready for moves that never came stays empty
            if self.trace and arrivals.size:
                rests, nodes = self._merged(arrivals)
                self.swept_levels[level] = (array("q", rests.tobytes()), array("q", nodes.tobytes()))
                self._layered += len(rests)
        self._thin_out()

    def _thin_out(self, *holders: dict[int, int]) -> None:
        """Without a trace, drop the sets that no rest still to sweep holds, once they have doubled since last time.

        The rests still to sweep are those of the levels and the endgame's
        counts waiting, and ``holders``: the endgame's count at hand.
        """
        if self.trace or len(self.sets) < 2 * self._sets_kept:
            return
        levels = [nodes for arrivals in self.levels.values() for nodes in arrivals.nodes]
        waiting = [np.frombuffer(nodes, dtype=np.int64) for _, nodes in self.waiting.values()]
        self._sets_kept = self.sets.keep_only([*levels, *waiting, *holders])

    def _project(self, dealt: int, stock_out: int) -> None:
        """Narrow the sweep when the rests of the next level, as many again at each card to come, would not fit; give way if even that would not.

        Where much goes home the rests multiply with every card (deal 1: 93,000
        after its 31st stock card, 8 million after its 37th), and the sweep would
        only fill its room and waste the turns it took; deal 48's grow to 365,000
        after its 65th card, the last before the stock is out. The stock phase may take only
        :data:`STOCK_SHARE` of the room, for the endgame needs the rest.
        """
        if self.room is None:
            return
        level = sum(len(self._distinct(rests)) for (at, _), rests in self.levels.items() if at == dealt + 1)
        if self.width is not None:
            level = min(level, self.width)
        if self._fits(level, stock_out - dealt, self.width is not None):
            return
        if self.width is None and self._fits(min(level, FIRST_RESTS), stock_out - dealt, True):
            self.width = FIRST_RESTS  # narrowed, it may still win
            return
        raise SweepTooLarge

    def _fits(self, rests: int, levels: int, narrowed: bool) -> bool:
        """Whether ``levels`` more levels of this many rests each fit the stock phase's share of the room, narrowed or not."""
        assert self.room is not None
        share = NARROW_STOCK_SHARE if narrowed else STOCK_SHARE
        return self.weight + ENTRY_WEIGHT * rests * levels <= share * self.room

    def _narrow(self, dealt: int) -> None:
        """Keep the :attr:`width` most promising rests with ``dealt`` stock cards dealt, before any is swept.

        A sweep that keeps every rest cannot go through a deal whose rests
        multiply, but the best of them with every waste that reaches them still
        cover far more positions than a beam of positions as wide. Rests are
        judged as the beams judge positions (:meth:`~cardtable.solver.updown.Search.promise`):
        a rest fixes its wastes' length and its free pairs; ties go to the larger
        key, so that every machine keeps the same rests. Only cards dealt bring a
        rest to this level until it is swept, so all of them are here to judge.
        """
        here = [level for level in self.levels if level[0] == dealt]
        width = self.width
        if width is None:
            return
        scores, rests = self._judged(here)
        if len(rests) <= width:
            return
        cut = np.lexsort((rests, scores))[-width]  # rests differ: ``width`` are judged this or better
        kept = np.sort(rests[(scores > scores[cut]) | (scores == scores[cut]) & (rests >= rests[cut])])
        for level in here:  # the sets of the rests dropped are never merged
            arrivals = self.levels[level]
            batches = list(zip(arrivals.rests, arrivals.nodes))
            arrivals.rests, arrivals.nodes, arrivals.size, arrivals.kept = [], [], 0, 0
            self._pending -= sum(len(came) for came, _ in batches)
            for came, nodes in batches:
                keep = kept[np.minimum(np.searchsorted(kept, came), len(kept) - 1)] == came
                self._arrive(arrivals, came[keep], nodes[keep])
        self.narrowed = True

    def _judged(self, levels: list[Level]) -> tuple[Keys, Keys]:
        """The rests of these levels (of one stock card), each once, and the judge's score of each.

        Within a level only the reserves and the tableau set a waste's length
        apart from the foundations, and the rests of a card share few reserve
        heights, tableaux and foundation classes: the judge is asked once for
        each of those.
        """
        search, at = self.search, self.search.layout
        shift = self._heights_shift
        mask = (1 << self._found_shift - shift) - 1  # reserve heights and tableau together
        scores, rests = [], []
        for dealt, home in levels:
            level = self._distinct(self.levels[dealt, home])
            fields, held = np.unique(level >> shift & mask, return_inverse=True)
            cards = as_keys([self._held(field << at.heights) for field in fields.tolist()])
            waste = self._cards - home - (len(search.line) - dealt) - cards[held]
            judged, promised = np.unique(level >> self._found_shift << 7 | waste, return_inverse=True)
            score = as_keys([search.promise(key >> 7, key & 127) for key in judged.tolist()])
            scores.append(score[promised])
            rests.append(level)
        return np.concatenate(scores), np.concatenate(rests)

    def _waste_length(self, rest: int) -> int:
        """How many cards each waste of the rest holds: the deal's cards in no other place."""
        return self._cards - self._not_in_waste(rest)

    def _not_in_waste(self, rest: int) -> int:
        """The cards home, in the reserves, on the tableau and in the stock."""
        search = self.search
        return self._home(rest) + self._held(rest) + len(search.line) - search.dealt(rest)

    def _held(self, rest: int) -> int:
        """The cards in the reserves and on the tableau, remembered by those fields."""
        search, at = self.search, self.search.layout
        fields = rest >> at.heights & (1 << at.found - at.heights) - 1
        held = self._held_by_fields.get(fields)
        if held is None:
            tableau = rest >> at.tableau & at.tableau_mask
            held = self._held_by_fields[fields] = search.in_reserves(
                rest >> at.heights & at.heights_mask
            ) + sum(1 for pile in range(len(search.tableau)) if tableau >> 4 * pile & 15)
        return held

    def _endgame(self) -> Iterator[int]:
        """Once the stock is out: the rests by the cards their reserves and wastes hold, most first, each count breadth first.

        No move of the endgame puts a card back on a reserve or the waste: each
        one takes a card off them, or lifts cards and sends a tableau card home.
        So that count never grows, and once every rest with one count is swept,
        none can come again: what was seen there is forgotten (deal 182: 4.5
        million endgame rests swept instead of 7.5, 1.3 GB at most instead of
        3.8 GB, with swept levels in arrays). Each layer holds the wastes new
        at its rest.
        """
        waiting = self.waiting
        while waiting:
            self._pause_between()
            stacked = max(waiting)
            seen = self._gathered(waiting.pop(stacked))
            fewer = waiting.setdefault(stacked - 1, (array("q"), array("q"))) if stacked else None
            rests, nodes = as_keys(list(seen)), as_keys(list(seen.values()))
            while len(rests):
                if self._won_among(rests, nodes):
                    return
                layer = _EndgameLayer(rests, nodes, seen, {}, fewer)
                yield from self._in_batches(len(rests), partial(self._endgame_range, layer))
                upcoming = layer.upcoming
                self.endgame_swept += len(rests)
                if self.trace:
                    self.layers.append(self._layer(rests, nodes))
                    self._layered += len(rests)
                if fewer is not None:
                    self._merge_grown(stacked - 1)
                self.sets.forget_merges()
                self._thin_out(seen, upcoming)
                # what was remembered by tableau and foundations is mostly this layer's: forgotten, it stays out of the room
                self.search.forget_endgame()
                rests, nodes = as_keys(list(upcoming)), as_keys(list(upcoming.values()))
                self._entries -= len(upcoming)  # they are held in the layer now
            self._entries -= len(seen)  # no rest with this many cards stacked can come again
            if fewer is not None and not fewer[0]:
                waiting.pop(stacked - 1, None)

    def _won_among(self, rests: Keys, nodes: Keys) -> bool:
        """Whether a rest of this endgame layer is won (its set holds only the empty waste); then the win is traced, if the sweep keeps a trace."""
        shift = self._shift
        for rest in rests[nodes == BARE].tolist():
            if self.search.is_won(rest << shift):
                self.won = True
                if self.trace:
                    self.layers.append(self._layer(rests, nodes))
                    self.win = self._trace(rest << shift)
                return True
        return False

    def _endgame_range(self, layer: _EndgameLayer, start: int, stop: int) -> None:
        """Sweep the rests of an endgame layer from one index to another, with the moves of their chunk (:data:`ENDGAME_CHUNK`), made when first needed."""
        while start < stop:
            chunk = start // ENDGAME_CHUNK
            low = chunk * ENDGAME_CHUNK
            if chunk != layer.chunk:
                source, after, wastes = self._endgame_moves(
                    layer.rests[low : low + ENDGAME_CHUNK], layer.nodes[low : low + ENDGAME_CHUNK]
                )
                layer.chunk, layer.moves = chunk, (source + low, after, wastes)
            end = min(stop, low + ENDGAME_CHUNK)
            source, after, wastes = layer.moves
            first, last = np.searchsorted(source, (start, end)).tolist()
            self._endgame_batch(layer, source[first:last], after[first:last], wastes[first:last])
            start = end

    def _endgame_batch(self, layer: _EndgameLayer, source: Keys, after: Keys, wastes: Keys) -> None:
        """Make moves of an endgame layer's rests (``source``: each one's index): keep what is new at each rest reached with as many cards stacked, and add the rests with fewer to those waiting with fewer.

        A move that takes a card off a reserve or the waste leads to fewer
        cards stacked: those rests wait, each merged once its count is swept.
        The others (a tableau card home, lifts) keep the count: a rest reached
        again goes on only with the wastes not seen there before.
        """
        heights = self.search.layout.heights_mask
        leaves = (wastes != layer.nodes[source]) | (
            (after ^ layer.rests[source]) >> self._heights_shift & heights != 0
        )
        if leaves.any():
            assert layer.fewer is not None  # a card left: there was one
            for column, values in zip(layer.fewer, (after[leaves], wastes[leaves])):
                column.frombytes(values.tobytes())
            self._pending += int(leaves.sum())
        stay = ~leaves
        seen, upcoming = layer.seen, layer.upcoming
        union, difference = self.sets.union, self.sets.difference
        for rest, node in zip(after[stay].tolist(), wastes[stay].tolist()):
            old = seen.get(rest)
            if old is None:  # a rest not seen before: the usual case, and the cheapest
                seen[rest] = node
                self._entries += 1
            elif new := difference(node, old):
                seen[rest] = union(old, new)
                node = new
            else:
                continue
            waiting_here = upcoming.get(rest)
            if waiting_here is None:
                upcoming[rest] = node
                self._entries += 1
            else:
                upcoming[rest] = union(waiting_here, node)

    # -- checkpoints -------------------------------------------------------------

    def checkpoint(self) -> Checkpoint:
        """What the sweep holds, to go on from later (:meth:`resumed`): only from :attr:`between`, and only with no trace.

        A trace is every rest swept, too many to keep for sweeps long enough
        to need a checkpoint; a sweep that keeps none says a win, and the
        solver traces it.
        """
        if self.trace or not self._is_between:
            raise ValueError(
                "a checkpoint is taken only between two stock cards or endgame counts, with no trace"
            )
        levels = {
            level: (arrivals.rests, arrivals.nodes, arrivals.merged)
            for level, arrivals in self.levels.items()
            if arrivals.size
        }
        counts = {
            "states": self.search.states,
            "endgame_swept": self.endgame_swept,
            "entries": self._entries,
            "pending": self._pending,
            "sets_kept": self._sets_kept,
            "narrowed": int(self.narrowed),
        }
        sets = (self.sets.packed, self.sets.several, self.sets.dealt_on)
        return Checkpoint(
            self.search.root, self.dealt, list(self.search.classes), counts, sets, levels, self.waiting
        )

    @classmethod
    def resumed(
        cls, search: Search, checkpoint: Checkpoint, room: int | None, width: int | None = None
    ) -> Sweep:
        """The sweep that took ``checkpoint``, on ``search`` (made afresh for the same position), to go on where it stopped."""
        if checkpoint.root != search.root:
            raise InvalidCheckpointError("the checkpoint is of another position: its start's key differs")
        sweep = cls(search, room, width, trace=False)
        search.know_classes(checkpoint.classes)
        counts = checkpoint.counts
        search.states = counts["states"]
        sweep.endgame_swept, sweep._entries, sweep._pending = (
            counts["endgame_swept"],
            counts["entries"],
            counts["pending"],
        )
        sweep._sets_kept, sweep.narrowed = counts["sets_kept"], bool(counts["narrowed"])
        sweep.sets = WasteSets.restored(*checkpoint.sets)
        for level, (rests, nodes, merged) in checkpoint.levels.items():
            arrivals = sweep.levels[level] = Arrivals()
            arrivals.rests, arrivals.nodes, arrivals.size = list(rests), list(nodes), sum(map(len, rests))
            arrivals.merged = merged
        sweep.waiting = dict(checkpoint.waiting)
        sweep.dealt = checkpoint.dealt
        sweep._steps = sweep._sweep(resumed=True)
        return sweep

    def _pause_between(self) -> None:
        """Let :attr:`between` look at the sweep, where a checkpoint may be taken."""
        if self.between is not None:
            self._is_between = True
            try:
                self.between()
            finally:
                self._is_between = False

    def _wait(self, rests: Keys, nodes: Keys) -> None:
        """Add endgame rests and their sets to those waiting with their counts of cards in the reserves and the waste: a rest that comes again is merged once its count is swept.

        The count depends on the fields from the reserves' heights up: it is
        worked out once for each.
        """
        _, first, inverse = np.unique(rests >> self._heights_shift, return_index=True, return_inverse=True)
        counts = as_keys([self._stacked(rest << self._shift) for rest in rests[first].tolist()])[inverse]
        for stacked in each_once(counts).tolist():
            at = counts == stacked
            waiting = self.waiting.setdefault(stacked, (array("q"), array("q")))
            for column, values in zip(waiting, (rests[at], nodes[at])):
                column.frombytes(values.tobytes())
        self._pending += len(rests)

    def _stacked(self, rest: int) -> int:
        """The cards in the reserves and the waste of an endgame rest."""
        at = self.search.layout
        return self.search.in_reserves(rest >> at.heights & at.heights_mask) + self._waste_length(rest)

    def _merge_grown(self, stacked: int) -> None:
        """Merge the rests waiting with this count in place, once they have grown past :data:`MERGED_PAST`, as :meth:`_arrive` merges a level's."""
        waiting = self.waiting[stacked]
        if len(waiting[0]) < max(MERGED_PAST, 2 * self._waiting_kept.get(stacked, 0)):
            return
        arrivals = Arrivals()
        arrivals.add(*(np.frombuffer(column, dtype=np.int64) for column in waiting))
        # the merge lets go of the columns' buffers, so they may be emptied and refilled
        for column, merged in zip(waiting, self._merged(arrivals)):
            del column[:]
            column.frombytes(merged.tobytes())
        self._waiting_kept[stacked] = len(waiting[0])

    def _gathered(self, waiting: Waiting) -> dict[int, int]:
        """The rests waiting with one count, each once, in the order it first came, with the union of its sets (see :meth:`_merged`)."""
        arrivals = Arrivals()
        arrivals.add(*(np.frombuffer(column, dtype=np.int64) for column in waiting))
        rests, nodes = self._merged(arrivals)
        self._pending -= arrivals.size
        self._entries += len(rests)
        return dict(zip(rests.tolist(), nodes.tolist()))

    @staticmethod
    def _layer(rests: Keys, nodes: Keys) -> Layer:
        """A swept layer as it is kept for tracing a win: its rests (shifted past their empty waste, see :class:`Arrivals`) and sets in arrays."""
        return array("q", rests.tobytes()), array("q", nodes.tobytes())

    def _layer_items(self, layer: Layer, heights: set[int]) -> Iterator[tuple[int, int]]:
        """The rests and sets of a kept layer whose reserve heights are among ``heights``.

        A step back looks for the position one move before; most of a layer's
        rests have other heights, and picking the others out with numpy spares a
        win's trace a Python loop over every rest of three levels a step (deal
        790 narrowed to 100,000 rests a card: 11 s of a 50 s sweep).
        """
        rests, nodes = layer
        words = np.frombuffer(rests, dtype=np.int64)
        picked = np.flatnonzero(
            np.isin(words >> self._heights_shift & self.search.layout.heights_mask, list(heights))
        )
        return (
            (rest << self._shift, nodes[index])
            for index, rest in zip(picked.tolist(), words[picked].tolist())
        )

    def _endgame_moves(self, rests: Keys, nodes: Keys) -> Moves:
        """The moves of a batch of rests with the stock out, as the search makes them (:meth:`~cardtable.solver.updown.Search.endgame_children`), in the order a rest at a time makes them, each rest after settled.

        Every move but a lift, then the lifts that make an ace pile and a king
        pile meet (:meth:`~cardtable.solver.updown.Search.paired`) and a card
        home. Lifts leave the waste as it was, so the lifted rests share its set.
        Made a rest at a time, these moves took 44% of deal 182's sweep.
        """
        self._know_classes(rests)
        tops = self._tops(rests, nodes)  # read once: they go home, and onto an empty pile
        moves = [self._tops_home(rests, tops), self._tableau_home(rests, nodes, 0)]
        # the rests with an empty tableau pile: the lowest pile holds the lowest rank, 0 when empty
        has_space = rests >> self._tableau_shift & 15 == 0
        spaces = np.flatnonzero(has_space)
        if len(spaces):
            onto = np.flatnonzero(has_space[tops[0]])
            moves.append(self._onto_tableau(rests, [column[onto] for column in tops]))
            lifted_from, lifted = self._lifted(rests[spaces])
            if len(lifted):
                self._know_classes(lifted)
                lifted_sets = nodes[spaces][lifted_from]
                source, after, wastes = _joined(
                    [
                        self._tops_home(lifted, self._tops(lifted, lifted_sets)),
                        self._tableau_home(lifted, lifted_sets, 0),
                    ]
                )
                moves.append((spaces[lifted_from[source]], after, wastes))
        source, after, wastes = _joined(moves)
        return source, self._settled(after), wastes

    def _onto_tableau(self, rests: Keys, tops: list[Keys]) -> Moves:
        """The reserves' and the waste's tops (``tops``, see :meth:`_tops`) of rests of a batch with an empty tableau pile, onto that pile, in order."""
        source, card, base, wastes = tops
        tableaux, inverse = np.unique(
            rests[source] >> self._tableau_shift & self.search.layout.tableau_mask, return_inverse=True
        )
        onto = np.array(
            [self._onto_by_tableau.get(tableau) or self._onto_from(tableau) for tableau in tableaux.tolist()],
            dtype=np.int64,
        ).reshape(-1, 14)
        found = rests[source] >> self._found_shift << self._found_shift
        return source, base + found + onto[inverse, card], wastes

    def _lifted(self, rests: Keys) -> tuple[Keys, Keys]:
        """Each rest's lifts that make an ace pile and a king pile meet (:meth:`~cardtable.solver.updown.Search.paired`), in order: the rests' indices, and the rests after."""
        paired, shift, at = self.search.paired, self._shift, self.search.layout

        def rows(high: int) -> list[tuple[int]]:
            return [(fields >> shift,) for _, fields in paired(high << at.tableau)]

        lifted_from, fields = _spread(rests >> self._tableau_shift, rows, 1)
        return lifted_from, rests[lifted_from] & (1 << self._tableau_shift) - 1 | fields[:, 0]

    def _settled(self, rests: Keys) -> Keys:
        """The rests with every tableau card that can go home sent home (:meth:`~cardtable.solver.updown.Search.settle`), each tableau and foundations settled once, in the order first met."""
        highs, first, inverse = np.unique(
            rests >> self._tableau_shift, return_index=True, return_inverse=True
        )
        met = np.argsort(first)
        settled = np.empty(len(highs), dtype=np.int64)
        shift = self._shift
        settled[met] = [key >> shift for key in self.search.settled_fields(highs[met].tolist())]
        return rests & (1 << self._tableau_shift) - 1 | settled[inverse]

    def _homes_from(self, found: int) -> None:
        """Work out where each rank goes home from foundation class ``found``: for each place, the bits it adds to a rest.

        Kept in flat tables, so that a batch's moves home are looked up all at
        once: :attr:`_home_rows` holds the bits, and the slot of each class and
        rank in :attr:`_home_slots` says where its rows begin and how many.
        """
        search, shift, rows = self.search, self._shift, self._home_rows
        takes = search.takes[found]
        for card in range(1, 14):
            if takes >> card & 1:
                afters = [after >> shift for _, after in search.home_afresh(found, card)]
                self._home_slots[found * RANK_SLOTS + card] = len(rows) << SLOT_BITS | len(afters)
                rows.extend(afters)
        self._homes_known[found] = 1

    def _onto_from(self, tableau: int) -> list[int]:
        """What a rest (shifted past its waste) gains when a card goes onto an empty pile of this tableau, by rank."""
        refilled, shift = self.search.refilled, self._tableau_shift
        onto = self._onto_by_tableau[tableau] = [
            (refilled(tableau, 0, card) - tableau) << shift if card else 0 for card in range(14)
        ]
        return onto

    # -- bookkeeping ------------------------------------------------------------

    def _level(self, level: Level) -> Arrivals:
        """The arrivals at a stock-phase level, made ready if none came yet."""
        arrivals = self.levels.get(level)
        if arrivals is None:
            arrivals = self.levels[level] = Arrivals()
        return arrivals

    def _arrive(self, arrivals: Arrivals, rests: Keys, nodes: Keys) -> None:
        """Add rests that moves reached to a level's arrivals; merge them once they have grown past :data:`MERGED_PAST`."""
        arrivals.add(rests, nodes)
        self._pending += len(rests)
        if arrivals.size >= max(MERGED_PAST, 2 * arrivals.kept):
            self._merged(arrivals)

    def _distinct(self, arrivals: Arrivals) -> Keys:
        """A level's rests, each once, in no particular order: as many as it will sweep, without merging their sets."""
        if arrivals.merged or not arrivals.size:
            return self._merged(arrivals)[0]
        return each_once(np.concatenate(arrivals.rests))

    def _merged(self, arrivals: Arrivals) -> tuple[Keys, Keys]:
        """A level's rests, each once, in the order they first came, with the union of the sets each came with: what a dict of rests held."""
        if not arrivals.size:
            return as_keys([]), as_keys([])
        if not arrivals.merged:
            # the batches go as soon as they are joined, and only a slice of the sets at a time becomes ints;
            # what the unions do not read goes before them, for they take memory too (deal 888 ran out there)
            rests, arrivals.rests = np.concatenate(arrivals.rests), []
            order = np.argsort(rests, kind="stable")  # a rest's comings stay in the order they came
            ordered = rests[order]
            del rests
            starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
            sizes = np.diff(np.append(starts, len(ordered)))
            distinct = ordered[starts]
            del ordered
            nodes, arrivals.nodes = np.concatenate(arrivals.nodes), []
            nodes = nodes[order]
            first = np.argsort(order[starts])  # each rest's place in the order it first came
            del order
            united = nodes[starts]
            # a rest that came each time with the same set has it already (deal 48: 63% of those that came again)
            several = np.flatnonzero(np.minimum.reduceat(nodes, starts) != np.maximum.reduceat(nodes, starts))
            for part in np.array_split(several, -(-len(several) // UNITED_AT_ONCE)) if len(several) else ():
                low, high = starts[part[0]], starts[part[-1]] + sizes[part[-1]]
                came, union, unions = nodes[low:high].tolist(), self.sets.union, []
                for start, size in zip((starts[part] - low).tolist(), sizes[part].tolist()):
                    node = came[start]
                    for other in came[start + 1 : start + size]:
                        if other != node:  # a set that came again adds nothing
                            node = union(node, other)
                    unions.append(node)
                united[part] = unions
            arrivals.rests, arrivals.nodes = [distinct[first]], [united[first]]
            self._pending -= len(nodes) - len(first)
            arrivals.size = arrivals.kept = len(first)
            arrivals.merged = True
        return arrivals.rests[0], arrivals.nodes[0]

    def _home(self, rest: int) -> int:
        """How many cards the rest has home (from its foundation class)."""
        found = rest >> self._found_at
        if found >= len(self._home_counts):
            for pairs, aces, kings in self.search.classes[len(self._home_counts) : found + 1]:
                self._home_counts.append(13 * pairs + sum(aces) + sum(14 - top for top in kings))
        return self._home_counts[found]

    def _key(self, rest: int, ranks: Ranks) -> int:
        """A rest and a waste as one key: the waste's ranks at their earliest places in the line."""
        after, place, waste = self.search.after, -1, 0
        for card in reversed(ranks):
            place = after[place + 1][card]
            waste |= 1 << place
        return rest | waste

    # -- a win traced back --------------------------------------------------------

    def _trace(self, won: int) -> list[int]:
        """The step codes from the start to the won rest, found a step at a time from the end.

        Each step back looks, among the rests kept where the one before must lie,
        for a position holding a waste that one move can turn into the one at
        hand, and confirms the move with the search's own
        :meth:`~cardtable.solver.updown.Search.moves`. In the endgame, the
        position before lies in an earlier layer, the one before it in an
        earlier one still, so the layers are looked through once, from the last;
        a position the stock phase reached may have none before it there.
        """
        start = self.search.root
        rest, codes = won, []
        ranks: Ranks = ()
        index = len(self.layers) - 1
        while (earlier := self._step_back_in_layers(rest, ranks, index)) is not None:
            rest, ranks, code, index = earlier
            codes.append(code)
        stock_out = len(self.search.line)
        while self._key(rest, ranks) != start:
            dealt, home = self.search.dealt(rest), self._home(rest)
            if dealt == stock_out:  # it came from the last level, and may have sent tableau cards home since
                levels = [(dealt - 1, before) for before in range(home, -1, -1)]
            else:
                levels = [(dealt, home - 1), (dealt - 1, home), (dealt - 1, home - 1)]
            sources = [self.swept_levels[level] for level in levels if level in self.swept_levels]
            step = self._step_back(rest, ranks, sources)
            assert step is not None, "a position swept has no position before it"
            rest, ranks, code = step
            codes.append(code)
        return codes[::-1]

    def _step_back_in_layers(self, rest: int, ranks: Ranks, index: int) -> tuple[int, Ranks, int, int] | None:
        """The step back from a position of layer ``index`` into an earlier layer, and that layer's index; None if there is none: the stock phase reached it."""
        for earlier in range(index - 1, -1, -1):
            step = self._step_back(rest, ranks, [self.layers[earlier]])
            if step is not None:
                return (*step, earlier)
        return None

    def _step_back(self, rest: int, ranks: Ranks, sources: Sequence[Layer]) -> tuple[int, Ranks, int] | None:
        """The position one move before (``rest``, ``ranks``) among ``sources``' rests and sets, and the move's code; None if none is there."""
        search = self.search
        at = search.layout
        target = self._key(rest, ranks)
        heights = rest >> at.heights & at.heights_mask
        # a move takes at most one card off one reserve
        near = {heights} | {heights + (1 << 4 * index) for index in range(len(search.reserves))}
        # a move takes the waste's top, puts a card on it, or leaves it; a rest's wastes are all as long
        wastes: dict[int, list[Ranks]] = {
            len(ranks): [ranks],
            len(ranks) + 1: [(card, *ranks) for card in range(1, 14)],
            len(ranks) - 1: [ranks[1:]],
        }
        for layer in sources:
            for before, node in self._layer_items(layer, near):
                for waste in wastes.get(self._waste_length(before), ()):
                    if self.sets.holds(node, waste):
                        key = self._key(before, waste)
                        for code, child in search.moves(key):
                            if child == target:
                                return before, waste, code
        return None
