"""The coach and the analysis in the browser, end to end (the fixtures of tests/e2e/conftest.py:
Debian's Chromium driven by Playwright against a real server on 127.0.0.1): the coach's best
option is what the server's coach message says; after the game the analysis shows each
player's points lost. axe-core checks both.
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from helpers.browser import check_axe, create_room, play_until_over


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
    page.wait_for_selector("#coach li")
    assert coached, "no ready coach message came"
    best = coached[-1]["options"][0]
    expect(page.locator("#coach li").first).to_have_text(re.compile("^" + re.escape(best["description"])))
    check_axe(page, "coach")

    play_until_over([page])
    page.click("#analyse")
    expect(page.locator("#analysis-h")).to_be_visible()
    analysis = page.request.get(f"/api/rooms/{code}/analysis").json()
    assert analysis["status"] == "ready"
    for seat in analysis["seats"]:
        expect(page.locator("#standings")).to_contain_text(
            f"{seat['name']} lost {seat['total_lost']:.1f} points against perfect play.")
    check_axe(page, "analysis")
