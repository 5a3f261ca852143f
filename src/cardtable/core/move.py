"""Moves: small frozen values with a text form that needs no position."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from cardtable.core.cards import Card, card_name, checked_card, is_card, parse_card
from cardtable.core.errors import InvalidMoveError, not_a, quoted


@dataclass(frozen=True, slots=True)
class PileId:
    """A pile named as in formats.md: group name and index, ``fan/3``."""

    group: str
    index: int

    def __str__(self) -> str:
        return f"{self.group}/{self.index}"

    @classmethod
    def parse(cls, text: str) -> PileId:
        """Parse ``'fan/3'``.

        A number of more than :data:`PILE_DIGITS` digits names no pile of any
        game, and is refused before ``int()``, which takes at most 4,300.
        """
        if not isinstance(text, str):
            raise not_a("pile name", text, "text such as 'fan/3'")
        group, slash, index = text.partition("/")
        if not slash or not group or not (index.isascii() and index.isdigit()):
            raise InvalidMoveError(
                f"not a pile: {quoted(text)} (expected a group and a number, like 'fan/3')"
            )
        number = pile_number(index)
        if number is None:
            raise InvalidMoveError(f"not a pile: {quoted(text)} (no game has a pile numbered so high)")
        return cls(group, number)


PILE_DIGITS: Final = 6
"""The most digits a pile's number is read with: far more piles than any game lays out."""


def pile_number(digits: str) -> int | None:
    """The number ``digits`` write, leading zeros aside; None past :data:`PILE_DIGITS` digits, where no pile is
    numbered, before ``int()``, which refuses 4,300 digits and more."""
    significant = digits.lstrip("0")
    return int(significant or "0") if len(significant) <= PILE_DIGITS else None


CARD: Final = "card"
DEAL: Final = "deal"
REDEAL: Final = "redeal"


@dataclass(frozen=True, slots=True)
class Move:
    """One move: a card from a pile's top to another pile, a deal, or a redeal.

    Build them with :meth:`card_move`, :meth:`deal` and :meth:`redeal`. A redeal
    may carry the fans it produced (as a solution records them) or ``None``
    (as a player asks for it); both are the same move in a game, since the deal
    fixes the shuffle, and so they are equal: the move a redeal pops is the one
    pushed.
    """

    kind: str
    source: PileId | None = None
    target: PileId | None = None
    card: Card | None = None
    fans: tuple[tuple[Card, ...], ...] | None = field(default=None, compare=False)

    @classmethod
    def card_move(cls, source: PileId, target: PileId, card: Card) -> Move:
        """Move ``card``, the top of ``source``, onto ``target``; :class:`InvalidCardError` for no card."""
        return cls(CARD, source, target, checked_card(card))

    @classmethod
    def deal(cls) -> Move:
        """Turn the top stock card onto the waste."""
        return cls(DEAL)

    @classmethod
    def redeal(cls, fans: tuple[tuple[Card, ...], ...] | None = None) -> Move:
        """Gather, shuffle and deal the fans again."""
        return cls(REDEAL, fans=fans)

    def text(self) -> str:
        """``'fan/3 foundation/0 7C'``, ``'deal'`` or ``'redeal'``."""
        if self.kind == CARD and self.card is not None:
            card = (
                card_name(self.card) if is_card(self.card) else repr(self.card)
            )  # as given: push_checked says why not
            return f"{self.source} {self.target} {card}"
        return self.kind  # a deal, a redeal, or a move built without its card, which push_checked refuses

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        """``Move.from_text('fan/3 foundation/0 7C')``, what makes the move again (python-chess: ``Move.from_uci``).

        A card move built without a card or piles has no such text, and shows its fields.
        """
        if self.kind == CARD and not (self.source and self.target and is_card(self.card)):
            return f"Move(kind={self.kind!r}, source={self.source!r}, target={self.target!r}, card={self.card!r})"
        return f"Move.from_text({self.text()!r})"

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse the form that :meth:`text` writes."""
        words = text.split()
        if words in (["deal"], ["redeal"]):
            return cls(words[0])
        if len(words) != 3:
            raise InvalidMoveError(
                f"not a move: {quoted(text)} (expected 'fan/3 foundation/0 7C', 'deal' or 'redeal')"
            )
        try:
            card = parse_card(words[2])
        except ValueError as error:
            raise InvalidMoveError(f"not a move: {quoted(text)}: {error}") from None
        return cls.card_move(PileId.parse(words[0]), PileId.parse(words[1]), card)
