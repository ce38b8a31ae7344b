"""The edits of earlier messages, and the pictures that follow their messages: the part of the
sender (:class:`~bot.discord.send.Outbox`, built on :class:`Edits`) that changes a message
already posted rather than posting one.

- A slot's message (a game's lobby, its phase message, a turn's or a live table's message) is
  remembered as it goes out (``known``), so that its edits find it; an edit whose message is
  unknown or gone posts the table anew, whole (``_post_anew``, ``Service.table_again``).
- A click on a message is answered by editing that very message (:meth:`Edits.edit`); edits are
  ordered by the game version they show, so an older one never undoes a newer one.
- A picture still being drawn when its message went out follows it as an edit
  (``_add_picture``), taken along by a later edit of the same message when one waits.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from bot.discord.channels import DONE, DROP, KNOWN_MAX, Channels, PostReporter
from bot.discord.layout import attachment, layout, view
from bot.service.replies import Message, Outgoing, Slot

UNKNOWN_MESSAGE = 10008  # Discord's error code for a message that is not there (deleted)

log = logging.getLogger(__name__)


@dataclass
class Job:
    """One thing a channel's sender owes: a post, an edit, an archive (``outgoing``), or an
    ``action`` to run once what was queued before it went out (telling a host that their
    table is back). ``pieces``: ids of the pieces of a long post already sent, so a retry
    sends only the rest. ``words``: False for an edit that brings a late picture alone (the
    message's words may be newer than the outgoing's), until a later edit is folded in."""

    outgoing: Outgoing | None
    since: float | None = None
    action: Callable[[], Awaitable[None]] | None = None
    queued: float = field(default_factory=time.monotonic)
    not_before: float = 0.0
    attempts: int = 0
    sending: bool = False
    nonce: str = field(default_factory=lambda: secrets.token_hex(8))
    pieces: list[int] = field(default_factory=list)
    words: bool = True


class Edits(Channels):
    """Which message each slot became, and every change to a message already posted: a click's
    answer as an edit of the clicked message, a slot's edit by its channel's sender, a late
    picture added, a message posted anew when its own is gone. The queues and the senders are
    the :class:`~bot.discord.send.Outbox`'s (``queues``, ``_run``, ``done``, ``_settle``)."""

    queues: dict[int, deque[Job]]  # each channel's jobs, in order (the Outbox's)

    def __init__(self, client: discord.Client, service: PostReporter | None) -> None:
        super().__init__(client, service)
        # slot → the newest game version an edit of its message was handed over in: queued,
        # or sent as a click's answer (bounded: KNOWN_MAX). See ``_outdated``.
        self._newest_edit: OrderedDict[Slot, int] = OrderedDict()
        # A click's answer under way per slot: one at a time for a message.
        self._editing: dict[Slot, asyncio.Lock] = {}
        # Rows whose message went out and whose picture is still being drawn (owed: its edit
        # settles them).
        self._drawing: set[int] = set()

    def done(self, outgoing: Outgoing) -> None:
        """``outgoing`` went out another way, or is moot: settle its rows (the Outbox's)."""
        raise NotImplementedError

    def _run(self, channel_id: int) -> None:
        """Start the channel's sender if it is not running (the Outbox's)."""
        raise NotImplementedError

    async def _settle(self, rows: tuple[int, ...]) -> None:
        """Settle delivery rows in the next batch (the Outbox's)."""
        raise NotImplementedError

    def _know(self, slot: Slot, channel_id: int, message_id: int) -> None:
        self.known[slot] = (channel_id, message_id)
        self.known.move_to_end(slot)
        while len(self.known) > KNOWN_MAX:
            self.known.popitem(last=False)

    def _where(self, outgoing: Outgoing) -> tuple[int, int] | None:
        slot = outgoing.slot
        known = self.known.get(slot) if slot is not None else None
        if known is not None:
            return known
        if outgoing.edit_of is not None:
            return outgoing.channel_id, outgoing.edit_of
        return None

    def _outdated(self, outgoing: Outgoing, slot: Slot) -> bool:
        """Whether ``outgoing``, an edit of ``slot``'s message, was made before an edit of it
        already handed over (else it is the newest now). Two moves' edits can come out of order
        (the first move's private answer was retried before its public messages were handed
        over; two clicks' answers race), and an edit is the whole table as its move left it:
        the older one would undo what the newer one shows. Edits are ordered by the game
        version they show (versions grow with every save; delivery row ids do not order moves,
        since SQLite reuses the ids of settled rows); an unversioned edit is never held back."""
        newest = outgoing.version
        if newest is None:
            return False
        if self._older(outgoing, slot):
            return True
        self._newest_edit[slot] = newest
        self._newest_edit.move_to_end(slot)
        while len(self._newest_edit) > KNOWN_MAX:
            self._newest_edit.popitem(last=False)
        return False

    def _older(self, outgoing: Outgoing, slot: Slot) -> bool:
        """Whether an edit of a later game version than ``outgoing``'s was handed over."""
        version = outgoing.version
        return version is not None and version < self._newest_edit.get(slot, -1)

    def _waiting_edit(self, slot: Slot) -> Job | None:
        for queue in self.queues.values():
            for job in queue:
                o = job.outgoing
                if o is not None and o.edit and o.slot == slot and not job.sending:
                    return job
        return None

    def is_message(self, outgoing: Outgoing, message_id: int | None) -> bool:
        """Whether ``outgoing`` edits the message ``message_id``."""
        if not outgoing.edit or outgoing.slot is None or message_id is None:
            return False
        where = self._where(outgoing)
        return where is not None and where[1] == message_id

    async def edit(self, outgoing: Outgoing, interaction: discord.Interaction[Any]) -> None:
        """Replace the slot's message as the response to ``interaction``, a click on that very
        message (an interaction call: Discord's global rate limit does not count it). A waiting
        edit of the same message is folded in, the newer content winning; one click's answer
        waits for another's on the same message, and an answer older than an edit of it already
        handed over is not sent (``_outdated``: by the game version it shows). If
        Discord refuses or fails it, the channel's sender delivers the edit instead."""
        outgoing = drawn(outgoing)
        slot = outgoing.slot
        assert slot is not None
        lock = self._editing.setdefault(slot, asyncio.Lock())
        try:
            async with lock:
                waiting = self._waiting_edit(slot)
                if waiting is not None and waiting.outgoing is not None:
                    newer = _newest(waiting.outgoing, outgoing)
                    outgoing = merged(keeping_picture(waiting.outgoing, newer), waiting)
                    self.queues[waiting.outgoing.channel_id].remove(waiting)
                if self._outdated(outgoing, slot):
                    self.done(outgoing)  # the message shows a later move already
                    return
                try:
                    if interaction.response.is_done():  # a deferred click's message
                        await interaction.edit_original_response(**_edit_kwargs(outgoing, slot))
                    else:
                        await interaction.response.edit_message(**_edit_kwargs(outgoing, slot))
                except discord.HTTPException as exc:
                    log.warning(
                        "could not edit the clicked message in %s: %s", outgoing.channel_id, exc
                    )
                    self.enqueue(outgoing)  # the channel's sender edits it instead
                    raise
                if not self._picture_follows(outgoing, self._where(outgoing)):
                    self.done(outgoing)
        finally:
            if not lock.locked() and self._editing.get(slot) is lock:
                del self._editing[slot]

    async def _edit_later(self, outgoing: Outgoing, *, words: bool = True) -> str:
        """Replace the words (and buttons, if it has any) of the slot's message (or of the
        message ``edit_of`` names); ``words=False``: add its picture alone."""
        slot = outgoing.slot
        where = self._where(outgoing)
        if where is None:
            # Its id was never recorded (the bot stopped between the post and the record), or
            # its post never came (``POST_GRACE``): the table goes on in a new message rather
            # than stall unseen.
            log.warning("no message to edit for %s; posting it anew", slot)
            await self._post_anew(outgoing)
            return DONE
        if not await self._may_post(where[0]):
            return DROP  # the table waits; it is posted whole when it comes back
        if where[0] in self.archived:
            del self.archived[where[0]]
            await self._reopen(where[0])  # else the edit meets 50083 and reopens it then
        if slot is not None and self._older(outgoing, slot):
            return DONE  # a later move's edit was handed over (a click's answer showed it)
        channel = self.client.get_partial_messageable(where[0])
        try:
            edit = _edit_kwargs(outgoing, slot) if words else _picture_kwargs(outgoing.message)
            await channel.get_partial_message(where[1]).edit(**edit)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_MESSAGE:
                refused = await self._refused(where[0], exc)
                if refused is not None:
                    return refused
                raise
            # Someone deleted the table's message: it goes on in a new one (recorded as the
            # slot's, so the next edits find it).
            log.warning("message %s in channel %s is gone; posting it anew", where[1], where[0])
            if slot is not None:
                self.known.pop(slot, None)
            await self._post_anew(outgoing)
        except discord.HTTPException as exc:
            refused = await self._refused(where[0], exc)
            if refused is not None:
                return refused
            raise
        return DONE

    # ------------------------------------------------------------------ late pictures

    def _sent_as(self, job: Job) -> tuple[int, int] | None:
        """The message ``job`` went out as (channel, id), if known."""
        outgoing = job.outgoing
        if outgoing is None:
            return None
        if outgoing.edit:
            return self._where(outgoing)
        return (outgoing.channel_id, job.pieces[0]) if job.pieces else None

    def _picture_follows(self, outgoing: Outgoing | None, where: tuple[int, int] | None) -> bool:
        """``outgoing`` went out as message ``where`` without its picture, still being drawn
        (the process is over its drawing capacity): the picture follows as an edit of that
        message, and its rows stay owed until then. False: no picture follows (none was
        late, or the message is not known: a table posted anew carries its own)."""
        if outgoing is None or outgoing.image_later is None or where is None:
            return False
        self._drawing.update(outgoing.delivery)
        self._chore(self._add_picture(outgoing, where))
        return True

    async def _add_picture(self, outgoing: Outgoing, where: tuple[int, int]) -> None:
        """Once drawn, the picture of ``outgoing`` (sent as message ``where``) is added to it by
        the channel's sender. The service first records that what stays owed is that edit, so
        that a restart meanwhile still adds the picture (drawn again)."""
        assert outgoing.image_later is not None
        rows = outgoing.delivery
        try:
            if rows and self.service is not None:
                try:
                    await self.service.unpictured(rows, where[1])
                except Exception:  # owed as the post still: a restart posts it whole
                    log.exception("could not record deliveries %s as awaiting a picture", rows)
            image = await outgoing.image_later
        finally:
            self._drawing.difference_update(rows)
        channel, message_id = where
        follow = replace(
            outgoing,
            channel_id=channel,
            message=replace(outgoing.message, image=image),
            edit=True,
            edit_of=message_id,
            thread=None,
            image_later=None,
        )
        queue = self.queues.get(channel, deque())
        slot = follow.slot
        newer = any(
            not job.sending
            and job.outgoing is not None
            and slot is not None
            and is_phase_post(job.outgoing)
            and job.outgoing.slot is not None
            and job.outgoing.slot.game_id == slot.game_id
            for job in queue
        )
        waiting = self._waiting_edit(slot) if slot is not None else None
        if image is None or newer:
            # The drawing failed (the words stand alone, as for any failed picture), or the
            # game's next table, about to go out, shows it: nothing more to send.
            if rows:
                await self._settle(rows)
        elif waiting is not None and waiting.outgoing is not None:
            # A later edit of the message waits: it takes the picture along (one edit).
            earlier = waiting.outgoing
            waiting.outgoing = replace(
                keeping_picture(follow, earlier),
                delivery=tuple(dict.fromkeys((*earlier.delivery, *rows))),
            )
        else:
            self.queues.setdefault(channel, deque()).append(Job(follow, words=False))
            self._run(channel)

    async def _post_anew(self, outgoing: Outgoing) -> None:
        """An edit whose message is unknown or gone: the service's message of that slot as it
        stands (the whole table, buttons and picture, not just the edit's words), posted anew
        and recorded as the slot's message."""
        slot = outgoing.slot
        if self.service is None or slot is None:
            return
        for fresh in await self.service.table_again(slot.game_id, slot.role):
            self.enqueue(fresh)


def is_phase_post(outgoing: Outgoing) -> bool:
    """A game's phase message posted anew (not an edit of one)."""
    slot = outgoing.slot
    return slot is not None and slot.role == "phase" and not outgoing.edit


def _newest(a: Outgoing, b: Outgoing) -> Outgoing:
    """Of two edits of one message, the one of the later move (``b`` when neither says)."""
    if a.version is None or b.version is None:
        return b if b.version is not None or a.version is None else a
    return a if a.version > b.version else b


def merged(later: Outgoing, earlier: Job) -> Outgoing:
    """``later`` replaces the waiting edit ``earlier``, and settles its rows too."""
    assert earlier.outgoing is not None
    rows = tuple(dict.fromkeys((*earlier.outgoing.delivery, *later.delivery)))
    return replace(later, delivery=rows)


def _edit_kwargs(outgoing: Outgoing, slot: Slot | None) -> dict[str, Any]:
    """An edit's request: its words, embeds, buttons and picture."""
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
    elif (slot is not None and slot.role == "lobby") or message.narration:
        # A started or cancelled lobby has no buttons left; an edit with narration is the
        # whole message (a live FUSE table), and nobody present has a button on it now.
        kwargs["view"] = None
    file = attachment(message)
    if file is not None:
        kwargs["attachments"] = [file]  # a new picture of the table replaces the old one
    return kwargs


def _picture_kwargs(message: Message) -> dict[str, Any]:
    """An edit that adds a late picture to its message, leaving its words as they are now."""
    return {"attachments": [attachment(message)]}


def drawn(outgoing: Outgoing) -> Outgoing:
    """``outgoing`` with its late picture in it, when that has been drawn meanwhile."""
    later = outgoing.image_later
    if later is None or not later.done():
        return outgoing
    image = later.result() if not later.cancelled() else None
    return replace(outgoing, message=replace(outgoing.message, image=image), image_later=None)


def keeping_picture(earlier: Outgoing | None, later: Outgoing) -> Outgoing:
    """``later`` replaces the waiting edit ``earlier`` of the same message, but not its picture
    when it brings none (a live FUSE table: a claim right after the new round's picture), nor
    the picture still being drawn for it."""
    if earlier is None or later.message.image is not None or later.image_later is not None:
        return later
    if earlier.message.image is not None:
        return replace(later, message=replace(later.message, image=earlier.message.image))
    return replace(later, image_later=earlier.image_later)
