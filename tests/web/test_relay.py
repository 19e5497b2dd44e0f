"""Another process's actions followed on from the room's channel: the process that holds the
room applies the actions a game message carries instead of reading the room back from the
database, and reads it back only when they do not follow on (a message missed, dice that
are not the seed's). Two ``Rooms`` on one SQLite database, each with an in-process pub/sub of
its own: the messages one publishes are handed to the other as Redis would hand them over."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.storage import Database
from yatzy.web.protocol import Ack, Act
from yatzy.web.room import Grant, Room, RoomSettings
from yatzy.web.rooms import Rooms

TABLE = Grant("table")


@pytest.fixture
def db(tmp_path: Path) -> Any:
    with Database(f"sqlite:///{tmp_path / 'rooms.sqlite3'}") as database:
        yield database


class Loads:
    """Counts the room loads of a process's relay (a read of the database and a replay)."""

    def __init__(self, rooms: Rooms) -> None:
        self.count = 0
        load = rooms.store.load

        def counted(code: str) -> Any:
            self.count += 1
            return load(code)

        rooms.store.load = counted  # type: ignore[method-assign]


async def two_processes(db: Database) -> tuple[Rooms, Rooms, Room, Room, list[dict[str, Any]]]:
    """A hot-seat room made on process one, held by both; what process two publishes on its channel."""
    one, two = Rooms(db), Rooms(db)
    made, _table = await one.create(Game(get_ruleset("yatzy"), [Seat("Ann"), Seat("Bo")]),
                                    RoomSettings(hot_seat=True))
    theirs = await two.get(made.code)
    assert theirs is not None
    heard: list[dict[str, Any]] = []

    async def collect(message: dict[str, Any]) -> None:
        heard.append(message)

    await two.pubsub.subscribe(f"room:{made.code}", collect)
    return one, two, made, theirs, heard


async def play(rooms: Rooms, room: Room, n: int, prefix: str = "a") -> None:
    """``n`` actions of the hot-seat table: roll once, then fill the first open box."""
    for k in range(n):
        view = room.view(TABLE, "en")
        action = "r" if view.rolls_left == 3 else f"s {view.score_options[0].id}"
        acks: list[Ack] = []
        await rooms.act(room, TABLE, Act(id=f"{prefix}{k}", version=room.version, action=action), "en",
                        acks.append)
        assert acks and not acks[0].duplicate


def test_another_processs_actions_are_followed_without_reading_the_database(db: Database) -> None:
    async def run() -> None:
        one, two, made, theirs, heard = await two_processes(db)
        loads = Loads(one)
        await play(two, theirs, 6)
        for message in heard:
            await one.relay.handler(made)(message)
        assert loads.count == 0, "the room was read back from the database"
        assert made.game.log == theirs.game.log and made.version == theirs.version == 6
        assert made.logged == 6 and made.accepted["a5"] == theirs.accepted["a5"]  # a retry here is answered
        assert made.events_after(0) == theirs.events_after(0)  # the clients here catch up from them
        await play(one, made, 2, prefix="b")  # and the game goes on here: its dice are the seed's
        stored = await asyncio.to_thread(two.store.load, made.code)
        assert stored is not None and stored.game.log == made.game.log and loads.count == 0
        for rooms in (one, two):
            await rooms.close()

    asyncio.run(run())


def test_actions_that_do_not_follow_on_load_the_room_again(db: Database) -> None:
    async def run() -> None:
        one, two, made, theirs, heard = await two_processes(db)
        loads = Loads(one)
        await play(two, theirs, 2)
        await one.relay.handler(made)(heard[1])  # the first message missed: a gap
        assert loads.count == 1 and made.game.log == theirs.game.log and made.version == 2
        await play(two, theirs, 1, prefix="b")  # a roll
        roll = heard[2]["actions"][0]["roll"]
        other = [1 if roll["result"][0] != 1 else 2, *roll["result"][1:]]
        forged = [{"roll": {**roll, "result": other}}]
        await one.relay.handler(made)({**heard[2], "actions": forged})  # dice that are not the seed's
        assert loads.count == 2 and made.game.log == theirs.game.log  # as the database has it
        for rooms in (one, two):
            await rooms.close()

    asyncio.run(run())
