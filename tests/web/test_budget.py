"""The server's budget for solver tables (yatzy.web.budget): what it lets in and what it
refuses, naming what is allowed; builds queued with their place told, at most so many at once;
tables no room uses let go. The budget's own tests use stand-in costs and no build at all; the
server's use Kids variants (tables of a few KB, in a cache of their own), held while they
"build" (helpers.tables.held_build)."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from helpers.tables import held_build
from helpers.web import Player, db_url, join
from yatzy.cli import app as cli
from yatzy.game import Game
from yatzy.i18n import language
from yatzy.registry import get_ruleset
from yatzy.rules import Ruleset
from yatzy.seats import Seat
from yatzy.session import Session
from yatzy.solver.cost import TableCost, table_cost
from yatzy.solver.tables import TableProgress
from yatzy.web import budget as budget_module
from yatzy.web import coaching
from yatzy.web.app import create_app
from yatzy.web.botloop import BotLoop
from yatzy.web.budget import HOUR, MB, TableBudget, key_of, parse_variant, variant_name
from yatzy.web.room import Refusal
from yatzy.web.table_limits import BudgetLimits


def kids(threshold: int) -> Ruleset:
    return get_ruleset("kids", bonus_threshold=threshold)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def costs(sizes: dict[Ruleset, int], stored: set[Ruleset] | None = None) -> Any:
    """A stand-in for table_cost: each variant's size as given (MB), stored or not."""
    def cost(ruleset: Ruleset) -> TableCost:
        return TableCost(ruleset in (stored or set()), 1.0, sizes[ruleset])
    return cost


def refusal(budget: TableBudget, ruleset: Ruleset, lang: str = "en") -> Refusal:
    with language(lang), pytest.raises(Refusal) as refused:
        budget.admit(ruleset)
    return refused.value


# ---- what is let in ---------------------------------------------------------------------------

def test_new_tables_are_let_in_up_to_the_disk_budget_and_no_byte_further() -> None:
    a, b, c = kids(10), kids(11), kids(12)
    budget = TableBudget(BudgetLimits(disk_mb=10, memory_mb=100),
                         cost=costs({a: 6 * MB, b: 4 * MB, c: 4 * MB + 1}))
    budget.admit(a)
    budget.admit(b)  # exactly the 10 MB
    refused = refusal(budget, c)
    assert refused.code == "table_budget" and "disk" in refused.message
    assert "4 MB" in refused.message and "random, greedy and beginner" in refused.message
    budget.admit(a)  # let in before: free


def test_a_variant_with_one_byte_less_fits_the_disk_left() -> None:
    a, c = kids(10), kids(12)
    budget = TableBudget(BudgetLimits(disk_mb=10, memory_mb=100), cost=costs({a: 6 * MB, c: 4 * MB}))
    budget.admit(a)
    budget.admit(c)
    assert set(budget.admitted) == {key_of(a), key_of(c)}


def test_the_refusal_names_the_prepared_variants_and_the_bots_that_need_no_table_in_the_players_language(
        ) -> None:
    big = kids(20)
    prepared = [get_ruleset("yatzy"), get_ruleset("maxi", saved_rolls=False)]
    budget = TableBudget(BudgetLimits(disk_mb=1), prepared, cost=costs({big: 2 * MB}))
    refused = refusal(budget, big, "fi")
    with language("fi"):
        names = [variant_name(r) for r in prepared]
    assert f"{names[0]} ja {names[1]}" in refused.message and "(saved_rolls=false)" in names[1]
    assert "satunnainen" in refused.message and "ahne" in refused.message  # random, greedy: in Finnish
    assert "levytilaa" in refused.message


def test_a_prepared_or_stored_variant_needs_no_budget_and_another_does() -> None:
    prepared, stored, new = kids(30), kids(31), kids(32)
    budget = TableBudget(BudgetLimits(disk_mb=0, memory_mb=0, per_hour=0), [prepared],
                         cost=costs({prepared: 5 * MB, stored: 5 * MB, new: 5 * MB}, stored={stored}))
    budget.admit(prepared)
    budget.admit(stored)
    assert not budget.admitted
    assert refusal(budget, new).code == "table_budget"


def test_the_builds_of_an_hour_are_counted_and_the_next_hour_lets_one_in_again() -> None:
    clock = Clock()
    a, b, c = kids(40), kids(41), kids(42)
    budget = TableBudget(BudgetLimits(per_hour=2), clock=clock, cost=costs({a: MB, b: MB, c: MB}))
    budget.admit(a)
    clock.now += 600
    budget.admit(b)
    refused = refusal(budget, c)
    assert refused.code == "too_many_builds" and "2 new tables an hour" in refused.message
    assert "about 50 minutes" in refused.message  # the first of the hour leaves in 50 minutes
    clock.now += HOUR - 600 - 0.001  # a moment before the first build's hour is over
    assert refusal(budget, c).code == "too_many_builds"
    clock.now += 0.001
    budget.admit(c)


def test_memory_lets_go_of_the_least_recently_used_table_no_room_uses() -> None:
    a, b, c, d = kids(50), kids(51), kids(52), kids(53)
    budget = TableBudget(BudgetLimits(memory_mb=10), cost=costs({a: 4 * MB, b: 4 * MB, c: 4 * MB, d: 9 * MB}))
    let_go: list[Any] = []
    budget.on_let_go.append(let_go.append)
    in_use = {key_of(b)}
    budget.in_use = lambda: set(in_use)
    budget.admit(a)
    budget.admit(b)
    budget.hold(a)  # a used after b: b is the least recently used, but a room uses it
    budget.admit(c)  # 12 MB > 10: a goes, b stays
    assert let_go == [key_of(a)] and set(budget.held) == {key_of(b), key_of(c)}
    in_use.add(key_of(c))
    refused = refusal(budget, d)
    assert refused.code == "table_budget" and "memory" in refused.message and let_go == [key_of(a)]
    in_use.clear()
    budget.admit(d)  # nothing used: both go
    assert let_go == [key_of(a), key_of(b), key_of(c)] and list(budget.held) == [key_of(d)]


def test_a_table_fits_the_memory_left_to_the_byte_and_not_one_byte_more() -> None:
    a, b, c = kids(55), kids(56), kids(57)
    budget = TableBudget(BudgetLimits(disk_mb=100, memory_mb=10),
                         cost=costs({a: 6 * MB, b: 4 * MB, c: 4 * MB + 1}))
    budget.in_use = lambda: {key_of(a)}
    budget.admit(a)
    assert refusal(budget, c).code == "table_budget"
    budget.admit(b)
    assert list(budget.held) == [key_of(a), key_of(b)]


def test_bots_whose_table_the_budget_refuses_later_play_as_greedy_bots_and_others_keep_their_level() -> None:
    """A room made before a restart, or a stand-in, whose table is beyond the budget now."""
    room: Any = SimpleNamespace(code="ABCDEF")
    refused, prepared = kids(85), kids(86)
    budget = TableBudget(BudgetLimits(disk_mb=0), [prepared], cost=costs({refused: MB, prepared: MB}))
    for ruleset, within, level in ((refused, False, "greedy"), (prepared, True, "casual")):
        session = Session(Game(ruleset, [Seat("Ann"), Seat.bot("casual")]))
        assert BotLoop._within(budget, room, session) is within
        assert session.game.seats[1].level == level and bool(session.table_seats()) is within


# ---- the queue --------------------------------------------------------------------------------

async def _two_builds(at_once: int) -> tuple[list[str], list[int]]:
    a, b = kids(60), kids(61)
    budget = TableBudget(BudgetLimits(at_once=at_once), cost=costs({a: MB, b: MB}))
    log: list[str] = []
    places: list[int] = []
    first_in = asyncio.Event()
    first_out = asyncio.Event()

    async def build(ruleset: Ruleset, name: str, hold: asyncio.Event | None) -> None:
        async with budget.turn(ruleset, places.append):
            log.append(f"{name} starts")
            first_in.set()
            if hold is not None:
                await hold.wait()
            log.append(f"{name} ends")

    first = asyncio.create_task(build(a, "a", first_out))
    await first_in.wait()
    second = asyncio.create_task(build(b, "b", None))
    for _ in range(5):
        await asyncio.sleep(0)
    log.append("a released")
    first_out.set()
    await asyncio.gather(first, second)
    return log, places


def test_one_build_at_once_makes_the_second_wait_with_its_place_told() -> None:
    log, places = asyncio.run(_two_builds(1))
    assert log == ["a starts", "a released", "a ends", "b starts", "b ends"] and places == [1]


def test_two_builds_at_once_run_together() -> None:
    log, places = asyncio.run(_two_builds(2))
    assert log == ["a starts", "b starts", "b ends", "a released", "a ends"] and places == []


async def _joined() -> list[str]:
    a, b = kids(62), kids(63)
    budget = TableBudget(cost=costs({a: MB, b: MB}))
    log: list[str] = []
    hold = asyncio.Event()

    async def build(ruleset: Ruleset, name: str) -> None:
        async with budget.turn(ruleset, lambda place: log.append(f"{name} waits at {place}")):
            log.append(f"{name} in")
            await hold.wait()

    tasks = [asyncio.create_task(build(a, "a1")), asyncio.create_task(build(b, "b")),
             asyncio.create_task(build(a, "a2"))]
    for _ in range(5):
        await asyncio.sleep(0)
    hold.set()
    await asyncio.gather(*tasks)
    return log


def test_a_second_room_of_the_same_variant_joins_the_build_under_way_and_the_next_waits() -> None:
    log = asyncio.run(_joined())
    assert log[:3] == ["a1 in", "b waits at 1", "a2 in"] and log[3] == "b in"


def test_a_prepared_variant_is_named_as_yatzy_solve_takes_it() -> None:
    assert parse_variant("maxi:saved_rolls=false,bonus_threshold=75") == get_ruleset(
        "maxi", saved_rolls=False, bonus_threshold=75)
    assert parse_variant("Yatzy") == get_ruleset("yatzy")
    assert variant_name(parse_variant("kids:bonus_threshold=40")).endswith("(bonus_threshold=40)")


# ---- the server -------------------------------------------------------------------------------

def test_serve_takes_the_variants_to_prepare_and_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from yatzy.web import app as web

    seen: dict[str, Any] = {}
    monkeypatch.setattr(web, "create_app", lambda *a, **kw: seen.update(kw))
    monkeypatch.setattr(web, "run_server", lambda *a, **kw: None)
    result = CliRunner().invoke(cli, ["serve", "--prepare", "yatzy", "--prepare", "maxi:saved_rolls=false",
                                      "--table-disk", "100", "--table-memory", "300", "--builds-at-once", "2",
                                      "--builds-per-hour", "4"])
    assert result.exit_code == 0, result.output
    budget = seen["budget"]
    assert set(budget.prepared) == {key_of(get_ruleset("yatzy")),
                                    key_of(get_ruleset("maxi", saved_rolls=False))}
    assert budget.limits == BudgetLimits(disk_mb=100, memory_mb=300, at_once=2, per_hour=4)


def test_serve_refuses_a_variant_to_prepare_that_does_not_exist(monkeypatch: pytest.MonkeyPatch) -> None:
    from yatzy.web import app as web

    monkeypatch.setattr(web, "run_server", lambda *a, **kw: pytest.fail("the server started"))
    for wrong, said in (("yatzee", "unknown ruleset"), ("maxi:bonus_threshold=80", "bonus_threshold")):
        result = CliRunner().invoke(cli, ["serve", "--prepare", wrong])
        assert result.exit_code == 2 and said in result.output, result.output


def test_prepared_tables_are_built_at_start_in_turn_with_their_progress_in_the_server_log(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    ready, other = kids(15), kids(16)
    built: list[Ruleset] = []

    def stand_in(ruleset: Ruleset, progress: Any) -> None:  # a build of ten layers, at once
        built.append(ruleset)
        for done in range(0, 11):
            progress(TableProgress(done, 10, None if done < 2 else 10.0 - done))

    monkeypatch.setattr(budget_module, "table", stand_in)
    budget = TableBudget(BudgetLimits(disk_mb=0), [ready, other], cost=costs({ready: MB, other: MB}))
    with caplog.at_level(logging.INFO, logger="yatzy.web.budget"):
        asyncio.run(budget.prepare())
    said = [r.getMessage() for r in caplog.records]
    name = variant_name(ready)
    assert said[:3] == [f"preparing the {name} table", f"preparing the {name} table: 0% built",
                        f"preparing the {name} table: 10% built"]
    assert f"preparing the {name} table: 50% built, about 5 s left" in said
    assert said.index(f"preparing the {variant_name(other)} table") > said.index(
        f"preparing the {name} table: 100% built, about 0 s left")  # one after the other
    assert built == [ready, other]
    budget.admit(ready)  # prepared: no budget (of none)


@pytest.fixture(name="held")
def held_fixture(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    with held_build(monkeypatch) as release:
        yield release


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A table cache of the test's own, so that no table another test stored counts as there."""
    folder = tmp_path / "tables"
    monkeypatch.setenv("YATZY_CACHE_DIR", str(folder))
    return folder


def bot_room(client: TestClient, ruleset: Ruleset, level: str = "casual", lang: str = "en") -> Any:
    return client.post("/api/rooms", json={
        "ruleset": ruleset.name, "options": dict(ruleset.options), "lang": lang, "bot_pace": 0,
        "seats": [{"name": "Ann"}, {"kind": "bot", "level": level}]})


def size(ruleset: Ruleset) -> int:
    cost = table_cost(ruleset)
    assert cost is not None
    return cost.size


@pytest.mark.slow
def test_room_creation_beyond_the_disk_budget_is_refused_and_what_is_allowed_still_made(
        tmp_path: Path, cache: Path) -> None:
    small, other, ready = kids(20), kids(21), kids(22)
    budget = TableBudget(BudgetLimits(disk_mb=(size(small) + size(other) - 1) / MB), [ready])
    with TestClient(create_app(db_url(tmp_path), budget=budget)) as client:
        assert bot_room(client, small).status_code == 201
        refused = bot_room(client, other, lang="sv")
        assert refused.status_code == 403
        detail = refused.json()["detail"]
        assert detail["code"] == "table_budget" and "(bonus_threshold=22)" in detail["message"]
        assert "slumpmässig" in detail["message"]  # the random bot, in Swedish
        assert bot_room(client, other, level="greedy").status_code == 201  # needs no table
        assert bot_room(client, ready).status_code == 201  # prepared: no budget
        assert bot_room(client, small).status_code == 201  # let in already


@pytest.mark.slow
def test_room_creation_over_the_builds_of_the_hour_is_429_and_the_next_hour_lets_it_in(
        tmp_path: Path, cache: Path) -> None:
    clock = Clock()
    budget = TableBudget(BudgetLimits(per_hour=1), clock=clock)
    with TestClient(create_app(db_url(tmp_path), budget=budget)) as client:
        assert bot_room(client, kids(25)).status_code == 201
        refused = bot_room(client, kids(26), lang="fi")
        assert refused.status_code == 429 and refused.json()["detail"]["code"] == "too_many_builds"
        assert "tunnissa" in refused.json()["detail"]["message"]
        clock.now += HOUR
        assert bot_room(client, kids(26)).status_code == 201


@pytest.mark.slow
def test_a_room_within_the_budget_waits_its_turn_told_its_place_then_its_progress(
        tmp_path: Path, cache: Path, held: threading.Event) -> None:
    """One build at once: the second room's table waits behind the first's (held), and its
    player hears its place in the queue, then the build's progress, then ready."""
    with TestClient(create_app(db_url(tmp_path), budget=TableBudget(BudgetLimits(at_once=1)))) as client:
        first = bot_room(client, kids(30)).json()["code"]
        with Player(client, first, join(client, first, 0)) as ann:
            while ann.until("preparing")["stage"] != "building":
                pass
            second = bot_room(client, kids(31), lang="da").json()["code"]
            with Player(client, second, join(client, second, 0), lang="da") as bo:
                waiting = bo.until("preparing")
                assert waiting["stage"] == "loading" and waiting["place"] == 1
                assert "nummer 1" in waiting["text"] and "kø" in waiting["text"]  # in Danish
                assert not held.is_set()
                held.set()
                building = bo.until("preparing")
                while building["stage"] != "building":  # its turn: loading (no place), then building
                    assert building["place"] is None
                    building = bo.until("preparing")
                assert building["progress"] == 0.25 and building["place"] is None
                while bo.until("preparing")["stage"] != "ready":
                    pass
            while ann.until("preparing")["stage"] != "ready":
                pass


def people_room(client: TestClient, ruleset: Ruleset) -> str:
    made = client.post("/api/rooms", json={"ruleset": ruleset.name, "options": dict(ruleset.options),
                                           "seats": [{"name": "Ann"}]})
    assert made.status_code == 201  # nobody there needs a table yet
    return made.json()["code"]  # type: ignore[no-any-return]


def ask_coach(player: Player) -> dict[str, Any]:
    """Roll (if the turn has not), then ask the coach: its answer or the error."""
    player.wait_turn()
    if player.view is not None and player.view["dice"] is None:
        player.answer(player.act("r"))
        player.until_version()
    player.send({"type": "coach", "id": "c"})
    while True:
        m = player.recv()
        if m["type"] in ("coach", "error") and m.get("id") == "c":
            return m


@pytest.mark.slow
def test_a_coach_no_room_uses_is_let_go_for_a_new_table_and_one_in_use_is_not(tmp_path: Path,
                                                                                cache: Path) -> None:
    first, second = kids(45), kids(46)
    budget = TableBudget(BudgetLimits(memory_mb=(size(first) + size(second) - 1) / MB))  # not both
    with TestClient(create_app(db_url(tmp_path), budget=budget, coach_wait=10)) as client:
        ann_room, bo_room = people_room(client, first), people_room(client, second)
        bo_token = join(client, bo_room)
        with Player(client, ann_room, join(client, ann_room)) as ann:
            assert ask_coach(ann)["status"] == "ready"
            with Player(client, bo_room, bo_token) as bo:
                refused = ask_coach(bo)
                assert refused["type"] == "error" and refused["code"] == "table_budget"
                assert "memory" in refused["message"]  # Ann's game uses its table still
            ann.play_out()
        with Player(client, bo_room, bo_token) as bo:
            assert ask_coach(bo)["status"] == "ready"  # Ann's game is over: its table let go
        assert coaching.COACHES.ready(first) is None and coaching.COACHES.ready(second) is not None


@pytest.mark.slow
def test_the_coach_and_the_analysis_beyond_the_budget_answer_in_words(tmp_path: Path, cache: Path) -> None:
    with TestClient(create_app(db_url(tmp_path), budget=TableBudget(BudgetLimits(disk_mb=0)))) as client:
        code = people_room(client, kids(35))
        with Player(client, code, join(client, code), lang="nb") as ann:
            refused = ask_coach(ann)
            assert refused["type"] == "error" and refused["code"] == "table_budget"
            assert "disk" in refused["message"] and "tilfeldig" in refused["message"]  # Norwegian
            ann.play_out()
        analysis = client.get(f"/api/rooms/{code}/analysis?lang=ru")
        assert analysis.status_code == 403 and analysis.json()["detail"]["code"] == "table_budget"
        assert "диске" in analysis.json()["detail"]["message"]
