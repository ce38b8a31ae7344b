"""How a player is reached: the ``/me`` settings honoured by every ping, reminder and DM.

A user chooses (``/me``, bot/service/me.py; kept in ``PlayerRow``, across servers):

- **how to be told it is their turn**: a mention in the game's channel (the default), a direct
  message, or both. A direct message Discord refuses (the user takes none from the bot's
  servers) falls back to the mention, once with a note, and to mentions from then on until the
  user chooses direct messages again (``dm_closed``);
- **quiet hours** in their own time zone: a ping that falls in them waits until they end (the
  table is posted as usual, with their name but no ping; a ``ping`` deadline row brings the ping
  when the hours end, if they are still awaited); a reminder is moved out of them when the
  deadline allows, or not sent. Nothing changes for the others: deadlines stay as they are;
- **away until a day**: when a game of theirs awaits them, their seat plays on the autopilot
  (said once in each game) until that day comes, when the seat is theirs again; a move of theirs
  in a game takes the seat back there at once.

This module reads the settings; ``bot/service/routing.py`` applies them to what a command
posts, and ``bot/service/deadlines.py`` keeps reminders out of quiet hours.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy.ext.asyncio import AsyncSession

from bot.store import repository as repo
from bot.store.models import PlayerRow

MENTION, DM, BOTH = "mention", "dm", "both"
NOTIFY = (MENTION, DM, BOTH)
# A deadline row kind: the ping a player's quiet hours held back, sent when they end.
PING = "ping"
UTC = "UTC"


@dataclass(frozen=True)
class Reach:
    """One user's ``/me`` settings, as the service uses them."""

    user_id: int
    notify: str = MENTION
    quiet: tuple[int, int] | None = None  # (start, end) in minutes after local midnight
    zone: str = UTC
    away_until: float | None = None
    dm_closed: bool = False
    language: str | None = None

    @classmethod
    def of(cls, row: PlayerRow) -> Reach:
        quiet = None
        if row.quiet_start is not None and row.quiet_end is not None:
            quiet = (row.quiet_start, row.quiet_end)
        return cls(
            row.user_id,
            row.notify or MENTION,
            quiet,
            row.time_zone or UTC,
            row.away_until,
            bool(row.dm_closed),
            row.language,
        )

    @property
    def tz(self) -> dt.tzinfo:
        return zone_of(self.zone) or dt.UTC

    def away(self, now: float) -> bool:
        return self.away_until is not None and now < self.away_until

    def quiet_until(self, now: float) -> float | None:
        """When the quiet hours the moment ``now`` falls in end (None: ``now`` is not quiet)."""
        if self.quiet is None:
            return None
        start, end = self.quiet
        local = dt.datetime.fromtimestamp(now, self.tz)
        minute = local.hour * 60 + local.minute
        inside = start <= minute < end if start < end else minute >= start or minute < end
        if not inside:
            return None
        day = local.date() if minute < end else local.date() + dt.timedelta(days=1)
        return _at(day, end, self.tz)

    def quiet_began(self, now: float) -> float:
        """When the quiet hours ``now`` falls in began (``now`` must be quiet)."""
        assert self.quiet is not None
        start, _ = self.quiet
        local = dt.datetime.fromtimestamp(now, self.tz)
        minute = local.hour * 60 + local.minute
        day = local.date() if minute >= start else local.date() - dt.timedelta(days=1)
        return _at(day, start, self.tz)

    def outside_quiet(self, wanted: float, now: float, before: float) -> float | None:
        """A moment for a reminder meant for ``wanted`` that is not in the quiet hours: itself,
        else the end of those hours if that is still before ``before`` (the deadline), else
        just before they began if that is still after ``now``; None: no such moment."""
        ends = self.quiet_until(wanted)
        if ends is None:
            return wanted
        if ends < before:
            return ends
        began = self.quiet_began(wanted) - 60
        return began if began > now else None


def zone_of(name: str) -> dt.tzinfo | None:
    """The time zone of an IANA name (``Europe/Madrid``, ``America/Mexico_City``, ``UTC``)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _at(day: dt.date, minute: int, tz: dt.tzinfo) -> float:
    moment = dt.datetime.combine(day, dt.time(minute // 60, minute % 60), tzinfo=tz)
    return moment.timestamp()


async def reaches(session: AsyncSession, user_ids: Iterable[int]) -> dict[int, Reach]:
    people = [u for u in set(user_ids) if u > 0]  # (computer seats have negative ids)
    rows = await repo.players(session, people)
    return {user: Reach.of(row) for user, row in rows.items()}
