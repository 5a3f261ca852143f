"""What a survey's results say: winnability with a Wilson interval, and solve times.

The Wilson score interval is used rather than the textbook normal one because it
stays inside [0, 1] and keeps its coverage at 0 or all wins and at small counts,
which surveys of a hard game (few decided deals) do produce.

Unknown deals are neither wins nor losses, so they are reported apart. The point
estimate and its interval use the decided deals only; a second interval is
widened to cover whatever the unknowns turn out to be: its lower end counts them
all as lost, its upper end all as won.

>>> [round(end, 4) for end in wilson(8, 10)]
[0.4902, 0.9433]
>>> w = winnability(won=6, unwinnable=2, unknown=2)
>>> w.estimate, [round(end, 3) for end in w.interval_with_unknowns]
(0.75, [0.313, 0.943])
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from cardtable.core.errors import CardtableError
from cardtable.solver.search import STATUSES, Status
from cardtable.survey.task import Outcome

Z95: Final = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


class InvalidCountError(CardtableError, ValueError):
    """Counts no survey could give: one below zero, or more successes than trials.

    Refused by name, where the interval's square root failed with ``math domain error``.
    """


def _check_counts(**counts: int) -> None:
    """Refuse a count below zero, naming each such one (``won=-1``)."""
    below = [f"{name}={count}" for name, count in counts.items() if count < 0]
    if below:
        raise InvalidCountError(f"a count cannot be below zero: {', '.join(below)}")


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` of ``trials``; (0, 1) when there are none.

    :class:`InvalidCountError` for counts below zero or more successes than trials.
    """
    _check_counts(successes=successes, trials=trials)
    if successes > trials:
        raise InvalidCountError(f"more successes than trials: successes={successes}, trials={trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    scale = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / scale
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / scale
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Winnability:
    """The share of deals that can be won: estimate and 95% intervals."""

    estimate: float | None  # won / decided; None before any deal is decided
    interval: tuple[float, float]  # Wilson, over the decided deals
    interval_with_unknowns: tuple[float, float]  # unknowns all lost .. all won


def winnability(won: int, unwinnable: int, unknown: int) -> Winnability:
    """Estimate and intervals from the counts of each verdict; :class:`InvalidCountError` for one below zero."""
    _check_counts(won=won, unwinnable=unwinnable, unknown=unknown)
    decided = won + unwinnable
    surveyed = decided + unknown
    return Winnability(
        estimate=won / decided if decided else None,
        interval=wilson(won, decided),
        interval_with_unknowns=(wilson(won, surveyed)[0], wilson(won + unknown, surveyed)[1]),
    )


@dataclass(frozen=True)
class Times:
    """How long the solver took per deal, in seconds (nearest-rank percentiles)."""

    median: float
    p90: float
    p99: float
    max: float
    total: float


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile: the smallest value with ``fraction`` of them at or below it."""
    ordered = sorted(values)
    rank = math.ceil(fraction * len(ordered))
    return ordered[min(len(ordered), max(rank, 1)) - 1]


def times(seconds: Sequence[float]) -> Times | None:
    """The distribution of solve times; None for no deals."""
    if not seconds:
        return None
    return Times(
        median=percentile(seconds, 0.5),
        p90=percentile(seconds, 0.9),
        p99=percentile(seconds, 0.99),
        max=max(seconds),
        total=math.fsum(seconds),
    )


@dataclass(frozen=True)
class Summary:
    """Everything ``cardtable report`` prints."""

    surveyed: int
    won: int
    unwinnable: int
    unknown: int
    winnability: Winnability
    seconds: Times | None


def summarize(outcomes: Sequence[Outcome]) -> Summary:
    """Count the verdicts and measure the times of a survey's results."""
    counts = dict.fromkeys(STATUSES, 0)
    for outcome in outcomes:
        counts[outcome.verdict] += 1
    return Summary(
        surveyed=len(outcomes),
        **counts,
        winnability=winnability(**counts),
        seconds=times([outcome.seconds for outcome in outcomes]),
    )


def running(verdicts: Iterable[Status]) -> list[Winnability]:
    """The estimate after each verdict in turn: how it settles as deals are surveyed.

    It takes verdicts rather than outcomes so that what several runs say together
    (``benchmarks/floor.py``), which has no one solve time, plots the same way.
    """
    counts = dict.fromkeys(STATUSES, 0)
    estimates = []
    for verdict in verdicts:
        counts[verdict] += 1
        estimates.append(winnability(**counts))
    return estimates
