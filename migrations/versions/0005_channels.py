"""channels: a channel's own settings (the automatic replay)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 22:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "channels",
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("replay", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("channel_id"),
    )


def downgrade() -> None:
    op.drop_table("channels")
