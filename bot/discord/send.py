"""The one place that sends to Discord: service replies become interaction responses, channel
messages and edits of earlier messages.

- A reply's ``private`` message answers the user who acted, ephemerally.
- ``public`` messages go to their channels as ordinary messages (text, one image, buttons), or,
  when the service says ``edit``, replace the words of the message it names (:class:`Outbox`:
  the lobby as players join, the phase message as players get ready, a live FUSE table round
  after round, its picture too), a few seconds late so that several changes make one edit.
- Only the users a message lists can be mentioned: never ``@everyone``, ``@here`` or roles, so
  user-written text (display names) cannot ping anyone.
- Nothing is cut. A message's head (who is awaited, the winner) is the content, first; its
  narration goes in embeds (4,096 characters each, 6,000 a message); what does not fit goes in
  a further message (:func:`layout`).
- A channel where the bot may not post gets no request at all while that lasts: its table is
  paused (``Service.pause``), the host is told once by direct message, and the table is posted
  again when the bot can post there (:class:`Outbox`, :mod:`bot.discord.perms`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import discord

from bot.discord import perms
from bot.discord.layout import Piece, attachment, layout, message_kwargs, view
from bot.service.replies import Message, Outgoing, Reply, Slot
from bot.service.text import Text
from i18n import language_for, t

UNKNOWN_MESSAGE = 10008  # Discord's error code for a message that is not there (deleted)
# What the user reads when something failed: before anything was saved ("try again"), and
# after their command was saved, when only its table post has not gone out yet.
INTERNAL = "discord.error.internal"
SAVED = "discord.saved.follows"

log = logging.getLogger(__name__)

# Readiness and lobby edits wait this long for more of their kind: five players who submit
# within two seconds make one edit, not five.
EDIT_DELAY = 2.0


class PostReporter(Protocol):
    """What the outbox tells the service: which message a slot's post became, which thread
    a game moved to, that a channel's table must wait (or may go on), and that a slot's
    message is lost (the service gives it again)."""

    async def posted(self, outgoing: Outgoing, message_id: int) -> None: ...
    async def moved(self, game_id: int, channel_id: int, thread_id: int) -> None: ...
    async def pause(self, channel_id: int, missing: tuple[str, ...] = ()) -> int | None: ...
    async def resume(self, channel_id: int) -> tuple[int | None, list[Outgoing]]: ...
    async def table_again(self, game_id: int, role: str) -> list[Outgoing]: ...


@dataclass(frozen=True)
class Blocked:
    """A channel the bot may not post in: what it lacks there, and whether the gateway's cache
    showed it (then the cache also shows when it is fixed, and the table comes back by itself)."""

    missing: tuple[str, ...]
    foreseen: bool
    at: float = field(default_factory=time.monotonic)


class Outbox:
    """A bot's posts and edits. It remembers which message each slot (a game's lobby, its
    phase message) became, tells the service (so an edit finds it after a restart), and
    gathers edits: an edit waits ``delay`` seconds, and a later edit of the same slot within
    that time replaces it, so several submissions make one edit. A new phase post of a game
    drops its earlier phase's waiting edit: that message is history."""

    def __init__(
        self, client: discord.Client, service: PostReporter | None, delay: float = EDIT_DELAY
    ) -> None:
        self.client = client
        self.service = service
        self.delay = delay
        self.known: dict[Slot, tuple[int, int]] = {}  # slot → (channel id, message id)
        self.waiting: dict[Slot, Outgoing] = {}
        self.timers: dict[Slot, asyncio.Task[None]] = {}
        self.no_threads: set[int] = set()  # channels told that games are played there
        # Channels that get no request while the bot may not post there (their tables wait).
        self.blocked: dict[int, Blocked] = {}
        # Channels whose host heard of the pause and not yet of its end: a table refused again
        # right after it came back does not tell them twice.
        self.told: set[int] = set()

    @property
    def busy(self) -> bool:
        return bool(self.timers)

    async def deliver(self, outgoing: Outgoing, since: float | None = None) -> str | None:
        """Post or (later) edit; the catalogue key of what to tell the user if Discord refused.
        ``since``: when the service planned this post (a deadline's; ``time.monotonic``). The
        service plans none for a paused table, so a block older than that is out of date:
        another process resumed the table."""
        if outgoing.edit and outgoing.slot is not None:
            self._later(outgoing.slot, outgoing)
            return None
        slot = outgoing.slot
        if slot is not None and slot.role == "phase":
            for old in [s for s in self.waiting if s.game_id == slot.game_id and s.role == "phase"]:
                self._drop(old)
        if outgoing.archive:
            await self._archive(outgoing.channel_id)
            return None
        blocked = self.blocked.get(outgoing.channel_id)
        if blocked is not None and since is not None and blocked.at < since:
            log.info("channel %s: its table went on elsewhere; posting again", outgoing.channel_id)
            del self.blocked[outgoing.channel_id]
        if not await self._may_post(outgoing.channel_id):
            return "discord.error.cannot_post"
        problem, message_id = await self._post(outgoing)
        if slot is not None and message_id is not None:
            self.known[slot] = (outgoing.channel_id, message_id)
            if self.service is not None:
                await self.service.posted(outgoing, message_id)
            if outgoing.thread is not None:
                await self._open_thread(outgoing, slot, message_id)
        return problem

    # ------------------------------------------------------------------ paused channels

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

    async def _post(self, outgoing: Outgoing) -> tuple[str | None, int | None]:
        """:func:`post`, and a refusal that says the bot may not post there (403, a locked
        thread) blocks the channel: no further request goes there until it works again."""
        ids: list[int] = []
        try:
            await _send(self.client, outgoing, ids)
        except discord.HTTPException as exc:
            thread = perms.is_thread(self.client.get_channel(outgoing.channel_id))
            lacking = perms.refused(exc, thread=thread)
            if lacking is not None:
                log.warning(
                    "channel %s refused a post (%s); its table waits", outgoing.channel_id, exc
                )
                # A reopened thread comes back into the cache (discord.py drops archived ones).
                foreseen = lacking == (perms.ARCHIVED,)
                await self.block(outgoing.channel_id, lacking, foreseen=foreseen)
                return "discord.error.cannot_post", ids[0] if ids else None
            return _problem(outgoing, exc), ids[0] if ids else None
        return None, ids[0]

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
        told in their answer)."""
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
        await self._tell(host, t(key, lang, channel=where, missing=perms.named(missing, lang)))

    async def resume(self, channel_id: int) -> tuple[int | None, list[Outgoing]]:
        """Posting works in this channel again: unblock it and resume its table. Returns the
        host (``None``: no table was paused) and the table to post, once."""
        self.blocked.pop(channel_id, None)
        if self.service is None:
            return None, []
        return await self.service.resume(channel_id)

    async def resumed(self, channel_id: int, host: int | None, lang: str | None = None) -> None:
        """The table went out again: its host hears that the game goes on (unless the post was
        refused at once, which blocked the channel again)."""
        if channel_id in self.blocked:
            return
        self.told.discard(channel_id)
        if host is not None:
            lang = lang or self._lang(channel_id)
            await self._tell(host, t("discord.pause.resumed", lang, channel=f"<#{channel_id}>"))

    async def probe(self) -> None:
        """Bring back the tables of blocked channels whose missing permissions the cache now
        shows granted (the gateway tells of permission changes): no request until then."""
        for channel_id, blocked in list(self.blocked.items()):
            if not blocked.foreseen or perms.cached(self.client, channel_id) != ():
                continue
            log.info("channel %s: the bot may post again; its table goes on", channel_id)
            host, table = await self.resume(channel_id)
            for outgoing in table:
                await self.deliver(outgoing)
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

    async def _tell(self, user_id: int, text: str) -> None:
        """A direct message; if the user accepts none, nothing more is tried."""
        try:
            direct = await self.client.create_dm(discord.Object(user_id))
            await direct.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("could not tell user %s by direct message: %s", user_id, exc)

    # ------------------------------------------------------------------ threads

    async def _open_thread(self, outgoing: Outgoing, slot: Slot, message_id: int) -> None:
        """A public thread from the lobby message, where the game is played. Without the
        permissions the game stays in the channel, which is told so once."""
        assert outgoing.thread is not None
        channel = self.client.get_channel(outgoing.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return  # a thread, a DM or an unknown channel: the game is played where it is
        try:
            thread = await channel.get_partial_message(message_id).create_thread(
                name=outgoing.thread.name, auto_archive_duration=1440
            )
        except (discord.Forbidden, discord.NotFound) as exc:
            log.info("no thread in channel %s (%s): the game is played there", channel.id, exc)
            if outgoing.channel_id not in self.no_threads:
                self.no_threads.add(outgoing.channel_id)
                await post(
                    self.client, Outgoing(outgoing.channel_id, Message(outgoing.thread.refused))
                )
            return
        except discord.HTTPException:
            log.exception("could not open a thread in channel %s", channel.id)
            return
        if self.service is not None:
            await self.service.moved(slot.game_id, outgoing.channel_id, thread.id)

    async def _archive(self, thread_id: int) -> None:
        """Archive a finished game's thread (Manage Threads, or the bot opened it)."""
        thread = self.client.get_channel(thread_id)
        try:
            if not isinstance(thread, discord.Thread):
                fetched = await self.client.fetch_channel(thread_id)
                if not isinstance(fetched, discord.Thread):
                    return
                thread = fetched
            await thread.edit(archived=True)
        except discord.HTTPException as exc:
            log.warning("could not archive thread %s: %s", thread_id, exc)

    def _later(self, slot: Slot, outgoing: Outgoing) -> None:
        self.waiting[slot] = _keeping_picture(self.waiting.get(slot), outgoing)
        if slot not in self.timers:
            self.timers[slot] = asyncio.create_task(self._edit_after(slot))

    def _drop(self, slot: Slot) -> None:
        self.waiting.pop(slot, None)
        timer = self.timers.pop(slot, None)
        if timer is not None:
            timer.cancel()

    async def _edit_after(self, slot: Slot) -> None:
        timer = asyncio.current_task()
        try:
            while slot in self.waiting:  # one that came while the last edit was being sent
                await asyncio.sleep(self.delay)
                outgoing = self.waiting.pop(slot, None)
                if outgoing is not None:
                    await self.edit(outgoing)
        finally:
            # Busy until the edit is sent (a caller waiting for quiet must not see a gap).
            if self.timers.get(slot) is timer:
                del self.timers[slot]

    async def flush(self) -> None:
        """Send every waiting edit now (the bot is closing)."""
        for slot in list(self.timers):
            self.timers.pop(slot).cancel()
        for slot in list(self.waiting):
            await self.edit(self.waiting.pop(slot))

    def is_message(self, outgoing: Outgoing, message_id: int | None) -> bool:
        """Whether ``outgoing`` edits the message ``message_id``."""
        if not outgoing.edit or outgoing.slot is None or message_id is None:
            return False
        known = self.known.get(outgoing.slot)
        return (known[1] if known else outgoing.edit_of) == message_id

    async def edit(
        self, outgoing: Outgoing, interaction: discord.Interaction[Any] | None = None
    ) -> None:
        """Replace the words (and buttons, if it has any) of the slot's message; as the
        response to ``interaction`` when that was a click on this message."""
        slot = outgoing.slot
        assert slot is not None
        if interaction is not None:
            outgoing = _keeping_picture(self.waiting.get(slot), outgoing)
            self._drop(slot)  # a waiting edit is older than this one
        where = self.known.get(slot)
        if where is None and outgoing.edit_of is not None:
            where = (outgoing.channel_id, outgoing.edit_of)
        if where is None:
            # Its id was never recorded (the bot stopped between the post and the record):
            # the table goes on in a new message rather than stall unseen.
            log.warning("no message to edit for %s; posting it anew", slot)
            await self._post_anew(outgoing)
            return
        message = outgoing.message
        piece = layout(message)[0]  # an edit's words are a head: one message by construction
        kwargs: dict[str, Any] = {
            "content": piece.content,
            "allowed_mentions": discord.AllowedMentions.none(),  # an edit pings nobody again
        }
        if piece.embeds:
            kwargs["embeds"] = [discord.Embed(description=e) for e in piece.embeds]
        if message.buttons or message.selects:
            kwargs["view"] = view(message)
        elif slot.role == "lobby" or message.narration:
            # A started or cancelled lobby has no buttons left; an edit with narration is the
            # whole message (a live FUSE table), and nobody present has a button on it now.
            kwargs["view"] = None
        file = attachment(message)
        if file is not None:
            kwargs["attachments"] = [file]  # a new picture of the table replaces the old one
        channel = self.client.get_partial_messageable(where[0])
        try:
            if interaction is not None and interaction.response.is_done():
                await interaction.edit_original_response(**kwargs)  # a deferred click's message
                return
            if interaction is not None:
                await interaction.response.edit_message(**kwargs)
                return
            if not await self._may_post(where[0]):
                return  # the table waits; it is posted whole when it comes back
            await channel.get_partial_message(where[1]).edit(**kwargs)
        except discord.NotFound as exc:
            if interaction is not None or exc.code != UNKNOWN_MESSAGE:
                log.warning("could not edit message %s in channel %s: %s", where[1], where[0], exc)
                return
            # Someone deleted the table's message: it goes on in a new one (recorded as the
            # slot's, so the next edits find it).
            log.warning("message %s in channel %s is gone; posting it anew", where[1], where[0])
            self.known.pop(slot, None)
            await self._post_anew(outgoing)
        except discord.HTTPException as exc:
            log.warning("could not edit message %s in channel %s: %s", where[1], where[0], exc)
            if interaction is None and isinstance(exc, discord.Forbidden):
                thread = perms.is_thread(self.client.get_channel(where[0]))
                await self.block(where[0], perms.needed(thread=thread), foreseen=False)
            # An archived thread refuses edits (50083) but opens again at the next post, which
            # blocks the channel only if the thread is locked too.

    async def _post_anew(self, outgoing: Outgoing) -> None:
        """An edit whose message is unknown or gone: the service's message of that slot as it
        stands (the whole table, buttons and picture, not just the edit's words), posted anew
        and recorded as the slot's message."""
        slot = outgoing.slot
        if self.service is None or slot is None:
            return
        for fresh in await self.service.table_again(slot.game_id, slot.role):
            await self.deliver(fresh)


def _keeping_picture(earlier: Outgoing | None, later: Outgoing) -> Outgoing:
    """``later`` replaces the waiting edit ``earlier`` of the same message, but not its picture
    when it brings none (a live FUSE table: a claim right after the new round's picture)."""
    if earlier is None or earlier.message.image is None or later.message.image is not None:
        return later
    return replace(later, message=replace(later.message, image=earlier.message.image))


async def answer(
    interaction: discord.Interaction[Any],
    reply: Reply,
    lang: str,
    outbox: Outbox | None = None,
    *,
    committed: bool = False,
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
    done: a waiting table paused or brought back (its host told by direct message), the
    public messages, posted or edited by ``outbox``, and a note when one could not go out.
    ``committed``: the command changed a game, so a post that did not go out is told as "your
    move is saved; the table follows", never as "try again".

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
        await _after_answer(interaction, permitted, sender, note, lang, committed=committed)


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
    if reply.ack_by_edit and same is not None and not thinking:
        # A click that only made its player ready: the phase message they clicked shows it,
        # in the interaction's answer.
        public.remove(same)
        assert outbox is not None
        await outbox.edit(same, interaction)
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
        if here is not None:
            public.remove(here)
            await _respond(interaction, here.message, ephemeral=False)
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
    note: str | None,
    lang: str,
    *,
    committed: bool,
) -> None:
    """What follows the answer, never before it: a table paused (its host told by direct
    message) or brought back, the public messages, the notes the user still needs, and the
    host told that a table goes on. (The one place where an answer's direct messages go out.)"""
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
            table = []  # this command's own phase message is the table, with what just happened
        for outgoing in table:
            await sender.deliver(outgoing)
    # A channel that refuses a post gets a follow-up note rather than an error in place of
    # the answer (the move itself is saved either way).
    was_blocked = channel in sender.blocked
    problems = [key for o in permitted.public if (key := await sender.deliver(o))]
    if note is None and not was_blocked and channel in sender.blocked:
        note = sender.note(sender.blocked[channel].missing, lang)  # refused though permitted
    if committed:
        # Saved, and only its post failed: retyping it would be refused, or played twice.
        problems = [SAVED if key == INTERNAL else key for key in problems]
    notes = [note] if note else []
    notes += [
        t(k, lang) for k in dict.fromkeys(problems) if not (note and k.endswith("cannot_post"))
    ]
    for text in notes:
        try:
            await interaction.followup.send(text, ephemeral=True)
        except discord.HTTPException as exc:  # the table went out; only the note is lost
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
    own = any(_is_phase_post(o) for o in public if o.channel_id == channel)
    if not own:  # the table shows who is ready already: edits of an older phase message are moot
        public = [o for o in public if not (o.channel_id == channel and o.edit)]
    return Permitted(public, resume=True, own_table=own, lang=table_lang)


def _is_phase_post(outgoing: Outgoing) -> bool:
    slot = outgoing.slot
    return slot is not None and slot.role == "phase" and not outgoing.edit


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


async def _edit(interaction: discord.Interaction[Any], message: Message) -> list[Piece]:
    first, *rest = layout(message)
    kwargs = message_kwargs(message, first)
    kwargs.setdefault("embeds", [])
    file = attachment(message)
    await interaction.edit_original_response(attachments=[file] if file else [], **kwargs)
    return rest


async def post(client: discord.Client, outgoing: Outgoing) -> tuple[str | None, int | None]:
    """Send a public message to its channel (two or more when its narration is long). Returns
    the catalogue key of what to tell the user when Discord refused (``None``: posted; the game
    itself is already saved) and the id of the (first) message. For a game's messages use
    :meth:`Outbox.deliver`, which also stops posting where the bot may not."""
    ids: list[int] = []
    try:
        await _send(client, outgoing, ids)
    except discord.HTTPException as exc:
        return _problem(outgoing, exc), ids[0] if ids else None
    return None, ids[0]


async def _send(client: discord.Client, outgoing: Outgoing, ids: list[int]) -> None:
    """Post each piece of ``outgoing``; ``ids`` receives the ids of those that went out."""
    channel = client.get_partial_messageable(outgoing.channel_id)
    for index, piece in enumerate(layout(outgoing.message)):
        kwargs = message_kwargs(outgoing.message, piece, first=index == 0)
        file = attachment(outgoing.message) if index == 0 else None
        if file is not None:
            kwargs["file"] = file
        sent = await channel.send(**kwargs)
        ids.append(sent.id)


def _problem(outgoing: Outgoing, exc: discord.HTTPException) -> str:
    """The catalogue key of what to tell the user about a refused post."""
    if isinstance(exc, discord.Forbidden | discord.NotFound):
        log.warning("cannot post in channel %s: %s", outgoing.channel_id, exc)
        return "discord.error.cannot_post"
    log.exception("Discord refused a message for channel %s", outgoing.channel_id)
    return INTERNAL


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
