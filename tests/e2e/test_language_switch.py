"""A language chosen while the page is still loading: the screen ends in the language chosen.
The English catalog's answer is held back until the Finnish lobby is drawn; when it comes late
it draws nothing (before, the lobby was drawn again with the English names, and a slow machine
left it English: the CI's failure of the quick-game test)."""

from __future__ import annotations

import threading
from typing import Any

from playwright.sync_api import Route, expect

from yatzy.i18n import _, language
from yatzy.registry import get_ruleset


def test_a_late_answer_for_the_language_before_draws_nothing(new_page: Any) -> None:
    page = new_page()
    held: list[Route] = []
    release = threading.Event()

    def hold_english(route: Route) -> None:
        if "lang=en" in route.request.url and not release.is_set():
            held.append(route)  # answered below, once the Finnish lobby is there
        else:
            route.continue_()

    page.route("**/api/catalog*", hold_english)
    with page.expect_request(lambda r: "/api/catalog" in r.url and "lang=en" in r.url):
        page.goto("/")  # the lobby asks for the English catalog, and waits
    page.select_option("#lang", "fi")
    with language("fi"):
        title, start, lobby = _(get_ruleset("yatzy").title), _("Play against a bot"), _("Lobby")
    assert (title, start, lobby) != (get_ruleset("yatzy").title, "Play against a bot", "Lobby")
    expect(page.get_by_role("button", name=start)).to_be_visible()
    expect(page.locator("#ruleset option").first).to_have_text(title)
    release.set()
    with page.expect_response(lambda r: "/api/catalog" in r.url and "lang=en" in r.url):
        held[0].continue_()
    page.evaluate("() => new Promise((done) => setTimeout(done, 100))")  # its answer read and used
    expect(page.get_by_role("button", name=start)).to_be_visible()
    expect(page.locator("#ruleset option").first).to_have_text(title)
    expect(page.locator("h1")).to_have_text(lobby)
