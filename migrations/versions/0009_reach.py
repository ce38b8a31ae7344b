"""players: how each user is reached (``/me``): mentions or direct messages, quiet hours, away

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06 20:30:00

New nullable columns (and one with a default), so existing rows read as "mention, no quiet
hours, not away": nothing changes for a user until they choose.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("notify", sa.String(8), nullable=True))
        batch.add_column(sa.Column("quiet_start", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("quiet_end", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("time_zone", sa.String(64), nullable=True))
        batch.add_column(sa.Column("away_until", sa.Float(), nullable=True))
        batch.add_column(
            sa.Column("dm_closed", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        for column in ("dm_closed", "away_until", "time_zone", "quiet_end", "quiet_start"):
            batch.drop_column(column)
        batch.drop_column("notify")
