"""Operations: ``partida backup`` while the bot writes, structured logs, and no token in logs."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.service import Actor, Place, Service
from bot.store import logs
from rules.core import get_game
from tests.reliability.common import production_logging
from tests.reliability.driver import GameSpec, actor_for, all_games, pick, seat_count, setup_games
from tests.support.commands import command_for

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTA4NzY1NDMyMTA5ODc2NTQzMg.GxYzAb.abcdefghijklmnopqrstuvwxyz0123456789AB"


async def keep_playing(service: Service, channels: dict[int, str], stop: asyncio.Event) -> int:
    """Random legal moves in every game until ``stop``; returns how many were recorded."""
    from bot.store import repository as repo

    rng = random.Random(5)
    done = 0
    while not stop.is_set():
        channel = rng.choice(list(channels))
        async with service.sessions() as session:
            row = await repo.open_game(session, channel)
        if row is None or row.state is None:
            continue
        engine = get_game(row.kind)
        chosen = pick(engine, engine.load(row.state), rng)
        if chosen is None:
            continue
        command, args = command_for(engine, chosen[1])
        reply = await service.act(
            actor_for(channel, chosen[0]), Place(channel, 1), row.kind, command, args
        )
        done += reply.ok
    return done


def check_copy(path: Path) -> int:
    """The copy opens, passes SQLite's integrity check, and every game in it is consistent:
    its state is the replay of its log (no half-written command). Returns the games checked."""
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        games = connection.execute(
            "SELECT id, kind, seed, options, state FROM games WHERE status != 'lobby'"
        ).fetchall()
        import json

        for game_id, kind, seed, options, state in games:
            engine = get_game(kind)
            seats = connection.execute(
                "SELECT count(*) FROM seats WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            replay = engine.new_game(seats, json.loads(options), seed)
            log = [
                (seat, json.loads(action), at)
                for seat, action, at in connection.execute(
                    "SELECT seat, action, at FROM actions WHERE game_id = ? ORDER BY seq",
                    (game_id,),
                )
            ]
            packed = connection.execute(
                "SELECT data FROM game_logs WHERE game_id = ?", (game_id,)
            ).fetchone()
            if packed is not None:  # a closed game's log, compacted (bot/store/logs.py)
                assert not log, f"{kind} {game_id}: its log both as rows and compacted"
                log = [(e.seat, e.action, e.at) for e in logs.unpack(game_id, packed[0])]
            for seat, action, at in log:
                replay, _ = engine.apply(replay, seat, engine.action_from_json(action), at)
            assert engine.dump(replay) == json.loads(state), f"{kind} {game_id}: torn copy"
        return len(games)
    finally:
        connection.close()


async def test_backup_while_the_service_writes(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'live.db'}"
    service = await Service.open(url, render=False)
    kinds = all_games()
    specs = [
        GameSpec(kinds[i % len(kinds)], seat_count(kinds[i % len(kinds)]), 10 + i)
        for i in range(12)
    ]
    await setup_games(service, specs)
    stop = asyncio.Event()
    writer = asyncio.create_task(keep_playing(service, {s.channel: s.kind for s in specs}, stop))
    copies = []
    try:
        for n in range(2):
            await asyncio.sleep(0.3)
            target = tmp_path / f"copy{n}.db"
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot.cli",
                "backup",
                str(target),
                cwd=ROOT,
                env={**os.environ, "DATABASE_URL": url},
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            out, err = await asyncio.wait_for(process.communicate(), timeout=60)
            assert process.returncode == 0, err.decode()
            assert "backed up" in out.decode()
            copies.append(target)
    finally:
        stop.set()
        moves = await writer
        await service.close()
    assert moves > 20, "the service was not writing during the backups"
    for copy in copies:
        assert check_copy(copy) == len(specs)


def test_backup_refuses_postgresql_and_a_missing_file(tmp_path: Path) -> None:
    from bot.cli import backup_sqlite

    assert backup_sqlite("postgresql+asyncpg://u@127.0.0.1/db", tmp_path / "x.db") == 2
    assert backup_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'none.db'}", tmp_path / "x.db") == 2


# A backup in a process whose files may not grow past LIMIT bytes (RLIMIT_FSIZE): the write
# that would cross it fails with EFBIG, as on a full disk, at a point that does not depend on
# timing.
_SMALL_DISK = """
import resource, signal, sys
from pathlib import Path
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # fail the write instead of killing the process
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[3]), int(sys.argv[3])))
from bot.cli import backup_sqlite
sys.exit(backup_sqlite(sys.argv[1], Path(sys.argv[2])))
"""


@pytest.mark.parametrize("earlier", [False, True], ids=["no-copy-yet", "over-an-earlier-copy"])
def test_a_backup_that_cannot_be_written_leaves_the_target_as_it_was(
    tmp_path: Path, earlier: bool
) -> None:
    source = tmp_path / "live.db"
    with sqlite3.connect(source) as connection:
        connection.execute("CREATE TABLE t (v TEXT)")
        connection.executemany("INSERT INTO t VALUES (?)", [("x" * 1000,)] * 200)
    target = tmp_path / "backup.db"
    if earlier:
        target.write_bytes(b"an earlier backup")
    limit = source.stat().st_size // 2
    run = subprocess.run(
        [sys.executable, "-c", _SMALL_DISK, f"sqlite:///{source}", str(target), str(limit)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "backup failed" in run.stderr and "Traceback" not in run.stderr
    if earlier:
        assert target.read_bytes() == b"an earlier backup"
    else:
        assert not target.exists(), "a partial copy under the target's name"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["live.db"] + (["backup.db"] if earlier else [])
    ), "the temporary copy was left behind"


async def test_service_logs_are_structured_lines(tmp_path: Path) -> None:
    """Each command logs one line with the command, channel, guild, user, game and outcome
    (never the arguments: a sealed bid is a secret; and a move is logged as a move of its game,
    never by its command: in a simultaneous phase, placing or retrieving a trap is a secret)."""
    with production_logging("INFO") as logs:
        service = await Service.open(f"sqlite+aiosqlite:///{tmp_path / 'l.db'}", render=False)
        place = Place(42, 7)
        alice, bob = Actor(1, "Alice"), Actor(2, "Bob")
        await service.new_game(alice, place, "tiny", {})
        await service.join(bob, place)
        await service.start(alice, place)
        await service.act(alice, place, "tiny", "bid", {"amount": 3})
        await service.act(bob, place, "tiny", "take", {})
        await service.act(bob, place, "tiny\n forged=1", "bid", {"amount": 2})
        await service.close()
    text = logs.getvalue()
    lines = [line for line in text.splitlines() if "logger=partida.service" in line]
    assert lines, text
    for line in lines:
        assert "\n" not in line and re.search(r"command=\S+ channel=42 guild=7 user=\d", line)
    assert any("command=tiny.move" in x and "game=1" in x and "outcome=ok" in x for x in lines)
    assert any("command=tiny.move" in x and "outcome=refused" in x for x in lines)
    assert not any("bid" in x or "take" in x for x in lines), "which move was sent is a secret"
    assert not any("forged=1" in x for x in lines), "a user-typed name forged a log field"
    assert "amount" not in text, "command arguments (secret submissions) stay out of the log"


def test_logs_never_contain_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    shaped = "OTk5OTk5OTk5OTk5OTk5OTk5.Gabcde.ZYXWVUTSRQPONMLKJIHGFEDCBA0123456789xy"
    with production_logging("DEBUG") as logs:
        log = logging.getLogger("partida.test")
        log.info("connecting with %s", TOKEN)
        log.warning(f"header Authorization: Bot {TOKEN}")
        log.error("another token-shaped value %s", shaped)
        try:
            raise RuntimeError(f"login failed for token {TOKEN}")
        except RuntimeError:
            log.exception("login failed")
        logging.getLogger("discord.http").debug("payload %r", {"token": TOKEN})
    text = logs.getvalue()
    assert "login failed" in text and "[token]" in text
    assert TOKEN not in text and shaped not in text
    assert TOKEN.split(".")[2] not in text, "not even the secret part"
