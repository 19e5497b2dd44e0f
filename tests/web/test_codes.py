"""Room codes (docs/security.md, "Room codes and their limits"): a new room's code has nine
characters of the read-aloud alphabet; a room stored with a six-character code, as every room
was made before, keeps answering to it."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import update

from helpers.web import Player, db_url, join, make_room
from yatzy.storage.database import writing
from yatzy.storage.rooms import CODE_ALPHABET
from yatzy.storage.schema import RoomRow
from yatzy.web.app import create_app


def test_a_new_rooms_code_has_nine_characters_of_the_alphabet(tmp_path: Path) -> None:
    with TestClient(create_app(db_url(tmp_path))) as client:
        room = make_room(client)
        code = room["code"]
        assert len(code) == 9 and set(code) <= set(CODE_ALPHABET)
        assert room["invite_url"].endswith(f"/r/{code}")
        assert client.get(f"/api/rooms/{code.lower()}").json()["code"] == code  # typed in small letters


def test_a_stored_room_keeps_its_six_character_code(tmp_path: Path) -> None:
    app = create_app(db_url(tmp_path))
    with TestClient(app) as client:
        code = make_room(client)["code"]
    with writing(app.state.db) as s:  # as a room made before codes grew
        s.execute(update(RoomRow).where(RoomRow.code == code).values(code="K7PQ2M"))
    with TestClient(create_app(db_url(tmp_path))) as client:
        assert client.get(f"/api/rooms/{code}").status_code == 404
        assert client.get("/api/rooms/K7PQ2M").json()["code"] == "K7PQ2M"
        token = join(client, "k7pq2m")
        with Player(client, "K7PQ2M", token) as ann:
            assert ann.until("state")["view"]["version"] == 0
        for other in ("K7PQ2", "K7PQ2MA", "K7PQ2MAB", "K7PQ2MABCD"):  # no other length is a code
            assert client.get(f"/api/rooms/{other}").status_code == 404
