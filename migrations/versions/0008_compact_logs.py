"""game_logs (a closed game's log as one row) and ix_games_ended (games in the order they ended)

Revision ID: 0008
Revises: 0005
Create Date: 2026-12-06 17:00:00

Games closed before this revision keep their ``actions`` rows, read as before, until the bot
compacts them in the background, a few at a time (``Service.compact_closed``): compacting them
here would hold the start for minutes on a large database (163 s for 100,000 games), in one
transaction that a restart would undo. The downgrade writes the compacted logs back as rows;
the format is bot/store/logs.py's, written out here so that this revision keeps reading the
same rows whatever that module becomes: zlib of the JSON list of
``[seq, seat, action, at, by_default]``.
"""

from __future__ import annotations

import json
import zlib

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

PAGE = 500
_actions = sa.table(
    "actions",
    sa.column("game_id", sa.Integer),
    sa.column("seq", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("action", sa.JSON),
    sa.column("at", sa.Float),
    sa.column("by_default", sa.Boolean),
)
_logs = sa.table(
    "game_logs",
    sa.column("game_id", sa.Integer),
    sa.column("moves", sa.Integer),
    sa.column("first_at", sa.Float),
    sa.column("last_at", sa.Float),
    sa.column("data", sa.LargeBinary),
)


def upgrade() -> None:
    op.create_table(
        "game_logs",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("first_at", sa.Float(), nullable=False),
        sa.Column("last_at", sa.Float(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_index("ix_games_ended", "games", ["status", "updated_at", "id"])


def downgrade() -> None:
    bind = op.get_bind()
    after = 0
    while True:
        rows = list(
            bind.execute(
                sa.select(_logs.c.game_id, _logs.c.data)
                .where(_logs.c.game_id > after)
                .order_by(_logs.c.game_id)
                .limit(PAGE)
            )
        )
        if not rows:
            break
        after = rows[-1][0]
        entries = [
            {
                "game_id": game,
                "seq": seq,
                "seat": seat,
                "action": action,
                "at": at,
                "by_default": bool(by_default),
            }
            for game, data in rows
            for seq, seat, action, at, by_default in json.loads(zlib.decompress(data))
        ]
        if entries:
            bind.execute(sa.insert(_actions), entries)
    op.drop_table("game_logs")
    op.drop_index("ix_games_ended", table_name="games")
