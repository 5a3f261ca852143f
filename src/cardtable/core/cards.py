"""Cards as small ints, with name tables.

A card is ``suit * 13 + rank - 1``: clubs 0-12, diamonds 13-25, hearts 26-38,
spades 39-51. The next card up in the same suit is therefore ``card + 1`` (unless
the card is a king), which keeps the rules' arithmetic cheap. Two-deck games
repeat card values; a deck is a multiset of ints.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, TypeAlias

from cardtable.core.errors import InvalidCardError, quoted

Card: TypeAlias = int
Rank: TypeAlias = int  # 1 (ace) to 13 (king)
Suit: TypeAlias = int  # 0 clubs, 1 diamonds, 2 hearts, 3 spades

ACE: Final = 1
KING: Final = 13
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUITS: Final = (CLUBS, DIAMONDS, HEARTS, SPADES)
RANKS: Final = tuple(range(ACE, KING + 1))

RANK_CHARS: Final = "A23456789TJQK"
RANK_WORDS: Final = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
"""Ranks in words, ace first, for messages: "it takes only an ace or a king"."""
SUIT_CHARS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RED_SUITS: Final = frozenset({DIAMONDS, HEARTS})

DECK_SIZE: Final = 52
DECK: Final[tuple[Card, ...]] = tuple(range(DECK_SIZE))
"""One standard deck in canonical order: clubs A-K, diamonds, hearts, spades."""


def is_card(value: object) -> bool:
    """Whether ``value`` is a card's number: an int from 0 to 51 (not a bool, nor a negative index).

    ``type() is int`` rather than two ``isinstance`` calls: every name looked up
    asks (:func:`checked_card`), and it costs a quarter less a look.
    """
    return type(value) is int and 0 <= value < DECK_SIZE


def checked_card(value: Card) -> Card:
    """``value`` itself if it is a card's number, else :class:`InvalidCardError`.

    The name tables are tuples, and a tuple indexed with -1 names a card all
    the same (``'KS'``): whatever looks a card up on behalf of a caller checks
    it here first.
    """
    if is_card(value):
        return value
    raise InvalidCardError(f"not a card: {value!r} (cards are numbered 0 to {DECK_SIZE - 1})")


def make_card(rank: Rank, suit: Suit) -> Card:
    """The card of this rank (1-13) and suit (0-3)."""
    return suit * 13 + rank - 1


RANK_OF: Final[tuple[Rank, ...]] = tuple(c % 13 + 1 for c in DECK)
SUIT_OF: Final[tuple[Suit, ...]] = tuple(c // 13 for c in DECK)
CARD_NAMES: Final[tuple[str, ...]] = tuple(RANK_CHARS[RANK_OF[c] - 1] + SUIT_CHARS[SUIT_OF[c]] for c in DECK)
CARD_SYMBOLS: Final[tuple[str, ...]] = tuple(
    ("10" if RANK_OF[c] == 10 else RANK_CHARS[RANK_OF[c] - 1]) + SUIT_SYMBOLS[SUIT_OF[c]] for c in DECK
)


def rank(card: Card) -> Rank:
    """The rank of a card, 1 (ace) to 13 (king)."""
    return RANK_OF[card]


def suit(card: Card) -> Suit:
    """The suit of a card, 0-3 in the order clubs, diamonds, hearts, spades."""
    return SUIT_OF[card]


def is_red(card: Card) -> bool:
    """Whether the card is a diamond or a heart."""
    return SUIT_OF[card] in RED_SUITS


def card_name(card: Card) -> str:
    """The two-character interchange name, such as ``'TD'`` (formats.md); :class:`InvalidCardError` for no card."""
    return CARD_NAMES[checked_card(card)]


def card_symbol(card: Card) -> str:
    """The name people read, with a Unicode suit, such as ``'10♦'``; :class:`InvalidCardError` for no card."""
    return CARD_SYMBOLS[checked_card(card)]


def _build_parse_table() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for card in DECK:
        rank_text = RANK_CHARS[RANK_OF[card] - 1]
        rank_forms = [rank_text, "10"] if rank_text == "T" else [rank_text]
        for rank_form in rank_forms:
            for suit_form in (SUIT_CHARS[SUIT_OF[card]], SUIT_SYMBOLS[SUIT_OF[card]]):
                table[(rank_form + suit_form).upper()] = card
    return table


_PARSE_TABLE: Final = _build_parse_table()


def parse_card(text: str) -> Card:
    """Parse ``'TD'``, ``'10d'``, ``'td'`` or ``'10♦'`` into a card.

    Writers always use the two-character form; readers accept ``10`` for the ten,
    lower case and suit symbols, as formats.md asks.
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"not a card: {quoted(text)} (expected a string like 'TD')")
    card = _PARSE_TABLE.get(text.strip().upper())
    if card is None:
        raise InvalidCardError(
            f"not a card: {quoted(text)} (expected rank A23456789TJQK then suit CDHS, like 'TD')"
        )
    return card


def card_names(cards: Iterable[Card]) -> list[str]:
    """Interchange names of several cards, in order; :class:`InvalidCardError` if one is no card."""
    return [CARD_NAMES[checked_card(c)] for c in cards]
