"""The FastAPI app ``yatzy serve`` runs: rooms over REST, games over a WebSocket.

REST (documented in the generated OpenAPI at ``/docs``): make a room, read it, join a seat
(a secret token), spectate, the invite as a QR code, and after the game the data that
proves the dice fair. WebSocket ``/ws/rooms/{code}``: the protocol of
:mod:`yatzy.web.protocol`, one :class:`~yatzy.web.connection.Connection` per client.

Limits, each refused with a clear error: messages over :data:`~yatzy.web.protocol.MAX_MESSAGE_BYTES`,
more than ``max_connections_per_client`` connections from one address, and no hello within
``hello_timeout`` seconds. A connection sending faster than the rate limit is read more
slowly (its messages wait, none is dropped).
"""

from __future__ import annotations

import asyncio
import gc
import io
import logging
import sys
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import segno
from fastapi import FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from ..bots import BOTS, level_name
from ..errors import YatzyError
from ..game import Game
from ..i18n import _, language
from ..registry import VARIANTS, get_ruleset
from ..seats import Seat
from ..storage import Database
from .connection import Connection, refuse, reveal_of
from .features import router as features_router
from .protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    ErrorCode,
    Lang,
)
from .pubsub import PubSub
from .rooms import Refusal, Room, Rooms, RoomSettings
from .schemas import (
    CreateRoom,
    Joined,
    JoinRequest,
    RoomCreated,
    RoomInfo,
    SeatInfo,
    Spectating,
    Verification,
)

log = logging.getLogger(__name__)

__all__ = ["create_app", "run_server"]


STATUS: dict[str, int] = {"unknown_room": 404, "unauthorized": 409, "bad_message": 400, "invalid_action": 400,
                          "game_over": 409, "spectator": 403, "nothing_to_verify": 409}


def _http_error(code: ErrorCode, message: str) -> HTTPException:
    return HTTPException(STATUS.get(code, 400), detail={"code": code, "message": message})


# ---- the app --------------------------------------------------------------------------------

def create_app(db_url: str | None = None, pubsub_url: str | None = None, *, db: Database | None = None,
               max_connections_per_client: int = 16, rate: float = 20.0, burst: int = 40,
               hello_timeout: float = 10.0, public_url: str | None = None,
               coach_wait: float = 1.0) -> FastAPI:
    """The web server's app: rooms stored in ``db_url`` (SQLite in the data folder by default;
    ``postgresql://...`` for PostgreSQL), events fanned out through ``pubsub_url`` (in
    process by default).

    ``rate`` messages per second (``burst`` at once) per connection, more are read later;
    ``public_url`` is the address invite links start with (the request's own by default);
    ``coach_wait``: seconds the coach (and the analysis) wait for a table being built before
    answering "preparing".

    :raises StorageError: the database cannot be opened or migrated.
    :raises InvalidActionError: an unknown pub/sub URL.
    """
    database = db or Database(db_url)
    database.use_wal()
    pubsub = PubSub.from_url(pubsub_url)
    rooms = Rooms(database, pubsub)
    clients: Counter[str] = Counter()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        resuming = asyncio.get_running_loop().create_task(rooms.resume())  # bots play on after a restart
        yield
        resuming.cancel()
        await rooms.close()
        await pubsub.close()
        if db is None:
            database.close()

    app = FastAPI(title="yatzy", version=str(PROTOCOL_VERSION), lifespan=lifespan,
                  description="Rooms for Yatzy games. The WebSocket protocol is documented in "
                              "docs/web-protocol.md and docs/protocol/*.json.")
    app.state.rooms = rooms
    app.state.db = database
    app.state.coach_wait = coach_wait
    app.include_router(features_router)

    async def room_or_404(code: str, lang: str) -> Room:
        room = await rooms.get(code)
        if room is None:
            with language(lang):
                raise _http_error("unknown_room", _("there is no room {code}").format(code=code))
        return room

    def base_url(request: Request) -> str:
        return (public_url or str(request.base_url)).rstrip("/")

    def check_lang(lang: str) -> str:
        return lang if lang in Lang.__args__ else "en"  # type: ignore[attr-defined]

    @app.post("/api/rooms", response_model=RoomCreated, status_code=201)
    async def create_room(spec: CreateRoom, request: Request) -> RoomCreated:
        """Make a room: a new game with its seed from ``secrets`` and the seed's commitment."""
        with language(spec.lang):
            try:
                ruleset = get_ruleset(spec.ruleset, **spec.options)
                seats = [Seat.bot(s.level or "", s.name) if s.kind == "bot" else
                         Seat(s.name or _("Player {n}").format(n=i + 1)) for i, s in enumerate(spec.seats)]
                if spec.dice_from == "players" and any(s.is_bot for s in seats):
                    raise YatzyError(_("a scorekeeper room is for people at a real table: no bots"))
                game = Game(ruleset, seats, roll_off=spec.roll_off, dice_from=spec.dice_from)
                settings = RoomSettings(coach=spec.coach, spectators=spec.spectators, hot_seat=spec.hot_seat,
                                        bot_pace=spec.bot_pace, away_after=spec.away_after, lang=spec.lang)
                room, table = await rooms.create(game, settings)
            except YatzyError as e:
                raise _http_error("invalid_action", str(e)) from None
        base = base_url(request)
        return RoomCreated(code=room.code, invite_url=f"{base}/r/{room.code}",
                           qr_url=f"{base}/api/rooms/{room.code}/qr.svg", commitment=room.commitment,
                           table_token=table, version=room.version)

    @app.get("/api/rooms/{code}", response_model=RoomInfo)
    async def room_info(code: str, lang: str = Query("en")) -> RoomInfo:
        """A room as anyone with its code may see it (no token, no seed)."""
        room = await room_or_404(code, check_lang(lang))
        g = room.game
        return RoomInfo(
            code=room.code, protocol=PROTOCOL_VERSION, ruleset=g.ruleset.name,
            options=dict(g.ruleset.options),
            seats=[SeatInfo(seat=i, name=s.name, kind=s.kind, level=s.level, taken=i in room.taken,
                            stand_in=room.stand_ins.get(i)) for i, s in enumerate(g.seats)],
            version=room.version, over=room.over, commitment=room.commitment, coach=room.settings.coach,
            spectators=room.settings.spectators, hot_seat=room.settings.hot_seat,
            dice_from=room.game.dice_from, game_id=room.game_id)  # type: ignore[arg-type]

    @app.post("/api/rooms/{code}/join", response_model=Joined)
    async def join(code: str, body: JoinRequest | None = None, lang: str = Query("en")) -> Joined:
        """Take a person's seat: its secret token is handed out once."""
        lang = check_lang(lang)
        room = await room_or_404(code, lang)
        with language(lang):
            try:
                seat, token = await rooms.join(room, body.seat if body else None)
            except Refusal as r:
                raise _http_error(r.code, r.message) from None
        return Joined(seat=seat, token=token)

    @app.post("/api/rooms/{code}/spectate", response_model=Spectating)
    async def spectate(code: str, lang: str = Query("en")) -> Spectating:
        """A spectator's token, if the room has spectators."""
        lang = check_lang(lang)
        room = await room_or_404(code, lang)
        with language(lang):
            try:
                return Spectating(token=await rooms.spectate(room))
            except Refusal as r:
                raise HTTPException(403, detail={"code": r.code, "message": r.message}) from None

    @app.get("/api/rooms/{code}/qr.svg", response_class=Response,
             responses={200: {"content": {"image/svg+xml": {}}}})
    async def qr_code(code: str, request: Request, lang: str = Query("en")) -> Response:
        """The invite link as a QR code, for a phone at the table."""
        room = await room_or_404(code, check_lang(lang))
        out = io.BytesIO()
        segno.make(f"{base_url(request)}/r/{room.code}", error="m").save(out, kind="svg", scale=4, border=2)
        return Response(out.getvalue(), media_type="image/svg+xml")

    @app.get("/api/rooms/{code}/verify", response_model=Verification)
    async def verify(code: str, lang: str = Query("en")) -> Verification:
        """After the game: the seed and salt behind the commitment and the whole game, so
        anyone can check every roll (``yatzy verify``)."""
        lang = check_lang(lang)
        room = await room_or_404(code, lang)
        if room.keeper:
            with language(lang):
                raise _http_error("nothing_to_verify", _(
                    "in a scorekeeper room the players typed the dice they threw: there is no seed and "
                    "nothing to verify"))
        if not room.over:
            with language(lang):
                raise _http_error("game_over", _("the dice seed is revealed when the game is over"))
        return Verification(code=room.code, **reveal_of(room).model_dump(exclude={"type"}))

    @app.websocket("/ws/rooms/{code}")
    async def room_socket(websocket: WebSocket, code: str) -> None:
        """The game: the protocol of docs/web-protocol.md."""
        address = websocket.client.host if websocket.client else "unknown"
        await websocket.accept()
        if clients[address] >= max_connections_per_client:
            await refuse(websocket, "too_many_connections",
                          _("too many connections from your address ({n} at most)").format(
                              n=max_connections_per_client), 1008)
            return
        clients[address] += 1
        try:
            await Connection(rooms, websocket, code, rate=rate, burst=burst,
                             hello_timeout=hello_timeout, coach_wait=coach_wait).run()
        finally:
            clients[address] -= 1
            if not clients[address]:
                del clients[address]

    _serve_page(app, check_lang)
    return app


def run_server(app: FastAPI, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info") -> None:
    """Serve ``app`` with uvicorn until stopped (what ``yatzy serve`` runs).

    Everything loaded so far (the code, the rules, the app) lives as long as the process, so
    it is collected once and frozen out of the garbage collector's reach: a full collection
    then walks only what games made since, a few milliseconds instead of over 100 ms of a
    stopped server. With hundreds of games going, what they hold still takes a full
    collection 50–100 ms here, so full collections come ten times less often than Python's
    default (each once the survivors of 100 middle collections have piled up, not 10).
    WebSocket messages larger than a client may send are not read, and none is compressed
    (rooms' messages are small; deflating them costs more time than it saves).
    The interpreter switches threads every 0.5 ms instead of 5: the thread that commits
    every room's actions gives up the GIL at each round trip to the database and, with the
    default, waited up to 5 ms each time to get it back from the busy event loop (PostgreSQL
    with Redis, 200 games: p99 79–127 ms instead of 140–311 ms).
    """
    import uvicorn

    gc.collect()
    gc.freeze()
    gc.set_threshold(*gc.get_threshold()[:2], 100)
    sys.setswitchinterval(0.0005)
    uvicorn.run(app, host=host, port=port, ws_max_size=4 * MAX_MESSAGE_BYTES, ws_per_message_deflate=False,
                log_level=log_level)


# ---- the browser page (static files, no build step) -------------------------------------------

STATIC = Path(__file__).parent / "static"


def _serve_page(app: FastAPI, check_lang: Any) -> None:
    """The page: ``/`` (the lobby) and ``/r/{code}`` (a room's invite link) are index.html,
    its files are under ``/static``; ``/api/catalog`` names the rulesets, their options and
    the bot levels in a language, for the lobby's form."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/r/{code}", include_in_schema=False)
    async def room_page(code: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/catalog")
    async def catalog(lang: str = Query("en")) -> dict[str, Any]:
        """Rulesets (title, house-rule options with their values) and bot levels, in ``lang``."""
        with language(check_lang(lang)):
            return {
                "rulesets": [{"id": e.name, "title": _(e.title), "options": [
                    {"name": o.name, "help": _(o.help), "default": o.default,
                     "choices": None if o.choices is None else [
                         {"value": c, "label": o.label(c)} for c in o.choices],
                     "low": o.low, "high": o.high} for o in e.options]} for e in VARIANTS],
                "bots": [{"level": b, "name": level_name(b)} for b in BOTS],
            }
