"""A scorekeeper room in the browser, end to end (the fixtures of tests/e2e/conftest.py: Debian's
Chromium driven by Playwright against a real server on 127.0.0.1).

The room is played to the end at one table, the dice typed (a wrong entry refused, one taken
back, one earlier round fixed) and the game lands in the history; a DOZZY round fixed in the
page names the tiles that came back. axe-core checks every screen; the screenshots go to a
temporary folder, to look at.
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, expect

from helpers.browser import LOOK, check_axe, finished_games
from helpers.games import DOZZY_ROUNDS
from helpers.wait import DEADLINE


def type_dice(page: Page, dice: str) -> None:
    version = page.evaluate("() => document.querySelectorAll('.moves li').length")
    page.fill("#typed-dice", dice)
    page.press("#typed-dice", "Enter")
    page.wait_for_function("(n) => document.querySelectorAll('.moves li').length > n", arg=version)
    expect(page.locator("#typed-dice")).to_have_value("")


def score(page: Page, box: str) -> None:
    page.click(f"[data-key='score-{box}']")
    page.wait_for_function("() => !document.querySelector('button.score')")


def test_a_scorekeeper_room_records_a_game_typed_at_the_table(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.select_option("#ruleset", "kids")
    page.select_option("#dice-from", "players")
    expect(page.locator("#dice-from-note")).to_contain_text("people only")
    expect(page.locator("#seat-1-kind option[value='bot']")).to_have_count(0)  # people only
    expect(page.locator("#roll-off")).to_be_hidden()
    page.fill("#seat-0-name", "Ann")
    page.fill("#seat-1-name", "Bo")
    page.check("#hot-seat")
    check_axe(page, "lobby, a scorekeeper room")
    page.click("#create")
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]{9}$"))
    code = page.url.rsplit("/", 1)[1]
    expect(page.locator("#keeper-badge")).to_have_text("Scorekeeper room: dice thrown at the table")
    expect(page.locator(".fair")).to_contain_text("no fairness fingerprint")
    expect(page.locator("#roll")).to_be_hidden()
    expect(page.locator("label[for='typed-dice']")).to_have_text("Dice thrown")
    check_axe(page, "scorekeeper room")

    # wrong entries: refused by the page (not digits) and by the server (four dice), shown by the field
    page.fill("#typed-dice", "12x45")
    page.press("#typed-dice", "Enter")
    expect(page.locator("#typed-dice-error")).to_contain_text("digits 1 to 6")
    expect(page.locator("#typed-dice")).to_have_attribute("aria-invalid", "true")
    page.fill("#typed-dice", "1234")
    page.press("#typed-dice", "Enter")
    expect(page.locator("#typed-dice-error")).to_contain_text("you typed 4")
    expect(page.locator("#alert")).to_contain_text("you typed 4")
    check_axe(page, "scorekeeper room, an error")

    # Ann: a throw typed wrong and taken back, then 1 1 1 1 1 in ones
    page.keyboard.press("Escape")
    page.locator("body").press("r")  # R goes to the dice field
    expect(page.locator("#typed-dice")).to_be_focused()
    type_dice(page, "13356")
    expect(page.locator("#typed-dice")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#alert")).to_be_hidden()  # the refusal is over
    expect(page.locator(".die").first).to_have_attribute("aria-label", "Die 1: 1")
    expect(page.locator("#undo")).to_have_text("Undo the last entry (r = 13356)")
    page.click("#undo")
    expect(page.locator(".moves")).to_contain_text("Ann takes back r = 13356")
    type_dice(page, "1 1 1 1 1")
    score(page, "ones")
    expect(page.locator("#turn")).to_have_text("Bo's turn (in this browser)")

    # the rest of the game: every throw five of the round's number (Bo throws twice once)
    boxes = ["ones", "twos", "threes", "fours", "fives", "sixes"]
    for turn in range(1, 12):  # odd: Bo's round (turn + 1) / 2; even: Ann's round turn / 2 + 1
        face = (turn + 1) // 2 if turn % 2 else turn // 2 + 1
        if turn == 3:
            type_dice(page, "22566")
        type_dice(page, str(face) * 5)
        if turn == 6:
            page.screenshot(path=str(LOOK / "web-keeper-desktop.png"), full_page=True)
            page.set_viewport_size({"width": 360, "height": 780})
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            page.screenshot(path=str(LOOK / "web-keeper-phone-playing.png"), full_page=True)
            page.set_viewport_size({"width": 1280, "height": 900})
        score(page, boxes[face - 1])
        if turn == 4:  # Ann fixes her first round: it was 1 1 1 1 2 in ones
            page.click("#fix-round")
            dialog = page.locator("#amend")
            expect(dialog).to_be_visible()
            check_axe(page, "fix an earlier round")
            page.screenshot(path=str(LOOK / "web-keeper-fix.png"))
            page.select_option("#amend-round", label="Ann, round 1: 1 1 1 1 1 → 1 Ones")
            expect(page.locator("#amend-box")).to_have_value("ones")
            # only the boxes the round may fill: not Twos or Threes, which Ann filled later
            offered = page.locator("#amend-box option")
            expect(offered).to_have_text(["1 Ones", "4 Fours", "5 Fives", "6 Sixes"])
            page.fill("#amend-dice", "11112")
            page.click("#amend-save")
            expect(dialog).to_be_hidden()
            expect(page.locator(".moves")).to_contain_text("Corrected: Ann, round 1: ")
            expect(page.locator("table.scorecard tbody tr").first.locator("td").first).to_have_text("4")
    page.wait_for_selector("#standings:not([hidden])")
    expect(page.locator("#standings li").first).to_contain_text("Bo")
    check_axe(page, "scorekeeper room, game over")

    game_id = page.request.get(f"/api/rooms/{code}").json()["game_id"]
    game = next(g for g in finished_games(page) if g["id"] == game_id)
    assert game["dice_from"] == "players" and [s["name"] for s in game["seats"]] == ["Ann", "Bo"]
    ann, bo = (s["total"] for s in game["seats"])
    assert ann == bo - 1  # the same boxes, but Ann's ones were 1 1 1 1 2
    expect(page.locator("#standings")).to_contain_text(f"Ann {ann}")
    page.get_by_role("link", name="Replay this game").click()
    expect(page.locator("#replay-step")).to_contain_text("Step 0 of")
    page.go_back()

    phone = new_page(width=360, height=780, is_mobile=True, has_touch=True)
    phone.goto(f"/r/{code}")
    phone.get_by_role("button", name="Watch the game").click()
    phone.wait_for_selector("table.scorecard")
    expect(phone.locator("#keeper-badge")).to_be_visible()
    expect(phone.locator("#fix-round")).to_be_hidden()  # a spectator fixes nothing
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    check_axe(phone, "scorekeeper room on a phone")
    phone.screenshot(path=str(LOOK / "web-keeper-phone.png"), full_page=True)


def test_a_dozzy_round_fixed_in_the_page_names_the_tiles_that_came_back(new_page: Any, base_url: str) -> None:
    """A DOZZY scorekeeper room: the fix dialog has a field for the tiles that came back; left
    empty where the box leaves a choice, the server's refusal names the choices; filled, the
    round is fixed."""
    from websockets.sync.client import connect

    page = new_page()
    r = page.request.post("/api/rooms", data={"ruleset": "dozzy", "dice_from": "players", "hot_seat": True,
                                              "seats": [{"name": "Anna"}]})
    assert r.ok, r.text()
    room = r.json()
    typed = DOZZY_ROUNDS
    with connect(base_url.replace("http", "ws", 1) + f"/ws/rooms/{room['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "token": room["table_token"]}))
        for n, action in enumerate(typed):
            ws.send(json.dumps({"type": "act", "id": f"a{n}", "version": n, "action": action}))
            while (m := json.loads(ws.recv(timeout=DEADLINE)))["type"] != "ack":
                assert m["type"] != "error", m
    page.goto("/")
    page.evaluate("([code, token]) => localStorage.setItem(`yatzy.room.${code}`, "
                  "JSON.stringify({ token, role: 'table' }))", [room["code"], room["table_token"]])
    page.goto(f"/r/{room['code']}")
    page.click("#fix-round")
    expect(page.locator("#amend-returns")).to_be_visible()
    page.select_option("#amend-box", "n1")
    page.click("#amend-save")
    expect(page.locator("#amend-error")).to_contain_text("s n1 10")  # the choices, in the engine's words
    check_axe(page, "fixing a DOZZY round")
    page.screenshot(path=str(LOOK / "web-fix-dozzy.png"), full_page=True)
    page.fill("#amend-returns", "13")
    page.click("#amend-save")
    expect(page.locator("#amend-error")).to_contain_text("1 to 12")
    page.fill("#amend-returns", "10")
    page.click("#amend-save")
    expect(page.locator("#amend-returns")).to_be_hidden()  # the dialog closed: fixed
    rounds = page.request.get(f"/api/rooms/{room['code']}/rounds").json()
    assert rounds[-1]["box"] == "n1"
