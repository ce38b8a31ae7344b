"""The Discord bot: a thin adapter over the service.

``setup_hook`` opens the service (which migrates the database), registers the dynamic buttons
and starts the deadline loop; the command tree is only *synced* on ``partida sync``
(:func:`bot.discord.run.sync_commands`), never on start.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands as ext

from bot.discord import send
from bot.discord.commands import all_groups
from bot.discord.host import GameService
from bot.discord.items import GameItem
from bot.discord.translator import CatalogueTranslator
from bot.service import buttons
from bot.service.replies import Actor, Outgoing, Place, Reply
from i18n import language_for

log = logging.getLogger(__name__)

# How long a "fast" command may run before we defer it anyway (Discord allows 3 s in all).
ANSWER_WINDOW = 1.5
# The deadline loop wakes at least this often, and after every command.
DEADLINE_POLL = 30.0


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    user = interaction.user
    return Actor(
        user_id=user.id,
        display_name=user.display_name,
        locale=language_for(str(interaction.locale)),
        can_manage=interaction.permissions.manage_channels,
    )


def place_of(interaction: discord.Interaction[Any]) -> Place | None:
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    guild_locale = str(interaction.guild_locale) if interaction.guild_locale else None
    return Place(interaction.channel_id, interaction.guild_id, language_for(guild_locale))


class PartidaTree(app_commands.CommandTree[Any]):
    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        # Reached only for errors before our handlers run (they catch their own): unknown or
        # changed commands, values Discord sent that do not convert.
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            key = "discord.error.outdated"
        elif isinstance(error, app_commands.TransformerError):
            key = "discord.error.bad_value"
        else:
            key = "discord.error.internal"
        command = interaction.command.qualified_name if interaction.command else "?"
        if key == "discord.error.internal":
            log.error(
                "command /%s failed in channel %s: %r",
                command,
                interaction.channel_id,
                error,
                exc_info=error,
            )
        else:  # expected after an upgrade until the next sync, or a user's odd value
            log.warning(
                "command /%s refused in channel %s: %s", command, interaction.channel_id, error
            )
        await send.failure(interaction, key, language_for(str(interaction.locale)))


class PartidaBot(ext.AutoShardedBot):
    """The bot. Pass ``service`` to share an open service (tests), or ``database_url`` to let
    the bot open and close its own. ``sync_only`` skips the service: used by ``partida sync``."""

    def __init__(
        self,
        *,
        database_url: str | None = None,
        service: GameService | None = None,
        sync_only: bool = False,
        clock: Callable[[], float] = time.time,
        edit_delay: float = send.EDIT_DELAY,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and guild locale; no privileged intent
        super().__init__(
            command_prefix=ext.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=PartidaTree,
            **options,
        )
        self.database_url = database_url
        self.service: GameService | None = service
        self._owns_service = service is None
        self.sync_only = sync_only
        self.clock = clock
        self._wake = asyncio.Event()
        self.busy = 0  # commands, clicks and deadline rounds in progress
        self._deadline_task: asyncio.Task[None] | None = None
        self.outbox = send.Outbox(self, self, edit_delay)
        for group in all_groups(self):
            self.tree.add_command(group)

    def get_service(self) -> GameService:
        if self.service is None:
            raise RuntimeError("the service is not open yet")
        return self.service

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        if self.sync_only:
            return
        if self.service is None:
            from bot.service import Service  # the platform; imported late so tests can fake it

            self.service = await Service.open(self.database_url)
        self.add_dynamic_items(GameItem)
        self._deadline_task = asyncio.create_task(self._deadlines(), name="partida-deadlines")

    async def posted(self, outgoing: Outgoing, message_id: int) -> None:
        """The outbox posted a message the service will edit later: the service notes its id."""
        if self.service is not None:
            await self.service.posted(outgoing, message_id)

    async def moved(self, game_id: int, channel_id: int, thread_id: int) -> None:
        """The outbox opened the game's thread: the service plays the game there."""
        if self.service is not None:
            await self.service.moved(game_id, channel_id, thread_id)

    async def close(self) -> None:
        await self.outbox.flush()  # readiness edits still waiting go out before we leave
        if self._deadline_task is not None:
            self._deadline_task.cancel()
            try:
                await self._deadline_task
            except asyncio.CancelledError:
                pass
            self._deadline_task = None
        await super().close()
        if self._owns_service and self.service is not None:
            await self.service.close()
            self.service = None

    # ------------------------------------------------------------------ commands and clicks

    async def run_command(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[Actor, Place], Awaitable[Reply]],
        *,
        slow: bool = False,
        what: str,
        game_id: int | None = None,
    ) -> None:
        """Run one command or click through the service and answer it.

        Slow work (anything that may resolve a phase and render) is deferred at once; other
        work is deferred only if it has not finished within ``ANSWER_WINDOW``. Any exception is
        logged with the game and answered with a translated message, never left as "This
        interaction failed".
        """
        self.busy += 1
        try:
            await self._run_command(interaction, work, slow=slow, what=what, game_id=game_id)
        finally:
            self.busy -= 1
            self.wake_deadlines()  # a command may have set a new, earlier deadline

    async def _run_command(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[Actor, Place], Awaitable[Reply]],
        *,
        slow: bool,
        what: str,
        game_id: int | None,
    ) -> None:
        actor = actor_of(interaction)
        place = place_of(interaction)
        if place is None:
            await send.failure(interaction, "discord.error.guild_only", actor.locale)
            return
        try:
            if slow:
                await interaction.response.defer(ephemeral=True, thinking=True)
                reply = await work(actor, place)
            else:
                task = asyncio.ensure_future(work(actor, place))
                done, _ = await asyncio.wait({task}, timeout=ANSWER_WINDOW)
                if not done:
                    await interaction.response.defer(ephemeral=True, thinking=True)
                reply = await task
            await send.answer(interaction, reply, actor.locale, self.outbox)
        except Exception:
            log.exception(
                "%s failed (game %s, channel %s, user %s)",
                what,
                game_id if game_id is not None else "?",
                place.channel_id,
                actor.user_id,
            )
            await send.failure(interaction, "discord.error.internal", actor.locale)

    async def on_game_item(
        self, interaction: discord.Interaction[Any], custom_id: str, values: list[str] | None
    ) -> None:
        await self.run_command(
            interaction,
            lambda a, p: self.get_service().press(a, p, custom_id, values),
            # Answered in one call when the service is quick (it nearly always is): deferring
            # first would cost a second REST call per click (see `python -m bench rest`).
            slow=False,
            what=f"press {custom_id}",
            game_id=buttons.game_of(custom_id),
        )

    async def suggest(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        command: str,
        param: str,
        args: dict[str, Any],
        typed: str,
    ) -> list[str]:
        place = place_of(interaction)
        if place is None:
            return []
        try:
            return await self.get_service().suggest(
                actor_of(interaction), place, game, command, param, args, typed
            )
        except Exception:
            # An autocomplete has no message to show; an empty list is the polite answer.
            log.exception(
                "autocomplete %s %s %s failed in channel %s", game, command, param, place.channel_id
            )
            return []

    # ------------------------------------------------------------------ deadlines

    def wake_deadlines(self) -> None:
        """Look at the deadlines now (after a command, which may have set an earlier one)."""
        self._wake.set()

    async def _deadlines(self) -> None:
        """Apply due defaults and send reminders; sleep until the next deadline (or a command)."""
        await self.wait_until_ready()
        while not self.is_closed():
            self._wake.clear()
            upcoming: float | None = None
            self.busy += 1
            try:
                service = self.get_service()
                for outgoing in await service.run_deadlines():
                    await self.outbox.deliver(outgoing)
                upcoming = await service.next_deadline()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("deadline loop failed; retrying")
            finally:
                self.busy -= 1
            delay = DEADLINE_POLL
            if upcoming is not None:
                delay = min(DEADLINE_POLL, max(0.05, upcoming - self.clock()))
            try:
                await asyncio.wait_for(self._wake.wait(), delay)
            except TimeoutError:
                pass
