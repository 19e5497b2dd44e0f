"""The page's history on a server whose history is not public (the default of ``yatzy serve``):
the games of the rooms this browser has been in are listed and replayed, another's are not
(the page sends its rooms' tokens, X-Room-Tokens). The screen goes to a temporary folder."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Page, expect

from helpers.browser import LOOK
from helpers.wait import DEADLINE

PUBLIC_HISTORY = False


def bots_room(page: Page) -> tuple[str, int]:
    r = page.request.post("/api/rooms", data={"ruleset": "kids", "bot_pace": 0, "seats": [
        {"kind": "bot", "level": "beginner"}, {"kind": "bot", "level": "casual"}]})
    assert r.ok, r.text()
    code = r.json()["code"]
    return code, page.request.get(f"/api/rooms/{code}").json()["game_id"]


def test_the_history_lists_the_games_of_this_browsers_rooms_only(new_page: Any) -> None:
    page = new_page()
    watched, mine = bots_room(page)
    _other, theirs = bots_room(page)
    page.goto(f"/r/{watched}")
    page.get_by_role("button", name="Watch").click()  # a spectator's token, kept by the page
    # the join is answered after the click: the bots (pace 0) may be done long before it is kept
    # (read from Python: the page's CSP refuses the string a wait_for_function would evaluate)
    deadline = time.monotonic() + DEADLINE
    while page.evaluate(f"localStorage.getItem('yatzy.room.{watched}')") is None:
        assert time.monotonic() < deadline, "the page did not keep the spectator's token"
        time.sleep(0.05)
    while not all(page.request.get(f"/api/rooms/{c}").json()["over"] for c in (watched, _other)):
        assert time.monotonic() < deadline, "the bots' games did not end"
        time.sleep(0.1)
    page.goto("/?screen=games")
    expect(page.locator(f"[data-game='{mine}']")).to_be_visible()
    expect(page.locator(".game-item")).to_have_count(1)
    assert page.locator(f"[data-game='{theirs}']").count() == 0
    page.screenshot(path=str(LOOK / "web-history-mine.png"), full_page=True)
    page.locator(f"[data-game='{mine}'] a").click()
    expect(page.locator("#replay-step")).to_contain_text("Step 0 of")
    # without the page's tokens the server shows nothing
    assert page.request.get("/api/games").json() == []
