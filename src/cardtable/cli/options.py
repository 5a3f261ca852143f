"""Option types that the commands share."""

from __future__ import annotations

import decimal
import math
import re
from collections.abc import Callable
from typing import Any, Final, TypeVar

import click

from cardtable.core.errors import quoted
from cardtable.solver.search import DEFAULT_TABLE_CAP

F = TypeVar("F", bound=Callable[..., Any])

LARGEST_COUNT: Final = 2**63 - 1
"""The most positions an option may name: the largest integer SQLite stores, and far past any search."""


def max_table_option(*, per_worker: bool) -> Callable[[F], F]:
    """``--max-table``, the cap of a search's transposition table, which ``solve``, ``hint`` and ``survey`` share."""
    each = "each, per worker" if per_worker else "each"
    return click.option(
        "--max-table",
        type=position_count(1000),
        default=DEFAULT_TABLE_CAP,
        show_default=True,
        help=f"Positions one search may remember (125 to 180 bytes {each}: the default takes about 1.1 GB).",
    )


def position_count(least: int) -> click.IntRange:
    """A count of positions from ``least`` up; a larger one than SQLite can store is refused as given."""
    return Count(min=least, max=LARGEST_COUNT)


class Count(click.IntRange):
    """A whole number within a range, also written as a power of ten (``1e6``, ``2.5e5``): budgets are often large."""

    name = "count"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and re.fullmatch(r"[0-9]+(\.[0-9]+)?[eE]\+?[0-9]+", value.strip()):
            number = decimal.Decimal(value.strip())  # exact, where a float would round past 2**53
            if (
                self.max is not None and number > self.max
            ):  # before int(), which would make a number of any size
                self.fail(f"{quoted(value.strip())} is over the most there can be, {self.max:,}", param, ctx)
            if number == number.to_integral_value():
                value = int(number)
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            if isinstance(value, str) and not value.strip().lstrip("+-").isdigit():
                self.fail(f"{value!r} is not a whole number (write 500000, or 5e5)", param, ctx)
            raise


class Seconds(click.FloatRange):
    """A number of seconds within a range; ``nan`` and ``inf``, which float() takes, are refused.

    A ``--timeout inf`` would otherwise run with no limit, and ``nan`` passes every
    comparison of a range check.
    """

    name = "seconds"

    def __init__(self, min: float, *, zero: bool = False) -> None:
        super().__init__(min=min)
        self.zero = zero
        """Whether 0 is taken too, below ``min``: a budget of none."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number of seconds.", param, ctx)
        if self.zero and number == 0:
            return number
        if self.min is not None and number < self.min:
            least = f"at least {self.min:g} seconds"
            self.fail(
                f"{value!r} is too short: give {'0 for no limit, or ' if self.zero else ''}{least}",
                param,
                ctx,
            )
        return super().convert(number, param, ctx)

    def _describe_range(self) -> str:
        """The range as ``--help`` shows it, 0 with it where taken: ``0 or x>=0.001``."""
        described = super()._describe_range()
        return f"0 or {described}" if self.zero else described


TIMEOUT_LEAST: Final = 0.001
"""The shortest budget of seconds a command takes: less would stop a search before its first position."""
