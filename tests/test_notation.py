"""The short terminal notation (core/notation.py): 't3 f1', 't3f1', 't3', '7c', 'd', 'redeal'."""

from __future__ import annotations

import pytest

from cardtable import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    PileId,
    State,
    deal,
    load_game,
)
from cardtable.core.cards import card_name, card_symbol
from cardtable.core.notation import move_text, parse_move, pile_code
from helpers import ALEXANDER, FAN, GAME_IDS, LUCIE, acey_position, fan_position, names, random_play


def alexander() -> State:
    """Hearts to JH, clubs down to 3C; fans QH, KH, AC, 2C; eight empty fans."""
    return fan_position(ALEXANDER, ["QH", "KH", "AC", "2C"])


def acey() -> State:
    return acey_position(
        up=(5, 5, 13, 13), reserve=["7D", "6D"], tableau=["9H", "", "", ""], waste="6S 8C", rest="waste"
    )


def test_pile_codes() -> None:
    state = acey()
    assert [pile_code(state, pid) for pid in state.plan.ids] == [
        *(f"f{i}" for i in range(8)),
        "r0",
        "r1",
        "t0",
        "t1",
        "t2",
        "t3",
        "s",
        "w",
    ]
    alex = alexander()
    assert pile_code(alex, PileId("fan", 11)) == "t11"
    assert pile_code(alex, PileId("foundation", 3)) == "f3"


def test_move_text() -> None:
    state = alexander()
    assert move_text(state, Move.from_text("fan/3 foundation/2 2C")) == "t3 f2"
    assert move_text(state, Move.deal()) == "d"
    assert move_text(state, Move.redeal()) == "redeal"
    assert move_text(acey(), Move.from_text("waste/0 tableau/1 8C")) == "w t1"


@pytest.mark.parametrize("text", ["t0 t1", "t0t1", "T0 T1", "  t0   t1 ", "t0 T1"])
def test_two_piles(text: str) -> None:
    assert parse_move(alexander(), text) == Move.from_text("fan/0 fan/1 QH")


def test_two_piles_to_a_foundation() -> None:
    assert parse_move(alexander(), "t3 f2") == Move.from_text("fan/3 foundation/2 2C")
    assert parse_move(alexander(), "t3f2") == Move.from_text("fan/3 foundation/2 2C")


def test_one_pile_goes_home_first() -> None:
    state = alexander()
    assert parse_move(state, "t0") == Move.from_text("fan/0 foundation/0 QH")  # not onto KH
    assert parse_move(state, "t3") == Move.from_text("fan/3 foundation/2 2C")  # not onto AC


def test_one_pile_with_one_place() -> None:
    state = fan_position(LUCIE, ["KC", "JC", "QC"])  # clubs to TC
    assert parse_move(state, "t2") == Move.from_text("fan/2 fan/0 QC")  # QC fits only on KC
    assert parse_move(state, "qc") == Move.from_text("fan/2 fan/0 QC")
    assert parse_move(state, "t1") == Move.from_text("fan/1 foundation/0 JC")  # home beats QC


def test_one_pile_with_several_places_is_ambiguous() -> None:
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_move(alexander(), "t1")
    message = str(caught.value)
    assert message.startswith("ambiguous move: 't1' could go to t0, t4, t5")
    assert message.endswith("say which, like 't1 t0'")
    assert caught.value.places[:3] == ("t0", "t4", "t5")  # for a front end's own words


def test_one_pile_that_cannot_move() -> None:
    with pytest.raises(IllegalMoveError, match=r"^illegal move: 't5': t5 is empty$"):
        parse_move(alexander(), "t5")
    with pytest.raises(IllegalMoveError, match=r"^illegal move: 'f0': J♥ is already home$"):
        parse_move(alexander(), "f0")  # Alexander's foundations never give a card back


def test_a_group_without_a_number_takes_a_pile_of_it_that_takes_the_card() -> None:
    state = alexander()
    assert parse_move(state, "t3 f") == Move.from_text("fan/3 foundation/2 2C")
    assert parse_move(state, "t0 f") == Move.from_text("fan/0 foundation/0 QH")  # home, not onto KH
    assert parse_move(state, "t0 t") == Move.from_text("fan/0 fan/1 QH")  # the one fan that takes it
    with pytest.raises(InvalidMoveError, match=r"^ambiguous move: 't1 t' could go to t0, t4, t5"):
        parse_move(state, "t1 t")  # K♥ onto Q♥ or into an empty fan


def test_a_group_target_that_takes_nothing_says_so() -> None:
    with pytest.raises(IllegalMoveError, match=r"^illegal move: 't1 f': K♥ cannot go on any foundation now$"):
        parse_move(alexander(), "t1 f")


@pytest.mark.parametrize(
    ("text", "message"), [("t f0", "say which fan in 't f0': t0 to t11"), ("tf0", "say which fan")]
)
def test_a_source_group_of_several_piles_needs_its_number(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=f"^{message}"):
        parse_move(alexander(), text)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("qh", "fan/0 foundation/0 QH"),
        ("QH", "fan/0 foundation/0 QH"),
        ("Q♥", "fan/0 foundation/0 QH"),
        ("2c", "fan/3 foundation/2 2C"),
    ],
)
def test_card_names(text: str, move: str) -> None:
    assert parse_move(alexander(), text) == Move.from_text(move)


@pytest.mark.parametrize("text", ["kh", "ac"])
def test_two_letter_card_names_are_cards_not_pile_codes(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="ambiguous move"):
        parse_move(alexander(), text)  # the king and the ace can go to any empty fan


@pytest.mark.parametrize("text", ["td", "10d", "TD", "10♦"])
def test_tens(text: str) -> None:
    state = fan_position(FAN, ["KD QD JD TD"])
    assert parse_move(state, text) == Move.from_text("fan/0 foundation/1 TD")


def test_a_card_that_is_not_on_top() -> None:
    with pytest.raises(IllegalMoveError, match=r"^illegal move: 'jh': J♥ is already home$"):
        parse_move(alexander(), "jh")  # on the hearts foundation, which never gives a card back
    with pytest.raises(IllegalMoveError, match="is not on top of a pile that plays"):
        parse_move(fan_position(FAN, ["KD QD JD TD"]), "jd")


def test_acey_codes() -> None:
    state = acey()
    with pytest.raises(
        InvalidMoveError, match=r"^ambiguous move: 'w' could go to t1, t2, t3: say which, like 'w t1'$"
    ):
        parse_move(state, "w")
    assert parse_move(state, "w t2") == Move.from_text("waste/0 tableau/2 8C")
    assert parse_move(state, "r1 f0") == Move.from_text("reserve/1 foundation/0 6D")
    assert parse_move(state, "r1") == Move.from_text("reserve/1 foundation/0 6D")
    assert parse_move(state, "6d") == Move.from_text("reserve/1 foundation/0 6D")
    with pytest.raises(IllegalMoveError, match="nothing may be placed on reserve piles"):
        parse_move(state, "t0 r0")


def test_a_card_already_home_is_not_sent_on_to_another_foundation_unless_asked() -> None:
    state = deal(load_game("acey-and-kingsley"), 7)
    state.push(parse_move(state, "t2"))  # 2♣ onto f0, which f1 would take too
    for text in ("f0", "2c"):  # a double-click on f0 sends "f0"
        with pytest.raises(
            IllegalMoveError, match=rf"^illegal move: '{text}': 2♣ is already home; to move it off"
        ):
            parse_move(state, text)
    assert (
        parse_move(state, "f0 f")
        == parse_move(state, "f0 f1")
        == Move.from_text("foundation/0 foundation/1 2C")
    )
    endgame = acey()  # the stock out and tableau piles empty: a card home may go to one, when named
    top = endgame.pile(PileId("foundation", 0))[-1]
    with pytest.raises(
        IllegalMoveError, match=r"^illegal move: 'f0': 5♣ is already home; to move it off, name"
    ) as caught:
        parse_move(endgame, "f0")
    assert caught.value.reason.startswith("5♣ is already home")  # without the move it quotes
    assert parse_move(endgame, "f0 t1") == Move("card", PileId("foundation", 0), PileId("tableau", 1), top)


@pytest.mark.parametrize("text", ["t0", "6s", "t0 f"])
def test_a_card_that_can_go_up_or_down_home_is_the_players_choice(text: str) -> None:
    state = acey_position(up=(5, 13, 13, 13), down=(7, 13, 13, 13), tableau=["6S", "", "", ""], rest="waste")
    with pytest.raises(
        AmbiguousMoveError, match=rf"^ambiguous move: '{text}' could go to f0 \(up\), f4 \(down\): say which"
    ) as caught:
        parse_move(state, text)
    assert caught.value.places == ("f0 (up)", "f4 (down)")
    assert parse_move(state, "t0 f4") == Move.from_text("tableau/0 foundation/4 6S")


def test_a_pile_out_of_range_is_told_the_range() -> None:
    with pytest.raises(InvalidMoveError, match=r"^no pile t4 in 't4 f0' \(tableau piles are t0 to t3\)$"):
        parse_move(acey(), "t4 f0")
    with pytest.raises(
        InvalidMoveError, match=r"^no pile f999999\.\.\. in 't0 f9999.*\.\.\. \(foundation piles"
    ):
        parse_move(acey(), "t0 f" + "9" * 5000)  # more digits than int() takes: no pile, in a short line
    with pytest.raises(
        InvalidMoveError, match=r"^no pile x999999\.\.\. in 't0 x9999.*\.\.\. \(piles start with"
    ):
        parse_move(acey(), "t0 x" + "9" * 5000)
    assert parse_move(alexander(), "t0003 f0002") == Move.from_text("fan/3 foundation/2 2C")  # zeros lead


@pytest.mark.parametrize(
    ("game", "tries"),
    [
        (ALEXANDER, "'t3 f1', 't3' or a card like '7c'"),
        ("acey-and-kingsley", "'t3 f1', 't3', a card like '7c' or 'd'"),
        (LUCIE, "'t3 f1', 't3', a card like '7c' or 'redeal'"),
    ],
)
def test_what_to_try_names_only_the_moves_the_game_has(game: str, tries: str) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        parse_move(deal(load_game(game), 1), "xyz")
    assert str(caught.value) == f"not a move: 'xyz' (try {tries}; 'help' lists all)"


def test_the_stock_is_only_dealt_from_and_its_card_stays_hidden() -> None:
    state = acey_position(up=(5, 13, 13, 13), tableau=["6D", "9C", "TC", "JC"], stock="7H 8H", rest="waste")
    with pytest.raises(IllegalMoveError) as caught:
        parse_move(state, "s")
    assert str(caught.value) == "illegal move: 's': the stock is only dealt from, with 'd'"
    with pytest.raises(IllegalMoveError, match=r"the stock is only dealt from$"):
        parse_move(state, "s t0")
    with pytest.raises(IllegalMoveError, match="8♥ is not on top of a pile that plays"):
        parse_move(state, "8h")  # the stock's top card is face down: it does not play


def test_a_card_on_two_piles_is_taken_from_off_the_foundations() -> None:
    # Two decks: one 5C tops ace pile 0, the other the tableau; both fit on ace pile 1 (4C).
    state = acey_position(up=(5, 4, 13, 13), tableau=["5C", "", "", ""], rest="waste")
    assert names(state.group("foundation")[0][-1:]) == "5C"
    assert parse_move(state, "5c") == Move.from_text("tableau/0 foundation/1 5C")
    assert parse_move(state, "f0 f") == Move.from_text("foundation/0 foundation/1 5C")  # by name only


def test_deal_words() -> None:
    state = acey_position(up=(5, 13, 13, 13), tableau=["6D", "9C", "TC", "JC"], stock="7H 8H", rest="waste")
    assert parse_move(state, "d") == Move.deal()
    assert parse_move(state, "deal") == Move.deal()
    assert parse_move(state, " D ") == Move.deal()
    with pytest.raises(IllegalMoveError, match=r"^illegal move: 'd': the stock is empty$"):
        parse_move(acey(), "d")
    with pytest.raises(IllegalMoveError, match="this game has no stock"):
        parse_move(alexander(), "deal")


def test_redeal_words() -> None:
    blocked = fan_position(LUCIE, ["TC KH", "JD QD QC", "QH KS JC KC KD"])
    assert parse_move(blocked, "redeal") == Move.redeal()
    assert parse_move(blocked, "rd") == Move.redeal()
    assert parse_move(blocked, "REDEAL") == Move.redeal()
    with pytest.raises(IllegalMoveError, match="a redeal is allowed only when no other move is possible"):
        parse_move(deal(load_game(LUCIE), 1), "redeal")
    with pytest.raises(IllegalMoveError, match="this game has no redeal"):
        parse_move(alexander(), "redeal")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a move: ''"),
        ("xyz", "not a move: 'xyz'"),
        ("move t3", "not a move: 'move t3'"),
        ("t3 f1 f2", "not a move: 't3 f1 f2'"),
        ("7", "not a move: '7'"),
        ("f", "not a move: 'f'"),
        ("t99 f1", "no pile t99 in 't99 f1'"),
        ("t3 f9", "no pile f9 in 't3 f9'"),
        ("q3 f1", "no pile q3 in 'q3 f1' (piles start with f, t)"),
        ("w", "not a move: 'w'"),
    ],
)
def test_bad_text(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        parse_move(alexander(), text)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("t0 t3", "illegal move: 't0 t3': Q♥ does not go on 2♣ (fan/3)"),
        ("t0 t5", "illegal move: 't0 t5': Q♥ may not fill the empty fan/5: it takes only an ace or a king"),
        ("t5 t0", "illegal move: 't5 t0': t5 is empty"),
        ("f0 t5", "illegal move: 'f0 t5': cards never leave foundation piles"),
        ("t0 t0", "illegal move: 't0 t0': a card cannot move onto its own pile"),
    ],
)
def test_illegal_moves(text: str, message: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        parse_move(alexander(), text)
    assert str(caught.value) == message


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_legal_move_round_trips_through_the_notation(game: str) -> None:
    """Also with its card after it, as ``cardtable solve`` prints a line, by symbol or by name."""
    for number in (1, 2):
        state = deal(load_game(game), number)
        for _ in range(25):
            for move in state.legal_moves:
                text = move_text(state, move)
                assert parse_move(state, text) == move
                if move.card is not None:
                    for card in (card_symbol(move.card), card_name(move.card).lower()):
                        assert parse_move(state, f"{text} {card}") == move
            if not random_play(state, number, 1):
                break


def test_the_parsed_move_is_legal() -> None:
    state = alexander()
    for text in ("t0", "t3", "qh", "t0 t1", "t3f2"):
        assert state.is_legal(parse_move(state, text))


@pytest.mark.parametrize("text", ["t٣ f1", "t3 f١", "t³"])
def test_pile_numbers_are_ascii_digits_only(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_move(alexander(), text)


def test_a_card_named_then_where_it_goes() -> None:
    state = acey_position(up=(5, 13, 13, 13), down=(7, 13, 13, 13), tableau=["6S", "", "", ""], rest="waste")
    assert (
        parse_move(state, "6s f4")
        == parse_move(state, "6S  F4")
        == Move.from_text("tableau/0 foundation/4 6S")
    )
    assert parse_move(state, "6s t2") == Move.from_text("tableau/0 tableau/2 6S")
    with pytest.raises(InvalidMoveError, match=r"^ambiguous move: '6s f' could go to f0 \(up\), f4 \(down\)"):
        parse_move(state, "6s f")
    with pytest.raises(
        IllegalMoveError,
        match=r"^illegal move: '6s f1': 6♠ does not go on K♣ \(foundation/1 is complete\)$",
    ):
        parse_move(state, "6s f1")
    with pytest.raises(InvalidMoveError, match=r"^no pile t9 in '6s t9'"):
        parse_move(state, "6s t9")
    with pytest.raises(InvalidMoveError, match=r"^not a move: 'zz t1'"):
        parse_move(state, "zz t1")


@pytest.mark.parametrize(
    "text", ["t6 f0 A♣", "t6 f0 AC", "t6 f0 a♣", "t6f0 ac", "t6 f A♣", "t6 A♣", "T6 F0 A♣"]
)
def test_the_card_after_the_piles_is_checked_and_may_be_written_any_way_a_card_is(text: str) -> None:
    assert parse_move(deal(load_game(FAN), 3), text) == Move.from_text("fan/6 foundation/0 AC")


@pytest.mark.parametrize("text", ["t6 f0 2♣", "t6 f 2c", "t6 2C"])
def test_a_card_after_the_piles_that_is_not_on_top_of_the_first_is_refused(text: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        parse_move(deal(load_game(FAN), 3), text)
    assert str(caught.value) == f"illegal move: {text!r}: t6 holds A♣ on top, not 2♣"


def test_a_card_after_the_piles_never_names_the_stocks_top_and_an_empty_pile_is_told_so() -> None:
    state = acey_position(up=(5, 13, 13, 13), tableau=["6D", "9C", "TC", "JC"], stock="7H 8H", rest="waste")
    for text in ("s w 7c", "s t0 8h"):
        with pytest.raises(IllegalMoveError, match=r"the stock is only dealt from$"):
            parse_move(state, text)
    with pytest.raises(IllegalMoveError, match=r"^illegal move: 't5 f0 ac': t5 is empty$"):
        parse_move(alexander(), "t5 f0 ac")
