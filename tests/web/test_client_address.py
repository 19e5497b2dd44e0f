"""The client's address every per-address limit counts (:func:`yatzy.web.security.client_address`):
the connection's own, or the one a configured reverse proxy forwarded; never a forwarded
address from anyone else. The per-address connection limit at its boundary, refused in the
page's language. (The same through real processes and nginx: test_deploy.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.requests import HTTPConnection
from typer.testing import CliRunner

from helpers.web import db_url, make_room, receive
from yatzy.cli import app as cli
from yatzy.errors import InvalidActionError
from yatzy.web.app import CONNECTIONS_PER_ADDRESS, create_app
from yatzy.web.security import client_address, proxies

LIMIT = 2


class Sockets:
    """WebSockets opened as a spectator of one room, each from a forwarded address or none."""

    def __init__(self, client: TestClient, code: str) -> None:
        self.client, self.code = client, code
        self.stack = ExitStack()

    def open(self, forwarded: str | None = None, lang: str = "en") -> dict[str, Any]:
        """The first answer to a spectator's hello: ``state`` (admitted) or an ``error``."""
        token = self.client.post(f"/api/rooms/{self.code}/spectate", json={}).json()["token"]
        headers = {"x-forwarded-for": forwarded} if forwarded else {}
        ws = self.stack.enter_context(self.client.websocket_connect(
            f"/ws/rooms/{self.code}?lang={lang}", headers=headers))
        ws.send_json({"type": "hello", "token": token})
        while True:
            m = receive(ws)
            if m["type"] in ("state", "error"):
                return m


@contextmanager
def served(tmp_path: Path, address: str, **options: Any) -> Iterator[Sockets]:
    """WebSockets to a room of an app (limit :data:`LIMIT`) whose every connection comes from
    ``address``; closed afterwards."""
    app = create_app(db_url(tmp_path), max_connections_per_client=LIMIT, **options)
    with TestClient(app, client=(address, 40000)) as client:
        sockets = Sockets(client, make_room(client)["code"])
        with sockets.stack:
            yield sockets


def test_a_forwarded_address_counts_for_nothing_without_a_proxy(tmp_path: Path) -> None:
    with served(tmp_path, "127.0.0.1") as s:
        assert [s.open(f"192.0.2.{n}")["type"] for n in range(LIMIT)] == ["state"] * LIMIT
        assert s.open("192.0.2.99")["code"] == "too_many_connections"  # all count as 127.0.0.1


def test_a_configured_proxy_names_the_client(tmp_path: Path) -> None:
    with served(tmp_path, "10.1.2.3", proxies=["10.0.0.0/8"]) as s:
        assert [s.open("192.0.2.7")["type"] for _ in range(LIMIT)] == ["state"] * LIMIT
        assert s.open("192.0.2.7")["code"] == "too_many_connections"
        assert s.open("192.0.2.8")["type"] == "state"  # another client behind the same proxy
        assert s.open("198.51.100.1, 192.0.2.9")["type"] == "state"  # the proxy's own entry counts
        assert s.open()["type"] == "state"  # the proxy itself, without a header: its own address


def test_a_forwarded_address_from_anyone_but_the_proxy_is_ignored(tmp_path: Path) -> None:
    with served(tmp_path, "10.0.0.2", proxies=["10.0.0.1"]) as s:
        assert [s.open(f"192.0.2.{n}")["type"] for n in range(LIMIT)] == ["state"] * LIMIT
        assert s.open("192.0.2.99")["code"] == "too_many_connections"


def test_the_limit_admits_its_number_and_refuses_one_more_in_the_pages_language(tmp_path: Path) -> None:
    with served(tmp_path, "192.0.2.1") as s:
        assert [s.open()["type"] for _ in range(LIMIT)] == ["state"] * LIMIT
        refused = s.open(lang="fi")
        assert refused["code"] == "too_many_connections"
        assert refused["message"] == f"liian monta yhteyttä osoitteestasi (enintään {LIMIT})"
        assert s.open(lang="xx")["message"] == f"too many connections from your address ({LIMIT} at most)"


def test_a_proxy_saying_https_makes_the_invite_links_https(tmp_path: Path) -> None:
    app = create_app(db_url(tmp_path), proxies=["127.0.0.1"])
    with TestClient(app, client=("127.0.0.1", 40000)) as client:
        made = client.post("/api/rooms", json={"seats": [{"name": "Ann"}]},
                           headers={"x-forwarded-proto": "https", "x-forwarded-for": "192.0.2.1"}).json()
        assert made["invite_url"].startswith("https://testserver/")
    app = create_app(db_url(tmp_path))
    with TestClient(app, client=("127.0.0.1", 40000)) as client:
        made = client.post("/api/rooms", json={"seats": [{"name": "Ann"}]},
                           headers={"x-forwarded-proto": "https"}).json()
        assert made["invite_url"].startswith("http://testserver/")


@pytest.mark.parametrize(("host", "counted"), [
    ("192.0.2.1", "192.0.2.1"),
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),  # an IPv6 client by its /64
    ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),
    ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
    ("::ffff:192.0.2.1", "192.0.2.1"),  # IPv4 on a dual-stack socket
    ("testclient", "testclient"),
])
def test_the_address_counted(host: str, counted: str) -> None:
    scope = {"type": "http", "client": (host, 1), "headers": [], "path": "/", "query_string": b""}
    assert client_address(HTTPConnection(scope)) == counted


def test_a_proxy_must_be_an_address_or_a_network() -> None:
    assert proxies(["127.0.0.1", " 10.0.0.0/8", "::1", "192.168.1.7/24"]) == [
        "127.0.0.1", "10.0.0.0/8", "::1", "192.168.1.0/24"]
    for bad in ("nginx", "10.0.0.0/33", "", "*"):
        with pytest.raises(InvalidActionError, match="not an IP address or network"):
            proxies([bad])


def test_serve_refuses_a_proxy_that_is_not_an_address() -> None:
    result = CliRunner().invoke(cli, ["serve", "--proxy", "localhost", "--lang", "sv"])
    assert result.exit_code == 2
    assert "localhost är varken en IP-adress eller ett nät" in result.output


def test_serve_names_its_default_connection_limit() -> None:
    help_text = " ".join(CliRunner().invoke(cli, ["serve", "--help"]).output.split())
    assert f"default {CONNECTIONS_PER_ADDRESS}:" in help_text
    assert CONNECTIONS_PER_ADDRESS >= 30 * (4 + 2)  # a class of 30 rooms of 4, a spectator or two each


def test_uvicorn_reads_no_forwarded_header_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn trusts X-Forwarded-For from 127.0.0.1 unless told not to: any local client could
    name itself any address (a real process shows it: test_deploy.py). The app reads them."""
    import uvicorn

    from yatzy.web.app import run_server

    told: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: told.update(options))
    monkeypatch.setattr("gc.freeze", lambda: None)
    monkeypatch.setattr("sys.setswitchinterval", lambda interval: None)
    monkeypatch.setattr("gc.set_threshold", lambda *thresholds: None)
    run_server(object())  # type: ignore[arg-type]
    assert told["proxy_headers"] is False
