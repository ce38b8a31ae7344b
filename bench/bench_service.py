"""Command latency and throughput through the service, on a SQLite file holding 10,000 games.

Figures:
- p50/p99 of a submission that does not resolve a phase, and of one that does (with rendering),
  against the cost of one bare SQLite ``UPDATE`` + commit measured in the same run;
- sustained commands/s with 1,000 games receiving commands concurrently, three ways: the
  service alone (the test game: the platform's own cost), Bad Bones (a real game's rules,
  buttons and replies), and Bad Bones with its pictures drawn (every phase, in the render
  worker: bounded by the drawing, so the pictures/s are printed too);
- the same throughputs on PostgreSQL (a fresh database), when ``BENCH_PG_URL`` (or
  ``PARTIDA_TEST_PG_URL``) names a durable server (``bench/pg.py``; ``BENCH_PG_UNDURABLE=1``
  measures one with fsync off anyway, and says so): no single writer, and asyncpg talks to the server from the
  event loop itself (no thread to cross to), so a command costs the bot less CPU there;
- what durability costs: the bare commit and the service-alone throughput with
  ``SQLITE_SYNCHRONOUS=NORMAL`` beside the default FULL (a sync per commit), and the disk's
  fsync rate (a loop of 4 KB writes and ``fsync`` on the database's disk: commits/s), which
  bounds FULL's commits: the one-writer throughput is that rate times the moves a commit
  carries;
- peak memory (max RSS) of the run.

Targets on a 2-core machine: p99 ≤ 20 ms (no resolution), ≤ 150 ms (resolution), ≥ 300 cmd/s.
The figures are wall-clock: on a machine shared with other work they drop with its load.
"""

from __future__ import annotations

import asyncio
import os
import random
import resource
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import pg
from bot.service import Actor, Place, Service
from bot.store.models import ACTIVE, GameRow, SeatRow
from rules.core import Game, get_game

GAMES = int(os.environ.get("BENCH_GAMES", "10000"))
CONCURRENT = int(os.environ.get("BENCH_CONCURRENT", "1000"))
SAMPLES = int(os.environ.get("BENCH_SAMPLES", "200"))
THROUGHPUT_SECONDS = float(os.environ.get("BENCH_SECONDS", "10"))


def _pick_game() -> tuple[Game[Any], int]:
    """A game whose first phase is simultaneous (so one seat's move does not resolve it and the
    last one does): Bad Bones when it is there, else the test game."""
    for name in ("badbones",):
        try:
            return get_game(name), 2
        except Exception:
            continue
    from tests.support.tiny import install

    return install(), 2


async def _populate(
    service: Service,
    game: Game[Any],
    seats: int,
    count: int,
    first_channel: int = 10_000,
    options: dict[str, Any] | None = None,
) -> None:
    now = time.time()
    state = game.dump(game.new_game(seats, options, 1))
    phase = game.phase(game.new_game(seats, options, 1))
    async with service.sessions() as session, session.begin():
        for i in range(count):
            row = GameRow(
                channel_id=first_channel + i,
                open_channel_id=first_channel + i,
                guild_id=1,
                kind=game.name,
                options=game.check_options(options or {}, seats),
                settings={"deadline_minutes": 1440, "reminder_minutes": 120},
                status=ACTIVE,
                host_id=1,
                seed=1,
                state=state,
                phase=phase,
                phase_started_at=now,
                created_at=now,
                updated_at=now,
            )
            row.seats = [
                SeatRow(seat=s, user_id=1 + s, display_name=f"P{s}", locale="en")
                for s in range(seats)
            ]
            session.add(row)


def _first_action(game: Game[Any], service_state: Any, seat: int) -> tuple[str, dict[str, Any]]:
    for action in game.legal_actions(service_state, seat):
        mapped = game.to_command(action)
        if mapped is not None:
            return mapped
    raise RuntimeError("no typed command for the first phase")


def _bare_update(path: Path, synchronous: str, n: int = 300) -> float:
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute(f"PRAGMA synchronous={synchronous}")
    times = []
    for i in range(n):
        start = time.perf_counter()
        connection.execute(
            "UPDATE games SET updated_at = ? WHERE id = ?", (time.time(), 1 + i % 100)
        )
        connection.commit()
        times.append(time.perf_counter() - start)
    connection.close()
    return statistics.median(times)


def _fsync_rate(folder: Path, seconds: float = 2.0) -> float:
    """The disk's fsync rate: commits/s of a loop that writes 4 KB to a file in ``folder`` (the
    database's disk) and syncs it, as SQLite's FULL does at each commit of its WAL."""
    path = folder / "fsync.probe"
    block = os.urandom(4096)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        count, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            os.pwrite(fd, block, (count % 256) * len(block))
            os.fsync(fd)
            count += 1
        return count / (time.perf_counter() - started)
    finally:
        os.close(fd)
        path.unlink()


def _script(
    game: Game[Any], seats: int, options: dict[str, Any] | None
) -> list[tuple[int, str, dict[str, Any]]]:
    """The commands of one game whose players always make their first legal typed move. Every
    populated game is this same game (same seed, same options), so each worker replays it:
    the harness costs nothing per command, and the figure counts the service's work."""
    # Its own loop, not rules.core.play.play_game: a fixed script of typed commands, no draws.
    state = game.new_game(seats, options, 1)
    script: list[tuple[int, str, dict[str, Any]]] = []
    now = time.time()
    while not game.is_over(state):
        seat = min(game.pending(state))
        action = next(a for a in game.legal_actions(state, seat) if game.to_command(a))
        mapped = game.to_command(action)
        assert mapped is not None
        script.append((seat, mapped[0], dict(mapped[1])))
        state, _ = game.apply(state, seat, action, now)
    return script


async def _throughput(
    service: Service,
    game: Game[Any],
    seats: int,
    games: list[int],
    options: dict[str, Any] | None = None,
) -> tuple[float, int, float]:
    """Commands per second with every game in ``games`` (indices of populated channels)
    receiving commands at once; how many were refused; pictures drawn per second."""
    done = errors = pictures = 0
    script = _script(game, seats, options)
    deadline = time.perf_counter() + THROUGHPUT_SECONDS

    async def worker(i: int) -> None:
        """One game: its players play the script in turn, each waiting for the reply."""
        nonlocal done, errors, pictures
        place = Place(10_000 + i, 1)
        for seat, command, args in script:
            if time.perf_counter() >= deadline:
                return
            reply = await service.act(Actor(1 + seat, f"P{seat}"), place, game.name, command, args)
            done += 1
            pictures += sum(1 for out in reply.public if out.message.image is not None)
            if not reply.ok:
                errors += 1
                return

    started = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in games))
    elapsed = time.perf_counter() - started
    return done / elapsed, errors, pictures / elapsed


async def _postgresql(
    game: Game[Any], seats: int, tiny: Game[Any], long: dict[str, Any]
) -> tuple[str, list[tuple[str, tuple[float, int, float]]]]:
    """The throughputs without pictures on a fresh PostgreSQL database (none without one), and
    what the server is (durable, or why it was skipped)."""
    base, label = await pg.checked()
    if not base:
        return label, []
    url, dsn = await pg.database(base)
    try:
        service = await Service.open(url, render=False)
        await _populate(service, tiny, 2, CONCURRENT, first_channel=100_000, options=long)
        await _populate(service, game, seats, CONCURRENT, first_channel=200_000)
        alone = await _throughput(service, tiny, 2, [90_000 + i for i in range(CONCURRENT)], long)
        moves = await _throughput(service, game, seats, [190_000 + i for i in range(CONCURRENT)])
        await service.close()
    finally:
        await pg.drop(dsn, url)
    return label, [
        ("throughput, service alone, PostgreSQL (cmd/s)", alone),
        (f"throughput, {game.name}, PostgreSQL (cmd/s)", moves),
    ]


async def _variant(
    url: str, tiny: Game[Any], long: dict[str, Any], first: int, synchronous: str
) -> tuple[float, int, float]:
    """The service-alone throughput on games of its own, with ``SQLITE_SYNCHRONOUS`` as given
    (read when the engine is made): what durability costs."""
    saved = os.environ.get("SQLITE_SYNCHRONOUS")
    os.environ["SQLITE_SYNCHRONOUS"] = synchronous
    try:
        service = await Service.open(url, render=False, migrate=False)
    finally:
        if saved is None:
            os.environ.pop("SQLITE_SYNCHRONOUS")
        else:
            os.environ["SQLITE_SYNCHRONOUS"] = saved
    await _populate(service, tiny, 2, CONCURRENT, first_channel=first, options=long)
    rate = await _throughput(
        service, tiny, 2, [first - 10_000 + i for i in range(CONCURRENT)], long
    )
    await service.close()
    return rate


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run() -> None:
    game, seats = _pick_game()
    folder = Path(tempfile.mkdtemp(prefix="partida-bench-"))
    path = folder / "bench.db"
    service = await Service.open(f"sqlite+aiosqlite:///{path}", render=True)
    started = time.perf_counter()
    await _populate(service, game, seats, GAMES)
    print(
        f"game: {game.name}, {GAMES} games in the file (filled in {time.perf_counter() - started:.1f} s)"
    )

    state = game.new_game(seats, {}, 1)
    plain, resolving = [], []
    order = list(range(GAMES))
    random.Random(1).shuffle(order)
    for i in order[:SAMPLES]:
        place = Place(10_000 + i, 1)
        cmd0, args0 = _first_action(game, state, 0)
        t0 = time.perf_counter()
        r0 = await service.act(Actor(1, "P0"), place, game.name, cmd0, args0)
        t1 = time.perf_counter()
        cmd1, args1 = _first_action(game, state, 1)
        r1 = await service.act(Actor(2, "P1"), place, game.name, cmd1, args1)
        t2 = time.perf_counter()
        assert r0.ok and r1.ok, (r0, r1)
        plain.append(t1 - t0)
        resolving.append(t2 - t1)
    fsyncs = _fsync_rate(folder)
    bare = _bare_update(path, "FULL")  # the default (SQLITE_SYNCHRONOUS)
    bare_normal = _bare_update(path, "NORMAL")

    # Throughput: CONCURRENT games at once: the real game without and with its pictures, each
    # on games of its own, then the test game (no pictures: the service's own cost).
    fresh = order[SAMPLES:]
    service.render_images = False
    moves_only = await _throughput(service, game, seats, fresh[:CONCURRENT])
    service.render_images = True
    with_pictures = await _throughput(service, game, seats, fresh[CONCURRENT : 2 * CONCURRENT])
    from tests.support.tiny import install

    tiny = install()
    long = {"rounds": 9}  # games that outlast the measurement
    await _populate(service, tiny, 2, CONCURRENT, first_channel=100_000, options=long)
    channels = [90_000 + i for i in range(CONCURRENT)]
    service_only = await _throughput(service, tiny, 2, channels, options=long)
    await service.close()
    url = f"sqlite+aiosqlite:///{path}"
    first = 100_000 + CONCURRENT
    normal = await _variant(url, tiny, long, first, "NORMAL")
    pg_label, on_pg = await _postgresql(game, seats, tiny, long)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    ms = 1000.0
    print(f"{'figure':<44}{'value':>12}{'target':>12}")
    print(f"{'bare SQLite UPDATE + commit, p50 (ms)':<44}{bare * ms:>12.2f}{'':>12}")
    print(f"{'  the same, synchronous=NORMAL (ms)':<44}{bare_normal * ms:>12.2f}{'':>12}")
    print(f"{'the disk: fsync loop (commits/s)':<44}{fsyncs:>12.0f}{'':>12}")
    print(f"{'  bare UPDATE + commit, FULL (commits/s)':<44}{1 / bare:>12.0f}{'':>12}")
    print(f"{'submission, no resolution, p50 (ms)':<44}{_pct(plain, 0.5) * ms:>12.2f}")
    print(
        f"{'submission, no resolution, p99 (ms)':<44}{_pct(plain, 0.99) * ms:>12.2f}{'<= 20':>12}"
    )
    print(f"{'  ratio p99 / bare update':<44}{_pct(plain, 0.99) / bare:>12.1f}")
    print(f"{'submission resolving + render, p50 (ms)':<44}{_pct(resolving, 0.5) * ms:>12.2f}")
    print(
        f"{'submission resolving + render, p99 (ms)':<44}{_pct(resolving, 0.99) * ms:>12.2f}{'<= 150':>12}"
    )
    print(f"{'  ratio p99 / bare update':<44}{_pct(resolving, 0.99) / bare:>12.1f}")
    for label, (rate, errors, pictures), target in (
        ("throughput, service alone (cmd/s)", service_only, ">= 300"),
        (f"throughput, {game.name} (cmd/s)", moves_only, ">= 300"),
        (f"throughput, {game.name} + pictures (cmd/s)", with_pictures, ""),
    ):
        print(f"{label:<44}{rate:>12.0f}{target:>12}")
        print(f"{'  refused commands (must be 0)':<44}{errors:>12}")
        if pictures:
            print(f"{'  pictures drawn (per s)':<44}{pictures:>12.0f}")
    print(f"{'  the disk: fsync loop (commits/s)':<44}{fsyncs:>12.0f}{'':>12}")
    rate, errors, _ = normal
    print(f"{'  service alone, synchronous=NORMAL (cmd/s)':<44}{rate:>12.0f}{'':>12}")
    print(f"{'    refused commands (must be 0)':<44}{errors:>12}")
    print(f"PostgreSQL: {pg_label}")
    for label, (rate, errors, _) in on_pg:
        print(f"{label:<44}{rate:>12.0f}{'>= 300':>12}")
        print(f"{'  refused commands (must be 0)':<44}{errors:>12}")
    print(f"{'peak memory, max RSS (MB)':<44}{peak:>12.0f}")


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
