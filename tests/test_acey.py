"""Acey and Kingsley (rules.md): eight foundations, reserves, a self-filling tableau, one pass of the stock.

Foundations 0-3 are the ace piles (up), 4-7 the king piles (down); the helper
builds each from the lowest-numbered free copies, so their cards are mostly clubs
and diamonds, which shows that suits do not matter.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cardtable import Card, Move, State, deal, load_game
from cardtable.formats import Solution, deal_from_dict, deal_to_dict, read_solution, replay
from helpers import (
    ACEY,
    FAST,
    acey_position,
    acey_stuck_position,
    all_cards,
    cards,
    find_win,
    full_deck,
    move_texts,
    names,
    oracle_moves,
    rank_of,
)


def legal(state: State, text: str) -> bool:
    return state.is_legal(Move.from_text(text))


def tops(state: State) -> list[str]:
    return [names(p[-1:]) for p in state.group("foundation")]


def test_the_start() -> None:
    state = deal(load_game(ACEY), 5)
    assert [names(p) for p in state.group("foundation")] == ["AC", "AD", "AH", "AS", "KC", "KD", "KH", "KS"]
    assert [len(p) for p in state.group("reserve")] == [13, 13]
    assert [len(p) for p in state.group("tableau")] == [1, 1, 1, 1]
    assert [len(p) for p in state.group("stock")] == [66]
    assert state.group("waste") == [[]]
    assert all_cards(state) == {c: 2 for c in range(52)}


def building() -> State:
    """Ace pile 0 holds A-5 (top 5C), king pile 4 holds K-5; the rest are full; stock empty."""
    return acey_position(
        up=(5, 13, 13, 13), down=(9, 13, 13, 13), tableau=["6H", "4S", "", ""], waste="TD", rest="waste"
    )


def test_ace_piles_build_up_and_king_piles_down_regardless_of_suit() -> None:
    state = building()
    assert tops(state)[0] == "5C" and rank_of(state.group("foundation")[4][-1]) == 5
    assert legal(state, "tableau/0 foundation/0 6H")  # a heart on a club
    assert legal(state, "tableau/1 foundation/4 4S")  # down on the king pile
    assert not legal(state, "tableau/0 foundation/4 6H")  # a king pile does not build up
    assert not legal(state, "tableau/1 foundation/0 4S")  # an ace pile does not build down
    assert (
        state.why_illegal(Move.from_text("tableau/1 foundation/0 4S"))
        == "4♠ does not go on 5♣ (foundation/0 takes a 6 next)"
    )


def test_a_pile_holds_at_most_13_cards() -> None:
    state = building()
    full_up, full_down = state.group("foundation")[1], state.group("foundation")[5]
    assert len(full_up) == len(full_down) == 13
    for card in range(52):
        for index in (1, 2, 3):
            assert not state.plan.accepts(index, full_up[-1], card)
        for index in (5, 6, 7):
            assert not state.plan.accepts(index, full_down[-1], card)
    assert not legal(state, "waste/0 foundation/1 TD")


def foundation_shuffle() -> State:
    """Ace piles topped 5 and 4, king pile 4 topped 6; stock empty, tableau empty."""
    return acey_position(up=(5, 4, 13, 13), down=(8, 13, 13, 13), waste="9S", rest="waste")


def test_a_foundation_top_may_move_to_another_foundation_where_it_fits() -> None:
    state = foundation_shuffle()
    assert [rank_of(p[-1]) for p in state.group("foundation")[:2]] == [5, 4]
    assert rank_of(state.group("foundation")[4][-1]) == 6
    five, six = tops(state)[0], tops(state)[4]
    assert legal(state, f"foundation/0 foundation/1 {five}")  # 5 on 4, up
    assert legal(state, f"foundation/0 foundation/4 {five}")  # 5 on 6, down
    assert legal(state, f"foundation/4 foundation/0 {six}")  # 6 on 5, up
    assert not legal(state, f"foundation/1 foundation/0 {tops(state)[1]}")  # 4 on 5
    assert not legal(state, f"foundation/2 foundation/3 {tops(state)[2]}")  # K on K
    state.push_checked(Move.from_text(f"foundation/0 foundation/1 {five}"))
    assert [len(p) for p in state.group("foundation")[:2]] == [4, 5]


def test_a_foundation_top_may_move_to_an_empty_tableau_pile() -> None:
    state = foundation_shuffle()
    for index in range(8):
        top = tops(state)[index]
        for pile in range(4):
            assert legal(state, f"foundation/{index} tableau/{pile} {top}")


def test_foundation_cards_reach_the_tableau_only_once_the_stock_is_empty() -> None:
    # While the stock has cards, no tableau pile is ever empty, so there is no room.
    state = acey_position(up=(5, 13, 13, 13), tableau=["6D", "9C", "TC", "JC"], stock="7H 8H", rest="stock")
    assert not any(m.source and m.source.group == "foundation" for m in state.legal_moves)
    five = tops(state)[0]
    assert (
        state.why_illegal(Move.from_text(f"foundation/0 tableau/0 {five}"))
        == "tableau/0 holds 6♦: tableau piles never build, only an empty one takes a card"
    )


def emptied() -> State:
    """Ace pile 0 and king pile 4 empty, ace pile 1 holds only an ace, king pile 5 only a king."""
    return acey_position(
        up=(0, 1, 13, 13), down=(0, 1, 13, 13), tableau=["2C", "QD", "", ""], waste="5H", rest="waste"
    )


def test_an_emptied_ace_pile_takes_only_an_ace() -> None:
    state = emptied()
    king = tops(state)[5]
    assert tops(state)[:2] == ["", "AC"] and tops(state)[4] == "" and king[0] == "K"
    assert legal(state, "foundation/1 foundation/0 AC")  # pointless, but legal
    assert not legal(state, f"foundation/5 foundation/0 {king}")
    assert not legal(state, "tableau/0 foundation/0 2C")
    assert (
        state.why_illegal(Move.from_text("tableau/0 foundation/0 2C"))
        == "2♣ may not fill the empty foundation/0: it takes only an ace"
    )


def test_an_emptied_king_pile_takes_only_a_king() -> None:
    state = emptied()
    assert legal(state, f"foundation/5 foundation/4 {tops(state)[5]}")
    assert not legal(state, "foundation/1 foundation/4 AC")
    assert not legal(state, "tableau/1 foundation/4 QD")


def test_an_emptied_foundation_takes_its_base_from_anywhere_it_can_be_played() -> None:
    # ace piles 0 and 1 and king pile 7 emptied; the stock is out
    state = acey_position(
        up=(0, 0, 13, 12),
        down=(13, 13, 13, 0),
        reserve=["AS", "KD"],
        tableau=["AH", "KS", "", ""],
        waste="KC AD",
        rest="waste",
    )
    lifted_aces = {f"foundation/{f} foundation/{to} {tops(state)[f]}" for f in (4, 5, 6) for to in (0, 1)}
    onto_ace_piles = {
        m.text() for m in state.legal_moves if str(m.target) in ("foundation/0", "foundation/1")
    }
    assert onto_ace_piles == lifted_aces | {
        f"{source} foundation/{to} {card}"
        for source, card in (("reserve/0", "AS"), ("tableau/0", "AH"), ("waste/0", "AD"))
        for to in (0, 1)
    }
    onto_king_pile = {m.text() for m in state.legal_moves if str(m.target) == "foundation/7"}
    assert onto_king_pile == {
        "reserve/1 foundation/7 KD",
        "tableau/1 foundation/7 KS",
        f"foundation/2 foundation/7 {tops(state)[2]}",  # the king on top of a full ace pile
    }
    assert set(state.legal_moves) == oracle_moves(state)


def test_a_lone_base_card_leaves_its_foundation_for_an_empty_tableau_pile() -> None:
    state = emptied()
    ace, king = tops(state)[1], tops(state)[5]
    assert (len(state.group("foundation")[1]), len(state.group("foundation")[5])) == (1, 1)
    for pile in (2, 3):
        assert legal(state, f"foundation/1 tableau/{pile} {ace}")
        assert legal(state, f"foundation/5 tableau/{pile} {king}")
    state.push_checked(Move.from_text(f"foundation/1 tableau/2 {ace}"))
    assert state.group("foundation")[1] == [] and names(state.group("tableau")[2]) == ace
    assert legal(state, f"tableau/2 foundation/0 {ace}"), "and it may come back to any empty ace pile"


def test_with_the_stock_out_a_foundation_top_still_goes_only_onto_an_empty_tableau_pile() -> None:
    state = emptied()
    assert state.group("stock") == [[]] and names(state.group("tableau")[0]) == "2C"
    assert not legal(state, f"foundation/1 tableau/0 {tops(state)[1]}")
    assert not legal(state, f"foundation/2 tableau/1 {tops(state)[2]}")


def test_two_copies_of_a_card_on_top_at_once_each_have_their_moves() -> None:
    # ace pile 0 tops 4 and king pile 4 tops 6: a five fits both, and both fives are on top
    state = acey_position(
        up=(4, 13, 13, 13),
        down=(8, 13, 13, 13),
        reserve=["5C", "5C"],
        tableau=["TD", "JD", "QD", "KD"],
        rest="stock",
    )
    fives = {m.text() for m in state.legal_moves if m.source and m.source.group == "reserve"}
    assert fives == {f"reserve/{r} foundation/{f} 5C" for r in (0, 1) for f in (0, 4)}
    assert set(state.legal_moves) == oracle_moves(state)


def test_nothing_is_ever_placed_on_a_reserve() -> None:
    state = acey_position(
        up=(5, 13, 13, 13), reserve=["7C", ""], tableau=["6D", "", "", ""], waste="8C", rest="waste"
    )
    for source, card in (("tableau/0", "6D"), ("waste/0", "8C"), ("foundation/0", tops(state)[0])):
        for reserve in (0, 1):  # reserve 1 is empty
            move = Move.from_text(f"{source} reserve/{reserve} {card}")
            assert state.why_illegal(move) == "nothing may be placed on reserve piles"
    assert not legal(state, "reserve/0 reserve/1 7C")


def test_nothing_is_placed_on_the_stock_or_the_waste() -> None:
    state = acey_position(up=(5, 13, 13, 13), tableau=["6D", "9C", "TC", "JC"], stock="7H", rest="waste")
    assert state.why_illegal(Move.from_text("tableau/0 stock/0 6D")) == "nothing may be placed on stock piles"
    assert state.why_illegal(Move.from_text("tableau/0 waste/0 6D")) == "nothing may be placed on waste piles"
    for guess in ("7H", "2S"):  # a wrong guess is told no more than a right one: the stock is face down
        said = state.why_illegal(Move.from_text(f"stock/0 tableau/0 {guess}"))
        assert said == "the stock is only dealt from"


def test_the_tableau_never_builds() -> None:
    state = acey_position(up=(6, 6, 13, 13), tableau=["8C", "7C", "9C", ""], rest="waste", waste="8D")
    for source, card in (("tableau/0", "8C"), ("tableau/2", "9C"), ("waste/0", "8D")):
        for target in ("tableau/0", "tableau/1", "tableau/2"):
            if not source.startswith(target):
                assert not legal(state, f"{source} {target} {card}")
    assert legal(state, "tableau/0 tableau/3 8C")  # only an empty pile takes a card


def refill() -> State:
    """Ace pile 0 topped 5; tableau 6D 9C TC JC; stock (top last) ... 7H 8H."""
    return acey_position(up=(5, 13, 13, 13), tableau=["6D", "9C", "TC", "JC"], stock="7H 8H", rest="stock")


def test_the_stock_refills_an_emptied_tableau_pile_at_once() -> None:
    state = refill()
    before = state.copy()
    stock_before = list(state.group("stock")[0])
    state.push_checked(Move.from_text("tableau/0 foundation/0 6D"))
    assert state.group("tableau")[0] == cards("8H")
    assert state.group("stock")[0] == stock_before[:-1]
    assert state.group("waste") == before.group("waste")
    assert len(state.move_stack) == 1  # the refill is not a move
    assert all(state.group("tableau"))
    assert state.pop() == Move.from_text("tableau/0 foundation/0 6D")
    assert state == before
    assert state.group("stock")[0] == stock_before


def test_the_refill_happens_even_on_an_unchecked_push() -> None:
    state = refill()
    state.push(Move.from_text("tableau/0 foundation/0 6D"))
    assert state.group("tableau")[0] == cards("8H")


def test_the_last_stock_card_refills_and_then_piles_stay_empty() -> None:
    state = acey_position(up=(7, 13, 13, 13), tableau=["8D", "9C", "TC", "JC"], stock="QC KC", rest="waste")
    # waste gets the rest; the stock is only QC KC
    assert names(state.group("stock")[0]) == "QC KC"
    state.push_checked(Move.from_text("tableau/0 foundation/0 8D"))
    state.push_checked(Move.from_text("tableau/1 foundation/0 9C"))
    assert state.group("stock")[0] == []
    assert names(state.group("tableau")[0]) == "KC" and names(state.group("tableau")[1]) == "QC"
    assert state.refilled() == cards("QC")[0]  # what a front end tells of the last move
    state.push_checked(Move.from_text("tableau/2 foundation/0 TC"))
    assert state.group("tableau")[2] == [] and state.refilled() is None  # the stock is out
    state.pop()
    assert state.refilled() == cards("QC")[0]
    state.pop()
    assert names(state.group("stock")[0]) == "QC"
    assert names(state.group("tableau")[1]) == "9C"


def test_reserves_and_the_waste_are_not_refilled() -> None:
    state = acey_position(
        up=(5, 5, 13, 13),
        reserve=["6C", ""],
        tableau=["9C", "TC", "JC", "QC"],
        stock="KC",
        waste="6D",
        rest="waste",
    )
    state.push_checked(Move.from_text("reserve/0 foundation/0 6C"))
    assert state.group("reserve")[0] == [] and names(state.group("stock")[0]) == "KC"
    assert state.refilled() is None
    state.pop()
    waste_before = list(state.group("waste")[0])
    state.push_checked(Move.from_text("waste/0 foundation/0 6D"))
    assert state.group("waste")[0] == waste_before[:-1] and names(state.group("stock")[0]) == "KC"


def test_with_the_stock_empty_an_empty_tableau_pile_takes_any_card() -> None:
    state = acey_position(
        up=(5, 13, 13, 13),
        down=(10, 13, 13, 13),
        reserve=["3C", "JD"],
        tableau=["9H", "", "", ""],
        waste="7S",
        rest="waste",
    )
    assert state.group("stock") == [[]]
    sources = [
        ("reserve/0", "3C"),
        ("reserve/1", "JD"),
        ("tableau/0", "9H"),
        ("waste/0", "7S"),
        ("foundation/0", tops(state)[0]),
        ("foundation/4", tops(state)[4]),
    ]
    for source, card in sources:
        for target in (1, 2, 3):
            assert legal(state, f"{source} tableau/{target} {card}")


def test_deal_turns_the_top_stock_card_onto_the_waste() -> None:
    state = acey_position(up=(5, 13, 13, 13), tableau=["6D", "9C", "TC", "JC"], stock="7H 8H", rest="waste")
    waste = list(state.group("waste")[0])
    assert Move.deal() in set(state.legal_moves)
    state.push_checked(Move.deal())
    assert names(state.group("stock")[0]) == "7H"
    assert state.group("waste")[0] == [*waste, *cards("8H")]
    state.push_checked(Move.deal())
    assert state.group("stock")[0] == []
    assert names(state.group("waste")[0][-2:]) == "8H 7H"
    # one pass only: nothing turns the waste over
    assert Move.deal() not in set(state.legal_moves)
    assert state.why_illegal(Move.deal()) == "the stock is empty"
    assert not state.can_deal()
    state.pop()
    state.pop()
    assert state.group("waste")[0] == waste


def test_only_the_waste_top_plays_to_a_foundation_or_an_empty_tableau_pile() -> None:
    state = acey_position(up=(5, 13, 13, 13), tableau=["9H", "", "", ""], waste="6S 8C", rest="waste")
    assert legal(state, "waste/0 tableau/1 8C")
    assert not legal(state, "waste/0 foundation/0 8C")
    assert not legal(state, "waste/0 foundation/0 6S")  # not the top
    assert not legal(state, "waste/0 tableau/0 8C")  # the tableau never builds
    state.push_checked(Move.from_text("waste/0 tableau/1 8C"))
    assert legal(state, "waste/0 foundation/0 6S")


def test_reserve_tops_play_and_nothing_under_them() -> None:
    state = acey_position(up=(5, 13, 13, 13), reserve=["6C 7S", ""], tableau=["9H", "", "", ""], rest="waste")
    assert legal(state, "reserve/0 tableau/1 7S")
    assert not legal(state, "reserve/0 foundation/0 7S")
    assert not legal(state, "reserve/0 foundation/0 6C")


def test_won_means_no_move_even_from_the_foundations() -> None:
    state = acey_position(up=(13, 13, 13, 12), tableau=["KS", "", "", ""])
    assert len(state.legal_moves) == 31
    state.push_checked(Move.from_text("tableau/0 foundation/3 KS"))
    assert state.is_won() and not state.is_lost()
    assert list(state.legal_moves) == []
    # the tableau is empty and the stock too: without the rule, these would be legal
    for index in range(8):
        move = Move.from_text(f"foundation/{index} tableau/0 {tops(state)[index]}")
        assert state.why_illegal(move) == "the game is over: every card is on the foundations"


def test_the_exact_move_list_of_an_endgame() -> None:
    state = acey_position(up=(13, 13, 13, 12), tableau=["KS", "", "", ""])
    q = tops(state)[3]
    expected = {"tableau/0 foundation/3 KS"}
    expected |= {f"tableau/0 tableau/{t} KS" for t in (1, 2, 3)}  # pointless, legal
    expected |= {f"foundation/{f} tableau/{t} {tops(state)[f]}" for f in range(8) for t in (1, 2, 3)}
    expected |= {f"foundation/{f} foundation/3 {tops(state)[f]}" for f in (0, 1, 2)}  # K from pile to pile
    assert q[0] == "Q"
    assert move_texts(state.legal_moves) == expected
    assert len(expected) == 31
    assert set(state.legal_moves) == oracle_moves(state)


def test_an_endgame_with_stock_and_reserves_is_won_by_search() -> None:
    state = acey_position(
        up=(11, 12, 13, 13),
        down=(13, 13, 12, 10),
        reserve=["KS", "2S"],
        tableau=["QS", "KS", "AS", "3S"],
        stock="AS",
    )
    line = find_win(state)
    assert line is not None
    for move in line:
        state.push_checked(move)
    assert state.is_won()


def test_a_won_line_through_the_stock_replays_from_its_json() -> None:
    # King piles 6 and 7 stop at 4; the 3s are in the stock and nothing moves until one is dealt.
    state = acey_position(down=(13, 13, 10, 10), tableau=["2S", "AS", "2S", "AS"], stock="3S 3S")
    assert list(state.legal_moves) == [Move.deal()]
    line = find_win(state)
    assert line is not None
    assert line[0] == Move.deal()
    text = json.dumps(Solution(state, "won", line, {"states": 1}).to_dict())
    assert '{"deal": "stock"}' in text
    result = replay(read_solution(text))
    assert result.problem is None
    assert result.final.is_won()
    assert result.legal_moves == len(line)


@pytest.mark.parametrize("number", [1, 2, 3])
def test_random_play_keeps_the_refill_invariant(number: int) -> None:
    state = deal(load_game(ACEY), number)
    for step in range(300):
        moves = sorted(state.legal_moves, key=lambda m: m.text())
        if not moves:
            break
        state.push(moves[(step * 7919 + number) % len(moves)])
        if state.group("stock")[0]:
            assert all(state.group("tableau"))
        assert all(len(p) <= 1 for p in state.group("tableau"))
        assert all(len(p) <= 13 for p in state.group("foundation"))
    assert all_cards(state) == {c: 2 for c in range(52)}
    assert deal_to_dict(state)["game"] == ACEY


# -- lost with moves left: only passes between foundations --------------------------


def test_a_game_where_only_foundation_passes_are_left_is_lost() -> None:
    state = acey_stuck_position()
    assert state.legal_moves  # f0's 5 may pass onto f1's 4, and back
    assert all(
        m.source and m.target and m.source.group == m.target.group == "foundation" for m in state.legal_moves
    )
    assert state.is_lost()
    outside = [list(state.pile(pid)) for pid in state.plan.ids if pid.group != "foundation"]
    seen, todo = {state.key()}, [state.copy()]
    while todo:  # every position those passes reach: the cards outside the foundations never move
        here = todo.pop()
        assert [list(here.pile(pid)) for pid in here.plan.ids if pid.group != "foundation"] == outside
        for move in here.legal_moves:
            after = here.copy()
            after.push(move)
            if after.key() not in seen:
                seen.add(after.key())
                todo.append(after)


@FAST
@given(
    heights=st.lists(st.integers(0, 13), min_size=8, max_size=8),
    unlucky=st.booleans(),
    chance=st.randoms(use_true_random=False),
)
def test_lost_with_passes_left_exactly_when_no_pass_ever_frees_a_card(
    heights: list[int], unlucky: bool, chance: random.Random
) -> None:
    """The ``stuck`` hook against every position the passes between foundations reach, once the stock is out.

    ``unlucky`` puts on top, where it can, cards of ranks no foundation takes: the lost positions the
    hook must find are rare among shuffles.
    """
    # 66 cards in the waste at most, beside the tops of a full tableau, the reserves and the waste
    assume(8 <= sum(heights) <= 97)
    state = _stock_out(heights, chance, unlucky)
    assert state.is_lost() == (not state.is_won() and not _a_card_can_leave(state))


def _stock_out(heights: list[int], chance: random.Random, unlucky: bool) -> State:
    """Foundations of these heights (four ace piles, four king piles), the other cards shuffled into a full
    tableau, the reserves and the waste."""
    left = full_deck(ACEY)
    foundations: list[list[Card]] = []
    for index, height in enumerate(heights):
        pile: list[Card] = []
        for wanted in list(range(1, 14) if index < 4 else range(13, 0, -1))[:height]:
            card = min(c for c in left if left[c] and rank_of(c) == wanted)
            left[card] -= 1
            pile.append(card)
        foundations.append(pile)
    taken = {rank_of(p[-1]) + 1 if p else 1 for p in foundations[:4]}
    taken |= {rank_of(p[-1]) - 1 if p else 13 for p in foundations[4:]}
    rest = sorted(left.elements())
    chance.shuffle(rest)
    if unlucky:
        rest.sort(key=lambda card: rank_of(card) not in taken)  # stable: the untaken ranks last, on top
    tops, rest = rest[-7:], rest[:-7]
    reserves = [[*rest[:12], tops[4]], [*rest[12:24], tops[5]]]
    piles: dict[str, list[list[Card]]] = {
        "foundation": foundations,
        "reserve": reserves,
        "tableau": [[t] for t in tops[:4]],
        "stock": [[]],
        "waste": [[*rest[24:], tops[6]]],
    }
    named = {group: [names(p).split() for p in listed] for group, listed in piles.items()}
    return deal_from_dict({"game": ACEY, "piles": named})


def _a_card_can_leave(state: State) -> bool:
    """Whether some move other than a pass between foundations is reachable by such passes."""
    seen, todo = {state.key()}, [state]
    while todo:
        here = todo.pop()
        for move in here.legal_moves:
            if not (move.source and move.target and move.source.group == move.target.group == "foundation"):
                return True
            after = here.copy()
            after.push(move)
            if after.key() not in seen:
                seen.add(after.key())
                todo.append(after)
    return False


def test_a_meeting_ace_and_king_pile_or_a_space_keeps_the_game_going() -> None:
    meeting = acey_stuck_position(down=(13, 13, 13, 8))  # a king pile down to 6 meets the ace pile at 5
    assert not meeting.is_lost()
    spaced = acey_position(up=(5, 4, 13, 13), tableau=["7C", "8C", "9C", ""], waste="JC", rest="waste")
    assert not spaced.is_lost()  # an empty tableau pile takes any card
    dealing = acey_position(up=(5, 4, 13, 13), tableau=["7C", "8C", "9C", "TC"], stock="JC", rest="waste")
    assert not dealing.is_lost()  # a card is left to deal
