"""The web's ordinary defences (docs/security.md): numbers JSON cannot hold are a 422, every
answer carries the security headers, changes are JSON only, the Host must be the server's and
a WebSocket from another site's page is refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from helpers.web import db_url, join, make_room, receive
from yatzy.web.app import create_app

HUGE = "1" + "0" * 400
"""An integer far beyond any seat, option or pace (Python reads it; SQLite could not store it)."""
NOT_NUMBERS = ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", HUGE, "-" + HUGE]
"""What a client can write where a number belongs and JSON (as Python reads it) takes."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_url(tmp_path))) as c:
        yield c


def post_raw(client: TestClient, path: str, body: str) -> Any:
    return client.post(path, content=body, headers={"Content-Type": "application/json"})


# ---- numbers: 422, never 500 ----------------------------------------------------------------

@pytest.mark.parametrize("number", NOT_NUMBERS)
def test_a_number_json_cannot_hold_is_refused_in_every_numeric_field(client: TestClient, number: str) -> None:
    code = make_room(client)["code"]
    seats = '[{"name": "Ann"}, {"name": "Bo"}]'
    bodies = {
        "/api/rooms": [f'{{"seats": {seats}, "bot_pace": {number}}}',
                       f'{{"seats": {seats}, "away_after": {number}}}',
                       f'{{"seats": {seats}, "options": {{"bonus_threshold": {number}}}}}'],
        f"/api/rooms/{code}/join": [f'{{"seat": {number}}}'],
    }
    for path, cases in bodies.items():
        for body in cases:
            r = post_raw(client, path, body)
            assert r.status_code in (400, 422), (path, body, r.status_code, r.text[:200])
            assert r.json()["detail"], body
    assert client.get(f"/api/rooms/{code}").json()["seats"][0]["taken"] is False


@pytest.mark.parametrize("path", ["/api/rooms/{code}/seats/{n}/free", "/api/rooms/{code}/seats/{n}/bot"])
def test_a_huge_seat_in_the_path_is_refused(client: TestClient, path: str) -> None:
    room = make_room(client)
    r = client.post(path.format(code=room["code"], n=HUGE), json={"token": room["host_token"]})
    assert r.status_code in (400, 422), r.text[:200]


def test_a_huge_query_number_is_refused(client: TestClient) -> None:
    for query in (f"limit={HUGE}", f"offset={HUGE}", "limit=1e400", "offset=NaN"):
        assert client.get(f"/api/games?{query}").status_code == 422, query


# ---- security headers ------------------------------------------------------------------------

def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    code = make_room(client)["code"]
    for r in (client.get("/"), client.get(f"/r/{code}"), client.get("/static/main.js"),
              client.get(f"/api/rooms/{code}"), client.get("/api/rooms/NOSUCH"),
              client.get(f"/api/rooms/{code}/qr.svg")):
        csp = r.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp, r.url
        assert "frame-ancestors 'none'" in csp and "'unsafe-inline'" not in csp
        assert "connect-src 'self' ws://testserver wss://testserver" in csp
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"


# ---- JSON-only changes -----------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                                  "text/plain", None])
def test_a_form_post_from_another_site_takes_no_seat(client: TestClient, kind: str | None) -> None:
    room = make_room(client)
    code = room["code"]
    headers = {"Content-Type": kind} if kind else {}
    for path, body in ((f"/api/rooms/{code}/join", "seat=0"), (f"/api/rooms/{code}/spectate", ""),
                       ("/api/rooms", "seats=x"), (f"/api/rooms/{code}/seats/0/bot", "token=x")):
        r = client.post(path, content=body, headers=headers)
        assert r.status_code == 415, (path, r.text)
        assert r.json()["detail"]["code"] == "not_json"
        assert "application/json" in r.json()["detail"]["message"]
    assert not any(s["taken"] for s in client.get(f"/api/rooms/{code}").json()["seats"])
    r = client.post(f"/api/rooms/{code}/join?lang=fi", content="seat=0", headers=headers)
    assert "JSON" in r.json()["detail"]["message"] and "send the request" not in r.json()["detail"]["message"]


def test_a_join_without_a_body_is_refused_and_with_json_it_is_taken(client: TestClient) -> None:
    code = make_room(client)["code"]
    r = client.post(f"/api/rooms/{code}/join", headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    assert not any(s["taken"] for s in client.get(f"/api/rooms/{code}").json()["seats"])
    assert join(client, code)
    assert client.post(f"/api/rooms/{code}/join", json={"seat": 1},
                       headers={"Content-Type": "application/json; charset=utf-8"}).status_code == 200
    assert client.post(f"/api/rooms/{code}/spectate", json={}).status_code == 200


# ---- allowed hosts ---------------------------------------------------------------------------

@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(db_url(tmp_path), allowed_hosts=["yatzy.example", "127.0.0.1"])
    with TestClient(app, base_url="http://yatzy.example:8000") as c:
        yield c


def test_a_request_for_another_host_is_refused(guarded: TestClient) -> None:
    assert guarded.get("/").status_code == 200
    assert guarded.get("/", headers={"Host": "127.0.0.1:8000"}).status_code == 200
    for forged in ("evil.example", "evil.example:8000", "yatzy.example.evil.example", ""):
        r = guarded.post("/api/rooms", json={"seats": [{"name": "Ann"}]}, headers={"Host": forged})
        assert r.status_code == 400, forged
        assert r.json()["detail"]["code"] == "bad_host"
        assert "host" in r.json()["detail"]["message"]
        assert guarded.get("/", headers={"Host": forged}).status_code == 400
    assert guarded.app.state.rooms.rooms == {}  # type: ignore[attr-defined]


def test_the_invite_link_is_the_allowed_hosts(guarded: TestClient) -> None:
    room = make_room(guarded)
    assert room["invite_url"] == f"http://yatzy.example:8000/r/{room['code']}"
    with pytest.raises(WebSocketDisconnect):
        with guarded.websocket_connect(f"/ws/rooms/{room['code']}", headers={"Host": "evil.example"}) as ws:
            ws.receive_text()


def test_a_public_url_is_an_allowed_host(tmp_path: Path) -> None:
    app = create_app(db_url(tmp_path), allowed_hosts=[], public_url="https://yatzy.example")
    with TestClient(app, base_url="https://yatzy.example") as c:
        assert c.get("/").status_code == 200
        assert c.get("/", headers={"Host": "localhost:8000"}).status_code == 200
        assert c.get("/", headers={"Host": "evil.example"}).status_code == 400


def test_serve_takes_allowed_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from yatzy.cli import app as cli
    from yatzy.web import app as web

    seen: dict[str, Any] = {}
    monkeypatch.setattr(web, "create_app", lambda *a, **kw: seen.update(kw))
    monkeypatch.setattr(web, "run_server", lambda *a, **kw: None)
    result = CliRunner().invoke(cli, ["serve", "--host", "192.168.1.5", "--allowed-host", "yatzy.lan",
                                      "--allowed-host", "yatzy.example:8443"])
    assert result.exit_code == 0, result.output
    assert set(seen["allowed_hosts"]) == {"192.168.1.5", "yatzy.lan", "yatzy.example:8443"}


# ---- WebSocket origin ------------------------------------------------------------------------

def test_a_websocket_from_another_sites_page_is_refused_at_connect(client: TestClient) -> None:
    code = make_room(client)["code"]
    token = join(client, code)
    for origin in ("http://evil.example", "null", "http://testserver.evil.example"):
        with pytest.raises(WebSocketDisconnect) as closed:
            with client.websocket_connect(f"/ws/rooms/{code}", headers={"Origin": origin}) as ws:
                ws.receive_text()
        assert closed.value.code == 1008, origin
    for headers in ({"Origin": "http://testserver"}, {}):
        with client.websocket_connect(f"/ws/rooms/{code}", headers=headers) as ws:
            ws.send_json({"type": "hello", "token": token})
            assert receive(ws)["type"] == "welcome"
