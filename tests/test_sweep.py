"""The sweep of Acey and Kingsley: sets of wastes, and verdicts against the plain search."""

from __future__ import annotations

import contextlib
import gc
import weakref

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable import State, deal
from cardtable.formats import Solution, replay
from cardtable.games import load_game
from cardtable.solver import Limit, solve
from cardtable.solver.search import DEFAULT_TABLE_CAP, _Budget, _BudgetExceeded
from cardtable.solver.sweep import BARE, EMPTY, Sweep, SweepTooLarge, WasteSets
from cardtable.solver.updown import DEAL, Search, _unpack_step
from helpers import ACEY, FAST, acey_positions

wastes = st.integers(0, 4).flatmap(lambda size: st.sets(st.tuples(*[st.integers(1, 4)] * size), max_size=12))
"""Sets of wastes of one size, as ranks top first (few ranks, so that they share parts)."""


def made(sets: WasteSets, members: set[tuple[int, ...]]) -> int:
    node = EMPTY
    for ranks in members:
        node = sets.union(node, sets.of(ranks))
    return node


def members(sets: WasteSets, node: int) -> set[tuple[int, ...]]:
    """Every waste of a set, read off its trie."""
    if node == BARE:
        return {()}
    return {(card, *below) for card, child in sets.edges[node].items() for below in members(sets, child)}


@FAST
@given(wastes, wastes)
def test_sets_of_wastes_are_the_sets_they_stand_for(
    one: set[tuple[int, ...]], other: set[tuple[int, ...]]
) -> None:
    if one and other and len(next(iter(one))) != len(next(iter(other))):
        other = set()  # a rest's wastes all have one size
    sets = WasteSets()
    first, second = made(sets, one), made(sets, other)
    assert members(sets, first) == one if one else first == EMPTY
    assert members(sets, sets.union(first, second)) | {()} == one | other | {()}
    assert sets.union(first, second) == sets.union(second, first)
    left = sets.difference(first, second)
    assert (members(sets, left) if left else set()) == one - other
    assert all(sets.holds(first, ranks) for ranks in one)
    assert made(sets, set(one)) == first  # equal sets are one node


def swept(state: State, room: int | None = None) -> Sweep:
    """A sweep of the position run to its end."""
    search = Search(state)
    search.due = 1 << 62  # no budget to look at
    sweep = Sweep(search, room)
    assert sweep.advance(1 << 62, lambda: None)
    return sweep


def won_by(sweep: Sweep) -> Solution:
    search = sweep.search
    assert sweep.win is not None
    return Solution(search.state, "won", search.realise([_unpack_step(code) for code in sweep.win]))


@FAST
@given(acey_positions(lowest=8))
def test_the_sweep_and_the_plain_search_agree(state: State) -> None:
    # Small positions, which the plain search on the rules engine decides with no
    # pruning at all: the sweep must give the same verdict, and a line that replays.
    plain = solve(state, Limit(states=20_000), prune=False)
    if plain.status == "unknown":
        return
    sweep = swept(state)
    assert ("won" if sweep.win is not None else "unwinnable") == plain.status
    if sweep.win is not None:
        assert replay(won_by(sweep)).problem is None


def test_the_sweep_proves_the_lost_deal_lost_in_a_few_hundred_rests() -> None:
    sweep = swept(deal(load_game(ACEY), 194))
    assert sweep.win is None
    assert sweep.search.states < 1_000


def test_the_sweep_traces_a_win_back_through_the_stock_phase() -> None:
    # Deal 2 played along a winning line until 12 stock cards are left: the sweep
    # must find a win from there, through the rest of the stock phase.
    state = deal(load_game(ACEY), 2)
    stock = state.plan.stock
    assert stock is not None
    for move in solve(state).moves:
        if len(state.piles[stock]) <= 12:
            break
        state.push(move)
    sweep = swept(state)
    assert replay(won_by(sweep)).problem is None
    assert any(code & 3 == DEAL for code in sweep.win or [])


def test_the_sweep_gives_way_when_its_rests_would_outgrow_its_room() -> None:
    # Deal 1: the rests multiply as cards go home, and the sweep sees it coming
    search = Search(deal(load_game(ACEY), 1))
    search.due = 1 << 62
    sweep = Sweep(search, 100_000)
    with pytest.raises(SweepTooLarge):
        sweep.advance(1 << 62, lambda: None)
    assert sweep.weight <= 100_000


def test_a_full_table_drops_the_sweep_and_the_search_goes_on() -> None:
    # Deal 13's sweep would fill this table: it gives way, and the beams search on
    # until their own budget, not the table, stops them.
    result = solve(deal(load_game(ACEY), 13), Limit(states=600_000, table=150_000))
    assert result.status == "unknown"
    assert result.reason == "searched 600000 positions"


def test_a_search_lets_its_sweep_go_at_once_when_it_ends() -> None:
    # The sweep and its search refer to each other: without being let go, its sets
    # would wait for the garbage collector, one deal's after another in a survey.
    gc.disable()
    try:
        for number, budget in ((194, None), (13, 300_000)):
            search = Search(deal(load_game(ACEY), number), DEFAULT_TABLE_CAP)
            assert search.sweep is not None
            sweep = weakref.ref(search.sweep)
            with contextlib.suppress(_BudgetExceeded):
                search.run(_Budget(Limit(states=budget)).check)
            assert search.sweep is None
            assert sweep() is None
    finally:
        gc.enable()
