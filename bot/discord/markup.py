"""A service :class:`~bot.service.text.Text` as Discord markdown.

Names are escaped here, and only here: no markdown, no control or bidi characters, and no way
to form a mention (``@everyone``, ``<@123>``) out of a display name. Mentions become ``<@id>``
(they notify only the users a message's ``allowed_mentions`` lists), times Discord's
timestamps, which every reader's client shows in their own time zone and language.
"""

from __future__ import annotations

import re

from bot.service.text import Channel, Mention, Name, Part, Strong, Text

_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]()-])")


def safe_name(name: str) -> str:
    """A name (already plain: ``bot.service.narrate.plain_name``) safe inside a message."""
    # Angle brackets first: escaped, ">" would show its backslash ("\›").
    text = name.replace("<", "‹").replace(">", "›")
    return _MARKDOWN.sub(r"\\\1", text).replace("@", "@\u200b")


def part(item: Part) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, Name):
        return safe_name(item.text)
    if isinstance(item, Mention):
        return f"<@{item.user_id}>"
    if isinstance(item, Strong):
        return f"**{item.text}**"
    if isinstance(item, Channel):
        return f"<#{item.channel_id}>"  # a link to the thread, in the reader's client
    return f"<t:{item.at}:{item.style}>"


def markdown(text: Text) -> str:
    return "".join(part(p) for p in text.parts)
