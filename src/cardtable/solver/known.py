"""Verdicts remembered for the positions of a game in play, so that hints follow one line.

A player who follows a hint must be given the rest of the same winning line.
A fresh search from the next position may find another line, even one that
starts by undoing the move just made (in Alexander the Great a card can pass
back and forth between two fans), and hints that take turns between two lines
never reach the win. So a won line is remembered for every position along it,
and a hint from any of them is its next move.

Positions are told apart exactly, card by card and pile by pile, not by
:meth:`State.key`: that key is equal for positions that hold the same cards in
other piles (fans in another order) or, where suits never matter, other suits,
and a line's moves name piles and cards, which such a position may not have.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from cardtable.core.move import Move
from cardtable.core.state import State
from cardtable.solver.search import SolveResult, Status

Position = tuple[str, int, int, tuple[bytes, ...]]
KNOWN_POSITIONS: Final = 10_000
"""Positions remembered at most, the least recently asked forgotten first: a few
dozen lines of a few hundred moves, far more than a player asks about."""


def exact(state: State) -> Position:
    """The position itself: the game, the seed (which fixes any redeal), the redeals left and every pile."""
    return state.spec.id, state.seed, state.redeals_left, tuple(bytes(pile) for pile in state.piles)


class Known:
    """Proved verdicts by exact position: ``won`` with its line at every position along it, ``unwinnable`` where proved."""

    def __init__(self, size: int = KNOWN_POSITIONS) -> None:
        self.size = size
        # a won line is kept once, with where in it each position stands
        self._known: OrderedDict[Position, tuple[Status, tuple[Move, ...], int]] = OrderedDict()

    def recall(self, state: State) -> SolveResult | None:
        """What is known of ``state``: the rest of a won line through it, unwinnable, or None."""
        position = exact(state)
        found = self._known.get(position)
        if found is None:
            return None
        self._known.move_to_end(position)
        status, line, at = found
        return SolveResult(status, list(line[at:]))

    def remember(self, state: State, status: Status, moves: tuple[Move, ...] | list[Move]) -> None:
        """Keep a proved verdict of ``state``; a won line for every position it passes through."""
        if status == "unknown":
            return
        line = tuple(moves)
        self._keep(exact(state), (status, line, 0))
        if status == "won":
            walk = state.copy()
            for at, move in enumerate(line[:-1], 1):
                walk.push(move)
                self._keep(exact(walk), (status, line, at))

    def _keep(self, position: Position, known: tuple[Status, tuple[Move, ...], int]) -> None:
        self._known[position] = known
        self._known.move_to_end(position)
        while len(self._known) > self.size:
            self._known.popitem(last=False)
