"""A rematch: once a game is over, a new room with the same seats (names, people and bots), the
same rules and house rules and the same settings, made once for the old room whoever asks
first (in any server process: the database keeps the one named first); everyone in the old
room is offered to follow (a ``rematch`` message, in every server process), and each player
takes their own seat in it with their old room's token: the seats the old room's players had
are kept for them a while (:data:`~yatzy.web.seating.KEEP_SEATS`), so a stranger with the
new code cannot take one first.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, replace

from ..game import Game
from ..i18n import _
from ..storage.rooms import hash_token
from .room import Refusal, Room
from .rooms import Rooms
from .seating import KEEP_SEATS


@dataclass(frozen=True)
class Rematched:
    """The rematch's room, and the asker's place in it."""

    code: str
    role: str
    """seat (the asker's seat of the old room) or table (a hot-seat room)."""
    seat: int | None
    token: str
    host_token: str | None
    """The new room's host token, for whoever asked first (None for those who follow)."""


def again(game: Game) -> Game:
    """A new game like ``game``: its rules, seats, roll-off and dice, a new seed."""
    return Game(game.ruleset, list(game.seats), roll_off=bool(game.roll_offs), dice_from=game.dice_from)


async def rematch(rooms: Rooms, room: Room, token: str) -> Rematched:
    """The rematch of a finished room (made now if nobody asked before), and the asker's seat
    there: the same seat as in the old room (a hot-seat table: the table again).

    :raises Refusal: a token not of this room, a spectator's, the game not over, or the
        asker's seat in the rematch taken already.
    """
    grant = await rooms.seating.authorize(room, token)
    if grant.role == "spectator":
        raise Refusal("spectator", _("spectators watch; a rematch is for the players"))
    if not room.over:
        raise Refusal("not_over", _("a rematch follows the end of the game; play this one to its end first"))
    host = table = None
    async with room.lock:  # one rematch per room, whoever asks first
        if room.settings.rematch is None:
            host = secrets.token_urlsafe(24)
            kept = tuple(sorted(room.taken))
            settings = replace(room.settings, host=hash_token(host), kept=kept,
                               kept_until=rooms.seating.clock() + KEEP_SEATS)
            new, table = await rooms.create(again(room.game), settings)
            named = await asyncio.to_thread(rooms.store.name_rematch, room.id, new.code)
            if named != new.code:  # another process made one first: this one goes unused
                host = table = None
            room.settings = replace(room.settings, rematch=named)
        code = room.settings.rematch
    assert code is not None
    if host is not None:
        room.wake("rematch")
        await rooms.presence.publish(room, refresh=True)  # the other processes offer it too
    found = await rooms.get(code)
    assert found is not None
    if grant.role == "table":
        return Rematched(found.code, "table", None, table or await rooms.seating.table_token(found), host)
    assert grant.seat is not None
    seat, seat_token = await rooms.seating.join(found, grant.seat, following=True)
    return Rematched(found.code, "seat", seat, seat_token, host)
