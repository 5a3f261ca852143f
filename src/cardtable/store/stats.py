"""Statistics per game from the finished plays: played, won, win rate, streaks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from cardtable.store.records import FINISHED, PlayRecord


class Ending(NamedTuple):
    """How one play ended: all that the statistics read of it (:meth:`cardtable.store.Store.endings`).

    A player's statistics read every play they finished; decoding each one's
    deal and moves as well took seconds for tens of thousands.
    """

    game: str
    deal: int | None
    status: str
    created: float
    updated: float
    finished: float | None

    @classmethod
    def of(cls, play: PlayRecord) -> Ending:
        """How ``play`` ended, read off its whole record."""
        return cls(play.game, play.deal, play.status, play.created, play.updated, play.finished)


@dataclass(frozen=True)
class GameStats:
    """A player's record at one game (an id with options is a game of its own)."""

    game: str
    played: int
    won: int
    current_streak: int
    best_streak: int
    positions: bool = False
    """Whether these are the games started from positions of the player's own, not from deals."""

    @property
    def win_rate(self) -> float:
        """Won over played, 0 when nothing was played."""
        return self.won / self.played if self.played else 0.0


def game_stats(plays: Iterable[Ending]) -> list[GameStats]:
    """The statistics of each game among ``plays``, finished ones only, oldest first.

    A streak is a run of wins in the order the plays finished; a loss or an
    abandoned play ends it. Games are listed in the order first played. The
    plays of a game started from positions of the player's own (no deal
    number) have a row of their own: a position set up one move from the end
    says nothing of how often the game's deals are won.
    """
    runs: dict[tuple[str, bool], list[bool]] = {}
    for play in sorted(plays, key=lambda p: (p.finished or p.updated, p.created)):
        if play.status in FINISHED:
            runs.setdefault((play.game, play.deal is None), []).append(play.status == "won")
    return [_stats(game, positions, results) for (game, positions), results in runs.items()]


def _stats(game: str, positions: bool, results: list[bool]) -> GameStats:
    best = current = 0
    for won in results:
        current = current + 1 if won else 0
        best = max(best, current)
    return GameStats(game, len(results), sum(results), current, best, positions)
