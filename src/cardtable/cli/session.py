"""A game of ``cardtable play`` in the terminal: the position, undo and redo, and the reply to each typed line.

:class:`Session` holds no input or output of its own (:mod:`cardtable.cli.play`
reads the lines and prints the replies), so tests drive a session with strings
and the command works the same on a terminal or a pipe.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shlex
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

from cardtable.cli.files import read_text, replaced
from cardtable.cli.info import position_label
from cardtable.cli.solve import (
    HINT_SECONDS,
    INTERRUPTED,
    hint_text,
    judged,
    unless_stopped,
    was_interrupted,
    way_back_text,
)
from cardtable.cli.stats import (
    TERMINAL_PLAYER,
    Scorebook,
    stats_table,
)
from cardtable.core.cards import card_symbol
from cardtable.core.deals import dealt_number
from cardtable.core.errors import (
    CardtableError,
    IllegalMoveError,
    InvalidSaveError,
    NothingToDoError,
    quoted,
)
from cardtable.core.move import CARD, DEAL, REDEAL, Move
from cardtable.core.notation import in_codes, move_text, parse_move, pile_code, plural
from cardtable.core.state import State
from cardtable.formats import (
    SavedGame,
    deal_from_dict,
    deal_to_dict,
    move_to_dict,
    parse_json,
    record_kind,
    saved_game_from_dict,
)
from cardtable.interrupts import signal_handlers
from cardtable.playing import Entry, GameInPlay
from cardtable.render.text import HEADINGS, glued
from cardtable.solver import Limit, SolveResult
from cardtable.solver.known import Known
from cardtable.solver.prune import pruner
from cardtable.solver.rewind import WayBack, single_steps, way_back
from cardtable.store.records import PlayRecord, PlayStatus, play_time


class SaveFailedError(CardtableError, OSError):
    """``save`` could not write its file; the game goes on, and any earlier save is intact."""


class CommandError(CardtableError, ValueError):
    """A command typed with words it does not take, like ``undo x``."""


@dataclass(frozen=True)
class Reply:
    """What a typed line did: a message, whether the layout changed, whether to stop."""

    message: str = ""
    redraw: bool = False
    quit: bool = False
    table: bool = False
    """Whether the message is a table, printed as it is: wrapping its lines between words would jumble it."""


class Session:
    """A game in play in the terminal: a :class:`GameInPlay`, with the replies to each typed line.

    Undo, redo and the redo line are the browser's (see :mod:`cardtable.playing`).
    The terminal makes no automatic moves, so each undo takes back one move.
    """

    def __init__(self, state: State, clock: Callable[[], float] = time.time) -> None:
        self.game = _ToldGame(state)
        self.clock = clock
        self.created = self._last_line = clock()
        self.seconds = 0.0
        """Play time: the time between typed lines, at most IDLE_CAP each, as the browser counts it."""
        self.hints = 0
        self._hinted: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        """The game's line (:meth:`_line`) when a hint was last counted: asked again there, it is the same hint."""
        self.play_id = secrets.token_urlsafe(9)
        """The game's id in the statistics, kept in its saves: a save resumed and ended again is the same game."""
        self.known = Known()
        """What hints found, so that a hint followed leads on along the same line."""
        self.assisted = False
        """Whether the solver's line was followed: the game was opened from a solution."""
        self.scorebook: Scorebook | None = None
        self.counts = True
        """Whether the game goes into the statistics as it ends (not with ``--no-stats``, which still shows them)."""
        self.no_stats_reason: str | None = "statistics are off in this game"
        """Why ``stats`` has none to show without a :attr:`scorebook`; None: none are kept yet."""
        self.resumed_from: str | None = None
        self.stale_redo: str | None = None
        """Why moves to redo in the file it was resumed from were left out: they no longer fit its position."""
        self.opened_from: str | None = None
        """The file the game was opened from, if any: the way to play again a position with no deal number."""
        self.save_path: str | None = None
        """Where ``save`` alone writes: the save the game was resumed from, or the file it was last saved to."""
        self._kept = self._opened = self._line()
        """The moves and undone moves as last saved (kept) or as opened: ``quit`` asks before losing others."""
        self._asked: str | None = None
        """What the latest line asked to be typed again at once to go ahead: :data:`QUIT`, or
        ``save`` and the file it would replace; any other line drops the question."""

    @classmethod
    def resume(cls, saved: SavedGame, path: str, *, save_there: bool = True) -> Session:
        """The game a file holds, as it was: its moves can be undone and its undone moves redone.

        ``save_there=False`` for a file that is not a save (a solution), which ``save`` must not overwrite.
        """
        session = cls(saved.replayed())
        redo, stale = saved.redo_line(session.state)
        if stale is not None and not save_there:  # a solution's line: not to be cut short unsaid
            raise InvalidSaveError(stale)
        session.game.redo = [Entry(move, auto=False) for move in redo]
        session.play_id = saved.play or session.play_id
        if stale is not None:
            after = len(saved.undone) - len(redo) - 1
            left_out = f"it and the {plural(after, 'move')} after it are" if after else "it is"
            session.stale_redo = f"{stale[:1].upper()}{stale[1:]}; {left_out} left out."
        session.resumed_from = path
        session.save_path = path if save_there else None
        session.assisted = not save_there
        session._kept = session._opened = session._line()
        return session

    @property
    def state(self) -> State:
        """The position now."""
        return self.game.state

    @property
    def moves(self) -> int:
        """How many moves have been played (deals and redeals count)."""
        return self.game.moves

    @property
    def undone(self) -> list[Move]:
        """The moves taken back, which ``redo`` plays again, the next one first."""
        return [move for move, _ in self.game.redo]

    def _line(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """What a save holds beyond the deal: the moves played, and the moves taken back, the first taken back first.

        Moves by their text, which leaves out the fans a redeal deals: a file may
        leave them out too, and the same redeal deals the same fans.
        """
        return tuple(m.text() for m in self.state.move_stack), tuple(m.text() for m in self.undone[::-1])

    @property
    def unsaved(self) -> bool:
        """Whether quitting now would lose moves: played or taken back since the last save (or the start)."""
        return not self.state.is_won() and self._line() != self._kept

    # -- the replies to a typed line ------------------------------------------

    def handle(self, line: str) -> Reply:
        """Answer one typed line: a command, a move, or Enter; errors become a message."""
        words = line.strip().lower()
        now = self.clock()
        self.seconds, self._last_line = self._played_until(now), now
        asked, self._asked = self._asked, None
        try:
            if words in QUIT_WORDS:
                return self.quit(confirmed=asked == QUIT)
            if not words:
                return self._enter()
            command = COMMANDS.get(words)
            if command is not None:
                return command(self)
            first = line.strip().partition(" ")[0]
            if first.lower() == "save":
                return Reply(self.save(_path_typed(line.strip()), asked=asked))
            if first.lower() in ("undo", "u"):
                return Reply(self.undo(_undo_count(line)), redraw=True)
            if (
                run_together := re.fullmatch(r"(?:undo|u)([0-9]+)", words)
            ) is not None:  # no pile is called u
                raise CommandError(
                    f"not a move: {quoted(line.strip(), 24)}; to undo, type 'undo {run_together[1]}'"
                )
            if first.lower() in COMMANDS or first.lower() in QUIT_WORDS:  # no move starts so
                raise CommandError(
                    f"{first.lower()!r} takes nothing after it: not {quoted(line.strip(), 24)}"
                )
            return Reply(self.play(line), redraw=True)
        except IllegalMoveError as error:  # the rules name piles as formats.md does, the player by code
            return Reply(str(in_codes(self.state, error)))
        except CardtableError as error:
            return Reply(str(error))

    def _enter(self) -> Reply:
        """Enter alone deals from the stock, the commonest move of stock games.

        Not while moves wait to be redone that a deal would drop: a slip of the
        key must not cost the redo line, which undo cannot bring back.
        """
        if self.state.can_deal() and self.game.redo and self.game.redo[0].move.kind != DEAL:
            waiting = plural(len(self.game.redo), "move")
            return Reply(f"Enter alone would deal and drop the {waiting} to redo: type d to deal, or redo")
        if self.state.can_deal():
            return Reply(self._make(Move.deal()), redraw=True)
        if self.state.plan.stock is not None:
            return Reply("the stock is empty: Enter alone deals only while it has cards")
        return Reply()

    # -- moving ---------------------------------------------------------------

    def play(self, text: str) -> str:
        """Play a move in the short notation and say what it did; CardtableError if illegal.

        The redo line is kept if the move is the one ``redo`` would have played.
        """
        return self._make(parse_move(self.state, text))

    def _make(self, move: Move) -> str:
        """Play a legal new move and describe it; the redo line is kept if it began with the move."""
        self.game.play(move)
        return "; ".join(self.game.told)

    def auto(self) -> str:
        """Send home every card that can safely go, one move each (see :func:`~cardtable.solver.prune.safe_home_move`)."""
        self.game.autoplay(grouped=False)  # the terminal's undo takes back one move at a time
        sent = self.game.told
        if not sent:
            if not pruner(self.state.spec).in_suit:
                raise NothingToDoError(
                    f"auto never moves a card in {self.state.spec.id}: no move home is provably safe there"
                )
            raise NothingToDoError("no card can safely go home now")
        return f"sent home in {plural(len(sent), 'move')} (undo takes back one at a time): " + "; ".join(sent)

    def undo(self, times: int = 1) -> str:
        """Take back the last ``times`` moves; they can be redone until another move is played."""
        stock = self.state.plan.stock
        before = len(self.state.piles[stock]) if stock is not None else 0
        taken = self.game.undo(times)
        if len(taken) > 1:
            now = f"now at move {self.moves}" if self.moves else "back at the start"
            return f"took back {len(taken)} moves: {now} (redo plays them again one by one)"
        ((move, _),) = taken
        what = f"took back {describe(self.state, move)}"
        if move.kind == CARD and stock is not None and len(self.state.piles[stock]) > before:
            what += f"; {card_symbol(self.state.piles[stock][-1])} goes back to the stock"  # the refill it set off
        return what

    def redo(self) -> str:
        """Play again the last move taken back."""
        self.game.redo_group()
        return "again: " + "; ".join(self.game.told)

    def restart(self) -> str:
        """Take back every move; ``redo`` can step through them again."""
        self.game.restart()
        return "back at the start of the deal (redo replays your moves one by one)"

    def save(self, path: str | None = None, *, asked: str | None = None) -> str:
        """Write the game to ``path`` (by default the save it came from, or one named after the deal).

        A file named after the deal is never written over unasked: it may be
        anything. Nor is another file that holds something else than this
        game's save or a save of its deal (a deal file, a solution, another
        deal's save): the first ``save`` of it asks, and the same save again
        at once (``asked``, the question of the line before) replaces it.
        The file holds the deal and the moves, so undo still goes back past the
        save. It is written whole beside its target and then put in its place,
        so a save that fails (a full disk, a bad path) leaves the old file as it was.
        """
        target = os.path.expanduser(path) if path else self.save_path
        if target is not None and os.path.isdir(target):
            raise SaveFailedError(
                f"cannot save to {target!r}: it is a folder; name a file in it, such as"
                f" {os.path.join(target, self._default_save_path())}"
            )
        if target is None:
            target = self._default_save_path()
            if os.path.exists(target):
                raise SaveFailedError(
                    f"{target!r} already exists: to replace it, name it (save {target}), or save elsewhere"
                )
        elif path is not None and (held := self._held_elsewhere(target)) is not None:
            question = f"save {os.path.realpath(target)}"
            if asked != question:
                self._asked = question
                raise SaveFailedError(
                    f"{target!r} {held}: type save {shlex.quote(path)} again at once to replace it,"
                    " or save elsewhere"
                )
        saved = SavedGame(self.state.root(), list(self.state.move_stack), self.undone, self.play_id)
        _write_whole(target, json.dumps(saved.to_dict()) + "\n")
        self.save_path = target
        self._kept = self._line()
        return (
            f"saved after {plural(self.moves, 'move')} to {target}; resume with: {play_file_command(target)}"
        )

    def _held_elsewhere(self, target: str) -> str | None:
        """What the file ``target`` holds, in words, if it is another file than this game's own save: None
        for no ordinary file (none at all, a pipe, a device), the save this game keeps, or a save of its deal.

        A save of the same deal is taken for an earlier save of this game. What
        cannot be read as one of cardtable's files is something else all the same.
        """
        if not os.path.isfile(target):
            return None
        if self.save_path is not None and os.path.realpath(target) == os.path.realpath(self.save_path):
            return None
        try:
            obj = parse_json(read_text(target), "", InvalidSaveError)
            kind = record_kind(obj)
            if kind == "deal":
                return f"holds a deal, {position_label(deal_from_dict(obj))}"
            if kind is not None:  # a saved game, or a solution
                held = saved_game_from_dict(obj).deal
                return (
                    None
                    if kind == "saved game" and held == self.state.root()
                    else f"holds a {kind} of {position_label(held)}"
                )
        except CardtableError:
            pass
        return "already exists and holds no saved game"

    def _default_save_path(self) -> str:
        name = re.sub(r"[^a-z0-9]+", "-", self.state.spec.id.lower()).strip("-")
        number = self.state.deal_number
        return f"{name}-{number if number is not None else 'position'}.json"

    def quit(self, *, confirmed: bool = False) -> Reply:
        """End the session; with unsaved moves, only when asked twice in a row (the first time says so)."""
        if self.unsaved and not confirmed:
            self._asked = QUIT
            status = self.counts_as()
            counted = f" (it then counts as {status} in your statistics)" if status is not None else ""
            return Reply(
                f"{self.unsaved_note()} Type save [FILE] to keep the game,"
                f" or quit again to leave without saving{counted}."
            )
        again = self.replay_command()
        words = ["Bye."]
        if self.save_path is not None:  # resumed from a save, or saved: the way back to where it was
            words.append(f"Go on from the save with: {play_file_command(self.save_path)};")
        if again:
            words.append(f"{'play' if len(words) > 1 else 'Play'} this deal again with: {again}")
        return Reply(" ".join(words), quit=True)

    def unsaved_note(self) -> str:
        """What quitting now would lose, in a sentence: the moves played and taken back since the last save.

        Counted from the save (or from the start, or the file the game was
        opened from): the moves it holds are not lost, however many they are.
        """
        kept_moves, kept_undone = self._kept
        moves, undone = self._line()
        played = len(moves) - _common_start(moves, kept_moves)
        taken_back = len(undone) - _common_start(undone, kept_undone)
        what = [plural(played, "move")] if played else []
        what += [f"{plural(taken_back, 'move')} taken back"] if taken_back else []
        return f"Not saved: {' and '.join(what) or 'the moves since the last save'}."

    # -- statistics -----------------------------------------------------------

    def outcome(self) -> PlayStatus | None:
        """How the game counts in the statistics as the session ends; None when it does not count now.

        A session that played and took back nothing adds nothing: a saved game
        that is resumed and left again was counted, if at all, when it was
        played. Won and lost count as they stand; a game left with moves
        played or taken back counts as abandoned (kept with its redo line, as
        the browser keeps one), unless it was saved, since a save is resumed
        and counts when it ends.
        """
        if self._line() == self._opened:
            return None
        if self.state.is_won():
            return "won"
        if self.state.is_lost():
            return "lost"
        return None if self.save_path is not None else "abandoned"

    def counts_as(self) -> PlayStatus | None:
        """How :meth:`keep` would count the game now: its :meth:`outcome` where statistics are kept, else None."""
        return self.outcome() if self.scorebook is not None and self.counts else None

    def keep(self) -> PlayStatus | None:
        """Add the game to the statistics if it counts now (see :meth:`outcome`); its status, or None."""
        status = self.counts_as()
        if status is None or self.scorebook is None:
            return None
        now = self.clock()
        self.scorebook.keep(
            PlayRecord(
                id=self.play_id,
                player=TERMINAL_PLAYER,
                game=self.state.spec.id,
                deal=dealt_number(self.state.root()),
                start=deal_to_dict(self.state.root()),
                moves=[move_to_dict(move) for move in self.state.move_stack],
                redo=[move_to_dict(move) for move in self.undone],
                status=status,
                seconds=self._played_until(now),
                assisted=self.assisted,
                hints=self.hints,
                created=self.created,
                updated=now,
                finished=now,
            )
        )
        return status

    def _played_until(self, now: float) -> float:
        """The play time at ``now``: the time since the last line counts, up to IDLE_CAP."""
        return self.seconds + play_time(now - self._last_line)

    def stats(self) -> str:
        """The terminal's statistics per game (this game counts once it ends)."""
        if self.scorebook is not None:
            return stats_table(self.scorebook.stats())
        if self.no_stats_reason is None:
            return stats_table([])
        raise NothingToDoError(self.no_stats_reason)

    # -- telling the player ---------------------------------------------------

    def status(self) -> str | None:
        """A won or lost game, or a redeal that is now the way on; None otherwise."""
        state = self.state
        if state.is_won():
            return f"You won {position_label(self.state)} in {plural(self.moves, 'move')}!"
        if state.is_lost():
            why = state.spec.stuck_why if state.legal_moves else "no move is left"
            lost = f"{why[:1].upper()}{why[1:]}: {position_label(state)} is lost after {plural(self.moves, 'move')}."
            if not self.moves:
                return f"{lost} Quit to leave it."
            return f"{lost} Undo, restart or quit; 'hint' looks for how far back it could still be won."
        if state.can_redeal() and not state.can_deal() and next(state.card_moves(), None) is None:
            left = state.redeals_left
            return f"No card can move: type redeal to gather and deal the fans again ({left} left)."
        return None

    def greeting(self) -> str:
        """The first line: the game, where it was resumed from, and how to play it again."""
        line = position_label(self.state)
        opened = self.resumed_from
        if opened is not None and self.assisted and not self.moves:  # a solution, its line ready for redo
            line += f" with the {plural(len(self.game.redo), 'move')} of {opened} to step through with redo"
        elif opened is not None:
            line += f", resumed from {opened} after {plural(self.moves, 'move')}"
        again = self.replay_command()
        line += (f": play it again with {again}" if again else "") + ". Type help for the moves."
        return line if self.stale_redo is None else f"{line} {self.stale_redo}"

    def replay_command(self) -> str | None:
        """The command that plays this deal again: by its number, else from its file; None for neither."""
        number = dealt_number(self.state.root())
        if number is not None:
            return f"cardtable play {shlex.quote(self.state.spec.id)} {number}"
        if self.opened_from is not None:
            return play_file_command(self.opened_from)
        return None

    def help(self) -> str:
        """The notation and commands, with this game's pile codes."""
        state = self.state
        lines = [
            "Moves (the last card of a line is the one that plays):",
            "  t3 f1    the top card of t3 onto f1 (t3f1 works too); t3 f onto a foundation that takes it",
            "  t3       the top card of t3 onto a foundation, or onto the one pile that takes it",
            "  7c       that card, if it is on top, the same way (ranks A 2-10 J Q K or T, suits c d h s)",
            "  7c t3    that card onto t3; 7c f onto a foundation that takes it",
            "  t3 f1 7c as t3 f1, if 7c is the card on top of t3 (a line 'cardtable solve' prints)",
        ]
        if state.plan.stock is not None:
            lines.append("  d        deal a card from the stock onto the waste (Enter alone does too)")
        if state.spec.redeals:
            lines.append(
                f"  redeal   gather the fans, shuffle and deal them again (rd for short; {plural(state.spec.redeals, 'redeal')}"
                f" a game, {'at any time' if state.spec.redeal_anytime else 'only when no other move is possible'})"
            )
        lines.append(f"Piles: {pile_ranges(state)}")
        lines.append(
            "Commands: undo [N] (u), redo, restart, hint, auto, moves (m), save [FILE], stats, help (h, ?), quit (q, exit)"
        )
        return "\n".join(lines)

    def hint(self) -> str:
        """A move on a winning line from the solver, or why there is none.

        On a terminal the search shows a live line, and Ctrl-C stops the search,
        not the game: ending the session would lose whatever was not saved. In
        a position that can no longer be won, the hint also says how many moves
        back it still could, with a budget of its own for that walk.
        """
        if (line := self._line()) != self._hinted:  # as the browser counts them: one a table
            self.hints += 1
            self._hinted = line
        with _second_interrupt_ends_session():
            result = unless_stopped(
                lambda: self._judged(self.state, HINT_SECONDS), SolveResult("unknown", reason=INTERRUPTED)
            )
            text = hint_text(self.state, result, name=_hinted)
            if result.status == "unwinnable":
                stopped = way_back_text(WayBack("unknown", reason=INTERRUPTED), 0, HINT_SECONDS)
                text += unless_stopped(self._looked_back, stopped)
        return text

    def _looked_back(self) -> str:
        """In a position that can no longer be won: how many moves back it still could, if any were played."""
        played = self.moves
        if not played:
            return ""
        return way_back_text(
            way_back(self.state, single_steps(self.state), self._judged, HINT_SECONDS, stops=was_interrupted),
            played,
            HINT_SECONDS,
        )

    def _judged(self, state: State, seconds: float, back: int = 0) -> SolveResult:
        """What is known of ``state``, or what ``seconds`` of search find (none: ``unknown``); remembered.

        ``back``: how many moves back ``state`` stands, when the hint looks back.
        """
        result = self.known.recall(state)  # following a hint goes on along its line
        if result is None:
            result = judged(state, Limit(seconds=seconds), back)
            self.known.remember(state, result.status, result.moves)
        return result

    def legal(self) -> str:
        """Every legal move in the short notation: a hint, and a way to learn it."""
        texts = [glued(move_text(self.state, move)) for move in self.state.legal_moves]
        return "Legal moves: " + (", ".join(texts) if texts else "none")


class _ToldGame(GameInPlay):
    """A game in play that words each move as it makes it (:attr:`told`), for the terminal's replies."""

    def __init__(self, state: State) -> None:
        self.told: list[str] = []
        """What the latest action made, a move a phrase: ``t1 f4: Q♥; the stock refills t1 with 6♥``."""
        super().__init__(state)

    @contextlib.contextmanager
    def action(self) -> Iterator[None]:
        """:meth:`GameInPlay.action`, whose moves are told afresh."""
        self.told = []
        with super().action():
            yield

    def push(self, move: Move, *, auto: bool = False) -> None:
        """:meth:`GameInPlay.push`, and the move in words, read from the position before it and after."""
        what = describe(self.state, move)
        super().push(move, auto=auto)
        state = self.state
        if move.kind == REDEAL:
            fans = len(state.group(state.spec.groups[-1].name))
            what += f": the fans are dealt again into {plural(fans, 'fan')} ({plural(state.redeals_left, 'redeal')} left)"
        elif (refill := state.refilled()) is not None:
            assert move.source is not None
            what += f"; the stock refills {pile_code(state, move.source)} with {card_symbol(refill)}"
        self.told.append(what)


def _common_start(line: tuple[str, ...], other: tuple[str, ...]) -> int:
    """How many moves ``line`` and ``other`` share from their starts."""
    shared = 0
    for mine, theirs in zip(line, other):
        if mine != theirs:
            break
        shared += 1
    return shared


def _hinted(state: State, move: Move) -> str:
    """A move as typed, and the card it moves if it is face up: ``t3 f1 (7♣)``, ``d``; one word to :func:`wrap`."""
    return glued(move_text(state, move) + (f" ({card_symbol(move.card)})" if move.card is not None else ""))


def describe(state: State, move: Move) -> str:
    """A move as typed and the card it moves, read from the position before it: ``t3 f1: 7♣``."""
    if move.kind == CARD:
        assert move.card is not None
        return f"{move_text(state, move)}: {card_symbol(move.card)}"
    if move.kind == DEAL:
        stock = state.plan.stock
        assert stock is not None
        return f"d: {card_symbol(state.piles[stock][-1])} onto the waste"
    return "redeal"


def pile_ranges(state: State) -> str:
    """``f0-f3 foundations, t0-t11 fans``: the codes of each group's first and last pile."""
    parts = []
    for group in state.spec.groups:
        ids = [pid for pid in state.plan.ids if pid.group == group.name]
        if not ids:
            continue
        first, last = pile_code(state, ids[0]), pile_code(state, ids[-1])
        name = HEADINGS.get(group.name, group.name).lower()
        parts.append(f"{first}-{last} {name}" if first != last else f"{first} {name}")
    return ", ".join(parts)


def _path_typed(line: str) -> str | None:
    """The file named after ``save`` in ``line``, quoted as a shell would quote it if it is (``"my game.json"``), or None.

    CommandError for a quote left open or a name of nothing (``save ""``): taken
    as they stand, they would save to a file named with the quote, or to the
    last save's.
    """
    try:
        words = shlex.split(line.partition(" ")[2])
    except ValueError:
        raise CommandError(
            f"the quote in {quoted(line)} is not closed: quote a name with spaces whole,"
            ' as in save "my game.json"'
        ) from None
    if any(not word.strip() for word in words):
        raise CommandError(f"{quoted(line)} names no file: give a name, or type save alone")
    return " ".join(words) or None


def _undo_count(line: str) -> int:
    """How many moves ``undo N`` takes back; CommandError if N is not a count."""
    count = re.fullmatch(r"\S+\s+([0-9]{1,9})", line.strip())
    if count is None or int(count[1]) == 0:
        raise CommandError(
            f"'undo' takes a count of moves from 1 up, like 'undo 3': not {quoted(line.strip(), 24)}"
        )
    return int(count[1])


def _write_whole(path: str, text: str) -> None:
    """Write ``text`` in ``path``'s place, whole or not at all; SaveFailedError if it cannot."""
    with replaced(path, lambda at, why: SaveFailedError(f"cannot save to {at!r}: {why}")) as file:
        file.write(text)


COMMANDS: Final[dict[str, Callable[[Session], Reply]]] = {
    "undo": lambda s: Reply(s.undo(), redraw=True),
    "u": lambda s: Reply(s.undo(), redraw=True),
    "redo": lambda s: Reply(s.redo(), redraw=True),
    "restart": lambda s: Reply(s.restart(), redraw=True),
    "help": lambda s: Reply(s.help()),
    "h": lambda s: Reply(s.help()),
    "?": lambda s: Reply(s.help()),
    "hint": lambda s: Reply(s.hint()),
    "auto": lambda s: Reply(s.auto(), redraw=True),
    "stats": lambda s: Reply(s.stats(), table=True),
    "moves": lambda s: Reply(s.legal()),
    "m": lambda s: Reply(s.legal()),
}
"""The words that are commands, not moves; none of them is a pile code or a card."""
QUIT_WORDS: Final = frozenset({"quit", "q", "exit"})
"""Also commands, handled by :meth:`Session.quit`, which must know whether the line before asked it."""
QUIT: Final = "quit"
"""The question ``quit`` asks with moves not saved (see :attr:`Session._asked`): quitting again at once leaves."""


def play_file_command(path: str) -> str:
    """The command that plays the file ``path``, which a name beginning with '-' must not let it take for an option or for standard input."""
    return f"cardtable play {shlex.quote('./' + path if path.startswith('-') else path)}"


@contextlib.contextmanager
def _second_interrupt_ends_session() -> Iterator[None]:
    """The first Ctrl-C stops the search (see :func:`watched_solve`); a second, while it stops, ends the session.

    The second is held until the search has stopped and its live line is
    cleared, then raised, so it ends the session as Ctrl-C at the prompt does
    (see :func:`run_session`) and cannot break into the search's own cleanup.
    Where Ctrl-C is not Python's usual KeyboardInterrupt (ignored, as in a
    background job), it is left as it is.
    """
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    presses = 0

    def pressed(number: int, frame: object) -> None:
        nonlocal presses
        presses += 1
        if presses == 1:
            raise KeyboardInterrupt

    with signal_handlers({signal.SIGINT: pressed}):
        yield
    if presses > 1:
        raise KeyboardInterrupt
