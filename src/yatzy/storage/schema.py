"""The tables: one row per game, one per seat of a game.

The schema itself is made and changed only by the migrations in ``migrations/versions``;
these classes describe it to SQLAlchemy, and a test checks that the two agree.

The ``save`` column holds the whole save (``Game.to_dict()``: rules, options, seats, seed,
action log), seed included, so a stored game can be loaded and rolled on. It is for the
server only: nothing in :mod:`yatzy.storage` hands it (or the seed) to a client; the
summaries, statistics and records carry no save.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal, cast

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    TypeDecorator,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from ..errors import InvalidActionError
from ..i18n import _

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Constraint names, the same on every backend (later migrations name what they alter)."""

DICE_FROM = ("server", "players")
"""Who rolled: the server's seeded dice, or people at a table typing their real dice."""
DiceFrom = Literal["server", "players"]


def check_dice_from(dice_from: object) -> DiceFrom:
    """``dice_from`` itself, checked.

    :raises InvalidActionError: ``dice_from`` is neither "server" nor "players".
    """
    if dice_from not in DICE_FROM:
        raise InvalidActionError(_("dice come from the “server” or the “players”, not “{source}”").format(
            source=dice_from))
    return cast(DiceFrom, dice_from)




JSON_TYPE = JSON().with_variant(JSONB(), "postgresql")
"""JSON: JSONB in PostgreSQL, text elsewhere."""


class UtcDateTime(TypeDecorator[datetime]):
    """A moment in UTC: written as UTC, read back timezone-aware (SQLite keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: give a timezone-aware moment")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class GameRow(Base):
    """A game, finished or not: its ruleset, when it was played, and the whole save."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(40))
    """The ruleset's canonical name (``Ruleset.name``)."""
    options: Mapped[dict[str, Any]] = mapped_column(JSON_TYPE)
    """House-rule options, as in the save."""
    title: Mapped[str | None] = mapped_column(String(200))
    """A name people gave the game ("Christmas final"), if any."""
    started_at: Mapped[datetime] = mapped_column(UtcDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime)
    dice_from: Mapped[str] = mapped_column(String(10))
    """"server" (seeded dice, checked against the seed on load) or "players" (typed in)."""
    finished: Mapped[bool] = mapped_column(Boolean)
    actions: Mapped[int] = mapped_column(Integer)
    """Length of the action log: only grows."""
    save: Mapped[dict[str, Any]] = mapped_column(JSON_TYPE)
    """``Game.to_dict()``, seed and log included: server-side only, never sent to a client."""

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="game", order_by="SeatRow.seat", cascade="all, delete-orphan", passive_deletes=True)

    __table_args__ = (
        CheckConstraint("dice_from IN ('server', 'players')", name="dice_from"),
        CheckConstraint("actions >= 0", name="actions"),
        Index("ix_games_ruleset_finished", "ruleset", "finished"),
        Index("ix_games_started_at", "started_at"),
    )


AMENDMENTS = GameRow.save["amendments"]
"""The save's corrections alone, read without the rest of the save (a list, or None)."""


def corrected_after_end(amendments: Any) -> bool:
    """Whether a save's amendments (:data:`AMENDMENTS`) hold a correction made after the end."""
    return isinstance(amendments, list) and any(
        isinstance(a, dict) and a.get("after_end") is True for a in amendments)


class SeatRow(Base):
    """One seat of a game: who sat there and how they did (totals so far while unfinished)."""

    __tablename__ = "seat_results"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The seat's index in the game (0 first)."""
    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(10))
    """"person" or "bot"."""
    level: Mapped[str | None] = mapped_column(String(40))
    """A bot's level (None for a person)."""
    total: Mapped[int] = mapped_column(Integer)
    boxes_filled: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int | None] = mapped_column(Integer)
    """1 is the best, ties share a rank; None until the game is finished."""
    won: Mapped[bool | None] = mapped_column(Boolean)
    """Highest total (ties share the win); None until the game is finished."""
    upper_bonus: Mapped[bool] = mapped_column(Boolean)
    """The bonus of the upper section (ones to sixes) is earned."""
    bonus_points: Mapped[int] = mapped_column(Integer)
    """Points from every section bonus."""
    extra_points: Mapped[int] = mapped_column(Integer)
    """Points outside boxes and bonuses (Yahtzee bonuses)."""
    yatzys: Mapped[int] = mapped_column(Integer)
    """Boxes of kind "yatzy" (five or six of a kind) filled with more than 0 points."""
    points_lost: Mapped[float | None] = mapped_column(Float)
    """Expected points lost to the coach's best play over the game; None until analysed."""

    game: Mapped[GameRow] = relationship(back_populates="seats")

    __table_args__ = (
        CheckConstraint("kind IN ('person', 'bot')", name="kind"),
        CheckConstraint("seat >= 0", name="seat"),
        CheckConstraint("points_lost IS NULL OR points_lost >= 0", name="points_lost"),
        Index("ix_seat_results_name", "name"),
    )


# ---- rooms of the web server (yatzy.web) ----------------------------------------------------

class RoomRow(Base):
    """A room of the web server: its short code, its game, its settings and the dice commitment.

    ``version`` is the room's row version, its game's :attr:`~yatzy.game.Game.version` (every
    action, undo and correction accepted so far; the save does not keep it, so a room loaded
    back takes it from here): a server process commits an action only if the version is still
    the one it saw, so two processes never both apply an action to one game (optimistic
    concurrency). The seed itself stays in the game's save; ``commitment`` (sha256 of salt
    and seed) is public.
    """

    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON_TYPE)
    """Coach on or off, spectators, hot seat, bot pace, away time, language."""
    stand_ins: Mapped[dict[str, Any]] = mapped_column(JSON_TYPE)
    """Person's seats handed to a bot while their player is away: seat number (text) -> bot level."""
    salt: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime)
    expired_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    """When the room expired (None: it is live): its code then opens nothing, its log and
    action ids are gone, its game stays in the history and its tokens show it there only."""

    __table_args__ = (CheckConstraint("version >= 0", name="version"),)


class RoomTokenRow(Base):
    """A secret token of a room, stored only as its SHA-256: a seat's, the table's (hot seat)
    or a spectator's."""

    __tablename__ = "room_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    role: Mapped[str] = mapped_column(String(10))
    seat: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)

    __table_args__ = (
        CheckConstraint("role IN ('seat', 'table', 'spectator')", name="role"),
        Index("ix_room_tokens_room_id_seat", "room_id", "seat"),
    )


class RoomActionRow(Base):
    """An accepted action's client action id, so that a retried action is answered, not
    applied twice (even after a restart)."""

    __tablename__ = "room_actions"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    client_action_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    """The seat that acted."""
    version: Mapped[int] = mapped_column(Integer)
    """The room's version right after the action."""
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)


class RoomLogRow(Base):
    """One accepted action of a room's game that its save in ``games`` does not hold yet.

    Committing an action appends one row (in the transaction that bumps the room's version);
    the game's save is rewritten only at the end of the game (and after a scorekeeper room's
    undo or correction), when the room's rows are deleted. A room's game is its save's log
    followed by these rows from ``position`` = the save's log length on, in order.
    """

    __tablename__ = "room_log"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The action's index in the game's log (0 first)."""
    action: Mapped[dict[str, Any]] = mapped_column(JSON_TYPE)
    """The action as in a save's log (:func:`yatzy.saves.action_to_dict`)."""

    __table_args__ = (CheckConstraint("position >= 0", name="position"),)
