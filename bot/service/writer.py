"""SQLite's writer queue, and how many transactions run at once.

SQLite has one writer at a time. Queueing write transactions here is much faster than letting
them collide in SQLite, whose busy handler sleeps in steps of up to 100 ms. PostgreSQL takes
concurrent writers (rows conflict only per game: the version check), so it has no queue.
"""

from __future__ import annotations

import asyncio

from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import QueuePool


class Writer:
    """One transaction's hold on SQLite's single writer: taken at most once, at the
    transaction's first write, and released after it ends."""

    def __init__(self, lock: asyncio.Lock | None) -> None:
        self._lock = lock
        self._held = False

    async def take(self) -> None:
        if self._lock is not None and not self._held:
            await self._lock.acquire()
            self._held = True

    def release(self) -> None:
        if self._lock is not None and self._held:
            self._held = False
            self._lock.release()


class WriterQueue:
    def __init__(self, engine: AsyncEngine) -> None:
        self.lock: asyncio.Lock | None = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        # Transactions in flight at once; past these, commands queue here, in a cheap FIFO,
        # rather than in the connection pool, whose waiters cost far more CPU with a thousand
        # games playing at once. SQLite: two, so that one move computes while another writes
        # (more only add aiosqlite threads fighting for the GIL); PostgreSQL: the pool's size.
        pool = engine.sync_engine.pool
        self.slots = asyncio.Semaphore(
            2 if self.lock is not None else pool.size() if isinstance(pool, QueuePool) else 10
        )

    def writer(self) -> Writer:
        return Writer(self.lock)
