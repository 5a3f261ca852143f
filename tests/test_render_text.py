"""The text layout and the prose around it, fitted to a terminal's width."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cardtable import deal, load_game
from cardtable.cli.session import Session
from cardtable.core.cards import card_symbol
from cardtable.core.move import Move
from cardtable.render.text import CODE, fitting_width, layout, wrap
from helpers import ACEY, FAN, LUCIE, acey_position, fan_position

HELP_WIDTHS = [80, 60, 40]


def fits(text: str, width: int) -> bool:
    return all(len(line) <= width for line in text.splitlines())


@pytest.mark.parametrize("width", HELP_WIDTHS)
def test_prose_wraps_between_words_to_the_width(width: int) -> None:
    help_text = Session(deal(load_game("alexander-the-great-lucie"), 5)).help()
    assert not fits(help_text, 80), "the help has lines wider than a terminal, or this test shows nothing"
    wrapped = wrap(help_text, width)
    assert fits(wrapped, width)
    assert wrapped.split() == help_text.split(), "no word is cut, lost or added"


def test_a_two_column_line_goes_on_under_its_second_column() -> None:
    line = "  7c       that card, if it is on top, the same way (ranks A 2-10 J Q K or T, suits c d h s)"
    first, second = wrap(line, 80).splitlines()
    assert first.endswith("(ranks A 2-10 J Q K or T,")
    assert second == " " * 11 + "suits c d h s)"


def test_a_hyphenated_code_and_a_long_path_are_never_broken() -> None:
    assert wrap("Piles: f0-f3 foundations, t0-t17 fans", 12).splitlines() == [
        "Piles: f0-f3",
        "foundations,",
        "t0-t17 fans",
    ]
    path = "/a/very/long/path/to/a/saved/game.json"
    assert f"{path};" in wrap(f"saved after 3 moves to {path}; resume with it", 20).splitlines()


def test_without_a_width_nothing_is_wrapped() -> None:
    text = "word " * 40
    assert wrap(text, None) == text


@pytest.mark.parametrize("width", [58, 40, 30])
def test_a_long_reserve_goes_on_under_its_first_card_and_never_splits_one(width: int) -> None:
    state = deal(load_game("acey-and-kingsley"), 13)
    assert any(card_symbol(card).startswith("10") for card in state.group("reserve")[0])
    lines = layout(state, width).plain.splitlines()
    assert fits("\n".join(lines), width)
    start = lines.index("Reserves") + 1
    end = lines.index("Tableau")
    rows = lines[start:end]
    assert rows[0].startswith("  r0   ") and all(
        row.startswith(" " * CODE) or row.startswith("  r1   ") for row in rows[1:]
    )
    first, second = ([card_symbol(card) for card in pile] for pile in state.group("reserve"))
    assert " ".join(rows).split() == ["r0", *first, "r1", *second]


@pytest.mark.parametrize("width", [80, 30])
def test_the_foundations_share_a_line_for_each_direction_and_go_on_under_their_first(width: int) -> None:
    state = deal(load_game("acey-and-kingsley"), 13)
    lines = layout(state, width).plain.splitlines()
    assert fits("\n".join(lines), width)
    rows = lines[lines.index("Foundations") + 1 : lines.index("Reserves")]
    up = rows.index(next(row for row in rows if row.startswith("  down from K")))
    assert rows[0].startswith("  up from A   ") and rows[0].split()[3:5] == ["f0", "A♣"]
    assert all(row.startswith(" " * len("  down from K  ")) for row in rows[1:up] + rows[up + 1 :])
    assert " ".join(rows[up:]).split()[3:] == ["f4", "K♣", "f5", "K♦", "f6", "K♥", "f7", "K♠"]
    assert len(rows) == (2 if width == 80 else 8)


def test_a_game_and_its_last_message_fit_a_terminal_of_24_lines() -> None:
    for game in ("alexander-the-great", "acey-and-kingsley"):
        assert len(layout(deal(load_game(game), 1), 80).plain.splitlines()) <= 22
    for game in ("fan", "alexander-the-great-lucie"):  # 18 fans: the title may go above the window
        assert len(layout(deal(load_game(game), 1), 80).plain.splitlines()) <= 23


def test_a_wide_layout_keeps_one_pile_a_line() -> None:
    state = deal(load_game("acey-and-kingsley"), 13)
    assert layout(state, 80).plain == layout(state).plain


def test_an_empty_stock_shows_the_dashes_of_an_empty_pile() -> None:
    state = deal(load_game("acey-and-kingsley"), 13)
    assert "  s    66 cards" in layout(state).plain.splitlines()
    while state.can_deal():
        state.push(Move.deal())
    assert "  s    --" in layout(state).plain.splitlines()


def test_only_a_terminal_is_fitted_to_its_width() -> None:
    pipe = Console(file=io.StringIO(), soft_wrap=True)
    terminal = Console(file=io.StringIO(), width=40, force_terminal=True, soft_wrap=False)
    assert fitting_width(pipe) is None and fitting_width(terminal) == 40


def test_an_empty_pile_that_takes_no_card_says_so_as_the_browser_draws_it_closed() -> None:
    """A La Belle Lucie fan emptied, or an emptied reserve, is dead; a Fan space takes a king, a tableau pile any card."""
    empty_lines = {
        game: {
            line.split()[0]: line.split(None, 1)[1]
            for line in layout(position).plain.splitlines()
            if "--" in line
        }
        for game, position in (
            (LUCIE, fan_position(LUCIE, ["TC KH", "JD QD QC", "QH KS JC KC KD"])),
            (FAN, fan_position(FAN, ["TC KH", "JD QD QC", "QH KS JC KC KD"])),
            (
                ACEY,
                acey_position(
                    up=(5, 13, 13, 13), down=(7, 13, 13, 13), tableau=["6S", "", "", ""], rest="waste"
                ),
            ),
        )
    }
    assert empty_lines[LUCIE]["t3"] == "--  takes no card" and len(empty_lines[LUCIE]) == 15
    assert empty_lines[FAN]["t3"] == "--"
    assert empty_lines[ACEY] == {
        "r0": "--  takes no card",
        "r1": "--  takes no card",
        "t1": "--",
        "t2": "--",
        "t3": "--",
        "s": "--",
    }
