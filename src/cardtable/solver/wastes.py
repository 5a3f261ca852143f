"""Sets of Acey and Kingsley wastes, each a trie read from the top: what the sweep keeps at each rest.

Part 2 of the argument of :mod:`cardtable.solver.sweep`: the wastes of one rest
all hold as many cards, a move sees a waste only through its top, and so each
step of the sweep (a deal, a top taken, a move that leaves the waste alone) is
one step on the trie, however many wastes the set holds. Equal sets are one
numbered node, so that sets compare and hash as ints.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from typing import Final

import numpy as np
from numpy.typing import NDArray

EMPTY: Final = 0
"""The node of the empty set of wastes."""
BARE: Final = 1
"""The node of the set that holds only the empty waste."""

Ranks = tuple[int, ...]
"""One waste's ranks, top first."""

Keys = NDArray[np.int64]
"""Rests (shifted past their empty waste, see :class:`~cardtable.solver.sweep.Arrivals`), sets, or anything else a stock-phase level holds one of per rest."""


TOP_BITS: Final = 4
"""Bits of a rank (1 to 13) in a packed top: the node of what lies below it, shifted past its rank (see :class:`WasteSets`)."""
TOP_MASK: Final = (1 << TOP_BITS) - 1
PAIR_SHIFT: Final = 40
"""Bits of one node in a packed pair, or of one packed top in a name (its node then has 36): more nodes than 2**36 would take terabytes.

A merge is remembered by its two nodes packed in one int, and a set with
several tops is named by its packed tops in one int: an int key takes about
36 bytes and hashes at once, where a tuple took 56 bytes besides its ints,
and hashed each.
"""
PAIR_MASK: Final = (1 << PAIR_SHIFT) - 1
TOP_BYTES: Final = PAIR_SHIFT // 8
"""Bytes of one packed top in a name."""
RANKS: Final = 13
"""The most tops a set can have: one of each rank."""
KEPT_AT_ONCE: Final = 1 << 22
"""Nodes that :meth:`WasteSets.keep_only` moves down at once: besides a word and a byte for every node (its new number, and whether it is kept), it holds a few words for each node of a slice."""


class WasteSets:
    """Sets of wastes as tries read from the top, each distinct trie one numbered node.

    The wastes of one set all hold as many cards (those of one rest do), so a
    path from a set's node always ends at :data:`BARE` after that many ranks.
    A node's tops (:meth:`tops`) are each rank on top of a waste of the set,
    with the node of what lies below it. Equal sets get one number, so sets
    compare and hash as ints, and a set shares whatever parts it has in common
    with others: the wastes of a deal are all read off one stock, and their
    lower parts repeat.

    An exact sweep makes hundreds of millions of sets, so each takes as few
    bytes as it can. A top is packed in an int, ``below << 4 | rank``. Most
    sets have one top (every deal makes one; in deal 888's exact sweep, 1.38
    of 1.72 million at its 55th stock card, 6.77 of 9.15 million at its
    58th), and such a set is kept as one machine word, its top. Each node
    keeps in a second word the first one-top set made on it (at card 55,
    943,000 of the 1.38 million), which is how the next deal finds that set
    again without a dict. The sets with several tops, named by their tops
    packed in one int in rank order, and the other one-top sets are numbered
    through a dict. Kept as Python ints in a list and a dict, a one-top set
    took about 110 bytes.
    """

    def __init__(self) -> None:
        self.packed = array("q", [-1, -1])
        """Each node's tops: its one top packed, or the complement of its name's place in :attr:`several`."""
        self.several: list[int] = [0]
        """The names of the sets with several tops (see above); the empty name stands for no top at all."""
        self.dealt_on = array("q", [0, 0])
        """Each node's first one-top set made on it, ``number << 4 | rank``; 0, none yet."""
        self.numbers: dict[int, int] = {}
        """The other sets' numbers by their names: a packed top (below 2**40) or several (above)."""
        # merges remembered by their two nodes packed in one int (see PAIR_SHIFT)
        self._unions: dict[int, int] = {}
        self._differences: dict[int, int] = {}

    def __len__(self) -> int:
        """The nodes numbered, the two fixed ones included."""
        return len(self.packed)

    @property
    def merges(self) -> int:
        """Merges remembered (see :meth:`forget_merges`)."""
        return len(self._unions) + len(self._differences)

    def tops(self, node: int) -> Sequence[tuple[int, int]]:
        """Each rank on top of a waste of the set, with the set of what lies below it, in rank order."""
        top = self.packed[node]
        if top >= 0:  # most sets: one top, with no list made
            return ((top & TOP_MASK, top >> TOP_BITS),)
        name, tops = self.several[~top], []
        while name:
            top = name & PAIR_MASK
            tops.append((top & TOP_MASK, top >> TOP_BITS))
            name >>= PAIR_SHIFT
        return tops

    def several_tops(self, nodes: Keys) -> tuple[Keys, Keys]:
        """The tops of sets that have several, as :meth:`tops` gives them: each top's set (its index in ``nodes``), and a (rank, set below) row.

        Their names are read as bytes, a top in every :data:`TOP_BYTES`: a
        sweep reads the tops of each set it sweeps, and read one set at a time
        these took a sixth of a large sweep's stock phase.
        """
        several = self.several
        packed = np.frombuffer(self.packed, dtype=np.int64)[nodes]
        tops = _tops_of_names([several[~top] for top in packed.tolist()])
        at, place = np.nonzero(tops)  # by set, then in rank order
        top = tops[at, place]
        return at, np.stack((top & TOP_MASK, top >> TOP_BITS), axis=1)

    def below(self, node: int, card: int) -> int:
        """The set of what lies below ``card`` in the wastes of the set that have it on top (EMPTY: none have)."""
        top = self.packed[node]
        if top >= 0:
            return top >> TOP_BITS if top & TOP_MASK == card else EMPTY
        name = self.several[~top]
        while name:
            top = name & PAIR_MASK
            if top & TOP_MASK == card:
                return top >> TOP_BITS
            name >>= PAIR_SHIFT
        return EMPTY

    def node(self, edges: dict[int, int]) -> int:
        """The number of the set with these tops: rank to the node below."""
        name = shift = 0
        for card, below in sorted(edges.items()):
            name |= (below << TOP_BITS | card) << shift
            shift += PAIR_SHIFT
        return self._named(name)

    def _new(self, packed: int) -> int:
        """Number a new node with these tops (see :attr:`packed`)."""
        self.packed.append(packed)
        self.dealt_on.append(0)
        return len(self.packed) - 1

    def of(self, ranks: Ranks) -> int:
        """The set that holds one waste."""
        node = BARE
        for card in reversed(ranks):
            node = self.on(card, node)
        return node

    def on(self, card: int, node: int) -> int:
        """The set of the wastes of ``node`` with a card of rank ``card`` dealt on each: one new top.

        Every rest of the stock phase deals, so this is the commonest step: a
        look at the first one-top set made on ``node``, and a dict only for a
        second (a set met at two levels is dealt two cards).
        """
        first = self.dealt_on[node]
        if first & TOP_MASK == card:
            return first >> TOP_BITS
        name = node << TOP_BITS | card
        if first:
            number = self.numbers.get(name)
            if number is None:
                number = self.numbers[name] = self._new(name)
            return number
        number = self._new(name)
        self.dealt_on[node] = number << TOP_BITS | card
        return number

    def union(self, one: int, other: int) -> int:
        """The wastes of either set."""
        if one == other or other == EMPTY:
            return one
        if one == EMPTY:
            return other
        pair = one << PAIR_SHIFT | other if one < other else other << PAIR_SHIFT | one
        merged = self._unions.get(pair)
        if merged is None:
            merged = self._unions[pair] = self._united(self._name(one), self._name(other))
        return merged

    def _name(self, node: int) -> int:
        """A set's tops packed in one int in rank order, as :attr:`several` names them: a one-top set's name is its top."""
        top = self.packed[node]
        return top if top >= 0 else self.several[~top]

    def _united(self, one: int, other: int) -> int:
        """The union of two sets by their names: their tops merged in rank order, those of one rank united below.

        The hot path of merging the sets that meet at a rest (about half of a
        large exact sweep's stock phase): two names are walked side by side,
        with no dict, list or tuple made on the way.
        """
        name = shift = 0
        while one and other:
            first, second = one & PAIR_MASK, other & PAIR_MASK
            card = first & TOP_MASK
            if card < second & TOP_MASK:
                top, one = first, one >> PAIR_SHIFT
            elif card > second & TOP_MASK:
                top, other = second, other >> PAIR_SHIFT
            else:  # a top of each: the same, or the wastes below it united (a third of the calls were of the same)
                if first != second:
                    first = self.union(first >> TOP_BITS, second >> TOP_BITS) << TOP_BITS | card
                top, one, other = first, one >> PAIR_SHIFT, other >> PAIR_SHIFT
            name |= top << shift
            shift += PAIR_SHIFT
        return self._named(name | (one | other) << shift)

    def _named(self, name: int) -> int:
        """The number of the set with this name (see :meth:`_name`)."""
        if name <= PAIR_MASK:
            return self.on(name & TOP_MASK, name >> TOP_BITS)
        number = self.numbers.get(name)
        if number is None:
            number = self.numbers[name] = self._new(~len(self.several))
            self.several.append(name)
        return number

    def difference(self, one: int, other: int) -> int:
        """The wastes of ``one`` that ``other`` lacks."""
        if other == EMPTY:
            return one
        if one in (other, EMPTY):
            return EMPTY
        pair = one << PAIR_SHIFT | other
        left = self._differences.get(pair)
        if left is None:
            edges = {}
            for card, below in self.tops(one):
                if rest := self.difference(below, self.below(other, card)):
                    edges[card] = rest
            left = self._differences[pair] = self.node(edges) if edges else EMPTY
        return left

    def holds(self, node: int, ranks: Ranks) -> bool:
        """Whether the set holds this waste."""
        for card in ranks:
            node = self.below(node, card)
            if node == EMPTY:
                return False
        return node == BARE

    def forget_merges(self) -> None:
        """Drop the merges remembered: sets made since will rarely meet the old ones again."""
        self._unions.clear()
        self._differences.clear()

    def keep_only(self, holders: Iterable[dict[int, int] | Keys]) -> int:
        """Forget every set that the holders' values do not reach, and number the rest afresh, in the holders too; how many are left.

        Nodes are never freed one by one: sets share their lower parts, and a
        node's number is its place in :attr:`packed`. So a sweep that keeps no
        trace of its swept rests drops their sets all at once, now and then.
        A node is always numbered after the nodes below it, so the nodes kept,
        numbered afresh in their order, each still come after theirs; each
        moves down to its new number in place, a slice of the numbers at a
        time: copying them into fresh tables instead held old and new at once
        (deal 888: 0.34 GB more at 3.5 million nodes, which the process kept).
        A holder is a dict of rests to sets, or an array of sets (a
        stock-phase level's, see :class:`~cardtable.solver.sweep.Arrivals`).

        It works on arrays, a slice at a time. Node by node in Python it took
        8% of the CPU of deal 888's first 30 million rests; on arrays, a sixth
        less (13.7 s against 11.4 s): most of what is left is remapping the
        holders' sets and rebuilding :attr:`numbers`.
        """
        holders = list(holders)
        self.numbers = {}  # rebuilt below, once the old one is gone
        self.forget_merges()
        reached = self._reached(holders)
        renumbered = np.cumsum(reached, dtype=np.int64) - 1  # EMPTY and BARE are always kept, as themselves
        packed, dealt_on = (np.frombuffer(table, dtype=np.int64) for table in (self.packed, self.dealt_on))
        dealt_on[:] = 0  # made again below, for the new numbers
        named = 1  # the names of several tops kept, the empty name first
        for low in range(BARE + 1, len(reached), KEPT_AT_ONCE):
            nodes = low + np.flatnonzero(reached[low : low + KEPT_AT_ONCE])
            tops, kept = packed[nodes], renumbered[nodes]  # read before a kept node moves down onto them
            one = tops >= 0
            below, card = renumbered[tops[one] >> TOP_BITS], tops[one] & TOP_MASK
            self._keep_one_top(packed, dealt_on, kept[one], below, card)
            names = self._renamed([self.several[~top] for top in tops[~one].tolist()], renumbered)
            packed[kept[~one]] = ~np.arange(named, named + len(names))
            # a kept name's new place is never past its old one
            self.several[named : named + len(names)] = names
            self.numbers.update(zip(names, kept[~one].tolist()))
            named += len(names)
        left = int(renumbered[-1]) + 1
        del packed, dealt_on  # views of the tables, which are cut short now
        del self.packed[left:], self.dealt_on[left:], self.several[named:]
        for holder in holders:
            if isinstance(holder, dict):
                holder.update(zip(list(holder), renumbered[as_keys(list(holder.values()))].tolist()))
            else:
                holder[:] = renumbered[holder]
        return left

    def _keep_one_top(self, packed: Keys, dealt_on: Keys, kept: Keys, below: Keys, card: Keys) -> None:
        """Move kept one-top sets to their new numbers: each found again on the node below if it is the first made there, else by name (see :meth:`on`)."""
        names = below << TOP_BITS | card
        packed[kept] = names
        _, first = np.unique(below, return_index=True)
        first = first[dealt_on[below[first]] == 0]  # not one of an earlier slice's
        dealt_on[below[first]] = kept[first] << TOP_BITS | card[first]
        by_name = np.ones(len(kept), dtype=bool)
        by_name[first] = False
        self.numbers.update(zip(names[by_name].tolist(), kept[by_name].tolist()))

    @staticmethod
    def _renamed(names: list[int], renumbered: Keys) -> list[int]:
        """Names of several tops with the nodes below their tops numbered afresh."""
        if not names:
            return []
        tops = _tops_of_names(names)
        there = tops != 0
        tops[there] = renumbered[tops[there] >> TOP_BITS] << TOP_BITS | tops[there] & TOP_MASK
        width, words = RANKS * TOP_BYTES, tops.view(np.uint8).reshape(len(names), RANKS, 8)
        raw = np.ascontiguousarray(words[:, :, :TOP_BYTES]).tobytes()
        return [int.from_bytes(raw[at : at + width], "little") for at in range(0, len(raw), width)]

    def _reached(self, holders: list[dict[int, int] | Keys]) -> NDArray[np.bool_]:
        """Whether the holders' sets reach each node: breadth first down the tries, as many rounds as the longest waste is long."""
        reached = np.zeros(len(self.packed), dtype=bool)
        for holder in holders:
            reached[as_keys(list(holder.values())) if isinstance(holder, dict) else holder] = True
        rim = BARE + 1 + np.flatnonzero(reached[BARE + 1 :])  # the two fixed nodes have nothing below
        reached[[EMPTY, BARE]] = True
        packed = np.frombuffer(self.packed, dtype=np.int64)
        while len(rim):
            tops = packed[rim]
            several = rim[tops < 0]
            below = tops[tops >= 0] >> TOP_BITS
            if len(several):
                below = np.concatenate((below, self.several_tops(several)[1][:, 1]))
            rim = each_once(below[~reached[below]])  # only the nodes new this round are sorted
            reached[rim] = True
        return reached

    @classmethod
    def restored(cls, packed: array[int], several: list[int], dealt_on: array[int]) -> WasteSets:
        """The sets numbered as a checkpoint kept them (see :class:`Checkpoint`): the names found again, the merges forgotten.

        A one-top set is found either on the node below (:attr:`dealt_on`) or by
        name, as :meth:`keep_only` leaves it; every set must be found again, or
        equal sets would get two numbers.
        """
        sets = cls()
        sets.packed, sets.several, sets.dealt_on = packed, several, dealt_on
        numbers = sets.numbers
        for node in range(BARE + 1, len(packed)):
            top = packed[node]
            if top < 0:
                numbers[several[~top]] = node
            elif dealt_on[top >> TOP_BITS] != node << TOP_BITS | top & TOP_MASK:
                numbers[top] = node
        return sets


def _tops_of_names(names: list[int]) -> Keys:
    """Names of several tops (see :class:`WasteSets`) read as bytes: a row per name, its packed tops in rank order, then zeros."""
    width = RANKS * TOP_BYTES
    raw = b"".join([name.to_bytes(width, "little") for name in names])
    words = np.zeros((len(names), RANKS, 8), dtype=np.uint8)
    words[:, :, :TOP_BYTES] = np.frombuffer(raw, dtype=np.uint8).reshape(len(names), RANKS, TOP_BYTES)
    return words.view(np.int64).reshape(len(names), RANKS)


def each_once(keys: Keys) -> Keys:
    """The keys, each once, in order: what ``np.unique`` gives, three to ten times as fast (the more keys, the faster).

    Without an index or an inverse, NumPy 2.4's ``unique`` goes through a hash
    table, which took 2.2 s for 3 million keys that a sort takes in 0.2 s.
    """
    ordered = np.sort(keys)
    first = np.ones(len(ordered), dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    return ordered[first]


def as_keys(values: Sequence[int]) -> Keys:
    """Ints as an array of machine words."""
    return np.array(values, dtype=np.int64)
