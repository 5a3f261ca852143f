"""The survey at its edges: more workers than the system allows, files of two games, one deal, none.

The limits are real (``ulimit -n`` set in the child with ``setrlimit``), not
mocked, since what matters is what the operating system does when it refuses a
process.
"""

from __future__ import annotations

import random
import resource
import subprocess
import sys
from pathlib import Path

import numpy
import pytest
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from cardtable.solver.search import Status
from cardtable.survey.plot import draw, draw_running, legend_corner
from cardtable.survey.stats import running
from cardtable.survey.task import Outcome
from test_survey_cli import assert_group_ends

SURVEY_CODE = "from cardtable.cli.main import main; main()"
BUDGET = ("--timeout", "0", "--max-states", "200")


# -- worker processes ----------------------------------------------------------------


def survey_with_open_files(
    db: Path, deals: str, workers: int, open_files: int
) -> subprocess.CompletedProcess[str]:
    """``cardtable survey fan`` under ``ulimit -n OPEN_FILES``, in a process group of its own."""

    def limit() -> None:
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, hard))

    args = ["survey", "fan", "--deals", deals, "--workers", str(workers), "--db", str(db), *BUDGET]
    process = subprocess.Popen(
        [sys.executable, "-c", SURVEY_CODE, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=limit,
    )
    try:
        stdout, stderr = process.communicate(timeout=120)
    finally:
        assert_group_ends(process.pid)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


needs_proc = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="looks for left-over workers in /proc"
)


@needs_proc
def test_no_more_workers_start_than_there_are_deals_to_solve(tmp_path: Path) -> None:
    # 30 workers would need more than 40 open files; two deals need two workers
    out = survey_with_open_files(tmp_path / "two.sqlite", "1-2", workers=30, open_files=40)
    assert out.returncode == 0, out.stderr
    assert "2 solved" in out.stdout


@needs_proc
def test_workers_the_system_cannot_start_are_one_line_and_leave_nothing_behind(tmp_path: Path) -> None:
    out = survey_with_open_files(tmp_path / "many.sqlite", "1-60", workers=30, open_files=40)
    assert out.returncode == 2, out.stderr
    assert out.stderr.splitlines() == [
        "cardtable: cannot start 30 worker processes: too many open files (try fewer --workers)"
    ], out.stderr


# -- benchmarks/solve.py -------------------------------------------------------------

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


def test_solve_benchmark_p90_is_the_nearest_rank_that_report_gives() -> None:
    # 25 deals: the nearest rank of 90% is the 23rd (22.5 rounded up); round() gave the 22nd
    args = ["fan", "--deals", "1-25", "--timeout", "0", "--max-states", "3000", "--verbose"]
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / "solve.py"), *args], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    seconds = sorted(
        float(line.split()[2])
        for line in lines
        if line.split()[1:2] in (["won"], ["unwinnable"], ["unknown"])
    )
    assert len(seconds) == 25
    p90 = next(line.split()[2] for line in lines if line.startswith("p90 s"))
    assert float(p90) == seconds[22], (p90, seconds)


# -- benchmarks/floor.py -------------------------------------------------------------


def floor(*args: str | Path) -> subprocess.CompletedProcess[str]:
    floor_py = BENCHMARKS / "floor.py"
    return subprocess.run([sys.executable, str(floor_py), *map(str, args)], capture_output=True, text=True)


def solutions(path: Path, game: str, *verdicts: tuple[int, str]) -> Path:
    """Solution lines as far as floor.py reads them: the game, the deal's number, the verdict."""
    lines = [
        f'{{"game": "{game}", "deal": {{"game": "{game}", "deal": {n}}}, "result": "{v}"}}'
        for n, v in verdicts
    ]
    path.write_text("".join(line + "\n" for line in lines))
    return path


def assert_refused(out: subprocess.CompletedProcess[str], *words: str) -> None:
    """One line on standard error, naming the problem; exit code 2; nothing summed."""
    assert out.returncode == 2, (out.stdout, out.stderr)
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("floor.py: "), out.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert "together" not in out.stdout


def test_floor_refuses_solutions_of_two_games(tmp_path: Path) -> None:
    ag = solutions(tmp_path / "ag.jsonl", "acey-and-kingsley", (1, "won"), (2, "won"))
    fan = solutions(tmp_path / "fan.jsonl", "fan", (2, "unwinnable"), (3, "won"))
    out = floor(ag, fan, "--deals", "1-40")
    assert_refused(out, "different games", f"acey-and-kingsley in {str(ag)!r}", f"fan in {str(fan)!r}")


def test_floor_reads_the_game_column_of_a_survey_csv(tmp_path: Path) -> None:
    survey = tmp_path / "fan.csv"
    survey.write_text("deal,verdict,game\n1,won,fan\n2,unknown,fan\n")
    ag = solutions(tmp_path / "ag.jsonl", "acey-and-kingsley", (2, "won"))
    out = floor(survey, ag, "--deals", "1-2")
    assert_refused(out, "different games", f"fan in {str(survey)!r}")


def test_floor_refuses_one_file_of_two_games(tmp_path: Path) -> None:
    mixed = solutions(tmp_path / "mixed.jsonl", "fan", (1, "won"))
    with mixed.open("a") as file:
        file.write(
            '{"game": "acey-and-kingsley", "deal": {"game": "acey-and-kingsley", "deal": 2}, "result": "won"}\n'
        )
    assert_refused(floor(mixed, "--deals", "1-2"), repr(str(mixed)), "acey-and-kingsley", "fan")


def test_floor_reads_the_game_of_solve_benchmark_output(tmp_path: Path) -> None:
    out = tmp_path / "solve.txt"
    out.write_text(
        "       1 won           0.002 s        21 states\ngame        acey-and-kingsley\nwon         1\n"
    )
    fan = solutions(tmp_path / "fan.jsonl", "fan", (2, "won"))
    assert_refused(floor(out, fan, "--deals", "1-2"), f"acey-and-kingsley in {str(out)!r}")
    same = solutions(tmp_path / "ag.jsonl", "acey-and-kingsley", (2, "won"))
    assert "together, deals 1-2: 2 won" in floor(out, same, "--deals", "1-2").stdout


def test_floor_takes_a_csv_to_be_of_the_game_the_other_files_name(tmp_path: Path) -> None:
    survey = tmp_path / "survey.csv"
    survey.write_text("deal,verdict\n1,won\n2,unknown\n")
    fan = solutions(tmp_path / "fan.jsonl", "fan", (2, "won"))
    out = floor(survey, fan, "--deals", "1-2")
    assert out.returncode == 0, out.stderr
    assert "together, deals 1-2: 2 won, 0 unwinnable, 0 unknown" in out.stdout


@pytest.mark.parametrize("text", ["# cardtable\n\nPlay, solve and study patience games.\n", "deal\n1\n"])
def test_floor_refuses_a_file_of_no_kind_it_reads(tmp_path: Path, text: str) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(text)
    assert_refused(floor(readme, "--deals", "1-2"), repr(str(readme)), "no survey CSV")


def test_floor_reads_an_empty_file_or_another_benchmarks_run_as_deciding_nothing(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# a run that was stopped before its first deal\n")
    phases = tmp_path / "stock-phase.txt"  # as kept in benchmarks/results: no verdict, a note on its making
    phases.write_text("# python benchmarks/stock_phase.py --deals 48\ndeal    48 card  1:   1 positions\n")
    out = floor(empty, phases, "--deals", "1-2")
    assert out.returncode == 0, out.stderr
    assert "together, deals 1-2: 0 won, 0 unwinnable, 2 unknown" in out.stdout


# -- the report's plot ---------------------------------------------------------------


def outcomes(deals: int, won: float, unknown: float = 0.0) -> list[Outcome]:
    """Deals in order with about these shares won and unknown, and solve times over three orders of magnitude."""
    chance = random.Random(1)
    made = []
    for number in range(1, deals + 1):
        draw = chance.random()
        verdict = "won" if draw < won else "unknown" if draw < won + unknown else "unwinnable"
        made.append(Outcome(number, verdict, 10 ** chance.uniform(-3, 0.5), 100, None, 1, "test"))  # type: ignore[arg-type]
    return made


def legend_covers_data(axes: Axes, verdicts: list[Status]) -> bool:
    """Whether the legend's box, as drawn, lies over the estimate or its widest interval at some deal."""
    legend = axes.get_legend()
    assert legend is not None
    box = legend.get_window_extent()
    (left, bottom), (right, top) = axes.transData.inverted().transform([(box.x0, box.y0), (box.x1, box.y1)])
    for number, w in enumerate(running(verdicts), 1):
        low, high = (100 * end for end in w.interval_with_unknowns)
        if number + 0.5 >= left and number - 0.5 <= right and high >= bottom and low <= top:
            return True
    return False


def labels_overlap(axes: Axes) -> bool:
    """Whether any two of the x axis's tick labels, as drawn, overlap."""
    boxes = [label.get_window_extent() for label in axes.get_xticklabels(which="both") if label.get_text()]
    return any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


@pytest.mark.parametrize(
    ("deals", "won", "unknown"),
    [(300, 1.0, 0.0), (300, 0.05, 0.01), (300, 0.5, 0.02), (300, 0.4, 0.35), (10, 0.5, 0.1)],
)
def test_the_plot_shows_the_estimate_at_either_end_with_a_legend_over_no_data(
    deals: int, won: float, unknown: float
) -> None:
    surveyed = outcomes(deals, won, unknown)
    verdicts = [o.verdict for o in surveyed]
    for figure in (
        draw(surveyed, "test"),
        draw_running(verdicts, "test"),
    ):
        axes = figure.axes[0]
        low, high = axes.get_ylim()
        assert low < 0 and high > 100  # a line at 0% or 100% stays off the frame
        assert not legend_covers_data(axes, verdicts)


def test_the_legend_goes_to_a_corner_the_intervals_leave_clear() -> None:
    places = [
        legend_corner(running([o.verdict for o in outcomes(deals, won)]))
        for deals, won in [(300, 0.95), (300, 0.05), (10, 0.5)]
    ]
    assert places == ["lower right", "upper right", None]


def test_the_plot_of_all_wins_draws_the_estimate_inside_the_frame() -> None:
    figure = draw(outcomes(60, 1.0), "test")
    axes = figure.axes[0]
    estimate = numpy.asarray(axes.get_lines()[0].get_ydata(), dtype=float)
    assert estimate.max() == 100 < axes.get_ylim()[1]
    assert not legend_covers_data(axes, ["won"] * 60)


def test_the_plot_of_one_deal_shows_it() -> None:
    figure = draw(outcomes(1, 1.0), "test")
    estimate, times = figure.axes[:2]
    left, right = estimate.get_xlim()
    assert left < 1 < right
    xs = numpy.asarray(estimate.get_lines()[0].get_xdata(), dtype=float)
    assert xs.max() - xs.min() == 1  # a step a deal wide: a point would not show
    assert sum(bar.get_height() for bar in times.patches if isinstance(bar, Rectangle)) == 1
    assert not labels_overlap(times)


def test_the_time_histogram_counts_every_deal_the_fastest_and_slowest_too() -> None:
    # ten to the power of this time's logarithm comes back a rounding above it
    made = [
        Outcome(n, "won", s, 100, None, 1, "test")
        for n, s in enumerate((0.00013162599998395308, 0.3, 7.0), 1)
    ]
    _, times = draw(made, "test").axes[:2]
    assert sum(bar.get_height() for bar in times.patches if isinstance(bar, Rectangle)) == 3


def test_the_plot_of_no_deal_says_so_on_sane_axes() -> None:
    figure = draw([], "test")
    for axes in figure.axes:
        left, right = axes.get_xlim()
        assert left < right
        assert any("no deal" in text.get_text() for text in axes.texts)
        assert not labels_overlap(axes)
