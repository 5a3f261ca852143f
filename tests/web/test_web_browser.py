"""A person plays in Chromium: drags, clicks, keys, hints, a crash of the server, whole games won.

Every test opens a fresh browser context, so it is a new player with no games.
The moves to make come from the core (a legal one, an illegal one, the solver's
line); the page is driven only through what a person can do with it.
"""

from __future__ import annotations

import itertools
import re
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, Dialog, Page, Route, expect

from cardtable import deal, load_game
from cardtable.formats import deal_to_dict, move_to_dict
from cardtable.solver import Limit, solve
from helpers import acey_position, fan_position
from web.browsing import (
    autoplay_off,
    click_pile,
    close_result,
    drag,
    first_card_move,
    illegal_card_move,
    median,
    moves_made,
    on_a_screen,
    open_deal,
    opened_moves,
    play,
    screenshot,
    slot,
    table_at,
    top_card,
    until,
)
from web.conftest import LiveServer
from web.positions import ACEY_WINNING_LINE, acey_nearly_won, acey_stuck_after_the_last_deal

ALEXANDER: Final = "alexander-the-great"
LUCIE: Final = "alexander-the-great-lucie"
ACEY: Final = "acey-and-kingsley"
FAN: Final = "fan"
FAST_DEALS: Final = {ALEXANDER: 10, LUCIE: 12, FAN: 3, ACEY: 1}
"""Deals the solver wins in a fraction of a second, so hints come at once."""


def line_of(game: str, number: int) -> list[dict[str, Any]]:
    result = solve(deal(load_game(game), number), Limit(seconds=30))
    assert result.status == "won"
    return [move_to_dict(m) for m in result.moves]


@pytest.mark.parametrize("game", list(FAST_DEALS))
def test_a_person_plays_a_deal(page: Page, game: str) -> None:
    number = FAST_DEALS[game]
    open_deal(page, game, number)
    state = deal(load_game(game), number)

    legal = first_card_move(state)
    drag(page, str(legal.source), str(legal.target))
    table_at(page, moves=1)
    state.push(legal)
    assert top_card(page, str(legal.target)).get_attribute("data-card") == move_to_dict(legal)["card"]

    illegal, reason = illegal_card_move(state)
    card = top_card(page, str(illegal.source))
    home = card.bounding_box()
    drag(page, str(illegal.source), str(illegal.target))
    expect(page.locator("#toast")).to_have_text(reason)
    expect(card).not_to_have_class("card top dragging")
    assert card.bounding_box() == home, "the refused card is back in its place"
    assert moves_made(page) == 1

    page.click("#undo")
    table_at(page, moves=0)
    expect(page.locator("#undo")).to_be_disabled()
    page.click("#redo")
    table_at(page, moves=1)
    page.keyboard.press("Control+z")
    table_at(page, moves=0)
    page.keyboard.press("Control+y")
    table_at(page, moves=1)

    page.click("#hint")
    expect(page.locator("#table .hint")).to_have_count(1)
    expect(page.locator("#toast")).to_contain_text("Hint: ")
    page.click("#verdict")
    expect(page.locator("#toast")).to_contain_text("winnable: the solver found a win")

    page.click("#rules-button")
    expect(page.locator("#rules-text")).to_contain_text("You win when all")
    page.click("#rules-close")

    if game == ACEY:  # the fan games are pictured in the middle of a won game
        line = line_of(game, number)
        page.click("#undo")
        table_at(page, moves=0)
        for move in line[:14]:
            play(page, move)
        screenshot(page, game)


def _won_by_clicks(page: Page, game: str, line: list[dict[str, Any]], number: int | None) -> None:
    for index, move in enumerate(line):
        play(page, move)
        if number is not None and index == len(line) // 3:
            screenshot(page, game)
    dialog = page.locator("#result")
    expect(dialog).to_be_visible()
    expect(page.locator("#result-title")).to_have_text("You won!")
    where = "Own position" if number is None else f"Deal {number}"
    expect(page.locator("#result-text")).to_contain_text(f"{where} of ")
    expect(page.locator("#result-text")).to_contain_text(f"{len(line)} moves in ")


@pytest.mark.parametrize("game", list(FAST_DEALS))
def test_a_whole_game_is_won(page: Page, game: str) -> None:
    # The page opens on a deal of our choosing, not a random one: a random deal with
    # no move at all would end at once as a lost game and change the statistics checked below.
    autoplay_off(page)  # the solver's line starts from the deal as dealt
    if game == ACEY:  # the position API gives a nearly won table; the stock is dealt by a click
        page.goto(f"/?game={ACEY}&deal=1")
        table_at(page, moves=0, game=ACEY, deal=1)
        answer = page.request.post("/api/plays", data={"game": ACEY, "position": acey_nearly_won()})
        assert answer.status == 201
        page.reload()
        table_at(page, moves=0, game=ACEY)
        number, line = None, [dict(m) for m in ACEY_WINNING_LINE]
    else:
        number = FAST_DEALS[game]
        page.goto(f"/?game={game}&deal={number}")
        table_at(page, moves=0, game=game, deal=number)
        line = line_of(game, number)
    _won_by_clicks(page, game, line, number)
    timings: list[float] = page.evaluate("window.cardtable.timings")
    assert len(timings) == len(line)
    print(f"\n{game}: click to redrawn table, median {median(timings):.1f} ms over {len(timings)} moves")

    page.click("#result a[href='/stats']")
    row = page.locator("#per-game tbody tr").first
    expect(row.locator("td").first).to_have_text(
        load_game(game).name + (" (own positions)" if number is None else "")
    )
    cells = [c.strip() for c in row.locator("td").all_inner_texts()]
    assert cells[1:] == ["1", "1", "100.0%", "1", "1"]  # to a tenth, as the terminal shows it
    expect(page.locator("#history tbody tr").first).to_contain_text("won")
    page.set_viewport_size({"width": 360, "height": 640})  # a phone: both tables fit, no column hidden
    overflow = page.eval_on_selector_all(
        ".stats .scroll", "els => els.map(e => e.scrollWidth - e.clientWidth)"
    )
    assert overflow == [0, 0]
    if number is not None:  # a past game's deal opens again to play
        page.get_by_role("link", name=f"play deal {number} again").first.click()
        table_at(page, moves=0, game=game, deal=number)


def test_a_card_in_flight_never_catches_a_click(page: Page) -> None:
    # Seen under load, about once in 20 whole games: the answer to a move redrew the
    # table while the card of the move before still flew to its place, the card lost
    # the class that lets clicks through it, and took a click meant for a pile it was
    # passing over. Animations run 100 times slower here, so a card flies for 16 s.
    number = FAST_DEALS[ALEXANDER]
    open_deal(page, ALEXANDER, number)
    line = line_of(ALEXANDER, number)
    at = next(i for i, (a, b) in enumerate(itertools.pairwise(line)) if a["to"] not in (b["from"], b["to"]))
    for move in line[:at]:
        play(page, move)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.01})
    play(page, line[at])
    flying = top_card(page, line[at]["to"])
    expect(flying).to_have_class(re.compile(r"\bmoving\b"))
    play(page, line[at + 1])  # the table is drawn again, the first card still on its way
    expect(flying).to_have_class(re.compile(r"\bmoving\b"))
    assert flying.evaluate("el => getComputedStyle(el).pointerEvents") == "none"
    page.set_viewport_size({"width": 1000, "height": 800})  # a new place for every card ends the flight
    expect(page.locator("#table .card.moving")).to_have_count(0)


def test_games_survive_a_crash_of_the_server(page: Page, live_server: LiveServer) -> None:
    for game, number in FAST_DEALS.items():
        open_deal(page, game, number)
        for move in line_of(game, number)[:3]:
            play(page, move)
        page.click("#undo")
        table_at(page, moves=2)
    tops = sorted(
        page.locator("#table .card.top").evaluate_all("els => els.map(e => e.dataset.pile + e.dataset.card)")
    )

    live_server.crash()
    live_server.start()
    page.reload()
    table_at(page, moves=2, game=ACEY, deal=FAST_DEALS[ACEY])
    assert (
        sorted(
            page.locator("#table .card.top").evaluate_all(
                "els => els.map(e => e.dataset.pile + e.dataset.card)"
            )
        )
        == tops
    )
    for game, number in FAST_DEALS.items():
        page.select_option("#game", game)
        table_at(page, moves=2, game=game, deal=number)
        expect(page.locator("#redo")).to_be_enabled()
        page.click("#redo")
        table_at(page, moves=3, game=game)


def test_keys_and_the_move_box(page: Page) -> None:
    open_deal(page, ALEXANDER, 10)
    page.locator("body").press("/")
    expect(page.locator("#command")).to_be_focused()
    page.keyboard.type("t0 f0")
    page.keyboard.press("Enter")
    expect(page.locator("#toast")).to_have_text(
        "illegal move: 't0 f0': 9♣ does not go on A♥ (f0 takes 2♥ next)"
    )
    page.fill("#command", "t5 f2")
    page.keyboard.press("Enter")
    table_at(page, moves=1)
    expect(page.locator("#command")).to_have_value("")
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+H")  # with Shift, or Caps Lock, a letter key does the same
    expect(page.locator("#table .hint")).to_have_count(1)
    asked: list[str] = []

    def decline(dialog: Dialog) -> None:  # leave this game for a new one? no
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", decline)
    page.keyboard.press("n")
    until(page, lambda: bool(asked))
    assert "count as abandoned" in asked[0]
    assert page.request.get("/api/plays/current").json()["deal"] == 10
    table_at(page, moves=1, deal=10)
    page.once("dialog", lambda dialog: dialog.accept())
    page.keyboard.press("n")
    table_at(page, moves=0)
    assert page.get_attribute("#table", "data-deal") != "10"


def test_what_is_typed_while_a_move_goes_is_kept_for_the_next(page: Page) -> None:
    """The box empties as Enter sends a move: an answer that comes later wipes nothing typed meanwhile."""
    open_deal(page, ALEXANDER, 10)
    held: list[Route] = []
    page.route("**/api/plays/*/moves", lambda route: held.append(route))  # the server slow to answer
    page.fill("#command", "t5 f2")
    page.keyboard.press("Enter")
    until(page, lambda: bool(held))
    expect(page.locator("#command")).to_have_value("")
    page.keyboard.type("t0 ")  # the player goes on typing the next move
    held[0].continue_()
    table_at(page, moves=1)
    expect(page.locator("#command")).to_have_value("t0 ")
    page.unroute("**/api/plays/*/moves")
    page.fill("#command", "t0 f0")  # a move refused comes back to mend, the box being empty
    page.keyboard.press("Enter")
    expect(page.locator("#toast")).to_contain_text("illegal move: 't0 f0'")
    expect(page.locator("#command")).to_have_value("t0 f0")


def test_a_move_typed_before_the_game_is_on_the_table_is_told_to_wait_and_kept(page: Page) -> None:
    autoplay_off(page)  # the new player's deal is then shown as dealt
    held: list[Route] = []
    page.route("**/api/plays/current*", lambda route: held.append(route))  # the page's game, held back
    page.goto("/")
    until(page, lambda: bool(held))
    page.fill("#command", "t0")
    page.keyboard.press("Enter")
    expect(page.locator("#toast")).to_have_text("no game on the table yet: try again in a moment")
    expect(page.locator("#command")).to_have_value("t0")
    held[0].continue_()
    page.unroute("**/api/plays/current*")
    table_at(page, moves=0)


def test_double_click_sends_a_card_to_its_place_and_autoplay_follows(page: Page) -> None:
    page.goto("/")
    expect(page.locator("#autoplay")).to_be_checked()  # on by default
    open_deal(page, ALEXANDER, 18, autoplay=True)  # one card goes home as the deal is opened
    click_pile(page, "fan/3")
    click_pile(page, "fan/3")  # t3 t7, and three cards it frees go home
    table_at(page, moves=5)
    page.click("#undo")
    table_at(page, moves=1)  # the move and its autoplay: one undo
    page.click("#undo")
    table_at(page, moves=0)


def test_autoplay_now_says_why_when_nothing_goes_home(page: Page) -> None:
    open_deal(page, ACEY, 5)
    page.keyboard.press("a")
    expect(page.locator("#toast")).to_contain_text("autoplay sends home only cards proved safe to send")
    table_at(page, moves=0)
    open_deal(page, ALEXANDER, 10)
    click_pile(page, "fan/5")
    click_pile(page, "fan/5")
    table_at(page, moves=1)
    page.keyboard.press("a")  # the cards it freed go home, then nothing is left to send
    page.wait_for_selector('#table:not([data-moves="1"])')
    page.keyboard.press("a")
    expect(page.locator("#toast")).to_have_text("autoplay: no card can go home now")


def test_a_double_click_that_cannot_send_a_card_says_why_in_words_for_a_tap_and_a_click(page: Page) -> None:
    open_deal(page, ALEXANDER, 10)
    click_pile(page, "fan/0")  # no move at all from fan/0 in deal 10
    click_pile(page, "fan/0")
    expect(page.locator("#toast")).to_have_text(re.compile(r"^\S+ cannot go anywhere now$"))
    open_deal(page, ACEY, 5)
    play(page, {"from": "tableau/1", "to": "foundation/4", "card": "QH"})
    click_pile(page, "foundation/4")
    click_pile(page, "foundation/4")
    expect(page.locator("#toast")).to_have_text(
        "Q♥ is already home; to move it off, pick it, then where it goes"
    )
    table_at(page, moves=1)
    slot(page, "foundation/4").focus()
    page.keyboard.press("Enter")  # what a screen reader hears of the pick says the same
    expect(page.locator("#said")).to_have_text(
        re.compile(r"^picked queen of hearts from f4: .*; picked again, it stays home$")
    )
    page.keyboard.press("Escape")
    up_or_down = acey_position(
        up=(5, 13, 13, 13), down=(7, 13, 13, 13), tableau=["6S", "", "", ""], rest="waste"
    )
    answer = page.request.post("/api/plays", data={"game": ACEY, "position": deal_to_dict(up_or_down)})
    assert answer.status == 201
    page.reload()
    table_at(page, moves=0, game=ACEY)
    click_pile(page, "tableau/0")
    click_pile(page, "tableau/0")
    expect(page.locator("#toast")).to_have_text(
        "it could go to f0 (up), f4 (down): pick it, then the one you want"
    )


def test_touch_taps_play_too(browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, base_url=live_server.url
    )
    try:
        page = context.new_page()
        open_deal(page, ALEXANDER, 10)
        page.tap("#menu")
        expect(page.locator("#deal-number")).to_be_hidden()
        for pile in ("fan/5", "foundation/2"):
            x, y = _centre_of_slot(page, pile)
            page.touchscreen.tap(x, y)
        table_at(page, moves=1)
    finally:
        context.close()


def _centre_of_slot(page: Page, pile: str) -> tuple[float, float]:
    box = slot(page, pile).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_show_me_plays_the_solvers_line_to_the_end(page: Page) -> None:
    page.goto("/")
    page.wait_for_selector("#table .slot")
    page.request.post("/api/plays", data={"game": ACEY, "position": acey_nearly_won()})
    page.reload()
    table_at(page, moves=0, game=ACEY)
    page.select_option("#speed", "60")
    page.click("#show")
    expect(page.locator("#result-title")).to_have_text("You won!")
    expect(page.locator("#result-text")).to_contain_text("with the solver's help")
    page.click("#result-close")
    page.reload()  # a game already over is shown as it stands, without greeting it again
    expect(page.locator("#facts")).to_contain_text("won")
    expect(page.locator("#result")).to_be_hidden()
    expect(page.locator("#toast")).to_have_text("this game was won: New (N) deals another")  # but the way on


def test_a_blocked_la_belle_lucie_says_a_redeal_is_what_is_left(page: Page) -> None:
    open_deal(page, LUCIE, FAST_DEALS[LUCIE])
    expect(page.locator("#redeal")).to_be_disabled()
    expect(page.locator("#redeal")).to_have_attribute(
        "title", "A redeal is allowed only when no card can move"
    )
    blocked = deal_to_dict(fan_position(LUCIE, ["TC KH", "JD QD QC", "QH KS JC KC KD"]))
    page.request.post("/api/plays", data={"game": LUCIE, "position": blocked})
    page.reload()
    expect(page.locator("#facts")).to_contain_text("no card can move: redeal")
    expect(page.locator("#redeal")).to_be_enabled()
    expect(page.locator("#redeal")).to_have_attribute(
        "title", "Gather the fans, shuffle them and deal them again"
    )
    assert page.locator(".slot.closed").count() == 15  # fans 3 to 17: a Lucie fan emptied stays empty
    nearly = deal_to_dict(fan_position(LUCIE, ["KC"]))
    play = page.request.post("/api/plays", data={"game": LUCIE, "position": nearly}).json()["id"]
    assert page.request.post(f"/api/plays/{play}/moves", data={"text": "t0 f0"}).ok
    page.reload()
    expect(page.locator("#redeal")).to_have_attribute(
        "title", "The game is won"
    )  # not "only when no card..."


def test_an_emptied_reserve_and_stock_look_and_read_as_taking_no_card(page: Page) -> None:
    """As a Lucie fan emptied does: only an empty tableau pile has the dashed place of a pile that takes a card."""
    page.goto(f"/?game={ACEY}&deal=1")
    table_at(page, moves=0, game=ACEY, deal=1)
    emptied = acey_position(
        up=(5, 13, 13, 13), down=(7, 13, 13, 13), tableau=["6S", "", "", ""], rest="waste"
    )
    assert page.request.post("/api/plays", data={"game": ACEY, "position": deal_to_dict(emptied)}).ok
    page.reload()
    table_at(page, moves=0, game=ACEY)
    piles = "els => els.map((e) => e.dataset.pile)"
    assert page.locator(".slot.closed").evaluate_all(piles) == ["reserve/0", "reserve/1", "stock/0"]
    assert page.locator(".slot.empty").evaluate_all(piles) == ["tableau/1", "tableau/2", "tableau/3"]
    expect(slot(page, "reserve/0")).to_have_attribute("aria-label", "reserve r0, empty, takes no card")
    expect(slot(page, "tableau/1")).to_have_attribute("aria-label", "tableau t1, empty")


def test_the_rules_dialog_plays_the_game_with_other_options_and_the_menu_keeps_them(page: Page) -> None:
    open_deal(page, ALEXANDER, 10)
    page.click("#rules-button")
    expect(page.locator("#rules-options")).to_be_hidden()  # Alexander the Great has no options
    page.click("#rules-close")
    open_deal(page, LUCIE, FAST_DEALS[LUCIE])
    page.click("#rules-button")
    expect(page.locator("#rules-options input[name=redeals]")).to_have_value("2")
    expect(page.locator("#rules-fields")).to_contain_text("redeals allowed")
    page.fill("#rules-options input[name=redeals]", "0")
    page.click("#rules-options button[type=submit]")
    variant = f"{LUCIE}(redeals=0)"
    page.wait_for_selector(f'#table[data-game="{variant}"]')
    assert page.get_attribute("#table", "data-deal") == str(
        FAST_DEALS[LUCIE]
    )  # the same deal, not a random one
    expect(page.locator("#toast")).to_contain_text(f"deal {FAST_DEALS[LUCIE]} under these rules")
    in_words = "Alexander the Great (La Belle Lucie form), no redeals"  # not redeals=0
    expect(page.locator("#title")).to_have_text(f"{in_words} · deal {FAST_DEALS[LUCIE]}")
    expect(page.locator("#game option:checked")).to_have_text(in_words)
    expect(page.locator("#redeal")).to_be_hidden()
    page.click("#rules-button")  # the form shows the options of the game on the table
    expect(page.locator("#rules-options input[name=redeals]")).to_have_value("0")
    expect(page.locator("#rules-options input[name=redeal_anytime]")).not_to_be_checked()
    page.click("#rules-close")
    page.reload()
    page.wait_for_selector(f'#table[data-game="{variant}"]')
    open_deal(page, ALEXANDER, 10)
    page.select_option("#game", variant)  # still offered after the page was opened again
    page.wait_for_selector(f'#table[data-game="{variant}"]')


def test_a_hint_the_solver_cannot_prove_is_shown_as_its_best_guess(page: Page) -> None:
    open_deal(page, ACEY, 13)  # undecided after a minute; the hint's 3 s end in a guess: deal
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if request.url.endswith("/hint") else None)
    page.click("#hint")
    page.keyboard.press("h")  # the button waits for the answer, and so does its key: no second question
    expect(page.locator("#toast")).to_have_text("the solver is looking for a winning move…")
    expect(page.locator("#toast")).to_contain_text(
        "Best guess: a deal from the stock. No win or loss proved", timeout=15_000
    )
    expect(page.locator("#table .hint.guess")).to_have_count(1)  # drawn apart from a proved hint
    assert len(asked) == 1, asked


def test_a_hint_in_a_lost_position_lights_the_undo_that_mends_it(page: Page) -> None:
    open_deal(page, "fan", 4)
    for moves, text in enumerate(["t4 t0", "t14 t3", "t0 f1", "t0 t16"], 1):
        page.fill("#command", text)
        page.keyboard.press("Enter")
        table_at(page, moves=moves)
    page.click("#hint")
    expect(page.locator("#toast")).to_contain_text("undo 3 times and it can still be won")
    expect(page.locator("#undo")).to_have_class(re.compile(r"\bhint\b"))
    page.fill("#command", "undo 3")
    page.keyboard.press("Enter")
    table_at(page, moves=1)
    expect(page.locator("#undo")).not_to_have_class(re.compile(r"\bhint\b"))
    page.click("#hint")
    expect(page.locator("#toast")).to_contain_text("Hint:")


def test_a_lost_game_asks_the_solver_where_it_went_wrong(page: Page) -> None:
    open_deal(page, ALEXANDER, 8)
    for moves, text in enumerate(["t11 t5", "t3 t2", "t6 t8", "t1 f0"], 1):
        page.fill("#command", text)
        page.keyboard.press("Enter")
        table_at(page, moves=moves)
    expect(page.locator("#result-title")).to_have_text("No moves left")
    expect(page.locator("#result-text")).to_contain_text("Deal 8 of Alexander the Great: 4 moves")
    page.click("#result-why")
    expect(page.locator("#toast")).to_contain_text("undo twice and it can still be won")
    expect(page.locator("#undo")).to_have_class(re.compile(r"\bhint\b"))


def test_arrow_keys_on_the_game_menu_switch_only_on_enter(page: Page) -> None:
    open_deal(page, ALEXANDER, 10)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.focus("#game")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    chosen = page.eval_on_selector("#game", "select => select.value")
    assert chosen != ALEXANDER
    page.wait_for_timeout(300)
    assert not [url for url in requests if "/api/plays" in url], "no game opened while the names go by"
    table_at(page, moves=0, game=ALEXANDER, deal=10)
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#table[data-game="{chosen}"]')
    page.focus("#game")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Escape")  # back to the game on the table, not a switch
    assert page.eval_on_selector("#game", "select => select.value") == chosen
    page.locator("body").click(position={"x": 5, "y": 5})  # the menu loses the focus
    page.wait_for_timeout(300)
    assert page.locator("#table").get_attribute("data-game") == chosen


def test_acey_stuck_with_only_passes_between_foundations_says_so(page: Page) -> None:
    page.goto(f"/?game={ACEY}&deal=1")
    table_at(page, moves=0, game=ACEY, deal=1)
    answer = page.request.post(
        "/api/plays", data={"game": ACEY, "position": acey_stuck_after_the_last_deal()}
    )
    assert answer.status == 201
    page.reload()
    table_at(page, moves=0, game=ACEY)
    play(page, {"deal": "stock"})
    expect(page.locator("#result-title")).to_have_text("Stuck")
    expect(page.locator("#result-text")).to_contain_text(
        "Stuck: only passes between foundations are left, and they can never free another card."
        " Undo to try another way"
    )
    expect(page.locator("#facts")).to_contain_text("stuck")


def test_a_deal_with_no_move_is_lost_at_once(page: Page) -> None:
    open_deal(page, ALEXANDER, 22)
    expect(page.locator("#result-title")).to_have_text("No moves left")
    expect(page.locator("#result-text")).to_contain_text("Deal 22 of Alexander the Great: 0 moves")
    expect(page.locator("#result-why")).to_be_hidden()  # no move made: nothing to look back on
    page.click("#result-next")
    page.wait_for_selector('#table:not([data-deal="22"])')


def test_winnable_only_says_what_it_proved(page: Page) -> None:
    page.goto("/")
    page.wait_for_selector("#table .slot")
    # the first deal is a random one, which may have no move (45 of Alexander's deals 1-5000)
    close_result(page)
    page.check("#winnable")
    page.click("#new")
    expect(page.locator("#toast")).to_contain_text("the solver proved it", timeout=30_000)


@pytest.mark.parametrize("size", [(390, 844), (768, 1024), (1920, 1080)])
@pytest.mark.parametrize("game", list(FAST_DEALS))
def test_the_table_fits_the_window_without_scrolling(
    browser: Browser, live_server: LiveServer, game: str, size: tuple[int, int]
) -> None:
    width, height = size
    with on_a_screen(browser, live_server, width, height) as page:
        page.goto(f"/?game={game}&deal=5")
        table_at(page, moves=opened_moves(game, 5), game=game, deal=5)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        until(page, lambda: page.evaluate("document.documentElement.scrollHeight") <= height)  # nor down
        right = page.locator("#table .card, #table .slot").evaluate_all(
            "els => Math.max(...els.map(e => e.getBoundingClientRect().right))"
        )
        assert right <= width
        card_width = page.locator("#table .slot").first.bounding_box()
        assert card_width is not None and card_width["width"] >= 40, "cards stay readable"


def test_past_games_fit_a_phone_with_a_long_game_name(browser: Browser, live_server: LiveServer) -> None:
    """The six columns fit a phone, the name of a game with options wrapped (it ran the Time column off)."""
    with on_a_screen(browser, live_server, 390, 844) as page:
        page.goto("/stats")
        game = "alexander-the-great-lucie(redeal_anytime=true)"
        play = page.request.post("/api/plays", data={"game": game, "deal": 182962}).json()
        move = next(m for m in play["legal"] if m["kind"] == "card")
        assert page.request.post(f"/api/plays/{play['id']}/moves", data={"text": move["text"]}).ok
        assert page.request.post("/api/plays", data={"game": game, "deal": 3}).ok  # the first is left
        page.goto("/stats")
        expect(page.locator("#history tbody tr")).to_contain_text("abandoned")
        expect(page.locator("#history tbody tr")).to_contain_text("form), redeal at any time")  # in words
        overflow = page.eval_on_selector_all(
            ".stats .scroll", "els => els.map(e => e.scrollWidth - e.clientWidth)"
        )
        assert overflow == [0, 0]


def test_past_games_say_when_older_ones_are_not_listed(page: Page) -> None:
    """The server sends only the latest games (500): a player of more is told the list stops short."""
    play = page.request.post("/api/plays", data={"game": FAN, "deal": 3}).json()
    move = next(m for m in play["legal"] if m["kind"] == "card")
    assert page.request.post(f"/api/plays/{play['id']}/moves", data={"text": move["text"]}).ok
    assert page.request.post("/api/plays", data={"game": FAN, "deal": 4}).ok  # the first is left: abandoned

    def cut(route: Route) -> None:  # as if the first were past the limit
        stats = route.fetch().json()
        stats["games"][0]["played"] += 1
        route.fulfill(json=stats)

    page.route("**/api/stats", cut)
    page.goto("/stats")
    expect(page.locator("#history tbody tr").last).to_have_text(
        "The latest 1 of the 2 games played are listed."
    )
    expect(page.locator("#per-game tbody tr").first).to_contain_text("0.0%")


def test_a_group_s_piles_share_their_lines_evenly(page: Page) -> None:
    """As few lines as fit, none more than one pile longer than another: a redeal's 13 fans not as 4 + 4 + 4 + 1."""
    page.goto("/")
    page.wait_for_selector("#table .card")
    assert lines_of(page, 13, 600, 500) == [4, 3, 3, 3]
    for fans, width, height in itertools.product((12, 13, 17, 18), (300, 600, 1000), (300, 800)):
        lines = lines_of(page, fans, width, height)
        assert sorted(lines, reverse=True) == lines and lines[0] - lines[-1] <= 1, (
            f"{fans} at {width}x{height}"
        )


def test_a_table_held_keeps_its_way_where_it_would_turn(page: Page) -> None:
    """The phone's ☰ menu holds the table while open, so the room it takes for a moment does not turn it."""
    page.goto("/")
    page.wait_for_selector("#table .card")
    ways = page.evaluate(
        """async () => {
            const {capacities, layout} = await import("/static/layout.js");
            const piles = Array.from({length: 18}, (_, i) => ({id: `fan/${i}`, group: "fan", count: 6}));
            const drawn = (held) => layout(piles, capacities(piles), 390, 700, false, held).down;
            return [drawn(false), drawn(true)];
        }"""
    )
    assert ways == [True, False], "splayed sideways, 18 fans of 6 on an upright phone turn down unless held"


def lines_of(page: Page, fans: int, width: int, height: int) -> list[int]:
    """How many of ``fans`` three-card fans each line holds, on a table of ``width`` × ``height`` pixels."""
    tops = page.evaluate(
        """async ([fans, width, height]) => {
            const {capacities, layout} = await import("/static/layout.js");
            const piles = Array.from({length: fans}, (_, i) => ({id: `fan/${i}`, group: "fan", count: 3}));
            const {boxes} = layout(piles, capacities(piles), width, height, false);
            return piles.map((p) => boxes.get(p.id).y);
        }""",
        [fans, width, height],
    )
    return [len(list(line)) for _, line in itertools.groupby(tops)]


def test_the_page_is_light(page: Page) -> None:
    """The bytes of HTML, scripts and styles the table page loads, as the browser counts them.

    Read (their source, comments and all, with no build step) and sent (gzipped): the first
    keeps the page free of frameworks, the second is what a phone waits for.
    """
    page.goto("/")
    page.wait_for_selector("#table .card")
    sizes: dict[str, list[int]] = page.evaluate(
        """() => Object.fromEntries([performance.getEntriesByType("navigation")[0],
            ...performance.getEntriesByType("resource").filter(e => /[.](js|css)$/.test(e.name))]
            .map(e => [new URL(e.name).pathname, [e.decodedBodySize, e.encodedBodySize]]))"""
    )
    assert {"/", "/static/app.js", "/static/table.js", "/static/cards.js", "/static/style.css"} <= set(sizes)
    read, sent = (sum(size[part] for size in sizes.values()) for part in (0, 1))
    print(f"\npage weight: {read} bytes of HTML+JS+CSS in {len(sizes)} files, {sent} sent")
    assert read < 90_000  # no framework: 85.5 kB with the move box emptied as a move is sent
    assert sent < 32_000  # 29.5 kB


def test_a_message_over_the_table_lets_clicks_through_to_the_cards(page: Page) -> None:
    page.set_viewport_size({"width": 844, "height": 390})  # a phone on its side: the message is over cards
    open_deal(page, "fan", 3)
    assert page.evaluate("getComputedStyle(document.getElementById('toast')).pointerEvents") == "none"
    drag(page, "fan/6", "fan/0")  # refused: the message shows
    expect(page.locator("#toast")).to_be_visible()
    box = page.locator("#toast").bounding_box()
    assert box is not None
    assert page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).id !== 'toast'", [box["x"] + 2, box["y"] + 2]
    )


def test_a_fan_growing_long_reflows_the_table_now_and_then_not_at_every_card(page: Page) -> None:
    page.goto("/")
    page.wait_for_selector("#table .slot")
    spades = ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]  # one a fan, A♠ home
    position = deal_to_dict(fan_position("fan", spades))
    page.request.post("/api/plays", data={"game": "fan", "position": position})
    page.reload()
    table_at(page, moves=0, game="fan")  # a move typed before the page has its game would be dropped
    page.uncheck("#autoplay")
    widths = []
    for index in range(1, len(spades)):  # Q♠ onto K♠, J♠ onto Q♠, ... down to 2♠: a fan of 12
        page.fill("#command", f"t{index} t0")
        page.keyboard.press("Enter")
        table_at(page, moves=index)
        box = slot(page, "fan/5").bounding_box()
        assert box is not None
        widths.append(round(box["width"]))
    assert len(set(widths)) <= 3, widths  # the cards' size changed at most twice, not at every card


def test_autoplay_asked_in_a_tab_that_is_behind_keeps_the_refusal_told(page: Page) -> None:
    """The refusal says why (another tab moved); it used to give way at once to "no card can go home"."""
    open_deal(page, "fan", 1)
    behind = page.context.new_page()
    behind.goto("/")
    table_at(behind, moves=0, game="fan", deal=1)
    state = deal(load_game("fan"), 1)
    play(
        page, move_to_dict(next(m for m in state.legal_moves if m.target and m.target.group != "foundation"))
    )
    behind.keyboard.press("a")
    expect(behind.locator("#toast")).to_contain_text("the game changed in another tab")
    behind.wait_for_timeout(500)
    expect(behind.locator("#toast")).to_contain_text("the game changed in another tab")
    behind.close()


def test_a_tab_that_refuses_storage_plays_all_the_same(page: Page) -> None:
    """A private window may refuse sessionStorage: the table only forgets how a reload should lay it out."""
    page.add_init_script(
        "Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };"
    )
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_deal(page, FAN, 3)
    click_pile(page, "fan/6")
    click_pile(page, "foundation/0")
    table_at(page, moves=1)
    assert errors == []
