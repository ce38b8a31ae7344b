"""A fresh PostgreSQL database per test, on the server named by ``PARTIDA_TEST_PG_URL``.

``.ci/run`` starts a throw-away server (``tests/reliability/start_postgres.sh``) and exports the
variable; without it every PostgreSQL variant of a test is skipped, so a developer without
PostgreSQL still runs the whole suite on SQLite.
"""

from __future__ import annotations

import asyncio
import os
import threading
import uuid
from collections.abc import Callable
from typing import TypeVar

import pytest
from sqlalchemy.engine import make_url

T = TypeVar("T")

ENV = "PARTIDA_TEST_PG_URL"


def pg_url() -> str | None:
    return os.environ.get(ENV) or None


def require_pg() -> str:
    url = pg_url()
    if url is None:
        pytest.skip(f"{ENV} is not set (start one with tests/reliability/start_postgres.sh)")
    return url


def _dsn(url: str) -> str:
    """asyncpg wants a plain ``postgresql://`` DSN."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _in_thread(make: Callable[[], T]) -> T:
    """Run ``make`` (which runs its own event loop) in a thread: callers may be inside one."""
    out: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            out.append(make())
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return out[0]


async def _execute(url: str, sql: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(_dsn(url))
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def create_database(base: str | None = None) -> str:
    """A new empty database on the test server; returns its SQLAlchemy URL."""
    base = base or require_pg()
    name = f"t_{uuid.uuid4().hex[:16]}"
    _in_thread(lambda: asyncio.run(_execute(base, f'CREATE DATABASE "{name}"')))
    return make_url(base).set(database=name).render_as_string(hide_password=False)


def drop_database(url: str) -> None:
    base = require_pg()
    name = make_url(url).database
    _in_thread(
        lambda: asyncio.run(_execute(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    )


def migrated_template() -> str:
    """A new database migrated to head, to copy (``refill``); returns its URL. Made once per
    worker (the ``migrated_pg`` fixture of ``tests/conftest.py``)."""
    from bot.store.database import upgrade_sync

    url = create_database()
    _in_thread(lambda: upgrade_sync(url))
    return url


def refill(url: str, template: str) -> None:
    """Make the database at ``url`` anew as a copy of ``template`` (a URL; PostgreSQL copies its
    files: a few milliseconds, where migrating costs a quarter of a second)."""
    base = require_pg()
    name, source = make_url(url).database, make_url(template).database
    sql = [
        f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
        f'CREATE DATABASE "{name}" TEMPLATE "{source}"',
    ]
    _in_thread(lambda: asyncio.run(_execute_all(base, sql)))


async def _execute_all(url: str, statements: list[str]) -> None:
    for sql in statements:
        await _execute(url, sql)
