"""Alexander the Great (rules.md): hand-built positions, one rule per test."""

from __future__ import annotations

import pytest

from cardtable import Move, State, deal, load_game
from cardtable.formats import read_solution, replay
from helpers import ALEXANDER, DATA, fan_position, find_win, move_texts, names, oracle_moves


def position(*fans: str) -> State:
    """Fans as given (bottom first), the rest of the deck on the foundations:
    f0 hearts up from AH, f1 diamonds up from AD, f2 clubs down from KC, f3 spades down from KS."""
    return fan_position(ALEXANDER, list(fans))


def legal(state: State, text: str) -> bool:
    return state.is_legal(Move.from_text(text))


def test_the_start() -> None:
    state = deal(load_game(ALEXANDER), 9)
    assert [names(f) for f in state.group("foundation")] == ["AH", "AD", "KC", "KS"]
    assert [len(f) for f in state.group("fan")] == [4] * 12
    assert state.redeals_left == 0


def test_a_fan_takes_one_higher_or_one_lower_in_suit() -> None:
    state = position("QH", "JH", "KH", "TD", "JD", "KD QD")  # hearts to TH, diamonds to 9D
    assert legal(state, "fan/1 fan/0 JH")  # one lower
    assert legal(state, "fan/0 fan/1 QH")  # one higher
    assert legal(state, "fan/0 fan/2 QH")  # one lower onto the king
    assert legal(state, "fan/2 fan/0 KH")
    assert legal(state, "fan/3 fan/4 TD")
    assert legal(state, "fan/4 fan/3 JD")


def test_a_fan_refuses_other_suits_and_other_steps() -> None:
    state = position("QH", "JH", "KH", "TD", "JD", "KD QD")
    assert not legal(state, "fan/4 fan/0 JD")  # J on Q, but diamonds on hearts
    assert not legal(state, "fan/4 fan/1 JD")  # same rank
    assert not legal(state, "fan/1 fan/2 JH")  # two below
    assert not legal(state, "fan/2 fan/1 KH")  # two above
    assert not legal(state, "fan/3 fan/1 TD")  # T on J, other suit
    assert state.why_illegal(Move.from_text("fan/4 fan/0 JD")) == "J♦ does not go on Q♥ (fan/0)"


@pytest.mark.parametrize("card", ["AC", "AS", "KH", "KD"])
def test_an_empty_fan_takes_the_free_aces_and_kings(card: str) -> None:
    state = position("AC", "AS", "KH", "KD")  # clubs down to 2C, spades to 2S, hearts to QH, diamonds to QD
    source = ["AC", "AS", "KH", "KD"].index(card)
    for empty in range(4, 12):
        assert legal(state, f"fan/{source} fan/{empty} {card}")


@pytest.mark.parametrize(
    ("fans", "card"),
    [
        (["KH", "QH"], "QH"),
        (["AC", "2C"], "2C"),
        (["KD", "QD", "JD"], "JD"),
        (["AS", "2S"], "2S"),
        (["KH QH JH TH"], "TH"),
    ],
)
def test_an_empty_fan_takes_nothing_but_an_ace_or_a_king(fans: list[str], card: str) -> None:
    state = position(*fans)
    source = next(i for i, f in enumerate(fans) if f.split()[-1] == card)
    move = Move.from_text(f"fan/{source} fan/11 {card}")
    assert not state.is_legal(move)
    assert (state.why_illegal(move) or "").endswith(
        "may not fill the empty fan/11: it takes only an ace or a king"
    )


def test_red_foundations_build_up_in_suit() -> None:
    state = position("JH", "QH", "KH", "9D", "8D", "TD JD QD KD")  # hearts to TH, diamonds to 7D
    assert legal(state, "fan/0 foundation/0 JH")
    assert not legal(state, "fan/1 foundation/0 QH")  # skips a rank
    assert not legal(state, "fan/0 foundation/1 JH")  # other suit
    assert legal(state, "fan/4 foundation/1 8D")
    assert not legal(state, "fan/3 foundation/1 9D")
    assert not legal(state, "fan/4 foundation/0 8D")
    assert not legal(state, "fan/0 foundation/2 JH")  # a heart on the clubs


def test_black_foundations_build_down_in_suit() -> None:
    state = position("2C", "3C", "AC", "4S", "3S 2S AS")  # clubs down to 4C, spades down to 5S
    assert names(state.group("foundation")[2]) == "KC QC JC TC 9C 8C 7C 6C 5C 4C"
    assert legal(state, "fan/1 foundation/2 3C")
    assert not legal(state, "fan/0 foundation/2 2C")  # skips a rank
    assert not legal(state, "fan/1 foundation/3 3C")  # other suit
    assert legal(state, "fan/3 foundation/3 4S")
    assert not legal(state, "fan/3 foundation/2 4S")
    assert not legal(state, "fan/1 foundation/0 3C")  # black on a red foundation
    assert not legal(state, "fan/2 foundation/2 AC")  # the ace comes last


def test_a_card_of_the_right_rank_in_another_suit_never_goes_home() -> None:
    state = position("KH QH JH", "KD QD JD", "AC 2C 3C", "AS 2S 3S")  # up to TH and TD, down to 4C and 4S
    assert legal(state, "fan/0 foundation/0 JH") and legal(state, "fan/1 foundation/1 JD")
    assert not legal(state, "fan/1 foundation/0 JD") and not legal(state, "fan/0 foundation/1 JH")
    assert legal(state, "fan/2 foundation/2 3C") and legal(state, "fan/3 foundation/3 3S")
    assert not legal(state, "fan/3 foundation/2 3S") and not legal(state, "fan/2 foundation/3 3C")


def test_a_black_foundation_finishes_with_its_ace() -> None:
    state = position("AC")
    state.push_checked(Move.from_text("fan/0 foundation/2 AC"))
    assert state.is_won()


def test_nothing_leaves_a_foundation() -> None:
    state = position("KH", "AC")
    for empty in range(2, 12):
        assert not legal(state, f"foundation/0 fan/{empty} QH")
        assert not legal(state, f"foundation/2 fan/{empty} 2C")
    assert not legal(state, "foundation/0 fan/0 QH")  # even where the card would fit
    assert state.why_illegal(Move.from_text("foundation/0 fan/0 QH")) == "cards never leave foundation piles"
    assert all(m.source is None or m.source.group != "foundation" for m in state.legal_moves)


def test_no_redeal_and_a_blocked_position_is_lost() -> None:
    # Hearts to 8H; 9H and JH are buried; the tops TH and QH are two apart.
    state = position("9H TH", "KH JH QH")
    assert list(state.legal_moves) == []
    assert state.is_lost() and not state.is_won()
    assert not legal(state, "redeal")
    assert state.why_illegal(Move.redeal()) == "this game has no redeal"


def test_a_king_on_top_keeps_a_position_alive_while_a_fan_is_empty() -> None:
    state = position("9H TH", "JH QH KH")
    assert move_texts(state.legal_moves) == {f"fan/1 fan/{e} KH" for e in range(2, 12)}
    assert not state.is_lost()


def test_the_exact_move_list_includes_pointless_moves() -> None:
    state = position("QH", "KH", "AC", "2C")  # hearts to JH, clubs down to 3C
    expected = {
        "fan/0 foundation/0 QH",
        "fan/0 fan/1 QH",
        "fan/1 fan/0 KH",
        "fan/2 fan/3 AC",
        "fan/3 fan/2 2C",
        "fan/3 foundation/2 2C",
    }
    expected |= {f"fan/1 fan/{e} KH" for e in range(4, 12)}
    expected |= {f"fan/2 fan/{e} AC" for e in range(4, 12)}  # a lone ace onto an empty fan: pointless, legal
    assert move_texts(state.legal_moves) == expected
    assert set(state.legal_moves) == oracle_moves(state)


def test_all_cards_home_is_won_and_nothing_moves() -> None:
    state = position("KH")
    state.push_checked(Move.from_text("fan/0 foundation/0 KH"))
    assert state.is_won() and not state.is_lost()
    assert not state.legal_moves
    assert state.why_illegal(Move.from_text("foundation/0 fan/0 KH")) == (
        "the game is over: every card is on the foundations"
    )


def test_a_small_position_is_won_by_search() -> None:
    state = position("5S 4S KD", "QD 2S", "KH QH", "JH AS 3S", "AC 2C JD")
    line = find_win(state)
    assert line is not None
    check = state.copy()
    for move in line:
        check.push_checked(move)
    assert check.is_won()


def test_deal_1_is_won_by_its_recorded_solution() -> None:
    solution = read_solution((DATA / "solutions" / "alexander-the-great-1.json").read_text())
    assert solution.deal == deal(load_game(ALEXANDER), 1)
    assert solution.result == "won"
    result = replay(solution)
    assert result.problem is None
    assert result.legal_moves == len(solution.moves) > 48
    assert result.final.is_won()
