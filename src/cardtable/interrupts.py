"""Signals and process lifetimes: Ctrl-C held off while something must not be cut short, SIGTERM
and SIGHUP taken as Ctrl-C, signals held back while workers start, signals that reach a prompt at
once, workers that end with their parent.

Shared by the terminal game, the survey's pool and the server's solver processes.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from multiprocessing import resource_tracker
from types import FrameType
from typing import Any, Final, TypeAlias

Handler: TypeAlias = Callable[[int, FrameType | None], Any] | int | None
"""What :func:`signal.signal` takes and gives back: a function, SIG_IGN or SIG_DFL, or None for one not set from Python."""

INTERRUPTED_EXIT: Final = 128 + signal.SIGINT
"""The shell's exit code for a command stopped by Ctrl-C (130), as :attr:`Terminated.exit_code` is for the others."""


@contextmanager
def ctrl_c_ignored(*also: int) -> Iterator[None]:
    """Ignore Ctrl-C, and the signals ``also``, for the duration, then restore what handled them before.

    Processes started meanwhile keep them ignored (an ignored signal stays so
    across exec), which is how the survey leaves Ctrl-C to its parent alone.
    The terminal game ignores SIGTERM and SIGHUP too while it ends a game, so
    that a second signal cannot cut short the note and the record of the game:
    a closed terminal window sends SIGHUP once as it closes and may send it
    again. Only the main thread may set signal handlers; elsewhere this does
    nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    with signal_handlers(dict.fromkeys((signal.SIGINT, *also), signal.SIG_IGN)):
        yield


@contextmanager
def signal_handlers(handlers: Mapping[int, Handler]) -> Iterator[None]:
    """Handle the signals of ``handlers`` as it says for the duration, then as they were handled before."""
    previous: dict[int, Handler] = {}
    try:
        for signum, handler in handlers.items():
            previous[signum] = signal.signal(signum, handler)
        yield
    finally:  # those set before a refusal are put back too; None, one not set from Python, cannot be
        for signum, handler in previous.items():
            if handler is not None:
                signal.signal(signum, handler)


STOPPING: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop a command (Ctrl-C, and those :func:`ended_as_ctrl_c` raises as it)."""


@contextmanager
def deferred(*signums: int, wake: Callable[[], object] = lambda: None) -> Iterator[None]:
    """Within it, the signals ``signums`` are only noted, and the first raises as its handler would once it ends.

    A signal's handler raises wherever the main thread happens to be, and code
    that takes locks cannot always give them back: concurrent.futures' ``wait()``
    takes every future's lock in turn, and a Ctrl-C between two leaves the
    first held, so that the pool's shutdown waits for it for ever (a survey
    stopped by SIGHUP hung so, about once in 50). ``wake`` is called at the
    first signal, to end a wait at once rather than when it times out. Only
    signals handled by a Python function are deferred; only the main thread
    may set handlers, and elsewhere this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        if not noted:
            wake()
        noted.append(signum)

    handlers = {signum: handler for signum in signums if callable(handler := signal.getsignal(signum))}
    with signal_handlers(dict.fromkeys(handlers, note)):
        yield
    if noted:
        handlers[noted[0]](noted[0], None)


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


class Terminated(KeyboardInterrupt):
    """A signal that asks the process to end (SIGTERM; SIGHUP, the terminal closed), raised as Ctrl-C is.

    ``timeout``, a batch system, ``docker stop`` or a closed terminal window
    should stop a command as cleanly as Ctrl-C does: what is done is kept, and
    nothing is left half written. Being a KeyboardInterrupt, it takes the paths
    Ctrl-C takes; ``exit_code`` is the shell's for the signal (128 + its number).
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.exit_code = 128 + signum


@contextmanager
def ended_as_ctrl_c(*signums: int) -> Iterator[None]:
    """Within it, the signals ``signums`` raise :class:`Terminated` in the main thread; their handlers are restored after.

    Only the first is raised: the command is then on its way out, keeping what it
    has done, and a second would cut that short wherever it landed. A closed
    terminal window sends SIGHUP as it closes and may send it again, and the
    terminal game lost its record about one time in three to the second (the
    test of a closed window caught it). A signal the process was started
    ignoring (``nohup`` ignores SIGHUP) stays ignored.
    """
    raised = False

    def terminate(signum: int, frame: object) -> None:
        nonlocal raised
        if not raised:
            raised = True
            raise Terminated(signum)

    # a signal ignored from the start stays ignored: nohup stays nohup
    taken = [signum for signum in signums if signal.getsignal(signum) is not signal.SIG_IGN]
    with signal_handlers(dict.fromkeys(taken, terminate)):
        yield


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker, if it is not running, deaf to SIGHUP.

    The tracker ignores SIGINT and SIGTERM itself, but not SIGHUP. A closed
    terminal sends SIGHUP to every process of the command: the tracker would
    die, and the one started again in its place would print a traceback for
    each semaphore it never saw made. A signal blocked while the tracker
    starts stays blocked in it (the mask carries over exec); the parent takes
    its own SIGHUP, if one came meanwhile, as soon as the mask is put back.
    """
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})
    try:
        resource_tracker.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


@contextmanager
def held_while_workers_start() -> Iterator[None]:
    """While worker processes start: they ignore Ctrl-C for good, and a Ctrl-C, SIGTERM or SIGHUP that
    comes meanwhile is held back and takes effect at the end, rather than being lost or cutting a start
    in half (a half-made Dask cluster cannot even be closed).

    Processes started while Ctrl-C is ignored keep ignoring it (an ignored signal stays so across exec),
    which leaves Ctrl-C to the parent. Ignoring it in the parent too would lose one that came meanwhile;
    blocked as well, it waits (Linux keeps a blocked signal pending even while it is ignored) and is
    raised once the handler is back. SIGTERM and SIGHUP, where a handler of ours takes them (see
    :func:`ended_as_ctrl_c`), are noted and handled at the end. multiprocessing's resource tracker
    unblocks SIGINT once it has started, so it is started first. Threads started meanwhile block it
    as the main thread does; one started before could take a Ctrl-C and lose it, which is why the
    command keeps numpy from starting one for OpenBLAS (see :mod:`cardtable.cli.main`). The mask is
    put back as it was, so that holds may nest. Only the main thread may set handlers; elsewhere
    this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    start_resource_tracker()
    noted: list[int] = []

    def note(signum: int, frame: object) -> None:
        noted.append(signum)

    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # first: nothing can break in below
    ours: dict[int, Callable[[int, Any], Any]] = {}
    previous = None
    try:
        for signum in (signal.SIGTERM, signal.SIGHUP):
            handler = signal.getsignal(signum)
            if callable(handler):
                signal.signal(signum, note)
                ours[signum] = handler
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        for kind, taker in ours.items():
            signal.signal(kind, taker)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a Ctrl-C held back is raised here
        if noted:
            ours[noted[0]](noted[0], None)


NUDGE_AFTER: Final = 0.02
"""Seconds a watcher waits, after a signal, before it wakes a prompt that has not noticed it."""


@contextmanager
def signals_reach_the_prompt(*signums: int) -> Iterator[None]:
    """While lines are read with ``input()``, make the signals ``signums`` take effect at once.

    CPython's readline notices a signal only when it interrupts its wait for a
    key: one that lands while it is busy (showing the prompt, taking a typed
    key) would wait for the next key, so a Ctrl-C or a SIGTERM could seem
    lost. Each signal is written to a wakeup pipe; a watcher thread reading it
    then sends the main thread SIGUSR1, whose handler does nothing, to
    interrupt the wait, and the signal's own handler runs. Only the main thread
    may set handlers; elsewhere this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    stop = threading.Event()
    main = threading.main_thread().ident
    assert main is not None

    def watch() -> None:
        while not stop.is_set():
            arrived = os.read(read_end, 64)
            if any(signum in arrived for signum in signums):
                time.sleep(NUDGE_AFTER)
                if not stop.is_set():
                    signal.pthread_kill(main, signal.SIGUSR1)

    previous_usr1 = signal.signal(signal.SIGUSR1, lambda signum, frame: None)
    previous_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    watcher = threading.Thread(target=watch, name="signals-reach-the-prompt", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(previous_fd)
        stop.set()
        with suppress(BlockingIOError):  # a full pipe wakes it as well
            os.write(write_end, b"\0")  # wakes the watcher to see it must stop
        watcher.join()  # before SIGUSR1 is put back: its default would end the process
        signal.signal(signal.SIGUSR1, previous_usr1)
        os.close(read_end)
        os.close(write_end)
