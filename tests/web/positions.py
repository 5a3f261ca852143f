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


def acey_stuck_after_the_last_deal() -> dict[str, Any]:
    """Acey and Kingsley one deal from stuck: then every loose card is a 7, which no foundation takes (they
    take 5, 6 and 8) and no two foundations meet, so only passes between foundations are left."""
    return {
        "game": "acey-and-kingsley",
        "piles": {
            "foundation": [
                ["AC", "2D", "3H", "4S", "5C"],
                ["AD", "2H", "3S", "4C"],
                ["AH", "2S", "3C", "4D", "5H"],
                ["AS", "2C", "3D", "4H", "5S"],
                ["KC", "QS", "JH", "TD", "9C"],
                ["KD", "QC", "JS", "TH", "9D"],
                ["KH", "QD", "JC", "TS", "9H"],
                ["KS", "QH", "JD", "TC", "9S"],
            ],
            "reserve": [
                ["AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S", "7D"],
                ["4C", "4D", "4H", "4S", "5C", "5D", "5D", "5H", "5S", "6C", "6C", "6D", "7H"],
            ],
            "tableau": [["7C"], ["7D"], ["7H"], ["7S"]],
            "stock": [["7C"]],
            "waste": [
                ["6D", "6H", "6H", "6S", "6S", *[rank + suit for rank in "889TJQK" for suit in "CDHS"], "7S"]
            ],
        },
    }
