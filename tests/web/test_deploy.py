"""The deployment of docs/deploy.md, tested: Debian's nginx on 127.0.0.1 in front of two real
``yatzy serve`` processes (``--proxy 127.0.0.1``) on one database (PostgreSQL and Redis when
YATZY_TEST_POSTGRES_URL and YATZY_TEST_REDIS_URL are set, else one SQLite file).

- A room is made, joined and played (a few moves over the WebSocket, upgraded by nginx) through
  the proxy; its invite link names the proxy's address; both processes answer the same version.
- The client's own address reaches the per-address limit through nginx: one address (sending
  a forged ``X-Forwarded-For`` each time, which nginx replaces) is refused one past the limit,
  another address behind the same proxy is let in.
- A forged ``X-Forwarded-For`` sent to a server process directly is ignored: the connections
  count against the sender's own address.
- nginx spreads clients over both processes (its log names each upstream).

The clients take addresses of their own on loopback (127.0.0.2, ...: Linux routes all of
127.0.0.0/8 to lo), so "the client's address" and "the proxy's" differ.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from helpers.wait import DEADLINE, wait_for
from helpers.web import POSTGRES, REDIS, db_url, free_port, postgres_schema, serve_together, stop_process
from yatzy.storage import Database

pytestmark = pytest.mark.slow  # nginx and two server processes: not in the fast tier

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
if not Path(NGINX).exists():
    pytest.skip("Debian's nginx is not installed (apt-get install nginx; .ci/run installs it)",
                allow_module_level=True)

LIMIT = 3
"""The servers' WebSockets per address here (``--connections-per-address``)."""

DOCS = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"

SITE = """\
map $http_upgrade $connection_upgrade {
    default upgrade;
    ''      close;
}

upstream yatzy {
    hash $remote_addr consistent;   # one client address, one process: its limits count once
    server 127.0.0.1:8001;
    server 127.0.0.1:8002;
}

server {
    listen 127.0.0.1:8080;
    location / {
        proxy_pass http://yatzy;
        proxy_http_version 1.1;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $remote_addr;   # replaced, never appended to
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_read_timeout 1h;                           # a game's WebSocket stays open
    }
}
"""
"""The site docs/deploy.md shows (its ports replaced here by the test's)."""


def nginx_conf(folder: Path, port: int, upstreams: tuple[int, int]) -> str:
    """:data:`SITE` with the test's ports, in a configuration nginx runs as any user: its pid,
    logs and temporary files in ``folder``, in the foreground, one worker."""
    site = SITE.replace("127.0.0.1:8080", f"127.0.0.1:{port}")
    site = site.replace("127.0.0.1:8001", f"127.0.0.1:{upstreams[0]}").replace(
        "127.0.0.1:8002", f"127.0.0.1:{upstreams[1]}")
    temp = "\n".join(f"    {kind}_temp_path {folder}/{kind};" for kind in
                     ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"daemon off;\nworker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
            f"events {{ worker_connections 256; }}\n"
            f"http {{\n    log_format upstream '$remote_addr $upstream_addr \"$request\" $status';\n"
            f"    access_log {folder}/access.log upstream;\n{temp}\n"
            f"    proxy_max_temp_file_size 0;\n"
            + "\n".join("    " + line if line else "" for line in site.splitlines()) + "\n}\n")


@contextmanager
def nginx(folder: Path, port: int, upstreams: tuple[int, int]) -> Iterator[subprocess.Popen[bytes]]:
    """nginx on 127.0.0.1:``port`` in front of ``upstreams``, once it answers; stopped afterwards."""
    conf = folder / "nginx.conf"
    conf.write_text(nginx_conf(folder, port, upstreams))
    with (folder / "nginx.out").open("wb") as out:
        proc = subprocess.Popen([NGINX, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(conf)],
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        def up() -> bool:
            assert proc.poll() is None, (folder / "nginx.out").read_text() + \
                (folder / "error.log").read_text()
            try:
                return httpx.get(f"http://127.0.0.1:{port}/api/rooms/ZZZZZZ", timeout=1).status_code == 404
            except httpx.TransportError:
                return False
        wait_for(up, what="nginx did not start")
        yield proc
    finally:
        stop_process(proc)


@dataclass
class Deployment:
    front: str
    """nginx's base URL."""
    direct: tuple[str, str]
    """Each server process's own base URL."""
    folder: Path


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    folder = tmp_path_factory.mktemp("deploy")
    with ExitStack() as stack:
        db = stack.enter_context(postgres_schema()) if POSTGRES else db_url(folder)
        Database(db).close()  # the schema, made once before both processes open it
        ports = free_port(), free_port()
        options = ["--db", db, *(["--pubsub", REDIS] if REDIS else []), "--proxy", "127.0.0.1",
                   "--connections-per-address", str(LIMIT)]
        serve_together(stack, *((port, options, folder / f"{name}.log")
                                for port, name in zip(ports, "ab", strict=True)))
        front = free_port()
        stack.enter_context(nginx(folder, front, ports))
        yield Deployment(f"http://127.0.0.1:{front}", tuple(f"http://127.0.0.1:{p}" for p in ports),  # type: ignore[arg-type]
                         folder)


def http(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (on loopback)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=DEADLINE)


class Socket:
    """A room's WebSocket from a loopback address of its own, with an optional forged header."""

    def __init__(self, base: str, code: str, address: str, forged: str | None = None) -> None:
        headers = {"X-Forwarded-For": forged} if forged else None
        self.ws: ClientConnection = connect(base.replace("http", "ws", 1) + f"/ws/rooms/{code}",
                                            source_address=(address, 0), additional_headers=headers,
                                            proxy=None, open_timeout=DEADLINE, legacy=True)
        self.view: dict[str, Any] = {}

    def hello(self, token: str) -> dict[str, Any]:
        """The first answer to a hello: ``state`` (let in) or an ``error``."""
        with suppress(ConnectionClosed):  # refused: its error came first, the socket is closed
            self.ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        return self.until("state", "error")

    def until(self, *types: str) -> dict[str, Any]:
        while True:
            m: dict[str, Any] = json.loads(self.ws.recv(timeout=DEADLINE))
            if m["type"] in ("state", "events"):
                self.view = m["view"]
            if m["type"] in types:
                return m

    def move(self, action_id: str) -> None:
        """Roll, or fill the box worth most after a roll; read until the view has it."""
        action = "r" if self.view["rolls_left"] == 3 else \
            f"s {max(self.view['score_options'], key=lambda o: o['points'])['id']}"
        self.ws.send(json.dumps({"type": "act", "id": action_id, "version": self.view["version"],
                                 "action": action}))
        ack = self.until("ack", "error")
        assert ack["type"] == "ack", ack
        while self.view["version"] < ack["version"]:
            self.until("events", "state")

    def close(self) -> None:
        with suppress(ConnectionClosed):  # a refused one was closed by the server
            self.ws.close()


@contextmanager
def sockets() -> Iterator[list[Socket]]:
    opened: list[Socket] = []
    try:
        yield opened
    finally:
        for s in opened:
            s.close()


def spectator(client: httpx.Client, base: str, code: str) -> str:
    return str(client.post(f"{base}/api/rooms/{code}/spectate", json={}).json()["token"])


def a_room(client: httpx.Client, base: str) -> str:
    made = client.post(f"{base}/api/rooms", json={"seats": [{"name": "Ann"}, {"name": "Bo"}], "bot_pace": 0})
    assert made.status_code == 201, made.text
    return str(made.json()["code"])


def test_a_room_is_played_through_nginx(deployment: Deployment) -> None:
    front = deployment.front
    with http("127.0.0.2") as client, sockets() as opened:
        made = client.post(f"{front}/api/rooms", json={"seats": [{"name": "Ann"}, {"name": "Bo"}]}).json()
        code = made["code"]
        assert made["invite_url"].startswith(f"{front}/")  # the proxy's address, not a process's
        tokens = [client.post(f"{front}/api/rooms/{code}/join", json={"seat": n}).json()["token"]
                  for n in (0, 1)]
        ann, bo = (Socket(front, code, "127.0.0.2") for _ in range(2))
        opened += [ann, bo]
        assert ann.hello(tokens[0])["type"] == bo.hello(tokens[1])["type"] == "state"
        for n, (mover, other) in enumerate([(ann, bo), (ann, bo), (bo, ann), (bo, ann), (ann, bo)]):
            mover.move(f"m{n}")
            while other.view["version"] < mover.view["version"]:
                other.until("events", "state")
        assert ann.view["players"][0]["total"] > 0 and bo.view["players"][1]["total"] > 0
        versions = {httpx.get(f"{base}/api/rooms/{code}").json()["version"] for base in deployment.direct}
        assert versions == {5}


def test_the_clients_own_address_reaches_the_limit_through_nginx(deployment: Deployment) -> None:
    front = deployment.front
    with http("127.0.0.3") as client, sockets() as opened:
        code = a_room(client, front)
        answers = []
        for n in range(LIMIT + 1):  # a new forged address each time: nginx replaces it
            opened.append(Socket(front, code, "127.0.0.3", forged=f"192.0.2.{n}"))
            answers.append(opened[-1].hello(spectator(client, front, code)))
        assert [a["type"] for a in answers[:LIMIT]] == ["state"] * LIMIT
        assert answers[LIMIT]["code"] == "too_many_connections", answers[LIMIT]
        # another client behind the same proxy is not counted with the first
        opened.append(Socket(front, code, "127.0.0.4"))
        assert opened[-1].hello(spectator(client, front, code))["type"] == "state"


def test_a_forged_forwarded_address_sent_to_a_process_directly_is_ignored(deployment: Deployment) -> None:
    direct = deployment.direct[0]
    with http("127.0.0.5") as client, sockets() as opened:
        code = a_room(client, direct)
        answers = []
        for n in range(LIMIT + 1):
            opened.append(Socket(direct, code, "127.0.0.5", forged=f"198.51.100.{n}"))
            answers.append(opened[-1].hello(spectator(client, direct, code)))
        assert [a["type"] for a in answers[:LIMIT]] == ["state"] * LIMIT
        assert answers[LIMIT]["code"] == "too_many_connections", answers[LIMIT]


def test_nginx_spreads_clients_over_both_processes(deployment: Deployment) -> None:
    port = int(deployment.front.rsplit(":", 1)[1])
    for n in range(10, 30):  # twenty client addresses: all on one process would be 1 in 2**19
        with socket.create_connection(("127.0.0.1", port), DEADLINE, source_address=(f"127.0.0.{n}", 0)) as s:
            s.sendall(b"GET /api/rooms/ZZZZZZ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert s.makefile("rb").readline().split()[1] == b"404"
    log = (deployment.folder / "access.log").read_text()
    served = set(re.findall(r"^127\.0\.0\.(?:1\d|2\d) (127\.0\.0\.1:\d+) ", log, re.MULTILINE))
    assert served == {base.removeprefix("http://") for base in deployment.direct}, log


def test_the_docs_show_the_tested_site() -> None:
    assert SITE in DOCS.read_text(encoding="utf-8")
