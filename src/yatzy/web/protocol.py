"""The WebSocket protocol: every message both ways, as pydantic models, and their JSON schemas.

A client opens ``/ws/rooms/{code}``, sends :class:`Hello` (or :class:`Resume` after a dropped
connection) with its secret token, and gets :class:`Welcome` plus either a full
:class:`State` or the :class:`Events` it missed. It then sends :class:`Act` with a client
action id, the version it last saw and an action in the project's notation (``r``,
``k 335``, ``s two_pairs``, ``s n3 4 5``, ``b 11 12``); the server answers :class:`Ack`
or :class:`Error`, and every client of the room gets :class:`Events` with its own new view.
At the end of the game the server sends :class:`Reveal`: the dice seed behind the
commitment shown from the start.

Every message is one JSON object with a ``type``. ``python -m yatzy.web.protocol DIR``
writes the JSON schemas (``docs/protocol`` in the repository; a test keeps them current);
``docs/web-protocol.md`` is the guide to writing a client or a bot.
"""

from __future__ import annotations

import json
import sys
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ..names import LANGUAGES
from ..session import Event
from ..views import GameView

__all__ = [
    "CLIENT_MESSAGES", "ERROR_CODES", "MAX_MESSAGE_BYTES", "PROTOCOL_VERSION", "SERVER_MESSAGES", "Ack",
    "Act", "ClientMessage", "Error", "ErrorCode", "Events", "HandToBot", "Hello", "Ping", "Pong", "Presence",
    "Resume", "Reveal", "SeatPresence", "ServerMessage", "State", "Welcome", "client_adapter",
    "event_schemas", "parse_client", "schemas", "write_schemas",
]

PROTOCOL_VERSION = 1
"""Raised when a message changes incompatibly; a client says which it speaks in its hello."""

MAX_MESSAGE_BYTES = 4096
"""The largest client message the server reads; a larger one is refused (code too_large)."""

Lang = Literal["en", "fi", "sv", "da", "nb", "ru"]
assert set(Lang.__args__) == set(LANGUAGES)  # type: ignore[attr-defined]

Token = Annotated[str, Field(min_length=1, max_length=128, description="a secret token from the REST API")]
ClientActionId = Annotated[str, Field(
    min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$",
    description="chosen by the client, unique per action: a retry with the same id is answered, "
                "not applied twice")]
Version = Annotated[int, Field(ge=0, description="the number of actions the game has accepted")]

ErrorCode = Literal[
    "bad_message", "too_large", "protocol", "hello_first", "unauthorized", "unknown_room",
    "spectator", "other_seat", "not_your_turn", "invalid_action", "illegal_action", "stale",
    "game_over", "conflict", "storage", "not_away", "unknown_bot", "rate_limited",
    "too_many_connections", "internal",
]
ERROR_CODES: tuple[str, ...] = ErrorCode.__args__  # type: ignore[attr-defined]
"""Every error code (see docs/web-protocol.md for what each means and what follows it)."""


class _Message(BaseModel):
    """A protocol message: unknown fields are refused, so a client cannot slip in dice."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def to_json(self) -> str:
        return self.model_dump_json()


# ---- client -> server ---------------------------------------------------------------------

class Hello(_Message):
    """The first message on a connection: who I am (a seat, the table or a spectator)."""

    type: Literal["hello"] = "hello"
    protocol: int = Field(default=PROTOCOL_VERSION, description="the protocol version the client speaks")
    token: Token | None = Field(default=None, description="the seat's, table's or spectator's secret token")
    lang: Lang = Field(default="en", description="the language of this client's views and errors")


class Resume(_Message):
    """The first message after a dropped connection or a reload: the server sends the events
    after ``last_version`` if it still has them, else a full state."""

    type: Literal["resume"] = "resume"
    protocol: int = PROTOCOL_VERSION
    token: Token | None = None
    lang: Lang = "en"
    last_version: Version


class Act(_Message):
    """A move for the client's seat (or, from a hot-seat table, for the seat whose turn it is)."""

    type: Literal["act"] = "act"
    id: ClientActionId
    version: Version = Field(description="the version the client last saw; another one is stale")
    action: str = Field(
        min_length=1, max_length=64,
        description="the move in the action notation: r, k 335, s two_pairs, s n3 4 5, b 11 12")
    seat: int | None = Field(default=None, ge=0,
                             description="the seat acting (optional; must be the token's seat)")


class Ping(_Message):
    """Keeps the connection alive; answered by a pong."""

    type: Literal["ping"] = "ping"
    nonce: str | None = Field(default=None, max_length=64)


class HandToBot(_Message):
    """Hand a seat whose player has been away too long to a bot (the bot plays it, never zeros);
    the seat's player takes it back by connecting again."""

    type: Literal["hand_to_bot"] = "hand_to_bot"
    seat: int = Field(ge=0)
    level: str = Field(default="casual", max_length=20,
                       description="the bot level: random, beginner, casual, ...")


ClientMessage = Annotated[Hello | Resume | Act | Ping | HandToBot, Field(discriminator="type")]
CLIENT_MESSAGES: tuple[type[_Message], ...] = (Hello, Resume, Act, Ping, HandToBot)
client_adapter: TypeAdapter[Hello | Resume | Act | Ping | HandToBot] = TypeAdapter(ClientMessage)


def parse_client(text: str | bytes) -> Hello | Resume | Act | Ping | HandToBot:
    """A client message from its JSON text.

    :raises pydantic.ValidationError: not JSON, not an object of a known type, or a field
        missing, unknown or out of range.
    """
    return client_adapter.validate_json(text)


# ---- server -> client ---------------------------------------------------------------------

class Welcome(_Message):
    """The answer to a hello: who the server takes the client for, and the room's commitment."""

    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    room: str = Field(description="the room's short code")
    role: Literal["seat", "table", "spectator"] = Field(
        description="seat: one seat's player; table: hot seat, acts for every person's seat; "
                    "spectator: watches")
    seat: int | None = Field(description="the seat of a seat's token (None for the table or a spectator)")
    lang: Lang
    commitment: str = Field(description="sha256 hex of the dice seed (see Reveal); shown from the start")
    coach: bool = Field(description="whether the coach may be asked during play in this room")
    version: Version


class State(_Message):
    """A full resync: the game as this client may see it."""

    type: Literal["state"] = "state"
    version: Version
    reason: Literal["welcome", "resume", "stale", "conflict", "request"] = Field(
        description="why the state is sent: a new connection, a resume too old for events, a stale "
                    "action, another server process's write, or the client asked")
    view: GameView


class Events(_Message):
    """What happened since the client's last version (see events.json), and the client's new view."""

    type: Literal["events"] = "events"
    version: Version = Field(description="the version after the last of these events")
    events: list[dict[str, Any]] = Field(
        description="session events (rolled, scored, turn_passed, game_over, ...): docs/protocol/events.json")
    view: GameView


class Ack(_Message):
    """An action was accepted (``duplicate``: it had been already, under this client action id)."""

    type: Literal["ack"] = "ack"
    id: ClientActionId
    version: Version = Field(description="the version right after the action")
    duplicate: bool = False


class Error(_Message):
    """A refusal, in the client's language; nothing changed. ``stale`` and ``conflict`` are
    followed by a full state."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    id: ClientActionId | None = Field(default=None, description="the client action id this answers, if any")
    version: Version | None = Field(default=None, description="the game's version now")


class SeatPresence(BaseModel):
    """Who is at one seat now."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seat: int
    name: str
    kind: Literal["person", "bot"]
    taken: bool = Field(description="a person's seat whose token was handed out")
    connected: bool
    away_for: float | None = Field(description="seconds since its last connection closed (None if connected)")
    may_hand_to_bot: bool = Field(description="away long enough that the others may hand it to a bot")
    stand_in: str | None = Field(description="the level of the bot playing this person's seat, if any")


class Presence(_Message):
    """Who is connected; sent when it changes."""

    type: Literal["presence"] = "presence"
    seats: list[SeatPresence]
    spectators: int
    away_after: float = Field(description="seconds away after which a seat may be handed to a bot")


class Reveal(_Message):
    """At the end: the dice seed behind the commitment, and the whole game to check it with."""

    type: Literal["reveal"] = "reveal"
    commitment: str
    salt: str
    seed: int
    scheme: Literal["sha256(salt:seed)"] = Field(
        default="sha256(salt:seed)",
        description="commitment = sha256 of the UTF-8 text salt + ':' + the seed in decimal, as hex")
    game: dict[str, Any] = Field(description="the save: rules, options, seats, roll_off, first, seed, log")


class Pong(_Message):
    type: Literal["pong"] = "pong"
    nonce: str | None = None


ServerMessage = Annotated[Welcome | State | Events | Ack | Error | Presence | Reveal | Pong,
                          Field(discriminator="type")]
SERVER_MESSAGES: tuple[type[_Message], ...] = (Welcome, State, Events, Ack, Error, Presence, Reveal, Pong)
server_adapter: TypeAdapter[Welcome | State | Events | Ack | Error | Presence | Reveal | Pong] = TypeAdapter(
    ServerMessage)


# ---- JSON schemas -------------------------------------------------------------------------

def _event_classes() -> list[type[Event]]:
    """Every event the session emits (subclasses of Event that are dataclasses), by kind."""
    found: dict[str, type[Event]] = {}
    todo = list(Event.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if is_dataclass(cls):
            found[cls.kind] = cls
    return [found[k] for k in sorted(found)]


def event_schemas() -> dict[str, Any]:
    """One JSON schema for the events inside :class:`Events`: one of the session's events,
    told apart by ``kind``."""
    variants = []
    defs: dict[str, Any] = {}
    for cls in _event_classes():
        schema = TypeAdapter(cls).json_schema(ref_template="#/$defs/{model}")
        defs.update(schema.pop("$defs", {}))
        schema["properties"] = {"kind": {"const": cls.kind, "type": "string"}, **schema["properties"]}
        schema["required"] = ["kind", *[f.name for f in fields(cls)]]
        schema["title"] = cls.kind
        variants.append(schema)
    return {"title": "Event", "description": "A session event, as in Events.events.",
            "oneOf": variants, "$defs": defs}


def _union_schema(title: str, adapter: TypeAdapter[Any], description: str) -> dict[str, Any]:
    schema = adapter.json_schema(ref_template="#/$defs/{model}")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title,
            "description": description, "x-protocol-version": PROTOCOL_VERSION, **schema}


def schemas() -> dict[str, dict[str, Any]]:
    """The protocol's JSON schemas by file name: client and server messages, and events."""
    events = event_schemas()
    return {
        "client-messages.json": _union_schema(
            "ClientMessage", client_adapter, "Every message a client sends, told apart by type."),
        "server-messages.json": _union_schema(
            "ServerMessage", server_adapter, "Every message the server sends, told apart by type."),
        "events.json": {"$schema": "https://json-schema.org/draft/2020-12/schema",
                        "x-protocol-version": PROTOCOL_VERSION, **events},
    }


def write_schemas(folder: str | Path) -> list[Path]:
    """Write :func:`schemas` into ``folder`` (made if missing); returns the files written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas().items():
        path = out / name
        path.write_text(json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n",
                        encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # python -m yatzy.web.protocol docs/protocol
    for written_path in write_schemas(sys.argv[1] if len(sys.argv) > 1 else "docs/protocol"):
        print(written_path)
