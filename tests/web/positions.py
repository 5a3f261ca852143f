"""Hand-made positions (deal objects of formats.md) that the web tests start from."""

from __future__ import annotations

from typing import Any, Final

RANKS: Final = "A23456789TJQK"


def run(suit: str, first: str, last: str) -> list[str]:
    """Cards of one suit from rank ``first`` to ``last``, either way: run("C", "K", "2")."""
    a, b = RANKS.index(first), RANKS.index(last)
    step = 1 if b >= a else -1
    return [RANKS[i] + suit for i in range(a, b + step, step)]


def acey_nearly_won() -> dict[str, Any]:
    """Acey and Kingsley with nine moves to go: a deal from the stock, then eight cards home."""
    return {
        "game": "acey-and-kingsley",
        "piles": {
            "foundation": [
                run("C", "A", "K"),
                run("D", "A", "K"),
                run("H", "A", "Q"),
                run("S", "A", "T"),
                run("C", "K", "2"),
                run("D", "K", "2"),
                run("H", "K", "2"),
                run("S", "K", "2"),
            ],
            "reserve": [["KS", "QS"], ["JS"]],
            "tableau": [["AC"], ["AD"], ["AH"], ["KH"]],
            "stock": [["AS"]],
            "waste": [[]],
        },
    }


ACEY_WINNING_LINE: Final = (
    {"deal": "stock"},
    {"from": "waste/0", "to": "foundation/7", "card": "AS"},
    {"from": "tableau/3", "to": "foundation/2", "card": "KH"},
    {"from": "reserve/1", "to": "foundation/3", "card": "JS"},
    {"from": "reserve/0", "to": "foundation/3", "card": "QS"},
    {"from": "reserve/0", "to": "foundation/3", "card": "KS"},
    {"from": "tableau/0", "to": "foundation/4", "card": "AC"},
    {"from": "tableau/1", "to": "foundation/5", "card": "AD"},
    {"from": "tableau/2", "to": "foundation/6", "card": "AH"},
)
