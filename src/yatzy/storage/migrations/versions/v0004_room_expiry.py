"""Rooms expire: ``rooms.expired_at``, when an idle or finished room's live state went.

An expired room keeps its row (its code is never given again, and a lookup can say the
room has ended), its game in ``games`` and its tokens' hashes (they show its game in the
history, nothing else); its appended log and accepted action ids are deleted.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("expired_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("expired_at")
