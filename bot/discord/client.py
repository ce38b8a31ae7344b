"""The Discord bot: a thin adapter over the service.

``setup_hook`` opens the service (which migrates the database), registers the dynamic buttons
and starts the deadline loop; the command tree is only *synced* on ``partida sync``
(:func:`bot.discord.run.sync_commands`), never on start.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable, Collection
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands as ext

from bot import config
from bot.discord import answer, health, send
from bot.discord.commands import all_groups
from bot.discord.items import GameItem
from bot.discord.translator import CatalogueTranslator
from bot.service import buttons, drawing
from bot.service.errors import DamagedDatabase
from bot.service.replies import Actor, Outgoing, Place, Posted, Reply
from bot.store import outage
from i18n import language_for

if TYPE_CHECKING:  # imported where it is opened (``setup_hook``), so tests can fake it
    from bot.service import Service

log = logging.getLogger(__name__)

# Discord takes an interaction's first response only this many seconds after it was made (the
# time in its snowflake id); a later one is refused (10062) and the user reads "This
# interaction failed".
WINDOW = 3.0
# How old a read-only command may be, counting from when it was made, before we defer it
# rather than wait for its answer (a command that can change a game is deferred before it runs).
ANSWER_WINDOW = 1.5
# How long after the window closes a defer may still be waited for (its reply crossing a slow
# link): a defer not taken by then was not taken, and the command does not run.
DEFER_SLACK = 1.0
# The deadline loop wakes at its next due deadline, when a command of this process writes a
# sooner one, and at least this often (for deadlines it was not told of: another process's, when
# that process is gone, or after a round that failed).
DEADLINE_POLL = 30.0
# How often a damaged database is looked at again (each look logs what to do, once).
DAMAGED_POLL = 600.0
# How long a stop waits for the commands in flight before answering them itself: Docker sends
# SIGKILL 10 s after SIGTERM unless told otherwise (systemd waits 90 s, Kubernetes 30 s).
STOP_GRACE = 8.0
# How often the closed games past RETENTION_DAYS are deleted (when it is set).
RETENTION_EVERY = 3600.0


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    user = interaction.user
    return Actor(
        user_id=user.id,
        display_name=user.display_name,
        locale=language_for(str(interaction.locale)),
        can_manage=interaction.permissions.manage_channels,
    )


def named(interaction: discord.Interaction[Any]) -> str:
    """What a log line may say of an interaction: its command's name, or that it was a click
    (not the button's id, whose arguments may be a choice its player alone could see)."""
    command = interaction.command
    return f"/{command.qualified_name}" if command is not None else "a click"


def age_of(interaction: discord.Interaction[Any]) -> float:
    """Seconds since Discord made the interaction (its id's time against our clock, which must
    be kept right, by NTP as every server does: a clock 3 s fast would answer nothing)."""
    return (discord.utils.utcnow() - interaction.created_at).total_seconds()


def place_of(interaction: discord.Interaction[Any]) -> Place | None:
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    guild_locale = str(interaction.guild_locale) if interaction.guild_locale else None
    return Place(interaction.channel_id, interaction.guild_id, language_for(guild_locale))


def _focused(options: list[Any]) -> str | None:
    """The name of the option being typed in an autocomplete interaction's data."""
    for option in options:
        if option.get("focused"):
            return str(option["name"])
        found = _focused(option.get("options") or [])
        if found is not None:
            return found
    return None


class PartidaTree(app_commands.CommandTree[Any]):
    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """An autocomplete for a command or option this version no longer has (the commands
        Discord shows are older than the bot until ``partida sync``) gets an empty list: the
        library would otherwise log it and leave the user's menu spinning."""
        if interaction.type is not discord.InteractionType.autocomplete:
            return True
        command = interaction.command
        data: dict[str, Any] = dict(interaction.data or {})
        focused = _focused(data.get("options") or [])
        if isinstance(command, app_commands.Command) and any(
            param.autocomplete and focused in (param.name, param.display_name)
            for param in command.parameters
        ):
            return True
        log.warning("autocomplete for a command that has changed (%s): run `partida sync`", focused)
        await interaction.response.autocomplete([])
        return False

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        # Reached only for errors before our handlers run (they catch their own): unknown or
        # changed commands, values Discord sent that do not convert.
        if interaction.type is discord.InteractionType.autocomplete:
            # An autocomplete cannot be answered with a message, only with choices.
            if not interaction.response.is_done():
                await interaction.response.autocomplete([])
            return
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
        await answer.failure(interaction, key, language_for(str(interaction.locale)))


class PartidaBot(ext.AutoShardedBot):
    """The bot. Pass ``service`` to share an open service (tests), or ``database_url`` to let
    the bot open and close its own. ``sync_only`` skips the service: used by ``partida sync``."""

    def __init__(
        self,
        *,
        database_url: str | None = None,
        service: Service | None = None,
        sync_only: bool = False,
        clock: Callable[[], float] = time.time,
        edit_delay: float = send.EDIT_DELAY,
        migrate: bool = True,
        **options: Any,
    ) -> None:
        # The bot never joins a voice channel: discord.py's warnings that the voice libraries
        # (PyNaCl, davey) are missing would greet the operator at every start and every doctor.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
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
        self.service: Service | None = service
        self._owns_service = service is None
        self.sync_only = sync_only
        self.clock = clock
        self._wake = asyncio.Event()
        # When the deadline loop looks next (the service's clock); -inf while it is looking,
        # so that a deadline written meanwhile makes it look again.
        self._next_look = -math.inf
        self.migrate = migrate  # ``partida run`` has migrated already: once is enough
        self.busy = 0  # commands, clicks and deadline rounds in progress
        self.draining = False  # stopping: new commands are answered "restarting"
        # The task running each command in flight, and who to answer if it must be cut short.
        self._in_flight: dict[asyncio.Task[Any], tuple[discord.Interaction[Any], str]] = {}
        self._deadline_task: asyncio.Task[None] | None = None
        self._upkeep_task: asyncio.Task[None] | None = None
        self.outbox = send.Outbox(self, self, edit_delay)
        self.health: health.Health | None = None
        for group in all_groups(self):
            self.tree.add_command(group)

    def get_service(self) -> Service:
        if self.service is None:
            raise RuntimeError("the service is not open yet")
        return self.service

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        if self.sync_only:
            return
        if self.service is None:
            from bot.service import Service  # the platform; imported late so tests can fake it

            self.service = await Service.open(self.database_url, migrate=self.migrate)
        self.add_dynamic_items(GameItem)
        # Every command records what it owes the channels; the outbox settles it once sent.
        self.service.owes = True
        # Over its drawing capacity the bot answers moves at once: a picture not drawn within
        # this follows its message (``bot.service.drawing``).
        self.service.picture_wait = drawing.PICTURE_WAIT
        self._deadline_task = asyncio.create_task(self._deadlines(), name="partida-deadlines")
        settings = config.current()
        if settings.health_port:  # /healthz and /metrics (bot/discord/health.py), off by default
            self.health = await health.serve(
                self,
                lambda: getattr(self.service, "engine", None),
                health.OutboxStats(self.outbox),
                settings.health_host,
                settings.health_port,
                paused=lambda: len(self.outbox.blocked),
            )
        days = config.current().retention_days
        self._upkeep_task = asyncio.create_task(self._upkeep(days), name="partida-upkeep")

    async def drain(self, grace: float | None = None) -> None:
        """The first half of a clean stop (SIGTERM): take no new commands (they are answered
        "restarting"), let the ones in flight finish for up to ``grace`` seconds and answer any
        still running, and let the deadline loop end its round. ``close`` does the rest."""
        grace = STOP_GRACE if grace is None else grace
        self.draining = True
        self.wake_deadlines()  # the loop sees ``draining`` and ends
        tasks = set(self._in_flight)
        log.info("stopping: %d commands in flight", len(tasks))
        late: set[asyncio.Task[Any]] = set()
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=grace)
        cut = [self._in_flight[task] for task in late if task in self._in_flight]
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        for interaction, lang in cut:
            # Nothing tells whether the command committed before it was cut, so the message
            # says how to find out rather than guessing.
            await answer.failure(interaction, "discord.error.restarting", lang)
        if late:
            log.warning("stopping: %d commands cut short after %.0f s", len(late), grace)
        if self._deadline_task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._deadline_task), grace)
            except (TimeoutError, asyncio.CancelledError):
                pass  # ``close`` cancels it; a claimed deadline rolls back and stays due

    async def moved(self, game_id: int, channel_id: int, thread_id: int) -> None:
        """The outbox opened the game's thread: the service plays the game there."""
        if self.service is not None:
            await self.service.moved(game_id, channel_id, thread_id)

    async def pause(self, channel_id: int, missing: tuple[str, ...] = ()) -> int | None:
        """The bot may not post in this channel: its table waits (the host's id, the first
        time, to tell them)."""
        if self.service is None:
            return None
        return await self.service.pause(channel_id, missing)

    async def resume(self, channel_id: int) -> tuple[int | None, list[Outgoing]]:
        """The bot may post there again: the table goes on (its host, and the table to post)."""
        if self.service is None:
            return None, []
        return await self.service.resume(channel_id)

    async def table_again(self, game_id: int, role: str) -> list[Outgoing]:
        """A slot's message is lost (deleted, or its id unrecorded): the message to post anew."""
        if self.service is None:
            return []
        return await self.service.table_again(game_id, role)

    async def _upkeep(self, days: int | None) -> None:
        """In the background: compact the logs of games closed before compaction existed
        (once, after an upgrade), then, with ``RETENTION_DAYS``, delete every hour the games
        closed longer ago than that."""
        try:
            compacted = await self.get_service().compact_closed()
            if compacted:
                log.info("compacted the logs of %d games closed before", compacted)
        except Exception as error:
            if outage.lost(error):  # said once by the outage, not a bug's traceback
                outage.database.failed(error)
            else:
                log.exception("compacting the logs of closed games failed; the next start retries")
        while days is not None:
            try:
                pruned = await self.get_service().prune(days)
                if pruned:
                    log.info("retention: deleted %d games closed over %d days ago", pruned, days)
            except Exception as error:
                if outage.lost(error):
                    outage.database.failed(error)
                else:
                    log.exception("retention: pruning failed; trying again in an hour")
            await asyncio.sleep(RETENTION_EVERY)

    async def gone(self, channel_id: int) -> tuple[int | None, int | None]:
        """The channel or thread was deleted: its game pauses (the host, the first time, and
        the channel where the game can go on)."""
        if self.service is None:
            return None, None
        return await self.service.gone(channel_id)

    async def owed(
        self, exclude: Collection[int] = (), stale: float | None = None
    ) -> list[Outgoing]:
        """What is recorded as owed to channels and not sent (nor in ``exclude``)."""
        if self.service is None:
            return []
        return await self.service.owed(exclude, stale)

    async def delivered(self, ids: tuple[int, ...], posted: tuple[Posted, ...] = ()) -> None:
        """The outbox's deliveries settled, and the slots' messages it posted (their ids)."""
        if self.service is not None:
            await self.service.delivered(ids, posted)

    async def attempted(self, ids: tuple[int, ...], delay: float) -> None:
        if self.service is not None:
            await self.service.attempted(ids, delay)

    async def dm_closed(self, user_id: int) -> None:
        if self.service is not None:
            await self.service.dm_closed(user_id)

    async def unpictured(self, ids: tuple[int, ...], message_id: int) -> None:
        if self.service is not None:
            await self.service.unpictured(ids, message_id)

    async def close(self) -> None:
        if self.health is not None:
            await self.health.stop()
            self.health = None
        if self._upkeep_task is not None:
            self._upkeep_task.cancel()  # between two batches or in one, which rolls back
            try:
                await self._upkeep_task
            except asyncio.CancelledError:
                pass
            self._upkeep_task = None
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
        reads: bool = False,
        what: str,
        game_id: int | None = None,
    ) -> None:
        """Run one command or click through the service and answer it, honestly: nothing
        changes unless Discord can still be told.

        Work that may change a game (``reads=False``, the default) runs only once Discord has
        taken its defer, so its answer (an edit of the deferred response) cannot miss the 3 s
        window; a defer refused or lost (10062, 5xx, 429, a slow link) leaves it undone. So is
        ``slow`` work (it renders), and read-only work that arrives late. Read-only work
        that arrives fresh is answered in one call, deferred if it is not done by
        ``ANSWER_WINDOW`` after the interaction was made. An interaction older than Discord's
        window (a gateway RESUME replays it late) is not run at all. Any exception is logged
        with the game and answered with a translated message: "try again" only when nothing
        was saved.
        """
        lang = language_for(str(interaction.locale))
        age = age_of(interaction)
        if age >= WINDOW:
            # Nobody can be answered: doing it would be a change the user is told failed.
            log.warning(
                "%s not run: it reached us %.1f s after it was made, too late to answer "
                "(game %s, channel %s, user %s)",
                named(interaction),
                age,
                game_id if game_id is not None else "?",
                interaction.channel_id,
                interaction.user.id,
            )
            return
        if self.draining:
            await answer.failure(interaction, "discord.error.restarting", lang)
            return
        task = asyncio.current_task()
        if task is not None:
            self._in_flight[task] = (interaction, lang)
        self.busy += 1
        try:
            await self._run_command(
                interaction, work, slow=slow, reads=reads, what=what, game_id=game_id
            )
        finally:
            self.busy -= 1
            if task is not None:
                self._in_flight.pop(task, None)
            self.deadlines_changed()  # a command may have set a new, earlier deadline

    async def _run_command(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[Actor, Place], Awaitable[Reply]],
        *,
        slow: bool,
        reads: bool,
        what: str,
        game_id: int | None,
    ) -> None:
        actor = actor_of(interaction)
        place = place_of(interaction)
        if place is None:
            await answer.failure(interaction, "discord.error.guild_only", actor.locale)
            return
        channel_id = place.channel_id

        def failed(stage: str) -> None:
            log.exception(
                "%s failed %s (game %s, channel %s, user %s)",
                what,
                stage,
                game_id if game_id is not None else "?",
                channel_id,
                actor.user_id,
            )

        try:
            late = age_of(interaction) >= ANSWER_WINDOW
            if slow or not reads or late:
                if not await self._defer(interaction):
                    return
                reply = await work(actor, place)
            else:
                task = asyncio.ensure_future(work(actor, place))
                left = ANSWER_WINDOW - age_of(interaction)
                done, _ = await asyncio.wait({task}, timeout=max(0.0, left))
                if not done and not await self._defer(interaction):
                    # Read-only: nothing to undo, and nobody to show it to.
                    await asyncio.gather(task, return_exceptions=True)
                    return
                reply = await task
        except Exception as error:
            if outage.lost(error):  # the database out of reach: one WARNING per outage
                outage.database.failed(error)
                await answer.failure(interaction, "lobby.error.database", actor.locale)
                return
            failed("in its work")
            await answer.failure(interaction, "discord.error.internal", actor.locale)
            return
        # What the user is told from here on depends on whether their command changed a game
        # (a refused one changed nothing, and neither did a read-only one).
        committed = reply.ok and reply.wrote and not reads
        lang = reply.lang or actor.locale  # the user's chosen language, as the service answered
        try:
            await answer.answer(interaction, reply, lang, self.outbox)
        except Exception:
            failed("after its work was saved" if committed else "while answering")
            key = send.SAVED if committed else "discord.error.internal"
            await answer.failure(interaction, key, lang)

    async def _defer(self, interaction: discord.Interaction[Any]) -> bool:
        """Acknowledge the interaction before its work runs; whether Discord took it in time.

        A click is deferred without a message of its own (its clicked message can still be
        the answer, or a follow-up is); a slash command with an ephemeral "thinking…"."""
        if interaction.type is discord.InteractionType.component:
            acknowledged = interaction.response.defer()
        else:
            acknowledged = interaction.response.defer(ephemeral=True, thinking=True)
        # discord.py waits out a 429 and retries a 5xx by itself; past the window that is moot.
        limit = WINDOW + DEFER_SLACK - age_of(interaction)
        try:
            await asyncio.wait_for(acknowledged, max(0.0, limit))
        except (discord.HTTPException, TimeoutError) as exc:
            reason = "no answer in time" if isinstance(exc, TimeoutError) else str(exc)
            log.warning(
                "%s not run: Discord did not take its defer %.1f s after it was made (%s; "
                "channel %s, user %s)",
                named(interaction),
                age_of(interaction),
                reason,
                interaction.channel_id,
                interaction.user.id,
            )
            return False
        return True

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """A few words of welcome when the bot is added to a server: in its system channel, or
        else the first text channel the bot may post in (none: it stays quiet)."""
        me = guild.me
        candidates = [guild.system_channel, *sorted(guild.text_channels, key=lambda c: c.position)]
        where = next(
            (
                c
                for c in candidates
                if c is not None and me is not None and c.permissions_for(me).send_messages
            ),
            None,
        )
        if where is None:
            log.info("joined guild %s: no channel to greet in", guild.id)
            return
        lang = language_for(str(guild.preferred_locale))
        await send.post(self, Outgoing(where.id, self.get_service().welcome(lang)))

    # A permission change or a reopened thread may let a waiting table go on: look now (the
    # deadline loop's round sees it in the cache, without asking Discord anything).
    async def on_guild_channel_update(self, before: Any, after: Any) -> None:
        if self.outbox.blocked:
            self.wake_deadlines()

    async def on_thread_update(self, before: Any, after: Any) -> None:
        if self.outbox.blocked:
            self.wake_deadlines()

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        # Raw: discord.py drops an archived thread from its cache, and its edit would be
        # refused (50083) unless the sender reopens it first.
        meta = payload.data.get("thread_metadata") or {}
        self.outbox.thread_changed(
            payload.thread_id,
            archived=bool(meta.get("archived")),
            locked=bool(meta.get("locked")),
        )

    async def on_thread_join(self, thread: Any) -> None:
        # discord.py forgets archived threads: one reopened comes back as a thread joined.
        if self.outbox.blocked:
            self.wake_deadlines()

    async def on_guild_role_update(self, before: Any, after: Any) -> None:
        if self.outbox.blocked:
            self.wake_deadlines()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a component no item of ours will take (a forged or foreign custom_id, or
        one missing from the message it claims to be on) is answered here, ephemerally, rather
        than left as "This interaction failed". Ours are the ids :class:`GameItem` matches,
        on a message that carries them (what discord.py needs to dispatch a dynamic item)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        message = interaction.message
        carried = message is not None and any(
            getattr(child, "custom_id", None) == custom_id
            for row in message.components
            for child in getattr(row, "children", [row])
        )
        if buttons.OURS.fullmatch(custom_id) and carried:
            return
        log.warning("click on an unknown component in channel %s", interaction.channel_id)
        await answer.failure(
            interaction, "lobby.error.stale_button", language_for(str(interaction.locale))
        )

    async def on_game_item(
        self, interaction: discord.Interaction[Any], press: buttons.Press | None, custom_id: str
    ) -> None:
        """A click on one of our buttons or selects, decoded by the item (``None``: malformed)."""
        await self.run_command(
            interaction,
            lambda a, p: self.get_service().press(a, p, press),
            # A click may change a game: deferred before it runs (see ``run_command``). Its
            # log lines name the button's command, never its id, whose arguments are the
            # choice it makes (a sealed bid, a magic item picked in a private menu).
            # (The command's name is ``[a-z0-9_-]``: ``buttons.PATTERN``.)
            what=f"press {press.command if press is not None else '?'}",
            game_id=press.game_id if press is not None else None,
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
        if place is None or self.draining:
            return []
        try:
            return await self.get_service().suggest(
                actor_of(interaction), place, game, command, param, args, typed
            )
        except Exception as error:
            # An autocomplete has no message to show; an empty list is the polite answer.
            if outage.lost(error):
                outage.database.failed(error)  # logged once for the whole outage
                return []
            log.exception(
                "autocomplete %s %s %s failed in channel %s", game, command, param, place.channel_id
            )
            return []

    # ------------------------------------------------------------------ deadlines

    def wake_deadlines(self) -> None:
        """Look at the deadlines now."""
        self._wake.set()

    def deadlines_changed(self) -> None:
        """After a command: wake the deadline loop if the command wrote a deadline sooner than
        its next look (it sleeps until its next due deadline, and a pass costs statements)."""
        written = self.service.written_deadline() if self.service is not None else None
        if written is not None and written < self._next_look:
            self._wake.set()

    async def _deadlines(self) -> None:
        """Apply due defaults and send reminders; sleep until the next deadline (or a command)."""
        await self.wait_until_ready()
        while not self.is_closed() and not self.draining:
            self._wake.clear()
            self._next_look = -math.inf
            upcoming: float | None = None
            damaged = False
            self.busy += 1
            try:
                service = self.get_service()
                planned = time.monotonic()
                for outgoing in await service.run_deadlines():
                    self.outbox.enqueue(outgoing, since=planned)
                await self.outbox.probe()  # a waiting table whose permissions came back
                await self.outbox.pick_up()  # owed, not queued: from before the start, or lost
                upcoming = await service.next_deadline()
                outage.database.worked()  # the end of an outage, if this round ends it
            except asyncio.CancelledError:
                raise
            except DamagedDatabase as damage:
                # Retrying at once cannot help: say what to do, then look again rarely.
                log.error("deadline loop stopped: %s", DamagedDatabase.ADVICE.format(error=damage))
                damaged = True
            except Exception as error:
                if outage.lost(error):
                    outage.database.failed(error)  # logged once; the next round tries again
                else:
                    log.exception("deadline loop failed; retrying")
            finally:
                self.busy -= 1
            delay = DAMAGED_POLL if damaged else DEADLINE_POLL
            if upcoming is not None:
                delay = min(DEADLINE_POLL, max(0.05, upcoming - self.clock()))
            self._next_look = self.clock() + delay
            try:
                await asyncio.wait_for(self._wake.wait(), delay)
            except TimeoutError:
                pass
