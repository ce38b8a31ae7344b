"""Questions asked in place: one phase message, edited as the answers come.

Bad Bones' phase 3 asks its questions (a catapult's target, a top exit, a dragon's way) while
the phase goes on: several players answer at once, and an answer may bring its player the next
question about their board. Each question is a :class:`~rules.core.Pending` with ``asked`` (when
it was asked); the phase token does not move while they are answered. Here:

- an answer edits the phase message: its head (who is still asked what, ✅ who is done), its
  narration (what it had, and each answer: "🤖 chose … for …" where the computer answered),
  its buttons (those of the questions still open, each valid until its own is answered:
  ``compose.offered_buttons`` marks them, ``moves.clicked`` checks them) and, when a new
  question came with it, its picture (the board at that moment). An edit pings nobody;
- a new message is posted only when a player is newly asked something (they had no question
  before this move: a preference set back to ``ask``), and it pings only them.

The message's narration so far is kept in its record (``GameRow.messages["phase"]["told"]``)
as events, so every edit shows it in full.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.service.draft import Draft, Post
from bot.service.match import Match, computer_plays
from bot.service.narrate import event_text
from bot.service.replies import Slot
from bot.service.text import Text, lines, phrase
from i18n import has
from rules.core import Event, Snapshot

TIMED_OUT = "lobby.deadline.defaulted"  # "⌛ … ran out of time; the computer played"
COMPUTER = "_computer"  # an event's wording when the computer made the move for its player


def asks(snap: Snapshot) -> bool:
    """Whether the game waits for questions that stay open while others are answered."""
    return any(item.asked is not None for item in snap.pending.values())


def by_computer(events: list[Event]) -> list[Event]:
    """The events of a move the computer made for its player (an absent seat, the autopilot),
    each worded by its ``_computer`` variant where the catalogue has one ("🤖 chose … for …")."""
    return [Event(e.key + COMPUTER, e.args, e.to) if has(e.key + COMPUTER) else e for e in events]


def remember(match: Match, told: list[Event], *, fresh: bool = False) -> dict[str, Any]:
    """The game's message records with ``told`` added to the phase message's narration
    (``fresh``: a new message, whose narration starts with them)."""
    messages = dict(match.row.messages or {})
    record = dict(messages.get("phase") or {})
    kept = [] if fresh else list(record.get("told") or [])
    record["told"] = kept + [[e.key, e.args] for e in told]
    messages["phase"] = record
    return messages


def timed_out(seat: int) -> Event:
    """The narration's "⌛ … ran out of time" for ``seat``, kept as an event like the rest."""
    return Event(TIMED_OUT, {"seat": seat})


def _said(events: list[Event], match: Match, lang: str) -> list[Text]:
    names = match.names()
    return [
        phrase(TIMED_OUT, lang, player=names[int(e.args["seat"])])
        if e.key == TIMED_OUT
        else event_text(e, names, lang)
        for e in events
    ]


def answered(
    draft: Draft,
    match: Match,
    before: Snapshot,
    after: Snapshot,
    whole: Post,
    told: list[Event],
    lang: str,
    autoplayed: frozenset[int],
) -> Draft:
    """A move within a phase of questions asked in place (see the module): the phase message
    (``whole``: as a new phase message would be, without narration) edited, or posted anew
    for the players newly asked."""
    draft.messages = remember(match, told)
    record = draft.messages["phase"]
    narrated = [Event(str(key), dict(args)) for key, args in record["told"]]
    whole = replace(whole, narration=lines(_said(narrated, match, lang)))
    by_seat = {s.seat: s for s in match.row.seats}
    newly = {
        by_seat[s].user_id
        for s in after.pending
        if s not in before.pending and s not in autoplayed and not computer_plays(by_seat[s])
    }
    if newly:
        # Asked something while not looking: a message at the bottom of the channel, which
        # pings them alone; later edits go to it (its id is noted once posted).
        draft.messages["phase"] = {**record, "id": None}
        mentions = tuple(m for m in whole.mentions if m in newly)
        draft.public.append(replace(whole, mentions=mentions))
        return draft
    draft.public.append(
        replace(
            whole,
            channel_id=int(record.get("channel") or match.row.channel_id),
            mentions=(),  # an edit pings nobody: those asked were pinged when asked
            slot=Slot(match.row.id, "phase", after.phase),
            edit=True,
            edit_of=int(record["id"]) if record.get("id") else None,
            phase=False,  # the phase goes on: not a new one
        )
    )
    return draft
