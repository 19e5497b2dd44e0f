"""Several server processes sharing rooms: one game's actions are serialized across
processes by the room row's version, and events fan out through Redis.

- Two ``Rooms`` on one database (SQLite, and PostgreSQL when YATZY_TEST_POSTGRES_URL is
  set) race for the same room: one action is committed, the other is refused as a conflict
  and its process loads the room back.
- Two real ``yatzy serve`` processes on 127.0.0.1, one PostgreSQL schema and one Redis
  (YATZY_TEST_POSTGRES_URL and YATZY_TEST_REDIS_URL; .ci/run starts both): a client on each
  process plays one room with a bot to the end and both see every event; then two
  connections of a hot-seat table, one on each process, send every action at once: each is
  applied exactly once, the loser gets ``stale`` or ``conflict`` and a full state.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from test_web_support import (
    BOT,
    DATABASES,
    POSTGRES,
    REDIS,
    database_url,
    free_port,
    postgres_schema,
    stop_process,
)
from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.storage import Database
from yatzy.web.protocol import Act
from yatzy.web.pubsub import InProcessPubSub, PubSub
from yatzy.web.rooms import Grant, Refusal, Rooms, RoomSettings, load_room_record

# ---- the row version, without Redis ------------------------------------------------------------


@pytest.mark.parametrize("kind", DATABASES)
def test_two_processes_racing_for_one_room_commit_one_action(kind: str, tmp_path: Path) -> None:
    with database_url(kind, tmp_path) as url, Database(url) as db:
        asyncio.run(_race(db))


async def _race(db: Database) -> None:
    one, two = Rooms(db, InProcessPubSub()), Rooms(db, InProcessPubSub())  # two processes' rooms
    game = Game(get_ruleset("yatzy"), [Seat("Ann"), Seat("Bo")])
    made, _table = await one.create(game, RoomSettings(hot_seat=True))
    theirs = await two.get(made.code)
    assert theirs is not None and theirs is not made
    table = Grant("table")
    acks: list[Any] = []
    answers = await asyncio.gather(
        one.act(made, table, Act(id="from-one", version=0, action="r"), "en", acks.append),
        two.act(theirs, table, Act(id="from-two", version=0, action="r"), "en", acks.append),
        return_exceptions=True)
    refused = [a for a in answers if isinstance(a, Refusal)]
    assert len(acks) == 1 and acks[0].version == 1 and len(refused) == 1, answers
    assert refused[0].code == "conflict" and refused[0].resync
    # the loser loaded the winner's action back: both hold the same game, and so does the database
    assert made.game.to_dict() == theirs.game.to_dict()
    stored = load_room_record(db, made.code)  # the game's save and the actions appended to it
    assert stored is not None and stored.game.to_dict() == made.game.to_dict()
    assert len(made.game.log) == 1
    # the loser's process plays on from there
    winner, loser = (one, two) if acks[0].id == "from-one" else (two, one)
    room = theirs if loser is two else made
    again: list[Any] = []
    await loser.act(room, table, Act(id="after", version=1, action="r"), "en", again.append)
    assert again[0].version == 2
    # a retry of the winner's action through the loser's process is answered, not applied again
    retried: list[Any] = []
    await loser.act(room, table, Act(id=acks[0].id, version=0, action="r"), "en", retried.append)
    assert retried[0].duplicate and retried[0].version == 1 and room.version == 2
    for rooms in (one, two):
        await rooms.close()


def test_the_pubsub_url_chooses_the_backend() -> None:
    assert isinstance(PubSub.from_url(None), InProcessPubSub)
    assert type(PubSub.from_url("redis://127.0.0.1:6379/0")).__name__ == "RedisPubSub"
    with pytest.raises(Exception, match="memory://"):
        PubSub.from_url("kafka://127.0.0.1")


# ---- two real server processes, one PostgreSQL schema, one Redis -----------------------------------

needs_both = pytest.mark.skipif(
    not (POSTGRES and REDIS),
    reason="set YATZY_TEST_POSTGRES_URL and YATZY_TEST_REDIS_URL (.ci/run starts both) to run two "
           "server processes sharing rooms")


@contextmanager
def server(db: str, pubsub: str, log: Path) -> Iterator[str]:
    """``yatzy serve`` in a real process on 127.0.0.1 (a free port); its base URL once it
    answers. Its log goes to ``log``."""
    port = free_port()
    yatzy = Path(sys.executable).with_name("yatzy")
    with log.open("wb") as out:
        proc = subprocess.Popen([str(yatzy), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db,
                                 "--pubsub", pubsub], stdout=subprocess.DEVNULL, stderr=out,
                                env={**os.environ})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/api/rooms/ZZZZZZ", timeout=1).status_code == 404:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield base
    finally:
        stop_process(proc)


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[str, str]]:
    assert POSTGRES and REDIS
    with ExitStack() as stack:
        url = stack.enter_context(postgres_schema())
        Database(url).close()  # the schema, made once before both processes open it
        yield (stack.enter_context(server(url, REDIS, tmp_path / "a.log")),
               stack.enter_context(server(url, REDIS, tmp_path / "b.log")))


class Client:
    """A WebSocket client of one server process: keeps every message and its latest view."""

    def __init__(self, base: str, code: str, token: str) -> None:
        self.ws: ClientConnection = connect(base.replace("http", "ws", 1) + f"/ws/rooms/{code}", legacy=True)
        self.ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        self.seen: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.acks = 0

    def recv(self) -> dict[str, Any]:
        m: dict[str, Any] = json.loads(self.ws.recv(timeout=15))
        self.seen.append(m)
        if m["type"] in ("state", "events"):
            self.view = m["view"]
        return m

    def until(self, *types: str) -> dict[str, Any]:
        while True:
            m = self.recv()
            if m["type"] in types:
                return m

    def act(self, action_id: str, action: str) -> None:
        self.ws.send(json.dumps({"type": "act", "id": action_id, "version": self.view["version"],
                                 "action": action}))

    def answer(self, action_id: str) -> dict[str, Any]:
        while True:
            m = self.recv()
            if m["type"] in ("ack", "error") and m.get("id") == action_id:
                return m

    def catch_up(self, version: int) -> None:
        while self.view.get("version", -1) < version:
            self.recv()

    def play(self, name: str) -> None:
        """Roll once and fill the box worth most on each of this seat's turns, to the reveal."""
        n = 0
        while not self.seen or self.seen[-1]["type"] != "reveal":
            if not self.view.get("legal_actions"):
                self.recv()
                continue
            n += 1
            action = "r" if self.view["rolls_left"] == 3 else \
                f"s {max(self.view['score_options'], key=lambda o: o['points'])['id']}"
            ack = self.answer(self.act_id(name, n, action))
            assert ack["type"] == "ack", ack
            self.catch_up(ack["version"])

    def act_id(self, name: str, n: int, action: str) -> str:
        action_id = f"{name}-{n}"
        self.act(action_id, action)
        return action_id

    def events(self) -> list[dict[str, Any]]:
        """Every event this client was sent, without the per-process ``seq``."""
        return [{k: v for k, v in e.items() if k != "seq"}
                for m in self.seen if m["type"] == "events" for e in m["events"]]


@needs_both
def test_a_client_on_each_of_two_processes_plays_one_room(two_servers: tuple[str, str]) -> None:
    a, b = two_servers
    room = httpx.post(f"{a}/api/rooms", json={"seats": [{"name": "Ann"}, {"name": "Bo"}, BOT],
                                              "bot_pace": 0}).json()
    code = room["code"]
    ann_token = httpx.post(f"{a}/api/rooms/{code}/join", json={"seat": 0}).json()["token"]
    bo_token = httpx.post(f"{b}/api/rooms/{code}/join", json={"seat": 1}).json()["token"]
    ann, bo = Client(a, code, ann_token), Client(b, code, bo_token)
    try:
        for c in (ann, bo):
            c.until("state")
        # presence crosses processes: Ann (on a) sees Bo (on b) connected
        while not (ann.seen[-1]["type"] == "presence" and ann.seen[-1]["seats"][1]["connected"]):
            ann.recv()
        errors: list[BaseException] = []

        def play(c: Client, name: str) -> None:
            try:
                c.play(name)
            except BaseException as e:  # reported below
                errors.append(e)

        threads = [threading.Thread(target=play, args=(c, n)) for c, n in ((ann, "ann"), (bo, "bo"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors, errors
        assert not any(t.is_alive() for t in threads)
        assert ann.view["over"] and bo.view["over"]
        final = ann.view["version"]
        assert bo.view["version"] == final == httpx.get(f"{b}/api/rooms/{code}").json()["version"]
        # both saw every event, in order, as events (never a full state in between)
        for c in (ann, bo):
            assert [m.get("reason") for m in c.seen if m["type"] == "state"] == ["welcome"]
            versions = [e["version"] for e in c.events()]
            assert versions == sorted(versions) and set(versions) == set(range(1, final + 1))
        assert ann.events() == bo.events()
        assert {"rolled", "scored", "turn_passed", "game_over"} <= {e["kind"] for e in ann.events()}
        reveals = [next(m for m in c.seen if m["type"] == "reveal") for c in (ann, bo)]
        assert reveals[0] == reveals[1] and len(reveals[0]["game"]["log"]) == final
        assert ann.view["players"][1] == bo.view["players"][1]  # each their own view, of the same game
    finally:
        ann.ws.close()
        bo.ws.close()


@needs_both
def test_simultaneous_actions_on_two_processes_are_applied_once(two_servers: tuple[str, str]) -> None:
    a, b = two_servers
    room = httpx.post(f"{a}/api/rooms", json={"seats": [{"name": "Ann"}, {"name": "Bo"}],
                                              "hot_seat": True}).json()
    code, token = room["code"], room["table_token"]
    one, two = Client(a, code, token), Client(b, code, token)
    try:
        for c in (one, two):
            c.until("state")
        applied = 0
        losers: list[str] = []
        for n in range(16):
            version = applied
            for c in (one, two):
                c.catch_up(version)
                assert c.view["version"] == version
            view = one.view
            action = "r" if view["rolls_left"] > 0 and n % 4 != 3 else \
                f"s {max(view['score_options'], key=lambda o: o['points'])['id']}"
            start = threading.Barrier(2)
            answers: dict[str, dict[str, Any]] = {}

            def race(c: Client, name: str, n: int = n, action: str = action,
                     start: threading.Barrier = start, answers: dict[str, dict[str, Any]] = answers) -> None:
                start.wait()
                action_id = f"{name}-{n}"
                c.act(action_id, action)
                answers[name] = c.answer(action_id)

            threads = [threading.Thread(target=race, args=(c, name))
                       for c, name in ((one, "one"), (two, "two"))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(20)
            kinds = sorted(m["type"] for m in answers.values())
            assert kinds == ["ack", "error"], answers
            error = next(m for m in answers.values() if m["type"] == "error")
            assert error["code"] in ("stale", "conflict"), error
            losers.append(error["code"])
            applied += 1
            ack = next(m for m in answers.values() if m["type"] == "ack")
            assert ack["version"] == applied and not ack["duplicate"]
            loser = one if answers["one"]["type"] == "error" else two
            resync = loser.until("state")  # the loser's full state
            assert resync["reason"] in ("stale", "conflict") and resync["version"] == applied
        info = httpx.get(f"{b}/api/rooms/{code}").json()
        assert info["version"] == applied == 16
        for c in (one, two):
            c.catch_up(applied)
            assert c.view["version"] == applied
        assert one.view["players"] == two.view["players"]
        # a retried action goes to the other process: answered from the database, not applied twice
        first = "one-0" if any(m.get("id") == "one-0" and m["type"] == "ack" for m in one.seen) else "two-0"
        retry = two if first == "one-0" else one
        retry.ws.send(json.dumps({"type": "act", "id": first, "version": 0, "action": "r"}))
        again = retry.answer(first)
        assert again["type"] == "ack" and again["duplicate"] and again["version"] == 1
        assert httpx.get(f"{a}/api/rooms/{code}").json()["version"] == applied
        assert set(losers) <= {"stale", "conflict"}
    finally:
        one.ws.close()
        two.ws.close()
