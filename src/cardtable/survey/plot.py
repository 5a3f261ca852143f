"""The report's picture: the running winnability with its intervals, and the solve times.

Drawn with matplotlib's object API on an Agg canvas, never ``pyplot``: no
global figure state, no display needed, and nothing imported until a plot is
asked for.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final, Literal

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from cardtable.core.errors import CardtableError
from cardtable.solver.search import STATUSES, Status
from cardtable.survey.stats import Winnability, running
from cardtable.survey.task import Outcome

COLOURS: Final = {"won": "#2a7f3f", "unwinnable": "#b03a2e", "unknown": "#9a9a9a"}
SHORTEST: Final = 1e-4  # seconds: faster solves are drawn here, as a log scale has no zero
HEADROOM: Final = 4.0
"""Percentage points shown above 100% and below 0%, so that an estimate at either end is not hidden by the frame."""
LEGEND_SHARE: Final = (0.52, 0.25)
"""The running panel's legend in a corner, as shares of the panel's width and height, with a margin."""
Corner = Literal["lower right", "upper right"]
FEWEST_DECADES: Final = 2.0
"""The narrowest span of the time histogram: less, and a log axis labels its minor ticks, one over another."""


class PlotError(CardtableError):
    """A plot that cannot be drawn: a file type matplotlib does not know."""


def draw(outcomes: Sequence[Outcome], title: str) -> Figure:
    """The two panels for ``outcomes`` (in deal order): the running winnability and the solve times."""
    figure = _figure((10, 4.2), title)
    left, right = figure.subplots(1, 2, width_ratios=(3, 2))
    _running(left, [outcome.verdict for outcome in outcomes])
    _histogram(right, outcomes)
    return figure


def draw_running(verdicts: Sequence[Status], title: str) -> Figure:
    """The running winnability alone for ``verdicts`` (in deal order): for verdicts that several runs gave together, which have no one solve time."""
    figure = _figure((6.5, 4.2), title)
    _running(figure.subplots(), verdicts)
    return figure


def _figure(size: tuple[float, float], title: str) -> Figure:
    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    figure.suptitle(title)
    return figure


def picture(figure: Figure, path: str | Path) -> bytes:
    """``figure`` in the file type that ``path``'s suffix names, to be written there; PlotError if matplotlib has no such type.

    It is drawn in memory, so that a file is written only whole (see
    :class:`cardtable.cli.files.Staging`) and a type refused leaves it untouched.
    """
    kind = Path(path).suffix.lstrip(".").lower()
    drawn = io.BytesIO()
    try:
        figure.savefig(drawn, format=kind, dpi=110)
    except ValueError as error:  # a file type matplotlib does not write
        words = str(error)
        raise PlotError(f"cannot write the plot {str(path)!r}: {words[:1].lower()}{words[1:]}") from None
    return drawn.getvalue()


def _running(axes: Axes, verdicts: Sequence[Status]) -> None:
    estimates = running(verdicts)
    _steps(axes, estimates)
    axes.set(
        xlabel="deals surveyed (in deal order)",
        ylabel="winnable, %",
        ylim=(-HEADROOM, 100 + HEADROOM),
        yticks=range(0, 101, 20),
        xlim=(0.5, max(len(estimates), 1) + 0.5),
    )
    axes.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1, steps=[1, 2, 2.5, 5, 10]))
    axes.grid(alpha=0.3)
    if not estimates:
        axes.set(xticks=[])
        _note(axes, "no deal surveyed")
    elif (corner := legend_corner(estimates)) is not None:
        axes.legend(loc=corner, fontsize="small")
    else:  # above the panel, clear of everything
        axes.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=2, fontsize="small", frameon=False)


def _steps(axes: Axes, estimates: Sequence[Winnability]) -> None:
    """The estimate and its intervals after each deal, as a step from half a deal before it to half a deal after.

    Steps rather than a line through points, so that one deal shows, and a few
    show what each deal did; thousands look as a line would.
    """
    if not estimates:
        return
    edges = [number + 0.5 for number in range(len(estimates) + 1)]

    def percent(shares: Iterable[float | None]) -> list[float]:
        ends = [math.nan if share is None else 100 * share for share in shares]
        return ends + ends[-1:]  # the last step's right-hand end

    widest, decided = [w.interval_with_unknowns for w in estimates], [w.interval for w in estimates]
    axes.fill_between(
        edges,
        percent(low for low, _ in widest),
        percent(high for _, high in widest),
        step="post",
        color="#c9d7ea",
        label="95% interval, unknowns either way",
    )
    axes.fill_between(
        edges,
        percent(low for low, _ in decided),
        percent(high for _, high in decided),
        step="post",
        color="#7f9fcf",
        label="95% Wilson interval, decided deals",
    )
    axes.plot(
        edges,
        percent(w.estimate for w in estimates),
        drawstyle="steps-post",
        color="#1b3a6b",
        label="winnability (won / decided)",
    )


def legend_corner(estimates: Sequence[Winnability]) -> Corner | None:
    """The corner where the running panel's legend covers no estimate and no interval (of one deal or more), if any.

    A right-hand corner, since the intervals narrow as deals are surveyed: the
    lower one if the intervals under the legend stay above it (a game won
    often), else the upper one if they stay below it (a game seldom won).
    None when neither is clear (few deals, many unknowns): the legend then
    goes above the panel.
    """
    width, height = LEGEND_SHARE
    under = estimates[math.floor(len(estimates) * (1 - width)) :]
    lowest = min(100 * w.interval_with_unknowns[0] for w in under)
    highest = max(100 * w.interval_with_unknowns[1] for w in under)
    span = 100 + 2 * HEADROOM
    if lowest > -HEADROOM + height * span:
        return "lower right"
    if highest < 100 + HEADROOM - height * span:
        return "upper right"
    return None


def _note(axes: Axes, text: str) -> None:
    """A word in the middle of an empty panel, so that it does not look like a failed drawing."""
    axes.text(0.5, 0.5, text, transform=axes.transAxes, ha="center", va="center", color="#666666")


def _histogram(axes: Axes, outcomes: Sequence[Outcome]) -> None:
    """Solve times on a log scale, stacked by verdict: they span several orders of magnitude."""
    groups = [[max(o.seconds, SHORTEST) for o in outcomes if o.verdict == v] for v in STATUSES]
    seconds = [s for group in groups for s in group]
    axes.set(xlabel="solve time, s", ylabel="deals")
    if not seconds:
        axes.set(xticks=[], yticks=[])
        _note(axes, "no deal surveyed")
        return
    low, high = _decades(min(seconds), max(seconds))
    bins = [10 ** (low + (high - low) * i / 30) for i in range(31)]
    axes.hist(groups, bins=bins, stacked=True, color=[COLOURS[v] for v in STATUSES], label=list(STATUSES))
    axes.set_xscale("log")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.legend(fontsize="small")
    axes.grid(alpha=0.3)


def _decades(shortest: float, longest: float) -> tuple[float, float]:
    """The histogram's ends as powers of ten: the times', widened about their middle to :data:`FEWEST_DECADES`.

    A hair wider than the times themselves: ten to the power of a time's
    logarithm may come back a rounding above it, and leave that deal out.
    """
    low, high = math.log10(shortest) - 1e-9, math.log10(longest) + 1e-9
    if high - low < FEWEST_DECADES:
        middle = (low + high) / 2
        low, high = middle - FEWEST_DECADES / 2, middle + FEWEST_DECADES / 2
    return low, high
