"""The terminal app's layout at the sizes players have: the coach beside the dice at 80x24, a key
bar that fits, a notice below the smallest size, the new game screen's fields (Tab order, the
seed, check boxes, a focused dropdown) and the end dialog in the middle of the screen."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console
from rich.style import Style
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Select

from helpers.screen import ratio, rows, segments
from helpers.tui import pilot_test, until
from yatzy.game import Game
from yatzy.i18n import LANGUAGES, _, language, percent
from yatzy.seats import Seat
from yatzy.tui.app import YatzyApp
from yatzy.tui.coach import CoachPanel, Items
from yatzy.tui.dialogs import TooSmallScreen
from yatzy.tui.end import EndScreen
from yatzy.tui.setup import NewGameScreen
from yatzy.tui.widgets import Die, ScoreCard


def on_screen(app: YatzyApp, widget: Widget) -> bool:
    """Whether all of the widget is drawn: shown, inside the screen and inside each container
    around it (not scrolled out of view)."""
    region = widget.region
    if not region or not widget.display or not app.screen.region.contains_region(region):
        return False
    return all(parent.region.contains_region(region) for parent in widget.ancestors
               if isinstance(parent, Widget) and parent is not app.screen)


def game(players: int = 2) -> Game:
    seats = [Seat("Ann"), Seat("Greedy", "bot", "greedy"), Seat("Bo")][:players]
    return Game("yatzy", seats, seed=3)


async def open_coach(pilot: Pilot[Any]) -> CoachPanel:
    await pilot.press("r", "1", "c")
    coach = pilot.app.screen.query_one(CoachPanel)
    await until(pilot, lambda: bool(coach.options), seconds=60)
    await pilot.pause()
    return coach


# ---- the coach and the dice together ------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
@pytest.mark.parametrize("low_vision", [False, True], ids=["normal", "low-vision"])
@pilot_test
async def test_the_coach_shows_several_moves_with_the_dice_in_view(size: tuple[int, int],
                                                                   low_vision: bool) -> None:
    app = YatzyApp(game(3), pace=0)
    app.settings.low_vision = low_vision
    async with app.run_test(size=size) as pilot:
        coach = await open_coach(pilot)
        await until(pilot, lambda: all(on_screen(app, die) for die in app.screen.query(Die)))
        screen = "\n".join(rows(app))
        shown = [line for line in coach.lines if line.strip() in screen]
        assert len(shown) >= 3, screen  # the best moves, ranked, each on the screen
        for die in app.screen.query(Die):
            assert on_screen(app, die), (die, screen)
        await pilot.press("c")  # closed: the card is back and takes the arrows again
        card = app.screen.query_one(ScoreCard)
        assert card.display and app.focused is card


@pytest.mark.slow
@pilot_test
async def test_a_large_terminal_shows_the_card_beside_the_coach() -> None:
    app = YatzyApp(game(3), pace=0)
    async with app.run_test(size=(160, 50)) as pilot:
        await open_coach(pilot)
        card = app.screen.query_one(ScoreCard)
        assert card.display and on_screen(app, card)


# ---- the key bar ------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
@pilot_test
async def test_the_key_bar_fits_80_columns_with_help_first_and_quit_last(lang: str) -> None:
    app = YatzyApp(game(), pace=0, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        with language(lang):
            first, last = f" ?  {_('help')}", f" q  {_('quit')}"
        await until(pilot, lambda: rows(app)[-1].rstrip().endswith(last))
        await pilot.press("r")
        await pilot.pause()
        bar = rows(app)[-1].rstrip()
        assert bar.lstrip().startswith(first.strip()) and bar.endswith(last), bar
        assert "…" not in bar
    async with YatzyApp(game(), pace=0, lang=lang).run_test(size=(160, 50)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        bar = rows(pilot.app)[-1]  # type: ignore[arg-type]
        assert "ctrl+t" in bar and "ctrl+s" in bar  # room for every key


# ---- too small a terminal -----------------------------------------------------------------------

@pilot_test
async def test_a_terminal_below_the_smallest_size_says_how_large_to_make_it() -> None:
    app = YatzyApp(game(), pace=0, lang="fi")
    smallest = YatzyApp.SMALLEST
    async with app.run_test(size=(50, 15)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TooSmallScreen) and "50×15" in " ".join(rows(app)))
        screen = " ".join(rows(app))
        assert f"{smallest.width}×{smallest.height}" in screen and "50×15" in screen
        assert "Ikkuna on liian pieni" in screen  # in the player's language
        await pilot.resize_terminal(smallest.width - 1, smallest.height)
        await until(pilot, lambda: f"{smallest.width - 1}×{smallest.height}" in " ".join(rows(app)))
        await pilot.resize_terminal(smallest.width, smallest.height)  # just enough: the game again
        await until(pilot, lambda: not isinstance(app.screen, TooSmallScreen))
        assert [type(s).__name__ for s in app.screen_stack][1:] == ["PlayScreen"]
        for die in app.screen.query(Die):
            assert on_screen(app, die)
        await pilot.resize_terminal(smallest.width, smallest.height - 1)
        await until(pilot, lambda: isinstance(app.screen, TooSmallScreen))


@pilot_test
async def test_a_small_terminal_at_the_start_gets_the_notice_over_the_new_game_screen() -> None:
    app = YatzyApp(pace=0)
    async with app.run_test(size=(50, 15)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TooSmallScreen))
        assert isinstance(app.screen_stack[-2], NewGameScreen)
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))


# ---- the new game screen ------------------------------------------------------------------------

def label_of(widget: Widget) -> str:
    """What a focusable field says it is (its words, its value or its placeholder)."""
    if isinstance(widget, Button):
        return str(widget.label)
    if isinstance(widget, Checkbox):
        return str(widget.label)
    if isinstance(widget, Select):
        return str(widget.selection)
    if isinstance(widget, Input):
        return widget.value or widget.placeholder
    raise AssertionError(f"Tab stops at {widget!r}, which is no field")


@pilot_test
async def test_tab_visits_only_visible_labelled_fields_once_each() -> None:
    app = YatzyApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        start = app.focused
        assert start is not None and start.id == "start"
        await until(pilot, lambda: app.screen.region.contains_region(start.region))  # scrolled to
        seen: list[Widget] = []
        for _n in range(60):
            await pilot.press("tab")
            focused = app.focused
            assert focused is not None
            if focused is start:
                break
            assert label_of(focused).strip(), focused
            await until(pilot, lambda: app.focused is not None and  # scrolled to
                        app.screen.region.contains_region(app.focused.region))
            seen.append(focused)
        else:
            raise AssertionError("Tab never came back to Start")
        assert seen[0].id == "rules"  # from Start straight to the first field, nothing between
        assert len(seen) == len(set(seen))


@pilot_test
async def test_an_empty_seed_is_valid_and_a_bad_one_says_why() -> None:
    app = YatzyApp(pace=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        seed = app.screen.query_one("#seed", Input)
        error = app.screen.query_one("#error")
        seed.focus()
        await pilot.pause()
        assert seed.value == "" and not seed.has_class("-invalid")  # empty: random dice, not red
        await pilot.press("-")
        await pilot.pause()
        assert seed.has_class("-invalid")
        assert "whole number" in str(error.render())
        await pilot.press("4", "2")
        await pilot.pause()
        assert not seed.has_class("-invalid") and not str(error.render()).strip()
        await pilot.press("backspace", "backspace")  # "-" again: Start refuses it, saying why
        app.screen.query_one("#start", Button).press()
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen) and "whole number" in str(error.render())
        await pilot.press("backspace")
        app.screen.query_one("#start", Button).press()
        await until(pilot, lambda: not isinstance(app.screen, NewGameScreen))
        assert app.played is not None and app.settings.setup.seed is None


@pytest.mark.parametrize("low_vision", [False, True], ids=["normal", "low-vision"])
@pilot_test
async def test_check_boxes_show_their_state_by_shape(low_vision: bool) -> None:
    app = YatzyApp(pace=0)
    app.settings.low_vision = low_vision
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        box = app.screen.query_one("#roll-off", Checkbox)
        box.value = False
        await pilot.pause()
        line = rows(app)[box.region.y]
        assert "[ ]" in line and "[x]" not in line
        box.value = True
        await pilot.pause()
        line = rows(app)[box.region.y]
        assert "[x]" in line and "▐" not in line


def background_at(app: YatzyApp, region: Region) -> Style:
    """The style of the first character drawn in ``region`` that is not blank."""
    for x, y, segment in segments(app):
        if y == region.y and x >= region.x and segment.text.strip() and segment.style is not None:
            return segment.style
    raise AssertionError(f"nothing drawn in {region}")


@pytest.mark.parametrize("low_vision", [False, True], ids=["normal", "low-vision"])
@pilot_test
async def test_a_focused_dropdown_stands_out(low_vision: bool) -> None:
    """WCAG's focus appearance: the focused field's colours differ from its own unfocused ones by
    3:1 or more (Textual's compact Select only tints its background by 5%)."""
    app = YatzyApp(pace=0)
    app.settings.low_vision = low_vision
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        select = app.screen.query_one("#lang", Select)
        app.screen.query_one("#start").focus()
        await pilot.pause()
        before = background_at(app, select.region)
        select.focus()
        await pilot.pause()
        after = background_at(app, select.region)
        assert before.bgcolor is not None and after.bgcolor is not None
        assert ratio(before.bgcolor, after.bgcolor) >= 3


# ---- the end dialog -------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
@pilot_test
async def test_the_end_dialog_is_in_the_middle_of_the_screen(size: tuple[int, int]) -> None:
    app = YatzyApp(Game("yatzy", [Seat("Greedy", "bot", "greedy"), Seat("Random", "bot", "random")], seed=4),
                   pace=0)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EndScreen) and bool(app.screen.query("#standings"))
                    and app.screen.query_one("#standings").region.area > 0)
        await pilot.pause()
        box = app.screen.query_one(".box").region
        text = app.screen.query_one("#standings").region
        width, height = size
        assert abs(box.x - (width - box.right)) <= 1, box
        assert abs(box.y - (height - box.bottom)) <= 1, box
        lines = [line[text.x:text.right].rstrip() for line in rows(app)[text.y:text.bottom]]
        longest = max(len(line) for line in lines)
        assert text.width - longest <= 1, (text, lines)  # no empty half beside the words


@pytest.mark.parametrize("lang", ["en", "fi"])
@pytest.mark.parametrize("width", [22, 30, 44, 76])
def test_a_keeps_odds_break_only_between_boxes(lang: str, width: int) -> None:
    """The coach's odds under a keep wrap between one box's chance and the next, never inside
    one: not "Four of a" / "Kind 23%", nor in Finnish "69" / "%" (Rich breaks at a no-break
    space too). Each line fits the width; the items come in order, each whole on one line."""
    with language(lang):
        items = [f"{name} {percent(p)}" for name, p in [
            ("Three of a Kind", 0.69), ("Two Pairs", 0.63), ("Full House", 0.27),
            ("Four of a Kind", 0.23), ("Large Straight", 0.06), ("Small Straight", 0.06),
            ("Yatzy", 0.03)]]
    console = Console(width=width, record=True, color_system=None)
    console.print(Items(items))
    lines = [line.rstrip() for line in console.export_text().splitlines() if line.strip()]
    assert all(len(line) <= width for line in lines)
    assert [item for line in lines for item in line.split(" · ")] == items
    assert len(lines) > 1  # the width made it wrap, or the test proves little
