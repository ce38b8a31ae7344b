"""Discord objects as the gateway and REST API send them (only the fields discord.py 2.7 reads).

discord.py drops a gateway event silently when a field it reads is missing, so these follow
Discord's documented shapes closely.
"""

from __future__ import annotations

import itertools
from typing import Any

_ids = itertools.count(1_200_000_000_000_000_000)

# Permissions a plain member has in a channel, and Manage Channels on top for moderators.
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_CHANNELS = 1 << 4
MEMBER_PERMISSIONS = (
    VIEW_CHANNEL | SEND_MESSAGES | (1 << 15) | (1 << 16) | (1 << 31)
)  # + attach, history, app commands
BOT_PERMISSIONS = MEMBER_PERMISSIONS | (1 << 14)  # + embed links (threads: THREAD_PERMISSIONS)
TIMESTAMP = "2026-01-01T00:00:00.000000+00:00"


def snowflake() -> int:
    return next(_ids)


DISCORD_EPOCH_MS = 1_420_070_400_000


def time_snowflake(seconds: float) -> int:
    """A unique id whose timestamp is ``seconds`` (Unix time), as Discord makes them: discord.py
    reads an interaction's ``created_at`` from it."""
    return ((int(seconds * 1000) - DISCORD_EPOCH_MS) << 22) | (next(_ids) & 0x3FFFFF)


def user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name.lower(),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
    }


def member(user_obj: dict[str, Any], permissions: int, *, with_user: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "roles": [],
        "joined_at": TIMESTAMP,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "nick": None,
        "avatar": None,
        "permissions": str(permissions),
    }
    if with_user:
        out["user"] = user_obj
    return out


def text_channel(channel_id: int, guild_id: int, name: str) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
    }


def role(role_id: int, name: str, permissions: int) -> dict[str, Any]:
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "hoist": False,
        "position": 1,
        "permissions": str(permissions),
        "managed": True,
        "mentionable": False,
        "flags": 0,
    }


ATTACH_FILES = 1 << 15
EMBED_LINKS = 1 << 14
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
MANAGE_THREADS = 1 << 34
THREAD_PERMISSIONS = CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS | MANAGE_THREADS


def thread_channel(
    thread_id: int, guild_id: int, parent_id: int, name: str, *, archived: bool = False
) -> dict[str, Any]:
    """A public thread (type 11) as Discord sends it (THREAD_CREATE, the threads routes)."""
    return {
        "id": str(thread_id),
        "type": 11,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": "900000000000000001",
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "flags": 0,
        "thread_metadata": {
            "archived": archived,
            "auto_archive_duration": 1440,
            "archive_timestamp": TIMESTAMP,
            "locked": False,
            "invitable": True,
            "create_timestamp": TIMESTAMP,
        },
    }


def guild(
    guild_id: int, name: str, channels: list[dict[str, Any]], locale: str, bot_user: dict[str, Any]
) -> dict[str, Any]:
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": "1",
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [
            {
                "id": str(guild_id),
                "name": "@everyone",
                "color": 0,
                "hoist": False,
                "position": 0,
                "permissions": str(MEMBER_PERMISSIONS),
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        ],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": locale,
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "unavailable": False,
        "member_count": 3,
        "large": False,
        "joined_at": TIMESTAMP,
        "channels": channels,
        "threads": [],
        "members": [member(bot_user, BOT_PERMISSIONS)],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def message(
    message_id: int,
    channel_id: int,
    author: dict[str, Any],
    payload: dict[str, Any],
    attachments: list[dict[str, Any]],
    *,
    flags: int = 0,
    guild_id: int | None = None,
) -> dict[str, Any]:
    out = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": author,
        "content": payload.get("content") or "",
        "timestamp": TIMESTAMP,
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": payload.get("embeds") or [],
        "pinned": False,
        "type": 0,
        "flags": flags | int(payload.get("flags") or 0),
        "components": payload.get("components") or [],
    }
    if guild_id is not None:
        out["guild_id"] = str(guild_id)
    return out


def attachment(filename: str, data: bytes, content_type: str | None) -> dict[str, Any]:
    attachment_id = snowflake()
    return {
        "id": str(attachment_id),
        "filename": filename,
        "size": len(data),
        "url": f"https://cdn.invalid/attachments/{attachment_id}/{filename}",
        "proxy_url": f"https://media.invalid/attachments/{attachment_id}/{filename}",
        "content_type": content_type or "application/octet-stream",
    }


def dm_channel(channel_id: int, recipient: dict[str, Any]) -> dict[str, Any]:
    """A direct-message channel (type 1) with one user, as ``POST /users/@me/channels`` answers."""
    return {
        "id": str(channel_id),
        "type": 1,
        "last_message_id": None,
        "recipients": [recipient],
    }
