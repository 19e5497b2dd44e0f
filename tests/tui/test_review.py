"""The review screen after a game: the analysis as the screen shows it, and the replay.

Games here are played whole by the engine (a person seat played by the random bot, so it
loses points; a greedy bot beside it), opened in the app (the standings come at once, a
opens the review), and checked against :func:`yatzy.analysis.analyse` and the engine's
replay. Kids' Yatzy keeps the solver's table fast; the screenshots show a Yatzy game.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, ProgressBar

from helpers.games import play_out
from helpers.tui import Compare, pilot_test, until
from yatzy.analysis import AnalysisError, Decision, analyse, check_analysable
from yatzy.game import Game, Roll
from yatzy.narration import decision_move, decision_text
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.solver.solve import solve
from yatzy.tui.app import YatzyApp
from yatzy.tui.end import EndScreen
from yatzy.tui.review import ReviewScreen, lost_text, points
from yatzy.tui.texts import dice_text

pytestmark = pytest.mark.slow  # terminal pilots and screenshots: not in the fast tier

SMALL = (80, 24)


def played(rules: str = "kids", seed: int = 5, others: tuple[str, ...] = ("Bo",), **options: Any) -> Game:
    """A whole game: Ann (a person's seat) plays at random, the others are bots (greedy; in DOZZY
    its bot)."""
    rs = get_ruleset(rules, **options)
    level = "dozzy" if rs.uses_board else "greedy"
    game = Game(rs, [Seat("Ann"), *(Seat.bot(level, name) for name in others)], seed=seed)
    return play_out(game, seed=seed, people="random")


async def open_review(pilot: Pilot[Any], analysed: bool = True) -> ReviewScreen:
    """From the standings of the finished game, a opens the review (and its analysis is awaited)."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, EndScreen))
    await pilot.press("a")
    await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    if analysed:
        await until(pilot, lambda: screen.analysis is not None)
    await pilot.pause()
    return screen


def shown(screen: ReviewScreen, selector: str) -> str:
    return str(screen.query_one(selector).render())


def rows(screen: ReviewScreen, selector: str) -> list[list[str]]:
    table = screen.query_one(selector, DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


def row_of(d: Decision, rank: int | None = None) -> list[str]:
    cells = [str(d.turn), dice_text(d.dice), lost_text(d.points_lost),
             decision_move(d.played, d.played_points),
             decision_move(d.best, d.best_points) if d.points_lost >= 0.05 else ""]
    return cells if rank is None else [str(rank), *cells]


def dice_shown(screen: ReviewScreen) -> tuple[int, ...]:
    """The faces of the dice picture, read off its middle line."""
    lines = shown(screen, "#review-dice").splitlines()
    return tuple(int(f) for f in re.findall(r"\d", lines[1])) if len(lines) > 1 else ()


# ---- the analysis --------------------------------------------------------------------------

@pilot_test
async def test_the_review_shows_each_players_losses_as_the_analysis_found_them() -> None:
    game = played()
    expected = analyse(game)
    ann, bo = expected.seat(0), expected.seat(1)
    assert len(ann.costliest) == 3 and ann.total_lost > bo.total_lost > 0
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_review(pilot)
        assert screen.game is game and screen.seat == 0  # the person first
        summary = shown(screen, "#review-summary")
        total = points(ann.total_lost)
        assert f"Ann lost {total} points to the coach in {len(ann.decisions)} decisions" in summary
        assert rows(screen, "#review-costliest") == [row_of(d, n) for n, d in enumerate(ann.costliest, 1)]
        assert rows(screen, "#review-decisions") == [row_of(d) for d in ann.decisions]
        await pilot.press("2")  # Bo's tab
        assert screen.seat == 1
        assert f"Bo lost {points(bo.total_lost)} points" in shown(screen, "#review-summary")
        assert rows(screen, "#review-costliest") == [row_of(d, n) for n, d in enumerate(bo.costliest, 1)]
        await pilot.press("1")
        assert rows(screen, "#review-decisions")[0] == row_of(ann.decisions[0])
        await pilot.press("escape")  # back to the standings
        assert isinstance(app.screen, EndScreen)


@pilot_test
async def test_a_decision_chosen_in_the_table_shows_its_step_and_verdict() -> None:
    game = played()
    worst = analyse(game).seat(0).costliest[0]
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_review(pilot)
        decisions = [d.index for d in analyse(game).seat(0).decisions]
        await pilot.press(*["down"] * decisions.index(worst.index), "enter")
        assert screen.step == worst.index
        assert dice_shown(screen) == worst.dice
        verdict = shown(screen, "#review-verdict")
        assert verdict == decision_text(worst, game.seats[worst.seat].name)  # "Ann scored Twos for 0; ..."
        assert f"−{points(worst.points_lost)}" in verdict
        assert f"Step {worst.index} of {len(game.log)}" in shown(screen, "#review-step")
        await pilot.press("tab")  # back to the list, its cursor on that decision
        table = screen.query_one("#review-decisions", DataTable)
        assert table.has_focus and table.cursor_row == decisions.index(worst.index)


@pilot_test
async def test_the_table_is_built_with_a_progress_bar_while_the_replay_works(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A ruleset whose table is not at hand yet: the bar shows the build, the replay steps
    meanwhile, and the analysis follows once the table is there (a stand-in build waits here)."""
    release = threading.Event()

    def slow_solve(ruleset: Any, *, progress: Callable[[int, int], None] | None = None) -> Any:
        assert progress is not None
        progress(1, 4)
        release.wait(10)
        return solve(ruleset)

    monkeypatch.setattr("yatzy.solver.tables.solve", slow_solve)
    game = played("kids", bonus_threshold=42)  # a table of its own, built on opening the review
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_review(pilot, analysed=False)
        bar = screen.query_one("#review-bar", ProgressBar)
        await until(pilot, lambda: bar.progress == 1)
        assert bar.total == 4 and screen.query_one("#review-progress").display
        assert "Building the" in shown(screen, "#review-summary")
        await pilot.press("tab", "right", "right")
        assert screen.step == 2 and "on its way" in shown(screen, "#review-verdict")
        release.set()
        await until(pilot, lambda: screen.analysis is not None)
        await pilot.pause()
        assert not screen.query_one("#review-progress").display
        assert screen.analysis == analyse(game)


@pilot_test
async def test_leaving_while_the_table_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """Esc while the table is built: back at the standings at once, and nothing breaks later."""
    release = threading.Event()

    def slow_solve(ruleset: Any, *, progress: Callable[[int, int], None] | None = None) -> Any:
        release.wait(10)
        return solve(ruleset)

    monkeypatch.setattr("yatzy.solver.tables.solve", slow_solve)
    app = YatzyApp(played("kids", bonus_threshold=41), pace=0)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_review(pilot, analysed=False)
        await pilot.press("escape")
        assert isinstance(app.screen, EndScreen)
        release.set()
        await pilot.pause(0.3)
        assert screen.analysis is None and isinstance(app.screen, EndScreen)


# ---- the replay ----------------------------------------------------------------------------

@pilot_test
async def test_stepping_through_the_log_shows_each_roll_and_the_cards_of_that_moment() -> None:
    game = played()
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_review(pilot)
        await pilot.press("tab")
        assert screen.step == 0 and dice_shown(screen) == ()
        rolls = [i for i, a in enumerate(game.log) if isinstance(a, Roll)]
        for n in (1, 2, 5):  # the nth roll of the game is on the table after its action
            await pilot.press(*["right"] * (rolls[n - 1] + 1 - screen.step))
            roll = game.log[rolls[n - 1]]
            assert isinstance(roll, Roll) and roll.result is not None
            assert dice_shown(screen) == tuple(sorted(roll.keep + roll.result))
            twin = Game.from_dict({**game.to_dict(), "log": game.to_dict()["log"][:screen.step]})
            assert screen.view_on_show is not None
            assert [p.total for p in screen.view_on_show.players] == twin.totals()
        await pilot.press("left", "p")
        assert screen.step == rolls[4] - 1
        await pilot.press("end")
        assert screen.step == len(game.log) and "wins with" in shown(screen, "#review-verdict")
        await pilot.press("n")  # nothing after the end
        assert screen.step == len(game.log)
        await pilot.press("home", "n")
        assert screen.step == 1 and dice_shown(screen) == tuple(sorted(game.log[0].result or ()))  # type: ignore[union-attr]


@pilot_test
async def test_an_unfinished_game_is_reviewed_up_to_where_it_was_left() -> None:
    whole = played()
    part = Game.from_dict({**whole.to_dict(), "log": whole.to_dict()["log"][:20]})
    app = YatzyApp(whole, pace=0)  # the history opens a stored game the same way
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        app.push_screen(ReviewScreen(part, "en"))
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await until(pilot, lambda: screen.analysis is not None)
        assert screen.analysis == analyse(part)
        await pilot.press("end")
        assert screen.step == 20 and "unfinished" in shown(screen, "#review-verdict")


@pilot_test
async def test_dozzy_says_why_there_is_no_analysis_and_still_replays() -> None:
    game = played("dozzy", seed=3)
    with pytest.raises(AnalysisError) as refused:
        check_analysable(game)
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_review(pilot, analysed=False)
        assert screen.problem == str(refused.value)
        assert str(refused.value) in shown(screen, "#review-verdict")
        await pilot.press("right", "right", "right")
        assert screen.step == 3
        twin = Game.from_dict({**game.to_dict(), "log": game.to_dict()["log"][:3]})
        assert dice_shown(screen) == twin.state.dice
        assert "Tiles" in shown(screen, "#review-board")
        await pilot.press("tab")
        assert str(refused.value) in shown(screen, "#review-summary")
        assert not screen.query_one("#review-decisions").display
        assert screen.analysis is None


# ---- how it looks ---------------------------------------------------------------------------

def yatzy_game() -> Game:
    return played("yatzy", seed=5)


def after(*keys: str, low_vision: bool = False) -> Callable[[Pilot[Any]], Coroutine[Any, Any, None]]:
    """Open the review from the standings, wait for the analysis, then press ``keys``."""
    async def steps(pilot: Pilot[Any]) -> None:
        if low_vision:
            await pilot.press("ctrl+t")
        screen = await open_review(pilot)  # the analysis is done
        assert not screen.query_one("#review-progress").display
        await pilot.press(*keys)
        await pilot.pause()
    return steps


def test_review_decisions_snapshot(snap_compare: Compare) -> None:
    """Ann's losses, her three costliest moments and the first of her decisions, at 80 x 24."""
    assert snap_compare(YatzyApp(yatzy_game(), pace=0), terminal_size=SMALL, run_before=after())


def test_review_decisions_snapshot_low_vision(snap_compare: Compare) -> None:
    assert snap_compare(YatzyApp(yatzy_game(), pace=0), terminal_size=SMALL,
                        run_before=after("down", "down", low_vision=True))


def test_review_replay_snapshot(snap_compare: Compare) -> None:
    """The step of a keep that lost points: the kept dice marked, the verdict under them."""
    assert snap_compare(YatzyApp(yatzy_game(), pace=0), terminal_size=SMALL,
                        run_before=after("down", "enter"))


def test_review_replay_snapshot_low_vision(snap_compare: Compare) -> None:
    """A score that lost points, its box picked on the cards; black on yellow."""
    assert snap_compare(YatzyApp(yatzy_game(), pace=0), terminal_size=SMALL,
                        run_before=after("down", "down", "down", "enter", low_vision=True))


def test_review_replay_snapshot_four_players(snap_compare: Compare) -> None:
    """Four cards leave no room beside them at 80 x 24: the dice and the verdict go above."""
    game = played("yatzy", seed=5, others=("Bo", "Cy", "Di"))
    assert snap_compare(YatzyApp(game, pace=0), terminal_size=SMALL, run_before=after("down", "enter"))


def test_review_dozzy_snapshot(snap_compare: Compare) -> None:
    """No analysis for DOZZY: the reason, the tiles, and the replay all the same."""
    async def steps(pilot: Pilot[Any]) -> None:
        await open_review(pilot, analysed=False)
        await pilot.press("right", "right", "right")
        await pilot.pause()
    assert snap_compare(YatzyApp(played("dozzy", seed=3), pace=0), terminal_size=SMALL, run_before=steps)


@pilot_test
async def test_an_analysis_made_after_the_end_is_kept_with_the_game_in_the_history() -> None:
    """A finished game is kept the moment it ends; an analysis made from the standings goes
    with it, so the history's "lost to the coach" is filled in (before the app closes)."""
    from yatzy.storage import Database, list_games, player_stats

    game = played()
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_review(pilot)
        assert screen.analysis is not None
        with Database() as db:
            stats = {s.name: s for s in player_stats(db, "kids")}
            assert len(list_games(db)) == 1
    assert stats["Ann"].mean_points_lost == pytest.approx(screen.analysis.seat(0).total_lost, abs=0.01)
