"""How far back a lost game could still be won: the undo a player needs after "no move wins from here".

A player told that the position can no longer be won wants to know where it
went wrong, and to go back there rather than start again. Where undo takes back
several moves at once (the browser's undo takes a move with the autoplay moves
it set off), only the positions an undo lands on count: the player cannot stop
between them.

**Winnability along a game is monotone.** If a position is lost, so is every
position played after it (were one of them winnable, the moves between would
win from the first); if a position is winnable, so is every one before it. So
the game's positions are winnable up to one boundary and lost after it, and
the answer is the latest winnable one.

**The walk** (:class:`Walk`) looks for that boundary. It judges the latest
position first, as undo would bring it back, then gallops back, 2, 4, 8 ...
undos past the farthest one judged, until one is proved winnable, then halves
the gap between that one and the farthest not proved winnable. A position
proved lost moves the lost bound back (everything after it is lost too); one
the solver cannot decide in its share of the time is passed over as the
gallop goes on. Galloping rather than walking back one undo at a time matters
where a proof of loss is dear (the La Belle Lucie form: a second or two each,
where a win is often found at once): a game lost eight moves back takes three
proofs of loss instead of seven; one lost by its last move still takes one
search, and one lost two moves back three instead of two. In Acey and
Kingsley the positions of a long stock phase are often too hard to prove
lost, while earlier ones are won at once. The answer says how many positions
between the last one known lost and it were left undecided: it can still be
won, and a nearer one might be too.

The walk only proposes positions and takes their verdicts; a front end drives
it with its own solver (:func:`way_back` here, or the server's pool), each
position given a third of the time left.
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
    ``moves``; ``undecided`` of the positions nearer than it were not decided,
    so a nearer one may be winnable too (0: it is the latest winnable one).
    ``unwinnable``: every earlier position was proved lost too, the game's
    start among them. ``unknown``: the budget ran out before either, or the
    search was stopped (``reason`` then says which, as
    :attr:`SolveResult.reason` does).
    """

    status: Status
    undo: int = 0
    moves: tuple[Move, ...] = ()
    reason: str = ""
    undecided: int = 0


class Walk:
    """The search for the latest winnable position among ``count`` earlier ones (1: one undo back).

    Ask :meth:`next` which position to judge, tell :meth:`judged` its verdict,
    until :meth:`next` says there is none left to judge; then read :meth:`answer`.
    """

    def __init__(self, count: int) -> None:
        self.count = count
        self.lost = 0
        """Every position this many undos back, and every nearer one, is lost."""
        self.won: int | None = None
        """The nearest position proved winnable, if any."""
        self.line: tuple[Move, ...] = ()
        self.undecided: int | None = None
        """The farthest-back position left undecided, if any lies between the lost bound and the won one."""
        self.stride = 1
        self.reason = ""

    def next(self) -> int | None:
        """How many undos back the next position to judge stands; None when there is none left to judge."""
        if self.lost >= self.count or (self.won is not None and self.won == self.lost + 1):
            return None  # lost from the start, or the boundary found
        near = max(self.lost, self.undecided or 0)  # the farthest back judged and not proved winnable
        if self.won is None:  # galloping back for a winnable one, the start at the latest
            return None if near >= self.count else min(near + self.stride, self.count)
        middle = (near + self.won) // 2
        return None if middle == near else middle

    def visits(
        self, state: State, steps: Sequence[int], seconds: float
    ) -> Iterator[tuple[State, float, int]]:
        """The positions to judge, in turn: each with its share of the ``seconds`` left and how far back it stands.

        Tell :meth:`judged` each one's verdict before asking for the next. The
        walk ends when none is left to judge or, after a position judged, when
        the time is spent. The terminal drives it with its searches, the server
        with its pool's.
        """
        deadline = time.monotonic() + seconds
        while (back := self.next()) is not None:
            left = max(deadline - time.monotonic(), 0.0)  # a search overran: none left, not fewer than none
            yield position_back(state, steps, back), share(left, back, len(steps)), back
            if left <= 0:
                return

    def judged(self, back: int, status: Status, moves: Sequence[Move] = (), reason: str = "") -> None:
        """What the solver found ``back`` undos back: its verdict, its winning line, why it is unknown."""
        if status == "won":
            if self.won is None or back < self.won:
                self.won, self.line = back, tuple(moves)
            return
        self.stride *= 2
        if status == "unwinnable":
            self.lost = max(self.lost, back)
            if self.undecided is not None and self.undecided <= back:  # lost now, as all after ``back``
                self.undecided = None
        else:
            self.reason = reason
            self.undecided = max(back, self.undecided or 0)

    def answer(self) -> WayBack:
        """The latest position proved winnable, with how many nearer ones are not known to be lost."""
        if self.won is not None:
            return WayBack("won", self.won, self.line, undecided=self.won - self.lost - 1)
        if self.lost >= self.count:
            return WayBack("unwinnable")
        return WayBack("unknown", self.lost + 1, reason=self.reason)


def position_back(state: State, steps: Sequence[int], back: int) -> State:
    """The position ``back`` undos (of ``steps`` moves each, the latest first) bring back: a fresh copy."""
    earlier = state.copy(stack=True)
    for _ in range(sum(steps[:back])):
        earlier.pop()
    return earlier


def single_steps(state: State) -> list[int]:
    """Steps for an undo that takes back one move at a time, back to the deal."""
    return [1] * state.ply()


def way_back(
    state: State,
    steps: Sequence[int],
    judge: Callable[[State, float, int], SolveResult],
    seconds: float,
    stops: Callable[[SolveResult], bool] = lambda result: False,
) -> WayBack:
    """The latest earlier position ``judge`` proves winnable, with ``seconds`` for all the searches (see :class:`Walk`).

    ``judge`` is given each position, its share of the seconds left (a third
    of them, or all for the start: none left, it answers ``unknown`` unless it
    knows the position already) and how many undo steps back the position
    stands, for a live line to name. A verdict for which ``stops`` is true (an
    interrupted search) ends the walk at once.
    """
    walk = Walk(len(steps))
    for position, seconds_for_it, back in walk.visits(state, steps, seconds):
        result = judge(position, seconds_for_it, back)
        walk.judged(back, result.status, result.moves, result.reason)
        if stops(result):
            break
    return walk.answer()


def share(left: float, back: int, count: int) -> float:
    """The seconds a position gets of the ``left`` of a walk: a third, so that an undecided one leaves time to go on; all for the start."""
    return left if back >= count else left / 3
