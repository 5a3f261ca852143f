"""The ``--deals`` option that the benchmark scripts share."""

from __future__ import annotations

import argparse

from cardtable import CardtableError
from cardtable.cli.survey import parse_deal_list


def deal_numbers(parser: argparse.ArgumentParser, deals: str) -> list[int]:
    """The deal numbers of a ``--deals`` list such as ``1-100,194``; a bad list ends the script with the parser's usage."""
    try:
        return parse_deal_list(deals)
    except CardtableError as problem:
        parser.error(str(problem))
