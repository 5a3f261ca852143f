"""Acey and Kingsley's foundation classes (:mod:`cardtable.solver.foundations`) against the rules engine."""

from __future__ import annotations

import functools

from hypothesis import given
from hypothesis import strategies as st

from cardtable import PileId, State
from cardtable.core.cards import KING, rank
from cardtable.solver.foundations import (
    EMPTY_KING_TOP,
    ONTO_PAIR,
    Foundations,
    home_classes,
    lift_classes,
    normalise,
    pairings,
    takes_home,
)
from helpers import FAST, acey_position


def foundation_class(state: State) -> Foundations:
    """The class of the foundations of a real position."""
    piles = [state.piles[i] for i in state.plan.foundations]
    return normalise(0, [len(p) for p in piles[:4]], [EMPTY_KING_TOP - len(p) for p in piles[4:]])


def reachable_classes(state: State, rank_to_play: int | None) -> set[tuple[int, Foundations]]:
    """By brute force on the rules engine: every (rank, class) the foundations can reach.

    Passes between foundations in any number, then (with ``rank_to_play``) the
    reserve's card onto a foundation, or (without) a foundation card onto the empty
    tableau pile; the rank is the card moved.
    """
    foundations = set(state.plan.foundations)
    reserve = state.plan.index(PileId("reserve", 1))
    outcomes: set[tuple[int, Foundations]] = set()
    seen = {state.key()}
    frontier = [state.copy()]
    while frontier:
        position = frontier.pop()
        for source, target in list(position.card_moves()):
            card = rank(position.piles[source][-1])
            position.push_card(source, target)
            if source in foundations and target in foundations:
                if position.key() not in seen:
                    seen.add(position.key())
                    frontier.append(position.copy())
            elif (source == reserve and target in foundations) if rank_to_play else (source in foundations):
                outcomes.add((card, foundation_class(position)))
            position.pop()
    return outcomes


heights = st.lists(st.integers(0, 13), min_size=8, max_size=8).filter(lambda tops: sum(tops) >= 38)
"""Foundation heights that leave at most 66 cards: one may go to a reserve, the rest to the waste."""


@FAST
@given(heights, st.integers(1, KING))
def test_a_card_goes_home_to_exactly_the_classes_the_rules_allow(tops: list[int], card: int) -> None:
    state = foundations_with(tops, reserve_rank=card)
    expected = reachable_classes(state, card)
    assert {(card, after) for _, after in home_classes(foundation_class(state), card)} == expected


@FAST
@given(heights)
def test_the_foundations_give_exactly_the_cards_the_rules_allow(tops: list[int]) -> None:
    state = foundations_with(tops, reserve_rank=None)
    expected = reachable_classes(state, None)
    assert {(card, after) for _, card, after in lift_classes(foundation_class(state))} == expected


@FAST
@given(st.integers(0, 4), st.lists(st.integers(0, 13), max_size=4), st.lists(st.integers(1, 14), max_size=4))
def test_the_cheap_test_of_what_goes_home_agrees_with_the_full_one(
    pairs: int, aces: list[int], kings: list[int]
) -> None:
    found = normalise(pairs, aces, kings)
    assert {card for card in range(1, KING + 1) if takes_home(found) >> card & 1} == {
        card for card in range(1, KING + 1) if home_classes(found, card)
    }


@FAST
@given(
    st.integers(0, 4),
    st.lists(st.integers(0, 13), max_size=4),
    st.lists(st.integers(1, 14), max_size=4),
    st.integers(1, KING),
)
def test_a_card_sent_home_can_be_lifted_straight_back(
    pairs: int, aces: list[int], kings: list[int], card: int
) -> None:
    # What makes sending a tableau card home at once safe (the search's argument, part 5).
    found = normalise(pairs, aces, kings)
    for _, after in home_classes(found, card):
        assert (card, found) in {(lifted, before) for _, lifted, before in lift_classes(after)}


Cells = tuple[int, ...]
"""The ranks on the tableau, sorted: with the stock out, four cells for any card."""


@functools.cache
def after_lifts(found: Foundations, cells: Cells) -> frozenset[tuple[Foundations, Cells]]:
    """Every (class, cells) that lifts alone reach, none included."""
    seen = {(found, cells)}
    frontier = [(found, cells)]
    while frontier:
        here, on = frontier.pop()
        if len(on) < 4:
            for _, card, after in lift_classes(here):
                if (reached := (after, tuple(sorted((*on, card))))) not in seen:
                    seen.add(reached)
                    frontier.append(reached)
    return frozenset(seen)


def sent_home(found: Foundations, cells: Cells, card: int) -> set[tuple[Foundations, Cells, bool]]:
    """After one card home: ``card`` from a reserve or the waste (True), or a card from the cells (False)."""
    out = {(after, cells, True) for _, after in home_classes(found, card)}
    for cell in set(cells):
        left = list(cells)
        left.remove(cell)
        out |= {(after, tuple(left), False) for _, after in home_classes(found, cell)}
    return out


@FAST
@given(
    st.integers(0, 2),
    st.lists(st.integers(0, 13), min_size=4, max_size=4),
    st.lists(st.integers(1, 14), min_size=4, max_size=4),
    st.lists(st.integers(1, KING), max_size=3),
    st.integers(1, KING),
)
def test_with_the_stock_out_a_card_home_needs_no_lifts_but_those_that_pair_two_piles(
    pairs: int, aces: list[int], kings: list[int], on_tableau: list[int], card: int
) -> None:
    # The search's argument, part 5: whatever lifts come before a card goes home
    # (``card`` from a reserve or the waste, or one on the tableau), one of the
    # sweep's moves (the card home, or onto the tableau, at once, or after the lifts
    # of a pairing) reaches a position from which lifts alone lead to the same
    # place; unless lifts alone lead there from the start, which no shortest win does.
    found = normalise(pairs, aces[pairs:], kings[pairs:])
    cells = tuple(sorted(on_tableau))
    swept = sent_home(found, cells, card)
    if len(cells) < 4:
        swept.add((found, tuple(sorted((*cells, card))), True))
    for ranks, paired in pairings(found, 4 - len(cells)):
        swept |= sent_home(paired, tuple(sorted((*cells, *ranks))), card)
    covered = {(*reached, used) for place, others, used in swept for reached in after_lifts(place, others)}
    from_start = after_lifts(found, cells)
    for lifted, on in from_start - {(found, cells)}:
        for after, left, used_card in sent_home(lifted, on, card):
            if used_card or (after, left) not in from_start:
                assert (after, left, used_card) in covered, (lifted, on)


def foundations_with(tops: list[int], reserve_rank: int | None) -> State:
    """Foundations of these heights, the stock out, one empty tableau pile, maybe a reserve card."""
    names = "A23456789TJQK"
    reserve = "" if reserve_rank is None else names[reserve_rank - 1] + "C"
    return acey_position(
        up=tops[:4], down=tops[4:], reserve=("", reserve), tableau=("", "", "", ""), rest="waste"
    )


def test_a_meeting_pair_slides_to_any_boundary() -> None:
    assert normalise(0, [3, 0, 0, 0], [4, 14, 14, 14]) == (1, (0, 0, 0), (14, 14, 14))
    # a pair takes any rank and leaves an ace top and a king top of that rank
    assert home_classes((1, (0, 0, 0), (14, 14, 14)), 7) == [(ONTO_PAIR, (0, (0, 0, 0, 7), (7, 14, 14, 14)))]
