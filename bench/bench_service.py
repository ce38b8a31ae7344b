"""Command latency and throughput through the service, on a SQLite file holding 10,000 games.

Figures:
- p50/p99 of a submission that does not resolve a phase, and of one that does (with rendering),
  against the cost of one bare SQLite ``UPDATE`` + commit measured in the same run;
- sustained commands/s with 1,000 games receiving commands concurrently;
- peak memory (max RSS) of the run.

Targets on a 2-core machine: p99 ≤ 20 ms (no resolution), ≤ 150 ms (resolution), ≥ 300 cmd/s.
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


def _bare_update(path: Path, n: int = 300) -> float:
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
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


async def _throughput(
    service: Service,
    game: Game[Any],
    seats: int,
    games: list[int],
    options: dict[str, Any] | None = None,
) -> tuple[float, int]:
    """Commands per second with every game in ``games`` (indices of populated channels)
    receiving commands at once, and how many were refused."""
    done = errors = 0
    deadline = time.perf_counter() + THROUGHPUT_SECONDS

    async def worker(i: int) -> None:
        """One game: its players act in turn with their first legal command. The worker keeps
        a mirror of the game (same seed, same actions) instead of reading the database, so the
        figure counts the service's work, not the harness's."""
        nonlocal done, errors
        place = Place(10_000 + i, 1)
        current = game.new_game(seats, options, 1)
        while time.perf_counter() < deadline and not game.is_over(current):
            seat = min(game.pending(current))
            action = next(a for a in game.legal_actions(current, seat) if game.to_command(a))
            mapped = game.to_command(action)
            assert mapped is not None
            reply = await service.act(Actor(1 + seat, f"P{seat}"), place, game.name, *mapped)
            done += 1
            if not reply.ok:
                errors += 1
                return
            current, _ = game.apply(current, seat, action, time.time())

    started = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in games))
    return done / (time.perf_counter() - started), errors


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
    bare = _bare_update(path)

    # Throughput: CONCURRENT games at once, with the real game (phases resolve and are drawn)
    # and with the test game (no picture: the service's own cost).
    with_pictures = await _throughput(service, game, seats, order[SAMPLES : SAMPLES + CONCURRENT])
    from tests.support.tiny import install

    tiny = install()
    long = {"rounds": 9}  # games that outlast the measurement
    await _populate(service, tiny, 2, CONCURRENT, first_channel=100_000, options=long)
    channels = [90_000 + i for i in range(CONCURRENT)]
    service_only = await _throughput(service, tiny, 2, channels, options=long)
    await service.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    ms = 1000.0
    print(f"{'figure':<44}{'value':>12}{'target':>12}")
    print(f"{'bare SQLite UPDATE + commit, p50 (ms)':<44}{bare * ms:>12.2f}{'':>12}")
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
    for label, (rate, errors) in (
        (f"throughput, {game.name} + pictures (cmd/s)", with_pictures),
        ("throughput, service alone (cmd/s)", service_only),
    ):
        print(f"{label:<44}{rate:>12.0f}{'>= 300':>12}")
        print(f"{'  refused commands (must be 0)':<44}{errors:>12}")
    print(f"{'peak memory, max RSS (MB)':<44}{peak:>12.0f}")


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
