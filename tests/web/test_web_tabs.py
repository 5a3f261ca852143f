"""Two tabs on one game: a tab that is behind never changes the game blind, nor throws it away unasked."""

from __future__ import annotations

from typing import Final

from playwright.sync_api import Dialog, Page, expect

from web.browsing import autoplay_off, table_at

FAN: Final = "fan"


def _type(page: Page, text: str) -> None:
    page.fill("#command", text)
    page.press("#command", "Enter")


def _second_tab(page: Page) -> Page:
    """Another tab of the same player (the same cookie), on the game in progress."""
    other = page.context.new_page()
    other.goto("/")
    return other


def _opened(page: Page) -> None:
    autoplay_off(page)
    page.goto(f"/?game={FAN}&deal=3")
    table_at(page, moves=0, game=FAN, deal=3)


def _behind(page: Page) -> Page:
    """Fan deal 3 in two tabs, then a move in the first: the second tab, which has not looked since."""
    _opened(page)
    other = _second_tab(page)
    table_at(other, moves=0, game=FAN, deal=3)
    _type(page, "t6")
    table_at(page, moves=1)
    return other


def test_a_tab_behind_is_refused_and_catches_up(page: Page) -> None:
    other = _behind(page)
    other.click("#hint")  # any click: the tab has not looked at the game since
    _type(other, "t9 t6")  # chosen on the old table
    expect(other.locator("#toast")).to_contain_text("the game changed in another tab or window")
    table_at(other, moves=1)  # it shows the game as it stands, the move not made
    assert page.request.get(f"/api/plays/{page.evaluate('window.cardtable.view.id')}").json()["moves"] == 1


def test_new_in_a_tab_behind_asks_before_the_game_played_elsewhere_is_lost(page: Page) -> None:
    other = _behind(page)
    asked: list[str] = []

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    other.on("dialog", answer)
    other.click("#new")
    table_at(other, moves=1, game=FAN, deal=3)  # caught up, and kept
    assert asked == ["Leave this game for a new one? It will count as abandoned, a loss, in the statistics."]


def _left_behind(page: Page) -> Page:
    """As :func:`_behind`, then the first tab leaves the game for deal 4: the second still shows the old one."""
    other = _behind(page)
    page.on("dialog", lambda dialog: dialog.accept())
    page.fill("#deal-number", "4")
    page.press("#deal-number", "Enter")
    table_at(page, moves=0, game=FAN, deal=4)
    return other


def test_a_tab_whose_game_was_left_in_another_goes_on_with_the_new_one(page: Page) -> None:
    other = _left_behind(page)
    _type(other, "t6")  # on the game it shows, which was abandoned: it moves on to deal 4
    table_at(other, moves=0, game=FAN, deal=4)
    expect(other.locator("#toast")).to_contain_text("left for a new one in another tab or window")


def test_new_in_a_tab_whose_game_was_left_does_not_throw_away_the_new_one(page: Page) -> None:
    other = _left_behind(page)
    _type(page, page.evaluate("window.cardtable.view.legal[0].text"))
    table_at(page, moves=1)
    other.click("#new")  # its game was left for deal 4, played since: it goes on with that, no new deal
    table_at(other, moves=1, game=FAN, deal=4)
    current = page.request.get("/api/plays/current").json()
    assert (current["deal"], current["moves"], current["status"]) == (4, 1, "playing")
