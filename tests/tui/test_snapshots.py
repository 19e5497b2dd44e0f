"""Screenshots of the terminal game, compared with the accepted ones in __snapshots__.

Seeded games and a fixed terminal size make them the same on every run. After a deliberate
change of the screens: ``pytest tests/tui/test_snapshots.py --snapshot-update``, then look at
the new SVGs before committing them.
"""

from __future__ import annotations

from helpers.tui import Compare
from yatzy.game import Game
from yatzy.seats import Seat
from yatzy.tui.app import YatzyApp

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
