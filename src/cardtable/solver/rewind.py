"""How far back a lost game could still be won: the undo a player needs after "no move wins from here".

A player told that the position can no longer be won wants to know where it
went wrong, and to go back there rather than start again. The positions the
game passed through are judged latest first, as undo would bring them back;
the first one the solver proves winnable is the answer. Where undo takes back
several moves at once (the browser's undo takes a move with the autoplay moves
it set off), only the positions an undo lands on are judged: the player cannot
stop between them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from cardtable.core.move import Move
from cardtable.core.state import State
from cardtable.solver.search import SolveResult, Status


@dataclass(frozen=True)
class WayBack:
    """Where a game that can no longer be won could still be won.

    ``won``: ``undo`` undo steps back, with a winning line from there in
    ``moves``; ``unwinnable``: every earlier position was proved lost too, the
    game's start among them; ``unknown``: the budget ran out before either, or
    the search was stopped (``reason`` then says which, as
    :attr:`SolveResult.reason` does).
    """

    status: Status
    undo: int = 0
    moves: tuple[Move, ...] = ()
    reason: str = ""


def earlier_positions(state: State, steps: Sequence[int]) -> Iterator[tuple[int, State]]:
    """The positions undo brings back, latest first, each with how many undo steps reach it.

    ``steps`` holds how many moves each undo takes back, the latest first; they
    must add up to no more than the moves ``state`` has played. Each position
    yielded is a fresh copy, the caller's to keep.
    """
    walk = state.copy(stack=True)
    for back, count in enumerate(steps, 1):
        for _ in range(count):
            walk.pop()
        yield back, walk.copy()


def single_steps(state: State) -> list[int]:
    """Steps for an undo that takes back one move at a time, back to the deal."""
    return [1] * len(state.move_stack)


def way_back(
    state: State, steps: Sequence[int], judge: Callable[[State, float, int], SolveResult], seconds: float
) -> WayBack:
    """The latest earlier position ``judge`` proves winnable, with ``seconds`` for all the searches.

    ``judge`` is given each position, the seconds left (none left: it answers
    ``unknown``, unless it knows the position already) and how many undo steps
    back the position stands, for a live line to name.
    """
    deadline = time.monotonic() + seconds
    for back, position in earlier_positions(state, steps):
        result = judge(position, deadline - time.monotonic(), back)
        if result.status != "unwinnable":
            return WayBack(result.status, back, tuple(result.moves), result.reason)
    return WayBack("unwinnable")
