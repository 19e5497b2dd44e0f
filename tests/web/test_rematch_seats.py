"""A rematch keeps the seats its players had in the game before for ten minutes: a stranger
with the new code is refused one (``seat_kept``, saying how long), the old players take
theirs with their old token; the time checked at its boundary with the server's own clock;
the host may open a kept seat at once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.web import Player, join, make_room, play_out, refused
from yatzy.web.seating import KEEP_SEATS

NOW = 1_900_000_000.0


@pytest.fixture
def clock(client: TestClient) -> Iterator[list[float]]:
    """The server's clock for kept seats: the list's one value, set by the test."""
    now = [NOW]
    seating = client.app.state.rooms.seating  # type: ignore[attr-defined]
    real = seating.clock
    seating.clock = lambda: now[0]
    yield now
    seating.clock = real


def rematch_of_a_finished_game(client: TestClient) -> tuple[str, dict[str, Any], list[str]]:
    """Ann and Bo (seats 0, 1) play a kids game to its end; Ann asks for the rematch. Returns
    the old room's code, the rematch (Ann's answer) and both old tokens."""
    code = make_room(client, [{"name": "Ann"}, {"name": "Bo"}], ruleset="kids")["code"]
    tokens = [join(client, code, 0), join(client, code, 1)]
    with Player(client, code, tokens[0]) as ann, Player(client, code, tokens[1]) as bo:
        play_out(ann, bo)
    made = client.post(f"/api/rooms/{code}/rematch", json={"token": tokens[0]})
    assert made.status_code == 200, made.text
    return code, made.json(), tokens


def kept(client: TestClient, code: str) -> list[bool]:
    return [s["kept"] for s in client.get(f"/api/rooms/{code}").json()["seats"]]


def test_a_stranger_is_refused_a_kept_seat_and_its_player_takes_it(client: TestClient,
                                                                   clock: list[float]) -> None:
    old, made, tokens = rematch_of_a_finished_game(client)
    new, join_new = made["code"], f"/api/rooms/{made['code']}/join"
    assert kept(client, new) == [False, True]  # Ann's is taken (she asked), Bo's kept for him
    assert "10 more minutes" in refused(client, join_new, {"seat": 1}, 409, "seat_kept")
    refused(client, join_new, {}, 409, "seat_kept")  # the only free seat is kept
    clock[0] = NOW + KEEP_SEATS - 61  # the minutes left, rounded up
    assert "2 more minutes" in refused(client, join_new, {"seat": 1}, 409, "seat_kept")
    clock[0] = NOW + KEEP_SEATS - 30
    assert "1 more minute;" in refused(client, join_new, {"seat": 1}, 409, "seat_kept")
    assert "minuutin" in refused(client, f"{join_new}?lang=fi", {"seat": 1}, 409, "seat_kept")
    assert kept(client, new) == [False, True]  # nothing changed
    followed = client.post(f"/api/rooms/{old}/rematch", json={"token": tokens[1]})
    assert followed.status_code == 200, followed.text  # Bo follows: his seat was kept for him
    assert (followed.json()["code"], followed.json()["seat"]) == (new, 1)
    assert kept(client, new) == [False, False]  # taken now
    refused(client, join_new, {"seat": 1}, 409, "unauthorized")


def test_a_kept_seat_opens_to_anyone_when_its_time_is_up(client: TestClient, clock: list[float]) -> None:
    _old, made, _tokens = rematch_of_a_finished_game(client)
    new, join_new = made["code"], f"/api/rooms/{made['code']}/join"
    clock[0] = NOW + KEEP_SEATS - 0.001
    refused(client, join_new, {}, 409, "seat_kept")
    clock[0] = NOW + KEEP_SEATS
    assert kept(client, new) == [False, False]
    joined = client.post(join_new, json={})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1


def test_the_host_opens_a_kept_seat_at_once(client: TestClient, clock: list[float]) -> None:
    _old, made, _tokens = rematch_of_a_finished_game(client)
    new = made["code"]
    free = f"/api/rooms/{new}/seats/1/free"
    refused(client, free, {"token": "not the host's"}, 403, "not_host")
    assert kept(client, new) == [False, True]
    assert client.post(free, json={"token": made["host_token"]}).status_code == 204
    assert kept(client, new) == [False, False]
    assert client.post(f"/api/rooms/{new}/join", json={"seat": 1}).status_code == 200
