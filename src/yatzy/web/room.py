"""A room in memory: its game's session, settings, seats and tokens' grants, who is connected,
and the recent events its clients catch up from; and the refusal the authority answers with.

A room has a short code (the invite), a ruleset with options, seats for people and bots,
settings (coach on or off, spectators, hot seat, bot pace, how long a player may be away),
secret tokens (the database keeps only their SHA-256) and the dice commitment
(:mod:`yatzy.web.fairness`). :class:`yatzy.web.rooms.Rooms` makes, loads and changes them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..bots import BOTS, Player
from ..game import Game
from ..i18n import language
from ..narration import preparing_text
from ..session import Preparing, Session
from ..storage.rooms import Role, RoomRecord
from ..views import GameView, as_seen_by, game_view
from .presence import Crowd
from .protocol import BotsPreparing, ErrorCode, Presence, SeatPresence

EVENT_BUFFER = 2000
"""Events a room keeps in memory for clients that resume; older ones need a full state."""
PASSING = 0.05
"""Seconds a view made for a change of the game is kept for the clients woken by that change
(see :meth:`Room.memo`): long enough for every one of them, short enough that it dies young."""
STRONGEST = "optimal"
"""The level a seat handed to a bot gets in a room without bots of its own."""


@dataclass(frozen=True)
class RoomSettings:
    """How a room plays, chosen when it is made."""

    coach: bool = True
    """Whether the coach may be asked during play."""
    spectators: bool = True
    hot_seat: bool = False
    """One browser plays every person's seat with the table token."""
    bot_pace: float = 0.8
    """Seconds between two bot moves."""
    away_after: float = 60.0
    """Seconds a player may be gone before the others may hand their seat to a bot."""
    lang: str = "en"
    """The room's language (a bot's messages, default names)."""
    host: str = ""
    """The SHA-256 of the host's token (handed to whoever made the room): it frees a seat or
    gives it to a bot ("": a room made before rooms had hosts)."""
    rematch: str | None = None
    """The code of the room the rematch is played in, once someone asked for one at the end."""
    kept: tuple[int, ...] = ()
    """A rematch's seats kept for the players who had them in the game before: only they take
    them (with their old room's token), until :attr:`kept_until`."""
    kept_until: float = 0.0
    """When (``time.time()``) the kept seats open to anyone with the invite."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoomSettings:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        if "kept" in known:
            known["kept"] = tuple(int(seat) for seat in known["kept"])
        return cls(**known)


@dataclass(frozen=True)
class Grant:
    """What a token lets its holder do: play a seat, play the table (hot seat), or watch."""

    role: Role
    seat: int | None = None


class Refusal(Exception):  # noqa: N818 - a refusal is the expected answer, not a failure
    """An action or request refused, with the protocol's error code and a message in the
    client's language; ``resync``: the client must get a full state after it."""

    def __init__(self, code: ErrorCode, message: str, resync: bool = False) -> None:
        super().__init__(message)
        self.code, self.message, self.resync = code, message, resync


Listener = Callable[[str], None]
"""A connection's wake-up call: "game" (the game moved), "presence" (someone came or went),
"preparing" (the bots' table has come further), "seats" (the host freed a seat: is this
connection's token still good?) or "rematch" (someone asked for one)."""


@dataclass(eq=False)
class Room:
    """A loaded room: its game's session, who is connected, and recent events."""

    id: int
    code: str
    game_id: int
    settings: RoomSettings
    salt: str
    commitment: str
    session: Session
    stand_ins: dict[int, str]
    taken: set[int]
    saved: int = 0
    """How many of the game's actions its save in ``games`` holds."""
    logged: int = 0
    """How many of the game's actions the database holds (the save's, then appended rows)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    buffer: list[dict[str, Any]] = field(default_factory=list)
    """Recent events (each with its version), for clients that resume."""
    buffer_from: int = 0
    """Every event after this version is in the buffer..."""
    buffered: int = 0
    """... up to this version (behind :attr:`version` while another process's events are on
    their way: clients get a full state until then)."""
    accepted: dict[str, tuple[int | None, int]] = field(default_factory=dict)
    """Every accepted client action id -> (seat, version after), for retries: loaded with the
    room, so a retry needs no query (one another process accepted shows up as a conflict, after
    which the room is loaded again)."""
    listeners: set[Listener] = field(default_factory=set)
    crowd: Crowd = field(default_factory=Crowd)
    """Who is connected, here and in the other server processes."""
    bot_task: asyncio.Task[None] | None = None
    letting_go: asyncio.TimerHandle | None = None
    """The timer that lets go of a finished room nobody is connected to."""
    saving: asyncio.Task[None] | None = None
    """The game's whole save being written (see :meth:`Rooms.save_later`)."""
    stand_in_bots: dict[int, Player] = field(default_factory=dict)
    preparing: Preparing | None = None
    """How far the bots' table has come while it is built (None when no bot waits for one)."""
    prepared: asyncio.Task[None] | None = None
    """The bots' tables being built, loaded or ready (see :meth:`BotLoop.prepare`)."""
    _memo: dict[Any, Any] = field(default_factory=dict)
    """Views and messages made since the game last changed (see :meth:`memo`)."""
    _memo_of: tuple[Any, ...] = ()
    _passing: dict[Any, Any] = field(default_factory=dict)
    """The memo's objects kept only while the clients woken by the change take them."""

    @classmethod
    def from_record(cls, record: RoomRecord, session: Session | None = None) -> Room:
        """The room as stored; ``session``: one already made for the record's game."""
        settings = RoomSettings.from_dict(record.settings)
        session = session or Session(record.game, lang=settings.lang)
        room = cls(record.id, record.code, record.game_id, settings, record.salt, record.commitment,
                   session, record.stand_ins, record.taken,
                   saved=record.saved, logged=len(record.game.log), buffer_from=record.version,
                   buffered=record.version, accepted=dict(record.accepted))
        now = room.crowd.clock()
        room.crowd.away_since = {i: now for i, s in enumerate(record.game.seats) if not s.is_bot}
        return room

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def version(self) -> int:
        """The game's :attr:`~yatzy.game.Game.version`: the changes accepted so far."""
        return self.game.version

    @property
    def keeper(self) -> bool:
        """A scorekeeper room: the players type the dice they threw (no seed, no commitment)."""
        return self.game.dice_from == "players"

    @property
    def over(self) -> bool:
        return self.game.is_over

    def bot_turn(self) -> bool:
        """Whether a bot (a bot's seat, or a stand-in for an away player) moves now."""
        g = self.game
        return not g.is_over and (g.seats[g.state.current].is_bot or g.state.current in self.stand_ins)

    @property
    def catching_up(self) -> bool:
        """Whether this process has another process's actions but not yet their events (the
        room wakes its clients once it does)."""
        return self.buffered < self.version

    def events_after(self, version: int) -> list[dict[str, Any]] | None:
        """The events after ``version`` (None if some are no longer kept: send a state)."""
        if version < self.buffer_from or version > self.version or self.buffered < self.version:
            return None
        return [e for e in self.buffer if e["version"] > version]

    def remember(self, events: list[dict[str, Any]], before: int | None = None,
                 after: int | None = None) -> None:
        """Keep the events of the actions from version ``before`` to ``after`` (the room's
        last action by default); if they do not follow on from the buffer, it starts again."""
        before = self.buffered if before is None else before
        if before != self.buffered:
            self.buffer, self.buffer_from = [], before
        self.buffered = self.version if after is None else after
        self.buffer.extend(events)
        if len(self.buffer) > EVENT_BUFFER:
            dropped = self.buffer[: len(self.buffer) - EVENT_BUFFER]
            self.buffer = self.buffer[len(dropped):]
            self.buffer_from = max(self.buffer_from, max(e["version"] for e in dropped))

    def memo(self, key: Any, make: Callable[[], Any], *, passing: bool = False) -> Any:
        """What ``make`` makes, made once per ``key`` until the game changes (a new version,
        event, game or stand-in): each distinct view, each distinct message's JSON, is made
        once for every client that gets it.

        ``passing``: kept for :data:`PASSING` seconds only (when an event loop runs), for the
        clients the change wakes; one who comes later has it made again, the same. A room's
        views are thousands of objects the garbage collector would otherwise walk again and
        again for the seconds until the next move (with 1000 games, the young collections'
        40-50 ms pauses); the messages' JSON text it never walks, and stays."""
        now = (self.version, self.session.seq, id(self.session), self.buffer_from, self.buffered,
               tuple(sorted(self.stand_ins.items())))
        if now != self._memo_of:
            self._memo, self._passing, self._memo_of = {}, {}, now
        kept = self._passing if passing else self._memo
        try:
            return kept[key]
        except KeyError:
            made = kept[key] = make()
            if passing:
                self._let_pass(kept, key)
            return made

    @staticmethod
    def _let_pass(kept: dict[Any, Any], key: Any) -> None:
        """Forget ``key`` in ``kept`` after :data:`PASSING` seconds (never, outside an event loop)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        loop.call_later(PASSING, kept.pop, key, None)

    @staticmethod
    def viewer(grant: Grant) -> tuple[str, int | None]:
        """What a view depends on besides the language: the role, and a seat's number."""
        return grant.role, grant.seat if grant.role == "seat" else None

    def view(self, grant: Grant, lang: str) -> GameView:
        """The game as this token's holder may see it, in ``lang`` (made once per change of the
        game for every holder of the same role and seat): a seat's own view; the table's (hot
        seat: the moves of whichever person is to play); a spectator's, or a seat played by a
        stand-in bot, without moves to make."""
        return self.memo(("view", self.viewer(grant), lang), lambda: self._view(grant, lang),  # type: ignore[no-any-return]
                         passing=True)

    def _view(self, grant: Grant, lang: str) -> GameView:
        table = self.memo(("table view", lang), lambda: game_view(self.game, None, lang, self.session.seq),
                          passing=True)
        view = as_seen_by(table, grant.seat if grant.role == "seat" else None)  # one making for every seat
        if grant.role == "spectator" or (not self.over and self.game.state.current in self.stand_ins):
            view = replace(view, legal_actions=(), score_options=())
        return view

    def kept_seats(self, now: float) -> set[int]:
        """The seats kept at ``now`` for the players of the game before (a rematch's, not
        taken yet, until its ``kept_until``)."""
        if now >= self.settings.kept_until:
            return set()
        return set(self.settings.kept) - self.taken

    def seats_of(self, grant: Grant) -> list[int]:
        """The seats a connection with this grant counts for (a table's: every person's)."""
        if grant.role == "seat" and grant.seat is not None:
            return [grant.seat]
        if grant.role == "table":
            return [i for i, s in enumerate(self.game.seats) if not s.is_bot]
        return []

    def presence(self) -> Presence:
        """Who is connected to each seat, who is away and for how long, and the spectators."""
        now = self.crowd.clock()
        seats = []
        for i, seat in enumerate(self.game.seats):
            connected = self.crowd.connections(i) > 0
            away = None if connected or seat.is_bot else round(self.crowd.away_for(i, now), 1)
            seats.append(SeatPresence(
                seat=i, name=seat.name, kind=seat.kind, taken=i in self.taken, connected=connected,
                away_for=away, may_hand_to_bot=self.may_hand_to_bot(i, now), stand_in=self.stand_ins.get(i)))
        return Presence(seats=seats, spectators=self.crowd.watching(), away_after=self.settings.away_after,
                        stand_in_level=self.stand_in_level)

    def preparing_message(self, lang: str) -> BotsPreparing | None:
        """How far the bots' table has come, in ``lang`` (None: no bot has waited for one)."""
        p = self.preparing
        if p is None:
            return None
        with language(lang):
            text = preparing_text(p)
        share = round(p.done / p.total, 4) if p.total else None
        return BotsPreparing(stage=p.stage, progress=share, text=text, place=p.place,
                             seconds_left=p.seconds_left)

    @property
    def stand_in_level(self) -> str:
        """The bot level a person's seat handed to a bot gets: the strongest of the room's own
        bots (the levels it was made with), or :data:`STRONGEST` in a room without bots. Never
        a level someone chooses: an opponent cannot give an away player's seat to a weak bot."""
        levels = [s.level for s in self.game.seats if s.is_bot and s.level in BOTS]
        return max(levels, key=BOTS.index) if levels else STRONGEST

    def may_hand_to_bot(self, seat: int, now: float | None = None) -> bool:
        """A person's seat whose player has been gone at least ``away_after`` seconds."""
        if self.over or self.game.seats[seat].is_bot or seat in self.stand_ins:
            return False
        now = self.crowd.clock() if now is None else now
        return self.crowd.gone_long(seat, self.settings.away_after, now)

    def watch_away(self) -> None:
        """Tell the room's clients (a presence message) the moment a seat may go to a bot:
        once its player has been away ``away_after`` seconds (see :meth:`Crowd.watch`)."""

        def ring(seat: int) -> None:
            if self.may_hand_to_bot(seat):
                self.wake("presence")

        self.crowd.watch(self.settings.away_after, ring)

    def wake(self, what: str) -> None:
        for listener in list(self.listeners):
            listener(what)
