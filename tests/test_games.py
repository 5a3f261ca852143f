"""The game registry (games/__init__.py): fixed ids, options in the id, specific errors."""

from __future__ import annotations

import inspect

import pytest

from cardtable import GAMES, UnknownGameError, games, load_game
from cardtable.core.spec import Kind
from cardtable.games import find_game, shown_name
from helpers import ACEY, ALEXANDER, FAN, GAME_IDS, LUCIE


def test_the_tests_know_every_registered_game() -> None:
    """A game added to the registry fails here, by name, until the tests know it.

    The oracle in ``tests/helpers.py`` is a second reading of each game's rules,
    written by hand, and ``tests/make_data.py`` makes the golden deals and perft
    lines from it; a game it does not know would slip past every test that
    takes its games from ``GAME_IDS``.
    """
    unknown = [game for game in GAMES if game not in GAME_IDS]
    assert not unknown, (
        f"add {unknown} to GAME_IDS and the oracle in tests/helpers.py, then run tests/make_data.py"
    )


def test_the_fixed_ids() -> None:
    assert set(GAME_IDS) <= set(GAMES)
    for game in GAME_IDS:
        spec = load_game(game)
        assert spec.id == game == spec.base_id
        assert spec.rules and spec.name and spec.summary


@pytest.mark.parametrize(
    ("game", "decks", "groups"),
    [
        (ALEXANDER, 1, [("foundation", 4), ("fan", 12)]),
        (LUCIE, 1, [("foundation", 4), ("fan", 18)]),
        (ACEY, 2, [("foundation", 8), ("reserve", 2), ("tableau", 4), ("stock", 1), ("waste", 1)]),
        (FAN, 1, [("foundation", 4), ("fan", 18)]),
    ],
)
def test_specs_have_the_groups_of_formats_md(game: str, decks: int, groups: list[tuple[str, int]]) -> None:
    spec = load_game(game)
    assert spec.decks == decks
    assert spec.deck_size == 52 * decks
    assert [(g.name, g.count) for g in spec.groups] == groups
    assert spec.group("foundation").kind is Kind.FOUNDATION
    assert spec.has_group("foundation") and not spec.has_group("cellar")
    with pytest.raises(KeyError):
        spec.group("cellar")


def test_redeal_counts() -> None:
    assert [load_game(g).redeals for g in GAME_IDS] == [0, 2, 0, 0]
    assert not any(load_game(g).redeal_anytime for g in GAME_IDS)


@pytest.mark.parametrize(
    ("text", "canonical", "redeals", "anytime"),
    [
        (f"{LUCIE}(redeals=0)", f"{LUCIE}(redeals=0)", 0, False),
        (f"{LUCIE}( redeals = 1 )", f"{LUCIE}(redeals=1)", 1, False),
        (f"{LUCIE}(redeals=2)", LUCIE, 2, False),
        (f"{LUCIE}()", LUCIE, 2, False),
        (f"{LUCIE}(redeal_anytime=true)", f"{LUCIE}(redeal_anytime=true)", 2, True),
        (f"{LUCIE}(redeal_anytime=yes)", f"{LUCIE}(redeal_anytime=true)", 2, True),
        (f"{LUCIE}(redeal_anytime=false)", LUCIE, 2, False),
        (
            f"{LUCIE}(redeal_anytime=true,redeals=0)",
            f"{LUCIE}(redeals=0,redeal_anytime=true)",
            0,
            True,
        ),
    ],
)
def test_options(text: str, canonical: str, redeals: int, anytime: bool) -> None:
    spec = load_game(text)
    assert spec.id == canonical
    assert spec.base_id == LUCIE
    assert (spec.redeals, spec.redeal_anytime) == (redeals, anytime)
    assert load_game(spec.id) == spec


def test_a_name_tells_the_options_apart() -> None:
    assert load_game(f"{LUCIE}(redeal_anytime=true,redeals=0)").name == (
        "Alexander the Great (La Belle Lucie form), redeals=0, redeal_anytime=true"
    )
    assert load_game(f"{LUCIE}(redeals=2)").name == "Alexander the Great (La Belle Lucie form)"


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        ("redeal_anytime=true,redeals=0", "no redeals, redeal at any time"),
        ("redeals=1", "1 redeal"),
        ("redeals=5", "5 redeals"),
    ],
)
def test_the_browser_s_name_says_the_options_in_words(options: str, shown: str) -> None:
    assert (
        shown_name(load_game(f"{LUCIE}({options})")) == f"Alexander the Great (La Belle Lucie form), {shown}"
    )
    assert shown_name(load_game(LUCIE)) == "Alexander the Great (La Belle Lucie form)"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("klondike", "unknown game: 'klondike'"),
        ("", "not a game id: ''"),
        ("Alexander The Great", "not a game id"),
        (f"{ALEXANDER}(redeals=1)", "has no option 'redeals'"),
        (f"{LUCIE}(shuffles=1)", "has no option 'shuffles'"),
        (f"{LUCIE}(redeals)", "needs a value"),
        (f"{LUCIE}(redeals=)", "needs a value"),
        (f"{LUCIE}(redeals=-1)", "whole number"),
        (f"{LUCIE}(redeals=two)", "whole number"),
        (f"{LUCIE}(redeals=0101)", "whole number 0-100, not '0101'"),
        (
            f"{LUCIE}(redeals={'9' * 5000})",
            "whole number 0-100, not '999",
        ),  # int() takes 4,300 digits at most
        (f"{LUCIE}(redeals=\u0663)", "whole number"),  # an Arabic-Indic three: a digit to Python, not to us
        (f"{LUCIE}(redeal_anytime=maybe)", "true or false"),
        (f"{FAN}(redeals=1)", "options: none"),
        (f"{LUCIE}(redeals=1,redeals=2)", "option 'redeals' of alexander-the-great-lucie is given twice"),
        (f"{LUCIE}(redeals=0, redeal_anytime=true, redeals = 0)", "option 'redeals' "),
        (
            f"{LUCIE}(=0)",
            "alexander-the-great-lucie: '=0' names no option",
        ),
        (f"{LUCIE}(redeals=0,)", "alexander-the-great-lucie: an empty option (a comma too many"),
        (f"{LUCIE}(redeals=0", "its options need a closing parenthesis"),
    ],
)
def test_bad_ids(text: str, fragment: str) -> None:
    with pytest.raises(UnknownGameError, match=fragment.replace("(", r"\(")):
        load_game(text)


def test_bad_id_types() -> None:
    with pytest.raises(UnknownGameError):
        load_game(None)  # type: ignore[arg-type]


def test_find_game_answers_none_for_what_is_no_game() -> None:
    spec = find_game("alexander-the-great-lucie(redeals=0)")
    assert spec is not None and spec.redeals == 0
    assert find_game("klondike") is None
    assert find_game("deal.json") is None


def test_the_registry_exports_every_function_it_defines() -> None:
    """``from cardtable.games import *`` and the documentation tools go by ``__all__``: it left out find_game."""
    defined = {
        name
        for name, value in vars(games).items()
        if inspect.isfunction(value) and value.__module__ == games.__name__ and not name.startswith("_")
    }
    assert defined <= set(games.__all__)
