"""The checks of a position read from outside (core/validate.py): what play can never change, named where it fails."""

from __future__ import annotations

import dataclasses
import re

import pytest

from cardtable import Card, InvalidDealError, State, deal, load_game, parse_card
from cardtable.core.spec import GameSpec
from cardtable.core.validate import check_position
from helpers import ACEY, ALEXANDER, FAN, LUCIE, acey_position

Groups = dict[str, list[list[Card]]]


def groups_of(state: State) -> Groups:
    """The piles of ``state`` by group, copied, as a deal file gives them to the checks."""
    groups: Groups = {group.name: [] for group in state.spec.groups}
    for pid, pile in zip(state.plan.ids, state.piles):
        groups[pid.group].append(list(pile))
    return groups


def move_card(groups: Groups, name: str, to: tuple[str, int]) -> None:
    """Take the card called ``name`` from wherever it lies and put it on top of pile ``to``."""
    card = parse_card(name)
    source = next(pile for piles in groups.values() for pile in piles if card in pile)
    source.remove(card)
    groups[to[0]][to[1]].append(card)


def refused(spec: GameSpec, groups: Groups, message: str, redeals_left: int = 0) -> None:
    with pytest.raises(InvalidDealError, match=f"^{re.escape(message)}"):
        check_position(spec, groups, redeals_left)


TWO_STARTS = dataclasses.replace(
    load_game(FAN),
    id="fan-two-starts",
    foundation_starts=(parse_card("AC"), parse_card("AD")),
    deal_sizes=(("fan", (3,) * 16 + (1, 1)),),
)
"""Fan with only its first two foundations dealt their aces: the spec's checks allow starts for some foundations."""


def test_a_game_whose_foundations_start_partly_passes_its_own_deal() -> None:
    state = deal(TWO_STARTS, 1)
    assert [len(state.piles[index]) for index in state.plan.foundations] == [1, 1, 0, 0]
    state.validate()


def test_a_foundation_dealt_no_start_takes_any_card_of_its_base() -> None:
    groups = groups_of(deal(TWO_STARTS, 1))
    move_card(groups, "AH", ("foundation", 2))
    check_position(TWO_STARTS, groups, 0)


def test_a_foundation_dealt_a_start_still_holds_it() -> None:
    groups = groups_of(deal(TWO_STARTS, 1))
    move_card(groups, "AD", ("fan", 17))
    refused(TWO_STARTS, groups, "foundation/1 is empty, but its starting card never leaves it")


def test_foundations_of_one_base_may_swap_their_starting_cards_but_not_take_others() -> None:
    spec = load_game(ALEXANDER)
    groups = groups_of(deal(spec, 1))
    groups["foundation"][:2] = groups["foundation"][1::-1]
    check_position(spec, groups, 0)
    ace_of_clubs = parse_card("AC")
    fan = next(pile for pile in groups["fan"] if ace_of_clubs in pile)
    fan[fan.index(ace_of_clubs)], groups["foundation"][1][0] = groups["foundation"][1][0], ace_of_clubs
    refused(spec, groups, "foundation/1 starts with AC; it must start with AH or AD")


def test_a_foundation_that_gives_its_start_back_may_be_empty() -> None:
    state = acey_position(up=(0, 13, 13, 13), tableau=["", "", "", ""], rest="waste")
    assert not state.piles[state.plan.foundations[0]]
    state.validate()


@pytest.mark.parametrize(
    ("game", "card", "to", "message"),
    [
        (ALEXANDER, "KC", ("fan", 0), "foundation/2 is empty, but its starting card never leaves it"),
        (ALEXANDER, "8C", ("foundation", 3), "foundation/3 is not built in order: 8C on KS"),
        (ALEXANDER, "8C", ("foundation", 0), "foundation/0 is not built in order: 8C on AH"),
        (LUCIE, "2C", ("foundation", 0), "foundation/0 starts with 2C; it must start with an ace"),
    ],
    ids=["a start never leaves", "a run down", "a run up", "from its base rank"],
)
def test_a_foundation_holds_a_run_from_its_base(
    game: str, card: str, to: tuple[str, int], message: str
) -> None:
    """Where every foundation is dealt a start, it keeps it; any foundation holds a run from its base rank."""
    spec = load_game(game)
    groups = groups_of(deal(spec, 1))
    move_card(groups, card, to)
    refused(spec, groups, message)


def test_the_group_names_are_the_games() -> None:
    spec = load_game(FAN)
    groups = groups_of(deal(spec, 1))
    refused(spec, {**groups, "reserve": []}, "fan has no pile group 'reserve' (it has foundation, fan)")
    del groups["fan"]
    refused(spec, groups, "missing pile group 'fan' for fan")


def test_fewer_fans_come_only_after_a_redeal() -> None:
    spec = load_game(LUCIE)
    groups = groups_of(deal(spec, 1))
    groups["fan"][0] += groups["fan"].pop()
    refused(
        spec,
        groups,
        "'fan' has 17 piles; alexander-the-great-lucie has 18 (fewer come only after a redeal",
        redeals_left=2,
    )
    check_position(spec, groups, 1)
    refused(spec, groups, "redeals_left is 3; alexander-the-great-lucie allows 0 to 2", redeals_left=3)


def test_the_cards_are_the_games_deck() -> None:
    spec = load_game(ALEXANDER)
    groups = groups_of(deal(spec, 1))
    groups["fan"][0][0] = parse_card("AH")
    refused(
        spec,
        groups,
        "the cards are not the alexander-the-great deck: too many AH (each card once), and missing",
    )


def test_a_pile_that_never_takes_a_card_never_grows() -> None:
    state = deal(load_game(ACEY), 1)
    groups = groups_of(state)
    groups["reserve"][0].append(groups["stock"][0].pop())
    refused(state.spec, groups, "reserve/0 has 14 cards, but reserve piles never grow past 13")


def test_the_stock_refills_an_empty_tableau_pile_at_once() -> None:
    state = deal(load_game(ACEY), 1)
    groups = groups_of(state)
    groups["waste"][0] += groups["tableau"][2]
    groups["tableau"][2] = []
    refused(state.spec, groups, "tableau/2 is empty while the stock has cards; the stock refills it at once")
