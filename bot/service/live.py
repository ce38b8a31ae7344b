"""FUSE live by chat: one table message, edited in place round after round.

A live round lasts seconds; a new post per round (and one per claim) buried the table under
messages and pinged everyone every few seconds. In FUSE's live mode the table is one message:
its head (who is awaited, for what, and the bomb's clock as a relative time), the narration
of the latest moves, the buttons (claims, and each holder's placements) and the picture,
re-attached when a new round was drawn. Every move edits it; nobody is pinged by an edit.

A new message is posted (and the players awaited by it pinged) only when:

- the game starts (``/game start``: the message with **Draw and start**, which the first
  round then edits);
- a new round begins after a bomb was defused: the defuse is the team's progress, worth a
  new picture at the bottom of the channel, and the only moment a ping reaches players who
  looked away (the round timer plays for them meanwhile: ``deadlines.round_timer``);
- the game is over (the result, as in every game).

Relaxed mode (rounds without a clock, played over hours) posts every phase anew (a round, its
returns), so that each pings whom it asks, and edits that message with the moves within it.

The message's record (``GameRow.messages["phase"]``) holds, besides the phase fields:
``table``, the phase token of the post the message was (its :class:`Slot` for good, so the
adapter finds it and gathers its edits), ``bombs``, the bombs defused when it was posted, and
``told``, the latest narrated events (``[key, args]``), so that each edit can show them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.service.draft import Post
from bot.service.narrate import events_text
from bot.service.replies import Slot
from bot.service.table import Table
from bot.service.text import lines
from rules.core import Event, Pending, Snapshot

NARRATED = 14  # narration lines a live table message keeps: a 4-player round and its returns
TIMER = "fuse.live.timer"  # "the round timer ran out: the computer played for …"
DEADLINE = "fuse.live.deadline"  # the same at the channel's deadline (round timer off)


def is_live(table: Table) -> bool:
    """FUSE in live mode (real-time rounds)."""
    return table.kind == "fuse" and getattr(table.state, "mode", "") == "live"


def edits_in_place(table: Table) -> bool:
    """A game whose moves within a phase edit the phase's table message: FUSE, in both modes.
    In relaxed mode every phase (a round, its returns) still gets a new message, since its
    players come and go over hours and the new message pings whom it asks; but the claims and
    placements within it edit it, rather than posting a message each."""
    return table.kind == "fuse"


def round_timer(table: Table, item: Pending) -> float | None:
    """The seconds a seat has in a real-time round (FUSE live, option ``round_timer``) before
    the computer plays for it, counted from the start of the phase; ``None``: no round timer.
    Only while the game's own clock runs (the engine gives the input a deadline): in relaxed
    mode, and before the first draw, the channel's deadline is the only one."""
    if item.deadline is None:
        return None
    seconds = (table.row.options or {}).get("round_timer") or 0
    return float(seconds) if seconds > 0 else None


def _bombs(table: Table) -> int:
    return len(getattr(table.state, "defused", ()))


def carried(table: Table, snap: Snapshot) -> dict[str, Any]:
    """The live table fields of a new phase's record: those of the message the phase goes on
    in (the same table message), or a new message's (see the module's rules)."""
    if not edits_in_place(table):
        return {}
    old = (table.row.messages or {}).get("phase") or {}
    new_round = getattr(table.state, "stage", "") == "choose"
    # Relaxed: a message for every new phase (a round, its returns), which pings whom it asks.
    posted_anew = not is_live(table) or (new_round and old.get("bombs") != _bombs(table))
    if old.get("table") and not posted_anew:
        return {key: old.get(key) for key in ("channel", "id", "table", "bombs", "told")}
    return {"table": snap.phase, "bombs": _bombs(table), "told": []}


def record(table: Table) -> dict[str, Any] | None:
    """The live table message's record, or ``None``: not a live game, or one begun before
    live tables (it keeps its phase posts)."""
    found = (table.row.messages or {}).get("phase") or {}
    return found if edits_in_place(table) and found.get("table") else None


def remember(table: Table, found: dict[str, Any], told: list[Event]) -> dict[str, Any]:
    """The game's messages with ``told`` added to the table message's narration."""
    kept = [*list(found.get("told") or []), *[[e.key, e.args] for e in told]][-NARRATED:]
    return {**(table.row.messages or {}), "phase": {**found, "told": kept}}


def narration(found: dict[str, Any]) -> list[Event]:
    """The events the table message narrates (its record's ``told``)."""
    return [Event(str(key), dict(args)) for key, args in found.get("told") or []]


def edit(table: Table, whole: Post, found: dict[str, Any], lang: str) -> Post:
    """The table message's new content: ``whole`` (a phase message: head, buttons, picture)
    as an edit of the message, showing the narration kept in ``found``."""
    told = events_text(narration(found), table.names(), lang)
    return replace(
        whole,
        channel_id=int(found.get("channel") or table.row.channel_id),
        narration=lines(told),
        mentions=(),  # an edit pings nobody: the players are at the table
        slot=Slot(table.row.id, "phase", str(found["table"])),
        edit=True,
        edit_of=int(found["id"]) if found.get("id") else None,
    )
