"""The options that the benchmark scripts share: ``--deals``, ``--solutions`` and a sweep's ``--width``."""

from __future__ import annotations

import argparse
import json

from cardtable import CardtableError
from cardtable.core.deals import parse_deal_list
from cardtable.core.errors import reason
from cardtable.formats import Solution


def deal_numbers(parser: argparse.ArgumentParser, deals: str) -> list[int]:
    """The deal numbers of a ``--deals`` list such as ``1-100,194``; a bad list ends the script with the parser's usage."""
    try:
        return parse_deal_list(deals)
    except CardtableError as problem:
        parser.error(str(problem))


def sweep_width(parser: argparse.ArgumentParser, width: int | None) -> int | None:
    """``--width W``, the rests a narrowed sweep keeps a card (None: no narrowing); below 1 ends the script with the parser's usage."""
    if width is not None and width < 1:
        parser.error(f"--width must be at least 1, not {width}")
    return width


def solutions_file(parser: argparse.ArgumentParser, path: str | None) -> str | None:
    """``--solutions FILE``, checked before any deal is run: a file that cannot be added to ends the script with the parser's usage, not after hours of solving."""
    if path is not None:
        try:
            open(path, "a", encoding="utf-8").close()
        except OSError as problem:
            parser.error(f"cannot add solutions to {path!r}: {reason(problem)}")
    return path


def add_solution(path: str, solution: Solution) -> None:
    """Add one solution (formats.md) to a JSON Lines file, as it comes, so that a run stopped part way keeps what it decided."""
    with open(path, "a", encoding="utf-8") as file:
        file.write(json.dumps(solution.to_dict()) + "\n")
