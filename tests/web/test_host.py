"""The host's say over a room's seats (free one, give one to a bot: refused for anyone else,
with a clear error), a rematch after the end, the bots' default names in the room's language,
and the state sent at once while a bot's table is built (the build held up by the test).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from helpers.games import play_out as play_game
from helpers.tables import held_build
from helpers.web import BOT, Player, join, make_room, play_out, refused
from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.storage import Database
from yatzy.storage.rooms import RoomStore
from yatzy.web.app import create_app
from yatzy.web.pubsub import InProcessPubSub
from yatzy.web.rematch import rematch
from yatzy.web.room import RoomSettings
from yatzy.web.rooms import Rooms


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with TestClient(create_app(url)) as c:
        yield c



# ---- the host ---------------------------------------------------------------------------------

def test_only_the_host_frees_a_seat_and_its_player_is_let_go(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}])
    code, host = room["code"], room["host_token"]
    ann, bo = join(client, code, 0), join(client, code, 1)
    free = f"/api/rooms/{code}/seats/1/free"
    for token in (ann, bo, "not a token"):  # a seat's token is not the host's
        message = refused(client, free, {"token": token}, 403, "not_host")
        assert message == "only the room's host (who made it) may free a seat or give it to a bot"
    assert "isäntä" in refused(client, f"{free}?lang=fi", {"token": bo}, 403, "not_host")
    assert client.get(f"/api/rooms/{code}").json()["seats"][1]["taken"]  # nothing changed
    refused(client, f"/api/rooms/{code}/seats/5/free", {"token": host}, 400, "bad_message")
    with Player(client, code, bo) as bo_here, Player(client, code, ann) as ann_here:
        bo_here.until("state")
        ann_here.until("state")
        assert client.post(free, json={"token": host}).status_code == 204
        gone = bo_here.until("error")
        assert gone["code"] == "unauthorized" and "freed your seat" in gone["message"]
        assert bo_here.until("close")["code"] == 1008
        while ann_here.until("presence")["seats"][1]["taken"]:
            pass  # Ann sees the seat free
    assert not client.get(f"/api/rooms/{code}").json()["seats"][1]["taken"]
    with Player(client, code, bo) as again:  # Bo's old token is void
        assert again.until("error")["code"] == "unauthorized"
    assert client.post(f"/api/rooms/{code}/join", json={"seat": 1}).status_code == 200  # open again


def test_the_host_gives_a_seat_to_a_bot_at_once(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}, BOT])  # away_after: 60 s
    code, host = room["code"], room["host_token"]
    ann, bo = join(client, code, 0), join(client, code, 1)
    to_bot = f"/api/rooms/{code}/seats/1/bot"
    refused(client, to_bot, {"token": ann, "level": "beginner"}, 403, "not_host")
    refused(client, to_bot, {"token": host, "level": "genius"}, 400, "unknown_bot")
    with Player(client, code, ann) as ann_here:
        ann_here.until("state")
        assert client.post(to_bot, json={"token": host, "level": "beginner"}).status_code == 204
        while ann_here.until("presence")["seats"][1]["stand_in"] != "beginner":
            pass
        ann_here.play_turn()
        while ann_here.view is None or ann_here.view["current"] != 0:  # the bot played Bo's turn
            ann_here.recv()
        assert ann_here.view["players"][1]["boxes"]
    with Player(client, code, bo) as back:  # Bo's token was let go with the seat
        assert back.until("error")["code"] == "unauthorized"


# ---- a rematch ----------------------------------------------------------------------------------

def test_a_rematch_has_the_same_seats_and_rules_and_the_others_may_follow(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}, {"kind": "bot", "level": "beginner"}],
                     ruleset="kids", lang="fi", roll_off=True)
    code = room["code"]
    ann, bo = join(client, code, 0), join(client, code, 1)
    rematch = f"/api/rooms/{code}/rematch"
    refused(client, rematch, {"token": ann}, 409, "not_over")
    watcher = client.post(f"/api/rooms/{code}/spectate", json={}).json()["token"]
    with Player(client, code, ann) as ann_here, Player(client, code, bo) as bo_here:
        play_out(ann_here, bo_here)
        refused(client, rematch, {"token": watcher}, 403, "spectator")
        refused(client, rematch, {"token": "nope"}, 409, "unauthorized")
        first = client.post(rematch, json={"token": ann})
        assert first.status_code == 200, first.text
        made = first.json()
        assert made["role"] == "seat" and made["seat"] == 0 and made["token"] and made["host_token"]
        offer = bo_here.until("rematch")
        assert offer == {"type": "rematch", "room": made["code"]}
        follow = client.post(rematch, json={"token": bo}).json()
        assert follow["code"] == made["code"] and follow["seat"] == 1 and follow["host_token"] is None
    old, new = client.get(f"/api/rooms/{code}").json(), client.get(f"/api/rooms/{made['code']}").json()
    # a new game (its bot may have won the roll-off and begun: no fixed version to expect)
    assert new["ruleset"] == old["ruleset"] == "kids" and not new["over"]
    assert new["game_id"] != old["game_id"] and new["commitment"] != old["commitment"]
    assert [(s["name"], s["kind"], s["level"]) for s in new["seats"]] == \
        [(s["name"], s["kind"], s["level"]) for s in old["seats"]]
    assert [s["taken"] for s in new["seats"]] == [True, True, False]
    again = client.post(rematch, json={"token": ann})  # the same room; Ann's seat there is hers already
    assert again.status_code == 409 and again.json()["detail"]["code"] == "unauthorized"
    with Player(client, made["code"], follow["token"]) as bo_there:
        assert bo_there.until("welcome")["seat"] == 1
    with Player(client, code, watcher) as late:  # a new connection to the old room hears of it too
        assert late.until("rematch")["room"] == made["code"]


# ---- the bots' names ----------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "name"), [("en", "Beginner bot"), ("fi", "Aloittelijabotti"),
                                            ("sv", "Nybörjarbot")])
def test_a_bots_default_name_is_in_the_rooms_language(client: TestClient, lang: str, name: str) -> None:
    code = make_room(client, [{"name": "Ann"}, {"kind": "bot", "level": "beginner"},
                              {"kind": "bot", "level": "beginner", "name": "Robo"}], lang=lang)["code"]
    assert [s["name"] for s in client.get(f"/api/rooms/{code}").json()["seats"]] == ["Ann", name, "Robo"]


# ---- a state at once while a bot's table is built -----------------------------------------------

@pytest.fixture(name="held_build")
def held_build_fixture(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    with held_build(monkeypatch) as release:
        yield release


def test_the_state_comes_at_once_while_a_bots_table_is_built(client: TestClient,
                                                              held_build: threading.Event) -> None:
    code = make_room(client, [{"kind": "bot", "level": "casual"}, {"name": "Ann"}], ruleset="kids",
                     lang="fi")["code"]
    with Player(client, code, join(client, code, 1), lang="fi") as ann:
        ann.until("welcome")
        state = ann.until("state")  # while the build is held up
        assert state["view"]["current"] == 0 and not state["view"]["legal_actions"]
        preparing = ann.until("preparing")
        while preparing["stage"] != "building":
            preparing = ann.until("preparing")
        assert preparing["progress"] == 0.25
        assert "Kids" in preparing["text"] and "taulukkoa" in preparing["text"]  # in Ann's language
        assert not held_build.is_set()
        held_build.set()
        while ann.until("preparing")["stage"] != "ready":
            pass
        moved = ann.until("events")
        assert moved["events"][0]["player"] == 0  # the bot plays once its table is ready


def test_a_stand_in_bots_table_is_built_with_its_progress_told(client: TestClient,
                                                                held_build: threading.Event) -> None:
    """An optimal bot (the room has none of its own) standing in for Bo waits for its table
    outside the room's lock: Ann hears how far it has come, and the bot plays once it is ready."""
    code = make_room(client, [{"name": "Ann"}, {"name": "Bo"}], ruleset="kids", away_after=0)["code"]
    with Player(client, code, join(client, code, 0)) as ann:
        ann.play_turn()
        ann.send({"type": "hand_to_bot", "seat": 1, "level": "optimal"})
        preparing = ann.until("preparing")
        while preparing["stage"] != "building":
            preparing = ann.until("preparing")
        assert preparing["progress"] == 0.25 and "optimal" in preparing["text"]
        ann.send({"type": "ping", "nonce": "still-here"})
        assert ann.until("pong")["nonce"] == "still-here"  # the room answers meanwhile
        held_build.set()
        while ann.until("preparing")["stage"] != "ready":
            pass
        while ann.view is None or ann.view["current"] != 0:
            ann.recv()
        assert ann.view["players"][1]["boxes"]  # the stand-in played Bo's turn


def test_two_processes_asked_at_once_make_one_rematch(tmp_path: Path) -> None:
    """Both players ask at the same moment, each through another server process: both are
    sent to the one rematch the database named first."""
    asyncio.run(_rematch_race(tmp_path))


async def _rematch_race(tmp_path: Path) -> None:
    with Database(f"sqlite:///{tmp_path / 'rooms.sqlite3'}") as db:
        one, two = Rooms(db, InProcessPubSub()), Rooms(db, InProcessPubSub())
        game = play_game(Game(get_ruleset("kids"), [Seat("Ann"), Seat("Bo")]))
        made, table = await one.create(game, RoomSettings(hot_seat=True))
        theirs = await two.get(made.code)
        assert theirs is not None and theirs.over and table is not None
        first, second = await asyncio.gather(rematch(one, made, table), rematch(two, theirs, table))
        assert first.code == second.code and first.role == second.role == "table"
        assert [first.host_token, second.host_token].count(None) == 1  # whoever made it is its host
        stored = RoomStore(db).load(made.code)
        assert stored is not None and stored.settings["rematch"] == first.code
        for rooms in (one, two):
            await rooms.close()
