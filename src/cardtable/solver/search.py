"""Depth-first search with a transposition table, safe moves and dead-end proofs.

The search is exact: ``won`` comes with a line that replays, ``unwinnable`` means
every position reachable from the start was visited (up to the provably safe
reductions of :mod:`cardtable.solver.prune`), and a search stopped by a budget
says ``unknown``. The solver knows every card, including the stock's order and
the shuffles of later redeals, which the deal fixes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Final, Literal, get_args

from cardtable.core.errors import CardtableError, not_a
from cardtable.core.move import Move
from cardtable.core.notation import plural
from cardtable.core.plan import Plan
from cardtable.core.spec import Kind
from cardtable.core.state import State
from cardtable.solver import updown
from cardtable.solver.prune import Pruner

Status = Literal["won", "unwinnable", "unknown"]
STATUSES: Final[tuple[Status, ...]] = get_args(Status)
"""The verdicts, in the order reports give them."""

DEAL_CODE: Final = -1
REDEAL_CODE: Final = -2
"""The search's codes for a deal and a redeal among its card moves, which are ``source << 8 | target``."""
DEFAULT_TABLE_CAP: Final = 6_000_000
"""Positions remembered at most: about 1.1 GB, well under 2 GiB (measured: ~125 bytes a
position in Alexander the Great, ~180 in Acey and Kingsley's search, where a beam's way back
to the root takes 8 bytes a position and counts as a sixteenth, and its sweep's sets are
weighed by their bytes). Past it the verdict is ``unknown``; Acey and Kingsley's search first
forgets the positions it proved lost and drops its sweep, and stops only if the table is
still full. Raised from 4 million so that deal 48's sweep fits (it weighs 4.15 million)."""
CHECK_EVERY: Final = 64
"""Positions a search visits at most between two looks at its budget (:meth:`_Budget.check`).

About 10 ms where positions cost most (the La Belle Lucie form: some 6,000 a
second), so a time budget is kept that closely; a look costs about a microsecond."""
PROGRESS_EVERY: Final = 0.25
"""Seconds at least between two reports of :class:`Progress`: often enough for a live line, too seldom to cost anything."""


@dataclass(frozen=True, kw_only=True)
class Limit:
    """Budgets for one search: positions, seconds, transposition-table size.

    Given by name only, as python-chess's ``engine.Limit`` is: ``Limit(30)``
    would read as seconds, where ``--timeout`` and the README say seconds, but
    the first field is positions. Zero seconds or positions leave no search (a
    position over as it stands still gets its verdict); fewer than none, or a
    table of no room, is a mistake, refused when the limit is made.
    """

    states: int | None = None
    seconds: float | None = None
    table: int = DEFAULT_TABLE_CAP

    def __post_init__(self) -> None:
        _check_type(self.states, Integral, "a limit of {} positions")
        _check_type(self.seconds, Real, "a limit of {} seconds")
        _check_type(self.table, Integral, "a table of {} positions", optional=False)
        if self.states is not None and self.states < 0:
            raise InvalidLimitError(
                f"a limit of {self.states} positions: give 0 or more, or None for no limit"
            )
        if self.seconds is not None and math.isnan(self.seconds):
            raise InvalidLimitError("a limit of nan seconds: give a number, or None for no limit")
        if self.seconds is not None and self.seconds < 0:
            raise InvalidLimitError(
                f"a limit of {self.seconds} seconds: give 0 or more, or None for no limit"
            )
        if self.table < 1:
            raise InvalidLimitError(f"a table of {self.table} positions: give room for 1 at least")
        # Plain numbers from here on: a budget is also written to JSON and SQLite, which take no numpy.int64.
        object.__setattr__(self, "states", None if self.states is None else int(self.states))
        if isinstance(self.seconds, Integral):  # whole seconds stay whole: "30 s ran out"
            object.__setattr__(self, "seconds", int(self.seconds))
        elif self.seconds is not None:
            object.__setattr__(self, "seconds", float(self.seconds))
        object.__setattr__(self, "table", int(self.table))


def _check_type(value: object, kind: type, words: str, *, optional: bool = True) -> None:
    """Refuse a budget of the wrong type, which would fail or mislead only once the search began.

    Any number of the kind will do (``numpy.int64(5)`` positions, a ``Fraction`` of a
    second), as arithmetic takes them; a bool, though an int, is a slip.
    """
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, kind):
        number = "a whole number" if kind is Integral else "a number"
        raise InvalidLimitError(
            f"{words.format(repr(value))}: give {number}{', or None for no limit' if optional else ''}"
        )


class InvalidLimitError(CardtableError, ValueError):
    """A :class:`Limit` that no search could keep: fewer than no positions or seconds, a table with no room."""


@dataclass(frozen=True)
class Progress:
    """How far a search has got, told to ``solve``'s ``progress`` callback now and then."""

    states: int
    table: int
    seconds: float


@dataclass
class SolveResult:
    """The verdict, the winning moves (when won) and what the search cost."""

    status: Status
    moves: list[Move] = field(default_factory=list)
    states: int = 0
    seconds: float = field(default=0.0, compare=False)  # two runs of one search take different times
    peak_table: int = 0
    reason: str = ""  # for unknown: which budget ran out
    guess: Move | None = None
    """For ``unknown``: a move to try, not proved to win; None when the search has no lead.

    A player who asks for a hint wants a move even when the budget runs out
    before a verdict, as a chess engine gives its best move at any depth. In
    Acey and Kingsley it is the first move towards the best position the beams
    reached (:meth:`cardtable.solver.updown.Search.guess`); in the other games
    only a safe move at the start, which spoils no win (:meth:`_Search.guess`).
    """

    def __repr__(self) -> str:
        """``<SolveResult won: 65 moves, 1,834 positions, 0.12 s>``: one line, however long the winning one."""
        why = f" ({self.reason})" if self.reason else ""
        line = f"{plural(len(self.moves), 'move')}, " if self.moves else ""
        guess = f", guess {self.guess}" if self.guess is not None else ""
        return f"<SolveResult {self.status}{why}: {line}{plural(self.states, 'position')}, {self.seconds:.2f} s{guess}>"

    @property
    def stats(self) -> dict[str, float | int | str]:
        """The statistics as formats.md's ``stats`` object carries them; for ``unknown``, why it stopped too.

        A budget that ran out and a search the user interrupted both end
        ``unknown``: the ``reason`` ("searched 500 positions", "interrupted")
        tells a reader of the file which it was.
        """
        stats: dict[str, float | int | str] = {
            "seconds": round(self.seconds, 4),
            "states": self.states,
            "peak_table": self.peak_table,
        }
        if self.status == "unknown" and self.reason:
            stats["reason"] = self.reason
        return stats


_TIME_RAN_OUT: Final = " s ran out"


def ran_out_of_time(reason: str) -> bool:
    """Whether ``reason``, an unknown :class:`SolveResult`'s, says its seconds ran out, as this module words it."""
    return reason.endswith(_TIME_RAN_OUT)


class StopSearch(Exception):
    """Raised by a ``progress`` callback to end the search ``unknown``, as a spent budget does.

    A button or another thread sets a flag that the callback reads (a
    :class:`threading.Event`, say). The result keeps what the search did so far,
    its statistics and, for a hint, its guess, where any other exception reaches
    the caller and loses them. Its message, or "stopped", is the result's ``reason``.
    """


class _BudgetExceeded(Exception):
    def __init__(self, reason: str, searched: int | None = None) -> None:
        self.reason = reason
        self.searched = searched
        """The positions to report as searched, when the search counted one it was stopped from searching."""


def solve(
    state: State,
    limit: Limit | None = None,
    *,
    prune: bool = True,
    progress: Callable[[Progress], object] | None = None,
) -> SolveResult:
    """Decide whether ``state`` can be won; the state itself is left unchanged.

    Games shaped like Acey and Kingsley go to the search of
    :mod:`cardtable.solver.updown`. ``prune=False`` turns that and the rules of
    :mod:`cardtable.solver.prune` off, so that tests can check that neither ever
    changes a verdict. ``progress`` hears how far the search has got every
    :data:`PROGRESS_EVERY` seconds or so, for a long search's live line; a
    :class:`StopSearch` it raises ends the search ``unknown``, and any other
    exception reaches the caller.

    With no ``limit`` (or ``Limit()``) the search runs until it decides, or until
    its table holds :data:`DEFAULT_TABLE_CAP` positions (about 1.1 GB), which
    ends it ``unknown``: a player waiting on an answer wants ``seconds``, and a
    search stopped from elsewhere (a button, another thread) ``progress``.

    A position with nothing to search, won or lost as it stands, gets its
    verdict without a search, so that no budget, not even none at all, leaves
    it ``unknown``.

    A ``state`` that is no :class:`State`, or a ``limit`` that is no
    :class:`Limit` (``solve(state, 30)``: seconds or positions?), is refused
    with :class:`~cardtable.core.errors.WrongTypeError` before anything is searched.
    """
    if not isinstance(state, State):
        raise not_a("State", state, 'a position, such as deal(load_game("fan"), 1)')
    if limit is None:
        limit = Limit()
    elif not isinstance(limit, Limit):
        raise not_a("Limit", limit, _limit_like(limit))
    started = time.perf_counter()
    if (settled := _settled(state)) is not None:
        return SolveResult(settled, [], 0, time.perf_counter() - started)
    budget = _Budget(limit, progress, started)
    if prune and updown.applies(state.spec):
        return _solve_updown(state, budget, started)
    search = _Search(state.copy(), budget, prune)
    try:
        status: Status = "won" if search.run() else "unwinnable"
        reason = ""
    except _BudgetExceeded as stop:
        status, reason = "unknown", stop.reason
        search.states = search.states if stop.searched is None else stop.searched
    moves = search.solution if status == "won" else []
    guess = search.guess() if status == "unknown" else None
    return SolveResult(
        status, moves, search.states, time.perf_counter() - started, len(search.seen), reason, guess
    )


def _limit_like(value: object) -> str:
    """What to give instead of ``value`` as a limit: for a number, a Limit of that many seconds or positions."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "a Limit, such as Limit(seconds=30)"
    seconds = f"Limit(seconds={value!r}) for {value!r} seconds"
    if isinstance(value, float):
        return seconds
    return f"{seconds}, or Limit(states={value!r}) for {value!r} positions"


def _settled(state: State) -> Status | None:
    """The verdict of a position that is over: won, or lost by :meth:`State.is_lost`; None while play goes on.

    ``is_lost`` may ask the game's ``stuck`` hook, which is as exact as the
    search: Acey and Kingsley's says lost only where no line of moves can ever
    take another card home.
    """
    if state.is_won():
        return "won"
    return "unwinnable" if state.is_lost() else None


def _solve_updown(state: State, budget: _Budget, started: float) -> SolveResult:
    search = updown.Search(state, budget.limit.table)
    search.most_states = budget.limit.states
    try:
        steps = search.run(budget.check)
    except _BudgetExceeded as stop:
        seconds = time.perf_counter() - started
        states = search.states if stop.searched is None else stop.searched
        return SolveResult("unknown", [], states, seconds, budget.peak, stop.reason, search.guess())
    status: Status = "unwinnable" if steps is None else "won"
    moves = [] if steps is None else search.realise(steps)
    return SolveResult(status, moves, search.states, time.perf_counter() - started, budget.peak)


class _Budget:
    """Stops a search when one of its :class:`Limit` budgets runs out."""

    def __init__(
        self,
        limit: Limit,
        progress: Callable[[Progress], object] | None = None,
        started: float | None = None,
    ) -> None:
        """``started``: when the search began, by :func:`time.perf_counter` (default: now)."""
        self.limit = limit
        self.started = started = time.perf_counter() if started is None else started
        self.deadline = None if limit.seconds is None else started + limit.seconds
        self.progress = progress
        self.next_report = started + PROGRESS_EVERY
        self.peak = 0

    def check(self, states: int, table: int) -> int:
        """Note the positions searched and remembered so far; raise when over a budget.

        Returns how many more positions the search may visit before it must call
        again: at most :data:`CHECK_EVERY`, and never past the position budget,
        which therefore stops a search as it counts the first position over it;
        that one is not searched, so a budget of N positions reports N. A call at
        every position would be a Python call on a search's hottest loop. The
        clock is read at every call; a search may call between positions too
        (Acey and Kingsley's look-ahead does, while it sorts a level), so that
        long work with no new position still stops in time. The table is seen
        only at calls, so a search may pass its table budget, and the peak it
        reports fall short, by what it keeps between two calls (a few hundred
        positions, or one of Acey and Kingsley's endgames: deal 11's peak is
        50,876 positions where a call at every position saw 52,312).
        """
        self.peak = max(self.peak, table)
        limit = self.limit
        if limit.states is not None and states > limit.states:
            raise _BudgetExceeded(f"searched {plural(limit.states, 'position')}", states - 1)
        if table > limit.table:
            raise _BudgetExceeded(f"the table is full (its cap: {plural(limit.table, 'position')})")
        now = time.perf_counter()
        if self.deadline is not None and now > self.deadline:
            raise _BudgetExceeded(f"{limit.seconds or 0}{_TIME_RAN_OUT}")
        if self.progress is not None and now >= self.next_report:
            self.next_report = now + PROGRESS_EVERY
            try:
                self.progress(Progress(states, table, now - self.started))
            except StopSearch as stop:
                raise _BudgetExceeded(str(stop) or "stopped") from None
        if limit.states is None:
            return CHECK_EVERY
        return min(CHECK_EVERY, limit.states - states + 1)


def _drop(moves: list[int], code: int) -> None:
    """Leave out the move that would only take the last one back.

    A card moved from one pile to another, with nothing played after it and no
    stock card refilling the pile it left, can move straight back: that gives the
    position before, which the search has already seen (in Alexander nearly every
    position has such a move, one of the ~4 it tries).
    """
    if code in moves:
        moves.remove(code)


class _Search:
    """The exact search of one position, depth first, each position once.

    (Games of Acey and Kingsley's shape go to :mod:`cardtable.solver.updown`
    instead, unless pruning is off.) A class so that the few steps run at every
    position (:meth:`_push`, :meth:`_play_safe`, :meth:`_seen_before`,
    :meth:`_moves`) share, as attributes, what would otherwise be passed on
    every call: one :class:`State`, changed in place by ``push`` and taken back
    by ``retract`` (snapshots, no copy per position); the keys of the positions
    searched (``seen``), so that one reached again by other moves is not
    searched twice, and, since only moves proved to change nothing or to spoil
    no win are left out, ``unwinnable`` means every position was tried; and the
    counts the budget is checked against (``states``, ``due``). Moves are ints,
    ``source << 8 | target`` or :data:`DEAL_CODE` and :data:`REDEAL_CODE`, which
    keeps the lists small and cheap to make. The state it is given is changed: a
    search ended by a win or a budget leaves it mid-line, so :func:`solve` gives
    it a copy.
    """

    def __init__(self, state: State, budget: _Budget, prune: bool) -> None:
        self.state = state
        self.budget = budget
        self.seen: set[bytes] = set()
        self.states = 0
        self.due = 0  # the position count at which to look at the budget again
        self.solution: list[Move] = []
        self.base = state.ply()
        self.pruner = Pruner(state.spec, enabled=prune)
        self.twins_by_plan: dict[int, list[int]] = {}
        self.safe_first = False  # whether the start had a safe move, played before any other

    def run(self) -> bool:
        """True with a win's line in :attr:`solution`, False when no line wins; :class:`_BudgetExceeded` when stopped.

        A stack of frames, not recursion: a line runs hundreds of moves deep
        (648, safe moves included, in Alexander the Great deal 3), too near
        Python's limit of 1,000 nested calls, and a frame here is two list
        entries, not a call. A frame holds the
        moves left to try at one position and how many safe moves were played
        on reaching it; ``cursor`` holds, for each frame, its next move's index.

        Every move tried is followed by the safe moves it frees (after one
        between tableau piles, only the card it uncovered can newly go home),
        which are never branched on; a position then seen before, or proved lost
        by stranded cards, is taken back at once. Taking back a move takes back
        its safe moves with it, so a frame left restores its parent exactly, and
        the root's own safe moves go last: a search that finds no win leaves the
        position as it was. A card moved with no safe move after it, whose pile
        it left is one card shorter (no stock card refilled it), is not tried
        straight back: that would only give the position before (:func:`_drop`).
        """
        state = self.state
        forced = self._play_safe()
        self.safe_first = forced > 0
        if state.is_won():
            return self._found()
        if self._seen_before() or self._is_stranded():
            return False
        stack: list[tuple[list[int], int]] = [(self._moves(), forced)]
        cursor = [0]
        while stack:
            moves, forced = stack[-1]
            index = cursor[-1]
            if index == len(moves):
                stack.pop()
                cursor.pop()
                self._undo(forced + (1 if stack else 0))
                continue
            cursor[-1] = index + 1
            code = moves[index]
            source_height = len(state.piles[code >> 8]) if code >= 0 else 0
            placed = self._push(code)
            forced = self._play_safe(self._uncovered(code))
            if state.is_won():
                return self._found()
            if self._seen_before() or (placed is not None and self._is_stranded(placed)):
                self._undo(forced + 1)
                continue
            following = self._moves()
            if code >= 0 and not forced and len(state.piles[code >> 8]) == source_height - 1:
                _drop(following, (code & 255) << 8 | code >> 8)
            stack.append((following, forced))
            cursor.append(0)
        return False

    def _found(self) -> bool:
        self.solution = self.state.move_stack[self.base :]
        return True

    def guess(self) -> Move | None:
        """For a search stopped before a verdict: a safe move at the start, which loses no win; else None.

        The line in hand is no lead here. A search that runs out of budget is
        mostly one stuck in a large lost branch, so its first move kept a won
        game winnable less often than a move drawn at random (the La Belle
        Lucie form, positions of won lines undecided within 2,000 positions:
        174 of 226 against 204; `benchmarks/guess.py`).
        """
        stack = self.state.move_stack
        return stack[self.base] if self.safe_first and len(stack) > self.base else None

    def _seen_before(self) -> bool:
        """Record the position; True if it was seen before."""
        key = self.state.key()
        if key in self.seen:
            return True
        self.seen.add(key)
        self.states += 1
        if self.states >= self.due:
            self.due = self.states + self.budget.check(self.states, len(self.seen))
        return False

    def _moves(self) -> list[int]:
        """The moves to try, most promising first, moves known to change nothing left out.

        Order: cards onto the foundations, a deal from the stock, cards passed
        between foundations, then the rest.

        Left out: idle lone-card moves (prune.py), and moves that only swap two
        interchangeable piles, which would give the same key: a lone card to an
        empty twin pile, or a foundation's top onto a twin foundation.
        """
        state = self.state
        kinds = state.plan.kinds
        piles = state.piles
        twins = self._twins(state.plan)
        skip_lone = self.pruner.lone_moves_idle(state)
        home: list[int] = []
        transfers: list[int] = []
        other: list[int] = []
        for source, target in state.card_moves():
            twin = twins[source] >= 0 and twins[source] == twins[target]
            if twin and (kinds[source] is Kind.FOUNDATION or (len(piles[source]) == 1 and not piles[target])):
                continue
            if kinds[target] is Kind.FOUNDATION:
                (transfers if kinds[source] is Kind.FOUNDATION else home).append(source << 8 | target)
            elif not (skip_lone and kinds[source] is Kind.TABLEAU and len(piles[source]) == 1):
                other.append(source << 8 | target)
        moves = home + ([DEAL_CODE] if state.can_deal() else []) + transfers + other
        if state.can_redeal(not moves):
            moves.append(REDEAL_CODE)
        return moves

    def _twins(self, plan: Plan) -> list[int]:
        """Pile -> its group of interchangeable piles in the key (-1: none), per plan."""
        twins = self.twins_by_plan.get(id(plan))
        if twins is None:
            twins = [-1] * len(plan.ids)
            for number, (indices, sort, _, _) in enumerate(plan.key_groups):
                for i in indices:
                    twins[i] = number if sort else -1
            self.twins_by_plan[id(plan)] = twins
        return twins

    def _push(self, code: int) -> int | None:
        """Play a move, and say whether it may strand a card (see :meth:`_is_stranded`).

        None if it cannot; the card, for a move between tableau piles; -1 for a
        redeal or a card from elsewhere onto the tableau.
        """
        state = self.state
        if code == DEAL_CODE:
            state.push(Move.deal())
            return None
        if code == REDEAL_CODE:
            state.push(Move.redeal())
            return -1
        source, target = code >> 8, code & 255
        state.push_card(source, target)
        kinds = state.plan.kinds
        if kinds[target] is not Kind.TABLEAU:
            return None
        return state.piles[target][-1] if kinds[source] is Kind.TABLEAU else -1

    def _is_stranded(self, placed: int = -1) -> bool:
        """Whether stranded cards prove the position lost; ``placed``: a card just moved between tableau piles.

        The position before such a move was not stranded (the search stops at
        those that are), so when the card could move on at once nothing needs
        checking (see :meth:`Pruner.leaves_at_once`).
        """
        state = self.state
        if not self.pruner.final(state):
            return False
        if placed >= 0 and self.pruner.leaves_at_once(state, placed):
            return False
        return self.pruner.stranded(state)

    def _uncovered(self, code: int) -> int | None:
        """The pile a tableau-to-tableau move uncovered a card in, else None.

        Safe moves are played to exhaustion after every move, so after such a move
        only the uncovered card can be newly playable home.
        """
        if code < 0:
            return None
        kinds = self.state.plan.kinds
        source, target = code >> 8, code & 255
        both_tableau = kinds[source] is Kind.TABLEAU and kinds[target] is Kind.TABLEAU
        return source if both_tableau else None

    def _play_safe(self, uncovered: int | None = None) -> int:
        """Play provably safe foundation moves; return how many were played.

        With ``uncovered``, nothing can go home unless that pile's top can.
        """
        state = self.state
        if not self.pruner.safe_home(state):
            return 0
        if uncovered is not None and not self.pruner.goes_home(state, uncovered):
            return 0
        played = 0
        while (move := self.pruner.home_move(state)) is not None:
            state.push_card(*move)
            played += 1
        return played

    def _undo(self, count: int) -> None:
        retract = self.state.retract
        for _ in range(count):
            retract()
