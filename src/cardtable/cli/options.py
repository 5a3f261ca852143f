"""Option types that the commands share."""

from __future__ import annotations

import math
from typing import Any

import click


class Seconds(click.FloatRange):
    """A number of seconds within a range; ``nan`` and ``inf``, which float() takes, are refused.

    A ``--timeout inf`` would otherwise run with no limit, and ``nan`` passes every
    comparison of a range check.
    """

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number of seconds.", param, ctx)
        return super().convert(number, param, ctx)
