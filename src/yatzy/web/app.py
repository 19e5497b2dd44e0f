"""The FastAPI app ``yatzy serve`` runs: rooms over REST, games over a WebSocket.

REST (documented in the generated OpenAPI at ``/docs``): make a room, read it, join a seat
(a secret token), spectate, the invite as a QR code, and after the game the data that
proves the dice fair, its analysis and the history (:mod:`yatzy.web.routes`; the bodies in
:mod:`yatzy.web.schemas`, what the routes depend on in :mod:`yatzy.web.deps`). WebSocket
``/ws/rooms/{code}``: the protocol of :mod:`yatzy.web.protocol`, one
:class:`~yatzy.web.connection.Connection` per client.

Limits, each refused with a clear error: messages over :data:`~yatzy.web.protocol.MAX_MESSAGE_BYTES`,
more than ``max_connections_per_client`` connections from one address (by default
:data:`CONNECTIONS_PER_ADDRESS`), and no hello within ``hello_timeout`` seconds. The address
is the connection's own, or the one a configured reverse proxy (``proxies``) forwarded:
:func:`~yatzy.web.security.client_address`. A connection sending faster than the rate limit is read more
slowly (its messages wait, none is dropped).
"""

from __future__ import annotations

import asyncio
import gc
import sys
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

from fastapi import FastAPI

from ..solver.warm import warm_up_soon
from ..storage import Database
from . import coaching
from .budget import TableBudget, tables_in_use
from .deps import Settings
from .expiry import Expiry, sweep_forever
from .limits import Limits
from .protocol import MAX_MESSAGE_BYTES, PROTOCOL_VERSION
from .pubsub import PubSub
from .rooms import Rooms
from .routes import analysis, history, page, rooms, socket
from .security import allowed_hosts as host_names
from .security import install
from .security import proxies as proxy_addresses

__all__ = ["CONNECTIONS_PER_ADDRESS", "create_app", "run_server"]

CONNECTIONS_PER_ADDRESS = 256
"""The WebSockets one address may hold at once (``yatzy serve --connections-per-address``):
a school class behind one NAT address, 30 rooms of up to 4 players each with the page open
and a spectator or two per room, is about 150-200; one client alone cannot hold more than
this many (each costs the server a task and its buffers)."""


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Bots play on after a restart and rooms expire on their schedule; at shutdown the rooms,
    the pub/sub and (if the app opened it) the database close."""
    state = app.state
    warm_up_soon()  # a room's first coach answer after an install does not wait for the compiler
    resuming = asyncio.get_running_loop().create_task(state.rooms.resume())
    preparing = asyncio.get_running_loop().create_task(state.budget.prepare())
    sweeping = asyncio.get_running_loop().create_task(sweep_forever(state.rooms, state.expiry))
    yield
    resuming.cancel()
    preparing.cancel()
    sweeping.cancel()
    await state.rooms.close()
    await state.pubsub.close()
    if state.own_db:
        state.db.close()


def create_app(db_url: str | None = None, pubsub_url: str | None = None, *, db: Database | None = None,
               max_connections_per_client: int = CONNECTIONS_PER_ADDRESS, rate: float = 20.0, burst: int = 40,
               hello_timeout: float = 10.0, public_url: str | None = None,
               coach_wait: float = 1.0, allowed_hosts: Iterable[str] | None = None,
               budget: TableBudget | None = None,
               limits: Limits | None = None, expiry: Expiry | None = None,
               public_history: bool = False,
               proxies: Iterable[str] = ()) -> FastAPI:
    """The web server's app: rooms stored in ``db_url`` (SQLite in the data folder by default;
    ``postgresql://...`` for PostgreSQL), events fanned out through ``pubsub_url`` (in
    process by default).

    ``rate`` messages per second (``burst`` at once) per connection, more are read later;
    ``public_url`` is the address invite links start with (the request's own by default);
    ``coach_wait``: seconds the coach (and the analysis) wait for a table being built before
    answering "preparing"; ``allowed_hosts``: the names (``host`` or ``host:port``) a request's
    ``Host`` may be, beside localhost, 127.0.0.1 and the public URL's (None: any, as in tests;
    ``yatzy serve`` always names them); ``proxies``: the reverse proxies (IP addresses or
    networks) whose ``X-Forwarded-For`` names the client (none: the connection's own address
    always). The defences of :mod:`yatzy.web.security` are in front.
    ``budget``: the solver tables prepared at start and the budget for the others
    (:mod:`yatzy.web.budget`; its defaults and nothing prepared if None).
    ``limits``: how fast one client address may look rooms up by code and make new ones
    (:class:`~yatzy.web.limits.Limits`' defaults if None). ``expiry``: when idle and finished rooms
    expire (:class:`~yatzy.web.expiry.Expiry`'s defaults if None), swept by the lifespan.
    ``public_history``: anyone may list and replay every stored game (else only the games of
    the rooms whose tokens a request shows: :mod:`yatzy.web.routes.history`).

    :raises StorageError: the database cannot be opened or migrated.
    :raises InvalidActionError: an unknown pub/sub URL, or a proxy that is not an address.
    """
    trusted = proxy_addresses(proxies)
    database = db or Database(db_url)
    database.use_wal()
    pubsub = PubSub.from_url(pubsub_url)
    app = FastAPI(title="yatzy", version=str(PROTOCOL_VERSION), lifespan=_lifespan,
                  description="Rooms for Yatzy games. The WebSocket protocol is documented in "
                              "docs/web-protocol.md and docs/protocol/*.json.")
    app.state.db = database
    app.state.own_db = db is None
    app.state.pubsub = pubsub
    app.state.rooms = Rooms(database, pubsub)
    app.state.budget = budget = budget or TableBudget()
    budget.in_use = lambda: tables_in_use(app.state.rooms.rooms.values())
    budget.on_let_go.append(lambda key: coaching.COACHES.forget(key))
    app.state.rooms.bots.budget = coaching.COACHES.budget = budget
    app.state.settings = Settings(public_url=public_url, coach_wait=coach_wait,
                                  max_connections_per_client=max_connections_per_client, rate=rate,
                                  burst=burst, hello_timeout=hello_timeout, public_history=public_history)
    app.state.clients = Counter()
    app.state.limits = limits or Limits()
    app.state.expiry = expiry or Expiry()
    app.state.analyses = {}
    for group in (analysis, history, rooms, socket, page):
        app.include_router(group.router)
    install(app, None if allowed_hosts is None else host_names(allowed_hosts, None, public_url), trusted)
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
    The server's own log (the solver tables prepared, let in and let go: :mod:`.budget`) goes
    where uvicorn's does, at ``log_level`` too.
    The interpreter switches threads every 0.5 ms instead of 5: the thread that commits
    every room's actions gives up the GIL at each round trip to the database and, with the
    default, waited up to 5 ms each time to get it back from the busy event loop (PostgreSQL
    with Redis, 200 games: p99 79–127 ms instead of 140–311 ms).
    """
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    gc.collect()
    gc.freeze()
    gc.set_threshold(*gc.get_threshold()[:2], 100)
    sys.setswitchinterval(0.0005)
    ours = {"handlers": ["default"], "level": log_level.upper(), "propagate": False}
    loggers = {**LOGGING_CONFIG["loggers"], "yatzy": ours}
    uvicorn.run(app, host=host, port=port, ws_max_size=4 * MAX_MESSAGE_BYTES, ws_per_message_deflate=False,
                proxy_headers=False, log_level=log_level, log_config={**LOGGING_CONFIG, "loggers": loggers})
