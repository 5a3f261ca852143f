"""The command line's files: text read whole or a piece at a time, gzip or not, from a file or ``-``
for standard input; files written whole or not at all (:class:`Staging`, :func:`replaced`).

Every command reads and writes through these, so each bad file fails the same
way everywhere: one line naming the file and the problem, exit code 2 (see
:mod:`cardtable.cli.main`), and a file written is never left half written.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import stat
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any, Final, TypeVar, cast

import click

from cardtable.core.errors import PATH_WIDTH, CardtableError, quoted, reason
from cardtable.formats import MAX_VALUE, record_kind
from cardtable.games import GAMES, find_game

STDIN: Final = "-"
STDOUT: Final = "-"
"""The name an export is given to go to standard output, as ``check`` reads ``-`` from standard input."""
GZIP_MAGIC: Final = b"\x1f\x8b"
Parsed = TypeVar("Parsed")


class InputFileError(CardtableError, OSError):
    """A file named on the command line that cannot be read as text."""


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
                f"cannot read {quoted(path, PATH_WIDTH)}: longer than {MAX_VALUE // 2**20} MiB, far more than it can be"
            )
    return "".join(pieces)


def text_pieces(path: str) -> Iterator[str]:
    """The text of a file, or of standard input for ``-``, a piece at a time; InputFileError if unreadable.

    A gzip-compressed file is read as the text it holds, whatever its name, so
    a large file of solutions can be kept compressed and checked as it is.
    """
    if (unnamable := name_problem(path)) is not None:
        raise InputFileError(f"cannot read {quoted(path, PATH_WIDTH)}: {unnamable}")
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
        raise InputFileError(f"cannot read {quoted(path, PATH_WIDTH)}: not UTF-8 text") from None
    except (EOFError, gzip.BadGzipFile, zlib.error):
        raise InputFileError(
            f"cannot read {quoted(path, PATH_WIDTH)}: a damaged or incomplete gzip file"
        ) from None
    except OSError as problem:
        raise InputFileError(f"cannot read {quoted(path, PATH_WIDTH)}: {_reason(problem, path)}") from None


@contextmanager
def _opened(path: str) -> Iterator[io.BufferedReader]:
    """The file's bytes, buffered so that its first bytes can be looked at; standard input is left open."""
    if path != STDIN:
        with open(path, "rb") as file:
            yield file
        return
    stdin = sys.stdin.buffer  # CliRunner's too: it replaces sys.stdin
    yield stdin if isinstance(stdin, io.BufferedReader) else io.BufferedReader(cast(io.RawIOBase, stdin))


def name_problem(path: str) -> str | None:
    """Why ``path`` can name no file, or None: it holds a NUL character, which no file system takes.

    Python's file functions raise ValueError for one, not the OSError every
    other bad name gives, and a name typed in ``play`` (``save``) can hold one.
    """
    return "a file name cannot hold a null character" if "\0" in path else None


class FileName(click.Path):
    """click's Path, which refuses a name that can name no file (see :func:`name_problem`) in one
    line, where its look at the file would raise ValueError."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and (problem := name_problem(value)) is not None:
            self.fail(f"{value!r}: {problem}", param, ctx)
        return super().convert(value, param, ctx)


def _reason(problem: OSError, path: str) -> str:
    """The operating system's words, with a hint when a game id was taken for a file name."""
    words = reason(problem)
    if (game := find_game(path)) is None:
        return words
    return f"{words} (for a numbered deal give the game and a number: {game.id} 42)"


def read_file(path: str, parse: Callable[[str], Parsed]) -> Parsed:
    """A file read by ``parse``; a mistake in it is told with the file's name.

    ``solve`` and ``hint`` take several files at once, and a message that does
    not say which one was wrong leaves the user to guess.
    """
    text = read_text(path)
    try:
        return parse(text)
    except CardtableError as problem:
        said = _several_values(text) or f"{problem}{_picture_hint(text)}"
        raise type(problem)(f"{source_name(path)}: {said}") from None


def source_name(path: str) -> str:
    """How a message names a file read: "standard input" for ``-``, else its name in quotes."""
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
        if isinstance(problem, BrokenPipeError) and self._to_standard_output(self._at):
            return  # output stopped by a closed pipe (| head): click ends the command quietly, as any other
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
        if (problem := name_problem(path)) is not None:
            raise self.error(path, f"{problem}; {self._written_words()}")
        if self._to_standard_output(path):
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

    def _to_standard_output(self, path: str) -> bool:
        """Whether ``path`` is standard output: ``-`` where :attr:`dash` says so, or a path to its file."""
        return (self.dash and path == STDOUT) or goes_to_standard_output(path)

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


SEVERAL: Final = {
    "solution": "solutions, one a line, as 'cardtable solve --json' writes them; 'cardtable check' replays them",
    "deal": "deals",
    "saved game": "saved games",
}
"""What a file of several JSON values holds, by the kind of its first (see :func:`record_kind`)."""


def _several_values(text: str) -> str | None:
    """What is wrong with a text of several JSON values one after another, for a command that reads one; else None.

    Such as the JSON Lines of ``cardtable solve --json`` on several deals,
    which the json module calls "extra data" after the first.
    """
    decoder = json.JSONDecoder()
    try:
        first, end = decoder.raw_decode(text, len(text) - len(text.lstrip()))
        decoder.raw_decode(text, len(text) - len(text[end:].lstrip()))  # a second value, not a stray word
    except (ValueError, RecursionError):  # not JSON (or nested too deeply), or one value and no other
        return None
    held = SEVERAL.get(record_kind(first) or "")
    return f"several json values one after another{f' ({held})' if held else ''}, where a deal file holds one deal"


def _picture_hint(text: str) -> str:
    """A hint for a file holding the picture ``cardtable deal`` prints, not a deal: an easy mix-up."""
    first = text.lstrip().partition("\n")[0]
    if not any(first.startswith(spec.name) for spec in GAMES.values()):
        return ""
    return " (this is the picture 'cardtable deal' prints; 'cardtable deal GAME N --json' writes a deal file)"
