"""Opening the database: the URL, SQLite's pragmas, and migrating to head at start."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from sqlalchemy import event, exc, func, inspect, select
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot import config

log = logging.getLogger("partida.store")


def database_url(url: str | None = None) -> str:
    """The URL to use: the argument, else ``DATABASE_URL``, else ``partida.db`` here.

    Plain driver names are upgraded to their async drivers, so an admin can paste the usual
    ``postgresql://…`` or ``sqlite:///…`` URL. ``DATABASE_PASSWORD``, when set, is the
    password of the configured URL.
    """
    settings = config.current()
    raw = url or settings.database_url
    parsed = make_url(raw)
    if parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg2"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    if parsed.drivername == "postgresql+asyncpg" and "sslmode" in parsed.query:
        # libpq's name, as hosted PostgreSQL services write their URLs; asyncpg's is ``ssl``
        # (the same values: disable, prefer, require, verify-ca, verify-full).
        mode = parsed.query["sslmode"]
        parsed = parsed.difference_update_query(["sslmode"])
        if "ssl" not in parsed.query:
            parsed = parsed.update_query_dict({"ssl": mode})
    if parsed.get_backend_name() == "postgresql" and settings.database_password and not url:
        # DATABASE_PASSWORD: set here, so it needs no URL-encoding (an @, /, # or % in it).
        parsed = parsed.set(password=settings.database_password)
    elif parsed.drivername == "sqlite":
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    return parsed.render_as_string(hide_password=False)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


class SchemaError(Exception):
    """A database the bot cannot use as it is; the message says what is wrong and what to do."""


def create_engine(url: str, *, transactional_ddl: bool = False) -> AsyncEngine:
    """An async engine. For SQLite: WAL (readers never block the writer), a busy timeout
    (concurrent writers wait instead of failing), foreign keys on, and ``synchronous`` as
    configured (FULL by default: a commit, hence an acknowledged move, is on disk before the
    reply, and survives a power loss).

    ``transactional_ddl`` (the migrations' engine): Python's sqlite3 commits before a
    ``CREATE``/``ALTER``/``DROP`` on its own (its legacy transaction handling begins
    transactions only for ``INSERT``/``UPDATE``/``DELETE``), which made a revision's tables
    commit one by one, its version stamp last. With the driver's own transaction handling off
    and an explicit ``BEGIN`` for each of SQLAlchemy's transactions, a revision's DDL and its
    version stamp commit together or not at all."""
    settings = config.current()
    if not is_sqlite(url):
        # DB_POOL_SIZE: connections kept open per bot process (twice as many may open at peaks).
        size = settings.db_pool_size
        return create_async_engine(url, pool_size=size, max_overflow=2 * size, pool_pre_ping=True)
    engine = create_async_engine(url, connect_args={"timeout": 30})
    synchronous = settings.sqlite_synchronous

    @event.listens_for(engine.sync_engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()
        if transactional_ddl:
            dbapi_connection.isolation_level = None  # sqlite3 issues no BEGIN/COMMIT itself

    if transactional_ddl:

        @event.listens_for(engine.sync_engine, "begin")
        def _begin(connection: Any) -> None:
            # IMMEDIATE: take the write lock at once, so two processes starting together
            # migrate one after the other (the second then finds the work done).
            connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def alembic_config(url: str) -> Any:
    from alembic.config import Config

    migrations = Path(__file__).resolve().parent.parent.parent / "migrations"
    config = Config()
    config.set_main_option("script_location", str(migrations))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def check_schema(connection: Connection, script_location: str) -> None:
    """Before migrating: refuse a database this code cannot migrate, with what to do, and
    repair the one broken state that earlier versions could leave.

    - A schema revision this code does not know (a newer Partida made it, or another
      application whose database this is): ``SchemaError``.
    - Partida's tables without a schema version: before migrations became atomic, a first start
      killed mid-migration left some tables created and no version. If they hold no rows, they
      are that leftover and are dropped (the migration then makes them afresh); with rows, they
      are someone's data and the bot refuses to guess: ``SchemaError``.
    Runs in the caller's transaction."""
    from alembic.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    from bot.store.models import Base

    script = ScriptDirectory(script_location)
    heads = MigrationContext.configure(connection).get_current_heads()
    for revision in heads:
        try:
            known = script.get_revision(revision)
        except CommandError:
            known = None
        if known is None and not has_games(connection):
            raise SchemaError(foreign(revision))
        if known is None:
            raise SchemaError(
                f"the database is at schema revision {revision!r}, which this version of "
                "Partida does not know (a newer Partida migrated it). Run the newer Partida, "
                "or restore a backup made by this one."
            )
    if heads:
        return
    present = set(inspect(connection).get_table_names())
    ours = [table for table in reversed(Base.metadata.sorted_tables) if table.name in present]
    if not ours:
        return
    filled = [
        table.name
        for table in ours
        if connection.execute(select(func.count()).select_from(table)).scalar()
    ]
    if filled:
        raise SchemaError(
            f"the database has Partida's tables ({', '.join(t.name for t in ours)}) with rows "
            f"in {', '.join(filled)} but no schema version, so it cannot tell which schema "
            "they have. Restore a backup (partida backup), or move the file away to start "
            "with an empty database."
        )
    log.warning(
        "the database holds empty tables (%s) and no schema version: left by an interrupted "
        "first start; dropping them to migrate afresh",
        ", ".join(t.name for t in ours),
    )
    for table in ours:  # dependents first
        table.drop(connection)


def has_games(connection: Connection) -> bool:
    """Partida's main table is there (an unknown revision without it is not Partida's)."""
    return "games" in inspect(connection).get_table_names()


def foreign(revision: str) -> str:
    """What to do with a database another Alembic application uses (``partida run`` and the
    doctor): an unknown revision and none of Partida's tables."""
    return (
        f"the database holds another application's schema (its revision {revision!r}, and "
        "none of Partida's tables): give Partida a database of its own and point DATABASE_URL "
        "at it"
    )


def upgrade_sync(url: str) -> None:
    """Migrate to head. A database that cannot be opened or read (not SQLite, corrupt) or
    that ``check_schema`` refuses raises ``SchemaError`` with what to do."""
    from alembic import command

    try:
        command.upgrade(alembic_config(url), "head")
    except exc.DatabaseError as error:
        if isinstance(error, exc.OperationalError) and not _corrupt(error):
            raise  # locked, no such folder, a server down: not the file's fault
        if not is_sqlite(url):
            raise  # a user without rights on the tables: ``upgrade`` says what to grant
        raise SchemaError(damaged(url, error)) from error


def damaged(url: str, error: BaseException) -> str:
    """What to do with a SQLite file that cannot be read (``partida run`` and the doctor)."""
    reason = getattr(error, "orig", error)  # the driver's own words
    return (
        f"the database {make_url(url).database} cannot be read ({reason}): it is damaged or "
        "not a Partida database. Restore a backup (partida backup makes them), or move the "
        "file away to start with an empty database."
    )


def _corrupt(error: exc.DBAPIError) -> bool:
    text = str(error.orig).lower()
    return "malformed" in text or "not a database" in text


def corrupt(url: str, error: BaseException) -> bool:
    """``error`` says the SQLite file at ``url`` is damaged, or not a database at all."""
    return is_sqlite(url) and isinstance(error, exc.DatabaseError) and _corrupt(error)


async def upgrade(url: str, *, wait: float | None = None) -> None:
    """Migrate the database to the newest revision (the bot does this at every start), then
    check that this process can write it. Alembic's env runs its own event loop, so it runs in
    a thread.

    A server that is not up yet is tried again for ``wait`` seconds (``DATABASE_WAIT``); any
    database this process cannot use raises ``SchemaError`` with one sentence saying what to
    do (``bot.store.access``), never a driver's traceback."""
    from bot.store import access

    if is_sqlite(url):
        # Before SQLite makes a folder's worth of half-created files: ownership, modes, mounts.
        path = make_url(url).database or ""
        problem = access.sqlite_access(Path(path)) if path and path != ":memory:" else None
        if problem is not None:
            raise SchemaError(problem)
        if path and path != ":memory:" and not Path(path).exists():
            # A new database will hold every player's hidden cards and sealed choices, as its
            # backups do (0600): readable by its owner only, whatever the umask. SQLite gives
            # its -wal and -shm files the database file's mode.
            Path(path).touch(mode=0o600)
    limit = config.current().database_wait if wait is None else wait
    deadline = asyncio.get_running_loop().time() + limit
    pause = 0.5
    while True:
        try:
            await asyncio.to_thread(upgrade_sync, url)
            await write_probe(url)
            return
        except SchemaError:
            raise
        except Exception as error:
            sentence = access.describe(error, url)
            if sentence is None:
                raise  # not about reaching or writing the database: a bug, with its traceback
            left = deadline - asyncio.get_running_loop().time()
            if not access.transient(error) or left <= 0:
                raise SchemaError(sentence) from error
            if pause == 0.5:  # said once, not at every try
                log.warning("waiting up to %.0f s for the database: %s", limit, sentence)
            await asyncio.sleep(min(pause, left))
            pause = min(pause * 2, 5.0)


async def write_probe(url: str) -> None:
    """A write that changes nothing, committed: a read-only file, a folder where SQLite cannot
    make its ``-wal``, a user without write rights or a read-only replica fail here, at start,
    instead of at every player's first move."""
    from sqlalchemy import text

    if is_sqlite(url) and (make_url(url).database or ":memory:") == ":memory:":
        return  # a new connection would be a new, empty database: nothing to learn
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text("UPDATE alembic_version SET version_num = version_num"))
    finally:
        await engine.dispose()
