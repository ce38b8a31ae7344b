"""The fake's gateway session: sequence numbers, latency, drops, RESUME and re-IDENTIFY.

Discord's rules (developer documentation, "Gateway"): every dispatch (op 0) carries a sequence
number ``s``; a client that lost its connection sends RESUME (op 6) with its session id and the
last ``s`` it saw, and Discord replays every dispatch it missed, then RESUMED. Close code 4000
("unknown error") leaves the session resumable; 4009 ("session timed out") does not, and a
RESUME of a dead session is answered INVALID_SESSION (op 9, ``d: false``), after which the client
IDENTIFYs afresh and what happened in between is lost (an interaction created then never
reaches the bot). discord.py RESUMEs after either close code, so 4009 is seen through op 9.

``delay`` holds every dispatch back that many seconds (latency towards the bot), in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from aiohttp import web

HELLO = {"op": 10, "d": {"heartbeat_interval": 41250}}


class Gateway:
    """One bot's gateway session on the fake. ``on_identify`` sends READY and the guilds;
    ``on_sent`` hears of every dispatch that reached the bot."""

    def __init__(
        self,
        token: str,
        on_identify: Callable[[dict[str, Any]], Awaitable[None]],
        on_sent: Callable[[dict[str, Any]], None],
    ) -> None:
        self.token = token
        self.on_identify = on_identify
        self.on_sent = on_sent
        self.delay = 0.0
        self.ws: web.WebSocketResponse | None = None
        self.session_id: str | None = None
        self.resumable = False
        self.seq = 0
        self.history: list[dict[str, Any]] = []  # this session's dispatches, for replay
        self.sent = 0  # the highest ``s`` sent on the current socket
        self.attached = False  # the current socket carries the session (READY or RESUMED)
        self.down_until = 0.0  # a new connection gets its HELLO no earlier than this
        # Set by :meth:`close`: a connection held down gives up at once, so that a test that
        # ends during an outage does not wait for the outage's end in its teardown.
        self._closing = asyncio.Event()
        self.live = asyncio.Event()
        self.identifies = 0
        self.resumes = 0
        self.invalidated = 0
        self._queue: deque[tuple[float, dict[str, Any]]] = deque()
        self._wake = asyncio.Event()
        self._pump: asyncio.Task[None] | None = None

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    # ------------------------------------------------------------------ sending

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send (or, while the bot is away or the link is slow, hold) one dispatch."""
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": data}
        self.history.append(frame)
        loop = asyncio.get_running_loop()
        if self.delay <= 0 and not self._queue and self.attached:
            await self._send(frame)
            return
        self._queue.append((loop.time() + self.delay, frame))
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._drain())
        self._wake.set()

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        while self._queue:
            if not self.attached:
                self._wake.clear()
                await self._wake.wait()
                continue
            due, frame = self._queue[0]
            wait = due - loop.time()
            if wait > 0:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)
                continue
            self._queue.popleft()
            await self._send(frame)

    async def _send(self, frame: dict[str, Any]) -> None:
        if frame["s"] <= self.sent or self.ws is None or not self.attached:
            return
        try:
            await self.ws.send_str(json.dumps(frame))
        except (ConnectionError, RuntimeError):
            self.attached = False  # the socket went away; RESUME replays it
            return
        self.sent = frame["s"]
        self.on_sent(frame)

    # ------------------------------------------------------------------ connections

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        loop = asyncio.get_running_loop()
        if self.down_until > loop.time():  # the link is still down: no HELLO yet
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), self.down_until - loop.time())
            if self._closing.is_set():
                await ws.close()
                return ws
        await ws.send_str(json.dumps(HELLO))
        try:
            async for message in ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    continue
                payload = json.loads(message.data)
                op = payload.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    await self._identify(ws, payload["d"])
                elif op == 6:
                    await self._resume(ws, payload["d"])
        finally:
            if self.ws is ws:
                self.attached = False
                self.live.clear()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, identify: dict[str, Any]) -> None:
        self.identifies += 1
        self.ws, self.session_id, self.resumable = ws, secrets.token_hex(8), True
        self.seq, self.sent, self.history = 0, 0, []
        self._queue.clear()  # what the old session still owed is lost with it
        self.attached = True
        await self.on_identify(identify)
        self.live.set()

    async def _resume(self, ws: web.WebSocketResponse, resume: dict[str, Any]) -> None:
        if not (
            self.resumable
            and resume.get("session_id") == self.session_id
            and resume.get("token") == self.token
        ):
            self.invalidated += 1
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return
        self.resumes += 1
        self.ws, self.attached = ws, True
        self.sent = int(resume.get("seq") or 0)
        pending = {id(frame) for _, frame in self._queue}
        for frame in self.history:
            if frame["s"] > self.sent and id(frame) not in pending:
                await self._send(frame)
        # RESUMED closes the replay; it takes no new sequence number (dispatches still held
        # back by ``delay`` follow it with theirs).
        await ws.send_str(json.dumps({"op": 0, "t": "RESUMED", "s": self.sent, "d": {}}))
        self.live.set()
        self._wake.set()

    async def drop(self, *, resume: bool, down: float = 0.0) -> None:
        """Close the bot's socket: 4000 (the session can be resumed) or 4009 (it cannot)."""
        self.resumable = resume
        self.attached = False
        self.live.clear()
        self.down_until = asyncio.get_running_loop().time() + down
        if self.ws is not None and not self.ws.closed:
            await self.ws.close(code=4000 if resume else 4009)

    async def close(self) -> None:
        self._closing.set()
        if self._pump is not None:
            self._pump.cancel()
        if self.ws is not None and not self.ws.closed:
            await self.ws.close()
