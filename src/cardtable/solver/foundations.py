"""Acey and Kingsley's foundations as the search keeps them: classes up to the passes between them.

Part 2 of the argument of :mod:`cardtable.solver.updown`: an ace pile is its top
rank ``a`` (0 when empty), a king pile its top ``b`` (14 when empty), and the
passes between foundations undo themselves, so the foundations reachable from
one another form a class, named by its free meeting pairs (an ace pile ``a`` and
a king pile ``a + 1``, which can slide to any ``(x, x + 1)``) and the tops no
pass changes (:func:`normalise`). These functions give the moves a class allows:
a card home (:func:`home_classes`), a card onto an empty tableau pile
(:func:`lift_classes`), and the lifts worth making before a card goes home
(:func:`pairings`, part 5 of the argument).
"""

from __future__ import annotations

from typing import Final

from cardtable.core.cards import KING

Foundations = tuple[int, tuple[int, ...], tuple[int, ...]]
"""A class of foundation positions: (free meeting pairs, unmatched ace tops, unmatched king tops)."""

ONTO_ACE, ONTO_KING, ONTO_PAIR = 0, 1, 2  # how a card goes home
FROM_ACE, FROM_KING, FROM_PAIR = 0, 1, 2  # where a lifted card comes from
EMPTY_KING_TOP: Final = 14


def normalise(pairs: int, aces: list[int], kings: list[int]) -> Foundations:
    """The class's name: match every ace top ``a`` with a king top ``a + 1`` that is free."""
    unmatched_aces: list[int] = []
    kings = sorted(kings)
    for top in sorted(aces):
        if top + 1 in kings:
            kings.remove(top + 1)
            pairs += 1
        else:
            unmatched_aces.append(top)
    return pairs, tuple(unmatched_aces), tuple(kings)


ALL_RANKS: Final = (1 << KING + 1) - 2
"""Bits 1 to 13: every rank."""


def takes_home(found: Foundations) -> int:
    """The ranks a class can take home, bit ``r`` for rank ``r``: a cheap test before :func:`home_classes`."""
    pairs, aces, kings = found
    if pairs:
        return ALL_RANKS
    mask = 0
    for top in aces:
        mask |= 1 << top + 1
    for top in kings:
        mask |= 1 << top - 1
    return mask & ALL_RANKS


def _replace(tops: tuple[int, ...], old: int, new: int) -> list[int]:
    changed = list(tops)
    changed[changed.index(old)] = new
    return changed


def home_classes(found: Foundations, card: int) -> list[tuple[int, Foundations]]:
    """Where a card of rank ``card`` can go home: (how, the class after), each class once."""
    pairs, aces, kings = found
    outcomes: list[tuple[int, Foundations]] = []
    if card - 1 in aces:
        outcomes.append((ONTO_ACE, normalise(pairs, _replace(aces, card - 1, card), list(kings))))
    if card + 1 in kings:
        outcomes.append((ONTO_KING, normalise(pairs, list(aces), _replace(kings, card + 1, card))))
    if pairs:
        outcomes.append((ONTO_PAIR, normalise(pairs - 1, [*aces, card], [*kings, card])))
    return _distinct(outcomes)


def lift_classes(found: Foundations) -> list[tuple[int, int, Foundations]]:
    """The cards the foundations can give to an empty tableau pile: (how, rank, class after)."""
    pairs, aces, kings = found
    outcomes: list[tuple[int, int, Foundations]] = []
    for top in sorted(set(aces), reverse=True):
        if top:
            outcomes.append((FROM_ACE, top, normalise(pairs, _replace(aces, top, top - 1), list(kings))))
    for top in sorted(set(kings)):
        if top < EMPTY_KING_TOP:
            outcomes.append((FROM_KING, top, normalise(pairs, list(aces), _replace(kings, top, top + 1))))
    if pairs:
        for card in range(KING, 0, -1):
            outcomes.append((FROM_PAIR, card, normalise(pairs - 1, [*aces, card - 1], [*kings, card + 1])))
    kept: dict[tuple[int, Foundations], int] = {}
    for how, card, after in outcomes:
        kept.setdefault((card, after), how)
    return [(how, card, after) for (card, after), how in kept.items()]


def pairings(found: Foundations, spaces: int) -> list[tuple[tuple[int, ...], Foundations]]:
    """The lifts worth making before a card goes home with the stock out (part 5 of the argument of :mod:`cardtable.solver.updown`): (the ranks lifted, the class after) for each.

    None at all when a free pair already takes every rank. Otherwise, for each
    unmatched ace top ``a`` and king top ``b <= a`` that ``spaces`` empty tableau
    piles allow, one card of each rank ``b..a`` lifted, so that the two piles meet
    as a free pair (from the ace pile down to ``b - 1``, or from the king pile up
    to ``a + 1``, or some of each: the class after is the same).
    """
    pairs, aces, kings = found
    if pairs:
        return []
    return [
        (tuple(range(king, ace + 1)), normalise(1, _without(aces, ace), _without(kings, king)))
        for ace in sorted(set(aces))
        for king in sorted(set(kings))
        if king <= ace and ace + 1 - king <= spaces
    ]


def _without(tops: tuple[int, ...], top: int) -> list[int]:
    rest = list(tops)
    rest.remove(top)
    return rest


def _distinct(outcomes: list[tuple[int, Foundations]]) -> list[tuple[int, Foundations]]:
    kept: dict[Foundations, int] = {}
    for how, after in outcomes:
        kept.setdefault(after, how)
    return [(how, after) for after, how in kept.items()]
