"""Surveys: the winnability of thousands of deals, on one machine or a Dask cluster.

>>> import tempfile
>>> from cardtable import load_game
>>> from cardtable.solver import Limit
>>> from cardtable.survey import ResultStore, Survey, process_pool, summarize
>>> with tempfile.TemporaryDirectory() as folder, ResultStore(f"{folder}/survey.sqlite") as store:
...     with process_pool(2) as pool:
...         tally = Survey(store, load_game("fan"), range(1, 11), Limit(states=5000)).run(pool)
...     summary = summarize(store.outcomes("fan", 1))
>>> tally.stored, summary.surveyed, summary.won + summary.unwinnable + summary.unknown
(10, 10, 10)

In a script, run the survey under ``if __name__ == "__main__":``. The pool's
workers are spawned, and each imports the script again (Python's rule for
``multiprocessing``, and Dask's for a ``local`` cluster): a survey at the top
level would have every worker start one of its own, and die of it::

    def main() -> None:
        with ResultStore("survey.sqlite") as store, process_pool(2) as pool:
            print(Survey(store, load_game("fan"), range(1, 11), Limit(states=5000)).run(pool))


    if __name__ == "__main__":
        main()

The pieces, each in its own module and each usable alone:

* :mod:`~cardtable.survey.task`: one deal solved, as a worker does it;
* :mod:`~cardtable.survey.executors`: where deals are solved (processes, Dask);
* :mod:`~cardtable.survey.runner`: a range of deals, planned, solved and stored;
* :mod:`~cardtable.survey.store`: the results in SQLite;
* :mod:`~cardtable.survey.stats`: what the results say (Wilson intervals, times);
* :mod:`~cardtable.survey.plot`: the picture (matplotlib).

The package names the public parts of each but the picture: matplotlib is
imported only with :mod:`cardtable.survey.plot`, and Dask only when
:func:`dask_cluster` runs, so that a survey on one machine, or a program that
only reads results, pays for neither.

The survey depends on the core and the solver; neither knows it exists.
"""

from cardtable.survey.executors import (
    Pool,
    PoolStartError,
    SchedulerError,
    WorkerLostError,
    dask_cluster,
    default_workers,
    executor,
    process_pool,
)
from cardtable.survey.runner import Survey, Tally, WorkerMismatchError
from cardtable.survey.stats import (
    InvalidCountError,
    Summary,
    Times,
    Winnability,
    running,
    summarize,
    times,
    wilson,
    winnability,
)
from cardtable.survey.store import ResultStore, SettingsUsed, SurveyDatabaseError, default_path
from cardtable.survey.task import Outcome, solve_deal

__all__ = [
    "InvalidCountError",
    "Outcome",
    "Pool",
    "PoolStartError",
    "ResultStore",
    "SchedulerError",
    "SettingsUsed",
    "Summary",
    "Survey",
    "SurveyDatabaseError",
    "Tally",
    "Times",
    "Winnability",
    "WorkerLostError",
    "WorkerMismatchError",
    "dask_cluster",
    "default_path",
    "default_workers",
    "executor",
    "process_pool",
    "running",
    "solve_deal",
    "summarize",
    "times",
    "wilson",
    "winnability",
]
