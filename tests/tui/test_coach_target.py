"""The coach playing for a target (t): each move's chance of ending the game with the final
score the player chose, worked out in the coach's worker, or the solver's refusal in words
with the expected-score ranking kept; and back to the expected score."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, Static

from helpers.tui import pilot_test, play_screen, until
from helpers.wait import DEADLINE
from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.solver.coach import Coach
from yatzy.solver.solve import solve
from yatzy.solver.spec import SolverSpec
from yatzy.solver.target import most_points, target_options
from yatzy.tui import coach as coach_module
from yatzy.tui.app import YatzyApp
from yatzy.tui.coach import CoachPanel
from yatzy.tui.dialogs import HelpScreen, TargetScreen

SIZE = (120, 40)


def body_of(app: YatzyApp) -> str:
    """The coach's text as a wide terminal shows it, lines joined by spaces."""
    console = Console(width=200, record=True)
    console.print(play_screen(app).query_one("#coach-body", Static).content)
    return " ".join(console.export_text().split())


async def set_target(pilot: Pilot[Any], text: str) -> None:
    """t, the number typed over what the dialog offers, Enter."""
    await pilot.press("t")
    assert isinstance(pilot.app.screen, TargetScreen)
    pilot.app.screen.query_one(Input).value = ""
    await pilot.press(*text, "enter")


@pilot_test
async def test_the_coach_ranks_kids_moves_by_their_chance_of_a_target_and_back() -> None:
    app = YatzyApp(Game("kids", ["Ann"], seed=8), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r", "c")
        panel = play_screen(app).query_one(CoachPanel)
        await until(pilot, lambda: bool(panel.options))
        expected = list(panel.lines)
        await set_target(pilot, "90")
        await until(pilot, lambda: panel.chances is not None)
        game = play_screen(app).game
        coach = Coach(solve(get_ruleset("kids")))
        truth = target_options(coach, coach.position_of(game), 90 - game.total(0))
        assert [t.option.action for t in panel.chances.options] == [t.option.action for t in truth.options]  # type: ignore[union-attr]
        assert panel.chances.options[0].chance == pytest.approx(truth.options[0].chance)  # type: ignore[union-attr]
        chances = [t.chance for t in truth.options]
        assert chances == sorted(chances, reverse=True) and 0 < chances[0] < 1  # a target worth asking
        assert f"{100 * chances[0]:.1f}%" in panel.lines[0] and "Playing for 90 points" in body_of(app)
        # the key bar names the key; an empty target goes back to the best expected score
        assert "target" in str(play_screen(app).query_one("#keys").render())
        await pilot.press("t")
        app.screen.query_one(Input).value = ""
        await pilot.press("enter")
        await until(pilot, lambda: panel.target is None and panel.version is not None)
        assert panel.chances is None and panel.lines == expected


@pilot_test
async def test_an_early_yatzy_position_is_refused_in_words_and_keeps_the_expected_score() -> None:
    app = YatzyApp(Game("yatzy", ["Ann"], seed=8), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await set_target(pilot, "250")
        panel = play_screen(app).query_one(CoachPanel)
        assert panel.display  # t opens the coach
        await until(pilot, lambda: "near the end of the game" in body_of(app), seconds=60)
        assert panel.options and panel.chances is None  # never empty: ranked by expected score
        assert "expected" in body_of(app) and "15 boxes open" in panel.plain


@pilot_test
async def test_a_target_past_the_most_a_game_scores_is_refused_in_the_dialog() -> None:
    app = YatzyApp(Game("kids", ["Ann"], seed=8), pace=0)
    most = most_points(SolverSpec(get_ruleset("kids"), 0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await set_target(pilot, str(most + 1))
        assert isinstance(app.screen, TargetScreen)  # still asking, and saying why
        assert f"from 0 to {most}" in str(app.screen.query_one("#target-error", Static).render())
        app.screen.query_one(Input).value = ""
        await pilot.press(*str(most), "enter")  # the most itself is a target
        assert not isinstance(app.screen, TargetScreen)
        assert play_screen(app).query_one(CoachPanel).target == most


@pilot_test
async def test_the_query_runs_off_the_screen_which_says_it_is_working(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """While the chances are worked out (held here until the screen has answered a key) the
    coach says so over the expected-score ranking, and the keys still work."""
    release = threading.Event()
    real = coach_module.game_target

    def held(*args: Any) -> Any:
        assert release.wait(DEADLINE)
        return real(*args)

    monkeypatch.setattr(coach_module, "game_target", held)
    app = YatzyApp(Game("kids", ["Ann"], seed=8), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        try:
            await set_target(pilot, "90")
            panel = play_screen(app).query_one(CoachPanel)
            await until(pilot, lambda: "Working out each move's chance of 90 points" in body_of(app))
            assert panel.options and "expected" in body_of(app) and panel.chances is None
            await pilot.press("question_mark")  # the screen answers while the query waits
            assert isinstance(app.screen, HelpScreen)
            assert "reaching it" in str(app.screen.query_one("#help-text", Static).content)  # and names t
            await pilot.press("escape")
        finally:
            release.set()
        await until(pilot, lambda: panel.chances is not None)
        assert "Working out" not in body_of(app) and "Playing for 90 points" in body_of(app)
