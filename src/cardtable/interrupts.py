"""Ctrl-C held off while something must not be cut short: shared by the terminal game and the survey's pool."""

from __future__ import annotations

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
