"""The browser page of ``yatzy serve``, end to end: Debian's Chromium driven by Playwright
against a real server (uvicorn on 127.0.0.1, a temporary SQLite database).

Two people and a bot play a whole game in two browser contexts, one of them reloading in the
middle; a solo game is played with the keyboard alone, its moves read from the live region;
the fair-dice check runs at the end (and fails on a tampered roll); the high-contrast theme
and Finnish render; axe-core finds no serious or critical violation on any screen; and the
page's JS random numbers are Python's. Screenshots of the main screens are taken on every run;
they go to the folder YATZY_SCREENSHOTS names (``YATZY_SCREENSHOTS=docs`` renews the README's
docs/web-*.png), else to a temporary folder, so a test run never changes the repository.
"""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

from playwright.sync_api import Page, expect

from helpers.browser import DOCS, check_axe, create_room, play_turn, play_until_over
from helpers.wait import DEADLINE


def verdict(page: Page) -> str:
    page.wait_for_selector("#fair-verdict")
    return page.inner_text("#fair-verdict")


# ---- tests ----------------------------------------------------------------------------------

def test_two_people_and_a_bot_play_a_whole_game_with_a_reload(new_page: Any, base_url: str) -> None:
    ann = new_page()
    code = create_room(ann, [("person", "Ann"), ("person", "Bo"), ("bot", "beginner")])
    check_axe(ann, "game (before the first roll)")
    expect(ann.locator("#invite img")).to_have_attribute("src", f"/api/rooms/{code}/qr.svg")
    expect(ann.locator("#invite-link")).to_have_value(f"{base_url}/r/{code}")

    bo = new_page(width=360, height=780)
    bo.goto(f"/r/{code}")
    check_axe(bo, "join")
    bo.get_by_role("button", name="Play as Bo").click()
    bo.wait_for_selector("table.scorecard")
    expect(ann.locator(".presence")).to_contain_text("Bo")

    reloaded = []

    def reload_once(turns: int) -> None:
        if turns == 9 and not reloaded:
            bo.reload()
            bo.wait_for_selector("table.scorecard tfoot")
            expect(bo.locator("table.scorecard tfoot td")).to_have_text(
                ann.locator("table.scorecard tfoot td").all_inner_texts())
            expect(bo.locator(".moves li").first).to_be_visible()
            reloaded.append(True)

    play_until_over([ann, bo], each_turn=reload_once)
    assert reloaded
    for p in (ann, bo):
        expect(p.locator("#standings li")).to_have_count(3)
        assert verdict(p).startswith("✔")
    check_axe(ann, "game over")
    check_axe(bo, "game over (phone)")
    ann.screenshot(path=str(DOCS / "web-game-over.png"), full_page=True)


def test_keyboard_only_solo_game_read_from_the_live_region(new_page: Any) -> None:
    page = new_page()
    create_room(page, [("person", "Kim")], ruleset="kids")
    page.evaluate("""() => { const region = document.querySelector('#announce'); window.heard = [];
        new MutationObserver(() => window.heard.push(region.textContent))
            .observe(region, {childList: true, subtree: true, characterData: true}); }""")
    page.keyboard.press("r")
    page.wait_for_selector("button.score")
    page.keyboard.press("1")
    expect(page.locator(".die").first).to_have_attribute("aria-pressed", "true")
    label = page.locator(".die").first.get_attribute("aria-label")
    page.keyboard.press("1")
    expect(page.locator(".die").first).to_have_attribute("aria-pressed", "false")
    assert page.locator(".die").first.get_attribute("aria-label") == label  # a stable label
    page.keyboard.press("2")
    page.keyboard.press("r")  # keeps die 2 and rolls again
    page.wait_for_function("() => /roll 2/.test(document.querySelector('#announce').textContent)")
    play_until_over([page], keyboard=True)
    text = "\n".join(page.evaluate("window.heard"))
    assert re.search(r"Kim rolls \d \d \d \d \d\.", text), text
    assert "Die 1 (" in text and "held" in text and "released" in text
    assert re.search(r"Kim keeps \d and rolls again \(roll 2\)", text), text
    assert len(re.findall(r"Kim scores \d+ in ", text)) == 6, text
    assert re.search(r"Kim wins with \d+!", text), text  # the end, in the narration's words
    assert verdict(page).startswith("✔")


def test_high_contrast_finnish_on_a_phone_and_screenshots(new_page: Any) -> None:
    lobby = new_page()
    lobby.goto("/")
    lobby.wait_for_selector("#create")
    check_axe(lobby, "lobby")
    lobby.screenshot(path=str(DOCS / "web-lobby.png"), full_page=True)

    page = new_page()
    create_room(page, [("person", "Ann"), ("bot", "beginner"), ("bot", "casual")])
    page.click("#roll")
    page.wait_for_selector("button.score")
    page.keyboard.press("1")
    page.keyboard.press("2")
    page.screenshot(path=str(DOCS / "web-game-desktop.png"), full_page=True)

    phone = new_page(width=360, height=740, device_scale_factor=1, is_mobile=True, has_touch=True)
    phone.goto(page.url)
    phone.get_by_role("button", name="Watch the game").click()
    phone.wait_for_selector("table.scorecard")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    check_axe(phone, "spectator on a phone")

    page.select_option("#lang", "fi")
    expect(page.locator("#roll")).to_contain_text("Heitä")
    expect(page.locator("table.scorecard tbody th").first).to_contain_text("Ykköset")  # the server's words
    expect(page.locator(".moves")).to_contain_text("Ann heittää ")  # the moves asked for again, in Finnish
    expect(page.locator('.die[aria-pressed="true"]')).to_have_count(2)  # the dice held stay held
    page.click("#contrast")
    expect(page.locator("#contrast")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 230, 0)"
    check_axe(page, "game, high contrast, Finnish")
    page.screenshot(path=str(DOCS / "web-high-contrast.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 740})
    page.click("#contrast")
    page.select_option("#lang", "en")
    expect(page.locator("#roll")).to_contain_text("Roll")
    page.screenshot(path=str(DOCS / "web-game-phone.png"), full_page=True)
    sizes = page.evaluate("""() => [...document.querySelectorAll('button, select, summary')]
        .filter(e => e.offsetParent)
        .map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })""")
    assert all(w >= 44 and h >= 44 for w, h in sizes), sizes


def test_hot_seat_two_people_in_one_browser(new_page: Any) -> None:
    page = new_page()
    create_room(page, [("person", "Ann"), ("person", "Bo")], hot_seat=True)
    expect(page.locator("#turn")).to_have_text("Ann's turn (in this browser)")
    play_turn(page)
    expect(page.locator("#turn")).to_have_text("Bo's turn (in this browser)")
    play_turn(page)
    expect(page.locator("#turn")).to_have_text("Ann's turn (in this browser)")
    expect(page.locator(".moves li")).to_have_count(6)  # each turn: a roll, a score, the turn passed
    expect(page.locator(".moves li").nth(3)).to_contain_text("Bo rolls")


def test_the_fair_dice_check_in_the_page_fails_on_a_tampered_roll(new_page: Any, base_url: str) -> None:
    page = new_page()
    create_room(page, [("bot", "beginner")], ruleset="kids")  # the page watches a bot's game
    text = ""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        r = page.request.get(f"/api/rooms/{page.url.rsplit('/', 1)[1]}/verify")
        if r.ok:
            text = r.text()
            break
        time.sleep(0.2)
    assert text, "the bot's game did not end"
    assert verdict(page).startswith("✔")
    check = "async (t) => (await import('/static/fair.js')).verifyRevealText(t)"
    assert page.evaluate(check, text)["ok"]
    data = json.loads(text)
    seed = re.search(r'"seed"\s*:\s*(\d+)', text)
    assert seed and int(seed.group(1)) == data["seed"]
    rolls = [a for a in data["game"]["log"] if "roll" in a]
    result = rolls[3]["roll"]["result"]
    result[0] = result[0] % 6 + 1
    tampered = json.dumps(data)
    answer = page.evaluate(check, tampered)
    assert not answer["ok"] and answer["reason"] == "dice", answer
    data["salt"] = "0" * 32
    assert page.evaluate(check, json.dumps(data))["reason"] == "commitment"


def test_the_pages_random_numbers_are_pythons(new_page: Any) -> None:
    page = new_page()
    page.goto("/static/index.html")
    rng = random.Random(7)
    seeds = [0, 1, 42, 2**32 - 1, 2**32, 2**53 + 1, 2**63 - 1, *(rng.getrandbits(63) for _ in range(4))]
    js = page.evaluate("""async (seeds) => {
        const { PyRandom } = await import('/static/fair.js');
        return seeds.map((s) => { const r = new PyRandom(s); const d = [];
            for (let i = 0; i < 400; i++) d.push(r.randint(1, 6));
            const b = new PyRandom(s); return [d, [b.getrandbits(32), b.getrandbits(3)]]; });
    }""", [str(s) for s in seeds])
    for seed, (dice, bits) in zip(seeds, js, strict=True):
        r = random.Random(seed)
        assert dice == [r.randint(1, 6) for _ in range(400)], seed
        b = random.Random(seed)
        assert bits == [b.getrandbits(32), b.getrandbits(3)], seed
