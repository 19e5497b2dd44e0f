"""Security: every bad request is refused with a clear error and leaves the game unchanged;
nothing secret (seed, salt, RNG state, other tokens) leaves the server before the reveal."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.web import BOT, Player, db_url, join, make_room, receive
from yatzy.web.app import create_app
from yatzy.web.protocol import MAX_MESSAGE_BYTES


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(db_url(tmp_path), max_connections_per_client=4, rate=50, burst=40)
    with TestClient(app) as c:
        yield c


def stored(client: TestClient, code: str) -> dict[str, Any]:
    """The game as the server holds it (its save), to check that nothing changed."""
    return client.app.state.rooms.rooms[code].game.to_dict()  # type: ignore[attr-defined,no-any-return]


def refused_at_hello(client: TestClient, code: str, hello: dict[str, Any] | str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        ws.send_text(hello if isinstance(hello, str) else json.dumps(hello))
        error = receive(ws)
        assert receive(ws)["type"] == "close"
        return error


def test_a_missing_wrong_or_foreign_token_is_refused(client: TestClient) -> None:
    code = make_room(client)["code"]
    other = make_room(client)["code"]
    foreign = join(client, other, 0)
    before = stored(client, code)
    for hello in ({"type": "hello"}, {"type": "hello", "token": "not-a-token"},
                  {"type": "hello", "token": foreign}, {"type": "resume", "last_version": 0, "token": "x"}):
        error = refused_at_hello(client, code, hello)
        assert error["type"] == "error" and error["code"] == "unauthorized", error
        assert error["message"]
    assert refused_at_hello(client, code, {"type": "ping"})["code"] == "hello_first"
    assert refused_at_hello(client, code, "{oops")["code"] == "bad_message"
    newer = {"type": "hello", "protocol": 99, "token": foreign}
    assert refused_at_hello(client, code, newer)["code"] == "protocol"
    assert refused_at_hello(client, "ZZZZZZ", {"type": "hello"})["code"] == "unknown_room"
    assert stored(client, code) == before


def test_out_of_turn_another_seat_and_chosen_dice_are_refused(client: TestClient) -> None:
    code = make_room(client, [{"name": "Ann"}, {"name": "Bo"}, BOT])["code"]
    ann_token, bo_token = join(client, code, 0), join(client, code, 1)
    with Player(client, code, ann_token) as ann, Player(client, code, bo_token) as bo:
        ann.until("state")
        bo.until("state")
        before = stored(client, code)
        cases = [
            (bo, {"action": "r"}, "not_your_turn"),
            (ann, {"action": "r", "seat": 1}, "other_seat"),
            (ann, {"action": "r 66666"}, "invalid_action"),
            (ann, {"action": "k 66666"}, "illegal_action"),
            (ann, {"action": "s chance"}, "illegal_action"),
            (ann, {"action": "dance"}, "invalid_action"),
        ]
        for player, extra, code_ in cases:
            error = player.answer(player.act(**extra))
            assert error["type"] == "error" and error["code"] == code_, (extra, error)
            assert error["version"] == 0 and error["message"]
        ann.send({"type": "act", "id": "forged", "version": 0, "action": "r", "dice": [6, 6, 6, 6, 6]})
        forged = ann.until("error")
        assert forged["code"] == "bad_message" and "dice" in forged["message"]
        assert stored(client, code) == before
        ann.answer(ann.act("r"))
        ann.until("events")
        dice = ann.view["dice"]  # type: ignore[index]
        chosen = [6] * 5 if dice != [6] * 5 else [1] * 5
        error = ann.answer(ann.act("k " + "".join(map(str, chosen))))
        assert error["code"] == "illegal_action"
        reused = bo.answer(bo.act("r", id=[m for m in ann.seen if m["type"] == "ack"][0]["id"], version=1))
        assert reused["code"] == "bad_message"  # another seat's client action id
        ann.send({"type": "hand_to_bot", "seat": 1, "level": "beginner"})
        assert ann.until("error")["code"] == "not_away"  # Bo is here
        ann.send({"type": "hand_to_bot", "seat": 2, "level": "beginner"})
        assert ann.until("error")["code"] == "not_away"  # a bot's seat
        ann.send({"type": "hand_to_bot", "seat": 1, "level": "genius"})
        assert ann.until("error")["code"] == "unknown_bot"
        assert ann.view["dice"] == dice and len(stored(client, code)["log"]) == 1  # type: ignore[index]


def test_oversized_malformed_and_too_many_messages(client: TestClient) -> None:
    code = make_room(client)["code"]
    token = join(client, code, 0)
    with Player(client, code, token) as ann:
        ann.until("state")
        ann.send("not json at all")
        assert ann.until("error")["code"] == "bad_message"
        ann.send({"type": "act", "id": "x", "version": 0})
        missing = ann.until("error")
        assert missing["code"] == "bad_message" and "action" in missing["message"]
        ann.send({"type": "ping"})
        assert ann.until("pong")  # still connected after bad messages
        start = time.monotonic()
        for n in range(100):  # 60 over the burst of 40, at 50 a second: read later, none dropped
            ann.send({"type": "ping", "nonce": str(n)})
        pongs = [ann.until("pong", "error") for _ in range(100)]
        assert [p.get("nonce") for p in pongs] == [str(n) for n in range(100)]
        assert time.monotonic() - start >= 59 / 50
    with Player(client, code, token) as ann:
        ann.until("state")
        ann.send({"type": "act", "id": "big", "version": 0, "action": "r" + " " * MAX_MESSAGE_BYTES})
        assert ann.until("error")["code"] == "too_large"
        assert ann.until("close")["code"] == 1009
    assert stored(client, code)["log"] == []


def test_too_many_connections_from_one_address(client: TestClient) -> None:
    code = make_room(client)["code"]
    token = join(client, code, 0)
    players = [Player(client, code, token).__enter__() for _ in range(4)]
    try:
        for p in players:
            p.until("state")
        with client.websocket_connect(f"/ws/rooms/{code}") as ws:
            error = receive(ws)
            assert error["code"] == "too_many_connections" and "4" in error["message"]
            assert receive(ws)["type"] == "close"
    finally:
        for p in players:
            p.__exit__(None, None, None)
    with Player(client, code, token) as again:  # the count goes down as connections close
        assert again.until("state")["version"] == 0


def test_nothing_secret_leaves_the_server_before_the_reveal(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, BOT, BOT])
    code = room["code"]
    server_room = client.app.state.rooms.rooms[code]  # type: ignore[attr-defined]
    secrets_ = [str(server_room.game.seed), server_room.salt]
    spectator = client.post(f"/api/rooms/{code}/spectate", json={}).json()["token"]
    texts: list[str] = [json.dumps(room), client.get(f"/api/rooms/{code}").text,
                        client.get(f"/api/rooms/{code}/verify").text, client.get("/openapi.json").text]
    with Player(client, code, join(client, code, 0)) as ann, Player(client, code, spectator) as s:
        for _ in range(3):
            ann.play_turn()
        s.until("events")
        texts += [json.dumps(m) for m in ann.seen + s.seen]
        other = s.until("state", "events", "presence")
        texts.append(json.dumps(other))
    assert secrets_[1] not in room["commitment"]
    for text in texts:
        for secret in secrets_:
            assert secret not in text
    assert "token" not in client.get(f"/api/rooms/{code}").text
