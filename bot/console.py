"""The console adapter: play any game in a terminal as several users in one channel.

Each line is one user's command, written like on Discord::

    @alice /game new badbones              (or /badbones new heroic:true, with options)
    @bob /game join
    @alice /game addbot easy              (a computer player takes a seat)
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
import concurrent.futures
import math
import re
import signal
import sys
import threading
import time
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot import console_spelling as spelling
from bot.service import Actor, Message, Outgoing, Place, Reply, Service
from bot.service.buttons import VIEW_GAME, decode
from bot.service.errors import DamagedDatabase
from bot.service.lobby_commands import (
    BARE,
    GAME_OPTIONS,
    GROUP,
    GROUPED,
    TOP_LEVEL,
    LobbyCommand,
    Values,
)
from bot.service.replies import Slot
from bot.service.text import Channel, Text, When, plain_part
from i18n import language_for, t
from rules.core import get_game

_LINE = re.compile(
    r"^@(?P<user>[\w.-]{1,32})(?::(?P<locale>[\w-]{2,8}))?(?:#(?P<thread>\d+))?\s+(?P<rest>.*)$"
)
THREAD_IDS = 1_000_000  # thread n of the console's channel has the id THREAD_IDS + n
_DURATION = re.compile(r"^(?:\d+[smhd]?)+$")  # 30s, 15m, 2h, 1d, and together: 22h30m, 1d12h
_DURATION_PART = re.compile(r"(\d+)([smhd]?)")
MAX_WAIT_DAYS = 366  # longer than any deadline: a longer wait is a typo, and would overflow
_MENTION = re.compile(r"^<@!?(\d{1,20})>$")
# Computer moves played in a row after one line (a table of computers plays a long while).
MAX_COMPUTER_MOVES = 5000


# The console's one server. It may share its database with the bot (both default to
# DATABASE_URL, or partida.db): it plays the deadlines of its own games only, on its clock.
CONSOLE_GUILD = 1


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
    # The menus of the last public message that had any (a phase message's), and of each
    # user's last private one (a step of a move chosen from menus), newest last: owner (None:
    # public) → each custom_id with its values. ``/select`` picks among the menus its typist
    # can see, as on Discord, where nobody can use another player's private menu.
    menus: dict[int | None, list[tuple[str, tuple[str, ...]]]] = field(default_factory=dict)
    image_count: int | None = None  # the last picture's number; None: not yet looked up
    posts: int = 0  # public messages posted so far: each is numbered, so an edit can name it
    slots: dict[Slot, int] = field(default_factory=dict)  # slot → its message's number
    threads: dict[int, str] = field(default_factory=dict)  # thread channel id → its name
    # Open a thread per game, as on Discord (``--threads``). Off: every game is played in the
    # channel, as on a server where the bot may not open threads (one game at a time).
    open_threads: bool = False
    # The soonest deadline known (-inf: not looked yet): until then, and unless a command writes
    # a sooner one, a command needs no look at the deadlines (two statements each).
    next_due: float = -math.inf

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
        if match is None and text.startswith("/"):
            # A command with nobody typing it (``/press 1``): who presses is part of it.
            self.say(f"? Who types it? Write @user first: @alice {text.split()[0]} …")
            return
        if match is None:
            self.say("? Write: @user /command … (or /wait 30m). Example: @alice /game rules")
            return
        actor = self.actor(match["user"], match["locale"])
        try:
            words = spelling.words(match["rest"])
        except ValueError:
            self.say("? Unbalanced quotes.")
            return
        if not words or not words[0].startswith("/"):
            self.say("? Commands start with /.")
            return
        where = self.channel
        if match["thread"] is not None:
            where = THREAD_IDS + int(match["thread"])
        reply = await self.dispatch(actor, words[0][1:], words[1:], where)
        if reply is not None:
            await self.show(reply, actor)
        await self.deadlines()

    async def deadlines(self) -> None:
        """Due reminders and defaults, and the computer players' moves (which the console plays
        at once, one after another, until a person is awaited); a damaged database is said, not
        a crash."""
        written = self.service.written_deadline()
        if written is not None:
            self.next_due = min(self.next_due, written)
        if self.clock() < self.next_due:
            return  # nothing due yet
        try:
            for _ in range(MAX_COMPUTER_MOVES):
                await self.show_outgoing(await self.service.run_deadlines(CONSOLE_GUILD))
                upcoming = await self.service.next_deadline(CONSOLE_GUILD)
                self.next_due = math.inf if upcoming is None else upcoming
                if upcoming is None or upcoming > self.clock():
                    return
            self.say("! " + t("bots.console.too_long", self.locale))
        except DamagedDatabase as damage:
            self.say("! " + DamagedDatabase.ADVICE.format(error=damage))

    async def dispatch(
        self, actor: Actor, group: str, words: list[str], where: int | None = None
    ) -> Reply | None:
        place = Place(where or self.channel, CONSOLE_GUILD, self.locale)
        svc = self.service
        if group == "press":
            typed = words[0] if words else ""
            if not typed.isdigit() or not 1 <= int(typed) <= len(self.last_buttons):
                count = len(self.last_buttons)
                self.say(
                    f"? /press N: the last message has buttons 1–{count}."
                    if count
                    else "? The last message has no buttons."
                )
                return None
            # Decoded here, where the click arrives, as the Discord adapter does.
            return await svc.press(actor, place, decode(self.last_buttons[int(typed) - 1]))
        if group == "wait":  # (typed by someone: the clock is everyone's)
            await self.wait(" ".join(words))
            return None
        if group == "select":
            menu = self.menu_for(actor, words)
            if menu is None:
                self.say("? There is no menu to choose from.")
                return None
            return await svc.press(actor, place, decode(menu, words))
        top = spelling.lobby_command(group, TOP_LEVEL)  # /help, /ayuda, /me, /yo
        if top is not None:
            return await self.lobby(actor, place, top, words)
        if group in spelling.names(GROUP, f"discord.command_name.{GROUP}"):  # /game, /partida
            typed = words[0] if words else BARE
            sub = spelling.lobby_command(typed, GROUPED)
            if sub is None:
                names = " ".join(t(c.name_key, actor.locale) for c in GROUPED)
                said = t(
                    "lobby.console.unknown_sub",
                    actor.locale,
                    command=f"/{group} {typed}",
                    names=names,
                )
                self.say("? " + said)
                return None
            return await self.lobby(actor, place, sub, words[1:])
        try:
            engine = get_game(group)
        except Exception:
            self.say(f"? Unknown command group /{group}.")
            return None
        if not words:
            self.say(f"? /{group} needs a command: " + " ".join(c.name for c in engine.commands))
            return None
        if words[0] in spelling.names(
            "new", "discord.command_name.new"
        ):  # /<game> nueva [option:value …]
            named, _ = spelling.split(words[1:])
            return await svc.new_game(actor, place, group, spelling.options_named(group, named))
        name = spelling.command_named(group, engine.commands, words[0])
        command = next((c for c in engine.commands if c.name == name), None)
        named, positional = spelling.split(words[1:])
        if command is not None:
            named = {spelling.param_named(group, command.params, k): v for k, v in named.items()}
            tokens = command.select and command.params[-1].name == command.select
            if tokens and len(positional) > len(command.params):
                # The set of tokens is one value, as its menu sends it: `/farkle keep a c d`.
                last = len(command.params) - 1
                positional = [*positional[:last], " ".join(positional[last:])]
            for param, value in zip(command.params, positional, strict=False):
                named.setdefault(param.name, value)
            wrong = spelling.wrongly_typed(group, command, named, positional, actor.locale)
            if wrong is not None:
                self.say("? " + wrong)
                return None
        return await svc.act(actor, place, group, name, dict(named))

    def menu_for(self, actor: Actor, values: list[str]) -> str | None:
        """The newest menu ``actor`` can see (public, or shown privately to them) that offers
        every value in ``values`` (squares in several menus by rows: the one holding the
        square); else the first of the newest they see, which refuses in words."""
        wanted = {v.upper() for v in values}
        seen = [
            menus for owner, menus in reversed(self.menus.items()) if owner in (None, actor.user_id)
        ]
        for menus in seen:
            for custom_id, offered in menus:
                if wanted <= {o.upper() for o in offered}:
                    return custom_id
        return seen[0][0][0] if seen else None

    async def lobby(
        self, actor: Actor, place: Place, command: LobbyCommand, words: list[str]
    ) -> Reply | None:
        """A lobby command (``bot/service/lobby_commands.py``), answered by its service call."""
        values = self.values(command, words, actor.locale)
        if values is None:
            return None
        return await command.call(self.service, actor, place, values)

    def values(self, command: LobbyCommand, words: list[str], locale: str) -> Values | None:
        """A lobby command's parameters typed as on Discord: each by its name or its Spanish
        name (``jugador:``), or in order without one (``/game rules zvv faces``); each value as
        the service takes it (``lobby_commands.ParamType``). None, said why: one is missing."""
        named, positional = spelling.split(words)
        typed: dict[str, str] = {}
        others: dict[str, Any] = {}  # names of no parameter: a game's options for ``/game new``
        for key, value in named.items():
            param = next(
                (p for p in command.params if key in spelling.names(p.name, p.name_key)), None
            )
            if param is None:
                others[key] = value
            else:
                typed[param.name] = value
        for param, word in zip(command.params, positional, strict=False):
            typed.setdefault(param.name, word)
        # What Discord never sends: a name the command has not (``pagina:`` for ``página:``;
        # ``/game new``'s are the game's options), more values than it takes, one left out.
        wrong = None
        if others and not command.game_options:
            wrong = t("lobby.console.no_option", locale, option=next(iter(others)), usage="")
        elif len(positional) > len(command.params):
            wrong = t("lobby.console.too_many", locale, usage="")
        elif any(
            p.type == "switch" and spelling.switch(typed.get(p.name) or "on") is None
            for p in command.params
        ):
            wrong = t("lobby.console.write", locale, usage="")
        elif any(p.required and not typed.get(p.name) for p in command.params) and (
            command.name != "rules"  # (which has an answer of its own: which games there are)
        ):
            wrong = t("lobby.console.write", locale, usage="")
        if wrong is not None:
            self.say(f"? {wrong}{spelling.usage(command, locale)}")
            return None
        values: Values = {}
        for param in command.params:
            text = typed.get(param.name)
            if param.type == "user":
                values[param.name] = self.person(text) if text else None
            elif param.type == "switch":
                values[param.name] = None if text is None else spelling.switch(text)
            else:  # as typed (a choice by its label too): the service refuses it in words
                text = spelling.choice_named(param, text)
                values[param.name] = ("" if param.required else None) if text is None else text
        if command.game_options:
            values[GAME_OPTIONS] = spelling.options_named(str(values.get("game", "")), others)
        return values

    def person(self, typed: str) -> Actor:
        """A member named as Discord's options carry them: ``@dora``, ``dora``, or a mention
        ``<@123>`` (of someone this run has not seen: known by their id alone, and the service
        names them by their seat)."""
        mention = _MENTION.match(typed)
        if mention is None:
            return self.actor(typed.lstrip("@"), None)
        user_id = int(mention[1])
        known = next((a for a in self.users.values() if a.user_id == user_id), None)
        return known if known is not None else Actor(user_id, "", self.locale)

    async def wait(self, spec: str) -> None:
        spec = spec or "1m"
        if _DURATION.match(spec) is None:
            self.say("? " + t("lobby.console.wait_format", self.locale))
            return
        seconds = 0
        for number, unit in _DURATION_PART.findall(spec):
            # Compared as text first: a number of thousands of digits is refused before int().
            if len(number.lstrip("0")) > 12:
                seconds = MAX_WAIT_DAYS * 86400 + 1
                break
            seconds += int(number) * {"": 60, "s": 1, "m": 60, "h": 3600, "d": 86400}[unit]
        if seconds > MAX_WAIT_DAYS * 86400:
            self.say("? " + t("lobby.console.wait_too_long", self.locale, days=MAX_WAIT_DAYS))
            return
        self.clock.offset += seconds
        self.say(f"(time passes: {spec})")
        await self.deadlines()

    # ----------------------------------------------------------------- output

    async def show(self, reply: Reply, actor: Actor) -> None:
        if reply.private is not None:
            self.print_message(
                f"→ {actor.display_name} (only they see this)", reply.private, to=actor.user_id
            )
        await self.show_outgoing(reply.public)

    def channel_name(self, channel_id: int) -> str:
        """``#1`` for the channel, ``#thread 2 «Bad Bones · alice»`` for a thread."""
        if channel_id in self.threads:
            return f"#thread {channel_id - THREAD_IDS} «{self.threads[channel_id]}»"
        if channel_id > THREAD_IDS:  # a thread opened before a restart
            return f"#thread {channel_id - THREAD_IDS}"
        return f"#{channel_id}"

    async def show_outgoing(self, outgoing: Iterable[Outgoing]) -> None:
        """Public messages, each numbered (``[#1 №3]``); an edit is shown as an edit of the
        message it changes (``[#1 ✎ №3]``), as Discord changes that message in place. A
        lobby opens a thread (``@alice#1 /game join`` types in it), as on Discord."""
        for item in outgoing:
            where = self.channel_name(item.channel_id)
            if item.dm is not None:
                # A terminal takes every direct message (closed DMs are a Discord matter).
                who = next((n for n, a in self.users.items() if a.user_id == item.dm), item.dm)
                self.print_message(f"✉ to @{who}", item.message, to=item.dm)
                continue
            if item.archive:
                self.say(f"[{where}] (archived)")
                continue
            if item.edit and item.slot is not None:
                number = self.slots.get(item.slot)
                mark = f"✎ №{number}" if number is not None else "✎"
                self.print_message(f"{where} {mark}", item.message)
                continue
            self.posts += 1
            if item.slot is not None:
                self.slots[item.slot] = self.posts
            self.print_message(f"{where} №{self.posts}", item.message)
            if item.thread is not None and item.slot is not None and self.open_threads:
                # Numbered by the game, so a restarted console names the same threads.
                thread = THREAD_IDS + item.slot.game_id
                self.threads[thread] = item.thread.name
                await self.service.moved(item.slot.game_id, item.channel_id, thread)
                self.say(
                    f"[{self.channel_name(thread)}] (a thread from №{self.posts}: "
                    f"@name#{thread - THREAD_IDS} /… to play in it)"
                )

    def print_message(self, where: str, message: Message, to: int | None = None) -> None:
        """``to``: the user a private answer or a direct message is shown to (None: public)."""
        head = self.readable(message.text)
        told = self.readable(message.narration)
        if head and told:
            self.say(f"[{where}] {head}")
            self.say("    " + told.replace("\n", "\n    "))
        else:
            self.say(f"[{where}] {head or told}")
        if message.image is not None:
            self.image_count = (
                self.image_count if self.image_count is not None else _last_number(self.images)
            ) + 1
            path = self.images / f"{self.image_count:04d}-{message.image.filename}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(message.image.data)
            self.say(f"    🖼  {path}")
        if message.buttons:
            # A private answer's pages (a leaderboard's) are pressed like the channel's buttons.
            if to is None or all(_view_button(b.custom_id) for b in message.buttons):
                self.last_buttons = [b.custom_id for b in message.buttons]
            labels = "  ".join(f"[{i}] {b.label}" for i, b in enumerate(message.buttons, 1))
            self.say(f"    buttons (/press N): {labels}")
        if message.selects:
            self.menus.pop(to, None)  # re-inserted: the newest last
            self.menus[to] = [
                (m.custom_id, tuple(v for v, _ in m.options)) for m in message.selects
            ]
        for select in message.selects:
            self.say(
                f"    menu (/select a b …): {select.placeholder}: "
                + " ".join(v for v, _ in select.options)
            )

    def readable(self, text: Text) -> str:
        """A message as a terminal shows it: names as typed, mentions as @name, threads by the
        console's name for them, times relative to the console's clock."""
        return "".join(
            self.channel_name(p.channel_id) if isinstance(p, Channel) else plain_part(p, self._when)
            for p in text.parts
        )

    def _when(self, part: When) -> str:
        if part.style == "d":
            return time.strftime("%Y-%m-%d", time.gmtime(part.at))
        return relative(part.at - self.clock())

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)


def _last_number(folder: Path) -> int:
    """The highest picture number already in ``folder``: a new run numbers on after it
    instead of overwriting an earlier run's pictures."""
    numbers = [
        int(p.name[:4]) for p in folder.glob("[0-9][0-9][0-9][0-9]-*") if p.name[:4].isdigit()
    ]
    return max(numbers, default=0)


def relative(delta: float) -> str:
    """A time ``delta`` seconds away, as the console writes it: "(+5m)", "(+2h05m)", "(+40s)".
    Rounded to the nearest minute: a 5-minute deadline read a moment after it was set is
    299.6 s away and read "(+4m)" when cut down."""
    seconds = round(abs(delta))
    minutes = (seconds + 30) // 60
    if seconds < 60:
        span = f"{seconds}s"
    elif minutes >= 60:
        span = f"{minutes // 60}h{minutes % 60:02d}m"
    else:
        span = f"{minutes}m"
    # Neutral marks, since the line around it may be in either language.
    return f"(+{span})" if delta >= 0 else f"(−{span})"


async def run_console(
    database: str | None,
    images: Path,
    stream: TextIO,
    out: TextIO = sys.stdout,
    locale: str = "en",
    threads: bool = False,
) -> int:
    clock = ConsoleClock()
    service = await Service.open(database, clock=clock, computer_delay=0.0)
    console = Console(service, clock, images, out, locale=locale, open_threads=threads)
    interactive = stream.isatty()
    if interactive:
        console.say(
            "Partida console. Example: @alice /game rules (the games) · @alice /game new <game> · "
            "@bob /game join · @alice /game start"
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
            if isinstance(line.result(), Exception):
                print(f"partida console: {line.result()}", file=sys.stderr)
                return 2
            if not line.result():
                break
            await console.line(str(line.result()))
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().remove_signal_handler(sig)
        await service.close()
        from bot.service import drawing, thinking

        await asyncio.to_thread(drawing.shutdown)
        await asyncio.to_thread(thinking.shutdown)
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


class InputError(Exception):
    """The console's input could not be read (text that is not UTF-8, a read error)."""


def _lines(stream: TextIO) -> asyncio.Queue[str | InputError]:
    """Lines of ``stream`` ("" at its end, an ``InputError`` if it cannot be read), read by a
    daemon thread: a thread of the default executor blocked in ``readline`` would keep the
    process from exiting after a stop."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | InputError] = asyncio.Queue(maxsize=1)

    def read() -> None:
        count = 0
        while True:
            line: str | InputError
            try:
                line = stream.readline()
            except UnicodeDecodeError as error:  # else the thread dies and the console waits
                line = InputError(
                    f"cannot read the input after line {count}: it is not UTF-8 text "
                    f"({error.reason}): save it as UTF-8"
                )
            except (OSError, ValueError) as error:
                line = InputError(f"cannot read the input after line {count}: {error}")
            count += 1
            try:
                asyncio.run_coroutine_threadsafe(queue.put(line), loop).result()
            except (RuntimeError, concurrent.futures.CancelledError):
                return  # the loop is closed, or closing: the console has stopped
            if not line or isinstance(line, InputError):
                return

    threading.Thread(target=read, name="console-input", daemon=True).start()
    return queue


def _view_button(custom_id: str) -> bool:
    """A button of a read-only view (a page of a leaderboard), which any reader may press."""
    press = decode(custom_id)
    return press is not None and press.game_id == VIEW_GAME


__all__ = ["Console", "ConsoleClock", "run_console", "language_for"]
