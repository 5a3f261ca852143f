"""The solver: exact verdicts on positions with known answers, replayable wins, and
pruning rules that never change a verdict."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cardtable import Card, Move, State, WrongTypeError, deal, load_game
from cardtable.core.move import CARD, REDEAL
from cardtable.core.spec import Kind
from cardtable.formats import Solution, deal_from_dict, read_deal, replay
from cardtable.solver import InvalidLimitError, Limit, Progress, StopSearch, search, solve
from cardtable.solver.prune import Pruner, safe_home_move
from helpers import (
    ACEY,
    ALEXANDER,
    DATA,
    FAN,
    FAST,
    FOUNDATION_PLAN,
    GAME_IDS,
    LUCIE,
    acey_position,
    acey_stuck_position,
    base_id,
    card_of,
    fan_position,
    positions,
    rank_of,
    suit_of,
)

CLUB_RUN_WITH_3_ON_2 = "KC QC JC TC 9C 8C 7C 6C 5C 4C 2C 3C"
"""All the clubs but the ace in one fan, the three on the two: the three can never move."""


def assert_replays(state: State, moves: list[Move]) -> None:
    outcome = replay(Solution(state, "won", moves))
    assert outcome.problem is None, outcome.problem


@pytest.mark.parametrize(
    "state",
    [
        fan_position(FAN, ["KS"]),
        fan_position(ALEXANDER, ["AS"]),
        fan_position(LUCIE, ["KS"], redeals_left=0),
        acey_position(up=(13, 13, 13, 12), rest="waste"),
    ],
    ids=[FAN, ALEXANDER, LUCIE, ACEY],
)
def test_won_in_one_move(state: State) -> None:
    result = solve(state)
    assert result.status == "won"
    assert len(result.moves) == 1
    assert_replays(state, result.moves)


STUCK = [
    fan_position(FAN, [CLUB_RUN_WITH_3_ON_2]),
    fan_position(ALEXANDER, ["KH QH JH TH 9H 8H 7H 6H 5H 4H 2H 3H"]),
    fan_position(LUCIE, [CLUB_RUN_WITH_3_ON_2], redeals_left=0),
    acey_position(
        up=(10, 10, 10, 10),
        tableau=("KC", "KD", "KH", "KS"),
        reserve=("JC JD JH JS QC QD QH QS", ""),
        rest="reserve/1",
    ),
]
"""A position of each game with no legal move left: a card lies on one that must go home before it."""


@pytest.mark.parametrize("state", STUCK, ids=[FAN, ALEXANDER, LUCIE, ACEY])
def test_stuck_is_unwinnable(state: State) -> None:
    assert solve(state).status == "unwinnable"
    assert solve(state, prune=False).status == "unwinnable"


@pytest.mark.parametrize("prune", [True, False], ids=["pruned", "unpruned"])
@pytest.mark.parametrize("limit", [Limit(seconds=0), Limit(states=0)], ids=["no-seconds", "no-positions"])
@pytest.mark.parametrize(
    ("state", "status"),
    [
        *(pytest.param(fan_position(game, []), "won", id=f"{game}-won") for game in (FAN, ALEXANDER, LUCIE)),
        pytest.param(acey_position(), "won", id=f"{ACEY}-won"),
        *(
            pytest.param(state, "unwinnable", id=f"{game}-stuck")
            for game, state in zip((FAN, ALEXANDER, LUCIE, ACEY), STUCK)
        ),
        pytest.param(acey_stuck_position(), "unwinnable", id=f"{ACEY}-passes-only"),
    ],
)
def test_a_position_over_is_decided_with_no_budget(
    state: State, status: str, limit: Limit, prune: bool
) -> None:
    result = solve(state, limit, prune=prune)
    assert (result.status, result.moves, result.states) == (status, [], 0)


def test_a_redeal_left_is_something_to_search() -> None:
    state = fan_position(LUCIE, [CLUB_RUN_WITH_3_ON_2], redeals_left=1)
    assert not state.is_lost()
    assert solve(state, Limit(states=0)).status == "unknown"


def test_lucie_won_only_through_a_redeal() -> None:
    stuck = fan_position(LUCIE, [CLUB_RUN_WITH_3_ON_2], redeals_left=0)
    assert solve(stuck).status == "unwinnable"
    for seed in range(100):
        state = fan_position(LUCIE, [CLUB_RUN_WITH_3_ON_2], redeals_left=1, seed=seed)
        result = solve(state)
        if result.status == "won":
            break
    else:
        pytest.fail("no seed below 100 gives a winning redeal")
    assert result.moves[0].kind == REDEAL
    assert result.moves[0].fans is not None  # the line records the fans it dealt
    assert_replays(state, result.moves)


def test_acey_won_only_by_moving_a_card_back_off_a_foundation() -> None:
    # Ace pile 0 stops at 5, king pile 0 at 6, king piles 1-3 at 3; four aces fill the
    # tableau, the stock is out, and the reserve's top 4 fits nowhere until the 5 on
    # ace pile 0 moves over to king pile 0.
    state = acey_position(
        up=(5, 13, 13, 13),
        down=(8, 11, 11, 11),
        tableau=("AC", "AD", "AH", "AS"),
        reserve=("JC TC 9C 8C 7C 6C 5C 2C 2D 2H 2S 3C 4C", "KC QC"),
    )
    assert all(move.source is not None and move.source.group == "foundation" for move in state.legal_moves)
    result = solve(state)
    assert result.status == "won"
    assert any(
        m.kind == CARD and m.source is not None and m.source.group == "foundation" for m in result.moves
    )
    assert_replays(state, result.moves)


def test_budgets_give_unknown_never_a_made_up_verdict() -> None:
    state = deal(load_game(LUCIE), 1)
    result = solve(state, Limit(states=5))
    assert result.status == "unknown"
    assert result.moves == []
    assert "5 positions" in result.reason
    assert solve(state, Limit(table=3)).status == "unknown"
    assert solve(state, Limit(states=1)).reason == "searched 1 position"


@pytest.mark.parametrize("game", [FAN, ALEXANDER, LUCIE, ACEY])
@FAST
@given(data=st.data())
def test_an_unknown_comes_with_a_legal_guess_and_a_verdict_with_none(game: str, data: st.DataObject) -> None:
    state = data.draw(positions(game))
    result = solve(state, Limit(states=data.draw(st.integers(1, 400))))
    if result.status != "unknown":
        assert result.guess is None
    elif result.guess is not None:
        assert result.guess in state.legal_moves


def test_acey_and_kingsley_stopped_early_still_guesses_a_first_move() -> None:
    # its beams judge their first levels at once (see test_updown for which move)
    state = deal(load_game(ACEY), 13)
    result = solve(state, Limit(states=30))
    assert result.status == "unknown" and result.guess in state.legal_moves


@pytest.mark.parametrize("game", [FAN, ALEXANDER, LUCIE])
def test_the_depth_first_search_guesses_only_a_safe_move(game: str) -> None:
    # Deal 1 of each starts with a card that can safely go home, deal 7 (3 in
    # Alexander the Great) with none: the search's line in hand is no lead.
    spec = load_game(game)
    with_safe, without = deal(spec, 1), deal(spec, 3 if game == ALEXANDER else 7)
    assert safe_home_move(with_safe) is not None and safe_home_move(without) is None
    guessed = solve(with_safe, Limit(states=30))
    assert guessed.status == "unknown" and guessed.guess == safe_home_move(with_safe)
    unguessed = solve(without, Limit(states=30))
    assert unguessed.status == "unknown" and unguessed.guess is None


def test_solve_leaves_the_state_unchanged() -> None:
    state = deal(load_game(FAN), 3)
    before = state.copy()
    solve(state)
    assert state == before
    assert state.move_stack == []


def test_a_won_position_is_won_with_no_moves() -> None:
    result = solve(acey_position())
    assert (result.status, result.moves) == ("won", [])


@pytest.mark.parametrize("game", [FAN, ALEXANDER, LUCIE, "alexander-the-great-lucie(redeals=0)", ACEY])
@pytest.mark.parametrize("number", [1, 2, 3])
def test_numbered_deals_decide_and_wins_replay(game: str, number: int) -> None:
    state = deal(load_game(game), number)
    result = solve(state, Limit(states=20_000))
    if result.status == "won":
        assert_replays(state, result.moves)


@pytest.mark.parametrize("game", [FAN, ALEXANDER, LUCIE, ACEY])
@FAST
@given(data=st.data())
def test_every_win_found_on_random_positions_replays(game: str, data: st.DataObject) -> None:
    state = data.draw(positions(game))
    result = solve(state, Limit(states=2_000))
    if result.status == "won":
        assert_replays(state, result.moves)


@pytest.mark.parametrize(
    "game",
    [
        FAN,
        ALEXANDER,
        LUCIE,
        "alexander-the-great-lucie(redeals=0)",
        "alexander-the-great-lucie(redeal_anytime=true)",
    ],
)
@FAST
@given(data=st.data())
def test_pruning_never_changes_a_verdict(game: str, data: st.DataObject) -> None:
    state = data.draw(positions(game))
    limit = Limit(states=3_000)
    plain = solve(state, limit, prune=False)
    if plain.status == "unknown":
        return
    pruned = solve(state, limit)
    assert pruned.status == plain.status


def test_with_a_redeal_at_any_time_no_card_is_safe_to_send_home() -> None:
    # A redeal that may come at any time gathers whatever is left in the fans: sending K♣
    # home first leaves a redeal that loses, so K♣ is not safe here (prune.py, safe_home).
    anytime = "alexander-the-great-lucie(redeal_anytime=true)"
    foundations = [
        [f"{r}D" for r in "A23456789TJ"],
        [f"{r}H" for r in "A234567"],
        [f"{r}C" for r in "A23456789TJQ"],
        [f"{r}S" for r in "A23456789TJQK"],
    ]
    fans: list[list[str]] = [[] for _ in range(18)]
    fans[3], fans[4], fans[7], fans[8], fans[10], fans[14] = (
        ["9H"],
        ["8H", "QD", "KC"],
        ["KD"],
        ["JH", "KH"],
        ["TH"],
        ["QH"],
    )
    state = deal_from_dict(
        {"game": anytime, "redeals_left": 2, "seed": 371, "piles": {"foundation": foundations, "fan": fans}}
    )
    assert safe_home_move(state) is None
    assert solve(state).status == solve(state, prune=False).status == "won"


def test_lucie_covering_a_card_can_be_what_wins_the_redeal() -> None:
    # From deal 7 after 31 moves: the only winning line moves a lone 6♠ onto 7♠, so
    # that 7♠ cannot move on and the redeal comes with fewer cards home. Lone-card
    # moves may be left out only when no redeal is to come (prune.py).
    state = read_deal((DATA / "solver" / "lucie-cover-before-redeal.json").read_text())
    assert state.redeals_left == 1
    pruned = solve(state)
    assert pruned.status == solve(state, prune=False).status == "won"
    assert_replays(state, pruned.moves)


@pytest.mark.parametrize("game", GAME_IDS)
@FAST
@given(data=st.data())
def test_moving_a_card_straight_back_gives_the_position_before(game: str, data: st.DataObject) -> None:
    # The search never tries a card straight back when its pile only lost that card
    # (no stock card refilled it): the key must then be the one it had before.
    state = data.draw(positions(game))
    for source, target in list(state.card_moves()):
        key, height = state.key(), len(state.piles[source])
        state.push_card(source, target)
        if len(state.piles[source]) == height - 1 and (target, source) in set(state.card_moves()):
            state.push_card(target, source)
            assert state.key() == key
            state.pop()
        state.pop()


# -- stranded cards (solver/prune.py) ---------------------------------------------

STRANDED_GAMES = [FAN, ALEXANDER, "alexander-the-great-lucie(redeals=0)"]
TABLEAU_RULES = {  # (builds up, builds down, ranks an empty fan takes), from rules.md
    FAN: (False, True, {13}),
    ALEXANDER: (True, True, {1, 13}),
    LUCIE: (False, True, set()),
}


def stranded_by_definition(state: State) -> bool:
    """``Pruner.stranded`` read plainly: sets of cards, rounds over every pile until nothing changes."""
    base = base_id(state.spec.id)
    up, down, fill = TABLEAU_RULES[base]
    ascending = {suit: climbs for suit, climbs in FOUNDATION_PLAN[base]}
    fans = [list(pile) for pile, kind in zip(state.piles, state.plan.kinds) if kind is Kind.TABLEAU]
    home = {card for i in state.plan.foundations for card in state.piles[i]}
    uncovered = {fan[-1] for fan in fans if fan}
    left: set[Card] = set()
    may_empty = any(not fan for fan in fans)

    def may_go_home(card: Card) -> bool:
        r, suit = rank_of(card), suit_of(card)
        if ascending[suit]:
            return r == 1 or card_of(r - 1, suit) in home
        return r == 13 or card_of(r + 1, suit) in home

    def may_leave(card: Card) -> bool:
        r, suit = rank_of(card), suit_of(card)
        onto = [card_of(r - 1, suit)] if up and r > 1 else []
        onto += [card_of(r + 1, suit)] if down and r < 13 else []
        return card in home or any(c in uncovered for c in onto) or (may_empty and r in fill)

    changed = True
    while changed:
        changed = False
        for fan in fans:
            for depth, card in enumerate(fan):
                if card not in uncovered:
                    continue
                if card not in home and may_go_home(card):
                    home.add(card)
                    changed = True
                if card not in left and may_leave(card):
                    left.add(card)
                    changed = True
                    if depth:
                        uncovered.add(fan[depth - 1])
                    else:
                        may_empty = True
    return any(card not in home for fan in fans for card in fan)


@pytest.mark.parametrize("game", STRANDED_GAMES)
@FAST
@given(data=st.data())
def test_stranded_cards_are_found_as_defined(game: str, data: st.DataObject) -> None:
    state = data.draw(positions(game))
    pruner = Pruner(state.spec)
    assert pruner.final(state)
    assert pruner.stranded(state) == stranded_by_definition(state)


@pytest.mark.parametrize("game", STRANDED_GAMES)
@FAST
@given(data=st.data())
def test_a_card_that_may_move_on_at_once_strands_nothing(game: str, data: st.DataObject) -> None:
    # The search skips the check after a move between tableau piles whose card may
    # move on at once (prune.py): from a position that is not stranded, such a move,
    # and the foundation moves after it, never give one that is.
    state = data.draw(positions(game))
    pruner = Pruner(state.spec)
    assume(not stranded_by_definition(state))
    tableau = {i for i, kind in enumerate(state.plan.kinds) if kind is Kind.TABLEAU}
    for source, target in list(state.card_moves()):
        if source not in tableau or target not in tableau:
            continue
        card = state.piles[source][-1]
        state.push_card(source, target)
        played = 1
        for _ in range(data.draw(st.integers(0, 3))):
            if (home := pruner.home_move(state)) is None:
                break
            state.push_card(*home)
            played += 1
        if pruner.leaves_at_once(state, card):
            assert not stranded_by_definition(state)
        for _ in range(played):
            state.pop()


@pytest.mark.parametrize(
    ("fans", "stranded"),
    [
        # Spades ace to nine are home. The queen moves onto the king, the jack onto the
        # queen, and then the ten, jack, queen and king go home.
        (["TS JS QS", "KS"], False),
        # The jack can neither go home (the ten is under it) nor move: the queen it
        # would go onto is under it too, and an empty fan takes only a king.
        (["TS QS JS", "KS"], True),
    ],
)
def test_a_card_buried_under_its_own_way_out_is_stranded(fans: list[str], stranded: bool) -> None:
    state = fan_position(FAN, fans)
    assert Pruner(state.spec).stranded(state) == stranded == stranded_by_definition(state)


# -- progress -----------------------------------------------------------------


@pytest.mark.parametrize("game", ["fan", "acey-and-kingsley"])
def test_progress_hears_how_far_a_search_has_got(monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    monkeypatch.setattr(search, "PROGRESS_EVERY", 0.0)  # a report at every look, whatever the machine's speed
    heard: list[Progress] = []
    result = solve(deal(load_game(game), 3), Limit(states=3000), progress=heard.append)
    assert heard
    assert [p.states for p in heard] == sorted(p.states for p in heard)
    assert heard[-1].states <= result.states
    assert all(0 <= p.seconds <= result.seconds and p.table <= result.peak_table for p in heard)


def test_an_error_in_progress_ends_the_search_and_leaves_the_position_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(search, "PROGRESS_EVERY", 0.0)
    start = deal(load_game("acey-and-kingsley"), 13)
    before = [list(pile) for pile in start.piles]

    def stop(_: Progress) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve(start, progress=stop)
    assert [list(pile) for pile in start.piles] == before and not start.move_stack


@pytest.mark.parametrize(("game", "number"), [(LUCIE, 7), (ACEY, 13)])
def test_a_search_stopped_from_its_progress_ends_unknown_with_what_it_did(
    monkeypatch: pytest.MonkeyPatch, game: str, number: int
) -> None:
    monkeypatch.setattr(search, "PROGRESS_EVERY", 0.0)
    start = deal(load_game(game), number)
    heard: list[Progress] = []

    def stop_at_the_second(progress: Progress) -> None:  # as a button's flag, read at each report
        heard.append(progress)
        if len(heard) == 2:
            raise StopSearch("stopped by the player")

    result = solve(start, progress=stop_at_the_second)
    assert (result.status, result.reason, len(heard)) == ("unknown", "stopped by the player", 2)
    assert result.states >= heard[-1].states > 0 and (
        result.guess is None or result.guess in start.legal_moves
    )
    plain = solve(start, progress=lambda progress: (_ for _ in ()).throw(StopSearch()))
    assert (plain.status, plain.reason) == ("unknown", "stopped")


@pytest.mark.parametrize(
    ("limit", "words"),
    [
        ({"states": -5}, "a limit of -5 positions"),
        ({"table": 0}, "a table of 0 positions"),
        ({"seconds": float("nan")}, "a limit of nan seconds"),
        ({"seconds": -1}, r"^a limit of -1 seconds: give 0 or more, or None for no limit$"),
        ({"seconds": -0.5}, r"^a limit of -0.5 seconds: give 0 or more"),
        ({"states": "10"}, r"^a limit of '10' positions: give a whole number, or None for no limit$"),
        ({"states": 1.5}, "a limit of 1.5 positions: give a whole number"),
        ({"seconds": True}, r"^a limit of True seconds: give a number, or None for no limit$"),
        ({"table": None}, r"^a table of None positions: give a whole number$"),
    ],
)
def test_a_limit_no_search_could_keep_is_refused(limit: dict[str, float], words: str) -> None:
    with pytest.raises(InvalidLimitError, match=words):
        Limit(**limit)  # type: ignore[arg-type]


def test_a_limit_takes_any_number_of_its_kind() -> None:
    state = deal(load_game(FAN), 3)
    budget = Limit(states=numpy.int64(50_000), seconds=Fraction(60), table=numpy.int32(100_000))  # type: ignore[arg-type]
    assert solve(state, budget).status == "won"
    assert (type(budget.states), type(budget.seconds), type(budget.table)) == (
        int,
        float,
        int,
    )  # as JSON takes
    whole = Limit(seconds=numpy.int64(30))  # type: ignore[arg-type]
    assert repr(whole.seconds) == "30"  # whole seconds stay whole: "30 s ran out"


def test_a_result_reads_in_one_line_and_compares_without_its_time() -> None:
    state = deal(load_game(FAN), 3)
    won = solve(state, Limit(states=50_000))
    assert re.fullmatch(r"<SolveResult won: 65 moves, [0-9,]+ positions, [0-9.e-]+ s>", repr(won)), repr(won)
    assert solve(state, Limit(states=50_000)) == won  # the same search, another time
    cut = solve(state, Limit(states=3))
    guess = f", guess {cut.guess}" if cut.guess else ""
    assert re.fullmatch(
        rf"<SolveResult unknown \(searched 3 positions\): 3 positions, \S+ s{guess}>", repr(cut)
    )


@pytest.mark.parametrize(
    ("limit", "words"),
    [
        (30, "30 (int): give Limit(seconds=30) for 30 seconds, or Limit(states=30) for 30 positions"),
        (0, "0 (int): give Limit(seconds=0) for 0 seconds, or Limit(states=0) for 0 positions"),  # not none
        (2.5, "2.5 (float): give Limit(seconds=2.5) for 2.5 seconds"),
        ({"seconds": 30}, "{'seconds': 30} (dict): give a Limit, such as Limit(seconds=30)"),
    ],
)
def test_a_limit_that_is_no_limit_is_refused_saying_what_to_give(limit: object, words: str) -> None:
    with pytest.raises(WrongTypeError) as caught:
        solve(deal(load_game("fan"), 3), limit)  # type: ignore[arg-type]
    assert str(caught.value) == f"not a Limit: {words}"
    assert isinstance(caught.value, TypeError)


def test_a_state_that_is_no_state_is_refused() -> None:
    with pytest.raises(TypeError, match=r"^not a State: 'fan' \(str\): give a position, such as deal"):
        solve("fan")  # type: ignore[arg-type]


def test_no_seconds_left_is_unknown_at_once_and_says_none_ran_out() -> None:
    spent = Limit(seconds=0.0)  # what a walk back hands on once its time is spent
    result = solve(deal(load_game("fan"), 3), spent)
    assert (result.status, result.reason) == ("unknown", "0 s ran out")


def test_a_limit_is_given_by_name_only() -> None:
    """``Limit(30)`` reads as 30 seconds but would be 30 positions, so it is refused."""
    with pytest.raises(TypeError):
        Limit(30)  # type: ignore[call-arg]
