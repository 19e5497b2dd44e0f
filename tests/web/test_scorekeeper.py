"""Scorekeeper rooms: the players type the dice they threw at a real table; each plays only
their own seat (the table token every seat), takes back a typed entry, corrects an earlier
round; no fairness commitment, nothing to verify. A normal room refuses typed dice."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.games import DOZZY_ROUNDS
from helpers.web import BOT, Player, db_url, join, make_room
from yatzy.events import Event
from yatzy.game import Game
from yatzy.seats import Seat
from yatzy.storage import Database, get_game, load_game
from yatzy.storage.rooms import RoomStore
from yatzy.web.app import create_app
from yatzy.web.protocol import Ack, Act, Amend, Undo
from yatzy.web.pubsub import InProcessPubSub
from yatzy.web.room import Room, RoomSettings
from yatzy.web.rooms import Rooms


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_url(tmp_path))) as c:
        yield c


def sync(player: Player, other: Player) -> None:
    """Read until ``player`` has seen what ``other`` has."""
    assert other.view is not None
    while player.view is None or player.view["version"] < other.view["version"]:
        player.recv()



def test_a_whole_scorekeeper_game_with_an_undo_and_a_correction(client: TestClient, tmp_path: Path) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}], ruleset="kids", dice_from="players")
    code = room["code"]
    assert room["commitment"] == ""
    info = client.get(f"/api/rooms/{code}").json()
    assert info["dice_from"] == "players" and info["commitment"] == ""
    verify = client.get(f"/api/rooms/{code}/verify")
    assert verify.status_code == 409 and verify.json()["detail"]["code"] == "nothing_to_verify"
    with Player(client, code, join(client, code)) as ann, Player(client, code, join(client, code)) as bo:
        welcome = ann.until("welcome")
        assert welcome["dice_from"] == "players" and welcome["commitment"] == ""
        ann.until("state")
        bo.until("state")
        # a roll without its dice, and dice typed for another seat, are refused
        assert ann.answered({"type": "act", "id": "no-dice", "action": "r"})["code"] == "invalid_action"
        early = bo.answered({"type": "act", "id": "bo-early", "action": "r = 11111"})
        assert early["code"] == "not_your_turn"
        assert ann.answered({"type": "act", "id": "a1", "action": "r = 12346"})["type"] == "ack"
        assert ann.view is not None and ann.view["dice"] == [1, 2, 3, 4, 6]
        assert ann.view["dice_from"] == "players"
        # typed wrong: Bo may not take Ann's dice back, Ann may
        sync(bo, ann)
        assert bo.answered({"type": "undo", "id": "bo-undo"})["code"] == "other_seat"
        before = ann.view["version"]
        assert ann.answered({"type": "undo", "id": "u1"})["type"] == "ack"
        assert ann.view["version"] == before + 1 and ann.view["dice"] is None
        assert any(e["kind"] == "undone" for m in ann.seen if m["type"] == "events" for e in m["events"])
        # r = DICE names the dice on the table: the roll keeps what it can
        assert ann.answered({"type": "act", "id": "a2", "action": "r = 11346"})["type"] == "ack"
        assert ann.answered({"type": "act", "id": "a3", "action": "r = 11156"})["type"] == "ack"
        game = client.app.state.rooms.rooms[code].game  # type: ignore[attr-defined]
        assert str(game.log[-1]) == "k 116 = 15"
        assert ann.answered({"type": "act", "id": "a4", "action": "k 111 = 11"})["type"] == "ack"
        assert ann.view["dice"] == [1, 1, 1, 1, 1]
        assert ann.answered({"type": "act", "id": "a5", "action": "s ones"})["type"] == "ack"
        while bo.view is None or not bo.view["legal_actions"]:
            bo.recv()
        assert bo.answered({"type": "act", "id": "b1", "action": "r = 22256"})["type"] == "ack"
        assert bo.answered({"type": "act", "id": "b2", "action": "s twos"})["type"] == "ack"
        rounds = client.get(f"/api/rooms/{code}/rounds").json()
        assert [(r["turn"], r["seat"], r["number"], r["dice"], r["box"]) for r in rounds] == [
            (0, 0, 1, [1, 1, 1, 1, 1], "ones"), (1, 1, 1, [2, 2, 2, 5, 6], "twos")]
        # corrections: only the round's own seat; a round that was never played is refused
        sync(ann, bo)
        assert bo.answered({"type": "amend", "id": "bo-fix", "turn": 0, "dice": [1, 1, 1, 2, 3],
                           "box": "ones"})["code"] == "other_seat"
        assert ann.answered({"type": "amend", "id": "bad-fix", "turn": 7, "dice": [1, 1, 1, 2, 3],
                            "box": "ones"})["code"] == "illegal_action"
        assert ann.answered({"type": "amend", "id": "f1", "turn": 0, "dice": [1, 1, 1, 2, 3],
                            "box": "ones"})["type"] == "ack"
        amended = [e for m in ann.seen if m["type"] == "events" for e in m["events"]
                   if e["kind"] == "amended"]
        assert amended and amended[0]["totals"][0] == 3
        assert client.get(f"/api/rooms/{code}/rounds").json()[0]["dice"] == [1, 1, 1, 2, 3]
        sync(bo, ann)
        assert bo.answered({"type": "amend", "id": "f2", "turn": 1, "actions": ["r = 22226", "s twos"]})[
            "type"] == "ack"
        # the rest of the game: each types five of a box's face and fills it
        for faces in ((2, 1), (3, 3), (4, 4), (5, 5), (6, 6)):
            for p, face in zip((ann, bo), faces, strict=True):
                box = ("ones", "twos", "threes", "fours", "fives", "sixes")[face - 1]
                sync(p, bo if p is ann else ann)
                while p.view is None or not p.view["legal_actions"]:
                    p.recv()
                dice = str(face) * 5
                assert p.answered({"type": "act", "id": f"{box}-{p.view['version']}",
                                  "action": f"r = {dice}"})["type"] == "ack"
                assert p.answered({"type": "act", "id": f"s{box}-{p.view['version']}",
                                  "action": f"s {box}"})["type"] == "ack"
        sync(ann, bo)
        assert ann.view["over"] and [p["total"] for p in ann.view["players"]] == [153, 153]
        # the card is full: each round may fill its own box only, and the fix dialog lists just that
        found = client.get(f"/api/rooms/{code}/rounds").json()
        assert len(found) == 12 and [r["boxes"] for r in found] == [[r["box"]] for r in found]
        # a finished game may still be corrected; no reveal in a scorekeeper room
        sync(ann, bo)
        assert ann.answered({"type": "undo", "id": "late-undo"})["code"] == "game_over"
        sync(bo, ann)
        assert bo.answered({"type": "amend", "id": "f3", "turn": 1, "dice": [2, 2, 2, 2, 2],
                           "box": "twos"})["type"] == "ack"
        assert not [m for m in ann.seen + bo.seen if m["type"] == "reveal"]
        version = bo.view["version"]
    with Database(db_url(tmp_path)) as db:
        game_id = client.get(f"/api/rooms/{code}").json()["game_id"]
        stored = load_game(db, game_id)
        assert stored.dice_from == "players" and len(stored.amendments) == 3 and stored.totals() == [153, 155]
        summary = get_game(db, game_id)
        assert summary.dice_from == "players" and summary.finished
        assert [s.total for s in summary.seats] == [153, 155]
    with TestClient(create_app(db_url(tmp_path), public_history=True)) as again:  # a new server goes on
        assert again.get(f"/api/rooms/{code}").json()["version"] == version
        analysis = again.get(f"/api/rooms/{code}/analysis")
        assert analysis.status_code in (200, 202)
        assert again.get(f"/api/games/{game_id}").json()["game"]["dice_from"] == "players"


def test_a_hot_seat_scorekeeper_table_types_for_every_seat(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}], ruleset="kids", dice_from="players",
                     hot_seat=True)
    with Player(client, room["code"], room["table_token"]) as table:
        assert table.until("welcome")["role"] == "table"
        table.until("state")
        assert table.answered({"type": "act", "id": "t1", "action": "r = 11111"})["type"] == "ack"
        assert table.answered({"type": "act", "id": "t2", "action": "s ones"})["type"] == "ack"
        assert table.answered({"type": "undo", "id": "t3"})["type"] == "ack"  # the table may take back any
        assert table.answered({"type": "act", "id": "t4", "action": "s twos"})["type"] == "ack"
        # Bo's turn
        assert table.answered({"type": "act", "id": "t5", "action": "r = 22222"})["type"] == "ack"
        assert table.answered({"type": "act", "id": "t6", "action": "s twos"})["type"] == "ack"
        assert table.answered({"type": "amend", "id": "t7", "turn": 1, "dice": [2, 2, 2, 2, 1],
                              "box": "twos"})["type"] == "ack"


def test_typed_dice_are_refused_in_a_normal_room_and_keeper_rooms_seat_people(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}])
    code = room["code"]
    with Player(client, code, join(client, code)) as ann:
        ann.until("state")
        forged = ann.answered({"type": "act", "id": "forged", "action": "r = 66666"})
        assert forged["code"] == "invalid_action"
        assert ann.answered({"type": "undo", "id": "u"})["code"] == "not_keeper"
        assert ann.answered({"type": "amend", "id": "f", "turn": 0, "dice": [6, 6, 6, 6, 6],
                            "box": "chance"})["code"] == "not_keeper"
        assert ann.view is not None and ann.view["version"] == 0 and ann.view["dice"] is None
    with_bot = client.post("/api/rooms", json={"seats": [{"name": "Ann"}, BOT], "dice_from": "players"})
    assert with_bot.status_code == 400
    assert client.post("/api/rooms", json={"seats": [{"name": "Ann"}], "dice_from": "players",
                                           "roll_off": True}).status_code == 400
    keeper = make_room(client, [{"name": "Ann"}, {"name": "Bo"}], ruleset="kids", dice_from="players",
                       away_after=0)
    with Player(client, keeper["code"], join(client, keeper["code"])) as ann:
        ann.until("state")
        ann.send({"type": "hand_to_bot", "seat": 1, "level": "casual"})
        refused = ann.until("error")
        assert refused["code"] == "illegal_action" and "scorekeeper" in refused["message"]


def test_a_dozzy_round_corrected_into_a_box_with_a_choice_of_tiles(client: TestClient) -> None:
    """Fixed into Ones, the last round lets tile 8, 10 or 11 come back: without ``returns`` the
    refusal names the choices and nothing changes; with them the correction is made."""
    from yatzy.actions import Score, parse_action
    from yatzy.game import Game

    typed = DOZZY_ROUNDS
    room = make_room(client, [{"name": "Anna"}], ruleset="dozzy", dice_from="players", hot_seat=True)
    with Player(client, room["code"], room["table_token"]) as table:
        table.until("state")
        for n, action in enumerate(typed):
            assert table.answered({"type": "act", "id": f"a{n}", "action": action})["type"] == "ack"
        before = table.view
        assert before is not None
        fix = {"type": "amend", "turn": 5, "dice": [2, 2, 4, 5, 6], "box": "n1"}
        refused = table.answered({**fix, "id": "f1"})
        assert refused["code"] == "illegal_action" and all(
            f"s n1 {n}" in refused["message"] for n in (8, 10, 11)), refused  # the choices to type
        table.send({**fix, "id": "f2", "version": before["version"], "returns": [10],
                    "actions": ["r = 22456", "s n1 10"]})
        assert table.until("error")["code"] == "bad_message"  # one form or the other
        assert table.view == before
        assert table.answered({**fix, "id": "f3", "returns": [10]})["type"] == "ack"
        assert client.get(f"/api/rooms/{room['code']}/rounds").json()[-1]["box"] == "n1"
        expected = Game("dozzy", ["Anna"], dice_from="players")
        for action in [*typed[:-1], "s n1 10"]:
            expected.apply(parse_action(action))
        assert isinstance(expected.log[-1], Score)
        assert table.view["board"]["tiles_out"] == sorted(expected.state.out)


def test_a_keeper_rooms_version_is_its_games_in_events_views_acks_and_the_database(tmp_path: Path) -> None:
    """An undo and a correction are one change each, though they shorten the log or change its
    length: the session's events, the views, the acks, the published messages and the room's
    row all carry the game's one version (nothing added on the way), also once the room is
    loaded back by another server and corrected again there."""
    with Database(db_url(tmp_path)) as db:
        asyncio.run(_keeper_versions(db))


async def _keeper_versions(db: Database) -> None:
    first = Rooms(db, InProcessPubSub())
    room, _table = await first.create(Game("yatzy", [Seat("Ann")], dice_from="players"), RoomSettings())
    _seat, token = await first.seating.join(room, 0)
    ann = await first.seating.authorize(room, token)
    heard: list[Event] = []
    room.session.subscribe(heard.append)
    published: list[dict[str, Any]] = []

    async def publish(message: dict[str, Any]) -> None:
        published.append(message)

    await first.pubsub.subscribe(f"room:{room.code}", publish)
    acks: list[Ack] = []

    async def check(room: Room, version: int) -> None:
        stored = await asyncio.to_thread(RoomStore(db).load, room.code)
        assert stored is not None and stored.version == stored.game.version == version
        assert room.version == room.game.version == version == acks[-1].version
        assert room.view(ann, "en").version == version
        assert published[-1]["version"] == version and published[-1]["events"][-1]["version"] == version
        assert heard[-1].version == version and heard[-1].to_dict()["version"] == version

    await first.act(room, ann, Act(id="r1", version=0, action="r = 12346"), "en", acks.append)
    await first.act(room, ann, Act(id="s1", version=1, action="s chance"), "en", acks.append)
    await first.edit(room, ann, Undo(id="u1", version=2), "en", acks.append)
    assert len(room.game.log) == 1  # the roll: the score undone
    await check(room, 3)
    await first.act(room, ann, Act(id="s2", version=3, action="s sixes"), "en", acks.append)
    await check(room, 4)
    fix = Amend(id="f1", version=4, turn=0, actions=["r = 12346", "r = 11111", "s ones"])
    await first.edit(room, ann, fix, "en", acks.append)
    assert len(room.game.log) == 3  # the round's three actions instead of two
    await check(room, 5)
    await first.close()

    second = Rooms(db, InProcessPubSub())  # a restarted server
    again = await second.get(room.code)
    assert again is not None and again.version == again.game.version == 5 and len(again.game.log) == 3
    heard.clear()
    again.session.subscribe(heard.append)
    await second.pubsub.subscribe(f"room:{again.code}", publish)
    await second.edit(again, ann, Amend(id="f2", version=5, turn=0, dice=[6, 6, 6, 6, 6], box="chance"),
                      "en", acks.append)
    await check(again, 6)
    await second.close()
