"""The bots of the rooms a server process holds: when they move, and who plays a person's seat
while its player is away.

A room's bots (its bot seats, and stand-ins for away players) move at the room's pace until a
person is to play, one task per room; each move is made here and committed and published by
the authority (:meth:`yatzy.web.rooms.Rooms.play_bot`) like a person's. Several processes may
hold one room: the one that loses a race for a bot move stands back (its loop ends) and looks
again after :data:`BOT_WATCH` seconds, taking over only if the game has not moved (the
process that played has stopped).
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from ..bots import BOTS, make_bot
from ..i18n import _, language
from ..session import Event
from ..storage.rooms import RoomStore
from .presence import PresenceLoop
from .protocol import HandToBot
from .room import Grant, Refusal, Room

BOT_WATCH = 5.0
"""Seconds a process that found another one playing a room's bots waits before it looks
whether the game still moves (if not, it plays the bots itself)."""


class Authority(Protocol):
    """What the bots' loop needs of the rooms' authority (:class:`yatzy.web.rooms.Rooms`)."""

    def holds(self, room: Room) -> bool:
        """Whether this process holds the room still (and is not shutting down)."""

    async def play_bot(self, room: Room) -> bool:
        """A bot's move, committed and published (False: no bot could move).

        :raises Refusal: another process moved first, or the database failed.
        """


class BotLoop:
    """Runs every held room's bots, and hands an away player's seat to a bot."""

    def __init__(self, authority: Authority, store: RoomStore, presence: PresenceLoop) -> None:
        self.authority = authority
        self.store = store
        self.presence = presence
        self.watch = BOT_WATCH
        """Seconds before a process that lost a race for a bot move looks again."""

    async def hand_to_bot(self, room: Room, grant: Grant, msg: HandToBot, lang: str) -> None:
        """Let a bot play an away player's seat (their boxes are played, never scored zero).

        :raises Refusal: a spectator asked, not a person's seat, not away long enough, or an
            unknown bot level.
        """
        with language(lang):
            if grant.role == "spectator":
                raise Refusal("spectator", _("spectators watch; they do not play"))
            if room.keeper:
                raise Refusal("illegal_action", _("in a scorekeeper room the dice are thrown at the table: "
                                                  "no bot can play a seat"))
            level = msg.level.strip().lower()
            if level not in BOTS:
                raise Refusal("unknown_bot", _("unknown bot “{bot}”; choose one of {bots}").format(
                    bot=msg.level, bots=", ".join(BOTS)))
            if not 0 <= msg.seat < len(room.game.seats) or room.game.seats[msg.seat].is_bot:
                raise Refusal("not_away", _("seat {seat} is not a person's seat").format(seat=msg.seat))
            async with room.lock:
                if not room.may_hand_to_bot(msg.seat):
                    raise Refusal("not_away", _("seat {seat} may go to a bot once its player has been away "
                                                "{seconds:.0f} seconds").format(
                        seat=msg.seat, seconds=room.settings.away_after))
                room.stand_ins[msg.seat] = level
                await asyncio.to_thread(self.store.save_stand_ins, room.id, dict(room.stand_ins))
        room.wake("presence")
        room.wake("game")
        await self.presence.publish(room, refresh=True)
        self.ensure(room)

    async def back(self, room: Room, seats: list[int]) -> bool:
        """The players of these seats are back: their stand-in bots stop (whether there were any)."""
        back = [s for s in seats if s in room.stand_ins]
        if back:
            async with room.lock:
                for seat in back:
                    room.stand_ins.pop(seat, None)
                    room.stand_in_bots.pop(seat, None)
                await asyncio.to_thread(self.store.save_stand_ins, room.id, dict(room.stand_ins))
        return bool(back)

    def ensure(self, room: Room) -> None:
        """Start the room's bot loop if a bot is to move and none is running."""
        if room.bot_turn() and (room.bot_task is None or room.bot_task.done()):
            try:
                room.bot_task = asyncio.get_running_loop().create_task(self._run(room))
            except RuntimeError:  # no event loop (a synchronous caller): the next action starts it
                room.bot_task = None

    @staticmethod
    def move(room: Room) -> list[Event]:
        """The move of the bot whose turn it is (a bot's seat's, or a stand-in's), made through
        the room's session (under the room's lock, in a thread)."""
        g = room.game
        seat = g.state.current
        if g.seats[seat].is_bot:
            return room.session.step()
        level = room.stand_ins[seat]
        bot = room.stand_in_bots.get(seat)
        if bot is None:
            bot = room.stand_in_bots[seat] = make_bot(level, g.ruleset)
        return room.session.act(bot.act(g), seat)

    async def _run(self, room: Room) -> None:
        """Bots move at the room's pace until a person is to play."""
        while room.bot_turn():
            await asyncio.sleep(room.settings.bot_pace)
            try:
                if not await self.authority.play_bot(room):
                    return
            except Refusal:
                # another process moved first (it plays this room's bots too), or the database
                # failed: this one stands back, and takes over if the game stops moving
                self._watch(room)
                return

    def _watch(self, room: Room) -> None:
        """Look at a room again after a while (:attr:`watch` seconds, or three of its bot moves):
        a bot still to move and the game not moved since, this process plays the bots (the
        process that did has stopped); the game moved, look again later."""
        version = room.version

        def look() -> None:
            if not self.authority.holds(room) or not room.bot_turn():
                return
            if room.version == version:
                self.ensure(room)
            else:
                self._watch(room)

        asyncio.get_running_loop().call_later(max(self.watch, 3 * room.settings.bot_pace), look)
