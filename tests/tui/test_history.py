"""The history screen of the terminal game: finished games, statistics, records, a histogram.

Games are played whole by bots and kept through the storage layer in the test's own data
folder (the default database the screen opens); the screen opens from the new game screen's
h key, as a person would open it. What it shows is checked against the storage layer's own
answers, and snapshots at 80 x 24 in both themes keep its looks.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Input, Select, Static, TabbedContent

from helpers.games import play_out
from helpers.tui import Compare, pilot_test, until
from yatzy.actions import Roll, Score
from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.storage import Database, list_games, load_game, player_stats, record_game, score_histogram
from yatzy.tui.app import YatzyApp
from yatzy.tui.history import HistoryScreen
from yatzy.tui.review import ReviewScreen

pytestmark = pytest.mark.slow  # terminal pilots and screenshots: not in the fast tier

SIZE = (80, 24)
T0 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)

GAMES: list[tuple[str, list[Seat]]] = [
    ("yatzy", [Seat("Ann"), Seat.bot("greedy"), Seat.bot("random", "Rita")]),
    ("yatzy", [Seat("Ann"), Seat.bot("greedy")]),
    ("kids", [Seat("Bo"), Seat("Ann")]),
    ("yatzy", [Seat("Ann"), Seat("Bo"), Seat.bot("greedy")]),
    ("maxi", [Seat("Ann"), Seat.bot("greedy")]),
    ("yatzy", [Seat("Bo"), Seat.bot("greedy")]),
]
"""Finished games kept in the history, oldest first; people play as the greedy bot."""


@pytest.fixture(autouse=True)
def private_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Settings and games in the test's own folders; times shown in UTC (the snapshots)."""
    monkeypatch.setenv("YATZY_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("YATZY_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def played(rules: str, seats: list[Seat], seed: int) -> Game:
    return play_out(Game(get_ruleset(rules), seats, seed=seed), seed=seed)


@pytest.fixture
def db() -> Iterator[Database]:
    """The default database (in the test's data folder) with GAMES kept, five hours apart,
    and one unfinished game the history leaves out."""
    with Database() as database:
        for i, (rules, seats) in enumerate(GAMES):
            record_game(database, played(rules, seats, 100 + i), at=T0 + timedelta(hours=5 * i))
        unfinished = Game("yatzy", [Seat("Ann"), Seat("Cy")], seed=1)
        record_game(database, unfinished, at=T0 + timedelta(days=9))
        yield database


def shown(widget: Static) -> list[str]:
    """The lines a Static shows, as plain text at its width."""
    console = Console(width=widget.content_size.width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(widget.content)
    return [line.rstrip() for line in console.export_text().splitlines()]


async def open_history(pilot: Pilot[Any]) -> HistoryScreen:
    await pilot.pause()
    await pilot.press("h")
    await until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen)
                and bool(pilot.app.screen.query("#history-list, #history-empty")))
    screen = pilot.app.screen
    assert isinstance(screen, HistoryScreen)
    return screen


async def choose(pilot: Pilot[Any], select: str, value: str) -> None:
    pilot.app.screen.query_one(f"#{select}", Select).value = value
    await pilot.pause()


def stats_line(s: Any) -> list[str]:
    """A player's row of statistics as shown (Kids' Yatzy has no Yatzy box, so no Yatzy rate)."""
    lost = "–" if s.mean_points_lost is None else f"{s.mean_points_lost:.1f}"
    yatzy = [] if s.ruleset == "kids" else [f"{s.yatzy_rate:.0%}"]
    return [*s.name.split(), str(s.games), str(s.wins), f"{s.mean:.1f}", str(s.best), f"{s.bonus_rate:.0%}",
            *yatzy, lost]


# ---- the list ---------------------------------------------------------------------------------

@pilot_test
async def test_h_on_the_new_game_screen_lists_finished_games_newest_first(db: Database) -> None:
    app = YatzyApp(pace=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        table = screen.query_one("#history-list", DataTable)
        finished = list_games(db, finished=True)
        assert len(finished) == len(GAMES)
        assert [int(str(k.value)) for k in table.rows] == [g.id for g in finished]
        first = [str(c) for c in table.get_row_at(0)]
        newest = finished[0]
        assert first[0] == (T0 + timedelta(hours=5 * (len(GAMES) - 1))).strftime("%Y-%m-%d")
        assert first[1].startswith("Yatzy (")
        assert first[2] == "Greedy bot" == " and ".join(newest.winners)
        assert first[3] == " · ".join(f"{s.name} {s.total}" for s in newest.seats)
        # one game type: its column goes, the list keeps that type only
        await choose(pilot, "history-rules", "yatzy")
        assert [int(str(k.value)) for k in table.rows] == [g.id for g in list_games(db, ruleset="yatzy",
                                                                                   finished=True)]
        assert len(table.columns) == 3
        # one player: the games Bo sat in
        await choose(pilot, "history-rules", "")
        await choose(pilot, "history-player", "Bo")
        assert [int(str(k.value)) for k in table.rows] == [g.id for g in list_games(db, player="Bo",
                                                                                   finished=True)]
        assert table.row_count == 3
        # Esc goes back to the new game screen
        await pilot.press("escape")
        assert app.screen.id == "setup"


@pilot_test
async def test_h_in_a_text_field_is_a_letter_and_opens_the_history_elsewhere() -> None:
    app = YatzyApp(pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.id == "setup")
        for field, typed in (("#name-0", "x7h"), ("#seed", "7")):  # the seed field takes digits only
            entry = app.screen.query_one(field, Input)
            entry.focus()
            await pilot.press("end", "x", "7", "h")
            await pilot.pause()
            assert entry.value.endswith(typed) and app.focused is entry
            assert app.screen.id == "setup"
            assert not any(isinstance(s, HistoryScreen) for s in app.screen_stack)
        app.screen.query_one("#start", Button).focus()
        await open_history(pilot)


@pilot_test
async def test_enter_on_a_game_opens_its_review(db: Database) -> None:
    app = YatzyApp(pace=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        await choose(pilot, "history-rules", "kids")  # the solver's table of Kids' Yatzy is quick
        screen.query_one("#history-list", DataTable).focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        review = app.screen
        assert isinstance(review, ReviewScreen)
        (kids,) = list_games(db, ruleset="kids")
        assert review.game.to_dict() == load_game(db, kids.id).to_dict() and review.lang == "en"
        assert player_stats(db, "kids")[0].mean_points_lost is None
        await until(pilot, lambda: review.analysis is not None)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        # the points lost the review found are kept, and the statistics show them
        analysed = player_stats(db, "kids")
        assert all(s.analysed == 1 and s.mean_points_lost is not None for s in analysed)
        await pilot.press("2")
        lines = shown(screen.query_one("#history-stats-text", Static))
        rows = [line.split() for line in lines if any(line.startswith(s.name + " ") for s in analysed)]
        assert rows == [stats_line(s) for s in analysed] and rows[0][-1] != "–"


@pilot_test
async def test_an_empty_history_says_where_games_come_from() -> None:
    app = YatzyApp(pace=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        text = " ".join(shown(screen.query_one("#history-empty", Static)))
        assert "Games appear here when they are finished" in text
        assert not screen.query(DataTable)
        await pilot.press("1", "2", "enter", "escape")
        assert app.screen.id == "setup"


# ---- statistics and the histogram ------------------------------------------------------------------

@pilot_test
async def test_statistics_are_the_storage_layers(db: Database) -> None:
    app = YatzyApp(pace=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        await pilot.press("2")
        assert screen.query_one(TabbedContent).active == "history-stats"
        stats = screen.query_one("#history-stats-text", Static)
        await choose(pilot, "history-rules", "yatzy")
        lines = shown(stats)
        expected = player_stats(db, "yatzy")
        assert len(expected) == 4
        rows = [line.split() for line in lines if any(line.startswith(s.name + " ") for s in expected)]
        assert rows == [stats_line(s) for s in expected]
        assert lines[0] == "Yatzy (Scandinavian)"
        # every game type: a section each, the yatzy one the same
        await choose(pilot, "history-rules", "")
        text = "\n".join(shown(stats))
        for title in ("Yatzy (Scandinavian)", "Kids' Yatzy", "Maxi Yatzy (6 dice)"):
            assert title in text
        # one player
        await choose(pilot, "history-rules", "yatzy")
        await choose(pilot, "history-player", "Bo")
        rows = [line.split() for line in shown(stats) if line.startswith("Bo ")]
        assert rows == [stats_line(s) for s in player_stats(db, "yatzy", player="Bo")]


def bars(lines: list[str]) -> tuple[int, list[tuple[str, int]]]:
    """The bin width a histogram's heading names, and each bar's label and count."""
    width = int(re.search(r"bins of (\d+) points", lines[0]).group(1))  # type: ignore[union-attr]
    rows = []
    for line in lines[1:]:
        if "│" not in line:
            break
        label, bar = line.split("│")
        rows.append((label.strip(), int(bar.split()[-1])))
    return width, rows


@pilot_test
async def test_the_histogram_counts_are_the_storage_layers(db: Database) -> None:
    app = YatzyApp(pace=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        await pilot.press("3")
        assert screen.query_one(TabbedContent).active == "history-scores"
        await choose(pilot, "history-rules", "yatzy")
        lines = shown(screen.query_one("#history-scores-text", Static))
        assert lines[0].startswith("Yatzy (Scandinavian): 10 final totals")
        width, rows = bars(lines)
        histogram = score_histogram(db, "yatzy", width)
        assert rows == [(f"{low}–{low + width - 1}", n) for low, n in histogram.bins]
        assert sum(n for _label, n in rows) == 10
        # longer bars for more games: the longest bar is the most common bin
        longest = max(lines[1:len(rows) + 1], key=lambda line: line.count("█"))
        assert int(longest.split()[-1]) == max(n for _low, n in histogram.bins)
        await choose(pilot, "history-player", "Ann")
        width, rows = bars(shown(screen.query_one("#history-scores-text", Static)))
        assert rows == [(f"{low}–{low + width - 1}", n)
                        for low, n in score_histogram(db, "yatzy", width, player="Ann").bins]


@pilot_test
async def test_the_screen_speaks_the_language_it_is_given(db: Database) -> None:
    app = YatzyApp(pace=0, lang="fi")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        assert screen.lang == "fi"
        table = screen.query_one("#history-list", DataTable)
        assert str(table.columns[table.ordered_columns[-1].key].label) == "pelaajat ja pisteet"


# ---- looks ------------------------------------------------------------------------------------

def test_snapshot_list(snap_compare: Compare, db: Database) -> None:
    assert snap_compare(YatzyApp(pace=0), press=["h"], terminal_size=SIZE)


def test_snapshot_list_low_vision(snap_compare: Compare, db: Database) -> None:
    assert snap_compare(YatzyApp(pace=0), press=["ctrl+t", "h"], terminal_size=SIZE)


def test_snapshot_statistics(snap_compare: Compare, db: Database) -> None:
    assert snap_compare(YatzyApp(pace=0), press=["h", "2"], terminal_size=SIZE)


def test_snapshot_statistics_low_vision(snap_compare: Compare, db: Database) -> None:
    assert snap_compare(YatzyApp(pace=0), press=["ctrl+t", "h", "2"], terminal_size=SIZE)


def test_snapshot_histogram(snap_compare: Compare, db: Database) -> None:
    assert snap_compare(YatzyApp(pace=0), press=["h", "3"], terminal_size=SIZE)


def test_snapshot_histogram_low_vision(snap_compare: Compare, db: Database) -> None:
    assert snap_compare(YatzyApp(pace=0), press=["ctrl+t", "h", "3"], terminal_size=SIZE)


def test_snapshot_empty(snap_compare: Compare) -> None:
    assert snap_compare(YatzyApp(pace=0), press=["h"], terminal_size=SIZE)


@pilot_test
async def test_typed_dice_are_counted_apart_and_marked() -> None:
    """A scorekeeper game of typed dice is marked in the list, and counted only when the dice
    filter asks for typed dice: never among the records of the program's dice."""
    real = played("kids", [Seat("Ann"), Seat("Bo")], 5)
    typed = Game("kids", [Seat("Ann"), Seat("Bo")], first=0)
    for face in range(1, 7):  # five of each face: every box perfect, 105 each
        for _ in typed.seats:
            typed.apply(Roll((), (face,) * 5))
            typed.apply(Score(typed.ruleset.categories[face - 1].id))
    with Database() as database:
        record_game(database, real, at=T0)
        record_game(database, typed, "players", at=T0 + timedelta(hours=1))
    app = YatzyApp(pace=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_history(pilot)
        table = screen.query_one("#history-list", DataTable)
        assert [str(table.get_row_at(i)[-1]) for i in range(table.row_count)] == ["typed", ""]  # newest first
        await pilot.press("2")
        await pilot.pause()
        stats = screen.query_one("#history-stats-text", Static)
        best = str(typed.total(0))
        assert str(real.total(0)) in " ".join(shown(stats))
        assert best not in " ".join(shown(stats))  # no record of the program's dice
        await choose(pilot, "history-dice", "players")
        assert best in " ".join(shown(stats))
        assert any("typed at a real table" in line for line in shown(stats))


def test_a_bot_named_like_another_player_is_told_apart_by_its_level_in_the_language() -> None:
    from yatzy.i18n import language
    from yatzy.tui.history import who

    players = [("Ann", "person", None), ("Ann", "bot", "greedy")]
    with language("fi"):
        assert who("Ann", "bot", "greedy", players) == "Ann (botti: ahne)"
        assert who("Ann", "person", None, players) == "Ann"
