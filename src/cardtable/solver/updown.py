"""A search made for Acey and Kingsley: cards as ranks, foundations up to what they can reach.

The generic search in :mod:`cardtable.solver.search` is exact for this game too, but
it sees every way the eight foundations can pass cards among themselves, and that
multiplies the positions it must visit by up to 14 for every ace pile and king pile
whose tops meet. This search visits each position once *up to those passes*, with
the same rules and the same answers. Its argument, in five parts:

1. **Suits never matter** (rules.md), so a card is its rank: positions that differ
   only in suits have the same future.

2. **Passes between foundations are reversible, and their classes have a simple
   canonical form.** An ace pile holds ace..a, so its top rank ``a`` (0 when empty)
   says everything; a king pile holding king..b is its top ``b`` (14 when empty).
   A foundation's top may move onto another foundation where it fits, so:

   - ace pile ``a`` onto ace pile ``a - 1`` turns the pair of tops (a, a-1) into
     (a-1, a): as a *multiset* of tops nothing changed (the piles are alike);
     likewise king onto king;
   - ace pile ``a`` onto king pile ``a + 1`` gives ace ``a - 1`` and king ``a``, and
     the king's top moves back the same way. So an ace pile ``a`` and a king pile
     ``a + 1`` -- a *meeting pair*, which together hold one card of each rank --
     can slide their boundary to any (x, x + 1), 0 <= x <= 13, and nothing else.

   Every such move undoes itself, so the positions the foundations can reach from
   one another form classes, and a class is named by: the number ``m`` of meeting
   pairs in a maximum matching (an ace top ``a`` can only pair with a king top
   ``a + 1``, so per value of ``a`` the matching is simply the smaller count), and
   the tops left unmatched, which no move changes. Every sliding of the pairs is
   reachable, so the class is exactly "m free pairs + these unmatched tops".

   From a class, a card of rank r goes home onto an unmatched ace top r - 1, an
   unmatched king top r + 1, or a free pair slid to (r - 1, r), which leaves an ace
   top r and a king top r (the class is then normalised again). Once the stock is
   out, a card leaves the foundations for an empty tableau pile from an unmatched
   top, or as any rank 1..13 from a free pair. These are all the moves the class
   allows, so searching classes loses nothing, and a won line is turned back into
   real moves by sliding a concrete meeting pair (see :mod:`cardtable.solver.realise`).

3. **The waste is a stack of ranks.** Its future depends only on the ranks it holds,
   bottom to top, and the stock still to come: two positions whose wastes hold the
   same ranks in the same order are one position, whichever copies of those ranks
   they hold. (Deal a 7, deal another 7, play one home: the 7 left is the first or
   the second, and nothing can tell.) The cards ever on the waste, then the stock
   in dealing order, form one fixed *line*; the waste's ranks are a subsequence of
   the part dealt, and the search keeps that subsequence as the bitmask of its
   *earliest* copies in the line: each rank at the first line position with that
   rank after the one below it. Equal masks mean equal ranks in equal order, and
   back; a deal sets one bit (found in a table), a card leaving the top clears the
   highest. On three deals that 300,000 positions leave undecided, this merges
   43-74% of the positions that keying the waste by its cards told apart.

4. **Before the stock is out, nothing is undone**: every move puts a card home or
   takes one from the stock, so those positions form a DAG, and a position all of
   whose moves were tried without a win is lost for good, whatever search tried
   them. That lets beams (the positions after each stock card that look the
   most promising, judged as they stand or after a greedy look-ahead over the
   next stock cards) and restarted depth-first probes take turns and share what
   they proved. Once the stock is out, cards pass between tableau and
   foundations both ways, and each such endgame is searched to its end in one go.
   A third search takes turns with them: the sweep of
   :mod:`cardtable.solver.sweep`, which visits every position at once, a set of
   wastes per rest, and proves lost the deals whose waste grows long while
   little goes home.

5. **Once the stock is out, a tableau card that can go home goes at once, and
   lifts are made only to make an ace pile and a king pile meet, on the way to
   a card going home.** Count a line by its moves other than lifts, and call
   the fewest that win from a position its *distance*. Sending a tableau card
   home never adds to the distance: a lift takes the same card straight back
   to the pile it left, which it emptied, and lifts count nothing. Lifts made
   before a card goes onto an empty tableau pile can wait until after it: that
   move touches no foundation, and it needs a pile the lifts left empty in any
   order. Lifts made before a card goes home need be only those of a
   *pairing* (:func:`~cardtable.solver.foundations.pairings`): a lift leaves a
   top that takes only the rank lifted (an ace pile's ``x`` leaves ``x - 1``, a
   king pile's ``x`` leaves ``x + 1``), so a card that goes where a lift made
   room is of that rank, and going onto the tableau instead would put the same
   ranks in the same places.
   What lifts can do besides is make an ace top ``a`` and a king top ``b <= a``
   meet, a free pair that takes any rank, by lifting one card of each rank
   ``b..a``; with a free pair already there, any card goes home without them.
   The lifts that the card home did not need can follow it: it took no pile
   they use. So from every endgame position that can be won, one of the
   search's moves reaches a position nearer the win: a move other than a
   lift, or a pairing's lifts and then a card home, each followed by every
   tableau card that can go home going home (:meth:`Search.endgame_children`).
   (A test checks the claim on the foundation classes themselves: whatever
   lifts come before a card home, one of these moves reaches a position from
   which lifts alone lead to the same place.) The sweep follows them all, so
   it reaches a win whenever there is one, and by induction on the distance
   its ``unwinnable`` stays exact. What it spares is the endgame's positions
   that differ only in cards that could go straight home, or in cards lifted
   to wait on the tableau: deal 48's sweep keeps 4.4 million of them without
   this rule and 0.7 million with it. And a rest no longer tries every way of
   lifting cards onto the empty piles, which could run to hundreds: deal 1229's
   sweep goes through its endgame, 565,188 rests, in under half a minute,
   where trying every way it had swept 434,826 in 146 s. (The depth-first
   endgame search of the beams and probes makes every move one at a time: see
   :meth:`Search._endgame`.)

Every line the search returns is replayed move by move on the real
:class:`~cardtable.core.state.State` with the rules' own legality check before it
is reported.
"""

from __future__ import annotations

import functools
import itertools
import random
from array import array
from collections.abc import Callable, Iterable
from typing import Final

from cardtable.core.cards import ACE, KING, rank
from cardtable.core.errors import InvalidCheckpointError
from cardtable.core.move import Move
from cardtable.core.spec import ANY_RANK, NO_BUILD, GameSpec, Kind
from cardtable.core.state import State
from cardtable.solver.foundations import (
    EMPTY_KING_TOP,
    Foundations,
    home_classes,
    lift_classes,
    normalise,
    pairings,
    takes_home,
)
from cardtable.solver.realise import DEAL, HOME, LIFT, TABLEAU, TO_TABLEAU, WASTE, Realiser, Step
from cardtable.solver.sweep import Sweep, SweepTooLarge

Node = tuple[int, int, int, int, int]
"""(reserve heights, cards dealt from the stock, waste, tableau, foundations): a position's fields.

Reserve ``i``'s height is in bits 4i..4i+3; the waste is a bitmask of line
positions (see the module's argument, part 3); the tableau's ranks take 4 bits
each, sorted with the lowest in the lowest bits (0: an empty pile); the
foundations are their class's number in :attr:`Search.classes`. The search
itself keeps a position as one int, its *key*, with these fields side by side
(:meth:`Search.pack`), and makes a move by arithmetic on the key.
"""

Check = Callable[[int, int], int]
"""A budget's look, ``check(states, table)``: raises when it is spent, else says how many more positions may come before the next look."""

Judge = Callable[[list[int], Callable[[], object]], None]
"""Sorts a beam level (keys) in place, most promising first; calls its second argument now and then, which raises when the budget is spent."""

STEP_BITS: Final = 14
"""A :data:`~cardtable.solver.realise.Step` packed into an int, its *code*: what (2 bits), source + 2 (6), rank (4), how (2).

No code is 0 (a card home has a rank), so one int can hold several steps, the
first in the lowest bits: a move of the endgame that sends cards home after it
(see the module's argument, part 5).
"""

_WASTE_CODE: Final = (WASTE + 2) << 2
"""The source's bits of a step code for a card from the waste (see :data:`STEP_BITS`)."""
_TABLEAU_CODE: Final = (TABLEAU + 2) << 2
_NO_SOURCE: Final = 2 << 2
"""Source 0, for steps that need none: a deal, a lift."""
_DEAL_CODE: Final = DEAL | _NO_SOURCE
_ONE_STEP: Final = (1 << STEP_BITS) - 1


def applies(spec: GameSpec) -> bool:
    """Whether a game has the shape this search assumes: Acey and Kingsley's.

    Reserves must be dealt at most 15 cards (they never grow), for a node keeps
    each one's height in 4 bits.
    """
    kinds = {group.kind: group for group in spec.groups}
    foundation, tableau = kinds.get(Kind.FOUNDATION), kinds.get(Kind.TABLEAU)
    return (
        foundation is not None
        and tableau is not None
        and set(kinds) == {Kind.FOUNDATION, Kind.RESERVE, Kind.TABLEAU, Kind.STOCK, Kind.WASTE}
        and not spec.suits_matter
        and spec.foundation_gives
        and set(foundation.bases) == {ACE, KING}
        and not foundation.build.same_suit
        and tableau.build == NO_BUILD
        and tableau.fill == ANY_RANK
        and spec.refill_from_stock == tableau.name
        and spec.redeals == 0
        and all(max(sizes) <= 15 for name, sizes in spec.deal_sizes if name == kinds[Kind.RESERVE].name)
    )


FIRST_WIDTH: Final = 10
"""Positions the first beam keeps after each card from the stock.

Narrow, because most deals fall to the first beams and a wide beam pays for every
position it keeps: of deals 1-1000 at 500,000 positions each, starting at 10
wins 842 with a median of 5,110 positions a win, starting at 100 wins 831 with
a median of 20,842. The rounds grow by :data:`GROWTH`, so a long search still
reaches wide beams.
"""
FIRST_PROBE: Final = 20 * FIRST_WIDTH
"""Positions the first depth-first probe may visit: a small share of a round, as the probes win few deals."""
GROWTH: Final = 3
"""How much more room each round of beam and probe gets than the one before.

A budget's last round is cut short and wasted. With growth ``g``, the widest
beam a budget finishes is, over budgets spread evenly on a log scale, about
(g - 1) / g ** 1.5 as wide as one round the whole budget would pay for: highest
at 3 (0.385), with 2 and 4 close behind (0.354, 0.375).
"""
SWEEP_FROM: Final = 2
"""The round after which the sweep (:mod:`cardtable.solver.sweep`) takes its first turn."""
SWEEP_THROUGH: Final = 0.75
"""How far into the stock a sweep must be for it to go on to the end in one turn.

A sweep that keeps every rest and cannot go through runs short of room as its
rests multiply: of the 126 deals of 1-1000 unknown at 60 s, 125 did, while
sweeping the levels of stock cards 22 to 63 (median 34, seven past the 50th),
after 0.7 to 9.2 s alone (measured when such a sweep gave way instead of
narrowing). One that gets this far mostly has few rests a level, and its room
bounds what is left. Deal 48's sweep is past its 50th card within a second,
then sweeps 1.5 million rests before the stock is out and 0.7 million after
(4.4 million before the endgame rule of part 5 of the module's argument), where
the other searches' share would cost it the minute. A narrowed sweep
goes on too: it keeps at most :data:`~cardtable.solver.sweep.FIRST_RESTS`
rests a card, and wins where its share of the minute was too short (deal 396,
won by the sweep alone in 36 s, is won in 52 s instead of unknown at 60 s);
of the 147 deals of 1-1000 won at 60 s with over 50,000 positions, 139 are
won with the same positions as when it kept its share, 7 with fewer (330
with 3.9 million instead of 6.4) and one with more (495: 6.1 million
instead of 5.6).
"""
SWEEP_SHARE: Final = 3
"""Positions the sweep visits for each one the other searches visit, after round :data:`SHARE_FROM` and until :data:`SWEEP_THROUGH`.

Narrowed to :data:`~cardtable.solver.sweep.FIRST_RESTS` rests a card, the
sweep wins most of the hard deals that the beams win, and others besides, so
it gets the larger share. Measured at 60 s a deal on 25 of the deals it
concerns most (the 8 unknown at 60 s that a sweep 100,000 wide wins alone,
the 10 that one 30,000 wide wins, 7 that the beams won in over 15 s), with
the constants patched (scratch runs of ``benchmarks/solve.py``, 5 December):
a share of 3 wins all 25, 202 and 396 in 56 s; a share of 2 all but 202 and
396; a share of 1 five of the first 12 (run before a win's trace was made
ten times as fast, which cost deal 790 11 s). Deal 48 needs the sweep to go on
alone near the end of the stock, whatever its share (see
:data:`SWEEP_THROUGH`).
"""
SHARE_FROM: Final = 5
"""The round after which the sweep takes :data:`SWEEP_SHARE`; before, it visits as many positions as the other searches.

The narrowed sweep wins only once the others have visited hundreds of
thousands of positions, while most deals the beams win take far fewer: a
budget of positions loses to the larger share what the beams would have
won with it (deals 1-1000 at 500,000 positions: 805 won with the larger
share from the first turn, 835 with this; at 2,000,000, 847 and 854).
Each turn tops the sweep up to its share of all the positions so far, so a
sweep that wins in a turn after this round wins after the same positions of
the others either way. Of the
180 deals won in the 60 s run of the 289 deals the sweep concerns (see
docs/acey-and-kingsley-journal.md), the sweep wins 27, each in the turn after round 5 or
6 (the others had visited 679,375 to 3,115,098 positions), and all 27 are
won again with the positions they took, give or take 0.5% (the dead
positions the searches share differ a little; 495, which the beams win,
takes 3.3% more). Scratch runs, 5 December, with a deal's positions as its
budget. A smaller share before this round (one for two, or for three) wins
two more of deals 1-1000 at 500,000 positions, and would delay the sweep's
early proofs that a deal is lost.
"""
LOOK_AHEAD: Final = 8
"""Stock cards the beam's greedy look-ahead takes before it judges a position (see :meth:`Search._rank_ahead`)."""


class _ProbeCut(Exception):
    """A probe used up its positions."""


class Search:
    """The search over positions (see the module's argument and :data:`Node`) for one position."""

    def __init__(self, state: State, table_cap: int | None = None) -> None:
        """``table_cap``: the positions a budget lets the search remember (see :meth:`_look`); None, no bound."""
        piles, plan = state.piles, state.plan
        self.state = state
        self.reserves = [i for i, kind in enumerate(plan.kinds) if kind is Kind.RESERVE]
        self.tableau = [i for i, kind in enumerate(plan.kinds) if kind is Kind.TABLEAU]
        assert plan.stock is not None and plan.waste is not None
        self.reserve_ranks = [tuple(rank(card) for card in piles[i]) for i in self.reserves]
        waste, stock = piles[plan.waste], piles[plan.stock]
        self.line = tuple(rank(card) for card in waste) + tuple(rank(card) for card in reversed(stock))
        # after[i + 1][r]: the first line position after i that holds rank r (i = -1: from the start)
        self.after = _first_after(self.line)
        bases = state.spec.group("foundation").bases
        self.ace_piles = [i for i, base in zip(plan.foundations, bases) if base == ACE]
        self.king_piles = [i for i, base in zip(plan.foundations, bases) if base == KING]
        aces = [len(piles[i]) for i in self.ace_piles]
        kings = [EMPTY_KING_TOP - len(piles[i]) for i in self.king_piles]
        self.classes: list[Foundations] = []
        self.takes: list[int] = []  # by class number: the ranks it takes home, bit r for rank r
        self._class_numbers: dict[Foundations, int] = {}
        self.layout = _Layout(len(self.line), len(self.reserves), len(self.tableau))
        self.root = self.pack(
            (
                _nibbles(len(piles[i]) for i in self.reserves),
                len(waste),
                (1 << len(waste)) - 1,
                _nibbles(sorted(rank(piles[i][-1]) if piles[i] else 0 for i in self.tableau)),
                self._number(normalise(0, aces, kings)),
            )
        )
        self.dead: set[int] = set()
        self.table_cap = table_cap
        self._sweeping = False
        self.swept = 0  # positions the sweep has visited
        self.states = 0
        self.due = 0  # the position count at which to look at the budget again (see :data:`Check`)
        self.most_states: int | None = None  # the budget's, if it has one: a sweep's batch never passes it
        self._homes: dict[int, list[tuple[int, int]]] = {}
        self._lifts: dict[int, list[tuple[int, int, int]]] = {}
        self._pairings: dict[int, list[tuple[tuple[int, ...], int]]] = {}
        # by a key's tableau and foundations (see paired)
        self._paired: dict[int, list[tuple[tuple[int, ...], int]]] = {}
        self._settled: dict[int, tuple[int, int]] = {}  # by a key's tableau and foundations (see settle)
        self._refills: dict[int, int] = {}
        self._plays: dict[int, tuple[int, tuple[tuple[int, int, int], ...]]] = {}
        self._heights_left: dict[int, int] = {}
        self._reserve_tops_at: dict[int, list[tuple[int, int, int]]] = {}
        # None once it gave way for good, or the search ended
        self.sweep: Sweep | None = Sweep(self, table_cap)
        self._beams = 0  # beams begun
        # the beams' lead for a guess (see guess): stock cards dealt, the beam, the first step code
        self._lead: tuple[int, int, int] | None = None

    def pack(self, node: Node) -> int:
        """A position's key: its fields side by side in one int.

        A search remembers millions of positions: kept as tuples they took ~350
        bytes each, as ints ~180 (deal 3 of Acey and Kingsley at 2,000,000
        positions: 234 MB for 1,177,219 kept, the sets and links included), and a
        move made on the key needs no tuple at all. Each field has a fixed width
        but the foundations' class number, which goes on top.
        """
        heights, position, waste, tableau, found = node
        at = self.layout
        return (
            waste
            | position << at.position
            | heights << at.heights
            | tableau << at.tableau
            | found << at.found
        )

    def unpack(self, key: int) -> Node:
        """The fields of a position's key: :meth:`pack` undone."""
        at = self.layout
        return (
            key >> at.heights & at.heights_mask,
            key >> at.position & at.position_mask,
            key & at.waste_mask,
            key >> at.tableau & at.tableau_mask,
            key >> at.found,
        )

    def dealt(self, key: int) -> int:
        """How far into the line the stock has been dealt: the level of a position in the stock phase."""
        return key >> self.layout.position & self.layout.position_mask

    def is_won(self, key: int) -> bool:
        """Whether nothing is left off the foundations: no reserve, waste, stock or tableau card."""
        return key & self.layout.below_found == len(self.line) << self.layout.position

    def _number(self, found: Foundations) -> int:
        """The class's number, given in order of first sight: keys carry numbers, cheap to hash."""
        number = self._class_numbers.get(found)
        if number is None:
            number = self._class_numbers[found] = len(self.classes)
            self.classes.append(found)
            self.takes.append(takes_home(found))
        return number

    def know_classes(self, classes: Iterable[Foundations]) -> None:
        """Number these foundation classes in this order, as the search that numbered them first did (see :class:`~cardtable.solver.sweep.Checkpoint`)."""
        for number, found in enumerate(classes):
            if self._number(found) != number:
                raise InvalidCheckpointError(
                    f"foundation class {number} of the checkpoint, {found!r}, was numbered otherwise"
                )

    def home(self, found: int, card: int) -> list[tuple[int, int]]:
        """Where a card of rank ``card`` can go home from class number ``found``, as bits to add: (to a step code, to a key).

        :func:`~cardtable.solver.foundations.home_classes` on class numbers, remembered and shifted into place
        once: the same few come up again and again, on the search's hottest
        paths, which look them up in ``self._homes`` themselves and call this
        only for one not yet seen.
        """
        outcomes = self._homes.get(found << 4 | card)
        if outcomes is None:
            outcomes = self._homes[found << 4 | card] = self.home_afresh(found, card)
        return outcomes

    def home_afresh(self, found: int, card: int) -> list[tuple[int, int]]:
        """:meth:`home`, worked out and not remembered: for a caller that keeps the outcomes its own way.

        The sweep keeps them in flat tables (:meth:`~cardtable.solver.sweep.Sweep._homes_from`),
        once for each class. Remembered here as well, they took about 900
        bytes a class: 239 MB of deal 868's exact sweep at 25 million rests.
        """
        at = self.layout.found
        return [
            (how << 12, self._number(after) << at) for how, after in home_classes(self.classes[found], card)
        ]

    def lifts(self, found: int) -> list[tuple[int, int, int]]:
        """:func:`~cardtable.solver.foundations.lift_classes` on class numbers, remembered."""
        outcomes = self._lifts.get(found)
        if outcomes is None:
            outcomes = self._lifts[found] = [
                (how, card, self._number(after)) for how, card, after in lift_classes(self.classes[found])
            ]
        return outcomes

    def pairings(self, found: int, spaces: int) -> list[tuple[tuple[int, ...], int]]:
        """:func:`~cardtable.solver.foundations.pairings` on class numbers, remembered."""
        outcomes = self._pairings.get(found << 3 | spaces)
        if outcomes is None:
            outcomes = self._pairings[found << 3 | spaces] = [
                (ranks, self._number(after)) for ranks, after in pairings(self.classes[found], spaces)
            ]
        return outcomes

    def refilled(self, tableau: int, card: int, incoming: int) -> int:
        """The tableau once ``card`` (0: an empty pile) has left it and ``incoming`` (0: nothing) taken its place."""
        key = tableau << 8 | card << 4 | incoming
        after = self._refills.get(key)
        if after is None:
            ranks = _unnibble(tableau, len(self.tableau))
            ranks.remove(card)
            after = self._refills[key] = _nibbles(sorted((*ranks, incoming)))
        return after

    def tableau_plays(self, tableau: int, incoming: int) -> tuple[int, tuple[tuple[int, int, int], ...]]:
        """The tableau's cards as plays home, remembered: their ranks as bits, then (rank, step code, what the play adds to a key) for each rank, lowest first.

        ``incoming`` is the stock card that takes the emptied pile's place (0 once
        the stock is out); what the play adds to a key is the tableau's change and
        the card dealt, all but the foundations, which depend on where it goes.
        The ranks as bits let a caller see at once that no tableau card goes home,
        the usual case.
        """
        plays = self._plays.get(tableau << 4 | incoming)
        if plays is None:
            at = self.layout
            advance = at.one_dealt if incoming else 0
            ranks = sorted(set(_unnibble(tableau, len(self.tableau))) - {0})
            plays = self._plays[tableau << 4 | incoming] = (
                sum(1 << card for card in ranks),
                tuple(
                    (
                        card,
                        _TABLEAU_CODE | card << 8,
                        advance + (self.refilled(tableau, card, incoming) - tableau << at.tableau),
                    )
                    for card in ranks
                ),
            )
        return plays

    def children(self, key: int) -> list[tuple[int, int]]:
        """The moves from a position, most promising first, as (step code, key after): home, deal, onto the tableau, lifts.

        The remembered tables (:meth:`home`, :meth:`reserve_tops`,
        :meth:`tableau_plays`) are read here directly, their methods called
        only for what they have not seen: this runs once for every position the
        search visits.
        """
        at, line = self.layout, self.line
        position = key >> at.position & at.position_mask
        found = key >> at.found
        below = key & at.below_found
        homes, takes, by_card = self._homes, self.takes[found], found << 4
        out: list[tuple[int, int]] = []
        heights = key >> at.heights & at.heights_mask
        for source_code, card, one_less in self._reserve_tops_at.get(heights) or self.reserve_tops(heights):
            if takes >> card & 1:
                rest = below - one_less
                for how, after in homes.get(by_card | card) or self.home(found, card):
                    out.append((source_code | how, rest | after))
        if (waste := key & at.waste_mask) and takes >> (card := line[top := waste.bit_length() - 1]) & 1:
            code, rest = _WASTE_CODE | card << 8, below ^ 1 << top
            for how, after in homes.get(by_card | card) or self.home(found, card):
                out.append((code | how, rest | after))
        stock_left = position < len(line)
        incoming, advance = (line[position], at.one_dealt) if stock_left else (0, 0)
        tableau = key >> at.tableau & at.tableau_mask
        ranks, plays = self._plays.get(tableau << 4 | incoming) or self.tableau_plays(tableau, incoming)
        if ranks & takes:
            for card, code, change in plays:
                if takes >> card & 1:
                    rest = below + change
                    for how, after in homes.get(by_card | card) or self.home(found, card):
                        out.append((code | how, rest | after))
        if stock_left:
            out.append((_DEAL_CODE, key + advance | 1 << self.after[waste.bit_length()][incoming]))
        elif not tableau & 15:
            self._onto_tableau(key, out)
        return out

    def reserve_tops(self, heights: int) -> list[tuple[int, int, int]]:
        """The playable reserve tops, remembered: (the source's bits of a step code, rank, what its leaving takes off a key)."""
        tops = self._reserve_tops_at.get(heights)
        if tops is None:
            tops = self._reserve_tops_at[heights] = [
                (
                    (index + 2) << 2 | ranks[height - 1] << 8,
                    ranks[height - 1],
                    1 << self.layout.heights + 4 * index,
                )
                for index, ranks in enumerate(self.reserve_ranks)
                if (height := heights >> 4 * index & 15)
            ]
        return tops

    def _onto_tableau(self, key: int, out: list[tuple[int, int]]) -> None:
        """Moves onto an empty tableau pile (the stock is out): reserve and waste tops, then lifts."""
        at = self.layout
        tableau = key >> at.tableau & at.tableau_mask
        found = key >> at.found

        def onto(card: int) -> int:
            """What a key gains when ``card`` goes onto an empty tableau pile."""
            return self.refilled(tableau, 0, card) - tableau << at.tableau

        for source_code, card, one_less in self.reserve_tops(key >> at.heights & at.heights_mask):
            out.append((TO_TABLEAU | source_code, key - one_less + onto(card)))
        if waste := key & at.waste_mask:
            card = self.line[top := waste.bit_length() - 1]
            out.append((TO_TABLEAU | _WASTE_CODE | card << 8, (key ^ 1 << top) + onto(card)))
        below = key & at.below_found
        for how, card, after in self.lifts(found):
            out.append((LIFT | _NO_SOURCE | card << 8 | how << 12, below + onto(card) | after << at.found))

    def settle(self, key: int) -> tuple[int, int]:
        """With the stock out, every tableau card that can go home sent home, lowest first: (the key after, their step codes packed).

        What the search keeps of an endgame position (see the module's
        argument, part 5); the codes are 0 when no card goes. It changes only
        the tableau and the foundations, the key's highest fields, so it is
        remembered by them: the sweep settles every rest it reaches.
        """
        at = self.layout
        high = key >> at.tableau
        settled = self._settled.get(high) or self._settle_high(high)
        return key & at.below_tableau | settled[0], settled[1]

    def settled_fields(self, highs: list[int]) -> list[int]:
        """:meth:`settle` of keys' tableau and foundations alone (their bits from the tableau up, ``highs``): each settled key's fields.

        The sweep settles every move of its endgame, a batch at a time, and
        asks once for each tableau and foundations the batch reaches.
        """
        known = self._settled
        return [(known.get(high) or self._settle_high(high))[0] for high in highs]

    def _settle_high(self, high: int) -> tuple[int, int]:
        """:meth:`_settle` of a key's tableau and foundations (its bits from the tableau up), remembered by them."""
        settled = self._settled[high] = self._settle(high << self.layout.tableau)
        return settled

    def forget_endgame(self) -> None:
        """Forget the settlings and pairings remembered: the sweep asks after each layer of its endgame, whose rests they mostly were."""
        self._settled.clear()
        self._paired.clear()

    def _settle(self, key: int) -> tuple[int, int]:
        at, takes = self.layout, self.takes
        codes = shift = 0
        while True:
            tableau, found = key >> at.tableau & at.tableau_mask, key >> at.found
            ranks, plays = self._plays.get(tableau << 4) or self.tableau_plays(tableau, 0)
            if not ranks & takes[found]:
                return key, codes
            card, code, change = next(play for play in plays if takes[found] >> play[0] & 1)
            how, after = (self._homes.get(found << 4 | card) or self.home(found, card))[0]
            key = (key & at.below_found) + change | after
            codes |= (code | how) << shift
            shift += STEP_BITS

    def endgame_children(self, key: int) -> list[tuple[int, int]]:
        """The moves from a position with the stock out, as the sweep makes them (the module's argument, part 5): (step codes packed, key after).

        Every move but a lift, then the lifts of each of :meth:`paired` and a
        card home; each followed by what :meth:`settle` sends home.
        """
        out: list[tuple[int, int]] = []
        for code, child in self.children(key):
            if code & 3 != LIFT:
                settled, homes = self.settle(child)
                out.append((code | homes << STEP_BITS, settled))
        for ranks, lifted in self.paired(key):
            lifts = self._lifts_to(key, lifted, list(ranks))
            assert lifts is not None, "a pairing's lifts are moves of the search"
            codes, shift = lifts
            for code, child in self.children(lifted):
                if code & 3 == HOME:
                    settled, homes = self.settle(child)
                    out.append((codes | (code | homes << STEP_BITS) << shift, settled))
        return out

    def paired(self, key: int) -> list[tuple[tuple[int, ...], int]]:
        """Each of :func:`~cardtable.solver.foundations.pairings` from a position with the stock out: (the ranks lifted, the key after), remembered by its tableau and foundations."""
        at = self.layout
        high = key >> at.tableau
        lifted = self._paired.get(high)
        if lifted is None:
            tableau, found = high & at.tableau_mask, key >> at.found
            spaces = _unnibble(tableau, len(self.tableau)).count(0)
            lifted = self._paired[high] = []
            for ranks, after in self.pairings(found, spaces):
                tableau_after = tableau
                for card in ranks:
                    tableau_after = self.refilled(tableau_after, 0, card)
                lifted.append((ranks, tableau_after << at.tableau | after << at.found))
        below = key & at.below_tableau
        return [(ranks, below | fields) for ranks, fields in lifted]

    def _lifts_to(self, key: int, target: int, ranks: list[int]) -> tuple[int, int] | None:
        """The step codes of lifts of ``ranks`` (distinct), one card each, from ``key`` to ``target``: packed, and their bits; None if there are none."""
        if not ranks:
            return (0, 0) if key == target else None
        for code, child in self.children(key):
            if code & 3 == LIFT and (card := code >> 8 & 15) in ranks:
                rest = self._lifts_to(child, target, [other for other in ranks if other != card])
                if rest is not None:
                    codes, shift = rest
                    return code | codes << STEP_BITS, shift + STEP_BITS
        return None

    def moves(self, key: int) -> list[tuple[int, int]]:
        """The moves from any position as the sweep makes them, by which its trace confirms each step: :meth:`children`, but with the stock out :meth:`endgame_children`, and every position reached with the stock out settled."""
        at = self.layout
        stock_out = len(self.line)
        if key >> at.position & at.position_mask == stock_out:
            return self.endgame_children(key)
        moves = []
        for code, child in self.children(key):
            if child >> at.position & at.position_mask == stock_out:
                child, homes = self.settle(child)
                code |= homes << STEP_BITS
            moves.append((code, child))
        return moves

    def run(self, check: Check) -> list[Step] | None:
        """The steps of a win, or None when every class of position was visited.

        Searches take turns, each given three times more room every round: two
        beams over the stock phase, which keep the most promising positions after
        every card the stock gives (judged by the position alone, then by a
        look-ahead: :meth:`_rank_now`, :meth:`_rank_ahead`), and a depth-first
        probe with its own move order; after the third round, the sweep too
        (:meth:`_sweep_turn`). Each is exhaustive once its room suffices (a beam
        never had to drop a position, the probe was never cut, the sweep never
        narrowed), and only then is a deal declared unwinnable. Wins come from
        whichever finds one first; each finds wins the others miss.

        The look-ahead beam is a round behind, a third as wide as the plain one:
        it costs about 2.2 times as much a position and won fewer of the hard
        deals (of the 48 deals of 1-1000 won at 60 s with over 300,000
        positions, 13 against the plain beam's 35), so each round now gives the
        two beams about the same time, and the plain beam reaches the next
        width sooner.

        ``check(states, table)`` raises to stop the search when a budget runs out,
        and says when to look again (see :data:`Check`). The schedule never
        follows the clock, so a search visits the same positions on any machine;
        the last beam a budget allows is often cut short, but narrowing it to
        fit the time left (tried in ``defe9eb``) won no deal and lost one (230,
        won in 35 s with the schedule kept): a narrower beam misses the wins of
        the wider one (deal 131: won 21,870 wide, not 9,000 to 16,000 wide).
        """
        try:
            codes = self._run(check)
        finally:
            self._drop_sweep()
        return None if codes is None else unpack(codes)

    def _drop_sweep(self) -> None:
        """Let the sweep go, and its memory at once.

        The sweep and this search refer to each other, and so do the sweep and
        its paused generator: left to the garbage collector, a survey worker
        could carry one deal's sets, and its ``dead`` positions, into the next.
        """
        if self.sweep is not None:
            self.sweep.close()
            self.sweep = None

    def _run(self, check: Check) -> list[int] | None:
        if self.is_won(self.root):
            return []
        width, cap = FIRST_WIDTH, FIRST_PROBE
        for round_ in itertools.count():
            beams: list[tuple[int, Judge]] = [(width, self._rank_now)]
            if round_:  # the look-ahead beam is a round behind, so the first round has none
                beams.append((width // GROWTH, self._rank_ahead))
            for beam_width, judge in beams:
                codes, complete = self._beam(beam_width, judge, check)
                if codes is not None or complete:
                    return codes
            try:
                return self._probe(random.Random(round_) if round_ else None, cap, check)
            except _ProbeCut:
                width, cap = width * GROWTH, cap * GROWTH
            if round_ >= SWEEP_FROM and (swept := self._sweep_turn(check, round_)) is not None:
                return swept.win
        raise AssertionError("unreachable")

    def _sweep_turn(self, check: Check, round_: int) -> Sweep | None:
        """The sweep's turn (:mod:`cardtable.solver.sweep`): the sweep if it is over with a verdict (in ``win``), else None.

        It sweeps until it has visited as many positions as the other
        searches together, :data:`SWEEP_SHARE` times as many after round
        :data:`SHARE_FROM` (``round_`` is the one just ended). A sweep whose
        rests would outgrow its room narrows to the most promising rests
        after each stock card (:data:`~cardtable.solver.sweep.FIRST_RESTS`).
        It gives way for good (``self.sweep`` becomes None) when even
        narrowed it would not fit, or when it ends narrowed without a win,
        which proves nothing: a sweep three times as wide would take two to
        three minutes (see :data:`~cardtable.solver.sweep.FIRST_RESTS`).
        Once a sweep has swept the levels of :data:`SWEEP_THROUGH` of the
        stock, it goes on to the end. Deals that the beams decide in their
        first rounds never wait for it (of the 873 deals of 1-1000 won at
        60 s, 727 took under 50,000 positions).
        """
        sweep = self.sweep
        if sweep is None:  # it gave way
            return None
        begun = self.states
        share = SWEEP_SHARE if round_ >= SHARE_FROM else 1
        until = begun + share * (begun - self.swept) - self.swept
        self._sweeping = True
        try:
            over = sweep.advance(until, lambda: self._look(check, 0))
            # Near the end of the stock, what is left is bounded by its room: it sees it through.
            if not over and sweep.dealt >= SWEEP_THROUGH * len(self.line):
                over = sweep.advance(1 << 62, lambda: self._look(check, 0))
            if over and sweep.win is None and sweep.narrowed:  # it proved nothing
                self._drop_sweep()
                return None
            return sweep if over else None
        except SweepTooLarge:
            self._drop_sweep()
            return None
        finally:
            self._sweeping = False
            self.swept += self.states - begun

    def _beam(self, width: int, judge: Judge, check: Check) -> tuple[list[int] | None, bool]:
        """A beam search of the stock phase: (the step codes of a win or None, whether it was exhaustive).

        Level by level, one level per card taken from the stock: all the moves
        that take none (reserve and waste cards home) are followed to the end, and
        of the positions after the next card, the ``width`` most promising go on
        (``judge`` sorts them). The rest are forgotten at once: a beam round remembers
        only what it may still expand (deal 3 at 2,000,000 positions: 0.73 M
        remembered, against 1.18 M when the dropped ones were kept), and the next
        level waits apart until judged, so that the dropped ones never enter the
        links. Positions with the stock out are searched to the end by
        :meth:`_endgame`.

        Only the level at hand is kept as positions; the way back to the root is
        kept as :class:`_Links`, 8 bytes a position instead of a dict entry's
        ~150, since a position of an earlier level is never reached again (each
        level takes one more card from the stock). A beam 65,610 wide keeps
        links for ~4.3 million positions over its 66 levels: as positions they
        alone filled the default table.
        """
        dead, children = self.dead, self.children
        position_at, position_mask = self.layout.position, self.layout.position_mask
        links = _Links()
        self._beams += 1
        level = [(self.root, links.add(-1))]
        complete = True
        stock_out = len(self.line)
        while level:
            # the positions of this level reached so far, and the next level's with their links until judged
            here = {key for key, _ in level}
            upcoming: dict[int, int] = {}
            while level:
                node, number = level.pop()
                link, dealt = number << STEP_BITS, node >> position_at & position_mask
                for code, key in children(node):
                    position = key >> position_at & position_mask
                    if dealt < position < stock_out:
                        if key in upcoming or key in dead:
                            continue
                        upcoming[key] = link | code
                    elif key in here or key in dead:
                        continue
                    self.states += 1
                    if self.states >= self.due:
                        self._look(check, len(here) + len(upcoming) + links.weight())
                    if position == stock_out:
                        ending = self._endgame(key, check)
                        if ending is not None:
                            return [*links.path(number), code, *ending], True
                    elif position == dealt:
                        here.add(key)
                        level.append((key, links.add(link | code)))
            # the level is at its largest before the judge cuts: the budget should see it
            table = self._look(check, len(here) + len(upcoming) + links.weight())
            following = list(upcoming)
            if len(following) > width:
                judge(following, functools.partial(check, self.states, table))  # it only needs the clock
                del following[width:]
                complete = False
                self._note_lead(following[0], upcoming[following[0]], links)
            elif following:
                best = max(following, key=self._promise)
                self._note_lead(best, upcoming[best], links)
            level = [(key, links.add(upcoming[key])) for key in following]
        return None, complete

    def _note_lead(self, key: int, link: int, links: _Links) -> None:
        """Note the first step towards ``key``, a beam level's best, if no beam has led further (see :meth:`guess`)."""
        at = self.layout
        lead = (key >> at.position & at.position_mask, self._beams)
        if self._lead is None or lead > self._lead[:2]:
            parent, code = link >> STEP_BITS, link & _ONE_STEP
            self._lead = (*lead, (links.path(parent) or [code])[0])

    def guess(self) -> Move | None:
        """A first move for a search stopped before a verdict: a guess, not proved to win.

        The beams judge each level of the stock phase and keep the best; the
        guess is the first move towards the best position of the deepest level
        any beam reached, of the beams that reached it the latest (the rounds
        grow wider). Should a later search have proved that move lost, the guess is
        the first of the start's moves not proved lost. None when no beam got a
        level past the start (the stock was out, or the budget very short).
        """
        if self._lead is None:
            return None
        code = self._lead[2]
        moves = self.children(self.root)
        if any(key in self.dead for step, key in moves if step == code):
            code = next((step for step, key in moves if key not in self.dead), -1)
            if code < 0:
                return None
        return self.realise(unpack([code]))[0]

    def _look(self, check: Check, kept: int) -> int:
        """Look at the budget, the search keeping ``kept`` positions besides ``self.dead``; the table it saw.

        ``self.dead`` only spares the search positions it has already proved
        lost, so when it would fill the table it is forgotten instead, and a
        search stops for want of room only when what it cannot do without
        fills the table. It is emptied in place: the searches hold it by
        another name. Mostly it holds the positions of lost endgames (deal 460
        at 60 s: 3,993,965 of 3,995,391), and a budget's table filled with them
        had stopped 10 deals of 1-1000 before their minute.
        """
        sweep = self.sweep.weight if self.sweep is not None else 0
        if self.table_cap is not None and kept + len(self.dead) + sweep > self.table_cap:
            self.dead.clear()
            if sweep and kept + sweep > self.table_cap:  # the sweep gives way to the search at hand
                self._drop_sweep()
                sweep = 0
                if self._sweeping:
                    raise SweepTooLarge
        table = kept + len(self.dead) + sweep
        self.due = self.states + check(self.states, table)
        return table

    def _rank_now(self, level: list[int], _: Callable[[], object]) -> None:
        """Sort one beam level (positions with as many stock cards taken), most promising first, by :meth:`_promise`.

        A :data:`Judge`; it takes a few microseconds a position, so it has no need to look at the clock.
        """
        level.sort(key=self._promise, reverse=True)

    def _rank_ahead(self, level: list[int], tick: Callable[[], object]) -> None:
        """Sort one beam level, most promising first, looking ahead.

        A position is judged by :meth:`_promise` now and by how many cards are
        left once a greedy player has taken the next :data:`LOOK_AHEAD` stock
        cards from it (see :meth:`_greedy_left`): the stock's order is known, and
        a position whose foundations suit the cards about to come is worth more
        than one with a card more home now. Each look-ahead costs more than a
        position, and the two judges win different deals (of deals 2001-2120 at
        500,000 positions, the plain beam wins 73, this one 25 more that the plain
        beam of the same width had missed), so :meth:`run` uses both. Positions of
        one level share the horizon, so the greedy walks share their common tails
        through ``memo``. A wide level takes seconds to judge, so ``tick`` is called
        every 64 positions to let a budget stop it (deal 689 once overran its 60 s
        by 2.2 s without).
        """
        stop = min(self.dealt(level[0]) + LOOK_AHEAD, len(self.line))
        memo: dict[int, int] = {}
        promise, greedy_left = self._promise, self._greedy_left
        scores: list[int] = []
        for index, key in enumerate(level):
            if not index & 63:
                tick()
            scores.append(promise(key) - 4 * greedy_left(key, stop, memo))
        order = sorted(range(len(level)), key=scores.__getitem__, reverse=True)
        level[:] = [level[index] for index in order]

    def _greedy_left(self, key: int, stop: int, memo: dict[int, int]) -> int:
        """The cards left off the foundations after greedy play from a position until the stock reaches ``stop``.

        Greedy play puts the first card that can go home there (reserves, then
        the waste, then the tableau; the first foundation that takes it), and
        deals when none can. Every position on the way is remembered in ``memo``
        with the answer. It steps through a key's fields itself instead of
        through :meth:`children`, which builds every move to keep one: on 18
        deals, the same 6.2 M positions took 496 s that way and 164 s this way
        (before the memo); a test holds the two walks equal.
        """
        at, line, takes, after_rank = self.layout, self.line, self.takes, self.after
        homes, tops_at, plays_at = self._homes, self._reserve_tops_at, self._plays
        # the layout's fields as locals: this loop is the hottest in the search
        position_at, position_mask, found_at, below_found = (
            at.position,
            at.position_mask,
            at.found,
            at.below_found,
        )
        waste_mask, one_dealt, heights_at, heights_mask = (
            at.waste_mask,
            at.one_dealt,
            at.heights,
            at.heights_mask,
        )
        tableau_at, tableau_mask = at.tableau, at.tableau_mask
        walked: list[int] = []
        left = None
        while (position := key >> position_at & position_mask) < stop:
            left = memo.get(key)
            if left is not None:
                break
            walked.append(key)
            found = key >> found_at
            accepts, below = takes[found], key & below_found
            heights = key >> heights_at & heights_mask
            for _, card, one_less in tops_at.get(heights) or self.reserve_tops(heights):
                if accepts >> card & 1:
                    key = below - one_less | (homes.get(found << 4 | card) or self.home(found, card))[0][1]
                    break
            else:
                top = (waste := key & waste_mask).bit_length() - 1
                if waste and accepts >> (card := line[top]) & 1:
                    key = below ^ 1 << top | (homes.get(found << 4 | card) or self.home(found, card))[0][1]
                    continue
                tableau, incoming = key >> tableau_at & tableau_mask, line[position]
                ranks, plays = plays_at.get(tableau << 4 | incoming) or self.tableau_plays(tableau, incoming)
                for card, _, change in plays if ranks & accepts else ():
                    if accepts >> card & 1:
                        key = below + change | (homes.get(found << 4 | card) or self.home(found, card))[0][1]
                        break
                else:
                    key = key + one_dealt | 1 << after_rank[top + 1][incoming]
        if left is None:
            heights, position, waste, _, _ = self.unpack(key)
            left = self.in_reserves(heights) + waste.bit_count() + len(self.line) - position
        for walked_key in walked:
            memo[walked_key] = left
        return left

    def _promise(self, key: int) -> int:
        """How promising a stock-phase position looks beside the others of its beam level: few cards on the waste, free pairs.

        Cards still in the reserves do not count. They wait in an order the deal
        fixed, while each card on the waste buries the ones below it; counted like
        the waste's (as they were, 4 a card), they led the beams to empty the
        reserves early, and of deals 1-1000 the ones that took 1-7 million positions
        to win mostly win now in ~20,000: a winning line often keeps its reserves
        whole while it readies the foundations, then plays a reserve down at once.
        """
        return self.promise(key >> self.layout.found, (key & self.layout.waste_mask).bit_count())

    def promise(self, found: int, waste: int) -> int:
        """:meth:`_promise` of a position in foundation class ``found`` with ``waste`` cards on the waste."""
        return 3 * self.classes[found][0] - 5 * waste

    def in_reserves(self, heights: int) -> int:
        """How many cards the reserves hold."""
        left = self._heights_left.get(heights)
        if left is None:
            left = self._heights_left[heights] = sum(_unnibble(heights, len(self.reserves)))
        return left

    def _probe(self, rng: random.Random | None, cap: int, check: Check) -> list[int] | None:
        """One depth-first probe of the stock phase, cut after ``cap`` positions.

        Before the stock is out no move can be undone (each puts a card home or
        deals one), so the positions form a DAG and a position whose moves were all
        tried is dead for good: ``self.dead`` keeps it across probes, whose move
        orders differ, unless a full table makes the search forget it
        (:meth:`_look`). A probe cut short marks nothing on its unfinished path.
        """
        dead, stock_out = self.dead, len(self.line)
        position_at, position_mask = self.layout.position, self.layout.position_mask
        budget = self.states + cap

        def visit(key: int) -> tuple[list[int] | None, list[tuple[int, int]] | None]:
            if key in dead:
                return None, None
            self.states += 1
            if self.states >= self.due:
                self._look(check, 0)
            if key >> position_at & position_mask == stock_out:
                return self._endgame(key, check), None
            if self.states > budget:
                raise _ProbeCut
            return None, self._ordered(key, rng)

        return _depth_first(self.root, self._ordered(self.root, rng), visit, dead.add)

    def _ordered(self, key: int, rng: random.Random | None) -> list[tuple[int, int]]:
        children = self.children(key)
        if rng is not None:
            homes = sum(1 for code, _ in children if code & 3 == HOME)
            children[:homes] = rng.sample(children[:homes], homes)
        return children

    def _endgame(self, start: int, check: Check) -> list[int] | None:
        """Search a position with the stock out to the end: the step codes of a win, or None.

        Here cards pass between the tableau and the foundations both ways, so
        positions can repeat; the search is a plain exhaustive one, and when it
        fails every position it saw is dead. It follows every move one at a
        time: the moves of :meth:`endgame_children` spare positions, but cost
        more than they spare here, where the sweep, which makes the moves of a
        rest on a whole set of wastes at once, gains. (Deals 230 and 206, won in
        29 and 43 s with plain moves, were unknown at 60 s with them while they
        tried every way of lifting; with lifts only to pair, deals 1-300 at
        200,000 positions each gave the same verdicts with 12% fewer positions
        a win, but ten deals won in 20 to 46 s took 312 s in all instead of 289.)
        """
        if self.is_won(start):
            return []
        dead, children = self.dead, self.children
        seen = {start}
        below_found, won = self.layout.below_found, len(self.line) << self.layout.position  # see is_won

        def visit(key: int) -> tuple[list[int] | None, list[tuple[int, int]] | None]:
            if key in seen or key in dead:
                return None, None
            seen.add(key)
            self.states += 1
            if self.states >= self.due:
                self._look(check, len(seen))
            if key & below_found == won:
                return [], None
            return None, children(key)

        ending = _depth_first(start, children(start), visit, _ignore)
        if ending is None:
            dead |= seen
        return ending

    def realise(self, steps: list[Step]) -> list[Move]:
        """The real moves of ``steps``, each checked by the rules as it is played (see :mod:`cardtable.solver.realise`)."""
        return Realiser(
            self.state,
            tuple(self.reserves),
            tuple(self.tableau),
            tuple(self.ace_piles),
            tuple(self.king_piles),
        ).moves(steps)


class _Layout:
    """Where each field of a :data:`Node` sits in a position's key, lowest bits first: waste, stock dealt, reserve heights, tableau, foundations."""

    def __init__(self, line: int, reserves: int, tableau: int) -> None:
        self.position = line
        self.heights = self.position + line.bit_length()
        self.tableau = self.heights + 4 * reserves
        self.found = self.tableau + 4 * tableau
        self.waste_mask = (1 << line) - 1
        self.position_mask = (1 << line.bit_length()) - 1
        self.heights_mask = (1 << 4 * reserves) - 1
        self.tableau_mask = (1 << 4 * tableau) - 1
        self.below_found = (1 << self.found) - 1
        self.below_tableau = (1 << self.tableau) - 1
        self.one_dealt = 1 << self.position


Visit = Callable[[int], tuple[list[int] | None, list[tuple[int, int]] | None]]
"""What a depth-first walk does on reaching a position: (the rest of a win, or the moves to go on with); (None, None) passes by."""


def _depth_first(
    root: int, moves: list[tuple[int, int]], visit: Visit, leave: Callable[[int], None]
) -> list[int] | None:
    """Walk depth first from ``root``: the step codes of a win, or None when every move was followed.

    ``visit`` decides for each position reached; ``leave`` hears of each position
    whose moves were all followed without a win (``root`` last).
    """
    stack = [iter(moves)]
    nodes = [root]
    path: list[int] = []
    while stack:
        following = next(stack[-1], None)
        if following is None:
            leave(nodes.pop())
            stack.pop()
            if path:
                path.pop()
            continue
        code, node = following
        ending, onward = visit(node)
        if ending is not None:
            return [*path, code, *ending]
        if onward is not None:
            path.append(code)
            nodes.append(node)
            stack.append(iter(onward))
    return None


def _ignore(_: int) -> None:
    """A ``leave`` for walks that learn nothing from a position's end."""


class _Links:
    """The way back from each position a beam kept: its parent's number and the step there, 8 bytes a position.

    Positions are numbered in the order they are added; a link is the parent's
    number << :data:`STEP_BITS` | the step code, and -1 for the root.
    """

    POSITIONS_A_LINK: Final = 16
    """Links that weigh as much as one position kept whole in a budget's table (8 bytes against 130-180)."""

    def __init__(self) -> None:
        self._links = array("q")

    def add(self, link: int) -> int:
        """Keep a position's link; its number."""
        self._links.append(link)
        return len(self._links) - 1

    def weight(self) -> int:
        """What the links count for in a budget's table, in positions kept whole."""
        return len(self._links) // self.POSITIONS_A_LINK

    def path(self, number: int) -> list[int]:
        """The step codes from the root to the position numbered ``number``."""
        path: list[int] = []
        link = self._links[number]
        while link >= 0:
            path.append(link & (1 << STEP_BITS) - 1)
            link = self._links[link >> STEP_BITS]
        return path[::-1]


def unpack(codes: Iterable[int]) -> list[Step]:
    """The steps of step codes, each of which may hold several (see :data:`STEP_BITS`)."""
    steps = []
    for packed in codes:
        while packed:
            code = packed & _ONE_STEP
            steps.append((code & 3, (code >> 2 & 63) - 2, code >> 8 & 15, code >> 12))
            packed >>= STEP_BITS
    return steps


def _first_after(line: tuple[int, ...]) -> list[list[int]]:
    """Row ``i + 1``, rank ``r``: the first position after ``i`` in ``line`` that holds ``r`` (-1: none)."""
    rows = [[-1] * (KING + 1)]
    for card in reversed(line):
        row = list(rows[-1])
        rows.append(row)
        row[card] = len(line) - len(rows) + 1
    rows.reverse()
    return rows


def _nibbles(values: Iterable[int]) -> int:
    """Small numbers (0-15) packed 4 bits each, the first in the lowest bits."""
    packed = 0
    for shift, value in enumerate(values):
        packed |= value << 4 * shift
    return packed


def _unnibble(packed: int, count: int) -> list[int]:
    """The ``count`` numbers :func:`_nibbles` packed, the first first."""
    return [packed >> 4 * shift & 15 for shift in range(count)]
