"""The rooms' authority: the one writer that changes a room's game, and the order in which
a change is checked, applied, committed, acknowledged and published.

:class:`Rooms` is what the routes call: it makes rooms, loads them back, counts connections,
and takes every action (a person's :meth:`~Rooms.act`, a scorekeeper room's
:meth:`~Rooms.edit`, a bot's :meth:`~Rooms.play_bot`). Its neighbours: :mod:`.room` (a room in
memory), :mod:`.seating` (tokens issued and checked, the host's say over the seats),
:mod:`yatzy.storage.rooms` (its rows: the :class:`~yatzy.storage.rooms.RoomStore`),
:mod:`.presence` (who is connected, told to the other processes), :mod:`.relay` (catching up
with the other processes) and :mod:`.botloop` (when the bots move).

**One writer per game.** In a process, every change of a room happens under the room's
asyncio lock. Across processes, the room's row carries the game's version
(:attr:`~yatzy.game.Game.version`, which the session's events and the views carry too): an
action is committed only if the row still has the version the process saw, and a process
that loses the race reloads the room from the database (the client gets a full state). The
game's whole save is written once, at the end of the game, after the last action is
acknowledged, in a transaction of its own (and within the action's transaction after a
scorekeeper room's undo or correction): an action that ends a game is acknowledged as fast as
any other, and a save that fails or never happens loses nothing, the actions being in the
room's log (a restarted server saves a game whose end it finds unsaved). So while a game is
played, the history lists it as it was at the start.

**Committed before broadcast.** An action is applied to the game in memory, committed (in a
group commit with the other rooms' actions waiting then), and only then acknowledged and
published on the room's channel with its events and the versions before and after it; if
the commit fails the room is reloaded from the database, so memory never runs ahead of what
is stored. A restarted server loads each room back (lazily, on first use) from its last
committed action.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from typing import Any

from ..actions import Roll, parse_action
from ..errors import IllegalActionError, InvalidActionError, YatzyError
from ..events import Event
from ..game import Game
from ..i18n import _, language
from ..saves import action_to_dict
from ..scorekeeping import correction, rounds
from ..session import Session
from ..storage import Database, StorageError
from ..storage.database import GroupCommit
from ..storage.errors import RoomConflictError
from ..storage.rooms import CODE_ALPHABET, CODE_LENGTHS, RoomRecord, RoomStore
from ..views import last_move
from .botloop import BotLoop
from .fairness import commitment, new_salt
from .presence import PresenceLoop
from .protocol import Ack, Act, Amend, HandToBot, Undo
from .pubsub import InProcessPubSub, PubSub, Subscription
from .relay import Relay
from .room import Grant, Refusal, Room, RoomSettings
from .seating import Seating

log = logging.getLogger(__name__)

RESUME_WITHIN = timedelta(days=1)
"""How recently a room must have moved for a restarted server to take its game up again at
once (older ones load when someone opens them)."""
KEEP_FINISHED = 300.0
"""Seconds a finished game's room stays in memory once nobody here is connected to it; then
it is let go (read back from the database if asked for again), so a long-running server
holds only the games being played."""


def _code(code: str) -> str | None:
    """A code as typed, in capitals; None if it cannot be a room's (wrong length or letters)."""
    code = code.strip().upper()
    return code if len(code) in CODE_LENGTHS and all(c in CODE_ALPHABET for c in code) else None


class Rooms:
    """The rooms a server process holds: made, loaded back, played, and fanned out."""

    def __init__(self, db: Database, pubsub: PubSub | None = None, *,
                 keep_finished: float = KEEP_FINISHED) -> None:
        self.db = db
        self.store = RoomStore(db)
        self.keep_finished = keep_finished
        self.closed = False
        self.pubsub = pubsub or InProcessPubSub()
        self.rooms: dict[str, Room] = {}
        self.presence = PresenceLoop(self.pubsub, self.rooms)
        self.relay = Relay(self.store, self.pubsub, self.rooms)
        self.bots = BotLoop(self, self.store, self.presence)
        self.seating = Seating(self.store, self.presence, self.bots)
        """Seats taken, tokens checked, and the host's say over the seats."""
        self.pubsub.on_reconnect = self.relay.catch_up
        self._subscriptions: dict[str, Subscription] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        """Rooms being loaded from the database: code -> the load (shared by all who ask)."""
        self.commits = GroupCommit(db, clean=(RoomConflictError,))
        """Every room's actions: committed together, one transaction for all those waiting."""
        self.stores = GroupCommit(db, clean=(RoomConflictError,))
        """New rooms and finished games' whole saves: bigger writes (a game's save is several
        milliseconds of work), on a thread of their own so that no action waits for one."""

    async def close(self) -> None:
        """Stop the bots, finish the saves and leave the pub/sub channels (at shutdown)."""
        self.closed = True
        for room in self.rooms.values():
            for task in (room.bot_task, room.prepared):
                if task is not None:
                    task.cancel()
            room.crowd.stop()
        self.presence.stop()
        saves = [room.saving for room in self.rooms.values() if room.saving is not None]
        await asyncio.gather(*saves, return_exceptions=True)
        await self.presence.leave()  # the other processes forget this one's connections
        for sub in self._subscriptions.values():
            await sub.close()
        self._subscriptions.clear()
        await asyncio.to_thread(self.commits.close)
        await asyncio.to_thread(self.stores.close)

    async def resume(self, within: timedelta = RESUME_WITHIN) -> int:
        """Take up again the games a stopped server was playing (rooms that moved ``within``
        before now, their game not finished as stored): their bots play on, and a game whose
        end was committed but not its save gets saved. Returns how many rooms were loaded; a
        room that no longer loads is logged and left alone."""
        codes = await asyncio.to_thread(self.store.unfinished, datetime.now(UTC) - within)
        for code in codes:
            try:
                await self.get(code)
            except StorageError as e:
                log.error("room %s could not be taken up again: %s", code, e)
        return len(codes)

    # -- making and finding ------------------------------------------------------------------
    async def create(self, game: Game, settings: RoomSettings) -> tuple[Room, str | None]:
        """A new room for ``game`` (seeded from :mod:`secrets`); returns it and, for a hot-seat
        room, the table's token. Stored through the group commit of bigger writes (with the
        other new rooms and saves waiting then), and held from then on as it is: nothing read
        back.

        :raises InvalidActionError: a bot seat of an unknown level, or an unknown language.
        :raises StorageError: the database failed; no room was made.
        """
        session = Session(game, lang=settings.lang)  # checks the bot levels and the language
        salt = new_salt()
        seal = "" if game.dice_from == "players" else commitment(game.seed, salt)  # keeper: no seed to seal
        table = secrets.token_urlsafe(24) if settings.hot_seat else None
        room_id, code, game_id = await self.stores.run(
            -1, lambda s: self.store.store(s, game, asdict(settings), salt, seal, table))
        record = RoomRecord(room_id, code, game_id, asdict(settings), {}, salt, seal, game, set(),
                            saved=len(game.log))
        room = Room.from_record(record, session)
        await self._hold(room)
        return room, table

    async def get(self, code: str) -> Room | None:
        """The room with this code, loaded from the database if this process has not yet
        (one load per code at a time; other rooms load meanwhile).

        :raises StorageError: the database failed, or the stored game no longer loads.
        """
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        if _code(code) is None:
            return None
        loading = self._loading.get(code)
        if loading is None:
            loading = self._loading[code] = asyncio.ensure_future(self._load(code))
            loading.add_done_callback(lambda _done: self._loading.pop(code, None))
        return await asyncio.shield(loading)

    async def _load(self, code: str) -> Room | None:
        record = await asyncio.to_thread(self.store.load, code)
        if record is None:
            return None
        if code in self.rooms:  # made here meanwhile
            return self.rooms[code]
        room = Room.from_record(record)
        await self._hold(room)
        if room.over and room.saved < room.logged:  # the server stopped before the end's save
            self.save_later(room)
        return room

    async def _hold(self, room: Room) -> None:
        """Hold a room from now on: listen on its channel and start its bots."""
        self.rooms[room.code] = room
        room.watch_away()
        channel = f"room:{room.code}"
        self._subscriptions[room.code] = await self.pubsub.subscribe(channel, self.relay.handler(room))
        self.bots.prepare(room)
        self.bots.ensure(room)
        self._let_go_later(room)

    def _let_go_later(self, room: Room) -> None:
        """If the room's game is over and nobody here is connected to it, let go of it after
        :attr:`keep_finished` seconds (unless someone connects meanwhile)."""
        if room.letting_go is not None:
            room.letting_go.cancel()
            room.letting_go = None
        if room.over and not room.listeners:
            room.letting_go = asyncio.get_running_loop().call_later(
                self.keep_finished, lambda: asyncio.ensure_future(self._let_go(room)))

    async def _let_go(self, room: Room) -> None:
        room.letting_go = None
        if not room.over or room.listeners or self.rooms.get(room.code) is not room:
            return
        await self.forget(room)

    async def forget(self, room: Room) -> None:
        """Hold the room no more (its game over, or the room expired): its timers and channel stop here."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        if room.letting_go is not None:
            room.letting_go.cancel()
            room.letting_go = None
        room.crowd.stop()
        subscription = self._subscriptions.pop(room.code, None)
        if subscription is not None:
            await subscription.close()

    async def expired(self, code: str) -> bool:
        """Whether ``code`` names a room that has expired (False: a live room or none)."""
        typed = _code(code)
        return typed is not None and await asyncio.to_thread(self.store.expired, typed)

    # -- presence ----------------------------------------------------------------------------
    async def connected(self, room: Room, grant: Grant) -> None:
        """Someone connected: count them, and end a stand-in for their seat (they are back)."""
        seats = room.seats_of(grant)
        room.crowd.came(seats, grant.role == "spectator")
        self.presence.keep_saying()
        back = await self.bots.back(room, seats)
        room.wake("presence")
        await self.presence.publish(room, refresh=back)

    async def disconnected(self, room: Room, grant: Grant) -> None:
        room.crowd.left(room.seats_of(grant), grant.role == "spectator")
        room.wake("presence")
        await self.presence.publish(room)
        self._let_go_later(room)

    # -- actions -----------------------------------------------------------------------------
    async def act(self, room: Room, grant: Grant, msg: Act, lang: str,
                  on_accepted: Callable[[Ack], None]) -> None:
        """Apply a client's action: checked, applied by the engine, committed, acknowledged
        (``on_accepted``), then published to every client of the room.

        :raises Refusal: a spectator, another seat, not this seat's turn, a stale version, a
            malformed or illegal action, or the database refused (nothing changed).
        """
        with language(lang):
            if grant.role == "spectator":
                raise Refusal("spectator", _("spectators watch; they do not play"))
            if grant.role == "seat" and msg.seat is not None and msg.seat != grant.seat:
                raise Refusal("other_seat", _("your token plays seat {mine}, not seat {seat}").format(
                    mine=grant.seat, seat=msg.seat))
            async with room.lock:
                if self._duplicate(room, grant, msg.id, on_accepted):
                    return
                if room.over:
                    raise Refusal("game_over", _("the game is over; no more moves"))
                self._check_version(room, msg.version)
                seat = self._actor(room, grant, msg)
                before = room.version
                room.session.lang = lang
                try:
                    events = room.session.act(self._typed(room, msg.action), seat)  # keeper
                except InvalidActionError as e:
                    raise Refusal("invalid_action", str(e)) from None
                except IllegalActionError as e:
                    raise Refusal("illegal_action", str(e)) from None
                finally:
                    room.session.lang = room.settings.lang
                news = await self._commit(room, before, events, msg.id, seat)
                if news is None:  # another process had accepted it: the room is loaded again
                    self._duplicate(room, grant, msg.id, on_accepted)
                    return
                on_accepted(Ack(id=msg.id, version=room.version))
        await self._publish(room, news)
        self.bots.ensure(room)

    @staticmethod
    def _duplicate(room: Room, grant: Grant, client_action_id: str,
                   on_accepted: Callable[[Ack], None]) -> bool:
        """Answer a retried action (its client action id was accepted already) with its ack."""
        seen = room.accepted.get(client_action_id)
        if seen is None:
            return False
        if grant.role == "seat" and seen[0] != grant.seat:
            raise Refusal("bad_message", _("this client action id was used for another seat's move"))
        on_accepted(Ack(id=client_action_id, version=seen[1], duplicate=True))
        return True

    # -- scorekeeper rooms (keeper) ---------------------------------------------------------
    @staticmethod
    def _typed(room: Room, action: str) -> str | Roll:
        """In a scorekeeper room ``r = 13356`` names the dice now on the table: the roll that
        reaches them, keeping as many of the dice before as it can (``k 335 = 46`` is taken as
        written). Anywhere else the action as sent (the session refuses named dice)."""
        if not room.keeper or "=" not in action:
            return action
        try:
            parsed = parse_action(action)
        except InvalidActionError as e:
            raise Refusal("invalid_action", str(e)) from None
        if isinstance(parsed, Roll) and not parsed.keep and parsed.result is not None:
            try:
                return room.game.roll_reaching(parsed.result)
            except InvalidActionError as e:
                raise Refusal("invalid_action", str(e)) from None
        return action

    async def edit(self, room: Room, grant: Grant, msg: Undo | Amend, lang: str,
                   on_accepted: Callable[[Ack], None]) -> None:
        """A scorekeeper room's undo of the last typed entry, or correction of a finished turn:
        checked, applied through the session, committed (the stored log written anew),
        acknowledged, then published like any action.

        :raises Refusal: not a scorekeeper room, a spectator, another seat's entry or turn, a
            stale version, the game over (an undo), or the engine refused (nothing changed).
        """
        with language(lang):
            if grant.role == "spectator":
                raise Refusal("spectator", _("spectators watch; they do not play"))
            if not room.keeper:
                raise Refusal("not_keeper", _("only a scorekeeper room's typed dice and scores can be taken "
                                              "back or corrected"))
            async with room.lock:
                if self._duplicate(room, grant, msg.id, on_accepted):
                    return
                self.seating.check_held(room, grant)
                self._check_version(room, msg.version)
                g = room.game
                if isinstance(msg, Undo):
                    if room.over:
                        raise Refusal("game_over", _("the game is over; correct a round instead"))
                    last = last_move(g)
                    owner = None if last is None else last.player
                else:
                    finished = rounds(g)
                    owner = finished[msg.turn].player if msg.turn < len(finished) else None
                if grant.role == "seat" and owner is not None and owner != grant.seat:
                    raise Refusal("other_seat", _("your token plays seat {mine}, not seat {seat}").format(
                        mine=grant.seat, seat=owner))
                before = room.version
                room.session.lang = lang
                try:
                    if isinstance(msg, Undo):
                        events = room.session.undo()
                    elif msg.actions is not None:
                        events = room.session.amend(msg.turn, list(msg.actions))
                    else:
                        assert msg.dice is not None and msg.box is not None
                        if owner is None:
                            room.session.amend(msg.turn, [])  # the engine says which turns there are
                        fixed = correction(g, msg.turn, tuple(msg.dice), msg.box,
                                           None if msg.returns is None else tuple(sorted(msg.returns)))
                        events = room.session.amend(msg.turn, fixed)
                except InvalidActionError as e:
                    raise Refusal("invalid_action", str(e)) from None
                except YatzyError as e:
                    raise Refusal("illegal_action", str(e)) from None
                finally:
                    room.session.lang = room.settings.lang
                news = await self._commit(room, before, events, msg.id, owner, rewrite=True)
                if news is None:  # another process had accepted it: the room is loaded again
                    self._duplicate(room, grant, msg.id, on_accepted)
                    return
                on_accepted(Ack(id=msg.id, version=room.version))
        await self._publish(room, news)

    @staticmethod
    def _check_version(room: Room, seen: int) -> None:
        """:raises Refusal: the client saw another version than the room's (a full state follows)."""
        if seen != room.version:
            raise Refusal("stale", _("the game has moved on (version {now}, not {seen}): here it is "
                                     "as it stands").format(now=room.version, seen=seen), resync=True)

    def _actor(self, room: Room, grant: Grant, msg: Act) -> int | None:
        """The seat a message acts for; Refusal unless that seat may move now (a seat's token
        that no longer holds: the host freed it, or a hot-seat room's, which only its table plays)."""
        self.seating.check_held(room, grant)
        g = room.game
        current = g.state.current
        if grant.role == "seat":
            seat = grant.seat
        elif msg.seat is not None:
            seat = msg.seat
        else:
            seat = current
        if grant.role == "table" and (seat is None or not 0 <= seat < len(g.seats) or g.seats[seat].is_bot):
            raise Refusal("other_seat", _("the table plays the people's seats only"))
        if seat != current or g.seats[current].is_bot or current in room.stand_ins:
            raise Refusal("not_your_turn",
                          _("it is {name}'s turn, not yours").format(name=g.seats[current].name))
        return seat

    async def _commit(self, room: Room, before: int, events: list[Event], client_action_id: str | None,
                      seat: int | None, rewrite: bool = False) -> dict[str, Any] | None:
        """Commit the room's game after an action (under the room's lock); on failure reload
        the room from the database and refuse (a full state follows). The message the room's
        channel gets (:meth:`_publish`): the versions before and after, the events and, unless
        the log was written anew, the actions appended (each roll with its dice), the client
        action id and the seat, with which the other processes holding the room follow on
        without reading the database (:meth:`.Relay.follow`). None: another process had
        accepted this very client action id (a retry): nothing committed, the room loaded
        again."""
        try:
            await self.commits.run(room.id, lambda s: self.store.commit_action(
                s, room, before, client_action_id, seat, rewrite))
        except RoomConflictError as e:
            await self.relay.reload(room)
            if client_action_id is not None and client_action_id in room.accepted:
                return None
            raise Refusal("conflict", str(e), resync=True) from None
        except StorageError as e:
            log.error("room %s: commit failed: %s", room.code, e)
            await self.relay.reload(room)
            raise Refusal("storage", _("the game could not be saved, so the move was not made: {error}")
                          .format(error=e), resync=True) from None
        news: dict[str, Any] = {"kind": "game", "room": room.code, "before": before}
        if not rewrite:
            news.update(actions=[action_to_dict(a) for a in room.game.log[room.logged:]],
                        action_id=client_action_id, seat=seat)
        room.logged = len(room.game.log)
        if rewrite:  # keeper: the whole save was written with it
            room.saved = room.logged
        elif room.over:
            self.save_later(room)
        batch = [event.to_dict() for event in events]
        room.remember(batch, before)
        if client_action_id is not None:
            room.accepted[client_action_id] = (seat, room.version)
        return {**news, "version": room.version, "events": batch}

    def save_later(self, room: Room) -> None:
        """Write the finished game's whole save once its last action is acknowledged (a task
        that takes the room's lock, so no correction changes the game meanwhile)."""
        if room.saving is None or room.saving.done():
            room.saving = asyncio.get_running_loop().create_task(self._save(room))

    async def _save(self, room: Room) -> None:
        async with room.lock:
            if room.saved >= len(room.game.log) or room.logged < len(room.game.log):
                return
            try:
                await self.stores.run(room.id, lambda s: self.store.save_game(s, room))
            except RoomConflictError:
                return  # another process has moved on: it saves the game
            except StorageError as e:  # every action is in the room's log: the next save catches up
                log.error("room %s: the game's save could not be written: %s", room.code, e)
                return
            room.saved = len(room.game.log)

    async def saved(self, game_id: int | None = None) -> None:
        """Wait until the whole save of the game ``game_id`` (if a room here plays it; every
        game's by default) is written: what the history reads is then up to date. An action
        being committed (under the room's lock) is waited for first: the game may be over in
        memory while its last move is still being written, and only then is its save begun."""
        for room in list(self.rooms.values()):
            if game_id not in (None, room.game_id):
                continue
            if room.lock.locked():
                async with room.lock:
                    pass
            if room.saving is not None and not room.saving.done():
                await asyncio.shield(room.saving)

    async def _publish(self, room: Room, news: dict[str, Any]) -> None:
        await self.pubsub.publish(f"room:{room.code}", news)
        if room.over:
            self._let_go_later(room)

    # -- bots --------------------------------------------------------------------------------
    async def hand_to_bot(self, room: Room, grant: Grant, msg: HandToBot, lang: str) -> None:
        """Let a bot play an away player's seat (see :meth:`BotLoop.hand_to_bot`).

        :raises Refusal: a spectator asked, a seat's token that no longer holds, not a
            person's seat, not away long enough, or a bot level unknown or not the room's.
        """
        with language(lang):
            self.seating.check_held(room, grant)
        await self.bots.hand_to_bot(room, grant, msg, lang)

    def holds(self, room: Room) -> bool:
        """Whether this process holds the room still (and is not shutting down)."""
        return not self.closed and self.rooms.get(room.code) is room

    async def play_bot(self, room: Room) -> bool:
        """The move of the bot whose turn it is, committed and published like a person's
        action; False if no bot is to move now, or it could not move.

        :raises Refusal: another process moved first, or the database failed (the room is
            loaded again).
        """
        async with room.lock:
            if not room.bot_turn():
                return False
            before, seat = room.version, room.game.state.current
            try:
                events = await asyncio.to_thread(self.bots.move, room)
            except YatzyError:
                log.exception("room %s: the bot of seat %s could not move", room.code, seat)
                return False
            news = await self._commit(room, before, events, None, seat)
            assert news is not None
        await self._publish(room, news)
        return True
