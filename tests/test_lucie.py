"""Alexander the Great, La Belle Lucie form (rules.md): fans, foundations and the two redeals."""

from __future__ import annotations

import math

import pytest

from cardtable import Card, Move, State, card_name, deal, load_game
from cardtable.core.cards import card_symbol
from cardtable.formats import deal_to_dict, move_to_dict, read_solution, replay
from helpers import (
    DATA,
    LUCIE,
    all_cards,
    fan_position,
    find_win,
    move_texts,
    names,
    oracle_moves,
    oracle_redeal_fans,
    random_play,
)

ANYTIME = f"{LUCIE}(redeal_anytime=true)"
NO_REDEAL = f"{LUCIE}(redeals=0)"
BLOCKED = ["TC KH", "JD QD QC", "QH KS JC KC KD"]
"""Clubs to 9C, diamonds to TD, hearts to JH, spades to QS: tops KH, QC, KD, and nothing moves."""


def position(*fans: str, game: str = LUCIE, redeals_left: int | None = None, seed: int = 12345) -> State:
    """Fans as given, the rest on the foundations (f0 clubs, f1 diamonds, f2 hearts, f3 spades).

    With ``redeals_left`` below the game's count, the fans are taken to be a redeal's: no empty ones.
    """
    spec = load_game(game)
    count = len(fans) if redeals_left is not None and redeals_left < spec.redeals else 18
    return fan_position(game, list(fans), fan_count=count, redeals_left=redeals_left, seed=seed)


def legal(state: State, text: str) -> bool:
    return state.is_legal(Move.from_text(text))


def high_cards(n: int) -> list[Card]:
    """``n`` cards that can be off the foundations together: the top of each suit, round robin."""
    out: list[Card] = []
    for depth in range(13):
        for suit in range(4):
            if len(out) < n:
                out.append(suit * 13 + 12 - depth)
    return out


# -- fans and foundations ---------------------------------------------------------


def test_the_start() -> None:
    state = deal(load_game(LUCIE), 4)
    assert state.group("foundation") == [[], [], [], []]
    assert [len(f) for f in state.group("fan")] == [3] * 17 + [1]
    assert state.redeals_left == 2


def test_a_fan_takes_the_next_lower_card_of_its_suit_only() -> None:
    state = position("QC", "KC", "JC", "QD", "KD")  # clubs to TC, diamonds to JD
    assert legal(state, "fan/2 fan/0 JC")  # J on Q
    assert legal(state, "fan/0 fan/1 QC")  # Q on K
    assert legal(state, "fan/3 fan/4 QD")
    assert not legal(state, "fan/1 fan/0 KC")  # one higher: Alexander's rule, not this one
    assert not legal(state, "fan/0 fan/2 QC")
    assert not legal(state, "fan/2 fan/3 JC")  # J on Q, other suit
    assert not legal(state, "fan/3 fan/1 QD")  # Q on K, other suit
    assert not legal(state, "fan/2 fan/1 JC")  # two lower
    assert state.why_illegal(Move.from_text("fan/1 fan/0 KC")) == "K♣ does not go on Q♣ (fan/0)"


@pytest.mark.parametrize("card", ["KC", "QC", "JD"])
def test_an_empty_fan_takes_nothing_not_even_a_king(card: str) -> None:
    state = position("QC", "KC", "KD QD JD")
    source = {"KC": 1, "QC": 0, "JD": 2}[card]
    for empty in range(3, 18):
        move = Move.from_text(f"fan/{source} fan/{empty} {card}")
        assert not state.is_legal(move)
        assert (
            state.why_illegal(move)
            == f"{card[0]}{'♣' if card[1] == 'C' else '♦'} may not fill the empty fan/{empty}: it takes no card"
        )


def test_an_emptied_fan_stays_empty() -> None:
    state = position("QC", "KC", "JC")
    state.push_checked(Move.from_text("fan/2 foundation/0 JC"))
    state.push_checked(Move.from_text("fan/0 foundation/0 QC"))
    assert not legal(state, "fan/1 fan/0 KC")
    assert not legal(state, "fan/1 fan/2 KC")


ALL_CLUBS_DIAMONDS = ["KC QC JC TC 9C 8C 7C 6C 5C 4C 3C AC", "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD", "2C"]


@pytest.mark.parametrize(("source", "ace"), [(0, "AC"), (1, "AD")])
def test_an_empty_foundation_takes_any_ace(source: int, ace: str) -> None:
    state = position(*ALL_CLUBS_DIAMONDS)
    assert [len(f) for f in state.group("foundation")] == [0, 0, 13, 13]
    assert legal(state, f"fan/{source} foundation/0 {ace}")
    assert legal(state, f"fan/{source} foundation/1 {ace}")
    assert not legal(state, f"fan/{source} foundation/2 {ace}")  # full hearts


def test_an_empty_foundation_takes_nothing_but_an_ace() -> None:
    state = position(*ALL_CLUBS_DIAMONDS)
    assert not legal(state, "fan/2 foundation/0 2C")
    assert (
        state.why_illegal(Move.from_text("fan/2 foundation/1 2C"))
        == "2♣ may not fill the empty foundation/1: it takes only an ace"
    )


def test_foundations_build_up_in_suit() -> None:
    state = position(*ALL_CLUBS_DIAMONDS)
    state.push_checked(Move.from_text("fan/0 foundation/1 AC"))  # clubs on the second foundation: fine
    assert legal(state, "fan/2 foundation/1 2C")
    state.push_checked(Move.from_text("fan/1 foundation/0 AD"))
    assert not legal(state, "fan/2 foundation/0 2C")  # 2C on AD: other suit
    assert legal(state, "fan/1 foundation/0 2D")
    assert not legal(state, "fan/1 foundation/1 2D")


def test_nothing_leaves_a_foundation() -> None:
    state = position("KC", "QC JC")
    assert not legal(state, "foundation/0 fan/0 TC")
    assert not legal(state, "foundation/0 fan/1 TC")  # TC would go on JC
    assert all(m.source is None or m.source.group != "foundation" for m in state.legal_moves)


def test_every_legal_move_is_listed() -> None:
    # hearts to JH, clubs to TC, diamonds home, spades all in fan 3 (so f3 is empty)
    state = position("KH QH", "KC JC", "QC", "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS")
    assert [len(f) for f in state.group("foundation")] == [10, 13, 11, 0]
    assert move_texts(state.legal_moves) == {
        "fan/0 foundation/2 QH",
        "fan/1 foundation/0 JC",
        "fan/1 fan/2 JC",
        "fan/3 foundation/3 AS",
    }
    assert set(state.legal_moves) == oracle_moves(state)


def test_a_lone_ace_lists_every_empty_foundation() -> None:
    state = position(*ALL_CLUBS_DIAMONDS)
    assert move_texts(state.legal_moves) == {
        "fan/0 fan/2 AC",
        "fan/0 foundation/0 AC",
        "fan/0 foundation/1 AC",
        "fan/1 foundation/0 AD",
        "fan/1 foundation/1 AD",
    }


# -- the redeal ---------------------------------------------------------------------


def test_redeal_only_when_no_other_move() -> None:
    state = deal(load_game(LUCIE), 1)
    assert list(state.legal_moves)
    assert Move.redeal() not in set(state.legal_moves)
    assert state.why_illegal(Move.redeal()) == "a redeal is allowed only when no other move is possible"
    blocked = position(*BLOCKED)
    assert list(blocked.legal_moves) == [Move.redeal()]
    assert not blocked.is_lost()
    only_a_fan_move = position("TC KH", "JD QC KD", "QH KS JC KC QD")  # Q♦ onto K♦, and nothing home
    assert list(only_a_fan_move.legal_moves) == [Move.from_text("fan/2 fan/1 QD")]
    assert not only_a_fan_move.is_legal(Move.redeal())


def test_the_redeal_deals_fans_of_three_with_the_remainder_last() -> None:
    state = position(*BLOCKED)
    before = all_cards(state)
    foundations = [list(f) for f in state.group("foundation")]
    state.push_checked(Move.redeal())
    fans = state.group("fan")
    assert [len(f) for f in fans] == [3, 3, 3, 1]
    assert all_cards(state) == before
    assert state.group("foundation") == foundations
    assert state.redeals_left == 1
    assert tuple(tuple(f) for f in fans) == oracle_redeal_fans(position(*BLOCKED))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 8, 13, 26, 50, 51, 52])
def test_redeal_fan_sizes(n: int) -> None:
    fan = names(high_cards(n))
    state = position(fan, game=ANYTIME)
    state.push_checked(Move.redeal())
    sizes = [len(f) for f in state.group("fan")]
    assert len(sizes) == math.ceil(n / 3)
    assert sizes == [3] * (n // 3) + ([n % 3] if n % 3 else [])
    assert sorted(c for f in state.group("fan") for c in f) == sorted(high_cards(n))


def test_the_redeal_drops_empty_fans() -> None:
    state = position("", "TC KH", "", "", "JD QD QC", "", "QH KS JC KC KD", "")
    assert len(state.group("fan")) == 18
    state.push_checked(Move.redeal())
    assert len(state.group("fan")) == 4
    assert all(state.group("fan"))
    assert len(deal_to_dict(state)["piles"]["fan"]) == 4


def test_at_most_two_redeals() -> None:
    once = position(*BLOCKED, redeals_left=1)
    assert once.is_legal(Move.redeal()) and not once.is_lost()
    none_left = position(*BLOCKED, redeals_left=0)
    assert list(none_left.legal_moves) == []
    assert none_left.why_illegal(Move.redeal()) == "no redeals left"
    assert none_left.is_lost()


def test_random_games_never_redeal_a_third_time() -> None:
    for number in range(1, 41):
        state = deal(load_game(LUCIE), number)
        random_play(state, number, 400)
        redeals = [m for m in state.move_stack if m.kind == "redeal"]
        assert len(redeals) <= 2
        assert state.redeals_left == 2 - len(redeals)
        if not state.is_won():
            assert not state.legal_moves
            assert state.is_lost()
            assert len(redeals) == 2  # lost only after the second redeal


@pytest.mark.parametrize("redeals", [1, 3])
def test_a_game_with_another_number_of_redeals_plays_each_and_no_more(redeals: int) -> None:
    game = f"{LUCIE}(redeals={redeals})"
    most = 0
    for number in range(1, 41):
        state = deal(load_game(game), number)
        random_play(state, number, 400)
        made = sum(m.kind == "redeal" for m in state.move_stack)
        assert made <= redeals and state.redeals_left == redeals - made
        if not state.is_won():
            assert state.is_lost() and made == redeals, "lost only once no redeal is left"
        most = max(most, made)
    assert most == redeals


def test_redeals_at_any_time_still_count_down() -> None:
    state = deal(load_game(f"{LUCIE}(redeals=1,redeal_anytime=true)"), 1)
    assert len(state.legal_moves) > 1 and Move.redeal() in set(state.legal_moves), "not blocked, yet allowed"
    state.push_checked(Move.redeal())
    assert state.redeals_left == 0
    assert state.why_illegal(Move.redeal()) == "no redeals left"


@pytest.mark.parametrize("game", [LUCIE, "fan"])
def test_only_the_top_card_of_a_fan_moves(game: str) -> None:
    state = position("QC KC", "KD QD JD", game=game)  # clubs home to the jack, diamonds to the ten
    assert state.why_illegal(Move.from_text("fan/0 foundation/0 QC")) == "the top of fan/0 is K♣, not Q♣"
    assert state.why_illegal(Move.from_text("fan/1 foundation/1 QD")) == "the top of fan/1 is J♦, not Q♦"
    moved = {(str(m.source), card_name(m.card)) for m in state.legal_moves if m.card is not None}
    assert moved <= {("fan/0", "KC"), ("fan/1", "JD")}  # Fan's empty fans take the king
    assert set(state.legal_moves) == oracle_moves(state)


def test_two_redeals_in_a_row() -> None:
    # With seed 164, nothing moves after the first redeal, so the second follows at once.
    state = position(*BLOCKED, seed=164)
    state.push_checked(Move.redeal())
    assert list(state.legal_moves) == [Move.redeal()]
    state.push_checked(Move.redeal())
    assert state.redeals_left == 0
    assert [m.kind for m in state.move_stack] == ["redeal", "redeal"]
    assert state.why_illegal(Move.redeal()) == "no redeals left"
    assert Move.redeal() not in set(state.legal_moves)


def _blocked_after_redeal(seed: int) -> bool:
    state = position(*BLOCKED, seed=seed)
    state.push(Move.redeal())
    return list(state.legal_moves) == [Move.redeal()]


def test_the_pinned_seed_is_the_first_that_blocks() -> None:
    assert [s for s in range(164 + 1) if _blocked_after_redeal(s)] == [164]


def test_redeals_are_reproducible() -> None:
    a = deal(load_game(LUCIE), 2)
    b = deal(load_game(LUCIE), 2)
    random_play(a, 99, 300)
    line = a.move_stack
    assert any(m.kind == "redeal" for m in line)
    for move in line:
        b.push_checked(Move.redeal() if move.kind == "redeal" else move)
    assert b.move_stack == line  # the same fans, recorded with each redeal
    assert b == a


def test_the_redeal_depends_on_the_seed_and_on_the_redeal_number() -> None:
    fans = {position(*BLOCKED, seed=s).redeal_fans() for s in range(20)}
    assert len(fans) > 10
    first = position(*BLOCKED, seed=7).redeal_fans()
    second = position(*BLOCKED, seed=7, redeals_left=1).redeal_fans()
    assert first != second
    assert first == oracle_redeal_fans(position(*BLOCKED, seed=7))
    assert second == oracle_redeal_fans(position(*BLOCKED, seed=7, redeals_left=1))


def test_the_redeal_depends_only_on_the_cards_not_on_the_fan_order() -> None:
    # Positions with the same key must redeal alike, or a solver's transpositions would be wrong.
    a = position(*BLOCKED)
    b = position(*reversed(BLOCKED))
    assert a.key() == b.key()
    assert a.redeal_fans() == b.redeal_fans()


def test_the_seed_defaults_to_the_deal_number() -> None:
    state = deal(load_game(LUCIE), 31)
    assert state.seed == 31
    assert deal_to_dict(state)["seed"] == 31


def test_pop_undoes_a_redeal() -> None:
    state = position("", "TC KH", "", "JD QD QC", "", "QH KS JC KC KD")
    before = state.copy()
    key = state.key()
    state.push_checked(Move.redeal())
    assert len(state.group("fan")) == 4
    move = state.pop()
    assert move.kind == "redeal" and move.fans is not None
    assert state == before
    assert state.group("fan") == before.group("fan")
    assert state.redeals_left == 2
    assert state.key() == key
    assert len(state.plan.ids) == 22
    assert list(state.legal_moves) == [Move.redeal()]


def test_a_redeal_move_carries_its_fans() -> None:
    state = position(*BLOCKED)
    fans = state.redeal_fans()
    assert state.is_legal(Move.redeal(fans))
    state.push_checked(Move.redeal())
    assert state.peek() == Move.redeal(fans)
    assert move_to_dict(state.peek())["redeal"] == [[card_name(c) for c in f] for f in fans]


def test_a_redeal_with_the_wrong_fans_is_illegal() -> None:
    state = position(*BLOCKED)
    fans = state.redeal_fans()
    shuffled = [
        tuple(reversed(fans)),
        tuple(tuple(sorted(f)) for f in fans) if any(list(f) != sorted(f) for f in fans) else fans[1:],
    ]
    for fan_set in shuffled:
        assert fan_set != fans
        move = Move.redeal(fan_set)
        assert not state.is_legal(move)
        said = state.why_illegal(move)
        assert said is not None and said.startswith("this deal's redeal makes ")
    once_more = fans[0][0]
    assert state.why_illegal(Move.redeal((*fans[:-1], fans[-1] + (once_more,)))) == (
        f"the redeal's fans hold {card_symbol(once_more)}, more often than it is left in the fans"
    )
    on_a_foundation = state.group("foundation")[0][-1]
    assert state.why_illegal(Move.redeal(((on_a_foundation, *fans[0][1:]), *fans[1:]))) == (
        f"the redeal's fans hold {card_symbol(on_a_foundation)}, which is not left in the fans"
    )
    assert state.why_illegal(Move.redeal(fans[:-1])) == (
        f"the redeal's fans leave out {card_symbol(min(fans[-1]))}, which is left in the fans"
    )
    split = (fans[0][:1], fans[0][1:], *fans[1:])  # the same cards, in a fan more
    assert (
        state.why_illegal(Move.redeal(split))
        == f"this deal's redeal makes {len(fans)} fans, not {len(fans) + 1}"
    )
    swapped = (fans[1], fans[0], *fans[2:])
    first = " ".join(map(card_symbol, fans[0]))
    assert state.why_illegal(Move.redeal(swapped)) == (
        f"this deal's redeal makes fan/0 {first}, not {' '.join(map(card_symbol, fans[1]))}"
    )


def test_no_redeal_once_won() -> None:
    state = position("KC")
    state.push_checked(Move.from_text("fan/0 foundation/0 KC"))
    assert state.is_won()
    assert state.redeals_left == 2
    assert not state.can_redeal()
    assert state.why_illegal(Move.redeal()) == "the game is over: every card is on the foundations"


# -- options ------------------------------------------------------------------------


def test_option_no_redeals() -> None:
    state = position(*BLOCKED, game=NO_REDEAL)
    assert state.redeals_left == 0
    assert list(state.legal_moves) == []
    assert state.is_lost()
    assert state.why_illegal(Move.redeal()) == "this game has no redeal"


def test_option_one_redeal() -> None:
    state = position(*BLOCKED, game=f"{LUCIE}(redeals=1)")
    assert state.redeals_left == 1
    state.push_checked(Move.redeal())
    assert state.redeals_left == 0
    assert not state.is_legal(Move.redeal())


def test_option_redeal_anytime() -> None:
    state = deal(load_game(ANYTIME), 1)
    moves = list(state.legal_moves)
    assert Move.redeal() in moves and len(moves) > 1
    state.push_checked(Move.redeal())
    state.push_checked(Move.redeal())
    assert state.redeals_left == 0
    assert Move.redeal() not in set(state.legal_moves)
    assert state.why_illegal(Move.redeal()) == "no redeals left"


def test_option_redeal_anytime_still_needs_cards() -> None:
    state = position("KC", game=ANYTIME)
    assert state.is_legal(Move.redeal())
    state.push_checked(Move.from_text("fan/0 foundation/0 KC"))
    assert not state.is_legal(Move.redeal())


# -- won games ------------------------------------------------------------------------


def test_won_by_search_through_two_redeals() -> None:
    unlucky = [s for s in range(5) if find_win(position(*BLOCKED, seed=s)) is None]
    assert unlucky == [0, 1, 2, 3, 4]  # with these seeds the redeals never come out
    state = position(*BLOCKED, seed=5)
    line = find_win(state)
    assert line is not None
    assert line[0].kind == "redeal"
    for move in line:
        state.push_checked(move)
    assert state.is_won()


def test_deal_3_is_won_by_search() -> None:
    state = deal(load_game(LUCIE), 3)
    line = find_win(state, max_positions=5000)
    assert line is not None
    for move in line:
        state.push_checked(move)
    assert state.is_won()


def test_deal_2_is_won_with_two_redeals() -> None:
    solution = read_solution((DATA / "solutions" / f"{LUCIE}-2.json").read_text())
    assert solution.deal == deal(load_game(LUCIE), 2)
    redeals = [m for m in solution.moves if m.kind == "redeal"]
    assert len(redeals) == 2 and all(m.fans for m in redeals)
    result = replay(solution)
    assert result.problem is None
    assert result.final.is_won()
    assert result.final.redeals_left == 0


def test_a_solution_with_other_redeal_fans_does_not_replay() -> None:
    solution = read_solution((DATA / "solutions" / f"{LUCIE}-2.json").read_text())
    index = next(i for i, m in enumerate(solution.moves) if m.kind == "redeal")
    fans = solution.moves[index].fans
    assert fans is not None
    solution.moves[index] = Move.redeal(tuple(reversed(fans)))
    result = replay(solution)
    assert result.legal_moves == index
    assert result.problem is not None
    assert "this deal's redeal makes fan/0 " in result.problem
    assert len(result.problem) < 200  # the redeal quoted in part, not its 52 cards


def test_key_ignores_empty_fans_since_they_never_take_a_card() -> None:
    fans = ["KC QC JC", "KD QD", "TC"]
    after_a_redeal = fan_position(LUCIE, fans, fan_count=3, redeals_left=1)
    more_empty_fans = fan_position(LUCIE, fans, fan_count=7, redeals_left=1)
    assert after_a_redeal.key() == more_empty_fans.key()
    assert after_a_redeal.key() != fan_position(LUCIE, ["KC QC", "JC", "KD QD", "TC"], redeals_left=1).key()
