"""Presence: who is connected to a room, in this server process and the others, and how long
a seat's player has been away (as lila-ws keeps a round's crowd).

Each process counts its own connections per seat (a table connection counts for every
person) and its spectators, in the room's :class:`Crowd`. With several processes, each
publishes its counts on the room's channel when they change and again every
:data:`PRESENCE_EVERY` seconds (the :class:`PresenceLoop`), and the others add them to
theirs (:meth:`Crowd.hear`). A process not heard from for :data:`PRESENCE_LOST` seconds
(killed, or cut off) counts no more: its players are away from when it was last heard of.
Once a player has been away the room's ``away_after`` seconds, the others may hand their
seat to a bot: a timer per away seat (:meth:`Crowd.watch`) rings then, in every process that
holds the room, so each tells its own clients without waiting for anyone to come or go; the
timer stops when the seat's player is back, here or in another process.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .pubsub import InProcessPubSub, PubSub

log = logging.getLogger(__name__)

PRESENCE_EVERY = 10.0
"""Seconds between two presence messages of a process with connections to a room (several
processes: each says its counts again, so the others notice when it is gone)."""
PRESENCE_LOST = 3 * PRESENCE_EVERY
"""Seconds after which a silent process's connections count no more."""


class Timer(Protocol):
    """A timer that may be stopped (an :class:`asyncio.TimerHandle`)."""

    def cancel(self) -> None: ...


Later = Callable[[float, Callable[[], None]], Timer]
"""Call a function after so many seconds (the event loop's ``call_later``)."""


def call_later(delay: float, call: Callable[[], None]) -> Timer:
    """``call`` after ``delay`` seconds on the running event loop."""
    return asyncio.get_running_loop().call_later(delay, call)


@dataclass
class Crowd:
    """Who is connected to one room: this process's connections, the others' as last heard,
    and since when each person's seat has had none; once watched (:meth:`watch`), a timer per
    away seat that rings when it has been away long enough to go to a bot."""

    connected: dict[int, int] = field(default_factory=dict)
    """Seat -> open connections of its player here (a table connection counts for every person)."""
    spectators: int = 0
    away_since: dict[int, float] = field(default_factory=dict)
    """Seat -> when (``time.monotonic()``) its player's last connection closed."""
    remote: dict[str, tuple[dict[int, int], int, float]] = field(default_factory=dict)
    """Other server processes' connections to this room: origin -> (seat -> count, spectators,
    when last heard)."""
    clock: Callable[[], float] = field(default=time.monotonic)
    """Now, in seconds (``time.monotonic``; a test's own clock)."""
    later: Later = field(default=call_later)
    """How a timer is set (the event loop's; a test's own clock)."""
    away_after: float | None = None
    """Seconds away after which :attr:`alarm` rings for a seat (None: no timers)."""
    alarm: Callable[[int], None] | None = None
    """Called with a seat once its player has been away :attr:`away_after` seconds."""
    timers: dict[int, Timer] = field(default_factory=dict)
    """Seat -> the timer that rings when it has been away long enough."""

    def watch(self, away_after: float, alarm: Callable[[int], None]) -> None:
        """From now on, call ``alarm(seat)`` when a seat has been away ``away_after`` seconds
        (a timer for each seat away now, and for each that goes away later)."""
        self.away_after, self.alarm = away_after, alarm
        for seat in list(self.away_since):
            if not self.connections(seat):
                self._arm(seat)

    def stop(self) -> None:
        """No more timers (the room is let go, or the server stops)."""
        self.alarm = None
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()

    def _away(self, seat: int, since: float) -> None:
        """The seat's player is away from ``since``: its timer is set."""
        self.away_since[seat] = since
        self._arm(seat)

    def _back(self, seat: int) -> None:
        """The seat's player has a connection again: its timer stops."""
        timer = self.timers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    def _arm(self, seat: int) -> None:
        """Set the seat's timer for the moment it will have been away long enough (none if
        that moment has passed: whoever marked it away tells the clients now)."""
        self._back(seat)
        if self.alarm is None or self.away_after is None:
            return
        delay = self.away_since.get(seat, self.clock()) + self.away_after - self.clock()
        if delay > 0:
            try:
                self.timers[seat] = self.later(delay, lambda: self._ring(seat))
            except RuntimeError:  # no event loop (a synchronous caller): nobody to tell
                pass

    def _ring(self, seat: int) -> None:
        """A seat's timer: ring if its player is still away and long enough (a timer that
        went off early is set again for the rest)."""
        self.timers.pop(seat, None)
        if self.alarm is None or self.away_after is None or self.connections(seat):
            return
        if self.away_for(seat, self.clock()) < self.away_after:
            self._arm(seat)
            return
        self.alarm(seat)

    def came(self, seats: Iterable[int], spectator: bool) -> None:
        """A connection opened, counting for these seats (or a spectator)."""
        for seat in seats:
            self.connected[seat] = self.connected.get(seat, 0) + 1
            self._back(seat)
        if spectator:
            self.spectators += 1

    def left(self, seats: Iterable[int], spectator: bool) -> None:
        """A connection closed: a seat with no connection left in any process is away from now."""
        now = self.clock()
        for seat in seats:
            self.connected[seat] = max(0, self.connected.get(seat, 0) - 1)
            if not self.connections(seat):
                self._away(seat, now)
        if spectator:
            self.spectators = max(0, self.spectators - 1)

    @property
    def here(self) -> bool:
        """Whether this process has connections to the room."""
        return any(self.connected.values()) or self.spectators > 0

    def connections(self, seat: int) -> int:
        """The open connections of a seat's player, in every server process."""
        return self.connected.get(seat, 0) + sum(seats.get(seat, 0) for seats, _n, _heard in self.heard())

    def watching(self) -> int:
        """The spectators, in every server process."""
        return self.spectators + sum(n for _seats, n, _heard in self.heard())

    def heard(self) -> list[tuple[dict[int, int], int, float]]:
        """The other processes' counts, those heard from lately; a seat whose only connections
        were on a process gone silent is away from the moment it was last heard of."""
        now = self.clock()
        silent = [origin for origin, (_s, _n, heard) in self.remote.items() if now - heard > PRESENCE_LOST]
        lost = [self.remote.pop(origin) for origin in silent]
        for seats, _n, heard in lost:
            for seat, n in seats.items():
                if n and not self.connections(seat):  # not the time before they connected there
                    self._away(seat, heard)
        return list(self.remote.values())

    def away_for(self, seat: int, now: float) -> float:
        """Seconds since the seat's player's last connection closed (0 while connected)."""
        return now - self.away_since.get(seat, now)

    def gone_long(self, seat: int, away_after: float, now: float) -> bool:
        """Whether the seat's player has had no connection for ``away_after`` seconds at least."""
        return not self.connections(seat) and self.away_for(seat, now) >= away_after

    def hear(self, message: dict[str, Any]) -> bool:
        """Another process's counts (a presence message); whether they changed (else it only
        said them again: nobody to tell)."""
        origin = str(message["origin"])
        seats = {int(k): int(v) for k, v in dict(message.get("connected", {})).items()}
        spectators = int(message.get("spectators", 0))
        known = self.remote.get(origin, ({}, 0, 0.0))
        changed = (known[0], known[1]) != (seats, spectators)
        gone = [s for s, n in known[0].items() if n and not seats.get(s)]
        if seats or spectators:
            self.remote[origin] = (seats, spectators, self.clock())
        else:
            self.remote.pop(origin, None)
        now = self.clock()
        for seat in gone:
            if not self.connections(seat):
                self._away(seat, now)
        for seat, n in seats.items():
            if n:
                self._back(seat)
        return changed


class Crowded(Protocol):
    """A room as presence sees it (a :class:`yatzy.web.room.Room` is one)."""

    @property
    def code(self) -> str: ...
    @property
    def crowd(self) -> Crowd: ...
    def wake(self, what: str) -> None: ...


class PresenceLoop:
    """Tells the other server processes this one's connections to each room it holds: when
    they change, and again every :attr:`every` seconds while it has any (one process alone:
    nobody to tell, nothing sent)."""

    def __init__(self, pubsub: PubSub, rooms: Mapping[str, Crowded], every: float = PRESENCE_EVERY) -> None:
        self.pubsub = pubsub
        self.rooms = rooms
        """The rooms this process holds (code -> room), as they come and go."""
        self.every = every
        self._task: asyncio.Task[None] | None = None

    @property
    def alone(self) -> bool:
        return type(self.pubsub) is InProcessPubSub

    async def publish(self, room: Crowded, refresh: bool = False) -> None:
        """Tell the other processes this one's connections to the room (``refresh``: the
        taken seats or stand-ins changed, read them again)."""
        if self.alone:
            return  # one process: nobody else to tell
        crowd = room.crowd
        await self.pubsub.publish(f"room:{room.code}", {
            "kind": "presence", "origin": self.pubsub.origin, "refresh": refresh,
            "connected": {str(k): v for k, v in crowd.connected.items() if v},
            "spectators": crowd.spectators})

    def keep_saying(self) -> None:
        """Start the task that says this process's counts again every :attr:`every` seconds,
        for each room it has connections to (once; not for one process alone)."""
        if self.alone or (self._task and not self._task.done()):
            return
        self._task = asyncio.get_running_loop().create_task(self._say())

    async def _say(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            for room in list(self.rooms.values()):
                try:
                    crowd = room.crowd
                    before = len(crowd.remote)
                    if before and len(crowd.heard()) != before:  # a process went silent: its players are away
                        room.wake("presence")
                    if crowd.here:
                        await self.publish(room)
                except Exception:  # the others would take this process's players for gone
                    log.exception("room %s: presence could not be said again", room.code)

    def stop(self) -> None:
        """Stop saying the counts again (at shutdown)."""
        if self._task is not None:
            self._task.cancel()

    async def leave(self) -> None:
        """Tell the other processes that this one's connections are gone (at shutdown)."""
        for room in self.rooms.values():
            crowd = room.crowd
            if crowd.connected or crowd.spectators:
                crowd.connected, crowd.spectators = {}, 0
                await self.publish(room)
