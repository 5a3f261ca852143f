"""The Acey and Kingsley search against the plain search and the rules engine; its beams, probes and budgets."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable import Move, State, deal
from cardtable.formats import Solution, replay
from cardtable.games import load_game
from cardtable.solver import Limit, solve, sweep, updown
from cardtable.solver.foundations import (
    Foundations,
)
from cardtable.solver.realise import DEAL, HOME, LIFT, TABLEAU, WASTE
from cardtable.solver.search import CHECK_EVERY, DEFAULT_TABLE_CAP, _Budget, _BudgetExceeded
from cardtable.solver.sweep import Sweep
from cardtable.solver.updown import (
    FIRST_WIDTH,
    GROWTH,
    STEP_BITS,
    SWEEP_FROM,
    SWEEP_SHARE,
    Check,
    Judge,
    Search,
    _Links,
    applies,
    unpack,
)
from helpers import ACEY, ALEXANDER, FAN, FAST, LUCIE, acey_position, acey_positions


def test_only_acey_and_kingsley_has_its_shape() -> None:
    assert applies(load_game(ACEY))
    assert not any(applies(load_game(game)) for game in (ALEXANDER, LUCIE, FAN))


@FAST
@given(acey_positions(lowest=8))
def test_the_search_and_the_plain_search_agree(state: State) -> None:
    # Foundations 8 high or more leave small positions, which both searches decide
    # (the plain one on the rules engine, with no pruning at all), won or unwinnable.
    limit = Limit(states=20_000)
    plain = solve(state, limit, prune=False)
    if plain.status == "unknown":
        return
    ours = solve(state, limit)
    assert ours.status in (plain.status, "unknown")
    if ours.status == "won":
        assert replay(Solution(state, "won", ours.moves)).problem is None


def test_a_lost_deal_is_lost_for_both_searches() -> None:
    # Deal 194: no card can go home before the stock's 33rd card (its first queen), by
    # which time 32 cards lie on the waste; both searches prove that no line wins.
    state = deal(load_game(ACEY), 194)
    assert solve(state).status == "unwinnable"
    assert solve(state, prune=False).status == "unwinnable"


def described(search: Search, key: int) -> tuple[int, int, tuple[int, ...], int, Foundations]:
    """What a key says of its position, in terms that do not depend on the search's line:
    reserve heights, stock cards left, the waste's ranks bottom to top, tableau, foundations' class."""
    heights, position, waste, tableau, found = search.unpack(key)
    ranks = tuple(card for at, card in enumerate(search.line) if waste >> at & 1)
    return heights, len(search.line) - position, ranks, tableau, search.classes[found]


def steps_of(search: Search, codes: list[int]) -> State:
    """The real position the step codes lead to, each move checked by the rules."""
    reached = search.state.copy()
    for move in search.realise(unpack(codes)):
        reached.push(move)
    return reached


@FAST
@given(acey_positions(), st.randoms(use_true_random=False))
def test_keys_describe_the_positions_their_steps_reach(state: State, rnd: random.Random) -> None:
    # The search makes its moves by arithmetic on packed keys: after a random walk through
    # them, the key must describe exactly the real position the same moves reach.
    # Both the moves one at a time and as the search makes them (several steps to a
    # move once the stock is out) are walked.
    search = Search(state)
    key, codes = search.root, []
    for _ in range(rnd.randrange(1, 120)):
        children = rnd.choice([search.children, search.moves])(key)
        if not children or search.is_won(key):  # the rules end the game there
            break
        code, key = rnd.choice(children)
        codes.append(code)
    reached = Search(steps_of(search, codes))
    assert described(search, key) == described(reached, reached.root)
    assert search.pack(search.unpack(key)) == key


def test_with_the_stock_out_every_tableau_card_that_can_go_home_goes_at_once() -> None:
    # Ace pile 0 stops at 4; a 6 and a 5 wait on the tableau. Settled, both are home,
    # the 5 first, and nothing else has changed.
    state = acey_position(up=(4, 13, 13, 13), tableau=("6C", "5C", "", ""), rest="reserve/1")
    search = Search(state)
    key, codes = search.settle(search.root)
    assert [step[:3] for step in unpack([codes])] == [(HOME, TABLEAU, 5), (HOME, TABLEAU, 6)]
    reached = Search(steps_of(search, [codes]))
    assert described(search, key) == described(reached, reached.root)
    assert search.settle(key) == (key, 0)


LIFT_TO_PAIR = acey_position(
    up=(6, 13, 13, 13),
    down=(8, 13, 13, 13),
    reserve=("7C 8C KC QC JC TC 9C", "5C AC 2C 3C 4C"),
)
"""Ace pile 0 and king pile 0 both stop at 6, the tableau is empty, the stock is out.

Reserve 1 holds, top first, 9 T J Q K 8 7: five cards above the 7 the ace pile
needs, one more than the tableau can hold. Lifting the ace pile's 6 leaves an ace
pile at 5 and a king pile at 6 that meet, and their boundary slides up to take
the 9 and then the whole of reserve 1; without that lift the deal is lost.
"""


def test_with_the_stock_out_a_lift_leads_to_a_card_going_home() -> None:
    # Every move the sweep makes once the stock is out ends in a card home or on an
    # empty tableau pile, never in a lift; the one win here needs one, and the sweep,
    # the search and the plain search on the rules engine all find it.
    search = Search(LIFT_TO_PAIR)
    moves = [[step[0] for step in unpack([code])] for code, _ in search.moves(search.root)]
    assert all(steps[-1] != LIFT for steps in moves)
    assert [LIFT, HOME] in moves
    search.due = 1 << 62  # no budget to look at
    sweep = Sweep(search, None)
    assert sweep.advance(1 << 62, lambda: None) and sweep.win is not None
    line = search.realise(unpack(sweep.win))
    assert replay(Solution(LIFT_TO_PAIR, "won", line)).problem is None
    result = solve(LIFT_TO_PAIR)
    assert result.status == "won"
    assert any(m.source is not None and m.source.group == "foundation" for m in result.moves)
    assert replay(Solution(LIFT_TO_PAIR, "won", result.moves)).problem is None
    assert solve(LIFT_TO_PAIR, prune=False).status == "won"


def after_steps(search: Search, *steps: tuple[int, int]) -> int:
    """The key after the first move of each (what, source) in turn."""
    key = search.root
    for what, source in steps:
        key = next(child for code, child in search.children(key) if unpack([code])[0][:2] == (what, source))
    return key


def test_wastes_with_the_same_ranks_in_the_same_order_are_one_position() -> None:
    # Two sevens come off the stock and one goes home: whichever stays on the waste,
    # its future is the same, and the search keeps one position for both lines.
    state = acey_position(up=(6, 6, 13, 13), tableau=("8C", "8D", "9C", "9D"), stock="7D 7C", rest="stock")
    search = Search(state)
    both_dealt = after_steps(search, (DEAL, 0), (DEAL, 0), (HOME, WASTE))
    one_at_a_time = after_steps(search, (DEAL, 0), (HOME, WASTE), (DEAL, 0))
    assert both_dealt == one_at_a_time


def greedy_walk(search: Search, key: int, stop: int) -> int:
    """The beam's look-ahead spelt out on the search's own moves: home when a card can go, else deal."""
    while search.dealt(key) < stop:
        moves = [(unpack([code])[0], child) for code, child in search.children(key)]
        homes = [child for step, child in moves if step[0] == HOME and step[1] != TABLEAU]
        homes += [child for step, child in moves if step[0] == HOME and step[1] == TABLEAU]
        key = homes[0] if homes else next(child for step, child in moves if step[0] == DEAL)
    return key


@FAST
@given(acey_positions(), st.integers(1, 12), st.randoms(use_true_random=False))
def test_the_look_ahead_plays_greedily_and_its_memo_changes_nothing(
    state: State, ahead: int, rnd: random.Random
) -> None:
    # The beam judges positions by the cards left after greedy play (Search._greedy_left),
    # sharing one memo among the positions of a level: it must give what a plain greedy
    # walk gives, whatever the memo already holds from the positions judged before.
    search = Search(state)
    here = search.dealt(search.root)
    stop = min(here + ahead, len(search.line))
    memo: dict[int, int] = {}
    level = [
        search.root,
        *(child for _, child in search.children(search.root) if search.dealt(child) == here),
    ]
    for key in rnd.sample(level, len(level)):
        heights, position, waste, _, _ = search.unpack(greedy_walk(search, key, stop))
        left = search.in_reserves(heights) + waste.bit_count() + len(search.line) - position
        assert search._greedy_left(key, stop, memo) == left


class _Rang(Exception):
    """The clock a test gives a judge: it stops the judge at its first look."""


def test_the_look_ahead_lets_a_budget_stop_it_while_it_sorts() -> None:
    # Sorting a wide level by the look-ahead takes seconds and finds no new position,
    # so it must look at the clock itself: deal 689 once overran its 60 s by 2.2 s.
    search = Search(deal(load_game(ACEY), 1))
    level = [child for _, child in search.children(search.root)]

    def ring() -> None:
        raise _Rang

    with pytest.raises(_Rang):
        search._rank_ahead(level, ring)


def test_the_clock_is_read_between_positions_too() -> None:
    # A search that looks at its budget while the position count stands still (a judge
    # sorting a level) is stopped all the same: the clock is read at every look.
    budget = _Budget(Limit(seconds=60))
    assert budget.check(7, 0) == CHECK_EVERY
    budget.deadline = time.perf_counter() - 1
    with pytest.raises(_BudgetExceeded, match="60 s ran out"):
        budget.check(7, 0)


def test_a_budget_says_when_to_look_again_without_passing_its_positions() -> None:
    budget = _Budget(Limit(states=1000))
    assert budget.check(0, 0) == CHECK_EVERY
    assert budget.check(990, 0) == 11  # the next look comes at position 1001, one over
    with pytest.raises(_BudgetExceeded, match="searched 1,000 positions"):
        budget.check(1001, 0)


@pytest.mark.parametrize("states", [1, 255, 5000, 60_000])  # at 60,000 the sweep has its first turn
def test_a_search_stops_exactly_at_its_budget(states: int) -> None:
    result = solve(deal(load_game(ACEY), 13), Limit(states=states))
    assert (result.status, result.states) == ("unknown", states)


def test_the_beams_judge_counts_the_waste_not_the_reserves() -> None:
    # A reserve card waits in an order the deal fixed; a waste card buries those below
    # it. Counting reserve cards steered the beams to empty the reserves early, which
    # lost deals that keep them whole until the foundations are ready.
    search = Search(deal(load_game(ACEY), 1))
    heights, position, waste, tableau, found = search.unpack(search.root)
    fewer_in_reserve = search.pack((heights - 1, position, waste, tableau, found))
    one_more_on_waste = search.pack((heights, position + 1, waste | 1 << position, tableau, found))
    assert search._promise(fewer_in_reserve) == search._promise(search.root)
    assert search._promise(one_more_on_waste) < search._promise(search.root)


class _Watched(Search):
    """A search that notes every beam it starts (its width, whether it looks ahead, whether
    it ended on its own) and every turn of its sweep (positions before and after, whether
    it was over, how many beams came before, whether the sweep was still there, and the
    width of the sweep that took it and whether it had narrowed by the turn's end)."""

    def __init__(self, state: State, sweeps: bool = True, table_cap: int | None = None) -> None:
        super().__init__(state, table_cap)
        self.beams: list[tuple[int, bool, bool]] = []
        self.turns: list[tuple[int, int, bool, int, bool]] = []
        self.widths: list[tuple[int | None, bool]] = []
        self.sweeps = sweeps

    def _beam(self, width: int, judge: Judge, check: Check) -> tuple[list[int] | None, bool]:
        ahead = judge == self._rank_ahead
        self.beams.append((width, ahead, False))
        outcome = super()._beam(width, judge, check)
        self.beams[-1] = (width, ahead, True)
        return outcome

    def _sweep_turn(self, check: Check, round_: int) -> Sweep | None:
        if not self.sweeps:
            return None
        assert round_ == SWEEP_FROM + len(self.turns)  # a turn after every round from SWEEP_FROM
        begun, taking = self.states, self.sweep
        over = super()._sweep_turn(check, round_)
        if taking is not None:
            self.widths.append((taking.width, taking.narrowed))
        if over is not None:
            assert not over.narrowed  # a verdict comes only from a sweep that kept every rest
        self.turns.append((begun, self.states, over is not None, len(self.beams), self.sweep is not None))
        return over


def stop_after(states: int) -> Check:
    """A budget of positions that asks to be told of every one."""

    def check(seen: int, _: int) -> int:
        if seen > states:
            raise _BudgetExceeded("spent")
        return 1

    return check


def test_the_beams_keep_the_schedule_whatever_the_budget() -> None:
    # Each round's beams are three times as wide as the last, the plain one then
    # the look-ahead a round behind, until the budget stops the search, even
    # inside a beam. (The sweep's turns are left out: see the next test.)
    search = _Watched(deal(load_game(ACEY), 13), sweeps=False)
    with pytest.raises(_BudgetExceeded):
        search.run(stop_after(300_000))
    schedule = [(FIRST_WIDTH, False)]
    for round_ in range(1, len(search.beams)):
        schedule += [(FIRST_WIDTH * GROWTH**round_, False), (FIRST_WIDTH * GROWTH ** (round_ - 1), True)]
    assert [(width, ahead) for width, ahead, _ in search.beams] == schedule[: len(search.beams)]
    assert len(search.beams) > 6  # far enough to see the look-ahead's widths grow
    assert not search.beams[-1][2]  # the last one was cut


def _share(turn: int) -> int:
    """The share of the sweep's turn number ``turn`` (from 0), which comes after round SWEEP_FROM + ``turn``."""
    return SWEEP_SHARE if SWEEP_FROM + turn >= updown.SHARE_FROM else 1


def test_the_sweep_takes_its_share_after_the_first_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    # Deal 13 with no bound on the table, so that its sweep never gives way: it
    # waits for the beams of rounds 0 to SWEEP_FROM, then each of its turns ends
    # when it has visited as many positions as the other searches have, and
    # SWEEP_SHARE times as many after round SHARE_FROM (moved up here, so that
    # the budget sees both shares).
    monkeypatch.setattr(updown, "SHARE_FROM", SWEEP_FROM + 1)
    search = _Watched(deal(load_game(ACEY), 13))
    with pytest.raises(_BudgetExceeded):
        search.run(stop_after(1_500_000))
    assert len(search.turns) > 2
    assert search.turns[0][3] == 1 + 2 * SWEEP_FROM
    swept = 0
    for turn, (begun, ended, over, _, _) in enumerate(search.turns):
        swept += ended - begun
        assert not over
        assert swept == _share(turn) * (ended - swept)
    assert _share(0) == 1 and _share(len(search.turns) - 1) == SWEEP_SHARE > 1


def test_a_sweep_whose_rests_multiply_narrows_and_keeps_its_share() -> None:
    # With the default table, deal 13's sweep sees its rests multiply within a few
    # turns and narrows to the most promising rests after each stock card; it
    # still takes its share, beside the beams.
    search = _Watched(deal(load_game(ACEY), 13), table_cap=DEFAULT_TABLE_CAP)
    with pytest.raises(_BudgetExceeded):
        search.run(stop_after(1_500_000))
    assert search.widths[0] == (None, False)
    assert search.widths[-1] == (sweep.FIRST_RESTS, True)
    swept = 0
    for turn, (begun, ended, over, _, still_there) in enumerate(search.turns):
        swept += ended - begun
        assert still_there and not over
        assert swept == _share(turn) * (ended - swept)


def test_a_narrowed_sweep_that_ends_without_a_win_gives_way_for_good() -> None:
    # Deal 194 is lost. A sweep narrowed to two rests a card ends without a win,
    # which proves nothing: it gives way, and the verdict comes from a search that
    # dropped nothing (the _Watched search checks that no narrowed sweep gave it).
    search = _Watched(deal(load_game(ACEY), 194))
    search.sweep = Sweep(search, None, width=2)
    assert search.run(stop_after(1_000_000)) is None
    assert search.widths[-1] == (2, True)
    assert not search.turns[-1][-1]  # it was gone after its last turn
    assert len(search.beams) > search.turns[-1][3]  # and the beams went on


def test_a_sweep_near_the_end_of_the_stock_goes_on_to_the_end_in_one_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Deal 48 with 52 of its 66 stock cards dealt onto the waste: with no share at
    # all, the sweep still goes through, in its first turn, because it starts past
    # SWEEP_THROUGH of the stock, narrowed or not; with that moved past the end, it
    # takes no step.
    state = deal(load_game(ACEY), 48)
    for _ in range(52):
        state.push(Move.deal())
    monkeypatch.setattr(updown, "SWEEP_SHARE", 0)
    monkeypatch.setattr(updown, "SHARE_FROM", 0)
    through = _Watched(state)
    assert through.run(stop_after(1_000_000)) is None
    (begun, ended, over, _, _), *_ = through.turns
    assert over and ended > begun
    # A narrowed sweep goes through as well; ending without a win, it then gives way.
    narrowed = _Watched(state)
    narrowed.sweep = Sweep(narrowed, None, width=2)
    assert narrowed.run(stop_after(1_000_000)) is None
    (begun, ended, over, _, still_there), *_ = narrowed.turns
    assert ended > begun and not over and not still_there
    assert narrowed.widths[0] == (2, True)
    monkeypatch.setattr(updown, "SWEEP_THROUGH", 1.01)
    held = _Watched(state)
    assert held.run(stop_after(1_000_000)) is None  # the other searches prove it lost alone
    assert held.turns and held.swept == 0


def test_a_beams_links_lead_back_to_the_root_and_weigh_a_sixteenth_of_a_position() -> None:
    links = _Links()
    root = links.add(-1)
    first = links.add(root << STEP_BITS | 5)
    links.add(root << STEP_BITS | 6)  # a sibling, not on the way
    second = links.add(first << STEP_BITS | 7)
    assert links.path(second) == [5, 7]
    assert links.path(root) == []
    for step in range(28):
        links.add(second << STEP_BITS | step)
    assert links.weight() == 2  # 32 links


def test_a_full_table_forgets_the_positions_proved_lost_instead_of_stopping() -> None:
    # The positions proved lost only spare the search work: forgetting them costs
    # positions, not the win, and the table stays within its budget. The table is
    # a quarter of what the search keeps without its sweep; the sweep gives way to
    # it, so the positions compared are the other searches'.
    state = deal(load_game(ACEY), 20)
    roomy, roomy_budget = _Watched(state, sweeps=False), _Budget(Limit())
    assert roomy.run(roomy_budget.check) is not None
    table = roomy_budget.peak // 4
    tight, tight_budget = Search(state, table), _Budget(Limit(table=table))
    assert tight.run(tight_budget.check) is not None
    assert tight.states - tight.swept > roomy.states  # it searched again some of what it forgot
    assert tight_budget.peak <= table


def test_a_search_stopped_early_guesses_towards_its_deepest_best_position() -> None:
    # The guess follows the beams' lead: the first step towards the best
    # position of the deepest level reached, by the latest beam to reach it; a
    # move proved lost since gives way to the first one that is not.
    state = deal(load_game(ACEY), 85)  # undecided after a minute; three moves at the start
    search = Search(state)
    with pytest.raises(_BudgetExceeded):
        search.run(stop_after(20_000))
    guess = search.guess()
    assert guess is not None and guess in state.legal_moves
    assert search._lead is not None and search._lead[0] == len(search.line) - 1  # a beam got to the last card
    children = search.children(search.root)
    guessed = next(key for code, key in children if search.realise(unpack([code]))[0] == guess)
    search.dead.add(guessed)
    other = search.guess()
    assert other is not None and other != guess and other in state.legal_moves
    search.dead.update(key for _, key in children)
    assert search.guess() is None


def test_the_lead_is_the_deepest_level_and_of_equal_depths_the_latest_beam() -> None:
    # Later rounds are wider, so of two beams that reached the same stock card
    # the later one's best is the better judged; a shallower level never
    # displaces a deeper one, however late its beam.
    state = deal(load_game(ACEY), 85)
    search, links = Search(state), _Links()
    root = links.add(-1)
    (first, _), (second, _), (third, _) = search.children(search.root)[:3]
    at = search.layout

    def note(beam: int, dealt: int, code: int) -> None:
        search._beams = beam
        search._note_lead(dealt << at.position, root << STEP_BITS | code, links)

    note(1, 30, first)
    note(2, 30, second)
    assert search._lead == (30, 2, second)
    note(3, 29, third)
    assert search._lead == (30, 2, second)
    note(4, 31, third)
    assert search._lead == (31, 4, third)
