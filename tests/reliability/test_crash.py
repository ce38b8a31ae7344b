"""SIGKILL the bot at random points while it plays, restart it, and lose nothing acknowledged.

The bot is ``tests/reliability/driver.py`` in its own process, on a SQLite file (the default
deployment) and on PostgreSQL (the killed process's connections die with it; the server rolls
their transactions back). It prints ``TRY`` before each submission and ``ACK`` once the service answered
"✅ Recorded", flushing each line, so after a kill the test knows exactly what the players were
told. After every kill:

- every acknowledged action is in the log, at the sequence number it was played at, with the
  same seat and action;
- every game's stored state equals the replay of its log (no half-applied resolution);

and at the end, a run without kills finishes every game. The kills are timed at random; the test
keeps going until at least one kill landed between the ``TRY`` of a phase-resolving submission
and its ``ACK`` (the middle of a resolution), within a cap.
"""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bot.service import Service
from bot.store import repository as repo
from bot.store.models import FINISHED
from tests.reliability.driver import (
    GameSpec,
    all_games,
    parse_output,
    seat_count,
    setup_games,
    short_options,
)

ROOT = Path(__file__).resolve().parents[2]
MIN_KILLS = 6
MAX_KILLS = 24


async def _setup(url: str, base: int = 10) -> dict[int, int]:
    """One short game of each kind (and a 3-seat tiny game) in channels from ``base`` on."""
    service = await Service.open(url, render=False)
    try:
        kinds = all_games()
        specs = [
            GameSpec(k, seat_count(k), base + i, short_options(k)) for i, k in enumerate(kinds)
        ]
        specs.append(GameSpec("tiny", 3, base + len(kinds)))
        return await setup_games(service, specs)
    finally:
        await service.close()


async def _check(url: str, ids: dict[int, int], acks: list[dict[str, Any]]) -> dict[int, str]:
    """Every ACK is in the log; every state is its log's replay. Returns game id → status."""
    service = await Service.open(url, render=False, migrate=False)
    statuses: dict[int, str] = {}
    try:
        logs: dict[int, dict[int, Any]] = {}
        for game_id in ids.values():
            async with service.sessions() as session:
                row = await repo.game_by_id(session, game_id)
                assert row is not None
                logs[game_id] = {e.seq: e for e in await repo.action_log(session, game_id)}
            assert await service.replay(game_id) == row.state, f"{row.kind}: state != replay"
            statuses[game_id] = row.status
        for ack in acks:
            entry = logs[ack["game"]].get(ack["seq"])
            assert entry is not None, f"acknowledged but not in the log: {ack}"
            assert (entry.seat, entry.action) == (ack["seat"], ack["action"]), ack
    finally:
        await service.close()
    return statuses


def _driver(url: str, seed: int, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.driver", url, "--seed", str(seed), *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_sigkill_at_random_points_loses_no_acknowledged_move(database_url: str) -> None:
    url = database_url
    ids = asyncio.run(_setup(url))
    rng = random.Random(20261129)
    acks: list[dict[str, Any]] = []
    mid_resolution = 0
    kills = 0
    while kills < MIN_KILLS or (mid_resolution == 0 and kills < MAX_KILLS):
        process = _driver(url, kills, "--steps", "100000", "--deadline-every", "25")
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.startswith("READY"), first + (process.stderr.read() if process.stderr else "")
        time.sleep(rng.uniform(0.02, 0.5))
        process.send_signal(signal.SIGKILL)
        rest, err = process.communicate(timeout=30)
        kills += 1
        assert "Traceback" not in err, err[-3000:]
        lines = parse_output(rest)
        acks += [d for tag, d in lines if tag == "ACK"]
        facts = [(tag, d) for tag, d in lines if tag in ("TRY", "ACK")]
        if facts and facts[-1][0] == "TRY" and facts[-1][1]["resolves"]:
            mid_resolution += 1
        statuses = asyncio.run(_check(url, ids, acks))
        if all(s == FINISHED for s in statuses.values()):
            # Everything ended before a kill hit a resolution: more games, keep killing.
            ids.update(asyncio.run(_setup(url, base=100 * (kills + 1))))
    assert acks, "the driver never got to acknowledge anything before the kills"
    assert mid_resolution >= 1, f"no kill hit a phase resolution in {kills} kills"

    # Restart without kills: every game finishes, and still nothing acknowledged is lost.
    process = _driver(url, 999, "--until-done", "--deadline-every", "25")
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err[-3000:]
    acks += [d for tag, d in parse_output(out) if tag == "ACK"]
    statuses = asyncio.run(_check(url, ids, acks))
    assert all(s == FINISHED for s in statuses.values()), statuses
