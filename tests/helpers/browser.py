"""Helpers of the browser tests (tests/e2e; no tests here): axe-core's check, a room made in the
lobby's form, a turn and a whole game played by clicks or keys, the finished games the server
lists, and where screenshots go. Imported only under tests/e2e, whose conftest.py has found
Chromium and Playwright (the folder is skipped otherwise)."""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from helpers.wait import DEADLINE

DOCS = Path(os.environ["YATZY_SCREENSHOTS"]) if os.environ.get("YATZY_SCREENSHOTS") else \
    Path(tempfile.mkdtemp(prefix="yatzy-web-shots-"))
"""Where the README's screenshots go: YATZY_SCREENSHOTS (``YATZY_SCREENSHOTS=docs`` renews
docs/web-*.png), else a temporary folder, so a test run never changes the repository."""
LOOK = Path(tempfile.mkdtemp(prefix="yatzy-web-look-"))
"""The other screens' screenshots, to look at (only the README's go to the docs)."""


def check_axe(page: Page, screen: str) -> None:
    """axe-core on the page as it is: no serious or critical violation."""
    results = Axe().run(page)
    bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    assert not bad, f"{screen}: " + "; ".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in bad)


def create_room(page: Page, seats: list[tuple[str, str]], *, ruleset: str = "yatzy", fast: bool = True,
                hot_seat: bool = False) -> str:
    """Fill in the lobby's form (seats as (kind, name or level)) and create the room; returns its code."""
    page.goto("/")
    page.select_option("#ruleset", ruleset)
    while page.locator(".seat-row").count() > 1:
        page.locator(".seat-row button").last.click()
    for i, (kind, what) in enumerate(seats):
        if i >= page.locator(".seat-row").count():
            page.get_by_role("button", name=re.compile("Add a player|Lisää pelaaja")).click()
        page.select_option(f"#seat-{i}-kind", kind)
        if kind == "bot":
            page.select_option(f"#seat-{i}-level", what)
        else:
            page.fill(f"#seat-{i}-name", what)
    if fast:
        page.select_option("#pace", "0")
    if hot_seat:
        page.check("#hot-seat")
    page.click("#create")
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]{9}$"))
    page.wait_for_selector("table.scorecard")
    return page.url.rsplit("/", 1)[1]


def my_turn(page: Page) -> bool:
    return page.locator("#roll[aria-disabled='false'], button.score").count() > 0


def play_turn(page: Page, *, keyboard: bool = False) -> None:
    """Roll once (holding nothing), then score the box worth most."""
    if page.locator("button.score").count() == 0:
        if keyboard:
            page.keyboard.press("r")
        else:
            page.click("#roll")
        page.wait_for_selector("button.score")
    buttons = page.locator("button.score")
    points = [int(b.inner_text().lstrip("+")) for b in buttons.all()]
    best = points.index(max(points))
    if keyboard:
        page.keyboard.press("ArrowDown")
        for _ in range(best):
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
    else:
        buttons.nth(best).click()
    page.wait_for_function("() => !document.querySelector('button.score')")


def play_until_over(pages: list[Page], *, keyboard: bool = False, timeout: float = 3 * DEADLINE,
                    each_turn: Any = None) -> None:
    deadline = time.monotonic() + timeout
    turns = 0
    while True:
        assert time.monotonic() < deadline, "the game did not end in time"
        if all(p.locator("#standings:not([hidden])").count() for p in pages):
            return
        moved = False
        for p in pages:
            if my_turn(p):
                play_turn(p, keyboard=keyboard)
                turns += 1
                moved = True
                if each_turn:
                    each_turn(turns)
        if not moved:
            time.sleep(0.05)


def finished_games(page: Page, **query: Any) -> list[dict[str, Any]]:
    r = page.request.get("/api/games", params={"finished": "true", **query})
    assert r.ok, r.text()
    return r.json()  # type: ignore[no-any-return]
