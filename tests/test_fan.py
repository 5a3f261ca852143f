"""Fan, the yardstick (rules.md): Lucie's fans and foundations, a king fills a space, no redeal."""

from __future__ import annotations

import pytest

from cardtable import Move, State, deal, load_game
from cardtable.core.notation import parse_move, pile_code
from cardtable.formats import read_solution, replay
from cardtable.solver.prune import safe_home_move
from helpers import DATA, FAN, fan_position, find_win, move_texts, oracle_moves


def position(*fans: str) -> State:
    """Fans as given, the rest on the foundations (f0 clubs, f1 diamonds, f2 hearts, f3 spades)."""
    return fan_position(FAN, list(fans))


def legal(state: State, text: str) -> bool:
    return state.is_legal(Move.from_text(text))


def test_the_start() -> None:
    state = deal(load_game(FAN), 6)
    assert state.group("foundation") == [[], [], [], []]
    assert [len(f) for f in state.group("fan")] == [3] * 17 + [1]
    assert state.redeals_left == 0


def test_same_layout_as_lucie_for_the_same_number() -> None:
    assert deal(load_game(FAN), 6).piles == deal(load_game("alexander-the-great-lucie"), 6).piles


@pytest.mark.parametrize("king", ["KC", "KD"])
def test_an_empty_fan_takes_a_king(king: str) -> None:
    state = position("KC", "QC", "KD", "QD")
    source = 0 if king == "KC" else 2
    for empty in range(4, 18):
        assert legal(state, f"fan/{source} fan/{empty} {king}")


@pytest.mark.parametrize(("source", "card"), [(1, "QC"), (3, "QD"), (4, "AS")])
def test_an_empty_fan_takes_nothing_else(source: int, card: str) -> None:
    state = position("KC", "QC", "KD", "QD", "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS")
    move = Move.from_text(f"fan/{source} fan/17 {card}")
    assert not state.is_legal(move)
    assert (state.why_illegal(move) or "").endswith("may not fill the empty fan/17: it takes only a king")


def test_fans_build_down_in_suit_only() -> None:
    state = position("KC", "QC", "JC", "KD QD")
    assert legal(state, "fan/1 fan/0 QC")
    assert legal(state, "fan/2 fan/1 JC")
    assert not legal(state, "fan/0 fan/1 KC")  # up
    assert not legal(state, "fan/2 fan/3 JC")  # other suit
    assert not legal(state, "fan/3 fan/0 QD")  # other suit


def test_foundations_take_any_ace_then_build_up_in_suit() -> None:
    state = position("KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS", "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H AH", "2H")
    assert legal(state, "fan/0 foundation/2 AS") and legal(state, "fan/0 foundation/3 AS")
    assert not legal(state, "fan/2 foundation/2 2H")
    state.push_checked(Move.from_text("fan/1 foundation/3 AH"))
    assert legal(state, "fan/2 foundation/3 2H")
    assert not legal(state, "fan/2 foundation/2 2H")


def test_nothing_leaves_a_foundation_and_no_redeal() -> None:
    state = position("QH KH", "QD KD")  # tops KH, KD; the queens are under them; fans are free
    assert not legal(state, "foundation/2 fan/5 JH")
    assert state.why_illegal(Move.redeal()) == "this game has no redeal"
    assert move_texts(state.legal_moves) == {
        f"fan/{s} fan/{e} {k}" for s, k in ((0, "KH"), (1, "KD")) for e in range(2, 18)
    }


def test_a_blocked_position_is_lost() -> None:
    state = position("TC KC JC QC")  # clubs to 9C; QC needs JC, which is under it
    assert list(state.legal_moves) == []
    assert state.is_lost()
    assert not legal(state, "fan/0 fan/1 QC")  # a queen may not fill a space


def test_won_and_nothing_moves() -> None:
    state = position("KS")
    state.push_checked(Move.from_text("fan/0 foundation/3 KS"))
    assert state.is_won() and not state.is_lost()
    assert not state.legal_moves


def test_the_exact_move_list() -> None:
    state = position("KC QC", "JC", "KD", "QD JD")
    expected = {
        "fan/1 fan/0 JC",
        "fan/1 foundation/0 JC",
        "fan/3 foundation/1 JD",
    }
    expected |= {f"fan/2 fan/{e} KD" for e in range(4, 18)}
    assert move_texts(state.legal_moves) == expected
    assert set(state.legal_moves) == oracle_moves(state)


def test_deal_3_is_won_by_search_and_by_its_recorded_solution() -> None:
    state = deal(load_game(FAN), 3)
    line = find_win(state, max_positions=5000)
    assert line is not None
    solution = read_solution((DATA / "solutions" / "fan-3.json").read_text())
    assert solution.deal == state
    result = replay(solution)
    assert result.problem is None and result.final.is_won()


def test_autoplay_sends_a_card_where_a_double_click_does() -> None:
    """Both take the first foundation that takes the card, so an ace does not land elsewhere by autoplay."""
    compared = 0
    for number in range(1, 21):
        state = deal(load_game(FAN), number)
        automatic = safe_home_move(state)
        if automatic is None:
            continue  # no card goes home at the start of this deal
        assert automatic.source is not None
        assert parse_move(state, pile_code(state, automatic.source)) == automatic
        compared += 1
    assert compared >= 10
