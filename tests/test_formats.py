"""The JSON contract (formats.py and shared/formats.md): deals, moves, solutions, and their errors."""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
from collections.abc import Iterator
from typing import Any, Final

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable import (
    InvalidDealError,
    InvalidMoveError,
    InvalidSolutionError,
    Move,
    State,
    deal,
    formats,
    load_game,
)
from cardtable.core.errors import excerpt
from cardtable.formats import (
    RESULTS,
    SavedGame,
    Solution,
    deal_from_dict,
    deal_to_dict,
    deal_to_json,
    json_values,
    move_from_dict,
    move_to_dict,
    move_to_json,
    read_deal,
    read_saved_game,
    read_solution,
    read_solutions,
    record_kind,
    replay,
    solutions_in,
)
from cardtable.solver import Limit, solve
from cardtable.solver.search import STATUSES
from helpers import (
    ACEY,
    ALEXANDER,
    DATA,
    FAN,
    FAST,
    GAME_IDS,
    LUCIE,
    acey_position,
    card_move,
    cards,
    fan_position,
    positions,
    random_play,
)


def start(game: str, number: int = 1) -> dict[str, Any]:
    return deal_to_dict(deal(load_game(game), number))


# -- deals ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAME_IDS)
def test_deal_round_trip(game: str) -> None:
    state = deal(load_game(game), 17)
    assert deal_from_dict(deal_to_dict(state)) == state
    again = read_deal(deal_to_json(state))
    assert again == state
    assert again.deal_number == 17
    assert again.key() == state.key()


@pytest.mark.parametrize(
    ("game", "groups"),
    [
        (ALEXANDER, {"foundation": 4, "fan": 12}),
        (LUCIE, {"foundation": 4, "fan": 18}),
        (ACEY, {"foundation": 8, "reserve": 2, "tableau": 4, "stock": 1, "waste": 1}),
        (FAN, {"foundation": 4, "fan": 18}),
    ],
)
def test_deal_shape(game: str, groups: dict[str, int]) -> None:
    obj = start(game)
    assert obj["game"] == game
    assert obj["deal"] == 1
    assert {name: len(piles) for name, piles in obj["piles"].items()} == groups
    assert all(len(name) == 2 for piles in obj["piles"].values() for pile in piles for name in pile)
    if game == LUCIE:
        assert obj["redeals_left"] == 2
        assert obj["seed"] == 1
    else:
        assert "redeals_left" not in obj


def test_acey_foundations_are_the_ace_piles_then_the_king_piles() -> None:
    assert start(ACEY)["piles"]["foundation"] == [
        ["AC"],
        ["AD"],
        ["AH"],
        ["AS"],
        ["KC"],
        ["KD"],
        ["KH"],
        ["KS"],
    ]
    assert start(ACEY)["piles"]["waste"] == [[]]
    assert len(start(ACEY)["piles"]["stock"][0]) == 66


@pytest.mark.parametrize("game", GAME_IDS)
def test_positions_in_progress_round_trip(game: str) -> None:
    for number in (1, 2, 3):
        state = deal(load_game(game), number)
        random_play(state, number, 40)
        back = read_deal(deal_to_json(state))
        assert back == state
        assert set(back.legal_moves) == set(state.legal_moves)
        assert back.key() == state.key()


def test_lucie_after_a_redeal_has_fewer_fans() -> None:
    state = fan_position(LUCIE, ["TC KH", "JD QD QC", "QH KS JC KC KD"], seed=99)
    state.push_checked(Move.redeal())
    obj = deal_to_dict(state)
    assert len(obj["piles"]["fan"]) == 4
    assert obj["redeals_left"] == 1
    assert obj["seed"] == 99
    back = deal_from_dict(json.loads(json.dumps(obj)))
    assert back == state
    assert back.redeal_fans() == state.redeal_fans()  # the seed travels with the position


@given(positions(ALEXANDER))
@FAST
def test_any_alexander_position_round_trips(state: State) -> None:
    assert read_deal(deal_to_json(state)) == state


@given(positions(LUCIE))
@FAST
def test_any_lucie_position_round_trips(state: State) -> None:
    back = read_deal(deal_to_json(state))
    assert back == state and back.redeals_left == state.redeals_left


@given(positions(ACEY))
@FAST
def test_any_acey_position_round_trips(state: State) -> None:
    assert read_deal(deal_to_json(state)) == state


@given(positions(FAN))
@FAST
def test_any_fan_position_round_trips(state: State) -> None:
    assert read_deal(deal_to_json(state)) == state


def test_a_layout_without_a_deal_number() -> None:
    obj = start(ALEXANDER)
    del obj["deal"]
    state = deal_from_dict(obj)
    assert state.deal_number is None
    assert state.seed == 0
    assert "deal" not in deal_to_dict(state)


def test_the_seed_field_fixes_the_redeals() -> None:
    obj = start(LUCIE, 8)
    obj["seed"] = 4242
    state = deal_from_dict(obj)
    assert state.seed == 4242 and state.deal_number == 8
    del obj["seed"]
    assert deal_from_dict(obj).seed == 8


def test_readers_accept_lower_case_and_tens_and_writers_do_not_write_them() -> None:
    obj = start(ALEXANDER)
    obj["piles"]["fan"] = [[c.lower().replace("t", "10") for c in pile] for pile in obj["piles"]["fan"]]
    state = deal_from_dict(obj)
    assert deal_to_dict(state) == start(ALEXANDER)


def test_unknown_fields_are_ignored() -> None:
    obj = start(LUCIE)
    obj["comment"] = "from another tool"
    obj["stats"] = {"x": 1}
    obj["layout_version"] = 7
    assert deal_from_dict(obj) == deal(load_game(LUCIE), 1)


def test_game_options_travel_in_the_id() -> None:
    state = deal(load_game(f"{LUCIE}(redeals=0)"), 3)
    obj = deal_to_dict(state)
    assert obj["game"] == f"{LUCIE}(redeals=0)"
    assert (obj["redeals_left"], obj["seed"]) == (0, 3)  # the fields of the game that redeals, none left
    back = deal_from_dict(obj)
    assert back.spec.redeals == 0 and back == state
    anytime = deal(load_game(f"{LUCIE}(redeal_anytime=true)"), 3)
    assert deal_from_dict(deal_to_dict(anytime)).spec.redeal_anytime


def test_a_won_position_round_trips() -> None:
    state = fan_position(LUCIE, [])
    assert state.is_won()
    assert deal_from_dict(deal_to_dict(state)) == state


def _broken(game: str, change: Any) -> dict[str, Any]:
    obj = copy.deepcopy(start(game))
    change(obj)
    return obj


def _set(path: list[Any], value: Any) -> Any:
    def change(obj: Any) -> None:
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value

    return change


def _delete(path: list[Any]) -> Any:
    def change(obj: Any) -> None:
        for key in path[:-1]:
            obj = obj[key]
        del obj[path[-1]]

    return change


BAD_DEALS: list[tuple[str, str, Any, str]] = [
    # (id, game, change, the message, or a part of it)
    ("no game", ALEXANDER, _delete(["game"]), "missing key 'game': the deal's game id, such as 'fan'"),
    ("game null", ALEXANDER, _set(["game"], None), "the deal needs a 'game' id string, not null"),
    ("game not a string", ALEXANDER, _set(["game"], 5), "the deal needs a 'game' id string, not 5"),
    ("unknown game", ALEXANDER, _set(["game"], "klondike"), "unknown game: 'klondike'"),
    ("bad option", ALEXANDER, _set(["game"], f"{LUCIE}(redeals=x)"), "whole number"),
    (
        "deal zero",
        ALEXANDER,
        _set(["deal"], 0),
        "'deal' must be a whole number from 1 to 2147483647, not 0 (cardtable's own numbers: leave 'deal'"
        " out of a layout numbered elsewhere)",
    ),
    (
        "deal text",
        ALEXANDER,
        _set(["deal"], "7"),
        "'deal' must be a whole number from 1 to 2147483647, not \"7\"",
    ),
    (
        "deal bool",
        ALEXANDER,
        _set(["deal"], True),
        "'deal' must be a whole number from 1 to 2147483647, not true",
    ),
    (
        "deal float",
        ALEXANDER,
        _set(["deal"], 1.5),
        "'deal' must be a whole number from 1 to 2147483647, not 1.5",
    ),
    (
        "deal too big",
        ALEXANDER,
        _set(["deal"], 2**31),
        "'deal' must be a whole number from 1 to 2147483647, not 2147483648",
    ),
    (
        "seed negative",
        LUCIE,
        _set(["seed"], -1),
        "'seed' must be a whole number from 0 to 18446744073709551615, not -1",
    ),
    (
        "seed past 64 bits",
        LUCIE,
        _set(["seed"], 2**64),
        "'seed' must be a whole number from 0 to 18446744073709551615",
    ),
    ("redeals negative", LUCIE, _set(["redeals_left"], -1), "'redeals_left' must be a whole number >= 0"),
    (
        "redeals too many",
        LUCIE,
        _set(["redeals_left"], 3),
        "redeals_left is 3; alexander-the-great-lucie allows 0 to 2",
    ),
    (
        "redeals in a game without any",
        "alexander-the-great-lucie(redeals=0)",
        _set(["redeals_left"], 1),
        "redeals_left is 1; alexander-the-great-lucie(redeals=0) allows none",
    ),
    (
        "no piles",
        ALEXANDER,
        _delete(["piles"]),
        "missing key 'piles': the deal's cards, pile group by pile group",
    ),
    ("piles null", ALEXANDER, _set(["piles"], None), "'piles' must be an object of pile groups, not null"),
    ("piles a list", ALEXANDER, _set(["piles"], []), "'piles' must be an object of pile groups"),
    ("group not a list", ALEXANDER, _set(["piles", "fan"], "AS"), "pile group 'fan' must be a list of piles"),
    (
        "pile not a list",
        ALEXANDER,
        _set(["piles", "fan", 0], "AS"),
        "pile group 'fan' must be a list of piles",
    ),
    ("unknown card", ALEXANDER, _set(["piles", "fan", 3, 1], "XX"), "fan/3: not a card: 'XX'"),
    ("card not a string", ALEXANDER, _set(["piles", "fan", 0, 0], 7), "fan/0: not a card: 7"),
    (
        "unknown group",
        ALEXANDER,
        _set(["piles", "stock"], [[]]),
        "alexander-the-great has no pile group 'stock'",
    ),
    (
        "missing group",
        ALEXANDER,
        _delete(["piles", "fan"]),
        "missing pile group 'fan' for alexander-the-great",
    ),
    (
        "acey without waste",
        ACEY,
        _delete(["piles", "waste"]),
        "missing pile group 'waste' for acey-and-kingsley",
    ),
    ("lucie with tableau", LUCIE, _set(["piles", "tableau"], []), "has no pile group 'tableau'"),
]


def _more_bad_deals() -> list[tuple[str, str, Any, str]]:
    def drop_fan(obj: Any) -> None:
        obj["piles"]["foundation"][0] += obj["piles"]["fan"].pop()

    def duplicate(obj: Any) -> None:
        obj["piles"]["fan"][0][0] = obj["piles"]["fan"][1][0]

    def missing(obj: Any) -> None:
        obj["piles"]["fan"][0].pop()

    def one_deck(obj: Any) -> None:
        obj["piles"]["stock"][0] = obj["piles"]["stock"][0][:14]

    def extra(obj: Any) -> None:
        obj["piles"]["fan"][0].append("AS")

    def nineteen(obj: Any) -> None:
        obj["redeals_left"] = 1
        obj["piles"]["fan"].append([])

    def no_fans(obj: Any) -> None:
        obj["redeals_left"] = 0
        obj["piles"]["fan"] = []

    return [
        ("eleven fans", ALEXANDER, drop_fan, "'fan' has 11 piles; alexander-the-great has 12"),
        (
            "seventeen fans before a redeal",
            LUCIE,
            drop_fan,
            "'fan' has 17 piles; alexander-the-great-lucie has 18"
            " (fewer come only after a redeal: say so with 'redeals_left')",
        ),
        ("nineteen fans after a redeal", LUCIE, nineteen, "'fan' has 19 piles; after a redeal"),
        ("no fans after a redeal", LUCIE, no_fans, "'fan' has 0 piles; after a redeal"),
        ("seven acey foundations", ACEY, _delete(["piles", "foundation", 7]), "'foundation' has 7 piles"),
        ("three reserves", ACEY, lambda o: o["piles"]["reserve"].append([]), "'reserve' has 3 piles"),
        ("two stocks", ACEY, lambda o: o["piles"]["stock"].append([]), "'stock' has 2 piles"),
        ("a card for another", ALEXANDER, duplicate, "deck: too many 4H (each card once), and missing TC"),
        ("a card missing", ALEXANDER, missing, "the cards are not the alexander-the-great deck: missing"),
        ("an extra card", FAN, extra, "too many AS (each card once)"),
        ("half the stock", ACEY, one_deck, "the cards are not the acey-and-kingsley deck: missing"),
    ]


@pytest.mark.parametrize("game", [ALEXANDER, FAN, ACEY])
def test_redeal_fields_are_unknown_fields_to_a_game_that_never_redeals(game: str) -> None:
    start = deal(load_game(game), 5)
    obj = {**deal_to_dict(start), "redeals_left": 2, "seed": "x"}  # formats.md: unknown fields are ignored
    assert deal_from_dict(obj) == start and deal_from_dict(obj).seed == start.seed


@pytest.mark.parametrize(
    ("game", "change", "message"),
    [case[1:] for case in BAD_DEALS + _more_bad_deals()],
    ids=[case[0] for case in BAD_DEALS + _more_bad_deals()],
)
def test_bad_deals_name_the_problem(game: str, change: Any, message: str) -> None:
    obj = _broken(game, change)
    with pytest.raises(InvalidDealError) as caught:
        deal_from_dict(obj)
    assert message in str(caught.value)
    with pytest.raises(InvalidDealError):
        read_deal(json.dumps(obj))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "malformed deal json at line 1 column 2"),
        ('{"game": "fan",}', "malformed deal json at line 1 column 16"),
        ("", "no deal in it: it is empty"),
        (" \n", "no deal in it: it is empty"),
        ("[]", "a deal must be a json object, not []"),
        ("42", "a deal must be a json object, not 42"),
        ("null", "a deal must be a json object, not null"),
        ("[" * 100_000 + "]" * 100_000, "malformed deal json"),
        ('{"game": "fan", "piles": ' + "[" * 100_000 + "]" * 100_000 + "}", "malformed deal json"),
    ],
    ids=[
        "open brace",
        "trailing comma",
        "empty",
        "blank",
        "list",
        "number",
        "null",
        "deep list",
        "deep piles",
    ],
)
def test_malformed_deal_json(text: str, message: str) -> None:
    with pytest.raises(InvalidDealError) as caught:
        read_deal(text)
    assert message in str(caught.value)


def test_a_deal_that_is_not_text() -> None:
    with pytest.raises(InvalidDealError, match="malformed deal"):
        read_deal(None)  # type: ignore[arg-type]


def _fan_game(game: str, foundations: list[list[str]], fans: list[list[str]], **extra: Any) -> dict[str, Any]:
    return {"game": game, "piles": {"foundation": foundations, "fan": fans}, **extra}


def _lucie_with(foundations: list[list[str]]) -> dict[str, Any]:
    """A Lucie deal with these foundations and the other cards dealt round the 18 fans."""
    used = {c for f in foundations for c in f}
    rest = [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in used]
    fans = [rest[i::18] for i in range(18)]
    return _fan_game(LUCIE, foundations, fans)


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        (_lucie_with([["AC", "3C", "2C"], [], [], []]), "foundation/0 is not built in order: 3C on AC"),
        (_lucie_with([["AC", "2D"], [], [], []]), "foundation/0 is not built in order: 2D on AC"),
        (_lucie_with([[], ["2C"], [], []]), "foundation/1 starts with 2C; it must start with an ace"),
        (_lucie_with([["KC"], [], [], []]), "foundation/0 starts with KC; it must start with an ace"),
    ],
)
def test_impossible_lucie_foundations(obj: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidDealError) as caught:
        deal_from_dict(obj)
    assert str(caught.value) == message


def test_an_alexander_foundation_missing_its_starting_card() -> None:
    obj = start(ALEXANDER)
    obj["piles"]["fan"][0].append(obj["piles"]["foundation"][2].pop())  # KC into a fan
    with pytest.raises(InvalidDealError) as caught:
        deal_from_dict(obj)
    assert str(caught.value) == "foundation/2 is empty, but its starting card never leaves it"


def test_alexander_foundations_of_one_direction_may_come_in_any_order() -> None:
    """formats.md: a foundation's direction follows from its first card; the order within is the file's."""
    obj = deal_to_dict(deal(load_game(ALEXANDER), 10))
    found = obj["piles"]["foundation"]
    found[:] = [found[1], found[0], found[3], found[2]]  # AD, AH, KS, KC
    state = deal_from_dict(obj)
    result = solve(state, Limit(seconds=20))
    assert result.status == "won"
    replayed = state.copy()
    for move in result.moves:
        replayed.push_checked(move)
    assert replayed.is_won()


def test_an_alexander_foundation_with_the_wrong_starting_card() -> None:
    obj = start(ALEXANDER)
    fan = next(f for f in obj["piles"]["fan"] if "AC" in f)
    fan[fan.index("AC")] = obj["piles"]["foundation"][0][0]  # AC where a red ace belongs
    obj["piles"]["foundation"][0] = ["AC"]
    with pytest.raises(InvalidDealError) as caught:
        deal_from_dict(obj)
    assert str(caught.value) == "foundation/0 starts with AC; it must start with AH or AD"


def test_an_alexander_black_foundation_built_up() -> None:
    obj = start(ALEXANDER)
    fan = next(f for f in obj["piles"]["fan"] if "QC" in f)
    fan.remove("QC")
    obj["piles"]["foundation"][2] = ["KC", "QC"]
    assert deal_from_dict(obj).group("foundation")[2] == cards("KC QC")
    obj["piles"]["foundation"][2] = ["KC"]
    fan = next(f for f in obj["piles"]["fan"] if "2H" in f)
    fan.remove("2H")
    obj["piles"]["fan"][0].append("QC")
    obj["piles"]["foundation"][2] = ["KC"]
    obj["piles"]["foundation"][0] = ["AH", "2H"]
    assert deal_from_dict(obj).group("foundation")[0] == cards("AH 2H")
    obj["piles"]["foundation"][0] = ["AH"]
    obj["piles"]["foundation"][3] = ["KS", "2H"]
    with pytest.raises(InvalidDealError, match="foundation/3 is not built in order: 2H on KS"):
        deal_from_dict(obj)


def _acey(change: Any) -> dict[str, Any]:
    obj = copy.deepcopy(start(ACEY, 3))
    change(obj["piles"])
    return obj


def _empty_tableau(piles: Any) -> None:
    piles["waste"][0].append(piles["tableau"][2].pop())


def _two_on_tableau(piles: Any) -> None:
    piles["tableau"][1].append(piles["stock"][0].pop(0))


def _reserve_of_14(piles: Any) -> None:
    piles["reserve"][0].append(piles["stock"][0].pop(0))


def _stock_of_67(piles: Any) -> None:
    piles["stock"][0].append(piles["reserve"][0].pop(0))


KINGS_FIRST: Final = {0: 2, 1: 3, 2: 0, 3: 1}
"""Alexander the Great's foundations as another tool may number them, king piles first: cardtable's number, the file's."""


def kings_first(obj: dict[str, Any]) -> dict[str, Any]:
    """A record of Alexander the Great with its king piles numbered first, in the deal and in every move."""
    obj = copy.deepcopy(obj)
    deal_obj = obj["deal"] if isinstance(obj.get("deal"), dict) else obj
    if "piles" in deal_obj:
        found = deal_obj["piles"]["foundation"]
        deal_obj["piles"]["foundation"] = [found[2], found[3], found[0], found[1]]
    for key in ("moves", "undone"):
        for move in obj.get(key, []):
            for end in ("from", "to"):
                group, _, index = move.get(end, "").partition("/")
                if group == "foundation":
                    move[end] = f"foundation/{KINGS_FIRST[int(index)]}"
    return obj


def test_alexander_s_king_piles_may_come_first_and_keep_their_numbers() -> None:
    """formats.md: a foundation's first card gives its direction; only Acey and Kingsley fixes their order."""
    state = deal(load_game(ALEXANDER), 1)
    given = kings_first(deal_to_dict(state))
    read = deal_from_dict(given)
    assert deal_to_dict(read) == given, "written back as given"
    assert [move_to_dict(m) for m in read.legal_moves] == [
        kings_first({"moves": [move_to_dict(m)]})["moves"][0] for m in state.legal_moves
    ], "the moves name the file's piles"
    result = solve(state, limit=Limit(states=100_000))
    assert result.status == "won"
    ours = Solution(state, "won", result.moves).to_dict()
    record = kings_first(ours)
    assert any(move.get("to") == "foundation/2" for move in record["moves"]), "a move the numbering changes"
    assert replay(read_solution(json.dumps(record))).problem is None
    assert solve(read, limit=Limit(states=100_000)).status == "won"
    saved = kings_first(
        {"deal": deal_to_dict(state), "moves": ours["moves"][:5], "undone": ours["moves"][5:9]}
    )
    game = read_saved_game(json.dumps(saved))
    assert [move_to_dict(m) for m in game.moves + game.undone] == saved["moves"] + saved["undone"]
    assert game.replayed().move_stack == game.moves


def _king_pile_from_an_ace(piles: Any) -> None:
    piles["foundation"][4], piles["foundation"][0] = piles["foundation"][0], piles["foundation"][4]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_empty_tableau, "tableau/2 is empty while the stock has cards; the stock refills it at once"),
        (_two_on_tableau, "tableau/1 has 2 cards, but tableau piles never grow past 1"),
        (_reserve_of_14, "reserve/0 has 14 cards, but reserve piles never grow past 13"),
        (_stock_of_67, "stock/0 has 67 cards, but stock piles never grow past 66"),
        (_king_pile_from_an_ace, "foundation/0 starts with KC; it must start with an ace"),
    ],
)
def test_impossible_acey_positions(change: Any, message: str) -> None:
    with pytest.raises(InvalidDealError) as caught:
        deal_from_dict(_acey(change))
    assert str(caught.value) == message


def test_an_acey_foundation_not_built_in_order() -> None:
    obj = copy.deepcopy(start(ACEY, 3))
    piles = obj["piles"]
    for pile in piles["reserve"] + piles["tableau"] + piles["stock"]:
        if "3C" in pile:
            pile.remove("3C")
            break
    piles["waste"][0].append(piles["stock"][0].pop(0))  # keep the refill rule out of the way
    piles["foundation"][0].append("3C")
    with pytest.raises(InvalidDealError) as caught:
        deal_from_dict(obj)
    assert str(caught.value) == "foundation/0 is not built in order: 3C on AC"


def test_an_acey_position_with_empty_foundations_and_tableau_is_fine_once_the_stock_is_empty() -> None:
    # ace pile 0 gave all its cards back; they lie on the waste
    obj = deal_to_dict(acey_position(up=(0, 13, 13, 13), rest="waste"))
    state = deal_from_dict(obj)
    assert state.group("foundation")[0] == []
    assert state.group("tableau") == [[], [], [], []]


def test_acey_stock_and_waste_never_hold_more_than_the_stock_was_dealt() -> None:
    obj = copy.deepcopy(start(ACEY, 3))
    piles = obj["piles"]
    piles["waste"][0] = piles["stock"][0] + piles["tableau"][3]
    piles["stock"][0] = []
    piles["tableau"][3] = []
    with pytest.raises(InvalidDealError, match="the stock and the waste hold 67 cards"):
        deal_from_dict(obj)


# -- moves ---------------------------------------------------------------------------

MOVES = [
    Move.from_text("fan/3 foundation/0 7C"),
    Move.from_text("waste/0 tableau/2 TD"),
    Move.from_text("foundation/7 foundation/1 KS"),
    Move.deal(),
    Move.redeal(),
    Move.redeal((tuple(cards("5C JD 2H")), tuple(cards("AS")))),
]


@pytest.mark.parametrize("move", MOVES, ids=[m.text() for m in MOVES])
def test_move_round_trip(move: Move) -> None:
    assert move_from_dict(move_to_dict(move)) == move
    assert move_from_dict(json.loads(move_to_json(move))) == move


def test_move_shapes() -> None:
    assert move_to_dict(Move.from_text("fan/3 foundation/0 7C")) == {
        "from": "fan/3",
        "to": "foundation/0",
        "card": "7C",
    }
    assert move_to_dict(Move.deal()) == {"deal": "stock"}
    assert move_to_json(Move.redeal()) == '{"redeal": null}'
    assert move_to_dict(Move.redeal((tuple(cards("5C JD 2H")), tuple(cards("AS"))))) == {
        "redeal": [["5C", "JD", "2H"], ["AS"]]
    }


def test_move_readers_are_lenient_and_ignore_unknown_fields() -> None:
    move = move_from_dict({"from": "fan/3", "to": "foundation/0", "card": "10c", "why": "home", "n": 3})
    assert move == Move.from_text("fan/3 foundation/0 TC")
    assert move_from_dict({"deal": "stock", "comment": "x"}) == Move.deal()
    assert move_from_dict({"redeal": None, "time": 1}) == Move.redeal()
    assert move_from_dict({"redeal": [["5c", "jd", "2h"]]}) == Move.redeal((tuple(cards("5C JD 2H")),))


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ("fan/3 foundation/0 7C", "a move must be a json object"),
        ([1, 2], "a move must be a json object"),
        ({"from": "fan/3", "card": "7C"}, "lacks 'to'"),
        ({"to": "fan/3", "card": "7C"}, "lacks 'from'"),
        ({"from": "fan/3", "to": "foundation/0"}, "lacks 'card'"),
        ({"from": 3, "to": "foundation/0", "card": "7C"}, "must be strings"),
        ({"from": "fan/3", "to": "foundation/0", "card": 7}, "must be strings"),
        ({"from": "fan3", "to": "foundation/0", "card": "7C"}, "not a pile: 'fan3'"),
        ({"from": "fan/³", "to": "foundation/0", "card": "7C"}, "not a pile: 'fan/³'"),
        ({"from": "fan/3", "to": "foundation/x", "card": "7C"}, "not a pile: 'foundation/x'"),
        ({"from": "fan/3", "to": "foundation/0", "card": "7X"}, "not a card: '7X'"),
        ({"deal": "waste"}, 'a deal move is {"deal": "stock"}'),
        ({"deal": None}, 'a deal move is {"deal": "stock"}'),
        ({"redeal": "5C JD"}, "a redeal's fans must be a list of lists of cards"),
        ({"redeal": ["5C"]}, "a redeal's fans must be a list of lists of cards"),
        ({"redeal": [["5C", "XX"]]}, "redeal: not a card: 'XX'"),
        ({}, "lacks 'from'"),
    ],
)
def test_bad_moves(obj: Any, message: str) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        move_from_dict(obj)
    assert message in str(caught.value)


def test_the_card_of_a_move_is_checked_against_the_position() -> None:
    state = deal(load_game(ALEXANDER), 1)
    wrong = move_from_dict({"from": "fan/0", "to": "fan/1", "card": "AS"})
    assert state.why_illegal(wrong) == "the top of fan/0 is K♥, not A♠"


# -- solutions --------------------------------------------------------------------------


def _solution(game: str = LUCIE, number: int = 2) -> Solution:
    return read_solution((DATA / "solutions" / f"{game}-{number}.json").read_text())


def test_solution_round_trip() -> None:
    solution = _solution()
    text = json.dumps(solution.to_dict())
    again = read_solution(text)
    assert again == solution
    assert again.to_dict() == solution.to_dict()


def test_solution_shape() -> None:
    obj = _solution().to_dict()
    assert set(obj) == {"game", "deal", "result", "moves", "stats"}
    assert obj["game"] == LUCIE
    assert obj["deal"]["game"] == LUCIE and obj["deal"]["deal"] == 2
    assert obj["result"] == "won"
    assert {"redeal"} in [set(m) for m in obj["moves"]]


@pytest.mark.parametrize("result", ["won", "unwinnable", "unknown"])
def test_solution_results(result: str) -> None:
    state = deal(load_game(FAN), 5)
    obj = Solution(state, result, [], {"seconds": 0.5, "states": 10}).to_dict()
    back = read_solution(json.dumps(obj))
    assert back.result == result and back.moves == [] and back.stats == {"seconds": 0.5, "states": 10}
    assert back.deal == state


def test_solution_defaults_and_unknown_fields() -> None:
    obj = _solution().to_dict()
    del obj["stats"]
    obj["solver"] = "someone else's"
    assert read_solution(json.dumps(obj)).stats == {}
    obj["stats"] = "fast"
    assert read_solution(json.dumps(obj)).stats == {}
    del obj["moves"]
    obj["result"] = "unwinnable"  # a won one must list its moves
    assert read_solution(json.dumps(obj)).moves == []


def test_a_solution_with_null_redeals_replays_the_same() -> None:
    solution = _solution()
    solution.moves = [Move.redeal() if m.kind == "redeal" else m for m in solution.moves]
    text = json.dumps(solution.to_dict())
    assert '{"redeal": null}' in text
    result = replay(read_solution(text))
    assert result.problem is None and result.final.is_won()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "malformed solution json at line 1 column 2"),
        ("[]", "a solution must be a json object, not []"),
        ('{"result": "won", "moves": []}', "it has no 'deal': a solution holds its deal whole"),
        (
            '{"deal": null, "result": "won"}',
            "its 'deal' must be a deal object (with 'game' and 'piles'), not null",
        ),
        ('{"deal": 7, "result": "won"}', "its 'deal' must be a deal object (with 'game' and 'piles'), not 7"),
        ('{"game": "fan", "deal": 7, "piles": {}}', "this looks like a deal, not a solution"),
        ('{"deal": {"game": "fan"}, "moves": [], "undone": []}', "this is a saved game, not a solution"),
        ('{"deal": {"game": "fan"}, "result": "won"}', "its deal: missing key 'piles'"),
    ],
)
def test_malformed_solutions(text: str, message: str) -> None:
    with pytest.raises(InvalidSolutionError) as caught:
        read_solution(text)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda o: o.update(result="lost"), "'result' must be one of won, unwinnable, unknown, not \"lost\""),
        (lambda o: o.pop("result"), "it has no 'result': give one of won, unwinnable, unknown"),
        (lambda o: o.pop("moves"), "it has no 'moves': a won solution lists the moves that win"),
        (
            lambda o: (o.clear(), o.update(game=LUCIE, deal=4)),
            "this looks like a deal without its 'piles', not a solution",
        ),
        (
            lambda o: o.update(game="nosuch"),
            "'game' is \"nosuch\", no game cardtable knows (its deal is of alexander-the-great-lucie)",
        ),
        (
            lambda o: o.update(game="alexander-the-great"),
            "'game' is \"alexander-the-great\" but its deal is of alexander-the-great-lucie",
        ),
        (lambda o: o.update(moves={"deal": "stock"}), "'moves' must be a list of moves"),
        (lambda o: o["moves"].append({"from": "fan/1"}), "lacks 'to'"),
        (lambda o: o["deal"]["piles"]["fan"].pop(), "its deal: 'fan' has 17 piles"),
    ],
)
def test_bad_solutions(change: Any, message: str) -> None:
    obj = _solution().to_dict()
    change(obj)
    with pytest.raises(InvalidSolutionError) as caught:
        read_solution(json.dumps(obj))
    assert message in str(caught.value)


# -- reading a text a piece at a time ------------------------------------------------

THREE_SOLUTIONS: Final = "\n".join(
    [
        json.dumps(_solution().to_dict()),
        json.dumps(_solution(FAN, 3).to_dict(), indent=2),  # one over many lines
        "  " + json.dumps({**_solution(FAN, 3).to_dict(), "result": "unknown"}) + "   ",
    ]
)


def _pieces(text: str, cuts: list[int]) -> list[str]:
    """``text`` cut at each of ``cuts``."""
    edges = [0, *sorted(cuts), len(text)]
    return [text[a:b] for a, b in itertools.pairwise(edges)]


@given(st.lists(st.integers(0, len(THREE_SOLUTIONS)), max_size=40))
def test_a_text_cut_anywhere_reads_as_the_whole(cuts: list[int]) -> None:
    whole = list(json_values([THREE_SOLUTIONS], "solution", InvalidSolutionError))
    assert [line for _, line in whole] == [1, 2, THREE_SOLUTIONS.count("\n") + 1]
    pieces = _pieces(THREE_SOLUTIONS, cuts)
    assert list(json_values(pieces, "solution", InvalidSolutionError)) == whole
    assert list(solutions_in(pieces)) == read_solutions(THREE_SOLUTIONS)


def test_a_text_a_character_at_a_time_reads_as_the_whole() -> None:
    assert list(solutions_in(iter(THREE_SOLUTIONS))) == read_solutions(THREE_SOLUTIONS)


@pytest.mark.parametrize("seed", range(5))
def test_a_mistake_is_found_at_its_line_however_the_text_is_cut(seed: int) -> None:
    text = THREE_SOLUTIONS.replace('"result": "unknown"', '"result": unknown')
    line = text.count("\n") + 1
    rng = random.Random(seed)
    pieces = _pieces(text, [rng.randrange(len(text)) for _ in range(20)])
    with pytest.raises(InvalidSolutionError, match=f"malformed solution json at line {line} column "):
        list(solutions_in(pieces))


@pytest.mark.parametrize("cuts", [[], [10], [40, 41, 300]])
def test_a_record_cut_short_is_told_with_the_line_it_begins_on(cuts: list[int]) -> None:
    first, second = THREE_SOLUTIONS.splitlines()[:2]
    text = f'{first}\n{{"game": "fan", \n{second}\n'  # line 2 cut short, runs into line 3
    with pytest.raises(InvalidSolutionError) as caught:
        list(solutions_in(_pieces(text, cuts)))
    assert str(caught.value).startswith("malformed solution json at line 3 column 1: ")
    assert str(caught.value).endswith(" (in the solution that begins at line 2)")


@pytest.mark.parametrize("cut", [0, 30, 2000])
def test_a_number_too_long_to_read_is_malformed_json(cut: int) -> None:
    text = '{"game": "fan", "deal": ' + "1" * 5000 + ', "result": "won", "moves": []}'
    problem = "malformed solution json: exceeds the limit (4300 digits) for integer string conversion"
    with pytest.raises(InvalidSolutionError, match=re.escape(problem)):
        list(solutions_in(_pieces(text, [cut])))
    with pytest.raises(InvalidDealError, match=re.escape(problem.replace("solution", "deal"))):
        read_deal(text)


def test_what_cannot_begin_a_value_is_refused_without_reading_on() -> None:
    def zeros() -> Iterator[str]:  # like /dev/zero: never ends
        while True:
            yield "\0" * 1000

    with pytest.raises(
        InvalidSolutionError, match="malformed solution json at line 1 column 1: expecting value"
    ):
        next(solutions_in(zeros()))


def test_a_value_longer_than_any_can_be_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(formats, "MAX_VALUE", 1000)

    def endless() -> Iterator[str]:
        yield '{"moves": ['
        while True:
            yield '{"deal": "stock"},\n'

    with pytest.raises(InvalidSolutionError, match="a solution at line 1 runs past"):
        next(solutions_in(endless()))


def test_a_lone_solution_is_named_as_one_and_several_by_number() -> None:
    bad = THREE_SOLUTIONS.replace('"result": "unknown"', '"result": "maybe"')
    with pytest.raises(InvalidSolutionError, match=r"^solution 3 \(line \d+\): 'result' must be"):
        list(solutions_in([bad]))
    lone = bad.rpartition("\n")[2]
    with pytest.raises(InvalidSolutionError, match=r"^'result' must be"):
        list(solutions_in([lone]))


def test_replay_reports_the_first_illegal_move() -> None:
    solution = _solution()
    solution.moves.insert(3, card_move("fan/0", "fan/1", "AS"))
    result = replay(solution)
    assert result.legal_moves == 3
    assert result.problem is not None
    assert result.problem.startswith('move 4 ({"from": "fan/0", "to": "fan/1", "card": "AS"}) is illegal: ')


def test_replay_of_a_won_solution_that_stops_short() -> None:
    solution = _solution()
    solution.moves = solution.moves[:-3]
    result = replay(solution)
    assert result.problem == "the moves end without a win (3 cards off the foundations)"
    assert result.legal_moves == len(solution.moves)


def test_replay_does_not_touch_the_deal() -> None:
    solution = _solution()
    before = solution.deal.copy()
    replay(solution)
    assert solution.deal == before


def test_replay_of_an_unknown_result_needs_no_win() -> None:
    solution = _solution()
    solution.result = "unknown"
    solution.moves = solution.moves[:10]
    result = replay(solution)
    assert result.problem is None and not result.final.is_won()


@pytest.mark.parametrize("verdict", ["unwinnable", "unknown"])
def test_replay_of_a_verdict_that_the_moves_disprove(verdict: str) -> None:
    solution = _solution()
    solution.result = verdict
    result = replay(solution)
    assert result.problem == f"the moves win, so the result is 'won', not {verdict!r}"
    assert result.legal_moves == len(solution.moves) and result.final.is_won()


def test_a_saved_game_whose_moves_win_replays() -> None:
    solution = _solution()
    saved = read_saved_game(json.dumps(SavedGame(solution.deal, solution.moves).to_dict()))
    assert saved.replayed().is_won()
    redo = read_saved_game(
        json.dumps(SavedGame(solution.deal, solution.moves[:5], solution.moves[5:]).to_dict())
    )
    assert len(redo.replayed().move_stack) == 5


@pytest.mark.parametrize(
    ("obj", "kind"),
    [
        ({"game": "fan", "deal": 3, "piles": {}}, "deal"),
        ({"game": "fan", "piles": {}, "moves": []}, "deal"),  # a deal with a field of its own
        ({"game": "fan", "deal": {}, "result": "won", "moves": []}, "solution"),
        ({"game": "fan", "deal": {}, "moves": [], "undone": []}, "saved game"),
        ({"game": "fan", "deal": 3, "moves": []}, "saved game"),
        ({"game": "fan"}, None),
        ([], None),
    ],
)
def test_the_kind_of_a_record_is_told_by_its_keys(obj: Any, kind: str | None) -> None:
    assert record_kind(obj) == kind


def test_a_deal_reader_given_a_solution_or_a_save_says_so() -> None:
    obj = _solution().to_dict()
    with pytest.raises(InvalidDealError, match=r"^this is a solution, not a deal: "):
        deal_from_dict(obj)
    del obj["result"]
    with pytest.raises(InvalidDealError, match=r"^this is a saved game, not a deal: "):
        deal_from_dict(obj)


def test_a_malformed_move_of_a_solution_is_told_by_its_number() -> None:
    start = deal_to_dict(deal(load_game(FAN), 3))
    moves = [
        {"from": "fan/6", "to": "foundation/3", "card": "AC"},
        {"from": "fan/3", "to": "fan/0", "card": "ZZ"},
    ]
    with pytest.raises(
        InvalidSolutionError, match=r'^move 2 \{"from": "fan/3", "to": "fan/0", "card": "ZZ"\}: not a card'
    ):
        read_solution(json.dumps({"game": FAN, "deal": start, "result": "won", "moves": moves}))
    with pytest.raises(InvalidSolutionError, match=r"^move 1: a move must be a json object, not 7$"):
        read_solution(json.dumps({"game": FAN, "deal": start, "result": "won", "moves": [7]}))


def test_a_move_that_is_two_kinds_at_once_is_refused() -> None:
    both = {"from": "fan/6", "to": "foundation/3", "card": "AC", "deal": "stock"}
    with pytest.raises(InvalidMoveError, match="it must be a card move, a deal or a redeal, not two of them"):
        move_from_dict(both)
    # a writer with one record for every kind of move leaves the others' keys null: not two kinds
    assert move_from_dict({"deal": "stock", "from": None, "to": None, "card": None}) == Move.deal()
    with pytest.raises(InvalidMoveError, match="'from', 'to' and 'card' must be strings"):
        move_from_dict({"from": "fan/6", "to": "foundation/3", "card": None})


def test_a_string_left_open_is_told_where_it_starts() -> None:
    with pytest.raises(
        InvalidDealError,
        match=r"^malformed deal json at line 1 column 10: unterminated string starting there$",
    ):
        read_deal('{"game": "fan')


def test_messages_quote_an_excerpt_never_a_whole_object() -> None:
    assert (
        excerpt("fan") == '"fan"' and excerpt(list(range(100))) == json.dumps(list(range(100)))[:37] + "..."
    )
    assert excerpt({"deal": True, "card": "7♠"}) == '{"deal": true, "card": "7♠"}'  # as JSON, not as Python
    lone = excerpt({"to": "\ud800/0"})  # JSON lets a lone surrogate in; no UTF-8 output could write it
    assert lone == '{"to": "\\ud800/0"}' and lone.encode("utf-8")
    obj = start(FAN)
    obj["deal"] = obj["piles"]
    with pytest.raises(InvalidDealError) as caught:
        deal_from_dict(obj)
    assert len(str(caught.value)) < 100 and str(caught.value).endswith("...")


def test_a_solutions_verdicts_are_the_solvers() -> None:
    assert RESULTS == STATUSES


def test_a_solution_made_in_python_with_a_verdict_formats_md_does_not_know_is_refused() -> None:
    with pytest.raises(
        InvalidSolutionError, match="'result' must be one of won, unwinnable, unknown, not \"maybe\""
    ):
        Solution(deal(load_game("fan"), 1), "maybe", [])
