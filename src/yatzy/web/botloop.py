"""The bots of the rooms a server process holds: when they move, and who plays a person's seat
while its player is away.

A room's bots (its bot seats, and stand-ins for away players) move at the room's pace until a
person is to play, one task per room; each move is made here and committed and published by
the authority (:meth:`yatzy.web.rooms.Rooms.play_bot`) like a person's. Several processes may
hold one room: the one that loses a race for a bot move stands back (its loop ends) and looks
again after :data:`BOT_WATCH` seconds, taking over only if the game has not moved (the
process that played has stopped).

A bot that plays from the solver's table waits for it the first time (seconds for most
rulesets, minutes for Maxi): the table is built (:meth:`yatzy.session.Session.prepare`) as soon
as the room is held, in a thread and outside the room's lock, so the room's clients get their
state at once, the people play their own turns meanwhile, and every client hears how far the
build has come (the room's :attr:`~yatzy.web.room.Room.preparing`, a "preparing" wake-up).
On a server the build goes through its table budget (:mod:`yatzy.web.budget`): it waits for its
turn in the queue of builds, the room told its place meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Protocol

from ..bots import BOTS, level_name, make_bot, needs_table
from ..events import Event
from ..game import Game
from ..i18n import _, language
from ..seats import Seat
from ..session import Preparing, Session
from ..storage.rooms import RoomStore
from .budget import TableBudget
from .presence import PresenceLoop
from .protocol import HandToBot
from .room import Grant, Refusal, Room

log = logging.getLogger(__name__)

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


def stand_in(room: Room, level: str | None) -> str:
    """The level asked for a seat handed to a bot, checked: it must be the room's own
    (:attr:`Room.stand_in_level`), so that nobody, the host included, plays an away player's
    seat with a weaker bot than the room's.

    :raises Refusal: an unknown level (unknown_bot), or another than the room's (bot_level).
    """
    if level is None:
        return room.stand_in_level
    asked = level.strip().lower()
    if asked not in BOTS:
        raise Refusal("unknown_bot", _("unknown bot “{bot}”; choose one of {bots}").format(
            bot=level, bots=", ".join(BOTS)))
    if asked != room.stand_in_level:
        raise Refusal("bot_level", _("a seat in this room goes to a bot of the room's level, {level}, "
                                     "not {asked}").format(level=level_name(room.stand_in_level),
                                                           asked=level_name(asked)))
    return asked


class BotLoop:
    """Runs every held room's bots, and hands an away player's seat to a bot."""

    def __init__(self, authority: Authority, store: RoomStore, presence: PresenceLoop) -> None:
        self.authority = authority
        self.store = store
        self.presence = presence
        self.watch = BOT_WATCH
        """Seconds before a process that lost a race for a bot move looks again."""
        self.budget: TableBudget | None = None
        """The server's table budget (None: every table is built at once)."""

    async def hand_to_bot(self, room: Room, grant: Grant, msg: HandToBot, lang: str) -> None:
        """Let a bot of the room's level play an away player's seat (their boxes are played,
        never scored zero): any seat's player (or the table) may ask once the seat's player has
        been away ``away_after`` seconds; the host may at once (:meth:`Seating.give_to_bot`).

        :raises Refusal: a spectator asked, not a person's seat, not away long enough, or a
            bot level unknown or not the room's (see :func:`stand_in`).
        """
        with language(lang):
            if grant.role == "spectator":
                raise Refusal("spectator", _("spectators watch; they do not play"))
            if room.keeper:
                raise Refusal("illegal_action", _("in a scorekeeper room the dice are thrown at the table: "
                                                  "no bot can play a seat"))
            level = stand_in(room, msg.level)
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

    def prepare(self, room: Room) -> asyncio.Task[None]:
        """Build the tables the room's bots play from (once; at once if none needs one), in a
        thread: its progress goes to the room's clients (a "preparing" wake-up), the last
        one at stage "ready"."""
        if room.prepared is None:
            room.prepared = asyncio.get_running_loop().create_task(self._prepare(room))
        return room.prepared

    async def _prepare(self, room: Room) -> None:
        g = room.game
        if g.is_over or not any(s.is_bot and needs_table(s.level or "", g.ruleset) for s in g.seats):
            return
        await self._told(room, room.session)

    async def _told(self, room: Room, session: Session) -> None:
        """Prepare ``session``'s bots in a thread (:meth:`Session.prepare`), its progress told
        to the room's clients; on a server, once the build's turn has come in the queue (its
        place told meanwhile). A table the budget refuses (a room made before a restart, a
        stand-in): the seats waiting for it play as greedy bots, which need none."""
        loop = asyncio.get_running_loop()
        told: list[tuple[str, float | None]] = []
        g = session.game

        def progress(p: Preparing) -> None:  # in the build's thread
            loop.call_soon_threadsafe(self._progress, room, p, told)

        def queued(place: int) -> None:
            seats = session.table_seats()
            levels = tuple(sorted({(g.seats[i].level or "").strip().lower() for i in seats}))
            self._progress(room, Preparing("loading", g.ruleset.name, levels, seats=seats, place=place), told)

        budget = self.budget
        try:
            if budget is not None and not self._within(budget, room, session):
                budget = None  # no table to wait for any more
            if budget is None:
                await asyncio.to_thread(session.prepare, progress=progress)
            else:
                async with budget.turn(g.ruleset, queued):
                    await asyncio.to_thread(session.prepare, progress=progress)
                budget.hold(g.ruleset)
        except Exception:  # the bot's first move builds it (or says why it cannot)
            log.exception("room %s: the bots' table could not be built", room.code)
        if room.preparing is not None and room.preparing.stage != "ready":  # its clients stop waiting
            room.preparing = replace(room.preparing, stage="ready", place=None)
            room.wake("preparing")

    @staticmethod
    def _within(budget: TableBudget, room: Room, session: Session) -> bool:
        """Whether the table ``session``'s bots wait for is within the budget (free if it was
        let in when the room was made, or is prepared); if not, those seats play as greedy
        bots, which need no table, and the log says why."""
        try:
            budget.admit(session.game.ruleset)
        except Refusal as r:
            log.warning("room %s: %s; its bots play as greedy bots", room.code, r.message)
            for seat in session.table_seats():
                session.change_bot(seat, "greedy")
            return False
        return True

    @staticmethod
    def _progress(room: Room, p: Preparing, told: list[tuple[str, float | None]]) -> None:
        """The build came further: the clients hear of a new stage or of each per cent more."""
        share = round(p.done / p.total, 2) if p.total else None
        room.preparing = p
        if not told or told[-1] != (p.stage, share or p.place):
            told.append((p.stage, share or p.place))
            room.wake("preparing")

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
        """Bots move at the room's pace until a person is to play (once their tables are
        built)."""
        await self.prepare(room)
        while room.bot_turn():
            await asyncio.sleep(room.settings.bot_pace)
            await self._stand_in_ready(room)
            try:
                if not await self.authority.play_bot(room):
                    return
            except Refusal:
                # another process moved first (it plays this room's bots too), or the database
                # failed: this one stands back, and takes over if the game stops moving
                self._watch(room)
                return

    async def _stand_in_ready(self, room: Room) -> None:
        """A stand-in bot about to play for the first time is made outside the room's lock,
        its table built first (if it plays from one) by a session of one seat of its level,
        its progress told like the bot seats': the room's clients are not held up meanwhile."""
        seat = room.game.state.current
        level = room.stand_ins.get(seat)
        if level is None or seat in room.stand_in_bots:
            return
        ruleset = room.game.ruleset
        wanted = level
        if needs_table(level, ruleset):
            alone = Session(Game(ruleset, [Seat.bot(level)]), lang=room.settings.lang)
            await self._told(room, alone)
            level = alone.game.seats[0].level or level  # greedy if the budget refused its table
        bot = await asyncio.to_thread(make_bot, level, ruleset)
        if room.stand_ins.get(seat) == wanted:
            room.stand_in_bots.setdefault(seat, bot)

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
