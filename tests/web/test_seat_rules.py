"""The seat rules of each kind of room: a hot-seat room's seats are played by its table's
token only (no seat joined, a seat's token refused, watching still open); a seat the host
freed stops acting at once (its move refused before its connection ends, also when someone
else has taken the seat meanwhile); a seat handed to a bot gets the room's own level only,
from the host at once or from anyone seated once its player has been away.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.web import BOT, Player, join, make_room, refused
from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.storage import Database
from yatzy.storage.rooms import RoomStore, hash_token
from yatzy.web.app import create_app
from yatzy.web.protocol import Act, HandToBot
from yatzy.web.pubsub import InProcessPubSub
from yatzy.web.room import Grant, Refusal, RoomSettings
from yatzy.web.rooms import Rooms


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with TestClient(create_app(url)) as c:
        yield c



# ---- a hot-seat room: the table's token only ---------------------------------------------------

def test_a_hot_seat_rooms_seats_are_not_joined_but_watched_and_its_table_plays(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}], hot_seat=True)
    code, table = room["code"], room["table_token"]
    for body in ({"seat": 0}, {"seat": 1}, {}):
        message = refused(client, f"/api/rooms/{code}/join", body, 403, "hot_seat")
        assert message == ("this room is played on one device, with the table's token: its seats cannot "
                           "be joined, only watched")
    assert "laitteella" in refused(client, f"/api/rooms/{code}/join?lang=fi", {"seat": 0}, 403, "hot_seat")
    assert not any(s["taken"] for s in client.get(f"/api/rooms/{code}").json()["seats"])
    spectator = client.post(f"/api/rooms/{code}/spectate", json={}).json()["token"]
    with Player(client, code, table) as t, Player(client, code, spectator) as s:
        t.until("state")
        s.until("state")
        for seat in (0, 1):  # the table plays every person's seat
            assert t.view is not None and t.view["current"] == seat
            assert t.answer(t.act("r"))["type"] == "ack"
            t.until_version()
            assert t.answer(t.act("s chance"))["type"] == "ack"
            t.until_version()
        assert s.answer(s.act("r"))["code"] == "spectator"
        assert t.view is not None and t.view["version"] == 4


def test_a_seats_token_in_a_hot_seat_room_is_refused_at_hello(client: TestClient) -> None:
    """A seat's token there (one handed out before the rule, say) does not get in."""
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}], hot_seat=True)
    held = client.app.state.rooms.rooms[room["code"]]  # type: ignore[attr-defined]
    stolen = RoomStore(client.app.state.db).issue_token(held.id, "seat", 0)  # type: ignore[attr-defined]
    with Player(client, room["code"], stolen) as thief:
        error = thief.until("error")
        assert error["code"] == "hot_seat" and "one device" in error["message"]
        assert thief.until("close")["code"] == 1008
    assert held.version == 0


def test_a_seats_grant_in_a_hot_seat_room_cannot_act(tmp_path: Path) -> None:
    """The authority itself refuses a seat's move in a hot-seat room (whatever let it in)."""

    async def attempt(rooms: Rooms) -> None:
        room, table = await rooms.create(Game(get_ruleset("kids"), [Seat("Ann"), Seat("Bo")]),
                                         RoomSettings(hot_seat=True, bot_pace=0))
        acked: list[Any] = []
        with pytest.raises(Refusal) as seat:
            stolen = Act(id="stolen", version=0, action="r")
            await rooms.act(room, Grant("seat", 0), stolen, "en", acked.append)
        assert seat.value.code == "hot_seat" and not acked and room.version == 0
        await rooms.act(room, Grant("table"), Act(id="table", version=0, action="r"), "en", acked.append)
        assert [a.version for a in acked] == [1]

    asyncio.run(_with_rooms(tmp_path, attempt))


async def _with_rooms(tmp_path: Path, run: Any) -> None:
    with Database(f"sqlite:///{tmp_path / 'rooms.sqlite3'}") as db:
        rooms = Rooms(db, InProcessPubSub())
        try:
            await run(rooms)
        finally:
            await rooms.close()


# ---- a freed seat stops at once ------------------------------------------------------------------

def test_a_freed_seats_grant_cannot_act_after_the_free(tmp_path: Path) -> None:
    """A move of the freed seat's that was on its way (checked at hello, waiting for the room)
    is refused: the free is the end of that token, not the end of its connection."""

    async def attempt(rooms: Rooms) -> None:
        host = "the host's token"
        room, _table = await rooms.create(Game(get_ruleset("kids"), [Seat("Ann"), Seat("Bo")]),
                                          RoomSettings(bot_pace=0, host=hash_token(host)))
        _seat, token = await rooms.seating.join(room, 0)
        grant = await rooms.seating.authorize(room, token)
        await rooms.seating.free(room, host, 0)
        acked: list[Any] = []
        with pytest.raises(Refusal) as freed:
            await rooms.act(room, grant, Act(id="late", version=0, action="r"), "en", acked.append)
        assert freed.value.code == "unauthorized" and "freed your seat" in freed.value.message
        assert not acked and room.version == 0
        _seat, again = await rooms.seating.join(room, 0)  # someone takes it: their token plays
        await rooms.act(room, await rooms.seating.authorize(room, again),
                        Act(id="theirs", version=0, action="r"), "en", acked.append)
        assert [a.version for a in acked] == [1]

    asyncio.run(_with_rooms(tmp_path, attempt))


def test_a_freed_seats_connection_gets_no_move_in_even_once_the_seat_is_taken(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}])
    code, host = room["code"], room["host_token"]
    ann = join(client, code, 0)
    with Player(client, code, ann) as old:
        old.until("state")
        assert client.post(f"/api/rooms/{code}/seats/0/free", json={"token": host}).status_code == 204
        stranger = join(client, code, 0)  # taken again at once, by someone else
        old.send({"type": "act", "id": "late", "version": 0, "action": "r"})
        while old.recv()["type"] != "close":
            pass
        answers = [m for m in old.seen if m["type"] in ("ack", "error", "close")]
        assert [m["type"] for m in answers] == ["error", "close"], answers
        assert answers[0]["code"] == "unauthorized" and "freed your seat" in answers[0]["message"]
    with Player(client, code, stranger) as new:
        assert new.until("state")["view"]["version"] == 0  # the old token's move never got in
        assert new.answer(new.act("r"))["type"] == "ack"


def test_the_host_frees_any_persons_seat_also_one_of_a_stranger_who_took_several(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}, BOT])
    code, host = room["code"], room["host_token"]
    grabbed = [join(client, code) for _ in range(3)]  # one stranger takes every free seat
    refused(client, f"/api/rooms/{code}/join", {}, 409, "unauthorized")
    for seat in (0, 1, 2):
        assert client.post(f"/api/rooms/{code}/seats/{seat}/free", json={"token": host}).status_code == 204
    refused(client, f"/api/rooms/{code}/seats/3/free", {"token": host}, 400, "bad_message")  # a bot's
    assert [s["taken"] for s in client.get(f"/api/rooms/{code}").json()["seats"]] == [False] * 4
    for token in grabbed:
        with Player(client, code, token) as gone:
            assert gone.until("error")["code"] == "unauthorized"
    assert join(client, code, 1)


# ---- handing a seat to a bot: the room's level only -----------------------------------------------

def test_an_away_seat_goes_to_the_rooms_own_level_only(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}, BOT], away_after=0)  # a beginner bot
    code = room["code"]
    with Player(client, code, join(client, code, 0)) as ann:
        presence = ann.until("presence")
        assert presence["stand_in_level"] == "beginner"
        for weaker in ("random", "greedy", "casual"):  # neither weaker nor another of its choosing
            ann.send({"type": "hand_to_bot", "seat": 1, "level": weaker})
            error = ann.until("error")
            assert error["code"] == "bot_level"
            assert error["message"] == (f"a seat in this room goes to a bot of the room's level, beginner, "
                                        f"not {weaker}")
        assert all(s.stand_in is None for s in client.app.state.rooms.rooms[code].presence().seats)  # type: ignore[attr-defined]
        ann.send({"type": "hand_to_bot", "seat": 1, "level": "Beginner"})
        while ann.until("presence")["seats"][1]["stand_in"] != "beginner":
            pass


def test_a_hand_to_bot_without_a_level_takes_the_rooms(client: TestClient) -> None:
    """A client of the first protocol sends no level (it was "casual" by default): the seat goes
    to the room's level, not a refusal."""
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}, BOT], away_after=0)
    with Player(client, room["code"], join(client, room["code"], 0)) as ann:
        ann.until("presence")
        ann.send({"type": "hand_to_bot", "seat": 1})
        while ann.until("presence")["seats"][1]["stand_in"] != "beginner":
            pass


def test_an_away_seat_in_a_room_without_bots_goes_to_the_strongest_level(tmp_path: Path) -> None:
    async def attempt(rooms: Rooms) -> None:
        room, _table = await rooms.create(Game(get_ruleset("kids"), [Seat("Ann"), Seat("Bo")]),
                                          RoomSettings(bot_pace=0, away_after=0))
        assert room.stand_in_level == "optimal" and room.presence().stand_in_level == "optimal"
        _seat, token = await rooms.seating.join(room, 0)
        ann = await rooms.seating.authorize(room, token)
        with pytest.raises(Refusal) as weak:
            await rooms.hand_to_bot(room, ann, HandToBot(seat=1, level="random"), "en")
        assert weak.value.code == "bot_level" and "optimal" in weak.value.message
        assert room.stand_ins == {}

    asyncio.run(_with_rooms(tmp_path, attempt))


def test_the_host_gives_a_seat_to_the_rooms_level_only(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}, {"kind": "bot", "level": "random"}, BOT])
    code, host = room["code"], room["host_token"]
    join(client, code, 1)
    to_bot = f"/api/rooms/{code}/seats/1/bot"
    message = refused(client, to_bot, {"token": host, "level": "random"}, 400, "bot_level")
    assert "beginner" in message  # the strongest of the room's own bots
    finnish = refused(client, f"{to_bot}?lang=fi", {"token": host, "level": "random"}, 400, "bot_level")
    assert "botti" in finnish
    assert client.get(f"/api/rooms/{code}").json()["seats"][1]["taken"]  # nothing changed
    assert client.post(to_bot, json={"token": host, "level": "beginner"}).status_code == 204
    assert client.get(f"/api/rooms/{code}").json()["seats"][1]["stand_in"] == "beginner"


def test_a_seat_goes_to_a_bot_from_a_seated_player_only_once_it_is_away(client: TestClient) -> None:
    """Before the away timer only the host may; a spectator never."""
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}, BOT])  # away_after: 60 s
    code = room["code"]
    spectator = client.post(f"/api/rooms/{code}/spectate", json={}).json()["token"]
    with Player(client, code, join(client, code, 0)) as ann, Player(client, code, spectator) as s:
        ann.until("state")
        s.until("state")
        ann.send({"type": "hand_to_bot", "seat": 1, "level": "beginner"})
        assert ann.until("error")["code"] == "not_away"
        s.send({"type": "hand_to_bot", "seat": 1, "level": "beginner"})
        assert s.until("error")["code"] == "spectator"
        assert client.post(f"/api/rooms/{code}/seats/1/bot",
                           json={"token": room["host_token"], "level": "beginner"}).status_code == 204
