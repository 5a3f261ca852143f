"""The page for a keyboard, a screen reader and a small screen, in Chromium.

Quick keypresses each count; a screen reader hears what a move did, not the
clock; piles and dialogs have names; the move box opens on a narrow screen.
"""

from __future__ import annotations

import re
from typing import Final

import pytest
from playwright.sync_api import Browser, Page, expect

from web.browsing import on_a_screen, open_deal, opened_moves, table_at
from web.conftest import LiveServer

ACEY: Final = "acey-and-kingsley"
ALEXANDER: Final = "alexander-the-great"


def test_two_quick_keypresses_make_two_moves(page: Page) -> None:
    open_deal(page, ACEY, 7)
    page.keyboard.press("d")
    page.keyboard.press("d")  # sent before the first is answered: it waits its turn
    table_at(page, moves=2)
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    table_at(page, moves=0)
    expect(page.locator("#toast")).not_to_contain_text("another tab")


def test_a_screen_reader_hears_the_move_not_the_clock(page: Page) -> None:
    open_deal(page, ALEXANDER, 10)
    assert page.get_attribute("#status", "aria-live") is None, "the clock there changes every second"
    said = page.locator("#said")
    assert page.get_attribute("#said", "aria-live") == "polite"
    page.fill("#command", "t5 f2")
    page.press("#command", "Enter")
    table_at(page, moves=1)
    expect(said).to_have_text("played: queen of clubs: t5 f2")  # a screen reader reads ♣ poorly
    page.click("#undo")
    table_at(page, moves=0)
    expect(said).to_have_text("taken back: queen of clubs: t5 f2")
    open_deal(page, ACEY, 5)
    page.keyboard.press("d")
    table_at(page, moves=1)
    expect(said).to_have_text("played: a deal from the stock")
    page.fill("#command", "t1 f4")  # Q♥ home, and the stock fills the pile it leaves
    page.press("#command", "Enter")
    table_at(page, moves=2)
    refill = re.compile(r"^the stock fills t1 with \S+$")
    expect(page.locator("#toast")).to_have_text(refill)
    expect(said).to_have_text(re.compile(r"^played: queen of hearts: t1 f4\. the stock fills t1 with \S+$"))


def test_piles_and_dialogs_have_names(page: Page) -> None:
    open_deal(page, ALEXANDER, 10)
    expect(page.locator('#table .slot[data-pile="foundation/0"]')).to_have_attribute(
        "aria-label", "foundation f0, 1 card, top ace of hearts, builds up from ace"
    )
    expect(page.locator('#table .slot[data-pile="fan/5"]')).to_have_attribute(
        "aria-label", "fan t5, 4 cards, top queen of clubs"
    )
    expect(page.locator("#table .caption").first).to_have_attribute("aria-hidden", "true")
    page.click("#rules-button")
    expect(page.get_by_role("dialog", name="Alexander the Great")).to_be_visible()
    page.keyboard.press("Escape")


def test_slash_on_a_narrow_screen_opens_the_menu_that_holds_the_move_box(
    browser: Browser, live_server: LiveServer
) -> None:
    with on_a_screen(browser, live_server, 560, 900) as page:
        page.goto(f"/?game={ACEY}&deal=5")
        table_at(page, moves=0, game=ACEY, deal=5)
        expect(page.locator("#command")).to_be_hidden()
        page.locator("body").press("/")
        expect(page.locator("#command")).to_be_focused()
        expect(page.locator("#menu")).to_have_attribute("aria-expanded", "true")
        page.keyboard.type("d")  # a letter typed there is a move's, not a shortcut's
        assert page.input_value("#command") == "d"
        table_at(page, moves=0)


def test_a_phone_s_toast_takes_the_screen_s_width_and_a_tap_on_the_felt_puts_a_pick_down(
    browser: Browser, live_server: LiveServer
) -> None:
    with on_a_screen(browser, live_server, 390, 844, has_touch=True, is_mobile=True) as page:
        page.goto(f"/?game={ACEY}&deal=7")
        table_at(page, moves=0, game=ACEY, deal=7)
        expect(page.get_by_role("button", name="More controls")).to_be_visible()
        expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("^Acey and Kingsley · deal 7"))
        page.locator('#table .card.top[data-pile="reserve/1"]').tap()
        expect(page.locator("#table .card.selected")).to_have_count(1)
        box = page.locator("#table").bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] - 4, box["y"] + box["height"] - 4
        assert page.evaluate(f"document.elementFromPoint({x}, {y}).closest('[data-pile]')") is None, "felt"
        page.touchscreen.tap(x, y)
        expect(page.locator("#table .card.selected")).to_have_count(0)
        table_at(page, moves=0)
        page.locator("body").press("/")
        page.keyboard.type("help")
        page.keyboard.press("Enter")
        toast = page.locator("#toast")
        expect(toast).to_be_visible()
        shown = toast.bounding_box()
        assert shown is not None and shown["width"] > 0.8 * 390, shown


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 780), (844, 390)])
def test_a_phone_shows_whether_autoplay_is_on_in_the_bar_s_one_line(
    browser: Browser, live_server: LiveServer, width: int, height: int
) -> None:
    """Autoplay moves cards unasked: its box stays in sight with the menu closed (it was in the menu), and a
    screen reader hears its name and state, whether it is set by a tap or from the keyboard."""
    with on_a_screen(browser, live_server, width, height, has_touch=True, is_mobile=True) as page:
        page.goto(f"/?game={ACEY}&deal=7")
        table_at(page, moves=opened_moves(ACEY, 7), game=ACEY, deal=7)
        expect(page.locator("#menu")).to_have_attribute("aria-expanded", "false")
        box = page.get_by_role("checkbox", name="autoplay")
        expect(box).to_be_visible()
        expect(box).to_be_checked()  # on by default
        tops = page.locator("#bar button:visible, #bar select:visible, #bar .check:visible").evaluate_all(
            "els => els.map((e) => e.getBoundingClientRect().top)"
        )
        assert max(tops) - min(tops) < 10, f"the bar takes more than a line: {tops}"
        box.tap()
        expect(box).not_to_be_checked()
        assert page.evaluate("localStorage.getItem('cardtable.autoplay')") == "false"
        box.focus()
        page.keyboard.press("Space")
        expect(box).to_be_checked()
        expect(page.locator("#menu")).to_have_attribute("aria-expanded", "false")


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_rules_with_their_options_fit_the_dialog(
    browser: Browser, live_server: LiveServer, width: int, height: int
) -> None:
    """Long option labels wrap, and the keys' line too: the dialog does not scroll sideways."""
    with on_a_screen(browser, live_server, width, height) as page:
        page.goto("/?game=alexander-the-great-lucie&deal=3")
        table_at(
            page, moves=opened_moves("alexander-the-great-lucie", 3), game="alexander-the-great-lucie", deal=3
        )
        page.locator("body").press("?")  # on a phone the Rules button is in the menu
        expect(page.locator("#rules-options")).to_be_visible()
        dialog = page.locator("#rules")
        assert dialog.evaluate("(d) => d.scrollWidth <= d.clientWidth"), dialog.evaluate(
            "(d) => [d.scrollWidth, d.clientWidth]"
        )


def test_rules_that_scroll_on_a_short_screen_fade_out_until_their_end(
    browser: Browser, live_server: LiveServer
) -> None:
    with on_a_screen(browser, live_server, 1024, 600) as page:
        page.goto("/?game=alexander-the-great-lucie&deal=3")
        table_at(
            page, moves=opened_moves("alexander-the-great-lucie", 3), game="alexander-the-great-lucie", deal=3
        )
        page.click("#rules-button")
        text = page.locator("#rules-text")
        expect(text).to_have_class(re.compile(r"\bmore-below\b"))
        text.evaluate("(el) => el.scrollTo(0, el.scrollHeight)")
        expect(text).not_to_have_class(re.compile(r"\bmore-below\b"))


def test_the_table_plays_from_the_keyboard(page: Page) -> None:
    open_deal(page, ALEXANDER, 10)
    first = page.locator('#table .slot[data-pile="foundation/0"]')
    first.focus()
    page.keyboard.press("ArrowRight")  # the arrow keys go from pile to pile
    expect(page.locator('#table .slot[data-pile="foundation/1"]')).to_be_focused()
    page.locator('#table .slot[data-pile="fan/5"]').focus()
    page.keyboard.press("Enter")  # picks the top card, as a click does ...
    expect(page.locator('#table .card.selected[data-pile="fan/5"]')).to_have_count(1)
    page.locator('#table .slot[data-pile="foundation/2"]').focus()
    page.keyboard.press("Enter")  # ... and places it
    table_at(page, moves=1)
    expect(page.locator('#table .slot[data-pile="foundation/2"]')).to_have_attribute(
        "aria-label", "foundation f2, 2 cards, top queen of clubs, builds down from king"
    )
    expect(page.locator('#table .slot[data-pile="foundation/2"]')).to_be_focused()


def test_a_pick_is_told_and_a_slow_second_enter_sends_the_card_home(page: Page) -> None:
    open_deal(page, ALEXANDER, 10)
    slot = page.locator('#table .slot[data-pile="fan/5"]')
    slot.focus()
    page.keyboard.press("Enter")
    expect(slot).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#said")).to_have_text(
        re.compile(
            r"^picked queen of clubs from t5: it can go to f2 or t11; picked again, it goes home to f2$"
        )
    )
    page.wait_for_timeout(800)  # far slower than a double-click: a keyboard player need not hurry
    page.keyboard.press("Enter")
    table_at(page, moves=1)
    expect(page.locator("#said")).to_contain_text("played: queen of clubs: t5 f2")


def test_a_pick_put_down_is_told_too(page: Page) -> None:
    open_deal(page, ALEXANDER, 10)
    slot = page.locator('#table .slot[data-pile="fan/5"]')
    slot.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#said")).to_contain_text("picked queen of clubs")
    page.keyboard.press("Escape")
    expect(page.locator("#said")).to_have_text("put down: t5")
    expect(slot).not_to_have_attribute("aria-pressed", "true")


def test_keys_of_one_letter_can_be_turned_off(page: Page) -> None:
    """WCAG 2.1.4: a speech input's words, or a slip of the hand, must not set off shortcuts."""
    open_deal(page, ACEY, 5)
    page.click("#rules-button")
    page.uncheck("#letter-keys")
    page.click("#rules-close")
    page.locator("body").press("d")
    page.wait_for_timeout(300)
    table_at(page, moves=0)
    page.reload()  # the choice is kept
    table_at(page, moves=0, game=ACEY, deal=5)
    page.locator("body").press("d")
    page.wait_for_timeout(300)
    table_at(page, moves=0)
    page.click("#rules-button")
    page.check("#letter-keys")
    page.click("#rules-close")
    page.locator("body").press("d")
    table_at(page, moves=1)


def test_the_table_is_one_stop_of_tab(page: Page) -> None:
    open_deal(page, ALEXANDER, 10)
    stops = page.locator('#table [tabindex="0"]')
    expect(stops).to_have_count(1)
    page.locator("#command").focus()
    page.keyboard.press("Tab")  # from the move box into the table: its first pile
    expect(page.locator('#table .slot[data-pile="foundation/0"]')).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.locator('#table .slot[data-pile="foundation/1"]')).to_have_attribute("tabindex", "0")
    expect(stops).to_have_count(1)


def test_up_and_down_go_to_the_pile_above_or_below_home_and_end_to_the_first_and_last(page: Page) -> None:
    open_deal(page, ALEXANDER, 10)
    focused = "document.activeElement.dataset.pile"
    top = "(p) => document.querySelector(`#table .slot[data-pile='${p}']`).getBoundingClientRect().top"
    page.locator('#table .slot[data-pile="foundation/0"]').focus()
    page.keyboard.press("ArrowDown")
    below = page.evaluate(focused)
    assert below.startswith("fan/") and page.evaluate(top, below) > page.evaluate(top, "foundation/0")
    page.keyboard.press("ArrowDown")
    further = page.evaluate(focused)
    assert page.evaluate(top, further) > page.evaluate(top, below), "a row further down, not the next fan"
    page.keyboard.press("ArrowUp")
    assert page.evaluate(focused) == below
    page.keyboard.press("End")
    assert page.evaluate(focused) == "fan/11"
    page.keyboard.press("Home")
    assert page.evaluate(focused) == "foundation/0"


def test_the_piles_keep_the_table_s_order_when_a_foundation_empties(page: Page) -> None:
    """Home, End and a screen reader go by the page's order: an emptied pile drawn anew keeps its place in it."""
    open_deal(page, "fan", 42, autoplay=True)  # autoplay sends A♣ home
    slots = "[...document.querySelectorAll('#table .slot')].map((s) => s.dataset.pile)"
    in_order = [f"foundation/{i}" for i in range(4)] + [f"fan/{i}" for i in range(18)]
    assert page.evaluate(slots) == in_order
    page.locator('#table .slot[data-pile="fan/3"]').focus()
    page.keyboard.press("Control+z")  # f0 empties: its place shows the ace it takes
    table_at(page, moves=0)
    assert page.evaluate(slots) == in_order
    page.keyboard.press("Home")
    expect(page.locator('#table .slot[data-pile="foundation/0"]')).to_be_focused()
    page.keyboard.press("End")
    expect(page.locator('#table .slot[data-pile="fan/17"]')).to_be_focused()
