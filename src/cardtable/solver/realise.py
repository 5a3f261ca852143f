"""The steps of the Acey and Kingsley search, and the real moves they stand for.

The search (:mod:`cardtable.solver.updown`) knows cards by their ranks and the
foundations by their class (:mod:`cardtable.solver.foundations`), so a step names
a rank and where it goes, not a card or a pile. :class:`Realiser` plays a won
line's steps on the real position: it finds the piles, slides a meeting pair where
a step needs one (part 2 of the argument of :mod:`cardtable.solver.updown`), and
lets the rules check each move as it is played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardtable.core.cards import KING, rank
from cardtable.core.move import Move
from cardtable.core.state import State
from cardtable.solver.foundations import EMPTY_KING_TOP, FROM_ACE, FROM_KING, ONTO_ACE, ONTO_KING

Step = tuple[int, int, int, int]
"""(what, source, rank, how): one move of the search, turned into real moves by :class:`Realiser`."""

HOME: Final = 0  # a card onto the foundations; source, rank, how (ONTO_*)
DEAL: Final = 1
TO_TABLEAU: Final = 2  # a reserve's or the waste's top onto an empty tableau pile
LIFT: Final = 3  # a foundation card onto an empty tableau pile; rank, how (FROM_*)

WASTE: Final = -1
TABLEAU: Final = -2  # sources; a reserve is its index 0, 1, ...


@dataclass(frozen=True)
class Realiser:
    """Turns steps into real moves from the position a search started at: ``start``, its piles of each kind by index."""

    start: State
    reserves: tuple[int, ...]
    tableau: tuple[int, ...]
    ace_piles: tuple[int, ...]
    king_piles: tuple[int, ...]

    def moves(self, steps: list[Step]) -> list[Move]:
        """The real moves of ``steps``, each checked by the rules as it is played."""
        state = self.start.copy()
        for what, source, card, how in steps:
            if what == DEAL:
                state.push_checked(Move.deal())
            elif what == LIFT:
                _play(state, self._lift_pile(state, card, how), self._empty_tableau(state))
            elif what == TO_TABLEAU:
                _play(state, self._source_pile(state, source, card), self._empty_tableau(state))
            else:
                _play(state, self._source_pile(state, source, card), self._home_pile(state, card, how))
        return state.move_stack

    def _source_pile(self, state: State, source: int, card: int) -> int:
        if source == WASTE:
            assert state.plan.waste is not None
            return state.plan.waste
        if source == TABLEAU:
            return next(i for i in self.tableau if state.piles[i] and rank(state.piles[i][-1]) == card)
        return self.reserves[source]

    def _empty_tableau(self, state: State) -> int:
        return next(i for i in self.tableau if not state.piles[i])

    def _home_pile(self, state: State, card: int, how: int) -> int:
        """A foundation that takes ``card`` as ``how`` says, sliding a meeting pair if need be."""
        if how == ONTO_ACE:
            return self._pile_of_height(state, self.ace_piles, card - 1)
        if how == ONTO_KING:
            return self._pile_of_height(state, self.king_piles, KING - card)
        return self._slide_pair(state, card - 1)

    def _lift_pile(self, state: State, card: int, how: int) -> int:
        """A foundation whose top is ``card``, as ``how`` says, sliding a meeting pair if need be."""
        if how == FROM_ACE:
            return self._pile_of_height(state, self.ace_piles, card)
        if how == FROM_KING:
            return self._pile_of_height(state, self.king_piles, EMPTY_KING_TOP - card)
        return self._slide_pair(state, card)

    @staticmethod
    def _pile_of_height(state: State, piles: tuple[int, ...], height: int) -> int:
        return next(i for i in piles if len(state.piles[i]) == height)

    def _slide_pair(self, state: State, ace_top: int) -> int:
        """Slide a meeting pair until its ace pile's top is ``ace_top``; return that ace pile."""
        piles = state.piles
        ace, king = next(
            (a, k) for a in self.ace_piles for k in self.king_piles if len(piles[a]) + len(piles[k]) == KING
        )
        while len(piles[ace]) < ace_top:
            _play(state, king, ace)
        while len(piles[ace]) > ace_top:
            _play(state, ace, king)
        return ace


def _play(state: State, source: int, target: int) -> None:
    state.push_checked(state.move_at(source, target))
