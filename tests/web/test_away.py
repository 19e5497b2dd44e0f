"""A seat away long enough to go to a bot: the others hear of it the moment it is, without
anyone coming or going (a presence message rung by a timer per away seat), in the process
that held the player's connection and in the others, which heard of it through the pub/sub.

The timers run on a controlled clock (:class:`Clock`): a test moves time on, and the timers
due meanwhile ring in order; nothing sleeps."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.wait import DEADLINE, wait_for
from helpers.web import Player, free_port, join, make_room, stop_process
from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.storage import Database
from yatzy.web.app import create_app
from yatzy.web.presence import Crowd
from yatzy.web.pubsub import InProcessPubSub, PubSub
from yatzy.web.room import Grant, Room, RoomSettings
from yatzy.web.rooms import Rooms


@dataclass
class Timer:
    when: float
    call: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class Clock:
    """A clock that moves only when told to (:meth:`advance`), and its timers."""

    now: float = 1000.0
    timers: list[Timer] = field(default_factory=list)

    def __call__(self) -> float:
        return self.now

    def later(self, delay: float, call: Callable[[], None]) -> Timer:
        timer = Timer(self.now + delay, call)
        self.timers.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        """Move on ``seconds``, ringing each timer due meanwhile at its time."""
        end = self.now + seconds
        while True:
            due = [t for t in self.timers if not t.cancelled and t.when <= end]
            if not due:
                break
            timer = min(due, key=lambda t: t.when)
            self.timers.remove(timer)
            self.now = max(self.now, timer.when)
            timer.call()
        self.now = end

    @property
    def pending(self) -> int:
        return sum(not t.cancelled for t in self.timers)


def watched(clock: Clock, away_after: float = 60.0) -> tuple[Crowd, list[int]]:
    crowd = Crowd(clock=clock, later=clock.later)
    rung: list[int] = []
    crowd.watch(away_after, rung.append)
    return crowd, rung


# ---- a crowd's timers ---------------------------------------------------------------------------

def test_a_seat_away_rings_once_when_its_away_time_has_passed() -> None:
    clock = Clock()
    crowd, rung = watched(clock)
    crowd.came([0], spectator=False)
    crowd.left([0], spectator=False)
    clock.advance(59.9)
    assert rung == []
    clock.advance(0.1)
    assert rung == [0]
    clock.advance(600)
    assert rung == [0] and clock.pending == 0


def test_a_seat_back_in_time_stops_its_timer() -> None:
    clock = Clock()
    crowd, rung = watched(clock)
    crowd.came([0, 1], spectator=False)
    crowd.left([0, 1], spectator=False)
    clock.advance(30)
    crowd.came([0], spectator=False)  # back: no bot for seat 0
    clock.advance(30)
    assert rung == [1] and clock.pending == 0
    crowd.left([0], spectator=False)  # gone again: a new 60 s from now
    clock.advance(59)
    assert rung == [1]
    clock.advance(1)
    assert rung == [1, 0]


def test_a_seat_away_before_the_watch_began_rings_at_its_own_time() -> None:
    clock = Clock()
    crowd = Crowd(clock=clock, later=clock.later)
    crowd.away_since = {0: clock.now, 1: clock.now - 100}  # a room loaded: nobody there yet
    clock.advance(20)
    rung: list[int] = []
    crowd.watch(60, rung.append)
    assert clock.pending == 1  # seat 1's time passed already: whoever looks now sees it
    clock.advance(39)
    assert rung == []
    clock.advance(1)
    assert rung == [0]


def test_a_timer_that_goes_off_early_is_set_again_for_the_rest() -> None:
    clock = Clock()
    crowd, rung = watched(clock)
    crowd.left([0], spectator=False)
    timer = clock.timers[0]
    clock.timers.remove(timer)
    clock.now += 59.99  # an event loop's timer may go off a clock tick early
    timer.call()
    assert rung == [] and clock.pending == 1
    clock.advance(0.01)
    assert rung == [0]


def test_a_stopped_crowd_rings_no_more() -> None:
    clock = Clock()
    crowd, rung = watched(clock)
    crowd.left([0], spectator=False)
    crowd.stop()
    clock.advance(100)
    assert rung == [] and clock.pending == 0


def test_a_seat_of_another_process_rings_when_that_process_says_it_is_gone() -> None:
    clock = Clock()
    crowd, rung = watched(clock)
    crowd.hear({"origin": "b", "connected": {"1": 1, "2": 1}, "spectators": 0})
    clock.advance(10)
    crowd.hear({"origin": "b", "connected": {"2": 1}, "spectators": 0})  # seat 1 closed its tab there
    clock.advance(59)
    assert rung == []
    clock.advance(1)
    assert rung == [1]
    crowd.hear({"origin": "b", "connected": {}, "spectators": 0})  # seat 2 too, and comes back in time
    clock.advance(30)
    crowd.hear({"origin": "b", "connected": {"2": 1}, "spectators": 0})
    clock.advance(100)
    assert rung == [1]


# ---- a room's clients told -----------------------------------------------------------------------

def control(room: Room, clock: Clock) -> None:
    """Put a held room's presence on ``clock`` (everyone away from now)."""
    room.crowd.stop()
    room.crowd.clock, room.crowd.later = clock, clock.later
    room.crowd.away_since = {i: clock.now for i, s in enumerate(room.game.seats) if not s.is_bot}
    room.watch_away()


def test_the_room_wakes_its_clients_when_a_seat_may_go_to_a_bot(tmp_path: Path) -> None:
    asyncio.run(_room_wakes(tmp_path))


async def _room_wakes(tmp_path: Path) -> None:
    with Database(f"sqlite:///{tmp_path / 'rooms.sqlite3'}") as db:
        rooms = Rooms(db)
        room, _table = await rooms.create(Game(get_ruleset("yatzy"), [Seat("Ann"), Seat("Bo")]),
                                          RoomSettings(away_after=75))
        clock = Clock()
        control(room, clock)
        heard: list[tuple[str, bool]] = []
        room.listeners.add(lambda what: heard.append((what, room.may_hand_to_bot(1))))
        for seat in (0, 1):
            await rooms.connected(room, Grant("seat", seat))
        clock.advance(10)
        await rooms.disconnected(room, Grant("seat", 1))  # Bo closes his tab
        heard.clear()
        clock.advance(74.9)
        assert heard == []
        clock.advance(0.1)
        assert heard == [("presence", True)]
        await rooms.close()


def test_two_processes_tell_their_clients_when_a_seat_of_the_other_may_go(tmp_path: Path) -> None:
    """Bo's connection was on the first process; Ann's client, on the second, hears that Bo's
    seat may go to a bot from the second process's own timer (set when the first said Bo was
    gone)."""
    asyncio.run(_two_processes(tmp_path))


class LinkedPubSub(InProcessPubSub):
    """A pub/sub that also hands each message to the other processes' (what Redis does)."""

    def __init__(self) -> None:
        super().__init__()
        self.others: list[LinkedPubSub] = []

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        await self.deliver(channel, message)
        for other in self.others:
            await other.deliver(channel, message)


async def _two_processes(tmp_path: Path) -> None:
    with Database(f"sqlite:///{tmp_path / 'rooms.sqlite3'}") as db:
        a, b = LinkedPubSub(), LinkedPubSub()
        a.others, b.others = [b], [a]
        one, two = Rooms(db, a), Rooms(db, b)
        made, _table = await one.create(Game(get_ruleset("yatzy"), [Seat("Ann"), Seat("Bo")]),
                                        RoomSettings(away_after=60))
        theirs = await two.get(made.code)
        assert theirs is not None
        clock = Clock()
        for room in (made, theirs):
            control(room, clock)
        heard: list[bool] = []
        theirs.listeners.add(lambda what: heard.append(what == "presence" and theirs.may_hand_to_bot(1)))
        await two.connected(theirs, Grant("seat", 0))  # Ann, on the second process
        await one.connected(made, Grant("seat", 1))  # Bo, on the first
        assert theirs.crowd.connections(1) == 1
        clock.advance(5)
        await one.disconnected(made, Grant("seat", 1))
        assert heard and not any(heard)  # told at once that Bo is away, not yet that a bot may play
        clock.advance(59)
        assert not any(heard)
        clock.advance(1)
        assert heard[-1] is True
        for rooms in (one, two):
            await rooms.close()


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with TestClient(create_app(url)) as c:
        yield c


def test_a_client_hears_that_a_seat_may_go_to_a_bot_with_nothing_else_said(client: TestClient) -> None:
    """Over the WebSocket, on the event loop's own timers: the presence message comes by
    itself once Bo has been away away_after seconds (before, only a reload showed it)."""
    code = make_room(client, away_after=2)["code"]
    with Player(client, code, join(client, code, 0)) as ann:
        ann.until("state")
        with Player(client, code, join(client, code, 1)) as bo:
            bo.until("state")
            while not ann.until("presence")["seats"][1]["connected"]:
                pass
        gone = ann.until("presence")["seats"][1]
        assert not gone["connected"] and not gone["may_hand_to_bot"]
        assert ann.until("presence")["seats"][1]["may_hand_to_bot"]


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server (.ci/run installs it)")
def test_through_redis_the_other_process_tells_its_client_when_a_seat_may_go(tmp_path: Path) -> None:
    """The same as two processes above, through a real Redis (a server of this test's own)."""
    port = free_port()
    with (tmp_path / "redis.log").open("ab") as out:
        proc = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                                 "--appendonly", "no"], stdout=out, stderr=out)
    try:
        def up() -> bool:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
            return False

        wait_for(up, what="redis-server did not start")
        asyncio.run(_through_redis(tmp_path, f"redis://127.0.0.1:{port}/0"))
    finally:
        stop_process(proc)


async def until(check: Callable[[], bool]) -> None:
    """Wait (the event loop going on) until ``check()`` holds; fail after the deadline."""
    async def wait() -> None:
        while not check():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(wait(), DEADLINE)


async def _through_redis(tmp_path: Path, redis: str) -> None:
    with Database(f"sqlite:///{tmp_path / 'rooms.sqlite3'}") as db:
        a, b = PubSub.from_url(redis), PubSub.from_url(redis)
        one, two = Rooms(db, a), Rooms(db, b)
        made, _table = await one.create(Game(get_ruleset("yatzy"), [Seat("Ann"), Seat("Bo")]),
                                        RoomSettings(away_after=1))
        theirs = await two.get(made.code)
        assert theirs is not None
        heard: list[bool] = []
        theirs.listeners.add(lambda what: heard.append(what == "presence" and theirs.may_hand_to_bot(1)))
        await two.connected(theirs, Grant("seat", 0))  # Ann, on the second process
        await one.connected(made, Grant("seat", 1))  # Bo, on the first
        await until(lambda: theirs.crowd.connections(1) == 1)  # the second heard of Bo through Redis
        await one.disconnected(made, Grant("seat", 1))
        await until(lambda: any(heard))  # no one says anything more: the second process's own timer rings
        assert theirs.crowd.away_for(1, theirs.crowd.clock()) >= 1
        for rooms in (one, two):
            await rooms.close()
        for pubsub in (a, b):
            await pubsub.close()
