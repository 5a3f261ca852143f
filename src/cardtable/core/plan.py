"""Tables computed once per game: which card may go on which, pile by pile.

The engine looks these up instead of re-deriving the rules on every move, so
move generation is a few list and bytes look-ups per candidate.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import TypeAlias

from cardtable.core.cards import DECK, DECK_SIZE, RANK_OF, SUIT_OF
from cardtable.core.move import PileId
from cardtable.core.spec import GameSpec, Kind, PileGroup


def _fits(card: int, top: int, up: bool, down: bool, same_suit: bool) -> bool:
    if same_suit and SUIT_OF[card] != SUIT_OF[top]:
        return False
    step = RANK_OF[card] - RANK_OF[top]
    return (up and step == 1) or (down and step == -1)


@cache
def on_card_table(up: bool, down: bool, same_suit: bool) -> bytes:
    """``table[top * DECK_SIZE + card]`` is 1 where ``card`` may go on ``top``."""
    return bytes(_fits(card, top, up, down, same_suit) for top in DECK for card in DECK)


@cache
def takers_table(table: bytes) -> tuple[tuple[int, ...], ...]:
    """For an on-card table: ``takers[top]`` lists the cards that may go on ``top``."""
    return tuple(tuple(card for card in DECK if table[top * DECK_SIZE + card]) for top in DECK)


@cache
def on_empty_table(ranks: frozenset[int]) -> bytes:
    """``table[card]`` is 1 where ``card`` may go on an empty pile."""
    return bytes(RANK_OF[card] in ranks for card in DECK)


def _pile_tables(group: PileGroup, index: int) -> tuple[bytes, bytes]:
    if group.kind is Kind.FOUNDATION:
        up = group.builds_up(index)
        base_only = on_empty_table(frozenset({group.bases[index]}))
        return on_card_table(up, not up, group.build.same_suit), base_only
    build = group.build
    return on_card_table(build.up, build.down, build.same_suit), on_empty_table(group.fill)


@dataclass(frozen=True)
class Plan:
    """The tables for one game with a given number of piles (a redeal changes it)."""

    ids: tuple[PileId, ...]  # flat index -> formats.md name
    kinds: tuple[Kind, ...]
    on_card: tuple[bytes, ...]
    on_empty: tuple[bytes, ...]
    takers: tuple[tuple[tuple[int, ...], ...], ...]  # pile -> top card -> cards it takes
    empty_takers: tuple[tuple[int, ...], ...]  # pile -> cards it takes when empty
    sources: tuple[int, ...]  # piles whose top card may move
    targets: tuple[int, ...]  # piles that may take a card
    foundations: tuple[int, ...]
    refills: frozenset[int]  # piles the stock refills when they empty
    stock: int | None
    waste: int | None
    last_group_start: int  # where the group a redeal replaces begins
    key_groups: tuple[KeyGroup, ...]  # see State.key
    key_table: bytes | None  # bytes.translate table for the key: cards to ranks, or None

    def accepts(self, target: int, top: int | None, card: int) -> bool:
        """Whether pile ``target``, whose top is ``top`` (None if empty), takes ``card``."""
        if target not in self.targets:
            return False
        if top is None:
            return bool(self.on_empty[target][card])
        return bool(self.on_card[target][top * DECK_SIZE + card])

    def takes_when_empty(self, target: int) -> bool:
        """Whether pile ``target`` takes some card once it is empty: not a La Belle Lucie fan, a reserve or a stock."""
        return target in self.targets and any(self.on_empty[target])

    def index(self, pile: PileId) -> int | None:
        """The flat index of a named pile, or None if there is no such pile."""
        return self._indices.get(pile)

    @cached_property
    def _indices(self) -> dict[PileId, int]:
        """Each pile's flat index by name: every checked move looks up two, where a search of :attr:`ids` compared
        names field by field. A stored game of 210 moves is played again (as the server does at each request) in
        2.0 ms instead of 2.8 ms."""
        return {pid: index for index, pid in enumerate(self.ids)}


def _gives(spec: GameSpec, kind: Kind) -> bool:
    if kind is Kind.FOUNDATION:
        return spec.foundation_gives
    return kind is not Kind.STOCK


def _takes(group: PileGroup) -> bool:
    if group.kind is Kind.FOUNDATION:
        return True
    build = group.build
    return group.kind is Kind.TABLEAU and bool(build.up or build.down or group.fill)


@cache
def plan_for(spec: GameSpec, pile_count: int) -> Plan:
    """The plan of ``spec`` when it has ``pile_count`` piles in all."""
    ids: list[PileId] = []
    groups: list[PileGroup] = []
    start = 0
    for position, group in enumerate(spec.groups):
        last = position == len(spec.groups) - 1
        count = pile_count - start if last else group.count
        start += count
        ids += [PileId(group.name, i) for i in range(count)]
        groups += [group] * count
    tables = [_pile_tables(group, pid.index) for group, pid in zip(groups, ids)]
    flat = list(range(len(ids)))
    return Plan(
        ids=tuple(ids),
        kinds=tuple(g.kind for g in groups),
        on_card=tuple(t[0] for t in tables),
        on_empty=tuple(t[1] for t in tables),
        takers=tuple(takers_table(t[0]) for t in tables),
        empty_takers=tuple(tuple(c for c in DECK if t[1][c]) for t in tables),
        sources=tuple(i for i in flat if _gives(spec, groups[i].kind)),
        targets=tuple(i for i in flat if _takes(groups[i])),
        foundations=tuple(i for i in flat if groups[i].kind is Kind.FOUNDATION),
        refills=frozenset(i for i in flat if groups[i].name == spec.refill_from_stock),
        stock=next((i for i in flat if groups[i].kind is Kind.STOCK), None),
        waste=next((i for i in flat if groups[i].kind is Kind.WASTE), None),
        last_group_start=sum(g.count for g in spec.groups[:-1]),
        key_groups=_key_groups(ids, groups, spec.suits_matter, _foundations_implied(spec)),
        key_table=None
        if spec.suits_matter
        else bytes(RANK_OF[c] if c < DECK_SIZE else c for c in range(256)),
    )


def _foundations_implied(spec: GameSpec) -> bool:
    """Whether the tableau alone tells what the foundations hold, so the key can leave them out.

    True of one-deck games with nothing but tableau and foundations, whose
    foundations build in suit and keep their cards: every card not on the
    tableau is home, and the cards of a suit that are home form one run from its
    foundation's base, so they can lie in one way only (Alexander, Lucie, Fan).
    Shorter keys are quicker to make and smaller to keep (Alexander the Great:
    ~125 bytes a remembered position instead of ~136).
    """
    foundation = next((g for g in spec.groups if g.kind is Kind.FOUNDATION), None)
    return (
        foundation is not None
        and spec.decks == 1
        and {g.kind for g in spec.groups} == {Kind.TABLEAU, Kind.FOUNDATION}
        and foundation.build.same_suit
        and not spec.foundation_gives
    )


KeyGroup: TypeAlias = tuple[tuple[int, ...], bool, bool, bool]
"""Piles that the search key writes together (see :meth:`State.key`): (indices, sort, drop_empty, top_only).

* indices: their flat indices;
* sort: whether they may be sorted, the piles being interchangeable;
* drop_empty: whether empty ones may be left out: tableau piles that an empty space makes inert;
* top_only: whether the top card tells the whole pile: foundations, which build from their base one
  rank at a time, in suit or where suits never matter.

A plain tuple, not a NamedTuple: the key unpacks these for every position searched, and Python
unpacks a tuple subclass at half the speed.
"""


def _key_groups(
    ids: list[PileId], groups: list[PileGroup], suits_matter: bool, foundations_implied: bool
) -> tuple[KeyGroup, ...]:
    """Piles grouped for the search key: by group, foundations also by base rank (unless implied)."""
    out: dict[tuple[str, int], list[int]] = {}
    by_name: dict[str, PileGroup] = {}
    for i, (pid, group) in enumerate(zip(ids, groups)):
        if foundations_implied and group.kind is Kind.FOUNDATION:
            continue
        base = group.bases[pid.index] if group.bases else 0
        out.setdefault((pid.group, base), []).append(i)
        by_name[pid.group] = group
    return tuple(
        (
            tuple(indices),
            by_name[name].interchangeable,
            _inert_when_empty(by_name[name]),
            by_name[name].kind is Kind.FOUNDATION and (by_name[name].build.same_suit or not suits_matter),
        )
        for (name, _), indices in out.items()
    )


def _inert_when_empty(group: PileGroup) -> bool:
    return group.kind is Kind.TABLEAU and group.interchangeable and not group.fill
