"""The survey on a Dask cluster the test starts itself: workers that join late, and an interrupted survey.

The clusters are real (a scheduler and its workers, in this process), since
what matters is what Dask's scheduler does with the survey's deals.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable import load_game
from cardtable.solver import Limit
from cardtable.survey import executors
from cardtable.survey.executors import Pool, dask_cluster
from cardtable.survey.runner import Survey
from cardtable.survey.store import ResultStore
from cardtable.survey.task import Outcome
from test_survey_cli import SURVEY_CODE, count, wait_for_results

distributed = pytest.importorskip("distributed")

FAN = load_game("fan")


@pytest.fixture
def cluster() -> Iterator[Any]:
    """A scheduler with no worker yet, as a survey may find one whose workers are still starting.

    Over TCP, so that a survey in another process reaches it too.
    """
    with distributed.LocalCluster(
        n_workers=0, threads_per_worker=2, processes=False, protocol="tcp", dashboard_address=":0"
    ) as started:
        yield started


def until(condition: Callable[[], bool], what: str) -> None:
    """Wait for what the cluster does in its own time, up to 30 s."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, f"not in 30 s: {what}"
        time.sleep(0.02)


def threads(client: Any) -> int:
    return sum(client.nthreads().values())


def test_the_deals_in_flight_follow_the_threads_the_cluster_has_now(
    cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(executors, "THREADS_READ_EVERY", 3600.0)
    with dask_cluster(cluster.scheduler_address, 1) as pool, distributed.Client(cluster) as client:
        assert pool.in_flight() == 2, "no worker yet: the deals wait for the first"
        cluster.scale(2)
        until(lambda: threads(client) == 4, "two workers of two threads")
        assert pool.in_flight() == 2, "the scheduler is not asked again at once"
        monkeypatch.setattr(executors, "THREADS_READ_EVERY", 0.0)
        assert pool.in_flight() == 8
        cluster.scale(1)
        until(lambda: threads(client) == 2, "one worker left")
        assert pool.in_flight() == 4


def test_an_interrupted_survey_leaves_no_deal_queued_on_the_cluster(cluster: Any, tmp_path: Path) -> None:
    """Cancelled by the survey itself, not left to its client's close or to the garbage collector."""
    cluster.scale(1)

    def interrupt(outcome: Outcome) -> None:
        raise KeyboardInterrupt

    with ResultStore(tmp_path / "survey.sqlite") as store, distributed.Client(cluster) as client:
        client.wait_for_workers(1)
        pool = Pool(client.get_executor(pure=False), lambda: 20)
        with pytest.raises(
            KeyboardInterrupt
        ) as interrupted:  # kept, as the CLI keeps it to say how far it got
            Survey(store, FAN, range(1, 101), Limit(states=200)).run(pool, on_result=interrupt)
        until(lambda: not cluster.scheduler.tasks, "the survey's deals cancelled and forgotten")
        assert interrupted.type is KeyboardInterrupt
        assert len(store.outcomes("fan", 1)) == 1


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="as test_survey_cli's interrupts")
def test_ctrl_c_stops_a_survey_on_a_cluster_at_once_and_the_cluster_drops_its_deals(
    cluster: Any, tmp_path: Path
) -> None:
    """The deal a worker has begun runs to its budget: the survey does not wait for it."""
    cluster.scale(1)
    db = tmp_path / "survey.sqlite"
    args = ["survey", "acey-and-kingsley", "--deals", "1-500", "--db", str(db), "--timeout", "20"]
    process = subprocess.Popen(
        [sys.executable, "-c", SURVEY_CODE, *args, "--scheduler", cluster.scheduler_address],
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        wait_for_results(db, process, at_least=1)
        os.kill(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=15)  # less than a deal's budget
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 128 + signal.SIGINT
    assert stderr.decode().strip().splitlines()[-1].startswith("cardtable: interrupted;")
    until(lambda: not cluster.scheduler.tasks, "the survey's deals dropped")
    assert count(db) >= 1
