"""indexes: every list read through an index in the order it shows

Revision ID: 0007
Revises: 0005
Create Date: 2026-12-06 17:00:00

A channel's finished games (and its threads') by (channel, status, updated_at, id): the
history's pages and rematch's last game are read from the index's end, newest first, and no
longer sorted; these two replace the indexes on ``channel_id`` and ``parent_channel_id`` alone,
which they serve as well. The open games of a server (``/game mine``) and of a channel's threads
by partial indexes on open games only. The leaderboard's order by an index on the shown rating.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_OPEN = sa.text("open_channel_id IS NOT NULL")


def upgrade() -> None:
    op.create_index(
        "ix_games_channel_listed", "games", ["channel_id", "status", "updated_at", "id"]
    )
    op.create_index(
        "ix_games_parent_listed", "games", ["parent_channel_id", "status", "updated_at", "id"]
    )
    op.drop_index("ix_games_channel_id", table_name="games")
    op.drop_index("ix_games_parent_channel_id", table_name="games")
    op.create_index(
        "ix_games_open_guild",
        "games",
        ["guild_id", "updated_at"],
        sqlite_where=_OPEN,
        postgresql_where=_OPEN,
    )
    op.create_index(
        "ix_games_open_parent",
        "games",
        ["parent_channel_id", "id"],
        sqlite_where=_OPEN,
        postgresql_where=_OPEN,
    )
    op.create_index(
        "ix_ratings_rank",
        "ratings",
        ["guild_id", "kind", sa.text("(mu - 3 * sigma) DESC"), "player"],
    )


def downgrade() -> None:
    op.drop_index("ix_ratings_rank", table_name="ratings")
    op.drop_index("ix_games_open_parent", table_name="games")
    op.drop_index("ix_games_open_guild", table_name="games")
    op.create_index("ix_games_parent_channel_id", "games", ["parent_channel_id"])
    op.create_index("ix_games_channel_id", "games", ["channel_id"])
    op.drop_index("ix_games_parent_listed", table_name="games")
    op.drop_index("ix_games_channel_listed", table_name="games")
