"""One saved play: the deal it started from, the moves made, the moves taken back."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

PlayStatus = Literal["playing", "won", "lost", "abandoned"]
"""Where a play stands; a solver's verdict on a position is another thing (:data:`cardtable.solver.search.Status`)."""
FINISHED: Final[frozenset[str]] = frozenset({"won", "lost", "abandoned"})
"""Statuses that count in the statistics. ``lost`` may turn back into ``playing``
when the player takes moves back; ``abandoned`` (a new game was started while
this one was :func:`touched`) is final."""
IDLE_CAP: Final = 300.0
"""Seconds at most counted between two actions: a tab or a terminal left open overnight is not play time."""


def touched(moves: Iterable[dict[str, Any]], redo: Iterable[dict[str, Any]]) -> bool:
    """Whether a play with these moves made and to redo had a move made by hand: autoplay alone plays no game.

    A play left untouched for a new one is forgotten; one touched counts as abandoned. The stored
    form of :attr:`cardtable.playing.GameInPlay.touched`, for the store's SQL.
    """
    return not all(entry.get("auto") for entry in (*moves, *redo))


def play_time(since_last: float) -> float:
    """The play time that the seconds since the last action add: none if the clock went back, at most IDLE_CAP."""
    return min(max(0.0, since_last), IDLE_CAP)


@dataclass
class PlayRecord:
    """A row of the ``plays`` table, with its JSON columns decoded.

    ``moves`` and ``redo`` hold formats.md move objects; an entry may carry
    ``"auto": true`` when autoplay made it, so undo takes it back with the move
    that caused it. ``redo`` is the forward line: ``redo[0]`` is redone first.
    """

    id: str
    player: str
    game: str
    deal: int | None
    start: dict[str, Any]
    moves: list[dict[str, Any]] = field(default_factory=list)
    redo: list[dict[str, Any]] = field(default_factory=list)
    status: PlayStatus = "playing"
    seconds: float = 0.0
    assisted: bool = False
    hints: int = 0
    created: float = 0.0
    updated: float = 0.0
    finished: float | None = None
    version: int = 0
