"""Verdicts remembered by exact position (solver/known.py), which keep a followed hint on its line."""

from __future__ import annotations

from cardtable import State, deal, load_game
from cardtable.formats import deal_from_dict, deal_to_dict
from cardtable.solver import Limit, solve
from cardtable.solver.known import Known


def alexander(number: int = 1) -> State:
    return deal(load_game("alexander-the-great"), number)


def fans_swapped(state: State) -> State:
    """The same position with its first two fans in each other's place: one key, other piles."""
    obj = deal_to_dict(state)
    fans = obj["piles"]["fan"]
    fans[0], fans[1] = fans[1], fans[0]
    return deal_from_dict(obj)


def test_a_won_line_is_known_at_every_position_along_it() -> None:
    state, known = alexander(), Known()
    line = solve(state, Limit(seconds=30)).moves
    known.remember(state, "won", line)
    walk = state.copy()
    for at, move in enumerate(line):
        found = known.recall(walk)
        assert found is not None and found.status == "won" and found.moves == line[at:]
        walk.push(move)
    assert walk.is_won() and known.recall(walk) is None  # the end is no position to hint from


def test_a_position_that_holds_the_cards_elsewhere_is_not_known() -> None:
    state, known = alexander(), Known()
    known.remember(state, "won", solve(state, Limit(seconds=30)).moves)
    twin = fans_swapped(state)
    assert twin.key() == state.key()  # the solver's key cannot tell them apart ...
    assert known.recall(twin) is None  # ... but a line names fans, which the twin holds elsewhere


def test_unwinnable_is_kept_and_unknown_is_not() -> None:
    lost, undecided, known = alexander(2), alexander(3), Known()
    known.remember(lost, "unwinnable", [])
    known.remember(undecided, "unknown", [])
    found = known.recall(lost)
    assert found is not None and found.status == "unwinnable" and found.moves == []
    assert known.recall(undecided) is None


def test_the_least_recently_asked_are_forgotten_first() -> None:
    known = Known(size=2)
    first, second, third = alexander(2), alexander(3), alexander(4)
    known.remember(first, "unwinnable", [])
    known.remember(second, "unwinnable", [])
    assert known.recall(first) is not None  # asked: now the most recent
    known.remember(third, "unwinnable", [])
    assert known.recall(second) is None
    assert known.recall(first) is not None and known.recall(third) is not None
