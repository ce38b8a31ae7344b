"""ratings: openskill ratings per server, game and player, and the games that moved them

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 22:10:00

Finished games from before this revision are rated by ``partida ratings rebuild`` (once, in the
order they ended): rating needs the engines and openskill, which a migration should not import.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("best_score", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "kind", "player"),
    )
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.create_index("ix_ratings_guild_player", ["guild_id", "player"], unique=False)
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("rated_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("rated_games")
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_ratings_guild_player")
    op.drop_table("ratings")
