"""How a service :class:`Message` becomes Discord messages: the head as content, the narration
in embeds, what does not fit in further messages (nothing is cut), the buttons and selects in
rows within Discord's limits, the picture as a file, and only the listed users mentionable."""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord.items import GameItem
from bot.discord.markup import markdown
from bot.service.replies import Button, Message, Select
from bot.service.text import Text

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
MAX_DESCRIPTION = 4096
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


@dataclass
class Piece:
    """One Discord message of a laid-out service message: its content and embed descriptions."""

    content: str = ""
    embeds: list[str] = field(default_factory=list)


def _pack(lines: list[str], limit: int) -> list[str]:
    """Lines joined into chunks of at most ``limit`` characters, split only between lines (a
    longer line is split where it must, never inside a markdown escape)."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        while len(line) > limit:
            cut = limit
            while cut > 1 and line[cut - 1] == "\\":
                cut -= 1  # keep "\\*" together: a lone backslash would escape the next chunk
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:cut])
            line = line[cut:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks


_MENTION = re.compile(r"<@\d+>")  # a name can never form one: markup.safe_name


def _called(line: str) -> str:
    """A line's beginning up to its last mention ("⏳ <@42>: …" → "⏳ <@42>"), or nothing."""
    found = list(_MENTION.finditer(line))
    return line[: found[-1].end()] if found else ""


def _split_head(head: list[str]) -> tuple[list[str], list[str]]:
    """The head's lines as (content, overflow). When they cannot all fit the 2,000 characters of
    a message's content, the last lines open the narration instead, and the content keeps the
    beginning of each that calls someone, up to its mention: a mention inside an embed notifies
    nobody, so the ping must stay in the content."""
    if len("\n".join(head)) <= MAX_CONTENT:
        return head, []
    for kept in range(len(head) - 1, -1, -1):
        calls = [c for c in map(_called, head[kept:]) if c]
        content = [*head[:kept], *calls]
        if len("\n".join(content)) <= MAX_CONTENT:
            return content, head[kept:]
    # No line fits beside the mentions of all (no game's head comes near): the mentions alone.
    return [" ".join(m.group() for line in head for m in _MENTION.finditer(line))], head


def layout(message: Message) -> list[Piece]:
    """A message as Discord messages, nothing cut: the head as the first one's content (what
    cannot fit opens the narration instead, its mentions kept in the content: see
    :func:`_split_head`), the narration in embeds of at most 4,096 characters, ten and 6,000
    characters a message, the rest in further messages."""
    head = markdown(message.text).split("\n") if message.text else []
    content_lines, overflow = _split_head(head)
    told = markdown(message.narration).split("\n") if message.narration else []
    chunks = _pack(overflow + told, MAX_DESCRIPTION)
    pieces = [Piece("\n".join(content_lines))]
    for chunk in chunks:
        last = pieces[-1]
        used = sum(len(e) for e in last.embeds)
        if len(last.embeds) >= MAX_EMBEDS or used + len(chunk) > MAX_EMBED_TOTAL:
            pieces.append(Piece())
        pieces[-1].embeds.append(chunk)
    if len(pieces) > 1:
        log.info("a long message went out as %d messages", len(pieces))
    return pieces


def content(text: Text) -> str:
    """A head's words as Discord markdown (its first message's content: see :func:`layout`)."""
    return layout(Message(text))[0].content


def mentions(message: Message) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(user_id) for user_id in message.mentions],
        replied_user=False,
    )


def view(message: Message) -> discord.ui.View | None:
    """Buttons and selects as persistent dynamic items (they survive a restart because their
    ``custom_id`` carries everything). Selects take a row each; buttons fill the rest, five a row."""
    if not message.buttons and not message.selects:
        return None
    out = discord.ui.View(timeout=None)
    row = 0
    for select in message.selects[:MAX_ROWS]:
        out.add_item(GameItem(_select(select), row=row))
        row += 1
    buttons = list(message.buttons)
    room = (MAX_ROWS - row) * MAX_BUTTONS_PER_ROW
    if len(buttons) > room:
        log.warning("dropping %d buttons over Discord's limit", len(buttons) - room)
        buttons = buttons[:room]
    for index, button in enumerate(buttons):
        out.add_item(GameItem(_button(button), row=row + index // MAX_BUTTONS_PER_ROW))
    return out


def _button(button: Button) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=button.label[:80],
        custom_id=button.custom_id,
        style=_STYLES.get(button.style, discord.ButtonStyle.secondary),
    )


def _select(select: Select) -> discord.ui.Select[Any]:
    details = select.descriptions
    options = [
        discord.SelectOption(
            label=label[:100],
            value=value[:100],
            description=(details[i][:100] or None) if i < len(details) else None,
        )
        for i, (value, label) in enumerate(select.options[:MAX_SELECT_OPTIONS])
    ]
    count = len(options)
    return discord.ui.Select(
        custom_id=select.custom_id,
        placeholder=select.placeholder[:150],
        options=options,
        min_values=max(0, min(select.min_values, count)),
        max_values=max(1, min(select.max_values, count)),
    )


def attachment(message: Message) -> discord.File | None:
    if message.image is None:
        return None
    return discord.File(io.BytesIO(message.image.data), filename=message.image.filename)


def message_kwargs(message: Message, piece: Piece, *, first: bool = True) -> dict[str, Any]:
    """Arguments shared by every kind of send: a piece's words, and on the first piece of a
    message its mentions and buttons (the pieces after it only carry narration)."""
    out: dict[str, Any] = {
        "content": piece.content or None,
        "allowed_mentions": mentions(message) if first else discord.AllowedMentions.none(),
    }
    if piece.embeds:
        out["embeds"] = [discord.Embed(description=e) for e in piece.embeds]
    items = view(message) if first else None
    if items is not None:
        out["view"] = items
    return out
