"""The browser app's rooms in the database (their tables are in :mod:`.schema`): a
:class:`RoomStore` over a :class:`~yatzy.storage.database.Database`, as the web's authority
(:mod:`yatzy.web.rooms`) uses it.

A room's row carries a version (its game's :attr:`~yatzy.game.Game.version`): an action is
committed only if the row still has the version the process saw (``UPDATE ... WHERE
version = :seen``), in the same transaction as the client action id and the action itself,
appended to the room's log (``room_log``: one small row, whatever the game's length). The
game's whole save (:func:`~yatzy.storage.games.record_game`, what the history and
statistics read) is written once, at the end of the game (and within the action's
transaction after a scorekeeper room's undo or correction). A room loads back from its
save's log and the appended actions after it, every roll checked against the seed (a
room's log cannot choose dice). Tokens are kept only as their SHA-256.

Every method is synchronous: the web runs them in a thread, or hands the writes that are
batched (:meth:`RoomStore.store`, :meth:`~RoomStore.commit_action`,
:meth:`~RoomStore.save_game`) to a :class:`~yatzy.storage.database.GroupCommit`, whose
Session they then join.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, Protocol, cast

from sqlalchemy import Table, bindparam, delete, insert, select, text, update

from ..errors import YatzyError
from ..game import Game
from ..i18n import _
from ..saves import action_to_dict
from .database import Database, Target, reading, writing
from .errors import RoomConflictError, StorageError
from .games import record_game, replay_save
from .schema import GameRow, RoomActionRow, RoomLogRow, RoomRow, RoomTokenRow, UtcDateTime

log = logging.getLogger(__name__)

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Room codes: capitals and digits a person reads aloud without doubt (no I, L, O, 0, 1)."""
CODE_LENGTH = 9
"""A new room's code: 31⁹ ≈ 2.6·10¹³ codes (docs/security.md: what guessing one takes)."""
CODE_LENGTHS = (6, CODE_LENGTH)
"""The lengths a code may have: rooms made before codes grew to 9 keep their 6 characters."""

Role = Literal["seat", "table", "spectator"]
"""What a token lets its holder do: play a seat, play the table (hot seat), or watch."""


def hash_token(token: str) -> str:
    """What the database keeps of a token: its SHA-256, as hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass
class RoomRecord:
    """A room as stored: its row's values and its game, replayed."""

    id: int
    code: str
    game_id: int
    settings: dict[str, Any]
    """As the room was made with them (the web's ``RoomSettings``)."""
    stand_ins: dict[int, str]
    salt: str
    commitment: str
    game: Game
    taken: set[int]
    saved: int = 0
    """How many of the game's actions its save in ``games`` holds (the rest are appended rows)."""
    accepted: dict[str, tuple[int | None, int]] = field(default_factory=dict)
    """Every accepted client action id -> (seat, version after)."""

    @property
    def version(self) -> int:
        """The room's version: its game's (:attr:`~yatzy.game.Game.version`), as the row keeps it."""
        return self.game.version


class HeldRoom(Protocol):
    """A room as a server process holds it, as far as writing its changes needs (a web
    ``Room`` is one)."""

    @property
    def id(self) -> int: ...
    @property
    def game_id(self) -> int: ...
    @property
    def game(self) -> Game: ...
    @property
    def logged(self) -> int:
        """How many of the game's actions the database holds (the save's, then appended rows)."""


_ROOMS = cast(Table, RoomRow.__table__)
_ROOM_LOG = cast(Table, RoomLogRow.__table__)
# an action's statements, made once (their compiled form is cached; made anew for each action,
# each one's cache key was worked out again on the writer thread)
_BUMP = (update(_ROOMS).where(_ROOMS.c.id == bindparam("room"), _ROOMS.c.version == bindparam("seen"))
         .values(version=bindparam("after"), updated_at=bindparam("at")))
_ACTIONS = cast(Table, RoomActionRow.__table__)
_ACCEPT = insert(_ACTIONS)
_APPEND = insert(_ROOM_LOG)
_ONE_TRIP = text("""
    WITH bump AS (
        UPDATE rooms SET version = :after, updated_at = :at WHERE id = :room AND version = :seen RETURNING id
    ), accepted AS (
        INSERT INTO room_actions (room_id, client_action_id, seat, version, created_at)
        SELECT id, CAST(:cid AS varchar), CAST(:seat AS integer), :after, :at FROM bump
        WHERE CAST(:cid AS varchar) IS NOT NULL
    ), appended AS (
        INSERT INTO room_log (room_id, position, action)
        SELECT bump.id, x.position, x.action
        FROM bump, jsonb_to_recordset(CAST(:rows AS jsonb)) AS x(position integer, action jsonb)
    )
    SELECT count(*) FROM bump
""").bindparams(bindparam("at", type_=UtcDateTime()))
"""PostgreSQL: an action's three writes in one statement, one round trip to the server
instead of three (the same rows as :data:`_BUMP`, :data:`_ACCEPT` and :data:`_APPEND`)."""
_DROP_LOG = delete(_ROOM_LOG).where(_ROOM_LOG.c.room_id == bindparam("room"),
                                    _ROOM_LOG.c.position < bindparam("upto"))
_EVERY = 2**31 - 1
"""A position past every row of a room's log."""
_VERSION = select(_ROOMS.c.version).where(_ROOMS.c.id == bindparam("room")).with_for_update()


class RoomStore:
    """The rooms' rows, tokens, accepted action ids and logs in one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    def store(target: Target, game: Game, settings: dict[str, Any], salt: str, commitment: str,
              table_token: str | None = None) -> tuple[int, str, int]:
        """Store a new room, its game and (a hot-seat room) the table's token in one transaction
        (a Database's own, or the caller's Session's); returns (room id, code, game id)."""
        now = datetime.now(UTC)
        with writing(target) if isinstance(target, Database) else contextlib.nullcontext(target) as s:
            game_id = record_game(s, game, at=now)  # keeper: the game says where its dice come from
            code = new_code()
            while s.scalar(select(RoomRow.id).where(RoomRow.code == code)) is not None:
                code = new_code()
            row = RoomRow(code=code, game_id=game_id, settings=settings, stand_ins={}, salt=salt,
                          commitment=commitment, version=len(game.log), created_at=now, updated_at=now)
            s.add(row)
            s.flush()
            if table_token is not None:
                s.add(RoomTokenRow(token_hash=hash_token(table_token), room_id=row.id, role="table",
                                   seat=None, created_at=now))
                s.flush()
            return row.id, code, game_id

    def load(self, code: str) -> RoomRecord | None:
        """The room with this code, its game replayed from the database (None if there is none):
        the save's log, then the actions appended after it, seeded dice checked against the seed.

        :raises StorageError: the database failed, or the stored game no longer loads.
        """
        with reading(self.db) as s:
            row = s.scalar(select(RoomRow).where(RoomRow.code == code, RoomRow.expired_at.is_(None)))
            if row is None:
                return None
            stored = s.get(GameRow, row.game_id)
            if stored is None:
                raise StorageError(_("there is no game {id} in the database").format(id=row.game_id))
            save, dice_from = stored.save, stored.dice_from
            saved = len(save["log"])
            appended = s.execute(select(RoomLogRow.position, RoomLogRow.action).where(
                RoomLogRow.room_id == row.id, RoomLogRow.position >= saved)
                .order_by(RoomLogRow.position)).all()
            taken = set(s.scalars(select(RoomTokenRow.seat).where(
                RoomTokenRow.room_id == row.id, RoomTokenRow.role == "seat")))
            accepted = {cid: (seat, version) for cid, seat, version in s.execute(
                select(RoomActionRow.client_action_id, RoomActionRow.seat, RoomActionRow.version)
                .where(RoomActionRow.room_id == row.id))}
        if [p for p, _a in appended] != list(range(saved, saved + len(appended))):
            raise StorageError(_("stored game {id} does not load: its appended actions have gaps").format(
                id=row.game_id))
        try:
            game = replay_save({**save, "log": [*save["log"], *(a for _p, a in appended)]}, dice_from)
        except YatzyError as e:
            raise StorageError(_("stored game {id} does not load: {error}").format(
                id=row.game_id, error=e)) from None
        game.edits = max(row.version - len(game.log), 0)  # keeper: undos and corrections, not in the save
        return RoomRecord(row.id, row.code, row.game_id, dict(row.settings),
                          {int(k): str(v) for k, v in row.stand_ins.items()}, row.salt, row.commitment,
                          game, {t for t in taken if t is not None}, saved, accepted)

    def issue_token(self, room_id: int, role: Role, seat: int | None = None) -> str | None:
        """A new secret token for a role (a seat's only if the seat has none yet: else None)."""
        token = secrets.token_urlsafe(24)
        with writing(self.db) as s:
            if role == "seat":
                s.execute(select(RoomRow.id).where(RoomRow.id == room_id).with_for_update())
                held = s.scalar(select(RoomTokenRow.token_hash).where(
                    RoomTokenRow.room_id == room_id, RoomTokenRow.role == "seat", RoomTokenRow.seat == seat))
                if held is not None:
                    return None
            s.add(RoomTokenRow(token_hash=hash_token(token), room_id=room_id, role=role, seat=seat,
                               created_at=datetime.now(UTC)))
        return token

    def check_token(self, room_id: int, token: str) -> tuple[Role, int | None] | None:
        """What a token grants in a room: its role and seat (None: no such token in this room)."""
        with reading(self.db) as s:
            row = s.get(RoomTokenRow, hash_token(token))
            if row is None or row.room_id != room_id:
                return None
            return cast(Role, row.role), row.seat

    @staticmethod
    def commit_action(target: Target, room: HeldRoom, seen: int, client_action_id: str | None,
                      seat: int | None, rewrite: bool = False) -> None:
        """Commit the room's game after one accepted action (its version was ``seen`` before) in
        one transaction: the room's version bump (only if it is still ``seen``), the client action
        id, and the actions the database lacks appended to the room's log. ``rewrite`` (keeper): a
        scorekeeper room's undo or correction, after which the log no longer continues the stored
        one: the game's whole save is written anew instead (and an earlier analysis dropped).

        :raises RoomConflictError: the stored room is no longer at ``seen`` (another process wrote).
        :raises StorageError: the database failed; nothing was written.
        """
        now = datetime.now(UTC)
        version = room.game.version  # keeper: undos and corrections count too
        log = room.game.log
        with writing(target) if isinstance(target, Database) else contextlib.nullcontext(target) as s:
            # a Session: its caller's transaction (the group commit's), no savepoint of its own
            connection = s.connection()
            if not rewrite and connection.dialect.name == "postgresql":
                rows = [{"position": i, "action": action_to_dict(log[i])}
                        for i in range(room.logged, len(log))]
                bumped = connection.execute(_ONE_TRIP, {
                    "room": room.id, "seen": seen, "after": version, "at": now, "cid": client_action_id,
                    "seat": seat, "rows": json.dumps(rows)}).scalar()
                if bumped != 1:  # nothing written
                    raise RoomConflictError(_("another server process moved this game first"))
                return
            done = connection.execute(_BUMP, {"room": room.id, "seen": seen, "after": version, "at": now})
            if done.rowcount != 1:  # nothing written yet
                raise RoomConflictError(_("another server process moved this game first"))
            if client_action_id is not None:
                connection.execute(_ACCEPT, {"room_id": room.id, "client_action_id": client_action_id,
                                             "seat": seat, "version": version, "created_at": now})
            if rewrite:  # keeper: the stored log is written anew
                record_game(s, room.game, game_id=room.game_id, at=now, rewrite=True)
                # the old log's rows: all gone
                connection.execute(_DROP_LOG, {"room": room.id, "upto": _EVERY})
            elif room.logged < len(log):
                connection.execute(_APPEND, [
                    {"room_id": room.id, "position": i, "action": action_to_dict(log[i])}
                    for i in range(room.logged, len(log))])

    def unfinished(self, since: datetime) -> list[str]:
        """The codes of the rooms whose game is not finished (as stored) and that moved since
        ``since``: the games a restarted server takes up again."""
        with reading(self.db) as s:
            return list(s.scalars(select(RoomRow.code).join(GameRow, GameRow.id == RoomRow.game_id).where(
                GameRow.finished.is_(False), RoomRow.updated_at >= since).order_by(RoomRow.id)))

    # -- expiry ----------------------------------------------------------------------------------
    def expired(self, code: str) -> bool:
        """Whether ``code`` names a room that has expired (False: a live room, or none at all)."""
        with reading(self.db) as s:
            return s.scalar(select(RoomRow.id).where(RoomRow.code == code, RoomRow.expired_at.is_not(None))) \
                is not None

    def expired_among(self, codes: Iterable[str]) -> set[str]:
        """Which of these rooms have expired (as another process may have swept them)."""
        codes = list(codes)
        if not codes:
            return set()
        with reading(self.db) as s:
            return set(s.scalars(select(RoomRow.code).where(RoomRow.code.in_(codes),
                                                            RoomRow.expired_at.is_not(None))))

    def touch(self, codes: Iterable[str], now: datetime) -> None:
        """These rooms are in use (someone is connected): not idle as of ``now``."""
        codes = list(codes)
        if codes:
            with writing(self.db) as s:
                s.execute(update(_ROOMS).where(_ROOMS.c.code.in_(codes), _ROOMS.c.expired_at.is_(None))
                          .values(updated_at=now))

    def expire(self, idle_before: datetime, finished_before: datetime, now: datetime) -> list[str]:
        """Expire the rooms whose game is unfinished and that have not moved since
        ``idle_before``, and those whose game is finished and that have not moved since
        ``finished_before``: each room's game is first brought up to date in the history (its
        appended actions written into its save), then its log and accepted action ids are
        deleted and the room marked expired at ``now``, in one transaction per room (a room
        that moved meanwhile is left alone; one whose write fails is logged and left for the
        next sweep). Returns the codes expired.

        :raises StorageError: the database could not be read.
        """
        with reading(self.db) as s:
            found = s.execute(select(RoomRow.id, RoomRow.code, RoomRow.version, RoomRow.game_id).join(
                GameRow, GameRow.id == RoomRow.game_id).where(
                RoomRow.expired_at.is_(None),
                ((GameRow.finished.is_(False) & (RoomRow.updated_at < idle_before))
                 | (GameRow.finished.is_(True) & (RoomRow.updated_at < finished_before))))
                .order_by(RoomRow.id)).all()
            logged = set(s.scalars(select(RoomLogRow.room_id).where(
                RoomLogRow.room_id.in_([room_id for room_id, *_rest in found])).distinct()))
        expired = []
        for room_id, code, version, game_id in found:
            try:
                record = self.load(code) if room_id in logged else None
            except StorageError as e:  # its game no longer loads: it expires as it is stored
                log.error("room %s expires without its last moves in the history: %s", code, e)
                record = None
            try:
                with writing(self.db) as s:
                    if s.execute(_VERSION, {"room": room_id}).scalar() != version:
                        continue  # it moved meanwhile: not idle
                    if record is not None:
                        record_game(s, record.game, game_id=game_id)
                    s.execute(delete(_ROOM_LOG).where(_ROOM_LOG.c.room_id == room_id))
                    s.execute(delete(_ACTIONS).where(_ACTIONS.c.room_id == room_id))
                    s.execute(update(_ROOMS).where(_ROOMS.c.id == room_id)
                              .values(expired_at=now, stand_ins={}))
            except StorageError as e:  # this room stays for the next sweep; the others expire
                log.error("room %s could not expire: %s", code, e)
                continue
            expired.append(code)
        return expired

    def games_of(self, tokens: Iterable[str]) -> set[int]:
        """The games of the rooms these tokens belong to (any role; an expired room's too):
        the games their holders may see in the history."""
        hashes = [hash_token(t) for t in tokens]
        if not hashes:
            return set()
        with reading(self.db) as s:
            return set(s.scalars(select(RoomRow.game_id).join(
                RoomTokenRow, RoomTokenRow.room_id == RoomRow.id).where(RoomTokenRow.token_hash.in_(hashes))))

    def versions(self, codes: list[str]) -> dict[str, int]:
        """The stored version of each of these rooms (code -> version)."""
        with reading(self.db) as s:
            return {code: version for code, version in s.execute(
                select(RoomRow.code, RoomRow.version).where(RoomRow.code.in_(codes)))}

    @staticmethod
    def save_game(target: Target, room: HeldRoom) -> None:
        """Write the room's game's whole save (:func:`~yatzy.storage.games.record_game`: what the
        history and statistics read) and drop the room's appended actions it now holds, if the
        stored room is still at this process's version.

        :raises RoomConflictError: another process has moved the game on (it saves it then).
        :raises StorageError: the database failed; nothing was written.
        """
        length = len(room.game.log)
        with writing(target) if isinstance(target, Database) else contextlib.nullcontext(target) as s:
            connection = s.connection()
            if connection.execute(_VERSION, {"room": room.id}).scalar() != room.game.version:
                raise RoomConflictError(_("another server process moved this game first"))
            record_game(s, room.game, game_id=room.game_id)
            connection.execute(_DROP_LOG, {"room": room.id, "upto": length})

    def save_stand_ins(self, room_id: int, stand_ins: dict[int, str]) -> None:
        """The seats handed to a bot while their players are away (seat -> bot level)."""
        with writing(self.db) as s:
            row = s.get(RoomRow, room_id)
            assert row is not None
            row.stand_ins = {str(k): v for k, v in stand_ins.items()}

    def free_seat(self, room_id: int, seat: int) -> None:
        """A seat's tokens are no more (its room's host freed it): it may be taken again."""
        with writing(self.db) as s:
            s.execute(delete(RoomTokenRow).where(RoomTokenRow.room_id == room_id, RoomTokenRow.role == "seat",
                                                 RoomTokenRow.seat == seat))

    def keep_seats(self, room_id: int, seats: list[int]) -> None:
        """The seats a rematch keeps for its players of the game before are these from now on
        (its host freed one of them: anyone may take it)."""
        with writing(self.db) as s:
            row = s.scalar(select(RoomRow).where(RoomRow.id == room_id).with_for_update())
            assert row is not None
            row.settings = {**row.settings, "kept": seats}

    def name_rematch(self, room_id: int, code: str) -> str:
        """The room's rematch (kept in its settings): ``code``, unless another server process
        named one first (then that one's code)."""
        with writing(self.db) as s:
            row = s.scalar(select(RoomRow).where(RoomRow.id == room_id).with_for_update())
            assert row is not None
            named = row.settings.get("rematch")
            if named:
                return str(named)
            row.settings = {**row.settings, "rematch": code}
            return code
