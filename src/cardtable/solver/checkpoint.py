"""A sweep's :class:`~cardtable.solver.sweep.Checkpoint` kept in a file, so that an exact sweep can outlast its process.

Deal 859's exact sweep took two hours and 17 GB; some take longer than anyone
will leave one process running. ``benchmarks/sweep.py --checkpoint FILE``
writes one now and then, and goes on from it when run again.

The file is a first line naming the format, a line of JSON (the position's
key, where the sweep stands, its counts, the foundation classes, and the
length of every array that follows), then the arrays' machine words as they
lie in memory, written straight from the sweep's own arrays: a checkpoint of
10 GB needs no second 10 GB to be written. A new checkpoint replaces the old
only once it is whole on disk, so a process stopped while writing loses
nothing. A file that is not one, or is cut short, raises
:class:`~cardtable.core.errors.InvalidCheckpointError`.
"""

from __future__ import annotations

import json
import os
from array import array
from pathlib import Path
from typing import IO, Any, Final

import numpy as np

from cardtable.core.errors import InvalidCheckpointError, reason
from cardtable.solver.sweep import Checkpoint, Waiting
from cardtable.solver.wastes import Keys

MAGIC: Final = b"cardtable sweep checkpoint 1\n"
"""The first line.

Its number goes up whenever what the file holds, or what its words mean,
changes: how a rest's fields sit in a word (the start's key would tell most
of that), or how :class:`~cardtable.solver.wastes.WasteSets` packs a set's tops
(``TOP_BITS``, ``PAIR_SHIFT``).
"""
NAME_CHUNK: Final = 1 << 16
"""Names of several tops turned into bytes at once as they are written: not all 12 million of deal 668's at its 65th card."""


def write(path: str | Path, checkpoint: Checkpoint, seconds: float = 0.0) -> None:
    """Keep ``checkpoint`` in ``path``, with the ``seconds`` the sweep has run so far, replacing what was there only once it is whole."""
    path = Path(path)
    packed, several, _ = checkpoint.sets
    widths = array("H", ((name.bit_length() + 7) // 8 for name in several))
    header = {
        "root": checkpoint.root,
        "dealt": checkpoint.dealt,
        "seconds": seconds,
        "counts": checkpoint.counts,
        "classes": checkpoint.classes,
        "nodes": len(packed),
        "names": len(several),
        "name_bytes": sum(widths),
        "levels": [
            [dealt, home, merged, [len(batch) for batch in rests]]
            for (dealt, home), (rests, _, merged) in checkpoint.levels.items()
        ],
        "waiting": [[stacked, len(rests)] for stacked, (rests, _) in checkpoint.waiting.items()],
    }
    written = partial(path)
    try:
        _write(written, header, checkpoint, widths)
    except BaseException:
        written.unlink(missing_ok=True)
        raise
    os.replace(written, path)


def partial(path: Path) -> Path:
    """Where a checkpoint is written before it replaces the one in ``path``."""
    return path.with_name(path.name + ".partial")


def _write(to: Path, header: dict[str, Any], checkpoint: Checkpoint, widths: array[int]) -> None:
    packed, several, dealt_on = checkpoint.sets
    with to.open("wb") as out:
        out.write(MAGIC)
        out.write(json.dumps(header).encode() + b"\n")
        packed.tofile(out)
        dealt_on.tofile(out)
        widths.tofile(out)
        for start in range(0, len(several), NAME_CHUNK):
            chunk = zip(several[start : start + NAME_CHUNK], widths[start : start + NAME_CHUNK])
            out.write(b"".join(name.to_bytes(width, "little") for name, width in chunk))
        for rests, nodes, _ in checkpoint.levels.values():
            for rests_batch, nodes_batch in zip(rests, nodes):
                rests_batch.tofile(out)
                nodes_batch.tofile(out)
        for rests_waiting, nodes_waiting in checkpoint.waiting.values():
            rests_waiting.tofile(out)
            nodes_waiting.tofile(out)
        out.flush()
        os.fsync(out.fileno())


def read(path: str | Path) -> tuple[Checkpoint, float]:
    """The checkpoint kept in ``path``, and the seconds its sweep had run."""
    path = Path(path)
    try:
        with path.open("rb") as source:
            return _read(source, path)
    except OSError as error:
        raise InvalidCheckpointError(f"cannot read the checkpoint {str(path)!r}: {reason(error)}") from None


def _read(source: IO[bytes], path: Path) -> tuple[Checkpoint, float]:
    where = f"the checkpoint {str(path)!r}"
    if source.readline(len(MAGIC)) != MAGIC:  # not a whole line: a file of gigabytes may have no newline
        raise InvalidCheckpointError(f"{where} is not a sweep's checkpoint: its first line is not {MAGIC!r}")
    try:
        header = json.loads(source.readline())
        result = _body(source, header)
    except (ValueError, KeyError, TypeError, EOFError) as error:
        raise InvalidCheckpointError(f"{where} is damaged or cut short ({error})") from None
    if source.read(1):
        raise InvalidCheckpointError(f"{where} holds more than its header says")
    return result


def _body(source: IO[bytes], header: dict[str, Any]) -> tuple[Checkpoint, float]:
    packed, dealt_on = _words(source, header["nodes"]), _words(source, header["nodes"])
    widths = array("H")
    widths.fromfile(source, header["names"])
    several = _names(source, widths, header["name_bytes"])
    levels: dict[tuple[int, int], tuple[list[Keys], list[Keys], bool]] = {}
    for dealt, home, merged, batches in header["levels"]:
        rests, nodes = [], []
        for length in batches:
            rests.append(_keys(source, length))
            nodes.append(_keys(source, length))
        levels[int(dealt), int(home)] = (rests, nodes, bool(merged))
    waiting: dict[int, Waiting] = {}
    for stacked, length in header["waiting"]:
        waiting[int(stacked)] = (_words(source, length), _words(source, length))
    classes = [(int(pairs), tuple(aces), tuple(kings)) for pairs, aces, kings in header["classes"]]
    counts = {name: int(count) for name, count in header["counts"].items()}
    sets = (packed, several, dealt_on)
    checkpoint = Checkpoint(int(header["root"]), int(header["dealt"]), classes, counts, sets, levels, waiting)
    return checkpoint, float(header["seconds"])


def _words(source: IO[bytes], length: int) -> array[int]:
    """``length`` machine words into an array that can grow (the sweep appends to its sets and waiting rests)."""
    words = array("q")
    words.fromfile(source, length)  # EOFError when cut short
    return words


def _keys(source: IO[bytes], length: int) -> Keys:
    """``length`` machine words into an array of a level's batch, as the sweep keeps them (see :class:`~cardtable.solver.sweep.Arrivals`)."""
    keys = np.fromfile(source, dtype=np.int64, count=length)
    if len(keys) != length:
        raise EOFError("an array is cut short")
    return keys


def _names(source: IO[bytes], widths: array[int], total: int) -> list[int]:
    """The names of several tops, each in as many bytes as its width."""
    blob = source.read(total)
    if len(blob) != total:
        raise EOFError("the names are cut short")
    names, at = [], 0
    view = memoryview(blob)
    for width in widths:
        names.append(int.from_bytes(view[at : at + width], "little"))
        at += width
    return names
