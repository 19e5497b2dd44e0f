"""One build of a table per process, heard by every caller; what a table costs the first time."""

from __future__ import annotations

import threading

import pytest

from helpers.tables import blocked_build
from helpers.wait import wait_for
from yatzy.registry import get_ruleset
from yatzy.solver import tables
from yatzy.solver.cost import table_cost
from yatzy.solver.solve import solve
from yatzy.solver.tables import Stopped, TableProgress, table


def test_a_second_caller_joins_the_build_and_hears_it_and_one_leaving_stops_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    maxi = get_ruleset("maxi")
    heard: dict[str, list[TableProgress]] = {"bots": [], "coach": []}
    leave = threading.Event()
    ended: dict[str, BaseException] = {}

    def caller(name: str) -> None:
        def progress(p: TableProgress) -> None:
            if name == "bots" and leave.is_set():
                raise Stopped
            heard[name].append(p)
        try:
            table(maxi, progress)
        except BaseException as e:  # noqa: BLE001 - looked at below
            ended[name] = e

    with blocked_build(monkeypatch) as build:
        bots = threading.Thread(target=caller, args=("bots",))
        bots.start()
        wait_for(lambda: build.calls == 1, what="the build to start")
        build.step(20, 1000)
        wait_for(lambda: len(heard["bots"]) == 1)
        coach = threading.Thread(target=caller, args=("coach",))
        coach.start()
        wait_for(lambda: len(heard["coach"]) == 1, what="the coach told how far the build is")
        assert heard["coach"][0].done == 20 and build.calls == 1  # joined, not built again
        leave.set()
        build.step(210, 1000)
        wait_for(lambda: len(heard["coach"]) == 2)
        assert len(heard["bots"]) == 1 and tables.building(maxi) == heard["coach"][1]
        build.step(500, 1000)
        wait_for(lambda: len(heard["coach"]) == 3, what="the build going on for the coach")
    bots.join()
    coach.join()
    assert build.calls == 1 and isinstance(ended["coach"], Stopped) and tables.building(maxi) is None


def test_the_build_stops_when_nobody_waits_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    left = threading.Event()

    def progress(p: TableProgress) -> None:
        left.set()
        raise Stopped

    with blocked_build(monkeypatch) as build:
        got: list[BaseException] = []
        thread = threading.Thread(target=lambda: got.append(pytest.raises(Stopped, table, get_ruleset("osto"),
                                                                          progress).value))
        thread.start()
        wait_for(lambda: build.calls == 1)
        build.step(1, 10)
        thread.join()
    assert left.is_set() and got and not tables._builds


def test_what_a_first_table_costs_from_its_states() -> None:
    maxi = table_cost(get_ruleset("maxi"))
    assert maxi is not None and not maxi.stored
    assert 80 < maxi.seconds < 140 and maxi.size == (1 << 20) * 5 * 85 * 4  # 105 s, 1.8 GB
    plain = table_cost(get_ruleset("maxi", saved_rolls=False))
    assert plain is not None and 25 < plain.seconds < 50  # 37 s measured
    assert table_cost(get_ruleset("dozzy")) is None
    kids = get_ruleset("kids", bonus_threshold=39)
    assert table_cost(kids) == table_cost(kids)
    before = table_cost(kids)
    assert before is not None and not before.stored and before.seconds < 1
    solve(kids)
    after = table_cost(kids)
    assert after is not None and after.stored
