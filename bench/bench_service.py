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


async def _populate(service: Service, game: Game[Any], seats: int, count: int) -> None:
    now = time.time()
    state = game.dump(game.new_game(seats, {}, 1))
    phase = game.phase(game.new_game(seats, {}, 1))
    async with service.sessions() as session, session.begin():
        for i in range(count):
            row = GameRow(
                channel_id=10_000 + i,
                open_channel_id=10_000 + i,
                guild_id=1,
                kind=game.name,
                options=game.check_options({}, seats),
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

    # Throughput: CONCURRENT games, each a task submitting both seats' moves in turn.
    done = 0
    deadline = time.perf_counter() + THROUGHPUT_SECONDS
    base = order[SAMPLES : SAMPLES + CONCURRENT]

    async def worker(i: int) -> None:
        nonlocal done
        place = Place(10_000 + i, 1)
        current = game.new_game(seats, {}, 1)
        while time.perf_counter() < deadline:
            for seat in range(seats):
                if time.perf_counter() >= deadline:
                    return
                legal = game.legal_actions(current, seat)
                if not legal:
                    continue
                mapped = game.to_command(legal[0])
                if mapped is None:
                    continue
                await service.act(Actor(1 + seat, f"P{seat}"), place, game.name, *mapped)
                done += 1
            # Follow the stored state so the next commands stay legal.
            async with service.sessions() as session:
                from bot.store import repository as repo

                row = await repo.open_game(session, place.channel_id)
                if row is None or row.state is None:
                    return
                current = game.load(row.state)

    t0 = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in base))
    elapsed = time.perf_counter() - t0
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
    print(
        f"{'throughput, ' + str(len(base)) + ' concurrent games (cmd/s)':<44}{done / elapsed:>12.0f}{'>= 300':>12}"
    )
    print(f"{'peak memory, max RSS (MB)':<44}{peak:>12.0f}")


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
