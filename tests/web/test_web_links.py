"""Links, the move box's words and a drag after a refused one, in Chromium.

A link names a deal: a bad one is refused on the page, which then shows what a
plain visit shows; a good one resumes the deal in progress, or asks before the
game in progress is lost. Every test is a new player (a fresh browser context).
"""

from __future__ import annotations

import json
import re
from typing import Final

import pytest
from playwright.sync_api import Dialog, Page, Request, expect

from web.browsing import (
    autoplay_off,
    centre,
    drag,
    open_deal,
    opened_moves,
    play,
    slot,
    table_at,
    top_card,
    until,
)

ALEXANDER: Final = "alexander-the-great"
LEAVE: Final = "Leave this game for a new one? It will count as abandoned, a loss, in the statistics."
DEAL_RULE: Final = "is not a deal number: a deal number is a whole number from 1 to 2147483647"


def _in_progress(page: Page, number: int = 10) -> str:
    """Deal ``number`` of Alexander the Great opened by its link, autoplay off, one move made; the play's id."""
    autoplay_off(page)
    page.goto(f"/?game={ALEXANDER}&deal={number}")
    table_at(page, moves=0, game=ALEXANDER, deal=number)
    _type(page, "t5 f2")
    table_at(page, moves=1)
    return _play_id(page)


def _type(page: Page, text: str) -> None:
    """Type ``text`` in the move box and press Enter."""
    page.fill("#command", text)
    page.press("#command", "Enter")


def _play_id(page: Page) -> str:
    play_id: str = page.evaluate("window.cardtable.view.id")
    return play_id


def _status(page: Page, play_id: str) -> str:
    status: str = page.request.get(f"/api/plays/{play_id}").json()["status"]
    return status


class Confirms:
    """Answers the page's every confirm() with ``accept``, noting in ``asked`` what it asked."""

    def __init__(self, page: Page, *, accept: bool) -> None:
        self.accept = accept
        self.asked: list[str] = []
        page.on("dialog", self.answer)

    def answer(self, dialog: Dialog) -> None:
        self.asked.append(dialog.message)
        if self.accept:
            dialog.accept()
        else:
            dialog.dismiss()


# -- bad links -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("game=nope&deal=5", "unknown game: 'nope'"),
        (f"game={ALEXANDER}&deal=0", f"the link's deal '0' {DEAL_RULE}"),
        (f"game={ALEXANDER}&deal=-3", f"the link's deal '-3' {DEAL_RULE}"),
        (f"game={ALEXANDER}&deal=", f"the link's deal '' {DEAL_RULE}"),
        (f"game={ALEXANDER}&deal=1.5", f"the link's deal '1.5' {DEAL_RULE}"),
        ("deal=abc", f"the link's deal 'abc' {DEAL_RULE}"),
        (f"game={ALEXANDER}&deal=99999999999", f"the link's deal '99999999999' {DEAL_RULE}"),
        (
            "game=alexander-the-great-lucie(redeals=abc)&deal=5",
            "option 'redeals' of alexander-the-great-lucie takes a whole number 0-100, not 'abc'",
        ),
    ],
)
def test_a_bad_link_is_refused_and_the_game_in_progress_goes_on(page: Page, query: str, message: str) -> None:
    play_id = _in_progress(page)
    page.goto(f"/?{query}")
    expect(page.locator("#toast")).to_contain_text(message)
    table_at(page, moves=1, game=ALEXANDER, deal=10)
    assert _play_id(page) == play_id
    assert _status(page, play_id) == "playing"
    page.click("#undo")  # the buttons act on the game resumed
    table_at(page, moves=0)


def test_a_bad_link_of_a_new_player_starts_a_game_of_the_default(page: Page) -> None:
    autoplay_off(page)  # its deal as dealt: nothing to undo
    page.goto("/?deal=abc")
    expect(page.locator("#toast")).to_have_text(f"the link's deal 'abc' {DEAL_RULE}")
    table_at(page, moves=0, game=ALEXANDER)
    expect(page.locator("#undo")).to_be_disabled()


def test_with_no_table_the_actions_do_nothing(page: Page) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route(re.compile(r"/api/plays"), lambda route: route.abort())
    page.goto("/")
    expect(page.locator("#toast")).to_contain_text("the server cannot be reached")
    for button in ("#hint", "#verdict", "#show"):
        page.click(button)
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+y")
    for word in ("undo", "redo", "restart", "hint", "t0 f0"):
        _type(page, word)
    page.evaluate("() => new Promise((done) => setTimeout(done))")  # errors of the last action arrive
    assert not errors


# -- links to a deal and the game in progress ---------------------------------------


def test_a_link_to_the_deal_in_progress_resumes_it(page: Page) -> None:
    play_id = _in_progress(page)
    confirms = Confirms(page, accept=True)
    page.goto(f"/?game={ALEXANDER}&deal=10")
    table_at(page, moves=1, game=ALEXANDER, deal=10)
    assert _play_id(page) == play_id
    assert not confirms.asked


def test_a_link_to_another_deal_asks_before_the_game_in_progress_is_lost(page: Page) -> None:
    play_id = _in_progress(page)
    confirms = Confirms(page, accept=False)
    page.goto(f"/?game={ALEXANDER}&deal=11")
    table_at(page, moves=1, game=ALEXANDER, deal=10)
    assert confirms.asked == [LEAVE]
    assert _play_id(page) == play_id
    assert _status(page, play_id) == "playing"

    confirms.accept = True
    page.goto(f"/?game={ALEXANDER}&deal=11")
    table_at(page, moves=0, game=ALEXANDER, deal=11)
    assert _status(page, play_id) == "abandoned"


def test_a_game_whose_moves_were_all_taken_back_is_asked_about_too(page: Page) -> None:
    play_id = _in_progress(page)
    page.click("#undo")
    table_at(page, moves=0)
    confirms = Confirms(page, accept=False)
    page.goto(f"/?game={ALEXANDER}&deal=11")
    table_at(page, moves=0, game=ALEXANDER, deal=10)
    expect(page.locator("#redo")).to_be_enabled()
    assert confirms.asked == [LEAVE]
    page.click("#new")  # the page looks at the game again first, then asks
    until(page, lambda: len(confirms.asked) == 2)
    assert confirms.asked == [LEAVE, LEAVE]
    assert _play_id(page) == play_id
    assert _status(page, play_id) == "playing"


def test_a_link_leaves_an_untouched_game_without_asking(page: Page) -> None:
    page.goto(f"/?game={ALEXANDER}&deal=10")
    table_at(page, moves=opened_moves(ALEXANDER, 10), game=ALEXANDER, deal=10)  # autoplay's moves only
    confirms = Confirms(page, accept=False)
    page.goto(f"/?game={ALEXANDER}&deal=11")
    table_at(page, moves=opened_moves(ALEXANDER, 11), game=ALEXANDER, deal=11)
    assert not confirms.asked


# -- a drag after a snap-back ----------------------------------------------------


def test_a_card_dragged_after_a_refused_drop_follows_the_pointer(page: Page) -> None:
    open_deal(page, "fan", 3)
    ace = top_card(page, "fan/6")
    expect(ace).to_have_attribute("data-card", "AC")
    drag(page, "fan/6", "fan/0")
    expect(page.locator("#toast")).to_contain_text("does not go on")
    expect(ace).not_to_have_class(re.compile(r"\bdragging\b"))  # back in its place
    # Transitions run 100 times slower: a card that eased after the pointer would lag by seconds.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.01})
    x, y = centre(ace)
    to_x, to_y = centre(slot(page, "foundation/3"))
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 8, y + 8, steps=2)
    page.mouse.move(to_x, to_y, steps=10)
    assert centre(ace) == pytest.approx((to_x, to_y), abs=1)
    page.mouse.up()
    table_at(page, moves=1)
    expect(top_card(page, "foundation/3")).to_have_attribute("data-card", "AC")


def test_a_card_dragged_home_leaves_no_ghost_when_the_stock_refills_its_pile_with_its_twin(
    page: Page,
) -> None:
    """Acey and Kingsley deal 8: J♠ dragged from t3 to f6, and the stock puts the other deck's J♠ in t3."""
    open_deal(page, "acey-and-kingsley", 8)
    play(page, {"from": "tableau/1", "to": "foundation/6"})  # Q♦ onto the king pile
    expect(top_card(page, "tableau/3")).to_have_attribute("data-card", "JS")
    drag(page, "tableau/3", "foundation/6")
    table_at(page, moves=2)
    expect(top_card(page, "foundation/6")).to_have_attribute("data-card", "JS")
    twin = top_card(page, "tableau/3")
    expect(twin).to_have_attribute("data-card", "JS")
    expect(twin).not_to_have_class(re.compile(r"\bdragging\b"))
    assert centre(twin) == pytest.approx(centre(slot(page, "tableau/3")), abs=2)  # in its pile, not over f6


def test_a_link_with_options_has_rules_that_say_them_first(page: Page) -> None:
    variant = "alexander-the-great-lucie(redeals=0)"
    page.goto(f"/?game={variant}&deal=5")
    table_at(page, moves=opened_moves(variant, 5), game=variant, deal=5)
    page.click("#rules-button")
    expect(page.locator("#rules-title")).to_have_text("Alexander the Great (La Belle Lucie form), no redeals")
    note = page.locator("#rules-text .rules-note")
    expect(note).to_contain_text("Played with other options: no redeals (instead of 2 redeals).")
    expect(page.locator("#rules-text > *").first).to_have_class("rules-note")
    page.click("#rules-close")


# -- the move box's words ----------------------------------------------------------


def test_the_move_box_knows_the_terminals_words(page: Page) -> None:
    open_deal(page, ALEXANDER, 10)
    sent: list[str | None] = []

    def note(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/moves"):
            sent.append(json.loads(request.post_data or "{}").get("text"))

    page.on("request", note)
    toast = page.locator("#toast")
    _type(page, "help")
    expect(toast).to_contain_text("'t3 f1'")
    expect(toast).to_contain_text("'7c'")
    expect(toast).to_contain_text("undo (or 'undo 3'), redo, restart, hint, help")
    expect(page.locator("#command")).to_have_value("")
    _type(page, "t5 f2")
    table_at(page, moves=1)
    _type(page, "undo")
    table_at(page, moves=0)
    _type(page, "Redo")
    table_at(page, moves=1)
    _type(page, "restart")
    table_at(page, moves=0)
    expect(page.locator("#redo")).to_be_enabled()
    _type(page, "hint")
    expect(page.locator("#table .hint")).to_have_count(1)
    expect(toast).to_contain_text("Hint: ")
    assert sent == ["t5 f2"]
