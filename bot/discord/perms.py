"""What the bot needs to post a game's table in a channel, and what it lacks there.

A table's messages carry words, embeds (the narration) and a picture, so a channel where one
of these permissions is missing cannot show the game: the adapter pauses the table rather than
send a refused request per move, deadline and reminder (Discord bans a bot's address after
10,000 refused requests in 10 minutes). Creating threads is not needed: without it the game is
played in the channel itself (``send.Outbox``).

``missing`` answers from a :class:`discord.Permissions` (an interaction's ``app_permissions``,
or the cache's ``channel.permissions_for(me)``); the reasons it returns are permission
attribute names, or :data:`ARCHIVED` for a locked, archived thread, which no permission
lets the bot post in.
"""

from __future__ import annotations

from typing import Any

import discord

from i18n import t

# What a locked, archived thread refuses (Discord's error 50083): no permission helps, only a
# moderator reopening it.
ARCHIVED = "archived"
# Discord's JSON error code for an operation on an archived thread.
THREAD_ARCHIVED_CODE = 50083
THREAD_TYPES = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def needed(*, thread: bool) -> tuple[str, ...]:
    """The permissions a table needs, in the order Discord's settings list them."""
    send = "send_messages_in_threads" if thread else "send_messages"
    return ("view_channel", send, "embed_links", "attach_files")


def missing(
    permissions: discord.Permissions, *, thread: bool, locked: bool = False
) -> tuple[str, ...]:
    """What of :func:`needed` ``permissions`` lack; a locked thread lacks :data:`ARCHIVED` too
    (even with Manage Threads the bot does not reopen a thread a moderator locked)."""
    out = tuple(name for name in needed(thread=thread) if not getattr(permissions, name))
    return (*out, ARCHIVED) if locked else out


def is_thread(channel: Any) -> bool:
    return getattr(channel, "type", None) in THREAD_TYPES


def is_locked(channel: Any) -> bool:
    """A thread that is archived and locked: posting there fails until a moderator reopens it.
    (An archived thread that is not locked opens again by itself when the bot posts.)"""
    return bool(getattr(channel, "archived", False) and getattr(channel, "locked", False))


def of_interaction(interaction: discord.Interaction[Any]) -> tuple[str, ...]:
    """What the bot lacks in the interaction's channel, from what Discord sent with it."""
    channel = interaction.channel
    return missing(
        interaction.app_permissions, thread=is_thread(channel), locked=is_locked(channel)
    )


def cached(client: discord.Client, channel_id: int) -> tuple[str, ...] | None:
    """What the bot lacks in a channel by the gateway's cache; ``None``: the cache does not
    know the channel (another shard's, or not loaded yet), so only a post can tell."""
    channel = client.get_channel(channel_id)
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return None
    me = channel.guild.me
    if me is None:
        return None
    try:
        permissions = channel.permissions_for(me)
    except discord.ClientException:  # a thread whose parent channel is not cached
        return None
    return missing(permissions, thread=is_thread(channel), locked=is_locked(channel))


def refused(exc: discord.HTTPException, *, thread: bool) -> tuple[str, ...] | None:
    """What a refused post says the bot lacks: a locked thread (50083), or any of the table's
    permissions (403: Discord does not say which); ``None``: not a refusal of that kind."""
    if exc.code == THREAD_ARCHIVED_CODE:
        return (ARCHIVED,)
    if isinstance(exc, discord.Forbidden):
        return needed(thread=thread)
    return None


def named(reasons: tuple[str, ...], lang: str) -> str:
    """The permissions as Discord's settings name them, in ``lang``: "Send Messages, Attach
    Files" (a locked thread is not a permission and is told apart)."""
    return ", ".join(t(f"discord.permission.{name}", lang) for name in reasons if name != ARCHIVED)
