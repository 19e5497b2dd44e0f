"""Rooms expire on their schedule (yatzy.web.expiry, docs/security.md): an idle unfinished
room after 14 days, a finished one 2 days after its end, never one someone is connected to;
the sweep runs on a clock the test gives. An expired room's code answers 404 in words that
say it has ended; its game stays in the history, its moves in it."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from helpers.wait import wait_for
from helpers.web import BOT, Player, db_url, join, make_room, receive
from yatzy.storage import get_game
from yatzy.storage.database import reading, writing
from yatzy.storage.schema import RoomActionRow, RoomLogRow, RoomRow
from yatzy.web.app import create_app
from yatzy.web.expiry import Expiry, sweep

SECOND = timedelta(seconds=1)
EXPIRY = Expiry()


def moved_at(app: FastAPI, code: str) -> datetime:
    with reading(app.state.db) as s:
        return s.scalar(select(RoomRow.updated_at).where(RoomRow.code == code))  # type: ignore[no-any-return]


def swept(client: TestClient, now: datetime) -> list[str]:
    app: FastAPI = client.app  # type: ignore[assignment]
    return client.portal.call(sweep, app.state.rooms, EXPIRY, now)  # type: ignore[union-attr]


def ended(client: TestClient, code: str) -> bool:
    r = client.get(f"/api/rooms/{code}")
    if r.status_code == 200:
        return False
    assert r.status_code == 404 and r.json()["detail"]["code"] == "unknown_room", r.text
    assert r.json()["detail"]["message"].startswith(f"room {code} has ended and expired")
    return True


def test_an_idle_unfinished_room_expires_after_fourteen_days(app: FastAPI, client: TestClient) -> None:
    code = make_room(client, [{"name": "Ann"}, {"name": "Bo"}])["code"]
    game_id = client.get(f"/api/rooms/{code}").json()["game_id"]
    with Player(client, code, join(client, code, 0)) as ann:
        ann.until("state")
        assert ann.answer(ann.act("r"))["type"] == "ack"
    at = moved_at(app, code)
    assert swept(client, at + EXPIRY.idle_for - SECOND) == [] and not ended(client, code)
    assert swept(client, at + EXPIRY.idle_for + SECOND) == [code]
    assert ended(client, code)
    assert code not in app.state.rooms.rooms
    r = client.get(f"/api/rooms/{code.lower()}/verify?lang=fi")
    assert r.status_code == 404 and "on päättynyt" in r.json()["detail"]["message"]
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        assert receive(ws)["code"] == "unknown_room"
    # its game stays, with the roll it had; the room's live rows are gone
    assert get_game(app.state.db, game_id).actions == 1
    with reading(app.state.db) as s:
        room_id = s.scalar(select(RoomRow.id).where(RoomRow.code == code))
        for table in (RoomLogRow, RoomActionRow):
            assert s.scalar(select(func.count()).select_from(table).where(table.room_id == room_id)) == 0
    assert swept(client, at + 2 * EXPIRY.idle_for) == []  # expired once


def test_a_finished_room_expires_two_days_after_its_end(app: FastAPI, client: TestClient) -> None:
    code = make_room(client, [BOT, BOT])["code"]
    wait_for(lambda: client.get(f"/api/rooms/{code}").json()["over"], what="the bots never finished")
    client.portal.call(app.state.rooms.saved)  # type: ignore[union-attr]
    game_id = client.get(f"/api/rooms/{code}").json()["game_id"]
    at = moved_at(app, code)
    assert swept(client, at + EXPIRY.finished_for - SECOND) == [] and not ended(client, code)
    assert swept(client, at + EXPIRY.finished_for + SECOND) == [code]
    assert ended(client, code)
    summary = get_game(app.state.db, game_id)
    assert summary.finished and all(s.total > 0 for s in summary.seats)


def test_a_room_someone_is_connected_to_is_not_idle(app: FastAPI, client: TestClient) -> None:
    code = make_room(client)["code"]
    at = moved_at(app, code)
    with Player(client, code, join(client, code)) as ann:
        ann.until("state")
        assert swept(client, at + EXPIRY.idle_for + SECOND) == []
        assert moved_at(app, code) == at + EXPIRY.idle_for + SECOND  # in use as of that sweep
    assert swept(client, at + 2 * EXPIRY.idle_for) == []  # idle for 14 days less a second since
    assert swept(client, at + 2 * EXPIRY.idle_for + 2 * SECOND) == [code]


def test_the_server_sweeps_on_its_schedule(tmp_path: Path) -> None:
    """The lifespan's sweep, every ``every`` seconds: with no time allowed, a room expires by itself."""
    with TestClient(create_app(db_url(tmp_path), expiry=Expiry(idle_for=timedelta(0), every=0.05))) as client:
        code = make_room(client)["code"]
        wait_for(lambda: ended(client, code), what="the room never expired")


def test_a_room_whose_game_no_longer_loads_expires_as_it_is_stored(app: FastAPI, client: TestClient,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    code = make_room(client)["code"]
    with Player(client, code, join(client, code, 0)) as ann:
        ann.until("state")
        assert ann.answer(ann.act("r"))["type"] == "ack"
    with writing(app.state.db) as s:  # its appended move out of place: the room no longer loads
        s.execute(update(RoomLogRow).values(position=RoomLogRow.position + 5))
    client.portal.call(app.state.rooms.forget, app.state.rooms.rooms[code])  # type: ignore[union-attr]
    assert swept(client, moved_at(app, code) + EXPIRY.idle_for + SECOND) == [code]
    assert ended(client, code)
    assert "expires without its last moves in the history" in caplog.text
