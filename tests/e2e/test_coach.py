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
from yatzy.i18n import _, language


def ready_coach_messages(page: Any) -> list[dict[str, Any]]:
    """The ready coach messages the page receives from now on, as they come."""
    coached: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def frame(payload: str | bytes) -> None:
            m = json.loads(payload)
            if m.get("type") == "coach" and m.get("status") == "ready":
                coached.append(m)
        ws.on("framereceived", frame)

    page.on("websocket", on_socket)
    return coached


def test_the_coachs_best_option_and_the_analysis_in_the_page(new_page: Any) -> None:
    page = new_page()
    coached = ready_coach_messages(page)
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


def test_a_target_in_the_coachs_box_gives_each_moves_chance_of_it(new_page: Any) -> None:
    """A final score typed in the coach's target box: the answer's options carry their chance
    of it, and the page lists the best move with that chance (the server's figure)."""
    page = new_page()
    coached = ready_coach_messages(page)
    create_room(page, [("person", "Kim"), ("bot", "beginner")], ruleset="kids")
    page.click("#roll")
    page.wait_for_selector("button.score")
    page.fill("#coach-target", "90")
    page.click("#ask-coach")
    expect(page.locator("#coach li").first).to_contain_text("chance of 90")
    best = coached[-1]["options"][0]
    assert coached[-1]["target"] == 90 and 0 < best["chance"] <= 1
    percent = f"{100 * best['chance']:.1f}".rstrip("0").rstrip(".") + "%"
    expect(page.locator("#coach li").first).to_have_text(
        re.compile("^" + re.escape(best["description"]) + r" \(" + re.escape(percent) + " chance of 90"))
    check_axe(page, "coach target")


def test_the_target_box_speaks_the_pages_language_after_a_change(new_page: Any) -> None:
    """The target box made in English says its label and help in Finnish once the page is
    switched to Finnish mid-game (it was made once, and stayed English)."""
    page = new_page()
    create_room(page, [("person", "Kim"), ("bot", "beginner")], ruleset="kids")
    page.click("#roll")
    page.wait_for_selector("button.score")
    expect(page.locator("label[for=coach-target]")).to_have_text("Play for a final score")
    page.select_option("#lang", "fi")
    expect(page.locator("#roll")).to_contain_text("Heitä")
    with language("fi"):
        label = _("Play for a final score")
        help_ = _("Optional: the coach ranks the moves by their chance of it (near the game's end)")
    assert label != "Play for a final score"
    expect(page.locator("label[for=coach-target]")).to_have_text(label)
    expect(page.locator("#coach-target-help")).to_have_text(help_)
