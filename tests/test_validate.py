"""The checks of a position read from outside (core/validate.py): what play can never change, named where it fails."""

from __future__ import annotations

import dataclasses
import re

import pytest

from cardtable import Card, InvalidDealError, State, deal, load_game, parse_card
from cardtable.core.spec import GameSpec
from cardtable.core.validate import check_position
from helpers import FAN

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
