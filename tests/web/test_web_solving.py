"""The solver service of the server: its cache along a won line, its queue, winnable-only deals."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any, TypeVar

import pytest

from cardtable import deal, load_game
from cardtable.core.notation import parse_move
from cardtable.server.api import _way_back_message
from cardtable.server.play import Play
from cardtable.server.solving import Budgets, Solver, SolverBusyError, solve_position
from cardtable.solver.rewind import WayBack

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on a loop of its own, whatever loop this thread may be running."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


class Inline(Executor):
    """Runs each job at once in the calling thread, counting them; or answers ``unknown``."""

    def __init__(self, *, give_up: bool = False) -> None:
        self.jobs = 0
        self.give_up = give_up

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.jobs += 1
        future: Future[Any] = Future()
        if self.give_up:
            future.set_result(
                {
                    "status": "unknown",
                    "moves": [],
                    "seconds": 0.1,
                    "states": 9,
                    "reason": "tired",
                    "guess": None,
                }
            )
        else:
            future.set_result(fn(*args, **kwargs))
        return future


def test_a_won_line_answers_every_position_along_it() -> None:
    pool = Inline()
    solver = Solver(pool)
    state = deal(load_game("alexander-the-great"), 10)
    first = run(solver.verdict(state, 5))
    assert first.status == "won" and pool.jobs == 1
    for move in first.moves[:20]:
        state.push(move)
        known = run(solver.verdict(state, 5))
        assert known.status == "won" and state.why_illegal(known.moves[0]) is None
    assert pool.jobs == 1, "no new search while following the line"


def test_the_way_back_from_a_lost_position_is_found_once_and_then_remembered() -> None:
    pool = Inline()
    solver = Solver(pool)
    state = deal(load_game("fan"), 4)
    for text in ["t4 t0", "t14 t3", "t0 f1", "t0 t16"]:
        state.push(parse_move(state, text))
    way = run(solver.way_back(state, [1, 1, 1, 1], 5))
    assert (way.status, way.undo) == ("won", 3) and pool.jobs == 3
    assert run(solver.way_back(state, [1, 1, 1, 1], 5)) == way and pool.jobs == 3
    assert run(solver.way_back(state, [2, 2], 5)).undo == 2, "an undo of two moves lands past the third"
    assert run(Solver(pool).way_back(state, [1, 1, 1, 1], 0)).status == "unknown"
    assert run(Solver(pool, queue=0).way_back(state, [1, 1, 1, 1], 5)).status == "unknown", (
        "busy: not an error"
    )


def test_a_full_queue_says_busy() -> None:
    solver = Solver(Inline(), queue=0)
    with pytest.raises(SolverBusyError, match="busy"):
        run(solver.verdict(deal(load_game("fan"), 1), 1))


def test_a_question_that_waited_its_budget_for_a_worker_is_refused_as_busy() -> None:
    """So that a player waits at most twice a question's budget, however many asked before."""
    with ThreadPoolExecutor(1) as pool:
        others = threading.Event()
        pool.submit(others.wait, 10)  # the only worker, busy with another question
        threading.Timer(0.5, others.set).start()
        fan = deal(load_game("fan"), 1)
        with pytest.raises(SolverBusyError, match="for as long as yours could take"):
            run(Solver(pool).verdict(fan, 0.2))
        run(Solver(pool).verdict(fan, 0.2))  # the worker free again: searched, not refused


def test_winnable_only_is_bounded_and_honest() -> None:
    pool = Inline(give_up=True)
    solver = Solver(pool, Budgets(deals=3, search=30))
    number, note = run(solver.winnable_deal(load_game("acey-and-kingsley")))
    assert pool.jobs == 3
    assert (
        note
        == f"no deal was proved winnable (3 tried, 1.5 s each); deal {number} is one the solver could not decide in time"
    )


def test_the_worker_speaks_formats_json() -> None:
    from cardtable.formats import deal_to_dict

    answer = solve_position(deal_to_dict(deal(load_game("alexander-the-great"), 10)), 10, 100_000)
    assert answer["status"] == "won"
    assert answer["moves"][0] == {"from": "fan/5", "to": "foundation/2", "card": "QC"}


def test_a_broken_pool_is_replaced() -> None:
    from concurrent.futures.process import BrokenProcessPool

    made: list[Executor] = []

    class Broken(Inline):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
            raise BrokenProcessPool("a worker was killed")

    def make() -> Executor:
        made.append(Broken() if not made else Inline())
        return made[-1]

    solver = Solver(make)
    state = deal(load_game("alexander-the-great"), 10)
    with pytest.raises(SolverBusyError, match="stopped unexpectedly"):
        run(solver.verdict(state, 5))
    assert run(solver.verdict(state, 5)).status == "won" and len(made) == 2


@pytest.mark.parametrize(
    ("way", "words"),
    [
        (WayBack("won", 3), "; undo 3 times and it can still be won"),
        (
            WayBack("won", 3, undecided=2),
            "; undo 3 times and it can still be won (the solver could not tell for the 2 positions between)",
        ),
        (
            WayBack("won", 4, undecided=1),
            "; the start of the game can still be won: restart (the solver could not tell for the position between)",
        ),
    ],
)
def test_a_way_back_past_undecided_positions_says_only_what_is_proved(way: WayBack, words: str) -> None:
    play = Play.new("someone", deal(load_game("fan"), 4), 0.0)
    for text in ["t4 t0", "t14 t3", "t0 f1", "t0 t16"]:  # four undos back to the deal
        play.play(parse_move(play.state, text))
    assert _way_back_message(play, way) == words


class Held(Executor):
    """Keeps each job until :meth:`release`: searches that are still under way."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.jobs.append((future, fn, args))
        return future

    def release(self) -> None:
        for future, fn, args in self.jobs:
            future.set_result(fn(*args))


def test_a_question_asked_again_while_its_search_is_under_way_waits_for_that_search() -> None:
    async def asked_twice() -> tuple[int, list[str]]:
        pool = Held()
        solver = Solver(pool)
        state = deal(load_game("fan"), 3)
        questions = [asyncio.create_task(solver.verdict(state, 5, who)) for who in ("me", "me", "you")]
        await asyncio.sleep(0.05)
        searches = len(pool.jobs)
        pool.release()
        return searches, [(await question).status for question in questions]

    assert run(asked_twice()) == (1, ["won", "won", "won"])


def test_positions_alike_to_the_search_but_not_card_for_card_are_searched_apart() -> None:
    from cardtable.formats import deal_from_dict, deal_to_dict

    state = deal(load_game("fan"), 3)
    swapped = deal_to_dict(state)
    swapped["piles"]["fan"][0], swapped["piles"]["fan"][1] = (
        swapped["piles"]["fan"][1],
        swapped["piles"]["fan"][0],
    )
    other = deal_from_dict(swapped)
    assert other.key() == state.key() and other != state  # one key, other piles: a line names piles

    async def both() -> int:
        pool = Held()
        solver = Solver(pool)
        questions = [asyncio.create_task(solver.verdict(position, 5)) for position in (state, other)]
        await asyncio.sleep(0.05)
        pool.release()
        await asyncio.gather(*questions)
        return len(pool.jobs)

    assert run(both()) == 2


def test_one_player_cannot_keep_the_solver_from_everyone_else() -> None:
    async def three_questions() -> tuple[str, str]:
        pool = Held()
        solver = Solver(pool)
        first, second = (
            asyncio.create_task(solver.verdict(deal(load_game("fan"), n), 5, "me")) for n in (3, 4)
        )
        await asyncio.sleep(0.05)
        with pytest.raises(SolverBusyError) as third:
            await solver.verdict(deal(load_game("fan"), 5), 5, "me")
        other = asyncio.create_task(solver.verdict(deal(load_game("fan"), 5), 5, "you"))
        await asyncio.sleep(0.05)
        pool.release()
        await asyncio.gather(first, second)
        return str(third.value), (await other).status

    said, other = run(three_questions())
    assert said == "your earlier questions are still being answered; ask again once they are"
    assert other in ("won", "unwinnable")


def test_a_players_walk_back_and_deal_draws_count_as_their_questions() -> None:
    lost = deal(load_game("fan"), 4)
    for text in ["t4 t0", "t14 t3", "t0 f1", "t0 t16"]:
        lost.push(parse_move(lost, text))

    async def with_two_questions_held() -> tuple[WayBack, str, int]:
        pool = Held()
        solver = Solver(pool)
        held = [asyncio.create_task(solver.verdict(deal(load_game("fan"), n), 5, "me")) for n in (3, 5)]
        await asyncio.sleep(0.05)
        way = await solver.way_back(lost, [1, 1, 1, 1], 5, "me")  # its share is taken: no search
        with pytest.raises(SolverBusyError) as drawn:
            await solver.winnable_deal(load_game("fan"), "me")
        pool.release()
        await asyncio.gather(*held)
        return way, str(drawn.value), len(solver._asking)

    way, said, askers = run(with_two_questions_held())
    assert way.status == "unknown" and said.startswith("your earlier questions are still being answered")
    assert askers == 0, "a player with nothing under way is forgotten"
