"""Failures injected into the fake Discord at chosen requests: 5xx, 429s, latency.

A test describes a :class:`Fault` and hands it to ``fake.inject``; every REST request the bot
makes afterwards is matched against the live faults in the order they were injected, and the
first that matches answers instead of the fake (``status``) and/or holds the request back
(``delay``) before it is handled::

    fake.inject(Fault(method="POST", route="/channels/{channel_id}/messages", status=503))
    fake.inject(Fault(route=CALLBACK, delay=3.5, times=None))   # every callback 3.5 s late
    fake.inject(Fault(channel_id=thread, status=429, retry_after=60, scope="shared"))

Routes are named by discord.py's route templates (``discord.http.Route.path``), e.g.
``/channels/{channel_id}/messages`` or
``/interactions/{interaction_id}/{interaction_token}/callback``; :func:`template` turns the
fake's own routes into those names. ``fake.requests`` records every request as a
:class:`Request` (method, template, path, status, time), which is how tests count REST calls
and refused (4xx) requests.

Where the contract in the brief could not be met exactly:

- ``times=None`` (an extension) means "every matching request, for ever", for latency that
  lasts a whole scenario.
- A 429 always carries Discord's ``Via: 1.1 google`` header (without it discord.py takes the
  429 for a Cloudflare ban and raises at once) and the ``X-RateLimit-*`` headers of a spent
  bucket; a ``"shared"`` 429 is, as on Discord, not counted as the bot's fault.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import NamedTuple

from aiohttp import web

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"
ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
POST = "/channels/{channel_id}/messages"
EDIT = "/channels/{channel_id}/messages/{message_id}"
THREAD = "/channels/{channel_id}/messages/{message_id}/threads"
CHANNEL = "/channels/{channel_id}"
DM = "/users/@me/channels"

# The fake's route parameters → discord.py's names (``token`` and ``app`` depend on the route).
_NAMES = {
    "channel": "channel_id",
    "message": "message_id",
    "guild": "guild_id",
    "id": "interaction_id",
}


def template(canonical: str, match_info: dict[str, str]) -> str:
    """The discord.py route template of a request the fake routed to ``canonical`` (an aiohttp
    resource like ``/api/v10/webhooks/{app}/{token}/messages/{message}``)."""
    path = canonical.removeprefix("/api/v10")
    names = dict(_NAMES)
    if path.startswith("/webhooks/"):
        names.update(app="webhook_id", token="webhook_token")
        if match_info.get("message") == "@original":
            path = path.replace("{message}", "@original")
    elif path.startswith("/interactions/"):
        names.update(token="interaction_token")
    else:
        names.update(app="application_id")
    for ours, theirs in names.items():
        path = path.replace("{" + ours + "}", "{" + theirs + "}")
    return path


class Request(NamedTuple):
    """One REST request the fake answered."""

    method: str
    route: str  # discord.py's template, e.g. "/channels/{channel_id}/messages"
    path: str
    status: int
    time: float  # time.monotonic() when it was answered
    channel_id: int | None = None
    injected: bool = False  # answered (or delayed) by an injected fault


@dataclass
class Fault:
    """What to do to the requests that match (``None``: any method, route or channel)."""

    method: str | None = None
    route: str | None = None
    channel_id: int | None = None
    status: int | None = 503  # None: serve the request (after ``delay``)
    retry_after: float = 1.0
    scope: str = "user"  # "user" | "global" | "shared" (429 only)
    delay: float = 0.0
    times: int | None = 1  # None: no end
    after: int = 0
    hits: int = 0
    seen: int = field(default=0, repr=False)

    def matches(self, method: str, route: str, channel_id: int | None) -> bool:
        return (
            (self.method is None or self.method == method)
            and (self.route is None or self.route == route)
            and (self.channel_id is None or self.channel_id == channel_id)
        )

    @property
    def spent(self) -> bool:
        return self.times is not None and self.hits >= self.times

    def take(self, method: str, route: str, channel_id: int | None) -> bool:
        """Whether this fault hits this request (counting it)."""
        if self.spent or not self.matches(method, route, channel_id):
            return False
        self.seen += 1
        if self.seen <= self.after:
            return False
        self.hits += 1
        return True


def error(status: int, code: int, message: str) -> web.Response:
    # discord.py compares the whole Content-Type header: no "; charset=utf-8".
    return web.Response(
        body=json.dumps({"code": code, "message": message}).encode(),
        status=status,
        headers={"Content-Type": "application/json"},
    )


def too_many(
    retry_after: float,
    scope: str,
    bucket: str | None = None,
    limit: int = 1,
) -> web.Response:
    """Discord's 429: JSON ``retry_after``/``global``, the scope header, and ``Via`` (which
    discord.py requires to believe a 429 comes from Discord rather than Cloudflare)."""
    is_global = scope == "global"
    body = {
        "message": "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": is_global,
        "code": 0,
    }
    headers = {
        "Content-Type": "application/json",
        "Via": "1.1 google",
        "Retry-After": str(max(1, round(retry_after + 0.4999))),
        "X-RateLimit-Scope": scope,
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    else:
        headers.update(
            {
                "X-RateLimit-Limit": str(limit),
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                "X-RateLimit-Bucket": bucket or "fault",
            }
        )
    return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)


def answer(fault: Fault) -> web.Response:
    """What the fake answers for ``fault`` in place of the request."""
    assert fault.status is not None
    if fault.status == 429:
        return too_many(fault.retry_after, fault.scope)
    messages = {500: "500: Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}
    return error(fault.status, 0, messages.get(fault.status, f"{fault.status}: injected"))


def first(faults: list[Fault], method: str, route: str, channel_id: int | None) -> Fault | None:
    """The fault that takes this request (the first injected, among the live ones)."""
    for fault in faults:
        if fault.take(method, route, channel_id):
            return fault
    return None


def invalid(requests: list[Request]) -> list[Request]:
    """Requests Discord holds against the bot: every 4xx the fake answered itself (an injected
    429 is the test's doing, not the bot's)."""
    return [r for r in requests if 400 <= r.status < 500 and not (r.injected and r.status == 429)]
