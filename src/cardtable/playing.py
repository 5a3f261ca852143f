"""A game in play: the moves made, which of them autoplay made, and the moves taken back to redo.

The terminal (:class:`cardtable.cli.session.Session`) and the browser
(:class:`cardtable.server.play.Play`) both play on one, so that undo, redo and
a move made after an undo behave alike in both:

* undo takes back a group: a move and the automatic moves it set off (the
  browser's autoplay). The terminal makes no automatic moves, so each of its
  moves is a group of its own;
* autoplay before any move by hand is the deal's own (the browser's, as a deal
  is opened): its moves are all automatic, and one undo takes them back;
* redo makes the first group of the redo line again;
* new moves keep the redo line only if it began with exactly them (the player
  made the move redo would have made), and then without them. Any other move
  clears it: the line was taken back from the position before, and its moves
  may no longer be legal.

Undo is :meth:`State.pop`, which restores snapshots, so the stock's refills and
the redeals are taken back exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

from cardtable.core.cards import Card
from cardtable.core.errors import NothingToDoError
from cardtable.core.move import Move, PileId
from cardtable.core.notation import plural
from cardtable.core.state import State
from cardtable.solver.prune import safe_home_move


class Entry(NamedTuple):
    """A move and whether autoplay made it."""

    move: Move
    auto: bool


class GameInPlay:
    """A position, with its moves in undo groups and the line of moves taken back, the next to redo first."""

    def __init__(self, state: State, *, made: Iterable[Entry] = (), redo: Iterable[Entry] = ()) -> None:
        """``state`` (the moves on its stack count as made by hand), then ``made`` played on it, each checked."""
        self.state = state
        self.auto = [False] * state.ply()
        self.last: list[Move] = []
        """The moves the latest action made or took back: what a page animates."""
        self.refills: list[tuple[PileId, Card]] = []
        """What the stock put, on its own, into the piles the latest action emptied: the rules' step a player does not see."""
        for move, auto in made:
            self.push(move, auto=auto)
        self.last, self.refills = [], []  # a game replayed is not news
        self.redo: list[Entry] = list(redo)

    @property
    def moves(self) -> int:
        """How many moves were made, automatic ones, deals and redeals included."""
        return len(self.auto)

    @property
    def by_hand(self) -> bool:
        """Whether a move on the table was made by hand: before one, every move is the deal's autoplay."""
        return not all(self.auto)

    @property
    def touched(self) -> bool:
        """Whether a move was made by hand, on the table or taken back onto the redo line: a game played, if only a little.

        The store's :func:`cardtable.store.records.touched` reads the same from a stored play.
        """
        return self.by_hand or not all(entry.auto for entry in self.redo)

    @contextmanager
    def action(self) -> Iterator[None]:
        """New moves, :meth:`push`\\ ed within: they become :attr:`last`, and the redo line follows them.

        The redo line is kept only if it began with exactly the moves made, and
        then without them; otherwise it is cleared.
        """
        self.last, self.refills = [], []
        try:
            yield
        finally:  # moves made before an error, or an interrupt, are made all the same
            self._follow_redo_line(self.last)

    def _follow_redo_line(self, made: list[Move]) -> None:
        if not made:
            return
        # the same plays: a redeal is the same move with the fans it carries or without
        if len(made) <= len(self.redo) and all(a == b for a, (b, _) in zip(made, self.redo)):
            del self.redo[: len(made)]
        else:
            self.redo.clear()

    def push(self, move: Move, *, auto: bool = False) -> None:
        """Make one move of an action; :class:`IllegalMoveError` if the rules forbid it."""
        self.state.push_checked(move)
        self.auto.append(auto)
        self.last.append(self.state.peek())
        if (card := self.state.refilled()) is not None and move.source is not None:
            self.refills.append((move.source, card))

    def play(self, move: Move, *, autoplay: bool = False) -> None:
        """Make a player's move, then (if asked) the safe moves home it allows, in its undo group."""
        with self.action():
            self.push(move)
            if autoplay:
                self._send_home(first=True, rest=True)

    def autoplay(self, *, grouped: bool = True) -> None:
        """Send home every card that can safely go (see :func:`safe_home_move`): one undo group, or each its own.

        Grouped and before any move by hand, it is the deal's autoplay: all its
        moves are automatic, so that a deal merely opened is not one played,
        and a restart makes it again. A game touched by hand stays touched:
        should the autoplay clear a redo line that held the only moves made by
        hand, its first move is the player's.
        """
        at_deal, touched, start = not self.by_hand, self.touched, len(self.auto)
        with self.action():
            self._send_home(first=True, rest=grouped)
        if len(self.auto) > start:
            self.auto[start] = grouped and at_deal and (self.touched or not touched)

    def _send_home(self, *, first: bool, rest: bool) -> None:
        """Push the safe moves home: the first automatic if ``first``, the others if ``rest``."""
        auto = first
        while (move := safe_home_move(self.state)) is not None:
            self.push(move, auto=auto)
            auto = rest

    def undo(self, times: int = 1) -> list[Entry]:
        """Take back the latest ``times`` groups onto the redo line; what was taken back, in the order it was made."""
        if times < 1:
            raise NothingToDoError(f"cannot undo {times} times: give 1 or more")
        if not self.auto:
            raise NothingToDoError("nothing to undo: this is the start of the deal")
        steps = self.undo_steps()
        if times > len(steps):
            raise NothingToDoError(f"cannot undo {times} times: only {plural(len(steps), 'undo')} left")
        group = [self._take_back() for _ in range(sum(steps[:times]))][::-1]
        self.redo[:0] = group
        self.last, self.refills = [move for move, _ in group], []
        return group

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

    def next_redo(self) -> list[Entry]:
        """The group the next redo makes: the redo line's first move and the automatic ones after it."""
        if not self.redo:
            raise NothingToDoError("nothing to redo")
        length = 1
        while length < len(self.redo) and self.redo[length].auto:
            length += 1
        return self.redo[:length]

    def redo_group(self) -> None:
        """Make again the moves the latest undo took back (:meth:`next_redo`), as an undo group of their own.

        The first is made as by hand even when autoplay made it (a move made
        again by hand may have left its autoplay at the head of the line),
        unless no move by hand is on the table: then it is the deal's autoplay again.
        """
        group = self.next_redo()
        at_deal = not self.by_hand
        with self.action():  # the redo line begins with these moves: the action takes them off it
            for number, (move, auto) in enumerate(group):
                self.push(move, auto=auto and (number > 0 or at_deal))

    def restart(self, *, autoplay: bool = False) -> None:
        """Back to the deal; every move made goes onto the redo line.

        With ``autoplay``, the deal's autoplay is made again if the line began
        with it: a line that did not (the player took it back, or had autoplay
        off) is kept whole to redo, not cleared by moves it never made.
        """
        if not self.auto or (autoplay and not self.by_hand):  # at the deal, or at its autoplay's end
            raise NothingToDoError("already at the start of the deal")
        entries = [self._take_back() for _ in range(len(self.auto))][::-1]
        self.redo[:0] = entries
        self.last, self.refills = [], []
        if autoplay and self.redo[0].auto:
            self.redo_group()

    def _take_back(self) -> Entry:
        auto = self.auto.pop()
        return Entry(self.state.pop(), auto)
