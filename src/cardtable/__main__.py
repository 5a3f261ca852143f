"""The ``cardtable`` command's entry point, for its script and for ``python -m cardtable``.

Loading the command line (click, rich and cardtable's own modules) takes most of
the time before a command starts. A Ctrl-C that comes meanwhile ends the
command as one that comes later does, not with a traceback of the imports.
Python loads the package itself (``cardtable/__init__.py``, the rules) before
this runs, and a Ctrl-C in that first tenth of a second still shows one.
"""

import contextlib
import signal
import sys


def run() -> None:
    """Load the command line and run it."""
    try:
        from cardtable.cli.main import main
    except KeyboardInterrupt:
        with contextlib.suppress(OSError):
            print("cardtable: interrupted", file=sys.stderr)
        sys.exit(128 + signal.SIGINT)  # the shell's code for Ctrl-C, as cardtable.interrupts.INTERRUPTED_EXIT
    main()


if __name__ == "__main__":
    run()
