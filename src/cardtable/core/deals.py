"""Numbered deals: the same number gives the same deal everywhere, forever.

How deal ``n`` of a game is made (``docs/dealing.md`` says the same for people):

1. Take the game's decks in canonical order (clubs A-K, diamonds, hearts, spades;
   the second deck after the first).
2. Take out the foundations' starting cards, the first copy of each, in order.
3. Shuffle the rest with :class:`~cardtable.core.rng.SplitMix64` seeded with ``n``.
4. Deal the shuffled cards in order into the groups of ``spec.deal_sizes``: each
   pile takes the next cards, its first card at the bottom, its last on top.

The deal's seed is ``n`` as well; it fixes the shuffles of later redeals.
"""

from __future__ import annotations

from typing import Final

from cardtable.core.cards import DECK, Card
from cardtable.core.errors import InvalidDealError
from cardtable.core.rng import SplitMix64
from cardtable.core.spec import GameSpec
from cardtable.core.state import State

MIN_DEAL: Final = 1
MAX_DEAL: Final = 2**31 - 1


def check_deal_number(number: int) -> int:
    """Return ``number`` if it is a valid deal number, else raise InvalidDealError."""
    if isinstance(number, bool) or not isinstance(number, int) or not MIN_DEAL <= number <= MAX_DEAL:
        raise InvalidDealError(f"not a deal number: {number!r} (deals run from {MIN_DEAL} to {MAX_DEAL})")
    return number


def shuffled_cards(spec: GameSpec, number: int) -> list[Card]:
    """The cards that deal ``number`` deals out, in dealing order."""
    cards = list(DECK) * spec.decks
    for card in spec.foundation_starts:
        cards.remove(card)
    SplitMix64(number).shuffle(cards)
    return cards


def deal(spec: GameSpec, number: int) -> State:
    """The starting position of deal ``number`` (1 to 2**31-1) of a game."""
    check_deal_number(number)
    cards = iter(shuffled_cards(spec, number))
    dealt: dict[str, list[list[Card]]] = {
        name: [[next(cards) for _ in range(size)] for size in sizes] for name, sizes in spec.deal_sizes
    }
    starts = iter(spec.foundation_starts)
    piles: list[list[Card]] = []
    for group in spec.groups:
        if group.name in dealt:
            piles += dealt[group.name]
        elif group.name == "foundation":
            piles += [[card] for card, _ in zip(starts, range(group.count))]
            piles += [[] for _ in range(group.count - len(spec.foundation_starts))]
        else:
            piles += [[] for _ in range(group.count)]
    return State(spec, piles, seed=number, deal_number=number)
