"""The feel of the dice on the page (static/feel.js): the dice shaken as they roll, and not
under the system's reduced motion or the player's setting; the moves read aloud (the server's
words, in the page's language) only once the player asks for it; sounds only once asked for;
a celebration of a Yatzy rolled and of a personal best. The browser's speech and audio are
stand-ins recording what the page asks of them."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, expect

from helpers.browser import LOOK, create_room, play_until_over

STAND_INS = """
window.spoken = [];
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.lang = ""; } };
Object.defineProperty(window, "speechSynthesis", { configurable: true,
  value: { speak: (u) => window.spoken.push([u.text, u.lang]), cancel() {}, getVoices: () => [] } });
window.beeps = 0;
const param = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.state = "running"; this.destination = {}; }
  createOscillator() {
    return { type: "", frequency: param, connect: (n) => n, start: () => { window.beeps++; }, stop() {} };
  }
  createGain() { return { gain: param, connect: (n) => n }; }
  resume() {} };
window.shakes = 0;
document.addEventListener("animationstart", (e) => { if (e.animationName === "shake") window.shakes++; });
"""


def stand_ins(page: Page) -> Page:
    page.add_init_script(STAND_INS)
    return page


def setting(page: Page, name: str, on: bool) -> None:
    if not page.locator("#prefs").evaluate("(d) => d.open"):
        page.click("#prefs summary")
    page.set_checked(f"#feel-{name}", on)


def roll(page: Page) -> None:
    label = page.inner_text("#roll")
    page.click("#roll")
    expect(page.locator("#roll")).not_to_have_text(label)


def frames(page: Page) -> None:
    """Two frames drawn: an animation the last render started has started."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def test_the_dice_shake_as_they_roll_unless_motion_is_reduced(new_page: Any) -> None:
    moving = stand_ins(new_page(reduced_motion="no-preference"))
    create_room(moving, [("person", "Ann")], ruleset="kids")
    roll(moving)
    moving.wait_for_function("() => window.shakes >= 5")  # every die rolled
    moving.locator(".die").nth(0).click()
    roll(moving)  # the held die stays still
    expect(moving.locator(".die.rolling")).to_have_count(4)
    assert "rolling" not in (moving.locator(".die").nth(0).get_attribute("class") or "")

    still = stand_ins(new_page())  # the system asks for reduced motion
    create_room(still, [("person", "Bo")], ruleset="kids")
    roll(still)
    frames(still)
    expect(still.locator(".die.rolling")).to_have_count(0)
    assert still.evaluate("window.shakes") == 0

    moving.goto("/")
    setting(moving, "motion", False)  # the player's own choice
    create_room(moving, [("person", "Cy")], ruleset="kids")
    moving.evaluate("window.shakes = 0")
    roll(moving)
    frames(moving)
    expect(moving.locator(".die.rolling")).to_have_count(0)
    assert moving.evaluate("window.shakes") == 0


def test_moves_are_read_aloud_only_when_asked_in_the_pages_language(new_page: Any) -> None:
    page = stand_ins(new_page())
    create_room(page, [("person", "Ann")], ruleset="kids")
    expect(page.locator("#feel-speech")).not_to_be_checked()  # off by default
    roll(page)
    expect(page.locator(".moves li").last).to_contain_text("Ann rolls")
    assert page.evaluate("window.spoken") == []
    setting(page, "speech", True)
    page.locator("button.score").first.click()
    expect(page.locator(".moves li").last).to_contain_text("Ann's turn, round 2")
    said = page.locator(".moves li", has_text="Ann scores").last.inner_text()
    page.wait_for_function("() => window.spoken.length > 0")
    text, lang = page.evaluate("window.spoken.at(-1)")
    assert said in text and lang == "en", (said, text)  # the server's words, as the moves list shows them
    page.select_option("#lang", "fi")
    expect(page.locator("#roll")).to_contain_text("Heitä")
    roll(page)
    page.wait_for_function("() => window.spoken.at(-1)[1] === 'fi'")
    text = page.evaluate("window.spoken.at(-1)[0]")
    assert "Ann heittää" in text and text == page.locator(".moves li").last.inner_text()
    setting(page, "speech", False)
    count = page.evaluate("window.spoken.length")
    page.locator("button.score").first.click()
    expect(page.locator(".moves li").last).to_contain_text("Ann")
    assert page.evaluate("window.spoken.length") == count
    page.reload()  # the setting is remembered
    expect(page.locator("#feel-speech")).not_to_be_checked()
    assert page.evaluate("window.spoken.length") == 0 and count > 1


def test_sounds_only_when_asked(new_page: Any) -> None:
    page = stand_ins(new_page())
    create_room(page, [("person", "Ann")], ruleset="kids")
    expect(page.locator("#feel-sounds")).not_to_be_checked()
    roll(page)
    page.locator(".die").nth(0).click()
    assert page.evaluate("window.beeps") == 0
    setting(page, "sounds", True)
    before = page.evaluate("window.beeps")
    page.locator(".die").nth(1).click()  # a click
    roll(page)  # a rattle
    assert page.evaluate("window.beeps") > before + 5


def rewrite(page: Page, change: Any) -> None:
    """The room's messages to the page passed through ``change`` (a function of the parsed message)."""
    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda m: ws.send(json.dumps(change(json.loads(m)))))
    page.route_web_socket(re.compile(r"/ws/rooms/"), route)


def test_a_yatzy_and_a_personal_best_are_celebrated(new_page: Any) -> None:
    first = new_page()
    create_room(first, [("person", "Vic")], ruleset="kids")
    play_until_over([first])
    best = int(first.locator("table.scorecard tfoot td").first.inner_text())

    def yatzy(m: dict[str, Any]) -> dict[str, Any]:
        if m.get("type") == "events":
            for e in m["events"]:
                if e["kind"] == "rolled":  # the first roll of the turn shows five fours
                    e["kept"], e["rolled"], e["dice"] = [], [4] * 5, [4] * 5
                    m["view"]["dice"] = [4] * 5
                if e["kind"] == "game_over":
                    for s in e["standings"]:
                        s["total"] = best + 1
        return m

    page = new_page()
    page.add_init_script("window.heard = []; document.addEventListener('DOMContentLoaded', () =>"
                         " new MutationObserver(() => window.heard.push(document.querySelector('#announce')"
                         ".textContent)).observe(document.querySelector('#announce'), {childList: true,"
                         " subtree: true}));")
    rewrite(page, yatzy)
    create_room(page, [("person", "Vic")], ruleset="kids")
    page.click("#roll")
    expect(page.locator("#celebrate")).to_contain_text("Yatzy!")
    expect(page.locator("#announce")).to_contain_text("Yatzy!")
    page.screenshot(path=str(LOOK / "celebrate-yatzy.png"))
    expect(page.locator("#celebrate")).to_have_count(0)  # for a moment only
    play_until_over([page])
    expect(page.locator("#celebrate")).to_contain_text(f"Vic: a new personal best, {best + 1}!")
    assert f"Vic: a new personal best, {best + 1}!" in " ".join(page.evaluate("window.heard"))


def test_no_celebration_without_a_yatzy_or_a_best(new_page: Any) -> None:
    page = new_page()

    def plain(m: dict[str, Any]) -> dict[str, Any]:
        if m.get("type") == "events":
            for e in m["events"]:
                if e["kind"] == "rolled":
                    e["kept"], e["rolled"], e["dice"] = [], [1, 2, 3, 4, 4], [1, 2, 3, 4, 4]
                    m["view"]["dice"] = [1, 2, 3, 4, 4]
                if e["kind"] == "game_over":
                    for s in e["standings"]:
                        s["total"] = 0  # below any best
        return m

    rewrite(page, plain)
    page.add_init_script("window.cheered = 0; new MutationObserver(() => {"
                         " if (document.querySelector('#celebrate')) window.cheered++; })"
                         ".observe(document.documentElement, {childList: true, subtree: true});")
    create_room(page, [("person", "Vic")], ruleset="kids")
    play_until_over([page])
    expect(page.locator("#standings")).to_be_visible()
    assert page.evaluate("window.cheered") == 0
