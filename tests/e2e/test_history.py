"""The history, a replay and the statistics in the browser, end to end (the fixtures of
tests/e2e/conftest.py: Debian's Chromium driven by Playwright against a real server on 127.0.0.1).

Bots' games played by the server are listed and one replayed step by step with the keys; the
statistics screen draws its score-distribution chart from /api/stats; with no finished game
both screens say so. axe-core checks every screen. The statistics screen's screenshot goes to
YATZY_SCREENSHOTS (``YATZY_SCREENSHOTS=docs`` renews docs/web-stats.png), else to a temporary
folder; the other screens' go to a temporary folder.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import DOCS, LOOK, check_axe, finished_games
from helpers.wait import DEADLINE


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
    deadline = time.monotonic() + DEADLINE
    while not set(ids) <= {g["id"] for g in finished_games(page, ruleset=ruleset, limit=500)}:
        assert time.monotonic() < deadline, "the bots' games did not end"
        time.sleep(0.1)
    return ids


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
    page.wait_for_function("() => document.documentElement.scrollWidth <= 360")  # drawn again, narrow
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    check_axe(page, "statistics on a phone")
    page.screenshot(path=str(LOOK / "web-stats-phone.png"), full_page=True)
    page.goto("/?screen=games")
    page.screenshot(path=str(LOOK / "web-history-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.parametrize("screen", ["/?screen=stats&ruleset=maxi", "/?screen=games&ruleset=maxi"])
def test_empty_history_screens(new_page: Any, screen: str) -> None:
    page = new_page(width=360, height=700)
    page.goto(screen)
    expect(page.locator("main")).to_contain_text(re.compile("No finished games"))
    check_axe(page, screen)
    page.select_option("#lang", "fi")
    expect(page.locator("#nav a").nth(1)).to_have_text("Pelatut pelit")
    expect(page.locator("main")).to_contain_text(re.compile("Ei vielä päättyneitä pelejä|Näillä säännöillä"))
