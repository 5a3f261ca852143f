"""The tables of core/plan.py: which card each pile of a real game takes, on a card and when empty."""

from __future__ import annotations

import dataclasses

import pytest

from cardtable import PileId, load_game, parse_card
from cardtable.core.plan import Plan, plan_for
from helpers import ACEY, ALEXANDER, FAN, LUCIE


def plan(game: str) -> Plan:
    """The plan of ``game`` as dealt, with all its piles."""
    spec = load_game(game)
    return plan_for(spec, sum(group.count for group in spec.groups))


def takes(game: str, pile: str, top: str | None, card: str) -> bool:
    """Whether ``pile`` of ``game``, with ``top`` on top (None: empty), takes ``card``."""
    at = plan(game)
    index = at.index(PileId.parse(pile))
    assert index is not None
    return at.accepts(index, None if top is None else parse_card(top), parse_card(card))


@pytest.mark.parametrize(
    ("game", "pile", "top", "card", "expected"),
    [
        (ALEXANDER, "fan/0", "8C", "7C", True),  # up or down, in suit
        (ALEXANDER, "fan/0", "8C", "9C", True),
        (ALEXANDER, "fan/0", "8C", "7D", False),
        (ALEXANDER, "fan/0", "8C", "TC", False),
        (ALEXANDER, "fan/0", None, "KH", True),  # an empty fan: an ace or a king
        (ALEXANDER, "fan/0", None, "AS", True),
        (ALEXANDER, "fan/0", None, "QS", False),
        (ALEXANDER, "foundation/0", "AH", "2H", True),  # a red ace's pile builds up
        (ALEXANDER, "foundation/2", "KC", "QC", True),  # a black king's down
        (ALEXANDER, "foundation/2", "KC", "QS", False),
        (ALEXANDER, "foundation/2", None, "KS", True),
        (ALEXANDER, "foundation/2", None, "AC", False),
        (LUCIE, "fan/3", "8C", "7C", True),  # down only
        (LUCIE, "fan/3", "8C", "9C", False),
        (LUCIE, "fan/3", None, "KC", False),
        (FAN, "fan/17", None, "KC", True),
        (FAN, "fan/17", None, "AC", False),
        (ACEY, "foundation/0", "AC", "2H", True),  # suits never matter
        (ACEY, "foundation/4", "KC", "QD", True),
        (ACEY, "foundation/4", "KC", "JC", False),
        (ACEY, "tableau/1", None, "7D", True),  # an empty tableau pile takes any card
        (ACEY, "tableau/1", "8C", "7C", False),  # and nothing on a card
        (ACEY, "reserve/0", "8C", "7C", False),  # a reserve takes nothing
        (ACEY, "stock/0", None, "7C", False),
        (ACEY, "waste/0", "8C", "7C", False),
    ],
)
def test_accepts_holds_each_games_rules(
    game: str, pile: str, top: str | None, card: str, expected: bool
) -> None:
    assert takes(game, pile, top, card) is expected


@pytest.mark.parametrize(
    ("game", "pile", "expected"),
    [
        (ALEXANDER, "fan/0", True),
        (ALEXANDER, "foundation/3", True),
        (LUCIE, "fan/0", False),  # drawn closed in the browser, marked in the terminal
        (LUCIE, "foundation/0", True),
        (FAN, "fan/0", True),
        (ACEY, "tableau/0", True),
        (ACEY, "reserve/0", False),
        (ACEY, "stock/0", False),
        (ACEY, "waste/0", False),
    ],
)
def test_takes_when_empty_says_whether_an_empty_pile_takes_any_card(
    game: str, pile: str, expected: bool
) -> None:
    at = plan(game)
    index = at.index(PileId.parse(pile))
    assert index is not None
    assert at.takes_when_empty(index) is expected


def test_piles_are_numbered_flat_group_after_group() -> None:
    at = plan(ALEXANDER)
    assert at.index(PileId("foundation", 0)) == 0
    assert at.index(PileId("fan", 11)) == 15
    assert at.index(PileId("fan", 12)) is None
    assert at.index(PileId("reserve", 0)) is None
    assert at.foundations == (0, 1, 2, 3) and at.stock is None and at.waste is None


def test_a_redeal_gives_a_plan_of_fewer_fans_and_plans_are_made_once() -> None:
    spec = load_game(LUCIE)
    fewer = plan_for(spec, 4 + 10)
    assert [pid for pid in fewer.ids if pid.group == "fan"] == [PileId("fan", i) for i in range(10)]
    assert fewer.last_group_start == 4
    assert plan_for(spec, 14) is fewer


def test_the_piles_that_give_and_take() -> None:
    at = plan(ACEY)
    names = {str(pid): index for index, pid in enumerate(at.ids)}
    assert names["stock/0"] not in at.sources and names["foundation/0"] in at.sources  # Acey's give back
    assert not {names["reserve/0"], names["stock/0"], names["waste/0"]} & set(at.targets)
    assert at.refills == {names[f"tableau/{i}"] for i in range(4)}
    assert not set(plan(ALEXANDER).foundations) & set(plan(ALEXANDER).sources)  # Alexander's keep their cards


def test_the_key_leaves_out_foundations_only_where_the_tableau_implies_them() -> None:
    """One deck's foundations hold every card off the tableau, in one way only; with two decks, which copy is home counts."""
    alexander = plan(ALEXANDER)
    assert not set(alexander.foundations) & {i for indices, *_ in alexander.key_groups for i in indices}
    acey = plan(ACEY)
    assert {i for indices, *_ in acey.key_groups for i in indices} >= set(acey.foundations)
    two_decks = dataclasses.replace(load_game(ALEXANDER), decks=2, deal_sizes=(("fan", (9,) * 4 + (8,) * 8),))
    implied = plan_for(two_decks, 16)
    assert set(implied.foundations) <= {i for indices, *_ in implied.key_groups for i in indices}
