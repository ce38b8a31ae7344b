"""``/me``: a user's own settings of how they are reached, across servers (bot/service/reach.py).

Options, each optional (none: the settings are shown): ``notify`` (mention, dm or both),
``quiet`` (``22:00-07:30``, ``23-7`` or ``off``), ``timezone`` (an IANA name such as
``Europe/Madrid``; quiet hours and the away day are read in it, UTC until one is chosen) and
``away`` (a day, ``2026-12-24``, until which their seats play on the autopilot, or ``off``).
Every answer shows the settings as they now stand, in the user's language.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache
from typing import Any
from zoneinfo import available_timezones

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service.errors import Refusal
from bot.service.reach import DM, NOTIFY, UTC, Reach, zone_of
from bot.service.text import Strong, Text, When, lines, phrase
from bot.store import repository as repo

OFF = ("off", "no", "none", "ninguna", "ninguno", "nada")
AWAY_MAX_DAYS = 180  # a longer absence is leaving the game (/game leave)
_CLOCK = re.compile(
    r"^\s*(\d{1,2})(?::?(\d{2}))?\s*(?:-|–|to|a|hasta)\s*(\d{1,2})(?::?(\d{2}))?\s*$"
)


def parse_quiet(typed: str) -> tuple[int, int] | None:
    """``22:00-07:30`` (or ``22-7``, ``2200-0730``) as minutes after midnight; ``off``: None."""
    if typed.strip().lower() in OFF:
        return None
    found = _CLOCK.match(typed.lower())
    if found is None:
        raise Refusal("me.error.quiet")
    hour_a, minute_a, hour_b, minute_b = (int(g) if g else 0 for g in found.groups())
    if hour_a > 23 or hour_b > 23 or minute_a > 59 or minute_b > 59:
        raise Refusal("me.error.quiet")
    start, end = hour_a * 60 + minute_a, hour_b * 60 + minute_b
    if start == end:
        raise Refusal("me.error.quiet_empty")
    return start, end


@cache
def zones() -> dict[str, str]:
    """Every IANA zone name this machine knows, by its lower-case spelling."""
    return {name.lower(): name for name in available_timezones()} | {"utc": UTC}


def parse_zone(typed: str) -> str:
    name = zones().get(typed.strip().lower().replace(" ", "_"))
    if name is None or zone_of(name) is None:
        raise Refusal("me.error.zone", example="Europe/Madrid")
    return name


def zone_choices(current: str, limit: int = 25) -> list[str]:
    """Zone names for an autocomplete: those containing what was typed, shortest first."""
    typed = current.strip().lower().replace(" ", "_")
    found = sorted((n for k, n in zones().items() if typed in k), key=lambda n: (len(n), n))
    return found[:limit]


def parse_away(typed: str, zone: str, now: float) -> float | None:
    """A day (``2026-12-24``, or ``24/12/2026``) as the moment it begins in ``zone``: the
    player is back that day. ``off``: None."""
    text = typed.strip().lower()
    if text in OFF:
        return None
    day = None
    for form in ("%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y"):
        try:
            day = dt.datetime.strptime(text, form).date()
            break
        except ValueError:
            continue
    if day is None:
        raise Refusal("me.error.away")
    tz = zone_of(zone) or dt.UTC
    back = dt.datetime.combine(day, dt.time(0, 0), tzinfo=tz).timestamp()
    if back <= now:
        raise Refusal("me.error.away_past")
    if back - now > AWAY_MAX_DAYS * 86400:
        raise Refusal("me.error.away_far", days=AWAY_MAX_DAYS)
    return back


async def change(
    session: AsyncSession,
    user_id: int,
    now: float,
    *,
    notify: str | None = None,
    quiet: str | None = None,
    zone: str | None = None,
    away: str | None = None,
) -> Reach:
    """Apply the options given (each checked first: bad input changes nothing) and return the
    settings as they now stand."""
    rows = await repo.players(session, [user_id])
    before = Reach.of(rows[user_id]) if user_id in rows else Reach(user_id)
    fields: dict[str, Any] = {}
    if notify is not None:
        chosen = notify.strip().lower()
        if chosen not in NOTIFY:
            raise Refusal("me.error.notify", choices=", ".join(NOTIFY))
        fields["notify"] = chosen
        fields["dm_closed"] = False  # they ask again: try again
    if zone is not None:
        fields["time_zone"] = parse_zone(zone)
    if quiet is not None:
        window = parse_quiet(quiet)
        fields["quiet_start"], fields["quiet_end"] = window if window else (None, None)
    if away is not None:
        fields["away_until"] = parse_away(away, fields.get("time_zone", before.zone), now)
    if fields:
        await repo.set_player(session, user_id, **fields)
        rows = await repo.players(session, [user_id])
    return Reach.of(rows[user_id]) if user_id in rows else before


def shown(reach: Reach, lang: str, now: float) -> Text:
    """The settings as the user reads them."""
    said = [phrase("me.shown.head", lang), phrase(f"me.shown.notify.{reach.notify}", lang)]
    if reach.dm_closed and reach.notify != "mention":
        said.append(phrase("me.shown.dm_closed", lang))
    if reach.quiet is None:
        said.append(phrase("me.shown.no_quiet", lang))
    else:
        start, end = reach.quiet
        window = f"{start // 60:02d}:{start % 60:02d}–{end // 60:02d}:{end % 60:02d}"
        said.append(phrase("me.shown.quiet", lang, hours=Strong(window), zone=reach.zone))
        if reach.quiet_until(now) is not None:
            said.append(phrase("me.shown.quiet_now", lang))
    if reach.away(now):
        assert reach.away_until is not None
        said.append(phrase("me.shown.away", lang, until=When(int(reach.away_until), "D")))
    else:
        said.append(phrase("me.shown.not_away", lang))
    if reach.zone == UTC and (reach.quiet is not None or reach.away(now)):
        said.append(phrase("me.shown.zone_hint", lang))
    if reach.notify == DM:
        said.append(phrase("me.shown.dm_hint", lang))
    return lines(said)
