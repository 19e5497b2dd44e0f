"""Who sits where in a room: a person's seat taken (its secret token), a spectator's token,
a token checked; the seat rules of each kind of room; and the host's say over the seats.

**Seat rules.** A hot-seat room is played on one device: only its table's token (handed to
whoever made it) plays, for every person's seat; nobody may join one of its seats (a seat's
token there, say one handed out before this rule, is refused), though anyone with the invite
may watch. In any other room anyone with the invite may take a free seat; the host frees
a seat taken by a stranger, and the freed seat's token stops working at once (the
authority refuses its moves before its connection even ends).

The host is whoever made the room: the host token handed out then (the room keeps only its
SHA-256, in its settings) lets them free a person's seat (its token is void from then on, its
connections end, and anyone with the invite may take it) or give it to a bot at once (the
bot plays it as a stand-in until a person takes the seat and connects), without waiting for
the seat's player to have been away ``away_after`` seconds.

**A rematch's seats** are kept for :data:`KEEP_SEATS` seconds for the players who had them in
the game before: they take them with their old room's token (:mod:`yatzy.web.rematch`); a
stranger with the new room's code waits for the time to pass, or takes another seat.
"""

from __future__ import annotations

import asyncio
import math
import secrets
import time
import weakref
from collections.abc import Callable
from dataclasses import replace

from ..i18n import _, ngettext
from ..storage.rooms import RoomStore, hash_token
from .botloop import BotLoop, stand_in
from .presence import PresenceLoop
from .room import Grant, Refusal, Room

KEEP_SEATS = 600.0
"""Seconds a rematch keeps its seats for the players of the game before (time to finish a
word at the table and follow the offer)."""


def freed_message() -> str:
    """What a player whose seat the host freed is told, in the current language."""
    return _("the room's host freed your seat; join the room again to take a free seat")


class Seating:
    """The seats of the rooms a server process holds: taken, checked, freed, given to a bot."""

    def __init__(self, store: RoomStore, presence: PresenceLoop, bots: BotLoop) -> None:
        self.store = store
        self.presence = presence
        self.bots = bots
        self.clock: Callable[[], float] = time.time
        """Now, in seconds since the epoch (how long a rematch keeps its seats; a test's own clock)."""
        self._frees: weakref.WeakKeyDictionary[Room, int] = weakref.WeakKeyDictionary()
        """Seats freed by the host here so far, per room held: a token checked while one was
        freed is checked again (it may be the freed seat's)."""

    async def join(self, room: Room, seat: int | None, *, following: bool = False) -> tuple[int, str]:
        """A token for a person's seat (the first free one if ``seat`` is None); ``following``:
        the seat's player of the game before follows to its rematch (a kept seat is theirs).

        :raises Refusal: a hot-seat room (hot_seat), no such seat, a bot's seat, a seat
            taken already, or one a rematch keeps for its player (seat_kept).
        """
        seats = room.game.seats
        self._not_hot_seat(room)
        kept = set() if following else room.kept_seats(self.clock())
        if seat is None:
            free = [i for i, s in enumerate(seats) if not s.is_bot and i not in room.taken]
            if not free:
                raise Refusal("unauthorized", _("every person's seat of this room is taken"))
            seat = next((i for i in free if i not in kept), free[0])  # all kept: refused below
        self._persons_seat(room, seat)
        if seat in kept:
            raise Refusal("seat_kept", self._kept_message(room))
        token = await asyncio.to_thread(self.store.issue_token, room.id, "seat", seat)
        if token is None:
            room.taken.add(seat)
            raise Refusal("unauthorized", _("seat {seat} is taken already").format(seat=seat))
        room.taken.add(seat)
        room.wake("presence")
        await self.presence.publish(room, refresh=True)
        return seat, token

    def _kept_message(self, room: Room) -> str:
        minutes = max(1, math.ceil((room.settings.kept_until - self.clock()) / 60))
        return ngettext("this rematch keeps its free seats for the players of the game before for "
                        "{n} more minute; watch meanwhile, or come back then",
                        "this rematch keeps its free seats for the players of the game before for "
                        "{n} more minutes; watch meanwhile, or come back then", minutes).format(n=minutes)

    async def spectate(self, room: Room) -> str:
        if not room.settings.spectators:
            raise Refusal("unauthorized", _("this room has no spectators"))
        token = await asyncio.to_thread(self.store.issue_token, room.id, "spectator")
        assert token is not None
        return token

    async def table_token(self, room: Room) -> str:
        """Another token for a hot-seat room's table (a rematch's table following)."""
        token = await asyncio.to_thread(self.store.issue_token, room.id, "table")
        assert token is not None
        return token

    async def authorize(self, room: Room, token: str | None) -> Grant:
        """:raises Refusal: a missing or wrong token, or a seat's token in a hot-seat room."""
        if not token:
            raise Refusal("unauthorized",
                          _("say hello with your seat's token: join a seat or spectate first"))
        frees = self._frees.get(room, 0)
        granted = await asyncio.to_thread(self.store.check_token, room.id, token)
        if granted is None:
            raise Refusal("unauthorized", _("this token does not belong to this room"))
        grant = Grant(*granted)
        if grant.role == "seat" and grant.seat is not None:
            self._not_hot_seat(room)
            if self._frees.get(room, 0) != frees:  # the host freed a seat meanwhile
                return await self.authorize(room, token)
            room.taken.add(grant.seat)  # the database says so (another process may have seated it)
        return grant

    @classmethod
    def check_held(cls, room: Room, grant: Grant) -> None:
        """Whether a seat's grant, checked at its hello, still holds as it acts (under the room's
        lock): the host may have freed its seat since (the connection ends soon after, but no
        move of its gets in meanwhile).

        :raises Refusal: a seat the host freed (unauthorized), or a seat in a hot-seat room.
        """
        if grant.role != "seat":
            return
        cls._not_hot_seat(room)
        if grant.seat not in room.taken:
            raise Refusal("unauthorized", freed_message())

    @staticmethod
    def _not_hot_seat(room: Room) -> None:
        """:raises Refusal: a hot-seat room, whose seats only its table plays (hot_seat)."""
        if room.settings.hot_seat:
            raise Refusal("hot_seat", _("this room is played on one device, with the table's token: "
                                        "its seats cannot be joined, only watched"))

    # -- the host ----------------------------------------------------------------------------
    @staticmethod
    def check_host(room: Room, token: str) -> None:
        """:raises Refusal: not the host's token (not_host)."""
        host = room.settings.host
        if not host or not secrets.compare_digest(hash_token(token), host):
            raise Refusal("not_host",
                          _("only the room's host (who made it) may free a seat or give it to a bot"))

    @staticmethod
    def _persons_seat(room: Room, seat: int) -> None:
        """:raises Refusal: no such seat, or a bot's."""
        if not 0 <= seat < len(room.game.seats) or room.game.seats[seat].is_bot:
            raise Refusal("bad_message",
                          _("seat {seat} is not a person's seat of this room").format(seat=seat))

    async def free(self, room: Room, token: str, seat: int) -> None:
        """The host frees a person's seat: its token is void (its connections end) and anyone
        with the invite may take it (a rematch keeps it no more); a stand-in bot playing it
        plays on meanwhile.

        :raises Refusal: not the host's token, or not a person's seat.
        """
        self.check_host(room, token)
        self._persons_seat(room, seat)
        async with room.lock:
            await asyncio.to_thread(self.store.free_seat, room.id, seat)
            room.taken.discard(seat)
            self._frees[room] = self._frees.get(room, 0) + 1
            if seat in room.settings.kept:
                kept = tuple(s for s in room.settings.kept if s != seat)
                await asyncio.to_thread(self.store.keep_seats, room.id, list(kept))
                room.settings = replace(room.settings, kept=kept)
        room.wake("seats")
        room.wake("presence")
        await self.presence.publish(room, refresh=True)

    async def give_to_bot(self, room: Room, token: str, seat: int, level: str) -> None:
        """The host gives a person's seat to a bot at once: the seat is freed (its player's
        token is void) and a bot of ``level`` (the room's :attr:`~Room.stand_in_level`, no
        other) plays it until a person takes it again.

        :raises Refusal: not the host's token, not a person's seat, the game over, a
            scorekeeper room, or a bot level unknown or not the room's.
        """
        self.check_host(room, token)
        self._persons_seat(room, seat)
        if room.over:
            raise Refusal("game_over", _("the game is over; no more moves"))
        if room.keeper:
            raise Refusal("illegal_action", _("in a scorekeeper room the dice are thrown at the table: "
                                              "no bot can play a seat"))
        level = stand_in(room, level)
        async with room.lock:
            await asyncio.to_thread(self.store.free_seat, room.id, seat)
            room.taken.discard(seat)
            self._frees[room] = self._frees.get(room, 0) + 1
            room.stand_ins[seat] = level
            room.stand_in_bots.pop(seat, None)
            await asyncio.to_thread(self.store.save_stand_ins, room.id, dict(room.stand_ins))
        room.wake("seats")
        room.wake("presence")
        room.wake("game")
        await self.presence.publish(room, refresh=True)
        self.bots.ensure(room)
