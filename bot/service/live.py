"""Table messages edited in place: a real-time game's one table message, and the one message
of each turn of a turn-based game. What a game answers here is its registration's
:class:`~rules.core.registry.Presentation`; nothing below names a game.

**A turn's message** (the engine's ``Game.turn`` names whose turn it is). Each step of a turn
(choose, roll, set aside, roll again…; roll, move, second step) edits the turn's message: its
head (who is awaited now), the narration of the whole turn so far, the buttons and the
picture, replaced. Nobody is pinged by an edit. A new message is posted (and pings) only when:

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

**An edited table** (``Presentation.edited``: a real-time game played by chat, whose rounds
last seconds; a new post per round, and one per claim, buried the table under messages and
pinged everyone every few seconds). The table is one message: its head (who is awaited, for
what, and the game's clock as a relative time), the narration of the latest moves
(``Presentation.narrated`` lines), the buttons and the picture, re-attached when it changed.
Every move edits it. A new message is posted (and the players awaited by it pinged) only when:

- the game starts (``/game start``: the message with the first step, which then edits it);
- a new phase comes where the game says so (``Presentation.posts_anew``, given the game's
  counter the message was posted at, ``Presentation.sitting``): a real-time game's new round
  after the team's progress, the only moment a ping reaches players who looked away (the
  round timer plays for them meanwhile: ``deadlines.round_timer``); in a game played over
  hours, each round, so that it pings whom it asks;
- in a game played over hours (``Presentation.pings_once``), a new phase of the sitting asks
  a player its posts have not pinged yet (a round's returns asking one the round did not):
  the message is posted anew, telling the sitting's story so far and pinging only them (each
  player once a sitting); a phase asking only players pinged already edits it;
- the game is over (the result, as in every game).

The message's record (``GameRow.messages["phase"]``) holds, besides the phase fields:
``table``, the phase token of the post the message was (its :class:`Slot` for good, so the
adapter finds it and gathers its edits), ``sitting`` (an edited table), the game's counter when
it was posted, ``pinged`` (an edited table), the users its sitting's posts pinged, and
``told``, the narrated events (``[key, args]``): a turn's all, an edited table's latest lines,
so that each edit can show them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.service.draft import Post
from bot.service.match import Match, computer_plays
from bot.service.narrate import events_text
from bot.service.replies import Slot
from bot.service.text import lines
from rules.core import Event, Pending, Presentation, Snapshot, registration

# Events a turn's message narrates at most: about 24 lines of up to ~150 characters stay well
# inside one Discord message (6,000 characters of embeds), long names escaped included. A turn
# that tells more goes on in a new message.
TURN_NARRATED = 24


def shown(match: Match) -> Presentation:
    """How the table's game is shown (its registration)."""
    return registration(match.kind).presentation


def edits_in_place(match: Match, snap: Snapshot | None = None) -> bool:
    """A game whose moves edit the table message rather than post anew: an edited table
    (``Presentation.edited``, whose every move edits it, while a new phase may still get a
    new message where the game says so), and a turn-based game (``snap``'s unit, or else the
    engine's, names whose turn it is)."""
    if shown(match).edited:
        return True
    return by_turns(match, snap)


def by_turns(match: Match, snap: Snapshot | None = None) -> bool:
    """A turn-based game's table (not an edited one): a message per turn, pinging the player
    whose turn begins and whoever is newly asked in it."""
    if shown(match).edited:
        return False
    unit = snap.unit if snap is not None else match.engine.turn(match.state)
    return unit is not None and unit.by_turns


def timed_out_key(match: Match, timer: bool, turn_key: str) -> str:
    """The catalogue key of the line a table message shows when the computer played for a
    seat: at the round timer (``timer``) or the channel's deadline, in the game's words where
    it has them, else ``turn_key`` (the service's words for a turn timed out)."""
    said = shown(match)
    if timer and said.timer_said:
        return said.timer_said
    return said.deadline_said or turn_key


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


def asked_in_turn(match: Match, before: Snapshot | None, after: Snapshot) -> list[int]:
    """The players asked so far in the turn ``after`` is in (kept in the message's record)."""
    old, new = before.unit if before else None, after.unit
    if new is None:
        return []
    same = old is not None and old.key == new.key
    found = (match.row.messages or {}).get("phase") or {}
    earlier = set(found.get("asked") or []) | set(old.asked) if same and old else set()
    return sorted(earlier | new.asked)


def round_timer(match: Match, item: Pending) -> float | None:
    """The seconds a seat has in a real-time round (``Presentation.round_timer``, from the
    table's options) before the computer plays for it, counted from the start of the phase;
    ``None``: no round timer. Only while the game's own clock runs (the engine gives the input
    a deadline): otherwise the channel's deadline is the only one."""
    if item.deadline is None:
        return None
    return shown(match).round_timer(match.row.options or {})


def carried(
    match: Match, snap: Snapshot, before: Snapshot | None = None, mover: int | None = None
) -> dict[str, Any]:
    """The table message fields of a new phase's record: those of the message the phase goes
    on in (the same table message), or a new message's (see the module's rules; ``mover``:
    the seat whose own step it was, see :func:`new_message`)."""
    if not edits_in_place(match, snap):
        return {}
    old = (match.row.messages or {}).get("phase") or {}
    said = shown(match)
    if not said.edited:
        asked = asked_in_turn(match, before, snap)
        earlier = frozenset(old.get("asked") or [])
        told = len(old.get("told") or [])
        if old.get("table") and not new_message(before, snap, told, earlier, mover):
            kept = {key: old.get(key) for key in ("channel", "id", "table", "told")}
            return {**kept, "asked": asked}
        return {"table": snap.phase, "told": [], "asked": asked}
    if old.get("table") and not said.posts_anew(match.state, old.get("sitting")):
        if said.pings_once(match.state) and unpinged(match, snap, old):
            # Someone not pinged in this sitting is asked: the message anew, pinging them;
            # the sitting, its story and whom it pinged go on.
            return {
                "table": snap.phase,
                **{key: old.get(key) for key in ("sitting", "told", "pinged")},
            }
        return {
            key: old.get(key) for key in ("channel", "id", "table", "sitting", "told", "pinged")
        }
    return {"table": snap.phase, "sitting": said.sitting(match.state), "told": [], "pinged": []}


def unpinged(
    match: Match, snap: Snapshot, found: dict[str, Any], skipped: frozenset[int] = frozenset()
) -> tuple[int, ...]:
    """The people (user ids, in seat order) ``snap`` awaits whom the sitting of the table
    message recorded in ``found`` has not pinged yet (a seat the computer plays, or one of
    ``skipped``, played at once, is pinged by nobody)."""
    pinged = set(found.get("pinged") or [])
    by_seat = {s.seat: s for s in match.row.seats}
    return tuple(
        user.user_id
        for seat in sorted(snap.pending)
        if (user := by_seat.get(seat)) is not None
        and seat not in skipped
        and not computer_plays(user)
        and user.user_id not in pinged
    )


def posted(
    match: Match,
    whole: Post,
    found: dict[str, Any],
    snap: Snapshot,
    lang: str,
    skipped: frozenset[int] = frozenset(),
) -> tuple[Post, dict[str, Any]]:
    """An edited table's new message (``whole``, a phase message at ``snap``) as posted in its
    sitting (recorded in ``found``): pinging only the players the sitting has not pinged yet
    (``Presentation.pings_once``: every one it asks, once a sitting, be it asked the same as
    before; ``skipped``: seats played at once), and, where the sitting goes on, telling its
    story so far. Returns the post and the record, with whom it pinged added."""
    pinged = [int(u) for u in found.get("pinged") or []]
    if shown(match).pings_once(match.state):
        mentions = unpinged(match, snap, found, skipped)
    else:
        mentions = tuple(u for u in whole.mentions if u not in pinged)
    if found.get("told"):
        told = events_text(narration(found), match.names(), lang)
        whole = replace(whole, narration=lines(told))
    return replace(whole, mentions=mentions), {**found, "pinged": sorted({*pinged, *mentions})}


def record(match: Match) -> dict[str, Any] | None:
    """The live table message's record, or ``None``: not a live game, or one begun before
    live tables (it keeps its phase posts)."""
    found = (match.row.messages or {}).get("phase") or {}
    return found if found.get("table") and edits_in_place(match) else None


def remember(match: Match, found: dict[str, Any], told: list[Event]) -> dict[str, Any]:
    """The game's messages with ``told`` added to the table message's narration: a turn's
    whole (its message is posted anew before it is full), a live table's latest lines."""
    kept = [*list(found.get("told") or []), *[[e.key, e.args] for e in told]]
    said = shown(match)
    narrated = said.narrated
    if narrated is not None and said.pings_once(match.state):
        # A game played over hours: its sitting's message tells the sitting's whole story (a
        # relaxed FUSE round and its returns: 16 lines at 5 players), as a turn's does.
        narrated = max(narrated, TURN_NARRATED)
    if narrated is not None:
        kept = kept[-narrated:]
    return {**(match.row.messages or {}), "phase": {**found, "told": kept}}


def narration(found: dict[str, Any]) -> list[Event]:
    """The events the table message narrates (its record's ``told``)."""
    return [Event(str(key), dict(args)) for key, args in found.get("told") or []]


def edit(match: Match, whole: Post, found: dict[str, Any], lang: str) -> Post:
    """The table message's new content: ``whole`` (a phase message: head, buttons, picture)
    as an edit of the message, showing the narration kept in ``found``."""
    told = events_text(narration(found), match.names(), lang)
    return replace(
        whole,
        channel_id=int(found.get("channel") or match.row.channel_id),
        narration=lines(told),
        mentions=(),  # an edit pings nobody: the players are at the table
        slot=Slot(match.row.id, "phase", str(found["table"])),
        edit=True,
        edit_of=int(found["id"]) if found.get("id") else None,
    )
