"""Fair use under attack: other tables' answer times, calm and while one user attacks.

Run: ``.venv/bin/python -m bench fairuse`` (about a minute). Through the service (no Discord), on
a SQLite file, with pictures drawn by the default render workers: ``TABLES`` Zombies vs
Vampires tables play paced random legal moves (a move every ``PACE`` s per table), and their
latencies are measured three ways, ``SECONDS`` each, the three phases run ``ROUNDS`` times in
turn:

- calm: the tables alone;
- replay attack: a user in no game asks ``/game replay`` of a long finished game five times a
  second (the issue's attack: 20 in 4 s, here for the whole phase);
- command spam: a user sends boards, history pages and status in the tables' channels, ~45 a
  second (the issue's 523 commands in 12 s; about what Discord lets one user send).

Printed per phase: p50 and p99 of a move to its answer (every move) and of a move to its
picture (the moves that draw one: the reply carries the picture, so this is when the channel
can show it), their ratio to calm (target: within 1.5×), and what the attacker got (drawn,
answered with the replay already being posted or posted, refused with "try again"). The
figures are wall-clock: on a machine shared with other work they move with its load.
``BENCH_UNLIMITED=1`` runs the same attacks without the budgets and one-replay-at-a-time (the
replays still draw in the low-priority worker), to see what those protect.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from bot.service import Actor, Place, Reply, Service
from bot.service.fairuse import LOOK, REPLAY, Budget, FairUse, Limit
from bot.store import repository as repo
from rules.core import get_game

TABLES = int(os.environ.get("BENCH_TABLES", "6"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "10"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "2"))
UNLIMITED = os.environ.get("BENCH_UNLIMITED", "") == "1"
PACE = float(os.environ.get("BENCH_PACE", "0.5"))
GUILD = 1
ATTACKER = Actor(999, "Mallory")
SPAM_RATE = 45.0  # commands a second


def _p(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _move(service: Service, place: Place, rng: random.Random) -> Reply | None:
    """One random legal move of the channel's game (a new game when it has ended)."""
    game = get_game("zvv")
    async with service.sessions() as session:
        row = await repo.open_game(session, place.channel_id)
    if row is None or row.state is None:
        first = Actor(place.channel_id * 10, "A")
        await service.new_game(first, place, "zvv", {"round_limit": 30})
        await service.join(Actor(place.channel_id * 10 + 1, "B"), place)
        await service.start(first, place)
        return None
    state = game.load(row.state)
    seat = rng.choice(sorted(game.pending(state)))
    actions = [game.to_command(a) for a in game.legal_actions(state, seat)]
    command, args = rng.choice([a for a in actions if a is not None])
    seated = next(s for s in row.seats if s.seat == seat)
    actor = Actor(seated.user_id, seated.display_name)
    return await service.act(actor, place, "zvv", command, dict(args))


async def _finished_game(service: Service, rng: random.Random) -> int:
    """A finished 30-round game in the server (the replay attack's target)."""
    place = Place(50, GUILD)
    service.render_images = False
    try:
        await _move(service, place, rng)
        async with service.sessions() as session:
            row = await repo.open_game(session, place.channel_id)
            assert row is not None
            game_id = row.id
        while True:
            async with service.sessions() as session:
                row = await repo.game_by_id(session, game_id)
                assert row is not None
                if row.status == "finished":
                    return game_id
            await _move(service, place, rng)
    finally:
        service.render_images = True


async def _phase(
    service: Service, attack: Callable[[], Coroutine[Any, Any, None]] | None
) -> tuple[list[float], list[float]]:
    """(every move's answer time, the answer times of moves that drew a picture)."""
    answered: list[float] = []
    pictured: list[float] = []
    end = time.perf_counter() + SECONDS

    async def table(channel: int) -> None:
        rng = random.Random(channel)
        place = Place(channel, GUILD)
        while time.perf_counter() < end:
            started = time.perf_counter()
            reply = await _move(service, place, rng)
            took = time.perf_counter() - started
            if reply is not None and reply.ok:
                answered.append(took)
                if any(o.message.image is not None for o in reply.public):
                    pictured.append(took)
            await asyncio.sleep(max(0.0, PACE - took))

    tasks = [asyncio.create_task(table(1000 + n)) for n in range(TABLES)]
    attacker = asyncio.create_task(attack()) if attack is not None else None
    await asyncio.gather(*tasks)
    if attacker is not None:
        attacker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await attacker
    return answered, pictured


def _outcome(reply: Reply) -> str:
    if reply.ok:
        return "drawn" if reply.public else "answered"
    text = str(reply.private.text) if reply.private is not None else ""
    if "try again" in text:
        return "refused: try again"
    if "replay of game" in text or "another replay" in text:
        return "answered with the replay in hand"
    return "refused: other"


async def run() -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'fairuse.db'}"
        service = await Service.open(url, render=True, computer_delay=0.0)
        if UNLIMITED:  # the same attacks without the budgets and one-replay-at-a-time
            endless = Limit(10**9, 1.0)
            service.fair_use = FairUse(
                time.time, {k: Budget(endless, endless) for k in (LOOK, REPLAY)}
            )
            service._replay_elsewhere = lambda guild, wanted: None  # type: ignore[method-assign]
        rng = random.Random(7)
        target = await _finished_game(service, rng)
        for n in range(TABLES):  # the tables' first games, and warm render workers
            await _move(service, Place(1000 + n, GUILD), rng)
            await _move(service, Place(1000 + n, GUILD), rng)
        await _phase(service, None)  # warm-up: workers' imports, palettes, text caches
        seen: Counter[str] = Counter()
        here = Place(2000, GUILD)

        async def replays() -> None:
            while True:
                reply = await service.replay_game(ATTACKER, here, target)
                seen["replay " + _outcome(reply)] += 1
                await asyncio.sleep(0.2)

        async def spam() -> None:
            async def one(k: int) -> None:
                asks = (service.board, service.history, service.status)
                while True:
                    reply = await asks[k % 3](ATTACKER, Place(1000 + k % TABLES, GUILD))
                    seen[f"spam {_outcome(reply)}"] += 1
                    k += 4
                    await asyncio.sleep(4 / SPAM_RATE)

            await asyncio.gather(*(one(k) for k in range(4)))

        results: dict[str, tuple[list[float], list[float]]] = {}
        for _ in range(ROUNDS):  # interleaved, so a neighbour's burst of load hits all alike
            for name, attack in (
                ("calm", None),
                ("replay attack", replays),
                ("command spam", spam),
            ):
                answer, picture = await _phase(service, attack)
                so_far = results.setdefault(name, ([], []))
                so_far[0].extend(answer)
                so_far[1].extend(picture)
        await service.close()
        from bot.service import drawing

        drawing.shutdown()
    calm_answer, calm_picture = results["calm"]
    print(
        f"{TABLES} ZvV tables, a move every {PACE} s each, {ROUNDS} × {SECONDS:.0f} s a phase; "
        f"render workers: {drawing.workers()}; load average {os.getloadavg()[0]:.1f}"
        + ("; WITHOUT the fair-use limits" if UNLIMITED else "")
    )
    print(f"{'phase':14} {'moves':>5} {'answer p50/p99 ms':>18} {'picture p50/p99 ms':>19}  × calm")
    for name, (answer, picture) in results.items():
        ratios = [
            _p(answer, 0.5) / _p(calm_answer, 0.5),
            _p(answer, 0.99) / _p(calm_answer, 0.99),
            _p(picture, 0.5) / _p(calm_picture, 0.5),
            _p(picture, 0.99) / _p(calm_picture, 0.99),
        ]
        verdict = "" if name == "calm" else ("ok" if max(ratios) <= 1.5 else "OVER 1.5×")
        print(
            f"{name:14} {len(answer):5} {1e3 * _p(answer, 0.5):8.0f} /{1e3 * _p(answer, 0.99):6.0f}"
            f"  {1e3 * _p(picture, 0.5):9.0f} /{1e3 * _p(picture, 0.99):6.0f}"
            f"   {' '.join(f'{r:.2f}' for r in ratios)} {verdict}"
        )
    print("the attacker got: " + ", ".join(f"{k} {v}" for k, v in sorted(seen.items())))
    print(f"(median of all answer times: {1e3 * statistics.median(calm_answer):.0f} ms calm)")


def main() -> None:
    asyncio.run(run())
