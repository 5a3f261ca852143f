"""A saved play brought to life: replayed from its record, changed by the player, written back.

A record is the deal plus the moves (as formats.md writes them), so loading
replays them through :meth:`State.push_checked`: what is stored is always a
legal game. Undo works in groups: a move and the autoplay moves it set off are
taken back and redone together.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from cardtable.core.cards import Card
from cardtable.core.deals import dealt_number
from cardtable.core.errors import IllegalMoveError, InvalidMoveError, NothingToDoError, excerpt
from cardtable.core.move import Move, PileId
from cardtable.core.notation import plural, with_codes
from cardtable.core.state import State
from cardtable.formats import deal_from_dict, deal_to_dict, move_from_dict, move_to_dict
from cardtable.solver.prune import safe_home_move
from cardtable.store.records import PlayRecord, PlayStatus, play_time

Entry = tuple[Move, bool]  # a move and whether autoplay made it


class Play:
    """A play in memory: the position, which moves were automatic, and the redo line."""

    def __init__(self, record: PlayRecord) -> None:
        self.record = record
        self.state = deal_from_dict(record.start)
        self.auto: list[bool] = []
        self.last: list[Move] = []  # the moves the latest action made, for the page to animate
        self.refills: list[tuple[PileId, Card]] = []  # what the stock put into piles they emptied, to tell
        for entry in record.moves:
            self._push(move_from_dict(entry), bool(entry.get("auto")))
        self.redo: list[Entry] = [(move_from_dict(e), bool(e.get("auto"))) for e in record.redo]
        self._begin()

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
        """A short name of the cards' places: the moves made from the deal, hashed.

        A page sends it back with a change, so that a change chosen on a table
        another tab has since changed is refused; unlike the record's version,
        it stays the same when only a hint is counted or a line is shown.
        """
        line = "\n".join(move.text() for move in self.state.move_stack)
        return hashlib.sha256(line.encode()).hexdigest()[:16]

    @property
    def moves(self) -> int:
        """How many moves were made, automatic ones included."""
        return len(self.auto)

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
        self._begin()
        self._push(move, False)
        if autoplay:
            self._autoplay()
        self._follow_redo_line()

    def autoplay(self) -> None:
        """Send home every card that can safely go (see :func:`safe_home_move`), as one group."""
        self.check_open()
        self._begin()
        self._autoplay(first_by_hand=True)
        self._follow_redo_line()

    def undo(self, times: int = 1) -> None:
        """Take back the latest ``times`` moves, each with the autoplay moves it set off."""
        self.check_open()
        if not self.auto:
            raise NothingToDoError("nothing to undo: this is the start of the deal")
        steps = self.undo_steps()
        if times > len(steps):
            raise NothingToDoError(f"cannot undo {times} times: only {plural(len(steps), 'undo')} left")
        group: list[Entry] = []
        for _ in range(sum(steps[:times])):
            auto = self.auto.pop()
            group.append((self.state.pop(), auto))
        group.reverse()
        self.redo[:0] = group
        self._begin()
        self.last = [move for move, _ in group]

    def undo_steps(self) -> list[int]:
        """How many moves each undo takes back, the latest first, back to the deal: a move and its autoplay."""
        steps: list[int] = []
        taken = 0
        for auto in reversed(self.auto):
            taken += 1
            if not auto:
                steps.append(taken)
                taken = 0
        if taken:
            steps.append(taken)  # autoplay before any move by hand
        return steps

    def redo_move(self) -> None:
        """Make again the moves the latest undo took back."""
        self.check_open()
        if not self.redo:
            raise NothingToDoError("nothing to redo")
        group = self.redo[: self._group_length(self.redo)]
        del self.redo[: len(group)]
        self._begin()
        for move, auto in group:
            self._push(move, auto)  # legal, as the line was when it was taken back; _push checks all the same

    def restart(self) -> None:
        """Back to the deal; every move made goes onto the redo line."""
        self.check_open()
        if not self.auto:
            raise NothingToDoError("already at the start of the deal")
        entries: list[Entry] = []
        while self.auto:
            entries.append((self.state.pop(), self.auto.pop()))
        entries.reverse()
        self.redo[:0] = entries
        self._begin()

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
        """Refuse a change to a game that is won or abandoned."""
        if self.status == "won":
            raise NothingToDoError("the game is won: start the next deal")
        self.check_not_abandoned()

    def check_not_abandoned(self) -> None:
        """Refuse anything asked of a game left for a new one: a move, or a question for the solver."""
        if self.status == "abandoned":
            raise NothingToDoError("this game was abandoned for a new one")

    def _begin(self) -> None:
        """A new action: what the last one made, and the refills it set off, are no longer news."""
        self.last, self.refills = [], []

    def _push(self, move: Move, auto: bool) -> None:
        self.state.push_checked(move)
        self.auto.append(auto)
        self.last.append(self.state.peek())
        if (card := self.state.refilled()) is not None and move.source is not None:
            self.refills.append((move.source, card))

    def _autoplay(self, *, first_by_hand: bool = False) -> None:
        auto = not first_by_hand
        while (move := safe_home_move(self.state)) is not None:
            self._push(move, auto)
            auto = True

    def _follow_redo_line(self) -> None:
        """After new moves (:attr:`last`): keep the redo line only if it began with exactly them, and without them.

        The redo line was made from the position before the new moves; after
        any others, its moves may no longer be legal.
        """
        made = self.last
        if len(made) <= len(self.redo) and all(map(_same, made, (move for move, _ in self.redo))):
            del self.redo[: len(made)]
        else:
            self.redo.clear()

    @staticmethod
    def _group_length(line: list[Entry]) -> int:
        """How many entries the first undo group of a forward line holds."""
        length = 1
        while length < len(line) and line[length][1]:
            length += 1
        return length


def _same(a: Move, b: Move) -> bool:
    """Whether two moves are the same play (a redeal is the same whatever fans it carries)."""
    return a.kind == b.kind and a.source == b.source and a.target == b.target and a.card == b.card


def _entry(move: Move, auto: bool) -> dict[str, Any]:
    entry = move_to_dict(move)
    if auto:
        entry["auto"] = True
    return entry
