"""Discord's rate limits, as the fake enforces them on every REST request.

From Discord's developer documentation ("Rate Limits"): every route belongs to a *bucket*, keyed
by the route and its top-level ("major") parameter (channel, guild, or webhook id + token); each
response carries the bucket's state in ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``,
``-Reset-After`` and ``-Bucket``; a request over the limit is answered 429 with a JSON body
(``message``, ``retry_after`` in seconds, ``global``) and the ``X-RateLimit-Scope`` header
(``user``, ``global`` or ``shared``), ``X-RateLimit-Global`` on a global one. A bot may make
50 requests a second in all (the *global* limit); interaction endpoints (callbacks and the
interaction webhooks) are not bound by it. Creating messages is limited to 5 per 5 seconds in a
channel. Discord's figures for other routes are not published (they are learned from the
headers); the fake gives them generous buckets so that the headers are there to learn.

Windows are fixed, as Discord's are: one opens at the first request after the last expired and
closes ``per`` seconds later. Time is the real monotonic clock, because discord.py waits out
``Reset-After`` in real time.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from aiohttp import web

from tests.fakediscord import faults

GLOBAL_LIMIT = 50  # requests per second for the bot, interaction endpoints excepted
GLOBAL_PER = 1.0


@dataclass(frozen=True)
class Rule:
    limit: int
    per: float


# (method, discord.py route template) → its bucket's limit; others get DEFAULT.
RULES: dict[tuple[str, str], Rule] = {
    ("POST", faults.POST): Rule(5, 5.0),  # "5 messages per 5 seconds" in a channel
    ("PATCH", faults.EDIT): Rule(5, 5.0),
    ("DELETE", faults.EDIT): Rule(5, 5.0),
    ("POST", faults.THREAD): Rule(5, 5.0),
    ("PATCH", faults.CHANNEL): Rule(5, 5.0),
    ("POST", faults.FOLLOWUP): Rule(5, 2.0),
    ("PATCH", faults.ORIGINAL): Rule(5, 2.0),
    ("DELETE", faults.ORIGINAL): Rule(5, 2.0),
    ("POST", faults.DM): Rule(10, 10.0),
}
DEFAULT = Rule(50, 1.0)
# Not limited and sent without bucket headers: an interaction takes exactly one callback.
UNLIMITED = {("POST", faults.CALLBACK)}


def exempt_from_global(route: str) -> bool:
    """Interaction endpoints are not bound to the global limit."""
    return route.startswith(("/interactions/", "/webhooks/"))


@dataclass
class Window:
    limit: int
    per: float
    opened: float = 0.0
    used: int = 0

    def reset_after(self, now: float) -> float:
        return max(0.0, self.opened + self.per - now)

    def take(self, now: float) -> bool:
        """Count a request; False when the window is already full."""
        if now >= self.opened + self.per:
            self.opened, self.used = now, 0
        if self.used >= self.limit:
            return False
        self.used += 1
        return True


class RateLimits:
    """The buckets of one fake Discord. ``enabled = False`` serves everything."""

    def __init__(self) -> None:
        self.enabled = True
        self.buckets: dict[tuple[str, str], Window] = {}
        self.global_window = Window(GLOBAL_LIMIT, GLOBAL_PER)
        self._scale = 1.0
        self.limited: list[tuple[str, str]] = []  # (bucket, major) of every 429 the fake gave

    @property
    def scale(self) -> float:
        """Every window's length times this: a whole game played through the fake waits out
        Discord's windows in a tenth of the time (the ``quick_windows`` fixture, which shortens
        the bot's own pace alike); the limits, headers and 429s are Discord's. Set it before
        the first request: a bucket keeps the length it was opened with."""
        return self._scale

    @scale.setter
    def scale(self, scale: float) -> None:
        self._scale = scale
        self.global_window.per = GLOBAL_PER * scale

    def holding(self, margin: float) -> bool:
        """Whether a full bucket may be holding a client back (discord.py waits for its reset
        without a request in flight): until ``margin`` after the reset."""
        now = time.monotonic()
        return any(
            w.used >= w.limit and now < w.opened + w.per + margin for w in self.buckets.values()
        )

    @staticmethod
    def bucket(method: str, route: str) -> str:
        """A stable opaque hash per route, as Discord's ``X-RateLimit-Bucket``."""
        return hashlib.sha1(f"{method} {route}".encode()).hexdigest()[:16]

    def check(
        self, method: str, route: str, major: str
    ) -> tuple[web.Response | None, dict[str, str]]:
        """(a 429 to answer instead, or None) and the headers to add to the real answer."""
        if not self.enabled or (method, route) in UNLIMITED:
            return None, {}
        now = time.monotonic()
        if not exempt_from_global(route) and not self.global_window.take(now):
            self.limited.append(("global", ""))
            return faults.too_many(self.global_window.reset_after(now), "global"), {}
        rule = RULES.get((method, route), DEFAULT)
        bucket = self.bucket(method, route)
        window = self.buckets.setdefault((bucket, major), Window(rule.limit, rule.per * self.scale))
        if not window.take(now):
            self.limited.append((bucket, major))
            return faults.too_many(window.reset_after(now), "user", bucket, rule.limit), {}
        reset_after = window.reset_after(now)
        return None, {
            "X-RateLimit-Limit": str(rule.limit),
            "X-RateLimit-Remaining": str(rule.limit - window.used),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }
