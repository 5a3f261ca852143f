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

import re
import secrets
from typing import Final

from cardtable.core.cards import DECK, Card
from cardtable.core.errors import InvalidDealError, not_a, quoted
from cardtable.core.rng import SplitMix64
from cardtable.core.spec import GameSpec
from cardtable.core.state import State

MIN_DEAL: Final = 1
MAX_DEAL: Final = 2**31 - 1
RANDOM_DEALS: Final = 999_999
"""A deal drawn at random is one from 1 to this: short enough to read out and type again."""


def check_deal_number(number: int) -> int:
    """Return ``number`` if it is a valid deal number, else raise InvalidDealError."""
    if isinstance(number, bool) or not isinstance(number, int) or not MIN_DEAL <= number <= MAX_DEAL:
        raise InvalidDealError(f"not a deal number: {number!r} (deals run from {MIN_DEAL} to {MAX_DEAL})")
    return number


def parse_deal_number(text: str) -> int:
    """The deal number in ``text``, or InvalidDealError quoting it ('abc', '0', '2147483648')."""
    digits = text.strip()
    if (
        not (digits.isascii() and digits.isdigit() and len(digits) <= len(str(MAX_DEAL)) + 1)
        or not MIN_DEAL <= int(digits) <= MAX_DEAL
    ):  # quoted as typed: '0' as '-1' is
        raise InvalidDealError(f"not a deal number: {quoted(text)} (deals run from {MIN_DEAL} to {MAX_DEAL})")
    return int(digits)


_RANGE_RE: Final = re.compile(r"^\s*([0-9]+)\s*(?:[-\u2013]\s*([0-9]+)\s*)?$")
"""A deal range: a hyphen between the numbers, or the en dash the docs write ranges with (1\u201310000)."""


def parse_deal_range(text: str) -> range:
    """``'1-1000'`` -> range(1, 1001), ``'7'`` -> range(7, 8); InvalidDealError quoting anything else."""
    match = _RANGE_RE.match(text)
    if match is None:
        raise InvalidDealError(f"not a deal range: {quoted(text)} (give FIRST-LAST, such as 1-1000)")
    first, last = (_bounded(number) for number in (match[1], match[2] or match[1]))
    if not MIN_DEAL <= first <= MAX_DEAL or not MIN_DEAL <= last <= MAX_DEAL:
        raise InvalidDealError(f"not a deal range: {quoted(text)} (deals run from {MIN_DEAL} to {MAX_DEAL})")
    if last < first:
        raise InvalidDealError(f"empty deal range: {quoted(text)} (the first deal comes after the last)")
    return range(first, last + 1)


def _bounded(digits: str) -> int:
    """A number as typed; one with more digits than any deal's is read as just past the last deal."""
    return int(digits) if len(digits) <= len(str(MAX_DEAL)) else MAX_DEAL + 1


def dealt_number(start: State) -> int | None:
    """The number of the deal ``start`` is, as dealt; None for any other position.

    A position read from a file may carry the number of the deal it came from
    and yet be any position of that game: a game started there is not that
    deal's, and must not count as one (statistics keep positions apart).
    """
    number = start.deal_number
    return number if number is not None and start == deal(start.spec, number) else None


def parse_deal_list(text: str) -> list[int]:
    """``'13,40-42'`` -> [13, 40, 41, 42]: deal ranges as :func:`parse_deal_range` reads them, comma-separated."""
    return [number for part in text.split(",") for number in parse_deal_range(part)]


def shuffled_cards(spec: GameSpec, number: int) -> list[Card]:
    """The cards that deal ``number`` deals out, in dealing order."""
    cards = list(DECK) * spec.decks
    for card in spec.foundation_starts:
        cards.remove(card)
    SplitMix64(number).shuffle(cards)
    return cards


def deal(spec: GameSpec, number: int) -> State:
    """The starting position of deal ``number`` (1 to 2**31-1) of a game.

    ``spec`` is the game's :class:`GameSpec`, not its id: ``deal("fan", 3)`` is
    refused with :class:`~cardtable.core.errors.WrongTypeError` saying to pass
    ``load_game("fan")`` (an isinstance, cheap even for a survey's every deal).
    """
    if not isinstance(spec, GameSpec):
        instead = f"load_game({spec!r})" if isinstance(spec, str) else "a game, such as load_game('fan')"
        raise not_a("GameSpec", spec, instead)
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


def random_deal() -> int:
    """A deal number for a new game when none is asked for, in the terminal and the browser alike."""
    return secrets.randbelow(RANDOM_DEALS) + 1
