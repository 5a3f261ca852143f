"""The JSON API through FastAPI's TestClient: every endpoint, its refusals, and who sees what."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from fastapi import Request
from fastapi.testclient import TestClient

from cardtable import deal, load_game
from cardtable.core.notation import with_codes
from cardtable.formats import deal_from_dict, deal_to_dict, move_from_dict, move_to_dict
from cardtable.server import errors, solving
from cardtable.server.app import create_app
from cardtable.server.players import COOKIE
from cardtable.solver import Limit, solve
from cardtable.store import DatabaseFileError, Store
from helpers import acey_position, fan_position
from web.positions import ACEY_WINNING_LINE, acey_nearly_won

ALEXANDER = "alexander-the-great"
LUCIE = "alexander-the-great-lucie"
ACEY = "acey-and-kingsley"
FAN = "fan"


def start(client: TestClient, game: str = ALEXANDER, number: int | None = 10, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, **extra}
    if number is not None:
        body["deal"] = number
    response = client.post("/api/plays", json=body)
    assert response.status_code == 201, response.text
    view: dict[str, Any] = response.json()
    return view


def post(client: TestClient, path: str, body: Any = None, status: int = 200) -> dict[str, Any]:
    response = client.post(path, json=body) if body is not None else client.post(path)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def move(client: TestClient, play: str, status: int = 200, **body: Any) -> dict[str, Any]:
    return post(client, f"/api/plays/{play}/moves", body, status)


def winning_line(game: str, number: int) -> list[dict[str, Any]]:
    result = solve(deal(load_game(game), number), Limit(seconds=20))
    assert result.status == "won"
    return [move_to_dict(m) for m in result.moves]


# -- the catalogue, the pages, the cookie ---------------------------------------


def test_games_lists_each_game_with_its_rules(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert {ALEXANDER, LUCIE, ACEY, "fan"} <= set(games)
    assert "redeal" in games[LUCIE]["rules"].lower()
    assert games[LUCIE]["options"] == ["redeals", "redeal_anytime"]
    assert games[LUCIE]["defaults"] == {"redeals": 2, "redeal_anytime": False}
    assert games[LUCIE]["labels"]["redeals"] == "redeals allowed"
    assert games[ALEXANDER]["defaults"] == {}


def test_the_page_gives_a_player_cookie_that_scripts_cannot_read(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert '<main id="table"' in response.text
    cookie = response.headers["set-cookie"].lower()
    assert COOKIE in cookie and "httponly" in cookie and "samesite=lax" in cookie
    assert response.headers["cache-control"] == "no-store", "no shared cache hands one player's cookie to all"
    assert "cache-control" not in client.get("/static/app.js").headers, "the page's files may be kept"
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert client.get("/stats").status_code == 200
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert [client.head(page).status_code for page in ("/", "/stats")] == [200, 200]


def test_a_forged_cookie_is_replaced_not_trusted(client: TestClient) -> None:
    client.cookies.set(COOKIE, "../../etc/passwd")
    response = client.get("/api/stats")
    assert response.status_code == 200
    assert "../" not in response.headers["set-cookie"]


def test_openapi_schema_lists_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/games",
        "/api/plays",
        "/api/plays/current",
        "/api/plays/{play_id}",
        "/api/plays/{play_id}/moves",
        "/api/plays/{play_id}/undo",
        "/api/plays/{play_id}/redo",
        "/api/plays/{play_id}/restart",
        "/api/plays/{play_id}/autoplay",
        "/api/plays/{play_id}/hint",
        "/api/plays/{play_id}/verdict",
        "/api/plays/{play_id}/solution",
        "/api/stats",
    ):
        assert path in paths


def test_the_api_reference_is_a_page_of_our_own_that_needs_nothing_from_elsewhere(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    response = client.get("/docs")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    page = response.text
    for path, methods in schema["paths"].items():
        for method in methods:
            assert f"{method.upper()}</span> <code>{path}</code>" in page
    for name in schema["components"]["schemas"]:
        assert f'id="{name}"' in page and f'href="#{name}"' in page
    assert (
        "<code>text</code>" in page and "terminal notation: t3 f1" in page
    )  # a body's field, with its meaning
    assert "://" not in page  # no script, style or font from a CDN
    assert (
        "any request may be refused with" in page and "Fan" in page
    )  # what every request may meet; each game
    assert list(schema["paths"]["/api/games"]["get"]["responses"]) == ["200"]  # only what it can answer
    refusals = [
        answer
        for operations in schema["paths"].values()
        for operation in operations.values()
        for status, answer in operation["responses"].items()
        if status >= "400"
    ]
    assert refusals and all(
        answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Problem"}
        for answer in refusals
    )
    assert "default-src 'self'" in response.headers["content-security-policy"]
    assert client.get("/redoc").status_code == 404


# -- starting games --------------------------------------------------------------


def test_a_numbered_deal_is_the_cores_deal(client: TestClient) -> None:
    view = start(client, ALEXANDER, 10)
    state = deal(load_game(ALEXANDER), 10)
    assert view["deal"] == 10 and view["status"] == "playing" and view["moves"] == 0
    fans = [p["cards"] for p in view["piles"] if p["group"] == "fan"]
    assert len(fans) == 12 and sum(len(f) for f in fans) == 48
    assert {m["text"] for m in view["legal"]} == {
        f"t{m.source.index} {'f' if m.target.group == 'foundation' else 't'}{m.target.index}"
        for m in state.legal_moves
        if m.source and m.target
    }
    foundations = [(p["base"], p["direction"]) for p in view["piles"] if p["group"] == "foundation"]
    assert foundations == [("A", "up"), ("A", "up"), ("K", "down"), ("K", "down")]
    assert view["redeals_left"] is None and not view["can_redeal"]


def test_the_stock_is_counted_but_face_down(client: TestClient) -> None:
    view = start(client, ACEY, 3)
    stock = next(p for p in view["piles"] if p["group"] == "stock")
    assert stock["count"] == 66 and stock["cards"] == []
    assert view["can_deal"] and any(m["kind"] == "deal" for m in view["legal"])


def test_a_random_deal_and_game_options(client: TestClient) -> None:
    view = start(client, "alexander-the-great-lucie( redeals = 0 )", None)
    assert view["game"] == "alexander-the-great-lucie(redeals=0)"
    assert (
        view["name"] == "Alexander the Great (La Belle Lucie form), no redeals"
    )  # in words, as the page shows it
    assert 1 <= view["deal"] <= 999_999 and view["redeals_left"] is None  # no redeal: no Redeal button
    assert view["rules_note"].startswith("Played with other options: no redeals (instead of 2 redeals).")
    assert start(client, LUCIE, 5)["rules_note"] is None


def test_a_game_can_start_from_a_position(client: TestClient) -> None:
    view = start(client, ACEY, None, position=acey_nearly_won())
    assert view["deal"] is None and view["moves"] == 0
    assert next(p for p in view["piles"] if p["id"] == "reserve/0")["cards"] == ["KS", "QS"]


def test_a_position_labelled_with_a_deal_number_counts_as_that_deal_only_as_dealt(client: TestClient) -> None:
    near_the_end = {**deal_to_dict(fan_position(FAN, ["KC"])), "deal": 5}  # one card from the win
    play = start(client, FAN, None, position=near_the_end)
    assert play["deal"] is None  # any position can carry a number: only the deal as dealt counts as it
    move(client, play["id"], text="t0 f0")
    assert client.get("/api/stats").json()["games"][0]["positions"] is True
    dealt = start(client, FAN, None, position=deal_to_dict(deal(load_game(FAN), 5)))
    assert dealt["deal"] == 5


def test_a_move_that_sets_off_a_refill_says_what_the_stock_put_where(client: TestClient) -> None:
    play = start(client, ACEY, 5)["id"]
    refilled = move(client, play, text="t1 f4")  # Q♥ home: the stock fills t1 at once
    assert refilled["refills"] == [{"pile": "tableau/1", "code": "t1", "card": "6H"}]
    assert move(client, play, text="d")["refills"] == []  # a deal sets off none
    assert post(client, f"/api/plays/{play}/undo")["refills"] == []  # nor does taking moves back
    assert client.get(f"/api/plays/{play}").json()["refills"] == []  # news of the action that made it only


def test_winnable_only_proves_its_deal(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # The draw is fixed, so that the test never depends on luck (random deals
    # of this game are lost 45% of the time): two lost deals, each decided in
    # milliseconds, then a won one.
    drawn = iter([2, 4, 1])
    monkeypatch.setattr(solving, "random_deal", lambda: next(drawn))
    view = start(client, ALEXANDER, None, winnable=True)
    assert view["deal"] == 1
    assert view["message"].startswith("deal 1 can be won: the solver proved it (3 deals tried, ")
    assert solve(deal(load_game(ALEXANDER), view["deal"]), Limit(seconds=20)).status == "won"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "klondike"}, "unknown game: 'klondike'"),
        ({"game": "alexander-the-great-lucie(redeals=x)"}, "takes a whole number"),
        ({"game": ALEXANDER, "deal": 0}, "deal: must be at least 1"),
        ({"game": ALEXANDER, "deal": 2**31}, "deal: must be at most 2147483647"),
        ({"game": ALEXANDER, "deal": "ten"}, "deal: must be a whole number, not 'ten'"),
        ({"game": ALEXANDER, "deal": 1, "winnable": True}, "at most one of"),
        ({"game": ALEXANDER, "colour": "red"}, "colour: not a field of this request"),
        ({}, "game: required"),
        ({"game": ACEY, "position": {"game": ACEY, "piles": {}}}, "missing pile group"),
        (
            {"game": ALEXANDER, "position": acey_nearly_won()},
            "the position is of 'acey-and-kingsley', not of",
        ),
        ({"game": ACEY, "position": {**acey_nearly_won(), "piles": {"stock": [["XX"]]}}}, "not a card: 'XX'"),
        ({"game": FAN, "position": [1]}, "position: must be a JSON object, not [1]"),
        ({"game": ""}, "game: must not be empty, not ''"),
        ({"game": "f" * 101}, "game: must be at most 100 characters, not 'fffff"),
    ],
)
def test_bad_new_games_are_refused_with_a_reason(client: TestClient, body: Any, words: str) -> None:
    response = client.post("/api/plays", json=body)
    assert response.status_code == 422, response.text
    assert words in response.json()["detail"]
    assert client.get("/api/stats").json()["history"] == []


@pytest.mark.parametrize(
    ("content", "kind", "detail"),
    [
        (
            b'{"game": "fan"}',
            "text/plain",
            "the request body must be a JSON object (content-type: application/json)",
        ),
        (
            b"[1, 2]",
            "application/json",
            "the request body must be a JSON object (content-type: application/json)",
        ),
        (
            b"",
            "application/json",
            "the request needs a JSON object as its body (content-type: application/json)",
        ),
        (
            b'{"game": "fan", "position": {"game": "fan", "piles": {"fan": [["' + b"X" * 60_000 + b'"]]}}}',
            "application/json",
            "fan/0: not a card: '" + "X" * 36 + "... (expected rank A23456789TJQK then suit CDHS, like 'TD')",
        ),
    ],
)
def test_a_body_of_the_wrong_kind_is_told_what_to_send(
    client: TestClient, content: bytes, kind: str, detail: str
) -> None:
    response = client.post("/api/plays", content=content, headers={"content-type": kind})
    assert (response.status_code, response.json()["detail"]) == (422, detail)


def test_query_values_are_told_in_words(client: TestClient) -> None:
    play = start(client)["id"]
    for times, detail in [
        ("x", "times: must be a whole number, not 'x'"),
        ("0", "times: must be at least 1"),
        ("9" * 5000, "times: must be a whole number of at most 4300 digits"),
    ]:
        assert post(client, f"/api/plays/{play}/undo?times={times}", status=422)["detail"] == detail


@pytest.mark.parametrize(
    ("content", "status"),
    [
        (b"{not json", 422),
        (b"[" * 50_000, 400),  # nested too deeply for the parser
        (b'"' + b"x" * 70_000 + b'"', 413),
        (b"null", 422),
        (b"[]", 422),
    ],
)
def test_malformed_bodies_are_4xx_never_500(client: TestClient, content: bytes, status: int) -> None:
    response = client.post("/api/plays", content=content, headers={"content-type": "application/json"})
    assert response.status_code == status, response.text
    assert response.json()["detail"]


@pytest.mark.parametrize("content", [b"[" * 50_000, b'{"deal": ' + b"9" * 5000 + b"}", b'{"game": "\xff"}'])
def test_a_body_the_json_reader_gives_up_on_is_told_so(client: TestClient, content: bytes) -> None:
    response = client.post("/api/plays", content=content, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["detail"].startswith("the request body cannot be read as JSON: ")
    assert client.get("/nosuch").json()["detail"] == "no such page or operation: /docs lists the API"
    refused = client.put("/api/plays")
    assert (refused.status_code, refused.headers["allow"]) == (405, "POST")
    assert refused.json()["detail"] == "this path does not take that method: /docs lists what each takes"


def test_malformed_json_is_told_where_as_a_character_not_as_a_field(client: TestClient) -> None:
    response = client.post("/api/plays", content=b'{"game": ', headers={"content-type": "application/json"})
    assert response.json()["detail"] == "malformed json in the request at character 9: expecting value"


def test_a_body_larger_than_it_claims_is_cut_off(client: TestClient) -> None:
    def chunks() -> Any:
        for _ in range(100):
            yield b" " * 1024

    response = client.post("/api/plays", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413


# -- moves, undo, redo, restart, autoplay ------------------------------------------


def test_moves_by_object_and_by_notation(client: TestClient) -> None:
    play = start(client)["id"]
    view = move(client, play, move={"from": "fan/5", "to": "foundation/2", "card": "QC"})
    assert view["moves"] == 1 and view["last"][0]["text"] == "t5 f2"
    assert next(p for p in view["piles"] if p["id"] == "foundation/2")["cards"][-1] == "QC"
    view = move(client, play, text=view["legal"][0]["text"])
    assert view["moves"] == 2
    assert client.get(f"/api/plays/{play}").json()["moves"] == 2


def test_an_illegal_move_says_why_and_changes_nothing(client: TestClient, store: Store) -> None:
    play = start(client)["id"]
    state = deal(load_game(ALEXANDER), 10)
    before = client.get(f"/api/plays/{play}").json()
    saved = store.get(store_player(client), play)
    for body in (
        {"from": "fan/0", "to": "fan/1", "card": "9C"},
        {"from": "fan/0", "to": "fan/1", "card": "2C"},
        {"deal": "stock"},
        {"redeal": None},
    ):
        refused = move(client, play, 409, move=body)
        assert refused["detail"] == with_codes(state, state.why_illegal(move_from_dict(body)) or "")
    # piles named as the page labels them
    assert move(client, play, 409, move={"from": "fan/0", "to": "fan/1", "card": "9C"})["detail"] == (
        "9♣ does not go on 7♦ (t1)"
    )
    refused = move(client, play, 409, text="t0 f0")
    assert refused["detail"] == "illegal move: 't0 f0': 9♣ does not go on A♥ (f0 takes 2♥ next)"
    assert refused["reason"] == "9♣ does not go on A♥ (f0 takes 2♥ next)"  # for a move not typed: a click
    assert client.get(f"/api/plays/{play}").json() == before
    assert store.get(store_player(client), play) == saved


def test_a_pile_the_game_has_not_is_a_malformed_move_as_typed_or_as_an_object(client: TestClient) -> None:
    play = start(client, ALEXANDER, 10)["id"]
    for body in ({"move": {"from": "fan/99", "to": "foundation/0", "card": "AS"}}, {"text": "t99 f0"}):
        refused = move(client, play, 422, **body)
        assert "no pile" in refused["detail"] and "99" in refused["detail"]
    refused = move(client, play, 422, move={"from": "stock/0", "to": "foundation/0", "card": "AS"})
    assert refused["detail"] == (
        'move {"from": "stock/0", "to": "foundation/0", "card": "AS"}: there is no pile stock/0 in this game now'
    )


def test_a_typed_move_that_could_go_up_or_down_home_gives_the_places(client: TestClient) -> None:
    position = acey_position(
        up=(5, 13, 13, 13), down=(7, 13, 13, 13), tableau=["6S", "", "", ""], rest="waste"
    )
    play = start(client, ACEY, None, position=deal_to_dict(position))["id"]
    refused = move(client, play, 422, text="t0")
    assert refused["detail"].startswith("ambiguous move: 't0' could go to f0 (up), f4 (down): say which")
    assert refused["places"] == ["f0 (up)", "f4 (down)"] and "reason" not in refused


def test_the_words_of_the_move_box_are_told_their_own_requests(client: TestClient) -> None:
    """The page's move box and the terminal take 'undo' and 'help' beside moves; the API has requests for them."""
    play = start(client, ALEXANDER, 10)["id"]
    refused = move(client, play, 422, text="Undo 3")
    assert (
        refused["detail"]
        == f"not a move: 'Undo 3' (undo is a request of its own: POST /api/plays/{play}/undo)"
    )
    told = move(client, play, 422, text="help")["detail"]
    assert "'t3 f1'" in told and f"POST /api/plays/{play}/WORD" in told and "undo, redo" in told
    assert "'help' lists all" in move(client, play, 422, text="xyz")["detail"]  # which is now true here too
    assert client.get(f"/api/plays/{play}").json()["moves"] == 0


@pytest.mark.parametrize(
    "body",
    [
        {"move": {"from": "fan/0", "to": "fan/1"}},
        {"move": {"from": "fan/99", "to": "fan/1", "card": "9C"}},
        {"move": {"from": "fan", "to": "fan/1", "card": "9C"}},
        {"move": {"deal": "waste"}},
        {"move": {"deal": "\ud800"}},  # a lone surrogate, quoted in the refusal as its escape
        {"move": {"from": "fan/0", "to": "\ud800/0", "card": "9C"}},
        {"move": {"from": "fan/" + "9" * 5000, "to": "fan/1", "card": "9C"}},  # more digits than int() takes
        {"move": [1, 2]},
        {"text": "t3 t4 t5 t6"},
        {"text": ""},
        {"text": "x" * 41},
        {"move": {"deal": "stock"}, "text": "d"},
        {},
    ],
)
def test_malformed_moves_are_422(client: TestClient, body: Any) -> None:
    play = start(client)["id"]
    sent = json.dumps(
        body
    )  # escaped as ASCII, as a client may: the client's own encoder refuses a lone surrogate
    response = client.post(
        f"/api/plays/{play}/moves", content=sent, headers={"content-type": "application/json"}
    )
    assert response.status_code in (409, 422), response.text
    assert response.json()["detail"]
    assert client.get(f"/api/plays/{play}").json()["moves"] == 0


def test_undo_redo_and_restart(client: TestClient) -> None:
    play = start(client)["id"]
    line = winning_line(ALEXANDER, 10)
    for m in line[:3]:
        move(client, play, move=m)
    view = post(client, f"/api/plays/{play}/undo")
    assert (view["moves"], view["redo"]) == (2, 1)
    assert view["last"][0]["from"] == line[2]["from"]
    view = post(client, f"/api/plays/{play}/redo")
    assert (view["moves"], view["redo"]) == (3, 0)
    view = post(client, f"/api/plays/{play}/restart")
    assert (view["moves"], view["redo"]) == (0, 3)
    assert move(client, play, move=line[0])["redo"] == 2, "making the next redo move keeps the rest"
    view = post(client, f"/api/plays/{play}/undo")
    assert (view["moves"], view["redo"]) == (0, 3)
    other = next(m for m in view["legal"] if m["from"] != line[0]["from"])
    assert move(client, play, text=other["text"])["redo"] == 0, "a different move ends the redo line"
    post(client, f"/api/plays/{play}/undo")
    assert post(client, f"/api/plays/{play}/undo", status=409)["detail"].startswith("nothing to undo")
    post(client, f"/api/plays/{play}/redo")
    assert post(client, f"/api/plays/{play}/redo", status=409)["detail"] == "nothing to redo"
    post(client, f"/api/plays/{play}/restart")
    assert (
        post(client, f"/api/plays/{play}/restart", status=409)["detail"] == "already at the start of the deal"
    )


def test_a_change_asked_from_an_old_view_is_refused_and_changes_nothing(client: TestClient) -> None:
    """Another tab moved meanwhile: a move chosen on the old table may mean another card on the new one."""
    view = start(client)
    play, seen = view["id"], view["board"]
    line = winning_line(ALEXANDER, 10)
    moved = move(client, play, move=line[0], board=seen)
    assert moved["board"] != seen
    refused = move(client, play, 409, move=line[1], board=seen)
    assert refused["detail"].startswith("the game changed in another tab or window")
    assert refused["play"] == client.get(f"/api/plays/{play}").json(), (
        "the refusal shows the play as it stands"
    )
    for action in ("undo", "redo", "restart", "autoplay"):
        answer = client.post(f"/api/plays/{play}/{action}", params={"board": seen})
        assert answer.status_code == 409, (action, answer.text)
        assert answer.json()["play"]["board"] == moved["board"]
    after = client.get(f"/api/plays/{play}").json()
    assert (after["moves"], after["redo"], after["board"]) == (1, 0, moved["board"])
    post(client, f"/api/plays/{play}/hint")  # counted on the record, but no card moved
    assert move(client, play, move=line[1], board=moved["board"])["moves"] == 2


def test_a_redo_line_changed_in_another_tab_refuses_a_redo_chosen_on_the_old_one(client: TestClient) -> None:
    """The same cards, another line to redo: a redo would make moves the page never showed."""
    view = start(client)
    play = view["id"]
    line = winning_line(ALEXANDER, 10)
    move(client, play, move=line[0])
    seen = post(client, f"/api/plays/{play}/undo")  # this tab shows line[0] waiting to be redone
    other = next(m for m in seen["legal"] if (m["from"], m["to"]) != (line[0].get("from"), line[0].get("to")))
    move(client, play, move={k: other[k] for k in ("from", "to", "card")})  # another tab: another move,
    elsewhere = post(client, f"/api/plays/{play}/undo")  # taken back: the cards as this tab shows them
    assert [p["cards"] for p in elsewhere["piles"]] == [p["cards"] for p in seen["piles"]]
    assert elsewhere["board"] != seen["board"]
    answer = client.post(f"/api/plays/{play}/redo", params={"board": seen["board"]})
    assert answer.status_code == 409 and answer.json()["detail"].startswith("the game changed in another tab")


def test_an_answer_of_the_solver_names_the_table_it_answers_for(client: TestClient) -> None:
    view = start(client)
    answer = post(client, f"/api/plays/{view['id']}/hint")
    assert answer["board"] == view["board"] and answer["at"] == 0


def test_autoplay_moves_are_undone_with_the_move_that_set_them_off(client: TestClient) -> None:
    play = start(client)["id"]
    view = move(client, play, move={"from": "fan/5", "to": "foundation/2", "card": "QC"}, autoplay=True)
    assert view["autoplay_safe"]
    made = view["moves"]
    assert made > 1 and len(view["last"]) == made
    view = post(client, f"/api/plays/{play}/undo")
    assert (view["moves"], view["redo"]) == (0, made)
    view = post(client, f"/api/plays/{play}/redo")
    assert (view["moves"], view["redo"]) == (made, 0)


def test_the_autoplay_endpoint_sends_home_what_is_safe(client: TestClient) -> None:
    play = start(client)["id"]
    view = post(client, f"/api/plays/{play}/autoplay")
    assert view["moves"] >= 1
    assert all(m["to"].startswith("foundation/") for m in view["last"])
    assert post(client, f"/api/plays/{play}/undo")["moves"] == 0


def test_autoplay_ends_a_redo_line_it_leaves(client: TestClient) -> None:
    """Autoplay makes moves like any other: a redo line made before them may no longer be legal."""
    play = start(client, "fan", 42)["id"]
    move(client, play, text="t1 f2")
    assert post(client, f"/api/plays/{play}/undo")["redo"] == 1
    view = post(client, f"/api/plays/{play}/autoplay")
    assert view["moves"] >= 1 and view["last"][0]["to"] == "foundation/0"  # as a double-click sends it
    assert view["redo"] == 0
    assert post(client, f"/api/plays/{play}/redo", status=409)["detail"] == "nothing to redo"
    view = post(client, f"/api/plays/{play}/undo")
    assert (view["moves"], view["redo"]) == (0, len(view["last"]))
    assert post(client, f"/api/plays/{play}/redo")["redo"] == 0, "the redo line is the autoplay's, whole"


def test_moves_that_follow_the_redo_line_keep_the_rest_of_it(client: TestClient) -> None:
    play = start(client)["id"]
    autoplayed = post(client, f"/api/plays/{play}/autoplay")["last"]
    nxt = move(client, play, text=next(m["text"] for m in client.get(f"/api/plays/{play}").json()["legal"]))
    post(client, f"/api/plays/{play}/undo")
    assert post(client, f"/api/plays/{play}/undo")["redo"] == len(autoplayed) + 1
    assert post(client, f"/api/plays/{play}/autoplay")["redo"] == 1, "it made the redo line's next moves"
    assert post(client, f"/api/plays/{play}/redo")["last"] == nxt["last"]
    post(client, f"/api/plays/{play}/restart")
    view = move(client, play, move={k: autoplayed[0][k] for k in ("from", "to", "card")}, autoplay=True)
    assert view["redo"] == 1, "a move and the autoplay it set off: the redo line's next moves"


def test_a_deal_opened_with_autoplay_has_its_safe_cards_home_and_stays_untouched(client: TestClient) -> None:
    assert start(client, FAN, 2)["moves"] == 0, "without autoplay, the deal as dealt"
    view = start(client, FAN, 2, autoplay=True)
    play = view["id"]
    assert (view["moves"], view["touched"]) == (3, False)  # fan deal 2 has three cards to send home
    assert all(m["to"].startswith("foundation/") for m in view["last"])
    assert client.get(f"/api/plays/{play}").json()["moves"] == 3, "saved with the deal"
    view = post(client, f"/api/plays/{play}/undo")
    assert (view["moves"], view["redo"], view["touched"]) == (0, 3, False), "one undo takes them back"
    view = post(client, f"/api/plays/{play}/redo")
    assert (view["moves"], view["redo"], view["touched"]) == (3, 0, False)
    post(client, f"/api/plays/{play}/undo")
    assert post(client, f"/api/plays/{play}/autoplay")["touched"] is False, (
        "'autoplay now' on the deal: its own"
    )


def test_a_deal_only_autoplayed_is_forgotten_and_one_touched_is_abandoned(client: TestClient) -> None:
    opened = start(client, FAN, 2, autoplay=True)["id"]
    undone = start(client, FAN, 3, autoplay=True)["id"]
    post(client, f"/api/plays/{undone}/undo")  # the deal's autoplay taken back: still no move by hand
    played = start(client, FAN, 4, autoplay=True)
    assert [client.get(f"/api/plays/{p}").status_code for p in (opened, undone)] == [404, 404]
    assert client.get("/api/stats").json() == {"games": [], "history": []}
    view = move(client, played["id"], text=played["legal"][0]["text"], autoplay=True)
    assert view["touched"] is True
    view = post(client, f"/api/plays/{played['id']}/undo")
    assert (view["moves"], view["touched"]) == (played["moves"], True), "a move taken back was made"
    start(client, FAN, 5, autoplay=True)
    stats = client.get("/api/stats").json()
    assert [(g["played"], g["won"]) for g in stats["games"]] == [(1, 0)]
    assert [(h["id"], h["status"]) for h in stats["history"]] == [(played["id"], "abandoned")]


def test_a_restart_with_autoplay_sends_the_safe_cards_home_again(client: TestClient) -> None:
    view = start(client, FAN, 2, autoplay=True)
    play = view["id"]
    move(client, play, text=view["legal"][0]["text"])
    view = post(client, f"/api/plays/{play}/restart?autoplay=true")
    assert (view["moves"], view["redo"], view["touched"]) == (3, 1, True)
    assert post(client, f"/api/plays/{play}/restart")["moves"] == 0, "without autoplay, the deal as dealt"
    post(client, f"/api/plays/{play}/redo")  # the deal's autoplay
    view = post(client, f"/api/plays/{play}/undo")
    assert (view["moves"], view["redo"]) == (0, 4)
    made = move(client, play, text=view["legal"][-1]["text"])  # another way than the autoplay's
    view = post(client, f"/api/plays/{play}/restart?autoplay=true")
    assert (view["moves"], view["redo"]) == (0, made["moves"]), "a line that did not begin with it is kept"


def test_no_autoplay_where_it_is_not_provably_safe(client: TestClient) -> None:
    play = start(client, ACEY, 3)["id"]
    view = post(client, f"/api/plays/{play}/autoplay")
    assert not view["autoplay_safe"] and view["moves"] == 0


def test_lucie_redeals_only_when_the_rules_allow(client: TestClient) -> None:
    view = start(client, LUCIE, 12)
    play = view["id"]
    assert view["redeals_left"] == 2 and not view["can_redeal"]
    refused = move(client, play, 409, move={"redeal": None})
    assert refused["detail"] == "a redeal is allowed only when no other move is possible"
    line = winning_line(LUCIE, 12)
    first = next(i for i, m in enumerate(line) if "redeal" in m)
    for m in line[:first]:
        view = move(client, play, move=m)
    assert view["can_redeal"] and any(m["kind"] == "redeal" for m in view["legal"])
    view = move(client, play, move={"redeal": None})
    assert view["redeals_left"] == 1 and view["last"][0]["kind"] == "redeal"
    assert post(client, f"/api/plays/{play}/undo")["redeals_left"] == 2


# -- the solver -------------------------------------------------------------------


def test_hint_gives_the_first_move_of_a_winning_line(client: TestClient) -> None:
    play = start(client)["id"]
    hint = post(client, f"/api/plays/{play}/hint")
    assert hint["status"] == "won" and len(hint["moves"]) == 1 and hint["at"] == 0
    view = move(client, play, text=hint["moves"][0]["text"])
    assert post(client, f"/api/plays/{play}/hint")["status"] == "won"
    assert client.get(f"/api/plays/{play}").json()["hints"] == 2
    assert view["moves"] == 1
    assert (
        post(client, f"/api/plays/{play}/hint")["moves"] == post(client, f"/api/plays/{play}/hint")["moves"]
    )
    assert client.get(f"/api/plays/{play}").json()["hints"] == 2  # the same hint asked again: one hint


def test_still_winnable_is_honest(client: TestClient) -> None:
    won = post(client, f"/api/plays/{start(client, ALEXANDER, 10)['id']}/verdict")
    assert won["status"] == "won" and won["message"].startswith("winnable")
    lost = post(client, f"/api/plays/{start(client, ALEXANDER, 2)['id']}/verdict")
    assert lost["status"] == "unwinnable" and "proved" in lost["message"]


def test_a_lost_position_says_how_many_undos_bring_back_a_win(client: TestClient) -> None:
    play = start(client, "fan", 4)["id"]
    for text in ["t4 t0", "t14 t3", "t0 f1", "t0 t16"]:
        move(client, play, text=text)
    for question in ("hint", "verdict", "solution"):
        answer = post(client, f"/api/plays/{play}/{question}")
        assert (answer["status"], answer["undo"]) == ("unwinnable", 3)
        assert answer["message"].endswith("; undo 3 times and it can still be won")
    view = post(client, f"/api/plays/{play}/undo?times=3")
    assert (view["moves"], view["redo"]) == (1, 3)
    hint = post(client, f"/api/plays/{play}/hint")
    assert hint["status"] == "won" and hint["undo"] is None


def test_a_lost_position_says_restart_or_lost_from_the_start(client: TestClient) -> None:
    play = start(client, "fan", 1)["id"]
    for text in ["t4 t12", "t13 t0", "t16 t7", "t10 t16"]:
        move(client, play, text=text)
    answer = post(client, f"/api/plays/{play}/verdict")
    assert answer["undo"] == 4 and answer["message"].endswith(
        "; only the start of the game can still be won: restart"
    )
    play = start(client, ALEXANDER, 2)["id"]
    assert post(client, f"/api/plays/{play}/verdict")["message"].endswith("proved that no line of play wins")
    for text in ["t11 t5", "t7 t4", "t1 t8"]:
        move(client, play, text=text)
    answer = post(client, f"/api/plays/{play}/hint")
    assert answer["undo"] is None
    assert answer["message"].endswith("; nor could any earlier position: the game was lost from its start")


def test_undo_times_takes_back_that_many_moves_with_their_autoplay(client: TestClient) -> None:
    play = start(client)["id"]
    view = move(client, play, move={"from": "fan/5", "to": "foundation/2", "card": "QC"}, autoplay=True)
    made = view["moves"]
    move(client, play, text=view["legal"][0]["text"])
    refused = post(client, f"/api/plays/{play}/undo?times=3", status=409)
    assert refused["detail"] == "cannot undo 3 times: only 2 undos left"
    assert post(client, f"/api/plays/{play}/undo?times=0", status=422)
    view = post(client, f"/api/plays/{play}/undo?times=2")
    assert (view["moves"], view["redo"]) == (0, made + 1)


def test_unknown_when_the_budget_runs_out(store: Store) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from cardtable.server.solving import Budgets

    with (
        ThreadPoolExecutor(1) as pool,
        TestClient(create_app(store, executor=pool, budgets=Budgets(verdict=0.2, hint=1))) as c,
    ):
        play = start(c, ACEY, 13)["id"]  # still undecided after 60 s and 7 million positions
        answer = post(c, f"/api/plays/{play}/verdict")
        assert (
            answer["status"] == "unknown"
            and answer["message"] == "unknown: the solver could not decide within 0.2 s"
        )
        assert answer["guess"] is None  # "still winnable?" asks for a verdict, not a move
        # a hint then is the solver's best guess, apart from the moves of a proved win
        # (its beams judge their first levels within milliseconds)
        hint = post(c, f"/api/plays/{play}/hint")
        assert (hint["status"], hint["moves"], hint["guess"]["text"]) == ("unknown", [], "d")
        assert hint["message"].endswith("its best guess is d, not proved to win")


def test_show_me_gives_the_whole_line_and_marks_the_game(client: TestClient) -> None:
    play = start(client, ACEY, None, position=acey_nearly_won())["id"]
    line = post(client, f"/api/plays/{play}/solution")
    assert line["status"] == "won" and len(line["moves"]) >= 8
    for m in line["moves"]:
        body = {k: m[k] for k in ("from", "to", "card")} if m["kind"] == "card" else {m["kind"]: "stock"}
        view = move(client, play, move=body)
    assert view["status"] == "won" and view["assisted"]


def test_show_me_with_no_line_to_show_does_not_mark_the_game(client: TestClient) -> None:
    play = start(client, ALEXANDER, 2)["id"]
    answer = post(client, f"/api/plays/{play}/solution")
    assert answer["status"] == "unwinnable" and answer["moves"] == []
    assert not client.get(f"/api/plays/{play}").json()["assisted"]


# -- winning, losing, statistics ------------------------------------------------------


def test_a_won_game_counts_and_is_closed(client: TestClient) -> None:
    play = start(client, ACEY, None, position=acey_nearly_won())["id"]
    for m in ACEY_WINNING_LINE:
        view = move(client, play, move=m)
    assert view["status"] == "won" and view["legal"] == [] and view["moves"] == 9
    assert move(client, play, 409, move={"deal": "stock"})["detail"].startswith("the game is won")
    assert post(client, f"/api/plays/{play}/undo", status=409)["detail"].startswith("the game is won")
    stats = client.get("/api/stats").json()
    assert stats["games"] == [
        {
            "game": ACEY,
            "name": "Acey and Kingsley",
            "played": 1,
            "won": 1,
            "win_rate": 1.0,
            "current_streak": 1,
            "best_streak": 1,
            "positions": True,  # a position of one's own, not a deal: a row apart
        }
    ]
    assert stats["history"][0]["status"] == "won" and stats["history"][0]["moves"] == 9


def test_a_whole_deal_won_move_by_move(client: TestClient) -> None:
    play = start(client, LUCIE, 12)["id"]
    for m in winning_line(LUCIE, 12):
        view = move(client, play, move=m)
    assert view["status"] == "won" and view["redeals_left"] == 0


def test_losses_and_abandoned_games_end_streaks(client: TestClient) -> None:
    lost = start(client, ALEXANDER, 22)  # no move at all from the deal
    assert lost["status"] == "lost" and lost["legal"] == [] and lost["stuck"] is None  # no move at all
    start(client, ALEXANDER, 10)  # not played: forgotten when the next starts
    play = start(client, ALEXANDER, 10)["id"]
    move(client, play, text="t5 f2")
    start(client, ALEXANDER, 11)  # abandons the game with a move
    games = client.get("/api/stats").json()
    assert [(g["played"], g["won"], g["current_streak"]) for g in games["games"]] == [(2, 0, 0)]
    assert [h["status"] for h in games["history"]] == ["abandoned", "lost"]


def test_a_lost_game_left_for_a_new_one_is_over(client: TestClient, store: Store) -> None:
    """Undo in a tab left on a lost game would take its loss out of the statistics, and leave two games in play."""
    position = fan_position(FAN, ["KC QC JC TC 9C 8C 7C 6C 5C 4C 2C 3C", "AC"])  # AC home, then no move
    lost = start(client, FAN, None, position=deal_to_dict(position))
    lost = move(client, lost["id"], text="t1 f0")
    assert lost["status"] == "lost"
    assert post(client, f"/api/plays/{lost['id']}/undo")["status"] == "playing"  # still its player's game
    lost = post(client, f"/api/plays/{lost['id']}/redo")
    newer = start(client, FAN, 1)
    move(client, newer["id"], text=newer["legal"][0]["text"])
    for change in ("undo", "restart", "autoplay", "hint", "verdict", "solution"):
        refused = post(client, f"/api/plays/{lost['id']}/{change}?board={lost['board']}", status=409)
        assert refused["detail"] == "this game was lost and left for a new one: it is over"
    record = store.get(store_player(client), lost["id"])
    assert record is not None and (record.status, record.hints) == ("lost", 0)
    assert client.get("/api/plays/current", params={"game": FAN}).json()["id"] == newer["id"]
    stats = client.get("/api/stats").json()
    assert [(h["id"], h["status"]) for h in stats["history"]] == [(lost["id"], "lost")]


def test_current_resumes_the_latest_game_of_each_kind(client: TestClient) -> None:
    assert client.get("/api/plays/current").status_code == 404
    a = start(client, ALEXANDER, 10)["id"]
    b = start(client, ACEY, 3)["id"]
    assert client.get("/api/plays/current").json()["id"] == b
    assert client.get("/api/plays/current", params={"game": ALEXANDER}).json()["id"] == a
    assert client.get("/api/plays/current", params={"game": LUCIE}).status_code == 404
    assert client.get("/api/plays/current", params={"game": "nope"}).status_code == 422


# -- who may do what ------------------------------------------------------------


def test_another_players_game_is_not_found(client: TestClient, other: TestClient) -> None:
    play = start(client)["id"]
    for path in ("moves", "undo", "redo", "restart", "autoplay", "hint", "verdict", "solution"):
        body = {"text": "t5 f2"} if path == "moves" else None
        response = other.post(f"/api/plays/{play}/{path}", json=body)
        assert response.status_code == 404, path
        assert response.json()["detail"] == f"no game {play!r}"
    assert other.get(f"/api/plays/{play}").status_code == 404
    assert other.get("/api/plays/current").status_code == 404
    assert other.get("/api/stats").json() == {"games": [], "history": []}
    assert client.get(f"/api/plays/{play}").json()["moves"] == 0


def test_bad_play_ids_are_refused(client: TestClient) -> None:
    assert client.get("/api/plays/nope").status_code == 404
    too_long = client.get("/api/plays/" + "x" * 41)
    assert (too_long.status_code, too_long.json()["detail"]) == (404, "no game '" + "x" * 36 + "...")
    assert client.post("/api/plays/a.b/undo").json()["detail"] == "no game 'a.b'"


def test_a_game_resumes_exactly_from_the_database(store: Store, client: TestClient) -> None:
    play = start(client, LUCIE, 12)["id"]
    line = winning_line(LUCIE, 12)
    for m in line[:30]:
        move(client, play, move=m)
    post(client, f"/api/plays/{play}/undo")
    before = client.get(f"/api/plays/{play}").json()
    again = Store(store.path)
    try:
        fresh = TestClient(create_app(again, executor=lambda: _no_pool()))
        fresh.cookies.update(client.cookies)
        after = fresh.get(f"/api/plays/{play}").json()
    finally:
        again.close()
    assert {**after, "seconds": 0} == {**before, "seconds": 0}
    assert after["redo"] == 1


def _no_pool() -> Any:
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(1)


def test_only_listed_hosts_are_served_and_a_refusal_says_why(store: Store) -> None:
    app = create_app(store, executor=_no_pool(), allowed_hosts=["127.0.0.1", "localhost", "::1"])
    for base in ("http://127.0.0.1:8000", "http://[::1]:8000", "http://LOCALHOST"):
        assert TestClient(app, base_url=base).get("/api/games").status_code == 200, base
    for base in ("http://evil.example", "http://evil.example:8000", "http://[::2]:8000"):
        refused = TestClient(app, base_url=base).get("/api/games")
        assert refused.status_code == 400 and "is not this server's name" in refused.json()["detail"], base
        assert refused.headers["x-content-type-options"] == "nosniff"


def test_a_server_open_to_the_network_takes_any_address_and_its_names_but_no_other(store: Store) -> None:
    allowed = ["127.0.0.1", "localhost", "box.local"]
    app = create_app(store, executor=_no_pool(), allowed_hosts=allowed, any_address=True)
    for base in ("http://192.168.1.5:8000", "http://[fe80::1]:8000", "http://box.local:8000"):
        assert TestClient(app, base_url=base).get("/api/games").status_code == 200, base
    refused = TestClient(app, base_url="http://rebound.example:8000").get("/api/games")
    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        "the host 'rebound.example' is not this server's name: open it by an address or by box.local, localhost"
        " (cardtable serve --allow-host NAME adds a name)"
    )


def test_api_answers_head_as_get_and_is_never_cached(client: TestClient) -> None:
    got, head = client.get("/api/games"), client.head("/api/games")
    assert (head.status_code, head.content) == (200, b"")
    assert head.headers["content-length"] == got.headers["content-length"]
    assert got.headers["cache-control"] == "no-store"
    assert client.head("/api/stats").status_code == 200


def store_player(client: TestClient) -> str:
    from cardtable.server.players import player_key

    token = client.cookies[COOKIE]
    return player_key(token)


def test_json_of_views_is_small(client: TestClient) -> None:
    view = start(client, ACEY, 3)
    assert len(json.dumps(view)) < 20_000


def test_changes_from_another_origin_are_refused(client: TestClient) -> None:
    body = {"game": ALEXANDER, "deal": 10}
    for origin in ("http://127.0.0.1:3000", "https://testserver", "http://[::1"):  # port; scheme; no URL
        refused = client.post("/api/plays", json=body, headers={"origin": origin})
        assert refused.status_code == 403 and "another origin" in refused.json()["detail"], origin
    assert client.get("/api/stats", headers={"origin": "http://127.0.0.1:3000"}).status_code == 200
    assert client.get("/api/plays/current").status_code == 404, "nothing was started"
    assert client.post("/api/plays", json=body, headers={"origin": "http://testserver"}).status_code == 201


def test_a_database_locked_by_another_program_is_a_503_that_changes_nothing(
    client: TestClient, store: Store
) -> None:
    play = start(client)["id"]
    legal = move_to_dict(next(iter(deal(load_game(ALEXANDER), 10).legal_moves)))
    before = store.get(store_player(client), play)
    store._db.execute("PRAGMA busy_timeout = 50")  # not five seconds of waiting in a test
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program holds the file
    try:
        refused = move(client, play, 503, move=legal)
        assert (
            refused["detail"] == "the game database cannot be used just now (database is locked): try again"
        )
        assert post(client, "/api/plays", {"game": ALEXANDER, "deal": 3}, 503)["detail"].endswith("try again")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store.get(store_player(client), play) == before
    assert move(client, play, move=legal)["moves"] == 1


def test_a_database_that_cannot_be_written_is_a_500_that_says_why_not_try_again(store: Store) -> None:
    """SQLite's own refusal, from a connection it opened read-only: waiting would not mend it."""
    reader = sqlite3.connect(f"{Path(store.path).absolute().as_uri()}?mode=ro", uri=True)
    try:
        with pytest.raises(sqlite3.Error) as refused:
            reader.execute("DELETE FROM plays")
    finally:
        reader.close()
    answer = asyncio.run(errors._database(Request({"type": "http"}), refused.value))
    assert answer.status_code == 500
    assert json.loads(bytes(answer.body)) == {
        "detail": "the game database cannot be used (attempt to write a readonly database):"
        " the server's keeper must see to it"
    }


def test_a_database_damaged_under_a_running_server_is_a_500_that_says_so_not_try_again(
    tmp_path: Path,
) -> None:
    path = tmp_path / "damaged.sqlite"
    with (
        closing(Store(path)) as store,
        ThreadPoolExecutor(1) as pool,
        TestClient(create_app(store, executor=pool)) as c,
    ):
        for number in range(1, 40):
            start(c, "fan", number)
        with closing(sqlite3.connect(path)) as other:  # the latest pages, from the log into the file
            other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        with path.open("r+b") as file:  # pages 2 to 4 overwritten: the tables' pages
            file.seek(4096)
            file.write(b"\xff" * 3 * 4096)
        with closing(sqlite3.connect(path)) as other:  # a change the server sees: it reads its pages again
            other.execute("PRAGMA user_version = 1")
        answer = c.get("/api/stats")
    assert answer.status_code == 500
    assert answer.json()["detail"] == (
        "the game database is damaged (database disk image is malformed): the server's keeper must restore it"
    )
    with pytest.raises(
        DatabaseFileError, match=r"^cannot open the database '.*': it is damaged \("
    ):  # and the next start is refused
        Store(path)


@pytest.mark.parametrize(
    ("column", "value", "why"),
    [
        ("moves", "not json", "moves: Expecting value"),
        ("moves", '[{"from": "fan/0", "to": "fan/1", "card": "AS"}]', "illegal move"),
        ("status", "weird", "status 'weird'"),
    ],
)
def test_a_stored_game_changed_by_hand_is_a_500_that_names_it(
    client: TestClient, store: Store, column: str, value: str, why: str
) -> None:
    play = start(client)["id"]
    with sqlite3.connect(store.path) as db:
        db.execute(f"UPDATE plays SET {column} = ? WHERE id = ?", (value, play))
    answer = client.get(f"/api/plays/{play}")
    assert answer.status_code == 500
    assert answer.json()["detail"].startswith(f"the stored game {play!r} is damaged (")
    assert why in answer.json()["detail"]


def test_a_hint_fits_the_very_position_not_one_that_holds_the_cards_elsewhere(client: TestClient) -> None:
    state = deal(load_game(ALEXANDER), 1)
    line = solve(state, Limit(seconds=30)).moves
    first = line[0]
    assert first.source is not None and first.source.group == "fan"
    position = deal_to_dict(state)
    fans = position["piles"]["fan"]
    other = next(i for i, fan in enumerate(fans) if fan != fans[first.source.index])
    fans[first.source.index], fans[other] = fans[other], fans[first.source.index]
    twin = deal_from_dict(position)
    assert twin.key() == state.key() and twin.why_illegal(first) is not None
    shown = post(client, f"/api/plays/{start(client, ALEXANDER, 1)['id']}/solution")
    assert shown["status"] == "won"  # the server now knows deal 1's line
    hinted = post(client, f"/api/plays/{start(client, ALEXANDER, None, position=position)['id']}/hint")
    assert hinted["status"] == "won"
    move = hinted["moves"][0]
    assert twin.why_illegal(move_from_dict(move)) is None  # a move as formats.md writes it, text aside


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"game": "fan", "deal": True}, "deal: must be a whole number, not true"),
        ({"game": "fan", "deal": "7"}, "deal: must be a whole number, not '7'"),
        ({"game": "fan", "winnable": "yes"}, "winnable: must be true or false, not 'yes'"),
        ({"game": 7}, "game: must be a string, not 7"),
    ],
)
def test_a_value_of_another_json_type_is_refused_not_read_as_something(
    client: TestClient, body: dict[str, Any], problem: str
) -> None:
    assert post(client, "/api/plays", body, 422)["detail"] == problem


def test_a_position_already_won_is_no_game_to_start(client: TestClient) -> None:
    won = deal_to_dict(fan_position("fan", []))  # every card home
    refused = post(client, "/api/plays", {"game": "fan", "position": won}, 422)
    assert refused["detail"] == "the position is already won: every card is on the foundations"
    assert client.get("/api/stats").json()["history"] == []


def test_an_empty_pile_says_whether_it_takes_a_card_again(client: TestClient) -> None:
    position = deal_to_dict(fan_position(LUCIE, ["KC", "KD"]))  # fans 2 to 17 empty: a Lucie fan stays so
    piles = {p["id"]: p for p in start(client, LUCIE, None, position=position)["piles"]}
    assert piles["fan/5"]["takes"] and not piles["fan/5"]["takes_when_empty"]
    assert piles["foundation/0"]["takes_when_empty"]
    in_fan = {
        p["id"]: p
        for p in start(client, "fan", None, position=deal_to_dict(fan_position("fan", ["KC"])))["piles"]
    }
    assert in_fan["fan/5"]["takes_when_empty"]  # a king may fill it


def test_a_hint_the_busy_solver_refuses_is_not_counted(client: TestClient, store: Store) -> None:
    play = start(client)["id"]
    client.app.state.solver.queue = 0  # type: ignore[attr-defined]
    refused = post(client, f"/api/plays/{play}/hint", status=503)
    assert refused["detail"] == "the solver is busy with other questions; ask again in a moment"
    record = store.get(store_player(client), play)
    assert record is not None and (record.hints, record.version) == (0, 0)  # as started, untouched


def test_a_game_over_gains_no_play_time_or_hints_from_questions(client: TestClient, store: Store) -> None:
    play = start(client, ACEY, None, position=acey_nearly_won())["id"]
    for m in ACEY_WINNING_LINE:
        move(client, play, move=dict(m))
    won = store.get(store_player(client), play)
    assert won is not None and won.status == "won"
    assert post(client, f"/api/plays/{play}/hint")["message"] == "the game is won"
    refused = move(client, play, 409, text="t0 f0")  # refused as won, not as a move from an empty pile
    assert refused["detail"] == "the game is won: start the next deal"
    after = store.get(store_player(client), play)
    assert after is not None and (after.seconds, after.hints) == (won.seconds, won.hints)


def test_help_for_a_table_changed_while_the_solver_thought_costs_nothing(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page throws away an answer for a table that has moved on, so it counts neither as a hint nor as help."""
    thinking, answer = threading.Event(), threading.Event()
    solve_position = solving.solve_position

    def held(*args: Any) -> dict[str, Any]:  # the real search, begun only once the table has changed
        thinking.set()
        answer.wait(10)
        return solve_position(*args)

    monkeypatch.setattr(solving, "solve_position", held)
    for question, number in (("hint", 10), ("solution", 12)):
        play = start(client, ALEXANDER, number)
        with ThreadPoolExecutor(1) as asking:
            asked = asking.submit(post, client, f"/api/plays/{play['id']}/{question}")
            assert thinking.wait(10)
            move(client, play["id"], text=play["legal"][0]["text"])
            answer.set()
            answered = asked.result()
        assert answered["status"] == "won" and answered["board"] == play["board"]
        record = store.get(store_player(client), play["id"])
        assert record is not None and (record.hints, record.assisted) == (0, False)
        thinking.clear()
        answer.clear()


def test_a_game_left_for_a_new_one_answers_no_questions(client: TestClient, store: Store) -> None:
    old = start(client, ALEXANDER, 10)["id"]
    legal = move_to_dict(next(iter(deal(load_game(ALEXANDER), 10).legal_moves)))
    move(client, old, move=legal)
    start(client, ALEXANDER, 11)  # the touched game 10 is abandoned
    for question in ("hint", "verdict", "solution"):
        refused = post(client, f"/api/plays/{old}/{question}", status=409)
        assert refused["detail"] == "this game was abandoned for a new one"
    record = store.get(store_player(client), old)
    assert record is not None and record.hints == 0  # a refused hint is not counted
