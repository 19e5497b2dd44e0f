"""Helpers of the terminal game's tests (no tests here): pilot tests run in their own event
loop, waiting for the app to get somewhere, and a box filled by keys. The test's own folders
for settings and games are tests/tui/conftest.py's autouse fixture.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable, Coroutine
from typing import Any

from textual.pilot import Pilot

from helpers.wait import DEADLINE
from yatzy.tui.app import YatzyApp
from yatzy.tui.play import PlayScreen
from yatzy.tui.widgets import ScoreCard

Compare = Callable[..., bool]
"""pytest-textual-snapshot's ``snap_compare`` fixture."""


def pilot_test(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async pilot test in its own event loop (no async plugin needed)."""
    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))
    return run


async def until(pilot: Pilot[Any], ready: Callable[[], bool], seconds: float = DEADLINE) -> None:
    """Let the app work until ``ready()`` (a screen being composed anew, a worker finishing),
    looking every 20 ms; fail after ``seconds`` (a busy machine composes screens slowly)."""
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"the app never got there in {seconds:.0f} s")
        await pilot.pause(0.02)


async def laid_out(pilot: Pilot[Any], selector: str) -> None:
    """Wait until the widget ``selector`` of the current screen is mounted and placed: a screen
    composed anew has its widgets in the DOM before that, and a click on one lands nowhere, a
    value set on one calls no watcher (its ``Changed`` never comes)."""
    screen = pilot.app.screen
    await until(pilot, lambda: bool(screen.query(selector)) and screen.query_one(selector).region.area > 0)


async def click(pilot: Pilot[Any], selector: str) -> None:
    """Click the widget ``selector`` once it is laid out (see :func:`laid_out`)."""
    await laid_out(pilot, selector)
    await pilot.click(selector)


def play_screen(app: YatzyApp) -> PlayScreen:
    """The play screen, under any dialogs open on it."""
    return next(s for s in app.screen_stack if isinstance(s, PlayScreen))


async def fill(pilot: Pilot[Any], box: str) -> None:
    """Pick a box with the arrows (Home: the first box that may be filled) and press Enter."""
    card = pilot.app.screen.query_one(ScoreCard)
    steps = [card.boxes[i] for i in card.pickable].index(box)
    await pilot.press("home", *["down"] * steps, "enter")
