"""The play screen's keys as a newcomer meets them at 80x24: the hold keys of the ruleset's dice
(and no more), a hint under the dice that is never cut, and Tab between the card and the coach."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from helpers.screen import rows
from helpers.tui import pilot_test, until
from yatzy.game import Game
from yatzy.seats import Seat
from yatzy.tui.app import YatzyApp
from yatzy.tui.coach import CoachPanel
from yatzy.tui.dialogs import HelpScreen
from yatzy.tui.dice import DiceRow
from yatzy.tui.widgets import Die, KeyBar, ScoreCard

SMALL = (80, 24)


@pytest.mark.parametrize(("rules", "dice"), [("yatzy", 5), pytest.param("maxi", 6, marks=pytest.mark.slow)])
@pilot_test
async def test_the_hold_keys_are_those_of_the_rulesets_dice(rules: str, dice: int) -> None:
    app = YatzyApp(Game(rules, [Seat("Ann"), Seat("Bo")], seed=5), pace=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("r")
        bar = app.screen.query_one(KeyBar)
        assert (f"1–{dice}", "hold") in bar.keys, bar.keys
        assert f" 1–{dice} " in rows(app)[-1]
        row = app.screen.query_one(DiceRow)
        await pilot.press(str(dice + 1))  # a key beyond the dice holds nothing (and says nothing)
        assert row.kept() == () and not app._notifications
        await pilot.press(str(dice))  # the last die's key holds the last die
        assert len(row.kept()) == 1
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert f"1 … {dice}" in "\n".join(rows(app))
        await pilot.press("end")  # 80x24 is too short for every key: the help scrolls to the last
        assert "Esc closes this help." in "\n".join(rows(app))


def drawn(app: YatzyApp, selector: str) -> str:
    """The words a Static shows on the screen now (inside its region, not scrolled away), as one
    line: what a player can read of it."""
    widget = app.screen.query_one(selector)
    region = widget.region
    lines = rows(app)[region.y:region.bottom]
    return " ".join(" ".join(line[region.x:region.right].split()) for line in lines).strip()


def words(widget: Static) -> str:
    return " ".join(str(widget.render()).split())


@pytest.mark.parametrize("lang", ["fi", pytest.param("en", marks=pytest.mark.slow),
                                  pytest.param("ru", marks=pytest.mark.slow),
                                  pytest.param("sv", marks=pytest.mark.slow),
                                  pytest.param("da", marks=pytest.mark.slow),
                                  pytest.param("nb", marks=pytest.mark.slow)])
@pilot_test
async def test_the_hints_beside_three_cards_are_never_cut(lang: str) -> None:
    """At 80x24 beside three cards the side panel has some 22 columns: the turn, the hint under
    the dice and the bonus wrap onto as many lines as they need, the dice stay whole, and no scroll
    bar comes in, nor one that would hide the card's "now" column (Danish and Norwegian "mangler
    63" widened each player's column, Russian's box names the first one); on a person's turn and
    while a bot waits to move."""
    seats = [Seat("Annikki"), Seat("Greedy", "bot", "greedy"), Seat("Bo")]
    app = YatzyApp(Game("yatzy", seats, seed=3), lang=lang, pace=30)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("r")
        screen = app.screen

        def whole() -> None:
            for selector in ("#turn", "#hint", "#bonus"):
                shown = words(screen.query_one(selector, Static))
                assert shown and drawn(app, selector) == shown, (selector, "\n".join(rows(app)))
            side = screen.query_one("#side")
            assert not side.show_vertical_scrollbar, "\n".join(rows(app))
            card = screen.query_one(ScoreCard)
            assert not card.show_horizontal_scrollbar, "\n".join(rows(app))  # the "now" column whole
            for die in screen.query(Die):
                assert side.region.contains_region(die.region), "\n".join(rows(app))

        whole()
        await pilot.press("down", "enter")  # Twos for 4: the bot's turn, waiting out its pace
        await until(pilot, lambda: "Greedy" in words(screen.query_one("#hint", Static)))
        whole()


def bar(app: YatzyApp) -> dict[str, str]:
    return dict(app.screen.query_one(KeyBar).keys)


@pytest.mark.slow  # the kids' coach table is built first (a second or two)
@pilot_test
async def test_tab_moves_the_arrows_between_the_card_and_the_coach_at_80x24() -> None:
    """On a small terminal the coach comes in the card's place with the arrows (they scroll its
    list, the dice stay); Tab brings the card back with the arrows, Tab again the coach; the key
    bar and the hint say which has them; c closes the coach and the card has them again."""
    app = YatzyApp(Game("kids", [Seat("Ann"), Seat("Bo")], seed=3), pace=0)
    async with app.run_test(size=SMALL) as pilot:
        screen = app.screen
        card, coach = screen.query_one(ScoreCard), screen.query_one(CoachPanel)
        await pilot.press("r", "c")
        await until(pilot, lambda: bool(coach.options))
        assert app.focused is coach and coach.display and not card.display
        assert bar(app).get("tab") == "card" and "↑↓ ⏎" not in bar(app)
        assert "Tab" in words(screen.query_one("#hint", Static))
        picked = card.cursor_row
        await pilot.press("down", "down", "down")  # the coach's list scrolls, nothing else moves
        assert card.cursor_row == picked and screen.query_one("#side").scroll_y == 0
        for die in screen.query(Die):
            assert screen.query_one("#side").region.contains_region(die.region)
        await pilot.press("tab")
        assert app.focused is card and card.display and not coach.display
        assert bar(app).get("tab") == "coach" and bar(app).get("↑↓ ⏎") == "fill"
        await pilot.press("down")
        assert card.cursor_row != picked
        await pilot.press("tab")
        assert app.focused is coach and coach.display
        await pilot.press("c")
        assert app.focused is card and card.display and not coach.display and "tab" not in bar(app)
        await pilot.press("tab")  # the coach closed: the card keeps the arrows
        assert app.focused is card


@pilot_test
async def test_on_a_large_terminal_the_card_keeps_the_arrows_beside_the_coach_until_tab() -> None:
    app = YatzyApp(Game("kids", [Seat("Ann"), Seat("Bo")], seed=3), pace=0)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        card, coach = screen.query_one(ScoreCard), screen.query_one(CoachPanel)
        await pilot.press("r", "c")
        assert app.focused is card and card.display and coach.display
        assert bar(app).get("tab") == "coach" and bar(app).get("c") == "close coach"
        await pilot.press("tab")
        assert app.focused is coach and card.display and bar(app).get("tab") == "card"
        await pilot.press("tab")
        assert app.focused is card
