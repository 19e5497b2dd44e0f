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
- A scorekeeper room typed from both processes (Ann on one, Bo on the other): typed rolls and
  scores, an undo, a correction; after each step both clients, both processes' REST and the
  database hold the same game; a stale action meets ``stale`` or ``conflict`` and a full state,
  a retried undo is not applied twice, a new connection gets the game as a full state.
- A process killed (SIGKILL): within PRESENCE_LOST + PRESENCE_EVERY the other process counts
  its connections no more and tells its clients.
- Redis stopped and started again (a Redis of the test's own): an action committed meanwhile
  reaches the other process's client as a full state once Redis is back.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from helpers.wait import DEADLINE, wait_for
from helpers.web import (
    BOT,
    DATABASES,
    POSTGRES,
    REDIS,
    database_url,
    free_port,
    postgres_schema,
    serve_together,
    stop_process,
    yatzy_serve,
)
from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.scorekeeping import rounds as rounds_of
from yatzy.seats import Seat
from yatzy.storage import Database
from yatzy.storage.rooms import RoomStore
from yatzy.web.presence import PRESENCE_EVERY, PRESENCE_LOST
from yatzy.web.protocol import Act
from yatzy.web.pubsub import InProcessPubSub, PubSub
from yatzy.web.room import Grant, Refusal, RoomSettings
from yatzy.web.rooms import Rooms

pytestmark = pytest.mark.slow  # two server processes: not in the fast tier

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
    stored = RoomStore(db).load(made.code)  # the game's save and the actions appended to it
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


@pytest.mark.parametrize("kind", DATABASES)
def test_two_processes_holding_a_bot_room_do_not_race_for_every_bot_move(kind: str, tmp_path: Path) -> None:
    """Both hold a room of bots (one made it, the other loaded it) and hear nothing of each
    other (no pub/sub between them): the loser of a race stands back instead of racing again
    for every move (each lost race is a bot move made for nothing and the game read back);
    once the first stops, the second takes over within its watch time and the game ends."""
    with database_url(kind, tmp_path) as url, Database(url) as db:
        asyncio.run(_bots_on_two(db))


async def _bots_on_two(db: Database) -> None:
    one, two = Rooms(db, InProcessPubSub()), Rooms(db, InProcessPubSub())
    one.bots.watch = two.bots.watch = 0.5
    lost = {"one": 0, "two": 0}
    for name, rooms in (("one", one), ("two", two)):
        real = rooms._commit

        async def counted(*args: Any, name: str = name, real: Any = real, **kwargs: Any) -> Any:
            try:
                return await real(*args, **kwargs)
            except Refusal as e:
                lost[name] += e.code == "conflict"
                raise

        rooms._commit = counted  # type: ignore[method-assign]
    seats = [Seat.bot("greedy", "A"), Seat.bot("greedy", "B")]
    made, _table = await one.create(Game(get_ruleset("kids"), seats), RoomSettings(bot_pace=0.02))
    theirs = await two.get(made.code)
    assert theirs is not None
    deadline = time.monotonic() + DEADLINE
    while made.version < 24:  # two thirds of the game
        assert time.monotonic() < deadline
        await asyncio.sleep(0.01)
    async with made.lock:  # not between a bot's move in memory and its commit
        assert made.version == RoomStore(db).load(made.code).version  # type: ignore[union-attr]
    assert sum(lost.values()) <= 3, lost  # a race at the start, a look every 0.5 s (not one per move)
    one.closed = True  # the first process goes away (it may have been the one playing)
    if made.bot_task is not None:
        made.bot_task.cancel()
    while not theirs.over:
        assert time.monotonic() < deadline, "the other process did not take over"
        await asyncio.sleep(0.01)
    async with theirs.lock:  # the last move is over in memory before its commit is done
        pass
    await two.saved()  # and the finished game's save is under way
    stored = RoomStore(db).load(made.code)
    assert stored is not None and stored.game.is_over and stored.game.to_dict() == theirs.game.to_dict()
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
    with server_process(db, pubsub, log) as (base, _proc):
        yield base


@contextmanager
def server_process(db: str, pubsub: str, log: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """:func:`server`, with the process itself (for a test that kills it)."""
    port = free_port()
    with yatzy_serve(port, "--db", db, "--pubsub", pubsub, log=log) as proc:
        yield f"http://127.0.0.1:{port}", proc


@dataclass
class Servers:
    """Two ``yatzy serve`` processes on one PostgreSQL schema (``db``) and one Redis."""

    db: str
    a: str
    b: str
    proc_a: subprocess.Popen[bytes]
    proc_b: subprocess.Popen[bytes]


@contextmanager
def start_servers(logs: Path) -> Iterator[Servers]:
    """Two ``yatzy serve`` processes on a new PostgreSQL schema and Redis, logging into ``logs``."""
    assert POSTGRES and REDIS
    with ExitStack() as stack:
        url = stack.enter_context(postgres_schema())
        Database(url).close()  # the schema, made once before both processes open it
        ports = free_port(), free_port()
        options = ("--db", url, "--pubsub", REDIS)
        proc_a, proc_b = serve_together(stack, *((port, options, logs / f"{name}.log")
                                                 for port, name in zip(ports, "ab", strict=True)))
        a, b = (f"http://127.0.0.1:{port}" for port in ports)
        yield Servers(url, a, b, proc_a, proc_b)


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    """One pair of processes for the module's tests that leave both running (each plays its own
    rooms): starting a pair costs seconds."""
    with start_servers(tmp_path_factory.mktemp("servers")) as s:
        yield s


@pytest.fixture
def own_servers(tmp_path: Path) -> Iterator[Servers]:
    """A pair of processes of the test's own, for a test that kills one."""
    with start_servers(tmp_path) as s:
        yield s


@pytest.fixture
def two_servers(servers: Servers) -> tuple[str, str]:
    return servers.a, servers.b


class Client:
    """A WebSocket client of one server process: keeps every message and its latest view."""

    def __init__(self, base: str, code: str, token: str) -> None:
        self.ws: ClientConnection = connect(base.replace("http", "ws", 1) + f"/ws/rooms/{code}", legacy=True)
        self.ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        self.seen: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.acks = 0

    def recv(self, timeout: float = DEADLINE) -> dict[str, Any]:
        m: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
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


# ---- a scorekeeper room typed on two processes ---------------------------------------------------

PRIVATE = ("viewer", "legal_actions", "score_options", "seq")
"""What differs between two viewers' views of one game (``seq`` counts one process's events)."""


def table(view: dict[str, Any]) -> dict[str, Any]:
    """What every viewer of a game sees alike in their view."""
    return {k: v for k, v in view.items() if k not in PRIVATE}


def typed(c: Client, action_id: str, message: dict[str, Any] | str) -> dict[str, Any]:
    """Send an act (an action in the notation), an undo or an amend at the view's version; its
    ack (once the view has caught up with it) or error."""
    body = {"type": "act", "action": message} if isinstance(message, str) else message
    c.ws.send(json.dumps({**body, "id": action_id, "version": c.view["version"]}))
    m = c.answer(action_id)
    if m["type"] == "ack":
        c.catch_up(m["version"])
    return m


def agree(servers: Servers, code: str, ann: Client, bo: Client, version: int) -> list[dict[str, Any]]:
    """Read until both clients are at ``version``: they see one game (each their own moves), and
    so does each process's REST (the room's version, its finished rounds); returns the rounds."""
    for c in (ann, bo):
        c.catch_up(version)
        assert c.view["version"] == version, c.view
    assert table(ann.view) == table(bo.view)
    current = ann.view["current"]
    assert [bool(c.view["legal_actions"]) for c in (ann, bo)] == [current == 0, current == 1]
    found = []
    for base in (servers.a, servers.b):
        info = httpx.get(f"{base}/api/rooms/{code}").json()
        assert (info["version"], info["dice_from"]) == (version, "players")
        found.append(httpx.get(f"{base}/api/rooms/{code}/rounds").json())
    assert found[0] == found[1]
    return found[0]  # type: ignore[no-any-return]


@needs_both
def test_a_scorekeeper_room_typed_on_two_processes(servers: Servers) -> None:
    a, b = servers.a, servers.b
    room = httpx.post(f"{a}/api/rooms", json={"seats": [{"name": "Ann"}, {"name": "Bo"}],
                                              "dice_from": "players"}).json()
    code = room["code"]
    assert room["commitment"] == ""
    ann_token = httpx.post(f"{a}/api/rooms/{code}/join", json={"seat": 0}).json()["token"]
    bo_token = httpx.post(f"{b}/api/rooms/{code}/join", json={"seat": 1}).json()["token"]
    ann, bo = Client(a, code, ann_token), Client(b, code, bo_token)
    others: list[Client] = []

    def step(c: Client, action_id: str, message: dict[str, Any] | str) -> int:
        ack = typed(c, action_id, message)
        assert ack["type"] == "ack" and not ack["duplicate"], ack
        agree(servers, code, ann, bo, ack["version"])
        return int(ack["version"])

    def again(base: str, token: str) -> Client:
        """A new connection (on the other process): its full state is the game as it stands."""
        c = Client(base, code, token)
        others.append(c)
        assert c.until("welcome")["dice_from"] == "players"
        state = c.until("state")
        assert state["reason"] == "welcome"
        return c

    try:
        for c in (ann, bo):
            assert c.until("welcome")["dice_from"] == "players"
            c.until("state")
        agree(servers, code, ann, bo, 0)
        # Ann's first turn on A: a roll typed wrong and taken back, then the right one
        step(ann, "ann-1", "r = 13356")
        step(ann, "ann-2", "r = 11256")
        assert bo.view["dice"] == [1, 1, 2, 5, 6]
        assert step(ann, "ann-undo-roll", {"type": "undo"}) == 3
        assert bo.view["dice"] == [1, 3, 3, 5, 6] and bo.view["rolls_left"] == 2
        step(ann, "ann-3", "r = 33356")
        step(ann, "ann-4", "s threes")
        # Bo's on B, Ann's second on A
        step(bo, "bo-1", "r = 22245")
        step(bo, "bo-2", "s twos")
        step(ann, "ann-5", "r = 44456")
        seen = step(ann, "ann-6", "s fours")
        assert bo.view["current"] == 1 and bo.view["legal_actions"]
        # Ann takes her score back on A; at once Bo, who has not read that yet, types his roll on B
        # at the version he saw: refused (B had the undo: stale; B had not: conflict), a full state
        # follows, and the roll is not applied
        undo = typed(ann, "ann-undo-fours", {"type": "undo"})
        assert undo["type"] == "ack" and undo["version"] == seen + 1
        bo.ws.send(json.dumps({"type": "act", "id": "bo-stale", "version": seen, "action": "r = 55512"}))
        refused = bo.answer("bo-stale")
        assert refused["type"] == "error" and refused["code"] in ("stale", "conflict"), refused
        resync = bo.until("state")
        assert (resync["reason"], resync["version"]) == (refused["code"], seen + 1)
        assert resync["view"]["current"] == 0 and resync["view"]["dice"] == [4, 4, 4, 5, 6]
        assert not resync["view"]["legal_actions"]
        agree(servers, code, ann, bo, seen + 1)
        # Ann's undo retried through B: answered from what B loaded, not applied again
        ann_on_b = again(b, ann_token)
        assert table(ann_on_b.view) == table(ann.view) and ann_on_b.view["legal_actions"] == \
            ann.view["legal_actions"]
        retried = typed(ann_on_b, "ann-undo-fours", {"type": "undo"})
        assert retried["type"] == "ack" and retried["duplicate"] and retried["version"] == seen + 1
        agree(servers, code, ann, bo, seen + 1)
        with Database(servers.db) as db:
            stored = RoomStore(db).load(code)
        assert stored is not None and stored.version == seen + 1 and len(stored.game.log) == 6
        assert "bo-stale" not in stored.accepted and stored.accepted["ann-undo-fours"] == (0, seen + 1)
        # the game goes on: Ann scores again, Bo's second turn on B
        step(ann, "ann-7", "s fours")
        step(bo, "bo-3", "r = 55512")
        step(bo, "bo-4", "r = 55535")
        version = step(bo, "bo-5", "s fives")
        rounds = agree(servers, code, ann, bo, version)
        assert [(r["turn"], r["seat"], r["dice"], r["box"]) for r in rounds] == [
            (0, 0, [3, 3, 3, 5, 6], "threes"), (1, 1, [2, 2, 2, 4, 5], "twos"),
            (2, 0, [4, 4, 4, 5, 6], "fours"), (3, 1, [3, 5, 5, 5, 5], "fives")]
        assert [p["total"] for p in ann.view["players"]] == [21, 26]
        # Bo corrects his first round on B (four twos, not three) while Ann is to type on A
        version = step(bo, "bo-fix", {"type": "amend", "turn": 1, "dice": [2, 2, 2, 2, 5], "box": "twos"})
        rounds = agree(servers, code, ann, bo, version)
        fixed = {k: v for k, v in rounds[1].items() if k != "boxes"}  # and the boxes a fix may fill
        assert fixed == {"turn": 1, "seat": 1, "number": 1, "dice": [2, 2, 2, 2, 5], "box": "twos"}
        assert "twos" in rounds[1]["boxes"] and "fives" not in rounds[1]["boxes"]  # Bo's fives are filled
        assert [p["total"] for p in ann.view["players"]] == [21, 28]
        for c in (ann, bo):
            amended = [e for e in c.events() if e["kind"] == "amended"]
            assert len(amended) == 1 and amended[0]["totals"] == [21, 28], amended
        step(ann, "ann-8", "r = 66612")
        final = step(ann, "ann-9", "s sixes")
        assert final == 17 and [p["total"] for p in bo.view["players"]] == [39, 28]
        # the stored game is the one both clients see; a new connection on the other process
        # gets it as a full state
        with Database(servers.db) as db:
            stored = RoomStore(db).load(code)
        assert stored is not None and stored.version == final and stored.game.totals() == [39, 28]
        assert len(stored.game.amendments) == 1 and stored.game.amendments[0].turn == 1
        assert [(r.turn, r.player, list(r.dice), r.box) for r in rounds_of(stored.game)] == [
            (r["turn"], r["seat"], r["dice"], r["box"]) for r in agree(servers, code, ann, bo, final)]
        for c, base, token in ((ann, b, ann_token), (bo, a, bo_token)):
            fresh = again(base, token)
            assert fresh.view["version"] == final and table(fresh.view) == table(c.view)
            assert fresh.view["legal_actions"] == c.view["legal_actions"]
        assert not [m for c in (ann, bo, *others) for m in c.seen if m["type"] == "reveal"]
    finally:
        for c in (ann, bo, *others):
            c.ws.close()


# ---- presence when a process is killed ------------------------------------------------------------

@needs_both
def test_the_players_of_a_killed_process_are_away_on_the_other(own_servers: Servers) -> None:
    servers = own_servers
    a, b = servers.a, servers.b
    room = httpx.post(f"{a}/api/rooms", json={"seats": [{"name": "Ann"}, {"name": "Bo"}]}).json()
    code = room["code"]
    ann_token = httpx.post(f"{a}/api/rooms/{code}/join", json={"seat": 0}).json()["token"]
    bo_token = httpx.post(f"{b}/api/rooms/{code}/join", json={"seat": 1}).json()["token"]
    ann, bo = Client(a, code, ann_token), Client(b, code, bo_token)
    clients = [ann, bo]

    def presence(spectators: int) -> None:
        """Read until Bo's presence shows Ann connected (on A) and ``spectators``."""
        while True:
            m = bo.until("presence")
            if m["seats"][0]["connected"] and m["spectators"] == spectators:
                return

    try:
        for c in clients:
            c.until("state")
        # Bo, on B, sees Ann (on A) connected
        presence(0)
        time.sleep(3)  # the room has been open a while (B loaded it when Bo joined)
        # a spectator comes on A: Bo sees it at once; that is the last B hears of A
        watcher = Client(a, code, httpx.post(f"{a}/api/rooms/{code}/spectate", json={}).json()["token"])
        clients.append(watcher)
        watcher.until("state")
        presence(1)
        heard = time.monotonic()
        servers.proc_a.kill()  # SIGKILL: A says nothing more, not even goodbye
        servers.proc_a.wait(10)
        killed = time.monotonic()
        # A's repeats stop: after PRESENCE_LOST seconds of silence (B looks every PRESENCE_EVERY
        # seconds) B counts A's connections no more and tells Bo
        deadline = killed + PRESENCE_LOST + PRESENCE_EVERY + 5
        while True:
            m = bo.recv(timeout=max(0.1, deadline - time.monotonic()))
            if m["type"] == "presence" and not m["seats"][0]["connected"]:
                break
            assert m["type"] != "presence" or m["seats"][0]["connected"], m
        gone = time.monotonic()
        assert PRESENCE_LOST - 1 < gone - heard and gone - killed < PRESENCE_LOST + PRESENCE_EVERY + 5
        ann_seat, bo_seat = m["seats"]
        assert m["spectators"] == 0 and bo_seat["connected"] and bo_seat["away_for"] is None
        assert ann_seat["away_for"] >= PRESENCE_LOST
        # B goes on serving the room
        assert httpx.get(f"{b}/api/rooms/{code}").json()["version"] == 0
        # Ann is away from when B last heard of A (Room.heard), not from before she connected
        assert ann_seat["away_for"] <= gone - heard + 1
        assert not ann_seat["may_hand_to_bot"]  # not before away_after (60 s)
    finally:
        for c in clients:
            with suppress(Exception):
                c.ws.close()


# ---- Redis goes away and comes back -------------------------------------------------------------

@contextmanager
def redis_server(port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A Redis of this test's own on 127.0.0.1:``port`` (nothing kept on disk), once it answers."""
    with log.open("ab") as out:
        proc = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                                 "--appendonly", "no"], stdout=out, stderr=out)
    try:
        def up() -> bool:
            with suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
            return False

        wait_for(up, what="redis-server did not start")
        yield proc
    finally:
        stop_process(proc)


@needs_both
@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server (.ci/run installs it)")
def test_a_process_catches_up_on_what_was_published_while_redis_was_down(tmp_path: Path) -> None:
    """An action on A while Redis is down is committed but reaches B through no message;
    once Redis is back, B reads the room from the database and its client gets a full state."""
    port = free_port()
    pubsub = f"redis://127.0.0.1:{port}/0"
    with ExitStack() as stack:
        redis = stack.enter_context(redis_server(port, tmp_path / "redis.log"))
        url = stack.enter_context(postgres_schema())
        Database(url).close()
        a = stack.enter_context(server(url, pubsub, tmp_path / "a.log"))
        b = stack.enter_context(server(url, pubsub, tmp_path / "b.log"))
        room = httpx.post(f"{a}/api/rooms", json={"seats": [{"name": "Ann"}, {"name": "Bo"}],
                                                  "hot_seat": True}).json()
        one, two = Client(a, room["code"], room["table_token"]), Client(b, room["code"], room["table_token"])
        stack.callback(one.ws.close)
        stack.callback(two.ws.close)
        for c in (one, two):
            c.until("state")
        assert one.answer(one.act_id("one", 1, "r"))["type"] == "ack"  # with Redis: B hears of it
        for c in (one, two):
            c.catch_up(1)
        stop_process(redis)
        scored = max(one.view["score_options"], key=lambda o: o["points"])["id"]
        ack = one.answer(one.act_id("one", 2, f"s {scored}"))  # committed, not heard
        assert ack["type"] == "ack"
        one.catch_up(ack["version"])
        assert httpx.get(f"{b}/api/rooms/{room['code']}").json()["version"] == 1  # B does not know yet
        stack.enter_context(redis_server(port, tmp_path / "redis.log"))
        while two.view["version"] < one.view["version"]:
            m = two.recv(timeout=DEADLINE)
        assert m["type"] == "state"  # the events are lost: a full state
        assert two.view["players"] == one.view["players"]
        # and the room goes on through Redis on both processes
        assert two.answer(two.act_id("two", 1, "r"))["type"] == "ack"
        one.catch_up(two.view["version"])
        assert one.view["dice"] == two.view["dice"]
