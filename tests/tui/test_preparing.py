"""The play screen while a bot's table is built: the stand-in build never solves anything
(helpers.tables), so a Maxi game is tested while its table "is being built"."""

from __future__ import annotations

import pytest

from helpers.tables import blocked_build
from helpers.tui import click, fill, laid_out, pilot_test, play_screen, until
from yatzy.game import Game
from yatzy.seats import Seat
from yatzy.tui.app import YatzyApp
from yatzy.tui.preparing import PreparingPanel
from yatzy.tui.setup import NewGameScreen

SIZE = (120, 40)


def maxi_app() -> YatzyApp:
    seats = [Seat("Me"), Seat.bot("greedy", "Greta"), Seat.bot("strong", "Stig")]
    return YatzyApp(Game("maxi", seats, seed=7), pace=0)


def text(app: YatzyApp, selector: str) -> str:
    return str(play_screen(app).query_one(selector).render())


@pilot_test
async def test_a_maxi_game_where_the_greedy_bot_moves_at_once_with_no_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with blocked_build(monkeypatch) as build:
        app = maxi_app()
        async with app.run_test(size=SIZE) as pilot:
            screen = play_screen(app)
            panel = screen.query_one(PreparingPanel)
            await until(pilot, lambda: panel.display and panel.last is not None)
            assert "loading the Maxi table for the strong bot" in text(app, "#prepare-text")
            await pilot.press("r")
            await fill(pilot, "chance")
            game = screen.game
            await until(pilot, lambda: game.state.current == 2)  # Greta played at once, no table
            assert game.state.players[1].card and build.calls == 1
            assert text(app, "#hint") == "Stig waits for its table."
            assert not game.state.players[2].card
            build.step(20, 1000)
            await until(pilot, lambda: "20 of 1,000 cards" in text(app, "#prepare-detail"))
            assert "measuring the time left" in text(app, "#prepare-detail")
            assert "g: the greedy bot plays instead" in text(app, "#prepare-keys")
            await pilot.press("g")  # the greedy bot takes Stig's seat and plays at once
            await until(pilot, lambda: game.state.current == 0)
            assert game.seats[2] == Seat("Stig", "bot", "greedy") and game.state.players[2].card
            assert not panel.display and screen.ready


@pilot_test
async def test_esc_while_a_table_is_built_goes_back_to_the_new_game_screen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with blocked_build(monkeypatch):
        app = maxi_app()
        async with app.run_test(size=SIZE) as pilot:
            panel = play_screen(app).query_one(PreparingPanel)
            await until(pilot, lambda: panel.display)
            assert "Esc: back to the new game screen" in str(panel.query_one("#prepare-keys").render())
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, NewGameScreen))


@pilot_test
async def test_the_new_game_screen_says_what_a_first_maxi_game_costs_and_what_plays_at_once() -> None:
    app = YatzyApp(pace=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)

        def cost() -> str:
            return str(screen.query_one("#table-cost").render())

        screen.query_one("#rules").value = "maxi"  # type: ignore[attr-defined]
        await until(pilot, lambda: bool(screen.query("#opt-saved_rolls")) and bool(screen.query("#kind-1")))
        assert cost() == ""  # the greedy bot needs no table
        await laid_out(pilot, "#kind-1")
        screen.query_one("#kind-1").value = "strong"  # type: ignore[attr-defined]
        await until(pilot, lambda: cost() != "")
        assert cost() == ("Maxi Yatzy (6 dice): the first game with the strong bot builds its table, "
                          "about 2 minutes and 1.8 GB, once; later games load it. The greedy bot needs "
                          "no table and plays at once. Yatzy (Scandinavian) starts at once.")
        await click(pilot, "#opt-saved_rolls")  # no saved rolls: a table a fifth the size
        await until(pilot, lambda: "about 35 seconds and 357 MB" in cost())
        screen.query_one("#kind-1").value = "random"  # type: ignore[attr-defined]
        await until(pilot, lambda: cost() == "")
