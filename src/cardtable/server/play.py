"""A saved play brought to life: replayed from its record, changed by the player, written back.

A record is the deal plus the moves (as formats.md writes them), so loading
replays them through :meth:`State.push_checked`: what is stored is always a
legal game. Undo, redo and the redo line are :class:`~cardtable.playing.GameInPlay`'s,
as in the terminal: a move and the autoplay moves it set off are taken back and
redone together.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from cardtable.core.deals import dealt_number
from cardtable.core.errors import IllegalMoveError, InvalidMoveError, NothingToDoError, excerpt
from cardtable.core.move import Move
from cardtable.core.notation import with_codes
from cardtable.core.state import State
from cardtable.formats import deal_from_dict, deal_to_dict, move_from_dict, move_to_dict
from cardtable.playing import Entry, GameInPlay
from cardtable.store.records import PlayRecord, PlayStatus, play_time


class Play(GameInPlay):
    """A play in memory: its record, and the game in play it holds."""

    def __init__(self, record: PlayRecord, *, left: bool = False) -> None:
        """``left``: the player has started a game of this kind since (:meth:`Store.left`)."""
        super().__init__(
            deal_from_dict(record.start),
            made=[_from_entry(entry) for entry in record.moves],
            redo=[_from_entry(entry) for entry in record.redo],
        )
        self.record = record
        self.left = left

    @classmethod
    def new(cls, player: str, state: State, now: float) -> Play:
        """A fresh play of ``state`` (a numbered deal or any legal position)."""
        record = PlayRecord(
            id=secrets.token_urlsafe(9),
            player=player,
            game=state.spec.id,
            deal=dealt_number(state),
            start=deal_to_dict(state),
            created=now,
            updated=now,
        )
        return cls(record)

    # -- reading -------------------------------------------------------------

    @property
    def status(self) -> PlayStatus:
        """Won, lost (:meth:`State.is_lost`: no move and no redeal left, or the game's stuck hook says so), abandoned for a new game, or still playing."""
        if self.record.status == "abandoned":
            return "abandoned"
        if self.state.is_won():
            return "won"
        return "lost" if self.state.is_lost() else "playing"

    @property
    def board(self) -> str:
        """A short name of the table a page shows: the moves made from the deal and the moves to redo, hashed.

        A page sends it back with a change, so that a change chosen on a table
        another tab has since changed is refused: the cards moved, or a redo
        that would make moves the page never showed. Unlike the record's
        version, it stays the same when only a hint is counted or a line is shown.
        """
        made = "\n".join(move.text() for move in self.state.move_stack)
        redone = "\n".join(move.text() for move, _ in self.redo)
        return hashlib.sha256(f"{made}\n\n{redone}".encode()).hexdigest()[:16]

    # -- changing ------------------------------------------------------------

    def play(self, move: Move, *, autoplay: bool = False) -> None:
        """Make a player's move, then (if asked) the safe moves to the foundations."""
        self.check_open()
        for pile in (move.source, move.target):  # a pile the game has not: malformed, as in the notation
            if pile is not None and self.state.plan.index(pile) is None:
                raise InvalidMoveError(
                    f"move {excerpt(move_to_dict(move), 80)}: there is no pile {pile} in this game now"
                )
        reason = self.state.why_illegal(move)
        if reason is not None:  # piles named by the codes the page labels them with
            raise IllegalMoveError(with_codes(self.state, reason))
        super().play(move, autoplay=autoplay)

    def autoplay(self, *, grouped: bool = True) -> None:
        """Send home every card that can safely go; refused in a game won or abandoned, as the rest are."""
        self.check_open()
        super().autoplay(grouped=grouped)

    def undo(self, times: int = 1) -> list[Entry]:
        """Take back the latest ``times`` moves, each with the autoplay moves it set off; what was taken back."""
        self.check_open()
        return super().undo(times)

    def redo_group(self) -> None:
        """Make again the moves the latest undo took back."""
        self.check_open()
        super().redo_group()

    def restart(self, *, autoplay: bool = False) -> None:
        """Back to the deal, with its autoplay if asked and the line began with it; every move made goes onto the redo line."""
        self.check_open()
        super().restart(autoplay=autoplay)

    def kept(self) -> tuple[object, ...]:
        """What a save keeps that an action may change: the moves, the redo line, the hints, the help, the status.

        An action that leaves it as it was is not saved: its version and time
        stay, so other tabs are not told the game changed when it did not.
        """
        record = self.record
        return self.board, len(self.redo), record.hints, record.assisted, self.status

    def save_to(self, now: float) -> PlayRecord:
        """The record with this play's moves, status and play time, ready to write."""
        record = self.record
        status = self.status
        # a game over and only looked at is not played meanwhile; one lost and then undone is: its player thought
        if "playing" in (record.status, status):
            record.seconds += play_time(now - record.updated)
        record.updated = now
        record.moves = [_entry(move, auto) for move, auto in zip(self.state.move_stack, self.auto)]
        record.redo = [_entry(move, auto) for move, auto in self.redo]
        if status != record.status:
            record.finished = now if status != "playing" else None
            record.status = status
        return record

    # -- helpers -------------------------------------------------------------

    def check_open(self) -> None:
        """Refuse a change to a game that is won, or left for a new one."""
        if self.status == "won":
            raise NothingToDoError("the game is won: start the next deal")
        self.check_not_left()

    def check_not_left(self) -> None:
        """Refuse anything asked of a game left for a new one (abandoned, or lost and left): a move, or a question for the solver."""
        if self.status == "abandoned":
            raise NothingToDoError("this game was abandoned for a new one")
        if self.left:
            raise NothingToDoError("this game was lost and left for a new one: it is over")


def _from_entry(entry: dict[str, Any]) -> Entry:
    """A stored move and whether autoplay made it."""
    return Entry(move_from_dict(entry), bool(entry.get("auto")))


def _entry(move: Move, auto: bool) -> dict[str, Any]:
    entry = move_to_dict(move)
    if auto:
        entry["auto"] = True
    return entry
