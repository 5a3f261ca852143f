"""Ctrl-C held off while something must not be cut short, and workers that end with their parent.

Shared by the terminal game, the survey's pool and the server's solver processes.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def ctrl_c_ignored() -> Iterator[None]:
    """Ignore Ctrl-C for the duration, then restore what handled it before.

    Processes started meanwhile keep it ignored (an ignored signal stays so
    across exec), which is how the survey leaves Ctrl-C to its parent alone;
    the terminal game uses it so that a second Ctrl-C cannot cut short the note
    and the record of a game it is ending. Only the main thread may set signal
    handlers; elsewhere this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def exit_with_parent() -> None:
    """In a worker process: exit as soon as the process that started it is gone, even if it was killed outright.

    A worker blocked waiting for work would otherwise outlive a crashed parent.
    A thread waits on the parent's sentinel, which the system closes when the
    parent ends, so nothing is polled.
    """
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def wait() -> None:
        parent.join()
        os._exit(1)

    threading.Thread(target=wait, name="exit-with-parent", daemon=True).start()
