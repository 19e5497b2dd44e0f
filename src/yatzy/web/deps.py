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

from fastapi import Depends, HTTPException, Query, Request
from fastapi.requests import HTTPConnection

from ..analysis import Analysis
from ..errors import YatzyError
from ..i18n import _, check_language, language
from ..storage import Database
from .budget import TableBudget
from .protocol import ErrorCode
from .room import Room
from .rooms import Rooms

__all__ = [
    "STATUS", "Analyses", "AnalysesDep", "BaseUrl", "BudgetDep", "Clients", "ClientsDep", "DatabaseDep",
    "LangDep", "RoomDep", "RoomsDep", "Settings", "SettingsDep", "base_url", "get_analyses", "get_budget",
    "get_clients", "get_db", "get_rooms", "get_settings", "http_error", "query_lang", "room_or_404",
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


Clients = Counter[str]
"""Open WebSockets per client address."""

Analyses = dict[tuple[int, int], asyncio.Task[Analysis]]
"""Analyses computed or under way, by (game id, version)."""

STATUS: dict[str, int] = {"unknown_room": 404, "unauthorized": 409, "bad_message": 400, "invalid_action": 400,
                          "game_over": 409, "spectator": 403, "nothing_to_verify": 409, "not_over": 409,
                          "unknown_game": 404, "no_analysis": 422, "not_host": 403, "hot_seat": 403,
                          "bad_host": 400, "not_json": 415, "table_budget": 403, "too_many_builds": 429}
"""The HTTP status of each error code a REST answer carries (400 for one not listed)."""


def http_error(code: ErrorCode, message: str, status: int | None = None) -> HTTPException:
    """A refusal as a REST answer: ``{"detail": {"code": ..., "message": ...}}`` with the
    code's :data:`STATUS` (or ``status``)."""
    return HTTPException(status or STATUS.get(code, 400), detail={"code": code, "message": message})


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


RoomsDep = Annotated[Rooms, Depends(get_rooms)]
DatabaseDep = Annotated[Database, Depends(get_db)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
ClientsDep = Annotated[Clients, Depends(get_clients)]
AnalysesDep = Annotated[Analyses, Depends(get_analyses)]
BudgetDep = Annotated[TableBudget, Depends(get_budget)]


# ---- from the request ------------------------------------------------------------------------

def query_lang(lang: str = Query("en")) -> str:
    """The ``lang`` asked, one of the six languages (checked by :func:`yatzy.i18n.check_language`,
    the one check; anything else is a 400 naming the six)."""
    try:
        return check_language(lang)
    except YatzyError as e:
        raise http_error("bad_message", str(e)) from None


LangDep = Annotated[str, Depends(query_lang)]


async def room_or_404(code: str, rooms: RoomsDep, lang: LangDep) -> Room:
    """The room of the path's ``code``; 404 ``unknown_room`` if there is none."""
    room = await rooms.get(code)
    if room is None:
        with language(lang):
            raise http_error("unknown_room", _("there is no room {code}").format(code=code))
    return room


RoomDep = Annotated[Room, Depends(room_or_404)]


def base_url(request: Request, settings: SettingsDep) -> str:
    """The address links start with: the public URL if one was given, else the request's."""
    return (settings.public_url or str(request.base_url)).rstrip("/")


BaseUrl = Annotated[str, Depends(base_url)]
