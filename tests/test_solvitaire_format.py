"""Solvitaire's deal and rules files (cardtable.interop.solvitaire), without Solvitaire itself.

The facts about Solvitaire's formats used here were read from its source and are
restated independently: card names (the ten is ``10``), piles bottom first, a
flat foundations list, and what each rules field means. The move test reads our
rules file the way Solvitaire's move generator does and checks that it allows
exactly the moves our engine allows, so a wrong field would show up as a
different verdict later, not only as a different string.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import given

from cardtable import CardtableError, State, deal, load_game
from cardtable.cli.main import main
from cardtable.core.spec import Kind
from cardtable.formats import deal_to_dict
from cardtable.interop.solvitaire import (
    SolvitaireOutputError,
    UnsupportedBySolvitaireError,
    deal_dict,
    read_classify_line,
    rules_dict,
    solvitaire_card,
    verdict,
)
from helpers import FAST, card_of, positions, random_play, rank_of, suit_of

SUPPORTED = ("fan", "alexander-the-great-lucie(redeals=0)")
UNSUPPORTED = {
    "alexander-the-great": ("foundations build down from a king", "fans build up or down", "takes A or K"),
    "alexander-the-great-lucie": ("redeals",),
    "alexander-the-great-lucie(redeals=1)": ("redeals",),
    "acey-and-kingsley": ("2 decks", "regardless of suit", "reserve, stock, waste"),
}

# Solvitaire's own card pattern (its deal schema), and the keys its rules schema allows.
SOLVITAIRE_CARD = re.compile(r"^(([0-9]|1[0-3]|a|A|j|J|q|Q|k|K)(c|C|d|D|h|H|s|S))$")
RULES_SCHEMA_KEYS: dict[str, set[str]] = {
    "tableau piles": {
        "count",
        "build policy",
        "spaces policy",
        "diagonal deal",
        "move built group",
        "move built group policy",
        "face up cards",
    },
    "foundations": {"present", "initial cards", "base card", "removable", "only complete pile moves"},
    "hole": {"present", "base card", "build loops"},
    "cells": {"count", "pre-filled"},
    "stock": {"size", "deal type", "deal count", "redeal"},
    "reserve": {"size", "stacked"},
    "accordion": {"size", "moves", "build policies"},
    "sequences": {"count", "direction", "fixed suit", "build policy"},
    "max rank": set(),
    "two decks": set(),
}


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def read_card(text: str) -> int:
    """Solvitaire's card name back to ours, read independently of the module under test."""
    rank_text, suit_text = text[:-1], text[-1]
    rank = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank_text) or int(rank_text)
    return card_of(rank, "CDHS".index(suit_text))


# -- cards and deals ---------------------------------------------------------------


def test_every_card_has_solvitaires_name_with_10_for_the_ten() -> None:
    for card in range(52):
        name = solvitaire_card(card)
        assert SOLVITAIRE_CARD.match(name) and name == name.upper()
        assert read_card(name) == card
    assert solvitaire_card(card_of(10, 1)) == "10D"
    assert solvitaire_card(card_of(1, 3)) == "AS"


@pytest.mark.parametrize("game", SUPPORTED)
@pytest.mark.parametrize("number", [1, 42, 1000])
def test_a_deal_holds_exactly_its_fans_bottom_first(game: str, number: int) -> None:
    state = deal(load_game(game), number)
    written = deal_dict(state)
    assert set(written) == {"tableau piles", "foundations"}
    fans = [[read_card(name) for name in pile] for pile in written["tableau piles"]]
    assert fans == state.group("fan")  # same piles, same order, top card last
    assert [len(f) for f in fans] == [3] * 17 + [1]
    assert written["foundations"] == []
    assert sorted(card for fan in fans for card in fan) == list(range(52))


@pytest.mark.parametrize("game", SUPPORTED)
def test_a_game_in_progress_lists_each_foundation_bottom_first(game: str) -> None:
    state = deal(load_game(game), 3)
    random_play(state, seed=3, plies=40)
    written = deal_dict(state)
    on_foundations = [read_card(name) for name in written["foundations"]]
    assert on_foundations == [card for pile in state.group("foundation") for card in pile]
    assert state.on_foundations() > 0
    for suit in range(4):  # Solvitaire stacks each card on its suit's pile in the order listed
        ranks = [rank_of(c) for c in on_foundations if suit_of(c) == suit]
        assert ranks == list(range(1, len(ranks) + 1))
    fans = [[read_card(name) for name in pile] for pile in written["tableau piles"]]
    assert fans == state.group("fan")
    assert sorted(on_foundations + [c for fan in fans for c in fan]) == list(range(52))


# -- rules -------------------------------------------------------------------------


def test_fan_rules_say_what_rules_md_says() -> None:
    rules = rules_dict(load_game("fan"))
    tableau, foundations = rules["tableau piles"], rules["foundations"]
    assert tableau["count"] == 18
    assert tableau["build policy"] == "same-suit"  # the next lower card of the same suit
    assert tableau["spaces policy"] == "kings"  # an empty fan takes only a king
    assert tableau["move built group"] == "no"  # one card at a time
    assert tableau["face up cards"] == "all"
    assert foundations["present"] and foundations["initial cards"] == "none"
    assert foundations["base card"] == "A"  # up in suit from the ace
    assert foundations["removable"] is False  # nothing leaves a foundation (the preset says true)
    assert rules["stock"]["size"] == rules["reserve"]["size"] == rules["cells"]["count"] == 0
    assert rules["two decks"] is False and rules["max rank"] == 13


def test_lucie_without_redeals_differs_from_fan_only_in_its_empty_fans() -> None:
    fan, lucie = rules_dict(load_game("fan")), rules_dict(load_game("alexander-the-great-lucie(redeals=0)"))
    assert lucie["tableau piles"]["spaces policy"] == "no-build"  # an emptied fan stays empty
    lucie["tableau piles"]["spaces policy"] = "kings"
    assert lucie == fan


@pytest.mark.parametrize("game", SUPPORTED)
def test_rules_use_only_fields_solvitaires_schema_allows(game: str) -> None:
    rules = rules_dict(load_game(game))
    assert set(rules) <= set(RULES_SCHEMA_KEYS)
    for key, value in rules.items():
        if isinstance(value, dict):
            assert set(value) <= RULES_SCHEMA_KEYS[key], key
    assert sum([rules["hole"]["present"], rules["foundations"]["present"]]) == 1


def solvitaire_moves(rules: dict[str, Any], state: State) -> set[tuple[str, str]]:
    """The card moves Solvitaire's rules allow, read from our rules file, as (from, to) names.

    Its tableau builds down by the build policy, an empty pile takes what the
    spaces policy says, and each suit has one foundation that builds up from the
    base card; foundations give cards back only when removable.
    """
    tableau, founds = rules["tableau piles"], rules["foundations"]
    fans = state.group("fan")
    tops = {suit_of(c): rank_of(c) for pile in state.group("foundation") for c in pile[-1:]}

    def fits_fan(card: int, pile: list[int]) -> bool:
        if not pile:
            return {"any": True, "kings": rank_of(card) == 13, "no-build": False}[tableau["spaces policy"]]
        same = suit_of(card) == suit_of(pile[-1]) or tableau["build policy"] == "any-suit"
        return tableau["build policy"] != "no-build" and same and rank_of(card) + 1 == rank_of(pile[-1])

    moves = set()
    for i, pile in enumerate(fans):
        if pile and rank_of(pile[-1]) == tops.get(suit_of(pile[-1]), 0) + 1:
            moves.add((f"fan/{i}", "foundation"))
        moves |= {
            (f"fan/{i}", f"fan/{j}")
            for j, other in enumerate(fans)
            if pile and i != j and fits_fan(pile[-1], other)
        }
    if founds["removable"]:
        for suit, rank in tops.items():
            moves |= {
                ("foundation", f"fan/{j}")
                for j, other in enumerate(fans)
                if fits_fan(card_of(rank, suit), other)
            }
    return moves


def engine_moves(state: State) -> set[tuple[str, str]]:
    """Our engine's card moves, with foundations unnamed (Solvitaire's are one per suit)."""
    kinds = dict(zip(state.plan.ids, state.plan.kinds))

    def name(pid: Any) -> str:
        return "foundation" if kinds[pid] is Kind.FOUNDATION else str(pid)

    return {(name(m.source), name(m.target)) for m in state.legal_moves if m.source is not None}


@pytest.mark.parametrize("game", SUPPORTED)
def test_the_rules_file_allows_exactly_our_moves(game: str) -> None:
    rules = rules_dict(load_game(game))

    @given(positions(game))
    @FAST
    def check(state: State) -> None:
        assert solvitaire_moves(rules, state) == engine_moves(state)

    check()


# -- unsupported games ---------------------------------------------------------------


@pytest.mark.parametrize(("game", "words"), UNSUPPORTED.items())
def test_games_solvitaire_cannot_state_are_refused_with_every_reason(
    game: str, words: tuple[str, ...]
) -> None:
    spec = load_game(game)
    writers: list[Callable[[], dict[str, Any]]] = [lambda: rules_dict(spec), lambda: deal_dict(deal(spec, 1))]
    for write in writers:
        with pytest.raises(UnsupportedBySolvitaireError) as caught:
            write()
        assert isinstance(caught.value, CardtableError)
        message = str(caught.value)
        assert message.startswith(f"solvitaire cannot play {spec.id}: ") and "\n" not in message
        for word in words:
            assert word in message


@pytest.mark.parametrize("game", UNSUPPORTED)
@pytest.mark.parametrize("fmt", ["solvitaire", "solvitaire-rules"])
def test_the_cli_refuses_unsupported_games_in_one_line(game: str, fmt: str) -> None:
    result = run("deal", game, "1", "--format", fmt)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardtable: solvitaire cannot play")


# -- the command line ----------------------------------------------------------------


@pytest.mark.parametrize("game", SUPPORTED)
def test_deal_format_solvitaire_writes_the_deal_and_the_rules(game: str) -> None:
    state = deal(load_game(game), 7)
    result = run("deal", game, "7", "--format", "solvitaire")
    assert result.exit_code == 0 and json.loads(result.stdout) == deal_dict(state)
    result = run("deal", game, "7", "--format", "solvitaire-rules")
    assert result.exit_code == 0 and json.loads(result.stdout) == rules_dict(state.spec)


def test_format_cardtable_is_json() -> None:
    result = run("deal", "alexander-the-great", "7", "--format", "cardtable")
    assert result.exit_code == 0 and result.stdout == run("deal", "alexander-the-great", "7", "--json").stdout
    assert json.loads(result.stdout) == deal_to_dict(deal(load_game("alexander-the-great"), 7))


def test_json_with_another_format_fails_in_one_line() -> None:
    result = run("deal", "fan", "7", "--json", "--format", "solvitaire")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "cardtable: --json means --format cardtable: it cannot go with --format solvitaire"
    ]


# -- reading Solvitaire's answers ------------------------------------------------------


def test_solvitaire_outcomes_map_to_our_verdicts() -> None:
    assert verdict("solved") == "won"
    assert verdict("unsolvable") == "unwinnable"
    for outcome in ("timed-out", "memory-limit-reached", "terminated", "something new"):
        assert verdict(outcome) == "unknown"


def test_classify_lines_give_the_verdict_and_solvitaires_milliseconds() -> None:
    assert read_classify_line(", solved, 74, 57012, 42603, 56938, 35931, 0, 6672, 12289, 74, 74, solved") == (
        "won",
        74,
    )
    assert read_classify_line(
        ", unsolvable, 21, 11218, 4377, 11217, 1617, 0, 2760, 3079, 21, 0, unsolvable\n"
    ) == (
        "unwinnable",
        21,
    )
    assert read_classify_line(", timed-out, 60000, 1, 1, 0, 0, 0, 1, 1, 1, 1, timed-out")[0] == "unknown"
    with pytest.raises(SolvitaireOutputError, match="not a solvitaire --classify line"):
        read_classify_line("[error] Error parsing deal file: ...")
