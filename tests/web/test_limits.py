"""How fast one address may look rooms up and make them (yatzy.web.limits, docs/security.md):
hits are many, misses few, both refill on a clock the tests turn by hand; past a limit a 429
with Retry-After and the reason in words; another address is not held back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from helpers.web import db_url, make_room, receive
from yatzy.web.app import create_app
from yatzy.web.limits import Bucket, Limited, Limits
from yatzy.web.security import address_key as client_key

HIT_BURST, HIT_RATE = 8, 2.0
MISS_BURST, MISS_RATE = 4, 1 / 20
"""Smaller buckets than the server's (240 at 4 a second, 30 at one per 20 s): the same rules,
fewer requests."""
UNKNOWN = "ABCDEFGHJ"
"""A code of the right form that names no room."""


class Clock:
    """A clock the test turns."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    with TestClient(create_app(db_url(tmp_path), limits=small(clock, rooms_per_hour=3))) as c:
        yield c


def small(clock: Clock, rooms_per_hour: int = 100) -> Limits:
    return Limits(rooms_per_hour=rooms_per_hour, clock=clock, hits=Bucket(HIT_BURST, HIT_RATE),
                  misses=Bucket(MISS_BURST, MISS_RATE))


def refused(r: object, code: str) -> int:
    """The Retry-After of a 429 refusal with ``code`` (fails on any other answer)."""
    assert getattr(r, "status_code", None) == 429, getattr(r, "text", r)
    assert r.json()["detail"]["code"] == code  # type: ignore[attr-defined]
    return int(r.headers["Retry-After"])  # type: ignore[attr-defined]


def test_guessed_codes_are_slowed_to_a_crawl(client: TestClient, clock: Clock) -> None:
    code = make_room(client)["code"]
    for _ in range(MISS_BURST):  # the last miss allowed is a 404 like the first
        assert client.get(f"/api/rooms/{UNKNOWN}").status_code == 404
    r = client.get(f"/api/rooms/{UNKNOWN}")
    assert refused(r, "too_many_lookups") == round(1 / MISS_RATE)
    assert "too many room codes" in r.json()["detail"]["message"]
    # a guess that would hit is refused too: a guesser learns nothing more until the wait is over
    refused(client.get(f"/api/rooms/{code}"), "too_many_lookups")
    refused(client.post(f"/api/rooms/{code}/join", json={}), "too_many_lookups")
    refused(client.post(f"/api/rooms/{code}/spectate", json={}), "too_many_lookups")
    clock.now += 1 / MISS_RATE - 0.5
    refused(client.get(f"/api/rooms/{UNKNOWN}"), "too_many_lookups")
    clock.now += 0.5  # one miss back: one lookup passes, the next waits again
    assert client.get(f"/api/rooms/{UNKNOWN}").status_code == 404
    refused(client.get(f"/api/rooms/{code}"), "too_many_lookups")


def test_a_familys_reloads_never_reach_the_limit_of_hits(client: TestClient, clock: Clock) -> None:
    code = make_room(client)["code"]
    for _ in range(HIT_BURST):
        assert client.get(f"/api/rooms/{code}").status_code == 200
    assert refused(client.get(f"/api/rooms/{code}"), "too_many_lookups") == 1
    clock.now += 1 / HIT_RATE
    assert client.get(f"/api/rooms/{code}").status_code == 200
    refused(client.get(f"/api/rooms/{code}"), "too_many_lookups")
    clock.now += HIT_BURST / HIT_RATE  # the whole burst is back
    for _ in range(HIT_BURST):
        assert client.get(f"/api/rooms/{code}").status_code == 200


def test_another_address_is_not_held_back(tmp_path: Path, clock: Clock) -> None:
    app = create_app(db_url(tmp_path), limits=small(clock))
    with TestClient(app, client=("203.0.113.7", 5000)) as guesser, \
            TestClient(app, client=("198.51.100.2", 5000)) as family:
        code = make_room(family)["code"]
        for _ in range(MISS_BURST):
            guesser.get(f"/api/rooms/{UNKNOWN}")
        refused(guesser.get(f"/api/rooms/{code}"), "too_many_lookups")
        assert family.get(f"/api/rooms/{code}").status_code == 200
        assert family.get(f"/api/rooms/{UNKNOWN}").status_code == 404


def test_an_ipv6_client_is_counted_by_its_64_network() -> None:
    """A client given a /64 cannot take a new address for every guess; the next /64 is another client."""
    clock = Clock()
    limits = small(clock)
    for n in range(MISS_BURST):
        limits.before_lookup(f"2001:db8:1:2::{n + 1:x}")
        limits.looked_up(f"2001:db8:1:2:ffff::{n + 1:x}", found=False)
    with pytest.raises(Limited):
        limits.before_lookup("2001:db8:1:2:abcd::1")
    limits.before_lookup("2001:db8:1:3::1")
    limits.before_lookup("192.0.2.1")
    assert client_key("::ffff:192.0.2.1") == client_key("192.0.2.1") == "192.0.2.1"
    assert client_key("testclient") == "testclient"


def test_a_websocket_to_an_unknown_code_counts_as_a_miss(client: TestClient, clock: Clock) -> None:
    code = make_room(client)["code"]
    for _ in range(MISS_BURST - 1):
        client.get(f"/api/rooms/{UNKNOWN}")
    with client.websocket_connect(f"/ws/rooms/{UNKNOWN}") as ws:  # the last miss allowed
        assert receive(ws)["code"] == "unknown_room"
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        error = receive(ws)
        assert error["code"] == "too_many_lookups" and "try again in 20 seconds" in error["message"]
        assert receive(ws) == {"type": "close", "code": 1008}
    clock.now += 1 / MISS_RATE
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        ws.send_json({"type": "hello", "token": "nothing"})
        assert receive(ws)["code"] == "unauthorized"  # looked up: on to the hello


def test_new_rooms_per_address_and_hour_are_bounded(client: TestClient, clock: Clock) -> None:
    r = client.post("/api/rooms", json={"seats": [{"name": "Ann"}], "ruleset": "chess"})
    assert r.status_code == 400  # a room refused is not counted
    for _ in range(3):  # the last room allowed is made
        make_room(client)
    r = client.post("/api/rooms", json={"seats": [{"name": "Ann"}], "lang": "fi"})
    assert refused(r, "too_many_rooms") == 3600 // 3
    assert r.json()["detail"]["message"] == ("liian monta uutta huonetta osoitteestasi: enintään 3 tunnissa; "
                                             "yritä uudelleen 1200 sekunnin kuluttua")
    clock.now += 3600 / 3 - 1
    refused(client.post("/api/rooms", json={"seats": [{"name": "Ann"}]}), "too_many_rooms")
    clock.now += 1
    make_room(client)
    refused(client.post("/api/rooms", json={"seats": [{"name": "Ann"}]}), "too_many_rooms")


@pytest.mark.slow
def test_a_school_class_behind_one_address_makes_its_rooms(tmp_path: Path) -> None:
    """30 rooms from one address (the server's own limits), each looked up and joined: no refusal."""
    with TestClient(create_app(db_url(tmp_path))) as c:
        for _ in range(30):
            code = make_room(c)["code"]
            assert c.get(f"/api/rooms/{code}").status_code == 200
            assert c.post(f"/api/rooms/{code}/join", json={}).status_code == 200


def test_a_bucket_remembers_a_bounded_number_of_addresses() -> None:
    """Many addresses, each counted lately (none full again): the bucket keeps at most ``most``
    of them, forgetting the one counted longest ago (it starts full again); one counted again
    is the newest, kept; full ones go first."""
    bucket = Bucket(3, 0.001, most=4)
    for i in range(4):
        bucket.take(f"a{i}", now=float(i))
    assert list(bucket._held) == ["a0", "a1", "a2", "a3"]
    bucket.take("a0", now=4.0)  # counted again: the newest now, not forgotten next
    bucket.take("a4", now=5.0)  # a fifth address: a1, counted longest ago, is forgotten
    assert list(bucket._held) == ["a2", "a3", "a0", "a4"]
    assert bucket.wait("a1", 5.0) == 0 and bucket._now("a0", 5.0) < 2  # a1 full again; a0 kept its count
    for i in range(5, 100):
        bucket.take(f"a{i}", now=float(i))
        assert len(bucket._held) <= 4
    full = Bucket(3, 10.0, most=4)  # refills fast: the full ones go, the newest stay
    for i in range(4):
        full.take(f"b{i}", now=float(i))
    full.take("b4", now=3.05)
    assert list(full._held) == ["b3", "b4"]
