"""The solver: a winning line anyone can replay, a proof that none exists, or ``unknown``.

>>> from cardtable import deal, load_game
>>> from cardtable.solver import Limit, solve
>>> result = solve(deal(load_game("fan"), 1), Limit(seconds=30))
>>> result.status in ("won", "unwinnable")
True
"""

from cardtable.solver.search import InvalidLimitError, Limit, Progress, SolveResult, StopSearch, solve

__all__ = ["InvalidLimitError", "Limit", "Progress", "SolveResult", "StopSearch", "solve"]
