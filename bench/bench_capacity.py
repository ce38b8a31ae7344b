"""A process over its drawing capacity: how long a move's answer takes, and when its picture comes.

Run: ``python -m bench capacity`` (``BENCH_CAPACITY_GAMES`` = 1000, ``BENCH_CAPACITY_SECONDS`` =
20 per run). 1,000 games of Bad Bones with pictures (every phase's table drawn, by the default
render workers: ``RENDER_WORKERS``, one per core) in a SQLite file, each played by its own
task through the service, as the Discord bot calls it.

First the capacity is measured: commands/s with every game playing at once and no pause, with
and without pictures. Then the games are *paced* (each waits a random think time between its
commands) so that together they offer ``OVER`` (3, ``BENCH_CAPACITY_OVER``) times the capacity
with pictures, and less than the capacity without them: a process whose pictures are the ceiling, as issue 30 measured
it. Two runs, on games of their own:

- **waiting for pictures** (``Service.picture_wait = None``, what the bot did before): a move's
  answer comes when its picture is drawn;
- **answer at once** (``drawing.PICTURE_WAIT``, what the Discord bot does now): a picture not
  drawn within that, or that the render queue says will not be, follows its message
  (``Outgoing.image_later``: the sender adds it by an edit).

Printed per run: the commands offered and answered per second, p50/p99/max of a move's answer,
how many table messages carried their picture and how many had it follow, the p50/p99 delay of
a picture that followed (from the answer), and pictures lost (a late picture that never came:
must be 0). Target (issue 30): a move is answered at once whatever the pictures' backlog.
"""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.bench_service import _populate, _script
from bot.service import Actor, Place, Service, drawing
from bot.service.replies import Reply
from rules.core import Game, get_game

GAMES = int(os.environ.get("BENCH_CAPACITY_GAMES", "1000"))
SECONDS = float(os.environ.get("BENCH_CAPACITY_SECONDS", "20"))
# The offered rate, as a multiple of the capacity with pictures (``BENCH_CAPACITY_OVER``).
OVER = float(os.environ.get("BENCH_CAPACITY_OVER", "3"))
SEATS = 2


@dataclass
class Run:
    answers: list[float] = field(default_factory=list)
    with_picture: int = 0
    followed: list[float] = field(default_factory=list)  # seconds after the answer
    lost: int = 0
    refused: int = 0
    late: list[asyncio.Task[None]] = field(default_factory=list)

    def took(self, reply: Reply, seconds: float) -> None:
        self.answers.append(seconds)
        if not reply.ok:
            self.refused += 1
        answered = time.perf_counter()
        for out in reply.public:
            if out.message.image is not None:
                self.with_picture += 1
            if out.image_later is not None:
                self.late.append(asyncio.create_task(self.follows(out.image_later, answered)))

    async def follows(self, later: asyncio.Future[Any], answered: float) -> None:
        image = await later
        if image is None:
            self.lost += 1
        else:
            self.followed.append(time.perf_counter() - answered)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def play(
    service: Service, game: Game[Any], channels: range, think: float, seconds: float
) -> tuple[Run, float]:
    """Every game of ``channels`` plays its script (``think``: the mean pause between its
    commands; 0: none) for ``seconds``; returns what was seen and the commands/s."""
    run = Run()
    script = _script(game, SEATS, None)
    end = time.perf_counter() + seconds
    rng = random.Random(7)

    async def one(channel: int) -> None:
        place = Place(channel, 1)
        if think:  # each game's first command comes like its next ones: at a random time
            start = rng.expovariate(1 / think)
            if start >= seconds:
                return  # not this run's
            await asyncio.sleep(start)
        for seat, command, args in script:
            if time.perf_counter() >= end:
                return
            began = time.perf_counter()
            reply = await service.act(Actor(1 + seat, f"P{seat}"), place, game.name, command, args)
            run.took(reply, time.perf_counter() - began)
            if think:  # a pause, cut short at the end of the run (which times the rate)
                pause = rng.expovariate(1 / think)
                await asyncio.sleep(min(pause, max(0.0, end - time.perf_counter())))

    started = time.perf_counter()
    await asyncio.gather(*(one(c) for c in channels))
    rate = len(run.answers) / (time.perf_counter() - started)
    await asyncio.gather(*run.late)  # every late picture comes (or counts as lost)
    return run, rate


def report(label: str, run: Run, offered: float, rate: float) -> None:
    ms = 1000.0
    pictures = run.with_picture + len(run.followed) + run.lost
    print(f"{label}")
    print(f"  commands/s offered, answered        {offered:8.0f} {rate:8.0f}")
    print(
        f"  a move's answer p50 / p99 / max      {pct(run.answers, 0.5) * ms:7.0f} ms "
        f"{pct(run.answers, 0.99) * ms:6.0f} ms {max(run.answers) * ms:6.0f} ms"
    )
    print(
        f"  table pictures: with the message {run.with_picture}, followed it "
        f"{len(run.followed)} of {pictures}"
    )
    if run.followed:
        print(
            f"  a picture that followed, after the answer p50 / p99  "
            f"{pct(run.followed, 0.5):5.2f} s {pct(run.followed, 0.99):5.2f} s"
        )
    print(f"  late pictures lost (must be 0)       {run.lost:8d}")
    print(f"  refused moves (must be 0)            {run.refused:8d}")


async def main_async() -> None:
    game = get_game("badbones")
    with tempfile.TemporaryDirectory() as folder:
        service = await Service.open(f"sqlite+aiosqlite:///{Path(folder) / 'capacity.db'}")
        # Fresh games for each of the four runs (the script is the same game everywhere).
        await _populate(service, game, SEATS, 4 * GAMES)
        blocks = [range(10_000 + i * GAMES, 10_000 + (i + 1) * GAMES) for i in range(4)]
        quick = min(SECONDS, 10.0)
        service.render_images = False
        _, plain = await play(service, game, blocks[0], 0, quick)
        service.render_images = True
        _, drawn = await play(service, game, blocks[1], 0, quick)
        offered = OVER * drawn
        print(
            f"capacity, {GAMES} games at once, no pause: {plain:.0f} cmd/s without pictures, "
            f"{drawn:.0f} with ({drawing.workers() or 'no'} render workers); paced to offer "
            f"{offered:.0f} cmd/s"
        )
        if offered >= 0.9 * plain:
            print(
                "  (the service alone is near that rate too: the answers wait on more than the pictures)"
            )
        think = GAMES / offered
        service.picture_wait = None
        before, rate = await play(service, game, blocks[2], think, SECONDS)
        report("waiting for pictures (before)", before, offered, rate)
        service.picture_wait = drawing.PICTURE_WAIT
        now, rate = await play(service, game, blocks[3], think, SECONDS)
        report(
            f"answer at once, the picture follows (now: wait <= {drawing.PICTURE_WAIT} s)",
            now,
            offered,
            rate,
        )
        await service.close()
        drawing.shutdown()


def main(argv: list[str] | None = None) -> None:
    asyncio.run(main_async())


if __name__ == "__main__":
    main()
