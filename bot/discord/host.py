"""What the slash commands need from the bot that runs them, as a protocol: the commands
(``bot.discord.commands``) are built against it, and the bot (``bot.discord.client``)
provides it, so neither module imports the other.

The service itself is typed as what it is, ``bot.service.Service``: each of its commands is
declared once, as its method (a lobby command also as its entry in
``bot/service/lobby_commands.py``), not restated here."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.service.replies import Actor, Place, Reply

if TYPE_CHECKING:
    from bot.service.service import Service


class CommandHost(Protocol):
    """The bot, as the command tree calls it."""

    async def run_command(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[Actor, Place], Awaitable[Reply]],
        *,
        slow: bool = False,
        reads: bool = False,
        what: str,
        game_id: int | None = None,
    ) -> None: ...

    def get_service(self) -> Service: ...

    async def suggest(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        command: str,
        param: str,
        args: dict[str, Any],
        typed: str,
    ) -> list[str]: ...
