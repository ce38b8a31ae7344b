"""The channels a game's messages go to, as the sender sees them: a channel where the bot may
not post (a permission missing, a thread locked, a channel deleted) pauses its table and gets no
request until it may again; a game's thread is opened from its lobby, reopened when archived,
archived when the game ends; hosts hear by direct message. :class:`Channels` is the base of
:class:`bot.discord.edits.Edits` and so of :class:`bot.discord.send.Outbox`, which queues and
sends; this module holds what a channel's
state decides (see ``docs/discord.md``)."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import aiohttp
import discord

from bot.discord import perms
from bot.service.replies import Message, Outgoing, Posted, Slot
from i18n import language_for, t

log = logging.getLogger(__name__)

# What a try at a delivery came to.
DONE = "done"  # Discord took it (or it was settled another way): owed no more
RETRY = "retry"  # a passing failure (5xx, 429, a timeout, the network): try again later
AGAIN = "again"  # something was fixed just now (a thread reopened): try again at once
DROP = "drop"  # never to be sent (a paused or gone channel, a request Discord refuses)

# Retries wait BACKOFF_BASE · 2^(attempt-1) seconds, at most BACKOFF_CAP, less a random part of
# up to half (jitter: many channels failing together do not retry together).
BACKOFF_BASE = 1.0
BACKOFF_CAP = 300.0
# How many slots' messages the outbox remembers (the database has them all: ``GameRow.messages``
# and ``Outgoing.edit_of``); the least recently used are forgotten first.
KNOWN_MAX = 1024
# Discord lets a thread stay open without activity for 60, 1440, 4320 or 10080 minutes. A
# game's thread takes the longest: a deadline may be changed after the thread opened, and a
# waiting thread that archives refuses the players' slash commands.
THREAD_ARCHIVE_MINUTES: Literal[60, 1440, 4320, 10080] = 10080
# Discord's error code for a channel or thread that is not there (deleted).
UNKNOWN_CHANNEL = 10003
GONE = "gone"  # a Blocked reason: the channel or thread was deleted


def backoff(attempt: int, retry_after: float = 0.0) -> float:
    """Seconds before try ``attempt + 1`` (at least what Discord asked, ``retry_after``)."""
    ceiling = min(BACKOFF_CAP, BACKOFF_BASE * 2 ** max(0, attempt - 1))
    return max(retry_after, ceiling * random.uniform(0.5, 1.0))


class PostReporter(Protocol):
    """What the outbox tells the service: which message a slot's post became, which thread
    a game moved to, that a channel's table must wait (or may go on), and that a slot's
    message is lost (the service gives it again)."""

    async def moved(self, game_id: int, channel_id: int, thread_id: int) -> None: ...
    async def pause(self, channel_id: int, missing: tuple[str, ...] = ()) -> int | None: ...
    async def resume(self, channel_id: int) -> tuple[int | None, list[Outgoing]]: ...
    async def table_again(self, game_id: int, role: str) -> list[Outgoing]: ...
    async def gone(self, channel_id: int) -> tuple[int | None, int | None]: ...
    async def owed(
        self, exclude: Collection[int] = (), stale: float | None = None
    ) -> list[Outgoing]: ...
    async def delivered(self, ids: tuple[int, ...], posted: tuple[Posted, ...] = ()) -> None: ...
    async def attempted(self, ids: tuple[int, ...], delay: float) -> None: ...
    async def dm_closed(self, user_id: int) -> None: ...
    async def unpictured(self, ids: tuple[int, ...], message_id: int) -> None: ...


@dataclass(frozen=True)
class Blocked:
    """A channel the bot may not post in: what it lacks there, and whether the gateway's cache
    showed it (then the cache also shows when it is fixed, and the table comes back by itself)."""

    missing: tuple[str, ...]
    foreseen: bool
    at: float = field(default_factory=time.monotonic)

    @property
    def gone(self) -> bool:
        """The channel was deleted: nothing brings it back."""
        return GONE in self.missing


class Channels:
    """What the sender knows of its channels: which are blocked (and why), which hosts were
    told, which threads are archived, and which message each slot became (``known``). The
    queueing and sending are the :class:`~bot.discord.send.Outbox`'s (``enqueue``, ``after``)."""

    def __init__(self, client: discord.Client, service: PostReporter | None) -> None:
        self.client = client
        self.service = service
        # slot → (channel id, message id), least recently used first (bounded: KNOWN_MAX).
        self.known: OrderedDict[Slot, tuple[int, int]] = OrderedDict()
        self.chores: set[asyncio.Task[Any]] = set()  # direct messages, settling rows
        self.no_threads: set[int] = set()  # channels told that games are played there
        # Channels that get no request while the bot may not post there (their tables wait),
        # or that are gone.
        self.blocked: dict[int, Blocked] = {}
        # Channels whose host heard of the pause and not yet of its end: a table refused again
        # right after it came back does not tell them twice.
        self.told: set[int] = set()
        # Threads the gateway said archived (and not locked), which refuse an edit (50083)
        # until reopened: reopened before one, rather than learnt from a refusal. Bounded by
        # KNOWN_MAX, like ``known``.
        self.archived: OrderedDict[int, None] = OrderedDict()
        self.retries = 0

    def enqueue(self, outgoing: Outgoing, since: float | None = None) -> None:
        """Hand ``outgoing`` to its channel's sender (the Outbox's)."""
        raise NotImplementedError

    def after(self, channel_id: int, action: Callable[[], Awaitable[None]]) -> None:
        """Run ``action`` once what is queued for the channel has gone out (the Outbox's)."""
        raise NotImplementedError

    def _chore(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)

    async def _refused(self, channel_id: int, exc: discord.HTTPException) -> str | None:
        """What a refusal of a post or an edit in ``channel_id`` means: the channel is gone
        (its game pauses), an archived thread (reopened, then try again), a permission the
        bot lacks (the channel is blocked); ``None``: none of these."""
        if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL:
            await self._gone(channel_id)
            return DROP
        if exc.code == perms.THREAD_ARCHIVED_CODE and await self._reopen(channel_id):
            return AGAIN
        thread = perms.is_thread(self.client.get_channel(channel_id))
        lacking = perms.refused(exc, thread=thread)
        if lacking is None:
            return None
        log.warning("channel %s refused a message (%s); its table waits", channel_id, exc)
        # A reopened thread comes back into the cache (discord.py drops archived ones).
        await self.block(channel_id, lacking, foreseen=lacking == (perms.ARCHIVED,))
        return DROP

    def thread_changed(self, thread_id: int, *, archived: bool, locked: bool) -> None:
        """What the gateway says of a thread (THREAD_UPDATE): archived and not locked, an edit
        there reopens it first; locked, it waits for a moderator (the block's business)."""
        self.archived.pop(thread_id, None)
        if archived and not locked:
            self.archived[thread_id] = None
            while len(self.archived) > KNOWN_MAX:
                self.archived.popitem(last=False)

    async def _reopen(self, thread_id: int) -> bool:
        """Unarchive a thread that refused a message for being archived, unless a moderator
        locked it (then it waits for them, even where Manage Threads would let the bot)."""
        try:
            thread = await self.client.fetch_channel(thread_id)
            if not isinstance(thread, discord.Thread) or thread.locked:
                return False
            await thread.edit(archived=False)
        except discord.HTTPException as exc:
            log.info("could not reopen thread %s: %s", thread_id, exc)
            return False
        log.info("thread %s was archived: reopened it", thread_id)
        return True

    async def _gone(self, channel_id: int) -> None:
        """The channel or thread was deleted: nothing more goes there, its game pauses (moved
        back to the channel its thread hung from, where a command resumes it) and its host
        hears once, by direct message, where and how to go on."""
        if channel_id in self.blocked and self.blocked[channel_id].gone:
            return
        log.warning("channel %s is gone (deleted); its game pauses", channel_id)
        self.blocked[channel_id] = Blocked((GONE,), foreseen=False)
        for slot in [s for s, (c, _) in self.known.items() if c == channel_id]:
            del self.known[slot]
        if self.service is None:
            return
        host, where = await self.service.gone(channel_id)
        if host is None:
            return
        lang = self._lang(where if where is not None else channel_id)
        if where is not None:
            text = t("discord.pause.host_gone", lang, channel=f"<#{where}>")
        else:
            text = t("discord.pause.host_gone_for_good", lang)
        self._tell(host, text)

    async def _may_post(self, channel_id: int) -> bool:
        """Whether to send to this channel at all: not while it is blocked, nor when the cache
        shows a permission missing (which blocks it, without a request)."""
        if channel_id in self.blocked:
            return False
        lacking = perms.cached(self.client, channel_id)
        if lacking:
            log.warning("channel %s: the bot lacks %s; its table waits", channel_id, lacking)
            await self.block(channel_id, lacking, foreseen=True)
            return False
        return True

    # ------------------------------------------------------------------ paused channels

    async def block(
        self,
        channel_id: int,
        missing: tuple[str, ...],
        *,
        foreseen: bool,
        actor: int | None = None,
        lang: str | None = None,
    ) -> None:
        """Send nothing more to this channel, pause its table and tell its host, once, by
        direct message what the bot needs there (not when the host is ``actor``, who was just
        told in their answer). The message is queued: no request is awaited here."""
        self.blocked[channel_id] = Blocked(missing, foreseen)
        if self.service is None:
            return
        host = await self.service.pause(channel_id, missing)
        if host is None or channel_id in self.told:
            return
        self.told.add(channel_id)
        if host == actor:
            return
        lang = lang or self._lang(channel_id)
        key = "discord.pause.host_locked" if perms.ARCHIVED in missing else "discord.pause.host"
        where = f"<#{channel_id}>"
        self._tell(host, t(key, lang, channel=where, missing=perms.named(missing, lang)))

    async def resume(self, channel_id: int) -> tuple[int | None, list[Outgoing]]:
        """Posting works in this channel again: unblock it and resume its table. Returns the
        host (``None``: no table was paused) and the table to post, once."""
        self.blocked.pop(channel_id, None)
        if self.service is None:
            return None, []
        return await self.service.resume(channel_id)

    async def resumed(self, channel_id: int, host: int | None, lang: str | None = None) -> None:
        """Once the table went out again (it is queued ahead), its host hears that the game
        goes on (unless the post was refused, which blocked the channel again)."""

        async def tell() -> None:
            if channel_id in self.blocked:
                return
            self.told.discard(channel_id)
            if host is not None:
                words = lang or self._lang(channel_id)
                self._tell(host, t("discord.pause.resumed", words, channel=f"<#{channel_id}>"))

        self.after(channel_id, tell)

    async def probe(self) -> None:
        """Bring back the tables of blocked channels whose missing permissions the cache now
        shows granted (the gateway tells of permission changes): no request until then."""
        for channel_id, blocked in list(self.blocked.items()):
            if not blocked.foreseen or perms.cached(self.client, channel_id) != ():
                continue
            log.info("channel %s: the bot may post again; its table goes on", channel_id)
            host, table = await self.resume(channel_id)
            for outgoing in table:
                self.enqueue(outgoing)
            await self.resumed(channel_id, host)

    def note(self, missing: tuple[str, ...], lang: str) -> str:
        """What the user who acted hears when the table could not be posted."""
        if perms.ARCHIVED in missing:
            return t("discord.pause.here_locked", lang)
        return t("discord.pause.here", lang, missing=perms.named(missing, lang))

    def _lang(self, channel_id: int) -> str:
        """The language of a channel's server, for words to its host outside any command."""
        channel = self.client.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        return language_for(str(guild.preferred_locale)) if guild is not None else "en"

    def _tell(self, user_id: int, text: str) -> None:
        """A direct message, sent apart (retried like a post); if the user accepts none,
        nothing more is tried."""
        self._chore(self._dm(user_id, text))

    async def _dm(self, user_id: int, text: str) -> None:
        attempt = 0
        nonce = secrets.token_hex(8)
        while True:
            try:
                direct = await self.client.create_dm(discord.Object(user_id))
                await direct.send(
                    text, allowed_mentions=discord.AllowedMentions.none(), nonce=nonce
                )
                return
            except discord.HTTPException as exc:
                if exc.status != 429 and exc.status < 500:
                    log.info("could not tell user %s by direct message: %s", user_id, exc)
                    return
            except (aiohttp.ClientError, TimeoutError, OSError):
                pass
            attempt += 1
            self.retries += 1
            await asyncio.sleep(backoff(attempt))

    # ------------------------------------------------------------------ threads

    async def _open_thread(self, outgoing: Outgoing, slot: Slot, message_id: int) -> None:
        """A public thread from the lobby message, where the game is played. Without the
        permission (the cache tells: no request is tried) the game stays in the channel,
        which is told so once."""
        assert outgoing.thread is not None
        channel = self.client.get_channel(outgoing.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return  # a thread, a DM or an unknown channel: the game is played where it is
        me = channel.guild.me
        allowed = channel.permissions_for(me) if me is not None else None
        if allowed is not None and not (
            allowed.create_public_threads and allowed.send_messages_in_threads
        ):
            log.info("no thread in channel %s (Create Public Threads, Send in Threads)", channel.id)
            self._no_thread(outgoing)
            return
        try:
            thread = await channel.get_partial_message(message_id).create_thread(
                name=outgoing.thread.name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        except (discord.Forbidden, discord.NotFound) as exc:
            log.info("no thread in channel %s (%s): the game is played there", channel.id, exc)
            self._no_thread(outgoing)
            return
        if self.service is not None:
            await self.service.moved(slot.game_id, outgoing.channel_id, thread.id)

    def _no_thread(self, outgoing: Outgoing) -> None:
        """Tell the channel, once, that its games are played there (no thread)."""
        assert outgoing.thread is not None
        if outgoing.channel_id not in self.no_threads:
            self.no_threads.add(outgoing.channel_id)
            self.enqueue(Outgoing(outgoing.channel_id, Message(outgoing.thread.refused)))

    async def _archive(self, thread_id: int) -> str:
        """Archive a finished game's thread (Manage Threads, or the bot opened it)."""
        for slot in [s for s, (c, _) in self.known.items() if c == thread_id]:
            del self.known[slot]  # the game is over: its messages are not edited again
        if thread_id in self.blocked:
            return DROP
        try:
            await self.client.http.edit_channel(thread_id, archived=True)
        except discord.HTTPException as exc:
            if exc.status == 429 or exc.status >= 500:
                raise
            log.warning("could not archive thread %s: %s", thread_id, exc)
        return DONE
