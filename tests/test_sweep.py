"""The sweep of Acey and Kingsley: sets of wastes, and verdicts against the plain search."""

from __future__ import annotations

import contextlib
import gc
import weakref
from array import array

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable import State, deal
from cardtable.formats import Solution, replay
from cardtable.games import load_game
from cardtable.solver import Limit, solve
from cardtable.solver import sweep as sweep_module
from cardtable.solver import wastes as wastes_module
from cardtable.solver.realise import DEAL
from cardtable.solver.search import DEFAULT_TABLE_CAP, _Budget, _BudgetExceeded
from cardtable.solver.sweep import FIRST_RESTS, Sweep, SweepTooLarge
from cardtable.solver.updown import Search, unpack
from cardtable.solver.wastes import BARE, EMPTY, WasteSets, as_keys, each_once
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
    return {(card, *below) for card, child in sets.tops(node) for below in members(sets, child)}


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
    if one:  # a deal puts one card on every waste of the set, and a one-top set made either way is one node
        assert members(sets, sets.on(5, first)) == {(5, *ranks) for ranks in one}
        assert sets.on(5, first) == sets.node({5: first})


@FAST
@given(st.sets(st.tuples(st.integers(1, 13), st.integers(1, 13)), min_size=1, max_size=40))
def test_the_tops_of_sets_with_several_read_at_once_are_those_read_one_set_at_a_time(
    wastes: set[tuple[int, ...]],
) -> None:
    sets = WasteSets()
    made(sets, wastes)
    every_top = sets.union(made(sets, {(rank, 1) for rank in range(1, 14)}), made(sets, wastes))
    several = [node for node in range(BARE + 1, len(sets)) if sets.packed[node] < 0]
    nodes = np.array([*several, every_top, *several[:1]], dtype=np.int64)  # a set may come twice
    at, rows = sets.several_tops(nodes)
    assert list(zip(at.tolist(), map(tuple, rows.tolist()), strict=True)) == [
        (index, top) for index, node in enumerate(nodes.tolist()) for top in sets.tops(node)
    ]
    assert len(sets.tops(every_top)) == 13


@FAST
@given(st.lists(st.integers(-(1 << 62), 1 << 62), max_size=50))
def test_keys_each_once_are_those_numpy_finds_distinct(keys: list[int]) -> None:
    array_of_keys = np.array(keys, dtype=np.int64)
    assert each_once(array_of_keys).tolist() == np.unique(array_of_keys).tolist()


@FAST
@given(wastes, wastes)
def test_sets_kept_are_the_same_sets_renumbered_and_the_rest_forgotten(
    one: set[tuple[int, ...]], other: set[tuple[int, ...]]
) -> None:
    sets = WasteSets()
    kept = made(sets, one)
    made(sets, other)
    holder = {7: kept, 9: sets.on(3, kept)} if one else {}
    left = sets.keep_only([holder])
    assert left == len(sets) <= 3 + sum(len(ranks) for ranks in one)  # the trie of one, and a top on it
    assert [members(sets, node) for node in holder.values()] == (
        [one, {(3, *ranks) for ranks in one}] if one else []
    )
    assert made(sets, one) == holder.get(7, EMPTY)  # a set kept is found again by its name
    # thinned out again, the sets are the same: renumbering keeps each node after those below it
    assert sets.keep_only([holder]) == left
    assert [members(sets, node) for node in holder.values()] == (
        [one, {(3, *ranks) for ranks in one}] if one else []
    )


@FAST
@given(wastes, wastes, st.integers(1, 5))
def test_sets_kept_are_numbered_alike_whatever_slices_they_are_moved_in(
    one: set[tuple[int, ...]], other: set[tuple[int, ...]], at_once: int
) -> None:
    """A one-top set's first on its node may be in an earlier slice than the others: each is still found the same way."""
    tables = []
    for slices in (wastes_module.KEPT_AT_ONCE, at_once):
        sets = WasteSets()
        kept = made(sets, one)
        made(sets, other)
        holder = {7: kept, 9: sets.on(3, kept), 11: sets.on(4, kept)} if one else {}
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(wastes_module, "KEPT_AT_ONCE", slices)
            sets.keep_only([holder])
        tables.append(
            (list(sets.packed), list(sets.dealt_on), list(sets.several), dict(sets.numbers), dict(holder))
        )
        assert made(sets, one) == holder.get(7, EMPTY)
    assert tables[0] == tables[1]


def searching(number: int) -> Search:
    """A search of a deal with no budget to look at, for a sweep of its own."""
    search = Search(deal(load_game(ACEY), number))
    search.due = 1 << 62
    return search


def swept(
    state: State,
    room: int | None = None,
    width: int | None = None,
    *,
    trace: bool = True,
    step: int = 1 << 62,
) -> Sweep:
    """A sweep of the position run to its end, in turns of ``step`` positions."""
    search = Search(state)
    search.due = 1 << 62  # no budget to look at
    sweep = Sweep(search, room, width, trace=trace)
    while not sweep.advance(search.states + step, lambda: None):
        pass
    return sweep


def won_until(number: int, stock_left: int) -> State:
    """A deal played along the solver's winning line until only ``stock_left`` stock cards are left."""
    state = deal(load_game(ACEY), number)
    stock = state.plan.stock
    assert stock is not None
    for move in solve(state).moves:
        if len(state.piles[stock]) <= stock_left:
            break
        state.push(move)
    return state


def won_by(sweep: Sweep) -> Solution:
    search = sweep.search
    assert sweep.win is not None
    return Solution(search.state, "won", search.realise(unpack(sweep.win)))


@FAST
@given(st.booleans().flatmap(lambda stock: acey_positions(lowest=8, with_stock=stock)))
def test_the_sweep_and_the_plain_search_agree(state: State) -> None:
    # Small positions, which the plain search on the rules engine decides with no
    # pruning at all: the sweep must give the same verdict, and a line that replays.
    # Half have the stock out, where the sweep's moves are its own (the search's
    # argument, part 5).
    plain = solve(state, Limit(states=20_000), prune=False)
    if plain.status == "unknown":
        return
    sweep = swept(state)
    assert ("won" if sweep.win is not None else "unwinnable") == plain.status
    if sweep.win is not None:
        assert replay(won_by(sweep)).problem is None


@FAST
@given(st.booleans().flatmap(lambda stock: acey_positions(lowest=8, with_stock=stock)))
def test_a_sweep_that_keeps_no_trace_sweeps_the_same_rests_to_the_same_verdict(state: State) -> None:
    # It drops the sets of the rests swept as it goes: what is left to sweep,
    # and so every rest and verdict, must be as with every set kept.
    traced, untraced = swept(state), swept(state, trace=False)
    assert untraced.won == traced.won == (traced.win is not None) and untraced.win is None
    assert (untraced.search.states, untraced.endgame_swept) == (traced.search.states, traced.endgame_swept)
    assert not untraced.layers and not untraced.swept_levels


def stacked(search: Search, key: int) -> int:
    """The cards in a position's reserves and waste."""
    heights, _, waste, _, _ = search.unpack(key)
    return search.in_reserves(heights) + waste.bit_count()


@FAST
@given(acey_positions(lowest=8, with_stock=False))
def test_the_endgame_never_puts_a_card_back_on_a_reserve_or_the_waste(state: State) -> None:
    # What lets the sweep sweep the endgame by cards stacked, most first, and forget
    # each count once swept: every move lowers it by one, or keeps it and leaves
    # reserves and waste alone (which is how the sweep tells the two apart).
    search = Search(state)
    frontier, seen = [search.root], {search.root}
    while frontier and len(seen) < 2_000:
        key = frontier.pop()
        for _, after in search.moves(key):
            lowered = stacked(search, key) - stacked(search, after)
            untouched = (
                search.unpack(after)[0] == search.unpack(key)[0]
                and (after ^ key) & search.layout.waste_mask == 0
            )
            assert (lowered, untouched) in ((1, False), (0, True))
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    sweep = swept(state)
    if sweep.win is None:  # it went through every count, and forgot each
        assert sweep.waiting == {} and sweep._entries == sweep._pending == 0


@FAST
@given(acey_positions(lowest=8), st.integers(1, 4))
def test_a_narrowed_sweep_wins_only_with_lines_that_replay(state: State, width: int) -> None:
    # Narrowed to a few rests a card, the sweep may miss every win; what it finds
    # must still replay, and one that never had to drop a rest is still exact.
    sweep = swept(state, width=width)
    if sweep.win is not None:
        assert replay(won_by(sweep)).problem is None
    elif not sweep.narrowed:
        assert solve(state, Limit(states=20_000), prune=False).status in ("unwinnable", "unknown")


def rests_of(sweep: Sweep, dealt: int) -> list[int]:
    """The rests of a stock card's levels, each once."""
    shift = sweep.search.layout.position
    return [
        rest << shift
        for (at, _), arrivals in sweep.levels.items()
        if at == dealt
        for rest in sweep._merged(arrivals)[0].tolist()
    ]


def test_a_narrowed_sweep_keeps_the_most_promising_rests_after_each_card() -> None:
    # Deal 13 kept 1,000 rests wide: after every stock card, the rests that cards
    # dealt brought are cut to the width, the best judged first.
    sweep = Sweep(searching(13), None, width=1_000)
    dropped: list[int] = []
    narrow = sweep._narrow

    def watched(dealt: int) -> None:
        arrived = rests_of(sweep, dealt)
        narrow(dealt)
        kept = set(rests_of(sweep, dealt))
        assert len(kept) == min(len(arrived), 1_000)
        if kept != set(arrived):
            judge = sweep.search.promise
            score = {rest: judge(rest >> sweep._found_at, sweep._waste_length(rest)) for rest in arrived}
            worst_kept = min(score[rest] for rest in kept)
            assert worst_kept >= max(score[rest] for rest in arrived if rest not in kept)
            dropped.append(dealt)

    sweep._narrow = watched  # type: ignore[method-assign]
    sweep.advance(400_000, lambda: None)
    assert sweep.narrowed and dropped


def test_swept_layers_give_back_the_rests_with_the_reserve_heights_a_trace_asks_for() -> None:
    sweep = Sweep(searching(194), None)
    at = sweep.search.layout
    one_off = 1 << at.heights  # a card gone from the first reserve
    rests = [5 << at.position, one_off | 7 << at.position]
    shifted = as_keys([rest >> at.position for rest in rests])
    layer = sweep._layer(shifted, as_keys([2, 3]))
    assert list(sweep._layer_items(layer, {0})) == [(rests[0], 2)]
    assert list(sweep._layer_items(layer, {1})) == [(rests[1], 3)]
    assert list(sweep._layer_items(layer, {0, 1, 2})) == [(rests[0], 2), (rests[1], 3)]


def test_the_sweep_knows_each_rests_waste_length() -> None:
    # The length a narrowed sweep judges a rest by is that of every waste in its set
    sweep = Sweep(searching(13), None)
    sweep.advance(50_000, lambda: None)
    shift = sweep.search.layout.position
    for arrivals in sweep.levels.values():
        rests, nodes = sweep._merged(arrivals)
        for rest, node in zip(rests.tolist(), nodes.tolist()):
            assert {len(ranks) for ranks in members(sweep.sets, node)} == {sweep._waste_length(rest << shift)}


def test_the_sweep_proves_the_lost_deal_lost_in_a_few_hundred_rests() -> None:
    sweep = swept(deal(load_game(ACEY), 194))
    assert sweep.win is None
    assert sweep.search.states < 1_000
    untraced = swept(deal(load_game(ACEY), 194), trace=False)
    assert not untraced.won and untraced.search.states == sweep.search.states


def test_the_sweeps_tables_of_cards_home_are_the_searchs_and_leave_its_memo_alone() -> None:
    # The sweep works out where cards go home once a class, into flat tables of
    # its own: the search's memo would hold them a second time (~900 bytes a class).
    search = searching(2)
    sweep = Sweep(search, None, trace=False)
    sweep.advance(20_000, lambda: None)
    assert len(search.classes) > 100 and not search._homes
    for found in range(len(search.classes)):
        for card in range(1, 14):
            assert search.home_afresh(found, card) == search.home(found, card)
    assert search._homes


def test_the_sweep_traces_a_win_back_through_the_stock_phase() -> None:
    # Deal 2 played along a winning line until 12 stock cards are left: the sweep
    # must find a win from there, through the rest of the stock phase.
    state = won_until(2, stock_left=12)
    sweep = swept(state)
    assert replay(won_by(sweep)).problem is None
    assert any(code & 3 == DEAL for code in sweep.win or [])


def test_merges_forgotten_after_every_level_change_no_rest_verdict_or_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Merges are remembered only to spare working them out again: a sweep that
    # forgets them after every level (MERGES_KEPT 0) must sweep the same rests,
    # to the same verdict and the same line, traced or not.
    state = won_until(2, stock_left=12)
    lost = deal(load_game(ACEY), 194)
    kept = [swept(state), swept(lost), swept(lost, trace=False)]
    monkeypatch.setattr(sweep_module, "MERGES_KEPT", 0)
    forgotten = [swept(state), swept(lost), swept(lost, trace=False)]
    for before, after in zip(kept, forgotten):
        assert (after.won, after.win) == (before.won, before.win)
        assert (after.search.states, after.endgame_swept) == (before.search.states, before.endgame_swept)
    assert forgotten[0].win is not None


def test_the_sweep_narrows_when_its_rests_would_outgrow_its_room() -> None:
    # Deal 1: the rests multiply as cards go home, and the sweep sees it coming.
    # With room for FIRST_RESTS rests a card it narrows (judged against a narrowed
    # sweep's share of the room, not an exact one's); with less it gives way.
    sweep = Sweep(searching(1), 4_000_000)
    while not sweep.narrowed:
        assert not sweep.advance(sweep.search.states + 10_000, lambda: None)
    assert sweep.width == FIRST_RESTS
    sweep = Sweep(searching(1), 2_000)
    with pytest.raises(SweepTooLarge):
        sweep.advance(1 << 62, lambda: None)
    assert sweep.weight <= 2_000


def test_a_full_table_drops_the_sweep_and_the_search_goes_on() -> None:
    # Deal 13's sweep would fill this table: it gives way, and the beams search on
    # until their own budget, not the table, stops them.
    result = solve(deal(load_game(ACEY), 13), Limit(states=600_000, table=150_000))
    assert result.status == "unknown"
    assert result.reason == "searched 600,000 positions"


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


@FAST
@given(st.booleans().flatmap(lambda stock: acey_positions(lowest=8, with_stock=stock)), st.integers(1, 40))
def test_a_sweep_paused_every_few_rests_sweeps_the_same_rests_in_the_same_order(
    state: State, step: int
) -> None:
    # The search gives the sweep turns of any length, and a level sweeps its rests
    # in batches that end where a turn does: where the batches end must change
    # nothing, not the rests, their order, the foundation classes numbered, nor the line.
    whole, paused = swept(state), swept(state, step=step)
    assert (paused.search.states, paused.endgame_swept, paused.win) == (
        whole.search.states,
        whole.endgame_swept,
        whole.win,
    )
    assert paused.search.classes == whole.search.classes


def test_a_level_keeps_each_rest_once_in_the_order_it_first_came_with_every_set_it_came_with() -> None:
    sweep = Sweep(searching(194), None)
    sets, arrivals = sweep.sets, sweep_module.Arrivals()
    one, other, third = sets.of((3, 1)), sets.of((4, 1)), sets.of((5, 2))
    sweep._arrive(arrivals, as_keys([9, 4, 9]), as_keys([one, other, other]))
    sweep._arrive(arrivals, as_keys([7, 4]), as_keys([third, third]))
    assert sweep._pending == arrivals.size == 5
    rests, nodes = sweep._merged(arrivals)
    assert rests.tolist() == [9, 4, 7]
    assert nodes.tolist() == [sets.union(one, other), sets.union(other, third), third]
    assert sweep._pending == arrivals.size == 3
    assert sweep._distinct(arrivals).tolist() == [9, 4, 7]


@FAST
@given(st.booleans().flatmap(lambda stock: acey_positions(lowest=8, with_stock=stock)), st.booleans())
def test_rests_merged_before_their_turn_sweep_the_same_rests_in_the_same_order(
    state: State, trace: bool
) -> None:
    # A level's arrivals and an endgame count's waiting rests are merged early
    # once they grow past MERGED_PAST: merged at every arrival, the sweep must
    # still sweep the same rests in the same order to the same verdict and line.
    whole = swept(state, trace=trace)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sweep_module, "MERGED_PAST", 1)
        early = swept(state, trace=trace)
    assert (early.search.states, early.endgame_swept, early.won, early.win) == (
        whole.search.states,
        whole.endgame_swept,
        whole.won,
        whole.win,
    )
    assert early.search.classes == whole.search.classes


@FAST
@given(acey_positions(lowest=8, with_stock=False), st.integers(1, 5), st.integers(1, 7))
def test_an_endgame_cut_in_small_chunks_and_paused_often_sweeps_the_same_rests(
    state: State, chunk: int, step: int
) -> None:
    # The endgame makes the moves of a chunk of a layer at once, and the sweep
    # may pause anywhere in a chunk: chunks of any size, cut by pauses or not,
    # sweep the same rests to the same verdict, and a win still replays.
    whole = swept(state)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sweep_module, "ENDGAME_CHUNK", chunk)
        cut = swept(state, step=step)
    assert (cut.search.states, cut.endgame_swept, cut.won) == (
        whole.search.states,
        whole.endgame_swept,
        whole.won,
    )
    if cut.win is not None:
        assert replay(won_by(cut)).problem is None


def test_rests_merged_in_two_goes_are_those_merged_in_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # The first comings keep their order and later ones add their sets, in a
    # level's arrivals and, merged in place, in an endgame count's waiting rests.
    sweep = Sweep(searching(194), None)
    sets = sweep.sets
    one, other, third = sets.of((3, 1)), sets.of((4, 1)), sets.of((5, 2))
    first = (as_keys([9, 4, 9]), as_keys([one, other, other]))
    then = (as_keys([7, 4, 2]), as_keys([third, third, one]))
    at_once, in_two = sweep_module.Arrivals(), sweep_module.Arrivals()
    sweep._arrive(at_once, *first)
    sweep._arrive(at_once, *then)
    sweep._arrive(in_two, *first)
    sweep._merged(in_two)
    sweep._arrive(in_two, *then)
    expected = [9, 4, 7, 2], [sets.union(one, other), sets.union(other, third), third, one]
    for arrivals in (at_once, in_two):
        assert [keys.tolist() for keys in sweep._merged(arrivals)] == list(expected)
    sweep.waiting[5] = (array("q", [9, 4, 9, 7, 4, 2]), array("q", [one, other, other, third, third, one]))
    monkeypatch.setattr(sweep_module, "MERGED_PAST", 6)
    sweep._merge_grown(5)
    assert [list(column) for column in sweep.waiting[5]] == list(expected)


def test_a_sweep_whose_rests_would_not_fit_a_machine_word_gives_way(monkeypatch: pytest.MonkeyPatch) -> None:
    # Acey and Kingsley's rests take 31 bits below the foundations' class and at
    # most 25 for it; a game of its shape with more piles could take more, and
    # the arrays would overflow unseen: its sweep gives way, and the other
    # searches still decide (deal 194 is lost).
    layout = searching(194).layout
    assert sweep_module.rests_fit_words(layout.found - layout.position, 4, 4)
    assert not sweep_module.rests_fit_words(31 + 16, 4, 4)
    monkeypatch.setattr(sweep_module, "rests_fit_words", lambda *_: False)
    with pytest.raises(SweepTooLarge):
        Sweep(searching(194), None).advance(1 << 62, lambda: None)
    assert solve(deal(load_game(ACEY), 194), Limit(states=200_000)).status == "unwinnable"
