"""``/healthz`` and ``/metrics``: how the running bot is doing, for a probe and for Prometheus.

Off unless ``HEALTH_PORT`` is set; bound to ``HEALTH_HOST`` (127.0.0.1 unless told otherwise:
the figures are for the operator, not the world). Served by aiohttp in the bot's own event
loop, so an answer also proves the loop is not stuck.

``/healthz`` answers 200 when all three hold, else 503, with a JSON body saying which failed:

- the gateway: the bot is ready and every shard's connection to Discord is open;
- the database: it answers a read of the schema version within ``DATABASE_TIMEOUT`` seconds;
- the sender: no post has waited for delivery longer than ``SENDER_STUCK`` seconds.

The sender is read through :class:`DeliveryStats`, a small protocol that the outbox (today
:class:`OutboxStats`, an adapter over ``bot.discord.send.Outbox``) provides.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

import discord
from aiohttp import web
from discord.ext.commands import AutoShardedBot
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import metrics
from bot.store.models import GameRow

log = logging.getLogger(__name__)

# A post waiting longer than this means the sender is stuck (Discord's rate limits and a
# restart's backlog take seconds, not minutes).
SENDER_STUCK = 300.0
# The database must answer a one-row read within this (a healthy one takes milliseconds).
DATABASE_TIMEOUT = 3.0


class DeliveryStats(Protocol):
    """What the bot's sender tells about the posts it has to deliver."""

    def waiting(self) -> int:
        """Posts and edits not delivered yet."""
        ...

    def oldest_age(self) -> float | None:
        """Seconds the oldest of them has waited (``None``: none waits)."""
        ...

    def failed(self) -> int:
        """Posts given up on (since the start)."""
        ...


class OutboxStats:
    """:class:`DeliveryStats` of the sender (``bot.discord.send.Outbox``): what it holds in
    this process and has not delivered yet, how long the oldest has waited, and the
    deliveries it gave up as invalid (a 400: retrying cannot help)."""

    def __init__(self, outbox: Any) -> None:
        self.outbox = outbox

    def waiting(self) -> int:
        return int(self.outbox.stats().waiting)

    def oldest_age(self) -> float | None:
        stats = self.outbox.stats()
        return float(stats.oldest_age) if stats.waiting else None

    def failed(self) -> int:
        return int(self.outbox.stats().failed)


def gateway(bot: discord.AutoShardedClient, lost: set[int]) -> tuple[bool, str]:
    """Ready, and every shard's session live: its socket open, and no disconnection since its
    last READY or RESUMED (``lost``; a socket reopened but not resumed carries no events)."""
    if bot.is_closed():
        return False, "closed"
    if not bot.is_ready():
        return False, "not ready yet"
    down = sorted({shard_id for shard_id, shard in bot.shards.items() if shard.is_closed()} | lost)
    if down:
        return False, f"shards {', '.join(map(str, down))} disconnected"
    return True, f"{len(bot.shards)} shards connected"


async def database(engine: AsyncEngine | None) -> tuple[bool, str]:
    if engine is None:
        return False, "not open"
    try:
        async with asyncio.timeout(DATABASE_TIMEOUT):
            async with engine.connect() as connection:
                await connection.execute(text("SELECT version_num FROM alembic_version"))
    except TimeoutError:
        return False, f"no answer within {DATABASE_TIMEOUT:.0f} s"
    except Exception as error:  # any driver's error: the database is not usable
        reason = str(error).splitlines()[0] if str(error) else ""
        return False, f"{type(error).__name__}: {reason}"[:200]
    return True, "answers"


def sender(stats: DeliveryStats) -> tuple[bool, str]:
    age = stats.oldest_age()
    said = f"{stats.waiting()} waiting, {stats.failed()} failed"
    if age is not None and age > SENDER_STUCK:
        return False, f"{said}; the oldest has waited {age:.0f} s"
    return True, said


class Health:
    """The endpoint's server for one bot. ``engine`` gives the service's database engine
    (``None`` until the service is open)."""

    def __init__(
        self,
        bot: AutoShardedBot,
        engine: Callable[[], AsyncEngine | None],
        stats: DeliveryStats,
        paused: Callable[[], int] = lambda: 0,
    ) -> None:
        self.bot = bot
        self.engine = engine
        self.stats = stats
        self.paused = paused
        self._runner: web.AppRunner | None = None
        self.port = 0
        # Shards disconnected since their last READY or RESUMED (discord.py's events).
        self.lost: set[int] = set()
        self._listeners = (
            (self._shard_lost, "on_shard_disconnect"),
            (self._shard_back, "on_shard_connect"),
            (self._shard_back, "on_shard_resumed"),
        )
        for listener, event in self._listeners:
            bot.add_listener(listener, event)

    async def _shard_lost(self, shard_id: int) -> None:
        self.lost.add(shard_id)

    async def _shard_back(self, shard_id: int) -> None:
        self.lost.discard(shard_id)

    async def start(self, host: str, port: int) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        runner = web.AppRunner(app, access_log=None)  # no log line per probe or scrape
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else port
        log.info("health and metrics on http://%s:%s/healthz and /metrics", host, self.port)

    async def stop(self) -> None:
        for listener, event in self._listeners:
            self.bot.remove_listener(listener, event)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def check(self) -> dict[str, tuple[bool, str]]:
        return {
            "gateway": gateway(self.bot, self.lost),
            "database": await database(self.engine()),
            "sender": sender(self.stats),
        }

    async def _healthz(self, request: web.Request) -> web.Response:
        checks = await self.check()
        ok = all(good for good, _ in checks.values())
        body = {"ok": ok} | {
            name: {"ok": good, "says": said} for name, (good, said) in checks.items()
        }
        return web.Response(
            text=json.dumps(body) + "\n", status=200 if ok else 503, content_type="application/json"
        )

    async def _metrics(self, request: web.Request) -> web.Response:
        checks = await self.check()
        metrics.GATEWAY_UP.set(checks["gateway"][0])
        metrics.DATABASE_UP.set(checks["database"][0])
        metrics.POSTS_WAITING.set(self.stats.waiting())
        metrics.POSTS_OLDEST.set(self.stats.oldest_age() or 0.0)
        metrics.POSTS_FAILED.set(self.stats.failed())
        metrics.TABLES_PAUSED.set(self.paused())
        if checks["database"][0]:
            await self._games()
        return web.Response(body=generate_latest(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _games(self) -> None:
        engine = self.engine()
        if engine is None:
            return
        query = (
            select(GameRow.kind, GameRow.status, func.count())
            .where(GameRow.open_channel_id.is_not(None))
            .group_by(GameRow.kind, GameRow.status)
        )
        try:
            async with asyncio.timeout(DATABASE_TIMEOUT), engine.connect() as connection:
                rows = (await connection.execute(query)).all()
        except Exception:  # the database went away between the two reads: keep the last
            return
        metrics.GAMES_OPEN.clear()
        for kind, status, count in rows:
            metrics.GAMES_OPEN.labels(kind, status).set(count)


async def serve(
    bot: AutoShardedBot,
    engine: Callable[[], AsyncEngine | None],
    stats: DeliveryStats,
    host: str,
    port: int,
    paused: Callable[[], int] = lambda: 0,
) -> Health | None:
    """Start the endpoint; ``None`` (logged, the bot runs on) if the port cannot be had."""
    health = Health(bot, engine, stats, paused)
    try:
        await health.start(host, port)
    except OSError as error:
        log.error(
            "cannot serve /healthz and /metrics on %s:%s (%s): running without them; set "
            "HEALTH_PORT to a free port and HEALTH_HOST to an address of this machine",
            host,
            port,
            error.strerror or error,
        )
        await health.stop()
        return None
    return health
