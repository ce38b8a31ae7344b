"""What the slash commands need from the bot that runs them, as protocols: the commands
(``bot.discord.commands``) are built against these, and the bot (``bot.discord.client``)
provides them, so neither module imports the other."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from bot.service.replies import Actor, Outgoing, Place, Reply


class GameService(Protocol):
    """What the adapter needs from ``bot.service.Service``."""

    async def close(self) -> None: ...
    async def new_game(
        self, actor: Actor, place: Place, game: str, options: dict[str, Any]
    ) -> Reply: ...
    async def join(self, actor: Actor, place: Place) -> Reply: ...
    async def leave(self, actor: Actor, place: Place) -> Reply: ...
    async def start(self, actor: Actor, place: Place) -> Reply: ...
    async def cancel(self, actor: Actor, place: Place) -> Reply: ...
    async def kick(self, actor: Actor, place: Place, user_id: int) -> Reply: ...
    async def status(self, actor: Actor, place: Place) -> Reply: ...
    async def board(self, actor: Actor, place: Place) -> Reply: ...
    async def rules(self, actor: Actor, place: Place, game: str) -> Reply: ...
    async def settings(
        self,
        actor: Actor,
        place: Place,
        deadline_minutes: int | None,
        reminder_minutes: int | None,
        replay: bool | None = None,
    ) -> Reply: ...
    async def rematch(self, actor: Actor, place: Place, game_id: int | None = None) -> Reply: ...
    async def replay_game(self, actor: Actor, place: Place, game_id: int | str) -> Reply: ...
    async def history(self, actor: Actor, place: Place) -> Reply: ...
    async def leaderboard(self, actor: Actor, place: Place, game: str, page: int = 1) -> Reply: ...
    async def stats(self, actor: Actor, place: Place, user_id: int | None = None) -> Reply: ...
    async def language(self, actor: Actor, place: Place, language: str) -> Reply: ...
    async def act(
        self, actor: Actor, place: Place, game: str, command: str, args: dict[str, Any]
    ) -> Reply: ...
    async def press(
        self, actor: Actor, place: Place, custom_id: str, values: list[str] | None = None
    ) -> Reply: ...
    async def suggest(
        self,
        actor: Actor,
        place: Place,
        game: str,
        command: str,
        param: str,
        args: dict[str, Any],
        typed: str,
    ) -> list[str]: ...
    async def run_deadlines(self) -> list[Outgoing]: ...
    async def next_deadline(self) -> float | None: ...


class CommandHost(Protocol):
    """The bot, as the command tree calls it."""

    async def run_command(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[Actor, Place], Awaitable[Reply]],
        *,
        slow: bool = False,
        what: str,
        game_id: int | None = None,
    ) -> None: ...

    def get_service(self) -> GameService: ...

    async def suggest(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        command: str,
        param: str,
        args: dict[str, Any],
        typed: str,
    ) -> list[str]: ...
