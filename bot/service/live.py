"""Table messages edited in place: a real-time game's one table message, and the one message
of each turn of a turn-based game. What a game answers here is its registration's
:class:`~rules.core.registry.Presentation`; nothing below names a game.

**A turn's message** (the engine's ``Game.turn`` names whose turn it is). Each step of a turn
(choose, roll, set aside, roll again…; roll, move, second step) edits the turn's message: its
head (who is awaited now), the narration of the whole turn so far, the buttons and the
picture, replaced. Nobody is pinged by an edit. A new message is posted (and pings) only when:

- the turn passes to a player this turn's messages have not pinged (the new turn's player is
  pinged, once). A player they pinged was told to come: a brawl's defender, or the player
  named as playing next, begins their turn in the message that pinged them, an edit (unless
  their own step was just played by default: they were not there, so they are pinged anew);
- another player is asked within the turn (``Turn.asked``: a brawl declared against them)
  whom the turn's messages have not pinged: they must look at once, so they get a message of
  their own that pings them, and names and pings the player who plays next
  (``Presentation.plays_next``; not a seat the computer plays, and once if it is the one
  asked), whose turn then begins in it; the turn goes on in it;
- the turn's narration is full (``TURN_CHARS`` characters or ``TURN_LINES`` events: one
  Discord message could not show more): the turn goes on in a new message, pinging nobody, so
  nothing narrated is ever cut;
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
it was posted, ``pinged``, the users an edited table's sitting's posts pinged, or a turn's
messages (since its turn began in one; a ping quiet hours held back is not counted), and
``told``, the narrated events (``[key, args]``): a turn's all, an edited table's latest lines,
so that each edit can show them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.service.draft import Post
from bot.service.match import Match, computer_plays, public_locale
from bot.service.narrate import events_text
from bot.service.replies import Slot
from bot.service.text import lines
from rules.core import Event, Pending, Presentation, Snapshot, registration

# The lines a sitting's message of an edited table played over hours keeps at least (its whole
# story, as a turn's message tells its turn's).
TURN_NARRATED = 24
# How much a turn's message narrates at most, so that it stays inside one Discord message
# (6,000 characters of embeds): 3,200 characters as the channel reads them, in at most 36
# events, leave 2,800 for markdown's escapes (a name escaped is at most twice its 32
# characters, two names a line). A turn that tells more goes on in a new message. (It was 24
# events: a turn begun in the brawl's message that pinged its player, whose story it goes on
# telling, overflowed into a new post in about one such turn in three.)
TURN_CHARS = 3200
TURN_LINES = 36


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
    full: bool,
    asked: frozenset[int] = frozenset(),
    mover: int | None = None,
    pinged: frozenset[int] | None = None,
    away: int | None = None,
) -> bool:
    """Whether a turn-based game's step opens a new message rather than edit the turn's
    (``full``: the turn's message narrates all it may, :func:`full`; ``asked``: the players asked
    earlier in the turn; ``pinged``: the seats the turn's messages pinged, ``None`` for a
    message recorded before they were kept; ``away``: the seat whose step was just played by
    default; ``mover``: the seat that made the step in person, read only without ``pinged``):
    the turn passed to a player not pinged (or pinged but away), a player not pinged is asked
    for the first time in the turn, or the message is full. See the module's rules."""
    old, new = before.unit if before else None, after.unit
    if old is None or new is None or not old.by_turns or full:
        return True
    if old.key != new.key:
        if pinged is None:  # (the rule then: only the mover's own step went on in it)
            return mover is None or new.player != mover
        return new.player not in pinged or new.player == away
    return bool(new.asked - old.asked - asked - (pinged or frozenset()))


def full(match: Match, found: dict[str, Any]) -> bool:
    """Whether the turn's message recorded in ``found`` narrates all one Discord message may
    show (``TURN_CHARS``, ``TURN_LINES``), as the channel reads it."""
    told = narration(found)
    if len(told) >= TURN_LINES:
        return True
    said = events_text(told, match.names(), public_locale(match.row))
    return sum(len(str(line)) + 1 for line in said) >= TURN_CHARS


def pinged_seats(match: Match, found: dict[str, Any]) -> frozenset[int] | None:
    """The seats whose players a turn's message record says its turn's messages pinged
    (``None``: a record from before they were kept)."""
    users = found.get("pinged")
    if users is None:
        return None
    told = set(users)
    return frozenset(s.seat for s in match.row.seats if s.user_id in told)


def next_named(match: Match, before: Snapshot | None, snap: Snapshot) -> tuple[int | None, bool]:
    """The seat a turn's message names as playing next, and whether it pings them now: a
    message posted to ask another player within the turn (a brawl's defender, newly asked)
    pings the player whose turn follows (``Presentation.plays_next``) too, unless the turn's
    messages pinged them already, and names them in each edit until their turn begins in it.
    ``(None, False)``: nobody (no such message; the turn's own player; a seat the computer
    plays, which needs no ping)."""
    new = snap.unit
    if new is None or not new.by_turns:
        return None, False
    seat = shown(match).plays_next(match.state)
    user = next((s for s in match.row.seats if s.seat == seat), None)
    if seat is None or seat == new.player or user is None or computer_plays(user):
        return None, False
    found = (match.row.messages or {}).get("phase") or {}
    if user.user_id in (found.get("pinged") or []):
        return seat, False
    old = before.unit if before else None
    asking = old is not None and old.key == new.key and bool(new.asked - old.asked)
    return (seat, True) if asking else (None, False)


def held_back(match: Match, user_id: int) -> None:
    """A ping of a turn's message that the player's quiet hours held back is no ping: the
    turn's record forgets it, so that a turn of theirs that begins later is posted anew, pinging
    them (an edit would tell them nothing). An edited table's sitting keeps it (its phases come
    minutes apart: it would post anew at each)."""
    row = match.row
    found = (row.messages or {}).get("phase") or {}
    users = found.get("pinged") or []
    if user_id not in users or not by_turns(match):
        return
    kept = [u for u in users if u != user_id]
    row.messages = {**(row.messages or {}), "phase": {**found, "pinged": kept}}


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
    match: Match,
    snap: Snapshot,
    before: Snapshot | None = None,
    mover: int | None = None,
    away: int | None = None,
) -> dict[str, Any]:
    """The table message fields of a new phase's record: those of the message the phase goes
    on in (the same table message), or a new message's (see the module's rules; ``mover``:
    the seat whose own step it was, ``away``: the seat whose step was played by default, see
    :func:`new_message`)."""
    if not edits_in_place(match, snap):
        return {}
    old = (match.row.messages or {}).get("phase") or {}
    said = shown(match)
    if not said.edited:
        asked = asked_in_turn(match, before, snap)
        earlier = frozenset(old.get("asked") or [])
        users = old.get("pinged")
        pinged = pinged_seats(match, old)
        unit, was = snap.unit, before.unit if before else None
        begins = was is None or unit is None or was.key != unit.key
        filled = bool(old.get("told")) and full(match, old)
        if old.get("table") and not new_message(before, snap, filled, earlier, mover, pinged, away):
            kept = {key: old.get(key) for key in ("channel", "id", "table", "told")}
            if users is not None:
                # A turn begun in the message that pinged its player: those pinged for the
                # turn before (its defender, say) are not pinged for this one.
                mine = {s.user_id for s in match.row.seats if unit and s.seat == unit.player}
                kept["pinged"] = [u for u in users if not begins or u in mine]
            return {**kept, "asked": asked}
        # Whom a new message pings is added as it is posted (compose's ``_live_move``); within
        # the turn, to those its messages pinged already.
        base = [] if begins or users is None else list(users)
        return {"table": snap.phase, "told": [], "asked": asked, "pinged": base}
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
