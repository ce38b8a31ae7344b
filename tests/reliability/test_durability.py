"""An acknowledged move is on disk before its reply: SQLite syncs at every commit.

docs/operations.md promises that a move the bot acknowledged survives a crash of the machine.
With WAL and ``synchronous=NORMAL`` a commit is not synced (only checkpoints are), so a power loss
can take back the last moves; ``synchronous=FULL`` (the default) syncs the WAL at each commit.
A power loss cannot be staged in a test, so the test counts what makes it survivable: the
``fsync``/``fdatasync`` calls of a process that plays N moves, under strace. It also checks that
the count tells the two apart: with ``SQLITE_SYNCHRONOUS=NORMAL`` the same moves sync fewer times
than there are moves.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.service import Service
from bot.store.database import create_engine
from tests.conftest import ALICE, BOB
from tests.test_service import started

ROOT = Path(__file__).resolve().parents[2]
MOVES = 12  # three rounds of the test game: two bids and two passes each

# Plays MOVES moves, every one acknowledged (reply.ok) before the next.
_PLAY = f"""
import asyncio, sys
from bot.service import Service
from tests.conftest import ALICE, BOB, HERE
from tests.support.tiny import install

async def main(url):
    install()
    service = await Service.open(url, render=False)
    for _ in range({MOVES} // 4):
        for actor in (ALICE, BOB):
            assert (await service.act(actor, HERE, "tiny", "bid", {{"amount": 1}})).ok
        for actor in (ALICE, BOB):
            assert (await service.act(actor, HERE, "tiny", "pass", {{}})).ok
    await service.close()
    print("played")

asyncio.run(main(sys.argv[1]))
"""

_SYNC = re.compile(r"\b(?:fdatasync|fsync)\(")  # a call, not a "<... resumed>" line


def _strace() -> str:
    path = shutil.which("strace")
    if path is None:
        pytest.skip("strace is not installed (.ci/run installs it): syncs cannot be counted")
    probe = subprocess.run([path, "-f", "-e", "trace=fsync", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"strace cannot trace here (ptrace refused?): {probe.stderr.decode()[:200]}")
    return path


async def _syncs_of_moves(tmp_path: Path, synchronous: str | None) -> int:
    strace = _strace()
    url = f"sqlite+aiosqlite:///{tmp_path / 'durable.db'}"
    service = await Service.open(url, render=False)
    await started(service, ALICE, BOB, rounds=9)
    await service.close()
    env = {**os.environ, "RENDER_WORKERS": "0"}
    env.pop("SQLITE_SYNCHRONOUS", None)
    if synchronous is not None:
        env["SQLITE_SYNCHRONOUS"] = synchronous
    trace = tmp_path / "syscalls.txt"
    played = subprocess.run(
        [strace, "-f", "-e", "trace=fsync,fdatasync", "-o", str(trace)]
        + [sys.executable, "-c", _PLAY, url],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert played.returncode == 0 and "played" in played.stdout, played.stdout + played.stderr
    return len(_SYNC.findall(trace.read_text()))


async def test_every_acknowledged_move_is_synced_to_disk(tmp_path: Path) -> None:
    syncs = await _syncs_of_moves(tmp_path, None)  # the default
    assert syncs >= MOVES, f"{syncs} syncs for {MOVES} acknowledged moves"


async def test_the_count_would_catch_synchronous_normal(tmp_path: Path) -> None:
    syncs = await _syncs_of_moves(tmp_path, "NORMAL")
    assert syncs < MOVES, f"NORMAL synced {syncs} times for {MOVES} moves: the count proves nothing"


async def test_commits_are_synced_by_default_and_normal_on_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's ``synchronous``: FULL (2) unless SQLITE_SYNCHRONOUS says otherwise; the
    migrations' engine uses the same."""
    for setting, pragma in ((None, 2), ("NORMAL", 1), ("EXTRA", 3)):
        if setting is None:
            monkeypatch.delenv("SQLITE_SYNCHRONOUS", raising=False)
        else:
            monkeypatch.setenv("SQLITE_SYNCHRONOUS", setting)
        for ddl in (False, True):
            engine = create_engine(
                f"sqlite+aiosqlite:///{tmp_path / 's.db'}", transactional_ddl=ddl
            )
            async with engine.connect() as connection:
                assert (await connection.execute(text("PRAGMA synchronous"))).scalar() == pragma
            await engine.dispose()
