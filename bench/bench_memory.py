"""The bot's memory after 10,000 games against after 1,000, through the service.

Run: ``python -m bench memory``, or ``python -m bench.bench_memory [--games N]``. Every game is
in a channel of its own with two players never seen before (the per-channel and per-user tables
of bot/service/memory.py are what would grow): opened, joined, started (its state, deadlines
and first log rows written), played one move, and cancelled (its log compacted). The process's
RSS is read after the first tenth of the games and at the end, after a garbage collection each
time. SQLite runs with ``synchronous=NORMAL`` here: memory, not durability, is measured. Target
(issue 30): the RSS after 10,000 games within 10 % of the RSS after 1,000.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import tempfile
import time
from pathlib import Path

from bot.service import Actor, Place, Service

GAMES = 10_000
TARGET = 0.10


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def one_game(service: Service, n: int) -> None:
    place = Place(10_000_000 + n, 1 + n // 200)
    host, guest = Actor(2 * n + 1, f"Host {n}"), Actor(2 * n + 2, f"Guest {n}")
    assert (await service.new_game(host, place, "zvv")).ok
    assert (await service.join(guest, place)).ok
    assert (await service.start(host, place)).ok
    await service.act(host, place, "zvv", "roll", {})  # a move (refused if not their turn)
    await service.act(guest, place, "zvv", "roll", {})
    assert (await service.cancel(host, place)).ok


async def run(games: int, folder: Path) -> None:
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
    growth = marks[games] / marks[first] - 1
    verdict = "PASS" if growth <= TARGET else "FAIL"
    print(f"{verdict}: RSS grew {growth:+.1%} from {first:,} to {games:,} games (target <= 10 %)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_memory")
    parser.add_argument("--games", type=int, default=GAMES)
    args = parser.parse_args(argv if argv is not None else [])
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args.games, Path(folder)))


if __name__ == "__main__":
    main(sys.argv[1:])
