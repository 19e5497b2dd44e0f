"""The game's WebSocket, ``/ws/rooms/{code}``: one :class:`~yatzy.web.connection.Connection`
per client, at most ``max_connections_per_client`` of them from one address
(:func:`~yatzy.web.security.client_address`), its code looked up within the address's limits
(:mod:`yatzy.web.limits`). The refusal of too many connections comes before the hello (which
names the client's language) is read, so it is worded in the URL's ``lang``, the page's."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from ...i18n import LANGUAGES, _, language
from ..connection import Connection, refuse
from ..deps import ClientsDep, LimitsDep, RoomsDep, SettingsDep, find_room, no_room
from ..limits import Limited
from ..security import client_address

__all__ = ["router"]

router = APIRouter()


@router.websocket("/ws/rooms/{code}")
async def room_socket(websocket: WebSocket, code: str, rooms: RoomsDep, settings: SettingsDep,
                      clients: ClientsDep, limits: LimitsDep) -> None:
    """The game: the protocol of docs/web-protocol.md."""
    address = client_address(websocket)
    await websocket.accept()
    if clients[address] >= settings.max_connections_per_client:
        lang = websocket.query_params.get("lang", "en")
        with language(lang if lang in LANGUAGES else "en"):
            await refuse(websocket, "too_many_connections",
                         _("too many connections from your address ({n} at most)").format(
                             n=settings.max_connections_per_client), 1008)
        return
    try:  # the code is looked up as REST looks it up (limited per address); the hello's lang is not known yet
        if await find_room(code, rooms, limits, address) is None:
            expired = await rooms.expired(code)
            await refuse(websocket, "unknown_room", no_room(code, expired), 1008, expired=expired)
            return
    except Limited as e:
        await refuse(websocket, e.code, e.message, 1008)
        return
    clients[address] += 1
    try:
        await Connection(rooms, websocket, code, rate=settings.rate, burst=settings.burst,
                         hello_timeout=settings.hello_timeout, coach_wait=settings.coach_wait).run()
    finally:
        clients[address] -= 1
        if not clients[address]:
            del clients[address]
