"""Load: 1,000 games played concurrently through the service, on SQLite and on PostgreSQL.

Every game (all registered games in turn, plus the test game when none is registered) has its
own task that plays random legal moves as the seated users, starts a new game in its channel
when one ends, and checks every reply. Two runs per database:

- **saturated**: no pause between commands, at most ``BENCH_LOAD_INFLIGHT`` (32) commands in
  flight at once, like a bot's bounded pool of handlers: the most commands/s the service gives;
- **paced**: each game waits a random think time between its commands, chosen so that the 1,000
  games together offer half the saturated rate (or ``BENCH_LOAD_THINK`` s): a busy but not
  saturated server, where the latency is what a player feels.

Printed per run: commands/s, p50 and p99 latency, errors (refused or failed replies: must be 0,
every command is legal) and lost moves (acknowledged submissions missing from the action log:
must be 0). PostgreSQL runs when ``BENCH_PG_URL`` (or ``PARTIDA_TEST_PG_URL``) names a durable
server (``bench/pg.py``: ``BENCH_PG_UNDURABLE=1`` measures one with fsync off anyway); a fresh
database is created there and dropped afterwards.

``python -m bench.bench_load`` (environment: ``BENCH_LOAD_GAMES`` = 1000, ``BENCH_LOAD_SECONDS``
= 5 per run).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import random
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bench import pg
from bot.service import Actor, Place, Reply, Service
from bot.service.moves import MAX_AUTOMATIC
from bot.store.models import ACTIVE, GameRow, SeatRow
from rules.core import Game, game_names, get_game

GAMES = int(os.environ.get("BENCH_LOAD_GAMES", "1000"))
SECONDS = float(os.environ.get("BENCH_LOAD_SECONDS", "5"))
INFLIGHT = int(os.environ.get("BENCH_LOAD_INFLIGHT", "32"))
THINK = float(os.environ.get("BENCH_LOAD_THINK", "0"))  # 0: offer half the saturated rate
T0 = 1_900_000_000.0  # a frozen clock: the workers mirror each game's state exactly


def kinds() -> list[str]:
    names = game_names()
    if not names:
        from tests.support.tiny import install

        install()
        names = ["tiny"]
    return names


def user(channel: int, seat: int) -> Actor:
    return Actor(channel * 10 + seat + 1, f"P{seat}")


def seats_for(engine: Game[Any]) -> int:
    return max(engine.min_seats, min(engine.max_seats, 2))


async def populate(service: Service, count: int) -> dict[int, tuple[int, str, int]]:
    """``count`` started games, inserted directly (the set-up is not what is measured).
    Returns channel → (game id, kind, seed)."""
    names = kinds()
    async with service.sessions() as session, session.begin():
        for i in range(count):
            engine = get_game(names[i % len(names)])
            seats = seats_for(engine)
            channel = 100_000 + i
            state = engine.new_game(seats, {}, i)
            row = GameRow(
                channel_id=channel,
                open_channel_id=channel,
                guild_id=1,
                kind=engine.name,
                options=engine.check_options({}, seats),
                settings={"deadline_minutes": 1440, "reminder_minutes": 120, "locale": "en"},
                status=ACTIVE,
                host_id=user(channel, 0).user_id,
                seed=i,
                state=engine.dump(state),
                phase=engine.phase(state),
                phase_started_at=T0,
                created_at=T0,
                updated_at=T0,
            )
            row.seats = [
                SeatRow(seat=s, user_id=user(channel, s).user_id, display_name=f"P{s}")
                for s in range(seats)
            ]
            session.add(row)
    async with service.sessions() as session:
        rows = (
            await session.execute(
                select(GameRow.channel_id, GameRow.id, GameRow.kind, GameRow.seed)
            )
        ).all()
    return {channel: (game_id, kind, seed) for channel, game_id, kind, seed in rows}


class Run:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors = 0
        self.acked: Counter[int] = Counter()  # game id → acknowledged submissions
        self.samples: list[str] = []

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.samples) < 3:
            self.samples.append(text[:200])


async def worker(
    service: Service,
    channel: int,
    game_id: int,
    kind: str,
    seed: int,
    until: float,
    think: float,
    run: Run,
    gate: asyncio.Semaphore | None,
) -> None:
    rng = random.Random(channel)
    engine = get_game(kind)
    seats = seats_for(engine)
    state = engine.new_game(seats, {}, seed)
    place = Place(channel, 1)
    if think:
        await pause(rng.uniform(0, think), until)  # spread the first commands out
    while time.perf_counter() < until:
        if engine.is_over(state):
            async with gate or contextlib.nullcontext():
                game_id, state = await restart(service, engine, channel, seats, run)
            if game_id < 0:
                return
            continue
        pending = engine.pending(state)
        seat = rng.choice(sorted(pending))
        actions = [a for a in engine.legal_actions(state, seat) if engine.to_command(a)]
        if not actions:
            run.error(f"{kind}: seat {seat} pending without a typed command")
            return
        action = rng.choice(actions)
        command, args = engine.to_command(action) or ("", {})
        async with gate or contextlib.nullcontext():
            if time.perf_counter() >= until:
                return
            started = time.perf_counter()
            try:
                reply = await service.act(user(channel, seat), place, kind, command, args)
            except Exception as exc:  # the service must never raise; count it
                run.error(f"{kind}: raised {exc!r}")
                return
            run.latencies.append(time.perf_counter() - started)
        if not reply.ok:
            run.error(f"{kind} {command} {args}: {reply.private.text if reply.private else ''}")
            return
        run.acked[game_id] += 1
        state, _ = engine.apply(state, seat, action, T0)
        state = automatic_steps_played(engine, state)
        if think:
            await pause(rng.expovariate(1 / think), until)


def automatic_steps_played(engine: Game[Any], state: Any) -> Any:
    """The state after the steps with no decision that the service plays in the same move
    (ZvV's autoroll: the next player's roll; ``bot.service.moves.resolve``), so that the
    worker's copy of the game stays the service's."""
    for _ in range(MAX_AUTOMATIC):
        step = next(
            (
                (seat, action)
                for seat in engine.pending(state)
                if (action := engine.automatic(state, seat)) is not None
            ),
            None,
        )
        if step is None:
            break
        state, _ = engine.apply(state, step[0], step[1], T0)
    return state


async def pause(seconds: float, until: float) -> None:
    """Think, but not past the end of the run."""
    await asyncio.sleep(max(0.0, min(seconds, until - time.perf_counter())))


async def restart(
    service: Service, engine: Game[Any], channel: int, seats: int, run: Run
) -> tuple[int, Any]:
    """A finished game: open, fill and start the next one in the same channel (three or more
    commands, timed like the others)."""
    place = Place(channel, 1)
    steps: list[Callable[[], Awaitable[Reply]]] = [
        lambda: service.new_game(user(channel, 0), place, engine.name, {})
    ]
    steps += [functools.partial(service.join, user(channel, s), place) for s in range(1, seats)]
    steps += [lambda: service.start(user(channel, 0), place)]
    for step in steps:
        started = time.perf_counter()
        reply = await step()
        run.latencies.append(time.perf_counter() - started)
        if not reply.ok:
            run.error(f"restart: {reply.private.text if reply.private else ''}")
            return -1, None
    async with service.sessions() as session:
        from bot.store import repository as repo

        row = await repo.open_game(session, channel)
        assert row is not None and row.state is not None
        return row.id, engine.load(row.state)


async def lost_moves(service: Service, run: Run) -> int:
    """Acknowledged submissions missing from the log (more in the log would be a double)."""
    from bot.store import repository as repo

    logged: dict[int, int] = {}
    async with service.sessions() as session:
        for game_id in run.acked:  # each game's log, wherever it is kept (a finished game's is
            # compacted to one row: bot/store/logs.py)
            log = await repo.action_log(session, game_id)
            logged[game_id] = sum(not entry.by_default for entry in log)
    return sum(abs(count - logged.get(game_id, 0)) for game_id, count in run.acked.items())


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def one_backend(url: str, label: str) -> list[tuple[str, float, float, float, int, int]]:
    rows: list[tuple[str, float, float, float, int, int]] = []
    for mode in ("saturated", "paced"):
        if mode == "saturated":
            think, gate = 0.0, asyncio.Semaphore(INFLIGHT)
        else:
            think = THINK or GAMES / max(1.0, 0.5 * rows[0][1])
            gate = None
        service = await Service.open(url, render=False, clock=lambda: T0)
        await drop_all(service)
        games = await populate(service, GAMES)
        run = Run()
        started = time.perf_counter()
        until = started + SECONDS * (1 if mode == "saturated" else 2)
        await asyncio.gather(
            *(
                worker(service, channel, game_id, kind, seed, until, think, run, gate)
                for channel, (game_id, kind, seed) in games.items()
            )
        )
        elapsed = time.perf_counter() - started
        lost = await lost_moves(service, run)
        await service.close()
        name = f"{label}, {mode}" + (f" ({think:.0f} s think)" if think else "")
        rows.append(
            (
                name,
                len(run.latencies) / elapsed,
                pct(run.latencies, 0.5) * 1000,
                pct(run.latencies, 0.99) * 1000,
                run.errors,
                lost,
            )
        )
        for sample in run.samples:
            print(f"  error sample ({label}, {mode}): {sample}")
    return rows


async def drop_all(service: Service) -> None:
    """Start each run from empty tables (the schema stays)."""
    from bot.store.models import Base

    async with service.engine.begin() as connection:
        for table in reversed(Base.metadata.sorted_tables):
            await connection.execute(table.delete())


async def run_all() -> None:
    table = []
    folder = Path(tempfile.mkdtemp(prefix="partida-load-"))
    table += await one_backend(f"sqlite+aiosqlite:///{folder / 'load.db'}", "SQLite")
    base, label = await pg.checked()
    if base:
        url, dsn = await pg.database(base)
        try:
            table += await one_backend(url, f"PostgreSQL ({label})")
        finally:
            await pg.drop(dsn, url)
    else:
        print(f"({label})")
    print(f"{GAMES} concurrent games ({', '.join(kinds())}), {SECONDS:.0f} s per run")
    print(f"{'run':<34}{'cmd/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}{'lost':>6}")
    for label, rate, p50, p99, errors, lost in table:
        print(f"{label:<34}{rate:>9.0f}{p50:>9.1f}{p99:>9.1f}{errors:>8}{lost:>6}")
    print("errors and lost must be 0")


def main() -> None:
    asyncio.run(run_all())


if __name__ == "__main__":
    main()
