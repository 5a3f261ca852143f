"""Moves and pile names (core/move.py): frozen values with a text form that needs no position."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from cardtable import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    Move,
    PileId,
    WrongTypeError,
    deal,
    load_game,
    parse_card,
)
from helpers import LUCIE_BLOCKED_AT_START, cards


def test_pile_id_text_round_trip() -> None:
    for text in ("fan/0", "fan/17", "foundation/3", "reserve/1", "stock/0", "waste/0", "tableau/12"):
        pile = PileId.parse(text)
        assert str(pile) == text
    assert PileId.parse("fan/3") == PileId("fan", 3)


@pytest.mark.parametrize(
    "text", ["fan", "fan/", "/3", "fan/-1", "fan/x", "fan3", "", "fan/3/1", "fan/ 3", "fan/³"]
)
def test_bad_pile_names(text: str) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        PileId.parse(text)
    assert repr(text) in str(caught.value)


def test_a_pile_number_longer_than_any_game_needs_is_refused_in_a_short_line() -> None:
    with pytest.raises(InvalidMoveError) as caught:
        PileId.parse("fan/" + "9" * 5000)  # int() would refuse it past 4,300 digits with a bare ValueError
    assert (
        str(caught.value)
        == "not a pile: 'fan/99999999999999999999999999999999... (no game has a pile numbered so high)"
    )
    assert PileId.parse("fan/999999") == PileId("fan", 999999)
    assert PileId.parse("fan/0000003") == PileId("fan", 3)  # leading zeros are no digits of the number
    with pytest.raises(WrongTypeError, match=r"^not a pile name: 0\.0 \(float\): give text such as 'fan/3'$"):
        PileId.parse(0.0)  # type: ignore[arg-type]


def test_moves_are_frozen_and_hashable() -> None:
    move = Move.card_move(PileId("fan", 3), PileId("foundation", 0), parse_card("7C"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.card = 0  # type: ignore[misc]
    same = Move.card_move(PileId("fan", 3), PileId("foundation", 0), parse_card("7c"))
    assert move == same and hash(move) == hash(same)
    assert len({move, same, Move.deal(), Move.deal(), Move.redeal(), Move.redeal()}) == 3


@pytest.mark.parametrize("card", [-1, 52, 99])
def test_a_card_move_refuses_a_number_that_is_no_card(card: int) -> None:
    with pytest.raises(InvalidCardError, match=rf"^not a card: {card} \(cards are numbered 0 to 51\)$"):
        Move.card_move(PileId("fan", 0), PileId("foundation", 0), card)


def test_a_redeal_is_the_same_move_with_its_fans_or_without() -> None:
    """The deal fixes the shuffle, so the fans a redeal records add nothing to which move it is."""
    state = deal(load_game("alexander-the-great-lucie"), LUCIE_BLOCKED_AT_START)
    state.push_checked(Move.redeal())
    popped = state.pop()
    assert popped.fans is not None and popped == Move.redeal() and hash(popped) == hash(Move.redeal())
    assert Move.from_text(popped.text()) == popped


def test_text_forms() -> None:
    move = Move.card_move(PileId("fan", 3), PileId("foundation", 0), parse_card("10c"))
    assert move.text() == str(move) == "fan/3 foundation/0 TC"
    assert Move.deal().text() == "deal"
    assert Move.redeal().text() == "redeal"
    fans = (tuple(cards("5C JD 2H")), tuple(cards("AS")))
    assert Move.redeal(fans).text() == "redeal"


@pytest.mark.parametrize("text", ["fan/3 foundation/0 TC", "waste/0 tableau/2 KS", "deal", "redeal"])
def test_text_round_trip(text: str) -> None:
    assert Move.from_text(text).text() == text


def test_from_text_reads_lenient_card_names() -> None:
    assert Move.from_text("fan/3 foundation/0 10c") == Move.from_text("fan/3 foundation/0 TC")


def test_a_redeal_carries_its_fans_but_is_not_told_apart_by_them() -> None:
    fans = (tuple(cards("5C JD 2H")),)
    assert Move.redeal(fans).fans == fans and Move.redeal().fans is None
    assert Move.redeal(fans) == Move.redeal() and len({Move.redeal(fans), Move.redeal()}) == 1


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fan/3",
        "fan/3 foundation/0",
        "fan/3 foundation/0 7X",
        "fan foundation/0 7C",
        "deal now",
        "t3 f1",
        "x y z w",
    ],
)
def test_bad_move_text(text: str) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        Move.from_text(text)
    assert repr(text) in str(caught.value) or "not a pile" in str(caught.value)


@pytest.mark.parametrize(
    "error",
    [
        IllegalMoveError("9♣ does not go on A♥ (foundation/0)", "t0 f0"),
        IllegalMoveError("9♣ does not go on A♥ (foundation/0)"),
        AmbiguousMoveError("t0", ["f0 (up)", "f4 (down)"], "t0 f0"),
    ],
)
def test_a_refused_move_pickles_with_its_parts(error: IllegalMoveError | AmbiguousMoveError) -> None:
    """As errors do when they cross from a worker process to the one that asked."""
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), vars(copy)) == (type(error), str(error), vars(error))
