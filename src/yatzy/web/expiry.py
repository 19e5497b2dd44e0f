"""Rooms expire on a schedule (docs/security.md, "Room codes and their limits"): a room
whose game is unfinished and that has not moved for :attr:`Expiry.idle_for`, and one whose
game ended :attr:`Expiry.finished_for` ago. A room someone is connected to is never idle:
each sweep first marks those as in use. An expired room's code opens nothing (a lookup
answers 404, saying the room has ended), its log and accepted action ids are deleted, its
game stays in the history (brought up to date first) and its tokens show it there only.

Every server process sweeps every :attr:`Expiry.every` seconds (from the server's lifespan);
a sweep also lets go of the expired rooms this process holds, as another process may have
expired them.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ..storage import StorageError
from .rooms import Rooms

__all__ = ["Expiry", "sweep", "sweep_forever"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Expiry:
    """When rooms expire, and how often each server process looks."""

    idle_for: timedelta = timedelta(days=14)
    """An unfinished game's room that has not moved for this long (a game paused over a
    holiday week fits)."""
    finished_for: timedelta = timedelta(days=2)
    """A finished game's room, this long after its last move (time for the rematch, the
    analysis, a scorekeeper's correction; the history keeps the game)."""
    every: float = 3600.0
    """Seconds between two sweeps."""


async def sweep(rooms: Rooms, expiry: Expiry, now: datetime | None = None) -> list[str]:
    """Expire the rooms due at ``now`` (the clock's by default), after marking the rooms
    someone here is connected to as in use, and let go of every expired room ``rooms``
    holds. Returns the codes this sweep expired.

    :raises StorageError: the database failed.
    """
    now = now or datetime.now(UTC)
    store = rooms.store
    await asyncio.to_thread(store.touch, [code for code, room in rooms.rooms.items() if room.listeners], now)
    expired = await asyncio.to_thread(store.expire, now - expiry.idle_for, now - expiry.finished_for, now)
    gone = set(expired) | await asyncio.to_thread(store.expired_among, list(rooms.rooms))
    for code in gone:
        held = rooms.rooms.get(code)
        if held is not None:
            await rooms.forget(held)
    return expired


async def sweep_forever(rooms: Rooms, expiry: Expiry) -> None:
    """Sweep every :attr:`Expiry.every` seconds until cancelled; a failed sweep is logged and
    the next one tries again."""
    while True:
        await asyncio.sleep(expiry.every)
        try:
            expired = await sweep(rooms, expiry)
        except StorageError as e:
            log.error("rooms could not be swept: %s", e)
            continue
        if expired:
            log.info("%d rooms expired", len(expired))
