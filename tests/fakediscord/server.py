"""A fake Discord on loopback that the real, unmodified discord.py client talks to.

It serves the REST routes the bot uses and the gateway (HELLO, IDENTIFY, READY, GUILD_CREATE,
heartbeats), and lets a test act as users: send slash commands, autocomplete requests and
component clicks, then read what the bot sent back. Every request body is checked against
Discord's own request schema for its route (:mod:`tests.fakediscord.schema`, a subset of Discord's
OpenAPI file) and against the documented limits the schema does not express
(:mod:`tests.fakediscord.limits`); a violation is answered with Discord's "Invalid Form Body"
error and recorded, and :meth:`FakeDiscord.check` fails the test, as it does when an answer of
the fake is not what Discord's response schema says.
It keeps Discord's rules under load (:mod:`tests.fakediscord.ratelimits`: buckets, 429s; the
3 s interaction window; auto-archive; ``enforce_nonce``; gateway RESUME in
:mod:`tests.fakediscord.gateway`), and a test can make it fail as Discord fails
(:mod:`tests.fakediscord.faults`: 5xx, 429s, latency, gateway drops, deleted channels).

Usage::

    async with FakeDiscord() as fake:          # points discord.py at the fake
        await async_sync_commands(fake.token, fake.guild_id)
        bot = PartidaBot(...); await fake.run(bot)
        alice = fake.add_user(1, "Alice")
        answer = await (await fake.slash(alice, "tiny new", rounds=2)).result()
"""

from __future__ import annotations

import asyncio
import base64
import datetime
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from tests.fakediscord import faults, limits, schema
from tests.fakediscord import payloads as p
from tests.fakediscord.faults import Fault, Request
from tests.fakediscord.gateway import Gateway
from tests.fakediscord.ratelimits import RateLimits

PING, COMMAND, COMPONENT, AUTOCOMPLETE = 1, 2, 3, 4
# An interaction the gateway delivers this much after its creation was held by a slow or
# dropped gateway (the test's doing), not by the bot.
LATE_DELIVERY = 0.25
EPHEMERAL = 1 << 6
USER_OPTION = limits.USER
# Registered commands' ids by (guild or None, type, name): see FakeDiscord._sync.
_COMMAND_IDS: dict[tuple[int | None, int, Any], int] = {}


@dataclass
class FakeUser:
    id: int
    name: str
    locale: str = "en-US"
    manage: bool = False

    @property
    def payload(self) -> dict[str, Any]:
        return p.user(self.id, self.name)


@dataclass
class Sent:
    """One message the bot created or edited (interaction response, followup, edit, channel)."""

    kind: str  # "response" | "followup" | "edit" | "channel"
    channel_id: int
    payload: dict[str, Any]
    files: dict[str, bytes]
    message: dict[str, Any]
    # When Discord took it (``time.monotonic()``, like ``Request.time``): what a reader of the
    # channel sees from then on, however late the bot's library returns.
    at: float = field(default_factory=time.monotonic)

    @property
    def content(self) -> str:
        return str(self.message.get("content") or "")

    @property
    def embeds(self) -> list[str]:
        """The descriptions of the message's embeds (where the bot puts the narration)."""
        return [str(e.get("description") or "") for e in self.message.get("embeds") or []]

    @property
    def text(self) -> str:
        """Everything a reader sees written: the content, then the embeds."""
        return "\n".join([self.content, *self.embeds]).strip("\n")

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.message.get("flags") or 0) & EPHEMERAL)

    @property
    def components(self) -> list[dict[str, Any]]:
        return [
            c for row in self.message.get("components") or [] for c in row.get("components", [])
        ]

    @property
    def buttons(self) -> dict[str, str]:
        """label → custom_id of every button."""
        return {c.get("label", ""): c["custom_id"] for c in self.components if c.get("type") == 2}

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.components if c.get("type") == 3]

    @property
    def allowed_mentions(self) -> dict[str, Any]:
        return dict(self.payload.get("allowed_mentions") or {})


@dataclass
class Exchange:
    """One interaction sent to the bot and everything that came back for it."""

    id: int
    token: str
    type: int
    user: FakeUser
    sent_at: float
    channel_id: int
    callback: dict[str, Any] | None = None
    callback_at: float | None = None
    messages: list[Sent] = field(default_factory=list)
    answer: Sent | None = None
    choices: list[dict[str, Any]] | None = None
    original: Sent | None = None
    message_id: int | None = None  # the message whose component was clicked
    done: asyncio.Event = field(default_factory=asyncio.Event)
    # Why Discord did not deliver it to the bot (an archived thread, a deleted channel).
    refused: str | None = None
    delivered_at: float | None = None  # on the fake's clock, when the gateway sent it
    # Made late or refused by the test's own faults: check() leaves its fate to the test.
    excused: bool = False
    window: Callable[[], float] = field(default=lambda: limits.RESPONSE_WINDOW, repr=False)
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)

    @property
    def failed(self) -> bool:
        """The user sees "This interaction failed": no successful initial response within the
        window (or Discord never delivered the interaction)."""
        if self.refused is not None:
            return True
        if self.callback is not None:
            return False
        return self.clock() - self.sent_at > self.window()

    @property
    def deferred(self) -> bool:
        return self.callback is not None and self.callback.get("type") in (5, 6)

    async def result(self, timeout: float = 10.0) -> Sent:
        """The visible answer: the response message, or the edit that replaced "thinking…"."""
        await asyncio.wait_for(self.done.wait(), timeout)
        assert self.answer is not None, f"no message answered interaction {self.id}"
        return self.answer

    async def autocomplete(self, timeout: float = 5.0) -> list[dict[str, Any]]:
        await asyncio.wait_for(self.done.wait(), timeout)
        assert self.choices is not None
        return self.choices


class FakeDiscord:
    """The fake server. One guild with one text channel by default."""

    application_id = 900_000_000_000_000_001
    guild_id = 910_000_000_000_000_001
    channel_id = 920_000_000_000_000_001

    def __init__(self, guild_locale: str = "en-US") -> None:
        # Shaped like a real bot token: the bot's id in base64, a timestamp, an HMAC.
        bot_id = base64.urlsafe_b64encode(str(self.application_id).encode()).decode().rstrip("=")
        self.token = f"{bot_id}.{secrets.token_hex(3)}.{secrets.token_hex(19)}"
        self.guild_locale = guild_locale
        self.bot_user = p.user(self.application_id, "Partida", bot=True)
        self.channels = {self.channel_id: "games"}
        # Channels where the bot lacks Send Messages without the gateway having said so (the
        # cache still shows it may post): posts and edits there are refused with 403, and
        # interactions there carry app_permissions without it. ``deny`` tells the gateway.
        self.forbidden: set[int] = set()
        # The bot's role (what an invite with the documented permissions gives), and per
        # channel the permissions an overwrite denies the bot (both sent in GUILD_CREATE).
        self.bot_permissions = p.BOT_PERMISSIONS | p.THREAD_PERMISSIONS
        self.denied: dict[int, int] = {}
        # Whether the bot may create public threads, send in them and archive them (Create
        # Public Threads, Send Messages in Threads, Manage Threads); False: threads refused.
        self.threads_allowed = True
        self.threads: dict[int, dict[str, Any]] = {}  # thread id → its channel object
        # Direct messages the bot sent: (user id, message); users who accept none (50007).
        self.direct: list[tuple[int, Sent]] = []
        self.dms_closed: set[int] = set()
        # Every post, edit or DM refused for want of a permission or on a locked thread, as
        # (channel id, Discord's error code): what Discord counts towards banning a bot.
        self.refused: list[tuple[int, int]] = []
        self._dm_channels: dict[int, int] = {}  # DM channel id → its user
        self.users: dict[int, FakeUser] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.sync_payloads: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.exchanges: dict[str, Exchange] = {}
        self.posted: list[Sent] = []
        self.violations: list[str] = []
        # Answers of the fake that Discord's response schemas say Discord would not give.
        self.unlike_discord: list[str] = []
        self.schema_checked: set[tuple[str, str, int]] = set()  # (method, path, status)
        self.messages: dict[int, Sent] = {}
        self.edits: list[Sent] = []  # every edit of a channel message, in order
        # Every REST request the bot made after logging in: (method, route), e.g.
        # ("POST", "/channels/{channel}/messages"); login and command sync are not counted.
        self.calls: list[tuple[str, str]] = []
        self.identified = asyncio.Event()
        # Extra "still working" signals for idle(), e.g. a bot's count of commands in progress.
        self.busy_checks: list[Callable[[], bool]] = []
        self.gateway = Gateway(self.token, self._ready, self._delivered)
        # Discord's behaviour under load and failure (tests.fakediscord.faults, .ratelimits):
        self.window = limits.RESPONSE_WINDOW  # seconds to answer an interaction
        self.token_lifetime = 15 * 60.0  # seconds an interaction token takes follow-ups
        self.faults: list[Fault] = []
        self.requests: list[Request] = []
        self.ratelimits = RateLimits()
        self.deleted: set[int] = set()
        self.nonce_lifetime = 5 * 60.0  # enforce_nonce: a nonce is remembered this long
        self._nonces: dict[tuple[int, str], tuple[float, Sent]] = {}
        self._activity: dict[int, float] = {}  # thread id → last message or reopening
        self._offset = 0.0  # fake.advance(): the fake's clock runs ahead of the real one
        self._tasks: set[asyncio.Task[None]] = set()
        self._inflight = 0
        self._last_request = time.monotonic()
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL] | None = None
        self.port = 0

    # ------------------------------------------------------------------ life cycle

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        # Discord takes 10 MiB files (limits.py checks them); aiohttp's own default is 1 MiB.
        app = web.Application(
            # _faulty answers as Discord fails (injected 5xx, 429s, latency) before anything
            # else; inside it, Discord's schemas refuse bad bodies and check the fake's answers.
            middlewares=[
                self._track,
                self._faulty,
                schema.middleware(self.violations, self.unlike_discord, self.schema_checked),
            ],
            client_max_size=limits.MAX_ATTACHMENT * limits.MAX_ATTACHMENTS + 2**20,
        )
        app.router.add_get("/gw", self.gateway.handle)
        api = "/api/v10"
        app.router.add_get(api + "/users/@me", self._me)
        app.router.add_get(api + "/oauth2/applications/@me", self._application)
        app.router.add_get(api + "/gateway/bot", self._gateway_bot)
        app.router.add_get(api + "/gateway", self._gateway_bot)
        app.router.add_put(api + "/applications/{app}/commands", self._sync)
        app.router.add_put(api + "/applications/{app}/guilds/{guild}/commands", self._sync)
        app.router.add_get(api + "/applications/{app}/commands", self._list_commands)
        app.router.add_get(api + "/applications/{app}/guilds/{guild}/commands", self._list_commands)
        app.router.add_post(api + "/interactions/{id}/{token}/callback", self._callback)
        app.router.add_post(api + "/webhooks/{app}/{token}", self._followup)
        app.router.add_patch(api + "/webhooks/{app}/{token}/messages/{message}", self._edit)
        app.router.add_delete(api + "/webhooks/{app}/{token}/messages/{message}", self._delete)
        app.router.add_post(api + "/channels/{channel}/messages", self._channel_message)
        app.router.add_post(api + "/users/@me/channels", self._open_dm)
        app.router.add_get(api + "/channels/{channel}", self._get_channel)
        app.router.add_patch(
            api + "/channels/{channel}/messages/{message}", self._edit_channel_message
        )
        app.router.add_post(
            api + "/channels/{channel}/messages/{message}/threads", self._start_thread
        )
        app.router.add_patch(api + "/channels/{channel}", self._edit_channel)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]  # the port the system chose
        # Point discord.py at us (class attributes, read when a client is created/connects).
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = f"http://127.0.0.1:{self.port}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.ws_url)

    async def stop(self) -> None:
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gw"

    async def run(self, bot: discord.Client, timeout: float = 10.0) -> asyncio.Task[None]:
        """Log ``bot`` in and connect it; returns once it is ready (the task runs the bot)."""
        self.identified.clear()
        await bot.login(self.token)
        task = asyncio.create_task(bot.connect(reconnect=False))
        waiter = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {task, waiter}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if waiter not in done:
            waiter.cancel()
            if task in done:
                task.result()  # raise the connection error
            raise TimeoutError("the bot did not become ready")
        return task

    # ------------------------------------------------------------------ test API

    def add_user(
        self, user_id: int, name: str, locale: str = "en-US", *, manage: bool = False
    ) -> FakeUser:
        user = FakeUser(user_id, name, locale, manage)
        self.users[user_id] = user
        return user

    def registered(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        return self.commands.get(guild_id, [])

    async def slash(
        self,
        user: FakeUser,
        path: str,
        channel_id: int | None = None,
        *,
        age: float = 0.0,
        **options: Any,
    ) -> Exchange:
        """``/path words`` with ``options`` by name (a member option takes a FakeUser).
        ``age``: the interaction was created that many seconds ago."""
        data = self._command_data(path, options, focused=None)
        return await self._interact(COMMAND, user, data, channel_id, age=age)

    async def autocomplete(
        self,
        user: FakeUser,
        path: str,
        focused: str,
        typed: str = "",
        channel_id: int | None = None,
        **options: Any,
    ) -> list[dict[str, Any]]:
        data = self._command_data(path, {**options, focused: typed}, focused=focused)
        exchange = await self._interact(AUTOCOMPLETE, user, data, channel_id)
        return await exchange.autocomplete()

    async def click(
        self, user: FakeUser, sent: Sent, label_or_id: str, *, age: float = 0.0
    ) -> Exchange:
        """Click a button of a message the bot sent, by label or custom_id."""
        custom_id = sent.buttons.get(label_or_id, label_or_id)
        if custom_id not in sent.buttons.values():
            raise AssertionError(f"no button {label_or_id!r} in {sent.buttons}")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(
            COMPONENT, user, data, sent.channel_id, message=sent.message, age=age
        )

    async def forge(self, user: FakeUser, sent: Sent, custom_id: str) -> Exchange:
        """A click on ``sent`` with any ``custom_id``, as a modified client can send: the id
        need not be one of the message's buttons."""
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(COMPONENT, user, data, sent.channel_id, message=sent.message)

    async def choose(
        self, user: FakeUser, sent: Sent, custom_id: str, values: list[str], *, age: float = 0.0
    ) -> Exchange:
        select = next((s for s in sent.selects if s["custom_id"] == custom_id), None)
        if select is None:
            raise AssertionError(f"no select {custom_id!r}")
        allowed = {o["value"] for o in select["options"]}
        assert set(values) <= allowed, f"{values} not among {allowed}"
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        return await self._interact(
            COMPONENT, user, data, sent.channel_id, message=sent.message, age=age
        )

    # ------------------------------------------------------------------ faults (faults.py)

    def inject(self, fault: Fault) -> Fault:
        """Answer (or delay) the requests ``fault`` matches; see :mod:`tests.fakediscord.faults`."""
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self.faults.clear()
        self.gateway_delay = 0.0

    @property
    def gateway_delay(self) -> float:
        """Seconds each gateway dispatch is held back (latency towards the bot)."""
        return self.gateway.delay

    @gateway_delay.setter
    def gateway_delay(self, seconds: float) -> None:
        self.gateway.delay = seconds

    async def drop_gateway(self, resume: bool = True, *, down: float = 0.0) -> None:
        """Close the bot's gateway socket: ``resume`` with close code 4000 (the bot RESUMEs and
        gets what it missed), else 4009 (its RESUME is answered INVALID_SESSION; it IDENTIFYs
        again and what happened meanwhile is lost). ``down``: the link stays down that long
        (the next connection waits for its HELLO); dispatches meanwhile are held."""
        await self.gateway.drop(resume=resume, down=down)

    async def connected(self, timeout: float = 10.0) -> None:
        """Wait until the bot's session is up again (READY or RESUMED)."""
        await asyncio.wait_for(self.gateway.live.wait(), timeout)

    async def delete_channel(self, channel_id: int) -> None:
        """A moderator deletes a channel or thread: every later request for it is 404 10003."""
        self.deleted.add(channel_id)
        thread = self.threads.pop(channel_id, None)
        self.channels.pop(channel_id, None)
        if thread is not None:
            gone = {k: thread[k] for k in ("id", "guild_id", "parent_id", "type")}
            await self._dispatch("THREAD_DELETE", gone)
        else:
            channel = p.text_channel(channel_id, self.guild_id, "deleted")
            await self._dispatch("CHANNEL_DELETE", channel)

    async def archive(self, thread_id: int) -> None:
        """The thread archives now (as it does after ``auto_archive_duration`` of quiet)."""
        self._set_archived(self.threads[thread_id], True)
        await self._dispatch("THREAD_UPDATE", self.threads[thread_id])

    def now(self) -> float:
        """The fake's clock: the real monotonic one, plus every :meth:`advance`."""
        return time.monotonic() + self._offset

    def advance(self, seconds: float) -> None:
        """Move the fake's clock on: threads auto-archive, interaction windows and tokens
        expire as if that much time had passed (rate limits keep real time)."""
        self._offset += seconds
        self._expire_threads()

    def _set_archived(self, thread: dict[str, Any], archived: bool) -> None:
        meta = thread["thread_metadata"]
        meta["archived"] = archived
        meta["archive_timestamp"] = _iso(time.time() + self._offset)
        if not archived:
            self._activity[int(thread["id"])] = self.now()

    def _expire_threads(self) -> None:
        """Archive every thread quiet for its ``auto_archive_duration`` (THREAD_UPDATE)."""
        now = self.now()
        for thread_id, thread in self.threads.items():
            meta = thread["thread_metadata"]
            quiet = now - self._activity.get(thread_id, now)
            if not meta["archived"] and quiet >= 60 * int(meta["auto_archive_duration"]):
                self._set_archived(thread, True)
                self._later(self._dispatch("THREAD_UPDATE", thread))

    def _later(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _delivered(self, frame: dict[str, Any]) -> None:
        """The gateway sent ``frame`` to the bot: note when an interaction arrived."""
        if frame.get("t") != "INTERACTION_CREATE":
            return
        exchange = self.exchanges.get(frame["d"]["token"])
        if exchange is not None:
            exchange.delivered_at = self.now()
            if exchange.delivered_at - exchange.sent_at > LATE_DELIVERY:
                exchange.excused = True  # a slow or dropped gateway: the test's doing

    def _channel_of(self, request: web.Request) -> int | None:
        """The channel (or thread) a request is about, if any."""
        match = request.match_info
        if "channel" in match:
            return int(match["channel"])
        exchange = self.exchanges.get(match.get("token", ""))
        return exchange.channel_id if exchange is not None else None

    @web.middleware
    async def _faulty(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Injected faults, deleted channels and rate limits, before the route's handler."""
        if request.path == "/gw":
            return await handler(request)
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else request.path
        route = faults.template(canonical, dict(request.match_info))
        channel_id = self._channel_of(request)
        self._expire_threads()
        delay, hit = 0.0, None
        for fault in self.faults:
            if fault.status is None or hit is None:
                if fault.take(request.method, route, channel_id):
                    delay = max(delay, fault.delay)
                    hit = fault if fault.status is not None else hit
        injected = delay > 0 or hit is not None
        exchange = self.exchanges.get(request.match_info.get("token", ""))
        if injected and exchange is not None:
            exchange.excused = True
        if delay:
            await asyncio.sleep(delay)
        response: web.StreamResponse
        if hit is not None:
            response = faults.answer(hit)
        elif channel_id is not None and channel_id in self.deleted:
            response = faults.error(404, 10003, "Unknown Channel")
        else:
            major = str(channel_id) if "channel" in request.match_info else ""
            if "token" in request.match_info:
                major = request.match_info["token"]
            limited, headers = self.ratelimits.check(request.method, route, major)
            if limited is not None:
                response = limited
            else:
                response = await handler(request)
                response.headers.update(headers)
        self.requests.append(
            Request(
                request.method,
                route,
                request.path,
                response.status,
                time.monotonic(),
                channel_id,
                injected,
            )
        )
        return response

    async def idle(self, quiet: float = 0.1, timeout: float = 10.0) -> None:
        """Wait until the bot has sent nothing for ``quiet`` seconds (and nothing is in flight)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            quiet_now = self._inflight == 0 and time.monotonic() - self._last_request >= quiet
            # A full bucket: discord.py may be waiting for its reset to send (nothing in flight).
            quiet_now = quiet_now and not self.ratelimits.holding(quiet)
            if quiet_now and not any(check() for check in self.busy_checks):
                return
            await asyncio.sleep(quiet / 4)
        raise TimeoutError("the bot kept sending")

    def in_channel(self, channel_id: int | None = None) -> list[Sent]:
        """Public messages in a channel: channel posts and non-ephemeral interaction messages.
        Without ``channel_id``: the default channel and the threads opened from it."""
        if channel_id is None:  # the default channel with its threads, where games now play
            wanted = {self.channel_id} | {
                t for t, c in self.threads.items() if c["parent_id"] == str(self.channel_id)
            }
        else:
            wanted = {channel_id}
        return [s for s in self.messages.values() if s.channel_id in wanted and not s.ephemeral]

    def check(self) -> None:
        """Fail on any body Discord would refuse (schema or limit), any answer of the fake
        unlike Discord's, an unanswered interaction, or "thinking…" left forever."""
        problems = self.violations + [f"the fake answered {u}" for u in self.unlike_discord]
        for exchange in self.exchanges.values():
            if exchange.excused or exchange.refused or exchange.delivered_at is None:
                continue  # the test's faults decided its fate; the test checks ex.failed
            if exchange.callback is None:
                problems.append(
                    f'interaction {exchange.id} was never answered ("This interaction failed")'
                )
            elif exchange.callback.get("type") == 5 and not exchange.messages:
                problems.append(f"interaction {exchange.id} was deferred and never followed up")
        assert not problems, "Discord would refuse or fail:\n" + "\n".join(problems)

    # ------------------------------------------------------------------ building interactions

    def _find_command(self, name: str) -> tuple[dict[str, Any], int | None]:
        for scope in (self.guild_id, None):
            for command in self.commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command, scope
        raise AssertionError(f"/{name} is not registered (sync the commands first)")

    def _command_data(
        self, path: str, options: dict[str, Any], focused: str | None
    ) -> dict[str, Any]:
        words = path.split()
        command, scope = self._find_command(words[0])
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1}
        if scope is not None:
            data["guild_id"] = str(scope)
        node, holder = command, data
        for word in words[1:]:
            spec = next(
                (o for o in node.get("options") or [] if o["name"] == word and o["type"] in (1, 2)),
                None,
            )
            if spec is None:
                raise AssertionError(f"no subcommand {word!r} in /{path}")
            sub: dict[str, Any] = {"type": spec["type"], "name": word, "options": []}
            holder.setdefault("options", []).append(sub)
            node, holder = spec, sub
        specs = {o["name"]: o for o in node.get("options") or [] if o["type"] not in (1, 2)}
        given: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        for name, value in options.items():
            spec = specs.get(name)
            if spec is None:
                raise AssertionError(f"/{path} has no option {name!r} (has {sorted(specs)})")
            entry: dict[str, Any] = {"type": spec["type"], "name": name}
            if name == focused:
                entry["value"], entry["focused"] = str(value), True
            elif spec["type"] == USER_OPTION:
                assert isinstance(value, FakeUser)
                entry["value"] = str(value.id)
                resolved.setdefault("users", {})[str(value.id)] = value.payload
                resolved.setdefault("members", {})[str(value.id)] = p.member(
                    value.payload, self._permissions(value), with_user=False
                )
            else:
                if spec.get("choices") and value not in [c["value"] for c in spec["choices"]]:
                    raise AssertionError(f"{value!r} is not a choice of {name}")
                entry["value"] = value
            given.append(entry)
        if focused is None:
            missing = [n for n, s in specs.items() if s.get("required") and n not in options]
            if missing:
                raise AssertionError(f"/{path} needs {missing}")
        holder.setdefault("options", []).extend(given)
        if resolved:
            data["resolved"] = resolved
        return data

    def _bot_permissions(self, channel_id: int | None = None) -> int:
        """The bot's permissions (in ``channel_id``: less its overwrite's denials, and Send
        Messages where it is ``forbidden``; a thread has its parent channel's)."""
        allowed = p.BOT_PERMISSIONS | (p.THREAD_PERMISSIONS if self.threads_allowed else 0)
        if channel_id is None:
            return allowed
        thread = self.threads.get(channel_id)
        parent = int(thread["parent_id"]) if thread is not None else channel_id
        allowed &= ~self.denied.get(parent, 0)
        if channel_id in self.forbidden or parent in self.forbidden:
            allowed &= ~(p.SEND_MESSAGES | p.SEND_MESSAGES_IN_THREADS)
        return allowed

    def _refusal(self, channel_id: int, files: bool, *, edit: bool = False) -> web.Response | None:
        """Discord's refusal of a post (or an edit) in ``channel_id``, or None: allowed."""
        thread = self.threads.get(channel_id)
        meta = thread["thread_metadata"] if thread is not None else {}
        if meta.get("archived") and (edit or meta.get("locked")):
            return self._refused(channel_id, 50083, "Thread is archived", 400)
        allowed = self._bot_permissions(channel_id)
        send = p.SEND_MESSAGES_IN_THREADS if thread is not None else p.SEND_MESSAGES
        if not allowed & p.VIEW_CHANNEL:
            return self._refused(channel_id, 50001, "Missing Access")
        if not allowed & send or (files and not allowed & p.ATTACH_FILES):
            return self._refused(channel_id, 50013, "Missing Permissions")
        return None

    def _refused(self, channel_id: int, code: int, text: str, status: int = 403) -> web.Response:
        self.refused.append((channel_id, code))
        return self._json({"code": code, "message": text}, status)

    def _permissions(self, user: FakeUser) -> int:
        return p.MEMBER_PERMISSIONS | (p.MANAGE_CHANNELS if user.manage else 0)

    async def _interact(
        self,
        kind: int,
        user: FakeUser,
        data: dict[str, Any],
        channel_id: int | None,
        message: dict[str, Any] | None = None,
        age: float = 0.0,
    ) -> Exchange:
        if self.gateway.session_id is None:
            raise AssertionError("no bot is connected")
        channel = channel_id or self.channel_id
        # Its id carries its creation time, as Discord's snowflakes do (``age`` ago).
        interaction_id = p.time_snowflake(time.time() + self._offset - age)
        token = "itoken." + secrets.token_hex(12)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "guild": {"id": str(self.guild_id), "locale": self.guild_locale, "features": []},
            "guild_id": str(self.guild_id),
            "channel": self.threads.get(channel)
            or p.text_channel(channel, self.guild_id, self.channels.get(channel, "games")),
            "channel_id": str(channel),
            "member": p.member(user.payload, self._permissions(user)),
            "token": token,
            "version": 1,
            "app_permissions": str(self._bot_permissions(channel)),
            "locale": user.locale,
            "guild_locale": self.guild_locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": limits.MAX_ATTACHMENT,
        }
        if message is not None:
            payload["message"] = message
        exchange = Exchange(interaction_id, token, kind, user, self.now() - age, channel)
        exchange.window, exchange.clock = (lambda: self.window), self.now
        exchange.excused = age > 0
        exchange.message_id = int(message["id"]) if message is not None else None
        self.exchanges[token] = exchange
        self._expire_threads()
        thread = self.threads.get(channel)
        if channel in self.deleted:
            exchange.refused = "Unknown Channel"
        elif kind in (COMMAND, AUTOCOMPLETE) and thread and thread["thread_metadata"]["archived"]:
            # Discord refuses application commands in an archived thread: the bot never hears.
            exchange.refused = "This thread is archived"
        if exchange.refused is None:
            await self._dispatch("INTERACTION_CREATE", payload)
        return exchange

    # ------------------------------------------------------------------ gateway

    async def _dispatch(self, event: str, data: dict[str, Any]) -> None:
        await self.gateway.dispatch(event, data)

    async def _ready(self, identify: dict[str, Any]) -> None:
        if identify.get("token") != self.token:
            self.violations.append("IDENTIFY with the wrong token")
        intents = int(identify.get("intents", 0))
        privileged = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content
        if intents & privileged:
            self.violations.append(f"IDENTIFY asks for privileged intents ({intents})")
        shard = identify.get("shard") or [0, 1]
        await self._dispatch(
            "READY",
            {
                "v": 10,
                "user": self.bot_user,
                "guilds": [{"id": str(self.guild_id), "unavailable": True}],
                "session_id": self.gateway.session_id,
                "resume_gateway_url": self.ws_url,
                "shard": shard,
                "application": {"id": str(self.application_id), "flags": 0},
            },
        )
        channels = [self._channel(cid) for cid in self.channels]
        guild = p.guild(self.guild_id, "Game night", channels, self.guild_locale, self.bot_user)
        guild["roles"].append(p.role(self.bot_role_id, "Partida", self.bot_permissions))
        guild["members"][0]["roles"] = [str(self.bot_role_id)]
        await self._dispatch("GUILD_CREATE", guild)
        self.identified.set()

    async def join_guild(
        self,
        guild_id: int,
        channels: dict[int, str],
        locale: str = "en-US",
        system_channel: int | None = None,
        denied: dict[int, int] | None = None,
    ) -> None:
        """The bot is added to another server: a GUILD_CREATE for a guild it did not have in
        READY (discord.py then fires ``on_guild_join``). ``denied``: per channel, permissions
        an overwrite takes from the bot. Its channels accept posts like the first guild's."""
        self.channels.update(channels)
        self.denied.update(denied or {})
        listed = []
        for position, channel_id in enumerate(channels):
            channel = self._channel(channel_id)
            channel["guild_id"] = str(guild_id)
            channel["position"] = position
            listed.append(channel)
        guild = p.guild(guild_id, "New server", listed, locale, self.bot_user)
        guild["system_channel_id"] = str(system_channel) if system_channel else None
        del guild["unavailable"]  # a guild joined now (unavailable=False: one back from an outage)
        role_id = guild_id + 1
        guild["roles"].append(p.role(role_id, "Partida", self.bot_permissions))
        guild["members"][0]["roles"] = [str(role_id)]
        await self._dispatch("GUILD_CREATE", guild)

    @property
    def bot_role_id(self) -> int:
        return self.guild_id + 1

    def _channel(self, channel_id: int) -> dict[str, Any]:
        channel = p.text_channel(channel_id, self.guild_id, self.channels[channel_id])
        if self.denied.get(channel_id):
            channel["permission_overwrites"] = [
                {
                    "id": str(self.application_id),
                    "type": 1,  # a member
                    "allow": "0",
                    "deny": str(self.denied[channel_id]),
                }
            ]
        return channel

    # ------------------------------------------------------------------ REST

    @web.middleware
    async def _track(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path == "/gw":  # the gateway stays open: not a request in flight
            return await handler(request)
        self._inflight += 1
        route = request.match_info.route.resource
        canonical = route.canonical if route is not None else request.path
        if not canonical.endswith(("/users/@me", "/applications/@me", "/commands", "/gateway/bot")):
            self.calls.append((request.method, canonical.removeprefix("/api/v10")))
        try:
            return await handler(request)
        finally:
            self._inflight -= 1
            self._last_request = time.monotonic()

    def _json(self, data: Any, status: int = 200) -> web.Response:
        # discord.py compares the whole Content-Type header: no "; charset=utf-8".
        return web.Response(
            body=json.dumps(data).encode(),
            status=status,
            headers={"Content-Type": "application/json"},
        )

    def _refuse(self, problems: list[str]) -> web.Response:
        self.violations.extend(problems)
        errors = {"_errors": [{"code": "BASE_TYPE_INVALID", "message": p} for p in problems]}
        return self._json({"code": 50035, "message": "Invalid Form Body", "errors": errors}, 400)

    async def _me(self, request: web.Request) -> web.Response:
        # Logging in is this request: Discord answers 401 to a token it does not know.
        if request.headers.get("Authorization") != f"Bot {self.token}":
            return self._json({"code": 0, "message": "401: Unauthorized"}, 401)
        return self._json({**self.bot_user, "mfa_enabled": False, "locale": "en-US"})

    async def _application(self, request: web.Request) -> web.Response:
        return self._json(
            {
                "id": str(self.application_id),
                "name": "Partida",
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": p.user(1, "Owner"),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
                "type": None,
                "flags_new": "0",
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "approximate_guild_count": 1,
                "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0,
                "eligible_oauth2_scopes": [],
            }
        )

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        return self._json(
            {
                "url": self.ws_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _sync(self, request: web.Request) -> web.Response:
        scope = int(request.match_info["guild"]) if "guild" in request.match_info else None
        if scope is not None and scope != self.guild_id:
            # A server the bot was not invited to (or an id that is no server's).
            return self._json({"code": 50001, "message": "Missing Access"}, 403)
        body = await request.json()
        self.sync_payloads.append((scope, body))
        problems = limits.check_commands(body)
        if problems:
            return self._refuse(problems)
        registered = []
        for command in body:
            command = {k: v for k, v in command.items() if v is not None}  # as Discord stores it
            # Discord keeps a command's id when a sync overwrites it (same name and type in the
            # same scope); every fake is the same application and guild, so it keeps it for the
            # whole process, and each test's answer to a sync is the one the schema check of an
            # earlier test already judged (schema.Schemas._verdict).
            known = (scope, command.get("type", 1), command.get("name"))
            if known not in _COMMAND_IDS:
                _COMMAND_IDS[known] = p.snowflake()
            command.update(
                id=str(_COMMAND_IDS[known]), application_id=str(self.application_id), version="1"
            )
            command.setdefault("type", 1)
            permissions = command.get("default_member_permissions")
            command["default_member_permissions"] = (
                None if permissions is None else str(permissions)
            )
            if scope is not None:
                command["guild_id"] = str(scope)
            registered.append(command)
        self.commands[scope] = registered
        return self._json(registered)

    async def _list_commands(self, request: web.Request) -> web.Response:
        scope = int(request.match_info["guild"]) if "guild" in request.match_info else None
        return self._json(self.commands.get(scope, []))

    async def _read(
        self, request: web.Request
    ) -> tuple[dict[str, Any], dict[str, tuple[bytes, str | None]]]:
        """The JSON payload and uploaded files (multipart: ``payload_json`` + ``files[n]``)."""
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            payload = json.loads(str(form["payload_json"]))
            files: dict[str, tuple[bytes, str | None]] = {}
            for key, value in form.items():
                if key.startswith("files[") and isinstance(value, web.FileField):
                    files[value.filename] = (value.file.read(), value.content_type)
            return payload, files
        if request.body_exists:  # not can_read_body: the schema check has read it already
            return await request.json(), {}
        return {}, {}

    def _store(
        self,
        kind: str,
        channel_id: int,
        payload: dict[str, Any],
        files: dict[str, tuple[bytes, str | None]],
        flags: int,
    ) -> Sent:
        attachments = [p.attachment(name, data, ctype) for name, (data, ctype) in files.items()]
        message = p.message(
            p.snowflake(),
            channel_id,
            self.bot_user,
            payload,
            attachments,
            flags=flags,
            guild_id=self.guild_id,
        )
        sent = Sent(kind, channel_id, payload, {n: d for n, (d, _) in files.items()}, message)
        self.messages[int(message["id"])] = sent
        return sent

    async def _callback(self, request: web.Request) -> web.Response:
        exchange = self.exchanges.get(request.match_info["token"])
        if exchange is None or str(exchange.id) != request.match_info["id"]:
            return self._json({"code": 10062, "message": "Unknown interaction"}, 404)
        body, files = await self._read(request)
        now = self.now()
        if exchange.callback is not None:
            self.violations.append(f"interaction {exchange.id} answered twice")
            return self._json(
                {"code": 40060, "message": "Interaction has already been acknowledged."}, 400
            )
        elapsed = now - exchange.sent_at
        if elapsed > self.window:
            if not exchange.excused:
                self.violations.append(
                    f"interaction {exchange.id} answered after {elapsed:.2f} s "
                    f"(limit {self.window:g} s)"
                )
            return self._json({"code": 10062, "message": "Unknown interaction"}, 404)
        kind = body.get("type")
        data = body.get("data") or {}
        where = f"interaction {exchange.id} response"
        if kind == 8:
            problems = limits.check_autocomplete(data.get("choices"))
            if exchange.type != AUTOCOMPLETE:
                problems.append(f"{where}: autocomplete result for a non-autocomplete interaction")
            if problems:
                return self._refuse(problems)
            exchange.callback, exchange.callback_at, exchange.choices = body, now, data["choices"]
            exchange.done.set()
            return web.Response(status=204)
        if exchange.type == AUTOCOMPLETE:
            return self._refuse([f"{where}: type {kind} for an autocomplete interaction"])
        channel_id = exchange.channel_id
        flags = int(data.get("flags") or 0)
        sent = None
        if kind == 4:
            problems = limits.check_message(
                data, [(n, len(d)) for n, (d, _) in files.items()], where
            )
            if problems:
                return self._refuse(problems)
            sent = self._store("response", channel_id, data, files, flags)
            exchange.messages.append(sent)
            exchange.answer = sent
            exchange.done.set()
        elif kind == 5:
            sent = self._store("response", channel_id, {"content": ""}, {}, flags)
            sent.message["flags"] = flags | (1 << 7)  # LOADING
            exchange.messages.clear()
        elif kind in (6, 7):
            if exchange.type != COMPONENT:
                return self._refuse([f"{where}: type {kind} is only for component interactions"])
            if kind == 7:  # UPDATE_MESSAGE: the clicked message, edited by the response itself
                problems = limits.check_message(
                    data, [(n, len(d)) for n, (d, _) in files.items()], where, edit=True
                )
                if problems:
                    return self._refuse(problems)
                edited = self._update(exchange.message_id, data, files)
                if edited is None:
                    return self._json({"code": 10008, "message": "Unknown Message"}, 404)
                exchange.messages.append(edited)
                exchange.answer = edited
                exchange.done.set()
        else:
            return self._refuse([f"{where}: unexpected response type {kind}"])
        exchange.callback, exchange.callback_at = body, now
        exchange.original = sent
        response: dict[str, Any] = {
            "interaction": {
                "id": str(exchange.id),
                "type": exchange.type,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(flags & EPHEMERAL),
            }
        }
        if sent is not None:
            response["interaction"]["response_message_id"] = sent.message["id"]
        if sent is not None and kind in (4, 7):  # Discord's resource holds a message only then
            response["resource"] = {"type": kind, "message": sent.message}
        return self._json(response)

    def _token_refusal(self, exchange: Exchange | None) -> web.Response | None:
        """Follow-ups and edits by an interaction's token: only after its initial response,
        and for 15 minutes (then 401, 50027 "Invalid Webhook Token")."""
        if exchange is None or exchange.callback is None:
            return self._json({"code": 10015, "message": "Unknown Webhook"}, 404)
        if self.now() - exchange.sent_at > self.token_lifetime:
            return self._json({"code": 50027, "message": "Invalid Webhook Token"}, 401)
        return None

    async def _followup(self, request: web.Request) -> web.Response:
        exchange = self.exchanges.get(request.match_info["token"])
        refusal = self._token_refusal(exchange)
        if refusal is not None or exchange is None:
            return refusal or self._json({}, 404)
        body, files = await self._read(request)
        where = f"interaction {exchange.id} followup"
        problems = limits.check_message(body, [(n, len(d)) for n, (d, _) in files.items()], where)
        if problems:
            return self._refuse(problems)
        sent = self._store(
            "followup", exchange.channel_id, body, files, int(body.get("flags") or 0)
        )
        exchange.messages.append(sent)
        if exchange.answer is None:
            exchange.answer = sent
            exchange.done.set()
        return self._json(sent.message)

    async def _edit(self, request: web.Request) -> web.Response:
        exchange = self.exchanges.get(request.match_info["token"])
        refusal = self._token_refusal(exchange)
        if refusal is not None or exchange is None:
            return refusal or self._json({}, 404)
        target = request.match_info["message"]
        original = exchange.original
        if target == "@original" and (exchange.callback or {}).get("type") == 6:
            # A click deferred without a message (DEFERRED_UPDATE_MESSAGE): its original
            # response is the clicked message, edited like any channel message.
            body, files = await self._read(request)
            edited = self._update(exchange.message_id, body, files)
            if edited is None:
                return self._json({"code": 10008, "message": "Unknown Message"}, 404)
            exchange.messages.append(edited)
            exchange.answer = exchange.answer or edited
            exchange.done.set()
            return self._json(edited.message)
        if target == "@original":
            sent = original
        else:
            sent = self.messages.get(int(target))
        if sent is None:
            return self._json({"code": 10008, "message": "Unknown Message"}, 404)
        body, files = await self._read(request)
        where = f"interaction {exchange.id} edit"
        problems = limits.check_message(
            body, [(n, len(d)) for n, (d, _) in files.items()], where, edit=True
        )
        if problems:
            return self._refuse(problems)
        message = _edited(sent.message, body, files)
        message["flags"] = int(message.get("flags") or 0) & ~(1 << 7)
        edited = Sent("edit", sent.channel_id, body, {n: d for n, (d, _) in files.items()}, message)
        self.messages[int(message["id"])] = edited
        if original is not None and edited.message["id"] == original.message["id"]:
            exchange.original = edited
            if exchange.answer is None or exchange.answer.message["id"] == edited.message["id"]:
                exchange.answer = edited
        exchange.messages.append(edited)
        exchange.done.set()
        return self._json(message)

    async def _delete(self, request: web.Request) -> web.Response:
        exchange = self.exchanges.get(request.match_info["token"])
        if exchange is None:
            return self._json({"code": 10015, "message": "Unknown Webhook"}, 404)
        if self.now() - exchange.sent_at > self.token_lifetime:
            return self._json({"code": 50027, "message": "Invalid Webhook Token"}, 401)
        original = exchange.original
        if original is not None:
            self.messages.pop(int(original.message["id"]), None)
        exchange.messages.append(Sent("delete", exchange.channel_id, {}, {}, {}))
        exchange.done.set()
        return web.Response(status=204)

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        if channel_id not in self.channels:
            return self._json({"code": 10003, "message": "Unknown Channel"}, 404)
        if channel_id in self.threads:  # a thread is a channel object of its own type
            return self._json(self.threads[channel_id])
        return self._json(self._channel(channel_id))

    async def _channel_message(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        if channel_id in self._dm_channels:
            return await self._direct_message(request, channel_id)
        if channel_id not in self.channels:
            return self._json({"code": 10003, "message": "Unknown Channel"}, 404)
        body, files = await self._read(request)
        refusal = self._refusal(channel_id, bool(files))
        if refusal is not None:
            return refusal
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            earlier = self._nonces.get((channel_id, str(nonce)))
            if earlier is not None and self.now() - earlier[0] <= self.nonce_lifetime:
                return self._json(earlier[1].message)  # Discord: the message it already made
        thread = self.threads.get(channel_id)
        if thread is not None and thread["thread_metadata"]["archived"]:
            # A post opens an archived thread again, unless it is locked (refused above).
            self._set_archived(thread, False)
            await self._dispatch("THREAD_UPDATE", thread)
        problems = limits.check_message(
            body, [(n, len(d)) for n, (d, _) in files.items()], f"message in {channel_id}"
        )
        if problems:
            return self._refuse(problems)
        sent = self._store("channel", channel_id, body, files, 0)
        if nonce is not None:
            sent.message["nonce"] = nonce
            if body.get("enforce_nonce"):
                self._nonces[(channel_id, str(nonce))] = (self.now(), sent)
        if thread is not None:
            self._activity[channel_id] = self.now()
        self.posted.append(sent)
        return self._json(sent.message)

    def _update(
        self,
        message_id: int | None,
        body: dict[str, Any],
        files: dict[str, tuple[bytes, str | None]] | None = None,
    ) -> Sent | None:
        """Apply an edit of a channel message (its content, components, embeds, and its
        attachments when the edit sends files)."""
        sent = self.messages.get(message_id) if message_id is not None else None
        if sent is None:
            return None
        message = _edited(sent.message, body, files or {})
        message["edited_timestamp"] = p.TIMESTAMP
        kept = {n: d for n, (d, _) in files.items()} if files else sent.files
        edited = Sent("edit", sent.channel_id, body, kept, message)
        self.messages[int(message["id"])] = edited
        self.edits.append(edited)
        return edited

    async def _edit_channel_message(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        sent = self.messages.get(int(request.match_info["message"]))
        if sent is None or sent.channel_id != channel_id:
            return self._json({"code": 10008, "message": "Unknown Message"}, 404)
        body, files = await self._read(request)
        refusal = self._refusal(channel_id, bool(files), edit=True)
        if refusal is not None:
            return refusal
        problems = limits.check_message(
            body,
            [(n, len(d)) for n, (d, _) in files.items()],
            f"edit of {sent.message['id']}",
            edit=True,
        )
        if problems:
            return self._refuse(problems)
        message = _edited(sent.message, body, files)
        message["edited_timestamp"] = p.TIMESTAMP
        kept = {n: d for n, (d, _) in files.items()} if files else sent.files
        edited = Sent("edit", channel_id, body, kept, message)
        self.messages[int(message["id"])] = edited
        self.edits.append(edited)
        return self._json(message)

    async def _start_thread(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/messages/{mid}/threads: a public thread from a message."""
        channel_id = int(request.match_info["channel"])
        sent = self.messages.get(int(request.match_info["message"]))
        if sent is None or sent.channel_id != channel_id:
            return self._json({"code": 10008, "message": "Unknown Message"}, 404)
        if not self.threads_allowed:
            return self._json({"code": 50013, "message": "Missing Permissions"}, 403)
        body, _ = await self._read(request)
        name = str(body["name"])  # 1–100 characters: Discord's schema checked it
        thread_id = int(sent.message["id"])  # Discord gives the thread its message's id
        thread = p.thread_channel(thread_id, self.guild_id, channel_id, name)
        duration = int(body.get("auto_archive_duration") or 4320)  # the default: 3 days
        if duration not in (60, 1440, 4320, 10080):
            return self._refuse([f"thread auto_archive_duration {duration} is not allowed"])
        thread["thread_metadata"]["auto_archive_duration"] = duration
        self._activity[thread_id] = self.now()
        self.threads[thread_id] = thread
        self.channels[thread_id] = name
        await self._dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        return self._json(thread, 201)  # Discord answers a new thread with 201 Created

    async def _edit_channel(self, request: web.Request) -> web.Response:
        """PATCH /channels/{id}: here, archiving a thread (Manage Threads, or its creator)."""
        thread = self.threads.get(int(request.match_info["channel"]))
        if thread is None:
            return self._json({"code": 10003, "message": "Unknown Channel"}, 404)
        if not self.threads_allowed:
            return self._json({"code": 50013, "message": "Missing Permissions"}, 403)
        body, _ = await self._read(request)
        if "archived" in body:
            self._set_archived(thread, bool(body["archived"]))
        if "auto_archive_duration" in body:
            thread["thread_metadata"]["auto_archive_duration"] = int(body["auto_archive_duration"])
        if "name" in body:
            thread["name"] = str(body["name"])
        await self._dispatch("THREAD_UPDATE", thread)
        return self._json(thread)

    def archived(self, thread_id: int) -> bool:
        self._expire_threads()
        thread = self.threads.get(thread_id)
        return bool(thread and thread["thread_metadata"]["archived"])

    # ------------------------------------------------------------------ what admins do

    async def deny(self, channel_id: int, permissions: int) -> None:
        """An admin takes ``permissions`` from the bot in a channel (an overwrite): the gateway
        tells the bot (CHANNEL_UPDATE), and Discord refuses what needs them."""
        self.denied[channel_id] = self.denied.get(channel_id, 0) | permissions
        await self._dispatch("CHANNEL_UPDATE", self._channel(channel_id))

    async def allow(self, channel_id: int) -> None:
        """An admin removes the bot's overwrite in a channel."""
        self.denied.pop(channel_id, None)
        await self._dispatch("CHANNEL_UPDATE", self._channel(channel_id))

    async def lock(self, thread_id: int, *, locked: bool = True) -> None:
        """A moderator archives and locks a thread (``locked=False``: reopens it)."""
        meta = self.threads[thread_id]["thread_metadata"]
        meta["archived"] = meta["locked"] = locked
        await self._dispatch("THREAD_UPDATE", self.threads[thread_id])

    async def _open_dm(self, request: web.Request) -> web.Response:
        """POST /users/@me/channels: the DM channel with a user."""
        body, _ = await self._read(request)
        user_id = int(body["recipient_id"])
        user = self.users.get(user_id)
        if user is None:
            return self._json({"code": 10013, "message": "Unknown User"}, 404)
        channel_id = next((c for c, u in self._dm_channels.items() if u == user_id), None)
        if channel_id is None:
            channel_id = p.snowflake()
            self._dm_channels[channel_id] = user_id
        return self._json(p.dm_channel(channel_id, user.payload))

    async def _direct_message(self, request: web.Request, channel_id: int) -> web.Response:
        user_id = self._dm_channels[channel_id]
        if user_id in self.dms_closed:
            return self._refused(channel_id, 50007, "Cannot send messages to this user")
        body, files = await self._read(request)
        problems = limits.check_message(body, [], f"direct message to {user_id}")
        if problems:
            return self._refuse(problems)
        sent = self._store("dm", channel_id, body, files, 0)
        sent.message.pop("guild_id", None)  # a direct message belongs to no server
        self.direct.append((user_id, sent))
        return self._json(sent.message)

    def to(self, user: FakeUser) -> list[Sent]:
        """The direct messages the bot sent ``user``."""
        return [sent for user_id, sent in self.direct if user_id == user.id]

    async def _unknown(self, request: web.Request) -> web.Response:
        self.violations.append(f"unexpected request {request.method} {request.path}")
        return self._json({"code": 0, "message": "404: Not Found"}, 404)


def _iso(seconds: float) -> str:
    """An ISO 8601 timestamp, as Discord writes them."""
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).isoformat()


def _edited(message: dict[str, Any], body: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
    """A message as an edit leaves it: the fields the edit names replaced (``None``: cleared),
    and its attachments those the edit sends, when it sends any."""
    out = dict(message)
    for key in ("content", "components", "embeds"):
        if key in body:
            out[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
    out["components"], out["embeds"] = p.components(out["components"]), p.embeds(out["embeds"])
    if "attachments" in body or files:
        out["attachments"] = [p.attachment(n, d, c) for n, (d, c) in files.items()]
    return out
