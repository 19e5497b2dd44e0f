"""Text is text at the server: a room's seat with a name no seat may have is refused with the
engine's words (400, ``invalid_action``), never a 500, and no room is made; a markup or HTML name
is stored as typed (tests/helpers/hostile.py has the names)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from helpers.hostile import REFUSED, SHOWN
from helpers.web import db_url
from yatzy.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_url(tmp_path))) as c:
        yield c


def room(client: TestClient, *names: str) -> tuple[int, dict[str, object]]:
    seats = [{"kind": "person", "name": n} for n in names]
    r = client.post("/api/rooms", json={"ruleset": "kids", "seats": seats})
    return r.status_code, r.json()


def test_a_forbidden_name_is_refused_in_words_and_makes_no_room(client: TestClient) -> None:
    for what, name in REFUSED.items():
        status, body = room(client, "Ann", name)
        assert 400 <= status < 500, (what, status, body)
        if len(name) <= 40:  # longer ones the schema refuses first (422)
            assert "U+" in str(body), (what, body)
    assert client.app.state.rooms.rooms == {}  # type: ignore[attr-defined]


def test_markup_and_html_names_are_stored_as_typed(client: TestClient) -> None:
    status, body = room(client, *SHOWN[:6])
    assert status == 201, body
    code = str(body["code"])
    stored = client.app.state.rooms.rooms[code].game.seats  # type: ignore[attr-defined]
    assert [s.name for s in stored] == SHOWN[:6]
