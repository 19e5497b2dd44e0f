"""The client guide, docs/web-protocol.md, against the server: a client written from the guide
alone must work. Its action notation, room fields, answers, error codes and message examples
are the code's; what it promises (a state on request, ``/verify`` before the end, the
roll-off's dice in the reveal, a fairness check of its own) is what the server does."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.web import BOT, Player, join, make_room
from yatzy.errors import InvalidActionError
from yatzy.game import Game
from yatzy.web.app import create_app
from yatzy.web.fairness import verify

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "web-protocol.md").read_text(encoding="utf-8")
CODE = re.compile(r"`([^`]+)`")
"""An inline code span (of a text without fenced blocks: their backticks would pair wrongly)."""
FENCED = re.compile(r"```.*?```", re.S)


def section(title: str) -> str:
    """The text of the guide's section ``## N. title``, up to the next section."""
    found = re.search(rf"^## \d+\. {re.escape(title)}\n(.*?)(?=^## |\Z)", GUIDE, re.S | re.M)
    assert found, f"the guide has no section “{title}”"
    return found.group(1)


def table(text: str, first: str) -> list[list[str]]:
    """The rows (cells stripped) of the Markdown table in ``text`` whose header starts with ``first``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"\s*\| {re.escape(first)} \|", line))
    rows = []
    for line in lines[start + 2:]:
        if not line.strip().startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    assert rows
    return rows


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'guide.sqlite3'}")) as c:
        yield c


def test_verify_before_the_end_says_when_it_may_be_asked(client: TestClient) -> None:
    code = make_room(client, [{"name": "Ann"}, BOT], ruleset="kids")["code"]
    early = client.get(f"/api/rooms/{code}/verify")
    assert early.status_code == 409
    assert early.json()["detail"] == {"code": "not_over",
                                      "message": "the dice seed is revealed when the game is over"}
    finnish = client.get(f"/api/rooms/{code}/verify?lang=fi").json()["detail"]
    assert finnish["code"] == "not_over" and finnish["message"] != early.json()["detail"]["message"]
    with Player(client, code, join(client, code)) as ann:
        ann.play_out()
    assert client.get(f"/api/rooms/{code}/verify").status_code == 200


def test_sync_answers_the_game_as_it_stands_and_events_go_on_from_there(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}])
    code = room["code"]
    spectator = client.post(f"/api/rooms/{code}/spectate").json()["token"]
    with Player(client, code, join(client, code, 0)) as ann, Player(client, code, spectator) as watcher:
        assert ann.until("state")["version"] == 0
        ann.send({"type": "sync"})
        first = ann.until("state", "error")
        assert first["type"] == "state" and first["reason"] == "request" and first["version"] == 0
        ann.answer(ann.act("r"))
        rolled = ann.until("events")
        error = ann.answer(ann.act("s chance", version=0))  # stale: a state follows by itself
        assert error["code"] == "stale" and ann.until("state")["reason"] == "stale"
        ann.send({"type": "sync"})
        state = ann.until("state")
        assert state["reason"] == "request" and state["version"] == 1 and state["view"] == rolled["view"]
        ann.answer(ann.act("s chance"))
        after = ann.until("events")
        assert after["version"] == 2 and {e["version"] for e in after["events"]} == {2}  # nothing again
        watcher.until("state")
        watcher.send({"type": "sync"})
        seen = watcher.until("state")
        while seen["reason"] != "request":
            seen = watcher.until("state")
        assert seen["view"]["viewer"] is None and seen["view"]["legal_actions"] == []
        ann.send({"type": "sync", "version": 1})  # sync has no version: refused, nothing follows
        refused = ann.until("error")
        assert refused["code"] == "bad_message" and refused["version"] == 2
        ann.send({"type": "ping", "nonce": "after"})
        assert ann.until("pong", "state")["type"] == "pong"


def test_sync_before_the_hello_is_refused(client: TestClient) -> None:
    code = make_room(client)["code"]
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        ws.send_text(json.dumps({"type": "sync"}))
        assert json.loads(ws.receive_text())["code"] == "hello_first"


def _finished_room(client: TestClient, seats: list[dict[str, Any]],
                   **settings: Any) -> tuple[str, dict[str, Any], Game]:
    """A Kids' game played to its end by Ann (seat 0) and bots: its code, reveal and game."""
    code = make_room(client, seats, ruleset="kids", **settings)["code"]
    with Player(client, code, join(client, code)) as ann:
        ann.play_out()
        reveal = next((m for m in ann.seen if m["type"] == "reveal"), None) or ann.until("reveal")
        game = client.app.state.rooms.rooms[code].game  # type: ignore[attr-defined]
    return code, reveal, game


def test_the_reveal_and_verify_carry_the_roll_off_and_verify_checks_it(client: TestClient) -> None:
    code, reveal, game = _finished_room(client, [{"name": "Ann"}, BOT, BOT], roll_off=True)
    assert game.roll_offs and reveal["roll_off_rounds"] == [
        [[seat, die] for seat, die in sorted(r.items())] for r in game.roll_offs]
    assert client.get(f"/api/rooms/{code}/verify").json()["roll_off_rounds"] == reveal["roll_off_rounds"]
    assert verify(reveal).roll_offs == game.roll_offs
    forged = json.loads(json.dumps(reveal))
    forged["roll_off_rounds"][0][0][1] = forged["roll_off_rounds"][0][0][1] % 6 + 1
    with pytest.raises(InvalidActionError, match="round 1 of the roll-off shows Ann"):
        verify(forged)
    forged = json.loads(json.dumps(reveal))
    del forged["roll_off_rounds"][-1]
    with pytest.raises(InvalidActionError, match="roll-off"):
        verify(forged)
    for bad in (None, "55", [[5]]):
        with pytest.raises(InvalidActionError, match="pairs"):
            verify({**reveal, "roll_off_rounds": bad})
    without = {k: v for k, v in reveal.items() if k != "roll_off_rounds"}  # a reveal of before they were sent
    assert verify(without).is_over


def test_a_room_without_a_roll_off_reveals_no_rounds(client: TestClient) -> None:
    _code, reveal, _game = _finished_room(client, [{"name": "Ann"}, BOT])
    assert reveal["roll_off_rounds"] == [] and reveal["game"]["roll_off"] is False
    assert verify(reveal).is_over
    with pytest.raises(InvalidActionError, match="round 1 of the roll-off shows Ann 3, but this game's seed "
                                                 "rolls none"):
        verify({**reveal, "roll_off_rounds": [[[0, 3]]]})
