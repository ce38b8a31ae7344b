"""``partida ratings rebuild`` on a grown database: its time and peak memory, and how long a
command waits while it runs.

Run: ``python -m bench rebuild`` (100,000 finished games), or ``python -m bench.bench_rebuild
[--games N] [--db PATH]`` (an existing file of that many games is reused). The database is
grown by ``bench/grow.py`` (real games played by the computer players, copied; 80 % in
threads, 40 users a server, 200 games a server). The rebuild runs as an operator runs it, as
its own process (``partida ratings rebuild``); its peak RSS is the kernel's count for that
process (``wait4``). Meanwhile this process is the bot: a service on the same file opens and
cancels a game in a channel of its own, again and again, and times each command. Targets
(issue 30): peak RSS under 500 MB at 100k games, no command waits more than 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench import grow
from bot.service import Actor, Place, Service
from bot.store.database import create_engine, upgrade

GAMES = 100_000
RSS_TARGET_MB = 500
DELAY_TARGET_S = 1.0
ROOT = Path(__file__).resolve().parent.parent


async def grown(path: Path, games: int) -> str:
    """A SQLite file of ``games`` finished games (made once, then reused)."""
    url = f"sqlite+aiosqlite:///{path}"
    marker = path.with_suffix(f".{games}.done")
    if path.exists() and marker.exists():
        return url
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), marker):
        leftover.unlink(missing_ok=True)
    await upgrade(url)
    engine = create_engine(url)
    started = time.perf_counter()
    await grow.grow(engine, games)
    await engine.dispose()
    marker.touch()
    print(f"grew {games} finished games in {time.perf_counter() - started:.0f} s")
    return url


async def commands(service: Service, until: asyncio.Event, delays: list[float]) -> None:
    """The bot's side: a game opened and cancelled in its own channel, over and over."""
    actor = Actor(1, "Operator", can_manage=True)
    place = Place(1, 1)
    while not until.is_set():
        for command in (service.new_game(actor, place, "farkle"), service.cancel(actor, place)):
            began = time.perf_counter()
            reply = await command
            delays.append(time.perf_counter() - began)
            assert reply.ok, reply.private
        await asyncio.sleep(0.05)


def run_rebuild(url: str) -> tuple[float, float, str]:
    """``partida ratings rebuild`` as its own process: (seconds, peak RSS in MB, its output)."""
    env = {**os.environ, "DATABASE_URL": url}
    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "--log-level", "WARNING", "ratings", "rebuild"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - began
    output = child.stdout.read() if child.stdout else ""
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"rebuild failed ({child.returncode}):\n{output}")
    return seconds, usage.ru_maxrss / 1024, output.strip()


async def measure(url: str) -> None:
    service = await Service.open(url, render=False, migrate=False)
    try:
        quiet: list[float] = []
        stop = asyncio.Event()
        idle = asyncio.create_task(commands(service, stop, quiet))
        await asyncio.sleep(3)
        stop.set()
        await idle
        during: list[float] = []
        stop = asyncio.Event()
        busy = asyncio.create_task(commands(service, stop, during))
        seconds, rss, said = await asyncio.to_thread(run_rebuild, url)
        stop.set()
        await busy
    finally:
        await service.close()
    print(said)
    print(f"rebuild: {seconds:.1f} s, peak RSS {rss:.0f} MB (target < {RSS_TARGET_MB} MB)")
    for label, delays in (("alone", quiet), ("during the rebuild", during)):
        ordered = sorted(delays)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        print(
            f"a command {label}: {len(delays)} sent, median {statistics.median(delays) * 1e3:.0f}"
            f" ms, p99 {p99 * 1e3:.0f} ms, max {max(delays) * 1e3:.0f} ms"
        )
    worst = max(during)
    verdict = "PASS" if rss < RSS_TARGET_MB and worst <= DELAY_TARGET_S else "FAIL"
    print(f"{verdict}: peak RSS < {RSS_TARGET_MB} MB and every command within {DELAY_TARGET_S} s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_rebuild")
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--db", type=Path, default=Path("/tmp/partida-bench-rebuild.db"))
    args = parser.parse_args(argv if argv is not None else [])
    url = asyncio.run(grown(args.db, args.games))
    asyncio.run(measure(url))


if __name__ == "__main__":
    main(sys.argv[1:])
