"""An expired room's refusal says so in a field a client can read (``expired``: true), beside
its words, on the WebSocket and over REST; a code that never named a room says ``expired``:
false. The page keeps an expired room's token (its game stays in that browser's history) and
forgets one for a room that never was (tests/e2e/test_expired_rooms.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from helpers.web import make_room, receive
from yatzy.storage.database import reading
from yatzy.storage.schema import RoomRow
from yatzy.web.expiry import Expiry, sweep

EXPIRY = Expiry()


def test_an_expired_rooms_refusal_says_expired_and_an_unknown_codes_does_not(
        app: FastAPI, client: TestClient) -> None:
    code = make_room(client, [{"name": "Ann"}, {"name": "Bo"}])["code"]
    with reading(app.state.db) as s:
        at: datetime = s.scalar(select(RoomRow.updated_at).where(RoomRow.code == code))
    never = "A" * len(code) if code != "A" * len(code) else "B" * len(code)
    with client.websocket_connect(f"/ws/rooms/{never}") as ws:
        refused = receive(ws)
    assert refused["code"] == "unknown_room" and refused["expired"] is False
    r = client.get(f"/api/rooms/{never}")
    assert r.status_code == 404 and r.json()["detail"]["expired"] is False

    assert client.portal.call(sweep, app.state.rooms, EXPIRY,  # type: ignore[union-attr]
                              at + EXPIRY.idle_for + timedelta(seconds=1)) == [code]
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        refused = receive(ws)
    assert refused["code"] == "unknown_room" and refused["expired"] is True
    assert refused["message"].startswith(f"room {code} has ended and expired")
    r = client.get(f"/api/rooms/{code}")
    assert r.status_code == 404 and r.json()["detail"] == {
        "code": "unknown_room", "message": refused["message"], "expired": True}
