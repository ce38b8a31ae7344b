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
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import discord

from bot.discord.items import GameItem
from bot.discord.markup import markdown
from bot.service.replies import Button, Message, Outgoing, Reply, Select, Slot
from bot.service.text import Text
from i18n import t

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
MAX_DESCRIPTION = 4096
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25
# Readiness and lobby edits wait this long for more of their kind: five players who submit
# within two seconds make one edit, not five.
EDIT_DELAY = 2.0

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


def layout(message: Message) -> list[Piece]:
    """A message as Discord messages, nothing cut: the head as the first one's content (lines
    that cannot fit, which no game's head reaches, open the narration instead), the narration
    in embeds of at most 4,096 characters, ten and 6,000 characters a message, the rest in
    further messages."""
    head = markdown(message.text).split("\n") if message.text else []
    content_lines: list[str] = []
    overflow: list[str] = []
    for line in head:
        candidate = "\n".join([*content_lines, line])
        if not overflow and len(candidate) <= MAX_CONTENT:
            content_lines.append(line)
        else:
            overflow.append(line)
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


def _kwargs(message: Message, piece: Piece, *, first: bool = True) -> dict[str, Any]:
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


class PostReporter(Protocol):
    """What the outbox tells the service: which message a slot's post became, and which thread
    a game moved to."""

    async def posted(self, outgoing: Outgoing, message_id: int) -> None: ...
    async def moved(self, game_id: int, channel_id: int, thread_id: int) -> None: ...


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

    @property
    def busy(self) -> bool:
        return bool(self.timers)

    async def deliver(self, outgoing: Outgoing) -> str | None:
        """Post or (later) edit; the catalogue key of what to tell the user if Discord refused."""
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
        problem, message_id = await post(self.client, outgoing)
        if slot is not None and message_id is not None:
            self.known[slot] = (outgoing.channel_id, message_id)
            if self.service is not None:
                await self.service.posted(outgoing, message_id)
            if outgoing.thread is not None:
                await self._open_thread(outgoing, slot, message_id)
        return problem

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
            log.warning("no message to edit for %s; the edit is dropped", slot)
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
        file = _file(message)
        if file is not None:
            kwargs["attachments"] = [file]  # a new picture of the table replaces the old one
        channel = self.client.get_partial_messageable(where[0])
        try:
            if interaction is not None:
                await interaction.response.edit_message(**kwargs)
                return
            await channel.get_partial_message(where[1]).edit(**kwargs)
        except discord.HTTPException as exc:
            log.warning("could not edit message %s in channel %s: %s", where[1], where[0], exc)


def _keeping_picture(earlier: Outgoing | None, later: Outgoing) -> Outgoing:
    """``later`` replaces the waiting edit ``earlier`` of the same message, but not its picture
    when it brings none (a live FUSE table: a claim right after the new round's picture)."""
    if earlier is None or earlier.message.image is None or later.message.image is not None:
        return later
    return replace(later, message=replace(later.message, image=earlier.message.image))


async def answer(
    interaction: discord.Interaction[Any], reply: Reply, lang: str, outbox: Outbox | None = None
) -> None:
    """Deliver ``reply`` for ``interaction``, whether it was already deferred or not.

    Not deferred: the private message is the (ephemeral) response; with no private message, the
    first public message for this channel that nothing will edit later is the response itself.
    Deferred (an ephemeral "thinking…"): the private message replaces the thinking message.
    Every other public message is posted to its channel, or edits its message, by ``outbox``.
    """
    public = list(reply.public)
    private = reply.private
    extra: list[Piece] = []
    clicked = interaction.message.id if interaction.message is not None else None
    same = next((o for o in public if outbox is not None and outbox.is_message(o, clicked)), None)
    if reply.ack_by_edit and same is not None and not interaction.response.is_done():
        # A click that only made its player ready: the phase message they clicked shows it,
        # in the interaction's one response (no "Recorded" of its own, no second call).
        public.remove(same)
        assert outbox is not None
        await outbox.edit(same, interaction)
    elif not interaction.response.is_done():
        if private is not None:
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
                await interaction.response.send_message(t("discord.done", lang), ephemeral=True)
    else:
        extra = await _edit(interaction, private or Message(Text.of(t("discord.done", lang))))
    for piece in extra:  # the rest of a long private answer (a long history)
        await interaction.followup.send(
            ephemeral=True,
            **_kwargs(private or Message(Text()), piece, first=False),
        )
    # The user has their answer: a channel that refuses a post gets a follow-up note instead
    # of an error in place of the answer (the move itself is saved either way).
    sender = outbox or Outbox(interaction.client, None)
    problems = [key for o in public if (key := await sender.deliver(o))]
    for key in dict.fromkeys(problems):
        await interaction.followup.send(t(key, lang), ephemeral=True)


async def _respond(
    interaction: discord.Interaction[Any], message: Message, *, ephemeral: bool
) -> list[Piece]:
    first, *rest = layout(message)
    kwargs = _kwargs(message, first)
    file = _file(message)
    if file is not None:
        kwargs["file"] = file
    await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
    return rest


async def _edit(interaction: discord.Interaction[Any], message: Message) -> list[Piece]:
    first, *rest = layout(message)
    kwargs = _kwargs(message, first)
    kwargs.setdefault("embeds", [])
    file = _file(message)
    await interaction.edit_original_response(attachments=[file] if file else [], **kwargs)
    return rest


async def post(client: discord.Client, outgoing: Outgoing) -> tuple[str | None, int | None]:
    """Send a public message to its channel (two or more when its narration is long). Returns
    the catalogue key of what to tell the user when Discord refused (``None``: posted; the game
    itself is already saved) and the id of the (first) message."""
    channel = client.get_partial_messageable(outgoing.channel_id)
    message_id: int | None = None
    try:
        for index, piece in enumerate(layout(outgoing.message)):
            kwargs = _kwargs(outgoing.message, piece, first=index == 0)
            file = _file(outgoing.message) if index == 0 else None
            if file is not None:
                kwargs["file"] = file
            sent = await channel.send(**kwargs)
            if index == 0:
                message_id = sent.id
    except (discord.Forbidden, discord.NotFound) as exc:
        log.warning("cannot post in channel %s: %s", outgoing.channel_id, exc)
        return "discord.error.cannot_post", message_id
    except discord.HTTPException:
        log.exception("Discord refused a message for channel %s", outgoing.channel_id)
        return "discord.error.internal", message_id
    return None, message_id


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
