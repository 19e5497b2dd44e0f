"""The WebSocket protocol: every message both ways, as pydantic models, and their JSON schemas.

A client opens ``/ws/rooms/{code}``, sends :class:`Hello` (or :class:`Resume` after a dropped
connection) with its secret token, and gets :class:`Welcome` plus either a full
:class:`State` or the :class:`Events` it missed. It then sends :class:`Act` with a client
action id, the version it last saw and an action in the project's notation (``r``,
``k 335``, ``s two_pairs``, ``s n3 4 5``, ``b 11 12``); the server answers :class:`Ack`
or :class:`Error`, and every client of the room gets :class:`Events` with its own new view
(:class:`Sync` asks for a full :class:`State` at any time). At the end of the game the
server sends :class:`Reveal`: the dice seed behind the commitment shown from the start.

Every message is one JSON object with a ``type``. ``python -m yatzy.web.protocol DIR``
writes the JSON schemas (``docs/protocol`` in the repository; a test keeps them current);
``docs/web-protocol.md`` is the guide to writing a client or a bot.
"""

from __future__ import annotations

import json
import sys
from dataclasses import fields
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from ..events import EVENTS
from ..names import LANGUAGES
from ..views import GameView

__all__ = [
    "CLIENT_MESSAGES", "ERROR_CODES", "MAX_MESSAGE_BYTES", "PROTOCOL_VERSION", "SERVER_MESSAGES", "Ack",
    "Act", "Amend", "AnyClientMessage", "BotsPreparing", "ClientMessage", "CoachAdvice", "CoachOption",
    "CoachRequest", "Error", "ErrorCode", "Events", "HandToBot", "Hello", "Ping", "Pong", "Presence",
    "RematchOffer", "Resume", "Reveal", "SeatPresence", "ServerMessage", "State", "Sync", "Undo", "Welcome",
    "client_adapter", "event_schemas", "parse_client", "schemas", "write_schemas",
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
    "game_over", "conflict", "storage", "not_away", "unknown_bot",
    "too_many_connections", "internal",
    # the coach, scorekeeper rooms, and the REST features (history, analysis)
    "coach_off", "no_dice", "bad_target", "not_keeper", "nothing_to_verify",
    "not_over", "unknown_game", "no_analysis",
    # the host's say over the seats, and the seat rules of each kind of room
    "not_host", "hot_seat", "bot_level", "seat_kept",
    # the web's ordinary defences (REST only: yatzy.web.security)
    "bad_host", "not_json",
    # the server's budget for solver tables (yatzy.web.budget)
    "table_budget", "too_many_builds",
    # how fast one address may look rooms up and make them (yatzy.web.limits)
    "too_many_lookups", "too_many_rooms",
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
    """A move for the client's seat (or, from a hot-seat table, for the seat whose turn it is).

    In a scorekeeper room (``dice_from`` "players") a roll carries the dice thrown at the
    table: ``r = 13356`` (the dice now on the table: the server finds the roll that reaches
    them, keeping as many of the dice before as it can) or ``k 335 = 46`` (kept 3 3 5, threw
    4 6). Anywhere else a roll naming its dice is refused (invalid_action)."""

    type: Literal["act"] = "act"
    id: ClientActionId
    version: Version = Field(description="the version the client last saw; another one is stale")
    action: str = Field(
        min_length=1, max_length=64,
        description="the move in the action notation: r, k 335, s two_pairs, s n3 4 5, b 11 12; in a "
                    "scorekeeper room rolls carry the dice thrown: r = 13356, k 335 = 46")
    seat: int | None = Field(default=None, ge=0,
                             description="the seat acting (optional; must be the token's seat)")


class Ping(_Message):
    """Keeps the connection alive; answered by a pong."""

    type: Literal["ping"] = "ping"
    nonce: str | None = Field(default=None, max_length=64)


class Sync(_Message):
    """Ask for the game as it stands now: answered by a full :class:`State` (reason
    ``request``), after which events follow from its version. For a client that doubts its
    view (a message lost, a bug) without closing the connection; a reconnect resumes instead."""

    type: Literal["sync"] = "sync"


class HandToBot(_Message):
    """Hand a seat whose player has been away too long to a bot (the bot plays it, never zeros);
    the seat's player takes it back by connecting again."""

    type: Literal["hand_to_bot"] = "hand_to_bot"
    seat: int = Field(ge=0)
    level: str | None = Field(default=None, max_length=20,
                              description="the bot level: the room's (presence's stand_in_level) when "
                                          "left out; another is refused (bot_level)")


class CoachRequest(_Message):
    """Ask the coach about the position of the asking seat's turn (a hot-seat table: the turn
    being played): answered by a :class:`CoachAdvice` with the same ``id``, or an error
    (coach_off while the room's coach is off, not_your_turn, no_dice before the turn's first
    roll, spectator, game_over)."""

    type: Literal["coach"] = "coach"
    id: ClientActionId | None = Field(default=None, description="echoed in the answer")
    target: int | None = Field(default=None, description="rank by the chance of ending the game with at "
                                                         "least this final score (0 to the game's most; "
                                                         "else bad_target); none: by expected score")


class Undo(_Message):
    """Scorekeeper rooms only: take back the last typed entry (dice typed wrong, or the last
    score before the next player typed anything), if it was this seat's (the table: anyone's)."""

    type: Literal["undo"] = "undo"
    id: ClientActionId
    version: Version = Field(description="the version the client last saw; another one is stale")


class Amend(_Message):
    """Scorekeeper rooms only: correct a finished turn (``Session.amend``); every later turn is
    replayed on top of it and the correction is recorded in the game. Give either ``dice``
    and ``box`` (the dice as they lay when the box was filled, and the box to fill: the turn's
    earlier throws stay) or the whole turn in ``actions``. Only the turn's own seat (or the
    table) may correct it; a finished game may still be corrected."""

    type: Literal["amend"] = "amend"
    id: ClientActionId
    version: Version = Field(description="the version the client last saw; another one is stale")
    turn: int = Field(ge=0, le=1000,
                      description="the finished turn, 0 first, as in GET /api/rooms/{code}/rounds")
    dice: list[Annotated[int, Field(ge=1, le=6)]] | None = Field(
        default=None, min_length=1, max_length=6, description="the dice when the box was filled")
    box: str | None = Field(default=None, max_length=40, description="the box filled, e.g. chance")
    returns: list[Annotated[int, Field(ge=1, le=12)]] | None = Field(
        default=None, max_length=12,
        description="DOZZY, with dice and box: the tiles that came back as the box was filled "
                    "(none: the turn's own if the box stays; a refusal names the choices)")
    actions: list[Annotated[str, Field(min_length=1, max_length=64)]] | None = Field(
        default=None, min_length=1, max_length=20,
        description="the whole turn in the notation with its dice: "
                    "[\"r = 12345\", \"k 55 = 126\", \"s fives\"]")

    @model_validator(mode="after")
    def _one_form(self) -> Amend:
        if (self.actions is None) == (self.dice is None or self.box is None) or \
                (self.actions is not None and (self.dice is not None or self.box is not None
                                               or self.returns is not None)):
            raise ValueError("give dice and box (and returns), or actions")
        return self


AnyClientMessage = Hello | Resume | Act | Ping | Sync | HandToBot | CoachRequest | Undo | Amend
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
CLIENT_MESSAGES: tuple[type[_Message], ...] = (Hello, Resume, Act, Ping, Sync, HandToBot, CoachRequest, Undo,
                                               Amend)
client_adapter: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


def parse_client(text: str | bytes) -> AnyClientMessage:
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
    commitment: str = Field(description="sha256 hex of the dice seed (see Reveal); shown from the start "
                                        "(empty in a scorekeeper room: no seed, nothing to reveal)")
    coach: bool = Field(description="whether the coach may be asked during play in this room")
    version: Version
    dice_from: Literal["server", "players"] = Field(
        default="server",
        description="server: the server rolls (seed committed, revealed at the end); players: a scorekeeper "
                    "room, the players type the dice they threw at a real table: no fairness commitment, "
                    "no reveal, nothing to verify")


class State(_Message):
    """A full resync: the game as this client may see it."""

    type: Literal["state"] = "state"
    version: Version
    reason: Literal["welcome", "resume", "stale", "conflict", "request"] = Field(
        description="why the state is sent: a new connection, a resume too old for events, a stale "
                    "action, another server process's write, or the client asked (sync)")
    view: GameView


class Events(_Message):
    """What happened since the client's last version (see events.json), and the client's new view."""

    type: Literal["events"] = "events"
    version: Version = Field(description="the version after the last of these events")
    events: list[dict[str, Any]] = Field(
        description="session events (rolled, scored, turn_passed, game_over, ...), each with its words "
                    "in text: docs/protocol/events.json")
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
    expired: bool | None = Field(default=None, description="unknown_room: true if the room was there and has "
                                                            "expired (its game stays in the history of its "
                                                            "tokens), false if there never was one")


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
    stand_in_level: str | None = Field(
        default=None, description="the bot level a seat handed to a bot gets (hand_to_bot's level): the "
                                  "strongest of the room's own bots', or the strongest level there is")


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
    roll_off_rounds: list[list[tuple[int, int]]] = Field(
        default_factory=list,
        description="the roll-off's dice, the seed's first draws (the save says only that there was one): "
                    "each round's [seat, die] pairs in seat order, the seats tied for the highest rolling "
                    "again; empty without a roll-off")


class Pong(_Message):
    type: Literal["pong"] = "pong"
    nonce: str | None = None


class CoachOption(BaseModel):
    """One move the coach ranks (``yatzy.solver.coach.Option``), best first."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action: str = Field(description="the move in the action notation: k 335, s chance "
                                    "(DOZZY: as the bot plays it)")
    description: str = Field(description="the move in words, in the client's language")
    value: float | None = Field(description="expected points still to come from here, this turn included "
                                            "(None for DOZZY's heuristic)")
    regret: float | None = Field(description="expected points this move loses against the best "
                                             "(0 for the best)")
    points: int | None = Field(default=None, description="a score: the points the box makes now")
    odds: dict[str, float] = Field(
        default_factory=dict, description="a keep: the chance of making each open box by the end of the turn")
    chance: float | None = Field(default=None, description="with a target: the chance of ending the game "
                                                           "with it or more, playing for it from here on")


class CoachAdvice(_Message):
    """The coach's answer for the position of ``version``: ``ready`` (the exact solver's ranked
    moves), ``preparing`` (the ruleset's table is being built, once per server: ``progress``
    0..1; the answer follows by itself when it is ready, or ask again) or ``heuristic`` (DOZZY:
    no exact table; the DOZZY bot's move, with a ``note``)."""

    type: Literal["coach"] = "coach"
    id: ClientActionId | None = None
    version: Version
    seat: int = Field(description="the seat whose position this is")
    status: Literal["ready", "preparing", "heuristic"]
    options: list[CoachOption] = Field(default_factory=list, description="best first")
    progress: float | None = Field(default=None, description="preparing: share of the table built, 0..1")
    place: int | None = Field(default=None, ge=1, description="preparing: the build's place in the "
                                                               "server's queue of builds (1: the next)")
    note: str | None = Field(default=None, description="a remark for the player, in the client's language")
    target: int | None = Field(default=None, description="the request's target: the options carry their "
                                                         "chance of it, best first, or (too early in the "
                                                         "game, saved rolls) ``refused`` says why not")
    refused: str | None = Field(default=None, description="why the target's chances were not worked out, "
                                                          "in words; the options are then by expected score")


class BotsPreparing(_Message):
    """The table the room's solver bots play from is being built (once per server: seconds for
    most rulesets, minutes for Maxi): sent after the state while it is, again as it comes
    further (while it waits for its turn in the server's queue of builds, with its ``place``),
    and once more at stage ``ready``. The people play their turns meanwhile; the bots
    move once it is ready."""

    type: Literal["preparing"] = "preparing"
    stage: Literal["loading", "building", "ready"] = Field(
        description="loading: looking for a stored table; building: solving it; ready: the bots play")
    progress: float | None = Field(default=None, description="building: share of the table built, 0..1")
    text: str = Field(description="what is being done, in the client's language: \"building the Maxi "
                                  "table for the strong bot\"")
    place: int | None = Field(default=None, ge=1, description="loading: the build waits for its turn, "
                                                               "at this place in the server's queue of "
                                                               "builds (1: the next)")
    seconds_left: float | None = Field(default=None, ge=0, description="building: the time left, from "
                                                                        "the rate measured so far")


class RematchOffer(_Message):
    """After the game, someone asked for a rematch: a new room with the same seats and rules
    (``POST /api/rooms/{code}/rematch`` with this room's token gives your seat's token there)."""

    type: Literal["rematch"] = "rematch"
    room: str = Field(description="the rematch room's code")


ServerMessage = Annotated[Welcome | State | Events | Ack | Error | Presence | Reveal | Pong | CoachAdvice
                          | BotsPreparing | RematchOffer, Field(discriminator="type")]
SERVER_MESSAGES: tuple[type[_Message], ...] = (Welcome, State, Events, Ack, Error, Presence, Reveal, Pong,
                                               CoachAdvice, BotsPreparing, RematchOffer)
AnyServerMessage = (Welcome | State | Events | Ack | Error | Presence | Reveal | Pong | CoachAdvice
                    | BotsPreparing | RematchOffer)
server_adapter: TypeAdapter[AnyServerMessage] = TypeAdapter(ServerMessage)


# ---- JSON schemas -------------------------------------------------------------------------

EVENT_TEXT = {"type": "string", "title": "Text",
              "description": "the event in words, in the connection's language (yatzy.narration): "
                             "\"Ann keeps 3 3 and rolls again (roll 2): 3 3 4 5 6.\" Optional: a client "
                             "that finds none words the event itself"}
"""The optional ``text`` of every event: what a client shows or announces."""


def event_schemas() -> dict[str, Any]:
    """One JSON schema for the events inside :class:`Events`: one of the session's events,
    told apart by ``kind``, with its words in an optional ``text``."""
    variants = []
    defs: dict[str, Any] = {}
    for kind in sorted(EVENTS):
        cls = EVENTS[kind]
        schema = TypeAdapter(cls).json_schema(ref_template="#/$defs/{model}")
        defs.update(schema.pop("$defs", {}))
        schema["properties"] = {"kind": {"const": cls.kind, "type": "string"}, **schema["properties"],
                                "text": EVENT_TEXT}
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
