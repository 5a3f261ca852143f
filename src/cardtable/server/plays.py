"""The players' plays: each change loads, applies and saves under one lock.

A change either happens whole and is written in one transaction, or raises and
leaves the stored play as it was: a refused move never changes stored data.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Final

from cardtable.core.errors import CardtableError
from cardtable.core.state import State
from cardtable.server.play import Play
from cardtable.store import ConflictError, DamagedRecordError, PlayRecord, Store


class NotFoundError(CardtableError):
    """No such play, or not this player's: the two look the same from outside."""


HINTED: Final = 10_000
"""Plays whose hinted table :class:`Plays` remembers: one a player at a time is all a page needs."""
STALE: Final = "the game changed in another tab or window: here it is as it stands now; nothing was done"


class StaleViewError(CardtableError):
    """A change asked for from a view of the play that another tab or window has since changed.

    It carries the play as it stands, so that the answer can show it at once.
    """

    def __init__(self, message: str, play: Play) -> None:
        super().__init__(message)
        self.play = play


class Plays:
    """Start, find and change plays, for one player at a time."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._lock = threading.Lock()
        self.hinted: dict[str, str] = {}
        """Each play's :attr:`Play.board` whose hint was counted last: asked again there, it is the same hint.
        At most :data:`HINTED` plays, the latest (see :meth:`hint_counts`)."""

    def hint_counts(self, play: Play) -> bool:
        """Whether a hint now counts against ``play`` (not when its table is the one whose hint counted last),
        noting its table if so. Called within :meth:`change`, whose lock makes the two one step."""
        if self.hinted.get(play.record.id) == play.board:
            return False
        self.hinted.pop(play.record.id, None)  # the latest last, so that the oldest go first
        self.hinted[play.record.id] = play.board
        if len(self.hinted) > HINTED:
            del self.hinted[next(iter(self.hinted))]
        return True

    def start(self, player: str, state: State, *, autoplay: bool = False) -> Play:
        """A new play of ``state``, its safe cards sent home if asked; the player's unfinished one of the same game is left.

        The play left counts as abandoned, or is forgotten if untouched (see
        :meth:`Store.start`). The deal's autoplay is saved with the deal, in
        one write: the play is never stored as the page did not show it. Its
        moves are automatic, so the play stays untouched until the player
        makes a move.
        """
        now = self.clock()
        play = Play.new(player, state, now)
        if autoplay:
            play.autoplay()
        with self._lock:
            self.store.start(play.save_to(now))  # a deal with no move at all is lost at once
        return play

    def get(self, player: str, play_id: str) -> Play:
        """The player's play with this id."""
        record = self.store.get(player, play_id)
        if record is None:
            raise NotFoundError(f"no game {play_id!r}")
        return _replayed(record, left=record.status == "lost" and self.store.left(record))

    def current(self, player: str, game: str | None = None) -> Play | None:
        """The play the player acted on last (of ``game``), to resume it."""
        record = self.store.latest(player, game)
        return None if record is None else _replayed(record)

    def change(
        self, player: str, play_id: str, action: Callable[[Play], object], board: str | None = None
    ) -> Play:
        """Apply ``action`` to the play and save it, or save nothing if it raises or changes nothing.

        With ``board``, the :attr:`Play.board` the player's page shows, a play
        whose cards have moved since (in another tab) is refused rather than
        changed blind: a move chosen on an old table may mean another card on
        the new one.
        """
        with self._lock:
            play = self.get(player, play_id)
            if board is not None and board != play.board:
                raise StaleViewError(STALE, play)
            before = play.kept()
            action(play)
            if play.kept() != before:  # an action that changed nothing (nothing to send home) writes nothing
                try:
                    self.store.save(play.save_to(self.clock()))
                except ConflictError:  # written meanwhile by another process on the file: a second server
                    raise StaleViewError(STALE, self.get(player, play_id)) from None
        return play


def _replayed(record: PlayRecord, *, left: bool = False) -> Play:
    """The play a record holds, its moves played again; a move the rules refuse means the row was tampered with."""
    try:
        return Play(record, left=left)
    except CardtableError as error:
        raise DamagedRecordError(f"the stored game {record.id!r} is damaged ({error})") from None
