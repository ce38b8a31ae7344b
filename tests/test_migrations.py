"""The Alembic migrations and the models agree, and the schema enforces its rules."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

from bot.store.database import upgrade_sync
from bot.store.models import Base


def test_models_and_migrations_agree(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as connection:
        diff = compare_metadata(
            MigrationContext.configure(connection, opts={"compare_type": True}), Base.metadata
        )
    engine.dispose()
    assert diff == [], f"models differ from migrations; run autogenerate: {diff}"


def test_upgrade_is_idempotent(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'twice.db'}"
    upgrade_sync(url)
    upgrade_sync(url)
