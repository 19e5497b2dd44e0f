"""A seat freed and taken again on one server process before another process hears of the
free: the other process's connection of the seat's old token must check its token again when
it hears (the taken seats look the same, yet its token is void). Two ``Rooms`` on one SQLite
database; the other process hears the first one's presence message as its pub/sub would hand
it over (each has an in-process pub/sub of its own, so nothing reaches it by itself)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.storage import Database
from yatzy.storage.rooms import hash_token
from yatzy.web.pubsub import InProcessPubSub
from yatzy.web.room import Refusal, RoomSettings
from yatzy.web.rooms import Rooms

HOST = "the-hosts-token"


def test_a_seat_freed_and_taken_again_elsewhere_makes_the_old_connection_check_its_token(
        tmp_path: Path) -> None:
    with Database(f"sqlite:///{tmp_path / 'rooms.sqlite3'}") as db:
        asyncio.run(_freed_and_taken_again(db))


async def _freed_and_taken_again(db: Database) -> None:
    one, two = Rooms(db, InProcessPubSub()), Rooms(db, InProcessPubSub())
    made, _table = await one.create(Game(get_ruleset("yatzy"), [Seat("Ann"), Seat("Bo")]),
                                    RoomSettings(host=hash_token(HOST)))
    _seat, old = await one.seating.join(made, 1)
    theirs = await two.get(made.code)
    assert theirs is not None
    grant = await two.seating.authorize(theirs, old)  # the old player's connection, on process two
    woken: list[str] = []
    theirs.listeners.add(woken.append)

    await one.seating.free(made, HOST, 1)
    _seat, new = await one.seating.join(made, 1)  # taken again before process two hears
    heard = {"kind": "presence", "origin": one.pubsub.origin, "refresh": True, "connected": {},
             "spectators": 0}
    await two.relay.handler(theirs)(heard)

    assert theirs.taken == made.taken == {1}  # the same seats taken: only the token changed
    assert "seats" in woken, "the old connection was not told to check its token again"
    with pytest.raises(Refusal):
        await two.seating.authorize(theirs, old)  # what it finds when it checks
    assert (await two.seating.authorize(theirs, new)).seat == grant.seat
    woken.clear()
    await two.relay.handler(theirs)({**heard, "refresh": False})  # counts only: nothing to check
    assert "seats" not in woken
    for rooms in (one, two):
        await rooms.close()
