"""SIGKILL the bot inside a move, restart it, and keep exactly the committed moves.

The bot is ``tests/reliability/driver.py`` in its own process, on a SQLite file (the default
deployment) and on PostgreSQL (the killed process's connections die with it; the server rolls
their transactions back). It prints ``TRY`` before each submission and ``ACK`` once the service
answered "✅ Recorded", flushing each line, so after a kill the test knows exactly what the
players were told. It kills itself on purpose (``--kill-at``): inside a phase-resolving move's
transaction, right after its writes ran, or between that move's commit and its reply. After
every kill:

- every acknowledged action is in the log, at the sequence number it was played at, with the
  same seat and action;
- the move killed before its commit is not in the log; the one killed after it is;
- every game's stored state equals the replay of its log (no half-applied resolution);

and at the end, a run without kills finishes every game.

The console (``python -m bot.cli console``), fed a script on stdin, is killed at random
moments: it handles one line at a time, so after a kill the log holds every "✅ Recorded." it
printed and at most one more (the command in flight when it died).
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

import pytest

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
            assert await service.state_from_log(game_id) == row.state, (
                f"{row.kind}: state != replay"
            )
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


@pytest.mark.parametrize("point", ["write", "commit"])
def test_sigkill_inside_a_move_keeps_exactly_the_committed_moves(
    database_url: str, point: str
) -> None:
    """The driver kills itself on purpose in the middle of phase-resolving submissions: at
    ``write``, inside the move's transaction after its writes ran (so the move must vanish
    whole), or at ``commit``, after the commit and before the player was answered (so the move
    must be there, though nobody was told). Each restart goes on from what was stored."""
    url = database_url
    ids = asyncio.run(_setup(url))
    acks: list[dict[str, Any]] = []
    for kill, on in enumerate((1, 2, 4)):
        process = _driver(url, kill, "--steps", "100000", "--kill-at", point, "--kill-on", str(on))
        out, err = process.communicate(timeout=120)
        assert process.returncode == -signal.SIGKILL, err[-3000:]
        assert "Traceback" not in err, err[-3000:]
        lines = parse_output(out)
        assert lines[-1][0] == "KILL", lines[-3:]
        tries = [d for tag, d in lines if tag == "TRY"]
        killed = tries[-1]
        assert killed["resolves"], "the kill lands in a phase resolution"
        acks += [d for tag, d in lines if tag == "ACK"]
        assert killed not in acks, "the player in flight was never answered"
        asyncio.run(_check(url, ids, acks))  # every answered move survived, states = replays
        stored = asyncio.run(_entry(url, killed["game"], killed["seq"]))
        if point == "write":
            assert stored is None or stored != (killed["seat"], killed["action"]), (
                "a move killed before its commit is not in the log"
            )
        else:
            assert stored == (killed["seat"], killed["action"]), (
                "a move killed after its commit is in the log, at its place"
            )

    # Restart without kills: every game finishes, and still nothing acknowledged is lost.
    process = _driver(url, 999, "--until-done", "--deadline-every", "25")
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err[-3000:]
    acks += [d for tag, d in parse_output(out) if tag == "ACK"]
    statuses = asyncio.run(_check(url, ids, acks))
    assert all(s == FINISHED for s in statuses.values()), statuses


async def _entry(url: str, game_id: int, seq: int) -> tuple[int, Any] | None:
    """The log entry of a game at ``seq``, as (seat, action), if there is one."""
    service = await Service.open(url, render=False, migrate=False)
    try:
        async with service.sessions() as session:
            entries = {e.seq: e for e in await repo.action_log(session, game_id)}
    finally:
        await service.close()
    entry = entries.get(seq)
    return (entry.seat, entry.action) if entry is not None else None


CONSOLE_ROUND = [
    "@alice /game new tiny rounds:2",
    "@bob /game join",
    "@alice /game start",
    "@alice /tiny bid 3",
    "@bob /tiny bid 2",
    "@alice /tiny take",
    "@bob /tiny take",
    "@alice /tiny pass",
    "@bob /tiny pass",
    "/wait 25h",
]
CONSOLE_KILLS = 4


async def _console_totals(url: str) -> tuple[int, int, int]:
    """(acknowledgeable log entries, finished games, games checked) for the console channel;
    every game's state is checked against its replay."""
    from sqlalchemy import select

    from bot.store.models import GameRow

    # Opened as the next start would open it: a kill during start-up may have left the later
    # migrations undone (each one is atomic), and that start completes them.
    service = await Service.open(url, render=False)
    try:
        async with service.sessions() as session:
            games = (await session.execute(select(GameRow))).unique().scalars().all()
            # Every game's log, wherever it is kept (a finished game's is compacted).
            by_hand = [
                entry
                for game in games
                for entry in await repo.action_log(session, game.id)
                if not entry.by_default
            ]
        for game in games:
            if game.status != "lobby" and game.state is not None:
                assert await service.state_from_log(game.id) == game.state, (
                    f"game {game.id} != replay"
                )
        return len(by_hand), sum(g.status == FINISHED for g in games), len(games)
    finally:
        await service.close()


def _console(url: str, folder: Path, script: str) -> subprocess.Popen[str]:
    """``partida console`` reading a script file, as a user would run it (with the test game
    registered first: it is not part of the product)."""
    path = folder / f"script-{len(script)}.txt"
    path.write_text(script, encoding="utf-8")
    argv = ["console", "--database", url, "--images", str(folder / "img"), str(path)]
    code = (
        "import sys; from tests.support.tiny import install; install(); "
        f"from bot.cli import main; sys.exit(main({argv!r}))"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_sigkill_the_console_loses_no_acknowledged_move(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    script = "\n".join(CONSOLE_ROUND * 60) + "\n"
    rng = random.Random(7)
    logged = 0
    for _ in range(CONSOLE_KILLS):
        process = _console(url, tmp_path, script)
        time.sleep(rng.uniform(1.0, 2.0))  # start-up (imports, migrations) is about a second
        process.send_signal(signal.SIGKILL)
        out, err = process.communicate(timeout=30)
        assert "Traceback" not in err, err[-3000:]
        acks = out.count("✅ Recorded.")
        if not (tmp_path / "console.db").exists():
            continue  # killed before it created the database
        now, _finished, _games = asyncio.run(_console_totals(url))
        assert acks <= now - logged <= acks + 1, f"{acks} acknowledged, {now - logged} logged"
        print(f"console killed after {acks} acknowledged moves ({now - logged} logged)")
        logged = now
    # A last run to the end of the script: its games finish, nothing is lost.
    process = _console(url, tmp_path, "\n".join(CONSOLE_ROUND * 4) + "\n")
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err[-3000:]
    now, finished, games = asyncio.run(_console_totals(url))
    assert now - logged == out.count("✅ Recorded.")
    assert finished >= 2 and games - finished <= 1, (finished, games)
