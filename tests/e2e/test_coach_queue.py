"""The coach panel while the coach's table waits in the server's queue of builds (one build at
once, the folder's server): the panel says what the server says, its place in the queue in the
player's language, not "preparing (0 %)"; a table being built shows how far it has come; once
both are built the panel shows the advice by itself. Every table build of the process is held
at a quarter (helpers.tables.held_build) until the test lets it go."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import LOOK, check_axe
from helpers.tables import held_build
from yatzy.i18n import _, language
from yatzy.registry import get_ruleset

BUILDING, QUEUED = 57, 58  # Kids variants (bonus thresholds) no other test builds


def coached_room(page: Page, threshold: int, lang: str) -> None:
    """A Kids room of one person with the coach on, its seat taken by the page; the dice rolled."""
    made = page.request.post("/api/rooms", data={
        "ruleset": "kids", "options": {"bonus_threshold": threshold}, "coach": True, "lang": lang,
        "seats": [{"name": "Kim"}]})
    assert made.ok, made.text()
    code = made.json()["code"]
    seat = page.request.post(f"/api/rooms/{code}/join", data={"seat": 0}).json()
    page.goto("/")
    page.evaluate("([key, cred, lang]) => { localStorage.setItem(key, JSON.stringify(cred)); "
                  "localStorage.setItem('yatzy.lang', JSON.stringify(lang)); }",
                  [f"yatzy.room.{code}", {"token": seat["token"], "role": "seat", "seat": 0}, lang])
    page.goto(f"/r/{code}")
    # Roll is on the page before the state comes over the socket, and a click then does nothing
    expect(page.locator("#roll")).to_have_attribute("aria-disabled", "false")
    page.click("#roll")
    page.wait_for_selector("button.score")


def test_the_coach_panel_says_its_tables_place_in_the_queue(new_page: Any,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    with held_build(monkeypatch) as release:
        first = new_page()
        coached_room(first, BUILDING, "en")
        first.click("#ask-coach")
        expect(first.locator("#coach")).to_contain_text("The coach is preparing its tables (25%)")

        page = new_page()
        coached_room(page, QUEUED, "fi")  # its table waits behind the first's
        page.click("#ask-coach")
        with language("fi"):
            queued = _("The {rules} table waits for its turn to be built (number {place} in the queue); "
                       "the answer follows when it is ready. Play on meanwhile.")
            queued = queued.format(rules=_(get_ruleset("kids").title), place=1)  # its title, not its id
        expect(page.locator("#coach p")).to_have_text([queued])
        expect(page.locator("#coach")).not_to_contain_text(re.compile(r"\d\s?%"))
        page.screenshot(path=str(LOOK / "web-coach-queued.png"), full_page=True)
        check_axe(page, "coach queued")
        release.set()
        for p in (first, page):  # both answers follow by themselves
            expect(p.locator("#coach li")).to_have_count(3)
