"""How far back a lost game could still be won (solver/rewind.py): the position named is the one undo brings back."""

from __future__ import annotations

import itertools
import random
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable import State, deal, load_game
from cardtable.core.move import Move
from cardtable.formats import Solution, replay
from cardtable.solver import Limit, SolveResult, solve
from cardtable.solver.rewind import Walk, WayBack, position_back, single_steps, way_back
from cardtable.solver.search import Status
from helpers import ALEXANDER, FAN, FAST, LUCIE

BUDGET = Limit(states=5_000)


def judged(state: State, seconds: float, back: int) -> SolveResult:
    """A search in positions, not seconds, so that verdicts do not follow the machine."""
    return solve(state, BUDGET)


def played(game: str, number: int, seed: int, count: int) -> tuple[State, list[Move]]:
    """Deal ``number`` after up to ``count`` random legal moves, and the moves."""
    state = deal(load_game(game), number)
    rnd = random.Random(seed)
    for _ in range(count):
        moves = list(state.legal_moves)
        if not moves:
            break
        state.push(rnd.choice(moves))
    return state, list(state.move_stack)


def after(game: str, number: int, moves: list[Move]) -> State:
    """The deal with ``moves`` played, built afresh rather than by taking moves back."""
    state = deal(load_game(game), number)
    for move in moves:
        state.push(move)
    return state


def undo_groups(sizes: list[int], total: int) -> list[int]:
    """Undo steps of the given sizes in turn, the latest first, the last cut to take back exactly ``total`` moves."""
    steps: list[int] = []
    in_turn = itertools.cycle(sizes)
    while sum(steps) < total:
        steps.append(min(next(in_turn), total - sum(steps)))
    return steps


@pytest.mark.parametrize("game", [FAN, ALEXANDER, LUCIE])
@FAST
@given(
    number=st.integers(1, 10_000),
    seed=st.integers(0, 2**32),
    count=st.integers(1, 8),
    sizes=st.lists(st.integers(1, 3), min_size=1, max_size=12),
)
def test_the_way_back_names_the_latest_winnable_position_undo_brings_back(
    game: str, number: int, seed: int, count: int, sizes: list[int]
) -> None:
    state, moves = played(game, number, seed, count)
    steps = undo_groups(sizes, len(moves))
    assert sum(steps) == len(moves)
    way = way_back(state, steps, judged, seconds=1e9)
    landed = [len(moves) - sum(steps[:back]) for back in range(1, len(steps) + 1)]
    if way.status == "won":
        there = after(game, number, moves[: landed[way.undo - 1]])
        assert replay(Solution(there, "won", list(way.moves))).problem is None
        passed = landed[: way.undo - 1 - way.undecided]  # the undecided ones just before it: nothing claimed
    elif way.status == "unwinnable":
        passed = landed
    else:
        return  # a search ran out of positions: nothing is claimed
    for kept in passed:  # every position undo brings back on the way there is lost
        assert solve(after(game, number, moves[:kept]), BUDGET).status == "unwinnable"


def test_the_positions_undo_brings_back_are_copies_and_the_last_is_the_deal() -> None:
    state, moves = played(FAN, 4, 1, 5)
    steps = single_steps(state)
    assert len(steps) == len(moves)
    for back in range(1, len(moves) + 1):
        assert position_back(state, steps, back) == after(FAN, 4, moves[: len(moves) - back])
    assert position_back(state, [2, 3], 2) == deal(load_game(FAN), 4)
    assert len(state.move_stack) == len(moves), "the game itself is left as it was"


def test_a_walk_whose_time_is_spent_hands_on_no_seconds_not_fewer() -> None:
    state, _ = played(FAN, 4, 1, 5)
    shares = []

    def overran(earlier: State, seconds: float, back: int) -> SolveResult:
        shares.append(seconds)
        time.sleep(0.02)  # a search that takes longer than the walk had
        return SolveResult("unknown", reason="searched 5 positions")

    way_back(state, single_steps(state), overran, seconds=0.01)
    assert len(shares) == 2 and shares[1] == 0.0


def walked(verdicts: str) -> tuple[WayBack, list[int]]:
    """A walk over positions whose verdicts are given latest first ('L' lost, 'W' won, '?' undecided), and the order it asked."""
    walk, asked = Walk(len(verdicts)), []
    names: dict[str, Status] = {"L": "unwinnable", "W": "won", "?": "unknown"}
    while (back := walk.next()) is not None:
        asked.append(back)
        walk.judged(back, names[verdicts[back - 1]], reason="searched 5 positions")
    return walk.answer(), asked


@pytest.mark.parametrize(
    ("verdicts", "answer", "asked"),
    [
        ("W", WayBack("won", 1), [1]),  # the latest first: lost by the last move, one search
        ("LW", WayBack("won", 2), [1, 2]),
        ("LLW", WayBack("won", 3), [1, 3, 2]),  # past the boundary, then back to it
        ("LLLW", WayBack("won", 4), [1, 3, 4]),  # a gallop back past positions proved lost
        ("LLLLLLLWWW", WayBack("won", 8), [1, 3, 7, 10, 8]),  # three proofs of loss, not seven
        ("LLLL", WayBack("unwinnable"), [1, 3, 4]),
        # undecided ones, then one won further back; one proved lost between: all after it are lost too
        ("???LLW", WayBack("won", 6), [1, 3, 6, 4, 5]),
        # nothing proved lost: a gallop back to a winnable one, then halves of the gap
        ("???????????WWWWW", WayBack("won", 12, undecided=11), [1, 3, 7, 15, 11, 13, 12]),
        ("L??W", WayBack("won", 4, undecided=2), [1, 3, 4]),
        ("????", WayBack("unknown", 1, reason="searched 5 positions"), [1, 3, 4]),
    ],
)
def test_the_walk_gallops_past_undecided_positions_and_says_how_many_it_left(
    verdicts: str, answer: WayBack, asked: list[int]
) -> None:
    assert walked(verdicts) == (answer, asked)


@FAST
@given(
    st.integers(1, 30).flatmap(
        lambda n: st.tuples(st.integers(0, n), st.lists(st.booleans(), min_size=n, max_size=n))
    )
)
def test_the_walk_is_right_whatever_it_cannot_decide(case: tuple[int, list[bool]]) -> None:
    """Positions before ``boundary`` undos are lost, the rest won; ``hard`` ones come out undecided."""
    boundary, hard = case
    verdicts = "".join("?" if h else "L" if back <= boundary else "W" for back, h in enumerate(hard, 1))
    way, asked = walked(verdicts)
    assert len(asked) == len(set(asked)), "no position is judged twice"
    if way.status == "won":
        assert way.undo > boundary and verdicts[way.undo - 1] == "W"
        assert way.undecided == 0 or "?" in verdicts[way.undo - 1 - way.undecided : way.undo - 1]
        assert way.undo - way.undecided - 1 <= boundary  # only proved-lost positions lie nearer than the gap
        if way.undecided == 0:
            assert way.undo == boundary + 1, "with nothing undecided, it is the latest winnable one"
    elif way.status == "unwinnable":
        assert boundary == len(hard), "lost from the start: the start is lost, and so all after it"
    else:
        assert "?" in verdicts
