"""Cards: ints with name tables (core/cards.py) and the card names of formats.md."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cardtable import CardtableError, InvalidCardError, card_name, card_symbol, parse_card, rank, suit
from cardtable.core.cards import (
    ACE,
    CARD_NAMES,
    CLUBS,
    DECK,
    DIAMONDS,
    HEARTS,
    KING,
    SPADES,
    card_names,
    is_red,
    make_card,
)
from cardtable.core.errors import quoted

RANK_TEXT = "A23456789TJQK"
SUIT_TEXT = "CDHS"


def test_deck_is_52_distinct_cards_in_canonical_order() -> None:
    assert tuple(range(52)) == DECK
    assert [card_name(c) for c in DECK[:13]] == [r + "C" for r in RANK_TEXT]
    assert card_names(DECK[13:26]) == [r + "D" for r in RANK_TEXT]
    assert card_names(DECK[26:39]) == [r + "H" for r in RANK_TEXT]
    assert card_names(DECK[39:]) == [r + "S" for r in RANK_TEXT]
    assert len(set(CARD_NAMES)) == 52


@pytest.mark.parametrize("card", DECK)
def test_name_round_trip(card: int) -> None:
    name = card_name(card)
    assert len(name) == 2
    assert name[0] in RANK_TEXT and name[1] in SUIT_TEXT
    assert parse_card(name) == card
    assert parse_card(name.lower()) == card
    assert parse_card(name[0].lower() + name[1]) == card
    assert parse_card(card_symbol(card)) == card


@pytest.mark.parametrize("number", [-1, -52, 52, 99, True])
@pytest.mark.parametrize(
    "name",
    [card_name, card_symbol, lambda card: card_names([0, card])[1]],
    ids=["card_name", "card_symbol", "card_names"],
)
def test_a_number_that_is_no_card_has_no_name(name: Callable[[int], str], number: int) -> None:
    """A name table is a tuple, where -1 would name the king of spades."""
    with pytest.raises(InvalidCardError, match=rf"^not a card: {number} \(cards are numbered 0 to 51\)$"):
        name(number)


def test_rank_and_suit() -> None:
    for card in DECK:
        name = card_name(card)
        assert rank(card) == RANK_TEXT.index(name[0]) + 1
        assert suit(card) == SUIT_TEXT.index(name[1])
        assert make_card(rank(card), suit(card)) == card
        assert is_red(card) == (name[1] in "DH")
    assert (rank(parse_card("AS")), rank(parse_card("KS"))) == (ACE, KING)
    assert [suit(parse_card(t)) for t in ("2C", "2D", "2H", "2S")] == [CLUBS, DIAMONDS, HEARTS, SPADES]


def test_next_card_up_in_suit_is_plus_one() -> None:
    for card in DECK:
        if rank(card) != KING:
            assert suit(card + 1) == suit(card)
            assert rank(card + 1) == rank(card) + 1


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("10D", "TD"),
        ("10d", "TD"),
        ("td", "TD"),
        ("Td", "TD"),
        ("tD", "TD"),
        ("10♦", "TD"),
        ("T♦", "TD"),
        ("as", "AS"),
        ("A♠", "AS"),
        ("kh", "KH"),
        ("K♥", "KH"),
        ("7c", "7C"),
        ("7♣", "7C"),
        ("10S", "TS"),
    ],
)
def test_readers_accept_ten_lower_case_and_symbols(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name


def test_writers_always_write_two_characters() -> None:
    ten = parse_card("10H")
    assert card_name(ten) == "TH"
    assert card_names([ten, parse_card("as")]) == ["TH", "AS"]


def test_symbols() -> None:
    assert card_symbol(parse_card("TD")) == "10♦"
    assert card_symbol(parse_card("AS")) == "A♠"
    assert card_symbol(parse_card("7C")) == "7♣"
    assert card_symbol(parse_card("QH")) == "Q♥"


@pytest.mark.parametrize(
    "text",
    ["", "X", "A", "1D", "11D", "0S", "AX", "ASS", "KK", "DA", "10", "1OD", "T10", "A S", "♠A", "🂡", "AS,"],
)
def test_bad_names_raise_with_the_input_quoted(text: str) -> None:
    with pytest.raises(InvalidCardError) as caught:
        parse_card(text)
    assert repr(text) in str(caught.value)
    assert str(caught.value) == str(caught.value).lower() or "TD" in str(caught.value)


@pytest.mark.parametrize("value", [None, 5, 1.5, b"AS", ["AS"]])
def test_non_strings_raise_invalid_card(value: object) -> None:
    with pytest.raises(InvalidCardError) as caught:
        parse_card(value)  # type: ignore[arg-type]
    assert f"not a card: {quoted(value)} (expected a string" in str(caught.value)


def test_invalid_card_error_is_a_value_error_and_a_cardtable_error() -> None:
    with pytest.raises(ValueError):
        parse_card("ZZ")
    with pytest.raises(CardtableError):
        parse_card("ZZ")


@pytest.mark.parametrize(
    ("text", "quoted"),
    [(None, "null"), ([["AC"]], '[["AC"]]'), ("X" * 100, "'" + "X" * 36 + "...")],
)
def test_a_card_that_is_not_one_is_quoted_as_json_and_cut_short(text: object, quoted: str) -> None:
    with pytest.raises(InvalidCardError) as caught:
        parse_card(text)  # type: ignore[arg-type]
    assert str(caught.value).startswith(f"not a card: {quoted} (expected")
