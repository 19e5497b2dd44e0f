"""Screenshots of the terminal game, compared with the accepted ones in __snapshots__.

Seeded games and a fixed terminal size make them the same on every run. After a deliberate
change of the screens: ``pytest tests/tui/test_snapshots.py --snapshot-update``, then look at
the new SVGs before committing them.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from helpers.tui import Compare, until
from yatzy.game import Game
from yatzy.seats import Seat
from yatzy.tui.app import YatzyApp
from yatzy.tui.coach import CoachPanel

SIZE = (120, 40)


def game() -> Game:
    return Game("yatzy", [Seat("Ann"), Seat("Greedy", "bot", "greedy"), Seat("Bo")], seed=7)


def test_new_game_screen(snap_compare: Compare) -> None:
    assert snap_compare(YatzyApp(pace=0), terminal_size=SIZE)


def test_new_game_screen_low_vision(snap_compare: Compare) -> None:
    assert snap_compare(YatzyApp(pace=0), press=["ctrl+t"], terminal_size=SIZE)


def test_play_screen(snap_compare: Compare) -> None:
    """Ann has rolled and holds two dice; the arrows have picked a box."""
    assert snap_compare(YatzyApp(game(), pace=0), press=["r", "1", "2", "down", "down"], terminal_size=SIZE)


def test_play_screen_low_vision(snap_compare: Compare) -> None:
    """Black on yellow, large dice: the held ones reversed and marked HELD."""
    assert snap_compare(YatzyApp(game(), pace=0), press=["ctrl+t", "r", "1", "2", "down", "down"],
                        terminal_size=SIZE)


def test_dozzy_play_screen(snap_compare: Compare) -> None:
    """The tile board, and the tiles the picked box sends out."""
    dozzy = Game("dozzy", [Seat("Ann"), Seat("Dozzy", "bot", "dozzy")], seed=3)
    assert snap_compare(YatzyApp(dozzy, pace=0), press=["r", "enter", "r"], terminal_size=SIZE)


SMALL = (80, 24)


def test_play_screen_80x24(snap_compare: Compare) -> None:
    """A small terminal: dice as digits in a 3-column grid beside three players' cards."""
    assert snap_compare(YatzyApp(game(), pace=0), press=["r", "1", "2", "down"], terminal_size=SMALL)


def test_play_screen_80x24_low_vision(snap_compare: Compare) -> None:
    """Black on yellow on a small terminal (a large font leaves few cells)."""
    maxi = Game("maxi", [Seat("Ann"), Seat("Bo")], seed=5)
    assert snap_compare(YatzyApp(maxi, pace=0), press=["ctrl+t", "r", "6"], terminal_size=SMALL)


LARGE = (160, 50)


async def coach_open(pilot: Pilot[Any]) -> None:
    """Ann has rolled and holds a die; the coach has ranked the moves."""
    await pilot.press("r", "1", "c")
    await until(pilot, lambda: bool(pilot.app.screen.query_one(CoachPanel).options), seconds=60)
    await pilot.pause()


async def coach_open_low_vision(pilot: Pilot[Any]) -> None:
    await pilot.press("ctrl+t")
    await coach_open(pilot)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x50"])
def test_coach(snap_compare: Compare, size: tuple[int, int]) -> None:
    """The coach open: on a small terminal in the card's place beside the dice, on a large one
    in the moves' place under them, the card beside."""
    assert snap_compare(YatzyApp(game(), pace=0), run_before=coach_open, terminal_size=size)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x50"])
def test_coach_low_vision(snap_compare: Compare, size: tuple[int, int]) -> None:
    assert snap_compare(YatzyApp(game(), pace=0), run_before=coach_open_low_vision, terminal_size=size)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x50"])
def test_new_game_screen_sizes(snap_compare: Compare, size: tuple[int, int]) -> None:
    """The check boxes read [x] or [ ]; Start is legible, focused."""
    assert snap_compare(YatzyApp(pace=0), terminal_size=size)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x50"])
def test_new_game_screen_sizes_low_vision(snap_compare: Compare, size: tuple[int, int]) -> None:
    assert snap_compare(YatzyApp(pace=0), press=["ctrl+t"], terminal_size=size)


def test_too_small(snap_compare: Compare) -> None:
    """Below 80x24: the notice of the size to make it, over the game."""
    assert snap_compare(YatzyApp(game(), pace=0), terminal_size=(50, 15))
