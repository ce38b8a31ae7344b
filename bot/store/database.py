"""Opening the database: the URL, SQLite's pragmas, and migrating to head at start."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.store import sqlite_driver

DEFAULT_URL = "sqlite+aiosqlite:///partida.db"


def database_url(url: str | None = None) -> str:
    """The URL to use: the argument, else ``DATABASE_URL``, else ``partida.db`` here.

    Plain driver names are upgraded to their async drivers, so an admin can paste the usual
    ``postgresql://…`` or ``sqlite:///…`` URL.
    """
    raw = url or os.environ.get("DATABASE_URL") or DEFAULT_URL
    parsed = make_url(raw)
    if parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg2"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    elif parsed.drivername == "sqlite":
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    return parsed.render_as_string(hide_password=False)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def create_engine(url: str) -> AsyncEngine:
    """An async engine. For SQLite: WAL (readers never block the writer), a busy timeout
    (concurrent writers wait instead of failing), and foreign keys on."""
    if not is_sqlite(url):
        # DB_POOL_SIZE: connections kept open per bot process (twice as many may open at peaks).
        size = int(os.environ.get("DB_POOL_SIZE", "10") or 10)
        return create_async_engine(url, pool_size=size, max_overflow=2 * size, pool_pre_ping=True)
    path = make_url(url).database or ":memory:"

    async def connect() -> Any:
        # One thread crossing per statement instead of four (see sqlite_driver).
        return await sqlite_driver.connect(path, timeout=30)

    engine = create_async_engine(url, async_creator=connect)

    @event.listens_for(engine.sync_engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


def alembic_config(url: str) -> Any:
    from alembic.config import Config

    migrations = Path(__file__).resolve().parent.parent.parent / "migrations"
    config = Config()
    config.set_main_option("script_location", str(migrations))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade_sync(url: str) -> None:
    from alembic import command

    command.upgrade(alembic_config(url), "head")


async def upgrade(url: str) -> None:
    """Migrate the database to the newest revision (the bot does this at every start).
    Alembic's env runs its own event loop, so it runs in a thread."""
    await asyncio.to_thread(upgrade_sync, url)
