"""The PostgreSQL server the benchmarks measure: durable unless asked otherwise.

A bench's PostgreSQL figures are an operator's only when the server syncs its commits to disk
(``fsync``, ``synchronous_commit`` and ``full_page_writes`` on, PostgreSQL's defaults). The
tests' server runs with them off (``tests/reliability/start_postgres.sh``: fast, undurable), so
a bench named a server checks it first and refuses one that is not durable, saying how to start
one (``PARTIDA_PG_DURABLE=1 tests/reliability/start_postgres.sh DIR``). The opt-out:
``BENCH_PG_UNDURABLE=1`` measures such a server anyway, its figures labelled "fsync off".

Which server: ``BENCH_PG_URL``, else ``PARTIDA_TEST_PG_URL`` (a bench's ``--pg URL`` first).
"""

from __future__ import annotations

import os
import uuid

from sqlalchemy.engine import make_url

SETTINGS = ("fsync", "synchronous_commit", "full_page_writes")
OPT_OUT = "BENCH_PG_UNDURABLE"
HOW = (
    "start a durable one (PARTIDA_PG_DURABLE=1 tests/reliability/start_postgres.sh DIR) and "
    f"name it in BENCH_PG_URL, or set {OPT_OUT}=1 to measure this one anyway"
)


def server(named: str | None = None) -> str | None:
    """The server's SQLAlchemy URL: ``named``, ``BENCH_PG_URL`` or ``PARTIDA_TEST_PG_URL``."""
    return named or os.environ.get("BENCH_PG_URL") or os.environ.get("PARTIDA_TEST_PG_URL")


def dsn(url: str) -> str:
    """asyncpg's form of a SQLAlchemy URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def undurable(url: str) -> list[str]:
    """The durability settings the server has turned off (none: it is durable)."""
    import asyncpg

    connection = await asyncpg.connect(dsn(url))
    try:
        return [name for name in SETTINGS if await connection.fetchval(f"SHOW {name}") == "off"]
    finally:
        await connection.close()


async def checked(named: str | None = None) -> tuple[str | None, str]:
    """The server to measure and the label of its figures ("durable: fsync on"), or ``None``
    and why not (no server named, or one that is not durable without the opt-out)."""
    url = server(named)
    if url is None:
        return None, "PostgreSQL skipped: set BENCH_PG_URL (a durable server)"
    off = await undurable(url)
    if not off:
        return url, "durable: fsync on"
    label = ", ".join(f"{name}=off" for name in off)
    if os.environ.get(OPT_OUT) == "1":
        return url, f"NOT durable: {label}, by {OPT_OUT}=1"
    return None, f"PostgreSQL skipped: the server runs with {label}; {HOW}"


async def database(base: str) -> tuple[str, str]:
    """A fresh database on the server of ``base``: its URL, and the server's DSN to drop it."""
    import asyncpg

    name = f"bench_{uuid.uuid4().hex[:12]}"
    connection = await asyncpg.connect(dsn(base))
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return make_url(base).set(database=name).render_as_string(hide_password=False), dsn(base)


async def drop(server_dsn: str, url: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(server_dsn)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')
    finally:
        await connection.close()
