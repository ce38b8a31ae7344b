"""Entry points for ``partida run`` and ``partida sync`` (wired in ``bot/cli.py``)."""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any

import discord

from bot.config import Config, current
from bot.discord.client import PartidaBot

log = logging.getLogger(__name__)


def shards(config: Config) -> dict[str, Any]:
    """``SHARD_COUNT`` and ``SHARD_IDS`` (comma-separated) split the shards between processes
    that share one database; unset, one process runs every shard Discord recommends."""
    if config.shard_count is None:
        return {}
    options: dict[str, Any] = {"shard_count": config.shard_count}
    if config.shard_ids is not None:
        options["shard_ids"] = list(config.shard_ids)
    return options


def run_bot(token: str, database_url: str | None = None, dev_guild: int | None = None) -> None:
    """Run the bot until interrupted. Commands are not synced here: run ``partida sync`` once
    after installing or upgrading (``dev_guild`` is only reported, as a reminder of where
    ``partida sync --guild`` makes commands appear at once)."""
    # ``partida run`` has migrated the database already (bot.cli): the bot does not again.
    bot = PartidaBot(database_url=database_url, migrate=False, **shards(current()))
    if dev_guild:
        log.info(
            "development guild %s: sync there with `partida sync --guild %s`", dev_guild, dev_guild
        )
    asyncio.run(serve(bot, token))  # logging is set up by bot.cli


async def serve(bot: PartidaBot, token: str) -> None:
    """Run ``bot`` until it fails or SIGTERM/SIGINT (systemd, Docker, Kubernetes, Ctrl-C) asks it
    to stop, then stop cleanly: no new commands, the ones in flight finished or answered, the
    deadline loop ended, the gateway and the database closed, the render workers stopped."""
    from bot.service import drawing, thinking

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    installed = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
        except (NotImplementedError, RuntimeError):  # not the main thread, or no such signals
            pass
    try:
        async with bot:
            running = asyncio.create_task(bot.start(token), name="partida-bot")
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if not running.done():
                log.info("stop requested: finishing the commands in flight")
                await bot.drain()
                await bot.close()
            await running  # raises what made the bot fail, if anything did
            log.info("stopped")
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)
        await asyncio.to_thread(drawing.shutdown)
        await asyncio.to_thread(thinking.shutdown)


async def async_sync_commands(
    token: str, guild_id: int | None = None
) -> list[discord.app_commands.AppCommand]:
    """Push the command tree to Discord: globally (may take up to an hour to show everywhere)
    or to one guild (instant; for development). Returns what Discord registered."""
    bot = PartidaBot(sync_only=True)
    async with bot:
        await bot.login(token)
        if guild_id is None:
            return await bot.tree.sync()
        guild = discord.Object(guild_id)
        bot.tree.copy_global_to(guild=guild)
        return await bot.tree.sync(guild=guild)


def sync_commands(token: str, guild_id: int | None = None) -> int:
    """Blocking form of :func:`async_sync_commands`; returns how many top-level commands."""
    return len(asyncio.run(async_sync_commands(token, guild_id)))
