"""The console adapter: play any game in a terminal as several users in one channel.

Each line is one user's command, written like on Discord::

    @alice /game new badbones
    @bob /game join
    @alice /game start
    @alice /badbones move direction:N      (or positionally: /badbones move N)
    @bob /press 2                          (the 2nd button of the last message)
    @carol:es /game status                 (carol's client speaks Spanish)
    /wait 90m                              (advance the clock; due deadlines run)

The user ``admin`` has the Manage Channels permission. Images are written to a folder and
their paths printed. Lines come from the keyboard or from a piped script (tests, demos).
"""

from __future__ import annotations

import asyncio
import re
import shlex
import signal
import sys
import threading
import time
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot.service import Actor, Message, Place, Reply, Service
from bot.service.buttons import VIEW_GAME, game_of
from bot.service.errors import DamagedDatabase
from bot.service.text import Text, When
from i18n import language_for, t
from rules.core import get_game

_LINE = re.compile(r"^@(?P<user>[\w.-]{1,32})(?::(?P<locale>[\w-]{2,8}))?\s+(?P<rest>.*)$")
_DURATION = re.compile(r"^(\d+)([smhd]?)$")


@dataclass
class ConsoleClock:
    """Wall time plus whatever ``/wait`` added."""

    offset: float = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@dataclass
class Console:
    service: Service
    clock: ConsoleClock
    images: Path
    out: TextIO = sys.stdout
    channel: int = 1
    locale: str = "en"  # the server's language: public messages
    users: dict[str, Actor] = field(default_factory=dict)
    last_buttons: list[str] = field(default_factory=list)
    last_select: str | None = None
    image_count: int = 0

    # ----------------------------------------------------------------- input

    def actor(self, name: str, locale: str | None) -> Actor:
        known = self.users.get(name)
        user_id = known.user_id if known else zlib.crc32(name.encode()) + 1000
        actor = Actor(
            user_id, name, locale or (known.locale if known else "en"), can_manage=name == "admin"
        )
        self.users[name] = actor
        return actor

    async def line(self, text: str) -> None:
        text = text.strip()
        if not text or text.startswith("#"):
            return
        if text.startswith("/wait"):
            await self.wait(text[5:].strip())
            return
        match = _LINE.match(text)
        if match is None:
            self.say("? Write: @user /command … (or /wait 30m). Example: @alice /game new zvv")
            return
        actor = self.actor(match["user"], match["locale"])
        try:
            words = _words(match["rest"])
        except ValueError:
            self.say("? Unbalanced quotes.")
            return
        if not words or not words[0].startswith("/"):
            self.say("? Commands start with /.")
            return
        reply = await self.dispatch(actor, words[0][1:], words[1:])
        if reply is not None:
            self.show(reply, actor)
        await self.deadlines()

    async def deadlines(self) -> None:
        """Due reminders and defaults; a damaged database is said, not a crash."""
        try:
            self.show_outgoing(await self.service.run_deadlines())
        except DamagedDatabase as damage:
            self.say("! " + DamagedDatabase.ADVICE.format(error=damage))

    async def dispatch(self, actor: Actor, group: str, words: list[str]) -> Reply | None:
        place = Place(self.channel, 1, self.locale)
        svc = self.service
        if group == "press":
            return await svc.press(actor, place, self._button(words[0] if words else ""))
        if group == "select":
            if self.last_select is None:
                self.say("? There is no menu to choose from.")
                return None
            return await svc.press(actor, place, self.last_select, words)
        if group == "game":
            sub, rest = (words[0], words[1:]) if words else ("status", [])
            named, positional = _split(rest)
            if sub == "new":
                game = named.pop("game", positional[0] if positional else "")
                return await svc.new_game(actor, place, game, named)
            simple = {
                "join": svc.join,
                "leave": svc.leave,
                "start": svc.start,
                "cancel": svc.cancel,
                "status": svc.status,
                "board": svc.board,
                "history": svc.history,
                "rematch": svc.rematch,
            }
            if sub in simple:
                return await simple[sub](actor, place)
            if sub == "kick":
                who = named.get("player", positional[0] if positional else "").lstrip("@")
                return await svc.kick(actor, place, self.actor(who, None).user_id)
            if sub == "rules":
                return await svc.rules(
                    actor, place, named.get("game", positional[0] if positional else "")
                )
            if sub == "settings":
                replay = named.get("replay")
                return await svc.settings(
                    actor,
                    place,
                    named.get("deadline"),
                    named.get("reminder"),
                    None if replay is None else replay.lower() in ("on", "yes", "true", "sí", "si"),
                )
            if sub == "replay":
                return await svc.replay_game(
                    actor, place, named.get("game", positional[0] if positional else "")
                )
            if sub == "leaderboard":
                return await svc.leaderboard(
                    actor, place, named.get("game", positional[0] if positional else "")
                )
            if sub == "stats":
                who = named.get("player", positional[0] if positional else "").lstrip("@")
                return await svc.stats(actor, place, self.actor(who, None).user_id if who else None)
            if sub == "language":
                return await svc.language(
                    actor, place, named.get("language", positional[0] if positional else "")
                )
            self.say(
                f"? Unknown: /game {sub}. Try: new join leave start cancel kick status board rules settings history leaderboard stats replay rematch language"
            )
            return None
        try:
            engine = get_game(group)
        except Exception:
            self.say(f"? Unknown command group /{group}.")
            return None
        if not words:
            self.say(f"? /{group} needs a command: " + " ".join(c.name for c in engine.commands))
            return None
        name = _command_named(group, engine.commands, words[0])
        command = next((c for c in engine.commands if c.name == name), None)
        named, positional = _split(words[1:])
        if command is not None:
            named = {_param_named(group, command.params, k): v for k, v in named.items()}
        if command is not None:
            for param, value in zip(command.params, positional, strict=False):
                named.setdefault(param.name, value)
        return await svc.act(actor, place, group, name, dict(named))

    def _button(self, ref: str) -> str:
        if ref.isdigit() and 1 <= int(ref) <= len(self.last_buttons):
            return self.last_buttons[int(ref) - 1]
        return ref

    async def wait(self, spec: str) -> None:
        match = _DURATION.match(spec or "1m")
        if match is None:
            self.say("? /wait takes a duration like 30s, 15m, 2h or 1d.")
            return
        unit = {"": 60, "s": 1, "m": 60, "h": 3600, "d": 86400}[match[2]]
        self.clock.offset += int(match[1]) * unit
        self.say(f"(time passes: {spec})")
        await self.deadlines()

    # ----------------------------------------------------------------- output

    def show(self, reply: Reply, actor: Actor) -> None:
        if reply.private is not None:
            self.print_message(f"→ {actor.display_name} (only they see this)", reply.private)
        self.show_outgoing(reply.public)

    def show_outgoing(self, outgoing: Iterable[Any]) -> None:
        for item in outgoing:
            self.print_message(f"#{item.channel_id}", item.message, public=True)

    def print_message(self, where: str, message: Message, public: bool = False) -> None:
        self.say(f"[{where}] {self.readable(message.text)}")
        if message.image is not None:
            self.image_count += 1
            path = self.images / f"{self.image_count:04d}-{message.image.filename}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(message.image.data)
            self.say(f"    🖼  {path}")
        if message.buttons:
            # A private answer's pages (a leaderboard's) are pressed like the channel's buttons.
            if public or all(game_of(b.custom_id) == VIEW_GAME for b in message.buttons):
                self.last_buttons = [b.custom_id for b in message.buttons]
            labels = "  ".join(f"[{i}] {b.label}" for i, b in enumerate(message.buttons, 1))
            self.say(f"    buttons (/press N): {labels}")
        for select in message.selects:
            self.last_select = select.custom_id
            self.say(
                f"    menu (/select a b …): {select.placeholder}: "
                + " ".join(v for v, _ in select.options)
            )

    def readable(self, text: Text) -> str:
        """A message as a terminal shows it: names as typed, mentions as @name, times relative
        to the console's clock."""
        return text.plain(self._when)

    def _when(self, part: When) -> str:
        if part.style == "d":
            return time.strftime("%Y-%m-%d", time.gmtime(part.at))
        delta = int(part.at - self.clock())
        minutes = abs(delta) // 60
        span = f"{minutes // 60}h{minutes % 60:02d}m" if minutes >= 60 else f"{minutes}m"
        # Neutral marks, since the line around it may be in either language.
        return f"(+{span})" if delta >= 0 else f"(−{span})"

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)


def _command_named(game: str, commands: Any, typed: str) -> str:
    """A game command by its name or its Spanish name (``/fuse sacar``), as on Discord."""
    for command in commands:
        if typed in (command.name, t(f"{game}.command_name.{command.name}", "es")):
            return str(command.name)
    return typed


def _param_named(game: str, params: Any, typed: str) -> str:
    for param in params:
        if typed in (param.name, t(f"{game}.param_name.{param.name}", "es")):
            return str(param.name)
    return typed


def _words(text: str) -> list[str]:
    """Split like a shell (quotes group words) but keep backslashes as typed: a wall's
    orientation is ``\\``."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    lexer.escape = ""
    return list(lexer)


def _split(words: list[str]) -> tuple[dict[str, Any], list[str]]:
    """``key:value`` (or ``key=value``) words and positional words. Words after a
    ``key:value`` belong to its value until the next key (``dice:a c d``), as Discord reads
    one option's text."""
    named: dict[str, Any] = {}
    positional: list[str] = []
    last: str | None = None
    for word in words:
        key, sep, value = word.partition(":")
        if not (sep and key and re.fullmatch(r"[a-z0-9_-]{1,32}", key)):
            key, sep, value = word.partition("=")
        if sep and key and re.fullmatch(r"[a-z0-9_-]{1,32}", key):
            named[key] = value
            last = key
        elif last is not None:
            named[last] = f"{named[last]} {word}"
        else:
            positional.append(word)
    return named, positional


async def run_console(
    database: str | None,
    images: Path,
    stream: TextIO,
    out: TextIO = sys.stdout,
    locale: str = "en",
) -> int:
    clock = ConsoleClock()
    service = await Service.open(database, clock=clock)
    console = Console(service, clock, images, out, locale=locale)
    interactive = stream.isatty()
    if interactive:
        console.say(
            "Partida console. Example: @alice /game new zvv · @bob /game join · @alice /game start"
        )
        console.say(
            "Ctrl-D to quit. The user 'admin' can manage the channel; @name:es speaks Spanish."
        )
    stop = _stop_on_signals()
    lines = _lines(stream)
    try:
        while True:
            if interactive:
                print("> ", end="", flush=True, file=out)
            # SIGTERM (or Ctrl-C) while waiting for a line stops at once; during a command it
            # stops once the command is done.
            line = asyncio.ensure_future(lines.get())
            stopped = asyncio.ensure_future(stop.wait())
            await asyncio.wait({line, stopped}, return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if not line.done():
                line.cancel()
                break
            if not line.result():
                break
            await console.line(line.result())
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().remove_signal_handler(sig)
        await service.close()
        from bot.service import drawing

        await asyncio.to_thread(drawing.shutdown)
    return 0


def _stop_on_signals() -> asyncio.Event:
    """An event set by SIGTERM or SIGINT (where the platform lets the loop handle them)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    return stop


def _lines(stream: TextIO) -> asyncio.Queue[str]:
    """Lines of ``stream`` ("" at its end), read by a daemon thread: a thread of the default
    executor blocked in ``readline`` would keep the process from exiting after a stop."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1)

    def read() -> None:
        while True:
            line = stream.readline()
            try:
                asyncio.run_coroutine_threadsafe(queue.put(line), loop).result()
            except RuntimeError:  # the loop is closed: the console has stopped
                return
            if not line:
                return

    threading.Thread(target=read, name="console-input", daemon=True).start()
    return queue


__all__ = ["Console", "ConsoleClock", "run_console", "language_for"]
