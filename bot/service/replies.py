"""What the service answers: replies as data, already translated, for any adapter to send.

The service never talks to Discord or a terminal itself. It returns a :class:`Reply`: a private
message for the user who acted (ephemeral on Discord) and public messages for channels. Adapters
only deliver them. A message's words are a :class:`~bot.service.text.Text` (names, mentions and
times as data), which each adapter renders its own way.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.service.text import Text


@dataclass(frozen=True)
class Actor:
    """Who sent a command. ``can_manage`` is Discord's Manage Channels permission in that
    channel (may cancel or kick in any game there)."""

    user_id: int
    display_name: str
    locale: str = "en"
    can_manage: bool = False


@dataclass(frozen=True)
class Place:
    """Where a command was sent. ``locale`` is the server's preferred locale (public messages)."""

    channel_id: int
    guild_id: int | None = None
    locale: str = "en"


@dataclass(frozen=True)
class Button:
    """A button under a message. ``custom_id`` is ``pt:<game id>:<phase>:<command>:<args>``
    (see ``bot.service.buttons``) and is at most 100 characters."""

    label: str
    custom_id: str
    style: str = "secondary"  # "primary" | "secondary" | "success" | "danger"


@dataclass(frozen=True)
class Select:
    """A multi-select menu: the picked values are joined with spaces into ``param`` of
    ``command`` (custom_id as for buttons, with the param name in place of the args)."""

    placeholder: str
    custom_id: str
    options: tuple[tuple[str, str], ...]  # (value, label)
    min_values: int = 1
    max_values: int = 1
    # What each option's piece does, in the options' order ("" for none; Discord shows at most
    # 100 characters under the label): ``bot.service.pieces.detail``.
    descriptions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Image:
    filename: str
    data: bytes


@dataclass(frozen=True)
class Message:
    """One message. ``mentions`` are user ids that may be pinged (and only those: adapters
    must allow no other mention, so display names cannot ping @everyone or roles).

    ``text`` is the head, always shown whole and first: who is awaited (with their mentions),
    the winner. ``narration`` is what happened, which may be long: Discord shows it in embeds
    and splits it over a second message rather than cut it (``bot.discord.send``)."""

    text: Text
    narration: Text = Text()
    image: Image | None = None
    mentions: tuple[int, ...] = ()
    buttons: tuple[Button, ...] = ()
    selects: tuple[Select, ...] = ()

    @property
    def whole(self) -> Text:
        """The head, then the narration: everything the message says, for a plain reader."""
        if not self.narration:
            return self.text
        return Text.of(self.text, "\n", self.narration) if self.text else self.narration


@dataclass(frozen=True)
class Slot:
    """A message the service edits in place later: a game's lobby message (``role="lobby"``)
    or the message of its current phase (``role="phase"``, ``phase`` its token). An adapter
    that posts a message with a slot reports its id back (:class:`Posted`, with the deliveries
    it settles: ``Service.delivered``), so the service can name the message to edit even after
    a restart."""

    game_id: int
    role: str
    phase: str = ""


@dataclass(frozen=True)
class Posted:
    """A slot's message as the adapter posted it: the id later edits of the slot go to."""

    slot: Slot
    channel_id: int
    message_id: int


@dataclass(frozen=True)
class ThreadPlan:
    """A thread to open from a posted message: its name, and what to tell the channel (once)
    when the bot may not open threads there, so the game is played in the channel."""

    name: str
    refused: Text


@dataclass(frozen=True)
class Outgoing:
    """A public message for a channel: a new post, or (``edit``) a new content for the slot's
    message, never posted anew. ``edit_of`` is that message's id as the service stored it
    (``None``: not reported yet; the adapter may still know it)."""

    channel_id: int
    message: Message
    slot: Slot | None = None
    edit: bool = False
    edit_of: int | None = None
    # Open a public thread from the posted message, where the game is then played (the
    # adapter reports it: ``Service.moved``); None: no thread.
    thread: ThreadPlan | None = None
    # Archive the channel (a finished game's thread) instead of posting anything.
    archive: bool = False
    # The delivery rows (``DeliveryRow`` ids) this message settles once Discord took it, and
    # the nonce it is posted with (a repeat after a crash returns the earlier message). Empty:
    # nothing recorded it (the console, a welcome), it is sent from memory alone.
    delivery: tuple[int, ...] = ()
    nonce: str | None = None
    # A direct message to this user instead (about the game in ``channel_id``); ``fallback`` is
    # posted in ``channel_id``, mentioning them, if Discord refuses it (bot/service/reach.py).
    dm: int | None = None
    fallback: Message | None = None
    # The message's picture, still being drawn (the process is over its drawing capacity):
    # the adapter sends the message without it at once and adds it once drawn (``None``: the
    # drawing failed, the words stand alone). Owed until then: ``delivery`` is settled by the
    # picture's edit.
    image_later: asyncio.Future[Image | None] | None = field(default=None, compare=False)
    # The game's version the message shows, where recorded: of two edits of one message, the
    # older one is moot (they may reach the sender out of order).
    version: int | None = None


@dataclass
class Reply:
    """The answer to one command: ``private`` for the actor alone, ``public`` for channels.
    ``ok`` is False when the command was refused (nothing changed)."""

    private: Message | None = None
    public: list[Outgoing] = field(default_factory=list)
    ok: bool = True
    # ``private`` only says "Recorded" and an edit in ``public`` shows the actor ready: an
    # adapter may answer a click on that very message by the edit alone.
    ack_by_edit: bool = False
    # The channel of this command's game when that game is paused (the bot could not post
    # there): an adapter that can post there now resumes it (``Service.resume``).
    paused: int | None = None
    # False: nothing was saved (a step of a move chosen from menus), so a failed answer is
    # "try again", never "saved".
    wrote: bool = True
    # Answer a click on the actor's own private message by replacing it (the next step of a
    # move chosen from menus, then the move's receipt), not with a message of its own.
    in_place: bool = False
    # The language the actor is answered in (their ``/game language``, else their client's),
    # so that what an adapter adds to the answer (a note, "saved; the table follows") reads
    # in the same language as the rest; None: the adapter's own guess, the client's.
    lang: str | None = None
