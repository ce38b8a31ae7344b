"""Table messages edited in place: FUSE live's one table message, and the one message of each
turn of a turn-based game.

**A turn's message** (Dragon Farkle, Zombies vs Vampires: the engine's ``Game.turn`` names
whose turn it is). Each step of a turn (choose, roll, set aside, roll again…; roll, move,
second step) edits the turn's message: its head (who is awaited now), the narration of the
whole turn so far, the buttons and the picture, replaced. Nobody is pinged by an edit. A new
message is posted (and pings) only when:

- the turn passes to another player (the new turn's player is pinged, once), unless that
  player passed it by a step of their own: a brawl's defender whose last roll ends the
  attacker's turn and begins theirs was pinged in this message and is at it, so their turn
  goes on in it;
- another player is asked within the turn (``Turn.asked``: a brawl declared against them):
  they must look at once, so they get a message of their own that pings them; the turn goes
  on in it;
- the turn's narration is full (``TURN_NARRATED`` events: one Discord message could not show
  more): the turn goes on in a new message, pinging nobody, so nothing narrated is ever cut;
- the game is over (the result, as in every game).

**FUSE live** by chat: a live round lasts seconds; a new post per round (and one per claim)
buried the table under messages and pinged everyone every few seconds. In FUSE's live mode
the table is one message: its head (who is awaited, for what, and the bomb's clock as a
relative time), the narration of the latest moves, the buttons (claims, and each holder's
placements) and the picture, re-attached when a new round was drawn. Every move edits it.

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
adapter finds it and gathers its edits), ``bombs`` (FUSE), the bombs defused when it was
posted, and ``told``, the narrated events (``[key, args]``): a turn's all, a live FUSE table's
latest ``NARRATED``, so that each edit can show them.
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
# Events a turn's message narrates at most: about 24 lines of up to ~150 characters stay well
# inside one Discord message (6,000 characters of embeds), long names escaped included. A turn
# that tells more goes on in a new message.
TURN_NARRATED = 24
TIMER = "fuse.live.timer"  # "the round timer ran out: the computer played for …"
DEADLINE = "fuse.live.deadline"  # the same at the channel's deadline (round timer off)


def is_live(table: Table) -> bool:
    """FUSE in live mode (real-time rounds)."""
    return table.kind == "fuse" and getattr(table.state, "mode", "") == "live"


def edits_in_place(table: Table, snap: Snapshot | None = None) -> bool:
    """A game whose moves edit the table message rather than post anew: FUSE, in both modes
    (in relaxed mode every phase, a round or its returns, still gets a new message, since its
    players come and go over hours and the new message pings whom it asks; but the claims and
    placements within it edit it), and a turn-based game (``snap``'s unit, or else the
    engine's, names whose turn it is)."""
    if table.kind == "fuse":
        return True
    unit = snap.unit if snap is not None else table.engine.turn(table.state)
    return unit is not None and unit.by_turns


def new_message(
    before: Snapshot | None,
    after: Snapshot,
    told: int,
    asked: frozenset[int] = frozenset(),
    mover: int | None = None,
) -> bool:
    """Whether a turn-based game's step opens a new message rather than edit the turn's
    (``told``: events the turn's message narrates already; ``asked``: the players asked
    earlier in the turn; ``mover``: the seat that made the step in person, ``None`` for a step
    played by default): the turn passed (but to the mover themselves), a player is asked for
    the first time in the turn, or the message is full. See the module's rules."""
    old, new = before.unit if before else None, after.unit
    if old is None or new is None or not old.by_turns or told >= TURN_NARRATED:
        return True
    if old.key != new.key:
        return mover is None or new.player != mover
    return bool(new.asked - old.asked - asked)


def pinged(before: Snapshot | None, after: Snapshot) -> frozenset[int]:
    """The seats a turn's new message may ping: the player whose turn begins (once), and the
    players newly asked (a new message is posted for one only the first time in the turn:
    :func:`new_message`). A message that only continues a turn pings nobody."""
    old, new = before.unit if before else None, after.unit
    if new is None:
        return frozenset(after.pending)
    begins = old is None or old.key != new.key
    earlier = frozenset() if begins or old is None else old.asked
    mine = {new.player} if begins and new.player is not None else set()
    return frozenset(mine | (new.asked - earlier))


def asked_in_turn(table: Table, before: Snapshot | None, after: Snapshot) -> list[int]:
    """The players asked so far in the turn ``after`` is in (kept in the message's record)."""
    old, new = before.unit if before else None, after.unit
    if new is None:
        return []
    same = old is not None and old.key == new.key
    found = (table.row.messages or {}).get("phase") or {}
    earlier = set(found.get("asked") or []) | set(old.asked) if same and old else set()
    return sorted(earlier | new.asked)


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


def carried(
    table: Table, snap: Snapshot, before: Snapshot | None = None, mover: int | None = None
) -> dict[str, Any]:
    """The table message fields of a new phase's record: those of the message the phase goes
    on in (the same table message), or a new message's (see the module's rules; ``mover``:
    the seat whose own step it was, see :func:`new_message`)."""
    if not edits_in_place(table, snap):
        return {}
    old = (table.row.messages or {}).get("phase") or {}
    if table.kind != "fuse":
        asked = asked_in_turn(table, before, snap)
        earlier = frozenset(old.get("asked") or [])
        told = len(old.get("told") or [])
        if old.get("table") and not new_message(before, snap, told, earlier, mover):
            kept = {key: old.get(key) for key in ("channel", "id", "table", "told")}
            return {**kept, "asked": asked}
        return {"table": snap.phase, "told": [], "asked": asked}
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
    return found if found.get("table") and edits_in_place(table) else None


def remember(table: Table, found: dict[str, Any], told: list[Event]) -> dict[str, Any]:
    """The game's messages with ``told`` added to the table message's narration: a turn's
    whole (its message is posted anew before it is full), a live table's latest lines."""
    kept = [*list(found.get("told") or []), *[[e.key, e.args] for e in told]]
    if table.kind == "fuse":
        kept = kept[-NARRATED:]
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
