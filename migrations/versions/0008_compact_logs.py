"""game_logs: a closed game's log compacted to one row (the games closed before compacted),
and ix_games_ended: the finished games in the order they ended, for the ratings rebuild

Revision ID: 0008
Revises: 0005
Create Date: 2026-12-06 17:00:00

The format is bot/store/logs.py's, written out here so that this revision keeps making the
same rows whatever that module becomes: zlib (level 9) of the JSON list of
``[seq, seat, action, at, by_default]``. Games finished or cancelled before this revision are
compacted by it, a page of games at a time, in its one transaction.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0005"
branch_labels = None
depends_on = None

PAGE = 500
_games = sa.table("games", sa.column("id", sa.Integer), sa.column("status", sa.String))
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
CLOSED = ("finished", "cancelled")


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
    bind = op.get_bind()
    after = 0
    while True:
        ids = [
            row[0]
            for row in bind.execute(
                sa.select(_games.c.id)
                .where(_games.c.status.in_(CLOSED), _games.c.id > after)
                .order_by(_games.c.id)
                .limit(PAGE)
            )
        ]
        if not ids:
            break
        after = ids[-1]
        logs: dict[int, list[list[Any]]] = {}
        for game, seq, seat, action, at, by_default in bind.execute(
            sa.select(
                _actions.c.game_id,
                _actions.c.seq,
                _actions.c.seat,
                _actions.c.action,
                _actions.c.at,
                _actions.c.by_default,
            )
            .where(_actions.c.game_id.in_(ids))
            .order_by(_actions.c.game_id, _actions.c.seq)
        ):
            logs.setdefault(game, []).append([seq, seat, action, at, 1 if by_default else 0])
        if not logs:
            continue
        bind.execute(
            sa.insert(_logs),
            [
                {
                    "game_id": game,
                    "moves": len(entries),
                    "first_at": min(e[3] for e in entries),
                    "last_at": max(e[3] for e in entries),
                    "data": zlib.compress(json.dumps(entries, separators=(",", ":")).encode(), 9),
                }
                for game, entries in logs.items()
            ],
        )
        bind.execute(sa.delete(_actions).where(_actions.c.game_id.in_(list(logs))))


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
