"""The appended log of a room's game: one row per accepted action since the game's save.

A room commits each accepted action as one small row (with the room's version bump and the
client action id) instead of rewriting the game's whole save; the save in ``games`` is
brought up to date at the end of the game (and after a scorekeeper room's undo or
correction), and a room is loaded back from its save plus these rows.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

JSON_TYPE = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "room_log",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("action", JSON_TYPE, nullable=False),
        sa.CheckConstraint("position >= 0", name=op.f("ck_room_log_position")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE",
                                name=op.f("fk_room_log_room_id_rooms")),
        sa.PrimaryKeyConstraint("room_id", "position", name=op.f("pk_room_log")),
    )


def downgrade() -> None:
    op.drop_table("room_log")
