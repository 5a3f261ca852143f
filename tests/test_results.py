"""The wins the docs quote from kept files: every solution kept in benchmarks/results still replays.

Most published wins can be found again by running the command the docs give
with a budget in positions. Those found within a time budget may not be on
another machine, so their lines are kept, and this test holds them to the rules
as the rules code changes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtable.cli.files import read_text
from cardtable.formats import read_solutions, replay

RESULTS = Path(__file__).parent.parent / "benchmarks" / "results"
KEPT = sorted(RESULTS.glob("*-solutions.jsonl.gz"))


def test_solutions_are_kept() -> None:
    assert KEPT, f"no *-solutions.jsonl.gz in {RESULTS}"


@pytest.mark.parametrize("path", KEPT, ids=lambda path: path.name)
def test_every_kept_solution_replays_to_a_win(path: Path) -> None:
    solutions = read_solutions(read_text(str(path)))
    deals = [solution.deal.deal_number or 0 for solution in solutions]
    assert 0 not in deals and deals == sorted(set(deals)), "one numbered deal a solution, by deal number"
    for solution in solutions:
        assert solution.result == "won"
        outcome = replay(solution)
        assert outcome.problem is None, f"deal {solution.deal.deal_number}: {outcome.problem}"
