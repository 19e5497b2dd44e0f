"""Who sees stored games (yatzy.web.routes.history, docs/security.md): a game is listed, read
and replayed for a request showing a token of its room (X-Room-Tokens), also once the room
has expired; for anyone only with --public-history; the statistics stay aggregate and public."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from helpers.wait import wait_for
from helpers.web import BOT, db_url, make_room
from yatzy.web.app import create_app
from yatzy.web.deps import MAX_ROOM_TOKENS
from yatzy.web.expiry import Expiry, sweep


def bots_game(client: TestClient) -> tuple[str, int, str]:
    """A room of two bots played to its end: its code, game id and a spectator's token."""
    code = make_room(client, [BOT, BOT], ruleset="kids")["code"]
    token = client.post(f"/api/rooms/{code}/spectate", json={}).json()["token"]
    wait_for(lambda: client.get(f"/api/rooms/{code}").json()["over"], what="the bots never finished")
    return code, client.get(f"/api/rooms/{code}").json()["game_id"], token


def listed(client: TestClient, *tokens: str) -> list[int]:
    r = client.get("/api/games", headers={"X-Room-Tokens": ", ".join(tokens)} if tokens else {})
    assert r.status_code == 200, r.text
    return [g["id"] for g in r.json()]


def read(client: TestClient, game_id: int, *tokens: str) -> dict[str, Any]:
    """The answers of the game's save and its replay (they must agree)."""
    headers = {"X-Room-Tokens": " ".join(tokens)}
    r, step = client.get(f"/api/games/{game_id}", headers=headers), client.get(
        f"/api/games/{game_id}/replay?step=1", headers=headers)
    assert r.status_code == step.status_code, (r.text, step.text)
    return {"status": r.status_code, **r.json()}


def test_a_game_is_seen_by_the_holders_of_its_rooms_tokens_only(app: FastAPI, client: TestClient) -> None:
    code, mine, token = bots_game(client)
    _code, theirs, other = bots_game(client)
    assert listed(client) == []
    assert listed(client, "not-a-token") == []
    assert listed(client, token) == [mine]
    assert sorted(listed(client, token, other)) == sorted([mine, theirs])
    hidden = read(client, mine)
    assert hidden["status"] == 404 and hidden["detail"]["code"] == "unknown_game"
    assert hidden["detail"]["message"] == (f"game {mine} is not among the games shown to you: this server "
                                           "shows each game to those who were in its room")
    assert read(client, mine, other)["detail"] == hidden["detail"]  # another room's token opens its game only
    missing = read(client, 10**6, token)["detail"]  # hidden and missing answer alike
    assert missing["message"] == hidden["detail"]["message"].replace(str(mine), "1000000")
    assert read(client, mine, token)["status"] == 200
    # the room expired: its token shows its game still (and opens nothing else)
    now = datetime.now(UTC) + Expiry().finished_for + timedelta(minutes=1)
    assert code in client.portal.call(sweep, app.state.rooms, Expiry(), now)  # type: ignore[union-attr]
    assert client.get(f"/api/rooms/{code}").status_code == 404
    assert listed(client, token) == [mine] and read(client, mine, token)["status"] == 200
    # the statistics stay aggregate, for anyone
    stats = client.get("/api/stats?ruleset=kids").json()
    assert sum(p["games"] for p in stats["players"]) == 4


def test_too_many_tokens_are_refused_in_words(client: TestClient) -> None:
    r = client.get("/api/games?lang=sv", headers={"X-Room-Tokens": " ".join(["t"] * (MAX_ROOM_TOKENS + 1))})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "bad_message"
    assert "högst 200" in r.json()["detail"]["message"]
    assert client.get("/api/games", headers={"X-Room-Tokens": " ".join(["t"] * MAX_ROOM_TOKENS)}).json() == []


def test_a_public_history_shows_every_game_to_anyone(tmp_path: Path) -> None:
    with TestClient(create_app(db_url(tmp_path), public_history=True)) as client:
        _code, game_id, _token = bots_game(client)
        assert listed(client) == [game_id]
        assert read(client, game_id)["status"] == 200
