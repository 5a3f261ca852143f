"""A deal the solver proves winnable, drawn at random: the browser's "winnable only" and ``play --winnable``.

Deals are drawn and solved, each with a short budget, until one is proved
winnable or the tries run out. :class:`Draw` keeps which deal to play and what
is known of it; each front end drives it with its own searches (the terminal
in its process, the server on its pool), so both choose and word alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardtable.solver.search import Status

TRIES: Final = 12
"""Deals drawn at most."""
SECONDS: Final = 1.5
"""The solver's time for each deal drawn."""

_BETTER: Final[dict[Status, int]] = {"unwinnable": 0, "unknown": 1, "won": 2}
"""Which deal to keep: one proved winnable, else one the solver could not decide, else one proved lost."""


@dataclass
class Draw:
    """The deals drawn so far, and the one to play: the first proved winnable, else the last undecided, else the last."""

    tries: int = TRIES
    number: int | None = None
    status: Status = "unwinnable"
    tried: int = 0

    @property
    def more(self) -> bool:
        """Whether to draw another: none proved winnable yet, and tries left."""
        return self.status != "won" and self.tried < self.tries

    def judged(self, number: int, status: Status) -> None:
        """Note the solver's verdict on deal ``number``."""
        self.tried += 1
        if self.number is None or _BETTER[status] >= _BETTER[self.status]:
            self.number, self.status = number, status

    def told(self, seconds: float, each: float) -> str:
        """What the player is told of the deal chosen, after ``seconds`` in all and ``each`` a deal: only what was proved."""
        if self.status == "won":
            tries = "the first deal tried" if self.tried == 1 else f"{self.tried} deals tried"
            return f"deal {self.number} can be won: the solver proved it ({tries}, {seconds:.1f} s)"
        none = f"no deal was proved winnable ({self.tried} tried"
        if self.status == "unknown":
            return f"{none}, {each:g} s each); deal {self.number} is one the solver could not decide in time"
        return f"{none}, each proved lost); here is the last, deal {self.number}, which cannot be won"
