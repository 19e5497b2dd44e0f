"""One client's WebSocket (``/ws/rooms/{code}``): the protocol of :mod:`yatzy.web.protocol`.

A :class:`Connection` waits for the hello, then reads the client's messages (at most
:data:`~yatzy.web.protocol.MAX_MESSAGE_BYTES` each, at the rate limit) and hands them to the
room, and sends the room's events back through one queue, catching the client up from its
last version; the reveal follows once the game is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from ..i18n import _, language
from ..narration import event_words
from ..views import GameView
from .coaching import advise, follow_up
from .fairness import roll_off_rounds
from .protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Amend,
    AnyClientMessage,
    CoachRequest,
    Error,
    ErrorCode,
    Events,
    HandToBot,
    Hello,
    Ping,
    Pong,
    RematchOffer,
    Resume,
    Reveal,
    State,
    Sync,
    Undo,
    Welcome,
    parse_client,
)
from .room import Grant, Refusal, Room
from .rooms import Rooms
from .seating import freed_message

log = logging.getLogger(__name__)

__all__ = ["Connection", "refuse", "reveal_of"]


def reveal_of(room: Room) -> Reveal:
    """The reveal of a finished game: seed, salt and the whole save (never before the end)."""
    assert room.over
    return Reveal(commitment=room.commitment, salt=room.salt, seed=room.game.seed, game=room.game.to_dict(),
                  roll_off_rounds=roll_off_rounds(room.game))


def _reveal_json(room: Room) -> str:
    """The reveal's JSON, made once for every client of the room."""
    return room.memo(("reveal",), lambda: reveal_of(room).to_json())  # type: ignore[no-any-return]


async def refuse(websocket: WebSocket, code: ErrorCode, message: str, close: int,
                 expired: bool | None = None) -> None:
    """Send the error (``expired``: an unknown room's, whether it has expired) and close the
    socket with ``close`` (if the client is still there)."""
    with contextlib.suppress(Exception):
        await websocket.send_text(Error(code=code, message=message, expired=expired).to_json())
        await websocket.close(close)


class _Closed(Exception):  # noqa: N818 - control flow: the client went away
    pass


def worded(room: Room, last: int, view: GameView, lang: str) -> list[dict[str, Any]] | None:
    """The events after version ``last`` with their words in ``lang`` (each one's ``text``, from
    the one narration), worded once for every client of that language whatever its seat (the
    names are the same in every view); None if they are no longer kept."""
    events = room.events_after(last)
    if events is None:
        return None
    made: list[dict[str, Any]] = room.memo(
        ("words", lang, last), lambda: [{**e, "text": event_words(e, view, lang)} for e in events],
        passing=True)
    return made


class Connection:
    """One client's WebSocket: hello, then actions in and events out.

    Everything sent goes through one queue and one sender task, so messages never
    interleave; the room wakes the sender when the game moves or presence changes, and the
    sender catches this client up from its last version (events, or a full state).
    """

    def __init__(self, rooms: Rooms, websocket: WebSocket, code: str, *, rate: float, burst: int,
                 hello_timeout: float, coach_wait: float = 1.0) -> None:
        self.rooms, self.ws, self.code = rooms, websocket, code
        self.coach_wait = coach_wait
        self.coach_task: asyncio.Task[None] | None = None
        """A coach answer on its way once a table is built."""
        self.rate, self.burst, self.hello_timeout = rate, burst, hello_timeout
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.lang = "en"
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.last_version: int | None = None
        self.revealed = False
        self.token: str | None = None
        self.recheck = False
        """The host changed the seats: this seat's token is checked again before its next move."""
        self.let_go = False
        """This seat's token no longer holds: the client was told, the connection ends."""

    # -- receiving ---------------------------------------------------------------------------
    async def receive(self) -> str:
        """The next text message; refuses (and closes on) one over the size limit."""
        raw = await self.ws.receive()
        if raw["type"] == "websocket.disconnect":
            raise _Closed
        data = raw.get("text")
        if data is None:
            data = (raw.get("bytes") or b"").decode("utf-8", "replace")
        if len(data.encode()) > MAX_MESSAGE_BYTES:
            with language(self.lang):
                await refuse(self.ws, "too_large",
                              _("a message may have {n} bytes at most; this one had {got}")
                              .format(n=MAX_MESSAGE_BYTES, got=len(data.encode())), 1009)
            raise _Closed
        return data

    def parse(self, text: str) -> AnyClientMessage | Error:
        try:
            return parse_client(text)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "message"
            with language(self.lang):
                return Error(code="bad_message",
                             message=_("not a message this server reads: {where}: {error}")
                             .format(where=where, error=first.get("msg", "")))

    async def throttle(self) -> None:
        """The rate limit: a bucket of ``burst`` messages refilled at ``rate`` per second; a
        message with the bucket empty waits for the next token. A client over the limit is
        slowed to ``rate`` messages a second, but none of its messages is lost: a bot that
        plays as fast as the server answers must not be left waiting for the answer to a move
        the server dropped."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / self.rate)
            self.tokens, self.stamp = 1.0, time.monotonic()
        self.tokens -= 1

    # -- the conversation ---------------------------------------------------------------------
    async def run(self) -> None:
        room = await self.rooms.get(self.code)
        if room is None:
            await refuse(self.ws, "unknown_room", _("there is no room {code}").format(code=self.code), 1008)
            return
        try:
            first = self.parse(await asyncio.wait_for(self.receive(), self.hello_timeout))
        except (TimeoutError, _Closed, WebSocketDisconnect):
            await refuse(self.ws, "hello_first", _("say hello first"), 1008)
            return
        if isinstance(first, Error):
            await refuse(self.ws, first.code, first.message, 1008)
            return
        if not isinstance(first, Hello | Resume):
            await refuse(self.ws, "hello_first", _("say hello (or resume) before anything else"), 1008)
            return
        self.lang = first.lang
        with language(self.lang):
            if first.protocol != PROTOCOL_VERSION:
                await refuse(self.ws, "protocol", _("this server speaks protocol {ours}, not {theirs}")
                              .format(ours=PROTOCOL_VERSION, theirs=first.protocol), 1002)
                return
            try:
                grant = await self.rooms.seating.authorize(room, first.token)
            except Refusal as r:
                await refuse(self.ws, r.code, r.message, 1008)
                return
        self.token = first.token
        await self.serve(room, grant, first)

    async def serve(self, room: Room, grant: Grant, first: Hello | Resume) -> None:
        sender = asyncio.get_running_loop().create_task(self.sender(room, grant))
        present = False
        try:
            self.put(Welcome(room=room.code, role=grant.role, seat=grant.seat, lang=self.lang,  # type: ignore[arg-type]
                             commitment=room.commitment, coach=room.settings.coach, version=room.version,
                             dice_from=room.game.dice_from))  # type: ignore[arg-type]
            async with room.lock:
                view = room.view(grant, self.lang)
                resumed = first.last_version if isinstance(first, Resume) else None
                events = None if resumed is None else worded(room, resumed, view, self.lang)
                if events is not None:
                    self.put(Events(version=room.version, events=events, view=view))
                else:
                    self.put(State(version=room.version, reason="welcome" if resumed is None else "resume",
                                   view=view))
                self.last_version = room.version
                preparing = room.preparing_message(self.lang)
                if preparing is not None and preparing.stage != "ready":
                    self.put(preparing)
                for text in self.reveal(room):
                    self.put(text)
                if room.settings.rematch is not None:
                    self.put(RematchOffer(room=room.settings.rematch))
                room.listeners.add(self.wake)
            await self.rooms.connected(room, grant)
            present = True
            while True:
                text = await self.receive()
                await self.throttle()
                await self.handle(room, grant, self.parse(text))
        except (_Closed, WebSocketDisconnect):
            pass
        finally:
            room.listeners.discard(self.wake)
            if present:
                await self.rooms.disconnected(room, grant)
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, 2)
            sender.cancel()

    async def handle(self, room: Room, grant: Grant, msg: AnyClientMessage | Error) -> None:
        """Answer one message after the hello (none once the host freed this seat)."""
        if self.recheck:
            self.recheck = False
            if not await self.still_seated(room, grant):
                raise _Closed
        if isinstance(msg, Error):
            self.put(msg.model_copy(update={"version": room.version}))
        elif isinstance(msg, Ping):
            self.put(Pong(nonce=msg.nonce))
        elif isinstance(msg, Hello | Resume):
            with language(self.lang):
                self.put(Error(code="bad_message", message=_("this connection has said hello already"),
                               version=room.version))
        elif isinstance(msg, Sync):
            await self.sync(room, grant)
        elif isinstance(msg, CoachRequest):
            await self.coach(room, grant, msg)
        elif isinstance(msg, HandToBot):
            try:
                await self.rooms.hand_to_bot(room, grant, msg, self.lang)
            except Refusal as r:
                self.put(Error(code=r.code, message=r.message, version=room.version))
        else:
            try:
                if isinstance(msg, Undo | Amend):
                    await self.rooms.edit(room, grant, msg, self.lang, self.put)
                else:
                    await self.rooms.act(room, grant, msg, self.lang, self.put)
            except Refusal as r:
                self.put(Error(code=r.code, message=r.message, id=msg.id, version=room.version))
                if r.resync:
                    async with room.lock:
                        self.put(State(version=room.version, reason="conflict" if r.code == "conflict"
                                       else "stale", view=room.view(grant, self.lang)))
                        self.last_version = room.version
            except Exception:
                log.exception("room %s: action %s failed", room.code, msg.id)
                with language(self.lang):
                    self.put(Error(code="internal", message=_("the server failed; the move was not made"),
                                   id=msg.id, version=room.version))

    async def sync(self, room: Room, grant: Grant) -> None:
        """The game as it stands, asked for: a full state; events follow from its version."""
        async with room.lock:
            self.put(State(version=room.version, reason="request", view=room.view(grant, self.lang)))
            self.last_version = room.version

    async def coach(self, room: Room, grant: Grant, msg: CoachRequest) -> None:
        """The coach's answer (after a "preparing" one, the answer follows by itself)."""
        if self.coach_task is not None:
            self.coach_task.cancel()
            self.coach_task = None
        try:
            advice = await advise(room, grant, msg, self.lang, self.coach_wait)
        except Refusal as r:
            self.put(Error(code=r.code, message=r.message, id=msg.id, version=room.version))
            return
        except Exception:
            log.exception("room %s: the coach failed", room.code)
            with language(self.lang):
                self.put(Error(code="internal", message=_("the coach failed"), id=msg.id,
                               version=room.version))
            return
        self.put(advice)
        if advice.status == "preparing":
            self.coach_task = follow_up(room, grant, msg, self.lang, self.put)

    # -- sending -----------------------------------------------------------------------------
    def put(self, message: Any) -> None:
        self.queue.put_nowait(message)

    def wake(self, what: str) -> None:
        if what == "seats":
            self.recheck = True
        self.queue.put_nowait(what)

    def reveal(self, room: Room) -> list[str]:
        """The reveal (its JSON), once, when the game is over."""
        if room.over and not self.revealed and not room.keeper:
            self.revealed = True
            return [_reveal_json(room)]
        return []

    async def sender(self, room: Room, grant: Grant) -> None:
        """Send what is queued, in order; on a wake-up, catch this client up."""
        try:
            while True:
                item = await self.queue.get()
                if item is None:
                    return
                if item == "presence":
                    await self.ws.send_text(room.presence().to_json())
                    continue
                if item == "seats":
                    if not await self.still_seated(room, grant):
                        return
                    continue
                if item == "rematch":
                    if room.settings.rematch is not None:
                        await self.ws.send_text(RematchOffer(room=room.settings.rematch).to_json())
                    continue
                if item == "preparing":
                    preparing = room.preparing_message(self.lang)
                    if preparing is not None:
                        await self.ws.send_text(preparing.to_json())
                    continue
                if item == "game":
                    async with room.lock:
                        messages = self.catch_up(room, grant)
                    for text in messages:
                        await self.ws.send_text(text)
                    continue
                await self.ws.send_text(item if isinstance(item, str) else item.to_json())
        except Exception:  # the client went away: the receiving side ends the connection
            return

    async def still_seated(self, room: Room, grant: Grant) -> bool:
        """After the host changed the seats: whether this seat's token still holds; if not, the
        client is told so and the connection ends."""
        if grant.role != "seat":
            return True
        if self.let_go:
            return False
        try:
            await self.rooms.seating.authorize(room, self.token)
        except Refusal:
            with language(self.lang):
                message = freed_message()
            self.let_go = True
            await refuse(self.ws, "unauthorized", message, 1008)
            return False
        return True

    def catch_up(self, room: Room, grant: Grant) -> list[str]:
        """What this client has not seen (under the room's lock), as JSON: the events after
        its last version and its new view (a full state if those events are no longer kept),
        and the reveal at the end. Each distinct message is made once for all the clients that
        get it (the same view, the same last version)."""
        if self.last_version is None or self.last_version == room.version or room.catching_up:
            return []
        last = self.last_version

        def make() -> str:
            view = room.view(grant, self.lang)
            events = worded(room, last, view, self.lang)
            return (State(version=room.version, reason="conflict", view=view) if events is None
                    else Events(version=room.version, events=events, view=view)).to_json()

        text: str = room.memo(("catch_up", room.viewer(grant), self.lang, last), make)
        self.last_version = room.version
        return [text, *self.reveal(room)]
