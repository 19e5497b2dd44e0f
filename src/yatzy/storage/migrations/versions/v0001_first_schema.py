"""The first schema: games and the results of their seats.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

JSON_TYPE = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def moment() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("options", JSON_TYPE, nullable=False),
        sa.Column("title", sa.String(200), nullable=True),
        sa.Column("started_at", moment(), nullable=False),
        sa.Column("finished_at", moment(), nullable=True),
        sa.Column("updated_at", moment(), nullable=False),
        sa.Column("dice_from", sa.String(10), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("save", JSON_TYPE, nullable=False),
        sa.CheckConstraint("dice_from IN ('server', 'players')", name=op.f("ck_games_dice_from")),
        sa.CheckConstraint("actions >= 0", name=op.f("ck_games_actions")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index("ix_games_ruleset_finished", "games", ["ruleset", "finished"])
    op.create_index("ix_games_started_at", "games", ["started_at"])
    op.create_table(
        "seat_results",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("level", sa.String(40), nullable=True),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("boxes_filled", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=True),
        sa.Column("upper_bonus", sa.Boolean(), nullable=False),
        sa.Column("bonus_points", sa.Integer(), nullable=False),
        sa.Column("extra_points", sa.Integer(), nullable=False),
        sa.Column("yatzys", sa.Integer(), nullable=False),
        sa.Column("points_lost", sa.Float(), nullable=True),
        sa.CheckConstraint("kind IN ('person', 'bot')", name=op.f("ck_seat_results_kind")),
        sa.CheckConstraint("seat >= 0", name=op.f("ck_seat_results_seat")),
        sa.CheckConstraint("points_lost IS NULL OR points_lost >= 0",
                           name=op.f("ck_seat_results_points_lost")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE",
                                name=op.f("fk_seat_results_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_seat_results")),
    )
    op.create_index("ix_seat_results_name", "seat_results", ["name"])


def downgrade() -> None:
    op.drop_index("ix_seat_results_name", table_name="seat_results")
    op.drop_table("seat_results")
    op.drop_index("ix_games_started_at", table_name="games")
    op.drop_index("ix_games_ruleset_finished", table_name="games")
    op.drop_table("games")
