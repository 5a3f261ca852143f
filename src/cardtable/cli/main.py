"""The ``cardtable`` command: a click group whose subcommands live in their own modules.

Subcommands are imported only when run, so ``cardtable games`` does not pay for
the server or the solver. Every :class:`CardtableError` becomes one line on
standard error and exit code 2, and so does output that cannot be written (a
full disk, or a terminal whose encoding has no card symbols); a traceback is
only ever a bug.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import importlib
import io
import os
import re
import sys
from typing import Any, Final, NoReturn

import click
from click.exceptions import NoArgsIsHelpError

from cardtable.core.errors import PATH_WIDTH, CardtableError, reason
from cardtable.interrupts import INTERRUPTED_EXIT, Terminated

# numpy (the solver's sweep uses its arrays, elementwise) starts a thread for OpenBLAS at import
# unless told not to. cardtable does no linear algebra, and a thread running before Ctrl-C is held
# back (interrupts.held_while_workers_start) could take a Ctrl-C and lose it, whatever the user's
# own setting for other programs. Worker processes inherit it.
os.environ["OPENBLAS_NUM_THREADS"] = "1"

# command name -> (module, attribute), in the order `--help` lists them
COMMANDS: Final[dict[str, tuple[str, str]]] = {
    "games": ("cardtable.cli.info", "games"),
    "rules": ("cardtable.cli.info", "rules"),
    "deal": ("cardtable.cli.info", "deal_command"),
    "moves": ("cardtable.cli.info", "moves"),
    "check": ("cardtable.cli.info", "check"),
    "play": ("cardtable.cli.play", "play"),
    "stats": ("cardtable.cli.stats", "stats"),
    "solve": ("cardtable.cli.solve", "solve"),
    "hint": ("cardtable.cli.solve", "hint"),
    "serve": ("cardtable.cli.serve", "serve"),
    "survey": ("cardtable.cli.survey", "survey"),
    "report": ("cardtable.cli.survey", "report"),
}


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when that command runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module_name, attribute = COMMANDS[cmd_name]
        command = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        """The group's own options read; a bad one (``cardtable --bogus``) in one line, as a command's are."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except NoArgsIsHelpError:
            raise  # 'cardtable' alone: the help, as click shows it
        except click.UsageError as error:
            _complain(_usage_text(error))

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command, turning what may escape it into one line on standard error and an exit code.

        Here, around every command, so that no command can forget one, and
        inside click's ``main``, which would print some of these its own way.
        Each kind, and why it is caught:

        * :class:`CardtableError`: the user's input or files were wrong; its
          message already says what and where, so it is all there is to say (2).
        * :class:`click.UsageError`: click's refusal of a command's arguments
          (a missing argument, an option out of range), which click would print
          over four lines with the usage; one line names the ``--help`` (2).
        * :class:`Terminated`: SIGTERM or SIGHUP, raised once the command has
          ended what it was doing; caught before KeyboardInterrupt, which it
          is, since its exit code is the shell's for the signal. Output still
          held is flushed if it can be, then dropped.
        * :class:`KeyboardInterrupt`: a Ctrl-C before a command took it as its
          own (while still loading, say), where click would print "Aborted!".
        * :class:`OSError` of :data:`OUTPUT_ERRNOS` only: standard output takes
          no more (``> /dev/full``, a full disk). A broken pipe is left to
          click, which ends quietly; anything else is a bug to see.
        * :class:`UnicodeEncodeError` of standard output's or standard error's
          encoding only: a locale without UTF-8 cannot show the card symbols,
          which the user can mend; another encoding failing is a bug.
        """
        _surrogates_escaped()
        try:
            return super().invoke(ctx)
        except CardtableError as error:
            _complain(str(error))
        except click.UsageError as error:  # click's own refusals: a missing argument, an option out of range
            _complain(_usage_text(error))
        except Terminated as stop:  # SIGTERM or SIGHUP, once the command has ended what it was doing
            with contextlib.suppress(OSError, ValueError):
                sys.stdout.flush()
            _drop_output()
            sys.exit(stop.exit_code)
        # a Ctrl-C before a command took it as its own (still loading, say): not click's "Aborted!"
        except KeyboardInterrupt:
            with contextlib.suppress(OSError):
                click.echo("cardtable: interrupted", err=True)
            sys.exit(INTERRUPTED_EXIT)
        except OSError as error:
            if error.errno not in OUTPUT_ERRNOS:
                raise  # a broken pipe is click's to end quietly; anything else is a bug to see
            _drop_output()
            _complain(f"cannot write the output: {reason(error)}")
        except UnicodeEncodeError as error:
            if not _is_output_encoding(error.encoding):
                raise  # a file cardtable writes is UTF-8: another encoding failing is a bug
            _complain(
                f"the output's encoding ({error.encoding}) cannot show the card symbols:"
                " use a UTF-8 locale (such as LANG=C.UTF-8) or set PYTHONIOENCODING=utf-8"
            )


OUTPUT_ERRNOS: Final = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
"""What an OSError that escapes a command means when it is one of these: the output would not take more.

A command turns the errors of the files it reads and writes into CardtableErrors
itself, so these come from writing standard output: ``> /dev/full``, a full disk.
"""


def _drop_output() -> None:
    """Send standard output to /dev/null: what it still holds is lost already, and flushing it
    as Python exits would fail again, print a traceback and make the exit code 120."""
    with contextlib.suppress(OSError, ValueError):  # no file behind it (CliRunner): nothing to flush
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _surrogates_escaped() -> None:
    """Standard output and error in UTF-8 write a lone surrogate as its escape (``\\ud800``).

    JSON lets one into a file's text, and a message naming that text could not
    be written otherwise: the failure would be blamed on the locale, which is
    not at fault. What messages quote is escaped already
    (:func:`cardtable.core.errors.excerpt`, as the server's refusals are in
    ``cardtable.server.errors``); this catches the rest, such as a pile's name
    in a rule's reason. Other encodings are left as they are, so that a locale
    without UTF-8 is still told (see :meth:`LazyGroup.invoke`).
    """
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "ascii"
        if codecs.lookup(encoding).name == "utf-8" and isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def _is_output_encoding(encoding: str) -> bool:
    """Whether ``encoding`` is that of standard output or standard error (a locale without UTF-8)."""
    streams = (sys.stdout, sys.stderr)
    return any(codecs.lookup(encoding).name == codecs.lookup(s.encoding or "utf-8").name for s in streams)


def _usage_text(error: click.UsageError) -> str:
    """Click's refusal in one line, as cardtable's own are, naming the help that shows the usage.

    Click would print the usage, a hint and the error on four lines.
    """
    message = error.format_message().rstrip(".")
    message = message[:1].lower() + message[1:]
    # and the reason after "invalid value for '--db': ", a sentence of click's too ("File '/tmp' is ...")
    message = re.sub(r"^(invalid value for [^:]+: )([A-Z][a-z])", lambda m: m[1] + m[2].lower(), message)
    # and what click quotes whole, however long (a number of 5,000 digits), cut as cardtable's own messages cut input
    message = re.sub(rf"\S{{{PATH_WIDTH},}}", lambda m: f"{m[0][: PATH_WIDTH - 3]}...", message)
    return f"{message} (see '{error.ctx.command_path} --help')" if error.ctx is not None else message


def _complain(message: str) -> NoReturn:
    """One line on standard error (if it takes it) and exit code 2."""
    with contextlib.suppress(OSError):
        click.echo(f"cardtable: {message}", err=True)
    sys.exit(2)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardtable")
def main() -> None:
    """Play, solve and study patience games."""
