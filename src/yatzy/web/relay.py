"""Catching up with the other server processes: a room's messages from the pub/sub, and the
database read again where they are missing.

Every accepted action is published on the room's channel (``room:CODE``) with its events, the
versions before and after it and the actions appended to the game's log. A process that holds
the room and sees a version newer than its own applies those actions to its game when they
follow on from its version (:meth:`Relay.follow`: no database read), and otherwise (it missed
a message, or a scorekeeper room's log was written anew) loads the room back from the
database; then it wakes its clients, each of whom gets their own view (and the events, when
they follow on from what the process had; if they never come, a full state after
:data:`GAP_WAIT` seconds). Presence messages go to the room's
crowd (:mod:`yatzy.web.presence`); a taken or freed seat or a stand-in bot makes the others read
those from the database again, and every seat's connection there check its token again. When
the pub/sub comes back after being cut off (Redis restarted), the messages published meanwhile
are lost: every room is checked against the database.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ..errors import YatzyError
from ..saves import action_from_dict
from ..session import Session
from ..storage import StorageError
from ..storage.rooms import RoomStore
from .pubsub import PubSub
from .room import Room, RoomSettings

log = logging.getLogger(__name__)

GAP_WAIT = 1.0
"""Seconds to wait for another process's events that the database already has, before the
clients get a full state instead."""


class Relay:
    """Keeps the rooms a process holds in step with the database and the other processes."""

    def __init__(self, store: RoomStore, pubsub: PubSub, rooms: Mapping[str, Room]) -> None:
        self.store = store
        self.pubsub = pubsub
        self.rooms = rooms
        """The rooms this process holds (code -> room), as they come and go."""

    async def reload(self, room: Room) -> None:
        """Take the room's game, stand-ins and taken seats from the database again."""
        record = await asyncio.to_thread(self.store.load, room.code)
        assert record is not None
        room.session = Session(record.game, lang=room.settings.lang)
        room.stand_ins, room.taken = record.stand_ins, record.taken
        room.saved, room.logged = record.saved, len(record.game.log)
        room.accepted.update(record.accepted)
        room.stand_in_bots.clear()
        self._events_on_the_way(room)

    def follow(self, room: Room, message: dict[str, Any]) -> bool:
        """Bring the room to a game message's version by applying the actions it carries
        (each roll with its dice, checked against the seed), as the process that accepted them
        did; False (the caller loads the room again) if they do not follow on from this
        process's version or the game refuses one. What it costs is a move, not a load: a
        room's game read back from the database and replayed whole on every action of another
        process tripled the servers' CPU per action when a room's clients were spread over
        two processes."""
        actions, before = message.get("actions"), message.get("before")
        version = message.get("version")
        if not isinstance(actions, list) or not actions or before != room.version \
                or version != room.version + len(actions):
            return False
        try:
            room.game.follow([action_from_dict(a) for a in actions], check_dice=not room.keeper)
        except (YatzyError, KeyError, TypeError, ValueError) as e:
            log.warning("room %s: another process's actions did not follow on (%s); loading it again",
                        room.code, e)
            return False
        room.logged = len(room.game.log)
        if message.get("action_id") is not None:
            room.accepted[str(message["action_id"])] = (message.get("seat"), room.version)
        self._events_on_the_way(room)
        return True

    def _events_on_the_way(self, room: Room) -> None:
        """After the room moved on to another process's version: keep the events it has as long
        as they still fit, and give up waiting for the rest after :data:`GAP_WAIT` seconds."""
        if room.buffered > room.version:  # never happens unless the database lost actions
            room.buffer, room.buffer_from, room.buffered = [], room.version, room.version
        if room.buffered < room.version:
            # another process's actions: their events are on the way (until they are in, clients
            # are not caught up); if they never come, the clients get a full state
            asyncio.get_running_loop().call_later(GAP_WAIT, self._give_up_gap, room, room.version)

    def handler(self, room: Room) -> Callable[[dict[str, Any]], Awaitable[None]]:
        """What the room's channel calls with each message."""

        async def handle(message: dict[str, Any]) -> None:
            await self._published(room, message)

        return handle

    async def _published(self, room: Room, message: dict[str, Any]) -> None:
        """A room's message from the pub/sub. A game's: reload if another process moved the
        game (keeping its events when they follow on from this process's), then wake every
        connection of the room here. Another process's presence: its counts, and the taken
        seats and stand-ins again if they changed."""
        if message.get("kind") == "presence":
            if message.get("origin") != self.pubsub.origin:
                await self._remote_presence(room, message)
            return
        version = int(message.get("version", 0))
        if version > room.version or room.buffered < version:
            async with room.lock:
                if version > room.version and not self.follow(room, message):
                    await self.reload(room)
                before = int(message.get("before", -1))
                if room.buffered < version <= room.version and before >= room.buffered:
                    room.remember(list(message.get("events", [])), before, version)
                if room.buffered < room.version:
                    return  # more of the events are on the way: the last of them wakes the clients
        room.wake("game")

    async def catch_up(self) -> None:
        """After the pub/sub was cut off (Redis restarted), the messages published meanwhile
        are lost: every room held here is checked against the database, and one that another
        process moved is loaded again and its clients get a full state."""
        if not self.rooms:
            return
        try:
            versions = await asyncio.to_thread(self.store.versions, list(self.rooms))
        except StorageError as e:
            log.error("rooms could not be checked after the pub/sub came back: %s", e)
            return
        for code, version in versions.items():
            room = self.rooms.get(code)
            if room is None or version <= room.version:
                continue
            async with room.lock:
                if version > room.version:
                    await self.reload(room)
                    self._give_up_gap(room, room.version)

    def _give_up_gap(self, room: Room, version: int) -> None:
        if room.buffered < version <= room.version:
            room.buffer, room.buffer_from, room.buffered = [], room.version, room.version
            room.wake("game")

    async def _remote_presence(self, room: Room, message: dict[str, Any]) -> None:
        """Another process's presence: its counts into the room's crowd; with ``refresh``, the
        taken seats, stand-ins and a rematch read again (a seat was taken, freed or handed to
        a bot there, or a rematch asked for), and every seat's grant checked again: a seat
        freed and taken again before this process heard leaves the same seats taken, but the
        old token void."""
        changed = room.crowd.hear(message)
        if message.get("refresh"):
            async with room.lock:
                record = await asyncio.to_thread(self.store.load, room.code)
                if record is not None:
                    # every seat's connection checks its token again, even when the seats taken
                    # look the same: the host may have freed a seat that was taken again since
                    room.taken = record.taken
                    room.wake("seats")
                    settings = RoomSettings.from_dict(record.settings)
                    if settings != room.settings:  # a rematch asked for, a kept seat freed
                        asked = settings.rematch != room.settings.rematch
                        room.settings = settings
                        if asked:
                            room.wake("rematch")
                    if record.stand_ins != room.stand_ins:
                        room.stand_ins = record.stand_ins
                        room.stand_in_bots.clear()
                        room.wake("game")
        if changed or message.get("refresh"):
            room.wake("presence")
