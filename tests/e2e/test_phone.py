"""The page on a 360 px phone: nothing wider than the screen in any language or theme (the
lobby and the game, dice held), the dice and the Roll button in reach while the card scrolls
to its lowest box, and the keyboard's hint only where there is a keyboard."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import LOOK, check_axe

LANGS = ["en", "fi", "sv", "da", "nb", "ru"]
PHONE = {"width": 360, "height": 740, "is_mobile": True, "has_touch": True, "device_scale_factor": 1}


def seat_in_room(page: Page, seats: list[dict[str, Any]], **body: Any) -> str:
    """A room made over REST, this page seated in its first person's seat; returns its code."""
    room = page.request.post("/api/rooms", data={"ruleset": "yatzy", "seats": seats, "bot_pace": 0, **body})
    assert room.ok, room.text()
    code = room.json()["code"]
    joined = page.request.post(f"/api/rooms/{code}/join", data={})
    assert joined.ok, joined.text()
    page.goto("/")
    page.evaluate("([code, cred]) => localStorage.setItem(`yatzy.room.${code}`, JSON.stringify(cred))",
                  [code, {"token": joined.json()["token"], "role": "seat", "seat": joined.json()["seat"]}])
    page.goto(f"/r/{code}")
    page.wait_for_selector("table.scorecard")
    return code  # type: ignore[no-any-return]


def look(page: Page, lang: str, contrast: bool) -> None:
    page.evaluate("([lang, hc]) => { localStorage.setItem('yatzy.lang', JSON.stringify(lang));"
                  " localStorage.setItem('yatzy.contrast', JSON.stringify(hc)); }", [lang, contrast])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#contrast")).to_have_attribute("aria-pressed", str(contrast).lower())


def overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")  # type: ignore[no-any-return]


@pytest.mark.parametrize("contrast", [False, True], ids=["plain", "high-contrast"])
def test_nothing_is_wider_than_a_phone_in_any_language(new_page: Any, contrast: bool) -> None:
    page = new_page(**PHONE)
    widths = {}
    page.goto("/")
    for lang in LANGS:
        look(page, lang, contrast)
        page.wait_for_selector("#create")
        widths[f"lobby {lang}"] = overflow(page)
    seat_in_room(page, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "beginner"},
                        {"kind": "bot", "level": "casual"}])
    page.click("#roll")
    page.wait_for_selector("button.score")
    for lang in LANGS:
        look(page, lang, contrast)
        page.wait_for_selector("button.score")
        for die in page.locator(".die").all():
            if die.get_attribute("aria-pressed") == "false":
                die.click()  # every die held: its tag shown
        expect(page.locator('.die[aria-pressed="true"]')).to_have_count(5)
        widths[f"game {lang}"] = overflow(page)
        if lang in ("en", "fi"):
            page.screenshot(path=str(LOOK / f"phone-game-{lang}-{'hc' if contrast else 'plain'}.png"))
    assert all(w <= 360 for w in widths.values()), widths
    check_axe(page, "game on a phone, Russian")


@pytest.mark.parametrize("contrast", [False, True], ids=["plain", "high-contrast"])
def test_the_dice_and_roll_stay_in_reach_while_the_card_scrolls(new_page: Any, contrast: bool) -> None:
    page = new_page(**PHONE)
    page.goto("/")
    look(page, "fi", contrast)
    seat_in_room(page, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "beginner"}])
    page.click("#roll")
    page.wait_for_selector("button.score")
    page.locator(".die").nth(0).click()
    lowest = page.locator("button.score").last  # Yatzy, the card's last box
    lowest.scroll_into_view_if_needed()
    assert page.evaluate("scrollY") > 300  # the page did scroll
    rects = page.evaluate("""() => [...document.querySelectorAll('#roll, .die')].map((e) => {
        const r = e.getBoundingClientRect(); return [r.top, r.bottom]; })""")
    height = page.evaluate("innerHeight")
    assert all(0 <= top and bottom <= height for top, bottom in rects), (rects, height)
    # the box is not under the bar: a tap on it reaches it
    assert lowest.evaluate("""(b) => { const r = b.getBoundingClientRect();
        return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === b; }""")
    page.locator(".die").nth(1).click()  # the dice work from down there
    expect(page.locator('.die[aria-pressed="true"]')).to_have_count(2)
    page.click("#roll")  # and so does Roll
    expect(page.locator("#roll")).to_contain_text("1")
    page.screenshot(path=str(LOOK / f"phone-scrolled-{'hc' if contrast else 'plain'}.png"))
    # a box reached by the keyboard is scrolled clear of the bar too
    page.evaluate("scrollTo(0, 0)")
    page.locator("button.score").nth(12).focus()
    bar = page.evaluate("document.querySelector('#table-top').getBoundingClientRect().bottom")
    top = page.locator("button.score").nth(12).evaluate("(b) => b.getBoundingClientRect().top")
    assert top >= bar, (top, bar)


def test_the_keys_hint_is_shown_with_a_keyboard_only(new_page: Any) -> None:
    phone = new_page(**PHONE)
    seat_in_room(phone, [{"kind": "person", "name": "Ann"}])
    expect(phone.locator("#roll")).to_be_visible()
    expect(phone.locator("#keys-hint")).to_be_hidden()
    desk = new_page()
    desk.goto(phone.url)
    desk.evaluate("(s) => Object.entries(s).forEach(([k, v]) => localStorage.setItem(k, v))",
                  phone.evaluate("() => ({ ...localStorage })"))
    desk.reload()
    expect(desk.locator("#keys-hint")).to_be_visible()
    expect(desk.locator("#keys-hint")).to_contain_text("1–6")
