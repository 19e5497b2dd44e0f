"""The warning before a costly move: what a move loses against the coach's best."""

from __future__ import annotations

import pytest

from helpers.tui import fill, pilot_test, play_screen, until
from yatzy.actions import Roll, Score
from yatzy.game import Game
from yatzy.names import box_label
from yatzy.solver.coach import Coach
from yatzy.solver.solve import solve
from yatzy.tui import coach as panel
from yatzy.tui.app import YatzyApp
from yatzy.tui.dialogs import ConfirmScreen
from yatzy.tui.play import PlayScreen
from yatzy.tui.settings import Settings

SIZE = (120, 40)


def test_the_cost_of_every_move_is_the_solvers_regret() -> None:
    game = Game("kids", ["Ann"], seed=11)
    game.roll()
    panel.coach_for(game.ruleset)
    coach = Coach(solve(game.ruleset))
    options = coach.options(coach.position_of(game), with_odds=False)
    actions = game.legal_actions()
    assert len(actions) == len(options)
    for action in actions:
        found = panel.cost_of(game, action)
        assert found is not None
        cost, best = found
        expected = next(o.regret for o in options if str(o.action) == str(action))
        assert cost == pytest.approx(expected) and cost >= 0
        assert best.action == options[0].action


def test_no_cost_without_dice_a_table_or_an_exact_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game("kids", ["Ann"], seed=11)
    panel.coach_for(game.ruleset)
    assert panel.cost_of(game, game.legal_actions()[0]) is None  # no dice yet
    game.roll()
    monkeypatch.setattr(panel, "_tables", {})
    assert panel.cost_of(game, game.legal_actions()[0]) is None  # never waits for a build
    dozzy = Game("dozzy", ["Ann"], seed=1)
    dozzy.roll()
    assert panel.cost_of(dozzy, dozzy.legal_actions()[-1]) is None


@pilot_test
async def test_the_warning_asks_before_a_costly_move_and_is_remembered() -> None:

    app = YatzyApp(Game("kids", ["Ann"], seed=11), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w")  # off -> more than 1 point
        assert app.settings.warn_above == 1.0 and Settings.load().warn_above == 1.0
        await until(pilot, lambda: panel.ready(app.played.ruleset))  # type: ignore[union-attr]
        await pilot.press("r")
        screen = play_screen(app)
        game = screen.game
        costs = {a: panel.cost_of(game, a) for a in game.legal_actions() if isinstance(a, Score)}
        worst = max(costs, key=lambda a: costs[a][0])  # type: ignore[index]
        assert costs[worst][0] > 1.0  # type: ignore[index]
        before = list(game.log)
        screen.act(worst)
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and bool(app.screen.query("Static")))
        assert "loses" in str(app.screen.query_one("Static").render())
        await pilot.press("n")  # not played: nothing changes
        assert game.log == before
        screen.act(worst)
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")  # played anyway
        await until(pilot, lambda: game.log[-1] == worst)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(game.log[-1], Roll))  # rolled
        played_before = len(game.log)
        best = min(game.legal_actions(), key=lambda a: panel.cost_of(game, a)[0])  # type: ignore[index]
        screen.act(best)  # the best move is played at once
        await until(pilot, lambda: len(game.log) > played_before)
        played = game.log[-1]
        assert (played.keep == best.keep if isinstance(best, Roll) else played == best)  # type: ignore[union-attr]
        assert not isinstance(app.screen, ConfirmScreen)
        for _ in range(4):
            await pilot.press("w")
        assert app.settings.warn_above is None  # 3, 5, 10, then off


@pilot_test
async def test_a_costly_zero_is_asked_about_once_in_one_question_that_says_both() -> None:
    app = YatzyApp(Game("kids", ["Ann"], seed=11), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w")  # more than 1 point
        await until(pilot, lambda: panel.ready(app.played.ruleset))  # type: ignore[union-attr]
        await pilot.press("r")
        screen = play_screen(app)
        game = screen.game
        options = screen.session.view().score_options
        assert any(o.points for o in options)
        costs = {o.id: panel.cost_of(game, Score(o.id)) for o in options if o.points == 0}
        zero = next(o for o in options if o.id == max(costs, key=lambda box: costs[box][0]))  # type: ignore[index]
        lost, best = costs[zero.id]  # type: ignore[misc]
        assert lost > 1.0
        before = list(game.log)
        await fill(pilot, zero.id)
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                    and bool(app.screen.query("#question")))
        question = str(app.screen.query_one("#question").render())
        assert question.startswith(f"Fill {box_label(zero.number, zero.name)} with 0? Other boxes")
        assert f"loses {lost:.1f} points against the coach's best: {best.action.describe()}" in question
        await pilot.press("n")  # not played, and no second question
        await until(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        assert not isinstance(app.screen, ConfirmScreen) and game.log == before
        await fill(pilot, zero.id)
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")  # one yes plays it
        await until(pilot, lambda: game.log[-1] == Score(zero.id))
        assert not isinstance(app.screen, ConfirmScreen)
        assert screen.session.view().players[0].boxes[zero.number - 1].points == 0


@pilot_test
async def test_the_warnings_threshold_is_counted_in_points_in_each_language() -> None:
    """ "more than 1 point", not "more than 1 points"; Russian has a form for each count."""
    for lang, one, three in (("en", "more than 1 point against", "more than 3 points against"),
                             ("ru", "больше 1 очка против", "больше 3 очков против")):
        said = await warnings_said(YatzyApp(Game("kids", ["Ann"], seed=11), lang=lang, pace=0), presses=2)
        assert one in said[0] and three in said[1], said


async def warnings_said(app: YatzyApp, presses: int) -> list[str]:
    """What the game says on each press of w, the warning off at first."""
    async with app.run_test(size=SIZE) as pilot:
        app.settings.warn_above = None  # the first app's choice is remembered: start from off
        await until(pilot, lambda: any(isinstance(s, PlayScreen) for s in app.screen_stack))
        seen: set[str] = set()
        said: list[str] = []

        def new() -> list[str]:
            """The notices not seen before (one may have timed out meanwhile on a slow machine)."""
            return [n.message for n in app._notifications if n.identity not in seen]

        for _ in range(presses):
            await pilot.press("w")
            await until(pilot, lambda: bool(new()))
            said += new()
            seen |= {n.identity for n in app._notifications}
        return said
