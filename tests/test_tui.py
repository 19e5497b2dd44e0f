"""The terminal game (Textual), played through its keys with Textual's pilot.

Each game here is played by pressing keys as a person would, and checked against the same
decisions sent straight to a Session: the UI must send exactly the moves the keys name.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from yatzy.game import Game, Roll, Score
from yatzy.seats import Seat
from yatzy.session import Session
from yatzy.tui.app import YatzyApp
from yatzy.tui.end import EndScreen
from yatzy.tui.play import PlayScreen
from yatzy.tui.widgets import ScoreCard
from yatzy.views import GameView

SIZE = (120, 40)


def pilot_test(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async pilot test in its own event loop (no async plugin needed)."""
    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))
    return run


@pytest.fixture(autouse=True)
def private_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings and the unfinished game go to the test's own folders, never the user's."""
    monkeypatch.setenv("YATZY_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("YATZY_DATA_DIR", str(tmp_path / "data"))


def best_box(view: GameView) -> str:
    """The test players' rule: the box worth most now (the first on the card on a tie)."""
    return max(sorted(view.score_options, key=lambda o: o.number), key=lambda o: o.points).id


def play_screen(app: YatzyApp) -> PlayScreen:
    screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
    return screen


async def fill(pilot, box: str) -> None:  # noqa: ANN001 - Textual's Pilot
    """Pick a box with the arrows (home: the first box that may be filled) and press Enter."""
    card = pilot.app.screen.query_one(ScoreCard)
    await pilot.press("home")
    steps = [card.boxes[i] for i in card.pickable].index(box)
    await pilot.press(*["down"] * steps, "enter")


def reference(game: Game, moves: list[Roll | Score]) -> Game:
    """The same moves sent straight to a session, bots moving at once."""
    session = Session(game, bot_seed=game.seed)
    session.prepare()
    for move in moves:
        session.advance()
        session.act(move)
    session.advance()
    return game


@pilot_test
async def test_a_yatzy_game_against_a_greedy_bot_played_by_keys() -> None:
    seats = [Seat("Ann"), Seat("Greedy", "bot", "greedy")]
    app = YatzyApp(Game("yatzy", seats, seed=11), pace=0)
    moves: list[Roll | Score] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = play_screen(app)
        for _ in range(15):
            await pilot.press("r")
            moves.append(Roll())
            view = screen.session.view()
            # keep the most common face (held with its number keys) and roll once more
            dice = view.dice
            assert dice is not None
            face = max(set(dice), key=lambda f: (dice.count(f), f))
            keys = [str(i + 1) for i, d in enumerate(dice) if d == face]
            if len(keys) < len(dice):
                await pilot.press(*keys, "space")
                moves.append(Roll(tuple(d for d in dice if d == face)))
            view = screen.session.view()
            box = best_box(view)
            await fill(pilot, box)
            moves.append(Score(box))
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        played = screen.session.game
        shown = app.screen.query_one("#standings").render()
        assert played.is_over
        view = screen.session.view()
        assert view.outcome is not None
        for s in view.outcome.standings:
            assert f"{s.name}" in str(shown) and str(s.total) in str(shown)
    twin = reference(Game("yatzy", seats, seed=11), moves)
    assert twin.totals() == played.totals()
    assert twin.log == played.log


@pilot_test
async def test_held_dice_are_marked_by_more_than_colour_and_kept_by_the_roll() -> None:
    app = YatzyApp(Game("yatzy", ["Ann"], seed=5), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = play_screen(app)
        await pilot.press("r")
        dice = screen.session.view().dice
        assert dice is not None
        await pilot.click("#die-1")
        await pilot.press("3")
        die = screen.query_one("#die-1")
        assert die.has_class("-held") and "HELD" in str(die.render())
        assert "HELD" not in str(screen.query_one("#die-0").render())
        await pilot.press("r")
        assert screen.session.game.log[-1].keep == tuple(sorted((dice[1], dice[2])))
