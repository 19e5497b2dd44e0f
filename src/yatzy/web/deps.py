"""What the routes depend on, as FastAPI dependencies (each with an ``Annotated`` alias to
put in a route's signature): the app's rooms, database and settings (kept on ``app.state`` by
:func:`~yatzy.web.app.create_app`), the language asked, a room by its code, and the address
links start with. :func:`http_error` is the one way a refusal becomes a REST answer.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Query, Request
from fastapi.requests import HTTPConnection

from ..analysis import Analysis
from ..errors import YatzyError
from ..i18n import _, check_language, language
from ..storage import Database
from .budget import TableBudget
from .limits import Limited, Limits
from .protocol import ErrorCode
from .room import Room
from .rooms import Rooms
from .security import client_address

__all__ = [
    "MAX_ROOM_TOKENS", "STATUS", "Analyses", "AnalysesDep", "BaseUrl", "BudgetDep", "Clients", "ClientsDep",
    "DatabaseDep", "LangDep", "LimitsDep", "RoomDep", "RoomTokensDep", "RoomsDep", "Settings", "SettingsDep",
    "base_url", "find_room", "get_analyses", "get_budget", "get_clients", "get_db", "get_limits",
    "get_rooms", "get_settings", "http_error", "limited", "no_room", "query_lang", "room_or_404",
    "room_tokens",
]


@dataclass(frozen=True)
class Settings:
    """How :func:`~yatzy.web.app.create_app` was told to serve (see its docstring)."""

    public_url: str | None
    """The address invite links start with; None: the request's own."""
    coach_wait: float
    """Seconds the coach and the analysis wait for a table being built before "preparing"."""
    max_connections_per_client: int
    rate: float
    """WebSocket messages per second per connection; more are read later."""
    burst: int
    hello_timeout: float
    public_history: bool = False
    """Whether anyone may list and replay every stored game; else each caller sees the games
    of the rooms whose tokens it shows (:func:`room_tokens`)."""


Clients = Counter[str]
"""Open WebSockets per client address."""

Analyses = dict[tuple[int, int], asyncio.Task[Analysis]]
"""Analyses computed or under way, by (game id, version)."""

STATUS: dict[str, int] = {"unknown_room": 404, "unauthorized": 409, "bad_message": 400, "invalid_action": 400,
                          "game_over": 409, "spectator": 403, "nothing_to_verify": 409, "not_over": 409,
                          "unknown_game": 404, "no_analysis": 422, "not_host": 403, "hot_seat": 403,
                          "seat_kept": 409, "bad_host": 400, "not_json": 415, "table_budget": 403,
                          "too_many_builds": 429, "too_many_lookups": 429, "too_many_rooms": 429}
"""The HTTP status of each error code a REST answer carries (400 for one not listed)."""


def http_error(code: ErrorCode, message: str, status: int | None = None) -> HTTPException:
    """A refusal as a REST answer: ``{"detail": {"code": ..., "message": ...}}`` with the
    code's :data:`STATUS` (or ``status``)."""
    return HTTPException(status or STATUS.get(code, 400), detail={"code": code, "message": message})


def limited(refusal: Limited) -> HTTPException:
    """Too many lookups or new rooms as a REST answer: 429 with ``Retry-After`` (seconds)."""
    return HTTPException(STATUS[refusal.code], detail={"code": refusal.code, "message": refusal.message},
                         headers={"Retry-After": str(refusal.retry_after)})


# ---- the app's state -------------------------------------------------------------------------

def get_rooms(connection: HTTPConnection) -> Rooms:
    return connection.app.state.rooms  # type: ignore[no-any-return]


def get_db(connection: HTTPConnection) -> Database:
    return connection.app.state.db  # type: ignore[no-any-return]


def get_settings(connection: HTTPConnection) -> Settings:
    return connection.app.state.settings  # type: ignore[no-any-return]


def get_clients(connection: HTTPConnection) -> Clients:
    return connection.app.state.clients  # type: ignore[no-any-return]


def get_analyses(connection: HTTPConnection) -> Analyses:
    return connection.app.state.analyses  # type: ignore[no-any-return]


def get_budget(connection: HTTPConnection) -> TableBudget:
    return connection.app.state.budget  # type: ignore[no-any-return]


def get_limits(connection: HTTPConnection) -> Limits:
    return connection.app.state.limits  # type: ignore[no-any-return]


RoomsDep = Annotated[Rooms, Depends(get_rooms)]
DatabaseDep = Annotated[Database, Depends(get_db)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
ClientsDep = Annotated[Clients, Depends(get_clients)]
AnalysesDep = Annotated[Analyses, Depends(get_analyses)]
BudgetDep = Annotated[TableBudget, Depends(get_budget)]
LimitsDep = Annotated[Limits, Depends(get_limits)]


# ---- from the request ------------------------------------------------------------------------

def query_lang(lang: str = Query("en")) -> str:
    """The ``lang`` asked, one of the six languages (checked by :func:`yatzy.i18n.check_language`,
    the one check; anything else is a 400 naming the six)."""
    try:
        return check_language(lang)
    except YatzyError as e:
        raise http_error("bad_message", str(e)) from None


LangDep = Annotated[str, Depends(query_lang)]

MAX_ROOM_TOKENS = 200
"""Tokens one request may show in ``X-Room-Tokens`` (the page sends its newest rooms')."""


def room_tokens(lang: LangDep, x_room_tokens: Annotated[str | None, Header(
        max_length=MAX_ROOM_TOKENS * 130,
        description="the caller's room tokens, separated by commas or spaces: the history shows "
                    "their rooms' games")] = None) -> list[str]:
    """The room tokens a request shows (in a header: a token is never in a URL); 400
    ``bad_message`` for more than :data:`MAX_ROOM_TOKENS` or one longer than a token."""
    tokens = (x_room_tokens or "").replace(",", " ").split()
    if len(tokens) > MAX_ROOM_TOKENS or any(len(t) > 128 for t in tokens):
        with language(lang):
            raise http_error("bad_message", _("X-Room-Tokens holds at most {n} tokens of at most 128 "
                                              "characters each").format(n=MAX_ROOM_TOKENS))
    return tokens


RoomTokensDep = Annotated[list[str], Depends(room_tokens)]


async def find_room(code: str, rooms: Rooms, limits: Limits, client: str) -> Room | None:
    """The room of ``code``, the lookup counted against the client address's limits
    (:mod:`.limits`); None if there is none (or it has expired).

    :raises Limited: too many lookups from the address (nothing looked up).
    :raises StorageError: the database failed.
    """
    limits.before_lookup(client)
    room = await rooms.get(code)
    limits.looked_up(client, room is not None)
    return room


def no_room(code: str, expired: bool) -> str:
    """Why there is no room ``code``, in the current language: it has ``expired``, or there never was one."""
    if expired:
        return _("room {code} has ended and expired: its game is in the history of those who "
                 "played it").format(code=code.strip().upper())
    return _("there is no room {code}").format(code=code)


async def room_or_404(code: str, request: Request, rooms: RoomsDep, limits: LimitsDep, lang: LangDep) -> Room:
    """The room of the path's ``code``; 404 ``unknown_room`` if there is none (or it has
    expired: the message says so), 429 ``too_many_lookups`` after too many lookups from the
    client's address."""
    with language(lang):
        try:
            room = await find_room(code, rooms, limits, client_address(request))
        except Limited as e:
            raise limited(e) from None
        if room is None:
            expired = await rooms.expired(code)
            raise HTTPException(STATUS["unknown_room"], detail={
                "code": "unknown_room", "message": no_room(code, expired), "expired": expired})
    return room


RoomDep = Annotated[Room, Depends(room_or_404)]


def base_url(request: Request, settings: SettingsDep) -> str:
    """The address links start with: the public URL if one was given, else the request's."""
    return (settings.public_url or str(request.base_url)).rstrip("/")


BaseUrl = Annotated[str, Depends(base_url)]
