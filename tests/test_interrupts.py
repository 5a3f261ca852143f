"""Signals held back while worker processes start (interrupts.py): not lost, not cutting the start in half.

Each case runs in a process of its own, in a session of its own, so that a
signal sent to its process group, as a terminal sends Ctrl-C, reaches it and
its children and nothing else.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cardtable.interrupts import STOPPING, Terminated, deferred, ended_as_ctrl_c

SCRIPT = textwrap.dedent(
    """
    import multiprocessing, os, signal, sys, time
    from cardtable.interrupts import Terminated, ended_as_ctrl_c, held_while_workers_start

    def report(answers):
        answers.put(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)

    if __name__ == "__main__":
        context = multiprocessing.get_context("spawn")
        answers = context.Queue()
        sent = getattr(signal, sys.argv[1])
        with ended_as_ctrl_c(signal.SIGTERM):
            try:
                with held_while_workers_start():
                    worker = context.Process(target=report, args=(answers,))
                    worker.start()
                    if sent == signal.SIGINT:
                        os.killpg(0, sent)  # to the whole group, the worker too, as a terminal does
                    else:
                        os.kill(os.getpid(), sent)  # as timeout(1) or a batch system does
                    time.sleep(0.2)
                    print("held back", flush=True)
                print("lost")
            except Terminated:
                print("raised at the end: Terminated")
            except KeyboardInterrupt:
                print("raised at the end: KeyboardInterrupt")
        print("the worker ignores Ctrl-C:", answers.get(timeout=30))
        worker.join()
    """
)


@pytest.mark.parametrize(("sent", "raised"), [("SIGINT", "KeyboardInterrupt"), ("SIGTERM", "Terminated")])
def test_a_signal_while_workers_start_is_raised_once_they_have_started(
    tmp_path: Path, sent: str, raised: str
) -> None:
    script = tmp_path / "start.py"  # a file, not -c: spawned workers import the main module
    script.write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), sent],
        capture_output=True,
        text=True,
        timeout=60,
        start_new_session=True,
    )
    assert done.stdout.splitlines() == [
        "held back",
        f"raised at the end: {raised}",
        "the worker ignores Ctrl-C: True",
    ], done.stderr


NESTED = textwrap.dedent(
    """
    import os, signal, time
    from cardtable.interrupts import held_while_workers_start

    try:
        with held_while_workers_start():
            with held_while_workers_start():
                pass
            os.kill(os.getpid(), signal.SIGINT)  # after the inner hold, still inside the outer one
            time.sleep(0.2)
            print("held back", flush=True)
        print("lost")
    except KeyboardInterrupt:
        print("raised at the end")
    """
)


def test_holds_nest_the_inner_one_giving_back_the_outer_ones_mask() -> None:
    done = subprocess.run([sys.executable, "-c", NESTED], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == ["held back", "raised at the end"], done.stderr


def test_a_signal_the_process_was_started_ignoring_stays_ignored() -> None:
    """``nohup cardtable survey ...``: a closed terminal must not stop it."""
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with ended_as_ctrl_c(signal.SIGHUP, signal.SIGTERM):
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert callable(signal.getsignal(signal.SIGTERM))
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)


def test_only_the_first_termination_signal_is_raised() -> None:
    """A second SIGHUP or SIGTERM while the first is handled must not cut short what the first set off."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                """
                import os, signal, time
                from cardtable.interrupts import Terminated, ended_as_ctrl_c
                with ended_as_ctrl_c(signal.SIGTERM, signal.SIGHUP):
                    try:
                        os.kill(os.getpid(), signal.SIGHUP)
                        time.sleep(5)
                    except Terminated as first:
                        os.kill(os.getpid(), signal.SIGHUP)  # as a closing window may send it again
                        os.kill(os.getpid(), signal.SIGTERM)
                        time.sleep(0.2)
                        print("kept after", first.args[0], flush=True)
                """
            ),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (0, "kept after SIGHUP\n"), done.stderr


def test_a_deferred_signal_raises_once_the_block_is_over_and_wakes_it() -> None:
    """Code that takes locks is not cut short: the handler's exception comes after it, the wake at once."""
    woken: list[str] = []
    with ended_as_ctrl_c(signal.SIGTERM):
        with pytest.raises(Terminated) as ended:
            with deferred(*STOPPING, wake=lambda: woken.append("now")):
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.01)  # the handler runs in here, and only notes the signal
                assert woken == ["now"]
                os.kill(os.getpid(), signal.SIGINT)  # a second is noted too, not raised
                time.sleep(0.01)
            pytest.fail("the first signal raises as the block ends")  # pragma: no cover
        assert ended.value.exit_code == 128 + signal.SIGTERM
        assert woken == ["now"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
