"""The browser page's other screens, end to end (the fixtures of tests/e2e/conftest.py: Debian's
Chromium driven by Playwright against a real server on 127.0.0.1).

A scorekeeper room is played to the end at one table, the dice typed (a wrong entry refused,
one taken back, one earlier round fixed) and the game lands in the history; the history is
listed and a game replayed step by step with the keys; the statistics screen draws its
score-distribution chart from /api/stats; the coach's best option is what the server's coach
message says; the analysis shows each player's points lost. axe-core checks every screen.
The statistics screen's screenshot goes to YATZY_SCREENSHOTS (``YATZY_SCREENSHOTS=docs`` renews
docs/web-stats.png), else to a temporary folder; the other screens' go to a temporary folder.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import DOCS, LOOK, check_axe, create_room, finished_games, play_until_over
from helpers.web import DOZZY_ROUNDS


def bot_games(page: Page, n: int, ruleset: str = "kids") -> list[int]:
    """``n`` rooms of two fast bots, played to the end by the server; their game ids."""
    ids = []
    for i in range(n):
        r = page.request.post("/api/rooms", data={
            "ruleset": ruleset, "bot_pace": 0,
            "seats": [{"kind": "bot", "level": "beginner"},
                      {"kind": "bot", "level": "casual", "name": f"Cas {i}"}]})
        assert r.ok, r.text()
        ids.append(page.request.get(f"/api/rooms/{r.json()['code']}").json()["game_id"])
    deadline = time.monotonic() + 30
    while not set(ids) <= {g["id"] for g in finished_games(page, ruleset=ruleset, limit=500)}:
        assert time.monotonic() < deadline, "the bots' games did not end"
        time.sleep(0.1)
    return ids


def type_dice(page: Page, dice: str) -> None:
    version = page.evaluate("() => document.querySelectorAll('.moves li').length")
    page.fill("#typed-dice", dice)
    page.press("#typed-dice", "Enter")
    page.wait_for_function("(n) => document.querySelectorAll('.moves li').length > n", arg=version)
    expect(page.locator("#typed-dice")).to_have_value("")


def score(page: Page, box: str) -> None:
    page.click(f"[data-key='score-{box}']")
    page.wait_for_function("() => !document.querySelector('button.score')")


# ---- a scorekeeper room -----------------------------------------------------------------------

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
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
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
            page.fill("#amend-dice", "11112")
            page.click("#amend-save")
            expect(dialog).to_be_hidden()
            expect(page.locator(".moves")).to_contain_text("Ann's round 1 was corrected.")
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
            while (m := json.loads(ws.recv(timeout=10)))["type"] != "ack":
                assert m["type"] != "error", m
    page.goto("/")
    page.evaluate("([code, token]) => localStorage.setItem(`yatzy.room.${code}`, "
                  "JSON.stringify({ token, role: 'table' }))", [room["code"], room["table_token"]])
    page.goto(f"/r/{room['code']}")
    page.click("#fix-round")
    expect(page.locator("#amend-returns")).to_be_visible()
    page.select_option("#amend-box", "n1")
    page.click("#amend-save")
    expect(page.locator("#amend-error")).to_contain_text("tile 10")  # the choices, in the server's words
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


# ---- history, replays, statistics -------------------------------------------------------------

def test_the_history_a_replay_stepped_with_the_keys_and_the_statistics_chart(new_page: Any) -> None:
    page = new_page()
    ids = bot_games(page, 4)
    page.goto("/")
    page.get_by_role("link", name="Games played").click()
    expect(page.locator("#screen-h")).to_have_text("Games played")
    page.select_option("#games-ruleset", "kids")
    page.wait_for_url(re.compile(r"screen=games&ruleset=kids"))
    expect(page.locator(f"[data-game='{ids[-1]}']")).to_be_visible()
    expect(page.locator(".game-item").first).to_contain_text("won")
    check_axe(page, "games played")
    page.screenshot(path=str(LOOK / "web-history.png"), full_page=True)

    page.locator(f"[data-game='{ids[-1]}'] a").click()
    expect(page.locator("#replay-step")).to_contain_text("Step 0 of")
    steps = page.request.get(f"/api/games/{ids[-1]}").json()["game"]["log"]
    expect(page.locator("#replay-move")).to_have_text("Before the first move.")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_contain_text(f"Step 1 of {len(steps)}")
    expect(page.locator("#replay-move")).to_contain_text(" rolled ")
    at_one = page.request.get(f"/api/games/{ids[-1]}/replay?step=1").json()
    first = at_one["view"]["dice"]
    expect(page.locator("#replay-dice .die").first).to_contain_text(f"Die 1: {first[0]}")
    expect(page.locator("#replay-following")).to_have_text(f"Next move: {at_one['next_words']}")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_contain_text("Step 2 of")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-step")).to_contain_text("Step 1 of")
    assert page.url.endswith("step=1")
    page.keyboard.press("End")
    expect(page.locator("#replay-step")).to_contain_text(f"Step {len(steps)} of {len(steps)}")
    expect(page.locator("#replay-following")).to_have_text("Game over")
    totals = page.request.get(f"/api/games/{ids[-1]}").json()["summary"]["seats"]
    expect(page.locator("table.scorecard tfoot td")).to_have_text([str(s["total"]) for s in totals])
    expect(page.locator("#replay-next")).to_have_attribute("aria-disabled", "true")
    expect(page.locator("#replay-last")).to_have_attribute("aria-disabled", "true")
    check_axe(page, "replay")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-step")).to_contain_text(f"Step {len(steps) - 1} of")
    page.screenshot(path=str(LOOK / "web-replay.png"), full_page=True)

    page.get_by_role("link", name="Statistics").click()
    page.select_option("#stats-ruleset", "kids")
    page.wait_for_selector("svg.chart")
    stats = page.request.get("/api/stats?ruleset=kids").json()
    bins = stats["histogram"]["bins"]
    chart = page.locator("svg.chart")
    expect(chart).to_have_attribute("role", "img")
    assert page.locator("svg.chart rect").count() == sum(1 for b in bins if b["count"])
    expect(page.locator("#chart-desc")).to_contain_text(f"{stats['histogram']['count']} final totals")
    page.screenshot(path=str(DOCS / "web-stats.png"), full_page=True)
    page.click(".chart-data summary")
    expect(page.locator("#chart-table tbody tr")).to_have_count(len(bins))
    expect(page.locator("#player-stats tbody tr")).to_have_count(len(stats["players"]))
    expect(page.locator("#records li").first).to_contain_text(str(stats["records"][0]["total"]))
    check_axe(page, "statistics")
    means = page.locator("#player-stats tbody tr").first
    expect(means).to_contain_text(re.compile(r"\d\.\d"))
    page.select_option("#lang", "fi")  # the same numbers, written the Finnish way
    expect(means).to_contain_text(re.compile(r"\d,\d"))
    expect(means).not_to_contain_text(re.compile(r"\d\.\d"))
    page.screenshot(path=str(LOOK / "web-stats-fi.png"), full_page=True)
    page.select_option("#lang", "en")
    page.set_viewport_size({"width": 360, "height": 780})
    page.wait_for_timeout(300)  # the chart is drawn again for the narrow screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    check_axe(page, "statistics on a phone")
    page.screenshot(path=str(LOOK / "web-stats-phone.png"), full_page=True)
    page.goto("/?screen=games")
    page.screenshot(path=str(LOOK / "web-history-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


# ---- the coach and the analysis ---------------------------------------------------------------

def test_the_coachs_best_option_and_the_analysis_in_the_page(new_page: Any) -> None:
    page = new_page()
    coached: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def frame(payload: str | bytes) -> None:
            m = json.loads(payload)
            if m.get("type") == "coach" and m.get("status") == "ready":
                coached.append(m)
        ws.on("framereceived", frame)

    page.on("websocket", on_socket)
    code = create_room(page, [("person", "Kim"), ("bot", "beginner")], ruleset="kids")
    expect(page.locator("#ask-coach")).to_be_hidden()  # nothing to rank before the first roll
    page.click("#roll")
    page.wait_for_selector("button.score")
    page.click("#ask-coach")
    page.wait_for_selector("#coach li", timeout=30_000)
    assert coached, "no ready coach message came"
    best = coached[-1]["options"][0]
    expect(page.locator("#coach li").first).to_have_text(re.compile("^" + re.escape(best["description"])))
    check_axe(page, "coach")

    play_until_over([page])
    page.click("#analyse")
    expect(page.locator("#analysis-h")).to_be_visible(timeout=30_000)
    analysis = page.request.get(f"/api/rooms/{code}/analysis").json()
    assert analysis["status"] == "ready"
    for seat in analysis["seats"]:
        expect(page.locator("#standings")).to_contain_text(
            f"{seat['name']} lost {seat['total_lost']:.1f} points against perfect play.")
    check_axe(page, "analysis")


@pytest.mark.parametrize("screen", ["/?screen=stats&ruleset=maxi", "/?screen=games&ruleset=maxi"])
def test_empty_history_screens(new_page: Any, screen: str) -> None:
    page = new_page(width=360, height=700)
    page.goto(screen)
    expect(page.locator("main")).to_contain_text(re.compile("No finished games"))
    check_axe(page, screen)
    page.select_option("#lang", "fi")
    expect(page.locator("#nav a").nth(1)).to_have_text("Pelatut pelit")
    expect(page.locator("main")).to_contain_text(re.compile("Ei vielä päättyneitä pelejä|Näillä säännöillä"))
