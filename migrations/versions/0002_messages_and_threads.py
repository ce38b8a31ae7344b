"""messages edited in place, and games played in threads

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 21:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("messages", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("parent_channel_id", sa.BigInteger(), nullable=True))
        batch_op.create_index(
            batch_op.f("ix_games_parent_channel_id"), ["parent_channel_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_parent_channel_id"))
        batch_op.drop_column("parent_channel_id")
        batch_op.drop_column("messages")
