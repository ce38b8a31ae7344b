"""The answer to an interaction (a slash command, a click, a pick in a menu): the service's
reply becomes the interaction's response first, then what follows it is handed to the channels'
senders (:class:`bot.discord.send.Outbox`). Where the bot lacks a permission the table needs,
the table waits and the user hears why (see ``docs/discord.md``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.discord import perms
from bot.discord.edits import drawn, is_phase_post
from bot.discord.layout import Piece, attachment, layout, message_kwargs
from bot.discord.send import Outbox
from bot.service.replies import Message, Outgoing, Reply
from bot.service.text import Text
from i18n import language_for, t

log = logging.getLogger(__name__)


async def answer(
    interaction: discord.Interaction[Any],
    reply: Reply,
    lang: str,
    outbox: Outbox | None = None,
) -> None:
    """Deliver ``reply`` for ``interaction``, whether it was already deferred or not.

    Not deferred: the private message is the (ephemeral) response; with no private message, the
    first public message for this channel that nothing will edit later is the response itself.
    Deferred with "thinking…" (a slash command): the private message replaces the thinking
    message. Deferred without a message (a click): the private message is a follow-up.
    A click that only made its player ready is answered by the edit of the message they
    clicked, when that message is the phase message (no "Recorded" of its own).

    The answer goes first: no request stands between the interaction and it. What follows it
    (:func:`_after_answer`) is sent whether or not the answer got through, since the work is
    done: a waiting table paused or brought back (its host told by direct message), and the
    public messages, all handed to ``outbox``'s per-channel senders, which retry until Discord
    takes them: a post that has not gone out yet is owed, never lost (so the player is never
    told to try again once their move is saved: ``bot.discord.client`` says "saved; the table
    follows" if the answer itself fails).

    Where the bot lacks a permission the table needs (``app_permissions``, sent with the
    interaction) nothing is posted: the table waits and the user hears why. Where it has them
    again, a waiting table comes back first.
    """
    sender = outbox or Outbox(interaction.client, None)
    permitted = _permitted(interaction, reply, lang, sender)
    note = permitted.note
    private = reply.private
    if private is not None and note is not None:  # in the same answer: no call of its own
        private, note = replace(private, text=Text.of(private.text, "\n\n", note)), None
    try:
        note = await _reply_first(interaction, reply, private, note, permitted.public, lang, outbox)
    finally:
        await _after_answer(interaction, permitted, sender, reply, note)


async def _reply_first(
    interaction: discord.Interaction[Any],
    reply: Reply,
    private: Message | None,
    note: str | None,
    public: list[Outgoing],
    lang: str,
    outbox: Outbox | None,
) -> str | None:
    """The interaction's answer (and the rest of a long private one); the note it did not say.
    Takes out of ``public`` the message that became the answer."""
    extra: list[Piece] = []
    clicked = interaction.message.id if interaction.message is not None else None
    same = next((o for o in public if outbox is not None and outbox.is_message(o, clicked)), None)
    thinking = interaction.response.type is discord.InteractionResponseType.deferred_channel_message
    own = interaction.message is not None and interaction.message.flags.ephemeral
    if reply.in_place and own and private is not None and not thinking:
        # A pick in the player's own menu (a move chosen step by step): its message becomes
        # the next step, or the move's receipt, instead of a new message each time.
        extra = await _edit(interaction, private, clear=True)
    elif same is not None and not thinking:
        # A click on the table message whose change is that message's edit: the edit is the
        # interaction's answer (an interaction call, which Discord's global rate limit does not
        # count); the player's private lines follow it, unless they only said "Recorded".
        public.remove(same)
        assert outbox is not None
        try:
            await outbox.edit(same, interaction)
        finally:
            if private is not None and not reply.ack_by_edit:
                extra = await _respond(interaction, private, ephemeral=True)
    elif thinking:
        if private is None and note is not None:
            private, note = Message(Text.of(note)), None
        extra = await _edit(interaction, private or Message(Text.of(t("discord.done", lang))))
    elif private is not None:
        extra = await _respond(interaction, private, ephemeral=True)
    else:
        here = next(
            (
                o
                for o in public
                if o.channel_id == interaction.channel_id and o.slot is None and not o.edit
            ),
            None,
        )
        if here is not None and drawn(here).image_later is not None:
            here = None  # its picture is still being drawn: the channel's sender adds it
        if here is not None:
            public.remove(here)
            await _respond(interaction, drawn(here).message, ephemeral=False)
        else:
            said = Message(Text.of(note or t("discord.done", lang)))
            await _respond(interaction, said, ephemeral=True)
            note = None
    for piece in extra:  # the rest of a long private answer (a long history)
        await interaction.followup.send(
            ephemeral=True,
            **message_kwargs(private or Message(Text()), piece, first=False),
        )
    return note


async def _after_answer(
    interaction: discord.Interaction[Any],
    permitted: Permitted,
    sender: Outbox,
    reply: Reply,
    note: str | None,
) -> None:
    """What follows the answer, never before it: a table paused (its host told by direct
    message) or brought back, the public messages, the note the user still needs, and the
    host told that a table goes on. Everything sent to a channel or a host is handed to the
    channels' senders (queued, not awaited: the move is saved, and its posts are owed until
    Discord takes them), so nothing here waits on Discord but the note."""
    channel = interaction.channel_id
    host: int | None = None
    if channel is not None and permitted.block:
        await sender.block(
            channel,
            permitted.block,
            foreseen=permitted.foreseen,
            actor=interaction.user.id,
            lang=permitted.lang,
        )
    if channel is not None and permitted.resume:
        host, table = await sender.resume(channel)
        if permitted.own_table:
            for unneeded in table:
                sender.done(unneeded)
            table = []  # this command's own phase message is the table, with what just happened
        for outgoing in table:
            sender.enqueue(outgoing)
    for outgoing in permitted.public:
        sender.enqueue(outgoing)
    # The rest went out as the answer, or waits for a paused channel: owed no more.
    sender.finish(reply.public)
    if note:
        try:
            await interaction.followup.send(note, ephemeral=True)
        except discord.HTTPException as exc:  # the table goes out; only the note is lost
            log.warning("could not tell the user in channel %s: %s", channel, exc)
    if permitted.resume and channel is not None:
        await sender.resumed(channel, host, permitted.lang)


@dataclass
class Permitted:
    """What :func:`answer` may send, and what it must do once it has answered: the public
    messages, a note for the user when the table may not be posted in their channel, the
    permissions that pause its table there (``block``, none: nothing to pause), or whether its
    waiting table comes back (``resume``; ``own_table``: this command posts the table itself).
    """

    public: list[Outgoing]
    note: str | None = None
    block: tuple[str, ...] = ()
    foreseen: bool = False
    resume: bool = False
    own_table: bool = False
    lang: str = "en"


def _permitted(
    interaction: discord.Interaction[Any], reply: Reply, lang: str, sender: Outbox
) -> Permitted:
    """The reply's public messages the bot may send, and what to tell the user when it may
    not post the table in the interaction's channel (which then waits: no request goes there).
    A waiting table whose channel works again comes back after the answer, posted once, ahead
    of the rest. Decided from the interaction and the outbox alone, without a request."""
    public = list(reply.public)
    channel = interaction.channel_id
    if channel is None:
        return Permitted(public)
    table_lang = language_for(str(interaction.guild_locale)) if interaction.guild_locale else "en"
    waiting = channel in sender.blocked or reply.paused == channel
    lacking = perms.of_interaction(interaction)
    if lacking:
        if not waiting and not any(o.channel_id == channel for o in public):
            return Permitted(public)  # nothing to post here (/help, /game board): nothing to say
        here = [o for o in public if o.channel_id != channel]
        permitted = Permitted(here, sender.note(lacking, lang), lang=table_lang)
        if channel not in sender.blocked or reply.paused != channel:
            # (A lobby cannot pause: a game started in a blocked channel pauses now.)
            permitted.block = lacking
            permitted.foreseen = bool(perms.cached(interaction.client, channel))
        return permitted
    if not waiting:
        return Permitted(public)
    own = any(is_phase_post(o) for o in public if o.channel_id == channel)
    if not own:  # the table shows who is ready already: edits of an older phase message are moot
        public = [o for o in public if not (o.channel_id == channel and o.edit)]
    return Permitted(public, resume=True, own_table=own, lang=table_lang)


async def _respond(
    interaction: discord.Interaction[Any], message: Message, *, ephemeral: bool
) -> list[Piece]:
    """The first message of the answer: the interaction's response, or its first follow-up
    when it was deferred without a message (a click)."""
    first, *rest = layout(message)
    kwargs = message_kwargs(message, first)
    file = attachment(message)
    if file is not None:
        kwargs["file"] = file
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
    return rest


async def _edit(
    interaction: discord.Interaction[Any], message: Message, *, clear: bool = False
) -> list[Piece]:
    """Edit the interaction's original message (``clear``: the menus it had go, unless
    ``message`` brings its own)."""
    first, *rest = layout(message)
    kwargs = message_kwargs(message, first)
    kwargs.setdefault("embeds", [])
    if clear:
        kwargs.setdefault("view", None)
    file = attachment(message)
    await interaction.edit_original_response(attachments=[file] if file else [], **kwargs)
    return rest


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
