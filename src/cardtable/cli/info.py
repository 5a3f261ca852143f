"""The commands that look without playing: ``games``, ``rules``, ``deal``, ``moves``, ``check``.

They also hold what every command needs to read its arguments and files and
write its own: a position from a game id and deal number, a deal file or ``-``
for standard input; text read whole or a piece at a time, gzip or not; files
written whole or not at all (:func:`replaced`); a deal number that may be
negative (:class:`DealNumberCommand`). So each bad input fails the same way
everywhere: one line naming the problem, exit code 2 (see :mod:`cardtable.cli.main`).
"""

from __future__ import annotations

import contextlib
import gzip
import io
import itertools
import os
import re
import shutil
import stat
import sys
import tempfile
import textwrap
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any, Final, TypeVar, cast

import click

from cardtable.core.deals import deal, parse_deal_number
from cardtable.core.errors import CardtableError, InvalidSolutionError, reason
from cardtable.core.move import REDEAL, Move
from cardtable.core.state import State
from cardtable.formats import (
    MAX_VALUE,
    RESULTS,
    deal_to_json,
    move_to_json,
    read_position,
    replay,
    solutions_or_problems,
)
from cardtable.games import GAMES, find_game, load_game, options_note
from cardtable.interop import solvitaire
from cardtable.render.text import console, fitting_width, layout, reflow, wrap

STDIN: Final = "-"
STDOUT: Final = "-"
"""The name an export is given to go to standard output, as ``check`` reads ``-`` from standard input."""
GZIP_MAGIC: Final = b"\x1f\x8b"
Parsed = TypeVar("Parsed")
Record = TypeVar("Record")
NEGATIVE_NUMBER: Final = re.compile(r"-[0-9]+")


class DealNumberCommand(click.Command):
    """A command with a deal number among its arguments: ``-3`` reaches the deal-number check, which
    says what is wrong with it, where click would take it for an option it does not know.

    Anything else that starts with a dash and is no option of the command is
    refused as click refuses it (``no such option: --tmeout``, with what it may
    have meant), rather than read as a file or a game's name.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["context_settings"] = {**kwargs.get("context_settings", {}), "ignore_unknown_options": True}
        super().__init__(*args, **kwargs)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        options = [param for param in self.get_params(ctx) if isinstance(param, click.Option)]
        known = {name for option in options for name in (*option.opts, *option.secondary_opts)}
        valued = {name for option in options if not option.is_flag for name in option.opts}
        given = iter(args[: args.index("--")] if "--" in args else args)
        for arg in given:
            name, equals, _ = arg.partition("=")
            if name in valued and not equals:  # its value may start with a dash: --timeout -1
                next(given, None)
            elif (
                arg.startswith("-")
                and arg != STDIN
                and not NEGATIVE_NUMBER.fullmatch(arg)
                and name not in known
            ):
                raise click.NoSuchOption(name, possibilities=sorted(known), ctx=ctx)
        return super().parse_args(ctx, args)


class InputFileError(CardtableError, OSError):
    """A file named on the command line that cannot be read as text."""


class OptionConflictError(CardtableError, ValueError):
    """Command-line options or arguments that cannot go together."""


# -- turning arguments into positions -----------------------------------------


def numbered_deal(game: str, number: str) -> State:
    """The starting position of deal ``number`` of ``game`` (an id, options allowed)."""
    return deal(load_game(game), parse_deal_number(number))


PIECE: Final = 2**20
"""Characters read at a time: files of solutions run to gigabytes, and are never read whole."""


def read_text(path: str) -> str:
    """The text of a file, or of standard input for ``-``; InputFileError if unreadable.

    For a deal, a position or a save, which are small: a text longer than any
    of them can be (``/dev/zero``, say) is refused once that much is read.
    """
    pieces, size = [], 0
    for piece in text_pieces(path):
        pieces.append(piece)
        size += len(piece)
        if size > MAX_VALUE:
            raise InputFileError(
                f"cannot read {path!r}: longer than {MAX_VALUE // 2**20} MiB, far more than it can be"
            )
    return "".join(pieces)


def text_pieces(path: str) -> Iterator[str]:
    """The text of a file, or of standard input for ``-``, a piece at a time; InputFileError if unreadable.

    A gzip-compressed file is read as the text it holds, whatever its name, so
    a large file of solutions can be kept compressed and checked as it is.
    """
    try:
        with _opened(path) as raw:
            compressed = raw.peek(len(GZIP_MAGIC)).startswith(GZIP_MAGIC)
            text = io.TextIOWrapper(gzip.GzipFile(fileobj=raw) if compressed else raw, encoding="utf-8-sig")
            try:
                while piece := text.read(PIECE):
                    yield piece
            finally:
                text.detach()  # closing it would close standard input, which 'solve - -' reads twice
    except UnicodeDecodeError:
        raise InputFileError(f"cannot read {path!r}: not UTF-8 text") from None
    except (EOFError, gzip.BadGzipFile, zlib.error):
        raise InputFileError(f"cannot read {path!r}: a damaged or incomplete gzip file") from None
    except OSError as problem:
        raise InputFileError(f"cannot read {path!r}: {_reason(problem, path)}") from None


@contextmanager
def _opened(path: str) -> Iterator[io.BufferedReader]:
    """The file's bytes, buffered so that its first bytes can be looked at; standard input is left open."""
    if path != STDIN:
        with open(path, "rb") as file:
            yield file
        return
    stdin = sys.stdin.buffer  # CliRunner's too: it replaces sys.stdin
    yield stdin if isinstance(stdin, io.BufferedReader) else io.BufferedReader(cast(io.RawIOBase, stdin))


def _reason(problem: OSError, path: str) -> str:
    """The operating system's words, with a hint when a game id was taken for a file name."""
    words = reason(problem)
    if find_game(path) is None:
        return words
    return f"{words} (for a numbered deal give the game and a number: {path} 42)"


def read_file(path: str, parse: Callable[[str], Parsed]) -> Parsed:
    """A file read by ``parse``; a mistake in it is told with the file's name.

    ``solve`` and ``hint`` take several files at once, and a message that does
    not say which one was wrong leaves the user to guess.
    """
    text = read_text(path)
    try:
        return parse(text)
    except CardtableError as problem:
        raise type(problem)(f"{_where(path)}: {problem}{_picture_hint(text)}") from None


def _where(path: str) -> str:
    return "standard input" if path == STDIN else repr(path)


@contextmanager
def replaced(path: str, error: Callable[[str, str], CardtableError]) -> Iterator[IO[str]]:
    """A new file beside ``path`` to write, put in ``path``'s place only once the block is done.

    So a save or an export that fails part way, a full disk or a bad line
    read, leaves whatever ``path`` held before (see :class:`Staging`, which
    does this for several files at once).
    """
    with Staging(error) as staging, staging.text(path) as file:
        yield file


class Staging:
    """Files written beside their places, and put in them one after another once every one is whole.

    Used as a context: the files are put in place as the block ends, or, if
    it fails, removed, so that every file keeps what it held. Anything raised
    goes on, a file system's complaint as ``error(path, why)``: ``path`` the
    file it concerns, ``why`` the reason and what was written all the same
    ("nothing was written", or the files put in place before it, and those
    written as they were). A ``path`` ending in ``.gz`` is written
    gzip-compressed (with no name or time stamp, so the same text gives the
    same bytes), which :func:`read_text` reads back.

    Only an ordinary file is replaced. A symbolic link keeps pointing where it
    did: the file it names is replaced. A pipe or a device (``/dev/null``,
    ``>(wc -l)``) is written to as it is and at once, since it cannot be put
    back as it was; so is standard output, named by a path to the same file
    (``/dev/stdout`` sent on with ``>>``), or ``-`` where ``dash`` says so (an
    export, not a save), which is written on, never truncated or replaced.
    """

    def __init__(self, error: Callable[[str, str], CardtableError], *, dash: bool = False) -> None:
        self.error = error
        self.dash = dash
        """Whether ``-`` names standard output, not a file of that name."""
        self._at = ""
        """The file being written or put in place, as given: the one a file system's complaint concerns."""
        self._ready: list[tuple[str, str, str]] = []
        """(the new file, the file it replaces, the name given) for each file written whole."""
        self._written: list[str] = []
        """Every new file made, to remove if the block fails."""
        self._done: list[str] = []
        """The names of the files written for good: streams written, files put in place."""

    def __enter__(self) -> Staging:
        return self

    def __exit__(self, kind: object, problem: BaseException | None, trace: object) -> None:
        try:
            if problem is None:
                self._put_in_place()
                return
        except OSError as failed:
            problem = failed
        self._discard()
        if isinstance(problem, OSError) and not isinstance(problem, CardtableError):
            raise self.error(self._at, f"{reason(problem)}; {self._written_words()}") from None

    @contextmanager
    def text(self, path: str) -> Iterator[IO[str]]:
        """A file to write text into, for ``path``."""
        with self._raw(path) as raw, _text(raw, path) as file:
            yield file

    def data(self, path: str, data: bytes) -> None:
        """Bytes for ``path``, such as a picture."""
        with self._raw(path) as raw:
            raw.write(data)

    @contextmanager
    def _raw(self, path: str) -> Iterator[IO[bytes]]:
        self._at = path
        if (self.dash and path == STDOUT) or goes_to_standard_output(path):
            click.get_text_stream("stdout").flush()  # what was printed before comes first
            with _Borrowed(click.get_binary_stream("stdout")) as stream:
                yield cast(IO[bytes], stream)
            self._done.append(path)
            return
        if is_stream(path):
            with open(path, "wb") as stream:
                yield stream
            self._done.append(path)
            return
        target = os.path.realpath(path)
        with tempfile.NamedTemporaryFile(
            "wb", dir=os.path.dirname(target), suffix=".tmp", delete=False
        ) as raw:
            self._written.append(raw.name)
            yield raw
        self._ready.append((raw.name, target, path))

    def _put_in_place(self) -> None:
        for temporary, target, _ in self._ready:
            os.chmod(temporary, _mode_for(target))
        for temporary, target, given in self._ready:
            self._at = given
            os.replace(temporary, target)
            self._done.append(given)

    def _discard(self) -> None:
        for temporary in self._written:
            with contextlib.suppress(OSError):
                os.remove(temporary)

    def _written_words(self) -> str:
        """What was written for good before the failure, in words."""
        if not self._done:
            return "nothing was written"
        names = " and ".join("standard output" if name == STDOUT else repr(name) for name in self._done)
        return f"only {names} {'was' if len(self._done) == 1 else 'were'} written"


class _Borrowed(io.RawIOBase):
    """A stream written through and flushed, never closed: standard output, which the command still prints to."""

    def __init__(self, stream: IO[bytes]) -> None:
        super().__init__()
        self._stream = stream

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        return self._stream.write(data)

    def close(self) -> None:
        if not self.closed:
            self._stream.flush()
        super().close()


def goes_to_standard_output(path: str) -> bool:
    """Whether ``path`` names the file standard output goes to (``/dev/stdout``, the file it is sent to)."""
    try:
        given, out = os.stat(path), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):  # no such file, or no real standard output
        return False
    return (given.st_dev, given.st_ino) == (out.st_dev, out.st_ino)


def is_stream(path: str) -> bool:
    """Whether ``path`` is a pipe or a device, which is written to rather than replaced."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def _text(raw: IO[bytes], path: str) -> io.TextIOWrapper:
    """Text written as UTF-8 into ``raw``, gzip-compressed for a ``path`` ending in ``.gz``."""
    compressed = gzip.GzipFile("", "wb", fileobj=raw, mtime=0) if path.endswith(".gz") else None
    return io.TextIOWrapper(compressed or raw, encoding="utf-8")


def _mode_for(path: str) -> int:
    """The permissions a file written at ``path`` gets: those of the file it replaces, else the umask's.

    A temporary file is made readable by its owner only; a save or an export
    is an ordinary file, meant to be shared as any other the user writes.
    """
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _picture_hint(text: str) -> str:
    """A hint for a file holding the picture ``cardtable deal`` prints, not a deal: an easy mix-up."""
    first = text.lstrip().partition("\n")[0]
    if not any(first.startswith(spec.name) for spec in GAMES.values()):
        return ""
    return " (this is the picture 'cardtable deal' prints; 'cardtable deal GAME N --json' writes a deal file)"


def position(source: str, number: str | None) -> State:
    """``GAME N`` when a number is given, else ``FILE`` or ``-`` holding a deal or a saved game."""
    if number is not None and find_game(source) is None and os.path.exists(source):
        raise OptionConflictError(
            f"{source!r} is a file, and one is enough: {number!r} is one argument too many"
        )
    if number is not None:
        return numbered_deal(source, number)
    return read_file(source, read_position)


def sorted_lines(lines: list[str]) -> list[str]:
    """Lines in byte order, as ``LC_ALL=C sort`` would put them, whatever the locale."""
    return sorted(lines, key=lambda line: line.encode("utf-8"))


# -- the commands ---------------------------------------------------------------


RULES_WIDTH: Final = 80
"""The width the rules are written in: a terminal at least this wide shows them as they are."""


def terminal_width() -> int | None:
    """The width of the terminal standard output goes to, or None for a file or a pipe, which keep whole lines."""
    return shutil.get_terminal_size().columns if click.get_text_stream("stdout").isatty() else None


def echo(text: str) -> None:
    """Print a line on standard output in the output's own encoding, as the game's layouts are printed.

    click.echo alone takes an ASCII output for a mistake and writes UTF-8 to it
    anyway; a card symbol that the output cannot show should instead end the
    command with the advice of :func:`cardtable.cli.main.main`, whichever
    command prints it.
    """
    click.echo(text, file=sys.stdout)


def echo_fitted(text: str) -> None:
    """Print prose, on a terminal wrapped between words to its width: the terminal would cut words in two."""
    echo(wrap(text, terminal_width()))


@click.command()
def games() -> None:
    """List the games: id, name and a one-line summary (on a narrow terminal, going on under the name)."""
    width = max(len(game_id) for game_id in GAMES)
    for spec in GAMES.values():
        line = wrap(f"  {spec.id.ljust(width)}  {spec.name}: {spec.summary}", terminal_width())
        echo("\n".join(part[2:] for part in line.split("\n")))  # wrapped as an indented list


@click.command()
@click.argument("game")
def rules(game: str) -> None:
    """Print the rules of GAME in plain words.

    GAME may carry options, such as 'alexander-the-great-lucie(redeals=0)'.
    """
    spec = load_game(game)
    title, _, rest = spec.rules.rstrip("\n").partition("\n")
    note = options_note(spec)
    text = title + ("" if note is None else f"\n\n{textwrap.fill(note, width=RULES_WIDTH)}") + f"\n{rest}"
    width = terminal_width()
    echo(reflow(text, width) if width is not None and width < RULES_WIDTH else text)


DEAL_FORMATS: Final = ("cardtable", "solvitaire", "solvitaire-rules")


@click.command(name="deal", cls=DealNumberCommand)
@click.argument("game")
@click.argument("number")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(DEAL_FORMATS),
    default=None,
    help="Print JSON instead of the picture: our deal format, Solvitaire's deal, or Solvitaire's rules.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the deal in our JSON deal format (--format cardtable)."
)
def deal_command(game: str, number: str, fmt: str | None, as_json: bool) -> None:
    """Show deal NUMBER (1 to 2147483647) of GAME.

    Every face-up card is shown, bottom to top, left to right: the last card of
    a line is the one that plays. A stock is face down, and shows its count
    (--json gives its cards too). Red cards are red where the terminal has colour.

    --format solvitaire writes the deal as Solvitaire's deal file, and
    --format solvitaire-rules the rules file that makes Solvitaire play our
    rules (solvitaire --custom-rules RULES DEAL). Only games whose rules
    Solvitaire can state work: fan and alexander-the-great-lucie(redeals=0).
    """
    if as_json and fmt not in (None, "cardtable"):
        raise OptionConflictError(f"--json means --format cardtable: it cannot go with --format {fmt}")
    state = numbered_deal(game, number)
    if as_json or fmt == "cardtable":
        echo(deal_to_json(state))
    elif fmt is not None:
        echo(_solvitaire_text(state, fmt))
    else:
        out = console()
        out.print(layout(state, fitting_width(out)))


def _solvitaire_text(state: State, fmt: str) -> str:
    """Solvitaire's deal or rules JSON (see :mod:`cardtable.interop.solvitaire`)."""
    return solvitaire.rules_json(state.spec) if fmt == "solvitaire-rules" else solvitaire.deal_json(state)


@click.command(cls=DealNumberCommand)
@click.argument("source", metavar="FILE|GAME")
@click.argument("number", required=False, metavar="[N]")
def moves(source: str, number: str | None) -> None:
    """Print every legal move, one JSON move per line.

    With one argument, the position is the deal file FILE ('-' reads standard
    input), or a saved game where its moves left it; with two, it is deal N of
    GAME. Lines are sorted as byte strings, like 'LC_ALL=C sort', so the output
    can be compared with other tools'. An allowed redeal prints the fans it
    makes; a position with no legal move prints nothing.
    """
    state = position(source, number)
    for line in sorted_lines([move_to_json(_as_written(state, move)) for move in state.legal_moves]):
        echo(line)


def _as_written(state: State, move: Move) -> Move:
    """``move`` as formats.md writes it: a redeal with the fans it makes, which the deal's seed fixes."""
    return Move.redeal(state.redeal_fans()) if move.kind == REDEAL else move


@click.command()
@click.argument("file", metavar="FILE")
def check(file: str) -> None:
    """Replay the solution in FILE ('-' reads standard input), or the several solutions it holds.

    Prints 'ok N moves' and exits 0 if every move is legal and the moves
    bear out the result: a 'won' solution's end in a win, an 'unwinnable' or
    'unknown' one's do not. That an 'unwinnable' deal truly cannot be won no
    replay can show, and 'ok' says so; 'cardtable solve' searches it again.
    Otherwise prints 'not ok: ' and the first problem, such as the first
    illegal move and why, and exits 1. A file that is not a solution at all
    fails with exit code 2.

    A file may hold several solutions one after another, such as the JSON
    Lines of 'cardtable solve --json' on several deals: then each one that
    fails, or is no solution though it is JSON, gets its own 'not ok' line,
    naming it, and a last line sums up.
    """
    solutions = _named_errors(file, solutions_or_problems(text_pieces(file)))
    first = next(solutions)
    second = next(solutions, None)
    if second is None:
        if isinstance(first, InvalidSolutionError):  # one record, and no solution: no file check reads
            raise InvalidSolutionError(f"{_where(file)}: {first}")
        result = replay(first)
        if result.problem is not None:
            echo(f"not ok: {result.problem}")
            click.get_current_context().exit(1)
        echo(f"ok {result.legal_moves} moves{UNCHECKED if first.result == 'unwinnable' else ''}")
        return
    failed, moves, results = 0, 0, Counter[str]()
    for number, solution in enumerate(itertools.chain((first, second), solutions), 1):
        if isinstance(solution, InvalidSolutionError):  # named with its number and line already
            failed += 1
            echo(f"not ok: {solution}")
            continue
        result = replay(solution)
        if result.problem is not None:
            failed += 1
            echo(f"not ok: solution {number} ({position_label(solution.deal)}): {result.problem}")
        else:
            moves += result.legal_moves
            results[solution.result] += 1
    total = failed + sum(results.values())
    if failed:
        echo(f"not ok: {failed} of {total} solutions")
        click.get_current_context().exit(1)
    verdicts = ", ".join(f"{results[verdict]} {verdict}" for verdict in RESULTS if results[verdict])
    echo(f"ok {total} solutions ({verdicts}), {moves} moves{UNCHECKED if results['unwinnable'] else ''}")


UNCHECKED: Final = "; an unwinnable claim is not checked: a replay can prove only a win"
"""What ``check`` adds when it passes an ``unwinnable``: its moves are legal and do not win, and that is all."""


def _named_errors(path: str, records: Iterator[Record]) -> Iterator[Record]:
    """``records`` read from ``path``, a mistake in them told with the file's name, as :func:`read_file` tells it."""
    try:
        yield from records
    except CardtableError as problem:
        if isinstance(problem, InputFileError):
            raise
        raise type(problem)(f"{_where(path)}: {problem}") from None


def position_label(state: State) -> str:
    """A position as the output names it: ``fan deal 3``, or the game alone for a position not dealt by number."""
    if state.deal_number is None:
        return state.spec.id
    return f"{state.spec.id} deal {state.deal_number}"
