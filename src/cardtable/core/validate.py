"""Checks that a position read from outside could arise in its game.

A deal file may hold any position reached in play, so these checks test what
play can never change, and nothing more: the deck, the pile counts, foundations
built in order from their base, piles that never grow, and the automatic refill.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from cardtable.core.cards import DECK, RANK_OF, SUIT_OF, Card, card_name, checked_card
from cardtable.core.errors import InvalidCardError, InvalidDealError, quoted
from cardtable.core.spec import NO_BUILD, GameSpec, Kind, PileGroup


def check_position(spec: GameSpec, groups: dict[str, list[list[Card]]], redeals_left: int) -> None:
    """Raise InvalidDealError naming the first thing that cannot be in ``spec``."""
    _check_group_names(spec, groups)
    _check_counts(spec, groups, redeals_left)
    _check_cards(groups)
    _check_deck(spec, groups)
    for group in spec.groups:
        for index, pile in enumerate(groups[group.name]):
            _check_pile(spec, group, index, pile)
    _check_refill(spec, groups)
    _check_stock_and_waste(spec, groups)


def _check_group_names(spec: GameSpec, groups: dict[str, list[list[Card]]]) -> None:
    expected = [g.name for g in spec.groups]
    for name in groups:
        if name not in expected:
            raise InvalidDealError(
                f"{spec.id} has no pile group {quoted(name)} (it has {', '.join(expected)})"
            )
    for name in expected:
        if name not in groups:
            raise InvalidDealError(f"missing pile group {name!r} for {spec.id}")


def _check_counts(spec: GameSpec, groups: dict[str, list[list[Card]]], redeals_left: int) -> None:
    if not 0 <= redeals_left <= spec.redeals:
        allowed = f"0 to {spec.redeals}" if spec.redeals else "none"
        raise InvalidDealError(f"redeals_left is {redeals_left!r}; {spec.id} allows {allowed}")
    last = spec.groups[-1]
    for group in spec.groups:
        count = len(groups[group.name])
        resizable = group is last and redeals_left < spec.redeals
        if resizable and not 1 <= count <= group.count:
            raise InvalidDealError(
                f"{group.name!r} has {count} piles; after a redeal {spec.id} has 1 to {group.count}"
            )
        if not resizable and count != group.count:
            after = (
                " (fewer come only after a redeal: say so with 'redeals_left')"
                if group is last and spec.redeals and count < group.count
                else ""
            )
            raise InvalidDealError(f"{group.name!r} has {count} piles; {spec.id} has {group.count}{after}")


def _check_cards(groups: dict[str, list[list[Card]]]) -> None:
    """Every card a card's number: a file's are read from names, but a position made in Python holds what it was given."""
    for name, piles in groups.items():
        for index, pile in enumerate(piles):
            try:
                for card in pile:
                    checked_card(card)
            except InvalidCardError as error:
                raise InvalidDealError(f"{name}/{index}: {error}") from None


def _check_deck(spec: GameSpec, groups: dict[str, list[list[Card]]]) -> None:
    found = Counter(card for piles in groups.values() for pile in piles for card in pile)
    wanted = Counter(DECK * spec.decks)
    extra = found - wanted
    missing = wanted - found
    copies = "once" if spec.decks == 1 else f"{spec.decks} times"
    wrong = []  # both, when a card was typed for another: "too many AS ..., and missing 7C"
    if extra:
        wrong.append(
            f"too many {', '.join(card_name(c) for c in sorted(extra.elements()))} (each card {copies})"
        )
    if missing:
        wrong.append(f"missing {', '.join(card_name(c) for c in sorted(missing.elements()))}")
    if wrong:
        raise InvalidDealError(f"the cards are not the {spec.id} deck: {', and '.join(wrong)}")


def _check_pile(spec: GameSpec, group: PileGroup, index: int, pile: Sequence[Card]) -> None:
    where = f"{group.name}/{index}"
    if group.kind is Kind.FOUNDATION:
        _check_foundation(spec, group, index, pile)
    elif group.build == NO_BUILD and group.kind is not Kind.WASTE:
        most = max((max(sizes) for name, sizes in spec.deal_sizes if name == group.name), default=0)
        if len(pile) > most:
            raise InvalidDealError(
                f"{where} has {len(pile)} cards, but {group.name} piles never grow past {most}"
            )


def _check_foundation(spec: GameSpec, group: PileGroup, index: int, pile: Sequence[Card]) -> None:
    """A foundation holds a run from its base; one dealt a starting card that never leaves still holds it.

    Only the foundations ``foundation_starts`` reaches were dealt one: the others
    begin empty, and take whichever card of their base comes home first.
    """
    where = f"foundation/{index}"
    base = group.bases[index]
    keeps_start = not spec.foundation_gives and index < len(spec.foundation_starts)
    if not pile:
        if keeps_start:
            raise InvalidDealError(f"{where} is empty, but its starting card never leaves it")
        return
    if RANK_OF[pile[0]] != base:
        raise InvalidDealError(
            f"{where} starts with {card_name(pile[0])}; it must start with {'an ace' if group.builds_up(index) else 'a king'}"
        )
    starts = [card for number, card in enumerate(spec.foundation_starts) if group.bases[number] == base]
    if keeps_start and pile[0] not in starts:  # same-base piles in any order
        raise InvalidDealError(
            f"{where} starts with {card_name(pile[0])}; it must start with "
            + " or ".join(card_name(card) for card in dict.fromkeys(starts))
        )
    step = 1 if group.builds_up(index) else -1
    for below, card in itertools.pairwise(pile):
        if RANK_OF[card] != RANK_OF[below] + step or (
            group.build.same_suit and SUIT_OF[card] != SUIT_OF[below]
        ):
            raise InvalidDealError(f"{where} is not built in order: {card_name(card)} on {card_name(below)}")


def _check_refill(spec: GameSpec, groups: dict[str, list[list[Card]]]) -> None:
    if spec.refill_from_stock is None:
        return
    stock = [card for pile in groups.get("stock", []) for card in pile]
    for index, pile in enumerate(groups[spec.refill_from_stock]):
        if not pile and stock:
            raise InvalidDealError(
                f"{spec.refill_from_stock}/{index} is empty while the stock has cards;"
                " the stock refills it at once"
            )


def _check_stock_and_waste(spec: GameSpec, groups: dict[str, list[list[Card]]]) -> None:
    """The waste holds only cards dealt from the stock, so together they hold at most the stock's deal."""
    dealt = sum(sum(sizes) for name, sizes in spec.deal_sizes if name == "stock")
    held = sum(len(pile) for name in ("stock", "waste") for pile in groups.get(name, []))
    if held > dealt:
        raise InvalidDealError(
            f"the stock and the waste hold {held} cards; {spec.id} deals only {dealt} to the stock"
        )
