"""A reply under construction: built inside the transaction, delivered after the commit.

Pictures are only described here (:class:`RenderJob`); they are drawn after the commit, off the
event loop, so a move's transaction never waits for Pillow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.service.replies import Button, Select, Slot, ThreadPlan
from bot.service.text import Text


@dataclass(frozen=True)
class RenderJob:
    kind: str
    view: dict[str, Any]
    names: list[str]
    lang: str
    private: bool
    game_id: int | None = None  # whose table: a newer picture of it may stand for this one


@dataclass(frozen=True)
class ReplayJob:
    """A whole game to animate (``render.replay.animate``): what the store keeps of it.
    ``log`` is ``(seat, action JSON, time)`` per move; the frames are public views only."""

    game_id: int
    kind: str
    seats: int
    options: dict[str, Any]
    seed: int
    log: list[tuple[int, dict[str, Any], float]]
    names: list[str]
    lang: str


@dataclass(frozen=True)
class Post:
    """A public message for a channel. ``phase``: it announces a resolved phase (the one post
    a phase gets), as opposed to a lobby notice or a reminder. ``slot``/``edit``/``edit_of``:
    as in :class:`~bot.service.replies.Outgoing`."""

    channel_id: int
    text: Text
    narration: Text = Text()
    mentions: tuple[int, ...] = ()
    buttons: tuple[Button, ...] = ()
    selects: tuple[Select, ...] = ()
    picture: RenderJob | None = None
    phase: bool = False
    slot: Slot | None = None
    edit: bool = False
    edit_of: int | None = None
    thread: ThreadPlan | None = None
    archive: bool = False
    replay: ReplayJob | None = None  # the message's image is this game's animation
    # A direct message to this user about the game in ``channel_id`` instead of a post there;
    # ``fallback`` is said in the channel (mentioning them) if Discord refuses it.
    dm: int | None = None
    fallback: Text = Text()
    # Said only to ping its mentions (the ping quiet hours held back): not posted when routing
    # pings none of them after all (their quiet hours again, a direct message instead).
    only_ping: bool = False


@dataclass
class Draft:
    private: list[Text] = field(default_factory=list)
    private_image: RenderJob | None = None
    private_buttons: tuple[Button, ...] = ()
    private_selects: tuple[Select, ...] = ()
    public: list[Post] = field(default_factory=list)
    ok: bool = True
    # The actor's private answer says only "Recorded", and an edit among ``public`` shows them
    # ready: on the message they clicked, that edit may stand for the answer (one REST call).
    ack_by_edit: bool = False
    # The game's message records to save with the move (a live table's narration so far).
    messages: dict[str, Any] | None = None
    # Each public post's delivery row and nonce, once recorded in the command's transaction
    # (``Service._owe``); empty when nothing records them.
    owing: list[tuple[int, str]] = field(default_factory=list)
    # A step of a move chosen from menus (``bot.service.picks``): answered privately, nothing
    # saved (unless ``public`` says so: a player back from autopilot).
    picked: bool = False
    # Made from a private menu of such a step: the answer may replace that menu's message.
    in_place: bool = False
    # The game's version the public posts show, once recorded (``Outgoing.version``).
    version: int | None = None

    def say(self, text: Text) -> None:
        """A line for the user who acted, alone."""
        self.private.append(text)
