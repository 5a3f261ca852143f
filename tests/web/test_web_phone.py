"""Small screens, in Chromium: a phone held upright, where fans splayed down keep the cards large and are
played by taps and keys, and a small laptop or a phone on its side, where a long fan still fits.

On a tall narrow screen the table splays fans down rather than sideways when that
gives larger cards; these tests hold it to a card width as fans grow long, to a
table that fits the window with no pile over another, and to play there. Where the
room a long fan reserves does not fit, the table reserves less rather than scroll.
"""

from __future__ import annotations

import itertools
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, Page, expect

from cardtable import deal, load_game
from cardtable.formats import deal_to_dict, move_to_dict
from cardtable.solver import Limit, solve
from helpers import fan_position
from web.browsing import autoplay_off, drag_onto, on_a_screen, play, slot, table_at, top_card
from web.conftest import LiveServer
from web.positions import RANKS, run

PHONE: Final = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}
LAPTOP: Final = {"width": 1024, "height": 600}
ON_ITS_SIDE: Final = {"width": 844, "height": 390}
SHORT_WINDOW: Final = {"width": 844, "height": 460}
"""A window where piles sideways and piles down give the smallest cards alike, card after card."""
"""The phone turned on its side: as small cards as upright (34 px), less room still."""
FAN: Final = "fan"
ALEXANDER: Final = "alexander-the-great"
LUCIE: Final = "alexander-the-great-lucie"
LEAST_WIDTH: Final = 48
"""The narrowest card, in pixels, that Fan's table may come to as a fan grows to 14 cards on the phone
(sideways alone, it came to 34 and scrolled)."""

PLACES: Final = """() => {
    const piles = {};
    for (const el of document.querySelectorAll("#table [data-pile]")) {
        const r = el.getBoundingClientRect();
        const p = piles[el.dataset.pile] ||= { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
        Object.assign(p, { left: Math.min(p.left, r.left), top: Math.min(p.top, r.top),
            right: Math.max(p.right, r.right), bottom: Math.max(p.bottom, r.bottom) });
    }
    const captions = [...document.querySelectorAll("#table .caption")].map((el) => el.getBoundingClientRect())
        .map((r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom }));
    return { piles, captions };
}"""
"""Each pile's place as drawn (its slot and cards together) and the captions' boxes, in the window."""


def spades_to_build(under: int = 2, game: str = FAN) -> dict[str, Any]:
    """Fan (or Lucie, whose fans are Fan's) with K♠ to 2♠ on top of fans 0 to 11, two cards under each
    (``under`` under K♠), the rest in fans 12 to 16 and A♠ home: moves t1 t0 to t11 t0 build a fan of
    12 + ``under`` (15, the longest a fan gets)."""
    others = [rank + suit for suit in "HDC" for rank in RANKS]
    fans = [
        [others.pop() for _ in range(under if rank == "K" else 2)] + [rank + "S"]
        for rank in reversed(RANKS[1:])
    ]
    fans += [[others.pop(), others.pop(), others.pop()] for _ in range(len(others) // 3)]
    return deal_to_dict(fan_position(game, [" ".join(fan) for fan in fans]))


def a_long_fan() -> dict[str, Any]:
    """Fan with K♠ down to 2♠ on three cards in fan 0 (15 cards, the longest a fan gets), the rest in fans
    of 3 and A♠ home."""
    others = [rank + suit for suit in "HDC" for rank in RANKS]
    fans = [[others.pop(), others.pop(), others.pop(), *run("S", "K", "2")]]
    fans += [[others.pop(), others.pop(), others.pop()] for _ in range(len(others) // 3)]
    return deal_to_dict(fan_position(FAN, [" ".join(fan) for fan in fans]))


def card_width(page: Page) -> float:
    box = slot(page, "fan/0").bounding_box()
    assert box is not None
    return box["width"]


def splayed_down(page: Page, pile: str) -> bool:
    """Whether the pile's top card lies straight below its bottom one (its slot)."""
    base, top = slot(page, pile).bounding_box(), top_card(page, pile).bounding_box()
    assert base is not None and top is not None
    return abs(top["x"] - base["x"]) < 1 and top["y"] > base["y"] + 1


def splay_of(page: Page) -> str | None:
    """Which way the table splays its fans: "down" or "side", as t0's top card says."""
    return top_card(page, "fan/0").get_attribute("data-splay")


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5
    )


def assert_tidy(page: Page) -> None:
    """The table fits the window, no pile's place lies over another's, no caption over a pile."""
    expect(page.locator("#table .moving, #table .selected")).to_have_count(0)
    window = page.viewport_size
    assert window is not None
    assert page.evaluate("document.documentElement.scrollHeight") <= window["height"], "it scrolls"
    drawn = page.evaluate(PLACES)
    piles, captions = drawn["piles"], drawn["captions"]
    for name, place in piles.items():
        assert place["left"] >= 0 and place["right"] <= window["width"], f"{name} leaves the window"
        assert place["bottom"] <= window["height"], f"{name} leaves the window"
    names = sorted(piles)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert not overlap(piles[a], piles[b]), f"{a} lies over {b}"
    for caption in captions:
        assert not any(overlap(caption, place) for place in piles.values()), (
            f"a caption over a pile: {caption}"
        )


def without_autoplay(page: Page) -> None:
    """Turn autoplay off by its box, in sight on the phone too."""
    page.tap("#autoplay")
    expect(page.locator("#autoplay")).not_to_be_checked()


def tap_move(page: Page, source: str, target: str) -> None:
    """Tap the top card of ``source`` (it is picked), then the top card of ``target``."""
    top_card(page, source).tap()
    expect(top_card(page, source)).to_have_class("card top selected")
    top_card(page, target).tap()


def open_position(page: Page, position: dict[str, Any]) -> None:
    """Open the page on a game of Fan from ``position``."""
    page.goto("/")
    page.wait_for_selector("#table .slot")
    page.request.post("/api/plays", data={"game": FAN, "position": position})
    page.reload()
    table_at(page, moves=0, game=FAN)


def test_fans_built_long_on_an_upright_phone_keep_their_cards_large(
    browser: Browser, live_server: LiveServer
) -> None:
    with on_a_screen(browser, live_server, **PHONE) as page:
        open_position(page, spades_to_build())
        without_autoplay(page)
        widths = [card_width(page)]
        assert_tidy(page)
        for moves in range(1, 12):  # Q♠ onto K♠, J♠ onto Q♠, ... 2♠: t0 grows from 3 cards to 14
            tap_move(page, f"fan/{moves}", "fan/0")
            table_at(page, moves=moves)
            widths.append(card_width(page))
            assert_tidy(page)
        assert min(widths) >= LEAST_WIDTH, widths
        assert len(set(widths)) <= 3, widths  # the table reflowed at most twice, not at every card
        assert splayed_down(page, "fan/0") and splayed_down(page, "fan/12")
        expect(page.locator('#table .card[data-pile="fan/0"]')).to_have_count(14)
        tap_move(page, "fan/0", "foundation/3")  # 2♠, at the foot of the long fan, goes home by taps
        table_at(page, moves=12)
        expect(top_card(page, "foundation/3")).to_have_attribute("data-card", "2S")


def test_a_long_fan_drawn_afresh_on_an_upright_phone_keeps_the_cards_large(
    browser: Browser, live_server: LiveServer
) -> None:
    """A page opened (or reloaded) in the middle of a game makes room for its long fan, not for every fan."""
    with on_a_screen(browser, live_server, **PHONE) as page:
        open_position(page, a_long_fan())
        expect(page.locator('#table .card[data-pile="fan/0"]')).to_have_count(15)
        assert card_width(page) >= LEAST_WIDTH  # with room for 16 cards in every fan, 36
        assert splayed_down(page, "fan/0")
        assert_tidy(page)


def test_fans_splayed_down_are_played_by_drags_and_crossed_by_arrow_keys(
    browser: Browser, live_server: LiveServer
) -> None:
    with on_a_screen(browser, live_server, **PHONE) as page:
        autoplay_off(page)  # deal 5 as dealt: autoplay would send two cards home as it opens
        page.goto(f"/?game={ALEXANDER}&deal=5")
        table_at(page, moves=0, game=ALEXANDER, deal=5)
        assert splayed_down(page, "fan/0"), "Alexander's 12 fans of 4 are larger splayed down on a phone"
        focused = "document.activeElement.dataset.pile"
        slot(page, "fan/0").focus()
        page.keyboard.press("ArrowDown")  # the fan below, past the cards splayed down over its column
        assert page.evaluate(focused) == "fan/4"
        page.keyboard.press("ArrowUp")
        page.keyboard.press("ArrowUp")
        assert page.evaluate(focused) == "foundation/0"
        page.keyboard.press("ArrowRight")  # left and right still go through the piles in order
        assert page.evaluate(focused) == "foundation/1"
        move = next(
            m for m in deal(load_game(ALEXANDER), 5).legal_moves if m.target and m.target.group == "fan"
        )
        step = move_to_dict(move)
        drag_onto(page, step["from"], top_card(page, step["to"]))  # low in its place, splayed down
        table_at(page, moves=1)
        expect(top_card(page, step["to"])).to_have_attribute("data-card", step["card"])
        assert_tidy(page)


@pytest.mark.parametrize(
    ("game", "screen", "smallest"),
    [
        (FAN, LAPTOP, 44),
        (FAN, ON_ITS_SIDE, 34),
        (FAN, SHORT_WINDOW, 34),
        (LUCIE, ON_ITS_SIDE, 34),  # its long name and Redeal button took the status line to two lines
    ],
    ids=["laptop", "phone-on-its-side", "short-window", "lucie-phone-on-its-side"],
)
def test_a_fan_built_to_15_cards_fits_a_short_screen_without_scrolling(
    browser: Browser, live_server: LiveServer, game: str, screen: dict[str, int], smallest: int
) -> None:
    """``smallest``: the smallest card the page draws there; a table that does not fit even so scrolls."""
    with on_a_screen(browser, live_server, **screen) as page:
        autoplay_off(page)
        page.request.post("/api/plays", data={"game": game, "position": spades_to_build(under=3, game=game)})
        page.goto("/")
        table_at(page, moves=0, game=game)
        widths, ways = [card_width(page)], [splay_of(page)]
        for moves in range(1, 12):  # t0 grows from 4 cards to 15: the room it doubles to no longer fits
            play(page, {"from": f"fan/{moves}", "to": "fan/0"})
            widths.append(card_width(page))
            ways.append(splay_of(page))
            assert_tidy(page)
        expect(page.locator('#table .card[data-pile="fan/0"]')).to_have_count(15)
        assert min(widths) >= smallest, widths
        assert len(set(widths)) <= 3, widths  # the table reflowed at most twice, not at every card
        assert sum(a != b for a, b in itertools.pairwise(ways)) <= 1, ways  # and turned at most once


SPLAYS: Final = "[...document.querySelectorAll('#table .card[data-splay]')].map((el) => el.dataset.splay)"


def test_the_table_keeps_its_way_through_a_game_and_a_reload(
    browser: Browser, live_server: LiveServer
) -> None:
    """Fan deal 12 on a desktop, by the solver's line: t5's fan outgrows its place at move 4, where fans down
    gave cards 7% wider (76 px against 71), and the table turned, to turn back at move 24. It turns only for
    cards a good deal wider; and a reload lays the table out as it was, not afresh for the fans as they are."""
    line = [move_to_dict(m) for m in solve(deal(load_game(FAN), 12), Limit(seconds=30)).moves]
    with on_a_screen(browser, live_server, 1280, 800) as page:
        autoplay_off(page)  # the solver's line starts from the deal as dealt
        page.goto(f"/?game={FAN}&deal=12")
        table_at(page, moves=0, game=FAN, deal=12)
        ways, widths = set(page.evaluate(SPLAYS)), [card_width(page)]
        for moves, move in enumerate(line[:26], 1):
            play(page, move)
            ways.update(page.evaluate(SPLAYS))
            widths.append(card_width(page))
            if moves == 6:
                expect(page.locator("#table .moving")).to_have_count(0)
                drawn = page.evaluate(PLACES)["piles"]
                page.reload()
                table_at(page, moves=moves, game=FAN, deal=12)
                assert page.evaluate(PLACES)["piles"] == drawn, "a reload draws the table as it was"
        assert ways == {"side"}, ways
        assert len(set(widths)) <= 2, widths  # once smaller as t5 outgrows its place
