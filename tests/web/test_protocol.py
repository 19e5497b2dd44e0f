"""The WebSocket protocol's messages: the JSON schemas in docs/protocol are current, every
message round-trips through JSON, and malformed or dice-carrying messages are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from yatzy.game import Game
from yatzy.narration import event_words
from yatzy.session import Session
from yatzy.views import game_view
from yatzy.web.protocol import (
    CLIENT_MESSAGES,
    ERROR_CODES,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    Ack,
    Act,
    Amend,
    BotsPreparing,
    CoachAdvice,
    CoachOption,
    CoachRequest,
    Error,
    Events,
    HandToBot,
    Hello,
    Ping,
    Pong,
    Presence,
    RematchOffer,
    Resume,
    Reveal,
    SeatPresence,
    State,
    Sync,
    Undo,
    Welcome,
    client_adapter,
    parse_client,
    schemas,
    server_adapter,
    write_schemas,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_schemas_in_docs_are_current(tmp_path: Path) -> None:
    """Regenerate with: .venv/bin/python -m yatzy.web.protocol docs/protocol"""
    for path in write_schemas(tmp_path):
        stored = ROOT / "docs" / "protocol" / path.name
        assert stored.exists(), f"{stored} is missing"
        assert json.loads(stored.read_text()) == json.loads(path.read_text()), (
            f"{stored.name} is stale: run .venv/bin/python -m yatzy.web.protocol docs/protocol")


def test_the_schemas_name_every_message_and_the_version() -> None:
    s = schemas()
    assert s["client-messages.json"]["x-protocol-version"] == PROTOCOL_VERSION
    client = set(s["client-messages.json"]["discriminator"]["mapping"])
    server = set(s["server-messages.json"]["discriminator"]["mapping"])
    assert client == {m.model_fields["type"].default for m in CLIENT_MESSAGES}
    assert server == {m.model_fields["type"].default for m in SERVER_MESSAGES}
    kinds = {v["properties"]["kind"]["const"] for v in s["events.json"]["oneOf"]}
    assert {"rolled", "scored", "turn_passed", "game_over", "roll_off"} <= kinds
    assert set(ERROR_CODES) == set(
        s["server-messages.json"]["$defs"]["Error"]["properties"]["code"]["enum"])


def test_every_event_may_carry_its_words_and_a_client_of_today_needs_none() -> None:
    """``text`` is in every event's schema but required by none, and an event with its words
    (as the server sends it: ``narration.event_words``) has only fields its schema names."""
    variants = {v["title"]: v for v in schemas()["events.json"]["oneOf"]}
    assert all("text" in v["properties"] and "text" not in v["required"] for v in variants.values())
    session = Session(Game("yatzy", ["Ann", "Bo"], seed=3, roll_off=True))
    events = session.start() + session.act("r") + session.act("s chance")
    for e in events:
        sent = {**e.to_dict(), "text": event_words(e.to_dict(), session.view(0, "fi"), "fi")}
        schema = variants[e.kind]
        assert set(schema["required"]) <= set(sent) <= set(schema["properties"]), e.kind
        assert sent["text"] and sent["text"] != event_words(e.to_dict(), session.view(0), "en")


def _server_messages() -> list[object]:
    game = Game("yatzy", ["Ann", "Bo"], seed=3)
    game.roll()
    view = game_view(game, 0)
    return [
        Welcome(room="ABC123", role="seat", seat=0, lang="fi", commitment="ab" * 32, coach=True, version=1),
        State(version=1, reason="welcome", view=view),
        Events(version=1, events=[{"kind": "rolled", "seq": 1, "version": 1}], view=view),
        Ack(id="a-1", version=1, duplicate=True),
        Error(code="stale", message="old", id="a-1", version=1),
        Presence(seats=[SeatPresence(seat=0, name="Ann", kind="person", taken=True, connected=False,
                                     away_for=3.5, may_hand_to_bot=False, stand_in=None)],
                 spectators=2, away_after=60),
        Reveal(commitment="00", salt="11", seed=5, game={"seed": 5, "log": []},
               roll_off_rounds=[[(0, 4), (1, 4)], [(0, 2), (1, 5)]]),
        Pong(nonce="x"),
        CoachAdvice(id="c-1", version=1, seat=0, status="ready", options=[CoachOption(
            action="k 66", description="keep 6 6", value=201.5, regret=0.0, odds={"yatzy": 0.04})]),
        BotsPreparing(stage="building", progress=0.25, text="building the Maxi table for the strong bot"),
        RematchOffer(room="XYZ789"),
    ]


def test_every_server_message_round_trips_through_json() -> None:
    messages = _server_messages()
    assert {type(m) for m in messages} == set(SERVER_MESSAGES)
    for m in messages:
        text = m.to_json()  # type: ignore[attr-defined]
        back = server_adapter.validate_json(text)
        assert back.model_dump(mode="json") == json.loads(text)


def test_every_client_message_parses() -> None:
    messages = [Hello(token="t", lang="sv"), Resume(token="t", last_version=4),
                Act(id="x", version=0, action="r"), Ping(nonce="n"), Sync(),
                HandToBot(seat=1, level="beginner"), CoachRequest(id="c"), Undo(id="u", version=3),
                Amend(id="f", version=4, turn=0, dice=[1, 2, 3, 4, 5], box="chance"),
                Amend(id="g", version=4, turn=1, actions=["r = 12345", "s chance"])]
    assert {type(m) for m in messages} == set(CLIENT_MESSAGES)
    for m in messages:
        assert parse_client(m.to_json()) == m
    assert client_adapter.validate_python({"type": "hello"}) == Hello()


@pytest.mark.parametrize("text", [
    "not json", "[]", '{"type": "roll"}', '{"type": "act", "id": "x", "version": 0}',
    '{"type": "act", "id": "x", "version": 0, "action": "r", "dice": [6, 6, 6, 6, 6]}',
    '{"type": "act", "id": "x y", "version": 0, "action": "r"}',
    '{"type": "act", "id": "x", "version": -1, "action": "r"}',
    '{"type": "hello", "lang": "de"}',
    '{"type": "amend", "id": "x", "version": 0, "turn": 0, "dice": [1, 2, 3, 4, 5]}',
    '{"type": "amend", "id": "x", "version": 0, "turn": 0, "box": "chance", "actions": ["s chance"]}',
    '{"type": "amend", "id": "x", "version": 0, "turn": 0, "dice": [7], "box": "chance"}',
    '{"type": "undo", "id": "x", "version": 0, "dice": [6, 6, 6, 6, 6]}',
    '{"type": "sync", "version": 3}',
    '{"type": "act", "id": "x", "version": 0, "action": "' + "r" * 65 + '"}',
])
def test_malformed_client_messages_are_refused(text: str) -> None:
    with pytest.raises(ValidationError):
        parse_client(text)
