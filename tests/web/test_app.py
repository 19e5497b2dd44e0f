"""The web server over REST and WebSockets: rooms, a whole game with a bot, every message
type, retries, stale versions, resuming, hot seat, spectators and the fair-dice reveal.

Each test runs on SQLite, and again on PostgreSQL (a schema of its own) when
YATZY_TEST_POSTGRES_URL names a database: the rooms' row versions on a real server."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from helpers.wait import wait_for
from helpers.web import BOT, Player, join, make_room
from yatzy.storage import Database, get_game
from yatzy.web.app import create_app
from yatzy.web.fairness import commitment, verify
from yatzy.web.presence import PRESENCE_LOST


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with TestClient(create_app(url, public_history=True)) as c:
        yield c


def test_rooms_over_rest(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, BOT, {}], ruleset="maxi", lang="fi")
    code = room["code"]
    assert room["invite_url"].endswith(f"/r/{code}") and len(room["commitment"]) == 64
    assert room["table_token"] is None
    info = client.get(f"/api/rooms/{code.lower()}").json()
    assert info["ruleset"] == "maxi"
    assert [s["name"] for s in info["seats"]] == ["Ann", "Aloittelijabotti", "Pelaaja 3"]  # in Finnish
    assert "seed" not in str(info) and info["version"] == 0 and not info["over"]
    assert client.post(f"/api/rooms/{code}/join", json={}).json()["seat"] == 0
    assert client.post(f"/api/rooms/{code}/join", json={}).json()["seat"] == 2
    taken = client.post(f"/api/rooms/{code}/join", json={"seat": 0})
    assert taken.status_code == 409 and taken.json()["detail"]["code"] == "unauthorized"
    assert client.post(f"/api/rooms/{code}/join", json={"seat": 1}).status_code == 400  # a bot's seat
    assert client.post(f"/api/rooms/{code}/join", json={}).status_code == 409  # every seat taken
    assert [s["taken"] for s in client.get(f"/api/rooms/{code}").json()["seats"]] == [True, False, True]
    assert client.post(f"/api/rooms/{code}/spectate", json={}).json()["token"]
    svg = client.get(f"/api/rooms/{code}/qr.svg")
    assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
    assert b"<svg" in svg.content
    assert client.get(f"/api/rooms/{code}/verify").status_code == 409  # not before the end
    assert client.get("/api/rooms/ZZZZZZ").status_code == 404
    assert client.get("/api/rooms/no-such-room").status_code == 404
    closed = make_room(client, spectators=False)
    assert client.post(f"/api/rooms/{closed['code']}/spectate", json={}).status_code == 403
    for bad in ({"ruleset": "chess"}, {"seats": [{"kind": "bot", "level": "genius"}]}, {"seats": []},
                {"options": {"joker": "sometimes"}, "ruleset": "yahtzee"}, {"seats": [{"dice": [6]}]}):
        r = client.post("/api/rooms", json={"seats": [{}], **bad})
        assert r.status_code in (400, 422), (bad, r.text)
    assert "/api/rooms" in client.get("/openapi.json").json()["paths"]


def test_a_whole_game_of_two_people_and_a_bot_over_websockets(client: TestClient, url: str) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}, BOT])
    code = room["code"]
    with Player(client, code, join(client, code)) as ann, Player(client, code, join(client, code)) as bo:
        welcome = ann.until("welcome")
        assert welcome["seat"] == 0 and welcome["role"] == "seat"
        assert welcome["commitment"] == room["commitment"]
        ann.until("state")
        assert bo.until("welcome")["seat"] == 1
        for _ in range(15):
            ann.play_turn()
            bo.play_turn()
        reveals = [p.until("reveal") for p in (ann, bo)]
        assert reveals[0] == reveals[1]
        assert ann.view is not None and ann.view["over"] and len(ann.view["outcome"]["standings"]) == 3
        kinds = {e["kind"] for m in ann.seen if m["type"] == "events" for e in m["events"]}
        assert {"rolled", "scored", "turn_passed", "game_over"} <= kinds
    reveal = reveals[0]
    assert reveal["commitment"] == room["commitment"] == commitment(reveal["seed"], reveal["salt"])
    game = verify(reveal)
    assert game.is_over and game.seats[2].is_bot and len(game.log) == ann.view["version"]
    proof = client.get(f"/api/rooms/{code}/verify").json()
    assert proof["seed"] == reveal["seed"] and proof["game"] == reveal["game"]
    game_id = client.get(f"/api/rooms/{code}").json()["game_id"]
    assert client.get(f"/api/games/{game_id}").json()["summary"]["finished"]  # waits for the save on its way
    with Database(url) as db:  # committed, finished, in the history
        summary = get_game(db, game_id)
        assert summary.finished and summary.actions == len(game.log)


def test_every_message_type(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}, BOT], away_after=0)
    code = room["code"]
    with Player(client, code, join(client, code, 0)) as ann:
        assert ann.until("welcome")["version"] == 0
        state = ann.until("state")
        assert state["reason"] == "welcome" and state["view"]["viewer"] == 0
        assert state["view"]["legal_actions"] == ["r"]
        presence = ann.until("presence")
        assert [s["connected"] for s in presence["seats"]] == [True, False, False]
        assert presence["stand_in_level"] == "beginner"  # the room's bot's
        ann.send({"type": "ping", "nonce": "n1"})
        assert ann.until("pong") == {"type": "pong", "nonce": "n1"}
        action = ann.act("r")
        assert ann.answer(action) == {"type": "ack", "id": action, "version": 1, "duplicate": False}
        events = ann.until("events")
        assert events["version"] == 1 and events["events"][0]["kind"] == "rolled"
        assert events["view"]["dice"] == events["events"][0]["dice"]
        error = ann.answer(ann.act("s chance", version=0))
        assert error["type"] == "error" and error["code"] == "stale"
        # Bo never came: his seat goes to a bot of the room's level, which plays it (never zeros)
        ann.answer(ann.act("s chance"))
        ann.send({"type": "hand_to_bot", "seat": 1, "level": "beginner"})
        handed = ann.until("presence")
        while handed["seats"][1]["stand_in"] is None:
            handed = ann.until("presence")
        assert handed["seats"][1]["stand_in"] == "beginner"
        while ann.view is None or ann.view["current"] != 0 or ann.view["version"] < 4:
            ann.recv()
        scored = [e for m in ann.seen if m["type"] == "events" for e in m["events"] if e["kind"] == "scored"]
        assert [e["player"] for e in scored[-2:]] == [1, 2] and ann.view["players"][1]["boxes"]
    types = {m["type"] for m in ann.seen}
    assert {"welcome", "state", "presence", "pong", "ack", "events", "error"} <= types


def test_a_retried_action_is_answered_not_applied_twice(client: TestClient) -> None:
    code = make_room(client)["code"]
    with Player(client, code, join(client, code, 0)) as ann:
        ann.until("state")
        first = ann.answer(ann.act("r", id="roll-1"))
        ann.until("events")
        dice = ann.view["dice"]  # type: ignore[index]
        again = ann.answer(ann.act("r", id="roll-1", version=0))
        assert again == {**first, "duplicate": True}
        ann.send({"type": "ping"})
        ann.until("pong")
        assert ann.view["dice"] == dice and ann.view["version"] == 1  # type: ignore[index]
        assert client.get(f"/api/rooms/{code}").json()["version"] == 1


def test_a_stale_action_gets_a_full_state(client: TestClient) -> None:
    code = make_room(client)["code"]
    with Player(client, code, join(client, code, 0)) as ann:
        ann.until("state")
        ann.answer(ann.act("r"))
        ann.until("events")
        error = ann.answer(ann.act("k 1", version=0))
        assert error["code"] == "stale" and error["version"] == 1 and "version 1" in error["message"]
        state = ann.until("state")
        assert state["reason"] == "stale" and state["version"] == 1 and state["view"]["dice"]


def test_a_reconnect_gets_the_events_it_missed(client: TestClient) -> None:
    code = make_room(client, [{"name": "Ann"}, BOT])["code"]
    token = join(client, code, 0)
    with Player(client, code, token) as ann:
        ann.until("state")
        ann.answer(ann.act("r"))
        ann.until("events")
        seen = ann.view["version"]  # type: ignore[index]
        ann.answer(ann.act(f"s {ann.view['score_options'][0]['id']}"))  # type: ignore[index]
    room = client.app.state.rooms.rooms[code]  # type: ignore[attr-defined]
    wait_for(lambda: room.game.state.current == 0, what="the bot did not play its turn")  # while Ann is away
    with Player(client, code, token, last_version=seen) as back:
        back.until("welcome")
        missed = back.until("events", "state")
        assert missed["type"] == "events"
        assert [e["version"] for e in missed["events"]] == sorted(e["version"] for e in missed["events"])
        assert all(e["version"] > seen for e in missed["events"])
        kinds = [e["kind"] for e in missed["events"]]
        assert kinds[:2] == ["scored", "turn_passed"] and "rolled" in kinds
        assert missed["view"]["current"] == 0 and missed["version"] > seen + 1
    with Player(client, code, token, last_version=999) as ahead:  # a version the server never had
        ahead.until("welcome")
        assert ahead.until("events", "state")["type"] == "state"


def test_hot_seat_spectators_and_languages(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}], hot_seat=True, lang="fi")
    code, table = room["code"], room["table_token"]
    assert table
    spectator = client.post(f"/api/rooms/{code}/spectate", json={}).json()["token"]
    with Player(client, code, table, lang="fi") as t, Player(client, code, spectator) as s:
        assert t.until("welcome")["role"] == "table"
        assert t.until("state")["view"]["viewer"] is None
        assert s.until("welcome")["role"] == "spectator"
        assert s.until("state")["view"]["legal_actions"] == []
        for seat in (0, 1):
            t.answer(t.act("r"))
            t.until("events")
            assert t.view["current"] == seat  # type: ignore[index]
            error = t.answer(t.act("s ones", seat=1 - seat))
            assert error["code"] == "not_your_turn"
            t.answer(t.act("s chance"))
            t.until("events")
        assert t.view["players"][1]["boxes"][-2]["points"] is not None  # type: ignore[index]
        refused = s.answer(s.act("r"))
        assert refused["code"] == "spectator"
        illegal = t.answer(t.act("s chance"))  # before a roll: the engine's message, in Finnish
        assert illegal["code"] == "illegal_action" and illegal["message"] != "roll the dice before scoring"
        assert s.view is not None and s.view["version"] == 4 and s.view["legal_actions"] == []
        assert any(m["type"] == "events" for m in s.seen)


def test_every_event_comes_with_its_words_in_the_connections_language(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}], hot_seat=True)
    code, table = room["code"], room["table_token"]
    spectator = client.post(f"/api/rooms/{code}/spectate", json={}).json()["token"]
    with Player(client, code, table, lang="fi") as t, Player(client, code, spectator, lang="en") as s:
        t.until("state"), s.until("state")
        t.answer(t.act("r"))
        fi, en = t.until("events")["events"], s.until("events")["events"]
        rolled_fi, rolled_en = (next(e for e in events if e["kind"] == "rolled") for events in (fi, en))
        assert rolled_en["text"].startswith("Ann ") and rolled_fi["text"].startswith("Ann ")
        assert rolled_fi["text"] != rolled_en["text"]  # the same event, each in its own language
        dice = " ".join(map(str, rolled_en["dice"]))
        assert dice in rolled_en["text"] and dice in rolled_fi["text"]
        assert {k: v for k, v in rolled_fi.items() if k != "text"} == {k: v for k, v in rolled_en.items()
                                                                         if k != "text"}
    # a page that changes its language asks for the events again: they come in the new language
    with Player(client, code, spectator, lang="sv", last_version=0) as again:
        again_events = again.until("events")["events"]
        rolled_sv = next(e for e in again_events if e["kind"] == "rolled")
        assert rolled_sv["text"] not in (rolled_en["text"], rolled_fi["text"])
        assert rolled_sv["text"].startswith("Ann ")


def test_a_finished_room_nobody_watches_is_let_go_and_read_back_when_asked(client: TestClient) -> None:
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    rooms.keep_finished = 0.2
    code = make_room(client, [{"name": "Ann"}, BOT], ruleset="kids")["code"]
    with Player(client, code, join(client, code)) as ann:
        ann.play_out()
        if not any(m["type"] == "reveal" for m in ann.seen):
            ann.until("reveal")
        time.sleep(0.5)
        assert code in rooms.rooms  # Ann is still connected
        version = ann.view["version"]
    wait_for(lambda: code not in rooms.rooms, what="the finished room stayed in memory")
    rooms.keep_finished = 3600  # read back, it is held again (not let go before the next line looks)
    info = client.get(f"/api/rooms/{code}").json()  # read back from the database
    assert info["over"] and info["version"] == version and code in rooms.rooms
    assert client.get(f"/api/rooms/{code}/verify").status_code == 200


def test_another_processs_connections_count_until_it_falls_silent(client: TestClient) -> None:
    code = make_room(client)["code"]
    room = client.app.state.rooms.rooms[code]  # type: ignore[attr-defined]
    room.crowd.remote["other"] = ({0: 1}, 2, time.monotonic())  # Ann and two spectators, on another process
    assert room.crowd.connections(0) == 1 and room.presence().spectators == 2
    assert not room.presence().seats[0].away_for
    room.crowd.remote["other"] = ({0: 1}, 2, time.monotonic() - PRESENCE_LOST - 5)  # killed: says no more
    presence = room.presence()
    assert room.crowd.connections(0) == 0 and presence.spectators == 0 and "other" not in room.crowd.remote
    assert presence.seats[0].away_for >= PRESENCE_LOST + 5  # away since it was last heard of
