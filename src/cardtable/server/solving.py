"""The solver behind hints, "still winnable?", "show me" and winnable-only deals.

Searches run in worker processes, so the server keeps answering while one
thinks (a pure-Python search holds the GIL). A worker gets the position as a
formats.md deal object and sends back formats.md moves: nothing but JSON-able
data crosses the process boundary. A won line is remembered for every position
along it, so asking for hint after hint while following the line costs nothing.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Final

from cardtable.core.deals import deal, random_deal
from cardtable.core.errors import CardtableError
from cardtable.core.move import Move
from cardtable.core.spec import GameSpec
from cardtable.core.state import State
from cardtable.formats import deal_from_dict, deal_to_dict, move_from_dict, move_to_dict
from cardtable.solver import Limit, draw, solve
from cardtable.solver.known import Known, Position, exact
from cardtable.solver.rewind import Walk, WayBack
from cardtable.solver.search import Status

CACHE_SIZE: Final = 20_000
"""Positions whose verdicts the server remembers, among all its players (see :class:`Known`)."""
PER_PLAYER: Final = 2
"""Searches one player may have under way at once: a question and a walk back, say."""


class SolverBusyError(CardtableError):
    """Too many searches are already waiting for a worker, or the workers died."""


@dataclass(frozen=True)
class Budgets:
    """Seconds (and table size) each kind of question may cost."""

    hint: float = 3.0
    verdict: float = 5.0
    line: float = 6.0
    way_back: float = 5.0  # in a lost position: finding how many undos bring back a winnable one
    per_deal: float = draw.SECONDS  # winnable-only: each deal tried
    deals: int = draw.TRIES  # winnable-only: deals tried at most
    search: float = 15.0  # winnable-only: seconds in all
    table: int = 600_000  # positions a search may remember (at most about 110 MB: see DEFAULT_TABLE_CAP)


@dataclass(frozen=True)
class Verdict:
    """What the solver says about a position; ``moves`` is a winning line when won, ``guess`` a move it would try when unknown."""

    status: Status
    moves: tuple[Move, ...] = ()
    seconds: float = 0.0
    states: int = 0
    guess: Move | None = None


def solve_position(
    position: dict[str, Any], seconds: float, table: int, start_by: float | None = None
) -> dict[str, Any]:
    """Solve a deal object in a worker process; the verdict as JSON-able data.

    ``start_by``: the :func:`time.time` after which the question has waited
    too long for a worker, and is answered ``{"busy": true}`` unsearched.
    """
    if start_by is not None and time.time() > start_by:
        return {"busy": True}
    result = solve(deal_from_dict(position), Limit(seconds=seconds, table=table))
    return {
        "status": result.status,
        "moves": [move_to_dict(m) for m in result.moves],
        "seconds": result.seconds,
        "states": result.states,
        "guess": None if result.guess is None else move_to_dict(result.guess),
    }


class Solver:
    """Runs searches on an executor, a few at a time, and remembers their verdicts.

    Given a factory rather than an executor, it makes a new pool when the old
    one breaks (a worker killed for memory, say) instead of failing for good.
    """

    def __init__(
        self, executor: Executor | Callable[[], Executor], budgets: Budgets | None = None, *, queue: int = 6
    ) -> None:
        self.make = executor if callable(executor) else None
        self.executor = executor() if callable(executor) else executor
        self.budgets = budgets or Budgets()
        self.queue = queue
        self._waiting = 0
        self._asking: Counter[str] = Counter()  # each player's questions being answered
        self._asked: dict[tuple[Position, float], asyncio.Future[dict[str, Any]]] = {}  # searches under way
        self._known = Known(CACHE_SIZE)

    async def verdict(self, state: State, seconds: float, who: str | None = None) -> Verdict:
        """Won (with a line), unwinnable, or unknown after ``seconds`` of search.

        A question asked again while its search is under way (a page asking
        twice, a client that hung up and asked again) waits for that search
        rather than starting another. A player (``who``) has at most
        :data:`PER_PLAYER` searches under way, so that one client cannot keep
        the solver from everyone else. A question waits for a worker at most
        as long as it may think, then is refused as busy: a player waits at
        most twice a question's budget, however many others asked first.
        """
        known = self._known.recall(state)
        if known is not None:
            return Verdict(known.status, tuple(known.moves))
        if seconds <= 0:
            return Verdict("unknown")
        under_way = self._asked.get((exact(state), seconds))
        try:
            found = await (
                asyncio.shield(under_way) if under_way is not None else self._search(state, seconds, who)
            )
        except BrokenProcessPool:
            if under_way is None and self.make is not None:  # once, by the question that met it
                self.executor = self.make()
            raise SolverBusyError("the solver's worker stopped unexpectedly; ask again") from None
        if found.get("busy"):
            raise SolverBusyError(
                "the solver was busy with other questions for as long as yours could take; ask again"
            )
        verdict = Verdict(
            status=found["status"],
            moves=tuple(move_from_dict(m) for m in found["moves"]),
            seconds=found["seconds"],
            states=found["states"],
            guess=None if found["guess"] is None else move_from_dict(found["guess"]),
        )
        self._known.remember(state, verdict.status, verdict.moves)
        return verdict

    async def _search(self, state: State, seconds: float, who: str | None) -> dict[str, Any]:
        """A new search on the pool, if the queue and the player's share have room for it."""
        if self._waiting >= self.queue:
            raise SolverBusyError("the solver is busy with other questions; ask again in a moment")
        if who is not None and self._asking[who] >= PER_PLAYER:
            raise SolverBusyError("your earlier questions are still being answered; ask again once they are")
        question = (
            exact(state),
            seconds,
        )  # not State.key(): a line names the piles and cards of its position
        loop = asyncio.get_running_loop()
        start_by = time.time() + seconds  # a question waits for a worker no longer than it may think
        search = loop.run_in_executor(
            self.executor, solve_position, deal_to_dict(state), seconds, self.budgets.table, start_by
        )
        self._waiting += 1
        self._asking[who or ""] += 1
        self._asked[question] = search
        try:
            return await asyncio.shield(search)  # others may be waiting for it too
        finally:
            self._waiting -= 1
            self._asking[who or ""] -= 1
            if not self._asking[who or ""]:
                del self._asking[who or ""]  # every player who ever asked would otherwise stay, at 0
            del self._asked[question]

    async def way_back(
        self, state: State, steps: list[int], seconds: float, who: str | None = None
    ) -> WayBack:
        """How many undos (of ``steps`` moves each, the latest first) bring back a position the solver proves winnable.

        The walk of :func:`cardtable.solver.rewind.way_back`, each position asked of the pool as a question of
        ``who``'s, so that a walk counts against the player's share as a question does.
        """
        walk = Walk(len(steps))
        for position, seconds_for_it, back in walk.visits(state, steps, seconds):
            try:
                found = await self.verdict(position, seconds_for_it, who)
            except SolverBusyError:  # the position's own verdict stands; only how far back is not known
                return WayBack("unknown")
            walk.judged(back, found.status, found.moves)
        return walk.answer()

    async def winnable_deal(self, spec: GameSpec, who: str | None = None) -> tuple[int, str]:
        """A deal drawn as :class:`cardtable.solver.draw.Draw` chooses, within the budgets, and what the player is told
        of it; each deal tried is a question of ``who``'s."""
        budgets = self.budgets
        started = time.monotonic()
        chosen = draw.Draw(budgets.deals)
        while chosen.more and (left := budgets.search - (time.monotonic() - started)) > 0.05:
            number = random_deal()
            chosen.judged(
                number, (await self.verdict(deal(spec, number), min(budgets.per_deal, left), who)).status
            )
        if chosen.number is None:  # no time for even one try: a deal all the same, of which nothing is known
            chosen.number, chosen.status = random_deal(), "unknown"
        return chosen.number, chosen.told(time.monotonic() - started, budgets.per_deal)
