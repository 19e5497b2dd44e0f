"""The play screen's keys as a newcomer meets them at 80x24: the hold keys of the ruleset's dice
(and no more), a hint under the dice that is never cut, and Tab between the card and the coach."""

from __future__ import annotations

import pytest

from helpers.screen import rows
from helpers.tui import pilot_test
from yatzy.game import Game
from yatzy.seats import Seat
from yatzy.tui.app import YatzyApp
from yatzy.tui.dialogs import HelpScreen
from yatzy.tui.dice import DiceRow
from yatzy.tui.widgets import KeyBar

SMALL = (80, 24)


@pytest.mark.parametrize(("rules", "dice"), [("yatzy", 5), ("maxi", 6)])
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
