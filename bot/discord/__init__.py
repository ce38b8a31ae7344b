"""The Discord adapter: slash commands, buttons and replies over ``bot.service``.

Entry points: :func:`run_bot` (``partida run``) and :func:`sync_commands` (``partida sync``).
See docs/discord.md.
"""

from bot.discord.run import async_sync_commands, run_bot, sync_commands

__all__ = ["async_sync_commands", "run_bot", "sync_commands"]
