"""Solve every deal of a range on an executor, storing each result as it arrives.

The parent process plans (which deals are not yet stored), hands deals to the
executor a few at a time, and is the only writer of the database. Keeping only
a few deals in flight, rather than submitting the whole range, bounds what an
interruption can lose and lets a survey of millions of deals start at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from typing import Any, Final

from cardtable.core.errors import CardtableError
from cardtable.core.spec import GameSpec
from cardtable.interrupts import STOPPING, deferred
from cardtable.solver import Limit
from cardtable.solver.search import STATUSES
from cardtable.survey.executors import Pool, WorkerLostError
from cardtable.survey.store import ResultStore
from cardtable.survey.task import Outcome, solve_deal


class WorkerMismatchError(CardtableError):
    """A worker that plays other rules than this process: its verdicts would not count."""


@dataclass
class Tally:
    """What one run of a survey did."""

    planned: int  # deals in the range
    skipped: int  # stored before this run (decided, or tried with as large a budget, when retrying unknowns)
    stored: int = 0  # results this run wrote
    verdicts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    seconds: float = 0.0  # wall-clock time of the run

    @property
    def solved(self) -> int:
        """Deals solved in this run."""
        return sum(self.verdicts.values())


OnResult = Callable[[Outcome], None]


class Survey:
    """A survey of one range of consecutive deals (``range(1, 1001)``): planned when made (what is stored
    already), then run.

    :attr:`tally` is updated as results are stored, so that whoever interrupts a
    run can still say how far it got.

    Run again, the survey plans again from the store before it starts, so that
    it solves only what is still not stored (a run interrupted goes on where
    it stopped; a run that ended solves nothing) and its new :attr:`tally`
    counts that run alone. The plan made with the object is kept for the
    first run, which :attr:`todo` announces; a second run reusing it would
    solve every deal again and count each twice.
    """

    def __init__(
        self, store: ResultStore, spec: GameSpec, deals: range, budget: Limit, *, retry_unknown: bool = False
    ) -> None:
        self.store = store
        self.spec = spec
        self.deals = deals
        self.budget = budget
        self.retry_unknown = retry_unknown
        self._plan()
        self._planned_afresh = True  # the plan above, not yet used by a run

    def _plan(self) -> None:
        """Find what needs no solving (see :meth:`ResultStore.known`) and start a new :attr:`tally`."""
        spec, deals = self.spec, self.deals
        retry = self.budget if self.retry_unknown else None
        self.known = self.store.known(spec.id, spec.rules_version, deals, retry=retry)
        self.tally = Tally(planned=len(deals), skipped=len(self.known))

    @property
    def todo(self) -> int:
        """How many deals this run will solve."""
        return self.tally.planned - self.tally.skipped

    def run(self, pool: Pool, on_result: OnResult | None = None) -> Tally:
        """Solve the deals not yet stored, on ``pool``; a run after the first plans again (see :class:`Survey`)."""
        if not self._planned_afresh:
            self._plan()
        self._planned_afresh = False
        started = time.perf_counter()
        todo = (number for number in self.deals if number not in self.known)
        try:
            # closed at once however the run ends, so that the deals still in flight are cancelled then
            with closing(_solve_all(self.spec.id, todo, self.budget, pool)) as outcomes:
                for outcome in outcomes:
                    self._store(outcome)
                    if on_result is not None:
                        on_result(outcome)
        finally:
            self.tally.seconds = time.perf_counter() - started
        return self.tally

    def _store(self, outcome: Outcome) -> None:
        spec = self.spec
        if outcome.rules_version != spec.rules_version:
            raise WorkerMismatchError(
                f"a worker plays {spec.id} rules version {outcome.rules_version}, this survey version"
                f" {spec.rules_version}: install the same cardtable everywhere (the worker has {outcome.version})"
            )
        self.tally.stored += self.store.add(spec.id, outcome, self.budget, retry_unknown=self.retry_unknown)
        self.tally.verdicts[outcome.verdict] += 1


WATCH_SECONDS: Final = 5.0
"""How often a survey waiting on a cluster looks whether it still has workers."""
NO_WORKERS_GRACE: Final = 60.0
"""How long a cluster may have no worker (a restart, a new node joining) before the survey stops."""


def _solve_all(game: str, todo: Iterator[int], budget: Limit, pool: Pool) -> Generator[Outcome]:
    """The outcomes as they complete, with at most ``pool.in_flight()`` deals in flight, read at each top-up.

    A cluster left without workers would leave its deals waiting for ever: after
    :data:`NO_WORKERS_GRACE` seconds of that, the survey stops with a
    :class:`WorkerLostError`, its results so far stored. However it stops (an
    interrupt, an error, the generator closed), the deals not yet done are
    cancelled, so that a cluster does not go on with them for a survey that is
    over (a deal a Dask worker has begun runs to its budget: Dask cannot stop
    a thread).
    """
    pending: set[Future[Outcome]] = set()
    alone_since: float | None = None
    try:
        while True:
            woken: Future[Any] = Future()  # done by a stopping signal, which ends the wait at once
            # the pool's locks are taken here: a stopping signal raises only once they are all given back
            with deferred(*STOPPING, wake=partial(woken.set_result, None)):
                room = max(pool.in_flight() - len(pending), 0)  # read anew: a cluster's workers come and go
                for number in islice(todo, room):
                    pending.add(pool.executor.submit(solve_deal, game, number, budget))
                if not pending:
                    return
                done, pending = wait({*pending, woken}, timeout=WATCH_SECONDS, return_when=FIRST_COMPLETED)
                done.discard(woken)
                pending.discard(woken)
                failed = [future for future in done if future.exception() is not None]
                outcomes = [future.result() for future in done if future not in failed]
            if not done:
                if pool.workers is None or pool.workers() > 0:
                    alone_since = None
                elif alone_since is None:
                    alone_since = time.monotonic()
                elif time.monotonic() - alone_since > NO_WORKERS_GRACE:
                    raise WorkerLostError(
                        f"the Dask cluster has had no worker for {NO_WORKERS_GRACE:.0f} s; the results so far"
                        " are stored: start workers and run again to go on"
                    )
                continue
            yield from sorted(outcomes, key=lambda outcome: outcome.deal)  # stored, even if another failed
            if failed:
                failed[0].result()  # raises its error
    finally:
        with deferred(*STOPPING):
            for future in pending:
                future.cancel()
