"""Text is text on the page: a name that is HTML shows literally at the table and no element
is made from it (the page builds its DOM with
textContent; no innerHTML anywhere in src/yatzy/web/static)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from helpers.browser import create_room

HTML = "<img src=x onerror=alert(1)>"


def test_an_html_name_shows_as_typed_and_runs_nothing(new_page: Any) -> None:
    page = new_page()
    dialogs: list[str] = []

    def dialog(d: Any) -> None:  # an alert() would mean the name ran as HTML
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", dialog)
    create_room(page, [("person", HTML), ("person", "</script>[/x]")], ruleset="kids")
    expect(page.get_by_text(HTML).first).to_be_visible()
    expect(page.get_by_text("</script>[/x]").first).to_be_visible()
    assert page.locator("img[src=x]").count() == 0 and dialogs == []
