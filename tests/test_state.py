"""The engine (core/state.py): the lazy legal-move view, push/pop/peek, copies, errors and keys."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable

import pytest

from cardtable import (
    Card,
    CardtableError,
    IllegalMoveError,
    InvalidDealError,
    Move,
    PileId,
    State,
    UnknownPileError,
    WrongTypeError,
    deal,
    load_game,
    parse_card,
)
from cardtable.core.move import CARD
from cardtable.formats import deal_from_dict, deal_to_dict
from helpers import (
    ACEY,
    ALEXANDER,
    GAME_IDS,
    LUCIE,
    LUCIE_BLOCKED_AT_START,
    acey_position,
    all_cards,
    card_move,
    fan_position,
    move_texts,
)


def small_alexander() -> State:
    """Hearts to TH on f0; fans JH, QH, KH; nine empty fans."""
    return fan_position(ALEXANDER, ["JH", "QH", "KH"])


def test_legal_moves_view() -> None:
    state = small_alexander()
    moves = state.legal_moves
    listed = list(moves)
    assert len(moves) == len(listed) == len(set(listed))
    assert bool(moves)
    for move in listed:
        assert move in moves
    assert card_move("fan/0", "fan/3", "JH") not in moves
    assert "fan/0 foundation/0 JH" not in moves  # only Move values are moves
    assert None not in moves
    assert repr(moves).startswith("<LegalMoves ")
    assert "fan/0 foundation/0 JH" in repr(moves)


def test_the_view_is_live() -> None:
    state = small_alexander()
    moves = state.legal_moves
    before = len(moves)
    state.push(card_move("fan/0", "foundation/0", "JH"))
    assert len(moves) != before
    assert card_move("fan/0", "foundation/0", "JH") not in moves


def test_push_pop_peek_and_the_move_stack() -> None:
    state = small_alexander()
    start = state.copy()
    first = card_move("fan/0", "foundation/0", "JH")
    second = card_move("fan/1", "foundation/0", "QH")
    state.push(first)
    state.push(second)
    assert state.move_stack == [first, second] and state.ply() == 2
    assert state.peek() == second
    assert state.pile(PileId("foundation", 0))[-1] == second.card
    assert state.pop() == second
    assert state.pop() == first
    assert state == start
    assert state.move_stack == [] and state.ply() == 0
    with pytest.raises(IndexError, match=r"^no move to take back: the move stack is empty$"):
        state.pop()
    with pytest.raises(IndexError, match=r"^no move to look at: the move stack is empty$"):
        state.peek()


def test_push_checked_refuses_and_leaves_the_position() -> None:
    state = small_alexander()
    before = state.copy()
    with pytest.raises(IllegalMoveError) as caught:
        state.push_checked(card_move("fan/0", "fan/3", "JH"))
    assert (
        str(caught.value)
        == "illegal move: 'fan/0 fan/3 JH': J♥ may not fill the empty fan/3: it takes only an ace or a king"
    )
    assert state == before and state.move_stack == []
    state.push_checked(card_move("fan/0", "foundation/0", "JH"))
    assert state.move_stack == [card_move("fan/0", "foundation/0", "JH")]


def test_push_text_deals_and_redeals_in_either_form() -> None:
    for word in ("deal", "d"):
        acey = deal(load_game(ACEY), 4)
        assert acey.push_text(word) == Move.deal() and acey.ply() == 1
    blocked = deal(load_game(LUCIE), LUCIE_BLOCKED_AT_START)  # nothing moves: the redeal is the one move
    for word in ("redeal", "rd"):
        assert blocked.copy().push_text(word) == Move.redeal()
    with pytest.raises(WrongTypeError, match=r"^not a move's text: None \(NoneType\): give Move.from_text"):
        blocked.push_text(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["fan/0 foundation/0 JH", "t0 f0", "t0", "jh"])
def test_push_text_reads_both_ways_a_move_is_written(text: str) -> None:
    state = small_alexander()
    assert state.push_text(text) == card_move("fan/0", "foundation/0", "JH")
    assert state.move_stack == [card_move("fan/0", "foundation/0", "JH")]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("fan/0 fan/3 JH", "illegal move: 'fan/0 fan/3 JH': J♥ may not fill the empty fan/3:"),
        ("t0 t3", "illegal move: 't0 t3': J♥ may not fill the empty fan/3:"),
        ("fan/0 foundation/0", "not a move: 'fan/0 foundation/0' (expected"),
    ],
)
def test_push_text_refuses_and_leaves_the_position(text: str, words: str) -> None:
    state = small_alexander()
    before = state.copy()
    with pytest.raises(CardtableError) as caught:
        state.push_text(text)
    assert str(caught.value).startswith(words)
    assert state == before and state.move_stack == []


@pytest.mark.parametrize(
    ("given", "words"),
    [
        (
            "fan/0 foundation/0 JH",
            "'fan/0 foundation/0 JH' (str): give state.parse_text('fan/0 foundation/0 JH') for its Move,"
            " or state.push_text('fan/0 foundation/0 JH') to play it",
        ),
        (
            None,
            "None (NoneType): give Move.from_text('fan/1 foundation/0 AS'),"
            " or state.parse_text('t1 f0') for the play notation",
        ),
    ],
)
def test_a_move_that_is_no_move_is_refused_saying_how_to_make_one(given: object, words: str) -> None:
    state = small_alexander()
    for asks in (state.push_checked, state.why_illegal, state.is_legal):
        with pytest.raises(WrongTypeError) as caught:
            asks(given)  # type: ignore[arg-type]
        assert str(caught.value) == f"not a Move: {words}"
    assert given not in state.legal_moves and state.move_stack == []


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (card_move("fan/12", "fan/0", "JH"), "there is no pile fan/12"),
        (card_move("fan/0", "fan/99", "JH"), "there is no pile fan/99"),
        (card_move("cellar/0", "fan/1", "JH"), "there is no pile cellar/0"),
        (card_move("fan/5", "fan/1", "JH"), "fan/5 is empty"),
        (card_move("fan/0", "fan/1", "QH"), "the top of fan/0 is J♥, not Q♥"),
        (card_move("fan/0", "fan/0", "JH"), "a card cannot move onto its own pile"),
        (card_move("foundation/0", "fan/3", "TH"), "cards never leave foundation piles"),
        (
            card_move("fan/0", "fan/4", "JH"),
            "J♥ may not fill the empty fan/4: it takes only an ace or a king",
        ),
        (card_move("fan/0", "fan/2", "JH"), "J♥ does not go on K♥ (fan/2)"),
        (card_move("fan/2", "foundation/1", "KH"), "K♥ does not go on K♦ (foundation/1 is complete)"),
        (Move.deal(), "this game has no stock"),
        (Move.redeal(), "this game has no redeal"),
        (Move("bogus"), "no move is of the kind 'bogus'"),
        (
            Move(CARD, PileId("fan", 0)),
            "a card move names the pile it leaves, the pile it goes to and its card",
        ),
        (Move(CARD, PileId("fan", 0), PileId("fan", 1), 99), "not a card: 99"),  # built without card_move
        (Move(CARD, PileId("fan", 0), PileId("fan", 1), -1), "not a card: -1"),
    ],
)
def test_why_illegal(move: Move, reason: str) -> None:
    state = small_alexander()
    assert state.why_illegal(move) == reason
    assert not state.is_legal(move)
    with pytest.raises(IllegalMoveError, match=r"^illegal move: "):
        state.push_checked(move)


def test_nothing_may_be_placed_on_a_reserve() -> None:
    state = acey_position(
        reserve=["5C", "9D"],
        tableau=["7H", "8H", "JS", "QS"],
        stock="3S 4S",
        up=(13, 13, 0, 0),
        down=(13, 13, 0, 0),
        rest="waste",
    )
    move = card_move("reserve/0", "reserve/1", "5C")
    assert state.why_illegal(move) == "nothing may be placed on reserve piles"


def test_pile_and_group() -> None:
    state = small_alexander()
    assert state.pile(PileId("fan", 2)) == [card_move("fan/2", "fan/0", "KH").card]
    assert len(state.group("fan")) == 12 and len(state.group("foundation")) == 4
    with pytest.raises(UnknownPileError, match=r"^alexander-the-great has no group 'stock' "):
        state.group("stock")  # a slip (a typo: "fans") would otherwise read as an empty table
    fans = state.group("fan")
    state.pile(PileId("fan", 2)).clear()
    for fan in state.group("fan"):
        fan.clear()  # copies: the position changes only through push and pop
    assert state.group("fan") == fans and state.pile(PileId("fan", 2)) == fans[2] != []
    with pytest.raises(
        UnknownPileError, match=r"^alexander-the-great has no pile 'fan/12' in this position$"
    ):
        state.pile(PileId("fan", 12))
    with pytest.raises(KeyError):  # a lookup that failed, as a dict's does
        state.pile(PileId("cellar", 0))
    with pytest.raises(UnknownPileError) as caught:
        state.spec.group("cellar")
    assert str(caught.value) == "alexander-the-great has no group 'cellar' (its groups: foundation, fan)"
    assert state.on_foundations() == 49


def test_copy_is_independent() -> None:
    state = small_alexander()
    state.push(card_move("fan/0", "foundation/0", "JH"))
    plain = state.copy()
    assert plain == state
    assert plain.move_stack == []
    with pytest.raises(IndexError):
        plain.pop()
    plain.push(card_move("fan/1", "foundation/0", "QH"))
    assert plain != state
    assert len(state.pile(PileId("fan", 1))) == 1


def test_copy_with_stack_can_take_moves_back() -> None:
    state = small_alexander()
    start = state.copy()
    state.push(card_move("fan/0", "foundation/0", "JH"))
    other = state.copy(stack=True)
    assert other.move_stack == state.move_stack
    other.pop()
    assert other == start
    assert state.move_stack != []  # the original keeps its stack
    assert state != start


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy])
def test_the_copy_module_copies_as_copy_with_its_stack_does(copier: Callable[[State], State]) -> None:
    state = small_alexander()
    state.push(card_move("fan/0", "foundation/0", "JH"))
    other = copier(state)
    assert other == state and other.move_stack == state.move_stack and other.spec is state.spec
    other.pop()
    other.push(card_move("fan/0", "fan/1", "JH"))
    assert state.move_stack == [card_move("fan/0", "foundation/0", "JH")]  # the original is untouched
    assert state.pile(PileId("fan", 1)) == [parse_card("QH")]


def test_root_is_the_position_before_the_first_move() -> None:
    state = small_alexander()
    start = state.copy()
    state.push(card_move("fan/0", "foundation/0", "JH"))
    state.push(card_move("fan/1", "foundation/0", "QH"))
    assert state.root() == start and state.root().move_stack == []
    assert state.ply() == 2  # the state itself keeps its moves
    assert start.root() == start


def test_equality_and_hashing() -> None:
    a, b = small_alexander(), small_alexander()
    assert a == b
    assert a != "not a state"
    b.push(card_move("fan/0", "foundation/0", "JH"))
    assert a != b
    b.pop()
    assert a == b
    with pytest.raises(TypeError):
        hash(a)
    assert {a.key(): 1}[b.key()] == 1


def test_equality_looks_at_redeals_and_seed() -> None:
    a = deal(load_game(LUCIE), 5)
    b = a.copy()
    b.redeals_left = 1
    assert a != b
    c = a.copy()
    c.seed = 6
    assert a != c


def test_repr() -> None:
    state = deal(load_game(ALEXANDER), 3)
    assert repr(state) == "<State alexander-the-great deal=3 moves=0>"
    assert repr(state.spec) == "<GameSpec 'alexander-the-great': Alexander the Great>"
    move = next(iter(state.legal_moves))
    assert repr(move) == f"Move.from_text({move.text()!r})" and eval(repr(move)) == move
    assert repr(Move.deal()) == "Move.from_text('deal')"
    assert repr(Move(CARD, PileId("fan", 1))) == (
        "Move(kind='card', source=PileId(group='fan', index=1), target=None, card=None)"
    )  # no text makes it: its fields


def test_the_key_tells_seeds_apart_only_while_a_redeal_is_left() -> None:
    fans = ["KC QC JC", "KD QD", "TC"]
    one, other = (fan_position(LUCIE, fans, redeals_left=1) for _ in range(2))
    other.seed = one.seed + 1  # the same fans, another shuffle at the redeal
    assert one.key() != other.key()
    one.redeals_left = other.redeals_left = 0
    assert one.key() == other.key()


def test_key_is_bytes_and_stable() -> None:
    state = deal(load_game(ACEY), 4)
    key = state.key()
    assert isinstance(key, bytes)
    assert state.copy().key() == key
    state.push(Move.deal())
    assert state.key() != key
    state.pop()
    assert state.key() == key


def test_card_moves_and_move_at_agree_with_legal_moves() -> None:
    state = deal(load_game(ALEXANDER), 8)
    by_index = {state.move_at(s, t) for s, t in state.card_moves()}
    assert by_index == set(state.legal_moves)


def test_push_card_by_index() -> None:
    state = small_alexander()
    source, target = next(state.card_moves())
    move = state.move_at(source, target)
    state.push_card(source, target)
    assert state.peek() == move
    state.pop()
    assert state == small_alexander()


def test_is_won_is_lost() -> None:
    state = small_alexander()
    assert not state.is_won() and not state.is_lost()
    for text in ("fan/0 foundation/0 JH", "fan/1 foundation/0 QH", "fan/2 foundation/0 KH"):
        state.push_checked(Move.from_text(text))
    assert state.is_won() and not state.is_lost()
    assert list(state.legal_moves) == [] and not state.legal_moves
    assert all_cards(state) == all_cards(small_alexander())


def _alexander_with(change: Callable[[list[list[Card]]], object]) -> State:
    """Alexander the Great's deal 1 with its piles changed in place (flat, in the spec's order)."""
    piles = [list(pile) for pile in deal(load_game(ALEXANDER), 1).piles]
    change(piles)
    return State(load_game(ALEXANDER), piles)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda piles: piles[-1].append(parse_card("7C")),
            "the cards are not the alexander-the-great deck: too many 7C",
        ),
        (lambda piles: piles.append([]), "'fan' has 13 piles; alexander-the-great has 12"),
        (lambda piles: piles[0].append(piles[4].pop()), "foundation/0 is not built in order: "),
    ],
    ids=["a card twice", "a pile too many", "a foundation out of order"],
)
def test_validate_refuses_a_position_no_game_has_as_a_deal_file_is_refused(
    change: Callable[[list[list[Card]]], object], message: str
) -> None:
    state = _alexander_with(change)
    with pytest.raises(InvalidDealError, match=f"^{re.escape(message)}") as caught:
        state.validate()
    with pytest.raises(InvalidDealError) as read:
        deal_from_dict(deal_to_dict(state))
    assert str(read.value) == str(caught.value)


def test_validate_refuses_a_number_that_is_no_card_and_redeals_the_game_does_not_allow() -> None:
    with pytest.raises(InvalidDealError, match=r"^fan/11: not a card: -1 \(cards are numbered 0 to 51\)$"):
        _alexander_with(lambda piles: piles[-1].append(-1)).validate()
    with pytest.raises(InvalidDealError, match=r"^redeals_left is 1; alexander-the-great allows none$"):
        State(load_game(ALEXANDER), deal(load_game(ALEXANDER), 1).piles, redeals_left=1).validate()


@pytest.mark.parametrize("game", GAME_IDS)
def test_validate_passes_a_deal_and_a_position_in_play(game: str) -> None:
    state = deal(load_game(game), 3)
    state.validate()
    for _ in range(20):
        if not state.legal_moves:
            break
        state.push(next(iter(state.legal_moves)))
    state.validate()


def test_deal_to_dict_is_a_snapshot() -> None:
    state = small_alexander()
    snapshot = deal_to_dict(state)
    state.push(card_move("fan/0", "foundation/0", "JH"))
    assert snapshot["piles"]["fan"][0] == ["JH"]


def test_small_alexander_moves_by_hand() -> None:
    state = small_alexander()
    expected = {
        "fan/0 foundation/0 JH",
        "fan/0 fan/1 JH",
        "fan/1 fan/0 QH",
        "fan/1 fan/2 QH",
        "fan/2 fan/1 KH",
    } | {f"fan/2 fan/{i} KH" for i in range(3, 12)}
    assert move_texts(state.legal_moves) == expected
