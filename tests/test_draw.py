"""The winnable-only draw (solver/draw.py): which deal to play, and what the player is told of it."""

from __future__ import annotations

import pytest

from cardtable.solver.draw import Draw
from cardtable.solver.search import Status


@pytest.mark.parametrize(
    ("verdicts", "chosen", "status"),
    [
        ([(6, "unwinnable"), (9, "unknown"), (3, "won")], 3, "won"),
        ([(6, "unknown"), (9, "unwinnable"), (4, "unwinnable")], 6, "unknown"),
        ([(6, "unknown"), (9, "unknown"), (4, "unwinnable")], 9, "unknown"),
        ([(6, "unwinnable"), (9, "unwinnable"), (4, "unwinnable")], 4, "unwinnable"),
    ],
    ids=["the first won", "the undecided one", "the last undecided", "the last, all lost"],
)
def test_a_draw_keeps_the_deal_it_knows_best(
    verdicts: list[tuple[int, Status]], chosen: int, status: str
) -> None:
    draw = Draw(tries=3)
    for number, verdict in verdicts:
        assert draw.more
        draw.judged(number, verdict)
    assert not draw.more
    assert (draw.number, draw.status, draw.tried) == (chosen, status, 3)


def test_a_draw_stops_at_the_first_deal_proved_winnable() -> None:
    draw = Draw(tries=12)
    draw.judged(5, "won")
    assert (
        not draw.more
        and draw.told(0.4, 1.5) == "deal 5 can be won: the solver proved it (the first deal tried, 0.4 s)"
    )


def test_what_a_draw_tells_says_only_what_was_proved() -> None:
    lost, undecided = Draw(tries=2), Draw(tries=2)
    for number in (6, 9):
        lost.judged(number, "unwinnable")
        undecided.judged(number, "unknown")
    assert (
        lost.told(3.0, 1.5)
        == "no deal was proved winnable (2 tried, each proved lost); here is the last, deal 9, which cannot be won"
    )
    assert undecided.told(3.0, 1.5) == (
        "no deal was proved winnable (2 tried, 1.5 s each); deal 9 is one the solver could not decide in time"
    )
