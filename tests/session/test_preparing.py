"""Bots and their tables: only a seat that plays from the solver's table waits for it, the
others play meanwhile; the build reports how far it is and the time left (a controlled clock)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

import pytest

from helpers.tables import blocked_build
from helpers.wait import wait_for
from yatzy import session as session_module
from yatzy.bots import GreedyBot, bot_spec
from yatzy.errors import InvalidActionError
from yatzy.events import Rolled, Scored
from yatzy.game import Game
from yatzy.i18n import language
from yatzy.narration import duration_text, table_progress_text
from yatzy.rules import Ruleset
from yatzy.seats import Seat
from yatzy.session import Preparing, Session
from yatzy.solver.tables import Estimate, Stopped, TableProgress


class Clock:
    """Time that moves only when the test says."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def maxi_game() -> Game:
    return Game("maxi", [Seat("Me"), Seat.bot("greedy", "Greta"), Seat.bot("strong", "Stig")], seed=7)


def test_a_maxi_game_where_the_greedy_bot_moves_at_once_with_no_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = maxi_game()
    session = Session(game, bot_seed=1)
    assert session.table_seats() == (2,)
    assert session.bot_ready(1) and not session.bot_ready(2)
    reports: list[Preparing] = []
    leave = threading.Event()

    def report(p: Preparing) -> None:
        if leave.is_set():
            raise Stopped
        reports.append(p)

    with blocked_build(monkeypatch) as build:
        preparing = threading.Thread(target=lambda: pytest.raises(Stopped, session.prepare, report))
        preparing.start()
        wait_for(lambda: build.calls == 1, what="the build to start")
        # the person plays, then the greedy bot: at once, while the strong bot's table "builds"
        session.act("r")
        session.act("s chance")
        events = session.advance()
        assert [e.player for e in events if isinstance(e, Scored)] == [1]
        assert any(isinstance(e, Rolled) and e.player == 1 for e in events)
        assert game.state.current == 2 and session.waiting_for() is None
        assert not session.bot_ready(2)  # the strong bot waits, alone
        assert reports[0].stage == "loading" and reports[0].seats == (2,) and reports[0].levels == ("strong",)
        assert reports[0].ruleset == game.ruleset.name
        leave.set()
        build.step(20, 1000)  # the next layer: nobody waits any more, the build stops
        preparing.join()
    assert not session.bot_ready(2) and build.calls == 1


def test_a_seat_waiting_for_its_table_may_get_a_bot_that_needs_none(monkeypatch: pytest.MonkeyPatch) -> None:
    game = maxi_game()
    session = Session(game, bot_seed=1)
    with blocked_build(monkeypatch):
        session.change_bot(2, "Random")
        assert session.bot_ready(2) and session.table_seats() == ()
        assert game.seats[2] == Seat("Stig", "bot", "random")  # the save says who played
    with pytest.raises(InvalidActionError, match="seat 0 is not a bot's seat; bot seats: 1, 2"):
        session.change_bot(0, "greedy")
    with pytest.raises(InvalidActionError, match="unknown bot “super”; choose one of random"):
        session.change_bot(1, "super")
    assert game.seats[1].level == "greedy"


def test_the_build_reports_cards_done_and_the_time_left_from_the_rate_so_far(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    session = Session(maxi_game())
    reports: list[Preparing] = []
    with blocked_build(monkeypatch) as build:
        thread = threading.Thread(target=lambda: pytest.raises(
            Stopped, session.prepare, reports.append, clock=clock))
        thread.start()
        wait_for(lambda: build.calls == 1, what="the build to start")

        def step(done: int, at: float) -> Preparing:
            clock.now = at
            build.step(done, 1000)
            wait_for(lambda: reports[-1].done == done, what=f"the report of {done}")
            return reports[-1]

        first = step(100, 130.0)  # the first layer: Numba compiling, arrays set up; no rate yet
        assert (first.stage, first.total, first.seconds_left) == ("building", 1000, None)
        assert step(150, 130.5).seconds_left is None  # half a second measured: too little
        assert step(300, 140.0).seconds_left == pytest.approx(700 * 10 / 200)  # 20 cards a second
        assert step(900, 160.0).seconds_left == pytest.approx(100 * 30 / 800)
    with language("en"):
        assert table_progress_text(first) == "100 of 1,000 cards · measuring the time left"
        assert table_progress_text(reports[-2]) == "300 of 1,000 cards · about 35 seconds left"


def test_an_estimate_needs_a_second_measured_and_progress() -> None:
    clock = Clock()
    estimate = Estimate(clock)
    assert estimate.update(10, 100) is None
    clock.now += 0.99
    assert estimate.update(20, 100) is None
    clock.now += 0.01
    assert estimate.update(20, 100) == pytest.approx(80 * 1.0 / 10)
    clock.now += 1
    assert estimate.update(10, 100) is None  # no progress since the start: no rate


@pytest.mark.parametrize(("seconds", "words"), [
    (9.9, "a few seconds"), (10, "about 10 seconds"), (37, "about 35 seconds"), (89, "about 90 seconds"),
    (90, "about 2 minutes"), (324, "about 5 minutes"), (60 * 89, "about 89 minutes"),
    (60 * 90, "about 2 hours"), (60, "about 60 seconds")])
def test_durations_read_roughly(seconds: float, words: str) -> None:
    with language("en"):
        assert duration_text(seconds) == words


def test_a_bots_own_build_after_the_table_is_told_as_building_with_the_time_left_then_ready(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The win bot's second build, faked (the real one is the slow test below): after the
    table's reports come the bot's own, for the same seats, levels and ruleset, with the time
    left from the controlled clock, then "ready"; the bots are made at the end. Once it is over a
    seat given a table's bot no longer waits: its bot is made when it moves."""
    clock = Clock()
    game = Game("kids", [Seat("Me"), Seat.bot("win", "Wim"), Seat.bot("strong", "Stig")], seed=3)
    built: list[str] = []
    tables: list[str] = []

    def fake_table(ruleset: Ruleset, progress: Callable[[TableProgress], None] | None = None,
                   **_kw: object) -> None:
        tables.append(ruleset.name)  # the prepare's, then each bot's as it is made
        if progress is not None:
            progress(TableProgress(10, 10, 0.0))

    def second(ruleset: Ruleset, progress: Callable[[int, int], None]) -> None:
        built.append(ruleset.name)
        for done in (0, 2, 4):
            progress(done, 4)
            clock.now += 2.0  # two cards in two seconds: a second left after the second report

    win = bot_spec("win")
    assert win is not None
    monkeypatch.setattr(session_module, "table", fake_table)
    monkeypatch.setattr(session_module, "bot_spec",
                        lambda level: replace(win, prepare=second) if level == "win" else bot_spec(level))
    monkeypatch.setattr(session_module, "make_bot", lambda level, ruleset, seed=None: GreedyBot())
    session = Session(game)
    reports: list[Preparing] = []
    session.prepare(reports.append, clock=clock)
    assert built == ["kids"] and tables == ["kids"] * 3 and session.bot_ready(1) and session.bot_ready(2)
    assert [(r.stage, r.done, r.total, r.seconds_left) for r in reports] == [
        ("loading", 0, None, None), ("building", 10, 10, 0.0), ("building", 0, 4, None),
        ("building", 2, 4, pytest.approx(2.0)), ("building", 4, 4, pytest.approx(0.0)),
        ("ready", 0, None, None)]
    assert all((r.seats, r.levels, r.ruleset) == ((1, 2), ("strong", "win"), "kids") for r in reports)
    lone = Session(Game("kids", [Seat.bot("win")], seed=3))
    lone.prepare(clock=clock)
    assert built == ["kids", "kids"]
    lone.change_bot(0, "strong")  # after the prepare: its bot is made when it moves
    assert not lone.bot_ready(0) and any(isinstance(e, Rolled) for e in lone.step())


def test_the_win_bots_second_table_is_built_with_its_progress_told(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: object) -> None:
    """The win bot weighs opponents with a second table (the spread of the points to come), built
    once after the value table: the seat waits for it with the build's progress on show, layer by
    layer up to the whole, not behind a bar stopped at the value table's end."""
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))  # nothing built yet
    session = Session(Game("kids", [Seat("Me"), Seat.bot("win", "Wim")], seed=3), bot_seed=1)
    assert session.table_seats() == (1,)
    reports: list[Preparing] = []
    session.prepare(reports.append)
    assert session.bot_ready(1)
    building = [r for r in reports if r.stage == "building"]
    ends = [i for i, r in enumerate(building) if r.total is not None and r.done == r.total]
    assert len(ends) == 2, building  # the value table's build, then the second table's
    second = building[ends[0] + 1:ends[1] + 1]
    assert second[0].done == 0 and [r.done for r in second] == sorted(r.done for r in second)
    assert len({r.total for r in second}) == 1 and reports[-1].stage == "ready"
    assert all((r.seats, r.levels, r.ruleset) == ((1,), ("win",), "kids") for r in reports)
