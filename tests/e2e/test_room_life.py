"""A room's life in the browser beyond one game, end to end: the offer to let a bot play an
away player's seat comes by itself (no reload), the game shows at once while a bot's table is
built (the build held up by the test), a quick game in one click with the bot named in the
page's language, and a rematch with the same seats that the other player follows from the
page. axe-core checks each new screen; screenshots go to helpers.browser.LOOK.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import LOOK, check_axe, create_room, play_until_over
from helpers.tables import held_build

JSON = {"Content-Type": "application/json"}


def seated(page: Page, code: str, cred: dict[str, Any]) -> None:
    """Open room ``code`` in ``page`` holding ``cred`` (as the lobby or the join screen keeps it)."""
    page.goto("/")
    page.evaluate("([key, cred]) => localStorage.setItem(key, JSON.stringify(cred))",
                  [f"yatzy.room.{code}", cred])
    page.goto(f"/r/{code}")
    page.wait_for_selector("table.scorecard")


def test_the_offer_to_let_a_bot_play_comes_without_a_reload(new_page: Any) -> None:
    ann = new_page()
    ann.goto("/")
    made = ann.request.post("/api/rooms", data=json.dumps({
        "seats": [{"name": "Ann"}, {"name": "Bob"}], "away_after": 1, "bot_pace": 0}), headers=JSON)
    assert made.ok, made.text()
    code = made.json()["code"]
    tokens = [ann.request.post(f"/api/rooms/{code}/join", data=json.dumps({"seat": seat}), headers=JSON)
              .json()["token"] for seat in (0, 1)]
    seated(ann, code, {"token": tokens[0], "role": "seat", "seat": 0})
    bob = new_page()
    seated(bob, code, {"token": tokens[1], "role": "seat", "seat": 1})
    expect(ann.locator(".presence li").nth(1)).to_contain_text("here")
    bob.close()  # Bob closes his tab
    expect(ann.locator(".presence li").nth(1)).to_contain_text("away")
    offer = ann.get_by_role("button", name="Let a bot play")
    expect(offer).to_be_visible()  # once Bob has been away a second, with no reload
    check_axe(ann, "a seat away long enough")
    offer.click()
    expect(ann.locator(".presence li").nth(1)).to_contain_text("a bot (optimal) plays")  # the room's level


@pytest.fixture(name="held_build")
def held_build_fixture(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    with held_build(monkeypatch) as release:
        yield release


def test_the_game_shows_at_once_while_a_bots_table_is_built(new_page: Any, held_build: threading.Event
                                                            ) -> None:
    page = new_page()
    came: set[str] = set()

    def on_socket(ws: Any) -> None:
        def frame(payload: str | bytes) -> None:
            m = json.loads(payload)  # a view comes in a state, or in events on a resume
            came.add("view" if "view" in m else m["type"])
        ws.on("framereceived", frame)

    page.on("websocket", on_socket)
    create_room(page, [("bot", "casual"), ("person", "Ann")], ruleset="kids")  # the bot begins
    assert "view" in came and not held_build.is_set()  # the state came while the table is held
    expect(page.locator("#preparing")).to_contain_text("Building the Kids table for the casual bot (25%)")
    expect(page.locator("#turn")).to_contain_text("Casual bot")  # the state came: whose turn, the card
    expect(page.locator("#roll")).to_have_attribute("aria-disabled", "true")
    assert not held_build.is_set()
    check_axe(page, "a bot's table being built")
    page.screenshot(path=str(LOOK / "web-preparing.png"), full_page=True)
    held_build.set()
    expect(page.locator("#preparing")).to_have_count(0)
    expect(page.locator(".moves li").first).to_contain_text("Casual bot")  # the bot played once it was ready


def test_a_quick_game_in_one_click_with_the_bot_named_in_finnish(new_page: Any) -> None:
    page = new_page(width=360, height=740, is_mobile=True, has_touch=True)
    page.goto("/")
    page.select_option("#lang", "fi")
    quick = page.get_by_role("button", name="Pelaa bottia vastaan")
    expect(quick).to_be_visible()
    check_axe(page, "lobby with the quick game, Finnish, phone")
    page.screenshot(path=str(LOOK / "web-lobby-quick-fi-phone.png"), full_page=True)
    quick.click()
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]{9}$"))
    page.wait_for_selector("table.scorecard")
    expect(page.locator(".presence")).to_contain_text("Aloittelijabotti")
    expect(page.locator("#roll")).to_have_attribute("aria-disabled", "false")  # my turn at once
    desk = new_page()
    desk.goto("/")
    desk.wait_for_selector("#quick")
    desk.screenshot(path=str(LOOK / "web-lobby-quick-desktop.png"))


def test_a_rematch_with_the_same_seats_followed_from_the_page(new_page: Any) -> None:
    ann = new_page()
    code = create_room(ann, [("person", "Ann"), ("person", "Bo")], ruleset="kids")
    bo = new_page(width=360, height=780)
    bo.goto(f"/r/{code}")
    bo.get_by_role("button", name="Play as Bo").click()
    bo.wait_for_selector("table.scorecard")
    play_until_over([ann, bo])
    ann.get_by_role("button", name="Rematch").click()
    ann.wait_for_url(lambda url: re.search(r"/r/[A-Z0-9]{9}$", url) is not None and not url.endswith(code))
    new = ann.url.rsplit("/", 1)[1]
    ann.wait_for_selector("table.scorecard")
    follow = bo.get_by_role("button", name="Play the rematch")  # offered without a reload
    expect(follow).to_be_visible()
    expect(bo.locator("#standings")).to_contain_text("A rematch has begun")
    check_axe(bo, "a rematch offered (phone)")
    bo.screenshot(path=str(LOOK / "web-rematch-offered-phone.png"), full_page=True)
    follow.click()
    bo.wait_for_url(f"**/r/{new}")
    bo.wait_for_selector("table.scorecard")
    expect(bo.locator(".presence li").nth(1)).to_contain_text("Bo (you)")
    expect(ann.locator(".presence li").nth(1)).to_contain_text("here")  # Bo is there too
    expect(ann.locator("#roll")).to_have_attribute("aria-disabled", "false")  # a new game, Ann begins
    expect(ann.locator("[data-host]")).to_have_count(2)  # Ann asked first: she is the rematch's host
    expect(bo.locator("[data-host]")).to_have_count(0)
    check_axe(ann, "the host's buttons")
    ann.locator("#main").screenshot(path=str(LOOK / "web-host-buttons.png"))
    ann.locator('[data-host="free"]').click()  # the host frees Bo's seat: Bo's page is let go
    expect(bo.locator("#alert")).to_contain_text("the room's host freed your seat")
    expect(ann.locator(".presence li").nth(1)).to_contain_text("away")
    expect(ann.locator('[data-host="free"]')).to_have_count(0)  # free now: nothing to free
