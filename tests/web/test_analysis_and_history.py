"""The web server's coach (over the WebSocket), the analysis of a finished room, the history of
games with their replays, and the statistics: each answer equal to what the library gives."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.games import play_out
from helpers.web import BOT, Player, db_url, join, make_room
from yatzy.actions import Roll, Score
from yatzy.analysis import analyse
from yatzy.bots import DozzyBot
from yatzy.game import Game
from yatzy.i18n import language
from yatzy.narration import decision_text
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.solver.coach import Coach
from yatzy.solver.solve import solve
from yatzy.storage import (
    Database,
    get_game,
    list_games,
    player_stats,
    record_game,
    records,
    score_histogram,
    set_points_lost,
)
from yatzy.web import coaching
from yatzy.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_url(tmp_path), coach_wait=60, public_history=True)) as c:
        yield c


@pytest.fixture(scope="module")
def kids_coach() -> Coach:
    return Coach(solve(get_ruleset("kids")))


def server_game(client: TestClient, code: str) -> Game:
    return client.app.state.rooms.rooms[code].game  # type: ignore[attr-defined,no-any-return]


def coach(player: Player, id: str = "c1") -> dict[str, Any]:
    player.send({"type": "coach", "id": id})
    while True:
        m = player.recv()
        if m["type"] in ("coach", "error") and m.get("id") == id:
            return m


def test_the_coach_ranks_the_asking_seats_position_as_the_library_does(client: TestClient,
                                                                       kids_coach: Coach) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}], ruleset="kids")
    code = room["code"]
    spectator = client.post(f"/api/rooms/{code}/spectate", json={}).json()["token"]
    with Player(client, code, join(client, code)) as ann, Player(client, code, join(client, code)) as bo, \
            Player(client, code, spectator) as watcher:
        assert ann.until("welcome")["coach"] is True
        ann.wait_turn()
        assert coach(ann)["code"] == "no_dice"  # nothing to rank before the first roll
        assert ann.answer(ann.act("r"))["type"] == "ack"
        ann.until_version()
        advice = coach(ann, "c2")
        assert advice["status"] == "ready" and advice["seat"] == 0
        assert advice["version"] == ann.view["version"]
        game = server_game(client, code)
        expected = [o.to_dict() for o in kids_coach.options(kids_coach.position_of(game))]
        got = [{k: v for k, v in o.items() if k in ("action", "value", "regret", "points", "odds")
                and (v is not None and v != {})} for o in advice["options"]]
        assert got == expected
        assert all(o["description"] for o in advice["options"])
        bo.until("state")
        refused = coach(bo, "c3")
        assert refused["code"] == "not_your_turn" and "Ann" in refused["message"]
        watcher.until("state")
        assert coach(watcher, "c4")["code"] == "spectator"
        ann.send({"type": "coach"})  # no id: answered all the same
        assert ann.until("coach")["id"] is None


def test_the_coach_off_is_refused_and_dozzy_gets_the_bots_rule_of_thumb(client: TestClient) -> None:
    off = make_room(client, [{"name": "Ann"}], ruleset="kids", coach=False)
    with Player(client, off["code"], join(client, off["code"])) as ann:
        assert ann.until("welcome")["coach"] is False
        ann.wait_turn()
        ann.answer(ann.act("r"))
        ann.until_version()
        refused = coach(ann)
        assert refused["code"] == "coach_off" and "analysis" in refused["message"]
    dozzy = make_room(client, [{"name": "Ann"}, BOT], ruleset="dozzy")
    with Player(client, dozzy["code"], join(client, dozzy["code"]), lang="fi") as ann:
        ann.wait_turn()
        ann.answer(ann.act("r"))
        ann.until_version()
        advice = coach(ann)
        game = server_game(client, dozzy["code"])
        assert advice["status"] == "heuristic" and advice["note"]
        assert [o["action"] for o in advice["options"]] == [str(DozzyBot().act(game.clone()))]
        assert advice["options"][0]["value"] is None


def test_a_table_being_built_is_answered_preparing_then_the_answer_follows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()

    def slow(ruleset: Any, progress: Any = None) -> Any:
        progress(1, 4)
        assert release.wait(30)
        return solve(ruleset)

    monkeypatch.setattr(coaching, "COACHES", coaching.Coaches(slow))
    with TestClient(create_app(db_url(tmp_path), coach_wait=0.2)) as client:
        room = make_room(client, [{"name": "Ann"}], ruleset="kids")
        with Player(client, room["code"], join(client, room["code"])) as ann:
            ann.wait_turn()
            ann.answer(ann.act("r"))
            ann.until_version()
            first = coach(ann, "slow")
            assert first["status"] == "preparing" and first["progress"] == 0.25 and first["note"]
            assert ann.answer(ann.act("k 1")) is not None  # the room plays on meanwhile
            release.set()
            follow = coach_answer(ann, "slow")
            assert follow["status"] == "ready" and follow["options"]


def coach_answer(player: Player, id: str) -> dict[str, Any]:
    while True:
        m = player.recv()
        if m["type"] == "coach" and m.get("id") == id:
            return m


def test_analysis_history_replays_and_statistics(client: TestClient, tmp_path: Path,
                                                 kids_coach: Coach) -> None:
    room = make_room(client, [{"name": "Ann"}, BOT], ruleset="kids")
    code = room["code"]
    info = client.get(f"/api/rooms/{code}").json()
    assert info["dice_from"] == "server" and isinstance(info["game_id"], int)
    game_id = info["game_id"]
    assert client.get(f"/api/rooms/{code}/analysis").json()["detail"]["code"] == "not_over"
    assert client.get(f"/api/games/{game_id}").status_code == 409  # the save holds the seed
    with Player(client, code, join(client, code)) as ann:
        ann.play_out()
        ann.until("reveal")
    game = server_game(client, code)
    r = client.get(f"/api/rooms/{code}/analysis")
    assert r.status_code == 200, r.text
    got = r.json()
    expected = analyse(game, coach=kids_coach)
    assert got["status"] == "ready" and got["actions"] == expected.actions == len(game.log)
    for seat, want in zip(got["seats"], expected.seats, strict=True):
        assert seat["seat"] == want.seat and seat["total_lost"] == pytest.approx(want.total_lost)
        assert [(d["index"], d["played"], d["best"], d["points_lost"]) for d in seat["decisions"]] == [
            (d.index, str(d.played), str(d.best), pytest.approx(d.points_lost)) for d in want.decisions]
        assert [d["index"] for d in seat["costliest"]] == [d.index for d in want.costliest]
        # each decision in a player's words too (the page shows them), as the terminal's review says it
        assert [d["text"] for d in seat["decisions"]] == [
            decision_text(d, want.name, turn=True) for d in want.decisions]
        assert all(d["text"].startswith(f"Turn {d['turn']}: {want.name} ") for d in seat["decisions"])
    assert got["note"] is None  # the dice were rolled, not typed: no keep was guessed
    assert client.get(f"/api/rooms/{code}/analysis").json() == got  # computed once
    with Database(db_url(tmp_path)) as db:
        stored = get_game(db, game_id)
        assert [s.points_lost for s in stored.seats] == [pytest.approx(s.total_lost) for s in expected.seats]
        stats = client.get("/api/stats", params={"ruleset": "kids", "bin": 5}).json()
        want = [(p.name, p.games, p.wins, p.best, pytest.approx(p.mean_points_lost))
                for p in player_stats(db, "kids")]
        assert [(p["name"], p["games"], p["wins"], p["best"], p["mean_points_lost"])
                for p in stats["players"]] == want
        assert [(x["total"], x["game_id"], x["seat"]) for x in stats["records"]] == [
            (x.total, x.game_id, x.seat) for x in records(db, "kids")]
        histogram = score_histogram(db, "kids", 5)
        assert [(b["low"], b["count"]) for b in stats["histogram"]["bins"]] == list(histogram.bins)
        assert stats["histogram"]["count"] == histogram.count == 2
    listed = client.get("/api/games", params={"player": "Ann", "ruleset": "kids", "finished": True}).json()
    assert [g["id"] for g in listed] == [game_id] and "save" not in listed[0] and "seed" not in str(listed[0])
    assert listed[0]["winners"] and listed[0]["seats"][0]["name"] == "Ann"
    assert client.get("/api/games", params={"player": "Nobody"}).json() == []
    assert client.get("/api/games", params={"ruleset": "chess"}).status_code == 400
    whole = client.get(f"/api/games/{game_id}").json()
    assert whole["game"] == game.to_dict() and whole["summary"]["finished"]
    assert client.get("/api/games/99999").json()["detail"]["code"] == "unknown_game"
    step = client.get(f"/api/games/{game_id}/replay", params={"step": 1, "lang": "fi"}).json()
    assert step["steps"] == len(game.log) and step["next_action"] == str(game.log[1])
    assert step["view"]["version"] == 1 and step["view"]["dice"] is not None
    end = client.get(f"/api/games/{game_id}/replay", params={"step": 10_000}).json()
    assert end["step"] == len(game.log) and end["next_action"] is None and end["view"]["over"]
    assert client.get("/api/stats", params={"ruleset": "chess"}).status_code == 400
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/rooms/{code}/analysis", "/api/games", "/api/games/{game_id}", "/api/stats",
                 "/api/games/{game_id}/replay", "/api/rooms/{code}/rounds"):
        assert path in paths


def bot_game(rules: str, seed: int) -> Game:
    """Ann (played as the greedy bot) against a random bot, to the end."""
    rs = get_ruleset(rules)
    game = Game(rs, [Seat("Ann"), Seat.bot("random", "Rita")], seed=seed)
    return play_out(game, seed=seed)


def test_a_replay_step_gives_the_next_move_in_words_in_the_language_asked(client: TestClient,
                                                                         tmp_path: Path) -> None:
    game = bot_game("kids", 3)
    with Database(db_url(tmp_path)) as db:
        game_id = record_game(db, game)
    kinds = set()
    for step in (0, 1, len(game.log) - 1):
        action = game.log[step]
        kinds.add(type(action))
        for lang in ("en", "fi"):
            got = client.get(f"/api/games/{game_id}/replay", params={"step": step, "lang": lang}).json()
            with language(lang):
                assert got["next_words"] == action.describe(), (step, lang)
            assert got["next_action"] == str(action)  # the notation, as it was
    assert kinds == {Roll, Score}
    assert client.get(f"/api/games/{game_id}/replay", params={"step": 0, "lang": "fi"}).json()[
        "next_words"] == "heitä kaikki nopat"  # the Finnish catalogue's, not the English msgid
    end = client.get(f"/api/games/{game_id}/replay", params={"step": len(game.log), "lang": "fi"}).json()
    assert end["next_action"] is None and end["next_words"] is None


def test_history_and_statistics_answer_the_storage_dataclasses_field_by_field(client: TestClient,
                                                                             tmp_path: Path) -> None:
    t0 = datetime(2025, 3, 1, 12, tzinfo=UTC)
    with Database(db_url(tmp_path)) as db:
        first = record_game(db, bot_game("kids", 1), at=t0)
        record_game(db, bot_game("kids", 2), at=t0 + timedelta(hours=1), title="again")
        set_points_lost(db, first, 0, 12.5)
        summaries, stats = list_games(db, ruleset="kids"), player_stats(db, "kids")
        best, histogram = records(db, "kids", 5), score_histogram(db, "kids", 5)

    def as_json(d: Any) -> dict[str, Any]:
        return {k: v.isoformat().replace("+00:00", "Z") if isinstance(v, datetime) else v
                for k, v in asdict(d).items()}

    listed = client.get("/api/games", params={"ruleset": "kids"}).json()
    assert listed == [{**as_json(s), "seats": [asdict(x) for x in s.seats], "winners": list(s.winners)}
                      for s in summaries]
    got = client.get("/api/stats", params={"ruleset": "kids", "bin": 5, "limit": 5}).json()
    assert got["players"] == [asdict(p) for p in stats] and any(p["mean_points_lost"] for p in got["players"])
    assert got["records"] == [as_json(r) for r in best]
    assert got["histogram"] == {"ruleset": "kids", "bin": 5, "count": histogram.count,
                                "bins": [{"low": low, "count": n} for low, n in histogram.bins]}
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    # the dataclasses' attribute docstrings are the schema's field descriptions
    assert schemas["PlayerStats"]["properties"]["bonus_rate"]["description"].startswith("Share of games")
    assert schemas["SeatResult"]["properties"]["rank"]["description"].startswith("1 is the best")
    assert schemas["Record"]["description"]
    assert schemas["GameSummaryOut"]["properties"]["dice_from"]["description"]


def test_stats_keep_typed_dice_apart_from_the_servers(client: TestClient, tmp_path: Path) -> None:
    """A scorekeeper game of typed Yatzys under a real player's name is not a record, a mean or a
    bin of the games the server rolled: ``dice_from=players`` shows it in a table of its own."""
    real = bot_game("kids", 3)
    typed = Game("kids", [Seat("Ann"), Seat("Bo")], first=0)
    for face in range(1, 7):  # Kids' Yatzy is Ones to Sixes: five of each face, for each player
        for _ in typed.seats:
            typed.apply(Roll((), (face,) * 5))
            typed.apply(Score(typed.ruleset.categories[face - 1].id))
    assert typed.is_over
    with Database(db_url(tmp_path)) as db:
        real_id = record_game(db, real)
        typed_id = record_game(db, typed, "players")
    server = client.get("/api/stats", params={"ruleset": "kids"}).json()
    assert server["dice_from"] == "server" and server["other_dice_games"] == 1
    assert {r["game_id"] for r in server["records"]} == {real_id}
    assert {p["name"]: p["best"] for p in server["players"]}["Ann"] == real.total(0)
    assert server["histogram"]["count"] == 2
    kept = client.get("/api/stats", params={"ruleset": "kids", "dice_from": "players"}).json()
    assert kept["dice_from"] == "players" and kept["other_dice_games"] == 1
    assert {r["game_id"] for r in kept["records"]} == {typed_id}
    assert kept["records"][0]["total"] == typed.total(0) > real.total(0)
    bad = client.get("/api/stats", params={"ruleset": "kids", "dice_from": "typed"})
    assert bad.status_code == 422 and "players" in bad.text


def test_a_dozzy_room_has_no_analysis(client: TestClient) -> None:
    room = make_room(client, [BOT, BOT], ruleset="dozzy")
    code = room["code"]
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    import time

    deadline = time.monotonic() + 60
    while not rooms.rooms[code].over and time.monotonic() < deadline:
        time.sleep(0.05)
    r = client.get(f"/api/rooms/{code}/analysis")
    assert r.status_code == 422 and r.json()["detail"]["code"] == "no_analysis"
