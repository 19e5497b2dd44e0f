"""Helpers of the web tests (no tests here): an app on a temporary SQLite file (or a
PostgreSQL schema of its own when YATZY_TEST_POSTGRES_URL names a database), rooms made
over REST, and a WebSocket player that reads with a timeout, so a missing message fails a
test instead of hanging it."""

from __future__ import annotations

import itertools
import json
import os
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import URL, make_url, text
from starlette.testclient import WebSocketTestSession

from helpers.wait import DEADLINE, wait_for

POSTGRES = os.environ.get("YATZY_TEST_POSTGRES_URL")
"""A PostgreSQL database for tests (CI: .ci/run), e.g. postgresql+psycopg://yatzy:yatzy@127.0.0.1:5432/yatzytest."""
REDIS = os.environ.get("YATZY_TEST_REDIS_URL")
"""A Redis server for tests (CI: .ci/run), e.g. redis://127.0.0.1:6379/0."""
DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not POSTGRES, reason="set YATZY_TEST_POSTGRES_URL to run the room tests on PostgreSQL"))]
"""Parameters of a database fixture: SQLite, and PostgreSQL when there is one."""

BOT = {"kind": "bot", "level": "beginner"}
_ids = itertools.count(1)


def make_room(client: TestClient, seats: list[dict[str, Any]] | None = None,
              **settings: Any) -> dict[str, Any]:
    body = {"seats": seats or [{"name": "Ann"}, {"name": "Bo"}], "bot_pace": 0, **settings}
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def join(client: TestClient, code: str, seat: int | None = None) -> str:
    r = client.post(f"/api/rooms/{code}/join", json={} if seat is None else {"seat": seat})
    assert r.status_code == 200, r.text
    return r.json()["token"]  # type: ignore[no-any-return]


def receive(ws: WebSocketTestSession, timeout: float = DEADLINE) -> dict[str, Any]:
    """The next message (fails after ``timeout`` seconds); a close comes back as type "close"."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        return {"type": "close", "code": message.get("code")}
    return json.loads(message["text"])  # type: ignore[no-any-return]


class Player:
    """One WebSocket client: says hello, keeps its latest view, acts, reads until a type."""

    def __init__(self, client: TestClient, code: str, token: str | None, *, lang: str = "en",
                 last_version: int | None = None) -> None:
        self.client, self.code, self.token, self.lang = client, code, token, lang
        self.last_version = last_version
        self.view: dict[str, Any] | None = None
        self.seen: list[dict[str, Any]] = []

    def __enter__(self) -> Player:
        self.ws = self.client.websocket_connect(f"/ws/rooms/{self.code}").__enter__()
        hello: dict[str, Any] = {"type": "hello", "token": self.token, "lang": self.lang}
        if self.last_version is not None:
            hello = {**hello, "type": "resume", "last_version": self.last_version}
        self.send(hello)
        return self

    def __exit__(self, *exc: object) -> None:
        self.ws.__exit__(*exc)

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = DEADLINE) -> dict[str, Any]:
        m = receive(self.ws, timeout)
        self.seen.append(m)
        if m["type"] in ("state", "events"):
            self.view = m["view"]
        return m

    def until(self, *types: str, timeout: float = DEADLINE) -> dict[str, Any]:
        while True:
            m = self.recv(timeout)
            if m["type"] in types:
                return m

    def act(self, action: str, *, version: int | None = None, id: str | None = None, **extra: Any) -> str:
        assert self.view is not None
        action_id = id or f"a{next(_ids)}"
        self.send({"type": "act", "id": action_id, "action": action,
                   "version": self.view["version"] if version is None else version, **extra})
        return action_id

    def answer(self, action_id: str) -> dict[str, Any]:
        """The ack or error answering an action."""
        while True:
            m = self.recv()
            if m["type"] in ("ack", "error") and m.get("id") == action_id:
                return m

    def answered(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send an act, undo or amend at the view's version and read its ack or error (after an
        ack, up to the view of its version)."""
        assert self.view is not None
        message = {"version": self.view["version"], **message}
        self.send(message)
        m = self.answer(message["id"])
        if m["type"] == "ack":
            self.until_version()
        return m

    def my_turn(self) -> bool:
        return bool(self.view and self.view["legal_actions"])

    def wait_turn(self, timeout: float = DEADLINE) -> None:
        while not self.my_turn():
            self.recv(timeout)

    def play_turn(self) -> None:
        """Roll, then fill the box worth most (answered each time)."""
        self.wait_turn()
        assert self.answer(self.act("r"))["type"] == "ack"
        self.until_version()
        assert self.view is not None
        best = max(self.view["score_options"], key=lambda o: o["points"])
        assert self.answer(self.act(f"s {best['id']}"))["type"] == "ack"
        self.until_version()

    def play_out(self, timeout: float = DEADLINE) -> None:
        """Play each of this seat's turns (:meth:`play_turn`) until the game is over, reading
        what the others do in between."""
        while not (self.view and self.view["over"]):
            if self.my_turn():
                self.play_turn()
            else:
                self.recv(timeout)

    def until_version(self) -> None:
        """Read until the view has caught up with the last ack."""
        acks = [m["version"] for m in self.seen if m["type"] == "ack"]
        while self.view is None or (acks and self.view["version"] < acks[-1]):
            self.recv()


def play_out(*players: Player) -> None:
    """Each player plays their turns until the game is over (reading the others' meanwhile)."""
    while not all(p.view and p.view["over"] for p in players):
        for p in players:
            if p.my_turn():
                p.play_turn()
            else:
                with suppress(TimeoutError):
                    p.recv(timeout=0.05)


def refused(client: TestClient, path: str, body: dict[str, Any], status: int, code: str) -> str:
    """POST ``body`` to ``path``, which must be refused with ``status`` and error ``code``; the
    refusal's words."""
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert detail["code"] == code, detail
    return str(detail["message"])


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread of this process on 127.0.0.1 (a free port): its
    base URL once it has started; stopped afterwards."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, what="the server did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


def with_options(url: str | URL, options: str) -> URL:
    """A PostgreSQL URL whose connections start with these server options too."""
    u = make_url(url)
    old = u.query.get("options")
    return u.update_query_dict({"options": f"{old} {options}" if isinstance(old, str) else options})


@contextmanager
def postgres_schema() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL schema in YATZY_TEST_POSTGRES_URL's database (its
    connections use it as search path), dropped afterwards."""
    from yatzy.storage import make_engine

    assert POSTGRES
    schema = f"yatzy_test_{uuid.uuid4().hex[:12]}"
    admin = make_engine(POSTGRES)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield with_options(POSTGRES, f"-csearch_path={schema}").render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def database_url(kind: str, tmp_path: Path) -> Iterator[str]:
    """An empty database of a kind of :data:`DATABASES`: a SQLite file or a PostgreSQL schema."""
    if kind == "sqlite":
        yield db_url(tmp_path)
    else:
        with postgres_schema() as url:
            yield url


def free_port() -> int:
    """A TCP port on 127.0.0.1 that no one listens on (for a server started by a test)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop_process(proc: subprocess.Popen[Any], *, kill: bool = False, timeout: float = 10.0) -> None:
    """Stop a server process a test started and wait for it: SIGTERM (SIGKILL with ``kill``),
    then SIGKILL if it has not ended within ``timeout`` seconds. One that has ended is only
    waited for."""
    if proc.poll() is None:
        if kill:
            proc.kill()
        else:
            proc.terminate()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout)


@contextmanager
def yatzy_serve(port: int, *options: str, log: Path, kill: bool = False) -> Iterator[subprocess.Popen[bytes]]:
    """``yatzy serve`` in a real process on 127.0.0.1:``port`` with ``options`` (``--db``,
    ``--pubsub``), once it answers; its stderr goes to ``log``. Stopped afterwards (SIGKILL
    with ``kill``: see :func:`stop_process`)."""
    yatzy = Path(sys.executable).with_name("yatzy")
    with log.open("wb") as out:
        proc = subprocess.Popen([str(yatzy), "serve", "--host", "127.0.0.1", "--port", str(port), *options],
                                stdout=subprocess.DEVNULL, stderr=out, env={**os.environ})
    try:
        wait_for(lambda: answers(f"http://127.0.0.1:{port}", proc, log), what="the server did not start")
        yield proc
    finally:
        stop_process(proc, kill=kill)


def serve_together(stack: ExitStack, *runs: tuple[int, Sequence[str], Path]) -> list[subprocess.Popen[bytes]]:
    """Several :func:`yatzy_serve` processes (port, options, log) started at once, since each
    takes seconds to import and open its database, and stopped when ``stack`` closes."""
    with ThreadPoolExecutor(len(runs)) as starting:
        started = [starting.submit(lambda run: stack.enter_context(yatzy_serve(run[0], *run[1], log=run[2])),
                                   run) for run in runs]
        return [f.result() for f in started]


def answers(base: str, proc: subprocess.Popen[bytes], log: Path) -> bool:
    """Whether a server started by a test answers (it must still run: else its log)."""
    try:
        return httpx.get(f"{base}/api/rooms/ZZZZZZ", timeout=1).status_code == 404
    except httpx.TransportError:
        assert proc.poll() is None, log.read_text()
        return False
