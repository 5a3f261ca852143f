"""Game knowledge that lets the search skip work without losing a solution.

Every rule here comes with the argument that it loses no win; tests compare the
pruned search with the plain one on many small positions.

**Safe foundation moves.** In a one-deck game whose foundations and tableau both
build in suit, whose foundations never give a card back and that has no redeal
left, moving a card ``c`` to its foundation never spoils a win. The only cards
that could ever be placed on ``c`` in the tableau are its two suit neighbours.
The one before ``c`` in foundation order is already on the foundation (that is
why ``c`` may go there). The one after ``c`` may be placed on the foundation
itself as soon as ``c`` is there; so may, in turn, every card a winning line
would stack on that one. Replaying a winning line with ``c`` already home, and
those cards sent home instead of onto ``c``'s stack, wins too, and every other
move of the line stays legal because the only piles that differ have lost cards
nobody could play onto. Redeals break the argument (the shuffle depends on which
cards are left), so it applies only when no redeal is left.

**Locked cards.** In the same kind of game, a card ``x`` is locked for good when
(1) a card that must reach the foundation before ``x`` lies under ``x`` in its
pile, so ``x`` cannot go home first; (2) every card ``x`` could be placed on in
the tableau lies under ``x`` in the same pile or is already home, so ``x`` can
never move sideways; and (3) an empty pile will not take ``x``'s rank. Then
nothing under ``x`` ever moves, and the position is lost.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from cardtable.core.cards import DECK, KING, RANK_OF, SUIT_OF, Card
from cardtable.core.spec import GameSpec, Kind
from cardtable.core.state import State


@dataclass(frozen=True)
class Knowledge:
    """What the pruning rules know about one game, computed once."""

    in_suit: bool  # one deck, foundations and tableau all in suit, nothing leaves home
    parents: tuple[tuple[Card, ...], ...]  # card -> cards it may be placed on in the tableau
    fill: frozenset[int]  # ranks an empty tableau pile takes


@cache
def knowledge(spec: GameSpec) -> Knowledge:
    """The pruning facts of ``spec``."""
    tableau = [g for g in spec.groups if g.kind is Kind.TABLEAU]
    foundations = [g for g in spec.groups if g.kind is Kind.FOUNDATION]
    in_suit = (
        spec.decks == 1
        and not spec.foundation_gives
        and all(g.build.same_suit for g in foundations)
        and all(g.build.same_suit or not (g.build.up or g.build.down) for g in tableau)
    )
    up = any(g.build.up for g in tableau)
    down = any(g.build.down for g in tableau)
    parents = tuple(
        tuple(
            p
            for p in DECK
            if SUIT_OF[p] == SUIT_OF[c]
            and ((up and RANK_OF[c] == RANK_OF[p] + 1) or (down and RANK_OF[c] == RANK_OF[p] - 1))
        )
        for c in DECK
    )
    fill = frozenset().union(*(g.fill for g in tableau)) if tableau else frozenset()
    return Knowledge(in_suit, parents, fill)


def safe_moves_apply(state: State) -> bool:
    """Whether the safe-foundation-move rule holds in this position."""
    return state.redeals_left == 0 and knowledge(state.spec).in_suit


def home_ranks(state: State) -> dict[int, tuple[int, int]]:
    """Suit -> (lowest, highest) rank on the foundations of one-deck in-suit games."""
    out: dict[int, tuple[int, int]] = {}
    for i in state.plan.foundations:
        pile = state.piles[i]
        if pile:
            ranks = (RANK_OF[pile[0]], RANK_OF[pile[-1]])
            out[SUIT_OF[pile[0]]] = (min(ranks), max(ranks))
    return out


def _is_home(card: Card, home: dict[int, tuple[int, int]]) -> bool:
    span = home.get(SUIT_OF[card])
    return span is not None and span[0] <= RANK_OF[card] <= span[1]


def _goes_home_before(first: Card, card: Card, ascending: bool) -> bool:
    if SUIT_OF[first] != SUIT_OF[card]:
        return False
    return RANK_OF[first] < RANK_OF[card] if ascending else RANK_OF[first] > RANK_OF[card]


def ascending_suits(state: State) -> dict[int, bool]:
    """Suit -> whether its foundation builds up (from the ace) in this one-deck game."""
    out: dict[int, bool] = {}
    bases = state.spec.group("foundation").bases
    for index, i in enumerate(state.plan.foundations):
        pile = state.piles[i]
        if pile:
            out[SUIT_OF[pile[0]]] = bases[index] != KING
    return out


def locked_card(state: State) -> Card | None:
    """A card that can never move again (see the module text), or None."""
    facts = knowledge(state.spec)
    home = home_ranks(state)
    ascending = ascending_suits(state)
    for i in _tableau_piles(state):
        pile = state.piles[i]
        for depth, card in enumerate(pile):
            if depth == 0 or RANK_OF[card] in facts.fill:
                continue
            below = pile[:depth]
            up = ascending.get(SUIT_OF[card], True)
            if not any(_goes_home_before(y, card, up) for y in below):
                continue
            if all(p in below or _is_home(p, home) for p in facts.parents[card]):
                return card
    return None


def _tableau_piles(state: State) -> Iterator[int]:
    kinds = state.plan.kinds
    return (i for i in range(len(state.piles)) if kinds[i] is Kind.TABLEAU)
