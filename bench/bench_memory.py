"""The bot's memory after 10,000 games against after 1,000, through the fake Discord.

Run: ``python -m bench memory``, or
``python -m bench.bench_memory [--games N] [--service] [--trace]``.

The bot runs as its own process (``PartidaBot`` with its service on a SQLite file, the client
and sender discord.py and the outbox give it), so that its RSS is the bot's alone; this process
is Discord: the fake of ``tests/fakediscord`` on loopback, and the players. Every game is played
by two players never seen before, in a thread of its own opened from one of a few channels
(a slot of ``CONCURRENT`` games at once has its channel): ``/zvv new`` (the lobby post and its
thread), ``/game join``, ``/game start``, a ``/zvv roll`` each (a move, or a refusal when it is
not their turn), ``/game cancel``. What would grow with every game, thread and user is there:
the outbox's slots and queues, the per-channel locks, the per-user languages, discord.py's
caches (threads, users, messages, rate-limit buckets). The fake's global limit of 50 requests
a second is raised (memory, not Discord's pace, is measured; each channel's own limits stay).
The bot's RSS is read after every tenth of the games, each after a garbage collection in the
bot, with the sizes of its tables and of what its allocators hold: SQLite's heap, the C
allocator's memory in use and free (glibc), Python's allocated blocks. ``--trace`` (slower, and
its RSS is tracemalloc's too) adds where the Python heap grew between two marks, and the RSS
once ``malloc_trim`` has given the C allocator's free memory back.

``--service``: the service alone in this process (no Discord), as the first version of this
benchmark measured it. SQLite runs with ``synchronous=NORMAL``: memory, not durability, is
measured. Target (issue 30): the RSS after 10,000 games within 10 % of the RSS after 1,000.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import gc
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.service import Actor, Place, Service

GAMES = 10_000
CONCURRENT = 8
TARGET = 0.10


def rss_mb(pid: int | str = "self") -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def verdict(marks: dict[int, float], first: int, games: int) -> None:
    if games not in marks or first not in marks:
        return
    growth = marks[games] / marks[first] - 1
    word = "PASS" if growth <= TARGET else "FAIL"
    print(f"{word}: RSS grew {growth:+.1%} from {first:,} to {games:,} games (target <= 10 %)")


# ---------------------------------------------------------------------- the service alone


async def one_game(service: Service, n: int) -> None:
    place = Place(10_000_000 + n, 1 + n // 200)
    host, guest = Actor(2 * n + 1, f"Host {n}"), Actor(2 * n + 2, f"Guest {n}")
    assert (await service.new_game(host, place, "zvv")).ok
    assert (await service.join(guest, place)).ok
    assert (await service.start(host, place)).ok
    await service.act(host, place, "zvv", "roll", {})  # a move (refused if not their turn)
    await service.act(guest, place, "zvv", "roll", {})
    assert (await service.cancel(host, place)).ok


async def service_alone(games: int, folder: Path) -> None:
    os.environ["SQLITE_SYNCHRONOUS"] = "NORMAL"
    service = await Service.open(f"sqlite+aiosqlite:///{folder / 'memory.db'}", render=False)
    first = max(1, games // 10)
    marks: dict[int, float] = {}
    began = time.perf_counter()
    try:
        for n in range(games):
            await one_game(service, n)
            if n + 1 in (first, games):
                gc.collect()
                marks[n + 1] = rss_mb()
                print(
                    f"after {n + 1:6,} games: RSS {marks[n + 1]:6.1f} MB, channel locks "
                    f"{len(service.locks)}, languages kept {len(service.languages)} "
                    f"({time.perf_counter() - began:.0f} s)"
                )
    finally:
        await service.close()
    verdict(marks, first, games)


# ---------------------------------------------------------------------- the bot, as a process


async def bot_process(api: str, gateway: str, token: str, database: str) -> None:
    """The bot's side: connect to the fake at ``api``/``gateway`` and serve until told to stop;
    on each ``rss`` line of stdin, collect garbage and print its RSS and tables as JSON."""
    import discord
    import yarl

    from bot.discord.client import PartidaBot

    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    os.environ["SQLITE_SYNCHRONOUS"] = "NORMAL"
    service = await Service.open(database, render=False)
    bot = PartidaBot(service=service, guild_ready_timeout=0.05)
    bot._owns_service = True
    await bot.login(token)
    running = asyncio.create_task(bot.connect(reconnect=False))
    await bot.wait_until_ready()
    print(json.dumps({"ready": True}), flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        if line.strip() == b"rss":
            gc.collect()
            grown = traced_growth()
            seen = {"rss": rss_mb()}
            if grown is not None:  # diagnosing: also what the C allocator could give back
                seen["rss trimmed MB"] = round(trimmed_rss(), 1)
            print(json.dumps({**seen, **tables(bot, service), **(grown or {})}), flush=True)
        elif line.strip() == b"stop":
            break
    await bot.close()
    running.cancel()


# With ``PYTHONTRACEMALLOC=1`` in the bot's environment (``--trace``), each mark also says
# where the Python heap grew since the last one: the lines that allocated the most.
_last_snapshot: list[Any] = []


def traced_growth(top: int = 8) -> dict[str, str] | None:
    """None when not tracing (``--trace`` off)."""
    import tracemalloc

    if not tracemalloc.is_tracing():
        return None
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__)]
    )
    grown: dict[str, str] = {}
    if _last_snapshot:
        for stat in snapshot.compare_to(_last_snapshot[0], "lineno")[:top]:
            frame = stat.traceback[0]
            place = f"{Path(frame.filename).name}:{frame.lineno}"
            grown[f"grew at {place}"] = f"{stat.size_diff / 1024:+.0f} kB ({stat.count_diff:+})"
    _last_snapshot[:] = [snapshot]
    return grown


def tables(bot: Any, service: Service) -> dict[str, int]:
    """The sizes of what could grow with games, threads and users."""
    state = bot._connection
    guild = next(iter(bot.guilds), None)
    return {
        "outbox slots": len(bot.outbox.known),
        "outbox queues": len(bot.outbox.queues),
        "channel locks": len(service.locks),
        "languages": len(service.languages),
        "threads cached": len(guild.threads) if guild is not None else 0,
        "users cached": len(state._users),
        "messages cached": len(state._messages or ()),
        "rate-limit buckets": len(bot.http._buckets),
        "interactions": len(getattr(state, "_interaction_cache", ())),
        "views": len(getattr(state._view_store, "_views", ())),
        "database connections": int(getattr(service.engine.pool, "checkedin", lambda: 0)()),
        "sqlite heap kB": sqlite_heap() // 1024,
        "python blocks k": sys.getallocatedblocks() // 1000,
        "malloc in use kB": malloc_info("uordblks", "hblkhd") // 1024,
        "malloc free kB": malloc_info("fordblks") // 1024,
    }


def sqlite_heap() -> int:
    """Bytes SQLite has allocated in this process: its page caches, statements, schemas."""
    import ctypes.util

    name = ctypes.util.find_library("sqlite3")
    if name is None:
        return 0
    used = ctypes.CDLL(name).sqlite3_memory_used
    used.restype = ctypes.c_int64
    return int(used())


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
            "fordblks", "keepcost",
        )
    ]  # fmt: skip


def malloc_info(*fields: str) -> int:
    """The sum of ``fields`` of glibc's ``mallinfo2``: ``uordblks`` + ``hblkhd`` is what the C
    allocator has handed out; ``fordblks`` what it holds free, which still counts in the RSS
    until it is given back (``malloc_trim``). 0 where there is no ``mallinfo2``."""
    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except AttributeError:
        return 0
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return sum(int(getattr(info, field)) for field in fields)


def trimmed_rss() -> float:
    """The RSS once the C allocator has given its free memory back (glibc's ``malloc_trim``)."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except AttributeError:
        return float("nan")
    return rss_mb()


async def through_discord(games: int, folder: Path) -> None:
    from bot.discord import async_sync_commands
    from tests.fakediscord import FakeDiscord
    from tests.fakediscord.ratelimits import Window

    channels = [FakeDiscord.channel_id + i for i in range(CONCURRENT)]
    async with FakeDiscord() as fake:
        for channel in channels[1:]:
            fake.channels[channel] = f"games-{channel % 100}"
        fake.ratelimits.global_window = Window(100_000, 1.0)
        await async_sync_commands(fake.token, fake.guild_id)
        bot = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.bench_memory",
            "--bot",
            f"http://127.0.0.1:{fake.port}/api/v10",
            fake.ws_url,
            fake.token,
            f"sqlite+aiosqlite:///{folder / 'memory.db'}",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert bot.stdin is not None and bot.stdout is not None
        stdin, stdout = bot.stdin, bot.stdout

        async def ask() -> dict[str, Any]:
            stdin.write(b"rss\n")
            await stdin.drain()
            return dict(json.loads(await stdout.readline()))

        try:
            assert json.loads(await asyncio.wait_for(stdout.readline(), 60)).get("ready")
            first = max(CONCURRENT, games // 10)
            marks: dict[int, float] = {}
            began = time.perf_counter()
            played = 0
            # The RSS at every tenth: a run cut short still shows the trend.
            for mark in range(first, games + 1, first):
                while played < mark:
                    batch = range(played, min(mark, played + CONCURRENT))
                    await asyncio.gather(*(game(fake, n, channels[n % CONCURRENT]) for n in batch))
                    played += len(batch)
                with contextlib.suppress(TimeoutError):  # a busy machine: read it anyway
                    await fake.idle(quiet=0.3, timeout=120)
                seen = await ask()
                marks[mark] = float(seen.pop("rss"))
                sizes = ", ".join(f"{k} {v}" for k, v in seen.items())
                print(
                    f"after {mark:6,} games: RSS {marks[mark]:6.1f} MB "
                    f"({time.perf_counter() - began:.0f} s; {sizes}; "
                    f"interactions not answered {UNANSWERED[0]})",
                    flush=True,
                )
            print(f"fake Discord: {len(fake.calls):,} REST requests from the bot")
        finally:
            stdin.write(b"stop\n")
            await stdin.drain()
            try:
                await asyncio.wait_for(bot.wait(), 30)
            except TimeoutError:
                bot.kill()
    verdict(marks, first, max(marks))


async def game(fake: Any, n: int, channel: int) -> None:
    """One game of Zombies vs Vampires in a new thread of ``channel``, by two new players."""
    host = fake.add_user(10_000_000 + 2 * n, f"Host {n}")
    guest = fake.add_user(10_000_001 + 2 * n, f"Guest {n}", locale="es-ES")
    known = set(list(fake.threads)[-4 * CONCURRENT :])
    await command(fake, host, "zvv new", channel)
    thread = await new_thread(fake, channel, known)
    await command(fake, guest, "game join", thread)
    await command(fake, host, "game start", thread)
    for player in (host, guest):
        await command(fake, player, "zvv roll", thread)
    await command(fake, host, "game cancel", thread)


# Interactions the bot left unanswered (on a loaded machine it may see one after Discord's
# 3 s, and then rightly does nothing): each is sent again, up to TRIES times.
UNANSWERED = [0]
TRIES = 3


async def command(fake: Any, user: Any, path: str, channel: int) -> None:
    for _ in range(TRIES):
        exchange = await fake.slash(user, path, channel_id=channel)
        try:
            await exchange.result(timeout=20)
            return
        except (TimeoutError, AssertionError):
            UNANSWERED[0] += 1


async def new_thread(fake: Any, channel: int, known: set[int]) -> int:
    """The thread the bot opens from the lobby message just posted in ``channel``."""
    end = time.monotonic() + 60
    parent = str(channel)
    while time.monotonic() < end:
        for thread_id in list(fake.threads)[-4 * CONCURRENT :]:
            if thread_id not in known and fake.threads[thread_id]["parent_id"] == parent:
                return int(thread_id)
        await asyncio.sleep(0.01)
    raise TimeoutError(f"no thread opened in channel {channel}")


def main(argv: list[str] | None = None) -> None:
    argv = list(argv if argv is not None else [])
    if argv[:1] == ["--bot"]:
        asyncio.run(bot_process(*argv[1:5]))
        return
    parser = argparse.ArgumentParser(prog="python -m bench.bench_memory")
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--service", action="store_true", help="the service alone, no Discord")
    parser.add_argument(
        "--trace", action="store_true", help="trace the bot's Python heap (slower): where it grew"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        if args.service:
            asyncio.run(service_alone(args.games, Path(folder)))
        else:
            if args.trace:
                os.environ["PYTHONTRACEMALLOC"] = "1"
            asyncio.run(through_discord(args.games, Path(folder)))


if __name__ == "__main__":
    main(sys.argv[1:])
