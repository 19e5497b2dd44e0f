"""The seat rules and late corrections on the page: a hot-seat room's invite offers watching
only (its seats are the table's); a scorekeeper game corrected after its end says so beside
its standings and in the games list."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from helpers.browser import LOOK, check_axe
from helpers.wait import DEADLINE

BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")


def test_a_hot_seat_rooms_invite_offers_watching_only(new_page: Any) -> None:
    page = new_page()
    r = page.request.post("/api/rooms", data={"hot_seat": True, "seats": [{"name": "Ann"}, {"name": "Bo"}]})
    assert r.ok, r.text()
    page.goto(f"/r/{r.json()['code']}")
    expect(page.locator(".join p").first).to_have_text(
        "This room is played on one device, which plays every seat: you may watch.")
    expect(page.locator(".seats-join button")).to_have_count(0)
    expect(page.get_by_role("button", name="Watch")).to_be_visible()
    check_axe(page, "a hot-seat room's invite")
    page.screenshot(path=str(LOOK / "web-hot-seat-invite.png"), full_page=True)


def test_a_game_corrected_after_the_end_says_so(new_page: Any, base_url: str) -> None:
    from websockets.sync.client import connect

    page = new_page()
    r = page.request.post("/api/rooms", data={"ruleset": "kids", "dice_from": "players", "hot_seat": True,
                                              "seats": [{"name": "Ann"}, {"name": "Bo"}]})
    assert r.ok, r.text()
    room = r.json()
    typed = [a for face, box in enumerate(BOXES, start=1) for _seat in (0, 1)
             for a in (f"r = {str(face) * 5}", f"s {box}")]
    with connect(base_url.replace("http", "ws", 1) + f"/ws/rooms/{room['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "token": room["table_token"]}))
        sent = [*({"type": "act", "action": a} for a in typed),
                {"type": "amend", "turn": 1, "dice": [1, 1, 1, 1, 2], "box": "ones"}]
        for n, message in enumerate(sent):
            ws.send(json.dumps({**message, "id": f"a{n}", "version": n}))
            while (m := json.loads(ws.recv(timeout=DEADLINE)))["type"] != "ack":
                assert m["type"] != "error", m
    page.goto("/")
    page.evaluate("([code, token]) => localStorage.setItem(`yatzy.room.${code}`, "
                  "JSON.stringify({ token, role: 'table' }))", [room["code"], room["table_token"]])
    page.goto(f"/r/{room['code']}")
    expect(page.locator("#corrected")).to_have_text("Corrected after the end of the game")
    check_axe(page, "standings corrected after the end")
    page.screenshot(path=str(LOOK / "web-corrected-after-end.png"), full_page=True)
    page.goto("/?screen=games")
    expect(page.locator(".game-item .corrected")).to_have_count(1)
    expect(page.locator(".game-item .corrected")).to_have_text("Corrected after the end of the game")
    page.screenshot(path=str(LOOK / "web-games-corrected.png"), full_page=True)
    print("screenshots in", LOOK)
