"""aiosqlite connections that cross to their thread once per statement, not four times.

aiosqlite runs each sqlite3 call on the connection's own thread and wakes the event loop with
the result. SQLAlchemy's aiosqlite adapter makes four such calls per statement (open a cursor,
execute, fetch the rows, close the cursor), and a command of the service runs five statements:
about twenty thread crossings, each a queue put, a thread switch under the GIL and an event-loop
wake-up. With 1,000 games playing at once those crossings, not SQLite, were the largest cost of
a command. Here a statement is one crossing: the thread executes it, fetches its rows and closes
the cursor, and hands back plain values (the rows, ``description``, ``rowcount``,
``lastrowid``). The cursor faces SQLAlchemy with the methods it calls on an aiosqlite cursor.

A move's writes go in one crossing together, with the commit that ends its transaction
(``defer``: see ``bot/store/repository.py``, ``Writes``). They are handed to the connection and
run on its thread just before the next thing the transaction does there: at the latest, its
commit (a move's writes are its last statements), so the writes, the commit and the commit's
sync to disk are one crossing, not two. SQLite has a single writer: the time a transaction holds
it, crossing there and back, bounds how many moves a second all games together make.

A commit or rollback when no transaction is open (a read-only command's commit, the pool's reset
of every connection it takes back) is skipped: it would do nothing but cross to the thread.

This leans on aiosqlite internals (``Connection._execute``, ``_conn``, ``_connection``,
``_thread``), kept for a measured reason: with SQLAlchemy's own adapter the service's commands
cost about twice as much (docs/storage.md, "The SQLite driver"). pyproject pins aiosqlite to the
versions tested; ``AVAILABLE`` says whether the installed one still has them, and when it does
not, ``bot.store.database`` falls back to SQLAlchemy's own adapter (public API only) and the
test ``tests/test_sqlite_driver.py`` fails loudly, so the pin is looked at.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import exc as orm_exc

_Row = tuple[Any, ...]
# A batch of writes: (SQL, rows of parameters, ``stale``): a step with a ``stale`` message must
# change exactly one row; if it does not, nothing after it runs, the transaction rolls back and
# ``StaleDataError(stale)`` is raised (another writer saved the game first: the service retries).
Steps = list[tuple[str, list[Sequence[Any]], str | None]]

# The aiosqlite internals this module uses, by name: (instance attribute, what it must be).
INTERNALS = ("_execute", "_conn", "_connection", "_thread")


def missing_internals() -> list[str]:
    """The internals of ``INTERNALS`` that the installed aiosqlite lacks (a connection object
    is made but never opened: no thread starts, no file opens)."""
    try:
        probe = aiosqlite.Connection(lambda: sqlite3.connect(":memory:"), iter_chunk_size=64)
    except Exception:
        return list(INTERNALS)
    missing = []
    if not callable(getattr(probe, "_execute", None)):
        missing.append("_execute")
    if not isinstance(getattr(type(probe), "_conn", None), property):
        missing.append("_conn")
    if "_connection" not in vars(probe):
        missing.append("_connection")
    if not isinstance(getattr(probe, "_thread", None), threading.Thread):
        missing.append("_thread")
    return missing


AVAILABLE = not missing_internals()


def _run(
    connection: sqlite3.Connection, sql: str, parameters: Sequence[Any] | dict[str, Any]
) -> tuple[Any, int, int | None, list[_Row]]:
    """On the connection's thread: execute, fetch everything, close the cursor."""
    cursor = connection.execute(sql, parameters)
    try:
        rows = cursor.fetchall() if cursor.description is not None else []
        return cursor.description, cursor.rowcount, cursor.lastrowid, rows
    finally:
        cursor.close()


def _run_many(
    connection: sqlite3.Connection, sql: str, parameters: Iterable[Any]
) -> tuple[int, int | None]:
    cursor = connection.executemany(sql, parameters)
    try:
        return cursor.rowcount, cursor.lastrowid
    finally:
        cursor.close()


class OneHopCursor:
    """What SQLAlchemy's adapter uses of an aiosqlite cursor, with results fetched eagerly
    (the service never streams: every result it reads is small)."""

    arraysize = 1

    def __init__(self, connection: OneHopConnection) -> None:
        self._connection = connection
        self.description: Any = None
        self.rowcount = -1
        self.lastrowid: int | None = None
        self._rows: deque[_Row] = deque()

    async def __aenter__(self) -> OneHopCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def execute(
        self, sql: str, parameters: Sequence[Any] | dict[str, Any] | None = None
    ) -> OneHopCursor:
        connection = self._connection
        description, self.rowcount, self.lastrowid, rows = await connection._after_deferred(
            _run, sql, () if parameters is None else parameters
        )
        self.description = description
        self._rows = deque(rows)
        return self

    async def executemany(self, sql: str, parameters: Iterable[Any]) -> OneHopCursor:
        self.rowcount, self.lastrowid = await self._connection._after_deferred(
            _run_many, sql, parameters
        )
        self.description = None
        self._rows = deque()
        return self

    async def fetchone(self) -> _Row | None:
        return self._rows.popleft() if self._rows else None

    async def fetchmany(self, size: int | None = None) -> list[_Row]:
        count = self.arraysize if size is None else size
        return [self._rows.popleft() for _ in range(min(count, len(self._rows)))]

    async def fetchall(self) -> list[_Row]:
        rows = list(self._rows)
        self._rows.clear()
        return rows

    async def close(self) -> None:
        self._rows.clear()  # the sqlite3 cursor was closed on the thread already

    async def setinputsizes(self, *sizes: Any) -> None:
        return None

    def setoutputsize(self, size: Any, column: Any = None) -> None:
        return None


class OneHopConnection(aiosqlite.Connection):
    # Writes handed over by ``defer`` and not yet run (see the module's docstring).
    _deferred: Steps | None = None

    def cursor(self) -> OneHopCursor:  # type: ignore[override]
        return OneHopCursor(self)

    def defer(self, steps: Steps) -> None:
        """Run ``steps`` (in order, after any deferred before them) in the same crossing as
        whatever the transaction does next on this connection: a statement or the commit. A
        failure is raised there; a rollback drops them unrun (as if run and rolled back)."""
        self._deferred = (self._deferred or []) + steps

    async def run_deferred(self) -> None:
        """Run the deferred writes now (raising what they raise), in a crossing of their own."""
        await self._after_deferred(_nothing)

    async def _after_deferred(self, fn: Any, *args: Any) -> Any:
        """``fn(connection, *args)`` on the thread, after the deferred writes (one crossing)."""
        steps, self._deferred = self._deferred, None
        if not steps:
            return await self._execute(fn, self._conn, *args)
        return _raised(await _crossing(self, _batch_then, steps, fn, *args))

    def _in_transaction(self) -> bool:
        # A plain read of SQLite's autocommit flag, safe from any thread.
        return self._connection is not None and self._connection.in_transaction

    async def commit(self) -> None:
        if self._deferred:
            await self._after_deferred(_commit)
        elif self._in_transaction():
            await super().commit()

    async def rollback(self) -> None:
        self._deferred = None
        if self._in_transaction():
            await super().rollback()


def connect(path: str, **kwargs: Any) -> OneHopConnection:
    """Like ``aiosqlite.connect``, for SQLAlchemy's ``async_creator`` (awaiting it opens the
    connection on its thread). The thread is a daemon, as SQLAlchemy's own adapter makes it, so
    an unclosed engine never keeps the process alive."""

    def connector() -> sqlite3.Connection:
        return sqlite3.connect(path, **kwargs)

    connection = OneHopConnection(connector, iter_chunk_size=64)
    connection._thread.daemon = True
    return connection


def _commit(connection: sqlite3.Connection) -> None:
    connection.commit()


def _nothing(connection: sqlite3.Connection) -> None:
    return None


class _Stale:
    """What the thread hands back for a batch step that changed no row (see ``Steps``)."""

    def __init__(self, message: str) -> None:
        self.message = message


def _batch_then(connection: sqlite3.Connection, steps: Steps, fn: Any, *args: Any) -> Any:
    """On the connection's thread: each step with its rows of parameters, in order, then
    ``fn(connection, *args)``. A stale step rolls the transaction back and ends it there (a
    ``_Stale``); so does an error of SQLite's (raised)."""
    try:
        for sql, rows, stale in steps:
            if len(rows) == 1:
                cursor = connection.execute(sql, rows[0])
            else:
                cursor = connection.executemany(sql, rows)
            count = cursor.rowcount
            cursor.close()
            if stale is not None and count != 1:
                connection.rollback()
                return _Stale(stale)
    except BaseException:
        connection.rollback()
        raise
    return fn(connection, *args)


async def _crossing(connection: OneHopConnection, fn: Any, *args: Any) -> Any:
    """One crossing of a batch; SQLite's errors come back as SQLAlchemy's, as if SQLAlchemy
    had run the statements (the service retries a busy or conflicting write the same way)."""
    try:
        return await connection._execute(fn, connection._conn, *args)
    except sqlite3.IntegrityError as error:
        raise sa_exc.IntegrityError("batch", None, error) from error
    except sqlite3.OperationalError as error:
        raise sa_exc.OperationalError("batch", None, error) from error


def _raised(outcome: Any) -> Any:
    if isinstance(outcome, _Stale):
        raise orm_exc.StaleDataError(outcome.message)
    return outcome
