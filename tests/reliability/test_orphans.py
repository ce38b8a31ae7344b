"""Killing the bot or the console leaves no process behind.

Each test starts the real entry point (``partida console`` / ``partida run``) as a subprocess,
makes it draw a table picture (which starts the render worker, a "spawn" process, and with it
multiprocessing's resource tracker), notes every descendant by pid and start time from /proc,
sends SIGKILL or SIGTERM, and checks that within a few seconds none of them is still running.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from bot.discord import async_sync_commands
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
GONE_WITHIN = 5.0

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, or None when it no longer exists."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()  # the name in parentheses may hold spaces
    return int(fields[1]), fields[0], int(fields[19])


def descendants(root: int) -> dict[int, int]:
    """pid → start time of every process below ``root``."""
    children: dict[int, list[int]] = {}
    starts: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (info := _stat(int(entry.name))) is not None:
            children.setdefault(info[0], []).append(int(entry.name))
            starts[int(entry.name)] = info[2]
    found: dict[int, int] = {}
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found[child] = starts[child]
            todo.append(child)
    return found


def running(processes: dict[int, int]) -> list[int]:
    """Those still running (a zombie has exited: only its exit status is left to collect)."""
    out = []
    for pid, start in processes.items():
        info = _stat(pid)
        if info is not None and info[2] == start and info[1] != "Z":
            out.append(pid)
    return out


async def wait_gone(processes: dict[int, int]) -> list[int]:
    end = time.monotonic() + GONE_WITHIN
    while (left := running(processes)) and time.monotonic() < end:
        await asyncio.sleep(0.05)
    return left


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "RENDER_WORKERS": "1",
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'partida.db'}",
        "PYTHONPATH": str(ROOT),
        **extra,
    }
    env.pop("DISCORD_TOKEN", None)
    return {**env, **extra}


async def _drain(stream: asyncio.StreamReader, into: bytearray) -> None:
    while chunk := await stream.read(65536):
        into.extend(chunk)


async def read_until(stream: asyncio.StreamReader, needle: str, timeout: float = 60) -> str:
    seen = ""
    async with asyncio.timeout(timeout):
        while needle not in seen:
            line = await stream.readline()
            if not line:
                raise AssertionError(f"ended before {needle!r}:\n{seen}")
            seen += line.decode()
    return seen


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
async def test_the_console_takes_its_render_worker_along(
    sig: signal.Signals, tmp_path: Path
) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "console",
        "--images",
        str(tmp_path / "images"),
        cwd=tmp_path,
        env=environment(tmp_path),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"@alice /game new zvv\n@bob /game join\n@alice /game start\n")
        await process.stdin.drain()
        await read_until(process.stdout, "zvv.png")  # the worker drew the table
        below = descendants(process.pid)
        assert len(below) >= 2, f"expected a render worker and a resource tracker: {below}"
        process.send_signal(sig)
        code = await asyncio.wait_for(process.wait(), 30)
        assert await wait_gone(below) == [], "processes outlived the console"
        if sig == signal.SIGTERM:
            assert process.stderr is not None
            assert code == 0, (await process.stderr.read()).decode()[-2000:]
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


BOT = """
import sys, yarl, discord.http, discord.gateway
discord.http.Route.BASE = sys.argv[1]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
from bot.cli import main
sys.exit(main(["run"]))
"""


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
async def test_the_bot_takes_its_render_worker_along(sig: signal.Signals, tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        await async_sync_commands(fake.token, fake.guild_id)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            BOT,
            f"http://127.0.0.1:{fake.port}/api/v10",
            fake.ws_url,
            cwd=tmp_path,
            env=environment(tmp_path, DISCORD_TOKEN=fake.token, LOG_LEVEL="INFO"),
            stderr=asyncio.subprocess.PIPE,
        )
        assert process.stderr is not None
        try:
            await read_until(process.stderr, "has connected to Gateway")
            # The bot's log is read on, so that a full pipe never blocks its logging (and the
            # bot with it) on a slow machine.
            logged = bytearray()
            draining = asyncio.create_task(_drain(process.stderr, logged))
            await asyncio.sleep(0.3)  # READY and GUILD_CREATE reach the bot
            alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
            await (await fake.slash(alice, "zvv new")).result(20)
            await (await fake.slash(bob, "game join")).result(20)
            await (await fake.slash(alice, "game start")).result(20)
            # The first picture starts the render worker (and multiprocessing's resource
            # tracker): wait for those processes, not for the picture, which a loaded machine
            # may send late.
            below: dict[int, int] = {}
            async with asyncio.timeout(90):
                while len(below) < 2:
                    await asyncio.sleep(0.05)
                    below = descendants(process.pid)
            process.send_signal(sig)
            code = await asyncio.wait_for(process.wait(), 30)
            assert await wait_gone(below) == [], "processes outlived the bot"
            await draining
            if sig == signal.SIGTERM:
                assert code == 0, logged.decode()[-3000:]
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
