"""How fast one client address may look rooms up by code and make new ones: token buckets
per address, on a clock of their own (a test turns it by hand).

A lookup (``GET /api/rooms/{code}`` and every route under it, ``/join``, ``/spectate``, the
WebSocket's connect) is let through only while the address has both a hit and a miss left;
then a code that names a room takes a hit, one that names none (or an expired room) a miss.
Hits are many (a family's reloads never run out); misses are few and come back slowly, so
guessing codes crawls (docs/security.md has the arithmetic). The address is the one the
server trusts (``request.client.host``: behind a proxy, the proxy says it); an IPv6 address
counts as its /64 network (`security.address_key`), which one household or client holds whole.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..i18n import _, ngettext
from .protocol import ErrorCode
from .security import address_key

__all__ = ["HITS", "MISSES", "ROOMS_PER_HOUR", "Bucket", "Limited", "Limits"]

HITS = (240, 4.0)
"""Lookups of codes that name a room: 240 at once, 4 more a second."""
MISSES = (30, 1 / 20)
"""Lookups of codes that name none: 30 at once, one more every 20 seconds (180 an hour)."""
ROOMS_PER_HOUR = 100
"""New rooms (and rematches) per address and hour: a school class of 30 behind one address
makes its 30 rooms three times over. A rematch is not counted: a finished room has one at most."""
_PRUNE_AT = 10_000
"""Addresses a bucket remembers: past them it forgets those whose bucket is full again, then
(many addresses all counted lately: a botnet's) those counted longest ago, which start full
again. So a bucket's memory is bounded (about 2 MB), whatever the number of addresses."""


@dataclass
class Bucket:
    """``capacity`` tokens per key, refilled at ``per_second``; a key not seen is full."""

    capacity: int
    per_second: float
    most: int = _PRUNE_AT
    """Keys remembered at most (see :data:`_PRUNE_AT`)."""
    _held: dict[str, tuple[float, float]] = field(default_factory=dict)
    """key -> (tokens, when counted), the key counted longest ago first."""

    def _now(self, key: str, now: float) -> float:
        tokens, at = self._held.get(key, (self.capacity, now))
        return min(self.capacity, tokens + (now - at) * self.per_second)

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` has a token (0: it has one now)."""
        lack = 1 - self._now(key, now)
        return 0.0 if lack <= 0 else lack / self.per_second

    def take(self, key: str, now: float) -> None:
        """Spend one of the key's tokens (down to none: a caller checks :meth:`wait` first)."""
        left = max(self._now(key, now) - 1, 0.0)
        self._held.pop(key, None)
        if len(self._held) >= self.most:
            self._held = {k: (t, at) for k, (t, at) in self._held.items()
                          if min(self.capacity, t + (now - at) * self.per_second) < self.capacity}
            for old in list(self._held)[:len(self._held) - self.most + 1]:  # still too many
                del self._held[old]
        self._held[key] = (left, now)


class Limited(Exception):  # noqa: N818 - a refusal, as the routes' Refusal
    """Too many lookups or new rooms from one address: try again after ``wait`` seconds."""

    def __init__(self, code: ErrorCode, wait: float, message: str) -> None:
        super().__init__(message)
        self.code, self.wait, self.message = code, wait, message

    @property
    def retry_after(self) -> int:
        """``wait`` in whole seconds, rounded up (a ``Retry-After`` header's value)."""
        return _seconds(self.wait)


def _seconds(wait: float) -> int:
    return max(1, math.ceil(wait))


def _again(wait: float) -> str:
    seconds = _seconds(wait)
    return ngettext("try again in {n} second", "try again in {n} seconds", seconds).format(n=seconds)


@dataclass
class Limits:
    """The buckets of one server process (kept on ``app.state``)."""

    rooms_per_hour: int = ROOMS_PER_HOUR
    clock: Callable[[], float] = time.monotonic
    hits: Bucket = field(default_factory=lambda: Bucket(*HITS))
    misses: Bucket = field(default_factory=lambda: Bucket(*MISSES))
    rooms: Bucket = field(init=False)

    def __post_init__(self) -> None:
        self.rooms = Bucket(self.rooms_per_hour, self.rooms_per_hour / 3600)

    @classmethod
    def unlimited(cls) -> Limits:
        """No limit to speak of (a load benchmark's many games from one address)."""
        many = 10**9
        return cls(rooms_per_hour=many, hits=Bucket(many, many), misses=Bucket(many, many))

    def before_lookup(self, address: str) -> None:
        """:raises Limited: the address has no hit or no miss left (in the current language)."""
        now, key = self.clock(), address_key(address)
        wait = max(self.hits.wait(key, now), self.misses.wait(key, now))
        if wait:
            words = _("too many room codes asked from your address") + "; " + _again(wait)
            raise Limited(code="too_many_lookups", wait=wait, message=words)

    def looked_up(self, address: str, found: bool) -> None:
        """Count a lookup: a hit, or a miss (no such room)."""
        (self.hits if found else self.misses).take(address_key(address), self.clock())

    def before_new_room(self, address: str) -> None:
        """:raises Limited: the address made :attr:`rooms_per_hour` rooms in the last hour."""
        now, key = self.clock(), address_key(address)
        wait = self.rooms.wait(key, now)
        if wait:
            raise Limited(code="too_many_rooms", wait=wait, message=ngettext(
                "too many new rooms from your address: at most {n} an hour",
                "too many new rooms from your address: at most {n} an hour",
                self.rooms_per_hour).format(n=self.rooms_per_hour) + "; " + _again(wait))

    def made_room(self, address: str) -> None:
        """Count a room made (a refused one is not counted)."""
        self.rooms.take(address_key(address), self.clock())
