"""Where the deals are solved: a local process pool, or a Dask cluster.

Both are :class:`concurrent.futures.Executor`\\ s (Dask's through
``Client.get_executor()``), so the survey runs one code path whatever solves
the deals; each context manager gives a :class:`Pool`, which also says how
many deals to keep in flight.
We write no cluster code of our own: Dask starts, schedules and heals.

Dask is imported only when asked for, so a survey on one machine does not pay
for it.
"""

from __future__ import annotations

import gc
import logging
import math
import multiprocessing
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Executor, Future, InvalidStateError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool, _ExecutorManagerThread
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from typing import Any, Final, NamedTuple

from cardtable.core.errors import CardtableError, reason
from cardtable.interrupts import exit_with_parent, held_while_workers_start, start_resource_tracker

LOCAL: Final = "local"
IN_FLIGHT_PER_WORKER: Final = 2
"""Deals queued per worker: enough that none waits for the next, few enough to lose on a crash."""


class Pool(NamedTuple):
    """An executor, how many deals to keep in flight on it, and how to count its workers if they can all go."""

    executor: Executor
    in_flight: Callable[[], int]
    """How many deals to keep in flight now, at least one: fixed for processes here, a Dask cluster's grows and
    shrinks with its workers. Read each time deals are handed out, so it must be cheap."""
    workers: Callable[[], int] | None = None
    """A cluster's workers now: a Dask cluster's may all leave, and then its deals wait for ever."""


class SchedulerError(CardtableError):
    """A Dask scheduler that cannot be reached or started."""


class WorkerLostError(CardtableError):
    """A worker process that died mid-deal, such as at the hands of the out-of-memory killer."""


class PoolStartError(CardtableError):
    """Worker processes the system will not start: too many for its limit of open files or processes."""


def default_workers() -> int:
    """One worker per core: the solver is single-threaded pure Python."""
    return os.cpu_count() or 1


def executor(scheduler: str | None, workers: int, *, command: bool = False) -> AbstractContextManager[Pool]:
    """The pool for ``--scheduler``: None for processes here, ``local`` or an address for Dask.

    ``command``: asked by the ``cardtable`` command (see :func:`process_pool`).
    """
    if scheduler is None:
        return process_pool(workers, command=command)
    return dask_cluster(scheduler, workers, command=command)


def _smaller_table(command: bool) -> str:
    """What to try when a worker may have run out of memory, in the words of whoever set the table's size."""
    return "try a smaller --max-table" if command else "give the Limit a smaller table"


@contextmanager
def process_pool(workers: int, *, command: bool = False) -> Iterator[Pool]:
    """Worker processes on this machine, all started at once; on an interrupt they stop at once, mid-deal.

    A start the system refuses (``ulimit -n``, ``ulimit -u``) is a
    :class:`PoolStartError`, with the workers already started stopped. Callers
    ask for no more workers than deals (``cardtable survey`` does).

    The workers are spawned, so each imports the program's main module again:
    a script that makes the pool outside ``if __name__ == "__main__":`` has
    every worker die as it starts. Python's message for that goes to standard
    error from each worker, and the parent's :class:`WorkerLostError` asks
    whether that was it, unless ``command`` says the ``cardtable`` command,
    which cannot make that slip, asked for the pool.
    """
    start_resource_tracker()  # before the pool, whose queues start it otherwise
    with _stopping_race_unheard():
        yield from _started_pool(workers, command)


def _started_pool(workers: int, command: bool) -> Iterator[Pool]:
    """The body of :func:`process_pool`: the pool started, given, and stopped at once or shut down."""
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),  # no fork of a parent that runs threads
        initializer=_start_worker,
    )
    try:
        with held_while_workers_start():  # a worker still starting up must not take a Ctrl-C
            # each submit starts a worker while none is idle; none done: none got as far as its first task
            starts = [pool.submit(os.getpid) for _ in range(workers)]
    except OSError as error:
        _stop_now(pool)
        raise PoolStartError(
            f"cannot start {workers} worker processes: {reason(error)} (try fewer --workers)"
        ) from None
    except BaseException:  # a Ctrl-C or SIGTERM held back while they started
        _stop_now(pool)
        raise
    in_flight = workers * IN_FLIGHT_PER_WORKER
    try:
        yield Pool(pool, lambda: in_flight)
    except BrokenProcessPool:
        _stop_now(pool)
        if not command and not any(_did(start) for start in starts):
            raise WorkerLostError(
                "the worker processes died as they started (in a script, is the survey run under"
                ' if __name__ == "__main__":? each worker imports the script again)'
            ) from None
        raise WorkerLostError(
            f"a worker process died (out of memory? {_smaller_table(command)}); the results so far"
            " are stored: run again to go on"
        ) from None
    except BaseException:
        _stop_now(pool)
        raise
    pool.shutdown()


@contextmanager
def _stopping_race_unheard() -> Iterator[None]:
    """Silence the one error a pool's manager thread may print as a survey stops, and no other.

    Workers killed as the survey cancels its pending deals (a closed terminal's
    SIGHUP reaches them all) break the pool, and its manager thread then sets
    the broken pool's error on every pending deal, cancelled ones too. Before
    CPython's fix of gh-107219, which Python 3.11.7 lacks, that raises
    InvalidStateError in the thread, and its traceback followed the survey's
    one-line goodbye (one stop in 10 to 40 here). The survey has already
    stored what it solved, and a cancelled deal has nothing to say.
    """
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if not (args.exc_type is InvalidStateError and isinstance(args.thread, _ExecutorManagerThread)):
            previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous


def _did(task: Future[Any]) -> bool:
    """Whether ``task`` ran to its end, rather than failed, was cancelled or is still to run."""
    return task.done() and not task.cancelled() and task.exception() is None


def _start_worker() -> None:
    """Leave Ctrl-C to the parent, and die with it even when it is killed outright."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent()


def _stop_now(pool: ProcessPoolExecutor) -> None:
    """End the workers without waiting for their deals (Python 3.14 has ``terminate_workers``).

    The pool's manager thread is then waited for here, which takes moments once
    its workers are gone. Left running, it could close its wake-up pipe just as
    the interpreter's exit handler writes to it, and a Ctrl-C would end with
    ``OSError: [Errno 9] Bad file descriptor`` (seen once, on a busy machine).
    """
    for process in list((pool._processes or {}).values()):
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def dask_cluster(scheduler: str, workers: int, *, command: bool = False) -> Iterator[Pool]:
    """A Dask client: of the cluster at ``tcp://HOST:PORT``, or of a new LocalCluster for ``local``.

    For ``local`` the client owns the cluster it starts, and closes it with itself.
    A worker that keeps dying on a deal, or a scheduler that goes away, is a
    :class:`WorkerLostError`: one line, as the process pool says it, in the
    words of the ``cardtable`` command when ``command`` says it asked.
    """
    from distributed import Client, KilledWorker
    from distributed.comm.core import CommClosedError

    local = scheduler == LOCAL
    with ExitStack() as stack:
        try:
            with held_while_workers_start() if local else nullcontext():
                client: Client = (
                    _local_client(Client, workers) if local else _new_client(Client, scheduler, timeout="10s")
                )
                # quiet first: closing a client whose scheduler is gone logs too; the client is
                # closed however this ends, by a Ctrl-C held back during the start too
                stack.enter_context(_quiet_dask())
                stack.enter_context(client)
        except (OSError, ValueError, TypeError) as error:
            raise SchedulerError(f"cannot use the Dask scheduler {scheduler!r}: {error}") from None
        pool: Executor = client.get_executor(pure=False)  # type: ignore[no-untyped-call]
        try:
            yield Pool(pool, ClusterInFlight(client), lambda: len(_threads(client)))
        except (KilledWorker, CommClosedError, CancelledError) as error:
            memory = f" (out of memory? {_smaller_table(command)})" if isinstance(error, KilledWorker) else ""
            raise WorkerLostError(
                f"the Dask cluster lost its workers or its scheduler ({type(error).__name__}){memory}; the"
                " results so far are stored: run again to go on"
            ) from None


@contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask's own log held back to what is critical, as a LocalCluster's is, for the survey's duration.

    A scheduler that goes away has Dask's client log its tracebacks, dozens
    of lines, before the survey can say in one line what happened.
    """
    loggers = logging.root.manager.loggerDict.items()  # Dask gives several loggers their own handler
    handlers = [
        handler
        for name, log in loggers
        if isinstance(log, logging.Logger) and name.split(".")[0] in ("distributed", "tornado")
        for handler in log.handlers
    ]
    levels = [handler.level for handler in handlers]
    for handler in handlers:
        handler.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for handler, level in zip(handlers, levels, strict=True):
            handler.setLevel(level)


def _threads(client: Any) -> dict[str, int]:
    """The threads of each worker of a Dask client's cluster now; no worker if its scheduler is out of reach."""
    try:
        return dict(client.nthreads())
    except OSError:  # Dask's CommClosedError among them
        return {}


THREADS_READ_EVERY: Final = 1.0
"""Seconds a Dask cluster's count of threads is used before the scheduler is asked again."""


class ClusterInFlight:
    """How many deals to keep in flight on a Dask cluster: :data:`IN_FLIGHT_PER_WORKER` for each thread it has now.

    A survey may start before its workers join (it waits for them), and
    workers come and go; its scheduler is asked at most every
    :data:`THREADS_READ_EVERY` seconds, not for every deal.
    """

    def __init__(self, client: Any) -> None:
        self._client = client
        self._threads = 0
        self._read_at = -math.inf

    def __call__(self) -> int:
        now = time.monotonic()
        if now - self._read_at >= THREADS_READ_EVERY:
            self._threads = sum(_threads(self._client).values())
            self._read_at = now
        return max(self._threads, 1) * IN_FLIGHT_PER_WORKER


SCHEDULER_ADDRESS: Final = re.compile(r"^(?:tcp|tls)://(?:\[[^\]]+\]|[^\s/:\[\]]+):([0-9]{1,5})$")


def check_scheduler(scheduler: str) -> None:
    """Refuse what names no scheduler at once, before a database is made or a worker started."""
    match = SCHEDULER_ADDRESS.match(scheduler)
    if scheduler != LOCAL and (match is None or not 1 <= int(match[1]) <= 65535):
        raise SchedulerError(
            f"cannot use the Dask scheduler {scheduler!r}: give 'local' or tcp://HOST:PORT (PORT 1-65535)"
        )


LOCAL_START_TRIES: Final = 3


def _local_client(client_class: Any, workers: int) -> Any:
    """A client of a new LocalCluster, tried again if the cluster fails to come up.

    Starting worker processes races now and then in Dask ("Nanny failed to
    start"); a fresh attempt succeeds, so a survey does not die of it.
    """
    for _ in range(LOCAL_START_TRIES - 1):
        try:
            return _start_local(client_class, workers)
        except (RuntimeError, AssertionError):
            continue
    return _start_local(client_class, workers)


def _start_local(client_class: Any, workers: int) -> Any:
    return _new_client(
        client_class,
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",  # None still starts one, on 8787, warning when that is taken
        silence_logs=logging.CRITICAL,
    )


def _new_client(client_class: Any, *args: Any, **kwargs: Any) -> Any:
    """A Dask client; if it fails half-way, what it left behind is closed here and now.

    A client whose constructor raised is kept alive by the error's traceback and
    then by reference cycles, and Dask closes it in ``__del__``. Left to the
    garbage collector, that close runs at a random moment in a random thread, and
    deadlocks when it lands while another client is starting (both take Dask's
    one event-loop lock): a failed ``--scheduler`` once hung the next survey in
    the same process. So the error is raised again without its traceback, after
    collecting the client in this thread, with no lock held.
    """
    try:
        return client_class(*args, **kwargs)
    except Exception as error:
        failure = error.with_traceback(None)
        failure.__cause__ = failure.__context__ = None
    gc.collect()
    raise failure
