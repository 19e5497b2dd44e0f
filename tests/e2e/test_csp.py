"""The page under its own Content-Security-Policy (docs/security.md): a short game against a
bot, the fair-dice check at its end, the games and statistics screens and the axe check, and
not one CSP violation reported (by the page's ``securitypolicyviolation`` events or Chromium's
console). The listener is shown to work: an inline script put in the page is blocked and seen."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from helpers.browser import check_axe, create_room, play_until_over

LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


def violations(page: Page, console: list[str]) -> list[str]:
    return [*page.evaluate("window.__csp"), *console]


def watched(new_page: Any) -> tuple[Page, list[str]]:
    page: Page = new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(LISTEN)
    return page, console


def test_the_page_plays_a_game_under_its_csp_without_a_violation(new_page: Any) -> None:
    page, console = watched(new_page)
    response = page.goto("/")
    assert response is not None and "script-src 'self'" in response.headers["content-security-policy"]
    create_room(page, [("person", "Ann"), ("bot", "beginner")], ruleset="kids")
    expect(page.locator("#invite img")).to_have_js_property("complete", True)
    assert page.evaluate("document.querySelector('#invite img').naturalWidth") > 0, "the QR code is shown"
    play_until_over([page])
    expect(page.locator("#fair-verdict")).to_contain_text(re.compile(r"\S"))
    check_axe(page, "the end of a game, under the CSP")
    for screen in ("games", "stats"):
        page.goto(f"/?screen={screen}")
        page.wait_for_load_state("networkidle")
        check_axe(page, f"{screen}, under the CSP")
    assert violations(page, console) == []


def test_an_inline_script_is_blocked_and_reported(new_page: Any) -> None:
    page, console = watched(new_page)
    page.goto("/")
    page.evaluate("""() => {
        const s = document.createElement("script");
        s.textContent = "window.__ran = true";
        document.body.append(s);
    }""")
    page.wait_for_function("window.__csp.length > 0")
    assert page.evaluate("window.__ran === undefined")
    assert any("script-src" in v for v in violations(page, console))
