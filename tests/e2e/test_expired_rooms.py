"""The page on a server whose history is not public and whose finished rooms expire at once
(a server of this module's own: the folder's server keeps rooms for days). A browser that
reopens an expired room's link keeps the room's token, so the game stays in its history (the
history shows a browser only its own rooms' games), and the lobby lists the room no more; a
token for a code that names no room is forgotten. The history says whose games it lists."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import LOOK, check_axe, create_room
from helpers.wait import DEADLINE
from helpers.web import serving
from yatzy.web.app import create_app
from yatzy.web.expiry import Expiry


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The folder's server, but a finished room nobody watches expires a second after its end
    (a sweep every 0.2 s), and the history is private."""
    db = tmp_path_factory.mktemp("web-expiry") / "web.sqlite3"
    app = create_app(f"sqlite:///{db}", expiry=Expiry(finished_for=timedelta(seconds=1), every=0.2))
    with serving(app) as url:
        yield url


def kept(page: Page, code: str) -> Any:
    raw = page.evaluate(f"localStorage.getItem('yatzy.room.{code}')")
    return None if raw is None else json.loads(raw)


def test_an_expired_rooms_token_is_kept_for_the_history_and_an_unknown_ones_is_not(new_page: Any) -> None:
    page = new_page()
    code = create_room(page, [("bot", "beginner"), ("bot", "casual")], ruleset="kids")  # watched from here
    expect(page.locator("#standings")).to_be_visible()  # the bots' game is over
    game_id = page.request.get(f"/api/rooms/{code}").json()["game_id"]
    token = kept(page, code)["token"]
    page.goto("/")  # nobody watches: the finished room expires a second later
    expect(page.get_by_role("link", name=f"Room {code}")).to_be_visible()
    deadline = time.monotonic() + DEADLINE
    while page.request.get(f"/api/rooms/{code}").status != 404:
        assert time.monotonic() < deadline, "the finished room did not expire"
        time.sleep(0.1)

    page.goto(f"/r/{code}")
    expect(page.locator("#alert")).to_contain_text(f"room {code} has ended and expired")
    assert kept(page, code) is not None and kept(page, code)["token"] == token
    page.goto("/?screen=games")
    expect(page.locator(f"[data-game='{game_id}']")).to_be_visible()
    expect(page.locator("#games-status")).to_have_text("1 game shown.")
    expect(page.locator("#games-scope")).to_have_text(
        "This server keeps its history private: you see the games of the rooms this browser took part in.")
    page.screenshot(path=str(LOOK / "web-history-expired.png"), full_page=True)
    check_axe(page, "history of an expired room")
    page.goto("/")
    expect(page.get_by_role("heading", name="Join a room")).to_be_visible()
    assert page.get_by_role("link", name=f"Room {code}").count() == 0  # not to be opened again

    never = "Z" * len(code)
    page.evaluate("([key, cred]) => localStorage.setItem(key, JSON.stringify(cred))",
                  [f"yatzy.room.{never}", {"token": "no room's token", "role": "spectator"}])
    page.goto(f"/r/{never}")
    expect(page.locator("#alert")).to_contain_text(f"there is no room {never}")
    assert kept(page, never) is None
    assert kept(page, code)["token"] == token


def test_a_public_history_says_nothing_of_whose_games_it_shows(new_page: Any) -> None:
    page = new_page()

    def public(route: Any) -> None:  # this server's catalog, as a --public-history server says it
        catalog = route.fetch().json()
        assert catalog["public_history"] is False
        route.fulfill(json={**catalog, "public_history": True})

    page.goto("/?screen=games")
    expect(page.locator("#games-scope")).to_be_visible()
    other = new_page()
    other.route("**/api/catalog*", public)
    other.goto("/?screen=games")
    expect(other.locator("#games-status")).to_have_text("No finished games yet.")
    assert other.locator("#games-scope").count() == 0
