"""Numbered deals (core/deals.py): pinned goldens, the exact deck, the documented algorithm."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable import InvalidDealError, State, WrongTypeError, deal, load_game
from cardtable.core.deals import MAX_DEAL, MIN_DEAL, check_deal_number, parse_deal_range
from cardtable.core.rng import SplitMix64
from cardtable.formats import deal_to_dict, read_deal
from helpers import ACEY, ALEXANDER, DATA, FAN, FAST, GAME_IDS, LUCIE, all_cards, full_deck, names

GOLDEN = [(game, number) for game in GAME_IDS for number in (1, 2, 1000)]


@pytest.mark.parametrize(("game", "number"), GOLDEN)
def test_golden_deals(game: str, number: int) -> None:
    path = DATA / "golden" / f"{game}-{number}.json"
    state = deal(load_game(game), number)
    assert deal_to_dict(state) == json.loads(path.read_text())
    assert read_deal(path.read_text()) == state


def test_alexander_deal_1_by_hand() -> None:
    state = deal(load_game(ALEXANDER), 1)
    assert [names(p) for p in state.group("foundation")] == ["AH", "AD", "KC", "KS"]
    fans = state.group("fan")
    assert len(fans) == 12
    assert names(fans[0]) == "TC 4S 5C KH"
    assert names(fans[11]) == "TD QD AS 7D"


def _documented_deal(game: str, number: int) -> dict[str, list[list[str]]]:
    """Deal ``number`` by the steps that deals.py documents, written out again here."""
    spec = load_game(game)
    cards = list(range(52)) * spec.decks
    for card in spec.foundation_starts:
        cards.remove(card)
    SplitMix64(number).shuffle(cards)
    sizes = {
        ALEXANDER: [("fan", [4] * 12)],
        LUCIE: [("fan", [3] * 17 + [1])],
        FAN: [("fan", [3] * 17 + [1])],
        ACEY: [("reserve", [13, 13]), ("tableau", [1, 1, 1, 1]), ("stock", [66])],
    }[game]
    out: dict[str, list[list[str]]] = {}
    position = 0
    for group, counts in sizes:
        out[group] = []
        for count in counts:
            out[group].append(names(cards[position : position + count]).split())
            position += count
    assert position == len(cards)
    return out


@given(st.sampled_from(GAME_IDS), st.integers(MIN_DEAL, MAX_DEAL))
@FAST
def test_deals_follow_the_documented_algorithm(game: str, number: int) -> None:
    piles = deal_to_dict(deal(load_game(game), number))["piles"]
    for group, expected in _documented_deal(game, number).items():
        assert piles[group] == expected


@given(st.sampled_from(GAME_IDS), st.integers(MIN_DEAL, MAX_DEAL))
@FAST
def test_every_deal_is_the_exact_deck_in_the_right_shape(game: str, number: int) -> None:
    state = deal(load_game(game), number)
    assert all_cards(state) == full_deck(game)
    assert state.deal_number == number
    assert state.seed == number
    assert state.move_stack == []
    assert not state.is_won()
    _check_start_shape(game, state)


def _check_start_shape(game: str, state: State) -> None:
    foundations = [names(p) for p in state.group("foundation")]
    if game == ALEXANDER:
        assert foundations == ["AH", "AD", "KC", "KS"]
        assert [len(f) for f in state.group("fan")] == [4] * 12
    elif game in (LUCIE, FAN):
        assert foundations == ["", "", "", ""]
        assert [len(f) for f in state.group("fan")] == [3] * 17 + [1]
        assert state.redeals_left == (2 if game == LUCIE else 0)
    else:
        assert foundations == ["AC", "AD", "AH", "AS", "KC", "KD", "KH", "KS"]
        assert [len(p) for p in state.group("reserve")] == [13, 13]
        assert [len(p) for p in state.group("tableau")] == [1, 1, 1, 1]
        assert [len(p) for p in state.group("stock")] == [66]
        assert state.group("waste") == [[]]


@pytest.mark.parametrize("game", GAME_IDS)
def test_different_numbers_give_different_deals(game: str) -> None:
    spec = load_game(game)
    seen = {deal_to_dict(deal(spec, n))["piles"].__repr__() for n in range(1, 30)}
    assert len(seen) == 29


@pytest.mark.parametrize("game", GAME_IDS)
def test_extreme_deal_numbers(game: str) -> None:
    for number in (MIN_DEAL, MAX_DEAL):
        state = deal(load_game(game), number)
        assert all_cards(state) == full_deck(game)


def test_options_do_not_change_the_deal() -> None:
    base = deal(load_game(LUCIE), 7)
    for option in ("redeals=0", "redeals=1", "redeal_anytime=true"):
        variant = deal(load_game(f"{LUCIE}({option})"), 7)
        assert variant.piles == base.piles
        assert variant.spec.id == f"{LUCIE}({option})"
    assert deal(load_game(f"{LUCIE}(redeals=0)"), 7).redeals_left == 0


def test_acey_deals_two_copies_of_each_card() -> None:
    state = deal(load_game(ACEY), 3)
    counts = Counter(c for pile in state.piles for c in pile)
    assert set(counts.values()) == {2}
    assert len(counts) == 52


@pytest.mark.parametrize("number", [0, -1, 2**31, 2**40, True, False, 1.0, "1", None])
@pytest.mark.parametrize("game", GAME_IDS)
def test_bad_deal_numbers(game: str, number: object) -> None:
    with pytest.raises(InvalidDealError) as caught:
        deal(load_game(game), number)  # type: ignore[arg-type]
    assert repr(number) in str(caught.value)


@pytest.mark.parametrize(
    ("game", "words"),
    [
        ("fan", "'fan' (str): give load_game('fan')"),
        (None, "None (NoneType): give a game, such as load_game('fan')"),
    ],
)
def test_a_game_that_is_no_game_spec_is_refused_saying_to_load_it(game: object, words: str) -> None:
    with pytest.raises(WrongTypeError) as caught:
        deal(game, 3)  # type: ignore[arg-type]
    assert str(caught.value) == f"not a GameSpec: {words}"


def test_check_deal_number() -> None:
    assert check_deal_number(1) == 1
    assert check_deal_number(2**31 - 1) == 2**31 - 1
    assert (MIN_DEAL, MAX_DEAL) == (1, 2**31 - 1)
    with pytest.raises(InvalidDealError, match="not a deal number: 0"):
        check_deal_number(0)
    with pytest.raises(ValueError):
        check_deal_number(2**31)


@pytest.mark.parametrize(
    ("text", "deals"),
    [("1-1000", range(1, 1001)), ("7", range(7, 8)), (" 5 - 9 ", range(5, 10)), ("1\u20133", range(1, 4))],
)
def test_deal_ranges_read_as_typed_or_as_the_docs_write_them(text: str, deals: range) -> None:
    assert parse_deal_range(text) == deals


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "1-99999999999999999999",
            "not a deal range: '1-99999999999999999999' (deals run from 1 to 2147483647)",
        ),
        ("2147483647-2147483648", "(deals run from 1 to 2147483647)"),
        ("0-5", "(deals run from 1 to 2147483647)"),
        pytest.param("9" * 5000, "not a deal range: '" + "9" * 36 + "... (deals run", id="5000 digits"),
        ("10-1", "empty deal range: '10-1' (the first deal comes after the last)"),
        ("1-", "not a deal range: '1-' (give FIRST-LAST, such as 1-1000)"),
    ],
)
def test_a_bad_deal_range_says_why_and_quotes_it_short(text: str, words: str) -> None:
    with pytest.raises(InvalidDealError) as caught:
        parse_deal_range(text)
    assert words in str(caught.value)
