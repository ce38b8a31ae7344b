"""The one place that sends to Discord: service replies become interaction responses and
channel messages.

- A reply's ``private`` message answers the user who acted, ephemerally.
- ``public`` messages go to their channels as ordinary messages (text, one image, buttons).
- Only the users a message lists can be mentioned: never ``@everyone``, ``@here`` or roles, so
  user-written text (display names) cannot ping anyone.
- Discord's limits are enforced here, so a long text is cut rather than refused.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.discord.items import GameItem
from bot.discord.markup import markdown
from bot.service.replies import Button, Message, Outgoing, Reply, Select
from bot.service.text import Text
from i18n import t

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def content(text: Text) -> str:
    """A message's words as Discord markdown, within Discord's 2,000 characters: a longer one
    is cut at a line break, and the cut marked."""
    written = markdown(text)
    if len(written) <= MAX_CONTENT:
        return written
    log.warning("message cut to %d characters (was %d)", MAX_CONTENT, len(written))
    cut = written.rfind("\n", 0, MAX_CONTENT - 2)
    return written[: cut if cut > 0 else MAX_CONTENT - 2] + "\n…"


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
    options = [
        discord.SelectOption(label=label[:100], value=value[:100])
        for value, label in select.options[:MAX_SELECT_OPTIONS]
    ]
    count = len(options)
    return discord.ui.Select(
        custom_id=select.custom_id,
        placeholder=select.placeholder[:150],
        options=options,
        min_values=max(0, min(select.min_values, count)),
        max_values=max(1, min(select.max_values, count)),
    )


def _file(message: Message) -> discord.File | None:
    if message.image is None:
        return None
    return discord.File(io.BytesIO(message.image.data), filename=message.image.filename)


def _kwargs(message: Message) -> dict[str, Any]:
    """Arguments shared by every kind of send."""
    out: dict[str, Any] = {
        "content": content(message.text),
        "allowed_mentions": mentions(message),
    }
    items = view(message)
    if items is not None:
        out["view"] = items
    return out


async def answer(interaction: discord.Interaction[Any], reply: Reply, lang: str) -> None:
    """Deliver ``reply`` for ``interaction``, whether it was already deferred or not.

    Not deferred: the private message is the (ephemeral) response; with no private message, the
    first public message for this channel is the response itself. Deferred (an ephemeral
    "thinking…"): the private message replaces the thinking message. Every other public message
    is posted to its channel.
    """
    public = list(reply.public)
    private = reply.private
    if not interaction.response.is_done():
        if private is not None:
            await _respond(interaction, private, ephemeral=True)
        else:
            here = next((o for o in public if o.channel_id == interaction.channel_id), None)
            if here is not None:
                public.remove(here)
                await _respond(interaction, here.message, ephemeral=False)
            else:
                await interaction.response.send_message(t("discord.done", lang), ephemeral=True)
    else:
        await _edit(interaction, private or Message(Text.of(t("discord.done", lang))))
    # The user has their answer: a channel that refuses a post gets a follow-up note instead
    # of an error in place of the answer (the move itself is saved either way).
    problems = [key for o in public if (key := await post(interaction.client, o))]
    for key in dict.fromkeys(problems):
        await interaction.followup.send(t(key, lang), ephemeral=True)


async def _respond(
    interaction: discord.Interaction[Any], message: Message, *, ephemeral: bool
) -> None:
    kwargs = _kwargs(message)
    file = _file(message)
    if file is not None:
        kwargs["file"] = file
    await interaction.response.send_message(ephemeral=ephemeral, **kwargs)


async def _edit(interaction: discord.Interaction[Any], message: Message) -> None:
    kwargs = _kwargs(message)
    file = _file(message)
    await interaction.edit_original_response(attachments=[file] if file else [], **kwargs)


async def post(client: discord.Client, outgoing: Outgoing) -> str | None:
    """Send a public message to its channel. When Discord refuses, return the catalogue key of
    what to tell the user (``None``: posted); the game itself is already saved."""
    channel = client.get_partial_messageable(outgoing.channel_id)
    kwargs = _kwargs(outgoing.message)
    file = _file(outgoing.message)
    if file is not None:
        kwargs["file"] = file
    try:
        await channel.send(**kwargs)
    except (discord.Forbidden, discord.NotFound) as exc:
        log.warning("cannot post in channel %s: %s", outgoing.channel_id, exc)
        return "discord.error.cannot_post"
    except discord.HTTPException:
        log.exception("Discord refused a message for channel %s", outgoing.channel_id)
        return "discord.error.internal"
    return None


async def failure(interaction: discord.Interaction[Any], key: str, lang: str) -> None:
    """Tell the user something failed, whatever state the interaction is in."""
    text = t(key, lang)
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
        elif interaction.response.type in (
            discord.InteractionResponseType.deferred_channel_message,
        ):
            await interaction.edit_original_response(content=text, attachments=[], view=None)
        else:
            await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not tell the user about a failure")
