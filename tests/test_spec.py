"""A game spec is checked as it is built: a new game's slip shows on import, named, not mid-game."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from cardtable import GAMES, load_game
from cardtable.core.cards import ACE, KING, make_card
from cardtable.core.errors import InvalidSpecError
from cardtable.core.spec import GROUP_KINDS, Build, GameSpec, Kind, PileGroup

FOUNDATIONS = PileGroup("foundation", "f", Kind.FOUNDATION, 4, build=Build(same_suit=True), bases=(ACE,) * 4)
FANS = PileGroup("fan", "t", Kind.TABLEAU, 18, build=Build(down=True, same_suit=True))


def fan_like(**changes: Any) -> GameSpec:
    """Fan's own spec with ``changes``: every field but the changed ones is one the engine plays."""
    return dataclasses.replace(load_game("fan"), **changes)


@pytest.mark.parametrize("spec", GAMES.values(), ids=list(GAMES))
def test_every_registered_game_passes_its_checks(spec: GameSpec) -> None:
    assert dataclasses.replace(spec) == spec


@pytest.mark.parametrize(
    ("group", "fragment"),
    [
        (dict(name="row"), "pile group 'row': not a group name of formats.md (foundation, fan, reserve"),
        (dict(kind=Kind.RESERVE), "pile group 'fan': is of kind tableau, not reserve"),
        (dict(code="T"), "its code 'T' must be one lower-case letter"),
        (dict(code="tt"), "its code 'tt' must be one lower-case letter"),
        (dict(count=0), "pile group 'fan': has 0 piles; it needs at least 1"),
        (dict(bases=(ACE,)), "pile group 'fan': only foundations have bases"),
        (dict(fill=frozenset({0, KING})), "fill holds ranks from 1 to 13 only, not [0]"),
    ],
)
def test_a_pile_group_the_engine_cannot_play_is_refused_by_name(group: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidSpecError, match=re.escape(fragment)):
        dataclasses.replace(FANS, **group)


@pytest.mark.parametrize(
    ("group", "fragment"),
    [
        (dict(bases=(ACE,) * 3), "needs a base, ace or king, for each of its 4 piles"),
        (dict(bases=(ACE, ACE, 2, KING)), "needs a base, ace or king, for each of its 4 piles"),
        (dict(fill=frozenset({ACE})), "a foundation's bases say what fills it, not fill"),
    ],
)
def test_foundations_need_a_base_per_pile(group: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidSpecError, match=re.escape(fragment)):
        dataclasses.replace(FOUNDATIONS, **group)


def test_a_stock_or_waste_is_one_pile() -> None:
    with pytest.raises(InvalidSpecError, match="pile group 'stock': has 2 piles; it needs exactly 1"):
        PileGroup("stock", "s", Kind.STOCK, 2)


def dealing(cards: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Fan's deal_sizes for 18 fans holding ``cards`` in all: the count is right, so only the starts are wrong."""
    return (("fan", tuple(cards // 18 + (index < cards % 18) for index in range(18))),)


STOCK = PileGroup("stock", "s", Kind.STOCK, 1, interchangeable=False)
WASTE = PileGroup("waste", "w", Kind.WASTE, 1, interchangeable=False)
HALF_FANS = dataclasses.replace(FANS, count=9)


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        (dict(id="Fan"), "game 'Fan': an id is lower-case letters and digits"),
        (dict(id="fan--2"), "game 'fan--2': an id is"),
        (dict(decks=0), "game 'fan': is played with 0 decks"),
        (dict(groups=(FOUNDATIONS, FANS, FANS)), "two pile groups have the name 'fan'"),
        (
            dict(groups=(FOUNDATIONS, FANS, PileGroup("reserve", "t", Kind.RESERVE, 1))),
            "two pile groups have the code 't'",
        ),
        (dict(groups=(FANS,)), "game 'fan': has no foundation group"),
        (dict(groups=(FOUNDATIONS, FANS, STOCK)), "a stock is dealt onto a waste: it needs both or neither"),
        (dict(deal_sizes=(("fan", (3,) * 17),)), "deals 17 sizes to its 18 fan piles"),
        (dict(deal_sizes=(("fan", (3,) * 18),)), "deals 54 cards, not the 52 of its decks"),
        (dict(deal_sizes=(("tableau", (52,)),)), "deals to 'tableau', which is not one of its piles off"),
        (
            dict(deal_sizes=(("foundation", (13,) * 4),)),
            "deals to 'foundation', which is not one of its piles",
        ),
        (dict(foundation_starts=(make_card(KING, 0),)), "foundation 0 starts with KC, not its base"),
        (dict(foundation_starts=(make_card(ACE, 0),) * 5), "5 foundation starts for 4 foundations"),
        (
            dict(foundation_starts=(-52,), deal_sizes=dealing(51)),
            "game 'fan': foundation 0's start is not a card: -52 (cards are numbered 0 to 51)",
        ),
        (dict(foundation_starts=(0, 52), deal_sizes=dealing(50)), "foundation 1's start is not a card: 52"),
        (
            dict(foundation_starts=(make_card(ACE, 2),) * 2, deal_sizes=dealing(50)),
            "game 'fan': foundation starts hold AH 2 times; its deck holds each card once",
        ),
        (
            dict(decks=2, foundation_starts=(make_card(ACE, 2),) * 3, deal_sizes=dealing(101)),
            "foundation starts hold AH 3 times; its decks hold each card 2 times",
        ),
        (
            dict(deal_sizes=(("fan", (3,) * 17 + (-1,)),)),
            "game 'fan': deals -1 cards to fan/17; a pile is dealt 0 cards or more",
        ),
        (dict(refill_from_stock="fan"), "refill_from_stock 'fan' is not a tableau group fed by a stock"),
        (
            dict(redeals=-1),
            "game 'fan': redeals must be 0 or more and redeal_fan_size 1 or more, not -1 and 3",
        ),
        (dict(redeal_fan_size=0), "not 0 and 0"),
        (
            dict(groups=(FANS, FOUNDATIONS), redeals=1, deal_sizes=(("fan", (3,) * 17 + (1,)),)),
            "a redeal deals the last pile group again, so it must be fans or tableau",
        ),
        (dict(options=("redeal",)), "option 'redeal' is not a field of a game spec"),
        (dict(options=("decks",)), "option 'decks' has no words for players in OPTION_WORDS"),
        (
            dict(stuck=lambda state: False),
            "a stuck hook and its stuck_why, the words a player is told, go together",
        ),
        (dict(stuck_why="nothing"), "a stuck hook and its stuck_why"),
    ],
)
def test_a_game_the_engine_cannot_play_is_refused_by_name(changes: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidSpecError, match=re.escape(fragment)):
        fan_like(**changes)


def test_a_stock_game_with_a_refill_passes() -> None:
    """The smallest spec with every part of Acey and Kingsley's shape: the checks take it."""
    spec = fan_like(
        groups=(FOUNDATIONS, HALF_FANS, STOCK, WASTE),
        deal_sizes=(("fan", (3,) * 9), ("stock", (25,))),
        refill_from_stock="fan",
    )
    assert spec.group("stock").count == 1


def test_group_names_and_kinds_are_those_of_formats_md() -> None:
    assert set(GROUP_KINDS) == {"foundation", "fan", "reserve", "tableau", "stock", "waste"}
    for spec in GAMES.values():
        assert all(GROUP_KINDS[group.name] is group.kind for group in spec.groups)
