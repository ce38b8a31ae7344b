"""Entry points for ``partida run`` and ``partida sync`` (wired in ``bot/cli.py``)."""

from __future__ import annotations

import asyncio
import logging
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
    bot = PartidaBot(database_url=database_url, **shards(current()))
    if dev_guild:
        log.info(
            "development guild %s: sync there with `partida sync --guild %s`", dev_guild, dev_guild
        )
    bot.run(token, log_handler=None)  # logging is set up by bot.cli


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
