"""computer seats: a seat's computer level, its autopilot and its missed deadlines

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 22:15:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # The server defaults fill the seats of games already in play (people, not on autopilot).
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("computer", sa.String(length=8), nullable=True))
        batch_op.add_column(
            sa.Column("autopilot", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(
            sa.Column("misses", sa.Integer(), nullable=False, server_default=sa.text("0"))
        )


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("misses")
        batch_op.drop_column("autopilot")
        batch_op.drop_column("computer")
