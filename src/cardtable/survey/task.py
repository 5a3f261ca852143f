"""One deal solved, as a worker process or a Dask worker does it.

A task travels to the worker as plain values (the game id, the deal number, the
budget as a :class:`~cardtable.solver.Limit`) and comes back as an :class:`Outcome`: small and picklable, with nothing
of the solver's state, so that a Dask worker on another machine can run it as
long as it has cardtable installed. The worker reports its own rules version and
cardtable version, so that a survey can refuse a worker that plays other rules.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

import cardtable
from cardtable.core.deals import deal
from cardtable.core.move import Move
from cardtable.core.spec import GameSpec
from cardtable.games import load_game
from cardtable.solver import Limit, solve
from cardtable.solver.search import Status


@dataclass(frozen=True)
class Outcome:
    """The verdict on one deal and what the search cost."""

    deal: int
    verdict: Status
    seconds: float
    states: int
    length: int | None  # moves in the winning line; None unless won
    rules_version: int
    version: str  # the cardtable that solved it
    line: str | None = None
    """The winning moves (see :func:`stored_line`); None unless won, and when read back without them."""


@functools.cache
def _spec(game: str) -> GameSpec:
    return load_game(game)


def solve_deal(game: str, number: int, budget: Limit) -> Outcome:
    """Solve deal ``number`` of ``game`` (a canonical id) within ``budget``."""
    spec = _spec(game)
    result = solve(deal(spec, number), budget)
    return Outcome(
        deal=number,
        verdict=result.status,
        seconds=result.seconds,
        states=result.states,
        length=len(result.moves) if result.status == "won" else None,
        rules_version=spec.rules_version,
        version=cardtable.__version__,
        line=stored_line(result.moves) if result.status == "won" else None,
    )


MOVE_SEPARATOR: Final = ", "


def stored_line(moves: list[Move]) -> str:
    """A line of play as text that needs no position: the moves' text forms (``fan/3 foundation/0 7C``), comma-separated.

    Kept with each won deal so that a survey's wins can be written out as
    solutions and replayed by anyone (``cardtable report --solutions``).
    """
    return MOVE_SEPARATOR.join(move.text() for move in moves)


def stored_moves(text: str) -> list[Move]:
    """The moves of a :func:`stored_line`; InvalidMoveError if one is not a move."""
    return [Move.from_text(move) for move in text.split(MOVE_SEPARATOR)] if text else []
