"""Rooms of the web server: rooms, their secret tokens (hashes only) and accepted client actions.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

JSON_TYPE = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def moment() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("settings", JSON_TYPE, nullable=False),
        sa.Column("stand_ins", JSON_TYPE, nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", moment(), nullable=False),
        sa.Column("updated_at", moment(), nullable=False),
        sa.CheckConstraint("version >= 0", name=op.f("ck_rooms_version")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE",
                                name=op.f("fk_rooms_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rooms")),
        sa.UniqueConstraint("code", name=op.f("uq_rooms_code")),
        sa.UniqueConstraint("game_id", name=op.f("uq_rooms_game_id")),
    )
    op.create_table(
        "room_tokens",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("created_at", moment(), nullable=False),
        sa.CheckConstraint("role IN ('seat', 'table', 'spectator')", name=op.f("ck_room_tokens_role")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE",
                                name=op.f("fk_room_tokens_room_id_rooms")),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_room_tokens")),
    )
    op.create_index("ix_room_tokens_room_id_seat", "room_tokens", ["room_id", "seat"])
    op.create_table(
        "room_actions",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("client_action_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", moment(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE",
                                name=op.f("fk_room_actions_room_id_rooms")),
        sa.PrimaryKeyConstraint("room_id", "client_action_id", name=op.f("pk_room_actions")),
    )


def downgrade() -> None:
    op.drop_table("room_actions")
    op.drop_index("ix_room_tokens_room_id_seat", table_name="room_tokens")
    op.drop_table("room_tokens")
    op.drop_table("rooms")
