"""Alembic environment: async engine, models' metadata as the target (autogenerate)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from bot.store.database import check_schema, create_engine
from bot.store.models import Base

config = context.config
target_metadata = Base.metadata


def run_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: Connection) -> None:
    with connection.begin():
        check_schema(connection, str(config.get_main_option("script_location")))
    # Batch mode lets later revisions alter tables on SQLite too. Each revision is one
    # transaction with its version stamp, on SQLite as on PostgreSQL (the engine's
    # ``transactional_ddl``): a start killed mid-migration leaves the previous revision whole.
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
        transactional_ddl=True,
        transaction_per_migration=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_online() -> None:
    engine = create_engine(str(config.get_main_option("sqlalchemy.url")), transactional_ddl=True)
    async with engine.connect() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    asyncio.run(run_online())
