"""Text is text on the terminal app's screens: names that read as Rich or Textual markup, HTML
or a format field show exactly as typed on the play screen, in its notifications, the
standings, the review and the history; a name no seat may have is refused on the new game
screen in words, and no game starts (tests/helpers/hostile.py has the names)."""

from __future__ import annotations

from textual.widgets import DataTable, Input, Static
from textual.widgets._toast import Toast

from helpers.games import play_out
from helpers.hostile import REFUSED, SHOWN
from helpers.screen import rows
from helpers.tui import click, pilot_test, play_screen, until
from yatzy.game import Game
from yatzy.seats import Seat
from yatzy.storage import Database, record_game
from yatzy.tui.app import YatzyApp
from yatzy.tui.end import EndScreen
from yatzy.tui.history import HistoryScreen
from yatzy.tui.play import PlayScreen
from yatzy.tui.scorekeeper import KeeperScreen
from yatzy.tui.setup import NewGameScreen

SIZE = (120, 40)
ODD = SHOWN[:4]
"""Four names that are markup or HTML ("[/x]" alone was a MarkupError)."""


def text_of(app: YatzyApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


@pilot_test
async def test_a_forbidden_name_on_the_new_game_screen_is_refused_in_words() -> None:
    for name in (REFUSED["an escape (C0)"], REFUSED["a right-to-left override"], "x" * 41):
        app = YatzyApp(pace=0)
        async with app.run_test(size=SIZE) as pilot:
            app.screen.query_one("#name-0", Input).value = name
            await click(pilot, "#start")
            assert isinstance(app.screen, NewGameScreen)
            said = text_of(app, "#error")
            assert "U+" in said or "at most 40 characters" in said, said


@pilot_test
async def test_a_markup_name_typed_on_the_new_game_screen_plays_as_typed() -> None:
    app = YatzyApp(pace=0)
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#name-0", Input).value = "[/x]"
        await click(pilot, "#start")
        await until(pilot, lambda: isinstance(app.screen, PlayScreen))
        assert play_screen(app).game.seats[0].name == "[/x]"
        assert "[/x]" in text_of(app, "#turn")


@pilot_test
async def test_the_play_screen_and_its_notifications_show_markup_names_as_typed() -> None:
    game = Game("kids", [*(Seat.bot("greedy", n) for n in ODD[1:]), Seat(ODD[0])], seed=2)
    app = YatzyApp(game, pace=1.0)  # the bots take their time: a key pressed now is told whose turn it is
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, PlayScreen))
        assert ODD[1] in text_of(app, "#turn")
        await pilot.press("r")  # not your turn: "<name> is playing; s skips to your turn"
        await until(pilot, lambda: bool(list(app._notifications)))
        toasts = " ".join(str(Toast(n).render()) for n in app._notifications)  # as its toast draws it
        assert f"{ODD[1]} is playing" in toasts, toasts


@pilot_test
async def test_the_standings_review_and_history_show_markup_names_as_typed() -> None:
    game = play_out(Game("kids", [Seat(ODD[0]), *(Seat.bot("greedy", n) for n in ODD[1:])], seed=2),
                    people="random")
    record_game(Database(), game)
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        standings = text_of(app, "#standings")
        assert all(n in standings for n in ODD), standings
        await pilot.press("a")
        await until(pilot, lambda: "lost" in str(app.screen.query("#review-summary").first(Static).render()))
        assert f"{ODD[0]} lost" in text_of(app, "#review-summary")
    app = YatzyApp(pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
        table = app.screen.query_one("#history-list", DataTable)
        row = " ".join(str(c) for c in table.get_row_at(0))
        assert all(n in row for n in ODD), row


@pilot_test
async def test_the_scorekeeper_screen_shows_markup_names_as_typed() -> None:
    game = Game("kids", ODD, dice_from="players")
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, KeeperScreen) and ODD[0] in "\n".join(rows(app)))
        screen = "\n".join(rows(app))
        assert all(n in screen for n in ODD[:3]) and "<img src=x" in screen, screen  # a column cuts the 4th
