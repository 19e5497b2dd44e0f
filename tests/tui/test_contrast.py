"""Contrast of every widget of every screen, in both themes (WCAG 2's formula).

Each screen is opened as a player would reach it; every character drawn is read from the
compositor with the colours it ends up with (blended, reversed), first as the screen opens and
then with each widget it can focus focused in turn. Text needs 4.5:1, frames and blocks drawn
with box characters 3:1 (WCAG's figure for large text and for the parts of a control).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widget import Widget

from helpers.screen import ratio, segments
from helpers.tui import pilot_test, until
from yatzy.game import Game
from yatzy.seats import Seat
from yatzy.tui.app import YatzyApp
from yatzy.tui.coach import CoachPanel
from yatzy.tui.dialogs import ChoiceScreen, ConfirmScreen, HelpScreen, SaveScreen, TooSmallScreen
from yatzy.tui.end import EndScreen
from yatzy.tui.history import HistoryScreen
from yatzy.tui.review import ReviewScreen
from yatzy.tui.settings import autosave
from yatzy.tui.setup import NewGameScreen

TEXT, FRAME = 4.5, 3.0
SIZE = (120, 40)


def is_frame(text: str) -> bool:
    """Box drawing and block characters (frames, bars, half blocks): 3:1 is enough for them."""
    return all(0x2500 <= ord(c) <= 0x259F for c in text.strip())


def too_faint(app: YatzyApp) -> list[str]:
    """Every run of characters on the screen below its contrast, with the widget drawing it."""
    found = []
    for x, y, segment in segments(app):
        style, text = segment.style, segment.text
        if text.strip() and style is not None and style.color is not None and style.bgcolor is not None:
            got = ratio(style.color, style.bgcolor)
            widget, _region = app.screen.get_widget_at(x, y)
            if got < (FRAME if is_frame(text) else TEXT) and widget is not app.screen:
                found.append(f"{type(app.screen).__name__} {widget!r} at {x},{y} {text.strip()!r}: "
                             f"{got:.2f}")  # a dialog's own screen: the game dimmed under it
    return found


async def every_focus(pilot: Pilot[Any]) -> list[str]:
    """What is too faint on the screen as it is, then with each focusable widget focused."""
    app = pilot.app
    assert isinstance(app, YatzyApp)
    await pilot.pause()
    found = dict.fromkeys(too_faint(app))
    widgets: list[Widget] = list(app.screen.focus_chain)
    for widget in widgets:
        widget.focus()
        await pilot.pause()
        found |= dict.fromkeys(f"{line} (focus on {widget.id or type(widget).__name__})"
                               for line in too_faint(app) if line not in found)
    return list(found)


def finished_game() -> Game:
    """A game of bots, played to its end at once (the end dialog, its analysis, the history)."""
    return Game("yatzy", [Seat("Greedy", "bot", "greedy"), Seat("Random", "bot", "random")], seed=4)


Opening = Callable[[Pilot[Any]], Awaitable[None]]


async def new_game(pilot: Pilot[Any]) -> None:
    await until(pilot, lambda: isinstance(pilot.app.screen, NewGameScreen))


async def play(pilot: Pilot[Any]) -> None:
    await pilot.press("r", "1", "down")


async def coach(pilot: Pilot[Any]) -> None:
    await pilot.press("r", "1", "c")
    await until(pilot, lambda: bool(pilot.app.screen.query_one(CoachPanel).options))


async def help_dialog(pilot: Pilot[Any]) -> None:
    await pilot.press("?")
    await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))


async def save_dialog(pilot: Pilot[Any]) -> None:
    await pilot.press("ctrl+s")
    await until(pilot, lambda: isinstance(pilot.app.screen, SaveScreen))


async def choice_dialog(pilot: Pilot[Any]) -> None:
    pilot.app.push_screen(ChoiceScreen("en", "Which tiles come back?", ["tile 3", "tiles 1 2"]))
    await until(pilot, lambda: isinstance(pilot.app.screen, ChoiceScreen))


async def end_dialog(pilot: Pilot[Any]) -> None:
    await until(pilot, lambda: isinstance(pilot.app.screen, EndScreen))


async def review(pilot: Pilot[Any]) -> None:
    await end_dialog(pilot)
    await pilot.press("a")
    await until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen), seconds=60)


async def history(pilot: Pilot[Any]) -> None:
    await end_dialog(pilot)
    await pilot.press("n")
    await new_game(pilot)
    await pilot.press("h")
    await until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen))


async def keeper(pilot: Pilot[Any]) -> None:
    await pilot.press(*"1 3 3 5 6", "enter")


async def fix_dialog(pilot: Pilot[Any]) -> None:
    await keeper(pilot)
    await pilot.press("f")
    await until(pilot, lambda: type(pilot.app.screen).__name__ == "FixScreen")


async def too_small(pilot: Pilot[Any]) -> None:
    await pilot.press("r")
    await pilot.resize_terminal(50, 15)
    await until(pilot, lambda: isinstance(pilot.app.screen, TooSmallScreen))


def dozzy_game() -> Game:
    return Game("dozzy", [Seat("Ann"), Seat("Dozzy", "bot", "dozzy")], seed=3)


def person_game() -> Game:
    return Game("yatzy", [Seat("Ann"), Seat("Greedy", "bot", "greedy")], seed=7)


def table_game() -> Game:
    return Game("yatzy", [Seat("Ann"), Seat("Bo")], dice_from="players")


SCREENS: dict[str, tuple[Callable[[], Game | None], Opening]] = {
    "new game": (lambda: None, new_game),
    "play": (person_game, play),
    "dozzy": (dozzy_game, play),
    "coach": (person_game, coach),
    "help": (person_game, help_dialog),
    "save": (person_game, save_dialog),
    "choice": (person_game, choice_dialog),
    "end": (finished_game, end_dialog),
    "review": (finished_game, review),
    "history": (finished_game, history),
    "scorekeeper": (table_game, keeper),
    "fix": (table_game, fix_dialog),
    "too small": (person_game, too_small),
}


@pytest.mark.slow
@pytest.mark.parametrize("low_vision", [False, True], ids=["normal", "low-vision"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_widget_is_legible(screen: str, low_vision: bool) -> None:
    make, opening = SCREENS[screen]

    @pilot_test
    async def run() -> None:
        app = YatzyApp(make(), pace=0)
        app.settings.low_vision = low_vision
        async with app.run_test(size=SIZE) as pilot:
            await opening(pilot)
            assert app.theme == ("yatzy-contrast" if low_vision else "yatzy-dark")
            faint = await every_focus(pilot)
        assert not faint, "\n".join(faint)

    run()


@pytest.mark.slow
@pytest.mark.parametrize("low_vision", [False, True], ids=["normal", "low-vision"])
def test_the_resume_question_is_legible(low_vision: bool) -> None:
    @pilot_test
    async def run() -> None:
        autosave(person_game())
        app = YatzyApp(pace=0)
        app.settings.low_vision = low_vision
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            faint = await every_focus(pilot)
        assert not faint, "\n".join(faint)

    run()
