"""What the game screen keeps through trouble: the dice held over a reload (and forgotten once
the turn moves on), held dice that stay where they lie roll after roll, actions refused and
said so while the server is out of reach (Roll disabled until it answers again), and a
replay's score step showing the dice it was scored with."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, expect

from helpers.browser import create_room, finished_games, play_until_over


def faces(page: Page) -> list[str]:
    return [d.get_attribute("aria-label") or "" for d in page.locator(".die").all()]


def pressed(page: Page) -> list[bool]:
    return [d.get_attribute("aria-pressed") == "true" for d in page.locator(".die").all()]


def test_held_dice_are_kept_over_a_reload_and_forgotten_after_the_turn(new_page: Any) -> None:
    page = new_page()
    create_room(page, [("person", "Ann"), ("bot", "beginner")])
    page.click("#roll")
    page.wait_for_selector("button.score")
    page.locator(".die").nth(1).click()
    page.locator(".die").nth(3).click()
    before = faces(page)
    page.reload()
    page.wait_for_selector("button.score")
    expect(page.locator(".die").nth(3)).to_have_attribute("aria-pressed", "true")
    assert pressed(page) == [False, True, False, True, False]
    assert faces(page) == before  # each die where it was
    page.keyboard.press("r")  # keeps the two held
    expect(page.locator("#roll")).to_contain_text("1")
    after = faces(page)
    assert [after[1], after[3]] == [before[1], before[3]]
    assert pressed(page) == [False, True, False, True, False]
    page.locator("button.score").first.click()
    page.wait_for_function("() => !document.querySelector('button.score')")
    held = page.evaluate("() => Object.keys(sessionStorage).filter((k) => k.startsWith('yatzy.held.'))")
    assert held == []  # the turn moved on: nothing to keep
    page.reload()
    page.wait_for_selector("table.scorecard")
    assert not any(pressed(page))


def test_held_dice_stay_in_their_places_roll_after_roll(new_page: Any) -> None:
    """The server sends the dice sorted; the page keeps each held die in its place (the middle
    one held each time: sorted, it would move whenever a new die came below it)."""
    page = new_page()
    create_room(page, [("person", "Kim")], ruleset="kids")
    for _ in range(4):
        page.click("#roll")
        page.wait_for_selector("button.score")
        page.locator(".die").nth(2).click()
        held = faces(page)[2]
        label = page.inner_text("#roll")
        page.click("#roll")
        expect(page.locator("#roll")).not_to_have_text(label)  # one roll fewer left: rolled
        assert faces(page)[2] == held and pressed(page)[2], (held, faces(page))
        page.locator("button.score").first.click()
        page.wait_for_function("() => !document.querySelector('button.score')")


def test_roll_is_disabled_while_the_server_is_out_of_reach(new_page: Any) -> None:
    page = new_page()
    down = [False]
    sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []
    sent: list[str] = []

    def route(ws: WebSocketRoute) -> None:
        if down[0]:
            ws.close()
            return
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            sent.append(str(message))
            server.send(message)
        ws.on_message(to_server)
        sockets.append((ws, server))

    page.route_web_socket(re.compile(r"/ws/rooms/"), route)
    create_room(page, [("person", "Ann"), ("bot", "beginner")])
    expect(page.locator("#roll")).to_have_attribute("aria-disabled", "false")
    down[0] = True
    for ws, server in sockets:
        ws.close()
        server.close()
    expect(page.locator("#conn")).to_be_visible()
    expect(page.locator("#conn")).to_contain_text("Connection lost")
    expect(page.locator("#conn")).to_contain_text("Moves wait until the connection is back.")
    expect(page.locator("#roll")).to_have_attribute("aria-disabled", "true")
    acts = len([m for m in sent if '"act"' in m])
    page.click("#roll", force=True)  # a tap all the same
    expect(page.locator("#alert")).to_have_text("Moves wait until the connection is back.")
    assert len([m for m in sent if '"act"' in m]) == acts  # nothing sent into the void
    down[0] = False  # the server is back: the page's next try gets through
    expect(page.locator("#conn")).to_be_hidden()
    expect(page.locator("#roll")).to_have_attribute("aria-disabled", "false")
    expect(page.locator("#announce")).to_contain_text("Connected again.")
    page.click("#roll")
    page.wait_for_selector("button.score")


def test_a_replays_score_step_shows_the_dice_scored(new_page: Any) -> None:
    page = new_page()
    create_room(page, [("person", "Kim")], ruleset="kids")
    play_until_over([page])
    game = max(g["id"] for g in finished_games(page))
    rolled = page.request.get(f"/api/games/{game}/replay?step=1").json()["view"]["dice"]
    page.goto(f"/?screen=replay&game={game}&step=2")  # the first score
    expect(page.locator("#replay-move")).to_contain_text("Kim scored")
    expect(page.locator("#replay-dice .die")).to_have_count(len(rolled))
    expect(page.locator("#replay-dice .die.blank")).to_have_count(0)
    labels = [f"Die {i + 1}: {d}" for i, d in enumerate(rolled)]
    expect(page.locator("#replay-dice .sr-only")).to_have_text(labels)
    page.keyboard.press("ArrowLeft")  # the roll before it: the same dice
    expect(page.locator("#replay-move")).to_contain_text("Kim rolled")
    expect(page.locator("#replay-dice .sr-only")).to_have_text(labels)
    page.keyboard.press("Home")
    expect(page.locator("#replay-dice .die.blank")).to_have_count(len(rolled))  # before the first roll
