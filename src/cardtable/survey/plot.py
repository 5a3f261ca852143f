"""The report's picture: the running winnability with its intervals, and the solve times.

Drawn with matplotlib's object API on an Agg canvas, never ``pyplot``: no
global figure state, no display needed, and nothing imported until a plot is
asked for.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from cardtable.core.errors import CardtableError
from cardtable.solver.search import Status
from cardtable.survey.stats import running
from cardtable.survey.task import VERDICTS, Outcome

COLOURS: Final = {"won": "#2a7f3f", "unwinnable": "#b03a2e", "unknown": "#9a9a9a"}
SHORTEST: Final = 1e-4  # seconds: faster solves are drawn here, as a log scale has no zero


class PlotError(CardtableError):
    """A plot that cannot be written: no such directory, a format matplotlib does not know."""


def draw(outcomes: Sequence[Outcome], title: str, path: str | Path) -> None:
    """Save the two panels for ``outcomes`` (in deal order) to ``path``; the suffix picks the format."""
    figure = Figure(figsize=(10, 4.2), layout="constrained")
    left, right = figure.subplots(1, 2, width_ratios=(3, 2))
    _running(left, [outcome.verdict for outcome in outcomes])
    _histogram(right, outcomes)
    _save(figure, title, path)


def draw_running(verdicts: Sequence[Status], title: str, path: str | Path) -> None:
    """Save the running winnability alone for ``verdicts`` (in deal order): for verdicts that several runs gave together, which have no one solve time."""
    figure = Figure(figsize=(6.5, 4.2), layout="constrained")
    _running(figure.subplots(), verdicts)
    _save(figure, title, path)


def _save(figure: Figure, title: str, path: str | Path) -> None:
    FigureCanvasAgg(figure)
    figure.suptitle(title)
    try:
        figure.savefig(path, dpi=110)
    except (OSError, ValueError) as error:
        raise PlotError(f"cannot write the plot {str(path)!r}: {error}") from None


def _running(axes: Axes, verdicts: Sequence[Status]) -> None:
    estimates = running(verdicts)
    surveyed = range(1, len(estimates) + 1)
    axes.fill_between(
        surveyed,
        [100 * w.interval_with_unknowns[0] for w in estimates],
        [100 * w.interval_with_unknowns[1] for w in estimates],
        color="#c9d7ea",
        label="95% interval, unknowns either way",
    )
    axes.fill_between(
        surveyed,
        [100 * w.interval[0] for w in estimates],
        [100 * w.interval[1] for w in estimates],
        color="#7f9fcf",
        label="95% Wilson interval, decided deals",
    )
    axes.plot(
        surveyed,
        [math.nan if w.estimate is None else 100 * w.estimate for w in estimates],
        color="#1b3a6b",
        label="winnability (won / decided)",
    )
    axes.set(xlabel="deals surveyed (in deal order)", ylabel="winnable, %", ylim=(0, 100), xlim=(1, None))
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right", fontsize="small")


def _histogram(axes: Axes, outcomes: Sequence[Outcome]) -> None:
    """Solve times on a log scale, stacked by verdict: they span several orders of magnitude."""
    groups = [[max(o.seconds, SHORTEST) for o in outcomes if o.verdict == v] for v in VERDICTS]
    seconds = [s for group in groups for s in group]
    if seconds:
        low, high = math.log10(min(seconds)), math.log10(max(seconds)) + 1e-9
        bins = [10 ** (low + (high - low) * i / 30) for i in range(31)]
        axes.hist(groups, bins=bins, stacked=True, color=[COLOURS[v] for v in VERDICTS], label=list(VERDICTS))
        axes.set_xscale("log")
        axes.legend(fontsize="small")
    axes.set(xlabel="solve time, s", ylabel="deals")
    axes.grid(alpha=0.3)
