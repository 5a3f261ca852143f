"""Autoplay as a deal is opened, in Chromium: the safe cards go home at once with the box ticked, not without.

A deal only opened, its safe cards sent home by autoplay, is not a game played:
leaving it asks nothing, and it does not count in the statistics until a move
is made by hand. Every test is a new player (a fresh browser context).
"""

from __future__ import annotations

from typing import Final

from playwright.sync_api import Dialog, Page, expect

from web.browsing import open_deal, table_at, top_card

FAN: Final = "fan"
SENT: Final = {"foundation/0": "AC", "foundation/1": "AS", "foundation/2": "AH"}
"""Fan deal 2: three aces can go home at once."""


def _foundations(page: Page) -> dict[str, str | None]:
    """The top card of each foundation the deal's autoplay fills; None where it is empty."""
    tops = {pile: top_card(page, pile) for pile in SENT}
    return {pile: top.get_attribute("data-card") if top.count() else None for pile, top in tops.items()}


def test_a_deal_has_its_safe_cards_sent_home_as_it_opens_with_autoplay_on_and_not_off(page: Page) -> None:
    open_deal(page, FAN, 2, autoplay=True)
    table_at(page, moves=3)
    assert _foundations(page) == SENT
    expect(page.locator("#said")).to_contain_text("autoplay sent home: ace of clubs: t2 f0")
    expect(page.locator("#toast")).to_have_text(
        "autoplay sent 3 cards home as the deal began: undo takes them back"
    )
    expect(page.locator("#undo")).to_be_enabled()
    expect(page.locator("#restart")).to_be_disabled()  # it would only send them home again
    page.uncheck("#autoplay")
    expect(page.locator("#restart")).to_be_enabled()  # now it takes them back
    page.check("#autoplay")
    page.click("#undo")  # the deal's autoplay is one undo
    table_at(page, moves=0)
    expect(page.locator("#redo")).to_be_enabled()
    page.reload()  # taken back, it is not made again on its own
    table_at(page, moves=0, game=FAN, deal=2)
    page.click("#redo")
    table_at(page, moves=3)
    open_deal(page, FAN, 2, autoplay=False)
    assert _foundations(page) == dict.fromkeys(SENT)
    expect(page.locator("#undo")).to_be_disabled()


def test_restart_sends_the_safe_cards_home_again(page: Page) -> None:
    open_deal(page, FAN, 2, autoplay=True)
    page.fill("#command", page.evaluate("window.cardtable.view.legal[0].text"))
    page.press("#command", "Enter")
    table_at(page, moves=4)
    page.click("#restart")
    table_at(page, moves=3)
    assert _foundations(page) == SENT
    expect(page.locator("#redo")).to_be_enabled()
    expect(page.locator("#restart")).to_be_disabled()  # at the deal's autoplay: it would only make it again
    page.uncheck("#autoplay")
    page.click("#restart")
    table_at(page, moves=0)


def test_a_deal_only_autoplayed_is_left_without_asking_and_counts_only_once_touched(page: Page) -> None:
    asked: list[str] = []

    def accept(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    open_deal(page, FAN, 2, autoplay=True)
    page.fill("#deal-number", "4")
    page.press("#deal-number", "Enter")
    table_at(page, moves=3, game=FAN, deal=4)  # fan deal 4 has three cards to send home too
    assert not asked, "a deal only opened is no game to lose"
    assert _counted(page) == []
    page.fill("#command", page.evaluate("window.cardtable.view.legal[0].text"))
    page.press("#command", "Enter")
    table_at(page, moves=4)
    page.fill("#deal-number", "5")
    page.press("#deal-number", "Enter")
    table_at(page, moves=2, game=FAN, deal=5)
    assert asked == ["Leave this game for a new one? It will count as abandoned, a loss, in the statistics."]
    assert _counted(page) == [(4, "abandoned", 4)]


def _counted(page: Page) -> list[tuple[int, str, int]]:
    """The statistics' games of Fan deals 2, 4 and 5: the random deals the page opened first may count
    (one lost at once, with no move to make)."""
    history = page.request.get("/api/stats").json()["history"]
    return [
        (h["deal"], h["status"], h["moves"]) for h in history if h["game"] == FAN and h["deal"] in (2, 4, 5)
    ]
